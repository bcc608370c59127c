r"""Llama 3 (``rope_type`` ``llama3``): the wavelength bands join without a jump, the code's frequencies (the
kernel :class:`Llama3InvFreq`), and how Llama 3.1's configuration splits its 64 pairs."""

from __future__ import annotations

import mpmath
import sympy as sp
from posproof.numeric.scaling.rules import rope_inv_freq_mp
from posproof.numeric.sinusoid import inverse_frequencies_mp
from posproof.symbolic import sources, tables
from posproof.symbolic.engine.core import Definition, Domain, Fact, Step, Theorem
from posproof.symbolic.scaling import common
from posproof.symbolic.scaling.common import (
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
from sympy.core.parameters import evaluate


class Llama3InvFreq(RuleInvFreq):
    r"""``theta'_i`` of ``{"rope_type": "llama3", "factor": s, "original_max_position_embeddings": L_0,
    "low_freq_factor": f_low, "high_freq_factor": f_high}`` (args ``i, d, b, s, L_0, f_low, f_high``)."""

    nargs = 7
    rule = "llama3"

    @classmethod
    def scaling_of(cls, factor, trained, low, high):
        return {
            "rope_type": "llama3",
            "factor": exact_float(factor),
            "original_max_position_embeddings": exact_int(trained),
            "low_freq_factor": exact_float(low),
            "high_freq_factor": exact_float(high),
        }, {}


# ==============================================================================================================
# Llama 3.
# ==============================================================================================================

f_low, f_high = sp.symbols("f_low f_high", positive=True)
lam = sp.Symbol("lambda", positive=True)


def llama3_blend(wavelength, high=f_high):
    freq = 2 * sp.pi / wavelength
    sig = (L0 / wavelength - f_low) / (high - f_low)
    return (1 - sig) * freq / s + sig * freq


def llama3_continuous() -> Theorem:
    gap = sp.Symbol("w", positive=True)
    high = f_low + gap
    with evaluate(False):
        lhs = sp.Matrix([llama3_blend(L0 / f_low, high), llama3_blend(L0 / high, high)])
    rhs = sp.Matrix([2 * sp.pi * f_low / (L0 * s), 2 * sp.pi * high / L0])
    return identity(
        "extension-llama3-blend-continuous",
        r"Llama 3: the blend $(1 - \sigma)\theta/s + \sigma\theta$ meets $\theta/s$ at "
        r"$\lambda = L_0/f_{\mathrm{low}}$ "
        r"($\sigma = 0$) and $\theta$ at $\lambda = L_0/f_{\mathrm{high}}$ ($\sigma = 1$)",
        sources.LLAMA3,
        [
            Step(
                lhs,
                rhs,
                r"$\sigma = (L_0/\lambda - f_{\mathrm{low}})/(f_{\mathrm{high}} - f_{\mathrm{low}})$ is 0 at "
                r"$\lambda = L_0/f_{\mathrm{low}}$ and 1 at $\lambda = L_0/f_{\mathrm{high}}$; $\theta = 2\pi/\lambda$",
                ("cancel",),
            )
        ],
        assumptions=(
            r"$\theta = 2\pi/\lambda$ the frequency of wavelength $\lambda$; $L_0$ the trained length; $s > 0$",
            r"$0 < f_{\mathrm{low}} < f_{\mathrm{high}}$, written $f_{\mathrm{high}} = f_{\mathrm{low}} + w$ "
            "with $w > 0$",
            r"$\lambda > L_0/f_{\mathrm{low}}$ gives $\theta/s$ and $\lambda < L_0/f_{\mathrm{high}}$ gives $\theta$ "
            "(the two outer bands)",
        ),
        formula=(
            sp.Eq(scaled_frequency(L0 / f_low), 2 * sp.pi * f_low / (L0 * s), evaluate=False),
            sp.Eq(scaled_frequency(L0 / f_high), 2 * sp.pi * f_high / L0, evaluate=False),
        ),
        notes=(
            r"So the three bands join without a jump, and a wavelength exactly on a boundary gets the same "
            r"frequency from either side. The blend does not run the other way ($\sigma = 1$ at"
            r" $L_0/f_{\mathrm{low}}$)."
        ),
        wrong=sp.Matrix([2 * sp.pi * f_low / L0, 2 * sp.pi * high / (L0 * s)]),
    )


def llama3_definition() -> Definition:
    theta = b ** (-2 * i / d_even)
    wavelength = 2 * sp.pi / theta
    sig = (L0 / wavelength - f_low) / (f_high - f_low)
    rule = sp.Piecewise(
        (theta, wavelength < L0 / f_high),
        (theta / s, wavelength > L0 / f_low),
        ((1 - sig) * theta / s + sig * theta, True),
    )
    return Definition(
        "extension-llama3-inv-freq",
        r"Llama 3 in the code: $\theta_i$ below $L_0/f_{\mathrm{high}}$, $\theta_i/s$ above $L_0/f_{\mathrm{low}}$, "
        "the blend between",
        TOPIC,
        f"{sources.LLAMA3}; {HF}",
        Llama3InvFreq(i, d_even, b, s, L0, f_low, f_high),
        rule,
        r"Meta's `apply_scaling` on the wavelengths $\lambda_i = 2\pi/\theta_i$, "
        r"$\sigma = (L_0/\lambda_i - f_{\mathrm{low}})/(f_{\mathrm{high}} - f_{\mathrm{low}})$",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'llama3')",
        assumptions=(
            r"$d$ even, $i = 0, \dots, d/2 - 1$; $b \in [10^4, 10^6]$, $L_0 \in [1024, 2^{17}]$, $s \in [2, 32]$, "
            r"$f_{\mathrm{low}} \in \{1, 2\}$, $f_{\mathrm{high}} \in [3, 8]$ (integers)",
        ),
        formula=sp.Eq(
            THETA_PRIME[i],
            sp.Piecewise(
                (TH[i], sp.Lt(2 * sp.pi / TH[i], L0 / f_high)),
                (TH[i] / s, sp.Gt(2 * sp.pi / TH[i], L0 / f_low)),
                ((1 - sp.Symbol("sigma_i")) * TH[i] / s + sp.Symbol("sigma_i") * TH[i], True),
            ),
            evaluate=False,
        ),
        sizes={d_even: (16, 128)},
        domains={
            "i": PAIR,
            "b": Domain("integer", 10**4, 10**6, log=True),
            "s": Domain("integer", 2, 32),
            "L_0": Domain("integer", 1024, 2**17, log=True),
            "f_low": Domain("integer", 1, 2),
            "f_high": Domain("integer", 3, 8),
        },
        notes="Returning the unscaled frequencies there would be a bug: they differ.",
        wrong=theta,
    )


def _llama31_bands(dps: int, rule: str = "llama3"):
    scaling = {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192}
    scaling |= {"low_freq_factor": 1.0, "high_freq_factor": 4.0}
    if rule == "default":  # the wrong computation: the unscaled frequencies
        scaling = {}
    scaled, _ = rope_inv_freq_mp(128, base=500000.0, scaling=scaling, dps=dps)
    plain = inverse_frequencies_mp(128, base=500000.0, dps=dps)
    ratio = [t2 / t1 for t1, t2 in zip(plain, scaled, strict=True)]
    kept = [j for j, x in enumerate(ratio) if x == 1]
    divided = [j for j, x in enumerate(ratio) if abs(x * 8 - 1) <= mpmath.mpf(10) ** (-dps + 5)]
    blended = [j for j, x in enumerate(ratio) if j not in kept and j not in divided]
    value = {"kept": len(kept), "blended": len(blended), "divided by s": len(divided)}
    rows = [
        ("kept pairs", f"{kept[0]}..{kept[-1]}" if kept else "none"),
        ("blended pairs", blended),
        ("θ'/θ of the blended pairs", [mpmath.nstr(ratio[j], 6) for j in blended]),
        ("divided pairs", f"{divided[0]}..{divided[-1]}" if divided else "none"),
    ]
    return value, rows


def llama31_bands() -> Fact:
    return Fact(
        "extension-llama3-bands-llama31",
        r"Llama 3.1 ($d = 128$, $b = 500000$, $s = 8$, $L_0 = 8192$, $f_{\mathrm{low}} = 1$, $f_{\mathrm{high}} = 4$): "
        "29 pairs kept, 6 blended, 29 divided by 8",
        TOPIC,
        f"{sources.LLAMA3}; {HF}",
        "`numeric.scaling.rope_inv_freq_mp` at Llama 3.1's configuration, compared pair by pair with the trained "
        r"$\theta_i = 500000^{-2i/128}$: $\theta'_i = \theta_i$ exactly for the short wavelengths $\lambda_i < 2048$, "
        r"$\theta'_i = \theta_i/8$ for $\lambda_i > 8192$, strictly between for the pairs in between.",
        {"kept": 29, "blended": 6, "divided by s": 29},
        _llama31_bands,
        method="mpmath at {dps} digits (numeric.scaling.rope_inv_freq_mp)",
        wrong=lambda dps: _llama31_bands(dps, rule="default"),
        formula=(
            sp.Eq(sp.Symbol("N_{kept}"), 29, evaluate=False),
            sp.Eq(sp.Symbol("N_{blended}"), 6, evaluate=False),
            sp.Eq(sp.Symbol("N_{divided}"), 29, evaluate=False),
        ),
        notes=r"The unscaled frequencies (a bug seen in ports of `apply_scaling`) differ.",
    )


def claims() -> list:
    return [
        llama3_continuous(),
        llama3_definition(),
        llama31_bands(),
    ]


# ---- the rules table and printing (symbolic.tables) ------------------------------------------------------------

RULES_ROWS = (common.rule_row(160, "RoPE + Llama 3", "llama3"),)


def _symbols() -> tuple[tables.Name, ...]:
    r"""The blend weight ``σ_i`` of a wavelength ``λ_i = 2π/θ_i`` between the bands, and the frequency ``θ_i``."""
    sigma_i, lambda_i = sp.Symbol("sigma_i"), sp.Symbol("lambda_i")
    wavelength = 2 * sp.pi / common.FREQUENCY.pattern
    blend = (L0 / wavelength - f_low) / (f_high - f_low)
    return (
        tables.Name(blend, sigma_i, (L0 / lambda_i - f_low) / (f_high - f_low)),
        tables.Name(wavelength, lambda_i, 2 * sp.pi / TH[i]),
        common.FREQUENCY,
    )


SYMBOLS = _symbols()
