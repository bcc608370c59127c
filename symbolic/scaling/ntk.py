r"""NTK-aware scaling and dynamic NTK (``rope_type`` ``ntk`` and ``dynamic``): the base ``b s^(d/(d-2))``, the
two conditions that fix it, the dynamic base of the current length, and the code's frequencies (the kernels
:class:`NtkInvFreq`, :class:`DynamicInvFreq`)."""

from __future__ import annotations

import sympy as sp
from posproof.symbolic import sources
from posproof.symbolic.engine.core import Definition, Domain, Step, Theorem
from posproof.symbolic.scaling import common
from posproof.symbolic.scaling.common import (
    BASE_INT,
    FACTOR_INT,
    HF,
    L0,
    PAIR,
    THETA_PRIME,
    TOPIC,
    RuleInvFreq,
    b,
    exact_float,
    exact_int,
    i,
    identity,
    s,
    scaled_frequency,
)
from posproof.symbolic.symbols import TH, d_even

# ---- named symbols for the short statements (formula=) ----
_bp = sp.Function("bprime")  # the NTK-aware base of a length


class NtkInvFreq(RuleInvFreq):
    r"""``theta'_i`` of ``{"rope_type": "ntk", "factor": s}`` (args ``i, d, b, s``)."""

    nargs = 4
    rule = "ntk"

    @classmethod
    def scaling_of(cls, factor):
        return {"rope_type": "ntk", "factor": exact_float(factor)}, {}


class DynamicInvFreq(RuleInvFreq):
    r"""``theta'_i`` of ``{"rope_type": "dynamic", "factor": s}`` at ``seq_len = n`` with
    ``max_position_embeddings = L_0`` (args ``i, d, b, s, n, L_0``)."""

    nargs = 6
    rule = "dynamic"

    @classmethod
    def scaling_of(cls, factor, seq_len, trained):
        kw = {"seq_len": exact_int(seq_len), "max_position_embeddings": exact_int(trained)}
        return {"rope_type": "dynamic", "factor": exact_float(factor)}, kw

    def _latex(self, printer, exp=None):
        out = r"\theta^{\prime\,\mathrm{dynamic}}_{%s}\left(%s\right)" % tuple(
            printer._print(a) for a in (self.args[0], self.args[4])
        )
        return out if exp is None else r"\left(%s\right)^{%s}" % (out, exp)


# ==============================================================================================================
# NTK-aware (static) and dynamic NTK.
# ==============================================================================================================

#: The last pair ``h = d/2 - 1``: with ``d = 2h + 2`` the NTK exponent ``d/(d-2)`` is ``(h+1)/h`` and SymPy knows
#: it is real (``d - 2 = 2h > 0``).
h = sp.Symbol("h", integer=True, positive=True)
KAPPA = (h + 1) / h  # d/(d - 2)
THETA_LAST = b ** (-h / (h + 1))  # theta_{d/2-1} = b^(-2h/d)
#: h drawn over 1 .. 4096 (d = 4 .. 8194), with d = 4 and d = 128 among the edge values.
H_DOMAIN = {"h": Domain("integer", 1, 2**12, log=True, edges=(1, 63))}


def ntk_base() -> Theorem:
    lhs = sp.Pow(THETA_LAST / s, -KAPPA, evaluate=False)
    return identity(
        "extension-ntk-base",
        r"NTK-aware: the base $b'$ whose last pair turns exactly $s$ times slower, "
        r"$b'^{-(d-2)/d} = \theta_{d/2-1}/s$, is $b s^{d/(d-2)}$",
        sources.NTK_AWARE,
        [
            Step(
                lhs,
                b * s**KAPPA,
                r"solve $b'^{-h/(h+1)} = \theta_h/s$ for $b' > 0$: raise both sides to $-(h+1)/h$ ($b, s > 0$)",
                ("expand", "powdenest", "expand"),
            )
        ],
        assumptions=(
            r"$d = 2h + 2 \ge 4$ even, $h = d/2 - 1$ the last pair: $\theta_h = b^{-2h/d} = b^{-h/(h+1)}$, "
            "$d/(d-2) = (h+1)/h$",
            "$b > 0$ the base, $s > 0$ the factor",
        ),
        formula=sp.Eq(sp.Symbol("bprime"), b * s ** (d_even / (d_even - 2)), evaluate=False),
        domains=H_DOMAIN,
        notes=(
            r"The first pair needs no condition: $\theta_0 = b^0 = 1$ for every base "
            r"([[claim:extension-ntk-conditions]])."
        ),
        wrong=b * s ** ((2 * h + 2) / (2 * h + 1)),  # the exponent d/(d-1)
    )


def ntk_conditions() -> Theorem:
    new = b * s**KAPPA
    lhs = sp.Matrix([sp.Pow(new, 0, evaluate=False), sp.Pow(new, -h / (h + 1), evaluate=False)])
    rhs = sp.Matrix([sp.Pow(b, 0, evaluate=False), THETA_LAST / s])
    return identity(
        "extension-ntk-conditions",
        "NTK-aware base $b s^{d/(d-2)}$: the first frequency stays 1 and the last is divided by exactly $s$",
        sources.NTK_AWARE,
        [
            Step(
                lhs,
                rhs,
                r"$\theta'_0 = b'^0 = 1 = \theta_0$; $\theta'_h = b^{-h/(h+1)} s^{-1}$ as the exponents $(h+1)/h$ and "
                "$-h/(h+1)$ cancel",
                ("expand", "powdenest", "expand"),
            )
        ],
        assumptions=(r"$d = 2h + 2 \ge 4$ even, $h = d/2 - 1$", "$b > 0$, $s > 0$"),
        formula=(
            sp.Eq(THETA_PRIME[0], 1, evaluate=False),
            sp.Eq(THETA_PRIME[d_even / 2 - 1], TH[d_even / 2 - 1] / s, evaluate=False),
        ),
        domains=H_DOMAIN,
        notes=(
            r"Between the two, $\theta'_i = \theta_i s^{-2i/(d-2)}$: the fast pairs are nearly untouched and "
            r"the slow ones interpolated. The last frequency is divided by $s$, not by "
            r"$s^{d/(d-2)}$, the factor of the base."
        ),
        wrong=sp.Matrix([sp.Integer(1), THETA_LAST / s**KAPPA]),
    )


def ntk_definition() -> Definition:
    return Definition(
        "extension-ntk-inv-freq",
        r"NTK-aware in the code: $\theta'_i = (b s^{d/(d-2)})^{-2i/d}$",
        TOPIC,
        f"{sources.NTK_AWARE}; {HF}",
        NtkInvFreq(i, d_even, b, s),
        (b * s ** (d_even / (d_even - 2))) ** (-2 * i / d_even),
        "the frequencies of the base $b s^{d/(d-2)}$",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'ntk')",
        assumptions=(r"$d \ge 4$ even, $i = 0, \dots, d/2 - 1$", r"$b > 1$, $s \ge 1$ (drawn as integers)"),
        sizes={d_even: (4, 8, 128)},
        domains={"i": PAIR, "b": BASE_INT, "s": FACTOR_INT},
        given=(sp.Q.gt(d_even, 2),),  # the exponent d/(d - 2)
        wrong=(b * s ** (d_even / (d_even - 1))) ** (-2 * i / d_even),
        formula=sp.Eq(THETA_PRIME[i], (b * s ** (d_even / (d_even - 2))) ** (-2 * i / d_even), evaluate=False),
    )


kk = sp.Symbol("k", integer=True, nonnegative=True)  # distance of the current length from L_0


def _dynamic_base(length):
    longest = sp.Max(length, L0, evaluate=False)
    return b * (s * longest / L0 - (s - 1)) ** (d_even / (d_even - 2))


def dynamic_ntk() -> Theorem:
    lhs = sp.Matrix([_dynamic_base(L0 - kk), _dynamic_base(L0 + kk)])
    e1 = sp.Matrix([b, b * (s * (L0 + kk) / L0 - (s - 1)) ** (d_even / (d_even - 2))])
    rhs = sp.Matrix([b, b * (1 + s * kk / L0) ** (d_even / (d_even - 2))])
    return identity(
        "extension-dynamic-ntk",
        r"Dynamic NTK: the plain base while $n \le L_0$; above, the NTK-aware base of the factor "
        "$s n/L_0 - (s - 1) = 1 + s(n - L_0)/L_0$",
        f"{sources.DYNAMIC_NTK}; {HF}",
        [
            Step(
                lhs,
                e1,
                r"$L = \max(n, L_0)$ is $L_0$ for $n = L_0 - k$ and $n$ for $n = L_0 + k$; $s - (s - 1) = 1$",
                ("doit",),
            ),
            Step(e1, rhs, "$s(L_0 + k)/L_0 - (s - 1) = 1 + s k/L_0$", ("expand",)),
        ],
        assumptions=(
            r"$n$ the current length, written $n = L_0 - k$ ($n \le L_0$) or $n = L_0 + k$ ($n \ge L_0$) with an "
            r"integer $k \ge 0$",
            r"$d \ge 4$ even, $b > 0$ the base, $s > 0$ the factor, $L_0 \ge 1$ the trained length",
        ),
        formula=sp.Eq(
            _bp(sp.Symbol("n")),
            b * (s * sp.Max(sp.Symbol("n"), L0, evaluate=False) / L0 - (s - 1)) ** (d_even / (d_even - 2)),
            evaluate=False,
        ),
        sizes={d_even: (4, 8, 128)},
        notes=(
            r"The factor $1 + sk/L_0$ is at least 1, the two branches meet at $n = L_0$ ($k = 0$: factor 1), "
            r"and the factor reaches $s$ at $n = L_0(2s - 1)/s$. Without the $-(s - 1)$, "
            r"below $L_0$ the base would be $b s^{d/(d-2)}$, not $b$."
        ),
        given=(sp.Q.gt(d_even, 2),),  # the exponent d/(d - 2)
        wrong=sp.Matrix(
            [
                b * s ** (d_even / (d_even - 2)),
                b * (1 + s * kk / L0) ** (d_even / (d_even - 2)),
            ]
        ),
    )


def dynamic_definition() -> Definition:
    seq_len = sp.Symbol("n", integer=True, positive=True)
    return Definition(
        "extension-dynamic-ntk-inv-freq",
        r"Dynamic NTK in the code: the frequencies of $b (s \max(n, L_0)/L_0 - (s - 1))^{d/(d-2)}$",
        TOPIC,
        f"{sources.DYNAMIC_NTK}; {HF}",
        DynamicInvFreq(i, d_even, b, s, seq_len, L0),
        (b * (s * sp.Max(seq_len, L0) / L0 - (s - 1)) ** (d_even / (d_even - 2))) ** (-2 * i / d_even),
        r"dynamic NTK recomputes the NTK-aware base for the current length $L = \max(n, L_0)$",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'dynamic', seq_len = n, max_position_embeddings = L_0)",
        assumptions=(
            r"$d \ge 4$ even, $i = 0, \dots, d/2 - 1$",
            r"$b > 1$, $s \ge 1$, $n \ge 1$, $L_0 \ge 2$ (drawn as integers)",
        ),
        formula=sp.Eq(scaled_frequency(seq_len), _bp(seq_len) ** (-2 * i / d_even), evaluate=False),
        sizes={d_even: (4, 8, 128)},
        given=(sp.Q.gt(d_even, 2),),  # the exponent d/(d - 2)
        domains={
            "i": PAIR,
            "b": BASE_INT,
            "s": FACTOR_INT,
            "n": Domain("integer", 1, 2**17, log=True),
            "L_0": Domain("integer", 2, 2**16, log=True),
        },
        # the factor s L / L_0 without the - (s - 1): a larger base at every length, even L = L_0
        wrong=(b * (s * sp.Max(seq_len, L0) / L0) ** (d_even / (d_even - 2))) ** (-2 * i / d_even),
    )


def claims() -> list:
    return [
        ntk_base(),
        ntk_conditions(),
        ntk_definition(),
        dynamic_ntk(),
        dynamic_definition(),
    ]


# ---- the rules table (symbolic.tables) -------------------------------------------------------------------------

RULES_ROWS = (
    common.rule_row(130, "RoPE + NTK-aware", "ntk"),
    common.rule_row(140, "RoPE + dynamic NTK", "dynamic"),
)
