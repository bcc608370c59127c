r"""Hugging Face style: inverse frequencies and a cos/sin cache in float32, ``rotate_half``, pairs (i, i + d/2)."""

import numpy as np

from . import case


def rotate_half(x):
    h = x.shape[-1] // 2
    return np.concatenate([-x[..., h:], x[..., :h]], axis=-1)


def _cache(positions, dim, base, dtype=np.float32):
    inv_freq = (1.0 / (base ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float32) / dim))).astype(dtype)
    freqs = np.asarray(positions).astype(dtype)[:, None] * inv_freq[None, :]  # (tokens, dim/2)
    emb = np.concatenate([freqs, freqs], axis=-1)
    return np.cos(emb.astype(np.float32)), np.sin(emb.astype(np.float32))


def hf_rope(vectors, positions, base=10000.0):
    cos, sin = _cache(positions, vectors.shape[-1], base)
    cos, sin = cos.astype(vectors.dtype), sin.astype(vectors.dtype)
    return vectors * cos + rotate_half(vectors) * sin


def hf_rope_bf16_cache(vectors, positions, base=10000.0):
    # Bug: the cache built under autocast: frequencies, positions and their product in bfloat16.
    import ml_dtypes  # the precision extra (installed by make)

    cos, sin = _cache(positions, vectors.shape[-1], base, dtype=ml_dtypes.bfloat16)
    cos, sin = cos.astype(vectors.dtype), sin.astype(vectors.dtype)
    return vectors * cos + rotate_half(vectors) * sin


def hf_rope_partial_full_width(vectors, positions, base=10000.0, rotary_dim=None):
    # Bug: partial rotary (the first half rotates) with frequencies built over the whole head width.
    d = vectors.shape[-1]
    r = d // 2 if rotary_dim is None else rotary_dim
    inv_freq = 1.0 / (base ** (np.arange(0, r, 2, dtype=np.float32) / d))  # should divide by r
    freqs = np.asarray(positions).astype(np.float32)[:, None] * inv_freq
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos, sin = np.cos(emb).astype(vectors.dtype), np.sin(emb).astype(vectors.dtype)
    rot, rest = vectors[:, :r], vectors[:, r:]
    return np.concatenate([rot * cos + rotate_half(rot) * sin, rest], axis=-1)


def hf_rope_partial(vectors, positions, base=10000.0):
    d = vectors.shape[-1]
    r = d // 2
    inv_freq = 1.0 / (base ** (np.arange(0, r, 2, dtype=np.float32) / r))
    freqs = np.asarray(positions).astype(np.float32)[:, None] * inv_freq
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos, sin = np.cos(emb).astype(vectors.dtype), np.sin(emb).astype(vectors.dtype)
    rot, rest = vectors[:, :r], vectors[:, r:]
    return np.concatenate([rot * cos + rotate_half(rot) * sin, rest], axis=-1)


def hf_rope_whole_width(vectors, positions, base=10000.0):
    # Bug: a model with partial_rotary_factor 0.5 ported with the full-width kernel.
    return hf_rope(vectors, positions, base)


def hf_rope_missing_minus(vectors, positions, base=10000.0):
    # Bug: rotate_half without the minus.
    cos, sin = _cache(positions, vectors.shape[-1], base)
    h = vectors.shape[-1] // 2
    swapped = np.concatenate([vectors[..., h:], vectors[..., :h]], axis=-1)
    return vectors * cos.astype(vectors.dtype) + swapped * sin.astype(vectors.dtype)


PARTIAL = {"rope_type": "default", "partial_rotary_factor": 0.5}
CASES = [
    case(hf_rope, (), style="rotate-half, float32 cache (Hugging Face)", layout="half"),
    case(
        hf_rope, {"layout-half-vs-interleaved"}, style="rotate-half against an interleaved model", layout="interleaved"
    ),
    case(hf_rope_bf16_cache, {"low-precision-angles"}, style="rotate-half, bfloat16 cache", layout="half"),
    case(hf_rope_partial, (), style="rotate-half, partial rotary", layout="half", scaling=PARTIAL),
    case(
        hf_rope_partial_full_width,
        {"partial-rotary-width"},
        style="rotate-half, partial rotary",
        layout="half",
        scaling=PARTIAL,
    ),
    case(
        hf_rope_whole_width,
        {"partial-rotary-width"},
        style="rotate-half, partial rotary",
        layout="half",
        scaling=PARTIAL,
    ),
    case(hf_rope_missing_minus, {"not-norm-preserving"}, style="rotate-half", layout="half"),
]
