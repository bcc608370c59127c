r"""The context-extension claims (symbolic/scaling/) beyond the generic per-claim tests: the kernels read
numeric.scaling, the numbers the re-derivation of Theorem 2.1 (Chen et al. 2023) reports, recomputed here
independently, and a limit of the mpmath twin that keeps one YaRN setting out of the 50-digit definitions."""

import mpmath
import pytest
from posproof.numeric.scaling.rules import RopeScaling
from posproof.symbolic import registry, scaling
from posproof.symbolic.scaling import float64 as scaling_float64
from posproof.symbolic.scaling import llama3 as scaling_llama3

from posproof.printing.latex import topic_latex
from tests.claims import BY_ID

EXTENSION = registry.topic("extension")


def test_the_extension_topic_is_the_scaling_modules_in_order():
    modules = [name for name in registry.MODULES if name.startswith("scaling.")]
    assert modules == [module.__name__.removeprefix("posproof.symbolic.") for module in scaling.MODULES]
    assert [c.id for c in EXTENSION] == [c.id for name in modules for c in registry.module(name)]
    assert [c.id for c in EXTENSION] == [c.id for c in scaling.claims()]
    assert all(c.id.startswith("extension-") for c in EXTENSION)


def test_the_topic_prints_every_claim():
    text = topic_latex(EXTENSION)
    assert all(f"% {c.id}\n" in text for c in EXTENSION)


# ---- kernels -----------------------------------------------------------------------------------------------------


def test_kernels_evaluate_numeric_scaling():
    with mpmath.workdps(40):
        mpf = mpmath.mpf
        assert scaling.LinearInvFreq.numeric(mpf(1), mpf(8), mpf(100), mpf(4)) == mpf(100) ** mpf(-0.25) / 4
        ntk = scaling.NtkInvFreq.numeric(mpf(1), mpf(4), mpf(100), mpf(2))  # base 100 * 2^2 = 400, theta_1 = 1/20
        assert abs(ntk - mpf(1) / 20) < mpf(10) ** -38
        # dynamic NTK below L_0 is the plain base: theta_1 = 100^(-1/2)
        dyn = scaling.DynamicInvFreq.numeric(mpf(1), mpf(4), mpf(100), mpf(2), mpf(10), mpf(32))
        assert abs(dyn - mpf(1) / 10) < mpf(10) ** -38
        assert scaling.YarnAttentionFactor.numeric(mpf(1)) == 1
        assert abs(scaling.YarnAttentionFactor.numeric(mpf(8)) - (mpmath.log(8) / 10 + 1)) < mpf(10) ** -38


def test_kernels_refuse_values_a_configuration_cannot_hold():
    # A configuration holds float64 numbers: a point that is not one would compare the code on another input.
    with mpmath.workdps(40), pytest.raises(ValueError, match="float64"):
        scaling.LinearInvFreq.numeric(1, 8, mpmath.mpf("100.1"), 4)
    with pytest.raises(ValueError, match="integer"):
        scaling.DynamicInvFreq.numeric(1, 4, 100, 2, mpmath.mpf("10.5"), 32)


# ---- Theorem 2.1 of Chen et al. 2023, recomputed ------------------------------------------------------------------


def _llama_thetas():
    return [mpmath.mpf(10000) ** (-mpmath.mpf(2 * j) / 128) for j in range(64)]


def test_theorem_2_1_fails_at_llama_setting_and_the_corrected_bound_holds():
    with mpmath.workdps(30):
        # h_j = 1, [s1, s2] = [0, 1], s = 1/2: a(1/2) - a_linear(1/2) = sum_j cos(t/2) - (1 + cos t)/2
        err = mpmath.fsum(mpmath.cos(t / 2) - (1 + mpmath.cos(t)) / 2 for t in _llama_thetas())
        log_c = mpmath.log(10000)
        paper = 128 / (32 * log_c)
        corrected = (128 + 4 * log_c) / (32 * log_c)
        assert mpmath.nstr(err, 5) == "0.45928"
        assert mpmath.nstr(paper, 5) == "0.43429"
        assert mpmath.nstr(corrected, 5) == "0.55929"
        assert paper < err < corrected
    fact = BY_ID["extension-pi-bound-counterexample"]
    assert fact.verify().ok


def test_step_14_and_the_constants_at_llama_setting():
    with mpmath.workdps(30):
        c, d = mpmath.mpf(10000), 128
        assert mpmath.nstr(c ** (-mpmath.mpf(4) / d), 5) == "0.74989"
        assert mpmath.nstr(1 - 4 * mpmath.log(c) / d, 5) == "0.71218"
        inverse_gap = 1 / (1 - c ** (-mpmath.mpf(4) / d))
        sharp = mpmath.fsum(t**2 for t in _llama_thetas())
        paper_m = d / (4 * mpmath.log(c))
        assert mpmath.nstr(inverse_gap, 9) == "3.99830807"  # 1/(1 - c^(-4/d))
        assert mpmath.nstr(sharp, 9) == "3.99830803"  # sum_j theta_j^2 = |a''(0)| for h_j = 1
        assert mpmath.nstr(paper_m, 5) == "3.4744"  # the paper's M
        assert paper_m < sharp < inverse_gap <= paper_m + 1


# ---- facts: their tables ----------------------------------------------------------------------------------------


def test_llama31_bands_table():
    value, rows = scaling_llama3._llama31_bands(50)
    table = dict(rows)
    assert value == {"kept": 29, "blended": 6, "divided by s": 29}
    assert table["kept pairs"] == "0..28" and table["divided pairs"] == "35..63"
    assert table["blended pairs"] == [29, 30, 31, 32, 33, 34]


def test_float64_errors_are_at_rounding_level():
    _, rows = scaling_float64._float64(50)
    errors = [v for label, v in rows if label.endswith("max relative error of float64")]
    assert errors == ["below 1e-15"] * 5  # the bound shown, not the CPU's last digits


# ---- the mpmath twin at 50 digits ------------------------------------------------------------------------------------


def test_regression_yarn_mpmath_twin_ramp_in_float64_when_truncated():
    cfg = RopeScaling(128, base=10000.0, rope_type="yarn", factor=8.0, original_max_position_embeddings=4096)
    inv, _ = cfg.inv_freq_mp(dps=50)
    with mpmath.workdps(50):
        low, high = 20, 46  # floor c(32) = floor 20.94, ceil c(1) = ceil 45.03
        worst = mpmath.mpf(0)
        for i, got in enumerate(inv):
            theta = mpmath.mpf(10000) ** (-mpmath.mpf(2 * i) / 128)
            gamma = min(max(mpmath.mpf(i - low) / (high - low), 0), 1)
            want = gamma * theta / 8 + (1 - gamma) * theta
            worst = max(worst, abs(got - want) / want)
    assert worst < mpmath.mpf(10) ** -40
