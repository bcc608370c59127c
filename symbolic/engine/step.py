r"""A step of a derivation, and what it may cite: one line ``lhs rel rhs`` with its justification and the named
strategies that prove it (:class:`Step`), and a :class:`Lemma` (a theorem proved once, in its own variables) cited
at an explicit instantiation (:meth:`Lemma.cite` makes the step; :class:`Citation` is what it checks).

An order relation (``<``, ``<=``, ``>``, ``>=``) is proved only between sides the symbolic line proves real (after
:func:`~.strategies.bind`): a gap ``big - small >= 0`` says nothing of two complex numbers (``z <= z + 1`` for any
``z``), and the numeric line's tolerance for an imaginary part at rounding size never stands in for that proof.

A citation is the only object a step may cite. Its symbolic check is that the lemma's theorem is a
:class:`~posproof.symbolic.engine.core.Theorem` that verifies with every step proved symbolically (a Definition is
a sampled equation and a Fact a computed value: neither is cited); that every variable's value keeps what the
lemma declared about the variable (an integer ``N >= 0`` stays an integer ``>= 0``; a sequence of positive terms
stays one, judged at each index the lemma reads it at); that every extra condition and every ``given`` fact of the
lemma holds for the instance, proved from the symbols' assumptions and the citing claim's ``given``; and that the
step's named strategy reduces each side of the step minus the instance's side to exactly 0. A ``context`` is a
``sympy.Lambda`` applied by substitution (``C(a) = C(b)`` from ``a = b``): it cannot reach inside the instance, and
it may bind a variable of the instance only in a Sum, Product or Maximum whose range implies that variable's
declaration. The numeric line checks the step like any other. A citation's verdict is computed once per process
for each step and ``given`` it is asked about (a wrong variant or a perturbed step is a different step: checked
afresh).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import sympy as sp
from posproof.symbolic.engine.kernel import Kernel
from posproof.symbolic.engine.maximum import Maximum
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
from sympy.assumptions.relation.binrel import AppliedBinaryRelation
from sympy.core.sympify import SympifyError, _sympify  # strict: never parses a string

__all__ = ["RELATIONS", "Step", "Lemma", "Citation"]

#: A step's relations and how LaTeX writes them.
RELATIONS = {"=": "=", "<=": r"\le", ">=": r"\ge", "<": "<", ">": ">"}


#: The claim classes whose proofs may be cited: :class:`~posproof.symbolic.engine.core.Theorem` (core registers it
#: with :func:`citable`; a subclass is not a Theorem to cite, it may verify differently).
CITABLE: set[type] = set()


def citable(cls: type) -> type:
    r"""Register ``cls`` (a class decorator) as a claim class whose proofs a :class:`Lemma` may cite."""
    CITABLE.add(cls)
    return cls


class Statement(Protocol):
    r"""What a lemma needs of its theorem (:class:`~posproof.symbolic.engine.core.Theorem` has it; only a Theorem is
    cited)."""

    @property
    def id(self) -> str: ...
    @property
    def lhs(self) -> Any: ...
    @property
    def rhs(self) -> Any: ...
    @property
    def rel(self) -> str: ...
    def verify(self) -> Any: ...


def _ask(query, fast, given: tuple) -> bool:
    r""":func:`~.strategies.proves`, with SymPy's failure to decide counted as not proved."""
    try:
        return proves(query, fast, given)
    except (TypeError, ValueError, NotImplementedError, AttributeError):
        return False


def _is_real(e, given: tuple) -> bool:
    r"""Whether the symbolic line proves ``e`` (a side after :func:`~.strategies.bind`) real."""
    if isinstance(e, (sp.MatrixBase, sp.MatrixExpr)) or not isinstance(e, (sp.Basic, int)) or isinstance(e, bool):
        return False
    e = _sympify(e)
    if _ask(sp.Q.real(e), e.is_real, given):
        return True
    # re, im and Abs of a number are real; SymPy doubts it when it cannot tell the number finite (conjugate(k) for
    # a complex k), but every value of the fragment is a finite complex number (infinities are refused). Each such
    # part is replaced by a real dummy (nonnegative for Abs): if the result is real for every real value of the
    # dummies, it is real at the parts' values.
    parts = e.atoms(sp.re, sp.im, sp.Abs)
    if not parts:
        return False
    dummies = {u: sp.Dummy("u", nonnegative=True) if isinstance(u, sp.Abs) else sp.Dummy("u", real=True) for u in parts}
    abstracted = e.xreplace(dummies)
    return abstracted != e and _ask(sp.Q.real(abstracted), abstracted.is_real, given)


def _not_real(sides, given: tuple) -> str:
    r"""Why an order relation between ``sides`` (``(name, side)`` pairs, bound) is meaningless, or ``""``."""
    for name, side in sides:
        if not _is_real(side, given):
            return (
                f"the {name} side {_short(side)} of an order relation is not proved real (only real numbers are "
                "ordered: declare the symbols real, or complex=True and take re or Abs)"
            )
    return ""


def _short(e) -> str:
    text = sp.sstr(e)
    return text if len(text) <= 80 else text[:77] + "..."


@dataclass(frozen=True)
class Step:
    r"""One line of a derivation: ``lhs rel rhs``, why it holds, and the strategy that proves it.

    For an inequality both sides must be proved real, then the strategy reduces ``big - small`` to an expression
    SymPy proves nonnegative (``<=``) or positive (``<``); a leading side strategy (``"log_sides"``) first maps both
    sides by an increasing function."""

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
        return not self.symbolic_problem(given)

    def symbolic_problem(self, given: tuple = ()) -> str:
        r"""Why the symbolic line does not prove this step, in one line (``""`` when it does). A range not proved
        forward, or a bound variable declared more than its range implies, raises ``ValueError``."""
        if self.cites is not None:  # only a Citation of a Lemma proves: any other object proves nothing
            if not isinstance(self.cites, Citation) or not isinstance(self.cites.lemma, Lemma):
                return f"the step cites a {type(self.cites).__name__}: only a citation of a Lemma (Lemma.cite) proves"
            return "; ".join(self.cites.reasons(self, given))
        # Bound variables become dummies carrying only what their limits imply, before any strategy and before the
        # sign decision (a reversed range raises: it proves nothing).
        lhs, rhs = bind(self.lhs, given), bind(self.rhs, given)
        if self.rel == "=":
            if is_zero(reduce_difference(lhs, rhs, self.strategy, given)):
                return ""
            inner = congruent(lhs, rhs)  # |a| = |b| because a = b: the strategy proves the arguments equal
            if inner is not None and is_zero(reduce_difference(*inner, self.strategy, given)):
                return ""
            return f"the strategy {self.strategy} does not reduce the difference to 0"
        reason = _not_real((("left", lhs), ("right", rhs)), given)
        if reason:
            return reason
        small, big = (lhs, rhs) if self.rel in ("<=", "<") else (rhs, lhs)
        names = self.strategy
        pairs: list = [(small, big)]
        mapped = bool(names) and names[0] in SIDE_STRATEGIES
        if mapped:
            try:
                pairs = SIDE_STRATEGIES[names[0]](small, big, given)
            except ValueError as e:  # the side strategy does not apply: nothing is proved
                return f"the side strategy {names[0]!r} does not apply: {e}"
            names = names[1:]
        strict = self.rel in ("<", ">")
        for small, big in pairs:  # a side strategy may split the relation: every part must be proved
            reason = _not_real((("smaller", small), ("larger", big)), given) if mapped else ""
            if reason:  # a side strategy mapped the sides: the relation it left is between reals too
                return f"after {self.strategy[0]!r}, {reason}"
            gap = reduce_difference(big, small, names, given)
            if not (_ask(sp.Q.positive(gap), gap.is_positive, given) if strict else nonnegative(gap, given)):
                return f"the gap {_short(gap)} is not proved " + ("positive" if strict else "nonnegative")
        return ""


#: What a value must keep of its variable's declaration (checked for each instantiated symbol and sequence).
#: ``complex`` and ``finite`` are not asked: every expression of the fragment is a finite complex number (infinities
#: are refused), though SymPy cannot tell it of a Sum.
_KEPT = (
    "integer", "rational", "real", "positive", "nonnegative", "negative", "nonpositive", "nonzero", "zero", "even",
    "odd", "imaginary",
)  # fmt: skip

#: The order relations, and the relational each of SymPy's binary predicates ``Q.gt(a, b)``... stands for.
_ORDER = (sp.Ge, sp.Gt, sp.Le, sp.Lt)
_RELATION_OF = {sp.Q.gt: sp.Gt, sp.Q.ge: sp.Ge, sp.Q.lt: sp.Lt, sp.Q.le: sp.Le, sp.Q.eq: sp.Eq, sp.Q.ne: sp.Ne}


def _proved(cond, given: tuple) -> bool:
    r"""Whether a relation is proved from the assumptions and ``given`` (``=`` by ``expand`` to 0; an order relation
    only between sides proved real)."""
    if cond is sp.true:
        return True
    if isinstance(cond, sp.Eq):
        return sp.expand(cond.lhs - cond.rhs) == 0
    if isinstance(cond, _ORDER):
        if not (_is_real(cond.lhs, given) and _is_real(cond.rhs, given)):
            return False
        gap = cond.lhs - cond.rhs if isinstance(cond, (sp.Ge, sp.Gt)) else cond.rhs - cond.lhs
        gap = sp.expand(gap)
        if isinstance(cond, (sp.Gt, sp.Lt)):
            return _ask(sp.Q.positive(gap), gap.is_positive, given)
        return _ask(sp.Q.nonnegative(gap), gap.is_nonnegative, given)
    return False


def _fact_proved(fact, given: tuple) -> bool:
    r"""Whether a hypothesis of a lemma, at an instance, is proved: a relation like a condition (:func:`_proved`),
    ``Q.gt(a, b)`` and its kin as that relation, ``Q.positive(e)`` and its kin from ``e``'s assumptions and
    ``given``, an ``And`` part by part."""
    if fact is sp.true:
        return True
    if isinstance(fact, sp.And):
        return all(_fact_proved(f, given) for f in fact.args)
    if isinstance(fact, (sp.Eq, *_ORDER)):
        return _proved(fact, given)
    if isinstance(fact, AppliedBinaryRelation) and fact.function in _RELATION_OF:
        relation = _RELATION_OF[fact.function](fact.lhs, fact.rhs, evaluate=False)
        if isinstance(relation, (sp.Eq, *_ORDER)):
            return _proved(relation, given)
        return _ask(fact, None, given)  # Ne: only from given
    if isinstance(fact, sp.AppliedPredicate):
        fast = None
        if len(fact.arguments) == 1 and fact.function.name in _KEPT:
            fast = getattr(_sympify(fact.arguments[0]), f"is_{fact.function.name}", None)
        return _ask(fact, fast, given)
    return False


def _keeps(value, fact: str, given: tuple) -> bool:
    r"""Whether ``value`` is proved ``fact`` (an assumption of :data:`_KEPT`), from its assumptions and ``given``."""
    if getattr(value, f"is_{fact}", None) is True:
        return True
    return _ask(getattr(sp.Q, fact)(value), None, given)


def _index_dummy(index) -> sp.Dummy:
    r"""A dummy carrying what SymPy proves of a lemma's index (``i + 1`` for a nonnegative integer ``i``: a positive
    integer), and nothing else: a sequence's value is judged at it, never at the lemma's own symbols (a user's symbol
    may share a name and assumptions with one)."""
    facts = ("integer", "positive", "nonnegative", "negative", "nonpositive", "nonzero", "zero", "even", "odd")
    kw = {f: True for f in facts if getattr(index, f"is_{f}", None) is True}
    if not kw and index.is_real:
        kw["real"] = True
    return sp.Dummy("k", **kw)


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
    r"""A lemma: ``theorem`` (a :class:`~posproof.symbolic.engine.core.Theorem`, proved once, every step
    symbolically) in the ``variables`` it may be instantiated at, with ``conditions`` (SymPy relations in those
    variables) that every instance must prove; the theorem's ``given`` facts are conditions of every instance too."""

    name: str
    theorem: Statement
    variables: tuple
    conditions: tuple = ()

    @functools.cached_property
    def refusal(self) -> str:
        r"""Why the lemma may not be cited (``""`` if it may): its theorem must be a Theorem that verifies, every step
        proved by the symbolic line (computed once per process)."""
        t = self.theorem
        if type(t) not in CITABLE:
            what = {
                "definition": "a Definition (an equation checked at sampled points, not proved)",
                "fact": "a Fact (a computed value, not a proof)",
            }.get(str(getattr(t, "kind", "")), f"a {type(t).__name__}")
            return f"lemma {self.name!r} is {what}: only a Theorem whose every step is proved symbolically can be cited"
        res = t.verify()
        if not res.ok:
            return f"lemma {self.name!r} is not proved ({t.id}: {res.detail or 'it does not verify'})"
        numeric_only = [r.index for r in res.steps if r.symbolic is not True]
        if numeric_only or res.symbolic is not True:
            return (
                f"lemma {self.name!r} is not proved symbolically (steps {numeric_only} hold on the numeric line only): "
                "only a Theorem whose every step is proved symbolically can be cited"
            )
        return ""

    @functools.cached_property
    def proved(self) -> bool:
        r"""Whether the lemma may be cited: a Theorem that verifies with every step proved symbolically."""
        return not self.refusal

    @functools.cached_property
    def _verdicts(self) -> dict:
        r"""What :meth:`Citation.problems` found for each citation of this lemma, by step and ``given`` (see
        :func:`_verdict_key`), in this process."""
        return {}

    def _variable(self, name: str):
        for v in self.variables:
            if str(v) == name or v == name:
                return v
        raise ValueError(
            f"mapping: lemma {self.name!r} has no variable {name!r} (it has {[str(v) for v in self.variables]})"
        )

    def values(self, mapping: Mapping) -> dict:
        r"""``mapping`` (variable or its name -> value) as variable -> SymPy value, checked: every value a SymPy
        expression (strictly: a string is never parsed), a sequence's a ``Lambda`` of its indices and only a
        sequence's, every variable given one."""
        values = {}
        for k, v in mapping.items():
            var = self._variable(str(k))
            try:
                v = _sympify(v)
            except SympifyError:
                raise ValueError(
                    f"mapping: the value of {var} must be a SymPy expression, got {v!r} ({type(v).__name__})"
                ) from None
            if isinstance(var, sp.IndexedBase) != isinstance(v, sp.Lambda):
                raise ValueError(
                    f"mapping: {var} is a sequence; give a Lambda of its index, got {v!r}"
                    if isinstance(var, sp.IndexedBase)
                    else f"mapping: {var} is not a sequence; give an expression, got the Lambda {v!r}"
                )
            values[var] = v
        missing = [str(v) for v in self.variables if v not in values]
        if missing:
            raise ValueError(f"mapping: lemma {self.name!r} needs values for {missing}")
        return values

    def _at(self, values: dict):
        def at(e):
            e = bind(e)
            for var, val in values.items():
                if isinstance(var, sp.IndexedBase):
                    e = e.replace(
                        lambda x, var=var: isinstance(x, sp.Indexed) and x.base == var,
                        lambda x, val=val, var=var: _apply(val, x.indices, var),
                    )
            return e.xreplace({k: v for k, v in values.items() if not isinstance(k, sp.IndexedBase)})

        return at

    def instance(self, mapping: Mapping) -> tuple:
        r"""``(lhs, rhs, conditions)`` of the lemma at ``mapping`` (variable or its name -> value; an IndexedBase
        variable takes a ``Lambda`` of its indices). Bound variables of the lemma are renamed first, so a value
        cannot be captured by them."""
        t = self.theorem
        if getattr(t, "lhs", None) is None or getattr(t, "rhs", None) is None:
            raise ValueError(f"theorem: lemma {self.name!r} has no sides to cite ({self.refusal or 'not a Theorem'})")
        at = self._at(self.values(mapping))
        return at(t.lhs), at(t.rhs), tuple(at(c) for c in self.conditions)

    def hypotheses(self, mapping: Mapping) -> tuple:
        r"""The theorem's ``given`` facts at ``mapping``: side conditions of the instance, like ``conditions``."""
        at = self._at(self.values(mapping))
        return tuple(at(g) for g in getattr(self.theorem, "given", ()))

    @functools.cached_property
    def _indices(self) -> dict:
        r"""Each sequence variable's indices, as the lemma reads it (its sides, its steps' sides, its conditions and
        given facts, bound variables as :func:`~.strategies.bind`'s dummies): a value is judged at each."""
        t = self.theorem
        exprs = [t.lhs, t.rhs, *self.conditions, *getattr(t, "given", ())]
        for st in getattr(t, "steps", ()):
            exprs += [st.lhs, st.rhs]
        out: dict = {v: set() for v in self.variables if isinstance(v, sp.IndexedBase)}
        for e in exprs:
            if not isinstance(e, sp.Basic):
                continue
            try:
                e = bind(e)
            except ValueError:
                pass
            for x in e.atoms(sp.Indexed):
                if x.base in out:
                    out[x.base].add(x.indices)
        return out

    def cite(
        self,
        mapping: Mapping,
        why: str = "",
        strategy: tuple[str, ...] = ("identity",),
        beside=None,
        context=None,
        **step,
    ) -> Step:
        r"""A step citing this lemma at ``mapping``: its sides are the instance's (plus ``beside``, a SymPy
        expression, on both sides; or, for an equality, inside ``context``, a ``sympy.Lambda`` of one variable:
        ``C(a) = C(b)`` from ``a = b``), unless ``lhs``/``rhs`` are given (then ``strategy`` must reduce each to
        that side)."""
        if context is not None and self.theorem.rel != "=":
            raise ValueError(f"context: lemma {self.name!r} is an inequality; only equalities hold inside a context")
        citation = Citation(self, tuple(mapping.items()), beside, context)
        lhs, rhs, _ = self.instance(mapping)
        if citation.beside is not None:
            lhs, rhs = citation.beside + lhs, citation.beside + rhs
        if citation.context is not None:
            lhs, rhs = citation.context(lhs), citation.context(rhs)
        return Step(
            step.get("lhs", lhs),
            step.get("rhs", rhs),
            f"{why or self.name} (cites {self.theorem.id})",
            strategy,
            self.theorem.rel,
            cites=citation,
        )


def _apply(val: sp.Lambda, indices: tuple, var):
    r"""A sequence's value ``val`` (a ``Lambda``) at ``indices``, by substitution."""
    if len(val.variables) != len(indices):
        raise ValueError(
            f"mapping: {var} is read with {len(indices)} index(es), its value {val} takes {len(val.variables)}"
        )
    return val(*indices)


def _capture_problem(context: sp.Lambda, sides: tuple, given: tuple) -> str:
    r"""Why ``context`` may bind a variable of the instance's ``sides`` unsoundly (``""`` if it may not, or only
    soundly). ``C(a) = C(b)`` needs ``a = b`` at every value ``C`` gives a variable it binds: a Sum, Product or
    Maximum may bind one (its range is checked to imply the variable's declaration when the sides are bound, and
    the instance holds wherever that declaration does), provided no ``given`` fact mentions it; any other binder
    (a derivative, a Lambda) may not."""
    (w,) = context.variables
    free = set().union(*(s.free_symbols for s in sides if isinstance(s, sp.Basic)))
    facts = set().union(*(g.free_symbols for g in given if isinstance(g, sp.Basic)))
    for node in sp.preorder_traversal(context.expr):
        if not (isinstance(node, sp.Basic) and node.has(w)):
            continue
        if isinstance(node, (sp.Sum, sp.Product, Maximum)):
            captured = {v for v, *_ in node.limits} & free
            if captured & facts:
                return (
                    f"the context binds {sorted(map(str, captured & facts))} in a {type(node).__name__}, which the "
                    "claim's given facts mention"
                )
            continue
        bound = set(getattr(node, "bound_symbols", ()) or ())
        if isinstance(node, (sp.Derivative, sp.Lambda, sp.Subs)):
            bound |= set(node.variables)
        if bound & free:
            return (
                f"the context binds {sorted(map(str, bound & free))} in a {type(node).__name__}: only a Sum, Product "
                "or Maximum may bind a variable of the instance"
            )
    return ""


@dataclass(frozen=True)
class Citation:
    r"""A lemma cited at an instantiation: what :meth:`Step.check_symbolic` asks when a step cites a lemma."""

    lemma: Lemma
    mapping: tuple
    #: A SymPy term added to both sides of the instance (``c + a <= c + b`` from ``a <= b``), or ``None``.
    beside: Any = None
    #: A ``sympy.Lambda`` of one variable both sides of an equality instance are put in, by substitution
    #: (``C(a) = C(b)`` from ``a = b``), or ``None``.
    context: Any = None

    def __post_init__(self):
        if self.beside is not None:
            try:
                object.__setattr__(self, "beside", _sympify(self.beside))
            except SympifyError:
                raise ValueError(
                    f"beside must be a SymPy expression, got {self.beside!r} ({type(self.beside).__name__})"
                ) from None
        if self.context is not None and not (isinstance(self.context, sp.Lambda) and len(self.context.variables) == 1):
            raise ValueError(
                "context must be a sympy.Lambda of one variable (applied by substitution: Lambda(w, C)(a) is C "
                f"with w replaced by a), got {self.context!r} ({type(self.context).__name__})"
            )
        if isinstance(self.lemma, Lemma):
            self.lemma.values(dict(self.mapping))

    def problems(self, step: Step, given: tuple = ()) -> list[str]:
        r"""Why the citation does not prove ``step`` (empty when it does)."""
        lemma = self.lemma
        if not lemma.proved:
            return [lemma.refusal]
        if step.rel != lemma.theorem.rel:
            return [f"the lemma states '{lemma.theorem.rel}', the step is '{step.rel}'"]
        if step.rel != "=":
            try:
                reason = _not_real((("left", bind(step.lhs, given)), ("right", bind(step.rhs, given))), given)
            except ValueError as e:
                reason = str(e)
            if reason:
                return [reason]
        mapping = dict(self.mapping)
        values = lemma.values(mapping)
        lhs, rhs, conditions = lemma.instance(mapping)
        out = []
        for var, value in values.items():
            declared = [f for f in _KEPT if getattr(var, f"is_{f}", None) is True]
            if isinstance(var, sp.IndexedBase):
                for indices in sorted(lemma._indices.get(var, ()), key=sp.srepr):
                    term = _apply(value, tuple(_index_dummy(x) for x in indices), var)
                    lost = [f for f in declared if not _keeps(term, f, given)]
                    if lost:
                        at = ", ".join(map(str, indices))
                        out.append(
                            f"{var} is {lost[0]} in the lemma, its value {value} is not proved {lost[0]} at the "
                            f"index {at}"
                        )
                        break
                continue
            for fact in declared:
                if not _keeps(value, fact, given):
                    out.append(f"{var} is {fact} in the lemma, {value} is not proved {fact}")
        out += [f"condition {c} is not proved" for c in conditions if not _proved(c, given)]
        out += [
            f"the lemma's hypothesis {g} is not proved at the instance"
            for g in lemma.hypotheses(mapping)
            if not _fact_proved(g, given)
        ]
        sides = (step.lhs, step.rhs)
        inner = congruent(*sides)
        if self.context is not None:  # C(a) = C(b) from a = b (cite refuses a context for an inequality)
            if lemma.theorem.rel != "=":
                return [f"a context needs an equality lemma, {lemma.name!r} states '{lemma.theorem.rel}'"]
            capture = _capture_problem(self.context, (lhs, rhs), given)
            if capture:
                return [*out, capture]
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

    def reasons(self, step: Step, given: tuple = ()) -> tuple[str, ...]:
        r""":meth:`problems`, asked once per process for each step and ``given`` (a step or a ``given`` that is not
        equal, type for type, is asked afresh)."""
        if not isinstance(self.lemma, Lemma):
            return (f"the citation cites a {type(self.lemma).__name__}, not a Lemma",)
        verdicts = self.lemma._verdicts
        key = _verdict_key(self, step, given)
        try:
            verdict = verdicts.get(key)
        except TypeError:  # a part that cannot be hashed (a mutable Matrix side): asked every time
            return tuple(self.problems(step, given))
        if verdict is None:
            verdict = verdicts[key] = tuple(self.problems(step, given))
        return verdict

    def holds(self, step: Step, given: tuple = ()) -> bool:
        r"""Whether the citation proves ``step`` (:meth:`problems` finds nothing; see :meth:`reasons`)."""
        return not self.reasons(step, given)


def _typed(x) -> tuple:
    r"""``x`` with its type, recursively through tuples: ``2``, ``2.0``, ``True`` and ``Integer(2)`` are equal in
    Python but not the same value to cite. (SymPy objects compare structurally, their assumptions included: a
    citation's ``context``, a ``Lambda``, too.)"""
    if isinstance(x, tuple):
        return (tuple, tuple(_typed(y) for y in x))
    return (type(x), x)


def _verdict_key(citation: Citation, step: Step, given: tuple) -> tuple:
    r"""Everything :meth:`Citation.problems` reads besides the lemma's proof (whose verdicts are kept on the lemma):
    the lemma's conditions and hypotheses, the instantiation, ``beside`` and ``context``, the step's sides, relation
    and strategy, ``given`` and SymPy's global assumptions."""
    lemma = citation.lemma
    hypotheses = tuple(getattr(lemma.theorem, "given", ()))
    parts: tuple = (lemma.conditions, hypotheses, citation.mapping, citation.beside, citation.context)
    parts += (step.lhs, step.rhs, step.rel, step.strategy)
    return _typed((*parts, tuple(given), tuple(sorted(map(sp.srepr, sp.assumptions.global_assumptions)))))
