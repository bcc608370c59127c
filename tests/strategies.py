r"""Hypothesis strategies for every numeric scheme, in one module (one section per scheme)."""

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

# ---- shared ----------------------------------------------------------------------------------------------------------
#: Even widths, small enough to keep examples fast.
even_widths = st.integers(min_value=1, max_value=64).map(lambda h: 2 * h)
#: Frequency bases > 1 as used in practice (10^4 for the paper, 5*10^5 for Llama 3) and odd ones.
bases = st.one_of(st.just(10000.0), st.just(500000.0), st.floats(min_value=1.5, max_value=1e6))
#: Positions as real numbers (integer token indices and interpolated fractional positions).
position = st.floats(min_value=-4096, max_value=4096, allow_nan=False, allow_infinity=False)
positions = hnp.arrays(np.float64, st.integers(1, 16), elements=position)
#: A relative shift applied to every position.
shift = st.integers(min_value=-2048, max_value=2048)

# ---- sinusoidal ------------------------------------------------------------------------------------------------------
sinusoidal_layouts = st.sampled_from(["interleaved", "half"])

# ---- relative schemes: T5, DeBERTa, ALiBi, Transformer-XL ------------------------------------------------------------
#: Integer relative positions, small and large (both signs).
relative_positions = hnp.arrays(np.int64, st.integers(1, 64), elements=st.integers(-100_000, 100_000))
relative_position = st.integers(-100_000, 100_000)


@st.composite
def t5_configs(draw):
    r"""``(bidirectional, num_buckets, max_distance)`` accepted by ``t5_relative_bucket``."""
    bidirectional = draw(st.booleans())
    num_buckets = 2 * draw(st.integers(2 if bidirectional else 1, 64))
    side = num_buckets // 2 if bidirectional else num_buckets
    max_distance = draw(st.integers(side // 2 + 1, 4096))
    return bidirectional, num_buckets, max_distance


@st.composite
def deberta_bucket_configs(draw):
    r"""``(bucket_size, max_position)`` accepted by ``deberta_log_bucket``."""
    bucket_size = 2 * draw(st.integers(2, 256))
    max_position = draw(st.integers(bucket_size // 2 + 2, 4096))
    return bucket_size, max_position


#: ALiBi head counts, powers of two and others.
head_counts = st.integers(1, 256)
powers_of_two_heads = st.integers(0, 8).map(lambda e: 2**e)
#: Transformer-XL segment and memory lengths.
txl_lengths = st.tuples(st.integers(1, 8), st.integers(0, 6))

# ---- rope ------------------------------------------------------------------------------------------------------------
rope_layouts = st.sampled_from(["interleaved", "half"])
#: RoPE head widths (even), small enough for the mpmath reference.
rope_widths = st.integers(min_value=1, max_value=16).map(lambda h: 2 * h)
#: Integer token positions, up to long contexts.
rope_positions = st.integers(min_value=0, max_value=131072)


@st.composite
def rope_inputs(draw, dtype=np.float64, max_tokens=8, widths=rope_widths):
    r"""``(vectors (tokens, width), positions (tokens,))`` with finite components in [-4, 4]."""
    width = draw(widths)
    tokens = draw(st.integers(1, max_tokens))
    vectors = draw(
        hnp.arrays(dtype, (tokens, width), elements=st.floats(-4, 4, allow_nan=False, allow_infinity=False, width=32))
    )
    positions = draw(hnp.arrays(np.int64, (tokens,), elements=rope_positions))
    return vectors, positions


# ---- broadcasting of positions, aliasing (out=), integer ranges ------------------------------------------------------
#: Integers up to the accepted bound of every bucket and bias function (2**53) and just beyond it.
MAX_INTEGER = 2**53
integers_in_range = st.integers(-MAX_INTEGER, MAX_INTEGER)
integers_beyond_range = st.one_of(st.integers(MAX_INTEGER + 1, 2**63 - 1), st.integers(-(2**63), -MAX_INTEGER - 1))
rope_dtypes = st.sampled_from([np.float32, np.float64])


@st.composite
def batched_rope_inputs(draw, dtype=np.float64):
    r"""``(vectors (B, H, N, width), positions, per_row (B, H, N))``: positions in one of the accepted shapes
    ``(N,)``, ``(B, 1, N)``, ``(1, H, N)``, ``(B, H, N)``, ``(B, H, 1)``, and the position of every row."""
    B, H, N = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 5))
    width = draw(rope_widths)
    shape = draw(st.sampled_from([(N,), (B, 1, N), (1, H, N), (B, H, N), (B, H, 1)]))
    positions = draw(hnp.arrays(np.int64, shape, elements=st.integers(0, 100_000)))
    vectors = draw(
        hnp.arrays(dtype, (B, H, N, width), elements=st.floats(-4, 4, allow_nan=False, allow_infinity=False, width=32))
    )
    return vectors, positions, np.broadcast_to(positions, (B, H, N))


@st.composite
def overlapping_out(draw):
    r"""``(vectors, positions, shift)``: an array ``(tokens, width)`` and a row shift for an ``out`` view of the
    same memory (0 = in place, else a partial overlap shifted by whole rows)."""
    x, pos = draw(rope_inputs(max_tokens=6))
    shift = draw(st.integers(-(x.shape[0] - 1), x.shape[0] - 1))
    return x, pos, shift


# ---- context extension (numeric/scaling/rules.py, numeric/scaling/extension.py)
# -------------------------------------
#: Head widths for the scaling rules (even, >= 4 so that every rule, NTK included, accepts them).
scaling_widths = st.integers(min_value=2, max_value=64).map(lambda h: 2 * h)
#: Scaling factors s >= 1, including exactly 1 (the boundary where every rule is the identity).
scaling_factors = st.one_of(st.just(1.0), st.floats(min_value=1.0, max_value=64.0))
#: Trained lengths L0.
trained_lengths = st.integers(min_value=16, max_value=131072)


@st.composite
def yarn_scalings(draw, width=None):
    r"""A YaRN ``rope_scaling`` mapping (factor, L0, betas with beta_fast >= beta_slow, truncate)."""
    beta_slow = draw(st.floats(min_value=0.25, max_value=8.0))
    beta_fast = draw(st.floats(min_value=beta_slow, max_value=128.0))
    return {
        "rope_type": "yarn",
        "factor": draw(scaling_factors),
        "original_max_position_embeddings": draw(trained_lengths),
        "beta_fast": beta_fast,
        "beta_slow": beta_slow,
        "truncate": draw(st.booleans()),
    }


@st.composite
def llama3_scalings(draw):
    r"""A Llama 3 ``rope_scaling`` mapping (high_freq_factor > low_freq_factor > 0)."""
    low = draw(st.floats(min_value=0.25, max_value=8.0))
    high = draw(st.floats(min_value=low * 1.01 + 0.01, max_value=64.0))
    return {
        "rope_type": "llama3",
        "factor": draw(scaling_factors),
        "original_max_position_embeddings": draw(trained_lengths),
        "low_freq_factor": low,
        "high_freq_factor": high,
    }


@st.composite
def any_scalings(draw, width: int):
    r"""A mapping of any rule for head width ``width`` (LongRoPE gets ``width/2`` factors in [1, 64])."""
    rule = draw(st.sampled_from(["default", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope"]))
    if rule == "default":
        return {"rope_type": "default"}
    if rule in ("linear", "ntk"):
        return {"rope_type": rule, "factor": draw(scaling_factors)}
    if rule == "dynamic":
        L0 = draw(trained_lengths)
        return {"rope_type": rule, "factor": draw(scaling_factors), "original_max_position_embeddings": L0}
    if rule == "yarn":
        return draw(yarn_scalings())
    if rule == "llama3":
        return draw(llama3_scalings())
    table = st.lists(st.floats(min_value=1.0, max_value=64.0), min_size=width // 2, max_size=width // 2)
    return {
        "rope_type": "longrope",
        "factor": draw(scaling_factors),
        "original_max_position_embeddings": draw(trained_lengths),
        "short_factor": draw(table),
        "long_factor": draw(table),
    }
