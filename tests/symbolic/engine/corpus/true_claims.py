r"""True claims a user would write about positional encodings, each of which must verify.

RoPE with learned per-pair frequencies (an ``IndexedBase`` of reals), RoPE plus ALiBi, xPos, axial 2-D RoPE, NoPE,
the NTK base identity, products and exchanges of finite sums, the sinusoidal dot product, ALiBi slopes, a T5-style
monotonicity, the triangle inequality cited as a lemma, user kernels with code, and facts with wrong computations.
Exact numbers only; every assumption declared.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp
from posproof.symbolic import Domain
from posproof.symbolic.lemmas import SOFTMAX_PERMUTATION, TRIANGLE, TRIANGLE_COMPLEX

from tests.symbolic.engine.corpus import Entry, chain, definition, dot, fact, integer, kernel, rot, theorem

x, y = sp.symbols("x y", real=True)
b, s, c, slope, zeta = sp.symbols("b s c m_h zeta", positive=True)
m, n, m2, n2 = sp.symbols("m n m' n'", integer=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
j = sp.Symbol("j", integer=True, nonnegative=True)
h = sp.Symbol("h", integer=True, positive=True)
d = sp.Symbol("d", integer=True, positive=True)
N = sp.Symbol("N", integer=True, positive=True)
TH = sp.IndexedBase("theta", real=True)
Q = sp.IndexedBase("q", real=True)
Kv = sp.IndexedBase("k", real=True)
V = sp.IndexedBase("v", real=True)
A = sp.IndexedBase("a", real=True)
B = sp.IndexedBase("b", real=True)
C = sp.IndexedBase("c", real=True)
ZQ = sp.IndexedBase("z", complex=True)
ZK = sp.IndexedBase("w", complex=True)
ZETA = sp.IndexedBase("zeta", positive=True)

H_SIZES = {h: (1, 2)}
TRIG = ("expand", "expand_trig", "expand")
#: Through the exponential form: cos(a + c) terms whose c parts cancel only as products of exponentials.
EXP = ("trig_to_exp", "expand", "powsimp", "expand")


def pairs(e, top=h):
    return sp.Sum(e, (i, 0, top - 1))


def interleaved(vec, t):
    return rot(t * TH[i], vec[2 * i], vec[2 * i + 1])


def half_split(vec, t):
    return rot(t * TH[i], vec[i], vec[i + h])


def rope_score(p, r, layout=interleaved):
    r"""``Σ_i (R(p θ_i) q_i)·(R(r θ_i) k_i)`` over the pairs of ``layout``."""
    return pairs(dot(layout(Q, p), layout(Kv, r)))


def relative(delta, layout=interleaved):
    r"""``Σ_i q_i·(R(delta θ_i) k_i)``: a function of the relative position ``delta`` only."""
    qi = layout(Q, 0)
    return pairs(dot(qi, layout(Kv, delta)))


def _xpos_score():
    q_rot, k_rot = interleaved(Q, m), interleaved(Kv, n)
    return pairs(ZETA[i] ** m * ZETA[i] ** (-n) * dot(q_rot, k_rot))


def _axial_score():
    r"""Axial 2-D RoPE: pairs ``0 .. h-1`` rotate by the row, pairs ``h .. 2h-1`` by the column."""
    rows = dot(rot(m * TH[i], Q[2 * i], Q[2 * i + 1]), rot(n * TH[i], Kv[2 * i], Kv[2 * i + 1]))
    cols = dot(rot(m2 * TH[i], Q[2 * i + 2 * h], Q[2 * i + 2 * h + 1]),
               rot(n2 * TH[i], Kv[2 * i + 2 * h], Kv[2 * i + 2 * h + 1]))  # fmt: skip
    return pairs(rows) + pairs(cols)


def _axial_relative():
    rows = dot((Q[2 * i], Q[2 * i + 1]), rot((n - m) * TH[i], Kv[2 * i], Kv[2 * i + 1]))
    cols = dot(
        (Q[2 * i + 2 * h], Q[2 * i + 2 * h + 1]), rot((n2 - m2) * TH[i], Kv[2 * i + 2 * h], Kv[2 * i + 2 * h + 1])
    )
    return pairs(rows) + pairs(cols)


# ---- user kernels -----------------------------------------------------------------------------------------------

AlibiBias = kernel("AlibiBias", lambda p, r, sl: -sl * sp.Abs(p - r), lambda p, r, sl: -sl * abs(p - r), nargs=3)
RopeAngle = kernel("RopeAngle", lambda p, t, width, base: p * base ** (-2 * t / width),
                   lambda p, t, width, base: p * mpmath.power(base, -2 * t / width), nargs=4)  # fmt: skip
ClipDistance = kernel("ClipDistance", lambda r, kk: sp.Max(sp.Min(r, kk), -kk),
                      lambda r, kk: max(min(integer(r), integer(kk)), -integer(kk)), nargs=2)  # fmt: skip

_r = sp.Symbol("r", integer=True)
_w = sp.Symbol("k", integer=True, positive=True)
_p, _t = sp.Symbol("p", integer=True), sp.Symbol("t", integer=True, nonnegative=True)
_de = sp.Symbol("d", integer=True, positive=True, even=True)


def _alibi_slopes(heads: int, shift: int = 0) -> list:
    return [Fraction(1, 2 ** (8 * (hh + shift) // heads)) for hh in range(1, heads + 1)]


# ---- the NTK base, as a user writes it -------------------------------------------------------------------------

_KAPPA = (h + 1) / h  # d/(d - 2) for d = 2h + 2


def _ntk_base():
    last = b ** (-h / (h + 1))  # θ_{d/2-1} = b^{-(d-2)/d}
    return theorem(
        "ntk-last-frequency-divided-by-s",
        sp.Pow(b * s**_KAPPA, -h / (h + 1), evaluate=False),
        last / s,
        ("expand", "powdenest", "expand"),
    )


def _ntk_every_pair():
    return theorem(
        "ntk-every-frequency",
        sp.Pow(b * s**_KAPPA, -i / (h + 1), evaluate=False),
        b ** (-i / (h + 1)) * s ** (-i / h),
        ("expand", "powdenest", "cancel_exponents", "expand"),
    )


# ---- entries ------------------------------------------------------------------------------------------------------

TRUE: list[Entry] = [
    # RoPE with learned per-pair frequencies
    Entry(
        "rope",
        "interleaved RoPE with learned θ_i: the score is relative",
        lambda: theorem("rope-learned-relative", rope_score(m, n), relative(n - m), TRIG, sizes=H_SIZES),
    ),
    Entry(
        "rope",
        "half-split (NeoX) RoPE with learned θ_i: the score is relative",
        lambda: theorem(
            "rope-half-split-relative", rope_score(m, n, half_split), relative(n - m, half_split), TRIG, sizes=H_SIZES
        ),
    ),
    Entry(
        "rope",
        "RoPE score is invariant to shifting both positions",
        lambda: theorem("rope-shift-invariant", rope_score(m + c, n + c), rope_score(m, n), EXP, sizes=H_SIZES),
    ),
    Entry(
        "rope",
        "RoPE with learned θ_i preserves the norm",
        lambda: theorem(
            "rope-norm",
            pairs(dot(interleaved(Q, m), interleaved(Q, m))),
            pairs(Q[2 * i] ** 2 + Q[2 * i + 1] ** 2),
            ("trigsimp",),
            sizes=H_SIZES,
        ),
    ),
    Entry(
        "rope",
        "a single pair: (R(mθ) q)·(R(nθ) k) = q·(R((n - m)θ) k)",
        lambda: theorem(
            "rope-one-pair",
            dot(rot(m * TH[0], Q[0], Q[1]), rot(n * TH[0], Kv[0], Kv[1])),
            dot((Q[0], Q[1]), rot((n - m) * TH[0], Kv[0], Kv[1])),
            TRIG,
        ),
    ),
    Entry(
        "rope",
        "complex RoPE: q e^{imθ} conj(k e^{inθ}) = q conj(k) e^{i(m-n)θ}, learned θ",
        lambda: theorem(
            "rope-complex-pair",
            ZQ[0] * sp.exp(sp.I * m * TH[0]) * sp.conjugate(ZK[0] * sp.exp(sp.I * n * TH[0])),
            ZQ[0] * sp.conjugate(ZK[0]) * sp.exp(sp.I * (m - n) * TH[0]),
            ("powsimp",),
        ),
    ),
    Entry(
        "rope",
        "complex RoPE summed over pairs with learned θ_i",
        lambda: theorem(
            "rope-complex-sum",
            pairs(ZQ[i] * sp.exp(sp.I * m * TH[i]) * sp.conjugate(ZK[i] * sp.exp(sp.I * n * TH[i]))),
            pairs(ZQ[i] * sp.conjugate(ZK[i]) * sp.exp(sp.I * (m - n) * TH[i])),
            ("powsimp",),
            sizes=H_SIZES,
        ),
    ),
    Entry(
        "rope",
        "rotations compose: R(a) R(b) = R(a + b)",
        lambda: theorem(
            "rope-rotations-compose",
            sp.Matrix([[sp.cos(x), -sp.sin(x)], [sp.sin(x), sp.cos(x)]])
            * sp.Matrix([[sp.cos(y), -sp.sin(y)], [sp.sin(y), sp.cos(y)]]),
            sp.Matrix([[sp.cos(x + y), -sp.sin(x + y)], [sp.sin(x + y), sp.cos(x + y)]]),
            TRIG,
        ),
    ),
    Entry(
        "rope",
        "a rotation is orthogonal: R^T R = I",
        lambda: theorem(
            "rope-rotation-orthogonal",
            sp.Matrix([[sp.cos(x), -sp.sin(x)], [sp.sin(x), sp.cos(x)]]).T
            * sp.Matrix([[sp.cos(x), -sp.sin(x)], [sp.sin(x), sp.cos(x)]]),
            sp.eye(2),
            ("expand", "trigsimp"),
        ),
    ),
    Entry(
        "rope",
        "position interpolation: positions m/s with θ_i is θ_i/s at m",
        lambda: theorem(
            "rope-position-interpolation", rope_score(m / s, n / s), relative((n - m) / s), TRIG, sizes=H_SIZES
        ),
    ),
    # RoPE plus ALiBi
    Entry(
        "rope + alibi",
        "RoPE plus an ALiBi bias is a function of n - m",
        lambda: theorem(
            "rope-alibi-relative",
            rope_score(m, n) - slope * sp.Abs(m - n),
            relative(n - m) - slope * sp.Abs(n - m),
            TRIG,
            sizes=H_SIZES,
        ),
    ),
    Entry(
        "rope + alibi",
        "the ALiBi bias only lowers the RoPE score",
        lambda: theorem(
            "rope-alibi-below",
            relative(n - m) - slope * sp.Abs(n - m),
            relative(n - m),
            ("expand",),
            rel="<=",
            sizes=H_SIZES,
        ),
    ),
    Entry(
        "rope + alibi",
        "RoPE plus ALiBi with a user kernel, shift invariant",
        lambda: theorem(
            "rope-alibi-kernel-shift",
            rope_score(m + c, n + c) + AlibiBias(m + c, n + c, slope),
            rope_score(m, n) + AlibiBias(m, n, slope),
            ("unfold", *EXP),
            sizes=H_SIZES,
        ),
    ),
    # xPos
    Entry(
        "xpos",
        "xPos: the score with ζ_i^m and ζ_i^{-n} is relative",
        lambda: theorem(
            "xpos-relative",
            _xpos_score(),
            pairs(ZETA[i] ** (m - n) * dot((Q[2 * i], Q[2 * i + 1]), rot((n - m) * TH[i], Kv[2 * i], Kv[2 * i + 1]))),
            ("expand", "expand_trig", "powsimp", "expand"),
            sizes=H_SIZES,
        ),
    ),
    Entry(
        "xpos",
        "xPos does not preserve the norm: |ζ^m R(mθ) q|^2 = ζ^{2m} |q|^2",
        lambda: theorem(
            "xpos-norm",
            sum(t**2 for t in rot(m * TH[0], zeta**m * Q[0], zeta**m * Q[1])),
            zeta ** (2 * m) * (Q[0] ** 2 + Q[1] ** 2),
            ("expand", "trigsimp", "powsimp"),
        ),
    ),
    # axial 2-D RoPE
    Entry(
        "axial",
        "axial 2-D RoPE: the score depends on the row and column offsets only",
        lambda: theorem("axial-relative", _axial_score(), _axial_relative(), TRIG, sizes=H_SIZES),
    ),
    Entry(
        "axial",
        "axial 2-D RoPE, one pair per axis",
        lambda: theorem(
            "axial-one-pair",
            dot(rot(m * TH[0], Q[0], Q[1]), rot(n * TH[0], Kv[0], Kv[1]))
            + dot(rot(m2 * TH[1], Q[2], Q[3]), rot(n2 * TH[1], Kv[2], Kv[3])),
            dot((Q[0], Q[1]), rot((n - m) * TH[0], Kv[0], Kv[1]))
            + dot((Q[2], Q[3]), rot((n2 - m2) * TH[1], Kv[2], Kv[3])),
            TRIG,
        ),
    ),
    # NoPE
    Entry(
        "nope",
        "NoPE with equal scores: attention is the causal mean",
        lambda: theorem(
            "nope-causal-mean",
            sp.Sum(sp.exp(c) * V[j], (j, 0, i)) / sp.Sum(sp.exp(c), (j, 0, i)),
            sp.Sum(V[j], (j, 0, i)) / (i + 1),
            ("doit", "factor_terms", "cancel"),
            domains={"i": Domain("integer", 0, 6)},
        ),
    ),
    Entry(
        "nope",
        "the causal mean's weights sum to 1",
        lambda: theorem("nope-weights", sp.Sum(1 / (i + 1), (j, 0, i)), sp.Integer(1), ("doit", "cancel")),
    ),
    Entry(
        "nope",
        "the causal mean of a constant is the constant",
        lambda: theorem("nope-constant", sp.Sum(x / (i + 1), (j, 0, i)), x, ("doit", "cancel")),
    ),
    Entry(
        "nope",
        "softmax attention is permutation equivariant (the lemma cited)",
        lambda: chain(
            "nope-permutation-equivariant",
            (
                SOFTMAX_PERMUTATION.cite(
                    {
                        "n": N,
                        "s": sp.Lambda((x, y), sp.IndexedBase("S", real=True)[x, y]),
                        "i": sp.Symbol("r", integer=True, nonnegative=True),
                        "j": sp.Symbol("t", integer=True, nonnegative=True),
                    }
                ),
            ),
            sizes={N: (1, 2, 3)},
            domains={"r": Domain("integer", 0, N - 1), "t": Domain("integer", 0, N - 1)},
        ),
    ),
    # NTK
    Entry("ntk", "the NTK-aware base b s^{d/(d-2)} divides the last frequency by s (d = 2h + 2)", lambda: _ntk_base()),
    Entry("ntk", "the NTK-aware base scales pair i by s^{-2i/(d-2)}", lambda: _ntk_every_pair()),
    # sums
    Entry(
        "sums",
        "a product of two sums: Σ_i Σ_j a_i b_j = (Σ_i a_i)(Σ_j b_j)",
        lambda: theorem(
            "sum-product",
            sp.Sum(sp.Sum(A[i] * B[j], (j, 0, N - 1)), (i, 0, d - 1)),
            sp.Sum(A[i], (i, 0, d - 1)) * sp.Sum(B[j], (j, 0, N - 1)),
            ("sum_product",),
            sizes={N: (1, 2), d: (1, 3)},
        ),
    ),
    Entry(
        "sums",
        "exchanging two finite sums",
        lambda: theorem(
            "sum-exchange",
            sp.Sum(sp.Sum(C[i, j], (j, 0, N - 1)), (i, 0, d - 1)),
            sp.Sum(sp.Sum(C[i, j], (i, 0, d - 1)), (j, 0, N - 1)),
            ("exchange_sums",),
            sizes={N: (1, 2), d: (1, 3)},
        ),
    ),
    Entry(
        "sums",
        "pulling a factor free of the summation variable",
        lambda: theorem(
            "sum-pull-factor",
            sp.Sum(slope * x * A[i], (i, 0, d - 1)),
            slope * x * sp.Sum(A[i], (i, 0, d - 1)),
            ("pull_factors",),
            sizes={d: (1, 3)},
        ),
    ),
    Entry(
        "sums",
        "NoPE: the sum of all query-key scores is the product of the sums",
        lambda: theorem(
            "sum-all-scores",
            sp.Sum(sp.Sum(Q[i] * Kv[j], (j, 0, d - 1)), (i, 0, d - 1)),
            sp.Sum(Q[i], (i, 0, d - 1)) * sp.Sum(Kv[j], (j, 0, d - 1)),
            ("sum_product",),
            sizes={d: (1, 3)},
        ),
    ),
    # sinusoidal
    Entry(
        "sinusoidal",
        "the sinusoidal dot product is Σ cos((m - n) ω_i), learned ω",
        lambda: theorem(
            "sinusoidal-dot",
            pairs(sp.sin(m * TH[i]) * sp.sin(n * TH[i]) + sp.cos(m * TH[i]) * sp.cos(n * TH[i])),
            pairs(sp.cos((m - n) * TH[i])),
            TRIG,
            sizes=H_SIZES,
        ),
    ),
    Entry(
        "sinusoidal",
        "the sinusoidal code has norm^2 = d/2",
        lambda: theorem(
            "sinusoidal-norm",
            pairs(sp.sin(m * TH[i]) ** 2 + sp.cos(m * TH[i]) ** 2),
            h,
            ("trigsimp", "doit"),
            sizes=H_SIZES,
        ),
    ),
    Entry(
        "sinusoidal",
        "consecutive frequencies b^{-2i/d} have ratio b^{-2/d}",
        lambda: theorem(
            "sinusoidal-ratio", b ** (-2 * (i + 1) / d) / b ** (-2 * i / d), b ** (-2 / d), ("powsimp", "expand")
        ),
    ),
    Entry(
        "sinusoidal",
        "a shift by k is a rotation of each pair",
        lambda: theorem(
            "sinusoidal-shift-rotation",
            sp.Matrix([sp.sin((m + n) * TH[0]), sp.cos((m + n) * TH[0])]),
            sp.Matrix([[sp.cos(n * TH[0]), sp.sin(n * TH[0])], [-sp.sin(n * TH[0]), sp.cos(n * TH[0])]])
            * sp.Matrix([sp.sin(m * TH[0]), sp.cos(m * TH[0])]),
            TRIG,
        ),
    ),
    # ALiBi
    Entry(
        "alibi",
        "consecutive ALiBi slopes 2^{-8h/H} have ratio 2^{-8/H}",
        lambda: theorem(
            "alibi-slope-ratio",
            sp.Integer(2) ** (-8 * (h + 1) / d) / sp.Integer(2) ** (-8 * h / d),
            sp.Integer(2) ** (-8 / d),
            ("expand", "powsimp"),
        ),
    ),
    Entry(
        "alibi",
        "the ALiBi bias is never positive",
        lambda: theorem("alibi-nonpositive", -slope * sp.Abs(m - n), sp.Integer(0), ("expand",), rel="<="),
    ),
    Entry(
        "alibi",
        "the row-constant part of ALiBi cancels in softmax",
        lambda: theorem(
            "alibi-softmax-row-shift",
            sp.exp(Q[j] - slope * (i - j)) / sp.Sum(sp.exp(Q[_t] - slope * (i - _t)), (_t, 0, i)),
            sp.exp(Q[j] + slope * j) / sp.Sum(sp.exp(Q[_t] + slope * _t), (_t, 0, i)),
            ("expand_power_exp", "factor_terms", "cancel"),
            domains={"i": Domain("integer", 0, 5)},
        ),
    ),
    Entry(
        "alibi",
        "the ALiBi bias falls with distance",
        lambda: theorem("alibi-monotone", -slope * (x + y**2), -slope * x, ("expand",), rel="<="),
    ),
    Entry(
        "alibi",
        "the 8-head ALiBi slopes are 1/2, 1/4, ..., 1/256",
        lambda: fact(
            "alibi-slopes-8",
            [Fraction(1, 2**e) for e in range(1, 9)],
            lambda: _alibi_slopes(8),
            wrong=lambda: _alibi_slopes(8, shift=1),
        ),
    ),
    # T5-style monotonicity
    Entry(
        "t5",
        "a T5-style log bucket grows with the distance (r_1 <= r_2)",
        lambda: theorem("t5-log-monotone", sp.log(b), sp.log(b + s), ("exp_sides",), rel="<="),
    ),
    Entry(
        "t5",
        "the log-bucket's real index grows: n_0 + log(r/n_0) <= n_0 + log(r s/n_0)",
        lambda: theorem(
            "t5-bucket-monotone", 8 + sp.log(b / 8), 8 + sp.log(b * (1 + s) / 8), ("expand_log", "expand"), rel="<="
        ),
    ),
    # lemma citations
    Entry(
        "lemmas",
        "triangle inequality for the dot product (the lemma cited)",
        lambda: chain(
            "triangle-dot", (TRIANGLE.cite({"N": d, "f": sp.Lambda(i, Q[i] * Kv[i])}),), rel="<=", sizes={d: (1, 2, 3)}
        ),
    ),
    Entry(
        "lemmas",
        "complex triangle inequality for a rotated complex RoPE query",
        lambda: chain(
            "triangle-complex-rope",
            (TRIANGLE_COMPLEX.cite({"N": d, "z": sp.Lambda(i, ZQ[i] * sp.exp(sp.I * m * TH[i]))}),),
            rel="<=",
            sizes={d: (1, 2, 3)},
        ),
    ),
    # user kernels with code
    Entry(
        "kernels",
        "a user's ALiBi bias kernel computes -m|i - j|",
        lambda: definition("def-alibi-bias", AlibiBias(_p, _r, slope), -slope * sp.Abs(_p - _r)),
    ),
    Entry(
        "kernels",
        "a user's RoPE angle kernel computes p b^{-2t/d}",
        lambda: definition(
            "def-rope-angle",
            RopeAngle(_p, _t, _de, b),
            _p * b ** (-2 * _t / _de),
            sizes={_de: (2, 8)},
            domains={"t": Domain("integer", 0, _de / 2 - 1)},
        ),
    ),
    Entry(
        "kernels",
        "a user's clipped distance kernel computes max(min(r, k), -k)",
        lambda: definition("def-clip-distance", ClipDistance(_r, _w), sp.Max(sp.Min(_r, _w), -_w)),
    ),
    Entry(
        "kernels",
        "the user's ALiBi kernel is shift invariant (unfolded)",
        lambda: theorem("alibi-kernel-shift", AlibiBias(m + c, n + c, slope), AlibiBias(m, n, slope), ("unfold",)),
    ),
    # facts with wrong computations
    Entry(
        "facts",
        "RoPE at d = 128 has 64 pairs",
        lambda: fact("rope-pairs-128", 64, lambda: 128 // 2, wrong=lambda: 128 // 2 - 1),
    ),
    Entry(
        "facts",
        "the NTK base for b = 10000, s = 4 at d = 4 is b s^2 = 160000",
        lambda: fact("ntk-base-d4", 160000, lambda: 10000 * 4 ** (4 // (4 - 2)), wrong=lambda: 10000 * 4),
    ),
]

__all__ = ["TRUE"]
