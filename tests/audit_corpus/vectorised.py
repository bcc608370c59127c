r"""Vectorised NumPy with strided views, interleaved pairs unless said."""

import numpy as np

from . import case


def _rotate(vectors, cos, sin):
    even, odd = vectors[:, 0::2], vectors[:, 1::2]
    out = np.empty_like(vectors)
    out[:, 0::2] = even * cos - odd * sin
    out[:, 1::2] = even * sin + odd * cos
    return out


def rope_fixed_base(vectors, positions, base=10000.0):
    # Bug: the base argument is ignored (a Llama-2 port reused for a model with rope_theta = 500000).
    d = vectors.shape[1]
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    a = np.asarray(positions)[:, None] * theta
    return _rotate(vectors, np.cos(a), np.sin(a))


def rope_exponent_i_over_d(vectors, positions, base=10000.0):
    # Bug: exponent i/d with i counting pairs (should be 2i/d).
    d = vectors.shape[1]
    theta = base ** (-np.arange(d // 2) / d)
    a = np.asarray(positions)[:, None] * theta
    return _rotate(vectors, np.cos(a), np.sin(a))


def rope_cos_sin_swapped(vectors, positions, base=10000.0):
    # Bug: the two tables exchanged.
    d = vectors.shape[1]
    theta = base ** (-np.arange(0, d, 2) / d)
    a = np.asarray(positions)[:, None] * theta
    return _rotate(vectors, np.sin(a), np.cos(a))


def rope_half_split(vectors, positions, base=10000.0):
    # Correct rotate-half (pairs (i, i + d/2)); wrong when the checkpoint was trained interleaved.
    d = vectors.shape[1]
    h = d // 2
    theta = base ** (-np.arange(0, d, 2) / d)
    a = np.asarray(positions)[:, None] * theta
    c, s = np.cos(a), np.sin(a)
    x1, x2 = vectors[:, :h], vectors[:, h:]
    return np.concatenate([x1 * c - x2 * s, x1 * s + x2 * c], axis=1).astype(vectors.dtype)


def rope_downcast(vectors, positions, base=10000.0):
    # Bug: always returns float32 (a cast left in from a GPU port).
    d = vectors.shape[1]
    theta = base ** (-np.arange(0, d, 2) / d)
    a = np.asarray(positions)[:, None] * theta
    return _rotate(vectors, np.cos(a), np.sin(a)).astype(np.float32)


def rope_no_minus(vectors, positions, base=10000.0):
    # Bug: the minus sign dropped: (x cos + y sin, x sin + y cos) is not a rotation.
    d = vectors.shape[1]
    theta = base ** (-np.arange(0, d, 2) / d)
    a = np.asarray(positions)[:, None] * theta
    c, s = np.cos(a), np.sin(a)
    even, odd = vectors[:, 0::2], vectors[:, 1::2]
    out = np.empty_like(vectors)
    out[:, 0::2] = even * c + odd * s
    out[:, 1::2] = even * s + odd * c
    return out


CASES = [
    case(rope_fixed_base, {"wrong-base"}, style="vectorised", layout="interleaved", base=500000.0),
    case(rope_exponent_i_over_d, {"frequency-exponent"}, style="vectorised", layout="interleaved"),
    case(rope_cos_sin_swapped, {"cos-sin-swapped"}, style="vectorised", layout="interleaved"),
    case(rope_half_split, {"layout-half-vs-interleaved"}, style="vectorised", layout="interleaved"),
    case(rope_half_split, (), style="vectorised rotate-half, audited as half", layout="half"),
    case(rope_downcast, {"shape-or-dtype"}, style="vectorised", layout="interleaved"),
    case(rope_no_minus, {"not-norm-preserving"}, style="vectorised", layout="interleaved"),
]
