r"""Transformer-XL: the relative-shift trick against the direct O(L^2) gather, with and without memory."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from posproof.numeric.transformer_xl import (
    causal_mask,
    rel_shift,
    rel_shift_garbage,
    txl_relative_embeddings,
    txl_scores_direct,
    txl_scores_shift,
)

from tests import strategies as S


def _inputs(qlen, mlen, d=3, d_model=6, seed=0):
    rng = np.random.default_rng(seed)
    q, k = rng.normal(size=(qlen, d)), rng.normal(size=(qlen + mlen, d))
    return q, k, rng.normal(size=(d, d_model)), rng.normal(size=d), rng.normal(size=d)


@settings(max_examples=40, deadline=None)
@given(S.txl_lengths, st.integers(0, 2**31))
def test_shift_equals_direct_on_and_below_the_causal_diagonal(lengths, seed):
    qlen, mlen = lengths
    args = _inputs(qlen, mlen, seed=seed)
    M = causal_mask(qlen, mlen=mlen)
    np.testing.assert_allclose(txl_scores_shift(*args)[M], txl_scores_direct(*args)[M], rtol=1e-12, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(S.txl_lengths)
def test_above_the_diagonal_is_the_predicted_garbage(lengths):
    qlen, mlen = lengths
    q, k, W, u, v = _inputs(qlen, mlen)
    raw = (q + v) @ (txl_relative_embeddings(np.arange(qlen + mlen - 1, -1, -1), width=W.shape[1]) @ W.T).T
    shifted, garbage = rel_shift(raw), rel_shift_garbage(raw)
    above = ~causal_mask(qlen, mlen=mlen)
    np.testing.assert_array_equal(shifted[above], garbage[above])
    assert np.all(np.isnan(garbage[~above]))


def test_direct_uses_the_query_absolute_position_with_memory():
    q, k, W, u, v = _inputs(3, 2)
    A = txl_scores_direct(q, k, W, u, v)
    R = txl_relative_embeddings([1 + 2 - 0], width=6)[0]  # query 1 sits at 1 + mlen = 3; key 0: distance 3
    assert A[1, 0] == pytest.approx((q[1] + u) @ k[0] + (q[1] + v) @ (W @ R), rel=1e-12)


def test_relative_embedding_is_sin_cos_halves():
    R = txl_relative_embeddings([2], width=4, base=100.0)[0]
    th = np.array([1.0, 100.0**-0.5])
    np.testing.assert_allclose(R, np.concatenate([np.sin(2 * th), np.cos(2 * th)]), rtol=1e-15)


def _shift_drop_last_row(x):  # off-by-one port: keeps rows 0..klen-1 of the padded view
    qlen, klen = x.shape
    padded = np.concatenate([np.zeros((qlen, 1)), x], axis=1).reshape(klen + 1, qlen)
    return padded[:-1].reshape(qlen, klen)


def _shift_drop_pad_column(x):  # a port seen in the wild: drops the pad again, so nothing is shifted
    qlen, klen = x.shape
    return np.concatenate([np.zeros((qlen, 1)), x], axis=1)[:, 1:]


@pytest.mark.parametrize("bad_shift", [_shift_drop_last_row, _shift_drop_pad_column])
def test_regression_shift_off_by_one(bad_shift):
    qlen, mlen = 4, 2
    q, k, W, u, v = _inputs(qlen, mlen)
    r = txl_relative_embeddings(np.arange(qlen + mlen - 1, -1, -1), width=W.shape[1]) @ W.T
    wrong = (q + u) @ k.T + bad_shift((q + v) @ r.T)
    M = causal_mask(qlen, mlen=mlen)
    assert not np.allclose(wrong[M], txl_scores_direct(q, k, W, u, v)[M])


def test_rel_shift_labels():
    x = np.arange(1, 13).reshape(3, 4)  # qlen 3, klen 4, mlen 1
    out = rel_shift(x)
    assert out.tolist() == [[3, 4, 0, 5], [6, 7, 8, 0], [9, 10, 11, 12]]  # 5: row 1 leaks into row 0
    assert out[2].tolist() == [9, 10, 11, 12]  # the last row is the unshifted last row: all visible
    assert out[0, 2] == 0  # the pad lands just above the diagonal


def test_causal_mask():
    assert causal_mask(2, mlen=1).tolist() == [[True, True, False], [True, True, True]]


def test_bad_arguments():
    q, k, W, u, v = _inputs(3, 0)
    with pytest.raises(ValueError, match="klen >= qlen"):
        txl_scores_direct(q, k[:2], W, u, v)
    with pytest.raises(ValueError, match="d_model"):
        txl_scores_shift(q, k, W[:, :5], u, v)
    with pytest.raises(ValueError, match="mlen must be an integer >= 0"):
        causal_mask(3, mlen=-1)
    with pytest.raises(ValueError, match="qlen must be an integer >= 1"):
        causal_mask(0)
    with pytest.raises(ValueError, match="x must have at least 2 axes"):
        rel_shift(np.zeros(3))


# ---- axes of rel_shift, klen >= qlen, NaN ----------------------------------------------------------------------------


def test_regression_rel_shift_shifts_the_last_two_axes_by_default():
    # on (batch, heads, q, k) scores it shifted axes 0 and 1 (the original (qlen, klen, ...) layout)
    rng = np.random.default_rng(3)
    scores = rng.normal(size=(2, 3, 4, 6))  # (batch, heads, qlen, klen)
    got = rel_shift(scores)
    for b in range(2):
        for h in range(3):
            np.testing.assert_array_equal(got[b, h], rel_shift(scores[b, h]))
    # the original layout (qlen, klen, batch, heads) by naming the axes
    orig = scores.transpose(2, 3, 0, 1)
    np.testing.assert_array_equal(rel_shift(orig, axes=(0, 1)), got.transpose(2, 3, 0, 1))
    np.testing.assert_array_equal(
        rel_shift_garbage(orig, axes=(0, 1)).transpose(2, 3, 0, 1)[0, 0], rel_shift_garbage(scores[0, 0])
    )


def test_regression_rel_shift_refuses_klen_below_qlen():
    with pytest.raises(ValueError, match="klen >= qlen"):
        rel_shift(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="axes must be two different axes"):
        rel_shift(np.zeros((4, 5)), axes=(1, 1))
    with pytest.raises(ValueError, match="axes must be two different axes"):
        rel_shift(np.zeros((4, 5)), axes=(0, 2))


def test_regression_nan_inputs_to_scores_refused():
    q, k, W, u, v = _inputs(3, 1)
    for i, name in enumerate(("q", "k", "W_kR", "u", "v")):
        args = [q, k, W, u, v]
        bad = args[i].copy()
        bad.flat[0] = np.nan
        args[i] = bad
        for scores in (txl_scores_direct, txl_scores_shift):
            with pytest.raises(ValueError, match=f"{name} must be finite"):
                scores(*args)
