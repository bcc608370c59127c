r"""What a multi-axis RoPE declares: :class:`MultiaxisRope` (frequencies, axis map, phase at the origin, whether
positions are real coordinates, the pair layout the scheme fixes) and the scaling mappings that declare one
(:func:`multiaxis_from_scaling`, :func:`is_multiaxis_scaling`).

The keys of a scaling mapping (a configuration's ``rope_scaling``/``rope_parameters``, or what ``posproof audit``
is given) and the declaration each gives, over the head width ``d`` (``r`` the rotary width) and ``base``:

* ``mrope_section`` ``[s_0, s_1, ...]`` (and ``mrope_interleaved``): M-RoPE (Qwen2-VL chunked, Qwen3-VL
  interleaved); the frequencies of the rest of the mapping's 1-D rule (``rope_type`` ``"default"``/``"mrope"``,
  ``"linear"``, ``"yarn"``, ..., ``partial_rotary_factor``), the sections splitting the ``r/2`` pairs;
* ``rope_type: "axial"``: axial 2-D, the first ``d/4`` pairs on the row, the rest on the column, with the
  frequencies ``axial_frequencies`` names: ``"shared"`` (the default: what transformers' ``"axial"`` vision
  rotaries compute, both axes ``theta_0, theta_2, ...``) or ``"split"`` (Pixtral: row ``theta_0, theta_2, ...``,
  column ``theta_1, theta_3, ...``); ``rope_theta`` (or ``theta``) in the mapping overrides ``base``.

>>> rope = multiaxis_from_scaling({"mrope_section": [2, 1, 1]}, width=8, base=10000.0)
>>> rope.axes.tolist(), rope.n_axes, rope.rotary_dim
([0, 0, 1, 2], 3, 8)
>>> multiaxis_from_scaling({"rope_type": "axial"}, width=8, base=16.0).inv_freq.tolist()
[1.0, 0.25, 1.0, 0.25]
>>> multiaxis_from_scaling({"rope_type": "axial", "axial_frequencies": "split"}, width=8, base=16.0).inv_freq.tolist()
[1.0, 0.25, 0.5, 0.125]
>>> is_multiaxis_scaling({"rope_type": "yarn", "factor": 4.0}), is_multiaxis_scaling({"mrope_section": [16, 24, 24]})
(False, True)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field

import numpy as np
from posproof.numeric import _axis_map, _validate
from posproof.numeric.multiaxis.axial import axial_axes, axial_frequencies, axial_inv_freq
from posproof.numeric.multiaxis.kernel import rope_multiaxis, rope_multiaxis_mp, rotary_width
from posproof.numeric.multiaxis.mrope import mrope_axes, mrope_sections
from posproof.numeric.scaling.rules import rope_inv_freq

#: Keys that make a scaling mapping multi-axis whatever its ``rope_type``.
MULTIAXIS_KEYS = ("mrope_section", "mrope_interleaved", "axial_frequencies")
#: ``rope_type`` values that are multi-axis schemes.
MULTIAXIS_TYPES = ("mrope", "axial")
#: Keys of the mapping that give the base (they override the ``base`` argument).
BASE_KEYS = ("rope_theta", "theta")


@dataclass(frozen=True, eq=False)
class MultiaxisRope:
    r"""A multi-axis RoPE: pair ``i`` of the first ``r = 2 len(inv_freq)`` channels turns by
    ``inv_freq[i] * p[axes[i]] + phase[i]`` at position vector ``p`` (``n_axes`` entries), cos and sin times
    ``attention_factor``; ``continuous``: positions are real coordinates (not integer indices); ``layout``: the
    pair layout the scheme fixes (``"interleaved"``/``"half"``), ``None`` when the scheme leaves it to the caller."""

    inv_freq: np.ndarray = field(repr=False)  # (r/2,) float64
    axes: np.ndarray = field(repr=False)  # (r/2,) int64, in [0, n_axes)
    n_axes: int
    _: KW_ONLY
    attention_factor: float = 1.0
    phase: np.ndarray | None = field(default=None, repr=False)  # (r/2,) float64: the angle of each pair at p = 0
    continuous: bool = False
    layout: str | None = None
    name: str = ""

    def __post_init__(self):
        theta = _validate.finite_array(self.inv_freq, "inv_freq", ndim=1)
        if theta.size == 0:
            raise ValueError("inv_freq must give at least one pair")
        n = _validate.positive_int(self.n_axes, "n_axes")
        axes = _axis_map.axis_map(self.axes, theta.size, n)
        phase = _axis_map.phases(self.phase, theta.size)
        if isinstance(self.attention_factor, (bool, np.bool_)) or not isinstance(
            self.attention_factor, (int, float, np.integer, np.floating)
        ):
            raise ValueError(f"attention_factor must be a finite real number > 0, got {self.attention_factor!r}")
        if not (math.isfinite(float(self.attention_factor)) and self.attention_factor > 0):
            raise ValueError(f"attention_factor must be a finite real number > 0, got {self.attention_factor!r}")
        layout = None if self.layout is None else _validate.layout(self.layout)
        for arr in (theta, axes, phase):
            if arr is not None:
                arr.flags.writeable = False
        object.__setattr__(self, "inv_freq", theta)
        object.__setattr__(self, "axes", axes)
        object.__setattr__(self, "n_axes", n)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "attention_factor", float(self.attention_factor))
        object.__setattr__(self, "continuous", bool(self.continuous))
        object.__setattr__(self, "layout", layout)

    @property
    def rotary_dim(self) -> int:
        r"""The channels that rotate, ``2 * len(inv_freq)``; the channels after them pass through."""
        return 2 * int(self.inv_freq.size)

    def angles(self, positions) -> np.ndarray:
        r"""``inv_freq[i] * p[axes[i]] + phase[i]``: float64 ``(..., tokens, r/2)`` of positions
        ``(..., tokens, n_axes)``."""
        return _axis_map.angles(self._positions(positions), self.inv_freq, self.axes, self.phase)

    def apply(self, vectors, positions, *, layout: str | None = None) -> np.ndarray:
        r"""Rotate ``vectors`` ``(..., tokens, width)`` at ``positions`` ``(..., tokens, n_axes)`` in float64
        (:func:`~posproof.numeric.multiaxis.rope_multiaxis`); ``layout`` defaults to the declared one."""
        return rope_multiaxis(
            vectors, self._positions(positions), axes=self.axes, inv_freq=self.inv_freq, layout=self._layout(layout),
            attention_factor=self.attention_factor, rotary_dim=self.rotary_dim, phase=self.phase,
        )  # fmt: skip

    def apply_mp(self, vectors, positions, *, layout: str | None = None, dps: int = 50) -> list:
        r"""The same rotation with mpmath at ``dps`` digits, from the declared float64 frequencies and phases
        (:func:`~posproof.numeric.multiaxis.rope_multiaxis_mp`)."""
        return rope_multiaxis_mp(
            vectors, self._positions(positions), axes=self.axes, inv_freq=[float(t) for t in self.inv_freq],
            layout=self._layout(layout), dps=dps, rotary_dim=self.rotary_dim, attention_factor=self.attention_factor,
            phase=None if self.phase is None else [float(t) for t in self.phase],
        )  # fmt: skip

    def _positions(self, positions) -> np.ndarray:
        pos = _axis_map.position_vectors(positions)
        if pos.shape[-1] != self.n_axes:
            raise ValueError(f"positions must be (..., tokens, {self.n_axes}) for {self.n_axes} axes, got {pos.shape}")
        if not self.continuous and not np.array_equal(pos, np.round(pos)):
            raise ValueError("positions must be integers (this declaration is not continuous: continuous=False)")
        return pos

    def _layout(self, layout: str | None) -> str:
        if layout is not None:
            return _validate.layout(layout)
        return "half" if self.layout is None else self.layout


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
        raise ValueError(f"scaling: {what} reads only {', '.join(allowed)}, got {extra}")


def _mrope(scaling: Mapping, width: int, base: float, rotary_dim, seq_len) -> MultiaxisRope:
    sections = mrope_sections(scaling.get("mrope_section"))
    interleaved = scaling.get("mrope_interleaved", False)
    if not isinstance(interleaved, (bool, np.bool_)):
        raise ValueError(f"mrope_interleaved must be true or false, got {interleaved!r}")
    rest = {k: v for k, v in scaling.items() if k not in (*MULTIAXIS_KEYS, *BASE_KEYS, "rope_type", "type")}
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
    kind = "interleaved" if interleaved else "chunked"
    name = f"M-RoPE {kind} mrope_section {sections}"
    return MultiaxisRope(inv_freq, axes, len(sections), attention_factor=factor, name=name)


def _axial(scaling: Mapping, width: int, base: float, rotary_dim) -> MultiaxisRope:
    _extra(scaling, ("rope_type", "type", "axial_frequencies", *BASE_KEYS), "rope_type 'axial' (2-D RoPE)")
    frequencies = axial_frequencies(scaling.get("axial_frequencies", "shared"))
    r = rotary_width(width, rotary_dim)
    axes = axial_axes(r)
    inv_freq = axial_inv_freq(r, base=base, frequencies=frequencies)
    return MultiaxisRope(inv_freq, axes, 2, name=f"axial 2-D, {frequencies} frequencies")


def multiaxis_from_scaling(
    scaling: Mapping, *, width: int, base: float, rotary_dim: int | None = None, seq_len: int | None = None
) -> MultiaxisRope:
    r"""The :class:`MultiaxisRope` a scaling mapping declares (its keys: the module docstring), for a head of
    ``width`` channels, the first ``rotary_dim`` (default all, or the mapping's ``partial_rotary_factor``) rotating;
    ``base`` unless the mapping gives ``rope_theta``/``theta``; ``seq_len`` for the 1-D rules that read it.
    ``ValueError`` naming the key when the mapping declares no multi-axis scheme or declares one wrongly."""
    if not is_multiaxis_scaling(scaling):
        raise ValueError(
            f"scaling declares no multi-axis RoPE (keys {', '.join(MULTIAXIS_KEYS)} or rope_type "
            f"{' / '.join(map(repr, MULTIAXIS_TYPES))}), got {scaling!r}"
        )
    width = _validate.even_width(width)
    b = _base(scaling, base)
    if _rule(scaling) == "axial":
        return _axial(scaling, width, b, rotary_dim)
    return _mrope(scaling, width, b, rotary_dim, seq_len)
