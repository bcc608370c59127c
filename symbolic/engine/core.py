# Long module: the three claim kinds with everything they check when built (the fragment, sizes, domains, given)
# and verified; steps and lemmas (step.py), strategies and the numeric line are apart.
r"""The verification core: a claim is a derivation whose every step is checked twice, independently.

There are three kinds of claims, counted apart:

* a **theorem** (:class:`Theorem`): ``lhs rel rhs`` with an ordered derivation of :class:`Step`\ s. Each step is

  - proved *symbolically*: a named strategy (:data:`STRATEGIES`, every one an equivalence under the symbols'
    declared assumptions) reduces ``lhs - rhs`` to exactly zero; an inequality reduces the gap to an
    expression SymPy proves nonnegative (``<=``) or positive (``<``) from the assumptions and ``given`` facts;
  - checked *numerically*, as an independent second line: both sides are evaluated with mpmath at ``dps``
    significant digits at seeded points covering the symbols' domains (edge values, and values spread over
    many orders of magnitude, at every declared size); the error relative to the size of the terms must stay
    below ``10**-(dps - GUARD_DIGITS)``. A step whose two sides are identical once the sizes are substituted
    reports ``numeric: "identical"``: that is no evidence, and it is never shown as an error of 0.

  Functions such as DeBERTa's clipped index or the RoPE layout permutation are :class:`Kernel`\ s: symbolically
  they unfold to their definition (``doit``), numerically they are evaluated by the code in :mod:`numeric`.
* a **definition** (:class:`Definition`): true by construction and printed "by definition"; what is checked is
  that the implementation in :mod:`numeric` computes the defining formula (numerically, like a step).
* a **fact** (:class:`Fact`): a computed statement (``"phi(k) decreases up to k = 43"``). ``compute`` returns the
  value and the table it was computed from; ``method`` says what computed it.

Every claim registers a ``wrong`` variant that must be rejected: a wrong right-hand side (theorems,
definitions) or a wrong *computation* (facts).

>>> import sympy as sp
>>> x = sp.Symbol("x", real=True)
>>> claim = Theorem("demo", "Pythagoras", "demo", "none",
...                  steps=(Step(sp.sin(x)**2 + sp.cos(x)**2, sp.Integer(1), "Pythagoras", ("trigsimp",)),))
>>> claim.verify(dps=30).ok
True
>>> claim.with_rhs(sp.Integer(2)).verify(dps=30).ok
False
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import mpmath
import sympy as sp
from posproof.numeric import formatting
from posproof.symbolic.engine import fragment, settings
from posproof.symbolic.engine.display import Printable
from posproof.symbolic.engine.kernel import Kernel
from posproof.symbolic.engine.numeric_line import Domain, domain_key, numeric_check, size_combinations
from posproof.symbolic.engine.results import NumericResult, StepResult, VerifyResult
from posproof.symbolic.engine.step import RELATIONS, Step, citable
from posproof.symbolic.engine.strategies import (
    STRATEGIES,
    bind,
    combine_sums,
    reduce_difference,
)

__all__ = [
    "RELATIONS",
    "STRATEGIES",
    "Step",
    "Theorem",
    "Definition",
    "Fact",
    "Kernel",
    "StepResult",
    "VerifyResult",
    "Domain",
    "reduce_difference",
    "combine_sums",
]


# ==============================================================================================================
# Steps, claims and their results.
# ==============================================================================================================

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="}


def _floats(e) -> set:
    r"""The ``Float`` atoms of ``e`` (entries of a matrix too)."""
    if isinstance(e, sp.MatrixBase):
        return set().union(*[_floats(x) for x in e]) if e else set()
    if isinstance(e, sp.Basic):
        return e.atoms(sp.Float)
    return set()


def _check_exact(claim_id: str, named: dict) -> None:
    r"""Refuse ``Float`` atoms in what is proved: SymPy absorbs a Float at 15 digits (``x (1 + 10^-45) = x`` would
    verify), so theorems and definitions hold exact numbers only (``Rational``, ``Integer``, ``sqrt(2)``...)."""
    for name, e in named.items():
        bad = _floats(e)
        if bad:
            raise ValueError(
                f"{claim_id!r}: {name} holds the Float {sorted(bad, key=str)[0]}; write exact numbers (sp.Rational)"
            )


def _check_sizes(claim_id: str, sizes: Mapping) -> None:
    r"""Refuse a size outside its symbol's assumptions (``d = 0`` for a positive ``d``, an odd value for an even
    one): the numeric line would check the claim where it is not claimed."""
    for sym, values in sizes.items():
        for v in values:
            if isinstance(v, bool) or not isinstance(v, int):
                raise ValueError(f"{claim_id!r}: sizes[{sym}] must be integers, got {v!r}")
            value = sp.Integer(v)
            declared = getattr(sym, "assumptions0", {})
            for name in ("integer", "even", "odd", "positive", "nonnegative", "negative", "nonpositive", "nonzero"):
                holds, has = declared.get(name), getattr(value, f"is_{name}")
                if holds is not None and has is not None and has != holds:
                    raise ValueError(f"{claim_id!r}: sizes[{sym}] = {v} is not {name if holds else 'non-' + name}")


def _check_text(kind: str, fields: dict) -> None:
    r"""Refuse a claim whose id, title, topic or source is not a string (every printer reads them)."""
    for name, value in fields.items():
        if not isinstance(value, str) or (name == "id" and not value):
            raise ValueError(f"{kind} {fields.get('id')!r}: {name} must be a (nonempty) string, got {value!r}")


def _check_fragment(claim_id: str, named: dict, given: tuple = (), *, evaluated: bool = False) -> None:
    r"""Refuse, when the claim is built, any expression outside the fragment (:mod:`.fragment`): one line naming the
    claim, the part and the construct. Bound variables are first replaced by :func:`~.strategies.bind`'s dummies
    (what a condition such as "the index is an integer" may use of them is what their range implies); a range that
    is not proved forward is refused by the symbolic line when the claim is verified."""
    reason = fragment.given_refusal(tuple(given))
    if reason:
        raise fragment.Refused(f"{claim_id!r}, given: {reason}")
    bound = {}
    for name, e in named.items():
        if e is None:
            continue
        try:
            bound[name] = bind(e, given)
        except ValueError:  # a reversed range: the verification says so
            bound[name] = e
    if evaluated:  # a definition's left side applies its kernel: checked as a proved expression
        lhs = {k: v for k, v in bound.items() if k == "lhs"}
        name, reason = fragment.refusals(lhs, given=tuple(given))
        if not reason:
            rest = {k: v for k, v in bound.items() if k != "lhs"}
            name, reason = fragment.refusals(rest, given=tuple(given), evaluated=True)
    else:
        name, reason = fragment.refusals(bound, given=tuple(given))
    if reason:
        raise fragment.Refused(f"{claim_id!r}, {name}: {reason}")


def _free_of(parts) -> set:
    out: set = set()
    for e in parts:
        out |= _free(e)
        if isinstance(e, sp.Basic):
            out |= {a for m in e.atoms(sp.MatrixSymbol) for a in _free(sp.Tuple(*m.shape))}
    return out


def _check_size_keys(claim_id: str, sizes: Mapping, parts) -> None:
    r"""Refuse ``sizes`` keyed by anything but a symbol of the claim (``{"d": ...}`` or a symbol the claim does not
    have would be silently ignored)."""
    free = _free_of(parts)
    for key in sizes:
        if not isinstance(key, sp.Symbol):
            raise ValueError(f"{claim_id!r}: sizes must be keyed by SymPy symbols of the claim, got {key!r}")
        if key not in free:
            names = ", ".join(sorted(str(x) for x in free if isinstance(x, sp.Symbol))) or "none"
            raise ValueError(
                f"{claim_id!r}: sizes[{key}]: {key} is not a symbol of the claim (with these assumptions); it has "
                f"{names}"
            )


def _named_atoms(parts) -> dict:
    r"""The symbols, IndexedBases and MatrixSymbols of the claim's expressions, by the name a domain is given under."""
    out: dict = {}
    for e in parts:
        entries = list(e) if isinstance(e, sp.MatrixBase) else [e]
        for x in entries:
            if not isinstance(x, sp.Basic):
                continue
            for a in sp.preorder_traversal(x):
                if isinstance(a, (sp.Symbol, sp.IndexedBase, sp.MatrixSymbol)) and not isinstance(a, sp.Dummy):
                    out.setdefault(domain_key(a), a)
    return out


def _bound_number(v):
    r"""A domain bound as a SymPy number (a float exactly; a SymPy expression as it is)."""
    if isinstance(v, sp.Basic):
        return v
    if isinstance(v, int):
        return sp.Integer(v)
    return sp.Rational(float(v))


def _check_domains(claim_id: str, domains: Mapping, parts) -> None:
    r"""Refuse a domain under a name the claim does not have (it would be silently ignored), and one that draws
    values its symbol's declaration excludes (a positive symbol drawn negative: the claim checked where it is not
    claimed, or a counterexample hidden)."""
    atoms = _named_atoms(parts)
    for name, dom in domains.items():
        if name not in atoms:
            raise ValueError(
                f"{claim_id!r}: domains[{name!r}]: the claim has no symbol, IndexedBase or MatrixSymbol named {name!r} "
                f"(it has {', '.join(sorted(atoms)) or 'none'})"
            )
        atom = atoms[name]
        base = atom.label if isinstance(atom, sp.IndexedBase) else atom
        if isinstance(base, sp.MatrixSymbol):
            continue
        problem = ""
        if base.is_integer and dom.kind != "integer":
            problem = "an integer drawn from a non-integer domain"
        elif base.is_real and dom.kind == "complex":
            problem = "a real drawn from a complex domain"
        else:
            lo, hi = (_bound_number(v) for v in (dom.lo, dom.hi))
            if (base.is_nonnegative or base.is_positive) and lo.is_negative:
                problem = f"a {'positive' if base.is_positive else 'nonnegative'} symbol drawn from {dom.lo}"
            elif (base.is_nonpositive or base.is_negative) and hi.is_positive:
                problem = f"a {'negative' if base.is_negative else 'nonpositive'} symbol drawn up to {dom.hi}"
        if problem:
            raise ValueError(f"{claim_id!r}: domains[{name!r}] disagrees with the declaration of {name}: {problem}")


def _check_given(claim_id: str, given: tuple, parts) -> None:
    r"""Refuse ``given`` facts about symbols the claim does not have (a ``Symbol("x")`` beside the claim's real
    ``x`` is another symbol), and facts that contradict the declarations or each other (from a contradiction
    everything follows)."""
    free = _free_of(parts)
    for k, fact in enumerate(given):
        foreign = sorted(map(str, set(getattr(fact, "free_symbols", set())) - free))
        if foreign:
            raise ValueError(
                f"{claim_id!r}: given[{k}] {fact} is about {', '.join(foreign)}, which the claim does not have (a "
                "symbol of the same name with other assumptions is another symbol)"
            )
        others = [g for j, g in enumerate(given) if j != k]
        try:
            verdict = sp.ask(fact, sp.And(*others)) if others else sp.ask(fact)
        except (TypeError, ValueError, NotImplementedError):
            verdict = None
        if verdict is False:
            raise ValueError(
                f"{claim_id!r}: given[{k}] {fact} contradicts the declarations"
                + (" and the other given facts" if others else "")
                + ": from a contradiction everything follows"
            )


#: The SymPy relation a printed ``formula`` must be for each claim relation (or the flipped one, sides swapped).
_FORMULA_REL = {
    "=": sp.Equality,
    "<": sp.StrictLessThan,
    "<=": sp.LessThan,
    ">": sp.StrictGreaterThan,
    ">=": sp.GreaterThan,
}


def _check_dps(dps) -> int:
    if isinstance(dps, bool) or not isinstance(dps, int) or not (settings.MIN_DPS <= dps <= settings.MAX_DPS):
        raise ValueError(f"dps must be an integer in [{settings.MIN_DPS}, {settings.MAX_DPS}], got {dps!r}")
    return dps


def _run_step(k: int, step: Step, dps: int, sizes_list, domains, rng, given=()) -> StepResult:
    reason = ""
    try:
        reason = step.symbolic_problem(given)
        sym = not reason
    except Exception as e:  # a strategy that cannot handle the expression proves nothing
        sym, reason = False, f"strategy raised {type(e).__name__}: {e}"
    try:
        num = numeric_check(step, dps, sizes_list, domains, rng, given)
    except Exception as e:  # an expression that cannot be evaluated is not checked: a failure
        num = NumericResult("disagree", 0, math.inf, f"numeric evaluation raised {type(e).__name__}: {e}")
    return StepResult(k, sym, num, reason)


def _perturb(e):
    r"""A generic perturbation of an expression: ``2 e`` for matrices, ``e + 1/7`` for scalars."""
    if isinstance(e, (sp.MatrixBase, sp.MatrixExpr)):
        return sp.MatMul(sp.Integer(2), e) if isinstance(e, sp.MatrixExpr) else 2 * e
    return e + sp.Rational(1, 7)


@citable
@dataclass(frozen=True)
class Theorem(Printable):
    r"""A theorem ``lhs rel rhs`` with its derivation.

    ``sizes`` maps a size symbol (e.g. ``d``) to the values tried numerically (every one is tried); Sums,
    matrices and Indexed components are made concrete at those sizes. ``domains`` overrides the numeric domain
    of a symbol, IndexedBase or MatrixSymbol by name (printed with the assumptions). ``given`` holds facts
    beyond the symbols' assumptions (e.g. ``b > 1``) that inequality steps may use. If the steps form a chain
    ``lhs = e1 <= ... = rhs`` the claim follows by transitivity (a strict claim needs a strict step, ``<=`` at
    least one ``<=``); otherwise ``strategy`` proves the claim directly."""

    id: str
    title: str
    topic: str
    source: str
    steps: tuple[Step, ...]
    lhs: Any = None
    rhs: Any = None
    rel: str = "="
    strategy: tuple[str, ...] | None = None
    assumptions: tuple[str, ...] = ()
    given: tuple = ()
    sizes: Mapping[sp.Symbol, tuple[int, ...]] = field(default_factory=dict)
    domains: Mapping[str, Domain] = field(default_factory=dict)
    notes: str = ""
    #: A plausible mistake (wrong right-hand side) that verification must reject.
    wrong: Any = None
    #: A short symbolic statement of the claim (SymPy, with named matrix or function symbols) for headings; the
    #: derivation's own sides are often too long for one.
    formula: Any = None

    kind = "theorem"

    def __post_init__(self):
        if not self.steps:
            raise ValueError(f"identity {self.id!r} needs at least one step")
        if self.rel not in RELATIONS:
            raise ValueError(f"rel must be one of {sorted(RELATIONS)}, got {self.rel!r}")
        if self.lhs is None:
            object.__setattr__(self, "lhs", self.steps[0].lhs)
        if self.rhs is None:
            object.__setattr__(self, "rhs", self.steps[-1].rhs)
        if self.strategy is None and not self.chained:
            raise ValueError(f"identity {self.id!r}: steps do not chain lhs to rhs, so a claim strategy is needed")
        exprs = {"lhs": self.lhs, "rhs": self.rhs, "wrong": self.wrong, "formula": self.formula}
        for k, st in enumerate(self.steps):
            exprs[f"steps[{k}].lhs"], exprs[f"steps[{k}].rhs"] = st.lhs, st.rhs
        for k, fact in enumerate(self.given):
            exprs[f"given[{k}]"] = fact
        _check_text("theorem", {"id": self.id, "title": self.title, "topic": self.topic, "source": self.source})
        _check_exact(self.id, exprs)
        _check_sizes(self.id, self.sizes)
        proved = {k: v for k, v in exprs.items() if k.startswith("steps")}  # steps first: the message names one
        proved |= {k: exprs[k] for k in ("lhs", "rhs", "wrong")}
        _check_fragment(self.id, proved, tuple(self.given))
        claim_parts = [v for k, v in proved.items() if k != "wrong"]
        _check_size_keys(self.id, self.sizes, claim_parts)
        _check_domains(self.id, self.domains, claim_parts)
        _check_given(self.id, tuple(self.given), claim_parts)

    @functools.cached_property
    def chained(self) -> bool:
        r"""Whether the steps read ``lhs, e1, ..., rhs`` (each step's right side is the next one's left side)."""
        s = self.steps
        links = all(_same(a.rhs, b.lhs) for a, b in zip(s, s[1:], strict=False))
        return links and _same(s[0].lhs, self.lhs) and _same(s[-1].rhs, self.rhs)

    def relation_problem(self) -> str:
        r"""Why the chain's relations do not give the claim's relation (empty if they do, or if unchained)."""
        if not self.chained:
            return ""
        rels = [st.rel for st in self.steps]
        if self.rel == "=":
            bad = sorted(set(rels) - {"="})
            return f"an '=' claim needs '=' steps only, got {bad}" if bad else ""
        direction = {"<", "<="} if self.rel in ("<", "<=") else {">", ">="}
        if set(rels) - direction - {"="}:
            return f"a '{self.rel}' claim cannot follow from steps {rels} (mixed directions)"
        strict = "<" if self.rel in ("<", "<=") else ">"
        if self.rel in ("<", ">") and strict not in rels:
            return f"a strict '{self.rel}' claim needs a strict step, every step is '=' or non-strict: {rels}"
        if set(rels) == {"="}:
            return f"a '{self.rel}' claim needs at least one inequality step; every step is '=' (state it as '=')"
        return ""

    @property
    def hypotheses(self) -> tuple:
        r"""What the proof assumed beyond the symbols' declared assumptions: the ``given`` facts, in order. Whatever
        prints the claim must print these with the statement."""
        return tuple(self.given)

    def formula_problem(self) -> str:
        r"""Why ``formula`` (the statement printed in headings) is not the proved relation, or ``""``.

        The printed relation must be the claim's (``a < b`` may be printed ``b > a``). When the formula's two sides
        are expressions the numeric line can evaluate, each must equal the claim's side at the numeric points
        (checked by :meth:`verify`); a formula with display-only functions is checked for its relation only."""
        f = self.formula
        if isinstance(f, sp.logic.boolalg.BooleanAtom):  # sp.Eq(1, 2) is already False
            return f"formula is {f}, not a relation"
        if not isinstance(f, sp.core.relational.Relational):  # None, a tuple of statements, an implication
            return ""
        want = _FORMULA_REL[self.rel]
        flipped = _FORMULA_REL[_FLIP[self.rel]]
        if type(f) is not want and type(f) is not flipped:
            return f"formula {f} is a {type(f).__name__}, the claim is '{self.rel}'"
        return ""

    def formula_sides(self) -> tuple | None:
        r"""``(formula side, claim side)`` pairs to compare numerically, or ``None`` if the formula holds functions
        only a printer knows (undefined functions, symbols the claim does not have)."""
        f = self.formula
        if not isinstance(f, sp.core.relational.Relational) or self.formula_problem():
            return None
        lhs, rhs = (f.lhs, f.rhs) if type(f) is _FORMULA_REL[self.rel] else (f.rhs, f.lhs)
        known = _free(self.lhs) | _free(self.rhs)
        for side, proved in ((lhs, self.lhs), (rhs, self.rhs)):
            if not isinstance(side, sp.Basic) or side.atoms(sp.core.function.AppliedUndef) or not _free(side) <= known:
                return None
            if _is_matrix(side) != _is_matrix(proved):  # an entry printed for a vector claim: relation only
                return None
        if _same(lhs, self.lhs) and _same(rhs, self.rhs):
            return ()
        return ((lhs, self.lhs), (rhs, self.rhs))

    @property
    def claim(self) -> Step:
        return Step(self.lhs, self.rhs, "the claim", self.strategy or ("identity",), self.rel)

    def wrong_variant(self) -> Theorem:
        r"""This claim with its registered wrong right-hand side."""
        return self.with_rhs(self.wrong)

    def with_rhs(self, rhs) -> Theorem:
        r"""The same claim with a different right-hand side (used to show that a wrong claim is rejected)."""
        steps = self.steps
        if self.chained:
            steps = steps[:-1] + (dataclasses.replace(steps[-1], rhs=rhs),)
        return dataclasses.replace(self, steps=steps, rhs=rhs)

    def perturbed(self, j: int) -> Theorem:
        r"""The chained claim with intermediate expression ``j`` (the right side of step ``j``, ``j < len(steps) -
        1``) perturbed in both steps that share it: a check that ignores intermediate steps would accept it."""
        if not self.chained or not 0 <= j < len(self.steps) - 1:
            raise ValueError(f"j must index an intermediate expression of a chained claim, got {j}")
        e = _perturb(self.steps[j].rhs)
        steps = list(self.steps)
        steps[j] = dataclasses.replace(steps[j], rhs=e)
        steps[j + 1] = dataclasses.replace(steps[j + 1], lhs=e)
        return dataclasses.replace(self, steps=tuple(steps))

    # ---- verification ----------------------------------------------------------------------------------------
    def _domain(self, atom) -> Domain:
        return self.domains.get(domain_key(atom)) or Domain.of(atom)

    def verify(self, dps: int = settings.DEFAULT_DPS) -> VerifyResult:
        r"""Check every step (and the claim, unless the steps chain to it) symbolically and numerically."""
        dps = _check_dps(dps)
        t0 = time.perf_counter()
        rng = random.Random(f"{settings.SEED}:{self.id}")
        sizes_list = size_combinations(self.sizes)
        checks = list(self.steps) if self.chained else [*self.steps, self.claim]
        results = [_run_step(k, st, dps, sizes_list, self._domain, rng, self.given) for k, st in enumerate(checks)]
        problem = self.relation_problem() or self.formula_problem() or self._formula_mismatch(dps, sizes_list, rng)
        ok = all(r.ok for r in results) and not problem
        errors = [r.numeric.max_rel_error for r in results if r.numeric.max_rel_error is not None]
        details = [problem] if problem else []
        details += [f"step {r.index}: {r.as_dict()['reason']}" for r in results if not r.ok and "reason" in r.as_dict()]
        return VerifyResult(
            self.id,
            self.kind,
            ok,
            all(r.symbolic for r in results) and not problem,
            max(errors) if errors else None,
            dps,
            time.perf_counter() - t0,
            tuple(results),
            "; ".join(details),
        )

    def _formula_mismatch(self, dps: int, sizes_list: list, rng: random.Random) -> str:
        r"""Why the printed formula's sides are not the claim's sides at the numeric points (``""`` if they are, or
        if the formula cannot be evaluated: see :meth:`formula_sides`)."""
        for k, (printed, proved) in enumerate(self.formula_sides() or ()):
            step = Step(printed, proved, "the printed formula", ("identity",))
            try:
                num = numeric_check(step, dps, sizes_list, self._domain, rng, self.given)
            except Exception as e:  # a formula that cannot be evaluated is not shown to be the claim
                return f"the formula's {('left', 'right')[k]} side cannot be evaluated: {type(e).__name__}: {e}"
            if num.status == "disagree":
                return f"the printed formula's {('left', 'right')[k]} side is not the claim's ({num.reason})"
        return ""


def _is_matrix(e) -> bool:
    return isinstance(e, (sp.MatrixBase, sp.MatrixExpr))


def _free(e) -> set:
    if isinstance(e, sp.MatrixBase):
        return set().union(*[_free(x) for x in e]) if e else set()
    return set(e.free_symbols) if isinstance(e, sp.Basic) else set()


def _same(a, b) -> bool:
    try:
        return a == b or (isinstance(a, sp.Basic) and isinstance(b, sp.Basic) and sp.srepr(a) == sp.srepr(b))
    except Exception:
        return False


@dataclass(frozen=True)
class Definition(Printable):
    r"""A definition ``lhs := rhs``: true by construction, printed "by definition", never called a proof.

    ``lhs`` applies a :class:`Kernel` (the implementation in :mod:`numeric`); what is checked is that the
    implementation computes the defining formula ``rhs``, numerically at the points of ``domains``/``sizes``
    (every size tried). ``implementation`` names the code that was checked. ``wrong`` is a plausible wrong
    formula that the implementation must disagree with."""

    id: str
    title: str
    topic: str
    source: str
    lhs: Any
    rhs: Any
    why: str
    implementation: str
    assumptions: tuple[str, ...] = ()
    sizes: Mapping[sp.Symbol, tuple[int, ...]] = field(default_factory=dict)
    domains: Mapping[str, Domain] = field(default_factory=dict)
    notes: str = ""
    wrong: Any = None
    #: A short symbolic statement for headings (see Theorem.formula).
    formula: Any = None
    #: Where the formula is defined, beyond the symbols' assumptions (``Q.gt(d, 2)`` for a quotient by ``d - 2``):
    #: printed with it, and honoured by the numeric line's points.
    given: tuple = ()

    kind = "definition"
    rel = "="
    strategy = None
    chained = True

    def __post_init__(self):
        _check_text("definition", {"id": self.id, "title": self.title, "topic": self.topic, "source": self.source})
        _check_exact(self.id, {"lhs": self.lhs, "rhs": self.rhs, "wrong": self.wrong, "formula": self.formula})
        _check_sizes(self.id, self.sizes)
        entries = list(self.lhs) if isinstance(self.lhs, sp.MatrixBase) else [self.lhs]
        if not entries or not all(isinstance(x, Kernel) for x in entries):
            raise fragment.Refused(
                f"{self.id!r}: a Definition defines code: its left side must apply a Kernel (each entry, for a "
                f"matrix), got {self.lhs!r}; an equation that defines no code is a Theorem to prove"
            )
        formulas = {"lhs": self.lhs, "rhs": self.rhs, "wrong": self.wrong}
        _check_fragment(self.id, formulas, tuple(self.given), evaluated=True)
        _check_size_keys(self.id, self.sizes, [self.lhs, self.rhs])
        _check_domains(self.id, self.domains, [self.lhs, self.rhs])
        _check_given(self.id, tuple(self.given), [self.lhs, self.rhs])

    @property
    def steps(self) -> tuple[Step, ...]:
        return (Step(self.lhs, self.rhs, self.why, ("doit",)),)

    @property
    def hypotheses(self) -> tuple:
        r"""Where the formula is defined beyond the symbols' assumptions: the ``given`` facts, printed with it."""
        return tuple(self.given)

    def _domain(self, atom) -> Domain:
        return self.domains.get(domain_key(atom)) or Domain.of(atom)

    def wrong_variant(self) -> Definition:
        return dataclasses.replace(self, rhs=self.wrong)

    def verify(self, dps: int = settings.DEFAULT_DPS) -> VerifyResult:
        r"""Check that the implementation computes the formula (the numeric line only: nothing to prove)."""
        dps = _check_dps(dps)
        t0 = time.perf_counter()
        rng = random.Random(f"{settings.SEED}:{self.id}")
        step = self.steps[0]
        try:
            num = numeric_check(step, dps, size_combinations(self.sizes), self._domain, rng, tuple(self.given))
        except Exception as e:
            num = NumericResult("disagree", 0, math.inf, f"numeric evaluation raised {type(e).__name__}: {e}")
        res = StepResult(0, None, num)
        ok = num.status == "agree"  # a definition whose implementation is never evaluated checks nothing
        detail = "" if ok else (num.reason or "the implementation was not evaluated (sides identical)")
        return VerifyResult(
            self.id, self.kind, ok, None, num.max_rel_error, dps, time.perf_counter() - t0, (res,), detail,
            method=self.implementation,
        )  # fmt: skip


@dataclass(frozen=True)
class Fact(Printable):
    r"""A claim about computed values: ``compute(dps)`` returns ``(value, table)`` and the claim holds when
    ``value == claim``. ``table`` lists ``(label, value)`` rows saying exactly what was computed; ``method`` says
    what computed it (e.g. ``"mpmath at {dps} digits"``, ``"exact integer arithmetic"``). ``definitions`` are
    :class:`Definition`\ s of what is computed, checked with the fact. ``wrong`` is a plausible wrong
    *computation* (an off-by-one, the other convention): run in place of ``compute``, it must not give
    ``claim``."""

    id: str
    title: str
    topic: str
    source: str
    statement: str
    claim: Any
    compute: Callable[[int], tuple[Any, list[tuple[str, Any]]]]
    method: str
    wrong: Callable[[int], tuple[Any, list[tuple[str, Any]]]] | None = None
    definitions: tuple[Definition, ...] = ()
    notes: str = ""
    #: A short symbolic statement for headings (see Theorem.formula).
    formula: Any = None

    kind = "fact"
    lhs = None
    rhs = None
    steps: tuple = ()

    def __post_init__(self):
        _check_text("fact", {"id": self.id, "title": self.title, "topic": self.topic, "source": self.source})
        for name in ("compute", "wrong"):
            if not callable(getattr(self, name)):
                raise ValueError(
                    f"{self.id!r}: a Fact needs {name}, a function of dps returning (value, table) (the wrong "
                    "computation is what shows the check can fail), got "
                    f"{getattr(self, name)!r}"
                )
        if not isinstance(self.method, str) or not self.method:
            raise ValueError(f"{self.id!r}: method must say what computed the value, got {self.method!r}")

    def wrong_variant(self) -> Fact:
        r"""The same fact computed the wrong way (it must not reproduce the claim)."""
        if self.wrong is None:
            raise ValueError(f"fact {self.id!r} registers no wrong computation")
        return dataclasses.replace(self, compute=self.wrong, definitions=())

    def _wrong_problem(self, dps: int) -> str:
        r"""Why the wrong computation does not show that the check can fail (``""`` when it computes a value other
        than the claim): run at every verification, like the computation itself."""
        if self.wrong is None or self.compute is self.wrong:  # the wrong variant itself runs its own computation
            return ""
        try:
            with mpmath.workdps(dps):
                value, _ = self.wrong(dps)
                reproduces = _same_value(_exact(value), self.claim)
        except Exception:  # a wrong computation that crashes does not reproduce the claim
            return ""
        return "the wrong computation reproduces the claim: this check cannot fail" if reproduces else ""

    def describe_method(self, dps: int = settings.DEFAULT_DPS) -> str:
        return self.method.format(dps=dps)

    def verify(self, dps: int = settings.DEFAULT_DPS) -> VerifyResult:
        dps = _check_dps(dps)
        t0 = time.perf_counter()
        method = self.describe_method(dps)
        defs = [d.verify(dps) for d in self.definitions]
        bad_defs = [f"definition {d.id} failed: {d.detail}" for d in defs if not d.ok]
        try:
            with mpmath.workdps(dps):
                value, table = self.compute(dps)
        except Exception as e:  # a computation that crashes verifies nothing: report it as failed
            return VerifyResult(
                self.id, self.kind, False, None, None, dps, time.perf_counter() - t0, (),
                f"computation raised {type(e).__name__}: {e}", method=method,
            )  # fmt: skip
        value = _exact(value)
        with mpmath.workdps(dps):
            same = _same_value(value, self.claim)
        problems = bad_defs + [p for p in (_method_problem(method, value, table), self._wrong_problem(dps)) if p]
        ok = same and not problems
        detail = "; ".join(f"{label} = {formatting.show(v)}" for label, v in table)
        if not same:
            detail = f"claimed {_plain(self.claim, dps)!r}, computed {_plain(value, dps)!r}; " + detail
        if problems:
            detail = "; ".join(problems) + "; " + detail
        return VerifyResult(
            self.id, self.kind, ok, None, None, dps, time.perf_counter() - t0, (), detail, _plain(value, dps), method,
        )  # fmt: skip


def _exact(v):
    r"""NumPy scalars and arrays as Python and mpmath values (:func:`numeric.formatting.exact_value`), so that a fact
    may compute with NumPy; anything else unchanged."""
    convert = getattr(formatting, "exact_value", None)
    return convert(v) if convert is not None else v


def _float64s(v) -> bool:
    r"""Whether ``v`` holds a float64 (a Python float or a NumPy floating scalar or array), through lists and dicts."""
    import numpy as np

    if isinstance(v, (float, np.floating)):
        return True
    if isinstance(v, np.ndarray):
        return v.dtype.kind in "fc"
    if isinstance(v, (list, tuple)):
        return any(_float64s(x) for x in v)
    if isinstance(v, dict):
        return any(_float64s(x) for x in v.values())
    return False


def _method_problem(method: str, value, table) -> str:
    r"""Why ``method`` is not what produced ``value``: a value said to be computed with mpmath, or exactly, must hold
    no float64 (``""`` when it holds none, or when the method names float64 or NumPy)."""
    said = method.lower()
    if "float64" in said or "numpy" in said or not said.startswith(("mpmath", "exact")):
        return ""
    if _float64s(value):
        return f"the method says {method!r}, but the value is a float64"
    return ""


def _plain(v, dps: int = settings.DEFAULT_DPS):
    r"""JSON-friendly form of a computed value (an mpmath number at ``dps`` digits, not mpmath's default 15)."""
    if isinstance(v, (list, tuple)):
        return [_plain(x, dps) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x, dps) for k, x in v.items()}
    if isinstance(v, (bool, int, str)) or v is None:
        return v
    if isinstance(v, sp.Integer):
        return int(v)
    if isinstance(v, (mpmath.mpf, mpmath.mpc)):
        return mpmath.nstr(v, dps)
    return str(v)


def _kind(v) -> str:
    if isinstance(v, (bool, sp.logic.boolalg.BooleanAtom)):
        return "bool"
    if isinstance(v, (int, sp.Integer)):
        return "int"
    if isinstance(v, (float, mpmath.mpf, sp.Float)):
        return "real"
    if isinstance(v, (list, tuple)):
        return "list"
    return type(v).__name__


def _same_value(value, claim) -> bool:
    r"""Whether a computed value is the claim, by type (``True`` is not ``1``, ``1`` is not ``"1"``) and, for real
    numbers, at the working precision (call it inside ``mpmath.workdps(dps)``): both are rounded to the working
    precision and must be equal. Lists and dicts compare entry by entry."""
    kv, kc = _kind(value), _kind(claim)
    if kv != kc:
        return False
    if kv == "list":
        return len(value) == len(claim) and all(_same_value(a, b) for a, b in zip(value, claim, strict=True))
    if isinstance(value, dict):
        return set(map(str, value)) == set(map(str, claim)) and all(
            _same_value(value[k], {str(j): x for j, x in claim.items()}[str(k)]) for k in value
        )
    if kv == "bool":
        return bool(value) == bool(claim)
    if kv == "int":
        return int(value) == int(claim)
    if kv == "real":
        return mpmath.mpf(value) == mpmath.mpf(claim)  # mpf(...) rounds to the working precision
    if isinstance(value, sp.Basic) or isinstance(claim, sp.Basic):
        return isinstance(value, sp.Basic) and isinstance(claim, sp.Basic) and sp.srepr(value) == sp.srepr(claim)
    return value == claim


def __getattr__(name: str):
    if name == "Identity":  # the class's first name: it holds inequalities too, so it is a Theorem now
        import warnings

        warnings.warn("posproof: Identity is now called Theorem", DeprecationWarning, stacklevel=2)
        return Theorem
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
