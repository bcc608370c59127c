r"""Time ``posproof check`` for the whole catalogue: seconds per claim (one process) and the wall time of the
command as a user runs it (import, registry build, parallel verification), all from one run.

Target: the whole catalogue in under 10 s on a 2-core machine. Run: ``make bench`` or
``.venv/bin/python bench/bench_check.py [--dps N]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

TARGET_SECONDS = 10.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--dps", type=int, default=50)
    args = ap.parse_args()

    t0 = time.perf_counter()
    from posproof.symbolic import registry

    claims = registry.all()
    t_build = time.perf_counter() - t0
    rows = []
    for c in claims:
        r = c.verify(dps=args.dps)
        rows.append((r.seconds, c.id, r.status))
    serial = sum(s for s, _, _ in rows)

    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "posproof.derivations.cli", "check", "--dps", str(args.dps)],
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - t0

    width = max(len(i) for _, i, _ in rows)
    print(f"{'claim':<{width}}  seconds  status")
    for s, i, status in sorted(rows, reverse=True):
        print(f"{i:<{width}}  {s:7.3f}  {status}")
    print()
    print(f"claims: {len(rows)}  dps: {args.dps}")
    print(f"import + build registry: {t_build:.2f} s")
    print(f"verification, one process: {serial:.2f} s (mean {serial / len(rows):.3f} s per claim)")
    print(
        f"`posproof check` wall time (fresh process, --jobs auto): {wall:.2f} s "
        f"= {wall / TARGET_SECONDS:.0%} of the {TARGET_SECONDS:.0f} s target; exit code {proc.returncode}"
    )
    return 0 if proc.returncode == 0 and wall < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
