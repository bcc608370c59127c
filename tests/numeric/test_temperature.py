r"""Length-dependent temperature kernels: against their mpmath twins, golden values, transformers' Llama 4 code
(when torch is installed), the layer plan as transformers reads the config, and bad arguments."""

import math

import mpmath
import numpy as np
import pytest
from posproof.numeric.temperature import (
    golden_vectors_temperature,
    llama4_attention_temperature,
    llama4_attention_temperature_mp,
    llama4_rope_layers,
    llama4_temperature_parameters,
    logn_attention_scale,
    logn_attention_scale_mp,
)
from posproof.numeric.tolerances import TEMPERATURE_F64_RTOL, TEMPERATURE_HF_F32_RTOL

POSITIONS = np.array([0, 1, 2, 6, 7, 8, 8190, 8191, 8192, 16382, 16383, 24575, 10**6, 2**24 - 1, 2**40])


@pytest.mark.parametrize(("F", "a"), [(8192, 0.1), (4, 0.5), (1, 1.0), (3, 0.0)])
def test_llama4_agrees_with_mpmath(F, a):
    got = llama4_attention_temperature(POSITIONS, floor_scale=F, attn_scale=a)
    want = [float(llama4_attention_temperature_mp(int(q), floor_scale=F, attn_scale=mpmath.mpf(a))) for q in POSITIONS]
    np.testing.assert_allclose(got, want, rtol=TEMPERATURE_F64_RTOL, atol=0)


def test_llama4_golden_values():
    got = llama4_attention_temperature([0, 8190, 8191, 16383, 24575], floor_scale=8192, attn_scale=0.1)
    # 1, 1, 1 + 0.1 log 2, 1 + 0.1 log 3, 1 + 0.1 log 4
    want = [1.0, 1.0, 1 + 0.1 * math.log(2), 1 + 0.1 * math.log(3), 1 + 0.1 * math.log(4)]
    np.testing.assert_allclose(got, want, rtol=TEMPERATURE_F64_RTOL, atol=0)
    assert got[0] == 1.0 and got[1] == 1.0
    assert mpmath.nstr(llama4_attention_temperature_mp(8191, dps=30), 20) == "1.0693147180559945309"


def test_logn_agrees_with_mpmath_and_golden():
    got = logn_attention_scale(POSITIONS, trained_length=2048)
    want = [float(logn_attention_scale_mp(int(q), trained_length=2048)) for q in POSITIONS]
    np.testing.assert_allclose(got, want, rtol=TEMPERATURE_F64_RTOL, atol=0)
    s = logn_attention_scale([0, 2047, 2048, 4095], trained_length=2048)
    assert s[0] == 1.0 and s[1] == 1.0  # p + 1 = 2048 is within the trained length
    np.testing.assert_allclose(s[2:], [math.log(2049, 2048), math.log(4096, 2048)], rtol=TEMPERATURE_F64_RTOL)


def test_logn_increasing_beyond():
    s = logn_attention_scale(np.arange(8192, 40000), trained_length=8192)
    assert np.all(s[1:] > s[:-1]) and np.all(s > 1)


def test_rope_layers_as_transformers_reads_them():
    assert llama4_rope_layers(8) == [True, True, True, False] * 2
    assert llama4_rope_layers(6, interval=2) == [True, False] * 3
    assert llama4_rope_layers(3, no_rope_layers=[0, 1, 1, 0]) == [False, True, True]
    assert llama4_rope_layers(4, no_rope_layers=[]) == [True, True, True, False]  # empty: the default


def test_parameters_from_config():
    cfg = {"text_config": {"num_hidden_layers": 4, "floor_scale": 8192, "attn_scale": 0.1,
                           "attn_temperature_tuning": True, "no_rope_layer_interval": 4}}  # fmt: skip
    got = llama4_temperature_parameters(cfg)
    assert got == {"enabled": True, "floor_scale": 8192, "attn_scale": 0.1, "rope_layers": [True, True, True, False]}
    assert llama4_temperature_parameters({"num_hidden_layers": 2})["floor_scale"] == 8192


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: llama4_attention_temperature([-1]), "positions"),
        (lambda: llama4_attention_temperature([0.5]), "positions"),
        (lambda: llama4_attention_temperature([0], floor_scale=0), "floor_scale"),
        (lambda: llama4_attention_temperature([0], floor_scale=2.5), "floor_scale"),
        (lambda: llama4_attention_temperature([0], attn_scale=-0.1), "attn_scale"),
        (lambda: llama4_attention_temperature([0], attn_scale=float("nan")), "attn_scale"),
        (lambda: llama4_attention_temperature_mp(-2), "position"),
        (lambda: llama4_attention_temperature_mp(0, attn_scale="x"), "attn_scale"),
        (lambda: llama4_attention_temperature_mp(0, dps=3), "dps"),
        (lambda: llama4_rope_layers(0), "num_layers"),
        (lambda: llama4_rope_layers(4, interval=0), "interval"),
        (lambda: llama4_rope_layers(4, no_rope_layers=[1, 0]), "no_rope_layers"),
        (lambda: llama4_rope_layers(2, no_rope_layers=[1, 2]), "no_rope_layers"),
        (lambda: llama4_temperature_parameters([]), "config"),
        (lambda: llama4_temperature_parameters({}), "num_hidden_layers"),
        (lambda: logn_attention_scale([0], trained_length=1), "trained_length"),
        (lambda: logn_attention_scale([-3], trained_length=8), "positions"),
        (lambda: logn_attention_scale_mp(1.5, trained_length=8), "position"),
    ],
)
def test_bad_arguments_name_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_golden_document_shape():
    doc = golden_vectors_temperature()
    assert doc["scheme"] == "temperature" and doc["cases"]
    llama = doc["cases"][0]
    assert llama["parameters"] == {"scheme": "llama4", "floor_scale": 8192, "attn_scale": "0.1"}
    by_position = dict(zip(llama["positions"], llama["scale"], strict=True))
    assert by_position[8190] == "1.0000000000000000" and by_position[8191] == "1.0693147180559945"
    logn = doc["cases"][3]
    assert dict(zip(logn["positions"], logn["scale"], strict=True))[4095] == "1.0909090909090909"


# ---- transformers' Llama 4 (torch) -----------------------------------------------------------------------------


def _torch():
    torch = pytest.importorskip("torch", reason="torch is not installed: transformers' Llama 4 code cannot run")
    modeling = pytest.importorskip("transformers.models.llama4.modeling_llama4", reason="no Llama 4 in transformers")
    return torch, modeling


def test_matches_transformers_expression_in_float64():
    torch, _ = _torch()
    positions = torch.tensor(POSITIONS[:-1], dtype=torch.float64)
    for F, a in ((8192, 0.1), (4, 0.5)):
        # modeling_llama4.py, Llama4TextAttention.forward (the lines after "Use temperature tuning"), in float64
        attn_scales = torch.log1p(torch.floor((positions + 1.0) / F)) * a + 1.0
        got = llama4_attention_temperature(POSITIONS[:-1], floor_scale=F, attn_scale=a)
        np.testing.assert_allclose(got, attn_scales.numpy(), rtol=TEMPERATURE_F64_RTOL, atol=0)


def test_matches_transformers_attention_module():
    r"""The real code path: a one-head ``Llama4TextAttention`` on a NoPE layer with the identity as ``q_proj``; the
    attention function is replaced to capture the query it receives, and a cache stub sets the past length."""
    torch, modeling = _torch()
    from transformers.models.llama4.configuration_llama4 import Llama4TextConfig

    sizes = {"hidden_size": 4, "num_attention_heads": 1, "num_key_value_heads": 1, "head_dim": 4}
    cfg = Llama4TextConfig(**sizes, num_hidden_layers=4, intermediate_size=8, intermediate_size_mlp=8, vocab_size=16)
    cfg._attn_implementation = "eager"
    assert [bool(x) for x in cfg.no_rope_layers] == llama4_rope_layers(4)
    layer = llama4_rope_layers(4).index(False)
    attention = modeling.Llama4TextAttention(cfg, layer).double()
    with torch.no_grad():
        attention.q_proj.weight.copy_(torch.eye(4, dtype=torch.float64))
    captured = {}

    def capture(module, query, key, value, mask, **kwargs):
        captured["query"] = query.detach()
        return torch.zeros(query.shape[0], query.shape[2], query.shape[1], query.shape[3], dtype=query.dtype), None

    class PastLength:
        def __init__(self, past):
            self.past = past

        def get_seq_length(self, layer_idx=0):
            return self.past

        def update(self, key, value, layer_idx, kwargs=None):
            return key, value

    original = modeling.eager_attention_forward
    modeling.eager_attention_forward = capture
    try:
        for past in (0, 8100, 16300):
            attention(torch.ones(1, 100, 4, dtype=torch.float64), None, None, cache=PastLength(past))
            got = captured["query"][0, 0, :, 0].numpy()
            want = llama4_attention_temperature(np.arange(past, past + 100), floor_scale=cfg.floor_scale,
                                                attn_scale=cfg.attn_scale)  # fmt: skip
            np.testing.assert_allclose(got, want, rtol=TEMPERATURE_HF_F32_RTOL, atol=0)
    finally:
        modeling.eager_attention_forward = original


def test_logn_parameters_read_as_qwen_reads_them():
    from posproof.numeric.temperature import logn_parameters

    assert logn_parameters({}) == {"enabled": True, "trained_length": 2048}  # QWenConfig's defaults
    assert logn_parameters({"use_logn_attn": False, "seq_length": 32768}) == {"enabled": False, "trained_length": 32768}
    with pytest.raises(ValueError, match="trained_length"):
        logn_parameters({"seq_length": 1})
    with pytest.raises(ValueError, match="use_logn_attn"):
        logn_parameters({"use_logn_attn": "yes"})
