r"""Context extension of RoPE: what each scaling rule does to the frequencies, proved, and the code in
:mod:`numeric.scaling` checked against the formulas at 50 digits.

Notation: ``d`` the rotary width, pairs ``i = 0 .. d/2 - 1``, ``theta_i = b^(-2i/d)``, ``s`` the factor, ``L_0``
the trained length, ``n`` the current length. Every rule changes ``theta_i`` into ``theta'_i = f_i theta_i`` (and
may scale cos and sin by an attention factor ``A``); the relative-position algebra of RoPE is untouched
(``extension-scaled-rope-relative``). The last claims re-derive Theorem 2.1 of Chen et al. 2023 (the
interpolation bound) step by step: one step of its proof is false, and so is the theorem at LLaMA's setting.

>>> [c.id for c in claims()][:2]
['extension-scaled-rope-relative', 'extension-pi-angle-in-range']
"""

from __future__ import annotations

import mpmath
import sympy as sp
from sympy.core.parameters import evaluate

from posproof.numeric import formatting, tolerances
from posproof.numeric.scaling import rope_inv_freq, rope_inv_freq_mp
from posproof.numeric.sinusoid import inverse_frequencies_mp

from . import sources
from .core import Definition, Domain, Fact, Identity, Kernel, Step

TOPIC = "extension"
CHEN = sources.CHEN_PI
HF = sources.HF_ROPE

# ---- symbols, named like the math -----------------------------------------------------------------------------
d = sp.Symbol("d", integer=True, positive=True, even=True)  # rotary width
i = sp.Symbol("i", integer=True, nonnegative=True)  # pair index
b = sp.Symbol("b", positive=True)  # base
s = sp.Symbol("s", positive=True)  # factor
L0 = sp.Symbol("L_0", integer=True, positive=True)  # trained length
theta_i = sp.Symbol("theta_i", positive=True)  # one pair's frequency
TH = sp.IndexedBase("theta", positive=True)  # per-pair frequencies theta_i
m, n = sp.symbols("m n", integer=True)  # query and key positions

#: A pair index of width d.
PAIR = Domain("integer", 0, d / 2 - 1)
#: Configuration values are float64 numbers in the code: integers are drawn so that they are exact there.
BASE_INT = Domain("integer", 2, 10**6, log=True)
FACTOR_INT = Domain("integer", 1, 64, log=True)
#: A real factor s > 1, for claims that need it strictly.
FACTOR_GT1 = Domain("real", 1.000001, 1e3, log=True)


# ---- named symbols for the short statements (formula=) ---------------------------------------------------------
_TP = sp.IndexedBase("thetaprime", positive=True)  # the scaled frequencies theta'_i
_Rp = {x: sp.MatrixSymbol(f"Rprime_{x}", d, d) for x in ("m", "n", "n-m")}
_qv, _kv = sp.MatrixSymbol("q", d, 1), sp.MatrixSymbol("k", d, 1)
_bp = sp.Function("bprime")  # the NTK-aware base of a length
_tp = sp.Function("thetaprime")  # a scaled frequency as a function of the ramp or of the wavelength
_G = sp.IndexedBase("gamma")  # YaRN's ramp gamma_i
_c = sp.Function("c")  # YaRN's correction dimension
_clip = sp.Function("clip")
_a, _alin, _R = sp.Function("a"), sp.Function("a_linear"), sp.Function("R")  # Theorem 2.1 of Chen et al.
_cc = sp.Symbol("c", positive=True)  # Chen et al.'s base


def _identity(id_: str, title: str, source: str, steps, **kw) -> Identity:
    return Identity(id_, title, TOPIC, source, tuple(steps), **kw)


# ==============================================================================================================
# Kernels: the frequencies as numeric.scaling computes them (mpmath twin, at the working precision).
# ==============================================================================================================


def _int(x) -> int:
    if not mpmath.isint(x):
        raise ValueError(f"expected an integer, got {x}")
    return int(x)


def _float(x) -> float:
    r"""A point's value as the float64 a configuration file holds (the domains draw values exact in float64)."""
    f = float(x)
    if mpmath.mpf(f) != x:
        raise ValueError(f"{x} is not exactly a float64 number")
    return f


class _RuleInvFreq(Kernel):
    r"""``theta'_i`` of one rule (args ``i, d, b, *rest``), from :func:`numeric.scaling.rope_inv_freq_mp`;
    subclasses name the rule and turn ``rest`` into the scaling mapping. No symbolic unfolding: it is what is
    defined."""

    rule = ""

    @classmethod
    def scaling_of(cls, *rest) -> tuple[dict, dict]:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    @classmethod
    def numeric(cls, pair, width, base, *rest):
        scaling, kw = cls.scaling_of(*rest)
        inv, _ = rope_inv_freq_mp(_int(width), _float(base), scaling, dps=mpmath.mp.dps, **kw)
        return inv[_int(pair)]

    def doit(self, **hints):
        return self

    def _latex(self, printer, exp=None):
        out = r"\theta^{\prime\,\mathrm{%s}}_{%s}" % (self.rule, printer._print(self.args[0]))
        return out if exp is None else r"\left(%s\right)^{%s}" % (out, exp)


class LinearInvFreq(_RuleInvFreq):
    r"""``theta'_i`` of ``{"rope_type": "linear", "factor": s}`` (args ``i, d, b, s``)."""

    nargs = 4
    rule = "linear"

    @classmethod
    def scaling_of(cls, factor):
        return {"rope_type": "linear", "factor": _float(factor)}, {}


class NtkInvFreq(_RuleInvFreq):
    r"""``theta'_i`` of ``{"rope_type": "ntk", "factor": s}`` (args ``i, d, b, s``)."""

    nargs = 4
    rule = "ntk"

    @classmethod
    def scaling_of(cls, factor):
        return {"rope_type": "ntk", "factor": _float(factor)}, {}


class DynamicInvFreq(_RuleInvFreq):
    r"""``theta'_i`` of ``{"rope_type": "dynamic", "factor": s}`` at ``seq_len = n`` with
    ``max_position_embeddings = L_0`` (args ``i, d, b, s, n, L_0``)."""

    nargs = 6
    rule = "dynamic"

    @classmethod
    def scaling_of(cls, factor, seq_len, trained):
        kw = {"seq_len": _int(seq_len), "max_position_embeddings": _int(trained)}
        return {"rope_type": "dynamic", "factor": _float(factor)}, kw

    def _latex(self, printer, exp=None):
        out = r"\theta^{\prime\,\mathrm{dynamic}}_{%s}\left(%s\right)" % tuple(
            printer._print(a) for a in (self.args[0], self.args[4])
        )
        return out if exp is None else r"\left(%s\right)^{%s}" % (out, exp)


class YarnInvFreq(_RuleInvFreq):
    r"""``theta'_i`` of ``{"rope_type": "yarn", "factor": s, "original_max_position_embeddings": L_0, "truncate":
    false}`` with the default ``beta_fast = 32``, ``beta_slow = 1`` (args ``i, d, b, s, L_0``)."""

    nargs = 5
    rule = "yarn"

    @classmethod
    def scaling_of(cls, factor, trained):
        scaling = {"rope_type": "yarn", "factor": _float(factor), "original_max_position_embeddings": _int(trained)}
        return scaling | {"truncate": False}, {}


class YarnTruncatedInvFreq(_RuleInvFreq):
    r"""``theta'_i`` of ``{"rope_type": "yarn", "factor": s, "original_max_position_embeddings": L_0}`` (truncate
    true, the default: the ramp's ends are whole pair indices) with the default betas (args ``i, d, b, s, L_0``)."""

    nargs = 5
    rule = "yarn"

    @classmethod
    def scaling_of(cls, factor, trained):
        return {"rope_type": "yarn", "factor": _float(factor), "original_max_position_embeddings": _int(trained)}, {}


class Llama3InvFreq(_RuleInvFreq):
    r"""``theta'_i`` of ``{"rope_type": "llama3", "factor": s, "original_max_position_embeddings": L_0,
    "low_freq_factor": f_low, "high_freq_factor": f_high}`` (args ``i, d, b, s, L_0, f_low, f_high``)."""

    nargs = 7
    rule = "llama3"

    @classmethod
    def scaling_of(cls, factor, trained, low, high):
        return {
            "rope_type": "llama3",
            "factor": _float(factor),
            "original_max_position_embeddings": _int(trained),
            "low_freq_factor": _float(low),
            "high_freq_factor": _float(high),
        }, {}


class YarnAttentionFactor(Kernel):
    r"""YaRN's attention factor for the factor ``s``, optionally with ``mscale`` and ``mscale_all_dim`` (args
    ``s`` or ``s, mu, mu_all``), from :func:`numeric.scaling.rope_inv_freq_mp`."""

    nargs = (1, 3)

    @classmethod
    def numeric(cls, factor, *mscales):
        scaling = {"rope_type": "yarn", "factor": _float(factor), "original_max_position_embeddings": 4096}
        if mscales:
            scaling |= {"mscale": _float(mscales[0]), "mscale_all_dim": _float(mscales[1])}
        return rope_inv_freq_mp(8, 10000.0, scaling, dps=mpmath.mp.dps)[1]

    def doit(self, **hints):
        return self

    def _latex(self, printer, exp=None):
        out = r"A^{\mathrm{yarn}}\left(%s\right)" % ", ".join(printer._print(a) for a in self.args)
        return out if exp is None else r"\left(%s\right)^{%s}" % (out, exp)


# ==============================================================================================================
# Every rule keeps RoPE's relative-position identity.
# ==============================================================================================================

q, k = sp.IndexedBase("q", real=True), sp.IndexedBase("k", real=True)
F = sp.IndexedBase("f", positive=True)  # per-pair factors of a rule: theta'_i = f_i theta_i
A = sp.Symbol("A", positive=True)  # attention factor multiplying cos and sin


def _rotated(u0, u1, angle):
    c, sn = sp.cos(angle), sp.sin(angle)
    return u0 * c - u1 * sn, u0 * sn + u1 * c


def scaled_relative() -> Identity:
    q0, q1, k0, k1 = q[2 * i], q[2 * i + 1], k[2 * i], k[2 * i + 1]
    freq = F[i] * TH[i]
    rq, rk = _rotated(A * q0, A * q1, m * freq), _rotated(A * k0, A * k1, n * freq)
    lhs = sp.Sum(rq[0] * rk[0] + rq[1] * rk[1], (i, 0, d / 2 - 1))

    def relative(angle):
        c, sn = sp.cos(angle), sp.sin(angle)
        return A**2 * (q0 * (k0 * c - k1 * sn) + q1 * (k0 * sn + k1 * c))

    rhs = sp.Sum(relative((n - m) * freq), (i, 0, d / 2 - 1))
    return _identity(
        "extension-scaled-rope-relative",
        "For every even $d$, per-pair factors $f_i > 0$ and attention factor $A > 0$: "
        r"$(A R'_m q)^T (A R'_n k) = A^2 q^T R'_{n-m} k$, where $R'$ rotates pair $i$ by $f_i \theta_i$",
        f"{sources.ROFORMER}, eq. 16; {CHEN}; {sources.NTK_AWARE}; {sources.YARN}; {sources.LLAMA3}; "
        f"{sources.LONGROPE}",
        [
            Step(
                lhs,
                rhs,
                r"per plane, $R(m f_i \theta_i)^T R(n f_i \theta_i) = R((n - m) f_i \theta_i)$, and $A$ scales both "
                "vectors",
                ("expand", "expand_trig", "expand"),
            )
        ],
        assumptions=(
            r"$d$ even, interleaved planes $(2i, 2i + 1)$, $i = 0, \dots, d/2 - 1$",
            r"$q, k$ real vectors; $m, n$ integer positions; $\theta_i > 0$ the trained frequencies",
            r"$f_i > 0$ arbitrary: linear $1/s$, NTK-aware $s^{-2i/(d-2)}$, dynamic likewise, YaRN "
            r"$\gamma_i/s + 1 - \gamma_i$, Llama 3 its bands, LongRoPE $1/\mathrm{ext}_i$",
            r"$A > 0$ the attention factor on $\cos$ and $\sin$ (YaRN, LongRoPE; 1 for the others)",
        ),
        formula=sp.Eq(
            sp.MatMul(sp.Transpose(sp.MatMul(A, _Rp["m"], _qv)), sp.MatMul(A, _Rp["n"], _kv)),
            sp.MatMul(A**2, sp.Transpose(_qv), _Rp["n-m"], _kv),
            evaluate=False,
        ),
        sizes={d: (2, 6)},
        notes="Scaling changes the frequencies, not the algebra: the score still depends on n - m only, through "
        "the scaled angles (n - m) f_i θ_i, and the attention factor scales every logit by A². With f_i = 1/s "
        "this is RoPE at the interpolated positions m/s, n/s.",
        wrong=sp.Sum(relative((n - m) * TH[i]), (i, 0, d / 2 - 1)),
    )


# ==============================================================================================================
# Position Interpolation (linear).
# ==============================================================================================================

eps = sp.Symbol("epsilon", positive=True)
pos = sp.Symbol("m", integer=True, nonnegative=True)  # a position of the extended window


def pi_angle_in_range() -> Identity:
    factor = (pos + eps) / L0  # s, from s L_0 = m + epsilon
    angle = sp.Mul(pos, theta_i, sp.Pow(factor, -1, evaluate=False), evaluate=False)  # m theta_i / s
    inside = L0 * pos * theta_i / (pos + eps)
    return _identity(
        "extension-pi-angle-in-range",
        r"Position Interpolation keeps every angle $m \theta_i/s$, $0 \le m < s L_0$, in the trained range "
        r"$[0, L_0 \theta_i)$",
        f"{CHEN}, §2.3, eq. 4",
        [
            Step(sp.Integer(0), angle, r"$m \ge 0$, $\theta_i > 0$ and $s > 0$", ("cancel",), rel="<="),
            Step(angle, inside, r"$s = (m + \epsilon)/L_0$", ("cancel",)),
            Step(inside, L0 * theta_i, r"the gap is $L_0 \theta_i \epsilon/(m + \epsilon) > 0$", ("cancel",), rel="<"),
        ],
        lhs=angle,
        rhs=L0 * theta_i,
        rel="<",
        strategy=("cancel",),
        assumptions=(
            r"$m \ge 0$ an integer position of the extended window, $\epsilon > 0$ with $s L_0 = m + \epsilon$: every "
            r"$m$ with $0 \le m < s L_0$, for every factor $s > 0$, has this form ($\epsilon = s L_0 - m$)",
            r"$L_0 \ge 1$ the trained length, $\theta_i > 0$ any frequency",
        ),
        formula=(
            sp.Le(0, pos * theta_i / s, evaluate=False),
            sp.Lt(pos * theta_i / s, L0 * theta_i, evaluate=False),
        ),
        notes="Training shows pair i the angles m θ_i, m < L_0, all in [0, L_0 θ_i). The interpolated angles "
        "reach (L_0 - 1/s) θ_i at m = s L_0 - 1: beyond the largest trained angle (L_0 - 1) θ_i for s > 1, but "
        "still below L_0 θ_i. That is the registered mistake: (L_0 - 1) θ_i is not an upper bound.",
        wrong=(L0 - 1) * theta_i,
    )


def linear_definition() -> Definition:
    return Definition(
        "extension-linear-inv-freq",
        r"Position Interpolation in the code: $\theta'_i = \theta_i/s$",
        TOPIC,
        f"{CHEN}; {HF}",
        LinearInvFreq(i, d, b, s),
        b ** (-2 * i / d) / s,
        r"positions $m \to m/s$ are frequencies $\theta_i \to \theta_i/s$",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'linear')",
        assumptions=(
            r"$d$ even, $i = 0, \dots, d/2 - 1$",
            r"$b > 1$ the base, $s \ge 1$ the factor (drawn as integers)",
        ),
        formula=sp.Eq(_TP[i], b ** (-2 * i / d) / s, evaluate=False),
        sizes={d: (2, 8, 128)},
        domains={"i": PAIR, "b": BASE_INT, "s": FACTOR_INT},
        wrong=s * b ** (-2 * i / d),
    )


# ==============================================================================================================
# NTK-aware (static) and dynamic NTK.
# ==============================================================================================================

#: The last pair ``h = d/2 - 1``: with ``d = 2h + 2`` the NTK exponent ``d/(d-2)`` is ``(h+1)/h`` and SymPy knows
#: it is real (``d - 2 = 2h > 0``).
h = sp.Symbol("h", integer=True, positive=True)
KAPPA = (h + 1) / h  # d/(d - 2)
THETA_LAST = b ** (-h / (h + 1))  # theta_{d/2-1} = b^(-2h/d)
#: h drawn over 1 .. 4096 (d = 4 .. 8194), with d = 4 and d = 128 among the edge values.
H_DOMAIN = {"h": Domain("integer", 1, 2**12, log=True, edges=(1, 63))}


def ntk_base() -> Identity:
    lhs = sp.Pow(THETA_LAST / s, -KAPPA, evaluate=False)
    return _identity(
        "extension-ntk-base",
        r"NTK-aware: the base $b'$ whose last pair turns exactly $s$ times slower, "
        r"$b'^{-(d-2)/d} = \theta_{d/2-1}/s$, is $b s^{d/(d-2)}$",
        sources.NTK_AWARE,
        [
            Step(
                lhs,
                b * s**KAPPA,
                r"solve $b'^{-h/(h+1)} = \theta_h/s$ for $b' > 0$: raise both sides to $-(h+1)/h$ ($b, s > 0$)",
                ("expand", "powdenest", "expand"),
            )
        ],
        assumptions=(
            r"$d = 2h + 2 \ge 4$ even, $h = d/2 - 1$ the last pair: $\theta_h = b^{-2h/d} = b^{-h/(h+1)}$, "
            "$d/(d-2) = (h+1)/h$",
            "$b > 0$ the base, $s > 0$ the factor",
        ),
        formula=sp.Eq(sp.Symbol("bprime"), b * s ** (d / (d - 2)), evaluate=False),
        domains=H_DOMAIN,
        notes="The first pair needs no condition: θ_0 = b^0 = 1 for every base (extension-ntk-conditions).",
        wrong=b * s ** ((2 * h + 2) / (2 * h + 1)),  # the exponent d/(d-1)
    )


def ntk_conditions() -> Identity:
    new = b * s**KAPPA
    lhs = sp.Matrix([sp.Pow(new, 0, evaluate=False), sp.Pow(new, -h / (h + 1), evaluate=False)])
    rhs = sp.Matrix([sp.Pow(b, 0, evaluate=False), THETA_LAST / s])
    return _identity(
        "extension-ntk-conditions",
        "NTK-aware base $b s^{d/(d-2)}$: the first frequency stays 1 and the last is divided by exactly $s$",
        sources.NTK_AWARE,
        [
            Step(
                lhs,
                rhs,
                r"$\theta'_0 = b'^0 = 1 = \theta_0$; $\theta'_h = b^{-h/(h+1)} s^{-1}$ as the exponents $(h+1)/h$ and "
                "$-h/(h+1)$ cancel",
                ("expand", "powdenest", "expand"),
            )
        ],
        assumptions=(r"$d = 2h + 2 \ge 4$ even, $h = d/2 - 1$", "$b > 0$, $s > 0$"),
        formula=(
            sp.Eq(_TP[0], 1, evaluate=False),
            sp.Eq(_TP[d / 2 - 1], TH[d / 2 - 1] / s, evaluate=False),
        ),
        domains=H_DOMAIN,
        notes="Between the two, θ'_i = θ_i·s^(-2i/(d-2)): the fast pairs are nearly untouched and the slow ones "
        "interpolated. The registered mistake divides the last frequency by s^(d/(d-2)), the factor of the base.",
        wrong=sp.Matrix([sp.Integer(1), THETA_LAST / s**KAPPA]),
    )


def ntk_definition() -> Definition:
    return Definition(
        "extension-ntk-inv-freq",
        r"NTK-aware in the code: $\theta'_i = (b s^{d/(d-2)})^{-2i/d}$",
        TOPIC,
        f"{sources.NTK_AWARE}; {HF}",
        NtkInvFreq(i, d, b, s),
        (b * s ** (d / (d - 2))) ** (-2 * i / d),
        "the frequencies of the base $b s^{d/(d-2)}$",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'ntk')",
        assumptions=(r"$d \ge 4$ even, $i = 0, \dots, d/2 - 1$", r"$b > 1$, $s \ge 1$ (drawn as integers)"),
        sizes={d: (4, 8, 128)},
        domains={"i": PAIR, "b": BASE_INT, "s": FACTOR_INT},
        wrong=(b * s ** (d / (d - 1))) ** (-2 * i / d),
        formula=sp.Eq(_TP[i], (b * s ** (d / (d - 2))) ** (-2 * i / d), evaluate=False),
    )


kk = sp.Symbol("k", integer=True, nonnegative=True)  # distance of the current length from L_0


def _dynamic_base(length):
    longest = sp.Max(length, L0, evaluate=False)
    return b * (s * longest / L0 - (s - 1)) ** (d / (d - 2))


def dynamic_ntk() -> Identity:
    lhs = sp.Matrix([_dynamic_base(L0 - kk), _dynamic_base(L0 + kk)])
    e1 = sp.Matrix([b, b * (s * (L0 + kk) / L0 - (s - 1)) ** (d / (d - 2))])
    rhs = sp.Matrix([b, b * (1 + s * kk / L0) ** (d / (d - 2))])
    return _identity(
        "extension-dynamic-ntk",
        r"Dynamic NTK: the plain base while $n \le L_0$; above, the NTK-aware base of the factor "
        "$s n/L_0 - (s - 1) = 1 + s(n - L_0)/L_0$",
        f"{sources.DYNAMIC_NTK}; {HF}",
        [
            Step(
                lhs,
                e1,
                r"$L = \max(n, L_0)$ is $L_0$ for $n = L_0 - k$ and $n$ for $n = L_0 + k$; $s - (s - 1) = 1$",
                ("doit",),
            ),
            Step(e1, rhs, "$s(L_0 + k)/L_0 - (s - 1) = 1 + s k/L_0$", ("expand",)),
        ],
        assumptions=(
            r"$n$ the current length, written $n = L_0 - k$ ($n \le L_0$) or $n = L_0 + k$ ($n \ge L_0$) with an "
            r"integer $k \ge 0$",
            r"$d \ge 4$ even, $b > 0$ the base, $s > 0$ the factor, $L_0 \ge 1$ the trained length",
        ),
        formula=sp.Eq(
            _bp(sp.Symbol("n")),
            b * (s * sp.Max(sp.Symbol("n"), L0, evaluate=False) / L0 - (s - 1)) ** (d / (d - 2)),
            evaluate=False,
        ),
        sizes={d: (4, 8, 128)},
        notes="The factor 1 + sk/L_0 is at least 1, the two branches meet at n = L_0 (k = 0: factor 1), and the "
        "factor reaches s at n = L_0(2s - 1)/s. "
        "The registered mistake uses n instead of max(n, L_0): below L_0 the base would shrink.",
        wrong=sp.Matrix([b * (s * (L0 - kk) / L0 - (s - 1)) ** (d / (d - 2)), b * (1 + s * kk / L0) ** (d / (d - 2))]),
    )


def dynamic_definition() -> Definition:
    seq_len = sp.Symbol("n", integer=True, positive=True)
    return Definition(
        "extension-dynamic-ntk-inv-freq",
        r"Dynamic NTK in the code: the frequencies of $b (s \max(n, L_0)/L_0 - (s - 1))^{d/(d-2)}$",
        TOPIC,
        f"{sources.DYNAMIC_NTK}; {HF}",
        DynamicInvFreq(i, d, b, s, seq_len, L0),
        (b * (s * sp.Max(seq_len, L0) / L0 - (s - 1)) ** (d / (d - 2))) ** (-2 * i / d),
        r"dynamic NTK recomputes the NTK-aware base for the current length $L = \max(n, L_0)$",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'dynamic', seq_len = n, max_position_embeddings = L_0)",
        assumptions=(
            r"$d \ge 4$ even, $i = 0, \dots, d/2 - 1$",
            r"$b > 1$, $s \ge 1$, $n \ge 1$, $L_0 \ge 2$ (drawn as integers)",
        ),
        formula=sp.Eq(_tp(seq_len), _bp(seq_len) ** (-2 * i / d), evaluate=False),
        sizes={d: (4, 8, 128)},
        domains={
            "i": PAIR,
            "b": BASE_INT,
            "s": FACTOR_INT,
            "n": Domain("integer", 1, 2**17, log=True),
            "L_0": Domain("integer", 2, 2**16, log=True),
        },
        wrong=(b * (s * seq_len / L0 - (s - 1)) ** (d / (d - 2))) ** (-2 * i / d),
    )


# ==============================================================================================================
# YaRN.
# ==============================================================================================================

r = sp.Symbol("r", positive=True)  # rotations over L_0 positions


def correction_dimension(rotations, length=L0, width=d, base=b):
    r"""YaRN's ``c(r) = d ln(L_0/(2 pi r)) / (2 ln b)``: the (real) pair index completing ``r`` rotations."""
    return width * sp.log(length / (2 * sp.pi * rotations)) / (2 * sp.log(base))


def yarn_correction_dimension() -> Identity:
    c = correction_dimension(r)
    with evaluate(False):
        lhs = L0 * b ** (-2 * c / d)
    return _identity(
        "extension-yarn-correction-dimension",
        r"YaRN's correction dimension: pair $c(r) = d \ln(L_0/(2\pi r))/(2 \ln b)$ turns through exactly $r$ "
        "rotations over the $L_0$ trained positions",
        f"{sources.YARN}, §3.2; {HF}",
        [
            Step(
                lhs,
                2 * sp.pi * r,
                r"$L_0 \theta_i = 2\pi r$ solved for $i$: $L_0 b^{-2i/d} = 2\pi r$ iff "
                r"$i = d \ln(L_0/(2\pi r))/(2 \ln b)$; $b^{-\ln x/\ln b} = 1/x$",
                ("expand_log", "powsimp"),
            )
        ],
        assumptions=(
            r"$b > 1$ the base, $L_0 \ge 1$, $r > 0$ rotations; $\theta_i = b^{-2i/d}$ at the real index $i = c(r)$",
        ),
        formula=(
            sp.Eq(_c(r), c, evaluate=False),
            sp.Eq(L0 * sp.Pow(b, -2 * _c(r) / d, evaluate=False), 2 * sp.pi * r, evaluate=False),
        ),
        given=(sp.Q.gt(b, 1),),
        domains={"b": Domain("real", 1.001, 1e6, log=True)},
        notes="YaRN's ramp runs from low = c(β_fast) (β_fast = 32 rotations: kept) to high = c(β_slow) "
        "(β_slow = 1: interpolated); c decreases in r, so low < high. transformers floors low, ceils high and "
        "clamps both to [0, d - 1], with the trained L_0 in c(r). The registered mistake counts radians as "
        "rotations (L_0 θ = r).",
        wrong=r,
    )


low, kr = sp.symbols("low k", nonnegative=True)


def ramp(index, lo, hi):
    r"""``clip((index - lo)/(hi - lo), 0, 1)`` written as the Piecewise it is for ``lo < hi`` (unevaluated)."""
    return sp.Piecewise(
        (0, sp.Le(index, lo, evaluate=False)),
        (1, sp.Ge(index, hi, evaluate=False)),
        ((index - lo) / (hi - lo), True),
        evaluate=False,
    )


def yarn_blend(gamma, freq):
    return gamma * freq / s + (1 - gamma) * freq


def yarn_blend_ends() -> Identity:
    wp = sp.Symbol("w", positive=True)
    high = low + wp
    below, above = low - kr, high + kr
    lhs = sp.Matrix([yarn_blend(ramp(below, low, high), TH[below]), yarn_blend(ramp(above, low, high), TH[above])])
    return _identity(
        "extension-yarn-blend-ends",
        r"YaRN's blend $\gamma\theta_i/s + (1 - \gamma)\theta_i$ keeps $\theta_i$ at and below low and gives "
        r"$\theta_i/s$ at and above high",
        f"{sources.YARN}, §3.2; {HF}",
        [
            Step(
                lhs,
                sp.Matrix([TH[below], TH[above] / s]),
                r"$i \le \mathrm{low}$ gives $\gamma = 0$ and $i \ge \mathrm{high}$ gives $\gamma = 1$ (the ramp "
                r"$\operatorname{clip}((i - \mathrm{low})/(\mathrm{high} - \mathrm{low}), 0, 1)$)",
                ("doit",),
            )
        ],
        assumptions=(
            r"$\mathrm{low} \ge 0$ and $\mathrm{high} = \mathrm{low} + w$, $w > 0$, the ends of the ramp (integers "
            "when truncate is true)",
            r"a pair at or below low is $i = \mathrm{low} - k$, one at or above high is $i = \mathrm{high} + k$, "
            r"$k \ge 0$",
            r"$\theta_i > 0$ the trained frequencies, $s > 0$ the factor",
        ),
        formula=(
            sp.Implies(sp.Le(i, low), sp.Eq(_TP[i], TH[i], evaluate=False), evaluate=False),
            sp.Implies(sp.Ge(i, high), sp.Eq(_TP[i], TH[i] / s, evaluate=False), evaluate=False),
        ),
        notes="transformers writes the ramp the other way round (its extrapolation factor is 1 - γ); the "
        "registered mistake swaps the two ends.",
        wrong=sp.Matrix([TH[below] / s, TH[above]]),
    )


gamma = sp.Symbol("gamma", real=True)
delta = sp.Symbol("delta", positive=True)


def yarn_monotone() -> Identity:
    before = yarn_blend(gamma, theta_i)
    after = yarn_blend(gamma + delta, theta_i)
    e1 = before + delta * (theta_i / s - theta_i)
    return _identity(
        "extension-yarn-blend-monotone",
        r"Between low and high YaRN's frequency falls strictly as the ramp $\gamma$ rises, for $s > 1$",
        f"{sources.YARN}, §3.2",
        [
            Step(
                after,
                e1,
                r"$\theta' = \gamma\theta_i/s + (1 - \gamma)\theta_i$ is linear in $\gamma$, of slope "
                r"$\theta_i/s - \theta_i$",
                ("expand",),
            ),
            Step(
                e1,
                before,
                r"the gap is $\delta\theta_i(1 - 1/s) = \delta\theta_i(s - 1)/s > 0$ for $s > 1$",
                ("together", "factor_terms"),
                rel="<",
            ),
        ],
        rel="<",
        given=(sp.Q.gt(s, 1),),
        assumptions=(
            r"$\theta_i > 0$, $s > 1$; $\gamma$ and $\gamma + \delta$, $\delta > 0$, two values of the ramp (it is "
            "nondecreasing in $i$)",
        ),
        formula=sp.Lt(_tp(gamma + delta), _tp(gamma), evaluate=False),
        domains={"s": FACTOR_GT1},
        notes="So θ'_i moves monotonically from θ_i (γ = 0) to θ_i/s (γ = 1); as γ_i rises with i, θ'_i/θ_i falls "
        "with i. The registered mistake multiplies by s instead of dividing: a drop of δθ_i(s - 1).",
        wrong=before - delta * theta_i * (s - 1),
    )


def yarn_definition() -> Definition:
    def theta_prime(length):
        lo = sp.Max(correction_dimension(32, length), 0)
        hi = sp.Min(correction_dimension(1, length), d - 1)
        g = sp.Min(sp.Max((i - lo) / (hi - lo), 0), 1)
        return yarn_blend(g, b ** (-2 * i / d))

    return Definition(
        "extension-yarn-inv-freq",
        r"YaRN in the code (truncate false): $\theta'_i = \gamma_i \theta_i/s + (1 - \gamma_i) \theta_i$ with the "
        "ramp from $c(32)$ to $c(1)$",
        TOPIC,
        f"{sources.YARN}; {HF}",
        YarnInvFreq(i, d, b, s, L0),
        theta_prime(L0),
        r"$\gamma_i = \operatorname{clip}((i - \mathrm{low})/(\mathrm{high} - \mathrm{low}), 0, 1)$, "
        r"$\mathrm{low} = \max(c(\beta_{\mathrm{fast}}), 0)$, $\mathrm{high} = \min(c(\beta_{\mathrm{slow}}), d - 1)$, "
        r"$c(r) = d \ln(L_0/(2\pi r))/(2 \ln b)$, $\beta_{\mathrm{fast}} = 32$, $\beta_{\mathrm{slow}} = 1$",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'yarn', default betas, truncate false)",
        assumptions=(
            r"$d$ even, $i = 0, \dots, d/2 - 1$; $b \in [10^3, 10^6]$, $L_0 \in [512, 65536]$, $s \in [1, 64]$ "
            "(integers): there low < high, so the 0.001 widening of low = high is not exercised",
            "truncate false (gpt-oss's setting): low and high are the real correction dimensions",
        ),
        formula=sp.Eq(_TP[i], _G[i] * TH[i] / s + (1 - _G[i]) * TH[i], evaluate=False),
        sizes={d: (16, 128)},
        domains={
            "i": PAIR,
            "b": Domain("integer", 10**3, 10**6, log=True),
            "s": FACTOR_INT,
            "L_0": Domain("integer", 512, 65536, log=True),
        },
        notes="With truncate true (the default) low and high are floor c(32) and ceil c(1): "
        "extension-yarn-truncated-inv-freq; the float64 kernel is compared in extension-float64-agrees. The "
        "registered mistake takes the correction range from the extended length s·L_0 instead of the trained L_0.",
        wrong=theta_prime(s * L0),
    )


def yarn_truncated_definition() -> Definition:
    def theta_prime(length):
        lo = sp.Max(sp.floor(correction_dimension(32, length)), 0)
        hi = sp.Min(sp.ceiling(correction_dimension(1, length)), d - 1)
        g = sp.Min(sp.Max((i - lo) / (hi - lo), 0), 1)
        return yarn_blend(g, b ** (-2 * i / d))

    return Definition(
        "extension-yarn-truncated-inv-freq",
        r"YaRN in the code with its default truncate true: the ramp runs from $\lfloor c(32) \rfloor$ to "
        r"$\lceil c(1) \rceil$",
        TOPIC,
        f"{sources.YARN}; {HF}",
        YarnTruncatedInvFreq(i, d, b, s, L0),
        theta_prime(L0),
        r"$\gamma_i = \operatorname{clip}((i - \mathrm{low})/(\mathrm{high} - \mathrm{low}), 0, 1)$, "
        r"$\mathrm{low} = \max(\lfloor c(\beta_{\mathrm{fast}}) \rfloor, 0)$, "
        r"$\mathrm{high} = \min(\lceil c(\beta_{\mathrm{slow}}) \rceil, d - 1)$, "
        r"$c(r) = d \ln(L_0/(2\pi r))/(2 \ln b)$, $\beta_{\mathrm{fast}} = 32$, $\beta_{\mathrm{slow}} = 1$",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'yarn', default betas, truncate true)",
        assumptions=(
            r"$d$ even, $i = 0, \dots, d/2 - 1$; $b \in [10^3, 10^6]$, $L_0 \in [512, 65536]$, $s \in [1, 64]$ "
            "(integers): there low < high, so the 0.001 widening of low = high is not exercised",
            r"$c(r)$ is never an integer for integer $b$ and $L_0$ ($2\pi$ is transcendental): floor and ceil are "
            "decided",
        ),
        formula=sp.Eq(
            _G[i],
            _clip((i - sp.floor(_c(32))) / (sp.ceiling(_c(1)) - sp.floor(_c(32))), 0, 1),
            evaluate=False,
        ),
        sizes={d: (16, 128)},
        domains={
            "i": PAIR,
            "b": Domain("integer", 10**3, 10**6, log=True),
            "s": FACTOR_INT,
            "L_0": Domain("integer", 512, 65536, log=True),
        },
        notes="The registered mistake ignores truncate (the ramp's ends left as the real correction dimensions).",
        wrong=yarn_blend(
            sp.Min(
                sp.Max(
                    (i - sp.Max(correction_dimension(32, L0), 0))
                    / (sp.Min(correction_dimension(1, L0), d - 1) - sp.Max(correction_dimension(32, L0), 0)),
                    0,
                ),
                1,
            ),
            b ** (-2 * i / d),
        ),
    )


mu, mu_all = sp.symbols("mu mu_all", positive=True)


def yarn_attention_definition() -> Definition:
    return Definition(
        "extension-yarn-attention-factor",
        r"YaRN's attention factor in the code: $0.1 \ln s + 1$",
        TOPIC,
        f"{sources.YARN}, §3.4; {HF}",
        YarnAttentionFactor(s),
        sp.log(s) / 10 + 1,
        r"$m(s, 1) = 0.1 \ln s + 1$ multiplies $\cos$ and $\sin$ when no `attention_factor` or `mscale` is given",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'yarn'), second value",
        assumptions=(r"$s \ge 1$ (drawn as integers; at $s = 1$ the factor is 1 either way)",),
        formula=sp.Eq(YarnAttentionFactor(s), sp.log(s) / 10 + 1, evaluate=False),
        domains={"s": FACTOR_INT},
        notes="It multiplies cos and sin, so the logits scale by its square (extension-scaled-rope-relative); the "
        "registered mistake is that square.",
        wrong=(sp.log(s) / 10 + 1) ** 2,
    )


def yarn_mscale_definition() -> Definition:
    return Definition(
        "extension-yarn-mscale-ratio",
        r"YaRN with `mscale` and `mscale_all_dim` in the code: "
        r"$(0.1 \mu \ln s + 1)/(0.1 \mu_{\mathrm{all}} \ln s + 1)$",
        TOPIC,
        f"{sources.YARN}, §3.4; {HF}",
        YarnAttentionFactor(s, mu, mu_all),
        (mu * sp.log(s) / 10 + 1) / (mu_all * sp.log(s) / 10 + 1),
        r"$m(s, \mathrm{mscale})/m(s, \mathrm{mscale\_all\_dim})$ with $m(s, a) = 0.1 a \ln s + 1$ when both are "
        "given and non-zero",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'yarn', mscale, mscale_all_dim), second value",
        assumptions=(
            r"$s \ge 1$, $\mu = \mathrm{mscale} > 0$, $\mu_{\mathrm{all}} = \mathrm{mscale\_all\_dim} > 0$ (drawn as "
            "integers)",
        ),
        formula=sp.Eq(
            YarnAttentionFactor(s, mu, mu_all),
            (mu * sp.log(s) / 10 + 1) / (mu_all * sp.log(s) / 10 + 1),
            evaluate=False,
        ),
        domains={"s": FACTOR_INT, "mu": Domain("integer", 1, 8), "mu_all": Domain("integer", 1, 8)},
        notes="With μ = μ_all (DeepSeek-V3 sets both to 1) the factor is 1. The registered mistake drops the "
        "denominator.",
        wrong=mu * sp.log(s) / 10 + 1,
    )


# ==============================================================================================================
# Llama 3.
# ==============================================================================================================

f_low, f_high = sp.symbols("f_low f_high", positive=True)
lam = sp.Symbol("lambda", positive=True)


def llama3_blend(wavelength, high=f_high):
    freq = 2 * sp.pi / wavelength
    sig = (L0 / wavelength - f_low) / (high - f_low)
    return (1 - sig) * freq / s + sig * freq


def llama3_continuous() -> Identity:
    gap = sp.Symbol("w", positive=True)
    high = f_low + gap
    with evaluate(False):
        lhs = sp.Matrix([llama3_blend(L0 / f_low, high), llama3_blend(L0 / high, high)])
    rhs = sp.Matrix([2 * sp.pi * f_low / (L0 * s), 2 * sp.pi * high / L0])
    return _identity(
        "extension-llama3-blend-continuous",
        r"Llama 3: the blend $(1 - \sigma)\theta/s + \sigma\theta$ meets $\theta/s$ at "
        r"$\lambda = L_0/f_{\mathrm{low}}$ "
        r"($\sigma = 0$) and $\theta$ at $\lambda = L_0/f_{\mathrm{high}}$ ($\sigma = 1$)",
        sources.LLAMA3,
        [
            Step(
                lhs,
                rhs,
                r"$\sigma = (L_0/\lambda - f_{\mathrm{low}})/(f_{\mathrm{high}} - f_{\mathrm{low}})$ is 0 at "
                r"$\lambda = L_0/f_{\mathrm{low}}$ and 1 at $\lambda = L_0/f_{\mathrm{high}}$; $\theta = 2\pi/\lambda$",
                ("cancel",),
            )
        ],
        assumptions=(
            r"$\theta = 2\pi/\lambda$ the frequency of wavelength $\lambda$; $L_0$ the trained length; $s > 0$",
            r"$0 < f_{\mathrm{low}} < f_{\mathrm{high}}$, written $f_{\mathrm{high}} = f_{\mathrm{low}} + w$ "
            "with $w > 0$",
            r"$\lambda > L_0/f_{\mathrm{low}}$ gives $\theta/s$ and $\lambda < L_0/f_{\mathrm{high}}$ gives $\theta$ "
            "(the two outer bands)",
        ),
        formula=(
            sp.Eq(_tp(L0 / f_low), 2 * sp.pi * f_low / (L0 * s), evaluate=False),
            sp.Eq(_tp(L0 / f_high), 2 * sp.pi * f_high / L0, evaluate=False),
        ),
        notes="So the three bands join without a jump, and a wavelength exactly on a boundary gets the same "
        "frequency from either side. The registered mistake runs the blend the other way (σ = 1 at L_0/f_low).",
        wrong=sp.Matrix([2 * sp.pi * f_low / L0, 2 * sp.pi * high / (L0 * s)]),
    )


def llama3_definition() -> Definition:
    theta = b ** (-2 * i / d)
    wavelength = 2 * sp.pi / theta
    sig = (L0 / wavelength - f_low) / (f_high - f_low)
    rule = sp.Piecewise(
        (theta, wavelength < L0 / f_high),
        (theta / s, wavelength > L0 / f_low),
        ((1 - sig) * theta / s + sig * theta, True),
    )
    return Definition(
        "extension-llama3-inv-freq",
        r"Llama 3 in the code: $\theta_i$ below $L_0/f_{\mathrm{high}}$, $\theta_i/s$ above $L_0/f_{\mathrm{low}}$, "
        "the blend between",
        TOPIC,
        f"{sources.LLAMA3}; {HF}",
        Llama3InvFreq(i, d, b, s, L0, f_low, f_high),
        rule,
        r"Meta's `apply_scaling` on the wavelengths $\lambda_i = 2\pi/\theta_i$, "
        r"$\sigma = (L_0/\lambda_i - f_{\mathrm{low}})/(f_{\mathrm{high}} - f_{\mathrm{low}})$",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'llama3')",
        assumptions=(
            r"$d$ even, $i = 0, \dots, d/2 - 1$; $b \in [10^4, 10^6]$, $L_0 \in [1024, 2^{17}]$, $s \in [2, 32]$, "
            r"$f_{\mathrm{low}} \in \{1, 2\}$, $f_{\mathrm{high}} \in [3, 8]$ (integers)",
        ),
        formula=sp.Eq(
            _TP[i],
            sp.Piecewise(
                (TH[i], sp.Lt(2 * sp.pi / TH[i], L0 / f_high)),
                (TH[i] / s, sp.Gt(2 * sp.pi / TH[i], L0 / f_low)),
                ((1 - sp.Symbol("sigma_i")) * TH[i] / s + sp.Symbol("sigma_i") * TH[i], True),
            ),
            evaluate=False,
        ),
        sizes={d: (16, 128)},
        domains={
            "i": PAIR,
            "b": Domain("integer", 10**4, 10**6, log=True),
            "s": Domain("integer", 2, 32),
            "L_0": Domain("integer", 1024, 2**17, log=True),
            "f_low": Domain("integer", 1, 2),
            "f_high": Domain("integer", 3, 8),
        },
        notes="The registered mistake is the bug of returning the unscaled frequencies.",
        wrong=theta,
    )


def _llama31_bands(dps: int, rule: str = "llama3"):
    scaling = {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192}
    scaling |= {"low_freq_factor": 1.0, "high_freq_factor": 4.0}
    if rule == "default":  # the wrong computation: the unscaled frequencies
        scaling = {}
    scaled, _ = rope_inv_freq_mp(128, 500000.0, scaling, dps=dps)
    plain = inverse_frequencies_mp(128, 500000.0, dps)
    ratio = [t2 / t1 for t1, t2 in zip(plain, scaled, strict=True)]
    kept = [j for j, x in enumerate(ratio) if x == 1]
    divided = [j for j, x in enumerate(ratio) if abs(x * 8 - 1) <= mpmath.mpf(10) ** (-dps + 5)]
    blended = [j for j, x in enumerate(ratio) if j not in kept and j not in divided]
    value = {"kept": len(kept), "blended": len(blended), "divided by s": len(divided)}
    rows = [
        ("kept pairs", f"{kept[0]}..{kept[-1]}" if kept else "none"),
        ("blended pairs", blended),
        ("θ'/θ of the blended pairs", [mpmath.nstr(ratio[j], 6) for j in blended]),
        ("divided pairs", f"{divided[0]}..{divided[-1]}" if divided else "none"),
    ]
    return value, rows


def llama31_bands() -> Fact:
    return Fact(
        "extension-llama3-bands-llama31",
        r"Llama 3.1 ($d = 128$, $b = 500000$, $s = 8$, $L_0 = 8192$, $f_{\mathrm{low}} = 1$, $f_{\mathrm{high}} = 4$): "
        "29 pairs kept, 6 blended, 29 divided by 8",
        TOPIC,
        f"{sources.LLAMA3}; {HF}",
        "`numeric.scaling.rope_inv_freq_mp` at Llama 3.1's configuration, compared pair by pair with the trained "
        r"$\theta_i = 500000^{-2i/128}$: $\theta'_i = \theta_i$ exactly for the short wavelengths $\lambda_i < 2048$, "
        r"$\theta'_i = \theta_i/8$ for $\lambda_i > 8192$, strictly between for the pairs in between.",
        {"kept": 29, "blended": 6, "divided by s": 29},
        _llama31_bands,
        method="mpmath at {dps} digits (numeric.scaling.rope_inv_freq_mp)",
        wrong=lambda dps: _llama31_bands(dps, rule="default"),
        formula=(
            sp.Eq(sp.Symbol("N_{kept}"), 29, evaluate=False),
            sp.Eq(sp.Symbol("N_{blended}"), 6, evaluate=False),
            sp.Eq(sp.Symbol("N_{divided}"), 29, evaluate=False),
        ),
        notes="The wrong computation returns the unscaled frequencies (a bug seen in ports of apply_scaling).",
    )


# ==============================================================================================================
# float64 against the 50-digit twin.
# ==============================================================================================================

#: Generic configurations (YaRN's correction dimensions are far from integers; no wavelength on a Llama 3 edge).
FLOAT64_CONFIGS: tuple[tuple[str, int, float, dict, dict], ...] = (
    ("linear", 128, 10000.0, {"rope_type": "linear", "factor": 4.0}, {}),
    ("ntk", 128, 10000.0, {"rope_type": "ntk", "factor": 4.0}, {}),
    ("dynamic", 128, 10000.0, {"rope_type": "dynamic", "factor": 2.0},
     {"seq_len": 8192, "max_position_embeddings": 2048}),
    ("yarn", 128, 10000.0, {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096}, {}),
    (
        "llama3",
        128,
        500000.0,
        {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192, "low_freq_factor": 1.0,
         "high_freq_factor": 4.0},
        {},
    ),
)  # fmt: skip


def _float64(dps: int, extended_yarn: bool = False):
    value, rows = {}, []
    for rule, width, base, scaling, kw in FLOAT64_CONFIGS:
        ref, ref_factor = rope_inv_freq_mp(width, base, scaling, dps=dps, **kw)
        used = dict(scaling)
        if extended_yarn and rule == "yarn":  # the wrong computation: the range from the extended length
            used["original_max_position_embeddings"] = int(
                scaling["factor"] * scaling["original_max_position_embeddings"]
            )
        got, got_factor = rope_inv_freq(width, base, used, **kw)
        err = max(abs((mpmath.mpf(float(g)) - t) / t) for g, t in zip(got, ref, strict=True))
        err = max(err, abs((mpmath.mpf(got_factor) - ref_factor) / ref_factor))
        value[rule] = bool(err <= tolerances.FLOAT64_RTOL)
        rows.append((f"{rule}: max relative error of float64", formatting.below(err)))
        if rule == "yarn":
            L0v = scaling["original_max_position_embeddings"]
            dims = [width * mpmath.log(L0v / (2 * mpmath.pi * beta)) / (2 * mpmath.log(base)) for beta in (32, 1)]
            gap = min(abs(c - mpmath.nint(c)) for c in dims)
            rows.append(("yarn: c(32), c(1)", dims))
            value["yarn correction dimensions generic"] = bool(gap > 1e-6)
    return value, rows


def float64_agrees() -> Fact:
    return Fact(
        "extension-float64-agrees",
        "The float64 kernel `rope_inv_freq` agrees with its 50-digit twin to $10^{-10}$ at a generic configuration "
        "of each of linear, NTK-aware, dynamic, YaRN and Llama 3",
        TOPIC,
        HF,
        "`rope_inv_freq` (float64) against `rope_inv_freq_mp` at five generic configurations: linear and NTK-aware "
        "($d = 128$, $b = 10^4$, $s = 4$), dynamic NTK ($s = 2$, $L_0 = 2048$, $n = 8192$), YaRN ($s = 8$, "
        "$L_0 = 4096$: $c(32) = 20.94$, $c(1) = 45.03$, far from integers) and Llama 3.1; the relative error of every "
        r"frequency and of the attention factor is at most `FLOAT64_RTOL` $= 10^{-10}$ (measured $\sim 10^{-16}$).",
        {
            "linear": True,
            "ntk": True,
            "dynamic": True,
            "yarn": True,
            "yarn correction dimensions generic": True,
            "llama3": True,
        },
        _float64,
        method="float64 NumPy (numeric.scaling.rope_inv_freq) against mpmath at {dps} digits",
        wrong=lambda dps: _float64(dps, extended_yarn=True),
        formula=sp.Le(
            sp.Abs(sp.IndexedBase("thetaprime_float64")[i] - _TP[i]) / _TP[i],
            sp.Pow(10, -10, evaluate=False),
            evaluate=False,
        ),
        notes="A float64 kernel can only agree to ~1e-16, so it is compared here with its own tolerance, not in "
        "a 50-digit definition. Near a YaRN correction dimension within float rounding of an integer the floor "
        "or ceil can differ, hence the generic configuration. The wrong computation takes YaRN's correction "
        "range from the extended length s·L_0.",
    )


# ==============================================================================================================
# Theorem 2.1 of Chen et al. 2023 (the interpolation bound), step by step.
# ==============================================================================================================

s1, s2, sv = sp.symbols("s_1 s_2 s", real=True)
a_s, da_s = sp.symbols("a(s) a'(s)", real=True)
A1, A2 = sp.symbols("a''_1 a''_2", real=True)


def _remainder(lo, mid, hi, c1, c2):
    r"""The paper's ``R(s) = -(s - s1)(s - s2)/(2(s1 - s2)) [a''(xi1)(s - s1) - a''(xi2)(s - s2)]`` (eq. 11)."""
    return -(mid - lo) * (mid - hi) / (2 * (lo - hi)) * (c1 * (mid - lo) - c2 * (mid - hi))


def pi_remainder() -> Identity:
    taylor1 = a_s + da_s * (s1 - sv) + A1 * (s1 - sv) ** 2 / 2
    taylor2 = a_s + da_s * (s2 - sv) + A2 * (s2 - sv) ** 2 / 2
    lam_s = (sv - s1) / (s2 - s1)
    lhs = a_s - ((1 - lam_s) * taylor1 + lam_s * taylor2)
    return _identity(
        "extension-pi-remainder",
        r"Theorem 2.1, eq. 11: $a(s) - a_{\mathrm{linear}}(s) = R(s)$ from the two Taylor expansions (holds)",
        f"{CHEN}, Theorem 2.1 and Appendix A, eq. 9-11",
        [Step(lhs, _remainder(s1, sv, s2, A1, A2), "the first-order terms cancel; collect", ("cancel",))],
        assumptions=(
            r"$a(s_k) = a(s) + a'(s)(s_k - s) + a''(\xi_k)(s_k - s)^2/2$ (Taylor, Lagrange remainder), "
            r"$a''_k = a''(\xi_k)$",
            r"$a_{\mathrm{linear}}(s) = (1 - \lambda)a(s_1) + \lambda a(s_2)$, $\lambda = (s - s_1)/(s_2 - s_1)$; "
            r"$s_1 \ne s_2$ (a rational identity, checked at $s_1 \in [-100, -1]$, $s \in [-1, 1]$, "
            r"$s_2 \in [1, 100]$)",
        ),
        formula=sp.Eq(_a(sv) - _alin(sv), _R(sv), evaluate=False),
        domains={
            "s_1": Domain("real", -100, -1),
            "s": Domain("real", -1, 1),
            "s_2": Domain("real", 1, 100),
        },
        notes="The paper writes the first-order terms as a'(s)(s - s_k), with the opposite sign; they cancel "
        "either way, so eq. 11 stands. The registered mistake flips the sign of R(s).",
        wrong=-_remainder(s1, sv, s2, A1, A2),
    )


p, qq = sp.symbols("p q", positive=True)  # s - s1 and s2 - s
M = sp.Symbol("M", positive=True)
beta1, beta2 = sp.symbols("beta_1 beta_2", nonnegative=True)


def pi_remainder_bound() -> Identity:
    c1, c2 = beta1 - M, beta2 - M  # a''(xi_k) >= -M
    lhs = _remainder(sv - p, sv, sv + qq, c1, c2)
    e1 = -p * qq * (c1 * p + c2 * qq) / (2 * (p + qq))
    return _identity(
        "extension-pi-remainder-bound",
        r"Theorem 2.1, eq. 16: $a'' \ge -M$ on $[s_1, s_2]$ gives $R(s) \le (M/2)(s - s_1)(s_2 - s)$ (holds; with "
        r"$a'' \le M$ the mirror bound, so $|R| \le (M/2)(s - s_1)(s_2 - s)$)",
        f"{CHEN}, Appendix A, eq. 15-16",
        [
            Step(lhs, e1, "$s - s_1 = p$, $s_2 - s = q$", ("cancel",)),
            Step(
                e1,
                M * p * qq / 2,
                r"the gap is $pq(\beta_1 p + \beta_2 q)/(2(p + q)) \ge 0$ with $\beta_k = a''(\xi_k) + M \ge 0$",
                ("cancel",),
                rel="<=",
            ),
        ],
        rel="<=",
        assumptions=(
            "$s_1 < s < s_2$: $s - s_1 = p > 0$, $s_2 - s = q > 0$",
            r"$a''(\xi_k) = \beta_k - M$ with $\beta_k \ge 0$, i.e. $a''(\xi_k) \ge -M$ ($M > 0$)",
        ),
        formula=sp.Le(_R(sv), M * (sv - s1) * (s2 - sv) / 2, evaluate=False),
        notes="The paper's middle expression (s - s_1)(s_2 - s)/(2(s_2 - s_1))[M(s - s_1) + M(s_2 - s)] is the same "
        "bound. If a'' ≤ M instead, -a has (-a)'' ≥ -M and remainder -R, so the same bound holds for -R: "
        "|a''| ≤ M gives |R(s)| ≤ (M/2)(s - s_1)(s_2 - s). The registered mistake halves the constant again, "
        "M/4 (a factor 1/2 counted twice).",
        wrong=M * p * qq / 4,
    )


u = sp.Symbol("u", positive=True)
j = sp.Symbol("j", integer=True, nonnegative=True)


def pi_geometric_bound() -> Identity:
    ratio = 1 / (1 + u)  # c^(-4/d)
    total = sp.Sum(ratio**j, (j, 0, d / 2 - 1))  # sum_j theta_j^2 = sum_j c^(-4j/d)
    closed = (1 - ratio ** (d / 2)) / (1 - ratio)
    return _identity(
        "extension-pi-geometric-bound",
        r"Theorem 2.1, eq. 13: $\sum_{j<d/2} \theta_j^2 = (1 - c^{-2})/(1 - c^{-4/d}) < 1/(1 - c^{-4/d})$ (holds, as "
        "'<'; the paper writes '=')",
        f"{CHEN}, Appendix A, eq. 12-13",
        [
            Step(total, closed, r"a finite geometric sum of ratio $c^{-4/d} \ne 1$", ("doit",)),
            Step(closed, 1 / (1 - ratio), "the gap $c^{-2}/(1 - c^{-4/d}) > 0$", ("cancel",), rel="<"),
        ],
        rel="<",
        assumptions=(
            r"$\theta_j = c^{-2j/d}$, so $\theta_j^2 = c^{-4j/d} = (1 + u)^{-j}$ with $c^{4/d} = 1 + u$, $u > 0$ "
            "($c > 1$)",
            "$d$ even; $u$ checked up to $10^{60/d} - 1$, where the gap $c^{-2}$ is still above the working precision "
            r"($c \le 10^{15}$)",
        ),
        formula=sp.Lt(
            sp.Sum(sp.IndexedBase("theta")[j] ** 2, (j, 0, d / 2 - 1)),
            1 / (1 - sp.Pow(_cc, -4 / d, evaluate=False)),
            evaluate=False,
        ),
        sizes={d: (2, 8, 128)},
        domains={"u": Domain("real", 1e-6, 10 ** (sp.Integer(60) / d) - 1, log=True)},
        notes="Eq. 12, |a''(s)| ≤ Σ_j |h_j| |φ_j''(s)| = Σ_j |h_j| θ_j² ≤ (max_j |h_j|) Σ_j θ_j² (|Re z| ≤ |z|, the "
        "triangle inequality, |(e^{isθ})''| = θ²), is standard and not re-derived here. The registered mistake "
        "is the paper's next step, the bound d/(4 ln c) = 1/ln(1 + u) (extension-pi-step14-fails).",
        wrong=1 / sp.log(1 + u),
    )


def pi_step14_fails() -> Identity:
    c, width = sp.Integer(10000), sp.Integer(128)
    lhs = sp.Pow(c, -4 / width, evaluate=False)
    rhs = 1 - 4 * sp.log(c) / width
    return _identity(
        "extension-pi-step14-fails",
        r"Theorem 2.1, eq. 14 fails: the paper's $c^x \le 1 + x \ln c$ ($x < 0$) is false at $x = -4/d$, $c = 10^4$, "
        r"$d = 128$: $c^{-4/d} = 0.74989 > 1 - (4/d) \ln c = 0.71218$",
        f"{CHEN}, Appendix A, eq. 14",
        [
            Step(
                lhs,
                rhs,
                r"decided exactly: $10000^{-1/32} - 1 + \ln(10000)/32 > 0$ ($c^x = e^{x \ln c}$ lies above its tangent "
                r"line $1 + x \ln c$ for every $x \ne 0$)",
                ("identity",),
                rel=">",
            )
        ],
        rel=">",
        assumptions=("$c = 10^4$, $d = 128$ (LLaMA's head width and base, the paper's own numbers)",),
        formula=sp.Gt(lhs, rhs, evaluate=False),
        notes="By strict convexity of the exponential the inequality is reversed for every x ≠ 0, so eq. 14, "
        "1/(1 - c^(-4/d)) ≤ d/(4 ln c), fails for every d and c > 1: at LLaMA's setting 1/(1 - c^(-4/d)) = "
        "3.99830807 > d/(4 ln c) = 3.4744, and the sum it bounds, Σ_j θ_j² = 3.99830803 (= |a''(0)| for h_j = 1), "
        "exceeds the paper's M too. The registered mistake takes the other tangent bound 1/(1 + (4/d) ln c) as "
        "a lower bound.",
        wrong=1 / (1 + 4 * sp.log(c) / width),
    )


x_, g_ = sp.Symbol("x", positive=True), sp.Symbol("g", nonnegative=True)


def pi_corrected_constant() -> Identity:
    with evaluate(False):
        lhs = 1 / (1 - 1 / (1 + x_ + g_))  # 1/(1 - c^(-4/d)), c^(4/d) = e^x = 1 + x + g
    return _identity(
        "extension-pi-corrected-constant",
        r"Corrected eq. 14: $1/(1 - c^{-4/d}) \le d/(4 \ln c) + 1$ for every $d$ and $c > 1$ (from $e^x \ge 1 + x$)",
        f"{CHEN}, Appendix A, eq. 14 (corrected)",
        [
            Step(
                lhs,
                1 / x_ + 1,
                r"the gap is $g/(x(x + g)) \ge 0$",
                ("cancel",),
                rel="<=",
            )
        ],
        rel="<=",
        assumptions=(
            r"$x = (4/d) \ln c > 0$ ($c > 1$)",
            r"$c^{4/d} = e^x = 1 + x + g$ with $g \ge 0$: the exponential lies above its tangent line at 0 (the one "
            "fact taken as given; every $x > 0$ has this form)",
        ),
        formula=sp.Le(1 / (1 - sp.Pow(_cc, -4 / d, evaluate=False)), d / (4 * sp.log(_cc)) + 1, evaluate=False),
        notes="So |a''(s)| ≤ (max_j |h_j|)(d/(4 ln c) + 1) and, with eq. 11 and 16 (which hold), the corrected "
        "Theorem 2.1 reads |a(s) - a_linear(s)| ≤ (max_j |h_j|)(d + 4 ln c)(s - s_1)(s_2 - s)/(8 ln c). At c = "
        "10^4, d = 128 and unit grid spacing: (d + 4 ln c)/(32 ln c) = 0.5593 instead of 0.4343, and against the "
        "paper's extrapolation bound 2d·max|h_j| the ratio is ~458×, not ~600×. The sharp constant is Σ_j θ_j² = "
        "(1 - c^-2)/(1 - c^(-4/d)) (3.9983 at LLaMA's setting, attained by |a''(0)| for h_j = 1). The registered "
        "mistake is the paper's constant d/(4 ln c).",
        wrong=1 / x_,
    )


def _pi_counterexample(dps: int, exponent: int = 2):
    width, c = 128, 10000
    with mpmath.workdps(dps):
        theta = inverse_frequencies_mp(width, c, dps)
        if exponent != 2:  # the wrong computation: theta_j = c^(-j/d), the exponent's 2 forgotten
            theta = [mpmath.mpf(c) ** (-mpmath.mpf(exponent * jj) / width) for jj in range(width // 2)]

        def a(x):  # a(s) = Re sum_j h_j e^{i s theta_j} with h_j = 1
            return mpmath.fsum(mpmath.cos(x * t) for t in theta)

        log_c = mpmath.log(c)
        value, rows = {}, []
        for label, lo, hi in (("[0, 1]", mpmath.mpf(0), mpmath.mpf(1)), ("[0, 1/8]", mpmath.mpf(0), mpmath.mpf(1) / 8)):
            mid = (lo + hi) / 2
            err = abs(a(mid) - (a(lo) + a(hi)) / 2)
            spread = (mid - lo) * (hi - mid)
            paper = width * spread / (8 * log_c)
            corrected = (width + 4 * log_c) * spread / (8 * log_c)
            value[f"{label}: paper's bound holds"] = bool(err <= paper)
            value[f"{label}: corrected bound holds"] = bool(err <= corrected)
            rows.append((f"{label}: |a(s) - a_linear(s)| at the midpoint", mpmath.nstr(err, 8)))
            rows.append((f"{label}: paper d(s - s_1)(s_2 - s)/(8 ln c)", mpmath.nstr(paper, 8)))
            rows.append((f"{label}: corrected (d + 4 ln c)(s - s_1)(s_2 - s)/(8 ln c)", mpmath.nstr(corrected, 8)))
        sharp = mpmath.fsum(t**2 for t in theta)
        rows.append(
            (
                "Σ_j θ_j² = |a''(0)|, against the paper's M = d/(4 ln c)",
                [mpmath.nstr(sharp, 8), mpmath.nstr(width / (4 * log_c), 8)],
            )
        )
        value["paper's M bounds |a''(0)|"] = bool(sharp <= width / (4 * log_c))
    return value, rows


def pi_counterexample() -> Fact:
    return Fact(
        "extension-pi-bound-counterexample",
        r"Theorem 2.1 fails at LLaMA's setting: with $h_j = 1$, $d = 128$, $c = 10^4$ the interpolation error at "
        r"$s = 1/2$ is $0.45928 > d/(32 \ln c) = 0.43429$; the corrected bound holds",
        TOPIC,
        f"{CHEN}, Theorem 2.1, eq. 5 and 7",
        r"$a(s) = \mathrm{Re} \sum_j h_j e^{is\theta_j}$ with $h_j = 1$ ($\max_j |h_j| = 1$), "
        r"$\theta_j = 10000^{-2j/128}$, on $[s_1, s_2] = [0, 1]$ (the paper's integer grid) and $[0, 1/8]$, at the "
        r"midpoint: the paper's bound $d(s - s_1)(s_2 - s)/(8 \ln c)$ fails on both, the corrected "
        r"$(d + 4 \ln c)(s - s_1)(s_2 - s)/(8 \ln c)$ holds on both, and the paper's $M = d/(4 \ln c)$ is below "
        r"$|a''(0)| = \sum_j \theta_j^2$.",
        {
            "[0, 1]: paper's bound holds": False,
            "[0, 1]: corrected bound holds": True,
            "[0, 1/8]: paper's bound holds": False,
            "[0, 1/8]: corrected bound holds": True,
            "paper's M bounds |a''(0)|": False,
        },
        _pi_counterexample,
        method="mpmath at {dps} digits (θ_j from numeric.sinusoid.inverse_frequencies_mp)",
        wrong=lambda dps: _pi_counterexample(dps, exponent=1),
        formula=sp.Gt(
            sp.Abs(_a(sp.Rational(1, 2)) - _alin(sp.Rational(1, 2))),
            sp.Integer(128) / (32 * sp.log(sp.Integer(10) ** 4, evaluate=False)),
            evaluate=False,
        ),
        notes="h_j = 1 is q = k with unit pairs: a(s) is then Σ_j cos(sθ_j), the sinusoidal dot product. As "
        "s_2 - s_1 → 0 at s = 0 the ratio of the error to the paper's bound tends to Σ_j θ_j²/(d/(4 ln c)) = "
        "1.151. The wrong computation forgets the 2 in the exponent, θ_j = c^(-j/d).",
    )


def claims() -> list:
    return [
        scaled_relative(),
        pi_angle_in_range(),
        linear_definition(),
        ntk_base(),
        ntk_conditions(),
        ntk_definition(),
        dynamic_ntk(),
        dynamic_definition(),
        yarn_correction_dimension(),
        yarn_blend_ends(),
        yarn_monotone(),
        yarn_definition(),
        yarn_truncated_definition(),
        yarn_attention_definition(),
        yarn_mscale_definition(),
        llama3_continuous(),
        llama3_definition(),
        llama31_bands(),
        float64_agrees(),
        pi_remainder(),
        pi_remainder_bound(),
        pi_geometric_bound(),
        pi_step14_fails(),
        pi_corrected_constant(),
        pi_counterexample(),
    ]
