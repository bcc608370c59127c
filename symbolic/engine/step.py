r"""A step of a derivation, and what it may cite: one line ``lhs rel rhs`` with its justification and the named
strategies that prove it (:class:`Step`), and a :class:`Lemma` (a theorem proved once, in its own variables) cited
at an explicit instantiation (:meth:`Lemma.cite` makes the step; :class:`Citation` is what it checks).

A citation is the only object a step may cite: its symbolic check is that the lemma's theorem verifies (once per
process); that every variable's value keeps what the lemma declared about the variable (an integer ``N >= 0`` stays
an integer ``>= 0``; a real sequence stays real); that every extra condition of the lemma holds for the instance,
proved like an inequality step (from the symbols' assumptions and the claim's ``given``); and that the step's
named strategy reduces each side of the step minus the instance's side to exactly 0. The numeric line checks the
step like any other. A citation's verdict is computed once per process for each step and ``given`` it is asked
about (a wrong variant or a perturbed step is a different step: checked afresh).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import sympy as sp
from posproof.symbolic.engine.kernel import Kernel
from posproof.symbolic.engine.strategies import (
    SIDE_STRATEGIES,
    STRATEGY_NAMES,
    alpha,
    bind,
    congruent,
    is_zero,
    nonnegative,
    proves,
    reduce_difference,
)
from sympy.core.sympify import _sympify  # strict: never parses a string

__all__ = ["RELATIONS", "Step", "Lemma", "Citation"]

#: A step's relations and how LaTeX writes them.
RELATIONS = {"=": "=", "<=": r"\le", ">=": r"\ge", "<": "<", ">": ">"}


class Statement(Protocol):
    r"""What a lemma needs of its theorem (:class:`~posproof.symbolic.engine.core.Theorem` has it)."""

    @property
    def id(self) -> str: ...
    @property
    def lhs(self) -> Any: ...
    @property
    def rhs(self) -> Any: ...
    @property
    def rel(self) -> str: ...
    def verify(self) -> Any: ...


@dataclass(frozen=True)
class Step:
    r"""One line of a derivation: ``lhs rel rhs``, why it holds, and the strategy that proves it.

    For an inequality the strategy reduces ``big - small`` to an expression SymPy proves nonnegative (``<=``) or
    positive (``<``); a leading side strategy (``"log_sides"``) first maps both sides by an increasing function."""

    lhs: Any
    rhs: Any
    why: str
    strategy: tuple[str, ...] = ("expand",)
    rel: str = "="
    #: A lemma this step cites (:meth:`Lemma.cite`): the step then holds when the lemma is
    #: proved, its instance's side conditions are proved, and the strategy links the step's sides to the instance.
    cites: Any = None

    def __post_init__(self):
        if self.rel not in RELATIONS:
            raise ValueError(f"rel must be one of {sorted(RELATIONS)}, got {self.rel!r}")
        if isinstance(self.strategy, str):
            raise ValueError("strategy must be a tuple of names")
        unknown = [s for s in self.strategy if s not in STRATEGY_NAMES]
        if unknown:
            raise ValueError(f"strategy names {unknown} are not among {sorted(STRATEGY_NAMES)}")
        misplaced = [s for s in self.strategy[1:] if s in SIDE_STRATEGIES]
        if misplaced or (self.rel == "=" and self.strategy[:1] and self.strategy[0] in SIDE_STRATEGIES):
            raise ValueError(f"side strategies {sorted(SIDE_STRATEGIES)} come first, in inequality steps only")

    @functools.cached_property
    def has_kernels(self) -> bool:
        r"""Whether a side applies a :class:`Kernel` (the numeric line then also tries its breakpoints)."""

        def has(side) -> bool:
            if isinstance(side, sp.MatrixBase):
                return any(has(x) for x in side)
            return isinstance(side, sp.Basic) and side.has(Kernel)

        return has(self.lhs) or has(self.rhs)

    def check_symbolic(self, given: tuple = ()) -> bool:
        r"""Whether the strategy proves this step (``given``: extra facts such as ``b > 1`` for inequalities)."""
        if self.cites is not None:  # only a Citation of a Lemma proves: any other object proves nothing
            return isinstance(self.cites, Citation) and self.cites.holds(self, given)
        # Bound variables become dummies carrying only what their limits imply, before any strategy and before the
        # sign decision (a reversed range raises: it proves nothing).
        lhs, rhs = bind(self.lhs, given), bind(self.rhs, given)
        if self.rel == "=":
            if is_zero(reduce_difference(lhs, rhs, self.strategy, given)):
                return True
            inner = congruent(lhs, rhs)  # |a| = |b| because a = b: the strategy proves the arguments equal
            return inner is not None and is_zero(reduce_difference(*inner, self.strategy, given))
        small, big = (lhs, rhs) if self.rel in ("<=", "<") else (rhs, lhs)
        names = self.strategy
        pairs: list = [(small, big)]
        if names and names[0] in SIDE_STRATEGIES:
            try:
                pairs = SIDE_STRATEGIES[names[0]](small, big, given)
            except ValueError:  # the side strategy does not apply: nothing is proved
                return False
            names = names[1:]
        for small, big in pairs:  # a side strategy may split the relation: every part must be proved
            gap = reduce_difference(big, small, names, given)
            if self.rel in ("<", ">"):
                if not proves(sp.Q.positive(gap), gap.is_positive, given):
                    return False
            elif not nonnegative(gap, given):
                return False
        return True


#: What a value must keep of its variable's declaration (checked for each instantiated symbol).
_KEPT = ("integer", "positive", "nonnegative", "negative", "nonpositive", "nonzero", "real", "even", "odd")


def _proved(cond, given: tuple) -> bool:
    r"""Whether a relation is proved from the assumptions and ``given`` (``=`` by ``expand`` to 0)."""
    if cond is sp.true:
        return True
    if isinstance(cond, sp.Eq):
        return sp.expand(cond.lhs - cond.rhs) == 0
    if isinstance(cond, (sp.Ge, sp.Gt, sp.Le, sp.Lt)):
        gap = cond.lhs - cond.rhs if isinstance(cond, (sp.Ge, sp.Gt)) else cond.rhs - cond.lhs
        gap = sp.expand(gap)
        if isinstance(cond, (sp.Gt, sp.Lt)):
            return proves(sp.Q.positive(gap), gap.is_positive, given)
        return proves(sp.Q.nonnegative(gap), gap.is_nonnegative, given)
    return False


def _same(written, inst, strategy: tuple, given: tuple) -> bool:
    r"""Whether ``strategy`` reduces ``written - inst`` to 0, or their arguments when both are ``F(.)`` of one
    function ``F`` of one argument."""
    if is_zero(reduce_difference(written, inst, strategy, given)):
        return True
    # a strategy may move a sum out of another (doit on a two-term sum): compare up to bound names again after it
    left, right = (alpha(reduce_difference(side, sp.Integer(0), strategy, given)) for side in (written, inst))
    if is_zero(reduce_difference(left, right, ("identity",), given)):
        return True
    inner = congruent(written, inst)
    return inner is not None and is_zero(reduce_difference(*inner, strategy, given))


@dataclass(frozen=True)
class Lemma:
    r"""A lemma: ``theorem`` (proved once) in the ``variables`` it may be instantiated at, with ``conditions`` (SymPy
    relations in those variables) that every instance must prove."""

    name: str
    theorem: Statement
    variables: tuple
    conditions: tuple = ()

    @functools.cached_property
    def proved(self) -> bool:
        r"""Whether the lemma's theorem verifies (both lines; computed once per process)."""
        return self.theorem.verify().ok

    @functools.cached_property
    def _verdicts(self) -> dict:
        r"""Whether each citation of this lemma holds, by step and ``given`` (see :func:`_verdict_key`), in this
        process."""
        return {}

    def _variable(self, name: str):
        for v in self.variables:
            if str(v) == name or v == name:
                return v
        raise ValueError(
            f"mapping: lemma {self.name!r} has no variable {name!r} (it has {[str(v) for v in self.variables]})"
        )

    def instance(self, mapping: Mapping) -> tuple:
        r"""``(lhs, rhs, conditions)`` of the lemma at ``mapping`` (variable or its name -> value; an IndexedBase
        variable takes a ``Lambda`` of its indices). Bound variables of the lemma are renamed first, so a value
        cannot be captured by them."""
        values = {self._variable(str(k)): v for k, v in mapping.items()}
        missing = [str(v) for v in self.variables if v not in values]
        if missing:
            raise ValueError(f"mapping: lemma {self.name!r} needs values for {missing}")

        def at(e):
            e = bind(e)
            for var, val in values.items():
                if isinstance(var, sp.IndexedBase):
                    if not isinstance(val, sp.Lambda):
                        raise ValueError(f"mapping: {var} is a sequence; give a Lambda of its index, got {val!r}")
                    e = e.replace(
                        lambda x, var=var: isinstance(x, sp.Indexed) and x.base == var,
                        lambda x, val=val: val(*x.indices),
                    )
            return e.xreplace({k: v for k, v in values.items() if not isinstance(k, sp.IndexedBase)})

        t = self.theorem
        return at(t.lhs), at(t.rhs), tuple(at(c) for c in self.conditions)

    def cite(
        self,
        mapping: Mapping,
        why: str = "",
        strategy: tuple[str, ...] = ("identity",),
        beside=None,
        context=None,
        **step,
    ) -> Step:
        r"""A step citing this lemma at ``mapping``: its sides are the instance's (plus ``beside`` on both sides, or
        inside ``context``, a function of one expression, for an equality: ``C(a) = C(b)`` from ``a = b``), unless
        ``lhs``/``rhs`` are given (then ``strategy`` must reduce each to that side)."""
        if context is not None and self.theorem.rel != "=":
            raise ValueError(f"context: lemma {self.name!r} is an inequality; only equalities hold inside a context")
        lhs, rhs, _ = self.instance(mapping)
        citation = Citation(self, tuple(mapping.items()), beside, context)
        if beside is not None:
            lhs, rhs = beside + lhs, beside + rhs
        if context is not None:
            lhs, rhs = context(lhs), context(rhs)
        return Step(
            step.get("lhs", lhs),
            step.get("rhs", rhs),
            f"{why or self.name} (cites {self.theorem.id})",
            strategy,
            self.theorem.rel,
            cites=citation,
        )


@dataclass(frozen=True)
class Citation:
    r"""A lemma cited at an instantiation: what :meth:`Step.check_symbolic` asks when a step cites a lemma."""

    lemma: Lemma
    mapping: tuple
    #: A term added to both sides of the instance (``c + a <= c + b`` from ``a <= b``), or ``None``.
    beside: Any = None
    #: A function both sides of an equality instance are put in (``C(a) = C(b)`` from ``a = b``), or ``None``.
    context: Any = None

    def problems(self, step: Step, given: tuple = ()) -> list[str]:
        r"""Why the citation does not prove ``step`` (empty when it does)."""
        lemma = self.lemma
        if not lemma.proved:
            return [f"lemma {lemma.name!r} is not proved"]
        if step.rel != lemma.theorem.rel:
            return [f"the lemma states '{lemma.theorem.rel}', the step is '{step.rel}'"]
        mapping = dict(self.mapping)
        lhs, rhs, conditions = lemma.instance(mapping)
        out = []
        for name, value in mapping.items():
            var = lemma._variable(str(name))
            if isinstance(var, sp.IndexedBase):
                if var.is_real and not proves(sp.Q.real(value.expr), value.expr.is_real, given):
                    out.append(f"{var} must be real, {value.expr} is not proved real")
                continue
            for fact in _KEPT:
                if getattr(var, f"is_{fact}") and getattr(_sympify(value), f"is_{fact}") is not True:
                    if not (given and sp.ask(getattr(sp.Q, fact)(value), sp.And(*given)) is True):
                        out.append(f"{var} is {fact} in the lemma, {value} is not proved {fact}")
        out += [f"condition {c} is not proved" for c in conditions if not _proved(c, given)]
        sides = (step.lhs, step.rhs)
        inner = congruent(*sides)
        if self.context is not None:  # C(a) = C(b) from a = b (cite refuses a context for an inequality)
            if lemma.theorem.rel != "=":
                return [f"a context needs an equality lemma, {lemma.name!r} states '{lemma.theorem.rel}'"]
            lhs, rhs = self.context(lhs), self.context(rhs)
        elif self.beside is not None:  # c + a rel c + b from a rel b: adding the same c keeps either relation
            sides = tuple(sp.Add(side, -self.beside) for side in sides)
        elif lemma.theorem.rel == "=" and inner is not None and congruent(lhs, rhs) is None:
            sides = inner  # F(a) = F(b) from the instance a = b: a function takes equal values at equal arguments
        for side, (written, inst) in zip(("left", "right"), zip(sides, (lhs, rhs), strict=True), strict=True):
            try:
                # bound variables compared up to their names (the lemma's i is the step's j)
                written, inst = alpha(bind(written, given)), alpha(bind(inst, given))
                if not _same(written, inst, step.strategy, given):
                    out.append(f"the step's {side} side is not the instance's ({step.strategy})")
            except ValueError as e:  # a range not proved forward, a strategy that refuses
                out.append(f"the step's {side} side: {e}")
        return out

    def holds(self, step: Step, given: tuple = ()) -> bool:
        r"""Whether the citation proves ``step`` (:meth:`problems` finds nothing); asked once per process for each
        step and ``given`` (a step or a ``given`` that is not equal, type for type, is asked afresh)."""
        if not isinstance(self.lemma, Lemma):
            return False
        verdicts = self.lemma._verdicts
        key = _verdict_key(self, step, given)
        try:
            verdict = verdicts.get(key)
        except TypeError:  # a part that cannot be hashed (a mutable Matrix side): asked every time
            return not self.problems(step, given)
        if verdict is None:
            verdict = verdicts[key] = not self.problems(step, given)
        return verdict


def _typed(x) -> tuple:
    r"""``x`` with its type, recursively through tuples: ``2``, ``2.0``, ``True`` and ``Integer(2)`` are equal in
    Python but not the same value to cite. (SymPy objects compare structurally, their assumptions included, and a
    function such as a citation's ``context`` by identity.)"""
    if isinstance(x, tuple):
        return (tuple, tuple(_typed(y) for y in x))
    return (type(x), x)


def _verdict_key(citation: Citation, step: Step, given: tuple) -> tuple:
    r"""Everything :meth:`Citation.problems` reads besides the lemma (whose verdicts are kept on it): the
    instantiation, the step's sides, relation and strategy, ``given`` and SymPy's global assumptions."""
    parts = (citation.mapping, citation.beside, citation.context, step.lhs, step.rhs, step.rel, step.strategy)
    return _typed((*parts, tuple(given), tuple(sorted(map(sp.srepr, sp.assumptions.global_assumptions)))))
