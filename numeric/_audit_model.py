r"""The RoPE model an audit compares against (:class:`_Model`: layout, frequencies, attention factor, rotary
width) and what it computes: the float64 rotation used for scanning (:func:`rope_exact_float`) and the 50-digit
reference rows quoted in examples (:func:`_reference_rows`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .rotary import rope_mp
from .tolerances import AUDIT_REFERENCE_DPS as REFERENCE_DPS


@dataclass(frozen=True)
class _Model:
    r"""A RoPE model: what the reference computes."""

    layout: str
    theta: np.ndarray  # (r/2,) float64
    theta_mp: tuple  # (r/2,) mpf, the exact frequencies
    attention_factor: float
    rotary_dim: int
    width: int


def rope_exact_float(x: np.ndarray, pos: np.ndarray, model: _Model, angles: np.ndarray | None = None) -> np.ndarray:
    r"""The model's rotation in float64 (for scanning; examples quote the 50-digit reference); ``angles``
    ``(tokens, r/2)`` replace ``m theta_i`` when given."""
    r, h = model.rotary_dim, model.rotary_dim // 2
    ang = pos[:, None].astype(np.float64) * model.theta[None, :] if angles is None else angles
    with np.errstate(invalid="ignore"):  # simulated 16-bit angles may be inf
        c, s = np.cos(ang) * model.attention_factor, np.sin(ang) * model.attention_factor
    out = x.astype(np.float64).copy()
    if model.layout == "interleaved":
        a, b = x[:, 0:r:2], x[:, 1:r:2]
        out[:, 0:r:2], out[:, 1:r:2] = a * c - b * s, a * s + b * c
    else:
        a, b = x[:, :h], x[:, h:r]
        out[:, :h], out[:, h:r] = a * c - b * s, a * s + b * c
    return out


def _reference_rows(x: np.ndarray, pos: np.ndarray, model: _Model) -> np.ndarray:
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
