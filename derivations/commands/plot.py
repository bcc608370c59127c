r"""``posproof plot NAME --out FILE``: one figure to a PNG, SVG or PDF file (matplotlib, the ``plots`` extra;
:mod:`posproof.derivations.plots` draws it)."""

from __future__ import annotations

from pathlib import Path

from posproof.derivations.args import UsageError


def add_parser(subparsers):
    from posproof.derivations.plots import PLOTS

    s = subparsers.add_parser("plot", help="draw one figure to a PNG, SVG or PDF file (matplotlib)")
    s.add_argument("name", metavar="NAME", help=f"the figure: {', '.join(PLOTS)}")
    s.add_argument("--out", required=True, help="the file to write: .png, .svg or .pdf")
    s.set_defaults(func=run)
    return s


def run(args) -> int:
    from posproof.derivations import export, plots

    if args.name not in plots.PLOTS:
        raise UsageError(f"NAME must be one of {', '.join(plots.PLOTS)}, got {args.name!r}")
    out = Path(args.out)
    suffix = out.suffix.lstrip(".").lower()
    if suffix not in plots.SUFFIXES:
        raise UsageError(f"--out must end in .png, .svg or .pdf, got {args.out!r}")
    if not plots.available():
        raise UsageError(plots.INSTALL)
    export.write_atomic(out, plots.plot_bytes(args.name, suffix))
    print(f"wrote {out}")
    return 0
