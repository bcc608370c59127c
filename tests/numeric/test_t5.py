r"""T5 relative position buckets: properties, the reference's known values, regressions, bad arguments."""

import warnings

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from posproof.numeric import t5_relative_bucket
from posproof.numeric.t5 import T5BucketConfig, t5_bias, t5_bucket_boundaries, t5_bucket_table, t5_relative_bucket_mp

from tests import strategies as S


def _options(cfg: tuple) -> dict:
    r"""A ``(bidirectional, num_buckets, max_distance)`` triple as the keywords the kernels take."""
    return dict(zip(("bidirectional", "num_buckets", "max_distance"), cfg, strict=True))


@given(S.relative_positions, S.t5_configs())
def test_buckets_in_range(r, cfg):
    b = t5_relative_bucket(r, **_options(cfg))
    assert b.dtype == np.int64 and b.shape == r.shape
    assert np.all((0 <= b) & (b < cfg[1]))


@given(S.t5_configs())
def test_nondecreasing_in_distance_for_each_sign(cfg):
    bidirectional, nb, md = cfg
    a = np.arange(0, 2 * md + 2)
    for sign in (-1, 1):
        b = t5_relative_bucket(sign * a, **_options(cfg))
        assert np.all(np.diff(b) >= 0) if bidirectional or sign < 0 else np.all(b == 0)


@given(S.t5_configs())
def test_exact_below_max_exact(cfg):
    bidirectional, nb, md = cfg
    me = T5BucketConfig(**_options(cfg)).max_exact
    a = np.arange(me)
    assert t5_relative_bucket(-a, **_options(cfg)).tolist() == a.tolist()  # keys before the query: lower half
    if bidirectional:
        assert t5_relative_bucket(a[1:], **_options(cfg)).tolist() == (a[1:] + nb // 2).tolist()


def _exact_integer_point(r, bidirectional, num_buckets, max_distance):
    # where log(a/max_exact)/log(max_distance/max_exact)*(B - max_exact) is an integer below the cap, float
    # rounding (the reference's too) decides the truncation: the float kernel may differ by one there
    cfg = T5BucketConfig(bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    a = abs(r) if bidirectional else max(-r, 0)
    if a < cfg.max_exact:
        return False
    with mpmath.workdps(50):
        x = (
            mpmath.log(mpmath.mpf(a) / cfg.max_exact)
            / mpmath.log(mpmath.mpf(max_distance) / cfg.max_exact)
            * (cfg.side_buckets - cfg.max_exact)
        )
        return abs(x - mpmath.nint(x)) < mpmath.mpf(10) ** -12 and x < cfg.side_buckets - cfg.max_exact - 0.5


@settings(max_examples=50)
@given(S.t5_configs(), st.integers(-3000, 3000))
def test_agrees_with_mpmath_definition(cfg, r):
    assume(not _exact_integer_point(r, *cfg))
    assert int(t5_relative_bucket([r], **_options(cfg))[0]) == t5_relative_bucket_mp(r, **_options(cfg))


@pytest.mark.parametrize("cfg", [(True, 32, 128), (False, 32, 128), (True, 64, 256), (False, 8, 20)])
def test_agrees_with_mpmath_on_a_range(cfg):
    r = np.arange(-600, 601)
    assert t5_relative_bucket(r, **_options(cfg)).tolist() == [
        t5_relative_bucket_mp(int(x), **_options(cfg)) for x in r
    ]


def test_known_values_of_the_reference():
    # Mesh TensorFlow / Hugging Face semantics: r = key - query; positive r in the upper half.
    r = [0, -1, -7, -8, -11, -12, -90, -91, -127, -128, -5000, 1, 8, 91, 5000]
    assert t5_relative_bucket(r).tolist() == [0, 1, 7, 8, 8, 9, 14, 15, 15, 15, 15, 17, 24, 31, 31]
    uni = [0, 5, 100, -1, -15, -16, -17, -30, -31, -112, -113, -5000]
    assert t5_relative_bucket(uni, bidirectional=False).tolist() == [0, 0, 0, 1, 15, 16, 16, 20, 21, 30, 31, 31]


def test_regression_cap_at_last_bucket():
    # a port without the min(., num_buckets - 1) returns 16, 24, ... for far keys
    far = -np.array([128, 1000, 10**6, 10**12])
    assert t5_relative_bucket(far).tolist() == [15, 15, 15, 15]
    assert t5_relative_bucket(-far).tolist() == [31, 31, 31, 31]


def test_regression_no_nan_or_warning_at_zero():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            b = t5_relative_bucket(np.array([0, 0, 1, -1]))
            b_uni = t5_relative_bucket(np.array([0, 3]), bidirectional=False)
    assert b.tolist() == [0, 0, 17, 1] and b_uni.tolist() == [0, 0]


def test_regression_log_not_linear_buckets():
    # linear buckets beyond max_exact would put |r| = 16 in bucket 16 (or 9): the log rule gives 10
    assert t5_relative_bucket([-16, -23, -32]).tolist() == [10, 11, 12]


def test_sign_convention_key_minus_query():
    # the query at m = 10 sees a key at n = 13 (after it): r = n - m = +3 -> upper half
    m, n = 10, 13
    assert t5_relative_bucket([n - m]).tolist() == [19]
    assert t5_relative_bucket([m - n]).tolist() == [3]


@given(S.shift)
def test_bias_depends_only_on_key_minus_query(t):
    table = np.random.default_rng(0).normal(size=(32, 3))
    m, n = np.arange(5), np.arange(7)
    assert np.array_equal(t5_bias(m + t, n + t, table), t5_bias(m, n, table))


def test_boundary_table():
    rows = t5_bucket_boundaries()
    assert rows[8:16] == [
        (8, -11, -8),
        (9, -15, -12),
        (10, -22, -16),
        (11, -31, -23),
        (12, -45, -32),
        (13, -63, -46),
        (14, -90, -64),
        (15, None, -91),
    ]
    assert 16 not in [b for b, _, _ in rows]
    text = t5_bucket_table()
    assert "(unused)" in text and "+inf" in text and "max_exact=8" in text
    assert t5_bucket_table(bidirectional=False, num_buckets=32, max_distance=128).splitlines()[2].split()[:3] == [
        "0",
        "0",
        "+inf",
    ]


@given(S.t5_configs())
def test_property_boundaries_are_the_buckets_of_every_relative_position(cfg):
    # the boundaries come from a bisection per bucket: they must be the buckets of each r, enumerated
    kw = _options(cfg)
    reach = cfg[2] + 1
    r = np.arange(-reach, reach + 1)
    buckets = t5_relative_bucket(r, **kw)
    for b, lo, hi in t5_bucket_boundaries(**kw):
        members = r[buckets == b]
        assert members.min() == (-reach if lo is None else lo) and members.max() == (reach if hi is None else hi)
        assert members.size == members.max() - members.min() + 1  # contiguous
    assert len(t5_bucket_boundaries(**kw)) == len(np.unique(buckets))


def test_regression_t5_boundaries_of_a_huge_max_distance_take_no_memory():
    # t5_bucket_boundaries enumerated every r in [-max_distance - 1, max_distance + 1]: 1e15 raised NumPy's
    # "Maximum allowed size exceeded" (1e30 overflowed); now a bisection per bucket
    rows = t5_bucket_boundaries(num_buckets=8, max_distance=2**53)
    assert rows[-1] == (7, 134217728, None) and rows[3] == (3, None, -134217728)
    assert t5_relative_bucket([134217727, 134217728], num_buckets=8, max_distance=2**53).tolist() == [6, 7]
    assert len(t5_bucket_table(num_buckets=4096, max_distance=10**15).splitlines()) == 4096 + 2


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(num_buckets=31), r"num_buckets must be an even integer >= 4"),
        (dict(num_buckets=2), r"num_buckets must be an even integer >= 4"),
        (dict(num_buckets=0, bidirectional=False), r"num_buckets must be an even integer >= 2"),
        (dict(num_buckets=33, bidirectional=False), r"num_buckets must be an even integer >= 2"),
        (dict(num_buckets=True), r"num_buckets"),
        (dict(max_distance=8), r"max_distance must be an integer in \[9, 2\*\*53\]"),
        (dict(max_distance=3, num_buckets=32), r"max_distance must be an integer in \[9, 2\*\*53\]"),
        (dict(max_distance=2**53 + 1), r"max_distance must be an integer in \[9, 2\*\*53\], got 9007199254740993"),
        (dict(max_distance=128.0), r"max_distance"),
        (dict(bidirectional="yes"), r"bidirectional must be True or False"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        t5_relative_bucket([0, 1], **kwargs)


@pytest.mark.parametrize("r", [[0.5], [np.nan], ["a"], [True]])
def test_non_integer_positions_rejected(r):
    with pytest.raises(ValueError, match="relative_position must hold integers"):
        t5_relative_bucket(r)


# ---- integer ranges, the bias table, clear errors --------------------------------------------------------------------


@pytest.mark.parametrize(
    "r", [[1e30], [-1e30], np.array([2**64 - 1], dtype=np.uint64), np.array([2**62]), np.array([-(2**63)])]
)
def test_regression_t5_huge_relative_positions_refused_not_wrapped(r):
    # t5_relative_bucket([1e30]) returned int64's minimum, uint64(2**64 - 1) bucket 1: now a ValueError
    with pytest.raises(ValueError, match=r"relative_position must hold integers in \[-2\*\*53, 2\*\*53\]"):
        t5_relative_bucket(r)


@given(S.integers_in_range, S.t5_configs())
def test_property_every_integer_in_range_gets_a_valid_bucket(r, cfg):
    b = t5_relative_bucket([r], **_options(cfg))
    assert 0 <= b[0] < cfg[1]
    far = t5_relative_bucket([S.MAX_INTEGER if r >= 0 else -S.MAX_INTEGER], **_options(cfg))
    if abs(r) >= cfg[2]:  # every |r| >= max_distance shares the far bucket of its side
        assert b[0] == far[0]


@given(S.integers_beyond_range)
def test_property_integers_beyond_the_range_are_refused(r):
    with pytest.raises(ValueError, match="relative_position must hold integers in"):
        t5_relative_bucket(np.array([r], dtype=np.int64))


def test_regression_t5_bias_transposed_table_refused():
    # a (heads, buckets) table was accepted and gave a (buckets, q, k) result
    table = np.random.default_rng(1).normal(size=(32, 8))  # (num_buckets, heads), as nn.Embedding stores it
    assert t5_bias([0, 1, 2], [0, 1], table).shape == (8, 3, 2)
    with pytest.raises(ValueError, match=r"table must have shape \(num_buckets, heads\) = \(32, heads\).*table\.T"):
        t5_bias([0, 1, 2], [0, 1], table.T)
    with pytest.raises(ValueError, match="table must have shape"):
        t5_bias([0, 1], [0, 1], np.zeros((64, 8)))  # 64 buckets need num_buckets=64
    assert t5_bias([0, 1], [0, 1], np.zeros((64, 8)), num_buckets=64).shape == (8, 2, 2)


def test_regression_t5_bias_flattened_2d_positions_refused():
    with pytest.raises(ValueError, match=r"query_positions must be a 1-D array"):
        t5_bias(np.zeros((2, 3), dtype=int), [0, 1], np.zeros((32, 2)))


def test_regression_t5_bias_nan_table_refused():
    table = np.zeros((32, 2))
    table[3, 1] = np.nan
    with pytest.raises(ValueError, match=r"table must be finite; got a non-finite value at index \(3, 1\)"):
        t5_bias([0, 1], [0, 1], table)


def test_regression_t5_relative_bucket_mp_takes_arrays_like_its_twin():
    # t5_relative_bucket_mp([1, 2]) raised a bare TypeError
    r = np.array([[-200, -3], [0, 200]])
    assert t5_relative_bucket_mp(r) == t5_relative_bucket(r).tolist()
    assert t5_relative_bucket_mp([1, 2]) == [17, 18]
    assert t5_relative_bucket_mp(-3) == 3 and isinstance(t5_relative_bucket_mp(np.int64(-3)), int)
    with pytest.raises(ValueError, match="relative_position must hold integers"):
        t5_relative_bucket_mp([0.5])
    with pytest.raises(ValueError, match="relative_position must hold integers in"):
        t5_relative_bucket_mp(2**60)
