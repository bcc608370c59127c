r"""The bibliography of the cited works (:data:`posproof.symbolic.sources.RECORDS`) as BibTeX, as a LaTeX
``thebibliography``, and as one reference line of Markdown or HTML with its links."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from posproof.symbolic.sources import RECORDS, Work, record

#: BibTeX's entry type of each kind of work.
KINDS = ("article", "misc", "book")

#: Characters TeX reads as commands, written as text.
TEX_TEXT = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "§": r"\S{}",
    "Ł": r"{\L}",
    "é": r"{\'e}",
}

CODE = re.compile(r"`([^`]*)`")


def citation_key(source: str) -> str:
    r"""The citation key of the work a claim's source (one ``; ``-separated part) cites.

    >>> citation_key("Su et al. 2021, 'RoFormer' (arXiv:2104.09864), eq. 15")
    'su2021roformer'
    """
    w = record(source)
    if w is None:
        raise ValueError(f"source cites no work of the bibliography: {source!r}")
    return w.key


def cited(sources: Iterable[str]) -> list[Work]:
    r"""The works ``sources`` (claims' sources, each split on ``; ``) cite, once each, in order of first citation."""
    out: dict[str, Work] = {}
    for source in sources:
        for part in source.split("; "):
            w = record(part)
            if w is None:
                raise ValueError(f"source cites no work of the bibliography: {part!r}")
            out.setdefault(w.key, w)
    return list(out.values())


def cited_by(claims: Iterable) -> list[tuple[Work, list[str]]]:
    r"""Each work the claims cite, in order of first citation, with the ids of the claims that cite it."""
    out: dict[str, tuple[Work, list[str]]] = {}
    for c in claims:
        for w in cited([c.source]):
            ids = out.setdefault(w.key, (w, []))[1]
            if c.id not in ids:
                ids.append(c.id)
    return list(out.values())


def tex_text(text: str) -> str:
    r"""``text`` as LaTeX text: TeX's special characters escaped, ``code`` as ``\texttt`` (a URL as ``\url``)."""
    out, last = [], 0
    for m in CODE.finditer(text):
        out.append(_escape(text[last : m.start()]))
        code = m.group(1)
        out.append(rf"\url{{{code}}}" if code.startswith("https://") else rf"\texttt{{{_escape(code)}}}")
        last = m.end()
    return "".join(out) + _escape(text[last:])


def _escape(text: str) -> str:
    return "".join(TEX_TEXT.get(ch, ch) for ch in text)


def _bib_name(author: str) -> str:
    return author if author == "others" or "," in author else "{" + author + "}"


def _fields(w: Work) -> list[tuple[str, str]]:
    fields = [("author", " and ".join(_escape(a) if "," in a else _bib_name(_escape(a)) for a in w.authors))]
    fields += [("title", "{" + _escape(w.title) + "}")]
    if w.year is not None:
        fields.append(("year", str(w.year)))
    venue = {"article": "journal", "book": "publisher", "misc": "howpublished"}[w.kind]
    if w.venue:
        fields.append((venue, _escape(w.venue[0].upper() + w.venue[1:]) if w.unpublished else _escape(w.venue)))
    if w.arxiv:
        fields += [("eprint", w.arxiv), ("archiveprefix", "arXiv")]
    if w.link:
        fields.append(("url", w.link))
    if w.note:
        fields.append(("note", tex_text(w.note[0].upper() + w.note[1:])))
    return [(k, v) for k, v in fields if v]


def bibtex(records: Iterable[Work] = RECORDS) -> str:
    r"""The works as a BibTeX file: ``@article`` (journal or proceedings), ``@misc`` (code, notes, posts),
    ``@book``; TeX's special characters escaped, titles braced so that a style keeps their capitals."""
    entries = []
    for w in records:
        if w.kind not in KINDS:
            raise ValueError(f"records: {w.key} has kind {w.kind!r}, not one of {', '.join(KINDS)}")
        body = ",\n".join(f"  {k} = {{{v}}}" for k, v in _fields(w))
        entries.append(f"@{w.kind}{{{w.key},\n{body}\n}}\n")
    return "\n".join(entries)


def reference_latex(w: Work) -> str:
    r"""One work as the text of a ``\bibitem``: authors, year, title, venue, arXiv id as a link, URL."""
    if w.unpublished:
        return rf"\emph{{{_escape(w.title)}}}, {_escape(w.venue)} ({tex_text(w.note)})."
    title = rf"\emph{{{_escape(w.title)}}}" if w.kind == "book" else f"``{_escape(w.title)}''"
    parts = [f"{_escape(w.names)} ({w.year})", title, _escape(w.venue), tex_text(w.note)]
    if w.arxiv:
        parts.append(rf"\href{{https://arxiv.org/abs/{w.arxiv}}}{{arXiv:{w.arxiv}}}")
    if w.url:
        parts.append(rf"\url{{{w.url}}}")
    return ", ".join(p for p in parts if p) + "."


def bibliography_latex(records: Iterable[Work], cited_keys: Iterable[str] | None = None) -> str:
    r"""A ``thebibliography`` of the works whose key is in ``cited_keys`` (every one when ``None``), in the
    order of ``records``; ``\cite{key}`` points at them (needs ``hyperref`` and ``url``)."""
    keep = None if cited_keys is None else set(cited_keys)
    works = [w for w in records if keep is None or w.key in keep]
    if keep is not None and (missing := keep - {w.key for w in works}):
        raise ValueError(f"cited_keys: no record for {', '.join(sorted(missing))}")
    items = [rf"\bibitem{{{w.key}}} {reference_latex(w)}" for w in works]
    return "\\begin{thebibliography}{" + str(len(works)) + "}\n" + "\n".join(items) + "\n\\end{thebibliography}\n"


def reference_markdown(w: Work) -> str:
    r"""One work as a Markdown reference line, its title a link (arXiv abstract or URL) where it has one."""
    title = f"*{w.title}*" if w.kind == "book" else f"“{w.title}”"
    title = f"[{title}]({w.link})" if w.link else title
    if w.unpublished:
        return f"{title}, {w.venue} ({CODE.sub(_md_code, w.note)})."
    parts = [f"{w.names} ({w.year})", title, w.venue, CODE.sub(_md_code, w.note)]
    parts += [f"[arXiv:{w.arxiv}](https://arxiv.org/abs/{w.arxiv})"] if w.arxiv else []
    parts += [f"<{w.url}>"] if w.url and w.arxiv else []
    return ", ".join(p for p in parts if p) + "."


def _md_code(m: re.Match) -> str:
    return f"<{m.group(1)}>" if m.group(1).startswith("https://") else m.group(0)


def reference_html(w: Work) -> str:
    r"""One work as an HTML reference line (escaped), its title a link where it has one, ``code`` as ``<code>``."""

    def text(s: str) -> str:
        return CODE.sub(
            lambda m: (
                f'<a href="{m.group(1)}"><code>{m.group(1)}</code></a>'
                if m.group(1).startswith("https://")
                else f"<code>{m.group(1)}</code>"
            ),
            html.escape(s, quote=False),
        )

    title = f"<cite>{html.escape(w.title)}</cite>"
    title = f'<a href="{html.escape(w.link)}">{title}</a>' if w.link else title
    if w.unpublished:
        return f"{title}, {html.escape(w.venue)} ({text(w.note)})."
    parts = [f"{html.escape(w.names)} ({w.year})", title, html.escape(w.venue), text(w.note)]
    if w.arxiv:
        parts.append(f'<a href="https://arxiv.org/abs/{w.arxiv}">arXiv:{w.arxiv}</a>')
    if w.url and w.arxiv:
        parts.append(f'<a href="{html.escape(w.url)}">{html.escape(w.url)}</a>')
    return ", ".join(p for p in parts if p) + "."
