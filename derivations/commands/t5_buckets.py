r"""``posproof t5-buckets``: the T5 bucket boundaries of one configuration (relative position = key - query)."""

from __future__ import annotations

from posproof.derivations.args import flags, int_arg


def add_parser(subparsers):
    s = subparsers.add_parser("t5-buckets", help="T5 relative-position bucket boundaries (r = key - query)")
    s.add_argument("--num-buckets", default="32", help="number of buckets (even; >= 4 when bidirectional)")
    s.add_argument(
        "--max-distance",
        default="128",
        help="offsets with |r| >= this all share the last bucket of their side (that bucket may start "
        "earlier: at |r| = 91 with the defaults)",
    )
    s.add_argument("--unidirectional", action="store_true", help="decoder-style buckets (only keys before the query)")
    s.set_defaults(func=run)
    return s


def run(args) -> int:
    from posproof.numeric import t5_bucket_table

    num_buckets = int_arg(args.num_buckets, "--num-buckets", 2)
    max_distance = int_arg(args.max_distance, "--max-distance", 1)
    with flags(num_buckets="--num-buckets", max_distance="--max-distance"):
        table = t5_bucket_table(
            bidirectional=not args.unidirectional, num_buckets=num_buckets, max_distance=max_distance
        )
    print(table)
    return 0
