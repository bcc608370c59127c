r"""YaRN (``rope_type`` ``yarn``, Peng et al. 2023): the correction dimension, the ramp between ``theta_i`` and
``theta_i/s`` and its ends, the code's frequencies with the correction range unrounded and rounded, and the
attention factor with and without ``mscale`` (the kernels :class:`YarnInvFreq`, :class:`YarnTruncatedInvFreq`,
:class:`YarnAttentionFactor`)."""

from __future__ import annotations

import mpmath
import sympy as sp
from posproof.numeric.scaling.rules import rope_inv_freq_mp
from posproof.symbolic import sources, tables
from posproof.symbolic.engine.core import Definition, Domain, Kernel, Step, Theorem
from posproof.symbolic.scaling import common
from posproof.symbolic.scaling.common import (
    FACTOR_GT1,
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
from posproof.symbolic.symbols import TH, d_even, theta_i
from sympy.core.parameters import evaluate

# ---- named symbols for the short statements (formula=) ----
_G = sp.IndexedBase("gamma")  # YaRN's ramp gamma_i
_c = sp.Function("c")  # YaRN's correction dimension
_clip = sp.Function("clip")


class YarnInvFreq(RuleInvFreq):
    r"""``theta'_i`` of ``{"rope_type": "yarn", "factor": s, "original_max_position_embeddings": L_0, "truncate":
    false}`` with the default ``beta_fast = 32``, ``beta_slow = 1`` (args ``i, d, b, s, L_0``)."""

    nargs = 5
    rule = "yarn"

    @classmethod
    def scaling_of(cls, factor, trained):
        scaling = {
            "rope_type": "yarn",
            "factor": exact_float(factor),
            "original_max_position_embeddings": exact_int(trained),
        }
        return scaling | {"truncate": False}, {}


class YarnTruncatedInvFreq(RuleInvFreq):
    r"""``theta'_i`` of ``{"rope_type": "yarn", "factor": s, "original_max_position_embeddings": L_0}`` (truncate
    true, the default: the ramp's ends are whole pair indices) with the default betas (args ``i, d, b, s, L_0``)."""

    nargs = 5
    rule = "yarn"

    @classmethod
    def scaling_of(cls, factor, trained):
        return {
            "rope_type": "yarn",
            "factor": exact_float(factor),
            "original_max_position_embeddings": exact_int(trained),
        }, {}


class YarnAttentionFactor(Kernel):
    r"""YaRN's attention factor for the factor ``s``, optionally with ``mscale`` and ``mscale_all_dim`` (args
    ``s`` or ``s, mu, mu_all``), from :func:`numeric.scaling.rope_inv_freq_mp`."""

    nargs = (1, 3)

    @classmethod
    def numeric(cls, factor, *mscales):
        scaling = {"rope_type": "yarn", "factor": exact_float(factor), "original_max_position_embeddings": 4096}
        if mscales:
            scaling |= {"mscale": exact_float(mscales[0]), "mscale_all_dim": exact_float(mscales[1])}
        return rope_inv_freq_mp(8, base=10000.0, scaling=scaling, dps=mpmath.mp.dps)[1]

    def doit(self, **hints):
        return self

    def _latex(self, printer, exp=None):
        out = r"A^{\mathrm{yarn}}\left(%s\right)" % ", ".join(printer._print(a) for a in self.args)
        return out if exp is None else r"\left(%s\right)^{%s}" % (out, exp)


# ==============================================================================================================
# YaRN.
# ==============================================================================================================

r = sp.Symbol("r", positive=True)  # rotations over L_0 positions


def correction_dimension(rotations, length=L0, width=d_even, base=b):
    r"""YaRN's ``c(r) = d ln(L_0/(2 pi r)) / (2 ln b)``: the (real) pair index completing ``r`` rotations."""
    return width * sp.log(length / (2 * sp.pi * rotations)) / (2 * sp.log(base))


def yarn_correction_dimension() -> Theorem:
    c = correction_dimension(r)
    with evaluate(False):  # the exponent -2c(r)/d with c(r) put in: -ln(L_0/(2 pi r))/ln b
        lhs = L0 * b ** (-(sp.log(L0 / (2 * sp.pi * r)) / sp.log(b)))
    return identity(
        "extension-yarn-correction-dimension",
        r"YaRN's correction dimension: pair $c(r) = d \ln(L_0/(2\pi r))/(2 \ln b)$ turns through exactly $r$ "
        "rotations over the $L_0$ trained positions",
        f"{sources.YARN}, §3.2; {HF}",
        [
            Step(
                lhs,
                2 * sp.pi * r,
                r"$L_0 \theta_i = 2\pi r$ solved for $i$: $L_0 b^{-2i/d} = 2\pi r$ iff "
                r"$i = d \ln(L_0/(2\pi r))/(2 \ln b)$, where $-2i/d = -\ln(L_0/(2\pi r))/\ln b$; "
                r"$b^{-\ln x/\ln b} = 1/x$",
                ("expand_log", "powsimp"),
            )
        ],
        assumptions=(
            r"$b > 1$ the base, $L_0 \ge 1$, $r > 0$ rotations; $\theta_i = b^{-2i/d}$ at the real index $i = c(r)$",
        ),
        formula=(
            sp.Eq(_c(r), c, evaluate=False),
            sp.Eq(L0 * sp.Pow(b, -2 * _c(r) / d_even, evaluate=False), 2 * sp.pi * r, evaluate=False),
        ),
        given=(sp.Q.gt(b, 1),),
        domains={"b": Domain("real", 1.001, 1e6, log=True)},
        notes=(
            r"YaRN's ramp runs from $\mathrm{low} = c(\beta_{\mathrm{fast}})$ ($\beta_{\mathrm{fast}} = 32$ "
            r"rotations: kept) to $\mathrm{high} = c(\beta_{\mathrm{slow}})$ ($\beta_{\mathrm{slow}} = 1$: "
            r"interpolated); $c$ decreases in $r$, so $\mathrm{low} < \mathrm{high}$. transformers floors low,"
            r" ceils high and clamps both to $[0, d - 1]$, with the trained $L_0$ in $c(r)$. Counting "
            r"radians as rotations ($L_0 \theta = r$) gives another index."
        ),
        wrong=r,
    )


low, kr = sp.symbols("low k", nonnegative=True)


def ramp(index, lo, hi):
    r"""``clip((index - lo)/(hi - lo), 0, 1)`` written as the Piecewise it is for ``lo < hi`` (unevaluated)."""
    return sp.Piecewise(
        (0, sp.Le(index, lo, evaluate=False)),
        (1, sp.Ge(index, hi, evaluate=False)),
        ((index - lo) / (hi - lo), True),
        evaluate=False,
    )


def yarn_blend(gamma, freq):
    return gamma * freq / s + (1 - gamma) * freq


def yarn_blend_ends() -> Theorem:
    wp = sp.Symbol("w", positive=True)
    high = low + wp
    below, above = low - kr, high + kr
    lhs = sp.Matrix([yarn_blend(ramp(below, low, high), TH[below]), yarn_blend(ramp(above, low, high), TH[above])])
    return identity(
        "extension-yarn-blend-ends",
        r"YaRN's blend $\gamma\theta_i/s + (1 - \gamma)\theta_i$ keeps $\theta_i$ at and below low and gives "
        r"$\theta_i/s$ at and above high",
        f"{sources.YARN}, §3.2; {HF}",
        [
            Step(
                lhs,
                sp.Matrix([TH[below], TH[above] / s]),
                r"$i \le \mathrm{low}$ gives $\gamma = 0$ and $i \ge \mathrm{high}$ gives $\gamma = 1$ (the ramp "
                r"$\operatorname{clip}((i - \mathrm{low})/(\mathrm{high} - \mathrm{low}), 0, 1)$)",
                ("doit",),
            )
        ],
        assumptions=(
            r"$\mathrm{low} \ge 0$ and $\mathrm{high} = \mathrm{low} + w$, $w > 0$, the ends of the ramp (integers "
            "when truncate is true)",
            r"a pair at or below low is $i = \mathrm{low} - k$, one at or above high is $i = \mathrm{high} + k$, "
            r"$k \ge 0$",
            r"$\theta_i > 0$ the trained frequencies, $s > 0$ the factor",
        ),
        formula=(
            sp.Implies(sp.Le(i, low), sp.Eq(THETA_PRIME[i], TH[i], evaluate=False), evaluate=False),
            sp.Implies(sp.Ge(i, high), sp.Eq(THETA_PRIME[i], TH[i] / s, evaluate=False), evaluate=False),
        ),
        notes=r"transformers writes the ramp the other way round (its extrapolation factor is $1 - \gamma$); with "
        "the two ends swapped the blend is another one.",
        wrong=sp.Matrix([TH[below] / s, TH[above]]),
    )


gamma = sp.Symbol("gamma", real=True)
delta = sp.Symbol("delta", positive=True)


def yarn_monotone() -> Theorem:
    before = yarn_blend(gamma, theta_i)
    after = yarn_blend(gamma + delta, theta_i)
    e1 = before + delta * (theta_i / s - theta_i)
    return identity(
        "extension-yarn-blend-monotone",
        r"Between low and high YaRN's frequency falls strictly as the ramp $\gamma$ rises, for $s > 1$",
        f"{sources.YARN}, §3.2",
        [
            Step(
                after,
                e1,
                r"$\theta' = \gamma\theta_i/s + (1 - \gamma)\theta_i$ is linear in $\gamma$, of slope "
                r"$\theta_i/s - \theta_i$",
                ("expand",),
            ),
            Step(
                e1,
                before,
                r"the gap is $\delta\theta_i(1 - 1/s) = \delta\theta_i(s - 1)/s > 0$ for $s > 1$",
                ("together", "factor_terms"),
                rel="<",
            ),
        ],
        rel="<",
        given=(sp.Q.gt(s, 1),),
        assumptions=(
            r"$\theta_i > 0$, $s > 1$; $\gamma$ and $\gamma + \delta$, $\delta > 0$, two values of the ramp (it is "
            "nondecreasing in $i$)",
        ),
        formula=sp.Lt(scaled_frequency(gamma + delta), scaled_frequency(gamma), evaluate=False),
        domains={"s": FACTOR_GT1},
        notes=r"So $\theta'_i$ moves monotonically from $\theta_i$ ($\gamma = 0$) to $\theta_i/s$ ($\gamma = 1$); "
        r"as $\gamma_i$ rises with $i$, $\theta'_i/\theta_i$ falls with $i$. Multiplying by $s$ instead of dividing "
        r"would give a drop of $\delta \theta_i (s - 1)$.",
        wrong=before - delta * theta_i * (s - 1),
    )


def yarn_definition() -> Definition:
    def theta_prime(length):
        lo = sp.Max(correction_dimension(32, length), 0)
        hi = sp.Min(correction_dimension(1, length), d_even - 1)
        g = sp.Min(sp.Max((i - lo) / (hi - lo), 0), 1)
        return yarn_blend(g, b ** (-2 * i / d_even))

    return Definition(
        "extension-yarn-inv-freq",
        r"YaRN in the code with an unrounded correction range: "
        r"$\theta'_i = \gamma_i \theta_i/s + (1 - \gamma_i) \theta_i$ with the ramp from $c(32)$ to $c(1)$",
        TOPIC,
        f"{sources.YARN}; {HF}",
        YarnInvFreq(i, d_even, b, s, L0),
        theta_prime(L0),
        r"$\gamma_i = \operatorname{clip}((i - \mathrm{low})/(\mathrm{high} - \mathrm{low}), 0, 1)$, "
        r"$\mathrm{low} = \max(c(\beta_{\mathrm{fast}}), 0)$, $\mathrm{high} = \min(c(\beta_{\mathrm{slow}}), d - 1)$, "
        r"$c(r) = d \ln(L_0/(2\pi r))/(2 \ln b)$, $\beta_{\mathrm{fast}} = 32$, $\beta_{\mathrm{slow}} = 1$",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'yarn', default betas, truncate=False)",
        assumptions=(
            r"$d$ even, $i = 0, \dots, d/2 - 1$; $b \in [10^3, 10^6]$, $L_0 \in [512, 65536]$, $s \in [1, 64]$ "
            r"(integers): there $\mathrm{low} < \mathrm{high}$, so the $0.001$ widening of "
            r"$\mathrm{low} = \mathrm{high}$ is not exercised",
            "an unrounded correction range (`truncate=False`, gpt-oss's setting): low and high are the real "
            "correction dimensions",
        ),
        formula=sp.Eq(THETA_PRIME[i], _G[i] * TH[i] / s + (1 - _G[i]) * TH[i], evaluate=False),
        sizes={d_even: (16, 128)},
        domains={
            "i": PAIR,
            "b": Domain("integer", 10**3, 10**6, log=True),
            "s": FACTOR_INT,
            "L_0": Domain("integer", 512, 65536, log=True),
        },
        notes=(
            r"With the range rounded outward (the default, `truncate=True`) low and high are "
            r"$\lfloor c(32) \rfloor$ and $\lceil c(1) \rceil$: [[claim:extension-yarn-truncated-inv-freq]]; the "
            r"float64 kernel is compared in [[claim:extension-float64-agrees]]. Taking the correction range from the "
            r"extended length $s L_0$ instead of the trained $L_0$ gives other frequencies."
        ),
        wrong=theta_prime(s * L0),
    )


def yarn_truncated_definition() -> Definition:
    def theta_prime(length):
        lo = sp.Max(sp.floor(correction_dimension(32, length)), 0)
        hi = sp.Min(sp.ceiling(correction_dimension(1, length)), d_even - 1)
        g = sp.Min(sp.Max((i - lo) / (hi - lo), 0), 1)
        return yarn_blend(g, b ** (-2 * i / d_even))

    return Definition(
        "extension-yarn-truncated-inv-freq",
        r"YaRN in the code with its default, outward-rounded correction range: the ramp runs from "
        r"$\lfloor c(32) \rfloor$ to $\lceil c(1) \rceil$",
        TOPIC,
        f"{sources.YARN}; {HF}",
        YarnTruncatedInvFreq(i, d_even, b, s, L0),
        theta_prime(L0),
        r"$\gamma_i = \operatorname{clip}((i - \mathrm{low})/(\mathrm{high} - \mathrm{low}), 0, 1)$, "
        r"$\mathrm{low} = \max(\lfloor c(\beta_{\mathrm{fast}}) \rfloor, 0)$, "
        r"$\mathrm{high} = \min(\lceil c(\beta_{\mathrm{slow}}) \rceil, d - 1)$, "
        r"$c(r) = d \ln(L_0/(2\pi r))/(2 \ln b)$, $\beta_{\mathrm{fast}} = 32$, $\beta_{\mathrm{slow}} = 1$",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'yarn', default betas, truncate=True)",
        assumptions=(
            r"$d$ even, $i = 0, \dots, d/2 - 1$; $b \in [10^3, 10^6]$, $L_0 \in [512, 65536]$, $s \in [1, 64]$ "
            r"(integers): there $\mathrm{low} < \mathrm{high}$, so the $0.001$ widening of "
            r"$\mathrm{low} = \mathrm{high}$ is not exercised",
            r"$c(r)$ is never an integer for integer $b$ and $L_0$ ($2\pi$ is transcendental): floor and ceil are "
            "decided",
        ),
        formula=sp.Eq(
            _G[i],
            _clip((i - sp.floor(_c(32))) / (sp.ceiling(_c(1)) - sp.floor(_c(32))), 0, 1),
            evaluate=False,
        ),
        sizes={d_even: (16, 128)},
        domains={
            "i": PAIR,
            "b": Domain("integer", 10**3, 10**6, log=True),
            "s": FACTOR_INT,
            "L_0": Domain("integer", 512, 65536, log=True),
        },
        notes="Left as the real correction dimensions, the ramp's ends give other frequencies.",
        wrong=yarn_blend(
            sp.Min(
                sp.Max(
                    (i - sp.Max(correction_dimension(32, L0), 0))
                    / (sp.Min(correction_dimension(1, L0), d_even - 1) - sp.Max(correction_dimension(32, L0), 0)),
                    0,
                ),
                1,
            ),
            b ** (-2 * i / d_even),
        ),
    )


mu, mu_all = sp.symbols("mu mu_all", positive=True)


def yarn_attention_definition() -> Definition:
    return Definition(
        "extension-yarn-attention-factor",
        r"YaRN's attention factor in the code: $0.1 \ln s + 1$",
        TOPIC,
        f"{sources.YARN}, §3.4; {HF}",
        YarnAttentionFactor(s),
        sp.log(s) / 10 + 1,
        r"$m(s, 1) = 0.1 \ln s + 1$ multiplies $\cos$ and $\sin$ when no `attention_factor` or `mscale` is given",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'yarn'), second value",
        assumptions=(r"$s \ge 1$ (drawn as integers; at $s = 1$ the factor is 1 either way)",),
        formula=sp.Eq(YarnAttentionFactor(s), sp.log(s) / 10 + 1, evaluate=False),
        domains={"s": FACTOR_INT},
        notes="It multiplies cos and sin, so the logits scale by its square "
        "([[claim:extension-scaled-rope-relative]]); the "
        "factor itself is not that square.",
        wrong=(sp.log(s) / 10 + 1) ** 2,
    )


def yarn_mscale_definition() -> Definition:
    return Definition(
        "extension-yarn-mscale-ratio",
        r"YaRN with `mscale` and `mscale_all_dim` in the code: "
        r"$(0.1 \mu \ln s + 1)/(0.1 \mu_{\mathrm{all}} \ln s + 1)$",
        TOPIC,
        f"{sources.YARN}, §3.4; {HF}",
        YarnAttentionFactor(s, mu, mu_all),
        (mu * sp.log(s) / 10 + 1) / (mu_all * sp.log(s) / 10 + 1),
        r"$m(s, \mathrm{mscale})/m(s, \mathrm{mscale\_all\_dim})$ with $m(s, a) = 0.1 a \ln s + 1$ when both are "
        "given and non-zero",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'yarn', mscale, mscale_all_dim), second value",
        assumptions=(
            r"$s \ge 1$, $\mu = \mathrm{mscale} > 0$, $\mu_{\mathrm{all}} = \mathrm{mscale\_all\_dim} > 0$ (drawn as "
            "integers)",
        ),
        formula=sp.Eq(
            YarnAttentionFactor(s, mu, mu_all),
            (mu * sp.log(s) / 10 + 1) / (mu_all * sp.log(s) / 10 + 1),
            evaluate=False,
        ),
        domains={"s": FACTOR_INT, "mu": Domain("integer", 1, 8), "mu_all": Domain("integer", 1, 8)},
        notes=r"With $\mu = \mu_{\mathrm{all}}$ (DeepSeek-V3 sets both to 1) the factor is 1. Without the "
        "denominator it would not be.",
        wrong=mu * sp.log(s) / 10 + 1,
    )


def claims() -> list:
    return [
        yarn_correction_dimension(),
        yarn_blend_ends(),
        yarn_monotone(),
        yarn_definition(),
        yarn_truncated_definition(),
        yarn_attention_definition(),
        yarn_mscale_definition(),
    ]


# ---- the rules table and printing (symbolic.tables) ------------------------------------------------------------

RULES_ROWS = (common.rule_row(150, "RoPE + YaRN", "yarn"),)


def _symbols() -> tuple[tables.Name, ...]:
    r"""The ramp ``γ_i`` between ``low`` and ``high`` (with the correction range unrounded and rounded), the
    correction dimension ``c(r)`` at ``r = 32`` and ``1`` (printed once, as ``c(r)``), and the frequency ``θ_i``."""
    low_, high_, gamma_i = sp.Symbol("low"), sp.Symbol("high"), sp.Symbol("gamma_i")

    def clip(lo, hi):  # the ramp as the kernels build it
        return sp.Min(sp.Max((i - lo) / (hi - lo), 0), 1)

    c32, c1 = correction_dimension(32, L0), correction_dimension(1, L0)
    out = []
    for lo_c, hi_c in ((c32, c1), (sp.floor(c32), sp.ceiling(c1))):
        lo, hi = sp.Max(lo_c, 0), sp.Min(hi_c, d_even - 1)
        out.append(tables.Name(clip(lo, hi), gamma_i, clip(low_, high_)))
        out.append(tables.Name(lo, low_, lo.xreplace({c32: _c(32)})))
        out.append(tables.Name(hi, high_, hi.xreplace({c1: _c(1)})))
    general = (_c(r), correction_dimension(r))
    out += [tables.Name(c32, _c(32), c32, general), tables.Name(c1, _c(1), c1, general), common.FREQUENCY]
    return tuple(out)


SYMBOLS = _symbols()
