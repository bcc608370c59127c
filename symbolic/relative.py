r"""The four-term attention expansion and the relative rewrites: Transformer-XL, DeBERTa, T5, ALiBi.

The seed ("Positional Encoding 101") expands ``q_m^T k_n = (W_q(x_m + p_m))^T W_k (x_n + p_n)`` into four terms
and tells how Transformer-XL, DeBERTa and T5 rewrite them so that only relative positions remain. Each rewrite
is stated here as a verified identity over symbolic widths (matrix symbols of size ``d``, or Sums over the
``h = d/2`` pairs); the discrete parts (clipping, buckets, slopes, the relative-shift trick) are computed facts.

Conventions (parameters, never assumptions): the query is at ``m`` (or ``i``), the key at ``n`` (or ``j``);
Transformer-XL and ALiBi use the distance ``m - n`` (query - key), DeBERTa ``i - j`` (query - key), T5 ``n - m``
(key - query). Sinusoids here are ``(sin, cos)`` per pair with any frequencies ``θ_i`` (the paper's
``θ_i = b^(-2i/d)`` is a special case); Transformer-XL's ``[sin | cos]`` halves are the same pairs reordered.
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from numeric import alibi, deberta, t5
from numeric.transformer_xl import rel_shift

from .core import Domain, Fact, Identity, Step

SEED = "seed 000 'Positional Encoding 101', 'Relative Positional Encoding'"
TUPE = "Ke et al. 2021, 'Rethinking Positional Encoding in Language Pre-training' (TUPE), Eq. 6"
TXL = "Dai et al. 2019, 'Transformer-XL', §3.3 and the reference code's _rel_shift"
DEBERTA = "He et al. 2021, 'DeBERTa: Decoding-enhanced BERT with Disentangled Attention', §3.1, Eq. 4"
DEBERTA_CODE = "microsoft/DeBERTa and Hugging Face DeBERTa-v2: disentangled_attention_bias, make_log_bucket_position"
T5_SRC = "Raffel et al. 2020 (T5), §2.1; Mesh TensorFlow _relative_position_bucket"
ALIBI = "Press et al. 2022, 'Train Short, Test Long' (ALiBi), §3 and the reference get_slopes"

TOPIC = "relative"


# ---- symbols, named like the math -----------------------------------------------------------------------------
d = sp.Symbol("d", integer=True, positive=True)  # width of queries and keys
h = sp.Symbol("h", integer=True, positive=True)  # number of 2-D pairs, d = 2h
i = sp.Symbol("i", integer=True, nonnegative=True)  # pair index 0 .. h-1 (and DeBERTa's query position)
j = sp.Symbol("j", integer=True)  # DeBERTa's key position
l = sp.Symbol("l", integer=True, nonnegative=True)  # component index 0 .. d-1
m, n, t = sp.symbols("m n t", integer=True)  # query position, key position, shift
k = sp.Symbol("k", integer=True, positive=True)  # DeBERTa's window
phi = sp.Symbol("phi", real=True)  # a rotation angle
THETA = sp.IndexedBase("theta", positive=True)  # frequencies θ_i (any positive values)
theta_i = THETA[i]

MAT_SIZES = {d: (2, 3)}
PAIR_SIZES = {h: (1, 2, 3)}
DOMAINS = {"theta": Domain("real", 1e-4, 1)}


def _vec(name: str) -> sp.MatrixSymbol:
    return sp.MatrixSymbol(name, d, 1)


def _sq(name: str) -> sp.MatrixSymbol:
    return sp.MatrixSymbol(name, d, d)


def pairs(f) -> sp.Sum:
    r"""``Σ_{i=0}^{h-1} f``: a sum over the ``h = d/2`` frequency pairs."""
    return sp.Sum(f, (i, 0, h - 1))


def comps(f) -> sp.Sum:
    r"""``Σ_{l=0}^{d-1} f``: a sum over the ``d`` components."""
    return sp.Sum(f, (l, 0, d - 1))


def shifted(a, s=t):
    r"""``a + s`` kept as written (so the printed derivation shows the shift before it cancels)."""
    return sp.Add(a, s, evaluate=False)


def difference(a, b):
    r"""``a - b`` kept as written."""
    return sp.Add(a, sp.Mul(-1, b, evaluate=False), evaluate=False)


def _identity(id_, title, source, steps, **kw):
    return Identity(id_, title, TOPIC, source, tuple(steps), **kw)


# ================================================================================================================
# The four-term expansion
# ================================================================================================================
W_q, W_k = _sq("W_q"), _sq("W_k")
x_m, x_n, p_m, p_n = _vec("x_m"), _vec("x_n"), _vec("p_m"), _vec("p_n")


def four_terms(q_word, q_pos_c, q_pos_d, W_word, W_pos, k_word, k_pos) -> list:
    r"""The four terms (word->word, word->position, position->word, position->position) of
    ``(q_word + q_pos)^T W (k_word + k_pos)``, each with its own query-side vector and key matrix so that the
    relative rewrites can replace them term by term."""
    return [
        q_word.T * W_word * k_word,
        q_word.T * W_pos * k_pos,
        q_pos_c.T * W_word * k_word,
        q_pos_d.T * W_pos * k_pos,
    ]


def expansion() -> Identity:
    q = sp.Transpose(W_q * (x_m + p_m))
    lhs = sp.MatMul(q, W_k, x_n + p_n)
    mid = (x_m + p_m).T * W_q.T * W_k * (x_n + p_n)
    rhs = sp.Add(*four_terms(W_q * x_m, W_q * p_m, W_q * p_m, W_k, W_k, x_n, p_n))
    return _identity(
        "attention-four-term-expansion",
        "q_m^T k_n with absolute positions expands into four terms",
        f"{SEED}; {TUPE}",
        [
            Step(lhs, mid, "(A B)^T = B^T A^T", ("expand",)),
            Step(mid, rhs, "distribute: word-word + word-position + position-word + position-position", ("expand",)),
        ],
        assumptions=("W_q, W_k are d x d; x, p are d x 1 (token embedding and absolute position code)",),
        sizes=MAT_SIZES,
        notes="Only the last term, p_m^T W_q^T W_k p_n, involves both positions; the middle two involve one "
        "absolute position each, so the score is not a function of m - n alone.",
        wrong=x_m.T * W_q.T * W_k * x_n + p_m.T * W_q.T * W_k * p_n,  # the cross terms forgotten
    )


# ---- the position->position term with sinusoids ----------------------------------------------------------------
pa, pb, pc, pe = sp.symbols("alpha beta gamma epsilon", real=True)  # a 2x2 block


def _rot(a):
    return sp.Matrix([[sp.cos(a), -sp.sin(a)], [sp.sin(a), sp.cos(a)]])


def _commutator(a, b) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix([[b, a], [a, -b]])


def rotation_commutant() -> Identity:
    B, R = sp.ImmutableMatrix([[pa, pb], [pc, pe]]), sp.ImmutableMatrix(_rot(phi))
    lhs = sp.MatMul(B, R, evaluate=False)
    rhs = sp.MatAdd(sp.MatMul(R, B, evaluate=False), sp.sin(phi) * _commutator(pe - pa, pb + pc), evaluate=False)
    return _identity(
        "attention-rotation-commutant",
        "A 2x2 block commutes with the pair rotations iff it is a I + c J",
        SEED,
        [Step(lhs, rhs, "multiply out the 2x2 products", ("doit", "expand"))],
        assumptions=("B = [[α, β], [γ, ε]] real, R(φ) the rotation by φ",),
        notes="For sin φ ≠ 0 the commutator vanishes iff ε = α and γ = -β, i.e. B = α I + γ J with "
        "J = [[0, -1], [1, 0]]: a scaled rotation. So W_q^T W_k commutes with every pair rotation R(m θ_i) "
        "(distinct θ_i) iff it is block diagonal with such blocks; W_q^T W_k = I is α = 1, γ = 0.",
        wrong=sp.MatAdd(
            sp.MatMul(R, B, evaluate=False), sp.sin(phi) * _commutator(pa - pe, pb + pc), evaluate=False
        ),  # the commutator with the wrong sign
    )


A_ = sp.IndexedBase("a", real=True)
C_ = sp.IndexedBase("c", real=True)
AL, BE, GA, EP = (sp.IndexedBase(s, real=True) for s in ("alpha", "beta", "gamma", "epsilon"))


def _pair(p):
    return sp.Matrix([sp.sin(p * theta_i), sp.cos(p * theta_i)])


def _bilinear(B) -> sp.Sum:
    r"""``p_m^T M p_n`` for block-diagonal ``M`` with blocks ``B_i``, pair by pair."""
    return pairs(sp.expand((_pair(m).T * B * _pair(n))[0, 0]))


TRIG = ("expand", "expand_trig", "expand")


def position_term_commuting() -> Identity:
    lhs = _bilinear(sp.Matrix([[A_[i], -C_[i]], [C_[i], A_[i]]]))
    rhs = pairs(A_[i] * sp.cos((m - n) * theta_i) - C_[i] * sp.sin((m - n) * theta_i))
    return _identity(
        "attention-position-term-relative",
        "Position->position with sinusoids is relative when W_q^T W_k commutes with the pair rotations",
        f"{SEED}; Vaswani et al. 2017 §3.5",
        [Step(lhs, rhs, "angle-difference formulas pair by pair", TRIG)],
        assumptions=(
            "d = 2h; p_m has pairs (sin mθ_i, cos mθ_i), any θ_i > 0",
            "W_q^T W_k = diag(B_0, ..., B_{h-1}) with B_i = a_i I + c_i J (commutes with R(mθ_i))",
        ),
        sizes=PAIR_SIZES,
        domains=DOMAINS,
        notes="With W_q^T W_k = I (a_i = 1, c_i = 0) the term is Σ_i cos((m - n) θ_i), the sinusoidal dot "
        "product. The right side depends on m and n only through m - n.",
        wrong=pairs(A_[i] * sp.cos((m - n) * theta_i) + C_[i] * sp.sin((m - n) * theta_i)),
    )


def position_term_general() -> Identity:
    lhs = _bilinear(sp.Matrix([[AL[i], BE[i]], [GA[i], EP[i]]]))
    half = sp.Rational(1, 2)
    rel = (AL[i] + EP[i]) * sp.cos((m - n) * theta_i) + (BE[i] - GA[i]) * sp.sin((m - n) * theta_i)
    absolute = (EP[i] - AL[i]) * sp.cos((m + n) * theta_i) + (BE[i] + GA[i]) * sp.sin((m + n) * theta_i)
    rhs = pairs(half * rel + half * absolute)
    return _identity(
        "attention-position-term-absolute-part",
        "For a general block the position->position term keeps a part in m + n",
        f"{SEED}; {TUPE}",
        [Step(lhs, rhs, "product-to-sum formulas pair by pair", ("expand", "expand_trig", "expand"))],
        assumptions=(
            "d = 2h; p_m has pairs (sin mθ_i, cos mθ_i), any θ_i > 0",
            "W_q^T W_k block diagonal with general blocks [[α_i, β_i], [γ_i, ε_i]]",
        ),
        sizes=PAIR_SIZES,
        domains=DOMAINS,
        notes="The m + n part vanishes for every m, n iff ε_i = α_i and γ_i = -β_i: exactly the commuting blocks "
        "of attention-rotation-commutant. Off-diagonal blocks (pairs i ≠ i') add sin(mθ_i) sin(nθ_i') "
        "terms, which are not functions of m - n either. Adding sinusoids does not make attention relative.",
        wrong=pairs(half * rel),
    )


def _counterexample(dps: int):
    rng = random.Random(3)
    dd = 4
    Wq = mpmath.matrix([[rng.randint(-3, 3) for _ in range(dd)] for _ in range(dd)])
    Wk = mpmath.matrix([[rng.randint(-3, 3) for _ in range(dd)] for _ in range(dd)])
    theta = [mpmath.mpf(10000) ** (-mpmath.mpf(2 * p) / dd) for p in range(dd // 2)]

    def pe(pos):  # interleaved (sin, cos) pairs
        return mpmath.matrix([f(pos * th) for th in theta for f in (mpmath.sin, mpmath.cos)])

    def score(M, a, b):
        return (pe(a).T * M * pe(b))[0]

    rows, verdicts = [], []
    for label, M in (("W_q^T W_k (random integers)", Wq.T * Wk), ("identity", mpmath.eye(dd))):
        values = [score(M, a, a + 3) for a in (0, 5, 10)]
        same = all(abs(v - values[0]) <= mpmath.mpf(10) ** (-(dps - 10)) for v in values)
        verdicts.append(same)
        rows += [(f"{label}: phi({a}, {a + 3})", v) for a, v in zip((0, 5, 10), values, strict=True)]
    return verdicts, rows


def position_term_counterexample() -> Fact:
    return Fact(
        "attention-position-term-not-relative",
        "Counterexample: with a general W_q^T W_k the sinusoidal position->position term is not relative",
        TOPIC,
        f"{SEED}; {TUPE}",
        "phi(m, n) = p_m^T W_q^T W_k p_n (d = 4, b = 10000) at (0, 3), (5, 8), (10, 13): the same offset m - n = -3. "
        "Claimed: [translation invariant for a random integer W_q^T W_k, translation invariant for the identity].",
        claim=[False, True],
        compute=_counterexample,
        notes="W_q and W_k are fixed 4 x 4 integer matrices (seeded); values agree to 40 digits for the identity "
        "and differ in the first digits for the general matrix.",
        wrong=[True, True],
    )


# ================================================================================================================
# Transformer-XL
# ================================================================================================================
W_kE, W_kR = _sq("W_{k,E}"), _sq("W_{k,R}")
u, v = _vec("u"), _vec("v")
R_mn = _vec("R_{m-n}")


def txl_from_four_terms() -> Identity:
    # The four terms with Transformer-XL's substitutions: key position p_n -> R_{m-n} with its own W_{k,R};
    # key content keeps W_{k,E}; the query's position W_q p_m -> u (with content keys) and v (with R).
    lhs = sp.Add(*four_terms(W_q * x_m, u, v, W_kE, W_kR, x_n, R_mn))
    rhs = (W_q * x_m + u).T * W_kE * x_n + (W_q * x_m + v).T * W_kR * R_mn
    return _identity(
        "txl-from-four-terms",
        "Transformer-XL rewrites the four terms; the code adds u, v to the query",
        TXL,
        [
            Step(
                lhs,
                rhs,
                "collect the terms sharing a key: (a)+(c) with W_{k,E} x_n, (b)+(d) with W_{k,R} R_{m-n}",
                ("expand",),
            )
        ],
        assumptions=(
            "the four terms of attention-four-term-expansion with p_n -> R_{m-n} (own W_{k,R}), "
            "W_k x_n -> W_{k,E} x_n, and the query-side W_q p_m -> u (content) and v (position)",
        ),
        sizes=MAT_SIZES,
        notes="The right side is what the reference code computes: AC = (q + r_w_bias) k^T and "
        "BD = (q + r_r_bias) r^T, with r_w_bias = u and r_r_bias = v.",
        wrong=(W_q * x_m + v).T * W_kE * x_n + (W_q * x_m + u).T * W_kR * R_mn,  # u and v swapped
    )


Q_ = sp.IndexedBase("q", real=True)  # W_q x_m, the query content
U_ = sp.IndexedBase("u", real=True)
K_ = sp.IndexedBase("k^E", real=True)  # W_{k,E} x_n, the key content
G_ = sp.IndexedBase("g", real=True)  # W_{k,R}^T (W_q x_m + v)


def txl_score(r) -> sp.Expr:
    r"""``A_rel`` in components for the distance ``r = m - n``: content part plus ``g . R_r`` with ``R_r`` in
    ``[sin | cos]`` halves (``R_r[i] = sin rθ_i``, ``R_r[h+i] = cos rθ_i``)."""
    content = sp.Sum((Q_[l] + U_[l]) * K_[l], (l, 0, 2 * h - 1))
    return content + pairs(G_[i] * sp.sin(r * theta_i) + G_[h + i] * sp.cos(r * theta_i))


def txl_translation() -> Identity:
    lhs = txl_score(difference(shifted(m), shifted(n)))
    rhs = txl_score(m - n)
    return _identity(
        "txl-translation-invariant",
        "The Transformer-XL score is unchanged under (m, n) -> (m + t, n + t)",
        TXL,
        [
            Step(
                lhs,
                rhs,
                "(m + t) - (n + t) = m - n inside every sinusoid; the content terms carry no position",
                ("expand",),
            )
        ],
        assumptions=(
            "d = 2h; R_r = [sin(rθ_i) | cos(rθ_i)] halves, any θ_i > 0",
            "q = W_q x_m, k^E = W_{k,E} x_n and g = W_{k,R}^T (W_q x_m + v) depend on tokens, not positions",
        ),
        sizes=PAIR_SIZES,
        domains=DOMAINS,
        wrong=txl_score(n - m),  # the distance with the wrong sign
    )


# ---- the relative-shift trick ------------------------------------------------------------------------------------
qlen = sp.Symbol("q_len", integer=True, positive=True)
mlen = sp.Symbol("m_len", integer=True, nonnegative=True)
ri, rj = sp.symbols("i j", integer=True, nonnegative=True)


def txl_shift_index() -> Identity:
    klen = qlen + mlen
    lhs = qlen + ri * klen + rj  # offset of output (i, j) in the padded buffer (first row of q_len entries dropped)
    rhs = ri * (klen + 1) + (rj + qlen - ri)  # row i, column j + q_len - i of the padded (q_len, k_len + 1) matrix
    return _identity(
        "txl-rel-shift-index",
        "The relative shift reads output (i, j) from padded row i, column j + q_len - i",
        TXL,
        [Step(lhs, rhs, "row-major offsets of the two views of one buffer", ("expand",))],
        assumptions=(
            "k_len = q_len + m_len keys (memory first); 0 <= i < q_len, 0 <= j < k_len",
            "the column j + q_len - i lies in [1, k_len] exactly when j <= i + m_len (on or below the "
            "causal diagonal); for j > i + m_len the offset spills into padded row i + 1",
        ),
        notes="Column 0 of the padded matrix is the zero pad; column c >= 1 holds raw column c - 1.",
        wrong=ri * (klen + 1) + (rj + qlen - ri - 1),  # the off-by-one: forgetting the pad column
    )


def txl_shift_distance() -> Identity:
    klen = qlen + mlen
    lhs = difference(sp.Add(klen, -1, evaluate=False), sp.Add(rj + qlen - ri, -1, evaluate=False))  # k_len-1-c
    return _identity(
        "txl-rel-shift-distance",
        "On and below the diagonal the shifted entry has distance i + m_len - j",
        TXL,
        [Step(lhs, ri + mlen - rj, "raw column c = j + q_len - i - 1 holds distance k_len - 1 - c", ("expand",))],
        assumptions=(
            "the raw product uses the distances k_len - 1, ..., 0 (pos_seq counts down)",
            "j <= i + m_len (see txl-rel-shift-index)",
        ),
        notes="i + m_len is the query's absolute position, so this is exactly R_{i'-j}: the trick computes the "
        "direct O(L^2) gather on and below the causal diagonal.",
        wrong=ri + mlen - rj + 1,
    )


def _shift_labels(dps: int):
    # Exact integer labels: raw[i, c] = 1000 (i + 1) + distance (k_len - 1 - c), so every entry says where it is from.
    mismatches, above = 0, None
    rows: list[tuple[str, object]] = []
    for q in range(1, 7):
        for mem in range(0, 5):
            kl = q + mem
            raw = np.array([[1000 * (a + 1) + (kl - 1 - c) for c in range(kl)] for a in range(q)], dtype=np.int64)
            out = rel_shift(raw)
            for a in range(q):
                for b in range(kl):
                    if b <= a + mem:
                        mismatches += int(out[a, b] != 1000 * (a + 1) + (a + mem - b))
                    elif b == a + mem + 1:
                        mismatches += int(out[a, b] != 0)
                    else:  # the next row's score at distance a + mem + 1 + k_len - b
                        mismatches += int(out[a, b] != 1000 * (a + 2) + (a + mem + 1 + kl - b))
            if (q, mem) == (3, 1):
                above = [[int(x) for x in row] for row in out]
    rows.append(("rel_shift of the labels for q_len = 3, m_len = 1", above))
    rows.append(("entries checked", sum(q * (q + mem) for q in range(1, 7) for mem in range(5))))
    return mismatches, rows


def txl_shift_fact() -> Fact:
    return Fact(
        "txl-rel-shift-garbage",
        "What the relative shift leaves above the causal diagonal",
        TOPIC,
        TXL,
        "Labels 1000 (i + 1) + distance, shifted for every q_len <= 6, m_len <= 4: on and below the diagonal each "
        "entry is query i at distance i + m_len - j; at j = i + m_len + 1 the zero pad; further right query i + 1 "
        "at distance i + m_len + 1 + k_len - j (the last row has nothing above the diagonal). Claimed: 0 mismatches.",
        claim=0,
        compute=_shift_labels,
        notes="The leftovers are finite scores of the wrong query and distance, not NaN: the causal mask must "
        "remove them. Dropping the last instead of the first row (an off-by-one port) breaks every row.",
        wrong=1,
    )


# ================================================================================================================
# DeBERTa
# ================================================================================================================
class Delta(sp.Function):
    r"""DeBERTa's clipped relative index ``δ(a, b) = 0`` if ``a - b <= -k``, ``2k - 1`` if ``a - b >= k``, else
    ``a - b + k``; ``doit`` writes it out as a Piecewise."""

    nargs = 3

    def doit(self, **hints):
        a, b, kk = (x.doit(**hints) if isinstance(x, sp.Basic) else x for x in self.args)
        return delta_piecewise(a, b, kk)

    def _latex(self, printer):
        a, b, _ = self.args
        return r"\delta\left(%s, %s\right)" % (printer._print(a), printer._print(b))


def delta_piecewise(a, b, kk=k):
    r = a - b
    return sp.Piecewise((0, r <= -kk), (2 * kk - 1, r >= kk), (r + kk, True))


def deberta_window() -> Identity:
    lhs = delta_piecewise(i, j)
    correction = sp.Piecewise((-(i - j + k), i - j <= -k), (k - 1 - (i - j), i - j >= k), (0, True))
    return _identity(
        "deberta-delta-exact-in-window",
        "Inside the window |i - j| < k the clipped index is i - j + k exactly",
        DEBERTA,
        [
            Step(
                lhs,
                (i - j + k) + correction,
                "the clipping correction is nonzero only outside the window",
                ("piecewise_fold", "expand"),
            )
        ],
        assumptions=("k >= 1 the window; i query, j key positions (relative position i - j: query - key)",),
        domains={"i": Domain("integer", -40, 40), "j": Domain("integer", -40, 40), "k": Domain("integer", 1, 40)},
        notes="So distinct distances inside the window use distinct embeddings; outside, every distance shares "
        "row 0 or row 2k - 1 (deberta-delta-saturation).",
        wrong=(i - j + k) + sp.Piecewise((-(i - j + k), i - j <= -k), (k - (i - j), i - j >= k), (0, True)),
    )


Qc, Kc, Qr, Kr = (_vec(s) for s in ("Q^c_i", "K^c_j", r"Q^r_{\delta(j,i)}", r"K^r_{\delta(i,j)}"))


def deberta_from_four_terms() -> Identity:
    scale = sp.Pow(3 * d, sp.Rational(-1, 2), evaluate=False)  # 1/sqrt(3d), printed as such
    lhs = sp.MatMul(scale, (Qc + Qr).T * (Kc + Kr) - Qr.T * Kr, evaluate=False)
    rhs = sp.MatMul(scale, Qc.T * Kc + Qc.T * Kr + Qr.T * Kc, evaluate=False)
    return _identity(
        "deberta-disentangled-from-four-terms",
        "DeBERTa: the four terms of content + relative position, without position->position, over sqrt(3d)",
        DEBERTA,
        [Step(lhs, rhs, "expand; the position->position product cancels", ("expand",))],
        assumptions=(
            "Q^c_i, K^c_j content projections; K^r_{δ(i,j)}, Q^r_{δ(j,i)} rows of the projected "
            "relative table, all d x 1",
        ),
        sizes=MAT_SIZES,
        notes="c2c + c2p + p2c; (Q^r)^T K^c = K^c_j . Q^r_{δ(j,i)}. Three terms, hence the scale 1/sqrt(3d). The "
        "public code indexes p2c with δ(i, j) instead (deberta-p2c-code-vs-paper).",
        wrong=sp.MatMul(
            sp.Pow(d, sp.Rational(-1, 2), evaluate=False), Qc.T * Kc + Qc.T * Kr + Qr.T * Kc, evaluate=False
        ),  # the usual 1/sqrt(d)
    )


QC, KC = sp.IndexedBase("q^c", real=True), sp.IndexedBase("k^c", real=True)
KR, QR = sp.IndexedBase("K^r", real=True), sp.IndexedBase("Q^r", real=True)


def deberta_score(a, b, p2c_first=None) -> sp.Expr:
    r"""``sqrt(3d) Ã(a, b)`` in components, tables indexed by ``δ``: content vectors carry no position."""
    d_ab, d_ba = Delta(a, b, k), Delta(b, a, k)
    p2c = d_ba if p2c_first is None else p2c_first
    return comps(QC[l] * KC[l] + QC[l] * KR[d_ab, l] + KC[l] * QR[p2c, l])


def deberta_translation() -> Identity:
    lhs = deberta_score(shifted(i), shifted(j))
    rhs = deberta_score(i, j)
    return _identity(
        "deberta-translation-invariant",
        "The DeBERTa score is unchanged under (i, j) -> (i + t, j + t)",
        DEBERTA,
        [Step(lhs, rhs, "δ depends on (i + t) - (j + t) = i - j only", ("doit",))],
        assumptions=(
            "q^c, k^c are the content projections of the two tokens (no position)",
            "K^r, Q^r: the 2k relative rows, indexed by δ; the common factor 1/sqrt(3d) is left out",
        ),
        sizes={d: (1, 2, 3)},
        notes="Invariance holds for all i, j, outside the window too: there δ saturates, so distinct distances "
        "share a row (deberta-delta-saturation), but a shifted pair still gets the same row.",
        wrong=deberta_score(i, j, p2c_first=Delta(i, j, k)),  # p2c indexed with δ(i, j): the code's convention
    )


def _saturation(dps: int):
    kk = 4
    r = np.arange(-2 * kk, 2 * kk + 1)
    dl = deberta.deberta_delta(r, kk).tolist()
    return dl, [("k", kk), ("i - j", r.tolist()), ("δ(i, j)", dl)]


def deberta_saturation() -> Fact:
    return Fact(
        "deberta-delta-saturation",
        "Outside the window the DeBERTa index saturates",
        TOPIC,
        DEBERTA,
        "δ(i, j) for k = 4 and i - j = -8 .. 8: exact inside |i - j| < 4, then stuck at 0 and 2k - 1 = 7.",
        claim=[0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7],
        compute=_saturation,
        definitions=(Step(Delta(i, j, k), delta_piecewise(i, j), "definition", ("doit",)),),
        wrong=[0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],  # no clipping
    )


def _p2c(dps: int):
    kk = 4
    r = np.arange(-6, 7)  # i - j
    code = deberta.deberta_delta(r, kk)  # δ(i, j): what the public gather + transpose reads
    paper = deberta.deberta_delta(-r, kk)  # δ(j, i): Eq. 4
    inside = np.abs(r) < kk
    mirror = bool(np.all(paper[inside] == 2 * kk - code[inside]))
    merged = sorted({int(p) for c, p in zip(code, paper, strict=True) if c == 2 * kk - 1})
    rows = [("i - j", r.tolist()), ("code index δ(i,j)", code.tolist()), ("paper index δ(j,i)", paper.tolist())]
    return [mirror, merged], rows


def deberta_p2c() -> Fact:
    return Fact(
        "deberta-p2c-code-vs-paper",
        "The public code's p2c index is the paper's mirrored, except at the edge",
        TOPIC,
        f"{DEBERTA}; {DEBERTA_CODE}",
        "k = 4, i - j = -6 .. 6. Claimed: [inside the window δ(j, i) = 2k - δ(i, j), the paper indices met where "
        "the code index is 2k - 1]. The second entry [0, 1] shows the code's row 2k - 1 stands for both distance "
        "k - 1 and every distance >= k, which the paper's p2c tells apart: no relabelling of the table maps one "
        "convention onto the other.",
        claim=[True, [0, 1]],
        compute=_p2c,
        notes="numeric.deberta takes the convention as a parameter (p2c_index='code' or 'paper'); the gather "
        "formulation without the transpose, or with +r instead of -r, is the known p2c sign bug.",
        wrong=[True, [1]],
    )


def _log_buckets(dps: int):
    r = [0, 1, 127, 128, 129, 130, 200, 300, 511, 512, -129, -511]
    b = [deberta.deberta_log_bucket_mp(x, 256, 512, dps) for x in r]
    return b, [("r = i - j", r), ("bucket (bucket_size 256, max_position 512)", b)]


def deberta_log_buckets() -> Fact:
    return Fact(
        "deberta-log-bucket-values",
        "DeBERTa v2 log buckets: exact up to 128, then logarithmic up to 255",
        TOPIC,
        DEBERTA_CODE,
        "make_log_bucket_position at its defaults, logarithms at full precision: |r| <= 128 is kept, "
        "|r| = 511 = max_position - 1 maps to 255, and the buckets are odd in r.",
        claim=[0, 1, 127, 128, 129, 130, 169, 207, 255, 256, -129, -255],
        compute=_log_buckets,
        notes="r = 512 gives 256 (the reference does not cap); the score's clip(· + k, 0, 2k - 1) saturates it.",
        wrong=[0, 1, 127, 128, 128, 129, 169, 207, 255, 255, -128, -255],
    )


# ================================================================================================================
# T5
# ================================================================================================================
class Bucket(sp.Function):
    r"""T5's bucket of the relative position ``key - query``: ``Bucket(key, query)`` (see numeric.t5 for the
    definition); ``doit`` normalises it to ``Bucket(key - query, 0)``, a function of the difference only."""

    nargs = 2

    def doit(self, **hints):
        key, query = (x.doit(**hints) for x in self.args)
        return Bucket(key - query, 0) if query != 0 else Bucket(key, 0)

    def _latex(self, printer):
        key, query = self.args
        inner = (
            printer._print(key)
            if query == 0
            else r"%s - %s" % (printer.parenthesize(key, 40), printer.parenthesize(query, 40))
        )
        return r"\operatorname{bucket}\left(%s\right)" % inner


BETA = sp.IndexedBase("b", real=True)  # the learned scalar per bucket (one head)
K5 = sp.IndexedBase("k", real=True)  # W_k x_n, the key content


def t5_translation() -> Identity:
    lhs = comps(Q_[l] * K5[l]) + BETA[Bucket(shifted(n), shifted(m))]
    rhs = comps(Q_[l] * K5[l]) + BETA[Bucket(n, m)]
    return _identity(
        "t5-bias-relative",
        "T5's score depends on positions only through n - m",
        T5_SRC,
        [Step(lhs, rhs, "(n + t) - (m + t) = n - m inside the bucket", ("doit",))],
        assumptions=(
            "q = W_q x_m, k = W_k x_n (no position vectors enter the input)",
            "relative position = key - query (n - m); b is the learned table of one head",
        ),
        sizes={d: (1, 2, 3)},
        wrong=comps(Q_[l] * K5[l]) + BETA[Bucket(m, n)],  # query - key: the sign convention swapped
    )


def _t5_boundaries(dps: int):
    # Bucket max_exact + j starts at the least integer a with
    # a >= max_exact (max_distance/max_exact)^(j/(B - max_exact)).
    B, me, md = 16, 8, 128
    firsts = list(range(me))
    for jj in range(B - me):
        edge = me * (mpmath.mpf(md) / me) ** (mpmath.mpf(jj) / (B - me))
        a = int(mpmath.ceil(edge - mpmath.mpf(10) ** (-(dps - 10))))  # exact powers (16, 32, 64) stay put
        firsts.append(a)
    # the kernel (mpmath logarithms) changes bucket exactly there: a - 1 and a lie in different buckets
    steps_ok = all(
        t5.t5_relative_bucket_mp(-a, True, 32, 128, dps) == t5.t5_relative_bucket_mp(-(a - 1), True, 32, 128, dps) + 1
        for a in firsts[1:]
    )
    used = set(t5.t5_relative_bucket(np.arange(-130, 131), True, 32, 128).tolist())
    unused = [bb for bb in range(32) if bb not in used]
    return [firsts, unused, steps_ok], [("first |r| of each bucket (r <= 0)", firsts), ("unused buckets", unused)]


def t5_boundaries() -> Fact:
    return Fact(
        "t5-bucket-boundaries",
        "T5 bucket boundaries at the defaults (bidirectional, 32 buckets, 128)",
        TOPIC,
        T5_SRC,
        "Exact buckets for |r| < 8, then logarithmic boundaries 8·16^(j/8) rounded up; bucket 16 is never used "
        "(positive offsets start at |r| = 1). Claimed: [first |r| of each bucket, unused buckets, the bucket "
        "function steps up by one exactly at each first |r|].",
        claim=[[0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 23, 32, 46, 64, 91], [16], True],
        compute=_t5_boundaries,
        wrong=[[0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 24, 32, 40, 48, 56, 64], [16], True],  # linear buckets
    )


def _t5_cap(dps: int):
    r = [-127, -128, -129, -1000, -(10**6), 128, 10**6]
    b = [t5.t5_relative_bucket_mp(x, True, 32, 128, dps) for x in r]
    b0 = [t5.t5_relative_bucket_mp(0, bi, nb, md, dps) for bi, nb, md in ((True, 32, 128), (False, 32, 128))]
    return [b, b0], [("r", r), ("bucket", b), ("bucket(0) bidirectional / unidirectional", b0)]


def t5_cap() -> Fact:
    return Fact(
        "t5-bucket-cap",
        "T5 buckets are capped at the last bucket of each half; distance 0 is bucket 0",
        TOPIC,
        T5_SRC,
        "Bidirectional, 32 buckets, max distance 128: every |r| >= 91 of one sign shares a bucket (15 for keys "
        "before the query, 31 after), however far; r = 0 is bucket 0 with no log(0) evaluated.",
        claim=[[15, 15, 15, 15, 15, 31, 31], [0, 0]],
        compute=_t5_cap,
        wrong=[[15, 16, 16, 24, 56, 32, 72], [0, 0]],  # the uncapped formula
    )


# ================================================================================================================
# ALiBi
# ================================================================================================================
slope = sp.Symbol("m_h", positive=True)  # one head's slope
s_ = sp.Symbol("s", integer=True, positive=True)  # extra distance
qi, kj = sp.symbols("i j", integer=True)


def alibi_bias(a, b):
    return -slope * difference(a, b)


def alibi_translation() -> Identity:
    return _identity(
        "alibi-translation-invariant",
        "The ALiBi bias is unchanged under (i, j) -> (i + t, j + t)",
        ALIBI,
        [Step(alibi_bias(shifted(qi), shifted(kj)), -slope * (qi - kj), "(i + t) - (j + t) = i - j", ("expand",))],
        assumptions=("m_h > 0 the head's slope; i query, j key (j <= i under the causal mask)",),
        wrong=slope * (qi - kj),
    )


def alibi_decay() -> Identity:
    return _identity(
        "alibi-monotone-decay",
        "ALiBi's bias strictly decreases as the key moves further back",
        ALIBI,
        [Step(alibi_bias(qi, difference(kj, s_)), alibi_bias(qi, kj), "the gap is m_h s > 0", ("expand",), rel="<")],
        lhs=alibi_bias(qi, difference(kj, s_)),
        rhs=alibi_bias(qi, kj),
        rel="<",
        assumptions=("m_h > 0; s >= 1 extra tokens of distance",),
        notes="Monotone over the whole causal range, with no upper limit on the distance (unlike sinusoidal "
        "dot products, which oscillate).",
        wrong=alibi_bias(qi, kj - 2 * s_),
    )


n_heads = sp.Symbol("n", integer=True, positive=True)
hh = sp.Symbol("h", integer=True, positive=True)


def alibi_slopes_form() -> Identity:
    start = 2 ** (-(2 ** (-(sp.log(n_heads, 2) - 3))))  # the reference: start = ratio = 2^(-2^-(log2 n - 3))
    lhs = start * start ** (hh - 1)
    return _identity(
        "alibi-slopes-geometric",
        "The reference's start·ratio^(h-1) is the geometric sequence 2^(-8h/n)",
        ALIBI,
        [Step(lhs, 2 ** (-8 * hh / n_heads), "2^-(log2 n - 3) = 8/n, then add exponents", ("expand", "powsimp"))],
        assumptions=("n heads, a power of two; h = 1 .. n",),
        domains={"n": Domain("integer", 1, 64)},
        wrong=2 ** (-8 * (hh - 1) / n_heads),  # the off-by-one exponent
    )


def _alibi_non_pow2(dps: int):
    out = {nh: [str(e) for e in alibi.alibi_slope_exponents(nh)] for nh in (6, 12)}
    return out, [(f"log2 slopes, {nh} heads", v) for nh, v in out.items()]


def alibi_non_power_of_two() -> Fact:
    return Fact(
        "alibi-slopes-non-power-of-two",
        "ALiBi slopes for head counts that are not powers of two",
        TOPIC,
        ALIBI,
        "With c = 2^floor(log2 n): the c slopes of c heads, then the odd-h slopes of 2c heads. "
        "Claimed: the exponents log2 m_h for n = 6 and n = 12.",
        claim={
            6: ["-2", "-4", "-6", "-8", "-1", "-3"],
            12: ["-1", "-2", "-3", "-4", "-5", "-6", "-7", "-8", "-1/2", "-3/2", "-5/2", "-7/2"],
        },
        compute=_alibi_non_pow2,
        notes="Applying 2^(-8h/n) to n = 6 (a bug seen in public ports) gives -4/3, -8/3, ... instead.",
        wrong={
            6: [str(Fraction(-8 * hh_, 6)) for hh_ in range(1, 7)],
            12: [str(Fraction(-8 * hh_, 12)) for hh_ in range(1, 13)],
        },
    )


def claims() -> list:
    return [
        expansion(),
        rotation_commutant(),
        position_term_commuting(),
        position_term_general(),
        position_term_counterexample(),
        txl_from_four_terms(),
        txl_translation(),
        txl_shift_index(),
        txl_shift_distance(),
        txl_shift_fact(),
        deberta_from_four_terms(),
        deberta_window(),
        deberta_translation(),
        deberta_saturation(),
        deberta_p2c(),
        deberta_log_buckets(),
        t5_translation(),
        t5_boundaries(),
        t5_cap(),
        alibi_translation(),
        alibi_decay(),
        alibi_slopes_form(),
        alibi_non_power_of_two(),
    ]
