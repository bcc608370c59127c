r"""``posproof derive ID [--format F] [--claims MODULE] [--audience paper|reference] [--statement-only] [--numbered]
[--textwidth W]``: one derivation, as LaTeX, Markdown, text, JSON or an HTML fragment; with ``--claims MODULE``, one
of a user's module's claims (its ``claims()``) instead of the catalogue's.

``--format json`` (or ``--json``) prints the claim's ``posproof.claim/1`` document
(``derivations/schemas/claim.schema.json``), the one each claim has in ``posproof export --format json``.

LaTeX options: ``--audience paper`` prints the claim as a ``theorem`` (``definition``, ``lemma``, ``computation``)
environment of ``posproof.sty`` (``posproof preamble``) with its derivation in a ``proof``; ``--statement-only``
only the statement's display; ``--numbered`` the statement as a labelled ``equation`` (``eq:ID``); ``--textwidth``
(``8.5cm``, ``twocolumn``, ``onecolumn``) scales displays wider than that line to it."""

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
    s.add_argument(
        "--audience",
        choices=("reference", "paper"),
        default="reference",
        help="reference: every detail of the check (default); paper: the mathematics (LaTeX: amsthm environments)",
    )
    s.add_argument("--statement-only", action="store_true", help="LaTeX: only the statement's display")
    s.add_argument("--numbered", action="store_true", help="LaTeX: the statement as a labelled equation (eq:ID)")
    s.add_argument(
        "--textwidth",
        metavar="W",
        default=None,
        help="LaTeX: the line displays must fit (8.5cm, 85mm, 3.3in, 240pt, twocolumn, onecolumn)",
    )
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


def latex_one(claim, *, audience: str, statement_only: bool, numbered: bool, textwidth: str | None) -> str:
    r"""One claim as LaTeX with :mod:`printing.latex`'s options; a bad ``textwidth`` or a claim without a
    statement for ``statement_only`` is a usage error."""
    from posproof.printing import latex
    from posproof.printing.blocks import blocks

    try:
        width = latex.text_width(textwidth)
    except ValueError:
        raise UsageError(
            "--textwidth must be a length like 8.5cm, 85mm, 3.3in or 240pt, or twocolumn or onecolumn, "
            f"not {textwidth!r}"
        ) from None
    bs = blocks(claim, audience=audience)
    if statement_only:
        try:
            return latex.statement_latex(bs, numbered=numbered, textwidth=width)
        except ValueError:
            raise UsageError(f"--statement-only: {claim.id} has no statement formula") from None
    return latex.blocks_latex(bs, numbered=numbered, textwidth=width if textwidth is not None else None)


def run(args) -> int:
    fmt = output_format(args.format)
    (claim,) = select([args.id], user_claims(args.claims))
    latex_options = args.audience != "reference" or args.statement_only or args.numbered or args.textwidth is not None
    if latex_options and fmt != "latex":
        raise UsageError("--audience paper, --statement-only, --numbered and --textwidth need --format latex")
    if latex_options:
        text = latex_one(
            claim,
            audience=args.audience,
            statement_only=args.statement_only,
            numbered=args.numbered,
            textwidth=args.textwidth,
        )
    else:
        text = render_one(claim, fmt)
    sys.stdout.write(text)
    return 0
