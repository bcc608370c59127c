r"""The numeric line: both sides of a step evaluated with mpmath at seeded points, as an independent second check.

:class:`~.kernel.Kernel`\ s (functions with a symbolic definition and a numeric one) are evaluated by the code in
:mod:`numeric`. A :class:`Domain` says where a symbol's values are drawn from (edge values first, then draws
spread over many magnitudes: :mod:`.domains`); Indexed bases and matrices get tables of such draws.
``_compile`` makes both sides
concrete at the declared sizes and lambdifies them for mpmath, keeping Sums and kernels as written, and
``numeric_check`` compares the sides relative to the size of their terms, giving a :class:`NumericResult`.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import mpmath
import sympy as sp
from posproof.symbolic.engine import settings
from posproof.symbolic.engine.domains import INT_FAR, INT_MAX, REAL_FAR, REAL_HUGE, REAL_TINY, Domain, uniform_draw  # noqa: F401  (re-exported)
from posproof.symbolic.engine.kernel import Kernel
from posproof.symbolic.engine.maximum import Maximum
from posproof.symbolic.engine.results import NumericResult
from sympy.core.parameters import evaluate
from sympy.matrices.expressions.matexpr import MatrixElement


class Step(Protocol):
    r"""What the numeric line reads of a step (:class:`~posproof.symbolic.engine.core.Step` has it): the two sides,
    the relation, and whether a side applies a :class:`Kernel`."""

    @property
    def lhs(self) -> Any: ...
    @property
    def rhs(self) -> Any: ...
    @property
    def rel(self) -> str: ...
    @property
    def has_kernels(self) -> bool: ...


# ==============================================================================================================
# The numeric line: sides made concrete, random tables for components, kernels through numeric/, mpmath.
# ==============================================================================================================


class _Table:
    r"""Random values of an IndexedBase or MatrixSymbol at the current point, drawn on first use of each index
    (indices may be computed, e.g. a table row chosen by DeBERTa's clipped index)."""

    def __init__(self, domain: Domain):
        self.domain = domain
        self.values: dict = {}
        self.rng: random.Random = random.Random(0)
        self.bits = 64
        self.env: Mapping = {}
        self.edges: tuple = ()

    def reset(self, rng: random.Random, bits: int, env: Mapping, edge: int | None):
        self.values, self.rng, self.bits, self.env = {}, rng, bits, env
        self.edges = self.domain.edge_values(env) if edge is not None else ()
        self.edge = edge

    def __getitem__(self, key):
        key = tuple(_plain_index(k) for k in key) if isinstance(key, tuple) else _plain_index(key)
        if key not in self.values:
            if self.edges and self.edge is not None:
                self.values[key] = self.edges[(self.edge + len(self.values)) % len(self.edges)]
            else:
                self.values[key] = self.domain.draw(self.rng, self.bits, self.env)
        return self.values[key]


def _plain_index(k):
    if isinstance(k, mpmath.mpf) and mpmath.isint(k):
        return int(k)
    return k


def _protect(e, store: dict):
    r"""Replace Sums and Kernel calls by placeholders (their insides made numeric first), so that ``doit`` on the
    rest neither unfolds a kernel nor collects a sum's terms: both are evaluated as written."""
    if not isinstance(e, sp.Basic):
        return e

    def sub_sum(s):  # a Sum or a Maximum
        p = sp.Dummy("sum")
        store[p] = s.func(_numeric_form_scalar(s.function, store), *s.limits)
        return p

    def sub_kernel(k: Kernel):
        p = sp.Dummy("kernel")
        store[p] = ("kernel", type(k), tuple(_numeric_form_scalar(a, store) for a in k.args))
        return p

    e = e.replace(lambda x: isinstance(x, (sp.Sum, Maximum)), sub_sum)
    return e.replace(lambda x: isinstance(x, Kernel), sub_kernel)


def _add(terms):
    return sp.Add(*terms, evaluate=False) if len(terms) > 1 else terms[0]


def _mul(factors):
    return sp.Mul(*factors, evaluate=False) if len(factors) > 1 else factors[0]


def _matmul(A: sp.ImmutableMatrix, B: sp.ImmutableMatrix) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix(
        A.rows, B.cols, lambda r, c: _add([_mul([A[r, k], B[k, c]]) for k in range(A.cols)])
    )  # fmt: skip


def _written_matrix(e) -> sp.ImmutableMatrix:
    r"""A concrete-size matrix expression as an explicit matrix whose entries are the products and sums *as
    written* (unevaluated): ``(PX)A`` and ``P(XA)`` then give different expressions that mpmath evaluates
    independently, instead of one polynomial that SymPy collected for both."""
    if isinstance(e, sp.MatrixBase):
        return sp.ImmutableMatrix(e)
    if hasattr(e, "explicit"):  # display wrappers such as R(a)
        return sp.ImmutableMatrix(e.explicit())
    if isinstance(e, sp.MatrixSymbol):
        return sp.ImmutableMatrix(e.as_explicit())
    if isinstance(e, sp.MatMul):
        scalars = [a for a in e.args if not getattr(a, "is_Matrix", False)]
        mats = [_written_matrix(a) for a in e.args if getattr(a, "is_Matrix", False)]
        out = mats[0]
        for M in mats[1:]:
            out = _matmul(out, M)
        if scalars:
            c = _mul(scalars)
            out = out.applyfunc(lambda x: _mul([c, x]))
        return out
    if isinstance(e, sp.MatAdd):
        mats = [_written_matrix(a) for a in e.args]
        return sp.ImmutableMatrix(*mats[0].shape, lambda r, c: _add([M[r, c] for M in mats]))
    if isinstance(e, sp.HadamardProduct):
        mats = [_written_matrix(a) for a in e.args]
        return sp.ImmutableMatrix(*mats[0].shape, lambda r, c: _mul([M[r, c] for M in mats]))
    if isinstance(e, sp.Transpose):
        return _written_matrix(e.arg).T
    if isinstance(e, sp.BlockDiagMatrix):
        blocks = [_written_matrix(b) for b in e.args]
        return sp.ImmutableMatrix(sp.diag(*blocks))
    if isinstance(e, sp.BlockMatrix):
        rows = [sp.Matrix.hstack(*[_written_matrix(b) for b in row]) for row in e.blocks.tolist()]
        return sp.ImmutableMatrix(sp.Matrix.vstack(*rows))
    if isinstance(e, sp.MatPow) and e.exp.is_Integer and e.exp > 0:
        base = _written_matrix(e.base)
        out = base
        for _ in range(int(e.exp) - 1):
            out = _matmul(out, base)
        return out
    return sp.ImmutableMatrix(e.as_explicit())


def _is_written_form(x) -> bool:
    return hasattr(x, "written_form")


def _numeric_form_scalar(e, store: dict):
    if not isinstance(e, sp.Basic):
        return e
    e = _protect(e, store)
    # Display wrappers (e.g. u^T v) give an equivalent matrix expression; it is multiplied out as written. Sums,
    # products and powers stay as written, so the two sides are computed independently.
    if any(_is_written_form(x) for x in sp.preorder_traversal(e)):
        e = e.replace(_is_written_form, lambda x: _written_matrix(x.written_form())[0, 0])
    return e


def _has_special(e) -> bool:
    r"""Whether ``e`` holds a Sum, a Kernel or a display wrapper (which need more than printing)."""
    if not isinstance(e, (sp.Basic, sp.MatrixBase)):
        return False
    nodes = e if isinstance(e, sp.MatrixBase) else [e]
    return any(
        isinstance(x, (sp.Sum, Maximum, Kernel)) or _is_written_form(x) for n in nodes for x in sp.preorder_traversal(n)
    )


def _numeric_entries(side, store: dict) -> list:
    r"""One side as a list of scalar entries ready for lambdify (placeholders in ``store``)."""
    special = _has_special(side)
    scalar = (lambda x: _numeric_form_scalar(x, store)) if special else (lambda x: x)
    if isinstance(side, sp.MatrixBase):
        return [scalar(x) for x in side]
    if isinstance(side, sp.MatrixExpr):
        if special:
            side = _protect(side, store)
        return [scalar(x) for x in _written_matrix(side)]
    return [scalar(side)]


def _restore(e, store: dict):
    r"""Put protected Sums and Kernel calls back, kernels as calls to named implementations."""
    if not isinstance(e, sp.Basic):
        return e
    while any(p in store for p in e.atoms(sp.Dummy)):
        rep = {}
        for p in e.atoms(sp.Dummy):
            if p not in store:
                continue
            v = store[p]
            if isinstance(v, tuple) and v[0] == "kernel":
                _, cls, args = v
                rep[p] = sp.Function(_kernel_name(cls))(*args)
            else:
                rep[p] = v
        e = e.xreplace(rep)
    return e


def _abs_terms(e):
    r"""An upper bound of the magnitudes of the terms of ``e``: ``|a| + |b|`` for ``a + b`` (sums term by term),
    products and integer powers of those. The numeric error is measured relative to it, so that cancellation
    in a sum is judged against its largest terms, and a tiny value is not judged by an absolute error."""
    if isinstance(e, sp.Add):
        return sp.Add(*[_abs_terms(a) for a in e.args])
    if isinstance(e, sp.Sum):
        return sp.Sum(_abs_terms(e.function), *e.limits)
    if isinstance(e, sp.Mul):
        return sp.Mul(*[_abs_terms(a) for a in e.args])
    if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp > 0:
        return _abs_terms(e.base) ** e.exp
    if isinstance(e, sp.Piecewise):
        return sp.Piecewise(*[(_abs_terms(ex), c) for ex, c in e.args])
    return sp.Abs(e, evaluate=False)  # mpmath takes the modulus; SymPy's rewriting of |e| is slow and not needed


@dataclass
class _Compiled:
    f: Callable
    symbols: list  # plain symbols, in argument order
    tables: dict  # name -> _Table
    n_entries: int
    identical: list  # per entry: the two sides are structurally identical
    given: Callable | None = None  # the given facts a point must satisfy


def _compile(step: Step, sizes: Mapping, domains: Callable) -> _Compiled:
    store: dict = {}
    sides = []
    for side in (step.lhs, step.rhs):
        e = side.subs(sizes) if sizes and hasattr(side, "subs") else side
        with evaluate(False):  # rewrite without collecting: the sides stay as written
            sides.append(_numeric_entries(e, store))
    left, right = sides
    if len(left) != len(right):
        raise ValueError(f"the two sides have {len(left)} and {len(right)} entries")
    if store:
        with evaluate(False):
            left = [_restore(x, store) for x in left]
            right = [_restore(x, store) for x in right]
    identical = [a == b for a, b in zip(left, right, strict=True)]  # structural, argument order included
    keep = [k for k, same in enumerate(identical) if not same]
    exprs = [left[k] for k in keep] + [right[k] for k in keep]
    scales = [_abs_terms(x) if isinstance(x, sp.Basic) else abs(x) for x in exprs]
    # Rename what lambdify will see: plain symbols become arguments _a*, IndexedBases and MatrixSymbols become
    # random tables _T*, summation variables _s*; kernels are looked up by name.
    everything = [x for x in exprs if isinstance(x, sp.Basic)]  # the scales hold the same atoms
    tables: dict = {}
    rep: dict = {}
    namespace: dict = {}
    free: set = set()
    labels: set = set()
    elements: dict = {}  # matrix entries, by their matrix's table
    kernels: set = set()
    has_sums = False
    for x in everything:  # one pass over each expression collects everything the renaming needs
        symbols: set = set()
        for a in sp.preorder_traversal(x):
            if isinstance(a, sp.Symbol):
                symbols.add(a)
            elif isinstance(a, (sp.IndexedBase, MatrixElement)):
                base = a if isinstance(a, sp.IndexedBase) else a.parent
                if base not in rep:
                    name = f"_T{len(tables)}"
                    tables[name] = _Table(domains(base))
                    rep[base] = sp.IndexedBase(name)
                if isinstance(a, sp.IndexedBase):
                    labels.add(a.label)
                else:
                    elements[a] = sp.Indexed(rep[base], a.i, a.j)
            elif isinstance(a, (sp.Sum, Maximum)):
                has_sums = True
            elif isinstance(a, sp.core.function.AppliedUndef) and type(a).__name__ in _KERNELS:
                kernels.add(type(a).__name__)
        free |= symbols
    if has_sums or labels:  # summation variables are bound, and a label is not a symbol: free symbols of the rest
        bases = {b: t for b, t in rep.items() if isinstance(b, sp.IndexedBase)}
        free = set().union(*[{s for s in x.xreplace(bases).free_symbols} for x in everything])
        free = {s for s in free if isinstance(s, sp.Symbol)}
        free -= {t.label for t in bases.values()}
    plain = sorted(free, key=sp.default_sort_key)
    args = [sp.Symbol(f"_a{k}") for k in range(len(plain))]
    rep.update(dict(zip(plain, args, strict=True)))
    counter = itertools.count()

    def fresh_sum(s):  # every summation variable its own name (bottom-up: inner sums first); a Maximum too
        names = {v: sp.Symbol(f"_s{next(counter)}") for v, _, _ in s.limits}
        limits = [(names[v], lo.xreplace(names), hi.xreplace(names)) for v, lo, hi in s.limits]
        return s.func(s.function.xreplace(names), *limits)

    def rename(x):
        if not isinstance(x, sp.Basic):
            return x
        if has_sums:
            x = x.replace(lambda a: isinstance(a, (sp.Sum, Maximum)), fresh_sum)
        return x.xreplace(mapping)

    mapping = {**elements, **rep}
    with evaluate(False):
        exprs = [rename(x) for x in exprs]
        scales = [rename(x) for x in scales]
    for name in kernels:
        namespace[name] = _KERNELS[name].numeric
    namespace["_range"] = _range
    namespace["_mpdiff"] = mpmath.diff
    namespace.update(tables)
    f = sp.lambdify(
        args, exprs + scales, modules=[namespace, "mpmath"], printer=_printer(), dummify=False, docstring_limit=0
    )
    return _Compiled(f, plain, tables, len(keep), identical)


def _printer():
    r"""lambdify's mpmath printer, printing sums and products in the order written (no sorting of terms: faster,
    and the side is evaluated as it is written)."""
    from sympy.printing.pycode import MpmathPrinter

    class Printer(MpmathPrinter):
        def _print_Sum(self, expr):  # outermost loop first; ranges through _range (forward, counted)
            loops = " ".join(
                f"for {self._print(v)} in _range({self._print(lo)}, {self._print(hi)})"
                for v, lo, hi in reversed(expr.limits)
            )
            return f"(builtins.sum({self._print(expr.function)} {loops}))"

        def _print_Derivative(self, expr):  # mpmath's numerical derivative: independent of SymPy's differentiation
            if len(expr.variable_count) != 1:
                raise ValueError(f"a derivative in more than one variable: {expr}")
            ((v, order),) = expr.variable_count
            name = self._print(v)
            return f"(_mpdiff(lambda {name}: {self._print(expr.expr)}, {name}, {self._print(order)}))"

        def _print_Maximum(self, expr):  # the largest term; an empty range has no maximum (max() raises)
            ((v, lo, hi),) = expr.limits
            loop = f"for {self._print(v)} in _range({self._print(lo)}, {self._print(hi)})"
            return f"(builtins.max({self._print(expr.function)} {loop}))"

    settings = {"order": "none", "fully_qualified_modules": False, "inline": True, "allow_unknown_functions": True}
    return Printer({**settings, "user_functions": {}})


#: Kernels are identified by the class object, never by its name: two classes called ``Delta`` (a user's and the
#: catalogue's) are two kernels, each evaluated by its own ``numeric``.
_KERNEL_NAMES: dict[type, str] = {}
_KERNELS: dict[str, type[Kernel]] = {}


def _kernel_name(cls: type[Kernel]) -> str:
    if cls not in _KERNEL_NAMES:
        name = f"_K{len(_KERNELS)}_{cls.__name__}"
        _KERNEL_NAMES[cls], _KERNELS[name] = name, cls
    return _KERNEL_NAMES[cls]


class _Sums:
    r"""Counts, at one point, the sums evaluated, those that were not empty (an empty sum is no evidence) and the
    terms summed (a point whose sums need more than ``settings.SUM_TERMS`` terms is skipped: :class:`_TooLong`)."""

    total = 0
    nonempty = 0
    terms = 0


class _TooLong(Exception):
    r"""A point whose sums are too long to evaluate term by term: skipped, no evidence either way."""


def _range(lo, hi) -> range:
    r"""The range of a summation variable at a point: integer limits, forward (``hi >= lo - 1``, the engine's one
    meaning of a sum; a reversed range raises, as the symbolic line refuses it)."""
    ends = []
    for v in (lo, hi):
        if not (isinstance(v, int) or mpmath.isint(v)):
            raise ValueError(f"a summation limit is not an integer: {v}")
        ends.append(int(v))
    lo, hi = ends
    if hi < lo - 1:
        raise ValueError(f"a reversed summation range {lo} .. {hi}")
    _Sums.total += 1
    _Sums.nonempty += hi >= lo
    _Sums.terms += max(0, hi - lo + 1)
    if _Sums.terms > settings.SUM_TERMS:
        raise _TooLong
    return range(lo, hi + 1)


def _given_predicate(given: tuple, symbols: list) -> Callable | None:
    r"""The ``given`` facts a point must satisfy, as one mpmath predicate of ``symbols`` (facts about other symbols
    do not restrict this step's points); ``None`` if none applies. ``Q.gt(a, b)`` and relatives become relations."""
    if not given:
        return None
    q = sp.Q
    as_rel = {q.gt: sp.Gt, q.ge: sp.Ge, q.lt: sp.Lt, q.le: sp.Le, q.eq: sp.Eq, q.ne: sp.Ne}
    sign = {q.positive: sp.Gt, q.negative: sp.Lt, q.nonnegative: sp.Ge, q.nonpositive: sp.Le, q.nonzero: sp.Ne}
    rels = []
    for fact in given:
        if isinstance(fact, sp.AppliedPredicate) and fact.function in as_rel:
            fact = as_rel[fact.function](*fact.arguments)
        elif isinstance(fact, sp.AppliedPredicate) and fact.function in sign:
            fact = sign[fact.function](fact.arguments[0], 0)
        if isinstance(fact, sp.core.relational.Relational) and fact.free_symbols <= set(symbols):
            rels.append(fact)
    if not rels:
        return None
    f = sp.lambdify(symbols, rels, modules="mpmath")
    return lambda *v: all(bool(r) for r in f(*v))


def _breakpoints(step: Step, sizes: Mapping, plain: list) -> list:
    r"""Where the kernels of ``step`` change branch: each ``Piecewise`` condition and each pair of ``Min``/``Max``
    arguments of their definitions gives a boundary ``g = 0``; for the first symbol ``s`` in which ``g`` is linear,
    ``s = s - g / g'`` (a function of the other symbols) is returned with ``s``'s argument index. Code wrong at
    exactly one point (a clip returning 4 at 5) is then tried there and beside it."""
    gaps: list = []
    for side in (step.lhs, step.rhs):
        entries = list(side) if isinstance(side, sp.MatrixBase) else [side]
        for e in entries:
            if not (isinstance(e, sp.Basic) and e.has(Kernel)):
                continue
            e = e.subs(sizes) if sizes else e
            for _ in range(4):  # kernels defined by kernels
                e = e.replace(lambda x: isinstance(x, Kernel), lambda k: k.doit())
            for a in sp.preorder_traversal(e):
                if isinstance(a, sp.Piecewise):
                    gaps += [r.lhs - r.rhs for _, c in a.args for r in c.atoms(sp.core.relational.Relational)]
                elif isinstance(a, (sp.Min, sp.Max)):  # a nested Min/Max breaks where its own arguments meet
                    leaves = [list(b.args) if isinstance(b, (sp.Min, sp.Max)) else [b] for b in a.args]
                    gaps += [x - y for p, r in itertools.combinations(leaves, 2) for x in p for y in r]
    index = {sym: k for k, sym in enumerate(plain)}
    out: list = []
    for g in dict.fromkeys(gaps):
        if len(out) >= settings.BREAKPOINTS or not g.free_symbols or not g.free_symbols <= set(index):
            continue
        for sym in sorted(g.free_symbols, key=str):
            slope = sp.diff(g, sym)
            if slope != 0 and not slope.has(sym):
                out.append((index[sym], sp.lambdify(plain, sym - g / slope, modules="mpmath")))
                break
    return out


def numeric_check(
    step: Step, dps: int, sizes_list: list, domains: Callable, rng: random.Random, given: tuple = ()
) -> NumericResult:
    r"""Evaluate both sides of ``step`` at ``max(NUMERIC_POINTS, POINTS_PER_SIZE * sizes)`` points, cycling through
    every size combination: first ``EDGE_POINTS`` with every symbol at an edge value, then ``MIXED_EDGE_POINTS``
    with every other symbol at its first edge value (``x = 0, y != 0`` and the reverse), then ``FAR_POINTS`` drawn
    far beyond the default magnitudes (where the domain allows), then random draws; then the breakpoints of the
    kernels' definitions and beside them. Every point satisfies the ``given`` facts (points that do not are
    drawn again, or skipped). A point where every sum is empty is no evidence."""
    n_points = max(settings.NUMERIC_POINTS, settings.POINTS_PER_SIZE * len(sizes_list))
    work = dps + settings.NUMERIC_GUARD_DIGITS
    bits = int(work * 3.33) + 8
    tol = settings.rel_tol(dps)
    compiled: dict = {}
    worst = mpmath.mpf(0)
    evaluated = 0
    all_identical = True
    mixed0 = settings.EDGE_POINTS
    far0 = mixed0 + settings.MIXED_EDGE_POINTS
    plan: list[tuple[int, dict, tuple | None]] = [(p, sizes_list[p % len(sizes_list)], None) for p in range(n_points)]
    with mpmath.workdps(work):
        k_plan = 0
        while k_plan < len(plan):
            p, sizes, bp = plan[k_plan]
            k_plan += 1
            key = tuple(sorted((str(k), v) for k, v in sizes.items()))
            if key not in compiled:
                c = compiled[key] = _compile(step, sizes, domains)
                c.given = _given_predicate(given, c.symbols)
                if c.n_entries and step.has_kernels:
                    plan += [(-1, sizes, (*b, o)) for b in _breakpoints(step, sizes, c.symbols) for o in range(3)]
            c = compiled[key]
            if c.n_entries == 0:
                continue
            all_identical = False
            env = dict(sizes)
            edge = p if 0 <= p < settings.EDGE_POINTS else None
            values: list | None = None
            for attempt in range(settings.GIVEN_TRIES):
                values = []
                for j, sym in enumerate(c.symbols):
                    dom = domains(sym)
                    edges = dom.edge_values(env) if attempt == 0 and (edge is not None or mixed0 <= p < far0) else ()
                    if edges and edge is not None:
                        values.append(edges[p % len(edges)])
                    elif edges and (p + j) % 2 == 0:
                        values.append(edges[0])
                    elif (attempt == 0 and far0 <= p < far0 + settings.FAR_POINTS) or attempt % 2:
                        values.append(dom.draw_far(rng, bits, env))
                    else:
                        values.append(dom.draw(rng, bits, env))
                if bp is not None:
                    values = _beside(bp, values, domains(c.symbols[bp[0]]), env)
                if values is not None and (c.given is None or c.given(*values)):
                    break
                values = None
            if values is None:  # no point satisfying the given facts: nothing evaluated here
                continue
            for t in c.tables.values():
                t.reset(rng, bits, env, edge)
            _Sums.total = _Sums.nonempty = _Sums.terms = 0
            try:
                out = c.f(*values)
            except _TooLong:
                continue
            evidence = not (_Sums.total and not _Sums.nonempty)
            n = c.n_entries
            vals, scales = out[: 2 * n], out[2 * n :]
            for k in range(n):
                left, right = mpmath.mpmathify(vals[k]), mpmath.mpmathify(vals[n + k])
                scale = max(abs(mpmath.mpmathify(scales[k])), abs(mpmath.mpmathify(scales[n + k])))
                if not (mpmath.isfinite(left) and mpmath.isfinite(right)):
                    return NumericResult("disagree", evaluated + 1, math.inf, f"a side is not finite at point {p}")
                if step.rel == "=":
                    gap = abs(left - right)
                    err = mpmath.mpf(0) if gap == 0 else (gap / scale if scale else mpmath.inf)
                else:
                    # a side proved real may carry an imaginary part from rounding (|w| as sqrt(w conj(w))), no more
                    if max(abs(mpmath.im(left)), abs(mpmath.im(right))) > tol * scale:
                        return NumericResult("disagree", evaluated + 1, math.inf, "an inequality side is complex")
                    left, right = mpmath.re(left), mpmath.re(right)
                    small, big = (left, right) if step.rel in ("<=", "<") else (right, left)
                    slack = (big - small) / scale if scale else mpmath.mpf(0)
                    if step.rel in ("<", ">"):
                        # strict: the slack must clear the tolerance, or the point does not show strictness
                        err = mpmath.mpf(0) if slack > tol else mpmath.inf if slack <= 0 else tol * 2
                    else:
                        err = max(mpmath.mpf(0), -slack)
                worst = max(worst, err)
            evaluated += evidence
    if all_identical:
        return NumericResult("identical", 0, None)
    status = "agree" if worst <= tol else "disagree"
    reason = "" if status == "agree" else f"relative error {mpmath.nstr(worst, 3)} > {mpmath.nstr(tol, 3)}"
    if status == "agree" and not evaluated:  # every sum empty, or no point satisfied the given facts
        return NumericResult("identical", 0, None, "no point gave evidence (every sum empty or no point allowed)")
    return NumericResult(status, evaluated, float(worst) if mpmath.isfinite(worst) else math.inf, reason)


def _beside(bp: tuple, values: list, dom: Domain, env: Mapping) -> list | None:
    r"""``values`` with one symbol moved onto a breakpoint (``offset`` 0), or just below (1) or above (2) it: one
    below/above for an integer, a relative ``2^-20`` for a real; ``None`` if that value is outside its domain."""
    j, at, offset = bp
    try:
        v = mpmath.mpmathify(at(*values))
    except (ZeroDivisionError, TypeError, ValueError):
        return None
    if not mpmath.isfinite(v) or mpmath.im(v):
        return None
    v = mpmath.re(v)
    step = mpmath.mpf(1) if dom.kind == "integer" else mpmath.mpf(2) ** -20 * max(1, abs(v))
    if dom.kind == "integer":
        v = mpmath.floor(v)
    v += (0, -step, step)[offset]
    lo, hi = dom.bounds(env)
    if dom.kind == "complex" or not lo <= v <= hi or (dom.parity is not None and int(v) % 2 != dom.parity):
        return None
    return [*values[:j], v, *values[j + 1 :]]


def size_combinations(sizes: Mapping) -> list:
    if not sizes:
        return [{}]
    keys = sorted(sizes, key=str)
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*(sizes[k] for k in keys))]


def domain_key(atom) -> str:
    r"""The name a domain is given under: a symbol's, an IndexedBase's or a MatrixSymbol's name."""
    if isinstance(atom, sp.Indexed):
        return str(atom.base)
    if isinstance(atom, MatrixElement):
        return str(atom.parent)
    if isinstance(atom, sp.IndexedBase):
        return str(atom.label)
    return str(atom)
