r"""Markdown of claims: blocks with ``$...$``/``$$...$$`` math (GitHub, Jupyter, MkDocs)."""

from __future__ import annotations

from collections.abc import Iterable

from posproof.printing.blocks import Block, blocks
from posproof.printing.prose import prose

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
            if b.tex:
                out += [f"{num}{prose(b.text, 'markdown')} (`{b.code}`)", "", "$$", b.tex, "$$", ""]
            else:
                out += [f"{num}{prose(b.text, 'markdown')} (`{b.code}`), the statement above", ""]
        elif b.kind == "table":
            out += [*table_markdown(b), ""]
    return "\n".join(out)


def _cell(text: str) -> str:
    return prose(text, "markdown").replace("|", r"\|")


def table_markdown(b: Block) -> list[str]:
    r"""A ``table`` block as a GitHub table (a ``|`` in a cell escaped); a table without heads gets an empty
    head row, which GitHub requires. Labels left-aligned; values left in a label-value table, else right."""
    ncols = max(len(r) for r in (b.head, *b.rows))
    head = [_cell(h) for h in b.head] if b.head else [""] * ncols
    rule = [":---"] + [":---" if ncols == 2 else "---:"] * (ncols - 1)
    rows = [head, rule] + [[_cell(c) for c in row] for row in b.rows]
    return ([prose(b.text, "markdown"), ""] if b.text else []) + ["| " + " | ".join(r) + " |" for r in rows]


def identity_markdown(c) -> str:
    return blocks_markdown(blocks(c))
