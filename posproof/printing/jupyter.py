r"""What the engine's objects show in a notebook: a claim as Markdown, and as LaTeX that carries its whole
derivation (one ``$$...$$`` display, a ``gathered`` of the statement above an ``aligned`` of the derivation: each
step aligned at its relation, its justification beside it); a
:class:`~posproof.symbolic.engine.results.VerifyResult` as a small table. :data:`PRINTER` answers the engine's
:class:`~posproof.symbolic.engine.display.Printable` (``posproof.printing`` registers it on import).

The LaTeX is read by MathJax (Jupyter), KaTeX (VS Code) and amsmath (``nbconvert --to pdf``) alike: it is math
mode only, words in ``\text{...}`` hold no macro (MathJax sets text-mode macros literally), code is ``\mathtt``.
"""

from __future__ import annotations

import html
import re

import sympy as sp

from posproof.printing.blocks import blocks
from posproof.printing.equations import LINE_WIDTH, formula_tex, lines, named, tex_width, where_tex
from posproof.printing.markdown import identity_markdown
from posproof.printing.printers import latex
from posproof.printing.prose import prose, segments, tex_escape
from posproof.symbolic.engine.core import RELATIONS, Definition, Fact
from posproof.symbolic.engine.results import VerifyResult

# ==============================================================================================================
# Jupyter: what the claims' and results' _repr_*_ methods return.
# ==============================================================================================================


def repr_markdown(c) -> str:
    r"""A claim in a notebook: the Markdown rendering (Jupyter typesets its ``$...$``)."""
    return identity_markdown(c)


def repr_latex(c) -> str | None:
    r"""A claim's whole derivation as one displayed formula (:func:`derivation_latex` between ``$$``; ``None``
    when it has neither statement nor derivation)."""
    tex = derivation_latex(c)
    return None if tex is None else "$$" + tex + "$$"


def derivation_latex(c) -> str | None:
    r"""The statement, and below it the derivation's rows (:func:`derivation_rows`) as one ``aligned``."""
    statement = statement_tex(c)
    rows = derivation_rows(c)
    body = "\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}" if rows else None
    if statement is None or body is None:
        return statement or body
    return "\\begin{gathered}\n" + statement + " \\\\[1ex]\n" + body + "\n\\end{gathered}"


def statement_tex(c) -> str | None:
    r"""A claim's statement (:func:`printing.equations.formula_tex`), ``None`` when it has none."""
    if c.formula is None or isinstance(c.formula, sp.logic.boolalg.BooleanAtom):
        return None
    return formula_tex(c.formula)


# ---- the derivation as rows of one aligned display ------------------------------------------------------------

#: The widest formula of a row, in the units of :func:`printing.equations.tex_width` (the justification beside it).
FORMULA_WIDTH = 0.7 * LINE_WIDTH

#: About how many characters of a justification stand on one row (longer ones continue on the rows below).
WHY_CHARS = 44

#: Characters that are not text in ``\text{...}``, as math mode writes them.
_TEXT_SPECIALS = {
    "\\": r"\backslash",
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "%": r"\%",
    "#": r"\#",
    "_": r"\_",
    "^": r"\hat{}",
    "~": r"\sim",
}


def _text(words: str) -> str:
    r"""Plain words as ``\text{...}``; a TeX special character, ``<``, ``>``, ``|`` and a Unicode symbol that
    LaTeX writes as math (:func:`printing.prose.tex_escape`: ``θ`` as ``\theta``) between them in math mode."""
    out: list[str] = []
    run = ""
    for ch in words:
        tex = _TEXT_SPECIALS.get(ch) or (ch if ch in "<>|" else None)
        if tex is None and not ch.isascii():
            shown = tex_escape(ch)
            if len(shown) > 2 and shown[0] == shown[-1] == "$":
                tex = "{" + shown[1:-1] + "}"
        if tex is None:
            run += ch
            continue
        if run:
            out.append(r"\text{%s}" % run)
            run = ""
        out.append(tex)
    if run:
        out.append(r"\text{%s}" % run)
    return "".join(out)


def _code(name: str) -> str:
    r"""A code name as ``\mathtt``: its specials escaped, a hyphen or quote as text, a space kept."""
    out = []
    for ch in name:
        if ch in _TEXT_SPECIALS:
            out.append(_TEXT_SPECIALS[ch].replace(r"\hat{}", r"\text{\^{}}"))
        elif ch in "-'\"":
            out.append(r"\text{%s}" % ch)
        elif ch == " ":
            out.append(r"\ ")
        else:
            out.append(ch)
    return r"\mathtt{%s}" % "".join(out)


def _row(atoms: list[tuple[str, str]]) -> str:
    r"""Atoms (``("text", words)`` or ``("math", tex)``) as one row: the words of a run in one ``\text``."""
    out: list[str] = []
    words = ""
    for kind, s in atoms:
        if kind == "text":
            words += s
            continue
        out.append(_text(words))
        words = ""
        out.append(s)
    out.append(_text(words.rstrip()))
    return "".join(out)


def prose_math(text: str, chars: int | None = WHY_CHARS) -> list[str]:
    r"""Prose (``$...$`` math, code, reference tokens) as math-mode LaTeX, cut into rows of about ``chars``
    characters at the spaces between words (``None``: one row).

    >>> prose_math("rotate $q$ by `f_a`")
    ['\\text{rotate }{q}\\text{ by }\\mathtt{f\\_a}']
    """
    atoms: list[tuple[int, str, str]] = []  # (characters shown, kind, LaTeX or words)
    for kind, s in segments(prose(text, "markdown")):
        if kind == "math":
            atoms.append((len(s) // 2 + 1, "math", "{" + s + "}"))
        elif kind == "code":
            atoms.append((len(s), "math", _code(s)))
        else:
            atoms += [(len(w), "text", w) for w in re.findall(r"\S*\s+|\S+$", s)]
    rows: list[list[tuple[str, str]]] = [[]]
    shown = 0
    for n, kind, s in atoms:
        after_space = bool(rows[-1]) and rows[-1][-1][0] == "text" and rows[-1][-1][1].endswith(" ")
        if chars is not None and shown + n > chars and after_space:
            rows.append([])
            shown = 0
        rows[-1].append((kind, s))
        shown += n
    return [_row(r) for r in rows if r]


def relation_rows(lhs, rel: str, rhs) -> list[str]:
    r"""``lhs rel rhs`` as rows aligned at the relation (``lhs &rel rhs``, the rest ``&\quad ...``), the sides
    broken at the terms of sums (:func:`printing.equations.lines`) to :data:`FORMULA_WIDTH`; ``lhs`` ``None``: a
    chained step (``&= rhs``); a long ``lhs`` stands on rows of its own above."""
    left = "" if lhs is None else latex(lhs)
    if tex_width(f"{left} {rel} {latex(rhs)}") <= FORMULA_WIDTH:
        return [f"{left} &{rel} {latex(rhs)}".lstrip()]
    if lhs is None or tex_width(left) <= 0.4 * FORMULA_WIDTH:
        right = lines(rhs, FORMULA_WIDTH - tex_width(left) - 2)
        return [f"{left} &{rel} {right[0]}".lstrip()] + [rf"&\quad {x}" for x in right[1:]]
    ll = lines(lhs, FORMULA_WIDTH)
    rows = [f"& {ll[0]}"] + [rf"&\quad {x}" for x in ll[1:]]
    right = lines(rhs, FORMULA_WIDTH - 3)
    return rows + [f"&{rel} {right[0]}"] + [rf"&\quad {x}" for x in right[1:]]


def _beside(formula: list[str], why: list[str], rel: str) -> list[str]:
    r"""Formula rows with the justification's rows beside them (``&& \text{...}``) from the row of the relation
    on, as many rows as it takes."""
    at = next((i for i, r in enumerate(formula) if r.startswith(f"&{rel} ")), 0)
    why = [""] * at + why
    n = max(len(formula), len(why))
    formula = formula + ["&"] * (n - len(formula))
    return [f"{f} &&\\quad {w}" if w else f for f, w in zip(formula, why + [""] * (n - len(why)), strict=True)]


def derivation_rows(c) -> list[str]:
    r"""A claim as the rows of one ``aligned`` display: its statement; a theorem's steps (the first of a chain with
    its left side, the rest ``&= ...``), each numbered with its justification; a definition's formula with its
    named parts; a fact's statement and computed values."""
    out: list[str] = []
    if isinstance(c, Fact):
        return out + _fact_rows(c)
    if isinstance(c, Definition):
        rhs, parts = named(c.rhs)
        rel = r"\mathrel{:=}"
        out += _beside(relation_rows(c.lhs, rel, rhs), prose_math(f"by definition ({c.why})"), rel)
        if parts:
            out += [r"&\text{where } " + where_tex(parts)]
        return out
    numbered = len(c.steps) > 1
    for k, st in enumerate(c.steps, 1):
        lhs = st.lhs if (k == 1 or not c.chained) else None
        why = prose_math((f"({k}) " if numbered else "") + st.why)
        out += _beside(relation_rows(lhs, RELATIONS[st.rel], st.rhs), why, RELATIONS[st.rel])
    if not c.chained:
        out += _beside(relation_rows(c.lhs, RELATIONS[c.rel], c.rhs), [_text("hence")], RELATIONS[c.rel])
    return out


def _fact_rows(c) -> list[str]:
    r"""A fact: what it states, then each table of computed values as an ``array``."""
    out = [f"&{row}" for row in prose_math(c.statement, 2 * WHY_CHARS)]  # no justification beside it
    for b in (b for b in blocks(c) if b.kind == "table"):  # the tables the Markdown shows, computed once
        if b.text:
            out += [f"&{row}" for row in prose_math(b.text)]
        cells = [b.head] if b.head else []
        cells += list(b.rows)
        cols = max(len(r) for r in cells)
        body = [" & ".join("".join(prose_math(cell, None)) for cell in r) for r in cells]
        if b.head:
            body[0] += r" \\ \hline"
            body[1:] = [r" \\ " + x if i else x for i, x in enumerate(body[1:])]
            tex = body[0] + " " + "".join(body[1:])
        else:
            tex = r" \\ ".join(body)
        out.append(r"&\begin{array}{%s} %s \end{array}" % ("l" * cols, tex))
    return out


def _detail(text: str) -> str:
    r"""A result's detail (the computed rows' labels are prose) with its math as Unicode."""
    try:
        return prose(text, "text")
    except ValueError:  # an unpaired $ in a value: the detail as it is
        return text


def result_html(r) -> str:
    r"""A :class:`~posproof.symbolic.engine.results.VerifyResult` as a small HTML table: status, symbolic, numeric,
    steps."""
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
        cells.append(("detail", _detail(r.detail)))
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


class JupyterPrinter:
    r"""The printer behind :class:`~posproof.symbolic.engine.display.Printable`: a claim as Markdown and as its formula,
    a result as Markdown and HTML tables."""

    def markdown(self, obj) -> str | None:
        return result_markdown(obj) if isinstance(obj, VerifyResult) else repr_markdown(obj)

    def latex(self, obj) -> str | None:
        return None if isinstance(obj, VerifyResult) else repr_latex(obj)

    def html(self, obj) -> str | None:
        return result_html(obj) if isinstance(obj, VerifyResult) else None


PRINTER = JupyterPrinter()
