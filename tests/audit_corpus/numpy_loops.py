r"""Plain Python/NumPy loops over tokens and pairs, interleaved pairs (2i, 2i+1)."""

import math

import numpy as np

from tests.note_functions import note_rope

from . import case


def loop_rope(vectors, positions, base=10000.0):
    out = np.array(vectors, dtype=float, copy=True)
    d = out.shape[1]
    for t, m in enumerate(positions):
        for i in range(d // 2):
            a = m * base ** (-2 * i / d)
            x, y = vectors[t, 2 * i], vectors[t, 2 * i + 1]
            out[t, 2 * i] = x * math.cos(a) - y * math.sin(a)
            out[t, 2 * i + 1] = x * math.sin(a) + y * math.cos(a)
    return out.astype(vectors.dtype)


def loop_rope_clockwise(vectors, positions, base=10000.0):
    # Bug: the rotation matrix transposed: (x cos + y sin, -x sin + y cos).
    out = np.array(vectors, copy=True)
    d = out.shape[1]
    for t, m in enumerate(positions):
        for i in range(d // 2):
            a = m * base ** (-2 * i / d)
            x, y = vectors[t, 2 * i], vectors[t, 2 * i + 1]
            out[t, 2 * i] = x * math.cos(a) + y * math.sin(a)
            out[t, 2 * i + 1] = -x * math.sin(a) + y * math.cos(a)
    return out


def loop_rope_one_based(vectors, positions, base=10000.0):
    # Bug: positions counted from 1 ("the first token is token 1").
    out = np.array(vectors, copy=True)
    d = out.shape[1]
    for t, m in enumerate(positions):
        for i in range(d // 2):
            a = (m + 1) * base ** (-2 * i / d)
            x, y = vectors[t, 2 * i], vectors[t, 2 * i + 1]
            out[t, 2 * i] = x * math.cos(a) - y * math.sin(a)
            out[t, 2 * i + 1] = x * math.sin(a) + y * math.cos(a)
    return out


def loop_rope_row_index(vectors, positions, base=10000.0):
    # Bug: uses the row number as the position (works only for a prompt starting at 0).
    out = np.array(vectors, copy=True)
    d = out.shape[1]
    for t in range(out.shape[0]):
        for i in range(d // 2):
            a = t * base ** (-2 * i / d)
            x, y = vectors[t, 2 * i], vectors[t, 2 * i + 1]
            out[t, 2 * i] = x * math.cos(a) - y * math.sin(a)
            out[t, 2 * i + 1] = x * math.sin(a) + y * math.cos(a)
    return out


CASES = [
    case(note_rope, (), style="the RoPE note's function", layout="interleaved"),
    case(loop_rope, (), style="loops", layout="interleaved", max_position=4096),
    case(loop_rope_clockwise, {"rotation-sign"}, style="loops", layout="interleaved", max_position=4096),
    case(loop_rope_one_based, {"position-offset"}, style="loops", layout="interleaved", max_position=4096),
    case(loop_rope_row_index, {"ignores-positions"}, style="loops", layout="interleaved", max_position=4096),
]
