r"""Every tolerance of posproof's float computations, in one place, each with the reason for its value.

The proof engine's own settings (working digits, numeric points, seed, the error a numeric step may have) are the
engine's: :mod:`posproof.symbolic.engine.settings`."""

#: The smallest precision ``--dps`` accepts: below ~20 digits the engine's guard digits leave nothing to check.
MIN_DPS = 20
#: The largest: beyond this mpmath is slow and nothing more is learnt.
MAX_DPS = 1000


#: Facts computed through the NumPy float64 kernels (scores of size ~1-100 after a few hundred flops: rounding
#: ~1e-14) count two values as equal within this; the wrong computations they must reject differ by >= 1e-3.
FACT_FLOAT64_ATOL = 1e-12

#: float64 NumPy against the mpmath reference, relative to the largest magnitude in the result. Angles up to
#: ~1e4 rad lose ~1e4 * 2**-53 ~ 1e-12 absolute in sin/cos argument reduction; 1e-10 leaves a margin.
FLOAT64_RTOL = 1e-10

#: Absolute agreement of our NumPy code with a float64 third-party function computing the same formula in a
#: different order (e.g. the NumPy ``rope`` of "Positional encoding: give tokens a sense of order"): a few ulps
#: of values of size ~1 after ~4 flops.
FLOAT64_ATOL = 1e-12

#: Agreement of float32 RoPE (table in float32, complex64 arithmetic) with a float64 computation rounded to
#: float32 (that note's ``rope`` on float32 input): cos/sin rounded once (eps/2 each), one complex multiply (two
#: products and a sum, ~1.5 eps) and the final rounding; relative to the row's pair magnitude, 4 eps covers it.
ROPE_FLOAT32_RTOL = 4 * 2.0**-23


# ---- the audit of users' implementations (numeric/audit/__init__.py and numeric/_audit_*.py)
# ------------------------------

#: An entry of ``A_m`` (images of unit vectors) below this couples nothing: a rotated unit vector has entries
#: ``cos``/``sin`` of size ~1 or exact zeros; 1e-9 is far below any sine the probes produce (the probes go up to
#: positions where ``m theta_i >= 1``) and far above float64 noise.
AUDIT_COUPLING_TOL = 1e-9
#: Two block entries that should be equal (``A_aa = A_bb``, ``A_ab = -A_ba``) may differ by this much: values are
#: cos/sin of size <= 1 stored in at worst bfloat16 (unit roundoff 2**-9 ~ 2e-3); a wrong sign or a missing term
#: differs by a sine that the probes make ~1.
AUDIT_BLOCK_TOL = 2e-2
#: A pair's frequency matches a candidate to this relative accuracy when the function's angles are float32 or
#: float64: float32 rounds theta_i (6e-8) and the probed angles (~1e-7 absolute on angles >= 1).
AUDIT_FREQ_RTOL = 1e-5
#: ... and to this one when its angles are bfloat16/float16 (unit roundoff 2**-9 on theta, the product and cos/sin):
#: the named alternatives (bases, exponents, scaling rules) differ by far more than 3 %.
AUDIT_FREQ_RTOL_LOW = 3e-2
#: An angle at position 0 this close to 0 (or to the offset of a named bug) counts as equal: float32 cos/sin of 0 are
#: exact; bfloat16 ones are exact too; 1e-3 leaves room for a sum of rounded terms.
AUDIT_ANGLE_TOL = 1e-3
#: Median relative angle error ``|phi - m theta| / (m theta)`` above which a function computes its angles in 16 bits
#: (bfloat16 ~2e-3, float16 ~3e-4 measured; float32 ~3e-8): a decade from either side.
AUDIT_LOW_PRECISION_EPS = 3e-6
#: ... and between float16 and bfloat16 (their unit roundoffs are 2**-11 and 2**-9): the geometric mean.
AUDIT_BFLOAT16_EPS = 2.0**-10
#: A relative angle error above this at a position is not rounding (three 16-bit roundings make ~1 %): the angle is
#: not ``m theta_i`` there.
AUDIT_ANGLE_JUMP_RTOL = 5e-2
#: ... and between float64 and float32 angles, measured on angles of 256 .. 3e5 rad where float32 errs by ~3e-8
#: relative and float64 angles (even with float32 cos/sin, 6e-8 absolute) by < 3e-10.
AUDIT_FLOAT32_EPS = 1e-9
#: Behavioural checks on random vectors: relative error of a norm, and score differences under a shift relative to
#: ``|q||k|``, allowed beyond what the detected angle precision explains (see :func:`_allowed`).
AUDIT_NORM_RTOL = 2e-2
AUDIT_SHIFT_ATOL = 1e-6
#: A minimal example shows a discrepancy larger than this (values of size ~1): far above float32 rounding.
AUDIT_EXAMPLE_ATOL = 1e-4
#: The digits of the reference in examples and the agreement check.
AUDIT_REFERENCE_DPS = 50
#: Outputs of the two-input (q, k) functions must not change by more than this when the other input changes:
#: they do not depend on it at all in a correct function, so only bitwise-level noise is allowed.
AUDIT_CROSS_ATOL = 1e-12
#: While refining a frequency over doubling positions, an angle this far (rad) from the prediction is not rounding
#: (16-bit angles err by <= ~0.13 rad on the <= 16 rad predictions used): the angle is not proportional to m there.
AUDIT_UNWRAP_JUMP = 0.5
#: With 16-bit inputs (``audit_rope(dtype=)``): the largest angle error of any pair that the dtype's rounding of the
#: output explains. bfloat16 rounds cos and sin to 2**-8 relative, an angle error of ~4e-3 rad; 0.05 rad is 12 times
#: that, while a position rounded to bfloat16 past 256 (1001 -> 1000) is off by a whole radian or more.
AUDIT_INPUT_DTYPE_ANGLE_TOL = 0.05
#: Multi-axis audit (``audit_multiaxis``): a pair's probe angle this far (relative) from its declared frequency is
#: another frequency: float32 angles of magnitude <= 1 err by ~1e-7 relative; the named alternatives differ by factors.
AUDIT_MULTIAXIS_FREQ_RTOL = 1e-3
#: ... an axis drives a pair when the pair's probe angle on it is above this fraction of its largest probe angle (an
#: axis that does not drive it gives 0, or float32 noise ~1e-7 of the angle).
AUDIT_MULTIAXIS_AXIS_ON = 1e-3
#: ... text positions (m, m, m) agree with 1-D RoPE when the largest difference is within this fraction of the largest
#: value: float32 rotations at m <= 1000 err by ~1e-4 absolute (angle rounding ~6e-5 rad); a moved axis errs by ~1.
AUDIT_MULTIAXIS_TEXT_RTOL = 1e-4
#: ... a pass-through channel (past rotary_dim) comes out as it went in when no entry of the output of a unit vector
#: moves by more than this: a copy is exact in every dtype (the probes are 0 and 1), while a rotated channel moves by
#: sin(theta_i) >= 1e-6 at position 1 for every frequency of bases up to 1e6 and widths up to 256.
AUDIT_MULTIAXIS_PASS_ATOL = 1e-9
#: Two mpmath references of the same rotation at ``dps`` digits (``rope_mp(..., axes=)`` and ``rope_multiaxis_mp``:
#: MPFR or mpmath, each product rounded once) agree within ``10**-(dps - MP_TWIN_DIGITS)`` of the largest value:
#: an angle up to 1e4 rad rounded to ``dps`` digits moves its cos and sin by 1e4 * 10**-dps, and the vectors' few
#: products and sums add a few units in the last digit; 5 digits cover both.
MP_TWIN_DIGITS = 5


# ---- the RoPE precision profile (numeric/precision_profile.py) -------------------------------------------------

#: The default tolerance on ``e(m)``: a score error of 1e-3 of ``|q||k|`` is ~1e-3 * sqrt(d) ~ 1 % of a typical
#: score of random unit-variance vectors at d = 128 (scores are ~sqrt(d) |q||k|/d): larger errors visibly move
#: softmax weights, smaller ones are below bfloat16's own rounding of the scores (2**-9).
PROFILE_TOLERANCE = 1e-3
#: Digits of the exact reference scores: errors are measured down to ~1e-16, 30 digits leave 14 to spare.
PROFILE_REFERENCE_DPS = 30


# ---- context extension against Hugging Face transformers (tests/numeric/scaling/test_rules.py) ----------------------

#: Our float64 against transformers' formulas evaluated in float64 (its float32 code run with float64 tensors):
#: the same formulas in a different order (b**(-x) vs 1/b**x, theta/s vs 1/(s b**x)) differ by a few ulps; measured
#: at most 3.3e-16 over the configurations below. 1e-14 leaves margin; a wrong formula is off by >= 1e-8.
HF_FLOAT64_RTOL = 1e-14
#: Against transformers as shipped (float32 frequencies): float32 rounding of b**x, s and the factor tables;
#: measured at most 4e-7.
HF_FLOAT32_RTOL = 2e-6


# ---- the 1-D RoPE audit: frequencies measured before precision is judged, angle vs table precision (engineer A) ----

#: While refining a frequency over the probed positions (``1, 2, 4, ..., 2**K``), an angle this close (rad) to
#: ``m omega`` refines it: the probes of a table rounded to bfloat16 err by <= 2**-8 * sqrt(2) ~ 6e-3 rad and the
#: prediction from the previous position by twice that (~0.02 in all); 16-bit angles err by ~0.1 rad and more from
#: ``|m omega| ~ 32`` on (their refinement stops there).
AUDIT_REFINE_ATOL = 0.1
#: Angles computed in 16 bits: their median absolute error on angles of 256 .. 8192 rad exceeds this. float16 angles
#: err by ~0.06 rad there (half its spacing, 0.25, at 256) and bfloat16 ones by radians; a cos/sin table rounded to
#: bfloat16 over exact or float32 angles by <= 6e-3 rad (2**-8 sqrt 2), float32 angles alone by <= 5e-4 at 8192.
AUDIT_ANGLE16_ATOL = 0.02
#: A cos/sin table rounded to 16 bits is a finding (``low-precision-table``) when the precision profile's score error
#: exceeds its tolerance at or below this position: there the angles of float32 and float64 code err by <= 1.2e-6
#: (``posproof precision``), so the table's error (bounded, ~6e-5 .. 1e-3 for 16-bit tables) is what exceeds.
AUDIT_TABLE_POSITION = 1024
#: A measured frequency is uncertain by this many times the table's unit roundoff over ``m_last theta_i`` (the
#: largest angle it was refined on): an angle read through a rounded cos/sin errs by <= sqrt(2) u; 3 leaves margin.
AUDIT_FREQ_TABLE_ULPS = 3.0


# ---- the multi-axis audit of any declaration (numeric/audit/multiaxis.py, multiaxis_probe.py) ------------------------

#: A pair's length at the zero position vector (cos and sin times the attention factor) this far (relative) from the
#: declared attention factor is another factor: float32 cos and sin err by ~1e-7; YaRN's factors differ by >= 1e-2.
AUDIT_MULTIAXIS_FACTOR_RTOL = 1e-4
#: A pair's angle at the zero position vector this far (radians) from the declared phase is another phase: float32
#: angles of magnitude <= 2 pi err by ~1e-6; a patch-centre offset dropped (DINOv3's +0.5) moves them by >= 1e-3.
AUDIT_MULTIAXIS_PHASE_ATOL = 1e-4


# ---- the xPos audit, scored on (q, k) (numeric/audit/xpos.py; engineer C) ------------------------------------------

#: A channel outside a pair that holds more than this fraction of a unit vector's image couples two pairs: a pair's
#: map sends a unit vector into its own two channels exactly (zeros stay zeros in every dtype), while a layout
#: mix-up sends it into other channels with weight ~ sin(theta_i) or cos(theta_i) ~ 1 at the probed positions; 1e-2
#: is above bfloat16's rounding of the entries (2**-9) and far below what a mix-up moves.
AUDIT_XPOS_LEAK = 1e-2
#: Each pair's map must be rho R(phi): the image of its second channel may differ from rho (-sin phi, cos phi) by this
#: fraction of rho (the same dtype argument as AUDIT_XPOS_LEAK; a swapped sign or cos/sin differs by ~1).
AUDIT_XPOS_ROTATION_RTOL = 1e-2
#: Angles (rad) measured against m theta_i: float32 angles m theta_i up to m = 2**14 lose ~2**14 * 2**-24 ~ 1e-3 rad
#: (cos/sin of float32 arguments); 4e-3 leaves a margin. A base off by 1 % moves the angle of the pair with
#: theta_i ~ 0.1 at m = 1024 by ~0.4 rad.
AUDIT_XPOS_ANGLE_ATOL = 4e-3
#: The measured per-pair log-scale slope d log(rho_i)/dm against log(zeta_i)/s, relative to the largest expected
#: |log(zeta_i)/s|: float32 lengths (relative error ~1e-7) over probes spanning >= 1000 positions fix a slope to
#: ~1e-7 / (1000 * 0.02/s) ~ 5e-6 s relative; 1e-3 is above that for every s <= 100 * 512 and below a scale base
#: off by 0.2 % (s = 513 against 512) or gamma = 0.5 against 0.4 (slopes off by > 10 %).
AUDIT_XPOS_SLOPE_RTOL = 1e-3
#: Scores of random vectors against xPos' (and against the same scores shifted), relative to
#: sum_i zeta_i^((m-n)/s) |q_(i)| |k_(i)| (the largest the score can be): float32 scores of width <= 256 lose
#: ~sqrt(256) * 2**-24 ~ 1e-6 of it; 1e-4 leaves a margin and is below what a key scaled the wrong way changes
#: (zeta_0^(2 delta/s) - 1 ~ 5e-3 at delta = 1, s = 512, summed over the pairs it weights).
AUDIT_XPOS_SCORE_RTOL = 1e-4


# ---- the multi-axis declarations and kernels (numeric/multiaxis; engineer B1) ---------------------------------------

#: A declaration's float64 rotation against transformers' own layout code run in float64 on the same inputs
#: (tests/numeric/multiaxis): the frequencies differ by at most an ulp (``base**(-2j/w)`` against
#: ``1/base**(2j/w)``), so angles up to ~100 rad differ by ~1e-14 and the rotated values (of size ~3) by as much;
#: 1e-12 leaves a margin, while a wrong axis, layout or frequency moves them by ~1.
MULTIAXIS_HF_ATOL = 1e-12
#: The float64 kernel against its mpmath twin at 50 digits, on inputs of size ~1 at positions up to ~4096: the
#: float64 angles err by ~4096 * 2**-53 ~ 5e-13 and the rotation adds a few ulps; 1e-11 covers both.
MULTIAXIS_MP_ATOL = 1e-11
#: ``posproof precision`` prints a score error below this as ``<1e-14``: float64 angles give errors of a few ulps
#: of the scores (~1e-15), and which few depends on the CPU's libm (``sin``/``cos`` are correctly rounded on some,
#: off by an ulp on others), so digits below this are not a property of the scheme.
PROFILE_PRINT_FLOOR = 1e-14
#: A shifted cached key agrees with the key computed at its new position to this, relative to the largest entry:
#: float32 keys and tables (the shift computed in float32, rounding ~6e-8 per operation, a few operations) pass;
#: a wrong sign, layout or base differs by a sine of a shift's angle (>= 1e-4 at the audit's shifts and widths).
AUDIT_CACHE_SHIFT_RTOL = 1e-5


# ---- length-dependent temperature (numeric/temperature) --------------------------------------------------------------

#: The float64 temperature kernels against transformers' own expression evaluated in float64, and against their
#: mpmath twins: ``log1p`` of an exact integer, one product and one sum, each correctly rounded or within an ulp
#: (~2e-16 of a value near 1); 1e-15 leaves a margin, while an off-by-one floor or a missing ``+ 1`` moves a value
#: by ``a log 2 ~ 0.07`` or more.
TEMPERATURE_F64_RTOL = 1e-15
#: The float64 kernel against ``Llama4TextAttention``'s own code path, which computes the temperature in float32
#: (``positions.float()``): four float32 operations on values near 1 err by a few float32 ulps (2**-23 ~ 1.2e-7
#: each); 1e-6 covers them and is far below the ``a log 2`` step of an off-by-one floor.
TEMPERATURE_HF_F32_RTOL = 1e-6
#: The audit of a user's Llama 4 temperature (numeric/audit/temperature.py).
#: Agreement of a correct float32 computation with the float64 reference, relative to the scale (>= 1): positions
#: below 2**24 are exact in float32, and log1p of a small integer, the product by attn_scale and the sum each round
#: once (eps/2 = 6e-8), so <= ~2e-7; a float16 result is off by up to 2**-11 ~ 5e-4 (2e-5 at 1 + 0.1 log 2), and the
#: named mistakes by far more.
AUDIT_TEMPERATURE_RTOL = 1e-6
#: Agreement, relative to the scale, of a result held in a 16-bit float with the reference or with the same formula
#: computed in that dtype: two units in the last place (2 * 2**-10 for float16, 2 * 2**-7 for bfloat16 on values in
#: [1, 2)) cover the output rounding and one more rounding of an intermediate (attn_scale, the log).
AUDIT_TEMPERATURE_16BIT_RTOL = {"float16": 2.0**-9, "bfloat16": 2.0**-6}
