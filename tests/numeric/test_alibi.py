r"""ALiBi slopes and bias: properties, the reference's values for any head count, regressions, bad arguments."""

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given
from posproof.numeric import alibi_slopes
from posproof.numeric.alibi import alibi_bias, alibi_slope_exponents, alibi_slopes_mp

from tests import strategies as S


@given(S.head_counts)
def test_slopes_positive_below_one(n):
    m = alibi_slopes(n)
    # the interleaved 2c-head slopes may exceed 1/2 (2^(-1/2) for n = 9), never 1
    assert m.shape == (n,) and np.all(m > 0) and np.all(m < 1)


@given(S.powers_of_two_heads)
def test_power_of_two_is_geometric(n):
    h = np.arange(1, n + 1)
    np.testing.assert_allclose(alibi_slopes(n), 2.0 ** (-8.0 * h / n), rtol=1e-15)
    if n > 1:
        m = alibi_slopes(n)
        np.testing.assert_allclose(m[1:] / m[:-1], 2.0 ** (-8.0 / n), rtol=1e-14)


@given(S.head_counts)
def test_first_c_slopes_are_the_power_of_two_sequence(n):
    c = 1 << (n.bit_length() - 1)
    np.testing.assert_array_equal(alibi_slopes(n)[:c], alibi_slopes(c))
    # the rest interleave between them: every other slope of the 2c-head sequence
    np.testing.assert_array_equal(alibi_slopes(n)[c:], alibi_slopes(2 * c)[0::2][: n - c])


@given(S.head_counts)
def test_agrees_with_mpmath(n):
    with mpmath.workdps(50):
        ref = alibi_slopes_mp(n)
        got = alibi_slopes(n)
        assert all(abs(mpmath.mpf(float(g)) - r) <= 1e-15 * r for g, r in zip(got, ref, strict=True))


def test_known_values():
    assert alibi_slopes(8).tolist() == [2.0**-e for e in range(1, 9)]
    assert alibi_slopes(1).tolist() == [2.0**-8]
    np.testing.assert_allclose(alibi_slopes(6), [2**-2, 2**-4, 2**-6, 2**-8, 2**-1, 2**-3], rtol=0)
    assert alibi_slope_exponents(12)[8:] == [Fraction(-1, 2), Fraction(-3, 2), Fraction(-5, 2), Fraction(-7, 2)]
    # 16-head sequence is 2^(-h/2); the first of 12 heads is 2^(-1)
    assert alibi_slopes(12)[0] == 0.5


def test_regression_non_power_of_two_is_not_the_power_of_two_formula():
    n = 6
    naive = 2.0 ** (-8.0 * np.arange(1, n + 1) / n)
    assert not np.allclose(alibi_slopes(n), naive)


def test_regression_exponent_not_off_by_one():
    # start = 2^(-8/n), not 2^0 = 1 (an off-by-one exponent h - 1 makes the first head unbiased)
    for n in (4, 8, 16, 32):
        assert alibi_slopes(n)[0] == 2.0 ** (-8 / n)


@given(S.head_counts, S.shift)
def test_bias_translation_invariant_and_decays(n, t):
    i, j = np.arange(6), np.arange(6)
    B = alibi_bias(i, j, n_heads=n)
    np.testing.assert_array_equal(alibi_bias(i + t, j + t, n_heads=n), B)
    causal = B[:, 5, :6]  # query 5, keys 0..5: bias rises towards the query
    assert np.all(np.diff(causal, axis=-1) > 0)


@pytest.mark.parametrize("n", [0, -3, 2.5, True, "8"])
def test_bad_head_count(n):
    with pytest.raises(ValueError, match="n_heads must be an integer >= 1"):
        alibi_slopes(n)


def test_bad_positions():
    with pytest.raises(ValueError, match="query_positions must hold integers"):
        alibi_bias([0.5], [0], n_heads=4)


# ---- argument order, integer ranges, the Bloom form ------------------------------------------------------------------


def test_regression_alibi_bias_huge_positions_refused_not_sign_flipped():
    # alibi_bias(1, [2**62], [-2**62]) overflowed i - j and flipped the sign of the bias
    with pytest.raises(ValueError, match=r"query_positions must hold integers in \[-2\*\*53, 2\*\*53\]"):
        alibi_bias([2**62], [-(2**62)], n_heads=1)
    big = alibi_bias([2**53], [-(2**53)], n_heads=1)  # the bound: i - j = 2**54 exactly, still the right sign
    assert big[0, 0, 0] == -(2.0**-8) * 2.0**54


@given(S.integers_in_range, S.integers_in_range, S.head_counts)
def test_property_bias_is_minus_slope_times_distance_on_the_whole_range(i, j, n):
    got = alibi_bias([i], [j], n_heads=n)[:, 0, 0]
    np.testing.assert_array_equal(got, -alibi_slopes(n) * float(i - j))


@given(S.integers_beyond_range)
def test_property_bias_refuses_positions_beyond_the_range(i):
    with pytest.raises(ValueError, match="query_positions must hold integers in"):
        alibi_bias(np.array([i], dtype=np.int64), [0], n_heads=4)


def test_regression_positions_first_and_1d():
    # the argument order is positions first (query, key), then the head count, as in t5_bias
    assert alibi_bias([0, 1, 2], [0, 1], n_heads=4).shape == (4, 3, 2)
    # the older order (n_heads first) cannot be misread: a scalar is never 1-D positions
    np.testing.assert_array_equal(alibi_bias(4, [0, 1, 2], n_heads=[0, 1]), alibi_bias([0, 1, 2], [0, 1], n_heads=4))
    with pytest.raises(ValueError, match="query_positions must be a 1-D array"):
        alibi_bias(np.zeros((2, 3), dtype=int), [0], n_heads=4)  # 2-D positions are not flattened
    with pytest.raises(ValueError, match="n_heads must be an integer >= 1"):
        alibi_bias([0], [0], n_heads=[4])


def test_bloom_form_differs_by_a_constant_per_query_row():
    # Bloom adds m * j (the key position) instead of -m (i - j): the same softmax, rows shifted by m * i
    i, j = np.arange(5), np.arange(7)
    paper, bloom = alibi_bias(i, j, n_heads=12), alibi_bias(i, j, n_heads=12, form="bloom")
    np.testing.assert_array_equal(bloom, np.broadcast_to(alibi_slopes(12)[:, None, None] * j, (12, 5, 7)))
    diff = bloom - paper
    np.testing.assert_allclose(diff, np.broadcast_to(diff[..., :1], diff.shape), rtol=0, atol=1e-12)

    def softmax(a):
        e = np.exp(a - a.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    np.testing.assert_allclose(softmax(bloom), softmax(paper), rtol=1e-12)
    with pytest.raises(ValueError, match="form must be one of 'paper', 'bloom'"):
        alibi_bias(i, j, n_heads=12, form="press")
