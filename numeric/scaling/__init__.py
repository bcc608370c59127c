r"""RoPE context extension: the rules (:mod:`.rules`: :class:`RopeScaling`, the frequencies of every rule in
float64 and at 50 digits, and the reader of model configurations) and the diagnostics of what a rule does at a
target length (:mod:`.extension`).

>>> from posproof.numeric.scaling import rope_inv_freq
>>> inv_freq, attention_factor = rope_inv_freq(4, base=10000.0)
>>> inv_freq.tolist(), attention_factor
([1.0, 0.01], 1.0)
"""

from __future__ import annotations

from posproof.numeric.scaling.rules import (
    OTHER_ROPE_TYPES,
    ROPE_TYPES,
    RopeScaling,
    config_layer_types,
    proportional_inv_freq,
    rope_inv_freq,
    rope_inv_freq_from_config,
    rope_inv_freq_mp,
    rope_scaling_from_config,
)

__all__ = [
    "ROPE_TYPES",
    "OTHER_ROPE_TYPES",
    "RopeScaling",
    "rope_inv_freq",
    "rope_inv_freq_mp",
    "rope_inv_freq_from_config",
    "rope_scaling_from_config",
    "config_layer_types",
    "proportional_inv_freq",
]
