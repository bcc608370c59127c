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
from pathlib import Path

from posproof.printing.formats import format_names


class UsageError(Exception):
    """A mistake in the command line: reported on one line, exit code 2."""


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    r"""The one help style of every subcommand: a help text is a lowercase phrase that never states a default;
    the default is the option's own (declared once, in ``add_argument``) and shown here as ``(default: X)``;
    an option without a default (``None``) or a flag (``False``) shows none."""

    def _get_help_string(self, action):
        if action.default is None or action.default is False or action.default == []:
            return action.help or ""
        return super()._get_help_string(action)


class Parser(argparse.ArgumentParser):
    r"""An argument parser whose errors are :class:`UsageError` (one line, no usage dump), in the one help style."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message):
        raise UsageError(message)


#: An integer as an option writes it: ASCII digits with an optional sign (``int()`` also reads ``' 5'``, ``'5_0'``
#: and other scripts' digits such as ``'١٢٣'``: typos, not numbers meant).
_INTEGER = re.compile(r"[+-]?[0-9]+")
#: The most characters of a rejected value a message repeats (a pasted 5000-digit number stays one short line).
_SHOWN = 40


def _shown(text: str) -> str:
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "...")


def int_arg(text: str, flag: str, lo: int, hi: int | None = None) -> int:
    r"""An integer option in ``[lo, hi]``, written in ASCII digits, or a one-line usage error naming the flag and
    the range."""
    accepted = f"an integer in [{lo}, {hi}]" if hi is not None else f"an integer >= {lo}"
    if not _INTEGER.fullmatch(text) or len(text) > _SHOWN:
        raise UsageError(f"{flag} must be {accepted}, got {_shown(text)}")
    value = int(text)
    if value < lo or (hi is not None and value > hi):
        raise UsageError(f"{flag} must be {accepted}, got {value}")
    return value


def float_arg(text: str, flag: str, accepted: str, ok: Callable[[float], bool]) -> float:
    r"""A real option (``float`` of the text: a plain decimal, never evaluated) with ``ok(value)``, or a one-line
    usage error naming the flag and ``accepted``."""
    if not text.isascii() or len(text) > _SHOWN:  # float() also reads other scripts' digits ('٣.٥')
        raise UsageError(f"{flag} must be {accepted}, got {_shown(text)}")
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"{flag} must be {accepted}, got {_shown(text)}") from None
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
    except KeyboardInterrupt:  # Ctrl-C: one line (a command that keeps partial results catches it itself)
        print("\nposproof: interrupted", file=sys.stderr)
        return INTERRUPTED


#: The exit code of a command stopped by Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130


def standalone(add_parser: Callable, argv: list[str] | None = None) -> int:
    r"""``python -m posproof.derivations.commands.<name> ...``: ``posproof <name> ...`` with one subcommand's parser."""
    names: list[str] = []

    def build() -> argparse.ArgumentParser:
        p = Parser(prog="posproof")
        sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
        add_parser(sub)
        names[:] = list(sub.choices)
        return p

    build()
    return run(build, [*names[:1], *(sys.argv[1:] if argv is None else argv)])


#: Output formats and their spellings: the same in ``derive`` and ``export`` (``html`` too: one page).
FORMATS = format_names("latex", "markdown", "text", "json", "html")
#: The formats of a command that prints a report: text for a person, JSON for a program.
REPORT_FORMATS = {"text": "text", "txt": "text", "json": "json"}


def output_format(text: str, formats: dict[str, str] = FORMATS) -> str:
    r"""The format ``--format`` names (any spelling of ``formats``, by default :data:`FORMATS`); a usage error
    otherwise."""
    if text not in formats:
        raise UsageError(f"--format must be one of {', '.join(dict.fromkeys(formats.values()))}, got {text!r}")
    return formats[text]


def add_format_option(
    parser: argparse.ArgumentParser, formats: dict[str, str] = REPORT_FORMATS, default: str | None = "text"
) -> None:
    r"""``--format F`` (one of ``formats``; ``default``, or required when ``None``) and ``--json``, the alias of
    ``--format json``, which every command with JSON output takes. Read the choice with :func:`output_format`."""
    names = ", ".join(dict.fromkeys(formats.values()))
    parser.add_argument("--format", default=default, required=default is None, help=f"output format: {names}")
    if "json" in formats:
        parser.add_argument(
            "--json", dest="format", action="store_const", const="json", help="the same as --format json"
        )


def add_quiet_option(parser: argparse.ArgumentParser) -> None:
    r"""``-q/--quiet``: no progress bar (there is none either when stderr is not a terminal)."""
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar (none when stderr is piped)")


def cores() -> int:
    r"""The cores this process may run on (its CPU affinity where the platform has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def jobs_arg(text: str, flag: str = "--jobs") -> int:
    r"""``--jobs auto|N``: worker processes, at most the cores (more only queue for them and fork memory); a number
    above the cores is clamped, with one line on stderr saying so."""
    n = cores()
    if text == "auto":
        return n
    value = int_arg(text, flag, 1, MAX_JOBS)
    if value > n:
        print(f"posproof: {flag} {value} is more than the {n} cores: using {n}", file=sys.stderr)
        return n
    return value


#: The largest ``--jobs`` accepted at all (above it the number is a typo, not a machine).
MAX_JOBS = 4096


def output_dir(text: str, flag: str = "--out") -> Path:
    r"""A directory a command will write into, checked before any work: an existing directory must be writable;
    one that does not exist must be creatable (its nearest existing parent a writable directory). Nothing is
    created here."""
    if not text or "\0" in text:
        raise UsageError(f"{flag} must name a directory, got {text!r}")
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise UsageError(f"{flag} must be a directory, got the file {text!r}")
    _writable_ancestor(path, flag, text)
    return path


def output_file(text: str, flag: str = "--out", suffixes: tuple[str, ...] = ()) -> Path:
    r"""A file a command will write, checked before any work: not a directory, with one of ``suffixes`` (when
    given), in a directory that exists and is writable or can be created. Nothing is created here."""
    if not text or "\0" in text:
        raise UsageError(f"{flag} must name a file, got {text!r}")
    path = Path(text)
    if suffixes and path.suffix.lower() not in suffixes:
        raise UsageError(f"{flag} must end in {', '.join(suffixes)}, got {text!r}")
    if path.is_dir():
        raise UsageError(f"{flag} must be a file, got the directory {text!r}")
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"{flag}: cannot write {text}: permission denied")
    _writable_ancestor(path.parent, flag, text)
    return path


def _writable_ancestor(path: Path, flag: str, text: str) -> None:
    probe = path.absolute()
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        raise UsageError(f"{flag}: cannot create {text}: {str(probe)!r} is a file")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise UsageError(f"{flag}: cannot write to {text}: {str(probe)!r} is not writable")


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
