r"""A claim as :class:`Block`\ s: heading, source, statement, assumptions, then the derivation (steps and
their justifications), the definition, or the computed table. Every output format writes the same blocks, so
every export shows the same derivation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

import mpmath
import sympy as sp

from posproof.numeric.formatting import number as _number
from posproof.numeric.formatting import show as _show
from posproof.symbolic import settings
from posproof.symbolic.core import RELATIONS, Definition, Fact, Step

from .equations import display, formula_tex, formula_text, given_tex
from .prose import segments

# ==============================================================================================================
# Blocks: one claim as headings, paragraphs, displayed math, steps and tables; each format writes them.
# ==============================================================================================================


@dataclass(frozen=True)
class Block:
    r"""One piece of a rendered claim. ``kind``: ``heading`` (``text`` prose, ``label``), ``para`` (prose),
    ``math`` (``tex``, displayed), ``step`` (``number``, ``text`` prose, ``code`` strategies, ``tex``), ``items``
    (``rows`` of ``(prose label, plain value)``), ``statement`` (``tex`` and ``plain``)."""

    kind: str
    text: str = ""
    tex: str = ""
    label: str = ""
    code: str = ""
    number: int = 0
    plain: str = ""
    rows: tuple = field(default_factory=tuple)


#: A decimal written out in a computed value (a fact may format its own numbers).
_DECIMAL = re.compile(r"(?<![\w.])-?\d+\.\d+(?:e[-+]?\d+)?(?![\w.])")


def _digits(literal: str) -> int:
    mantissa = literal.lstrip("-").split("e")[0].replace(".", "").lstrip("0")
    return len(mantissa)


def readable(value: str) -> str:
    r"""A computed value with every decimal of more than 8 significant digits shown as the one formatter shows
    a number (:func:`numeric.formatting.number`, 6 digits): a reader never gets a float's 15-17.

    >>> readable("[0.009557537149, 0.3455564858, 2.5]")
    '[0.00955754, 0.345556, 2.5]'
    """
    return _DECIMAL.sub(lambda m: _number(mpmath.mpf(m.group(0))) if _digits(m.group(0)) > 8 else m.group(0), value)


def computed(c: Fact) -> list[tuple[str, str]]:
    r"""The rows a fact computes, as ``(label, value)`` strings (recomputed now, at the default precision)."""
    with mpmath.workdps(settings.DEFAULT_DPS):
        _, table = c.compute(settings.DEFAULT_DPS)
    return [(str(label), readable(_show(value))) for label, value in table]


def _method(c) -> str:
    return c.describe_method(settings.DEFAULT_DPS)


def _why(step: Step, proved: bool = True) -> str:
    return f"{step.why} [{', '.join(step.strategy)}]" if proved else step.why


def _assumptions(c) -> list[Block]:
    if not c.assumptions:
        return []
    return [Block("para", "Assumptions: " + "; ".join(c.assumptions) + ".")]


def _given(c) -> list[Block]:
    r"""The hypotheses a theorem assumes beyond its symbols' assumptions (``given``), printed with its statement."""
    tex = given_tex(c)
    if not tex:
        return []
    return [Block("para", "Given " + ", ".join(f"${t}$" for t in tex) + " (assumed beyond the symbols' domains).")]


def _definition_math(dfn: Definition) -> Block:
    return Block("math", tex=display(dfn.lhs, r"\mathrel{:=}", dfn.rhs))


def blocks(c) -> list[Block]:
    r"""One claim as :class:`Block`\ s: heading, source, statement, assumptions, then the derivation (steps and
    their justifications), the definition, or the computed table; last its ``notes`` (prose), if any."""
    out = _blocks(c)
    notes = (getattr(c, "notes", "") or "").strip()
    if notes:
        out.append(Block("para", f"Note. {notes}"))
    return out


def _blocks(c) -> list[Block]:
    out = [
        Block("heading", c.title, label=c.id),
        Block("para", f"`{c.id}` · {c.kind} · Source: {c.source}."),
    ]
    if c.formula is not None and not isinstance(c.formula, sp.logic.boolalg.BooleanAtom):  # never the word True
        out.append(Block("statement", tex=formula_tex(c.formula), plain=formula_text(c.formula)))
    if isinstance(c, Definition):
        out += _assumptions(c)
        out += [Block("para", f"By definition ({c.why}):"), _definition_math(c)]
        out.append(Block("para", f"Checked: `{c.implementation}` computes this formula."))
        return out
    if isinstance(c, Fact):
        out.append(Block("para", c.statement))
        for dfn in c.definitions:
            out.append(Block("para", f"Where, by definition ({dfn.why}; `{dfn.implementation}` checked):"))
            out.append(_definition_math(dfn))
        out.append(Block("para", f"Computed with {_method(c)}:"))
        out.append(Block("items", rows=tuple(computed(c))))
        return out
    out += _given(c) + _assumptions(c)
    statement = next((b.tex for b in out if b.kind == "statement"), None)
    numbered = len(c.steps) > 1
    for k, st in enumerate(c.steps, 1):
        lhs = st.lhs if (k == 1 or not c.chained) else None
        rel = RELATIONS[st.rel]
        tex = display(lhs, rel, st.rhs)
        if tex == statement:  # the step is the statement itself: printed once, above
            tex = ""
        out.append(Block("step", st.why, tex=tex, code=", ".join(st.strategy), number=k if numbered else 0))
    if not c.chained:
        out.append(Block("para", f"Hence [{', '.join(c.strategy)}]:"))
        out.append(Block("math", tex=display(c.lhs, RELATIONS[c.rel], c.rhs)))
    return out


def math_of(bs: Iterable[Block]) -> list[tuple[str, bool]]:
    r"""Every formula in some blocks as ``(tex, display)``: displayed ones and the inline math of the prose."""
    out = []
    for b in bs:
        if b.tex:
            out.append((b.tex, True))
        texts = [b.text] + [label for label, _ in b.rows]
        for t in texts:
            out += [(s, False) for kind, s in segments(t) if kind == "math"]
    return out
