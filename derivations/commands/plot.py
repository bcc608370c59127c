r"""``posproof plot NAME --out FILE``: one figure to a PNG, SVG or PDF file (matplotlib, the ``plots`` extra;
:mod:`posproof.derivations.plots` draws it).

``NAME`` and ``--out`` are checked before the figure is drawn (an unknown name with the nearest ones; a file that
cannot be written); the file is written atomically."""

from __future__ import annotations

import difflib

from posproof.derivations.args import UsageError, output_file


def add_parser(subparsers):
    from posproof.derivations.plots import PLOTS, SUFFIXES

    s = subparsers.add_parser(
        "plot",
        help="draw one figure to a PNG, SVG or PDF file (matplotlib)",
        description="Draw one figure to a PNG, SVG or PDF file (matplotlib).",
    )
    s.add_argument("name", metavar="NAME", help=f"the figure: {', '.join(PLOTS)}")
    s.add_argument("--out", metavar="FILE", required=True, help=f"the file to write: {_suffixes(SUFFIXES)}")
    s.set_defaults(func=run)
    return s


def _suffixes(suffixes) -> str:
    r"""``.png, .svg or .pdf``."""
    dotted = [f".{s}" for s in suffixes]
    return ", ".join(dotted[:-1]) + f" or {dotted[-1]}"


def figure(name: str) -> str:
    r"""``name`` if it is a figure, else a usage error naming ``NAME``, the figures, and the nearest ones."""
    from posproof.derivations.plots import PLOTS

    if name in PLOTS:
        return name
    close = difflib.get_close_matches(name, list(PLOTS), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise UsageError(f"NAME must be one of {', '.join(PLOTS)}, got {name!r}{hint}")


def run(args) -> int:
    from posproof.derivations import export, plots

    name = figure(args.name)
    out = output_file(args.out, "--out", tuple(f".{s}" for s in plots.SUFFIXES))
    if not plots.available():
        raise UsageError(plots.INSTALL)
    try:
        with export.output_directory(out.parent):
            export.write_atomic(out, plots.plot_bytes(name, out.suffix.lstrip(".").lower()))
    except export.ExportError as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        raise UsageError(f"--out: cannot write {args.out}: {e.strerror or e}") from None
    print(f"wrote {out}")
    return 0
