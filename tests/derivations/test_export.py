r"""``posproof export`` (issue 12): deterministic, atomic, safe; the LaTeX document compiles with no overfull box."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from posproof.derivations import export
from posproof.derivations.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("fmt", ["tex", "md", "json", "text"])
def test_export_is_byte_identical_on_rerun(capsys, tmp_path, fmt):
    assert run(capsys, "export", "--format", fmt, "--out", str(tmp_path / "a"))[0] == 0
    assert run(capsys, "export", "--format", fmt, "--out", str(tmp_path / "b"))[0] == 0
    first = _tree(tmp_path / "a")
    assert first == _tree(tmp_path / "b")
    assert run(capsys, "export", "--format", fmt, "--out", str(tmp_path / "a"))[0] == 0  # again, in place
    assert _tree(tmp_path / "a") == first
    assert not [p for p in (tmp_path / "a").rglob(".*") if p.name != export.MARKER], "temporary files left behind"


def test_refuses_a_directory_it_did_not_write_unless_forced(capsys, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    code, out, err = run(capsys, "export", "--format", "md", "--out", str(tmp_path))
    assert code == 2 and out == "" and err.count("\n") == 1 and "--force" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    code, _, _ = run(capsys, "export", "--format", "md", "--out", str(tmp_path), "--force", "--no-figures")
    assert code == 0 and (tmp_path / "notes.txt").read_text() == "mine" and (tmp_path / "index.md").exists()
    assert "index.md" in json.loads((tmp_path / export.MARKER).read_text())["files"]


def test_reexport_replaces_its_own_files_and_removes_stale_ones(capsys, tmp_path):
    assert run(capsys, "export", "--format", "md", "--out", str(tmp_path), "--no-figures")[0] == 0
    marker = json.loads((tmp_path / export.MARKER).read_text())
    (tmp_path / "old-topic.md").write_text("from an older export")
    (tmp_path / export.MARKER).write_text(json.dumps({"files": marker["files"] + ["old-topic.md"]}))
    assert run(capsys, "export", "--format", "md", "--out", str(tmp_path), "--no-figures")[0] == 0
    assert not (tmp_path / "old-topic.md").exists()


def test_an_empty_or_missing_directory_needs_no_force(capsys, tmp_path):
    (tmp_path / "empty").mkdir()
    assert run(capsys, "export", "--format", "json", "--out", str(tmp_path / "empty"))[0] == 0
    assert run(capsys, "export", "--format", "json", "--out", str(tmp_path / "new" / "dir"))[0] == 0


def test_markdown_export_has_math_an_index_and_figures(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    assert run(capsys, "export", "--format", "md", "--out", str(tmp_path))[0] == 0
    rope = (tmp_path / "rope.md").read_text()
    assert "$$\n\\left(R_{m} q\\right)^{T} \\left(R_{n} k\\right) = q^{T} R_{n-m} k\n$$" in rope
    assert "![RoPE long-term decay and its bound](figures/rope-decay.svg)" in rope
    assert (tmp_path / "figures" / "rope-decay.svg").read_bytes().startswith(b"<?xml")
    index = (tmp_path / "index.md").read_text()
    assert "## References" in index and "[Rotary position embedding (RoPE)](rope.md)" in index


def test_rules_table_is_included_when_the_properties_module_provides_it(monkeypatch):
    assert export.rules_table("latex") == export.properties.table_latex()
    monkeypatch.setattr(export, "RULES_TABLE", dict(export.RULES_TABLE, latex=None, markdown=_table_md, html=None))
    assert export.rules_table("latex") is None
    assert "<td><code>x</code></td>" in export.rules_table("html")


def _table_md():
    return "| a | b |\n| --- | --- |\n| `x` | y |\n"


def test_markdown_table_as_html():
    assert export._markdown_table_html(_table_md()) == (
        '<table class="rules"><thead><tr><th>a</th><th>b</th></tr></thead>'
        "<tbody><tr><td><code>x</code></td><td>y</td></tr></tbody></table>"
    )


#: Overfull boxes up to this width are typesetting noise; anything wider runs into the margin.
OVERFULL_PT = 1.0


def compile_latex(directory: Path) -> str:
    r"""pdflatex twice (contents and references), the final log."""
    for _ in range(2):
        proc = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "posproof.tex"],
            cwd=directory,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert proc.returncode == 0, proc.stdout[-3000:]
    return (directory / "posproof.log").read_text(errors="replace")


def overfull_boxes(log: str) -> list[float]:
    return [float(x) for x in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]


@pytest.mark.skipif(
    shutil.which("pdflatex") is None, reason="pdflatex not installed (apt-get install texlive-latex-base)"
)
def test_the_document_compiles_with_no_overfull_box_and_no_undefined_reference(capsys, tmp_path):
    assert run(capsys, "export", "--format", "tex", "--out", str(tmp_path))[0] == 0
    log = compile_latex(tmp_path)
    wide = [w for w in overfull_boxes(log) if w > OVERFULL_PT]
    assert not wide, f"{len(wide)} overfull boxes wider than {OVERFULL_PT}pt: {wide}"
    assert "undefined" not in log.lower(), [line for line in log.splitlines() if "ndefined" in line]
    pages = int(re.search(r"Output written on posproof\.pdf \((\d+) pages", log).group(1))
    assert pages >= 20
    tex = (tmp_path / "posproof.tex").read_text()
    assert "\\tableofcontents" in tex and "\\section*{References}" in tex and "\\includegraphics" in tex


def test_overfull_boxes_are_read_from_the_log():
    log = "Overfull \\hbox (26.81456pt too wide) in paragraph\nOverfull \\hbox (0.5pt too wide) detected at line 3\n"
    assert overfull_boxes(log) == [26.81456, 0.5]
