r"""Printing claims and derivations: LaTeX, Markdown, HTML, plain text and JSON, all from SymPy's printers.

Nothing here types a formula by hand: every equation is printed by SymPy (``sympy.latex`` through
:class:`LatexPrinter`, ``sympy.pretty``/``sstr`` in the terminal) from the objects the registry verifies, so
what is printed is what was proved. Prose (titles, assumptions, justifications) is plain text with inline math in
``$...$`` (LaTeX) and code in backticks; :func:`prose` typesets it per format, and the terminal gets Unicode from
``pylatexenc``. Long equations are broken at the terms of a sum (:func:`display`) so that they fit the page.

A claim is first turned into :func:`blocks` (headings, paragraphs, displayed math, steps, tables); each format
writes the same blocks, so every export shows the same derivation.
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import mpmath
import sympy as sp
from sympy.core.sympify import _sympify
from sympy.printing.latex import LatexPrinter as _SympyLatexPrinter
from sympy.printing.latex import greek_letters_set, modifier_dict
from sympy.printing.pretty.pretty import PrettyPrinter as _SympyPrettyPrinter
from sympy.printing.str import StrPrinter as _SympyStrPrinter

from posproof.numeric.formatting import show as _show
from posproof.symbolic import settings
from posproof.symbolic.core import _RELATIONS, Definition, Fact, Step

FORMATS = ("latex", "markdown", "text", "html")

#: LaTeX printer settings used everywhere (golden files pin the output).
LATEX_SETTINGS = dict(mat_delim="(", mul_symbol=None)

#: Widest displayed line, in the units of :func:`tex_width` (about one math letter of 10pt type; the standalone
#: document's text is 16 cm wide). Lines are broken at the terms of sums to stay below it.
LINE_WIDTH = 70.0


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
        terms = list(super()._as_ordered_terms(expr, order=order))
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


# ==============================================================================================================
# Prose: text with $inline math$ and `code`.
# ==============================================================================================================

#: Unicode in prose outside ``$...$``, as LaTeX that any engine (pdflatex included) typesets.
_UNICODE_TEX = {
    "·": r"$\cdot$",
    "Σ": r"$\Sigma$",
    "θ": r"$\theta$",
    "φ": r"$\varphi$",
    "π": r"$\pi$",
    "δ": r"$\delta$",
    "γ": r"$\gamma$",
    "λ": r"$\lambda$",
    "ζ": r"$\zeta$",
    "β": r"$\beta$",
    "σ": r"$\sigma$",
    "²": r"$^2$",
    "≤": r"$\le$",
    "≥": r"$\ge$",
    "≈": r"$\approx$",
    "→": r"$\to$",
    "√": r"$\surd$",
    "×": r"$\times$",
    "∞": r"$\infty$",
    "⊙": r"$\odot$",
    "−": "-",
    "…": r"\dots{}",
    "≠": r"$\ne$",
    "∈": r"$\in$",
    "ℝ": r"$\mathbb{R}$",
    "§": r"$\S$",
    "α": r"$\alpha$",
    "ε": r"$\varepsilon$",
    "μ": r"$\mu$",
    "ρ": r"$\rho$",
    "τ": r"$\tau$",
    "ω": r"$\omega$",
    "Δ": r"$\Delta$",
    "∑": r"$\sum$",
    "⊕": r"$\oplus$",
    "±": r"$\pm$",
    "—": "---",
    "–": "--",
    "’": "'",
    "“": "``",
    "”": "''",
}

_TEX_SPECIALS = {
    "\\": r"$\backslash$",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_\allowbreak{}",
    "{": r"\{",
    "}": r"\}",
    "~": r"$\sim$",
    "^": r"\^{}",
    "<": "$<$",
    ">": "$>$",
    "|": "$|$",
}


def _tex_escape(text: str) -> str:
    r"""Plain text as LaTeX text (specials escaped, Unicode symbols as math)."""
    return "".join(_TEX_SPECIALS.get(ch) or _UNICODE_TEX.get(ch, ch) for ch in text)


_SEGMENT = re.compile(r"(\$[^$]+\$|`[^`]+`)")


def segments(text: str) -> list[tuple[str, str]]:
    r"""Prose as ``(kind, content)`` pieces: ``"text"``, ``"math"`` (between ``$``) or ``"code"`` (backticks).

    >>> segments("rotate $q$ by `rope`")
    [('text', 'rotate '), ('math', 'q'), ('text', ' by '), ('code', 'rope')]
    """
    out = []
    for piece in _SEGMENT.split(text):
        if not piece:
            continue
        if piece.startswith("$") and len(piece) > 1:
            out.append(("math", piece[1:-1].strip()))
        elif piece.startswith("`") and len(piece) > 1:
            out.append(("code", piece[1:-1]))
        else:
            if "$" in piece:
                raise ValueError(f"unbalanced $ in prose: {text!r}")
            out.append(("text", piece))
    return out


def _fraction_text(node, l2tobj) -> str:
    r"""``\frac{a}{b}`` as ``a/b``, with parentheses around a part that is not a single term: ``1/(d/2)``."""
    parts = []
    for arg in node.nodeargd.argnlist[-2:]:
        text = l2tobj.nodelist_to_text([arg]).strip()
        if text.startswith("{") and text.endswith("}"):
            text = text[1:-1]
        parts.append(text if re.fullmatch(r"[\w.]+", text) else f"({text})")
    return "/".join(parts)


@functools.cache
def _latex2text():
    r"""pylatexenc's LaTeX-to-Unicode converter, told about the few macros the claims use that it lacks."""
    from pylatexenc import macrospec
    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, SpecialsTextSpec, get_default_latex_context_db
    from pylatexenc.latexwalker import get_default_latex_context_db as walker_db

    parse = walker_db()
    parse.add_context_category(
        "posproof",
        macros=[
            macrospec.MacroSpec("operatorname", "{"),
            macrospec.MacroSpec("tfrac", "{{"),
            macrospec.MacroSpec("dfrac", "{{"),
            macrospec.MacroSpec("mathsf", "{"),
        ],
        prepend=True,
    )
    text = get_default_latex_context_db()
    text.add_context_category(
        "posproof",
        macros=[
            MacroTextSpec("operatorname", "%(1)s"),
            MacroTextSpec("mathsf", "%(1)s"),
            MacroTextSpec("frac", simplify_repl=_fraction_text),
            MacroTextSpec("tfrac", simplify_repl=_fraction_text),
            MacroTextSpec("dfrac", simplify_repl=_fraction_text),
            MacroTextSpec("ne", "≠"),
            MacroTextSpec("neq", "≠"),
            MacroTextSpec("top", "ᵀ"),
            MacroTextSpec("lvert", "|"),
            MacroTextSpec("rvert", "|"),
        ],
        specials=[SpecialsTextSpec("''", "″")],  # a second derivative, not a closing quote: this is math
        prepend=True,
    )
    converter = LatexNodes2Text(
        math_mode="verbatim",
        keep_braced_groups=True,
        keep_braced_groups_minlen=2,
        strict_latex_spaces="based-on-source",
        latex_context=text,
    )
    return converter, parse


def math_text(tex: str) -> str:
    r"""Inline LaTeX math as readable Unicode (``\theta_i`` → ``θ_i``), by pylatexenc.

    >>> math_text(r"e^{i (m - n) \theta}")
    'e^{i (m - n) θ}'
    """
    from pylatexenc.latexwalker import LatexWalker

    converter, parse = _latex2text()
    nodes = LatexWalker(tex, latex_context=parse, tolerant_parsing=True).get_latex_nodes()[0]
    return " ".join(converter.nodelist_to_text(nodes).split())


def prose(text: str, fmt: str, math: Callable[[str, bool], str] | None = None) -> str:
    r"""Prose in one format: ``latex`` (math kept, text escaped), ``markdown`` (``$...$`` kept), ``html`` (text
    escaped, math through ``math(tex, display)``), ``text`` (math as Unicode)."""
    out = []
    for kind, s in segments(text):
        if fmt == "latex":
            out.append(
                f"${s}$" if kind == "math" else (r"\texttt{%s}" % _tex_escape(s) if kind == "code" else _tex_escape(s))
            )
        elif fmt == "markdown":
            out.append(f"${s}$" if kind == "math" else (f"`{s}`" if kind == "code" else s))
        elif fmt == "html":
            if kind == "math":
                out.append(math(s, False) if math else html.escape(f"${s}$"))
            else:
                out.append(f"<code>{html.escape(s)}</code>" if kind == "code" else html.escape(s))
        else:
            out.append(math_text(s) if kind == "math" else s)
    return "".join(out)


# ==============================================================================================================
# Equations that fit: a width estimate of LaTeX, and line breaks at the terms of sums.
# ==============================================================================================================

_SPACING = {",": 0.2, ":": 0.25, ";": 0.3, "!": 0.0, " ": 0.3, "quad": 1.0, "qquad": 2.0}
_NO_WIDTH = {"left", "right", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr", "displaystyle", "scriptstyle", "limits"}
_OPERATORS = set("+-=<>")


def tex_width(tex: str) -> float:
    r"""About how wide ``tex`` sets in display math, in math letters: fractions count their wider part, scripts
    count 0.7, matrices the widest entry of each column. A layout estimate (the PDF test measures for real)."""
    from pylatexenc.latexwalker import LatexWalker

    _, parse = _latex2text()
    nodes = LatexWalker(tex, latex_context=parse, tolerant_parsing=True).get_latex_nodes()[0]
    return _nodes_width(nodes)


def _char_width(ch: str, script: bool) -> float:
    if ch in _OPERATORS:
        return 1.0 if script else 2.2
    if ch.isupper():
        return 1.5
    if ch in ",.;":
        return 0.6
    if ch in "()[]|":
        return 0.8
    return 1.0


def _nodes_width(nodes) -> float:
    from pylatexenc import latexwalker as lw

    width, script = 0.0, False
    for nd in nodes or ():
        w = 0.0
        if isinstance(nd, lw.LatexCharsNode):
            for ch in nd.chars:
                if ch in "^_":
                    script = True
                elif not ch.isspace():
                    width += _char_width(ch, script) * (0.7 if script else 1.0)
                    script = False
            continue
        if isinstance(nd, lw.LatexGroupNode):
            w = _nodes_width(nd.nodelist)
        elif isinstance(nd, lw.LatexMathNode):
            w = _nodes_width(nd.nodelist)
        elif isinstance(nd, lw.LatexEnvironmentNode):
            w = _environment_width(nd)
        elif isinstance(nd, lw.LatexMacroNode):
            w = _macro_width(nd)
        elif isinstance(nd, lw.LatexSpecialsNode):
            w = 0.0
        width += w * (0.7 if script else 1.0)
        script = False
    return width


def _macro_width(nd) -> float:
    name = nd.macroname
    args = [a for a in (nd.nodeargd.argnlist if nd.nodeargd else []) if a is not None]
    if name in ("frac", "dfrac", "tfrac"):
        return max((_nodes_width([a]) for a in args), default=1.0) + 0.4
    if name in _NO_WIDTH:
        return 0.0
    if name in _SPACING:
        return _SPACING[name]
    if name in ("sqrt",):
        return 1.0 + sum(_nodes_width([a]) for a in args)
    if args:
        return sum(_nodes_width([a]) for a in args)
    if name in ("sum", "prod"):
        return 1.6
    if name in ("cdot", "times", "le", "ge", "leq", "geq", "ne", "approx", "in", "to", "mapsto", "odot"):
        return 1.8
    if name in ("sin", "cos", "tan", "log", "exp", "max", "min", "lim"):
        return len(name) + 0.3
    return 1.0


def _environment_width(nd) -> float:
    from pylatexenc import latexwalker as lw

    rows: list[list[list]] = [[[]]]
    for child in nd.nodelist or ():
        if isinstance(child, lw.LatexMacroNode) and child.macroname == "\\":
            rows.append([[]])
        elif isinstance(child, lw.LatexSpecialsNode) and child.specials_chars == "&":
            rows[-1].append([])
        else:
            rows[-1][-1].append(child)
    ncols = max(len(r) for r in rows)
    cols = [max((_nodes_width(r[c]) for r in rows if c < len(r)), default=0.0) for c in range(ncols)]
    return sum(cols) + 1.5 * (ncols - 1) + 1.0


def _signed_terms(e) -> list[tuple[str, object]]:
    r"""The terms of a sum in printing order, each with the sign it is printed with: ``[("", a), ("- ", b)]``
    (the term then without its minus)."""
    printer = LatexPrinter(dict(LATEX_SETTINGS, symbol_names=_names(e)))
    out = []
    for j, term in enumerate(printer._as_ordered_terms(e)):
        if j and term.could_extract_minus_sign():
            out.append(("- ", -term))
        else:
            out.append(("+ " if j else "", term))
    return out


def _term_tex(term) -> str:
    tex = latex(term)
    return r"\left(%s\right)" % tex if isinstance(term, sp.Add) else tex


def _pack(pieces: Sequence[str], width: float) -> list[str]:
    r"""Greedy: as many pieces on a line as fit."""
    lines: list[str] = []
    for p in pieces:
        if lines and tex_width(lines[-1] + " " + p) <= width:
            lines[-1] = lines[-1] + " " + p
        else:
            lines.append(p)
    return lines


def _sum_prefix(s: sp.Sum) -> str:
    r"""``\sum_{i=0}^{n}`` of a Sum, as SymPy prints it."""
    mark = sp.Symbol("POSPROOFSUMMAND")
    return latex(sp.Sum(mark, *s.limits)).replace(latex(mark), "").rstrip()


def lines(e, width: float = LINE_WIDTH) -> list[str]:
    r"""``e`` in LaTeX as one or more lines no wider than ``width`` where it can be broken: at the terms of a
    sum (also inside a ``Sum``'s summand or a factor of a product), or between the terms of a matrix sum. The
    lines after the first start with their operator."""
    tex = latex(e)
    if tex_width(tex) <= width or not isinstance(e, sp.Basic):
        return [tex]
    if isinstance(e, sp.Add):
        out: list[str] = []
        for sign, term in _signed_terms(e):
            piece = sign + _term_tex(term)
            if tex_width(piece) <= width:
                out.append(piece)
                continue
            sub = lines(term, width - 2)
            out += [sign + sub[0], *sub[1:]]
        return _pack(out, width)
    if isinstance(e, sp.Sum):
        prefix = _sum_prefix(e)
        body = e.function
        inner = lines(body, width - tex_width(prefix) - 2)
        if len(inner) == 1:
            return [tex]
        if isinstance(body, sp.Add):
            return [rf"{prefix} \biggl({inner[0]}", *inner[1:-1], rf"{inner[-1]}\biggr)"]
        return [rf"{prefix} {inner[0]}", *inner[1:]]
    if isinstance(e, sp.Mul):
        coeff, factors = e.as_coeff_mul()
        big = [f for f in factors if isinstance(f, (sp.Add, sp.Sum))]
        if len(big) == 1:
            rest = sp.Mul(coeff, *[f for f in factors if f is not big[0]])
            prefix = "" if rest == 1 else ("- " if rest == -1 else latex(rest) + " ")
            inner = lines(big[0], width - tex_width(prefix) - 2)
            if isinstance(big[0], sp.Add):
                return [rf"{prefix}\biggl({inner[0]}", *inner[1:-1], rf"{inner[-1]}\biggr)"]
            return [prefix + inner[0], *inner[1:]]
        if len(factors) > 1:
            parts = [latex(f) if not isinstance(f, sp.Add) else r"\left(%s\right)" % latex(f) for f in factors]
            head = "" if coeff == 1 else ("- " if coeff == -1 else latex(coeff) + " ")
            return _pack([head + parts[0]] + [r"\cdot " + p for p in parts[1:]], width)
    if isinstance(e, sp.MatAdd):
        return _pack(
            [latex(a) if j == 0 else "+ " + latex(a) for j, a in enumerate(e.args)],
            width,
        )
    return [tex]


def display(lhs, rel: str, rhs, width: float = LINE_WIDTH) -> str:
    r"""``lhs rel rhs`` as one displayed formula that fits ``width``: on one line when it does, else an
    ``aligned`` block broken at the terms of sums. ``lhs`` may be ``None`` (a chained step: ``= rhs``); ``rel``
    is LaTeX (``=``, ``\le``, ``\mathrel{:=}``)."""
    left = "" if lhs is None else latex(lhs)
    right = latex(rhs)
    one = f"{left} {rel} {right}".strip()
    if tex_width(one) <= width:
        return one
    wl = tex_width(left)
    if lhs is not None and wl <= 0.4 * width:
        rl = lines(rhs, width - wl - 2)
        rows = [f"{left} &{rel} {rl[0]}"] + [rf"&\quad {x}" for x in rl[1:]]
    else:
        ll = lines(lhs, width - 1) if lhs is not None else []
        rl = lines(rhs, width - 3)
        rows = ([f"& {ll[0]}"] + [rf"&\quad {x}" for x in ll[1:]]) if ll else []
        rows += [f"& {rel} {rl[0]}"] + [rf"&\quad {x}" for x in rl[1:]]
    if len(rows) == 1:
        return f"{left} {rel} {rl[0]}".strip()
    return "\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}"


def formula_tex(formula) -> str:
    r"""A claim's short statement, displayed (relations broken like :func:`display`)."""
    if isinstance(formula, sp.core.relational.Relational):
        rel = {"==": "=", "<=": r"\le", ">=": r"\ge", "<": "<", ">": ">", "!=": r"\ne"}[formula.rel_op]
        return display(formula.lhs, rel, formula.rhs)
    if isinstance(formula, (tuple, list)):
        return r",\quad ".join(formula_tex(f) for f in formula)
    return latex(formula)


def formula_text(formula) -> str:
    r"""A claim's short statement for the terminal (SymPy's pretty printer, one line where it can)."""
    if isinstance(formula, (tuple, list)):
        return "\n".join(formula_text(f) for f in formula)
    return pretty(formula)


# ==============================================================================================================
# Blocks: one claim as headings, paragraphs, displayed math, steps and tables; each format writes them.
# ==============================================================================================================


@dataclass(frozen=True)
class Block:
    r"""One piece of a rendered claim. ``kind``: ``heading`` (``text`` prose, ``label``), ``para`` (prose),
    ``math`` (``tex``, displayed), ``step`` (``number``, ``text`` prose, ``code`` strategies, ``tex``), ``items``
    (``rows`` of ``(prose label, plain value)``), ``statement`` (``tex`` and ``plain``)."""

    kind: str
    text: str = ""
    tex: str = ""
    label: str = ""
    code: str = ""
    number: int = 0
    plain: str = ""
    rows: tuple = field(default_factory=tuple)


def computed(c: Fact) -> list[tuple[str, str]]:
    r"""The rows a fact computes, as ``(label, value)`` strings (recomputed now, at the default precision)."""
    with mpmath.workdps(settings.DEFAULT_DPS):
        _, table = c.compute(settings.DEFAULT_DPS)
    return [(str(label), _show(value)) for label, value in table]


def _method(c) -> str:
    return c.describe_method(settings.DEFAULT_DPS)


def _why(step: Step, proved: bool = True) -> str:
    return f"{step.why} [{', '.join(step.strategy)}]" if proved else step.why


def _assumptions(c) -> list[Block]:
    if not c.assumptions:
        return []
    return [Block("para", "Assumptions: " + "; ".join(c.assumptions) + ".")]


def _definition_math(dfn: Definition) -> Block:
    return Block("math", tex=display(dfn.lhs, r"\mathrel{:=}", dfn.rhs))


def blocks(c) -> list[Block]:
    r"""One claim as :class:`Block`\ s: heading, source, statement, assumptions, then the derivation (steps and
    their justifications), the definition, or the computed table."""
    out = [
        Block("heading", c.title, label=c.id),
        Block("para", f"`{c.id}` · {c.kind} · Source: {c.source}."),
    ]
    if c.formula is not None:
        out.append(Block("statement", tex=formula_tex(c.formula), plain=formula_text(c.formula)))
    if isinstance(c, Definition):
        out += _assumptions(c)
        out += [Block("para", f"By definition ({c.why}):"), _definition_math(c)]
        out.append(Block("para", f"Checked: `{c.implementation}` computes this formula."))
        return out
    if isinstance(c, Fact):
        out.append(Block("para", c.statement))
        for dfn in c.definitions:
            out.append(Block("para", f"Where, by definition ({dfn.why}; `{dfn.implementation}` checked):"))
            out.append(_definition_math(dfn))
        out.append(Block("para", f"Computed with {_method(c)}:"))
        out.append(Block("items", rows=tuple(computed(c))))
        return out
    out += _assumptions(c)
    numbered = len(c.steps) > 1
    for k, st in enumerate(c.steps, 1):
        lhs = st.lhs if (k == 1 or not c.chained) else None
        rel = _RELATIONS[st.rel]
        out.append(
            Block(
                "step", st.why, tex=display(lhs, rel, st.rhs), code=", ".join(st.strategy), number=k if numbered else 0
            )
        )
    if not c.chained:
        out.append(Block("para", f"Hence [{', '.join(c.strategy)}]:"))
        out.append(Block("math", tex=display(c.lhs, _RELATIONS[c.rel], c.rhs)))
    return out


def math_of(bs: Iterable[Block]) -> list[tuple[str, bool]]:
    r"""Every formula in some blocks as ``(tex, display)``: displayed ones and the inline math of the prose."""
    out = []
    for b in bs:
        if b.tex:
            out.append((b.tex, True))
        texts = [b.text] + [label for label, _ in b.rows]
        for t in texts:
            out += [(s, False) for kind, s in segments(t) if kind == "math"]
    return out


# ---- LaTeX -----------------------------------------------------------------------------------------------------


def _display_latex(tex: str) -> str:
    return f"\\[\n{tex}\n\\]" if "\n" in tex else f"\\[ {tex} \\]"


def blocks_latex(bs: Iterable[Block], level: str = "subsection") -> str:
    r"""Blocks as LaTeX: a heading (``\subsection`` with a label ``claim:ID``), paragraphs, displays."""
    out: list[str] = []
    for b in bs:
        if b.kind == "heading":
            out.append(f"% {b.label}\n\\{level}{{{prose(b.text, 'latex')}}}\\label{{claim:{b.label}}}")
        elif b.kind == "para":
            out.append(prose(b.text, "latex"))
        elif b.kind == "statement":
            out.append("\\textbf{Statement.}\n" + _display_latex(b.tex))
        elif b.kind == "math":
            out[-1] += "\n" + _display_latex(b.tex)
        elif b.kind == "step":
            num = f"({b.number}) " if b.number else ""
            out.append(f"{num}{prose(b.text, 'latex')} {{\\small[{_tex_escape(b.code)}]}}\n{_display_latex(b.tex)}")
        elif b.kind == "items":
            rows = "\n".join(
                f"\\item {prose(label, 'latex')}: \\texttt{{{_tex_breakable(value)}}}" for label, value in b.rows
            )
            out[-1] += "\n\\begin{itemize}\\setlength{\\itemsep}{0pt}\\raggedright\n" + rows + "\n\\end{itemize}"
    return "\n\n".join(out) + "\n"


def _tex_breakable(value: str) -> str:
    r"""A computed value in ``\texttt`` that may break after commas (long lists)."""
    return _tex_escape(value).replace(", ", r", \allowbreak{}")


# ---- Markdown --------------------------------------------------------------------------------------------------


def blocks_markdown(bs: Iterable[Block], level: int = 3) -> str:
    out = []
    for b in bs:
        if b.kind == "heading":
            out += [f"{'#' * level} {prose(b.text, 'markdown')}", ""]
        elif b.kind == "para":
            out += [prose(b.text, "markdown"), ""]
        elif b.kind in ("statement", "math"):
            out += (["**Statement.**", ""] if b.kind == "statement" else []) + ["$$", b.tex, "$$", ""]
        elif b.kind == "step":
            num = f"{b.number}. " if b.number else ""
            out += [f"{num}{prose(b.text, 'markdown')} (`{b.code}`)", "", "$$", b.tex, "$$", ""]
        elif b.kind == "items":
            out += [f"- {prose(label, 'markdown')}: `{value}`" for label, value in b.rows] + [""]
    return "\n".join(out)


# ---- plain text --------------------------------------------------------------------------------------------------


def _indent(text: str, by: str = "    ") -> str:
    return "\n".join(by + line if line.strip() else line for line in text.splitlines())


def claim_text(c) -> str:
    r"""One claim for the terminal: prose in Unicode, the statement drawn by ``sympy.pretty``, steps as ``sstr``."""
    out = [f"{c.id} ({c.kind}): {prose(c.title, 'text')}", f"  source: {prose(c.source, 'text')}"]
    if c.formula is not None:
        out += ["  statement:", _indent(formula_text(c.formula))]
    if isinstance(c, Definition):
        out += [f"  assume: {prose(a, 'text')}" for a in c.assumptions]
        out.append(f"  by definition: {sstr(c.lhs)} := {sstr(c.rhs)}")
        out.append(f"       ({prose(c.why, 'text')}; checked: {c.implementation} computes it)")
        return "\n".join(out) + "\n"
    if isinstance(c, Fact):
        out.append(f"  {prose(c.statement, 'text')}")
        for dfn in c.definitions:
            out.append(f"  where {sstr(dfn.lhs)} := {sstr(dfn.rhs)}  (checked: {dfn.implementation})")
        out.append(f"  computed with {prose(_method(c), 'text')}:")
        out += [f"  computed: {prose(label, 'text')} = {value}" for label, value in computed(c)]
        return "\n".join(out) + "\n"
    out += [f"  assume: {prose(a, 'text')}" for a in c.assumptions]
    for k, st in enumerate(c.steps, 1):
        out.append(f"  {k}. {sstr(st.lhs)} {st.rel} {sstr(st.rhs)}")
        out.append(f"       because {prose(_why(st), 'text')}")
    if not c.chained:
        out.append(f"  hence {sstr(c.lhs)} {c.rel} {sstr(c.rhs)}  [{', '.join(c.strategy)}]")
    return "\n".join(out) + "\n"


# ---- one claim, by format ----------------------------------------------------------------------------------------


def identity_latex(c) -> str:
    r"""One claim as a LaTeX subsection: title, source, statement, assumptions, the verified derivation."""
    return blocks_latex(blocks(c))


def identity_markdown(c) -> str:
    return blocks_markdown(blocks(c))


def identity_text(c) -> str:
    return claim_text(c)


def render(c, fmt: str) -> str:
    r"""One claim in ``fmt`` (``latex``, ``markdown``, ``text``; ``html`` through :mod:`derivations.export`)."""
    if fmt == "html":
        from .export import claim_html

        return claim_html(c)
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    return {"latex": identity_latex, "markdown": identity_markdown, "text": identity_text}[fmt](c)


# ==============================================================================================================
# JSON
# ==============================================================================================================


def as_json(c) -> dict:
    r"""A JSON-ready description of one claim (LaTeX and SymPy string forms of every step)."""
    base = {"id": c.id, "kind": c.kind, "title": c.title, "topic": c.topic, "source": c.source}
    if c.formula is not None:
        base["formula"] = {"latex": formula_tex(c.formula), "sympy": _formula_str(c.formula)}
    if isinstance(c, Fact):
        return base | {
            "statement": c.statement,
            "claim": _jsonable(c.claim),
            "method": _method(c),
            "definitions": [_definition_json(dfn) for dfn in c.definitions],
            "computed": [{"label": label, "value": value} for label, value in computed(c)],
        }
    if isinstance(c, Definition):
        return base | _definition_json(c) | {"symbols": symbol_assumptions(c)}
    return base | {
        "assumptions": list(c.assumptions),
        "symbols": symbol_assumptions(c),
        "claim": {
            "lhs": latex(c.lhs),
            "rel": c.rel,
            "rhs": latex(c.rhs),
            "lhs_sympy": sp.sstr(c.lhs),
            "rhs_sympy": sp.sstr(c.rhs),
        },
        "given": [sp.sstr(g) for g in c.given],
        "steps": [_step_json(s) for s in c.steps],
    }


def _formula_str(formula) -> str:
    if isinstance(formula, (tuple, list)):
        return "; ".join(_formula_str(f) for f in formula)
    return sstr(formula)


_FACTS = ("integer", "even", "positive", "nonnegative", "real", "complex")


def symbol_assumptions(c) -> dict:
    r"""Each symbol of a claim with the SymPy assumptions it was declared with (``real``, ``integer``, ...)."""
    syms, mats = set(), set()
    for st in c.steps:
        for side in (st.lhs, st.rhs):
            if isinstance(side, sp.Basic):
                syms |= {s for s in side.free_symbols if isinstance(s, sp.Symbol)}
                syms |= {a.base.label for a in side.atoms(sp.Indexed)}
                mats |= side.atoms(sp.MatrixSymbol)
    out = {str(M): [f"matrix {sp.sstr(M.shape[0])} x {sp.sstr(M.shape[1])}"] for M in sorted(mats, key=str)}
    for s in sorted(syms, key=lambda s: s.name):
        facts = [f for f in _FACTS if s.assumptions0.get(f)]
        # Report only the strongest: positive integer implies real, complex, nonnegative...
        implied = {
            "integer": {"real", "complex"},
            "real": {"complex"},
            "positive": {"nonnegative", "real", "complex"},
            "nonnegative": {"real", "complex"},
            "even": {"integer", "real", "complex"},
        }
        strongest = [f for f in facts if not any(f in implied.get(g, ()) for g in facts)]
        out[s.name] = strongest or ["complex"]
    return out


def _step_json(s: Step) -> dict:
    return {
        "lhs": latex(s.lhs),
        "rel": s.rel,
        "rhs": latex(s.rhs),
        "why": s.why,
        "strategy": list(s.strategy),
        "lhs_sympy": sp.sstr(s.lhs),
        "rhs_sympy": sp.sstr(s.rhs),
    }


def _definition_json(dfn: Definition) -> dict:
    return {
        "assumptions": list(dfn.assumptions),
        "definition": {
            "lhs": latex(dfn.lhs),
            "rhs": latex(dfn.rhs),
            "lhs_sympy": sp.sstr(dfn.lhs),
            "rhs_sympy": sp.sstr(dfn.rhs),
            "why": dfn.why,
        },
        "implementation": dfn.implementation,
    }


def _jsonable(v):
    return json.loads(json.dumps(v, default=str))


def topic_latex(claims) -> str:
    r"""Every claim of a topic, as LaTeX."""
    return "\n".join(identity_latex(c) for c in claims)


# ==============================================================================================================
# Jupyter: what the claim classes' _repr_*_ methods return.
# ==============================================================================================================


def repr_markdown(c) -> str:
    r"""A claim in a notebook: the Markdown rendering (Jupyter typesets its ``$...$``)."""
    return identity_markdown(c)


def repr_latex(c) -> str | None:
    r"""A claim's statement as one displayed formula (``None`` when it has none)."""
    if c.formula is None:
        return None
    return "$$" + formula_tex(c.formula) + "$$"


def result_html(r) -> str:
    r"""A :class:`~symbolic.core.VerifyResult` as a small HTML table: status, symbolic, numeric, steps."""
    err = r.numeric_max_rel_error
    cells = [
        ("claim", r.id),
        ("kind", r.kind),
        ("status", r.status),
        ("symbolic", {True: "proved", False: "not proved", None: "-"}[r.symbolic]),
        ("numeric", r.numeric or "-"),
        ("max relative error", "-" if err is None else f"{err:.3g}"),
        ("digits", str(r.dps)),
        ("steps", str(len(r.steps))),
        ("seconds", f"{r.seconds:.3f}"),
    ]
    if r.detail:
        cells.append(("detail", r.detail))
    body = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in cells)
    return f'<table class="posproof-result">{body}</table>'


def result_markdown(r) -> str:
    r"""The same table in Markdown."""
    err = r.numeric_max_rel_error
    row = [
        r.id,
        r.kind,
        r.status,
        {True: "proved", False: "not proved", None: "-"}[r.symbolic],
        r.numeric or "-",
        "-" if err is None else f"{err:.3g}",
        str(r.dps),
    ]
    return (
        "| claim | kind | status | symbolic | numeric | max rel. error | digits |\n"
        "| --- | --- | --- | --- | --- | --- | --- |\n| " + " | ".join(row) + " |\n"
    )
