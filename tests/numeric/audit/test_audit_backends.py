r"""Which arrays the audit calls a function with: torch code gets torch tensors first (a NumPy try can break a
torch module's state), JAX code without float64 may return float32 for float64 inputs."""

from __future__ import annotations

import numpy as np
import pytest
from posproof.numeric import audit

torch = pytest.importorskip("torch", reason="torch code's calls need torch")


class _Cached:
    r"""A rotary whose cache key (the width and positions) is set before its tables are built (as xformers' cached
    length is): a call that raises half-way leaves it broken for the same key."""

    def __init__(self):
        self.length, self.cos = None, None

    def __call__(self, vectors, positions):
        key = (vectors.shape[1], tuple(positions.tolist()))
        if key != self.length:
            self.length = key
            angles = positions.double()[:, None] * 10000.0 ** (-torch.arange(0, vectors.shape[1], 2).double()
                                                               / vectors.shape[1])  # fmt: skip
            self.cos, self.sin = angles.cos(), angles.sin()
        out = vectors.clone()
        out[:, 0::2] = vectors[:, 0::2] * self.cos - vectors[:, 1::2] * self.sin
        out[:, 1::2] = vectors[:, 0::2] * self.sin + vectors[:, 1::2] * self.cos
        return out


_ROTARY = _Cached()


def stateful(vectors, positions, base=10000.0):
    return _ROTARY(vectors, positions)


def test_regression_torch_code_is_called_with_tensors_first():
    report = audit.audit_rope(stateful, layout="interleaved", width=8, max_position=4096)
    assert report.ok, audit.format_report(report)
    assert report.matched.backend == "torch"
    # independently: one NumPy call leaves it broken (the cached length set, no tables for NumPy arrays)
    fresh = _Cached()
    with pytest.raises((TypeError, AttributeError)):
        fresh(np.ones((3, 8)), np.arange(3))
    with pytest.raises((TypeError, AttributeError, RuntimeError)):
        fresh(torch.ones(3, 8, dtype=torch.float64), torch.arange(3))


def test_jax_float32_outputs_of_float64_inputs_are_accepted_with_a_note():
    jax = pytest.importorskip("jax", reason="a JAX function needs jax")
    if jax.config.read("jax_enable_x64"):
        pytest.skip("JAX holds float64 here")
    import jax.numpy as jnp

    def rope(vectors, positions, base=10000.0):
        d = vectors.shape[1]
        ang = jnp.asarray(positions, dtype=jnp.float32)[:, None] * base ** (-jnp.arange(0, d, 2) / d)
        x = jnp.asarray(vectors)
        h = d // 2
        c, s = jnp.cos(jnp.concatenate([ang, ang], 1)), jnp.sin(jnp.concatenate([ang, ang], 1))
        return x * c + jnp.concatenate([-x[:, h:], x[:, :h]], 1) * s

    report = audit.audit_rope(rope, layout="half", width=8, max_position=4096)
    assert report.ok, audit.format_report(report)
    assert any("jax_enable_x64" in n for n in report.notes)
    assert rope(np.ones((1, 8)), np.array([3])).dtype == jnp.float32  # independently: float64 in, float32 out
