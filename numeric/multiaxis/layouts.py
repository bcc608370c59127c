r"""The pair layouts of multi-axis RoPE: which two channels each rotated pair ``i`` turns.

* ``"interleaved"``: ``(2i, 2i + 1)`` (FLUX, diffusers, GLM-4V's text, Ernie 4.5-VL's text, SAM 2);
* ``"half"``: ``(i, i + r/2)``, rotate-half over the rotary width (Qwen2-VL, most of transformers);
* ``"blocks"``: each run of consecutive pairs on one axis is a block of channels rotated rotate-half inside it: a
  run of ``n`` pairs from pair ``s`` turns ``(2s + k, 2s + k + n)`` (Gemma 4's vision tower splits the head into one
  block per axis and rotates each block alone).

>>> [c.tolist() for c in channel_pairs([0, 0, 1, 1], layout="blocks")]
[[0, 1, 4, 5], [2, 3, 6, 7]]
"""

from __future__ import annotations

import numpy as np
from posproof.numeric import _validate

#: The layouts of a multi-axis declaration (``"blocks"`` besides the two of 1-D RoPE).
MULTIAXIS_LAYOUTS = ("interleaved", "half", "blocks")


def multiaxis_layout(value, name: str = "layout") -> str:
    r"""A multi-axis pair layout, canonical name: one of 1-D RoPE's (and their aliases) or ``"blocks"``."""
    if value == "blocks":
        return "blocks"
    try:
        return _validate.layout(value, name)
    except ValueError:
        raise ValueError(
            f"{name} must be 'interleaved' (alias 'gptj'), 'half' (aliases 'rotate_half', 'neox') or 'blocks' "
            f"(rotate-half inside each axis's block of channels), got {value!r}"
        ) from None


def channel_pairs(axes, *, layout: str = "half") -> tuple[np.ndarray, np.ndarray]:
    r"""``(first, second)``: int64 ``(r/2,)`` each, the two channels of every rotated pair under ``layout``, for the
    axis map ``axes`` (``r/2`` entries; only ``"blocks"`` reads which axis each is on)."""
    layout = multiaxis_layout(layout)
    ax = np.asarray(axes).reshape(-1)
    half = ax.size
    i = np.arange(half, dtype=np.int64)
    if layout == "interleaved":
        return 2 * i, 2 * i + 1
    if layout == "half":
        return i, i + half
    first, second = np.empty(half, dtype=np.int64), np.empty(half, dtype=np.int64)
    start = 0
    while start < half:
        stop = start
        while stop < half and ax[stop] == ax[start]:
            stop += 1
        n = stop - start
        k = np.arange(n)
        first[start:stop], second[start:stop] = 2 * start + k, 2 * start + k + n
        start = stop
    return first, second
