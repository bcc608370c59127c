r"""Sinusoidal position encoding (Vaswani et al. 2017, section 3.5), vectorised and as an mpmath reference.

``PE(pos, 2i) = sin(pos * theta_i)``, ``PE(pos, 2i+1) = cos(pos * theta_i)``, ``theta_i = base**(-2i/d)``:
interleaved as in the paper. ``layout="half"`` gives the ``[sin | cos]`` concatenation of tensor2tensor and
Transformer-XL (with the paper's frequencies).

>>> sinusoidal([0, 1], 4).round(4).tolist()
[[0.0, 1.0, 0.0, 1.0], [0.8415, 0.5403, 0.01, 1.0]]
"""

from __future__ import annotations

import mpmath
import numpy as np

from . import _validate

__all__ = ["inverse_frequencies", "sinusoidal", "sinusoidal_mp", "inverse_frequencies_mp"]


def inverse_frequencies(d: int, base: float = 10000.0) -> np.ndarray:
    r"""``theta_i = base**(-2i/d)`` for ``i = 0 .. d/2 - 1``, float64. # (d/2,)"""
    d = _validate.even_width(d, "d")
    base = _validate.base(base)
    return base ** (-np.arange(0, d, 2, dtype=np.float64) / d)


def inverse_frequencies_mp(d: int, base=10000, dps: int = 50) -> list:
    r"""``theta_i = base**(-2i/d)`` as mpmath numbers at ``dps`` digits (``base`` taken exactly if a string)."""
    d = _validate.even_width(d, "d")
    with mpmath.workdps(_validate.dps(dps)):
        b = mpmath.mpf(base)
        if not (mpmath.isfinite(b) and b > 1):
            raise ValueError(f"base must be a finite real number > 1, got {base!r}")
        return [b ** (-mpmath.mpf(2 * i) / d) for i in range(d // 2)]


def _arrange(sin_part, cos_part, layout: str):
    # sin_part, cos_part: (tokens, d/2)
    if layout == "half":
        return np.concatenate([sin_part, cos_part], axis=-1)
    out = np.empty(sin_part.shape[:-1] + (2 * sin_part.shape[-1],), dtype=sin_part.dtype)
    out[..., 0::2] = sin_part  # PE(pos, 2i)   = sin(pos theta_i)
    out[..., 1::2] = cos_part  # PE(pos, 2i+1) = cos(pos theta_i)
    return out


def sinusoidal(positions, d_model: int, base: float = 10000.0, layout: str = "interleaved") -> np.ndarray:
    r"""The sinusoidal encodings of ``positions``: float64 array ``(len(positions), d_model)``."""
    pos = _validate.positions(positions)
    d_model = _validate.even_width(d_model, "d_model")
    layout = _validate.layout(layout)
    theta = inverse_frequencies(d_model, base)  # (d/2,)
    angles = pos[:, None] * theta[None, :]  # (tokens, d/2): pos * theta_i
    return _arrange(np.sin(angles), np.cos(angles), layout)


def sinusoidal_mp(positions, d_model: int, base=10000, layout: str = "interleaved", dps: int = 50) -> list:
    r"""The same encodings as lists of mpmath numbers at ``dps`` digits (positions taken exactly if strings)."""
    d_model = _validate.even_width(d_model, "d_model")
    layout = _validate.layout(layout)
    theta = inverse_frequencies_mp(d_model, base, dps)
    rows = []
    with mpmath.workdps(dps):
        for p in positions:
            p = mpmath.mpf(p)
            if not mpmath.isfinite(p):
                raise ValueError(f"positions must be finite, got {p!r}")
            s = [mpmath.sin(p * t) for t in theta]
            c = [mpmath.cos(p * t) for t in theta]
            rows.append(s + c if layout == "half" else [v for pair in zip(s, c, strict=True) for v in pair])
    return rows
