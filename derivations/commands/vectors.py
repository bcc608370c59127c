r"""``posproof vectors --out DIR``: write the golden vectors for ports in other languages.

JSON documents computed with mpmath (``numeric/vectors.py``): sinusoidal, RoPE in both layouts and with every
scaling rule, T5 and DeBERTa buckets, ALiBi slopes, and ``index.json`` with their SHA-256. Deterministic (the same
bytes on every run) and written atomically.

``add_parser(subparsers)`` adds the subcommand to the ``posproof`` parser; ``run(args)`` runs it (usage errors
raise ``derivations.args.UsageError``); ``main(argv)`` runs it on its own (``python -m
posproof.derivations.commands.vectors``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_parser(subparsers) -> argparse.ArgumentParser:
    r"""Add ``vectors`` to the ``posproof`` subcommands (the subparsers' own parser class is used)."""
    s = subparsers.add_parser("vectors", help="write language-neutral JSON golden vectors (mpmath) for ports")
    s.add_argument("--out", required=True, help="output directory (created if needed)")
    s.set_defaults(func=run)
    return s


def run(args) -> int:
    r"""Write the vectors; 0 on success."""
    from posproof.derivations.args import UsageError

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out must be a directory, got the file {str(out)!r}")
    try:
        from posproof.numeric import vectors  # imported when the command runs

        written = vectors.write_vectors(out)
    except OSError as e:
        raise UsageError(f"--out: cannot write to {out}: {e.strerror or e}") from None
    print(
        f"wrote {len(written)} files to {out} ({vectors.DPS}-digit mpmath, {vectors.DIGITS} significant digits): "
        + ", ".join(p.name for p in written)
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    r"""``python -m posproof.derivations.commands.vectors ...``: the same as ``posproof vectors ...``."""
    from posproof.derivations.args import standalone

    return standalone(add_parser, argv)


if __name__ == "__main__":
    sys.exit(main())
