r"""The configuration reader (numeric/multiaxis/config.py): each transformers multi-axis family by ``model_type``."""

from __future__ import annotations

import numpy as np
import pytest
from posproof.numeric import multiaxis as M
from posproof.numeric.multiaxis import config as C


def _vision(model_type, width=16, **extra):
    cfg = {"model_type": model_type, "hidden_size": 2 * width, "num_attention_heads": 2,
           "rope_parameters": {"rope_type": "axial", "rope_theta": 10000.0}, **extra}  # fmt: skip
    return M.multiaxis_from_config(cfg, part="vision")


def _text(model_type, sections, width=16, **rope):
    rope = {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": sections, **rope}
    cfg = {"model_type": model_type, "head_dim": width, "hidden_size": 2 * width, "num_attention_heads": 2,
           "rope_parameters": rope}  # fmt: skip
    return M.multiaxis_from_config(cfg)


@pytest.mark.parametrize("model_type", sorted(C.VISION_AXIAL))
def test_every_axial_vision_family_is_declared(model_type):
    rope = _vision(model_type) if model_type not in ("sam2_video", "edgetam_video", "sam3_tracker_video") else (
        M.multiaxis_from_config({"model_type": model_type, "memory_attention_hidden_size": 32,
                                 "memory_attention_downsample_rate": 1, "memory_attention_num_attention_heads": 2,
                                 "rope_parameters": {"rope_type": "axial", "rope_theta": 10000.0}}, part="vision")
    )  # fmt: skip
    frequencies, order, layout = C.VISION_AXIAL[model_type]
    theta = M.axial_inv_freq(16, base=1e4, frequencies=frequencies)
    assert rope.layout == layout and rope.n_axes == 2 and rope.rotary_dim == 16
    assert sorted(rope.inv_freq.tolist()) == sorted(theta.tolist())
    assert np.bincount(rope.axes).tolist() == [4, 4]


def test_shared_is_the_default_and_pixtral_splits():
    assert np.array_equal(_vision("qwen2_vl_vision").inv_freq, M.axial_inv_freq(16, base=1e4, frequencies="shared"))
    assert np.array_equal(_vision("pixtral").inv_freq, M.axial_inv_freq(16, base=1e4, frequencies="split"))
    assert np.array_equal(_vision("some_new_vision").inv_freq, _vision("qwen2_vl_vision").inv_freq)


def test_column_first_and_alternating_axis_maps():
    assert _vision("step3p5_vision").axes.tolist() == [1] * 4 + [0] * 4
    kimi = _vision("kimi_k25_vision")
    assert kimi.axes.tolist() == [1, 0] * 4
    assert np.array_equal(kimi.inv_freq, np.repeat(M.axial_inv_freq(16, base=1e4, frequencies="shared")[:4], 2))


def test_minimax_takes_three_thirds_and_dinov3_coordinates():
    mm = _vision("minimax_m3_vl_vision", width=24)
    assert mm.n_axes == 3 and mm.rotary_dim == 24 and mm.layout == "half"
    assert np.allclose(mm.inv_freq[:4], 1e4 ** (-np.arange(4) / 4))
    dino = M.multiaxis_from_config(
        {"model_type": "dinov3_vit", "hidden_size": 32, "num_attention_heads": 2}, part="vision"
    )
    assert dino.continuous and np.isclose(dino.inv_freq[1], 2 * np.pi * 100.0 ** (-1 / 4))  # rope_theta default 100


def test_vision_config_inside_a_model_config():
    cfg = {
        "model_type": "qwen2_vl",
        "vision_config": {"model_type": "qwen2_vl_vision", "embed_dim": 32, "num_heads": 2},
    }
    assert M.multiaxis_from_config(cfg, part="vision").rotary_dim == 16  # rope_theta: the class default 10000


def test_text_families():
    assert _text("qwen2_vl", [2, 3, 3]).axes.tolist() == M.mrope_axes([2, 3, 3]).tolist()
    assert _text("qwen3_vl_text", [3, 3, 2]).axes.tolist() == M.mrope_axes([3, 3, 2], interleaved=True).tolist()
    assert _text("glm4v_text", [2, 3, 3]).layout == "interleaved"
    ernie = _text("ernie4_5_vl_moe_text", [2, 2, 4])
    assert ernie.axes.tolist() == [1, 2, 1, 2, 0, 0, 0, 0] and ernie.layout == "interleaved"


def test_neomme_alternates_its_axes_over_the_class_partial_rotary():
    pytest.importorskip("transformers")  # NeoMME's per_layer_config and partial rotary come from its class
    neomme = {"model_type": "neomme", "head_dim": 16, "hidden_size": 32, "num_attention_heads": 2,
              "num_key_value_heads": 2,
              "rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 10000.0}}}  # fmt: skip
    axes = M.multiaxis_from_config(neomme, layer_type="full_attention").axes  # the class's partial rotary
    assert axes.tolist() == [0, 1] * (axes.size // 2)


def test_text_family_whose_class_gives_the_partial_rotary_factor():
    # GLM-4V-MoE leaves partial_rotary_factor (0.5) to its class: read from transformers, refused by name without it
    try:
        import transformers  # noqa: F401
    except ImportError:
        with pytest.raises(ValueError, match="partial_rotary_factor to Glm4vMoeTextConfig's default"):
            _text("glm4v_moe_text", [1, 2, 1])
        return
    assert _text("glm4v_moe_text", [1, 2, 1]).layout == "half"


def test_hunyuan_vl_is_xdrope_chunked_over_its_sections():
    rope = _text("hunyuan_vl_text", [1, 2, 3, 2])
    assert rope.axes.tolist() == M.mrope_axes([1, 2, 3, 2]).tolist() and rope.layout == "half"


def test_rope_axes_from_config_keeps_its_result():
    qwen2_vl = {"hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0,
                "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}}  # fmt: skip
    inv, axes, factor = M.rope_axes_from_config(qwen2_vl)
    rope = M.multiaxis_from_config(qwen2_vl)
    assert np.array_equal(inv, rope.inv_freq) and np.array_equal(axes, rope.axes) and factor == 1.0


@pytest.mark.parametrize(
    "config, kwargs, message",
    [
        (
            {"model_type": "x", "rope_parameters": {"rope_type": "axial", "rope_theta": 1e4}},
            {"part": "vision"},
            "head_dim",
        ),
        (
            {"model_type": "x", "head_dim": 8, "rope_parameters": {"rope_type": "axial", "rope_theta": "1e4"}},
            {"part": "vision"},
            "rope_theta must be a real number",
        ),
        ({"model_type": "x"}, {"part": "audio"}, "part must be"),
        ([1], {}, "config must be a mapping"),
    ],
)
def test_config_errors_name_the_key(config, kwargs, message):
    with pytest.raises(ValueError, match=message):
        M.multiaxis_from_config(config, **kwargs)


def test_a_raw_hunyuan_checkpoint_names_xdrope_section():
    cfg = {"model_type": "hunyuan_vl", "head_dim": 16, "hidden_size": 32, "num_attention_heads": 2,
           "rope_scaling": {"type": "xdrope", "xdrope_section": [2, 2, 2, 2], "alpha": 1000.0}}  # fmt: skip
    with pytest.raises(ValueError, match="xdrope_section"):
        M.multiaxis_from_config(cfg)


@pytest.mark.parametrize(
    "model_type",
    ["qwen2_5_omni", "qwen3_omni_moe", "sam2_video", "edgetam_video", "sam3_tracker_video", "sam3", "qwen2_5_vl"],
)
def test_regression_whole_config_finds_its_nested_vision_rotary(model_type):
    # the reader took config["vision_config"] only: the SAM 2 family's memory attention lives at the top level, SAM
    # 3's rotary in vision_config.backbone_config, the Omni models' vision tower in thinker_config.vision_config
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from posproof.numeric.audit.hf import TransformersVisionRope
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    whole = CONFIG_MAPPING[model_type]().to_dict()
    read = M.multiaxis_from_config(whole, part="vision")
    own = TransformersVisionRope(model_type).own_width
    built = TransformersVisionRope(model_type, width=own).declaration  # from the rotary's own settings
    assert read.rotary_dim == own
    np.testing.assert_array_equal(read.axes, built.axes)
    np.testing.assert_allclose(read.inv_freq, built.inv_freq, rtol=1e-15)
    assert read.layout == built.layout


def test_vision_config_nested_below_another_config_is_found():
    inner = {"model_type": "qwen2_5_vl_vision", "hidden_size": 64, "num_heads": 4}
    whole = {"model_type": "qwen2_5_omni", "thinker_config": {"model_type": "x", "vision_config": inner}}
    read, direct = M.multiaxis_from_config(whole, part="vision"), M.multiaxis_from_config(inner, part="vision")
    np.testing.assert_array_equal(read.inv_freq, direct.inv_freq)
    np.testing.assert_array_equal(read.axes, direct.axes)


def test_a_null_vision_config_is_refused_by_name():
    with pytest.raises(ValueError, match="vision_config is null"):
        M.multiaxis_from_config({"model_type": "gemma4", "vision_config": None}, part="vision")
