r"""The verified-identity core: a claim is a derivation whose every step is checked twice.

A :class:`Step` is an equation (or inequality) with a one-line justification and a *named* symbolic strategy.
An :class:`Identity` is a claim ``lhs = rhs`` with its derivation; :meth:`Identity.verify` checks every step

* symbolically: the strategy, applied to ``lhs - rhs``, must reduce it to exactly zero;
* numerically: both sides are lambdified to mpmath and evaluated at seeded random points drawn from the
  symbols' domains, at ``dps`` significant digits; the relative error must be ``<= 10**-(dps - 10)``.

A :class:`Fact` is a claim about a computed value (``"phi(k) decreases up to k = 3"``); it is recomputed with
mpmath and compared with the value the registry states.

>>> import sympy as sp
>>> x = sp.Symbol("x", real=True)
>>> claim = Identity("demo", "Pythagoras", "demo", "none",
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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import mpmath
import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixElement

from numeric import tolerances

__all__ = [
    "STRATEGIES",
    "Step",
    "Identity",
    "Fact",
    "StepResult",
    "VerifyResult",
    "Domain",
    "reduce_difference",
    "combine_sums",
]


# --------------------------------------------------------------------------------------------------------------
# Strategies: each is a named, targeted rewrite of the difference lhs - rhs. Sum summands are rewritten too.
# --------------------------------------------------------------------------------------------------------------


def combine_sums(e: sp.Expr) -> sp.Expr:
    r"""Merge ``c1*Sum(f1, L) + c2*Sum(f2, L)`` into ``Sum(c1*f1 + c2*f2, L)`` for identical limits ``L``."""
    if not isinstance(e, sp.Add):
        return e
    by_limits: dict[tuple, list] = {}
    rest = []
    for term in e.args:
        coeff, body = term.as_coeff_Mul()
        if isinstance(body, sp.Sum):
            by_limits.setdefault(body.limits, []).append(coeff * body.function)
        else:
            rest.append(term)
    merged = [sp.Sum(sp.Add(*fs), *lims) for lims, fs in by_limits.items()]
    return sp.Add(*merged, *rest)


STRATEGIES: dict[str, Callable[[Any], Any]] = {
    "expand": sp.expand,
    "expand_trig": sp.expand_trig,
    "trigsimp": sp.trigsimp,
    "powsimp": lambda e: sp.powsimp(e, force=True),
    "powdenest": lambda e: sp.powdenest(e, force=True),
    "expand_complex": sp.expand_complex,
    "expand_power_exp": sp.expand_power_exp,
    "exp_to_trig": lambda e: e.rewrite(sp.cos),
    "trig_to_exp": lambda e: e.rewrite(sp.exp),
    "cancel": sp.cancel,
    "together": sp.together,
    "factor_terms": sp.factor_terms,
    "combine_sums": combine_sums,
    "doit": lambda e: e.doit(),
    "block_collapse": sp.block_collapse,
    "identity": lambda e: e,
    # Merge a sum of Piecewise into one Piecewise (branch by branch), e.g. a clipped index minus its unclipped
    # value plus the correction: each branch then cancels on its own (used by the DeBERTa window identity).
    "piecewise_fold": sp.piecewise_fold,
    # Deliberately no blanket "simplify": it can time out, and a proof should say which rewrite it needs.
}


def _in_sums(f: Callable, e):
    """Apply ``f`` to every Sum's summand (innermost first), then to the whole expression."""
    if isinstance(e, sp.Basic) and e.has(sp.Sum):
        e = e.replace(lambda x: isinstance(x, sp.Sum), lambda s: sp.Sum(f(s.function), *s.limits))
    return f(e)


def _is_zero(e) -> bool:
    if isinstance(e, sp.MatrixBase):
        return all(_is_zero(x) for x in e)
    if isinstance(e, sp.MatrixExpr):
        if isinstance(e, sp.ZeroMatrix):
            return True
        if all(isinstance(s, (int, sp.Integer)) for s in e.shape):
            return _is_zero(e.as_explicit())
        return False
    if isinstance(e, sp.Sum):
        return _is_zero(e.function)
    return e == 0


def reduce_difference(lhs, rhs, strategy: Sequence[str]):
    r"""``lhs - rhs`` after each named strategy in turn (Matrix entries one by one)."""
    e = lhs - rhs
    for name in strategy:
        f = STRATEGIES[name]
        if isinstance(e, sp.MatrixBase):
            e = e.applyfunc(lambda x, f=f: _in_sums(f, x))
        else:
            e = _in_sums(f, e)
    # Strategies such as expand split one Sum into several: merge Sums over the same range again (a structural
    # normal form, not a simplification) so that summands which cancel can be seen to cancel.
    if isinstance(e, sp.MatrixBase):
        return e.applyfunc(lambda x: _in_sums(combine_sums, x))
    if isinstance(e, sp.Basic) and e.has(sp.Sum):
        e = _in_sums(combine_sums, e)
    return e


# --------------------------------------------------------------------------------------------------------------
# Numeric domains: how random points are drawn for each symbol.
# --------------------------------------------------------------------------------------------------------------


def _random_mpf(rng: random.Random, lo: float, hi: float) -> mpmath.mpf:
    """A uniform draw in [lo, hi] with ~200 random bits, so values are not float64-representable."""
    u = mpmath.mpf(rng.getrandbits(200)) / mpmath.mpf(2) ** 200
    return mpmath.mpf(lo) + (mpmath.mpf(hi) - mpmath.mpf(lo)) * u


@dataclass(frozen=True)
class Domain:
    r"""Where a symbol's random values come from: ``kind`` is ``"real"``, ``"integer"`` or ``"complex"``."""

    kind: str = "real"
    lo: float = -3.0
    hi: float = 3.0

    def draw(self, rng: random.Random):
        if self.kind == "integer":
            return mpmath.mpf(rng.randint(int(self.lo), int(self.hi)))
        if self.kind == "complex":
            return mpmath.mpc(_random_mpf(rng, self.lo, self.hi), _random_mpf(rng, self.lo, self.hi))
        return _random_mpf(rng, self.lo, self.hi)

    @staticmethod
    def of(atom) -> Domain:
        r"""The default domain from SymPy assumptions: integers in [-40, 40] (or >= 0 / >= 1), positive reals in
        (0.25, 4), reals in (-3, 3), anything else complex."""
        base = atom.base if isinstance(atom, sp.Indexed) else atom
        if isinstance(atom, MatrixElement):
            return Domain("real")
        if base.is_integer:
            if base.is_positive:
                return Domain("integer", 1, 40)
            if base.is_nonnegative:
                return Domain("integer", 0, 40)
            return Domain("integer", -40, 40)
        if base.is_real:
            return Domain("real", 0.25, 4.0) if base.is_positive else Domain("real")
        return Domain("complex")


def _key(atom) -> str:
    """The name a domain is given under: a symbol's, an IndexedBase's or a MatrixSymbol's name."""
    if isinstance(atom, sp.Indexed):
        return str(atom.base)
    if isinstance(atom, MatrixElement):
        return str(atom.parent)
    return str(atom)


def _explicit(e):
    r"""A concrete-size matrix expression as an explicit matrix. Each MatrixSymbol becomes a matrix of its
    entries and the products are multiplied out (SymPy's own ``as_explicit`` of a product is far slower)."""
    if not e.has(sp.BlockMatrix):
        rep = {M: sp.ImmutableMatrix(M.as_explicit()) for M in e.atoms(sp.MatrixSymbol)}
        e = e.xreplace(rep).doit()
    return e if isinstance(e, sp.MatrixBase) else e.as_explicit()


def _entries(e) -> list:
    if isinstance(e, sp.MatrixExpr) and not isinstance(e, sp.MatrixBase):
        e = _explicit(e)
    if isinstance(e, sp.MatrixBase):
        return list(e)
    return [e]


def _leaves(exprs: Sequence) -> list:
    """The atoms that take random values: Indexed entries, matrix entries and plain symbols."""
    out: set = set()
    for e in exprs:
        if not isinstance(e, sp.Basic):
            continue
        found = e.atoms(sp.Indexed, MatrixElement)
        bases = {a.base.label for a in found if isinstance(a, sp.Indexed)}
        out |= found
        out |= {s for s in e.free_symbols if isinstance(s, sp.Symbol) and s not in bases}
    return sorted(out, key=sp.default_sort_key)


# --------------------------------------------------------------------------------------------------------------
# Steps, identities, facts and their results.
# --------------------------------------------------------------------------------------------------------------

_RELATIONS = {"=": "=", "<=": r"\le", ">=": r"\ge", "<": "<", ">": ">"}


@dataclass(frozen=True)
class Step:
    r"""One line of a derivation: ``lhs rel rhs``, why it holds, and the strategy that proves it.

    For an inequality ``lhs <= rhs`` the strategy must reduce ``rhs - lhs`` to an expression SymPy can show is
    nonnegative from the symbols' assumptions."""

    lhs: Any
    rhs: Any
    why: str
    strategy: tuple[str, ...] = ("expand",)
    rel: str = "="

    def __post_init__(self):
        if self.rel not in _RELATIONS:
            raise ValueError(f"rel must be one of {sorted(_RELATIONS)}, got {self.rel!r}")
        unknown = [s for s in self.strategy if s not in STRATEGIES]
        if unknown:
            raise ValueError(f"strategy names {unknown} are not among {sorted(STRATEGIES)}")
        if isinstance(self.strategy, str):
            raise ValueError("strategy must be a tuple of names")

    def check_symbolic(self) -> bool:
        if self.rel == "=":
            return _is_zero(reduce_difference(self.lhs, self.rhs, self.strategy))
        small, big = (self.lhs, self.rhs) if self.rel in ("<=", "<") else (self.rhs, self.lhs)
        gap = reduce_difference(big, small, self.strategy)
        return bool(gap.is_positive) if self.rel in ("<", ">") else bool(gap.is_nonnegative)


@dataclass(frozen=True)
class StepResult:
    index: int
    symbolic: bool
    numeric_max_rel_error: float
    numeric_ok: bool

    @property
    def ok(self) -> bool:
        return self.symbolic and self.numeric_ok


@dataclass(frozen=True)
class VerifyResult:
    r"""The outcome of :meth:`Identity.verify` or :meth:`Fact.verify`; ``ok`` says whether every check held."""

    id: str
    ok: bool
    symbolic: bool | str
    numeric_max_rel_error: float | None
    dps: int
    seconds: float
    steps: tuple[StepResult, ...] = ()
    detail: str = ""
    computed: Any = None

    @property
    def status(self) -> str:
        return "verified" if self.ok else "failed"

    def as_dict(self) -> dict:
        r"""A JSON-ready dict (a non-finite error, from an evaluation that failed, becomes ``None``)."""
        finite = lambda x: x if x is None or math.isfinite(x) else None  # noqa: E731
        out = {
            "id": self.id,
            "status": self.status,
            "symbolic": self.symbolic,
            "numeric_max_rel_error": finite(self.numeric_max_rel_error),
            "dps": self.dps,
            "seconds": round(self.seconds, 4),
            "steps": [
                {
                    "index": s.index,
                    "symbolic": s.symbolic,
                    "numeric_max_rel_error": finite(s.numeric_max_rel_error),
                    "numeric_ok": s.numeric_ok,
                    "ok": s.ok,
                }
                for s in self.steps
            ],
        }
        if self.detail:
            out["detail"] = self.detail
        if self.computed is not None:
            out["computed"] = self.computed
        return out


def _check_dps(dps) -> int:
    if isinstance(dps, bool) or not isinstance(dps, int) or not (tolerances.MIN_DPS <= dps <= tolerances.MAX_DPS):
        raise ValueError(f"dps must be an integer in [{tolerances.MIN_DPS}, {tolerances.MAX_DPS}], got {dps!r}")
    return dps


@dataclass(frozen=True)
class Identity:
    r"""A claim ``lhs = rhs`` (or an inequality) with its derivation.

    ``sizes`` maps a size symbol (e.g. ``h`` with ``d = 2h``) to the values tried numerically; Sums, matrices
    and Indexed components are made concrete at those sizes before evaluation. ``domains`` overrides the random
    domain of a symbol, IndexedBase or MatrixSymbol by name. If the steps form a chain
    ``lhs = e1 = ... = rhs`` the claim follows by transitivity; otherwise ``strategy`` proves it directly."""

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
    sizes: Mapping[sp.Symbol, tuple[int, ...]] = field(default_factory=dict)
    domains: Mapping[str, Domain] = field(default_factory=dict)
    notes: str = ""
    #: A plausible mistake (wrong right-hand side) that verification must reject.
    wrong: Any = None

    def __post_init__(self):
        if not self.steps:
            raise ValueError(f"identity {self.id!r} needs at least one step")
        if self.lhs is None:
            object.__setattr__(self, "lhs", self.steps[0].lhs)
        if self.rhs is None:
            object.__setattr__(self, "rhs", self.steps[-1].rhs)
        if self.strategy is None and not self.chained:
            raise ValueError(f"identity {self.id!r}: steps do not chain lhs to rhs, so a claim strategy is needed")

    kind = "identity"

    @functools.cached_property
    def chained(self) -> bool:
        r"""Whether the steps read ``lhs = e1 = ... = rhs`` with every relation compatible with the claim's."""
        s = self.steps
        links = all(_same(a.rhs, b.lhs) for a, b in zip(s, s[1:], strict=False))
        ends = _same(s[0].lhs, self.lhs) and _same(s[-1].rhs, self.rhs)
        rels = {st.rel for st in s} - {"="}
        ok_rel = (not rels) if self.rel == "=" else rels <= {self.rel, {"<": "<=", ">": ">="}.get(self.rel, self.rel)}
        return links and ends and ok_rel

    @property
    def claim(self) -> Step:
        return Step(self.lhs, self.rhs, "the claim", self.strategy or ("identity",), self.rel)

    def wrong_variant(self) -> Identity:
        r"""This claim with its registered wrong right-hand side."""
        return self.with_rhs(self.wrong)

    def with_rhs(self, rhs) -> Identity:
        r"""The same claim with a different right-hand side (used to show that a wrong claim is rejected)."""
        steps = self.steps
        if self.chained:
            last = steps[-1]
            steps = steps[:-1] + (dataclasses.replace(last, rhs=rhs),)
        return dataclasses.replace(self, steps=steps, rhs=rhs, strategy=self.strategy)

    # ---- verification ----------------------------------------------------------------------------------------
    def _domain(self, atom) -> Domain:
        return self.domains.get(_key(atom)) or Domain.of(atom)

    def _numeric(self, step: Step, dps: int, rng: random.Random, cache: dict) -> float:
        size_syms = sorted(self.sizes, key=str)
        worst = mpmath.mpf(0)
        for p in range(tolerances.NUMERIC_POINTS):
            sizes = {s: self.sizes[s][(p + rng.randrange(len(self.sizes[s]))) % len(self.sizes[s])] for s in size_syms}
            key = (id(step), tuple(sizes.items()))
            if key not in cache:
                sides = []
                for side in (step.lhs, step.rhs):
                    e = side.subs(sizes) if sizes else side
                    e = e.doit() if isinstance(e, sp.Basic) else e
                    sides.append(_entries(e))
                leaves = _leaves(sides[0] + sides[1])
                # Plain symbols in place of Indexed/matrix entries: lambdify then neither dummifies nor prints the
                # expression into a docstring, which is most of its cost.
                plain = sp.symbols(f"_x0:{len(leaves)}")  # no assumptions: nothing may simplify away
                rep = dict(zip(leaves, plain, strict=True))
                exprs = [e.xreplace(rep) if isinstance(e, sp.Basic) else e for e in sides[0] + sides[1]]
                f = sp.lambdify(plain, exprs, modules="mpmath", dummify=False, docstring_limit=0)
                cache[key] = (leaves, f, len(sides[0]))
            leaves, f, n_left = cache[key]
            values = [self._domain(a).draw(rng) for a in leaves]
            with mpmath.workdps(dps + 5):
                out = f(*values)
                left, right = out[:n_left], out[n_left:]
                for l, r in zip(left, right, strict=True):
                    l, r = mpmath.mpmathify(l), mpmath.mpmathify(r)
                    diff = l - r
                    if step.rel == "=":
                        err = abs(diff) / max(abs(l), abs(r), mpmath.mpf(1))
                    else:
                        if mpmath.im(l) or mpmath.im(r):
                            return float("inf")
                        small, big = (l, r) if step.rel in ("<=", "<") else (r, l)
                        slack = big - small
                        # An inequality holds numerically when the slack is >= -tol (relative, as above).
                        err = max(mpmath.mpf(0), -slack) / max(abs(l), abs(r), mpmath.mpf(1))
                    worst = max(worst, err)
        return float(worst)

    def verify(self, dps: int = tolerances.DEFAULT_DPS) -> VerifyResult:
        r"""Check every step (and the claim, unless the steps chain to it) symbolically and numerically."""
        dps = _check_dps(dps)
        t0 = time.perf_counter()
        rng = random.Random(f"{tolerances.SEED}:{self.id}")
        cache: dict = {}
        checks = list(self.steps) if self.chained else [*self.steps, self.claim]
        results = []
        errors = []
        for k, step in enumerate(checks):
            try:
                sym = step.check_symbolic()
            except Exception:  # a strategy that cannot handle the expression proves nothing
                sym = False
            try:
                err = self._numeric(step, dps, rng, cache)
            except Exception as e:  # an expression that cannot be evaluated is not checked: a failure
                err = float("inf")
                errors.append(f"step {k}: numeric evaluation raised {type(e).__name__}: {e}")
            results.append(StepResult(k, sym, err, err <= tolerances.rel_tol(dps)))
        ok = all(r.ok for r in results)
        worst = max(r.numeric_max_rel_error for r in results)
        return VerifyResult(
            self.id,
            ok,
            all(r.symbolic for r in results),
            worst,
            dps,
            time.perf_counter() - t0,
            tuple(results),
            "; ".join(errors),
        )


def _same(a, b) -> bool:
    try:
        return a == b or (isinstance(a, sp.Basic) and isinstance(b, sp.Basic) and sp.srepr(a) == sp.srepr(b))
    except Exception:
        return False


@dataclass(frozen=True)
class Fact:
    r"""A claim about computed values: ``compute(dps)`` returns ``(value, table)`` and the claim holds when
    ``value == claim``. ``table`` lists ``(label, value)`` rows saying exactly what was computed.
    ``definitions`` are SymPy equations printed with the fact (what is being computed)."""

    id: str
    title: str
    topic: str
    source: str
    statement: str
    claim: Any
    compute: Callable[[int], tuple[Any, list[tuple[str, Any]]]]
    definitions: tuple[Step, ...] = ()
    notes: str = ""
    #: A plausible wrong value that verification must reject.
    wrong: Any = None

    kind = "fact"
    lhs = None
    rhs = None
    steps: tuple = ()

    def wrong_variant(self) -> Fact:
        return self.with_claim(self.wrong)

    def with_claim(self, claim) -> Fact:
        r"""The same fact claiming a different value (used to show that a wrong claim is rejected)."""
        return dataclasses.replace(self, claim=claim)

    def verify(self, dps: int = tolerances.DEFAULT_DPS) -> VerifyResult:
        dps = _check_dps(dps)
        t0 = time.perf_counter()
        try:
            with mpmath.workdps(dps):
                value, table = self.compute(dps)
        except Exception as e:  # a computation that crashes verifies nothing: report it as failed
            return VerifyResult(
                self.id,
                False,
                "n/a (computed fact)",
                None,
                dps,
                time.perf_counter() - t0,
                (),
                f"computation raised {type(e).__name__}: {e}",
            )
        ok = _plain(value) == _plain(self.claim)
        detail = "; ".join(f"{label} = {_show(v)}" for label, v in table)
        if not ok:
            detail = f"claimed {self.claim!r}, computed {value!r}; " + detail
        return VerifyResult(
            self.id, ok, "n/a (computed fact)", None, dps, time.perf_counter() - t0, (), detail, _plain(value)
        )


def _plain(v):
    """JSON-friendly, comparable form of a computed value."""
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (bool, int, str)) or v is None:
        return v
    if isinstance(v, sp.Integer):
        return int(v)
    return str(v)


def _show(v) -> str:
    if isinstance(v, (mpmath.mpf, mpmath.mpc)):
        return mpmath.nstr(v, 15)
    if isinstance(v, float):
        return f"{v:.15g}"
    return str(v)
