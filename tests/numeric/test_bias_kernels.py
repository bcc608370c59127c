r"""numeric.bias_kernels: FIRE, Sandwich and KERPLE in float64 against their mpmath twins and against the papers'
formulas written out here, the properties the claims prove, and bad input (ValueError naming the argument)."""

import math

import mpmath
import numpy as np
import pytest
from posproof.numeric import bias_kernels as bk
from posproof.numeric.tolerances import FLOAT64_RTOL

I = np.array([0, 1, 5, 17, 300, 1023, 4096])
J = np.array([0, 0, 2, 17, 1, 1000, 7])
PAIRS = list(zip(I.tolist(), J.tolist(), strict=True))


def _close(got, ref):
    ref = np.asarray(ref, dtype=np.float64)
    assert np.max(np.abs(np.asarray(got) - ref)) <= FLOAT64_RTOL * max(1.0, float(np.max(np.abs(ref))))


@pytest.mark.parametrize(("c", "L"), [(1.0, 512.0), (0.5, 2048.0), (2.0, 1.0), (1e-3, 64.0)])
def test_fire_against_twin_and_formula(c, L):
    got = bk.fire_normalized_distance(I, J, c=c, threshold=L)
    twin = [float(bk.fire_normalized_distance_mp(int(i), int(j), c=c, threshold=L)) for i, j in PAIRS]
    formula = [math.log(c * (i - j) + 1) / math.log(c * max(L, i) + 1) for i, j in PAIRS]
    _close(got, twin)
    _close(got, formula)


def test_fire_in_unit_interval_and_relative_within_threshold():
    i, j = np.meshgrid(np.arange(0, 200), np.arange(0, 200), indexing="ij")
    keep = j <= i
    F = bk.fire_normalized_distance(i[keep], j[keep], c=0.7, threshold=50.0)
    assert np.all((F >= 0) & (F <= 1 + 1e-15))
    inside = bk.fire_normalized_distance([10, 30, 50], [0, 20, 40], c=0.7, threshold=50.0)
    assert np.ptp(inside) == 0  # distance 10, every query within L
    beyond = bk.fire_normalized_distance([60, 120], [50, 110], c=0.7, threshold=50.0)
    assert beyond[0] > beyond[1]


def _pe(p, theta):
    return np.stack([np.sin(p * theta), np.cos(p * theta)], -1).ravel()


def test_sandwich_against_twin_and_dot_product():
    for d in (2, 8, 64):
        got = bk.sandwich_bias(I, J, width=d, scale=0.5)
        twin = [float(bk.sandwich_bias_mp(int(i), int(j), width=d, scale=0.5)) for i, j in PAIRS]
        _close(got, twin)
        theta = 10000.0 ** (-np.arange(0, d, 2) / d)
        _close(got, [0.5 * _pe(i, theta) @ _pe(j, theta) for i, j in PAIRS])
    assert bk.sandwich_bias(7, 7, width=16) == 8.0  # d/2 at distance 0
    _close(bk.sandwich_bias(I, J, width=16), bk.sandwich_bias(J, I, width=16))  # symmetric


@pytest.mark.parametrize(("r1", "r2"), [(1.0, 1.0), (0.5, 4.0), (2.0, 0.25)])
def test_kerple_log(r1, r2):
    got = bk.kerple_log_bias(I, J, r1=r1, r2=r2)
    _close(got, [float(bk.kerple_log_bias_mp(int(i), int(j), r1=r1, r2=r2)) for i, j in PAIRS])
    _close(got, [-r1 * math.log(1 + r2 * abs(i - j)) for i, j in PAIRS])
    _close(got, bk.kerple_log_bias(J, I, r1=r1, r2=r2))
    assert np.all(np.diff(bk.kerple_log_bias(0, np.arange(50), r1=r1, r2=r2)) < 0)


@pytest.mark.parametrize(("r1", "r2"), [(1.0, 0.5), (2.0, 2.0), (0.3, 1.5)])
def test_kerple_power(r1, r2):
    got = bk.kerple_power_bias(I, J, r1=r1, r2=r2)
    _close(got, [float(bk.kerple_power_bias_mp(int(i), int(j), r1=r1, r2=r2)) for i, j in PAIRS])
    _close(got, [-r1 * abs(i - j) ** r2 for i, j in PAIRS])
    assert np.all(np.diff(bk.kerple_power_bias(0, np.arange(50), r1=r1, r2=r2)) < 0)


def test_kerple_power_cpd_small_random():
    rng = np.random.default_rng(3)
    pts = np.array([0, 2, 3, 9, 40])
    B = bk.kerple_power_bias(pts[:, None], pts[None, :], r1=1.0, r2=1.5)
    for _ in range(50):
        v = rng.standard_normal(pts.size)
        v -= v.mean()
        assert v @ B @ v >= -1e-9


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: bk.fire_normalized_distance([1], [0], c=0, threshold=1.0), "c"),
        (lambda: bk.fire_normalized_distance([1], [0], c=1.0, threshold=-1), "threshold"),
        (lambda: bk.fire_normalized_distance([0], [1], c=1.0, threshold=1.0), "key_positions"),
        (lambda: bk.fire_normalized_distance(["a"], [0], c=1.0, threshold=1.0), "query_positions"),
        (lambda: bk.fire_normalized_distance_mp(1, 0, c=1, threshold=0), "threshold"),
        (lambda: bk.fire_normalized_distance_mp(0, 1, c=1, threshold=1), "key_position"),
        (lambda: bk.sandwich_bias([1], [0], width=3), "width"),
        (lambda: bk.sandwich_bias([1], [0], width=4, base=1.0), "base"),
        (lambda: bk.sandwich_bias([1], [0], width=4, scale=0), "scale"),
        (lambda: bk.sandwich_bias_mp(1, 0, width=4, base=1), "base"),
        (lambda: bk.kerple_log_bias([1], [0], r1=0, r2=1.0), "r1"),
        (lambda: bk.kerple_log_bias([np.nan], [0], r1=1.0, r2=1.0), "query_positions"),
        (lambda: bk.kerple_log_bias_mp(1, 0, r1=1, r2=-1), "r2"),
        (lambda: bk.kerple_power_bias([1], [0], r1=1.0, r2=2.5), "r2"),
        (lambda: bk.kerple_power_bias_mp(1, 0, r1=1, r2=3), "r2"),
        (lambda: bk.kerple_power_bias_mp(1, 0, r1=1, r2=1, dps=5), "dps"),
    ],
)
def test_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_golden_vectors_deterministic_and_exact_at_known_points():
    a, b = bk.golden_vectors_bias_kernels(), bk.golden_vectors_bias_kernels()
    assert a == b
    assert sorted(a) == ["fire.json", "kerple.json", "sandwich.json"]
    fire = a["fire.json"]["cases"][2]  # c = 2, L = 1: (1, 0) gives log 3 / log 3
    assert fire["outputs"][1] == mpmath.nstr(mpmath.mpf(1), 17, strip_zeros=False)
    for doc in a.values():
        assert all(len(case["outputs"]) == len(bk.GOLDEN_PAIRS) for case in doc["cases"])
