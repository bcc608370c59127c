r"""The bibliography: every cited work as a record, printed as BibTeX, ``thebibliography``, Markdown and HTML."""

import re
import shutil
import subprocess

import pytest
from posproof.symbolic import registry, sources
from posproof.symbolic.sources import RECORDS

from posproof.printing import bib

ARXIV = re.compile(r"\d{4}\.\d{4,5}")


def cited_sources():
    return [c.source for t in registry.TOPICS for c in registry.topic(t)]


def test_every_cited_work_has_authors_a_year_and_an_address():
    works = bib.cited(cited_sources())
    for w in works:
        if w.unpublished:  # the user's own two texts: nothing about them is known
            assert w.cites in ((sources.ARTICLE,), (sources.NOTE,)) and not w.authors and w.year is None
            continue
        assert w.authors and isinstance(w.year, int) and (w.arxiv or w.url), w.key
        assert not w.arxiv or ARXIV.fullmatch(w.arxiv), w.key
        assert not w.url or w.url.startswith("https://"), w.key
    assert {w.key for w in works if w.unpublished} == {"article101", "ropenote"}


def test_records_have_unique_keys_and_each_work_one_record():
    keys = [w.key for w in RECORDS]
    assert len(keys) == len(set(keys))
    cites = [c for w in RECORDS for c in w.cites]
    assert len(cites) == len(set(cites))
    assert len(bib.cited(cited_sources())) >= 30


def test_one_arxiv_format():
    for w in RECORDS:
        assert "arXiv " not in w.entry and ("arXiv:" in w.entry) == bool(w.arxiv), w.entry
    for name in ("ROFORMER", "CHEN_PI", "YARN", "XPOS"):
        assert re.search(r"arXiv:\d{4}\.\d{4,5}", getattr(sources, name)), name


def test_citation_key_ignores_the_locator_and_refuses_an_unknown_source():
    assert bib.citation_key(sources.article("Relative Positions")) == bib.citation_key(sources.ARTICLE)
    assert bib.citation_key(sources.ROFORMER + ", section 3.4.3") == "su2021roformer"
    with pytest.raises(ValueError, match="source"):
        bib.citation_key("Nobody 1999, 'Nothing'")


def test_bibtex_entries_are_well_formed_and_escaped():
    text = bib.bibtex(RECORDS)
    entries = re.findall(r"@(\w+)\{([\w-]+),\n(.*?)\n\}\n", text, re.S)
    assert len(entries) == len(RECORDS)
    assert {k for k, _, _ in entries} <= {"article", "misc", "book"}
    for _, key, body in entries:
        assert body.count("{") == body.count("}"), key
        for line in body.splitlines():
            value = line.split(" = ", 1)[1]
            if not line.strip().startswith("url"):
                assert not re.search(r"(?<!\\)[&%#_~]", value), (key, line)
    assert r"Kaiser, {\L}ukasz" in text and "url = {https://www-cs-faculty.stanford.edu/~knuth/gkp.html}" in text


def test_the_knuth_address_prints_as_a_url_not_a_tie():
    concrete = next(w for w in RECORDS if w.key == "graham1994concrete")
    assert r"\url{https://www-cs-faculty.stanford.edu/~knuth/gkp.html}" in bib.reference_latex(concrete)
    assert "∼" not in bib.bibliography_latex(RECORDS)


def test_bibliography_keeps_the_cited_keys_in_order():
    text = bib.bibliography_latex(RECORDS, ["su2021roformer", "vaswani2017attention"])
    assert text.startswith(r"\begin{thebibliography}{2}") and text.rstrip().endswith(r"\end{thebibliography}")
    assert text.index(r"\bibitem{vaswani2017attention}") < text.index(r"\bibitem{su2021roformer}")
    assert r"\href{https://arxiv.org/abs/2104.09864}{arXiv:2104.09864}" in text
    with pytest.raises(ValueError, match="cited_keys"):
        bib.bibliography_latex(RECORDS, ["nosuchkey"])


def test_reference_lines_link_their_work():
    roformer = next(w for w in RECORDS if w.key == "su2021roformer")
    assert "[arXiv:2104.09864](https://arxiv.org/abs/2104.09864)" in bib.reference_markdown(roformer)
    assert '<a href="https://arxiv.org/abs/2104.09864">arXiv:2104.09864</a>' in bib.reference_html(roformer)
    article = RECORDS[0]
    assert "unpublished note" in bib.reference_markdown(article) and "](" not in bib.reference_markdown(article)
    assert "<a " not in bib.reference_html(article)
    bloom = next(w for w in RECORDS if w.key == "bigscience2022bloom")
    assert "<code>build_alibi_tensor</code>" in bib.reference_html(bloom)


@pytest.mark.slow
def test_the_bibliography_compiles_with_pdflatex_and_bibtex(tmp_path):
    if shutil.which("pdflatex") is None or shutil.which("bibtex") is None:
        pytest.skip("pdflatex and bibtex are not installed")
    keys = [w.key for w in RECORDS]
    cites = ",".join(keys)
    (tmp_path / "refs.bib").write_text(bib.bibtex(RECORDS), encoding="utf-8")
    head = "\\documentclass{article}\\usepackage[T1]{fontenc}\\usepackage{url}\\usepackage{hyperref}\n"
    (tmp_path / "a.tex").write_text(
        head + f"\\begin{{document}}\\cite{{{cites}}}\n{bib.bibliography_latex(RECORDS, keys)}\\end{{document}}\n"
    )
    (tmp_path / "b.tex").write_text(
        head + f"\\begin{{document}}\\cite{{{cites}}}\\bibliographystyle{{plain}}\\bibliography{{refs}}"
        "\\end{document}\n"
    )
    run = lambda *cmd: subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=120)  # noqa: E731
    for doc in ("a", "b"):
        assert run("pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc).returncode == 0, doc
    out = run("bibtex", "b")
    assert out.returncode == 0 and "error message" not in out.stdout, out.stdout
    for _ in range(2):
        done = run("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "b")
        assert done.returncode == 0, done.stdout[-2000:]


def test_cited_by_lists_each_work_once_with_its_claims():
    claims = [c for t in registry.TOPICS for c in registry.topic(t)]
    pairs = bib.cited_by(claims)
    assert [w.key for w, _ in pairs] == [w.key for w in bib.cited(c.source for c in claims)]
    article = dict((w.key, ids) for w, ids in pairs)["article101"]
    assert len(article) == len(set(article)) == sum(sources.ARTICLE in c.source for c in claims)
