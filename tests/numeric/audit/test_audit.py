r"""The audit: the corpus of broken and correct implementations, the report, the pytest helper, the
precision profile, and the ``posproof audit`` command (through its own parser; through ``posproof`` once the lead
has wired it)."""

import json

import numpy as np
import pytest
from posproof.derivations import audited
from posproof.derivations.args import Parser, UsageError
from posproof.derivations.commands import audit as cli_audit
from posproof.numeric import audit
from posproof.numeric import precision_profile as pp

from tests.audit_corpus import all_cases
from tests.note_functions import note_rope

CASES = all_cases()
RUN = {"rope": audit.audit_rope, "alibi": audit.audit_alibi, "t5": audit.audit_t5}
KNOWN = {**audit.ROPE_FINDINGS, **audit.ALIBI_FINDINGS, **audit.T5_FINDINGS}


_REPORTS: dict = {}


def _audit(c):
    r"""The report of a corpus case (computed once per session: audits are deterministic)."""
    if id(c) not in _REPORTS:
        with np.errstate(all="ignore"):
            _REPORTS[id(c)] = RUN[c.scheme](c.fn, **c.kwargs)
    return _REPORTS[id(c)]


# ---- the corpus ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("c", CASES, ids=[c.name + ("" if c.correct else "-broken") for c in CASES])
def test_corpus_case_gets_exactly_its_findings(c):
    report = _audit(c)
    assert set(report.ids) == set(c.expected), audit.format_report(report)
    assert report.ok is c.correct


def test_corpus_size_and_catch_rate():
    broken = [c for c in CASES if not c.correct]
    correct = [c for c in CASES if c.correct and c.scheme == "rope"]
    assert len(broken) >= 15 and len(correct) >= 4
    caught = [c for c in broken if set(_audit(c).ids) == set(c.expected)]
    assert len(caught) == len(broken)  # 100 %, each with the right id
    expected_ids = set().union(*(c.expected for c in broken))
    assert expected_ids <= set(KNOWN)


def test_every_required_finding_id_is_exercised_by_the_corpus():
    required = {
        "layout-half-vs-interleaved", "wrong-base", "frequency-exponent", "rotation-sign", "position-offset",
        "cos-sin-swapped", "low-precision-angles", "partial-rotary-width", "wrong-scaling", "not-norm-preserving",
        "not-relative", "shape-or-dtype", "qk-cross-wired", "alibi-power-of-two-formula", "alibi-slope-exponent",
        "t5-missing-cap", "t5-nan-at-zero", "t5-sign-convention", "t5-bidirectional-halving", "t5-linear-buckets",
    }  # fmt: skip
    exercised = set().union(*(c.expected for c in CASES))
    missing = required - exercised
    if "qk-cross-wired" in missing:  # also in the NumPy part of the corpus
        pytest.fail("qk-cross-wired has no corpus case")
    assert not missing


def test_trusted_implementations_pass_with_only_the_profile():
    trusted = {"note_functions.note_rope", "rotate_half.hf_rope", "complex_numbers.complex_rope", "cached.cached_rope"}
    cases = [c for c in CASES if c.name in trusted and c.correct]
    assert {c.name for c in cases} == trusted
    for c in cases:
        report = _audit(c)
        assert report.ok and report.findings == ()
        assert report.profile is not None and report.profile.errors


def test_torch_corpus_runs_on_tensors():
    pytest.importorskip("torch", reason="the torch half of the corpus needs torch")
    names = {c.name for c in CASES}
    assert "torch_impls.torch_hf_rope" in names
    c = next(c for c in CASES if c.name == "torch_impls.torch_hf_rope")
    report = _audit(c)
    assert report.matched.backend == "torch" and report.matched.angle_precision == "float32"


# ---- what the report says --------------------------------------------------------------------------------------------


def test_report_matches_layout_base_and_precision():
    report = audit.audit_rope(note_rope, layout="auto", width=32, max_position=4096)
    m = report.matched
    assert report.ok
    assert (m.layout, m.rotary_dim, m.base, m.angle_precision) == ("interleaved", 32, 10000.0, "float64")
    assert m.attention_factor == pytest.approx(1.0)


def test_hugging_face_float32_cache_passes_and_its_profile_grows():
    c = next(c for c in CASES if c.name == "rotate_half.hf_rope" and c.correct)
    report = _audit(c)
    assert report.ok and report.matched.angle_precision == "float32"
    errors = dict(report.profile.errors)
    assert errors[1024] < errors[131072] < report.profile.tolerance  # grows with position, below 1e-3 at 128k
    assert report.profile.first_exceeding is None or report.profile.first_exceeding > 131072


def test_bfloat16_angles_fail_with_an_example_past_exact_integers():
    c = next(c for c in CASES if c.name == "rotate_half.hf_rope_bf16_cache")
    report = _audit(c)
    (f,) = report.findings
    assert f.id == "low-precision-angles" and report.matched.angle_precision == "bfloat16"
    assert f.example["width"] <= 4 and f.example["positions"][0] > 0


def test_minimal_examples_use_the_smallest_width_that_shows_the_finding():
    c = next(c for c in CASES if c.name == "vectorised.rope_half_split" and not c.correct)
    (f,) = _audit(c).findings
    assert f.example["width"] == 4 and f.example["positions"] == [1]  # width 2 has a single pair: no layout
    assert len(f.example["expected"]) == 4 and isinstance(f.example["expected"][0], str)  # 50-digit reference
    c = next(c for c in CASES if c.name == "numpy_loops.loop_rope_one_based")
    (f,) = _audit(c).findings
    assert f.example["width"] == 2 and f.example["positions"] == [0]
    assert "(m + 1)" in f.message


def test_wrong_scaling_names_the_rule_it_matches():
    c = next(c for c in CASES if c.name == "cached.yarn_as_linear")
    (f,) = _audit(c).findings
    assert f.id == "wrong-scaling" and "linear rule" in f.message
    c = next(c for c in CASES if c.name == "cached.llama3_unscaled")
    (f,) = _audit(c).findings
    assert "no scaling" in f.message


def test_fitted_base_is_reported():
    c = next(c for c in CASES if c.name == "vectorised.rope_fixed_base")
    report = _audit(c)
    assert "base 10000" in report.findings[0].message and report.matched.base == pytest.approx(10000.0)


def test_cross_wired_names_the_output():
    c = next(c for c in CASES if c.name == "fused_qk.apply_qk_cross_wired")
    report = _audit(c)
    assert [(f.id, f.output) for f in report.findings] == [("qk-cross-wired", "k")]


def test_report_as_dict_is_json():
    report = audit.audit_rope(note_rope, layout="half", width=8, max_position=4096)
    d = json.loads(json.dumps(audited.jsonable(report.as_dict())))
    assert d["ok"] is False and d["findings"][0]["id"] == "layout-half-vs-interleaved"
    assert d["matched"]["layout"] == "interleaved"


# ---- the pytest helper -----------------------------------------------------------------------------------------------


def test_assert_rope_conforms():
    audit.assert_rope_conforms(note_rope, layout="interleaved", base=10000.0, width=16, max_position=4096)
    c = next(c for c in CASES if c.name == "numpy_loops.loop_rope_clockwise")
    with pytest.raises(AssertionError, match=r"\[rotation-sign\]"):
        audit.assert_rope_conforms(c.fn, layout="interleaved", width=16, max_position=4096)


# ---- bad input -------------------------------------------------------------------------------------------------------


def test_bad_arguments_raise_value_errors_naming_them():
    with pytest.raises(ValueError, match="fn must be callable"):
        audit.audit_rope(3)
    with pytest.raises(ValueError, match="layout"):
        audit.audit_rope(note_rope, layout="diagonal")
    with pytest.raises(ValueError, match="width"):
        audit.audit_rope(note_rope, width=7)
    with pytest.raises(ValueError, match="base"):
        audit.audit_rope(note_rope, base=1.0)
    with pytest.raises(ValueError, match="tolerance"):
        audit.audit_rope(note_rope, tolerance=0)
    with pytest.raises(ValueError, match="rope_type"):
        audit.audit_rope(note_rope, scaling={"rope_type": "magic"})
    with pytest.raises(ValueError, match="call arguments"):
        audit.RopeCall.parse("q,positions")
    with pytest.raises(ValueError, match="axes"):
        audit.RopeCall.parse("vectors,positions@xyz")


def test_a_function_that_raises_is_an_audit_call_error():
    def broken(vectors, positions, base=10000.0):
        raise RuntimeError("boom")

    with pytest.raises(audit.AuditCallError, match="raised .*RuntimeError: boom"):
        audit.audit_rope(broken)
    with pytest.raises(audit.AuditCallError, match=r"\(3\) raised ZeroDivisionError"):
        audit.audit_alibi(lambda n: [1 / (n - 3)] * n)


def test_wrong_output_shape_is_a_finding():
    report = audit.audit_rope(lambda v, p, b: v[:, : v.shape[1] // 2], width=8)
    assert report.ids == ("shape-or-dtype",)


# ---- the precision profile -------------------------------------------------------------------------------------------


def test_profile_table_float64_angles_never_exceed_and_storage_angles_do():
    rows = pp.profile_table(width=32, positions=(1024, 32768), dtypes=("float32", "bfloat16"))
    by = {(r.dtype, r.style): r.profile for r in rows}
    assert by[("float32", "float64-angles")].first_exceeding is None
    assert by[("bfloat16", "storage-angles")].first_exceeding is not None
    assert by[("bfloat16", "storage-angles")].first_exceeding < by[("float32", "float32-angles")].max_position
    text = pp.format_profile_table(rows)
    assert "1k" in text and "32k" in text and "first m with error > 0.001" in text


def test_profile_error_grows_with_position_for_float32_angles():
    rot = pp.simulated_rotation("float64", "float32-angles", 64)
    probe = pp.make_probe(64, dtype="float64")
    e = pp.score_errors(rot, probe, [1000, 1000000])
    assert e[0] < e[1]


def test_profile_bad_arguments():
    with pytest.raises(ValueError, match="dtype"):
        pp.make_probe(8, dtype="float8")
    with pytest.raises(ValueError, match="style"):
        pp.simulated_rotation("float32", "fast", 8)
    with pytest.raises(ValueError, match="tolerance"):
        pp.function_profile(pp.simulated_rotation("float32", "float64-angles", 8), pp.make_probe(8), tolerance=-1)


# ---- the command -----------------------------------------------------------------------------------------------------


def _parser():
    p = Parser(prog="posproof")
    cli_audit.add_parser(p.add_subparsers(dest="command", required=True, parser_class=Parser))
    return p


def _run(argv):
    args = _parser().parse_args(["audit", *argv])
    return args.func(args)


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    (tmp_path / "user_rope.py").write_text(
        "import numpy as np\n"
        "def good(vectors, positions, base=10000.0):\n"
        "    from tests.note_functions import note_rope\n"
        "    return note_rope(vectors, positions, base)\n"
        "def sign(vectors, positions, base=10000.0):\n"
        "    from tests.note_functions import note_rope\n"
        "    return note_rope(vectors, -np.asarray(positions), base)\n"
        "def raises(vectors, positions, base=10000.0):\n"
        "    raise KeyError('cache')\n"
        "def slopes(n):\n"
        "    return [2 ** (-8 * h / n) for h in range(1, n + 1)]\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_cli_exit_codes(user_module, capsys):
    assert _run(["user_rope:good", "--scheme", "rope", "--width", "16", "--max-position", "4096"]) == 0
    assert "conforms" in capsys.readouterr().out
    assert _run(["user_rope:sign", "--scheme", "rope", "--width", "16", "--max-position", "4096"]) == 1
    out = capsys.readouterr().out
    assert "FAIL rotation-sign" in out and "example: width 2; positions [1]" in out
    assert _run(["user_rope:slopes", "--scheme", "alibi"]) == 1
    assert "alibi-power-of-two-formula" in capsys.readouterr().out


def test_cli_json(user_module, capsys):
    assert _run(["user_rope.py:sign", "--scheme", "rope", "--width", "8", "--max-position", "4096", "--json"]) == 1
    (d,) = json.loads(capsys.readouterr().out)["reports"]
    assert d["findings"][0]["id"] == "rotation-sign" and d["expected"]["width"] == 8


@pytest.mark.parametrize(
    "argv, message",
    [
        (["nowhere:rope", "--scheme", "rope"], "cannot import nowhere"),
        (["user_rope:god", "--scheme", "rope"], r"has no function 'god' \(did you mean good"),
        (["user_rope:raises", "--scheme", "rope"], "raised .*KeyError"),
        (["user_rope", "--scheme", "rope"], "MODULE:FUNCTION"),
        (["user_rope:good", "--scheme", "sinusoid"], "--scheme must be one of rope, alibi, t5"),
        (["user_rope:good", "--scheme", "rope", "--scaling", "[1]"], "--scaling must be a JSON object"),
        (["user_rope:good", "--scheme", "rope", "--width", "9"], "--width must be an even integer"),
        (["user_rope:good", "--scheme", "rope", "--call", "q,positions"], "--call: call arguments"),
        (["user_rope:slopes", "--scheme", "alibi", "--base", "5"], "--base only apply to --scheme rope"),
        (["user_rope:good", "--scheme", "rope", "--tolerance", "0"], r"--tolerance must be a real number in \(0, 1\]"),
    ],
)
def test_cli_usage_errors_are_one_line(user_module, argv, message):
    with pytest.raises(UsageError, match=message) as e:
        _run(argv)
    assert "\n" not in str(e.value)


def test_cli_main_prints_one_line_and_exits_2(user_module, capsys):
    assert cli_audit.main(["user_rope:raises", "--scheme", "rope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("width, max_position", [(4, 1049576), (16, 4096), (128, 8192)])
def test_float32_cache_passes_at_any_width(width, max_position):
    # Regression: with few pairs, the only large angles came from theta_0 = 1, exact in float32, and float32
    # angles read as float64; shifts then looked non-relative. Frequencies exact in float16 are now left out.
    c = next(c for c in CASES if c.name == "rotate_half.hf_rope" and c.correct)
    report = audit.audit_rope(c.fn, layout="half", width=width, max_position=max_position)
    assert report.ok, audit.format_report(report)


@pytest.mark.parametrize("width", [8, 128])
def test_broken_corpus_is_caught_at_other_widths(width):
    for c in CASES:
        if (c.kwargs.get("scaling") or {}).get("rope_type") == "longrope":
            continue  # its factor tables have one entry per pair of one width
        if c.scheme == "rope" and not c.correct:
            with np.errstate(all="ignore"):
                report = audit.audit_rope(c.fn, **{**c.kwargs, "width": width, "seed": 3})
            assert set(report.ids) == set(c.expected), (c.name, report.ids)
