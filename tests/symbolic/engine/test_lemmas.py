r"""Named lemmas (symbolic/lemmas.py): proved once, cited with an explicit instantiation whose side conditions are
checked like any other step."""

import pytest
import sympy as sp
from posproof.symbolic import Step, Theorem
from posproof.symbolic.engine.strategies import nonnegative
from posproof.symbolic.lemmas import ABEL, LEMMAS, TRIANGLE, get

n = sp.Symbol("n", integer=True, positive=True)
m = sp.Symbol("m", integer=True)
i = sp.Symbol("i", integer=True)
a, b = sp.IndexedBase("a"), sp.IndexedBase("b")
r = sp.IndexedBase("r", real=True)


def mapping(N=n, h=None, S=None):
    return {"N": N, "h": h or sp.Lambda(i, a[i]), "S": S or sp.Lambda(i, b[i])}


def test_abel_is_proved_once_and_its_wrong_variant_is_rejected():
    assert ABEL.proved
    assert ABEL.theorem.verify().symbolic
    assert not ABEL.theorem.wrong_variant().verify().ok
    assert get("Abel summation") is ABEL and set(LEMMAS) == {
        "Abel summation",
        "triangle inequality for finite sums",
        "triangle inequality for finite complex sums",
        "softmax permutation equivariance",
    }


def test_a_citation_proves_its_step_and_the_claim_verifies_on_both_lines():
    step = ABEL.cite(mapping(), "summation by parts")
    assert step.check_symbolic() and step.cites.problems(step) == []
    claim = Theorem("abel-user", "Abel at n", "test", "test", (step,), sizes={n: (1, 3)})
    res = claim.verify()
    assert res.ok and res.symbolic and res.numeric == "agree", res.as_dict()


def test_a_citation_at_a_shifted_sequence_and_a_half_width():
    d = sp.Symbol("d", integer=True, positive=True, even=True)
    step = ABEL.cite(mapping(N=d / 2, h=sp.Lambda(i, a[i + 1] ** 2)), "summation by parts")
    assert step.check_symbolic()


def test_a_value_outside_the_variables_declaration_is_refused():
    step = ABEL.cite(mapping(N=m), "N may be negative")
    assert not step.check_symbolic()
    assert any("nonnegative" in p for p in step.cites.problems(step))


def test_the_steps_sides_must_be_the_instance():
    lhs, rhs, _ = ABEL.instance(mapping())
    wrong = Step(lhs, rhs + 1, "off by one", ("identity",), cites=ABEL.cite(mapping()).cites)
    assert not wrong.check_symbolic()
    # a step written differently but reduced to the instance by its strategy holds
    written = Step(sp.expand(lhs), rhs, "expanded", ("expand", "combine_sums"), cites=ABEL.cite(mapping()).cites)
    assert written.check_symbolic()


def test_the_relation_must_be_the_lemmas():
    lhs, rhs, _ = ABEL.instance(mapping())
    step = Step(lhs, rhs, "as an inequality", ("identity",), "<=", cites=ABEL.cite(mapping()).cites)
    assert not step.check_symbolic()
    strict = Step(lhs, rhs, "as a strict inequality", ("identity",), "<", cites=ABEL.cite(mapping()).cites)
    assert "the lemma states '=', the step is '<'" in strict.symbolic_problem(())  # a = b never gives a < b


def test_bad_mappings_name_the_argument():
    with pytest.raises(ValueError, match="mapping"):
        ABEL.cite({"N": n, "h": sp.Lambda(i, a[i])})
    with pytest.raises(ValueError, match="mapping"):
        ABEL.cite({"N": n, "h": a, "S": sp.Lambda(i, b[i])})
    with pytest.raises(ValueError, match="mapping"):
        ABEL.cite({**mapping(), "T": n})
    with pytest.raises(ValueError, match="name"):
        get("no such lemma")


def test_bound_variables_of_the_lemma_do_not_capture_the_values():
    # the value mentions a symbol called i, the lemma sums over its own i: the instance keeps them apart
    k = sp.Symbol("i", integer=True, nonnegative=True)
    step = ABEL.cite(mapping(h=sp.Lambda(i, a[i] * k)), "h_j = a_j i for a fixed i")
    assert step.check_symbolic()
    assert Theorem("abel-capture", "t", "test", "test", (step,), sizes={n: (2,)}).verify().ok


def test_only_a_citation_of_a_lemma_proves_a_step():
    class Fake:
        def holds(self, step, given=()):
            return True

    assert not Step(sp.Integer(1), sp.Integer(2), "trust me", ("identity",), cites=Fake()).check_symbolic()


def test_a_lemma_whose_theorem_fails_proves_nothing():
    from posproof.symbolic.lemmas import Lemma

    x = sp.Symbol("x", real=True)
    false = Theorem("lemma-false", "x^2 = x", "test", "test", (Step(x**2, x, "no", ("expand",)),))
    lemma = Lemma("false", false, (x,))
    step = lemma.cite({"x": sp.Integer(2)})
    assert not lemma.proved and not step.check_symbolic()
    (problem,) = step.cites.problems(step)
    assert problem.startswith("lemma 'false' is not proved (lemma-false: step 0: ")


def test_the_triangle_inequality_for_finite_sums_is_proved_for_every_n_and_cited():
    assert TRIANGLE.proved and TRIANGLE.theorem.verify().symbolic
    assert not TRIANGLE.theorem.wrong_variant().verify().ok
    x = sp.Symbol("x", real=True)
    step = TRIANGLE.cite({"N": n, "f": sp.Lambda(i, sp.cos(i * x) * r[i])}, "the triangle inequality")
    assert step.check_symbolic()
    claim = Theorem("triangle-user", "t", "test", "test", (step,), rel="<=", sizes={n: (1, 4)})
    assert claim.verify().ok
    # a complex sequence is not a real one: the citation refuses it
    assert not TRIANGLE.cite({"N": n, "f": sp.Lambda(i, sp.exp(sp.I * i * x))}).check_symbolic()


def test_abs_sides_needs_both_parts_and_a_real_argument():
    x = sp.Symbol("x", real=True)
    assert Step(sp.Abs(x), sp.Abs(x), "same", ("abs_sides", "expand"), "<=").check_symbolic()
    assert not Step(sp.Abs(x), x, "only one part holds", ("abs_sides", "expand"), "<=").check_symbolic()
    z = sp.Symbol("z")
    assert not Step(sp.Abs(z), sp.Abs(z), "complex", ("abs_sides", "expand"), "<=").check_symbolic()


def test_nonnegative_rules_are_the_sound_ones():
    x = sp.Symbol("x", real=True)
    assert nonnegative(sp.Abs(x) - x) and nonnegative(sp.Abs(x) + x / 2)
    assert not nonnegative(sp.Abs(x) - 2 * x)
    assert not nonnegative(sp.Sum(sp.Integer(1), (i, 0, m)))  # a range not proved forward: no sign
    assert nonnegative(sp.Sum(sp.Abs(r[i]) - r[i], (i, 0, n)))


def test_a_citations_verdict_is_computed_once_per_step_and_given(monkeypatch):
    from posproof.symbolic.engine.step import Citation

    asked = []
    fresh = Citation.problems
    monkeypatch.setattr(
        Citation, "problems", lambda self, step, given=(): asked.append(step) or fresh(self, step, given)
    )
    top = sp.Symbol("N_cache", integer=True)  # asked about by no other test of this process
    cites = ABEL.cite(mapping(N=top)).cites
    lhs, rhs, _ = ABEL.instance(mapping(N=top))
    step = Step(lhs, rhs, "N may be negative", ("identity",), cites=cites)
    assert not step.check_symbolic() and not step.check_symbolic() and len(asked) == 1
    # the same question asked by another object is answered from the first verdict
    assert not Step(lhs, rhs, "again", ("identity",), cites=ABEL.cite(mapping(N=top)).cites).check_symbolic()
    assert len(asked) == 1
    # another given is another question: N >= 0 given, the citation holds
    assert step.check_symbolic((sp.Q.nonnegative(top),)) and len(asked) == 2
    # another step is another question (the same citation, a side off by one)
    assert not Step(lhs, rhs + 1, "off by one", ("identity",), cites=cites).check_symbolic((sp.Q.nonnegative(top),))
    assert len(asked) == 3


def test_a_cached_verdict_tells_values_of_other_types_apart():
    from posproof.symbolic.engine.step import _typed

    assert _typed((2, sp.Integer(2))) != _typed((sp.Integer(2), sp.Integer(2)))
    assert _typed((True,)) != _typed((1,)) and _typed(((2.0,),)) != _typed(((2,),))
    assert _typed((sp.Symbol("x", real=True),)) != _typed((sp.Symbol("x"),))


# ---- what may be cited, and what an instance must prove ------------------------------------------------------------

x = sp.Symbol("x", real=True)
y = sp.Symbol("y", real=True)
w = sp.Dummy("w")


def _lemma_at_positive_x():
    from posproof.symbolic.lemmas import Lemma

    theorem = Theorem(
        "lemma-positive-x",
        "0 < x for x > 0",
        "test",
        "test",
        (Step(sp.Integer(0), x, "the hypothesis", ("identity",), "<"),),
        rel="<",
        given=(sp.Q.positive(x),),
    )
    return Lemma("positive x", theorem, (x,))


def test_regression_a_definition_cited_as_a_lemma_proves_nothing():
    from posproof.symbolic import Definition
    from posproof.symbolic.lemmas import Lemma

    try:  # an equation checked at sampled points, true for every n drawn, false at n = 2^60
        mod = Definition("def-mod", "n mod 2^60 = n", "test", "test", sp.Mod(n, 2**60), n, "by definition", "test")
    except ValueError as e:  # refused already when it is built (Mod is outside the fragment): nothing to cite
        assert "Mod" in str(e)
        return
    lemma = Lemma("mod is identity", mod, (n,))
    step = lemma.cite({"n": m**2 + 1})
    assert not lemma.proved and not step.check_symbolic()
    assert "Definition" in lemma.refusal and "Definition" in step.symbolic_problem()
    res = Theorem("mod-user", "t", "test", "test", (step,)).verify()
    assert res.symbolic is False


def test_regression_a_fact_is_not_a_lemma():
    from posproof.symbolic import Fact
    from posproof.symbolic.lemmas import Lemma

    fact = Fact(
        "fact-one",
        "one",
        "test",
        "test",
        "1 = 1",
        1,
        lambda dps: (1, [("one", 1)]),
        "exact integer arithmetic",
        wrong=lambda dps: (2, [("two", 2)]),
    )
    lemma = Lemma("one", fact, ())
    assert not lemma.proved and "Fact" in lemma.refusal
    with pytest.raises(ValueError, match="theorem"):
        lemma.cite({})


def test_regression_a_lemmas_given_is_a_condition_of_every_instance():
    lemma = _lemma_at_positive_x()
    assert lemma.proved
    at_minus_one = lemma.cite({"x": -1})  # 0 < -1
    assert not at_minus_one.check_symbolic()
    assert "hypothesis Q.positive(-1) is not proved" in at_minus_one.symbolic_problem()
    assert Theorem("given-user", "t", "test", "test", (at_minus_one,), rel="<").verify().symbolic is False
    # the hypothesis holds: from the value, from its assumptions, or from the citing claim's given
    assert lemma.cite({"x": 2}).check_symbolic()
    assert lemma.cite({"x": sp.Symbol("p", positive=True)}).check_symbolic()
    assert not lemma.cite({"x": y}).check_symbolic()
    assert lemma.cite({"x": y}).check_symbolic((sp.Q.positive(y),))


def test_regression_a_sequence_keeps_every_declaration_at_each_index_the_lemma_reads():
    from posproof.symbolic.lemmas import Lemma

    top = sp.Symbol("N", integer=True, nonnegative=True)
    p = sp.IndexedBase("p", positive=True)
    theorem = Theorem(
        "lemma-positive-terms",
        "0 < p_0 + p_N",
        "test",
        "test",
        (Step(sp.Integer(0), p[0] + p[top], "positive terms", ("identity",), "<"),),
        rel="<",
        sizes={top: (0, 2)},
    )
    lemma = Lemma("positive terms", theorem, (top, p))
    assert lemma.proved
    negative = lemma.cite({"N": n, "p": sp.Lambda(i, -1)})  # real, so a realness check let it through
    assert not negative.check_symbolic()
    assert "p is positive in the lemma" in negative.symbolic_problem()
    # judged at the lemma's indices (0 and N >= 0), not at what the Lambda's variable declares
    j = sp.Symbol("j", integer=True, positive=True)
    assert "at the index 0" in lemma.cite({"N": n, "p": sp.Lambda(j, j)}).symbolic_problem()
    assert lemma.cite({"N": n, "p": sp.Lambda(i, i + 1)}).check_symbolic()
    assert lemma.cite({"N": n, "p": sp.Lambda(i, sp.exp(r[i]))}).check_symbolic()


def test_regression_a_context_is_a_lambda_applied_by_substitution():
    renaming = lambda e: e.xreplace({n: sp.Integer(-1)})  # noqa: E731 - a Python function that reads syntax
    with pytest.raises(ValueError, match="context"):
        ABEL.cite(mapping(), context=renaming)
    with pytest.raises(ValueError, match="context"):
        ABEL.cite(mapping(), context=sp.Lambda((w, x), w + x))
    twice = ABEL.cite(mapping(), "twice both sides", context=sp.Lambda(w, 2 * w))
    assert twice.check_symbolic()
    lhs, rhs, _ = ABEL.instance(mapping())
    assert twice.lhs == 2 * lhs and twice.rhs == 2 * rhs
    # another context is another question, answered afresh (the cached verdicts are keyed by the context too)
    thrice = Step(
        2 * lhs,
        2 * rhs,
        "not three times",
        ("identity",),
        cites=ABEL.cite(mapping(), context=sp.Lambda(w, 3 * w)).cites,
    )
    assert not thrice.check_symbolic()


def test_regression_a_context_binds_a_variable_of_the_instance_only_in_a_range_that_keeps_it():
    # n is a positive integer of the instance: a sum over n = -2 .. 2 would use the lemma where it was not proved
    over = ABEL.cite(mapping(), context=sp.Lambda(w, sp.Sum(w, (n, -2, 2))))
    assert not over.check_symbolic() and "declared positive" in over.symbolic_problem()
    kept = ABEL.cite(mapping(), context=sp.Lambda(w, sp.Sum(w, (n, 1, 3))))
    assert kept.check_symbolic()
    # a derivative in n is not a sum: it would need the instance off the integers
    slope = ABEL.cite(mapping(), context=sp.Lambda(w, sp.Derivative(w, n)))
    assert not slope.check_symbolic() and "Derivative" in slope.symbolic_problem()
    # a bound variable the claim's given mentions could not take every value of its range
    assert "given" in kept.symbolic_problem((sp.Q.gt(n, 2),))


def test_regression_beside_and_mapping_values_are_sympy_expressions():
    with pytest.raises(ValueError, match="beside"):
        TRIANGLE.cite({"N": n, "f": sp.Lambda(i, r[i])}, beside="x")
    with pytest.raises(ValueError, match="mapping"):
        ABEL.cite({"N": "n", "h": sp.Lambda(i, a[i]), "S": sp.Lambda(i, b[i])})
    with pytest.raises(ValueError, match="mapping"):
        ABEL.cite({"N": sp.Lambda(i, i), "h": sp.Lambda(i, a[i]), "S": sp.Lambda(i, b[i])})
    assert TRIANGLE.cite({"N": n, "f": sp.Lambda(i, r[i])}, beside=2).check_symbolic()


def test_regression_an_inequality_lemma_cited_beside_a_complex_term_is_not_ordered():
    from posproof.symbolic.lemmas import TRIANGLE_COMPLEX

    z = sp.IndexedBase("z", complex=True)
    c = sp.Symbol("c", complex=True)
    step = TRIANGLE_COMPLEX.cite({"N": n, "z": sp.Lambda(i, z[i])}, beside=c)
    assert not step.check_symbolic() and "not proved real" in step.symbolic_problem()
    assert TRIANGLE_COMPLEX.cite({"N": n, "z": sp.Lambda(i, z[i])}, beside=sp.re(c)).check_symbolic()
