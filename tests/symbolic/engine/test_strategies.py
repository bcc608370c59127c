r"""The named strategies of :mod:`posproof.symbolic.engine.strategies`: what each proves and what it refuses.

Regression tests for the trust boundaries the strategies closed (``test_regression_<what>``): a strategy's output is
checked against the fragment; kernels unfold only through ``unfold`` (bound, under a guard that refuses closed forms
of sums with symbolic limits); ``reindex`` trusts only the engine's permutation; ``doit`` writes out only finite sums
with integer limits; infinite limits decide nothing; ``Maximum``'s rule needs integer indices and real terms;
``square_sums`` is capture-avoiding. And the finite-sum laws (``sum_product``, ``exchange_sums``, ``pull_factors``,
``push_factors``, the closed forms ``count_terms``, ``telescope``, ``geometric_sum``): each proves a true claim and
not a false one.
"""

from __future__ import annotations

import pytest
import sympy as sp
from posproof.symbolic import Kernel, Step, Theorem
from posproof.symbolic.engine import fragment
from posproof.symbolic.engine import strategies as S
from posproof.symbolic.engine.kernel import definition
from posproof.symbolic.engine.maximum import Maximum
from posproof.symbolic.engine.permutation import PermutationMap, is_engine_permutation

n = sp.Symbol("n", integer=True, nonnegative=True)
m = sp.Symbol("m", integer=True, nonnegative=True)
i, j, k = sp.symbols("i j k", integer=True)
x = sp.Symbol("x", real=True)
u = sp.Symbol("u", real=True)
c = sp.Symbol("c", real=True)
a = sp.IndexedBase("a", real=True)
b = sp.IndexedBase("b", real=True)
half = sp.Rational(1, 2)
POS = sp.Symbol("p", positive=True)


def proves(lhs, rhs, strategy, rel="=", given=()):
    r"""Whether the step is proved symbolically (a strategy that raises proves nothing: ``False``)."""
    try:
        return Step(lhs, rhs, "the user's reason", strategy, rel).check_symbolic(given)
    except ValueError:
        return False


def verified(id_, lhs, rhs, strategy, sizes):
    r"""Whether the claim verifies (both lines), with the sizes of the symbols it has."""
    step = Step(lhs, rhs, "the user's reason", strategy)
    free = (lhs - rhs).free_symbols
    sizes = {s: v for s, v in sizes.items() if s in free}
    return Theorem(id_, id_, "test", "the strategies' tests", (step,), sizes=sizes).verify().ok


def kernel(name, body, nargs=1):
    r"""A user's kernel ``name`` whose definition is ``body(*args)`` (numeric: the definition evaluated)."""

    def doit(self, **hints):
        return body(*self.args)

    def numeric(cls, *args):
        return body(*args)

    return type(name, (Kernel,), {"nargs": nargs, "doit": doit, "numeric": classmethod(numeric)})


# ---- the fragment after every strategy --------------------------------------------------------------------------


def test_regression_strategy_output_outside_the_fragment_is_refused(monkeypatch):
    monkeypatch.setattr(fragment, "refusal", lambda e, given=(): "a Float" if e.has(sp.Float) else "")
    floaty = kernel("Floaty", lambda v: sp.Float(0.5) * v)
    with pytest.raises(ValueError, match="the strategy 'doit' produced a Float"):
        S.reduce_difference(floaty(x), x / 3, ("doit",))
    with pytest.raises(ValueError, match="the strategy 'unfold' produced a Float"):
        S.reduce_difference(sp.Matrix([floaty(x), x]), sp.Matrix([x / 3, x]), ("unfold",))
    tenth = kernel("Tenth", lambda v: sp.Float(0.1) * v)  # the binary 0.1, not 1/10: refused before it cancels
    assert not proves(tenth(x), x / 10, ("doit",)) and not proves(tenth(x), x / 10, ("unfold",))


def test_regression_side_strategy_output_outside_the_fragment_is_refused(monkeypatch):
    pos = sp.Symbol("p", positive=True)
    assert proves(pos, pos + 1, ("log_sides", "expand"), "<=") is False  # log p <= log(p + 1): not by expand
    monkeypatch.setattr(fragment, "refusal", lambda e, given=(): "a log" if e.has(sp.log) else "")
    with pytest.raises(ValueError, match="the strategy 'log_sides' produced a log"):
        S.SIDE_STRATEGIES["log_sides"](pos, 2 * pos, ())
    assert not proves(pos, 2 * pos, ("log_sides", "expand_log"), "<=")


# ---- kernels -----------------------------------------------------------------------------------------------------


def test_regression_doit_unfolds_kernels_through_bind():
    i_pos = sp.Symbol("i", integer=True, positive=True)
    leaky = kernel("Leaky", lambda v: sp.Sum(sp.Abs(i_pos - 1), (i_pos, 0, v)))  # i declared positive, range from 0
    with pytest.raises(ValueError, match="declared positive"):
        S.reduce_difference(leaky(n), 0, ("doit",))
    tidy = kernel("Tidy", lambda v: sp.Sum(a[i], (i, 0, v)))
    assert proves(tidy(n), sp.Sum(a[j], (j, 0, n)).xreplace({j: i}), ("doit",))
    assert proves(tidy(3), a[0] + a[1] + a[2] + a[3], ("doit",))


def test_regression_kernel_definition_evaluating_a_symbolic_sum_is_refused():
    closed = kernel("Closed", lambda v: sp.Sum((-1) ** i * sp.binomial(v, i), (i, 0, v)).doit())
    for strategy in (("unfold",), ("doit",)):
        with pytest.raises(ValueError, match="evaluates a sum with symbolic limits"):
            S.reduce_difference(closed(n), 0, strategy)
        assert not proves(closed(n), 0, strategy)  # false at n = 0
    product = kernel("ClosedProduct", lambda v: sp.product(i, (i, 1, v)))
    with pytest.raises(ValueError, match="evaluates a product with symbolic limits"):
        S.reduce_difference(product(n), sp.factorial(n), ("unfold",))
    finite = kernel("Finite", lambda v: sp.Sum(v * i, (i, 0, 3)).doit())  # integer limits: written out
    assert proves(finite(x), 6 * x, ("unfold",))
    assert definition(finite(x)) == 6 * x
    assert sp.Sum(i, (i, 0, n)).doit() != sp.Sum(i, (i, 0, n))  # SymPy's own doit is back after the guard


class sigma(PermutationMap):
    r"""A second permutation: renames the engine's, nothing else."""


class NotAPermutation(PermutationMap):
    @classmethod
    def numeric(cls, n, k):
        return 0


class Identity(PermutationMap):
    def doit(self, **hints):
        return self.args[1]


def test_regression_reindex_trusts_only_the_engines_permutation():
    f = sp.Function("f")
    assert is_engine_permutation(PermutationMap) and is_engine_permutation(sigma)
    assert not is_engine_permutation(NotAPermutation) and not is_engine_permutation(Identity)
    npos = sp.Symbol("n", integer=True, positive=True)
    for p, expected in ((PermutationMap, True), (sigma, True), (NotAPermutation, False), (Identity, False)):
        lhs = sp.Sum(f(p(npos, k)), (k, 0, npos - 1))
        assert proves(lhs, sp.Sum(f(k), (k, 0, npos - 1)), ("reindex",)) is expected, p


# ---- doit: finite sums with integer limits only ------------------------------------------------------------------


def test_regression_doit_keeps_sympys_closed_forms_out():
    assert not proves(sp.Sum((-1) ** i * sp.binomial(n, i), (i, 0, n)), 0, ("doit",))  # false at n = 0
    delta = sp.Piecewise((1, (x >= 0) & (x <= n)), (0, True))  # SymPy's sum of KroneckerDelta(i, x): x not integer
    assert not proves(sp.Sum(sp.KroneckerDelta(i, x), (i, 0, n)), delta, ("doit",))
    assert not proves(sp.Sum(sp.sin(i), (i, 0, n)), 0, ("doit",))  # no closed form is named for it
    assert proves(sp.Sum(i**2, (i, 0, 3)), 14, ("doit",))  # integer limits: written out
    assert proves(sp.Product(x + i, (i, 0, 2)), x * (x + 1) * (x + 2), ("doit", "expand"))


def test_doit_differentiates_under_a_symbolic_sum_and_holds_integrals():
    s = sp.Symbol("s", real=True)
    lhs = sp.Derivative(sp.Sum(sp.exp(s * a[i]), (i, 0, n)), s)
    assert proves(lhs, sp.Sum(a[i] * sp.exp(s * a[i]), (i, 0, n)), ("doit",))
    inner = sp.Integral(x * k, (x, 0, 1))
    written = S._doit(S.bind(sp.Sum(inner, (k, 0, 1))))
    assert written.has(sp.Integral) and not written.has(sp.Sum)  # written out around the held integral
    assert written.free_symbols == set()


@pytest.mark.parametrize(
    ("lhs", "true", "false"),
    [
        (sp.Sum(x, (i, 0, n - 1)), n * x, (n + 1) * x),
        (sp.Sum(a[i + 1] - a[i], (i, 0, n - 1)), a[n] - a[0], a[n] - a[1]),
        (sp.Sum(a[i] - a[i + 1], (i, 2, n + 1)), a[2] - a[n + 2], a[0] - a[n + 2]),
        (sp.Sum(2**i, (i, 0, n - 1)), 2**n - 1, 2**n),
        (sp.Sum(i, (i, 0, n - 1)), n * (n - 1) / 2, n * (n + 1) / 2),
        (sp.Sum(c * i**2 + 1, (i, 1, n)), c * n * (n + 1) * (2 * n + 1) / 6 + n, c * n**3 / 3 + n),
        (sp.Sum(sp.Sum(1, (j, 0, i)), (i, 0, n - 1)), n * (n + 1) / 2, n**2 / 2),
        (sp.Sum(3 * (1 + POS) ** (-i), (i, 1, n)), 3 * (1 - (1 + POS) ** (-n)) / POS, 3 / POS),
    ],
)
def test_closed_forms_of_sums_with_symbolic_limits_are_named(lhs, true, false):
    assert proves(lhs, true, ("doit", "expand")) or proves(lhs, true, ("doit", "cancel"))
    assert not proves(lhs, false, ("doit", "expand")) and not proves(lhs, false, ("doit", "cancel"))


def test_geometric_sum_needs_a_ratio_proved_not_one():
    assert not proves(sp.Sum(x**i, (i, 0, n - 1)), (1 - x**n) / (1 - x), ("geometric_sum",))  # x = 1, x < 0
    pos = POS
    assert not proves(sp.Sum((1 + u**2) ** -i, (i, 0, n - 1)), (1 - (1 + u**2) ** -n) / (1 - 1 / (1 + u**2)),
                      ("geometric_sum",))  # fmt: skip  # u = 0: ratio 1
    assert not proves(sp.Sum(pos**i, (i, 0, n - 1)), (1 - pos**n) / (1 - pos), ("geometric_sum",))  # p = 1
    assert proves(sp.Sum((pos + 1) ** i, (i, 0, n - 1)), -(1 - (pos + 1) ** n) / pos, ("geometric_sum", "cancel"))


# ---- infinite limits ---------------------------------------------------------------------------------------------


def test_regression_infinite_limits_decide_and_split_nothing():
    i_nn = sp.Dummy("i", integer=True, nonnegative=True)
    assert S._decide_on_range(sp.Lt(i_nn, 5), i_nn, 0, sp.oo) is None
    assert S._decide_on_range(sp.Gt(i_nn, -5), i_nn, -sp.oo, 0) is None
    window = sp.Sum(sp.Piecewise((1, i_nn < 5), (0, True)) * 2**-i_nn, (i_nn, 0, sp.oo))
    assert S._refine_limits(window) == window
    s1, s2 = sp.Sum(1 / (i_nn + 1), (i_nn, 0, sp.oo)), sp.Sum(1 / (i_nn + 2), (i_nn, 0, sp.oo))
    assert S.combine_sums(s1 - s2) == s1 - s2  # two divergent series: no merge
    assert S._split_last(s1) == s1
    finite = sp.Sum(a[i_nn], (i_nn, 0, 3)) + sp.Sum(b[i_nn], (i_nn, 0, 3))
    assert S.combine_sums(finite) == sp.Sum(a[i_nn] + b[i_nn], (i_nn, 0, 3))


# ---- Maximum -----------------------------------------------------------------------------------------------------


def test_regression_maximum_rule_needs_integer_indices_and_real_terms():
    top = Maximum(-((k - half) ** 2), (k, 0, 3))
    assert not proves(-((u - half) ** 2), top, ("identity",), "<=")  # u = 1/2: -0 > -1/4
    assert not proves(-((x - half) ** 2), top, ("identity",), "<=")
    v = sp.Symbol("v", integer=True)
    assert proves(-((v - half) ** 2), top, ("identity",), "<=", given=(sp.Q.nonnegative(v), sp.Q.nonnegative(3 - v)))
    two = sp.Integer(2)
    complex_top = Maximum(sp.I * k, (k, 0, 3))  # no order on complex terms
    assert not proves(sp.I * two, complex_top, ("identity",), "<=")
    real_index = sp.Symbol("r", real=True)
    from_half = Maximum(-((real_index - 1) ** 2), (real_index, half, 3 + half))  # lower bound not an integer
    assert not proves(-((two + half - 1) ** 2), from_half, ("identity",), "<=")


# ---- square_sums ---------------------------------------------------------------------------------------------------


def test_regression_square_sums_is_capture_avoiding():
    nested = sp.Sum(sp.Sum(i + 1, (i, 0, 1)) ** 2, (i, 0, 1)) ** 2  # (2 * 3^2)^2 = 324
    assert nested.doit() == 324
    assert proves(nested, 324, ("square_sums", "doit"))
    assert not proves(nested, 360, ("square_sums", "doit"))  # what renaming the inner sum's variable gave
    z = sp.IndexedBase("z", complex=True)
    big_n = sp.Symbol("N", integer=True, nonnegative=True)
    triangle = Step(sp.Abs(sp.Sum(z[i], (i, 0, big_n - 1))), sp.Sum(sp.Abs(z[i]), (i, 0, big_n - 1)), "", rel="<=",
                    strategy=("square_sides", "square_sums", "combine_sums"))  # fmt: skip
    assert triangle.check_symbolic()


def test_substitute_is_capture_avoiding():
    inner = sp.Sum(a[i] * k, (i, 0, k))
    assert S._substitute(inner, {i: j}) == inner  # i is bound there
    assert S._substitute(inner, {k: 2}) == sp.Sum(2 * a[i], (i, 0, 2))
    renamed = S._substitute(inner, {k: i})  # i would be captured: the bound i is renamed first
    (bound, lo, hi), = renamed.limits  # fmt: skip
    assert bound != i and hi == i and renamed.function == a[bound] * i


# ---- the finite-sum laws ---------------------------------------------------------------------------------------------

ROW, COL = sp.Sum(a[i], (i, 0, n - 1)), sp.Sum(b[j], (j, 0, m - 1))
DOUBLE = sp.Sum(a[i] * b[j], (i, 0, n - 1), (j, 0, m - 1))
DOUBLE_SWAPPED = sp.Sum(a[i] * b[j], (j, 0, m - 1), (i, 0, n - 1))
SIZES = {n: (0, 1, 3), m: (1, 2)}


@pytest.mark.parametrize("strategy", ["sum_product", "pull_factors"])
def test_product_of_sums_is_a_double_sum(strategy):
    assert proves(DOUBLE, ROW * COL, (strategy,)) and proves(ROW * COL, DOUBLE_SWAPPED, (strategy,))
    assert not proves(DOUBLE, ROW * COL + 1, (strategy,))
    assert not proves(sp.Sum(a[i] * b[i], (i, 0, n - 1)), sp.Sum(a[i], (i, 0, n - 1)) * sp.Sum(b[i], (i, 0, n - 1)),
                      (strategy,))  # fmt: skip


def test_sum_product_renames_a_shared_variable():
    square = sp.Sum(a[i], (i, 0, n - 1)) * sp.Sum(b[i], (i, 0, n - 1))
    merged = S.reduce_difference(square, 0, ("sum_product",))
    assert isinstance(merged, sp.Sum) and len({v for v, _, _ in merged.limits}) == 2
    assert not proves(square, sp.Sum(a[i] * b[i], (i, 0, n - 1)), ("sum_product",))


def test_sum_product_verifies_and_its_false_claim_does_not():
    assert verified("sum-product", ROW * COL, DOUBLE_SWAPPED, ("sum_product",), SIZES)
    assert not verified("sum-product-false", ROW * COL, DOUBLE + a[0], ("sum_product",), SIZES)


def test_exchange_sums_verifies_and_its_false_claim_does_not():
    assert proves(DOUBLE, DOUBLE_SWAPPED, ("exchange_sums",))
    assert not proves(DOUBLE, DOUBLE_SWAPPED, ("identity",))
    triangle = sp.Sum(a[i] * b[j], (j, 0, i), (i, 0, n - 1))  # j's range depends on i: not exchanged
    assert S._exchange_sums(S.bind(triangle)) == S.bind(triangle)
    assert not proves(triangle, sp.Sum(a[i] * b[j], (i, 0, j), (j, 0, n - 1)), ("exchange_sums",))
    assert verified("exchange-sums", DOUBLE, DOUBLE_SWAPPED, ("exchange_sums",), SIZES)
    assert not verified("exchange-sums-false", DOUBLE, DOUBLE_SWAPPED.subs(b, a), ("exchange_sums",), SIZES)


def test_pull_factors_verifies_and_its_false_claim_does_not():
    scaled = sp.Sum(c * a[i], (i, 0, n - 1))
    assert proves(scaled**2, c**2 * ROW**2, ("pull_factors",))
    assert not proves(scaled**2, c * ROW**2, ("pull_factors",))
    assert proves(sp.Abs(scaled), sp.Abs(c) * sp.Abs(ROW), ("pull_factors", "split_abs"))
    assert verified("pull-factors", scaled**2, c**2 * ROW**2, ("pull_factors",), SIZES)
    assert not verified("pull-factors-false", scaled**2, c * ROW**2, ("pull_factors",), SIZES)


def test_push_factors_builds_the_double_sum():
    outer = sp.Sum(b[j] * ROW, (j, 0, m - 1))
    assert proves(outer, DOUBLE, ("push_factors",))
    assert not proves(outer, DOUBLE + b[0], ("push_factors",))
    assert verified("push-factors", outer, DOUBLE, ("push_factors",), SIZES)
    assert not verified("push-factors-false", outer, sp.Sum(a[j] * b[j], (j, 0, m - 1)), ("push_factors",), SIZES)


def test_every_strategy_says_why_it_is_sound():
    for name in ("sum_product", "exchange_sums", "pull_factors", "push_factors", "count_terms", "telescope",
                 "geometric_sum"):  # fmt: skip
        assert "sound" in S.STRATEGIES[name].__doc__ or len(S.STRATEGIES[name].__doc__) > 200
