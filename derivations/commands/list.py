r"""``posproof list [--json]``: the registered claims, one line each (id, kind, topic, title)."""

from __future__ import annotations

import json
import textwrap

from posproof.derivations.args import select

#: ``posproof list`` fits this many columns (titles wrap under their column).
LIST_COLUMNS = 100


def add_parser(subparsers):
    s = subparsers.add_parser("list", help="list the registered claims (id, kind, topic, title)")
    s.add_argument("--json", action="store_true", help="one JSON object per claim, with its source")
    s.set_defaults(func=run)
    return s


def run(args) -> int:
    claims = select([])
    if args.json:
        rows = [{"id": c.id, "kind": c.kind, "topic": c.topic, "title": c.title, "source": c.source} for c in claims]
        print(json.dumps(rows, indent=2))
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
