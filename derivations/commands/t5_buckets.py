r"""``posproof t5-buckets``: the T5 bucket boundaries of one configuration (relative position = key - query)."""

from __future__ import annotations

from posproof.derivations.args import UsageError, flags, int_arg
from posproof.numeric._validate import MAX_INTEGER
from posproof.numeric.t5 import T5BucketConfig

#: The largest ``--num-buckets``: 4096. The table prints one line per bucket; T5, mT5, Flan-T5 and LongT5 use 32
#: (ports and variants up to a few hundred), and 4096 still prints at once.
MAX_NUM_BUCKETS = 4096
#: The largest ``--max-distance``: 2**53, the relative positions the kernel takes (float64 holds every integer up to
#: it). The table costs the same at any max distance (a bisection per bucket, never a list of every distance).
MAX_DISTANCE = MAX_INTEGER
#: The defaults, written once: T5's own (the library's).
DEFAULTS = {"num_buckets": T5BucketConfig.num_buckets, "max_distance": T5BucketConfig.max_distance}


def add_parser(subparsers):
    s = subparsers.add_parser("t5-buckets", help="T5 relative-position bucket boundaries (r = key - query)")
    s.add_argument(
        "--num-buckets",
        default=str(DEFAULTS["num_buckets"]),
        help=f"number of buckets (even; >= 4 when bidirectional; at most {MAX_NUM_BUCKETS})",
    )
    s.add_argument(
        "--max-distance",
        default=str(DEFAULTS["max_distance"]),
        help="offsets with |r| >= this all share the last bucket of their side (that bucket may start "
        "earlier: at |r| = 91 with the defaults); at most 2**53",
    )
    s.add_argument("--unidirectional", action="store_true", help="decoder-style buckets (only keys before the query)")
    s.set_defaults(func=run)
    return s


def _options(args) -> tuple[int, int]:
    r"""``(num_buckets, max_distance)``, each checked on its own, then together: a ``max_distance`` that leaves no
    logarithmic bucket blames ``--max-distance`` when it was typed, ``--num-buckets`` when it is the default."""
    lo = 2 if args.unidirectional else 4
    side = "" if args.unidirectional else " (bidirectional: half the buckets for each side)"
    try:
        num_buckets: int | None = int_arg(args.num_buckets, "--num-buckets", lo, MAX_NUM_BUCKETS)
    except UsageError:
        num_buckets = None
    if num_buckets is None or num_buckets % 2:
        accepted = f"an even integer in [{lo}, {MAX_NUM_BUCKETS}]{side}"
        raise UsageError(f"--num-buckets must be {accepted}, got {args.num_buckets!r}")
    max_distance = int_arg(args.max_distance, "--max-distance", 1, MAX_DISTANCE)
    side_buckets = num_buckets if args.unidirectional else num_buckets // 2
    max_exact = side_buckets // 2
    if max_distance <= max_exact:
        why = f"the {max_exact} distances below it get one bucket each"
        if args.max_distance == str(DEFAULTS["max_distance"]):
            raise UsageError(
                f"--num-buckets {num_buckets} needs --max-distance >= {max_exact + 1} ({why}), and --max-distance is "
                f"{max_distance} (its default): pass a larger --max-distance or fewer --num-buckets"
            )
        raise UsageError(
            f"--max-distance must be an integer in [{max_exact + 1}, {MAX_DISTANCE}] with --num-buckets "
            f"{num_buckets} ({why}), got {max_distance}"
        )
    return num_buckets, max_distance


def run(args) -> int:
    from posproof.numeric import t5_bucket_table

    num_buckets, max_distance = _options(args)
    with flags(num_buckets="--num-buckets", max_distance="--max-distance"):
        table = t5_bucket_table(
            bidirectional=not args.unidirectional, num_buckets=num_buckets, max_distance=max_distance
        )
    print(table)
    return 0
