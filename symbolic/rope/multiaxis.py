r"""Multi-axis RoPE (topic ``multiaxis``): positions are vectors ``p`` in ``Z^A`` (time, height, width) and pair ``i``
turns by ``<omega_i, p>`` with a frequency vector ``omega_i`` per pair (RoPE-Mixed); an axis map ``a(i)`` is the
case ``omega_i = theta_i e_{a(i)}`` that M-RoPE (Qwen2-VL, Qwen3-VL) and axial 2-D RoPE (Pixtral) ship.

Proved for every even width ``d``, every number of axes ``A`` and any real frequency vectors: the score depends on
the positions only through ``p_n - p_m``. Computed (mpmath at the working precision, through
:mod:`posproof.numeric.multiaxis`): text tokens (``t = h = w``) reduce M-RoPE to 1-D RoPE with the same
frequencies in both layouts; which frequencies each axis gets, chunked against interleaved; and the
commuting-generator theorem's two sides, ``R(p)^T R(p') = R(p' - p)`` for commuting skew-symmetric generators in a
rotated basis, and a counterexample with two non-commuting ones.

>>> [c.id for c in claims()][:1]
['multiaxis-score-relative']
"""

from __future__ import annotations

import random

import mpmath
import sympy as sp
from posproof.numeric import multiaxis
from posproof.numeric.rotary import rope_mp
from posproof.symbolic import tables
from posproof.symbolic.engine.core import Domain, Fact, Step, Theorem
from posproof.symbolic.rope.rotary import SYMMETRY, new_angles, rotated_pair
from posproof.symbolic.symbols import TH_real as TH
from posproof.symbolic.symbols import d_even as d
from posproof.symbolic.symbols import k, m, n, q

TOPIC = "multiaxis"
MIXED = "Heo et al. 2024, 'Rotary Position Embedding for Vision Transformer' (RoPE-Mixed, arXiv 2403.13298)"
COMROPE = "Yu et al. 2025, 'ComRoPE' (arXiv 2506.03737)"
RETHINKING = "Liu et al. 2025, 'Rethinking RoPE' (arXiv 2504.06308)"
LIERE = "Ostmeier et al. 2024, 'LieRE' (arXiv 2406.10322)"
QWEN_VL = "Hugging Face transformers: Qwen2-VL (apply_multimodal_rotary_pos_emb), Qwen3-VL (apply_interleaved_mrope)"
PIXTRAL = "Hugging Face transformers: Pixtral (PixtralRotaryEmbedding)"

# ---- symbols ---------------------------------------------------------------------------------------------------
#: The number of position axes (time, height, width: 3 for M-RoPE, 2 for axial RoPE; any positive integer here).
A = sp.Symbol("A", integer=True, positive=True)
i = sp.Symbol("i", integer=True, nonnegative=True)  # pair index 0 .. d/2 - 1
a = sp.Symbol("a", integer=True, nonnegative=True)  # axis index 0 .. A - 1
#: Frequency vectors omega_i (any reals: an axis map puts theta_i on one axis and 0 elsewhere).
W = sp.IndexedBase("omega", real=True)
#: The query's and the key's position vectors (integers of any sign, per axis).
P = sp.IndexedBase("p", integer=True)
Q = sp.IndexedBase("pprime", integer=True)

SIZES = {d: (2, 6), A: (1, 3)}  # 1 and 3 planes, 1 and 3 axes (M-RoPE has 3)


def angle(pos):
    r"""``<omega_i, p> = sum_a omega_{i,a} p_a``: the angle pair ``i`` turns by at position vector ``p``."""
    return sp.Sum(W[i, a] * pos[a], (a, 0, A - 1))


def _planes(f):
    return sp.Sum(f, (i, 0, d / 2 - 1))


def _relative(q0, q1, k0, k1, phi):
    c, s = sp.cos(phi), sp.sin(phi)
    return q0 * (k0 * c - k1 * s) + q1 * (k0 * s + k1 * c)


# ---- named symbols for the short statement -------------------------------------------------------------------
_R = {x: sp.MatrixSymbol(f"R_{{{x}}}", d, d) for x in ("p", "p'", "p' - p")}
_qv, _kv = sp.MatrixSymbol("q", d, 1), sp.MatrixSymbol("k", d, 1)


def score_relative() -> Theorem:
    q0, q1, k0, k1 = q[2 * i], q[2 * i + 1], k[2 * i], k[2 * i + 1]
    rq, rk = rotated_pair(q0, q1, angle(P)), rotated_pair(k0, k1, angle(Q))
    lhs = _planes(rq[0] * rk[0] + rq[1] * rk[1])
    e1 = _planes(_relative(q0, q1, k0, k1, angle(Q) - angle(P)))
    difference = sp.Sum(W[i, a] * (Q[a] - P[a]), (a, 0, A - 1))
    rhs = _planes(_relative(q0, q1, k0, k1, difference))
    wrong = _planes(_relative(q0, q1, k0, k1, sp.Sum(W[i, a] * (Q[a] + P[a]), (a, 0, A - 1))))
    return Theorem(
        "multiaxis-score-relative",
        r"For every even $d$, every number of axes $A$ and any frequency vectors $\omega_i$: "
        r"$(R_p q)^T (R_{p'} k) = q^T R_{p' - p} k$",
        TOPIC,
        f"{MIXED}; {QWEN_VL}; {PIXTRAL}",
        steps=(
            Step(
                lhs,
                e1,
                r"per plane, $R(\alpha)^T R(\beta) = R(\beta - \alpha)$ with $\alpha = \langle \omega_i, p \rangle$, "
                r"$\beta = \langle \omega_i, p' \rangle$ (angle differences)",
                ("expand", "expand_trig", "expand"),
            ),
            Step(
                e1,
                rhs,
                r"the angle is linear in the position: $\langle \omega_i, p' \rangle - \langle \omega_i, p \rangle "
                r"= \langle \omega_i, p' - p \rangle$",
                ("expand", "factor_terms"),
            ),
        ),
        assumptions=(
            r"$d$ even, planes $i = 0, \dots, d/2 - 1$ on channels $(2i, 2i + 1)$ (the half layout is a permutation "
            "of the channels: [[claim:rope-layout-permutation]])",
            r"$A \ge 1$ axes; positions $p, p' \in \mathbb{Z}^A$; $\omega_i \in \mathbb{R}^A$ arbitrary (an axis "
            r"map: $\omega_i = \theta_i e_{a(i)}$)",
            "$q, k$ real vectors",
        ),
        formula=sp.Eq(
            sp.MatMul(sp.Transpose(sp.MatMul(_R["p"], _qv)), sp.MatMul(_R["p'"], _kv)),
            sp.MatMul(sp.Transpose(_qv), _R["p' - p"], _kv),
            evaluate=False,
        ),
        sizes=SIZES,
        notes="M-RoPE (chunked or interleaved) and axial 2-D RoPE are axis maps, so each is relative in the vector "
        "difference of positions, per axis and jointly.",
        wrong=wrong,
    )


# ---- facts ----------------------------------------------------------------------------------------------------

#: The configurations the facts compute: (name, sections or None for axial, interleaved, head width, base).
CONFIGS = (
    ("Qwen2-VL chunked [16, 24, 24]", (16, 24, 24), False, 128, 1000000),
    ("Qwen3-VL interleaved [24, 20, 20]", (24, 20, 20), True, 128, 5000000),
)


def _axes(sections, interleaved):
    return multiaxis.mrope_axes(list(sections), interleaved=interleaved)


def _text_tokens(dps: int, text_axis_only: bool = False):
    rng = random.Random("multiaxis-text-tokens")
    value, rows = {}, []
    for name, sections, interleaved, width, base in CONFIGS:
        x = [[rng.uniform(-1, 1) for _ in range(width)] for _ in range(3)]
        m = [0, 7, 4095]
        pos = [[p, 0, 0] if text_axis_only else [p, p, p] for p in m]
        got = multiaxis.rope_multiaxis_mp(x, pos, axes=_axes(sections, interleaved), base=base, dps=dps)
        ref = rope_mp(x, m, base=base, layout="half", dps=dps)
        gap = max(abs(g - r) for gr, rr in zip(got, ref, strict=True) for g, r in zip(gr, rr, strict=True))
        value[name] = "equals 1-D RoPE" if gap == 0 else "differs from 1-D RoPE"
        rows.append((f"{name}: " + r"$\max |\operatorname{M-RoPE}(x, (m, m, m)) - \mathrm{RoPE}(x, m)|$", gap))
    return value, rows


def text_tokens() -> Fact:
    return Fact(
        "multiaxis-text-tokens-reduce",
        "Text tokens ($t = h = w = m$) reduce M-RoPE to 1-D RoPE with the same frequencies, chunked and "
        "interleaved (computed for Qwen2-VL's and Qwen3-VL's sections)",
        TOPIC,
        QWEN_VL,
        "Rows of three seeded vectors at positions m = 0, 7, 4095 given to M-RoPE as (m, m, m): every pair turns by "
        r"$\theta_i m$ whichever axis it reads, so the rotation is 1-D RoPE's exactly (the same mpmath numbers).",
        {name: "equals 1-D RoPE" for name, *_ in CONFIGS},
        _text_tokens,
        "mpmath at {dps} digits (numeric.multiaxis.rope_multiaxis_mp against numeric.rotary.rope_mp, half layout)",
        wrong=lambda dps: _text_tokens(dps, text_axis_only=True),
        formula=sp.Eq(sp.MatrixSymbol("R_{(m, m, m)}", d, d), sp.MatrixSymbol("R_m", d, d), evaluate=False),
        notes=r"Text tokens at $(m, 0, 0)$ would carry the position on the $t$ axis only, the bug "
        "class 'text tokens not mapped to t = h = w'.",
    )


def _bands(dps: int, swap_layout: bool = False):
    value, rows = {}, []
    with mpmath.workdps(dps):
        for name, sections, interleaved, width, base in CONFIGS:
            axes = _axes(sections, interleaved != swap_layout).tolist()
            theta = [mpmath.mpf(base) ** (-mpmath.mpf(2 * j) / width) for j in range(width // 2)]
            for axis, label in enumerate("thw"):
                pairs = [j for j, ax in enumerate(axes) if ax == axis]
                waves = [2 * mpmath.pi / theta[j] for j in pairs]
                value[f"{name}: {label} pairs"] = f"{pairs[0]}..{pairs[-1]}"
                rows.append((f"{name}: axis {label}: pairs, shortest and longest wavelength (tokens)",
                             [len(pairs), min(waves), max(waves)]))  # fmt: skip
    return value, rows


def layout_bands() -> Fact:
    return Fact(
        "multiaxis-layout-bands",
        "Chunked M-RoPE gives each axis one band of frequencies (t the fastest, w the slowest); interleaved "
        "M-RoPE spreads every axis over the whole range (computed for Qwen2-VL's and Qwen3-VL's sections)",
        TOPIC,
        QWEN_VL,
        r"For $d = 128$: the pairs each axis turns with and the wavelengths $2\pi/\theta_i$ they span. Chunked "
        r"(Qwen2-VL, [16, 24, 24], $b = 10^6$): $t$ has pairs $0, \dots, 15$ only, $w$ pairs $40, \dots, 63$, so width "
        "positions never "
        r"see a fast frequency; interleaved (Qwen3-VL, [24, 20, 20], $b = 5 \times 10^6$) gives $t$, $h$ and $w$ pairs "
        "from the "
        "first to nearly the last: the reason Qwen3-VL interleaves.",
        {
            "Qwen2-VL chunked [16, 24, 24]: t pairs": "0..15",
            "Qwen2-VL chunked [16, 24, 24]: h pairs": "16..39",
            "Qwen2-VL chunked [16, 24, 24]: w pairs": "40..63",
            "Qwen3-VL interleaved [24, 20, 20]: t pairs": "0..63",
            "Qwen3-VL interleaved [24, 20, 20]: h pairs": "1..58",
            "Qwen3-VL interleaved [24, 20, 20]: w pairs": "2..59",
        },
        _bands,
        "exact integer arithmetic (numeric.multiaxis.mrope_axes) and mpmath at {dps} digits (wavelengths)",
        wrong=lambda dps: _bands(dps, swap_layout=True),
        formula=sp.Eq(sp.Symbol("lambda_i"), 2 * sp.pi / sp.Symbol("theta_i"), evaluate=False),
        notes="Read in the other layout (chunked where the checkpoint is interleaved), each checkpoint's "
        "sections give other wavelengths: the bug class the audit names.",
    )


def _generators(dps: int, commuting: bool):
    r"""Two skew-symmetric 4 x 4 generators: commuting ones (block-diagonal in a seeded rotated basis) or the two
    generators of so(3) embedded in 4 x 4 (which do not commute)."""
    rng = random.Random("multiaxis-generators")
    if not commuting:
        G1 = mpmath.matrix([[0, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 0]])
        G2 = mpmath.matrix([[0, 0, 1, 0], [0, 0, 0, 0], [-1, 0, 0, 0], [0, 0, 0, 0]])
        return G1, G2
    X = mpmath.matrix([[mpmath.mpf(rng.uniform(-1, 1)) for _ in range(4)] for _ in range(4)])
    U, _ = mpmath.qr(X)  # an orthogonal basis: the generators are not block-diagonal in the standard one

    def block(t0, t1):
        B = mpmath.matrix([[0, -t0, 0, 0], [t0, 0, 0, 0], [0, 0, 0, -t1], [0, 0, t1, 0]])
        return U * B * U.T

    th = [mpmath.mpf(rng.uniform(0.1, 2)) for _ in range(4)]
    return block(th[0], th[1]), block(th[2], th[3])


def _commuting(dps: int, noncommuting_first: bool = False):
    value, rows = {}, []
    rng = random.Random("multiaxis-commuting")
    with mpmath.workdps(dps + 10):
        for name, commuting in (("commuting generators, rotated basis", True), ("so(3) generators", False)):
            G1, G2 = _generators(dps, commuting and not noncommuting_first)

            def R(p, G1=G1, G2=G2):
                return mpmath.expm(p[0] * G1 + p[1] * G2)

            gap = mpmath.mpf(0)
            for _ in range(6):
                p = [mpmath.mpf(rng.randint(-20, 20)) for _ in range(2)]
                pp = [mpmath.mpf(rng.randint(-20, 20)) for _ in range(2)]
                D = R(p).T * R(pp) - R([pp[0] - p[0], pp[1] - p[1]])
                gap = max(gap, mpmath.mnorm(D, "inf"))
            holds = gap <= mpmath.mpf(10) ** (-(dps - 10))
            value[name] = "R(p)^T R(p') = R(p' - p)" if holds else "R(p)^T R(p') != R(p' - p)"
            rows.append((f"{name}: max over 6 position pairs of " + r"$|R(p)^\top R(p') - R(p' - p)|$", gap))
            rows.append((f"{name}: $|G_1 G_2 - G_2 G_1|$", mpmath.mnorm(G1 * G2 - G2 * G1, "inf")))
    return value, rows


def commuting_generators() -> Fact:
    return Fact(
        "multiaxis-commuting-generators",
        "With $R(p) = \\exp(p_1 G_1 + p_2 G_2)$ for skew-symmetric $G_a$: $R(p)^T R(p') = R(p' - p)$ for commuting "
        "generators (computed in a rotated basis at six position pairs) and not for two generators of so(3)",
        TOPIC,
        f"{COMROPE}; {RETHINKING}; {LIERE}",
        "Matrix exponentials with mpmath at the working precision. Commuting skew generators (block-diagonal in a "
        "seeded orthogonal basis, so not block-diagonal in the standard one) keep the relative property, as "
        "ComRoPE and 'Rethinking RoPE' prove (block-diagonal axis RoPE is the case every model ships); two "
        "generators of so(3), which do not commute (LieRE learns such ones), break it.",
        {
            "commuting generators, rotated basis": "R(p)^T R(p') = R(p' - p)",
            "so(3) generators": "R(p)^T R(p') != R(p' - p)",
        },
        _commuting,
        "mpmath at {dps} digits (expm), accepted when the gap is below $10^{{10}}$ units of the working precision "
        "$10^{{-{dps}}}$",
        wrong=lambda dps: _commuting(dps, noncommuting_first=True),
        formula=sp.Eq(sp.MatMul(sp.Transpose(_R["p"]), _R["p'"]), sp.MatrixSymbol("R_{p' - p}", d, d), evaluate=False),
        notes="The symbolic proof for block-diagonal generators (every model's case) is "
        "[[claim:multiaxis-score-relative]].",
    )


# ---- proportional RoPE -------------------------------------------------------------------------------------------
#: The number of rotated pairs of proportional RoPE (floor(partial_rotary_factor * d / 2)) and its factor.
r = sp.Symbol("r", integer=True, nonnegative=True)
s_factor = sp.Symbol("s", positive=True)
PROPORTIONAL = "Hugging Face transformers, modeling_rope_utils: _compute_proportional_rope_parameters (Gemma 4)"


def _proportional_theta(i_):
    return sp.Piecewise((TH[i_] / s_factor, i_ < r), (0, True))


def proportional_relative() -> Theorem:
    q0, q1, k0, k1 = q[2 * i], q[2 * i + 1], k[2 * i], k[2 * i + 1]
    th = _proportional_theta(i)
    rq, rk = rotated_pair(q0, q1, m * th), rotated_pair(k0, k1, n * th)
    lhs = _planes(rq[0] * rk[0] + rq[1] * rk[1])
    rhs = _planes(_relative(q0, q1, k0, k1, (n - m) * th))
    wrong = _planes(_relative(q0, q1, k0, k1, (n + m) * th))
    return Theorem(
        "multiaxis-proportional-relative",
        r"Proportional RoPE is relative: with $\theta'_i = \theta_i/s$ for the first $r$ pairs and $0$ for the "
        r"others, $(R'_m q)^T (R'_n k) = q^T R'_{n-m} k$ for every even $d$ and every $r$",
        TOPIC,
        PROPORTIONAL,
        steps=(
            Step(
                lhs,
                rhs,
                r"per plane, $R(m \theta'_i)^T R(n \theta'_i) = R((n - m) \theta'_i)$; a plane with "
                r"$\theta'_i = 0$ does not turn and scores $q_i \cdot k_i$ at every distance",
                ("expand", "expand_trig", "expand"),
            ),
        ),
        assumptions=(
            r"$d$ even, planes $(2i, 2i + 1)$, $i = 0, \dots, d/2 - 1$; $0 \le r$ rotated pairs "
            r"($r = \lfloor p d / 2 \rfloor$ for `partial_rotary_factor` $p$)",
            r"$\theta_i$ any reals (transformers: $b^{-2i/d}$, the exponent over the whole head); factor $s > 0$",
            "$q, k$ real vectors; $m, n$ integer positions",
        ),
        formula=sp.Eq(
            sp.MatMul(
                sp.Transpose(sp.MatMul(sp.MatrixSymbol("R'_m", d, d), _qv)),
                sp.MatMul(sp.MatrixSymbol("R'_n", d, d), _kv),
            ),
            sp.MatMul(sp.Transpose(_qv), sp.MatrixSymbol("R'_{n-m}", d, d), _kv),
            evaluate=False,
        ),  # fmt: skip
        sizes={d: (2, 4, 8)},
        # r from 0 (nothing turns) to d/2 (everything turns), so that both branches of theta'_i are drawn
        domains={"r": Domain("integer", 0, d / 2, edges=(0,))},
        wrong=wrong,
    )


#: Gemma-4-like head: width 256, a quarter of it rotated, base 10^6.
GEMMA4_WIDTH, GEMMA4_BASE, GEMMA4_PARTIAL = 256, 1000000.0, 0.25


def _proportional_vs_partial(dps: int, over_rotary_width: bool = False):
    from posproof.numeric.multiaxis import proportional_inv_freq
    from posproof.numeric.scaling.rules import RopeScaling

    d, b, p = GEMMA4_WIDTH, GEMMA4_BASE, GEMMA4_PARTIAL
    prop: list[float] = proportional_inv_freq(d, base=b, partial_rotary_factor=p).tolist()
    if over_rotary_width:  # the wrong computation: the exponent over the rotated width, as partial rotary does
        head = proportional_inv_freq(int(p * d), base=b, partial_rotary_factor=1.0).tolist()
        prop = head + [0.0] * (d // 2 - int(p * d) // 2)
    partial = RopeScaling.from_mapping(
        d, base=b, scaling={"rope_type": "default", "partial_rotary_factor": p}
    ).inv_freq()[0]
    rotated = [t for t in prop if t != 0]
    value = {
        "proportional: pairs that turn": len(rotated),
        "proportional: pairs in the output": len(prop),
        "partial rotary: pairs (the rest of the head passes through)": len(partial),
        "the same frequencies": bool(len(rotated) == len(partial) and all(
            abs(x - y) <= 1e-12 * y for x, y in zip(rotated, partial, strict=True))),
    }  # fmt: skip
    rows = [
        (r"proportional $\theta_1 = b^{-2/256}$", prop[1]),
        (r"partial rotary $\theta_1 = b^{-2/64}$", partial[1]),
        (r"proportional $\theta_{31} = b^{-62/256}$", prop[31]),
        (r"partial rotary $\theta_{31} = b^{-62/64}$", partial[31]),
    ]
    return value, rows


def proportional_vs_partial() -> Fact:
    return Fact(
        "multiaxis-proportional-vs-partial",
        "Proportional RoPE is not partial rotary: at $d = 256$ with a quarter rotated, both turn 32 pairs, but "
        "proportional takes $b^{-2i/256}$ and keeps all 128 pairs in the output, partial rotary $b^{-2i/64}$ over "
        "64 channels",
        TOPIC,
        PROPORTIONAL,
        "Gemma-4-like head (d = 256, partial_rotary_factor 0.25, b = 10^6): numeric.multiaxis.proportional_inv_freq "
        "against numeric.scaling's partial rotary frequencies.",
        {
            "proportional: pairs that turn": 32,
            "proportional: pairs in the output": 128,
            "partial rotary: pairs (the rest of the head passes through)": 32,
            "the same frequencies": False,
        },
        _proportional_vs_partial,
        "NumPy float64 (numeric.multiaxis.proportional_inv_freq, numeric.scaling.RopeScaling)",
        wrong=lambda dps: _proportional_vs_partial(dps, over_rotary_width=True),
        formula=sp.Eq(sp.Symbol("theta'_i"), sp.Piecewise((sp.Symbol("b") ** (-2 * i / d), i < r), (0, True))),
        notes="With the exponent over the rotated width, as partial rotary does, the "
        "32 turning frequencies would be partial rotary's.",
    )


def claims() -> list:
    return [
        score_relative(),
        text_tokens(),
        layout_bands(),
        commuting_generators(),
        proportional_relative(),
        proportional_vs_partial(),
    ]


# ---- the rules table: M-RoPE's and axial 2-D RoPE's row (symbolic.tables) --------------------------------------


def _text_token_lengths(v, L0: int, L: int) -> str:
    return "text tokens (t = h = w) as RoPE: " + new_angles("default").show(v, L0, L)


RULES_ROWS = (
    tables.Row(
        180,
        "M-RoPE, axial 2-D",
        # tokens m, n at position vectors p_m, p_n (t, h, w or row, column)
        tables.phi(sp.MatMul(tables.vec("q").T, sp.MatrixSymbol("R_{p_n - p_m}", tables.d, tables.d), tables.vec("k"))),
        (
            tables.Cell(
                "properties-rope-monotone-range",
                read=tables.key("default"),
                note="text tokens ($t = h = w$), as RoPE; $q = k$, $d = 128$",
            ),
            tables.Cell("multiaxis-score-relative", "holds", note="per axis and jointly: any shift vector $t$"),
            SYMMETRY,
        ),
        tables.Length("properties-length-rope", _text_token_lengths),
    ),
)
