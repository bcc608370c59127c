r"""Where ``posproof check`` spends its CPU, from one run in one process (never a timed test): CPU seconds, not wall
seconds, so that other work on a shared machine changes the totals little and the shares less.

It reports the serial part (importing the command line and the catalogue's modules, building the claims: the
fragment's checks, binding) and the verification of each claim, split into the symbolic line, the numeric line's
compiling (sides made concrete, renamed, printed), its evaluation at the points (draws, kernels' code), and the
facts' computations; then the wall time two workers would take on the verification (pool order as ``posproof
check`` schedules it, and longest claim first), and the estimate ``serial + parallel`` against the 10 s target.

Run: ``.venv/bin/python bench/bench_check_cpu.py [--dps N] [--jobs N] [--top N]``
"""

from __future__ import annotations

import argparse
import collections
import heapq
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGET_SECONDS = 10.0


class Split:
    r"""Exclusive CPU time of wrapped functions (a wrapped call inside another counts only for the inner one)."""

    def __init__(self):
        self.seconds: collections.Counter = collections.Counter()
        self._stack: list[float] = []

    def wrap(self, owner, name: str, label: str) -> None:
        f = getattr(owner, name)

        def timed(*args, **kwargs):
            t0 = time.process_time()
            self._stack.append(0.0)
            try:
                return f(*args, **kwargs)
            finally:
                spent = time.process_time() - t0
                inner = self._stack.pop()
                self.seconds[label] += spent - inner
                if self._stack:
                    self._stack[-1] += spent

        setattr(owner, name, timed)


def schedule(times: list[float], order, workers: int) -> float:
    r"""The wall time of ``workers`` processes taking the claims in ``order`` as each comes free."""
    free = [0.0] * workers
    for k in order:
        heapq.heappush(free, heapq.heappop(free) + times[k])
    return max(free)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--dps", type=int, default=50)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()

    t0 = time.process_time()
    import importlib

    import posproof.derivations.cli  # noqa: F401  (what the command imports first)

    t_cli = time.process_time() - t0
    from posproof.symbolic import registry
    from posproof.symbolic.engine import core, fragment, numeric_line, step

    split = Split()
    split.wrap(fragment, "refusals", "build: the fragment's checks")
    split.wrap(core, "bind", "build: binding bound variables")
    split.wrap(core, "_check_given", "build: given facts checked")
    t0 = time.process_time()
    for name in registry.MODULES:
        importlib.import_module(f"posproof.symbolic.{name}")
    t_import = time.process_time() - t0
    t0 = time.process_time()
    claims = registry.all()
    t_build = time.process_time() - t0
    built = dict(split.seconds)

    split.seconds.clear()
    split.wrap(step.Step, "symbolic_problem", "symbolic line")
    split.wrap(numeric_line, "_compile", "numeric line: compile")
    split.wrap(numeric_line, "_breakpoints", "numeric line: compile")
    split.wrap(numeric_line, "_given_plan", "numeric line: compile")
    split.wrap(core, "numeric_check", "numeric line: evaluation")
    split.wrap(core.Fact, "verify", "facts: computation")
    times, rows = [], []
    for c in claims:
        t = time.process_time()
        r = c.verify(dps=args.dps)
        times.append(time.process_time() - t)
        rows.append((times[-1], c.id, r.status))
    verify = sum(times)

    width = max(len(i) for _, i, _ in rows)
    print(f"claims: {len(claims)}  dps: {args.dps}  (CPU seconds)")
    print(f"{'slowest claims':<{width}}  seconds  status")
    for s, i, status in sorted(rows, reverse=True)[: args.top]:
        print(f"{i:<{width}}  {s:7.3f}  {status}")
    serial = t_cli + t_import + t_build
    print(f"\nserial: {serial:.2f} s = import the command line {t_cli:.2f} + the catalogue's modules {t_import:.2f} "
          f"+ build the claims {t_build:.2f}")  # fmt: skip
    for label, s in sorted(built.items(), key=lambda kv: -kv[1]):
        print(f"  {s:6.2f} s  {label} ({s / t_build:.0%} of the build)")
    print(f"verification: {verify:.2f} s over {len(claims)} claims")
    split.seconds["other (strategies' checks, results, formula)"] = verify - sum(split.seconds.values())
    for label, s in split.seconds.most_common():
        print(f"  {s:6.2f} s  {label} ({s / verify:.0%})")
    in_order = schedule(times, range(len(times)), args.jobs)
    longest = schedule(times, sorted(range(len(times)), key=lambda k: -times[k]), args.jobs)
    estimate = serial + in_order
    print(f"verification on {args.jobs} workers: {in_order:.2f} s in catalogue order, {longest:.2f} s longest first "
          f"(ideal {verify / args.jobs:.2f} s)")  # fmt: skip
    print(f"estimated `posproof check --jobs {args.jobs}` on an idle machine: {estimate:.2f} s = "
          f"{estimate / TARGET_SECONDS:.0%} of the {TARGET_SECONDS:.0f} s target")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
