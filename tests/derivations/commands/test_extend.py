r"""``posproof extend``: the report (text and the JSON document of its shipped schema), ``--config`` files, the
options' bounds (checked before any work), the base-bound search's progress bar, one help style."""

import io
import json
import math
import sys

import pytest
from posproof.derivations import machine
from posproof.derivations.commands import extend
from posproof.numeric.scaling.extension import WARNING, base_bound_bases

LLAMA31 = {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072, "rope_theta": 500000.0,
           "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                            "original_max_position_embeddings": 8192, "rope_type": "llama3"}}  # fmt: skip
ISSUE_EXAMPLE = ["--width", "128", "--base", "10000", "--trained", "4096", "--target", "32768", "--rule", "yarn",
                 "--factor", "8"]  # fmt: skip


def run(capsys, *argv):
    code = extend.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_extend_issue_example_text(capsys):
    code, out, err = run(capsys, *ISSUE_EXAMPLE, "--bound-resolution", "20")
    assert code == 0 and err == ""
    assert "rule yarn, factor s = 8; rotary width d = 128; base b = 10000" in out
    assert "attention factor 1.20794" in out
    assert "periodic (46)" in out and "inside (18)" in out
    assert "out of distribution: none" in out
    assert "critical dimension (Liu et al. 2023): 2*ceil((d/2)*log_b(L0/2pi)) = 92" in out
    assert "base bound (Men et al. 2024)" in out and "searched:" in out and "not monotone" in out
    assert out.rstrip().splitlines()[-1] == f"warning: {WARNING}"
    assert out.isascii()


def test_extend_json(capsys):
    code, out, _ = run(capsys, *ISSUE_EXAMPLE, "--no-base-bound", "--json")
    data = json.loads(out)
    assert code == 0 and data["base_bound"] is None and data["critical_dimension"] == 92
    assert data["ood_pairs"] == [] and data["source"] == {"trained": "--trained", "target": "--target"}
    assert data["attention_factor"] == pytest.approx(0.1 * math.log(8) + 1)


def test_extend_config_file(capsys, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(LLAMA31))
    code, out, _ = run(capsys, "--config", str(path), "--no-base-bound")
    assert code == 0
    assert "trained L0 = 8192 (original_max_position_embeddings), target L = 131072 (max_position_embeddings)" in out
    assert "out of distribution: 29 pairs (35-63)" in out
    code, out, _ = run(capsys, "--config", str(path), "--target", "65536", "--no-base-bound", "--json")
    assert code == 0 and json.loads(out)["ood_pairs"] == []


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--config", "/no/such/config.json"], "--config: cannot read /no/such/config.json"),
        (["--config", "{tmp}/bad.json"], "is not valid JSON: Expecting value at line 1 column 1"),
        (["--config", "{tmp}/list.json"], "must hold a JSON object"),
        (["--config", "{tmp}/badcfg.json"], "--config {tmp}/badcfg.json: config: factor must be a finite real"),
        (["--config", "{tmp}/llama.json", "--width", "64"], "--config reads the rule from the file: drop --width"),
        (["--trained", "10"], "--trained and --target are required"),
        (["--trained", "1", "--target", "10"], "--trained must be an integer in [2, 16777216], got 1"),
        (["--trained", "10", "--target", "x"], "--target must be an integer in [1, 16777216], got 'x'"),
        (["--trained", "10", "--target", "20", "--rule", "foo"], "--rule must be one of default, linear"),
        (["--trained", "10", "--target", "20", "--rule", "yarn", "--factor", "nan"], "--factor must be a real number"),
        (["--trained", "10", "--target", "20", "--rule", "linear"], "--factor is required for rope_type 'linear'"),
        (["--trained", "10", "--target", "20", "--rule", "linear", "--factor", "2", "--beta-fast", "3"],
         "--beta-fast does not apply to --rule linear (it reads --factor)"),
        (["--trained", "10", "--target", "20", "--rule", "longrope"], "--rule longrope needs its per-pair factor"),
        (["--trained", "10", "--target", "20", "--bound-resolution", "0"], "--bound-resolution must be an integer"),
        (["--trained", "10", "--target", "20", "--width", "7"], "--width 7: the rotary width"),
        (["--frobnicate"], "unrecognized arguments: --frobnicate"),
        (["--config", "{tmp}/llama.json", "--layer", "-1"], "--layer must be an integer in [0, 4095], got -1"),
        (["--trained", "10", "--target", "20", "--layer", "3"], "--layer and --layer-type only apply with --config"),
    ],
)  # fmt: skip
def test_extend_errors_are_one_line_exit_2(capsys, tmp_path, argv, fragment):
    (tmp_path / "bad.json").write_text("not json")
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "badcfg.json").write_text(
        json.dumps(LLAMA31 | {"rope_scaling": LLAMA31["rope_scaling"] | {"factor": "8"}})
    )
    (tmp_path / "llama.json").write_text(json.dumps(LLAMA31))
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("posproof: error: ") and err.count("\n") == 1, err
    assert fragment.replace("{tmp}", str(tmp_path)) in err


def test_posproof_extend_end_to_end(capsys):
    from posproof.derivations import cli

    code = cli.main(["extend", *ISSUE_EXAMPLE, "--no-base-bound"])
    out, _ = capsys.readouterr()
    assert code == 0 and "critical dimension" in out
    code = cli.main(["extend", "--trained", "1", "--target", "2"])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1


def test_regression_extend_config_reads_a_layer_index(capsys, tmp_path):
    from tests.numeric.scaling.test_rules import GEMMA4_TEXT

    path = tmp_path / "gemma4.json"
    path.write_text(json.dumps(GEMMA4_TEXT))
    common = ("--target", "65536", "--no-base-bound", "--json")
    code, out, _ = run(capsys, "--config", str(path), "--layer", "11", *common)
    wide = json.loads(out)
    code2, out2, _ = run(capsys, "--config", str(path), "--layer", "0", *common)
    narrow = json.loads(out2)
    assert code == code2 == 0
    assert wide != narrow  # layer 11 is a 512-wide full-attention head, layer 0 a 256-wide sliding one


# ---- JSON ------------------------------------------------------------------------------------------------------------


def test_extend_json_is_a_document_of_its_shipped_schema(capsys, tmp_path):
    code, out, _ = run(capsys, "--width", "16", "--trained", "512", "--target", "2048", "--rule", "yarn",
                       "--factor", "4", "--bound-resolution", "10", "--format", "json")  # fmt: skip
    doc = json.loads(out)
    assert code == 0 and next(iter(doc)) == "schema" and doc["schema"] == "posproof.extend/1"
    machine.validate(doc, "extend")
    assert doc["base_bound"]["fine_per_decade"] == 10 and doc["base_bound"]["bases_evaluated"] <= base_bound_bases(
        fine_per_decade=10
    )
    path = tmp_path / "llama.json"
    path.write_text(json.dumps(LLAMA31))
    code, out, _ = run(capsys, "--config", str(path), "--no-base-bound", "--format", "json")
    doc = json.loads(out)
    machine.validate(doc, "extend")
    assert code == 0 and doc["base_bound"] is None and doc["source"]["target"] == "max_position_embeddings"


def test_extend_json_flag_is_the_same_as_format_json(capsys):
    _, a, _ = run(capsys, *ISSUE_EXAMPLE, "--no-base-bound", "--json")
    _, b, _ = run(capsys, *ISSUE_EXAMPLE, "--no-base-bound", "--format", "json")
    _, text, _ = run(capsys, *ISSUE_EXAMPLE, "--no-base-bound", "--format", "text")
    assert a == b and text.startswith("RoPE context extension")


def test_extend_refuses_an_unknown_format(capsys):
    code, out, err = run(capsys, *ISSUE_EXAMPLE, "--format", "yaml")
    assert code == 2 and out == "" and "--format must be one of text, json, got 'yaml'" in err


# ---- bounds, checked before any work ---------------------------------------------------------------------------------


def _no_work(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the report was computed")

    monkeypatch.setattr(extend.extension, "diagnose", refuse)


def test_regression_extend_bound_resolution_1e9_is_refused_before_work(capsys, monkeypatch):
    # --bound-resolution 1000000000 printed nothing for minutes: a billion bases per decade, each ~L d/2 cosines
    _no_work(monkeypatch)
    code, out, err = run(capsys, *ISSUE_EXAMPLE, "--bound-resolution", "1000000000")
    assert code == 2 and out == ""
    bound = extend.MAX_BOUND_RESOLUTION
    assert err == f"posproof: error: --bound-resolution must be an integer in [1, {bound}], got 1000000000\n"


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--trained", "4096", "--target", "16777216"], "the base-bound search for --target 16777216"),
        (["--trained", "4096", "--target", "16777216", "--width", "4096", "--no-base-bound"],
         "--target 16777216 at rotary width 4096 needs 6.9e+10 cosines"),
        (["--trained", "4096", "--target", "16777217", "--no-base-bound"],
         "--target must be an integer in [1, 16777216]"),
        (["--trained", "4096", "--target", "8192", "--width", "4098"], "--width must be an integer in [1, 4096]"),
    ],
)  # fmt: skip
def test_extend_refuses_work_above_its_budget_before_any(capsys, monkeypatch, argv, fragment):
    _no_work(monkeypatch)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and fragment in err, err


def test_extend_budget_admits_the_models_lengths(monkeypatch):
    # Llama 3.1's 131072 with the base bound, and 1M positions at d = 128, fit in MAX_COSINES
    from posproof.numeric.scaling.rules import RopeScaling

    extend._check_cost(RopeScaling(128), 131072, extend.DEFAULTS["bound_resolution"], True)
    extend._check_cost(RopeScaling(128), 2**20, extend.DEFAULTS["bound_resolution"], True)
    extend._check_cost(RopeScaling(1024), 2**24, extend.DEFAULTS["bound_resolution"], False)


@pytest.mark.parametrize(
    "config, fragment",
    [
        ({"hidden_size": 10**8, "num_attention_heads": 1, "rope_theta": 1e4, "max_position_embeddings": 4096},
         "the head width 100000000 is above 4096"),
        ({"head_dim": 128, "rope_theta": 1e300, "max_position_embeddings": 4096}, "the base 1e+300 is above 1e+12"),
        ({"head_dim": 128, "rope_theta": 1e4, "max_position_embeddings": 2**30}, "the trained length 1073741824"),
        ({"head_dim": 128, "rope_theta": 1e4, "max_position_embeddings": 4096,
          "rope_scaling": {"rope_type": "linear", "factor": 1e6}}, "the scaling factor 1e+06 is above 4096"),
    ],
)  # fmt: skip
def test_extend_bounds_what_a_config_file_gives(capsys, tmp_path, monkeypatch, config, fragment):
    _no_work(monkeypatch)
    path = tmp_path / "c.json"
    path.write_text(json.dumps(config))
    code, out, err = run(capsys, "--config", str(path))
    assert code == 2 and out == "" and f"--config {path}: " in err and fragment in err, err


def test_regression_extend_config_target_from_a_huge_factor_is_bounded(capsys, tmp_path, monkeypatch):
    # the target of a config without max_position_embeddings above L0 is factor x trained: 4096 x 4096 = 2**24 fits,
    # a larger L0 does not
    _no_work(monkeypatch)
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"head_dim": 128, "rope_theta": 1e4, "max_position_embeddings": 8192,
                                "rope_scaling": {"rope_type": "linear", "factor": 4096}}))  # fmt: skip
    code, _, err = run(capsys, "--config", str(path), "--no-base-bound")
    assert code == 2 and "the target length 33554432 (factor x trained) is above 2**24: pass --target" in err


def test_regression_extend_empty_rule_is_not_the_default(capsys):
    # `args.rule or "default"` read --rule "" as the default rule (and --width "" as 128)
    code, _, err = run(capsys, "--trained", "10", "--target", "20", "--rule", "")
    assert code == 2 and "--rule must be one of" in err and "got ''" in err
    code, _, err = run(capsys, "--trained", "10", "--target", "20", "--width", "")
    assert code == 2 and "--width must be an integer in [1, 4096], got ''" in err


def test_regression_extend_config_refuses_a_rule_option_typed_at_its_default(capsys, tmp_path):
    # --config detected rule options by `is not None`: with defaults declared once, typing --width 128 (the
    # default) is still a rule option the file replaces
    path = tmp_path / "llama.json"
    path.write_text(json.dumps(LLAMA31))
    code, _, err = run(capsys, "--config", str(path), "--width", "128", "--rule", "default")
    assert code == 2 and "--config reads the rule from the file: drop --width, --rule" in err


# ---- progress, help --------------------------------------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize(
    "extra, drawn", [([], True), (["-q"], False), (["--quiet"], False), (["--no-base-bound"], False)]
)
def test_the_base_bound_search_draws_a_progress_bar_on_a_terminal(capsys, monkeypatch, extra, drawn):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code = extend.main(["--width", "16", "--trained", "512", "--target", "2048", *extra])
    out = capsys.readouterr().out
    assert code == 0 and ("base bound [" in terminal.getvalue()) is drawn
    assert "\r" not in out and out.rstrip().splitlines()[-1] == f"warning: {WARNING}"


def test_no_progress_bar_when_stderr_is_piped(capsys):
    code, _, err = run(capsys, "--width", "16", "--trained", "512", "--target", "2048", "--bound-resolution", "5")
    assert code == 0 and err == ""


def test_extend_help_shows_each_default_once_from_the_parser(capsys):
    parser = extend.add_parser(__import__("argparse").ArgumentParser().add_subparsers())
    with pytest.raises(SystemExit):
        extend.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(default " not in text  # the hand-typed "(default 128)" of old
    for action in parser._actions:
        if action.option_strings and action.default not in (None, False) and action.dest not in ("help", "typed"):
            assert text.count(f"(default: {action.default})") >= 1, action.dest
    assert extend.DEFAULTS["bound_resolution"] == extend.extension.FINE_PER_DECADE
