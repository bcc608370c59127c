r"""``posproof export``: deterministic, atomic, safe; the LaTeX document compiles with no overfull box.

The exports inspected are made once per test process (:mod:`tests.exports`); the tests of where an export writes
serve its build from them (the ``serve_build`` fixture)."""

import json
import re
import shutil
from pathlib import Path

import pytest
from posproof.derivations import export
from posproof.derivations.cli import main

from tests import exports

#: On one pytest-xdist worker (``--dist loadgroup``), which makes each export once.
pytestmark = pytest.mark.xdist_group("exports")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("fmt", ["tex", "md", "json", "text"])
def test_export_is_byte_identical_on_rerun(capsys, tmp_path, fmt):
    first = _tree(exports.tree(fmt))  # the session's export, into a fresh directory
    again = exports.copy_tree(fmt, tmp_path / "again")
    assert run(capsys, "export", "--format", fmt, "--out", str(again))[0] == 0  # a fresh export, in place
    assert _tree(again) == first
    for out in (exports.tree(fmt), again):
        assert not [p for p in out.rglob(".*") if p.name != export.MARKER], "temporary files left behind"


def test_refuses_a_directory_it_did_not_write_unless_forced(capsys, tmp_path, serve_build):
    serve_build("md")
    (tmp_path / "notes.txt").write_text("mine")
    code, out, err = run(capsys, "export", "--format", "md", "--out", str(tmp_path))
    assert code == 2 and out == "" and err.count("\n") == 1 and "--force" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    code, _, _ = run(capsys, "export", "--format", "md", "--out", str(tmp_path), "--force")
    assert code == 0 and (tmp_path / "notes.txt").read_text() == "mine" and (tmp_path / "index.md").exists()
    assert "index.md" in json.loads((tmp_path / export.MARKER).read_text())["files"]


def test_reexport_replaces_its_own_files_and_removes_stale_ones(capsys, tmp_path, serve_build):
    serve_build("md")
    assert run(capsys, "export", "--format", "md", "--out", str(tmp_path))[0] == 0
    marker = json.loads((tmp_path / export.MARKER).read_text())
    (tmp_path / "old-topic.md").write_text("from an older export")
    (tmp_path / export.MARKER).write_text(json.dumps({"files": marker["files"] + ["old-topic.md"]}))
    assert run(capsys, "export", "--format", "md", "--out", str(tmp_path))[0] == 0
    assert not (tmp_path / "old-topic.md").exists()


def test_an_empty_or_missing_directory_needs_no_force(capsys, tmp_path, serve_build):
    serve_build("json")
    (tmp_path / "empty").mkdir()
    assert run(capsys, "export", "--format", "json", "--out", str(tmp_path / "empty"))[0] == 0
    assert run(capsys, "export", "--format", "json", "--out", str(tmp_path / "new" / "dir"))[0] == 0


def test_markdown_export_has_math_an_index_and_figures():
    pytest.importorskip("matplotlib")
    out = exports.tree("md")
    rope = (out / "rope.md").read_text()
    assert "$$\n\\left(R_{m} q\\right)^{\\top} \\left(R_{n} k\\right) = q^{\\top} R_{n-m} k \\tag{" in rope
    assert "{#claim-rope-block-relative}" in rope  # a stable anchor: the claim's id
    assert "![RoPE long-term decay and its bound](figures/rope-decay.svg)" in rope
    assert (out / "figures" / "rope-decay.svg").read_bytes().startswith(b"<?xml")
    index = (out / "index.md").read_text()
    assert "## References" in index and "[Rotary position embedding (RoPE)](rope.md)" in index


def test_rules_table_is_included_when_the_properties_module_provides_it(monkeypatch):
    from posproof.derivations.commands import properties
    from posproof.derivations.export import common

    assert export.rules_table("latex") == properties.table_latex()
    monkeypatch.setattr(common, "RULES_TABLE", dict(export.RULES_TABLE, latex=None, markdown=_table_md, html=None))
    assert export.rules_table("latex") is None
    assert "<td><code>x</code></td>" in export.rules_table("html")


def _table_md(refs=None):
    return "| a | b |\n| --- | --- |\n| `x` | y |\n"


def test_markdown_table_as_html():
    assert export.markdown_table_html(_table_md()) == (
        '<table class="rules"><thead><tr><th>a</th><th>b</th></tr></thead>'
        "<tbody><tr><td><code>x</code></td><td>y</td></tr></tbody></table>"
    )


#: Overfull boxes up to this width are typesetting noise; anything wider runs into the margin (today there are none).
OVERFULL_PT = 1.0


def overfull_boxes(log: str) -> list[float]:
    return [float(x) for x in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]


@pytest.mark.skipif(
    shutil.which("pdflatex") is None, reason="pdflatex not installed (apt-get install texlive-latex-base)"
)
def test_the_document_compiles_with_no_overfull_box_and_no_undefined_reference():
    directory, log = exports.compiled_latex()  # the README's command: pdflatex twice (contents and references)
    wide = [w for w in overfull_boxes(log) if w > OVERFULL_PT]
    assert not wide, f"{len(wide)} overfull boxes wider than {OVERFULL_PT}pt: {wide}"
    assert "undefined" not in log.lower(), [line for line in log.splitlines() if "ndefined" in line]
    settled = not re.search(r"Rerun to get|Rerun LaTeX|may have changed\. Rerun", log)
    assert settled, "two passes do not settle the cross-references (the README says twice)"
    underfull = log.count("Underfull")
    assert underfull <= MAX_UNDERFULL, f"{underfull} underfull boxes"
    pages = int(re.search(r"Output written on posproof\.pdf \((\d+) pages", log).group(1))
    assert pages >= 20
    tex = (directory / "posproof.tex").read_text()
    assert "\\tableofcontents" in tex and "\\bibliography{posproof}" in tex
    assert "\\includegraphics" in (directory / "sinusoidal.tex").read_text()


#: Underfull boxes the document may have: none (paragraphs with code are set ragged right, so a long code name does
#: not stretch a justified line; the rules table had 89).
MAX_UNDERFULL = 0


def test_the_readme_gives_the_command_the_test_compiles_with():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert "pdflatex posproof.tex && pdflatex posproof.tex" in readme


def _latex_export() -> dict[str, str]:
    return exports.text_files("latex")


def test_every_figure_is_referenced_and_set_in_its_section():
    pytest.importorskip("matplotlib")
    from posproof.derivations import plots

    tex = _latex_export()
    everything = "\n".join(tex.values())
    labels = re.findall(r"\\label\{fig:([\w-]+)\}", everything)
    assert sorted(labels) == sorted(plots.PLOTS)
    for name in labels:
        assert f"\\ref{{fig:{name}}}" in everything, name
        assert f"\\label{{fig:{name}}}" in tex[f"{plots.PLOTS[name].topic}.tex"], name  # placed in its section
    # deferred figures are set before the next section (the macro, then one use per section)
    assert everything.count("\\placefigures") == 1 + len(export.topics_all())


def test_the_bibliography_lists_each_work_once_with_its_arxiv_id_or_url():
    from posproof.symbolic import sources

    refs = export.references(export.topics_all())
    entries = [entry for entry, _ in refs]
    assert len(entries) == len(set(entries))
    assert (
        sum(e.startswith("Su et al. 2021") for e in entries) == 1
        and sum("Positional Encoding 101" in e for e in entries) == 1
    )
    for entry in entries:
        if sources.ARTICLE not in entry and "RoPE note" not in entry:
            assert re.search(r"arXiv[: ]\d{4}\.\d{4,5}|https://|r/LocalLLaMA|transformers'", entry), entry


def test_no_python_repr_nor_escaped_caret_in_any_export():
    bad = ("np.float64(", "mpf(", "\\^{}", "array(", "Decimal(")
    for fmt in ("latex", "markdown", "text", "json"):
        for name, text in exports.text_files(fmt).items():
            found = [b for b in bad if b in text]
            assert not found, (fmt, name, found)


def test_html_page_without_node_sets_math_as_mathml_and_its_rules_table_is_real():
    page, errors, _ = export.html_page(export.topics_all(), with_figures=False, katex=False)
    assert not errors
    assert page.count("<math") > 1000 and "katex" not in page
    assert "<mi>&amp;</mi>" not in page and "<mi>&</mi>" not in page  # aligned blocks are tables, not literal &
    assert "<br>" not in page and "&lt;br&gt;" not in page and "$\\frac" not in page
    assert '<table class="rules">' in page


def test_overfull_boxes_are_read_from_the_log():
    log = "Overfull \\hbox (26.81456pt too wide) in paragraph\nOverfull \\hbox (0.5pt too wide) detected at line 3\n"
    assert overfull_boxes(log) == [26.81456, 0.5]


def test_a_claim_heading_is_kept_with_its_first_lines_and_underscores_never_end_a_line():
    assert r"\renewcommand{\subsection}" in export.PREAMBLE and r"\if@nobreak" in export.PREAMBLE
    for name, tex in _latex_export().items():
        assert r"\_\allowbreak" not in tex, name  # a break after the underscore would leave it dangling
