r"""Context extension of RoPE: what each scaling rule does to the frequencies, proved, and the code in
:mod:`numeric.scaling` checked against the formulas at 50 digits.

Notation: ``d`` the rotary width, pairs ``i = 0 .. d/2 - 1``, ``theta_i = b^(-2i/d)``, ``s`` the factor, ``L_0``
the trained length, ``n`` the current length. Every rule changes ``theta_i`` into ``theta'_i = f_i theta_i`` (and
may scale cos and sin by an attention factor ``A``); the relative-position algebra of RoPE is untouched
(``extension-scaled-rope-relative``). The last claims re-derive Theorem 2.1 of Chen et al. 2023 (the
interpolation bound) step by step: one step of its proof is false, and so is the theorem at LLaMA's setting.

The claims live one rule per module, in reading order (the registry lists them):
:mod:`symbolic.scaling.relative` (every rule keeps the relative identity), :mod:`symbolic.scaling.linear`
(Position Interpolation), :mod:`symbolic.scaling.ntk` (NTK-aware and dynamic NTK), :mod:`symbolic.scaling.yarn`,
:mod:`symbolic.scaling.llama3`, :mod:`symbolic.scaling.float64` (the float64 kernel against its twin) and
:mod:`symbolic.scaling.pi_theorem` (Theorem 2.1 of Chen et al.); :mod:`symbolic.scaling.common` holds their
symbols, domains and kernel base. This module re-exports their names and lists their claims in that order.

>>> [c.id for c in claims()][:2]
['extension-scaled-rope-relative', 'extension-pi-angle-in-range']
"""

from __future__ import annotations

from posproof.symbolic.scaling import float64 as scaling_float64
from posproof.symbolic.scaling import linear as scaling_linear
from posproof.symbolic.scaling import llama3 as scaling_llama3
from posproof.symbolic.scaling import ntk as scaling_ntk
from posproof.symbolic.scaling import pi_theorem as scaling_pi_theorem
from posproof.symbolic.scaling import relative as scaling_relative
from posproof.symbolic.scaling import yarn as scaling_yarn
from posproof.symbolic.scaling.common import BASE_INT, FACTOR_GT1, FACTOR_INT, L0, PAIR, TOPIC, b, i, s
from posproof.symbolic.scaling.float64 import FLOAT64_CONFIGS, float64_agrees
from posproof.symbolic.scaling.linear import LinearInvFreq, linear_definition, pi_angle_in_range
from posproof.symbolic.scaling.llama3 import (
    Llama3InvFreq,
    llama3_blend,
    llama3_continuous,
    llama3_definition,
    llama31_bands,
)
from posproof.symbolic.scaling.ntk import (
    DynamicInvFreq,
    NtkInvFreq,
    dynamic_definition,
    dynamic_ntk,
    ntk_base,
    ntk_conditions,
    ntk_definition,
)
from posproof.symbolic.scaling.pi_theorem import (
    pi_corrected_constant,
    pi_counterexample,
    pi_geometric_bound,
    pi_remainder,
    pi_remainder_bound,
    pi_step14_fails,
)
from posproof.symbolic.scaling.relative import scaled_relative
from posproof.symbolic.scaling.yarn import (
    YarnAttentionFactor,
    YarnInvFreq,
    YarnTruncatedInvFreq,
    correction_dimension,
    ramp,
    yarn_attention_definition,
    yarn_blend,
    yarn_blend_ends,
    yarn_correction_dimension,
    yarn_definition,
    yarn_monotone,
    yarn_mscale_definition,
    yarn_truncated_definition,
)
from posproof.symbolic.symbols import TH, d_even, m, n, theta_i

#: The rule modules in reading order (the order of the registry).
MODULES = (
    scaling_relative,
    scaling_linear,
    scaling_ntk,
    scaling_yarn,
    scaling_llama3,
    scaling_float64,
    scaling_pi_theorem,
)

__all__ = [
    "BASE_INT", "FACTOR_GT1", "FACTOR_INT", "FLOAT64_CONFIGS", "L0", "MODULES", "PAIR", "TH", "TOPIC",
    "DynamicInvFreq", "Llama3InvFreq", "LinearInvFreq", "NtkInvFreq", "YarnAttentionFactor", "YarnInvFreq",
    "YarnTruncatedInvFreq", "b", "claims", "correction_dimension", "d_even", "dynamic_definition", "dynamic_ntk",
    "float64_agrees", "i", "linear_definition", "llama31_bands", "llama3_blend", "llama3_continuous",
    "llama3_definition", "m", "n", "ntk_base", "ntk_conditions", "ntk_definition", "pi_angle_in_range",
    "pi_corrected_constant", "pi_counterexample", "pi_geometric_bound", "pi_remainder", "pi_remainder_bound",
    "pi_step14_fails", "ramp", "s", "scaled_relative", "theta_i", "yarn_attention_definition", "yarn_blend",
    "yarn_blend_ends", "yarn_correction_dimension", "yarn_definition", "yarn_monotone", "yarn_mscale_definition",
    "yarn_truncated_definition",
]  # fmt: skip


def claims() -> list:
    r"""Every context-extension claim, the rule modules' claims in reading order."""
    return [c for module in MODULES for c in module.claims()]
