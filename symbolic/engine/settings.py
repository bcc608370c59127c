r"""The proof engine's settings: working digits, numeric points and seed, and the error a numeric step may have.

(The tolerances of float computations, NumPy against mpmath and the audit's, are in :mod:`posproof.numeric.tolerances`.)
"""

from posproof.numeric.tolerances import MAX_DPS, MIN_DPS  # noqa: F401  (the digits any mpmath computation accepts)

#: Significant digits for the mpmath cross-check of every identity. 50 digits is far beyond float64 (~16),
#: so a formula that is right only "to float rounding" cannot pass by accident.
DEFAULT_DPS = 50

#: Digits given up to cancellation: a step passes numerically when its error, relative to the magnitude of its
#: terms (``|a| + |b|`` for ``a + b``), is at most ``10**-(dps - GUARD_DIGITS)`` (an mpmath number: no float
#: underflow at high ``dps``). The sides are evaluated with NUMERIC_GUARD_DIGITS extra digits, so rounding
#: stays ~20 orders of magnitude below this; 10 digits are given up so that a formula right to 40 of 50 digits
#: passes and one right to 39 does not (tests/symbolic/engine/test_engine.py pins it).
GUARD_DIGITS = 10

#: Extra working digits for evaluating the two sides: angles reach |m theta| ~ 2^24 * 1e6 ~ 1e13 in the default
#: domains, which costs 13 digits of the argument; 25 keeps the rounding error ~12 orders below the tolerance.
NUMERIC_GUARD_DIGITS = 25

#: Points per step for the numeric check (seeded, so a run is reproducible): at least this many, and at least
#: POINTS_PER_SIZE for every combination of declared sizes. With default domains spread over 12 orders of
#: magnitude and both signs, a failure that covers a quarter of the domain survives 24 independent points with
#: probability (3/4)^24 ~ 1e-3 per step; the catalogue's wrong variants fail at every point.
NUMERIC_POINTS = 24
POINTS_PER_SIZE = 4
#: The first points use each symbol's edge values (0, +-1, the branch cut of log/sqrt) instead of random draws.
EDGE_POINTS = 3
#: Then points with every other symbol at its first edge value (0 for a real), the rest drawn: ``x = 0, y != 0`` and
#: ``x != 0, y = 0`` (the edge points alone are diagonal, ``x = y = 0``).
MIXED_EDGE_POINTS = 2
#: Then points drawn far beyond the default magnitudes (domains.INT_FAR, REAL_FAR), where the domain allows.
FAR_POINTS = 2
#: At most this many breakpoints of a kernel's definition (Piecewise conditions, Min/Max) per step, each tried on
#: the breakpoint and one step to either side: 3 points each, on top of NUMERIC_POINTS. The catalogue's kernels
#: have at most 4; a cap keeps a user's kernel with many branches from dominating a check's time.
BREAKPOINTS = 8
#: At most this many terms summed at one point (all sums of a side together): a sum whose range is a drawn symbol
#: (``Σ_{i=0}^{n}`` with ``n`` up to 2^24) is evaluated term by term, so longer points are skipped as no evidence.
#: Log-spread draws fall below 2000 about half the time; 2000 terms at 75 digits take ~10 ms.
SUM_TERMS = 2000
#: Draws tried for a point that must satisfy the ``given`` facts before the point is skipped (no evidence).
GIVEN_TRIES = 50

#: The seed for the numeric points.
SEED = 20170612  # the day "Attention Is All You Need" appeared on arXiv


def rel_tol(dps: int):
    r"""The accepted relative error at ``dps`` digits: ``10**-(dps - GUARD_DIGITS)``, as an mpmath number."""
    import mpmath

    return mpmath.mpf(10) ** -(dps - GUARD_DIGITS)
