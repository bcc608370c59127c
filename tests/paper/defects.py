r"""A mechanical copy-editor's defect counter over a posproof export (LaTeX, Markdown, HTML, PDF text)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterable
from pathlib import Path

Detector = Callable[[str], list[str]]


def _hits(pattern: str, text: str, flags: int = 0) -> list[str]:
    return [m.group(0) for m in re.finditer(pattern, text, flags)]


def without_urls(text: str) -> str:
    r"""Text with its web addresses removed (their slugs and paths are not prose)."""
    return re.sub(r"https?://[^\s)>\]}\"']+", " ", text)


def prose_only(text: str) -> str:
    r"""Text with math ($..$, \[..\], equation environments), \texttt{..} and `code` removed."""
    text = re.sub(r"\\begin\{(equation|align|gather|multline)\*?\}.*?\\end\{\1\*?\}", " ", text, flags=re.S)
    text = re.sub(r"\$\$.*?\$\$|\\\[.*?\\\]|\$[^$]*\$|\\\(.*?\\\)", " ", text, flags=re.S)
    text = re.sub(r"\\texttt\{[^}]*\}|\\verb(.).*?\1|```.*?```|`[^`]*`|<code>.*?</code>", " ", text, flags=re.S)
    return without_urls(text)


def math_only(text: str) -> str:
    r"""The math spans of a text, joined by newlines."""
    spans = re.findall(r"\$\$(.*?)\$\$|\\\[(.*?)\\\]|\$([^$]*)\$|\\\((.*?)\\\)", text, flags=re.S)
    return "\n".join("".join(s) for s in spans)


def ascii_math(text: str) -> list[str]:
    """ASCII math in prose: `m - n`, `8 x 16`, `0 .. 255`, `pos/(N-1)`."""
    p = prose_only(text)
    return _hits(r"\b\w+ - \w+\b(?= [^a-z])|\b\d+ x \d+\b|\b\d+ ?\.\. ?\d+\b|\b\w+/\(\w+ ?[-+] ?\w+\)", p)


def ascii_math_pdf(text: str) -> list[str]:
    """ASCII math in PDF text: `m - n` (typeset math has a minus sign), `8 x 16`, `0 .. 255`. A solidus fraction
    `pos/(N-1)` reads the same set as math or as text; :func:`ascii_math` finds it in the source."""
    return _hits(r"\b\w+ - \w+\b(?= [^a-z])|\b\d+ x \d+\b|\b\d+ ?\.\. ?\d+\b", without_urls(text))


def python_isms(text: str) -> list[str]:
    """Python-isms: `1e-12`, `-inf`, `truncate false`, `Claimed: [..]`, slice subscripts, `dps`."""
    p = prose_only(text)
    out = _hits(r"\b\d+(?:\.\d+)?e[-+]?\d+\b|(?<![\w\\])-inf\b|\btruncate (?:false|true)\b|Claimed: \[|\bdps\b", p)
    return out + _hits(r"_\{\[\d*\w*:\w*[^}]*\]\}", text)


def underscore_identifiers(text: str) -> list[str]:
    r"""Identifiers with underscores as roman text (outside math/code/\texttt)."""
    return _hits(r"\b[a-z]+(?:\\?_[a-z0-9]+)+\b", prose_only(text))


def claim_ids_as_words(text: str, ids: Iterable[str] | None = None) -> list[str]:
    """Registry claim ids appearing in running text (outside code, labels and anchors)."""
    if ids is None:
        from posproof.symbolic import registry

        ids = registry.ids()
    p = prose_only(text)
    links = r"\\(label|ref|eqref|hyperref|autoref)\{[^}]*\}|\{#[^}]*\}|(href|id|name)=\"[^\"]*\"|\([^)\s]*\.md[^)]*\)"
    p = re.sub(links, " ", p)
    wanted = sorted({i for i in ids if "_" in i or "-" in i or "." in i}, key=len, reverse=True)
    if not wanted:
        return []
    return _hits(r"(?<![\w#:/-])(?:" + "|".join(map(re.escape, wanted)) + r")(?![\w-])", p)


def test_suite_language(text: str) -> list[str]:
    """Test-suite language: 'registered mistake', 'draws this:', 'wrong variant', strategy brackets."""
    brackets = r"\[(?:expand|doit|simplify|factor|cancel|together|trigsimp)(?:, ?\w+)*\]"
    pat = r"registered mistake|draws this:|wrong variant|" + brackets
    return _hits(pat, text, re.I)


def notation_two_ways(text: str) -> list[str]:
    r"""Notation spelled two ways: phi/varphi, epsilon/varepsilon, ^T/^\top, log/ln, arXiv (one hit a pair)."""
    pairs = [
        (r"\\phi\b|φ", r"\\varphi\b|ϕ"),
        (r"\\epsilon\b|ε", r"\\varepsilon\b|ϵ"),
        (r"\^\{?T\b", r"\^\{?\\top\b"),
        (r"\\log\b", r"\\ln\b"),
        (r"arXiv:\d{4}\.\d+", r"arxiv\.org/abs/\d{4}\.\d+"),
    ]
    text = without_urls(text)  # an address is not notation (an arXiv link's URL beside its id "arXiv:...")
    return [f"{a} & {b}" for a, b in pairs if re.search(a, text) and re.search(b, text)]


def words_in_math_italics(text: str) -> list[str]:
    r"""Multi-letter words in math not wrapped in \mathrm/\operatorname/\text (e.g. `PE(pos)`, `Attn`)."""
    m = math_only(text)
    m = re.sub(r"\\(mathrm|operatorname|text|mathit|mathsf|mathtt|textrm|label|tag|begin|end)\*?\{[^}]*\}", " ", m)
    m = re.sub(r"\\[A-Za-z]+", " ", m)
    return _hits(r"(?<![A-Za-z])[A-Za-z]{3,}(?![A-Za-z])", m)


def fractions_in_scripts(text: str) -> list[str]:
    r"""\frac inside a superscript or subscript."""
    return _hits(r"[\^_]\{[^{}]*\\(?:d|t)?frac", text)


def unevaluated_constants(text: str) -> list[str]:
    r"""Unevaluated constants: `1000 \cdot 10^{63/64}`, `1/10000000000`, long digit strings."""
    m = math_only(text) + "\n" + prose_only(text)
    return _hits(r"\d+ ?\\cdot ?\d+\^\{?[\d/]+\}?|\b\d+/\d{6,}\b|\b\d{12,}\b", m)


def references_incomplete(text: str) -> list[str]:
    r"""Reference entries (\bibitem) without an author-like part, a URL or an arXiv id."""
    items = re.split(r"\\bibitem", text)[1:]
    bad = []
    for item in items:
        body = item.split(r"\end{thebibliography}")[0]
        if not re.search(r"\\url|https?://|arXiv", body) or not re.search(r"[A-Z][a-z]+,|[A-Z]\. [A-Z]", body):
            bad.append(body.strip()[:60])
    return bad


def tilde_urls(text: str) -> list[str]:
    r"""URLs with `∼` or `\sim` in place of `~`."""
    return _hits(r"https?://\S*(?:∼|\\sim)\S*", text)


def latex_no_hyperref(text: str) -> list[str]:
    """LaTeX without hyperref (one hit)."""
    return [] if re.search(r"hyperref|\\usepackage\{posproof\}", text) else ["no hyperref"]


def latex_no_numbered_equation(text: str) -> list[str]:
    r"""LaTeX without any numbered equation (\begin{equation} without star) (one hit)."""
    return [] if re.search(r"\\begin\{equation\}", text) else ["no numbered equation"]


def markdown_norm_bug(text: str) -> list[str]:
    r"""Markdown: `\|` inside math (TeX's norm, the table-pipe escape bug)."""
    return _hits(r"[^\n]{0,20}\\\|[^\n]{0,20}", math_only(text))


def markdown_ordered_all_ones(text: str) -> list[str]:
    """Markdown: ordered lists whose items (two or more) are all numbered `1.`."""
    return [m.group(0)[:40] for m in re.finditer(r"(?:^1\. .*\n){2,}", text, re.M)]


def markdown_claim_heading_no_anchor(text: str) -> list[str]:
    """Markdown: claim headings (### ...) without a `{#...}` anchor."""
    return [h for h in re.findall(r"^###+ .*$", text, re.M) if "{#" not in h]


def html_no_section_numbers(text: str) -> list[str]:
    """HTML: <h2> headings without a leading section number (or appendix letter); the contents and the
    references are unnumbered, as in a journal."""
    heads = re.findall(r"<h2[^>]*>(.*?)</h2>", text, re.S)
    numbered = r"\s*(?:<[^>]+>)*\s*(?:\d|[A-Z]\.)"
    return [h for h in heads if not re.match(numbered, h) and h.strip() not in ("Contents", "References")]


def html_no_links(text: str) -> list[str]:
    """HTML: no internal links (<a href="#...">) at all (one hit)."""
    return [] if re.search(r"<a href=\"#", text) else ["no links"]


def html_contents_gaps(text: str) -> list[str]:
    """HTML: <h2> ids not linked from a contents list."""
    ids = re.findall(r"<h2[^>]*id=\"([^\"]+)\"", text)
    missing = [i for i in ids if f'href="#{i}"' not in text and i != "contents"]  # the list's own heading
    noid = len(re.findall(r"<h2(?![^>]*id=)", text))
    return missing + ["<h2> without id"] * noid


def pdf_underscore_identifiers(text: str) -> list[str]:
    r"""PDF text: identifiers with underscores. (A name like ``max_position`` set as math, "max" with a subscript,
    reads in PDF text as the operator ``\max_w`` does: :func:`underscore_identifiers` finds it in the source.)"""
    return _hits(r"\b[a-z]+(?:_[a-z0-9]+)+\b", text)


def pdf_short_pages(text: str) -> list[str]:
    """PDF text: pages with at most two non-empty lines."""
    pages = text.split("\f")
    lines = [[x for x in pg.splitlines() if x.strip()] for pg in pages]
    return [f"page {n}" for n, ls in enumerate(lines, 1) if 0 < len(ls) <= 2]


def log_bad_boxes(text: str) -> list[str]:
    """pdflatex log: overfull/underfull boxes."""
    return _hits(r"(?:Overfull|Underfull) \\[hv]box[^\n]*", text)


COMMON: dict[str, Detector] = {
    "ascii_math": ascii_math,
    "python_isms": python_isms,
    "underscore_identifiers": underscore_identifiers,
    "claim_ids_as_words": claim_ids_as_words,
    "test_suite_language": test_suite_language,
    "notation_two_ways": notation_two_ways,
    "words_in_math_italics": words_in_math_italics,
    "fractions_in_scripts": fractions_in_scripts,
    "unevaluated_constants": unevaluated_constants,
    "tilde_urls": tilde_urls,
}
TEX: dict[str, Detector] = {
    **COMMON,
    "references_incomplete": references_incomplete,
    "latex_no_hyperref": latex_no_hyperref,
    "latex_no_numbered_equation": latex_no_numbered_equation,
}
MD: dict[str, Detector] = {
    **COMMON,
    "markdown_norm_bug": markdown_norm_bug,
    "markdown_ordered_all_ones": markdown_ordered_all_ones,
    "markdown_claim_heading_no_anchor": markdown_claim_heading_no_anchor,
}
HTML: dict[str, Detector] = {
    "test_suite_language": test_suite_language,
    "claim_ids_as_words": claim_ids_as_words,
    "tilde_urls": tilde_urls,
    "html_no_section_numbers": html_no_section_numbers,
    "html_no_links": html_no_links,
    "html_contents_gaps": html_contents_gaps,
}
PDF: dict[str, Detector] = {
    "ascii_math": ascii_math_pdf,
    "python_isms": python_isms,
    "pdf_underscore_identifiers": pdf_underscore_identifiers,
    "test_suite_language": test_suite_language,
    "pdf_short_pages": pdf_short_pages,
    "tilde_urls": tilde_urls,
}
LOG: dict[str, Detector] = {"log_bad_boxes": log_bad_boxes}


def tex_comments_removed(text: str) -> str:
    r"""LaTeX source without its comments (``% claim-id`` lines name each claim for the reader of the source;
    nothing of them is printed)."""
    return re.sub(r"(?m)(?<!\\)%.*$", "", text)


def read(paths: Iterable[Path]) -> str:
    """The concatenated text of some files."""
    return "\n".join(p.read_text(errors="replace") for p in sorted(paths))


def count(text: str, detectors: dict[str, Detector]) -> dict[str, list[str]]:
    """Category -> hits of each detector over one text."""
    return {name: f(text) for name, f in detectors.items()}


def measure(
    tex: Path | None = None, md: Path | None = None, html: Path | None = None, pdf: Path | None = None
) -> dict[str, dict[str, list[str]]]:
    """Source -> category -> hits, for the sources given."""
    out: dict[str, dict[str, list[str]]] = {}
    if tex is not None:
        out["tex"] = count(tex_comments_removed(read(tex.glob("*.tex"))), TEX)
        logs = list(tex.glob("*.log"))
        if logs:
            out["log"] = count(read(logs), LOG)
    if md is not None:
        out["md"] = count(read(md.rglob("*.md")), MD)
    if html is not None:
        files = [html] if html.is_file() else list(html.rglob("*.html"))
        out["html"] = count(read(files), HTML)
    if pdf is not None:
        out["pdf"] = count(pdf.read_text(errors="replace"), PDF)
    return out


def table(result: dict[str, dict[str, list[str]]]) -> str:
    """A Markdown table source | category | count | first three examples."""
    rows = ["| source | category | count | examples |", "|---|---|---|---|"]
    for source, cats in result.items():
        for name, hits in cats.items():
            ex = "; ".join(h.replace("|", "\\|").replace("\n", " ")[:50] for h in hits[:3])
            rows.append(f"| {source} | {name} | {len(hits)} | {ex} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Command line: print the defect table."""
    ap = argparse.ArgumentParser(prog="python -m tests.paper.defects")
    ap.add_argument("--tex", type=Path)
    ap.add_argument("--md", type=Path)
    ap.add_argument("--html", type=Path)
    ap.add_argument("--pdf", type=Path)
    a = ap.parse_args(argv)
    print(table(measure(a.tex, a.md, a.html, a.pdf)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
