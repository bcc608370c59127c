r"""Multi-axis RoPE kernels (numeric/multiaxis/): the axis maps transformers ships, the relative property in the
vector difference of positions, text tokens as 1-D RoPE, the mpmath twin, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from posproof.numeric import multiaxis as M
from posproof.numeric import tolerances
from posproof.numeric.rotary import rope
from posproof.numeric.sinusoid import inverse_frequencies


def test_chunked_sections_are_consecutive_bands():
    # Qwen2-VL: mrope_section [16, 24, 24] for d = 128: pairs 0-15 t, 16-39 h, 40-63 w
    axes = M.mrope_axes([16, 24, 24])
    assert axes.tolist() == [0] * 16 + [1] * 24 + [2] * 24


@pytest.mark.parametrize("sections", [[24, 20, 20], [16, 24, 24], [2, 1, 1], [4, 4, 0]])
def test_interleaved_sections_follow_qwen3_vl(sections):
    axes = M.mrope_axes(sections, interleaved=True)
    for i, a in enumerate(axes.tolist()):
        want = 1 if i % 3 == 1 and i < 3 * sections[1] else 2 if i % 3 == 2 and i < 3 * sections[2] else 0
        assert a == want, (i, a, want)


def test_axial_2d_takes_even_then_odd_frequencies():
    theta = inverse_frequencies(16, base=10000.0)
    assert M.axial_inv_freq(16).tolist() == theta[0::2].tolist() + theta[1::2].tolist()
    assert M.axial_axes(16).tolist() == [0, 0, 0, 0, 1, 1, 1, 1]
    assert [float(t) for t in M.axial_inv_freq_mp(16)] == pytest.approx(M.axial_inv_freq(16).tolist(), rel=1e-15)


@pytest.mark.parametrize("layout", ["half", "interleaved"])
@pytest.mark.parametrize("axes", [M.mrope_axes([2, 3, 3]), M.mrope_axes([3, 3, 2], interleaved=True)])
def test_scores_depend_on_the_vector_difference_only(layout, axes):
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 1, 16))
    for _ in range(20):
        pm, pn = rng.integers(-500, 500, (2, 1, 3))
        rq = M.rope_multiaxis(q, pm, axes=axes, layout=layout)
        rk = M.rope_multiaxis(k, pn, axes=axes, layout=layout)
        relative = M.rope_multiaxis(k, pn - pm, axes=axes, layout=layout)
        assert (rq @ rk.T).item() == pytest.approx((q @ relative.T).item(), abs=1e-9)


@pytest.mark.parametrize("interleaved", [False, True])
def test_text_tokens_are_one_dimensional_rope(interleaved):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 5, 128))
    m = np.array([0, 1, 77, 4096, 10**6])
    pos = np.stack([m, m, m], axis=-1)  # (tokens, 3): t = h = w
    got = M.rope_multiaxis(x, pos, axes=M.mrope_axes([16, 24, 24], interleaved=interleaved), base=1e6)
    assert np.array_equal(got, rope(x, m, base=1e6, layout="half"))


@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_float64_agrees_with_the_mpmath_twin(layout):
    rng = np.random.default_rng(2)
    x, pos = rng.standard_normal((4, 16)), rng.integers(0, 3000, (4, 2))
    axes = M.axial_axes(16)
    got = M.rope_multiaxis(x, pos, axes=axes, inv_freq=M.axial_inv_freq(16), layout=layout)
    ref = np.array(M.rope_multiaxis_mp(x, pos, axes=axes, inv_freq=M.axial_inv_freq_mp(16), layout=layout), float)
    assert np.max(np.abs(got - ref)) <= tolerances.FLOAT64_RTOL * np.max(np.abs(ref))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: M.mrope_axes([]), "mrope_section must be"),
        (lambda: M.mrope_axes([16, -1, 2]), "mrope_section must be"),
        (lambda: M.mrope_axes("16,24,24"), "mrope_section must be"),
        (lambda: M.axial_axes(6), "multiple of 4"),
        (lambda: M.rope_multiaxis(np.ones((2, 8)), [0, 1], axes=[0, 0, 0, 0]), "trailing axis"),
        (lambda: M.rope_multiaxis(np.ones((2, 8)), [[0, 1], [1, 2]], axes=[0, 0, 2, 0]), r"axes must be in \[0, 1\]"),
        (lambda: M.rope_multiaxis(np.ones((2, 8)), [[0, 1], [1, 2]], axes=[0, 1]), "one axis per pair"),
        (lambda: M.rope_multiaxis(np.ones((2, 8)), [[0, 1], [1, 2]], axes=[0] * 4, inv_freq=[1.0]), "inv_freq"),
        (lambda: M.rope_multiaxis(np.ones((2, 8)), [[np.nan, 1], [1, 2]], axes=[0] * 4), "positions"),
    ],
)
def test_bad_input_is_refused_with_a_clear_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ---- agreement with transformers: golden values (tests/numeric/hf_multiaxis.py wrote them) and live ------------------

_LAYOUTS = {  # our axis map, pair layout and rotary width for each of transformers' modules
    "qwen2_vl": lambda: (M.mrope_axes([2, 3, 3]), "half", None),
    "qwen3_vl": lambda: (M.mrope_axes([3, 3, 2], interleaved=True), "half", None),
    "pixtral": lambda: (M.axial_axes(16), "half", None),
    "glm4v": lambda: (M.mrope_axes([2, 1, 1]), "interleaved", 8),  # GLM-4V: pairs (2i, 2i + 1) of channels 0-7
    "glm4v_moe": lambda: (M.mrope_axes([2, 1, 1]), "half", 8),
}


def _ours(name: str, inv_freq) -> np.ndarray:
    from tests.numeric import hf_multiaxis as H

    x, pos = H.inputs(name)
    axes, layout, rotary_dim = _LAYOUTS[name]()
    inv = np.asarray(inv_freq, dtype=np.float64)
    return M.rope_multiaxis(x, pos, axes=axes, inv_freq=inv, layout=layout, rotary_dim=rotary_dim)


@pytest.mark.parametrize("name", sorted(_LAYOUTS))
def test_agrees_with_transformers_golden_values(name):
    import json

    from tests.numeric import hf_multiaxis as H

    doc = json.loads(H.GOLDEN.read_text(encoding="utf-8"))[name]
    inv = [float(v) for v in doc["inv_freq"]]
    want = np.array([[float(v) for v in row] for row in doc["rotated"]])
    assert np.max(np.abs(_ours(name, inv) - want)) <= 1e-12
    if name == "pixtral":  # the module's frequencies are axial_inv_freq's (rounded to float32 by the module)
        assert np.allclose(inv, M.axial_inv_freq(16, base=10000.0), rtol=1e-6)
    if name.startswith("glm"):  # partial rotary: base**(-2i/8) over the rotary width, the other channels unchanged
        assert np.allclose(inv, inverse_frequencies(8, base=1e4), rtol=1e-6)
        assert np.array_equal(want[:, 8:], H.inputs(name)[0][:, 8:])


@pytest.mark.parametrize("name", sorted(_LAYOUTS))
def test_agrees_with_transformers_live(name):
    pytest.importorskip("torch", reason="the live cross-check needs torch (the golden values do not)")
    pytest.importorskip("transformers", reason="the live cross-check needs transformers (the golden values do not)")
    from tests.numeric import hf_multiaxis as H

    inv, want = H.transformers_rotation(name)
    assert np.max(np.abs(_ours(name, inv) - want)) <= 1e-12


def test_regression_chunked_is_not_interleaved():
    # the bug class: a checkpoint's sections read chunked where it is interleaved (or the reverse)
    import json

    from tests.numeric import hf_multiaxis as H

    doc = json.loads(H.GOLDEN.read_text(encoding="utf-8"))["qwen3_vl"]
    x, pos = H.inputs("qwen3_vl")
    wrong = M.rope_multiaxis(x, pos, axes=M.mrope_axes([3, 3, 2]), inv_freq=[float(v) for v in doc["inv_freq"]])
    assert np.max(np.abs(wrong - np.array(doc["rotated"], dtype=float))) > 1e-3


# ---- configurations --------------------------------------------------------------------------------------------------


def test_config_qwen2_vl_is_chunked_and_qwen3_vl_interleaved():
    rope = {"rope_type": "default", "rope_theta": 1000000.0, "mrope_section": [16, 24, 24]}
    qwen2 = {"model_type": "qwen2_vl", "hidden_size": 3584, "num_attention_heads": 28, "rope_parameters": rope}
    inv, axes, factor = M.rope_axes_from_config(qwen2)
    assert axes.tolist() == M.mrope_axes([16, 24, 24]).tolist() and factor == 1.0
    assert np.allclose(inv, inverse_frequencies(128, base=1e6), rtol=1e-15)
    # head_dim given: Qwen3VLTextConfig's class default (128) is read only where transformers is installed
    qwen3 = {"model_type": "qwen3_vl", "text_config": {**qwen2, "model_type": "qwen3_vl_text", "head_dim": 128}}
    assert M.rope_axes_from_config(qwen3)[1].tolist() == M.mrope_axes([16, 24, 24], interleaved=True).tolist()
    flagged = {**qwen2, "rope_parameters": {**rope, "mrope_interleaved": True}}
    assert M.rope_axes_from_config(flagged)[1].tolist() == M.mrope_axes([16, 24, 24], interleaved=True).tolist()


def test_config_partial_rotary_glm4v():
    # GLM-4.1V-9B's text config: head 128, partial_rotary_factor 0.5, sections over the 32 rotated pairs
    text = {"model_type": "glm4v_text", "hidden_size": 4096, "num_attention_heads": 32, "partial_rotary_factor": 0.5,
            "rope_theta": 10000.0, "rope_scaling": {"type": "default", "mrope_section": [8, 12, 12]}}  # fmt: skip
    got = M.rope_axes_from_config({"model_type": "glm4v", "text_config": text})
    inv, axes, factor = got
    assert got.rotary_dim == 64 and factor == 1.0 and axes.tolist() == M.mrope_axes([8, 12, 12]).tolist()
    assert np.allclose(inv, inverse_frequencies(64, base=1e4), rtol=1e-15)  # the exponent over the rotary width
    # the same with transformers 5's rope_parameters
    params = {"rope_type": "default", "rope_theta": 1e4, "partial_rotary_factor": 0.5, "mrope_section": [8, 12, 12]}
    other = M.rope_axes_from_config({"hidden_size": 4096, "num_attention_heads": 32, "rope_parameters": params})
    assert other.rotary_dim == 64 and np.array_equal(other.inv_freq, inv)
    # the kernel: channels 64 .. 127 pass through; text tokens are partial 1-D RoPE
    x = np.random.default_rng(7).standard_normal((3, 128))
    m = np.array([0, 5, 9000])
    y = rope(x, np.stack([m] * 3, -1), layout="interleaved", inv_freq=inv, axes=axes, rotary_dim=got.rotary_dim)
    assert np.array_equal(y[:, 64:], x[:, 64:])
    assert np.array_equal(y, rope(x, m, layout="interleaved", inv_freq=inv, rotary_dim=64))
    # sections over the whole head's pairs are refused, naming the rotary width
    wrong = {**text, "rope_scaling": {"type": "default", "mrope_section": [16, 24, 24]}}
    with pytest.raises(ValueError, match=r"rotated pairs, 32 \(rotary_dim/2: .* = 64 of head_dim 128"):
        M.rope_axes_from_config(wrong)


def test_rope_multiaxis_partial_rotary_and_its_mpmath_twin():
    rng = np.random.default_rng(8)
    x, pos = rng.standard_normal((4, 16)), rng.integers(0, 3000, (4, 3))
    axes = M.mrope_axes([2, 1, 1])
    for layout in ("half", "interleaved"):
        got = M.rope_multiaxis(x, pos, axes=axes, base=1e4, layout=layout, rotary_dim=8)
        ref = np.array(M.rope_multiaxis_mp(x, pos, axes=axes, layout=layout, rotary_dim=8), dtype=float)
        assert np.array_equal(got[:, 8:], x[:, 8:]) and np.array_equal(ref[:, 8:], x[:, 8:])
        assert np.max(np.abs(got - ref)) <= tolerances.FLOAT64_RTOL * np.max(np.abs(ref))
    with pytest.raises(ValueError, match=r"rotary_dim must be an even integer in \[2, 16\]"):
        M.rope_multiaxis(x, pos, axes=axes, rotary_dim=7)
    with pytest.raises(ValueError, match=r"inv_freq must have rotary_dim/2 = 4 entries"):
        M.rope_multiaxis(x, pos, axes=axes, rotary_dim=8, inv_freq=np.ones(8))


def test_config_axial_pixtral():
    pixtral = {"model_type": "pixtral", "head_dim": 64, "rope_parameters": {"rope_type": "axial", "rope_theta": 1e4}}
    inv, axes, factor = M.rope_axes_from_config(pixtral)
    assert inv.tolist() == M.axial_inv_freq(64).tolist() and axes.tolist() == M.axial_axes(64).tolist()


def test_hf_position_ids_are_accepted():
    ids = np.arange(24).reshape(3, 2, 4)  # (axes, batch, tokens), as transformers passes M-RoPE positions
    assert M.positions_from_hf(ids).shape == (2, 4, 3) and M.positions_from_hf(ids)[1, 2].tolist() == [6, 14, 22]


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"hidden_size": 64, "num_attention_heads": 4, "rope_theta": 1e4}, "no mrope_section"),
        ({"hidden_size": 64, "num_attention_heads": 4, "rope_theta": 1e4,
          "rope_scaling": {"type": "mrope", "mrope_section": [2, 3, 2]}}, "add up to"),
        ({"head_dim": 64, "rope_parameters": {"rope_type": "axial", "rope_theta": "1e4"}}, "rope_theta"),
        ("qwen2_vl", "mapping"),
    ],
)  # fmt: skip
def test_config_errors_name_the_key(config, message):
    with pytest.raises(ValueError, match=message):
        M.rope_axes_from_config(config)


# ---- proportional RoPE -----------------------------------------------------------------------------------------------


def test_proportional_keeps_the_full_width_exponent_and_zeros_the_rest():
    theta = M.proportional_inv_freq(256, base=1e6, partial_rotary_factor=0.25, factor=2.0)
    full = inverse_frequencies(256, base=1e6)
    assert theta.shape == (128,) and (theta[32:] == 0).all()
    assert np.allclose(theta[:32], full[:32] / 2.0, rtol=1e-15)
    # pairs that do not turn leave their channels as they are, at every position
    x = np.random.default_rng(3).standard_normal((3, 256))
    y = rope(x, [0, 5, 10**5], inv_freq=theta, layout="half")
    assert np.array_equal(y[:, 32:128], x[:, 32:128]) and np.array_equal(y[:, 160:], x[:, 160:])


@pytest.mark.parametrize(
    ("width", "options", "message"),
    [
        (8, dict(base=1e4, partial_rotary_factor=0.0), "partial_rotary_factor"),
        (8, dict(base=1e4, partial_rotary_factor=1.5), "partial"),
        (8, dict(base=1e4, partial_rotary_factor=0.5, factor=0.0), "factor"),
        (7, dict(base=1e4), "even"),
    ],
)
def test_proportional_bad_input(width, options, message):
    with pytest.raises(ValueError, match=message):
        M.proportional_inv_freq(width, **options)


def test_proportional_agrees_with_transformers_live():
    pytest.importorskip("torch", reason="the live cross-check needs torch")
    pytest.importorskip("transformers", reason="the live cross-check needs transformers")
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.llama.configuration_llama import LlamaConfig

    rope_parameters = {"rope_type": "proportional", "rope_theta": 1e6, "partial_rotary_factor": 0.25}
    config = LlamaConfig(hidden_size=512, num_attention_heads=2, head_dim=256, rope_parameters=rope_parameters)
    inv, _ = ROPE_INIT_FUNCTIONS["proportional"](config)
    assert np.allclose(
        inv.double().numpy(), M.proportional_inv_freq(256, base=1e6, partial_rotary_factor=0.25), rtol=2e-6, atol=0
    )


# ---- the main kernel: rope(..., axes=) -------------------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["half", "interleaved"])
@pytest.mark.parametrize(
    ("axes", "inv_freq", "n_axes"),
    [
        (M.mrope_axes([2, 3, 3]), None, 3),
        (M.mrope_axes([3, 3, 2], interleaved=True), None, 3),
        (M.axial_axes(16), M.axial_inv_freq(16), 2),
    ],
)
def test_rope_with_axes_is_rope_multiaxis(layout, axes, inv_freq, n_axes):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 3, 5, 16))  # (batch, heads, tokens, width)
    pos = rng.integers(-3000, 3000, (2, 1, 5, n_axes))  # one position vector per token, shared by the heads
    for dtype in (np.float64, np.float32):
        got = rope(x.astype(dtype), pos, layout=layout, inv_freq=inv_freq, axes=axes)
        want = M.rope_multiaxis(x.astype(dtype), pos, axes=axes, inv_freq=inv_freq, layout=layout)
        assert got.dtype == dtype and np.array_equal(got, want)
    # positions (tokens, A) are shared by every leading axis, like 1-D positions (tokens,)
    assert np.array_equal(
        rope(x, pos[0, 0], layout=layout, inv_freq=inv_freq, axes=axes),
        M.rope_multiaxis(x, np.broadcast_to(pos[0, 0], (2, 3, 5, n_axes)), axes=axes, inv_freq=inv_freq, layout=layout),
    )


@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_rope_with_one_axis_is_plain_rope(layout):
    rng = np.random.default_rng(5)
    x, m = rng.standard_normal((7, 32)), rng.integers(0, 10**6, 7)
    kw = {"base": 5e5, "attention_factor": 1.25, "layout": layout}
    assert np.array_equal(rope(x, m[:, None], axes=[0] * 16, **kw), rope(x, m, **kw))
    # partial rotary: axes cover the rotated pairs; the other channels pass through as in plain rope
    got = rope(x, m[:, None], axes=[0] * 8, rotary_dim=16, **kw)
    assert np.array_equal(got, rope(x, m, rotary_dim=16, **kw)) and np.array_equal(got[:, 16:], x[:, 16:])


def test_rope_with_axes_against_the_mpmath_twin():
    rng = np.random.default_rng(6)
    x, pos = rng.standard_normal((4, 16)), rng.integers(0, 4096, (4, 3))
    axes = M.mrope_axes([3, 3, 2], interleaved=True)
    got = rope(x, pos, base=1e6, layout="half", axes=axes)
    ref = np.array(M.rope_multiaxis_mp(x, pos, axes=axes, base=10**6, layout="half"), dtype=float)
    assert np.max(np.abs(got - ref)) <= tolerances.FLOAT64_RTOL * np.max(np.abs(ref))


def test_rope_without_axes_is_unchanged_by_a_trailing_axis():
    # one-axis calls keep their meaning: (batch, tokens) positions stay one position per row, never vectors
    x = np.ones((2, 3, 4))
    assert np.array_equal(rope(x, [[0, 1, 2], [3, 4, 5]]), rope(x, np.arange(6).reshape(2, 3)))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"positions": [0, 1, 2], "axes": [0, 0]}, r"positions must have a trailing axis of length A"),
        ({"positions": [[0, 1]] * 3, "axes": [0, 1, 0]}, r"axes must give one axis per pair \(2 entries"),
        ({"positions": [[0, 1]] * 3, "axes": [0, 2]}, r"axes must be in \[0, 1\]"),
        ({"positions": [[0, 1]] * 3, "axes": [0, -1]}, r"axes must be in \[0, 1\]"),
        ({"positions": [[0, 1]] * 3, "axes": [0.0, 1.0]}, r"axes must be a 1-D list of integer"),
        ({"positions": [[0, 1]] * 3, "axes": [[0, 1]]}, r"axes must be a 1-D list of integer"),
        ({"positions": [[0, 1]] * 2, "axes": [0, 1]}, r"positions without their trailing axis .* do not fit"),
        ({"positions": [[0, np.inf]] * 3, "axes": [0, 1]}, r"positions must be finite"),
        ({"positions": [[0, 1]] * 3, "axes": [0, 1], "rotary_dim": 2}, r"axes must give one axis per pair \(1 entr"),
    ],
)
def test_rope_with_bad_axes_names_the_argument(kwargs, message):
    with pytest.raises(ValueError, match=message):
        rope(np.ones((3, 4)), **kwargs)
