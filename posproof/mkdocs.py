r"""A Python-Markdown extension (MkDocs: ``markdown_extensions: [posproof.mkdocs]``) that pulls a claim into a
page at build time: a line ``{{ posproof CLAIM-ID }}`` or ``!posproof CLAIM-ID`` (``!posproof CLAIM-ID
statement``: the heading and the statement only) becomes the claim's Markdown in the paper voice, its heading
anchored ``{#claim-ID}`` (``attr_list``, which the extension turns on), math as ``$...$``/``$$...$$`` for
``pymdownx.arithmatex`` (``generic: true``). An unknown id is a warning naming it (``mkdocs build --strict``
fails) and a line saying so on the page.
"""

from __future__ import annotations

import logging
import re

from markdown import Extension, Markdown
from markdown.extensions.attr_list import AttrListExtension
from markdown.preprocessors import Preprocessor

from posproof.printing.blocks import blocks
from posproof.printing.markdown import blocks_markdown

LOGGER = logging.getLogger("mkdocs.plugins.posproof")

#: A line that asks for a claim.
LINE = re.compile(
    r"^\s*(?:\{\{\s*posproof\s+(?P<a>[\w.-]+)(?:\s+(?P<sa>statement))?\s*\}\}"
    r"|!posproof\s+(?P<b>[\w.-]+)(?:\s+(?P<sb>statement))?)\s*$"
)


def claim_markdown(claim_id: str, *, statement_only: bool = False, level: int = 3) -> str:
    r"""The claim's Markdown as the extension inserts it (``ValueError`` naming an unknown id)."""
    from posproof.symbolic import registry

    c = registry.get(claim_id)
    bs = blocks(c, audience="paper")
    if statement_only:
        bs = [b for b in bs if b.kind in ("heading", "statement")]
    return blocks_markdown(bs, level, anchors="mkdocs", audience="paper")


class ClaimPreprocessor(Preprocessor):
    r"""Each line naming a claim replaced by the claim's Markdown."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        for line in lines:
            m = LINE.match(line)
            if m is None:
                out.append(line)
                continue
            claim_id = m.group("a") or m.group("b")
            try:
                text = claim_markdown(claim_id, statement_only=bool(m.group("sa") or m.group("sb")))
            except ValueError as e:
                LOGGER.warning("posproof: %s", e)
                out += [f"**posproof: unknown claim id `{claim_id}`**", ""]
                continue
            out += ["", *text.splitlines(), ""]
        return out


class PosproofExtension(Extension):
    r"""The extension: the claim lines, and ``attr_list`` for the headings' anchors."""

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's name
        if "attr_list" not in md.treeprocessors:
            AttrListExtension().extendMarkdown(md)
        md.preprocessors.register(ClaimPreprocessor(md), "posproof", 28)


def makeExtension(**kwargs) -> PosproofExtension:  # noqa: N802 - Python-Markdown's name
    return PosproofExtension(**kwargs)
