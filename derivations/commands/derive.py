r"""``posproof derive ID [--format F] [--claims MODULE]``: one derivation, as LaTeX, Markdown, text, JSON or an HTML
fragment; with ``--claims MODULE``, one of a user's module's claims (its ``claims()``) instead of the catalogue's."""

from __future__ import annotations

import json
import sys

from posproof.derivations.args import FORMATS, UsageError, add_claims_option, output_format, select, user_claims


def add_parser(subparsers):
    s = subparsers.add_parser("derive", help="print one derivation")
    s.add_argument("id", help="a claim id (see posproof list; with --claims, one of the module's)")
    s.add_argument("--format", default="latex", help=f"output format: {', '.join(FORMATS)}")
    add_claims_option(s)
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
    (claim,) = select([args.id], user_claims(args.claims))
    sys.stdout.write(render_one(claim, fmt))
    return 0
