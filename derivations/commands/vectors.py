r"""``posproof vectors --out DIR [-q]``: write the golden vectors for ports in other languages.

JSON documents computed with mpmath (``numeric/vectors.py``): sinusoidal, RoPE in both layouts and with every
scaling rule, T5 and DeBERTa buckets, ALiBi slopes, and ``index.json`` with their SHA-256. Deterministic (the same
bytes on every run) and written atomically, one file after the other.

``--out`` is checked, and made, before any work; a progress bar (one step per file) is drawn on a terminal; Ctrl-C
stops with one line saying which files were written (each whole), exit 130.

``add_parser(subparsers)`` adds the subcommand to the ``posproof`` parser; ``run(args)`` runs it (usage errors
raise ``derivations.args.UsageError``); ``main(argv)`` runs it on its own (``python -m
posproof.derivations.commands.vectors``).
"""

from __future__ import annotations

import argparse
import sys

from posproof.derivations.args import INTERRUPTED, UsageError, add_quiet_option, output_dir
from posproof.derivations.progress import Progress


def add_parser(subparsers) -> argparse.ArgumentParser:
    r"""Add ``vectors`` to the ``posproof`` subcommands (the subparsers' own parser class is used)."""
    s = subparsers.add_parser(
        "vectors",
        help="write language-neutral JSON golden vectors (mpmath) for ports",
        description="Write language-neutral JSON golden vectors (mpmath) for ports.",
    )
    s.add_argument("--out", metavar="DIR", required=True, help="output directory (created if missing)")
    add_quiet_option(s)
    s.set_defaults(func=run)
    return s


def run(args) -> int:
    r"""Write the vectors; 0 on success."""
    from posproof.derivations import export

    out = output_dir(args.out)
    written: list[str] = []
    try:
        from posproof.numeric import vectors  # imported when the command runs

        with export.output_directory(out), Progress(len(vectors.DOCUMENTS) + 1, "computing", quiet=args.quiet) as bar:

            def wrote(name: str, total: int) -> None:
                written.append(name)
                bar.advance(note=name)

            vectors.write_vectors(out, wrote)
    except export.ExportError as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        raise UsageError(f"--out: cannot write {e.filename or out}: {e.strerror or e}") from None
    except KeyboardInterrupt:
        done = f"wrote {', '.join(written)} to {out} before stopping, each whole" if written else "nothing written"
        print(f"\nposproof: interrupted: {done}", file=sys.stderr)
        return INTERRUPTED
    print(
        f"wrote {len(written)} files to {out} ({vectors.DPS}-digit mpmath, {vectors.DIGITS} significant digits): "
        + ", ".join(written)
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    r"""``python -m posproof.derivations.commands.vectors ...``: the same as ``posproof vectors ...``."""
    from posproof.derivations.args import standalone

    return standalone(add_parser, argv)


if __name__ == "__main__":
    sys.exit(main())
