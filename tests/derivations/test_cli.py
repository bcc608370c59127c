r"""The ``posproof`` command line: outputs, JSON shape, exit codes, one-line usage errors."""

import json
import shutil
import subprocess
import sys

import jsonschema
import pytest
from posproof.derivations import machine
from posproof.derivations.cli import main

from tests import exports
from tests.claims import IDS


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_text_and_json(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0 and all(i in out for i in IDS)
    code, out, _ = run(capsys, "list", "--format", "json")
    doc = json.loads(out)
    machine.validate(doc, "list")
    assert code == 0 and doc["schema"] == "posproof.list/1" and [row["id"] for row in doc["claims"]] == IDS
    assert run(capsys, "list", "--json") == (code, out, "")  # the alias


def test_derive_json_is_a_claim_document(capsys):
    code, out, _ = run(capsys, "derive", "sinusoidal-norm", "--format", "json")
    doc = json.loads(out)
    machine.validate(doc, "claim")
    assert code == 0 and (doc["schema"], doc["id"], doc["kind"]) == ("posproof.claim/1", "sinusoidal-norm", "theorem")
    assert run(capsys, "derive", "sinusoidal-norm", "--json") == (code, out, "")  # the alias


@pytest.mark.parametrize("claim_id", ["sinusoidal-definition", "order-equivariance-all-permutations"])
def test_derive_json_of_a_definition_and_a_fact_are_claim_documents(capsys, claim_id):
    doc = json.loads(run(capsys, "derive", claim_id, "--format", "json")[1])
    machine.validate(doc, "claim")
    assert doc["kind"] in ("definition", "fact")


def test_the_claim_schema_refuses_a_theorem_without_steps(capsys):
    doc = json.loads(run(capsys, "derive", "sinusoidal-norm", "--format", "json")[1])
    del doc["steps"]
    with pytest.raises(jsonschema.ValidationError, match="'steps' is a required property"):
        machine.validate(doc, "claim")


@pytest.mark.parametrize("fmt", ["latex", "markdown", "text"])
def test_derive_each_format(capsys, fmt):
    code, out, _ = run(capsys, "derive", "sinusoidal-dot-product", "--format", fmt)
    assert code == 0 and "cos" in out


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["check", "sinusoidal-nrom"], "did you mean sinusoidal-norm"),
        (["derive", "no-such-thing"], "unknown claim id"),
        (["derive", "sinusoidal-norm", "--format", "pdf"], "--format must be one of"),
        (["check", "--dps", "5"], "--dps must be an integer in [20, 1000]"),
        (["check", "--dps", "many"], "--dps must be an integer"),
        (["export", "--format", "pdf", "--out", "x"], "--format must be one of"),
        (["frobnicate"], "invalid choice"),
        (["check", "--jobs", "0"], "--jobs must be an integer"),
        (["t5-buckets", "--num-buckets", "7"], "--num-buckets must be an even integer"),
        (["t5-buckets", "--max-distance", "8"], "--max-distance must be an integer"),
        (["t5-buckets", "--num-buckets", "x"], "--num-buckets must be an"),
        (["precision", "--max-position", "-1"], "--max-position must be an integer"),
        ([], "required"),
    ],
)
def test_usage_errors_exit_2_with_one_line(capsys, argv, fragment):
    # each command's own messages (the accepted ranges) are tested with it and in the refusal table
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err


@pytest.mark.xdist_group("exports")
@pytest.mark.parametrize("fmt, suffix", [("tex", "tex"), ("md", "md"), ("json", "json")])
def test_export_writes_every_topic(fmt, suffix):
    docs = exports.tree(fmt)  # the session's export (tests.exports): the command exited with 0
    files = sorted(p.name for p in docs.iterdir())
    assert f"sinusoidal.{suffix}" in files and f"order.{suffix}" in files
    text = (docs / f"sinusoidal.{suffix}").read_text()
    if fmt == "json":
        doc = json.loads(text)
        machine.validate(doc, "export")
        assert {c["id"] for c in doc["claims"]} >= {"sinusoidal-dot-product", "sinusoidal-norm"}
    else:
        assert "sinusoidal-dot-product" in text


def test_export_refuses_a_file_as_directory(capsys, tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    code, _, err = run(capsys, "export", "--format", "md", "--out", str(target))
    assert code == 2 and "--out must be a directory" in err


def test_console_script_and_module_entry_points():
    proc = subprocess.run(
        [sys.executable, "-m", "posproof.derivations.cli", "check", "nope"], capture_output=True, text=True
    )
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "posproof.derivations.sinusoidal"], capture_output=True, text=True)
    assert proc.returncode == 0 and "\\subsection{" in proc.stdout and "\\[" in proc.stdout


@pytest.mark.xdist_group("exports")
def test_export_tex_writes_a_standalone_document():
    out = exports.tree("tex")
    doc = (out / "posproof.tex").read_text()
    assert doc.startswith("\\documentclass") and "\\usepackage{posproof}" in doc  # the shipped preamble
    assert "\\RequirePackage{amsmath,amssymb,amsthm}" in (out / "posproof.sty").read_text()
    assert "\\tableofcontents" in doc and "\\bibliography{posproof}" in doc
    for topic in ("order", "sinusoidal", "relative", "rope"):
        assert f"\\input{{{topic}}}" in doc and (out / f"{topic}.tex").exists()


@pytest.mark.skipif(
    shutil.which("pdflatex") is None, reason="pdflatex not installed (apt-get install texlive-latex-base)"
)
@pytest.mark.xdist_group("exports")
def test_exported_latex_compiles_with_pdflatex():
    directory, _ = exports.compiled_latex()  # the session's, compiled once (pdflatex exits with 0 on each pass)
    assert (directory / "posproof.pdf").stat().st_size > 10_000


# ---- speak to users --------------------------------------------------------------------------------------------------


@pytest.mark.xdist_group("exports")
@pytest.mark.parametrize("fmt", ["latex", "tex", "markdown", "md", "text", "txt", "json"])
def test_regression_derive_and_export_accept_both_format_spellings(capsys, tmp_path, fmt, serve_build):
    serve_build(fmt)  # the export's build is the session's: what is tested is the spelling
    # derive took latex|markdown|text while export took tex|md|json
    code, out, err = run(capsys, "derive", "sinusoidal-norm", "--format", fmt)
    assert code == 0 and out and not err
    if fmt == "json":
        assert json.loads(out)["id"] == "sinusoidal-norm"
    code, out, _ = run(capsys, "export", "--format", fmt, "--out", str(tmp_path / fmt))
    suffix = {"latex": "tex", "markdown": "md", "text": "txt"}.get(fmt, fmt)
    assert code == 0 and (tmp_path / fmt / f"sinusoidal.{suffix}").exists()


def test_regression_same_format_is_the_same_output(capsys, tmp_path):
    assert (
        run(capsys, "derive", "sinusoidal-norm", "--format", "md")[1]
        == run(capsys, "derive", "sinusoidal-norm", "--format", "markdown")[1]
    )


def test_regression_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.startswith("posproof ")


def test_regression_version_takes_no_other_arguments(capsys):
    # argparse's version action printed the version and exited 0 before reading the rest of the line
    code, out, err = run(capsys, "--version", "extra")
    assert code == 2 and out == "" and err == "posproof: error: --version takes no other arguments, got 'extra'\n"


def _help(capsys, *argv):
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(
    "command",
    ["list", "derive", "check", "export", "plot", "precision", "t5-buckets", "vectors", "properties", "annotate"],
)
def test_regression_every_option_has_help_with_its_default(capsys, command):
    parser = __import__("posproof.derivations.cli", fromlist=["build_parser"]).build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]
    text = _help(capsys, command)
    for action in sub._actions:
        if action.dest == "help":
            continue
        assert action.help, (command, action.dest)
        if action.option_strings and action.default not in (None, False) and not action.required:
            assert f"default: {action.default}" in text, (command, action.dest)


@pytest.mark.parametrize(
    "argv, flag",
    [
        (["precision", "--width", "7"], "--width must be"),
        (["t5-buckets", "--num-buckets", "30", "--max-distance", "5"], "--max-distance must be"),
        (["t5-buckets", "--num-buckets", "2"], "--num-buckets must be"),
    ],
)
def test_regression_errors_name_the_flag(capsys, argv, flag):
    code, out, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and flag in err
    assert " width must" not in err and "num_buckets" not in err and "max_distance" not in err


def test_regression_list_fits_100_columns_with_a_topic_column(capsys):
    code, out, _ = run(capsys, "list")
    lines = out.splitlines()
    assert code == 0 and max(len(line) for line in lines) <= 100
    header = lines[0].split()
    assert header[:3] == ["id", "kind", "topic"]
    assert any(" rope " in line for line in lines) and any(" sinusoidal " in line for line in lines)
    assert all(i in out for i in IDS)


def test_cli_speaks_of_sources_by_title(capsys):
    from posproof.derivations import cli

    assert "seed" not in (cli.__doc__ or "").lower()
    assert "seed" not in _help(capsys, "precision").lower()
