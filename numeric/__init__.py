r"""Vectorised NumPy implementations of positional-encoding schemes and mpmath references of the same.

One module per scheme (``sinusoid``, ``alibi``, ``deberta``, ``t5``, ``transformer_xl``, ``rotary`` and its
context-extension rules ``scaling``); this package re-exports their kernels, each imported on first use. The tools
built on the kernels live in their own modules and are not re-exported here: ``extension`` (out-of-distribution
diagnostics), ``audit`` (users' implementations), ``precision_profile``, ``vectors`` (golden vectors);
``tolerances`` and ``formatting`` are the float tolerances and the one number formatter.

>>> from posproof.numeric import rope, alibi_slopes
>>> alibi_slopes(2).tolist()
[0.0625, 0.00390625]
"""

from __future__ import annotations

import importlib

if __name__ != "posproof.numeric":  # one import identity: never a second copy
    raise ImportError(f"import posproof.numeric, not {__name__} (the folder installs as posproof.numeric)")

#: Each scheme's kernels, by module.
KERNELS = {
    "sinusoid": ("sinusoidal", "sinusoidal_mp", "inverse_frequencies", "inverse_frequencies_mp"),
    "alibi": ("alibi_bias", "alibi_slope_exponents", "alibi_slopes", "alibi_slopes_mp"),
    "deberta": (
        "deberta_delta",
        "deberta_log_bucket",
        "deberta_log_bucket_mp",
        "deberta_relative_index",
        "deberta_scores_direct",
        "deberta_scores_gather",
    ),
    "t5": (
        "T5BucketConfig",
        "print_t5_bucket_table",
        "t5_bias",
        "t5_bucket_boundaries",
        "t5_bucket_table",
        "t5_relative_bucket",
        "t5_relative_bucket_mp",
    ),
    "transformer_xl": (
        "causal_mask",
        "rel_shift",
        "rel_shift_garbage",
        "txl_relative_embeddings",
        "txl_scores_direct",
        "txl_scores_shift",
    ),
    "xpos": ("rope_xpos", "rope_xpos_mp", "xpos_zeta"),
    "p_rope": ("p_rope", "p_rope_frequencies", "p_rope_frequencies_mp"),
    "remap": (
        "self_extend_relative",
        "self_extend_relative_mp",
        "rerope_relative",
        "rerope_relative_mp",
        "leaky_rerope_relative",
        "leaky_rerope_relative_mp",
    ),
    "dual_chunk": (
        "dual_chunk_relative",
        "dual_chunk_relative_mp",
        "dual_chunk_region",
        "dual_chunk_indices",
        "dual_chunk_parameters",
    ),
    "cope": (
        "cope_gates",
        "cope_gates_mp",
        "cope_positions",
        "cope_positions_mp",
        "cope_interpolate",
        "cope_interpolate_mp",
        "cope_scores",
        "cope_scores_mp",
    ),
    "bias_kernels": (
        "fire_normalized_distance",
        "fire_normalized_distance_mp",
        "sandwich_bias",
        "sandwich_bias_mp",
        "kerple_log_bias",
        "kerple_log_bias_mp",
        "kerple_power_bias",
        "kerple_power_bias_mp",
    ),
    "nope": ("nope_first_layer", "nope_first_layer_mp", "bos_values", "recover_positions"),
    "temperature": (
        "llama4_attention_temperature",
        "llama4_attention_temperature_mp",
        "llama4_rope_layers",
        "llama4_temperature_parameters",
        "logn_attention_scale",
        "logn_attention_scale_mp",
        "logn_parameters",
    ),
    "rotary": (
        "rope",
        "rope_table",
        "RopeTable",
        "rope_mp",
        "rope_decay_curve",
        "rope_decay_curve_mp",
        "layout_permutation",
        "interleaved_to_half_rows",
    ),
    "scaling": (
        "RopeScaling",
        "rope_inv_freq",
        "rope_inv_freq_mp",
        "rope_inv_freq_from_config",
        "rope_scaling_from_config",
    ),
}

_HOME = {name: module for module, names in KERNELS.items() for name in names}

__all__ = [name for names in KERNELS.values() for name in names]


def __getattr__(name: str):
    if name in _HOME:
        value = getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))
