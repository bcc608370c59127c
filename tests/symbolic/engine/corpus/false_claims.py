r"""False claims a user might write, each with the construct its rejection must name.

Eight classes of trust boundaries (non-real sides of an inequality, citations, kernels, derivatives at kinks,
definitions and facts, SymPy closed forms, infinite sums, ``Maximum``) and classes beyond them (division by a
symbol that may be zero, branch cuts, functions and undefined functions outside the fragment, Piecewise without a
true branch, explicit reversed ranges, sizes and domains, contradictory hypotheses, noncommutative symbols, Python
numbers as sides). A claim is rejected when building it raises ``ValueError`` or when it does not verify and its
symbolic line does not say true.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp
from posproof.symbolic import Domain
from posproof.symbolic.engine.maximum import Maximum
from posproof.symbolic.engine.permutation import PermutationMap
from posproof.symbolic.engine.step import Lemma

from tests.symbolic.engine.corpus import Entry, chain, definition, fact, integer, kernel, theorem

x, y, u = sp.symbols("x y u", real=True)
a, b = sp.symbols("a b", positive=True)
z, w = sp.symbols("z w")  # complex
theta = sp.Symbol("theta", positive=True)
m = sp.Symbol("m", integer=True)
n = sp.Symbol("n", integer=True, nonnegative=True)
npos = sp.Symbol("n", integer=True, positive=True)
k = sp.Symbol("k", integer=True)
j = sp.Symbol("j", integer=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
i_pos = sp.Symbol("i", integer=True, positive=True)
h = sp.Symbol("h", integer=True, positive=True)
d = sp.Symbol("d", integer=True, positive=True)
TH = sp.IndexedBase("theta", real=True)
q = sp.IndexedBase("q", real=True)
Z = sp.IndexedBase("z", complex=True)
K = sp.IndexedBase("k", complex=True)
f = sp.IndexedBase("f", real=True)

H_SIZES = {h: (1, 2)}
REAL = ("real", "complex")

# ==============================================================================================================
# (1) inequalities between non-real sides
# ==============================================================================================================


def _complex_rope_score():
    r"""``Σ_i z_i conj(k_i) e^{i (m - n) θ_i}``: the complex RoPE score, its real part forgotten."""
    return sp.Sum(Z[i] * sp.conjugate(K[i]) * sp.exp(sp.I * (m - k) * TH[i]), (i, 0, h - 1))


NON_REAL = [
    Entry(
        "non-real sides",
        "complex RoPE score <= itself plus a nonnegative bias (Re forgotten)",
        lambda: theorem(
            "nr-rope-score-bias",
            _complex_rope_score(),
            _complex_rope_score() + sp.Sum(sp.Abs(Z[i]) ** 2, (i, 0, h - 1)),
            ("combine_sums",),
            rel="<=",
            sizes=H_SIZES,
        ),
        REAL,
    ),
    Entry(
        "non-real sides",
        "x e^{i x / 10^45} <= itself + x^2: imaginary part below the numeric tolerance",
        lambda: theorem(
            "nr-tiny-imaginary", x * sp.exp(sp.I * x / 10**45), x * sp.exp(sp.I * x / 10**45) + x**2, rel="<="
        ),
        REAL,
    ),
    Entry(
        "non-real sides", "a complex z is below z + 1", lambda: theorem("nr-complex-plus-one", z, z + 1, rel="<"), REAL
    ),
    Entry(
        "non-real sides",
        "the rotation e^{i m θ} is below itself plus 1",
        lambda: theorem("nr-rotation-plus-one", sp.exp(sp.I * m * theta), sp.exp(sp.I * m * theta) + 1, rel="<="),
        REAL,
    ),
    Entry(
        "non-real sides",
        "sqrt of a real that may be negative, compared",
        lambda: theorem("nr-sqrt-real", sp.sqrt(x), sp.sqrt(x) + x**2, rel="<="),
        ("real", "complex", "Pow", "sqrt"),
    ),
    Entry(
        "non-real sides",
        "log of a real that may be negative, compared",
        lambda: theorem("nr-log-real", sp.log(x), sp.log(x) + 1, rel="<"),
        ("real", "log"),
    ),
    Entry(
        "non-real sides",
        "a complex sum below itself plus the sum of moduli",
        lambda: theorem(
            "nr-complex-sum",
            sp.Sum(Z[i], (i, 0, h - 1)),
            sp.Sum(Z[i], (i, 0, h - 1)) + sp.Sum(sp.Abs(Z[i]), (i, 0, h - 1)),
            ("combine_sums",),
            rel="<=",
            sizes=H_SIZES,
        ),
        REAL,
    ),
    Entry(
        "non-real sides",
        "conj(z) w strictly below itself plus 1 + x^2",
        lambda: theorem("nr-conj-product", sp.conjugate(z) * w, sp.conjugate(z) * w + 1 + x**2, rel="<"),
        REAL,
    ),
    Entry(
        "non-real sides",
        "(x + i y)^2 >= (x + i y)^2 - y^2",
        lambda: theorem("nr-square-complex", (x + sp.I * y) ** 2, (x + sp.I * y) ** 2 - y**2, rel=">="),
        REAL,
    ),
    Entry(
        "non-real sides",
        "(-1)^x for real x compared with (-1)^x + 1",
        lambda: theorem("nr-negative-base", (-1) ** x, (-1) ** x + 1, rel="<="),
        ("real", "complex", "Pow"),
    ),
    Entry(
        "non-real sides",
        "the principal cube root of a real x compared",
        lambda: theorem("nr-cube-root", x ** sp.Rational(1, 3), x ** sp.Rational(1, 3) + 1, rel="<"),
        ("real", "complex", "Pow"),
    ),
    Entry(
        "non-real sides",
        "i times a learned frequency, compared",
        lambda: theorem("nr-imaginary-frequency", sp.I * TH[0], sp.I * TH[0] + TH[0] ** 2, rel="<="),
        REAL,
    ),
]

# ==============================================================================================================
# (2) citations
# ==============================================================================================================

N = sp.Symbol("N", integer=True, nonnegative=True)
xl, yl = sp.symbols("x y", real=True)
fp = sp.IndexedBase("f", positive=True)
fn = sp.IndexedBase("f", nonnegative=True)

Wrap = kernel("Wrap", lambda v: v, lambda v: integer(v) % 256)


def _cite_definition_mod():
    lemma = Lemma(
        "wrap", definition("lemma-def-mod", sp.Mod(n, 2**60), n, domains={"n": Domain("integer", 0, 999)}), (n,)
    )
    return chain("cite-definition-mod", (lemma.cite({"n": npos}),))


def _cite_definition_kernel():
    lemma = Lemma("wrap", definition("lemma-def-wrap", Wrap(n), n, domains={"n": Domain("integer", 0, 255)}), (n,))
    return chain("cite-definition-kernel", (lemma.cite({"n": npos}),))


def _cite_definition_min():
    lemma = Lemma("min", definition("lemma-def-min", sp.Min(xl, 100), xl, domains={"x": Domain("real", 0, 10)}), (xl,))
    return chain("cite-definition-min", (lemma.cite({"x": u}),))


def _lemma_positive() -> Lemma:
    t = theorem("lemma-positive-given", sp.Integer(0), xl, ("identity",), rel="<", given=(sp.Q.positive(xl),))
    return Lemma("positive by hypothesis", t, (xl,))


def _lemma_shift() -> Lemma:
    t = theorem("lemma-shift-given", yl, xl + yl, ("expand",), rel="<=", given=(sp.Q.nonnegative(xl),))
    return Lemma("adding a nonnegative", t, (xl, yl))


def _lemma_one_below() -> Lemma:
    mm = sp.Symbol("m", integer=True)
    t = theorem("lemma-one-below", sp.Integer(1), mm, ("expand",), rel="<=", given=(sp.Q.positive(mm),))
    return Lemma("one below a positive integer", t, (mm,))


def _lemma_positive_sequence() -> Lemma:
    t = theorem(
        "lemma-positive-sequence",
        sp.Integer(0),
        sp.Sum(fp[i], (i, 0, N - 1)),
        ("identity",),
        rel="<=",
        sizes={N: (1, 2)},
    )
    return Lemma("sum of positives", t, (N, fp))


def _lemma_log_sequence() -> Lemma:
    t = theorem(
        "lemma-log-sequence",
        sp.Sum(sp.log(fp[i] ** 2), (i, 0, N - 1)),
        2 * sp.Sum(sp.log(fp[i]), (i, 0, N - 1)),
        ("expand_log",),
        sizes={N: (1, 2)},
    )
    return Lemma("logs of squares", t, (N, fp))


def _lemma_nonnegative_sequence() -> Lemma:
    t = theorem(
        "lemma-nonnegative-sequence",
        sp.Integer(0),
        sp.Sum(fn[i], (i, 0, N - 1)),
        ("identity",),
        rel="<=",
        sizes={N: (1, 2)},
    )
    return Lemma("sum of nonnegatives", t, (N, fn))


def _lemma_square() -> Lemma:
    t = theorem("lemma-square", (xl + 1) ** 2, xl**2 + 2 * xl + 1, ("expand",))
    return Lemma("square of a sum", t, (xl,))


def _lemma_log_square() -> Lemma:
    t = theorem("lemma-log-square", sp.log(a**2), 2 * sp.log(a), ("expand_log",))
    return Lemma("log of a square", t, (a,))


def _lemma_gap() -> Lemma:
    t = theorem("lemma-gap", xl, xl + yl**2, ("expand",), rel="<=")
    return Lemma("a square added", t, (xl, yl))


CITATIONS = [
    Entry(
        "citations",
        "a Definition (a sampled equation) cited as a lemma: Mod(n, 2^60) = n",
        lambda: _cite_definition_mod(),
        ("Definition", "Mod"),
    ),
    Entry(
        "citations",
        "a Definition of a kernel, sampled on 0..255, cited for every n",
        lambda: _cite_definition_kernel(),
        "Definition",
    ),
    Entry(
        "citations",
        "a Definition min(x, 100) = x sampled on [0, 10], cited at any real",
        lambda: _cite_definition_min(),
        ("Definition", "Min"),
    ),
    Entry(
        "citations",
        "a lemma proved under x > 0, its given dropped at a citation at any real",
        lambda: chain("cite-given-dropped", (_lemma_positive().cite({"x": u}),), rel="<"),
        ("given", "hypothes"),
    ),
    Entry(
        "citations",
        "a lemma proved under x >= 0, cited at x = -1 - u^2",
        lambda: chain("cite-given-negative", (_lemma_shift().cite({"x": -1 - u**2, "y": u}),), rel="<="),
        ("given", "hypothes"),
    ),
    Entry(
        "citations",
        "a lemma proved for positive integers, cited at m = 0",
        lambda: chain("cite-given-zero", (_lemma_one_below().cite({"m": sp.Integer(0)}),), rel="<="),
        ("given", "hypothes"),
    ),
    Entry(
        "citations",
        "a positive sequence instantiated by a negative one (only realness checked)",
        lambda: chain(
            "cite-sequence-positive",
            (_lemma_positive_sequence().cite({"N": npos, "f": sp.Lambda(i, -1 - i**2)}),),
            rel="<=",
            sizes={npos: (1, 2)},
        ),
        "positive",
    ),
    Entry(
        "citations",
        "a positive sequence of a log lemma instantiated by a negative one",
        lambda: chain(
            "cite-sequence-log",
            (_lemma_log_sequence().cite({"N": npos, "f": sp.Lambda(i, -1 - i)}),),
            sizes={npos: (1, 2)},
        ),
        ("positive", "log"),
    ),
    Entry(
        "citations",
        "a nonnegative sequence instantiated by any real",
        lambda: chain(
            "cite-sequence-nonnegative",
            (_lemma_nonnegative_sequence().cite({"N": npos, "f": sp.Lambda(i, u)}),),
            rel="<=",
            sizes={npos: (1, 2)},
        ),
        "nonnegative",
    ),
    Entry(
        "citations",
        "a context that reads syntax (adds 1 to powers only)",
        lambda: chain(
            "cite-context-syntax",
            (
                _lemma_square().cite(
                    {"x": u},
                    context=lambda e: e + 1 if isinstance(e, sp.Pow) else e,
                    lhs=(u + 1) ** 2 + 1,
                    rhs=u**2 + 2 * u + 1,
                ),
            ),
        ),
        ("context", "Lambda"),
    ),
    Entry(
        "citations",
        "a context that renames a positive variable to a real one after the check",
        lambda: chain(
            "cite-context-rename",
            (_lemma_log_square().cite({"a": b}, context=lambda e: e.subs(b, u), lhs=sp.log(u**2), rhs=2 * sp.log(u)),),
        ),
        ("context", "Lambda", "log"),
    ),
    Entry(
        "citations",
        "a context that takes the first argument of the expression",
        lambda: chain(
            "cite-context-args",
            (_lemma_square().cite({"x": u}, context=lambda e: e.args[0], lhs=u + 1, rhs=sp.Integer(1)),),
        ),
        ("context", "Lambda"),
    ),
    Entry(
        "citations",
        "beside a complex term: i x + a <= i x + b from a <= b",
        lambda: chain("cite-beside-complex", (_lemma_gap().cite({"x": u, "y": y}, beside=sp.I * x),), rel="<="),
        REAL,
    ),
]

# ==============================================================================================================
# (3) kernels trusted
# ==============================================================================================================

NonnegShift = kernel("NonnegShift", lambda v: v - 5, lambda v: v - 5, is_nonnegative=True)
IntHalf = kernel("IntHalf", lambda v: v / 2, lambda v: v / 2, is_integer=True)
RealRotation = kernel("RealRotation", lambda v: sp.I * v, lambda v: mpmath.mpc(0, 1) * v, is_real=True)
PositiveNegSquare = kernel("PositiveNegSquare", lambda v: -(v**2) - 1, lambda v: -(v**2) - 1, is_positive=True)
ZeroIdentity = kernel("ZeroIdentity", lambda v: v, lambda v: v, is_zero=True)
FloatInside = kernel("FloatInside", lambda v: v * (1 + sp.Float("1e-20")), lambda v: v * (1 + mpmath.mpf(10) ** -20))
_i_leak = sp.Symbol("i", integer=True, positive=True)
_i_leak_nn = sp.Symbol("i", integer=True, nonnegative=True)
LeakAbs = kernel(
    "LeakAbs",
    lambda v: sp.Sum(sp.Abs(_i_leak), (_i_leak, -5, v)),
    lambda v: 15 + integer(v) * (integer(v) + 1) // 2,  # Σ_{t=-5}^{v} |t|, in closed form
)
LeakSqrt = kernel(
    "LeakSqrt",
    lambda v: sp.Sum(sp.sqrt(_i_leak_nn**2), (_i_leak_nn, -2, v)),
    lambda v: 3 + integer(v) * (integer(v) + 1) // 2,  # Σ_{t=-2}^{v} |t|
)
_ib = sp.Symbol("i", integer=True)
AltBinomial = kernel(
    "AltBinomial",
    lambda v: sp.Sum(_ib * (-1) ** _ib * sp.binomial(v, _ib), (_ib, 0, v)).doit(),
    lambda v: -1 if integer(v) == 1 else 0,  # Σ_t t (-1)^t C(v, t) = -v 0^(v-1)
)
DeltaCount = kernel(
    "DeltaCount",
    lambda v: sp.Sum(sp.KroneckerDelta(_ib, v), (_ib, 0, 3)).doit(),
    lambda v: sum(1 for t in range(4) if t == v),
)


class Collapse(PermutationMap):
    r"""A "permutation" sending every index to 0."""

    @classmethod
    def numeric(cls, n_, k_):
        return 0


class Halve(PermutationMap):
    r"""A "permutation" k -> floor(k / 2)."""

    @classmethod
    def numeric(cls, n_, k_):
        return integer(k_) // 2


class ShiftOne(PermutationMap):
    r"""A "permutation" k -> k + 1 (leaves the range)."""

    @classmethod
    def numeric(cls, n_, k_):
        return integer(k_) + 1


_k_nn = sp.Symbol("k", integer=True, nonnegative=True)
_P_SIZES = {npos: (2, 3)}


def _reindex_claim(id_, perm):
    return theorem(
        id_,
        sp.Sum(f[perm(npos, _k_nn)], (_k_nn, 0, npos - 1)),
        sp.Sum(f[_k_nn], (_k_nn, 0, npos - 1)),
        ("reindex",),
        sizes=_P_SIZES,
    )


KERNELS = [
    Entry(
        "kernels trusted",
        "class-level is_nonnegative on a kernel defined as x - 5",
        lambda: theorem("kernel-claims-nonnegative", sp.Integer(0), NonnegShift(x), ("identity",), rel="<="),
        "NonnegShift",
    ),
    Entry(
        "kernels trusted",
        "class-level is_integer on n/2 used by a sum's bound variable",
        lambda: theorem(
            "kernel-claims-integer",
            sp.Sum(sp.cos(2 * sp.pi * z), (z, IntHalf(n), IntHalf(n) + 2)),
            sp.Integer(3),
            ("doit",),
        ),
        "IntHalf",
    ),
    Entry(
        "kernels trusted",
        "class-level is_real on i x",
        lambda: theorem("kernel-claims-real", RealRotation(x), RealRotation(x) + 1, ("identity",), rel="<="),
        "RealRotation",
    ),
    Entry(
        "kernels trusted",
        "class-level is_positive on -x^2 - 1",
        lambda: theorem("kernel-claims-positive", sp.Integer(0), PositiveNegSquare(x), ("identity",), rel="<"),
        "PositiveNegSquare",
    ),
    Entry(
        "kernels trusted",
        "class-level is_zero on the identity",
        lambda: theorem("kernel-claims-zero", ZeroIdentity(x) + x, x, ("identity",)),
        "ZeroIdentity",
    ),
    Entry(
        "kernels trusted",
        "a Float inside doit absorbs 10^-20",
        lambda: theorem("kernel-float-inside", FloatInside(x), x, ("unfold",)),
        ("Float", "FloatInside"),
    ),
    Entry(
        "kernels trusted",
        "doit unfolds a kernel whose sum's variable is declared positive over -5..n",
        lambda: theorem("kernel-unbound-abs", LeakAbs(n), n * (n + 1) / 2 - 15, ("doit", "expand")),
        ("declared", "LeakAbs"),
    ),
    Entry(
        "kernels trusted",
        "doit unfolds a kernel whose sum's variable is declared nonnegative over -2..n",
        lambda: theorem("kernel-unbound-sqrt", LeakSqrt(n), n * (n + 1) / 2 - 3, ("doit", "expand")),
        ("declared", "LeakSqrt"),
    ),
    Entry(
        "kernels trusted",
        "a kernel whose definition evaluates its own sum: Σ i (-1)^i C(n, i) = 0",
        lambda: theorem("kernel-own-sum-binomial", AltBinomial(n), sp.Integer(0), ("unfold",)),
        ("AltBinomial", "binomial"),
    ),
    Entry(
        "kernels trusted",
        "a kernel whose definition evaluates a KroneckerDelta sum at a real index",
        lambda: theorem(
            "kernel-own-sum-delta", DeltaCount(x), sp.Piecewise((1, (x >= 0) & (x <= 3)), (0, True)), ("unfold",)
        ),
        ("DeltaCount", "KroneckerDelta"),
    ),
    Entry(
        "kernels trusted",
        "reindex by a PermutationMap subclass sending everything to 0",
        lambda: _reindex_claim("kernel-permutation-collapse", Collapse),
        "Collapse",
    ),
    Entry(
        "kernels trusted",
        "reindex by a PermutationMap subclass k -> k // 2",
        lambda: _reindex_claim("kernel-permutation-halve", Halve),
        "Halve",
    ),
    Entry(
        "kernels trusted",
        "reindex by a PermutationMap subclass k -> k + 1",
        lambda: _reindex_claim("kernel-permutation-shift", ShiftOne),
        "ShiftOne",
    ),
]

# ==============================================================================================================
# (4) derivatives where none exists
# ==============================================================================================================

Relu = kernel("Relu", lambda v: sp.Max(v, 0), lambda v: max(v, 0))
_DERIV = ("Derivative",)


def _clip(v):
    return sp.Piecewise((-4, v <= -4), (v, v < 4), (4, True))


def _ramp(v):
    return sp.Piecewise((0, v < 1), (v - 1, v < 2), (1, True))


DERIVATIVES = [
    Entry(
        "derivatives at kinks",
        "d/dx max(x, 0) = H(x)",
        lambda: theorem("deriv-relu", sp.Derivative(sp.Max(x, 0), x), sp.Heaviside(x), ("doit",)),
        ("Derivative", "Heaviside"),
    ),
    Entry(
        "derivatives at kinks",
        "d|x|/dx = sign(x)",
        lambda: theorem("deriv-abs", sp.Derivative(sp.Abs(x), x), sp.sign(x), ("doit",)),
        ("Derivative", "sign"),
    ),
    Entry(
        "derivatives at kinks",
        "d|x - 1|/dx = sign(x - 1): the kink at an edge value",
        lambda: theorem("deriv-abs-shifted", sp.Derivative(sp.Abs(x - 1), x), sp.sign(x - 1), ("doit",)),
        ("Derivative", "sign"),
    ),
    Entry(
        "derivatives at kinks",
        "the derivative of DeBERTa's clip, branch by branch",
        lambda: theorem(
            "deriv-deberta-clip",
            sp.Derivative(_clip(x), x),
            sp.Piecewise((0, x <= -4), (1, x < 4), (0, True)),
            ("doit",),
        ),
        ("Derivative", "Piecewise"),
    ),
    Entry(
        "derivatives at kinks",
        "the derivative of Llama 3's ramp, branch by branch",
        lambda: theorem(
            "deriv-llama3-ramp", sp.Derivative(_ramp(x), x), sp.Piecewise((0, x < 1), (1, x < 2), (0, True)), ("doit",)
        ),
        ("Derivative", "Piecewise"),
    ),
    Entry(
        "derivatives at kinks",
        "a T5-style staircase has derivative 0",
        lambda: theorem(
            "deriv-staircase",
            sp.Derivative(sp.Piecewise((0, x < 1), (1, x < 2), (2, True)), x),
            sp.Integer(0),
            ("doit",),
        ),
        ("Derivative", "Piecewise"),
    ),
    Entry(
        "derivatives at kinks",
        "d floor(x)/dx = 0",
        lambda: theorem("deriv-floor", sp.Derivative(sp.floor(x), x), sp.Integer(0), ("doit",)),
        ("Derivative", "floor"),
    ),
    Entry(
        "derivatives at kinks",
        "d/dx min(x, 5) = H(5 - x)",
        lambda: theorem("deriv-min", sp.Derivative(sp.Min(x, 5), x), sp.Heaviside(5 - x), ("doit",)),
        ("Derivative", "Heaviside"),
    ),
    Entry(
        "derivatives at kinks",
        "d/dx max(x, y) = H(x - y)",
        lambda: theorem("deriv-max-two", sp.Derivative(sp.Max(x, y), x), sp.Heaviside(x - y), ("doit",)),
        ("Derivative", "Heaviside"),
    ),
    Entry(
        "derivatives at kinks",
        "the derivative of a user's ReLU kernel",
        lambda: theorem("deriv-relu-kernel", sp.Derivative(Relu(x), x), sp.Heaviside(x), ("unfold", "doit")),
        ("Derivative", "Heaviside"),
    ),
    Entry(
        "derivatives at kinks",
        "the second derivative of max(x, 0)^2 is 2 H(x)",
        lambda: theorem("deriv-relu-square", sp.Derivative(sp.Max(x, 0) ** 2, (x, 2)), 2 * sp.Heaviside(x), ("doit",)),
        ("Derivative", "Heaviside"),
    ),
    Entry(
        "derivatives at kinks",
        "d|sin x|/dx = sign(sin x) cos x",
        lambda: theorem(
            "deriv-abs-sin", sp.Derivative(sp.Abs(sp.sin(x)), x), sp.sign(sp.sin(x)) * sp.cos(x), ("doit",)
        ),
        ("Derivative", "sign"),
    ),
]

# ==============================================================================================================
# (5) definitions and facts that state what they do not check
# ==============================================================================================================


def _float_third():
    return 1 / 3


DEFINITIONS_FACTS = [
    Entry(
        "definitions and facts",
        "a Definition without a kernel: min(x, 100) = x, sampled on [0, 10]",
        lambda: definition("def-no-kernel-min", sp.Min(x, 100), x, domains={"x": Domain("real", 0, 10)}),
        "Kernel",
    ),
    Entry(
        "definitions and facts",
        "a Definition without a kernel: |x| = x, sampled on [0, 5]",
        lambda: definition("def-no-kernel-abs", sp.Abs(x), x, domains={"x": Domain("real", 0, 5)}),
        "Kernel",
    ),
    Entry(
        "definitions and facts",
        "a Definition without a kernel: x^2 = x |x|, sampled on positives",
        lambda: definition("def-no-kernel-square", x**2, x * sp.Abs(x), domains={"x": Domain("real", 0, 9)}),
        "Kernel",
    ),
    Entry(
        "definitions and facts",
        "a Definition of an undefined function",
        lambda: definition("def-undefined-function", sp.Function("relbias")(x), x),
        ("Kernel", "relbias"),
    ),
    Entry(
        "definitions and facts",
        "a Fact whose wrong computation reproduces the claim",
        lambda: fact("fact-wrong-reproduces", 64, lambda: 64, wrong=lambda: 64),
        "wrong",
    ),
    Entry(
        "definitions and facts",
        "a Fact whose wrong computation is the computation",
        lambda: fact("fact-wrong-is-compute", 3, lambda: 2 + 1, wrong=lambda: 2 + 1),
        "wrong",
    ),
    Entry(
        "definitions and facts",
        "a float64 value claimed computed with mpmath at {dps} digits",
        lambda: fact(
            "fact-float64-as-mpmath", _float_third(), _float_third, "mpmath at {dps} digits", wrong=lambda: 0.25
        ),
        ("float", "method"),
    ),
    Entry(
        "definitions and facts",
        "a NumPy float64 value claimed computed with mpmath at {dps} digits",
        lambda: fact(
            "fact-numpy-as-mpmath",
            np.float64(2) ** 0.5,
            lambda: np.float64(2) ** 0.5,
            "mpmath at {dps} digits",
            wrong=lambda: np.float64(1.5),
        ),
        ("float", "method"),
    ),
    Entry(
        "definitions and facts",
        "a float value claimed computed by exact integer arithmetic",
        lambda: fact("fact-float-as-exact", 0.5, lambda: 1 / 2, "exact integer arithmetic", wrong=lambda: 0.25),
        ("float", "method", "exact"),
    ),
    Entry(
        "definitions and facts",
        "a float32 value claimed computed with mpmath at {dps} digits",
        lambda: fact(
            "fact-float32-as-mpmath",
            np.float32(1) / 3,
            lambda: np.float32(1) / 3,
            "mpmath at {dps} digits",
            wrong=lambda: np.float32(0.25),
        ),
        ("float", "method"),
    ),
    Entry(
        "definitions and facts",
        "a Fact resting on a Definition without a kernel",
        lambda: fact(
            "fact-on-kernelless-definition",
            10,
            lambda: 10,
            wrong=lambda: 11,
            definitions=(definition("def-inside-fact", sp.Min(x, 100), x, domains={"x": Domain("real", 0, 10)}),),
        ),
        "Kernel",
    ),
]

# ==============================================================================================================
# (6) SymPy closed forms and assumption facts false under the declarations
# ==============================================================================================================

_ik = sp.Symbol("i", integer=True)

CLOSED_FORMS = [
    Entry(
        "sympy closed forms",
        "Σ_{i=0}^{3} δ(i, x) for real x is 1 on [0, 3]",
        lambda: theorem(
            "cf-kronecker-sum",
            sp.Sum(sp.KroneckerDelta(_ik, x), (_ik, 0, 3)),
            sp.Piecewise((1, (x >= 0) & (x <= 3)), (0, True)),
            ("doit",),
        ),
        "KroneckerDelta",
    ),
    Entry(
        "sympy closed forms",
        "Π_{i=0}^{3} (1 + δ(i, x)) for real x",
        lambda: theorem(
            "cf-kronecker-product",
            sp.Product(1 + sp.KroneckerDelta(_ik, x), (_ik, 0, 3)),
            sp.Piecewise((1, (x >= 0) & (x <= 3)), (0, True)) + 1,
            ("doit",),
        ),
        "KroneckerDelta",
    ),
    Entry(
        "sympy closed forms",
        "Σ_{i=0}^{n} δ(i, x) for real x and symbolic n",
        lambda: theorem(
            "cf-kronecker-symbolic",
            sp.Sum(sp.KroneckerDelta(_ik, x), (_ik, 0, n)),
            sp.Piecewise((1, (x >= 0) & (x <= n)), (0, True)),
            ("doit",),
        ),
        "KroneckerDelta",
    ),
    Entry(
        "sympy closed forms",
        "Σ (-1)^i C(n, i) = 0, false at n = 0",
        lambda: theorem(
            "cf-alternating-binomial", sp.Sum((-1) ** _ik * sp.binomial(n, _ik), (_ik, 0, n)), sp.Integer(0), ("doit",)
        ),
        "binomial",
    ),
    Entry(
        "sympy closed forms",
        "Σ i (-1)^i C(n, i) = 0, false at n = 1",
        lambda: theorem(
            "cf-alternating-binomial-i",
            sp.Sum(_ik * (-1) ** _ik * sp.binomial(n, _ik), (_ik, 0, n)),
            sp.Integer(0),
            ("doit",),
        ),
        "binomial",
    ),
    Entry(
        "sympy closed forms",
        "Mod of a complex angle is nonnegative",
        lambda: theorem("cf-mod-complex-nonnegative", sp.Integer(0), sp.Mod(z, 2 * sp.pi), ("identity",), rel="<="),
        "Mod",
    ),
    Entry(
        "sympy closed forms",
        "Mod of a complex RoPE angle is below 2 pi",
        lambda: theorem("cf-mod-complex-below", sp.Mod(z * m, 2 * sp.pi), 2 * sp.pi, ("identity",), rel="<"),
        "Mod",
    ),
    Entry(
        "sympy closed forms",
        "Mod(n, 2^60) = n for every n >= 0",
        lambda: theorem("cf-mod-wrap", sp.Mod(n, 2**60), n, ("identity",)),
        "Mod",
    ),
]

# ==============================================================================================================
# (7) infinite sums
# ==============================================================================================================

_INF = ("Infinity", "infinite", "oo")

INFINITE = [
    Entry(
        "infinite sums",
        "a telescoping divergent split: Σ (1/i - 1/(i+1)) = Σ 1/i - Σ 1/(i+1)",
        lambda: theorem(
            "inf-split-divergent",
            sp.Sum(1 / i_pos - 1 / (i_pos + 1), (i_pos, 1, sp.oo)),
            sp.Sum(1 / i_pos, (i_pos, 1, sp.oo)) - sp.Sum(1 / (i_pos + 1), (i_pos, 1, sp.oo)),
            ("combine_sums",),
        ),
        _INF,
    ),
    Entry(
        "infinite sums",
        "Grandi: Σ (-1)^i + Σ (-1)^(i+1) = 0",
        lambda: theorem(
            "inf-grandi",
            sp.Sum((-1) ** i, (i, 0, sp.oo)) + sp.Sum((-1) ** (i + 1), (i, 0, sp.oo)),
            sp.Integer(0),
            ("combine_sums", "expand"),
        ),
        _INF,
    ),
    Entry(
        "infinite sums",
        "the harmonic series minus its tail is 1",
        lambda: theorem(
            "inf-harmonic-tail",
            sp.Sum(1 / i_pos, (i_pos, 1, sp.oo)),
            sp.Sum(1 / i_pos, (i_pos, 2, sp.oo)) + 1,
            ("split_last", "combine_sums"),
        ),
        _INF,
    ),
    Entry(
        "infinite sums",
        "a window condition decided at infinity: Σ_{k >= j} [k <= j + 2] = 2",
        lambda: theorem(
            "inf-window",
            sp.Sum(sp.Piecewise((1, _k_nn <= n + 2), (0, True)), (_k_nn, n, sp.oo)),
            sp.Integer(2),
            ("refine_limits", "doit"),
        ),
        _INF,
    ),
    Entry(
        "infinite sums",
        "the geometric series 1/(1 - x) for every real x",
        lambda: theorem("inf-geometric", sp.Sum(x**i, (i, 0, sp.oo)), 1 / (1 - x), ("doit",)),
        _INF,
    ),
    Entry(
        "infinite sums",
        "Σ i = -1/12",
        lambda: theorem("inf-ramanujan", sp.Sum(i, (i, 0, sp.oo)), sp.Rational(-1, 12), ("doit",)),
        _INF,
    ),
    Entry(
        "infinite sums",
        "Π_{i>=2} (1 - 1/i) = 1/2",
        lambda: theorem("inf-product", sp.Product(1 - 1 / i_pos, (i_pos, 2, sp.oo)), sp.Rational(1, 2), ("doit",)),
        _INF,
    ),
    Entry(
        "infinite sums",
        "infinite sums split and compared: 0 > Σ_{i >= 1} -1/i^2 + Σ 2/i",
        lambda: theorem(
            "inf-combined-positive",
            sp.Integer(0),
            sp.Sum(-1 / i_pos**2, (i_pos, 1, sp.oo)) + sp.Sum(2 / i_pos, (i_pos, 1, sp.oo)),
            ("combine_sums",),
            rel=">",
        ),
        _INF,
    ),
]

# ==============================================================================================================
# (8) Maximum's inside-the-range rule
# ==============================================================================================================

_kr = sp.Symbol("k", real=True)
_IN_03 = (sp.Q.ge(u, 0), sp.Q.le(u, 3))


def _below_max(id_: str, small, maximum, **kw):
    r"""``small <= maximum`` claimed by ``identity``: the Maximum rule of ``nonnegative`` is all that could prove it."""
    return theorem(id_, small, maximum, ("identity",), rel="<=", **kw)


_HALF = sp.Rational(1, 2)

MAXIMA = [
    Entry(
        "maximum",
        "-(u - 1/2)^2 <= max_{k=0..3} -(k - 1/2)^2 at non-integer u",
        lambda: _below_max(
            "max-noninteger-point", -((u - _HALF) ** 2), Maximum(-((_k_nn - _HALF) ** 2), (_k_nn, 0, 3)), given=_IN_03
        ),
        ("Maximum", "integer"),
    ),
    Entry(
        "maximum",
        "sin u <= max_{k=0..3} sin k for real u in [0, 3]",
        lambda: _below_max("max-sin-real-point", sp.sin(u), Maximum(sp.sin(_k_nn), (_k_nn, 0, 3)), given=_IN_03),
        ("Maximum", "integer"),
    ),
    Entry(
        "maximum",
        "a Maximum whose index is declared real",
        lambda: _below_max(
            "max-real-index", -((u - _HALF) ** 2), Maximum(-((_kr - _HALF) ** 2), (_kr, 0, 3)), given=_IN_03
        ),
        ("Maximum", "integer"),
    ),
    Entry(
        "maximum",
        "a Maximum of non-real terms: 2i <= max_k i k",
        lambda: _below_max("max-complex-terms", 2 * sp.I, Maximum(sp.I * _k_nn, (_k_nn, 0, 3))),
        ("Maximum", "real"),
    ),
    Entry(
        "maximum",
        "a Maximum over the empty range 3 .. 1 is nonnegative",
        lambda: _below_max("max-empty-explicit", sp.Integer(0), Maximum(_k_nn**2, (_k_nn, 3, 1))),
        ("Maximum", "empty"),
    ),
    Entry(
        "maximum",
        "a Maximum over the empty range n + 1 .. n is nonnegative",
        lambda: _below_max("max-empty-symbolic", sp.Integer(0), Maximum(_k_nn**2, (_k_nn, n + 1, n))),
        ("Maximum", "empty"),
    ),
    Entry(
        "maximum",
        "a Maximum over an infinite range bounds n",
        lambda: _below_max("max-infinite", n, Maximum(_k_nn, (_k_nn, 0, sp.oo))),
        ("Maximum", "Infinity", "oo"),
    ),
    Entry(
        "maximum",
        "a Maximum over half-integer limits",
        lambda: _below_max("max-half-limits", -sp.Rational(1, 4), Maximum(-(_k_nn**2), (_k_nn, _HALF, 5 * _HALF))),
        ("Maximum", "integer"),
    ),
]

# ==============================================================================================================
# Classes of our own
# ==============================================================================================================

_ZERO = ("Pow", "zero")

DIVISION = [
    Entry(
        "division by zero",
        "(x^2 - 1)/(x - 1) = x + 1, at x = 1 too",
        lambda: theorem("div-cancel-pole", (x**2 - 1) / (x - 1), x + 1, ("cancel",)),
        _ZERO,
    ),
    Entry(
        "division by zero",
        "(i^2 - j^2)/(i - j) = i + j for all integers (ALiBi distances)",
        lambda: theorem("div-cancel-integers", (k**2 - j**2) / (k - j), k + j, ("cancel",)),
        _ZERO,
    ),
    Entry(
        "division by zero",
        "(1 - x^3)/(1 - x) = 1 + x + x^2",
        lambda: theorem("div-geometric", (1 - x**3) / (1 - x), 1 + x + x**2, ("cancel",)),
        _ZERO,
    ),
    Entry(
        "division by zero",
        "0 < 1/x^2 for every real x",
        lambda: theorem("div-reciprocal-square", sp.Integer(0), 1 / x**2, ("identity",), rel="<"),
        _ZERO,
    ),
    Entry(
        "division by zero",
        "softmax of an empty row sums to 1",
        lambda: theorem(
            "div-empty-softmax",
            sp.Sum(sp.exp(q[i]) / sp.Sum(sp.exp(q[_k_nn]), (_k_nn, 0, n - 1)), (i, 0, n - 1)),
            sp.Integer(1),
            ("factor_terms", "cancel"),
            sizes={n: (0, 1, 2)},
        ),
        ("Pow", "zero", "empty"),
    ),
    Entry(
        "division by zero",
        "x/x = 1 written unevaluated",
        lambda: theorem(
            "div-x-over-x", sp.Mul(x, sp.Pow(x, -1, evaluate=False), evaluate=False), sp.Integer(1), ("cancel",)
        ),
        _ZERO,
    ),
]

BRANCH_CUTS = [
    Entry(
        "branch cuts",
        "log(1/x) = -log(x) for real x",
        lambda: theorem("cut-log-reciprocal", sp.log(1 / x), -sp.log(x), ("expand_log",)),
        "log",
    ),
    Entry(
        "branch cuts",
        "log(z^2) = 2 log(z) for complex z",
        lambda: theorem("cut-log-square-complex", sp.log(z**2), 2 * sp.log(z), ("expand_log", "expand")),
        "log",
    ),
    Entry(
        "branch cuts",
        "sqrt(1/x) = 1/sqrt(x) for real x",
        lambda: theorem("cut-sqrt-reciprocal", sp.sqrt(1 / x), 1 / sp.sqrt(x), ("powsimp", "powdenest")),
        ("Pow", "sqrt"),
    ),
    Entry(
        "branch cuts",
        "(z^2)^(1/4) = sqrt(z)",
        lambda: theorem("cut-fourth-root", (z**2) ** sp.Rational(1, 4), sp.sqrt(z), ("powdenest", "powsimp")),
        "Pow",
    ),
    Entry(
        "branch cuts",
        "log(e^{i x}) = i x for every real x",
        lambda: theorem("cut-log-rotation", sp.log(sp.exp(sp.I * x)), sp.I * x, ("expand_log", "expand")),
        "log",
    ),
    Entry(
        "branch cuts",
        "(e^{i θ})^u = e^{i u θ} for a real (not integer) RoPE position u",
        lambda: theorem(
            "cut-rotation-power", sp.exp(sp.I * theta) ** u, sp.exp(sp.I * u * theta), ("powdenest", "powsimp")
        ),
        "Pow",
    ),
]

OUTSIDE = [
    Entry(
        "functions outside the fragment",
        "atan(tan x) = x",
        lambda: theorem("fn-atan-tan", sp.atan(sp.tan(x)), x, ("expand_trig",)),
        ("atan", "tan"),
    ),
    Entry(
        "functions outside the fragment",
        "atan2(y, x) = atan(y/x)",
        lambda: theorem("fn-atan2", sp.atan2(y, x), sp.atan(y / x), ("expand",)),
        "atan2",
    ),
    Entry(
        "functions outside the fragment",
        "Gamma is positive on the reals",
        lambda: theorem("fn-gamma-positive", sp.Integer(0), sp.gamma(x), ("identity",), rel="<"),
        "gamma",
    ),
    Entry(
        "functions outside the fragment",
        "zeta is positive on the reals",
        lambda: theorem("fn-zeta-positive", sp.Integer(0), sp.zeta(x), ("identity",), rel="<"),
        "zeta",
    ),
    Entry(
        "functions outside the fragment",
        "asin(sin x) = x",
        lambda: theorem("fn-asin-sin", sp.asin(sp.sin(x)), x, ("expand",)),
        "asin",
    ),
    Entry(
        "functions outside the fragment",
        "erf is nonnegative",
        lambda: theorem("fn-erf", sp.Integer(0), sp.erf(x), ("identity",), rel="<="),
        "erf",
    ),
    Entry(
        "functions outside the fragment",
        "n! = Gamma(n)",
        lambda: theorem("fn-factorial-gamma", sp.factorial(npos), sp.gamma(npos), ("expand",)),
        ("factorial", "gamma"),
    ),
    Entry(
        "functions outside the fragment",
        "tanh is positive",
        lambda: theorem("fn-tanh", sp.Integer(0), sp.tanh(x), ("identity",), rel="<"),
        "tanh",
    ),
    Entry(
        "functions outside the fragment",
        "sec x >= 1",
        lambda: theorem("fn-sec", sp.Integer(1), sp.sec(x), ("identity",), rel="<="),
        "sec",
    ),
    Entry(
        "functions outside the fragment",
        "H(x)^2 = H(x), false at 0 where H = 1/2",
        lambda: theorem("fn-heaviside-square", sp.Heaviside(x) ** 2, sp.Heaviside(x), ("expand",)),
        "Heaviside",
    ),
    Entry(
        "functions outside the fragment",
        "sign(x)^2 = 1, false at 0",
        lambda: theorem("fn-sign-square", sp.sign(x) ** 2, sp.Integer(1), ("expand",)),
        "sign",
    ),
    Entry(
        "functions outside the fragment",
        "∫_{-1}^{1} dx/x^2 = -2",
        lambda: theorem("fn-integral", sp.Integral(1 / x**2, (x, -1, 1)), sp.Integer(-2), ("doit",)),
        "Integral",
    ),
    Entry(
        "functions outside the fragment",
        "lim_{x -> 0} x/|x| = 1 (two-sided, it does not exist)",
        lambda: theorem("fn-limit", sp.Limit(x / sp.Abs(x), x, 0), sp.Integer(1), ("doit",)),
        "Limit",
    ),
    Entry(
        "functions outside the fragment",
        "DiracDelta(x) = 0",
        lambda: theorem("fn-dirac", sp.DiracDelta(x), sp.Integer(0), ("expand",)),
        "DiracDelta",
    ),
]

UNDEFINED = [
    Entry(
        "undefined functions",
        "an undefined bias is additive",
        lambda: theorem(
            "undef-additive", sp.Function("bias")(x + y), sp.Function("bias")(x) + sp.Function("bias")(y), ("expand",)
        ),
        "bias",
    ),
    Entry(
        "undefined functions",
        "an undefined function declared positive is homogeneous: score(2x) = 2 score(x)",
        lambda: theorem(
            "undef-positive", sp.Function("score", positive=True)(2 * x), 2 * sp.Function("score", positive=True)(x)
        ),
        "score",
    ),
    Entry(
        "undefined functions",
        "an undefined function declared real is decreasing",
        lambda: theorem(
            "undef-real",
            sp.Function("phase", real=True)(x + 1),
            sp.Function("phase", real=True)(x),
            ("identity",),
            rel="<=",
        ),
        "phase",
    ),
]

PIECEWISE = [
    Entry(
        "piecewise without a true branch",
        "a two-sided Piecewise with no branch at 0 equals |x|",
        lambda: theorem("pw-no-zero-branch", sp.Piecewise((x, x > 0), (-x, x < 0)), sp.Abs(x), ("piecewise_fold",)),
        "Piecewise",
    ),
    Entry(
        "piecewise without a true branch",
        "a one-branch Piecewise is nonnegative",
        lambda: theorem("pw-one-branch", sp.Integer(0), sp.Piecewise((1, x > 0)), ("identity",), rel="<="),
        "Piecewise",
    ),
    Entry(
        "piecewise without a true branch",
        "two buckets with no bucket for distance 0 sum to 1",
        lambda: theorem(
            "pw-bucket-gap",
            sp.Piecewise((0, k < 0), (1, k > 0)) + sp.Piecewise((1, k < 0), (0, k > 0)),
            sp.Integer(1),
            ("piecewise_fold",),
        ),
        "Piecewise",
    ),
]

_FWD = ("forward", "reversed")

REVERSED = [
    Entry(
        "reversed ranges",
        "Σ_{i=5}^{2} 1 = 0 (SymPy's Karr convention gives -2)",
        lambda: theorem("rev-count", sp.Sum(1, (_ik, 5, 2)), sp.Integer(0), ("doit",)),
        _FWD,
    ),
    Entry(
        "reversed ranges",
        "Π_{i=3}^{1} i = 1 (Karr gives 1/2)",
        lambda: theorem("rev-product", sp.Product(_ik, (_ik, 3, 1)), sp.Integer(1), ("doit",)),
        _FWD,
    ),
    Entry(
        "reversed ranges",
        "Σ_{i=n+2}^{n} i = -(n + 1), Karr's value of an empty sum",
        lambda: theorem("rev-karr-value", sp.Sum(_ik, (_ik, n + 2, n)), -(n + 1), ("doit", "expand")),
        _FWD,
    ),
    Entry(
        "reversed ranges",
        "Σ_{i=0}^{-2} q_i = -q_{-1}",
        lambda: theorem("rev-indexed", sp.Sum(q[_ik], (_ik, 0, -2)), -q[-1], ("doit",)),
        _FWD,
    ),
]

_dd = sp.Symbol("d", integer=True)  # not the claim's d (another symbol: other assumptions)

SIZES_DOMAINS = [
    Entry(
        "sizes and domains",
        "sizes keyed by another symbol called d: the claim is checked at no size",
        lambda: theorem(
            "size-other-symbol",
            sp.Sum(q[i] ** 2, (i, 0, d - 1)),
            sp.Sum(q[i], (i, 0, d - 1)) ** 2,
            ("doit", "expand"),
            sizes={_dd: (1,)},
        ),
        "sizes",
    ),
    Entry(
        "sizes and domains",
        "sizes keyed by the string 'd'",
        lambda: theorem(
            "size-string-key",
            sp.Sum(q[i] ** 2, (i, 0, d - 1)),
            sp.Sum(q[i], (i, 0, d - 1)) ** 2,
            ("doit", "expand"),
            sizes={"d": (1,)},
        ),
        "sizes",
    ),
    Entry(
        "sizes and domains",
        "a domain outside the declaration hides the counterexample",
        lambda: theorem(
            "domain-outside-declaration",
            sp.Min(a, 1),
            a,
            ("identity",),
            domains={"a": Domain("real", -5, sp.Rational(1, 2))},
        ),
        "domain",
    ),
    Entry(
        "sizes and domains",
        "a domain keyed by a name the claim does not have",
        lambda: theorem("domain-unknown-name", sp.Min(a, 10**9), a, ("identity",), domains={"y": Domain("real", 0, 1)}),
        "domain",
    ),
]

CONTRADICTORY = [
    Entry(
        "contradictory given",
        "a given contradicting the declaration (a > 0 and a < 0): 0 < -a",
        lambda: theorem(
            "given-contradicts-declaration", sp.Integer(0), -a, ("identity",), rel="<", given=(sp.Q.negative(a),)
        ),
        "given",
    ),
    Entry(
        "contradictory given",
        "two givens contradicting each other: x > 1 and x < 0, so x < x - 1",
        lambda: theorem(
            "given-contradicts-itself", x, x - 1, ("identity",), rel="<", given=(sp.Q.gt(x, 1), sp.Q.lt(x, 0))
        ),
        "given",
    ),
    Entry(
        "contradictory given",
        "a given about another symbol named x",
        lambda: theorem(
            "given-other-symbol", sp.Integer(0), x, ("identity",), rel="<", given=(sp.Q.positive(sp.Symbol("x")),)
        ),
        "given",
    ),
]

A_, B_ = sp.symbols("A B", commutative=False)
_NC = ("commutative",)

NONCOMMUTATIVE = [
    Entry(
        "noncommutative",
        "AB = BA for noncommutative symbols",
        lambda: theorem("nc-commute", A_ * B_, B_ * A_, ("expand",)),
        _NC,
    ),
    Entry(
        "noncommutative",
        "(A + B)^2 = A^2 + 2AB + B^2",
        lambda: theorem("nc-binomial", (A_ + B_) ** 2, A_**2 + 2 * A_ * B_ + B_**2, ("expand",)),
        _NC,
    ),
    Entry(
        "noncommutative",
        "e^A e^B = e^{A + B}",
        lambda: theorem("nc-exp", sp.exp(A_) * sp.exp(B_), sp.exp(A_ + B_), ("powsimp",)),
        _NC,
    ),
]

PYTHON_NUMBERS = [
    Entry(
        "python numbers as sides",
        "a Python float side 0.1 = 1/10 (no Float atom to refuse)",
        lambda: theorem("py-float-side", 0.1, sp.Rational(1, 10), ("identity",)),
        "float",
    ),
    Entry(
        "python numbers as sides",
        "a NumPy float64 side 0.1 = 1/10",
        lambda: theorem("py-numpy-side", np.float64(0.1), sp.Rational(1, 10), ("identity",)),
        "float",
    ),
    Entry(
        "python numbers as sides",
        "a Python float in a sum's limit",
        lambda: theorem("py-float-limit", sp.Sum(_ik, (_ik, 0, 2.5)), sp.Integer(1), ("doit",)),
        "float",
    ),
]

FALSE: list[Entry] = [
    *NON_REAL,
    *CITATIONS,
    *KERNELS,
    *DERIVATIVES,
    *DEFINITIONS_FACTS,
    *CLOSED_FORMS,
    *INFINITE,
    *MAXIMA,
    *DIVISION,
    *BRANCH_CUTS,
    *OUTSIDE,
    *UNDEFINED,
    *PIECEWISE,
    *REVERSED,
    *SIZES_DOMAINS,
    *CONTRADICTORY,
    *NONCOMMUTATIVE,
    *PYTHON_NUMBERS,
]

#: The eight classes of the issue (every one must have entries).
ISSUE_CLASSES = (
    "non-real sides",
    "citations",
    "kernels trusted",
    "derivatives at kinks",
    "definitions and facts",
    "sympy closed forms",
    "infinite sums",
    "maximum",
)

__all__ = ["FALSE", "ISSUE_CLASSES"]
