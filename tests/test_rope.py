r"""RoPE kernels: agreement with the seed's function and with the mpmath references, the cached table, the
relative-position property, layouts, bad input, and regressions for the bug classes of REFERENCES.md."""

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric import (
    interleaved_to_half_rows,
    layout_permutation,
    rope,
    rope_decay_bound,
    rope_decay_bound_mp,
    rope_mp,
    rope_table,
    tolerances,
)
from tests import strategies as S
from tests.seed_functions import seed_rope


def _mp_array(rows):
    return np.array([[float(v) for v in r] for r in rows])


# ---- agreement ---------------------------------------------------------------------------------------------------


@given(S.rope_inputs(), S.bases)
@settings(max_examples=60, deadline=None)
def test_rope_matches_seed_function_float64(inputs, base):
    x, pos = inputs
    np.testing.assert_allclose(rope(x, pos, base), seed_rope(x, pos, base), rtol=0, atol=tolerances.FLOAT64_ATOL)


@given(S.rope_inputs(dtype=np.float32, widths=st.integers(1, 64).map(lambda h: 2 * h)))
@settings(max_examples=60, deadline=None)
def test_rope_matches_seed_function_float32(inputs):
    x, pos = inputs
    ours, seed = rope(x, pos), seed_rope(x, pos)
    assert ours.dtype == np.float32
    scale = np.abs(x).max() + 1.0
    np.testing.assert_allclose(ours, seed, rtol=0, atol=tolerances.ROPE_FLOAT32_RTOL * scale * 2)


@given(S.rope_inputs(max_tokens=3), S.rope_layouts)
@settings(max_examples=25, deadline=None)
def test_rope_matches_mpmath_reference(inputs, layout):
    x, pos = inputs
    ref = _mp_array(rope_mp(x, pos, layout=layout, dps=30))
    scale = np.abs(x).max() + 1.0
    np.testing.assert_allclose(rope(x, pos, layout=layout), ref, rtol=0, atol=tolerances.FLOAT64_RTOL * scale)


def test_mpmath_reference_is_exact_at_high_precision():
    # cos(pi/2) = 0 exactly in the limit: at 60 digits the reference is that close.
    with mpmath.workdps(60):
        r = rope_mp([["1", "0"]], [mpmath.pi / 2], dps=60)[0]
    assert abs(r[0]) < mpmath.mpf(10) ** -55 and abs(r[1] - 1) < mpmath.mpf(10) ** -55


@given(S.rope_inputs(), S.rope_layouts)
@settings(max_examples=40, deadline=None)
def test_table_apply_equals_rope(inputs, layout):
    x, pos = inputs
    table = rope_table(pos, x.shape[1], layout=layout)
    np.testing.assert_array_equal(table.apply(x), rope(x, pos, layout=layout))
    out = np.empty_like(x)
    assert table.apply(x, out=out) is out
    np.testing.assert_array_equal(out, rope(x, pos, layout=layout))


def test_table_apply_float32_matches_float64_rounded():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((64, 32)).astype(np.float32)
    pos = rng.integers(0, 100000, 64)
    for layout in ("interleaved", "half"):
        got = rope_table(pos, 32, layout=layout).apply(x)
        exact = rope(x.astype(np.float64), pos, layout=layout)
        np.testing.assert_allclose(got, exact, rtol=0, atol=tolerances.ROPE_FLOAT32_RTOL * 8)


def test_leading_batch_axes_and_per_batch_positions():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 5, 8))
    pos = np.arange(5)
    batched = rope(x, pos)
    for b in range(3):
        np.testing.assert_allclose(batched[b], seed_rope(x[b], pos), atol=tolerances.FLOAT64_ATOL)
    per_row = rng.integers(0, 1000, (3, 5))
    got = rope(x, per_row, layout="half")
    for b in range(3):
        np.testing.assert_array_equal(got[b], rope(x[b], per_row[b], layout="half"))


def test_low_precision_vectors_round_once():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    rng = np.random.default_rng(3)
    pos = rng.integers(0, 100000, 16)
    for dt, eps in ((np.float16, 2.0**-10), (ml_dtypes.bfloat16, 2.0**-7)):
        x = rng.uniform(-1, 1, (16, 8)).astype(dt)
        got = rope(x, pos)
        assert got.dtype == np.dtype(dt)
        exact = seed_rope(x.astype(np.float64), pos)
        np.testing.assert_allclose(got.astype(np.float64), exact, rtol=0, atol=2 * eps)


# ---- properties ----------------------------------------------------------------------------------------------------


@given(S.rope_widths, S.rope_layouts, st.integers(0, 4096), st.integers(0, 4096), S.shift, st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_scores_depend_on_relative_position_only(width, layout, m, n, t, seed):
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, 1, width))
    s1 = (rope(q, [m], layout=layout) * rope(k, [n], layout=layout)).sum()
    s2 = (rope(q, [m + t], layout=layout) * rope(k, [n + t], layout=layout)).sum()
    scale = np.linalg.norm(q) * np.linalg.norm(k)
    assert abs(s1 - s2) <= tolerances.FLOAT64_RTOL * scale


@given(S.rope_inputs(), S.rope_layouts)
@settings(max_examples=40, deadline=None)
def test_norms_are_preserved(inputs, layout):
    x, pos = inputs
    np.testing.assert_allclose(
        np.linalg.norm(rope(x, pos, layout=layout), axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-12, atol=1e-12
    )


@given(S.rope_inputs())
@settings(max_examples=40, deadline=None)
def test_half_layout_on_permuted_channels_equals_interleaved(inputs):
    x, pos = inputs
    P = layout_permutation(x.shape[1])
    np.testing.assert_allclose(
        rope(x[:, P], pos, layout="half"), rope(x, pos)[:, P], rtol=0, atol=tolerances.FLOAT64_ATOL
    )


def test_projection_rows_permuted_per_head_under_grouped_query_attention():
    rng = np.random.default_rng(4)
    heads, kv_heads, head_dim, d_in = 4, 2, 8, 6
    wq, wk = rng.standard_normal((heads * head_dim, d_in)), rng.standard_normal((kv_heads * head_dim, d_in))
    h = rng.standard_normal((5, d_in))
    pos = np.arange(5) * 37
    ref_q = rope((h @ wq.T).reshape(5, heads, head_dim).transpose(1, 0, 2), pos)
    ref_k = rope((h @ wk.T).reshape(5, kv_heads, head_dim).transpose(1, 0, 2), pos)
    got_q = rope(
        (h @ interleaved_to_half_rows(wq, heads).T).reshape(5, heads, head_dim).transpose(1, 0, 2), pos, layout="half"
    )
    got_k = rope(
        (h @ interleaved_to_half_rows(wk, kv_heads).T).reshape(5, kv_heads, head_dim).transpose(1, 0, 2),
        pos,
        layout="half",
    )
    group = heads // kv_heads
    for hq in range(heads):
        ref = ref_q[hq] @ ref_k[hq // group].T
        np.testing.assert_allclose(got_q[hq] @ got_k[hq // group].T, ref, atol=1e-10)


def test_gqa_key_permutation_with_query_head_count_is_wrong():
    # Bug class: permuting W_k with the query head count when kv_heads < heads scrambles channels across heads.
    wk = np.arange(2 * 8 * 3, dtype=float).reshape(16, 3)
    assert not np.array_equal(interleaved_to_half_rows(wk, 4), interleaved_to_half_rows(wk, 2))


# ---- decay -----------------------------------------------------------------------------------------------------


def test_decay_bound_matches_mpmath_and_starts_at_half_plus_one_over_two():
    r = [0, 1, 7, 100, 1000, -100]
    got = rope_decay_bound(128, r)
    ref = [float(v) for v in rope_decay_bound_mp(128, r, dps=30)]
    np.testing.assert_allclose(got, ref, rtol=1e-12)
    assert got[0] == (64 + 1) / 2
    assert got[3] == got[5]  # |S_j| is even in the distance
    assert got[4] < got[3] < got[0]


def test_decay_bound_shape():
    assert rope_decay_bound(8, np.arange(6).reshape(2, 3)).shape == (2, 3)
    assert rope_decay_bound(8, 3.0).shape == ()  # a scalar distance keeps its (empty) shape


# ---- bad input ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: rope(np.ones((2, 3)), [0, 1]), "vectors"),
        (lambda: rope(np.ones((2, 4)), [0, 1, 2]), "positions"),
        (lambda: rope(np.ones((2, 4)), [0, np.nan]), "positions"),
        (lambda: rope(np.array([[1.0, np.inf]]), [0]), "vectors"),
        (lambda: rope(np.ones((2, 4)), [0, 1], layout="rotate_half"), "layout"),
        (lambda: rope(np.ones((2, 4)), [0, 1], base=1.0), "base"),
        (lambda: rope(np.ones(4), [0]), "vectors"),
        (lambda: rope(np.ones((1, 4), dtype=complex), [0]), "vectors"),
        (lambda: rope_table([0, 1], 5), "width"),
        (lambda: rope_table([0, 1], 4).apply(np.ones((2, 6))), "width"),
        (lambda: rope_table([0, 1], 4).apply(np.ones((3, 4))), "positions"),
        (lambda: rope_table([0, 1], 4).apply(np.ones((2, 4)), out=np.empty((2, 4), np.float32)), "out"),
        (lambda: rope_mp([[1, 2, 3]], [0]), "width"),
        (lambda: rope_mp([[1, 2]], [0, 1]), "positions"),
        (lambda: rope_decay_bound(7, [1]), "d"),
        (lambda: layout_permutation(3), "width"),
        (lambda: interleaved_to_half_rows(np.ones((10, 2)), 4), "heads"),
    ],
)
def test_bad_input_raises_value_error_naming_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_float16_non_finite_is_caught():
    with pytest.raises(ValueError, match="vectors must be finite"):
        rope(np.array([[1.0, np.inf]], dtype=np.float16), [0])


def test_huge_finite_values_are_not_rejected():
    x = np.full((2, 4), 3e38, dtype=np.float32)  # row sums overflow; the entries are finite
    rope(x, [0, 0])


# ---- regressions for REFERENCES.md bug classes --------------------------------------------------------------------


def test_regression_sign_of_theta_rotates_counterclockwise():
    # Bug class "sign of theta in the exponent": position m multiplies by e^{+i m theta}.
    got = rope(np.array([[1.0, 0.0]]), [1.0])
    assert got[0, 1] == pytest.approx(np.sin(1.0)) and got[0, 0] == pytest.approx(np.cos(1.0))
    # ... so the score is q^T R((n - m) theta) k: key at n = 1, query at m = 0 sees +1 radian.
    q, k = np.array([[1.0, 0.0]]), np.array([[1.0, 0.0]])
    s = (rope(q, [0]) * rope(k, [1])).sum()
    assert s == pytest.approx(np.cos(1.0))
    qs, ks = np.array([[0.0, 1.0]]), np.array([[1.0, 0.0]])
    assert (rope(qs, [0]) * rope(ks, [1])).sum() == pytest.approx(np.sin(1.0))  # +sin: n - m, not m - n


def test_regression_layout_mixup_changes_scores():
    # Bug class "layout mix-up": a half-layout kernel on interleaved weights (no permutation) gives other scores.
    rng = np.random.default_rng(5)
    q, k = rng.standard_normal((2, 1, 8))
    inter = (rope(q, [3]) * rope(k, [40])).sum()
    mixed = (rope(q, [3], layout="half") * rope(k, [40], layout="half")).sum()
    P = layout_permutation(8)
    fixed = (rope(q[:, P], [3], layout="half") * rope(k[:, P], [40], layout="half")).sum()
    assert abs(inter - mixed) > 1e-3
    assert fixed == pytest.approx(inter, abs=1e-12)


def test_regression_bf16_vectors_still_use_float64_angles():
    # Bug class "frequencies or positions rounded to bf16": rope() on bf16 input must not round m or theta_i.
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.ones((1, 64), dtype=ml_dtypes.bfloat16)
    m = 100003  # not representable in bf16 (nor f16)
    got = rope(x, [m]).astype(np.float64)
    exact = seed_rope(np.ones((1, 64)), [m])
    np.testing.assert_allclose(got, exact, atol=2 * 2.0**-7)
