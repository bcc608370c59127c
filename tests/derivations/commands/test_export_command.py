r"""``posproof export``: ``--out`` refused before any work, a progress bar on a terminal only, Ctrl-C and write errors
in one line with what was written (each file whole), and its JSON files as schema-versioned documents.

What an export holds is tested in ``tests/derivations/test_export.py``; here its build is a small stand-in, or a
real build of a few claims (:func:`few_topics`), so that no test makes a whole export."""

import io
import json
import sys

import pytest
from posproof.derivations import export, machine
from posproof.derivations.args import INTERRUPTED
from posproof.derivations.cli import main
from posproof.symbolic import registry


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


class _Terminal(io.StringIO):
    def isatty(self):
        return True


#: What the stand-in build returns: three files, one in a folder.
FILES = {"a.md": b"a\n", "b.md": b"b\n", "figures/c.svg": b"<svg/>"}


@pytest.fixture
def small(monkeypatch):
    r"""``export.build`` answers :data:`FILES` at once, ticking once per file when given a progress callback."""

    def build(fmt, with_figures=True, progress=None, **options):
        for name in FILES:
            if progress is not None:
                progress(name, len(FILES))
        return dict(FILES), []

    monkeypatch.setattr(export, "build", build)


@pytest.fixture
def few_topics(monkeypatch):
    r"""The catalogue's export reduced to two topics of two claims each: a real build, in a fraction of a second."""
    topics = [("order", registry.topic("order")[:2]), ("sinusoidal", registry.topic("sinusoidal")[:2])]
    monkeypatch.setattr(export, "topics_all", lambda: topics)
    return topics


def _no_build(*args, **kwargs):
    pytest.fail("the export was built")


@pytest.mark.parametrize(
    "name, setup, message",
    [
        ("under-a-file", "file", "--out: cannot create {out}: "),
        ("a-file", "file-itself", "--out must be a directory, got the file "),
        ("not-empty", "foreign", "is not empty and was not written by posproof export; choose an empty directory"),
    ],
)
def test_regression_an_impossible_out_is_refused_before_the_export_is_built(
    capsys, tmp_path, monkeypatch, name, setup, message
):
    # export --out DIR where DIR could not be made computed the whole export, then ended in a traceback
    monkeypatch.setattr(export, "build", _no_build)
    (tmp_path / "file").write_text("x")
    (tmp_path / "foreign").mkdir()
    (tmp_path / "foreign" / "notes.txt").write_text("mine")
    out = {"file": tmp_path / "file" / "sub", "file-itself": tmp_path / "file", "foreign": tmp_path / "foreign"}[setup]
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    code, stdout, err = run(capsys, "export", "--format", "md", "--out", str(out))
    assert code == 2 and stdout == "" and err.count("\n") == 1 and message.format(out=out) in err
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_regression_an_out_only_mkdir_refuses_is_refused_before_the_build(capsys, monkeypatch):
    # as root /proc/posproof-x passes every permission check; mkdir's FileNotFoundError came as a traceback
    monkeypatch.setattr(export, "build", _no_build)
    code, out, err = run(capsys, "export", "--format", "md", "--out", "/proc/posproof-x")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("posproof: error: --out: cannot ") and "/proc/posproof-x" in err


def test_the_claims_module_is_loaded_only_once_out_is_known_to_be_good(capsys, tmp_path):
    (tmp_path / "file").write_text("x")
    missing = str(tmp_path / "missing.py")
    code, _, err = run(capsys, "export", "--format", "md", "--out", str(tmp_path / "file"), "--claims", missing)
    assert code == 2 and "--out must be a directory" in err


def test_the_message_lists_what_was_written(capsys, tmp_path, small):
    code, out, _ = run(capsys, "export", "--format", "md", "--out", str(tmp_path / "o"))
    assert code == 0 and out == f"wrote 3 files to {tmp_path / 'o'}: a.md, b.md, figures/c.svg\n"


def test_a_bar_on_a_terminal_none_when_piped_or_quiet(capsys, tmp_path, monkeypatch, small):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["export", "--format", "md", "--out", str(tmp_path / "o")]) == 0
    drawn = terminal.getvalue()
    assert "rendering [" in drawn and "3/3 figures/c.svg" in drawn and "writing [" in drawn
    assert drawn.endswith("\r") and drawn.rsplit("\r", 2)[-2].strip() == ""  # erased: stdout's line stays clean
    quiet = _Terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    assert main(["export", "--format", "md", "--out", str(tmp_path / "o"), "--quiet"]) == 0
    assert quiet.getvalue() == ""
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # piped
    assert main(["export", "--format", "md", "--out", str(tmp_path / "o")]) == 0
    assert sys.stderr.getvalue() == ""


@pytest.mark.parametrize("fmt", ["latex", "markdown", "text", "json", "html"])
def test_build_ticks_once_per_item_it_counts(fmt, few_topics, monkeypatch):
    from posproof.printing import html

    monkeypatch.setattr(html, "katex_available", lambda: False)  # MathML: no Node.js needed
    seen = []
    export.build(fmt, with_figures=False, progress=lambda name, total: seen.append((name, total)))
    total = export.items(fmt, few_topics, False)
    ids = [c.id for _, cs in few_topics for c in cs]
    assert seen == [(n, total) for n in ids + ([export.MATH] if fmt == "html" else [])]


def test_build_counts_the_figures_it_draws(few_topics, monkeypatch):
    from posproof.derivations import plots

    monkeypatch.setattr(plots, "available", lambda: True)
    assert export.items("markdown", few_topics, True) == 4 + len(plots.PLOTS)
    assert export.items("json", few_topics, True) == 4  # no figures in JSON
    monkeypatch.setattr(plots, "available", lambda: False)
    assert export.items("latex", few_topics, True) == 4


def test_ctrl_c_while_writing_says_what_was_written_and_each_file_is_whole(capsys, tmp_path, monkeypatch, small):
    real = export.write_atomic
    calls = []

    def write_atomic(path, data):
        calls.append(path.name)
        if len(calls) == 3:
            raise KeyboardInterrupt
        real(path, data)

    monkeypatch.setattr(export, "write_atomic", write_atomic)
    out = tmp_path / "o"
    code, stdout, err = run(capsys, "export", "--format", "md", "--out", str(out))
    assert code == INTERRUPTED and stdout == ""
    assert err.strip() == f"posproof: interrupted: wrote 2 files to {out} before stopping, each whole: a.md, b.md"
    assert (out / "a.md").read_bytes() == b"a\n" and not (out / "figures").exists()
    monkeypatch.setattr(export, "write_atomic", real)
    # the marker names what was written, so that the next export replaces it without --force
    assert json.loads((out / export.MARKER).read_text())["files"] == ["a.md", "b.md"]
    assert run(capsys, "export", "--format", "md", "--out", str(out))[0] == 0
    assert (out / "figures" / "c.svg").exists()


def test_ctrl_c_while_building_writes_nothing_and_removes_the_directory_it_made(capsys, tmp_path, monkeypatch):
    def build(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(export, "build", build)
    out = tmp_path / "new" / "o"
    code, _, err = run(capsys, "export", "--format", "md", "--out", str(out))
    assert code == INTERRUPTED and err.strip() == f"posproof: interrupted: nothing written to {out}"
    assert list(tmp_path.iterdir()) == []


def test_an_error_while_writing_is_one_line(capsys, tmp_path, monkeypatch, small):
    def write_atomic(path, data):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(export, "write_atomic", write_atomic)
    code, out, err = run(capsys, "export", "--format", "md", "--out", str(tmp_path / "o"))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err == f"posproof: error: --out: cannot write {tmp_path / 'o' / 'a.md'}: No space left on device\n"


def test_json_topic_files_are_export_documents_of_claim_documents(few_topics):
    files, _ = export.build("json", with_figures=False)
    assert sorted(files) == ["order.json", "sinusoidal.json"]
    doc = json.loads(files["sinusoidal.json"])
    machine.validate(doc, "export")
    assert (doc["schema"], doc["topic"], doc["title"]) == ("posproof.export/1", "sinusoidal", "The sinusoidal encoding")
    assert [c["id"] for c in doc["claims"]] == [c.id for c in few_topics[1][1]]
    for c in doc["claims"]:
        machine.validate(c, "claim")
