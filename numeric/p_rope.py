r"""p-RoPE (Barbero et al. 2024, arXiv 2410.06205): RoPE keeping the ``floor(p d/2)`` highest frequencies and
setting the others to 0 (those pairs do not rotate). Conventions as :mod:`symbolic.rope.p_rope`; with ``r`` the
rotated channels, p-RoPE is partial rotary of width ``r`` at base ``b**(r/d)`` (claim ``p-rope-partial-rotary``).

>>> p_rope_frequencies(8, fraction=0.5).tolist()
[1.0, 0.1, 0.0, 0.0]
"""

from __future__ import annotations

import mpmath
import numpy as np
from posproof.numeric import _validate
from posproof.numeric.rotary import rope
from posproof.numeric.sinusoid import inverse_frequencies, inverse_frequencies_mp

__all__ = ["kept_pairs", "p_rope", "p_rope_frequencies", "p_rope_frequencies_mp"]


def kept_pairs(width: int, *, fraction: float) -> int:
    r"""How many pairs rotate: ``floor(fraction * width/2)`` (``0 <= fraction <= 1``)."""
    width = _validate.even_width(width)
    if not (isinstance(fraction, (int, float)) and 0 <= fraction <= 1):
        raise ValueError(f"fraction must be a number in [0, 1], got {fraction!r}")
    return int(np.floor(fraction * (width // 2) + 1e-12))  # p d/2 written exactly (0.75 * 4) counts in full


def p_rope_frequencies(width: int, *, fraction: float, base: float = 10000.0) -> np.ndarray:
    r"""``theta_i = base**(-2i/d)`` for the kept pairs ``i < floor(p d/2)``, 0 for the others, float64 ``(d/2,)``."""
    theta = inverse_frequencies(width, base=base)
    theta[kept_pairs(width, fraction=fraction) :] = 0.0
    return theta


def p_rope_frequencies_mp(width: int, *, fraction: float, base=10000, dps: int = 50) -> list:
    r"""The same as mpmath numbers at ``dps`` digits."""
    kept = kept_pairs(width, fraction=fraction)
    theta = inverse_frequencies_mp(width, base=base, dps=dps)
    return [t if j < kept else mpmath.mpf(0) for j, t in enumerate(theta)]


def p_rope(vectors, positions, *, fraction: float, base: float = 10000.0, layout: str = "interleaved") -> np.ndarray:
    r"""Rotate ``vectors`` ``(..., tokens, width)`` by p-RoPE at their ``positions`` (``numeric.rotary.rope`` with
    :func:`p_rope_frequencies`)."""
    width = np.shape(vectors)[-1]
    return rope(vectors, positions, inv_freq=p_rope_frequencies(width, fraction=fraction, base=base), layout=layout)
