r"""Meta style: pairs (2i, 2i+1) viewed as complex numbers, multiplied by e^{i m theta_i}."""

import numpy as np

from . import case


def _freqs_cis(positions, dim, base, dtype=np.float64):
    theta = 1.0 / (base ** (np.arange(0, dim, 2)[: dim // 2].astype(dtype) / dim))
    angles = np.outer(np.asarray(positions).astype(dtype), theta.astype(dtype))
    return np.exp(1j * angles.astype(np.float64))  # polar(1, angles)


def complex_rope(vectors, positions, base=10000.0):
    x = vectors.astype(np.float64).reshape(vectors.shape[0], -1, 2)
    xc = x[..., 0] + 1j * x[..., 1]
    y = xc * _freqs_cis(positions, vectors.shape[1], base)
    return np.stack([y.real, y.imag], axis=-1).reshape(vectors.shape).astype(vectors.dtype)


def complex_rope_conjugate(vectors, positions, base=10000.0):
    # Bug: multiplies by the conjugate e^{-i m theta_i}.
    x = vectors.astype(np.float64).reshape(vectors.shape[0], -1, 2)
    xc = x[..., 0] + 1j * x[..., 1]
    y = xc * np.conj(_freqs_cis(positions, vectors.shape[1], base))
    return np.stack([y.real, y.imag], axis=-1).reshape(vectors.shape).astype(vectors.dtype)


def complex_rope_fp16(vectors, positions, base=10000.0):
    # Bug: positions and frequencies stored in float16 (a half-precision port).
    x = vectors.astype(np.float64).reshape(vectors.shape[0], -1, 2)
    xc = x[..., 0] + 1j * x[..., 1]
    y = xc * _freqs_cis(positions, vectors.shape[1], base, dtype=np.float16)
    return np.stack([y.real, y.imag], axis=-1).reshape(vectors.shape).astype(vectors.dtype)


def complex_rope_real_imag_swapped(vectors, positions, base=10000.0):
    # Bug: reads each pair as (imag, real) but writes (real, imag).
    x = vectors.astype(np.float64).reshape(vectors.shape[0], -1, 2)
    xc = x[..., 1] + 1j * x[..., 0]
    y = xc * _freqs_cis(positions, vectors.shape[1], base)
    return np.stack([y.real, y.imag], axis=-1).reshape(vectors.shape).astype(vectors.dtype)


CASES = [
    case(complex_rope, (), style="complex multiplication (Meta)", layout="interleaved"),
    case(complex_rope_conjugate, {"rotation-sign"}, style="complex multiplication", layout="interleaved"),
    case(complex_rope_fp16, {"low-precision-angles"}, style="complex multiplication, float16", layout="interleaved"),
    # (its output is the pair swapped after a rotation: undone, the scores are those of a clockwise rotation)
    case(complex_rope_real_imag_swapped, {"rotation-sign"}, style="complex multiplication", layout="interleaved"),
]
