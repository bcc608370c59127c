r"""Relative bias kernels: FIRE (Li et al. 2023, arXiv 2310.04418), Sandwich (Chi et al. 2023, arXiv 2212.10356)
and KERPLE (Chi et al. 2022, arXiv 2205.09921).

FIRE: ``f(psi(i - j) / psi(max(L, i)))``, ``psi(x) = log(c x + 1)``; the claims are about the normalized distance
(the argument of the learned ``f``), for keys at or before the query. Positions are written ``i = j + r`` with the
distance ``r >= 0``, and a threshold above a query as ``L = i + u`` with ``u >= 0`` (so that ``max`` is decided by
the symbols' declarations). Sandwich: the sinusoidal dot product, times a scale ``lambda > 0``. KERPLE: the
logarithmic and power biases, with kernels that run numeric.bias_kernels' mpmath twins.
"""

from __future__ import annotations

import itertools

import mpmath
import numpy as np
import sympy as sp
from posproof.numeric import bias_kernels
from posproof.symbolic import tables
from posproof.symbolic.engine.core import Definition, Domain, Fact, Kernel, Step, Theorem
from posproof.symbolic.sinusoidal import ASSUME, DOT, EULER, dot, pairs, phi, theta_i
from posproof.symbolic.sinusoidal import LENGTH as SINUSOIDAL_LENGTH
from posproof.symbolic.sinusoidal import m as m_real
from posproof.symbolic.sinusoidal import n as n_real
from posproof.symbolic.sinusoidal import t as t_real
from posproof.symbolic.symbols import d_even as d

TOPIC = "kernels"
FIRE = (
    "Li et al. 2023, 'Functional Interpolation for Relative Positions Improves Long Context Transformers' "
    "(FIRE, arXiv:2310.04418)"
)
SANDWICH = (
    "Chi et al. 2023, 'Dissecting Transformer Length Extrapolation via the Lens of Receptive Field Analysis' "
    "(Sandwich, arXiv:2212.10356)"
)
KERPLE = (
    "Chi et al. 2022, 'KERPLE: Kernelized Relative Positional Embedding for Length Extrapolation' (arXiv:2205.09921)"
)

# ---- symbols ----------------------------------------------------------------------------------------------------
c = sp.Symbol("c", positive=True)  # FIRE's scale inside psi
L = sp.Symbol("L", positive=True)  # FIRE's threshold
j = sp.Symbol("j", integer=True, nonnegative=True)  # key position
r = sp.Symbol("r", integer=True, nonnegative=True)  # distance i - j >= 0
t = sp.Symbol("t", integer=True, nonnegative=True)  # a shift
t_shift = sp.Symbol("t", integer=True, positive=True)  # a shift that moves (t = 0 is the identity)
u = sp.Symbol("u", nonnegative=True)  # slack between a query and the threshold
qi = sp.Symbol("i", integer=True, nonnegative=True)  # query (statements only)
lam = sp.Symbol("lambda", positive=True)  # Sandwich's scale
r1 = sp.Symbol("r_1", positive=True)
r2 = sp.Symbol("r_2", positive=True)
x = sp.Symbol("x", positive=True)  # a distance |m - n| > 0
km, kn, kt = sp.symbols("m n t", integer=True)  # KERPLE's positions and shift
_psi = sp.Function("psi")  # statements only
_b = sp.Function("b")  # statements only

R2 = Domain("real", sp.Rational(1, 64), 2, log=True)


# ---- kernels: the code of numeric.bias_kernels ------------------------------------------------------------------


class FireDistance(Kernel):
    r"""FIRE's normalized distance ``psi(i - j) / psi(max(L, i))`` (args ``i, j, c, L``), computed by
    :func:`numeric.bias_kernels.fire_normalized_distance_mp`."""

    nargs = 4

    @classmethod
    def numeric(cls, i, j_, c_, L_):
        return bias_kernels.fire_normalized_distance_mp(i, j_, c=c_, threshold=L_, dps=mpmath.mp.dps)

    def doit(self, **hints):
        i, j_, c_, L_ = (a.doit(**hints) for a in self.args)
        return sp.log(c_ * (i - j_) + 1) / sp.log(c_ * sp.Max(L_, i) + 1)

    def _latex(self, printer, exp=None):
        i, j_ = self.args[:2]
        out = r"\operatorname{FIRE}\left(%s, %s\right)" % (printer._print(i), printer._print(j_))
        return out if exp is None else r"%s^{%s}" % (out, exp)


class KerpleLog(Kernel):
    r"""KERPLE's logarithmic bias ``-r_1 log(1 + r_2 |m - n|)`` (args ``m, n, r_1, r_2``), computed by
    :func:`numeric.bias_kernels.kerple_log_bias_mp`."""

    nargs = 4

    @classmethod
    def numeric(cls, m_, n_, a, b):
        return bias_kernels.kerple_log_bias_mp(m_, n_, r1=a, r2=b, dps=mpmath.mp.dps)

    def doit(self, **hints):
        m_, n_, a, b = (e.doit(**hints) for e in self.args)
        return -a * sp.log(1 + b * sp.Abs(m_ - n_))

    def _latex(self, printer, exp=None):
        m_, n_ = self.args[:2]
        out = r"b_{\log}\left(%s, %s\right)" % (printer._print(m_), printer._print(n_))
        return out if exp is None else r"%s^{%s}" % (out, exp)


class KerplePower(Kernel):
    r"""KERPLE's power bias ``-r_1 |m - n|^{r_2}`` (args ``m, n, r_1, r_2``), computed by
    :func:`numeric.bias_kernels.kerple_power_bias_mp`."""

    nargs = 4

    @classmethod
    def numeric(cls, m_, n_, a, b):
        return bias_kernels.kerple_power_bias_mp(m_, n_, r1=a, r2=b, dps=mpmath.mp.dps)

    def doit(self, **hints):
        m_, n_, a, b = (e.doit(**hints) for e in self.args)
        return -a * sp.Abs(m_ - n_) ** b

    def _latex(self, printer, exp=None):
        m_, n_ = self.args[:2]
        out = r"b_{\mathrm{pow}}\left(%s, %s\right)" % (printer._print(m_), printer._print(n_))
        return out if exp is None else r"%s^{%s}" % (out, exp)


def _psi_of(arg):
    return sp.log(c * arg + 1)


# ---- FIRE -------------------------------------------------------------------------------------------------------

FIRE_ASSUME = (r"$c > 0$, $L > 0$", r"key $j \ge 0$, query $i = j + r$ with distance $r \ge 0$")


def fire_definition() -> Definition:
    lhs = FireDistance(j + r, j, c, L)
    return Definition(
        "kernels-fire-definition",
        r"FIRE's normalized distance: $\psi(i - j) / \psi(\max(L, i))$ with $\psi(x) = \log(c x + 1)$",
        TOPIC,
        FIRE,
        lhs,
        _psi_of(r) / _psi_of(sp.Max(L, j + r)),
        r"the paper's bias is $f_\theta$ of this (a learned MLP); $\psi$ and the threshold $L$ are as in its §3",
        "numeric.bias_kernels.fire_normalized_distance_mp",
        assumptions=FIRE_ASSUME,
        wrong=_psi_of(r) / _psi_of(L),
        formula=sp.Eq(sp.Function("F")(qi, j), _psi(qi - j) / _psi(sp.Max(L, qi)), evaluate=False),
        notes=r"Dividing by $\psi(L)$ at every query gives other values once the query is beyond the threshold.",
    )


def fire_bounded_within() -> Theorem:
    top = j + r + u  # L = i + u: the query at or below the threshold
    return Theorem(
        "kernels-fire-bounded-within",
        r"Within the threshold ($i \le L$), FIRE's normalized distance lies in $[0, 1]$: "
        r"$0 \le \psi(i - j) \le \psi(L) = \psi(\max(L, i))$",
        TOPIC,
        FIRE,
        steps=(
            Step(sp.Integer(0), _psi_of(r), r"$c r + 1 \ge 1$", ("identity",), "<="),
            Step(
                _psi_of(r), _psi_of(top), r"$\psi$ is increasing and $r \le j + r + u$", ("exp_sides", "expand"), "<="
            ),
        ),
        rel="<=",
        assumptions=(*FIRE_ASSUME, r"$L = i + u$ with $u \ge 0$"),
        wrong=_psi_of(r) / 2,
        formula=sp.Le(_psi(qi - j), _psi(sp.Max(L, qi)), evaluate=False),
        notes=(
            r"The denominator $\psi(\max(L, i)) = \log(c L + 1)$ is positive, so the quotient of a number in "
            r"$[0, \psi(\max(L, i))]$ by it lies in $[0, 1]$."
        ),
    )


def fire_bounded_beyond() -> Theorem:
    return Theorem(
        "kernels-fire-bounded-beyond",
        r"Beyond the threshold ($i \ge L$), FIRE's normalized distance lies in $[0, 1]$: "
        r"$0 \le \psi(i - j) \le \psi(i) = \psi(\max(L, i))$",
        TOPIC,
        FIRE,
        steps=(
            Step(sp.Integer(0), _psi_of(r), r"$c r + 1 \ge 1$", ("identity",), "<="),
            Step(
                _psi_of(r),
                _psi_of(j + r),
                r"$\psi$ is increasing and $r \le j + r$ ($j \ge 0$)",
                ("exp_sides", "expand"),
                "<=",
            ),
        ),  # fmt: skip
        rel="<=",
        assumptions=(*FIRE_ASSUME, r"$L \le i$"),
        wrong=_psi_of(r) / 2,
        formula=sp.Le(_psi(qi - j), _psi(qi), evaluate=False),
        notes=(
            r"With [[claim:kernels-fire-bounded-within]] this covers every query: $\psi(\max(L, i)) > 0$, so the "
            r"normalized distance lies in $[0, 1]$ for all $0 \le j \le i$."
        ),
    )


def fire_relative_within() -> Theorem:
    top = j + r + t_shift + u  # L: both queries, i and i + t, at or below it
    shifted = FireDistance(j + r + t_shift, j + t_shift, c, top)
    here = FireDistance(j + r, j, c, top)
    middle = _psi_of(r) / _psi_of(top)
    return Theorem(
        "kernels-fire-relative-within",
        r"Within the threshold FIRE's normalized distance is relative: $F(i + t, j + t) = F(i, j)$ when "
        r"$i + t \le L$",
        TOPIC,
        FIRE,
        steps=(
            Step(shifted, middle, r"unfold; $\max(L, i + t) = L$", ("unfold",)),
            Step(middle, here, r"fold back; $\max(L, i) = L$", ("unfold",)),
        ),
        assumptions=(*FIRE_ASSUME, r"a shift $t \ge 1$ ($t = 0$ is the identity)", r"$L = i + t + u$ with $u \ge 0$"),
        wrong=FireDistance(j + r + t_shift, j, c, top),
        formula=sp.Eq(sp.Function("F")(qi + t_shift, j + t_shift), sp.Function("F")(qi, j), evaluate=False),
        notes=r"Both sides are $\psi(i - j) / \psi(L)$: a function of $i - j$ alone (for a fixed $L$).",
    )


_FIRE_CASE = {"c": 1, "threshold": 4}
_FIRE_PAIRS = ((4, 0), (8, 4), (12, 8))


def _fire_beyond(dps: int, kernel=bias_kernels.fire_normalized_distance_mp):
    with mpmath.workdps(dps):
        vals = [kernel(i, j_, dps=dps, **_FIRE_CASE) for i, j_ in _FIRE_PAIRS]
        value = {
            "equal at distance 4": bool(vals[0] == vals[1] == vals[2]),
            "decreasing as the pair moves beyond $L$": bool(vals[0] > vals[1] > vals[2]),
        }
        rows = [(f"$F({i}, {j_})$", mpmath.nstr(v, 12)) for (i, j_), v in zip(_FIRE_PAIRS, vals, strict=True)]
    return value, [*value.items(), *rows]


def _fire_psi_of_threshold(i, j_, *, c, threshold, dps):
    r"""The mistake: ``psi(L)`` as the denominator at every query (relative everywhere)."""
    with mpmath.workdps(dps):
        return mpmath.log(c * mpmath.mpf(i - j_) + 1) / mpmath.log(c * mpmath.mpf(threshold) + 1)


def fire_not_relative_beyond() -> Fact:
    return Fact(
        "kernels-fire-not-relative-beyond",
        "Beyond the threshold FIRE's normalized distance is not relative (a computed counterexample)",
        TOPIC,
        FIRE,
        r"With $c = 1$, $L = 4$: $F(4, 0) = 1$, while $F(8, 4) = \log 5 / \log 9$ and $F(12, 8) = \log 5 / \log 13$: "
        r"the same distance $i - j = 4$ gives three values, decreasing as the query moves beyond $L$.",
        {"equal at distance 4": False, "decreasing as the pair moves beyond $L$": True},
        _fire_beyond,
        method="mpmath at the check's digits (numeric.bias_kernels.fire_normalized_distance_mp)",
        wrong=lambda dps: _fire_beyond(dps, kernel=_fire_psi_of_threshold),
        formula=sp.Ne(sp.Function("F")(8, 4), sp.Function("F")(4, 0)),
        notes=(
            r"Dividing by $\psi(\max(L, i))$ normalizes the distance by the query's position: this is what lets "
            r"FIRE interpolate to longer inputs, and why it is relative only up to $L$."
        ),
    )


# ---- Sandwich ---------------------------------------------------------------------------------------------------

SANDWICH_SIZES = {d: (2, 4, 6)}  # the widths the numeric line makes concrete (sinusoidal also tries 16)
SANDWICH_ASSUME = (*ASSUME, r"$\lambda > 0$ a scale")


def _sandwich(id_, title, steps, **kw):
    return Theorem(id_, title, TOPIC, SANDWICH, tuple(steps), assumptions=SANDWICH_ASSUME, sizes=SANDWICH_SIZES, **kw)


def _pe_dot(a, b):
    return sp.Function(r"\varphi")(a, b)


def sandwich_relative() -> Theorem:
    m, n, tt = m_real, n_real, t_real
    return _sandwich(
        "kernels-sandwich-relative",
        r"Sandwich's bias $\varphi(m, n) = \lambda\, \mathrm{PE}(m) \cdot \mathrm{PE}(n)$ is relative: unchanged by "
        "a shift of both positions",
        [
            Step(
                lam * dot(m + tt, n + tt),
                lam * phi(m - n),
                r"the dot-product identity ([[claim:sinusoidal-dot-product]]); $(m + t) - (n + t) = m - n$",
                EULER,
            ),
            Step(lam * phi(m - n), lam * dot(m, n), "the dot-product identity, read backwards", DOT),
        ],  # fmt: skip
        wrong=lam * dot(m + 2 * tt, n + tt),
        formula=sp.Eq(_pe_dot(m + tt, n + tt), _pe_dot(m, n), evaluate=False),
        notes=r"The same as [[claim:sinusoidal-translation-invariance]], times $\lambda$.",
    )


def sandwich_symmetric() -> Theorem:
    m, n = m_real, n_real
    return _sandwich(
        "kernels-sandwich-symmetric",
        r"Sandwich's bias is symmetric: $\varphi(m, n) = \varphi(n, m)$",
        [
            Step(lam * dot(m, n), lam * phi(m - n), "the dot-product identity ([[claim:sinusoidal-dot-product]])", DOT),
            Step(lam * phi(m - n), lam * phi(n - m), r"$\cos$ is even", ("combine_sums", "expand")),
            Step(lam * phi(n - m), lam * dot(n, m), "the dot-product identity, read backwards", DOT),
        ],
        wrong=lam * pairs(sp.sin((n - m) * theta_i)),
        formula=sp.Eq(_pe_dot(m, n), _pe_dot(n, m), evaluate=False),
        notes=r"The same as [[claim:sinusoidal-symmetry]], times $\lambda$.",
    )


def sandwich_zero_distance() -> Theorem:
    m = m_real
    return _sandwich(
        "kernels-sandwich-zero-distance",
        r"Sandwich's bias at distance 0 is $\lambda d/2$, its largest value",
        [
            Step(
                lam * dot(m, m),
                lam * pairs(sp.Integer(1)),
                r"$\sin^2 + \cos^2 = 1$ in every pair",
                ("combine_sums", "trigsimp"),
            ),
            Step(lam * pairs(sp.Integer(1)), lam * d / 2, "$d/2$ pairs", ("doit",)),
        ],  # fmt: skip
        wrong=lam * d,
        formula=sp.Eq(_pe_dot(m, m), lam * d / 2, evaluate=False),
        notes=r"Every term $\cos((m - n)\theta_i)$ is at most 1, so no distance gives more than $\lambda d/2$.",
    )


# ---- KERPLE -----------------------------------------------------------------------------------------------------

KERPLE_ASSUME = (r"$r_1 > 0$, $r_2 > 0$ ($r_2 \le 2$ for the power variant)", "positions integers")
KERPLE_DOMAINS = {"r_2": R2}


def _both(a, b):
    return sp.Matrix([KerpleLog(a, b, r1, r2), KerplePower(a, b, r1, r2)])


def kerple_log_definition() -> Definition:
    return Definition(
        "kernels-kerple-log-definition",
        r"KERPLE's logarithmic bias: $b_{\log}(m, n) = -r_1 \log(1 + r_2 |m - n|)$",
        TOPIC,
        KERPLE,
        KerpleLog(km, kn, r1, r2),
        -r1 * sp.log(1 + r2 * sp.Abs(km - kn)),
        "the paper's logarithmic variant",
        "numeric.bias_kernels.kerple_log_bias_mp",
        assumptions=KERPLE_ASSUME,
        wrong=-r1 * sp.log(1 + sp.Abs(km - kn)),
    )


def kerple_power_definition() -> Definition:
    return Definition(
        "kernels-kerple-power-definition",
        r"KERPLE's power bias: $b_{\mathrm{pow}}(m, n) = -r_1 |m - n|^{r_2}$",
        TOPIC,
        KERPLE,
        KerplePower(km, kn, r1, r2),
        -r1 * sp.Abs(km - kn) ** r2,
        "the paper's power variant",
        "numeric.bias_kernels.kerple_power_bias_mp",
        assumptions=KERPLE_ASSUME,
        domains=KERPLE_DOMAINS,
        wrong=-r2 * sp.Abs(km - kn) ** r1,
    )


def kerple_relative() -> Theorem:
    return Theorem(
        "kernels-kerple-relative",
        "KERPLE's biases (both variants) are relative: unchanged by a shift of both positions",
        TOPIC,
        KERPLE,
        steps=(Step(_both(km + kt, kn + kt), _both(km, kn), "unfold; $(m + t) - (n + t) = m - n$", ("unfold",)),),
        assumptions=KERPLE_ASSUME,
        domains=KERPLE_DOMAINS,
        wrong=_both(km + kt, kn),
        formula=sp.Eq(_b(km + kt, kn + kt), _b(km, kn), evaluate=False),
    )


def kerple_symmetric() -> Theorem:
    return Theorem(
        "kernels-kerple-symmetric",
        r"KERPLE's biases (both variants) are symmetric: $b(m, n) = b(n, m)$",
        TOPIC,
        KERPLE,
        steps=(Step(_both(km, kn), _both(kn, km), "unfold; $|m - n| = |n - m|$", ("unfold",)),),
        assumptions=KERPLE_ASSUME,
        domains=KERPLE_DOMAINS,
        wrong=sp.Matrix([-r1 * r2 * (km - kn), -r1 * (km - kn)]),  # the absolute value dropped
        formula=sp.Eq(_b(km, kn), _b(kn, km), evaluate=False),
        notes="Without the absolute value (a signed distance) neither variant would be symmetric.",
    )


def kerple_log_decreasing() -> Theorem:
    f = -r1 * sp.log(1 + r2 * x)
    slope = -r1 * r2 / (1 + r2 * x)
    return Theorem(
        "kernels-kerple-log-decreasing",
        r"KERPLE's logarithmic bias strictly decreases with the distance $x = |m - n|$: "
        r"$\frac{d}{dx}(-r_1 \log(1 + r_2 x)) < 0$",
        TOPIC,
        KERPLE,
        steps=(
            Step(sp.Derivative(f, x), slope, "differentiate", ("doit",)),
            Step(slope, sp.Integer(0), "$r_1, r_2 > 0$ and $x > 0$", ("identity",), "<"),
        ),
        rel="<",
        assumptions=(r"$r_1 > 0$, $r_2 > 0$", r"$x = |m - n| > 0$"),
        wrong=f,  # the slope is not below the bias itself
        notes="A negative derivative on $x > 0$ (and continuity at 0) makes the bias strictly decreasing in $x$.",
    )


def kerple_power_decreasing() -> Theorem:
    f = -r1 * x**r2
    slope = -r1 * r2 * x ** (r2 - 1)
    return Theorem(
        "kernels-kerple-power-decreasing",
        r"KERPLE's power bias strictly decreases with the distance $x = |m - n|$: "
        r"$\frac{d}{dx}(-r_1 x^{r_2}) < 0$",
        TOPIC,
        KERPLE,
        steps=(
            Step(sp.Derivative(f, x), slope, "differentiate", ("doit", "powsimp")),
            Step(slope, sp.Integer(0), "$r_1, r_2 > 0$ and $x > 0$", ("identity",), "<"),
        ),
        rel="<",
        assumptions=(r"$r_1 > 0$, $r_2 > 0$ (any, not only $r_2 \le 2$)", r"$x = |m - n| > 0$"),
        wrong=f,  # the slope is not below the bias itself
        notes="A negative derivative on $x > 0$ (and continuity at 0) makes the bias strictly decreasing in $x$.",
    )


# The grid of the conditional positive definiteness fact: r_1 = 1 (a factor r_1 > 0 scales every eigenvalue).
_CPD_LOG_R2 = ("1/4", "1", "4")
_CPD_POW_R2 = ("1/4", "1/2", "1", "3/2", "2")
_CPD_POINTS = {k: tuple(range(k)) for k in range(2, 7)} | {"spread": (0, 1, 3, 7, 20, 100)}


def _restricted_min_eig(bias, pts, dps):
    r"""The smallest eigenvalue of ``B`` restricted to vectors summing to 0: the Gram matrix ``V^T B V`` with the
    basis ``e_k - e_last`` of that subspace (its inertia is the restriction's: Sylvester's law)."""
    nn = len(pts)
    B = mpmath.matrix(nn, nn)
    for a, b in itertools.product(range(nn), repeat=2):
        B[a, b] = bias(pts[a], pts[b])
    G = mpmath.matrix(nn - 1, nn - 1)
    last = nn - 1
    for a, b in itertools.product(range(nn - 1), repeat=2):
        G[a, b] = B[a, b] - B[a, last] - B[last, b] + B[last, last]
    return min(mpmath.eigsy(G, eigvals_only=True))


def _cpd(dps: int, sign: int = 1):
    with mpmath.workdps(dps):
        floor = -(mpmath.mpf(10) ** (-(dps - 10)))
        rows, value = [], {}
        for variant, grid, fn in (
            ("log", _CPD_LOG_R2, bias_kernels.kerple_log_bias_mp),
            ("power", _CPD_POW_R2, bias_kernels.kerple_power_bias_mp),
        ):
            eigenvalues = []
            for r2_s, pts in itertools.product(grid, _CPD_POINTS.values()):
                r2_v = mpmath.mpf(sp.Rational(r2_s).p) / sp.Rational(r2_s).q

                def bias(a, b, r2_v=r2_v, fn=fn):
                    return sign * fn(a, b, r1=1, r2=r2_v, dps=dps)

                eigenvalues.append(_restricted_min_eig(bias, pts, dps))
            worst = min(eigenvalues)
            value[f"{variant}: every restricted matrix positive semidefinite"] = bool(worst >= floor)
            shown = "0 (within the floor)" if abs(worst) < -floor else mpmath.nstr(worst, 3)
            rows.append((f"{variant}: smallest restricted eigenvalue", shown))
    return value, [*value.items(), *rows]


def kerple_cpd() -> Fact:
    return Fact(
        "kernels-kerple-cpd-computed",
        "KERPLE's biases are conditionally positive definite on a grid (computed, not proved in general)",
        TOPIC,
        KERPLE,
        r"For $n = 2, \dots, 6$ points $0, \dots, n - 1$ and the six points $0, 1, 3, 7, 20, 100$, $r_1 = 1$ and "
        r"$r_2 \in \{1/4, 1, 4\}$ (logarithmic) or $r_2 \in \{1/4, 1/2, 1, 3/2, 2\}$ (power): the matrix "
        r"$B_{ab} = b(x_a, x_b)$ satisfies $v^\top B v \ge 0$ for every $v$ with $\sum_a v_a = 0$. Checked by the "
        r"eigenvalues of $B$ restricted to that subspace (the smallest at least $-10^{10 - D}$ at $D$ significant "
        "digits).",
        {
            "log: every restricted matrix positive semidefinite": True,
            "power: every restricted matrix positive semidefinite": True,
        },
        _cpd,
        method="mpmath eigsy at the check's digits (numeric.bias_kernels' mpmath twins)",
        wrong=lambda dps: _cpd(dps, sign=-1),
        notes=(
            "A factor $r_1 > 0$ multiplies every eigenvalue, so $r_1 = 1$ decides every $r_1$ on this grid. The "
            "general statement is classical (Schoenberg 1938: $-|x - y|^p$ is conditionally positive definite for "
            "$0 < p \\le 2$), and posproof does not prove it. The sign matters: $-b$ is "
            "conditionally negative definite, not positive (two points already give $v^\\top (-B) v < 0$)."
        ),
    )


# ---- length generalisation: what an L-word text shows that training on L0 words did not ------------------------

TRAINED, TARGET = 1000, 2000  # the article's lengths (symbolic.tables.TRAINED, TARGET)


def _fire_row_max(i: np.ndarray, *, threshold: float) -> np.ndarray:
    return bias_kernels.fire_normalized_distance(i, 0, c=1.0, threshold=threshold)


def _fire_row_max_psi_threshold(i: np.ndarray, *, threshold: float) -> np.ndarray:
    r"""The mistake: ``psi(L)`` as the denominator at every query."""
    return np.log1p(i.astype(np.float64)) / np.log1p(threshold)


def kernels_lengths(L0: int, L: int, row_max=_fire_row_max) -> dict:
    r"""FIRE (``c = 1``, threshold ``L0``) and KERPLE's logarithmic bias (``r_1 = r_2 = 1``) on an ``L``-word text
    after training on ``L0`` words. FIRE's normalized distance grows with the distance, so a row's largest value is
    at key 0 (and its smallest, 0, at the query): the count of queries whose row leaves ``[0, 1]`` is exact."""
    if not (isinstance(L0, int) and isinstance(L, int) and 2 <= L0 < L):
        raise ValueError(f"lengths must be integers with 2 <= L0 < L, got L0 = {L0!r}, L = {L!r}")
    top = row_max(np.arange(L), threshold=float(L0))
    return {
        "FIRE: queries with a normalized distance outside $[0, 1]$": int(np.count_nonzero(top > 1)),
        "FIRE: queries beyond the threshold": L - L0,
        "KERPLE (log): new bias values": L - L0,
        "KERPLE (log): trained biases reach": rf"$-\log {L0}$",
        "KERPLE (log): target biases reach": rf"$-\log {L}$",
    }


def _lengths(dps: int, row_max=_fire_row_max):
    value = kernels_lengths(TRAINED, TARGET, row_max=row_max)
    return value, list(value.items())


def lengths_fact() -> Fact:
    return Fact(
        "kernels-lengths",
        "Trained on 1000 positions, asked about 2000: FIRE's inputs stay in $[0, 1]$, KERPLE's biases are new",
        TOPIC,
        FIRE,
        r"FIRE with $c = 1$ and threshold $L = 1000$: for every query $i < 2000$ and key $j \le i$ the normalized "
        r"distance lies in $[0, 1]$, the range training saw; the 1000 queries beyond the threshold divide by "
        r"$\psi(i)$. KERPLE's logarithmic bias with $r_1 = r_2 = 1$ reached $-\log 1000$ in training and reaches "
        r"$-\log 2000$: 1000 bias values no training distance gave.",
        {
            "FIRE: queries with a normalized distance outside $[0, 1]$": 0,
            "FIRE: queries beyond the threshold": 1000,
            "KERPLE (log): new bias values": 1000,
            "KERPLE (log): trained biases reach": r"$-\log 1000$",
            "KERPLE (log): target biases reach": r"$-\log 2000$",
        },
        _lengths,
        method="NumPy float64 (numeric.bias_kernels.fire_normalized_distance; at queries beyond the threshold "
        "numerator and denominator are the same float64 number, so the quotient is exactly 1); exact strings",
        wrong=lambda dps: _lengths(dps, row_max=_fire_row_max_psi_threshold),
        notes=(
            r"Dividing by $\psi(L)$ at every query (no $\max$) would give the 999 queries $i = 1001, \dots, 1999$ "
            r"normalized distances above 1, outside what training saw. The source of the KERPLE part is "
            r"Chi et al. 2022."
        ),
    )


#: The function the length claim verifies at the article's lengths.
LENGTHS = {"kernels-lengths": kernels_lengths}


#: The statements of the computed facts (display only; a definition's or theorem's is its own sides).
_v, _B = sp.MatrixSymbol("v", sp.Symbol("N"), 1), sp.MatrixSymbol("B", sp.Symbol("N"), sp.Symbol("N"))
_F = sp.Function("F")
STATEMENTS = {
    "kernels-kerple-cpd-computed": sp.Ge(sp.MatMul(_v.T, _B, _v), 0, evaluate=False),
    "kernels-lengths": (sp.Le(0, _F(sp.Symbol("i"), sp.Symbol("j")), evaluate=False),
                        sp.Le(_F(sp.Symbol("i"), sp.Symbol("j")), 1, evaluate=False)),
}  # fmt: skip


def claims() -> list:
    made: list = [
        fire_definition(),
        fire_bounded_within(),
        fire_bounded_beyond(),
        fire_relative_within(),
        fire_not_relative_beyond(),
        sandwich_relative(),
        sandwich_symmetric(),
        sandwich_zero_distance(),
        kerple_log_definition(),
        kerple_power_definition(),
        kerple_relative(),
        kerple_symmetric(),
        kerple_log_decreasing(),
        kerple_power_decreasing(),
        kerple_cpd(),
        lengths_fact(),
    ]
    return [tables.stated(c, STATEMENTS.get(c.id)) for c in made]


# ---- the rules table: Sandwich's and KERPLE's rows (symbolic.tables) -------------------------------------------


def _kerple_new_biases(v, L0: int, L: int) -> str:
    return (
        f"{v['KERPLE (log): new bias values']} bias values below training ($r_1 = r_2 = 1$: down to "
        f"{v['KERPLE (log): target biases reach']}, trained {v['KERPLE (log): trained biases reach']})"
    )


RULES_ROWS = (
    tables.Row(
        45,
        "Sandwich",
        tables.phi(sp.Symbol("lambda", positive=True) * tables.pairs(sp.cos((tables.m - tables.n) * tables.theta_i))),
        (
            tables.Cell(
                "sinusoidal-monotone-range", read=tables.key("512"), note=r"$d = 512$, $b = 10^4$, any $\lambda > 0$"
            ),
            tables.Cell("kernels-sandwich-relative", "holds"),
            tables.Cell("kernels-sandwich-symmetric", "holds"),
        ),
        SINUSOIDAL_LENGTH,
    ),
    tables.Row(
        105,
        "KERPLE (log)",
        tables.phi(-r1 * sp.log(1 + r2 * sp.Abs(tables.m - tables.n))),
        (
            tables.Cell("kernels-kerple-log-decreasing", "holds", note="in $|m - n|$, every distance"),
            tables.Cell("kernels-kerple-relative", "holds"),
            tables.Cell("kernels-kerple-symmetric", "holds"),
        ),
        tables.Length("kernels-lengths", _kerple_new_biases),
    ),
)
