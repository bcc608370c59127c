r"""Sinusoidal position encoding (Vaswani et al. 2017, section 3.5), vectorised and as an mpmath reference.

``PE(pos, 2i) = sin(pos * theta_i)``, ``PE(pos, 2i+1) = cos(pos * theta_i)``, ``theta_i = base**(-2i/d)``:
interleaved as in the paper. ``layout="half"`` gives the ``[sin | cos]`` concatenation of Transformer-XL (with
the paper's frequencies). tensor2tensor's ``get_timing_signal_1d`` also concatenates ``[sin | cos]`` but uses the
frequencies ``base**(-i/(d/2 - 1))`` (its last timescale is exactly ``base``): ``layout="half",
frequencies="tensor2tensor"`` (``d >= 4``; for ``d = 2`` tensor2tensor's single frequency is 1, as here).

>>> sinusoidal([0, 1], width=4).round(4).tolist()
[[0.0, 1.0, 0.0, 1.0], [0.8415, 0.5403, 0.01, 1.0]]
"""

from __future__ import annotations

import functools

import mpmath
import numpy as np
from posproof.numeric import _mp, _validate
from posproof.numeric._deprecated import old_arguments

__all__ = ["inverse_frequencies", "sinusoidal", "sinusoidal_mp", "inverse_frequencies_mp", "FREQUENCIES"]

#: The frequency conventions: ``"paper"`` ``theta_i = base**(-2i/d)`` (Vaswani et al., Transformer-XL, RoPE);
#: ``"tensor2tensor"`` ``theta_i = base**(-i/(d/2 - 1))`` (``get_timing_signal_1d``).
FREQUENCIES = ("paper", "tensor2tensor")


def _frequencies(value) -> str:
    if value not in FREQUENCIES:
        raise ValueError(f"frequencies must be one of {', '.join(map(repr, FREQUENCIES))}, got {value!r}")
    return value


@old_arguments(positional=("width", "base", "frequencies"), renamed={"d": "width"})
def inverse_frequencies(width: int, *, base: float = 10000.0, frequencies: str = "paper") -> np.ndarray:
    r"""``theta_i = base**(-2i/d)`` (or tensor2tensor's ``base**(-i/(d/2 - 1))``) for ``i = 0 .. d/2 - 1``,
    float64 ``(d/2,)``; ``d`` is the ``width``."""
    width = _validate.even_width(width)
    base = _validate.base(base)
    i = np.arange(width // 2, dtype=np.float64)
    if _frequencies(frequencies) == "tensor2tensor":
        return base ** (-i / max(width // 2 - 1, 1))
    return base ** (-2 * i / width)


@old_arguments(positional=("width", "base", "dps", "frequencies"), renamed={"d": "width"})
def inverse_frequencies_mp(width: int, *, base=10000, dps: int = 50, frequencies: str = "paper") -> list:
    r"""The same as mpmath numbers at ``dps`` digits (``base`` taken exactly if a string or an ``mpf``); a new list
    each call (of the numbers computed once per process for each argument: :func:`_inverse_frequencies_mp`)."""
    try:
        hash(base)
    except TypeError:  # refused below, as it is
        return list(_inverse_frequencies_mp.__wrapped__(width, base, dps, frequencies))
    return list(_inverse_frequencies_mp(width, base, dps, frequencies))


@functools.lru_cache(maxsize=256, typed=True)  # typed: an int base and a float base are computed apart
def _inverse_frequencies_mp(width: int, base, dps: int, frequencies: str) -> tuple:
    r""":func:`inverse_frequencies_mp`'s numbers as a tuple: a pure function of its arguments (the working
    precision is set from ``dps`` here)."""
    width = _validate.even_width(width)
    frequencies = _frequencies(frequencies)
    with mpmath.workdps(_validate.dps(dps)):
        b = mpmath.mpf(_mp.raw(base, mpmath.mp.prec)) if not isinstance(base, mpmath.mpf) else +base
        if not (mpmath.isfinite(b) and b > 1):
            raise ValueError(f"base must be a finite real number > 1, got {base!r}")
        h = width // 2
        if frequencies == "tensor2tensor":
            return tuple(b ** (-mpmath.mpf(i) / max(h - 1, 1)) for i in range(h))
        return tuple(b ** (-mpmath.mpf(2 * i) / width) for i in range(h))


def _arrange(sin_part, cos_part, layout: str):
    # sin_part, cos_part: (tokens, d/2)
    if layout == "half":
        return np.concatenate([sin_part, cos_part], axis=-1)
    out = np.empty(sin_part.shape[:-1] + (2 * sin_part.shape[-1],), dtype=sin_part.dtype)
    out[..., 0::2] = sin_part  # PE(pos, 2i)   = sin(pos theta_i)
    out[..., 1::2] = cos_part  # PE(pos, 2i+1) = cos(pos theta_i)
    return out


@old_arguments(positional=("positions", "width", "base", "layout", "frequencies"), renamed={"d_model": "width"})
def sinusoidal(
    positions, *, width: int, base: float = 10000.0, layout: str = "interleaved", frequencies: str = "paper"
) -> np.ndarray:
    r"""The sinusoidal encodings of ``positions`` ``(tokens,)`` (integers or floats): float64
    ``(tokens, width)``; ``width`` (``d_model`` in the paper) even. ``layout`` ``"interleaved"`` (the paper) or
    ``"half"`` (``[sin | cos]``); ``frequencies`` ``"paper"`` or ``"tensor2tensor"`` (see the module)."""
    pos = _validate.positions(positions)
    width = _validate.even_width(width)
    layout = _validate.layout(layout)
    theta = inverse_frequencies(width, base=base, frequencies=frequencies)  # (d/2,)
    angles = pos[:, None] * theta[None, :]  # (tokens, d/2): pos * theta_i
    return _arrange(np.sin(angles), np.cos(angles), layout)


@old_arguments(positional=("positions", "width", "base", "layout", "dps", "frequencies"), renamed={"d_model": "width"})
def sinusoidal_mp(
    positions, *, width: int, base=10000, layout: str = "interleaved", dps: int = 50, frequencies: str = "paper"
) -> list:
    r"""The same encodings as rows of mpmath numbers at ``dps`` digits. The same arguments as
    :func:`sinusoidal`; positions may also be ``mpf`` or decimal strings (read at ``dps`` digits)."""
    width = _validate.even_width(width)
    layout = _validate.layout(layout)
    pos = _mp.object_array(positions, "positions", 1, "(tokens,)")
    if pos.ndim != 1:
        raise ValueError(f"positions must have shape (tokens,), got shape {pos.shape}")
    theta_mp = inverse_frequencies_mp(width, base=base, dps=dps, frequencies=frequencies)
    with _mp.working(dps) as w:
        P = w.numbers(pos, "positions")  # (tokens,)
        th = np.empty(len(theta_mp), dtype=object)
        th[:] = [w.number(t._mpf_) for t in theta_mp]
        cos, sin = w.cos_sin(P[:, None] * th[None, :])  # (tokens, d/2) of pos theta_i, rounded once
        out = _arrange(sin, cos, layout)
        return w.to_mpf(out).tolist()
