r"""Vision and diffusion RoPE (topic ``multiaxis``): per-axis frequency ladders (FLUX ``axes_dim``), shared- and
split-frequency axial 2-D RoPE, continuous coordinates with a phase at the origin (DINOv3), and explicit per-pair
axis maps (Ernie 4.5-VL).

Proved for every even width ``d``, any axis map ``a(i)`` (any number of axes), any real frequencies and phases and
real coordinates: pair ``i`` turning by ``theta_i p_{a(i)} + phi_i`` scores ``(q, k)`` through ``p' - p`` only, the
phase cancels (multiaxis-phase-relative; :mod:`.multiaxis`'s multiaxis-score-relative is the case of frequency
vectors, integer positions and no phase); and, written axis by axis, per-axis ladders ``b^{-2j/d_a}`` for any
number of axes and any widths ``d_a`` (multiaxis-ladders-relative). Defined against their code: which frequency
each pair of a per-axis ladder, of shared axial and of split axial 2-D RoPE gets. Proved for every ``d``: split
axial gives column pair ``j`` the frequency ``theta_{2j+1} = b^{-2/d} theta_{2j}``, shared axial ``theta_{2j}``;
split axial on text tokens ``(m, m)`` is 1-D RoPE with its pairs reordered. Computed (the counterexample): shared
axial on text tokens is not 1-D RoPE.

>>> [c.id for c in claims()][:1]
['multiaxis-phase-relative']
"""

from __future__ import annotations

import random

import mpmath
import sympy as sp
from posproof.numeric import multiaxis
from posproof.numeric.multiaxis import axial_inv_freq_mp
from posproof.numeric.sinusoid import inverse_frequencies_mp
from posproof.symbolic.engine.core import Definition, Domain, Fact, Step, Theorem
from posproof.symbolic.engine.kernel import Kernel
from posproof.symbolic.engine.permutation import PermutationMap
from posproof.symbolic.rope.multiaxis import MIXED, PIXTRAL
from posproof.symbolic.rope.rotary import rotated_pair
from posproof.symbolic.symbols import TH_real as TH
from posproof.symbolic.symbols import d_even as d
from posproof.symbolic.symbols import k, m, n, q

TOPIC = "multiaxis"
FLUX = "black-forest-labs/flux: EmbedND (axes_dim [16, 56, 56], theta 10000), https://github.com/black-forest-labs/flux"
DIFFUSERS = (
    "Hugging Face diffusers: get_1d_rotary_pos_embed, FluxPosEmbed, CogVideoX get_3d_rotary_pos_embed, "
    "HunyuanVideoRotaryPosEmbed (theta 256), WanRotaryPosEmbed, https://github.com/huggingface/diffusers"
)
SHARED = (
    "timm: EVA-02 RotaryEmbeddingCat, https://github.com/huggingface/pytorch-image-models; facebookresearch/sam2: "
    "compute_axial_cis, https://github.com/facebookresearch/sam2; Hugging Face transformers: "
    "Qwen2.5-VL VisionRotaryEmbedding"
)
DINOV3 = (
    "facebookresearch/dinov3: RopePositionEmbedding (patch coordinates in [-1, 1]), "
    "https://github.com/facebookresearch/dinov3"
)
ERNIE = "Hugging Face transformers: Ernie 4.5-VL (per-pair axis map of its 3-D rotary)"

# ---- symbols ---------------------------------------------------------------------------------------------------
i = sp.Symbol("i", integer=True, nonnegative=True)  # pair index 0 .. d/2 - 1
j = sp.Symbol("j", integer=True, nonnegative=True)  # pair index within one axis
b = sp.Symbol("b", positive=True)  # base
#: The axis pair ``i`` reads: any nonnegative integer, so any number of axes.
AX = sp.IndexedBase("a", integer=True, nonnegative=True)
#: The phase of pair ``i`` at the origin (DINOv3: the angle at patch index 0; any real).
PHI = sp.IndexedBase("phi", real=True)
#: The query's and the key's coordinates per axis: real numbers (continuous coordinates, not only grid indices).
P = sp.IndexedBase("p", real=True)
Q = sp.IndexedBase("pprime", real=True)
#: Per-axis widths ``d_a`` (channels) of a three-axis ladder (time, height, width, as FLUX, CogVideoX and Wan have).
D0, D1, D2 = (sp.Symbol(f"d_{a}", integer=True, positive=True, even=True) for a in range(3))

SIZES = {d: (2, 6)}  # 1 and 3 planes; the axis map and the coordinates are drawn
#: Axial widths: multiples of 4 (d/4 pairs per axis), the smallest, a small one and EVA-02's / Pixtral's 64.
AXIAL_SIZES = {d: (4, 8, 64)}
#: Bases as configs hold them: integers, exact in float64 (HunyuanVideo's 256 and FLUX's 10^4 inside).
BASE = Domain("integer", 2, 10**6, log=True)


# ---- the code the definitions check ----------------------------------------------------------------------------


def _exact_int(x) -> int:
    if not mpmath.isint(x):
        raise ValueError(f"expected an integer, got {x}")
    return int(x)


class LadderFrequency(Kernel):
    r"""The frequency of pair ``i`` of three per-axis ladders of widths ``d_0, d_1, d_2`` (args ``i, d_0, d_1, d_2,
    b``): :func:`numeric.multiaxis.per_axis_inv_freq_mp` on :func:`numeric.multiaxis.axes_dim_axes`."""

    nargs = 5

    @classmethod
    def numeric(cls, pair, w0, w1, w2, base):
        axes_ = multiaxis.axes_dim_axes([_exact_int(w) for w in (w0, w1, w2)])
        return multiaxis.per_axis_inv_freq_mp(axes_, base=base, dps=mpmath.mp.dps)[_exact_int(pair)]

    def doit(self, **hints):
        i_, w0, w1, w2, b_ = (x.doit(**hints) for x in self.args)
        return sp.Piecewise(
            (b_ ** (-2 * i_ / w0), i_ < w0 / 2),
            (b_ ** (-2 * (i_ - w0 / 2) / w1), i_ < w0 / 2 + w1 / 2),
            (b_ ** (-2 * (i_ - w0 / 2 - w1 / 2) / w2), True),
        )

    def _latex(self, printer, exp=None):
        out = r"\theta^{\mathrm{axes}}_{%s}" % printer._print(self.args[0])
        return out if exp is None else r"\left(%s\right)^{%s}" % (out, exp)


class _AxialFrequency(Kernel):
    r"""The frequency of pair ``i`` of axial 2-D RoPE of head width ``d`` (args ``i, d, b``): row pairs ``i < d/4``,
    column pairs after."""

    nargs = 3
    name = ""

    def _latex(self, printer, exp=None):
        out = r"\theta^{\mathrm{%s}}_{%s}" % (self.name, printer._print(self.args[0]))
        return out if exp is None else r"\left(%s\right)^{%s}" % (out, exp)


class SharedAxialFrequency(_AxialFrequency):
    r"""Shared axial 2-D RoPE (EVA-02, SAM 2, Qwen2.5-VL vision): both axes on the ladder over ``d/2``
    (:func:`numeric.multiaxis.axial_inv_freq_mp`, ``frequencies="shared"``)."""

    name = "shared"

    @classmethod
    def numeric(cls, pair, width, base):
        table = axial_inv_freq_mp(_exact_int(width), base=base, dps=mpmath.mp.dps, frequencies="shared")
        return table[_exact_int(pair)]

    def doit(self, **hints):
        i_, d_, b_ = (x.doit(**hints) for x in self.args)
        return sp.Piecewise((b_ ** (-2 * i_ / (d_ / 2)), i_ < d_ / 4), (b_ ** (-2 * (i_ - d_ / 4) / (d_ / 2)), True))


class SplitAxialFrequency(_AxialFrequency):
    r"""Split axial 2-D RoPE (Pixtral): the row takes ``theta_0, theta_2, ...``, the column ``theta_1, theta_3,
    ...`` of the ladder over ``d`` (:func:`numeric.multiaxis.axial_inv_freq_mp`)."""

    name = "split"

    @classmethod
    def numeric(cls, pair, width, base):
        return axial_inv_freq_mp(_exact_int(width), base=base, dps=mpmath.mp.dps)[_exact_int(pair)]

    def doit(self, **hints):
        i_, d_, b_ = (x.doit(**hints) for x in self.args)
        row, column = b_ ** (-2 * (2 * i_) / d_), b_ ** (-2 * (2 * (i_ - d_ / 4) + 1) / d_)
        return sp.Piecewise((row, i_ < d_ / 4), (column, True))


# ---- the score: per plane, relative --------------------------------------------------------------------------


def _planes(f):
    return sp.Sum(f, (i, 0, d / 2 - 1))


def _relative(q0, q1, k0, k1, phi):
    c, s = sp.cos(phi), sp.sin(phi)
    return q0 * (k0 * c - k1 * s) + q1 * (k0 * s + k1 * c)


def _pairs(x, i_):
    return x[2 * i_], x[2 * i_ + 1]


def _angle(pos):
    r"""``theta_i p_{a(i)} + phi_i``: the angle pair ``i`` turns by at coordinates ``p``."""
    return TH[i] * pos[AX[i]] + PHI[i]


def _short(lhs_names: tuple[str, str], rhs_name: str):
    qv, kv = sp.MatrixSymbol("q", d, 1), sp.MatrixSymbol("k", d, 1)
    Rq, Rk = sp.MatrixSymbol(lhs_names[0], d, d), sp.MatrixSymbol(lhs_names[1], d, d)
    return sp.Eq(
        sp.MatMul(sp.Transpose(sp.MatMul(Rq, qv)), sp.MatMul(Rk, kv)),
        sp.MatMul(sp.Transpose(qv), sp.MatrixSymbol(rhs_name, d, d), kv),
        evaluate=False,
    )


def phase_relative() -> Theorem:
    q0, q1 = _pairs(q, i)
    k0, k1 = _pairs(k, i)
    rq, rk = rotated_pair(q0, q1, _angle(P)), rotated_pair(k0, k1, _angle(Q))
    lhs = _planes(rq[0] * rk[0] + rq[1] * rk[1])
    rhs = _planes(_relative(q0, q1, k0, k1, TH[i] * (Q[AX[i]] - P[AX[i]])))
    wrong = _planes(_relative(q0, q1, k0, k1, TH[i] * (Q[AX[i]] - P[AX[i]]) + PHI[i]))  # the phase kept once
    return Theorem(
        "multiaxis-phase-relative",
        r"With a phase at the origin and real coordinates, for every even $d$ and any axis map $a(i)$: pair $i$ "
        r"turning by $\theta_i p_{a(i)} + \varphi_i$ gives $(R_p q)^T (R_{p'} k) = q^T R_{p' - p} k$; the phase "
        "cancels",
        TOPIC,
        f"{DINOV3}; {FLUX}; {ERNIE}; {MIXED}",
        steps=(
            Step(
                lhs,
                rhs,
                r"per plane, $R(\alpha)^T R(\beta) = R(\beta - \alpha)$ with $\alpha = \theta_i p_{a(i)} + "
                r"\varphi_i$, $\beta = \theta_i p'_{a(i)} + \varphi_i$: the phase $\varphi_i$ is in both angles and "
                "cancels (Euler's formula, then the exponents add)",
                ("trig_to_exp", "expand"),
            ),
        ),
        assumptions=(
            r"$d$ even, planes $i = 0, \dots, d/2 - 1$ on channels $(2i, 2i + 1)$ (the half layout is a permutation "
            "of the channels: [[claim:rope-layout-permutation]])",
            r"any axis map $a(i) \in \{0, 1, 2, \dots\}$ (any number of axes; drawn from 4): a per-axis ladder "
            r"with widths $d_a$ is the map that gives axis $a$ a block of $d_a/2$ pairs, $\theta_i = b^{-2j/d_a}$",
            r"frequencies $\theta_i$ and phases $\varphi_i$ any reals; coordinates $p, p'$ real vectors (DINOv3's "
            r"patch centres $c = s\,p + o$ in $[-1, 1]$: angle $2\pi c/T_j$ is $\theta_i p + \varphi_i$ in the "
            "grid index)",
            "$q, k$ real vectors",
        ),
        formula=_short(("R_p", "R_{p'}"), "R_{p' - p}"),
        sizes=SIZES,
        domains={"a": Domain("integer", 0, 3, edges=(0,))},
        notes="Without phase and with integer positions this is [[claim:multiaxis-score-relative]]'s axis-map case "
        r"($\omega_i = \theta_i e_{a(i)}$), which also covers frequency vectors mixing the axes. Relative per axis: "
        "the score reads each axis's coordinates through their difference only. Were the phase "
        "kept once in the relative angle, the score would not be relative.",
        wrong=wrong,
    )


#: Per-axis ladders: the number of axes and each axis's channels ``d_a`` (even: ``d_a/2`` pairs per axis).
A = sp.Symbol("A", integer=True, positive=True)
a = sp.Symbol("a", integer=True, nonnegative=True)  # axis index 0 .. A - 1
DA = sp.IndexedBase("d", integer=True, positive=True, even=True)


def _ladders(f):
    return sp.Sum(sp.Sum(f, (j, 0, DA[a] / 2 - 1)), (a, 0, A - 1))


def ladders_relative() -> Theorem:
    th = b ** (-2 * j / DA[a])  # axis a's ladder, restarting at 1
    q0, q1, k0, k1 = q[a, 2 * j], q[a, 2 * j + 1], k[a, 2 * j], k[a, 2 * j + 1]
    rq = rotated_pair(q0, q1, th * P[a] + PHI[a, j])
    rk = rotated_pair(k0, k1, th * Q[a] + PHI[a, j])
    lhs = _ladders(rq[0] * rk[0] + rq[1] * rk[1])
    rhs = _ladders(_relative(q0, q1, k0, k1, th * (Q[a] - P[a])))
    wrong = _ladders(_relative(q0, q1, k0, k1, th * (Q[0] - P[0])))  # every axis reads the first axis's distance
    return Theorem(
        "multiaxis-ladders-relative",
        r"Per-axis ladders are relative per axis, for any number of axes $A$ and any widths $d_a$: axis $a$'s pair "
        r"$j$ turning by $b^{-2j/d_a} p_a + \varphi_{a,j}$ scores through $p'_a - p_a$ only, the phase cancels",
        TOPIC,
        f"{FLUX}; {DIFFUSERS}; {DINOV3}",
        steps=(
            Step(
                lhs,
                rhs,
                r"per plane, $R(\alpha)^T R(\beta) = R(\beta - \alpha)$: the phase $\varphi_{a,j}$ is in both angles "
                "and cancels (Euler's formula, then the exponents add)",
                ("trig_to_exp", "expand"),
            ),
        ),
        assumptions=(
            r"$A \ge 1$ axes; axis $a$ owns channels $(2j, 2j + 1)$, $j < d_a/2$, of its block $q_a$, $k_a$ of the "
            r"head ($\mathrm{axes\_dim} = [d_0, \dots, d_{A-1}]$, any even $d_a$, drawn from 2 to 6)",
            r"$b > 0$ the base; phases $\varphi_{a,j}$ any reals; coordinates $p, p' \in \mathbb{R}^A$ (continuous, "
            "not only grid indices)",
            "$q, k$ real vectors",
        ),
        formula=_short(("R_p", "R_{p'}"), "R_{p' - p}"),
        sizes={A: (1, 3)},
        domains={"d": Domain("integer", 2, 6, parity=0), "b": BASE},
        notes="The same for any frequencies in place of $b^{-2j/d_a}$ and any pair-to-axis map: "
        "[[claim:multiaxis-phase-relative]]. Reading every axis's distance off the first "
        "axis gives another score, which text tokens, with every axis equal, do not show.",
        wrong=wrong,
    )


# ---- which frequencies each axis gets ------------------------------------------------------------------------


def ladders_definition() -> Definition:
    i_ = sp.Symbol("i", integer=True, nonnegative=True)
    return Definition(
        "multiaxis-ladders-frequencies",
        r"Per-axis ladders ($\mathrm{axes\_dim} = [d_0, d_1, d_2]$): axis $a$'s pair $j$ turns at "
        r"$b^{-2j/d_a}$, $j < d_a/2$, the ladder starting again at 1 on every axis",
        TOPIC,
        f"{FLUX}; {DIFFUSERS}",
        LadderFrequency(i_, D0, D1, D2, b),
        sp.Piecewise(
            (b ** (-2 * i_ / D0), i_ < D0 / 2),
            (b ** (-2 * (i_ - D0 / 2) / D1), i_ < D0 / 2 + D1 / 2),
            (b ** (-2 * (i_ - D0 / 2 - D1 / 2) / D2), True),
        ),
        r"the axes' pairs concatenated: pair $i = o_a + j$ with $o_a = \sum_{c < a} d_c/2$ is axis $a$'s pair $j$",
        "numeric.multiaxis.per_axis_inv_freq_mp on numeric.multiaxis.axes_dim_axes (mpmath)",
        assumptions=(
            r"$d_0, d_1, d_2$ even (channels per axis), pairs $i = 0, \dots, (d_0 + d_1 + d_2)/2 - 1$",
            r"$b > 1$ the base (drawn as integers: FLUX $10^4$, HunyuanVideo 256)",
        ),
        formula=sp.Eq(sp.Symbol(r"\theta_{o_a + j}"), b ** (-2 * j / sp.Symbol("d_a")), evaluate=False),
        sizes={D0: (2, 16), D1: (6, 56), D2: (4, 56)},
        domains={"i": Domain("integer", 0, D0 / 2 + D1 / 2 + D2 / 2 - 1), "b": BASE},
        notes="FLUX: [16, 56, 56]; CogVideoX: [d/4, 3d/8, 3d/8]; Wan: [44, 42, 42] of 128. These are not "
        r"one ladder over the whole head cut into the axes' bands ($b^{-2i/(d_0 + d_1 + d_2)}$, M-RoPE's "
        "chunked scheme).",
        wrong=b ** (-2 * i_ / (D0 + D1 + D2)),
    )


def _axial_formula(kind: str):
    if kind == "shared":
        return sp.Piecewise((b ** (-2 * i / (d / 2)), i < d / 4), (b ** (-2 * (i - d / 4) / (d / 2)), True))
    return sp.Piecewise((b ** (-2 * (2 * i) / d), i < d / 4), (b ** (-2 * (2 * (i - d / 4) + 1) / d), True))


def shared_definition() -> Definition:
    return Definition(
        "multiaxis-axial-shared-frequencies",
        r"Shared axial 2-D RoPE: row pair $j$ and column pair $j$ both turn at $b^{-2j/(d/2)} = \theta_{2j}$, "
        r"$j < d/4$",
        TOPIC,
        SHARED,
        SharedAxialFrequency(i, d, b),
        _axial_formula("shared"),
        r"one ladder over $d/2$ channels per axis, the same for both axes; $b^{-2j/(d/2)} = b^{-2(2j)/d}$ is "
        r"$\theta_{2j}$ of the ladder over the head",
        'numeric.multiaxis.axial_inv_freq_mp (mpmath, frequencies="shared")',
        assumptions=(r"$d$ a multiple of 4; pairs $i < d/4$ read the row, $d/4 \le i < d/2$ the column", r"$b > 1$"),
        formula=sp.Eq(sp.Symbol(r"\theta^{\mathrm{row}}_j"), b ** (-2 * j / (d / 2)), evaluate=False),
        sizes=AXIAL_SIZES,
        domains={"i": Domain("integer", 0, d / 2 - 1), "b": BASE},
        notes="The split scheme's frequencies (Pixtral's), which share the name 'axial', are another ladder.",
        wrong=_axial_formula("split"),
    )


def split_definition() -> Definition:
    return Definition(
        "multiaxis-axial-split-frequencies",
        r"Split axial 2-D RoPE: row pair $j$ turns at $\theta_{2j}$, column pair $j$ at $\theta_{2j+1}$ of the "
        r"ladder $\theta_i = b^{-2i/d}$, $j < d/4$",
        TOPIC,
        PIXTRAL,
        SplitAxialFrequency(i, d, b),
        _axial_formula("split"),
        r"the head's ladder dealt out: even-indexed frequencies to the row, odd-indexed to the column",
        'numeric.multiaxis.axial_inv_freq_mp (mpmath, frequencies="split")',
        assumptions=(r"$d$ a multiple of 4; pairs $i < d/4$ read the row, $d/4 \le i < d/2$ the column", r"$b > 1$"),
        formula=sp.Eq(sp.Symbol(r"\theta^{\mathrm{col}}_j"), b ** (-2 * (2 * j + 1) / d), evaluate=False),
        sizes=AXIAL_SIZES,
        domains={"i": Domain("integer", 0, d / 2 - 1), "b": BASE},
        notes="The shared scheme's frequencies differ.",
        wrong=_axial_formula("shared"),
    )


def column_frequencies() -> Theorem:
    col = d / 4 + j
    split, shared = SplitAxialFrequency(col, d, b), SharedAxialFrequency(col, d, b)
    e1 = b ** (-2 * (2 * j + 1) / d)
    return Theorem(
        "multiaxis-axial-column-frequencies",
        r"Split and shared axial 2-D RoPE turn the column apart: column pair $j$ turns at $\theta_{2j+1} = "
        r"b^{-2/d}\,\theta_{2j}$ in the split scheme, at $\theta_{2j}$ in the shared one, for every $d$ and $j$",
        TOPIC,
        f"{PIXTRAL}; {SHARED}",
        steps=(
            Step(split, e1, r"split: the column's pair $j$ is $\theta_{2j+1}$", ("unfold",)),
            Step(
                e1,
                b ** (-2 / d) * shared,
                r"shared: the column's pair $j$ is $b^{-2j/(d/2)} = \theta_{2j}$, and $\theta_{2j+1} = b^{-2/d} "
                r"\theta_{2j}$",
                ("unfold", "expand"),
            ),
        ),
        assumptions=(r"$d$ a multiple of 4, column pair $j = 0, \dots, d/4 - 1$ (pair $d/4 + j$ of the head)",),
        formula=sp.Eq(
            sp.Symbol(r"\theta^{\mathrm{split}}_{d/4 + j}"),
            b ** (-2 / d) * sp.Symbol(r"\theta^{\mathrm{shared}}_{d/4 + j}"),
            evaluate=False,
        ),
        sizes=AXIAL_SIZES,
        domains={"j": Domain("integer", 0, d / 4 - 1), "b": BASE},
        notes=r"For $b > 1$, $b^{-2/d} < 1$: the two schemes differ on every column pair, so a checkpoint trained "
        "with one and run with the other turns its columns at the wrong speeds. The rows agree (both "
        r"$\theta_{2j}$: [[claim:multiaxis-axial-shared-frequencies]], "
        r"[[claim:multiaxis-axial-split-frequencies]]). The column "
        "frequencies are not equal.",
        wrong=shared,
    )


# ---- text tokens: every axis at m ------------------------------------------------------------------------------


#: The split axial rotations of a text token, the pair reordering P (u = P q), and q, k: the statement's names.
_R_TEXT = (sp.MatrixSymbol("R_{(m, m)}", d, d), sp.MatrixSymbol("R_{(n, n)}", d, d))
_PERM, _QV, _KV = sp.MatrixSymbol("P", d, d), sp.MatrixSymbol("q", d, 1), sp.MatrixSymbol("k", d, 1)


def split_text_tokens() -> Theorem:
    u, v = sp.IndexedBase("u", real=True), sp.IndexedBase("v", real=True)  # q and k with the pairs reordered
    pi = PermutationMap(d / 2, i)
    u0, u1 = _pairs(u, pi)
    v0, v1 = _pairs(v, pi)
    rq, rk = rotated_pair(u0, u1, m * TH[pi]), rotated_pair(v0, v1, n * TH[pi])
    lhs = _planes(rq[0] * rk[0] + rq[1] * rk[1])
    e1 = _planes(_relative(u0, u1, v0, v1, (n - m) * TH[pi]))
    (a0, a1), (c0, c1) = _pairs(u, i), _pairs(v, i)
    rhs = _planes(_relative(a0, a1, c0, c1, (n - m) * TH[i]))
    wrong = _planes(_relative(a0, a1, c0, c1, (n - m) * TH[pi]))
    return Theorem(
        "multiaxis-axial-split-text-tokens",
        r"Split axial 2-D RoPE on text tokens $(m, m)$ is 1-D RoPE with $d$ frequencies, its pairs reordered: pair "
        r"$i$ turning at $\theta_{\pi(i)}$ scores as 1-D RoPE, for every $d$ and every reordering $\pi$",
        TOPIC,
        PIXTRAL,
        steps=(
            Step(
                lhs,
                e1,
                r"both axes read $m$ (and $n$): pair $i$ turns by $m \theta_{\pi(i)}$; per plane, "
                r"$R(m\theta)^T R(n\theta) = R((n - m)\theta)$",
                ("expand", "expand_trig", "expand"),
            ),
            Step(e1, rhs, r"the pairs summed in another order (the commutative law of finite sums)", ("reindex",)),
        ),
        assumptions=(
            r"$d$ a multiple of 4; pair $i$ (channels $(2\pi(i), 2\pi(i) + 1)$ of $u$, $v$) turns at "
            r"$\theta_{\pi(i)}$ for a permutation $\pi$ of $\{0, \dots, d/2 - 1\}$",
            r"split axial's order is one: row pair $j \mapsto 2j$, column pair $j \mapsto 2j + 1$ "
            "([[claim:multiaxis-axial-split-frequencies]]), a bijection onto the pairs (evens and odds)",
            r"$\theta_i$ any reals; $u = P q$, $v = P k$ real vectors ($q$, $k$ with their pairs moved where $\pi$ "
            r"says); $R_{n - m}$ is 1-D RoPE's rotation with the $d$ frequencies $\theta_0, \dots, \theta_{d/2-1}$",
        ),
        formula=sp.Eq(
            sp.MatMul(sp.Transpose(sp.MatMul(_R_TEXT[0], _QV)), sp.MatMul(_R_TEXT[1], _KV)),
            sp.MatMul(sp.Transpose(sp.MatMul(_PERM, _QV)), sp.MatrixSymbol("R_{n - m}", d, d), sp.MatMul(_PERM, _KV)),
            evaluate=False,
        ),
        sizes={d: (4, 8)},
        notes="Shared axial is not: on text tokens it turns two pairs at every $\\theta_{2j}$ and none at an odd "
        "$\\theta_{2j+1}$ ([[claim:multiaxis-axial-shared-text-tokens]], computed). Reordering the "
        "frequencies but not the channels does not give it.",
        wrong=wrong,
    )


def _count(table: list, ladder: list) -> str:
    r"""How often each of the head ladder's frequencies occurs in a pair table: "x once, y twice, z never"."""
    times = [sum(1 for t in table if t == th) for th in ladder]
    unmatched = sum(1 for t in table if t not in ladder)
    out = f"{times.count(1)} once, {times.count(2)} twice, {times.count(0)} never"
    return out + (f", {unmatched} others" if unmatched else "")


#: The widths the text-token fact computes: the smallest axial head and EVA-02's / Pixtral's 64 (base 10^4).
TEXT_WIDTHS, TEXT_BASE = (4, 64), 10000


def _text_tokens(dps: int, shared_as_split: bool = False):
    value, rows = {}, []
    with mpmath.workdps(dps):
        for width in TEXT_WIDTHS:
            ladder = inverse_frequencies_mp(width, base=TEXT_BASE, dps=dps)
            split = axial_inv_freq_mp(width, base=TEXT_BASE, dps=dps)
            kind = "split" if shared_as_split else "shared"
            shared = axial_inv_freq_mp(width, base=TEXT_BASE, dps=dps, frequencies=kind)
            for name, table in (("split", split), ("shared", shared)):
                value[f"{name}, d = {width}"] = _count(table, ladder)
            if width == TEXT_WIDTHS[0]:  # the counterexample: the pairs' angles at m = 1
                rows.append((f"d = {width}, m = 1: 1-D RoPE's pairs turn by", ladder))
                rows.append((f"d = {width}, m = 1: split axial's pairs (row, column) turn by", split))
                rows.append((f"d = {width}, m = 1: shared axial's pairs (row, column) turn by", shared))
    return value, rows


def shared_text_tokens() -> Fact:
    return Fact(
        "multiaxis-axial-shared-text-tokens",
        "Shared axial 2-D RoPE is not 1-D RoPE on text tokens $(m, m)$: every $\\theta_{2j}$ turns two pairs and no "
        "pair turns at an odd $\\theta_{2j+1}$ (split axial: every $\\theta_i$ once); computed at $d = 4$, the "
        "smallest counterexample, and $d = 64$",
        TOPIC,
        f"{SHARED}; {PIXTRAL}",
        r"The frequency of each pair, matched against the head's ladder $\theta_i = b^{-2i/d}$ ($b = 10^4$) at the "
        r"working precision. At $d = 4$ and $m = 1$ shared axial turns both pairs by 1 rad, 1-D RoPE turns one by 1 "
        r"and one by $\theta_1 = 10^{-2}$ rad: no reordering of the pairs makes them agree (the rotation angles "
        "differ as multisets), so text tokens given (m, m) are not 1-D RoPE with d frequencies.",
        {
            "split, d = 4": "2 once, 0 twice, 0 never",
            "shared, d = 4": "0 once, 1 twice, 1 never",
            "split, d = 64": "32 once, 0 twice, 0 never",
            "shared, d = 64": "0 once, 16 twice, 16 never",
        },
        _text_tokens,
        "mpmath at {dps} digits (numeric.multiaxis.axial_inv_freq_mp, shared and split)",
        wrong=lambda dps: _text_tokens(dps, shared_as_split=True),
        formula=sp.Unequality(
            sp.MatrixSymbol(r"R^{\mathrm{shared}}_{(m, m)}", d, d), sp.MatrixSymbol("R_m", d, d), evaluate=False
        ),
        notes="What does hold for shared axial on text tokens: each axis is 1-D RoPE of width d/2 on its half of "
        "the head, so the score is the sum of two 1-D RoPE scores over d/2 (and relative: "
        "[[claim:multiaxis-phase-relative]]). "
        "The split scheme's frequencies give another shared table.",
    )


# ---- DINOv3: patch indices as coordinates in [-1, 1], a phase at index 0 ----------------------------------------
#: A DINOv3 ViT-B-like head (width 64, period base 100) on a 12 x 16 grid of patches (normalize_coords "separate").
DINO_WIDTH, DINO_BASE, DINO_GRID = 64, 100, (12, 16)


def _dinov3(dps: int, query_phase_only: bool = False):
    rng = random.Random("multiaxis-dinov3-phase")
    with mpmath.workdps(dps + 10):
        inv = multiaxis.dinov3_inv_freq_mp(DINO_WIDTH, base=DINO_BASE, dps=dps + 10)  # per coordinate unit
        ax = multiaxis.axial_axes(DINO_WIDTH)
        scale = [mpmath.mpf(2) / n for n in DINO_GRID]  # c = 2 (index + 1/2) / N - 1 = scale index + offset
        offset = [mpmath.mpf(1) / n - 1 for n in DINO_GRID]
        theta, phase = multiaxis.affine_frequencies_mp(inv_freq=inv, axes=ax, scale=scale, offset=offset, dps=dps + 10)
        x, y = ([mpmath.mpf(rng.uniform(-1, 1)) for _ in range(DINO_WIDTH)] for _ in range(2))

        def turned(v, index, ph):
            out = multiaxis.rope_multiaxis_mp([v], [index], axes=ax, inv_freq=theta, phase=ph, dps=dps + 10)
            return out[0]

        def score(pq, pk, with_phase):
            key_phase = None if query_phase_only else (phase if with_phase else None)
            rq, rk = turned(x, pq, phase if with_phase else None), turned(y, pk, key_phase)
            return mpmath.fsum(a * b for a, b in zip(rq, rk, strict=True))

        gap_phase, gap_shift, moved = mpmath.mpf(0), mpmath.mpf(0), mpmath.mpf(0)
        for _ in range(4):
            pq, pk = ([rng.randrange(n) for n in DINO_GRID] for _ in range(2))
            t = [rng.randint(-5, 5) for _ in DINO_GRID]
            s = score(pq, pk, True)
            gap_phase = max(gap_phase, abs(s - score(pq, pk, False)))
            shifted = score(
                [u + v for u, v in zip(pq, t, strict=True)], [u + v for u, v in zip(pk, t, strict=True)], True
            )
            gap_shift = max(gap_shift, abs(s - shifted))
            moved = max(moved, max(abs(a - b) for a, b in zip(turned(x, pq, phase), turned(x, pq, None), strict=True)))
        tol = mpmath.mpf(10) ** (-(dps - 10))
        value = {
            "scores with the phase and without": "equal" if gap_phase <= tol else "differ",
            "scores of both patches shifted by t": "equal" if gap_shift <= tol else "differ",
            "rotated queries with the phase and without": "equal" if moved <= tol else "differ",
        }
        rows = [
            (r"row pair 0: frequency per patch index, phase at index 0 ($2\pi \cdot 2/12$, $2\pi (1/12 - 1)$)",
             [theta[0], phase[0]]),
            (r"column pair 0: frequency per patch index, phase at index 0 ($2\pi \cdot 2/16$, $2\pi (1/16 - 1)$)",
             [theta[DINO_WIDTH // 4], phase[DINO_WIDTH // 4]]),
            (r"max over 4 patch pairs: $|s_\varphi(p, p') - s_0(p, p')|$ (score with the phase, without)", gap_phase),
            (r"max over 4 patch pairs and shifts $t$: $|s_\varphi(p + t, p' + t) - s_\varphi(p, p')|$", gap_shift),
            (r"max over 4 patches: $|R^\varphi_p q - R^0_p q|$ (rotated query with the phase, without)", moved),
        ]  # fmt: skip
    return value, rows


def dinov3_phase() -> Fact:
    return Fact(
        "multiaxis-dinov3-phase-cancels",
        "DINOv3's patch coordinates put a phase at index 0 on every pair: it turns each rotated query and key but "
        "no score, and the score is relative in the patch index (computed at $d = 64$ on a $12 \\times 16$ grid)",
        TOPIC,
        DINOV3,
        r"Patch centres $c_a = 2(p_a + 1/2)/N_a - 1$ make pair $i$ turn by $\omega_i c_{a(i)} = (\omega_i s_a) p_a + "
        r"\omega_i o_a$ with $\omega_i = 2\pi/T_j$, $T_j = 100^{2j/(d/2)}$, $s_a = 2/N_a$, $o_a = 1/N_a - 1$ "
        "(numeric.multiaxis.affine_frequencies_mp). With seeded q, k at four pairs of patches: the score with the "
        "phase equals the score without it, and shifting both patches by the same t leaves it unchanged, while each "
        "rotated vector moves ([[claim:multiaxis-phase-relative]], at DINOv3's numbers).",
        {
            "scores with the phase and without": "equal",
            "scores of both patches shifted by t": "equal",
            "rotated queries with the phase and without": "differ",
        },
        _dinov3,
        "mpmath at {dps} digits plus 10 guard digits (numeric.multiaxis.dinov3_inv_freq_mp, affine_frequencies_mp, "
        "rope_multiaxis_mp with phase), accepted when a gap is below $10^{{10}}$ units of the working precision "
        "$10^{{-{dps}}}$",
        wrong=lambda dps: _dinov3(dps, query_phase_only=True),
        formula=_short(("R_p", "R_{p'}"), "R_{p' - p}"),
        notes="The frequencies per patch index depend on the grid ($2/N_a$): the same image at another resolution "
        "turns its patches at other speeds, which the coordinates in $[-1, 1]$ are for. With "
        "the phase on the query only (keys built from the indices, queries from the coordinates) it no longer "
        "cancels.",
    )


def claims() -> list:
    return [
        phase_relative(),
        ladders_relative(),
        ladders_definition(),
        shared_definition(),
        split_definition(),
        column_frequencies(),
        split_text_tokens(),
        shared_text_tokens(),
        dinov3_phase(),
    ]
