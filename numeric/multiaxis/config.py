r"""The transformers configuration reader of multi-axis RoPE: a model's ``config.json`` (as a dict) to its
frequencies and axis map (:func:`rope_axes_from_config`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from posproof.numeric._deprecated import old_arguments
from posproof.numeric.multiaxis.axial import axial_axes, axial_inv_freq
from posproof.numeric.multiaxis.mrope import INTERLEAVED_MODEL_TYPES, mrope_axes, mrope_sections


def _rope_holder(config) -> dict:
    r"""The part of a configuration that holds the rotary settings: the top level, or ``text_config``."""
    if not isinstance(config, dict):
        raise ValueError(f"config must be a mapping (a model's config.json as a dict), got {type(config).__name__}")
    keys = ("rope_parameters", "rope_scaling", "rope_theta", "head_dim", "hidden_size")
    if not any(k in config for k in keys) and isinstance(config.get("text_config"), dict):
        return config["text_config"]
    return config


class MultiaxisFrequencies(NamedTuple):
    r"""What :func:`rope_axes_from_config` gives: ``inv_freq`` float64 ``(rotary_dim/2,)``, ``axes`` int64
    ``(rotary_dim/2,)`` (the axis each rotated pair turns with) and the ``attention_factor`` of cos and sin."""

    inv_freq: np.ndarray
    axes: np.ndarray
    attention_factor: float

    @property
    def rotary_dim(self) -> int:
        r"""The channels that rotate, ``2 * len(inv_freq)``: transformers' ``int(head_dim * partial_rotary_factor)``
        (the head width without a partial factor); the channels after them pass through."""
        return 2 * int(self.inv_freq.size)


@old_arguments(positional=("config", "seq_len"))
def rope_axes_from_config(config, *, seq_len: int | None = None, layer_type: str | None = None) -> MultiaxisFrequencies:
    r"""``(inv_freq, axes, attention_factor)`` of a multi-axis transformers configuration: M-RoPE (``mrope_section``
    in ``rope_parameters`` or ``rope_scaling``, interleaved when ``mrope_interleaved`` is true or the model is a
    Qwen3-VL) or axial 2-D (``rope_type: "axial"``). The frequencies are
    :func:`~posproof.numeric.scaling.rules.rope_inv_freq_from_config`'s (every scaling rule it reads, the partial rotary
    factor included), laid out by the axis map. With ``partial_rotary_factor < 1`` (GLM-4V) the sections split the
    ``rotary_dim/2`` rotated pairs (``.rotary_dim`` of the result); pass ``rotary_dim=`` on to
    :func:`~posproof.numeric.rotary.rope`, the other channels pass through.

    >>> qwen2_vl = {"hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0,
    ...             "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}}
    >>> inv_freq, axes, factor = rope_axes_from_config(qwen2_vl)
    >>> inv_freq.shape, axes[[0, 15, 16, 39, 40, 63]].tolist(), factor
    ((64,), [0, 0, 1, 1, 2, 2], 1.0)
    >>> glm41v = {"hidden_size": 4096, "num_attention_heads": 32, "partial_rotary_factor": 0.5, "rope_theta": 10000.0,
    ...           "rope_scaling": {"type": "default", "mrope_section": [8, 12, 12]}}
    >>> rope_axes_from_config(glm41v).rotary_dim  # of head_dim 128: channels 64 .. 127 pass through
    64
    """
    from posproof.numeric.scaling.rules import rope_inv_freq_from_config, rope_scaling_from_config

    holder = _rope_holder(config)
    params = holder.get("rope_parameters") or holder.get("rope_scaling") or {}
    if not isinstance(params, dict):
        raise ValueError(f"rope_parameters must be a mapping, got {params!r}")
    if params.get("rope_type", params.get("type")) == "axial":
        width = holder.get("head_dim") or (
            holder["hidden_size"] // holder["num_attention_heads"]
            if "hidden_size" in holder and "num_attention_heads" in holder
            else None
        )
        if width is None:
            raise ValueError("config needs head_dim (or hidden_size and num_attention_heads) for axial RoPE")
        base = params.get("rope_theta", holder.get("rope_theta"))
        if base is None:
            raise ValueError("config needs rope_theta (in rope_parameters or at the top) for axial RoPE")
        return MultiaxisFrequencies(axial_inv_freq(int(width), base=float(base)), axial_axes(int(width)), 1.0)
    if "mrope_section" not in params:
        raise ValueError(
            "config has no mrope_section (M-RoPE) and no rope_type 'axial': for 1-D RoPE use rope_inv_freq_from_config"
        )
    inv_freq, factor = rope_inv_freq_from_config(config, seq_len=seq_len, layer_type=layer_type)
    sections = mrope_sections(params["mrope_section"])
    if sum(sections) != inv_freq.size:
        head = rope_scaling_from_config(config, layer_type=layer_type).width
        why = (
            f"rotary_dim/2: int(head_dim * partial_rotary_factor) = {2 * inv_freq.size} of head_dim {head} rotate"
            if 2 * inv_freq.size != head
            else "head_dim/2"
        )
        raise ValueError(
            f"mrope_section must add up to the number of rotated pairs, {inv_freq.size} ({why}), "
            f"got {params['mrope_section']} (sum {sum(sections)})"
        )
    model_type = str(config.get("model_type", holder.get("model_type", "")))
    interleaved = bool(params.get("mrope_interleaved", holder.get("mrope_interleaved", False)))
    interleaved = interleaved or model_type in INTERLEAVED_MODEL_TYPES
    return MultiaxisFrequencies(inv_freq, mrope_axes(sections, interleaved=interleaved), factor)
