r"""DeBERTa disentangled attention (He et al. 2021): clipped relative index, log buckets, and the scores.

Convention: the relative position is **query - key** (``r = i - j``). The clipped index into the ``2k`` relative
embeddings is ``delta(i, j) = clip(i - j + k, 0, 2k - 1)``. The score

``A(i, j) = (Q^c_i . K^c_j + Q^c_i . K^r_{delta(i, j)} + K^c_j . Q^r_{p2c}) / sqrt(3 d)``

has a position->content index that depends on the convention (a parameter, ``p2c_index``):

* ``"paper"``: ``delta(j, i)`` as in Eq. (4) of the paper;
* ``"code"``: the public implementations (microsoft/DeBERTa, Hugging Face) gather with ``clip(-r + k)`` on a
  key-by-query matrix and transpose, which lands on ``delta(i, j)``: p2c is indexed like c2p.

Inside the window ``|i - j| < k`` the two are mirror images (``delta(j, i) = 2k - delta(i, j)``); at the window's
edge they are not a relabelling of each other (see the ``deberta-p2c-code-vs-paper`` fact).

v2/v3 first map ``r`` to a log bucket (:func:`deberta_log_bucket`), then clip with ``k = position_buckets``.

>>> deberta_delta([-5, -2, 0, 2, 5], k=3).tolist()
[0, 1, 3, 5, 5]
>>> deberta_log_bucket([-300, -128, 0, 127, 128, 129, 511]).tolist()
[-207, -128, 0, 127, 128, 129, 255]
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
from posproof.numeric import _validate
from posproof.numeric._deprecated import old_arguments

__all__ = [
    "deberta_delta",
    "deberta_log_bucket",
    "deberta_log_bucket_mp",
    "deberta_relative_index",
    "deberta_scores_direct",
    "deberta_scores_gather",
    "P2C_INDEX",
]

#: The two conventions for the position->content index (see the module docstring).
P2C_INDEX = ("code", "paper")


@old_arguments(positional=("relative_position", "k"))
def deberta_delta(relative_position, *, k: int) -> np.ndarray:
    r"""``delta = clip(r + k, 0, 2k - 1)`` for ``r = i - j`` (query - key): int64, the input's shape."""
    r = _validate.integer_array(relative_position, "relative_position")
    k = _validate.positive_int(k, "k")
    return np.clip(r + k, 0, 2 * k - 1)


def _log_bucket_args(bucket_size, max_position) -> tuple[int, int]:
    bucket_size = _validate.even_int(bucket_size, "bucket_size", 4)
    mid = bucket_size // 2
    max_position = _validate.positive_int(max_position, "max_position", mid + 2)  # log((max_position-1)/mid) > 0
    return bucket_size, max_position


@old_arguments(positional=("relative_position", "bucket_size", "max_position"))
def deberta_log_bucket(relative_position, *, bucket_size: int = 256, max_position: int = 512) -> np.ndarray:
    r"""DeBERTa v2/v3 log buckets of ``r = i - j`` (query - key), as ``make_log_bucket_position``: exact for
    ``|r| <= bucket_size/2 = mid``, else ``sign(r) * (ceil(log(|r|/mid) / log((max_position-1)/mid) * (mid-1)) + mid)``.
    Odd: ``bucket(-r) = -bucket(r)``. ``|r| = max_position - 1`` maps to ``±(bucket_size - 1)``; like the reference,
    larger ``|r|`` are not capped here (the score's index clip saturates them). ``relative_position``: integers
    in ``[-2**53, 2**53]``."""
    r = _validate.integer_array(relative_position, "relative_position")  # (...)
    bucket_size, max_position = _log_bucket_args(bucket_size, max_position)
    mid = bucket_size // 2
    a = np.abs(r)
    safe = np.maximum(a, mid).astype(np.float64)  # log only where |r| > mid is used; never log(0)
    # mid + ceil(log(|r|/mid) / log((max_position - 1)/mid) * (mid - 1))
    # both logarithms by np.log, as the reference: at |r| = max_position - 1 the ratio is then exactly 1
    log_pos = mid + np.ceil(np.log(safe / mid) / np.log((max_position - 1) / mid) * (mid - 1)).astype(np.int64)
    return np.where(a <= mid, r, np.sign(r) * log_pos)


def _log_bucket_mp(r: int, mid: int, max_position: int, dps: int) -> int:
    if abs(r) <= mid:
        return r
    with mpmath.workdps(dps):
        x = mpmath.log(mpmath.mpf(abs(r)) / mid) / mpmath.log(mpmath.mpf(max_position - 1) / mid) * (mid - 1)
        return (1 if r > 0 else -1) * (mid + int(mpmath.ceil(x)))


@old_arguments(positional=("relative_position", "bucket_size", "max_position", "dps"))
def deberta_log_bucket_mp(relative_position, *, bucket_size: int = 256, max_position: int = 512, dps: int = 50):
    r"""The same buckets with the logarithms evaluated by mpmath at ``dps`` digits (the exact definition): an
    ``int`` for a scalar, else nested lists of the input's shape; the same arguments and checks as
    :func:`deberta_log_bucket`. The float kernel agrees except possibly where the scaled logarithm is exactly an
    integer (e.g. bucket_size 18, max_position 26, r = 15): there float rounding, the reference's too, decides the
    ceiling."""
    r = _validate.integer_array(relative_position, "relative_position")
    bucket_size, max_position = _log_bucket_args(bucket_size, max_position)
    dps = _validate.dps(dps)
    mid = bucket_size // 2
    out = [_log_bucket_mp(int(v), mid, max_position, dps) for v in r.reshape(-1).tolist()]
    arr = np.array(out, dtype=np.int64).reshape(r.shape)
    return int(arr) if arr.ndim == 0 else arr.tolist()


def _bucket_args(bucket_size, max_position):
    if bucket_size is None and max_position is not None:
        raise ValueError(
            "max_position only applies with bucket_size (the log buckets of v2/v3); give both, or neither for v1"
        )
    return bucket_size, (512 if max_position is None else max_position)


@old_arguments(positional=("relative_position", "k", "bucket_size", "max_position"))
def deberta_relative_index(
    relative_position, *, k: int, bucket_size: int | None = None, max_position: int | None = None
) -> np.ndarray:
    r"""The row of the ``2k`` relative embeddings used for ``r = i - j``: ``clip(bucket(r) + k, 0, 2k - 1)``,
    with ``bucket`` the identity (v1) or :func:`deberta_log_bucket` when ``bucket_size`` is given (v2/v3, with
    ``max_position``, default 512; ``max_position`` alone is refused)."""
    r = _validate.integer_array(relative_position, "relative_position")
    bucket_size, max_position = _bucket_args(bucket_size, max_position)
    if bucket_size is not None:
        r = deberta_log_bucket(r, bucket_size=bucket_size, max_position=max_position)
    return deberta_delta(r, k=k)


def _inputs(Qc, Kc, Qr, Kr, k):
    Qc, Kc, Qr, Kr = (_validate.finite_array(a, name) for a, name in ((Qc, "Qc"), (Kc, "Kc"), (Qr, "Qr"), (Kr, "Kr")))
    k = _validate.positive_int(k, "k")
    if Qc.ndim != 2 or Kc.ndim != 2 or Qc.shape[1] != Kc.shape[1]:
        raise ValueError(f"Qc and Kc must be (length, d) arrays of one width, got {Qc.shape} and {Kc.shape}")
    if Qc.shape[0] != Kc.shape[0]:
        raise ValueError(f"Qc and Kc must have the same length (self-attention), got {Qc.shape[0]} and {Kc.shape[0]}")
    for name, a in (("Qr", Qr), ("Kr", Kr)):
        if a.shape != (2 * k, Qc.shape[1]):
            raise ValueError(f"{name} must have shape (2k, d) = {(2 * k, Qc.shape[1])}, got {a.shape}")
    return Qc, Kc, Qr, Kr, k


def _p2c(value) -> str:
    if value not in P2C_INDEX:
        raise ValueError(f"p2c_index must be one of {', '.join(map(repr, P2C_INDEX))}, got {value!r}")
    return value


@old_arguments(positional=("Qc", "Kc", "Qr", "Kr", "k", "p2c_index", "bucket_size", "max_position"))
def deberta_scores_direct(
    Qc, Kc, Qr, Kr, *, k: int, p2c_index: str = "code", bucket_size: int | None = None, max_position: int | None = None
) -> np.ndarray:
    r"""``A(i, j)`` computed entry by entry from the index ``delta`` (an ``O(L^2 d)`` gather of embedding rows).

    ``Qc, Kc``: content queries/keys ``(L, d)``; ``Qr, Kr``: projected relative embeddings ``(2k, d)``.
    Returns ``(L, L)``, scaled by ``1/sqrt(3d)``."""
    Qc, Kc, Qr, Kr, k = _inputs(Qc, Kc, Qr, Kr, k)
    p2c_index = _p2c(p2c_index)
    bucket_size, max_position = _bucket_args(bucket_size, max_position)
    L, d = Qc.shape
    i, j = np.arange(L)[:, None], np.arange(L)[None, :]
    mp = max_position if bucket_size else None
    d_ij = deberta_relative_index(i - j, k=k, bucket_size=bucket_size, max_position=mp)  # (L, L): delta(i, j)
    d_ji = deberta_relative_index(j - i, k=k, bucket_size=bucket_size, max_position=mp)  # (L, L): delta(j, i)
    c2c = Qc @ Kc.T  # Q^c_i . K^c_j
    c2p = np.einsum("il,ijl->ij", Qc, Kr[d_ij])  # Q^c_i . K^r_{delta(i,j)}
    p2c = np.einsum("jl,ijl->ij", Kc, Qr[d_ij if p2c_index == "code" else d_ji])  # K^c_j . Q^r_{...}
    return (c2c + c2p + p2c) / math.sqrt(3 * d)


@old_arguments(positional=("Qc", "Kc", "Qr", "Kr", "k", "p2c_index", "bucket_size", "max_position"))
def deberta_scores_gather(
    Qc, Kc, Qr, Kr, *, k: int, p2c_index: str = "code", bucket_size: int | None = None, max_position: int | None = None
) -> np.ndarray:
    r"""The same scores as the public code computes them: ``Qc Kr^T`` and ``Kc Qr^T`` for all ``2k`` rows, a
    gather along the last axis, and a transpose of the position->content part."""
    Qc, Kc, Qr, Kr, k = _inputs(Qc, Kc, Qr, Kr, k)
    p2c_index = _p2c(p2c_index)
    bucket_size, max_position = _bucket_args(bucket_size, max_position)
    L, d = Qc.shape
    ids = np.arange(L)
    rel = ids[:, None] - ids[None, :]  # (L, L): rel[a, b] = a - b (query - key when a is the query)
    if bucket_size is not None:
        rel = deberta_log_bucket(rel, bucket_size=bucket_size, max_position=max_position)
    c2p_all = Qc @ Kr.T  # (L, 2k)
    c2p = np.take_along_axis(c2p_all, np.clip(rel + k, 0, 2 * k - 1), axis=-1)  # [i, j]
    p2c_all = Kc @ Qr.T  # (L, 2k): rows are keys
    # rows are keys j, columns queries i; the public code indexes with -rel (p2c like c2p after the transpose)
    p2c_pos = np.clip((-rel if p2c_index == "code" else rel) + k, 0, 2 * k - 1)
    p2c = np.take_along_axis(p2c_all, p2c_pos, axis=-1).T  # [j, i] -> [i, j]
    return (Qc @ Kc.T + c2p + p2c) / math.sqrt(3 * d)
