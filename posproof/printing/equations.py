r"""Equations that fit the page: :func:`tex_width` estimates how wide LaTeX sets, :func:`lines` and
:func:`display` break a long ``lhs rel rhs`` at the terms of sums; :func:`formula_tex` and :func:`formula_text`
print a claim's short statement; :func:`named` displays a formula with the parts that have names (the ones the
scheme modules declare as ``SYMBOLS``) and :func:`where_tex` their definitions.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import sympy as sp

from posproof.printing.printers import LATEX_SETTINGS, LatexPrinter, latex, pretty, upright_names
from posproof.printing.prose import latex_converter

#: Widest displayed line, in the units of :func:`tex_width` (about one math letter of 10pt type; the standalone
#: document's text is 16 cm wide). Lines are broken at the terms of sums to stay below it.
LINE_WIDTH = 70.0


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

    _, parse = latex_converter()
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
    if name in ("sin", "cos", "tan", "log", "ln", "exp", "max", "min", "lim"):
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
    printer = LatexPrinter(dict(LATEX_SETTINGS, symbol_names=upright_names(e)))
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
        if len(inner) == 1 and inner[0] == latex(body):
            return [tex]
        if len(inner) == 1:  # a broken Piecewise: one line, several rows inside
            return [rf"{prefix} {inner[0]}"]
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
    if isinstance(e, sp.Piecewise):
        return [_cases(e, width)]
    if isinstance(e, sp.MatAdd):
        return _pack(
            [latex(a) if j == 0 else "+ " + latex(a) for j, a in enumerate(e.args)],
            width,
        )
    return [tex]


def _cases(e: sp.Piecewise, width: float) -> str:
    r"""A wide ``Piecewise`` as ``cases`` whose long pieces are broken into rows at their terms (an ``array``:
    MathML converters and KaTeX read it, as LaTeX does)."""
    rows = []
    for expr, cond in e.args:
        when = r"\text{otherwise}" if cond == sp.true else r"\text{for}\: " + latex(cond)
        parts = lines(expr, max(width - tex_width(when) - 4, 24.0))
        piece = parts[0] if len(parts) == 1 else (r"\begin{array}{l} " + r" \\ \quad ".join(parts) + r" \end{array}")
        rows.append(f"{piece} & {when}")
    return r"\begin{cases} " + r" \\ ".join(rows) + r" \end{cases}"


def display(lhs, rel: str, rhs, width: float = LINE_WIDTH) -> str:
    r"""``lhs rel rhs`` as one displayed formula that fits ``width``: on one line when it does, else an
    ``aligned`` block broken at the terms of sums. ``lhs`` may be ``None`` (a chained step: ``= rhs``); ``rel``
    is LaTeX (``=``, ``\le``, ``\mathrel{:=}``)."""
    left = "" if lhs is None else latex(lhs)
    right = latex(rhs)
    one = f"{left} {rel} {right}".strip()
    by_rows = _by_rows(lhs, rel, rhs, one, width)
    if by_rows is not None:
        return by_rows
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


def _by_rows(lhs, rel: str, rhs, one: str, width: float) -> str | None:
    r"""Two column vectors whose entries are fractions of fractions (unreadable in a matrix's script size) or too
    wide for one line, compared entry by entry: one row per entry, ``a_k rel b_k``."""
    if not (isinstance(lhs, sp.MatrixBase) and isinstance(rhs, sp.MatrixBase)):
        return None
    if lhs.shape != rhs.shape or lhs.shape[1] != 1 or lhs.shape[0] < 2:
        return None
    if "\\frac{\\frac" not in one and tex_width(one) <= width:
        return None
    rows = [display(a, rel, b, width) for a, b in zip(lhs, rhs, strict=True)]
    if not any("aligned" in r for r in rows):  # one line each: their relations aligned
        rows = [r.replace(f" {rel} ", f" &{rel} ", 1) for r in rows]
    return "\\begin{aligned}\n" + " \\\\\n".join(f"& {r}" if "aligned" in r else r for r in rows) + "\n\\end{aligned}"


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
# A theorem's ``given`` hypotheses (facts assumed beyond its symbols' assumptions, e.g. ``b > 1``)
# ==============================================================================================================


def given_relations(c) -> list:
    r"""The ``given`` facts of a claim as SymPy relations (``Q.gt(b, 1)`` as ``b > 1``, ``Q.positive(x)`` as
    ``x > 0``); a predicate with no relation of its own stays as it is.

    >>> import sympy as sp
    >>> from types import SimpleNamespace
    >>> b = sp.Symbol("b", positive=True)
    >>> [sp.sstr(r) for r in given_relations(SimpleNamespace(given=(sp.Q.gt(b, 1), sp.Q.nonzero(b))))]
    ['b > 1', 'Ne(b, 0)']
    """
    Q = sp.Q
    binary = {Q.gt: sp.Gt, Q.ge: sp.Ge, Q.lt: sp.Lt, Q.le: sp.Le, Q.eq: sp.Eq, Q.ne: sp.Ne}
    unary = {
        Q.positive: (sp.Gt, 0),
        Q.nonnegative: (sp.Ge, 0),
        Q.negative: (sp.Lt, 0),
        Q.nonpositive: (sp.Le, 0),
        Q.nonzero: (sp.Ne, 0),
        Q.zero: (sp.Eq, 0),
    }
    out = []
    for g in getattr(c, "given", ()) or ():
        fn = getattr(g, "function", None)
        args = tuple(getattr(g, "arguments", ()))
        if fn in binary and len(args) == 2:
            out.append(binary[fn](*args, evaluate=False))
        elif fn in unary and len(args) == 1:
            rel, rhs = unary[fn]
            out.append(rel(args[0], rhs, evaluate=False))
        else:
            out.append(g)
    return out


def given_tex(c) -> list[str]:
    r"""Each ``given`` hypothesis of a claim as LaTeX (``b > 1``), printed with the symbol table."""
    return [latex(r) for r in given_relations(c)]


def given_plain(c) -> list[str]:
    r"""Each ``given`` hypothesis of a claim as one line of Unicode text (``b > 1``)."""
    return [" ".join(pretty(r).split()) if "\n" not in pretty(r) else str(r) for r in given_relations(c)]


# ==============================================================================================================
# Named intermediates: a formula built from parts that have names in the paper or the code is displayed with those
# names, their definitions below it, instead of levels of nested min/max fractions. The scheme modules declare
# their parts (``SYMBOLS``, :class:`posproof.symbolic.tables.Name`); the registry gathers them.
# ==============================================================================================================


@functools.cache
def _named_parts() -> tuple:
    r"""The named parts the scheme modules declare (:func:`posproof.symbolic.registry.symbols`), in the order they
    are substituted and listed: a part before the parts its pattern contains and before the names its definition
    is written with, otherwise in registry order."""
    from posproof.symbolic import registry

    left = list(registry.symbols())
    out = []
    while left:

        def after(p) -> bool:  # p must wait for a part that contains it or whose definition names it
            return any(q is not p and (_contains(q.pattern, p.pattern) or q.shown.has(p.name)) for q in left)

        ready = next((p for p in left if not after(p)), None)
        if ready is None:
            raise ValueError(f"named parts that contain each other: {[str(p.name) for p in left]}")
        out.append(ready)
        left.remove(ready)
    return tuple(out)


def named(expr) -> tuple[sp.Basic, list[tuple[sp.Basic, sp.Basic]]]:
    r"""``expr`` with the named parts it contains replaced by their names, and ``[(name, definition), ...]`` of
    the names it then shows (each definition in terms of the later names; a family of parts by its general name,
    once). A part is found as a subtree, or as some of the factors of a product (``σ_i θ_i``)."""
    if not isinstance(expr, sp.Basic) or isinstance(expr, sp.MatrixBase):
        return expr, []
    out = expr
    found: list = []
    for part in _named_parts():
        if not _contains(expr, part.pattern) or any(part.name == p.name for p in found):
            continue
        out = _replace(out, part.pattern, part.name)
        found.append(part)
    if out == expr:
        return expr, []
    wanted, seen = [], set()
    for part in found:
        name, shown = part.general or (part.name, part.shown)
        if name not in seen:
            seen.add(name)
            wanted.append((name, shown))
    return out, wanted


def _factors(e) -> list:
    return list(e.args) if isinstance(e, sp.Mul) else [e]


def _contains(expr, pattern) -> bool:
    r"""Whether ``pattern`` is a subtree of ``expr`` or, a product, some of the factors of a product in it."""
    if expr.has(pattern):
        return True
    if not isinstance(pattern, sp.Mul):
        return False
    want = _factors(pattern)
    return any(isinstance(m, sp.Mul) and all(f in m.args for f in want) for m in sp.preorder_traversal(expr))


def _replace(expr, pattern, name):
    r"""``expr`` with ``pattern`` replaced by ``name``: as a subtree, and among the factors of a product."""
    out = expr.xreplace({pattern: name})
    if not isinstance(pattern, sp.Mul):
        return out
    want = _factors(pattern)

    def swap(e):
        if isinstance(e, sp.Mul) and all(f in e.args for f in want):
            rest = list(e.args)
            for f in want:
                rest.remove(f)
            return sp.Mul(name, *rest)
        return e

    return out.replace(lambda e: isinstance(e, sp.Mul), swap)


def where_tex(definitions: list[tuple[sp.Basic, sp.Basic]]) -> str:
    r"""The definitions of the names a display shows, one per row of an ``aligned`` block."""
    rows = [f"{latex(name)} &= {latex(shown)}" for name, shown in definitions]
    return "\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}"
