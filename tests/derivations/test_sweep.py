r"""``posproof sweep``: its targets, the per-target worker, the JSON lines (schema, order, resume), the exit codes,
and the same results on local processes and on a Dask cluster (:mod:`posproof.derivations.sweep`,
:mod:`posproof.derivations.commands.sweep`). Bad command lines: ``refusals/rows_sweep.py``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from posproof.derivations import machine, sweep
from posproof.derivations.args import UsageError
from posproof.derivations.cli import main

#: The functions audited (a module written into the test's directory).
FUNCTIONS = """
import posproof


def rope(x, pos, base=10000.0):
    return posproof.rope(x, pos, base=base)


def rope_wrong_base(x, pos, base=10000.0):
    return posproof.rope(x, pos, base=500000.0)


def hangs(x, pos, base=10000.0):
    import time

    time.sleep(600)
"""
#: Configurations of the sweep's directory target (audited with transformers where it is installed, an error line
#: where it is not: the same on both runners either way).
CONFIGS = {
    "llama.json": {"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4, "rope_theta": 10000},
    "mistral.json": {"model_type": "mistral", "hidden_size": 64, "num_attention_heads": 4, "rope_theta": 1e6},
}
OK, WRONG, HANGS = "rope_fns.py:rope", "rope_fns.py:rope_wrong_base", "rope_fns.py:hangs"


@pytest.fixture
def work(tmp_path, monkeypatch):
    (tmp_path / "rope_fns.py").write_text(FUNCTIONS, encoding="utf-8")
    (tmp_path / "configs").mkdir()
    for name, config in CONFIGS.items():
        (tmp_path / "configs" / name).write_text(json.dumps(config), encoding="utf-8")
    (tmp_path / "no_model_type.json").write_text('{"hidden_size": 64, "num_attention_heads": 4}', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _sweep(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["sweep", "-q", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _fake(target: str, kind: str = "function") -> dict:
    r"""A result line no audit wrote (a conforming one): found unchanged after ``--resume`` only if it was skipped."""
    report = {"schema": "posproof.audit/1", "reports": [{"written": "by the test"}]}
    return sweep.result(sweep.Target(target, kind), "conforms", report=report, seconds=0.0)


# ---- the JSON lines --------------------------------------------------------------------------------------------------


def test_each_result_line_is_valid_and_the_lines_come_in_the_targets_order(work, capsys):
    code, out, err = _sweep(capsys, WRONG, "no_model_type.json", OK, "--width", "16", "--out", "r.jsonl")
    assert code == 1, err
    lines = _lines(work / "r.jsonl")
    assert [line["target"] for line in lines] == [WRONG, "no_model_type.json", OK]
    for line in lines:
        machine.validate(line, "sweep")
        if line["report"] is not None:
            machine.validate(line["report"], "audit")
    assert [line["status"] for line in lines] == ["findings", "error", "conforms"]
    assert lines[0]["findings"] == ["wrong-base"] and lines[0]["report"]["reports"][0]["ok"] is False
    assert "no model_type" in lines[1]["error"]
    assert "3 targets: conforms 1, findings 1, error 1, timeout 0" in out


def test_the_schema_refuses_a_line_whose_status_contradicts_its_findings():
    import jsonschema

    line = {**_fake(OK), "findings": ["wrong-base"]}
    with pytest.raises(jsonschema.ValidationError):
        machine.validate(line, "sweep")


def test_format_json_prints_the_lines_of_the_file_and_junit_has_a_case_per_target(work, capsys):
    junitparser = pytest.importorskip("junitparser", reason="junitparser (a test dependency) reads --junit files")
    code, out, err = _sweep(capsys, OK, "--width", "16", "--out", "r.jsonl", "--format", "json", "--junit", "r.xml")
    assert code == 0, err
    assert out == (work / "r.jsonl").read_text(encoding="utf-8")
    cases = [case for suite in junitparser.JUnitXml.fromfile(str(work / "r.xml")) for case in suite]
    assert [(c.name, c.classname, c.is_passed) for c in cases] == [(OK, "posproof.sweep.function", True)]


def test_a_target_past_its_timeout_is_a_timeout_with_the_audits_report(work, capsys):
    code, _, err = _sweep(capsys, HANGS, "--timeout", "1", "--out", "r.jsonl")
    assert code == 1, err
    (line,) = _lines(work / "r.jsonl")
    machine.validate(line, "sweep")
    assert line["status"] == "timeout" and line["findings"] == ["process-timeout"]


# ---- resuming --------------------------------------------------------------------------------------------------------


def test_resume_skips_the_targets_already_in_the_file(work, capsys):
    done = _fake(WRONG)  # a conforming line for a function that has findings: kept only if it was not audited again
    (work / "r.jsonl").write_text(sweep.encode(done) + "\n", encoding="utf-8")
    code, _, err = _sweep(capsys, OK, WRONG, "--width", "16", "--out", "r.jsonl", "--resume")
    assert code == 0, err
    lines = _lines(work / "r.jsonl")
    assert [line["target"] for line in lines] == [OK, WRONG]
    assert lines[1] == done and lines[0]["status"] == "conforms"


def test_resume_finishes_a_file_whose_last_line_was_cut(work, capsys):
    done, cut = _fake(WRONG), sweep.encode(_fake(OK))
    (work / "r.jsonl").write_text(sweep.encode(done) + "\n" + cut[: len(cut) // 2], encoding="utf-8")
    code, _, err = _sweep(capsys, OK, WRONG, "--width", "16", "--out", "r.jsonl", "--resume")
    assert code == 0, err
    lines = _lines(work / "r.jsonl")
    assert [line["target"] for line in lines] == [OK, WRONG] and lines[1] == done
    assert lines[0]["report"]["reports"][0]["function"] == OK  # audited: not the cut fake line


def test_resume_refuses_a_file_with_a_line_that_is_not_a_result(work, capsys):
    text = "not a result\n" + sweep.encode(_fake(OK)) + "\n"
    (work / "r.jsonl").write_text(text, encoding="utf-8")
    code, out, err = _sweep(capsys, OK, "--out", "r.jsonl", "--resume")
    assert (code, out) == (2, "") and "line 1 is not a JSON result" in err and len(err.splitlines()) == 1
    assert (work / "r.jsonl").read_text(encoding="utf-8") == text


def test_an_interrupted_sweep_keeps_what_finished_and_exits_130(work, capsys, monkeypatch):
    def interrupted(calls, jobs, cwd):
        yield _fake(calls[0][0].spec)
        raise KeyboardInterrupt

    monkeypatch.setattr(sweep, "local_results", interrupted)
    code = main(["sweep", "-q", OK, WRONG, "--out", "r.jsonl"])
    err = capsys.readouterr().err
    assert code == 130 and "1 of 2 targets in r.jsonl" in err
    assert _lines(work / "r.jsonl") == [_fake(OK)]


def test_the_final_file_is_in_the_targets_order_whatever_order_they_finished_in(work, capsys, monkeypatch):
    def backwards(calls, jobs, cwd):
        yield from [_fake(t.spec) for t, _, _ in calls][::-1]

    monkeypatch.setattr(sweep, "local_results", backwards)
    code, out, err = _sweep(capsys, WRONG, OK, "configs", "--out", "r.jsonl", "--format", "json")
    assert code == 0, err
    named = [WRONG, OK, str(Path("configs") / "llama.json"), str(Path("configs") / "mistral.json")]
    assert [line["target"] for line in _lines(work / "r.jsonl")] == named
    assert [json.loads(line)["target"] for line in out.splitlines()] == named


def test_an_audit_option_reaches_only_the_targets_that_read_it(work, capsys, monkeypatch):
    seen: dict[str, tuple[str, ...]] = {}

    def record(calls, jobs, cwd):
        for target, argv, _ in calls:
            seen[target.kind] = argv
            yield _fake(target.spec, target.kind)

    monkeypatch.setattr(sweep, "local_results", record)
    options = ["--width", "16", "--dtype", "float16", "--layer-type", "sliding_attention", "--timeout", "7"]
    code, _, err = _sweep(capsys, OK, "configs/llama.json", "llama", *options)
    assert code == 0, err
    assert seen["function"] == (
        "--scheme=rope", "--dtype=float16", "--width=16", "--timeout=7", "--format=json", "--quiet", "--", OK
    )  # fmt: skip
    for kind, spec in (("config", "configs/llama.json"), ("model_type", "llama")):
        assert seen[kind] == (
            "--dtype=float16", "--layer-type=sliding_attention", "--timeout=7", "--format=json", "--quiet",
            f"--transformers={spec}",
        )  # fmt: skip


# ---- the targets -----------------------------------------------------------------------------------------------------


def test_targets_expand_in_order_each_once(work):
    (work / "list.txt").write_text(f"# the functions\n{OK}\n\n  {WRONG}  \nconfigs\n", encoding="utf-8")
    targets = sweep.expand_targets(["llama", "@list.txt", OK])
    assert [(t.spec, t.kind) for t in targets] == [
        ("llama", "model_type"),
        (OK, "function"),
        (WRONG, "function"),
        (str(Path("configs") / "llama.json"), "config"),
        (str(Path("configs") / "mistral.json"), "config"),
    ]


def test_a_list_of_targets_naming_another_list_is_refused(work):
    (work / "list.txt").write_text(f"{OK}\n@other.txt\n", encoding="utf-8")
    with pytest.raises(UsageError, match="cannot name another list, got '@other.txt'"):
        sweep.expand_targets(["@list.txt"])


# ---- the per-target worker -------------------------------------------------------------------------------------------


ARGV = ("--scheme=rope", "--width=16", "--format=json", "--quiet", "--", OK)


def test_the_worker_kills_an_audit_process_past_its_time_and_the_next_target_gets_a_fresh_one(work):
    target = sweep.Target(OK, "function")
    line = sweep.run_target(target, ARGV, timeout=0.01, cwd=str(work))
    machine.validate(line, "sweep")
    assert line["status"] == "timeout" and line["report"] is None and "did not finish within 0.01 s" in line["error"]
    try:
        assert sweep.run_target(target, ARGV, timeout=120, cwd=str(work))["status"] == "conforms"
    finally:
        sweep.kill_running()


def test_the_warm_worker_reports_what_posproof_audit_prints(work):
    fresh = subprocess.run(
        [sys.executable, "-m", "posproof", "audit", *ARGV], capture_output=True, text=True, timeout=120, cwd=work
    )
    try:
        sweep.run_target(sweep.Target(WRONG, "function"), ARGV[:-1] + (WRONG,), timeout=120, cwd=str(work))
        line = sweep.run_target(sweep.Target(OK, "function"), ARGV, timeout=120, cwd=str(work))  # the same process
    finally:
        sweep.kill_running()
    assert fresh.returncode == 0 and line["report"] == json.loads(fresh.stdout)


def test_an_audit_that_refuses_its_target_is_an_error_with_its_message():
    err = "noise the audited code printed\nposproof: error: --scaling: factor must be > 1\n"
    line = sweep.read_audit(sweep.Target(OK, "function"), 2, "", err, 1.0)
    assert (line["status"], line["error"], line["report"]) == ("error", "--scaling: factor must be > 1", None)


def test_an_audit_process_that_crashed_is_an_error_naming_its_status():
    line = sweep.read_audit(sweep.Target(OK, "function"), -11, "", "", 1.0)
    assert line["status"] == "error" and "exited with status -11" in line["error"]


def test_the_sweep_does_not_import_dask_without_a_scheduler(work):
    code = (
        "import sys\nfrom posproof.derivations.cli import main\n"
        f"code = main(['sweep', '-q', {OK!r}, '--width', '16'])\n"
        "assert code == 0, code\nassert 'dask' not in sys.modules and 'distributed' not in sys.modules\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=work)
    assert p.returncode == 0, p.stderr[-500:]


# ---- Dask ------------------------------------------------------------------------------------------------------------


def test_a_scheduler_that_does_not_answer_is_a_usage_error_in_one_line(work, capsys):
    pytest.importorskip("distributed", reason="Dask's distributed (posproof[sweep]) runs --scheduler")
    code, out, err = _sweep(capsys, OK, "--scheduler", "nonsense://host:1", "--out", "r.jsonl")
    assert (code, out) == (2, "") and len(err.splitlines()) == 1
    assert "--scheduler nonsense://host:1: cannot connect: unknown address scheme" in err
    assert not (work / "r.jsonl").exists()


@pytest.mark.slow
def test_dask_and_local_processes_give_the_same_results(work, capsys):
    distributed = pytest.importorskip("distributed", reason="Dask's distributed (posproof[sweep]) runs --scheduler")
    targets = [OK, WRONG, "configs", "no_model_type.json"]
    code, _, err = _sweep(capsys, *targets, "--width", "16", "--out", "local.jsonl", "--jobs", "2")
    assert code == 1, err
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as c:
        code, _, err = _sweep(
            capsys, *targets, "--width", "16", "--out", "dask.jsonl", "--scheduler", c.scheduler_address
        )
    assert code == 1, err

    def without_seconds(path: Path) -> list[dict]:
        return [{k: v for k, v in line.items() if k != "seconds"} for line in _lines(path)]

    sweep.kill_running()  # the cluster's worker threads (here, in this process) kept their audit processes
    local = without_seconds(work / "local.jsonl")
    assert len(local) == 5 and local == without_seconds(work / "dask.jsonl")
