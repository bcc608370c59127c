r"""The fragment (posproof.symbolic.engine.fragment): every construct it lists is accepted under its condition and
refused outside it, in one line naming the construct; a class it does not list is refused; claims are checked when
built; docs/soundness.md is the list as the code holds it."""

from __future__ import annotations

import pytest
import sympy as sp
from posproof.symbolic import Definition, Fact, Kernel, Step, Theorem
from posproof.symbolic.engine import fragment
from posproof.symbolic.engine.maximum import Maximum
from posproof.symbolic.engine.permutation import PermutationMap
from posproof.symbolic.engine.strategies import bind

x, y = sp.symbols("x y", real=True)
a = sp.Symbol("a", positive=True)
z = sp.Symbol("z")
n = sp.Symbol("n", integer=True, positive=True)
i = sp.Symbol("i", integer=True)
k = sp.Symbol("k", integer=True)
q = sp.IndexedBase("q", real=True)


def refused(e, given=()) -> str:
    return fragment.refusal(bind(e, given), given=given)


ACCEPTED = {
    "polynomial": x**3 - 2 * x * y + sp.Rational(1, 3),
    "trig and exp": sp.sin(x) * sp.cos(y) + sp.exp(sp.I * x),
    "log of a positive": sp.log(a * 2),
    "a real power of a positive base": a ** (x / 3),
    "a quotient by a nonzero": 1 / (x**2 + 1) + 1 / a,
    "modulus and parts": sp.Abs(z) + sp.re(z) - sp.im(z) * sp.conjugate(z),
    "Max of reals": sp.Max(x, y) - sp.Min(x, 0) + sp.floor(x) + sp.ceiling(y),
    "Piecewise": sp.Piecewise((x, x < y), (y, True)),
    "finite Sum": sp.Sum(q[i] * sp.cos(i * x), (i, 0, n - 1)),
    "finite Product": sp.Product(1 + q[i] ** 2, (i, 1, n)),
    "Maximum": Maximum(sp.Abs(q[i]), (i, 0, n - 1)),
    "matrix algebra": sp.MatMul(sp.MatrixSymbol("A", 2, 2), sp.MatrixSymbol("B", 2, 2)),
    "explicit matrix": sp.ImmutableMatrix([[x, y], [sp.sin(x), 1]]),
    "Derivative of a smooth function": sp.Derivative(sp.sin(x) * sp.exp(x**2), x),
    "PermutationMap": sp.Sum(q[PermutationMap(n, i)], (i, 0, n - 1)),
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_construct_is_accepted(name):
    assert refused(ACCEPTED[name]) == ""


#: (expression, a word the refusal must name)
REFUSED = {
    "Float": (sp.Float("0.5") * x, "absorbs a Float at 15 digits"),
    "tan": (sp.tan(x), "tan"),
    "KroneckerDelta": (sp.KroneckerDelta(i, k), "KroneckerDelta"),
    "binomial": (sp.binomial(n, 2), "binomial"),
    "Mod": (sp.Mod(n, 7), "Mod"),
    "Heaviside": (sp.Heaviside(x), "Heaviside"),
    "sign": (sp.sign(x), "sign"),
    "Integral": (sp.Integral(x, (x, 0, 1)), "Integral"),
    "undefined function": (sp.Function("f")(x), "undefined function"),
    "infinite sum": (
        sp.Sum(
            1 / sp.Symbol("j", integer=True, positive=True) ** 2,
            (sp.Symbol("j", integer=True, positive=True), 1, sp.oo),
        ),
        "infinite",
    ),
    "log of a complex": (sp.log(z), "log"),
    "complex base, fractional power": (sp.sqrt(z), "power"),
    "Max of a complex": (sp.Max(z, 1), "Max"),
    "Piecewise without otherwise": (sp.Piecewise((x, x > 0)), "Piecewise"),
    "Maximum of complex terms": (Maximum(sp.I * q[i], (i, 0, 3)), "Maximum"),
    "Maximum at a real index": (
        Maximum(
            -((sp.Symbol("u", real=True) - sp.Rational(1, 2)) ** 2),
            (sp.Symbol("u", real=True), sp.Rational(1, 2), sp.Rational(7, 2)),
        ),
        "Maximum",
    ),
    "derivative at a kink": (sp.Derivative(sp.Max(x, 0), x), "smooth"),
    "derivative of |x|": (sp.Derivative(sp.Abs(x), x), "smooth"),
    "derivative of floor": (sp.Derivative(sp.floor(x), x), "smooth"),
    "noncommutative symbol": (sp.Symbol("A", commutative=False) * x, "noncommutative"),
    "extended real symbol": (sp.Symbol("w", extended_real=True) + 1, "infinite"),
    "infinity": (x + sp.oo, "infinite"),
    "quotient by what may be 0": (1 / (x - y), "not proved nonzero"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_construct_is_refused_by_name(name):
    e, word = REFUSED[name]
    reason = refused(e)
    assert word in reason, reason
    assert "\n" not in reason


def test_a_class_not_listed_is_refused_even_a_subclass_of_one_listed():
    class mysin(sp.sin):  # a subclass of an accepted function: its rewrites are not sin's
        pass

    assert "mysin is not in the fragment" in refused(mysin(x))


def _kernel(name, body, code, **attrs):
    def doit(self, **hints):
        return body(*self.args)

    return type(name, (Kernel,), {"nargs": 1, "doit": doit, "numeric": classmethod(lambda cls, v: code(v)), **attrs})


def test_regression_kernel_class_assumptions_are_proved_from_the_definition():
    lying = _kernel("Lying", lambda v: v - 1, lambda v: v - 1, is_nonnegative=True)
    honest = _kernel("Honest", lambda v: v**2, lambda v: v**2, is_nonnegative=True)
    assert "declares nonnegative" in refused(lying(x))
    assert refused(honest(x)) == ""


def test_regression_kernel_without_code_or_with_eval_is_refused():
    nocode = type("NoCode", (Kernel,), {"nargs": 1, "doit": lambda self, **h: self.args[0]})
    assert "needs both faces" in refused(nocode(x))
    evals = _kernel("Evals", lambda v: v, lambda v: v, _eval_is_positive=lambda self: True)
    assert "_eval_is_positive" in refused(evals(x))


def test_regression_kernel_definition_may_not_evaluate_a_symbolic_sum():
    j = sp.Symbol("j", integer=True, nonnegative=True)
    closed = _kernel("Closed", lambda m: sp.Sum((-1) ** j * sp.binomial(m, j), (j, 0, m)).doit(), lambda m: 0)
    assert "symbolic limits" in refused(closed(n))


def test_regression_kernel_definition_is_in_the_fragment():
    floaty = _kernel("Floaty", lambda v: sp.Float("0.5") * v, lambda v: v / 2)
    assert "Float" in refused(floaty(x))


def test_regression_permutation_subclass_that_overrides_its_code_is_refused():
    class sigma(PermutationMap):
        pass

    class squash(PermutationMap):
        @classmethod
        def numeric(cls, size, index):
            return 0

    assert refused(sp.Sum(q[sigma(n, i)], (i, 0, n - 1))) == ""
    assert "overrides numeric" in refused(sp.Sum(q[squash(n, i)], (i, 0, n - 1)))


def test_given_facts_the_numeric_line_cannot_honour_are_refused():
    assert fragment.given_refusal((sp.Q.positive(x), sp.Gt(x, y))) == ""
    assert "prime" in fragment.given_refusal((sp.Q.prime(n),))


def test_proved_real_uses_the_form_of_the_expression():
    m = sp.Symbol("m", real=True)
    w = sp.Symbol("w")
    assert fragment.proved_real(sp.re(w * sp.conjugate(z) * sp.exp(sp.I * m)))
    assert fragment.proved_real(sp.Max(x, y) / (x - y))
    assert not fragment.proved_real(m * sp.exp(sp.I * m / 10**45))


def _theorem(lhs, rhs, strategy=("expand",), rel="=", **kw):
    step = Step(lhs, rhs, "why", strategy, rel)
    return Theorem("user", "a user's claim", "test", "a user", (step,), rel=rel, **kw)


def test_a_claim_outside_the_fragment_is_refused_when_built_naming_claim_part_and_construct():
    with pytest.raises(ValueError, match=r"'user', steps\[0\]\.lhs: tan\(x\): tan is not in the fragment"):
        _theorem(sp.tan(x), sp.sin(x) / sp.cos(x))


def test_regression_sizes_keyed_by_a_name_or_a_foreign_symbol_are_refused():
    d = sp.Symbol("d", integer=True, positive=True)
    with pytest.raises(ValueError, match="sizes must be keyed by SymPy symbols"):
        _theorem(x + x, 2 * x, sizes={"d": (2, 4)})
    with pytest.raises(ValueError, match=r"sizes\[d\]: d is not a symbol of the claim"):
        _theorem(x + x, 2 * x, sizes={d: (2, 4)})


def test_regression_source_none_is_refused_when_built():
    with pytest.raises(ValueError, match="source must be a"):
        Theorem("user", "t", "test", None, (Step(x + x, 2 * x, "why"),))


def test_regression_definition_without_a_kernel_is_refused():
    with pytest.raises(ValueError, match="a Definition defines code"):
        Definition("user-def", "t", "test", "a user", sp.Mod(n, 2**60), n, "by definition", "nothing")


def _fact(value, wrong, method="exact integer arithmetic"):
    return Fact("user-fact", "t", "test", "a user", "a count", 4, lambda dps: (value, []), method, wrong=wrong)


def test_regression_fact_whose_wrong_computation_reproduces_the_claim_fails():
    result = _fact(4, lambda dps: (4, [])).verify()
    assert not result.ok and "wrong computation reproduces the claim" in result.detail
    assert _fact(4, lambda dps: (5, [])).verify().ok


def test_regression_fact_needs_a_wrong_computation():
    with pytest.raises(ValueError, match="needs wrong"):
        Fact("user-fact", "t", "test", "a user", "a count", 4, lambda dps: (4, []), "exact")


def test_regression_float64_value_said_computed_with_mpmath_fails():
    f = Fact("user-fact", "t", "test", "a user", "a half", 0.5, lambda dps: (0.5, []), "mpmath at {dps} digits",
             wrong=lambda dps: (0.25, []))  # fmt: skip
    result = f.verify()
    assert not result.ok and "float64" in result.detail


def test_every_catalogue_expression_is_in_the_fragment():
    from posproof.symbolic import registry

    assert len(registry.all()) > 100  # every claim built: each was checked against the fragment when built


def test_a_quotient_is_accepted_once_given_states_its_denominator_nonzero():
    assert "not proved nonzero" in refused(1 / (x - y))
    assert refused(1 / (x - y), given=(sp.Q.ne(x, y),)) == ""
    d = sp.Symbol("d", integer=True, positive=True, even=True)
    assert refused(d / (d - 2), given=(sp.Q.gt(d, 2),)) == ""  # a relation read as the sign of the difference


def test_a_given_sign_fact_decides_by_a_change_of_variables():
    p = sp.Symbol("p", integer=True, nonnegative=True)
    v = sp.Symbol("v", integer=True, positive=True)
    assert "not proved nonzero" in refused(1 / sp.log(p + v))  # p + v may be 1
    assert refused(1 / sp.log(p + v), given=(sp.Q.positive(p + v - 1),)) == ""
    assert refused(1 / (y - x), given=(sp.Q.lt(x, y),)) == ""
    assert fragment.proved_real(sp.log(y - x), (sp.Q.gt(y, x),))


def test_regression_a_change_of_variables_keeps_the_sign_of_the_given_fact():
    p = sp.Symbol("p", integer=True, nonnegative=True)
    v = sp.Symbol("v", integer=True, positive=True)
    # given p + v - 1 < 0 (v = 1 - p - w, w > 0) leaves log(p + v) undefined or 0: never proved positive
    assert not fragment.proved_real(sp.log(p + v - 1), (sp.Q.negative(p + v - 1),))
    assert "not proved nonzero" in refused(1 / (x - y), given=(sp.Q.nonnegative(x - y),))  # x = y allowed
    # 2x - z > 0 does not give x - z > 0 (x = 1, z = 3/2): x is (w + z)/2, not 2(w + z)
    z = sp.Symbol("z", positive=True)
    assert refused(1 / (2 * x - z), given=(sp.Q.positive(2 * x - z),)) == ""
    assert not fragment.proved_real(sp.log(x - z), (sp.Q.positive(2 * x - z),))


def test_regression_domains_under_a_foreign_name_or_against_the_declaration_are_refused():
    from posproof.symbolic import Domain

    with pytest.raises(ValueError, match=r"domains\['y'\]: the claim has no symbol"):
        _theorem(sp.Min(a, 10**9), a, ("identity",), domains={"y": Domain("real", 0, 1)})
    with pytest.raises(ValueError, match=r"domains\['a'\] disagrees with the declaration of a"):
        _theorem(sp.Min(a, 1), a, ("identity",), domains={"a": Domain("real", -5, sp.Rational(1, 2))})


def test_regression_given_facts_that_contradict_or_name_another_symbol_are_refused():
    with pytest.raises(ValueError, match="contradicts the declarations"):
        _theorem(sp.Integer(0), -a, ("identity",), rel="<", given=(sp.Q.negative(a),))
    with pytest.raises(ValueError, match="contradicts the declarations and the other given facts"):
        _theorem(x, x - 1, ("identity",), rel="<", given=(sp.Q.gt(x, 1), sp.Q.lt(x, 0)))
    with pytest.raises(ValueError, match="which the claim does not have"):
        _theorem(sp.Integer(0), x, ("identity",), rel="<", given=(sp.Q.positive(sp.Symbol("x")),))


def test_regression_kernel_finite_sum_is_written_out_never_closed_by_sympy():
    j = sp.Symbol("j", integer=True)
    # SymPy closes Σ_{j=0}^{3} δ(j, v) to 1 for 0 <= v <= 3, false for every non-integer v; written out, the deltas
    # are there to be refused
    delta_sum = _kernel("DeltaSum", lambda v: sp.Sum(sp.KroneckerDelta(j, v), (j, 0, 3)).doit(), lambda v: 0)
    assert "KroneckerDelta" in refused(delta_sum(x))
    squares = _kernel("Squares", lambda v: sp.Sum(v * j**2, (j, 0, 3)).doit(), lambda v: 14 * v)
    assert refused(squares(x)) == "" and fragment.definition(squares(x)) == 14 * x


def test_regression_a_refused_definition_inside_a_condition_is_a_refusal_not_a_crash():
    j = sp.Symbol("j", integer=True, nonnegative=True)
    closed = _kernel("ClosedIndex", lambda m: sp.Sum(j, (j, 0, m)).doit(), lambda m: m * (m + 1) / 2)
    assert "not proved real" in refused(q[closed(n)])
    assert "not proved smooth" in refused(sp.Derivative(closed(x), x))
