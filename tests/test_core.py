r"""The verification core itself: every check can fail, and failures are reported, never raised."""

import json

import pytest
import sympy as sp

from symbolic.core import Domain, Fact, Identity, Step, reduce_difference

x, y = sp.symbols("x y", real=True)
h = sp.Symbol("h", integer=True, positive=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
q = sp.IndexedBase("q", real=True)


def ident(steps, **kw):
    return Identity("t", "test", "test", "test", tuple(steps), **kw)


def test_symbolic_and_numeric_checks_fail_independently():
    # sin(x)^2 vs 1 - cos(x)^2: true, but 'expand' alone cannot show it -> symbolic fails, numeric passes.
    r = ident([Step(sp.sin(x) ** 2, 1 - sp.cos(x) ** 2, "Pythagoras", ("expand",))]).verify()
    assert not r.ok and r.steps[0].numeric_ok and not r.steps[0].symbolic
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
    assert reduce_difference(s1, s1, ("combine_sums",)) == 0
    assert reduce_difference(s1, s2, ("combine_sums",)) != 0


def test_unchained_steps_need_a_claim_strategy():
    with pytest.raises(ValueError, match="claim strategy"):
        ident([Step(x, x, "a", ("expand",)), Step(y, y, "b", ("expand",))])


def test_inequality_steps():
    ok = ident([Step(sp.Integer(0), x**2 + y**2, "squares", ("expand",), rel="<=")], rel="<=")
    assert ok.verify().ok
    bad = ident([Step(x**2 + 1, sp.Integer(0), "wrong way", ("expand",), rel="<=")], rel="<=")
    r = bad.verify()
    assert not r.ok and not r.steps[0].numeric_ok and not r.steps[0].symbolic


def test_unknown_strategy_and_relation_are_rejected():
    with pytest.raises(ValueError, match="strategy names"):
        Step(x, x, "why", ("simplify_everything",))
    with pytest.raises(ValueError, match="rel must be one of"):
        Step(x, x, "why", rel="~")


@pytest.mark.parametrize("dps", [5, 19, 1001, 50.0, True, "50"])
def test_dps_range(dps):
    with pytest.raises(ValueError, match=r"dps must be an integer in \[20, 1000\]"):
        ident([Step(x, x, "why")]).verify(dps=dps)


def test_precision_is_really_used():
    # sqrt(2)^2 = 2 holds exactly; the float64 value 1.4142135623730951 squared misses by ~4e-16, far above 1e-40.
    r = ident([Step(sp.Float(1.4142135623730951) ** 2, sp.Integer(2), "float64 sqrt(2)", ("expand",))]).verify()
    assert not r.ok and r.steps[0].numeric_max_rel_error > 1e-17


def test_conjugates_survive_numeric_evaluation():
    z = sp.Symbol("z")  # complex
    claim = ident([Step(z * sp.conjugate(z), sp.Abs(z) ** 2, "|z|^2", ("expand_complex",))])
    assert claim.verify().ok
    assert not claim.with_rhs(z**2).verify().ok


def test_domains_override_by_name():
    b = sp.Symbol("b", positive=True)
    claim = ident(
        [Step(sp.log(b - 1), sp.log(b - 1), "needs b > 1", ("expand",))], domains={"b": Domain("real", 2, 100)}
    )
    assert claim.verify().ok


def test_crashing_fact_is_reported_failed_not_raised():
    def compute(dps):
        raise ZeroDivisionError("boom")

    r = Fact("f", "t", "test", "s", "statement", 1, compute, wrong=2).verify()
    assert not r.ok and "ZeroDivisionError" in r.detail
    json.dumps(r.as_dict())


def test_fact_compares_plain_values():
    fact = Fact("f", "t", "test", "s", "st", {"k": [1, 2]}, lambda dps: ({"k": (1, 2)}, []), wrong={"k": [1]})
    assert fact.verify().ok and not fact.wrong_variant().verify().ok
