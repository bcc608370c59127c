r"""Position remapping at inference time: the relative position a remapping scheme hands to RoPE for query ``i``
and key ``j`` (``0 <= j <= i``, causal), with ``r = i - j``.

Self-Extend (Jin et al. 2024, arXiv 2401.01325; the reference ``self_extend_patch`` of datamllab/LongLM, with
``group_size_1 = G`` and ``group_size_2 = W``): neighbour attention keeps ``r`` for ``r < W``; grouped attention
puts the query at ``i // G + W - W // G`` and the key at ``j // G``, so beyond the window the distance is
``i // G - j // G + W - W // G`` (the shift ``W - W // G`` makes the grouped distances start at ``W`` or above).
That shift is the reference's Llama decoding path's; its prefill paths write ``W - W / G`` (true division), the
same number exactly when ``G`` divides ``W`` (the defaults 1024 and 8) and ``(W mod G) / G`` lower otherwise.

ReRoPE (Su 2023, https://kexue.fm/archives/9708; bojone/rerope): ``min(r, w)``; leaky ReRoPE: ``r`` for ``r <= w``,
``w + (r - w) / k`` beyond (slope ``1/k`` past the window).

>>> self_extend_relative([5, 6, 3], [0, 1, 0], window=4, group=2).tolist()
[4, 5, 3]
>>> rerope_relative([3, 9], [1, 0], window=4).tolist()
[2, 4]
>>> leaky_rerope_relative([3, 12], [1, 0], window=4, k=4).tolist()
[2.0, 6.0]
"""

from __future__ import annotations

import mpmath
import numpy as np
from posproof.numeric import _validate

__all__ = [
    "self_extend_relative",
    "self_extend_relative_mp",
    "rerope_relative",
    "rerope_relative_mp",
    "leaky_rerope_relative",
    "leaky_rerope_relative_mp",
    "golden_vectors_remap",
]


def self_extend_relative(query_positions, key_positions, *, window: int, group: int) -> np.ndarray:
    r"""Self-Extend's relative position, int64, broadcast over the positions: ``i - j`` when ``i - j < window``,
    else ``i // group - j // group + window - window // group``."""
    w = _validate.positive_int(window, "window")
    g = _validate.positive_int(group, "group")
    i, j = _validate.causal_positions(query_positions, key_positions)
    grouped = i // g - j // g + (w - w // g)
    return np.where(i - j < w, i - j, grouped).astype(np.int64)


def self_extend_relative_mp(query_position, key_position, *, window: int, group: int) -> int:
    r"""The exact twin of :func:`self_extend_relative` for one pair, in Python integers."""
    w = _validate.positive_int(window, "window")
    g = _validate.positive_int(group, "group")
    i, j = _validate.causal_pair(query_position, key_position)
    return i - j if i - j < w else i // g - j // g + w - w // g


def rerope_relative(query_positions, key_positions, *, window: int) -> np.ndarray:
    r"""ReRoPE's relative position ``min(i - j, window)``, int64, broadcast over the positions."""
    w = _validate.positive_int(window, "window")
    i, j = _validate.causal_positions(query_positions, key_positions)
    return np.minimum(i - j, w).astype(np.int64)


def rerope_relative_mp(query_position, key_position, *, window: int) -> int:
    r"""The exact twin of :func:`rerope_relative` for one pair, in Python integers."""
    w = _validate.positive_int(window, "window")
    i, j = _validate.causal_pair(query_position, key_position)
    return min(i - j, w)


def leaky_rerope_relative(query_positions, key_positions, *, window: int, k: float) -> np.ndarray:
    r"""Leaky ReRoPE's relative position, float64: ``r`` for ``r <= window``, ``window + (r - window) / k``
    beyond (``k >= 1``; ``k = 1`` is plain RoPE)."""
    w = _validate.positive_int(window, "window")
    kk = _validate.positive_real(k, "k")
    if kk < 1:
        raise ValueError(f"k must be >= 1, got {k!r}")
    i, j = _validate.causal_positions(query_positions, key_positions)
    r = (i - j).astype(np.float64)
    return np.where(r <= w, r, w + (r - w) / kk)


def leaky_rerope_relative_mp(query_position, key_position, *, window: int, k, dps: int = 50):
    r"""The mpmath twin of :func:`leaky_rerope_relative` for one pair, at ``dps`` digits (``k`` may be an mpf)."""
    w = _validate.positive_int(window, "window")
    i, j = _validate.causal_pair(query_position, key_position)
    with mpmath.workdps(_validate.dps(dps)):
        kk = mpmath.mpf(k)
        if not mpmath.isfinite(kk) or kk < 1:
            raise ValueError(f"k must be a finite real number >= 1, got {k!r}")
        r = i - j
        return mpmath.mpf(r) if r <= w else w + (r - w) / kk


#: Golden-vector cases: (window, group) for Self-Extend, window for ReRoPE, (window, k) for leaky ReRoPE.
SELF_EXTEND_SETTINGS = ((4, 2), (6, 4), (512, 8), (1024, 16))
RE_ROPE_WINDOWS = (4, 512)
LEAKY_SETTINGS = ((4, "4"), (512, "16"), (3, "2.5"))
#: Pairs (i, j), causal: small ones, both sides of the window edges, and long contexts.
PAIRS = ((0, 0), (3, 0), (5, 0), (6, 1), (7, 3), (100, 1), (511, 0), (512, 0), (513, 0), (1023, 0), (1024, 0),
         (1030, 7), (4095, 0), (32767, 12345), (131071, 0))  # fmt: skip


def golden_vectors_remap() -> dict:
    r"""The remapping document in the shape of :mod:`posproof.numeric.vectors` (exact integers as decimal
    strings; leaky ReRoPE at 50 digits rounded to 17 significant digits)."""

    def leaky(i, j, w, k):
        with mpmath.workdps(50):
            return mpmath.nstr(leaky_rerope_relative_mp(i, j, window=w, k=mpmath.mpf(k)), 17, strip_zeros=False)

    cases = []
    for w, g in SELF_EXTEND_SETTINGS:
        values = [str(self_extend_relative_mp(i, j, window=w, group=g)) for i, j in PAIRS]
        cases.append({"parameters": {"scheme": "self-extend", "window": w, "group": g}, "pairs": PAIRS,
                      "relative": values})  # fmt: skip
    for w in RE_ROPE_WINDOWS:
        values = [str(rerope_relative_mp(i, j, window=w)) for i, j in PAIRS]
        cases.append({"parameters": {"scheme": "rerope", "window": w}, "pairs": PAIRS, "relative": values})
    for w, k in LEAKY_SETTINGS:
        values = [leaky(i, j, w, k) for i, j in PAIRS]
        cases.append({"parameters": {"scheme": "leaky-rerope", "window": w, "k": k}, "pairs": PAIRS,
                      "relative": values})  # fmt: skip
    return {
        "scheme": "remap",
        "version": 1,
        "precision": {
            "dps": 50,
            "digits": 17,
            "note": "integers exact; leaky ReRoPE computed with mpmath at 50 significant digits, rounded to 17 "
            "significant digits as decimal strings",
        },
        "conventions": (
            "query i, key j, 0 <= j <= i, r = i - j. self-extend (Jin et al. 2024, LongLM self_extend_patch, "
            "group_size_1 = group, group_size_2 = window): r if r < window, else i // group - j // group + window "
            "- window // group. rerope (Su 2023): min(r, window). leaky-rerope: r if r <= window, else window + "
            "(r - window) / k"
        ),
        "cases": [{**c, "pairs": [list(p) for p in c["pairs"]]} for c in cases],
    }
