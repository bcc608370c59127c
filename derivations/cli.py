r"""The ``posproof`` command line.

``posproof list [--json]`` · ``posproof derive ID [--format latex|markdown|text]`` ·
``posproof check [ID ...] [--dps N] [--jobs N] [--json]`` · ``posproof export --format tex|md|json --out DIR`` ·
``posproof precision`` · ``posproof t5-buckets``

Exit codes: 0 success (every selected claim verified), 1 a claim failed, 2 a usage error (one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from numeric import tolerances


class UsageError(Exception):
    """A mistake in the command line: reported on one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, no usage dump, exit 2
        raise UsageError(message)


def _registry():
    from symbolic import registry

    return registry


def _select(ids: list[str]):
    reg = _registry()
    if not ids:
        return list(reg.all())
    try:
        return [reg.get(i) for i in ids]
    except ValueError as e:
        raise UsageError(str(e)) from None


def cmd_list(args) -> int:
    claims = _select([])
    if args.json:
        print(
            json.dumps(
                [{"id": c.id, "kind": c.kind, "topic": c.topic, "title": c.title, "source": c.source} for c in claims],
                indent=2,
            )
        )
        return 0
    width = max(len(c.id) for c in claims)
    for c in claims:
        print(f"{c.id:<{width}}  {c.kind:<8}  {c.title}")
    return 0


def cmd_derive(args) -> int:
    from .render import render

    (claim,) = _select([args.id])
    sys.stdout.write(render(claim, args.format))
    return 0


def _int_arg(text: str, flag: str, lo: int, hi: int | None = None) -> int:
    r"""An integer option in ``[lo, hi]``, or a one-line usage error naming the flag and the range."""
    accepted = f"an integer in [{lo}, {hi}]" if hi is not None else f"an integer >= {lo}"
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"{flag} must be {accepted}, got {text!r}") from None
    if value < lo or (hi is not None and value > hi):
        raise UsageError(f"{flag} must be {accepted}, got {value}")
    return value


def _dps(text: str) -> int:
    return _int_arg(text, "--dps", tolerances.MIN_DPS, tolerances.MAX_DPS)


def _jobs(text: str) -> int:
    return os.cpu_count() or 1 if text == "auto" else _int_arg(text, "--jobs", 1)


def cmd_check(args) -> int:
    from . import check

    return check.run(_select(args.ids), _dps(args.dps), _jobs(args.jobs), args.json)


EXPORT_FORMATS = {"tex": "latex", "md": "markdown", "json": "json"}


def cmd_export(args) -> int:
    from . import render

    if args.format not in EXPORT_FORMATS:
        raise UsageError(f"--format must be one of {', '.join(EXPORT_FORMATS)}, got {args.format!r}")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out must be a directory, got the file {str(out)!r}")
    out.mkdir(parents=True, exist_ok=True)
    reg = _registry()
    written = []
    for topic in reg.TOPICS:
        claims = reg.topic(topic)
        if not claims:
            continue
        if args.format == "json":
            text = json.dumps([render.as_json(c) for c in claims], indent=2) + "\n"
        else:
            sep = "\n" if args.format == "tex" else "\n\n"
            text = sep.join(render.render(c, EXPORT_FORMATS[args.format]) for c in claims)
            if args.format == "md":
                text = f"# {topic}\n\n" + text
        path = out / f"{topic}.{args.format}"
        path.write_text(text, encoding="utf-8")
        written.append(path)
    if args.format == "tex":  # a standalone document that inputs every topic: `pdflatex posproof.tex`
        path = out / "posproof.tex"
        path.write_text(render.latex_document([p.stem for p in written]), encoding="utf-8")
        written.append(path)
    print(f"wrote {len(written)} files to {out}: {', '.join(p.name for p in written)}")
    return 0


def cmd_precision(args) -> int:
    r"""Where RoPE's relative-position property first breaks, per dtype and angle style (issue 4)."""
    from numeric import precision

    max_position = _int_arg(args.max_position, "--max-position", 2)
    width = _int_arg(args.width, "--width", 2)
    rows = precision.precision_table(max_position=max_position, width=width)
    print(
        f"RoPE score error |s(m, m+r) - s(0, r)| / (|q||k|), d = {width}, r in {precision.DISTANCES}, "
        f"against mpmath; breaks when > tolerance ({tolerances.ROPE_BREAK_EPS} eps of the dtype)"
    )
    sys.stdout.write(precision.format_precision_table(rows))
    return 0


def cmd_t5_buckets(args) -> int:
    r"""The T5 bucket boundaries of one configuration (relative position = key - query)."""
    from numeric import t5_bucket_table

    num_buckets = _int_arg(args.num_buckets, "--num-buckets", 2)
    max_distance = _int_arg(args.max_distance, "--max-distance", 1)
    print(t5_bucket_table(not args.unidirectional, num_buckets, max_distance))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="posproof", description="Machine-checked derivations of transformer positional encodings.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    s = sub.add_parser("list", help="list the registered identities and facts")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_list)
    s = sub.add_parser("derive", help="print one derivation")
    s.add_argument("id")
    s.add_argument("--format", choices=("latex", "markdown", "text"), default="latex")
    s.set_defaults(func=cmd_derive)
    s = sub.add_parser("check", help="verify identities symbolically and numerically")
    s.add_argument("ids", nargs="*", metavar="ID")
    s.add_argument("--dps", default=str(tolerances.DEFAULT_DPS), help="significant digits (default 50)")
    s.add_argument("--jobs", default="auto", help="worker processes: 'auto' (one per core) or a number")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_check)
    s = sub.add_parser("export", help="write every derivation for documentation")
    s.add_argument("--format", required=True, help="tex, md or json")
    s.add_argument("--out", required=True, help="output directory")
    s.set_defaults(func=cmd_export)
    s = sub.add_parser("precision", help="RoPE in float64/32/16 and bfloat16: where relative positions break")
    s.add_argument("--max-position", default="32768", help="positions scanned: 0 .. N-1 (default 32768)")
    s.add_argument("--width", default="128", help="head width d (default 128)")
    s.set_defaults(func=cmd_precision)
    s = sub.add_parser("t5-buckets", help="T5 relative-position bucket boundaries for a configuration")
    s.add_argument("--num-buckets", default="32", help="number of buckets (default 32)")
    s.add_argument("--max-distance", default="128", help="distance where the last bucket starts (default 128)")
    s.add_argument("--unidirectional", action="store_true", help="decoder-style buckets (default: bidirectional)")
    s.set_defaults(func=cmd_t5_buckets)
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except UsageError as e:
        print(f"posproof: error: {e}", file=sys.stderr)
        return 2
    except ValueError as e:  # bad input reaching the library: still one line
        print(f"posproof: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `posproof list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
