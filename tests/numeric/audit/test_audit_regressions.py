r"""The audit on real code (no false alarm, no crash), findings that say the right thing, the command
line, and transformers' own RoPE (skipped without torch and transformers)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from posproof.derivations import machine
from posproof.derivations.args import Parser, UsageError
from posproof.derivations.commands import audit as cli_audit
from posproof.numeric import audit
from posproof.numeric.rotary import rope as rope_kernel

from tests.audit_corpus import real_code as rc
from tests.note_functions import note_rope


def _audit(fn, **kw):
    with np.errstate(all="ignore"):
        return audit.audit_rope(fn, **kw)


def test_regression_deepseek_interleave_in_half_out_conforms_with_a_note():
    report = _audit(rc.deepseek_interleave, call="q,k,positions")
    assert report.ok, audit.format_report(report)
    assert any("permuted" in n and "q and k must share it" in n for n in report.notes)
    assert "note: output q is permuted" in audit.format_report(report)
    broken = _audit(rc.deepseek_interleave_q_only, call="q,k,positions")
    assert broken.ids == ("not-relative",) and "different orders" in broken.findings[-1].message


def test_regression_rotary_on_trailing_channels_conforms_with_its_offset():
    report = _audit(rc.trailing_rotary, rotary_dim=32)
    assert report.ok and report.matched.rotary_dim == 32
    assert any("rotary offset 32" in n for n in report.notes)


def test_regression_dynamic_ntk_minimal_examples_and_profile_use_the_length_the_function_saw():
    report = _audit(rc.dynamic_ntk, scaling=rc.DYNAMIC)
    assert report.ok, audit.format_report(report)
    assert max(e for _, e in report.profile.errors) < 1e-6  # the profile's model: the length the calls had
    broken = _audit(rc.dynamic_ntk_base_100k, scaling=rc.DYNAMIC)  # used to exit 2: width 2 is refused
    (f,) = broken.findings
    assert f.id == "wrong-base" and f.example["width"] >= 4


def test_regression_longrope_both_regimes_are_audited():
    assert _audit(rc.longrope, scaling=rc.LONGROPE).ok
    report = _audit(rc.longrope_always_long, scaling=rc.LONGROPE)
    (f,) = report.findings
    assert f.id == "wrong-scaling" and "long_factor" in f.message and "L0 = 4096" in f.message


def test_regression_wrong_yarn_attention_factor_is_wrong_scaling_naming_both_factors():
    (f,) = _audit(rc.yarn_attention_twice, scaling=rc.YARN).findings
    assert f.id == "wrong-scaling"
    assert "1.29648 (the factor applied twice)" in f.message and "1.13863" in f.message


def test_regression_non_finite_output_is_its_own_finding():
    (f,) = _audit(rc.nan_at_position_zero).findings
    assert f.id == "non-finite" and "position 0, channel 0" in f.message and f.example["positions"] == [0]


def test_regression_example_is_built_in_the_matched_layout_under_auto():
    def half_base_500k(vectors, positions, base=10000.0):
        return rc._half(vectors, positions, 500000.0 ** (-np.arange(0, vectors.shape[1], 2) / vectors.shape[1]))

    (f,) = _audit(half_base_500k, width=16, max_position=4096).findings
    assert f.id == "wrong-base"
    w = f.example["width"]
    expected = np.array([float(v) for v in f.example["expected"]])
    got = np.array(f.example["got"])
    # the same channels move in the expected and the function's output: only the base differs
    assert np.array_equal(np.abs(expected) > 1e-12, np.abs(got) > 1e-12), (w, expected, got)


def _parser():
    p = Parser(prog="posproof")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    cli_audit.add_parser(sub)
    return p


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    (tmp_path / "user_rope2.py").write_text(
        "import functools\n"
        "def _io(fn):\n"
        "    @functools.wraps(fn, assigned=())\n"
        "    def rope(vectors, positions, base=10000.0):\n"
        "        return fn(vectors, positions, base)\n"
        "    return rope\n"
        "@_io\n"
        "def good(vectors, positions, base=10000.0):\n"
        "    from tests.note_functions import note_rope\n"
        "    return note_rope(vectors, positions, base)\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_regression_header_names_module_function_as_typed(user_module, capsys):
    args = _parser().parse_args(
        ["audit", "user_rope2:good", "--scheme", "rope", "--width", "8", "--max-position", "64"]
    )
    assert args.func(args) == 0
    assert capsys.readouterr().out.startswith("user_rope2:good: conforms")
    assert audit.audit_rope(note_rope, name="mine:rope", width=8, max_position=64).function == "mine:rope"


def test_regression_messages_name_cli_flags_and_unknown_flags_are_reported(user_module):
    with pytest.raises(UsageError, match="--rotary-dim"):
        args = _parser().parse_args(["audit", "user_rope2:good", "--scheme", "rope", "--rotary-dim", "3"])
        args.func(args)
    with pytest.raises(UsageError, match="add max_position_embeddings to --scaling"):
        args = _parser().parse_args(
            ["audit", "user_rope2:good", "--scheme", "rope", "--scaling", '{"rope_type": "yarn"}']
        )
        args.func(args)
    with pytest.raises(UsageError, match="unrecognized arguments: --sheme"):
        _parser().parse_args(["audit", "user_rope2:good", "--sheme", "rope"])


def test_regression_transformers_option_needs_torch_and_transformers(monkeypatch):
    import importlib.util

    if importlib.util.find_spec("torch") and importlib.util.find_spec("transformers"):
        pytest.skip("torch and transformers are installed: the live test runs instead")
    args = _parser().parse_args(["audit", "--transformers", "llama"])
    with pytest.raises(UsageError, match=r"needs torch and transformers .*pip install 'posproof\[transformers\]'"):
        args.func(args)


def test_regression_transformers_llama_partial_rotary_factor_is_a_real_deviation(tmp_path, capsys):
    pytest.importorskip("torch", reason="transformers' own RoPE needs torch")
    pytest.importorskip("transformers", reason="transformers' own RoPE needs transformers")
    config = {
        "model_type": "llama", "hidden_size": 256, "num_attention_heads": 4, "max_position_embeddings": 4096,
        "rope_theta": 10000.0, "partial_rotary_factor": 0.5,
    }  # fmt: skip
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    args = _parser().parse_args(["audit", "--transformers", str(path), "--max-position", "4096", "--json"])
    assert args.func(args) == 1  # Llama's rotary ignores partial_rotary_factor: it rotates the whole head
    doc = json.loads(capsys.readouterr().out)
    machine.validate(doc, "audit")  # transformers' reports are RoPE reports of the one JSON shape
    (report,) = doc["reports"]
    assert report["findings"][0]["id"] == "partial-rotary-width" and report["function"].startswith("transformers ")
    config.pop("partial_rotary_factor")
    path.write_text(json.dumps(config))
    args = _parser().parse_args(["audit", "--transformers", str(path), "--max-position", "4096"])
    assert args.func(args) == 0, capsys.readouterr().out


def test_regression_call_with_per_batch_caches():
    def gptj_style(q, k, sin, cos):  # (b, s, h, d) vectors, (b, s, d/2) caches, interleaved pairs
        def one(x):
            c, s = cos[:, :, None, :], sin[:, :, None, :]
            even, odd = x[..., 0::2], x[..., 1::2]
            out = np.empty_like(x)
            out[..., 0::2] = even * c - odd * s
            out[..., 1::2] = even * s + odd * c
            return out

        assert cos.ndim == 3 and cos.shape[0] == 1  # the batch axis the function indexes
        return one(q), one(k)

    report = _audit(gptj_style, call="q,k,sin_pairs,cos_pairs@bshd+batch", width=16, max_position=4096)
    assert report.ok and report.matched.layout == "interleaved", audit.format_report(report)
    assert audit.RopeCall.parse("q,k,cos,sin@bshd+batch").axes == "bshd+batch"


def _rope_in(dtype_of_positions):
    def rope(vectors, positions, base=10000.0):
        d = vectors.shape[1]
        p = np.asarray(positions).astype(dtype_of_positions).astype(np.float32)  # positions in this dtype
        inv = (base ** (-np.arange(0, d, 2) / d)).astype(np.float32)
        ang = p[:, None] * inv
        return _turn_interleaved(vectors, ang)

    return rope


def test_regression_dtype_bfloat16_inputs_show_positions_built_in_the_input_dtype():
    pytest.importorskip("ml_dtypes", reason="bfloat16 inputs need ml_dtypes")
    good = _audit(_rope_in(np.float32), dtype="bfloat16", width=16, max_position=65536)
    assert good.ok, audit.format_report(good)

    def in_input_dtype(vectors, positions, base=10000.0):  # rotary-embedding-torch: positions in x's dtype
        return _rope_in(vectors.dtype)(vectors, positions, base)

    (f,) = _audit(in_input_dtype, dtype="bfloat16", width=16, max_position=65536).findings
    assert f.id == "low-precision-angles" and "with bfloat16 inputs" in f.message and f.example["positions"] == [1001]
    with pytest.raises(ValueError, match="dtype must be bfloat16 or float16"):
        _audit(in_input_dtype, dtype="int8")


# ---- proportional RoPE, per-layer head widths, 16-bit inputs on every pair, examples ---------------------------------

PROPORTIONAL = {"rope_type": "proportional", "partial_rotary_factor": 0.25}


def _proportional_rope(float32: bool, layout: str = "half"):
    from posproof.numeric.scaling.rules import proportional_inv_freq

    def rope(vectors, positions, base=1e6):  # Gemma 4's full-attention layers: a quarter of the pairs turn
        d = vectors.shape[1]
        inv = proportional_inv_freq(d, base=base, partial_rotary_factor=0.25)
        if not float32:
            return rope_kernel(vectors, positions, layout=layout, inv_freq=inv)
        ang = np.asarray(positions, dtype=np.float32)[:, None] * inv.astype(np.float32)  # (tokens, d/2)
        c, s = np.cos(np.concatenate([ang, ang], 1)), np.sin(np.concatenate([ang, ang], 1))
        h = d // 2
        turned = np.concatenate([-vectors[:, h:], vectors[:, :h]], 1)
        return (vectors * c + turned * s).astype(vectors.dtype)

    return rope


def test_regression_proportional_rope_is_audited():
    for fn in (_proportional_rope(False), _proportional_rope(True), _proportional_rope(False, "interleaved")):
        report = _audit(fn, base=1e6, scaling=PROPORTIONAL, width=64, max_position=65536)
        assert report.ok, audit.format_report(report)
        assert report.matched.rotary_dim == 64 and report.matched.frequencies == "proportional (as configured)"

    def partial(vectors, positions, base=1e6):  # the mistake: partial rotary, its exponent over 16 channels
        return rope_kernel(vectors, positions, base=base, layout="half", rotary_dim=vectors.shape[1] // 4)

    report = _audit(partial, base=1e6, scaling=PROPORTIONAL, width=64, max_position=65536)
    assert report.ids == ("partial-rotary-width",), audit.format_report(report)
    assert report.findings[0].example["width"] == 8


def test_regression_transformers_per_layer_head_dim_and_proportional():
    pytest.importorskip("torch", reason="transformers' own RoPE needs torch")
    pytest.importorskip("transformers", reason="transformers' own RoPE needs transformers")
    from posproof.numeric.audit.hf import TransformersRope, layer_types, load_config

    config = load_config("gemma4_text")  # full attention: proportional RoPE on 512-wide heads (per_layer_config)
    assert layer_types(config) == ["sliding_attention", "full_attention"]
    target = TransformersRope(config, "full_attention")
    assert target.expected["width"] == 512 and target.expected["scaling"]["rope_type"] == "proportional"
    report = _audit(target, name=target.describe, **dict(target.expected, width=64), max_position=65536)
    assert report.ok, audit.format_report(report)


def test_regression_transformers_deepseek_v4_slices_its_own_head():
    pytest.importorskip("torch", reason="transformers' own RoPE needs torch")
    pytest.importorskip("transformers", reason="transformers' own RoPE needs transformers")
    from posproof.numeric.audit.hf import TransformersRope, load_config

    target = TransformersRope(load_config("deepseek_v4"), "compress")
    assert target.expected["width"] == 512 and target.expected["scaling"]["partial_rotary_factor"] == 0.125
    report = _audit(target, name=target.describe, **dict(target.expected, width=128), max_position=65536)
    assert report.ok, audit.format_report(report)  # its apply function rotates the last 16 of 128 channels itself
    assert any("rotary offset 112" in n for n in report.notes)
    # dots3: heads of qk_nope_head_dim + qk_rope_head_dim channels (per layer type), the rope slice first
    for layer_type in ("sliding_attention", "indexed_attention"):
        target = TransformersRope(load_config("dots3_note_text"), layer_type)
        assert target.expected["width"] == 256 and target.expected["scaling"]["partial_rotary_factor"] == 0.25
        report = _audit(target, name=target.describe, **dict(target.expected, width=64), max_position=65536)
        assert report.ok, audit.format_report(report)


def test_regression_dtype_checks_every_pair():
    pytest.importorskip("ml_dtypes", reason="bfloat16 inputs need ml_dtypes")

    def freqs_in_input_dtype(vectors, positions, base=10000.0):  # theta_i rounded to the input's dtype
        d = vectors.shape[1]
        inv = (base ** (-np.arange(0, d, 2) / d)).astype(vectors.dtype).astype(np.float32)  # theta_0 = 1 exact
        ang = np.asarray(positions, dtype=np.float32)[:, None] * inv
        return _turn_interleaved(vectors, ang)

    # float64 and float32 probes see the frequencies of float32 and float64 inputs: only bfloat16 inputs show it,
    # and pair 0 (theta_0 = 1, exact in bfloat16) never does
    assert _audit(freqs_in_input_dtype, width=16, max_position=65536).ok
    (f,) = _audit(freqs_in_input_dtype, dtype="bfloat16", width=16, max_position=65536).findings
    assert f.id == "low-precision-angles" and "with bfloat16 inputs it turns pair " in f.message
    assert f.example["pair"] != [0, 1] and f.example["positions"] == [1001]
    assert abs(f.example["got_angle"] - f.example["expected_angle"]) > 0.05


def test_regression_ignores_positions_example_reproduces_its_sentence():
    def constant(vectors, positions, base=10000.0):  # a fixed position for every token
        return rope_kernel(vectors, np.full(len(vectors), 3), base=base, layout="interleaved")

    def row_index(vectors, positions, base=10000.0):  # the position plus the row index
        return rope_kernel(vectors, np.asarray(positions) + np.arange(len(vectors)), base=base, layout="interleaved")

    for fn, call in ((constant, "one per position"), (row_index, None)):
        reports = [_audit(fn, layout="interleaved", seed=seed) for seed in (0, 0)]
        (f,) = reports[0].findings
        assert f.id == "ignores-positions" and f.example == reports[1].findings[0].example  # seeded
        ex = f.example
        text = audit.format_report(reports[0])
        assert "..." not in text.split("example:")[1] and ex["width"] == 2  # printed whole, at the smallest width
        assert all(4 * v == int(4 * v) for row in ex["vectors"] for v in row)  # quarters: exact as printed
        x = np.array(ex["vectors"])
        if call:  # the sentence: the same output at positions 0 and 7, one call each
            assert ex["calls"] == call and "same output at positions 0 and 7" in f.message
            got = [fn(x, np.array([p]))[0] for p in ex["positions"]]
            assert np.allclose(got[0], got[1]) and np.allclose(got, ex["got"])
        else:  # the sentence: two equal rows at position 7 rotated differently
            assert "two equal rows at the same position 7" in f.message and ex["positions"] == [7, 7]
            got = fn(x, np.array(ex["positions"]))
            assert np.allclose(got, ex["got"]) and not np.allclose(got[0], got[1])


def test_regression_transformers_multimodal_sections_and_complex_apply_rotary_emb():
    pytest.importorskip("torch", reason="transformers' own RoPE needs torch")
    pytest.importorskip("transformers", reason="transformers' own RoPE needs transformers")
    from posproof.numeric.audit.hf import TransformersRope, load_config

    # GLM-4V and HunYuan-VL split their pairs into M-RoPE sections (fitted to the probed width); Llama 4 and
    # DeepSeek-V2 apply Meta's complex apply_rotary_emb (tokens first, and heads first)
    for model_type in ("glm4v_text", "hunyuan_vl_text", "llama4_text", "deepseek_v2"):
        target = TransformersRope(load_config(model_type), None)
        report = _audit(target, name=target.describe, **dict(target.expected, width=32), max_position=65536)
        assert report.ok, audit.format_report(report)
    with pytest.raises(ValueError, match="is the audio part of a multimodal model"):
        TransformersRope(load_config("dots3_note_audio_encoder"), None)


def test_regression_rotary_dim_is_kept_exactly_not_through_a_float_factor():
    # rotary_dim / width as a float factor rounds int(44 * (30 / 44)) down to 29 (then refused as odd)
    def thirty(vectors, positions, base=10000.0):
        return rope_kernel(vectors, positions, base=base, rotary_dim=30)

    def twenty_eight(vectors, positions, base=10000.0):
        return rope_kernel(vectors, positions, base=base, rotary_dim=28)

    assert audit.audit_rope(thirty, width=44, rotary_dim=30).ok
    report = audit.audit_rope(twenty_eight, width=44, rotary_dim=30)
    assert not report.ok and [f.id for f in report.findings] == ["partial-rotary-width"]


def _turn_interleaved(vectors, ang):
    r"""Interleaved pairs turned by ``ang`` (tokens, pairs) in float32, returned in the vectors' dtype."""
    c, s = np.cos(ang), np.sin(ang)
    x = vectors.astype(np.float32)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * c - x[:, 1::2] * s
    out[:, 1::2] = x[:, 0::2] * s + x[:, 1::2] * c
    return out.astype(vectors.dtype)
