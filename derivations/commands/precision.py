r"""``posproof precision``: RoPE's score error per storage dtype and angle style at 1k .. 1M positions, and the first
position where it exceeds the tolerance (the measure of :mod:`posproof.numeric.precision_profile`; the audit reports
the same). A progress bar (one step per row) is drawn on a terminal, never when stderr is piped or with ``-q``."""

from __future__ import annotations

import sys

from posproof.derivations.args import UsageError, add_quiet_option, flags, float_arg, int_arg
from posproof.numeric import tolerances

#: The smallest ``--max-position``: the first profile position (1k).
MIN_POSITION = 1024
#: The largest ``--max-position``: 2**52. Past it float64 cannot hold the angle m*theta_0 = m to better than one
#: radian (its spacing there is 1), so even float64 angles mean nothing; the scan costs about the same at any
#: position (a grid per octave, then at most ~80k positions per row: numeric.precision_profile.DENSE).
MAX_POSITION = 2**52
#: The largest ``--width``: 2048, four times the widest head a model rotates (64 .. 512 channels; Gemma's global
#: layers 512). The work grows with the width: 10 rows of up to ~80k positions each, at 2048 ~3 s per 8192
#: positions here, so ~2.5 minutes in the worst case (seconds for the defaults; 19 s at 2048 up to 2**52).
MAX_WIDTH = 2048
#: The defaults, written once (the help shows them).
DEFAULTS = {"max_position": 1048576, "width": 128, "tolerance": tolerances.PROFILE_TOLERANCE}


def add_parser(subparsers):
    s = subparsers.add_parser(
        "precision",
        help="RoPE score error per dtype and angle style at 1k..1M positions: where it exceeds the tolerance",
    )
    s.add_argument(
        "--max-position",
        default=str(DEFAULTS["max_position"]),
        help=f"positions scanned: up to N, in [{MIN_POSITION}, 2**52] (profile at 1k .. 1M)",
    )
    s.add_argument("--width", default=str(DEFAULTS["width"]), help=f"head width d (even, at most {MAX_WIDTH})")
    s.add_argument(
        "--tolerance",
        default=str(DEFAULTS["tolerance"]),
        help="score error relative to |q||k| counted as broken, in (0, 1)",
    )
    add_quiet_option(s)
    s.set_defaults(func=run)
    return s


def run(args) -> int:
    from posproof.derivations.progress import Progress
    from posproof.numeric import precision_profile as pp

    max_position = int_arg(args.max_position, "--max-position", MIN_POSITION, MAX_POSITION)
    width = int_arg(args.width, "--width", 2, MAX_WIDTH)
    if width % 2:
        raise UsageError(f"--width must be an even integer in [2, {MAX_WIDTH}] (pairs of channels rotate), got {width}")
    tolerance = float_arg(args.tolerance, "--tolerance", "a number in (0, 1)", lambda x: 0 < x < 1)
    positions = tuple(p for p in pp.PROFILE_POSITIONS if p <= max_position) or (max_position,)
    with (
        flags(width="--width", max_position="--max-position", tolerance="--tolerance"),
        Progress(len(pp.table_rows()), "precision", quiet=args.quiet) as bar,
    ):
        rows = pp.profile_table(
            width=width,
            tolerance=tolerance,
            positions=positions,
            max_position=max_position,
            progress=lambda row: bar.advance(note=f"{row.dtype} {row.style}"),
        )
    print(pp.header(width))
    sys.stdout.write(pp.format_profile_table(rows))
    return 0
