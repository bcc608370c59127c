r"""``--claims MODULE`` for ``posproof check``, ``derive`` and ``export``: a user's module of claims (a path to a
``.py`` file or a dotted module name) is checked, derived and exported instead of the catalogue, in the same formats; a
module that cannot be loaded is a one-line usage error naming ``--claims`` (exit 2)."""

import json
import subprocess
import sys
import textwrap

import pytest
from posproof.derivations import machine
from posproof.derivations.cli import main

MODULE = """
import sympy as sp
from posproof.symbolic.engine.core import Step, Theorem

i, j, t = sp.symbols("i j t", integer=True)
m_h = sp.Symbol("m_h", positive=True)
x = sp.Symbol("x", real=True)


def claims():
    return [
        Theorem(
            "my-alibi-shift", "ALiBi's bias is unchanged by a shift", "mine", "Press et al. 2022",
            steps=(Step(m_h * (j + t) - m_h * (i + t), -m_h * (i - j), "the shift cancels", ("expand",)),),
            wrong=-m_h * (i + t - j),
        ),
        Theorem(
            "my-pythagoras", "sin^2 + cos^2 = 1", "other", "a textbook",
            steps=(Step(sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.Integer(1), "Pythagoras", ("trigsimp",)),),
            wrong=sp.Integer(2),
        ),
    ]
"""

FAILING = """
import sympy as sp
from posproof.symbolic.engine.core import Step, Theorem

x = sp.Symbol("x", real=True)


def claims():
    return [Theorem("my-off-by-one", "x + 1 = x", "mine", "-", steps=(Step(x + 1, x, "no", ("expand",)),))]
"""


def _module(tmp_path, source=MODULE, name="my_claims.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return str(path)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_takes_a_path(capsys, tmp_path):
    code, out, err = run(capsys, "check", "--claims", _module(tmp_path), "--jobs", "1", "--dps", "30")
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert lines[0].startswith("proved    my-alibi-shift ") and lines[1].startswith("proved    my-pythagoras ")
    assert lines[2].startswith("2 theorems proved, 0 definitions checked against their code, 0 facts computed; none")


def test_check_json_and_ids_select_among_the_modules_claims(capsys, tmp_path):
    path = _module(tmp_path)
    code, out, _ = run(capsys, "check", "my-pythagoras", "--claims", path, "--json", "--dps", "30", "--jobs", "1")
    report = json.loads(out)
    assert code == 0 and [r["id"] for r in report["results"]] == ["my-pythagoras"]
    assert report["results"][0]["symbolic"] is True and report["totals"]["verified"] == 1


def test_check_runs_on_forked_workers(capsys, tmp_path):
    code, out, _ = run(capsys, "check", "--claims", _module(tmp_path), "--jobs", "2", "--dps", "30", "--json")
    assert code == 0 and json.loads(out)["totals"]["jobs"] == 2


def test_an_id_the_module_does_not_have_is_a_usage_error(capsys, tmp_path):
    code, out, err = run(capsys, "check", "my-alibi-shfit", "--claims", _module(tmp_path))
    assert code == 2 and out == ""
    assert err == "posproof: error: --claims: the module has no claim 'my-alibi-shfit'; did you mean my-alibi-shift?\n"


def test_a_failing_claim_exits_1(capsys, tmp_path):
    code, out, _ = run(capsys, "check", "--claims", _module(tmp_path, FAILING), "--jobs", "1", "--dps", "30")
    assert code == 1 and out.startswith("FAILED    my-off-by-one") and "1 failed" in out


def test_derive_takes_a_dotted_module_from_the_current_directory(capsys, tmp_path, monkeypatch):
    _module(tmp_path, name="user_claims_dotted_for_derive.py")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "user_claims_dotted_for_derive", raising=False)
    code, out, _ = run(
        capsys, "derive", "my-alibi-shift", "--claims", "user_claims_dotted_for_derive", "--format", "md"
    )
    assert code == 0 and "my-alibi-shift" in out and "m_{h}" in out
    code, out, _ = run(
        capsys, "derive", "my-pythagoras", "--claims", "user_claims_dotted_for_derive", "--format", "json"
    )
    doc = json.loads(out)
    machine.validate(doc, "claim")
    assert code == 0 and doc["id"] == "my-pythagoras" and doc["schema"] == "posproof.claim/1"


@pytest.mark.parametrize(
    ("fmt", "files"),
    [
        ("text", ["mine.txt", "other.txt"]),
        ("json", ["mine.json", "other.json"]),
        ("markdown", ["appendix.md", "index.md", "mine.md", "nav.yml", "other.md"]),
        ("latex", ["mine.tex", "other.tex", "posproof.bbl", "posproof.bib", "posproof.sty", "posproof.tex"]),
    ],
)
def test_export_writes_one_file_per_topic_of_the_module(capsys, tmp_path, fmt, files):
    out_dir = tmp_path / "out"
    code, out, _ = run(capsys, "export", "--format", fmt, "--out", str(out_dir), "--claims", _module(tmp_path))
    assert code == 0 and out.startswith(f"wrote {len(files)} files to {out_dir}")
    assert sorted(p.name for p in out_dir.iterdir() if not p.name.startswith(".")) == files
    text = "".join((out_dir / f).read_text() for f in files)
    assert "my-alibi-shift" in text and "my-pythagoras" in text
    assert "sinusoidal" not in text.lower()  # nothing of the catalogue: no figures, no rules table


def test_export_json_is_the_catalogues_shape(capsys, tmp_path):
    out_dir, path = tmp_path / "out", _module(tmp_path)
    assert run(capsys, "export", "--format", "json", "--out", str(out_dir), "--claims", path)[0] == 0
    doc = json.loads((out_dir / "mine.json").read_text())
    machine.validate(doc, "export")
    assert (doc["schema"], doc["topic"]) == ("posproof.export/1", "mine")
    (entry,) = doc["claims"]
    machine.validate(entry, "claim")
    assert entry["id"] == "my-alibi-shift" and entry["kind"] == "theorem"
    code, out, _ = run(capsys, "derive", "my-alibi-shift", "--claims", path, "--format", "json")
    assert code == 0 and json.loads(out) == entry  # the document derive prints


def test_export_html_is_one_page(capsys, tmp_path, monkeypatch):
    from posproof.printing import html

    monkeypatch.setattr(html, "katex_available", lambda: False)  # MathML: no Node.js needed
    out_dir = tmp_path / "out"
    code, _, _ = run(capsys, "export", "--format", "html", "--out", str(out_dir), "--claims", _module(tmp_path))
    page = (out_dir / "posproof.html").read_text()
    assert code == 0 and page.startswith("<!DOCTYPE html>") and 'id="claim-my-alibi-shift"' in page


def test_export_refuses_a_topic_that_cannot_name_a_file(capsys, tmp_path):
    source = MODULE.replace('"other"', '"my topic/x"')
    code, _, err = run(
        capsys, "export", "--format", "text", "--out", str(tmp_path / "o"), "--claims", _module(tmp_path, source)
    )
    assert code == 2 and err.startswith("posproof: error: --claims: claim 'my-pythagoras' has the topic 'my topic/x'")


#: Bad modules and the start of their one-line error (``{path}``: the module as given).
BAD = [
    (None, "--claims: cannot import {path}: no such file"),
    ("def claims(:\n", "--claims: cannot import {path}: syntax error at "),
    ("import posproof_no_such_package\n", "--claims: cannot import {path}: No module named 'posproof_no_such_package'"),
    ("raise RuntimeError('at import')\n", "--claims: importing {path} raised RuntimeError: at import"),
    ("x = 1\n", "--claims: module {path} defines no claims() function"),
    (
        "def claims():\n    raise ValueError('refused: tan\\nsecond line')\n",
        "--claims: claims() of {path} raised ValueError: refused: tan",
    ),
    (
        "def claims():\n    return [1]\n",
        "--claims: claims() of {path} must return Theorems, Definitions and Facts; item 0 is of type int",
    ),
    ("def claims():\n    return []\n", "--claims: claims() of {path} returns no claims"),
]


@pytest.mark.parametrize(("source", "message"), BAD)
def test_a_bad_module_is_one_line_naming_claims(capsys, tmp_path, source, message):
    path = str(tmp_path / "bad_claims.py") if source is None else _module(tmp_path, source, "bad_claims.py")
    for argv in (["check"], ["derive", "x"], ["export", "--format", "text", "--out", str(tmp_path / "o")]):
        code, out, err = run(capsys, *argv, "--claims", path)
        assert code == 2 and out == ""
        assert err.startswith("posproof: error: " + message.format(path=path)) and err.count("\n") == 1


def test_duplicate_ids_are_refused(capsys, tmp_path):
    source = MODULE.replace('"my-pythagoras"', '"my-alibi-shift"')
    code, _, err = run(capsys, "check", "--claims", _module(tmp_path, source))
    assert code == 2 and "returns the id 'my-alibi-shift' twice" in err


def test_an_unknown_dotted_module(capsys):
    code, _, err = run(capsys, "check", "--claims", "posproof_no_such_claims_module")
    assert code == 2
    assert err == (
        "posproof: error: --claims: cannot import posproof_no_such_claims_module: "
        "No module named 'posproof_no_such_claims_module'\n"
    )


def test_regression_a_path_named_like_an_imported_module_does_not_replace_it(capsys, tmp_path):
    json_module = sys.modules["json"]
    code, _, _ = run(capsys, "check", "--claims", _module(tmp_path, name="json.py"), "--jobs", "1", "--dps", "30")
    assert code == 0 and sys.modules["json"] is json_module


def test_the_installed_command_takes_claims(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "posproof.derivations.cli", "check", "--claims", _module(tmp_path), "--dps", "30"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "2 theorems proved" in done.stdout
