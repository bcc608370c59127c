r"""The named strategies of the symbolic line: targeted SymPy rewrites of a step's difference ``lhs - rhs``.

Every strategy in :data:`STRATEGIES` is an equivalence under the assumptions the symbols were declared with (no
forced rewrites, no blanket ``simplify``), applied inside Sum summands too; :data:`SIDE_STRATEGIES` map both
sides of an inequality by an increasing function first. :func:`reduce_difference` applies a step's strategies in
turn and merges Sums again; ``_is_zero`` and ``_is`` decide what the result proves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sympy as sp

from .numeric_line import Kernel

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
