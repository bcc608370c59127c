r"""Position Interpolation (``rope_type`` ``linear``, Chen et al. 2023): every interpolated angle stays in the
trained range, and the code's frequencies ``theta_i/s`` (:class:`LinearInvFreq`, the kernel)."""

from __future__ import annotations

import sympy as sp
from posproof.symbolic import tables
from posproof.symbolic.engine.core import Definition, Step, Theorem
from posproof.symbolic.scaling import common
from posproof.symbolic.scaling.common import (
    BASE_INT,
    CHEN,
    FACTOR_INT,
    HF,
    L0,
    PAIR,
    THETA_PRIME,
    TOPIC,
    RuleInvFreq,
    b,
    exact_float,
    i,
    identity,
    s,
)
from posproof.symbolic.symbols import d_even, theta_i


class LinearInvFreq(RuleInvFreq):
    r"""``theta'_i`` of ``{"rope_type": "linear", "factor": s}`` (args ``i, d, b, s``)."""

    nargs = 4
    rule = "linear"

    @classmethod
    def scaling_of(cls, factor):
        return {"rope_type": "linear", "factor": exact_float(factor)}, {}


# ==============================================================================================================
# Position Interpolation (linear).
# ==============================================================================================================

eps = sp.Symbol("epsilon", positive=True)
pos = sp.Symbol("m", integer=True, nonnegative=True)  # a position of the extended window


def pi_angle_in_range() -> Theorem:
    factor = (pos + eps) / L0  # s, from s L_0 = m + epsilon
    angle = sp.Mul(pos, theta_i, sp.Pow(factor, -1, evaluate=False), evaluate=False)  # m theta_i / s
    inside = L0 * pos * theta_i / (pos + eps)
    return identity(
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
        notes=(
            r"Training shows pair $i$ the angles $m \theta_i$, $m < L_0$, all in $[0, L_0 \theta_i)$. The "
            r"interpolated angles reach $(L_0 - 1/s) \theta_i$ at $m = s L_0 - 1$: beyond the largest trained "
            r"angle $(L_0 - 1) \theta_i$ for $s > 1$, but still below $L_0 \theta_i$. So "
            r"$(L_0 - 1) \theta_i$ is not an upper bound."
        ),
        wrong=(L0 - 1) * theta_i,
    )


def linear_definition() -> Definition:
    return Definition(
        "extension-linear-inv-freq",
        r"Position Interpolation in the code: $\theta'_i = \theta_i/s$",
        TOPIC,
        f"{CHEN}; {HF}",
        LinearInvFreq(i, d_even, b, s),
        b ** (-2 * i / d_even) / s,
        r"positions $m \to m/s$ are frequencies $\theta_i \to \theta_i/s$",
        "numeric.scaling.rope_inv_freq_mp (rope_type 'linear')",
        assumptions=(
            r"$d$ even, $i = 0, \dots, d/2 - 1$",
            r"$b > 1$ the base, $s \ge 1$ the factor (drawn as integers)",
        ),
        formula=sp.Eq(THETA_PRIME[i], b ** (-2 * i / d_even) / s, evaluate=False),
        sizes={d_even: (2, 8, 128)},
        domains={"i": PAIR, "b": BASE_INT, "s": FACTOR_INT},
        wrong=s * b ** (-2 * i / d_even),
    )


def claims() -> list:
    return [
        pi_angle_in_range(),
        linear_definition(),
    ]


# ---- the rules table and printing (symbolic.tables) ------------------------------------------------------------

RULES_ROWS = (common.rule_row(120, "RoPE + linear (PI)", "linear"),)
SYMBOLS = (common.FREQUENCY,)


# ---- the texts: the statements of the article and the RoPE note that this module's claims decide ---------------
# (symbolic.tables; the first number is the statement's place in the texts, the verdicts are V verified, C corrected,
# R holds on a range, X not checkable)


def _annotations() -> tuple[tables.Annotation, ...]:
    n, T = tables.in_note, tables.T
    V, C, R, X = tables.ANNOTATION_VERDICTS
    return (
        # the RoPE note: Position rules affect context extension
        n(1070, T[2], "Changing a RoPE scale can permit longer inputs", "Changing the RoPE scale can permit longer "
          "inputs.", V, "extension-pi-angle-in-range", note="Position Interpolation keeps every angle in the trained "
          "range"),
    )  # fmt: skip


ANNOTATIONS = _annotations()
