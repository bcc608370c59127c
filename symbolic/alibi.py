r"""ALiBi (Press et al. 2022): the linear bias computed from absolute positions depends on ``i - j`` only and
decreases with distance; the reference's slopes, for powers of two and for other head counts.

Convention: query ``i``, key ``j``, bias ``-m_h (i - j)`` (query - key) on causal scores. Bloom adds ``m_h j``
instead: the two differ by ``m_h i``, a constant per row, so softmax gives the same weights, but Bloom's bias is
not a function of ``i - j`` (see ``alibi-translation-invariant``).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp
from posproof.numeric import alibi
from posproof.symbolic import sources, tables
from posproof.symbolic.attention import TOPIC, difference, identity
from posproof.symbolic.engine.core import Fact, Step, Theorem

ALIBI = sources.ALIBI

slope = sp.Symbol("m_h", positive=True)  # one head's slope
s_ = sp.Symbol("s", integer=True, positive=True)  # extra distance
qi, kj = sp.symbols("i j", integer=True)
_bias = sp.Function("B")  # ALiBi's bias of query i and key j (statements only)
_t = sp.Symbol("t", integer=True)


def alibi_bias(a, b):
    return -slope * difference(a, b)


def _bloom_bias(query_positions, key_positions, *, n_heads):
    r"""Bloom's form ``m_h j`` (softmax-equivalent on each row, not a function of ``i - j``)."""
    m = alibi.alibi_slopes(n_heads)
    j = np.asarray(key_positions, dtype=np.float64).reshape(-1)
    return m[:, None, None] * np.broadcast_to(j, (len(query_positions), len(j)))[None, :, :]


def _alibi_bias(dps: int, bias=alibi.alibi_bias):
    heads = 12
    i, j = np.arange(0, 64), np.arange(0, 64)
    B = bias(i, j, n_heads=heads)  # (heads, queries, keys)
    toeplitz = bool(np.all(B[:, 1:, 1:] == B[:, :-1, :-1]))
    far = 2**40
    shifted = bool(np.allclose(bias(i + far, j + far, n_heads=heads), B, rtol=0, atol=0))
    # causal row a holds keys 0 .. a: the bias must rise towards the query, i.e. fall as the key moves back
    decreasing = all(bool(np.all(np.diff(B[:, a, : a + 1], axis=-1) > 0)) for a in range(1, 64))
    value = {
        "constant along diagonals": toeplitz,
        "positions shifted by $2^{40}$: unchanged": shifted,
        "strictly decreasing as the key moves back": decreasing,
    }
    return value, [*value.items(), (r"bias of head 0, query 5, keys $0, \dots, 5$", B[0, 5, :6].tolist())]


def alibi_translation() -> Fact:
    return Fact(
        "alibi-translation-invariant",
        "ALiBi's bias computed from absolute positions depends on $i - j$ only and decreases with distance",
        TOPIC,
        ALIBI,
        r"`numeric.alibi.alibi_bias` for 12 heads, queries and keys at $0, \dots, 63$ and again shifted by $2^{40}$: "
        "the bias is constant along diagonals, unchanged by the shift, and on the causal part strictly decreasing "
        "as the key moves further back.",
        {
            "constant along diagonals": True,
            "positions shifted by $2^{40}$: unchanged": True,
            "strictly decreasing as the key moves back": True,
        },
        _alibi_bias,
        method="numeric.alibi.alibi_bias (NumPy float64; slopes are powers of two, products exact here)",
        wrong=lambda dps: _alibi_bias(dps, bias=_bloom_bias),
        formula=(
            sp.Eq(_bias(qi + _t, kj + _t), _bias(qi, kj), evaluate=False),
            sp.Lt(_bias(qi, kj - 1), _bias(qi, kj), evaluate=False),
        ),
        notes=(
            r"Bloom's $m_h j$ gives the same softmax weights row by row, but is not a "
            r"function of $i - j$ (and increasing in $j$)."
        ),
    )


def alibi_decay() -> Theorem:
    return identity(
        "alibi-monotone-decay",
        "ALiBi's bias strictly decreases as the key moves further back",
        ALIBI,
        [Step(alibi_bias(qi, difference(kj, s_)), alibi_bias(qi, kj), "the gap is $m_h s > 0$", ("expand",), rel="<")],
        lhs=alibi_bias(qi, difference(kj, s_)),
        rhs=alibi_bias(qi, kj),
        rel="<",
        assumptions=(r"$m_h > 0$; $s \ge 1$ extra tokens of distance",),
        formula=sp.Lt(alibi_bias(qi, difference(kj, s_)), alibi_bias(qi, kj), evaluate=False),
        notes="Monotone over the whole causal range, with no upper limit on the distance (unlike sinusoidal "
        "dot products, which oscillate).",
        wrong=alibi_bias(qi, kj - 2 * s_),
    )


n_heads = sp.Symbol("n", integer=True, positive=True)
hh = sp.Symbol("h", integer=True, positive=True)


def alibi_slopes_form() -> Theorem:
    start = 2 ** (-(2 ** (-(sp.log(n_heads, 2) - 3))))  # the reference: start = ratio = 2^(-2^-(log2 n - 3))
    lhs = start * start ** (hh - 1)
    return identity(
        "alibi-slopes-geometric",
        r"The reference's $\mathrm{start} \cdot \mathrm{ratio}^{h-1}$ is the geometric sequence $2^{-8h/n}$",
        ALIBI,
        [
            Step(
                lhs, 2 ** (-8 * hh / n_heads), r"$2^{-(\log_2 n - 3)} = 8/n$, then add exponents", ("expand", "powsimp")
            )
        ],
        assumptions=(r"$n$ heads (the reference uses it for powers of two); $h = 1, \dots, n$",),
        formula=sp.Eq(sp.Function("m")(hh), 2 ** (-8 * hh / n_heads), evaluate=False),
        wrong=2 ** (-8 * (hh - 1) / n_heads),  # the off-by-one exponent
    )


def _power_of_two_formula(n: int) -> list[Fraction]:
    return [Fraction(-8 * h, n) for h in range(1, n + 1)]


def _alibi_non_pow2(dps: int, exponents=alibi.alibi_slope_exponents):
    out = {nh: [str(e) for e in exponents(nh)] for nh in (6, 12)}
    return out, [(f"log2 slopes, {nh} heads", v) for nh, v in out.items()]


def alibi_non_power_of_two() -> Fact:
    return Fact(
        "alibi-slopes-non-power-of-two",
        "ALiBi slopes for head counts that are not powers of two",
        TOPIC,
        ALIBI,
        r"With $c = 2^{\lfloor \log_2 n \rfloor}$: the $c$ slopes of $c$ heads, then the odd-$h$ slopes of $2c$ "
        r"heads. The result lists the exponents $\log_2 m_h$ for $n = 6$ and $n = 12$.",
        {
            6: ["-2", "-4", "-6", "-8", "-1", "-3"],
            12: ["-1", "-2", "-3", "-4", "-5", "-6", "-7", "-8", "-1/2", "-3/2", "-5/2", "-7/2"],
        },
        _alibi_non_pow2,
        method="exact rationals (numeric.alibi.alibi_slope_exponents)",
        wrong=lambda dps: _alibi_non_pow2(dps, exponents=_power_of_two_formula),
        formula=(
            sp.Eq(sp.Function("m")(hh), 2 ** (-8 * hh / sp.Symbol("c")), evaluate=False),
            sp.Eq(sp.Function("m")(sp.Symbol("c") + hh), 2 ** (-4 * (2 * hh - 1) / sp.Symbol("c")), evaluate=False),
        ),
        notes="Applying $2^{-8h/n}$ to $n = 6$ and $12$ (a bug seen in public ports) gives other slopes.",
    )


def claims() -> list:
    return [alibi_translation(), alibi_decay(), alibi_slopes_form(), alibi_non_power_of_two()]


# ---- the rules table: ALiBi's row (symbolic.tables) ------------------------------------------------------------


def _new_biases(v, L0: int, L: int) -> str:
    return (
        f"{v['new bias values per head']} bias values per head below training (head 1: down to "
        f"{v['head 1: target biases reach']}, trained {v['head 1: trained biases reach']})"
    )


RULES_ROWS = (
    tables.Row(
        100,
        "ALiBi",
        tables.phi(-sp.Symbol("m_h", positive=True) * (tables.m - tables.n)),
        (
            tables.Cell("alibi-monotone-decay", "holds", note="keys before the query, every distance"),
            tables.Cell("alibi-translation-invariant", read=tables.key("constant along diagonals")),
            tables.Cell("properties-alibi-antisymmetric", "fails", note=r"$\varphi(n, m) = -\varphi(m, n)$"),
        ),
        tables.Length("properties-length-alibi", _new_biases),
    ),
)
