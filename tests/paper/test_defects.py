r"""The defect counter's detectors on small strings, and the export's zero categories."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.paper import defects as d

#: The categories the export may still have defects in, each with the reason (every other category is zero).
LEFT: dict[tuple[str, str], str] = {}

CASES = [
    (d.ascii_math, "positions 0 .. 255 here", "positions $0, \\dots, 255$"),
    (d.ascii_math, "a grid of 8 x 16 cells", "a grid of $8 \\times 16$ cells"),
    (d.python_isms, "within 1e-12 of zero", "within $10^{-12}$ of zero"),
    (d.python_isms, "Claimed: [a, b]", "Claimed that a holds"),
    (d.python_isms, "$q_{[2i:2i+1]}$", "$q_{2i}$"),
    (d.underscore_identifiers, "the max_len value", "the \\texttt{max_len} value"),
    (d.test_suite_language, "The registered mistake is", "A wrong sign is rejected"),
    (d.test_suite_language, "by [doit, expand]", "by expanding"),
    (d.notation_two_ways, "$\\phi$ and $\\varphi$", "$\\phi$ and $\\phi$"),
    (d.notation_two_ways, "$A^T$ and $B^{\\top}$", "$A^{\\top}$"),
    (d.words_in_math_italics, "$PE(pos)$", "$\\mathrm{PE}(\\mathit{pos})$"),
    (d.fractions_in_scripts, "$x^{\\frac{1}{2}}$", "$x^{1/2}$"),
    (d.unevaluated_constants, "$1000 \\cdot 10^{63/64}$", "$10^{3}$"),
    (d.unevaluated_constants, "$1/10000000000$", "$10^{-10}$"),
    (d.tilde_urls, "https://x.org/\u223cknuth/", "https://x.org/~knuth/"),
    (d.latex_no_hyperref, "\\documentclass{article}", "\\usepackage{hyperref}"),
    (d.latex_no_numbered_equation, "\\begin{equation*}x\\end{equation*}", "\\begin{equation}x\\end{equation}"),
    (d.references_incomplete, "\\bibitem{a} A book.", "\\bibitem{a} Knuth, D. \\url{https://a.org}"),
    (d.markdown_norm_bug, "$a \\| b$", "$a \\vert b$"),
    (d.markdown_ordered_all_ones, "1. a\n1. b\n", "1. a\n2. b\n"),
    (d.markdown_claim_heading_no_anchor, "### Theorem 1.1. T\n", "### Theorem 1.1. T {#claim-t}\n"),
    (d.html_no_section_numbers, "<h2>Intro</h2>", "<h2>1 Intro</h2><h2>References</h2><h2>A. Record</h2>"),
    (d.claim_ids_as_words, "see order-scores-permute", d.tex_comments_removed("% order-scores-permute\nsee it")),
    (d.html_no_links, "<p>x</p>", '<a href="#claim-a">1.1</a>'),
    (d.html_contents_gaps, '<h2 id="s1">1</h2>', '<a href="#s1">1</a><h2 id="s1">1</h2>'),
    (d.ascii_math_pdf, "positions 0 .. 255 and m - n here", "the ratio 1/(1 + w), m \u2212 n"),
    (d.pdf_underscore_identifiers, "the max_len here", "the maximum here"),
    (d.pdf_short_pages, "a\nb\nc\n\fonly\n", "a\nb\nc\n\fa\nb\nc\n"),
    (d.log_bad_boxes, "Overfull \\hbox (3pt too wide)", "Output written"),
]


@pytest.mark.parametrize(("detector", "bad", "good"), CASES)
def test_detector(detector: d.Detector, bad: str, good: str) -> None:
    assert detector(bad), (detector.__name__, bad)
    assert not detector(good), (detector.__name__, good)


def test_claim_ids_as_words() -> None:
    assert d.claim_ids_as_words("by rope-norm we see", ids=["rope-norm"]) == ["rope-norm"]
    assert d.claim_ids_as_words("by `rope-norm` and \\ref{claim:rope-norm}", ids=["rope-norm"]) == []


def test_table_counts() -> None:
    text = d.table({"tex": {"ascii_math": ["0 .. 7", "0 .. 9"]}})
    assert "| tex | ascii_math | 2 | 0 .. 7; 0 .. 9 |" in text


def _pdf_text(directory: Path) -> Path | None:
    r"""``pdftotext`` of the compiled export, or ``None`` without poppler-utils."""
    if shutil.which("pdftotext") is None:
        return None
    out = directory / "posproof.txt"
    subprocess.run(["pdftotext", str(directory / "posproof.pdf"), str(out)], check=True, timeout=300)
    return out


@pytest.mark.slow
@pytest.mark.xdist_group("exports")
def test_the_export_has_no_defect_in_any_category():
    from tests import exports

    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed (apt-get install texlive-latex-base texlive-latex-recommended)")
    directory, _ = exports.compiled_latex()
    result = d.measure(tex=directory, md=exports.tree("markdown"), html=exports.tree("html"), pdf=_pdf_text(directory))
    found = {(source, name): hits[:3] for source, cats in result.items() for name, hits in cats.items() if hits}
    assert set(found) <= set(LEFT), {k: v for k, v in found.items() if k not in LEFT}
