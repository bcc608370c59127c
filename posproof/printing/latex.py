r"""LaTeX of claims: blocks as a ``\subsection`` with paragraphs and displays (what the golden files and
the exported document hold).
"""

from __future__ import annotations

from collections.abc import Iterable

from .blocks import Block, blocks
from .prose import _tex_escape, prose

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
            shown = f"\n{_display_latex(b.tex)}" if b.tex else " (the statement above)"
            out.append(f"{num}{prose(b.text, 'latex')} {{\\small[{_tex_escape(b.code)}]}}{shown}")
        elif b.kind == "items":
            rows = "\n".join(
                f"\\item {prose(label, 'latex')}: \\texttt{{{_tex_breakable(value)}}}" for label, value in b.rows
            )
            out[-1] += "\n\\begin{itemize}\\setlength{\\itemsep}{0pt}\\raggedright\n" + rows + "\n\\end{itemize}"
    return "\n\n".join(out) + "\n"


def _tex_breakable(value: str) -> str:
    r"""A computed value in ``\texttt`` that may break after commas (long lists)."""
    return _tex_escape(value).replace(", ", r", \allowbreak{}")


def identity_latex(c) -> str:
    r"""One claim as a LaTeX subsection: title, source, statement, assumptions, the verified derivation."""
    return blocks_latex(blocks(c))


def topic_latex(claims) -> str:
    r"""Every claim of a topic, as LaTeX."""
    return "\n".join(identity_latex(c) for c in claims)
