r"""posproof.symbolic.testing: assert_proved returns the result of a verified claim and, on a failure, names per failing
step the symbolic verdict, what the strategy left, and the numeric line; assert_rejected fails on a wrong variant that
verifies or that the symbolic line proves."""

import dataclasses
import doctest
from types import SimpleNamespace

import pytest
import sympy as sp
from posproof.symbolic import testing
from posproof.symbolic.engine.core import Definition, Fact, Kernel, Step, Theorem
from posproof.symbolic.engine.results import NumericResult, StepResult, VerifyResult
from posproof.symbolic.engine.step import Lemma
from posproof.symbolic.testing import assert_proved, assert_rejected, explain, leftover

x = sp.Symbol("x", real=True)
i, j, t = sp.symbols("i j t", integer=True)
m_h = sp.Symbol("m_h", positive=True)
DPS = 30


def _theorem(lhs, rhs, strategy=("expand",), rel="=", **kw):
    return Theorem(
        kw.pop("id", "t"),
        "a test claim",
        "mine",
        "a test",
        steps=(Step(lhs, rhs, "why", strategy, rel),),
        rel=rel,
        **kw,
    )


def test_module_doctests():
    result = doctest.testmod(testing, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0


def test_assert_proved_returns_the_result():
    claim = _theorem(m_h * (j + t) - m_h * (i + t), -m_h * (i - j))
    result = assert_proved(claim, dps=DPS)
    assert result.ok and result.symbolic and result.dps == DPS


def test_failure_shows_the_difference_the_strategy_left():
    claim = _theorem(sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.Integer(1), id="pyth")
    with pytest.raises(AssertionError) as e:
        assert_proved(claim, dps=DPS)
    message = str(e.value)
    assert message.startswith("theorem 'pyth' is not verified: step 0: the strategy ('expand',) does not reduce")
    assert "step 0 (why): symbolic line NOT proved: ('expand',) leaves sin(x)**2 + cos(x)**2 - 1" in message
    assert "numeric line agree" in message


def test_failure_of_a_false_step_shows_the_numeric_disagreement():
    claim = _theorem(x + 1, x, id="off")
    with pytest.raises(AssertionError, match=r"leaves 1\n    numeric line disagree, \d+ points"):
        assert_proved(claim, dps=DPS)


def test_inequality_shows_the_gap():
    step = Step(-m_h * (i - j), sp.Integer(0), "keys before the query", ("expand",), "<=")
    claim = Theorem("gap", "t", "mine", "t", steps=(step,), rel="<=", given=(sp.Q.nonnegative(i - j),))
    with pytest.raises(AssertionError, match=r"the gap i\*m_h - j\*m_h"):
        assert_proved(claim, dps=DPS)
    honest = dataclasses.replace(claim, steps=(dataclasses.replace(step, strategy=("identity",)),))
    assert assert_proved(honest, dps=DPS).symbolic


def test_a_side_strategy_that_does_not_apply_is_named():
    step = Step(x, x**2 + 1, "squares", ("square_sides",), "<=")
    assert leftover(step).startswith("the side strategy 'square_sides' does not apply")


def test_a_failed_citation_names_its_problem():
    a, b = sp.symbols("a b", real=True)
    lemma = Lemma(
        "sum", Theorem("lemma-sum", "t", "mine", "t", steps=(Step(a + b, b + a, "commute", ("identity",)),)), (a, b)
    )
    step = lemma.cite({"a": x, "b": 1}, "cite", strategy=("expand",), rhs=x + 2)
    assert leftover(step).startswith("the citation: the step's right side is not the instance's")


def test_a_strategy_that_raises_is_reported():
    step = Step(sp.Sum(x, (i, 0, -3)), sp.Integer(0), "a reversed range", ("expand",))
    assert leftover(step).startswith("the strategy raised ValueError")


def test_the_claims_own_check_is_shown_when_steps_do_not_chain():
    claim = Theorem(
        "unchained", "t", "mine", "t",
        steps=(Step(x + 1, 1 + x, "commute", ("expand",)),),
        lhs=x, rhs=x + 1, strategy=("expand",),
    )  # fmt: skip
    with pytest.raises(
        AssertionError, match=r"step 1 \(the claim\): symbolic line NOT proved: \('expand',\) leaves -1"
    ):
        assert_proved(claim, dps=DPS)


def test_the_first_disagreeing_point_is_shown_when_the_result_carries_one():
    numeric = SimpleNamespace(
        status="disagree", points=3, max_rel_error=2.0, reason="relative error 2.0", point={"x": 3}
    )
    step = StepResult(0, False, numeric, "the strategy does not reduce the difference to 0")
    claim = _theorem(x + 1, x, id="p")
    result = VerifyResult("p", "theorem", False, False, 2.0, DPS, 0.0, (step,), "step 0: ...")
    message = explain(claim, result)
    assert "first disagreeing point: x = 3" in message
    plain = dataclasses.replace(result, steps=(StepResult(0, False, NumericResult("disagree", 3, 2.0, "e"), ""),))
    assert "first disagreeing point" not in explain(claim, plain)  # a result without a point: nothing invented


class _Double(Kernel):
    nargs = 1

    @classmethod
    def numeric(cls, a):
        return 2 * a

    def doit(self, **hints):
        return 2 * self.args[0].doit(**hints)


def test_definitions_are_proved_by_their_numeric_line():
    d = Definition("double", "t", "mine", "t", _Double(x), 2 * x, "twice", "numeric 2 a", wrong=3 * x)
    assert assert_proved(d, dps=DPS).ok
    assert_rejected(d.wrong_variant(), dps=DPS)
    with pytest.raises(AssertionError, match=r"symbolic line: nothing to prove \(a definition\)"):
        assert_proved(d.wrong_variant(), dps=DPS)


def test_a_failed_fact_shows_its_detail():
    fact = Fact(
        "f", "t", "mine", "t", "one is two", 2, lambda dps: (1, [("computed", 1)]), "exact integers",
        wrong=lambda dps: (3, [("computed", 3)]),
    )  # fmt: skip
    with pytest.raises(AssertionError, match="fact 'f' is not verified: claimed 2, computed 1"):
        assert_proved(fact, dps=DPS)


def test_assert_rejected_fails_on_a_claim_that_verifies():
    with pytest.raises(AssertionError, match="verifies, but it should be rejected"):
        assert_rejected(_theorem(x + x, 2 * x), dps=DPS)


def test_assert_rejected_fails_on_a_claim_the_symbolic_line_proves():
    proved = VerifyResult("s", "theorem", False, True, 2.0, DPS, 0.0, (), "numeric disagree")
    claim = SimpleNamespace(verify=lambda dps: proved)
    with pytest.raises(AssertionError, match="rejected only by the numeric line: the symbolic line proves it"):
        assert_rejected(claim, dps=DPS)


def test_long_expressions_are_truncated():
    big = sp.Add(*[sp.Symbol(f"a{k}", real=True) * sp.sin(k * x) for k in range(200)])
    message = leftover(Step(big, sp.Integer(0), "no", ("identity",)))
    assert len(message) < testing.SHOWN + 40 and message.endswith("...")


def test_an_inequality_between_sides_not_proved_real_says_so():
    if not hasattr(Step, "symbolic_problem"):
        pytest.skip("the engine gives no reason of its own")
    z = sp.Symbol("z")  # declared with nothing: a complex number, not ordered
    message = leftover(Step(z, z + 1, "z <= z + 1", ("identity",), "<="))
    assert "not proved real" in message
