r"""CoPE kernels: against their mpmath twins, the conventions of the official code (both ends of the sum included,
the clamp at ``npos_max - 1``, the logits added after or before the division), a reimplementation of the official
torch operations (when torch is installed), and bad arguments."""

import math

import mpmath
import numpy as np
import pytest
from posproof.numeric.cope import (
    cope_gates,
    cope_gates_mp,
    cope_interpolate,
    cope_interpolate_mp,
    cope_positions,
    cope_positions_mp,
    cope_scores,
    cope_scores_mp,
    golden_vectors_cope,
)

#: float64 against mpmath: sums of at most a few dozen terms of size O(10), so a few ulps times the terms' size.
RTOL, ATOL = 1e-13, 1e-13

RNG = np.random.default_rng(20240528)
Q, K = RNG.standard_normal((7, 4)), RNG.standard_normal((7, 4))
TABLE = RNG.standard_normal((5, 4))  # npos_max = 5: the far positions of 7 tokens clamp


def _f(rows) -> np.ndarray:
    return np.array([[float(x) for x in r] for r in rows])


def test_gates_and_positions_agree_with_mpmath():
    np.testing.assert_allclose(cope_gates(Q, K), _f(cope_gates_mp(Q.tolist(), K.tolist(), dps=30)), rtol=RTOL)
    for npos in (None, 1, 3, 5, 100):
        got = cope_positions(Q, K, npos_max=npos)
        want = _f(cope_positions_mp(Q.tolist(), K.tolist(), npos_max=npos, dps=30))
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)


def test_interpolation_agrees_with_mpmath():
    p = np.array([0.0, 0.25, 1.0, 2.5, 3.999, 4.0])
    got = cope_interpolate(p, TABLE)
    want = _f(cope_interpolate_mp(p.tolist(), TABLE.tolist(), dps=30))
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)
    assert cope_interpolate(np.ones((2, 3)), TABLE).shape == (2, 3, 4)


@pytest.mark.parametrize("divide", [False, True])
def test_scores_agree_with_mpmath(divide):
    got = cope_scores(Q, K, TABLE, divide_positions=divide)
    want = _f(cope_scores_mp(Q.tolist(), K.tolist(), TABLE.tolist(), divide_positions=divide, dps=30))
    assert np.array_equal(np.isinf(got), np.isinf(want)) and np.all(np.isneginf(got[np.triu_indices(7, 1)]))
    finite = np.isfinite(got)
    np.testing.assert_allclose(got[finite], want[finite], rtol=RTOL, atol=ATOL)


def test_the_sum_includes_both_ends_and_the_upper_triangle_is_zero():
    g = cope_gates(Q, K)
    p = cope_positions(Q, K)
    for i in range(7):
        for j in range(7):
            assert p[i, j] == pytest.approx(g[i, j : i + 1].sum() if j <= i else 0.0, abs=1e-15)
    assert np.allclose(np.diag(p), np.diag(g))  # the key itself counts: p_ii = g_ii
    assert np.all((np.diag(p) > 0) & (np.diag(p) < 1))


def test_saturated_gates_count_keys_and_the_clamp():
    L = 6
    q = np.full((L, 1), 10.0)
    k = np.full((L, 1), 10.0)  # logits 100: every gate rounds to 1 in float64
    i, j = np.indices((L, L))
    assert np.array_equal(cope_positions(q, k), np.where(j <= i, i - j + 1, 0).astype(float))
    assert np.array_equal(cope_positions(q, k, npos_max=4), np.minimum(np.where(j <= i, i - j + 1, 0), 3))


def test_positions_decrease_in_the_key_and_lie_below_the_count():
    p = cope_positions(Q, K)
    for i in range(7):
        row = p[i, : i + 1]
        assert np.all(np.diff(row) < 0)  # strictly decreasing in j
        assert np.all((row > 0) & (row <= np.arange(i + 1, 0, -1)))


def test_scores_paper_and_ram_conventions():
    a = Q @ K.T / 2.0  # sqrt(d) = 2
    z = cope_scores(Q, K, TABLE) - a
    lo = np.tril_indices(7)
    divided = cope_scores(Q, K, TABLE, divide_positions=True)
    np.testing.assert_allclose(divided[lo], (a + z / 2.0)[lo], rtol=1e-12, atol=1e-12)
    # z is q_i . e[p_ij], the interpolated embedding
    p = cope_positions(Q, K, npos_max=5)
    e = cope_interpolate(np.where(np.tril(np.ones((7, 7))) > 0, p, 0.0), TABLE)
    np.testing.assert_allclose(z[lo], np.einsum("id,ijd->ij", Q, e)[lo], rtol=1e-12, atol=1e-12)


def test_doctest_like_values():
    q, k = np.zeros((3, 1)), np.array([[1.0], [2.0], [3.0]])
    assert cope_positions(q, k).tolist() == [[0.5, 0.0, 0.0], [1.0, 0.5, 0.0], [1.5, 1.0, 0.5]]
    assert cope_interpolate([0.25, 1.5], [[0.0], [4.0], [8.0]]).tolist() == [[1.0], [6.0]]
    s = cope_scores_mp([[0], [0]], [[1], [1]], [[1], [3]], dps=20)
    assert s[0][1] == mpmath.ninf and s[1][0] == 0  # q = 0: every logit 0


def test_golden_vectors_shape():
    doc = golden_vectors_cope(dps=30, digits=12)
    assert doc["scheme"] == "cope" and len(doc["cases"]) == 2
    case = doc["cases"][1]  # zero queries: every gate 1/2
    assert case["positions"][3][0] == "2.00000000000" and case["scores"][0][1] == "-inf"


def _official_reference(q, k, table, divide: bool):
    r"""The official operations step by step, in torch float64 (paper appendix ``CoPE.forward`` and ``SelfAttn``;
    RAM ``ContextPosSelfAttn.forward`` for ``divide``), written here from their description: pos_emb is the
    ``(1, d, npos)`` parameter, the gates are multiplied by the mask, the logits gathered and interpolated."""
    torch = pytest.importorskip("torch", reason="the torch reference needs torch")
    qt, kt = torch.tensor(q)[None], torch.tensor(k)[None]  # B = 1
    pos_emb = torch.tensor(table).T[None]  # 1 x d x npos
    L, d = q.shape
    npos = table.shape[0]
    mask = torch.tril(torch.ones(L, L, dtype=torch.float64))[None]
    logits = torch.bmm(qt, kt.transpose(-1, -2))
    gates = torch.sigmoid(logits / math.sqrt(d)) * mask
    pos = gates.flip(-1).cumsum(dim=-1).flip(-1).clamp(max=npos - 1)
    fixed = torch.matmul(qt, pos_emb)
    ceil, floor = pos.ceil().long(), pos.floor().long()
    w = pos - floor
    z = fixed.gather(-1, ceil) * w + fixed.gather(-1, floor) * (1 - w)
    s = (logits + z) / math.sqrt(d) if divide else logits / math.sqrt(d) + z
    s = s + mask.log()
    return s[0].numpy()


@pytest.mark.parametrize("divide", [False, True])
def test_against_the_official_torch_operations(divide):
    want = _official_reference(Q, K, TABLE, divide)
    got = cope_scores(Q, K, TABLE, divide_positions=divide)
    assert np.array_equal(np.isneginf(got), np.isneginf(want))
    finite = np.isfinite(got)
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: cope_gates(np.ones(3), np.ones(3)), "q"),
        (lambda: cope_gates(np.ones((3, 2)), np.ones((3, 3))), "k"),
        (lambda: cope_gates(np.ones((0, 2)), np.ones((0, 2))), "q"),
        (lambda: cope_gates([[np.nan]], [[1.0]]), "q"),
        (lambda: cope_positions(Q, K, npos_max=0), "npos_max"),
        (lambda: cope_positions(Q, K, npos_max=2.5), "npos_max"),
        (lambda: cope_interpolate([-0.5], TABLE), "positions"),
        (lambda: cope_interpolate([4.5], TABLE), "positions"),
        (lambda: cope_interpolate([1.0], np.ones(3)), "table"),
        (lambda: cope_scores(Q, K, np.ones((5, 3))), "table"),
        (lambda: cope_scores(Q, K, TABLE, divide_positions=1), "divide_positions"),
        (lambda: cope_gates_mp([[1, 2], [3]], [[1, 2], [3, 4]]), "q"),
        (lambda: cope_gates_mp([[1]], [["x"]]), "k"),
        (lambda: cope_gates_mp([[1]], [[1]], dps=3), "dps"),
        (lambda: cope_positions_mp([[1]], [[1]], npos_max=0), "npos_max"),
        (lambda: cope_interpolate_mp([3.5], [[0], [1]]), "positions"),
        (lambda: cope_scores_mp([[1]], [[1]], [[1, 2]]), "table"),
    ],
)
def test_bad_arguments_name_themselves(call, name):
    with pytest.raises(ValueError, match=name):
        call()
