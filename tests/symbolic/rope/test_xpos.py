r"""The xPos claims (symbolic/rope/xpos.py) beyond the generic per-claim tests: what they state is what
numeric.xpos computes (the score formula and the query's norm, against the 50-digit kernel), and each registered
mistake is the bug the audit names."""

import mpmath
import numpy as np
import pytest
import sympy as sp
from posproof.numeric.xpos import rope_xpos_mp, xpos_zeta
from posproof.symbolic import registry
from posproof.symbolic.rope import xpos

IDS = [
    "xpos-score-relative",
    "xpos-query-norm",
    "xpos-decay-at-most-one",
    "xpos-decay-decreasing",
    "xpos-zeta-below-one",
]
BY_ID = {c.id: c for c in registry.module("rope.xpos")}


def test_the_module_registers_its_claims_in_order():
    assert list(BY_ID) == IDS
    assert all(c.topic == "rope" for c in BY_ID.values())


def _values(width, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(width), rng.standard_normal(width)


def _substitute(expr, width, values):
    r"""The claim's side at a concrete width, with xPos's zeta_i, RoPE's theta_i and the given vectors."""
    qv, kv = values
    theta = [sp.Integer(10000) ** sp.Rational(-2 * j, width) for j in range(width // 2)]
    zeta = [(sp.Rational(2 * j, width) + sp.Rational(2, 5)) / sp.Rational(7, 5) for j in range(width // 2)]
    e = sp.Sum(expr.function, expr.limits[0]).subs(xpos.d, width).doit()
    reps = {xpos.th[j]: theta[j] for j in range(width // 2)} | {xpos.zeta[j]: zeta[j] for j in range(width // 2)}
    reps |= {xpos.q[c]: sp.Float(qv[c], 30) for c in range(width)}
    reps |= {xpos.k[c]: sp.Float(kv[c], 30) for c in range(width)}
    return e.xreplace(reps)


@pytest.mark.parametrize("m, n, origin", [(7, 3, 5), (300, 1000, 512), (0, 0, 2)])
@pytest.mark.parametrize("side", ["lhs", "rhs"])
def test_the_score_claim_states_what_the_kernel_computes(m, n, origin, side):
    # both sides: the left one is the kernel's computation written out (scaled rotations), the right one its form
    width = 6
    values = _values(width)
    claim = BY_ID["xpos-score-relative"]
    expr = _substitute(getattr(claim, side), width, values).subs({xpos.m: m, xpos.n: n, xpos.s: 512, xpos.o: origin})
    qv, kv = values
    pos = [m, n]
    rq, rk = rope_xpos_mp([qv, qv], [kv, kv], pos, layout="interleaved", origin=origin, dps=40)
    with mpmath.workdps(40):
        score = mpmath.fsum(a * b for a, b in zip(rq[0], rk[1], strict=True))
        assert abs(score - mpmath.mpf(str(sp.N(expr, 40)))) < mpmath.mpf(10) ** -25


def test_the_norm_claim_states_what_the_kernel_computes():
    width, m, origin = 4, 900, 100
    values = _values(width, seed=1)
    rhs = _substitute(BY_ID["xpos-query-norm"].rhs, width, values).subs({xpos.m: m, xpos.s: 512, xpos.o: origin})
    rq, _ = rope_xpos_mp([values[0]], [values[1]], [m], origin=origin, dps=40)
    with mpmath.workdps(40):
        norm2 = mpmath.fsum(v * v for v in rq[0])
        assert abs(norm2 - mpmath.mpf(str(sp.N(rhs, 40)))) < mpmath.mpf(10) ** -25
        assert abs(norm2 - mpmath.fsum(mpmath.mpf(v) ** 2 for v in values[0])) > mpmath.mpf(10) ** -3  # not |q|^2


def test_the_registered_mistake_of_the_score_is_the_key_scaled_up():
    # the audit's xpos-key-scale-direction: both outputs scaled by zeta**(+p/s); the claim's wrong side is its score
    width, m, n, origin = 4, 40, 7, 3
    values = _values(width, seed=2)
    wrong = _substitute(BY_ID["xpos-score-relative"].wrong, width, values)
    wrong = wrong.subs({xpos.m: m, xpos.n: n, xpos.s: 512, xpos.o: origin})
    qv, kv = values
    rq, _ = rope_xpos_mp([qv], [kv], [m], origin=origin, dps=40)
    kq, _ = rope_xpos_mp([kv], [kv], [n], origin=origin, dps=40)  # the key through the query's map
    with mpmath.workdps(40):
        score = mpmath.fsum(a * b for a, b in zip(rq[0], kq[0], strict=True))
        assert abs(score - mpmath.mpf(str(sp.N(wrong, 40)))) < mpmath.mpf(10) ** -25


def test_the_decay_claims_cover_xpos_zeta():
    # zeta_i of the kernel lie in (0, 1): the decay claims' hypothesis (zeta = 1/(1 + w), w >= 0) holds for them
    for width in (2, 8, 128):
        z = xpos_zeta(width)
        assert np.all(z > 0) and np.all(z < 1)
        w = 1 / z - 1
        assert np.all(w > 0)


def test_the_decay_needs_keys_before_the_query():
    # without m >= n the bound is false (keys after the query are scaled up): rejected
    import dataclasses

    claim = dataclasses.replace(BY_ID["xpos-decay-at-most-one"], id="xpos-decay-any-key", given=())
    assert not claim.verify().ok
