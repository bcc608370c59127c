r"""Axial 2-D RoPE (row, column): the first ``d/4`` pairs turn with the row, the rest with the column.

Two frequency assignments over a head of width ``d`` (``theta_i = base**(-2i/d)``):

* ``"split"`` (Pixtral's vision tower): the row takes ``theta_0, theta_2, ...``, the column ``theta_1, theta_3,
  ...``; together they cover the whole ladder of the head;
* ``"shared"`` (timm's EVA-02, SAM 2, Qwen2-VL's and Qwen2.5-VL's vision rotaries and most of transformers' vision
  towers): both axes take ``theta_0, theta_2, ..., theta_{d/2-2}``, the 1-D ladder ``base**(-2j/(d/2))`` of a
  ``d/2``-wide head, restarted on the column.

>>> axial_inv_freq(8, base=16.0).tolist()  # theta = 1, 1/2, 1/4, 1/8: row 1, 1/4, column 1/2, 1/8
[1.0, 0.25, 0.5, 0.125]
>>> axial_inv_freq(8, base=16.0, frequencies="shared").tolist()
[1.0, 0.25, 1.0, 0.25]
"""

from __future__ import annotations

import numpy as np
from posproof.numeric import _validate
from posproof.numeric._deprecated import old_arguments
from posproof.numeric.sinusoid import inverse_frequencies, inverse_frequencies_mp

#: The frequency assignments of axial 2-D RoPE (module docstring).
AXIAL_FREQUENCIES = ("shared", "split")


def axial_frequencies(value, name: str = "axial_frequencies") -> str:
    r"""``value`` checked: ``"shared"`` or ``"split"``."""
    if not isinstance(value, str) or value not in AXIAL_FREQUENCIES:
        raise ValueError(f"{name} must be 'shared' (EVA-02, SAM 2, Qwen2-VL) or 'split' (Pixtral), got {value!r}")
    return value


def axial_axes(width: int) -> np.ndarray:
    r"""Axial 2-D RoPE: the first ``d/4`` pairs turn with the row (axis 0), the rest with the column."""
    width = _validate.even_width(width)
    if width % 4:
        raise ValueError(f"width must be a multiple of 4 for axial 2-D RoPE (d/4 pairs per axis), got {width}")
    return np.repeat(np.array([0, 1], dtype=np.int64), width // 4)


@old_arguments(positional=("width", "base"))
def axial_inv_freq(width: int, *, base: float = 10000.0, frequencies: str = "split") -> np.ndarray:
    r"""Axial 2-D RoPE's frequencies (float64 ``(d/2,)``), ``theta_i = base**(-2i/d)`` over the head width ``d``:
    ``"split"`` (default, Pixtral): ``theta_0, theta_2, ..., theta_{d/2-2}`` (row) then ``theta_1, theta_3, ...``
    (column); ``"shared"``: ``theta_0, theta_2, ...`` for both."""
    axial_axes(width)  # validates the width
    theta = inverse_frequencies(width, base=base)
    second = theta[1::2] if axial_frequencies(frequencies, "frequencies") == "split" else theta[0::2]
    return np.concatenate([theta[0::2], second])


@old_arguments(positional=("width", "base", "dps"))
def axial_inv_freq_mp(width: int, *, base=10000, dps: int = 50, frequencies: str = "split") -> list:
    r"""The same frequencies as mpmath numbers at ``dps`` digits."""
    axial_axes(width)
    theta = inverse_frequencies_mp(width, base=base, dps=dps)
    second = theta[1::2] if axial_frequencies(frequencies, "frequencies") == "split" else theta[0::2]
    return theta[0::2] + second
