r"""The output formats: :data:`FORMATS`, and :func:`render` of one claim in any of them."""

from __future__ import annotations

from .latex import identity_latex
from .markdown import identity_markdown
from .text import identity_text

FORMATS = ("latex", "markdown", "text", "html")


def render(c, fmt: str) -> str:
    r"""One claim in ``fmt`` (``latex``, ``markdown``, ``text``; ``html`` through :mod:`derivations.export`)."""
    if fmt == "html":
        from posproof.derivations.export import claim_html

        return claim_html(c)
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    return {"latex": identity_latex, "markdown": identity_markdown, "text": identity_text}[fmt](c)
