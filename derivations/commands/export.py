r"""``posproof export --format F --out DIR [--force] [--no-figures] [--claims MODULE] [-q]``: every derivation as
one document (:mod:`posproof.derivations.export` assembles it).

With ``--claims MODULE`` the document holds a user's module's claims (its ``claims()``) instead of the catalogue,
one file per topic tag as for the catalogue, in the same formats; the catalogue's figures and rules table are left
out (they draw and judge the catalogue's claims).

``--out`` is checked, and made, before any work; a progress bar (claims rendered, figures drawn, files written) is
drawn on a terminal; Ctrl-C stops with one line saying what was written (each file whole), exit 130."""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Callable
from pathlib import Path

from posproof.derivations.args import (
    FORMATS,
    INTERRUPTED,
    UsageError,
    add_claims_option,
    add_quiet_option,
    output_dir,
    output_format,
    user_claims,
)
from posproof.derivations.progress import Progress


def add_parser(subparsers):
    s = subparsers.add_parser(
        "export",
        help="write every derivation: a LaTeX document, Markdown, one HTML page, text or JSON, with the figures",
        description="Write every derivation: a LaTeX document, Markdown, one HTML page, text or JSON, and figures.",
    )
    # required, and no --json: an export is a document in one chosen format, not a report with a JSON form
    s.add_argument("--format", required=True, help=f"output format: {', '.join(dict.fromkeys(FORMATS.values()))}")
    s.add_argument("--out", metavar="DIR", required=True, help="output directory (created if missing)")
    s.add_argument("--force", action="store_true", help="write into a non-empty directory that an export did not write")
    s.add_argument("--no-figures", action="store_true", help="leave the figures out (no matplotlib needed)")
    add_claims_option(s)
    add_quiet_option(s)
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


def build_user(claims, fmt: str, progress: Callable[[str, int], None] | None = None) -> dict[str, bytes]:
    r"""The files of an export of ``claims`` (a user's, ``--claims``) as ``{relative path: bytes}``: the formats of
    :func:`posproof.derivations.export.build`, without the catalogue's figures and rules table;
    ``progress(claim id, len(claims))`` after each claim."""
    from posproof.derivations import export

    from posproof.printing import markdown as markdown_format
    from posproof.printing.blocks import blocks
    from posproof.printing.prose import prose

    topics = user_topics(claims)
    refs = export.references(topics)
    tick = export.ticker(progress, len(claims) + (fmt == "html"))
    if fmt == "latex":
        files = {f"{t}.tex": export.topic_file(t, cs, tick=tick).encode() for t, cs in topics}
        files["posproof.tex"] = export.latex_document([t for t, _ in topics], (), False, refs).encode()
        return files
    if fmt == "markdown":
        files = {}
        for t, cs in topics:
            parts = [f"# {export.topic_title(t)}", ""]
            parts += [markdown_format.blocks_markdown(blocks(c)) for c in export.each_claim(cs, tick)]
            files[f"{t}.md"] = "\n".join(parts).encode()
        index = [f"# {export.TITLE}", "", export.ABSTRACT, "", "## Contents", ""]
        index += [f"- [{export.topic_title(t)}]({t}.md) ({len(cs)} claims)" for t, cs in topics]
        index += ["", "## References", ""]
        index += [f"- {prose(s, 'markdown')}. Cited in {', '.join(f'`{i}`' for i in ids)}." for s, ids in refs]
        files["index.md"] = ("\n".join(index) + "\n").encode()
        return files
    if fmt == "json":
        return {f"{t}.json": export.topic_json(t, cs, tick) for t, cs in topics}
    if fmt == "text":
        return {f"{t}.txt": export.topic_text(cs, tick) for t, cs in topics}
    if fmt == "html":
        return {"posproof.html": _user_page(topics, refs, tick).encode()}
    raise ValueError(f"format must be one of {', '.join(export.SUFFIX)}, got {fmt!r}")


def _user_page(topics, refs, tick) -> str:
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
        parts += [blocks_html(blocks(c), math) for c in export.each_claim(cs, tick)]
    items = "".join(
        f"<li>{prose(s, 'html', math)}. Cited in {', '.join(html.escape(i) for i in ids)}.</li>" for s, ids in refs
    )
    parts += ['<h2 id="references">References</h2>', f"<ul>{items}</ul>"]
    body, errors = math.fill("\n".join(parts))
    tick(export.MATH)
    if errors:
        raise UsageError(f"--claims: KaTeX could not set {len(errors)} formulas, first: {errors[0]}")
    kdir = katex_dir() if math.katex else None
    style = f"<style>{katex_css(kdir)}</style>\n" if kdir is not None else ""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(export.TITLE)}</title>\n{style}<style>{export.PAGE_CSS}</style>\n"
        f"</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def _phase(bar: Progress, label: str) -> Callable[[str, int], None]:
    r"""A progress callback (:data:`posproof.derivations.export.Progress`) drawing one phase of the work on ``bar``:
    its label, its count of its total."""
    done = 0

    def progress(name: str, total: int) -> None:
        nonlocal done
        done += 1
        bar.label, bar.total, bar.done = label, total, done - 1
        bar.advance(note=name)

    return progress


def _written(paths: list[Path], out: Path) -> str:
    if not paths:
        return f"nothing written to {out}"
    names = ", ".join(p.relative_to(out).as_posix() for p in paths)
    return f"wrote {len(paths)} files to {out} before stopping, each whole: {names}"


def run(args) -> int:
    from posproof.derivations import export

    fmt = output_format(args.format)
    out = output_dir(args.out)
    written: list[Path] = []
    try:
        export.check_target(out, args.force)
        claims = user_claims(args.claims)
        with export.output_directory(out), Progress(None, "loading the claims", quiet=args.quiet) as bar:
            rendering = _phase(bar, "rendering") if bar.enabled else None
            writing = _phase(bar, "writing")

            def wrote(name: str, total: int) -> None:
                written.append(out / name)
                writing(name, total)

            if claims is None:
                _, notes = export.export(fmt, out, args.force, not args.no_figures, rendering, wrote)
            else:
                export.write(out, build_user(claims, fmt, rendering), args.force, wrote)
                notes = []
    except export.ExportError as e:
        raise UsageError(str(e)) from None
    except KeyboardInterrupt:
        print(f"\nposproof: interrupted: {_written(written, out)}", file=sys.stderr)
        return INTERRUPTED
    for note in notes:
        print(f"posproof: {note}", file=sys.stderr)
    names = [p.relative_to(out).as_posix() for p in written]
    print(f"wrote {len(written)} files to {args.out}: {', '.join(names)}")
    return 0
