r"""Transformers' own RoPE for a model configuration, as a function the audit can call: the model's
``*RotaryEmbedding`` and its ``apply_rotary_pos_emb``, built for whatever head width the audit probes, and the
expectation the configuration declares (read by :func:`numeric.scaling.rope_scaling_from_config`); and a vision
tower's multi-axis rotary (:class:`TransformersVisionRope`) with the declaration
:func:`numeric.multiaxis.config.multiaxis_from_config` reads from its vision configuration.

torch and transformers are imported only here, only when asked (``pip install 'posproof[transformers]'``)."""

from __future__ import annotations

import inspect
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from posproof.numeric.scaling.rules import (
    RULE_KEYS,
    config_class_defaults,
    config_layer_types,
    flatten_text_config,
    rope_scaling_from_config,
)

#: The keys of a head width, set to the probed width (per layer too).
_WIDTH_KEYS = ("qk_rope_head_dim", "head_dim", "attention_head_dim")
#: Rotary classes that are not the language model's (vision towers, audio encoders, ...).
_NOT_TEXT = ("Vision", "Audio", "Patch", "Image", "Video", "Encoder", "Speech", "Visual", "2D", "3D")


class TransformersUnavailable(ImportError):
    r"""torch or transformers is not installed."""


def _unavailable(e: ImportError) -> TransformersUnavailable:
    return TransformersUnavailable(
        f"auditing transformers' own RoPE needs torch and transformers ({e.name} is not installed): "
        "pip install 'posproof[transformers]'"
    )


def _modules():
    try:
        import torch
        import transformers
    except ImportError as e:
        raise _unavailable(e) from None
    return torch, transformers


#: The largest config.json read (a configuration is a few kilobytes; more is not one).
MAX_CONFIG_BYTES = 16 * 2**20


def model_types() -> list[str]:
    r"""The ``model_type`` values transformers knows (its ``CONFIG_MAPPING``); :class:`TransformersUnavailable`
    when transformers is not installed (torch is not needed here)."""
    try:
        from transformers.models.auto.configuration_auto import CONFIG_MAPPING
    except ImportError as e:
        raise _unavailable(e) from None
    return list(CONFIG_MAPPING.keys())


def check_model_type(model_type: str) -> None:
    r"""``ValueError`` unless transformers knows ``model_type``, with the closest known ones ("did you mean")."""
    known = model_types()
    if model_type in known:
        return
    import difflib

    import transformers

    close = difflib.get_close_matches(model_type, known, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise ValueError(
        f"model_type {model_type!r} is not one transformers {transformers.__version__} knows "
        f"({len(known)} model types){hint}"
    )


def load_config(source: str | Mapping) -> dict:
    r"""A configuration: a mapping, a path to a ``config.json`` (at most :data:`MAX_CONFIG_BYTES`), or a
    ``model_type`` (transformers' defaults; an unknown one is a ``ValueError`` naming the closest known ones)."""
    if isinstance(source, Mapping):
        return dict(source)
    path = Path(source)
    if path.is_dir():
        raise ValueError(f"{source} is a directory: give its config.json, or a model_type")
    if path.suffix == ".json" or path.is_file():
        try:
            size = path.stat().st_size
            if size > MAX_CONFIG_BYTES:
                raise ValueError(f"{source} is {size} bytes: a config.json is at most {MAX_CONFIG_BYTES} bytes")
            value = json.loads(path.read_bytes().decode("utf-8"))
        except OSError as e:
            raise ValueError(f"cannot read {source}: {e.strerror or e}") from None
        except UnicodeDecodeError as e:
            raise ValueError(f"{source} is not UTF-8 text (byte {e.start})") from None
        except json.JSONDecodeError as e:
            raise ValueError(f"{source} is not valid JSON: {e.msg} at line {e.lineno}") from None
        except RecursionError:
            raise ValueError(f"{source} is nested too deeply to be a config.json") from None
        if not isinstance(value, dict):
            raise ValueError(f"{source} must hold a JSON object (a config.json), got {type(value).__name__}")
        return value
    if not source or "/" in source or "\\" in source:
        raise ValueError(f"{source!r} is neither a config.json file nor a model_type")
    try:
        check_model_type(source)
    except TransformersUnavailable as e:  # not a file: a model_type, which needs transformers
        raise TransformersUnavailable(f"{source!r} is not a config.json file; as a model_type, {e}") from None
    _, transformers = _modules()
    try:
        return transformers.AutoConfig.for_model(source).to_dict()
    except ValueError as e:
        raise ValueError(f"transformers' default configuration of {source!r} cannot be built: {e}") from None


def _text(config: Mapping) -> Mapping:
    text = config.get("text_config")
    if isinstance(text, Mapping) and not any(
        config.get(k) is not None for k in ("rope_theta", "head_dim", "hidden_size")
    ):
        return text
    return config


def _quiet():
    log = logging.getLogger("transformers")
    level = log.level
    log.setLevel(logging.ERROR)
    return log, level


@dataclass
class TransformersRope:
    r"""``fn(q, k, positions)`` (``(1, 1, tokens, width)`` torch tensors and ``(1, tokens)`` positions) running the
    model's rotary embedding, built for the probed width, and its apply function; ``expected`` the keyword
    arguments of :func:`numeric.audit.audit_rope` the configuration declares; ``describe`` a one-line name."""

    config: dict
    layer_type: str | None
    rotary: Any = None
    apply: Any = None
    model_type: str = ""
    expected: dict = field(default_factory=dict)
    describe: str = ""

    def __post_init__(self):
        torch, transformers = _modules()
        from transformers.models.auto.configuration_auto import model_type_to_module_name

        self._torch = torch
        self.config = _standard_names(self.config)
        # the language model's settings, with what its configuration class gives a file that leaves it out
        text = {**flatten_text_config(self.config), **config_class_defaults(self.config)}
        self.model_type = str(text.get("model_type") or self.config.get("model_type") or "")
        if not self.model_type:
            raise ValueError("the config has no model_type: transformers' RoPE cannot be chosen")
        top_type = str(self.config.get("model_type") or self.model_type)
        check_model_type(top_type)
        module_name = model_type_to_module_name(top_type)
        try:
            module = __import__(f"transformers.models.{module_name}.modeling_{module_name}", fromlist=["_"])
        except ImportError as e:
            raise ValueError(f"transformers has no modeling module for model_type {top_type!r} ({e})") from None
        classes = [
            c
            for n, c in vars(module).items()
            if n.endswith("RotaryEmbedding") and isinstance(c, type) and not any(w in n for w in _NOT_TEXT)
        ]
        text_first = sorted(classes, key=lambda c: ("Text" not in c.__name__, c.__name__))
        if not text_first:
            raise ValueError(f"transformers' {module_name} has no text rotary embedding class")
        self.rotary = text_first[0]
        part = [w for w in _NOT_TEXT if w.lower() in self.model_type.split("_")]
        if part and "Text" in self.rotary.__name__:  # an audio or vision part of a multimodal model
            raise ValueError(
                f"model_type {self.model_type!r} is the {part[0].lower()} part of a multimodal model: its attention "
                f"does not use {self.rotary.__name__}, the language model's"
            )
        self.text = text
        hf = self._hf_config(None)
        interleave = bool(getattr(hf, "rope_interleave", False))
        apply = getattr(module, "apply_rotary_pos_emb_interleave", None) if interleave else None
        self.apply = apply or getattr(module, "apply_rotary_pos_emb", None)
        self.apply = self.apply or getattr(module, "apply_rotary_pos_emb_interleave", None)
        self._complex = self.apply is None and callable(getattr(module, "apply_rotary_emb", None))
        if self._complex:  # Meta's complex form (Llama 4, DeepSeek-V2): apply_rotary_emb(xq, xk, freqs_cis)
            self.apply = module.apply_rotary_emb
        if self.apply is None:
            raise ValueError(f"transformers' {module_name} has no apply_rotary_pos_emb")
        forward = inspect.signature(self.rotary.forward).parameters
        if "position_ids" not in forward:
            raise ValueError(f"{self.rotary.__name__}.forward takes no position_ids (not a text RoPE)")
        self._layer_kw = "layer_type" in forward
        apply_args = list(inspect.signature(self.apply).parameters)
        self._single = len(apply_args) > 1 and apply_args[1] == "cos"  # apply(x, cos, sin): one tensor at a time
        if "mrope_section" in apply_args:
            raise ValueError(f"{module_name}'s apply function splits multimodal (3-axis) positions: not audited here")
        cfg = rope_scaling_from_config(self.config, layer_type=self.layer_type)
        keys = set(RULE_KEYS[cfg.rope_type])
        scaling: dict = {"rope_type": cfg.rope_type}
        for k, v in cfg.as_dict().items():
            if k in keys and v is not None:
                scaling[k] = v
        if cfg.rope_type != "default":
            scaling["factor"] = cfg.s
        if cfg.L0 is not None and "original_max_position_embeddings" in keys:
            scaling["original_max_position_embeddings"] = cfg.L0
        if cfg.partial_rotary_factor != 1.0:
            scaling["partial_rotary_factor"] = cfg.partial_rotary_factor
        self._factor = cfg.partial_rotary_factor
        rope_head = self.text.get("qk_rope_head_dim")
        self._head_split = cfg.partial_rotary_factor != 1.0 and rope_head is not None and cfg.width != rope_head
        self.expected = {"base": cfg.base, "scaling": scaling, "width": cfg.width, "call": "q,k,positions@bhsd"}
        layer = f" [{self.layer_type}]" if self.layer_type else ""
        self.describe = f"transformers {transformers.__version__} {self.rotary.__name__} + {self.apply.__name__}{layer}"
        self._cache: dict[int, Any] = {}
        self._slices: bool | None = None  # whether apply takes the whole head (None: not tried yet)
        self._tokens_first: bool | None = None  # a complex apply_rotary_emb's axes (None: not tried yet)

    def _widths(self, settings: Mapping, width: int) -> dict:
        r"""The head-width keys of ``settings`` (the config, or one layer's overrides) for a probed ``width``: each
        width key becomes ``width``; where the head is ``nope + rope`` channels and the partial factor gives the rope
        slice (DeepSeek-V4, dots3: ``qk_rope_head_dim = int(head_dim * partial_rotary_factor)``), the slice and the
        rest keep that split."""
        out = {k: width for k in _WIDTH_KEYS if settings.get(k) is not None}
        if self._head_split and "qk_rope_head_dim" in out:
            rope = int(width * self._factor)
            out["qk_rope_head_dim"] = rope
            if "head_dim" in out or settings.get("qk_nope_head_dim") is not None:
                out["head_dim"] = width
        if self._head_split and settings.get("qk_nope_head_dim") is not None:
            out["qk_nope_head_dim"] = width - int(width * self._factor)
        return out

    def _hf_config(self, width: int | None):
        _, transformers = _modules()
        kw = dict(self.text)
        kw.pop("model_type", None)
        kw.pop("transformers_version", None)
        if width is not None:
            kw.update(self._widths(kw, width))
            if not any(kw.get(k) is not None for k in _WIDTH_KEYS):
                kw["head_dim"] = width
            if isinstance(kw.get("per_layer_config"), Mapping):  # Gemma 4's wider full-attention heads: probed too
                kw["per_layer_config"] = {
                    i: {**layer, **self._widths(layer, width)} for i, layer in kw["per_layer_config"].items()
                }
        kw = _without_aliases(kw, self.model_type)
        log, level = _quiet()
        try:
            try:
                return transformers.AutoConfig.for_model(self.model_type, **kw)
            except AttributeError:  # head_dim is a property of hidden_size / num_attention_heads (Falcon)
                if width is None or not kw.get("num_attention_heads"):
                    raise
                kw.pop("head_dim", None)
                kw["hidden_size"] = width * kw["num_attention_heads"]
                return transformers.AutoConfig.for_model(self.model_type, **kw)
        finally:
            log.setLevel(level)

    def _apply_complex(self, q, k, freqs_cis):
        r"""Meta's ``apply_rotary_emb(xq, xk, freqs_cis)`` (``freqs_cis`` ``(1, tokens, r/2)`` complex, as the rotary
        returns it) on the first ``r`` channels: with the head axis first (DeepSeek-V2 broadcasts ``(b, h, s, d)``),
        else with the tokens first (Llama 4 takes ``(b, s, h, d)``: on the other axes its broadcast does not give the
        input's shape back)."""
        torch = self._torch
        r = 2 * int(freqs_cis.shape[-1])
        q_rot, k_rot = q[..., :r], k[..., :r]
        if self._tokens_first is None:  # decided on two tokens: a wrong broadcast of all of them can fill the memory
            two = self.apply(q_rot[:, :, :2], k_rot[:, :, :2], freqs_cis[:, :2])[0]
            self._tokens_first = tuple(two.shape) != tuple(q_rot[:, :, :2].shape)
        if self._tokens_first:
            q_out, k_out = self.apply(q_rot.transpose(1, 2), k_rot.transpose(1, 2), freqs_cis)
            q_out, k_out = q_out.transpose(1, 2), k_out.transpose(1, 2)
        else:
            q_out, k_out = self.apply(q_rot, k_rot, freqs_cis)
        if r < int(q.shape[-1]):
            q_out = torch.cat([q_out, q[..., r:]], dim=-1)
            k_out = torch.cat([k_out, k[..., r:]], dim=-1)
        return q_out, k_out

    def _whole_head(self, q, k, cos, sin):
        r"""The apply function on the whole head, when it accepts it (it slices the head itself, as DeepSeek-V4's
        does); ``None`` when it raises on the width (it expects the rotary slice only), and never tried again."""
        try:
            if self._single:
                out = self.apply(q, cos, sin), self.apply(k, cos, sin)
            else:
                out = self.apply(q, k, cos, sin)
        except Exception as e:  # noqa: BLE001 - a size mismatch: this apply function takes the slice only
            if self._slices is None and _shape_error(e):
                self._slices = False
                return None
            raise
        if tuple(out[0].shape) != tuple(q.shape):
            self._slices = False
            return None
        self._slices = True
        return out

    def __call__(self, q, k, positions):
        torch = self._torch
        q, k, positions = (_tensor(torch, a) for a in (q, k, positions))  # NumPy in: the model's code is torch
        width = int(q.shape[-1])
        if width not in self._cache:
            self._cache[width] = self._hf_config(width)
        log, level = _quiet()
        try:
            rotary = self.rotary(self._cache[width])  # a fresh module per call: no cache carried between calls
            _fit_sections(rotary)
            kw = {"layer_type": self.layer_type} if self._layer_kw and self.layer_type else {}
            with torch.no_grad():
                out = rotary(q, positions, **kw)
                if self._complex:
                    return self._apply_complex(q, k, out)
                cos, sin = out
                r = int(cos.shape[-1])  # as the models' attention does: rotate the first r channels, pass the rest
                if 2 * r == int(width * self._factor):  # one value per pair (gpt-oss): the cache covers 2r channels
                    r *= 2
                if r < width and self._slices is not False:  # an apply function that picks its own slice
                    out = self._whole_head(q, k, cos, sin)  # (DeepSeek-V4 rotates the last r channels)
                    if out is not None:
                        return out
                q_rot, k_rot = q[..., :r], k[..., :r]
                if self._single:
                    q_out, k_out = self.apply(q_rot, cos, sin), self.apply(k_rot, cos, sin)
                else:
                    q_out, k_out = self.apply(q_rot, k_rot, cos, sin)
                if r < width:
                    q_out = torch.cat([q_out, q[..., r:]], dim=-1)
                    k_out = torch.cat([k_out, k[..., r:]], dim=-1)
                return q_out, k_out
        finally:
            log.setLevel(level)


def _standard_names(config: Mapping) -> dict:
    r"""``config`` with transformers' standard names (``hidden_size``, ``num_attention_heads``, ...) added where its
    configuration class's ``attribute_map`` spells them otherwise (GPT-J's ``n_embd``, DBRX's ``d_model``)."""
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    out = dict(config)
    model_type = str(out.get("model_type") or "")
    cls = CONFIG_MAPPING[model_type] if model_type in CONFIG_MAPPING else None  # a lazy mapping: no .get
    for standard, own in (getattr(cls, "attribute_map", None) or {}).items():
        if standard not in out and own in out:
            out[standard] = out[own]
    return out


def _without_aliases(kw: dict, model_type: str) -> dict:
    r"""``kw`` without the names its configuration class's ``attribute_map`` makes aliases of others (HunYuan-VL's
    ``attention_head_dim`` of ``head_dim``) where both are given: an alias passed after its target (``None`` from the
    file) would overwrite the probed width."""
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    cls = CONFIG_MAPPING[model_type] if model_type in CONFIG_MAPPING else None
    out = dict(kw)
    for alias, real in (getattr(cls, "attribute_map", None) or {}).items():
        if alias in out and real in out:
            value = out.pop(alias)
            if out[real] is None:
                out[real] = value
    return out


def _tensor(torch, a):
    r"""``a`` as a torch tensor: NumPy arrays as they are, a bfloat16 one (ml_dtypes, which torch cannot read) by
    way of float32, which holds every bfloat16 value exactly."""
    if isinstance(a, np.ndarray) and a.dtype.itemsize == 2 and a.dtype.kind == "V" and a.dtype.name == "bfloat16":
        return torch.from_numpy(np.ascontiguousarray(a.astype(np.float32))).to(torch.bfloat16)
    return torch.as_tensor(a)


def _fit_sections(rotary) -> None:
    r"""A multimodal rotary that splits its pairs into M-RoPE sections (``mrope_section``: GLM-4V, HunYuan-VL) gets
    sections that add up to its pairs at the probed width, in the configured proportions (the first takes the
    rest; no section given: one). The audit's text positions are the same on every axis, so any split turns every
    pair by ``m theta_i``: what is audited is the model's code for text tokens."""
    if not hasattr(rotary, "mrope_section"):
        return
    inv = getattr(rotary, "inv_freq", None)
    if inv is None:
        return
    n = int(inv.shape[-1])
    sections = rotary.mrope_section
    if sections is None:
        rotary.mrope_section = [n]
        return
    sections = [int(v) for v in sections]
    total = sum(sections)
    if total == n or total <= 0:
        return
    scaled = [v * n // total for v in sections]
    scaled[0] += n - sum(scaled)
    rotary.mrope_section = scaled


def _shape_error(e: Exception) -> bool:
    return isinstance(e, (RuntimeError, ValueError, IndexError))


def layer_types(config: Mapping) -> list[str | None]:
    r"""The layer types whose RoPE differs (``[None]`` when one RoPE serves every layer): the config reader's
    :func:`numeric.scaling.config_layer_types`."""
    return config_layer_types(config)


#: The keys of a vision tower's model width (the head width times the heads), set for the probed head width; and
#: keys its configuration class requires equal to the model width (Dots3-Note's ``adapter_in_dim``).
_VISION_MODEL_KEYS = ("hidden_size", "embed_dim")
_TIED_TO_MODEL_WIDTH = ("adapter_in_dim",)
#: The SAM 2 family's memory attention: its head width is ``memory_attention_hidden_size`` over the downsample rate
#: and the heads.
_SAM_MEMORY = (
    "memory_attention_hidden_size",
    "memory_attention_downsample_rate",
    "memory_attention_num_attention_heads",
)
#: The head widths a vision rotary is built at, the first that its configuration class accepts (divisible by 4 for
#: two axes of pairs, by 6 for three).
PROBE_WIDTHS = (24, 48, 96)
#: The apply functions of a vision rotary, the first a modeling module has (EdgeTAM's self-attention one; SAM's).
_VISION_APPLY = (
    "apply_rotary_pos_emb_vision",
    "apply_rotary_pos_emb_2d_self_attn",
    "apply_rotary_pos_emb_2d",
    "apply_rotary_pos_emb",
)


def vision_rotaries(model_type: str) -> list[str]:
    r"""The names of the 2-D (``rope_type: "axial"``) vision rotary classes of ``model_type``'s modeling module: those
    with transformers' ``compute_axial_rope_parameters``, whose ``forward(x, position_ids)`` takes one position vector
    per token."""
    module = _modeling_module(model_type)
    names = []
    for name, cls in vars(module).items():
        if not (name.endswith("RotaryEmbedding") and isinstance(cls, type)):
            continue
        if "compute_axial_rope_parameters" in vars(cls):
            names.append(name)
    return sorted(names)


def _modeling_module(model_type: str):
    _modules()
    from transformers.models.auto.configuration_auto import model_type_to_module_name

    check_model_type(model_type)
    module_name = model_type_to_module_name(model_type)
    try:
        return __import__(f"transformers.models.{module_name}.modeling_{module_name}", fromlist=["_"])
    except ImportError as e:
        raise ValueError(f"transformers has no modeling module for model_type {model_type!r} ({e})") from None


@dataclass
class TransformersVisionRope:
    r"""``fn(vectors, positions)`` (``(tokens, width)`` and ``(tokens, A)`` position vectors, NumPy or torch) running
    a model's multi-axis vision rotary (``compute_axial_rope_parameters``; ``forward(x, position_ids)``) and its
    vision apply function, built at the probed head ``width`` (0: the first of :data:`PROBE_WIDTHS` its
    configuration class accepts). ``declaration``: the :class:`~posproof.numeric.multiaxis.MultiaxisRope` that
    :func:`~posproof.numeric.multiaxis.config.multiaxis_from_config` (``part="vision"``) reads from the very
    configuration the rotary is built from; ``expected`` the keyword arguments of
    :func:`~posproof.numeric.audit.audit_multiaxis` (``width``, ``rope``)."""

    model_type: str
    rotary_name: str = ""
    width: int = 0
    expected: dict = field(default_factory=dict)
    describe: str = ""

    def __post_init__(self):
        torch, transformers = _modules()
        from posproof.numeric.multiaxis.config import multiaxis_from_config

        self._torch = torch
        if isinstance(self.width, bool) or not isinstance(self.width, int) or self.width < 0 or self.width % 2:
            raise ValueError(
                f"width must be an even head width >= 2 (0: the first of {PROBE_WIDTHS}), got {self.width!r}"
            )
        module = _modeling_module(self.model_type)
        names = vision_rotaries(self.model_type)
        if not names:
            raise ValueError(f"transformers' model_type {self.model_type!r} has no 2-D (axial) vision rotary")
        self.rotary_name = self.rotary_name or names[0]
        if self.rotary_name not in names:
            raise ValueError(f"rotary_name must be one of {', '.join(names)} (model_type {self.model_type!r})")
        self.rotary = getattr(module, self.rotary_name)
        self._cls = _vision_class(self.model_type, self.rotary)
        self.vision = _class_settings(load_config(self.model_type), self._cls)
        # Gemma 4 rotates each axis's channels apart (apply_multidimensional_rope); the rest apply to the whole head
        self._blocks = getattr(module, "apply_multidimensional_rope", None)
        self.apply: Any = self._blocks or next(
            (getattr(module, n) for n in _VISION_APPLY if callable(getattr(module, n, None))), None
        )
        if self.apply is None:
            raise ValueError(f"transformers' {module.__name__} has none of {', '.join(_VISION_APPLY)}")
        self._form: int | None = None  # which of _forms() calls the apply function (None: not picked yet)
        self._cache: dict[int, Any] = {}
        errors = []
        for width in (self.width,) if self.width else PROBE_WIDTHS:
            try:
                self._rotary(width)
            except (ValueError, TypeError, KeyError, AttributeError) as e:  # the class refuses this width: the next
                errors.append(f"width {width}: {type(e).__name__}: {e}")
                continue
            self.width = width
            break
        else:
            raise ValueError(f"{self._cls.__name__} cannot be built at a probed head width ({'; '.join(errors)})")
        self.declaration = multiaxis_from_config(self.settings(self.width), part="vision")
        self.base = float(self.built(self.width).rope_parameters["rope_theta"])
        self.expected = {"width": self.width, "rope": self.declaration}
        self.describe = f"transformers {transformers.__version__} {self.rotary_name} + {self.apply.__name__}"

    @property
    def own_width(self) -> int:
        r"""The head width of the configuration itself (its ``head_dim``, its model width over its heads, or the SAM 2
        family's memory-attention width), as the model is built."""
        kw = self.vision
        if all(kw.get(k) is not None for k in _SAM_MEMORY):
            return int(kw[_SAM_MEMORY[0]]) // (int(kw[_SAM_MEMORY[1]]) * int(kw[_SAM_MEMORY[2]]))
        if kw.get("head_dim"):
            return int(kw["head_dim"])
        heads = kw.get("num_attention_heads") or kw.get("num_heads") or 1
        return int(next(kw[k] for k in _VISION_MODEL_KEYS if kw.get(k) is not None)) // int(heads)

    def settings(self, width: int) -> dict:
        r"""The vision configuration (as a ``config.json`` dict) with head width ``width``: ``head_dim``, the model
        width (``hidden_size``, ``embed_dim``, and keys tied to it) over the heads, or for the SAM 2 family's memory
        attention its ``memory_attention_hidden_size``; no ``vision_config`` (the rotary's own settings)."""
        kw = {k: v for k, v in self.vision.items() if k not in ("transformers_version", "vision_config")}
        if all(kw.get(k) is not None for k in _SAM_MEMORY):
            kw[_SAM_MEMORY[0]] = width * int(kw[_SAM_MEMORY[1]]) * int(kw[_SAM_MEMORY[2]])
            return kw
        heads = kw.get("num_attention_heads") or kw.get("num_heads") or 1
        model_width = next((kw[k] for k in _VISION_MODEL_KEYS if kw.get(k) is not None), None)
        kw["head_dim"] = width
        for key in _VISION_MODEL_KEYS:
            if kw.get(key) is not None:
                kw[key] = width * heads
        for key in _TIED_TO_MODEL_WIDTH:
            if model_width is not None and kw.get(key) == model_width:
                kw[key] = width * heads
        return kw

    def built(self, width: int):
        r"""The configuration object the rotary is built from at head width ``width``."""
        kw = {k: v for k, v in self.settings(width).items() if k != "model_type"}
        log, level = _quiet()
        try:
            return self._cls(**kw)
        finally:
            log.setLevel(level)

    def _rotary(self, width: int):
        if width not in self._cache:
            rotary = self.rotary(self.built(width))
            pairs = int(rotary.inv_freq.numel())
            if not 0 < pairs <= width // 2:  # a width key the class does not read
                raise ValueError(f"{self.rotary_name} at head width {width} has {pairs} frequencies")
            self._cache[width] = rotary
        return self._cache[width]

    def _forms(self):
        r"""The calls of the apply function on ``q`` ``(tokens, width)`` in the forms the models use: ``(tokens,
        heads, width)`` with cos ``(tokens, width)``, as Qwen2-VL's vision attention; ``(batch, heads, tokens,
        width)`` with ``unsqueeze_dim=0``, as Pixtral's; ``(batch, tokens, width)`` with cos ``(1, tokens, width)``,
        as SAM's."""
        apply = self.apply
        return (
            lambda q, c, s: apply(q[:, None], q[:, None], c, s)[0][:, 0],
            lambda q, c, s: apply(q[None, None], q[None, None], c, s, unsqueeze_dim=0)[0][0, 0],
            lambda q, c, s: apply(q[None, None], q[None, None], c[None, None], s[None, None])[0][0, 0],
            lambda q, c, s: apply(q[None], q[None], c, s)[0][0],
        )

    def _pick_form(self, rotary, x, pos) -> int:
        r"""The first form of :meth:`_forms` whose output on two tokens at different positions has the input's shape
        and is, token by token, its output on each token alone (a form whose broadcast pairs every token with the
        first token's cos and sin also keeps the shape); ``ValueError`` when none is."""
        torch = self._torch
        q = torch.linspace(-1.0, 1.0, 2 * int(x.shape[-1]), dtype=x.dtype).reshape(2, -1)
        p = torch.stack([torch.zeros(pos.shape[-1]), torch.arange(1, pos.shape[-1] + 1)]).to(pos.dtype)
        errors = []
        for i, form in enumerate(self._forms()):
            try:
                out = form(q, *rotary(q, p))
                alone = [form(q[t : t + 1], *rotary(q[t : t + 1], p[t : t + 1])) for t in range(2)]
            except Exception as e:  # noqa: BLE001 - not this form: the next
                errors.append(f"{type(e).__name__}: {e}")
                continue
            if tuple(out.shape) == tuple(q.shape) and all(
                tuple(a.shape) == (1, q.shape[-1]) and torch.allclose(out[t], a[0]) for t, a in enumerate(alone)
            ):
                return i
            errors.append(f"form {i}: output {tuple(out.shape)} is not the tokens' own rotations")
        raise ValueError(f"{self.apply.__name__} takes none of the vision call forms ({'; '.join(errors)})")

    def __call__(self, vectors, positions):
        torch = self._torch
        x = _tensor(torch, vectors)
        pos = _tensor(torch, positions)
        rotary = self._rotary(int(x.shape[-1]))
        log, level = _quiet()
        try:
            with torch.no_grad():
                if self._blocks is not None:  # Gemma 4: (batch, tokens, A) positions, (batch, tokens, heads, width)
                    cos, sin = rotary(x[None], pos[None])
                    return self._blocks(x[None, :, None], cos, sin, pos[None], unsqueeze_dim=2)[0, :, 0]
                if self._form is None:
                    self._form = self._pick_form(rotary, x, pos)
                cos, sin = rotary(x, pos)  # positions (tokens, A) in, cos and sin (tokens, width) out
                return self._forms()[self._form](x, cos, sin)
        finally:
            log.setLevel(level)


def _class_settings(config: Mapping, cls) -> dict:
    r"""The settings of configuration class ``cls`` in a (default) configuration: the nested mapping whose
    ``model_type`` is the class's (a ``vision_config``, a ``thinker_config``'s, or the configuration itself), else
    the class's own defaults."""
    want = getattr(cls, "model_type", None)
    stack = [config]
    while stack:
        item = stack.pop(0)
        if isinstance(item, Mapping):
            if want and item.get("model_type") == want:
                return dict(item)
            stack.extend(v for v in item.values() if isinstance(v, Mapping))
    log, level = _quiet()
    try:
        return cls().to_dict()
    finally:
        log.setLevel(level)


def _vision_class(model_type: str, rotary):
    r"""The configuration class the vision rotary is built from: its ``__init__``'s annotation, else the model
    type's ``vision_config`` class, else the model type's class."""
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    hint = inspect.signature(rotary.__init__).parameters.get("config")
    annotation = getattr(hint, "annotation", None)
    module = inspect.getmodule(rotary)
    if isinstance(annotation, str) and module is not None:
        found = getattr(module, annotation, None)
        if isinstance(found, type):
            return found
    if isinstance(annotation, type):
        return annotation
    cls = CONFIG_MAPPING[model_type]
    sub = (getattr(cls, "sub_configs", None) or {}).get("vision_config")
    return sub if isinstance(sub, type) and sub.__name__ != "AutoConfig" else cls
