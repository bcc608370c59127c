r"""The three rules for the relative schemes, on the positional part of the score: Transformer-XL's position
term, DeBERTa's scores for one repeated token, and ALiBi's bias (antisymmetric)."""

from __future__ import annotations

import numpy as np
import sympy as sp
from posproof.numeric import deberta, tolerances
from posproof.numeric.transformer_xl import txl_relative_embeddings
from posproof.symbolic import sources, tables
from posproof.symbolic.attention import difference
from posproof.symbolic.engine.core import Fact, Step, Theorem
from posproof.symbolic.properties.common import RULES_SOURCE, TOPIC, identity, m_h, s, varphi
from posproof.symbolic.symbols import m, n

# ================================================================================================================
# Relative schemes: the positional part of the score.
# ================================================================================================================


def _txl(dps: int, distance=lambda r: r):
    rng = np.random.default_rng(2019)
    d_model, width = 16, 8
    W_kR, v = rng.standard_normal((width, d_model)), rng.standard_normal(width)
    r = np.arange(-20, 21)  # m - n
    phi = txl_relative_embeddings(distance(r), width=d_model) @ W_kR.T @ v  # v^T W_{k,R} R_{m-n}
    at = dict(zip(r.tolist(), phi.tolist(), strict=True))
    symmetric = all(abs(at[a] - at[-a]) <= tolerances.FACT_FLOAT64_ATOL for a in range(21))
    monotone = all(at[a + 1] < at[a] and at[-a - 1] < at[-a] for a in range(20))
    value = {"symmetric": symmetric, "monotone in $|m - n|$": monotone}
    return value, [*value.items(), (r"$\varphi$ at $m - n = -3, 0, 3$", [at[-3], at[0], at[3]])]


def txl_rules() -> Fact:
    return Fact(
        "properties-txl-rules",
        r"Transformer-XL's position term $v^T W_{k,R} R_{m-n}$ at a seeded draw of $v$, $W_{k,R}$: neither "
        "symmetric nor monotone",
        TOPIC,
        f"{RULES_SOURCE}; {sources.TXL}",
        "$\\varphi(m, n) = v^\\top W_{k,R} R_{m-n}$ (the position-to-position term) with seeded $v$ (8) and $W_{k,R}$ "
        "($8 \\times 16$), $R$ in "
        "[sin | cos] halves from numeric.transformer_xl.txl_relative_embeddings, for $m - n = -20, \\dots, 20$: "
        "$\\varphi(m, n)$ differs from $\\varphi(n, m)$, and $\\varphi$ does not fall "
        "as $\\lvert m - n \\rvert$ grows.",
        {"symmetric": False, "monotone in $|m - n|$": False},
        _txl,
        method="NumPy float64 (numeric.transformer_xl.txl_relative_embeddings), agreement to "
        + tables.power_of_ten(tolerances.FACT_FLOAT64_ATOL, template=True),
        wrong=lambda dps: _txl(dps, distance=np.abs),
        notes="The sin half of R_{m-n} is odd in $m - n$: only learned weights that ignore it give a symmetric term. "
        "Translation invariance holds ([[claim:txl-translation-invariant]]). With "
        "$\\lvert m - n \\rvert$ in place of $m - n$ the term would be symmetric.",
        formula=sp.Ne(varphi(m, n), varphi(n, m)),
    )


def _deberta(dps: int, transpose=lambda A: A.T):
    rng = np.random.default_rng(2021)
    width = 4

    def scores(length, k, **buckets):
        q, key = rng.standard_normal(width), rng.standard_normal(width)  # the same token at every position
        Qc, Kc = np.tile(q, (length, 1)), np.tile(key, (length, 1))
        Qr, Kr = rng.standard_normal((2 * k, width)), rng.standard_normal((2 * k, width))
        return deberta.deberta_scores_gather(Qc, Kc, Qr, Kr, k=k, **buckets)

    A = scores(12, 3)  # clipped, k = 3
    B = scores(40, 8, bucket_size=8, max_position=32)  # log buckets
    tol = tolerances.FACT_FLOAT64_ATOL
    value = {
        "clipped: symmetric": bool(np.max(np.abs(A - transpose(A))) <= tol),
        r"clipped: constant for $|i - j| \ge k$": bool(np.ptp(A[0, 3:]) <= tol and np.ptp(A[3:, 0]) <= tol),
        "log buckets: translation invariant": bool(np.max(np.abs(B[1:, 1:] - B[:-1, :-1])) <= tol),
        "log buckets: symmetric": bool(np.max(np.abs(B - transpose(B))) <= tol),
        r"log buckets: $\varphi(i, i - 5) = \varphi(i, i - 6)$": bool(abs(B[20, 15] - B[20, 14]) <= tol),
    }
    buckets = deberta.deberta_log_bucket(np.arange(0, 12), bucket_size=8, max_position=32).tolist()
    return value, [*value.items(), ("log buckets (8, 32) of $r = 0, \\dots, 11$", buckets)]


def deberta_rules() -> Fact:
    return Fact(
        "properties-deberta-rules",
        "DeBERTa's scores for one repeated token: not symmetric; constant beyond the window (clipped), equal on "
        "distances that share a log bucket",
        TOPIC,
        f"{RULES_SOURCE}; {sources.DEBERTA}; {sources.DEBERTA_CODE}",
        "numeric.deberta.deberta_scores_gather with the same (seeded) token at every position, so the scores "
        "vary with positions only: clipped with k = 3 over 12 positions, and log buckets (bucket_size 8, "
        "max_position 32, k = 8) over 40 positions; agreement to $10^{-12}$.",
        {
            "clipped: symmetric": False,
            r"clipped: constant for $|i - j| \ge k$": True,
            "log buckets: translation invariant": True,
            "log buckets: symmetric": False,
            r"log buckets: $\varphi(i, i - 5) = \varphi(i, i - 6)$": True,
        },
        _deberta,
        method="NumPy float64 (numeric.deberta.deberta_scores_gather)",
        wrong=lambda dps: _deberta(dps, transpose=lambda A: A),
        notes=r"$\delta(i, j)$ and $\delta(j, i)$ select different rows, so the scores of $(i, j)$ and $(j, i)$ "
        "differ; beyond the window (clipped) or within a bucket (log) the score cannot fall with the distance. "
        "A score matrix compared with itself instead of its transpose would look symmetric.",
        formula=sp.Ne(varphi(m, n), varphi(n, m)),
    )


qi = sp.Symbol("i", integer=True)


def alibi_antisymmetric() -> Theorem:
    key = sp.Add(qi, -s, evaluate=False)  # a key s tokens before the query
    lhs = -m_h * difference(qi, key)
    rhs = -m_h * difference(key, qi)
    return identity(
        "properties-alibi-antisymmetric",
        r"ALiBi's bias $-m_h (i - j)$ is not symmetric: a key before the query gets $-m_h s < m_h s$, the "
        "mirrored value",
        f"{RULES_SOURCE}; {sources.ALIBI}",
        [Step(lhs, rhs, "the gap is $2 m_h s > 0$", ("expand",), rel="<")],
        rel="<",
        assumptions=("$m_h > 0$ a head's slope; query $i$, key $j = i - s$ with $s \\ge 1$",),
        notes=(
            r"$\varphi(j, i) = -\varphi(i, j)$: the formula is antisymmetric. A causal model never reads a key"
            r" after the query, so ALiBi scores one order only; the symmetric "
            r"variant $-m_h |i - j|$ would not be antisymmetric."
        ),
        wrong=-m_h * sp.Abs(difference(key, qi)),
        formula=sp.Lt(varphi(qi, qi - s), varphi(qi - s, qi)),
    )


def claims() -> list:
    return [
        txl_rules(),
        deberta_rules(),
        alibi_antisymmetric(),
    ]
