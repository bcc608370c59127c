r"""transformers' own RoPE as an audit target (numeric/audit/hf.py): the width a file's model has when the file
leaves it to the configuration class, and 16-bit inputs."""

import numpy as np
import pytest
from posproof.numeric import audit

torch = pytest.importorskip("torch", reason="transformers' own RoPE needs torch")
pytest.importorskip("transformers", reason="transformers' own RoPE needs transformers")

from posproof.numeric.audit.hf import TransformersRope, layer_types, load_config  # noqa: E402

from tests.numeric.scaling.test_defaults import GEMMA3_12B, GEMMA4  # noqa: E402


def _audit(target, **kw):
    with np.errstate(all="ignore"):
        return audit.audit_rope(target, name=target.describe, **{**target.expected, **kw})


def test_regression_transformers_file_leaving_head_dim_to_the_class_audits_the_models_width():
    for layer_type in layer_types(GEMMA3_12B):
        target = TransformersRope(GEMMA3_12B, layer_type)
        assert target.expected["width"] == 256  # Gemma3TextConfig's head_dim, not 3840 / 16 = 240
        assert target._hf_config(None).head_dim == 256  # noqa: SLF001 - the model transformers builds


def test_regression_transformers_file_without_per_layer_config_probes_the_full_attention_width():
    target = TransformersRope(GEMMA4, "full_attention")
    assert target.expected["width"] == 512 and target.expected["scaling"]["rope_type"] == "proportional"
    report = _audit(target, width=64, max_position=65536)  # the class's per-layer widths follow the probe
    assert report.ok, audit.format_report(report)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_regression_transformers_adapter_takes_16_bit_inputs(dtype):
    if dtype == "bfloat16":
        pytest.importorskip("ml_dtypes", reason="bfloat16 NumPy arrays need ml_dtypes")
        import ml_dtypes

        np_dtype = ml_dtypes.bfloat16
    else:
        np_dtype = np.float16
    target = TransformersRope(load_config("llama"), None)
    q = np.linspace(-1, 1, 32).reshape(1, 1, 1, 32).repeat(3, axis=2).astype(np_dtype)  # (1, 1, tokens, width)
    q_out, k_out = target(q, q, np.arange(3)[None])
    assert q_out.dtype == getattr(torch, dtype) and tuple(q_out.shape) == (1, 1, 3, 32)
    reference, _ = target(q.astype(np.float32), q.astype(np.float32), np.arange(3)[None])
    np.testing.assert_allclose(q_out.float().numpy(), reference.numpy(), atol=0.02)  # 16-bit rounding
    report = _audit(target, width=32, dtype=dtype, max_position=65536)
    assert not [f for f in report.findings if f.id.startswith("process-")], audit.format_report(report)


@pytest.mark.slow
@pytest.mark.parametrize("model_type, frequencies", [("qwen2_vl", "shared"), ("pixtral", "split")])
def test_vision_rotary_adapter_is_the_declared_axial_rope_by_an_independent_numpy_computation(model_type, frequencies):
    from posproof.numeric.audit.hf import TransformersVisionRope

    target = TransformersVisionRope(model_type, frequencies=frequencies)
    assert target.expected["scaling"]["rope_type"] == "axial"
    width = 32
    rng = np.random.default_rng(0)
    x, pos = rng.standard_normal((5, width)), rng.integers(0, 50, (5, 2))  # (tokens, width), (tokens, 2)
    got = target(torch.from_numpy(x), torch.from_numpy(pos)).numpy()
    base = target.expected["base"]
    j = np.arange(width // 4)
    if frequencies == "shared":  # each axis: base**(-2j/(width/2)); the row's pairs first
        theta = np.concatenate([base ** (-2 * j / (width // 2))] * 2)
    else:  # Pixtral: base**(-2i/width), the even i to the row, the odd to the column
        full = base ** (-np.arange(0, width, 2) / width)
        theta = np.concatenate([full[0::2], full[1::2]])
    axis = np.repeat([0, 1], width // 4)
    angle = theta[None] * pos[:, axis]  # (tokens, width/2): pair i is channels (i, i + width/2)
    half = width // 2
    want = np.concatenate(
        [
            x[:, :half] * np.cos(angle) - x[:, half:] * np.sin(angle),
            x[:, half:] * np.cos(angle) + x[:, :half] * np.sin(angle),
        ],
        axis=1,
    )
    np.testing.assert_allclose(got, want, atol=1e-5)  # transformers' float32 frequencies
