r"""What a multi-axis RoPE declares: :class:`MultiaxisRope`, the frequencies, the axis map, the phase at the origin,
whether positions are real coordinates and the pair layout the scheme fixes (the scaling mappings that declare one:
:mod:`.scaling`).

>>> import numpy as np
>>> rope = MultiaxisRope(np.array([1.0, 0.5]), np.array([0, 1]), 2, layout="interleaved", name="example")
>>> rope.rotary_dim, rope.angles([[2, 2]]).tolist()
(4, [[2.0, 1.0]])
"""

from __future__ import annotations

import math
from dataclasses import KW_ONLY, dataclass, field

import numpy as np
from posproof.numeric import _axis_map, _validate
from posproof.numeric.multiaxis.kernel import rope_multiaxis, rope_multiaxis_mp
from posproof.numeric.multiaxis.layouts import multiaxis_layout


@dataclass(frozen=True, eq=False)
class MultiaxisRope:
    r"""A multi-axis RoPE: pair ``i`` of the first ``r = 2 len(inv_freq)`` channels turns by
    ``inv_freq[i] * p[axes[i]] + phase[i]`` at position vector ``p`` (``n_axes`` entries), cos and sin times
    ``attention_factor``; ``continuous``: positions are real coordinates (not integer indices); ``layout``: the
    pair layout the scheme fixes (``"interleaved"``, ``"half"``, ``"blocks"``: :mod:`.layouts`), ``None`` when the
    scheme leaves it to the caller."""

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
        layout = None if self.layout is None else multiaxis_layout(self.layout)
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
            return multiaxis_layout(layout)
        return "half" if self.layout is None else self.layout
