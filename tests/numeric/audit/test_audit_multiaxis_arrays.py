r"""The multi-axis audit calls a function with NumPy arrays, then torch tensors, then JAX arrays
(numeric/audit/multiaxis_probe.py): a function written for one library is audited without an adapter, its positions
int64 or float as the declaration says, its output converted back."""

from __future__ import annotations

import math

import numpy as np
import pytest
from posproof.numeric import multiaxis as M
from posproof.numeric.audit import AuditCallError
from posproof.numeric.audit.multiaxis import audit_multiaxis, audit_rope_multiaxis, multiaxis_plan
from posproof.numeric.audit.multiaxis_probe import MultiaxisCaller

WIDTH, SECTIONS = 16, [2, 3, 3]


def torch_mrope(order=(0, 1, 2), seen=None):
    r"""Qwen2-VL's M-RoPE in torch (angles per axis, recomposed by sections, rotate-half); fails on NumPy arrays."""
    torch = pytest.importorskip("torch", reason="the torch call of the multi-axis audit needs torch")

    def fn(x, pos):
        if seen is not None:
            seen.append(pos.dtype)
        d = x.shape[-1]
        inv = 1.0 / (10000.0 ** (torch.arange(0, d, 2, dtype=torch.float64) / d))
        freqs = pos.T[list(order)].to(torch.float64)[:, :, None] * inv  # (A, N, d/2)
        f = torch.cat([m[i] for i, m in enumerate(freqs.split(SECTIONS, dim=-1))], dim=-1)
        emb = torch.cat([f, f], dim=-1)
        rot = torch.cat([-x[:, d // 2 :], x[:, : d // 2]], dim=-1)
        return x * emb.cos() + rot * emb.sin()

    return fn


def test_torch_multiaxis_function_without_adapter():
    torch = pytest.importorskip("torch", reason="the torch call of the multi-axis audit needs torch")
    seen: list = []
    fn = torch_mrope(seen=seen)
    with pytest.raises(Exception):  # noqa: B017 - written for torch: NumPy arrays are refused
        fn(np.ones((1, WIDTH)), np.zeros((1, 3), dtype=np.int64))
    seen.clear()
    report = audit_multiaxis(fn, WIDTH, mrope_section=SECTIONS)
    assert report.ok, report.findings
    tensors = [d for d in seen if isinstance(d, torch.dtype)]
    assert tensors and all(d == torch.int64 for d in tensors)  # integer positions as int64 tensors
    wrong = audit_multiaxis(torch_mrope(order=(1, 0, 2)), WIDTH, mrope_section=SECTIONS)
    assert wrong.ids == ("mrope-axes-order",)
    # through audit_rope's dispatch
    plan = multiaxis_plan("mrope", "auto", 10000.0, {"mrope_section": SECTIONS}, WIDTH, None)
    assert audit_rope_multiaxis(plan, torch_mrope(), "torch_mrope").ok


def test_torch_continuous_positions_are_float_tensors():
    torch = pytest.importorskip("torch", reason="the torch call of the multi-axis audit needs torch")
    inv = 2 * math.pi * np.array([1.0, 0.1])

    def fn(x, coords):  # DINOv3-like, torch only: real coordinates as float tensors
        assert coords.dtype == torch.float64
        t = torch.as_tensor(inv)
        angles = torch.cat([coords[:, :1] * t, coords[:, 1:2] * t], dim=-1)  # (N, 4)
        emb = torch.cat([angles, angles], dim=-1)
        rot = torch.cat([-x[:, 4:], x[:, :4]], dim=-1)
        return x * emb.cos() + rot * emb.sin()

    rope = M.MultiaxisRope(np.concatenate([inv, inv]), [0, 0, 1, 1], 2, continuous=True)
    assert audit_multiaxis(fn, 8, rope).ok


@pytest.mark.slow  # importing jax takes seconds, and every jnp operation is dispatched on its own
def test_jax_multiaxis_function_without_adapter():
    jnp = pytest.importorskip("jax.numpy", reason="the JAX call of the multi-axis audit needs jax")
    axes = M.mrope_axes(SECTIONS)

    def fn(x, pos):  # JAX only: x.at[].set() (NumPy arrays and torch tensors have no .at)
        d = x.shape[-1]
        theta = 1.0 / 10000.0 ** (jnp.arange(0, d, 2) / d)
        ang = pos[:, jnp.asarray(axes)] * theta
        cos, sin = jnp.cos(ang), jnp.sin(ang)
        a, b = x[:, : d // 2], x[:, d // 2 :]
        out = x.at[:, : d // 2].set(a * cos - b * sin)
        return out.at[:, d // 2 :].set(a * sin + b * cos)

    caller = MultiaxisCaller(fn)
    y = caller(np.eye(WIDTH), np.ones((WIDTH, 3)))
    assert caller.backend == "jax" and y is not None and y.dtype == np.float64
    report = audit_multiaxis(fn, WIDTH, mrope_section=SECTIONS)  # float32 (JAX without x64) within tolerance
    assert report.ok, report.findings
    assert audit_multiaxis(fn, WIDTH, mrope_section=SECTIONS, mrope_interleaved=True).ids == (
        "mrope-chunked-vs-interleaved",
    )


def test_every_library_refusing_is_one_call_error_naming_each():
    def refuses(x, pos):
        raise ValueError("not for me")

    plan = multiaxis_plan("mrope", "auto", 10000.0, {"mrope_section": SECTIONS}, WIDTH, None)
    with pytest.raises(AuditCallError, match=r"positions \(3, 3\)\) raised ValueError: not for me") as e:
        audit_rope_multiaxis(plan, refuses, "mine")
    text = str(e.value)
    assert text.startswith("mine(vectors (3, 16)") and "one position vector per token" in text
    try:
        __import__("torch")
    except ImportError:
        pass
    else:
        assert "torch: ValueError: not for me" in text
    assert "jax" not in text  # JAX only for code written for it (below)


def test_regression_numpy_code_that_raises_is_not_retried_with_jax():
    # a forked audit child of a process that has run JAX hangs in its first compile: a NumPy function that raised
    # (a wrong position shape) was retried with JAX arrays, and posproof audit's child never came back
    from posproof.numeric.audit.multiaxis_probe import MultiaxisCaller

    tried = []

    def refuses(x, pos):
        tried.append(type(x).__module__.split(".")[0])
        raise ValueError("not for me")

    with pytest.raises(AuditCallError):
        MultiaxisCaller(refuses).raw(np.ones((3, WIDTH)), np.zeros((3, 3)))
    assert "jax" not in tried and tried[0] == "numpy"
