r"""The web exports: Markdown (``index.md`` and a file per topic) and the one HTML page."""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterable
from dataclasses import replace

from posproof.derivations.export import common
from posproof.derivations.export.common import (
    ABSTRACT,
    ABSTRACT_REFERENCE,
    MATH,
    RECORD_INTRO,
    RECORD_TITLE,
    TITLE,
    each_claim,
    figure_lead,
    figure_numbers,
    figures_in,
    placement,
    rules_table,
    topic_title,
    works_cited,
)

from posproof.printing import markdown as markdown_format
from posproof.printing.bib import reference_html, reference_markdown
from posproof.printing.blocks import blocks, record_text
from posproof.printing.html import (
    MATHML_CSS,
    MATHML_NOTE,
    PageMath,
    blocks_html,
    katex_css,
    katex_dir,
    text_html,
)
from posproof.printing.prose import prose
from posproof.printing.refs import Numbering, Target

# ==============================================================================================================
# The numbering, with the page of each target
# ==============================================================================================================

#: The Markdown page of the appendix (the verification record).
APPENDIX = "appendix.md"


def document_numbering(topics, figures: Iterable[str] = (), pages: bool = False) -> Numbering:
    r"""The export's numbering (:func:`derivations.export.common.numbering`); with ``pages`` each target names its
    Markdown page (``rope.md``; the index holds the rules table, :data:`APPENDIX` the record), else every target
    is on this page."""
    figures = list(figures)
    numbering = common.numbering(topics, figures)
    page_of = {f"section:{t}": f"{t}.md" for t, _ in topics} | {"table:rules": "index.md", "section:record": APPENDIX}
    for t, claims in topics:
        page_of |= {f"claim:{c.id}": f"{t}.md" for c in claims} | {f"eq:{c.id}": f"{t}.md" for c in claims}
    for claim_id, names in placement(topics, figures).items():
        page = page_of.get(f"claim:{claim_id}", "")
        page_of |= {f"fig:{n}": page for n in names}
    return Numbering(
        {k: replace(v, page=page_of.get(k, v.page) if pages else "") for k, v in numbering.targets.items()}
    )


def link(target: Target, here: str = "") -> str:
    r"""A Markdown link to a target, ``[Theorem 4.6](rope.md#claim-ID)`` (no page when it is on ``here``)."""
    words = f"{target.word} {target.number}".strip()
    page = "" if target.page == here else target.page
    return f"[{words}]({page}#{target.anchor})"


# ==============================================================================================================
# Markdown
# ==============================================================================================================


def markdown_files(
    topics,
    with_figures: bool,
    tick: Callable[[str], None],
    audience: str = "paper",
    anchors: str = "mkdocs",
    rules: bool = True,
) -> tuple[dict[str, bytes], str]:
    r"""``index.md``, a page per topic and the figures, for MkDocs (``anchors="mkdocs"``: ``attr_list`` anchors;
    ``nav.yml`` holds the pages in reading order for ``mkdocs.yml``) or Sphinx with MyST (``anchors="myst"``: target
    lines; ``index.md`` ends with a hidden ``{toctree}`` of the pages in order)."""
    from posproof.derivations import plots

    if anchors not in markdown_format.ANCHORS:
        raise ValueError(f"anchors must be one of {', '.join(markdown_format.ANCHORS)}, got {anchors!r}")
    figures, note = figures_in("svg", tick) if with_figures else ({}, "")
    files = {}
    places = placement(topics, figures)
    refs = document_numbering(topics, figures, pages=True)
    md = lambda text: markdown_format.text_markdown(text, refs)  # noqa: E731
    for s, (t, claims) in enumerate(topics, 1):
        parts = [*markdown_format.anchored(f"# {s}. {topic_title(t)}", f"topic-{t}", anchors), ""]
        for c in each_claim(claims, tick):
            bs = blocks(c, audience=audience)
            parts.append(markdown_format.blocks_markdown(bs, 2, refs=refs, anchors=anchors, audience=audience))
            for name in places.get(c.id, ()):
                spec = plots.PLOTS[name]
                fig = refs.get(f"fig:{name}")
                number = fig.number if fig is not None else "?"
                image = f"![{spec.title}](figures/{name}.svg)"
                parts += [
                    md(figure_lead(name)),
                    "",
                    *([f"{image}{{#fig-{name}}}"] if anchors == "mkdocs" else [f"(fig-{name})=", image]),
                    "",
                    f"*Figure {number}.* {md(spec.caption)}",
                    "",
                ]
        files[f"{t}.md"] = "\n".join(parts).encode()
    files |= {f"figures/{n}.svg": b for n, b in figures.items()}
    abstract = ABSTRACT if audience == "paper" else ABSTRACT_REFERENCE
    index = [f"# {TITLE}", "", abstract, "", "## Contents", ""]
    for s, (t, claims) in enumerate(topics, 1):
        index.append(f"{s}. [{topic_title(t)}]({t}.md) ({len(claims)} claims)")
    table = rules_table("markdown", refs=refs) if rules else None
    rules_target = refs.get("table:rules")
    if table is not None:
        heading = markdown_format.anchored("## The rules table", rules_target.anchor if rules_target else "", anchors)
        index += ["", *heading, "", markdown_format.table_math_bars(table)]
    index += ["", "## References", ""]
    for w, source, ids in works_cited(topics):
        cited = [refs.get(f"claim:{i}") for i in ids]
        names = [link(x, "index.md") if x is not None else f"`{i}`" for x, i in zip(cited, ids, strict=True)]
        entry = reference_markdown(w) if w is not None else prose(source, "markdown") + "."
        index.append(f"- {entry} Cited in {', '.join(names)}.")
    if audience == "paper":
        index += ["", f"[Appendix A. {RECORD_TITLE}]({APPENDIX})"]
        files[APPENDIX] = record_markdown(topics, refs, anchors).encode()
    if anchors == "myst":
        pages = [t for t, _ in topics] + (["appendix"] if audience == "paper" else [])
        index += ["", "```{toctree}", ":hidden:", "", *pages, "```"]
    files["index.md"] = ("\n".join(index) + "\n").encode()
    nav = ["nav:", '  - "Contents": index.md']
    nav += [f"  - {json.dumps(f'{s}. {topic_title(t)}')}: {t}.md" for s, (t, _) in enumerate(topics, 1)]
    if audience == "paper":
        nav.append(f"  - {json.dumps(f'Appendix A. {RECORD_TITLE}')}: {APPENDIX}")
    files["nav.yml"] = ("\n".join(nav) + "\n").encode()
    return files, note


def record_markdown(topics, refs: Numbering, anchors: str = "mkdocs") -> str:
    r"""The appendix page: the verification record of every claim, topic by topic, one paragraph a claim."""
    md = lambda text: markdown_format.text_markdown(text, refs)  # noqa: E731
    out = [*markdown_format.anchored(f"# Appendix A. {RECORD_TITLE}", "appendix-record", anchors), "", md(RECORD_INTRO)]
    for s, (t, claims) in enumerate(topics, 1):
        out += ["", f"## A.{s}. {topic_title(t)}", ""]
        out += [line for c in claims for line in (md(record_text(c)), "")][:-1]
    return "\n".join(out) + "\n"


# ==============================================================================================================
# HTML, with KaTeX
# ==============================================================================================================

PAGE_CSS = """
body { max-width: 52rem; margin: 2rem auto; padding: 0 1rem; font: 16px/1.5 Georgia, serif; color: #1a1a1a; }
h1, h2, h3 { font-family: Helvetica, Arial, sans-serif; line-height: 1.25; }
h3 { margin-top: 2.2rem; border-top: 1px solid #ddd; padding-top: 1rem; }
.meta { color: #555; font-size: 0.9rem; }
.display { overflow-x: auto; overflow-y: hidden; margin: 0.4rem 0 0.8rem; }
.why { font-size: 0.92rem; margin: 0.6rem 0 0; }
.strategy { color: #555; font-family: monospace; font-size: 0.85rem; }
figure { margin: 1.5rem 0; text-align: center; } figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 0.9rem; color: #333; }
code { font-size: 0.88em; overflow-wrap: anywhere; }
.tablewrap { overflow-x: auto; } table.rules { border-collapse: collapse; font-size: 0.85rem; }
table.rules td, table.rules th { border: 1px solid #ddd; padding: 0.2rem 0.4rem; vertical-align: top; }
table.rules caption { caption-side: top; text-align: left; font-size: 0.9rem; padding-bottom: 0.4rem; }
table.rules th[scope=row] { text-align: left; font-weight: normal; } .claim { margin-top: 0.15rem; }
math[display=block] { overflow-x: auto; overflow-y: hidden; }
table.computed { border-collapse: collapse; font-size: 0.9rem; margin: 0.4rem 0 0.8rem; }
table.computed { display: block; overflow-x: auto; } table.computed th, table.computed td { vertical-align: top; }
table.computed th, table.computed td { border-bottom: 1px solid #ddd; padding: 0.15rem 0.6rem 0.15rem 0; }
table.computed th { text-align: left; } table.computed th[scope=row] { font-weight: normal; }
table.computed thead th { border-bottom: 1px solid #888; } table.computed caption { text-align: left; }
.numbered { display: flex; align-items: center; gap: 1rem; } .numbered .eq { flex: 1; overflow-x: auto; }
.eqno { white-space: nowrap; } ul.toc { list-style: none; padding-left: 0; }
.mathml-note { border-left: 3px solid #c90; padding: 0.3rem 0.6rem; background: #fff8e6; font-size: 0.9rem; }
"""


def _svg_body(svg: bytes) -> str:
    text = svg.decode()
    return text[text.index("<svg") :]


def html_page(
    topics,
    with_figures: bool = True,
    katex: bool | None = None,
    tick: Callable[[str], None] | None = None,
    audience: str = "paper",
    rules: bool = True,
) -> tuple[str, list[str], str]:
    r"""The self-contained page, the math errors (none expected) and a note on missing figures. The math is set
    by KaTeX when Node.js and the katex package are there (``katex=None``), else as MathML (and the page says so).
    Topics and claims are numbered (:func:`document_numbering`), every cross-reference is a link, and the contents
    list every section. ``tick(name)`` after each figure, each claim and the math."""
    from posproof.derivations import plots

    math = PageMath(katex)
    figures, note = figures_in("svg", tick) if with_figures else ({}, "")
    refs = document_numbering(topics, figures)
    places = placement(topics, figures)
    numbers = {
        name: (refs.get(f"fig:{name}") or Target("Figure", str(n), f"fig-{name}")).number
        for name, n in figure_numbers(places).items()
    }
    table = rules_table("html", math, refs=refs) if rules else None
    sections = [(f"topic-{t}", f"{s}. {topic_title(t)}") for s, (t, _) in enumerate(topics, 1)]
    rules_target = refs.get("table:rules")
    rules_anchor = rules_target.anchor if rules_target is not None else "table-rules"
    rules_number = len(topics) + 1
    if table is not None:
        sections.append((rules_anchor, f"{rules_number}. The rules table"))
    sections.append(("references", "References"))
    paper = audience == "paper"
    if paper:
        sections.append(("appendix-record", f"A. {RECORD_TITLE}"))
    toc = "".join(f'<li><a href="#{a}">{html.escape(title)}</a></li>' for a, title in sections)
    abstract = ABSTRACT if audience == "paper" else ABSTRACT_REFERENCE
    parts = [f"<h1>{html.escape(TITLE)}</h1>", f"<p>{text_html(abstract, math, refs)}</p>"]
    if not math.katex:
        parts.append(f'<p class="mathml-note" role="note">{html.escape(MATHML_NOTE)}</p>')
    parts.append(f'<nav aria-label="Contents"><h2 id="contents">Contents</h2><ul class="toc">{toc}</ul></nav>')
    for s, (t, claims) in enumerate(topics, 1):
        parts.append(f'<h2 id="topic-{t}"><span class="number">{s}.</span> {html.escape(topic_title(t))}</h2>')
        for c in each_claim(claims, tick):
            parts.append(blocks_html(blocks(c, audience=audience), math, refs=refs, audience=audience))
            for name in places.get(c.id, ()):
                cap = text_html(plots.PLOTS[name].caption, math, refs)
                parts.append(
                    f"<p>{text_html(figure_lead(name), math, refs)}</p>"
                    f'<figure id="fig-{name}">{_svg_body(figures[name])}'
                    f"<figcaption>Figure {numbers[name]}. {cap}</figcaption></figure>"
                )
    if table is not None:
        parts += [
            f'<h2 id="{rules_anchor}"><span class="number">{rules_number}.</span> The rules table</h2>',
            f'<div class="tablewrap">{table}</div>',
        ]
    cited = lambda i: refs.get(f"claim:{i}") or Target("", i, f"claim-{i}")  # noqa: E731
    items = "".join(
        f"<li>{reference_html(w) if w is not None else prose(s, 'html', math) + '.'} Cited in "
        + ", ".join(
            f'<a href="#{html.escape(cited(i).anchor)}">{html.escape(f"{cited(i).word} {cited(i).number}".strip())}</a>'
            for i in ids
        )
        + ".</li>"
        for w, s, ids in works_cited(topics)
    )
    parts += ['<h2 id="references">References</h2>', f"<ul>{items}</ul>"]
    if paper:
        record = [f'<h2 id="appendix-record"><span class="number">A.</span> {html.escape(RECORD_TITLE)}</h2>']
        record.append(f"<p>{text_html(RECORD_INTRO, math, refs)}</p>")
        for s, (t, claims) in enumerate(topics, 1):
            record.append(f"<h3>A.{s}. {html.escape(topic_title(t))}</h3>")
            record += [f'<p class="record">{text_html(record_text(c), math, refs)}</p>' for c in claims]
        parts += record
    body, errors = math.fill("\n".join(parts))
    if tick is not None:
        tick(MATH)
    kdir = katex_dir() if math.katex else None
    style = f"<style>{katex_css(kdir)}</style>\n" if kdir is not None else ""
    css = PAGE_CSS if math.katex else PAGE_CSS + MATHML_CSS + "\n"
    page = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(TITLE)}</title>\n{style}<style>{css}</style>\n"
        f"</head>\n<body>\n{body}\n</body>\n</html>\n"
    )
    return page, errors, note
