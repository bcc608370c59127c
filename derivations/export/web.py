r"""The web exports: Markdown (``index.md`` and a file per topic) and the one HTML page."""

from __future__ import annotations

import html
import inspect
import json
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from posproof.derivations.export import common
from posproof.derivations.export.common import (
    ABSTRACT,
    MATH,
    TITLE,
    each_claim,
    figure_numbers,
    figures_in,
    lower_first,
    placement,
    references,
    rules_table,
    topic_title,
)

from posproof.printing import markdown as markdown_format
from posproof.printing.blocks import blocks
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
# The numbering, and the audience passed to the blocks
# ==============================================================================================================

#: The environment word of a claim kind, where the blocks give none.
WORDS = {"theorem": "Theorem", "definition": "Definition", "fact": "Computation", "lemma": "Lemma"}


def claim_word(c) -> str:
    return "Lemma" if c.kind == "theorem" and c.id.startswith("lemma") else WORDS.get(c.kind, c.kind.title())


def local_numbering(topics, figures: Iterable[str] = ()) -> Numbering:
    r"""The document's numbering as :func:`derivations.export.common.numbering` writes it: section ``s`` per
    topic, claim ``s.k``, statements ``(1)``, ``(2)`` … in claim order, figures in placement order."""
    targets: dict[str, Target] = {}
    eq = 0
    for s, (t, claims) in enumerate(topics, 1):
        targets[f"section:{t}"] = Target("Section", str(s), f"topic-{t}")
        for k, c in enumerate(claims, 1):
            targets[f"claim:{c.id}"] = Target(claim_word(c), f"{s}.{k}", f"claim-{c.id}")
            if c.formula is not None:
                eq += 1
                targets[f"eq:{c.id}"] = Target("", str(eq), f"eq-{c.id}")
    for name, n in figure_numbers(placement(topics, figures)).items():
        targets[f"fig:{name}"] = Target("Figure", str(n), f"fig-{name}")
    targets["table:rules"] = Target("Table", "1", "table-rules")
    return Numbering(targets)


def document_numbering(topics, figures: Iterable[str] = (), pages: bool = False) -> Numbering:
    r"""The export's numbering (:func:`derivations.export.common.numbering` where there is one, else
    :func:`local_numbering`); with ``pages`` each target names its Markdown page (``rope.md``; the index holds the
    rules table), else every target is on this page."""
    figures = list(figures)
    shared = getattr(common, "numbering", None)
    numbering = shared(topics, figures) if shared is not None else local_numbering(topics, figures)
    page_of = {f"section:{t}": f"{t}.md" for t, _ in topics} | {"table:rules": "index.md"}
    for t, claims in topics:
        page_of |= {f"claim:{c.id}": f"{t}.md" for c in claims} | {f"eq:{c.id}": f"{t}.md" for c in claims}
    for claim_id, names in placement(topics, figures).items():
        page = page_of.get(f"claim:{claim_id}", "")
        page_of |= {f"fig:{n}": page for n in names}
    return Numbering(
        {k: replace(v, page=page_of.get(k, v.page) if pages else "") for k, v in numbering.targets.items()}
    )


def claim_blocks(c, audience: str) -> list:
    r"""The blocks of a claim for ``audience`` (the blocks printer's default where it takes no audience)."""
    if "audience" not in inspect.signature(blocks).parameters:  # a printer without the keyword yet
        return blocks(c)
    loose: Callable[..., Any] = blocks
    return loose(c, audience=audience)


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
            bs = claim_blocks(c, audience)
            parts.append(markdown_format.blocks_markdown(bs, 2, refs=refs, anchors=anchors, audience=audience))
            for name in places.get(c.id, ()):
                spec = plots.PLOTS[name]
                fig = refs.get(f"fig:{name}")
                number = fig.number if fig is not None else "?"
                image = f"![{spec.title}](figures/{name}.svg)"
                parts += [
                    f"Figure {number} draws this: {lower_first(spec.title)}.",
                    "",
                    *([f"{image}{{#fig-{name}}}"] if anchors == "mkdocs" else [f"(fig-{name})=", image]),
                    "",
                    f"*Figure {number}.* {md(spec.caption)}",
                    "",
                ]
        files[f"{t}.md"] = "\n".join(parts).encode()
    files |= {f"figures/{n}.svg": b for n, b in figures.items()}
    index = [f"# {TITLE}", "", ABSTRACT, "", "## Contents", ""]
    for s, (t, claims) in enumerate(topics, 1):
        index.append(f"{s}. [{topic_title(t)}]({t}.md) ({len(claims)} claims)")
    table = rules_table("markdown")
    rules = refs.get("table:rules")
    if table is not None:
        heading = markdown_format.anchored("## The rules table", rules.anchor if rules else "", anchors)
        index += ["", *heading, "", markdown_format.table_math_bars(table)]
    index += ["", "## References", ""]
    for source, ids in references(topics):
        cited = [refs.get(f"claim:{i}") for i in ids]
        names = [link(x, "index.md") if x is not None else f"`{i}`" for x, i in zip(cited, ids, strict=True)]
        index.append(f"- {prose(source, 'markdown')}. Cited in {', '.join(names)}.")
    if anchors == "myst":
        index += ["", "```{toctree}", ":hidden:", "", *(t for t, _ in topics), "```"]
    files["index.md"] = ("\n".join(index) + "\n").encode()
    nav = ["nav:", '  - "Contents": index.md']
    nav += [f"  - {json.dumps(f'{s}. {topic_title(t)}')}: {t}.md" for s, (t, _) in enumerate(topics, 1)]
    files["nav.yml"] = ("\n".join(nav) + "\n").encode()
    return files, note


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
    table = rules_table("html", math)
    sections = [(f"topic-{t}", f"{s}. {topic_title(t)}") for s, (t, _) in enumerate(topics, 1)]
    rules = refs.get("table:rules")
    rules_anchor = rules.anchor if rules is not None else "table-rules"
    if table is not None:
        sections.append((rules_anchor, "The rules table"))
    sections.append(("references", "References"))
    toc = "".join(f'<li><a href="#{a}">{html.escape(title)}</a></li>' for a, title in sections)
    parts = [f"<h1>{html.escape(TITLE)}</h1>", f"<p>{html.escape(ABSTRACT)}</p>"]
    if not math.katex:
        parts.append(f'<p class="mathml-note" role="note">{html.escape(MATHML_NOTE)}</p>')
    parts.append(f'<nav aria-label="Contents"><h2>Contents</h2><ul class="toc">{toc}</ul></nav>')
    for s, (t, claims) in enumerate(topics, 1):
        parts.append(f'<h2 id="topic-{t}"><span class="number">{s}.</span> {html.escape(topic_title(t))}</h2>')
        for c in each_claim(claims, tick):
            parts.append(blocks_html(claim_blocks(c, audience), math, refs=refs, audience=audience))
            for name in places.get(c.id, ()):
                cap = text_html(plots.PLOTS[name].caption, math, refs)
                parts.append(
                    f'<p><a href="#fig-{name}">Figure {numbers[name]}</a> draws this: '
                    f"{html.escape(lower_first(plots.PLOTS[name].title))}.</p>"
                    f'<figure id="fig-{name}">{_svg_body(figures[name])}'
                    f"<figcaption>Figure {numbers[name]}. {cap}</figcaption></figure>"
                )
    if table is not None:
        parts += [f'<h2 id="{rules_anchor}">The rules table</h2>', f'<div class="tablewrap">{table}</div>']
    cited = lambda i: refs.get(f"claim:{i}") or Target("", i, f"claim-{i}")  # noqa: E731
    items = "".join(
        f"<li>{prose(s, 'html', math)}. Cited in "
        + ", ".join(
            f'<a href="#{html.escape(cited(i).anchor)}">{html.escape(f"{cited(i).word} {cited(i).number}".strip())}</a>'
            for i in ids
        )
        + ".</li>"
        for s, ids in references(topics)
    )
    parts += ['<h2 id="references">References</h2>', f"<ul>{items}</ul>"]
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
