r"""Markdown of claims: blocks with ``$...$``/``$$...$$`` math (GitHub, Jupyter, MkDocs, MyST).

An export names its anchors for one of two readers (``anchors``): ``"mkdocs"`` (Python-Markdown's ``attr_list``:
``## Theorem 4.6. Title {#claim-ID}``) or ``"myst"`` (a MyST target line ``(claim-ID)=`` above the heading, which
Sphinx resolves links to); neither reads the other's form, so each export is written for one. ``None``: no anchors
(a claim printed alone).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable
from typing import Any

from posproof.printing.blocks import Block, blocks
from posproof.printing.prose import prose

#: The anchor forms :func:`blocks_markdown` writes.
ANCHORS = ("mkdocs", "myst")


def text_markdown(text: str, refs=None) -> str:
    r"""Prose in Markdown, references resolved through ``refs`` (a Numbering) where the prose printer takes it."""
    if refs is None:
        return prose(text, "markdown")
    if "refs" not in inspect.signature(prose).parameters:  # a printer without the keyword yet
        return prose(text, "markdown")
    loose: Callable[..., Any] = prose
    return loose(text, "markdown", refs=refs)


def anchored(heading: str, anchor: str, anchors: str | None) -> list[str]:
    r"""A heading line (or a paragraph: a figure) with its anchor in the form ``anchors`` reads."""
    if anchors is None or not anchor:
        return [heading]
    if anchors == "mkdocs":
        return [f"{heading} {{#{anchor}}}"]
    if anchors == "myst":
        return [f"({anchor})=", heading]
    raise ValueError(f"anchors must be one of {', '.join(ANCHORS)} or None, got {anchors!r}")


def display_anchor(anchor: str, anchors: str | None) -> list[str]:
    r"""The lines that make a displayed equation a link target: a MyST target, or an empty HTML anchor."""
    if anchors is None or not anchor:
        return []
    return [f"({anchor})="] if anchors == "myst" else [f'<a id="{anchor}"></a>', ""]


def claim_heading(b: Block, refs) -> str:
    r"""A claim's heading text: ``Theorem 4.6. Title`` where the numbering knows the claim, else the title."""
    target = refs.get(f"claim:{b.label}") if refs is not None else None
    if target is None or not target.number:
        return b.text
    word = b.code or target.word
    return f"{word} {target.number}. {b.text}" if word else f"{target.number}. {b.text}"


def blocks_markdown(
    bs: Iterable[Block],
    level: int = 3,
    *,
    refs=None,
    anchors: str | None = None,
    audience: str = "reference",
) -> str:
    r"""Blocks as Markdown: headings at ``level``, steps labelled ``(1)``, ``(2)`` … (a list would restart at 1
    after each displayed formula), statements numbered through ``refs``; strategies printed in the reference
    audience only."""
    out: list[str] = []
    p = lambda t: text_markdown(t, refs)  # noqa: E731
    for b in bs:
        if b.kind == "heading":
            text = prose(claim_heading(b, refs), "markdown")
            out += [*anchored(f"{'#' * level} {text}", f"claim-{b.label}" if b.label else "", anchors), ""]
        elif b.kind in ("para", "source", "checked"):
            out += [p(b.text), ""]
        elif b.kind in ("statement", "math"):
            tex = b.tex
            lead = ["**Statement.**", ""] if b.kind == "statement" and audience == "reference" else []
            if b.kind == "statement" and refs is not None and b.label:
                target = refs.get(b.label)
                if target is not None and target.number:
                    tex = f"{tex} \\tag{{{target.number}}}"
                    lead += display_anchor(target.anchor, anchors)
            out += [*lead, "$$", tex, "$$", ""]
        elif b.kind == "step":
            num = f"({b.number}) " if b.number else ""
            code = f" (`{b.code}`)" if b.code and audience == "reference" else ""
            if b.tex:
                out += [f"{num}{p(b.text)}{code}", "", "$$", b.tex, "$$", ""]
            else:
                out += [f"{num}{p(b.text)}{code}, the statement above", ""]
        elif b.kind == "table":
            out += [*table_markdown(b), ""]
    return "\n".join(out)


#: Inline math in Markdown.
MATH = re.compile(r"(?<![\\$])\$(?!\$)((?:\\.|[^$\\])+)\$")


def cell_markdown(text: str) -> str:
    r"""Markdown (already printed) fit for a table cell: ``|`` outside math escaped; inside math a bar is
    ``\vert`` and an escaped bar ``\Vert`` (a ``\|`` in math is TeX's norm, and Python-Markdown keeps it so)."""
    pieces = []
    last = 0
    for m in MATH.finditer(text):
        pieces.append(text[last : m.start()].replace("|", r"\|"))
        tex = m.group(1).replace(r"\|", r"\Vert ").replace("|", r"\vert ")
        pieces.append(f"${tex}$")
        last = m.end()
    pieces.append(text[last:].replace("|", r"\|"))
    return "".join(pieces)


def table_math_bars(table: str) -> str:
    r"""A Markdown table whose cells escaped a bar inside math as ``\|`` (which TeX reads as the norm ‖): each
    such bar as ``\vert``."""
    return MATH.sub(lambda m: "$" + m.group(1).replace(r"\|", r"\vert ") + "$", table)


def _cell(text: str) -> str:
    return cell_markdown(prose(text, "markdown"))


def table_markdown(b: Block) -> list[str]:
    r"""A ``table`` block as a GitHub table (a ``|`` in a cell escaped, in math ``\vert``); a table without heads
    gets an empty head row, which GitHub requires. Labels left-aligned; values left in a label-value table, else
    right."""
    ncols = max(len(r) for r in (b.head, *b.rows))
    head = [_cell(h) for h in b.head] if b.head else [""] * ncols
    rule = [":---"] + [":---" if ncols == 2 else "---:"] * (ncols - 1)
    rows = [head, rule] + [[_cell(c) for c in row] for row in b.rows]
    return ([prose(b.text, "markdown"), ""] if b.text else []) + ["| " + " | ".join(r) + " |" for r in rows]


def identity_markdown(c) -> str:
    return blocks_markdown(blocks(c))
