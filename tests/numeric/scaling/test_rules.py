r"""Context extension: ``rope_inv_freq`` against transformers' formulas (golden float64 values and, where
torch and transformers are installed, the live implementation), against its mpmath twin, at every boundary, on bad
input, and Hypothesis properties of each rule."""

import contextlib
import math

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from posproof.numeric import tolerances
from posproof.numeric.scaling import rules as SC
from posproof.numeric.scaling.rules import (
    KEYS,
    RopeScaling,
    config_layer_types,
    rope_inv_freq,
    rope_inv_freq_from_config,
    rope_inv_freq_mp,
    rope_scaling_from_config,
)
from posproof.numeric.sinusoid import inverse_frequencies

from tests import strategies as S

HF_FLOAT64_RTOL, HF_FLOAT32_RTOL = tolerances.HF_FLOAT64_RTOL, tolerances.HF_FLOAT32_RTOL

PHI35 = {  # microsoft/Phi-3.5-mini-instruct config.json (the RoPE part)
    "model_type": "phi3",
    "hidden_size": 3072,
    "num_attention_heads": 32,
    "max_position_embeddings": 131072,
    "original_max_position_embeddings": 4096,
    "rope_theta": 10000.0,
    "rope_scaling": {
        "type": "longrope",
        "long_factor": [
            1.0800000429153442,
            1.1100000143051147,
            1.1399999856948853,
            1.340000033378601,
            1.5899999141693115,
            1.600000023841858,
            1.6200000047683716,
            2.620000123977661,
            3.2300000190734863,
            3.2300000190734863,
            4.789999961853027,
            7.400000095367432,
            7.700000286102295,
            9.09000015258789,
            12.199999809265137,
            17.670000076293945,
            24.46000099182129,
            28.57000160217285,
            30.420001983642578,
            30.840002059936523,
            32.590003967285156,
            32.93000411987305,
            42.320003509521484,
            44.96000289916992,
            50.340003967285156,
            50.45000457763672,
            57.55000305175781,
            57.93000411987305,
            58.21000289916992,
            60.1400032043457,
            62.61000442504883,
            62.62000274658203,
            62.71000289916992,
            63.1400032043457,
            63.1400032043457,
            63.77000427246094,
            63.93000411987305,
            63.96000289916992,
            63.970001220703125,
            64.02999877929688,
            64.06999969482422,
            64.08000183105469,
            64.12000274658203,
            64.41000366210938,
            64.4800033569336,
            64.51000213623047,
            64.52999877929688,
            64.83999633789062,
        ],
        "short_factor": [
            1.0,
            1.0199999809265137,
            1.0299999713897705,
            1.0299999713897705,
            1.0499999523162842,
            1.0499999523162842,
            1.0499999523162842,
            1.0499999523162842,
            1.0499999523162842,
            1.0699999332427979,
            1.0999999046325684,
            1.1099998950958252,
            1.1599998474121094,
            1.1599998474121094,
            1.1699998378753662,
            1.2899998426437378,
            1.339999794960022,
            1.679999828338623,
            1.7899998426437378,
            1.8199998140335083,
            1.8499997854232788,
            1.8799997568130493,
            1.9099997282028198,
            1.9399996995925903,
            1.9899996519088745,
            2.0199997425079346,
            2.0199997425079346,
            2.0199997425079346,
            2.0199997425079346,
            2.0199997425079346,
            2.0199997425079346,
            2.0299997329711914,
            2.0299997329711914,
            2.0299997329711914,
            2.0299997329711914,
            2.0299997329711914,
            2.0299997329711914,
            2.0299997329711914,
            2.0299997329711914,
            2.0299997329711914,
            2.0799996852874756,
            2.0899996757507324,
            2.189999580383301,
            2.2199995517730713,
            2.5899994373321533,
            2.729999542236328,
            2.749999523162842,
            2.8399994373321533,
        ],
    },
}

#: Model configurations (the RoPE part of each config.json) and one synthetic case per boundary.
CONFIGS = {
    "llama2-default": {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096,
                       "rope_theta": 10000.0},
    "linear-4": {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 16384,
                 "rope_theta": 10000.0, "rope_scaling": {"type": "linear", "factor": 4.0}},
    "linear-partial": {"hidden_size": 2560, "num_attention_heads": 32, "max_position_embeddings": 2048,
                       "partial_rotary_factor": 0.5, "rope_theta": 10000.0,
                       "rope_scaling": {"rope_type": "linear", "factor": 2.0}},
    "dynamic": {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 2048,
                "rope_theta": 10000.0, "rope_scaling": {"type": "dynamic", "factor": 2.0}},
    "qwen2.5-yarn": {"hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 32768,
                     "rope_theta": 1000000.0,
                     "rope_scaling": {"factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"}},
    "yarn-cli-example": {"head_dim": 128, "hidden_size": 4096, "num_attention_heads": 32,
                         "max_position_embeddings": 32768, "rope_theta": 10000.0,
                         "rope_scaling": {"rope_type": "yarn", "factor": 8.0,
                                          "original_max_position_embeddings": 4096}},
    "gpt-oss-yarn": {"model_type": "gpt_oss", "head_dim": 64, "hidden_size": 2880, "num_attention_heads": 64,
                     "num_key_value_heads": 8, "max_position_embeddings": 131072,
                     "rope_parameters": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 32.0,
                                         "original_max_position_embeddings": 4096, "rope_theta": 150000,
                                         "rope_type": "yarn", "truncate": False}},
    "deepseek-v3-yarn": {"model_type": "deepseek_v3", "hidden_size": 7168, "num_attention_heads": 128,
                         "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128,
                         "max_position_embeddings": 163840, "rope_theta": 10000,
                         "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
                                          "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096,
                                          "type": "yarn"}},
    "yarn-no-factor-attn": {"head_dim": 96, "hidden_size": 3072, "num_attention_heads": 32,
                            "max_position_embeddings": 65536, "partial_rotary_factor": 0.5, "rope_theta": 10000.0,
                            "rope_scaling": {"rope_type": "yarn", "factor": None,
                                             "original_max_position_embeddings": 8192, "beta_fast": 16,
                                             "beta_slow": 2, "attention_factor": 1.25}},
    "yarn-low-eq-high": {"head_dim": 64, "hidden_size": 2048, "num_attention_heads": 32,
                         "max_position_embeddings": 16384, "rope_theta": 10000.0,
                         "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096,
                                          "beta_fast": 4.0, "beta_slow": 4.0, "truncate": False}},
    "llama3.1-8b": {"hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8,
                    "max_position_embeddings": 131072, "rope_theta": 500000.0,
                    "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                     "original_max_position_embeddings": 8192, "rope_type": "llama3"}},
    "llama3-partial": {"head_dim": 128, "hidden_size": 4096, "num_attention_heads": 32,
                       "max_position_embeddings": 32768, "partial_rotary_factor": 0.75, "rope_theta": 500000.0,
                       "rope_scaling": {"factor": 4.0, "low_freq_factor": 2.0, "high_freq_factor": 8.0,
                                        "original_max_position_embeddings": 8192, "rope_type": "llama3"}},
    "phi3.5-longrope": PHI35,
}  # fmt: skip

#: transformers 5.24.0's formulas evaluated in float64 (torch 2.13.0, its float32 dtypes mapped to float64):
#: name -> (configuration, seq_len, attention factor, {pair index: inv_freq}).
GOLDEN = {
    "llama2-default": (None, 1.0, {0: 1.0, 8: 0.31622776601683794, 16: 0.1, 24: 0.03162277660168379, 32: 0.01,
        40: 0.003162277660168379, 48: 0.001, 56: 0.00031622776601683794, 63: 0.00011547819846894582,}),
    "linear-4": (None, 1.0, {0: 0.25, 8: 0.07905694150420949, 16: 0.025, 24: 0.007905694150420948, 32: 0.0025,
        40: 0.0007905694150420947, 48: 0.00025, 56: 7.905694150420948e-05, 63: 2.8869549617236455e-05,}),
    "linear-partial": (None, 1.0, {0: 0.5, 8: 0.012559432157547897, 16: 0.0003154786722400965,
        19: 7.92446596230557e-05,}),
    "dynamic-none": (None, 1.0, {0: 1.0, 8: 0.31622776601683794, 16: 0.1, 24: 0.03162277660168379, 32: 0.01,
        40: 0.003162277660168379, 48: 0.001, 56: 0.00031622776601683794, 63: 0.00011547819846894582,}),
    "dynamic-8192": (8192, 1.0, {0: 1.0, 8: 0.24699374959336506, 16: 0.06100591233818991, 24: 0.015068079035773656,
        32: 0.003721721340214912, 40: 0.0009192419087613249, 48: 0.00022704700582832163, 56: 5.607919130348376e-05,
        63: 1.649688549556369e-05,}),
    "dynamic-short": (1000, 1.0, {0: 1.0, 8: 0.31622776601683794, 16: 0.1, 24: 0.03162277660168379, 32: 0.01,
        40: 0.003162277660168379, 48: 0.001, 56: 0.00031622776601683794, 63: 0.00011547819846894582,}),
    "qwen2.5-yarn": (None, 1.138629436111989, {0: 1.0, 8: 0.17782794100389226, 16: 0.03162277660168379,
        24: 0.005375321490790102, 32: 0.0006029411764705882, 40: 4.445698525097307e-05, 48: 7.905694150420949e-06,
        56: 1.4058533129758728e-06, 63: 3.102344401879299e-07,}),
    "yarn-cli-example": (None, 1.2079441541679836, {0: 1.0, 8: 0.31622776601683794, 16: 0.1, 20: 0.056234132519034905,
        21: 0.0470579194992012, 24: 0.02736586436684174, 32: 0.005961538461538462, 40: 0.0010338215427473545,
        45: 0.00024431526615366936, 46: 0.0001666901790204155, 48: 0.000125, 56: 3.952847075210474e-05,
        63: 1.4434774808618228e-05,}),
    "gpt-oss-yarn": (None, 1.3465735902799727, {0: 1.0, 8: 0.050813274815461475, 10: 0.019335001126540362,
        13: 0.0038603593171920685, 16: 0.00045648391922324086, 20: 1.818833668168956e-05, 24: 4.0999784818029795e-06,
        31: 3.0235114281192144e-07,}),
    "deepseek-v3-yarn": (None, 1.0, {0: 1.0, 8: 0.1, 16: 0.0055, 24: 2.5e-05, 31: 3.33380358040831e-06,}),
    "yarn-no-factor-attn": (None, 1.25, {0: 1.0, 8: 0.0464158883361278, 16: 0.0005834927285503019,
        23: 1.834749084527586e-05,}),
    "yarn-low-eq-high": (None, 1.138629436111989, {0: 1.0, 8: 0.1, 16: 0.01, 24: 0.00025, 31: 3.33380358040831e-05,}),
    "llama3.1-8b": (None, 1.0, {0: 1.0, 8: 0.19392274474868576, 16: 0.03760603093086393, 24: 0.0072926647372171085,
        29: 0.002166570763503359, 31: 0.0008567514129196321, 32: 0.0005248461609929547, 34: 0.00017850781276799638,
        40: 3.428102195952591e-05, 48: 6.647869871181236e-06, 56: 1.2891731721515574e-06, 63: 3.068925988914511e-07,}),
    "llama3-partial": (None, 1.0, {0: 1.0, 8: 0.11224620483093732, 16: 0.012599210498948734, 19: 0.005016900658823206,
        21: 0.0016808204931021155, 23: 0.0005631280589667334, 24: 0.00035355339059327376, 32: 3.9685026299205005e-05,
        40: 4.454493590701694e-06, 47: 6.572015001406732e-07,}),
    "phi3.5-longrope-short": (None, 1.1902380714238083, {0: 1.0, 8: 0.20518426551155866, 16: 0.034638727939143146,
        24: 0.005025126507136654, 32: 0.001061298016467502, 40: 0.00022315334307232193, 47: 4.2659433051390916e-05,}),
    "phi3.5-longrope-4096": (4096, 1.1902380714238083, {0: 1.0, 8: 0.20518426551155866, 16: 0.034638727939143146,
        24: 0.005025126507136654, 32: 0.001061298016467502, 40: 0.00022315334307232193, 47: 4.2659433051390916e-05,}),
    "phi3.5-longrope-long": (4097, 1.1902380714238083, {0: 0.9259258891329368, 8: 0.06670076400339699,
        16: 0.0018976241395757883, 24: 0.00019864916988283863, 32: 3.4355518903355084e-05, 40: 7.244558850821626e-06,
        47: 1.8684881663397117e-06,}),
}  # fmt: skip
_CONFIG_OF = {
    "dynamic-none": "dynamic", "dynamic-8192": "dynamic", "dynamic-short": "dynamic",
    "phi3.5-longrope-short": "phi3.5-longrope", "phi3.5-longrope-4096": "phi3.5-longrope",
    "phi3.5-longrope-long": "phi3.5-longrope",
}  # fmt: skip


def _config(name: str) -> dict:
    return CONFIGS[_CONFIG_OF.get(name, name)]


# ---- agreement with transformers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(GOLDEN))
def test_golden_values_of_transformers_formulas_in_float64(name):
    seq_len, attention_factor, values = GOLDEN[name]
    inv_freq, af = rope_inv_freq_from_config(_config(name), seq_len=seq_len)
    idx = sorted(values)
    np.testing.assert_allclose(inv_freq[idx], [values[i] for i in idx], rtol=HF_FLOAT64_RTOL, atol=0)
    assert af == pytest.approx(attention_factor, rel=HF_FLOAT64_RTOL)
    assert len(inv_freq) == max(idx) + 1  # the last pair is in every golden set: the shape is (d/2,)


@contextlib.contextmanager
def _torch_float64(torch):
    r"""Run transformers' float32 RoPE code in float64: ``torch.float``/``torch.float32`` and ``Tensor.float``
    mapped to float64 for the duration (restored afterwards)."""
    saved = torch.float, torch.float32, torch.Tensor.float, torch.get_default_dtype()
    torch.float = torch.float32 = torch.float64
    torch.Tensor.float = lambda self, *a, **k: self.double()
    torch.set_default_dtype(torch.float64)
    try:
        yield
    finally:
        torch.float, torch.float32, torch.Tensor.float, default = saved
        torch.set_default_dtype(default)


def _transformers(name: str, float64: bool):
    torch = pytest.importorskip("torch", reason="the live cross-check needs torch (the golden values do not)")
    transformers = pytest.importorskip("transformers", reason="the live cross-check needs transformers")
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    config = dict(_config(name))
    cfg = transformers.AutoConfig.for_model(config.pop("model_type", "llama"), **config)
    rule = cfg.rope_parameters["rope_type"]
    with _torch_float64(torch) if float64 else contextlib.nullcontext():
        if rule == "default":
            inv_freq, af = LlamaRotaryEmbedding.compute_default_rope_parameters(cfg)
        else:
            inv_freq, af = ROPE_INIT_FUNCTIONS[rule](cfg, None, seq_len=GOLDEN[name][0])
    return inv_freq.double().numpy(), float(af)


@pytest.mark.parametrize("name", list(GOLDEN))
def test_live_transformers_float64_and_float32(name):
    ours, af = rope_inv_freq_from_config(_config(name), seq_len=GOLDEN[name][0])
    theirs, their_af = _transformers(name, float64=True)
    np.testing.assert_allclose(ours, theirs, rtol=HF_FLOAT64_RTOL, atol=0)
    assert af == pytest.approx(their_af, rel=HF_FLOAT64_RTOL)
    theirs32, _ = _transformers(name, float64=False)
    np.testing.assert_allclose(ours, theirs32, rtol=HF_FLOAT32_RTOL, atol=0)


# ---- the mpmath twin -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(GOLDEN))
def test_float64_agrees_with_mpmath_twin(name):
    seq_len = GOLDEN[name][0]
    cfg = rope_scaling_from_config(_config(name))
    inv_freq, af = cfg.inv_freq(seq_len)
    ref, ref_af = cfg.inv_freq_mp(seq_len, dps=50)
    assert len(ref) == len(inv_freq) and all(isinstance(x, mpmath.mpf) for x in ref)
    np.testing.assert_allclose(inv_freq, [float(x) for x in ref], rtol=tolerances.FLOAT64_RTOL, atol=0)
    assert af == pytest.approx(float(ref_af), rel=tolerances.FLOAT64_RTOL)


def test_mpmath_twin_is_exact_where_the_formula_is_rational():
    inv, af = rope_inv_freq_mp(4, base=100.0, scaling={"rope_type": "linear", "factor": 3.0}, dps=60)
    with mpmath.workdps(60):
        assert inv[1] == mpmath.mpf(1) / 30 and af == 1
    # NTK: theta_0 = 1 exactly, and theta_last * s = b**(-(d-2)/d) to 50 digits
    inv, _ = rope_inv_freq_mp(8, base=10000.0, scaling={"rope_type": "ntk", "factor": 4.0}, dps=50)
    with mpmath.workdps(50):
        assert inv[0] == 1
        assert abs(inv[-1] * 4 / mpmath.mpf(10000) ** (-mpmath.mpf(6) / 8) - 1) < mpmath.mpf(10) ** -45


# ---- boundaries ------------------------------------------------------------------------------------------------------

_WITH_FACTOR_1 = [
    {"rope_type": "linear", "factor": 1.0},
    {"rope_type": "ntk", "factor": 1.0},
    {"rope_type": "yarn", "factor": 1.0, "original_max_position_embeddings": 4096},
    {"rope_type": "llama3", "factor": 1.0, "original_max_position_embeddings": 8192, "low_freq_factor": 1.0,
     "high_freq_factor": 4.0},
    {"rope_type": "dynamic", "factor": 1.0, "original_max_position_embeddings": 4096},
    {"rope_type": "longrope", "original_max_position_embeddings": 4096, "short_factor": [1.0] * 64,
     "long_factor": [1.0] * 64},
]  # fmt: skip


@pytest.mark.parametrize("scaling", _WITH_FACTOR_1, ids=lambda s: s["rope_type"])
def test_factor_1_is_plain_rope(scaling):
    inv_freq, af = rope_inv_freq(128, base=10000.0, scaling=scaling, max_position_embeddings=4096)
    np.testing.assert_allclose(inv_freq, inverse_frequencies(128, base=10000.0), rtol=4 * 2.0**-52, atol=0)
    assert af == 1.0  # YaRN m(1) = 1, LongRoPE's s = max_position_embeddings / L0 = 1


def test_dynamic_at_and_below_L0_is_plain_rope_and_grows_above():
    scaling = {"rope_type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 2048}
    plain = inverse_frequencies(64, base=10000.0)
    for seq_len in (None, 1, 2047, 2048):  # L = max(seq_len, L0) = L0: the base is b * 1**(d/(d-2))
        np.testing.assert_allclose(
            rope_inv_freq(64, base=10000.0, scaling=scaling, seq_len=seq_len)[0], plain, rtol=4 * 2.0**-52
        )
    above = rope_inv_freq(64, base=10000.0, scaling=scaling, seq_len=2049)[0]
    assert above[0] == 1.0 and np.all(above[1:] < plain[1:])
    # L = 2 L0: b' = b (4*2 - 3)**(64/62)
    expected = inverse_frequencies(64, base=10000.0 * 5.0 ** (64 / 62))
    np.testing.assert_allclose(
        rope_inv_freq(64, base=10000.0, scaling=scaling, seq_len=4096)[0], expected, rtol=4 * 2.0**-52
    )


def test_dynamic_takes_L0_from_max_position_embeddings_like_transformers():
    a = rope_inv_freq(
        64, base=10000.0, scaling={"rope_type": "dynamic", "factor": 2.0}, seq_len=8192, max_position_embeddings=2048
    )
    b = rope_inv_freq(
        64,
        base=10000.0,
        scaling={"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 2048},
        seq_len=8192,
    )
    np.testing.assert_array_equal(a[0], b[0])


def test_longrope_table_switches_strictly_above_L0():
    scaling = {"rope_type": "longrope", "factor": 4.0, "original_max_position_embeddings": 100,
               "short_factor": [1.0, 2.0], "long_factor": [3.0, 5.0]}  # fmt: skip
    plain = inverse_frequencies(4, base=10000.0)
    for seq_len, table in ((None, [1.0, 2.0]), (100, [1.0, 2.0]), (101, [3.0, 5.0])):
        inv_freq, af = rope_inv_freq(4, base=10000.0, scaling=scaling, seq_len=seq_len)
        np.testing.assert_allclose(inv_freq, plain / table, rtol=4 * 2.0**-52)
        assert af == pytest.approx(math.sqrt(1 + math.log(4) / math.log(100)), rel=1e-15)


def test_yarn_low_equal_high_widens_by_a_thousandth():
    # equal betas and no truncation: low == high exactly, transformers adds 0.001
    cfg = RopeScaling(
        64,
        base=10000.0,
        rope_type="yarn",
        factor=4.0,
        original_max_position_embeddings=4096,
        beta_fast=4.0,
        beta_slow=4.0,
        truncate=False,
    )
    low, high = cfg.yarn_correction_range()
    assert high == low + 0.001
    inv_freq, _ = cfg.inv_freq()
    theta = inverse_frequencies(64, base=10000.0)
    i = np.arange(32)
    gamma = np.clip((i - low) / 0.001, 0, 1)
    np.testing.assert_allclose(inv_freq, theta / 4 * gamma + theta * (1 - gamma), rtol=4 * 2.0**-52)
    # clamped to the same index: L0 < 2 pi beta_slow puts c(beta_slow) below 0, so low = high = 0
    cfg = RopeScaling(16, base=10000.0, rope_type="yarn", factor=2.0, original_max_position_embeddings=4)
    assert cfg.yarn_correction_range() == (0, 0.001)
    inv_freq, _ = cfg.inv_freq()
    theta = inverse_frequencies(16, base=10000.0)
    assert inv_freq[0] == theta[0] and np.array_equal(inv_freq[1:], theta[1:] / 2)
    ref, _ = cfg.inv_freq_mp()
    np.testing.assert_allclose(inv_freq, [float(x) for x in ref], rtol=tolerances.FLOAT64_RTOL)


def test_yarn_correction_range_uses_L0_and_clamps_to_d_minus_1():
    cfg = RopeScaling(128, base=10000.0, rope_type="yarn", factor=8.0, original_max_position_embeddings=4096)
    assert cfg.yarn_correction_range() == (20, 46)  # floor(20.9), ceil(45.03)
    low, high = cfg.yarn_correction_range(mp=True)
    assert (low, high) == (20, 46)
    # a huge L0 puts c(beta_slow) beyond d - 1: clamped to d - 1 (not d/2 - 1, a known bug class)
    cfg = RopeScaling(16, base=10.0, rope_type="yarn", factor=2.0, original_max_position_embeddings=10**9)
    assert cfg.yarn_correction_range()[1] == 15
    # no truncation: the real correction dimensions
    cfg = RopeScaling(
        128, base=10000.0, rope_type="yarn", factor=8.0, original_max_position_embeddings=4096, truncate=False
    )
    c = lambda r: 128 * math.log(4096 / (2 * math.pi * r)) / (2 * math.log(10000.0))
    assert cfg.yarn_correction_range() == (c(32), c(1))


def test_yarn_attention_factor_rules():
    base = dict(width=64, base=10000.0, rope_type="yarn", factor=16.0, original_max_position_embeddings=4096)
    m = lambda a: 0.1 * a * math.log(16.0) + 1
    assert RopeScaling(**base).inv_freq()[1] == pytest.approx(m(1))
    assert RopeScaling(**base, mscale=0.707, mscale_all_dim=1.0).inv_freq()[1] == pytest.approx(m(0.707) / m(1))
    assert RopeScaling(**base, mscale=1.0).inv_freq()[1] == pytest.approx(m(1))  # needs both
    assert RopeScaling(**base, mscale=0.0, mscale_all_dim=1.0).inv_freq()[1] == pytest.approx(m(1))  # truthiness
    assert RopeScaling(**base, attention_factor=0.5, mscale=2.0, mscale_all_dim=1.0).inv_freq()[1] == 0.5


def test_partial_rotary_width_is_truncated_like_transformers():
    inv_freq, _ = rope_inv_freq(
        80, base=10000.0, scaling={"partial_rotary_factor": 0.4}
    )  # 80 * 0.4 = 32.00000000000001
    np.testing.assert_array_equal(inv_freq, inverse_frequencies(32, base=10000.0))
    inv_freq, _ = rope_inv_freq(100, base=10000.0, scaling={"partial_rotary_factor": 0.29})  # 28.999999999999996 -> 28
    assert inv_freq.shape == (14,)
    np.testing.assert_array_equal(inv_freq, inverse_frequencies(28, base=10000.0))
    with pytest.raises(ValueError, match=r"int\(width \* partial_rotary_factor\).*= 27 must be an even integer"):
        rope_inv_freq(54, base=10000.0, scaling={"partial_rotary_factor": 0.5})
    # every rule uses the rotary width as d (YaRN's correction range included)
    cfg = RopeScaling(256, base=10000.0, rope_type="yarn", factor=8.0, original_max_position_embeddings=4096,
                      partial_rotary_factor=0.5)  # fmt: skip
    assert cfg.d == 128 and cfg.yarn_correction_range() == (20, 46)


def _boundary_factor(L0: float, wavelength: float) -> float:
    r"""A float ``f`` with ``L0 / f == wavelength`` exactly in float64 (searched among neighbours)."""
    f = L0 / wavelength
    for _ in range(64):
        if L0 / f == wavelength:
            return f
        f = float(np.nextafter(f, 0.0 if L0 / f > wavelength else np.inf))
    raise AssertionError("no float on the boundary")  # pragma: no cover


def test_llama3_wavelength_exactly_on_each_boundary():
    L0 = 8192
    theta = inverse_frequencies(16, base=500000.0)
    lam = 2 * math.pi / theta[3]  # the wavelength of pair 3, put exactly on a boundary
    # on the high-frequency boundary lam == L0/high: not "< L0/high", so blended, with sigma = 1 (up to rounding)
    high = _boundary_factor(L0, lam)
    cfg = RopeScaling(16, base=500000.0, rope_type="llama3", factor=8.0, original_max_position_embeddings=L0,
                      low_freq_factor=high / 4, high_freq_factor=high)  # fmt: skip
    inv_freq, _ = cfg.inv_freq()
    assert inv_freq[3] == pytest.approx(theta[3], rel=1e-13)  # the blend is continuous: theta_i there
    ref, _ = cfg.inv_freq_mp()
    assert inv_freq[3] == pytest.approx(float(ref[3]), rel=1e-13)
    # on the low-frequency boundary lam == L0/low: not "> L0/low", so blended, with sigma = 0: theta_i / s
    low = _boundary_factor(L0, lam)
    cfg = RopeScaling(16, base=500000.0, rope_type="llama3", factor=8.0, original_max_position_embeddings=L0,
                      low_freq_factor=low, high_freq_factor=4 * low)  # fmt: skip
    inv_freq, _ = cfg.inv_freq()
    assert inv_freq[3] == pytest.approx(theta[3] / 8, rel=1e-13)
    ref, _ = cfg.inv_freq_mp()
    assert inv_freq[3] == pytest.approx(float(ref[3]), rel=1e-13)


def test_llama3_bands_on_llama31():
    cfg = rope_scaling_from_config(CONFIGS["llama3.1-8b"])
    inv_freq, _ = cfg.inv_freq()
    theta = inverse_frequencies(128, base=500000.0)
    lam = 2 * math.pi / theta
    keep, divide = lam < 8192 / 4, lam > 8192 / 1
    np.testing.assert_array_equal(inv_freq[keep], theta[keep])
    np.testing.assert_array_equal(inv_freq[divide], theta[divide] / 8)
    blend = ~keep & ~divide
    assert blend.sum() == 6 and np.all(inv_freq[blend] < theta[blend]) and np.all(inv_freq[blend] > theta[blend] / 8)
    # not the unscaled frequencies (a known bug class)
    assert not np.array_equal(inv_freq, theta)


# ---- configurations --------------------------------------------------------------------------------------------------


def test_from_config_reads_each_format():
    cfg = rope_scaling_from_config(CONFIGS["gpt-oss-yarn"])  # rope_parameters with rope_theta inside
    assert (cfg.base, cfg.width, cfg.truncate, cfg.L0, cfg.s) == (150000.0, 64, False, 4096, 32.0)
    cfg = rope_scaling_from_config(CONFIGS["deepseek-v3-yarn"])  # MLA: qk_rope_head_dim is the rotary head width
    assert cfg.d == 64 and cfg.mscale == 1.0
    cfg = rope_scaling_from_config(PHI35)  # top-level original_max_position_embeddings, legacy "type"
    assert (cfg.rope_type, cfg.d, cfg.L0, cfg.s) == ("longrope", 96, 4096, 32.0)
    cfg = rope_scaling_from_config(CONFIGS["llama2-default"])
    assert (cfg.rope_type, cfg.d, cfg.base) == ("default", 128, 10000.0)
    tables = {"short_factor": [1.0] * 32, "long_factor": [2.0] * 32, "original_max_position_embeddings": 16}
    cfg = rope_scaling_from_config(
        {"head_dim": 64, "max_position_embeddings": 64, "rope_theta": 1e4, "rope_scaling": {"type": "su"} | tables}
    )
    assert cfg.rope_type == "longrope" and cfg.base == 10000.0  # Phi-3's legacy name


def test_from_config_top_level_L0_wins_and_dynamic_ignores_it():
    config = {
        "head_dim": 64,
        "rope_theta": 1e4,
        "max_position_embeddings": 8192,
        "original_max_position_embeddings": 2048,
        "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1024},
    }
    assert rope_scaling_from_config(config).L0 == 2048
    config["rope_scaling"] = {"rope_type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 1024}
    assert rope_scaling_from_config(config).L0 == 8192  # transformers' dynamic NTK: max_position_embeddings
    config = {"head_dim": 64, "rope_theta": 1e4, "max_position_embeddings": 8192,
              "rope_scaling": {"rope_type": "yarn", "factor": 4.0}}  # fmt: skip
    assert rope_scaling_from_config(config).L0 == 8192  # filled from max_position_embeddings


def test_from_config_per_layer_type():
    config = {
        "head_dim": 32,
        "layer_types": ["sliding_attention", "full_attention"],
        "rope_parameters": {
            "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
            "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6},
        },
    }
    cfg = rope_scaling_from_config(config, layer_type="full_attention")
    assert (cfg.rope_type, cfg.base, cfg.s) == ("linear", 1e6, 8.0)
    with pytest.raises(ValueError, match="layer_type must be one of 'sliding_attention', 'full_attention'"):
        rope_scaling_from_config(config)


@pytest.mark.parametrize(
    "config, fragment",
    [
        ([1, 2], "config must be a mapping"),
        ({"num_attention_heads": 32}, "config needs head_dim, or hidden_size and num_attention_heads"),
        ({"head_dim": "128"}, r"config head_dim must be an integer >= 1, got '128' \(a string"),
        ({"head_dim": 64, "rope_scaling": {"type": "linear", "factor": 2.0},
          "rope_parameters": {"rope_type": "linear", "factor": 4.0}}, "both rope_scaling and rope_parameters"),
        ({"head_dim": 64, "rope_scaling": "yarn"}, "must be a mapping or null"),
        ({"head_dim": 64, "rope_theta": "1e4"}, "base must be a finite real number > 1, got '1e4'"),
        ({"head_dim": 64, "rope_theta": 1e4, "rope_scaling": {"type": "yarn", "factor": 4.0}},
         "config: original_max_position_embeddings .* is required for rope_type 'yarn'"),
        ({"head_dim": 64, "rope_theta": 1e4, "rope_scaling": {"type": "yarn", "original_max_position_embeddings": 64}},
         "config: factor is required for rope_type 'yarn' \\(transformers refuses a YaRN without the key"),
        ({"head_dim": 64, "rope_scaling": {"type": "linear", "factor": 2.0}}, "config has no rope_theta"),
        ({"head_dim": 64, "rotary_emb_base": 1e4, "rope_theta": 5e5}, "both rotary_emb_base and rope_theta"),
    ],
)  # fmt: skip
def test_from_config_bad_input(config, fragment):
    with pytest.raises(ValueError, match=fragment):
        rope_scaling_from_config(config)


# ---- configs read as transformers reads them -------------------------------------------------------------------------

_LLAMA4_TEXT = {
    "model_type": "llama4_text", "head_dim": 128, "hidden_size": 5120, "num_attention_heads": 40,
    "max_position_embeddings": 10485760, "rope_theta": 500000.0,
    "rope_scaling": {"rope_type": "llama3", "factor": 16.0, "low_freq_factor": 1.0, "high_freq_factor": 1.0,
                     "original_max_position_embeddings": 8192},
}  # fmt: skip
_GEMMA3 = {
    "model_type": "gemma3", "text_config": {
        "model_type": "gemma3_text", "head_dim": 256, "hidden_size": 2560, "num_attention_heads": 8,
        "max_position_embeddings": 131072, "rope_theta": 1000000.0, "rope_local_base_freq": 10000.0,
        "rope_scaling": {"rope_type": "linear", "factor": 8.0}},
}  # fmt: skip


def test_regression_config_without_rope_theta_is_refused_naming_the_key_or_read_from_transformers():
    config = {"model_type": "cohere", "hidden_size": 8192, "num_attention_heads": 64}
    try:
        import transformers  # noqa: F401
    except ImportError:
        with pytest.raises(ValueError, match="config has no rope_theta.*install transformers.*'cohere'"):
            rope_scaling_from_config(config)
    else:
        assert rope_scaling_from_config(config).base == 500000.0  # CohereConfig's default, not 10000
    with pytest.raises(ValueError, match="config has no rope_theta.*no model_type"):
        rope_scaling_from_config({"hidden_size": 8192, "num_attention_heads": 64})


@pytest.mark.parametrize("model_type, base", [("cohere", 5e5), ("gpt_oss", 1.5e5), ("llama4_text", 5e5)])
def test_regression_config_rope_theta_defaults_per_model_from_transformers(model_type, base):
    pytest.importorskip("transformers", reason="the per-model defaults are transformers' own")
    config = {"model_type": model_type, "head_dim": 64, "hidden_size": 4096, "num_attention_heads": 64}
    assert rope_scaling_from_config(config).base == base


def test_regression_config_gemma3_local_base_and_text_config():
    full = rope_scaling_from_config(_GEMMA3, layer_type="full_attention")
    local = rope_scaling_from_config(_GEMMA3, layer_type="sliding_attention")
    assert (full.rope_type, full.base, full.s, full.d) == ("linear", 1e6, 8.0, 256)
    assert (local.rope_type, local.base, local.d) == ("default", 10000.0, 256)  # not silently the global base
    with pytest.raises(ValueError, match="layer_type must be one of 'full_attention', 'sliding_attention'"):
        rope_scaling_from_config(_GEMMA3)


def test_regression_config_llama4_equal_freq_factors():
    cfg = rope_scaling_from_config(_LLAMA4_TEXT)
    inv, _ = cfg.inv_freq()
    ref, _ = cfg.inv_freq_mp(dps=30)
    theta = 500000.0 ** (-np.arange(0, 128, 2) / 128)
    lam = 2 * np.pi / theta
    np.testing.assert_allclose(inv, np.where(lam > 8192, theta / 16, theta), rtol=1e-15)  # no blend band
    np.testing.assert_allclose(inv, [float(x) for x in ref], rtol=tolerances.FLOAT64_RTOL)


def test_regression_config_rotary_pct_rotary_emb_base_rotary_dim_head_dim_variants_mrope():
    neox = {"hidden_size": 2048, "num_attention_heads": 16, "rotary_pct": 0.25, "rotary_emb_base": 10000}
    cfg = rope_scaling_from_config(neox)
    assert (cfg.width, cfg.d, cfg.base) == (128, 32, 10000.0)
    gptj = {"hidden_size": 4096, "num_attention_heads": 16, "rotary_dim": 64, "rope_theta": 1e4}
    assert rope_scaling_from_config(gptj).d == 64
    assert rope_scaling_from_config({"attention_head_dim": 96, "rope_theta": 1e4}).width == 96
    qwen2vl = {"hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1e6,
               "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}}  # fmt: skip
    cfg = rope_scaling_from_config(qwen2vl)
    assert (cfg.rope_type, cfg.d, cfg.base) == ("default", 128, 1e6)


def test_regression_config_keys_transformers_never_reads_are_ignored():
    config = {"head_dim": 128, "rope_theta": 1e4, "max_position_embeddings": 8192,
              "rope_parameters": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 2048,
                                  "max_position_embeddings": 8192, "llama_4_scaling_beta": 0.1}}  # fmt: skip
    assert rope_scaling_from_config(config).s == 4.0  # Mistral 4's form


def test_regression_config_yarn_without_factor_refused_as_transformers_does():
    config = {"head_dim": 64, "rope_theta": 1e4, "max_position_embeddings": 8192,
              "rope_scaling": {"rope_type": "yarn", "original_max_position_embeddings": 2048}}  # fmt: skip
    with pytest.raises(ValueError, match="factor is required for rope_type 'yarn'"):
        rope_scaling_from_config(config)
    config["rope_scaling"]["factor"] = None  # null: transformers takes max_position_embeddings / L0
    assert rope_scaling_from_config(config).s == 4.0


def _hf_inv_freq(config: dict, layer_type=None):
    pytest.importorskip("torch", reason="the live cross-check needs torch")
    transformers = pytest.importorskip("transformers", reason="the live cross-check needs transformers")
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    config = dict(config)
    hf = transformers.AutoConfig.for_model(config.pop("model_type"), **config)
    hf = getattr(hf, "text_config", None) or hf
    params = hf.rope_parameters[layer_type] if layer_type else hf.rope_parameters
    if params["rope_type"] == "default":  # each model's own default function: what its config says, read by hand
        head_dim = getattr(hf, "head_dim", None) or hf.hidden_size // hf.num_attention_heads
        d = int(head_dim * params.get("partial_rotary_factor", 1.0))
        return float(params["rope_theta"]) ** (-np.arange(0, d, 2) / d), 1.0
    else:
        inv, af = ROPE_INIT_FUNCTIONS[params["rope_type"]](hf, None, None, layer_type)
    return inv.double().numpy(), float(af)


@pytest.mark.parametrize(
    "config, layer_type",
    [(_LLAMA4_TEXT, None), (_GEMMA3, "full_attention"), (_GEMMA3, "sliding_attention"),
     ({"model_type": "gpt_neox", "hidden_size": 2048, "num_attention_heads": 16, "rotary_pct": 0.25,
       "rotary_emb_base": 10000}, None),
     ({"model_type": "cohere", "hidden_size": 1024, "num_attention_heads": 8}, None)],
)  # fmt: skip
def test_regression_config_live_agreement_with_transformers(config, layer_type):
    theirs, their_af = _hf_inv_freq(config, layer_type)
    ours, af = rope_inv_freq_from_config(config, layer_type=layer_type)
    np.testing.assert_allclose(ours, theirs, rtol=HF_FLOAT32_RTOL, atol=0)
    assert af == pytest.approx(their_af, rel=HF_FLOAT64_RTOL)


# ---- bad input -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "scaling, fragment",
    [
        ({"rope_type": "linear", "factor": 2.0, "betafast": 3}, "unknown key 'betafast' in scaling; accepted keys"),
        ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64, "rope_theta": 1e4},
         r"unknown key 'rope_theta' in scaling \(the base is the base argument\)"),
        ({"rope_type": "linear", "factor": 2.0, "beta_fast": 32}, "key 'beta_fast' is not used by rope_type 'linear'"),
        ({"rope_type": "rope", "factor": 2.0}, "rope_type must be one of 'default', 'linear'"),
        ({"rope_type": "linear", "type": "yarn", "factor": 2.0}, "rope_type 'linear' and its legacy spelling"),
        ({"rope_type": "linear"}, "factor is required for rope_type 'linear'"),
        ({"rope_type": "linear", "factor": True}, "factor must be a finite real number >= 1, got True"),
        ({"rope_type": "linear", "factor": "8"}, "factor must be .* got '8' .a string: numbers are never parsed"),
        ({"rope_type": "linear", "factor": "__import__('os')"}, "factor must be a finite real number >= 1"),
        ({"rope_type": "linear", "factor": 0.5}, r"factor must be a finite real number >= 1, got 0.5"),
        ({"rope_type": "ntk", "factor": float("inf")}, "factor must be a finite real number >= 1, got inf"),
        ({"rope_type": "linear", "factor": float("nan")}, "factor must be a finite real number >= 1, got nan"),
        ({"rope_type": "yarn", "factor": 2.0}, "original_max_position_embeddings .* is required for rope_type 'yarn'"),
        ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64.0},
         "original_max_position_embeddings must be an integer >= 2, got 64.0"),
        ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 1},
         "original_max_position_embeddings must be an integer >= 2, got 1"),
        ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64, "beta_fast": 1, "beta_slow": 2},
         "beta_fast must be a real number >= beta_slow = 2.0"),
        ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64, "beta_slow": 0},
         "beta_slow must be a finite real number > 0, got 0"),
        ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64, "truncate": "false"},
         "truncate must be true or false, got 'false'"),
        ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64, "mscale": -1},
         "mscale must be a finite real number >= 0, got -1"),
        ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64, "attention_factor": 0},
         "attention_factor must be a finite real number > 0, got 0"),
        ({"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 64, "low_freq_factor": 1},
         "high_freq_factor is required for rope_type 'llama3'"),
        ({"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 64, "low_freq_factor": 4,
          "high_freq_factor": 3}, "high_freq_factor must be a finite real number >= low_freq_factor = 4.0, got 3"),
        ({"rope_type": "longrope", "original_max_position_embeddings": 64, "factor": 2.0, "short_factor": [1.0] * 4},
         "long_factor is required for rope_type 'longrope': a list of 4 numbers"),
        ({"rope_type": "longrope", "original_max_position_embeddings": 64, "factor": 2.0, "short_factor": [1.0] * 3,
          "long_factor": [1.0] * 4}, "short_factor must be a list of 4 finite real numbers > 0 .*got 3 numbers"),
        ({"rope_type": "longrope", "original_max_position_embeddings": 64, "factor": 2.0, "short_factor": "1,1,1,1",
          "long_factor": [1.0] * 4}, "short_factor must be a list of 4"),
        ({"rope_type": "longrope", "original_max_position_embeddings": 64, "factor": 2.0, "short_factor": [1.0] * 4,
          "long_factor": [1.0, 1.0, 0.0, 1.0]}, r"long_factor\[2\] must be a finite real number > 0, got 0.0"),
        ({"rope_type": "longrope", "original_max_position_embeddings": 64, "short_factor": [1.0] * 4,
          "long_factor": [1.0] * 4}, "factor is required for rope_type 'longrope' .* or pass max_position_embeddings"),
        ({"partial_rotary_factor": 0}, r"partial_rotary_factor must be a real number in \(0, 1\], got 0"),
        ({"partial_rotary_factor": 1.5}, r"partial_rotary_factor must be a real number in \(0, 1\], got 1.5"),
        ("yarn", "scaling must be a mapping"),
    ],
)  # fmt: skip
def test_bad_scaling(scaling, fragment):
    with pytest.raises(ValueError, match=fragment):
        rope_inv_freq(8, base=10000.0, scaling=scaling)


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        (dict(width=0), "width must be an integer >= 1, got 0"),
        (dict(width=8.0), "width must be an integer >= 1, got 8.0"),
        (dict(base=1.0), "base must be a finite real number > 1, got 1.0"),
        (dict(base="10000"), "base must be a finite real number > 1, got '10000'"),
        (dict(seq_len=0), "seq_len must be an integer >= 1, got 0"),
        (dict(seq_len=True), "seq_len must be an integer >= 1, got True"),
        (dict(width=2, scaling={"rope_type": "ntk", "factor": 2.0}), r"= 2 must be an even integer >= 4 for rope_type"),
        (dict(scaling={"rope_type": "yarn"}, max_position_embeddings=1),
         r"max_position_embeddings \(used as L0\) must be an integer >= 2, got 1"),
        (dict(scaling={"rope_type": "yarn", "original_max_position_embeddings": 64}, max_position_embeddings=32),
         "max_position_embeddings must be >= L0 = 64 when factor is absent"),
        (dict(max_position_embeddings=-1), "max_position_embeddings must be an integer >= 1, got -1"),
    ],
)  # fmt: skip
def test_bad_arguments(kwargs, fragment):
    args = dict(width=8, base=10000.0, scaling=None) | kwargs
    with pytest.raises(ValueError, match=fragment):
        rope_inv_freq(**args)


def test_null_values_count_as_absent_and_every_key_is_documented():
    a = rope_inv_freq(
        8,
        base=10000.0,
        scaling={
            "rope_type": "yarn",
            "factor": 2.0,
            "original_max_position_embeddings": 64,
            "attention_factor": None,
            "beta_fast": None,
            "mscale": None,
        },
    )
    b = rope_inv_freq(
        8, base=10000.0, scaling={"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 64}
    )
    np.testing.assert_array_equal(a[0], b[0])
    assert a[1] == b[1]
    import posproof.numeric.scaling.rules as module

    assert all(key in module.__doc__ or key in RopeScaling.__doc__ or key in KEYS for key in KEYS)
    assert RopeScaling(8).as_dict()["d"] == 8


# ---- properties (strategies: tests/strategies.py, "context extension") -----------------------------------------------


@given(S.scaling_widths, S.bases, S.scaling_factors)
def test_linear_is_default_divided_by_s(width, base, s):
    inv_freq, af = rope_inv_freq(width, base=base, scaling={"rope_type": "linear", "factor": s})
    np.testing.assert_array_equal(inv_freq, inverse_frequencies(width, base=base) / s)
    assert af == 1.0


@given(S.scaling_widths, S.bases, S.scaling_factors)
def test_ntk_keeps_theta_0_and_divides_the_last_by_exactly_s(width, base, s):
    inv_freq, _ = rope_inv_freq(width, base=base, scaling={"rope_type": "ntk", "factor": s})
    plain = inverse_frequencies(width, base=base)
    assert inv_freq[0] == 1.0
    assert inv_freq[-1] * s == pytest.approx(plain[-1], rel=1e-13)
    assert np.all(inv_freq <= plain * (1 + 1e-15))


@given(S.scaling_widths, S.bases, S.yarn_scalings())
def test_yarn_lies_between_theta_over_s_and_theta(width, base, scaling):
    inv_freq, af = rope_inv_freq(width, base=base, scaling=scaling)
    plain, s = inverse_frequencies(width, base=base), scaling["factor"]
    eps = 4 * 2.0**-52
    assert np.all(inv_freq >= plain / s * (1 - eps)) and np.all(inv_freq <= plain * (1 + eps))
    assert af == pytest.approx(1.0 if s <= 1 else 0.1 * math.log(s) + 1)


@given(S.scaling_widths, S.bases, S.llama3_scalings())
def test_llama3_is_monotone_in_i_and_between_theta_over_s_and_theta(width, base, scaling):
    inv_freq, _ = rope_inv_freq(width, base=base, scaling=scaling)
    plain, s = inverse_frequencies(width, base=base), scaling["factor"]
    eps = 4 * 2.0**-52
    assert np.all(np.diff(inv_freq) <= 0)
    assert np.all(inv_freq >= plain / s * (1 - eps)) and np.all(inv_freq <= plain * (1 + eps))


@given(S.scaling_widths, S.bases, S.scaling_factors, S.trained_lengths, st.integers(1, 200000))
def test_dynamic_is_default_up_to_L0_and_ntk_like_above(width, base, s, L0, seq_len):
    scaling = {"rope_type": "dynamic", "factor": s, "original_max_position_embeddings": L0}
    inv_freq, _ = rope_inv_freq(width, base=base, scaling=scaling, seq_len=seq_len)
    plain = inverse_frequencies(width, base=base)
    if seq_len <= L0:
        np.testing.assert_allclose(inv_freq, plain, rtol=1e-13)
    else:
        assert inv_freq[0] == 1.0 and np.all(inv_freq <= plain * (1 + 1e-15))


@given(st.data())
def test_every_rule_agrees_with_its_mpmath_twin(data):
    width = data.draw(S.scaling_widths)
    base = data.draw(S.bases)
    scaling = data.draw(S.any_scalings(width))
    seq_len = data.draw(st.one_of(st.none(), st.integers(1, 300000)))
    cfg = RopeScaling.from_mapping(width, base=base, scaling=scaling)
    inv_freq, af = cfg.inv_freq(seq_len)
    ref, ref_af = cfg.inv_freq_mp(seq_len, dps=30)
    if cfg.rope_type == "yarn":  # a correction dimension within float rounding of an integer may floor differently
        low, high = cfg.yarn_correction_range()
        if (low, high) != tuple(float(x) for x in cfg.yarn_correction_range(mp=True)):
            return
    np.testing.assert_allclose(inv_freq, [float(x) for x in ref], rtol=tolerances.FLOAT64_RTOL, atol=0)
    assert af == pytest.approx(float(ref_af), rel=tolerances.FLOAT64_RTOL)
    assert inv_freq.shape == (cfg.d // 2,) and inv_freq.dtype == np.float64


# ---- proportional RoPE, per-layer head widths, the layer types the reader knows --------------------------------------


GEMMA4_TEXT = {
    "model_type": "gemma4_text", "hidden_size": 2304, "num_attention_heads": 8, "head_dim": 256,
    "max_position_embeddings": 131072,
    "layer_types": ["sliding_attention"] * 5 + ["full_attention"] + ["sliding_attention"] * 5 + ["full_attention"],
    "per_layer_config": {"05": {"head_dim": 512}, "11": {"head_dim": 512}},
    "rope_parameters": {
        "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
        "full_attention": {"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1000000.0},
    },
}  # fmt: skip


def test_regression_proportional_rope_type_is_read_from_configs():
    cfg = rope_scaling_from_config(GEMMA4_TEXT, layer_type="full_attention")
    assert (cfg.rope_type, cfg.width, cfg.d, cfg.turning_pairs) == ("proportional", 512, 512, 64)
    inv, af = rope_inv_freq_from_config(GEMMA4_TEXT, layer_type="full_attention")
    theta = 1e6 ** (-np.arange(0, 512, 2) / 512)  # the exponent over the whole head, not the 128 turning channels
    assert inv.shape == (256,) and af == 1.0 and (inv[64:] == 0).all()
    assert np.allclose(inv[:64], theta[:64], rtol=1e-15, atol=0)
    inv_mp, _ = cfg.inv_freq_mp(dps=30)
    assert max(abs(float(a) - b) for a, b in zip(inv_mp, inv, strict=True)) < 1e-16
    # a factor divides the turning frequencies; the rule reads no other key; one definition serves multiaxis
    from posproof.numeric import multiaxis

    assert multiaxis.proportional_inv_freq is SC.proportional_inv_freq
    scaled, _ = rope_inv_freq(
        8, base=1e4, scaling={"rope_type": "proportional", "partial_rotary_factor": 0.5, "factor": 2.0}
    )
    assert scaled.tolist() == [0.5, 0.05, 0.0, 0.0]
    with pytest.raises(ValueError, match="key 'beta_fast' is not used by rope_type 'proportional'"):
        rope_inv_freq(8, base=1e4, scaling={"rope_type": "proportional", "beta_fast": 4.0})
    with pytest.raises(ValueError, match="width must be an even integer >= 2 for rope_type 'proportional'"):
        rope_inv_freq(7, base=1e4, scaling={"rope_type": "proportional"})
    with pytest.raises(ValueError, match=r"factor must be a finite real number > 0, got 0\.0"):
        rope_inv_freq(8, base=1e4, scaling={"rope_type": "proportional", "factor": 0.0})
    # not a context-extension rule: the rules' tables and alternatives are unchanged
    assert "proportional" not in SC.ROPE_TYPES and SC.OTHER_ROPE_TYPES == ("proportional",)


def test_regression_per_layer_head_dim_is_read_from_per_layer_config():
    assert rope_scaling_from_config(GEMMA4_TEXT, layer_type="sliding_attention").width == 256
    assert rope_scaling_from_config(GEMMA4_TEXT, layer_type="full_attention").width == 512
    assert rope_scaling_from_config(GEMMA4_TEXT, layer=11).width == 512  # a layer index: its type's rope too
    assert rope_scaling_from_config(GEMMA4_TEXT, layer=0).rope_type == "default"
    inv, _ = rope_inv_freq_from_config(GEMMA4_TEXT, layer=5)
    assert inv.shape == (256,)
    # one rope for every layer, other head widths per layer type: layer_type= is needed, and offered
    plain = {k: v for k, v in GEMMA4_TEXT.items() if k not in ("rope_parameters", "model_type")} | {"rope_theta": 1e4}
    assert config_layer_types(plain) == ["sliding_attention", "full_attention"]
    assert rope_scaling_from_config(plain, layer_type="full_attention").width == 512
    with pytest.raises(ValueError, match="layer_type must be one of 'sliding_attention', 'full_attention'"):
        rope_scaling_from_config(plain, layer_type="chunked_attention")
    uneven = dict(GEMMA4_TEXT, per_layer_config={"05": {"head_dim": 512}, "11": {"head_dim": 384}})
    with pytest.raises(ValueError, match=r"layers 5 and 11.*pass layer= \(a layer index in 0 \.\. 11\)"):
        rope_scaling_from_config(uneven, layer_type="full_attention")
    assert rope_scaling_from_config(uneven, layer=11).width == 384
    with pytest.raises(ValueError, match=r"layer must be an integer in 0 \.\. 11 .*got 12"):
        rope_scaling_from_config(GEMMA4_TEXT, layer=12)
    with pytest.raises(ValueError, match="layer_type must be 'full_attention' .*or None, got 'sliding_attention'"):
        rope_scaling_from_config(GEMMA4_TEXT, layer_type="sliding_attention", layer=5)
    with pytest.raises(ValueError, match="per_layer_config must be a mapping of layer index .* got the key 'x'"):
        rope_scaling_from_config(dict(GEMMA4_TEXT, per_layer_config={"x": {}}), layer_type="full_attention")
    with pytest.raises(ValueError, match="reads per-layer head widths from per_layer_config"):
        rope_scaling_from_config({"head_dim": [64, 128], "rope_theta": 1e4})


def test_regression_deepseek_v4_partial_factor_is_of_the_whole_head():
    v4 = {
        "model_type": "deepseek_v4", "hidden_size": 4096, "num_attention_heads": 64, "head_dim": 512,
        "qk_rope_head_dim": 64, "partial_rotary_factor": 0.125, "max_position_embeddings": 1048576,
        "rope_parameters": {
            "main": {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.125},
            "compress": {"rope_type": "default", "rope_theta": 160000.0, "partial_rotary_factor": 0.125},
        },
    }  # fmt: skip
    assert config_layer_types(v4) == ["main", "compress"]  # its rope labels, as its rotary embedding takes them
    cfg = rope_scaling_from_config(v4, layer_type="compress")
    assert (cfg.width, cfg.d, cfg.base) == (512, 64, 160000.0)  # not 64 * 0.125 = 8 (the factor counted twice)
    with pytest.raises(ValueError, match=r"qk_rope_head_dim must be int\(head_dim \* partial_rotary_factor\)"):
        rope_scaling_from_config(dict(v4, qk_rope_head_dim=32), layer_type="main")


def test_regression_config_layer_types_is_structured():
    assert config_layer_types(GEMMA4_TEXT) == ["sliding_attention", "full_attention"]
    assert config_layer_types({"head_dim": 64, "rope_theta": 1e4}) == [None]
    gemma3_legacy = {"head_dim": 64, "rope_theta": 1e6, "rope_local_base_freq": 1e4}
    assert config_layer_types(gemma3_legacy) == ["full_attention", "sliding_attention"]
    # parameters for a layer type no layer has (Laguna's default configuration): no RoPE of that type exists
    unused = dict(GEMMA4_TEXT, layer_types=["full_attention"] * 12, per_layer_config={})
    assert config_layer_types(unused) == ["full_attention"]
    assert rope_scaling_from_config(unused, layer_type="sliding_attention").base == 1e4  # still readable when asked for
    from posproof.numeric.audit.hf import layer_types

    assert layer_types(GEMMA4_TEXT) == config_layer_types(GEMMA4_TEXT)
    with pytest.raises(ValueError, match="config must be a mapping"):
        config_layer_types(["head_dim"])
