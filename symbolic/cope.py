r"""Contextual position encoding, CoPE (Golovneva et al. 2024, arXiv 2405.18719; the paper's appendix code and
facebookresearch/RAM ``projects/cope``): positions counted by gates that depend on the content.

Convention (the official code's, :mod:`numeric.cope`): causal, 0-indexed; the gates ``g_it = sigmoid(a_it)`` of
the gate logits ``a_it = q_i^T k_t / sqrt(d)``; the position of key ``j`` for query ``i`` is
``p_ij = sum_{t=j}^{i} g_it``, both ends included (the reverse cumulative sum
``gates.flip(-1).cumsum(-1).flip(-1)``), clamped at ``npos_max - 1``; the embedding at a fractional position is
interpolated, ``e[p] = (p - floor p) e[ceil p] + (1 - p + floor p) e[floor p]``, and ``q_i^T e[p_ij]`` is added to
the logit ``q_i^T k_j / sqrt(d)`` (the appendix; the RAM code's default divides the sum by ``sqrt(d)``).

The general claims count back from the query: the key ``r`` places back, ``j = i - r``, has the position
``sum_{t=0}^{r} g_{i, i - t}``, written with the gate logits ``a_t`` of the keys ``t`` back (``a_t = a_{i, i-t}``).
The claims are about the positions before the clamp (``min(., npos_max - 1)`` is non-decreasing, so what is
monotone stays so, non-strictly).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp
from posproof.numeric import cope as C
from posproof.symbolic import tables
from posproof.symbolic.engine.core import Definition, Domain, Fact, Kernel, Step, Theorem

TOPIC = "kernels"
COPE = (
    "Golovneva et al. 2024, 'Contextual Position Encoding: Learning to Count What's Important' (CoPE, "
    "arXiv:2405.18719), appendix code; facebookresearch/RAM projects/cope, ContextPosSelfAttn.forward"
)

# ---- symbols ----------------------------------------------------------------------------------------------------
r = sp.Symbol("r", integer=True, nonnegative=True)  # distance i - j of the key back from the query
t = sp.Symbol("t", integer=True, nonnegative=True)  # summation: a key t places back from the query
n = sp.Symbol("n", integer=True, nonnegative=True)  # the key of the 4-key definition, n = 3 - j places back
pp = sp.Symbol("p", nonnegative=True)  # a fractional position
A = sp.IndexedBase("a", real=True)  # gate logits a_t of the key t places back
E = sp.IndexedBase("e", real=True)  # a 1-D position table e[0..3]
qi, kj = sp.Symbol("i", integer=True, nonnegative=True), sp.Symbol("j", integer=True, nonnegative=True)  # display
_p = sp.Function("p")  # statements only
_e = sp.Function("e")  # statements only

_LOGITS = Domain("real", -8, 8)
_SMALL = Domain("integer", 0, 12)
#: Where the split-off sum of keys between is nonempty: the numeric line counts no point at which every sum is empty
#: (``r = 0``), so the chains draw ``r >= 1`` (the proof covers every ``r >= 0``).
_SPLIT = Domain("integer", 1, 12)
_SPLIT_NOTE = (
    r" The numeric line draws $r \ge 1$ (at $r = 0$ the split-off sum is empty and gives no evidence); the proof "
    r"covers every $r \ge 0$."
)
#: The query of the 4-key definition, 0-indexed: keys 0..3.
_LAST = 3


def sigmoid(x):
    return 1 / (1 + sp.exp(-x))


def _gate_mp(x):
    return 1 / (1 + mpmath.exp(-x))


def _int(x, name: str, lo: int, hi: int) -> int:
    if not mpmath.isint(x) or not lo <= int(x) <= hi:
        raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {x}")
    return int(x)


# ---- kernels: the code of numeric.cope --------------------------------------------------------------------------


class CopePosition(Kernel):
    r"""CoPE's position of the key ``n`` places back from the last of four positions (query 3, key ``3 - n``)
    with gate logits ``a_0, ..., a_3`` (args ``n, a_0, a_1, a_2, a_3``, ``a_t`` the logit of the key ``t`` back);
    numerically :func:`numeric.cope.cope_positions_mp` at the working precision, with ``d = 1``, every query 1
    and the keys the logits (so ``q_3 k_{3-t} / \sqrt{1} = a_t``)."""

    nargs = 5

    @classmethod
    def numeric(cls, nn, *logits):
        back = _int(nn, "n", 0, _LAST)
        keys = [[x] for x in reversed(logits)]  # key 3 - t holds a_t
        rows = C.cope_positions_mp([[1]] * len(keys), keys, dps=mpmath.mp.dps)
        return rows[_LAST][_LAST - back]

    def doit(self, **hints):
        nn, *logits = (x.doit(**hints) if isinstance(x, sp.Basic) else x for x in self.args)
        if not (isinstance(nn, sp.Integer) and 0 <= int(nn) <= _LAST):
            return self.func(nn, *logits)
        return sp.Add(*[sigmoid(logits[s]) for s in range(int(nn) + 1)])

    def _latex(self, printer, exp=None):
        out = r"p_{3,\, 3 - %s}" % printer._print(self.args[0])
        return out if exp is None else r"%s^{%s}" % (out, exp)


class CopeInterpolate(Kernel):
    r"""CoPE's embedding at the fractional position ``p`` of a 1-D table ``e_0, ..., e_3`` (args
    ``p, e_0, e_1, e_2, e_3``); numerically :func:`numeric.cope.cope_interpolate_mp` at the working precision."""

    nargs = 5

    @classmethod
    def numeric(cls, p, *entries):
        return C.cope_interpolate_mp([p], [[x] for x in entries], dps=mpmath.mp.dps)[0][0]

    def doit(self, **hints):
        p, *entries = (x.doit(**hints) if isinstance(x, sp.Basic) else x for x in self.args)
        if not p.is_number:
            return self.func(p, *entries)
        lo, hi = int(sp.floor(p)), int(sp.ceiling(p))
        return (p - lo) * entries[hi] + (1 - p + lo) * entries[lo]

    def _latex(self, printer, exp=None):
        out = r"e\left[%s\right]" % printer._print(self.args[0])
        return out if exp is None else r"%s^{%s}" % (out, exp)


def _row():
    return tuple(A[s] for s in range(_LAST + 1))


def position_definition() -> Definition:
    return Definition(
        "cope-position-definition",
        "CoPE's positions: the gates summed from the key to the query, both included",
        TOPIC,
        COPE,
        CopePosition(n, *_row()),
        sp.Sum(sigmoid(A[t]), (t, 0, n)),
        r"`gates = sigmoid(attn_logits)`, `pos = gates.flip(-1).cumsum(dim=-1).flip(-1)`: the reverse cumulative "
        r"sum along the keys, so $p_{ij} = \sum_{t=j}^{i} g_{it}$, the gates of the key, the query and every key "
        r"between",
        "numeric.cope.cope_positions (NumPy float64; the mpmath twin at the working precision)",
        assumptions=(
            r"four positions, query 3 and key $3 - n$, $0 \le n \le 3$; $a_t = q_3^\top k_{3-t}/\sqrt{d}$ the gate "
            r"logit of the key $t$ places back",
        ),
        domains={"n": Domain("integer", 0, _LAST), "a": _LOGITS},
        notes=r"The key itself counts: $p_{ii} = g_{ii} \in (0, 1)$, not 0. The official table has "
        r"`npos_max` rows (`block_size + 1` by default in the RAM code) and the positions are clamped, "
        r"`pos.clamp(max=npos_max - 1)`; four positions stay below that clamp here. Summing from $j + 1$ (the key "
        r"left out) gives other positions.",
        wrong=sp.Sum(sigmoid(A[t]), (t, 0, n)) - sigmoid(A[n]),  # the key left out: sum_{t=j+1}^{i}
        formula=sp.Eq(_p(qi, kj), sp.Sum(sp.Function("g")(qi, t), (t, kj, qi)), evaluate=False),
    )


def interpolation_definition() -> Definition:
    lhs = CopeInterpolate(pp, *(E[s] for s in range(4)))
    return Definition(
        "cope-interpolation-definition",
        "CoPE's embedding at a fractional position: linear between its two integer neighbours",
        TOPIC,
        COPE,
        lhs,
        (pp - sp.floor(pp)) * E[sp.ceiling(pp)] + (1 - pp + sp.floor(pp)) * E[sp.floor(pp)],
        r"`w = pos - pos_floor`, `logits_ceil * w + logits_floor * (1 - w)`, the logits gathered at "
        r"`pos.ceil()` and `pos.floor()` (the code interpolates $q_i^\top e[\cdot]$, the same linear combination)",
        "numeric.cope.cope_interpolate (NumPy float64; the mpmath twin at the working precision)",
        assumptions=(r"a table $e_0, \dots, e_3$ (one column), $0 \le p \le 3$",),
        domains={"p": Domain("real", 0, 3, edges=(0, 1, sp.Rational(3, 2), 3)), "e": _LOGITS},
        notes=r"At an integer $p$ both neighbours are $e[p]$; as $p$ rises to an integer $m$ the weight of "
        r"$e[m]$ tends to 1, so $e[p]$ is continuous in $p$. The weights swapped give other values.",
        wrong=(pp - sp.floor(pp)) * E[sp.floor(pp)] + (1 - pp + sp.floor(pp)) * E[sp.ceiling(pp)],
        formula=sp.Eq(
            _e(pp),
            (pp - sp.floor(pp)) * _e(sp.ceiling(pp)) + (1 - pp + sp.floor(pp)) * _e(sp.floor(pp)),
            evaluate=False,
        ),
    )


def all_gates_one() -> Theorem:
    lhs = sp.Sum(1, (t, 0, r))
    return Theorem(
        "cope-all-gates-one-relative",
        r"With every gate 1, CoPE's position is the count $i - j + 1$: relative, for every $i$ and $j \le i$",
        TOPIC,
        COPE,
        (Step(lhs, r + 1, r"the sum has $r + 1$ terms, each 1", ("count_terms",)),),
        assumptions=(r"the key $j = i - r$, $r \ge 0$ places back from the query; every gate $g_{it} = 1$",),
        domains={"r": _SMALL},
        wrong=r,  # the count without the key itself: i - j
        formula=sp.Eq(_p(qi, kj), qi - kj + 1, evaluate=False),
        notes=r"Both ends of the sum are included, so the key itself counts: $p_{ii} = 1$, not 0 (with the clamp, "
        r"$\min(i - j + 1, \mathrm{npos\_max} - 1)$). Gates of 1 are the limit of logits growing without bound; in "
        r"float64 the sigmoid is exactly 1 from a logit of about 37 on.",
    )


def _sum(upper):
    return sp.Sum(sigmoid(A[t]), (t, 0, upper))


def positions_increase() -> Theorem:
    return Theorem(
        "cope-positions-increase-with-distance",
        "CoPE's positions strictly increase as the key moves back from the query",
        TOPIC,
        COPE,
        (
            Step(_sum(r), _sum(r - 1) + sigmoid(A[r]), "split off the last term", ("split_last",)),
            Step(
                _sum(r - 1) + sigmoid(A[r]),
                _sum(r - 1),
                r"the gate $\sigma(a_r)$ of the farther key is positive",
                ("expand",),
                ">",
            ),
        ),
        rel=">",
        assumptions=(
            r"the key $j = i - r$, $r \ge 0$ places back from query $i$, against the key $j + 1$; $a_t$ real, the "
            r"gate logit of the key $t$ back",
        ),
        domains={"r": _SPLIT, "a": _LOGITS},
        wrong=_sum(r),  # no strict increase: the farther key's gate forgotten
        formula=sp.Gt(_p(qi, kj), _p(qi, kj + 1), evaluate=False),
        notes=r"So $p_{ij}$ is strictly decreasing in $j$: $p_{ij} - p_{i,j+1} = g_{ij} > 0$. At $r = 0$ the "
        r"comparison is with $j + 1 = i + 1$, after the query, where the code's position is the empty sum 0. After "
        r"the clamp, $\min(p_{ij}, \mathrm{npos\_max} - 1)$ is non-increasing in $j$, no longer strictly."
        + _SPLIT_NOTE,
    )


def positions_positive() -> Theorem:
    return Theorem(
        "cope-positions-positive",
        "CoPE's positions are positive for every key at or before the query",
        TOPIC,
        COPE,
        (
            Step(_sum(r), _sum(r - 1) + sigmoid(A[r]), "split off the last term", ("split_last",)),
            Step(
                _sum(r - 1) + sigmoid(A[r]),
                sigmoid(A[r]),
                "a sum of positive gates over the keys between (none for $r = 0$)",
                ("expand",),
                ">=",
            ),
            Step(sigmoid(A[r]), sp.Integer(0), "a gate is positive", ("expand",), ">"),
        ),
        rel=">",
        assumptions=(r"the key $j = i - r$, $r \ge 0$; $a_t$ real",),
        domains={"r": _SPLIT, "a": _LOGITS},
        wrong=sp.Integer(1),  # "at least 1": false for the key itself, p_ii = g_ii < 1
        formula=sp.Gt(_p(qi, kj), 0, evaluate=False),
        notes=r"The smallest is the key itself, $p_{ii} = g_{ii} \in (0, 1)$: positions are not integers and "
        r"below 1 there." + _SPLIT_NOTE,
    )


def positions_below_count() -> Theorem:
    return Theorem(
        "cope-positions-below-count",
        r"CoPE's positions lie below the count $i - j + 1$ of the keys from $j$ to $i$",
        TOPIC,
        COPE,
        (
            Step(_sum(r), _sum(r - 1) + sigmoid(A[r]), "split off the last term", ("split_last",)),
            Step(
                _sum(r - 1) + sigmoid(A[r]),
                sp.Sum(1, (t, 0, r - 1)) + sigmoid(A[r]),
                r"each gate below 1: $1 - \sigma(a_t) = e^{-a_t}/(1 + e^{-a_t}) \ge 0$ term by term",
                ("expand", "combine_sums", "together"),
                "<=",
            ),
            Step(sp.Sum(1, (t, 0, r - 1)) + sigmoid(A[r]), r + sigmoid(A[r]), r"$r$ terms, each 1", ("count_terms",)),
            Step(r + sigmoid(A[r]), r + 1, r"$\sigma(a_r) < 1$", ("expand", "together"), "<"),
        ),
        rel="<",
        assumptions=(r"the key $j = i - r$, $r \ge 0$; $a_t$ real (finite logits)",),
        domains={"r": _SPLIT, "a": _LOGITS},
        wrong=r,  # below i - j: false for the key itself
        formula=sp.Lt(_p(qi, kj), qi - kj + 1, evaluate=False),
        notes=r"With [[claim:cope-positions-positive]]: $0 < p_{ij} < i - j + 1$ in exact arithmetic. In float64 a "
        r"gate of a large logit rounds to 1, so the kernel's positions lie in $(0, i - j + 1]$, the end reached when "
        r"every gate saturates ([[claim:cope-all-gates-one-relative]]); the clamp makes them at most "
        r"$\mathrm{npos\_max} - 1$." + _SPLIT_NOTE,
    )


# ---- translation invariance: a counterexample --------------------------------------------------------------------


def _first_counterexample(dps: int, positions=C.cope_positions_mp):
    r"""The smallest length ``L``, then pair ``(m, n)`` and shift ``s``, with keys in ``{0, 1}`` (``d = 1``, every
    query 1, so the query's and the key's contents are equal at both places), where ``p_{m+s, n+s} != p_{mn}``."""
    import itertools

    for L in (1, 2, 3):
        for keys in itertools.product((0, 1), repeat=L):
            p = positions([[1]] * L, [[x] for x in keys], dps=dps)
            for s in range(1, L):
                for m in range(L - s):
                    for nn in range(m + 1):
                        if keys[nn] == keys[nn + s] and p[m + s][nn + s] != p[m][nn]:
                            return L, keys, (m, nn, s), (p[m][nn], p[m + s][nn + s])
    return None


def _counting_positions(q, k, *, dps: int):
    r"""The mistake: positions that count keys (every gate 1) instead of summing the content's gates."""
    L = len(q)
    return [[mpmath.mpf(i - j + 1) if j <= i else mpmath.mpf(0) for j in range(L)] for i in range(L)]


def _shift(dps: int, positions=C.cope_positions_mp):
    found = _first_counterexample(dps, positions)
    value: dict[str, Any]
    if found is None:
        value = {"smallest length": None, "keys": None, "pair (m, n) and shift": None, "positions": None}
        return value, list(value.items())
    L, keys, (m, nn, s), (p0, p1) = found
    with mpmath.workdps(dps):
        exact = sp.Rational(1, 2) + sigmoid(sp.Integer(1))  # sigma(0) + sigma(1), the shifted pair
        diff = mpmath.nstr(p1 - p0, 12)
    value = {
        "smallest length": L,
        "keys": list(keys),
        "pair (m, n) and shift": [m, nn, s],
        "positions": [mpmath.nstr(p0, 12), mpmath.nstr(p1, 12)],
    }
    return value, [
        *value.items(),
        (r"$p_{m+s,\,n+s} - p_{mn}$", diff),
        (r"exactly: $p_{10} = 2\sigma(0) = 1$, $p_{21} = \sigma(0) + \sigma(1)$", sp.sstr(exact)),
    ]


def not_translation_invariant() -> Fact:
    return Fact(
        "cope-not-translation-invariant",
        "Computed: CoPE's positions are not a function of $m - n$: the smallest counterexample has three tokens",
        TOPIC,
        COPE,
        r"With $d = 1$, every query $q = 1$ and keys in $\{0, 1\}$ (so a pair's query and key contents are the same "
        r"at both places), the smallest input where shifting a pair $(m, n)$ to $(m + s, n + s)$ changes the "
        r"position is three tokens with keys $(0, 0, 1)$: $p_{10} = 2\sigma(0) = 1$ but $p_{21} = \sigma(0) + "
        r"\sigma(1) \approx 1.231$; with a table where $e[1] \ne e[2]$ the scores differ too. No input of one or "
        r"two tokens is a counterexample.",
        {
            "smallest length": 3,
            "keys": [0, 0, 1],
            "pair (m, n) and shift": [1, 0, 1],
            "positions": ["1.0", "1.23105857863"],
        },
        _shift,
        method="mpmath at the working precision (numeric.cope.cope_positions_mp), an exhaustive search by length",
        wrong=lambda dps: _shift(dps, positions=_counting_positions),
        formula=sp.Ne(_p(tables.m + 1, tables.n + 1), _p(tables.m, tables.n)),
        notes=r"The position counts the gates of the tokens between the key and the query, which the shift "
        r"replaces: here the query's own token (the key 1 at position 2) opens its gate wider. Shifting the whole "
        r"sequence (prepending tokens) changes nothing, since no absolute position enters. Positions that count "
        r"keys (every gate 1) would be $m - n + 1$, a function of $m - n$ "
        r"([[claim:cope-all-gates-one-relative]]), and the search would find nothing.",
    )


# ---- the other rules: a fixed small example -----------------------------------------------------------------------

#: The rules example: four tokens, d = 1, every query 1, keys 0 (every gate 1/2), a table e = (0, 2, 1, 3).
_RULES_TABLE = ((0,), (2,), (1,), (3,))


def _rules(dps: int, table=_RULES_TABLE):
    L = 4
    q, k = [[1]] * L, [[0]] * L
    with mpmath.workdps(dps):
        s = C.cope_scores_mp(q, k, [list(r) for r in table], dps=dps)
        row = [s[L - 1][j] for j in range(L - 1, -1, -1)]  # the key moving back from the query
        monotone = all(y < x for x, y in zip(row, row[1:], strict=False))
        symmetric = all(s[a][b] == s[b][a] for a in range(L) for b in range(L))
        shown = [mpmath.nstr(x, 6) for x in row]
    value = {"monotone in $|m - n|$": monotone, "symmetric": symmetric}
    return value, [*value.items(), (r"$\varphi(3, n)$ for $n = 3, 2, 1, 0$", shown),
                   (r"$\varphi(0, 1)$", r"$-\infty$ (the causal mask)")]  # fmt: skip


def rules() -> Fact:
    return Fact(
        "cope-rules",
        "Computed: CoPE's score need not decay with the distance, and is not symmetric",
        TOPIC,
        COPE,
        r"Four tokens, $d = 1$, every query 1, every key 0 (every gate $\sigma(0) = 1/2$, so $p_{3n} = (4 - n)/2$) "
        r"and the table $e = (0, 2, 1, 3)$: the score $\varphi(3, n) = q^\top e[p_{3n}]$ is $1, 2, 1.5, 1$ for "
        r"$n = 3, 2, 1, 0$, rising before it falls; and $\varphi(0, 1) = -\infty$ (masked) while "
        r"$\varphi(1, 0)$ is finite.",
        {"monotone in $|m - n|$": False, "symmetric": False},
        _rules,
        method="mpmath at the working precision (numeric.cope.cope_scores_mp)",
        wrong=lambda dps: _rules(dps, table=((3,), (2,), (1,), (0,))),
        formula=sp.Ne(tables.varphi(tables.m, tables.n), tables.varphi(tables.n, tables.m)),
        notes=r"The positions themselves grow with the distance ([[claim:cope-positions-increase-with-distance]]); "
        r"the score reads them through the learned table, which need not decrease (the official code starts it "
        r"at zeros). A decreasing table, $e = (3, 2, 1, 0)$, would give a score falling with the distance.",
    )


# ---- lengths: positions past training -----------------------------------------------------------------------------


def cope_lengths(L0: int, L: int, gates: tuple = (Fraction(1), Fraction(1, 2))) -> dict:
    r"""With ``npos_max = L0 + 1`` (the RAM code's default, ``block_size + 1``) and every gate equal to ``g``: how
    many of the ``L (L + 1) / 2`` visible pairs of an ``L``-token text have a position ``g (i - j + 1)`` above
    ``L0`` (clamped), for each ``g`` of ``gates`` (exact rationals)."""
    if not (isinstance(L0, int) and isinstance(L, int) and 1 <= L0 < L):
        raise ValueError(f"L0 and L must be integers with 1 <= L0 < L, got L0={L0!r}, L={L!r}")
    out = {}
    for g in gates:
        # distance r occurs at L - r query-key pairs; its position is g (r + 1)
        out[f"gates {g}: pairs clamped"] = sum(L - d for d in range(L) if g * (d + 1) > L0)
    return out


def _lengths(dps: int, gates=(Fraction(1), Fraction(1, 2))):
    value = cope_lengths(tables.TRAINED, tables.TARGET, gates)
    return value, list(value.items())


def lengths_fact() -> Fact:
    return Fact(
        "cope-lengths",
        "Trained on 1000 positions, a 2000-token text: CoPE clamps half a million pairs when every gate is 1, none "
        "at gates 1/2",
        TOPIC,
        COPE,
        r"With $\mathrm{npos\_max} = 1001$ (the RAM code's `block_size + 1`) and a text of 2000 tokens: every gate 1 "
        r"gives $p_{ij} = i - j + 1$, above 1000 for the $1000 \cdot 1001/2 = 500500$ pairs with $i - j \ge 1000$, "
        r"all clamped to the last row; every gate $1/2$ gives $p_{ij} = (i - j + 1)/2 \le 1000$, no pair clamped.",
        {"gates 1: pairs clamped": 500500, "gates 1/2: pairs clamped": 0},
        _lengths,
        method="exact rational arithmetic (constant gates $g$: the position of a pair is $g (i - j + 1)$)",
        wrong=lambda dps: _lengths(dps, gates=(Fraction(1), Fraction(2, 3))),
        formula=sp.Eq(_p(qi, kj), sp.Symbol("g", positive=True) * (qi - kj + 1), evaluate=False),
        notes=r"How far positions reach depends on the content through the gates, not on the length alone: a "
        r"text longer than training clamps only where the gates sum past $\mathrm{npos\_max} - 1$.",
    )


#: The function the length claim verifies at the article's lengths.
LENGTHS = {"cope-lengths": cope_lengths}


def claims() -> list:
    made: list = [
        position_definition(),
        interpolation_definition(),
        all_gates_one(),
        positions_increase(),
        positions_positive(),
        positions_below_count(),
        not_translation_invariant(),
        rules(),
        lengths_fact(),
    ]
    return [tables.stated(c) for c in made]


# ---- the rules table: CoPE's row (symbolic.tables) ----------------------------------------------------------------


def _clamped(v, L0: int, L: int) -> str:
    return (
        f"{v['gates 1: pairs clamped']} pairs clamped at every gate 1 (npos_max = {L0 + 1}), "
        f"{v['gates 1/2: pairs clamped']} at every gate 1/2"
    )


RULES_ROWS = (
    tables.Row(
        106,
        "CoPE",
        tables.phi(
            tables.dot(tables.vec("q_m"), tables.vec("k_n")) / sp.sqrt(tables.d)
            + tables.dot(tables.vec("q_m"), tables.vec("e_p"))
        ),
        (
            tables.Cell(
                "cope-rules",
                read=tables.key("monotone in $|m - n|$"),
                note=r"the positions $p_{mn}$ grow with the distance; the learned $e[p]$ need not fall",
            ),
            tables.Cell(
                "cope-not-translation-invariant",
                read=lambda v: v["smallest length"] is None,
                note="the gates of the tokens between count",
            ),
            tables.Cell("cope-rules", read=tables.key("symmetric"), note="causal"),
        ),
        tables.Length("cope-lengths", _clamped),
    ),
)
