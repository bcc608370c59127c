r"""Context extension in float64: the NumPy kernel :func:`numeric.scaling.rope_inv_freq` against its 50-digit
twin at one generic configuration of each rule (the 50-digit definitions check the twin itself)."""

from __future__ import annotations

import mpmath
import sympy as sp
from posproof.numeric import formatting, tolerances
from posproof.numeric.scaling.rules import rope_inv_freq, rope_inv_freq_mp
from posproof.symbolic.engine.core import Fact
from posproof.symbolic.scaling.common import HF, THETA_PRIME, TOPIC, i

# ==============================================================================================================
# float64 against the 50-digit twin.
# ==============================================================================================================

#: Generic configurations (YaRN's correction dimensions are far from integers; no wavelength on a Llama 3 edge).
FLOAT64_CONFIGS: tuple[tuple[str, int, float, dict, dict], ...] = (
    ("linear", 128, 10000.0, {"rope_type": "linear", "factor": 4.0}, {}),
    ("ntk", 128, 10000.0, {"rope_type": "ntk", "factor": 4.0}, {}),
    ("dynamic", 128, 10000.0, {"rope_type": "dynamic", "factor": 2.0},
     {"seq_len": 8192, "max_position_embeddings": 2048}),
    ("yarn", 128, 10000.0, {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096}, {}),
    (
        "llama3",
        128,
        500000.0,
        {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192, "low_freq_factor": 1.0,
         "high_freq_factor": 4.0},
        {},
    ),
)  # fmt: skip


def _float64(dps: int, extended_yarn: bool = False):
    value: dict = {}
    rows: list[tuple[str, object]] = []
    for rule, width, base, scaling, kw in FLOAT64_CONFIGS:
        ref, ref_factor = rope_inv_freq_mp(width, base=base, scaling=scaling, dps=dps, **kw)
        used = dict(scaling)
        if extended_yarn and rule == "yarn":  # the wrong computation: the range from the extended length
            used["original_max_position_embeddings"] = int(
                scaling["factor"] * scaling["original_max_position_embeddings"]
            )
        got, got_factor = rope_inv_freq(width, base=base, scaling=used, **kw)
        err = max(abs((mpmath.mpf(float(g)) - t) / t) for g, t in zip(got, ref, strict=True))
        err = max(err, abs((mpmath.mpf(got_factor) - ref_factor) / ref_factor))
        value[rule] = bool(err <= tolerances.FLOAT64_RTOL)
        rows.append((f"{rule}: max relative error of float64", formatting.below(err)))
        if rule == "yarn":
            L0v = scaling["original_max_position_embeddings"]
            dims = [width * mpmath.log(L0v / (2 * mpmath.pi * beta)) / (2 * mpmath.log(base)) for beta in (32, 1)]
            gap = min(abs(c - mpmath.nint(c)) for c in dims)
            rows.append(("yarn: c(32), c(1)", dims))
            value["yarn correction dimensions generic"] = bool(gap > 1e-6)
    return value, rows


def float64_agrees() -> Fact:
    return Fact(
        "extension-float64-agrees",
        "The float64 kernel `rope_inv_freq` agrees with its 50-digit twin to $10^{-10}$ at a generic configuration "
        "of each of linear, NTK-aware, dynamic, YaRN and Llama 3",
        TOPIC,
        HF,
        "`rope_inv_freq` (float64) against `rope_inv_freq_mp` at five generic configurations: linear and NTK-aware "
        "($d = 128$, $b = 10^4$, $s = 4$), dynamic NTK ($s = 2$, $L_0 = 2048$, $n = 8192$), YaRN ($s = 8$, "
        "$L_0 = 4096$: $c(32) = 20.94$, $c(1) = 45.03$, far from integers) and Llama 3.1; the relative error of every "
        r"frequency $\hat\theta'_i$ of the float64 kernel and of its attention factor, against the 50-digit "
        r"$\theta'_i$, is at most `FLOAT64_RTOL` $= 10^{-10}$ (measured $\sim 10^{-16}$).",
        {
            "linear": True,
            "ntk": True,
            "dynamic": True,
            "yarn": True,
            "yarn correction dimensions generic": True,
            "llama3": True,
        },
        _float64,
        method="float64 NumPy (numeric.scaling.rope_inv_freq) against mpmath at {dps} digits",
        wrong=lambda dps: _float64(dps, extended_yarn=True),
        formula=sp.Le(
            sp.Abs(sp.IndexedBase("thetahatprime")[i] - THETA_PRIME[i]) / THETA_PRIME[i],
            sp.Pow(10, -10, evaluate=False),
            evaluate=False,
        ),
        notes=(
            r"A float64 kernel can only agree to about $10^{-16}$, so it is compared here with its own "
            r"tolerance, not in a 50-digit definition. Near a YaRN correction dimension within float rounding "
            r"of an integer the floor or ceil can differ, hence the generic configuration. YaRN's "
            r"correction range taken from the extended length $s L_0$ gives other frequencies."
        ),
    )


def claims() -> list:
    return [
        float64_agrees(),
    ]
