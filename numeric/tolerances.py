r"""Every tolerance and precision setting of posproof, in one place, each with the reason for its value."""

#: Significant digits for the mpmath cross-check of every identity. 50 digits is far beyond float64 (~16),
#: so a formula that is right only "to float rounding" cannot pass by accident.
DEFAULT_DPS = 50

#: Digits given up to cancellation: a step passes numerically when its error, relative to the magnitude of its
#: terms (``|a| + |b|`` for ``a + b``), is at most ``10**-(dps - GUARD_DIGITS)`` (an mpmath number: no float
#: underflow at high ``dps``). The sides are evaluated with NUMERIC_GUARD_DIGITS extra digits, so rounding
#: stays ~20 orders of magnitude below this; 10 digits are given up so that a formula right to 40 of 50 digits
#: passes and one right to 39 does not (tests/test_core.py pins it).
GUARD_DIGITS = 10

#: Extra working digits for evaluating the two sides: angles reach |m theta| ~ 2^24 * 1e6 ~ 1e13 in the default
#: domains, which costs 13 digits of the argument; 25 keeps the rounding error ~12 orders below the tolerance.
NUMERIC_GUARD_DIGITS = 25

#: The smallest precision ``--dps`` accepts: below ~20 digits the guard above leaves nothing to check.
MIN_DPS = 20
#: The largest: beyond this mpmath is slow and nothing more is learnt.
MAX_DPS = 1000

#: Points per step for the numeric check (seeded, so a run is reproducible): at least this many, and at least
#: POINTS_PER_SIZE for every combination of declared sizes. With default domains spread over 12 orders of
#: magnitude and both signs, a failure that covers a quarter of the domain survives 24 independent points with
#: probability (3/4)^24 ~ 1e-3 per step; the catalogue's wrong variants fail at every point.
NUMERIC_POINTS = 24
POINTS_PER_SIZE = 4
#: The first points use each symbol's edge values (0, +-1, the branch cut of log/sqrt) instead of random draws.
EDGE_POINTS = 3

#: The seed for the numeric points.
SEED = 20170612  # the day "Attention Is All You Need" appeared on arXiv


def rel_tol(dps: int):
    r"""The accepted relative error at ``dps`` digits: ``10**-(dps - GUARD_DIGITS)``, as an mpmath number."""
    import mpmath

    return mpmath.mpf(10) ** -(dps - GUARD_DIGITS)


#: float64 NumPy against the mpmath reference, relative to the largest magnitude in the result. Angles up to
#: ~1e4 rad lose ~1e4 * 2**-53 ~ 1e-12 absolute in sin/cos argument reduction; 1e-10 leaves a margin.
FLOAT64_RTOL = 1e-10

#: Absolute agreement of our NumPy code with a float64 third-party function computing the same formula in a
#: different order (e.g. the NumPy ``rope`` of "Positional encoding: give tokens a sense of order"): a few ulps
#: of values of size ~1 after ~4 flops.
FLOAT64_ATOL = 1e-12

#: RoPE precision study (numeric/precision.py): the relative-position property "breaks" at the first position
#: where |s(m, m + r) - s(0, r)| / (|q| |k|) exceeds this many machine epsilons of the storage dtype. Rounding
#: cos, sin, two products, a sum and the stored result costs at most ~3 eps per channel, and over d = 128
#: channels with random signs the score error at position 0 is a few eps (measured 2.4-3.7); 16 eps leaves that floor
#: far behind, so what trips it is error that grows with the position (angles m theta_i losing digits).
ROPE_BREAK_EPS = 16


def rope_break_tolerance(dtype: str) -> float:
    r"""``ROPE_BREAK_EPS`` machine epsilons of ``dtype`` (float64, float32, float16 or bfloat16)."""
    eps = {"float64": 2.0**-52, "float32": 2.0**-23, "float16": 2.0**-10, "bfloat16": 2.0**-7}
    if dtype not in eps:
        raise ValueError(f"dtype must be one of {', '.join(eps)}, got {dtype!r}")
    return ROPE_BREAK_EPS * eps[dtype]


#: Agreement of float32 RoPE (table in float32, complex64 arithmetic) with a float64 computation rounded to
#: float32 (that note's ``rope`` on float32 input): cos/sin rounded once (eps/2 each), one complex multiply (two
#: products and a sum, ~1.5 eps) and the final rounding; relative to the row's pair magnitude, 4 eps covers it.
ROPE_FLOAT32_RTOL = 4 * 2.0**-23
