r"""Configs that leave keys to the model's configuration class: read from transformers' class when it is installed
(head width, head count, trained length, per-layer widths), refused naming the key when it is not, and
transformers imported only when a needed key is missing."""

import subprocess
import sys

import numpy as np
import pytest
from posproof.numeric.scaling import defaults as D
from posproof.numeric.scaling.rules import (
    config_class_defaults,
    config_layer_types,
    rope_inv_freq,
    rope_inv_freq_from_config,
    rope_scaling_from_config,
)

#: Gemma 3 12B's text part as a file may write it: head_dim left to Gemma3TextConfig (256; 3840 / 16 = 240).
GEMMA3_12B = {
    "model_type": "gemma3",
    "text_config": {
        "model_type": "gemma3_text", "hidden_size": 3840, "num_attention_heads": 16, "rope_theta": 1e6,
        "rope_local_base_freq": 1e4, "rope_scaling": {"rope_type": "linear", "factor": 8.0},
        "max_position_embeddings": 131072,
    },
}  # fmt: skip
#: Gemma 4 with proportional full-attention layers and no per_layer_config (the class builds it: 512-wide heads).
GEMMA4 = {
    "model_type": "gemma4_text", "hidden_size": 1536, "num_attention_heads": 8, "num_hidden_layers": 6,
    "head_dim": 256, "global_head_dim": 512, "layer_types": ["sliding_attention"] * 5 + ["full_attention"],
    "rope_parameters": {
        "sliding_attention": {"rope_type": "default", "rope_theta": 1e4},
        "full_attention": {"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1e6},
    },
}  # fmt: skip


@pytest.fixture
def no_transformers(monkeypatch):
    r"""transformers as if not installed (an import of it raises ImportError)."""
    for name in list(sys.modules):
        if name == "transformers" or name.startswith("transformers."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "transformers", None)


def _transformers():
    pytest.importorskip("transformers", reason="the class defaults are transformers' own")


def test_regression_gemma3_head_dim_left_to_the_class_is_its_256_not_hidden_over_heads():
    _transformers()
    cfg = rope_scaling_from_config(GEMMA3_12B, layer_type="full_attention")
    assert (cfg.width, cfg.d) == (256, 256)  # not 3840 // 16 = 240
    inv, _ = rope_inv_freq_from_config(GEMMA3_12B, layer_type="sliding_attention")
    np.testing.assert_array_equal(inv, rope_inv_freq(256, base=1e4)[0])  # every pair of the 128
    assert config_class_defaults(GEMMA3_12B) == {"head_dim": 256}


def test_regression_gemma3_4b_head_dim_left_to_the_class_is_read_not_refused():
    _transformers()
    text = dict(GEMMA3_12B["text_config"], hidden_size=2560, num_attention_heads=8)  # 2560 / 8 = 320
    assert rope_scaling_from_config(dict(GEMMA3_12B, text_config=text), layer_type="full_attention").width == 256


def test_regression_gemma3_text_config_without_model_type_reads_the_text_class():
    _transformers()
    text = {k: v for k, v in GEMMA3_12B["text_config"].items() if k != "model_type"}
    assert rope_scaling_from_config(dict(GEMMA3_12B, text_config=text), layer_type="full_attention").width == 256


def test_regression_gemma3_head_dim_refused_naming_the_key_without_transformers(no_transformers):
    with pytest.raises(ValueError, match=r"config leaves head_dim to Gemma3TextConfig's default: give head_dim, or "):
        rope_scaling_from_config(GEMMA3_12B, layer_type="full_attention")
    given = dict(GEMMA3_12B, text_config=dict(GEMMA3_12B["text_config"], head_dim=256))
    assert rope_scaling_from_config(given, layer_type="full_attention").width == 256


def test_regression_gemma4_without_per_layer_config_gets_the_class_widths():
    _transformers()
    assert config_layer_types(GEMMA4) == ["sliding_attention", "full_attention"]
    full = rope_scaling_from_config(GEMMA4, layer_type="full_attention")
    assert (full.width, full.rope_type, full.turning_pairs) == (512, "proportional", 64)
    assert rope_inv_freq_from_config(GEMMA4, layer_type="full_attention")[0].shape == (256,)  # not 128
    assert rope_scaling_from_config(GEMMA4, layer_type="sliding_attention").width == 256
    assert rope_scaling_from_config(dict(GEMMA4, global_head_dim=384), layer=5).width == 384


def test_regression_gemma4_per_layer_widths_refused_without_transformers(no_transformers):
    with pytest.raises(ValueError, match=r"per-layer head widths \(per_layer_config\) to Gemma4TextConfig's default"):
        rope_scaling_from_config(GEMMA4, layer_type="full_attention")


def test_regression_max_position_embeddings_left_to_the_class():
    _transformers()
    config = {"model_type": "llama", "head_dim": 64, "rope_theta": 1e4, "rope_scaling": {"rope_type": "dynamic",
              "factor": 2.0}}  # fmt: skip
    assert rope_scaling_from_config(config).L0 == 2048  # LlamaConfig's max_position_embeddings


def test_regression_head_count_and_length_refused_naming_the_key_without_transformers(no_transformers):
    config = {"model_type": "llama", "head_dim": 64, "rope_theta": 1e4, "rope_scaling": {"rope_type": "dynamic",
              "factor": 2.0}}  # fmt: skip
    with pytest.raises(ValueError, match="config leaves max_position_embeddings to model_type 'llama'"):
        rope_scaling_from_config(config)
    with pytest.raises(ValueError, match="config leaves num_attention_heads to model_type 'llama'"):
        rope_scaling_from_config({"model_type": "llama", "hidden_size": 4096, "rope_theta": 1e4})
    # no model_type: no class to leave a key to; hidden_size // num_attention_heads, as transformers computes
    assert rope_scaling_from_config({"hidden_size": 3840, "num_attention_heads": 16, "rope_theta": 1e4}).width == 240
    # a class whose head width is hidden_size // num_attention_heads (LlamaConfig): read without transformers
    llama = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 1e4}
    assert rope_scaling_from_config(llama).width == 128


def test_regression_partial_factor_left_to_the_class():
    _transformers()
    glm = {"model_type": "glm", "head_dim": 128, "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 1e4}
    assert rope_scaling_from_config(glm).d == 64  # GlmConfig's partial_rotary_factor 0.5


def test_regression_partial_factor_refused_without_transformers(no_transformers):
    glm = {"model_type": "glm", "head_dim": 128, "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 1e4}
    with pytest.raises(ValueError, match="config leaves partial_rotary_factor to GlmConfig's default"):
        rope_scaling_from_config(glm)
    assert rope_scaling_from_config(dict(glm, partial_rotary_factor=0.5)).d == 64


def test_regression_a_complete_config_does_not_import_transformers():
    pytest.importorskip("transformers", reason="the import avoided is transformers'")
    code = (
        "import sys; from posproof.numeric.scaling import rope_inv_freq_from_config as f; "
        "f({'model_type': 'llama', 'hidden_size': 4096, 'num_attention_heads': 32, 'rope_theta': 5e5, "
        "'max_position_embeddings': 131072, 'rope_scaling': {'rope_type': 'llama3', 'factor': 8.0, "
        "'low_freq_factor': 1.0, 'high_freq_factor': 4.0, 'original_max_position_embeddings': 8192}}); "
        "f({'model_type': 'gemma3_text', 'head_dim': 256, 'rope_theta': 1e6, 'rope_local_base_freq': 1e4}, "
        "layer_type='full_attention'); "
        "print('transformers' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "False", out.stderr


def test_missing_class_keys_names_only_what_the_reading_needs():
    assert D.missing_class_keys({"hidden_size": 64}, {}, None) == ([], [])  # no model_type: no class
    keys, rope = D.missing_class_keys({"hidden_size": 3840, "num_attention_heads": 16}, {}, "gemma3_text")
    assert keys == ["head_dim"] and rope == ["rope_theta", "rope_parameters"]
    keys, _ = D.missing_class_keys({"qk_rope_head_dim": 64}, {"rope_type": "yarn", "factor": 4.0}, "deepseek_v3")
    assert keys == ["max_position_embeddings"]  # YaRN without L0: the trained length
    keys, _ = D.missing_class_keys(
        {"head_dim": 64}, {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}, "llama"
    )
    assert keys == []


@pytest.mark.slow
def test_class_defaults_table_is_the_installed_transformers():
    transformers = pytest.importorskip("transformers", reason="the table is read from transformers")
    if transformers.__version__ != D.CLASS_DEFAULTS_VERSION:
        pytest.skip(f"the table is of transformers {D.CLASS_DEFAULTS_VERSION}, {transformers.__version__} installed")
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    found = {t: v for t in sorted(CONFIG_MAPPING.keys()) if (v := D.class_default_keys(t)) is not None}
    assert found == D.CLASS_DEFAULTS
