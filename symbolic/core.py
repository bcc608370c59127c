r"""The verification core: a claim is a derivation whose every step is checked twice, independently.

There are three kinds of claims, counted apart:

* a **theorem** (:class:`Identity`): ``lhs rel rhs`` with an ordered derivation of :class:`Step`\ s. Each step is

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
import itertools
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import mpmath
import sympy as sp
from sympy.core.parameters import evaluate
from sympy.matrices.expressions.matexpr import MatrixElement

from posproof.numeric import formatting

from . import settings

__all__ = [
    "STRATEGIES",
    "Step",
    "Identity",
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
# Strategies: named, targeted rewrites of the difference lhs - rhs (Sum summands are rewritten too). Each is an
# equivalence under the assumptions the symbols were declared with: no forced rewrites, no blanket simplify.
# ==============================================================================================================

STRATEGIES: dict[str, Callable[[Any], Any]] = {}


def strategy(name: str):
    r"""Register a strategy under ``name``; its docstring says why it is an equivalence."""

    def register(f):
        if not (f.__doc__ or "").strip():
            raise ValueError(f"strategy {name!r} needs a docstring saying why it is sound")
        STRATEGIES[name] = f
        return f

    return register


@strategy("expand")
def _expand(e):
    r"""``sympy.expand`` without ``force``: distributes products; splits ``(xy)^a``, ``x^(a+b)`` and ``log(xy)``
    only where the declared assumptions make the rule valid (e.g. positive bases)."""
    return sp.expand(e)


@strategy("expand_trig")
def _expand_trig(e):
    r"""Angle-addition and multiple-angle formulas: identities of the analytic functions, valid everywhere."""
    return sp.expand_trig(e)


@strategy("trigsimp")
def _trigsimp(e):
    r"""SymPy's trigonometric simplifier (``sin^2 + cos^2 = 1`` and relatives): it rewrites with identities that
    hold for all complex arguments."""
    return sp.trigsimp(e)


@strategy("powsimp")
def _powsimp(e):
    r"""Combine powers ``x^a x^b = x^(a+b)`` (always valid) and ``x^a y^a = (xy)^a`` only when SymPy can show it
    valid from the assumptions (no ``force``: ``sqrt(x) sqrt(y)`` stays apart for real ``x, y``)."""
    return sp.powsimp(e)


@strategy("powdenest")
def _powdenest(e):
    r"""``(x^a)^b = x^(ab)`` only where the assumptions make it valid (no ``force``: ``sqrt(x^2)`` is not ``x``
    for real ``x``)."""
    return sp.powdenest(e)


@strategy("expand_log")
def _expand_log(e):
    r"""``log(xy) = log x + log y`` and ``log(x^a) = a log x`` only for arguments the assumptions make positive
    (no ``force``)."""
    return sp.expand_log(e)


@strategy("expand_complex")
def _expand_complex(e):
    r"""Split into real and imaginary parts using the symbols' realness (``re``/``im`` of real symbols): exact."""
    return sp.expand_complex(e)


@strategy("expand_power_exp")
def _expand_power_exp(e):
    r"""``x^(a+b) = x^a x^b``: valid for every nonzero base (``x^c = exp(c log x)`` on the principal branch)."""
    return sp.expand_power_exp(e)


@strategy("exp_to_trig")
def _exp_to_trig(e):
    r"""Rewrite exponentials with ``cos``/``sin`` (Euler's formula): an identity of analytic functions."""
    return e.rewrite(sp.cos)


@strategy("trig_to_exp")
def _trig_to_exp(e):
    r"""Rewrite ``sin``/``cos`` with complex exponentials (Euler's formula): an identity of analytic functions."""
    return e.rewrite(sp.exp)


@strategy("cancel")
def _cancel(e):
    r"""Put a rational function in lowest terms: equal wherever both forms are defined (it can only remove a
    removable singularity)."""
    return sp.cancel(e)


@strategy("together")
def _together(e):
    r"""Put a sum of fractions over a common denominator: the same function."""
    return sp.together(e)


@strategy("factor_terms")
def _factor_terms(e):
    r"""Pull common factors out of sums without expanding: the same expression regrouped."""
    return sp.factor_terms(e)


def combine_sums(e):
    r"""Merge ``c1*Sum(f1, L) + c2*Sum(f2, L)`` into ``Sum(c1*f1 + c2*f2, L)`` for identical limits ``L``: linearity
    of a finite sum."""
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


strategy("combine_sums")(combine_sums)


@strategy("doit")
def _doit(e):
    r"""Evaluate what is written out only in form: explicit matrices, finite sums, and :class:`Kernel` functions
    unfolded into their definitions."""
    return e.doit()


@strategy("unfold")
def _unfold(e):
    r"""Replace each :class:`Kernel` by its definition (its ``doit``), and nothing else: a sum with a symbolic range
    is left as it is, where ``doit`` would try to evaluate it."""
    if isinstance(e, sp.Basic) and e.has(Kernel):
        return e.replace(lambda x: isinstance(x, Kernel), lambda k: k.doit())
    return e


@strategy("block_collapse")
def _block_collapse(e):
    r"""Block-matrix multiplication and addition: exact matrix algebra."""
    return sp.block_collapse(e)


@strategy("piecewise_fold")
def _piecewise_fold(e):
    r"""Merge a sum of ``Piecewise`` into one ``Piecewise`` branch by branch: the same function on every branch."""
    return sp.piecewise_fold(e)


@strategy("identity")
def _identity(e):
    r"""No rewrite: the difference must already be zero as written."""
    return e


def _decide_on_range(cond, var, lo, hi):
    r"""``True``/``False`` if ``cond`` holds/fails for every integer ``var`` in ``[lo, hi]``, else ``None``.

    Sound: ``var = lo + j`` with ``j >= 0`` covers every value ``>= lo`` (a superset of the range), and
    ``var = hi - j`` every value ``<= hi``; a condition decided on a superset is decided on the range."""
    j = sp.Dummy("j", integer=True, nonnegative=True)
    for sub in (lo + j, hi - j):
        if cond.subs(var, sub) is sp.true:
            return True
        if sp.Not(cond).subs(var, sub) is sp.true:
            return False
    return None


@strategy("refine_limits")
def _refine_limits(e):
    r"""Decide the conditions of a ``Piecewise`` inside a ``Sum`` from the summation range (e.g. ``i < d/2`` for
    ``i = 0 .. d/2 - 1``): a condition that holds on the whole range is replaced by true there."""

    def refine(s: sp.Sum):
        f = s.function
        for var, lo, hi in s.limits:

            def fix(c, var=var, lo=lo, hi=hi):
                if isinstance(c, (sp.core.relational.Relational,)):
                    v = _decide_on_range(c, var, lo, hi)
                    return c if v is None else (sp.true if v else sp.false)
                return c

            f = f.replace(
                lambda x: isinstance(x, sp.Piecewise),
                lambda pw, fix=fix: sp.Piecewise(*[(ex, fix(c)) for ex, c in pw.args]),
            )
        return sp.Sum(f, *s.limits)

    if isinstance(e, sp.Basic) and e.has(sp.Sum):
        return e.replace(lambda x: isinstance(x, sp.Sum), refine)
    return e


#: Strategies for inequality steps that transform both sides by a strictly increasing function (so ``a < b``
#: iff ``f(a) < f(b)``) before the difference is taken. Each checks the domain where it is increasing.
SIDE_STRATEGIES: dict[str, Callable[[Any, Any, tuple], tuple]] = {}


def _log_sides(small, big, given: tuple):
    r"""``a < b`` iff ``log a < log b`` for positive ``a, b``: both sides must be proved positive first."""
    for side in (small, big):
        if not _is(sp.Q.positive(side), side.is_positive, given):
            raise ValueError("log_sides needs both sides proved positive")
    return sp.log(small), sp.log(big)


SIDE_STRATEGIES["log_sides"] = _log_sides
STRATEGY_NAMES = frozenset(STRATEGIES) | frozenset(SIDE_STRATEGIES)


def _is(query, fast, given: tuple) -> bool:
    r"""Whether SymPy proves ``query``: the old assumptions (``fast``) first, then ``ask`` with the ``given``
    facts. ``None`` (not proved) counts as not proved."""
    if fast is True:
        return True
    if not given:
        return False
    return sp.ask(query, sp.And(*given)) is True


def _sum_dummy(var, lo):
    r"""A dummy for a summation variable with only what the limits imply (integer, and nonnegative/positive if the
    lower limit is), so that no strategy uses an assumption the range does not guarantee."""
    kw: dict = {"integer": True}
    if lo.is_positive:
        kw["positive"] = True
    elif lo.is_nonnegative:
        kw["nonnegative"] = True
    return sp.Dummy(var.name, **kw)


def _in_sums(f: Callable, e):
    r"""Apply ``f`` to every Sum's summand (innermost first), then to the whole expression. Summation variables are
    swapped for dummies that carry only what the limits imply while ``f`` runs."""
    if isinstance(e, sp.Basic) and e.has(sp.Sum):

        def inner(s: sp.Sum):
            (var, lo, hi), *outer = s.limits  # SymPy lists the innermost limit first
            if outer:
                return inner(sp.Sum(inner(sp.Sum(s.function, (var, lo, hi))), *outer))
            dv = _sum_dummy(var, lo)
            body = f(s.function.xreplace({var: dv})).xreplace({dv: var})
            return sp.Sum(body, (var, lo, hi))

        e = e.replace(lambda x: isinstance(x, sp.Sum), inner)
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
            if self.edges:
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


@dataclass(frozen=True)
class NumericResult:
    r"""The numeric line of one step: ``status`` is ``"agree"``, ``"identical"`` (nothing was evaluated: no
    evidence) or ``"disagree"``; ``points`` evaluated; the worst error relative to the size of the terms."""

    status: str
    points: int
    max_rel_error: float | None
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.status in ("agree", "identical")


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


# ==============================================================================================================
# Steps, claims and their results.
# ==============================================================================================================

_RELATIONS = {"=": "=", "<=": r"\le", ">=": r"\ge", "<": "<", ">": ">"}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="}


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

    def __post_init__(self):
        if self.rel not in _RELATIONS:
            raise ValueError(f"rel must be one of {sorted(_RELATIONS)}, got {self.rel!r}")
        if isinstance(self.strategy, str):
            raise ValueError("strategy must be a tuple of names")
        unknown = [s for s in self.strategy if s not in STRATEGY_NAMES]
        if unknown:
            raise ValueError(f"strategy names {unknown} are not among {sorted(STRATEGY_NAMES)}")
        misplaced = [s for s in self.strategy[1:] if s in SIDE_STRATEGIES]
        if misplaced or (self.rel == "=" and self.strategy[:1] and self.strategy[0] in SIDE_STRATEGIES):
            raise ValueError(f"side strategies {sorted(SIDE_STRATEGIES)} come first, in inequality steps only")

    def check_symbolic(self, given: tuple = ()) -> bool:
        r"""Whether the strategy proves this step (``given``: extra facts such as ``b > 1`` for inequalities)."""
        if self.rel == "=":
            return _is_zero(reduce_difference(self.lhs, self.rhs, self.strategy))
        small, big = (self.lhs, self.rhs) if self.rel in ("<=", "<") else (self.rhs, self.lhs)
        names = self.strategy
        if names and names[0] in SIDE_STRATEGIES:
            try:
                small, big = SIDE_STRATEGIES[names[0]](small, big, given)
            except ValueError:  # the side strategy does not apply: nothing is proved
                return False
            names = names[1:]
        gap = reduce_difference(big, small, names)
        if self.rel in ("<", ">"):
            return _is(sp.Q.positive(gap), gap.is_positive, given)
        return _is(sp.Q.nonnegative(gap), gap.is_nonnegative, given)


@dataclass(frozen=True)
class StepResult:
    r"""One checked step: ``symbolic`` proved or not (``None``: nothing to prove, a definition), the numeric
    line, and the reason of a failure."""

    index: int
    symbolic: bool | None
    numeric: NumericResult
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.symbolic is not False and self.numeric.ok

    @property
    def numeric_ok(self) -> bool:
        return self.numeric.ok

    @property
    def numeric_max_rel_error(self) -> float | None:
        return self.numeric.max_rel_error

    def as_dict(self) -> dict:
        err = self.numeric.max_rel_error
        out = {
            "index": self.index,
            "symbolic": self.symbolic,
            "numeric": self.numeric.status,
            "points": self.numeric.points,
            "max_rel_error": err if err is None or math.isfinite(err) else None,
            "ok": self.ok,
        }
        reason = "; ".join(r for r in (self.reason, self.numeric.reason) if r)
        if reason:
            out["reason"] = reason
        return out


@dataclass(frozen=True)
class VerifyResult:
    r"""The outcome of ``verify()``: ``ok`` says whether every check held; ``kind`` is ``"theorem"``,
    ``"definition"`` or ``"fact"``; ``symbolic`` is a boolean for theorems and ``None`` otherwise."""

    id: str
    kind: str
    ok: bool
    symbolic: bool | None
    numeric_max_rel_error: float | None
    dps: int
    seconds: float
    steps: tuple[StepResult, ...] = ()
    detail: str = ""
    computed: Any = None
    method: str = ""

    @property
    def status(self) -> str:
        return "verified" if self.ok else "failed"

    @property
    def numeric(self) -> str | None:
        r"""``"agree"`` if some step was evaluated and all agree, ``"identical"`` if none could be, ``"disagree"``
        if one disagrees; ``None`` for a fact."""
        if not self.steps:
            return None
        states = {s.numeric.status for s in self.steps}
        if "disagree" in states:
            return "disagree"
        return "agree" if "agree" in states else "identical"

    def _repr_html_(self) -> str:
        r"""Jupyter: the result as a small table (:func:`derivations.render.result_html`)."""
        from posproof.derivations import render

        return render.result_html(self)

    def _repr_markdown_(self) -> str:
        r"""The same table in Markdown (:func:`derivations.render.result_markdown`)."""
        from posproof.derivations import render

        return render.result_markdown(self)

    def as_dict(self) -> dict:
        r"""A JSON-ready dict (a non-finite error, from an evaluation that failed, becomes ``None``)."""
        err = self.numeric_max_rel_error
        out = {
            "id": self.id,
            "kind": self.kind,
            "status": self.status,
            "symbolic": self.symbolic,
            "numeric": self.numeric,
            "numeric_max_rel_error": err if err is None or math.isfinite(err) else None,
            "points": sum(s.numeric.points for s in self.steps),
            "dps": self.dps,
            "seconds": round(self.seconds, 4),
            "steps": [s.as_dict() for s in self.steps],
        }
        if self.method:
            out["method"] = self.method
        if self.detail:
            out["detail"] = self.detail
        if self.computed is not None:
            out["computed"] = self.computed
        return out


def _check_dps(dps) -> int:
    if isinstance(dps, bool) or not isinstance(dps, int) or not (settings.MIN_DPS <= dps <= settings.MAX_DPS):
        raise ValueError(f"dps must be an integer in [{settings.MIN_DPS}, {settings.MAX_DPS}], got {dps!r}")
    return dps


def _run_step(k: int, step: Step, dps: int, sizes_list, domains, rng, given=()) -> StepResult:
    reason = ""
    try:
        sym = step.check_symbolic(given)
        if not sym:
            reason = (
                "the strategy does not reduce the difference to 0"
                if step.rel == "="
                else ("the gap is not proved " + ("positive" if step.rel in ("<", ">") else "nonnegative"))
            )
    except Exception as e:  # a strategy that cannot handle the expression proves nothing
        sym, reason = False, f"strategy raised {type(e).__name__}: {e}"
    try:
        num = _numeric_check(step, dps, sizes_list, domains, rng)
    except Exception as e:  # an expression that cannot be evaluated is not checked: a failure
        num = NumericResult("disagree", 0, math.inf, f"numeric evaluation raised {type(e).__name__}: {e}")
    return StepResult(k, sym, num, reason)


def _perturb(e):
    r"""A generic perturbation of an expression: ``2 e`` for matrices, ``e + 1/7`` for scalars."""
    if isinstance(e, (sp.MatrixBase, sp.MatrixExpr)):
        return sp.MatMul(sp.Integer(2), e) if isinstance(e, sp.MatrixExpr) else 2 * e
    return e + sp.Rational(1, 7)


@dataclass(frozen=True)
class Identity:
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

    def _repr_markdown_(self) -> str:
        r"""Jupyter: the claim as Markdown with its math (:func:`derivations.render.repr_markdown`)."""
        from posproof.derivations import render

        return render.repr_markdown(self)

    def _repr_latex_(self) -> str | None:
        r"""Jupyter: the claim's statement as one formula (:func:`derivations.render.repr_latex`)."""
        from posproof.derivations import render

        return render.repr_latex(self)

    def __post_init__(self):
        if not self.steps:
            raise ValueError(f"identity {self.id!r} needs at least one step")
        if self.rel not in _RELATIONS:
            raise ValueError(f"rel must be one of {sorted(_RELATIONS)}, got {self.rel!r}")
        if self.lhs is None:
            object.__setattr__(self, "lhs", self.steps[0].lhs)
        if self.rhs is None:
            object.__setattr__(self, "rhs", self.steps[-1].rhs)
        if self.strategy is None and not self.chained:
            raise ValueError(f"identity {self.id!r}: steps do not chain lhs to rhs, so a claim strategy is needed")

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
    def claim(self) -> Step:
        return Step(self.lhs, self.rhs, "the claim", self.strategy or ("identity",), self.rel)

    def wrong_variant(self) -> Identity:
        r"""This claim with its registered wrong right-hand side."""
        return self.with_rhs(self.wrong)

    def with_rhs(self, rhs) -> Identity:
        r"""The same claim with a different right-hand side (used to show that a wrong claim is rejected)."""
        steps = self.steps
        if self.chained:
            steps = steps[:-1] + (dataclasses.replace(steps[-1], rhs=rhs),)
        return dataclasses.replace(self, steps=steps, rhs=rhs)

    def perturbed(self, j: int) -> Identity:
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
        return self.domains.get(_key(atom)) or Domain.of(atom)

    def verify(self, dps: int = settings.DEFAULT_DPS) -> VerifyResult:
        r"""Check every step (and the claim, unless the steps chain to it) symbolically and numerically."""
        dps = _check_dps(dps)
        t0 = time.perf_counter()
        rng = random.Random(f"{settings.SEED}:{self.id}")
        sizes_list = _size_combinations(self.sizes)
        checks = list(self.steps) if self.chained else [*self.steps, self.claim]
        results = [_run_step(k, st, dps, sizes_list, self._domain, rng, self.given) for k, st in enumerate(checks)]
        problem = self.relation_problem()
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


def _same(a, b) -> bool:
    try:
        return a == b or (isinstance(a, sp.Basic) and isinstance(b, sp.Basic) and sp.srepr(a) == sp.srepr(b))
    except Exception:
        return False


@dataclass(frozen=True)
class Definition:
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
    #: A short symbolic statement for headings (see Identity.formula).
    formula: Any = None

    kind = "definition"
    rel = "="
    strategy = None
    chained = True

    def _repr_markdown_(self) -> str:
        r"""Jupyter: the claim as Markdown with its math (:func:`derivations.render.repr_markdown`)."""
        from posproof.derivations import render

        return render.repr_markdown(self)

    def _repr_latex_(self) -> str | None:
        r"""Jupyter: the claim's statement as one formula (:func:`derivations.render.repr_latex`)."""
        from posproof.derivations import render

        return render.repr_latex(self)

    @property
    def steps(self) -> tuple[Step, ...]:
        return (Step(self.lhs, self.rhs, self.why, ("doit",)),)

    def _domain(self, atom) -> Domain:
        return self.domains.get(_key(atom)) or Domain.of(atom)

    def wrong_variant(self) -> Definition:
        return dataclasses.replace(self, rhs=self.wrong)

    def verify(self, dps: int = settings.DEFAULT_DPS) -> VerifyResult:
        r"""Check that the implementation computes the formula (the numeric line only: nothing to prove)."""
        dps = _check_dps(dps)
        t0 = time.perf_counter()
        rng = random.Random(f"{settings.SEED}:{self.id}")
        step = self.steps[0]
        try:
            num = _numeric_check(step, dps, _size_combinations(self.sizes), self._domain, rng)
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
class Fact:
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
    #: A short symbolic statement for headings (see Identity.formula).
    formula: Any = None

    kind = "fact"
    lhs = None
    rhs = None
    steps: tuple = ()

    def _repr_markdown_(self) -> str:
        r"""Jupyter: the claim as Markdown with its math (:func:`derivations.render.repr_markdown`)."""
        from posproof.derivations import render

        return render.repr_markdown(self)

    def _repr_latex_(self) -> str | None:
        r"""Jupyter: the claim's statement as one formula (:func:`derivations.render.repr_latex`)."""
        from posproof.derivations import render

        return render.repr_latex(self)

    def wrong_variant(self) -> Fact:
        r"""The same fact computed the wrong way (it must not reproduce the claim)."""
        if self.wrong is None:
            raise ValueError(f"fact {self.id!r} registers no wrong computation")
        return dataclasses.replace(self, compute=self.wrong, definitions=())

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
        ok = _plain(value) == _plain(self.claim) and not bad_defs
        detail = "; ".join(f"{label} = {formatting.show(v)}" for label, v in table)
        if _plain(value) != _plain(self.claim):
            detail = f"claimed {_plain(self.claim)!r}, computed {_plain(value)!r}; " + detail
        if bad_defs:
            detail = "; ".join(bad_defs) + "; " + detail
        return VerifyResult(
            self.id, self.kind, ok, None, None, dps, time.perf_counter() - t0, (), detail, _plain(value), method,
        )  # fmt: skip


def _plain(v):
    r"""JSON-friendly, comparable form of a computed value."""
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (bool, int, str)) or v is None:
        return v
    if isinstance(v, sp.Integer):
        return int(v)
    return str(v)
