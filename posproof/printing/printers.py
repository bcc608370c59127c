r"""SymPy's printers as posproof prints: natural orders (``b - a``, not ``- a + b``), ``\log_2 n`` for
``log(n)/log(2)``, multi-letter names upright, the project's own classes (kernels, ``R(a)``) by their LaTeX.
:func:`latex`, :func:`sstr` and :func:`pretty` are what every format prints formulas with; nothing types a
formula by hand.
"""

from __future__ import annotations

import sympy as sp
from sympy.core.sympify import _sympify
from sympy.printing.latex import LatexPrinter as _SympyLatexPrinter
from sympy.printing.latex import greek_letters_set, modifier_dict
from sympy.printing.pretty.pretty import PrettyPrinter as _SympyPrettyPrinter
from sympy.printing.str import StrPrinter as _SympyStrPrinter

from .prose import _tex_escape, math_text

#: LaTeX printer settings used everywhere (golden files pin the output).
LATEX_SETTINGS = dict(mat_delim="(", mul_symbol=None)


# ==============================================================================================================
# Printers: SymPy's, with natural orders (``b - a``, not ``- a + b``) and ``log_2 n`` for ``log(n)/log(2)``.
# ==============================================================================================================


def _log_base(expr) -> tuple | None:
    r"""``(rest, base, argument)`` if the product ``expr`` is ``rest · log(argument)/log(base)`` for an integer
    base, else ``None``."""
    if not isinstance(expr, sp.Mul):
        return None
    logs = [f for f in expr.args if isinstance(f, sp.log)]
    inverse = [
        f
        for f in expr.args
        if isinstance(f, sp.Pow) and f.exp == -1 and isinstance(f.base, sp.log) and f.base.args[0].is_Integer
    ]
    if len(logs) != 1 or len(inverse) != 1:
        return None
    rest = sp.Mul(*[f for f in expr.args if f is not logs[0] and f is not inverse[0]])
    return rest, inverse[0].base.args[0], logs[0].args[0]


class _Natural:
    r"""Printer mixin: a sum starts with a positive term when it has one (``b - a``, ``3 - \log_2 n``)."""

    def _as_ordered_terms(self, expr, order=None):
        terms = list(super()._as_ordered_terms(expr, order=order))  # type: ignore[misc]  # the printer it mixes into
        if isinstance(expr, sp.Add) and terms and terms[0].could_extract_minus_sign():
            first = next((j for j, t in enumerate(terms) if not t.could_extract_minus_sign()), None)
            if first is not None:
                terms.insert(0, terms.pop(first))
        return terms


class LatexPrinter(_Natural, _SympyLatexPrinter):
    r"""``sympy.latex`` with natural orders and ``\log_{2} n``."""

    def _print_Mul(self, expr):
        parts = _log_base(expr)
        if parts is None:
            return super()._print_Mul(expr)
        rest, base, arg = parts
        inner = self._print(arg)
        if not (arg.is_Atom or isinstance(arg, sp.Indexed)):
            inner = r"\left(%s\right)" % inner
        out = r"\log_{%s} %s" % (self._print(base), inner)
        if rest == 1:
            return out
        if rest == -1:
            return "- " + out
        return r"%s %s" % (self.parenthesize(rest, 50), out)


class StrPrinter(_Natural, _SympyStrPrinter):
    r"""``sympy.sstr`` with natural orders and ``log2(n)``."""

    def _print_Mul(self, expr):
        parts = _log_base(expr)
        if parts is None:
            return super()._print_Mul(expr)
        rest, base, arg = parts
        out = f"log{self._print(base)}({self._print(arg)})"
        return out if rest == 1 else ("-" + out if rest == -1 else f"{self.parenthesize(rest, 50)}*{out}")

    def _print(self, expr, **kwargs):
        return _own_text(expr) if _own(expr) else super()._print(expr, **kwargs)


def _own(expr) -> bool:
    r"""Whether ``expr`` is one of the project's printable classes (kernels, ``R(a)``, ``u^T v``, ...): they
    define their LaTeX only, so the terminal gets the Unicode of that LaTeX."""
    return isinstance(expr, sp.Basic) and (type(expr).__module__ or "").startswith("posproof.symbolic.")


def _own_text(expr) -> str:
    return math_text(latex(expr))


def _indexed_symbol(expr) -> sp.Symbol:
    r"""``theta[i]`` as the symbol ``theta_i`` (``lambda_{i + 1}``), which SymPy's printers subscript."""
    index = ",".join(sstr(j).replace("*", "") for j in expr.indices)
    return sp.Symbol(f"{expr.base.label}_{index if len(index) == 1 else '{' + index + '}'}")


class PrettyPrinter(_Natural, _SympyPrettyPrinter):
    r"""``sympy.pretty`` (Unicode) with natural orders; the project's classes as their formula, ``theta[i]`` as
    ``θᵢ``."""

    def _print(self, expr, **kwargs):
        if _own(expr):
            from sympy.printing.pretty.stringpict import prettyForm

            return prettyForm(_own_text(expr))
        return super()._print(expr, **kwargs)

    def _print_Indexed(self, expr):
        return self._print(_indexed_symbol(expr))


def _upright(name: str) -> bool:
    r"""A multi-letter name such as ``pos`` (not a Greek letter, nor a letter with a modifier: ``thetaprime``)."""
    if not name.isalpha() or len(name) < 2 or name.lower() in greek_letters_set:
        return False
    stem = next((name[: -len(m)] for m in modifier_dict if name.endswith(m) and len(name) > len(m)), None)
    return stem is None or not (len(stem) == 1 or stem.lower() in greek_letters_set)


def _names(expr) -> dict:
    r"""Multi-letter symbol names (``pos``) print upright."""
    if not isinstance(expr, sp.Basic):
        return {}
    return {s: r"\mathrm{%s}" % s.name for s in expr.free_symbols if isinstance(s, sp.Symbol) and _upright(s.name)}


def latex(expr) -> str:
    r"""LaTeX of a SymPy object with the project's settings; a plain string becomes ``\text{...}``."""
    if isinstance(expr, str):
        return r"\text{%s}" % _tex_escape(expr)
    if not isinstance(expr, sp.Basic):
        expr = _sympify(expr)  # strict: numbers from our own code; strings are refused
    return LatexPrinter(dict(LATEX_SETTINGS, symbol_names=_names(expr))).doprint(expr)


def sstr(expr) -> str:
    r"""One-line text of a SymPy object (``sympy.sstr`` with natural orders)."""
    return StrPrinter().doprint(expr)


def pretty(expr) -> str:
    r"""Unicode drawing of a SymPy object for the terminal (``sympy.pretty`` with natural orders)."""
    return PrettyPrinter(dict(use_unicode=True, wrap_line=False)).doprint(expr)
