r"""Cross-references in prose: ``[[claim:ID]]``, ``[[fig:NAME]]``, ``[[eq:ID]]``, ``[[table:rules]]`` and
``[[section:TOPIC]]`` name a numbered thing of the document; each format resolves them through a
:class:`Numbering` (the export's, or none: a single claim printed alone).

A paper cites by number with a link (Theorem 4.6, Figure 3, (12)); the reference audience, and a claim printed
without a document, cites by id.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

#: A reference token in prose (outside ``$...$`` math and code).
TOKEN = re.compile(r"\[\[(?P<kind>claim|fig|eq|table|section):(?P<key>[A-Za-z0-9_.-]+)\]\]")


@dataclass(frozen=True)
class Target:
    r"""One numbered thing: ``word`` (``Theorem``, ``Definition``, ``Figure``, ``Table``, ``Section``; empty for an
    equation, cited as ``(12)``), its ``number`` (``4.6``), its ``anchor`` (``claim-ID``, a LaTeX label is
    ``claim:ID``) and the ``page`` holding it (a Markdown file, ``rope.md``; empty: this page)."""

    word: str
    number: str
    anchor: str
    page: str = ""


@dataclass(frozen=True)
class Numbering:
    r"""Every numbered thing of a document by its token key (``claim:ID``, ``fig:NAME``, ``eq:ID`` …)."""

    targets: Mapping[str, Target] = field(default_factory=dict)

    def get(self, key: str) -> Target | None:
        return self.targets.get(key)


#: No document: references print as ids.
NONE = Numbering()

#: What a reference to a part that only a whole document has reads as, printed without one.
FALLBACK = {"section:record": "its verification record"}


def _code(key: str, fmt: str) -> str:
    if fmt == "latex":
        return r"\texttt{%s}" % key.replace("_", r"\_")
    if fmt == "markdown":
        return f"`{key}`"
    if fmt == "html":
        return f"<code>{html.escape(key)}</code>"
    return key


def cite(kind: str, key: str, fmt: str, refs: Numbering | None = None) -> str:
    r"""A reference token ``[[kind:key]]`` in one format (``latex``, ``markdown``, ``html``, ``text``): with a
    target in ``refs``, its word and number with a link (an equation as its number in parentheses); without one,
    the key in code, as a claim printed alone cites.

    >>> n = Numbering({"claim:a": Target("Theorem", "4.6", "claim-a", "rope.md"), "eq:a": Target("", "12", "eq-a")})
    >>> cite("claim", "a", "latex", n), cite("claim", "a", "markdown", n), cite("eq", "a", "html", n)
    ('Theorem~\\ref{claim:a}', '[Theorem 4.6](rope.md#claim-a)', '<a href="#eq-a">(12)</a>')
    >>> cite("claim", "a", "markdown"), cite("fig", "x", "text", n)
    ('`a`', 'x')
    """
    if fmt not in ("latex", "markdown", "html", "text"):
        raise ValueError(f"fmt must be latex, markdown, html or text, not {fmt!r}")
    target = (refs or NONE).get(f"{kind}:{key}")
    if target is None:
        return FALLBACK.get(f"{kind}:{key}") or _code(key, fmt)
    label = f"{kind}:{key}"
    shown = f"({target.number})" if not target.word else f"{target.word} {target.number}"
    if fmt == "latex":
        return r"\eqref{%s}" % label if not target.word else r"%s~\ref{%s}" % (target.word, label)
    href = f"{target.page}#{target.anchor}"
    if fmt == "markdown":
        return f"[{shown}]({href})"
    if fmt == "html":
        return f'<a href="{html.escape(href)}">{html.escape(shown)}</a>'
    return shown


def resolve(text: str, fmt: str, refs: Numbering | None = None) -> str:
    r"""Every token of some already typeset text in one format (:func:`cite`)."""
    return TOKEN.sub(lambda m: cite(m.group("kind"), m.group("key"), fmt, refs), text)
