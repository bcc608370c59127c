r"""What every format of ``posproof export`` shares: the topics and their titles, the references, the rules
table, the figures and where they go."""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Iterable, Iterator

import sympy as sp
from posproof.derivations.commands import properties
from posproof.symbolic.sources import Work

from posproof.printing.blocks import NUMERIC_CHECK
from posproof.printing.html import (
    OutputError,
)
from posproof.printing.refs import Numbering, Target
from posproof.printing.voice import environment

#: The file an export leaves in its directory: what it wrote (so that it may replace it next time).

MARKER = ".posproof-export.json"

#: Section titles of the topics (registry tags), in reading order.
TOPIC_TITLES = {
    "order": "Order, and the first position codes",
    "sinusoidal": "The sinusoidal encoding",
    "relative": "Relative positions: Transformer-XL, DeBERTa, T5, ALiBi",
    "kernels": "Relative bias kernels: FIRE, Sandwich, KERPLE",
    "rope": "Rotary position embedding (RoPE)",
    "extension": "Context extension",
    "remapping": "Position remapping at inference: Self-Extend, ReRoPE, shifting a KV cache",
    "temperature": "Layers without positions, and length-dependent temperature",
    "multiaxis": "Multi-axis RoPE: M-RoPE and axial 2-D",
    "properties": "The three rules, scheme by scheme",
    "article": "'Positional Encoding 101', statement by statement",
    "lemmas": "Lemmas: proved once, for every size, and cited by the proofs above",
}

TITLE = "posproof: verified derivations of transformer positional encodings"
ABSTRACT = (
    "Every theorem below is proved step by step with SymPy, and every step is checked again numerically against "
    "the NumPy and mpmath code of posproof at 50 significant digits; definitions are checked against the code "
    "that implements them, and facts are recomputed. Each claim ends with one line saying how it was checked; "
    "the verification record (the rewritings of each step, the points and digits of the numeric check, the wrong "
    "version each check refutes) is the appendix."
)
#: The abstract of the reference voice (``--audience reference``), whose steps carry their strategies.
ABSTRACT_REFERENCE = (
    "Every theorem below is proved step by step with SymPy, and every step is checked again numerically against "
    "the NumPy and mpmath code of posproof at 50 significant digits; definitions are checked against the code "
    "that implements them, and facts are recomputed. Each step shows its justification and, in brackets, the "
    "named strategies that prove it."
)
#: The appendix that holds the verification record, and the sentence that opens it.
RECORD_TITLE = "The verification record"
RECORD_INTRO = (
    "For each claim: the named rewritings that prove its steps (each an equivalence under the declared "
    "assumptions), what a definition or a computation is checked with, and the deliberately wrong version the "
    "same check refutes. " + NUMERIC_CHECK + " `posproof derive ID --audience reference` prints one claim with "
    "this detail beside each step."
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


def topics_all() -> list[tuple[str, tuple]]:
    from posproof.symbolic import registry

    return [(t, registry.topic(t)) for t in registry.TOPICS if registry.topic(t)]


def topic_title(topic: str) -> str:
    return TOPIC_TITLES.get(topic, topic)


# ==============================================================================================================
# The numbering every format shares
# ==============================================================================================================


def stated(c) -> bool:
    r"""Whether the claim displays a numbered statement (a formula that is not the constant true or false)."""
    return c.formula is not None and not isinstance(c.formula, sp.logic.boolalg.BooleanAtom)


def numbering(topics, figures: Iterable[str] = ()) -> Numbering:
    r"""The document's numbering: section ``s`` per topic, claim ``s.k`` (one counter for every kind, as
    ``posproof.sty`` numbers them), statements ``(1)``, ``(2)`` … in claim order, figures in placement order, the
    rules table, the appendix with the verification record."""
    targets: dict[str, Target] = {}
    eq = 0
    for s, (t, claims) in enumerate(topics, 1):
        targets[f"section:{t}"] = Target("Section", str(s), f"topic-{t}")
        for k, c in enumerate(claims, 1):
            targets[f"claim:{c.id}"] = Target(environment(c), f"{s}.{k}", f"claim-{c.id}")
            if stated(c):
                eq += 1
                targets[f"eq:{c.id}"] = Target("", str(eq), f"eq-{c.id}")
    for name, n in figure_numbers(placement(topics, figures)).items():
        targets[f"fig:{name}"] = Target("Figure", str(n), f"fig-{name}")
    targets["table:rules"] = Target("Table", "1", "table-rules")
    targets["section:record"] = Target("Appendix", "A", "appendix-record")
    return Numbering(targets)


def figure_lead(name: str) -> str:
    r"""The sentence that announces a figure after the claim it draws (catalogue prose: a reference token)."""
    from posproof.derivations import plots

    return f"[[fig:{name}]] shows {lower_first(plots.PLOTS[name].title)}."


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


def works_cited(topics: Iterable[tuple[str, tuple]]) -> list[tuple[Work | None, str, list[str]]]:
    r""":func:`references` with each entry's record (:data:`posproof.symbolic.sources.RECORDS`; ``None`` for a
    source no record names, a user's own claims'): ``(work, entry, claim ids)``."""
    from posproof.symbolic.sources import RECORDS

    by_entry = {w.entry: w for w in RECORDS}
    return [(by_entry.get(entry), entry, ids) for entry, ids in references(topics)]


# ---- the rules table -------------------------------------------------------------------------------------------------

#: The rules table per format (:mod:`derivations.commands.properties`): a function returning it as LaTeX, Markdown or
#: HTML
#: (no arguments). ``None`` leaves the table out; HTML falls back to the Markdown table.
RULES_TABLE: dict[str, Callable[..., str] | None] = {
    "latex": properties.table_latex,
    "markdown": properties.table_markdown,
    "html": properties.table_html,
}


def rules_table(
    fmt: str, math: Callable[[str, bool], str] | None = None, *, refs: Numbering | None = None
) -> str | None:
    r"""The rules table in ``fmt`` (``latex``, ``markdown``, ``html``) from :data:`RULES_TABLE`, or ``None``;
    HTML sets its formulas through ``math(tex, display)``; ``refs`` (the export's numbering) cites the claims."""
    fn = RULES_TABLE[fmt]
    if fn is not None:
        return str(fn(math, refs=refs)) if fmt == "html" else str(fn(refs=refs))
    if fmt == "html":
        table = rules_table("markdown", refs=refs)
        return None if table is None else markdown_table_html(table)
    return None


def markdown_table_html(table: str) -> str:
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


def figures_in(suffix: str, tick: Callable[[str], None] | None = None) -> tuple[dict[str, bytes], str]:
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


def draw_all(suffix: str) -> dict[str, bytes]:
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
        mine = [f for f in figures if f in figures_of(t)]
        ids = {c.id for c in claims}
        for c in claims:
            here = [f for f in mine if plots.PLOTS[f].claim == c.id]
            if c is claims[-1]:
                here += [f for f in mine if plots.PLOTS[f].claim not in ids]
            if here:
                out[c.id] = here
    return out


def figure_numbers(places: dict[str, list[str]]) -> dict[str, int]:
    return {name: k for k, name in enumerate((n for names in places.values() for n in names), 1)}


def figures_of(topic: str) -> list[str]:
    from posproof.derivations import plots

    return [name for name, spec in plots.PLOTS.items() if spec.topic == topic]


def lower_first(title: str) -> str:
    r"""A figure title inside a sentence: ``Sinusoidal heatmap`` → ``sinusoidal heatmap``; a first word that is
    not a plain capitalised word (``T5 ...``, ``RoPE ...``) is kept."""
    first = title.split(" ", 1)[0]
    return title[0].lower() + title[1:] if first[1:].isalpha() and first[1:].islower() else title


#: The name :func:`html_page` ticks with once the page's math is set (KaTeX or MathML).
MATH = "the math"
