r"""The RoPE model an audit compares against (:class:`RopeModel`: layout, frequencies, attention factor, rotary
width) and what it computes: the float64 rotation used for scanning (:func:`rope_exact_float`) and the 50-digit
reference rows quoted in examples (:func:`reference_rows`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from posproof.numeric.rotary import RopeTable, rope_mp, rope_table
from posproof.numeric.tolerances import AUDIT_REFERENCE_DPS as REFERENCE_DPS


@dataclass(frozen=True)
class RopeModel:
    r"""A RoPE model: what the reference computes."""

    layout: str
    theta: np.ndarray  # (r/2,) float64
    theta_mp: tuple  # (r/2,) mpf, the exact frequencies
    attention_factor: float
    rotary_dim: int
    width: int


def model_table(pos: np.ndarray, model: RopeModel, width: int, angles: np.ndarray | None = None) -> RopeTable:
    r"""The model's cos/sin (times the attention factor) at ``pos`` ``(tokens,)`` for vectors of ``width``: the
    float64 angles ``m theta_i`` of :func:`numeric.rotary.rope_table`, or ``angles`` ``(tokens, r/2)`` when given
    (simulated 16-bit angles may be inf: their pairs come out NaN)."""
    af = model.attention_factor
    if angles is None:
        return rope_table(
            pos,
            width=width,
            layout=model.layout,
            inv_freq=model.theta,
            attention_factor=af,
            rotary_dim=model.rotary_dim,
        )
    with np.errstate(invalid="ignore"):
        c, s = np.cos(angles) * af, np.sin(angles) * af  # (tokens, r/2)
    return RopeTable(np.asarray(pos, np.float64), width, None, model.layout, c, s, model.rotary_dim, model.theta, af)


def rope_exact_float(x: np.ndarray, pos: np.ndarray, model: RopeModel, angles: np.ndarray | None = None) -> np.ndarray:
    r"""The model's rotation of ``x`` ``(tokens, width)`` in float64 by :mod:`numeric.rotary`'s kernel (for
    scanning; examples quote the 50-digit reference); ``angles`` ``(tokens, r/2)`` replace ``m theta_i`` when
    given."""
    return model_table(pos, model, x.shape[1], angles).apply(x.astype(np.float64), check_finite=False)


def reference_rows(x: np.ndarray, pos: np.ndarray, model: RopeModel) -> np.ndarray:
    r"""The 50-digit reference of ``model`` on rows ``x`` ``(tokens, width)``, as mpf object array."""
    out = rope_mp(
        x.tolist(),
        pos.tolist(),
        layout=model.layout,
        dps=REFERENCE_DPS,
        inv_freq=list(model.theta_mp),
        attention_factor=model.attention_factor if model.attention_factor != 1.0 else None,
        rotary_dim=model.rotary_dim,
    )
    arr = np.empty((len(out), len(out[0])), dtype=object)
    arr[:] = out
    return arr
