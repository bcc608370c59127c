r"""Per-axis frequency ladders: the pairs of each axis take their own ladder ``base**(-2k/w_a)``, ``k`` counting
that axis's pairs in order and ``w_a`` twice their number, restarting on every axis (versus the head's one ladder
``base**(-2i/r)`` over all ``r/2`` pairs, M-RoPE's).

The projects and what they lay out (each axis ``a`` a block of ``axes_dim[a]`` consecutive channels, in axis order):

* FLUX (black-forest-labs/flux, ``src/flux/math.py`` ``rope`` and ``modules/layers.py`` ``EmbedND``):
  ``axes_dim = [16, 56, 56]`` (FLUX.1, head 128), theta 10000, positions ``(t, h, w)``; ``rope(pos, dim, theta)``
  builds ``theta**(-arange(0, dim, 2)/dim)`` per axis, the blocks are concatenated along the pair axis and each pair
  is ``(2i, 2i + 1)``: ``layout="interleaved"``;
* diffusers' ``FluxPosEmbed`` (``axes_dim [16, 56, 56]``), CogVideoX (``get_3d_rotary_pos_embed``: ``t = d/4``,
  ``h = w = 3d/8``), HunyuanVideo (``rope_axes_dim [16, 56, 56]``, theta 256) and Wan (``h = w = 2 (d // 6)``,
  ``t = d - h - w``): ``get_1d_rotary_pos_embed`` per axis with ``repeat_interleave_real=True`` (cos, sin repeated
  pairwise), the axes concatenated, rotated by ``apply_rotary_emb`` on ``(2i, 2i + 1)``: ``layout="interleaved"``;
* transformers' MiniMax-M3-VL vision tower: three axes ``(t, h, w)`` of ``2 (d // 6)`` channels each, the ladders
  flattened axis after axis then doubled for rotate-half (``layout="half"``), the channels past them passing through.

CogVideoX's spatial positions are ``linspace(start, stop, n, endpoint=False)`` of its crop region: the index ``i``
stands for ``start + i (stop - start) / n``, the scaling keys ``coordinate_scale`` ``(stop - start)/n`` and
``coordinate_offset`` ``start`` (integers at the base resolution, where the crop is the grid).

>>> wan_axes_dim(width=128), cogvideox_axes_dim(width=64)
([44, 42, 42], [16, 24, 24])
>>> axes_dim_axes([4, 2, 2]).tolist()
[0, 0, 1, 2]
>>> per_axis_inv_freq([0, 0, 1, 2], base=100.0).tolist()  # axis 0: 100**(-0/4), 100**(-2/4); axes 1, 2: 100**0
[1.0, 0.1, 1.0, 1.0]
"""

from __future__ import annotations

from collections.abc import Sequence

import mpmath
import numpy as np
from posproof.numeric import _axis_map, _mp, _validate


def wan_axes_dim(*, width: int) -> list[int]:
    r"""Wan's split of a head of ``width`` channels into ``(t, h, w)``: ``h = w = 2 (width // 6)``, ``t`` the rest."""
    width = _validate.even_width(width)
    hw = 2 * (width // 6)
    return [width - 2 * hw, hw, hw]


def cogvideox_axes_dim(*, width: int) -> list[int]:
    r"""CogVideoX's split (``get_3d_rotary_pos_embed``): ``t = width // 4``, ``h = w = width // 8 * 3``."""
    width = _validate.even_width(width)
    if width % 8:
        raise ValueError(f"width must be a multiple of 8 for CogVideoX's split, got {width}")
    return [width // 4, width // 8 * 3, width // 8 * 3]


def axes_dim_sizes(axes_dim) -> list[int]:
    r"""``axes_dim`` checked: a non-empty list of positive even integers (the channels of each axis)."""
    bad = isinstance(axes_dim, (str, bytes)) or not isinstance(axes_dim, (Sequence, np.ndarray)) or not len(axes_dim)
    if bad or np.ndim(axes_dim) != 1:
        raise ValueError(
            f"axes_dim must be a non-empty list of positive even integers (channels per axis), got {axes_dim!r}"
        )
    out = []
    for w in axes_dim:
        if isinstance(w, (bool, np.bool_)) or not isinstance(w, (int, np.integer)) or w <= 0 or w % 2:
            raise ValueError(
                f"axes_dim must be a non-empty list of positive even integers (channels per axis), got {axes_dim!r}"
            )
        out.append(int(w))
    return out


def axes_dim_axes(axes_dim) -> np.ndarray:
    r"""The axis of each pair (int64 ``(sum(axes_dim)/2,)``): ``axes_dim[a]/2`` consecutive pairs per axis."""
    sizes = axes_dim_sizes(axes_dim)
    return np.repeat(np.arange(len(sizes), dtype=np.int64), [w // 2 for w in sizes])


def _ranks(axes) -> tuple[np.ndarray, np.ndarray]:
    r"""``(k, w)`` per pair: ``k`` the pair's rank among its axis's pairs, ``w`` twice that axis's pair count."""
    ax = _axis_map.axis_map(axes, None, int(np.max(axes)) + 1 if np.size(axes) else 1)
    k = np.zeros(ax.size, dtype=np.int64)
    w = np.zeros(ax.size, dtype=np.int64)
    for a in np.unique(ax):
        where = np.flatnonzero(ax == a)
        k[where] = np.arange(where.size)
        w[where] = 2 * where.size
    return k, w


def per_axis_inv_freq(axes, *, base: float = 10000.0) -> np.ndarray:
    r"""The per-axis ladders: pair ``i`` (the ``k``-th pair of axis ``axes[i]``, which has ``w/2`` pairs) at
    ``base**(-2k/w)``, float64 ``(len(axes),)``."""
    base = _validate.base(base)
    k, w = _ranks(axes)
    return base ** (-2.0 * k / w)


def per_axis_inv_freq_mp(axes, *, base=10000, dps: int = 50) -> list:
    r"""The same ladders as mpmath numbers at ``dps`` digits (``base`` exact when a string or an ``mpf``)."""
    k, w = _ranks(axes)
    with mpmath.workdps(_validate.dps(dps)):
        b = mpmath.mpf(_mp.raw(base, mpmath.mp.prec)) if not isinstance(base, mpmath.mpf) else +base
        if not (mpmath.isfinite(b) and b > 1):
            raise ValueError(f"base must be a finite real number > 1, got {base!r}")
        return [b ** (-mpmath.mpf(2 * int(ki)) / int(wi)) for ki, wi in zip(k, w, strict=True)]
