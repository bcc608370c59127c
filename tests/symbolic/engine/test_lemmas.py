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
    assert step.cites.problems(step) == ["lemma 'false' is not proved"]


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
