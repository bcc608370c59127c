r"""What a model's configuration class supplies when a ``config.json`` leaves a key out.

transformers builds a model from its configuration class (``Gemma3TextConfig``, ``Gemma4TextConfig``, ...), whose
fields have defaults: a file that leaves ``head_dim`` out gets the class's ``head_dim`` (Gemma 3: 256), not
``hidden_size // num_attention_heads``; a Gemma 4 file without ``per_layer_config`` gets the one the class builds
(``global_head_dim``, default 512, on every full-attention layer). The reader of configurations
(:func:`numeric.scaling.rope_scaling_from_config`) asks this module for such keys only when the file lacks one it
needs:

* with transformers installed, :func:`with_class_defaults` builds the class from the file, as transformers does,
  and takes the missing keys from it;
* without it, a key that the class may supply is refused, naming the key and the class
  (:data:`CLASS_DEFAULTS` says, for transformers |version|, which model types' classes supply which keys beyond
  ``hidden_size // num_attention_heads`` and the base).

transformers is imported only here, only when asked."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "CLASS_DEFAULTS",
    "CLASS_DEFAULTS_VERSION",
    "GENERIC_KEYS",
    "class_default_keys",
    "config_class",
    "missing_class_keys",
    "refuse_without_transformers",
    "with_class_defaults",
]

#: The transformers version :data:`CLASS_DEFAULTS` was read from (by :func:`class_default_keys`).
CLASS_DEFAULTS_VERSION = "5.24.0"

#: Keys every configuration class gives a default (so a file of a known ``model_type`` that leaves one out is read
#: from the class): the head count and model width (the head width's fallback), the trained length.
GENERIC_KEYS = ("hidden_size", "num_attention_heads", "max_position_embeddings")

#: Per model type (transformers 5.24.0): the configuration class (a multimodal model's: its language model's) and
#: the keys whose class default a file may rely on beyond :data:`GENERIC_KEYS` and ``rope_theta``: ``head_dim`` (a
#: head width other than ``hidden_size // num_attention_heads``), ``partial_rotary_factor`` (not 1),
#: ``rope_parameters`` (given per layer type), ``per_layer_config`` (built by the class: other head widths on some
#: layers). Printed by ``python -m posproof.numeric.scaling.defaults``; a test compares it with the installed
#: transformers.
CLASS_DEFAULTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "afmoe": ("AfmoeConfig", ("head_dim",)),
    "axk1": ("AXK1Config", ("head_dim",)),
    "axk2": ("AXK2Config", ("head_dim",)),
    "bailing_hybrid": ("BailingHybridConfig", ("head_dim",)),
    "bamba": ("BambaConfig", ("partial_rotary_factor",)),
    "beam": ("BeamConfig", ("head_dim", "rope_parameters")),
    "canary_decoder": ("CanaryDecoderConfig", ("head_dim",)),
    "cohere2_moe": ("Cohere2MoeConfig", ("head_dim",)),
    "cosmos3_edge": ("Cosmos3EdgeTextConfig", ("head_dim",)),
    "cosmos3_edge_text": ("Cosmos3EdgeTextConfig", ("head_dim",)),
    "cwm": ("CwmConfig", ("head_dim",)),
    "deepseek_v2": ("DeepseekV2Config", ("head_dim",)),
    "deepseek_v3": ("DeepseekV3Config", ("head_dim",)),
    "deepseek_v32": ("DeepseekV32Config", ("head_dim",)),
    "deepseek_v4": ("DeepseekV4Config", ("head_dim", "rope_parameters", "partial_rotary_factor")),
    "dia_decoder": ("DiaDecoderConfig", ("head_dim",)),
    "dia_encoder": ("DiaEncoderConfig", ("head_dim",)),
    "diffusion_gemma": (
        "DiffusionGemmaTextConfig",
        ("head_dim", "rope_parameters", "partial_rotary_factor", "per_layer_config"),
    ),
    "diffusion_gemma_text": (
        "DiffusionGemmaTextConfig",
        ("head_dim", "rope_parameters", "partial_rotary_factor", "per_layer_config"),
    ),
    "dory": ("DoryConfig", ("head_dim", "rope_parameters")),
    "dots3_note": ("Dots3NoteTextConfig", ("head_dim", "rope_parameters", "partial_rotary_factor", "per_layer_config")),
    "dots3_note_audio_encoder": ("Dots3NoteAudioConfig", ("partial_rotary_factor",)),
    "dots3_note_text": (
        "Dots3NoteTextConfig",
        ("head_dim", "rope_parameters", "partial_rotary_factor", "per_layer_config"),
    ),
    "dots3_note_vision_encoder": ("Dots3NoteVisionConfig", ("per_layer_config",)),
    "efficientloftr": ("EfficientLoFTRConfig", ("partial_rotary_factor",)),
    "embedding_gemma2": ("EmbeddingGemma2TextConfig", ("head_dim", "rope_parameters", "per_layer_config")),
    "embedding_gemma2_text": ("EmbeddingGemma2TextConfig", ("head_dim", "rope_parameters", "per_layer_config")),
    "ernie4_5": ("Ernie4_5Config", ("head_dim",)),
    "flint": ("FlintConfig", ("head_dim",)),
    "gemma": ("GemmaConfig", ("head_dim",)),
    "gemma2": ("Gemma2Config", ("head_dim",)),
    "gemma3": ("Gemma3TextConfig", ("head_dim", "rope_parameters")),
    "gemma3_text": ("Gemma3TextConfig", ("head_dim", "rope_parameters")),
    "gemma3n": ("Gemma3nTextConfig", ("head_dim", "rope_parameters")),
    "gemma3n_text": ("Gemma3nTextConfig", ("head_dim", "rope_parameters")),
    "gemma4": ("Gemma4TextConfig", ("head_dim", "rope_parameters", "partial_rotary_factor", "per_layer_config")),
    "gemma4_text": ("Gemma4TextConfig", ("head_dim", "rope_parameters", "partial_rotary_factor", "per_layer_config")),
    "gemma4_unified": (
        "Gemma4UnifiedTextConfig",
        ("head_dim", "rope_parameters", "partial_rotary_factor", "per_layer_config"),
    ),
    "gemma4_unified_text": (
        "Gemma4UnifiedTextConfig",
        ("head_dim", "rope_parameters", "partial_rotary_factor", "per_layer_config"),
    ),
    "gemma4_vision": ("Gemma4VisionConfig", ("head_dim",)),
    "glm": ("GlmConfig", ("head_dim", "partial_rotary_factor")),
    "glm4": ("Glm4Config", ("head_dim", "partial_rotary_factor")),
    "glm4_moe": ("Glm4MoeConfig", ("partial_rotary_factor",)),
    "glm4v_moe": ("Glm4vMoeTextConfig", ("partial_rotary_factor",)),
    "glm4v_moe_text": ("Glm4vMoeTextConfig", ("partial_rotary_factor",)),
    "glm5_next": ("Glm5NextTextConfig", ("head_dim",)),
    "glm5_next_text": ("Glm5NextTextConfig", ("head_dim",)),
    "glm_moe_dsa": ("GlmMoeDsaConfig", ("head_dim",)),
    "glmasr_encoder": ("GlmAsrEncoderConfig", ("partial_rotary_factor",)),
    "gpt_neox": ("GPTNeoXConfig", ("partial_rotary_factor",)),
    "gpt_oss": ("GptOssConfig", ("head_dim",)),
    "helium": ("HeliumConfig", ("head_dim",)),
    "higgs_audio_v2": ("HiggsAudioV2Config", ("head_dim",)),
    "hrm_text": ("HrmTextConfig", ("head_dim",)),
    "hy_v3": ("HYV3Config", ("head_dim",)),
    "hy_v4": ("HYV4Config", ("head_dim",)),
    "hy_v4_vl": ("HYV4VLTextConfig", ("head_dim",)),
    "hy_v4_vl_text": ("HYV4VLTextConfig", ("head_dim",)),
    "inkling2": ("Inkling2TextConfig", ("head_dim",)),
    "inkling2_loop": ("Inkling2LoopTextConfig", ("head_dim",)),
    "inkling2_loop_text": ("Inkling2LoopTextConfig", ("head_dim",)),
    "inkling2_text": ("Inkling2TextConfig", ("head_dim",)),
    "inkling_mm_model": ("InklingTextConfig", ("head_dim",)),
    "inkling_text": ("InklingTextConfig", ("head_dim",)),
    "internlm3": ("InternLM3Config", ("head_dim",)),
    "iquestcoder": ("IQuestCoderConfig", ("head_dim",)),
    "kimi_linear": ("KimiLinearConfig", ("head_dim",)),
    "kolibri1": ("Kolibri1Config", ("head_dim",)),
    "kosmos_2_5_vision_model": ("Kosmos2_5VisionConfig", ("head_dim",)),
    "laguna": ("LagunaConfig", ("head_dim", "rope_parameters", "partial_rotary_factor")),
    "lara_mini": ("LaraMiniConfig", ("head_dim",)),
    "lfm3": ("Lfm3Config", ("head_dim", "rope_parameters", "partial_rotary_factor")),
    "llama4": ("Llama4TextConfig", ("head_dim",)),
    "llama4_text": ("Llama4TextConfig", ("head_dim",)),
    "longcat_flash": ("LongcatFlashConfig", ("head_dim",)),
    "mamba2": ("Mamba2Config", ("head_dim",)),
    "mellum": ("MellumConfig", ("head_dim", "rope_parameters")),
    "mimo_v2_flash": ("MiMoV2FlashConfig", ("head_dim", "rope_parameters", "partial_rotary_factor")),
    "minicpm3": ("MiniCPM3Config", ("head_dim",)),
    "minimax_m2": ("MiniMaxM2Config", ("head_dim",)),
    "minimax_m3_vl": ("MiniMaxM3VLTextConfig", ("head_dim",)),
    "minimax_m3_vl_text": ("MiniMaxM3VLTextConfig", ("head_dim",)),
    "ministral3": ("Ministral3Config", ("head_dim",)),
    "mistral4": ("Mistral4Config", ("partial_rotary_factor",)),
    "mistral_large4": ("MistralLarge4TextConfig", ("head_dim",)),
    "mistral_large4_text": ("MistralLarge4TextConfig", ("head_dim",)),
    "modernbert": ("ModernBertConfig", ("rope_parameters",)),
    "modernbert-decoder": ("ModernBertDecoderConfig", ("rope_parameters",)),
    "molmo2": ("Molmo2TextConfig", ("head_dim",)),
    "molmo2_adapter": ("Molmo2AdapterConfig", ("head_dim",)),
    "molmo2_text": ("Molmo2TextConfig", ("head_dim",)),
    "molmo2_vision": ("Molmo2VisionConfig", ("head_dim",)),
    "moonshine": ("MoonshineConfig", ("partial_rotary_factor",)),
    "moonshine_streaming": ("MoonshineStreamingConfig", ("partial_rotary_factor",)),
    "muse_glimmer": ("MuseGlimmerTextConfig", ("head_dim",)),
    "muse_glimmer_assistant": ("MuseGlimmerAssistantConfig", ("head_dim",)),
    "muse_glimmer_text": ("MuseGlimmerTextConfig", ("head_dim",)),
    "muse_spark": ("MuseSparkTextConfig", ("head_dim",)),
    "muse_spark_text": ("MuseSparkTextConfig", ("head_dim",)),
    "musicflamingo": ("MusicFlamingoConfig", ("partial_rotary_factor",)),
    "nemotron": ("NemotronConfig", ("partial_rotary_factor",)),
    "nemotron3_5_transcribe_asr_audio": ("Nemotron3_5TranscribeAsrAudioConfig", ("partial_rotary_factor",)),
    "nemotron3_5_transcribe_word_timestamp": ("Nemotron3_5TranscribeWordTimestampConfig", ("partial_rotary_factor",)),
    "nemotron_h": ("NemotronHConfig", ("head_dim",)),
    "neomme": ("NeoMMEConfig", ("head_dim", "rope_parameters", "partial_rotary_factor", "per_layer_config")),
    "neucodec": ("NeuCodecConfig", ("head_dim",)),
    "olmo3": ("Olmo3Config", ("rope_parameters",)),
    "openai_privacy_filter": ("OpenAIPrivacyFilterConfig", ("head_dim",)),
    "paddleocr_vl": ("PaddleOCRTextConfig", ("head_dim",)),
    "paddleocr_vl_text": ("PaddleOCRTextConfig", ("head_dim",)),
    "pe_audio_encoder": ("PeAudioEncoderConfig", ("head_dim",)),
    "pe_audio_video_encoder": ("PeAudioVideoEncoderConfig", ("head_dim",)),
    "pe_video_encoder": ("PeVideoEncoderConfig", ("head_dim",)),
    "persimmon": ("PersimmonConfig", ("partial_rotary_factor",)),
    "phi": ("PhiConfig", ("partial_rotary_factor",)),
    "qwen2_5_omni_dit": ("Qwen2_5OmniDiTConfig", ("head_dim",)),
    "qwen2_5_omni_talker": ("Qwen2_5OmniTalkerConfig", ("head_dim",)),
    "qwen3": ("Qwen3Config", ("head_dim",)),
    "qwen3_5": ("Qwen3_5TextConfig", ("head_dim", "partial_rotary_factor")),
    "qwen3_5_moe": ("Qwen3_5MoeTextConfig", ("head_dim", "partial_rotary_factor")),
    "qwen3_5_moe_text": ("Qwen3_5MoeTextConfig", ("head_dim", "partial_rotary_factor")),
    "qwen3_5_text": ("Qwen3_5TextConfig", ("head_dim", "partial_rotary_factor")),
    "qwen3_next": ("Qwen3NextConfig", ("head_dim", "partial_rotary_factor")),
    "qwen3_omni_moe_talker_code_predictor": ("Qwen3OmniMoeTalkerCodePredictorConfig", ("head_dim",)),
    "qwen3_vl": ("Qwen3VLTextConfig", ("head_dim",)),
    "qwen3_vl_text": ("Qwen3VLTextConfig", ("head_dim",)),
    "qwen4_exp": ("Qwen4ExpTextConfig", ("head_dim",)),
    "qwen4_exp_text": ("Qwen4ExpTextConfig", ("head_dim",)),
    "recurrent_gemma": ("RecurrentGemmaConfig", ("partial_rotary_factor",)),
    "sarvam_moe": ("SarvamMoEConfig", ("head_dim",)),
    "seed_oss": ("SeedOssConfig", ("head_dim",)),
    "solar_open": ("SolarOpenConfig", ("head_dim",)),
    "stablelm": ("StableLmConfig", ("partial_rotary_factor",)),
    "step3p5": ("Step3p7TextConfig", ("head_dim", "rope_parameters")),
    "step3p7": ("Step3p7TextConfig", ("head_dim", "rope_parameters")),
    "t5_gemma_module": ("T5GemmaModuleConfig", ("head_dim",)),
    "t5gemma2_decoder": ("T5Gemma2DecoderConfig", ("head_dim", "rope_parameters")),
    "t5gemma2_encoder": ("T5Gemma2TextConfig", ("head_dim", "rope_parameters")),
    "t5gemma2_text": ("T5Gemma2TextConfig", ("head_dim", "rope_parameters")),
    "timesfm": ("TimesFmConfig", ("head_dim",)),
    "timesfm2_5": ("TimesFm2_5Config", ("head_dim",)),
    "ultrabert": ("UltrabertConfig", ("rope_parameters",)),
    "vaultgemma": ("VaultGemmaConfig", ("head_dim",)),
    "voxtral_realtime_encoder": ("VoxtralRealtimeEncoderConfig", ("head_dim",)),
    "xcodec2": ("Xcodec2Config", ("head_dim",)),
    "youtu": ("YoutuConfig", ("head_dim",)),
    "zaya": ("ZayaConfig", ("head_dim", "rope_parameters", "partial_rotary_factor")),
}


def _config_mapping():
    try:
        from transformers.models.auto.configuration_auto import CONFIG_MAPPING
    except ImportError:
        return None
    return CONFIG_MAPPING


class _Quiet:
    r"""transformers' warnings about a configuration are not the user's while its defaults are read."""

    def __enter__(self):
        self.log = logging.getLogger("transformers")
        self.level = self.log.level
        self.log.setLevel(logging.CRITICAL)

    def __exit__(self, *exc):
        self.log.setLevel(self.level)


def config_class(model_type: str, *, text: bool = False):
    r"""transformers' configuration class of ``model_type`` (``text``: the class of its ``text_config`` when it has
    one), ``None`` without transformers or for a type it does not know."""
    mapping = _config_mapping()
    if mapping is None or not isinstance(model_type, str):
        return None
    try:
        cls = mapping[model_type]
    except Exception:  # noqa: BLE001 - an unknown model type (a KeyError), or a module that does not import
        return None
    sub = getattr(cls, "sub_configs", None) or {}
    if text and isinstance(sub.get("text_config"), type) and sub["text_config"].__name__ != "AutoConfig":
        return sub["text_config"]
    return cls


def class_default_keys(model_type: str) -> tuple[str, tuple[str, ...]] | None:
    r"""``(class name, keys)``: what the installed transformers' class of ``model_type`` supplies beyond
    :data:`GENERIC_KEYS` (see :data:`CLASS_DEFAULTS`), ``None`` when nothing (or no class can be built bare)."""
    cls = config_class(model_type, text=True)
    if cls is None:
        return None
    with _Quiet():
        try:
            instance = cls()
            values = instance.to_dict()
        except Exception:  # noqa: BLE001 - a class that needs arguments: nothing to read a default from
            return None
    try:
        field_default = {f.name: f.default for f in dataclasses.fields(cls)}.get("head_dim")
    except TypeError:
        field_default = None
    keys = []
    width = values.get("head_dim")
    hidden, heads = values.get("hidden_size"), values.get("num_attention_heads")
    if _is_int(field_default) or (
        _is_int(width) and _is_int(hidden) and _is_int(heads) and heads and width != hidden // heads
    ):
        keys.append("head_dim")
    params = values.get("rope_parameters")
    if isinstance(params, Mapping):
        nested = [v for v in params.values() if isinstance(v, Mapping)]
        if nested:
            keys.append("rope_parameters")
        if any(p.get("partial_rotary_factor") not in (None, 1, 1.0) for p in nested or [params]):
            keys.append("partial_rotary_factor")
    if values.get("per_layer_config"):
        keys.append("per_layer_config")
    return (cls.__name__, tuple(keys)) if keys else None


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def with_class_defaults(config: Mapping, keys: Sequence[str], *, model_type: str) -> dict:
    r"""``config`` (a flattened text configuration) with the ``keys`` it lacks taken from transformers'
    configuration class of ``model_type`` (a multimodal type: its ``text_config`` class) built from it, as
    transformers builds it; ``per_layer_config`` brings ``layer_types`` along.

    Without transformers, a ``ValueError`` naming the first key and the class (:data:`CLASS_DEFAULTS`): the class's
    default cannot be read; one also when transformers refuses the configuration."""
    cls = config_class(model_type, text=True)
    if cls is None:
        if _config_mapping() is None:
            raise ValueError(_refusal(keys[0], _class_name(model_type), model_type))
        return dict(config)  # a type transformers does not know: no class, no defaults (the generic reading)
    kwargs = {k: v for k, v in config.items() if k not in ("model_type", "transformers_version")}
    with _Quiet():
        try:
            values = cls(**kwargs).to_dict()
        except Exception as e:  # noqa: BLE001 - transformers refuses the configuration: so does the reader
            raise ValueError(
                f"config: transformers' {cls.__name__} refuses it ({type(e).__name__}: {e}), so the values it "
                f"leaves to the class ({', '.join(keys)}) cannot be read"
            ) from None
    out = dict(config)
    for key in list(keys) + (["layer_types"] if "per_layer_config" in keys else []):
        if out.get(key) is None and values.get(key) is not None:
            out[key] = values[key]
    return out


#: The rules that read the trained length (``max_position_embeddings`` where the mapping has no L0 or factor).
_LENGTH_RULES = ("dynamic", "yarn", "llama3", "longrope", "su")
#: The keys of a head width: with none of them, the width is the class's ``head_dim`` or the generic fallback.
_WIDTH_KEYS = ("qk_rope_head_dim", "head_dim", "attention_head_dim")


def missing_class_keys(config: Mapping, params: Mapping, model_type) -> tuple[list[str], list[str]]:
    r"""``(keys, rope_keys)``: what a (flattened text) configuration of ``model_type`` leaves to its class that the
    reader needs. ``keys`` are read by :func:`with_class_defaults` (``head_dim`` where :data:`CLASS_DEFAULTS` gives
    the class one and the file no head width, :data:`GENERIC_KEYS` the head width or the rule needs,
    ``per_layer_config``); ``rope_keys`` from the class's default rope parameters (``rope_theta``,
    ``partial_rotary_factor``, ``rope_parameters`` per layer type, and ``rotary_dim``, which models with rope
    parameters leave to other code). ``params`` is the file's rope mapping. No ``model_type``: nothing (there is no
    class to read; the reader's generic fallbacks are transformers' own then)."""
    if not isinstance(model_type, str):
        return [], []
    table = CLASS_DEFAULTS.get(model_type, ("", ()))[1]
    keys: list[str] = []
    if all(config.get(k) is None for k in _WIDTH_KEYS):
        if "head_dim" in table:
            keys.append("head_dim")
        keys += [k for k in ("hidden_size", "num_attention_heads") if config.get(k) is None]
    layers = [v for v in params.values() if isinstance(v, Mapping)] or [params]
    if config.get("max_position_embeddings") is None and any(_needs_length(p, config) for p in layers):
        keys.append("max_position_embeddings")
    if "per_layer_config" in table and config.get("per_layer_config") is None:
        keys.append("per_layer_config")
    rope: list[str] = []
    if config.get("rope_theta") is None and any(p.get("rope_theta") is None for p in layers):
        rope.append("rope_theta")
    given = ("partial_rotary_factor", "rotary_pct", "rotary_dim")
    if "partial_rotary_factor" in table and all(config.get(k) is None for k in given):
        if all(p.get("partial_rotary_factor") is None for p in layers):
            rope.append("partial_rotary_factor")
    nested = any(isinstance(v, Mapping) for v in params.values())
    if "rope_parameters" in table and not nested and config.get("rope_local_base_freq") is None:
        rope.append("rope_parameters")
    if config.get("rotary_dim") is not None:
        rope.append("rotary_dim")
    return keys, rope


def _needs_length(params: Mapping, config: Mapping) -> bool:
    rule = params.get("rope_type", params.get("type"))
    if rule not in _LENGTH_RULES:
        return False
    L0 = params.get("original_max_position_embeddings", config.get("original_max_position_embeddings"))
    return rule == "dynamic" or L0 is None or (rule in ("yarn", "longrope", "su") and params.get("factor") is None)


def refuse_without_transformers(keys: Sequence[str], model_type) -> None:
    r"""``ValueError`` naming the first of ``keys`` (see :func:`missing_class_keys`) when transformers, which would
    read it from the class, is not installed; nothing otherwise."""
    if keys and _config_mapping() is None:
        raise ValueError(_refusal(keys[0], _class_name(model_type), model_type))


def _class_name(model_type) -> str:
    if isinstance(model_type, str) and model_type in CLASS_DEFAULTS:
        return CLASS_DEFAULTS[model_type][0]
    return f"model_type {model_type!r}'s configuration class"


def _refusal(key: str, name: str, model_type: Any) -> str:
    what = {
        "rope_parameters": "the rope parameters of each layer type",
        "per_layer_config": "per-layer head widths (per_layer_config)",
    }.get(key, key)
    give = {"rope_parameters": "rope_parameters per layer type"}.get(key, key)
    return (
        f"config leaves {what} to {name}'s default: give {give}, or install transformers (pip install "
        "'posproof[transformers]') to read it"
    )


def _main() -> None:  # pragma: no cover - prints the table for a new transformers version
    import transformers

    mapping = _config_mapping()
    rows = {t: v for t in sorted(mapping.keys()) if (v := class_default_keys(t)) is not None}
    print(f"# transformers {transformers.__version__}")
    for t, (name, keys) in rows.items():
        print(f"    {t!r}: ({name!r}, {keys!r}),")


if __name__ == "__main__":  # pragma: no cover
    _main()
