r"""``posproof derive ID [--format F] [--claims MODULE]``: one derivation, as LaTeX, Markdown, text, JSON or an HTML
fragment; with ``--claims MODULE``, one of a user's module's claims (its ``claims()``) instead of the catalogue's.

``--format json`` (or ``--json``) prints the claim's ``posproof.claim/1`` document
(``derivations/schemas/claim.schema.json``), the one each claim has in ``posproof export --format json``."""

from __future__ import annotations

import json
import sys

from posproof.derivations.args import (
    FORMATS,
    UsageError,
    add_claims_option,
    add_format_option,
    output_format,
    select,
    user_claims,
)


def add_parser(subparsers):
    s = subparsers.add_parser("derive", help="print one derivation", description="Print one derivation.")
    s.add_argument("id", metavar="ID", help="a claim id (see posproof list; with --claims, one of the module's)")
    add_format_option(s, FORMATS, default="latex")
    add_claims_option(s)
    s.set_defaults(func=run)
    return s


def render_one(claim, fmt: str) -> str:
    r"""One claim in one format (``json``: its ``posproof.claim/1`` document); a missing tool (KaTeX for ``html``)
    is a usage error."""
    from posproof.derivations import export

    from posproof.printing.formats import render

    if fmt == "json":
        return json.dumps(export.claim_document(claim), indent=2) + "\n"
    try:
        return render(claim, fmt)
    except export.ExportError as e:  # html without Node.js or KaTeX
        raise UsageError(str(e)) from None


def run(args) -> int:
    fmt = output_format(args.format)
    (claim,) = select([args.id], user_claims(args.claims))
    sys.stdout.write(render_one(claim, fmt))
    return 0
