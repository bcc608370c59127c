r"""What a multi-axis audit (:mod:`posproof.numeric.audit.multiaxis`) is given, its arguments checked: the
:class:`~posproof.numeric.multiaxis.MultiaxisRope` that :func:`~posproof.numeric.audit.audit_multiaxis`'s keywords
declare (:func:`keyword_declaration`), and for :func:`~posproof.numeric.audit.audit_rope` the kind of a ``scaling``
mapping (:func:`multiaxis_kind`) and the :class:`MultiaxisPlan` it and an explicit axis map give
(:func:`multiaxis_plan`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np
from posproof.numeric import _validate
from posproof.numeric.multiaxis import (
    MultiaxisRope,
    axial_axes,
    axial_inv_freq,
    is_multiaxis_scaling,
    mrope_axes,
    multiaxis_from_scaling,
)
from posproof.numeric.multiaxis.layouts import multiaxis_layout
from posproof.numeric.multiaxis.scaling import MULTIAXIS_TYPES
from posproof.numeric.scaling.rules import rope_inv_freq
from posproof.numeric.sinusoid import inverse_frequencies

#: The most axes a position vector of multi-axis RoPE may have (M-RoPE has 3: t, h, w).
MAX_AXES = 8


def keyword_declaration(
    width, r, mrope_section, mrope_interleaved, axial, axial_frequencies, base, inv_freq, axes, n_axes, phase,
    continuous, attention_factor,
) -> tuple[MultiaxisRope, str]:  # fmt: skip
    r"""The :class:`MultiaxisRope` :func:`audit_multiaxis`'s keywords declare, and how the report names it."""
    given = [
        k for k, v in (("mrope_section", mrope_section), ("axial", axial or None), ("axes", axes)) if v is not None
    ]
    if len(given) > 1:
        raise ValueError(f"give one of mrope_section, axial=True or axes, got {', '.join(given)}")
    if axial:
        pairs = axial_axes(r)
        theta = axial_inv_freq(r, base=base, frequencies=axial_frequencies) if inv_freq is None else inv_freq
        count, what = 2, f"axial 2-D RoPE, width {width}"
        if axial_frequencies != "split":
            what += f", {axial_frequencies} frequencies"
    elif mrope_section is not None:
        pairs = mrope_axes(mrope_section, interleaved=mrope_interleaved)
        if pairs.size != r // 2:
            half = "width/2" if r == width else "rotary_dim/2 (the rotated pairs)"
            raise ValueError(f"mrope_section must add up to {half} = {r // 2}, got {list(mrope_section)}")
        theta = inverse_frequencies(r, base=base) if inv_freq is None else inv_freq
        count = len(mrope_section)
        kind = "interleaved" if mrope_interleaved else "chunked"
        what = f"M-RoPE {kind} sections {list(mrope_section)}, width {width}"
    elif axes is not None:
        pairs = np.asarray(axes)
        if pairs.shape != (r // 2,):
            raise ValueError(f"axes must give one axis per rotated pair ({r // 2}), got shape {pairs.shape}")
        theta = inverse_frequencies(r, base=base) if inv_freq is None else inv_freq
        count = int(np.max(pairs)) + 1 if n_axes is None else n_axes
        what = f"multi-axis RoPE, an axis map over {count} axes, width {width}"
    else:
        raise ValueError("a declaration is required: rope (a MultiaxisRope), mrope_section, axial=True or axes")
    theta = np.asarray(theta, dtype=np.float64)
    if theta.shape != (r // 2,):
        raise ValueError(f"inv_freq must have one entry per rotated pair ({r // 2}), got shape {theta.shape}")
    rope = MultiaxisRope(theta, pairs, count, attention_factor=attention_factor, phase=phase, continuous=continuous)
    return rope, what


def position_limits(max_positions, rope: MultiaxisRope) -> np.ndarray | None:
    r"""``max_positions`` checked against the declaration ``rope``: int64 ``(A,)`` (one integer >= 1 per axis, or one
    for all), or ``None``; ``ValueError`` naming it otherwise."""
    if max_positions is None:
        return None
    if rope.continuous:
        raise ValueError("max_positions: the declaration's positions are real coordinates (leave it out)")
    values = np.atleast_1d(np.asarray(max_positions, dtype=object))
    if values.size == 1:
        values = np.repeat(values, rope.n_axes)
    if values.ndim != 1 or values.size != rope.n_axes or not all(_validate._is_int(v) and v >= 1 for v in values):
        raise ValueError(
            f"max_positions must be an integer >= 1, or one per axis ({rope.n_axes}), got {max_positions!r}"
        )
    return values.astype(np.int64)


#: Keys of a ``scaling`` mapping that declare M-RoPE (transformers' ``rope_parameters``); ``rope_type: "axial"``
#: declares axial 2-D RoPE; :func:`~posproof.numeric.multiaxis.is_multiaxis_scaling` says which others declare one.
MULTIAXIS_KEYS = ("mrope_section", "mrope_interleaved")


def multiaxis_kind(scaling, axes=None) -> str | None:
    r"""``"mrope"``, ``"axial"``, ``"axes"`` (an explicit axis map ``axes``), another multi-axis ``rope_type`` (or
    ``"multiaxis"``) that :func:`~posproof.numeric.multiaxis.multiaxis_from_scaling` declares, or ``None`` (one
    position per token) for a ``scaling`` mapping."""
    if axes is not None:
        return "axes"
    if not isinstance(scaling, Mapping):
        return None
    rule = scaling.get("rope_type", scaling.get("type"))
    if rule == "axial":
        return "axial"
    if rule == "mrope" or any(k in scaling for k in MULTIAXIS_KEYS):
        return "mrope"
    if is_multiaxis_scaling(scaling):
        if isinstance(rule, str) and rule in MULTIAXIS_TYPES:
            return rule
        return next((k for k in ("axes_dim", "axes", "xdrope_section") if k in scaling), "multiaxis")
    return None


@dataclass(frozen=True)
class MultiaxisPlan:
    r"""A multi-axis audit, its arguments checked: the declaration ``rope``, the head ``width``, the ``layout``
    (``"auto"``: either, unless the declaration fixes one), how the report names the declaration, and the largest
    integer position of each axis the probes may use (``max_positions``: a DINOv3 ``patch_grid``'s last indices)."""

    kind: str
    layout: str
    width: int
    rope: MultiaxisRope
    what: str
    max_positions: tuple[int, ...] | None = None
    #: Other declarations that also conform, each with how the report names it: a bare ``rope_type: "axial"``
    #: (shared frequencies in 31 of transformers' 33 axial rotaries, split in Pixtral's) accepts either.
    alternatives: tuple[tuple[MultiaxisRope, str], ...] = ()

    @property
    def probe_axes(self) -> int:
        r"""The axes of each position vector."""
        return self.rope.n_axes


def _checked_rotary_dim(kind: str, rest: Mapping, width: int, rotary_dim) -> int | None:
    if rotary_dim is None:
        return None
    if kind == "axial":
        raise ValueError("rotary_dim: axial 2-D RoPE rotates every pair (leave it out)")
    if "partial_rotary_factor" in rest:
        raise ValueError("give either rotary_dim or partial_rotary_factor in scaling")
    rd = _validate.even_width(rotary_dim, "rotary_dim")
    if rd > width:
        raise ValueError(f"rotary_dim must be an even integer in [2, {width}], got {rotary_dim!r}")
    return rd


def _mrope_plan(scaling: Mapping, rest: Mapping, width: int, base: float, rd, seq_len) -> tuple[MultiaxisRope, str]:
    sections, interleaved = scaling.get("mrope_section"), scaling.get("mrope_interleaved", False)
    if not isinstance(interleaved, (bool, np.bool_)):
        raise ValueError(f"mrope_interleaved must be true or false, got {interleaved!r}")
    if sections is None:
        raise ValueError("scaling: mrope_section is required for M-RoPE (e.g. [16, 24, 24] for width 128)")
    listed = isinstance(sections, (list, tuple, np.ndarray)) and np.ndim(sections) == 1
    if not listed or not all(_validate._is_int(v) and v >= 0 for v in sections):
        raise ValueError(f"mrope_section must be a list of integers >= 0 (pairs per axis), got {sections!r}")
    if not 1 <= len(sections) <= MAX_AXES:
        raise ValueError(f"mrope_section must give 1 to {MAX_AXES} axes, got {len(sections)}")
    rule = scaling.get("rope_type", scaling.get("type", "default"))
    rule_map = {**rest, "rope_type": "default" if rule == "mrope" else rule}
    # (r/2,): r = rotary_dim, else int(width * partial_rotary_factor) as transformers truncates it
    inv_freq, factor = rope_inv_freq(width if rd is None else rd, base=base, scaling=rule_map, seq_len=seq_len)
    r = 2 * inv_freq.size
    if sum(sections) != r // 2:
        half = "width/2" if r == width else "rotary_dim/2 (the rotated pairs)"
        raise ValueError(f"mrope_section must add up to {half} = {r // 2}, got {list(sections)}")
    axes = mrope_axes(sections, interleaved=bool(interleaved))
    rope = MultiaxisRope(inv_freq, axes, len(sections), attention_factor=factor)
    kind = "interleaved" if interleaved else "chunked"
    return rope, f"M-RoPE {kind} sections {list(sections)}, width {width}"


def multiaxis_plan(
    kind: str, layout: str, base: float, scaling: Mapping | None, width: int, seq_len, rotary_dim=None, *,
    inv_freq=None, axes=None,
) -> MultiaxisPlan:  # fmt: skip
    r"""Check the arguments of a multi-axis audit (``ValueError`` naming the argument, as :func:`audit_rope`
    raises it) and say what :func:`audit_rope_multiaxis` audits: the :class:`~posproof.numeric.multiaxis.MultiaxisRope`
    the ``scaling`` mapping declares (M-RoPE: the frequencies and attention factor of the rest of the mapping, over
    the rotary width its ``partial_rotary_factor`` or ``rotary_dim`` gives; axial 2-D; every key
    :func:`~posproof.numeric.multiaxis.multiaxis_from_scaling` reads), or, with ``axes`` (one axis per rotated pair),
    that axis map with the frequencies of ``scaling``'s 1-D rule (``base**(-2i/r)`` when ``scaling`` is ``None``).
    ``inv_freq`` (``(r/2,)`` floats) replaces the declared frequencies."""
    width = _validate.positive_int(width, "width")
    width = _validate.even_width(width)
    base = _validate.base(base)
    scaling = {} if scaling is None else scaling
    if not isinstance(scaling, Mapping):
        raise ValueError(f"scaling must be a mapping, got {type(scaling).__name__}")
    rest = {k: v for k, v in scaling.items() if k not in (*MULTIAXIS_KEYS, "rope_type", "type")}
    rd = _checked_rotary_dim(kind, rest, width, rotary_dim)
    alternatives: tuple[tuple[MultiaxisRope, str], ...] = ()
    if axes is not None:
        if is_multiaxis_scaling(scaling):
            raise ValueError("axes: scaling declares a multi-axis RoPE already (give one or the other)")
        pairs = np.asarray(axes)
        if pairs.ndim != 1 or pairs.size == 0 or not np.issubdtype(pairs.dtype, np.integer) or pairs.min() < 0:
            raise ValueError(
                f"axes must be a 1-D list of integer axis indices >= 0, one per rotated pair, got {axes!r}"
            )
        if not 1 <= int(pairs.max()) + 1 <= MAX_AXES:
            raise ValueError(f"axes must name 1 to {MAX_AXES} axes (indices 0 .. {MAX_AXES - 1}), got {axes!r}")
        r = 2 * pairs.size
        if r > width or (rd is not None and rd != r):
            raise ValueError(f"axes must give one axis per rotated pair: {(rd or width) // 2}, got {pairs.size}")
        rule_map = dict(scaling) if scaling else {"rope_type": "default"}
        theta, factor = rope_inv_freq(r, base=base, scaling=rule_map, seq_len=seq_len)
        if theta.size != pairs.size:
            raise ValueError(f"axes must give one axis per rotated pair ({theta.size}), got {pairs.size}")
        rope = MultiaxisRope(theta, pairs, int(pairs.max()) + 1, attention_factor=factor)
        what = f"multi-axis RoPE, an axis map over {rope.n_axes} axes, width {width}"
    elif kind == "axial":
        # a bare rope_type "axial" names no frequencies: Pixtral's split ones (reported when neither conforms) or
        # the shared ones of transformers' other axial rotaries; axial_frequencies says which
        declared = {"axial_frequencies": "split", **scaling}
        rope = multiaxis_from_scaling(declared, width=width, base=base)
        what = f"axial 2-D RoPE, width {width}"
        if declared["axial_frequencies"] != "split":
            what += f", {declared['axial_frequencies']} frequencies"
        elif "axial_frequencies" not in scaling:
            shared = multiaxis_from_scaling(dict(scaling, axial_frequencies="shared"), width=width, base=base)
            alternatives = ((shared, f"{what}, shared frequencies"),)
            what += ", split frequencies"
    elif kind == "mrope":
        rope, what = _mrope_plan(scaling, rest, width, base, rd, seq_len)
    else:
        rope = multiaxis_from_scaling(scaling, width=width, base=base, rotary_dim=rd, seq_len=seq_len)
        what = f"{rope.name or kind}, width {width}"
    if inv_freq is not None:
        theta = _validate.finite_array(inv_freq, "inv_freq")
        if theta.shape != rope.inv_freq.shape:
            raise ValueError(f"inv_freq must have one entry per rotated pair ({rope.inv_freq.size}), got {theta.shape}")
        rope = replace(rope, inv_freq=theta)
    if layout != "auto":
        layout = multiaxis_layout(layout)
        if rope.layout is not None and layout != rope.layout:
            raise ValueError(f"layout: the declaration fixes the {rope.layout} layout ({what}), got {layout!r}")
    what += f", rotary width {rope.rotary_dim}" if rope.rotary_dim < width else ""
    grid = scaling.get("patch_grid") if axes is None and kind == "dinov3" else None
    limits = None if grid is None or rope.continuous else tuple(int(n) - 1 for n in grid)  # a patch grid's indices
    if inv_freq is not None:
        alternatives = ()
    return MultiaxisPlan(kind, layout, width, rope, what, limits, alternatives)
