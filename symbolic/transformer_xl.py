r"""Transformer-XL (Dai et al. 2019): the four terms rewritten with relative distances, and the relative-shift
trick of the reference code (what it computes on and below the causal diagonal, and what it leaves above).

Convention: the distance is ``m - n`` (query - key); the memory keys come first (``k_len = q_len + m_len``).
"""

from __future__ import annotations

import numpy as np
import sympy as sp
from posproof.numeric import tolerances
from posproof.numeric.transformer_xl import causal_mask, rel_shift, txl_scores_direct, txl_scores_shift
from posproof.symbolic import sinusoidal, sources, tables
from posproof.symbolic.attention import (
    MAT_SIZES,
    TOPIC,
    W_q,
    column_vector,
    difference,
    four_terms,
    h,
    i,
    identity,
    l,
    pairs,
    square_matrix,
    theta_i,
    x_m,
    x_n,
)
from posproof.symbolic.engine.core import Fact, Step, Theorem

TXL = sources.TXL

W_kE, W_kR = square_matrix("W_{k,E}"), square_matrix("W_{k,R}")
u, v = column_vector("u"), column_vector("v")
R_mn = column_vector("R_{m-n}")
_A_rel = sp.Function("A_rel")  # Transformer-XL's score of query i and key j (statements only)
_shifted = sp.Function("S")  # the relative shift's output entry (i, j)


def txl_from_four_terms() -> Theorem:
    # The four terms with Transformer-XL's substitutions: key position p_n -> R_{m-n} with its own W_{k,R};
    # key content keeps W_{k,E}; the query's position W_q p_m -> u (with content keys) and v (with R).
    lhs = sp.Add(*four_terms(W_q * x_m, u, v, W_kE, W_kR, x_n, R_mn))
    rhs = (W_q * x_m + u).T * W_kE * x_n + (W_q * x_m + v).T * W_kR * R_mn
    return identity(
        "txl-from-four-terms",
        "Transformer-XL rewrites the four terms; the code adds $u$, $v$ to the query",
        TXL,
        [
            Step(
                lhs,
                rhs,
                "collect the terms sharing a key: (a)+(c) with $W_{k,E} x_n$, (b)+(d) with $W_{k,R} R_{m-n}$",
                ("expand",),
            )
        ],
        assumptions=(
            r"the four terms of `attention-four-term-expansion` with $p_n \to R_{m-n}$ (own $W_{k,R}$), "
            r"$W_k x_n \to W_{k,E} x_n$, and the query-side $W_q p_m \to u$ (content) and $v$ (position)",
        ),
        formula=sp.Eq(lhs, rhs, evaluate=False),
        sizes=MAT_SIZES,
        notes=(
            r"The right side is what the reference code computes: $\mathrm{AC} = (q + u) k^T$ and $\mathrm{BD}"
            r" = (q + v) r^T$, with `r_w_bias` the $u$ and `r_r_bias` the $v$."
        ),
        wrong=(W_q * x_m + v).T * W_kE * x_n + (W_q * x_m + u).T * W_kR * R_mn,  # u and v swapped
    )


Q_ = sp.IndexedBase("q", real=True)  # W_q x_m, the query content
U_ = sp.IndexedBase("u", real=True)
K_ = sp.IndexedBase("k^E", real=True)  # W_{k,E} x_n, the key content
G_ = sp.IndexedBase("g", real=True)  # W_{k,R}^T (W_q x_m + v)


def txl_score(r) -> sp.Expr:
    r"""``A_rel`` in components for the distance ``r = m - n``: content part plus ``g . R_r`` with ``R_r`` in
    ``[sin | cos]`` halves (``R_r[i] = sin rθ_i``, ``R_r[h+i] = cos rθ_i``);
    tests/symbolic/test_relative_schemes.py checks numeric.transformer_xl against it."""
    content = sp.Sum((Q_[l] + U_[l]) * K_[l], (l, 0, 2 * h - 1))
    return content + pairs(G_[i] * sp.sin(r * theta_i) + G_[h + i] * sp.cos(r * theta_i))


# ---- the relative-shift trick ------------------------------------------------------------------------------------
qlen = sp.Symbol("q_len", integer=True, positive=True)
mlen = sp.Symbol("m_len", integer=True, nonnegative=True)
ri, rj = sp.symbols("i j", integer=True, nonnegative=True)


def txl_shift_index() -> Theorem:
    klen = qlen + mlen
    lhs = qlen + ri * klen + rj  # offset of output (i, j) in the padded buffer (first row of q_len entries dropped)
    rhs = ri * (klen + 1) + (rj + qlen - ri)  # row i, column j + q_len - i of the padded (q_len, k_len + 1) matrix
    return identity(
        "txl-rel-shift-index",
        r"The relative shift reads output $(i, j)$ from padded row $i$, column $j + q_{\mathrm{len}} - i$",
        TXL,
        [Step(lhs, rhs, "row-major offsets of the two views of one buffer", ("expand",))],
        assumptions=(
            r"$k_{\mathrm{len}} = q_{\mathrm{len}} + m_{\mathrm{len}}$ keys (memory first); "
            r"$0 \le i < q_{\mathrm{len}}$, $0 \le j < k_{\mathrm{len}}$",
            r"the column $j + q_{\mathrm{len}} - i$ lies in $[1, k_{\mathrm{len}}]$ exactly when "
            r"$j \le i + m_{\mathrm{len}}$ (on or below the causal diagonal); for $j > i + m_{\mathrm{len}}$ the "
            r"offset spills into padded row $i + 1$",
        ),
        formula=sp.Eq(lhs, rhs, evaluate=False),
        notes="Column 0 of the padded matrix is the zero pad; column $c \\ge 1$ holds raw column $c - 1$.",
        wrong=ri * (klen + 1) + (rj + qlen - ri - 1),  # the off-by-one: forgetting the pad column
    )


def txl_shift_distance() -> Theorem:
    klen = qlen + mlen
    lhs = difference(sp.Add(klen, -1, evaluate=False), sp.Add(rj + qlen - ri, -1, evaluate=False))  # k_len-1-c
    return identity(
        "txl-rel-shift-distance",
        r"On and below the diagonal the shifted entry has distance $i + m_{\mathrm{len}} - j$",
        TXL,
        [
            Step(
                lhs,
                ri + mlen - rj,
                r"raw column $c = j + q_{\mathrm{len}} - i - 1$ holds distance $k_{\mathrm{len}} - 1 - c$",
                ("expand",),
            )
        ],
        assumptions=(
            r"the raw product uses the distances $k_{\mathrm{len}} - 1, \dots, 0$ (`pos_seq` counts down)",
            r"$j \le i + m_{\mathrm{len}}$ (see `txl-rel-shift-index`)",
        ),
        formula=sp.Eq(lhs, ri + mlen - rj, evaluate=False),
        notes=(
            r"$i + m_{\mathrm{len}}$ is the query's absolute position, so this is exactly $R_{i'-j}$: the "
            r"trick computes the direct $O(L^2)$ gather on and below the causal diagonal."
        ),
        wrong=ri + mlen - rj + 1,
    )


def rel_shift_drop_last(x) -> np.ndarray:
    r"""An off-by-one port of the relative shift: pad, view as ``(k_len + 1, q_len)``, drop the *last* row."""
    x = np.asarray(x)
    q, kl = x.shape[:2]
    padded = np.concatenate([np.zeros((q, 1), dtype=x.dtype), x], axis=1).reshape(kl + 1, q)
    return padded[:-1].reshape(q, kl)


def _shift_labels(dps: int, shift=rel_shift):
    # Exact integer labels: raw[i, c] = 1000 (i + 1) + distance (k_len - 1 - c), so every entry says where it is from.
    mismatches, above = 0, None
    rows: list[tuple[str, object]] = []
    for q in range(1, 7):
        for mem in range(0, 5):
            kl = q + mem
            raw = np.array([[1000 * (a + 1) + (kl - 1 - c) for c in range(kl)] for a in range(q)], dtype=np.int64)
            out = shift(raw)
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
    rows.append(("`rel_shift` of the labels for `q_len = 3`, `m_len = 1`", above))
    rows.append(("entries checked", sum(q * (q + mem) for q in range(1, 7) for mem in range(5))))
    return mismatches, rows


def txl_shift_fact() -> Fact:
    return Fact(
        "txl-rel-shift-garbage",
        "What the relative shift leaves above the causal diagonal",
        TOPIC,
        TXL,
        r"Labels $1000 (i + 1) + \text{distance}$, shifted for every $q_{\mathrm{len}} \le 6$, "
        r"$m_{\mathrm{len}} \le 4$: on and below the diagonal each entry is query $i$ at distance "
        r"$i + m_{\mathrm{len}} - j$; at $j = i + m_{\mathrm{len}} + 1$ the zero pad; further right query $i + 1$ at "
        r"distance $i + m_{\mathrm{len}} + 1 + k_{\mathrm{len}} - j$ (the last row has nothing above the diagonal). "
        "No entry differs from its label.",
        claim=0,
        compute=_shift_labels,
        method="exact integer labels through numeric.transformer_xl.rel_shift",
        notes="The leftovers are finite scores of the wrong query and distance, not NaN: the causal mask must "
        "remove them. Dropping the last instead of the first row (an off-by-one port) mislabels entries.",
        wrong=lambda dps: _shift_labels(dps, shift=rel_shift_drop_last),
        formula=sp.Eq(_shifted(ri, ri + mlen + 1), 0, evaluate=False),
    )


def _toeplitz(dps: int, shift=rel_shift):
    r"""Identical tokens: the score depends on positions only, so on and below the diagonal it must be constant
    along diagonals; and the shifted scores must equal the direct gather there."""
    rng = np.random.default_rng(7)
    d_model, d = 8, 6
    q_len, m_len = 7, 3
    tok_q, tok_k = rng.standard_normal(d), rng.standard_normal(d)
    q = np.tile(tok_q, (q_len, 1))  # (q_len, d): the same token everywhere
    k = np.tile(tok_k, (q_len + m_len, 1))  # (k_len, d)
    W_kR = rng.standard_normal((d, d_model))
    u, v = rng.standard_normal(d), rng.standard_normal(d)
    if shift is rel_shift:
        A = txl_scores_shift(q, k, W_kR, u, v)
    else:  # the same computation as numeric.transformer_xl.txl_scores_shift, with another shift
        from posproof.numeric.transformer_xl import txl_relative_embeddings

        r = txl_relative_embeddings(np.arange(q_len + m_len - 1, -1, -1), width=d_model) @ W_kR.T
        A = (q + u) @ k.T + shift((q + v) @ r.T)
    direct = txl_scores_direct(q, k, W_kR, u, v)
    mask = causal_mask(q_len, mlen=m_len)  # (q_len, k_len): j <= i + m_len
    by_distance: dict = {}
    for a in range(q_len):
        for c in range(q_len + m_len):
            if mask[a, c]:
                by_distance.setdefault(a + m_len - c, []).append(A[a, c])
    spread = max(max(vals) - min(vals) for vals in by_distance.values())
    toeplitz = bool(spread <= tolerances.FACT_FLOAT64_ATOL)
    agrees = bool(np.max(np.abs(A - direct)[mask]) <= tolerances.FACT_FLOAT64_ATOL)
    return [toeplitz, agrees], [
        ("distances on and below the diagonal", sorted(by_distance)),
        ("largest spread of one distance's scores", float(spread)),
        (
            r"largest $|\mathrm{shift} - \mathrm{direct}|$ on and below the diagonal",
            float(np.max(np.abs(A - direct)[mask])),
        ),
    ]


def txl_translation() -> Fact:
    return Fact(
        "txl-translation-invariant",
        r"Transformer-XL scores computed with the relative shift depend only on $i + m_{\mathrm{len}} - j$, and "
        "equal the direct gather, on and below the causal diagonal",
        TOPIC,
        TXL,
        r"$q_{\mathrm{len}} = 7$, $m_{\mathrm{len}} = 3$, $d = 6$, $d_{\mathrm{model}} = 8$, the same token at every "
        "position (seeded random projections, $u$, $v$): the scores of `numeric.transformer_xl.txl_scores_shift` "
        r"are constant along each distance $i + m_{\mathrm{len}} - j$ (translation invariance of the positional "
        "part) and equal `txl_scores_direct` there. The result "
        "states, in order, that the scores are constant along distances and that they equal the direct gather.",
        [True, True],
        _toeplitz,
        method="NumPy float64 (numeric.transformer_xl), agreement to "
        + tables.power_of_ten(tolerances.FACT_FLOAT64_ATOL, template=True),
        wrong=lambda dps: _toeplitz(dps, shift=rel_shift_drop_last),
        formula=sp.Eq(_A_rel(ri + 1, rj + 1), _A_rel(ri, rj), evaluate=False),
        notes="The score's positional part is a function of $m - n$ by construction (Transformer-XL's rewrite); what "
        "is checked is that the shift trick of the code computes it. The off-by-one "
        "shift that drops the last row breaks it.",
    )


def claims() -> list:
    return [txl_from_four_terms(), txl_translation(), txl_shift_index(), txl_shift_distance(), txl_shift_fact()]


# ---- the rules table: Transformer-XL's row (symbolic.tables) ---------------------------------------------------

RULES_ROWS = (
    tables.Row(
        60,
        "Transformer-XL",
        tables.phi(
            sp.MatMul(tables.vec("v").T, sp.MatrixSymbol("W_{k,R}", tables.d, tables.d), tables.vec("R_{m - n}"))
        ),
        (
            tables.Cell(
                "properties-txl-rules", read=tables.key("monotone in $|m - n|$"), note=r"learned $v$, $W_{k,R}$"
            ),
            tables.Cell("txl-translation-invariant", read=lambda v: v[0]),
            tables.Cell("properties-txl-rules", read=tables.key("symmetric")),
        ),
        sinusoidal.LENGTH,
    ),
)


# ---- the texts: the statements of the article and the RoPE note that this module's claims decide ---------------
# (symbolic.tables; the first number is the statement's place in the texts, the verdicts are V verified, C corrected,
# R holds on a range, X not checkable)


def _annotations() -> tuple[tables.Annotation, ...]:
    a, S = tables.in_article, tables.S
    V, C, R, X = tables.ANNOTATION_VERDICTS
    return (
        # 1. Transformer-XL (The Surgical Hack)
        a(560, S[14], "replacing it with a relative distance vector", "Transformer-XL replaces p_n in terms 2 and 4 by "
          "a relative vector of m - n.", V, "txl-from-four-terms", note="with its own projection W_{k,R}"),
        a(570, S[14], "simple, trainable bias vectors ($u$ and $v$)", "It replaces the query position in terms 3 and 4 "
          "by trainable u and v.", V, "txl-from-four-terms"),
        a(580, S[14], "but rather on how far apart they are", "So attention depends on how far apart words are, not "
          "where.", V, "txl-translation-invariant", ((0,),), (True,)),
    )  # fmt: skip


ANNOTATIONS = _annotations()
