r"""``Maximum(f, (i, lo, hi))``: the largest of the finitely many values ``f(lo), ..., f(hi)``, written once, with
a bound variable like a ``Sum``.

It is what a bound such as RoFormer's ``(max_i |h_{i+1} - h_i|) Σ_j |S_j|`` needs when ``d`` is a symbol: the
engine knows one fact about it (:func:`~posproof.symbolic.engine.strategies.nonnegative`): ``Maximum(f, (i, lo, hi)) -
f(x) >= 0`` for every ``x`` that a surrounding sum keeps in ``lo .. hi``. The range must be proved nonempty
(``hi >= lo``: the maximum of nothing is not a number), on both lines. The numeric line evaluates it term by term.

>>> import sympy as sp
>>> i = sp.Symbol("i", integer=True)
>>> Maximum(sp.Abs(2 - i), (i, 0, 3)).doit()
2
"""

from __future__ import annotations

import sympy as sp
from sympy.concrete.expr_with_limits import ExprWithLimits
from sympy.printing.precedence import PRECEDENCE

__all__ = ["Maximum"]


class Maximum(ExprWithLimits):
    r"""``max_{lo <= i <= hi} f(i)`` over integers (one limit; a nonempty range)."""

    def __new__(cls, function, *symbols, **assumptions):
        obj = super().__new__(cls, function, *symbols, **assumptions)
        if isinstance(obj, Maximum) and len(obj.limits) != 1:
            raise ValueError(f"symbols: a Maximum takes one limit (i, lo, hi), got {len(obj.limits)}")
        return obj

    def doit(self, **hints):
        r"""The largest term when the limits are integers (``sympy.Max`` of the terms); else the summand done."""
        f = self.function.doit(**hints) if hints.get("deep", True) else self.function
        ((var, lo, hi),) = self.limits
        if lo.is_Integer and hi.is_Integer:
            if hi < lo:
                raise ValueError(f"a Maximum over an empty range {lo} .. {hi}")
            return sp.Max(*[f.xreplace({var: sp.Integer(k)}) for k in range(int(lo), int(hi) + 1)])
        return self.func(f, *self.limits)

    def _eval_is_real(self):
        return self.function.is_real

    def _eval_is_nonnegative(self):
        if self.function.is_nonnegative:  # the largest of nonnegative terms (the range is nonempty)
            return True
        return None

    def _latex(self, printer, exp=None):
        ((var, lo, hi),) = self.limits
        sub = r"%s \le %s \le %s" % (printer._print(lo), printer._print(var), printer._print(hi))
        out = r"\max_{%s} %s" % (sub, printer.parenthesize(self.function, PRECEDENCE["Mul"]))
        return out if exp is None else r"\left(%s\right)^{%s}" % (out, exp)

    def _pretty(self, printer):
        ((var, lo, hi),) = self.limits
        label = sp.Symbol(f"max[{var} = {sp.sstr(lo)} .. {sp.sstr(hi)}]")
        return printer._print_seq((label, self.function), delimiter=" ")

    def _sympystr(self, printer):
        ((var, lo, hi),) = self.limits
        return f"Maximum({printer._print(self.function)}, ({var}, {lo}, {hi}))"
