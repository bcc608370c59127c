r"""Cross-references in prose: ``[[claim:ID]]``, ``[[fig:NAME]]``, ``[[eq:ID]]``, ``[[table:rules]]`` and
``[[section:TOPIC]]`` name a numbered thing of the document; each format resolves them through a
:class:`Numbering` (the export's, or none: a single claim printed alone).

A paper cites by number with a link (Theorem 4.6, Figure 3, (12)); the reference audience, and a claim printed
without a document, cites by id.
"""

from __future__ import annotations

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
