r"""Real coordinates and an origin phase: positions ``c`` that are not integer indices, and patch indices mapped to
them by ``c_a = scale_a * index_a + offset_a`` on each axis; pair ``i`` then turns by
``theta_i c[axes[i]] = (theta_i scale_a) index_a + theta_i offset_a``: frequencies ``theta_i scale_{axes[i]}`` and a
phase ``theta_i offset_{axes[i]}`` at index 0 (:func:`affine_frequencies`).

DINOv3 (facebookresearch/dinov3, ``dinov3/layers/rope_position_encoding.py`` ``RopePositionEmbedding``; transformers'
``DINOv3ViTRopePositionEmbedding``): axial 2-D with shared frequencies ``2 pi / period_j`` on the ``d/4`` pairs of
each axis, ``period_j = base**(2j/(d/2))`` (``base`` 100) or, with ``min_period`` and ``max_period``,
``min_period * (max_period/min_period)**(j/(d/4 - 1))``; the angles ``(tokens, 2, d/4)`` are flattened row then
column and tiled twice (``layout="half"``). The coordinates are the patch centres in ``[-1, 1]``:
``c = 2 (index + 1/2) / N - 1`` with ``N`` the grid's height and width (``normalize_coords="separate"``), both the
larger side (``"max"``) or both the smaller (``"min"``): ``scale = 2/N``, ``offset = 1/N - 1``. (The training-time
shift, jitter and rescale of the coordinates are random and are not declared.)

>>> scale, offset = patch_affine([2, 4], normalize_coords="separate")
>>> scale.tolist(), offset.tolist()
([1.0, 0.5], [-0.5, -0.75])
>>> patch_coordinates([1, 2]).tolist()  # one row, two columns: centres at (0, -1/2) and (0, 1/2)
[[0.0, -0.5], [0.0, 0.5]]
"""

from __future__ import annotations

from collections.abc import Sequence

import mpmath
import numpy as np
from posproof.numeric import _axis_map, _validate
from posproof.numeric.multiaxis.axial import axial_axes

#: How DINOv3 normalises patch indices to ``[-1, 1]`` (the module docstring).
NORMALIZE_COORDS = ("separate", "max", "min")


def _grid(grid) -> list[int]:
    if isinstance(grid, (str, bytes)) or not isinstance(grid, (Sequence, np.ndarray)) or not len(grid):
        raise ValueError(f"patch_grid must be a list of positive integers (patches per axis), got {grid!r}")
    out = []
    for n in grid:
        if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) or n <= 0:
            raise ValueError(f"patch_grid must be a list of positive integers (patches per axis), got {grid!r}")
        out.append(int(n))
    return out


def _normalize(value) -> str:
    if not isinstance(value, str) or value not in NORMALIZE_COORDS:
        raise ValueError(f"normalize_coords must be one of {', '.join(map(repr, NORMALIZE_COORDS))}, got {value!r}")
    return value


def _divisors(grid, normalize_coords: str) -> list[int]:
    sizes = _grid(grid)
    how = _normalize(normalize_coords)
    if how == "max":
        return [max(sizes)] * len(sizes)
    if how == "min":
        return [min(sizes)] * len(sizes)
    return sizes


def patch_affine(grid, *, normalize_coords: str = "separate") -> tuple[np.ndarray, np.ndarray]:
    r"""``(scale, offset)`` float64 ``(A,)``: the patch-centre coordinates ``c = 2 (index + 1/2) / N - 1`` of a
    ``grid`` of patches (one count per axis) as ``scale * index + offset``."""
    n = np.asarray(_divisors(grid, normalize_coords), dtype=np.float64)
    return 2.0 / n, 1.0 / n - 1.0


def patch_coordinates(grid, *, normalize_coords: str = "separate") -> np.ndarray:
    r"""The patch centres of a ``grid`` in ``[-1, 1]`` (row-major over the grid, float64 ``(prod(grid), A)``),
    computed as DINOv3 computes them: ``(index + 1/2) / N``, then ``2 c - 1``."""
    n = _divisors(grid, normalize_coords)
    axes = [(np.arange(g, dtype=np.float64) + 0.5) / d for g, d in zip(_grid(grid), n, strict=True)]
    mesh = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, len(n))
    return 2.0 * mesh - 1.0


def dinov3_periods(width: int, *, base: float | None = 100.0, min_period=None, max_period=None) -> np.ndarray:
    r"""DINOv3's periods (float64 ``(d/4,)``): ``base**(2j/(d/2))``, or geometric from ``min_period`` to
    ``max_period`` when both are given (and ``base`` is ``None``)."""
    axial_axes(width)  # a multiple of 4
    q = width // 4
    if (min_period is None) != (max_period is None):
        raise ValueError("give both min_period and max_period, or neither (then base)")
    if min_period is not None:
        if base is not None:
            raise ValueError("give either base or min_period and max_period, not both")
        lo = _validate.finite_array(min_period, "min_period")
        hi = _validate.finite_array(max_period, "max_period")
        if lo.ndim or hi.ndim or not 0 < float(lo) < float(hi):
            raise ValueError(
                f"min_period and max_period must be reals with 0 < min < max, got {min_period!r}, {max_period!r}"
            )
        ratio = float(hi) / float(lo)
        return ratio ** np.linspace(0.0, 1.0, q) / ratio * float(hi)
    b = _validate.base(base)
    return b ** (2.0 * np.arange(q, dtype=np.float64) / (width // 2))


def dinov3_inv_freq(width: int, *, base: float | None = 100.0, min_period=None, max_period=None) -> np.ndarray:
    r"""``2 pi / period_j`` on the row's ``d/4`` pairs, then the same on the column's (float64 ``(d/2,)``)."""
    f = 2.0 * np.pi / dinov3_periods(width, base=base, min_period=min_period, max_period=max_period)
    return np.concatenate([f, f])


def dinov3_inv_freq_mp(width: int, *, base=100, min_period=None, max_period=None, dps: int = 50) -> list:
    r"""The same frequencies as mpmath numbers at ``dps`` digits (from the definition, not from the float64 ones)."""
    axial_axes(width)
    q = width // 4
    with mpmath.workdps(_validate.dps(dps)):
        if min_period is not None:
            dinov3_periods(width, base=None, min_period=min_period, max_period=max_period)  # validates
            lo, hi = mpmath.mpf(min_period), mpmath.mpf(max_period)
            periods = [lo * (hi / lo) ** (mpmath.mpf(j) / max(q - 1, 1)) for j in range(q)]
        else:
            b = mpmath.mpf(base)
            periods = [b ** (mpmath.mpf(2 * j) / (width // 2)) for j in range(q)]
        f = [2 * mpmath.pi / p for p in periods]
        return f + f


def affine_frequencies(*, inv_freq, axes, scale, offset) -> tuple[np.ndarray, np.ndarray]:
    r"""``(inv_freq * scale[axes], inv_freq * offset[axes])`` (float64 ``(r/2,)`` each): the frequencies and the
    phase at index 0 of pairs turning by ``inv_freq_i (scale_a index_a + offset_a)``."""
    theta = _validate.finite_array(inv_freq, "inv_freq", ndim=1)
    s = _validate.finite_array(scale, "coordinate_scale", ndim=1)
    o = _validate.finite_array(offset, "coordinate_offset", ndim=1)
    if s.shape != o.shape:
        raise ValueError(f"coordinate_scale and coordinate_offset must give one value per axis, got {s.size}, {o.size}")
    ax = _axis_map.axis_map(axes, theta.size, s.size)
    return theta * s[ax], theta * o[ax]


def affine_frequencies_mp(*, inv_freq, axes, scale, offset, dps: int = 50) -> tuple[list, list]:
    r"""The same with mpmath at ``dps`` digits (``inv_freq``, ``scale``, ``offset`` mpmath numbers or exact
    decimal strings)."""
    with mpmath.workdps(_validate.dps(dps)):
        theta = [mpmath.mpf(t) for t in inv_freq]
        s, o = [mpmath.mpf(v) for v in scale], [mpmath.mpf(v) for v in offset]
        ax = _axis_map.axis_map(axes, len(theta), len(s))
        return [t * s[a] for t, a in zip(theta, ax, strict=True)], [t * o[a] for t, a in zip(theta, ax, strict=True)]
