r"""Context-extension diagnostics: phase coverage, critical dimension, base bound and the report (the ``posproof
extend`` command: tests/derivations/commands/test_extend.py)."""

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from posproof.numeric.scaling.extension import (
    WARNING,
    base_bound,
    base_bound_bases,
    cosine_sums,
    critical_dimension,
    diagnose,
    extension_report,
    first_negative_cosine_sum,
    phase_coverage,
)
from posproof.numeric.scaling.rules import RopeScaling, rope_inv_freq
from posproof.numeric.sinusoid import inverse_frequencies

from tests import strategies as S

# ---- phase coverage --------------------------------------------------------------------------------------------------


def test_coverage_definitions_on_a_hand_example():
    # pair 0: L0 theta = 100 >= 2 pi (periodic); pair 1: trained range [0, 0.1), target reach 399 * 0.0005
    cov = phase_coverage([1.0, 0.001], [1.0, 0.0005], L0=100, L=400)
    assert cov.status == ("periodic", "out of distribution") and cov.ood_pairs == (1,)
    assert cov.excess[1] == pytest.approx(399 * 0.0005 / 0.1)
    assert cov.trained_coverage == (1.0, pytest.approx(0.1 / (2 * math.pi)))
    assert cov.target_coverage[1] == pytest.approx(400 * 0.0005 / (2 * math.pi))
    assert cov.unseen == (0.0, pytest.approx((399 * 0.0005 - 0.1) / (2 * math.pi)))


def test_interpolation_to_s_L0_stays_inside_and_one_more_position_leaves():
    s, L0 = 4.0, 1024
    theta = inverse_frequencies(64, base=10000.0)
    inv, _ = rope_inv_freq(64, base=10000.0, scaling={"rope_type": "linear", "factor": s})
    inside = phase_coverage(theta, inv, L0, int(s * L0))  # m < s L0: m theta/s < L0 theta
    assert inside.ood_pairs == () and max(inside.excess) < 1
    beyond = phase_coverage(theta, inv, L0, int(s * L0) + 1)  # m = s L0 reaches L0 theta exactly
    non_periodic = [i for i, st_ in enumerate(beyond.status) if st_ != "periodic"]
    assert beyond.ood_pairs == tuple(non_periodic)


def test_plain_rope_beyond_L0_is_out_of_distribution_past_the_critical_dimension():
    report = extension_report(128, 10000.0, None, trained=4096, target=32768, with_base_bound=False)
    assert report.critical_dimension == 92
    assert report.coverage.ood_pairs == tuple(range(46, 64))  # exactly the pairs past d_extra/2
    assert [g.status for g in report.groups] == ["periodic", "out of distribution"]
    assert report.groups[1].excess[1] == pytest.approx(32767 / 4096)


def test_static_ntk_leaves_middle_pairs_out_of_distribution():
    report = extension_report(128, 10000.0, {"rope_type": "ntk", "factor": 8.0}, trained=4096, target=32768,
                              with_base_bound=False)  # fmt: skip
    assert report.coverage.ood_pairs == tuple(range(46, 63))  # the last pair is divided by exactly s: inside
    assert report.coverage.status[63] == "inside"


@pytest.mark.parametrize(
    "scaling",
    [
        {"rope_type": "linear", "factor": 8.0},
        {"rope_type": "yarn", "factor": 8.0},
        {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0},
        {"rope_type": "dynamic", "factor": 8.0},
    ],
    ids=lambda s: s["rope_type"],
)
def test_rules_reaching_s_L0_keep_every_angle_in_distribution(scaling):
    report = extension_report(128, 10000.0, scaling, trained=4096, target=32768, with_base_bound=False)
    assert report.coverage.ood_pairs == ()


def test_llama31_at_131072_extrapolates_twice_its_trained_range():
    # factor 8 over L0 = 8192 covers 65536: at 131072 the interpolated pairs see twice their trained range
    cfg = RopeScaling(128, base=500000.0, rope_type="llama3", factor=8.0, original_max_position_embeddings=8192,
                      low_freq_factor=1.0, high_freq_factor=4.0)  # fmt: skip
    report = diagnose(cfg, target=131072, with_base_bound=False)
    assert report.L0 == 8192 and report.coverage.ood_pairs == tuple(range(35, 64))
    assert max(report.coverage.excess[35:]) == pytest.approx(131071 / 8 / 8192)


@given(S.scaling_widths, S.bases, S.scaling_factors, st.integers(16, 4096))
def test_linear_never_leaves_the_trained_range_up_to_s_L0(width, base, s, L0):
    theta = inverse_frequencies(width, base=base)
    cov = phase_coverage(theta, theta / s, L0, max(1, math.floor(s * L0)))
    assert cov.ood_pairs == ()


# ---- critical dimension and cosine sums ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "d, base, L0, expected",
    [(128, 10000.0, 4096, 92), (128, 500000.0, 8192, 70), (96, 10000.0, 4096, 68), (128, 10000.0, 2, 0),
     (8, 10.0, 10**9, 8)],
)  # fmt: skip
def test_critical_dimension(d, base, L0, expected):
    assert critical_dimension(d, base, L0) == expected
    if 0 < expected < d:  # the pairs past it have wavelengths > L0; the one before completes a period
        lam = 2 * math.pi / inverse_frequencies(d, base=base)
        assert lam[expected // 2] > L0 and lam[expected // 2 - 1] <= L0


def test_cosine_sums_and_first_negative():
    theta = inverse_frequencies(16, base=10000.0)
    m = np.arange(5001)
    expected = np.cos(np.multiply.outer(m, theta)).sum(axis=1)
    np.testing.assert_allclose(cosine_sums(theta, 5000), expected, rtol=0, atol=1e-12)
    first = int(np.flatnonzero(expected < 0)[0])
    last = int(np.flatnonzero(expected < 0)[-1])
    assert first_negative_cosine_sum(theta, 5000) == first
    assert first_negative_cosine_sum(theta, 5000, descending=True) == last
    assert first_negative_cosine_sum(theta, first - 1) is None


# ---- base bound ------------------------------------------------------------------------------------------------------


def test_base_bound_matches_men_et_al_and_holds_where_it_says():
    bb = base_bound(128, 1024)
    assert bb.base == pytest.approx(4.3e3, rel=0.01)  # Men et al. 2024, Table 1: 4.3e3 for 1k
    assert first_negative_cosine_sum(inverse_frequencies(128, base=bb.base), 1024) is None
    lo, hi = bb.bracket
    assert lo < bb.base <= hi == bb.grid_base <= bb.coarse_base
    assert first_negative_cosine_sum(inverse_frequencies(128, base=bb.base * (1 - 2 * bb.rel_tol)), 1024) is not None
    assert "coarse grid" in bb.searched and "narrower windows below may exist" in bb.searched


def test_base_bound_reports_non_monotonicity():
    bb = base_bound(128, 32768, b_min=1e5, b_max=1e7)
    assert bb.base == pytest.approx(6.3e5, rel=0.01)  # Men et al.: 6.4e5 for 32k
    assert bb.failing_above >= 1 and bb.largest_failing > bb.base
    assert first_negative_cosine_sum(inverse_frequencies(128, base=bb.largest_failing), 32768) is not None


def test_base_bound_edges_and_bad_input():
    none = base_bound(16, 4096, b_min=2.0, b_max=5.0)
    assert none.base is None and none.largest_failing == 5.0
    low = base_bound(4, 1, b_min=2.0, b_max=100.0)  # cos(1) + cos(b**-0.5) > 0 already at b_min: no bracket
    assert low.base == 2.0 and low.bracket is None
    with pytest.raises(ValueError, match="b_max must be a real number > b_min"):
        base_bound(16, 10, b_min=100.0, b_max=10.0)
    with pytest.raises(ValueError, match=r"rel_tol must be a real number in \(0, 1\)"):
        base_bound(16, 10, rel_tol=0)
    with pytest.raises(ValueError, match="d must be a positive even integer"):
        base_bound(15, 10)


@pytest.mark.parametrize("d, L, fine", [(128, 1024, 200), (16, 4096, 20), (4, 1, 5), (64, 2048, 1)])
def test_base_bound_reports_each_base_and_stays_within_its_plan(d, L, fine):
    seen = []
    bb = base_bound(d, L, fine_per_decade=fine, progress=lambda n, b: seen.append((n, b)))
    assert [n for n, _ in seen] == list(range(1, bb.bases_evaluated + 1))
    assert bb.bases_evaluated <= base_bound_bases(fine_per_decade=fine)  # what posproof extend budgets
    assert seen[-1][1] > 0 and base_bound(d, L, fine_per_decade=fine) == bb  # the callback changes nothing


# ---- the report ------------------------------------------------------------------------------------------------------


def test_report_as_dict_is_json():
    report = extension_report(32, 10000.0, {"rope_type": "yarn", "factor": 4.0}, trained=512, target=2048,
                              b_max=1e7)  # fmt: skip
    data = json.loads(json.dumps(report.as_dict()))
    assert data["L0"] == 512 and data["L"] == 2048 and data["scaling"]["rope_type"] == "yarn"
    assert data["critical_dimension"] == critical_dimension(32, 10000.0, 512)
    assert data["base_bound"]["base"] == report.base_bound.base and "searched" in data["base_bound"]
    assert sum(g["count"] for g in data["groups"]) == 16 and data["warning"] == WARNING
    assert len(data["pairs"]["status"]) == 16


def test_report_bad_input():
    with pytest.raises(ValueError, match="trained must be an integer >= 2"):
        extension_report(32, trained=1, target=10)
    with pytest.raises(ValueError, match="target must be an integer >= 1"):
        extension_report(32, trained=10, target=0)
    with pytest.raises(ValueError, match="scaling must be a RopeScaling"):
        diagnose({"rope_type": "linear"}, 10, 20)
    with pytest.raises(ValueError, match="trained .* is required"):
        diagnose(RopeScaling(32), target=20)


def test_regression_proportional_rope_type_is_diagnosed():
    # Gemma 4's full-attention layers: 64 of 256 pairs turn, with the exponent over the 512-wide head
    cfg = RopeScaling(512, base=1e6, rope_type="proportional", partial_rotary_factor=0.25, factor=2.0)
    report = diagnose(cfg, 4096, 8192, with_base_bound=False)
    assert len(report.coverage.theta) == 64  # the pairs that turn; the others have no angle to cover
    assert np.allclose(np.array(report.coverage.theta_scaled) * 2, inverse_frequencies(512, base=1e6)[:64], rtol=1e-15)
    # the still pairs add cos 0 = 1 to every score sum: 192 of them keep it positive
    assert report.first_negative_trained is None and report.first_negative_scaled is None
