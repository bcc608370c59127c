r"""The compiled half-layout kernel (numeric/_fast.py, with numba) and the NumPy path give the same rotations: every
shape the kernel takes, the ones it declines (it must fall back, not write a copy), in place, partial rotary."""

import numpy as np
import pytest
from posproof.numeric import _fast, rope, rope_table

pytestmark = pytest.mark.skipif(not _fast.ENABLED, reason="numba not installed (pip install 'posproof[fast]')")


def _numpy_path(monkeypatch, fn):
    monkeypatch.setattr(_fast, "ENABLED", False)
    return fn()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    "shape, pos_shape",
    [
        ((5, 16), (5,)),
        ((3000, 64), (3000,)),  # several blocks
        ((2, 3, 7, 32), (7,)),  # positions shared by batch and heads
        ((2, 3, 7, 32), (2, 1, 7)),  # per batch, broadcast over heads: the kernel declines, NumPy rotates
        ((2, 3, 7, 32), (2, 3, 7)),  # per batch and head
    ],
)
@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_fused_kernel_equals_numpy(monkeypatch, dtype, shape, pos_shape, layout):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    pos = rng.integers(0, 100000, pos_shape)
    fused = rope(x, pos, layout=layout)
    plain = _numpy_path(monkeypatch, lambda: rope(x, pos, layout=layout))
    # the same formula in another order of operations: a few ulps of the pair's length
    scale = np.abs(x).max() * np.finfo(dtype).eps
    np.testing.assert_allclose(fused, plain, rtol=0, atol=8 * scale)


@pytest.mark.parametrize("rotary_dim", [8, 16])
def test_fused_half_kernel_partial_rotary_and_in_place(monkeypatch, rotary_dim):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((40, 16)).astype(np.float32)
    table = rope_table(np.arange(40) + 7, width=16, layout="half", rotary_dim=rotary_dim)
    want = _numpy_path(
        monkeypatch, lambda: rope_table(np.arange(40) + 7, width=16, layout="half", rotary_dim=rotary_dim).apply(x)
    )
    monkeypatch.undo()
    got = table.apply(x)
    np.testing.assert_allclose(got, want, rtol=0, atol=8 * np.abs(x).max() * np.finfo(np.float32).eps)
    np.testing.assert_array_equal(got[:, rotary_dim:], x[:, rotary_dim:])
    y = x.copy()
    assert table.apply(y, out=y) is y
    np.testing.assert_array_equal(y, got)


@pytest.mark.parametrize("half", [True, False])
def test_rotate_block_writes_through_to_a_non_contiguous_out(half):
    x = np.ones((4, 8), dtype=np.float32)
    c, s = np.ones((4, 4), dtype=np.float32), np.zeros((4, 4), dtype=np.float32)
    out = np.zeros((8, 8), dtype=np.float32)[::2]  # not contiguous: a reshape would copy
    assert _fast.rotate_block(x, c, s, out, half) is True
    np.testing.assert_array_equal(out, x)  # cos 1, sin 0: the identity, written into the strided view
    assert _fast.rotate_block(x.astype(np.float16), c, s, out, half) is None  # only float32 and float64


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("half", [True, False])
def test_rotate_block_flags_every_non_finite_output(dtype, half):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 5, 8)).astype(dtype)
    c, s = np.ones((1, 5, 4), dtype=dtype), np.zeros((1, 5, 4), dtype=dtype)
    out = np.empty_like(x)
    assert _fast.rotate_block(x, c, s, out, half) is True
    for bad in (np.nan, np.inf, -np.inf):
        y = x.copy()
        y[2, 4, 7] = bad
        assert _fast.rotate_block(y, c, s, out, half) is False


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "numpy"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_both_paths_rotate_in_place_correctly(monkeypatch, compiled, dtype):
    # the reported example: x = [[1, 0, 0, 0]] at position 1, half layout, in place
    if not compiled:
        monkeypatch.setattr(_fast, "ENABLED", False)
    x = np.array([[1.0, 0.0, 0.0, 0.0]], dtype=dtype)
    table = rope_table([1], width=4, layout="half")
    table.apply(x, out=x)
    np.testing.assert_allclose(x, [[np.cos(1.0), 0.0, np.sin(1.0), 0.0]], atol=1e-6)


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "numpy"])
@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_both_paths_refuse_non_finite_vectors(monkeypatch, compiled, layout):
    if not compiled:
        monkeypatch.setattr(_fast, "ENABLED", False)
    x = np.ones((6, 8), dtype=np.float32)
    x[4, 3] = np.nan
    with pytest.raises(ValueError, match="finite"):
        rope_table(np.arange(6), width=8, layout=layout).apply(x)
