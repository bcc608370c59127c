r"""Vectorised NumPy implementations of positional-encoding schemes and mpmath references of the same."""

from . import tolerances  # noqa: F401  (numeric.tolerances is public)
from .alibi import alibi_bias, alibi_slope_exponents, alibi_slopes, alibi_slopes_mp
from .deberta import (
    deberta_delta,
    deberta_log_bucket,
    deberta_log_bucket_mp,
    deberta_relative_index,
    deberta_scores_direct,
    deberta_scores_gather,
)
from .extension import ExtensionReport, base_bound, critical_dimension, diagnose, extension_report, phase_coverage
from .rotary import (
    RopeTable,
    interleaved_to_half_rows,
    layout_permutation,
    rope,
    rope_decay_curve,
    rope_decay_curve_mp,
    rope_mp,
    rope_table,
)
from .scaling import (
    RULES,
    RopeScaling,
    rope_inv_freq,
    rope_inv_freq_from_config,
    rope_inv_freq_mp,
    rope_scaling_from_config,
)
from .sinusoid import inverse_frequencies, inverse_frequencies_mp, sinusoidal, sinusoidal_mp
from .t5 import (
    T5BucketConfig,
    print_t5_bucket_table,
    t5_bias,
    t5_bucket_boundaries,
    t5_bucket_table,
    t5_relative_bucket,
    t5_relative_bucket_mp,
)
from .transformer_xl import (
    causal_mask,
    rel_shift,
    rel_shift_garbage,
    txl_relative_embeddings,
    txl_scores_direct,
    txl_scores_shift,
)

__all__ = [
    # sinusoidal
    "sinusoidal",
    "sinusoidal_mp",
    "inverse_frequencies",
    "inverse_frequencies_mp",
    # relative schemes: ALiBi, DeBERTa, T5, Transformer-XL
    "alibi_bias",
    "alibi_slope_exponents",
    "alibi_slopes",
    "alibi_slopes_mp",
    "deberta_delta",
    "deberta_log_bucket",
    "deberta_log_bucket_mp",
    "deberta_relative_index",
    "deberta_scores_direct",
    "deberta_scores_gather",
    "T5BucketConfig",
    "print_t5_bucket_table",
    "t5_bias",
    "t5_bucket_boundaries",
    "t5_bucket_table",
    "t5_relative_bucket",
    "t5_relative_bucket_mp",
    "causal_mask",
    "rel_shift",
    "rel_shift_garbage",
    "txl_relative_embeddings",
    "txl_scores_direct",
    "txl_scores_shift",
    # RoPE
    "rope",
    "rope_table",
    "RopeTable",
    "rope_mp",
    "rope_decay_curve",
    "rope_decay_curve_mp",
    "layout_permutation",
    "interleaved_to_half_rows",
    # RoPE context extension: scaling rules and diagnostics
    "RULES",
    "RopeScaling",
    "rope_inv_freq",
    "rope_inv_freq_mp",
    "rope_inv_freq_from_config",
    "rope_scaling_from_config",
    "ExtensionReport",
    "extension_report",
    "diagnose",
    "phase_coverage",
    "critical_dimension",
    "base_bound",
    # the audit of users' implementations, the precision profile, golden vectors
    "audit_rope",
    "audit_alibi",
    "audit_t5",
    "assert_rope_conforms",
    "RopeCall",
    "RopeReport",
    "AuditCallError",
    "profile_table",
    "format_profile_table",
    "golden_vectors",
    "write_vectors",
]

#: Names of the heavier tools, imported on first use (``posproof check`` does not need them): name -> module.
_LAZY = {
    **dict.fromkeys(
        ("audit_rope", "audit_alibi", "audit_t5", "assert_rope_conforms", "RopeCall", "RopeReport", "AuditCallError"),
        "audit",
    ),
    **dict.fromkeys(("profile_table", "format_profile_table"), "precision_profile"),
    **dict.fromkeys(("golden_vectors", "write_vectors"), "vectors"),
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
