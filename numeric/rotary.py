r"""Rotary position embedding (RoPE; Su et al., RoFormer, arXiv 2104.09864), vectorised, cached, and as mpmath
references.

Pair ``i`` (``i = 0 .. d/2 - 1``) of a row at position ``m`` is rotated by the angle ``m theta_i`` with
``theta_i = base**(-2i/d)`` (counter-clockwise: ``(x, y) -> (x cos - y sin, x sin + y cos)``). Two layouts say
which channels form pair ``i``:

* ``"interleaved"``: channels ``(2i, 2i + 1)`` (RoFormer, Meta's complex code, the seed's NumPy function);
* ``"half"``: channels ``(i, i + d/2)`` (GPT-NeoX, Hugging Face ``rotate_half``).

They agree when q and k are both permuted by :func:`layout_permutation` (proved in ``rope-layout-permutation``).

>>> import numpy as np
>>> rope(np.array([[1.0, 0.0]]), [np.pi / 2]).round(12).tolist()
[[0.0, 1.0]]
"""

from __future__ import annotations

from dataclasses import dataclass, field

import mpmath
import numpy as np

from . import _validate
from .sinusoid import inverse_frequencies, inverse_frequencies_mp

__all__ = [
    "rope",
    "rope_table",
    "RopeTable",
    "rope_mp",
    "rope_decay_bound",
    "rope_decay_bound_mp",
    "layout_permutation",
    "interleaved_to_half_rows",
]


# ---- validation ------------------------------------------------------------------------------------------------


def _low_precision_dtypes() -> tuple:
    out = [np.dtype(np.float16)]
    try:
        import ml_dtypes

        out.append(np.dtype(ml_dtypes.bfloat16))
    except ImportError:  # pragma: no cover - the precision extra is optional
        pass
    return tuple(out)


_LOW = _low_precision_dtypes()


def _vectors(value, name: str = "vectors") -> np.ndarray:
    r"""A real floating array ``(..., tokens, width)``; integers are converted to float64."""
    arr = np.asarray(value)
    if arr.dtype in _LOW or arr.dtype in (np.float32, np.float64):
        pass
    elif arr.dtype != bool and np.issubdtype(arr.dtype, np.integer):
        arr = arr.astype(np.float64)
    else:
        raise ValueError(
            f"{name} must be a real floating-point array (float16/bfloat16/float32/float64), got dtype {arr.dtype}"
        )
    if arr.ndim < 2:
        raise ValueError(f"{name} must have shape (..., tokens, width), got shape {arr.shape}")
    return arr


def _check_finite(arr: np.ndarray, name: str) -> None:
    r"""``ValueError`` if ``arr`` (float32/float64, C-contiguous) holds inf or NaN.

    Fast path: row sums by one BLAS matrix-vector product (a read-only pass; inf and NaN propagate into them).
    Only if a row sum is not finite (it may also overflow) are the entries themselves inspected."""
    rows = arr.reshape(-1, arr.shape[-1])
    with np.errstate(over="ignore", invalid="ignore"):
        total = (rows @ np.ones(arr.shape[-1], dtype=arr.dtype)).sum()
    if not np.isfinite(total):
        bad = ~np.isfinite(arr)
        if bad.any():
            where = np.argwhere(bad)[0].tolist()
            raise ValueError(f"{name} must be finite; got a non-finite value at index {tuple(where)}")


def _match(positions: np.ndarray, shape: tuple, name: str = "positions") -> None:
    lead = shape[:-1]
    if positions.ndim > len(lead) or lead[len(lead) - positions.ndim :] != positions.shape:
        raise ValueError(
            f"{name} must have one entry per row: shape {lead[-1:]} or a trailing part of {lead}, "
            f"got shape {positions.shape} for vectors of shape {shape}"
        )


# ---- pure kernels ------------------------------------------------------------------------------------------------


def _rotate_interleaved(x: np.ndarray, rotor: np.ndarray, out: np.ndarray) -> np.ndarray:
    r"""``out = x * e^{i m theta}`` on the complex view of interleaved pairs: ``(x0 + i x1) (cos + i sin)``.

    ``x``, ``out`` ``(..., tokens, d)`` C-contiguous float; ``rotor`` ``(..., tokens, d/2)`` complex."""
    complex_dtype = rotor.dtype
    np.multiply(x.view(complex_dtype), rotor, out=out.view(complex_dtype))
    return out


#: Tokens per block of the half-layout kernel: its temporary then stays in the CPU cache.
_HALF_BLOCK = 1024


def _rotate_half(x: np.ndarray, cos2: np.ndarray, sin2: np.ndarray, out: np.ndarray) -> np.ndarray:
    r"""Half layout: ``out = x * [cos, cos] + swap(x) * [-sin, sin]`` where ``swap`` exchanges the two halves,
    i.e. ``out_i = x_i cos - x_{i+h} sin`` and ``out_{i+h} = x_{i+h} cos + x_i sin`` (``h = d/2``).

    ``x``, ``out`` ``(..., tokens, d)`` C-contiguous; ``cos2``, ``sin2`` ``(..., tokens, d)`` (the full-width
    tables above), processed in blocks of tokens."""
    d = x.shape[-1]
    h = d // 2
    tokens = x.shape[-2]
    per_token = cos2.ndim >= 2 and cos2.shape[-2] == tokens
    tmp = np.empty(x.shape[:-2] + (min(tokens, _HALF_BLOCK), d), dtype=out.dtype)
    for t0 in range(0, tokens, _HALF_BLOCK):
        t1 = min(tokens, t0 + _HALF_BLOCK)
        xb, ob, tb = x[..., t0:t1, :], out[..., t0:t1, :], tmp[..., : t1 - t0, :]
        c2 = cos2[..., t0:t1, :] if per_token else cos2
        s2 = sin2[..., t0:t1, :] if per_token else sin2
        split = xb.shape[:-1] + (2, h)
        np.multiply(xb, c2, out=ob)  # x * [cos, cos]
        np.multiply(xb.reshape(split)[..., ::-1, :], s2.reshape(s2.shape[:-1] + (2, h)), out=tb.reshape(split))
        np.add(ob, tb, out=ob)  # + swap(x) * [-sin, sin]
    return out


# ---- the cached table ------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class RopeTable:
    r"""cos/sin of ``m theta_i`` for fixed positions and width, computed once in float64.

    :meth:`apply` rotates any array ``(..., tokens, width)`` whose rows sit at these positions; float32 and
    float64 inputs are rotated in their own precision, float16/bfloat16 in float32 and rounded at the end."""

    positions: np.ndarray  # (..., tokens) float64
    width: int
    base: float
    layout: str
    cos: np.ndarray  # (..., tokens, d/2) float64
    sin: np.ndarray  # (..., tokens, d/2) float64
    _cast: dict = field(default_factory=dict, repr=False)

    def _tables(self, dtype: np.dtype):
        if dtype not in self._cast:
            if self.layout == "interleaved":
                cdt = np.complex128 if dtype == np.float64 else np.complex64
                rotor = np.empty(self.cos.shape, dtype=cdt)
                rotor.real, rotor.imag = self.cos, self.sin  # e^{i m theta_i}
                self._cast[dtype] = (rotor,)
            else:
                cos2 = np.concatenate([self.cos, self.cos], axis=-1).astype(dtype)  # (..., tokens, d)
                sin2 = np.concatenate([-self.sin, self.sin], axis=-1).astype(dtype)
                self._cast[dtype] = (cos2, sin2)
        return self._cast[dtype]

    def apply(self, vectors, out: np.ndarray | None = None, check_finite: bool = True) -> np.ndarray:
        r"""Rotate ``vectors`` ``(..., tokens, width)``: same result as :func:`rope` (same dtype as the input).

        ``out`` may be a preallocated C-contiguous array of the result's shape and dtype."""
        x = _vectors(vectors)
        if x.shape[-1] != self.width:
            raise ValueError(f"vectors must have width {self.width} (the table's), got shape {x.shape}")
        _match(self.positions, x.shape)
        result_dtype = x.dtype
        if out is None:
            out = np.empty(x.shape, dtype=result_dtype)
        elif out.shape != x.shape or out.dtype != result_dtype or not out.flags.c_contiguous:
            raise ValueError(f"out must be a C-contiguous {result_dtype} array of shape {x.shape}")
        work = np.float64 if x.dtype == np.float64 else np.float32
        if x.dtype in _LOW:  # rotate in float32, round once at the end
            xw = x.astype(np.float32)
            target = np.empty(x.shape, dtype=np.float32)
        else:
            xw, target = np.ascontiguousarray(x), out
        if check_finite:
            _check_finite(xw, "vectors")
        tables = self._tables(np.dtype(work))
        if self.layout == "interleaved":
            _rotate_interleaved(xw, tables[0], target)
        else:
            _rotate_half(xw, tables[0], tables[1], target)
        if target is not out:
            out[...] = target
        return out


def rope_table(positions, width: int, base: float = 10000.0, layout: str = "interleaved") -> RopeTable:
    r"""Build the cos/sin table of ``positions`` (shape ``(tokens,)`` or ``(..., tokens)``) once, from float64
    angles ``m theta_i``.

    >>> import numpy as np
    >>> t = rope_table([0, 1, 2], 4)
    >>> x = np.ones((3, 4), dtype=np.float32)
    >>> bool(np.allclose(t.apply(x), rope(x, [0, 1, 2]), atol=1e-6))
    True
    """
    pos = _validate.positions(positions, one_d=False)
    width = _validate.even_width(width, "width")
    layout = _validate.layout(layout)
    theta = inverse_frequencies(width, base)  # (d/2,)
    angles = pos[..., None] * theta  # (..., tokens, d/2): m theta_i, float64
    return RopeTable(pos, width, float(base), layout, np.cos(angles), np.sin(angles))


def rope(vectors, positions, base: float = 10000.0, layout: str = "interleaved") -> np.ndarray:
    r"""Rotate ``vectors`` ``(..., tokens, width)`` (even width) by their ``positions`` (one per row: shape
    ``(tokens,)`` shared by leading batch axes, or ``(..., tokens)``). Same meaning as the seed's function for
    ``layout="interleaved"``; ``"half"`` pairs channel ``i`` with ``i + d/2``. Angles are float64; the result has
    the input's dtype.

    >>> rope([[1.0, 0.0, 1.0, 0.0]], [1], layout="interleaved").round(4).tolist()
    [[0.5403, 0.8415, 1.0, 0.01]]
    >>> rope([[1.0, 1.0, 0.0, 0.0]], [1], layout="half").round(4).tolist()
    [[0.5403, 1.0, 0.8415, 0.01]]
    """
    x = _vectors(vectors)
    width = x.shape[-1]
    if width == 0 or width % 2:
        raise ValueError(f"vectors must have an even width (last axis) >= 2, got shape {x.shape}")
    layout = _validate.layout(layout)
    pos = _validate.positions(positions, one_d=False)
    _match(pos, x.shape)
    return rope_table(pos, width, base, layout).apply(x)


# ---- layouts -------------------------------------------------------------------------------------------------------


def layout_permutation(width: int) -> np.ndarray:
    r"""Channel permutation ``P`` from interleaved to half layout: ``x_half = x_interleaved[..., P]``.

    ``(P x)_i = x_{2i}``, ``(P x)_{i + d/2} = x_{2i+1}``; then ``rope(x[..., P], layout="half") ==
    rope(x, layout="interleaved")[..., P]``, so scores are equal when q and k are both permuted.

    >>> layout_permutation(6).tolist()
    [0, 2, 4, 1, 3, 5]
    """
    width = _validate.even_width(width, "width")
    return np.concatenate([np.arange(0, width, 2), np.arange(1, width, 2)])


def interleaved_to_half_rows(weight, heads: int) -> np.ndarray:
    r"""Permute the output rows of a q or k projection ``(heads * head_dim, in)`` head by head, so that a
    half-layout kernel computes the interleaved model's scores. For keys under grouped-query attention pass the
    number of **key-value** heads (the rows of ``W_k`` are ``kv_heads * head_dim``)."""
    w = np.asarray(weight)
    heads = _validate.positive_int(heads, "heads")
    if w.ndim < 1 or w.shape[0] % heads:
        raise ValueError(f"weight rows ({w.shape[0] if w.ndim else 0}) must be a multiple of heads={heads}")
    head_dim = _validate.even_width(w.shape[0] // heads, "head_dim (weight rows / heads)")
    perm = layout_permutation(head_dim)
    return w.reshape((heads, head_dim) + w.shape[1:])[:, perm].reshape(w.shape)


# ---- mpmath references -----------------------------------------------------------------------------------------


def _mpf(v) -> mpmath.mpf:
    r"""An exact mpmath number from a Python/NumPy real or a decimal string (NumPy scalars via float/int)."""
    if isinstance(v, np.generic):
        v = int(v) if np.issubdtype(type(v), np.integer) else float(np.float64(v))
    try:
        return mpmath.mpf(v)
    except (TypeError, ValueError):
        raise ValueError(f"expected a real number, got {v!r}") from None


def rope_mp(vectors, positions, base=10000, layout: str = "interleaved", dps: int = 50) -> list:
    r"""The rotation of each row at ``dps`` digits (mpmath), either layout: a list of rows of ``mpf``.

    ``vectors`` is ``tokens x width`` (nested sequences or an array; strings are read exactly by mpmath),
    ``positions`` one per row."""
    layout = _validate.layout(layout)
    dps = _validate.dps(dps)
    rows = [list(r) for r in vectors]
    if len(rows) != len(positions):
        raise ValueError(f"positions must have one entry per row: {len(rows)} rows, {len(positions)} positions")
    out = []
    with mpmath.workdps(dps):
        for row, p in zip(rows, positions, strict=True):
            width = _validate.even_width(len(row), "width")
            theta = inverse_frequencies_mp(width, base, dps)
            h = width // 2
            v = [_mpf(c) for c in row]
            p = _mpf(p)
            if not mpmath.isfinite(p) or not all(mpmath.isfinite(c) for c in v):
                raise ValueError("vectors and positions must be finite")
            res = [mpmath.mpf(0)] * width
            for j, t in enumerate(theta):
                c, s = mpmath.cos(p * t), mpmath.sin(p * t)
                a, b = (2 * j, 2 * j + 1) if layout == "interleaved" else (j, j + h)
                res[a] = v[a] * c - v[b] * s
                res[b] = v[a] * s + v[b] * c
            out.append(res)
    return out


# ---- long-term decay -------------------------------------------------------------------------------------------


def rope_decay_bound(d: int, distances, base: float = 10000.0) -> np.ndarray:
    r"""RoFormer's decay curve ``(1/(d/2)) sum_{j=1}^{d/2} |S_j|``, ``S_j = sum_{l<j} e^{i r theta_l}``, at each
    relative distance ``r`` (float64, shape of ``distances``).

    >>> rope_decay_bound(128, [0]).tolist()
    [32.5]
    """
    d = _validate.even_width(d, "d")
    r = _validate.positions(np.atleast_1d(distances), "distances", one_d=False)
    theta = inverse_frequencies(d, base)  # (d/2,)
    flat = r.reshape(-1)
    out = np.empty(flat.shape, dtype=np.float64)
    chunk = max(1, 2**20 // max(1, d))
    for s in range(0, flat.size, chunk):
        angles = flat[s : s + chunk, None] * theta  # (chunk, d/2): r theta_l
        partial = np.cumsum(np.exp(1j * angles), axis=1)  # S_1 .. S_{d/2}
        out[s : s + chunk] = np.abs(partial).mean(axis=1)
    return out.reshape(np.shape(distances))  # a scalar distance gives a 0-d array


def rope_decay_bound_mp(d: int, distances, base=10000, dps: int = 30) -> list:
    r"""The same curve with mpmath at ``dps`` digits."""
    d = _validate.even_width(d, "d")
    theta = inverse_frequencies_mp(d, base, _validate.dps(dps))
    out = []
    with mpmath.workdps(dps):
        for r in distances:
            acc, total = mpmath.mpc(0), mpmath.mpf(0)
            for t in theta:
                acc += mpmath.expj(_mpf(r) * t)
                total += abs(acc)
            out.append(total / (d // 2))
    return out
