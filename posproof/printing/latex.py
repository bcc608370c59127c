r"""LaTeX of claims: blocks as a ``\subsection`` with paragraphs and displays (what the golden files and
the exported document hold).
"""

from __future__ import annotations

from collections.abc import Iterable

from posproof.printing.blocks import Block, blocks
from posproof.printing.prose import prose, tex_escape

# ---- LaTeX -----------------------------------------------------------------------------------------------------


def _display_latex(tex: str) -> str:
    return f"\\[\n{tex}\n\\]" if "\n" in tex else f"\\[ {tex} \\]"


def blocks_latex(bs: Iterable[Block], level: str = "subsection") -> str:
    r"""Blocks as LaTeX: a heading (``\subsection`` with a label ``claim:ID``), paragraphs, displays."""
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


def table_latex(b: Block) -> str:
    r"""A ``table`` block as a ``tabular`` between rules: the label column ragged right; a label and its value
    (two columns) each up to half the line (a long value wraps), else the values right-aligned, one column each;
    the heads in bold, set apart by a rule."""
    ncols = max(len(r) for r in (b.head, *b.rows))

    def row(cells) -> str:  # a row opening with "[" would be read as the optional argument of the \\ before it
        out = " & ".join(cells)
        return ("{}" + out if out.startswith("[") else out) + r" \\"

    tex = lambda t: prose(t, "latex")  # noqa: E731
    ragged = r">{\raggedright\arraybackslash}p{%s\linewidth}"
    if ncols == 2:
        spec, sep = ragged % "0.45" + ragged % "0.45", "6pt"
    else:
        spec, sep = ragged % ("0.22" if ncols > 6 else "0.36") + "r" * (ncols - 1), ("4pt" if ncols > 6 else "6pt")
    lines = [prose(b.text, "latex")] if b.text else []
    lines += [r"\par\smallskip{\small\setlength{\tabcolsep}{%s}" % sep, r"\begin{tabular}{@{}%s@{}}" % spec, r"\hline"]
    if b.head:
        lines += [row(r"\textbf{%s}" % tex(h) if h else "" for h in b.head), r"\hline"]
    lines += [row(tex(cell) for cell in cells) for cells in b.rows]
    lines += [r"\hline", r"\end{tabular}}\par\smallskip"]
    return "\n".join(lines)


def identity_latex(c) -> str:
    r"""One claim as a LaTeX subsection: title, source, statement, assumptions, the verified derivation."""
    return blocks_latex(blocks(c))


def topic_latex(claims) -> str:
    r"""Every claim of a topic, as LaTeX."""
    return "\n".join(identity_latex(c) for c in claims)
