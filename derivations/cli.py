r"""The ``posproof`` command line.

``posproof list [--format F]`` · ``posproof derive ID [--format F]`` · ``posproof check [ID ...] [--dps N] [--jobs N]
[--json]`` · ``posproof export --format F --out DIR [--force]`` · ``posproof plot NAME --out FILE`` ·
``posproof precision`` · ``posproof t5-buckets`` · ``posproof extend`` (context extension) · ``posproof audit``
(a user's implementation) · ``posproof vectors`` (golden vectors) · ``posproof properties`` (the rules table) ·
``posproof annotate`` (the article, statement by statement) · ``posproof --version``. Each subcommand is one module
of :mod:`posproof.derivations.commands`. Formats ``F``: ``latex`` (or ``tex``), ``markdown`` (or ``md``), ``text``
(or ``txt``), ``json``, ``html`` (one page, math set by KaTeX), in both ``derive`` and ``export``.

Exit codes: 0 success (every selected claim verified), 1 a claim failed, 2 a usage error (one line on stderr,
naming the option as it is typed, e.g. ``--width``).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from posproof.derivations.args import Parser, run
from posproof.derivations.commands import SUBCOMMANDS


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("posproof")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree that was never installed
        return "unknown (not installed)"


class _Parser(Parser):
    r"""The top-level parser: ``--version`` takes nothing after it (argparse's version action prints and exits
    before it reads the rest, so ``posproof --version extra`` would succeed)."""

    def parse_known_args(self, args=None, namespace=None):
        args = sys.argv[1:] if args is None else list(args)
        if args[:1] == ["--version"] and args[1:]:
            self.error(f"--version takes no other arguments, got {args[1]!r}")
        return super().parse_known_args(args, namespace)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="posproof", description="Machine-checked derivations of transformer positional encodings.")
    p.add_argument("--version", action="version", version=f"posproof {_version()}", help="print the version and exit")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name in SUBCOMMANDS:
        importlib.import_module(f"posproof.derivations.commands.{name}").add_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    return run(build_parser, argv)


if __name__ == "__main__":
    sys.exit(main())
