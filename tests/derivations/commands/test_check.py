r"""``posproof check``: its report (text and JSON, streamed in order), selection (ids, ``--topic``, ``-k``), ``-x``,
``--junit``, workers, the progress bar, Ctrl-C, exit codes."""

import copy
import io
import json
import os
import signal
import subprocess
import sys
import textwrap

import jsonschema
import junitparser
import pytest
from posproof.derivations import args as cli_args
from posproof.derivations import machine
from posproof.derivations.cli import main
from posproof.derivations.commands import check


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


#: A user's module of facts (fast: no SymPy work): fact-1 fails; fact-2 is the only one of topic "other".
FACTS = """
import time
from posproof.symbolic.engine.core import Fact


def _fact(i, topic="mine", value=1, sleep=0.0):
    def compute(dps):
        time.sleep(sleep)
        return value, [("the value", value)]

    return Fact(
        f"fact-{i}", f"fact {i}", topic, "-", "one is one", 1, compute, "exact integer arithmetic",
        wrong=lambda dps: (2, [("the value", 2)]),
    )


def claims():
    return [_fact(0), _fact(1, value=int(SECOND)), _fact(2, topic="other"), _fact(3, sleep=SLEEP)]
"""


def _facts(tmp_path, second=1, sleep=0.0, name="my_facts.py") -> str:
    r"""The path of a :data:`FACTS` module whose fact-1 computes ``second`` (1 verifies) and fact-3 sleeps."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(FACTS).replace("SECOND", str(second)).replace("SLEEP", str(sleep)))
    return str(path)


def test_check_selected_ids_as_json(capsys):
    code, out, _ = run(capsys, "check", "sinusoidal-norm", "binary-neighbour-flips", "--json", "--dps", "30")
    report = json.loads(out)
    assert code == 0
    assert [r["id"] for r in report["results"]] == ["sinusoidal-norm", "binary-neighbour-flips"]
    for r in report["results"]:
        assert {"id", "status", "symbolic", "numeric_max_rel_error", "dps", "seconds"} <= set(r)
        assert r["status"] == "verified" and r["dps"] == 30
    assert report["totals"] == report["totals"] | {"claims": 2, "verified": 2, "failed": 0, "dps": 30}


def test_check_exits_1_when_a_claim_fails(capsys, monkeypatch):
    from posproof.symbolic import registry

    bad = registry.get("sinusoidal-norm").wrong_variant()
    monkeypatch.setattr(registry, "get", lambda i: bad)
    code, out, _ = run(capsys, "check", "sinusoidal-norm")
    assert code == 1 and "failed" in out


def test_a_failed_fact_prints_its_labels_as_the_text_format_does(capsys, monkeypatch):
    from posproof.symbolic import registry

    bad = registry.get("deberta-translation-invariant").wrong_variant()
    monkeypatch.setattr(registry, "get", lambda i: bad)
    code, out, _ = run(capsys, "check", "deberta-translation-invariant")
    assert code == 1 and "code: max |gather - direct| = " in out  # the label's $...$ typeset, as derive --format text
    assert "$" not in out and "\\mathrm" not in out


def test_check_serial_and_parallel_agree(capsys):
    ids = ["sinusoidal-norm", "order-dog-bites-man", "sinusoidal-symmetry"]
    runs = []
    for jobs in ("1", "2"):
        code, out, _ = run(capsys, "check", *ids, "--json", "--jobs", jobs)
        assert code == 0
        runs.append([(r["id"], r["status"], r["numeric_max_rel_error"]) for r in json.loads(out)["results"]])
    assert runs[0] == runs[1]


def test_regression_duplicate_ids_in_check_counted_once(capsys):
    code, out, _ = run(capsys, "check", "sinusoidal-norm", "sinusoidal-norm", "--json", "--dps", "30")
    report = json.loads(out)
    assert code == 0 and [r["id"] for r in report["results"]] == ["sinusoidal-norm"]


# ---- the JSON document and its schema ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def document():
    r"""A real document: a theorem, a definition, a fact, and a theorem and a fact that fail."""
    from contextlib import redirect_stdout

    from posproof.symbolic import registry

    ids = ["sinusoidal-norm", "alibi-slopes-geometric", "order-dog-bites-man"]
    claims = [registry.get(i) for i in ids]
    claims += [registry.get("sinusoidal-norm").wrong_variant(), registry.get("order-dog-bites-man").wrong_variant()]
    out = io.StringIO()
    with redirect_stdout(out):
        code = check.report(claims, 30, 1, as_json=True)
    assert code == 1
    return json.loads(out.getvalue())


def test_the_json_document_validates_against_its_schema(document):
    machine.validate(document, "check")
    assert document["schema"] == "posproof.check/1" and list(document) == ["schema", "results", "totals"]
    assert {r["status"] for r in document["results"]} == {"verified", "failed"}


@pytest.mark.parametrize(
    "path, value",
    [
        (("schema",), "posproof.check/2"),
        (("results", 0, "kind"), "lemma"),
        (("results", 0, "points"), -1),
        (("totals", "interrupted"), "no"),
        (("totals", "jobs"), 0),
    ],
)
def test_a_broken_json_document_is_invalid(document, path, value):
    broken = copy.deepcopy(document)
    *head, last = path
    node = broken
    for key in head:
        node = node[key]
    node[last] = value
    with pytest.raises(jsonschema.ValidationError):
        machine.validate(broken, "check")


def test_a_json_document_without_its_totals_is_invalid(document):
    with pytest.raises(jsonschema.ValidationError):
        machine.validate({k: v for k, v in document.items() if k != "totals"}, "check")


def test_format_json_and_its_alias_json_print_the_same_document(capsys, tmp_path):
    path = _facts(tmp_path)
    docs = []
    for flag in (["--format", "json"], ["--json"]):
        code, out, _ = run(capsys, "check", "--claims", path, "fact-0", "--jobs", "1", *flag)
        assert code == 0
        doc = json.loads(out)
        doc["totals"]["seconds"] = doc["results"][0]["seconds"] = 0
        docs.append(doc)
    assert docs[0] == docs[1] and docs[0]["schema"] == "posproof.check/1"


# ---- workers -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("jobs, ids, used", [("1", ["fact-0", "fact-2"], 1), ("2", ["fact-0"], 1)])
def test_totals_jobs_is_the_workers_used(capsys, tmp_path, jobs, ids, used):
    code, out, _ = run(capsys, "check", "--claims", _facts(tmp_path), *ids, "--jobs", jobs, "--json")
    assert code == 0 and json.loads(out)["totals"]["jobs"] == used


def test_jobs_above_the_cores_is_clamped_with_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(cli_args, "cores", lambda: 2)
    code, out, err = run(capsys, "check", "--claims", _facts(tmp_path), "fact-0", "fact-2", "--jobs", "3", "--json")
    assert code == 0 and json.loads(out)["totals"]["jobs"] == 2
    assert err == "posproof: --jobs 3 is more than the 2 cores: using 2\n"


# ---- streaming, the progress bar ---------------------------------------------------------------------------------


def test_each_line_is_printed_before_the_next_claim_is_verified(tmp_path, monkeypatch):
    from contextlib import redirect_stdout

    out = io.StringIO()
    lines_seen = []
    verify = check._verify_one

    def spy(job):
        lines_seen.append(out.getvalue().count("\n"))
        return verify(job)

    monkeypatch.setattr(check, "_verify_one", spy)
    with redirect_stdout(out):
        main(["check", "--claims", _facts(tmp_path), "fact-0", "fact-2", "fact-3", "--jobs", "1"])
    assert lines_seen == [0, 1, 2]


class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("quiet, drawn", [([], True), (["-q"], False), (["--quiet"], False)])
def test_the_progress_bar_is_drawn_on_a_terminal_unless_quiet(capsys, tmp_path, monkeypatch, quiet, drawn):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code = main(["check", "--claims", _facts(tmp_path), "fact-0", "fact-2", "--jobs", "1", *quiet])
    out = capsys.readouterr().out
    assert code == 0 and ("checking [" in terminal.getvalue()) is drawn
    assert "\r" not in out and out.splitlines()[0].startswith("computed  fact-0 ")


def test_no_progress_bar_when_stderr_is_piped(capsys, tmp_path):
    code, _, err = run(capsys, "check", "--claims", _facts(tmp_path), "fact-0", "--jobs", "1")
    assert code == 0 and err == ""


# ---- selection ---------------------------------------------------------------------------------------------------


def test_topic_selects_the_claims_of_that_topic(capsys):
    code, out, _ = run(capsys, "check", "sinusoidal-norm", "order-dog-bites-man", "--topic", "order", "--json")
    assert code == 0 and [r["id"] for r in json.loads(out)["results"]] == ["order-dog-bites-man"]


def test_topic_repeated_selects_any_of_them():
    from posproof.symbolic import registry

    chosen = check.choose([], ["order", "lemmas"], [])
    assert [c.id for c in chosen] == [c.id for c in registry.all() if c.topic in ("order", "lemmas")]


def test_an_unknown_topic_is_a_usage_error_with_the_closest(capsys):
    code, out, err = run(capsys, "check", "--topic", "ropee")
    assert code == 2 and out == "" and "--topic must be one of" in err and "(did you mean rope" in err


def test_k_is_a_case_insensitive_substring_of_the_id():
    from posproof.symbolic import registry

    chosen = check.choose([], [], ["SINUSOIDAL-NORM"])
    assert [c.id for c in chosen] == [i for i in registry.ids() if "sinusoidal-norm" in i] and chosen


def test_k_with_a_wildcard_is_a_shell_glob_of_the_whole_id():
    import fnmatch

    from posproof.symbolic import registry

    chosen = check.choose([], [], ["rope-*-RELATIVE"])
    assert [c.id for c in chosen] == [i for i in registry.ids() if fnmatch.fnmatchcase(i, "rope-*-relative")]
    assert chosen and check.choose([], [], ["rope-*"]) != check.choose([], [], ["*rope-*"])


def test_k_repeated_selects_any_of_them():
    assert [c.id for c in check.choose([], [], ["sinusoidal-norm", "alibi-slopes-g*"])] == [
        "sinusoidal-norm",
        "alibi-slopes-geometric",
    ]


def test_topic_and_k_select_together_with_claims(capsys, tmp_path):
    code, out, _ = run(capsys, "check", "--claims", _facts(tmp_path), "--topic", "mine", "-k", "FACT-[03]", "--json")
    assert code == 0 and [r["id"] for r in json.loads(out)["results"]] == ["fact-0", "fact-3"]


def test_selecting_nothing_is_a_usage_error_naming_the_options(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(check, "_verify_one", lambda job: pytest.fail("a claim was verified"))
    code, out, err = run(capsys, "check", "--claims", _facts(tmp_path), "--topic", "other", "-k", "fact-0")
    assert code == 2 and out == ""
    assert err.startswith("posproof: error: no claim matches --topic other and -k 'fact-0'") and err.count("\n") == 1


# ---- -x ----------------------------------------------------------------------------------------------------------


def test_exitfirst_starts_no_claim_after_the_first_failure(capsys, tmp_path, monkeypatch):
    started = []
    verify = check._verify_one

    def spy(job):
        started.append(job[0])
        return verify(job)

    monkeypatch.setattr(check, "_verify_one", spy)
    code, out, _ = run(capsys, "check", "--claims", _facts(tmp_path, second=3), "-x", "--jobs", "1")
    lines = out.splitlines()
    assert code == 1 and started == [0, 1]
    assert lines[0].startswith("computed  fact-0 ") and lines[1].startswith("FAILED    fact-1 ")
    assert "; 1 failed (" in lines[-1] and lines[-1].endswith("; stopped at the first failure after 2 of 4 claims")


def test_exitfirst_on_workers_reports_up_to_the_first_failure(capsys, tmp_path):
    code, out, _ = run(capsys, "check", "--claims", _facts(tmp_path, second=3), "-x", "--jobs", "2", "--json")
    doc = json.loads(out)
    assert code == 1 and [r["id"] for r in doc["results"]] == ["fact-0", "fact-1"]
    assert doc["totals"] | {"seconds": 0} == doc["totals"] | {"claims": 2, "selected": 4, "failed": 1, "seconds": 0}


def test_without_exitfirst_every_claim_runs_after_a_failure(capsys, tmp_path):
    code, out, _ = run(capsys, "check", "--claims", _facts(tmp_path, second=3), "--jobs", "1")
    assert code == 1 and len(out.splitlines()) == 6 and "stopped" not in out  # 4 lines, a detail, the summary


# ---- --junit -----------------------------------------------------------------------------------------------------


def test_junit_has_one_case_per_claim_and_the_failures(capsys, tmp_path):
    path = tmp_path / "check.xml"
    code, out, _ = run(capsys, "check", "--claims", _facts(tmp_path, second=3), "--jobs", "1", "--junit", str(path))
    xml = junitparser.JUnitXml.fromfile(str(path))
    suite = next(iter(xml))
    cases = list(suite)
    assert code == 1 and (suite.name, suite.tests, suite.failures, suite.errors) == ("check", 4, 1, 0)
    assert [(c.classname, c.name) for c in cases] == [
        ("posproof.check.mine", "fact-0"),
        ("posproof.check.mine", "fact-1"),
        ("posproof.check.other", "fact-2"),
        ("posproof.check.mine", "fact-3"),
    ]
    (failure,) = cases[1].result
    assert isinstance(failure, junitparser.Failure) and "claimed 1, computed 3" in failure.message
    assert all(c.is_passed for k, c in enumerate(cases) if k != 1) and all(c.time >= 0 for c in cases)


def test_junit_to_a_directory_is_refused_before_any_work(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(check, "_verify_one", lambda job: pytest.fail("a claim was verified"))
    (tmp_path / "report.xml").mkdir()
    code, out, err = run(capsys, "check", "--claims", _facts(tmp_path), "--junit", str(tmp_path / "report.xml"))
    assert code == 2 and out == "" and "--junit must be a file" in err and err.count("\n") == 1


# ---- Ctrl-C ------------------------------------------------------------------------------------------------------


def _interrupt_at(monkeypatch, index):
    verify = check._verify_one

    def verify_or_interrupt(job):
        if job[0] == index:
            raise KeyboardInterrupt
        return verify(job)

    monkeypatch.setattr(check, "_verify_one", verify_or_interrupt)


def test_ctrl_c_keeps_the_lines_done_and_says_so(capsys, tmp_path, monkeypatch):
    _interrupt_at(monkeypatch, 2)
    junit = tmp_path / "check.xml"
    code, out, err = run(capsys, "check", "--claims", _facts(tmp_path), "--jobs", "1", "--junit", str(junit))
    lines = out.splitlines()
    assert code == cli_args.INTERRUPTED == 130 and err == "posproof: interrupted\n"
    assert [line.split()[1] for line in lines[:2]] == ["fact-0", "fact-1"] and len(lines) == 3
    assert lines[2].startswith("0 theorems proved, 0 definitions checked against their code, 2 facts computed;")
    assert lines[2].endswith("; interrupted after 2 of 4 claims")
    assert next(iter(junitparser.JUnitXml.fromfile(str(junit)))).tests == 2


def test_ctrl_c_prints_the_json_of_the_claims_done(capsys, tmp_path, monkeypatch):
    _interrupt_at(monkeypatch, 1)
    code, out, err = run(capsys, "check", "--claims", _facts(tmp_path), "--jobs", "1", "--json")
    doc = json.loads(out)
    machine.validate(doc, "check")
    assert code == 130 and err == "posproof: interrupted\n" and [r["id"] for r in doc["results"]] == ["fact-0"]
    want = {"claims": 1, "selected": 4, "interrupted": True, "seconds": 0}
    assert doc["totals"] | {"seconds": 0} == doc["totals"] | want  # every total but the time


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups: POSIX")
def test_ctrl_c_on_workers_exits_130_without_tracebacks(tmp_path):
    r"""SIGINT to the whole process group (as a terminal's Ctrl-C sends it), while a worker runs a claim that takes a
    minute: the parent terminates the workers, reports the claims done and exits 130; no worker prints anything."""
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    argv = [sys.executable, "-m", "posproof", "check", "--claims", _facts(tmp_path, sleep=60), "--jobs", "2"]
    p = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, env=env
    )
    assert p.stdout is not None and p.stderr is not None
    try:
        first = p.stdout.readline()  # a claim is done: the workers are running
        os.killpg(p.pid, signal.SIGINT)
        out, err = first + p.stdout.read(), p.stderr.read()
        assert p.wait(timeout=30) == 130
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert first.startswith("computed  fact-0 ") and "Traceback" not in err and err == "posproof: interrupted\n"
    assert "interrupted after " in out.splitlines()[-1] and "of 4 claims" in out


def test_ctrl_c_while_a_result_is_printed_comes_after_its_line_and_count():
    held, done = check._HeldCtrlC(), []
    with pytest.raises(KeyboardInterrupt), held.held():
        held._handler(signal.SIGINT, None)  # Ctrl-C now: held until the line is printed and the result counted
        done.append("printed and counted")
    assert done == ["printed and counted"]
    with pytest.raises(KeyboardInterrupt):
        held._handler(signal.SIGINT, None)  # elsewhere: at once
