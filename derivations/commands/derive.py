r"""``posproof derive ID [--format F]``: one derivation, as LaTeX, Markdown, text, JSON or an HTML fragment."""

from __future__ import annotations

import argparse
import json
import sys

from posproof.derivations.args import FORMATS, UsageError, output_format, select


def add_parser(subparsers):
    s = subparsers.add_parser(
        "derive", help="print one derivation", formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    s.add_argument("id", help="a claim id (see posproof list)")
    s.add_argument("--format", default="latex", help=f"output format: {', '.join(FORMATS)}")
    s.set_defaults(func=run)
    return s


def render_one(claim, fmt: str) -> str:
    r"""One claim in one format (``json`` included); a missing tool (KaTeX for ``html``) is a usage error."""
    from posproof.derivations import export

    from posproof.printing.formats import render
    from posproof.printing.json import as_json

    if fmt == "json":
        return json.dumps(as_json(claim), indent=2) + "\n"
    try:
        return render(claim, fmt)
    except export.ExportError as e:  # html without Node.js or KaTeX
        raise UsageError(str(e)) from None


def run(args) -> int:
    fmt = output_format(args.format)
    (claim,) = select([args.id])
    sys.stdout.write(render_one(claim, fmt))
    return 0
