r"""The scaling mappings that declare a multi-axis RoPE (:func:`multiaxis_from_scaling`, :func:`is_multiaxis_scaling`).

A mapping is a configuration's ``rope_scaling``/``rope_parameters``, or what ``posproof audit`` is given. Over a
head of ``width`` channels (``r`` of them rotating) and ``base`` (the mapping's ``rope_theta`` or ``theta`` wins):

* **M-RoPE** ``{"mrope_section": [16, 24, 24]}`` (``"mrope_interleaved": true`` for Qwen3-VL): the sections split
  the ``r/2`` pairs (t, h, w); the frequencies are the rest of the mapping's 1-D rule (``rope_type`` ``"default"``,
  ``"mrope"``, ``"linear"``, ``"yarn"``, ..., ``partial_rotary_factor``) over ``r``;
* **axial 2-D** ``{"rope_type": "axial"}``: the first ``r/4`` pairs on axis 0 (the row), the rest on axis 1, each
  axis on ``base**(-2j/(r/2))``, ``j < r/4`` (``"axial_frequencies": "shared"``, the default: what transformers'
  ``"axial"`` vision rotaries compute) or Pixtral's ``"axial_frequencies": "split"`` (row ``theta_0, theta_2, ...``,
  column ``theta_1, theta_3, ...`` of ``base**(-2i/r)``); ``"axial_order": "wh"`` puts axis 1 first;
* **per-axis ladders** ``{"rope_type": "axes_dim", "axes_dim": [16, 56, 56]}`` (FLUX, diffusers, CogVideoX,
  HunyuanVideo, Wan: :mod:`.ladders`): ``axes_dim[a]/2`` consecutive pairs per axis, axis ``a`` on
  ``base**(-2k/axes_dim[a])``; ``r = sum(axes_dim)``; the layout is ``"interleaved"`` unless ``"layout"`` says;
* **an explicit axis map** ``{"axes": [1, 2, 1, 2, 0, 0]}`` (Ernie 4.5-VL's text rotary, Kimi-K2.5's vision
  rotary): the axis of each pair; ``"ladder": "global"`` (default, ``base**(-2i/r)``) or ``"per_axis"``
  (:func:`~posproof.numeric.multiaxis.ladders.per_axis_inv_freq`); ``"n_axes"`` (default ``max(axes) + 1``);
* **DINOv3** ``{"rope_type": "dinov3"}`` (:mod:`.coordinates`): shared axial frequencies ``2 pi / period_j`` (base,
  or ``min_period`` and ``max_period``), ``layout="half"``; positions are coordinates in ``[-1, 1]``
  (``continuous``), or, with ``"patch_grid": [H, W]`` (and ``"normalize_coords"``: ``"separate"``, ``"max"``,
  ``"min"``), integer patch indices: the frequencies times ``2/N`` and a phase ``theta (1/N - 1)`` at index 0;
* **XD-RoPE** (HunYuan-VL) ``{"xdrope_section": [16, 16, 16, 16]}`` (or ``rope_type: "xdrope"`` with
  ``mrope_section``): chunked M-RoPE over its ``A`` sections, rotate-half, as Tencent and vLLM compute it
  (:mod:`.xdrope`; transformers 5.24's port computes another, channel-split map: :func:`.xdrope.rope_xdrope`).

Every kind but M-RoPE also reads ``"layout"`` (``"interleaved"``, ``"half"``, ``"blocks"``: the layout the scheme
fixes), ``"continuous": true`` (positions are real coordinates) and ``"coordinate_scale"`` /
``"coordinate_offset"`` (one value per axis: positions are indices ``n`` standing for ``scale * n + offset``, which
gives the frequencies ``theta scale`` and the phase ``theta offset``); M-RoPE also reads ``"layout"``.

>>> rope = multiaxis_from_scaling({"mrope_section": [2, 1, 1]}, width=8, base=10000.0)
>>> rope.axes.tolist(), rope.n_axes, rope.rotary_dim
([0, 0, 1, 2], 3, 8)
>>> multiaxis_from_scaling({"rope_type": "axial"}, width=8, base=16.0).inv_freq.tolist()
[1.0, 0.25, 1.0, 0.25]
>>> multiaxis_from_scaling({"rope_type": "axial", "axial_frequencies": "split"}, width=8, base=16.0).inv_freq.tolist()
[1.0, 0.25, 0.5, 0.125]
>>> flux = multiaxis_from_scaling({"rope_type": "axes_dim", "axes_dim": [2, 4, 4]}, width=10, base=100.0)
>>> flux.axes.tolist(), flux.inv_freq.tolist(), flux.layout
([0, 1, 1, 2, 2], [1.0, 1.0, 0.1, 1.0, 0.1], 'interleaved')
>>> is_multiaxis_scaling({"rope_type": "yarn", "factor": 4.0}), is_multiaxis_scaling({"mrope_section": [16, 24, 24]})
(False, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from posproof.numeric import _axis_map, _validate
from posproof.numeric.multiaxis.axial import axial_axes, axial_frequencies, axial_inv_freq
from posproof.numeric.multiaxis.coordinates import (
    NORMALIZE_COORDS,
    affine_frequencies,
    dinov3_inv_freq,
    patch_affine,
)
from posproof.numeric.multiaxis.declaration import MultiaxisRope
from posproof.numeric.multiaxis.kernel import rotary_width
from posproof.numeric.multiaxis.ladders import axes_dim_axes, axes_dim_sizes, per_axis_inv_freq
from posproof.numeric.multiaxis.layouts import multiaxis_layout
from posproof.numeric.multiaxis.mrope import mrope_axes, mrope_sections
from posproof.numeric.scaling.rules import rope_inv_freq

#: ``rope_type`` values that are multi-axis schemes.
MULTIAXIS_TYPES = ("mrope", "axial", "axes_dim", "dinov3", "xdrope")
#: Keys that make a scaling mapping multi-axis whatever its ``rope_type``.
MULTIAXIS_KEYS = ("mrope_section", "mrope_interleaved", "axial_frequencies", "axes_dim", "axes", "xdrope_section")
#: Keys of the mapping that give the base (they override the ``base`` argument).
BASE_KEYS = ("rope_theta", "theta")
#: Keys every declaration but M-RoPE's reads besides its own: the layout it fixes, the base, the coordinates.
COMMON_KEYS = ("rope_type", "type", "layout", *BASE_KEYS, "coordinate_scale", "coordinate_offset", "continuous")
#: The frequency ladders of an explicit axis map (``"ladder"``).
LADDERS = ("global", "per_axis")
#: The most axes a declaration may have.
MAX_AXES = 8


def _rule(scaling: Mapping):
    return scaling.get("rope_type", scaling.get("type"))


def is_multiaxis_scaling(scaling) -> bool:
    r"""Whether ``scaling`` (a mapping, or anything else: ``False``) declares a multi-axis RoPE (module docstring)."""
    if not isinstance(scaling, Mapping):
        return False
    return _rule(scaling) in MULTIAXIS_TYPES or any(k in scaling for k in MULTIAXIS_KEYS)


def _base(scaling: Mapping, base) -> float:
    given = [k for k in BASE_KEYS if scaling.get(k) is not None]
    if len(given) > 1 and scaling[given[0]] != scaling[given[1]]:
        raise ValueError(f"scaling: rope_theta {scaling['rope_theta']!r} and theta {scaling['theta']!r} disagree")
    if given:
        return _validate.base(scaling[given[0]], f"scaling's {given[0]}")
    return _validate.base(base)


def _extra(scaling: Mapping, allowed: tuple[str, ...], what: str) -> None:
    extra = sorted(str(k) for k in scaling if k not in allowed)
    if extra:
        raise ValueError(f"scaling: {what} reads only {', '.join(allowed)}; got {extra}")


def _layout(scaling: Mapping, default: str | None) -> str | None:
    return default if scaling.get("layout") is None else multiaxis_layout(scaling["layout"], "scaling's layout")


def _width(width: int, rotary_dim, r: int, what: str) -> None:
    if r > width:
        raise ValueError(f"scaling: {what} rotates {r} channels, more than the width {width}")
    if rotary_dim is not None and rotary_width(width, rotary_dim) != r:
        raise ValueError(f"rotary_dim must be {r} ({what}) or left out, got {rotary_dim!r}")


def _finish(scaling: Mapping, inv_freq, axes, n_axes: int, *, layout, name: str, continuous=False) -> MultiaxisRope:
    r"""The declaration, with the mapping's coordinate keys applied (an affine map of indices, real coordinates)."""
    cont = scaling.get("continuous", False)
    if not isinstance(cont, (bool, np.bool_)):
        raise ValueError(f"scaling's continuous must be true or false, got {cont!r}")
    phase = None
    if "coordinate_scale" in scaling or "coordinate_offset" in scaling:
        scale = scaling.get("coordinate_scale", [1.0] * n_axes)
        offset = scaling.get("coordinate_offset", [0.0] * n_axes)
        for key, value in (("coordinate_scale", scale), ("coordinate_offset", offset)):
            if np.ndim(value) != 1 or len(value) != n_axes:
                raise ValueError(f"scaling's {key} must give one real number per axis ({n_axes}), got {value!r}")
        inv_freq, phase = affine_frequencies(inv_freq=inv_freq, axes=axes, scale=scale, offset=offset)
        name += f", coordinates {list(scale)} * index + {list(offset)}"
    return MultiaxisRope(
        inv_freq, axes, n_axes, phase=phase, continuous=bool(cont) or continuous, layout=layout, name=name
    )


def _mrope(scaling: Mapping, width: int, base: float, rotary_dim, seq_len) -> MultiaxisRope:
    sections = mrope_sections(scaling.get("mrope_section"))
    interleaved = scaling.get("mrope_interleaved", False)
    if not isinstance(interleaved, (bool, np.bool_)):
        raise ValueError(f"mrope_interleaved must be true or false, got {interleaved!r}")
    own = (*MULTIAXIS_KEYS, *BASE_KEYS, "rope_type", "type", "layout")
    rest = {k: v for k, v in scaling.items() if k not in own}
    if rotary_dim is not None and "partial_rotary_factor" in rest:
        raise ValueError("give either rotary_dim or partial_rotary_factor in scaling")
    r = rotary_width(width, rotary_dim)
    rule = _rule(scaling) or "default"
    rule_map = {**rest, "rope_type": "default" if rule == "mrope" else rule}
    inv_freq, factor = rope_inv_freq(r, base=base, scaling=rule_map, seq_len=seq_len)  # (r'/2,)
    if sum(sections) != inv_freq.size:
        raise ValueError(
            f"mrope_section must add up to the rotated pairs, {inv_freq.size} (rotary width {2 * inv_freq.size} of "
            f"width {width}), got {list(sections)} (sum {sum(sections)})"
        )
    axes = mrope_axes(sections, interleaved=bool(interleaved))
    name = f"M-RoPE {'interleaved' if interleaved else 'chunked'} mrope_section {sections}"
    return MultiaxisRope(
        inv_freq, axes, len(sections), attention_factor=factor, layout=_layout(scaling, None), name=name
    )


def _xdrope(scaling: Mapping, width: int, base: float, rotary_dim, seq_len) -> MultiaxisRope:
    r"""XD-RoPE: chunked M-RoPE over ``xdrope_section`` (Tencent's and vLLM's layout), rotate-half."""
    rest = {k: v for k, v in scaling.items() if k not in ("xdrope_section", "rope_type", "type")}
    sections = scaling.get("xdrope_section", scaling.get("mrope_section"))
    given = [scaling[k] for k in ("xdrope_section", "mrope_section") if k in scaling]
    if len(given) == 2 and list(given[0]) != list(given[1]):
        raise ValueError(f"scaling: xdrope_section {given[0]!r} and mrope_section {given[1]!r} disagree")
    if scaling.get("mrope_interleaved"):
        raise ValueError("scaling: XD-RoPE's sections are chunked (mrope_interleaved must be false)")
    rest.pop("mrope_section", None)
    rope = _mrope({**rest, "mrope_section": sections, "layout": scaling.get("layout", "half")}, width, base,
                  rotary_dim, seq_len)  # fmt: skip
    return MultiaxisRope(
        rope.inv_freq, rope.axes, rope.n_axes, attention_factor=rope.attention_factor, layout=rope.layout,
        name=f"XD-RoPE (HunYuan-VL) xdrope_section {mrope_sections(sections)}",
    )  # fmt: skip


def _axial(scaling: Mapping, width: int, base: float, rotary_dim) -> MultiaxisRope:
    _extra(scaling, (*COMMON_KEYS, "axial_frequencies", "axial_order"), "rope_type 'axial' (2-D RoPE)")
    frequencies = axial_frequencies(scaling.get("axial_frequencies", "shared"), "scaling's axial_frequencies")
    order = scaling.get("axial_order", "hw")
    if order not in ("hw", "wh"):
        raise ValueError(f"scaling's axial_order must be 'hw' (axis 0 first) or 'wh' (axis 1 first), got {order!r}")
    r = rotary_width(width, rotary_dim)
    axes = axial_axes(r)
    inv_freq = axial_inv_freq(r, base=base, frequencies=frequencies)
    if order == "wh":
        axes = 1 - axes
    name = f"axial 2-D, {frequencies} frequencies" + (", axis 1 first" if order == "wh" else "")
    return _finish(scaling, inv_freq, axes, 2, layout=_layout(scaling, None), name=name)


def _axes_dim(scaling: Mapping, width: int, base: float, rotary_dim) -> MultiaxisRope:
    _extra(scaling, (*COMMON_KEYS, "axes_dim"), "rope_type 'axes_dim' (per-axis ladders)")
    if "axes_dim" not in scaling:
        raise ValueError("scaling: rope_type 'axes_dim' needs axes_dim (channels per axis, e.g. [16, 56, 56])")
    sizes = axes_dim_sizes(scaling["axes_dim"])
    if len(sizes) > MAX_AXES:
        raise ValueError(f"axes_dim must give 1 to {MAX_AXES} axes, got {len(sizes)}")
    _width(width, rotary_dim, sum(sizes), f"axes_dim {sizes}")
    axes = axes_dim_axes(sizes)
    name = f"per-axis ladders axes_dim {sizes}"
    return _finish(
        scaling, per_axis_inv_freq(axes, base=base), axes, len(sizes), layout=_layout(scaling, "interleaved"), name=name
    )


def _explicit(scaling: Mapping, width: int, base: float, rotary_dim) -> MultiaxisRope:
    _extra(scaling, (*COMMON_KEYS, "axes", "ladder", "n_axes"), "an explicit axis map (axes)")
    axes = scaling["axes"]
    if isinstance(axes, (str, bytes)) or not isinstance(axes, (Sequence, np.ndarray)) or not len(axes):
        raise ValueError(f"scaling's axes must be a non-empty list of axis indices (one per pair), got {axes!r}")
    if any(isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)) for a in axes):
        raise ValueError(f"scaling's axes must be a non-empty list of axis indices (one per pair), got {axes!r}")
    ax = np.asarray(axes, dtype=np.int64)
    n_axes = scaling.get("n_axes", int(ax.max()) + 1 if ax.min() >= 0 else 1)
    n_axes = _validate.positive_int(n_axes, "scaling's n_axes")
    if n_axes > MAX_AXES:
        raise ValueError(f"scaling's n_axes must be at most {MAX_AXES}, got {n_axes}")
    ax = _axis_map.axis_map(ax, None, n_axes)
    _width(width, rotary_dim, 2 * ax.size, f"axes ({ax.size} pairs)")
    ladder = scaling.get("ladder", "global")
    if ladder not in LADDERS:
        raise ValueError(f"scaling's ladder must be 'global' (base**(-2i/r)) or 'per_axis', got {ladder!r}")
    inv_freq = (
        per_axis_inv_freq(ax, base=base)
        if ladder == "per_axis"
        else base ** (-2.0 * np.arange(ax.size) / (2 * ax.size))
    )
    name = f"explicit axis map over {ax.size} pairs, {ladder} ladder"
    return _finish(scaling, inv_freq, ax, n_axes, layout=_layout(scaling, None), name=name)


def _dinov3(scaling: Mapping, width: int, base: float, rotary_dim) -> MultiaxisRope:
    own = ("patch_grid", "normalize_coords", "min_period", "max_period")
    _extra(scaling, (*COMMON_KEYS, *own), "rope_type 'dinov3'")
    if "coordinate_scale" in scaling or "coordinate_offset" in scaling:
        raise ValueError(
            "scaling: rope_type 'dinov3' maps patch indices itself (patch_grid); drop coordinate_scale/offset"
        )
    r = rotary_width(width, rotary_dim)
    periods = {"min_period": scaling.get("min_period"), "max_period": scaling.get("max_period")}
    given = periods["min_period"] is not None or periods["max_period"] is not None
    inv_freq = dinov3_inv_freq(r, base=None if given else base, **periods)
    axes = axial_axes(r)
    layout = _layout(scaling, "half")
    how = scaling.get("normalize_coords", "separate")
    if how not in NORMALIZE_COORDS:
        raise ValueError(
            f"scaling's normalize_coords must be one of {', '.join(map(repr, NORMALIZE_COORDS))}, got {how!r}"
        )
    if scaling.get("patch_grid") is None:
        return _finish(scaling, inv_freq, axes, 2, layout=layout, name="DINOv3 coordinates in [-1, 1]", continuous=True)
    grid = scaling["patch_grid"]
    if np.ndim(grid) != 1 or len(grid) != 2:
        raise ValueError(f"scaling's patch_grid must be [height, width] in patches, got {grid!r}")
    scale, offset = patch_affine(grid, normalize_coords=how)
    theta, phase = affine_frequencies(inv_freq=inv_freq, axes=axes, scale=scale, offset=offset)
    cont = scaling.get("continuous", False)
    name = f"DINOv3 patch grid {list(grid)}, normalize_coords {how!r}"
    return MultiaxisRope(theta, axes, 2, phase=phase, continuous=bool(cont), layout=layout, name=name)


def multiaxis_from_scaling(
    scaling: Mapping, *, width: int, base: float, rotary_dim: int | None = None, seq_len: int | None = None
) -> MultiaxisRope:
    r"""The :class:`MultiaxisRope` a scaling mapping declares (its keys: the module docstring), for a head of
    ``width`` channels, the first ``rotary_dim`` (default all, or what the mapping fixes) rotating; ``base`` unless
    the mapping gives ``rope_theta``/``theta``; ``seq_len`` for the 1-D rules that read it (M-RoPE).
    ``ValueError`` naming the key when the mapping declares no multi-axis scheme or declares one wrongly."""
    if not is_multiaxis_scaling(scaling):
        raise ValueError(
            f"scaling declares no multi-axis RoPE (keys {', '.join(MULTIAXIS_KEYS)} or rope_type "
            f"{' / '.join(map(repr, MULTIAXIS_TYPES))}), got {scaling!r}"
        )
    width = _validate.even_width(width)
    b = _base(scaling, base)
    rule = _rule(scaling)
    if rule == "xdrope" or "xdrope_section" in scaling:
        return _xdrope(scaling, width, b, rotary_dim, seq_len)
    if rule == "axial":
        return _axial(scaling, width, b, rotary_dim)
    if rule == "axes_dim" or "axes_dim" in scaling:
        return _axes_dim(scaling, width, b, rotary_dim)
    if rule == "dinov3":
        return _dinov3(scaling, width, b, rotary_dim)
    if "axes" in scaling:
        return _explicit(scaling, width, b, rotary_dim)
    return _mrope(scaling, width, b, rotary_dim, seq_len)
