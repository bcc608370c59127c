r"""Context-extension diagnostics: phase coverage, critical dimension, base bound, the report, and the
``posproof extend`` command (through its own parser; through ``posproof`` once the lead has wired it)."""

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from posproof.derivations.commands import extend
from posproof.numeric.scaling.extension import (
    WARNING,
    base_bound,
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


# ---- the command -----------------------------------------------------------------------------------------------------

LLAMA31 = {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072, "rope_theta": 500000.0,
           "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                            "original_max_position_embeddings": 8192, "rope_type": "llama3"}}  # fmt: skip
ISSUE_EXAMPLE = ["--width", "128", "--base", "10000", "--trained", "4096", "--target", "32768", "--rule", "yarn",
                 "--factor", "8"]  # fmt: skip


def run(capsys, *argv):
    code = extend.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_extend_issue_example_text(capsys):
    code, out, err = run(capsys, *ISSUE_EXAMPLE, "--bound-resolution", "20")
    assert code == 0 and err == ""
    assert "rule yarn, factor s = 8; rotary width d = 128; base b = 10000" in out
    assert "attention factor 1.20794" in out
    assert "periodic (46)" in out and "inside (18)" in out
    assert "out of distribution: none" in out
    assert "critical dimension (Liu et al. 2023): 2*ceil((d/2)*log_b(L0/2pi)) = 92" in out
    assert "base bound (Men et al. 2024)" in out and "searched:" in out and "not monotone" in out
    assert out.rstrip().splitlines()[-1] == f"warning: {WARNING}"
    assert out.isascii()


def test_extend_json(capsys):
    code, out, _ = run(capsys, *ISSUE_EXAMPLE, "--no-base-bound", "--json")
    data = json.loads(out)
    assert code == 0 and data["base_bound"] is None and data["critical_dimension"] == 92
    assert data["ood_pairs"] == [] and data["source"] == {"trained": "--trained", "target": "--target"}
    assert data["attention_factor"] == pytest.approx(0.1 * math.log(8) + 1)


def test_extend_config_file(capsys, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(LLAMA31))
    code, out, _ = run(capsys, "--config", str(path), "--no-base-bound")
    assert code == 0
    assert "trained L0 = 8192 (original_max_position_embeddings), target L = 131072 (max_position_embeddings)" in out
    assert "out of distribution: 29 pairs (35-63)" in out
    code, out, _ = run(capsys, "--config", str(path), "--target", "65536", "--no-base-bound", "--json")
    assert code == 0 and json.loads(out)["ood_pairs"] == []


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--config", "/no/such/config.json"], "--config: cannot read /no/such/config.json"),
        (["--config", "{tmp}/bad.json"], "is not valid JSON: Expecting value at line 1 column 1"),
        (["--config", "{tmp}/list.json"], "must hold a JSON object"),
        (["--config", "{tmp}/badcfg.json"], "--config {tmp}/badcfg.json: config: factor must be a finite real"),
        (["--config", "{tmp}/llama.json", "--width", "64"], "--config reads the rule from the file: drop --width"),
        (["--trained", "10"], "--trained and --target are required"),
        (["--trained", "1", "--target", "10"], "--trained must be an integer >= 2, got 1"),
        (["--trained", "10", "--target", "x"], "--target must be an integer >= 1, got 'x'"),
        (["--trained", "10", "--target", "20", "--rule", "foo"], "--rule must be one of default, linear"),
        (["--trained", "10", "--target", "20", "--rule", "yarn", "--factor", "nan"], "--factor must be a real number"),
        (["--trained", "10", "--target", "20", "--rule", "linear"], "factor is required for rope_type 'linear'"),
        (["--trained", "10", "--target", "20", "--rule", "linear", "--factor", "2", "--beta-fast", "3"],
         "key 'beta_fast' is not used by rope_type 'linear'"),
        (["--trained", "10", "--target", "20", "--rule", "longrope"], "--rule longrope needs its per-pair factor"),
        (["--trained", "10", "--target", "20", "--bound-resolution", "0"], "--bound-resolution must be an integer"),
        (["--trained", "10", "--target", "20", "--width", "7"], "must be an even integer >= 2"),
        (["--frobnicate"], "unrecognized arguments: --frobnicate"),
        (["--config", "{tmp}/llama.json", "--layer", "-1"], "--layer must be an integer >= 0, got -1"),
        (["--trained", "10", "--target", "20", "--layer", "3"], "--layer and --layer-type only apply with --config"),
    ],
)  # fmt: skip
def test_extend_errors_are_one_line_exit_2(capsys, tmp_path, argv, fragment):
    (tmp_path / "bad.json").write_text("not json")
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "badcfg.json").write_text(
        json.dumps(LLAMA31 | {"rope_scaling": LLAMA31["rope_scaling"] | {"factor": "8"}})
    )
    (tmp_path / "llama.json").write_text(json.dumps(LLAMA31))
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("posproof: error: ") and err.count("\n") == 1, err
    assert fragment.replace("{tmp}", str(tmp_path)) in err


def test_posproof_extend_end_to_end(capsys):
    from posproof.derivations import cli

    parser = cli.build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    if "extend" not in commands:
        pytest.skip("posproof extend is not wired into derivations/cli.py yet (the lead adds one line)")
    code = cli.main(["extend", *ISSUE_EXAMPLE, "--no-base-bound"])
    out, _ = capsys.readouterr()
    assert code == 0 and "critical dimension" in out
    code = cli.main(["extend", "--trained", "1", "--target", "2"])
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1


def test_regression_proportional_rope_type_is_diagnosed():
    # Gemma 4's full-attention layers: 64 of 256 pairs turn, with the exponent over the 512-wide head
    cfg = RopeScaling(512, base=1e6, rope_type="proportional", partial_rotary_factor=0.25, factor=2.0)
    report = diagnose(cfg, 4096, 8192, with_base_bound=False)
    assert len(report.coverage.theta) == 64  # the pairs that turn; the others have no angle to cover
    assert np.allclose(np.array(report.coverage.theta_scaled) * 2, inverse_frequencies(512, base=1e6)[:64], rtol=1e-15)
    # the still pairs add cos 0 = 1 to every score sum: 192 of them keep it positive
    assert report.first_negative_trained is None and report.first_negative_scaled is None


def test_regression_extend_config_reads_a_layer_index(capsys, tmp_path):
    from tests.numeric.scaling.test_rules import GEMMA4_TEXT

    path = tmp_path / "gemma4.json"
    path.write_text(json.dumps(GEMMA4_TEXT))
    common = ("--target", "65536", "--no-base-bound", "--json")
    code, out, _ = run(capsys, "--config", str(path), "--layer", "11", *common)
    wide = json.loads(out)
    code2, out2, _ = run(capsys, "--config", str(path), "--layer", "0", *common)
    narrow = json.loads(out2)
    assert code == code2 == 0
    assert wide != narrow  # layer 11 is a 512-wide full-attention head, layer 0 a 256-wide sliding one
