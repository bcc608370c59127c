r"""Shared timing helper for the benchmarks: the best of several runs, after a warm-up."""

from __future__ import annotations

import time


def best(f, repeat: int = 5) -> float:
    r"""The fastest of ``repeat`` runs of ``f()``, in seconds (after one warm-up run)."""
    f()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)
