r"""Plain text of claims for the terminal: prose in Unicode, the statement drawn by ``sympy.pretty``, steps as
``sstr``.
"""

from __future__ import annotations

from sympy.logic.boolalg import BooleanAtom

from posproof.printing.blocks import Block, blocks, fact_tables, method_text, why_text
from posproof.printing.equations import formula_text, given_plain, named
from posproof.printing.printers import sstr
from posproof.printing.prose import prose
from posproof.printing.refs import Numbering
from posproof.symbolic.engine.core import Definition, Fact

# ---- plain text --------------------------------------------------------------------------------------------------


def _indent(text: str, by: str = "    ") -> str:
    return "\n".join(by + line if line.strip() else line for line in text.splitlines())


def _notes(c) -> list[str]:
    notes = (getattr(c, "notes", "") or "").strip()
    return [f"  note: {prose(notes, 'text')}"] if notes else []


def table_text(b: Block, indent: str = "    ") -> list[str]:
    r"""A ``table`` block as aligned columns of Unicode text (the heads underlined with rules)."""
    rows = [[prose(cell, "text") for cell in row] for row in b.rows]
    if b.head:
        rows.insert(0, [prose(h, "text") for h in b.head])
    ncols = max((len(r) for r in rows), default=0)
    widths = [max(len(r[j]) for r in rows if j < len(r)) for j in range(ncols)]
    lines = ["  ".join(cell.ljust(widths[j]) for j, cell in enumerate(r)).rstrip() for r in rows]
    if b.head:
        lines.insert(1, "  ".join("-" * w for w in widths))
    return ([indent + prose(b.text, "text")] if b.text else []) + [indent + line for line in lines]


def paper_text(c, refs: Numbering | None = None) -> str:
    r"""One claim in the paper voice (:func:`blocks.paper_blocks`) as plain text: the heading with its environment
    word, the prose in Unicode, the statement drawn by ``sympy.pretty``, steps and their justifications."""
    out = []
    for b in blocks(c, audience="paper"):
        if b.kind == "heading":
            out.append(f"{b.code}. {prose(b.text, 'text', refs=refs)}")
        elif b.kind == "statement":
            out.append(_indent(formula_text(c.formula)))
        elif b.kind == "step":
            number = f"{b.number}. " if b.number else ""
            out.append(f"  {number}{prose(b.text, 'text', refs=refs)}")
        elif b.kind == "table":
            out += table_text(b)
        elif b.kind == "math":
            continue  # displayed LaTeX: the terminal shows the statement and the steps' prose
        else:
            out.append(f"  {prose(b.text, 'text', refs=refs)}")
    return "\n".join(out) + "\n"


def claim_text(c, audience: str = "reference") -> str:
    r"""One claim for the terminal: prose in Unicode, the statement drawn by ``sympy.pretty``, steps as ``sstr``;
    ``audience="paper"``: :func:`paper_text`."""
    if audience == "paper":
        return paper_text(c)
    if audience != "reference":
        raise ValueError(f"audience must be reference or paper, not {audience!r}")
    out = [f"{c.id} ({c.kind}): {prose(c.title, 'text')}", f"  source: {prose(c.source, 'text')}"]
    if c.formula is not None and not isinstance(c.formula, BooleanAtom):  # never the word True
        out += ["  statement:", _indent(formula_text(c.formula))]
    if isinstance(c, Definition):
        out += [f"  assume: {prose(a, 'text')}" for a in c.assumptions]
        rhs, parts = named(c.rhs)
        out.append(f"  by definition: {sstr(c.lhs)} := {sstr(rhs)}")
        out += [f"    where {sstr(name)} = {sstr(shown)}" for name, shown in parts]
        out.append(f"       ({prose(c.why, 'text')}; checked: {c.implementation} computes it)")
        return "\n".join(out + _notes(c)) + "\n"
    if isinstance(c, Fact):
        out.append(f"  {prose(c.statement, 'text')}")
        for dfn in c.definitions:
            out.append(f"  where {sstr(dfn.lhs)} := {sstr(dfn.rhs)}  (checked: {dfn.implementation})")
        out.append(f"  computed with {prose(method_text(c), 'text')}:")
        for table in fact_tables(c):
            out += table_text(table)
        return "\n".join(out + _notes(c)) + "\n"
    out += [f"  given: {g}  (assumed beyond the symbols' domains)" for g in given_plain(c)]
    out += [f"  assume: {prose(a, 'text')}" for a in c.assumptions]
    shown = [b.tex for b in blocks(c) if b.kind == "step"]  # "" for a step identical to the statement
    for k, st in enumerate(c.steps, 1):
        same = k <= len(shown) and not shown[k - 1]
        out.append(f"  {k}. (the statement above)" if same else f"  {k}. {sstr(st.lhs)} {st.rel} {sstr(st.rhs)}")
        out.append(f"       because {prose(why_text(st), 'text')}")
    if not c.chained:
        out.append(f"  hence {sstr(c.lhs)} {c.rel} {sstr(c.rhs)}  [{', '.join(c.strategy)}]")
    return "\n".join(out + _notes(c)) + "\n"


def identity_text(c, audience: str = "reference") -> str:
    return claim_text(c, audience)
