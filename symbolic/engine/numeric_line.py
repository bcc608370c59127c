r"""The numeric line: both sides of a step evaluated with mpmath at seeded points, as an independent second check.

:class:`~.kernel.Kernel`\ s (functions with a symbolic definition and a numeric one) are evaluated by the code in
:mod:`numeric`. A :class:`Domain` says where a symbol's values are drawn from (edge values first, then draws
spread over many magnitudes: :mod:`.domains`); Indexed bases and matrices get tables of such draws.
``_compile`` makes both sides
concrete at the declared sizes and lambdifies them for mpmath, keeping Sums, Products and kernels as written, and
``numeric_check`` compares the sides relative to the size of their terms, giving a :class:`NumericResult` (with
the first point that disagrees). Every point keeps every ``given`` fact (:func:`_given_plan`): a fact about a bare
symbol narrows its domain, every fact is checked at every point, and a fact the line cannot check is refused.
"""

# Long module: the numeric line is one pipeline (the sides compiled for mpmath, the points planned to honour every
# declaration and given fact, evaluated, compared); where values come from is apart (domains.py).

from __future__ import annotations

import builtins
import functools
import itertools
import linecache
import math
import random
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import mpmath
import sympy as sp
from posproof.symbolic.engine import settings
from posproof.symbolic.engine.domains import (  # noqa: F401  (re-exported)
    INT_FAR,
    INT_MAX,
    REAL_FAR,
    REAL_HUGE,
    REAL_TINY,
    Domain,
    holds,
    uniform_draw,
)
from posproof.symbolic.engine.kernel import Kernel
from posproof.symbolic.engine.maximum import Maximum
from posproof.symbolic.engine.results import NumericResult
from sympy.concrete.expr_with_limits import ExprWithLimits
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
        try:  # an entry drawn already (an integer-valued mpf index hashes and compares as its int)
            return self.values[key]
        except KeyError:
            pass
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

    def sub_sum(s):  # a Sum, a Product or a Maximum
        p = sp.Dummy("sum")
        store[p] = s.func(_numeric_form_scalar(s.function, store), *s.limits)
        return p

    def sub_kernel(k: Kernel):
        p = sp.Dummy("kernel")
        store[p] = ("kernel", type(k), tuple(_numeric_form_scalar(a, store) for a in k.args))
        return p

    e = e.replace(lambda x: isinstance(x, (sp.Sum, sp.Product, Maximum)), sub_sum)
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
        isinstance(x, (sp.Sum, sp.Product, Maximum, Kernel)) or _is_written_form(x)
        for n in nodes
        for x in sp.preorder_traversal(n)
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
    if isinstance(e, (sp.Sum, sp.Product)):
        return e.func(_abs_terms(e.function), *e.limits)
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
    given: Callable | None = None  # the given facts a point must satisfy (of point_symbols)
    point_symbols: list = field(default_factory=list)  # symbols, then those the given facts tie to them
    domains: list = field(default_factory=list)  # per point symbol (None: the given facts contradict it)
    edges: list = field(default_factory=list)  # per point symbol, its edge values at this size
    table_names: dict = field(default_factory=dict)  # _T* -> the IndexedBase or MatrixSymbol it stands for
    kernel_values: dict = field(default_factory=dict)  # the kernels' values at the current point (_Called)


def _entries(side, sizes: Mapping) -> tuple:
    r"""One side at ``sizes`` as its scalar entries, ready for lambdify (:func:`_entries_at`, computed once per
    process for each side and sizes: a chain's shared expressions, a claim checked again)."""
    if isinstance(side, sp.MatrixBase) and not isinstance(side, sp.ImmutableMatrix):
        side = sp.ImmutableMatrix(side)  # the same entries, hashable
    key = tuple(sorted(sizes.items(), key=lambda kv: str(kv[0])))
    try:
        hash(side)
    except TypeError:  # a part that cannot be hashed
        return _entries_at.__wrapped__(side, key)
    return _entries_at(side, key)


@functools.lru_cache(maxsize=4096)
def _entries_at(side, sizes: tuple) -> tuple:
    r"""``side`` made concrete at ``sizes`` (``(symbol, value)`` pairs) and rewritten without collecting, so that it
    stays as written: its scalar entries, Sums, Products and kernel calls as written (:func:`_numeric_entries`,
    :func:`_restore`)."""
    e = _at_sizes(side, dict(sizes)) if sizes and hasattr(side, "subs") else side
    store: dict = {}
    with evaluate(False):
        entries = _numeric_entries(e, store)
        if store:
            entries = [_restore(x, store) for x in entries]
    return tuple(entries)


def _at_sizes(e, sizes: dict):
    r"""``e.subs(sizes)`` (size symbols to integers), by ``xreplace`` where the two are the same: every node's class
    substitutes a symbol by rebuilding its arguments (no ``_eval_subs`` of its own beyond those below) and no size
    symbol is a summation variable (subs leaves a bound one alone). ``subs`` applies the sizes one at a time and
    asks each Sum for its free symbols; ``xreplace`` rebuilds once."""
    nodes = list(e) if isinstance(e, sp.MatrixBase) else [e]
    for x in nodes:
        for a in sp.preorder_traversal(x) if isinstance(x, sp.Basic) else ():
            rule = _subs_rule(type(a))
            if rule == "own" or (rule == "limits" and any(v[0] in sizes for v in a.limits)):
                return e.subs(sizes)
    return e.xreplace({k: sp.Integer(v) for k, v in sizes.items()})


#: The classes whose ``_eval_subs`` substitutes a symbol by an integer as rebuilding their arguments does (Basic's
#: does nothing; a Number is itself, Pow of its base gives the same power; Add, Mul, functions and exp act on other
#: kinds of ``old`` only).
_SUBS_AS_REBUILD = (sp.Basic, sp.Symbol, sp.Number, sp.Pow, sp.Add, sp.Mul, sp.core.function.Application, sp.exp)


def _per_class(rule_of):
    r"""``rule_of(t)`` computed once per class ``t`` (a dict: a class is not ``Hashable`` to ``functools.cache``'s
    stubs)."""
    rules: dict[type, str] = {}

    def rule(t: type) -> str:
        if t not in rules:
            rules[t] = rule_of(t)
        return rules[t]

    return rule


def _subs_rule_of(t: type) -> str:
    r"""How ``subs`` of a size symbol treats a node of class ``t``: ``"rebuild"`` (as ``xreplace``), ``"limits"`` (a
    Sum, Product or Maximum: as ``xreplace`` unless the symbol is a summation variable) or ``"own"``."""

    def owner(name: str) -> type:
        return next((c for c in t.__mro__ if name in vars(c)), sp.Basic)

    if owner("subs") is not sp.Basic or owner("_subs") is not sp.Basic or owner("_xreplace") is not sp.Basic:
        return "own"
    if owner("xreplace") not in (sp.Basic, sp.Atom):  # an atom's: itself, or its replacement
        return "own"
    if t in (sp.Sum, sp.Product, Maximum):
        return "limits"
    if owner("_eval_subs") in _SUBS_AS_REBUILD or owner("_eval_subs") in (type(sp.oo), type(-sp.oo)):
        return "rebuild"
    return "own"


#: How ``subs`` of a size symbol treats a node of a class (:func:`_subs_rule_of`, once per class).
_subs_rule = _per_class(_subs_rule_of)


@functools.lru_cache(maxsize=8192)
def _scale(x):
    r"""The size of the terms of one entry (:func:`_abs_terms`), computed once per process for each entry."""
    return _abs_terms(x) if isinstance(x, sp.Basic) else abs(x)


def _free_rule_of(t: type) -> str:
    r"""Whose ``free_symbols`` a class of expressions has: ``"args"`` (Basic's: those of its arguments), ``"limits"``
    (ExprWithLimits': those of its summand and limits, less its variables), or ``"own"`` (a rule of its own)."""
    owner = next(c for c in t.__mro__ if "free_symbols" in vars(c))
    return {sp.Basic: "args", ExprWithLimits: "limits"}.get(owner, "own")


#: Whose ``free_symbols`` a class of expressions has (:func:`_free_rule_of`, once per class).
_free_rule = _per_class(_free_rule_of)


def _free_symbols(x, bases: Mapping, seen: dict) -> set:
    r"""``x.xreplace(bases).free_symbols`` (``bases``: every IndexedBase of ``x``, each to a table's IndexedBase) but
    for the tables' labels, computed without rebuilding ``x`` (SymPy would re-evaluate every node above a
    replacement, and a Sum's own ``free_symbols`` re-evaluates its summand): the same rules, node by node, and
    each distinct subexpression once (``seen``). A node whose class has rules of its own is asked as SymPy asks it."""
    if x in seen:
        return seen[x]
    t = type(x)
    if isinstance(x, sp.Symbol):
        out = {x}
    elif t is sp.IndexedBase and x in bases:  # a table: its label is not a free symbol
        out = set()
    elif t is sp.Indexed and x.base in bases:  # a table's entry: the symbols of its indices
        out = set().union(*[_free_symbols(i, bases, seen) for i in x.indices])
    elif _free_rule(t) == "limits" and all(isinstance(v[0], sp.Symbol) for v in x.limits):
        out = set(_free_symbols(x.function, bases, seen))  # a Sum, Product or Maximum: as ExprWithLimits does
        for limit in x.limits:
            if len(limit) == 1:
                out.add(limit[0])
                continue
            out.discard(limit[0])
            for bound in limit[1:]:
                out |= _free_symbols(bound, bases, seen)
    elif _free_rule(t) == "args":
        out = set().union(*[_free_symbols(a, bases, seen) for a in x.args])
    else:  # a class with rules of its own (a Derivative, a matrix symbol): as SymPy computes it
        out = set(x.xreplace(bases).free_symbols)
    seen[x] = out
    return out


def _bottom_up(x, query: Callable, f: Callable, seen: dict):
    r"""``x.replace(query, f)`` as SymPy walks it (the arguments first, then the node; a node whose arguments are
    unchanged is kept), each distinct subexpression once (``seen``): an expression and its scale of terms share
    most of their nodes, and a sum repeated in a side is renamed once (its names are bound in its own loop)."""
    if x in seen:
        return seen[x]
    out = x
    if x.args:
        args = tuple(_bottom_up(a, query, f, seen) if isinstance(a, sp.Basic) else a for a in x.args)
        if args != x.args:
            out = x.func(*args)
    if query(out):
        v = f(out)
        if v is not None and v != out:
            out = v
    seen[x] = out
    return out


def _replaced(x, rule: Mapping, seen: dict):
    r"""``x.xreplace(rule)`` (a node in ``rule`` replaced, a node above a replacement rebuilt, the rest kept as it
    is), each distinct subexpression once (``seen``)."""
    return _xreplaced(x, rule, seen)[0]


def _xreplaced(x, rule: Mapping, seen: dict) -> tuple:
    if x in rule:
        return rule[x], True
    if x in seen:
        return seen[x]
    out = (x, False)
    if x.args:
        args = [_xreplaced(a, rule, seen) if isinstance(a, sp.Basic) else (a, False) for a in x.args]
        if any(changed for _, changed in args):  # rebuilt only above a replacement, as SymPy's xreplace
            out = (x.func(*[a for a, _ in args]), True)
    seen[x] = out
    return out


def _compile(step: Step, sizes: Mapping, domains: Callable) -> _Compiled:
    left, right = _entries(step.lhs, sizes), _entries(step.rhs, sizes)
    if len(left) != len(right):
        raise ValueError(f"the two sides have {len(left)} and {len(right)} entries")
    identical = [a == b for a, b in zip(left, right, strict=True)]  # structural, argument order included
    keep = [k for k, same in enumerate(identical) if not same]
    exprs = [left[k] for k in keep] + [right[k] for k in keep]
    scales = [_scale(x) for x in exprs]
    # Rename what lambdify will see: plain symbols become arguments _a*, IndexedBases and MatrixSymbols become
    # random tables _T*, summation variables _s*; kernels are looked up by name.
    everything = [x for x in exprs if isinstance(x, sp.Basic)]  # the scales hold the same atoms
    tables: dict = {}
    table_names: dict = {}
    rep: dict = {}
    namespace: dict = {}
    free: set = set()
    labels: set = set()
    elements: dict = {}  # matrix entries, by their matrix's table
    kernels: set = set()
    has_sums = False
    plain_code = True  # nothing lambdify must rewrite before printing (see _function)
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
                    table_names[name] = str(base.label if isinstance(base, sp.IndexedBase) else base)
                    rep[base] = sp.IndexedBase(name)
                if isinstance(a, sp.IndexedBase):
                    labels.add(a.label)
                else:
                    elements[a] = sp.Indexed(rep[base], a.i, a.j)
            elif isinstance(a, (sp.Sum, sp.Product, Maximum)):
                has_sums = True
            elif isinstance(a, sp.core.function.AppliedUndef) and type(a).__name__ in _KERNELS:
                kernels.add(type(a).__name__)
            if isinstance(a, _LAMBDIFY_ONLY) or getattr(a, "_imp_", None) is not None:
                plain_code = False
        free |= symbols
    if has_sums or labels:  # summation variables are bound, and a label is not a symbol: free symbols of the rest
        bases = {b: t for b, t in rep.items() if isinstance(b, sp.IndexedBase)}
        seen: dict = {}
        free = set().union(*[_free_symbols(x, bases, seen) for x in everything])
        free = {s for s in free if isinstance(s, sp.Symbol)}
        free -= {t.label for t in bases.values()}
    plain = sorted(free, key=sp.default_sort_key)
    args = [sp.Symbol(f"_a{k}") for k in range(len(plain))]
    rep.update(dict(zip(plain, args, strict=True)))
    counter = itertools.count()

    def fresh_sum(s):  # every summation variable its own name (bottom-up: inner sums first); Product, Maximum too
        names = {v: sp.Symbol(f"_s{next(counter)}") for v, _, _ in s.limits}
        limits = [(names[v], lo.xreplace(names), hi.xreplace(names)) for v, lo, hi in s.limits]
        return s.func(s.function.xreplace(names), *limits)

    def rename(x):
        if not isinstance(x, sp.Basic):
            return x
        if has_sums:
            x = _bottom_up(x, lambda a: isinstance(a, (sp.Sum, sp.Product, Maximum)), fresh_sum, summed)
        return _replaced(x, mapping, renamed)

    mapping = {**elements, **rep}
    summed: dict = {}  # what rename has made of each distinct subexpression, shared by the entries and their scales
    renamed: dict = {}
    with evaluate(False):
        exprs = [rename(x) for x in exprs]
        scales = [rename(x) for x in scales]
    calls: dict = {}  # the kernels' values at the current point (numeric_check empties it at each point)
    for name in kernels:
        namespace[name] = _Called(name, _KERNELS[name].numeric, calls)
    namespace["_range"] = _range
    namespace["_prod"] = _prod
    namespace["_mpdiff"] = mpmath.diff
    namespace.update(tables)
    f = _function(args, exprs + scales, namespace, plain_code)
    return _Compiled(f, plain, tables, len(keep), identical, table_names=table_names, kernel_values=calls)


class _Called:
    r"""A kernel's code, each distinct call (the same arguments, of the same types) run once per point: a kernel in
    a side is called again by its scale of terms, often by the other side, at the same arguments. ``values`` is
    emptied before each point is evaluated."""

    def __init__(self, name: str, numeric: Callable, values: dict):
        self.name, self.numeric, self.values = name, numeric, values

    def __call__(self, *args):
        try:
            key = (self.name, tuple((type(a), a) for a in args))
            return self.values[key]
        except KeyError:
            out = self.values[key] = self.numeric(*args)
            return out
        except TypeError:  # an argument that cannot be hashed
            return self.numeric(*args)


#: What lambdify rewrites before it prints an expression: a Subs (into assignments), ``re`` (of an
#: UnevaluatedExpr); a function with an implementation (``_imp_``) is looked up by lambdify too.
_LAMBDIFY_ONLY = (sp.Subs, sp.re, sp.UnevaluatedExpr)
_GENERATED = itertools.count()


@functools.cache
def _mpmath_namespace() -> dict:
    r"""The names a function lambdify writes for mpmath sees (mpmath's, SymPy's translations to them, ``builtins``,
    ``range``): those of a function lambdify made, so that they are SymPy's own."""
    return dict(sp.lambdify((), 0, modules="mpmath").__globals__)


def _function(args: list, exprs: list, namespace: dict, plain_code: bool) -> Callable:
    r"""``sp.lambdify(args, exprs, modules=[namespace, "mpmath"], printer=_printer(), dummify=False)``: the same
    source, printed by the same printer, run in the same names. When ``plain_code`` (the expressions hold nothing
    lambdify rewrites before printing: :data:`_LAMBDIFY_ONLY`, implemented functions; the arguments are plain
    symbols with identifier names) it is written here, without lambdify's walks over every expression (for
    implementations, Subs and ``re``), that find nothing; otherwise lambdify writes it."""
    if not plain_code:
        return sp.lambdify(
            args, exprs, modules=[namespace, "mpmath"], printer=_printer(), dummify=False, docstring_limit=0
        )
    printer = _printer(plain=True)
    body = "[" + ", ".join(printer.doprint(e) for e in exprs) + "]"
    if "\n" in body:  # comment lines (what the printer does not support) inside the list
        body = f"({body})"
    source = f"def _lambdifygenerated({', '.join(str(a) for a in args)}):\n    return {body}\n"
    names = {**_mpmath_namespace(), **namespace}
    for module, keys in printer.module_imports.items():
        for key in keys:
            if key not in names:
                exec(f"from {module} import {key}", {}, names)  # noqa: S102 - a name the printer printed
    names.update({"builtins": builtins, "range": range})
    filename = f"<posproof-numeric-{next(_GENERATED)}>"
    local: dict = {}
    exec(compile(source, filename, "exec"), names, local)  # noqa: S102 - code printed from the step's expressions
    f = local["_lambdifygenerated"]
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)  # its source in tracebacks
    weakref.finalize(f, linecache.cache.pop, filename, None)
    return f


def _printer(*, plain: bool = False):
    r"""lambdify's mpmath printer, printing sums and products in the order written (no sorting of terms: faster,
    and the side is evaluated as it is written). ``plain``: the expressions hold no ``re`` (what the printer's
    handling of UnevaluatedExpr rewrites), so that walk is skipped."""
    from sympy.printing.pycode import MpmathPrinter

    class Printer(MpmathPrinter):
        def _handle_UnevaluatedExpr(self, expr):  # re(UnevaluatedExpr(x)) -> x: nothing to do without re
            return expr if plain else super()._handle_UnevaluatedExpr(expr)

        def _print_Sum(self, expr):  # outermost loop first; ranges through _range (forward, counted)
            loops = " ".join(
                f"for {self._print(v)} in _range({self._print(lo)}, {self._print(hi)})"
                for v, lo, hi in reversed(expr.limits)
            )
            return f"(builtins.sum({self._print(expr.function)} {loops}))"

        def _print_Product(self, expr):  # as a sum: outermost loop first, ranges through _range
            loops = " ".join(
                f"for {self._print(v)} in _range({self._print(lo)}, {self._print(hi)})"
                for v, lo, hi in reversed(expr.limits)
            )
            return f"(_prod({self._print(expr.function)} {loops}))"

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
    terms summed (a point whose sums need more than ``settings.SUM_TERMS`` terms is drawn again: :class:`_TooLong`)."""

    total = 0
    nonempty = 0
    terms = 0


class _TooLong(Exception):
    r"""A point whose sums are too long to evaluate term by term: drawn again (no evidence either way)."""


def _prod(factors):
    r"""The product of ``factors`` in the order given (``1`` for none: an empty product)."""
    out = mpmath.mpf(1)
    for x in factors:
        out = out * x
    return out


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


#: Predicates on one expression the numeric line checks, by the assumption name :func:`.domains.holds` reads them
#: with; those on a bare symbol also narrow its default domain (``Q.real(z)`` draws ``z`` real).
_PREDICATES = {
    "positive", "negative", "nonnegative", "nonpositive", "nonzero", "zero", "real", "extended_real", "integer",
    "noninteger", "even", "odd", "imaginary", "complex", "finite", "prime", "composite", "hermitian",
    "antihermitian", "extended_positive", "extended_negative", "extended_nonnegative", "extended_nonpositive",
    "extended_nonzero",
}  # fmt: skip
#: Predicates of an expression's value a working-precision number cannot show (every such number is rational).
_UNCHECKABLE = {"rational", "irrational", "algebraic", "transcendental", "infinite"}
#: Constructs a given fact may hold: the numeric line evaluates a fact as a plain mpmath function of the symbols.
_NOT_IN_FACTS = (
    sp.Indexed, sp.IndexedBase, MatrixElement, sp.MatrixExpr, sp.Sum, sp.Product, Maximum, Kernel,
    sp.Derivative, sp.Integral, sp.core.function.AppliedUndef,
)  # fmt: skip
_ORDER = {sp.Q.gt: sp.Gt, sp.Q.ge: sp.Ge, sp.Q.lt: sp.Lt, sp.Q.le: sp.Le}
_EQUALITY = {sp.Q.eq: sp.Eq, sp.Q.ne: sp.Ne}
#: ``x > 0`` and relatives on a bare symbol narrow its domain like the predicates.
_SIGN_OF = {sp.Gt: "positive", sp.Lt: "negative", sp.Ge: "nonnegative", sp.Le: "nonpositive"}


def _refuse(fact, why: str):
    raise ValueError(f"the numeric line cannot honour the given fact {fact}: {why}")


def _as_tree(fact, top, leaves: list):
    r"""A given fact as a checking tree whose leaves are expressions (collected in ``leaves``, to be evaluated
    together): ``("rel", op, i, j)``, ``("pred", name, i)``, ``("and" | "or", [...])``, ``("not", t)``,
    ``("const", bool)``. Anything else is refused, naming ``top`` (the fact as written)."""

    def leaf(e) -> int:
        if isinstance(e, sp.Basic) and any(isinstance(a, _NOT_IN_FACTS) for a in sp.preorder_traversal(e)):
            _refuse(top, "it holds a sum, product, table entry, matrix, kernel or function (only symbols allowed)")
        leaves.append(e)
        return len(leaves) - 1

    if isinstance(fact, (bool, sp.logic.boolalg.BooleanAtom)):
        return ("const", bool(fact))
    if isinstance(fact, sp.AppliedPredicate):
        q = fact.function
        if q in _ORDER:
            fact = _ORDER[q](*fact.arguments, evaluate=False)
        elif q in _EQUALITY:
            fact = _EQUALITY[q](*fact.arguments, evaluate=False)
        else:
            name = getattr(q, "name", None)
            if name in _UNCHECKABLE:
                _refuse(top, f"Q.{name} is not a property a working-precision value can show")
            if name not in _PREDICATES or len(fact.arguments) != 1:
                _refuse(top, f"the predicate is not one it checks ({', '.join(sorted(_PREDICATES))}, relations)")
            return ("pred", name, leaf(fact.arguments[0]))
    if isinstance(fact, sp.core.relational.Relational):
        op = type(fact)
        if op not in (sp.Gt, sp.Ge, sp.Lt, sp.Le, sp.Eq, sp.Ne):
            _refuse(top, f"{op.__name__} is not a relation it checks")
        return ("rel", op, leaf(fact.lhs), leaf(fact.rhs))
    if isinstance(fact, (sp.And, sp.Or)):
        return ("and" if isinstance(fact, sp.And) else "or", [_as_tree(a, top, leaves) for a in fact.args])
    if isinstance(fact, sp.Not):
        return ("not", _as_tree(fact.args[0], top, leaves))
    _refuse(top, f"{type(fact).__name__} is not a relation, a Q predicate, And, Or or Not")


def _truth(tree, v: list) -> bool:
    r"""A checking tree at the leaves' values ``v``: order relations need both sides real (imaginary part exactly
    0), equalities compare exactly, predicates read the value by :func:`.domains.holds`."""
    kind = tree[0]
    if kind == "const":
        return tree[1]
    if kind == "pred":
        return holds(tree[1], v[tree[2]])
    if kind == "rel":
        op, a, b = tree[1], mpmath.mpmathify(v[tree[2]]), mpmath.mpmathify(v[tree[3]])
        if op is sp.Eq:
            return bool(a == b)
        if op is sp.Ne:
            return bool(a != b)
        if not (holds("real", a) and holds("real", b)):
            return False
        a, b = mpmath.re(a), mpmath.re(b)
        return bool({sp.Gt: a > b, sp.Ge: a >= b, sp.Lt: a < b, sp.Le: a <= b}[op])
    if kind == "and":
        return all(_truth(t, v) for t in tree[1])
    if kind == "or":
        return any(_truth(t, v) for t in tree[1])
    return not _truth(tree[1], v)


def _narrowing(fact, out: dict) -> None:
    r"""What a given fact (a conjunct of one) says of a bare symbol, as assumptions added to ``out[symbol]``."""
    if isinstance(fact, sp.And):
        for a in fact.args:
            _narrowing(a, out)
        return
    if isinstance(fact, sp.AppliedPredicate):
        q = fact.function
        if q in _ORDER:
            fact = _ORDER[q](*fact.arguments, evaluate=False)
        else:
            name = getattr(q, "name", None)
            (arg,) = fact.arguments if len(fact.arguments) == 1 else (None,)
            if name in _PREDICATES and isinstance(arg, sp.Symbol):
                out.setdefault(arg, {})[name] = True
            return
    if isinstance(fact, (sp.Gt, sp.Ge, sp.Lt, sp.Le)):  # an order relation: its sides are real
        flip = {sp.Gt: sp.Lt, sp.Lt: sp.Gt, sp.Ge: sp.Le, sp.Le: sp.Ge}
        for side, other, op in ((fact.lhs, fact.rhs, type(fact)), (fact.rhs, fact.lhs, flip[type(fact)])):
            if isinstance(side, sp.Symbol):
                out.setdefault(side, {})["real"] = True
                if other == 0:
                    out[side][_SIGN_OF[op]] = True


@dataclass
class _Given:
    r"""The given facts at one size: the symbols a point draws beyond the step's own (those the facts tie to
    them), every point symbol's domain (narrowed by the facts; ``None`` if the facts contradict its assumptions)
    and the check every point must pass."""

    extra: list
    domains: list
    check: Callable | None


def _given_plan(given: tuple, sizes: Mapping, symbols: list, domains: Callable) -> _Given:
    r"""Read the ``given`` facts for a step over ``symbols`` at ``sizes``. Every fact is checked at every point
    (:func:`_truth`); a fact on symbols that are neither the step's nor tied to them through other facts does not
    restrict this step's points (its values do not enter the step). A fact about a bare symbol also narrows that
    symbol's default domain (``Q.positive(x)``, ``Q.real(z)``, ``Q.integer(x)``, ``x > 0``; a domain given by
    the claim is kept, and checked like any other), so that points are not all rejected. A fact the numeric line
    cannot check is refused: ``ValueError`` naming it."""
    facts = []
    for fact in given:
        f = fact.subs(sizes) if sizes and isinstance(fact, sp.Basic) else fact
        facts.append((fact, f))
    trees: list = []
    leaves: list = []
    for fact, f in facts:
        trees.append(_as_tree(f, fact, leaves))
    # the symbols a point must draw: the step's, and those tied to them by a fact, transitively
    point = set(symbols)
    free = [set(f.free_symbols) if isinstance(f, sp.Basic) else set() for _, f in facts]
    grew = True
    while grew:
        grew = False
        for fs in free:
            if fs & point and not fs <= point:
                point |= fs
                grew = True
    extra = sorted(point - set(symbols), key=sp.default_sort_key)
    everyone = [*symbols, *extra]
    relevant = [k for k, fs in enumerate(free) if fs <= point and (fs & point or not fs)]
    narrowed: dict = {}
    for k in relevant:
        _narrowing(facts[k][1], narrowed)
    doms = []
    for sym in everyone:
        dom = domains(sym)
        if sym in narrowed and dom == Domain.of(sym):
            try:
                dom = Domain.of(sp.Symbol(sym.name, **{**sym.assumptions0, **narrowed[sym]}))
            except ValueError:  # SymPy's InconsistentAssumptions: no point satisfies the facts
                dom = None
        doms.append(dom)
    if not relevant:
        return _Given(extra, doms, None)
    used = sorted({i for k in relevant for i in _leaves_of(trees[k])})
    f = sp.lambdify(everyone, [leaves[i] for i in used], modules="mpmath")
    position = {i: n for n, i in enumerate(used)}
    mine = [_reindex(trees[k], position) for k in relevant]

    def check(*v) -> bool:
        vals = f(*v)
        return all(_truth(t, vals) for t in mine)

    return _Given(extra, doms, check)


def _leaves_of(tree) -> list:
    if tree[0] == "pred":
        return [tree[2]]
    if tree[0] == "rel":
        return [tree[2], tree[3]]
    if tree[0] in ("and", "or"):
        return [i for t in tree[1] for i in _leaves_of(t)]
    if tree[0] == "not":
        return _leaves_of(tree[1])
    return []


def _reindex(tree, position: dict):
    if tree[0] == "pred":
        return ("pred", tree[1], position[tree[2]])
    if tree[0] == "rel":
        return ("rel", tree[1], position[tree[2]], position[tree[3]])
    if tree[0] in ("and", "or"):
        return (tree[0], [_reindex(t, position) for t in tree[1]])
    if tree[0] == "not":
        return ("not", _reindex(tree[1], position))
    return tree


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
            e = _at_sizes(e, dict(sizes)) if sizes else e  # e.subs(sizes)
            for _ in range(4):  # kernels defined by kernels (a pass with no kernel left changes nothing)
                if not e.has(Kernel):
                    break
                e = e.xreplace({k: k.doit() for k in e.atoms(Kernel)})  # every call unfolded, once each
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
    kernels' definitions and beside them. Every point satisfies every ``given`` fact (:func:`_given_plan`); a point
    that does not, or whose sums are too long to evaluate (:class:`_TooLong`), is drawn again, up to
    ``GIVEN_TRIES`` times, before it is skipped. A point where every sum is empty is no evidence. The first point
    that disagrees is reported with the result (its values and the two sides)."""
    for fact in given:  # a fact the numeric line cannot check is refused even where nothing is evaluated
        _as_tree(fact, fact, [])
    n_points = max(settings.NUMERIC_POINTS, settings.POINTS_PER_SIZE * len(sizes_list))
    work = dps + settings.NUMERIC_GUARD_DIGITS
    bits = int(work * 3.33) + 8
    tol = settings.rel_tol(dps)
    compiled: dict = {}
    worst = mpmath.mpf(0)
    evaluated = 0
    all_identical = True
    first: tuple | None = None  # the first point that disagrees
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
                if c.n_entries:
                    g = _given_plan(given, sizes, c.symbols, domains)
                    c.given, c.point_symbols, c.domains = g.check, [*c.symbols, *g.extra], g.domains
                    c.edges = [d.edge_values(sizes) if d is not None else () for d in c.domains]
                if c.n_entries and step.has_kernels:
                    plan += [(-1, sizes, (*b, o)) for b in _breakpoints(step, sizes, c.symbols) for o in range(3)]
            c = compiled[key]
            if c.n_entries == 0:
                continue
            all_identical = False
            if any(d is None for d in c.domains):  # the given facts contradict a symbol's assumptions
                continue
            env = dict(sizes)
            edge = p if 0 <= p < settings.EDGE_POINTS else None
            n_args = len(c.symbols)
            values: list | None = None
            out = None
            for attempt in range(settings.GIVEN_TRIES):
                values = []
                for j, dom in enumerate(c.domains):
                    edges = c.edges[j] if attempt == 0 and (edge is not None or mixed0 <= p < far0) else ()
                    if edges and edge is not None:
                        values.append(edges[p % len(edges)])
                    elif edges and (p + j) % 2 == 0:
                        values.append(edges[0])
                    elif (attempt == 0 and far0 <= p < far0 + settings.FAR_POINTS) or attempt % 2:
                        values.append(dom.draw_far(rng, bits, env))
                    else:
                        values.append(dom.draw(rng, bits, env))
                if bp is not None:
                    moved = _beside(bp, values[:n_args], c.domains[bp[0]], env)
                    values = None if moved is None else moved + values[n_args:]
                if values is not None and (c.given is None or c.given(*values)):
                    for t in c.tables.values():
                        t.reset(rng, bits, env, edge)
                    c.kernel_values.clear()
                    _Sums.total = _Sums.nonempty = _Sums.terms = 0
                    try:
                        out = c.f(*values[:n_args])
                        break
                    except _TooLong:  # too long to sum term by term here: draw the point again
                        pass
                values = None
            if out is None:  # no point satisfying the given facts with sums short enough: nothing evaluated here
                continue
            evidence = not (_Sums.total and not _Sums.nonempty)
            n = c.n_entries
            vals, scales = out[: 2 * n], out[2 * n :]
            for k in range(n):
                left, right = mpmath.mpmathify(vals[k]), mpmath.mpmathify(vals[n + k])
                scale = max(abs(mpmath.mpmathify(scales[k])), abs(mpmath.mpmathify(scales[n + k])))
                if not (mpmath.isfinite(left) and mpmath.isfinite(right)):
                    at = _point(c, values, left, right, k, tol)
                    return NumericResult(
                        "disagree", evaluated + 1, math.inf, f"a side is not finite at point {p}", *at
                    )  # fmt: skip
                if step.rel == "=":
                    gap = abs(left - right)
                    err = mpmath.mpf(0) if gap == 0 else (gap / scale if scale else mpmath.inf)
                else:
                    # a side proved real may carry an imaginary part from rounding (|w| as sqrt(w conj(w))), no more
                    if max(abs(mpmath.im(left)), abs(mpmath.im(right))) > tol * scale:
                        at = _point(c, values, left, right, k, tol)
                        return NumericResult("disagree", evaluated + 1, math.inf, "an inequality side is complex", *at)
                    left, right = mpmath.re(left), mpmath.re(right)
                    small, big = (left, right) if step.rel in ("<=", "<") else (right, left)
                    slack = (big - small) / scale if scale else mpmath.mpf(0)
                    if step.rel in ("<", ">"):
                        # strict: the slack must clear the tolerance, or the point does not show strictness
                        err = mpmath.mpf(0) if slack > tol else mpmath.inf if slack <= 0 else tol * 2
                    else:
                        err = max(mpmath.mpf(0), -slack)
                if err > tol and first is None:
                    first = _point(c, values, left, right, k, err)
                worst = max(worst, err)
            evaluated += evidence
    if all_identical:
        return NumericResult("identical", 0, None)
    status = "agree" if worst <= tol else "disagree"
    reason = "" if status == "agree" else f"relative error {mpmath.nstr(worst, 3)} > {mpmath.nstr(tol, 3)}"
    if status == "agree" and not evaluated:  # every sum empty, or no point satisfied the given facts
        return NumericResult("identical", 0, None, "no point gave evidence (every sum empty or no point allowed)")
    last: tuple = first if status == "disagree" and first is not None else (None, None)
    return NumericResult(status, evaluated, float(worst) if mpmath.isfinite(worst) else math.inf, reason, *last)


#: Drawn table entries shown per table with a disagreeing point.
_SHOWN_ENTRIES = 8


def _point(c: _Compiled, values: list | None, left, right, entry: int, err) -> tuple:
    r"""A disagreeing point as ``(point, sides)``: each symbol's value (and the table entries drawn, by their
    IndexedBase or matrix name) as a short string, and the two sides, with digits enough to tell them apart when
    they differ only far down (``err`` is the relative gap)."""
    point = {str(s): _short(v) for s, v in zip(c.point_symbols, values or [], strict=False)}
    for name, table in c.tables.items():
        for key, v in list(table.values.items())[:_SHOWN_ENTRIES]:
            index = ", ".join(str(i) for i in key) if isinstance(key, tuple) else str(key)
            point[f"{c.table_names.get(name, name)}[{index}]"] = _short(v)
    digits = 6
    if mpmath.isfinite(err) and 0 < err < mpmath.mpf(10) ** -4:
        digits = min(mpmath.mp.dps, int(-mpmath.log10(err)) + 3)
    sides = (_short(left, digits), _short(right, digits))
    if c.n_entries > 1:
        point["entry"] = str(entry)
    return point, sides


def _short(v, digits: int = 6) -> str:
    v = mpmath.mpmathify(v)
    if isinstance(v, mpmath.mpf) and mpmath.isint(v) and abs(v) < mpmath.mpf(10) ** 16:
        return str(int(v))
    return mpmath.nstr(v, digits)


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
