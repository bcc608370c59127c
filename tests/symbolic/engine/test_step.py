r"""A step (symbolic/engine/step.py): an order relation is proved only between sides the symbolic line proves real."""

import sympy as sp
from posproof.symbolic import Step, Theorem
from posproof.symbolic.engine.maximum import Maximum

x = sp.Symbol("x", real=True)
z = sp.Symbol("z")  # any number, even infinite: Abs(z) is not proved real
n = sp.Symbol("n", integer=True, positive=True)
i = sp.Symbol("i", integer=True)
f, c = sp.IndexedBase("f", real=True), sp.IndexedBase("c", complex=True)


def claim(step: Step, **kw) -> Theorem:
    return Theorem("test-step", "t", "test", "test", (step,), rel=step.rel, **kw)


def test_regression_an_order_relation_between_complex_sides_is_not_proved():
    # the imaginary part x sin(x / 10^45) is below any numeric tolerance: only the symbolic line can tell
    tiny = x * sp.exp(sp.I * x / 10**45)
    step = Step(tiny, tiny + 1, "a number is at most itself plus 1", ("expand",), "<=")
    assert not step.check_symbolic()
    assert "left side" in step.symbolic_problem() and "not proved real" in step.symbolic_problem()
    res = claim(step).verify()
    assert res.symbolic is False and not res.ok
    # the real part is real: the same claim about it is proved
    real = Step(sp.re(tiny), sp.re(tiny) + 1, "the real part", ("expand",), "<=")
    assert real.check_symbolic() and real.symbolic_problem() == ""
    assert claim(real).verify().ok


def test_regression_a_rope_score_with_its_real_part_forgotten_is_not_ordered():
    q, k = sp.Symbol("q", complex=True), sp.Symbol("k", complex=True)  # complex pairs of a query and a key
    m, theta = sp.Symbol("m", integer=True), sp.Symbol("theta", positive=True)
    score = q * sp.conjugate(k) * sp.exp(sp.I * m * theta)
    bias = sp.Symbol("b", positive=True)
    for rel, (lhs, rhs) in (("<=", (score, score + bias)), ("<", (score, score + bias)), (">", (score + bias, score))):
        step = Step(lhs, rhs, "plus a positive bias", ("expand",), rel)
        assert not step.check_symbolic() and "not proved real" in step.symbolic_problem(), rel
    assert Step(sp.re(score), sp.re(score) + bias, "Re", ("expand",), "<").check_symbolic()
    assert Step(sp.Abs(score), sp.Abs(score) + bias, "|.|", ("expand",), "<").check_symbolic()


def test_regression_realness_may_come_from_given_and_sums_are_judged_bound():
    step = Step(z, z + 1, "z is real by hypothesis", ("expand",), "<")
    assert not step.check_symbolic()
    assert step.check_symbolic((sp.Q.real(z),))
    assert Step(sp.Integer(0), x**2, "a square", ("expand",), "<=").check_symbolic()
    real_sum = sp.Sum(f[i] ** 2, (i, 0, n - 1))
    assert Step(sp.Integer(0), real_sum, "squares", ("expand",), "<=").check_symbolic()
    complex_sum = sp.Sum(c[i], (i, 0, n - 1))
    step = Step(complex_sum, complex_sum + 1, "complex terms", ("expand",), "<=")
    assert "not proved real" in step.symbolic_problem()
    top = Maximum(sp.Abs(c[i]), (i, 0, n - 1))
    assert Step(sp.Integer(0), top, "a maximum of moduli", ("expand",), "<=").check_symbolic()
    top_complex = Maximum(c[i], (i, 0, n - 1))
    assert "not proved real" in Step(top_complex, top_complex, "c", ("expand",), "<=").symbolic_problem()


def test_a_failed_step_says_why():
    assert "does not reduce the difference to 0" in Step(x, x + 1, "no", ("expand",)).symbolic_problem()
    assert "not proved nonnegative" in Step(x, x**2, "no", ("expand",), "<=").symbolic_problem()
    assert "not proved positive" in Step(x, x, "no", ("expand",), "<").symbolic_problem()
    assert "side strategy" in Step(-x, x, "no", ("log_sides", "expand"), "<").symbolic_problem()
    assert Step(x, x, "yes", ("expand",)).symbolic_problem() == ""
