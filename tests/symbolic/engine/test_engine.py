r"""The verification core itself: sound strategies, honest relations, a numeric line that is a real second check,
kernels evaluated by the code, definitions apart, failures reported (never raised)."""

import json
import random

import mpmath
import pytest
import sympy as sp
from posproof.symbolic.engine import settings
from posproof.symbolic.engine.core import Definition, Domain, Fact, Kernel, Step, Theorem
from posproof.symbolic.engine.domains import uniform_draw
from posproof.symbolic.engine.strategies import SIDE_STRATEGIES, STRATEGIES, is_zero, reduce_difference

x, y = sp.symbols("x y", real=True)
u = sp.Symbol("u", real=True)
z, w = sp.symbols("z w")  # complex
h = sp.Symbol("h", integer=True, positive=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
q = sp.IndexedBase("q", real=True)


def ident(steps, **kw):
    return Theorem("t", "test", "test", "test", tuple(steps), **kw)


# ---- strategies: every one is an equivalence -------------------------------------------------------------------------

#: Expressions at the places where careless rewriting goes wrong: branch cuts of sqrt/log/powers, signs, complex
#: arguments, sums and piecewise functions.
BRANCH_CUT_CORPUS = [
    sp.sqrt(x) * sp.sqrt(y),
    sp.sqrt(x * y),
    sp.sqrt(x**2),
    x**u * y**u,
    (x * y) ** u,
    (x**2) ** u,
    sp.log(x * y),
    sp.log(x**2),
    sp.log(sp.exp(z)),
    sp.exp(sp.log(z)),
    (z**2) ** sp.Rational(1, 2),
    sp.sqrt(z) * sp.sqrt(w),
    z**u * w**u,
    sp.Abs(z) ** 2 - z * sp.conjugate(z),
    sp.sin(x + y) ** 2 + sp.cos(x + y) ** 2,
    sp.exp(sp.I * x) * sp.exp(-sp.I * y),
    (x**2 - 1) / (x - 1),
    sp.Sum(sp.sqrt(q[i] ** 2), (i, 0, h - 1)),
    sp.Piecewise((x, x < y), (y, True)) + sp.Piecewise((1, x < y), (0, True)),
    # conjugates of powers on their branch cut (SymPy's expand_complex made conj(w^a) = conj(w)^a)
    sp.conjugate((-2) ** (sp.Symbol("k", integer=True) / 2)),
    sp.conjugate(sp.sqrt(x)),
    sp.conjugate(x**u),
    sp.conjugate(z ** sp.Rational(1, 3)),
    sp.conjugate(sp.log(z)),
    sp.conjugate(sp.exp(sp.I * x) * z),
]


def _points(expr, rng, n=12):
    r"""Random values for the free symbols of ``expr`` from their declared domains (edges first)."""
    syms = sorted(expr.free_symbols, key=str)
    out = []
    with mpmath.workdps(40):
        for p in range(n):
            vals = {}
            for s in syms:
                dom = Domain.of(s)
                edges = dom.edge_values()
                vals[s] = edges[p % len(edges)] if p < 3 and edges else dom.draw(rng, 140)
            out.append(vals)
    return out


def _value(expr, vals, sizes):
    r"""``expr`` at ``vals`` with mpmath (40 digits); ``None`` where it is undefined or overflows."""
    e = expr.subs(sizes)
    e = e.doit() if e.has(sp.Sum) else e
    e = e.xreplace({q[k]: sp.Rational(2 * k - 5, 2) for k in range(8)})  # q entries of both signs
    syms = sorted(vals, key=str)
    f = sp.lambdify(syms, e, modules="mpmath")
    with mpmath.workdps(40):
        try:
            v = mpmath.mpmathify(f(*[vals[s] for s in syms]))
        except (ZeroDivisionError, ValueError, OverflowError):
            return None
    return v if mpmath.isfinite(v) else None


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_every_strategy_is_an_equivalence_at_branch_cuts(name):
    rng = random.Random(name)
    for expr in BRANCH_CUT_CORPUS:
        try:
            out = STRATEGIES[name](expr)
        except Exception:  # a strategy may refuse an expression; it then proves nothing
            continue
        for vals in _points(expr, rng):
            if any(v == 0 for v in vals.values()) and expr.has(sp.log):
                continue  # log(0): both sides undefined
            a, b = _value(expr, vals, {h: 3}), _value(out, vals, {h: 3})
            if a is None or b is None:
                continue  # a removable singularity (cancel) or a pole: nothing to compare
            assert abs(a - b) <= mpmath.mpf(10) ** -25 * (1 + abs(a)), (name, expr, out, vals)


def test_every_strategy_says_why_it_is_sound():
    for name, f in [*STRATEGIES.items(), *SIDE_STRATEGIES.items()]:
        assert (f.__doc__ or "").strip(), name


@pytest.mark.parametrize(
    "lhs, rhs",
    [
        (sp.sqrt(x) * sp.sqrt(y), sp.sqrt(x * y)),
        (sp.sqrt(x**2), x),
        (x**u * y**u, (x * y) ** u),
        (sp.log(x * y), sp.log(x) + sp.log(y)),
        (sp.log(sp.exp(z)), z),
        ((z**2) ** sp.Rational(1, 2), z),
    ],
)
def test_regression_force_true_no_strategy_reduces_a_false_power_or_log_rule(lhs, rhs):
    for name in STRATEGIES:
        try:
            diff = reduce_difference(lhs, rhs, (name,))
        except Exception:
            continue
        assert diff != 0, name


def test_sound_strategies_still_prove_the_rules_where_they_hold():
    a, b = sp.symbols("a b", positive=True)
    assert reduce_difference(sp.sqrt(a) * sp.sqrt(b), sp.sqrt(a * b), ("powsimp",)) == 0
    assert reduce_difference(sp.log(a * b), sp.log(a) + sp.log(b), ("expand_log",)) == 0
    assert reduce_difference(a**u * b**u, (a * b) ** u, ("powsimp",)) == 0


def test_summation_variables_carry_only_what_the_limits_imply():
    k = sp.Symbol("k", integer=True, positive=True)  # declared positive, but summed from -3
    s = sp.Sum(sp.log(k * (k + 4)), (k, -3, 3))  # log(k(k+4)) = log k + log(k+4) needs k > 0
    split = sp.Sum(sp.log(k) + sp.log(k + 4), (k, -3, 3))
    with pytest.raises(ValueError, match="declared positive"):  # SymPy used the declaration already: refused
        reduce_difference(s, split, ("expand",))
    k0 = sp.Symbol("k", integer=True)
    s0, split0 = s.xreplace({k: k0}), split.xreplace({k: k0})
    with pytest.raises(ValueError, match="log"):  # undeclared: from -3, log(k + 4) is outside the fragment
        reduce_difference(s0, split0, ("expand",))
    t = sp.Sum(sp.log(k * (k + 4)), (k, 1, 3))  # from 1 the split is valid, and expand may use it
    assert reduce_difference(t, sp.Sum(sp.log(k) + sp.log(k + 4), (k, 1, 3)), ("expand",)) == 0


# ---- claims: checks fail independently; failures are reported --------------------------------------------------------


def test_symbolic_and_numeric_checks_fail_independently():
    # sin(x)^2 vs 1 - cos(x)^2: true, but 'expand' alone cannot show it -> symbolic fails, numeric passes.
    r = ident([Step(sp.sin(x) ** 2, 1 - sp.cos(x) ** 2, "Pythagoras", ("expand",))]).verify()
    assert not r.ok and r.steps[0].numeric.status == "agree" and r.steps[0].symbolic is False
    r = ident([Step(sp.sin(x) ** 2, 1 - sp.cos(x) ** 2, "Pythagoras", ("trigsimp",))]).verify()
    assert r.ok


def test_sums_over_indexed_components_with_symbolic_length():
    lhs = sp.Sum((q[i] + 1) ** 2, (i, 0, h - 1))
    rhs = sp.Sum(q[i] ** 2, (i, 0, h - 1)) + 2 * sp.Sum(q[i], (i, 0, h - 1)) + h
    claim = ident([Step(lhs, rhs, "expand the square", ("expand", "doit"))], sizes={h: (1, 3, 7)})
    assert claim.verify().ok
    assert not claim.with_rhs(rhs + 1).verify().ok


def test_combine_sums_merges_equal_ranges_only():
    s1, s2 = sp.Sum(q[i], (i, 0, h - 1)), sp.Sum(q[i], (i, 0, h))
    assert is_zero(reduce_difference(s1, s1, ("combine_sums",)))
    assert not is_zero(reduce_difference(s1, s2, ("combine_sums",)))
    one_pair_too_many = ident([Step(s1, s2, "merge", ("combine_sums",))], sizes={h: (2,)}).verify()
    assert one_pair_too_many.steps[0].symbolic is False
    # called directly (no bound dummies, which already differ with the range): the same variable and lower limit
    # with another upper limit is another sum
    merged = STRATEGIES["combine_sums"](s1 - s2)
    assert len(merged.atoms(sp.Sum)) == 2


def test_refine_limits_decides_a_condition_on_the_whole_range_not_at_its_ends():
    k = sp.Symbol("k", integer=True)
    holes = sp.Sum(sp.Piecewise((1, sp.Ne(k, 2)), (0, True)), (k, 0, 4))  # true at both ends, false at k = 2
    assert not is_zero(reduce_difference(holes, sp.Integer(5), ("refine_limits", "doit")))
    below = sp.Sum(sp.Piecewise((q[k], k < h), (0, True)), (k, 0, h - 1))  # k < h on all of 0 .. h-1
    assert is_zero(reduce_difference(below, sp.Sum(q[k], (k, 0, h - 1)), ("refine_limits", "combine_sums")))


def test_unchained_steps_need_a_claim_strategy():
    with pytest.raises(ValueError, match="claim strategy"):
        ident([Step(x, x, "a", ("expand",)), Step(y, y, "b", ("expand",))])


def test_unknown_strategy_and_relation_are_rejected():
    with pytest.raises(ValueError, match="strategy names"):
        Step(x, x, "why", ("simplify_everything",))
    with pytest.raises(ValueError, match="rel must be one of"):
        Step(x, x, "why", rel="~")
    with pytest.raises(ValueError, match="side strategies"):
        Step(x, x, "why", ("log_sides",))  # an '=' step cannot take logarithms of its sides


@pytest.mark.parametrize("dps", [5, 19, 1001, 50.0, True, "50"])
def test_dps_range(dps):
    with pytest.raises(ValueError, match=r"dps must be an integer in \[20, 1000\]"):
        ident([Step(x, x, "why")]).verify(dps=dps)


def test_crashing_fact_is_reported_failed_not_raised():
    def compute(dps):
        raise ZeroDivisionError("boom")

    r = Fact("f", "t", "test", "s", "statement", 1, compute, method="nothing", wrong=lambda dps: (2, [])).verify()
    assert not r.ok and "ZeroDivisionError" in r.detail
    json.dumps(r.as_dict())


def test_fact_compares_plain_values_and_its_wrong_variant_changes_the_computation():
    fact = Fact("f", "t", "test", "s", "st", {"k": [1, 2]}, lambda dps: ({"k": (1, 2)}, []), "exact",
                wrong=lambda dps: ({"k": (1, 3)}, []))  # fmt: skip
    assert fact.verify().ok
    wrong = fact.wrong_variant()
    assert wrong.claim == fact.claim and not wrong.verify().ok


# ---- relations -------------------------------------------------------------------------------------------------------


def test_regression_strict_claim_from_an_equality_step():
    r = ident([Step(x, x, "nothing", ("expand",))], rel="<").verify()
    assert not r.ok and "strict" in r.detail


def test_regression_strict_claim_from_non_strict_steps():
    r = ident([Step(sp.Integer(0), x**2, "a square", ("expand",), rel="<=")], rel="<").verify()
    assert not r.ok and "strict" in r.detail


def test_non_strict_claim_needs_an_inequality_step():
    r = ident([Step(x, x, "nothing", ("expand",))], rel="<=").verify()
    assert not r.ok and "at least one inequality" in r.detail


def test_mixed_directions_are_refused():
    steps = [Step(x, x + 1, "up", ("expand",), rel="<"), Step(x + 1, x, "down", ("expand",), rel=">")]
    assert "mixed" in ident(steps, rel="<").verify().detail


def test_inequality_steps():
    ok = ident([Step(sp.Integer(0), x**2 + y**2, "squares", ("expand",), rel="<=")], rel="<=")
    assert ok.verify().ok
    bad = ident([Step(x**2 + 1, sp.Integer(0), "wrong way", ("expand",), rel="<=")], rel="<=")
    r = bad.verify()
    assert not r.ok and not r.steps[0].numeric_ok and not r.steps[0].symbolic


def test_strict_inequality_needs_a_proved_strict_step():
    strict = ident([Step(x**2, x**2 + 1, "one more", ("expand",), rel="<")], rel="<")
    assert strict.verify().ok
    # 0 < x^2 is false at x = 0 (an edge point): symbolically not positive, numerically no slack
    r = ident([Step(sp.Integer(0), x**2, "a square", ("expand",), rel="<")], rel="<").verify()
    assert not r.ok and r.steps[0].symbolic is False and r.steps[0].numeric.status == "disagree"


def test_strict_relation_needs_slack_above_the_tolerance_numerically():
    # x < x + 10^-45: true, but the slack is below the tolerance at 50 digits, so the numeric line cannot see it
    r = ident([Step(x, x + sp.Rational(1, 10**45), "tiny", ("expand",), rel="<")], rel="<").verify()
    assert r.steps[0].numeric.status == "disagree"


def test_log_sides_refuses_sides_not_proved_positive():
    # -1 < -2 is false, yet log(-2) - log(-1) = log 2 > 0: comparing logarithms needs positive sides
    assert not Step(sp.Integer(-1), sp.Integer(-2), "logs", ("log_sides", "expand_log"), rel="<").check_symbolic()
    assert not Step(x, x + 1, "logs", ("log_sides", "expand_log", "expand"), rel="<").check_symbolic()


def test_log_sides_and_given_facts_prove_a_strict_inequality():
    b = sp.Symbol("b", positive=True)
    d = sp.Symbol("d", integer=True, positive=True)
    step = Step(b ** (1 - 2 / d), b, "b^(2/d) > 1", ("log_sides", "expand_log", "expand"), rel="<")
    assert not step.check_symbolic()  # b > 1 is not among b's assumptions
    assert step.check_symbolic((sp.Q.gt(b, 1),))


# ---- the numeric line ------------------------------------------------------------------------------------------------


class Spy(Kernel):
    r"""Records the values the numeric check evaluates it at (a test double for the real kernels)."""

    nargs = 1
    seen: list = []

    @classmethod
    def numeric(cls, v):
        cls.seen.append(v)
        return v

    def doit(self, **hints):
        return self.args[0]


def test_draws_are_at_the_working_precision_not_float64():
    with mpmath.workdps(60):
        u0 = uniform_draw(random.Random(0), 200)
        assert mpmath.mpf(float(u0)) != u0  # 200 random bits, not a float64
    Spy.seen.clear()
    ident([Step(Spy(x), x, "spy", ("doit",))]).verify()
    drawn = [v for v in Spy.seen if v not in (0, 1, -1)]
    assert drawn and all(mpmath.mpf(float(v)) != v for v in drawn)


def test_every_declared_size_is_tried_and_at_least_20_points():
    Spy.seen.clear()
    claim = ident([Step(sp.Sum(Spy(q[i]) * 0 + h, (i, 0, h - 1)), h**2, "h terms", ("doit",))], sizes={h: (1, 2, 5, 9)})
    r = claim.verify()
    assert r.ok and r.steps[0].numeric.points >= settings.NUMERIC_POINTS >= 20
    assert r.steps[0].numeric.points >= 4 * settings.POINTS_PER_SIZE


def test_integer_positions_cover_large_magnitudes_and_edges():
    m = sp.Symbol("m", integer=True)
    Spy.seen.clear()
    ident([Step(Spy(m), m, "spy", ("doit",))]).verify()
    seen = [int(v) for v in Spy.seen]
    assert {0, 1, -1} <= set(seen) and max(abs(v) for v in seen) >= 2**20 and min(seen) < 0


def test_a_claim_false_only_for_large_positions_is_rejected():
    m = sp.Symbol("m", integer=True, nonnegative=True)
    r = ident([Step(sp.Min(m, 10**6), m, "no position beyond a million", ("expand",))]).verify()
    assert not r.ok and r.steps[0].numeric.status == "disagree"


@pytest.mark.parametrize("lo, hi", [(10**3, 10**5), (10**5, 10**7), (-(10**6), -(10**4))])
def test_a_claim_false_only_at_middle_magnitudes_is_rejected_by_the_regular_draws(lo, hi):
    # the far points start above the default range: the regular draws must cover 1 .. 2^24 themselves
    m = sp.Symbol("m", integer=True)
    inside = sp.Piecewise((1, (m > lo) & (m < hi)), (0, True))
    r = ident([Step(inside, sp.Integer(0), "zero outside a band", ("piecewise_fold",))]).verify()
    assert r.steps[0].numeric.status == "disagree"


def test_regression_relative_error_is_not_an_absolute_error_below_one():
    b = sp.Symbol("b", positive=True)
    tiny = sp.exp(-1000 * b)
    # b in [1, 2]: both sides are below e^-1000 at every point, so an absolute error would see nothing
    r = ident(
        [Step(x * tiny, 2 * x * tiny, "false at any scale", ("expand",))], domains={"b": Domain("real", 1, 2)}
    ).verify()
    assert not r.ok and r.steps[0].numeric.status == "disagree"


def test_the_tolerance_is_pinned_a_formula_right_to_35_digits_fails_at_50():
    close = ident([Step(x * (1 + sp.Rational(1, 10**35)), x, "right to 35 digits", ("expand",))]).verify()
    assert close.steps[0].numeric.status == "disagree"
    closer = ident([Step(x * (1 + sp.Rational(1, 10**45)), x, "right to 45 digits", ("expand",))]).verify()
    assert closer.steps[0].numeric.status == "agree"  # within 10^-(50 - 10): the documented threshold


def test_tolerance_does_not_underflow_at_high_precision():
    assert settings.rel_tol(400) > 0
    r = ident([Step(sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.Integer(1), "Pythagoras", ("trigsimp",))]).verify(dps=400)
    assert r.ok
    bad = ident([Step(x * (1 + sp.Rational(1, 10**380)), x, "right to 380 digits", ("expand",))]).verify(dps=400)
    assert bad.steps[0].numeric.status == "disagree"


def test_identical_sides_report_identical_never_an_error_of_zero():
    r = ident([Step(sp.Sum(sp.Integer(1), (i, 0, h - 1)), h, "h ones", ("doit",))], sizes={h: (3,)}).verify()
    # at h = 3 the sum is evaluated term by term, so it is compared (not identical) ...
    assert r.steps[0].numeric.status == "agree"
    same = ident([Step(x + 1, x + 1, "nothing", ("expand",))]).verify()
    assert same.steps[0].numeric.status == "identical" and same.steps[0].numeric.max_rel_error is None
    assert same.as_dict()["steps"][0]["numeric"] == "identical"


class Inconsistent(Kernel):
    r"""A kernel whose code disagrees with its definition: the numeric line must catch it."""

    nargs = 1

    @classmethod
    def numeric(cls, v):
        return v + 1

    def doit(self, **hints):
        return self.args[0]


def test_kernels_are_evaluated_by_their_code_not_by_their_definition():
    r = ident([Step(Inconsistent(x), x, "by the definition", ("doit",))]).verify()
    assert r.steps[0].symbolic is True and r.steps[0].numeric.status == "disagree" and not r.ok


def test_tables_indexed_by_computed_values_are_consistent_across_sides():
    t = sp.IndexedBase("t", real=True)
    m, n, s = sp.symbols("m n s", integer=True)
    claim = ident([Step(t[Spy((m + s) - (n + s))], t[Spy(m - n)], "the shift cancels", ("doit", "expand"))])
    assert claim.verify().ok
    assert not claim.with_rhs(t[Spy(n - m)]).verify().ok


def test_perturbed_intermediate_expressions_are_rejected():
    claim = ident(
        [
            Step(sp.sin(x) ** 2 + sp.cos(x) ** 2 + x, 1 + x, "Pythagoras", ("trigsimp",)),
            Step(1 + x, x + 1, "commute", ("expand",)),
        ]
    )
    assert claim.verify().ok
    r = claim.perturbed(0).verify()
    assert not r.ok and not r.steps[0].ok and not r.steps[1].ok


# ---- definitions -----------------------------------------------------------------------------------------------------


def test_definitions_check_that_the_code_computes_the_formula():
    dfn = Definition("dd", "t", "test", "s", Spy(x), x, "spy", "Spy.numeric", wrong=x + 1)
    r = dfn.verify()
    assert r.ok and r.kind == "definition" and r.symbolic is None and r.as_dict()["numeric"] == "agree"
    assert not dfn.wrong_variant().verify().ok


def test_a_definition_with_nothing_to_evaluate_is_refused():
    with pytest.raises(ValueError, match="a Definition defines code"):
        Definition("dd", "t", "test", "s", x, x, "notation", "none")
    # a kernel defined as itself: its code is never run, so nothing is checked and the definition fails
    r = Definition("dk", "t", "test", "s", Spy(x), Spy(x), "itself", "none").verify()
    assert not r.ok and "not evaluated" in r.detail


def test_domains_override_by_name():
    b = sp.Symbol("b", positive=True)
    claim = ident([Step(sp.log(b - 1), sp.log(b - 1) + 0 * b, "needs b > 1", ("expand",))],
                  domains={"b": Domain("real", 2, 100)}, given=(sp.Q.gt(b, 1),))  # fmt: skip
    assert claim.verify().ok


def test_conjugates_survive_numeric_evaluation():
    claim = ident([Step(z * sp.conjugate(z), sp.Abs(z) ** 2, "|z|^2", ("expand_complex",))])
    assert claim.verify().ok
    assert not claim.with_rhs(z**2).verify().ok


def test_regression_identity_is_called_theorem_and_the_old_name_still_works():
    # Identity held inequalities too (<=, <): the class is Theorem; code written against Identity keeps working
    from posproof.symbolic.engine import core

    import posproof

    with pytest.warns(DeprecationWarning, match="Theorem"):
        assert core.Identity is core.Theorem
    with pytest.warns(DeprecationWarning):
        assert posproof.Identity is posproof.Theorem


def test_regression_log_sides_names_its_own_condition():
    # the fragment would refuse log(x) of a real x too; the side strategy says first why it does not apply
    step = Step(x, x + 1, "logs", ("log_sides", "expand"), "<")
    assert "log_sides needs both sides proved positive" in step.symbolic_problem(())
