r"""A fact's computed values: a real table with typeset column heads in every format, every number
at most :data:`numeric.formatting.DIGITS` significant digits, no Python repr and no list of quoted strings."""

import json
import re

import mpmath
import numpy as np
import pytest
from posproof.numeric.formatting import DIGITS
from posproof.symbolic.engine import settings
from posproof.symbolic.engine.core import Fact

from posproof.printing import blocks, prose
from posproof.printing.json import as_json
from tests.claims import CLAIMS, claim_blocks, rendered

FACTS = [c for c in CLAIMS if isinstance(c, Fact)]

#: What a Python value printed as is looks like: a repr, a list of quoted strings.
REPR = re.compile(r"np\.float64\(|mpf\(|mpc\(|array\(|Decimal\(|\[['\"][^'\"]*['\"], ['\"]|\{['\"]")
#: A cell that is a Python mapping's repr (``'draws': 12``).
MAPPING = re.compile(r"['\"][^'\"]*['\"]: ")
#: A value cell that is a Python list in brackets.
LIST = re.compile(r"^\[.*\]$")
#: A decimal number written out (not inside a name or an identifier).
DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?:e[-+]?\d+)?(?![\w.])")


def _significant(literal: str) -> int:
    return len(literal.split("e")[0].replace(".", "").lstrip("0"))


def _cells(c) -> list[tuple[str, bool]]:
    r"""Every cell of a fact's tables, with whether it is a value (not a label)."""
    tables = [b for b in claim_blocks(c.id) if b.kind == "table"]
    assert tables, f"{c.id}: no table of computed values"
    return [(cell, j > 0) for t in tables for row in (t.head, *t.rows) for j, cell in enumerate(row)]


@pytest.mark.parametrize("fact", FACTS, ids=[c.id for c in FACTS])
def test_every_fact_exports_its_values_as_a_table_of_readable_numbers(fact):
    for cell, value in _cells(fact):
        assert not REPR.search(cell) and not MAPPING.search(cell), (fact.id, cell)
        assert not (value and LIST.search(cell)), (fact.id, cell)
        too_long = [d for d in DECIMAL.findall(cell) if _significant(d) > DIGITS]
        assert not too_long, (fact.id, cell, too_long)
    latex = rendered(fact.id, "latex")
    assert "\\begin{tabular}" in latex and "\\begin{itemize}" not in latex
    assert "\\hline" in latex and not REPR.search(latex)
    markdown = rendered(fact.id, "markdown")
    assert re.search(r"^\| .* \|\n\| :--- \|", markdown, re.M), fact.id
    html = rendered(fact.id, "html")
    assert '<table class="computed">' in html and "<li>" not in html
    text = rendered(fact.id, "text")
    assert not REPR.search(text) and "computed:" not in text
    data = as_json(fact)["computed"]
    assert data and all(t["rows"] for t in data)
    assert not [cell for t in data for row in t["rows"] for cell in row if REPR.search(cell)]
    json.dumps(data)


#: ASCII math in a label outside its ``$...$``: a caret, a subscript glued to a letter, an ASCII relation, a norm
#: or absolute value in bars, a function applied in ASCII, a Greek letter spelled out, a ``²``.
ASCII_LABEL = re.compile(
    r"\^|(?<=[A-Za-z])_(?=\w)|>=|<=|!=|\||\b(?:conj|sqrt|sin|cos|exp|ln|log|Re|phi)\(|(?<=[\w)])²"
    r"|\b(?:theta|zeta|gamma|lambda|sigma|phi)(?:_\w+)?\b"
)


def _ascii_math(label: str) -> bool:
    return any(kind == "text" and ASCII_LABEL.search(s) for kind, s in prose.segments(label))


@pytest.mark.parametrize("fact", FACTS, ids=[c.id for c in FACTS])
def test_every_label_writes_its_mathematics_in_dollars_and_the_claim_uses_the_same_keys(fact):
    value, table = fact.compute(settings.DEFAULT_DPS)
    labels = [str(label) for label, _ in table]
    labels += [str(k) for _, v in table if isinstance(v, dict) for k in v]
    if isinstance(fact.claim, dict):
        assert set(map(str, fact.claim)) == set(map(str, value)), fact.id  # the claim names what was computed
        labels += [str(k) for k in fact.claim] + [str(k) for v in fact.claim.values() if isinstance(v, dict) for k in v]
    assert not [label for label in labels if _ascii_math(label)], fact.id
    text = rendered(fact.id, "text")
    assert "$" not in text.split("computed with", 1)[1].split("\n  note:", 1)[0], fact.id  # labels typeset


def test_a_label_value_table_has_typeset_heads_in_every_format():
    fact = next(c for c in FACTS if c.id == "properties-rope-monotone-range")
    latex = rendered(fact.id, "latex")
    assert r"\textbf{$\varphi(K + 1)$}" in latex
    assert "| default | $64$ | $42.3443$ | $42.3814$ |" in rendered(fact.id, "markdown")
    assert '<th scope="col">' in rendered(fact.id, "html")


def test_values_are_cells_of_numbers_in_math():
    assert blocks.value_cell([np.float64(64.0), mpmath.mpf("42.34432321769492")]) == "$64$, $42.3443$"
    assert blocks.value_cell("0.009557537149") == "$0.00955754$"
    assert blocks.value_cell("60611.") == "$60611$"
    assert blocks.value_cell(mpmath.mpf("6.0288706718976898e-5")) == r"$6.02887 \times 10^{-5}$"
    assert blocks.value_cell("below 1e-15") == r"below $1 \times 10^{-15}$"
    assert blocks.value_cell("0..28") == "$0$–$28$"
    assert blocks.value_cell(True) == "yes" and blocks.value_cell(np.bool_(False)) == "no"
    assert blocks.value_cell("-999/2") == "$-999/2$"
    assert blocks.value_cell("phi(0, 1) = 0 != phi(2, 3) = 1") == r"$\varphi(0, 1) = 0 \ne \varphi(2, 3) = 1$"
    assert blocks.value_cell([[1, 2], [3, 4]]).startswith(r"$\left(\begin{matrix}")
    assert blocks.value_cell({"draws": 12, "bound holds": 9}) == "draws $12$, bound holds $9$"


def test_a_latex_row_opening_with_a_bracket_is_not_an_optional_argument():
    b = blocks.Block("table", head=blocks.VALUE_HEAD, rows=(("[0, 1]: x", "$1$"),))
    from posproof.printing.latex import table_latex

    assert "\n{}[0, 1]: x & $1$" in table_latex(b)
