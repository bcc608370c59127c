r"""Speed of the 50-digit mpmath references, in seconds from one run (never a timed test).

``rope_mp`` of 4096 positions x width 128 at 50 digits (both layouts) and ``sinusoidal_mp`` of the same size,
with gmpy2 (MPFR) when mpmath runs on it and with mpmath's own functions. Target: ``rope_mp`` at most
2 s on the development machine.

Run: ``.venv/bin/python bench/bench_references.py``
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import mpmath
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from posproof.numeric import _mp, rope_mp, sinusoidal_mp  # noqa: E402


def seconds(f) -> float:
    r"""One run of ``f()`` (each takes about a second; the first run is the measurement)."""
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def main() -> int:
    tokens, width, dps = 4096, 128, 50
    x = np.random.default_rng(0).standard_normal((tokens, width))
    positions = np.arange(tokens)
    print(f"{tokens} positions x width {width} at {dps} digits; mpmath backend: {mpmath.libmp.BACKEND}")
    for use_gmpy2 in (True, False):
        _mp.USE_GMPY2 = use_gmpy2
        label = "gmpy2 (MPFR)" if use_gmpy2 and _mp.gmpy2_module() is not None else "mpmath"
        for layout in ("interleaved", "half"):
            t = seconds(lambda layout=layout: rope_mp(x, positions, layout=layout, dps=dps))
            print(f"  rope_mp, {layout:<11} [{label:<12}] {t:6.2f} s   (target <= 2 s)")
        t = seconds(lambda: sinusoidal_mp(positions, width=width, dps=dps))
        print(f"  sinusoidal_mp            [{label:<12}] {t:6.2f} s")
    _mp.USE_GMPY2 = True
    return 0


if __name__ == "__main__":
    sys.exit(main())
