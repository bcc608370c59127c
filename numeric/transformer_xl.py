r"""Transformer-XL relative attention scores (Dai et al. 2019), directly and with the relative-shift trick.

``A_rel(i, j) = (q_i + u) . k_j + (q_i + v) . (W_{k,R} R_{i' - j})`` with ``i' = i + mlen`` the query's absolute
position (the ``mlen`` memory keys come first), ``q_i = W_q x_i``, ``k_j = W_{k,E} x_j`` and ``R`` the
sinusoidal table of relative distances in ``[sin | cos]`` halves (frequencies ``base^(-2i/d_model)``).

The reference code computes ``B[i, c] = (q_i + v) . (W_{k,R} R_{klen-1-c})`` for the ``klen`` distances
``klen-1, ..., 0`` and applies :func:`rel_shift` (pad a zero column on the left, view as ``(klen+1, qlen)``, drop the
first row, view as ``(qlen, klen)``). On and below the causal diagonal (``j <= i + mlen``) the result is
``B`` at distance ``i + mlen - j``; above it the trick leaves a zero at ``j = i + mlen + 1`` (the pad) and, further
right, entries of the *next* query row ``i + 1`` at distances ``i + mlen + 1 + klen - j``. Those are masked.

>>> x = np.arange(6.0).reshape(2, 3)    # qlen = 2, klen = 3 (mlen = 1)
>>> rel_shift(x).tolist()
[[1.0, 2.0, 0.0], [3.0, 4.0, 5.0]]
"""

from __future__ import annotations

import numpy as np
from posproof.numeric import _validate
from posproof.numeric._deprecated import old_arguments
from posproof.numeric.sinusoid import sinusoidal

__all__ = [
    "rel_shift",
    "rel_shift_garbage",
    "causal_mask",
    "txl_relative_embeddings",
    "txl_scores_direct",
    "txl_scores_shift",
]


def _axes(x: np.ndarray, axes) -> tuple[int, int]:
    try:
        q_axis, k_axis = (int(a) for a in axes)
    except (TypeError, ValueError):
        raise ValueError(f"axes must be two different axes (query, key) of x, got {axes!r}") from None
    n = x.ndim
    if not (-n <= q_axis < n and -n <= k_axis < n) or q_axis % n == k_axis % n:
        raise ValueError(f"axes must be two different axes (query, key) of x with {n} axes, got {axes!r}")
    return q_axis % n, k_axis % n


def _scores(x, axes, name: str = "x") -> tuple[np.ndarray, int, int]:
    x = np.asarray(x)
    if x.ndim < 2:
        raise ValueError(f"{name} must have at least 2 axes (query, key), got shape {x.shape}")
    q_axis, k_axis = _axes(x, axes)
    qlen, klen = x.shape[q_axis], x.shape[k_axis]
    if klen < qlen:
        raise ValueError(
            f"{name} must have klen >= qlen (klen = qlen + mlen: memory keys first), got qlen {qlen} > klen {klen} "
            f"on axes {axes}; are the axes right?"
        )
    return x, q_axis, k_axis


@old_arguments(positional=("x", "axes"))
def rel_shift(x, *, axes=(-2, -1)) -> np.ndarray:
    r"""The relative shift of the reference code on ``(qlen, klen)`` score matrices along ``axes`` (query axis,
    key axis): the last two by default, as frameworks lay out ``(batch, heads, qlen, klen)``; ``axes=(0, 1)`` for
    the original code's ``(qlen, klen, batch, heads)``. ``klen >= qlen`` (``mlen = klen - qlen`` memory keys)."""
    x, q_axis, k_axis = _scores(x, axes)
    y = np.moveaxis(x, (q_axis, k_axis), (-2, -1))  # (..., qlen, klen)
    lead, qlen, klen = y.shape[:-2], y.shape[-2], y.shape[-1]
    padded = np.concatenate([np.zeros(lead + (qlen, 1), dtype=y.dtype), y], axis=-1)  # (..., qlen, klen + 1)
    padded = padded.reshape(lead + (klen + 1, qlen))  # the same memory viewed as (klen + 1, qlen)
    shifted = padded[..., 1:, :].reshape(lead + (qlen, klen))  # drop the first row, view as (qlen, klen)
    return np.moveaxis(shifted, (-2, -1), (q_axis, k_axis))


@old_arguments(positional=("qlen", "mlen"))
def causal_mask(qlen: int, *, mlen: int = 0) -> np.ndarray:
    r"""``True`` where key ``j`` is visible to query ``i`` (``j <= i + mlen``): bool ``(qlen, qlen + mlen)``."""
    qlen = _validate.positive_int(qlen, "qlen")
    mlen = _validate.positive_int(mlen, "mlen", 0)
    i, j = np.arange(qlen)[:, None], np.arange(qlen + mlen)[None, :]
    return j <= i + mlen


@old_arguments(positional=("x", "axes"))
def rel_shift_garbage(x, *, axes=(-2, -1)) -> np.ndarray:
    r"""What :func:`rel_shift` leaves above the causal diagonal, predicted from ``x`` itself (``NaN`` on and below
    it): ``0`` at ``j = i + mlen + 1`` and ``x[i + 1, j - mlen - i - 2]`` for ``j > i + mlen + 1`` (along
    ``axes``, as :func:`rel_shift`)."""
    x, q_axis, k_axis = _scores(x, axes)
    y = np.moveaxis(np.asarray(x, dtype=np.float64), (q_axis, k_axis), (-2, -1))  # (..., qlen, klen)
    qlen, klen = y.shape[-2:]
    mlen = klen - qlen
    out = np.full(y.shape, np.nan)
    for i in range(qlen - 1):
        out[..., i, i + mlen + 1] = 0.0
        for j in range(i + mlen + 2, klen):
            out[..., i, j] = y[..., i + 1, j - mlen - i - 2]
    return np.moveaxis(out, (-2, -1), (q_axis, k_axis))


@old_arguments(positional=("distances", "width", "base"), renamed={"d_model": "width"})
def txl_relative_embeddings(distances, *, width: int, base: float = 10000.0) -> np.ndarray:
    r"""``R_dist`` in ``[sin | cos]`` halves, float64 ``(len(distances), width)`` (``width`` is ``d_model``)."""
    return sinusoidal(distances, width=width, base=base, layout="half")


def _check(q, k, W_kR, u, v):
    names = ("q", "k", "W_kR", "u", "v")
    q, k, W_kR, u, v = (_validate.finite_array(a, name) for a, name in zip((q, k, W_kR, u, v), names, strict=True))
    if q.ndim != 2 or k.ndim != 2 or q.shape[1] != k.shape[1]:
        raise ValueError(f"q and k must be (length, d) arrays of one width, got {q.shape} and {k.shape}")
    qlen, klen, d = q.shape[0], k.shape[0], q.shape[1]
    if klen < qlen:
        raise ValueError(
            f"k must hold the mlen memory keys and the qlen current keys (klen >= qlen), got {klen} < {qlen}"
        )
    if W_kR.ndim != 2 or W_kR.shape[0] != d:
        raise ValueError(f"W_kR must be (d, d_model) with d = {d}, got shape {W_kR.shape}")
    _validate.even_width(W_kR.shape[1], "W_kR.shape[1] (d_model)")
    if u.shape != (d,) or v.shape != (d,):
        raise ValueError(f"u and v must have shape ({d},), got {u.shape} and {v.shape}")
    return q, k, W_kR, u, v, qlen, klen - qlen


@old_arguments(positional=("q", "k", "W_kR", "u", "v", "base"))
def txl_scores_direct(q, k, W_kR, u, v, *, base: float = 10000.0) -> np.ndarray:
    r"""``A_rel(i, j)`` entry by entry: an ``O(L^2)`` gather of ``W_{k,R} R_{i + mlen - j}`` for every pair.

    ``q``: ``(qlen, d)`` projected queries; ``k``: ``(klen, d)`` projected keys (``mlen = klen - qlen`` memory keys
    first); ``W_kR``: ``(d, d_model)``; ``u, v``: ``(d,)``. Defined for every ``(i, j)`` (above the diagonal the
    distance is negative and the sinusoid is still defined); returns ``(qlen, klen)``."""
    q, k, W_kR, u, v, qlen, mlen = _check(q, k, W_kR, u, v)
    klen = k.shape[0]
    dist = (np.arange(qlen)[:, None] + mlen) - np.arange(klen)[None, :]  # (qlen, klen): i + mlen - j
    R = txl_relative_embeddings(dist.reshape(-1), width=W_kR.shape[1], base=base)  # (qlen*klen, d_model)
    r = (R @ W_kR.T).reshape(qlen, klen, -1)  # (qlen, klen, d): W_kR R_{i+mlen-j}
    AC = (q + u) @ k.T  # content terms (a) + (c)
    BD = np.einsum("id,ijd->ij", q + v, r)  # position terms (b) + (d)
    return AC + BD


@old_arguments(positional=("q", "k", "W_kR", "u", "v", "base"))
def txl_scores_shift(q, k, W_kR, u, v, *, base: float = 10000.0) -> np.ndarray:
    r"""The same scores as the reference code computes them: one ``(qlen, klen)`` product with the ``klen``
    distances ``klen-1, ..., 0`` and :func:`rel_shift`. Equal to :func:`txl_scores_direct` where
    :func:`causal_mask` is true; the other entries are the trick's leftovers (see the module docstring)."""
    q, k, W_kR, u, v, qlen, mlen = _check(q, k, W_kR, u, v)
    klen = k.shape[0]
    R = txl_relative_embeddings(np.arange(klen - 1, -1, -1), width=W_kR.shape[1], base=base)  # (klen, d_model)
    r = R @ W_kR.T  # (klen, d)
    AC = (q + u) @ k.T
    BD = rel_shift((q + v) @ r.T)  # (qlen, klen)
    return AC + BD
