r"""The transformers configuration reader of multi-axis RoPE: a model's ``config.json`` (as a dict) to its
declaration (:func:`multiaxis_from_config`) or its frequencies and axis map (:func:`rope_axes_from_config`).

The families, by ``model_type``, as transformers 5.24 computes them (each modeling file's rotary class):

Text rotaries (``mrope_section`` in ``rope_parameters``; pairs on one ladder ``base**(-2i/r)``):

* M-RoPE chunked, rotate-half: Qwen2-VL, Qwen2.5-VL, Qwen2.5-Omni, PaddleOCR-VL, GLM-4V-MoE, GLM-Image;
* M-RoPE chunked, pairs ``(2i, 2i + 1)`` (``repeat_interleave``): GLM-4V, GLM-OCR;
* M-RoPE interleaved (whatever ``mrope_interleaved`` says), rotate-half: Qwen3-VL, Qwen3-VL-MoE, Qwen3-Omni-MoE,
  Qwen3.5, Qwen3.5-MoE, Qwen4-Exp, Cosmos3-Edge, HY-V4-VL, Cohere-Compass (:data:`INTERLEAVED_MODEL_TYPES`);
* Ernie 4.5-VL: an explicit axis map, h and w alternating over the first ``s_h + s_w`` pairs, t on the rest
  (``mrope_section [22, 22, 20]``), pairs ``(2i, 2i + 1)``;
* NeoMME: row and column alternating (pair ``i`` on axis ``i mod 2``), rotate-half;
* HunYuan-VL: XD-RoPE, chunked M-RoPE over its four sections, rotate-half, as Tencent's code and vLLM compute it
  (:mod:`.xdrope`; transformers 5.24's own port computes a channel-split map instead, which an audit then names).

Vision rotaries (``rope_type: "axial"``, the head width ``d`` from ``head_dim`` or the hidden size and heads):

* shared frequencies ``base**(-2j/(d/2))`` on both axes, row (``position_ids[..., 0]``) first, rotate-half: the
  vision towers of Qwen2-VL, Qwen2.5-VL, Qwen2.5-Omni, Qwen3-VL, Qwen3-VL-MoE, Qwen3-Omni-MoE, Qwen3.5,
  Qwen3.5-MoE, Qwen4-Exp, GLM-4V, GLM-4V-MoE, GLM-5-Next, GLM-OCR, PaddleOCR-VL, Ernie 4.5-VL, Exaone 4.5,
  Cohere-Compass, Dots3-Note, LFM3-VL, MLCD, Muse-Glimmer, Muse-Spark, VideoLLaMA3;
* shared, first axis first, pairs ``(2i, 2i + 1)``: SAM 2 video, EdgeTAM video, SAM 3 tracker video (memory
  attention; positions ``(x, y)``) and SAM 3's ViT;
* shared, rotate-half inside each axis's half of the head (``"blocks"``): Gemma 4;
* shared, column first, pairs ``(2i, 2i + 1)``: Inkling2; shared, column first, rotate-half: Step3.5 (Step3p7);
* shared, column and row alternating pair by pair, rotate-half: Kimi-K2.5;
* split frequencies (row ``theta_0, theta_2, ...``, column ``theta_1, theta_3, ...``): Pixtral;
* per-axis ladders over ``2 (d // 6)`` channels for each of ``(t, h, w)``, rotate-half, the rest passing through:
  MiniMax-M3-VL;
* DINOv3 (``dinov3_vit``): shared ``2 pi / period`` over coordinates in ``[-1, 1]`` (:mod:`.coordinates`).

(GLM-Image's vision config declares ``"axial"`` but its vision tower has no rotary.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
from posproof.numeric._deprecated import old_arguments
from posproof.numeric.multiaxis.axial import axial_axes, axial_inv_freq
from posproof.numeric.multiaxis.coordinates import dinov3_inv_freq
from posproof.numeric.multiaxis.declaration import MultiaxisRope
from posproof.numeric.multiaxis.ladders import axes_dim_axes, per_axis_inv_freq
from posproof.numeric.multiaxis.mrope import INTERLEAVED_MODEL_TYPES, mrope_axes, mrope_sections

#: Text families whose M-RoPE pairs are ``(2i, 2i + 1)`` (``repeat_interleave`` of the sections' angles).
CHUNKED_INTERLEAVED_PAIRS = frozenset({"glm4v", "glm4v_text", "glm_ocr", "glm_ocr_text"})
#: Ernie 4.5-VL's text rotary: h/w alternate over the first ``s_h + s_w`` pairs, t takes the rest.
ERNIE_MODEL_TYPES = frozenset({"ernie4_5_vl_moe", "ernie4_5_vl_moe_text"})
#: NeoMME: pair ``i`` on axis ``i mod 2`` (row, column), one ladder, rotate-half.
ALTERNATING_MODEL_TYPES = frozenset({"neomme"})
#: HunYuan-VL's XD-RoPE: chunked M-RoPE over its sections (Tencent's layout, not transformers 5.24's port).
XDROPE_MODEL_TYPES = frozenset({"hunyuan_vl", "hunyuan_vl_text"})

_SHARED_HALF = (
    "qwen2_vl_vision qwen2_5_vl_vision qwen2_5_omni_vision_encoder qwen3_vl_vision qwen3_vl_moe_vision "
    "qwen3_omni_moe_vision_encoder qwen3_5_vision qwen3_5_moe_vision qwen4_exp_vision glm4v_vision glm4v_moe_vision "
    "glm5_next_vision glm_ocr_vision paddleocr_vl_vision ernie4_5_vl_moe_vision exaone4_5_vision "
    "cohere_compass_vision dots3_note_vision_encoder lfm3_vl_vision mlcd_vision_model muse_glimmer_vision "
    "muse_spark_vision video_llama_3_vision"
).split()
#: Vision ``model_type`` -> ``(frequencies, order, layout)`` of its axial rotary (module docstring):
#: ``order`` ``"hw"`` puts ``position_ids[..., 0]`` first, ``"wh"`` the other, ``"alternating"`` alternates pairs.
VISION_AXIAL = {
    **dict.fromkeys(_SHARED_HALF, ("shared", "hw", "half")),
    **dict.fromkeys(
        ("sam2_video", "edgetam_video", "sam3_tracker_video", "sam3_vit_model"), ("shared", "hw", "interleaved")
    ),
    "gemma4_vision": ("shared", "hw", "blocks"),
    "inkling2_vision": ("shared", "wh", "interleaved"),
    "step3p5_vision": ("shared", "wh", "half"),
    "kimi_k25_vision": ("shared", "alternating", "half"),
    "pixtral": ("split", "hw", "half"),
}
#: Vision rotaries with three axes of per-axis ladders over ``2 (d // 6)`` channels each (rotate-half).
PER_AXIS_THIRDS = frozenset({"minimax_m3_vl_vision"})
#: DINOv3's ViT (coordinates in [-1, 1]).
DINOV3_MODEL_TYPES = frozenset({"dinov3_vit"})
#: The base a vision config's class sets when the file leaves ``rope_theta`` out (transformers' defaults: the
#: ``RotaryEmbeddingConfigMixin``'s 10000 unless the class says otherwise).
VISION_DEFAULT_THETA = {"gemma4_vision": 100.0, "dinov3_vit": 100.0}
DEFAULT_THETA = 10000.0
#: The SAM 2 family's memory attention: its head width from the memory-attention sizes.
_SAM_MEMORY = frozenset({"sam2_video", "edgetam_video", "sam3_tracker_video"})


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


#: Every vision ``model_type`` whose rotary :func:`multiaxis_from_config` declares.
VISION_MODEL_TYPES = frozenset(VISION_AXIAL) | PER_AXIS_THIRDS | DINOV3_MODEL_TYPES


def _vision_holder(config: Mapping) -> Mapping:
    r"""The part of a whole ``config.json`` that holds the vision rotary's settings: the top level of the SAM 2
    family's video models (their memory attention) or of a vision config itself, else the nested config of a known
    vision ``model_type`` (Qwen2.5-Omni's ``thinker_config.vision_config``, SAM 3's ``vision_config.backbone_config``),
    else ``vision_config``."""
    if str(config.get("model_type", "")) in _SAM_MEMORY | VISION_MODEL_TYPES:
        return config
    level: list[Mapping] = [config]
    for _ in range(4):  # breadth first: the shallowest vision config
        nested = [v for c in level for v in c.values() if isinstance(v, Mapping)]
        for c in nested:
            if str(c.get("model_type", "")) in VISION_MODEL_TYPES:
                return c
        level = nested
    holder = config.get("vision_config", config)
    if holder is None:
        raise ValueError(
            "config's vision_config is null (the model class builds its default vision config): give vision_config "
            "in the file"
        )
    if not isinstance(holder, Mapping):
        raise ValueError("config's vision_config must be a mapping")
    return holder


def _model_type(config: Mapping, holder: Mapping) -> str:
    return str(holder.get("model_type", config.get("model_type", "")))


def _params(holder: Mapping) -> dict:
    params = holder.get("rope_parameters") or holder.get("rope_scaling") or {}
    if not isinstance(params, dict):
        raise ValueError(f"rope_parameters must be a mapping, got {params!r}")
    return params


def _head_width(holder: Mapping, model_type: str) -> int:
    if model_type in _SAM_MEMORY:
        keys = (
            "memory_attention_hidden_size",
            "memory_attention_downsample_rate",
            "memory_attention_num_attention_heads",
        )
        if not all(k in holder for k in keys):
            raise ValueError(f"config needs {', '.join(keys)} for {model_type}'s memory-attention rotary")
        return int(holder[keys[0]]) // (int(holder[keys[1]]) * int(holder[keys[2]]))
    if holder.get("head_dim"):
        return int(holder["head_dim"])
    hidden = holder.get("hidden_size", holder.get("embed_dim"))
    heads = holder.get("num_attention_heads", holder.get("num_heads"))
    if hidden is None or heads is None:
        raise ValueError("config needs head_dim (or hidden_size/embed_dim and num_attention_heads/num_heads)")
    return int(hidden) // int(heads)


def _theta(holder: Mapping, params: Mapping, model_type: str) -> float:
    base = params.get("rope_theta", holder.get("rope_theta", VISION_DEFAULT_THETA.get(model_type, DEFAULT_THETA)))
    if isinstance(base, bool) or not isinstance(base, (int, float)) or not base > 1:
        raise ValueError(f"config's rope_theta must be a real number > 1, got {base!r}")
    return float(base)


def _vision(holder: Mapping, params: Mapping, model_type: str) -> MultiaxisRope:
    d = _head_width(holder, model_type)
    base = _theta(holder, params, model_type)
    if model_type in DINOV3_MODEL_TYPES:
        return MultiaxisRope(
            dinov3_inv_freq(d, base=base), axial_axes(d), 2, continuous=True, layout="half", name="DINOv3"
        )
    if model_type in PER_AXIS_THIRDS:
        s = 2 * (d // 6)
        axes = axes_dim_axes([s, s, s])
        return MultiaxisRope(
            per_axis_inv_freq(axes, base=base), axes, 3, layout="half", name=f"per-axis ladders axes_dim {[s, s, s]}"
        )
    frequencies, order, layout = VISION_AXIAL.get(model_type, ("shared", "hw", "half"))
    axes = axial_axes(d)
    inv_freq = axial_inv_freq(d, base=base, frequencies=frequencies)
    if order == "wh":
        axes = 1 - axes
    elif order == "alternating":  # Kimi-K2.5: (column, row) of ladder step j at pairs 2j, 2j + 1
        axes = np.tile(np.array([1, 0], dtype=np.int64), d // 4)
        inv_freq = np.repeat(inv_freq[: d // 4], 2)
    name = f"axial 2-D ({model_type}), {frequencies} frequencies"
    # SAM 3's ViT scales its patch indices by window_size / grid: real coordinates
    return MultiaxisRope(inv_freq, axes, 2, layout=layout, name=name, continuous=model_type == "sam3_vit_model")


def _text(config: Mapping, holder: Mapping, params: Mapping, model_type: str, seq_len, layer_type) -> MultiaxisRope:
    from posproof.numeric.scaling.rules import rope_inv_freq_from_config, rope_scaling_from_config

    if model_type in ALTERNATING_MODEL_TYPES:  # two axes, no sections
        inv_freq, factor = rope_inv_freq_from_config(config, seq_len=seq_len, layer_type=layer_type)
        axes = np.arange(inv_freq.size, dtype=np.int64) % 2
        return MultiaxisRope(inv_freq, axes, 2, attention_factor=factor, layout="half", name="NeoMME text")
    if "mrope_section" not in params and "xdrope_section" in params:
        raise ValueError(
            "config: xdrope_section (HunYuan-VL's checkpoint spelling, with its NTK alpha) is read as transformers "
            "normalises it: rope_parameters with mrope_section (and the rule of its alpha); or declare "
            "{'xdrope_section': [...]} to multiaxis_from_scaling"
        )
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
    if model_type in ERNIE_MODEL_TYPES:
        if len(sections) != 3:
            raise ValueError(f"Ernie 4.5-VL's mrope_section has three entries (h, w, t), got {sections}")
        hw = sections[0] + sections[1]
        axes = np.concatenate(
            [
                np.tile(np.array([1, 2], dtype=np.int64), hw // 2),
                np.zeros(inv_freq.size - 2 * (hw // 2), dtype=np.int64),
            ]
        )
        return MultiaxisRope(inv_freq, axes, 3, attention_factor=factor, layout="interleaved", name="Ernie 4.5-VL text")
    if model_type in XDROPE_MODEL_TYPES:
        axes = mrope_axes(sections)
        name = f"XD-RoPE (HunYuan-VL) xdrope_section {sections}"
        return MultiaxisRope(inv_freq, axes, len(sections), attention_factor=factor, layout="half", name=name)
    interleaved = bool(params.get("mrope_interleaved", holder.get("mrope_interleaved", False)))
    interleaved = interleaved or model_type in INTERLEAVED_MODEL_TYPES
    layout = "interleaved" if model_type in CHUNKED_INTERLEAVED_PAIRS else "half"
    kind = "interleaved" if interleaved else "chunked"
    return MultiaxisRope(
        inv_freq, mrope_axes(sections, interleaved=interleaved), len(sections), attention_factor=factor,
        layout=layout, name=f"M-RoPE {kind} mrope_section {sections} ({model_type or 'no model_type'})",
    )  # fmt: skip


def multiaxis_from_config(
    config, *, seq_len: int | None = None, layer_type: str | None = None, part: str = "text"
) -> MultiaxisRope:
    r"""The :class:`MultiaxisRope` of a transformers configuration, by its ``model_type`` (module docstring):
    ``part="text"`` (default) reads the text rotary (``text_config`` when the top level has no rotary settings),
    ``part="vision"`` the vision tower's (``vision_config``, or the mapping itself when it is a vision config)."""
    if part not in ("text", "vision"):
        raise ValueError(f"part must be 'text' or 'vision', got {part!r}")
    if not isinstance(config, dict):
        raise ValueError(f"config must be a mapping (a model's config.json as a dict), got {type(config).__name__}")
    if part == "vision":
        holder = _vision_holder(config)
        model_type = str(holder.get("model_type") or config.get("model_type", ""))
        return _vision(holder, _params(holder), model_type)
    holder = _rope_holder(config)
    params = _params(holder)
    model_type = _model_type(config, holder)
    if (
        params.get("rope_type", params.get("type")) == "axial"
        or model_type in VISION_AXIAL
        or model_type in (PER_AXIS_THIRDS | DINOV3_MODEL_TYPES)
    ):
        return _vision(holder, params, model_type)
    return _text(config, holder, params, model_type, seq_len, layer_type)


@old_arguments(positional=("config", "seq_len"))
def rope_axes_from_config(config, *, seq_len: int | None = None, layer_type: str | None = None) -> MultiaxisFrequencies:
    r"""``(inv_freq, axes, attention_factor)`` of a multi-axis transformers configuration: M-RoPE (``mrope_section``
    in ``rope_parameters`` or ``rope_scaling``, interleaved when ``mrope_interleaved`` is true or the model is a
    Qwen3-VL) or axial 2-D (``rope_type: "axial"``), as :func:`multiaxis_from_config` reads it (its ``layout`` and
    name are dropped here). The frequencies are
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
    rope = multiaxis_from_config(config, seq_len=seq_len, layer_type=layer_type)
    return MultiaxisFrequencies(np.array(rope.inv_freq), np.array(rope.axes), rope.attention_factor)
