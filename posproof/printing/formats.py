r"""The output formats: their names and short aliases, once for every command (:data:`FORMATS`,
:data:`ALIASES`, :func:`format_names`, :func:`canonical_format`), and :func:`render` of one claim in any of them.
"""

from __future__ import annotations

from posproof.printing.html import claim_html
from posproof.printing.latex import identity_latex
from posproof.printing.markdown import identity_markdown
from posproof.printing.text import identity_text

#: Every output format posproof writes.
FORMATS = ("latex", "markdown", "text", "json", "html")

#: Short names accepted for a format (``--format md``).
ALIASES = {"tex": "latex", "md": "markdown", "txt": "text"}

#: The formats one claim is rendered in by :func:`render` (JSON is :func:`~posproof.printing.json.as_json`).
RENDERED = ("latex", "markdown", "text", "html")


def format_names(*formats: str) -> dict[str, str]:
    r"""What a ``--format`` option accepts: each of ``formats``, then its alias, mapped to the format.

    >>> format_names("text", "markdown")
    {'text': 'text', 'txt': 'text', 'markdown': 'markdown', 'md': 'markdown'}
    """
    out = {}
    for f in formats:
        if f not in FORMATS:
            raise ValueError(f"unknown format {f!r}")
        out[f] = f
        out |= {alias: f for alias, g in ALIASES.items() if g == f}
    return out


def canonical_format(name: str) -> str:
    r"""The format a name or alias stands for (``md`` -> ``markdown``)."""
    names = format_names(*FORMATS)
    if name not in names:
        raise ValueError(f"format must be one of {', '.join(names)}, got {name!r}")
    return names[name]


def render(c, fmt: str) -> str:
    r"""One claim in ``fmt`` (``latex``, ``markdown``, ``text``, ``html``: math set by KaTeX)."""
    if fmt not in RENDERED:
        raise ValueError(f"format must be one of {', '.join(RENDERED)}, got {fmt!r}")
    return {"latex": identity_latex, "markdown": identity_markdown, "text": identity_text, "html": claim_html}[fmt](c)
