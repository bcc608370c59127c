r"""Prove what is computed: the results that were stated or computed for a few sizes are proved
for every size, through named lemmas (symbolic/lemmas.py) and the engine pieces they need (a finite ``Maximum``,
re-indexing by a ``PermutationMap``, squaring both sides, splitting a sum's last term, citing a lemma inside a
context). Each piece is tested on what it must refuse as much as on what it proves."""

import pytest
import sympy as sp
from posproof.symbolic import Step, Theorem
from posproof.symbolic.engine.core import Domain
from posproof.symbolic.engine.maximum import Maximum
from posproof.symbolic.engine.permutation import PermutationMap
from posproof.symbolic.engine.strategies import STRATEGIES, alpha, bind, nonnegative, reduce_difference
from posproof.symbolic.lemmas import SOFTMAX_PERMUTATION, TRIANGLE_COMPLEX

from posproof import get

N = sp.Symbol("N", integer=True, nonnegative=True)
n = sp.Symbol("n", integer=True, positive=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
j = sp.Symbol("j", integer=True, nonnegative=True)
k = sp.Symbol("k", integer=True, nonnegative=True)
z = sp.IndexedBase("z", complex=True)
h = sp.IndexedBase("h", complex=True)
x = sp.IndexedBase("x", real=True)


# ---- the three results, proved for every size ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "claim_id",
    ["order-permutation-equivariance", "rope-decay-bound", "extension-pi-second-derivative-bound"],
)
def test_the_result_is_proved_for_every_size_and_its_mistake_rejected(claim_id):
    claim = get(claim_id)
    res = claim.verify()
    assert res.ok and res.symbolic and res.numeric == "agree", res.as_dict()
    sizes = [s for s in claim.sizes if not s.is_number]
    assert sizes, "the claim is over a symbolic size"
    wrong = claim.wrong_variant().verify()
    assert not wrong.ok and not wrong.symbolic


def test_the_titles_say_what_is_proved():
    assert "every permutation" in get("order-permutation-equivariance").title
    assert "every even $d$" in get("rope-decay-bound").title
    assert "every even $d$" in get("extension-pi-second-derivative-bound").title
    assert "9 of 36" in get("rope-decay-curve-not-a-bound").title


def test_the_proofs_cite_the_lemmas():
    cited = {
        claim_id: {st.cites.lemma.name for st in get(claim_id).steps if st.cites is not None}
        for claim_id in ("order-permutation-equivariance", "rope-decay-bound", "extension-pi-second-derivative-bound")
    }
    assert cited["order-permutation-equivariance"] == {"softmax permutation equivariance"}
    assert cited["rope-decay-bound"] == {"Abel summation", "triangle inequality for finite complex sums"}
    assert cited["extension-pi-second-derivative-bound"] == {"triangle inequality for finite complex sums"}


# ---- the lemmas ------------------------------------------------------------------------------------------------------


def test_the_complex_triangle_inequality_is_proved_for_every_n_and_a_reversed_bound_is_not():
    assert TRIANGLE_COMPLEX.proved
    lhs, rhs = sp.Abs(sp.Sum(z[i], (i, 0, N - 1))), sp.Sum(sp.Abs(z[i]), (i, 0, N - 1))
    reversed_ = Step(rhs, lhs, "backwards", ("square_sides", "square_sums", "combine_sums"), "<=")
    assert not reversed_.check_symbolic()


def test_regression_the_complex_triangle_needs_the_modulus_not_the_real_part():
    lhs = sp.Abs(sp.Sum(z[i], (i, 0, N - 1)))
    rhs = sp.Sum(sp.re(z[i]), (i, 0, N - 1))  # false: z = i gives |i| = 1 > 0
    step = Step(lhs, rhs, "wrong", ("square_sides", "square_sums", "combine_sums"), "<=")
    assert not step.check_symbolic()


def test_the_softmax_lemma_is_proved_for_every_n():
    assert SOFTMAX_PERMUTATION.proved
    res = SOFTMAX_PERMUTATION.theorem.verify()
    assert res.ok and res.symbolic


def test_a_context_is_refused_for_an_inequality_lemma():
    with pytest.raises(ValueError, match="context"):
        TRIANGLE_COMPLEX.cite({"N": N, "z": sp.Lambda(i, z[i])}, context=lambda e: 2 * e)


def test_regression_a_context_citation_needs_the_context_on_both_sides():
    s = sp.IndexedBase("s", real=True)
    v = sp.IndexedBase("v", real=True)
    mapping = {"n": n, "s": sp.Lambda((j, k), s[j, k]), "i": i, "j": j}
    w = sp.Dummy("w")
    step = SOFTMAX_PERMUTATION.cite(mapping, "inside a sum", context=sp.Lambda(w, sp.Sum(w * v[j], (j, 0, n - 1))))
    assert step.check_symbolic()
    lhs, rhs, _ = SOFTMAX_PERMUTATION.instance(mapping)
    bad = Step(sp.Sum(lhs * v[j], (j, 0, n - 1)), sp.Sum(rhs * v[j] * 2, (j, 0, n - 1)), "x", cites=step.cites)
    assert not bad.check_symbolic()


def test_regression_beside_adds_the_same_term_to_both_sides_only():
    c = sp.Symbol("c", real=True)
    good = TRIANGLE_COMPLEX.cite({"N": N, "z": sp.Lambda(i, z[i])}, beside=c)
    assert good.check_symbolic()
    lhs, rhs, _ = TRIANGLE_COMPLEX.instance({"N": N, "z": sp.Lambda(i, z[i])})
    bad = Step(c + lhs, 2 * c + rhs, "not the same term", rel="<=", cites=good.cites)
    assert not bad.check_symbolic()
    one_side = Step(c + lhs, rhs, "the term on one side only", rel="<=", cites=good.cites)
    assert not one_side.check_symbolic()


# ---- Maximum ---------------------------------------------------------------------------------------------------------


def test_a_term_is_at_most_the_maximum_over_a_range_that_contains_it():
    M = Maximum(sp.Abs(h[k]), (k, 0, n - 1))
    inside = bind(sp.Sum(x[i] ** 2 * (M - sp.Abs(h[i])), (i, 0, n - 1)))
    assert nonnegative(inside)


def test_regression_a_term_outside_the_maximums_range_is_not_bounded_by_it():
    M = Maximum(sp.Abs(h[k]), (k, 0, n - 1))
    shifted = bind(sp.Sum(M - sp.Abs(h[i + 1]), (i, 0, n - 1)))  # h_n is outside 0 .. n - 1
    assert not nonnegative(shifted)
    alone = M - sp.Abs(h[n])  # a free index: not proved in range
    assert not nonnegative(alone)


def test_regression_a_maximum_over_an_empty_range_is_refused_on_both_lines():
    m_ = sp.Symbol("m", integer=True, nonnegative=True)
    with pytest.raises(ValueError, match="nonempty"):
        bind(Maximum(x[k], (k, 1, m_)))  # m = 0: no term
    with pytest.raises(ValueError, match="empty"):
        Maximum(x[k], (k, 3, 2)).doit()


def test_a_maximum_is_evaluated_term_by_term():
    assert Maximum(sp.Abs(2 - k), (k, 0, 3)).doit() == 2
    M = Maximum(sp.Abs(h[k + 1] - h[k]), (k, 0, n - 1))
    claim = Theorem(
        "max-user",
        "a term is at most the maximum",
        "test",
        "test",
        (Step(sp.Abs(h[1] - h[0]), M, "the first term", ("identity",), "<="),),
        rel="<=",
        sizes={n: (1, 2, 4)},
    )
    res = claim.verify()
    assert res.numeric == "agree", res.as_dict()
    wrong = Theorem(
        "max-user-wrong",
        "the maximum is at most a term (false)",
        "test",
        "test",
        (Step(M, sp.Abs(h[1] - h[0]), "backwards", ("identity",), "<="),),
        rel="<=",
        sizes={n: (2, 4)},
    ).verify()
    assert not wrong.ok and wrong.numeric == "disagree"


# ---- PermutationMap and reindex --------------------------------------------------------------------------------------


def test_reindex_needs_the_whole_range_of_the_permutation():
    f = sp.IndexedBase("f")
    good = reduce_difference(sp.Sum(f[PermutationMap(n, k)], (k, 0, n - 1)), sp.Sum(f[k], (k, 0, n - 1)), ("reindex",))
    assert good == 0
    for lo, hi in ((0, n - 2), (1, n - 1)):
        part = reduce_difference(sp.Sum(f[PermutationMap(n, k)], (k, lo, hi)), sp.Sum(f[k], (k, lo, hi)), ("reindex",))
        assert part != 0


def test_regression_reindex_needs_the_variable_only_inside_the_permutation():
    f = sp.IndexedBase("f")
    mixed = reduce_difference(
        sp.Sum(k * f[PermutationMap(n, k)], (k, 0, n - 1)), sp.Sum(k * f[k], (k, 0, n - 1)), ("reindex",)
    )
    assert mixed != 0


def test_a_permutation_is_a_bijection_numerically():
    for size in (1, 2, 5, 9):
        assert sorted(PermutationMap.numeric(size, q) for q in range(size)) == list(range(size))
    with pytest.raises(ValueError, match="k must be an integer"):
        PermutationMap.numeric(3, 3)


# ---- the other strategies --------------------------------------------------------------------------------------------


def test_regression_square_sides_needs_both_sides_nonnegative():
    # 1 <= -2 is false, yet 1 <= 4 after squaring
    assert not Step(sp.Integer(1), sp.Integer(-2), "squares flip it", ("square_sides",), "<=").check_symbolic()
    a = sp.Symbol("a", real=True)
    assert Step(sp.Abs(a), sp.Abs(a) + 1, "both sides >= 0", ("square_sides", "expand"), "<=").check_symbolic()


def test_regression_the_real_part_rule_needs_a_coefficient_at_most_one():
    w = sp.Symbol("w")
    assert nonnegative(sp.Abs(w) - sp.re(w)) and nonnegative(sp.Abs(w) + sp.re(w) / 2)
    assert not nonnegative(sp.Abs(w) - 2 * sp.re(w))  # w = 1: 1 - 2 < 0


def test_regression_an_inequality_between_complex_values_is_not_decided_on_real_parts():
    x_ = sp.Symbol("x", real=True)
    claim = Theorem(
        "complex-user",
        "x + i <= x + 1 (not an inequality between reals)",
        "test",
        "test",
        (Step(x_ + sp.I, x_ + 1, "no order on complex numbers", ("expand",), "<="),),
        rel="<=",
    )
    res = claim.verify()
    assert not res.ok and res.numeric == "disagree"


def test_split_last_only_splits_a_nonempty_range():
    f = sp.IndexedBase("f")
    m_ = sp.Symbol("m", integer=True)
    e = bind(sp.Sum(f[k], (k, 0, n - 1)))
    assert STRATEGIES["split_last"](e) != e
    maybe_empty = bind(sp.Sum(f[k], (k, 0, N - 1)))  # N >= 0: may be empty
    assert STRATEGIES["split_last"](maybe_empty) == maybe_empty
    assert m_  # m is only used to name a sign-free integer


def test_alpha_equates_bound_names_only():
    f = sp.IndexedBase("f")
    assert alpha(bind(sp.Sum(f[i], (i, 0, n)))) == alpha(bind(sp.Sum(f[j], (j, 0, n))))
    assert alpha(bind(sp.Sum(f[i], (i, 0, n)))) != alpha(bind(sp.Sum(f[i + 1], (i, 0, n))))


def test_regression_congruence_needs_equal_arguments():
    a, b = sp.symbols("a b", real=True)
    assert Step(sp.Abs(a * (b + 1)), sp.Abs(a * b + a), "expand inside", ("expand",)).check_symbolic()
    assert not Step(sp.Abs(a), sp.Abs(-a + 1), "not equal", ("expand",)).check_symbolic()


def test_the_numeric_line_differentiates_with_mpmath():
    s_ = sp.Symbol("s", real=True)
    claim = Theorem(
        "diff-user",
        "d/ds sin(s) = cos(s)",
        "test",
        "test",
        (Step(sp.Derivative(sp.sin(s_), s_), sp.cos(s_), "calculus", ("doit",)),),
        domains={"s": Domain("real", -3, 3)},
    )
    res = claim.verify()
    assert res.ok and res.numeric == "agree", res.as_dict()
    wrong = Theorem(
        "diff-user-wrong",
        "d/ds sin(s) = -cos(s) (false)",
        "test",
        "test",
        (Step(sp.Derivative(sp.sin(s_), s_), -sp.cos(s_), "calculus", ("doit",)),),
        domains={"s": Domain("real", -3, 3)},
    ).verify()
    assert not wrong.ok and wrong.numeric == "disagree"


def test_regression_alpha_never_captures_a_free_name_nor_merges_two_limits():
    f = sp.IndexedBase("f")
    b0 = sp.Symbol("b0", integer=True, nonnegative=True)  # a user's free symbol with a canonical-looking name
    renamed = alpha(bind(sp.Sum(f[i] * b0, (i, 0, n))))
    assert b0 in renamed.free_symbols
    two = alpha(bind(sp.Sum(f[i, j], (i, 0, n), (j, 0, n))))
    diagonal = alpha(bind(sp.Sum(f[i, i], (i, 0, n), (j, 0, n))))
    assert two != diagonal
