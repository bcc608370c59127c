r"""What every subcommand of ``posproof`` shares: one-line usage errors, option parsers, the error handling of
``main``, and running a subcommand on its own (``python -m posproof.derivations.commands.<name>``).

The subcommand modules import this and never :mod:`posproof.derivations.cli`, which imports them: no cycle.
Exit codes: 0 success, 1 a claim failed, 2 a usage error (one line on stderr naming the option as typed).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable
from contextlib import contextmanager

from posproof.printing.formats import format_names


class UsageError(Exception):
    """A mistake in the command line: reported on one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    r"""An argument parser whose errors are :class:`UsageError` (one line, no usage dump)."""

    def error(self, message):
        raise UsageError(message)


def int_arg(text: str, flag: str, lo: int, hi: int | None = None) -> int:
    r"""An integer option in ``[lo, hi]``, or a one-line usage error naming the flag and the range."""
    accepted = f"an integer in [{lo}, {hi}]" if hi is not None else f"an integer >= {lo}"
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"{flag} must be {accepted}, got {text!r}") from None
    if value < lo or (hi is not None and value > hi):
        raise UsageError(f"{flag} must be {accepted}, got {value}")
    return value


def float_arg(text: str, flag: str, accepted: str, ok: Callable[[float], bool]) -> float:
    r"""A real option (``float`` of the text: a plain decimal, never evaluated) with ``ok(value)``, or a one-line
    usage error naming the flag and ``accepted``."""
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"{flag} must be {accepted}, got {text!r}") from None
    if not math.isfinite(value) or not ok(value):
        raise UsageError(f"{flag} must be {accepted}, got {text}")
    return value


@contextmanager
def flags(**names: str):
    r"""Report a library ``ValueError`` about argument ``name`` as a usage error about its option ``--flag``."""
    try:
        yield
    except ValueError as e:
        message = str(e)
        for name, flag in names.items():
            message = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", flag, message)
        raise UsageError(message) from None


def run(build_parser: Callable[[], argparse.ArgumentParser], argv: list[str] | None) -> int:
    r"""Parse ``argv`` with ``build_parser()`` and run the chosen subcommand, with ``posproof``'s exit codes."""
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except (UsageError, ValueError) as e:  # a usage error, or bad input reaching the library: one line
        print(f"posproof: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `posproof list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def standalone(add_parser: Callable, argv: list[str] | None = None) -> int:
    r"""``python -m posproof.derivations.commands.<name> ...``: ``posproof <name> ...`` with one subcommand's parser."""
    names: list[str] = []

    def build() -> argparse.ArgumentParser:
        p = Parser(prog="posproof", formatter_class=argparse.ArgumentDefaultsHelpFormatter)
        sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
        add_parser(sub)
        names[:] = list(sub.choices)
        return p

    build()
    return run(build, [*names[:1], *(sys.argv[1:] if argv is None else argv)])


#: Output formats and their spellings: the same in ``derive`` and ``export`` (``html`` too: one page).
FORMATS = format_names("latex", "markdown", "text", "json", "html")


def output_format(text: str) -> str:
    r"""The format ``--format`` names (any spelling of :data:`FORMATS`); a usage error otherwise."""
    if text not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, got {text!r}")
    return FORMATS[text]


def select(ids: list[str], claims: tuple | None = None) -> list:
    r"""The claims ``ids`` names (all when empty; an id given twice is checked and counted once), from the catalogue
    or, when ``claims`` is given (``--claims MODULE``, :func:`user_claims`), from those."""
    from posproof.symbolic import registry

    if claims is not None:
        by_id = {c.id: c for c in claims}
        unknown = [i for i in dict.fromkeys(ids) if i not in by_id]
        if unknown:
            import difflib

            close = difflib.get_close_matches(unknown[0], list(by_id), n=3, cutoff=0.5)
            hint = f"; did you mean {', '.join(close)}?" if close else f"; it has {', '.join(by_id)}"
            raise UsageError(f"--claims: the module has no claim {unknown[0]!r}{hint}")
        return [by_id[i] for i in dict.fromkeys(ids)] if ids else list(claims)
    if not ids:
        return list(registry.all())
    try:
        return [registry.get(i) for i in dict.fromkeys(ids)]
    except ValueError as e:
        raise UsageError(str(e)) from None


#: The help of ``--claims`` (``check``, ``derive``, ``export``).
CLAIMS_HELP = (
    "a module of your own claims instead of the catalogue: a dotted module name importable from the current "
    "directory, or a path to a .py file, defining claims() (see docs/writing-claims.md)"
)


def add_claims_option(parser: argparse.ArgumentParser) -> None:
    r"""Add ``--claims MODULE`` to a subcommand's parser."""
    parser.add_argument("--claims", metavar="MODULE", default=None, help=CLAIMS_HELP)


def user_claims(target: str | None) -> tuple | None:
    r"""The claims of ``--claims MODULE`` (:func:`posproof.symbolic.registry.user_claims`), ``None`` without the
    option; a module that cannot be loaded is a one-line usage error naming ``--claims``."""
    if target is None:
        return None
    from posproof.symbolic import registry

    try:
        return registry.user_claims(target)
    except ValueError as e:
        raise UsageError(f"--claims: {e}") from None
