r"""M-RoPE's axis maps (Qwen2-VL's chunked sections, Qwen3-VL's interleaved ones): the axis of each rotated pair.

>>> mrope_axes([2, 1, 1]).tolist(), mrope_axes([2, 1, 1], interleaved=True).tolist()
([0, 0, 1, 2], [0, 1, 2, 0])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from posproof.numeric._deprecated import old_arguments

#: Models whose text rotary interleaves the M-RoPE sections whatever the config says (transformers' Qwen3-VL
#: family calls apply_interleaved_mrope unconditionally).
INTERLEAVED_MODEL_TYPES = frozenset({"qwen3_vl", "qwen3_vl_text", "qwen3_vl_moe", "qwen3_vl_moe_text"})


def mrope_sections(mrope_section) -> list[int]:
    r"""``mrope_section`` checked: a non-empty list of integers ``>= 0`` (pairs per axis) with a positive sum."""
    if isinstance(mrope_section, (str, bytes)) or not isinstance(mrope_section, Sequence) or not mrope_section:
        raise ValueError(f"mrope_section must be a non-empty list of integers >= 0, got {mrope_section!r}")
    out = []
    for s in mrope_section:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0:
            raise ValueError(f"mrope_section must be a non-empty list of integers >= 0, got {mrope_section!r}")
        out.append(int(s))
    if sum(out) == 0:
        raise ValueError(f"mrope_section must give at least one pair, got {mrope_section!r}")
    return out


@old_arguments(positional=("mrope_section", "interleaved"))
def mrope_axes(mrope_section, *, interleaved: bool = False) -> np.ndarray:
    r"""The axis of each pair (int64 ``(sum(mrope_section),)``) for M-RoPE with these sections (t, h, w, ...).

    Chunked: ``section[a]`` consecutive pairs per axis, in order. Interleaved (Qwen3-VL): pair ``i`` takes axis
    ``a >= 1`` when ``i = a (mod A)`` and ``i < A * section[a]``, else axis 0."""
    sections = mrope_sections(mrope_section)
    A = len(sections)
    if not interleaved:
        return np.repeat(np.arange(A, dtype=np.int64), sections)
    half = sum(sections)
    axes = np.zeros(half, dtype=np.int64)
    for a in range(1, A):
        axes[np.arange(a, min(A * sections[a], half), A)] = a
    return axes
