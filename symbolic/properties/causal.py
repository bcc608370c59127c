r"""The three rules for no position code with a causal mask: shift-invariant, neither symmetric nor monotone."""

from __future__ import annotations

import numpy as np
import sympy as sp
from posproof.numeric.transformer_xl import causal_mask
from posproof.symbolic import sources, tables
from posproof.symbolic.engine.core import Fact
from posproof.symbolic.properties.common import RULES_SOURCE, TOPIC, varphi
from posproof.symbolic.symbols import m, n

# ================================================================================================================
# No position code, with a causal mask.
# ================================================================================================================


def _causal(dps: int, transpose: bool = False):
    big = causal_mask(32, mlen=0)  # (32, 32): key j visible to query i iff j <= i
    if transpose:
        big = big.T
    size = 16
    invariant = all(np.array_equal(big[sh : sh + size, sh : sh + size], big[:size, :size]) for sh in range(17))
    bias = np.where(big, 0.0, -np.inf)  # the mask as an additive bias
    row = bias[15, :16]
    visible = row[np.isfinite(row)]
    value = {
        "translation invariant": invariant,
        "symmetric": bool(np.array_equal(big, big.T)),
        "monotone in $|m - n|$": bool(np.all(np.diff(visible) > 0)),
        "query 2 reads keys": [int(j) for j in np.flatnonzero(big[2, :size])],
    }
    return value, list(value.items())


def causal_rules() -> Fact:
    return Fact(
        "properties-causal-mask-rules",
        "A causal mask alone (no position code), 32 positions: unchanged by shifts, not symmetric, not monotone",
        TOPIC,
        f"{RULES_SOURCE}; {sources.note('Position rules affect context extension')}",
        "numeric.transformer_xl.causal_mask as an additive bias (0 where the key is visible, $-\\infty$ where not): "
        "unchanged when queries and keys shift together (shifts $0, \\dots, 16$ of a $16 \\times 16$ block), "
        "different for (i, j) "
        "and (j, i), and equal (0) on every visible key, so it does not fall with the distance.",
        {
            "translation invariant": True,
            "symmetric": False,
            "monotone in $|m - n|$": False,
            "query 2 reads keys": [0, 1, 2],
        },
        _causal,
        method="NumPy (numeric.transformer_xl.causal_mask), exact booleans",
        wrong=lambda dps: _causal(dps, transpose=True),
        notes="The mask depends on $m - n \\ge 0$ only, yet carries no distance: "
        "[[claim:order-causal-mask-no-position]] shows "
        "the last token cannot tell the order of the tokens before it. The transposed mask "
        "(keys after the query) lets each query read other keys.",
        formula=sp.Ne(varphi(m, n), varphi(n, m)),
    )


def claims() -> list:
    return [
        causal_rules(),
    ]


# ---- the rules table: a causal mask alone (symbolic.tables) ----------------------------------------------------

RULES_ROWS = (
    tables.Row(
        210,
        "no position code, causal mask",
        tables.phi(sp.Piecewise((0, tables.n <= tables.m), (-sp.oo, True))),
        (
            tables.Cell("properties-causal-mask-rules", read=tables.key("monotone in $|m - n|$")),
            tables.Cell("properties-causal-mask-rules", read=tables.key("translation invariant")),
            tables.Cell("properties-causal-mask-rules", read=tables.key("symmetric")),
        ),
        tables.Length.nothing("properties-causal-mask-rules"),
    ),
)
