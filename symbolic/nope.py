r"""Causal attention without positional encoding (NoPE) recovers the absolute position: Kazemnejad et al. 2023,
"The Impact of Positional Encoding on Length Generalization in Transformers" (arXiv:2305.19466), Theorem 1's
construction, first layer (the paper numbers positions from 1, so its ``1/t`` is ``1/(n + 1)`` here).

Convention: 0-indexed positions; the query at position ``n`` sees the keys ``j = 0 .. n`` (the causal mask); every
query-key score equals one number ``s`` (``s = 0`` when the query projection is zero, ``W_Q = 0``); token 0 is a BOS
whose value vector has a 1 in a coordinate where every other token's value has 0. The output's BOS coordinate at
``n`` is ``y(n) = sum_j a_{nj} b_j`` with ``b_0 = 1`` and ``b_j = 0`` for ``j >= 1``. The sum is written from the
query back, ``k = n - j`` (the BOS is its last term, ``k = n``: the case ``k >= n``), which is how the engine's
``split_last`` reaches it.

Every theorem here is proved for every ``n >= 0`` by the engine's finite-sum rules (``count_terms``: a sum of
``n + 1`` equal terms is ``n + 1`` times the term; ``split_last``; ``refine_limits``); the float64 forward pass is a
computed fact.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp
from posproof.numeric import nope as N
from posproof.symbolic import tables
from posproof.symbolic.engine.core import Definition, Domain, Fact, Step, Theorem
from posproof.symbolic.engine.kernel import Kernel

TOPIC = "temperature"
NOPE = (
    "Kazemnejad et al. 2023, 'The Impact of Positional Encoding on Length Generalization in Transformers' "
    "(arXiv 2305.19466), Theorem 1"
)

n = sp.Symbol("n", integer=True, nonnegative=True)  # 0-indexed query position
t = sp.Symbol("t", integer=True, positive=True)  # how many positions further
j = sp.Symbol("j", integer=True, nonnegative=True)  # key position (in the softmax's denominator)
k = sp.Symbol("k", integer=True, nonnegative=True)  # distance back from the query, k = n - j
s = sp.Symbol("s", real=True)  # the common query-key score (0 when W_Q = 0)
_DOMAINS = {"n": Domain("integer", 0, 8), "s": Domain("real", -4, 4)}
_SHIFT_DOMAINS = {**_DOMAINS, "t": Domain("integer", 1, 4)}


def bos(back, nn=n):
    r"""The value's BOS coordinate at the key ``back`` positions before the query ``nn`` (key position
    ``nn - back``): 1 for the BOS (``back >= nn``, i.e. key position 0 in the sum's range), else 0."""
    return sp.Piecewise((1, back >= nn), (0, True))


def weight(nn=n, ss=s):
    r"""The softmax weight of one key when all ``nn + 1`` visible scores equal ``ss``: ``e^s / sum_{j=0}^{n} e^s``."""
    return sp.exp(ss) / sp.Sum(sp.exp(ss), (j, 0, nn))


def output_formula(nn=n, ss=s):
    r"""``y(n) = sum_{k=0}^{n} a_{n, n-k} b_{n-k}``: the output's BOS coordinate, summed from the query back."""
    return sp.Sum(weight(nn, ss) * bos(k, nn), (k, 0, nn))


class NopeOutput(Kernel):
    r"""The BOS coordinate of the causal equal-score layer's output at position ``n`` (args ``n, s``); numerically
    :func:`numeric.nope.nope_first_layer_mp` on :func:`numeric.nope.bos_values` at the working precision."""

    nargs = 2
    is_real = True

    @classmethod
    def numeric(cls, nn, ss):
        if not mpmath.isint(nn) or nn < 0:
            raise ValueError(f"n must be an integer >= 0, got {nn}")
        tokens = int(nn) + 1
        out = N.nope_first_layer_mp(N.bos_values(tokens, width=1), score=mpmath.mpf(ss), dps=mpmath.mp.dps)
        return out[tokens - 1][0]

    def doit(self, **hints):
        nn, ss = (x.doit(**hints) if isinstance(x, sp.Basic) else x for x in self.args)
        return output_formula(nn, ss)

    def _latex(self, printer, exp=None):
        out = r"y\left(%s\right)" % printer._print(self.args[0])
        return out if exp is None else r"%s^{%s}" % (out, exp)


def definition() -> Definition:
    return Definition(
        "nope-definition",
        "The BOS coordinate of a causal first layer without positional encoding and with equal scores",
        TOPIC,
        NOPE,
        NopeOutput(n, s),
        output_formula(),
        r"the query at $n$ sees the keys $j = 0, \dots, n$, every score equal to $s$; the output is "
        r"$\sum_j a_{nj} v_j$, and its BOS coordinate is $v_j = 1$ at $j = 0$, 0 elsewhere (summed here from the "
        r"query back, $k = n - j$)",
        "numeric.nope.nope_first_layer (NumPy float64; the mpmath twin at the working precision) on "
        "numeric.nope.bos_values",
        assumptions=(r"$n \ge 0$ the 0-indexed query position, $s$ real the common score ($s = 0$ when $W_Q = 0$)",),
        domains=_DOMAINS,
        notes=r"Kazemnejad et al.'s construction sets $W_Q = 0$, so every score is 0; any common score $s$ gives "
        r"the same weights. The other coordinates of the values carry content and play no part here.",
        wrong=sp.Sum(sp.exp(s) * bos(k), (k, 0, n)),  # the softmax's normalisation forgotten
    )


def uniform_weights() -> Theorem:
    lhs = weight()
    return Theorem(
        "nope-uniform-weights",
        r"Equal scores over the $n + 1$ visible keys give each key the weight $1/(n + 1)$, for every $n \ge 0$",
        TOPIC,
        NOPE,
        (
            Step(
                lhs,
                1 / (n + 1),
                r"the denominator is a sum of $n + 1$ equal terms $e^s$, so $(n + 1) e^s$; $e^s \ne 0$ cancels",
                ("count_terms", "cancel"),
            ),
        ),
        assumptions=(r"$n \ge 0$ an integer (keys $j = 0, \dots, n$), $s$ real",),
        domains=_DOMAINS,
        wrong=sp.exp(s) / (n + 1),  # the numerator's e^s kept: not normalised
    )


_ALL_STRATEGIES = ("doit", "split_last", "refine_limits", "count_terms", "cancel")


def position_output() -> Theorem:
    lhs = NopeOutput(n, s)
    return Theorem(
        "nope-position-output",
        r"The output's BOS coordinate at position $n$ is $1/(n + 1)$, for every $n \ge 0$",
        TOPIC,
        NOPE,
        (
            Step(
                lhs,
                weight(),
                r"unfold; split off the last term $k = n$ (the BOS, key position 0); every other term has "
                r"$k \le n - 1 < n$, so its case is 0 and the rest is a sum of zeros",
                ("doit", "split_last", "refine_limits", "count_terms"),
            ),
            Step(
                weight(),
                1 / (n + 1),
                r"the weight of one of $n + 1$ equal scores ([[claim:nope-uniform-weights]])",
                ("count_terms", "cancel"),
            ),
        ),
        assumptions=(r"$n \ge 0$ the 0-indexed query position, $s$ real the common score",),
        domains=_DOMAINS,
        notes=r"Without the causal mask a query would see all $T$ tokens and get $1/T$ at every position "
        r"([[claim:nope-recovers-positions]] computes it): the position would be lost.",
        wrong=1 / (n + 2),  # one key too many (the query counted twice)
    )


def strictly_decreasing() -> Theorem:
    return Theorem(
        "nope-position-injective",
        r"The BOS coordinate strictly decreases with the position, so it is injective in $n$",
        TOPIC,
        NOPE,
        (
            Step(
                NopeOutput(n + t, s),
                NopeOutput(n, s),
                r"both are $1/(\cdot + 1)$ ([[claim:nope-position-output]]); the gap "
                r"$1/(n + 1) - 1/(n + t + 1) = t/((n + 1)(n + t + 1)) > 0$",
                _ALL_STRATEGIES,
                rel="<",
            ),
        ),
        rel="<",
        assumptions=(r"$n \ge 0$ a position, $t \ge 1$ how many positions further, $s$ real",),
        domains=_SHIFT_DOMAINS,
        notes=r"Two positions $n < n'$ are $n$ and $n + t$ with $t = n' - n \ge 1$, so $y(n') < y(n)$: distinct "
        r"positions give distinct outputs. With $t = 1$ the gap is $1/((n + 1)(n + 2))$. A layer without the "
        r"causal mask gives the same output $1/T$ at every position (not injective: "
        r"[[claim:nope-recovers-positions]]). The reversed order $y(n + t) < y(n + 2t)$, the later position with "
        r"the larger output, is rejected.",
        wrong=NopeOutput(n + 2 * t, s),  # the order reversed: the output growing with the position
    )


def inverse() -> Theorem:
    y = NopeOutput(n, s)
    return Theorem(
        "nope-position-inverse",
        r"The position is read back from the output: $1 - y(n) = n\, y(n)$, that is $n = 1/y(n) - 1$, for every "
        r"$n \ge 0$",
        TOPIC,
        NOPE,
        (
            Step(
                1 - y,
                n * y,
                r"$y(n) = 1/(n + 1)$ ([[claim:nope-position-output]]): both sides are $n/(n + 1)$",
                _ALL_STRATEGIES,
            ),
        ),
        assumptions=(r"$n \ge 0$ the 0-indexed query position, $s$ real",),
        domains=_DOMAINS,
        notes=r"Stated without the quotient: the engine's fragment refuses $1/y(n)$ until $y(n) \ne 0$ is proved, "
        r"and $y(n) = 1/(n + 1) > 0$ is [[claim:nope-position-output]]; dividing both sides by it gives "
        r"$n = 1/y(n) - 1$. Reading $1/y$ itself as the position ($1 - y = (n + 1) y$, rejected) is off by "
        r"one: $1/y$ is the 1-indexed position $n + 1$. A second layer can read $n$ off this coordinate, which is how "
        r"Kazemnejad et al. go on to show that NoPE can represent absolute and relative encodings.",
        wrong=(n + 1) * y,  # 1/y read as the 0-indexed position
    )


#: The token counts of the computed forward pass.
FORWARD_TOKENS = (1, 2, 8, 64)


def _forward(dps: int, causal: bool = True):
    recovered, exact, distinct = True, True, True
    misses: list = []
    for T in FORWARD_TOKENS:
        out = N.nope_first_layer(N.bos_values(T), causal=causal)
        y = out[:, 0]
        positions = np.arange(T)
        recovered &= bool(np.array_equal(N.recover_positions(out), positions))
        exact &= bool(np.array_equal(y, 1.0 / (positions + 1.0)))
        distinct &= len(set(y.tolist())) == T
        misses.append(int(np.sum(1.0 / y - 1.0 != positions)))
    value = {
        r"positions $0, \dots, T - 1$ recovered": recovered,
        r"BOS coordinate the float64 $1/(n + 1)$": exact,
        "outputs distinct": distinct,
    }
    return value, [
        *value.items(),
        (rf"positions where $1/y - 1 \ne n$ before rounding, $T = {', '.join(map(str, FORWARD_TOKENS))}$", misses),
    ]


_y = sp.Function("y")
_rint = sp.Function(r"\operatorname{rint}")


def recovers_positions() -> Fact:
    return Fact(
        "nope-recovers-positions",
        r"Computed: a float64 forward pass of the causal layer recovers the positions $0, \dots, T - 1$ exactly",
        TOPIC,
        NOPE,
        r"With NumPy float64, scores 0 ($W_Q = 0$), the causal mask and the BOS values of "
        r"numeric.nope.bos_values, for $T \in \{1, 2, 8, 64\}$ tokens: the output's BOS coordinate at $n$ is the "
        r"float64 $1/(n + 1)$, the outputs are distinct, and $1/y - 1$ rounded to the nearest integer is $n$ at "
        r"every position.",
        {
            r"positions $0, \dots, T - 1$ recovered": True,
            r"BOS coordinate the float64 $1/(n + 1)$": True,
            "outputs distinct": True,
        },
        _forward,
        method="numeric.nope.nope_first_layer and recover_positions (NumPy float64)",
        wrong=lambda dps: _forward(dps, causal=False),
        formula=sp.Eq(_rint(1 / _y(n) - 1), n, evaluate=False),
        notes=r"The softmax of equal scores is exactly $1/(n + 1)$ rounded once (the $n + 1$ terms $e^0 = 1$ sum "
        r"exactly), and the zeros of the other tokens add nothing, so $y$ is the float64 $1/(n + 1)$; $1/y - 1$ "
        r"is then within a few units in the last place of $n$, and rounding gives $n$. Without the causal mask "
        r"every position gets $1/T$ and reads back $T - 1$.",
    )


#: The statements of the computed facts (display only; a definition's or theorem's is its own sides; the forward
#: pass's is its own formula).
STATEMENTS: dict = {}


def claims() -> list:
    made: list = [
        definition(),
        uniform_weights(),
        position_output(),
        strictly_decreasing(),
        inverse(),
        recovers_positions(),
    ]
    return [tables.stated(c, STATEMENTS.get(c.id)) for c in made]
