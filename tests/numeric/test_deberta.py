r"""DeBERTa: clipped index, log buckets, and the scores computed directly and as the public code does."""

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from posproof.numeric import deberta_log_bucket
from posproof.numeric.deberta import (
    deberta_delta,
    deberta_log_bucket_mp,
    deberta_relative_index,
    deberta_scores_direct,
    deberta_scores_gather,
)

from tests import strategies as S


def _options(cfg: tuple) -> dict:
    r"""A ``(bucket_size, max_position)`` pair as the keywords the kernels take."""
    return dict(zip(("bucket_size", "max_position"), cfg, strict=True))


@given(S.relative_positions, S.deberta_bucket_configs())
def test_log_bucket_odd_symmetric(r, cfg):
    assert np.array_equal(deberta_log_bucket(-r, **_options(cfg)), -deberta_log_bucket(r, **_options(cfg)))


@given(S.deberta_bucket_configs())
def test_log_bucket_exact_up_to_half_bucket_size(cfg):
    mid = cfg[0] // 2
    r = np.arange(-mid, mid + 1)
    assert np.array_equal(deberta_log_bucket(r, **_options(cfg)), r)


@given(S.deberta_bucket_configs())
def test_log_bucket_monotone_and_ends_at_bucket_size_minus_one(cfg):
    bucket_size, max_position = cfg
    r = np.arange(0, max_position)
    b = deberta_log_bucket(r, **_options(cfg))
    assert np.all(np.diff(b) >= 0)
    assert b[-1] == bucket_size - 1  # |r| = max_position - 1


def _exact_integer_point(r, bucket_size, max_position):
    # where log(|r|/mid)/log((max_position-1)/mid)*(mid-1) is an integer, float rounding (the reference's too)
    # decides the ceiling: there the float kernel may differ by one from the exact definition
    mid = bucket_size // 2
    if abs(r) <= mid:
        return False
    with mpmath.workdps(50):
        x = mpmath.log(mpmath.mpf(abs(r)) / mid) / mpmath.log(mpmath.mpf(max_position - 1) / mid) * (mid - 1)
        return abs(x - mpmath.nint(x)) < mpmath.mpf(10) ** -12


@settings(max_examples=50)
@given(S.deberta_bucket_configs(), st.integers(-5000, 5000))
def test_log_bucket_agrees_with_mpmath(cfg, r):
    assume(not _exact_integer_point(r, *cfg))
    assert int(deberta_log_bucket([r], **_options(cfg))[0]) == deberta_log_bucket_mp(r, **_options(cfg))


def test_exact_integer_points_differ_by_at_most_one():
    # bucket_size 18, max_position 26, r = 15: log(5/3)/log(25/9)*8 = 4 exactly
    assert _exact_integer_point(15, 18, 26)
    assert (
        abs(
            int(deberta_log_bucket([15], bucket_size=18, max_position=26)[0])
            - deberta_log_bucket_mp(15, bucket_size=18, max_position=26)
        )
        <= 1
    )


def test_log_bucket_known_values_default():
    r = np.arange(-2000, 2001)
    assert deberta_log_bucket(r).tolist() == [deberta_log_bucket_mp(int(x)) for x in r]
    assert deberta_log_bucket([128, 129, 200, 300, 511, -511]).tolist() == [128, 129, 169, 207, 255, -255]


def test_delta_clip_and_convention_query_minus_key():
    k = 3
    i, j = 7, 5  # query after key: r = i - j = +2
    assert deberta_delta([i - j], k=k).tolist() == [5]
    assert deberta_delta(np.arange(-5, 6), k=k).tolist() == [0, 0, 0, 1, 2, 3, 4, 5, 5, 5, 5]


def _inputs(L=9, d=4, k=3, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(L, d)), rng.normal(size=(L, d)), rng.normal(size=(2 * k, d)), rng.normal(size=(2 * k, d)), k


@settings(max_examples=30, deadline=None)
@given(
    st.integers(1, 12), st.integers(1, 6), st.integers(1, 5), st.sampled_from(["code", "paper"]), st.integers(0, 2**31)
)
def test_direct_equals_gather(L, d, k, conv, seed):
    Qc, Kc, Qr, Kr, k = _inputs(L, d, k, seed)
    np.testing.assert_allclose(
        deberta_scores_direct(Qc, Kc, Qr, Kr, k=k, p2c_index=conv),
        deberta_scores_gather(Qc, Kc, Qr, Kr, k=k, p2c_index=conv),
        rtol=1e-12,
        atol=1e-12,
    )


def test_direct_equals_gather_with_log_buckets():
    Qc, Kc, Qr, Kr, k = _inputs(L=40, d=3, k=8)
    for conv in ("code", "paper"):
        np.testing.assert_allclose(
            deberta_scores_direct(Qc, Kc, Qr, Kr, k=k, p2c_index=conv, bucket_size=8, max_position=30),
            deberta_scores_gather(Qc, Kc, Qr, Kr, k=k, p2c_index=conv, bucket_size=8, max_position=30),
            rtol=1e-12,
            atol=1e-12,
        )


def test_scores_match_the_formula_entry_by_entry():
    Qc, Kc, Qr, Kr, k = _inputs(L=6, d=2, k=2)
    A = deberta_scores_direct(Qc, Kc, Qr, Kr, k=k, p2c_index="paper")
    dlt = lambda a, b: min(max(a - b + k, 0), 2 * k - 1)  # noqa: E731
    for a in range(6):
        for b in range(6):
            want = Qc[a] @ Kc[b] + Qc[a] @ Kr[dlt(a, b)] + Kc[b] @ Qr[dlt(b, a)]
            assert A[a, b] == pytest.approx(want / np.sqrt(3 * 2), rel=1e-12)


def _p2c_gather_without_transpose(Qc, Kc, Qr, Kr, k):
    # the known porting bug: the p2c gather used without the final transpose
    L, d = Qc.shape
    rel = np.arange(L)[:, None] - np.arange(L)[None, :]
    c2p = np.take_along_axis(Qc @ Kr.T, np.clip(rel + k, 0, 2 * k - 1), axis=-1)
    p2c = np.take_along_axis(Kc @ Qr.T, np.clip(-rel + k, 0, 2 * k - 1), axis=-1)
    return (Qc @ Kc.T + c2p + p2c) / np.sqrt(3 * d)


def test_regression_p2c_sign():
    Qc, Kc, Qr, Kr, k = _inputs()
    right = deberta_scores_gather(Qc, Kc, Qr, Kr, k=k, p2c_index="code")
    assert not np.allclose(_p2c_gather_without_transpose(Qc, Kc, Qr, Kr, k), right)
    # and the paper's delta(j, i) is a different function from the code's delta(i, j)
    assert not np.allclose(deberta_scores_direct(Qc, Kc, Qr, Kr, k=k, p2c_index="paper"), right)


def test_scores_translation_invariant_inside_and_outside_window():
    # the score of (i, j) depends on contents and i - j only: shifting both sequences by t shifts the matrix
    Qc, Kc, Qr, Kr, k = _inputs(L=12, k=3)
    A = deberta_scores_direct(Qc, Kc, Qr, Kr, k=k)
    Qs, Ks = np.roll(Qc, 2, axis=0), np.roll(Kc, 2, axis=0)
    B = deberta_scores_direct(Qs, Ks, Qr, Kr, k=k)
    np.testing.assert_allclose(B[2:, 2:], A[:-2, :-2], rtol=1e-12)


def test_relative_index_with_buckets():
    assert deberta_relative_index([-300, 0, 300], k=256, bucket_size=256, max_position=512).tolist() == [49, 256, 463]


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(bucket_size=7), r"bucket_size must be an even integer >= 4"),
        (dict(bucket_size=2), r"bucket_size must be an even integer >= 4"),
        (dict(bucket_size=256, max_position=129), r"max_position must be an integer >= 130"),
        (dict(max_position=1.5), r"max_position"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        deberta_log_bucket([1, 2], **kwargs)


def test_bad_inputs():
    with pytest.raises(ValueError, match="relative_position must hold integers"):
        deberta_log_bucket([0.5])
    with pytest.raises(ValueError, match="k must be an integer >= 1"):
        deberta_delta([1], k=0)
    Qc, Kc, Qr, Kr, k = _inputs()
    with pytest.raises(ValueError, match="p2c_index must be one of 'code', 'paper'"):
        deberta_scores_direct(Qc, Kc, Qr, Kr, k=k, p2c_index="Code")
    with pytest.raises(ValueError, match=r"Kr must have shape \(2k, d\)"):
        deberta_scores_gather(Qc, Kc, Qr, Kr[:-1], k=k)


# ---- integer ranges, max_position, NaN, the mpmath twin --------------------------------------------------------------


@pytest.mark.parametrize("r", [[1e30], np.array([2**64 - 1], dtype=np.uint64), np.array([2**62])])
def test_regression_deberta_huge_relative_positions_refused_not_wrapped(r):
    # deberta_log_bucket([1e30]) returned int64's minimum
    with pytest.raises(ValueError, match=r"relative_position must hold integers in \[-2\*\*53, 2\*\*53\]"):
        deberta_log_bucket(r)


@given(S.integers_in_range, S.deberta_bucket_configs())
def test_property_log_bucket_defined_and_odd_on_the_whole_range(r, cfg):
    b = deberta_log_bucket([r, -r], **_options(cfg))
    assert b[0] == -b[1] and abs(b[0]) >= min(abs(r), cfg[0] // 2)


@given(S.integers_beyond_range)
def test_property_log_bucket_refuses_integers_beyond_the_range(r):
    with pytest.raises(ValueError, match="relative_position must hold integers in"):
        deberta_log_bucket(np.array([r], dtype=np.int64))


def test_regression_relative_index_max_position_without_bucket_size_refused():
    # max_position was silently ignored unless bucket_size was given
    with pytest.raises(ValueError, match="max_position only applies with bucket_size"):
        deberta_relative_index([0, 300], k=256, max_position=512)
    Qc, Kc, Qr, Kr, k = _inputs()
    for scores in (deberta_scores_direct, deberta_scores_gather):
        with pytest.raises(ValueError, match="max_position only applies with bucket_size"):
            scores(Qc, Kc, Qr, Kr, k=k, max_position=30)


@pytest.mark.parametrize("which", range(4))
def test_regression_nan_inputs_to_scores_refused(which):
    *args, k = _inputs()
    bad = args[which].copy()
    bad[0, 0] = np.nan
    args[which] = bad
    name = ("Qc", "Kc", "Qr", "Kr")[which]
    for scores in (deberta_scores_direct, deberta_scores_gather):
        with pytest.raises(ValueError, match=f"{name} must be finite"):
            scores(*args, k=k)


def test_regression_log_bucket_mp_takes_arrays_like_its_twin():
    r = np.array([[-300, -5], [0, 300]])
    assert deberta_log_bucket_mp(r) == deberta_log_bucket(r).tolist()
    assert deberta_log_bucket_mp([128, 129]) == [128, 129]
    assert deberta_log_bucket_mp(np.int64(300)) == 207
    with pytest.raises(ValueError, match="relative_position must hold integers"):
        deberta_log_bucket_mp([0.5])
