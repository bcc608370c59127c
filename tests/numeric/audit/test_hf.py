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


#: One family per kind of vision declaration posproof reads (numeric/multiaxis/config.py): its vision model_type's
#: declared pair layout.
REPRESENTATIVE_VISION = {
    "qwen2_vl": "half",  # shared frequencies, row first, rotate-half
    "pixtral": "half",  # split frequencies
    "sam2_video": "interleaved",  # memory attention, pairs (2i, 2i + 1)
    "sam3": "interleaved",  # the ViT's real coordinates
    "gemma4": "blocks",  # rotate-half inside each axis's half of the head
    "inkling2": "interleaved",  # column first
    "step3p7": "half",  # column first
    "kimi_k25": "half",  # column and row alternating
    "minimax_m3_vl": "half",  # per-axis ladders over three axes
}


def _vision_sweep():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "bench" / "sweep_transformers_vision.py"
    spec = importlib.util.spec_from_file_location("sweep_transformers_vision", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_vision_sweep_of_one_family_per_declaration_kind_conforms():
    counts, rows = _vision_sweep().sweep(list(REPRESENTATIVE_VISION), echo=lambda line: None)
    assert counts == {"conform": len(REPRESENTATIVE_VISION), "findings": 0, "unsupported": 0, "skipped": 0}, rows
    for row, layout in zip(rows, REPRESENTATIVE_VISION.values(), strict=True):
        assert row["declared"].endswith(f"{layout} layout"), row


def _pairs(width: int, layout: str, n_axes: int) -> np.ndarray:
    r"""``(width/2, 2)``: the two channels of each rotated pair, pairs in the declaration's order."""
    half = width // 2
    if layout == "half":
        return np.stack([np.arange(half), np.arange(half) + half], axis=1)
    if layout == "interleaved":
        return np.stack([np.arange(0, width, 2), np.arange(1, width, 2)], axis=1)
    block = width // n_axes  # "blocks": rotate-half inside each axis's block of channels
    j = np.arange(block // 2)
    return np.concatenate([np.stack([a * block + j, a * block + j + block // 2], axis=1) for a in range(n_axes)])


def _independent(x, pos, theta, axis, pairs) -> np.ndarray:
    r"""Pair ``i`` (channels ``pairs[i]``) of ``x`` ``(tokens, width)`` turned by ``theta[i] * pos[:, axis[i]]``."""
    out = x.copy()
    angle = theta[None] * pos[:, axis]  # (tokens, pairs)
    a, b = x[:, pairs[:, 0]], x[:, pairs[:, 1]]
    out[:, pairs[:, 0]] = a * np.cos(angle) - b * np.sin(angle)
    out[:, pairs[:, 1]] = b * np.cos(angle) + a * np.sin(angle)
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    ("model_type", "layout", "order", "frequencies"),
    [
        ("qwen2_vl", "half", "hw", "shared"),
        ("pixtral", "half", "hw", "split"),
        ("sam2_video", "interleaved", "hw", "shared"),
        ("gemma4", "blocks", "hw", "shared"),
        ("step3p7", "half", "wh", "shared"),
    ],
)
def test_vision_rotary_adapter_is_the_declared_rope_by_an_independent_numpy_computation(
    model_type, layout, order, frequencies
):
    from posproof.numeric.audit.hf import TransformersVisionRope

    target = TransformersVisionRope(model_type)
    width, base = target.width, target.base
    rng = np.random.default_rng(0)
    x, pos = rng.standard_normal((5, width)), rng.integers(0, 50, (5, 2))  # (tokens, width), (tokens, 2)
    got = target(torch.from_numpy(x), torch.from_numpy(pos)).numpy()
    j = np.arange(width // 4)
    if frequencies == "shared":  # each axis: base**(-2j/(width/2)); the first axis's pairs first
        theta = np.concatenate([base ** (-2 * j / (width // 2))] * 2)
    else:  # Pixtral: base**(-2i/width), the even i to the row, the odd to the column
        full = base ** (-np.arange(0, width, 2) / width)
        theta = np.concatenate([full[0::2], full[1::2]])
    axis = np.repeat([0, 1] if order == "hw" else [1, 0], width // 4)
    want = _independent(x, pos, theta, axis, _pairs(width, layout, 2))
    np.testing.assert_allclose(got, want, atol=1e-5)  # transformers' float32 frequencies
    declared = target.declaration
    assert declared.layout == layout and np.allclose(declared.inv_freq, theta) and (declared.axes == axis).all()


def test_regression_vision_apply_form_broadcasting_every_token_to_the_first_tokens_angle_is_not_picked():
    from posproof.numeric.audit.hf import TransformersVisionRope

    target = TransformersVisionRope("sam2_video")  # its apply broadcasts (tokens, 1, width) against (1, tokens, width)
    rng = np.random.default_rng(1)
    x, pos = rng.standard_normal((4, target.width)), rng.integers(0, 9, (4, 2))  # (tokens, width), (tokens, 2)
    together = target(torch.from_numpy(x), torch.from_numpy(pos)).numpy()
    for t in range(4):
        alone = target(torch.from_numpy(x[t : t + 1]), torch.from_numpy(pos[t : t + 1])).numpy()
        np.testing.assert_allclose(together[t], alone[0], atol=1e-6)


@pytest.mark.parametrize("width", [-2, 3, 2.0, True])
def test_vision_rotary_width_out_of_range_is_refused_by_name(width):
    from posproof.numeric.audit.hf import TransformersVisionRope

    with pytest.raises(ValueError, match="width must be an even head width"):
        TransformersVisionRope("qwen2_vl", width=width)


def test_regression_vision_config_requiring_adapter_in_dim_equal_to_hidden_size_builds_at_the_probed_width():
    from posproof.numeric.audit.hf import PROBE_WIDTHS, TransformersVisionRope

    target = TransformersVisionRope("dots3_note")  # Dots3NoteVisionConfig: adapter_in_dim must match hidden_size
    assert target.width == PROBE_WIDTHS[0] and target.declaration.rotary_dim == PROBE_WIDTHS[0]
    built = target.built(target.width)
    assert built.adapter_in_dim == built.hidden_size == PROBE_WIDTHS[0] * built.num_attention_heads


@pytest.mark.parametrize("model_type", ["dbrx", "moonshine"])
def test_regression_transformers_config_naming_its_widths_by_its_attribute_map_is_audited(model_type):
    config = load_config(model_type)  # DBRX: d_model, n_heads; Moonshine: decoder_num_attention_heads
    assert "num_attention_heads" not in config
    target = TransformersRope(config, None)
    report = _audit(target, width=32)
    assert report.ok, audit.format_report(report)
