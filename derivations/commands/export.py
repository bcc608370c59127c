r"""``posproof export --format F --out DIR [--force] [--no-figures]``: every derivation as one document
(:mod:`posproof.derivations.export` assembles it)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from posproof.derivations.args import FORMATS, UsageError, output_format


def add_parser(subparsers):
    s = subparsers.add_parser(
        "export",
        help="write every derivation: a LaTeX document, Markdown, one HTML page, text or JSON, with the figures",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    s.add_argument("--format", required=True, help=f"output format: {', '.join(FORMATS)}")
    s.add_argument("--out", required=True, help="output directory (created if missing)")
    s.add_argument("--force", action="store_true", help="write into a non-empty directory that an export did not write")
    s.add_argument("--no-figures", action="store_true", help="leave the figures out (no matplotlib needed)")
    s.set_defaults(func=run)
    return s


def run(args) -> int:
    from posproof.derivations import export

    fmt = output_format(args.format)
    try:
        written, notes = export.export(fmt, Path(args.out), force=args.force, with_figures=not args.no_figures)
    except export.ExportError as e:
        raise UsageError(str(e)) from None
    for note in notes:
        print(f"posproof: {note}", file=sys.stderr)
    names = [str(p.relative_to(args.out)) for p in written]
    print(f"wrote {len(written)} files to {args.out}: {', '.join(names)}")
    return 0
