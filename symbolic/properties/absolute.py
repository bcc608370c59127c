r"""The three rules for absolute codes: every absolute code's proximity ``p_m·p_n`` is symmetric; counting,
binary and a randomly initialised learned table break monotonicity and translation invariance."""

from __future__ import annotations

import numpy as np
import sympy as sp
from posproof.numeric import tolerances
from posproof.symbolic import sources, tables
from posproof.symbolic.attention import shifted
from posproof.symbolic.engine.core import Fact, Step, Theorem
from posproof.symbolic.properties.common import (
    RULES_SOURCE,
    TOPIC,
    P,
    counting,
    identity,
    l,
    proximity,
    s,
    t,
    u,
    varphi,
)
from posproof.symbolic.symbols import d_any, m, n

# ================================================================================================================
# Absolute codes: symmetry always; counting breaks the other two rules.
# ================================================================================================================


def absolute_symmetric() -> Theorem:
    rhs = sp.Sum(sp.Mul(P[n, l], P[m, l], evaluate=False), (l, 0, d_any - 1))
    return identity(
        "properties-absolute-symmetric",
        r"Every absolute code's proximity is symmetric: $p_m \cdot p_n = p_n \cdot p_m$",
        RULES_SOURCE,
        [Step(proximity(m, n), rhs, "each product p[m, l] p[n, l] commutes", ("expand",))],
        assumptions=(
            "p[pos, l]: any real table of d components per position (counting, binary, sinusoidal, a learned table)",
        ),
        sizes={d_any: (1, 3)},
        notes="The numeric line draws the table at random: a learned table at initialisation is such a table. Read "
        "transposed (columns for positions), the table gives another sum.",
        wrong=sp.Sum(P[l, m] * P[l, n], (l, 0, d_any - 1)),
        formula=sp.Eq(varphi(m, n), varphi(n, m)),
    )


mq = sp.Symbol("m", integer=True, positive=True)  # a query position m >= 1
m0, n0 = sp.symbols("m n", integer=True, nonnegative=True)  # positions counted from 0


def counting_grows() -> Theorem:
    near = proximity(mq, mq + u, counting)
    far = proximity(mq, mq + u + s, counting)
    return identity(
        "properties-counting-proximity-grows",
        r"Counting codes $c \cdot \mathrm{pos} \cdot (1, \dots, 1)$: moving the key further from the query "
        r"raises $\varphi$, $\varphi(m, m + u) < \varphi(m, m + u + s)$",
        f"{RULES_SOURCE}; {sources.article('1. The Simple Counting Method (Option 1)')}",
        [Step(near, far, "$d$ equal components; the gap is $d c^2 m s > 0$", ("doit", "expand"), rel="<")],
        rel="<",
        assumptions=(
            "$c > 0$: $c = 1$ counts, $c = 1/N$ or $1/(N - 1)$ is normalized counting",
            r"query $m \ge 1$, key after it at distance $u \ge 0$, moved $s \ge 1$ further",
        ),
        sizes={d_any: (1, 4)},
        notes="Monotonicity fails at every query $m \\ge 1$ and distance $u$: the proximity grows with the distance. "
        r"Read from the distance alone, as if the code were relative, $\varphi(0, u + s)$ is another value.",
        wrong=proximity(0, u + s, counting),
        formula=sp.Lt(varphi(m, m + u), varphi(m, m + u + s)),
    )


def counting_shift() -> Theorem:
    before = proximity(m0, n0, counting)
    after = proximity(shifted(m0, t), shifted(n0, t), counting)
    return identity(
        "properties-counting-shift-changes",
        r"Counting codes $c \cdot \mathrm{pos} \cdot (1, \dots, 1)$: shifting both words raises $\varphi$, "
        r"$\varphi(m, n) < \varphi(m + t, n + t)$",
        f"{RULES_SOURCE}; {sources.article('1. The Simple Counting Method (Option 1)')}",
        [
            Step(
                before, after, "$d$ equal components; the gap is $d c^2 t (m + n + t) > 0$", ("doit", "expand"), rel="<"
            )
        ],
        rel="<",
        assumptions=("$c > 0$ (counting or normalized counting)", r"positions $m, n \ge 0$, shift $t \ge 1$"),
        sizes={d_any: (1, 4)},
        notes=(
            r"Translation invariance fails for every pair of positions. Shifting the query alone "
            r"changes it by $\varphi(m + t, n) - \varphi(m, n) = d c^2 t n$, which vanishes at $n = 0$."
        ),
        wrong=proximity(shifted(m0, t), n0, counting),
        formula=sp.Lt(varphi(m, n), varphi(m + t, n + t)),
    )


def _first_rise(phi, size: int):
    r"""The first ``(m, u)`` with ``φ(m, m + u + 1) > φ(m, m + u)`` (the key moved away, φ rose), or None."""
    for a in range(size):
        for w in range(size - a - 1):
            if phi(a, a + w + 1) > phi(a, a + w):
                return a, w
    return None


def _binary(dps: int, phi=lambda a, b: bin(a & b).count("1")):
    size = 2**8
    rise = _first_rise(phi, size)
    change = next(
        (a, w, sh) for w in range(1, size) for a in range(size - w) for sh in range(1, size - a - w)
        if phi(a + sh, a + w + sh) != phi(a, a + w)
    )  # fmt: skip
    a, w = rise
    b, v, sh = change
    value = {
        "monotone": rise is None,
        "first rise": f"phi({a}, {a + w}) = {phi(a, a + w)} < phi({a}, {a + w + 1}) = {phi(a, a + w + 1)}",
        "translation invariant": False,
        "first change": f"phi({b}, {b + v}) = {phi(b, b + v)} != phi({b + sh}, {b + v + sh}) = "
        f"{phi(b + sh, b + v + sh)}",
    }
    return value, list(value.items())


def binary_rules() -> Fact:
    return Fact(
        "properties-binary-rules",
        r"Binary codes: $\varphi(m, n)$, the number of bits $m$ and $n$ share, breaks monotonicity and "
        "translation invariance",
        TOPIC,
        f"{RULES_SOURCE}; {sources.article('3. The Binary Breakthrough')}",
        r"8-bit codes of $0, \dots, 255$, $\varphi(m, n) = p_m \cdot p_n = \operatorname{popcount}(m \wedge n)$ "
        r"($\wedge$ bitwise). Scanning query by query, the first key that moves away and raises $\varphi$, and "
        r"scanning distances and shifts, the first shift that changes $\varphi$.",
        {
            "monotone": False,
            "first rise": "phi(1, 2) = 0 < phi(1, 3) = 1",
            "translation invariant": False,
            "first change": "phi(0, 1) = 0 != phi(2, 3) = 1",
        },
        _binary,
        method="exact integer arithmetic (popcount of m AND n)",
        wrong=lambda dps: _binary(dps, phi=lambda a, b: -bin(a ^ b).count("1")),
        notes="Symmetry holds ([[claim:properties-absolute-symmetric]]). Minus the Hamming "
        "distance, a distance, is another proximity.",
        formula=sp.Lt(varphi(1, 2), varphi(1, 3)),
    )


def _learned(dps: int, row=lambda pos: pos):
    size, width = 64, 64
    table = np.random.default_rng(2019).normal(0.0, 0.02, (size, width))  # BERT's initializer_range
    rows = table[[row(p) for p in range(size)]]
    phi = rows @ rows.T  # (size, size): φ(m, n) = p_m·p_n
    tol = tolerances.FACT_FLOAT64_ATOL
    monotone = all(phi[a, a + w + 1] < phi[a, a + w] for a in range(size) for w in range(size - a - 1))
    invariant = bool(np.max(np.abs(phi[1:, 1:] - phi[:-1, :-1])) <= tol)
    value = {"monotone in $|m - n|$": monotone, "translation invariant": invariant}
    table_rows = [
        *value.items(),
        (r"$\varphi(0, 1)$, $\varphi(1, 2)$, $\varphi(2, 3)$", [float(phi[0, 1]), float(phi[1, 2]), float(phi[2, 3])]),
        (r"$\varphi(0, 1)$, $\varphi(0, 2)$, $\varphi(0, 3)$", [float(phi[0, 1]), float(phi[0, 2]), float(phi[0, 3])]),
    ]
    return value, table_rows


def learned_rules() -> Fact:
    return Fact(
        "properties-learned-random-init",
        "A seeded random position table (BERT's initialisation) breaks monotonicity and translation invariance",
        TOPIC,
        f"{RULES_SOURCE}; {sources.BERT}",
        r"64 positions of 64 components each, drawn from $N(0, 0.02^2)$ (seeded), "
        r"$\varphi(m, n) = p_m \cdot p_n$: $\varphi(m, m + u)$ does not fall with $u$, and "
        r"$\varphi(m + 1, n + 1)$ differs from $\varphi(m, n)$ (beyond $10^{-12}$).",
        {"monotone in $|m - n|$": False, "translation invariant": False},
        _learned,
        method="NumPy float64 (seeded normal table)",
        wrong=lambda dps: _learned(dps, row=lambda pos: 0),
        notes="Symmetry holds for any table ([[claim:properties-absolute-symmetric]]). Training may shape the "
        "table; at "
        "initialisation nothing ties a position to its neighbours. Reading row 0 for every position (an indexing "
        r"bug) would make $\varphi$ constant.",
        formula=sp.Ne(varphi(m + 1, n + 1), varphi(m, n)),
    )


def claims() -> list:
    return [
        absolute_symmetric(),
        counting_grows(),
        counting_shift(),
        binary_rules(),
        learned_rules(),
    ]


# ---- the rules table: the absolute codes' rows (symbolic.tables) -----------------------------------------------

_SYMMETRIC = tables.Cell("properties-absolute-symmetric", "holds")
_GROWS = tables.Cell("properties-counting-proximity-grows", "fails")
_SHIFT_CHANGES = tables.Cell("properties-counting-shift-changes", "fails")
_LENGTHS = "properties-length-absolute"

RULES_ROWS = (
    tables.Row(
        10,
        "counting",
        tables.phi(tables.d * tables.m * tables.n),
        (_GROWS, _SHIFT_CHANGES, _SYMMETRIC),
        tables.Length.entry(_LENGTHS, "counting: new component values", "{x} new component values, up to {top}"),
    ),
    tables.Row(
        20,
        "normalized counting",
        tables.phi(tables.d * tables.m * tables.n / (tables.N - 1) ** 2),
        (_GROWS, _SHIFT_CHANGES, _SYMMETRIC),
        tables.Length.entry(
            _LENGTHS,
            r"normalized $\mathrm{pos}/(N - 1)$: positions of an $L$-word text with a value no shorter text had",
            "{x} of {L} positions get a value no text of <= {L0} words had",
        ),
    ),
    tables.Row(
        30,
        "binary",
        tables.phi(sp.Function("popcount")(sp.Function("AND")(tables.m, tables.n))),
        (
            tables.Cell("properties-binary-rules", read=tables.key("monotone")),
            tables.Cell("properties-binary-rules", read=tables.key("translation invariant")),
            _SYMMETRIC,
        ),
        tables.Length.entry(
            _LENGTHS,
            "binary: positions setting a bit never set in training",
            "{x} positions set a bit never set in training",
        ),
    ),
    tables.Row(
        50,
        "learned absolute (random init)",
        tables.phi(tables.dot(tables.vec("p_m"), tables.vec("p_n"))),
        (
            tables.Cell("properties-learned-random-init", read=tables.key("monotone in $|m - n|$")),
            tables.Cell("properties-learned-random-init", read=tables.key("translation invariant")),
            _SYMMETRIC,
        ),
        tables.Length.entry(
            _LENGTHS, "learned table: positions with an untrained row", "{x} positions with an untrained row"
        ),
    ),
)
