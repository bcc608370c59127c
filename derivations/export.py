r"""``posproof export``: every derivation, as a LaTeX document, Markdown, one HTML page, text or JSON.

The files are built in memory, then written atomically (a temporary file renamed over the target), byte for byte
the same on every run (no dates; figures with fixed metadata). A marker file, :data:`MARKER`, lists what an
export wrote: the next export into that directory replaces those files and removes the ones it no longer writes,
and an export refuses a non-empty directory without the marker unless ``force`` is given.

* ``latex``: ``posproof.tex`` (title, contents, one section per topic, the figures, the rules table when
  :mod:`derivations.commands.properties` provides it, the references) ``\input``\ s one file per topic; ``pdflatex``
  compiles it with no overfull box.
* ``markdown``: ``index.md`` and one file per topic, with ``$...$``/``$$...$$`` math (GitHub, Jupyter, MkDocs)
  and SVG figures in ``figures/``.
* ``html``: one self-contained page, ``posproof.html``: the math set by KaTeX when exporting (KaTeX's stylesheet
  and fonts inlined) where Node.js and the katex package are installed, else as MathML (pure Python), the figures
  inlined as SVG; nothing is fetched when it is viewed.
* ``text`` and ``json``: one file per topic (a JSON topic file is a ``posproof.export/1`` document whose
  ``claims`` are ``posproof.claim/1`` documents, the ones ``posproof derive ID --format json`` prints).

:func:`build` and :func:`write` take optional callbacks for a progress bar (:data:`Progress`: after each claim
rendered and each figure drawn; after each file written); the command draws the bar.
"""

from __future__ import annotations

import contextlib
import functools
import html
import json
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from posproof.derivations import machine
from posproof.derivations.commands import properties
from posproof.numeric import _io

from posproof.printing import latex as latex_format
from posproof.printing import markdown as markdown_format
from posproof.printing import text as text_format
from posproof.printing.blocks import blocks
from posproof.printing.html import (
    OutputError,
    PageMath,
    blocks_html,
    katex_css,
    katex_dir,
)
from posproof.printing.json import as_json
from posproof.printing.prose import prose

#: The file an export leaves in its directory: what it wrote (so that it may replace it next time).
MARKER = ".posproof-export.json"

#: Section titles of the topics (registry tags), in reading order.
TOPIC_TITLES = {
    "order": "Order, and the first position codes",
    "sinusoidal": "The sinusoidal encoding",
    "relative": "Relative positions: Transformer-XL, DeBERTa, T5, ALiBi",
    "rope": "Rotary position embedding (RoPE)",
    "extension": "Context extension",
    "multiaxis": "Multi-axis RoPE: M-RoPE and axial 2-D",
    "properties": "The three rules, scheme by scheme",
    "article": "'Positional Encoding 101', statement by statement",
    "lemmas": "Lemmas: proved once, for every size, and cited by the proofs above",
}

TITLE = "posproof: verified derivations of transformer positional encodings"
ABSTRACT = (
    "Every theorem below is proved step by step with SymPy, and every step is checked again numerically against "
    "the NumPy and mpmath code of posproof at 50 significant digits; definitions are checked against the code "
    "that implements them, and facts are recomputed. Each step shows its justification and, in brackets, the "
    "named strategies that prove it."
)


#: An export that cannot be written (the directory, or a missing tool): one line for the user.
ExportError = OutputError

#: A progress callback: called after each item of work with the item's name (a claim id, a figure, a file) and the
#: number of items in all.
Progress = Callable[[str, int], None]


def ticker(progress: Progress | None, total: int) -> Callable[[str], None]:
    r"""``tick(name)``: one item of ``total`` done, told to ``progress`` (nothing without one)."""
    if progress is None:
        return lambda name: None
    return lambda name: progress(name, total)


def each_claim(claims, tick: Callable[[str], None] | None) -> Iterator:
    r"""The claims, ticking after each one is rendered."""
    for c in claims:
        yield c
        if tick is not None:
            tick(c.id)


# ==============================================================================================================
# The claims, by topic
# ==============================================================================================================


def _topics() -> list[tuple[str, tuple]]:
    from posproof.symbolic import registry

    return [(t, registry.topic(t)) for t in registry.TOPICS if registry.topic(t)]


def topic_title(topic: str) -> str:
    return TOPIC_TITLES.get(topic, topic)


def references(topics: Iterable[tuple[str, tuple]]) -> list[tuple[str, list[str]]]:
    r"""Every work cited, once (:func:`symbolic.sources.work`: its arXiv id or URL), in order of first
    citation, with the ids of the claims that cite it."""
    from posproof.symbolic.sources import work

    out: dict[str, list[str]] = {}
    for _, claims in topics:
        for c in claims:
            for source in c.source.split("; "):
                ids = out.setdefault(work(source), [])
                if c.id not in ids:
                    ids.append(c.id)
    return list(out.items())


# ---- the rules table -------------------------------------------------------------------------------------------------

#: The rules table per format (:mod:`derivations.commands.properties`): a function returning it as LaTeX, Markdown or
#: HTML
#: (no arguments). ``None`` leaves the table out; HTML falls back to the Markdown table.
RULES_TABLE: dict[str, Callable[..., str] | None] = {
    "latex": properties.table_latex,
    "markdown": properties.table_markdown,
    "html": properties.table_html,
}


def rules_table(fmt: str, math: Callable[[str, bool], str] | None = None) -> str | None:
    r"""The rules table in ``fmt`` (``latex``, ``markdown``, ``html``) from :data:`RULES_TABLE`, or ``None``;
    HTML sets its formulas through ``math(tex, display)``."""
    fn = RULES_TABLE[fmt]
    if fn is not None:
        return str(fn(math)) if fmt == "html" else str(fn())
    if fmt == "html":
        table = rules_table("markdown")
        return None if table is None else _markdown_table_html(table)
    return None


def _markdown_table_html(table: str) -> str:
    r"""A Markdown pipe table as an HTML table (cells escaped; backticks become code)."""
    rows = [line.strip().strip("|").split("|") for line in table.strip().splitlines() if line.strip().startswith("|")]
    rows = [r for r in rows if not all(set(c.strip()) <= set("-: ") for c in r)]
    cell = lambda c: re.sub(  # noqa: E731
        r"`([^`]*)`", r"<code>\1</code>", html.escape(c.strip()).replace("&lt;br&gt;", " ")
    )
    head = "".join(f"<th>{cell(c)}</th>" for c in rows[0]) if rows else ""
    body = "".join("<tr>" + "".join(f"<td>{cell(c)}</td>" for c in r) + "</tr>" for r in rows[1:])
    return f'<table class="rules"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


# ==============================================================================================================
# Figures
# ==============================================================================================================


def _figures(suffix: str, tick: Callable[[str], None] | None = None) -> tuple[dict[str, bytes], str]:
    r"""Every figure as ``{name: bytes}`` in ``suffix`` (``pdf``, ``svg``), or nothing and a note saying why;
    ``tick(name)`` after each figure is drawn."""
    from posproof.derivations import plots

    if not plots.available():
        return {}, plots.INSTALL
    out = {}
    for name in plots.PLOTS:
        out[name] = _draw(name, suffix)
        if tick is not None:
            tick(name)
    return out, ""


@functools.cache
def _draw(name: str, suffix: str) -> bytes:
    r"""One figure, drawn once per process (the bytes are the same on every run)."""
    from posproof.derivations import plots

    return plots.plot_bytes(name, suffix)


def _draw_all(suffix: str) -> dict[str, bytes]:
    r"""Every figure in ``suffix``, each drawn once per process."""
    from posproof.derivations import plots

    return {name: _draw(name, suffix) for name in plots.PLOTS}


def placement(topics, figures: Iterable[str]) -> dict[str, list[str]]:
    r"""Where each figure goes: ``{claim id: [figure names]}``, after the claim it draws (a figure of no claim of
    its topic after the topic's last claim); every format places and numbers the figures in this order."""
    from posproof.derivations import plots

    figures = list(figures)
    out: dict[str, list[str]] = {}
    for t, claims in topics:
        if not claims:
            continue
        mine = [f for f in figures if f in _figures_of(t)]
        ids = {c.id for c in claims}
        for c in claims:
            here = [f for f in mine if plots.PLOTS[f].claim == c.id]
            if c is claims[-1]:
                here += [f for f in mine if plots.PLOTS[f].claim not in ids]
            if here:
                out[c.id] = here
    return out


def _numbers(places: dict[str, list[str]]) -> dict[str, int]:
    return {name: k for k, name in enumerate((n for names in places.values() for n in names), 1)}


def _figures_of(topic: str) -> list[str]:
    from posproof.derivations import plots

    return [name for name, spec in plots.PLOTS.items() if spec.topic == topic]


# ==============================================================================================================
# LaTeX
# ==============================================================================================================

PREAMBLE = r"""\documentclass[a4paper]{article}
\usepackage{amsmath,amssymb}
\usepackage[margin=2cm]{geometry}
\usepackage{graphicx}
\usepackage{array}
\allowdisplaybreaks
\setlength{\parindent}{0pt}
\setlength{\parskip}{3pt plus 1pt}
\setlength{\emergencystretch}{3em}
\setcounter{tocdepth}{1}
\renewcommand{\labelitemi}{$\bullet$}
% Figures stay in their section: at its end, the ones LaTeX has deferred are set before the next section starts.
\makeatletter
\newcommand{\placefigures}{\ifx\@deferlist\@empty\else\clearpage\fi}
% A claim's heading is never stranded at the foot of a page: with less than 7 lines left, it starts the next one
% (unless it follows a section heading, which must not be left alone either).
\let\posproof@subsection\subsection
\renewcommand{\subsection}{\par\if@nobreak\else\ifdim\pagegoal<\maxdimen
  \ifdim\dimexpr\pagegoal-\pagetotal\relax<7\baselineskip\newpage\fi\fi\fi\posproof@subsection}
\makeatother
"""


def _latex_figure(name: str) -> str:
    from posproof.derivations import plots

    spec = plots.PLOTS[name]
    return (
        "\\begin{figure}[htbp]\n\\centering\n"
        f"\\includegraphics[width={'' if name in plots.WIDE else '0.9'}\\linewidth]{{figures/{name}.pdf}}\n"
        f"\\caption{{{prose(spec.caption, 'latex')}}}\\label{{fig:{name}}}\n\\end{{figure}}"
    )


def _figure_reference(name: str) -> str:
    from posproof.derivations import plots

    return f"Figure~\\ref{{fig:{name}}} draws this: {_tex_text(_lower_first(plots.PLOTS[name].title))}."


def _lower_first(title: str) -> str:
    r"""A figure title inside a sentence: ``Sinusoidal heatmap`` → ``sinusoidal heatmap``; a first word that is
    not a plain capitalised word (``T5 ...``, ``RoPE ...``) is kept."""
    first = title.split(" ", 1)[0]
    return title[0].lower() + title[1:] if first[1:].isalpha() and first[1:].islower() else title


def topic_file(topic: str, claims, figures: Iterable[str] = (), tick: Callable[[str], None] | None = None) -> str:
    r"""One topic's LaTeX: its claims, each figure referenced from the claim it draws and set right after it
    (:func:`placement`); ``tick(claim id)`` after each claim."""
    places = placement([(topic, claims)], figures)
    parts = []
    for c in each_claim(claims, tick):
        text = latex_format.identity_latex(c)
        mine = places.get(c.id, [])
        if mine:
            text += "\n" + " ".join(_figure_reference(f) for f in mine) + "\n\n" + "\n".join(map(_latex_figure, mine))
            text += "\n"
        parts.append(text)
    return "\n".join(parts)


def latex_document(topics: list[str], figures: Iterable[str] = (), rules: bool = False, refs=()) -> str:
    r"""The standalone document: title, contents, one section per topic (``\input``; its figures are set in it,
    see :func:`topic_file`), the rules table (``\input{rules}``), the references."""
    body = []
    for t in topics:
        body.append(f"\\section{{{_tex_text(topic_title(t))}}}\\label{{topic:{t}}}\n\\input{{{t}}}\n\\placefigures")
    if rules:
        body.append(
            "\\section{The rules table}\\label{rules}\n"
            "Table~\\ref{tab:rules} judges every scheme by the three rules; each cell names the claim that decides it"
            + (
                " (Section~\\ref{topic:properties} proves the cells no scheme's own section decides).\n\n"
                if "properties" in topics
                else ".\n\n"
            )
            + "{\\small\\input{rules}}"
        )
    if refs:
        items = []
        for source, ids in refs:
            cited = ", ".join(f"\\ref{{claim:{i}}}" for i in ids)
            items.append(f"\\item {prose(source, 'latex')}. Cited in {cited}.")
        body.append(
            "\\section*{References}\n\\addcontentsline{toc}{section}{References}\n{\\raggedright\n\\begin{itemize}\n"
        )
        body[-1] += "\n".join(items) + "\n\\end{itemize}\n}"
    return (
        PREAMBLE
        + f"\\title{{{_tex_text(TITLE)}}}\n\\author{{posproof {_tex_text(_version())}}}\n\\date{{}}\n"
        + "\\begin{document}\n\\maketitle\n"
        + f"\\begin{{abstract}}\n{prose(ABSTRACT, 'latex')}\n\\end{{abstract}}\n\\tableofcontents\n\\clearpage\n"
        + "\n".join(body)
        + "\n\\end{document}\n"
    )


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("posproof")
    except PackageNotFoundError:  # pragma: no cover - a source tree that was never installed
        return "(source tree)"


def _tex_text(s: str) -> str:
    return prose(s, "latex")


def _latex_files(topics, with_figures: bool, tick: Callable[[str], None]) -> tuple[dict[str, bytes], str]:
    figures, note = _figures("pdf", tick) if with_figures else ({}, "")
    files = {f"{t}.tex": topic_file(t, claims, figures, tick).encode() for t, claims in topics}
    files |= {f"figures/{n}.pdf": b for n, b in figures.items()}
    table = rules_table("latex")
    if table is not None:
        files["rules.tex"] = table.encode()
    doc = latex_document([t for t, _ in topics], figures, table is not None, references(topics))
    files["posproof.tex"] = doc.encode()
    return files, note


# ==============================================================================================================
# Markdown
# ==============================================================================================================


def _markdown_files(topics, with_figures: bool, tick: Callable[[str], None]) -> tuple[dict[str, bytes], str]:
    from posproof.derivations import plots

    figures, note = _figures("svg", tick) if with_figures else ({}, "")
    files = {}
    places = placement(topics, figures)
    numbers = _numbers(places)
    for t, claims in topics:
        parts = [f"# {topic_title(t)}", ""]
        for c in each_claim(claims, tick):
            parts.append(markdown_format.blocks_markdown(blocks(c)))
            for name in places.get(c.id, ()):
                spec = plots.PLOTS[name]
                parts += [
                    f"Figure {numbers[name]} draws this: {_lower_first(spec.title)}.",
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
    figures, note = _figures("svg", tick) if with_figures else ({}, "")
    toc = "".join(f'<li><a href="#topic-{t}">{html.escape(topic_title(t))}</a></li>' for t, _ in topics)
    parts = [f"<h1>{html.escape(TITLE)}</h1>", f"<p>{html.escape(ABSTRACT)}</p>", f"<nav><ol>{toc}</ol></nav>"]
    places = placement(topics, figures)
    numbers = _numbers(places)
    for t, claims in topics:
        parts.append(f'<h2 id="topic-{t}">{html.escape(topic_title(t))}</h2>')
        for c in each_claim(claims, tick):
            parts.append(blocks_html(blocks(c), math))
            for name in places.get(c.id, ()):
                cap = prose(plots.PLOTS[name].caption, "html", math)
                parts.append(
                    f'<p><a href="#fig-{name}">Figure {numbers[name]}</a> draws this: '
                    f"{html.escape(_lower_first(plots.PLOTS[name].title))}.</p>"
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


# ==============================================================================================================
# Writing: deterministic, atomic, never over a directory someone else wrote
# ==============================================================================================================

SUFFIX = {"latex": "tex", "markdown": "md", "text": "txt", "json": "json", "html": "html"}


#: The name :func:`html_page` ticks with once the page's math is set (KaTeX or MathML).
MATH = "the math"


def claim_document(c) -> dict:
    r"""One claim as the JSON document ``posproof derive ID --format json`` prints: ``schema`` is
    ``posproof.claim/1`` (``derivations/schemas/claim.schema.json``), the rest
    :func:`posproof.printing.json.as_json`."""
    return machine.document("claim", as_json(c))


def topic_json(topic: str, claims, tick: Callable[[str], None] | None = None) -> bytes:
    r"""One topic's JSON file: a ``posproof.export/1`` document, the topic's tag and title and its claims'
    documents (:func:`claim_document`), in order; ``tick(claim id)`` after each claim."""
    body = {
        "topic": topic,
        "title": topic_title(topic),
        "claims": [claim_document(c) for c in each_claim(claims, tick)],
    }
    return (json.dumps(machine.document("export", body), indent=2) + "\n").encode()


def topic_text(claims, tick: Callable[[str], None] | None = None) -> bytes:
    r"""One topic's text file; ``tick(claim id)`` after each claim."""
    return "\n".join(text_format.claim_text(c) for c in each_claim(claims, tick)).encode()


def items(fmt: str, topics, with_figures: bool) -> int:
    r"""How many items :func:`build` ticks for (its progress bar's total): every claim, every figure it draws, and
    for HTML the setting of the math."""
    from posproof.derivations import plots

    drawn = with_figures and fmt in ("latex", "markdown", "html") and plots.available()
    return sum(len(cs) for _, cs in topics) + (len(plots.PLOTS) if drawn else 0) + (fmt == "html")


def build(fmt: str, with_figures: bool = True, progress: Progress | None = None) -> tuple[dict[str, bytes], list[str]]:
    r"""The files of an export as ``{relative path: bytes}``, and notes for the user (missing figures);
    ``progress(name, total)`` after each claim rendered and each figure drawn (:func:`items` of them)."""
    topics = _topics()
    tick = ticker(progress, items(fmt, topics, with_figures))
    notes: list[str] = []
    if fmt == "latex":
        files, note = _latex_files(topics, with_figures, tick)
    elif fmt == "markdown":
        files, note = _markdown_files(topics, with_figures, tick)
    elif fmt == "html":
        page, errors, note = html_page(topics, with_figures, tick=tick)
        if errors:
            raise ExportError(f"KaTeX could not set {len(errors)} formulas, first: {errors[0]}")
        files = {"posproof.html": page.encode()}
    elif fmt == "json":
        files = {f"{t}.json": topic_json(t, cs, tick) for t, cs in topics}
        note = ""
    elif fmt == "text":
        files = {f"{t}.txt": topic_text(cs, tick) for t, cs in topics}
        note = ""
    else:
        raise ValueError(f"format must be one of {', '.join(SUFFIX)}, got {fmt!r}")
    if note:
        notes.append(f"figures left out: {note}")
    return files, notes


def write_atomic(path: Path, data: bytes) -> None:
    r"""Write ``data`` to ``path`` atomically (:func:`posproof.numeric._io.write_atomic`: a temporary file beside
    it, renamed over it; a reader never sees half a file)."""
    _io.write_atomic(path, data)


def _previous(out: Path) -> list[str] | None:
    marker = out / MARKER
    if not marker.exists():
        return None
    try:
        return list(json.loads(marker.read_text(encoding="utf-8"))["files"])
    except (ValueError, KeyError, TypeError):
        return None


def check_target(out: Path, force: bool = False) -> None:
    r"""Refuse ``out`` before any work (:class:`ExportError`): a file, or a non-empty directory that no export
    wrote (no :data:`MARKER`) unless ``force``."""
    if out.exists() and not out.is_dir():
        raise ExportError(f"--out must be a directory, got the file {str(out)!r}")
    if out.is_dir() and not force and _previous(out) is None and any(out.iterdir()):
        raise ExportError(
            f"--out {str(out)!r} is not empty and was not written by posproof export; "
            "choose an empty directory or pass --force"
        )


@contextlib.contextmanager
def output_directory(out: Path, flag: str = "--out") -> Iterator[Path]:
    r"""Make ``out`` (and its missing parents) before the work, so that the system says now whether it can be
    made (:class:`ExportError` naming ``flag`` if not); if the work inside fails or is interrupted, the directories
    made here that are still empty are removed again."""
    made = [p for p in (out, *out.parents) if not p.exists()]
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ExportError(f"{flag}: cannot create {out}: {e.strerror or e}") from None
    try:
        yield out
    except BaseException:
        for directory in made:  # deepest first
            try:
                directory.rmdir()
            except OSError:  # not empty (or gone): what was written stays
                break
        raise


def write(out: Path, files: dict[str, bytes], force: bool = False, progress: Progress | None = None) -> list[Path]:
    r"""Write ``files`` under ``out`` atomically, record them in :data:`MARKER`, and remove the files the
    previous export there wrote and this one does not. A non-empty ``out`` without the marker is refused
    (:class:`ExportError`) unless ``force``. ``progress(relative path, len(files))`` after each file is written.
    Stopped part way (Ctrl-C; a system error, reported as :class:`ExportError`), each file written is whole and
    the marker names them, with the previous export's, so that the next export replaces them."""
    check_target(out, force)
    previous = (_previous(out) or []) if out.exists() else []
    written: list[Path] = []
    tick = ticker(progress, len(files))
    path = out
    try:
        out.mkdir(parents=True, exist_ok=True)
        for rel, data in sorted(files.items()):
            path = out / rel
            write_atomic(path, data)
            written.append(path)
            tick(rel)
        for rel in sorted(set(previous) - set(files)):
            path = out / rel
            if path.is_file() and out.resolve() in path.resolve().parents:
                path.unlink()
        path = out / MARKER
        write_atomic(path, (json.dumps({"files": sorted(files)}, indent=1) + "\n").encode())
    except BaseException as e:
        if written:
            done = sorted({*previous, *(p.relative_to(out).as_posix() for p in written)})
            with contextlib.suppress(OSError):
                write_atomic(out / MARKER, (json.dumps({"files": done}, indent=1) + "\n").encode())
        if isinstance(e, OSError):
            raise ExportError(f"--out: cannot write {path}: {e.strerror or e}") from None
        raise
    return written


def export(
    fmt: str,
    out: Path,
    force: bool = False,
    with_figures: bool = True,
    progress: Progress | None = None,
    on_write: Progress | None = None,
) -> tuple[list[Path], list[str]]:
    r"""Build and write one export; returns the paths written and notes for the user. ``out`` is refused before
    any work (:func:`check_target`); ``progress`` is told of the build (:func:`build`), ``on_write`` of each file
    written (:func:`write`)."""
    check_target(out, force)
    files, notes = build(fmt, with_figures, progress)
    return write(out, files, force, on_write), notes
