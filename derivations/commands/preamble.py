r"""``posproof preamble [--sty FILE]``: the LaTeX package every LaTeX posproof prints compiles with
(``posproof.sty``: amsmath, amssymb, the theorem environments, booktabs, upquote …); ``--sty FILE`` writes it to
``FILE`` (``\usepackage{posproof}`` then finds it beside the document)."""

from __future__ import annotations

import sys
from importlib.resources import files
from pathlib import Path

from posproof.derivations.args import UsageError


def sty() -> str:
    r"""The text of ``posproof.sty`` (package data of :mod:`posproof.printing`)."""
    return files("posproof.printing").joinpath("posproof.sty").read_text(encoding="utf-8")


def add_parser(subparsers):
    s = subparsers.add_parser(
        "preamble", help="print the LaTeX package posproof.sty", description="Print the LaTeX package posproof.sty."
    )
    s.add_argument("--sty", metavar="FILE", default=None, help="write it to FILE instead (e.g. posproof.sty)")
    s.set_defaults(func=run)
    return s


def run(args) -> int:
    text = sty()
    if args.sty is None:
        sys.stdout.write(text)
        return 0
    path = Path(args.sty)
    if path.is_dir():
        path = path / "posproof.sty"
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise UsageError(f"--sty: cannot write {path}: {e.strerror}") from None
    return 0
