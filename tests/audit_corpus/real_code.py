r"""Correct code the audit once got wrong, and the ports of it that are really broken: DeepSeek's
interleave-in, half-out apply function, rotary on the trailing channels, dynamic NTK and LongRoPE that read the
current length, YaRN with a wrong attention factor, an output with NaN."""

import numpy as np
from posproof.numeric.scaling.rules import rope_inv_freq

from . import case

DYNAMIC = {"rope_type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 2048}
YARN = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}
LONGROPE = {
    "rope_type": "longrope",
    "original_max_position_embeddings": 4096,
    "factor": 8.0,
    "short_factor": [1.0 + 0.05 * i for i in range(32)],
    "long_factor": [2.0 + 0.5 * i for i in range(32)],
}


def _half(x, positions, inv_freq, attention_factor=1.0):
    h = inv_freq.size
    angles = np.asarray(positions, dtype=np.float64)[:, None] * inv_freq  # (tokens, r/2)
    c, s = np.cos(angles) * attention_factor, np.sin(angles) * attention_factor
    x1, x2 = x[:, :h], x[:, h : 2 * h]
    return np.concatenate([x1 * c - x2 * s, x1 * s + x2 * c, x[:, 2 * h :]], axis=1).astype(x.dtype)


def deepseek_interleave(q, k, positions):
    # reads interleaved pairs (2i, 2i+1) and writes the half layout: the same for q and k, so scores are RoPE's
    inv = 10000.0 ** (-np.arange(0, q.shape[1], 2) / q.shape[1])

    def one(x):
        return _half(np.concatenate([x[:, 0::2], x[:, 1::2]], axis=1), positions, inv)

    return one(q), one(k)


def deepseek_interleave_q_only(q, k, positions):
    # Bug: only q is de-interleaved: q and k come out in different channel orders
    inv = 10000.0 ** (-np.arange(0, q.shape[1], 2) / q.shape[1])
    return _half(np.concatenate([q[:, 0::2], q[:, 1::2]], axis=1), positions, inv), _half(k, positions, inv)


def trailing_rotary(vectors, positions, base=10000.0):
    # rotates the last half of the head (as DeepSeek-V4 rotates its last 64 channels), passes the first half
    d = vectors.shape[1]
    r = d // 2
    out = vectors.copy()
    out[:, d - r :] = _half(vectors[:, d - r :], positions, base ** (-np.arange(0, r, 2) / r))
    return out


def _dynamic(vectors, positions, base, factor):
    L = max(int(np.max(positions)) + 1, 2048)  # the current length, as transformers' dynamic rotary reads it
    inv, _ = rope_inv_freq(
        vectors.shape[1], base=base, scaling=dict(DYNAMIC, factor=factor), seq_len=L, max_position_embeddings=2048
    )
    return _half(vectors, positions, inv)


def dynamic_ntk(vectors, positions, base=10000.0):
    return _dynamic(vectors, positions, base, 4.0)


def dynamic_ntk_base_100k(vectors, positions, base=10000.0):
    # Bug: the base of another model
    return _dynamic(vectors, positions, 100000.0, 4.0)


def longrope(vectors, positions, base=10000.0):
    inv, af = rope_inv_freq(vectors.shape[1], base=base, scaling=LONGROPE, seq_len=int(np.max(positions)) + 1)
    return _half(vectors, positions, inv, af)


def longrope_always_long(vectors, positions, base=10000.0):
    # Bug: long_factor at every length (the short regime is never used)
    inv, af = rope_inv_freq(vectors.shape[1], base=base, scaling=LONGROPE, seq_len=10**9)
    return _half(vectors, positions, inv, af)


def yarn_attention_twice(vectors, positions, base=10000.0):
    # Bug: the attention factor multiplies cos and sin, and again the logits' scale (applied twice)
    inv, af = rope_inv_freq(vectors.shape[1], base=base, scaling=YARN)
    return _half(vectors, positions, inv, af * af)


def nan_at_position_zero(vectors, positions, base=10000.0):
    # Bug: a 0/0 at position 0 (a normalisation by the position)
    inv = base ** (-np.arange(0, vectors.shape[1], 2) / vectors.shape[1])
    p = np.asarray(positions, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = np.where(p == 0, p / p, 1.0)[:, None]
    return (_half(vectors, positions, inv) * scale).astype(vectors.dtype)


CASES = [
    case(deepseek_interleave, (), style="DeepSeek interleave-in, half-out", call="q,k,positions"),
    case(deepseek_interleave_q_only, {"not-relative"}, style="interleave-in for q only", call="q,k,positions"),
    case(trailing_rotary, (), style="rotary on the trailing channels", rotary_dim=32),
    case(dynamic_ntk, (), style="dynamic NTK, current length", scaling=DYNAMIC),
    case(dynamic_ntk_base_100k, {"wrong-base"}, style="dynamic NTK", scaling=DYNAMIC),
    case(longrope, (), style="LongRoPE, both regimes", scaling=LONGROPE),
    case(longrope_always_long, {"wrong-scaling"}, style="LongRoPE", scaling=LONGROPE),
    case(yarn_attention_twice, {"wrong-scaling"}, style="YaRN", scaling=YARN),
    case(nan_at_position_zero, {"non-finite"}, style="rotate-half"),
]
