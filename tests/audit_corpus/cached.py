r"""A cos/sin table built once for the longest sequence and indexed by position; scaled variants."""

import math

import numpy as np

from . import case


class RotaryCache:
    def __init__(self, dim, max_len, base=10000.0, inv_freq=None, attention_factor=1.0):
        self.inv_freq = base ** (-np.arange(0, dim, 2) / dim) if inv_freq is None else np.asarray(inv_freq)
        angles = np.arange(max_len)[:, None] * self.inv_freq[None, :]  # (max_len, dim/2), float64
        self.cos = np.cos(angles) * attention_factor
        self.sin = np.sin(angles) * attention_factor

    def apply(self, x, positions):
        c, s = self.cos[positions], self.sin[positions]
        even, odd = x[:, 0::2], x[:, 1::2]
        out = np.empty_like(x)
        out[:, 0::2] = even * c - odd * s
        out[:, 1::2] = even * s + odd * c
        return out


_CACHES: dict = {}


def cached_rope(vectors, positions, base=10000.0):
    key = (vectors.shape[1], base)
    if key not in _CACHES:
        _CACHES[key] = RotaryCache(vectors.shape[1], 8192, base)
    return _CACHES[key].apply(vectors, np.asarray(positions))


def cached_rope_clamped(vectors, positions, base=10000.0):
    # Bug: the table is shorter than the context and positions are clamped to its end.
    key = ("short", vectors.shape[1], base)
    if key not in _CACHES:
        _CACHES[key] = RotaryCache(vectors.shape[1], 2048, base)
    return _CACHES[key].apply(vectors, np.minimum(np.asarray(positions), 2047))


def _linear_inv_freq(dim, base, factor):
    return base ** (-np.arange(0, dim, 2) / dim) / factor


def yarn_as_linear(vectors, positions, base=10000.0):
    # Bug: a "YaRN" port that interpolates every frequency (Position Interpolation).
    cache = RotaryCache(vectors.shape[1], 8192, base, inv_freq=_linear_inv_freq(vectors.shape[1], base, 8.0))
    return cache.apply(vectors, np.asarray(positions))


def _llama3_inv_freq(dim, base, factor=8.0, low=1.0, high=4.0, L0=8192):
    theta = base ** (-np.arange(0, dim, 2) / dim)
    wavelen = 2 * math.pi / theta
    smooth = (L0 / wavelen - low) / (high - low)
    blended = (1 - smooth) * theta / factor + smooth * theta
    out = np.where(wavelen < L0 / high, theta, np.where(wavelen > L0 / low, theta / factor, blended))
    return out


def llama3_rope(vectors, positions, base=500000.0):
    cache = RotaryCache(vectors.shape[1], 8192, base, inv_freq=_llama3_inv_freq(vectors.shape[1], base))
    return cache.apply(vectors, np.asarray(positions))


def llama3_unscaled(vectors, positions, base=500000.0):
    # Bug: the scaling function computes the new frequencies and returns the old ones.
    dim = vectors.shape[1]
    _llama3_inv_freq(dim, base)
    cache = RotaryCache(dim, 8192, base)
    return cache.apply(vectors, np.asarray(positions))


LLAMA3 = {
    "rope_type": "llama3",
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
}
YARN = {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096, "attention_factor": 1.0}
CASES = [
    case(cached_rope, (), style="cached table", layout="interleaved", max_position=8191),
    case(cached_rope_clamped, {"not-relative"}, style="cached table", layout="interleaved", max_position=8191),
    case(
        llama3_rope,
        (),
        style="cached table, Llama 3 scaling",
        layout="interleaved",
        base=500000.0,
        scaling=LLAMA3,
        max_position=8191,
    ),
    case(
        llama3_unscaled,
        {"wrong-scaling"},
        style="cached table, Llama 3 scaling",
        layout="interleaved",
        base=500000.0,
        scaling=LLAMA3,
        max_position=8191,
    ),
    case(
        yarn_as_linear,
        {"wrong-scaling"},
        style="cached table, YaRN",
        layout="interleaved",
        scaling=YARN,
        max_position=8191,
    ),
]
