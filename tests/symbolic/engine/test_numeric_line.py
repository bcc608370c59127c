r"""The numeric line honours every declaration and hypothesis: default domains never contradict a symbol's
assumptions, ``given`` facts restrict (and narrow) the draws or are refused, finite products evaluate, a point
whose sums are too long is drawn again, and a disagreement names its first point."""

import itertools
import json
import random
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from posproof.numeric.formatting import exact_value, show
from posproof.symbolic.engine import settings
from posproof.symbolic.engine.core import Domain, Step
from posproof.symbolic.engine.domains import holds
from posproof.symbolic.engine.numeric_line import _given_plan, numeric_check, size_combinations
from posproof.symbolic.engine.results import NumericResult, StepResult

x, y = sp.symbols("x y", real=True)
z = sp.Symbol("z")  # complex
n = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True)
i = sp.Symbol("i", integer=True)


def check(lhs, rhs, rel="=", given=(), sizes=None, domains=None):
    r"""The numeric line of ``lhs rel rhs`` (default domains unless ``domains`` names some), as the claims run it."""
    domains = domains or {}
    step = Step(lhs, rhs, "test", ("identity",), rel)
    rng = random.Random(f"{settings.SEED}:test")
    return numeric_check(step, 50, size_combinations(sizes or {}), lambda a: domains.get(str(a)) or Domain.of(a), rng,
                         tuple(given))  # fmt: skip


def drawn(dom: Domain, count: int = 12) -> list:
    r"""A domain's edges, ``count`` plain draws and ``count // 3`` far draws, at 75 digits."""
    rng = random.Random(1)
    with mpmath.workdps(75):
        return [*dom.edge_values(), *(dom.draw(rng, 256) for _ in range(count)),
                *(dom.draw_far(rng, 256) for _ in range(count // 3))]  # fmt: skip


def exact(v) -> sp.Expr:
    r"""A drawn value as the exact SymPy number it is (an mpf is a dyadic rational), to ask SymPy its assumptions."""

    def rational(r) -> sp.Rational:
        m, e = mpmath.mpf(r).man_exp  # |r| = m 2^e
        f = (Fraction(int(m) * 2 ** int(e)) if e >= 0 else Fraction(int(m), 2 ** int(-e))) * (-1 if r < 0 else 1)
        return sp.Rational(f.numerator, f.denominator)

    w = mpmath.mpmathify(v)
    if isinstance(w, mpmath.mpc):
        return rational(w.real) + sp.I * rational(w.imag)
    return rational(w)


def contradicted(sym, values) -> list:
    r"""The (assumption, value) pairs among ``values`` where SymPy, asked of the exact number, denies ``sym``'s
    assumption: the check is SymPy's, independent of the engine's own rule (:func:`holds`)."""
    bad = []
    for v in values:
        e = exact(v)
        for name, want in sym.assumptions0.items():
            got = getattr(e, f"is_{name}")
            if got is not None and got != want:
                bad.append((name, want, v))
    return bad


# ---- every default domain honours every declaration ------------------------------------------------------------------

_TRUE = ["integer", "real", "extended_real", "complex", "imaginary", "positive", "negative", "nonnegative",
         "nonpositive", "nonzero", "zero", "even", "odd", "prime", "composite", "noninteger", "rational",
         "extended_positive", "extended_negative", "extended_nonnegative", "extended_nonpositive", "extended_nonzero",
         "hermitian", "antihermitian", "finite", "algebraic"]  # fmt: skip
_FALSE = ["real", "integer", "positive", "negative", "zero", "nonzero", "even", "odd", "imaginary", "prime",
          "nonnegative"]  # fmt: skip


def _declarations():
    r"""Every consistent declaration of up to three assumptions from the lists, once per distinct set of facts."""
    options = [(a, True) for a in _TRUE] + [(a, False) for a in _FALSE]
    seen = {}
    for size in range(4):
        for combo in itertools.combinations(options, size):
            kw = dict(combo)
            if len(kw) < size:  # the same assumption twice
                continue
            try:
                sym = sp.Symbol("s", **kw)
            except ValueError:  # inconsistent
                continue
            seen.setdefault(tuple(sorted(sym.assumptions0.items())), sym)
    return list(seen.values())


#: Exact numbers to witness that a declaration can be satisfied (by SymPy's judgement of each).
_WITNESSES = [sp.Integer(v) for v in (0, 1, -1, 2, -2, 3, -3, 4, -4, 9, -9)] + [
    sp.Rational(1, 2),
    -sp.Rational(1, 2),
    sp.I,
    -sp.I,
    2 * sp.I,
    1 + sp.I,
    -1 - sp.I,
]


def _satisfiable(sym) -> bool:
    return any(all(getattr(e, f"is_{a}") == want for a, want in sym.assumptions0.items()) for e in _WITNESSES)


def test_no_default_domain_contradicts_an_assumption():
    declarations = _declarations()
    assert len(declarations) > 500
    refused = 0
    for sym in declarations:
        try:
            dom = Domain.of(sym)
        except ValueError as e:  # only what no finite number satisfies (SymPy finds no witness: infinite,
            assert "cannot honour" in str(e)  # irrational, or inconsistent in a way SymPy does not see)
            assert not _satisfiable(sym), sym.assumptions0
            refused += 1
            continue
        values = drawn(dom)
        assert values, sym.assumptions0
        assert not contradicted(sym, values), (sym.assumptions0, contradicted(sym, values)[:3])
        # the engine's own rule agrees with SymPy on what it drew
        assert all(holds(a, v) == want for v in values for a, want in sym.assumptions0.items()), sym.assumptions0
    assert refused < len(declarations) // 5


@pytest.mark.parametrize(
    ("kw", "test"),
    [
        (dict(negative=True), lambda v: v < 0),
        (dict(nonpositive=True), lambda v: v <= 0),
        (dict(nonzero=True), lambda v: v != 0),
        (dict(integer=True, negative=True), lambda v: v < 0 and mpmath.isint(v)),
        (dict(integer=True, nonpositive=True), lambda v: v <= 0 and mpmath.isint(v)),
        (dict(integer=True, nonzero=True), lambda v: v != 0 and mpmath.isint(v)),
        (dict(integer=True, nonzero=True, even=True), lambda v: v != 0 and int(v) % 2 == 0),
        (dict(odd=True, negative=True), lambda v: v < 0 and int(v) % 2 == 1),
        (dict(prime=True), lambda v: sp.isprime(int(v))),
        (dict(imaginary=True), lambda v: mpmath.re(v) == 0 and mpmath.im(v) != 0),
        (dict(extended_negative=True), lambda v: mpmath.im(v) == 0 and mpmath.re(v) < 0),
        (dict(real=False), lambda v: mpmath.im(v) != 0),
    ],
)
def test_regression_declared_sign_and_kind_ignored_by_the_draws(kw, test):
    values = drawn(Domain.of(sp.Symbol("s", **kw)), 60)
    assert values and all(test(v) for v in values), [v for v in values if not test(v)][:3]


def test_indexed_bases_and_entries_honour_their_assumptions():
    for kw in (dict(positive=True), dict(negative=True), dict(integer=True, nonzero=True), dict(nonpositive=True)):
        a = sp.IndexedBase("a", **kw)
        for atom in (a, a[i]):
            values = drawn(Domain.of(atom))
            assert values and not contradicted(a.label, values), (kw, atom)


def test_default_domains_unchanged_where_they_already_honoured_the_assumptions():
    # the catalogue's draws for the common declarations stay as they were
    assert Domain.of(x) == Domain("real", -1e6, 1e6, log=True, edges=(0, 1, -1), far=1e12)
    assert Domain.of(n) == Domain("integer", 1, 2**24, log=True, edges=(1, 2), far=2**53)
    assert Domain.of(k) == Domain("integer", -(2**24), 2**24, log=True, edges=(0, 1, -1, 2), far=2**53)
    assert Domain.of(sp.Symbol("b", positive=True)) == Domain("real", 1e-6, 1e6, log=True, edges=(1,), far=1e12)


def test_an_assumption_no_drawn_value_can_satisfy_is_refused():
    for kw in (dict(irrational=True), dict(transcendental=True), dict(real=True, rational=False)):
        with pytest.raises(ValueError, match="cannot honour"):
            Domain.of(sp.Symbol("s", **kw))
    with pytest.raises(ValueError, match="facts"):
        Domain("real", facts=(("shiny", True),))


def test_regression_negative_symbol_drawn_with_both_signs():
    v = sp.Symbol("v", negative=True)
    r = check(sp.Pow(v**2, sp.S.Half, evaluate=False), -v)  # true for v < 0 only
    assert r.status == "agree" and r.points == settings.NUMERIC_POINTS, r
    w = sp.Symbol("w", nonzero=True)
    r = check(sp.Abs(w) / w**2, 1 / sp.Abs(w))  # infinite at w = 0, never drawn
    assert r.status == "agree" and r.points == settings.NUMERIC_POINTS, r


# ---- given facts restrict and narrow the draws -----------------------------------------------------------------------


def test_regression_given_real_of_a_complex_symbol_rejected_every_point():
    r = check(sp.sqrt(z**2), sp.Abs(z), given=[sp.Q.real(z)])
    assert r.status == "agree" and r.points == settings.NUMERIC_POINTS, r


@pytest.mark.parametrize(
    ("lhs", "rhs", "fact"),
    [
        (sp.cos(2 * sp.pi * x), sp.Integer(1), sp.Q.integer(x)),
        (sp.sqrt(x**2), x, sp.Q.positive(x)),
        (sp.sqrt(x**2), -x, sp.Q.nonpositive(x)),
        ((-1) ** k, sp.Integer(1), sp.Q.even(k)),
        ((-1) ** k, sp.Integer(-1), sp.Q.odd(k)),
        (sp.sqrt(x**2), x, sp.Q.gt(x, 0)),
        (sp.sqrt(x**2), x, x >= 0),
        (sp.Abs(z), -sp.I * z, sp.Q.imaginary(z) & sp.Q.positive(-sp.I * z)),
    ],
)
def test_a_fact_about_a_bare_symbol_narrows_its_domain(lhs, rhs, fact):
    r = check(lhs, rhs, given=[fact])
    assert r.status == "agree" and r.points == settings.NUMERIC_POINTS, (fact, r)
    assert check(lhs, rhs + 1, given=[fact]).status == "disagree"


def test_expression_facts_are_checked_at_every_point():
    r = check(sp.Max(x, y), x, given=[sp.Q.positive(x - y)])
    assert r.status == "agree" and r.points > 0, r
    # a fact tying a symbol the step does not have: x > y > 0 makes x positive
    r = check(sp.sqrt(x**2), x, given=[sp.Q.gt(x, y), sp.Q.positive(y)])
    assert r.status == "agree" and r.points > 0, r
    # a fact about symbols the step neither has nor is tied to does not restrict it
    u = sp.Symbol("u", real=True)
    root = sp.Pow(x**2, sp.S.Half, evaluate=False)
    assert check(root, sp.Abs(x), given=[sp.Q.positive(u)]).points == settings.NUMERIC_POINTS
    # facts about sizes are read at each size
    d = sp.Symbol("d", integer=True, positive=True)
    r = check(sp.Sum(1, (i, 1, d)), d, sizes={d: (2, 3, 4)}, given=[sp.Q.even(d)])
    assert r.status == "agree", r


def test_real_of_an_expression_means_an_imaginary_part_exactly_zero():
    # x e^{i x / 10^45} is real only at x = 0: its imaginary part is far below any tolerance, but not 0
    g = _given_plan((sp.Q.real(x * sp.exp(sp.I * x / 10**45)),), {}, [x], Domain.of)
    with mpmath.workdps(75):
        assert g.check(mpmath.mpf(0)) and not g.check(mpmath.mpf(3))
    # an order relation between sides that are not real holds nowhere
    g = _given_plan((sp.Q.gt(z, 0),), {}, [z], Domain.of)
    assert g.domains[0].kind == "real"  # and it narrows z to the reals
    with mpmath.workdps(75):
        assert not g.check(mpmath.mpc(1, 1e-60)) and g.check(mpmath.mpf(2))


def test_facts_contradicting_the_declarations_leave_no_point():
    r = check(n, n + 1, given=[sp.Q.negative(n)])
    assert r.status == "identical" and r.points == 0, r


@pytest.mark.parametrize(
    "fact",
    [
        sp.Q.positive(sp.IndexedBase("a")[i]),
        sp.Q.positive(sp.Function("f")(x)),
        sp.Q.rational(x),
        sp.Q.positive(sp.Sum(x, (i, 1, 3))),
        sp.Q.prime(x) | sp.Q.transcendental(x),
    ],
)
def test_regression_given_facts_the_numeric_line_cannot_check_were_ignored(fact):
    with pytest.raises(ValueError, match="cannot honour the given fact"):
        check(x, x + 1, given=[fact])
    with pytest.raises(ValueError, match="cannot honour the given fact"):  # even where nothing is evaluated
        check(x, x, given=[fact])


# ---- products, long sums, the first disagreeing point ----------------------------------------------------------------


def test_regression_finite_products_not_evaluated():
    r = check(sp.Product(2, (i, 1, n)), 2**n)
    assert r.status == "agree" and r.points == settings.NUMERIC_POINTS, r
    assert check(sp.Product(i, (i, 1, n)), n**2).status == "disagree"
    assert check(sp.Product(i + 1, (i, 0, n - 1)), sp.factorial(n)).status == "agree"
    # nested and empty: the product over 1..0 is 1
    m = sp.Symbol("m", integer=True, nonnegative=True)
    j = sp.Symbol("j", integer=True)
    r = check(sp.Product(sp.Product(2, (j, 1, i)), (i, 1, m)), 2 ** (m * (m + 1) / 2), sizes={m: (0, 1, 3)})
    assert r.status == "agree", r


def test_regression_sum_limit_drawn_halves_the_points():
    r = check(sp.Sum(i, (i, 1, n)), n * (n + 1) / 2)  # no sizes: n is drawn up to 2^53
    assert r.status == "agree" and r.points == settings.NUMERIC_POINTS, r


def test_a_disagreement_names_its_first_point():
    r = check(x**2, x**2 + x)
    assert r.status == "disagree" and r.point is not None and set(r.point) == {"x"}
    assert r.sides is not None and r.sides[0] != r.sides[1]
    assert "x = " in r.describe_point() and "lhs = " in r.describe_point()
    out = StepResult(0, False, r).as_dict()
    assert out["point"]["at"] == dict(r.point) and out["point"]["lhs"] == r.sides[0]
    json.dumps(out)
    # table entries drawn are named by their IndexedBase
    a = sp.IndexedBase("a", real=True)
    r = check(sp.Sum(a[i], (i, 0, 2)), a[0] + a[1], sizes={})
    assert r.status == "disagree" and any(key.startswith("a[") for key in r.point), r.point
    # a difference far down the digits is shown with digits enough to see it
    r = check(x, x + x * sp.Rational(1, 10**30) + sp.Rational(1, 10**30))
    assert r.status == "disagree" and r.sides[0] != r.sides[1], r.sides


def test_numeric_results_stay_backward_compatible():
    r = NumericResult("agree", 3, 0.0)
    assert r.point is None and r.sides is None and r.describe_point() == ""
    assert "point" not in StepResult(0, True, r).as_dict()
    assert check(x**2, x * x).point is None


# ---- NumPy values reach readers and comparisons exactly --------------------------------------------------------------


def test_exact_value_turns_numpy_into_python_and_mpmath():
    assert exact_value(np.int64(3)) == 3 and type(exact_value(np.int64(3))) is int
    assert type(exact_value(np.bool_(True))) is bool and type(exact_value(np.float32(0.5))) is float
    assert exact_value(np.float32(0.1)) == float(np.float32(0.1))  # the float32 value, not 0.1
    assert exact_value(np.array(2.5)) == 2.5 and type(exact_value(np.array(7))) is int
    assert exact_value(np.arange(4).reshape(2, 2)) == [[0, 1], [2, 3]]
    assert exact_value((np.int8(1), [np.float16(0.5)], {"a": np.complex64(1j)})) == (1, [0.5], {"a": 1j})
    third = np.longdouble(1) / 3
    if np.finfo(np.longdouble).nmant > 52:  # an extended longdouble: kept exactly, not rounded to a float
        p, q = third.as_integer_ratio()
        m, e = exact_value(third).man_exp
        assert Fraction(int(m), 2 ** int(-e)) == Fraction(p, q)
    with pytest.raises(ValueError, match="dtype"):
        exact_value(np.array(["a"]))


def test_show_accepts_numpy_scalars_and_arrays():
    assert show(np.float32(0.1)) == "0.1"
    assert show(np.array([[1, 2], [3, 4]], dtype=np.int8)) == "[[1, 2], [3, 4]]"
    assert show(np.array(np.nan)) == "nan" and show(np.bool_(False)) == "False"
    assert show({"v": np.complex128(1 - 2j)}) == "{v: 1 - 2i}"
    assert show(np.str_("text")) == "text"


def test_free_symbols_of_a_step_are_sympys_without_the_tables_labels():
    from posproof.symbolic.engine.numeric_line import _free_symbols

    a = sp.IndexedBase("a")
    j = sp.Symbol("j", integer=True)
    f = sp.Function("f")
    e = (sp.Sum(a[i] * x**j, (i, 0, n), (j, 0, i + n)) + j + a[n] * sp.Symbol("a") + sp.Derivative(sp.sin(x * y), x)
         + sp.Abs(f(k)))  # fmt: skip
    bases = {a: sp.IndexedBase("_T0")}
    expected = {s for s in e.xreplace(bases).free_symbols if isinstance(s, sp.Symbol)} - {sp.Symbol("_T0")}
    assert {s for s in _free_symbols(e, bases, {}) if isinstance(s, sp.Symbol)} == expected


def test_sizes_substituted_as_subs_does_even_where_it_differs_from_xreplace():
    from posproof.symbolic.engine.numeric_line import _at_sizes

    d = sp.Symbol("d", integer=True, positive=True)
    plain = sp.Sum(sp.Abs(x * i - d), (i, 0, d - 1)) + d**2
    bound = d + sp.Sum(x**d, (d, 0, 2))  # d bound inside the sum: subs leaves it alone, xreplace would not
    derivative = sp.Derivative(sp.sin(d * x), x) + sp.Derivative(sp.sin(d * x), d)
    for e in (plain, bound, derivative, sp.ImmutableMatrix([[d, x * d]])):
        assert _at_sizes(e, {d: 3}) == e.subs({d: 3})


def test_a_kernel_runs_once_per_point_for_each_distinct_call():
    from posproof.symbolic.engine.kernel import Kernel

    class Counted(Kernel):
        r"""Counts the calls of its code, at each argument."""

        nargs = 1
        calls: list = []

        @classmethod
        def numeric(cls, v):
            cls.calls.append(v)
            return v

        def doit(self, **hints):
            return self.args[0]

    # the left side calls it at x twice and at y once, its scale of terms at x twice and y once again: at most two
    # runs per point (one where x = y), not six
    result = check(Counted(x) * Counted(y) + Counted(x), x * y + x)
    assert result.status == "agree"
    assert 0 < len(Counted.calls) <= 2 * result.points
