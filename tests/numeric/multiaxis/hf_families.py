r"""Transformers' own multi-axis rotaries in float64, family by family: the live cross-check of
tests/numeric/multiaxis/test_transformers.py (needs torch and transformers).

Each family's rotary module is built from a small config while ``torch.arange`` makes float64 ranges (so the
module's own ``inv_freq`` code runs in float64), its angles are laid out by the module's own
``recomposition_frequencies`` from float64 position vectors, and the vectors are rotated by
``x cos + rot(x) sin`` with the module's own pair rotation (``rotate_half``, ``rotate_pairwise``, ...; the
one its apply function calls) or, for Gemma 4, its own ``apply_multidimensional_rope``. The layout code is
transformers', the arithmetic float64.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import re

import numpy as np

WIDTH = 24  # a head width divisible by 4 and 6 (MiniMax-M3-VL's thirds), small
TOKENS = 6
THETA = 10000.0

#: Vision families: name -> (module, rotary class, vision model_type, position axes, apply function).
VISION = {
    "qwen2_vl": ("qwen2_vl", "Qwen2VLVisionRotaryEmbedding", "qwen2_vl_vision", 2, "apply_rotary_pos_emb_vision"),
    "qwen2_5_vl": ("qwen2_5_vl", "Qwen2_5_VLVisionRotaryEmbedding", "qwen2_5_vl_vision", 2,
                   "apply_rotary_pos_emb_vision"),
    "qwen3_vl": ("qwen3_vl", "Qwen3VLVisionRotaryEmbedding", "qwen3_vl_vision", 2, "apply_rotary_pos_emb_vision"),
    "glm4v": ("glm4v", "Glm4vVisionRotaryEmbedding", "glm4v_vision", 2, "apply_rotary_pos_emb_vision"),
    "ernie4_5_vl_moe": ("ernie4_5_vl_moe", "Ernie4_5_VLMoeVisionRotaryEmbedding", "ernie4_5_vl_moe_vision", 2,
                        "apply_rotary_pos_emb_vision"),
    "mlcd": ("mlcd", "MLCDRotaryEmbedding", "mlcd_vision_model", 2, "apply_rotary_pos_emb_vision"),
    "video_llama_3": ("video_llama_3", "VideoLlama3VisionRotaryEmbedding", "video_llama_3_vision", 2,
                      "apply_rotary_pos_emb_vision"),
    "pixtral": ("pixtral", "PixtralVisionRotaryEmbedding", "pixtral", 2, "apply_rotary_pos_emb"),
    "sam3": ("sam3", "Sam3ViTRotaryEmbedding", "sam3_vit_model", 2, "apply_rotary_pos_emb_2d"),
    "inkling2": ("inkling2", "Inkling2VisionRotaryEmbedding", "inkling2_vision", 2, "apply_rotary_pos_emb_vision"),
    "step3p7": ("step3p7", "Step3p7VisionRotaryEmbedding", "step3p5_vision", 2, "apply_rotary_pos_emb_vision"),
    "kimi_k25": ("kimi_k25", "Kimi_K25VisionRotaryEmbedding", "kimi_k25_vision", 2, "apply_rotary_pos_emb_vision"),
    "minimax_m3_vl": ("minimax_m3_vl", "MiniMaxM3VLVisionRotaryEmbedding", "minimax_m3_vl_vision", 3,
                      "apply_rotary_pos_emb_vision"),
    "gemma4": ("gemma4", "Gemma4VisionRotaryEmbedding", "gemma4_vision", 2, "apply_multidimensional_rope"),
}  # fmt: skip
#: Text families: name -> (module, rotary class, text model_type, mrope_section over the rotated pairs, apply fn).
TEXT = {
    "ernie4_5_vl_moe_text": ("ernie4_5_vl_moe", "Ernie4_5_VLMoeTextRotaryEmbedding", "ernie4_5_vl_moe_text",
                             [4, 4, 4], "apply_rotary_pos_emb"),
    "glm_ocr_text": ("glm_ocr", "GlmOcrTextRotaryEmbedding", "glm_ocr_text", [4, 4, 4], "apply_rotary_pos_emb"),
    "qwen3_5_text": ("qwen3_5", "Qwen3_5TextRotaryEmbedding", "qwen3_5_text", [1, 1, 1], "apply_rotary_pos_emb"),
    "qwen2_5_vl_text": ("qwen2_5_vl", "Qwen2_5_VLRotaryEmbedding", "qwen2_5_vl_text", [4, 4, 4],
                        "apply_rotary_pos_emb"),
    "glm4v_moe_text": ("glm4v_moe", "Glm4vMoeTextRotaryEmbedding", "glm4v_moe_text", [2, 2, 2], "apply_rotary_pos_emb"),
    "paddleocr_vl_text": ("paddleocr_vl", "PaddleOCRRotaryEmbedding", "paddleocr_vl_text", [4, 4, 4],
                          "apply_rotary_pos_emb"),
}  # fmt: skip


@contextlib.contextmanager
def _float64_ranges():
    import torch

    original = torch.arange

    def arange(*args, dtype=None, **kwargs):
        if dtype in (torch.float32, torch.float16, torch.bfloat16):
            dtype = torch.float64
        return original(*args, dtype=dtype, **kwargs)

    torch.arange = arange
    try:
        yield
    finally:
        torch.arange = original


def _config_class(module: str, model_type: str):
    mod = importlib.import_module(f"transformers.models.{module}.configuration_{module}")
    for value in vars(mod).values():
        if inspect.isclass(value) and getattr(value, "model_type", None) == model_type:
            return value
    raise LookupError(f"no config class with model_type {model_type!r} in {module}")


def config_dict(name: str) -> dict:
    r"""The config posproof reads for a family (a ``config.json`` as a dict)."""
    if name in VISION:
        mt = VISION[name][2]
        return {"model_type": mt, "hidden_size": 2 * WIDTH, "num_attention_heads": 2,
                "rope_parameters": {"rope_type": "axial", "rope_theta": THETA}}  # fmt: skip
    _, _, mt, sections, _ = TEXT[name]
    rope = {"rope_type": "default", "rope_theta": THETA, "mrope_section": sections}
    if 2 * sum(sections) < WIDTH:  # Qwen3.5's class default: partial_rotary_factor 0.25
        rope["partial_rotary_factor"] = 2 * sum(sections) / WIDTH
    return {"model_type": mt, "hidden_size": 2 * WIDTH, "num_attention_heads": 2, "head_dim": WIDTH,
            "rope_parameters": rope}  # fmt: skip


def _build(name: str):
    module, rotary_cls, mt, *_ = VISION.get(name) or TEXT[name]
    cls = _config_class(module, mt)
    cfg = config_dict(name)
    attempts = [
        {"hidden_size": 2 * WIDTH, "num_attention_heads": 2, "head_dim": WIDTH},
        {"hidden_size": 2 * WIDTH, "num_attention_heads": 2},
        {"embed_dim": 2 * WIDTH, "num_heads": 2},
        {"hidden_size": 2 * WIDTH, "num_heads": 2},
    ]
    last = None
    for kwargs in attempts:
        try:
            config = cls(**kwargs, rope_parameters=dict(cfg["rope_parameters"]))
        except Exception as exc:  # a field the class does not take, or its validators refuse the sizes
            last = exc
            continue
        mod = importlib.import_module(f"transformers.models.{module}.modeling_{module}")
        with _float64_ranges():
            rotary = getattr(mod, rotary_cls)(config)
        if not 0 < rotary.inv_freq.numel() * (4 if name in VISION and name != "pixtral" else 2) <= 2 * WIDTH:
            last = ValueError(f"{name}: the config's head width is not {WIDTH}")  # a size field it did not read
            continue
        return mod, rotary
    raise RuntimeError(f"cannot build {name}'s config: {last}")


def inputs(name: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    r"""Seeded vectors ``(tokens, WIDTH)`` and integer position vectors ``(tokens, A)``."""
    rng = np.random.default_rng(seed)
    n_axes = VISION[name][3] if name in VISION else 3
    return rng.standard_normal((TOKENS, WIDTH)), rng.integers(0, 64, (TOKENS, n_axes))


def _rotation_fn(mod, apply_name: str):
    source = inspect.getsource(getattr(mod, apply_name))
    found = re.search(r"(rotate_\w+)\(q", source)
    return getattr(mod, found.group(1) if found else "rotate_half")


def transformers_rotation(name: str, x, pos) -> np.ndarray:
    r"""The family's rotation of vectors ``x`` ``(tokens, WIDTH)`` at position vectors ``pos`` ``(tokens, A)``."""
    import torch

    mod, rotary = _build(name)
    inv = rotary.inv_freq.double()
    p = torch.tensor(np.asarray(pos), dtype=torch.float64)
    q = torch.tensor(np.asarray(x), dtype=torch.float64)
    if name in TEXT:
        freqs = p.T[:, None, :, None] * inv  # (A, batch, N, d/2)
        cos, sin = rotary.recomposition_frequencies(freqs.cos()), rotary.recomposition_frequencies(freqs.sin())
        cos, sin = cos[0], sin[0]  # (N, r)
        rot = _rotation_fn(mod, TEXT[name][4])
    elif name == "gemma4":
        freqs = p[None, :, :, None] * inv  # (batch, N, 2, d/4)
        cos, sin = rotary.recomposition_frequencies(freqs.cos()), rotary.recomposition_frequencies(freqs.sin())
        out = mod.apply_multidimensional_rope(q[None, :, None, :], cos, sin, p[None], unsqueeze_dim=2)
        return out[0, :, 0].numpy()
    else:
        freqs = p[..., None] * inv  # (N, A, ladder)
        cos, sin = rotary.recomposition_frequencies(freqs.cos()), rotary.recomposition_frequencies(freqs.sin())
        cos, sin = cos.reshape(p.shape[0], -1), sin.reshape(p.shape[0], -1)
        rot = _rotation_fn(mod, VISION[name][4])
    r = cos.shape[-1]
    out = q.clone()
    out[:, :r] = q[:, :r] * cos + rot(q[:, :r]) * sin
    return out.numpy()


def dinov3_rotation(grid: tuple[int, int], x) -> np.ndarray:
    r"""transformers' DINOv3 ViT rotary (its own coordinates and angles, in float64) applied to vectors ``x``
    ``(H * W, WIDTH)`` of the patches of a ``grid`` (rows, columns), rotate-half."""
    import torch

    mod = importlib.import_module("transformers.models.dinov3_vit.modeling_dinov3_vit")
    cfg = importlib.import_module("transformers.models.dinov3_vit.configuration_dinov3_vit").DINOv3ViTConfig(
        hidden_size=2 * WIDTH, num_attention_heads=2, patch_size=1, image_size=max(grid), rope_theta=100.0
    )
    with _float64_ranges():
        rotary = mod.DINOv3ViTRopePositionEmbedding(cfg).double().eval()  # training adds random shifts
        cos, sin = rotary(torch.zeros((1, 3, *grid), dtype=torch.float64))
    q = torch.tensor(np.asarray(x), dtype=torch.float64)
    return (q * cos + mod.rotate_half(q) * sin).numpy()


def xdrope_rotation(mrope_section, x, pos) -> np.ndarray:
    r"""transformers' HunYuan-VL text rotary (XD-RoPE) applied to ``x`` ``(tokens, d)`` at ``pos`` ``(tokens, A)``."""
    import torch

    mod = importlib.import_module("transformers.models.hunyuan_vl.modeling_hunyuan_vl")
    cls = _config_class("hunyuan_vl", "hunyuan_vl_text")
    d = 2 * sum(mrope_section)
    rope = {"rope_type": "default", "rope_theta": THETA, "mrope_section": list(mrope_section)}
    cfg = cls(hidden_size=2 * d, num_attention_heads=2, head_dim=d, rope_parameters=rope)
    with _float64_ranges():
        rotary = mod.HunYuanVLRotaryEmbedding(cfg)
    p = torch.tensor(np.asarray(pos), dtype=torch.float64)
    freqs = p.T[:, None, :, None] * rotary.inv_freq.double()  # (A, batch, N, d/2)
    cos, sin = rotary.recomposition_frequencies(freqs.cos())[0], rotary.recomposition_frequencies(freqs.sin())[0]
    q = torch.tensor(np.asarray(x), dtype=torch.float64)
    return (q * cos + mod.rotate_half(q) * sin).numpy()
