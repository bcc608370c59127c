r"""The export in the paper voice (the default): claims in their environments with numbered statements and links,
the shipped preamble, the bibliography as data, the rules table as one longtable, the verification record as the
appendix; ``--audience reference`` keeps every strategy; ``--format bib``; bad options are one line."""

import re

import pytest
from posproof.derivations.cli import main
from posproof.symbolic import registry

from tests import exports

pytestmark = pytest.mark.xdist_group("exports")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_latex_export_ships_its_preamble_and_loads_hyperref_after_it():
    files = exports.files("latex", figures=False)
    doc = files["posproof.tex"].decode()
    assert files["posproof.sty"].startswith(b"% posproof.sty")
    assert doc.index(r"\usepackage{posproof}") < doc.index(r"\usepackage[hidelinks]{hyperref}")
    assert doc.index(r"\usepackage[hidelinks]{hyperref}") < doc.index(r"\begin{document}")


def test_latex_claims_are_environments_with_numbered_statements_and_no_strategy_brackets():
    rope = exports.files("latex", figures=False)["rope.tex"].decode()
    assert r"\begin{theorem}\label{claim:rope-block-relative}\posprooftitle{" in rope
    assert r"\begin{equation}\label{eq:rope-block-relative}" in rope
    assert r"\begin{proof}" in rope and r"\posproofchecked{" in rope
    assert not re.search(r"\[(?:expand|unfold|doit)(?:, \w+)*\]", rope)
    assert r"Appendix~\ref{section:record}" in rope


def test_latex_appendix_holds_every_claims_record():
    doc = exports.files("latex", figures=False)["posproof.tex"].decode()
    appendix = doc[doc.index(r"\appendix") :]
    assert r"\label{section:record}" in appendix
    for claim_id in registry.ids():
        assert r"\ref{claim:%s}" % claim_id in appendix, claim_id
    assert r"\texttt{expand\allowbreak{}\_trig}" in appendix  # the strategies are kept, as names


def test_latex_bibliography_is_the_bib_file_set_without_bibtex():
    files = exports.files("latex", figures=False)
    bib, bbl = files["posproof.bib"].decode(), files["posproof.bbl"].decode()
    assert r"\bibliography{posproof}" in files["posproof.tex"].decode()
    keys = re.findall(r"^@\w+\{([^,]+),", bib, re.M)
    assert keys and all(r"\bibitem{%s}" % k in bbl for k in keys)
    assert r"\bibitem{su2021roformer}" in bbl and "Cited in Theorem~" in bbl


def test_rules_table_is_one_longtable_with_booktabs_citing_claims_by_number():
    rules = exports.files("latex", figures=False)["rules.tex"].decode()
    assert rules.count(r"\begin{longtable}") == 1 and r"\toprule" in rules and r"\endhead" in rules
    assert r"\label{table:rules}" in rules and r"Theorem~\ref{claim:" in rules
    assert r"\texttt{properties-" not in rules


def test_markdown_checked_line_links_the_appendix_page():
    files = exports.files("markdown", figures=False)
    rope = files["rope.md"].decode()
    assert "[Appendix A](appendix.md#appendix-record)" in rope
    appendix = files["appendix.md"].decode()
    assert appendix.startswith("# Appendix A. The verification record {#appendix-record}")
    assert "`rope-block-relative`" in appendix
    assert "appendix.md" in files["nav.yml"].decode()


def test_html_numbers_the_rules_table_and_has_the_appendix():
    page = exports.files("html", figures=False)["posproof.html"].decode()
    assert re.search(r'<h2 id="table-rules"><span class="number">\d+\.</span> The rules table</h2>', page)
    assert '<h2 id="appendix-record">' in page and 'href="#appendix-record"' in page


def test_export_bib_writes_the_works_cited(capsys, tmp_path):
    code, out, _ = run(capsys, "export", "--format", "bib", "--out", str(tmp_path / "b"))
    bib = (tmp_path / "b" / "posproof.bib").read_text()
    assert code == 0 and "@article{su2021roformer," in bib and "url = {" in bib


def test_export_reference_audience_keeps_the_strategies(capsys, tmp_path):
    code, _, err = run(capsys, "export", "--format", "latex", "--out", str(tmp_path / "r"), "--no-figures",
                       "--audience", "reference")  # fmt: skip
    rope = (tmp_path / "r" / "rope.tex").read_text()
    assert code == 0, err
    assert r"{\small[unfold]}" in rope and r"\appendix" not in (tmp_path / "r" / "posproof.tex").read_text()


@pytest.mark.parametrize(
    "option, value, says",
    [("--audience", "journal", "--audience must be one of paper, reference"), ("--textwidth", "wide", "textwidth")],
)
def test_export_refuses_a_bad_option_in_one_line(capsys, tmp_path, option, value, says):
    code, _, err = run(capsys, "export", "--format", "latex", "--out", str(tmp_path / "x"), option, value)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()
