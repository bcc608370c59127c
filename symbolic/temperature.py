r"""Layers without positions and length-dependent temperature: Llama 4's iRoPE (NoPE layers, and the query
temperature of ``attn_temperature_tuning``, following arXiv 2501.19399) and log-n attention scaling.

Convention: the query at 0-indexed position ``p`` is multiplied by a factor of ``p`` alone before the scores are
taken. Llama 4 (Hugging Face transformers, ``Llama4TextAttention.forward``): on NoPE layers the factor is
``log(floor((p + 1) / F) + 1) a + 1`` with ``F = floor_scale`` and ``a = attn_scale``. Qwen's ``use_logn_attn``:
``log(p + 1) / log(L)`` past the trained length ``L``, 1 within it.

The floor's steps (``0 <= (p + 1)/F < 1`` gives ``floor((p + 1)/F) = 0``; ``x - 1 < floor(x) <= x``) are not in
reach of the engine's strategies, so the claims about them are computed over grids, and their titles say so.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp
from posproof.numeric import temperature as T
from posproof.symbolic import tables
from posproof.symbolic.engine.core import Definition, Domain, Fact, Step, Theorem
from posproof.symbolic.engine.kernel import Kernel

TOPIC = "temperature"
LLAMA4 = "Meta 2025, Llama 4; Hugging Face transformers, Llama4TextAttention.forward (attn_temperature_tuning)"
LOGN = "Bai et al. 2023, Qwen (QWenAttention, use_logn_attn); Chiang and Cholak 2022"

p = sp.Symbol("p", integer=True, nonnegative=True)  # 0-indexed query position
F = sp.Symbol("F", integer=True, positive=True)  # Llama 4's floor_scale
a = sp.Symbol("a", positive=True)  # Llama 4's attn_scale
L = sp.Symbol("L", integer=True, positive=True)  # the trained length (Qwen's seq_length), L >= 2
v = sp.Symbol("v", integer=True, positive=True)  # distance from the trained length's edge
_LLAMA4_DOMAINS = {"F": Domain("integer", 1, 2**14, log=True), "a": Domain("real", sp.Rational(1, 100), 1)}
_LOGN_DOMAINS = {"L": Domain("integer", 2, 2**16, log=True)}


def _int(x, name: str) -> int:
    if not mpmath.isint(x):
        raise ValueError(f"{name} must be an integer, got {x}")
    return int(x)


def llama4_formula(pp=p, FF=F, aa=a, shift=1):
    return aa * sp.log(sp.floor((pp + shift) / FF) + 1) + 1


class Llama4Temperature(Kernel):
    r"""Llama 4's query temperature at position ``p`` (args ``p, F, a``); numerically
    :func:`numeric.temperature.llama4_attention_temperature_mp` at the working precision."""

    nargs = 3

    @classmethod
    def numeric(cls, pp, FF, aa):
        return T.llama4_attention_temperature_mp(
            _int(pp, "p"), floor_scale=_int(FF, "F"), attn_scale=mpmath.mpf(aa), dps=mpmath.mp.dps
        )

    def doit(self, **hints):
        pp, FF, aa = (x.doit(**hints) if isinstance(x, sp.Basic) else x for x in self.args)
        return llama4_formula(pp, FF, aa)

    def _latex(self, printer, exp=None):
        out = r"\tau\left(%s\right)" % printer._print(self.args[0])
        return out if exp is None else r"%s^{%s}" % (out, exp)


def logn_formula(pp=p, LL=L):
    return sp.Piecewise((sp.log(pp + 1) / sp.log(LL), pp + 1 > LL), (1, True))


class LognScale(Kernel):
    r"""Qwen's log-n query scale at position ``p`` (args ``p, L``); numerically
    :func:`numeric.temperature.logn_attention_scale_mp` at the working precision."""

    nargs = 2

    @classmethod
    def numeric(cls, pp, LL):
        return T.logn_attention_scale_mp(_int(pp, "p"), trained_length=_int(LL, "L"), dps=mpmath.mp.dps)

    def doit(self, **hints):
        pp, LL = (x.doit(**hints) if isinstance(x, sp.Basic) else x for x in self.args)
        return logn_formula(pp, LL)

    def _latex(self, printer, exp=None):
        out = r"\lambda\left(%s\right)" % printer._print(self.args[0])
        return out if exp is None else r"%s^{%s}" % (out, exp)


# ---- Llama 4 ---------------------------------------------------------------------------------------------------


def llama4_definition() -> Definition:
    return Definition(
        "temperature-llama4-definition",
        "Llama 4's query temperature on its NoPE layers",
        TOPIC,
        LLAMA4,
        Llama4Temperature(p, F, a),
        llama4_formula(),
        r"`torch.log1p(torch.floor((positions + 1) / floor_scale)) * attn_scale + 1`, multiplying the query at "
        r"position $p$ on layers that do not rotate",
        "numeric.temperature.llama4_attention_temperature (NumPy float64; the mpmath twin at the working precision)",
        assumptions=(r"$p \ge 0$ the 0-indexed query position, $F \ge 1$ the `floor_scale`, $a > 0$ the `attn_scale`",),
        domains=_LLAMA4_DOMAINS,
        notes=r"Llama 4's defaults are $F = 8192$ and $a = 0.1$. The layers that rotate are those with "
        r"`no_rope_layers[l] = 1`; when the list is not given, every layer except each fourth ($l + 1$ divisible by "
        r"`no_rope_layer_interval` $= 4$). The temperature is applied only where the layer does not rotate.",
        wrong=a * sp.log((p + 1) / F + 1) + 1,  # the floor dropped
    )


def _grid_scales():
    return (1, 2, 3, 5, 8, 64, 8192)


def _one_below(dps: int, shift: int = 1):
    a_mp = "0.1"
    ones, above = True, True
    for FF in _grid_scales():
        with mpmath.workdps(dps):
            by_floor = {k: mpmath.log(mpmath.mpf(k) + 1) * mpmath.mpf(a_mp) + 1 for k in range(3)}
            vals = [by_floor[(q + shift) // FF] for q in range(FF + 1)]
        ones &= all(x == 1 for x in vals[: FF - 1])
        above &= vals[FF - 1] > 1
    f64 = T.llama4_attention_temperature(np.arange(8191), floor_scale=8192, attn_scale=0.1)
    value = {
        r"exactly 1 at every $p$ with $p + 1 < F$": bool(ones),
        r"above 1 at $p = F - 1$": bool(above),
    }
    return value, [
        *value.items(),
        (r"float64 kernel, $F = 8192$: exactly 1 at $p = 0, \dots, 8190$", bool(np.all(f64 == 1.0))),
    ]


def llama4_one_below() -> Fact:
    return Fact(
        "temperature-llama4-one-below-floor-scale",
        r"Computed: Llama 4's temperature is exactly 1 while $p + 1 < F$, and first exceeds 1 at $p = F - 1$",
        TOPIC,
        LLAMA4,
        r"With mpmath, $a = 0.1$ and $F \in \{1, 2, 3, 5, 8, 64, 8192\}$: for every $p$ with $p + 1 < F$ the "
        r"temperature is exactly 1, and at $p = F - 1$ it is $1 + a \log 2 > 1$.",
        {r"exactly 1 at every $p$ with $p + 1 < F$": True, r"above 1 at $p = F - 1$": True},
        _one_below,
        method="mpmath at the working precision (the floor in exact integers); numeric.temperature for float64",
        wrong=lambda dps: _one_below(dps, shift=0),
        formula=sp.Eq(Llama4Temperature(p, F, a), 1, evaluate=False),
        notes=r"The general argument: $0 < (p + 1)/F < 1$ gives $\lfloor (p + 1)/F \rfloor = 0$ and $\log 1 = 0$. "
        r"With $\lfloor p/F \rfloor$ in place of $\lfloor (p + 1)/F \rfloor$ the temperature would first exceed 1 "
        r"one position later, at $p = F$.",
    )


def _clamped_log(q: int, FF: int) -> mpmath.mpf:
    r"""``log`` for ``log1p``: ``log(floor((p + 1)/F))``, clamped at 0 below ``F``."""
    k = (q + 1) // FF
    return mpmath.log(k) if k >= 1 else mpmath.mpf(0)


def _growth(dps: int, log_term=None):
    aa = "0.1"
    mono, lower, upper = True, True, True
    with mpmath.workdps(dps):
        a_mp = mpmath.mpf(aa)
        for FF in (1, 3, 8, 64):
            qs = range(0, 8 * FF)
            tau = [
                (a_mp * log_term(q, FF) + 1) if log_term else T.llama4_attention_temperature_mp(
                    q, floor_scale=FF, attn_scale=aa, dps=dps)
                for q in qs
            ]  # fmt: skip
            mono &= all(y >= x for x, y in zip(tau, tau[1:], strict=False))
            for q, t in zip(qs, tau, strict=True):
                x = mpmath.mpf(q + 1) / FF
                lower &= t >= a_mp * mpmath.log(x) + 1
                upper &= t <= a_mp * mpmath.log(x + 1) + 1
        far = [
            (f"$F = 8192$, $p = 2^{{{e}}} - 1$: $\\tau - 1 - a \\log((p + 1)/F)$",
             mpmath.nstr(T.llama4_attention_temperature_mp(2**e - 1, attn_scale=aa, dps=dps) - 1
                         - a_mp * mpmath.log(mpmath.mpf(2**e) / 8192), 6))
            for e in (16, 20, 24)
        ]  # fmt: skip
    value = {
        "non-decreasing in $p$": bool(mono),
        r"at least $a \log((p + 1)/F) + 1$": bool(lower),
        r"at most $a \log((p + 1)/F + 1) + 1$": bool(upper),
    }
    return value, [*value.items(), *far]


def llama4_growth() -> Fact:
    return Fact(
        "temperature-llama4-growth",
        r"Computed: Llama 4's temperature is non-decreasing and lies between $a \log((p + 1)/F) + 1$ and "
        r"$a \log((p + 1)/F + 1) + 1$",
        TOPIC,
        LLAMA4,
        r"With mpmath and $a = 0.1$, for $F \in \{1, 3, 8, 64\}$ and $p = 0, \dots, 8 F - 1$: the temperature "
        r"never decreases from $p$ to $p + 1$, and lies between the two bounds; so it grows like "
        r"$a \log(p/F)$, the difference tending to 0 as $p/F$ grows.",
        {
            "non-decreasing in $p$": True,
            r"at least $a \log((p + 1)/F) + 1$": True,
            r"at most $a \log((p + 1)/F + 1) + 1$": True,
        },
        _growth,
        method="mpmath at the working precision (numeric.temperature.llama4_attention_temperature_mp)",
        wrong=lambda dps: _growth(dps, log_term=_clamped_log),
        formula=(
            sp.Le(a * sp.log((p + 1) / F) + 1, Llama4Temperature(p, F, a), evaluate=False),
            sp.Le(Llama4Temperature(p, F, a), a * sp.log((p + 1) / F + 1) + 1, evaluate=False),
        ),
        notes=r"The general argument: $x - 1 < \lfloor x \rfloor \le x$ for $x = (p + 1)/F$, and $\log$ is "
        r"increasing, so $\log x < \log(\lfloor x \rfloor + 1) \le \log(x + 1)$; the two bounds differ by "
        r"$a \log(1 + 1/x)$, which tends to 0. Writing $\log$ for `log1p` (clamped at 0 below $F$) breaks the lower "
        r"bound at $1 \le x < 2$.",
    )


def _nope_shift(dps: int, shift: int = 1):
    FF, aa = 8192, 0.1
    q = np.array([0.5, -1.0, 0.25, 2.0])
    k = np.array([1.0, 0.5, -0.75, 0.25])
    dot = float(q @ k) / 2.0  # 1/sqrt(d), d = 4

    # a layer that rotates carries no temperature
    tau = T.llama4_attention_temperature(np.arange(4 * FF), floor_scale=FF, attn_scale=aa) if shift else np.ones(4 * FF)

    def score(i: int) -> float:
        return float(tau[i]) * dot

    # the smallest shift first, then the smallest query position: t = 1 and the first i where the score moves
    moved = np.nonzero(tau[1:] * dot != tau[:-1] * dot)[0]
    first = int(moved[0]) if moved.size else None
    with mpmath.workdps(dps):
        ratio = (
            None if first is None else mpmath.nstr(
                T.llama4_attention_temperature_mp(first + 1, floor_scale=FF, attn_scale="0.1", dps=dps)
                / T.llama4_attention_temperature_mp(first, floor_scale=FF, attn_scale="0.1", dps=dps), 12)
        )  # fmt: skip
    value = {"smallest counterexample (query, shift)": None if first is None else [first, 1], "score ratio": ratio}
    return value, [
        *value.items(),
        ("the key and its content unchanged; scores of the pair before and after the shift",
         None if first is None else [score(first), score(first + 1)]),
    ]  # fmt: skip


def llama4_nope_not_translation_invariant() -> Fact:
    return Fact(
        "temperature-llama4-nope-not-translation-invariant",
        "Computed: with the temperature, a NoPE layer's score depends on the absolute query position",
        TOPIC,
        LLAMA4,
        r"A NoPE layer's score is $\tau(i)\, q^\top k / \sqrt{d}$: shifting query $i$ and key $j$ by $t$ leaves "
        r"the content and $i - j$ unchanged but multiplies the score by $\tau(i + t)/\tau(i)$. With the defaults "
        r"$F = 8192$, $a = 0.1$ (float64 kernel, $d = 4$, fixed $q$, $k$ with $q^\top k \ne 0$), the smallest "
        r"shift $t = 1$ first moves the score at query $i = 8190$ (any key $j \le i$), by the factor "
        r"$1 + a \log 2$.",
        {"smallest counterexample (query, shift)": [8190, 1], "score ratio": "1.06931471806"},
        _nope_shift,
        method="numeric.temperature.llama4_attention_temperature (NumPy float64); the ratio with mpmath",
        wrong=lambda dps: _nope_shift(dps, shift=0),
        notes=r"Without the temperature (or on a layer that rotates, where RoPE makes the score a function of "
        r"$i - j$) no shift changes the score. The first move is at $i + 1 = F - 1$: $\lfloor (F - 1 + 1)/F "
        r"\rfloor = 1$.",
    )


def _nope_rules(dps: int, temperature=T.llama4_attention_temperature):
    FF, aa = 8192, 0.1
    dot = 0.15625  # a fixed content score q^T k / sqrt(d), as in the counterexample

    tau = temperature(np.arange(16384), floor_scale=FF, attn_scale=aa)

    def phi(m, n):
        return float(tau[m]) * dot if n <= m else None

    query = 9000
    row = [phi(query, n) for n in range(query, -1, -1)]  # the key moving back from the query
    decreasing = all(y < x for x, y in zip(row, row[1:], strict=False))
    pairs = [(m, n) for m in (0, 1, 8190, 8191, 9000, 16383) for n in (0, 1, 8190, 8191, 9000, 16383) if n <= m]
    symmetric = all(phi(m, n) == float(tau[n]) * dot for m, n in pairs)
    value = {"decreases as the key moves back": decreasing, "symmetric": symmetric}
    return value, [
        *value.items(),
        (r"$\varphi(9000, n)$ for $n = 9000, 4500, 0$", [row[0], row[4500], row[-1]]),
        (r"$\varphi(8191, 0)$ and $\tau(0)\, q^\top k / \sqrt{d}$", [phi(8191, 0), phi(0, 0)]),
    ]


def _no_temperature(positions, *, floor_scale, attn_scale):
    return np.ones(len(positions))


def llama4_nope_rules() -> Fact:
    return Fact(
        "temperature-llama4-nope-rules",
        "Computed: a Llama 4 NoPE layer with the temperature neither decays with distance nor is symmetric",
        TOPIC,
        LLAMA4,
        r"With the defaults $F = 8192$, $a = 0.1$ and a fixed content score $q^\top k / \sqrt{d}$: the score "
        r"$\varphi(m, n) = \tau(m)\, q^\top k / \sqrt{d}$ of query $m = 9000$ stays the same as the key $n$ moves "
        r"back from 9000 to 0, and $\varphi(m, n) \ne \tau(n)\, q^\top k / \sqrt{d}$ (the score with the roles "
        r"swapped) at $m = 8191$, $n = 0$.",
        {"decreases as the key moves back": False, "symmetric": False},
        _nope_rules,
        method="numeric.temperature.llama4_attention_temperature (NumPy float64)",
        wrong=lambda dps: _nope_rules(dps, temperature=_no_temperature),
        formula=sp.Ne(tables.varphi(tables.m, tables.n), tables.varphi(tables.n, tables.m)),
        notes=r"Without the temperature the layer's score is the content alone, which is symmetric for one "
        r"content pair; the distance is never seen (the causal mask alone, [[claim:properties-causal-mask-rules]]).",
    )


#: The settings of the length claim: Llama 4's defaults.
LENGTH_SETTINGS = {"floor_scale": 8192, "attn_scale": 0.1}


def llama4_lengths(L0: int, L: int, temperature=T.llama4_attention_temperature) -> dict:
    r"""Llama 4's temperature at positions ``0 .. L - 1`` with its defaults: how many positions are scaled (above
    1), how many of those lie past ``L0``, and the largest temperature (6 significant digits)."""
    if not (isinstance(L0, int) and isinstance(L, int) and 1 <= L0 < L):
        raise ValueError(f"L0 and L must be integers with 1 <= L0 < L, got L0={L0!r}, L={L!r}")
    tau = temperature(np.arange(L), **LENGTH_SETTINGS)
    return {
        "positions scaled": int(np.sum(tau > 1)),
        r"positions scaled at or past $L_0$": int(np.sum(tau[L0:] > 1)),
        "largest temperature": f"{float(tau.max()):.6g}",
    }


def _unfloored(positions, *, floor_scale, attn_scale):
    return np.log1p((np.asarray(positions) + 1.0) / floor_scale) * attn_scale + 1.0


def _lengths(dps: int, temperature=T.llama4_attention_temperature):
    value = llama4_lengths(1000, 2000, temperature=temperature)
    return value, list(value.items())


def llama4_length() -> Fact:
    return Fact(
        "temperature-llama4-lengths",
        "Trained on 1000 positions, a 2000-token input: Llama 4's temperature scales no position",
        TOPIC,
        LLAMA4,
        r"Positions $0, \dots, 1999$ with the defaults $F = 8192$, $a = 0.1$: the temperature is 1 at every one "
        r"([[claim:temperature-llama4-one-below-floor-scale]]), so the NoPE layers see the content alone.",
        {"positions scaled": 0, r"positions scaled at or past $L_0$": 0, "largest temperature": "1"},
        _lengths,
        method="numeric.temperature.llama4_attention_temperature (NumPy float64; the values 1 are exact)",
        wrong=lambda dps: _lengths(dps, temperature=_unfloored),
        notes=r"Without the floor every position would be scaled, by up to $1 + a \log(1 + 2000/8192)$.",
    )


LENGTHS = {"temperature-llama4-lengths": llama4_lengths}


# ---- log-n scaling ---------------------------------------------------------------------------------------------


def logn_definition() -> Definition:
    return Definition(
        "temperature-logn-definition",
        "Log-n attention scaling: the query scale past the trained length",
        TOPIC,
        LOGN,
        LognScale(p, L),
        logn_formula(),
        r"`logn_list = [math.log(i, seq_length) if i > seq_length else 1 for i in range(1, 32768)]`, indexed by "
        r"the 0-indexed position $p$ (so $i = p + 1$)",
        "numeric.temperature.logn_attention_scale (NumPy float64; the mpmath twin at the working precision)",
        assumptions=(r"$p \ge 0$ the 0-indexed query position, $L \ge 2$ the trained length (`seq_length`)",),
        domains=_LOGN_DOMAINS,
        given=(sp.Q.positive(L - 1),),
        notes=r"Qwen applies the scale only at inference (`not self.training`) and when the key length exceeds $L$; "
        r"within the trained length it is 1 in any case. The scale multiplies the query, so the score. Python's "
        r"`math.log(i)` without the base `seq_length` would give $\log(p + 1)$ instead.",
        wrong=sp.Piecewise((sp.log(p + 1), p + 1 > L), (1, True)),  # math.log(i) for math.log(i, seq_length)
    )


def logn_one_within() -> Theorem:
    lhs = LognScale(p, p + v)
    return Theorem(
        "temperature-logn-one-within",
        "Log-n scaling is 1 up to the trained length",
        TOPIC,
        LOGN,
        (Step(lhs, sp.Integer(1), r"unfold: $p + 1 > p + v$ is false for $v \ge 1$, so the branch 1", ("unfold",)),),
        assumptions=(r"the trained length $L = p + v$ with $v \ge 1$ (positions $p = 0, \dots, L - 1$), $L \ge 2$",),
        given=(sp.Q.positive(p + v - 1),),
        formula=sp.Eq(LognScale(p, L), 1, evaluate=False),
        wrong=sp.log(p + 1) / sp.log(p + v),  # the log branch taken everywhere
    )


def _logn_beyond(dps: int, n_of=lambda q: q + 1):
    above, increasing = True, True
    with mpmath.workdps(dps):
        for LL in (2, 3, 16, 256):
            qs = range(LL, 4 * LL)  # p + 1 > L
            s = [mpmath.log(n_of(q)) / mpmath.log(LL) if q + 1 > LL else mpmath.mpf(1) for q in qs]
            above &= all(x > 1 for x in s)
            increasing &= all(y > x for x, y in zip(s, s[1:], strict=False))
        at = mpmath.nstr(T.logn_attention_scale_mp(2 * 2048 - 1, trained_length=2048, dps=dps), 12)
    value = {r"above 1 at every $p + 1 > L$": bool(above), r"strictly increasing in $p$ there": bool(increasing)}
    return value, [*value.items(), (r"$L = 2048$, $p + 1 = 2L$: the scale $\log 4096/\log 2048$", at)]


def logn_beyond() -> Fact:
    return Fact(
        "temperature-logn-beyond",
        "Computed: past the trained length log-n scaling exceeds 1 and increases",
        TOPIC,
        LOGN,
        r"With mpmath, for $L \in \{2, 3, 16, 256\}$ and $p = L, \dots, 4L - 1$ (so $p + 1 > L$): the scale "
        r"$\log(p + 1)/\log L$ is above 1 and strictly increasing in $p$.",
        {r"above 1 at every $p + 1 > L$": True, r"strictly increasing in $p$ there": True},
        _logn_beyond,
        method="mpmath at the working precision (numeric.temperature.logn_attention_scale_mp)",
        wrong=lambda dps: _logn_beyond(dps, n_of=lambda q: q),
        formula=sp.Gt(LognScale(p, L), 1, evaluate=False),
        notes=r"The general argument: $\log$ is strictly increasing and $\log L > 0$ for $L \ge 2$, so "
        r"$p + 1 > L$ gives $\log(p + 1)/\log L > 1$. With $\log p$ in place of $\log(p + 1)$ the scale would be "
        r"exactly 1 at $p = L$, the first position past training.",
    )


#: The statements of the computed facts (display only; a definition's or theorem's is its own sides).
_tau, _score = sp.Function(r"\tau"), sp.Function("s")
_mm, _nn, _pp = sp.symbols("m n p", integer=True)
STATEMENTS = {
    "temperature-llama4-nope-not-translation-invariant": sp.Ne(
        _score(_mm + 1, _nn + 1), _score(_mm, _nn), evaluate=False
    ),
    "temperature-llama4-lengths": sp.Eq(_tau(_pp), 1, evaluate=False),
}


def claims() -> list:
    made: list = [
        llama4_definition(),
        llama4_one_below(),
        llama4_growth(),
        llama4_nope_not_translation_invariant(),
        llama4_nope_rules(),
        llama4_length(),
        logn_definition(),
        logn_one_within(),
        logn_beyond(),
    ]
    return [tables.stated(c, STATEMENTS.get(c.id)) for c in made]


# ---- the rules table: a Llama 4 NoPE layer with the temperature (symbolic.tables) -------------------------------


def _scaled(v, L0: int, L: int) -> str:
    return f"{v['positions scaled']} positions scaled (largest temperature {v['largest temperature']})"


#: The rules-table row of a Llama 4 NoPE layer with the temperature.
RULES_ROWS = (
    tables.Row(
        215,
        "Llama 4 NoPE layer, temperature",
        tables.phi(
            Llama4Temperature(tables.m, F, a) * tables.dot(tables.vec("q"), tables.vec("k")) / sp.sqrt(tables.d)
        ),
        (
            tables.Cell("temperature-llama4-nope-rules", read=tables.key("decreases as the key moves back")),
            tables.Cell(
                "temperature-llama4-nope-not-translation-invariant",
                read=lambda v: v["smallest counterexample (query, shift)"] is None,
                note=r"$\tau(m)$ depends on the query position",
            ),
            tables.Cell("temperature-llama4-nope-rules", read=tables.key("symmetric")),
        ),
        tables.Length("temperature-llama4-lengths", _scaled),
    ),
)
