r"""The audit's reading of precision: frequencies measured before precision is judged (a close but wrong ladder is
named, never "angles in float16"), angle precision told from cos/sin table precision, 16-bit inputs on ``(q, k)``
functions. Each real finding is confirmed by an independent NumPy computation of what the function does."""

from __future__ import annotations

import numpy as np
import pytest
from posproof.numeric import audit

ml_dtypes = pytest.importorskip("ml_dtypes", reason="16-bit tables and inputs need ml_dtypes")
BF16 = ml_dtypes.bfloat16


def _audit(fn, **kw):
    with np.errstate(all="ignore"):
        return audit.audit_rope(fn, **kw)


def _ladder(width: int, base: float) -> np.ndarray:
    return base ** (-np.arange(0, width, 2) / width)  # (pairs,) float64, written here, not posproof's


def _turn(vectors, angles, table_dtype=None):
    r"""Interleaved pairs of ``vectors`` turned by ``angles`` (tokens, pairs); cos/sin rounded to ``table_dtype``."""
    c, s = np.cos(angles), np.sin(angles)
    if table_dtype is not None:
        c, s = c.astype(table_dtype), s.astype(table_dtype)
    c, s = c.astype(vectors.dtype), s.astype(vectors.dtype)
    out = np.empty_like(vectors)
    out[:, 0::2] = vectors[:, 0::2] * c - vectors[:, 1::2] * s
    out[:, 1::2] = vectors[:, 0::2] * s + vectors[:, 1::2] * c
    return out


def _rope(base=10000.0, angle_dtype=np.float64, table_dtype=None, freq_dtype=None):
    def rope(vectors, positions, base_=10000.0):
        theta = _ladder(vectors.shape[1], base)
        if freq_dtype is not None:
            theta = theta.astype(freq_dtype).astype(np.float64)
        angles = np.asarray(positions).astype(angle_dtype)[:, None] * theta.astype(angle_dtype)[None, :]
        return _turn(vectors, angles.astype(np.float64), table_dtype)

    return rope


def _angle_of_pair(fn, width: int, pair: int, m: int) -> float:
    x = np.zeros((1, width))
    x[0, 2 * pair] = 1.0
    y = fn(x, np.array([m]))[0]
    return float(np.arctan2(y[2 * pair + 1], y[2 * pair]))


# ---- a close but wrong ladder is named -------------------------------------------------------------------------------


def test_base_10005_declared_10000_is_wrong_base():
    fn = _rope(base=10005.0)
    report = _audit(fn, layout="interleaved", width=64)
    assert report.ids == ("wrong-base",), audit.format_report(report)
    assert "base 10005 instead of 10000" in report.findings[0].message
    assert report.matched.angle_precision == "float64" and report.matched.base == pytest.approx(10005.0)
    # independently: the last pair turns by 1000 theta_31 with theta_31 of base 10005, 6e-5 rad from base 10000's
    got = _angle_of_pair(fn, 64, 31, 1000)
    assert got == pytest.approx(1000 * _ladder(64, 10005.0)[31], abs=1e-12)
    assert abs(got - 1000 * _ladder(64, 10000.0)[31]) > 5e-5


def test_base_off_by_half_a_unit_is_still_wrong_base():
    report = _audit(_rope(base=10000.5), layout="interleaved", width=64)
    assert report.ids == ("wrong-base",) and "10000.5" in report.findings[0].message


def test_dynamic_ntk_that_never_scales_is_wrong_scaling_not_float16():
    # the probes reach 4096 > L0 = 4064: dynamic NTK raises the base by ~1 %, the function keeps the plain ladder
    scaling = {"rope_type": "dynamic", "factor": 1.5, "original_max_position_embeddings": 4064}
    fn = _rope()
    report = _audit(fn, layout="interleaved", width=64, scaling=scaling, max_position=4096)
    assert report.ids == ("wrong-scaling",), audit.format_report(report)
    assert "no scaling" in report.findings[0].message and report.matched.angle_precision == "float64"
    # independently: the base dynamic NTK gives at length 4097, and the plain one the function turns by
    d, L, L0, s = 64, 4097, 4064, 1.5
    scaled = 10000.0 * ((s * L / L0) - (s - 1)) ** (d / (d - 2))
    got = _angle_of_pair(fn, d, 31, 3001)
    assert got == pytest.approx(wrap(3001 * _ladder(d, 10000.0)[31]), abs=1e-9)
    assert abs(got - wrap(3001 * _ladder(d, scaled)[31])) > 1e-3


def wrap(a: float) -> float:
    return float((a + np.pi) % (2 * np.pi) - np.pi)


def test_frequencies_rounded_to_bfloat16_are_low_precision_angles_naming_a_pair():
    fn = _rope(angle_dtype=np.float32, freq_dtype=BF16)
    report = _audit(fn, layout="interleaved", width=64)
    assert report.ids == ("low-precision-angles",), audit.format_report(report)
    (f,) = report.findings
    assert "rounds its frequencies theta_i to bfloat16" in f.message and report.matched.angle_precision == "bfloat16"
    pair = int(f.message.split("pair ")[1].split(":")[0])
    rounded = float(_ladder(64, 10000.0).astype(BF16)[pair])
    assert f"{rounded:.9g}" in f.message  # the measured frequency is the bfloat16 one


# ---- angle precision and table precision -----------------------------------------------------------------------------


def test_float16_cos_sin_table_over_float32_angles_conforms():
    fn = _rope(angle_dtype=np.float32, table_dtype=np.float16)  # GPT-NeoX's float16 cache
    report = _audit(fn, layout="interleaved", width=64)
    assert report.ok, audit.format_report(report)
    m = report.matched
    assert (m.angle_precision, m.table_precision) == ("float32", "float16")
    assert 1e-4 < m.table_error < 1e-3  # float16 rounds cos and sin by <= 2**-11
    assert "cos/sin table float16" in audit.format_report(report)
    # independently: every value it applies is a float16 number
    y = fn(np.eye(64), np.full(64, 12345))
    assert np.array_equal(y.astype(np.float16).astype(np.float64), y)


@pytest.mark.parametrize("angle_dtype, angles", [(np.float32, "float32"), (np.float64, "float64")])
def test_bfloat16_cos_sin_table_conforms_and_says_its_angles(angle_dtype, angles):
    report = _audit(_rope(angle_dtype=angle_dtype, table_dtype=BF16), layout="interleaved", width=64)
    assert report.ok, audit.format_report(report)
    assert (report.matched.angle_precision, report.matched.table_precision) == (angles, "bfloat16")


def test_float16_angles_still_fail_as_angles():
    report = _audit(_rope(angle_dtype=np.float16, table_dtype=np.float16), layout="interleaved", width=64)
    assert report.ids == ("low-precision-angles",) and report.matched.angle_precision == "float16"


def test_sixteen_bit_table_past_the_tolerance_is_low_precision_table():
    fn = _rope(table_dtype=BF16)
    report = _audit(fn, layout="interleaved", width=64, tolerance=1e-5)
    assert report.ids == ("low-precision-table",), audit.format_report(report)
    (f,) = report.findings
    assert f.example["table_dtype"] == "bfloat16" and f.example["first_exceeding"] <= 1024
    # independently: a score through bfloat16 cos/sin at distance 1 is off by more than 1e-5 of |q||k|
    rng = np.random.default_rng(0)
    q, k = rng.uniform(-1, 1, (2, 1, 64))
    err = abs(float(fn(q, np.array([3]))[0] @ fn(k, np.array([4]))[0]) - float(_rope()(q, np.array([0]))[0]
              @ _rope()(k, np.array([1]))[0]))  # fmt: skip
    assert err / (np.linalg.norm(q) * np.linalg.norm(k)) > 1e-5


# ---- 16-bit inputs on (q, k) functions -------------------------------------------------------------------------------


def _qk_numpy(q, k, positions):
    theta = _ladder(q.shape[1], 10000.0).astype(np.float32)
    angles = np.asarray(positions, dtype=np.float32)[:, None] * theta
    return _turn(q, angles), _turn(k, angles)


def test_qk_dtype_float16_probes_each_output_with_its_own_input():
    report = _audit(_qk_numpy, call="q,k,positions", layout="interleaved", width=16, dtype="float16")
    assert report.ok, audit.format_report(report)

    def k_in_float16_positions(q, k, positions):  # the bug is on k only: k's positions rounded to float16
        pq = np.asarray(positions)
        pk = pq.astype(np.float16).astype(np.int64) if k.dtype == np.float16 else pq
        return _qk_numpy(q, k, pq)[0], _qk_numpy(k, k, pk)[0]

    report = _audit(k_in_float16_positions, call="q,k,positions", layout="interleaved", width=16, dtype="float16",
                    max_position=65536)  # fmt: skip
    assert report.ids == ("low-precision-angles",) and report.findings[0].output == "k", audit.format_report(report)
    m = report.findings[0].example["positions"][0]
    assert float(np.float16(m)) != m  # independently: float16 cannot hold the position the example shows


def test_bfloat16_torch_qk():
    torch = pytest.importorskip("torch", reason="torch (q, k) functions need torch")

    def qk(q, k, positions):  # Hugging Face's float32 cache, applied in the inputs' dtype
        d = q.shape[-1]
        inv = 1.0 / (10000.0 ** (torch.arange(0, d, 2).float() / d))
        freqs = positions.float()[:, None] * inv[None, :]
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos().to(q.dtype), emb.sin().to(q.dtype)

        def half(x):
            return torch.cat((-x[..., d // 2 :], x[..., : d // 2]), dim=-1)

        return q * cos + half(q) * sin, k * cos + half(k) * sin

    for dtype in ("bfloat16", "float16"):
        report = _audit(qk, call="q,k,positions", layout="half", width=16, dtype=dtype, max_position=65536)
        assert report.ok, audit.format_report(report)
        assert report.matched.backend == "torch"
    out = qk(torch.ones(1, 16, dtype=torch.bfloat16), torch.ones(1, 16, dtype=torch.bfloat16), torch.tensor([5]))
    assert out[0].dtype == torch.bfloat16  # independently: it takes and returns torch's own bfloat16


def test_numpy_function_refusing_16_bit_arrays_is_retried_on_torch():
    torch = pytest.importorskip("torch", reason="the retry is on torch")

    def rope(vectors, positions, base=10000.0):
        if isinstance(vectors, np.ndarray):
            if vectors.dtype.itemsize == 2:
                raise TypeError("no 16-bit NumPy arrays here")
            return _rope(angle_dtype=np.float32)(vectors, positions)
        x = vectors.double().numpy()
        y = _rope(angle_dtype=np.float32)(x, positions.numpy())
        return torch.from_numpy(y).to(vectors.dtype)

    report = _audit(rope, layout="interleaved", width=16, dtype="bfloat16", max_position=65536)
    assert report.ok, audit.format_report(report)
    assert report.matched.backend == "numpy"  # the backend of its float32/float64 calls


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_transformers_llama_rotary_with_16_bit_inputs_conforms(dtype):
    pytest.importorskip("torch", reason="transformers' own RoPE needs torch")
    pytest.importorskip("transformers", reason="transformers' own RoPE needs transformers")
    from posproof.numeric.audit.hf import TransformersRope, load_config

    target = TransformersRope(load_config("llama"), None)  # (q, k): each output probed with its own 16-bit input
    kw = dict(target.expected, width=32)
    report = _audit(target, name=target.describe, dtype=dtype, max_position=65536, **kw)
    assert report.ok, audit.format_report(report)
    assert report.matched.angle_precision == "float32"
