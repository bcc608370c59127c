r"""The three rules for RoPE, its context-extension rules and xPos: the odd part of a plane's score, how far
``φ(0, r)`` falls under each rule, xPos's relative form and its asymmetry."""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp
from posproof.numeric.scaling.rules import ROPE_TYPES, rope_inv_freq
from posproof.symbolic import sources, tables
from posproof.symbolic.engine.core import Fact, Step, Theorem
from posproof.symbolic.properties.common import RULES_SOURCE, TOPIC, identity, u, varphi
from posproof.symbolic.rope.rotary import rotated_pair
from posproof.symbolic.scaling import common
from posproof.symbolic.symbols import A, k, m, n, q, theta_real

# ================================================================================================================
# RoPE, its context-extension rules, and xPos.
# ================================================================================================================

a = sp.Symbol("a", real=True)  # a pair's frequency (θ_i, or f_i θ_i under a scaling rule)


def plane_score(pm, pn, freq=a, scale_q=A, scale_k=A):
    r"""One plane's score ``(scale_q R(pm·freq) q)^T (scale_k R(pn·freq) k)`` with pairs ``q``, ``k``."""
    rq = rotated_pair(scale_q * q[0], scale_q * q[1], pm * freq)
    rk = rotated_pair(scale_k * k[0], scale_k * k[1], pn * freq)
    return rq[0] * rk[0] + rq[1] * rk[1]


def rope_odd_part() -> Theorem:
    lhs = sp.Add(plane_score(m, n), sp.Mul(-1, plane_score(n, m), evaluate=False), evaluate=False)
    rhs = 2 * A**2 * (q[1] * k[0] - q[0] * k[1]) * sp.sin((n - m) * a)
    return identity(
        "properties-rope-odd-part",
        r"RoPE, any frequency and attention factor: $\varphi(m, n) - \varphi(n, m) = 2A^2 (q_1 k_0 - q_0 k_1) "
        r"\sin((n - m) a)$ per plane",
        f"{RULES_SOURCE}; {sources.ROFORMER}; {sources.HF_ROPE}",
        [Step(lhs, rhs, "angle addition; the even (cosine) parts cancel", ("expand", "expand_trig", "expand"))],
        assumptions=(
            "one plane: $q = (q_0, q_1)$, $k = (k_0, k_1)$ real, $m$, $n$ integer positions",
            r"$a$ real: the plane's frequency $\theta_i$, or $f_i \theta_i$ under any scaling rule; "
            "$A > 0$ the attention factor",
        ),
        notes=(
            r"The score is a sum of planes, so $\varphi(m, n) = \varphi(n, m)$ for all $m$, $n$ exactly when "
            r"every plane has $q_1 k_0 = q_0 k_1$ (e.g. $q = k$), and fails otherwise ($q = (1, 0)$, $k = (0, "
            r"1)$, $a(n - m) = 1$ gives $-2A^2 \sin 1$). So the difference is not "
            r"identically 0: RoPE scores are not symmetric."
        ),
        wrong=sp.Integer(0),
        formula=sp.Eq(varphi(m, n) - varphi(n, m), rhs),
    )


#: RoPE and its context-extension rules at one configuration: d = 128, b = 10^4, L0 = 4096, s = 4 (the target
#: 16384); Llama 3's band factors 1 and 4; LongRoPE's per-pair factors a stated ramp from 1 to s.
ROPE_WIDTH, ROPE_BASE, ROPE_L0, ROPE_FACTOR = 128, 10000.0, 4096, 4.0


def longrope_ramp(width: int, factor: float) -> list[float]:
    r"""LongRoPE's per-pair factors ``ext_i`` (searched per model in the paper); here the stated ramp
    ``1 + (s - 1) i / (d/2 - 1)``."""
    h = width // 2
    return [1 + (factor - 1) * i / (h - 1) for i in range(h)]


def rule_scaling(rule: str, width: int, L0: int, factor: float, L: int) -> tuple[dict, dict]:
    r"""The scaling mapping and keyword arguments of ``rule`` (numeric.scaling) trained at ``L0``, at length ``L``."""
    if rule == "default":
        return {}, {}
    mapping: dict = {"rope_type": rule, "factor": factor}
    kw: dict = {}
    if rule == "dynamic":
        kw = {"seq_len": L, "max_position_embeddings": L0}
    if rule in ("yarn", "llama3", "longrope"):
        mapping["original_max_position_embeddings"] = L0
    if rule == "llama3":
        mapping |= {"low_freq_factor": 1.0, "high_freq_factor": 4.0}
    if rule == "longrope":
        ramp = longrope_ramp(width, factor)
        mapping |= {"short_factor": ramp, "long_factor": ramp}
        kw = {"seq_len": L}
    return mapping, kw


def monotone_range(phi: np.ndarray) -> int:
    r"""The largest ``K`` with ``φ(0) > φ(1) > ... > φ(K)``; every compared gap must exceed 1e-9 (float64 errors
    are ~1e-13 here), else ``ValueError``."""
    gaps = np.diff(phi)
    K = int(np.argmax(gaps >= 0)) if np.any(gaps >= 0) else len(gaps)
    if np.min(np.abs(gaps[: K + 1])) <= 1e-9:
        raise ValueError("a gap of φ is within float64 error: the range is not decided")
    return K


def _rope_rules(dps: int, scaled: bool = True):
    r = np.arange(200)
    value, rows = {}, []
    for rule in ROPE_TYPES:
        scaling, kw = rule_scaling(rule, ROPE_WIDTH, ROPE_L0, ROPE_FACTOR, int(ROPE_FACTOR * ROPE_L0))
        inv, af = rope_inv_freq(ROPE_WIDTH, base=ROPE_BASE, scaling=scaling if scaled else {}, **(kw if scaled else {}))
        # q = k = (1, 0) in every plane: (A R'_0 q)^T (A R'_r k) = A² Σ_i cos(r θ'_i) (extension-scaled-rope-relative)
        phi = af**2 * np.cos(np.outer(r, inv)).sum(axis=1)
        value[rule] = monotone_range(phi)
        rows.append(
            (
                f"{rule}: " + r"$\varphi(0)$, $\varphi(K)$, $\varphi(K + 1)$",
                [phi[0], phi[value[rule]], phi[value[rule] + 1]],
            )
        )
    return value, rows


def rope_rules() -> Fact:
    return Fact(
        "properties-rope-monotone-range",
        r"RoPE and its context-extension rules ($d = 128$, $b = 10^4$, $L_0 = 4096$, $s = 4$): how far "
        r"$\varphi(0, r)$ falls",
        TOPIC,
        f"{RULES_SOURCE}; {sources.ROFORMER}; {sources.HF_ROPE}",
        r"$q = k = (1, 0)$ in every plane, so $\varphi(0, r) = (A R'_0 q)^{\top} (A R'_r k) = A^2 \sum_i "
        r"\cos(r \theta'_i)$ ([[claim:extension-scaled-rope-relative]]), with each rule's $\theta'_i$ and $A$ from "
        "numeric.scaling.rope_inv_freq (dynamic at length 16384; Llama 3 with band factors 1 and 4; LongRoPE with "
        r"the ramp $\mathrm{ext}_i = 1 + 3i/63$): the largest $K$ with $\varphi(0) > \varphi(1) > \dots > "
        r"\varphi(K)$. Only Position Interpolation stretches the range; the others keep the fast "
        "pairs that decide it.",
        {"default": 11, "linear": 23, "ntk": 11, "dynamic": 11, "yarn": 11, "llama3": 11, "longrope": 11},
        _rope_rules,
        method="NumPy float64 (numeric.scaling.rope_inv_freq); every compared gap exceeds $10^{{-9}}$",
        wrong=lambda dps: _rope_rules(dps, scaled=False),
        notes="With q = k the score is symmetric ([[claim:properties-rope-odd-part]]); other q, k give other "
        "curves, so the "
        "range is stated for this one. Without the scaling (the unscaled frequencies: a "
        "bug seen in ports) the ranges are RoPE's.",
        formula=sp.Gt(varphi(0, u), varphi(0, u + 1)),
    )


zeta = sp.Symbol("zeta", positive=True)
gamma = sp.Symbol("gamma", positive=True)


def _relative_plane(angle):
    return (q[0] * k[0] + q[1] * k[1]) * sp.cos(angle) + (q[1] * k[0] - q[0] * k[1]) * sp.sin(angle)


def xpos_relative() -> Theorem:
    lhs = plane_score(m, n, theta_real, zeta ** (m / gamma), zeta ** (-n / gamma))
    rhs = zeta ** ((m - n) / gamma) * _relative_plane((n - m) * theta_real)
    return identity(
        "properties-xpos-relative",
        r"xPos, per plane: $(\zeta^{m/\gamma} R(m\theta) q)^T (\zeta^{-n/\gamma} R(n\theta) k) = "
        r"\zeta^{(m-n)/\gamma} q^T R((n - m)\theta) k$",
        f"{RULES_SOURCE}; {sources.XPOS}",
        [
            Step(
                lhs,
                rhs,
                r"angle-addition formulas; $\zeta^{m/\gamma} \zeta^{-n/\gamma} = \zeta^{(m-n)/\gamma}$",
                ("expand", "expand_trig", "expand", "powsimp"),
            )
        ],
        assumptions=(
            r"one plane: $q$, $k$ real pairs, query $m$ and key $n$ integer, $\theta$ real",
            r"$\zeta > 0$ the plane's decay base ($(2i + 0.4d)/(1.4d)$ in xPos), $\gamma > 0$ ($512$ in xPos): "
            r"the query is scaled by $\zeta^{m/\gamma}$, the key by $\zeta^{-n/\gamma}$",
        ),
        notes=(
            r"Every factor depends on $m - n$ only: xPos is translation invariant. For $\zeta < 1$ the factor "
            r"$\zeta^{(m-n)/\gamma}$ decays for keys before the query ($m > n$) and grows for keys after it, "
            r"so the score is not symmetric even for $q = k$ ([[claim:properties-xpos-rules]]). The exponent is "
            r"$(m - n)/\gamma$, not $(n - m)/\gamma$."
        ),
        wrong=zeta ** ((n - m) / gamma) * _relative_plane((n - m) * theta_real),
        formula=sp.Eq(varphi(m, n), zeta ** ((m - n) / gamma) * sp.Function("psi")(n - m)),
    )


XPOS_GAMMA = 512


def xpos_decay_bases(width: int) -> list:
    r"""xPos's per-pair decay bases ``ζ_i = (2i + 0.4d)/(1.4d)``, exactly (mpmath at the working precision)."""
    return [(2 * mpmath.mpf(i) + mpmath.mpf(2) * width / 5) / (mpmath.mpf(7) * width / 5) for i in range(width // 2)]


def _xpos(dps: int, sign: int = 1):
    width = ROPE_WIDTH
    thetas = [mpmath.mpf(ROPE_BASE) ** (-mpmath.mpf(2 * i) / width) for i in range(width // 2)]
    bases = xpos_decay_bases(width)

    def phi(r):  # q = k = (1, 0): Σ_i ζ_i^(r/γ) cos(r θ_i), r = m - n
        return mpmath.fsum(
            z ** (sign * mpmath.mpf(r) / XPOS_GAMMA) * mpmath.cos(r * th) for z, th in zip(bases, thetas, strict=True)
        )

    values = [phi(0)]
    while True:
        values.append(phi(len(values)))
        if values[-1] >= values[-2]:
            break
    K = len(values) - 2
    value = {"monotone up to $m - n$": K, r"$\varphi(5, 0) < \varphi(0, 5)$": bool(phi(5) < phi(-5))}
    return value, [
        *value.items(),
        (r"$\varphi(5, 0)$, $\varphi(0, 5)$", [phi(5), phi(-5)]),
        (r"$\varphi(K)$, $\varphi(K + 1)$", values[-2:]),
    ]


def xpos_rules() -> Fact:
    return Fact(
        "properties-xpos-rules",
        r"xPos ($d = 128$, $b = 10^4$, $\gamma = 512$), $q = k$: $\varphi$ falls up to $m - n = 11$, and a key "
        "before the query scores below its mirror",
        TOPIC,
        f"{RULES_SOURCE}; {sources.XPOS}",
        r"$q = k = (1, 0)$ in every plane: $\varphi(m, n) = \sum_i \zeta_i^{(m-n)/\gamma} \cos((m - n)\theta_i)$ "
        r"with $\zeta_i = (2i + 0.4d)/(1.4d)$ ([[claim:properties-xpos-relative]]): the largest $K$ with "
        r"$\varphi(0) > \dots > \varphi(K)$ over keys before the query, and $\varphi(5, 0)$ against "
        r"$\varphi(0, 5)$.",
        {"monotone up to $m - n$": 11, r"$\varphi(5, 0) < \varphi(0, 5)$": True},
        _xpos,
        method="mpmath at {dps} digits",
        wrong=lambda dps: _xpos(dps, sign=-1),
        notes=(
            r"The decay is slow ($\zeta_0^{11/512} = 0.973$): over the short range where $\varphi$ falls, the "
            r"cosine sum decides, as for RoPE ([[claim:properties-rope-monotone-range]]). With the "
            r"exponent $(n - m)/\gamma$ the mirror comparison flips."
        ),
        formula=sp.Lt(varphi(5, 0), varphi(0, 5)),
    )


def claims() -> list:
    return [
        rope_odd_part(),
        rope_rules(),
        xpos_relative(),
        xpos_rules(),
    ]


# ---- the rules table: LongRoPE's and xPos's rows (symbolic.tables) ---------------------------------------------


def _xpos_phi():
    zeta, gamma = sp.IndexedBase("zeta")[tables.i], sp.Symbol("gamma", positive=True)
    m_, n_ = tables.m, tables.n
    return tables.phi(tables.pairs(zeta ** ((m_ - n_) / gamma) * sp.Function("psi_i")(n_ - m_)))


def _xpos_lengths(v, L0: int, L: int) -> str:
    return (
        f"{v['xpos: angles']} of 64 pairs see new angles; "
        f"{v['xpos: pairs with decay factors below training']} pairs new decay factors (d = 128)"
    )


RULES_ROWS = (
    common.rule_row(170, "RoPE + LongRoPE", "longrope"),
    tables.Row(
        190,
        "xPos",
        _xpos_phi(),
        (
            tables.Cell(
                "properties-xpos-rules",
                read=tables.key("monotone up to $m - n$"),
                note="$q = k$, keys before the query",
            ),
            tables.Cell("properties-xpos-relative", "holds"),
            tables.Cell(
                "properties-xpos-rules",
                read=tables.negated(r"$\varphi(5, 0) < \varphi(0, 5)$"),
                note="even for $q = k$",
            ),
        ),
        tables.Length("properties-length-rope", _xpos_lengths),
    ),
)
