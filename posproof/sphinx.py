r"""A Sphinx extension that pulls a claim into a document at build time: ``extensions = ["posproof.sphinx"]``.

``.. posproof:: CLAIM-ID`` (MyST: ````{posproof} CLAIM-ID````) inserts the claim in the paper voice, its displays
as math blocks and its prose as paragraphs with inline math; ``:statement-only:`` keeps the heading and the
statement, ``:audience: reference`` prints the reference detail. The claim is a link target ``claim-ID`` that the
role ``:claim:`CLAIM-ID``` links to (the link reads as the claim's title). An unknown id is a warning naming it
(so ``sphinx-build -W`` fails).
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from posproof.printing.blocks import Block, blocks
from posproof.printing.prose import segments
from posproof.printing.refs import TOKEN

LOGGER = logging.getLogger(__name__)

#: The audiences the directive's ``:audience:`` option takes.
AUDIENCES = ("paper", "reference")


def anchor(claim_id: str) -> str:
    r"""The link target of a claim: ``claim-ID`` (docutils normalises it to lower case)."""
    return nodes.make_id(f"claim-{claim_id}")


def claim(claim_id: str):
    r"""The catalogue's claim with this id (``ValueError`` naming it if there is none)."""
    from posproof.symbolic import registry

    return registry.get(claim_id)


def reference(claim_id: str, title: str) -> nodes.Node:
    r"""A link to a claim's target, reading ``title``."""
    ref = addnodes.pending_xref(
        "", refdomain="std", reftype="ref", reftarget=anchor(claim_id), refexplicit=True, refwarn=True
    )
    span = nodes.inline()
    span.extend(inline(title))
    ref += span
    return ref


def inline(text: str) -> list[nodes.Node]:
    r"""Prose as text, ``math`` and literal nodes; a ``[[claim:ID]]`` token a link to that claim."""
    out: list[nodes.Node] = []
    for kind, piece in segments(text):
        if kind == "math":
            out.append(nodes.math(piece, piece))
        elif kind == "code":
            out.append(nodes.literal(piece, piece))
        else:
            last = 0
            for m in TOKEN.finditer(piece):
                out.append(nodes.Text(piece[last : m.start()]))
                key = m.group("key")
                out.append(reference(key, key) if m.group("kind") == "claim" else nodes.literal(key, key))
                last = m.end()
            out.append(nodes.Text(piece[last:]))
    return out


def math_block(tex: str, docname: str) -> nodes.math_block:
    node = nodes.math_block(tex, tex, docname=docname, number=None, label=None, nowrap=False)
    return node


def paragraph(text: str, lead: str = "") -> nodes.paragraph:
    p = nodes.paragraph()
    if lead:
        p += nodes.strong(lead, lead)
        p += nodes.Text(" ")
    p.extend(inline(text))
    return p


def table(b: Block) -> nodes.table:
    r"""A ``table`` block as a docutils table (cells as prose)."""
    ncols = max(len(r) for r in (b.head, *b.rows))
    tbl = nodes.table()
    group = nodes.tgroup(cols=ncols)
    tbl += group
    group.extend(nodes.colspec(colwidth=1) for _ in range(ncols))

    def row(cells) -> nodes.row:
        r = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            entry += paragraph(str(cell))
            r += entry
        return r

    if b.head:
        head = nodes.thead()
        head += row(b.head)
        group += head
    body = nodes.tbody()
    body.extend(row(cells) for cells in b.rows)
    group += body
    return tbl


def claim_nodes(bs: list[Block], docname: str, *, statement_only: bool = False, audience: str = "paper") -> list:
    r"""The blocks of one claim as docutils nodes."""
    out: list[nodes.Node] = []
    for b in bs:
        if b.kind == "heading":
            word = f"{b.code}." if b.code else ""
            out.append(paragraph(b.text, word))
        elif b.kind == "statement":
            out.append(math_block(b.tex, docname))
        elif statement_only:
            continue
        elif b.kind in ("para", "source", "checked"):
            out.append(paragraph(b.text))
        elif b.kind == "math":
            out.append(math_block(b.tex, docname))
        elif b.kind == "step":
            num = f"({b.number}) " if b.number else ""
            code = f" ({b.code})" if b.code and audience == "reference" else ""
            out.append(paragraph(num + b.text + code + ("" if b.tex else ", the statement above")))
            if b.tex:
                out.append(math_block(b.tex, docname))
        elif b.kind == "table":
            if b.text:
                out.append(paragraph(b.text))
            out.append(table(b))
    return out


class PosproofDirective(SphinxDirective):
    r"""``.. posproof:: CLAIM-ID``: the claim's statement or derivation, a target ``claim-ID``."""

    required_arguments = 1
    has_content = False
    option_spec = {
        "statement-only": directives.flag,
        "audience": lambda arg: directives.choice(arg, AUDIENCES),
    }

    def run(self) -> list[nodes.Node]:
        claim_id = self.arguments[0].strip()
        try:
            c = claim(claim_id)
        except ValueError as e:
            LOGGER.warning("posproof: %s", e, location=self.get_location())
            return []
        audience = self.options.get("audience", "paper")
        name = anchor(claim_id)
        container = nodes.container(classes=["posproof-claim"])
        container["ids"].append(name)
        container["names"].append(name)
        self.state.document.note_explicit_target(container)
        statement_only = "statement-only" in self.options
        container.extend(
            claim_nodes(
                blocks(c, audience=audience), self.env.docname, statement_only=statement_only, audience=audience
            )
        )
        return [container]


def claim_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    r"""``:claim:`CLAIM-ID```: a link to the claim's target, reading its title (``Theorem`` if it has none)."""
    claim_id = text.strip()
    try:
        c = claim(claim_id)
    except ValueError as e:
        msg = inliner.reporter.warning(f"posproof: {e}", line=lineno)
        return [nodes.literal(rawtext, claim_id)], [msg]
    return [reference(claim_id, getattr(c, "title", "") or "Theorem")], []


def setup(app) -> dict[str, Any]:
    app.add_directive("posproof", PosproofDirective)
    app.add_role("claim", claim_role)
    from posproof import __version__

    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
