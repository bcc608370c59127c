r"""``posproof list [--format text|json]``: the registered claims, one line each (id, kind, topic, title).

``--format json`` (or ``--json``) prints a ``posproof.list/1`` document (``derivations/schemas/list.schema.json``):
``{"schema": "posproof.list/1", "claims": [{"id", "kind", "topic", "title", "source"}, ...]}``."""

from __future__ import annotations

import json
import textwrap

from posproof.derivations import machine
from posproof.derivations.args import REPORT_FORMATS, add_format_option, output_format, select

#: ``posproof list`` fits this many columns (titles wrap under their column).
LIST_COLUMNS = 100


def add_parser(subparsers):
    s = subparsers.add_parser(
        "list",
        help="list the registered claims (id, kind, topic, title)",
        description="List the registered claims (id, kind, topic, title).",
    )
    add_format_option(s)
    s.set_defaults(func=run)
    return s


def document(claims) -> dict:
    r"""The ``posproof.list/1`` document of ``claims``: each one's id, kind, topic, title and source."""
    rows = [{"id": c.id, "kind": c.kind, "topic": c.topic, "title": c.title, "source": c.source} for c in claims]
    return machine.document("list", {"claims": rows})


def run(args) -> int:
    fmt = output_format(args.format, REPORT_FORMATS)
    claims = select([])
    if fmt == "json":
        print(json.dumps(document(claims), indent=2))
        return 0
    from posproof.printing.prose import prose

    table = [("id", "kind", "topic", "title")] + [(c.id, c.kind, c.topic, prose(c.title, "text")) for c in claims]
    widths = [max(len(r[k]) for r in table) for k in range(3)]
    indent = sum(widths) + 6
    wrap = textwrap.TextWrapper(width=max(20, LIST_COLUMNS - indent), break_on_hyphens=False)
    for row in table:
        lines = wrap.wrap(row[3]) or [""]
        head = "  ".join(f"{v:<{w}}" for v, w in zip(row[:3], widths, strict=True))
        print(f"{head}  {lines[0]}".rstrip())
        for more in lines[1:]:
            print(" " * indent + more)
    return 0
