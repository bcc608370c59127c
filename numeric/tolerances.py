r"""Every tolerance and precision setting of posproof, in one place, each with the reason for its value."""

#: Significant digits for the mpmath cross-check of every identity. 50 digits is far beyond float64 (~16),
#: so a formula that is right only "to float rounding" cannot pass by accident.
DEFAULT_DPS = 50

#: Digits given up to cancellation: a step passes numerically when its relative error is at most
#: ``10**-(dps - GUARD_DIGITS)``. Sums of up to a few hundred terms of size ~1 that cancel to O(1e-3) lose at
#: most ~5 digits; 10 leaves margin while still rejecting any wrong formula by ~35 orders of magnitude at 50 dps.
GUARD_DIGITS = 10

#: The smallest precision ``--dps`` accepts: below ~20 digits the guard above leaves nothing to check.
MIN_DPS = 20
#: The largest: beyond this mpmath is slow and nothing more is learnt.
MAX_DPS = 1000

#: Random points per step for the numeric check (seeded, so a run is reproducible). Six points make a wrong
#: identity agreeing by accident at all of them practically impossible, and keep the catalogue fast.
NUMERIC_POINTS = 6

#: The seed for the numeric points.
SEED = 20170612  # the day "Attention Is All You Need" appeared on arXiv


#: Below this magnitude both sides count as zero and the absolute error is used instead of the relative one.
#: Exact zeros arise (e.g. sin(0)); 10**-(dps - GUARD_DIGITS) absolute keeps the same number of digits.
def rel_tol(dps: int) -> "float":
    r"""The accepted relative error at ``dps`` digits: ``10**-(dps - GUARD_DIGITS)``."""
    return 10.0 ** -(dps - GUARD_DIGITS)


#: float64 NumPy against the mpmath reference, relative to the largest magnitude in the result. Angles up to
#: ~1e4 rad lose ~1e4 * 2**-53 ~ 1e-12 absolute in sin/cos argument reduction; 1e-10 leaves a margin.
FLOAT64_RTOL = 1e-10

#: Absolute agreement of our NumPy code with a float64 third-party function computing the same formula in a
#: different order (e.g. the seed's rope): a few ulps of values of size ~1 after ~4 flops.
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
#: float32 (the seed's function on float32 input): cos/sin rounded once (eps/2 each), one complex multiply (two
#: products and a sum, ~1.5 eps) and the final rounding; relative to the row's pair magnitude, 4 eps covers it.
ROPE_FLOAT32_RTOL = 4 * 2.0**-23
