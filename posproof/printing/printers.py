r"""SymPy's printers as posproof prints: natural orders (``b - a``, not ``- a + b``), ``\log_2 n`` for
``log(n)/log(2)``, multi-letter names upright, the project's own classes (kernels, ``R(a)``) by their LaTeX.
:func:`latex`, :func:`sstr` and :func:`pretty` are what every format prints formulas with; nothing types a
formula by hand.
"""

from __future__ import annotations

import re

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.core.sympify import _sympify
from sympy.printing.latex import LatexPrinter as _SympyLatexPrinter
from sympy.printing.latex import greek_letters_set, modifier_dict
from sympy.printing.pretty.pretty import PrettyPrinter as _SympyPrettyPrinter
from sympy.printing.str import StrPrinter as _SympyStrPrinter

from posproof.printing.notation import normalize
from posproof.printing.prose import math_text, tex_escape

#: LaTeX printer settings used everywhere (golden files pin the output): ``\ln`` as the prose writes it, the
#: imaginary unit upright (``\mathrm{i}``, apart from an index ``i``).
LATEX_SETTINGS = dict(mat_delim="(", mul_symbol=None, ln_notation=True, imaginary_unit="ri")


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


def _unevaluated(expr) -> bool:
    r"""Whether a product was written unevaluated (a product inside it, a repeated factor, a number after the
    first factor): SymPy would print ``d 2 d`` for ``d·(2d)``."""
    args = expr.args
    return any(isinstance(a, sp.Mul) for a in args) or len(set(args)) < len(args) or any(a.is_Number for a in args[1:])


def _inverse(a) -> bool:
    return isinstance(a, sp.Pow) and a.exp == -1


def _over_fraction(expr) -> bool:
    r"""Whether a product divides by a fraction written unevaluated (``L_0 / (L_0 (1/f))``): SymPy would print
    the inner one as ``L_0 \frac{1}{f}``."""
    return any(_inverse(a) and isinstance(a.base, sp.Mul) and any(map(_inverse, a.base.args)) for a in expr.args)


def _angle_times_sum(expr) -> bool:
    r"""Whether ``expr`` is an angle (a Greek letter, ``θ_i``, or the plane angle ``a``) times a difference of
    letters (``θ (n - m)``, ``θ_i (1 - γ)``, also times a number or ``i``: ``i θ (m - n)``), which the statements
    write the other way round: ``(n - m) θ``, ``i (m - n) θ``."""
    if not isinstance(expr, sp.Mul):
        return False
    total = next((a for a in expr.args if isinstance(a, sp.Add)), None)
    others = [a for a in expr.args if a is not total]
    angle = next((a for a in others if not (a.is_Number or a is sp.I)), None)
    if total is None or angle is None or any(a is not angle and not (a.is_Number or a is sp.I) for a in others):
        return False
    name = angle.base.label.name if isinstance(angle, sp.Indexed) else getattr(angle, "name", "")
    simple = all((-t if t.could_extract_minus_sign() else t).is_Symbol or t.is_Integer for t in total.args)
    return simple and (name.lower() in greek_letters_set or name == "a")


def _same_base_merged(expr):
    r"""A product with the powers of one letter combined (``b \cdot b^{-2/d}`` as ``b^{1 - 2/d}``), for display;
    ``None`` when no letter repeats."""
    if not isinstance(expr, sp.Mul):
        return None
    exps: dict = {}
    for a in expr.args:
        base, e = a.as_base_exp()
        exps.setdefault(base, []).append(e)
    if not any(len(v) > 1 and (b.is_Symbol or isinstance(b, sp.Indexed)) for b, v in exps.items()):
        return None
    merged = [
        sp.Pow(b, sp.Add(*v)) if len(v) > 1 and (b.is_Symbol or isinstance(b, sp.Indexed)) else None
        for b, v in exps.items()
    ]
    if any(m is not None and not isinstance(m, (sp.Pow, sp.Symbol, sp.Indexed)) for m in merged):
        return None
    out = sp.Mul(*(m if m is not None else b ** sp.Add(*v) for m, (b, v) in zip(merged, exps.items(), strict=True)))
    return out if out != expr else None


def _query_key_order(expr) -> list | None:
    r"""A product's factors with a query before a key (``q k``, ``q_m k_n``: names starting ``q`` and ``k``) when
    SymPy's alphabetical order puts the key first, else ``None``."""
    if not isinstance(expr, sp.Mul) or not expr.is_commutative:
        return None
    factors = list(expr.as_ordered_factors())

    def letter(a) -> str:
        a = a.base if isinstance(a, sp.Pow) else a
        a = a.base.label if isinstance(a, sp.Indexed) else a
        return getattr(a, "name", "")[:1]

    ks = [j for j, a in enumerate(factors) if letter(a) == "k"]
    qs = [j for j, a in enumerate(factors) if letter(a) == "q"]
    if not ks or not qs or min(qs) < min(ks):
        return None
    rest = [a for j, a in enumerate(factors) if j not in ks and j not in qs]
    first = min(ks)
    lead = [a for a in rest if factors.index(a) < first]
    tail = [a for a in rest if factors.index(a) > first]
    return lead + [factors[j] for j in qs] + [factors[j] for j in ks] + tail


def _exponent_of(n, base) -> int | None:
    r"""``k`` if the rational ``n`` is ``base**k`` for an integer ``k`` (``base`` an integer above 1), else ``None``."""
    num, den = abs(n.p), n.q
    if n.p < 0 or (num != 1 and den != 1):
        return None
    m, k = (num, 1) if den == 1 else (den, -1)
    count = 0
    while m > 1 and m % base == 0:
        m //= base
        count += 1
    return k * count if m == 1 else None


def _one_power(expr) -> tuple | None:
    r"""``(base, exponent)`` if the product ``expr`` is a power of an integer times a rational power of the same
    integer (``1000 \cdot 10^{63/64}`` is ``10^{255/64}``, which SymPy splits), else ``None``."""
    if not isinstance(expr, sp.Mul) or len(expr.args) != 2:
        return None
    coefficient, power = expr.args
    if not (coefficient.is_Rational and isinstance(power, sp.Pow) and power.base.is_Integer and power.base > 1):
        return None
    if not power.exp.is_Rational:
        return None
    k = _exponent_of(coefficient, int(power.base))
    return None if k is None else (power.base, power.exp + k)


def _power_of_ten(q) -> int | None:
    r"""``k`` if the integer ``q`` is ``10**k`` with ``k >= 4``, else ``None``."""
    k = len(str(q)) - 1
    return k if k >= 4 and q == 10**k else None


class LatexPrinter(_Natural, _SympyLatexPrinter):
    r"""``sympy.latex`` with natural orders and ``\log_{2} n``; a product written unevaluated with ``\cdot``
    (``d \cdot \left(2 d\right)``, never ``d 2 d``); ``10^{-10}`` for ``1/10000000000``; a function named
    with a prime (``b'``) italic like its letter; a power of an applied function around parentheses
    (``\left(b'(n)\right)^{-2i/d}``, not ``b'^{-2i/d}(n)``, which reads as an iterated function); short
    fractions in exponents and in a sum's limits folded (``b^{1 - 2/d}``, ``\sum_{i=0}^{d/2 - 1}``); ``b^0``
    written unevaluated as 1; a product written with ``1/x`` factors as the fraction it is
    (``\frac{L_0}{f}``, not ``L_0 \frac{1}{f}``); everything in the document's notation
    (:func:`posproof.printing.notation.normalize`: ``\varphi``, ``^{\top}``, ``\lvert x \rvert``, ``b^{-2i/d}``)."""

    def doprint(self, expr):
        return normalize(super().doprint(expr))

    def _print_Abs(self, expr, exp=None):
        out = r"\left\lvert %s \right\rvert" % self._print(expr.args[0])
        return out if exp is None else r"%s^{%s}" % (out, exp)

    def _print_re(self, expr, exp=None):
        out = r"\operatorname{Re}{\left(%s\right)}" % self._print(expr.args[0])
        return out if exp is None else r"\left(%s\right)^{%s}" % (out, exp)

    def _print_im(self, expr, exp=None):
        out = r"\operatorname{Im}{\left(%s\right)}" % self._print(expr.args[0])
        return out if exp is None else r"\left(%s\right)^{%s}" % (out, exp)

    def _print_Rational(self, expr):
        k = _power_of_ten(expr.q) if abs(expr.p) == 1 else None
        if k is not None:
            return ("- " if expr.p < 0 else "") + "10^{-%d}" % k
        return super()._print_Rational(expr)

    def _hprint_Function(self, func: str) -> str:
        out = super()._hprint_Function(func)
        m = re.fullmatch(r"\\operatorname\{(.*'+)\}", out)
        return m.group(1) if m else _WORD_SCRIPT.sub(r"\1{\\mathrm{\2}}", out)  # a_{\mathrm{linear}}(s)

    def _print_MatrixSymbol(self, expr):
        m = _APPLIED_NAME.fullmatch(expr.name)
        if m is None or expr in self._settings["symbol_names"]:
            return super()._print_MatrixSymbol(expr)
        return r"\operatorname{%s}(%s)" % (m.group(1), words_upright(m.group(2)))  # PE(pos) as PE applied to pos

    def _print_Function(self, expr, exp=None):
        if exp is not None and isinstance(expr, AppliedUndef):
            return r"\left(%s\right)^{%s}" % (self._print_Function(expr), exp)
        return super()._print_Function(expr, exp)

    def _folded(self, expr) -> str:
        r"""``expr`` with its short fractions written ``a/b`` (in an exponent or a limit, where ``\frac`` sets in
        second-order script size)."""
        old = self._settings["fold_short_frac"]
        self._settings["fold_short_frac"] = True
        try:
            return self._print(expr)
        finally:
            self._settings["fold_short_frac"] = old

    def _helper_print_standard_power(self, expr, template: str) -> str:
        folded = self._folded(expr.exp)
        plain = super()._helper_print_standard_power(expr, template)
        exp = self._print(expr.exp)
        return plain[: -len(exp) - 1] + folded + "}" if exp != folded and plain.endswith(exp + "}") else plain

    def _print_exp(self, expr, exp=None):
        r"""``e^{...}`` with its exponent's short fractions written ``a/b`` (as every other power's), or, when the
        exponent still holds a fraction, ``\exp(...)``: a fraction is never set in a script."""
        if exp is not None:
            return super()._print_exp(expr, exp)
        power = self._folded(expr.args[0])
        if r"\frac" in power:
            return r"\exp{\left(%s \right)}" % self._print(expr.args[0])
        return "e^{%s}" % power

    def _print_Pow(self, expr, exp=None):
        if expr.exp == 0 and (expr.base.is_Symbol or isinstance(expr.base, sp.Indexed)):
            return "1" if exp is None else r"1^{%s}" % exp  # b^0 written unevaluated: it is 1
        e = expr.exp
        if exp is None and expr.base.is_Integer and expr.base > 1 and e.is_Rational and (e <= -2 or -1 < e < 0):
            return r"%s^{%s}" % (self._print(expr.base), self._folded(e))  # 10^{-10}, not 1/10000000000
        return super()._print_Pow(expr, exp) if exp is not None else super()._print_Pow(expr)

    def _print_Sum(self, expr):
        out = super()._print_Sum(expr)
        mark = sp.Symbol("POSPROOFSUMMAND")
        prefix = super()._print_Sum(sp.Sum(mark, *expr.limits)).replace(self._print(mark), "")
        if not out.startswith(prefix):
            return out
        old = self._settings["fold_short_frac"]
        self._settings["fold_short_frac"] = True
        try:
            folded = super()._print_Sum(sp.Sum(mark, *expr.limits)).replace(self._print(mark), "")
        finally:
            self._settings["fold_short_frac"] = old
        return folded + out[len(prefix) :]

    def _written_fraction(self, expr) -> str | None:
        r"""A product written unevaluated with factors ``1/x`` (``L_0 (1/f)``, ``2π · 1/λ``) as the fraction it
        stands for, ``\frac{L_0}{f}``; ``None`` when it has no such factor."""
        den = [a.base for a in expr.args if isinstance(a, sp.Pow) and a.exp == -1]
        if not den or len(den) == len(expr.args) and len(den) == 1:
            return None
        num = [a for a in expr.args if not (isinstance(a, sp.Pow) and a.exp == -1)]
        top = self._print(sp.Mul(*num, evaluate=False)) if len(num) > 1 else (self._print(num[0]) if num else "1")
        bottom = self._print(sp.Mul(*den, evaluate=False)) if len(den) > 1 else self._print(den[0])
        if self._settings["fold_short_frac"] and len(bottom.split()) <= 2:  # in an exponent: a / b
            top = top if len(num) <= 1 and " " not in top else r"\left(%s\right)" % top
            return f"{top} / {bottom}"
        return r"\frac{%s}{%s}" % (top, bottom)

    def _unevaluated_mul(self, expr) -> str:
        r"""A product as written: factors side by side, ``\cdot`` where side by side would misread (a number
        after a factor, a repeated factor: ``\left(2 d\right) \cdot d``, ``d \cdot d``)."""
        args = list(expr.args)
        sign = ""
        if args and args[0] == -1:
            sign, args = "- ", args[1:]
        out = ""
        texts = [self._print(a) for a in args]
        grouped = [
            isinstance(a, sp.Add)
            or (
                isinstance(a, sp.Mul) and len(args) > 1 and not t.startswith("\\frac") and (" " in t or t[:1].isdigit())
            )
            for a, t in zip(args, texts, strict=True)
        ]
        for k, a in enumerate(args):
            text = texts[k]
            if grouped[k]:
                text = r"\left(%s\right)" % text
            if k:
                prev = args[k - 1]
                dot = text[:1].isdigit() or text[:1] == "-" or out[-1:].isdigit() or a == prev
                dot = dot or (grouped[k] and isinstance(a, sp.Mul)) or (grouped[k - 1] and isinstance(prev, sp.Mul))
                out += r" \cdot " if dot else " "
            out += text
        return sign + out

    def _print_Mul(self, expr):
        power = _one_power(expr)
        if power is not None:  # 1000 \cdot 10^{63/64} as the power it is: 10^{255/64}
            return r"%s^{%s}" % (self._print(power[0]), self._folded(power[1]))
        parts = _log_base(expr)
        if parts is None and _angle_times_sum(expr):  # θ (n - m) as the statements write it: (n - m) θ
            total = next(a for a in expr.args if isinstance(a, sp.Add))
            angle = next(a for a in expr.args if a is not total and not (a.is_Number or a is sp.I))
            coefficient = sp.Mul(*[a for a in expr.args if a is not total and a is not angle])
            sign = "- " if coefficient.could_extract_minus_sign() else ""
            coefficient = -coefficient if sign else coefficient
            lead = sign + ("" if coefficient == 1 else self._print(coefficient) + " ")
            return r"%s\left(%s\right) %s" % (lead, self._print(total), self._print(angle))
        if parts is None and isinstance(expr, sp.Mul) and _over_fraction(expr):
            return self._written_fraction(expr) or super()._print_Mul(expr)
        if parts is None and isinstance(expr, sp.Mul) and _unevaluated(expr):
            return self._written_fraction(expr) or self._unevaluated_mul(expr)
        if parts is None:
            merged = _same_base_merged(expr)
            if merged is not None:
                return self._print(merged)
            ordered = _query_key_order(expr)
            if ordered is not None:
                old = self._settings["order"]
                self._settings["order"] = "none"
                try:
                    return super()._print_Mul(sp.Mul(*ordered, evaluate=False))
                finally:
                    self._settings["order"] = old
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
            merged = _same_base_merged(expr)
            if merged is not None:
                return self._print(merged)
            ordered = _query_key_order(expr)
            if ordered is not None:
                old = self._settings["order"]
                self._settings["order"] = "none"
                try:
                    return super()._print_Mul(sp.Mul(*ordered, evaluate=False))
                finally:
                    self._settings["order"] = old
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
    stem, modified = name, False
    while True:  # modifiers stack: thetahatprime is theta with a hat and a prime
        shorter = next((stem[: -len(m)] for m in modifier_dict if stem.endswith(m) and len(stem) > len(m)), None)
        if shorter is None:
            break
        stem, modified = shorter, True
    return not modified or not (len(stem) == 1 or stem.lower() in greek_letters_set)


_WORD_SUBSCRIPT = re.compile(r"(?P<base>[A-Za-z]+?)(?P<prime>'*)_\{?(?P<sub>[A-Za-z]{2,})\}?")
_NAMED = re.compile(r"(?P<base>[A-Za-z]{2,})_\{?(?P<sub>[A-Za-z0-9]+)\}?")
_PRIMED = re.compile(r"(?P<base>[A-Za-z]+)(?P<prime>'+)_\{?(?P<sub>[A-Za-z0-9]+)\}?")

#: A word in a script of a printed name (``a_{linear}``), printed upright; a name applied to arguments
#: (``PE(pos)``, ``Attn(PX)``), printed as an operator.
_WORD_SCRIPT = re.compile(r"([_^])\{([A-Za-z]{2,})\}")
_APPLIED_NAME = re.compile(r"([A-Za-z]{2,})\((.*)\)")
_WORD = re.compile(r"(?<![\\A-Za-z])([a-z]{2,})(?![A-Za-z])")


def words_upright(text: str) -> str:
    r"""Plain argument text (``k + pos``) with its lower-case words upright (``k + \mathrm{pos}``) and Greek
    names as letters (``\theta``); capitals side by side (``PX``) are a product of letters and stay italic.

    >>> words_upright("k + pos")
    'k + \\mathrm{pos}'
    """

    def word(m: re.Match) -> str:
        return "\\" + m.group(1) if m.group(1) in greek_letters_set else r"\mathrm{%s}" % m.group(1)

    return _WORD.sub(word, text)


def _name_tex(name: str) -> str | None:
    r"""A symbol name's LaTeX where SymPy's would mislead: a multi-letter name upright (``\mathrm{pos}``), a
    multi-letter subscript upright (``N_{concat}`` as ``N_{\mathrm{concat}}``, ``d_model``), else ``None``."""
    if _upright(name):
        return r"\mathrm{%s}" % name
    m = _NAMED.fullmatch(name)  # PE_m: a multi-letter name with a subscript, \mathrm{PE}_{m}
    if m and _upright(m.group("base")):
        return r"\mathrm{%s}_{%s}" % (m.group("base"), words_upright(m.group("sub")))
    m = _PRIMED.fullmatch(name)  # theta'_i: a primed Greek letter with a subscript, \theta'_{i}
    if m and (len(m.group("base")) == 1 or m.group("base").lower() in greek_letters_set):
        base = _SympyLatexPrinter()._print(sp.Symbol(m.group("base")))
        return r"%s%s_{%s}" % (base, m.group("prime"), words_upright(m.group("sub")))
    m = _WORD_SUBSCRIPT.fullmatch(name)
    if m and (len(m.group("base")) == 1 or m.group("base").lower() in greek_letters_set):
        base = _SympyLatexPrinter()._print(sp.Symbol(m.group("base")))
        return r"%s%s_{\mathrm{%s}}" % (base, m.group("prime"), m.group("sub"))
    return None


def upright_names(expr) -> dict:
    r"""Multi-letter symbol names (``pos``) and multi-letter subscripts (``d_{\mathrm{model}}``) print upright."""
    if not isinstance(expr, sp.Basic):
        return {}
    names = {s: _name_tex(s.name) for s in expr.free_symbols if isinstance(s, sp.Symbol)}
    return {s: tex for s, tex in names.items() if tex is not None}


def latex(expr) -> str:
    r"""LaTeX of a SymPy object with the project's settings; a plain string becomes ``\text{...}``."""
    if isinstance(expr, str):
        return r"\text{%s}" % tex_escape(expr)
    if not isinstance(expr, sp.Basic):
        expr = _sympify(expr)  # strict: numbers from our own code; strings are refused
    return LatexPrinter(dict(LATEX_SETTINGS, symbol_names=upright_names(expr))).doprint(expr)


def sstr(expr) -> str:
    r"""One-line text of a SymPy object (``sympy.sstr`` with natural orders)."""
    return StrPrinter().doprint(expr)


def pretty(expr) -> str:
    r"""Unicode drawing of a SymPy object for the terminal (``sympy.pretty`` with natural orders)."""
    return PrettyPrinter(dict(use_unicode=True, wrap_line=False)).doprint(expr)
