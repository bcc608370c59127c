r"""Markdown of claims: blocks with ``$...$``/``$$...$$`` math (GitHub, Jupyter, MkDocs)."""

from __future__ import annotations

from collections.abc import Iterable

from .blocks import Block, blocks
from .prose import prose

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
        elif b.kind == "items":
            out += [f"- {prose(label, 'markdown')}: `{value}`" for label, value in b.rows] + [""]
    return "\n".join(out)


def identity_markdown(c) -> str:
    return blocks_markdown(blocks(c))
