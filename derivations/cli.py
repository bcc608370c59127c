r"""The ``posproof`` command line (also ``python -m posproof``).

``posproof list`` · ``posproof derive ID`` · ``posproof check [ID ...] [--topic T] [-k PATTERN] [-x] [--dps N] [--jobs
N] [--junit FILE]`` · ``posproof export --format F --out DIR [--force]`` · ``posproof plot NAME --out FILE`` ·
``posproof precision`` · ``posproof t5-buckets`` · ``posproof extend`` (context extension) · ``posproof audit`` (a
user's implementation, run in a child process; ``--timeout``, ``--junit FILE``) · ``posproof sweep TARGET...`` (the
audit over directories of configs, model_types or MODULE:FUNCTION lists: JSON lines, ``--resume``, local processes or a
Dask cluster with ``--scheduler``) · ``posproof vectors`` (golden vectors) · ``posproof properties`` (the rules table) ·
``posproof annotate`` (the article, statement by statement) · ``posproof preamble`` (``posproof.sty``) ·
``posproof --version``. Each subcommand is one module of
:mod:`posproof.derivations.commands`; what they share (one help style, ``--format`` with ``--json`` its alias, ``-q``,
bounded options, paths checked before work) is in :mod:`posproof.derivations.args`, the JSON documents' schemas and
JUnit XML in :mod:`posproof.derivations.machine`, the progress bar in :mod:`posproof.derivations.progress`. Formats of
``derive`` and ``export``: ``latex`` (or ``tex``), ``markdown`` (or ``md``), ``text`` (or ``txt``), ``json``, ``html``
(one page, math set by KaTeX); of the reports (``list``, ``check``, ``audit``, ``extend``, ``properties``): ``text`` and
``json``.

Exit codes: 0 success (every selected claim verified, the audited code conforms), 1 a claim failed or a finding,
2 a usage error (one line on stderr, naming the option as it is typed, e.g. ``--width``), 130 interrupted (Ctrl-C:
one line, and what was done is kept).
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
    for name in dict.fromkeys((*SUBCOMMANDS, "preamble")):  # preamble: the LaTeX package posproof.sty
        importlib.import_module(f"posproof.derivations.commands.{name}").add_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    return run(build_parser, argv)


if __name__ == "__main__":
    sys.exit(main())
