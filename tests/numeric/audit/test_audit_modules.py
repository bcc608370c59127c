r"""The audit's modules (``numeric/_audit_*.py``): the public surface of ``numeric.audit`` is unchanged, and the
helpers that now reuse the kernels compute what the kernels compute."""

import mpmath
import numpy as np
import pytest
from posproof.numeric import audit
from posproof.numeric.audit.model import RopeModel, rope_exact_float
from posproof.numeric.audit.rules import fit_base, rule_candidates
from posproof.numeric.audit.t5 import _t5_variant
from posproof.numeric.rotary import rope
from posproof.numeric.scaling.rules import RopeScaling
from posproof.numeric.sinusoid import inverse_frequencies
from posproof.numeric.t5 import t5_relative_bucket


def test_numeric_audit_exports_the_same_names():
    assert set(audit.__all__) == {
        "Finding", "RopeCall", "RopeMatch", "RopeReport", "SchemeReport", "AuditCallError", "RopeConformanceError",
        "audit_rope", "audit_alibi", "audit_t5", "assert_rope_conforms", "format_report", "ROPE_FINDINGS",
        "ALIBI_FINDINGS", "T5_FINDINGS", "audit_multiaxis", "MULTIAXIS_FINDINGS",
        "ProcessReport", "PROCESS_FINDINGS", "check_rope_arguments", "xpos_plan", "audit_xpos_plan", "XPOS_FINDINGS",
        "audit_cache_shift", "CACHE_SHIFT_FINDINGS", "audit_self_extend", "SELF_EXTEND_FINDINGS",
        "audit_llama4_temperature", "TEMPERATURE_FINDINGS",
    }  # fmt: skip
    for name in audit.__all__ + ["CALL_ARGS", "AXES", "T5_SETTINGS", "rope_exact_float"]:
        assert getattr(audit, name) is not None


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("rotary_dim, attention_factor", [(8, 1.0), (4, 1.25)])
def test_rope_exact_float_is_the_rotary_kernel(layout, rotary_dim, attention_factor):
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (5, 8))  # (tokens, width)
    pos = np.array([0, 1, 3, 100, 4096])
    theta = inverse_frequencies(rotary_dim, base=500.0)
    model = RopeModel(layout, theta, tuple(mpmath.mpf(float(t)) for t in theta), attention_factor, rotary_dim, 8)
    want = rope(x, pos, layout=layout, inv_freq=theta, attention_factor=attention_factor, rotary_dim=rotary_dim)
    np.testing.assert_array_equal(rope_exact_float(x, pos, model), want)
    angles = pos[:, None] * theta  # explicit angles: the same rotation
    np.testing.assert_array_equal(rope_exact_float(x, pos, model, angles), want)


def test_candidates_start_with_the_configured_rule_and_fit_the_base():
    cfg = RopeScaling.from_mapping(16, base=10000.0, scaling={"rope_type": "linear", "factor": 4.0})
    cands = rule_candidates(cfg, 1024, 16)
    np.testing.assert_array_equal(cands[0].theta, cfg.inv_freq(1024)[0])
    assert cands[1].key == "no-scaling"
    np.testing.assert_array_equal(cands[1].theta, inverse_frequencies(16, base=10000.0))
    assert fit_base(inverse_frequencies(16, base=20000.0), 16) == pytest.approx(20000.0)
    assert fit_base(inverse_frequencies(16, base=20000.0) / 2, 16) is None  # not geometric from 1


def test_unhalved_t5_variant_is_a_one_sided_t5_per_side():
    r = np.arange(-300, 301)
    got = _t5_variant("t5-bidirectional-halving", r, True, 32, 128)
    assert got is not None
    np.testing.assert_array_equal(
        got[r <= 0], t5_relative_bucket(r[r <= 0], bidirectional=False, num_buckets=32, max_distance=128)
    )
    np.testing.assert_array_equal(
        got[r > 0], 16 + t5_relative_bucket(-r[r > 0], bidirectional=False, num_buckets=32, max_distance=128)
    )
    assert _t5_variant("t5-bidirectional-halving", r, True, 32, 12) is None  # max_distance <= 16: no such T5
