r"""numeric.xpos: the xPos kernel against an independent NumPy computation of the paper's formula, its mpmath twin,
the public implementations (tests/numeric/xpos_ports.py: flash-attn, x-transformers, torchscale), and the
properties the claims prove (scores relative, each output scaled, the origin cancelling)."""

import mpmath
import numpy as np
import pytest
from posproof.numeric.rotary import rope
from posproof.numeric.tolerances import FLOAT64_RTOL, ROPE_FLOAT32_RTOL
from posproof.numeric.xpos import rope_xpos, rope_xpos_mp, xpos_scale, xpos_zeta

from tests.numeric import xpos_ports

RNG = np.random.default_rng(7)
Q, K = RNG.standard_normal((6, 8)), RNG.standard_normal((6, 8))
POS = np.array([0, 1, 5, 17, 300, 1023])


def _by_formula(x, pos, *, sign, layout, base=10000.0, s=512.0, gamma=0.4, origin=0.0):
    r"""xPos written out pair by pair from Sun et al.'s formula (no posproof code): pair i of the row at m turns by
    m base^(-2i/d) and is scaled by ((2i/d + gamma)/(1 + gamma))^(sign (m - origin)/s)."""
    d = x.shape[1]
    out = x.astype(np.float64).copy()
    for t, m in enumerate(pos):
        for i in range(d // 2):
            a, b = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + d // 2)
            angle = m * base ** (-2 * i / d)
            zeta = (2 * i / d + gamma) / (1 + gamma)
            scale = zeta ** (sign * (m - origin) / s)
            xa, xb = x[t, a], x[t, b]
            out[t, a] = scale * (xa * np.cos(angle) - xb * np.sin(angle))
            out[t, b] = scale * (xa * np.sin(angle) + xb * np.cos(angle))
    return out


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("origin", [0.0, 512.0, 3.5])
def test_rope_xpos_is_the_papers_formula(layout, origin):
    rq, rk = rope_xpos(Q, K, POS, layout=layout, origin=origin)
    np.testing.assert_allclose(rq, _by_formula(Q, POS, sign=1, layout=layout, origin=origin), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rk, _by_formula(K, POS, sign=-1, layout=layout, origin=origin), rtol=1e-12, atol=1e-12)


def test_float64_agrees_with_the_mpmath_twin():
    kw = {"layout": "half", "scale_base": 256, "gamma": 0.5, "origin": 100, "base": 500000.0}
    rq, rk = rope_xpos(Q, K, POS, **kw)
    mq, mk = rope_xpos_mp(Q, K, POS, dps=50, **kw)
    for got, ref in ((rq, mq), (rk, mk)):
        ref = np.array(ref, dtype=np.float64)
        assert np.max(np.abs(got - ref)) <= FLOAT64_RTOL * np.max(np.abs(ref))


def test_the_mpmath_twin_takes_the_decimal_gamma():
    # gamma "0.4" is 2/5 at the working precision; the float 0.4 is not
    (row,), _ = rope_xpos_mp([[1, 0]], [[1, 0]], [512], dps=60)
    with mpmath.workdps(60):
        want = mpmath.mpf(2) / 7 * mpmath.cos(512)  # zeta_0 = 0.4/1.4 = 2/7, to the power 512/512
        assert abs(row[0] - want) < mpmath.mpf(10) ** -55


def test_scores_depend_on_the_distance_only():
    rq, rk = rope_xpos(Q, K, POS, layout="half", origin=40)
    sq, sk = rope_xpos(Q, K, POS + 777, layout="half", origin=-3)  # another shift and another origin
    np.testing.assert_allclose(sq @ sk.T, rq @ rk.T, rtol=1e-9, atol=1e-9)


def test_each_output_is_scaled_not_norm_preserving():
    m, origin = np.array([1000]), 24.0
    rq, rk = rope_xpos(Q[:1], K[:1], m, layout="interleaved", origin=origin)
    zeta = xpos_zeta(8)
    pair_q = np.hypot(rq[0, 0::2], rq[0, 1::2]) / np.hypot(Q[0, 0::2], Q[0, 1::2])
    pair_k = np.hypot(rk[0, 0::2], rk[0, 1::2]) / np.hypot(K[0, 0::2], K[0, 1::2])
    np.testing.assert_allclose(pair_q, zeta ** ((1000 - origin) / 512), rtol=1e-12)
    np.testing.assert_allclose(pair_k, zeta ** (-(1000 - origin) / 512), rtol=1e-12)
    assert abs(np.linalg.norm(rq) - np.linalg.norm(Q[0])) > 0.1


def test_at_the_origin_it_is_rope():
    rq, rk = rope_xpos(Q, K, POS, layout="half", origin=17)
    np.testing.assert_allclose(rq[3], rope(Q[3:4], [17], layout="half")[0], rtol=1e-13)
    np.testing.assert_allclose(rk[3], rope(K[3:4], [17], layout="half")[0], rtol=1e-13)


def test_zeta_and_scale():
    np.testing.assert_allclose(xpos_zeta(8), (np.arange(0, 8, 2) + 0.4 * 8) / (1.4 * 8), rtol=1e-15)
    np.testing.assert_allclose(xpos_scale([512], rotary_dim=8, gamma=1.0)[0], (np.arange(4) / 4 + 1) / 2)


def test_partial_rotary_leaves_the_tail_alone():
    rq, rk = rope_xpos(Q, K, POS, rotary_dim=4, origin=0)
    np.testing.assert_array_equal(rq[:, 4:], Q[:, 4:])
    np.testing.assert_array_equal(rk[:, 4:], K[:, 4:])
    np.testing.assert_allclose(rq[:, :4], rope_xpos(Q[:, :4], K[:, :4], POS)[0], rtol=1e-15)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"gamma": 0}, "gamma must be"),
        ({"scale_base": -1}, "scale_base must be"),
        ({"origin": float("nan")}, "origin must be"),
        ({"layout": "diagonal"}, "layout must be"),
        ({"rotary_dim": 16}, "rotary_dim must be"),
    ],
)
def test_bad_arguments_name_themselves(kwargs, match):
    with pytest.raises(ValueError, match=match):
        rope_xpos(Q, K, POS, **kwargs)


def test_q_k_and_positions_must_fit():
    with pytest.raises(ValueError, match="one shape"):
        rope_xpos(Q, K[:, :4], POS)
    with pytest.raises(ValueError, match="one position per row"):
        rope_xpos(Q, K, POS[:3])


# ---- the public implementations (ports in tests/numeric/xpos_ports.py) -------------------------------------------


@pytest.mark.parametrize(
    "port, layout, origin",
    [
        (lambda: xpos_ports.flash_attn("half"), "half", lambda L: L // 2),
        (lambda: xpos_ports.flash_attn("interleaved"), "interleaved", lambda L: L // 2),
        (xpos_ports.x_transformers, "interleaved", lambda L: L // 2),
        (xpos_ports.torchscale, "interleaved", lambda L: (L + 1) // 2),
    ],
    ids=["flash-attn", "flash-attn-interleaved", "x-transformers", "torchscale"],
)
def test_the_kernel_computes_what_the_sources_compute(port, layout, origin):
    torch = pytest.importorskip("torch", reason="the ports of the public implementations run on torch")
    pos = np.array([0, 3, 7, 2, 10, 600])
    q, k = Q[:, :8], K[:, :8]
    got = port()(torch.from_numpy(q), torch.from_numpy(k), torch.from_numpy(pos))
    want = rope_xpos(q, k, pos, layout=layout, origin=origin(int(pos.max()) + 1))
    for g, w in zip(got, want, strict=True):
        # float32 tables (cos, sin and the scale rounded) against float64: relative to the largest entry
        assert np.max(np.abs(g.double().numpy() - w)) <= 8 * ROPE_FLOAT32_RTOL * np.max(np.abs(w))
