r"""``posproof check``: its report (text and JSON), exit codes, workers."""

import json

from posproof.derivations.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


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
