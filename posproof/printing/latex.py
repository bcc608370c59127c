r"""LaTeX of claims: blocks as a ``\subsection`` with paragraphs and displays (what the golden files and
the exported document hold), or, in the paper voice, as ``theorem``/``definition``/``lemma``/``computation``
environments of ``posproof.sty`` with the derivation in a ``proof``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from posproof.printing.blocks import Block, blocks
from posproof.printing.equations import LINE_WIDTH, tex_width
from posproof.printing.prose import prose, tex_escape
from posproof.printing.refs import Numbering

# ---- line widths -----------------------------------------------------------------------------------------------

#: Width units (:func:`printing.equations.tex_width`) per centimetre: :data:`LINE_WIDTH` is 16 cm of text.
PER_CM = LINE_WIDTH / 16.0

#: Named text widths: a column of a two-column ``article`` (about 8 cm) and the standalone document's 16 cm.
TEXTWIDTHS = {"twocolumn": 8.0, "onecolumn": 16.0}

_CM = {"cm": 1.0, "mm": 0.1, "in": 2.54, "pt": 2.54 / 72.27}


def text_width(spec: str | None) -> float:
    r"""A ``--textwidth`` (``8.5cm``, ``85mm``, ``3.3in``, ``240pt``, ``twocolumn``, ``onecolumn``) in the units of
    :func:`printing.equations.tex_width`; ``None``: :data:`LINE_WIDTH`.

    >>> text_width("twocolumn"), text_width("16cm"), text_width(None)
    (35.0, 70.0, 70.0)
    """
    if spec is None:
        return LINE_WIDTH
    if spec in TEXTWIDTHS:
        return TEXTWIDTHS[spec] * PER_CM
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(cm|mm|in|pt)\s*", spec)
    if m is None or float(m.group(1)) <= 0:
        raise ValueError(
            f"textwidth must be a length like 8.5cm, 85mm, 3.3in or 240pt, or twocolumn or onecolumn, not {spec!r}"
        )
    return float(m.group(1)) * _CM[m.group(2)] * PER_CM


# ---- LaTeX -----------------------------------------------------------------------------------------------------


def _display_latex(tex: str) -> str:
    return f"\\[\n{tex}\n\\]" if "\n" in tex else f"\\[ {tex} \\]"


def _fit(tex: str, width: float | None, room: str = r"\linewidth") -> str:
    r"""``tex`` as it is, or, wider than ``width``, scaled down to the line (``\posproofwide``)."""
    if width is None or tex_width(tex) <= width:
        return tex
    return r"\posproofwide{%s}{%s}" % (room, tex)


def _paper_display(tex: str, width: float | None, label: str = "", numbered: bool = False) -> str:
    if numbered:
        body = _fit(tex, None if width is None else width - 4, r"\dimexpr\linewidth-3em\relax")
        return f"\\begin{{equation}}\\label{{{label}}}\n{body}\n\\end{{equation}}"
    return _display_latex(_fit(tex, width))


def blocks_latex(
    bs: Iterable[Block],
    level: str = "subsection",
    *,
    refs: Numbering | None = None,
    numbered: bool = False,
    textwidth: float | None = None,
) -> str:
    r"""Blocks as LaTeX: a heading (``\subsection`` with a label ``claim:ID``), paragraphs, displays. Paper blocks
    (a heading whose ``code`` names its environment) print as that environment of ``posproof.sty``
    (``\begin{theorem}[title]\label{claim:ID}``), the statement as a labelled ``equation`` when ``numbered``, the
    steps in a ``proof``, the ``checked`` line small; displays wider than ``textwidth`` (the units of
    :func:`text_width`) are scaled to the line. ``refs`` resolves the prose's reference tokens."""
    bs = list(bs)
    if bs and bs[0].kind == "heading" and bs[0].code:
        return _paper_latex(bs, refs=refs, numbered=numbered, width=textwidth)
    out: list[str] = []
    for b in bs:
        if b.kind == "heading":
            out.append(f"% {b.label}\n\\{level}{{{prose(b.text, 'latex')}}}\\label{{claim:{b.label}}}")
        elif b.kind == "para":  # code names break only at dots: ragged right, so a line is never stretched thin
            text = prose(b.text, "latex")
            out.append(r"{\raggedright " + text + r"\par}" if r"\texttt" in text else text)
        elif b.kind == "statement":
            out.append("\\textbf{Statement.}\n" + _display_latex(b.tex))
        elif b.kind == "math":
            out[-1] += "\n" + _display_latex(b.tex)
        elif b.kind == "step":
            num = f"({b.number}) " if b.number else ""
            shown = f"\n{_display_latex(b.tex)}" if b.tex else " (the statement above)"
            out.append(f"{num}{prose(b.text, 'latex')} {{\\small[{tex_escape(b.code)}]}}{shown}")
        elif b.kind == "table":
            out[-1] += "\n" + table_latex(b)
    return "\n\n".join(out) + "\n"


def _paper_latex(bs: list[Block], *, refs: Numbering | None, numbered: bool, width: float | None) -> str:
    r"""Paper blocks: the claim's environment, its statement, then the derivation in a ``proof``."""
    tex = lambda t: prose(t, "latex", refs=refs)  # noqa: E731
    head = bs[0]
    env = head.code.lower()
    out = [f"% {head.label}\n\\begin{{{env}}}\\label{{claim:{head.label}}}\\posprooftitle{{{tex(head.text)}}}"]
    proof: list[str] = []
    target = out
    for b in bs[1:]:
        if b.kind == "source":
            target.append(r"{\small\raggedright %s\par}" % tex(b.text))  # a source's addresses never stretch a line
        elif b.kind == "statement":
            target.append(_paper_display(b.tex, width, b.label or "", numbered))
        elif b.kind == "para":
            text = tex(b.text)
            target.append(r"{\raggedright " + text + r"\par}" if r"\texttt" in text else text)
        elif b.kind == "math":
            target[-1] += "\n" + _paper_display(b.tex, width)
        elif b.kind == "table":
            target[-1] += "\n" + table_latex(b, refs=refs, paper=True)
        elif b.kind == "step":
            if target is out:
                target = proof
            num = f"({b.number}) " if b.number else ""
            shown = f"\n{_paper_display(b.tex, width)}" if b.tex else ""
            text = tex(b.text)
            if sum(len(m) for m in re.findall(r"\$([^$]*)\$", text)) > 60:  # much inline math: never stretch
                text = r"{\raggedright " + text + r"\par}"
            target.append(f"{num}{text}{shown}")
        elif b.kind == "checked":
            if target is proof:
                out.append("\\begin{proof}\n" + "\n\n".join(proof) + "\n\\end{proof}")
                proof, target = [], out
            out.append(r"\posproofchecked{%s}" % tex(b.text))
    if proof:
        out.append("\\begin{proof}\n" + "\n\n".join(proof) + "\n\\end{proof}")
    out = _close_environment(out, env)
    return "\n\n".join(out) + "\n"


def _close_environment(out: list[str], env: str) -> list[str]:
    r"""The environment ends after the statement part (before the ``proof``, or the ``checked`` line)."""
    end = f"\\end{{{env}}}"
    parts = [p for p in out if p != end]
    k = next((i for i, p in enumerate(parts) if p.startswith(("\\begin{proof}", r"\posproofchecked"))), len(parts))
    return parts[:k] + [end] + parts[k:]


def statement_latex(bs: Iterable[Block], *, numbered: bool = False, textwidth: float | None = None) -> str:
    r"""Only the statement's display (``derive --statement-only``): a labelled ``equation`` when ``numbered``."""
    for b in bs:
        if b.kind == "statement":
            return _paper_display(b.tex, textwidth, b.label or "", numbered) + "\n"
    raise ValueError("statement_only: this claim has no statement formula")


def table_latex(b: Block, refs: Numbering | None = None, *, paper: bool = False) -> str:
    r"""A ``table`` block as a ``tabular`` between rules: the label column ragged right; a label and its value
    (two columns) each up to half the line (a long value wraps), else the values right-aligned, one column each;
    the heads in bold, set apart by a rule. ``paper``: ``booktabs`` rules (``posproof.sty``), and the lead-in kept
    on the page of its table (one unbreakable block)."""
    ncols = max(len(r) for r in (b.head, *b.rows))

    def row(cells) -> str:  # a row opening with "[" would be read as the optional argument of the \\ before it
        out = " & ".join(cells)
        return ("{}" + out if out.startswith("[") else out) + r" \\"

    tex = lambda t: prose(t, "latex", refs=refs)  # noqa: E731
    ragged = r">{\raggedright\arraybackslash}p{%s\linewidth}"
    if ncols == 2:
        spec, sep = ragged % "0.45" + ragged % "0.45", "6pt"
    else:
        spec, sep = ragged % ("0.22" if ncols > 6 else "0.36") + "r" * (ncols - 1), ("4pt" if ncols > 6 else "6pt")
    top, mid, bottom = (r"\toprule", r"\midrule", r"\bottomrule") if paper else (r"\hline",) * 3
    lines = [tex(b.text)] if b.text else []
    fit, end = (r"\noindent\posprooffit{%", "}") if paper else ("", "")  # paper: scaled to the line if wider
    lines += [r"\par\smallskip{\small\setlength{\tabcolsep}{%s}%s" % (sep, fit), r"\begin{tabular}{@{}%s@{}}" % spec]
    lines += [top]
    if b.head:
        lines += [row(r"\textbf{%s}" % tex(h) if h else "" for h in b.head), mid]
    lines += [row(tex(cell) for cell in cells) for cells in b.rows]
    lines += [bottom, r"\end{tabular}" + end + r"}\par\smallskip"]
    if paper:
        return "\\par\\noindent\\begin{minipage}{\\linewidth}\n" + "\n".join(lines) + "\n\\end{minipage}\\par"
    return "\n".join(lines)


def identity_latex(c, *, audience: str = "reference", **kw) -> str:
    r"""One claim as LaTeX: title, source, statement, assumptions, the verified derivation (``audience="paper"``:
    the claim's environment; ``kw``: :func:`blocks_latex`'s ``refs``, ``numbered``, ``textwidth``)."""
    return blocks_latex(blocks(c, audience=audience), **kw)


def topic_latex(claims) -> str:
    r"""Every claim of a topic, as LaTeX."""
    return "\n".join(identity_latex(c) for c in claims)
