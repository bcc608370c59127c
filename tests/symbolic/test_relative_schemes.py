r"""The numeric relative schemes agree with the symbolic models of symbolic.{deberta, alibi, transformer_xl}."""

import mpmath
import numpy as np
import pytest
import sympy as sp
from posproof.numeric import alibi_slopes, deberta_delta
from posproof.numeric.alibi import alibi_slopes_mp
from posproof.numeric.transformer_xl import txl_relative_embeddings, txl_scores_direct
from posproof.symbolic import alibi as A
from posproof.symbolic import attention, registry
from posproof.symbolic import deberta as D
from posproof.symbolic import transformer_xl as X


def test_deberta_delta_matches_piecewise_definition():
    i, j, k = D.i, D.j, D.k
    for kk in (1, 2, 5):
        for a in range(-8, 9):
            for b in range(-8, 9):
                sym = D.delta_piecewise(i, j).subs({i: a, j: b, k: kk})
                assert int(sym) == int(deberta_delta([a - b], k=kk)[0])
                assert D.Delta(a, b, kk).doit() == sym
                assert D.Delta.numeric(mpmath.mpf(a), mpmath.mpf(b), mpmath.mpf(kk)) == int(sym)


def test_alibi_slopes_match_symbolic_geometric_form_at_50_digits():
    n, h = A.n_heads, A.hh
    formula = 2 ** (-8 * h / n)
    for nh in (1, 2, 4, 8, 16, 64):
        with mpmath.workdps(50):
            mp = alibi_slopes_mp(nh)
            for hh in range(1, nh + 1):
                exact = sp.N(formula.subs({n: nh, h: hh}), 50)
                assert abs(mpmath.mpf(str(exact)) - mp[hh - 1]) < mpmath.mpf(10) ** -45
        np.testing.assert_allclose(alibi_slopes(nh), [float(x) for x in mp], rtol=1e-15)


def test_txl_score_matches_symbolic_components():
    # numeric direct score == the symbolic component form txl_score(m - n) with g = W_kR^T (q + v), [sin|cos] halves
    rng = np.random.default_rng(5)
    hh, qlen, mlen = 2, 2, 1
    dd, d_model = 4, 2 * hh
    q, k = rng.normal(size=(qlen, dd)), rng.normal(size=(qlen + mlen, dd))
    W, u, v = rng.normal(size=(dd, d_model)), rng.normal(size=dd), rng.normal(size=dd)
    A = txl_scores_direct(q, k, W, u, v, base=10000.0)
    theta = [10000.0 ** (-2 * p / d_model) for p in range(hh)]
    for a in range(qlen):
        for b in range(qlen + mlen):
            g = W.T @ (q[a] + v)
            expr = X.txl_score(a + mlen - b).subs(attention.h, hh).doit()
            subs = {attention.THETA[p]: theta[p] for p in range(hh)}
            subs |= {X.G_[c]: g[c] for c in range(d_model)}
            subs |= {X.Q_[c]: q[a, c] for c in range(2 * hh)} | {X.U_[c]: u[c] for c in range(2 * hh)}
            subs |= {X.K_[c]: k[b, c] for c in range(2 * hh)}
            assert float(expr.subs(subs)) == pytest.approx(A[a, b], rel=1e-12)


def test_txl_relative_table_matches_mpmath():
    with mpmath.workdps(50):
        for dist in (0, 3, 17, 500):
            row = txl_relative_embeddings([dist], width=8)[0]
            th = [mpmath.mpf(10000) ** (-mpmath.mpf(2 * p) / 8) for p in range(4)]
            ref = [mpmath.sin(dist * t) for t in th] + [mpmath.cos(dist * t) for t in th]
            assert max(abs(mpmath.mpf(float(x)) - y) for x, y in zip(row, ref, strict=True)) < 1e-13


def test_every_relative_claim_has_the_topic_prefix():
    for c in registry.topic("relative"):
        assert c.id.split("-")[0] in {"attention", "txl", "deberta", "t5", "alibi"}, c.id
        assert c.topic == "relative"
