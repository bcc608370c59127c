r"""JSON of claims: every step's LaTeX and SymPy string forms, the symbols with their assumptions, a fact's
computed rows.
"""

from __future__ import annotations

import json

import sympy as sp

from posproof.printing.blocks import fact_tables, method_text
from posproof.printing.equations import formula_tex
from posproof.printing.printers import latex, sstr
from posproof.printing.prose import prose
from posproof.symbolic.engine.core import Definition, Fact, Step

# ==============================================================================================================
# JSON
# ==============================================================================================================


def as_json(c) -> dict:
    r"""A JSON-ready description of one claim (LaTeX and SymPy string forms of every step)."""
    base = {"id": c.id, "kind": c.kind, "title": c.title, "topic": c.topic, "source": c.source}
    if c.formula is not None:
        base["formula"] = {"latex": formula_tex(c.formula), "sympy": _formula_str(c.formula)}
    if isinstance(c, Fact):
        return base | {
            "statement": c.statement,
            "claim": _jsonable(c.claim),
            "method": method_text(c),
            "definitions": [_definition_json(dfn) for dfn in c.definitions],
            "computed": [_table_json(t) for t in fact_tables(c)],
        }
    if isinstance(c, Definition):
        return base | _definition_json(c) | {"symbols": symbol_assumptions(c)}
    return base | {
        "assumptions": list(c.assumptions),
        "symbols": symbol_assumptions(c),
        "claim": {
            "lhs": latex(c.lhs),
            "rel": c.rel,
            "rhs": latex(c.rhs),
            "lhs_sympy": sp.sstr(c.lhs),
            "rhs_sympy": sp.sstr(c.rhs),
        },
        "given": [sp.sstr(g) for g in c.given],
        "steps": [_step_json(s) for s in c.steps],
    }


def _table_json(b) -> dict:
    r"""A fact's table: its column heads and rows, each cell as plain text (numbers as
    :func:`numeric.formatting.number` shows them) and as Markdown (math in ``$...$``)."""
    return {
        "caption": prose(b.text, "text"),
        "head": [prose(h, "text") for h in b.head],
        "rows": [[prose(cell, "text") for cell in row] for row in b.rows],
        "rows_markdown": [[prose(cell, "markdown") for cell in row] for row in b.rows],
    }


def _formula_str(formula) -> str:
    if isinstance(formula, (tuple, list)):
        return "; ".join(_formula_str(f) for f in formula)
    return sstr(formula)


_FACTS = ("integer", "even", "positive", "nonnegative", "real", "complex")


def symbol_assumptions(c) -> dict:
    r"""Each symbol of a claim with the SymPy assumptions it was declared with (``real``, ``integer``, ...)."""
    syms, mats = set(), set()
    for st in c.steps:
        for side in (st.lhs, st.rhs):
            if isinstance(side, sp.Basic):
                syms |= {s for s in side.free_symbols if isinstance(s, sp.Symbol)}
                syms |= {a.base.label for a in side.atoms(sp.Indexed)}
                mats |= side.atoms(sp.MatrixSymbol)
    out = {str(M): [f"matrix {sp.sstr(M.shape[0])} x {sp.sstr(M.shape[1])}"] for M in sorted(mats, key=str)}
    for s in sorted(syms, key=lambda s: s.name):
        facts = [f for f in _FACTS if s.assumptions0.get(f)]
        # Report only the strongest: positive integer implies real, complex, nonnegative...
        implied = {
            "integer": {"real", "complex"},
            "real": {"complex"},
            "positive": {"nonnegative", "real", "complex"},
            "nonnegative": {"real", "complex"},
            "even": {"integer", "real", "complex"},
        }
        strongest = [f for f in facts if not any(f in implied.get(g, ()) for g in facts)]
        out[s.name] = strongest or ["complex"]
    return out


def _step_json(s: Step) -> dict:
    return {
        "lhs": latex(s.lhs),
        "rel": s.rel,
        "rhs": latex(s.rhs),
        "why": s.why,
        "strategy": list(s.strategy),
        "lhs_sympy": sp.sstr(s.lhs),
        "rhs_sympy": sp.sstr(s.rhs),
    }


def _definition_json(dfn: Definition) -> dict:
    return {
        "assumptions": list(dfn.assumptions),
        "definition": {
            "lhs": latex(dfn.lhs),
            "rhs": latex(dfn.rhs),
            "lhs_sympy": sp.sstr(dfn.lhs),
            "rhs_sympy": sp.sstr(dfn.rhs),
            "why": dfn.why,
        },
        "implementation": dfn.implementation,
        "given": [sp.sstr(g) for g in dfn.given],
    }


def _jsonable(v):
    return json.loads(json.dumps(v, default=str))
