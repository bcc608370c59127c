r"""``posproof export --format F --out DIR [--force] [--no-figures] [--claims MODULE]``: every derivation as one
document (:mod:`posproof.derivations.export` assembles it).

With ``--claims MODULE`` the document holds a user's module's claims (its ``claims()``) instead of the catalogue,
one file per topic tag as for the catalogue, in the same formats; the catalogue's figures and rules table are left
out (they draw and judge the catalogue's claims)."""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

from posproof.derivations.args import FORMATS, UsageError, add_claims_option, output_format, user_claims


def add_parser(subparsers):
    s = subparsers.add_parser(
        "export",
        help="write every derivation: a LaTeX document, Markdown, one HTML page, text or JSON, with the figures",
    )
    s.add_argument("--format", required=True, help=f"output format: {', '.join(FORMATS)}")
    s.add_argument("--out", required=True, help="output directory (created if missing)")
    s.add_argument("--force", action="store_true", help="write into a non-empty directory that an export did not write")
    s.add_argument("--no-figures", action="store_true", help="leave the figures out (no matplotlib needed)")
    add_claims_option(s)
    s.set_defaults(func=run)
    return s


#: What a topic tag must be for ``--claims`` (it names a file, a LaTeX label and an ``\input``).
_TOPIC = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*\Z")


def user_topics(claims) -> list[tuple[str, tuple]]:
    r"""A user's claims grouped by topic tag, topics in order of first appearance, claims in their order; a tag that
    cannot name a file is a usage error."""
    out: dict[str, list] = {}
    for c in claims:
        if not isinstance(c.topic, str) or not _TOPIC.match(c.topic):
            raise UsageError(
                f"--claims: claim {c.id!r} has the topic {c.topic!r}; export writes one file per topic and needs "
                "letters, digits, '-' and '_'"
            )
        out.setdefault(c.topic, []).append(c)
    return [(t, tuple(cs)) for t, cs in out.items()]


def build_user(claims, fmt: str) -> dict[str, bytes]:
    r"""The files of an export of ``claims`` (a user's, ``--claims``) as ``{relative path: bytes}``: the formats of
    :func:`posproof.derivations.export.build`, without the catalogue's figures and rules table."""
    from posproof.derivations import export

    from posproof.printing import markdown as markdown_format
    from posproof.printing import text as text_format
    from posproof.printing.blocks import blocks
    from posproof.printing.json import as_json
    from posproof.printing.prose import prose

    topics = user_topics(claims)
    refs = export.references(topics)
    if fmt == "latex":
        files = {f"{t}.tex": export.topic_file(t, cs).encode() for t, cs in topics}
        files["posproof.tex"] = export.latex_document([t for t, _ in topics], (), False, refs).encode()
        return files
    if fmt == "markdown":
        files = {}
        for t, cs in topics:
            parts = [f"# {export.topic_title(t)}", ""] + [markdown_format.blocks_markdown(blocks(c)) for c in cs]
            files[f"{t}.md"] = "\n".join(parts).encode()
        index = [f"# {export.TITLE}", "", export.ABSTRACT, "", "## Contents", ""]
        index += [f"- [{export.topic_title(t)}]({t}.md) ({len(cs)} claims)" for t, cs in topics]
        index += ["", "## References", ""]
        index += [f"- {prose(s, 'markdown')}. Cited in {', '.join(f'`{i}`' for i in ids)}." for s, ids in refs]
        files["index.md"] = ("\n".join(index) + "\n").encode()
        return files
    if fmt == "json":
        return {f"{t}.json": (json.dumps([as_json(c) for c in cs], indent=2) + "\n").encode() for t, cs in topics}
    if fmt == "text":
        return {f"{t}.txt": "\n".join(text_format.claim_text(c) for c in cs).encode() for t, cs in topics}
    if fmt == "html":
        return {"posproof.html": _user_page(topics, refs).encode()}
    raise ValueError(f"format must be one of {', '.join(export.SUFFIX)}, got {fmt!r}")


def _user_page(topics, refs) -> str:
    r"""One self-contained HTML page of a user's claims (KaTeX where installed, else MathML), as the catalogue's."""
    from posproof.derivations import export

    from posproof.printing.blocks import blocks
    from posproof.printing.html import PageMath, blocks_html, katex_css, katex_dir
    from posproof.printing.prose import prose

    math = PageMath()
    toc = "".join(f'<li><a href="#topic-{t}">{html.escape(export.topic_title(t))}</a></li>' for t, _ in topics)
    parts = [f"<h1>{html.escape(export.TITLE)}</h1>", f"<p>{html.escape(export.ABSTRACT)}</p>", f"<ol>{toc}</ol>"]
    for t, cs in topics:
        parts.append(f'<h2 id="topic-{t}">{html.escape(export.topic_title(t))}</h2>')
        parts += [blocks_html(blocks(c), math) for c in cs]
    items = "".join(
        f"<li>{prose(s, 'html', math)}. Cited in {', '.join(html.escape(i) for i in ids)}.</li>" for s, ids in refs
    )
    parts += ['<h2 id="references">References</h2>', f"<ul>{items}</ul>"]
    body, errors = math.fill("\n".join(parts))
    if errors:
        raise UsageError(f"--claims: KaTeX could not set {len(errors)} formulas, first: {errors[0]}")
    kdir = katex_dir() if math.katex else None
    style = f"<style>{katex_css(kdir)}</style>\n" if kdir is not None else ""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(export.TITLE)}</title>\n{style}<style>{export._PAGE_CSS}</style>\n"
        f"</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def run(args) -> int:
    from posproof.derivations import export

    fmt = output_format(args.format)
    claims = user_claims(args.claims)
    try:
        if claims is None:
            written, notes = export.export(fmt, Path(args.out), force=args.force, with_figures=not args.no_figures)
        else:
            written, notes = export.write(Path(args.out), build_user(claims, fmt), args.force), []
    except export.ExportError as e:
        raise UsageError(str(e)) from None
    for note in notes:
        print(f"posproof: {note}", file=sys.stderr)
    names = [str(p.relative_to(args.out)) for p in written]
    print(f"wrote {len(written)} files to {args.out}: {', '.join(names)}")
    return 0
