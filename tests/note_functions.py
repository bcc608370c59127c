r"""The user's own code from the RoPE note, kept verbatim: the reference numeric.rotary.rope must agree with."""

import numpy as np


def note_rope(vectors, positions, base=10_000.0):
    # The RoPE note, "Positional encoding: give tokens a sense of order", section "Rotate pairs, preserve their length".
    width = vectors.shape[1]
    frequencies = base ** (-np.arange(0, width, 2) / width)
    angles = np.asarray(positions)[:, None] * frequencies
    cosine, sine = np.cos(angles), np.sin(angles)
    even, odd = vectors[:, 0::2], vectors[:, 1::2]
    rotated = np.empty_like(vectors)
    rotated[:, 0::2] = even * cosine - odd * sine
    rotated[:, 1::2] = even * sine + odd * cosine
    return rotated
