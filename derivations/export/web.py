r"""The web exports: Markdown (``index.md`` and a file per topic) and the one HTML page."""

from __future__ import annotations

import html
from collections.abc import Callable

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
    PageMath,
    blocks_html,
    katex_css,
    katex_dir,
)
from posproof.printing.prose import prose

#: The file an export leaves in its directory: what it wrote (so that it may replace it next time).

# ==============================================================================================================
# Markdown
# ==============================================================================================================


def markdown_files(topics, with_figures: bool, tick: Callable[[str], None]) -> tuple[dict[str, bytes], str]:
    from posproof.derivations import plots

    figures, note = figures_in("svg", tick) if with_figures else ({}, "")
    files = {}
    places = placement(topics, figures)
    numbers = figure_numbers(places)
    for t, claims in topics:
        parts = [f"# {topic_title(t)}", ""]
        for c in each_claim(claims, tick):
            parts.append(markdown_format.blocks_markdown(blocks(c)))
            for name in places.get(c.id, ()):
                spec = plots.PLOTS[name]
                parts += [
                    f"Figure {numbers[name]} draws this: {lower_first(spec.title)}.",
                    "",
                    f"![{spec.title}](figures/{name}.svg)",
                    "",
                    f"*Figure {numbers[name]}.* {prose(spec.caption, 'markdown')}",
                    "",
                ]
        files[f"{t}.md"] = "\n".join(parts).encode()
    files |= {f"figures/{n}.svg": b for n, b in figures.items()}
    index = [f"# {TITLE}", "", ABSTRACT, "", "## Contents", ""]
    for t, claims in topics:
        index.append(f"- [{topic_title(t)}]({t}.md) ({len(claims)} claims)")
    table = rules_table("markdown")
    if table is not None:
        index += ["", "## The rules table", "", table]
    index += ["", "## References", ""]
    for source, ids in references(topics):
        index.append(f"- {prose(source, 'markdown')}. Cited in {', '.join(f'`{i}`' for i in ids)}.")
    files["index.md"] = ("\n".join(index) + "\n").encode()
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
"""


def _svg_body(svg: bytes) -> str:
    text = svg.decode()
    return text[text.index("<svg") :]


def html_page(
    topics, with_figures: bool = True, katex: bool | None = None, tick: Callable[[str], None] | None = None
) -> tuple[str, list[str], str]:
    r"""The self-contained page, the math errors (none expected) and a note on missing figures. The math is set
    by KaTeX when Node.js and the katex package are there (``katex=None``), else as MathML. ``tick(name)`` after
    each figure, each claim and the math."""
    from posproof.derivations import plots

    math = PageMath(katex)
    figures, note = figures_in("svg", tick) if with_figures else ({}, "")
    toc = "".join(f'<li><a href="#topic-{t}">{html.escape(topic_title(t))}</a></li>' for t, _ in topics)
    parts = [f"<h1>{html.escape(TITLE)}</h1>", f"<p>{html.escape(ABSTRACT)}</p>", f"<nav><ol>{toc}</ol></nav>"]
    places = placement(topics, figures)
    numbers = figure_numbers(places)
    for t, claims in topics:
        parts.append(f'<h2 id="topic-{t}">{html.escape(topic_title(t))}</h2>')
        for c in each_claim(claims, tick):
            parts.append(blocks_html(blocks(c), math))
            for name in places.get(c.id, ()):
                cap = prose(plots.PLOTS[name].caption, "html", math)
                parts.append(
                    f'<p><a href="#fig-{name}">Figure {numbers[name]}</a> draws this: '
                    f"{html.escape(lower_first(plots.PLOTS[name].title))}.</p>"
                    f'<figure id="fig-{name}">{_svg_body(figures[name])}'
                    f"<figcaption>Figure {numbers[name]}. {cap}</figcaption></figure>"
                )
    table = rules_table("html", math)
    if table is not None:
        parts += ['<h2 id="rules">The rules table</h2>', f'<div class="tablewrap">{table}</div>']
    refs = "".join(
        f"<li>{prose(s, 'html', math)}. Cited in "
        + ", ".join(f'<a href="#{html.escape(i)}">{html.escape(i)}</a>' for i in ids)
        + ".</li>"
        for s, ids in references(topics)
    )
    parts += ['<h2 id="references">References</h2>', f"<ul>{refs}</ul>"]
    body, errors = math.fill("\n".join(parts))
    if tick is not None:
        tick(MATH)
    kdir = katex_dir() if math.katex else None
    style = f"<style>{katex_css(kdir)}</style>\n" if kdir is not None else ""
    page = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(TITLE)}</title>\n{style}<style>{PAGE_CSS}</style>\n"
        f"</head>\n<body>\n{body}\n</body>\n</html>\n"
    )
    return page, errors, note
