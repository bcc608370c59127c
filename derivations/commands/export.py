r"""``posproof export --format F --out DIR [--force] [--no-figures] [--audience A] [--textwidth W] [--claims M]
[-q]``: every derivation as one document (:mod:`posproof.derivations.export` assembles it).

``--audience paper`` (the default) sets each claim in its environment (Theorem, Definition, Lemma, Computation)
with its statement numbered, a compact line saying how it was checked, and the verification record in an appendix;
``--audience reference`` prints every step with its strategies. ``--textwidth twocolumn`` (LaTeX) sets the document
in two columns. ``--format bib`` writes the works cited as ``posproof.bib``.

With ``--claims MODULE`` the document holds a user's module's claims (its ``claims()``) instead of the catalogue,
one file per topic tag as for the catalogue, in the same formats; the catalogue's figures and rules table are left
out (they draw and judge the catalogue's claims).

``--out`` is checked, and made, before any work; a progress bar (claims rendered, figures drawn, files written) is
drawn on a terminal; Ctrl-C stops with one line saying what was written (each file whole), exit 130."""

from __future__ import annotations

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
    s.add_argument(
        "--format", required=True, help=f"output format: {', '.join(dict.fromkeys(EXPORT_FORMATS.values()))}"
    )
    s.add_argument("--out", metavar="DIR", required=True, help="output directory (created if missing)")
    s.add_argument("--force", action="store_true", help="write into a non-empty directory that an export did not write")
    s.add_argument("--no-figures", action="store_true", help="leave the figures out (no matplotlib needed)")
    s.add_argument(
        "--audience",
        default="paper",
        help="paper (claims in their environments, the verification record in an appendix; the default) or "
        "reference (every step with its strategies, for auditing the proofs)",
    )
    s.add_argument(
        "--textwidth",
        metavar="WIDTH",
        help="LaTeX: twocolumn (the document in two columns), onecolumn, or a length such as 8.5cm; "
        "displays wider than the line are scaled to it",
    )
    add_claims_option(s)
    add_quiet_option(s)
    s.set_defaults(func=run)
    return s


#: What ``--format`` accepts: the documents, and ``bib``, the works cited as BibTeX.
EXPORT_FORMATS = FORMATS | {"bib": "bib"}

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


def build_user(claims, fmt: str, progress: Callable[[str, int], None] | None = None, **options) -> dict[str, bytes]:
    r"""The files of an export of ``claims`` (a user's, ``--claims``) as ``{relative path: bytes}``: the formats and
    ``options`` of :func:`posproof.derivations.export.build`, without the catalogue's figures and rules table."""
    from posproof.derivations import export

    files, _ = export.build(fmt, False, progress, topics=user_topics(claims), rules=False, **options)
    return files


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

    from posproof.printing.latex import text_width

    fmt = output_format(args.format, EXPORT_FORMATS)
    out = output_dir(args.out)
    if args.audience not in export.AUDIENCES:
        raise UsageError(f"--audience must be one of {', '.join(export.AUDIENCES)}, got {args.audience!r}")
    try:
        text_width(args.textwidth)
    except ValueError as e:
        raise UsageError(f"--{e}") from None
    options = {"audience": args.audience, "textwidth": args.textwidth}
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
                _, notes = export.export(fmt, out, args.force, not args.no_figures, rendering, wrote, **options)
            else:
                export.write(out, build_user(claims, fmt, rendering, **options), args.force, wrote)
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
