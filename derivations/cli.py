r"""The ``posproof`` command line.

``posproof list [--json]`` · ``posproof derive ID [--format F]`` · ``posproof check [ID ...] [--dps N] [--jobs N]
[--json]`` · ``posproof export --format F --out DIR [--force]`` · ``posproof plot NAME --out FILE`` (figures,
:mod:`derivations.plots`) · ``posproof precision`` · ``posproof t5-buckets`` ·
``posproof extend`` (context extension, :mod:`derivations.extend`) · ``posproof audit`` (a user's implementation,
:mod:`derivations.audit`) · ``posproof vectors`` (golden vectors, :mod:`derivations.vectors`) ·
``posproof --version``. Formats ``F``: ``latex`` (or ``tex``), ``markdown`` (or ``md``), ``text`` (or ``txt``),
``json``, ``html`` (one page, math set by KaTeX), in both ``derive`` and ``export``.

Exit codes: 0 success (every selected claim verified), 1 a claim failed, 2 a usage error (one line on stderr,
naming the option as it is typed, e.g. ``--width``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from pathlib import Path

from posproof.numeric import tolerances
from posproof.printing.formats import format_names
from posproof.symbolic import settings

from .args import Parser, UsageError, flags, int_arg, run


def _registry():
    from posproof.symbolic import registry

    return registry


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("posproof")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree that was never installed
        return "unknown (not installed)"


def _select(ids: list[str]):
    reg = _registry()
    if not ids:
        return list(reg.all())
    try:
        return [reg.get(i) for i in dict.fromkeys(ids)]  # an id given twice is checked (and counted) once
    except ValueError as e:
        raise UsageError(str(e)) from None


#: ``posproof list`` fits this many columns (titles wrap under their column).
LIST_COLUMNS = 100


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
    from posproof.printing.prose import prose

    rows = [("id", "kind", "topic", "title")] + [(c.id, c.kind, c.topic, prose(c.title, "text")) for c in claims]
    widths = [max(len(r[k]) for r in rows) for k in range(3)]
    indent = sum(widths) + 6
    wrap = textwrap.TextWrapper(width=max(20, LIST_COLUMNS - indent), break_on_hyphens=False)
    for row in rows:
        lines = wrap.wrap(row[3]) or [""]
        head = "  ".join(f"{v:<{w}}" for v, w in zip(row[:3], widths, strict=True))
        print(f"{head}  {lines[0]}".rstrip())
        for more in lines[1:]:
            print(" " * indent + more)
    return 0


#: Output formats and their spellings: the same in ``derive`` and ``export`` (``html`` too: one page).
FORMATS = format_names("latex", "markdown", "text", "json", "html")


def _format(text: str) -> str:
    if text not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, got {text!r}")
    return FORMATS[text]


def _render_one(claim, fmt: str) -> str:
    from posproof.printing.formats import render
    from posproof.printing.json import as_json

    from . import export

    if fmt == "json":
        return json.dumps(as_json(claim), indent=2) + "\n"
    try:
        return render(claim, fmt)
    except export.ExportError as e:  # html without Node.js or KaTeX
        raise UsageError(str(e)) from None


def cmd_derive(args) -> int:
    fmt = _format(args.format)
    (claim,) = _select([args.id])
    sys.stdout.write(_render_one(claim, fmt))
    return 0


def _dps(text: str) -> int:
    return int_arg(text, "--dps", settings.MIN_DPS, settings.MAX_DPS)


def _jobs(text: str) -> int:
    return os.cpu_count() or 1 if text == "auto" else int_arg(text, "--jobs", 1)


def cmd_check(args) -> int:
    from . import check

    return check.run(_select(args.ids), _dps(args.dps), _jobs(args.jobs), args.json)


def cmd_export(args) -> int:
    from . import export

    fmt = _format(args.format)
    try:
        written, notes = export.export(fmt, Path(args.out), force=args.force, with_figures=not args.no_figures)
    except export.ExportError as e:
        raise UsageError(str(e)) from None
    for note in notes:
        print(f"posproof: {note}", file=sys.stderr)
    names = [str(p.relative_to(args.out)) for p in written]
    print(f"wrote {len(written)} files to {args.out}: {', '.join(names)}")
    return 0


def cmd_plot(args) -> int:
    r"""One figure to a PNG, SVG or PDF file (matplotlib, the ``plots`` extra)."""
    from . import export, plots

    if args.name not in plots.PLOTS:
        raise UsageError(f"NAME must be one of {', '.join(plots.PLOTS)}, got {args.name!r}")
    out = Path(args.out)
    suffix = out.suffix.lstrip(".").lower()
    if suffix not in plots.SUFFIXES:
        raise UsageError(f"--out must end in .png, .svg or .pdf, got {args.out!r}")
    if not plots.available():
        raise UsageError(plots.INSTALL)
    export._write_atomic(out, plots.plot_bytes(args.name, suffix))
    print(f"wrote {out}")
    return 0


def cmd_precision(args) -> int:
    r"""RoPE's score error per storage dtype and angle style at 1k .. 1M positions, and the first position where it
    exceeds the tolerance: the measure of numeric/precision_profile.py (the audit reports the same)."""
    from posproof.numeric import precision_profile as pp

    max_position = int_arg(args.max_position, "--max-position", 1024)
    width = int_arg(args.width, "--width", 2)
    if width % 2:
        raise UsageError(f"--width must be a positive even integer (pairs of channels rotate), got {width}")
    try:
        tolerance = float(args.tolerance)
    except ValueError:
        raise UsageError(f"--tolerance must be a number in (0, 1), got {args.tolerance!r}") from None
    if not 0 < tolerance < 1:
        raise UsageError(f"--tolerance must be a number in (0, 1), got {args.tolerance!r}")
    positions = tuple(p for p in pp.PROFILE_POSITIONS if p <= max_position) or (max_position,)
    with flags(width="--width", max_position="--max-position", tolerance="--tolerance"):
        rows = pp.profile_table(width=width, tolerance=tolerance, positions=positions, max_position=max_position)
    print(pp.header(width))
    sys.stdout.write(pp.format_profile_table(rows))
    return 0


def cmd_t5_buckets(args) -> int:
    r"""The T5 bucket boundaries of one configuration (relative position = key - query)."""
    from posproof.numeric import t5_bucket_table

    num_buckets = int_arg(args.num_buckets, "--num-buckets", 2)
    max_distance = int_arg(args.max_distance, "--max-distance", 1)
    with flags(num_buckets="--num-buckets", max_distance="--max-distance"):
        table = t5_bucket_table(not args.unidirectional, num_buckets, max_distance)
    print(table)
    return 0


def build_parser() -> argparse.ArgumentParser:
    fmt = argparse.ArgumentDefaultsHelpFormatter
    p = Parser(
        prog="posproof",
        description="Machine-checked derivations of transformer positional encodings.",
        formatter_class=fmt,
    )
    p.add_argument("--version", action="version", version=f"posproof {_version()}", help="print the version and exit")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    formats = ", ".join(FORMATS)
    s = sub.add_parser("list", help="list the registered claims (id, kind, topic, title)", formatter_class=fmt)
    s.add_argument("--json", action="store_true", help="one JSON object per claim, with its source")
    s.set_defaults(func=cmd_list)
    s = sub.add_parser("derive", help="print one derivation", formatter_class=fmt)
    s.add_argument("id", help="a claim id (see posproof list)")
    s.add_argument("--format", default="latex", help=f"output format: {formats}")
    s.set_defaults(func=cmd_derive)
    s = sub.add_parser("check", help="verify claims symbolically and numerically", formatter_class=fmt)
    s.add_argument("ids", nargs="*", metavar="ID", help="claim ids to check (all when none; repeats count once)")
    s.add_argument(
        "--dps",
        default=str(settings.DEFAULT_DPS),
        help=f"significant digits of the numeric check, {settings.MIN_DPS} to {settings.MAX_DPS}",
    )
    s.add_argument("--jobs", default="auto", help="worker processes: 'auto' (one per core) or a number")
    s.add_argument("--json", action="store_true", help="the report as JSON")
    s.set_defaults(func=cmd_check)
    s = sub.add_parser(
        "export",
        help="write every derivation: a LaTeX document, Markdown, one HTML page, text or JSON, with the figures",
        formatter_class=fmt,
    )
    s.add_argument("--format", required=True, help=f"output format: {formats}")
    s.add_argument("--out", required=True, help="output directory (created if missing)")
    s.add_argument("--force", action="store_true", help="write into a non-empty directory that an export did not write")
    s.add_argument("--no-figures", action="store_true", help="leave the figures out (no matplotlib needed)")
    s.set_defaults(func=cmd_export)
    s = sub.add_parser("plot", help="draw one figure to a PNG, SVG or PDF file (matplotlib)", formatter_class=fmt)
    from .plots import PLOTS

    s.add_argument("name", metavar="NAME", help=f"the figure: {', '.join(PLOTS)}")
    s.add_argument("--out", required=True, help="the file to write: .png, .svg or .pdf")
    s.set_defaults(func=cmd_plot)
    s = sub.add_parser(
        "precision",
        help="RoPE score error per dtype and angle style at 1k..1M positions: where it exceeds the tolerance",
        formatter_class=fmt,
    )
    s.add_argument("--max-position", default="1048576", help="positions scanned: up to N (profile at 1k .. 1M)")
    s.add_argument("--width", default="128", help="head width d (even)")
    s.add_argument(
        "--tolerance",
        default=str(tolerances.PROFILE_TOLERANCE),
        help="score error relative to |q||k| counted as broken",
    )
    s.set_defaults(func=cmd_precision)
    s = sub.add_parser(
        "t5-buckets", help="T5 relative-position bucket boundaries (r = key - query)", formatter_class=fmt
    )
    s.add_argument("--num-buckets", default="32", help="number of buckets (even; >= 4 when bidirectional)")
    s.add_argument(
        "--max-distance",
        default="128",
        help="offsets with |r| >= this all share the last bucket of their side (that bucket may start "
        "earlier: at |r| = 91 with the defaults)",
    )
    s.add_argument("--unidirectional", action="store_true", help="decoder-style buckets (only keys before the query)")
    s.set_defaults(func=cmd_t5_buckets)
    from . import annotate, audit, extend, properties, vectors  # each subcommand in its own module

    extend.add_parser(sub)
    audit.add_parser(sub)
    vectors.add_parser(sub)
    properties.add_parser(sub)
    annotate.add_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    return run(build_parser, argv)


if __name__ == "__main__":
    sys.exit(main())
