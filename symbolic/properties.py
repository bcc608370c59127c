r"""The three rules of a position code, scheme by scheme, and what a position past the trained length produces.

'Positional Encoding 101' asks a position code to keep three rules for a proximity ``φ(m, n)`` of a query at ``m``
and a key at ``n`` (after Wang et al. 2021): **monotonicity** (``φ`` falls as ``|m - n|`` grows), **translation
invariance** (``φ(m + t, n + t) = φ(m, n)``) and **symmetry** (``φ(m, n) = φ(n, m)``). For an absolute code ``φ`` is
the dot product ``p_m·p_n``; for a relative scheme it is the positional part of the score. The claims here decide
the cells that the scheme modules do not already decide; ``derivations.properties`` assembles the table and cites
a claim in every cell.

The length claims say which quantities positions ``L0 .. L - 1`` produce that training on positions ``0 .. L0 - 1``
(distances ``|m - n| <= L0 - 1``) never showed. They are computed at the article's 1000 trained and 2000 target
words; the functions ``*_lengths(L0, L)`` compute the same for any lengths.

>>> [c.id for c in claims()][:2]
['properties-absolute-symmetric', 'properties-counting-proximity-grows']
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from posproof.numeric import alibi, deberta, t5, tolerances
from posproof.numeric.extension import phase_coverage
from posproof.numeric.scaling import rope_inv_freq
from posproof.numeric.sinusoid import inverse_frequencies
from posproof.numeric.transformer_xl import causal_mask, txl_relative_embeddings

from . import sources
from .attention import difference, shifted
from .core import Fact, Identity, Step

TOPIC = "properties"
RULES = f"{sources.article('Rules any Positional Encoding Method must follow')}; {sources.WANG}"
RELATIVE = sources.article("Relative Positions")

# ---- symbols, named like the math -----------------------------------------------------------------------------
d = sp.Symbol("d", integer=True, positive=True)  # width of the code
l = sp.Symbol("l", integer=True, nonnegative=True)  # component index 0 .. d - 1
m, n = sp.symbols("m n", integer=True)  # query and key positions
t = sp.Symbol("t", integer=True, positive=True)  # a shift
s = sp.Symbol("s", integer=True, positive=True)  # extra distance
u = sp.Symbol("u", integer=True, nonnegative=True)  # a distance
c = sp.Symbol("c", positive=True)  # counting scale: 1, or 1/N, 1/(N - 1) for normalized counting
P = sp.IndexedBase("p", real=True)  # any absolute code: p[pos, l]
varphi = sp.Function("varphi")  # the proximity, in headings

#: The article's lengths: trained on 1000-word documents, asked about a 2000-word one.
TRAINED, TARGET = 1000, 2000


def _identity(id_: str, title: str, source: str, steps, **kw) -> Identity:
    return Identity(id_, title, TOPIC, source, tuple(steps), **kw)


def proximity(a, b, code=lambda pos, comp: P[pos, comp]) -> sp.Sum:
    r"""``φ(a, b) = p_a·p_b = Σ_l p[a, l] p[b, l]``: the proximity of an absolute code."""
    return sp.Sum(code(a, l) * code(b, l), (l, 0, d - 1))


def counting(pos, comp=l):
    r"""Component ``comp`` of the counting code ``c·pos·(1, ..., 1)`` (``c = 1``; ``1/N`` or ``1/(N-1)`` normalized)."""
    return c * pos


# ================================================================================================================
# Absolute codes: symmetry always; counting breaks the other two rules.
# ================================================================================================================


def absolute_symmetric() -> Identity:
    rhs = sp.Sum(sp.Mul(P[n, l], P[m, l], evaluate=False), (l, 0, d - 1))
    return _identity(
        "properties-absolute-symmetric",
        "Every absolute code's proximity is symmetric: p_m·p_n = p_n·p_m",
        RULES,
        [Step(proximity(m, n), rhs, "each product p[m, l] p[n, l] commutes", ("expand",))],
        assumptions=(
            "p[pos, l]: any real table of d components per position (counting, binary, sinusoidal, a learned table)",
        ),
        sizes={d: (1, 3)},
        notes="The numeric line draws the table at random: a learned table at initialisation is such a table. The "
        "registered mistake reads the table transposed (columns for positions).",
        wrong=sp.Sum(P[l, m] * P[l, n], (l, 0, d - 1)),
        formula=sp.Eq(varphi(m, n), varphi(n, m)),
    )


mq = sp.Symbol("m", integer=True, positive=True)  # a query position m >= 1
m0, n0 = sp.symbols("m n", integer=True, nonnegative=True)  # positions counted from 0


def counting_grows() -> Identity:
    near = proximity(mq, mq + u, counting)
    far = proximity(mq, mq + u + s, counting)
    return _identity(
        "properties-counting-proximity-grows",
        "Counting codes c·pos·(1, ..., 1): moving the key further from the query raises φ, "
        "φ(m, m + u) < φ(m, m + u + s)",
        f"{RULES}; {sources.article('1. The Simple Counting Method (Option 1)')}",
        [Step(near, far, "d equal components; the gap is d c² m s > 0", ("doit", "expand"), rel="<")],
        rel="<",
        assumptions=(
            "c > 0: c = 1 counts, c = 1/N or 1/(N - 1) is normalized counting",
            "query m >= 1, key after it at distance u >= 0, moved s >= 1 further",
        ),
        sizes={d: (1, 4)},
        notes="Monotonicity fails at every query m >= 1 and distance u: the proximity grows with the distance. The "
        "registered mistake reads φ from the distance alone, φ(0, u + s), as if the code were relative.",
        wrong=proximity(0, u + s, counting),
        formula=sp.Lt(varphi(m, m + u), varphi(m, m + u + s)),
    )


def counting_shift() -> Identity:
    before = proximity(m0, n0, counting)
    after = proximity(shifted(m0, t), shifted(n0, t), counting)
    return _identity(
        "properties-counting-shift-changes",
        "Counting codes c·pos·(1, ..., 1): shifting both words raises φ, φ(m, n) < φ(m + t, n + t)",
        f"{RULES}; {sources.article('1. The Simple Counting Method (Option 1)')}",
        [Step(before, after, "d equal components; the gap is d c² t (m + n + t) > 0", ("doit", "expand"), rel="<")],
        rel="<",
        assumptions=("c > 0 (counting or normalized counting)", "positions m, n >= 0, shift t >= 1"),
        sizes={d: (1, 4)},
        notes="Translation invariance fails for every pair of positions. The registered mistake shifts the query "
        "only: φ(m + t, n) - φ(m, n) = d c² t n vanishes at n = 0.",
        wrong=proximity(shifted(m0, t), n0, counting),
        formula=sp.Lt(varphi(m, n), varphi(m + t, n + t)),
    )


def _first_rise(phi, size: int):
    r"""The first ``(m, u)`` with ``φ(m, m + u + 1) > φ(m, m + u)`` (the key moved away, φ rose), or None."""
    for a in range(size):
        for w in range(size - a - 1):
            if phi(a, a + w + 1) > phi(a, a + w):
                return a, w
    return None


def _binary(dps: int, phi=lambda a, b: bin(a & b).count("1")):
    size = 2**8
    rise = _first_rise(phi, size)
    change = next(
        (a, w, sh) for w in range(1, size) for a in range(size - w) for sh in range(1, size - a - w)
        if phi(a + sh, a + w + sh) != phi(a, a + w)
    )  # fmt: skip
    a, w = rise
    b, v, sh = change
    value = {
        "monotone": rise is None,
        "first rise": f"phi({a}, {a + w}) = {phi(a, a + w)} < phi({a}, {a + w + 1}) = {phi(a, a + w + 1)}",
        "translation invariant": False,
        "first change": f"phi({b}, {b + v}) = {phi(b, b + v)} != phi({b + sh}, {b + v + sh}) = "
        f"{phi(b + sh, b + v + sh)}",
    }
    return value, list(value.items())


def binary_rules() -> Fact:
    return Fact(
        "properties-binary-rules",
        "Binary codes: φ(m, n) = the bits m and n share breaks monotonicity and translation invariance",
        TOPIC,
        f"{RULES}; {sources.article('3. The Binary Breakthrough')}",
        "8-bit codes of 0 .. 255, φ(m, n) = p_m·p_n = popcount(m AND n). Scanning query by query, the first key "
        "that moves away and raises φ, and scanning distances and shifts, the first shift that changes φ.",
        {
            "monotone": False,
            "first rise": "phi(1, 2) = 0 < phi(1, 3) = 1",
            "translation invariant": False,
            "first change": "phi(0, 1) = 0 != phi(2, 3) = 1",
        },
        _binary,
        method="exact integer arithmetic (popcount of m AND n)",
        wrong=lambda dps: _binary(dps, phi=lambda a, b: -bin(a ^ b).count("1")),
        notes="Symmetry holds (properties-absolute-symmetric). The wrong computation takes minus the Hamming "
        "distance, a distance, for the proximity.",
        formula=sp.Lt(varphi(1, 2), varphi(1, 3)),
    )


def _learned(dps: int, row=lambda pos: pos):
    size, width = 64, 64
    table = np.random.default_rng(2019).normal(0.0, 0.02, (size, width))  # BERT's initializer_range
    rows = table[[row(p) for p in range(size)]]
    phi = rows @ rows.T  # (size, size): φ(m, n) = p_m·p_n
    tol = tolerances.FACT_FLOAT64_ATOL
    monotone = all(phi[a, a + w + 1] < phi[a, a + w] for a in range(size) for w in range(size - a - 1))
    invariant = bool(np.max(np.abs(phi[1:, 1:] - phi[:-1, :-1])) <= tol)
    value = {"monotone in |m - n|": monotone, "translation invariant": invariant}
    table_rows = [
        *value.items(),
        ("phi(0, 1), phi(1, 2), phi(2, 3)", [float(phi[0, 1]), float(phi[1, 2]), float(phi[2, 3])]),
        ("phi(0, 1), phi(0, 2), phi(0, 3)", [float(phi[0, 1]), float(phi[0, 2]), float(phi[0, 3])]),
    ]
    return value, table_rows


def learned_rules() -> Fact:
    return Fact(
        "properties-learned-random-init",
        "A seeded random position table (BERT's initialisation) breaks monotonicity and translation invariance",
        TOPIC,
        f"{RULES}; {sources.BERT}",
        "64 positions x 64 components drawn N(0, 0.02²) (seeded), φ(m, n) = p_m·p_n: φ(m, m + u) does not fall "
        "with u, and φ(m + 1, n + 1) differs from φ(m, n) (beyond 1e-12).",
        {"monotone in |m - n|": False, "translation invariant": False},
        _learned,
        method="NumPy float64 (seeded normal table)",
        wrong=lambda dps: _learned(dps, row=lambda pos: 0),
        notes="Symmetry holds for any table (properties-absolute-symmetric). Training may shape the table; at "
        "initialisation nothing ties a position to its neighbours. The wrong computation reads row 0 for every "
        "position (an indexing bug), which makes φ constant.",
        formula=sp.Ne(varphi(m + 1, n + 1), varphi(m, n)),
    )


# ================================================================================================================
# Relative schemes: the positional part of the score.
# ================================================================================================================


def _txl(dps: int, distance=lambda r: r):
    rng = np.random.default_rng(2019)
    d_model, width = 16, 8
    W_kR, v = rng.standard_normal((width, d_model)), rng.standard_normal(width)
    r = np.arange(-20, 21)  # m - n
    phi = txl_relative_embeddings(distance(r), d_model) @ W_kR.T @ v  # v^T W_{k,R} R_{m-n}
    at = dict(zip(r.tolist(), phi.tolist(), strict=True))
    symmetric = all(abs(at[a] - at[-a]) <= tolerances.FACT_FLOAT64_ATOL for a in range(21))
    monotone = all(at[a + 1] < at[a] and at[-a - 1] < at[-a] for a in range(20))
    value = {"symmetric": symmetric, "monotone in |m - n|": monotone}
    return value, [*value.items(), ("phi at m - n = -3, 0, 3", [at[-3], at[0], at[3]])]


def txl_rules() -> Fact:
    return Fact(
        "properties-txl-rules",
        "Transformer-XL's position term v^T W_{k,R} R_{m-n} at a seeded draw of v, W_{k,R}: neither symmetric nor "
        "monotone",
        TOPIC,
        f"{RULES}; {sources.TXL}",
        "φ(m, n) = v^T W_{k,R} R_{m-n} (the position->position term) with seeded v (8) and W_{k,R} (8 x 16), R in "
        "[sin | cos] halves from numeric.transformer_xl.txl_relative_embeddings, for m - n = -20 .. 20: "
        "φ(m, n) differs from φ(n, m), and φ does not fall as |m - n| grows.",
        {"symmetric": False, "monotone in |m - n|": False},
        _txl,
        method="NumPy float64 (numeric.transformer_xl.txl_relative_embeddings), agreement to "
        + f"{tolerances.FACT_FLOAT64_ATOL:g}",
        wrong=lambda dps: _txl(dps, distance=np.abs),
        notes="The sin half of R_{m-n} is odd in m - n: only learned weights that ignore it give a symmetric term. "
        "Translation invariance holds (txl-translation-invariant). The wrong computation uses |m - n|.",
        formula=sp.Ne(varphi(m, n), varphi(n, m)),
    )


def _deberta(dps: int, transpose=lambda A: A.T):
    rng = np.random.default_rng(2021)
    width = 4

    def scores(length, k, **buckets):
        q, key = rng.standard_normal(width), rng.standard_normal(width)  # the same token at every position
        Qc, Kc = np.tile(q, (length, 1)), np.tile(key, (length, 1))
        Qr, Kr = rng.standard_normal((2 * k, width)), rng.standard_normal((2 * k, width))
        return deberta.deberta_scores_gather(Qc, Kc, Qr, Kr, k, **buckets)

    A = scores(12, 3)  # clipped, k = 3
    B = scores(40, 8, bucket_size=8, max_position=32)  # log buckets
    tol = tolerances.FACT_FLOAT64_ATOL
    value = {
        "clipped: symmetric": bool(np.max(np.abs(A - transpose(A))) <= tol),
        "clipped: constant for |i - j| >= k": bool(np.ptp(A[0, 3:]) <= tol and np.ptp(A[3:, 0]) <= tol),
        "log buckets: translation invariant": bool(np.max(np.abs(B[1:, 1:] - B[:-1, :-1])) <= tol),
        "log buckets: symmetric": bool(np.max(np.abs(B - transpose(B))) <= tol),
        "log buckets: phi(i, i - 5) = phi(i, i - 6)": bool(abs(B[20, 15] - B[20, 14]) <= tol),
    }
    buckets = deberta.deberta_log_bucket(np.arange(0, 12), 8, 32).tolist()
    return value, [*value.items(), ("log buckets (8, 32) of r = 0 .. 11", buckets)]


def deberta_rules() -> Fact:
    return Fact(
        "properties-deberta-rules",
        "DeBERTa's scores for one repeated token: not symmetric; constant beyond the window (clipped), equal on "
        "distances that share a log bucket",
        TOPIC,
        f"{RULES}; {sources.DEBERTA}; {sources.DEBERTA_CODE}",
        "numeric.deberta.deberta_scores_gather with the same (seeded) token at every position, so the scores "
        "vary with positions only: clipped with k = 3 over 12 positions, and log buckets (bucket_size 8, "
        "max_position 32, k = 8) over 40 positions; agreement to 1e-12.",
        {
            "clipped: symmetric": False,
            "clipped: constant for |i - j| >= k": True,
            "log buckets: translation invariant": True,
            "log buckets: symmetric": False,
            "log buckets: phi(i, i - 5) = phi(i, i - 6)": True,
        },
        _deberta,
        method="NumPy float64 (numeric.deberta.deberta_scores_gather)",
        wrong=lambda dps: _deberta(dps, transpose=lambda A: A),
        notes="δ(i, j) and δ(j, i) select different rows, so the scores of (i, j) and (j, i) differ; beyond the "
        "window (clipped) or within a bucket (log) the score cannot fall with the distance. The wrong "
        "computation compares the score matrix with itself instead of its transpose.",
        formula=sp.Ne(varphi(m, n), varphi(n, m)),
    )


m_h = sp.Symbol("m_h", positive=True)
qi = sp.Symbol("i", integer=True)


def alibi_antisymmetric() -> Identity:
    key = sp.Add(qi, -s, evaluate=False)  # a key s tokens before the query
    lhs = -m_h * difference(qi, key)
    rhs = -m_h * difference(key, qi)
    return _identity(
        "properties-alibi-antisymmetric",
        "ALiBi's bias -m_h(i - j) is not symmetric: a key before the query gets -m_h s < m_h s, the mirrored value",
        f"{RULES}; {sources.ALIBI}",
        [Step(lhs, rhs, "the gap is 2 m_h s > 0", ("expand",), rel="<")],
        rel="<",
        assumptions=("m_h > 0 a head's slope; query i, key j = i - s with s >= 1",),
        notes="φ(j, i) = -φ(i, j): the formula is antisymmetric. A causal model never reads a key after the query, "
        "so ALiBi scores one order only; the registered mistake is the symmetric variant -m_h|i - j|.",
        wrong=-m_h * sp.Abs(difference(key, qi)),
        formula=sp.Lt(varphi(qi, qi - s), varphi(qi - s, qi)),
    )


# ================================================================================================================
# RoPE, its context-extension rules, and xPos.
# ================================================================================================================

q, k = sp.IndexedBase("q", real=True), sp.IndexedBase("k", real=True)
a = sp.Symbol("a", real=True)  # a pair's frequency (θ_i, or f_i θ_i under a scaling rule)
A = sp.Symbol("A", positive=True)  # attention factor on cos and sin


def _rotated(u0, u1, angle):
    cs, sn = sp.cos(angle), sp.sin(angle)
    return u0 * cs - u1 * sn, u0 * sn + u1 * cs


def plane_score(pm, pn, freq=a, scale_q=A, scale_k=A):
    r"""One plane's score ``(scale_q R(pm·freq) q)^T (scale_k R(pn·freq) k)`` with pairs ``q``, ``k``."""
    rq = _rotated(scale_q * q[0], scale_q * q[1], pm * freq)
    rk = _rotated(scale_k * k[0], scale_k * k[1], pn * freq)
    return rq[0] * rk[0] + rq[1] * rk[1]


def rope_odd_part() -> Identity:
    lhs = sp.Add(plane_score(m, n), sp.Mul(-1, plane_score(n, m), evaluate=False), evaluate=False)
    rhs = 2 * A**2 * (q[1] * k[0] - q[0] * k[1]) * sp.sin((n - m) * a)
    return _identity(
        "properties-rope-odd-part",
        "RoPE, any frequency and attention factor: φ(m, n) - φ(n, m) = 2A²(q_1 k_0 - q_0 k_1) sin((n - m)a) per plane",
        f"{RULES}; {sources.ROFORMER}; {sources.HF_ROPE}",
        [Step(lhs, rhs, "angle-addition formulas; the even (cos) parts cancel", ("expand", "expand_trig", "expand"))],
        assumptions=(
            "one plane: q = (q_0, q_1), k = (k_0, k_1) real, m, n integer positions",
            "a real: the plane's frequency θ_i, or f_i θ_i under any scaling rule; A > 0 the attention factor",
        ),
        notes="The score is a sum of planes, so φ(m, n) = φ(n, m) for all m, n exactly when every plane has "
        "q_1 k_0 = q_0 k_1 (e.g. q = k), and fails otherwise (q = (1, 0), k = (0, 1), a(n - m) = 1 gives "
        "-2A² sin 1). The registered mistake is 'RoPE scores are symmetric': 0.",
        wrong=sp.Integer(0),
        formula=sp.Eq(varphi(m, n) - varphi(n, m), rhs),
    )


#: RoPE and its context-extension rules at one configuration: d = 128, b = 10^4, L0 = 4096, s = 4 (the target
#: 16384); Llama 3's band factors 1 and 4; LongRoPE's per-pair factors a stated ramp from 1 to s.
ROPE_WIDTH, ROPE_BASE, ROPE_L0, ROPE_FACTOR = 128, 10000.0, 4096, 4.0
ROPE_RULES = ("default", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope")


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
    for rule in ROPE_RULES:
        scaling, kw = rule_scaling(rule, ROPE_WIDTH, ROPE_L0, ROPE_FACTOR, int(ROPE_FACTOR * ROPE_L0))
        inv, af = rope_inv_freq(ROPE_WIDTH, ROPE_BASE, scaling if scaled else {}, **(kw if scaled else {}))
        # q = k = (1, 0) in every plane: (A R'_0 q)^T (A R'_r k) = A² Σ_i cos(r θ'_i) (extension-scaled-rope-relative)
        phi = af**2 * np.cos(np.outer(r, inv)).sum(axis=1)
        value[rule] = monotone_range(phi)
        rows.append((f"{rule}: phi(0), phi(K), phi(K + 1)", [phi[0], phi[value[rule]], phi[value[rule] + 1]]))
    return value, rows


def rope_rules() -> Fact:
    return Fact(
        "properties-rope-monotone-range",
        "RoPE and its context-extension rules (d = 128, b = 10^4, L0 = 4096, s = 4): how far φ(0, r) falls",
        TOPIC,
        f"{RULES}; {sources.ROFORMER}; {sources.HF_ROPE}",
        "q = k = (1, 0) in every plane, so φ(0, r) = (A R'_0 q)^T (A R'_r k) = A² Σ_i cos(r θ'_i) "
        "(extension-scaled-rope-relative), with each rule's θ'_i and A from numeric.scaling.rope_inv_freq (dynamic "
        "at length 16384; "
        "Llama 3 with band factors 1 and 4; LongRoPE with the ramp ext_i = 1 + 3i/63): the largest K with "
        "φ(0) > φ(1) > ... > φ(K). Only Position Interpolation stretches the range; the others keep the fast "
        "pairs that decide it.",
        {"default": 11, "linear": 23, "ntk": 11, "dynamic": 11, "yarn": 11, "llama3": 11, "longrope": 11},
        _rope_rules,
        method="NumPy float64 (numeric.scaling.rope_inv_freq); every compared gap exceeds 1e-9",
        wrong=lambda dps: _rope_rules(dps, scaled=False),
        notes="With q = k the score is symmetric (properties-rope-odd-part); other q, k give other curves, so the "
        "range is stated for this one. The wrong computation forgets the scaling (the unscaled frequencies: a "
        "bug seen in ports).",
        formula=sp.Gt(varphi(0, u), varphi(0, u + 1)),
    )


zeta = sp.Symbol("zeta", positive=True)
gamma = sp.Symbol("gamma", positive=True)
theta = sp.Symbol("theta", real=True)


def _relative_plane(angle):
    return (q[0] * k[0] + q[1] * k[1]) * sp.cos(angle) + (q[1] * k[0] - q[0] * k[1]) * sp.sin(angle)


def xpos_relative() -> Identity:
    lhs = plane_score(m, n, theta, zeta ** (m / gamma), zeta ** (-n / gamma))
    rhs = zeta ** ((m - n) / gamma) * _relative_plane((n - m) * theta)
    return _identity(
        "properties-xpos-relative",
        "xPos, per plane: (ζ^(m/γ) R(mθ) q)^T (ζ^(-n/γ) R(nθ) k) = ζ^((m-n)/γ) q^T R((n - m)θ) k",
        f"{RULES}; {sources.XPOS}",
        [
            Step(
                lhs,
                rhs,
                "angle-addition formulas; ζ^(m/γ) ζ^(-n/γ) = ζ^((m-n)/γ)",
                ("expand", "expand_trig", "expand", "powsimp"),
            )
        ],
        assumptions=(
            "one plane: q, k real pairs, query m and key n integer, θ real",
            "ζ > 0 the plane's decay base ((2i + 0.4d)/(1.4d) in xPos), γ > 0 (512 in xPos): the query is scaled "
            "by ζ^(m/γ), the key by ζ^(-n/γ)",
        ),
        notes="Every factor depends on m - n only: xPos is translation invariant. For ζ < 1 the factor "
        "ζ^((m-n)/γ) decays for keys before the query (m > n) and grows for keys after it, so the score is not "
        "symmetric even for q = k (properties-xpos-rules). The registered mistake is the exponent (n - m)/γ.",
        wrong=zeta ** ((n - m) / gamma) * _relative_plane((n - m) * theta),
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
    value = {"monotone up to m - n": K, "phi(5, 0) < phi(0, 5)": bool(phi(5) < phi(-5))}
    return value, [*value.items(), ("phi(5, 0), phi(0, 5)", [phi(5), phi(-5)]), ("phi(K), phi(K + 1)", values[-2:])]


def xpos_rules() -> Fact:
    return Fact(
        "properties-xpos-rules",
        "xPos (d = 128, b = 10^4, γ = 512), q = k: φ falls up to m - n = 11, and a key before the query scores "
        "below its mirror",
        TOPIC,
        f"{RULES}; {sources.XPOS}",
        "q = k = (1, 0) in every plane: φ(m, n) = Σ_i ζ_i^((m-n)/γ) cos((m - n)θ_i) with ζ_i = (2i + 0.4d)/(1.4d) "
        "(properties-xpos-relative): the largest K with φ(0) > ... > φ(K) over keys before the query, and "
        "φ(5, 0) against φ(0, 5).",
        {"monotone up to m - n": 11, "phi(5, 0) < phi(0, 5)": True},
        _xpos,
        method="mpmath at {dps} digits",
        wrong=lambda dps: _xpos(dps, sign=-1),
        notes="The decay is slow (ζ_0^(11/512) = 0.973): over the short range where φ falls, the cos sum decides, "
        "as for RoPE (properties-rope-monotone-range). The wrong computation uses the exponent (n - m)/γ.",
        formula=sp.Lt(varphi(5, 0), varphi(0, 5)),
    )


# ================================================================================================================
# No position code, with a causal mask.
# ================================================================================================================


def _causal(dps: int, transpose: bool = False):
    big = causal_mask(32, 0)  # (32, 32): key j visible to query i iff j <= i
    if transpose:
        big = big.T
    size = 16
    invariant = all(np.array_equal(big[sh : sh + size, sh : sh + size], big[:size, :size]) for sh in range(17))
    bias = np.where(big, 0.0, -np.inf)  # the mask as an additive bias
    row = bias[15, :16]
    visible = row[np.isfinite(row)]
    value = {
        "translation invariant": invariant,
        "symmetric": bool(np.array_equal(big, big.T)),
        "monotone in |m - n|": bool(np.all(np.diff(visible) > 0)),
        "query 2 reads keys": [int(j) for j in np.flatnonzero(big[2, :size])],
    }
    return value, list(value.items())


def causal_rules() -> Fact:
    return Fact(
        "properties-causal-mask-rules",
        "A causal mask alone (no position code), 32 positions: unchanged by shifts, not symmetric, not monotone",
        TOPIC,
        f"{RULES}; {sources.note('Position rules affect context extension')}",
        "numeric.transformer_xl.causal_mask as an additive bias (0 where the key is visible, -inf where not): "
        "unchanged when queries and keys shift together (shifts 0 .. 16 of a 16 x 16 block), different for (i, j) "
        "and (j, i), and equal (0) on every visible key, so it does not fall with the distance.",
        {
            "translation invariant": True,
            "symmetric": False,
            "monotone in |m - n|": False,
            "query 2 reads keys": [0, 1, 2],
        },
        _causal,
        method="NumPy (numeric.transformer_xl.causal_mask), exact booleans",
        wrong=lambda dps: _causal(dps, transpose=True),
        notes="The mask depends on m - n >= 0 only, yet carries no distance: order-causal-mask-no-position shows "
        "the last token cannot tell the order of the tokens before it. The wrong computation transposes the mask "
        "(keys after the query).",
        formula=sp.Ne(varphi(m, n), varphi(n, m)),
    )


# ================================================================================================================
# Length generalisation: what positions L0 .. L - 1 produce that training never showed.
# ================================================================================================================


def _check_lengths(L0: int, L: int) -> None:
    if not (isinstance(L0, int) and isinstance(L, int) and 2 <= L0 < L):
        raise ValueError(f"lengths must be integers with 2 <= L0 < L, got L0 = {L0!r}, L = {L!r}")


def absolute_lengths(L0: int, L: int, first_new: int | None = None) -> dict:
    r"""Counting, normalized counting ``pos/(N - 1)``, binary and a learned table: what positions ``L0 .. L - 1``
    (or a sequence of ``L`` words) show that positions ``0 .. L0 - 1`` (sequences of at most ``L0``) never did.
    ``first_new`` is the first untrained position (``L0``)."""
    _check_lengths(L0, L)
    first = L0 if first_new is None else first_new
    # pos/(L - 1) in lowest terms has denominator (L - 1)/g, g = gcd(pos, L - 1): it occurred in training iff some
    # N - 1 <= first - 1 is a multiple of it, i.e. iff (L - 1)/g <= first - 1. Positions with gcd g: totient((L-1)/g).
    N1 = L - 1
    new_normalized = sum(int(sp.totient(N1 // g)) for g in sp.divisors(N1) if N1 // g > first - 1)
    top_bit = (first - 1).bit_length()  # bits 0 .. top_bit - 1 are used by positions < first
    return {
        "counting: new component values": L - first,
        "counting: largest component": L - 1,
        "normalized pos/(N - 1): positions of an L-word text with a value no shorter text had": new_normalized,
        "binary: positions setting a bit never set in training": max(0, L - max(first, 2**top_bit)),
        "learned table: positions with an untrained row": L - first,
    }


def _absolute(dps: int, off_by_one: bool = False):
    value = absolute_lengths(TRAINED, TARGET, first_new=TRAINED + 1 if off_by_one else None)
    return value, list(value.items())


def length_absolute() -> Fact:
    return Fact(
        "properties-length-absolute",
        "Trained on 1000 words, asked about 2000: the values absolute codes produce that training never showed",
        TOPIC,
        f"{RELATIVE}; {sources.article('2. The Normalized Counting Method (Option 2)')}",
        "Training shows positions 0 .. 999 (sequences of at most 1000 words). Counting reaches components 1000 .. "
        "1999; normalized counting pos/(N - 1) gives 1998 of the 2000 positions of a 2000-word text a value that "
        "no text of at most 1000 words had (1999 is prime); binary sets bit 10 at positions 1024 .. 1999; a learned "
        "table has 1000 rows that training never updated.",
        {
            "counting: new component values": 1000,
            "counting: largest component": 1999,
            "normalized pos/(N - 1): positions of an L-word text with a value no shorter text had": 1998,
            "binary: positions setting a bit never set in training": 976,
            "learned table: positions with an untrained row": 1000,
        },
        _absolute,
        method="exact integer arithmetic (divisors and Euler's totient for the fractions)",
        wrong=lambda dps: _absolute(dps, off_by_one=True),
        notes="The wrong computation counts position 1000 as trained (an off-by-one).",
        formula=sp.Gt(sp.Symbol("L") - 1, sp.Symbol("L_0") - 1),
    )


def sinusoidal_lengths(L0: int, L: int, width: int = 512, base: float = 10000.0, exponent: float = 2.0) -> dict:
    r"""Sinusoidal codes (absolute ``PE(pos)``, or Transformer-XL's ``R_r`` of distances): the pairs whose angles
    ``pos·θ_i`` at ``pos < L`` leave the trained range ``[0, L0 θ_i)`` without a full period in training."""
    _check_lengths(L0, L)
    th = base ** (-exponent * np.arange(width // 2) / width)
    cov = phase_coverage(th, th, L0, L)
    periodic = sum(st == "periodic" for st in cov.status)
    return {
        "pairs with angles beyond the trained range": len(cov.ood_pairs),
        "first such pair": cov.ood_pairs[0] if cov.ood_pairs else None,
        "pairs that completed a period in training": periodic,
    }


def _sinusoidal(dps: int, exponent: float = 2.0):
    value = sinusoidal_lengths(TRAINED, TARGET, exponent=exponent)
    return value, list(value.items())


def length_sinusoidal() -> Fact:
    return Fact(
        "properties-length-sinusoidal",
        "Sinusoidal codes, d = 512, trained on 1000 positions: 115 pairs see angles at 1000 .. 1999 that training "
        "never showed",
        TOPIC,
        f"{RELATIVE}; {sources.VASWANI}",
        "θ_i = 10000^(-2i/512): pairs 0 .. 140 turn through a full period within 1000 positions (every phase "
        "seen); pairs 141 .. 255 do not, and positions 1000 .. 1999 take them past the largest trained angle. "
        "The same holds for Transformer-XL's R_r at distances r <= 1999 after training on r <= 999.",
        {"pairs with angles beyond the trained range": 115, "first such pair": 141,
         "pairs that completed a period in training": 141},
        _sinusoidal,
        method="NumPy float64 (numeric.extension.phase_coverage)",
        wrong=lambda dps: _sinusoidal(dps, exponent=1.0),
        notes="The wrong computation uses θ_i = 10000^(-i/d) (the 'i/d for 2i/d' slip).",
        formula=sp.Symbol("L_0") * sp.Symbol("theta_i") < 2 * sp.pi,
    )  # fmt: skip


def _side_range(L0: int, L: int, cap: int) -> np.ndarray:
    r"""Distances ``L0 .. L - 1`` that can still change a capped index (those up to ``cap``, and the last)."""
    return np.unique(np.r_[np.arange(L0, min(L, cap + 2)), L - 1])


def capped_lengths(L0: int, L: int, bucket=None) -> dict:
    r"""T5 (32 buckets, max distance 128), DeBERTa clipped (k = 512) and log-bucketed (256, 512, k = 256): the
    indices that distances ``L0 .. L - 1`` (either sign) reach and ``|r| <= L0 - 1`` never did."""
    _check_lengths(L0, L)
    bucket = bucket or t5.t5_relative_bucket

    def new(index, cap):
        seen = _side_range(0, L0, cap)
        later = _side_range(L0, L, cap)
        old = set(index(np.r_[seen, -seen]).tolist())
        return len(set(index(np.r_[later, -later]).tolist()) - old)

    return {
        "T5 (32 buckets, max distance 128): new buckets": new(bucket, 128),
        "DeBERTa clipped (k = 512): new rows": new(lambda r: deberta.deberta_relative_index(r, 512), 512),
        "DeBERTa log buckets (256, 512, k = 256): new rows": new(
            lambda r: deberta.deberta_relative_index(r, 256, 256, 512), 512
        ),
    }


def _uncapped_t5(r):
    r"""T5's bidirectional buckets without the cap ``min(., 15)`` (a bug class seen in ports)."""
    r = np.asarray(r)
    a = np.abs(r)
    far = 8 + np.floor(np.log(np.maximum(a, 8) / 8) / np.log(16) * 8).astype(np.int64)
    return np.where(r > 0, 16, 0) + np.where(a < 8, a, far)


def _capped(dps: int, bucket=None):
    value = capped_lengths(TRAINED, TARGET, bucket)
    return value, list(value.items())


def length_capped() -> Fact:
    return Fact(
        "properties-length-capped",
        "T5 and DeBERTa, trained on 1000 positions: distances up to 1999 reach no bucket or row training missed",
        TOPIC,
        f"{sources.T5}; {sources.DEBERTA}; {sources.DEBERTA_CODE}",
        "The buckets (numeric.t5.t5_relative_bucket) and rows (numeric.deberta.deberta_relative_index) of "
        "distances up to ±1999, against those of distances up to ±999: T5's cap (every |r| >= 91 shares the last "
        "bucket of its side) and DeBERTa's clip (|r| >= k) make them the same sets.",
        {
            "T5 (32 buckets, max distance 128): new buckets": 0,
            "DeBERTa clipped (k = 512): new rows": 0,
            "DeBERTa log buckets (256, 512, k = 256): new rows": 0,
        },
        _capped,
        method="exact integer buckets (numeric.t5, numeric.deberta)",
        wrong=lambda dps: _capped(dps, bucket=_uncapped_t5),
        notes="Nothing new is a statement about indices: every distance past the cap shares one learned value, "
        "which is what the scores then use. The wrong computation forgets T5's cap.",
        formula=sp.Eq(sp.Function("bucket")(n - m), sp.Function("bucket")(sp.sign(n - m) * 91)),
    )


def alibi_lengths(L0: int, L: int, n_heads: int = 8, form: str = "paper") -> dict:
    r"""ALiBi's biases ``-m_h r`` at distances ``r = L0 .. L - 1``: below every bias of training (exact)."""
    _check_lengths(L0, L)
    slope = Fraction(2) ** alibi.alibi_slope_exponents(n_heads)[0]  # the steepest head, exact
    if form == "bloom":  # m_h j: the key position, not the distance
        trained, target = slope * (L0 - 1), slope * (L - 1)
    else:
        trained, target = -slope * (L0 - 1), -slope * (L - 1)
    return {
        "heads": n_heads,
        "new bias values per head": L - L0,
        "head 1: trained biases reach": str(trained),
        "head 1: target biases reach": str(target),
    }


def _alibi(dps: int, form: str = "paper"):
    value = alibi_lengths(TRAINED, TARGET, form=form)
    return value, list(value.items())


def length_alibi() -> Fact:
    return Fact(
        "properties-length-alibi",
        "ALiBi, trained on 1000 positions: distances 1000 .. 1999 give every head 1000 biases below any in training",
        TOPIC,
        sources.ALIBI,
        "The bias -m_h r falls linearly with the distance r: at 8 heads the steepest head (m_1 = 1/2) reached "
        "-999/2 in training and reaches -1999/2 at the target.",
        {
            "heads": 8,
            "new bias values per head": 1000,
            "head 1: trained biases reach": "-999/2",
            "head 1: target biases reach": "-1999/2",
        },
        _alibi,
        method="exact rationals (numeric.alibi.alibi_slope_exponents)",
        wrong=lambda dps: _alibi(dps, form="bloom"),
        notes="Softmax maps those biases to ever smaller weights, which is ALiBi's design; the values themselves "
        "are new. The wrong computation uses Bloom's m_h j (the key position).",
        formula=sp.Lt(-m_h * (sp.Symbol("L") - 1), -m_h * (sp.Symbol("L_0") - 1)),
    )


def rope_lengths(L0: int, L: int, width: int = 128, base: float = 10000.0, scaled: bool = True) -> dict:
    r"""RoPE at ``factor = L/L0`` under each rule, and xPos: the pairs whose relative angles at distances up to
    ``L - 1`` leave the trained range without a full period in training; xPos's decay factors past training."""
    _check_lengths(L0, L)
    trained = inverse_frequencies(width, base)
    factor = L / L0
    value = {}
    for rule in ROPE_RULES:
        scaling, kw = rule_scaling(rule, width, L0, factor, L)
        inv, _ = rope_inv_freq(width, base, scaling if scaled else {}, **(kw if scaled else {}))
        value[rule] = len(phase_coverage(trained, inv, L0, L).ood_pairs)
    value["xpos: angles"] = value["default"]
    value["xpos: pairs with decay factors below training"] = sum(z < 1 for z in xpos_decay_bases(width))
    return value


def _rope_length(dps: int, scaled: bool = True):
    value = rope_lengths(TRAINED, TARGET, scaled=scaled)
    return value, list(value.items())


def length_rope() -> Fact:
    return Fact(
        "properties-length-rope",
        "RoPE (d = 128, b = 10^4) trained on 1000 positions, at 2000: pairs with relative angles training never "
        "showed, per rule at s = 2",
        TOPIC,
        f"{sources.ROFORMER}; {sources.HF_ROPE}; {sources.XPOS}",
        "numeric.extension.phase_coverage of each rule's numeric.scaling.rope_inv_freq at factor s = L/L0 = 2 "
        "(dynamic at length 2000, YaRN, Llama 3 and LongRoPE with L0 = 1000): plain RoPE leaves pairs 36 .. 63 "
        "past the trained angles; Position Interpolation, YaRN and Llama 3 none. xPos has RoPE's angles and, at "
        "distances past 999, decay factors ζ_i^(r/γ) smaller than any in training in all 64 pairs.",
        {
            "default": 28,
            "linear": 0,
            "ntk": 27,
            "dynamic": 4,
            "yarn": 0,
            "llama3": 0,
            "longrope": 27,
            "xpos: angles": 28,
            "xpos: pairs with decay factors below training": 64,
        },
        _rope_length,
        method="NumPy float64 (numeric.scaling.rope_inv_freq, numeric.extension.phase_coverage)",
        wrong=lambda dps: _rope_length(dps, scaled=False),
        notes="These are facts about angles, not about what a model does with them: a larger accepted sequence is "
        "not by itself evidence of reliable long-context behaviour (the RoPE note). The wrong computation forgets "
        "the scaling.",
        formula=sp.Symbol("L_0") * sp.Symbol("theta_i") < 2 * sp.pi,
    )


def claims() -> list:
    return [
        absolute_symmetric(),
        counting_grows(),
        counting_shift(),
        binary_rules(),
        learned_rules(),
        txl_rules(),
        deberta_rules(),
        alibi_antisymmetric(),
        rope_odd_part(),
        rope_rules(),
        xpos_relative(),
        xpos_rules(),
        causal_rules(),
        length_absolute(),
        length_sinusoidal(),
        length_capped(),
        length_alibi(),
        length_rope(),
    ]
