r"""``posproof precision``: RoPE's score error per storage dtype and angle style at 1k .. 1M positions, and the first
position where it exceeds the tolerance (the measure of :mod:`posproof.numeric.precision_profile`; the audit reports
the same)."""

from __future__ import annotations

import sys

from posproof.derivations.args import UsageError, flags, int_arg
from posproof.numeric import tolerances


def add_parser(subparsers):
    s = subparsers.add_parser(
        "precision",
        help="RoPE score error per dtype and angle style at 1k..1M positions: where it exceeds the tolerance",
    )
    s.add_argument("--max-position", default="1048576", help="positions scanned: up to N (profile at 1k .. 1M)")
    s.add_argument("--width", default="128", help="head width d (even)")
    s.add_argument(
        "--tolerance",
        default=str(tolerances.PROFILE_TOLERANCE),
        help="score error relative to |q||k| counted as broken",
    )
    s.set_defaults(func=run)
    return s


def run(args) -> int:
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
