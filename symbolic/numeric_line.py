r"""The numeric line: both sides of a step evaluated with mpmath at seeded points, as an independent second check.

:class:`Kernel`\ s are functions with a symbolic definition (``doit``) and a numeric one (the code in
:mod:`numeric`). A :class:`Domain` says where a symbol's values are drawn from (edge values first, then draws
spread over many magnitudes); Indexed bases and matrices get tables of such draws. ``_compile`` makes both sides
concrete at the declared sizes and lambdifies them for mpmath, keeping Sums and kernels as written, and
``_numeric_check`` compares the sides relative to the size of their terms, giving a :class:`NumericResult`.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import mpmath
import sympy as sp
from sympy.core.parameters import evaluate
from sympy.matrices.expressions.matexpr import MatrixElement

from . import settings
from .results import NumericResult

if TYPE_CHECKING:
    from .core import Step


# ==============================================================================================================
# Kernels: functions with a symbolic definition (doit) and a numeric implementation (the code in numeric/).
# ==============================================================================================================


class Kernel(sp.Function):
    r"""A function that appears in claims with two faces: ``doit()`` unfolds its definition for the symbolic
    check, and :meth:`numeric` evaluates it with the implementation in :mod:`numeric` for the numeric check,
    so that the numeric line tests the code people run. Subclasses set ``nargs`` and both methods."""

    @classmethod
    def numeric(cls, *args):  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def doit(self, **hints):  # pragma: no cover - every subclass overrides it
        raise NotImplementedError


# ==============================================================================================================
# Numeric domains.
# ==============================================================================================================

#: Magnitudes spanned by the default domains (log-uniform): integer positions up to 2^24, reals 1e-6 .. 1e6.
INT_MAX = 2**24
REAL_TINY, REAL_HUGE = 1e-6, 1e6


def _uniform(rng: random.Random, bits: int) -> mpmath.mpf:
    r"""A uniform draw in [0, 1) with ``bits`` random bits (the working precision: not a float64)."""
    return mpmath.mpf(rng.getrandbits(bits)) / mpmath.mpf(2) ** bits


@dataclass(frozen=True)
class Domain:
    r"""Where a symbol's values come from. ``kind`` is ``"real"``, ``"integer"`` or ``"complex"``; ``lo`` and ``hi``
    bound it (numbers, or SymPy expressions in the size symbols such as ``d/2 - 1``); ``log`` spreads the draws
    log-uniformly over the magnitudes in range (both signs when ``lo < 0 < hi``), else uniformly; ``edges`` are
    values tried first, deterministically (``0``, ``±1`` where allowed). ``parity`` 0/1 keeps integers even/odd."""

    kind: str = "real"
    lo: Any = -3.0
    hi: Any = 3.0
    log: bool = False
    edges: tuple = ()
    parity: int | None = None

    def __post_init__(self):
        if self.kind not in ("real", "integer", "complex"):
            raise ValueError(f"kind must be 'real', 'integer' or 'complex', got {self.kind!r}")

    def bounds(self, env: Mapping) -> tuple:
        def value(v):
            if isinstance(v, sp.Basic):
                v = v.subs(env)
                if not v.is_number:
                    raise ValueError(f"domain bound {v} depends on symbols that are not sizes")
                return int(v) if self.kind == "integer" else mpmath.mpf(sp.N(v, 30))
            return v

        return value(self.lo), value(self.hi)

    def draw(self, rng: random.Random, bits: int, env: Mapping = {}):  # noqa: B006 - read only
        lo, hi = self.bounds(env)
        if self.kind == "complex":
            r = _log_uniform(rng, bits, mpmath.mpf(lo), mpmath.mpf(hi))
            return r * mpmath.expjpi(2 * _uniform(rng, bits) - 1)
        if self.kind == "integer":
            lo, hi = int(lo), int(hi)
            if lo > hi:
                raise ValueError(f"empty integer domain [{lo}, {hi}]")
            if self.log:
                v = _log_spread_int(rng, lo, hi)
            else:
                v = rng.randint(lo, hi)
            if self.parity is not None and v % 2 != self.parity:
                v = v + 1 if v + 1 <= hi else v - 1
            return mpmath.mpf(v)
        lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
        if not self.log:
            return lo + (hi - lo) * _uniform(rng, bits)
        if lo > 0:
            return _log_uniform(rng, bits, lo, hi)
        if hi < 0:
            return -_log_uniform(rng, bits, -hi, -lo)
        # both signs: pick a side in proportion to its log-width, magnitudes log-uniform in [REAL_TINY, |bound|]
        tiny = mpmath.mpf(REAL_TINY)
        up = mpmath.log(hi / tiny) if hi > tiny else mpmath.mpf(0)
        down = mpmath.log(-lo / tiny) if -lo > tiny else mpmath.mpf(0)
        if up + down == 0:
            return lo + (hi - lo) * _uniform(rng, bits)
        if _uniform(rng, 32) * (up + down) < up:
            return _log_uniform(rng, bits, tiny, hi)
        return -_log_uniform(rng, bits, tiny, -lo)

    def edge_values(self, env: Mapping = {}) -> tuple:  # noqa: B006 - read only
        lo, hi = self.bounds(env)
        if self.kind == "complex":
            return self.edges
        out = []
        for v in self.edges:
            if lo <= v <= hi and (self.parity is None or int(v) % 2 == self.parity):
                out.append(mpmath.mpf(v))
        return tuple(out)

    @staticmethod
    def of(atom) -> Domain:
        r"""The default domain from SymPy assumptions (of a symbol, an IndexedBase or a MatrixSymbol):

        * integers: ``[-2^24, 2^24]`` log-spread (``[0, 2^24]`` / ``[1, 2^24]`` if nonnegative / positive), edges
          0, ±1, parity kept for even/odd symbols;
        * reals: magnitudes ``1e-6 .. 1e6`` log-spread with both signs (positive: ``(1e-6, 1e6)``), edges 0, ±1;
        * matrix entries: reals;
        * anything else: complex, moduli ``1e-3 .. 1e3`` and every argument, with edges on and beside the
          negative real axis (the branch cut of ``log`` and ``sqrt``)."""
        base = atom
        if isinstance(atom, sp.Indexed):
            base = atom.base.label
        elif isinstance(atom, sp.IndexedBase):
            base = atom.label
        elif isinstance(atom, MatrixElement):
            base = atom.parent
        if isinstance(base, sp.MatrixSymbol):
            return Domain("real", -REAL_HUGE, REAL_HUGE, log=True, edges=(0, 1, -1))
        if base.is_integer:
            parity = 0 if base.is_even else (1 if base.is_odd else None)
            if base.is_positive:
                return Domain("integer", 1, INT_MAX, log=True, edges=(1, 2), parity=parity)
            if base.is_nonnegative:
                return Domain("integer", 0, INT_MAX, log=True, edges=(0, 1, 2), parity=parity)
            return Domain("integer", -INT_MAX, INT_MAX, log=True, edges=(0, 1, -1, 2), parity=parity)
        if base.is_real:
            if base.is_positive:
                return Domain("real", REAL_TINY, REAL_HUGE, log=True, edges=(1,))
            if base.is_nonnegative:
                return Domain("real", 0, REAL_HUGE, log=True, edges=(0, 1))
            return Domain("real", -REAL_HUGE, REAL_HUGE, log=True, edges=(0, 1, -1))
        cut = mpmath.mpf(10) ** -20
        edges = (mpmath.mpc(1), mpmath.mpc(-1), mpmath.mpc(0, 1), mpmath.mpc(-1, cut), mpmath.mpc(-1, -cut))
        return Domain("complex", 1e-3, 1e3, log=True, edges=edges)


def _log_uniform(rng: random.Random, bits: int, lo, hi):
    r"""Log-uniform in ``[lo, hi]`` (``0 < lo <= hi``), at ``bits`` bits."""
    return lo * (hi / lo) ** _uniform(rng, bits)


def _log_spread_int(rng: random.Random, lo: int, hi: int) -> int:
    r"""An integer in ``[lo, hi]`` whose magnitude is log-uniform (both signs if the range has them)."""

    def magnitude(top: int) -> int:
        return min(top, int(math.exp(rng.random() * math.log(top + 1))))

    if lo >= 0:
        return lo + magnitude(hi - lo)
    if hi <= 0:
        return hi - magnitude(hi - lo)
    up, down = math.log1p(hi), math.log1p(-lo)
    return magnitude(hi) if rng.random() * (up + down) < up else -magnitude(-lo)


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

    def sub_sum(s: sp.Sum):
        p = sp.Dummy("sum")
        store[p] = sp.Sum(_numeric_form_scalar(s.function, store), *s.limits)
        return p

    def sub_kernel(k: Kernel):
        p = sp.Dummy("kernel")
        store[p] = ("kernel", type(k), tuple(_numeric_form_scalar(a, store) for a in k.args))
        return p

    e = e.replace(lambda x: isinstance(x, sp.Sum), sub_sum)
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
    return any(isinstance(x, (sp.Sum, Kernel)) or _is_written_form(x) for n in nodes for x in sp.preorder_traversal(n))


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
                rep[p] = sp.Function(f"_K_{cls.__name__}")(*args)
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
    return sp.Abs(e)


@dataclass
class _Compiled:
    f: Callable
    symbols: list  # plain symbols, in argument order
    tables: dict  # name -> _Table
    n_entries: int
    identical: list  # per entry: the two sides are structurally identical


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
            elif isinstance(a, sp.Sum):
                has_sums = True
            elif isinstance(a, sp.core.function.AppliedUndef) and type(a).__name__.startswith("_K_"):
                kernels.add(type(a).__name__)
        free |= symbols
    if has_sums:  # summation variables are bound, not free
        free = set().union(*[{s for s in x.free_symbols if isinstance(s, sp.Symbol)} for x in everything])
    plain = sorted(free - labels, key=sp.default_sort_key)
    args = [sp.Symbol(f"_a{k}") for k in range(len(plain))]
    rep.update(dict(zip(plain, args, strict=True)))
    counter = itertools.count()

    def fresh_sum(s: sp.Sum):  # every summation variable its own name (bottom-up: inner sums first)
        names = {v: sp.Symbol(f"_s{next(counter)}") for v, _, _ in s.limits}
        return sp.Sum(s.function.xreplace(names), *[(names[v], lo, hi) for v, lo, hi in s.limits])

    def rename(x):
        if not isinstance(x, sp.Basic):
            return x
        if has_sums:
            x = x.replace(lambda a: isinstance(a, sp.Sum), fresh_sum)
        return x.xreplace(mapping)

    mapping = {**elements, **rep}
    with evaluate(False):
        exprs = [rename(x) for x in exprs]
        scales = [rename(x) for x in scales]
    for name in kernels:
        namespace[name] = _KERNELS[name[3:]].numeric
    namespace.update(tables)
    f = sp.lambdify(
        args, exprs + scales, modules=[namespace, "mpmath"], printer=_printer(), dummify=False, docstring_limit=0
    )
    return _Compiled(f, plain, tables, len(keep), identical)


def _printer():
    r"""lambdify's mpmath printer, printing sums and products in the order written (no sorting of terms: faster,
    and the side is evaluated as it is written)."""
    from sympy.printing.pycode import MpmathPrinter

    settings = {"order": "none", "fully_qualified_modules": False, "inline": True, "allow_unknown_functions": True}
    return MpmathPrinter({**settings, "user_functions": {}})


_KERNELS: dict[str, type[Kernel]] = {}


def _register_kernels():
    def walk(cls):
        for sub in cls.__subclasses__():
            _KERNELS[sub.__name__] = sub
            walk(sub)

    walk(Kernel)


def _numeric_check(step: Step, dps: int, sizes_list: list, domains: Callable, rng: random.Random) -> NumericResult:
    r"""Evaluate both sides of ``step`` at ``max(NUMERIC_POINTS, POINTS_PER_SIZE * sizes)`` points (edge points
    first), cycling through every size combination."""
    _register_kernels()
    n_points = max(settings.NUMERIC_POINTS, settings.POINTS_PER_SIZE * len(sizes_list))
    work = dps + settings.NUMERIC_GUARD_DIGITS
    bits = int(work * 3.33) + 8
    tol = settings.rel_tol(dps)
    compiled: dict = {}
    worst = mpmath.mpf(0)
    evaluated = 0
    all_identical = True
    with mpmath.workdps(work):
        for p in range(n_points):
            sizes = sizes_list[p % len(sizes_list)]
            key = tuple(sorted((str(k), v) for k, v in sizes.items()))
            if key not in compiled:
                compiled[key] = _compile(step, sizes, domains)
            c = compiled[key]
            if c.n_entries == 0:
                continue
            all_identical = False
            env = dict(sizes)
            edge = p if p < settings.EDGE_POINTS else None
            values = []
            for s in c.symbols:
                dom = domains(s)
                edges = dom.edge_values(env) if edge is not None else ()
                values.append(edges[p % len(edges)] if edges else dom.draw(rng, bits, env))
            for t in c.tables.values():
                t.reset(rng, bits, env, edge)
            out = c.f(*values)
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
                    if mpmath.im(left) or mpmath.im(right):
                        return NumericResult("disagree", evaluated + 1, math.inf, "an inequality side is complex")
                    small, big = (left, right) if step.rel in ("<=", "<") else (right, left)
                    slack = (big - small) / scale if scale else mpmath.mpf(0)
                    if step.rel in ("<", ">"):
                        # strict: the slack must clear the tolerance, or the point does not show strictness
                        err = mpmath.mpf(0) if slack > tol else mpmath.inf if slack <= 0 else tol * 2
                    else:
                        err = max(mpmath.mpf(0), -slack)
                worst = max(worst, err)
            evaluated += 1
    if all_identical:
        return NumericResult("identical", 0, None)
    status = "agree" if worst <= tol else "disagree"
    reason = "" if status == "agree" else f"relative error {mpmath.nstr(worst, 3)} > {mpmath.nstr(tol, 3)}"
    return NumericResult(status, evaluated, float(worst) if mpmath.isfinite(worst) else math.inf, reason)


def _size_combinations(sizes: Mapping) -> list:
    if not sizes:
        return [{}]
    keys = sorted(sizes, key=str)
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*(sizes[k] for k in keys))]


def _key(atom) -> str:
    r"""The name a domain is given under: a symbol's, an IndexedBase's or a MatrixSymbol's name."""
    if isinstance(atom, sp.Indexed):
        return str(atom.base)
    if isinstance(atom, MatrixElement):
        return str(atom.parent)
    if isinstance(atom, sp.IndexedBase):
        return str(atom.label)
    return str(atom)
