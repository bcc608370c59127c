r"""RoPE kernels: agreement with the NumPy ``rope`` of "Positional encoding: give tokens a sense of order" (the
RoPE note) and with the mpmath references, the cached table, the relative-position property, layouts, bad
input, and regressions for known bug classes and for silent wrong answers."""

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from posproof.numeric import (
    interleaved_to_half_rows,
    layout_permutation,
    rope,
    rope_decay_curve,
    rope_decay_curve_mp,
    rope_mp,
    rope_table,
    tolerances,
)

from tests import strategies as S
from tests.note_functions import note_rope as note_rope  # the RoPE note's function, verbatim


def _mp_array(rows):
    return np.array([[float(v) for v in r] for r in rows])


# ---- agreement -------------------------------------------------------------------------------------------------------


@given(S.rope_inputs(), S.bases)
@settings(max_examples=60, deadline=None)
def test_rope_matches_the_rope_note_function_float64(inputs, base):
    x, pos = inputs
    np.testing.assert_allclose(rope(x, pos, base=base), note_rope(x, pos, base), rtol=0, atol=tolerances.FLOAT64_ATOL)


@given(S.rope_inputs(dtype=np.float32, widths=st.integers(1, 64).map(lambda h: 2 * h)))
@settings(max_examples=60, deadline=None)
def test_rope_matches_the_rope_note_function_float32(inputs):
    x, pos = inputs
    ours, theirs = rope(x, pos), note_rope(x, pos)
    assert ours.dtype == np.float32
    scale = np.abs(x).max() + 1.0
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=tolerances.ROPE_FLOAT32_RTOL * scale * 2)


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
    table = rope_table(pos, width=x.shape[1], layout=layout)
    np.testing.assert_array_equal(table.apply(x), rope(x, pos, layout=layout))
    out = np.empty_like(x)
    assert table.apply(x, out=out) is out
    np.testing.assert_array_equal(out, rope(x, pos, layout=layout))


def test_table_apply_float32_matches_float64_rounded():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((64, 32)).astype(np.float32)
    pos = rng.integers(0, 100000, 64)
    for layout in ("interleaved", "half"):
        got = rope_table(pos, width=32, layout=layout).apply(x)
        exact = rope(x.astype(np.float64), pos, layout=layout)
        np.testing.assert_allclose(got, exact, rtol=0, atol=tolerances.ROPE_FLOAT32_RTOL * 8)


def test_leading_batch_axes_and_per_batch_positions():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 5, 8))
    pos = np.arange(5)
    batched = rope(x, pos)
    for b in range(3):
        np.testing.assert_allclose(batched[b], note_rope(x[b], pos), atol=tolerances.FLOAT64_ATOL)
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
        exact = note_rope(x.astype(np.float64), pos)
        np.testing.assert_allclose(got.astype(np.float64), exact, rtol=0, atol=2 * eps)


# ---- properties ------------------------------------------------------------------------------------------------------


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
    pq, pk = interleaved_to_half_rows(wq, width=head_dim), interleaved_to_half_rows(wk, width=head_dim)
    got_q = rope((h @ pq.T).reshape(5, heads, head_dim).transpose(1, 0, 2), pos, layout="half")
    got_k = rope((h @ pk.T).reshape(5, kv_heads, head_dim).transpose(1, 0, 2), pos, layout="half")
    group = heads // kv_heads
    for hq in range(heads):
        ref = ref_q[hq] @ ref_k[hq // group].T
        np.testing.assert_allclose(got_q[hq] @ got_k[hq // group].T, ref, atol=1e-10)
    # an (in, out) kernel (x @ W) is permuted along its last axis
    np.testing.assert_array_equal(interleaved_to_half_rows(wq.T, width=head_dim, axis=-1), pq.T)


# ---- decay -----------------------------------------------------------------------------------------------------------


def test_decay_bound_matches_mpmath_and_starts_at_half_plus_one_over_two():
    r = [0, 1, 7, 100, 1000, -100]
    got = rope_decay_curve(r, width=128)
    ref = [float(v) for v in rope_decay_curve_mp(r, width=128, dps=30)]
    np.testing.assert_allclose(got, ref, rtol=1e-12)
    assert got[0] == (64 + 1) / 2
    assert got[3] == got[5]  # |S_j| is even in the distance
    assert got[4] < got[3] < got[0]


def test_decay_bound_shape():
    assert rope_decay_curve(np.arange(6).reshape(2, 3), width=8).shape == (2, 3)
    assert rope_decay_curve(3.0, width=8).shape == ()  # a scalar distance keeps its (empty) shape


# ---- bad input -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: rope(np.ones((2, 3)), [0, 1]), "vectors"),
        (lambda: rope(np.ones((2, 4)), [0, 1, 2]), "positions"),
        (lambda: rope(np.ones((2, 4)), [0, np.nan]), "positions"),
        (lambda: rope(np.array([[1.0, np.inf]]), [0]), "vectors"),
        (lambda: rope(np.ones((2, 4)), [0, 1], layout="rotate-half"), "layout"),
        (lambda: rope(np.ones((2, 4)), [0, 1], base=1.0), "base"),
        (lambda: rope(np.ones(4), [0]), "vectors"),
        (lambda: rope(np.ones((1, 4), dtype=complex), [0]), "vectors"),
        (lambda: rope_table([0, 1], width=5), "width"),
        (lambda: rope_table([0, 1], width=4).apply(np.ones((2, 6))), "width"),
        (lambda: rope_table([0, 1], width=4).apply(np.ones((3, 4))), "positions"),
        (lambda: rope_table([0, 1], width=4).apply(np.ones((2, 4)), out=np.empty((2, 4), np.float32)), "out"),
        (lambda: rope_mp([[1, 2, 3]], [0]), "width"),
        (lambda: rope_mp([[1, 2]], [0, 1]), "positions"),
        (lambda: rope_decay_curve([1], width=7), "width"),
        (lambda: layout_permutation(3), "width"),
        (lambda: interleaved_to_half_rows(np.ones((10, 2)), width=4), "width"),
        (lambda: interleaved_to_half_rows(np.ones((8, 2)), width=3), "width"),
        (lambda: interleaved_to_half_rows(np.ones((8, 2)), width=4, axis=2), "axis"),
        (lambda: rope(np.ones((2, 4)), [0, 1], inv_freq=[1.0], base=10.0), "inv_freq"),
        (lambda: rope(np.ones((2, 4)), [0, 1], inv_freq=[1.0, 0.1, 0.01]), "rotary_dim"),
        (lambda: rope(np.ones((2, 4)), [0, 1], inv_freq=[1.0, np.nan]), "inv_freq"),
        (lambda: rope(np.ones((2, 4)), [0, 1], rotary_dim=3), "rotary_dim"),
        (lambda: rope(np.ones((2, 4)), [0, 1], rotary_dim=6), "rotary_dim"),
        (lambda: rope(np.ones((2, 4)), [0, 1], attention_factor=0.0), "attention_factor"),
        (lambda: rope(np.ones((2, 4)), [0, 1], attention_factor=np.inf), "attention_factor"),
        (lambda: rope_mp([[1, 2]], [0], attention_factor=-1), "attention_factor"),
        (lambda: rope_mp([[1, 2], [3]], [0, 1]), "vectors"),
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


# ---- regressions for REFERENCES.md bug classes -----------------------------------------------------------------------


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
    exact = note_rope(np.ones((1, 64)), [m])
    np.testing.assert_allclose(got, exact, atol=2 * 2.0**-7)


# ---- no silent wrong answers -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_regression_half_layout_apply_in_place_out_aliases_input(dtype, layout):
    # rope_table(..., layout="half").apply(x, out=x) overwrote x before reading the swapped half:
    # [[1, 0, 0, 0]] at position 1 gave [[0.5403, 0, 0.4546, 0]] instead of [[0.5403, 0, 0.8415, 0]].
    x = np.array([[1.0, 0.0, 0.0, 0.0]], dtype=dtype)
    table = rope_table([1], width=4, layout=layout)
    expected = table.apply(x.copy())
    assert table.apply(x, out=x) is x
    np.testing.assert_allclose(x, expected, rtol=0, atol=1e-6)
    if layout == "half":
        np.testing.assert_allclose(x, [[np.cos(1), 0, np.sin(1), 0]], atol=1e-6)


@pytest.mark.parametrize("layout", ["half", "interleaved"])
@pytest.mark.parametrize("rotary_dim", [None, 4])
def test_regression_partly_overlapping_out_reads_the_input_first(layout, rotary_dim):
    rng = np.random.default_rng(6)
    buf = rng.standard_normal((12, 8))
    x, out = buf[:10], buf[2:]  # out starts two rows later in the same memory
    expected = rope(x.copy(), np.arange(10), layout=layout, rotary_dim=rotary_dim)
    rope_table(np.arange(10), width=8, layout=layout, rotary_dim=rotary_dim).apply(x, out=out)
    np.testing.assert_array_equal(out, expected)


@given(S.overlapping_out(), S.rope_layouts)
@settings(max_examples=60, deadline=None)
def test_property_out_may_alias_or_overlap_the_input(case, layout):
    x, pos, shift = case
    tokens, width = x.shape
    expected = rope(x, pos, layout=layout)
    buf = np.zeros((tokens + abs(shift), width))
    src = buf[max(0, -shift) : max(0, -shift) + tokens]
    dst = buf[max(0, shift) : max(0, shift) + tokens]
    src[...] = x
    rope_table(pos, width=width, layout=layout).apply(src, out=dst)
    np.testing.assert_array_equal(dst, expected)


def test_regression_hf_position_ids_batch_heads_axes():
    # position_ids (B, N) with vectors (B, H, N, D) were matched to the trailing axes (H, N): applied per head when
    # B == H, an unhelpful error when B != H, and the broadcastable (B, 1, N) was refused.
    rng = np.random.default_rng(7)
    B, H, N, D = 2, 2, 3, 8
    x = rng.standard_normal((B, H, N, D))
    position_ids = np.array([[0, 1, 2], [40, 41, 42]])  # a KV-cache offset for the second batch item
    with pytest.raises(ValueError, match=r"ambiguous.*position_ids\[:, None, :\]"):
        rope(x, position_ids)
    with pytest.raises(ValueError, match=r"ambiguous"):
        rope(rng.standard_normal((2, 3, N, D)), position_ids)  # B != H
    got = rope(x, position_ids[:, None, :])
    for b in range(B):
        for h in range(H):
            np.testing.assert_allclose(got[b, h], note_rope(x[b, h], position_ids[b]), atol=tolerances.FLOAT64_ATOL)
    table = rope_table(position_ids[:, None, :], width=D, layout="half")
    np.testing.assert_array_equal(table.apply(x), rope(x, position_ids[:, None, :], layout="half"))
    # vectors (B, N, H, D) (flash-attention layout): the heads axis is the row axis after tokens
    xt = x.transpose(0, 2, 1, 3).copy()
    np.testing.assert_allclose(rope(xt, position_ids[:, :, None]).transpose(0, 2, 1, 3), got, rtol=0, atol=1e-15)


@given(S.batched_rope_inputs(), S.rope_layouts)
@settings(max_examples=60, deadline=None)
def test_property_positions_broadcast_against_batch_and_head_axes(case, layout):
    x, positions, per_row = case
    got = rope(x, positions, layout=layout)
    B, H, N, _ = x.shape
    for b in range(B):
        for h in range(H):
            np.testing.assert_array_equal(got[b, h], rope(x[b, h], per_row[b, h], layout=layout))


@pytest.mark.parametrize(
    "shape, fits", [((5,), True), ((1,), False), ((2, 3, 5), True), ((2, 1, 5), True), ((1, 3, 1), True),
                    ((3, 5), False), ((2, 5), False), ((4,), False), ((2, 3, 4), False), ((1, 2, 3, 5), False)]
)  # fmt: skip
def test_position_shape_rule(shape, fits):
    x = np.ones((2, 3, 5, 4))
    pos = np.zeros(shape)
    if fits:
        assert rope(x, pos).shape == x.shape
    else:
        with pytest.raises(ValueError, match="positions of shape"):
            rope(x, pos)


@pytest.mark.parametrize("positions", [["0", "1"], [True, False], np.array([1j, 2j]), [None, 1]])
def test_regression_string_and_boolean_positions_rejected(positions):
    with pytest.raises(ValueError, match="positions must be"):
        rope(np.ones((2, 4)), positions)
    with pytest.raises(ValueError, match="positions must be"):
        rope_table(positions, width=4)


def test_regression_positions_beyond_exact_float64_integers_rejected():
    with pytest.raises(ValueError, match=r"positions must lie in \[-2\*\*53, 2\*\*53\]"):
        rope(np.ones((1, 4)), np.array([2**62]))
    rope(np.ones((1, 4)), np.array([2**53]))  # the bound itself is exact


@pytest.mark.parametrize("value", [1e300, -1e300, 2.0**53 + 2, -(2.0**54)])
def test_regression_float_positions_beyond_2_53_refused_like_integers(value):
    for call in (lambda p: rope(np.ones((1, 4)), p), lambda p: rope_table(p, width=4)):
        with pytest.raises(ValueError, match=r"positions must lie in \[-2\*\*53, 2\*\*53\]"):
            call(np.array([value]))
    rope(np.ones((3, 4)), np.array([2.0**53, -(2.0**53), 0.5]))  # the bounds themselves are exact


def test_regression_inv_freq_of_the_wrong_length_raises_naming_inv_freq():
    for short_or_long in ([1.0, 0.1], [1.0, 0.1, 0.01, 0.001, 1e-4]):
        with pytest.raises(ValueError, match=r"inv_freq must hold width/2 = 4 inverse frequencies"):
            rope(np.ones((1, 8)), [1], inv_freq=short_or_long)
        with pytest.raises(ValueError, match=r"inv_freq must hold width/2 = 4"):
            rope_table([1], width=8, inv_freq=short_or_long)
        with pytest.raises(ValueError, match=r"inv_freq must hold width/2 = 4"):
            rope_mp([[1.0] * 8], [1], inv_freq=short_or_long, dps=20)
    # a partial rotary is still one keyword away, and matches the base it came from
    got = rope(np.ones((1, 8)), [3], inv_freq=[1.0, 0.01], rotary_dim=4)
    assert np.allclose(got, rope(np.ones((1, 8)), [3], base=10000.0, rotary_dim=4), atol=1e-15)


def test_regression_apply_out_list_is_a_value_error():
    with pytest.raises(ValueError, match="out must be a NumPy array"):
        rope_table([0], width=4).apply(np.ones((1, 4)), out=[[0.0] * 4])
    with pytest.raises(ValueError, match="out must be writable"):
        ro = np.empty((1, 4))
        ro.flags.writeable = False
        rope_table([0], width=4).apply(np.ones((1, 4)), out=ro)


def test_regression_big_endian_float64_accepted():
    x = np.arange(8.0).reshape(2, 4)
    big = x.astype(">f8")
    np.testing.assert_array_equal(rope(big, [3, 7]), rope(x, [3, 7]))
    out = np.empty((2, 4), dtype=">f8")  # a big-endian out is filled too
    rope_table([3, 7], width=4).apply(x, out=out)
    np.testing.assert_array_equal(out, rope(x, [3, 7]))


def test_regression_integer_vectors_give_float64_as_documented():
    assert rope(np.ones((1, 4), dtype=np.int32), [1]).dtype == np.float64
    assert "integer inputs give float64" in " ".join(rope.__doc__.split())


def test_strided_and_non_contiguous_inputs_and_outputs():
    rng = np.random.default_rng(8)
    x = rng.standard_normal((6, 16))[:, ::2]  # (6, 8) non-contiguous
    expected = rope(x.copy(), np.arange(6), layout="half")
    np.testing.assert_array_equal(rope(x, np.arange(6), layout="half"), expected)
    out = np.empty((6, 16))[:, 1::2]
    rope_table(np.arange(6), width=8, layout="half").apply(x, out=out)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("alias, canonical", [("rotate_half", "half"), ("neox", "half"), ("gptj", "interleaved")])
def test_layout_aliases(alias, canonical):
    x = np.random.default_rng(9).standard_normal((3, 8))
    np.testing.assert_array_equal(rope(x, [1, 2, 3], layout=alias), rope(x, [1, 2, 3], layout=canonical))
    assert rope_table([0], width=8, layout=alias).layout == canonical


def test_old_names_rope_theta_and_head_dim_warn_and_mean_base_and_width():
    x = np.random.default_rng(10).standard_normal((3, 8))
    with pytest.warns(DeprecationWarning, match="rope_theta= is deprecated, use base="):
        np.testing.assert_array_equal(rope(x, [1, 2, 3], rope_theta=500000.0), rope(x, [1, 2, 3], base=500000.0))
    with pytest.warns(DeprecationWarning, match="head_dim= is deprecated, use width="):
        with pytest.warns(DeprecationWarning, match="rope_theta= is deprecated, use base="):
            t = rope_table([1, 2, 3], head_dim=8, rope_theta=500000.0)
    assert t.width == 8 and t.base == 500000.0
    with pytest.raises(ValueError, match="give only one of base, rope_theta"), pytest.warns(DeprecationWarning):
        rope(np.ones((2, 4)), [0, 1], base=100.0, rope_theta=100.0)
    with pytest.raises(ValueError, match="give only one of width, head_dim"), pytest.warns(DeprecationWarning):
        rope_table([0, 1], width=4, head_dim=4)
    np.testing.assert_array_equal(t.apply(x), rope(x, [1, 2, 3], base=500000.0))


def test_regression_gqa_key_permutation_needs_head_dim_not_head_count():
    # interleaved_to_half_rows(Wk, heads=4) with 2 key-value heads inferred head_dim = 4 instead of 8 (score error
    # 105): the head width is now given explicitly and must divide the rows.
    wk = np.arange(2 * 8 * 3, dtype=float).reshape(16, 3)
    right = interleaved_to_half_rows(wk, width=8)
    assert not np.array_equal(interleaved_to_half_rows(wk, width=4), right)  # a wrong head width is another map
    np.testing.assert_array_equal(right[:8, 0], wk[layout_permutation(8), 0])
    with pytest.raises(TypeError):
        interleaved_to_half_rows(wk, 4)  # a bare number is no longer accepted: heads or head width?
    with pytest.raises(ValueError, match="multiple of width=8"):
        interleaved_to_half_rows(np.ones((3, 16)), width=8)  # (in, out) without axis=-1


# ---- explicit inverse frequencies, attention factor, partial rotary --------------------------------------------------


def _hf_style_rope(x, pos, inv_freq, attention_factor, layout):
    # An independent float64 formulation in the style of Hugging Face: x_rot * cos + rotate(x_rot) * sin.
    rd = 2 * len(inv_freq)
    x_rot, x_pass = x[..., :rd], x[..., rd:]
    freqs = np.asarray(pos, dtype=np.float64)[:, None] * inv_freq  # (tokens, rd/2)
    if layout == "half":
        emb = np.concatenate([freqs, freqs], axis=-1)
        h = rd // 2
        rotated = np.concatenate([-x_rot[..., h:], x_rot[..., :h]], axis=-1)
    else:
        emb = np.repeat(freqs, 2, axis=-1)
        rotated = np.stack([-x_rot[..., 1::2], x_rot[..., 0::2]], axis=-1).reshape(x_rot.shape)
    out = x_rot * (np.cos(emb) * attention_factor) + rotated * (np.sin(emb) * attention_factor)
    return np.concatenate([out, x_pass], axis=-1)


@given(S.rope_inputs(), S.rope_layouts, st.integers(1, 16), st.floats(0.5, 2.0), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_inv_freq_attention_factor_partial_rotary_match_independent_formula(inputs, layout, half, af, seed):
    x, pos = inputs
    width = x.shape[1]
    half = min(half, width // 2)
    inv_freq = np.random.default_rng(seed).uniform(1e-4, 1.0, half)
    ref = _hf_style_rope(x, pos, inv_freq, af, layout)
    got = rope(x, pos, layout=layout, inv_freq=inv_freq, attention_factor=af, rotary_dim=2 * half)
    scale = (np.abs(x).max() + 1.0) * af
    np.testing.assert_allclose(got, ref, rtol=0, atol=tolerances.FLOAT64_RTOL * scale)
    table = rope_table(pos, width=width, layout=layout, inv_freq=inv_freq, attention_factor=af, rotary_dim=2 * half)
    assert table.rotary_dim == 2 * half
    np.testing.assert_array_equal(table.apply(x), got)
    mp = _mp_array(rope_mp(x, pos, layout=layout, inv_freq=inv_freq, attention_factor=af, rotary_dim=2 * half, dps=30))
    np.testing.assert_allclose(got, mp, rtol=0, atol=tolerances.FLOAT64_RTOL * scale)


def test_partial_rotary_from_base_uses_the_rotary_width_and_passes_the_rest_through():
    rng = np.random.default_rng(11)
    x = rng.standard_normal((4, 12))
    for layout in ("interleaved", "half"):
        got = rope(x, [0, 5, 9, 300], layout=layout, rotary_dim=8)
        np.testing.assert_array_equal(got[:, 8:], x[:, 8:])
        theta = 10000.0 ** (-np.arange(0, 8, 2) / 8)  # frequencies over rotary_dim, not the width
        ref = _hf_style_rope(x, [0, 5, 9, 300], theta, 1.0, layout)
        np.testing.assert_allclose(got, ref, rtol=0, atol=tolerances.FLOAT64_ATOL)
        out = x.copy()
        rope_table([0, 5, 9, 300], width=12, layout=layout, rotary_dim=8).apply(out, out=out)
        np.testing.assert_array_equal(out, got)


def test_attention_factor_scales_the_rotation():
    x = np.random.default_rng(12).standard_normal((3, 8)).astype(np.float32)
    np.testing.assert_allclose(
        rope(x, [1, 2, 3], attention_factor=1.5),
        1.5 * rope(x, [1, 2, 3]),
        rtol=0,
        atol=tolerances.ROPE_FLOAT32_RTOL * 8,
    )


# ---- clear errors everywhere: the mpmath reference handles arguments like its NumPy twin -----------------------------


def test_regression_rope_mp_argument_handling_matches_rope():
    rng = np.random.default_rng(13)
    x = rng.standard_normal((2, 3, 4))
    got = _mp_array(np.array(rope_mp(x, np.arange(3), dps=30)).reshape(-1, 4)).reshape(x.shape)
    np.testing.assert_allclose(got, rope(x, np.arange(3)), rtol=0, atol=tolerances.FLOAT64_ATOL)
    per_row = np.array([[1, 2, 3], [7, 8, 9]])
    got = _mp_array(np.array(rope_mp(x, per_row, layout="neox", dps=30)).reshape(-1, 4)).reshape(x.shape)
    np.testing.assert_allclose(got, rope(x, per_row, layout="half"), rtol=0, atol=tolerances.FLOAT64_ATOL)
    for bad, match in [
        (lambda: rope_mp(np.ones(4), [0]), "vectors must have shape"),
        (lambda: rope_mp(np.ones((1, 4)), 0), "positions must have shape"),
        (lambda: rope_mp(np.ones((2, 3, 4)), np.zeros((3, 3))), "positions of shape"),
        (lambda: rope_mp(np.ones((1, 4)), [np.nan]), "finite"),
        (lambda: rope_mp(np.ones((1, 4)), [True]), "real number"),
    ]:
        with pytest.raises(ValueError, match=match):
            bad()
    with pytest.raises(ValueError, match="vectors must have shape"):
        rope(np.ones(4), [0])  # the twin says the same


def test_rope_mp_numpy_scalars_and_strings():
    r = rope_mp([[np.float32(1.0), "0"]], [np.int64(1)], dps=30)
    with mpmath.workdps(30):
        assert abs(r[0][0] - mpmath.cos(1)) < mpmath.mpf(10) ** -28


def test_regression_rope_decay_curve_mp_scalar_distance():
    v = rope_decay_curve_mp(5, width=128)
    assert isinstance(v, mpmath.mpf)
    assert float(v) == pytest.approx(float(rope_decay_curve(5, width=128)), rel=1e-12)
    assert len(rope_decay_curve_mp(np.arange(3), width=8)) == 3


def test_rope_mp_without_gmpy2_agrees(monkeypatch):
    from posproof.numeric import _mp

    x = np.random.default_rng(14).standard_normal((3, 8))
    fast = rope_mp(x, [1, 200, 70000], layout="half", attention_factor="1.25", dps=40)
    monkeypatch.setattr(_mp, "USE_GMPY2", False)
    slow = rope_mp(x, [1, 200, 70000], layout="half", attention_factor="1.25", dps=40)
    for a, b in zip(np.ravel(fast), np.ravel(slow), strict=True):
        assert abs(a - b) <= mpmath.mpf(10) ** -38


# ---- multi-axis: rope_mp(..., axes=), the twin of rope(..., axes=) ---------------------------------------------------


def _mp_rows(rows):
    return np.array([[float(v) for v in r] for r in np.array(rows, dtype=object).reshape(-1, np.shape(rows)[-1])])


@pytest.mark.parametrize("layout", ["half", "interleaved"])
@pytest.mark.parametrize(
    ("axes", "n_axes", "kwargs"),
    [
        ([0, 0, 1, 1, 1, 2, 2, 2], 3, {"base": 1e6}),  # Qwen2-VL's chunked sections [2, 3, 3]
        ([0, 1, 2, 0, 1, 2, 0, 0], 3, {"inv_freq": np.geomspace(1.0, 1e-4, 8), "attention_factor": 1.25}),
        ([0, 0, 1, 2], 3, {"rotary_dim": 8}),  # GLM-4V: partial M-RoPE, channels 8-15 pass through
        ([0, 0, 0, 0, 1, 1, 1, 1], 2, {}),  # axial 2-D's axis map
    ],
    ids=["chunked", "interleaved-inv-freq-factor", "partial", "axial"],
)
def test_rope_mp_with_axes_agrees_with_the_float64_kernel(layout, axes, n_axes, kwargs):
    rng = np.random.default_rng(20)
    x = rng.standard_normal((2, 3, 16))  # (batch, tokens, width)
    pos = rng.integers(-4000, 4000, (2, 3, n_axes))  # (batch, tokens, A)
    want = rope(x, pos, layout=layout, axes=axes, **kwargs)
    got = _mp_rows(rope_mp(x, pos, layout=layout, axes=axes, dps=30, **kwargs)).reshape(x.shape)
    assert np.max(np.abs(got - want)) <= tolerances.FLOAT64_RTOL * np.max(np.abs(got))
    # positions (tokens, A) are shared by the leading axes, as in rope
    shared = _mp_rows(rope_mp(x, pos[0], layout=layout, axes=axes, dps=30, **kwargs)).reshape(x.shape)
    assert np.max(np.abs(shared - rope(x, pos[0], layout=layout, axes=axes, **kwargs))) <= tolerances.FLOAT64_RTOL * 4


@pytest.mark.parametrize("layout", ["half", "interleaved"])
@pytest.mark.parametrize("rotary_dim", [None, 8])
def test_rope_mp_with_axes_agrees_with_rope_multiaxis_mp(layout, rotary_dim):
    from posproof.numeric.multiaxis import mrope_axes, rope_multiaxis_mp

    rng = np.random.default_rng(21)
    x, pos = rng.standard_normal((4, 16)), rng.integers(0, 4096, (4, 3))
    axes = mrope_axes([2, 1, 1] if rotary_dim else [3, 3, 2], interleaved=True)
    dps = 40
    got = rope_mp(x, pos, base=10**6, layout=layout, dps=dps, axes=axes, rotary_dim=rotary_dim)
    want = rope_multiaxis_mp(x, pos, axes=axes, base=10**6, layout=layout, dps=dps, rotary_dim=rotary_dim)
    with mpmath.workdps(dps):
        big = max(abs(v) for row in want for v in row)
        worst = max(abs(a - b) for ra, rb in zip(got, want, strict=True) for a, b in zip(ra, rb, strict=True))
        assert worst <= mpmath.mpf(10) ** -(dps - tolerances.MP_TWIN_DIGITS) * big


def test_rope_mp_with_one_axis_is_rope_mp():
    x = np.random.default_rng(22).standard_normal((3, 8))
    m = [1, 200, 70000]
    one_d = rope_mp(x, m, layout="half", attention_factor="1.25", dps=30)
    vectors = rope_mp(x, [[p] for p in m], layout="half", attention_factor="1.25", dps=30, axes=[0] * 4)
    assert vectors == one_d  # the same products, rounded the same way
    with mpmath.workdps(60):  # cos(pi/2) = 0 in the limit: at 60 digits the reference is that close
        exact = rope_mp([["1", "0"]], [["0", mpmath.pi / 2]], axes=[1], dps=60)[0]
        assert abs(exact[0]) < mpmath.mpf(10) ** -55 and abs(exact[1] - 1) < mpmath.mpf(10) ** -55


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"positions": [0, 1, 2], "axes": [0, 0]}, r"positions must have a trailing axis of length A"),
        ({"positions": [[0, 1]] * 3, "axes": [0, 1, 0]}, r"axes must give one axis per pair \(2 entries"),
        ({"positions": [[0, 1]] * 3, "axes": [0, 2]}, r"axes must be in \[0, 1\]"),
        ({"positions": [[0, 1]] * 3, "axes": [0.0, 1.0]}, r"axes must be a 1-D list of integer"),
        ({"positions": [[0, 1]] * 2, "axes": [0, 1]}, r"positions without their trailing axis .* do not fit"),
        ({"positions": [[0, np.inf]] * 3, "axes": [0, 1]}, r"positions must be finite"),
        ({"positions": [[0, 1]] * 3, "axes": [0, 1], "rotary_dim": 2}, r"axes must give one axis per pair \(1 entr"),
    ],
)
def test_rope_mp_with_bad_axes_names_the_argument_as_rope_does(kwargs, message):
    for fn in (rope, rope_mp):
        with pytest.raises(ValueError, match=message):
            fn(np.ones((3, 4)), **kwargs)


def test_rope_mp_with_axes_without_gmpy2_agrees(monkeypatch):
    from posproof.numeric import _mp

    x, pos = np.random.default_rng(23).standard_normal((3, 8)), [[1, 2, 3], [200, 5, 0], [70000, 1, 1]]
    fast = rope_mp(x, pos, layout="half", attention_factor="1.25", dps=40, axes=[0, 1, 2, 0])
    monkeypatch.setattr(_mp, "USE_GMPY2", False)
    slow = rope_mp(x, pos, layout="half", attention_factor="1.25", dps=40, axes=[0, 1, 2, 0])
    for a, b in zip(np.ravel(fast), np.ravel(slow), strict=True):
        assert abs(a - b) <= mpmath.mpf(10) ** -(40 - tolerances.MP_TWIN_DIGITS) * 2
