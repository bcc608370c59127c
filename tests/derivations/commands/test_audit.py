r"""``posproof audit`` (derivations/commands/audit.py) as CI runs it: the audited function runs in a child process,
so an exit, a SystemExit, a crash or a hang is a finding (exit 1, one line), never a silent exit; the JSON document
is one shape (a list of reports) that its schema accepts; ``--junit`` writes a case per finding; a progress line on
a terminal; defaults written once; the transformers messages name the right thing."""

from __future__ import annotations

import faulthandler
import io
import json
import os
import subprocess
import sys

import pytest
from posproof.derivations import machine
from posproof.derivations.args import UsageError
from posproof.derivations.cli import build_parser, main
from posproof.derivations.commands import audit as cli_audit

USER = """
import os, sys, time, ctypes
import posproof

def rope(x, pos, base=10000.0):
    return posproof.rope(x, pos, base=base)

def rope_clockwise(x, pos, base=10000.0):
    return posproof.rope(x, -pos, base=base)

def exits(x, pos, base=10000.0):
    os._exit(0)

def system_exit(x, pos, base=10000.0):
    sys.exit(3)

def segfault(x, pos, base=10000.0):
    ctypes.string_at(0)

def sleeps(x, pos, base=10000.0):
    time.sleep(3600)

def prints_and_exits(x, pos, base=10000.0):
    print("the user's own output", flush=True)
    os._exit(0)

def slopes(n):
    return [2 ** (-8 * h / n) for h in range(1, n + 1)]

def slopes_ok(n):
    return posproof.alibi_slopes(n)

def bucket(relative_position, bidirectional, num_buckets, max_distance):
    import numpy as np
    from posproof.numeric.t5 import t5_relative_bucket
    return t5_relative_bucket(np.asarray(relative_position), bidirectional=bidirectional, num_buckets=num_buckets,
                              max_distance=max_distance)

def mrope(vectors, positions):
    from posproof.numeric import multiaxis as M
    return M.rope_multiaxis(vectors, positions, axes=M.mrope_axes([2, 3, 3]))
"""

FAST = ["--scheme", "rope", "--width", "8", "--max-position", "4096"]


@pytest.fixture
def user(tmp_path, monkeypatch):
    (tmp_path / "user_fns.py").write_text(USER)
    (tmp_path / "exits_at_import.py").write_text("import os\nos._exit(0)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


@pytest.fixture
def no_faulthandler():
    r"""pytest's faulthandler, inherited by the forked child, would print the child's stack on the crash."""
    enabled = faulthandler.is_enabled()
    faulthandler.disable()
    yield
    if enabled and sys.__stderr__ is not None:
        faulthandler.enable(file=sys.__stderr__)


def _cases(path) -> list:
    r"""The test cases of a JUnit file, read by junitparser."""
    from junitparser import JUnitXml

    return [case for suite in JUnitXml.fromfile(str(path)) for case in suite]


def _audit(argv, capsys):
    code = main(["audit", *argv])
    out, err = capsys.readouterr()
    return code, out, err


# ---- the audited code cannot end posproof silently -----------------------------------------------------------------


@pytest.mark.parametrize(
    "function, finding, said",
    [
        ("exits", "process-exit", "user_fns:exits called os._exit(0)"),
        ("system_exit", "process-raised", "user_fns:system_exit raised SystemExit(3)"),
        pytest.param(
            "segfault",
            "process-crashed",
            "user_fns:segfault crashed with SIGSEGV",
            marks=pytest.mark.skipif(sys.platform == "win32", reason="Windows reports an access violation"),
        ),
    ],
)
def test_regression_a_function_that_ends_its_process_is_a_finding(
    user, capsys, no_faulthandler, tmp_path, function, finding, said
):
    code, out, err = _audit([f"user_fns:{function}", *FAST, "--junit", "out.xml"], capsys)
    assert code == 1 and err == ""
    assert out.splitlines() == [out.rstrip("\n")]  # one line
    assert out.startswith(f"user_fns:{function}: FAIL {finding}: {said}") and "while being audited" in out
    code, out, _ = _audit([f"user_fns:{function}", *FAST, "--json"], capsys)
    doc = json.loads(out)
    machine.validate(doc, "audit")
    (report,) = doc["reports"]
    assert code == 1 and report["ok"] is False and [f["id"] for f in report["findings"]] == [finding]
    (case,) = _cases(tmp_path / "out.xml")
    assert case.name == f"user_fns:{function}: {finding}" and said in case.result[0].message


def test_regression_a_function_that_hangs_is_stopped_at_the_timeout(user, capsys):
    code, out, err = _audit(["user_fns:sleeps", *FAST, "--timeout", "2"], capsys)
    assert code == 1 and err == "", (code, out, err)
    assert out == (
        "user_fns:sleeps: FAIL process-timeout: user_fns:sleeps did not return within 2 s while being audited "
        "(stage: shape and dtype): the audit could not finish\n"
    )


def test_a_conforming_function_conforms_through_the_child(user, capsys):
    code, out, err = _audit(["user_fns:rope", *FAST], capsys)
    assert code == 0 and out.startswith("user_fns:rope: conforms\n") and err == ""


def test_a_module_that_exits_at_import_is_a_usage_error(user, capsys):
    with pytest.raises(UsageError, match=r"^importing exits_at_import called os._exit\(0\)"):
        cli_audit.run(build_parser().parse_args(["audit", "exits_at_import:rope", "--scheme", "rope"]))


@pytest.mark.slow  # a fresh posproof process (its start is most of the few seconds)
def test_regression_a_real_process_reports_the_exit_and_keeps_stdout_for_the_report(user):
    # the bug: `posproof audit` exited 0 with no report (CI read "conforms") when the function called os._exit(0)
    env = {**os.environ, "PYTHONPATH": str(user)}
    argv = [sys.executable, "-m", "posproof", "audit", "user_fns:prints_and_exits", *FAST, "--json"]
    p = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 1
    (report,) = json.loads(p.stdout)["reports"]  # stdout holds the report only
    assert report["findings"][0]["id"] == "process-exit"
    assert "the user's own output" in p.stderr  # what the function prints goes to stderr


# ---- JSON: one shape, and its schema -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, scheme",
    [
        (["user_fns:rope", *FAST], "rope"),
        (["user_fns:rope_clockwise", *FAST], "rope"),
        (["user_fns:mrope", "--scheme", "rope", "--width", "16", "--mrope-section", "2,3,3"], "multiaxis"),
        (["user_fns:slopes", "--scheme", "alibi"], "alibi"),
        (["user_fns:slopes_ok", "--scheme", "alibi"], "alibi"),
        (["user_fns:bucket", "--scheme", "t5"], "t5"),
    ],
)
def test_the_json_is_a_list_of_reports_that_the_schema_accepts(user, capsys, argv, scheme):
    code, out, _ = _audit([*argv, "--format", "json"], capsys)
    doc = json.loads(out)
    machine.validate(doc, "audit")
    assert doc["schema"] == "posproof.audit/1" and [r["scheme"] for r in doc["reports"]] == [scheme]
    assert code == (0 if doc["reports"][0]["ok"] else 1)


def test_json_is_the_alias_of_format_json_and_yaml_is_refused(user, capsys):
    assert _audit(["user_fns:slopes_ok", "--scheme", "alibi", "--json"], capsys)[1].startswith("{")
    with pytest.raises(UsageError, match="--format must be one of text, json, got 'yaml'"):
        cli_audit.run(
            build_parser().parse_args(["audit", "user_fns:slopes_ok", "--scheme", "alibi", "--format", "yaml"])
        )


def test_the_schema_refuses_a_report_whose_verdict_contradicts_its_findings(user, capsys):
    import jsonschema

    doc = json.loads(_audit(["user_fns:rope_clockwise", *FAST, "--json"], capsys)[1])
    doc["reports"][0]["ok"] = True
    with pytest.raises(jsonschema.ValidationError):
        machine.validate(doc, "audit")


# ---- JUnit -----------------------------------------------------------------------------------------------------------


def test_junit_has_a_failing_case_per_finding_and_a_passing_case_per_conforming_report(user, capsys, tmp_path):
    from junitparser import Failure

    assert _audit(["user_fns:rope_clockwise", *FAST, "--junit", "bad.xml"], capsys)[0] == 1
    cases = _cases(tmp_path / "bad.xml")
    assert [c.name for c in cases] == ["user_fns:rope_clockwise: rotation-sign"]
    assert isinstance(cases[0].result[0], Failure) and cases[0].classname == "posproof.audit.rope"
    assert _audit(["user_fns:slopes_ok", "--scheme", "alibi", "--junit", "good.xml"], capsys)[0] == 0
    (case,) = _cases(tmp_path / "good.xml")
    assert case.name == "user_fns:slopes_ok" and case.is_passed and case.classname == "posproof.audit.alibi"


def test_a_bad_junit_path_is_refused_before_the_audit(user, capsys):
    (user / "a_dir.xml").mkdir()
    with pytest.raises(UsageError, match="--junit must be a file, got the directory 'a_dir.xml'"):
        cli_audit.run(build_parser().parse_args(["audit", "user_fns:exits", *FAST, "--junit", "a_dir.xml"]))


# ---- progress ------------------------------------------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal_names_the_stages_and_quiet_has_none(user, capsys, monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["audit", "user_fns:rope", *FAST]) == 0
    drawn = terminal.getvalue()
    assert "auditing [" in drawn and "user_fns:rope: probes at" in drawn and "precision profile" in drawn
    assert drawn.endswith("\r")  # erased: the report on stdout stays clean
    terminal.truncate(0)
    assert main(["audit", "user_fns:rope", *FAST, "-q"]) == 0
    assert terminal.getvalue() == ""


# ---- help and defaults -------------------------------------------------------------------------------------------


def test_the_defaults_are_the_librarys_and_help_shows_them(capsys):
    from posproof.numeric import audit

    assert cli_audit.DEFAULT_WIDTH == audit.DEFAULT_WIDTH
    assert cli_audit.DEFAULT_BASE == audit.DEFAULT_BASE
    assert cli_audit.DEFAULT_LAYOUT == audit.DEFAULT_LAYOUT
    assert cli_audit.DEFAULT_MAX_POSITION == audit.DEFAULT_MAX_POSITION == 1049576
    assert cli_audit.DEFAULT_TOLERANCE == audit.rope.pp.DEFAULT_TOLERANCE
    assert cli_audit.DEFAULT_CALL == str(audit.RopeCall())
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for shown in ("(default: 64)", "(default: 1049576)", "(default: 600.0)", "(default: 0.001)", "(default: auto)"):
        assert shown in text
    assert "default 1" not in text  # no default typed by hand into a help text


# ---- messages that name the right thing --------------------------------------------------------------------------


def test_a_huge_scaling_file_is_refused_before_it_is_read(user, monkeypatch):
    monkeypatch.setattr(cli_audit, "MAX_SCALING_BYTES", 64)
    (user / "big.json").write_text(json.dumps({"rope_type": "linear", "factor": 2.0, "pad": "x" * 100}))
    with pytest.raises(UsageError, match=r"^--scaling @big.json: 1\d\d bytes, more than 64"):
        cli_audit.run(build_parser().parse_args(["audit", "user_fns:rope", *FAST, "--scaling", "@big.json"]))
    with pytest.raises(UsageError, match=r"^--scaling is 1\d\d characters, more than 64"):
        cli_audit.run(build_parser().parse_args(["audit", "user_fns:rope", *FAST, "--scaling", "{" + " " * 100 + "}"]))


def test_a_library_message_about_a_scaling_key_names_scaling(user):
    with pytest.raises(UsageError, match=r"^--scaling: factor must be a finite real number >= 1, got 'x'"):
        cli_audit.run(
            build_parser().parse_args(
                ["audit", "user_fns:rope", *FAST, "--scaling", '{"rope_type": "linear", "factor": "x"}']
            )
        )


def _transformers():
    pytest.importorskip("torch", reason="transformers' own RoPE needs torch")
    pytest.importorskip("transformers", reason="transformers' own RoPE needs transformers")


@pytest.mark.slow  # imports transformers and torch
def test_a_mistyped_model_type_says_did_you_mean_not_install(capsys):
    _transformers()
    with pytest.raises(UsageError) as e:
        cli_audit.run(build_parser().parse_args(["audit", "--transformers", "lamma"]))
    message = str(e.value)
    assert message.startswith("--transformers lamma: model_type 'lamma' is not one transformers")
    assert "did you mean llama" in message and "install" not in message


def test_a_layer_type_message_names_the_option(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4}))
    with pytest.raises(UsageError, match=r"^--layer-type: .* gives every layer the same RoPE"):
        cli_audit.run(build_parser().parse_args(["audit", "--transformers", str(path), "--layer-type", "full"]))


@pytest.mark.slow  # a spawned child is a fresh interpreter importing posproof (seconds)
def test_a_spawned_child_reports_the_same_as_a_forked_one(user, capsys, monkeypatch):
    # macOS and Windows spawn the child: the work and the reports travel pickled, the function is imported by name
    from posproof.numeric.audit import isolate

    monkeypatch.setattr(isolate, "start_method", lambda: "spawn")
    code, out, _ = _audit(["user_fns:system_exit", *FAST], capsys)
    assert code == 1 and "FAIL process-raised: user_fns:system_exit raised SystemExit(3)" in out
    code, out, _ = _audit(["user_fns:rope", *FAST, "--json"], capsys)
    assert code == 0 and json.loads(out)["reports"][0]["ok"] is True
