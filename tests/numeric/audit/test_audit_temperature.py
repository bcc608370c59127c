r"""The Llama 4 temperature audit: the kernel, a float32 port and transformers' own attention module conform; each
plausible mistake is named, with the value recovered and the smallest position that shows it; bad arguments are one
ValueError naming the argument."""

import math
from typing import Any

import numpy as np
import pytest
from posproof.numeric.audit.temperature import TEMPERATURE_FINDINGS, audit_llama4_temperature
from posproof.numeric.temperature import llama4_attention_temperature

F = 8192


def tau(p, *, F=F, a=0.1, shift=1):
    return np.log1p(((np.asarray(p) + shift) // F).astype(np.float64)) * a + 1.0


def test_the_kernel_conforms():
    report = audit_llama4_temperature(llama4_attention_temperature)
    assert report.ok and report.scheme == "llama4-temperature" and "0 <= p < 32768" in report.checked
    assert audit_llama4_temperature(llama4_attention_temperature, floor_scale=4, attn_scale=0.5).ok
    assert audit_llama4_temperature(lambda p: tau(p, F=3, a=0.5), floor_scale=3, attn_scale=0.5).ok


def test_float32_and_keyword_forms_conform():
    def float32(positions, *, floor_scale, attn_scale):
        q = np.asarray(positions).astype(np.float32)
        return np.log1p(np.floor((q + np.float32(1)) / np.float32(floor_scale))) * np.float32(attn_scale) + 1

    report = audit_llama4_temperature(float32, floor_scale=8192, attn_scale=0.1)
    assert report.ok and "called with floor_scale=8192, attn_scale=0.1" in report.checked
    assert audit_llama4_temperature(lambda p: tau(p).astype(np.float32).reshape(1, -1, 1, 1)).ok


@pytest.mark.parametrize(
    ("fn", "finding", "position"),
    [
        (lambda p: tau(p, shift=0), "temperature-position-offset", F - 1),  # rises at p = F, one late
        (lambda p: np.log(((p + 1) // F).astype(float)) * 0.1 + 1, "temperature-log-not-log1p", 0),
        (lambda p: np.log1p((p + 1) / F) * 0.1 + 1, "temperature-no-floor", 0),
        (lambda p: 1 / tau(p), "temperature-reciprocal", F - 1),
        (lambda p: np.ones(len(p)), "temperature-not-applied", F - 1),
        (lambda p: tau(p) * 2, "temperature-mismatch", 0),
        (lambda p: tau(p)[:-1], "temperature-shape", None),
        (lambda p: "scales", "temperature-shape", None),
    ],
)
def test_each_mistake_is_named_with_the_smallest_position(fn, finding, position):
    with np.errstate(divide="ignore"):
        (f,) = audit_llama4_temperature(fn).findings
    assert f.id == finding and f.id in TEMPERATURE_FINDINGS
    if position is not None:
        assert f.example["position"] == position and f.message.endswith(f"first at position {position}")
        assert f.example["expected"] == llama4_attention_temperature([position])[0] != f.example["got"]


@pytest.mark.parametrize(
    ("F2", "a2", "findings", "position"),
    [
        (4096, 0.1, {"temperature-floor-scale": ("floor_scale", 4096)}, 4095),
        (16384, 0.1, {"temperature-floor-scale": ("floor_scale", 16384)}, F - 1),
        (F, 0.25, {"temperature-attn-scale": ("attn_scale", 0.25)}, F - 1),
        (1000, 0.3, {"temperature-floor-scale": ("floor_scale", 1000), "temperature-attn-scale": ("attn_scale", 0.3)},
         999),
    ],
)  # fmt: skip
def test_another_floor_or_attn_scale_is_recovered(F2, a2, findings, position):
    report = audit_llama4_temperature(lambda p: tau(p, F=F2, a=a2))
    assert report.ids == tuple(findings)
    for f in report.findings:
        key, value = findings[f.id]
        assert f.example[f"{key}_found"] == value and f"({key} {value})" in f.message
        assert f.example["position"] == position


def test_the_temperature_on_rope_layers_is_named_with_the_layer():
    def everywhere(positions, layer_idx):
        return tau(positions)

    def nope_only(positions, layer_idx):
        return tau(positions) if (layer_idx + 1) % 4 == 0 else np.ones(len(positions))

    (f,) = audit_llama4_temperature(everywhere).findings
    assert f.id == "temperature-on-rope-layers" and (f.example["layer_idx"], f.example["position"]) == (0, F - 1)
    assert "layer 0, position 8191" in f.message
    assert audit_llama4_temperature(nope_only).ok
    assert "RoPE on [0, 1, 2]" in audit_llama4_temperature(nope_only).checked
    # an explicit plan, NoPE on layers 1 and 2; the function keeps the default plan (NoPE on layer 3 alone)
    report = audit_llama4_temperature(nope_only, no_rope_layers=[1, 0, 0, 1])
    assert report.ids == ("temperature-not-applied", "temperature-on-rope-layers")
    assert [f.example["layer_idx"] for f in report.findings] == [1, 3]


def test_float16_computation_is_named():
    def in_float16(positions):
        q = np.asarray(positions).astype(np.float16)
        one = np.float16(1)
        return np.log1p(np.floor((q + one) / np.float16(F))) * np.float16(0.1) + one

    (f,) = audit_llama4_temperature(in_float16).findings
    # float16 rounds 8190 up to 8192 (a tie, to even): the floor is 1 there, two positions early
    assert f.id == "temperature-low-precision" and f.example["dtype"] == "float16" and f.example["position"] == 8190
    (f,) = audit_llama4_temperature(lambda p: tau(p).astype(np.float16)).findings
    assert f.example["dtype"] == "float16" and f.example["position"] == F - 1  # 1 + 0.1 log 2 rounded


def test_an_attn_scale_off_by_less_than_16_bit_rounding_is_not_called_16_bit():
    (f,) = audit_llama4_temperature(lambda p: tau(p, a=0.1001)).findings
    assert f.id == "temperature-attn-scale" and f.example["attn_scale_found"] == 0.1001


# ---- torch: a port of transformers' expression, the 16-bit dtypes, and the real module --------------------------


def _torch():
    return pytest.importorskip("torch", reason="torch is not installed: the torch ports cannot run")


def _port(dtype):
    torch = _torch()

    def scales(positions):  # modeling_llama4.py, Llama4TextAttention.forward ("Use temperature tuning"), in dtype
        return torch.log1p(torch.floor((positions.to(dtype) + 1.0) / F)) * 0.1 + 1.0

    return scales


def test_a_torch_port_of_transformers_expression_conforms():
    torch = _torch()
    assert audit_llama4_temperature(_port(torch.float32)).ok  # transformers' own dtype: positions.float()
    assert audit_llama4_temperature(_port(torch.float64)).ok


@pytest.mark.parametrize(
    ("dtype", "position"),
    [("bfloat16", 8176), ("float16", 8190)],  # where the dtype's rounding of p + 1 first reaches F
)
def test_16_bit_torch_computations_name_the_dtype(dtype, position):
    torch = _torch()
    (f,) = audit_llama4_temperature(_port(getattr(torch, dtype))).findings
    assert f.id == "temperature-low-precision" and f.example["dtype"] == dtype
    assert f.example["position"] == position and f"(dtype {dtype})" in f.message
    (f,) = audit_llama4_temperature(lambda p: _port(torch.float32)(p).to(getattr(torch, dtype)).float()).findings
    assert f.example["dtype"] == dtype and f.example["position"] == F - 1


def test_a_16_bit_off_by_one_is_named_with_both_causes():
    torch = _torch()

    def off(positions):
        return torch.log1p(torch.floor(positions.to(torch.bfloat16) / 4)) * 0.5 + 1.0

    report = audit_llama4_temperature(off, floor_scale=4, attn_scale=0.5)
    assert report.ids == ("temperature-position-offset", "temperature-low-precision")
    assert report.findings[0].example["position"] == 3


def test_transformers_attention_module_conforms():
    r"""The real code path: a one-head NoPE ``Llama4TextAttention`` (float32, as loaded) with the identity as
    ``q_proj``, its attention function replaced to capture the scaled query of ``hidden_states`` of ones."""
    torch = _torch()
    modeling = pytest.importorskip("transformers.models.llama4.modeling_llama4", reason="no Llama 4 in transformers")
    from transformers.models.llama4.configuration_llama4 import Llama4TextConfig

    sizes: dict[str, Any] = {"hidden_size": 4, "num_attention_heads": 1, "num_key_value_heads": 1, "head_dim": 4}
    cfg = Llama4TextConfig(**sizes, num_hidden_layers=4, intermediate_size=8, intermediate_size_mlp=8, vocab_size=16)
    cfg._attn_implementation = "eager"
    attention = modeling.Llama4TextAttention(cfg, 3)  # layer 3: (3 + 1) % 4 == 0, a NoPE layer
    with torch.no_grad():
        attention.q_proj.weight.copy_(torch.eye(4))
    captured = {}

    def capture(module, query, key, value, mask, **kwargs):
        captured["query"] = query.detach()
        return torch.zeros(query.shape[0], query.shape[2], query.shape[1], query.shape[3]), None

    def scales(positions):
        n = len(positions)
        assert list(positions[:2]) == [0, 1] and positions[-1] == n - 1  # the module numbers tokens 0 .. n-1
        attention(torch.ones(1, n, 4), None, None)
        return captured["query"][0, 0, :, 0]

    original = modeling.eager_attention_forward
    modeling.eager_attention_forward = capture
    try:
        report = audit_llama4_temperature(scales, floor_scale=cfg.floor_scale, attn_scale=cfg.attn_scale)
    finally:
        modeling.eager_attention_forward = original
    assert report.ok, report.findings
    assert math.isclose(cfg.attn_scale, 0.1) and cfg.floor_scale == F


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [({"floor_scale": 0}, "floor_scale"), ({"floor_scale": 2.5}, "floor_scale"), ({"attn_scale": 0}, "attn_scale"),
     ({"attn_scale": float("nan")}, "attn_scale"), ({"max_position": 100}, "max_position must be an integer >= 8192"),
     ({"num_layers": 0}, "num_layers")],
)  # fmt: skip
def test_bad_arguments_are_one_value_error(kwargs, says):
    def layered(positions, layer_idx):
        return tau(positions)

    with pytest.raises(ValueError, match=says):
        audit_llama4_temperature(layered, **kwargs)
    with pytest.raises(ValueError, match="fn must be callable"):
        audit_llama4_temperature(None)
