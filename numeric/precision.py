r"""How RoPE's relative-position property survives low precision.

Two ways to build the rotation for a storage dtype (float64, float32, float16, bfloat16):

* ``"float64-angles"``: ``m theta_i``, cos and sin in float64, cast to the dtype at the end (reference code);
* ``"low-precision-angles"``: positions and ``theta_i`` already in the dtype, the product ``m theta_i`` rounded
  to it, cos and sin of that rounded angle (as several public implementations did).

The rotation itself (``x cos - y sin``, ``x sin + y cos``) is done in the dtype, each operation rounded, as an
eager framework does. The measure: the score of a query at ``m`` and a key at ``m + r`` against the exact
(mpmath) score of the pair at ``0`` and ``r``, relative to ``|q| |k|``. The property "breaks" at the first
position where that error exceeds ``tolerances.rope_break_tolerance(dtype)``.

>>> first_break("bfloat16", "low-precision-angles", max_position=1024)
514
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import numpy as np

from . import _validate, tolerances
from .rotary import rope_mp
from .sinusoid import inverse_frequencies

__all__ = [
    "DTYPES",
    "STYLES",
    "dtype_of",
    "rotate_in_precision",
    "score_errors",
    "first_break",
    "PrecisionRow",
    "precision_table",
    "format_precision_table",
]

DTYPES = ("float64", "float32", "float16", "bfloat16")
STYLES = ("float64-angles", "low-precision-angles")


def dtype_of(name: str) -> np.dtype:
    r"""The NumPy dtype for one of :data:`DTYPES` (bfloat16 from ``ml_dtypes``)."""
    if name not in DTYPES:
        raise ValueError(f"dtype must be one of {', '.join(DTYPES)}, got {name!r}")
    if name == "bfloat16":
        try:
            import ml_dtypes
        except ImportError:  # pragma: no cover
            raise ValueError("dtype 'bfloat16' needs ml_dtypes (pip install 'posproof[precision]')") from None
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def _style(value) -> str:
    if value not in STYLES:
        raise ValueError(f"style must be one of {', '.join(STYLES)}, got {value!r}")
    return value


def rotate_in_precision(vectors, positions, dtype: str, style: str, base: float = 10000.0) -> np.ndarray:
    r"""Interleaved RoPE of ``vectors`` ``(tokens, d)`` with everything stored in ``dtype`` and the angles built
    in ``style``; returns an array of ``dtype``."""
    dt = dtype_of(dtype)
    style = _style(style)
    x = np.asarray(vectors).astype(dt)  # (tokens, d)
    width = _validate.even_width(x.shape[-1], "width")
    pos = _validate.positions(positions)
    theta = inverse_frequencies(width, base)  # (d/2,) float64
    if style == "float64-angles":
        angles = pos[:, None] * theta  # float64
        cos, sin = np.cos(angles).astype(dt), np.sin(angles).astype(dt)
    else:
        angles = pos.astype(dt)[:, None] * theta.astype(dt)  # rounded positions, frequencies and product
        a32 = angles.astype(np.float64)
        cos, sin = np.cos(a32).astype(dt), np.sin(a32).astype(dt)
    even, odd = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x)
    out[:, 0::2] = even * cos - odd * sin  # each op rounded to dt
    out[:, 1::2] = even * sin + odd * cos
    return out


def _samples(width: int, dtype: np.dtype, seed: int, distances, base: float = 10000.0) -> list:
    rng = np.random.default_rng(seed)
    out = []
    for r in distances:
        q = rng.uniform(-1, 1, width).astype(dtype).astype(np.float64)  # exactly representable in dtype
        k = rng.uniform(-1, 1, width).astype(dtype).astype(np.float64)
        with mpmath.workdps(30):
            qr, kr = rope_mp([q], [0], base, dps=30)[0], rope_mp([k], [r], base, dps=30)[0]
            exact = float(mpmath.fsum(a * b for a, b in zip(qr, kr, strict=True)))
        out.append((q, k, int(r), exact, float(np.linalg.norm(q) * np.linalg.norm(k))))
    return out


#: Relative distances r between query and key used by the study (short, medium and long range).
DISTANCES = (1, 10, 100, 1000)


def score_errors(
    dtype: str, style: str, positions, width: int = 128, base: float = 10000.0, distances=DISTANCES, seed: int = 0
) -> np.ndarray:
    r"""``max_r |s(m, m + r) - s_exact(0, r)| / (|q| |k|)`` at each query position ``m`` (float64 array)."""
    dt = dtype_of(dtype)
    pos = _validate.positions(positions)
    worst = np.zeros(pos.shape)
    for q, k, r, exact, scale in _samples(width, dt, seed, distances, base):
        qm = rotate_in_precision(np.broadcast_to(q, (pos.size, width)), pos, dtype, style, base)
        kn = rotate_in_precision(np.broadcast_to(k, (pos.size, width)), pos + r, dtype, style, base)
        score = np.einsum("td,td->t", qm.astype(np.float64), kn.astype(np.float64))
        np.maximum(worst, np.abs(score - exact) / scale, out=worst)
    return worst


def first_break(
    dtype: str,
    style: str,
    max_position: int = 32768,
    width: int = 128,
    base: float = 10000.0,
    tol: float | None = None,
    chunk: int = 4096,
):
    r"""The first integer query position ``m < max_position`` whose score error exceeds ``tol`` (default
    :func:`tolerances.rope_break_tolerance`), or ``None`` if the property holds throughout."""
    max_position = _validate.positive_int(max_position, "max_position")
    tol = tolerances.rope_break_tolerance(dtype) if tol is None else float(tol)
    for start in range(0, max_position, chunk):
        m = np.arange(start, min(max_position, start + chunk), dtype=np.float64)
        err = score_errors(dtype, style, m, width, base)
        bad = np.flatnonzero(err > tol)
        if bad.size:
            return int(m[bad[0]])
    return None


@dataclass(frozen=True)
class PrecisionRow:
    dtype: str
    style: str
    tolerance: float
    first_break: int | None
    max_position: int
    #: The score error at the last position, ``m = max_position - 1``: how bad it is by the end of the context.
    error_at_end: float


def precision_table(max_position: int = 32768, width: int = 128, base: float = 10000.0) -> list[PrecisionRow]:
    r"""One row per dtype and style: where the relative-position property first breaks."""
    rows = []
    for dtype in DTYPES:
        for style in STYLES:
            end = float(score_errors(dtype, style, [max_position - 1], width, base)[0])
            rows.append(
                PrecisionRow(
                    dtype,
                    style,
                    tolerances.rope_break_tolerance(dtype),
                    first_break(dtype, style, max_position, width, base),
                    max_position,
                    end,
                )
            )
    return rows


def format_precision_table(rows: list[PrecisionRow]) -> str:
    r"""The table as aligned text."""
    end = f"error at {rows[0].max_position - 1}" if rows else "error at end"
    lines = [f"{'dtype':<9}  {'angles':<21}  {'tolerance':>9}  {end:>15}  first position that breaks"]
    for r in rows:
        where = str(r.first_break) if r.first_break is not None else f"none below {r.max_position}"
        lines.append(f"{r.dtype:<9}  {r.style:<21}  {r.tolerance:9.1e}  {r.error_at_end:15.1e}  {where}")
    return "\n".join(lines) + "\n"
