r"""Theorem 2.1 of Chen et al. 2023 (the interpolation bound of Position Interpolation) re-derived step by step:
eq. 11, 16 and 13 hold, eq. 14 is false, the corrected constant, and a counterexample at LLaMA's setting."""

from __future__ import annotations

import mpmath
import sympy as sp
from posproof.numeric.sinusoid import inverse_frequencies_mp
from posproof.symbolic.engine.core import Domain, Fact, Step, Theorem
from posproof.symbolic.scaling.common import CHEN, TOPIC, identity
from posproof.symbolic.symbols import d_even
from sympy.core.parameters import evaluate

# ==============================================================================================================
# Theorem 2.1 of Chen et al. 2023 (the interpolation bound), step by step.
# ==============================================================================================================

s1, s2, sv = sp.symbols("s_1 s_2 s", real=True)
a_s, da_s = sp.symbols("a(s) a'(s)", real=True)
A1, A2 = sp.symbols("a''_1 a''_2", real=True)

# ---- named symbols for the short statements (formula=) ----
_a, _alin, _R = sp.Function("a"), sp.Function("a_linear"), sp.Function("R")  # Theorem 2.1 of Chen et al.
_cc = sp.Symbol("c", positive=True)  # Chen et al.'s base


def _remainder(lo, mid, hi, c1, c2):
    r"""The paper's ``R(s) = -(s - s1)(s - s2)/(2(s1 - s2)) [a''(xi1)(s - s1) - a''(xi2)(s - s2)]`` (eq. 11)."""
    return -(mid - lo) * (mid - hi) / (2 * (lo - hi)) * (c1 * (mid - lo) - c2 * (mid - hi))


def pi_remainder() -> Theorem:
    taylor1 = a_s + da_s * (s1 - sv) + A1 * (s1 - sv) ** 2 / 2
    taylor2 = a_s + da_s * (s2 - sv) + A2 * (s2 - sv) ** 2 / 2
    lam_s = (sv - s1) / (s2 - s1)
    lhs = a_s - ((1 - lam_s) * taylor1 + lam_s * taylor2)
    return identity(
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
        given=(sp.Q.lt(s1, s2),),  # lambda divides by s_2 - s_1
        domains={
            "s_1": Domain("real", -100, -1),
            "s": Domain("real", -1, 1),
            "s_2": Domain("real", 1, 100),
        },
        notes=(
            r"The paper writes the first-order terms as $a'(s)(s - s_k)$, with the opposite sign; they cancel "
            r"either way, so eq. 11 stands; with the sign of $R(s)$ flipped it fails."
        ),
        wrong=-_remainder(s1, sv, s2, A1, A2),
    )


p, qq = sp.symbols("p q", positive=True)  # s - s1 and s2 - s
M = sp.Symbol("M", positive=True)
beta1, beta2 = sp.symbols("beta_1 beta_2", nonnegative=True)


def pi_remainder_bound() -> Theorem:
    c1, c2 = beta1 - M, beta2 - M  # a''(xi_k) >= -M
    lhs = _remainder(sv - p, sv, sv + qq, c1, c2)
    e1 = -p * qq * (c1 * p + c2 * qq) / (2 * (p + qq))
    return identity(
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
        notes=(
            r"The paper's middle expression $\frac{(s - s_1)(s_2 - s)}{2(s_2 - s_1)}[M(s - s_1) + M(s_2 - s)]$"
            r" is the same bound. If $a'' \le M$ instead, $-a$ has $(-a)'' \ge -M$ and remainder $-R$, so the "
            r"same bound holds for $-R$: $|a''| \le M$ gives $|R(s)| \le (M/2)(s - s_1)(s_2 - s)$. Halving "
            r"the constant again, $M/4$ (a factor $1/2$ counted twice), gives no bound."
        ),
        wrong=M * p * qq / 4,
    )


u = sp.Symbol("u", positive=True)
j = sp.Symbol("j", integer=True, nonnegative=True)


def pi_geometric_bound() -> Theorem:
    ratio = 1 / (1 + u)  # c^(-4/d)
    total = sp.Sum(ratio**j, (j, 0, d_even / 2 - 1))  # sum_j theta_j^2 = sum_j c^(-4j/d)
    closed = (1 - ratio ** (d_even / 2)) / (1 - ratio)
    return identity(
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
            sp.Sum(sp.IndexedBase("theta")[j] ** 2, (j, 0, d_even / 2 - 1)),
            1 / (1 - sp.Pow(_cc, -4 / d_even, evaluate=False)),
            evaluate=False,
        ),
        sizes={d_even: (2, 8, 128)},
        domains={"u": Domain("real", 1e-6, 10 ** (sp.Integer(60) / d_even) - 1, log=True)},
        notes=(
            r"Eq. 12, $|a''(s)| \le (\max_j |h_j|) \sum_j \theta_j^2$, is proved for every even $d$ in "
            r"[[claim:extension-pi-second-derivative-bound]]; this claim bounds the sum. The "
            r"paper's next step, the bound $d/(4 \ln c) = 1/\ln(1 + u)$, fails ([[claim:extension-pi-step14-fails]])."
        ),
        wrong=1 / sp.log(1 + u),
    )


_h = sp.IndexedBase("h", complex=True)  # the query-key pair products of Chen et al.'s a(s)
_theta = sp.IndexedBase("theta", real=True)


def pi_second_derivative_bound() -> Theorem:
    from posproof.symbolic.engine.maximum import Maximum
    from posproof.symbolic.lemmas import TRIANGLE_COMPLEX

    top = d_even / 2 - 1
    term = _theta[j] ** 2 * _h[j] * sp.exp(sp.I * sv * _theta[j])  # minus the second derivative of h_j e^{i s theta_j}
    a = sp.re(sp.Sum(_h[j] * sp.exp(sp.I * sv * _theta[j]), (j, 0, top)))
    second = sp.Abs(sp.Derivative(a, (sv, 2)))
    real_part = sp.Abs(sp.re(sp.Sum(term, (j, 0, top))))
    modulus = sp.Abs(sp.Sum(term, (j, 0, top)))
    termwise = sp.Sum(_theta[j] ** 2 * sp.Abs(_h[j]), (j, 0, top))
    k = sp.Symbol("k", integer=True, nonnegative=True)
    h_max = Maximum(sp.Abs(_h[k]), (k, 0, top))
    bound = h_max * sp.Sum(_theta[j] ** 2, (j, 0, top))
    return identity(
        "extension-pi-second-derivative-bound",
        r"Theorem 2.1, eq. 12, for every even $d$: $|a''(s)| \le (\max_j |h_j|) \sum_{j<d/2} \theta_j^2$ (holds)",
        f"{CHEN}, Appendix A, eq. 12",
        [
            Step(
                second,
                real_part,
                r"$(e^{\mathrm{i} s \theta_j})'' = -\theta_j^2 e^{\mathrm{i} s \theta_j}$, term by term",
                ("doit",),
            ),
            Step(real_part, modulus, r"$|\operatorname{Re}\, u| \le |u|$", ("abs_sides",), rel="<="),
            TRIANGLE_COMPLEX.cite(
                {"N": d_even / 2, "z": sp.Lambda(j, term)},
                r"the triangle inequality for finite sums; $|e^{\mathrm{i} s \theta_j}| = 1$",
                lhs=modulus,
                rhs=termwise,
            ),
            Step(
                termwise,
                bound,
                r"every $|h_j| \le \max_k |h_k|$ and $\theta_j^2 \ge 0$",
                ("combine_sums", "factor_terms"),
                rel="<=",
            ),
        ],
        rel="<=",
        assumptions=(
            r"$a(s) = \operatorname{Re} \sum_{j<d/2} h_j e^{\mathrm{i} s \theta_j}$ (the attention score at relative "
            r"position $s$), $h_j$ complex, $\theta_j$ and $s$ real",
            "$d$ even",
        ),
        formula=sp.Le(sp.Abs(sp.Derivative(_a(sv), (sv, 2))), bound, evaluate=False),
        sizes={d_even: (2, 4, 8)},
        domains={"s": Domain("real", -20, 20), "theta": Domain("real", -2, 2)},
        notes=(
            r"Eq. 13 ([[claim:extension-pi-geometric-bound]]) bounds the sum for the RoPE frequencies; eq. 14, the "
            r"paper's next step, fails ([[claim:extension-pi-step14-fails]]). The bound does not hold without the "
            r"square of $\theta_j$."
        ),
        wrong=h_max * sp.Sum(sp.Abs(_theta[j]), (j, 0, top)),
    )


def pi_step14_fails() -> Theorem:
    c, width = sp.Integer(10000), sp.Integer(128)
    lhs = sp.Pow(c, -4 / width, evaluate=False)
    rhs = 1 - 4 * sp.log(c) / width
    return identity(
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
        notes=(
            r"By strict convexity of the exponential the inequality is reversed for every $x \ne 0$, so eq. "
            r"14, $1/(1 - c^{-4/d}) \le d/(4 \ln c)$, fails for every $d$ and $c > 1$: at LLaMA's setting "
            r"$1/(1 - c^{-4/d}) = 3.99830807 > d/(4 \ln c) = 3.4744$, and the sum it bounds, $\sum_j "
            r"\theta_j^2 = 3.99830803$ ($= |a''(0)|$ for $h_j = 1$), exceeds the paper's $M$ too. The "
            r"other tangent bound, $1/(1 + (4/d) \ln c)$, is not a lower bound."
        ),
        wrong=1 / (1 + 4 * sp.log(c) / width),
    )


x_, g_ = sp.Symbol("x", positive=True), sp.Symbol("g", nonnegative=True)


def pi_corrected_constant() -> Theorem:
    with evaluate(False):
        lhs = 1 / (1 - 1 / (1 + x_ + g_))  # 1/(1 - c^(-4/d)), c^(4/d) = e^x = 1 + x + g
    return identity(
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
        formula=sp.Le(
            1 / (1 - sp.Pow(_cc, -4 / d_even, evaluate=False)), d_even / (4 * sp.log(_cc)) + 1, evaluate=False
        ),
        notes=(
            r"So $|a''(s)| \le (\max_j |h_j|)(d/(4 \ln c) + 1)$ and, with eq. 11 and 16 (which hold), the "
            r"corrected Theorem 2.1 reads $|a(s) - a_{\mathrm{linear}}(s)| \le (\max_j |h_j|)(d + 4 \ln c)(s -"
            r" s_1)(s_2 - s)/(8 \ln c)$. At $c = 10^4$, $d = 128$ and unit grid spacing: $(d + 4 \ln c)/(32 "
            r"\ln c) = 0.5593$ instead of 0.4343, and against the paper's extrapolation bound $2d \max_j "
            r"|h_j|$ the ratio is about 458, not about 600. The sharp constant is $\sum_j \theta_j^2 = (1 - "
            r"c^{-2})/(1 - c^{-4/d})$ (3.9983 at LLaMA's setting, attained by $|a''(0)|$ for $h_j = 1$). The "
            r"paper's constant $d/(4 \ln c)$ is not."
        ),
        wrong=1 / x_,
    )


def _pi_counterexample(dps: int, exponent: int = 2):
    width, c = 128, 10000
    with mpmath.workdps(dps):
        theta = inverse_frequencies_mp(width, base=c, dps=dps)
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
            rows.append((f"{label}: " + r"$|a(s) - a_{\mathrm{linear}}(s)|$ at the midpoint", mpmath.nstr(err, 8)))
            rows.append((f"{label}: " + r"paper $d(s - s_1)(s_2 - s)/(8 \ln c)$", mpmath.nstr(paper, 8)))
            rows.append(
                (f"{label}: " + r"corrected $(d + 4 \ln c)(s - s_1)(s_2 - s)/(8 \ln c)$", mpmath.nstr(corrected, 8))
            )
        sharp = mpmath.fsum(t**2 for t in theta)
        rows.append(
            (
                r"$\sum_j \theta_j^2 = |a''(0)|$, against the paper's $M = d/(4 \ln c)$",
                [mpmath.nstr(sharp, 8), mpmath.nstr(width / (4 * log_c), 8)],
            )
        )
        value[r"paper's $M$ bounds $|a''(0)|$"] = bool(sharp <= width / (4 * log_c))
    return value, rows


def pi_counterexample() -> Fact:
    return Fact(
        "extension-pi-bound-counterexample",
        r"Theorem 2.1 fails at LLaMA's setting: with $h_j = 1$, $d = 128$, $c = 10^4$ the interpolation error at "
        r"$s = 1/2$ is $0.45928 > d/(32 \ln c) = 0.43429$; the corrected bound holds",
        TOPIC,
        f"{CHEN}, Theorem 2.1, eq. 5 and 7",
        r"$a(s) = \operatorname{Re} \sum_j h_j e^{\mathrm{i} s \theta_j}$ with $h_j = 1$ ($\max_j |h_j| = 1$), "
        r"$\theta_j = 10000^{-2j/128}$, on $[s_1, s_2] = [0, 1]$ (the paper's integer grid) and $[0, 1/8]$, at the "
        r"midpoint: the paper's bound $d(s - s_1)(s_2 - s)/(8 \ln c)$ fails on both, the corrected "
        r"$(d + 4 \ln c)(s - s_1)(s_2 - s)/(8 \ln c)$ holds on both, and the paper's $M = d/(4 \ln c)$ is below "
        r"$|a''(0)| = \sum_j \theta_j^2$.",
        {
            "[0, 1]: paper's bound holds": False,
            "[0, 1]: corrected bound holds": True,
            "[0, 1/8]: paper's bound holds": False,
            "[0, 1/8]: corrected bound holds": True,
            r"paper's $M$ bounds $|a''(0)|$": False,
        },
        _pi_counterexample,
        method="mpmath at {dps} digits (θ_j from numeric.sinusoid.inverse_frequencies_mp)",
        wrong=lambda dps: _pi_counterexample(dps, exponent=1),
        formula=sp.Gt(
            sp.Abs(_a(sp.Rational(1, 2)) - _alin(sp.Rational(1, 2))),
            sp.Integer(128) / (32 * sp.log(sp.Integer(10) ** 4, evaluate=False)),
            evaluate=False,
        ),
        notes=(
            r"$h_j = 1$ is $q = k$ with unit pairs: $a(s)$ is then $\sum_j \cos(s \theta_j)$, the sinusoidal "
            r"dot product. As $s_2 - s_1 \to 0$ at $s = 0$ the ratio of the error to the paper's bound tends "
            r"to $\sum_j \theta_j^2 / (d/(4 \ln c)) = 1.151$. Without the 2 in the "
            r"exponent, $\theta_j = c^{-j/d}$, the ratio is another."
        ),
    )


def claims() -> list:
    return [
        pi_remainder(),
        pi_remainder_bound(),
        pi_second_derivative_bound(),
        pi_geometric_bound(),
        pi_step14_fails(),
        pi_corrected_constant(),
        pi_counterexample(),
    ]
