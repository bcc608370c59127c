r"""Regression tests named after the mutants that once survived the suite: each would have caught one, and
tests/mutation/ keeps the catalogue that ``make mutate`` runs against the suite."""

import numpy as np
import pytest
from posproof.numeric import rope_table, t5_bias, t5_relative_bucket


def _half_reference(x, positions, base=10000.0):
    r"""Half-layout RoPE in float64, written directly: pair i is channels (i, i + d/2). # (tokens, d)"""
    d = x.shape[-1]
    h = d // 2
    theta = base ** (-np.arange(0, d, 2, dtype=np.float64) / d)  # (d/2,)
    angle = np.asarray(positions, dtype=np.float64)[:, None] * theta  # (tokens, d/2)
    c, s = np.cos(angle), np.sin(angle)
    a, b = x[:, :h].astype(np.float64), x[:, h:].astype(np.float64)
    return np.concatenate([a * c - b * s, a * s + b * c], axis=-1)


@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-12), (np.float32, 4e-6)])
@pytest.mark.parametrize("offset", [0, 5000])  # a KV-cache offset: the table starts far from position 0
def test_regression_half_layout_reads_block_zero_table_rows_for_every_block(dtype, tol, offset):
    # The mutant: the blocked half-layout kernel used the first block's cos/sin rows for every block of tokens
    # (the same class as a cos/sin cache sliced without the KV-cache offset). No test had more than 64 tokens.
    rng = np.random.default_rng(3)
    tokens, d = 3000, 64
    x = rng.standard_normal((tokens, d)).astype(dtype)
    positions = offset + np.arange(tokens)
    got = rope_table(positions, width=d, layout="half").apply(x)
    want = _half_reference(x, positions)
    np.testing.assert_allclose(got, want, rtol=0, atol=tol * 4)
    # and the rows of the last block are not the first block's
    assert not np.allclose(got[-1], _half_reference(x[-1:], positions[:1])[0], atol=1e-3)


def test_regression_t5_bias_with_query_minus_key():
    # The mutant: t5_bias computed the bucket of m - n (query - key) instead of n - m. Only translation invariance
    # was tested, which holds either way; the sign decides which half of the table a key reads.
    table = np.repeat(np.arange(32, dtype=np.float64)[:, None], 3, axis=1)  # (buckets, heads): bias = bucket index
    bias = t5_bias([10], [15], table)  # query 10, key 15: r = key - query = +5
    assert bias.shape == (3, 1, 1)
    assert bias[0, 0, 0] == t5_relative_bucket([5])[0] == 21
    assert t5_bias([15], [10], table)[0, 0, 0] == t5_relative_bucket([-5])[0] == 5
