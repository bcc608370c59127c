r"""The multi-axis kernels beyond M-RoPE (numeric/multiaxis: ladders, layouts, coordinates, xdrope, the phase of the
kernel): their mpmath twins, the relative property, the blocks layout, XD-RoPE's channel split."""

from __future__ import annotations

import numpy as np
import pytest
from posproof.numeric import multiaxis as M
from posproof.numeric.tolerances import MULTIAXIS_MP_ATOL

RNG = np.random.default_rng(7)
DECLARATIONS = {
    "axes_dim": ({"rope_type": "axes_dim", "axes_dim": [4, 6, 6]}, 16, 3),
    "axial shared": ({"rope_type": "axial"}, 16, 2),
    "axial split": ({"rope_type": "axial", "axial_frequencies": "split"}, 16, 2),
    "blocks": ({"rope_type": "axial", "layout": "blocks"}, 16, 2),
    "explicit": ({"axes": [1, 2, 1, 2, 0, 0, 0, 0], "layout": "interleaved"}, 16, 3),
    "dinov3 grid": ({"rope_type": "dinov3", "patch_grid": [16, 8]}, 16, 2),
    "affine": ({"axes_dim": [8, 8], "coordinate_scale": [0.5, 3.0], "coordinate_offset": [-1.0, 0.25]}, 16, 2),
}


def _case(name):
    scaling, width, n_axes = DECLARATIONS[name]
    rope = M.multiaxis_from_scaling(scaling, width=width, base=100.0)
    x = RNG.standard_normal((5, width))
    pos = RNG.integers(-50, 4096, (5, n_axes))
    return rope, x, pos


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_float64_agrees_with_the_mpmath_twin(name):
    rope, x, pos = _case(name)
    got = rope.apply(x, pos)
    ref = np.array(rope.apply_mp(x, pos, dps=40), dtype=float)
    assert np.max(np.abs(got - ref)) <= MULTIAXIS_MP_ATOL


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_scores_depend_on_the_position_difference_only(name):
    rope, _, _ = _case(name)
    q, k = RNG.standard_normal((2, 1, rope.rotary_dim))
    p, s, shift = RNG.integers(0, 300, (3, 1, rope.n_axes))
    one = rope.apply(q, p) @ rope.apply(k, s).T
    two = rope.apply(q, p + shift) @ rope.apply(k, s + shift).T
    assert np.allclose(one, two, atol=1e-9)


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_rotations_keep_the_norm(name):
    rope, x, pos = _case(name)
    assert np.allclose(np.linalg.norm(rope.apply(x, pos), axis=-1), np.linalg.norm(x, axis=-1))


def test_the_phase_is_the_angle_at_the_origin():
    x = np.array([[1.0, 0.0, 1.0, 0.0]])
    out = M.rope_multiaxis(x, [[0, 0]], axes=[0, 1], inv_freq=[1.0, 2.0], layout="interleaved", phase=[0.3, -0.4])
    assert np.allclose(out, [[np.cos(0.3), np.sin(0.3), np.cos(-0.4), np.sin(-0.4)]])
    out = M.rope_multiaxis(x, [[2, 1]], axes=[0, 1], inv_freq=[1.0, 2.0], layout="interleaved", phase=[0.3, -0.4])
    assert np.allclose(out, [[np.cos(2.3), np.sin(2.3), np.cos(1.6), np.sin(1.6)]])


def test_a_zero_phase_is_no_phase():
    x, pos = RNG.standard_normal((3, 8)), RNG.integers(0, 9, (3, 2))
    a = M.rope_multiaxis(x, pos, axes=[0, 0, 1, 1], phase=np.zeros(4))
    assert np.array_equal(a, M.rope_multiaxis(x, pos, axes=[0, 0, 1, 1]))


def test_blocks_rotate_half_inside_each_axis_block():
    x, pos = RNG.standard_normal((4, 16)), RNG.integers(0, 40, (4, 2))
    theta = M.axial_inv_freq(16, base=100.0, frequencies="shared")
    got = M.rope_multiaxis(x, pos, axes=M.axial_axes(16), inv_freq=theta, layout="blocks")
    for a, block in enumerate((slice(0, 8), slice(8, 16))):  # each block: 1-D rotate-half RoPE at its axis
        want = M.rope_multiaxis(x[:, block], pos[:, a : a + 1], axes=[0] * 4, inv_freq=theta[:4], layout="half")
        assert np.allclose(got[:, block], want)


def test_channel_pairs_of_each_layout():
    axes = [0, 0, 1, 2, 2, 2]
    assert [c.tolist() for c in M.channel_pairs(axes, layout="interleaved")] == [
        [0, 2, 4, 6, 8, 10],
        [1, 3, 5, 7, 9, 11],
    ]
    assert [c.tolist() for c in M.channel_pairs(axes, layout="half")] == [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]]
    assert [c.tolist() for c in M.channel_pairs(axes, layout="blocks")] == [[0, 1, 4, 6, 7, 8], [2, 3, 5, 9, 10, 11]]


def test_per_axis_ladders_restart_on_each_axis():
    axes = M.axes_dim_axes([4, 8])
    assert axes.tolist() == [0, 0, 1, 1, 1, 1]
    assert np.allclose(M.per_axis_inv_freq(axes, base=16.0), [1.0, 0.25, 1.0, 0.5, 0.25, 0.125])
    mp = M.per_axis_inv_freq_mp(axes, base=16, dps=30)
    assert [float(v) for v in mp] == [1.0, 0.25, 1.0, 0.5, 0.25, 0.125]


def test_patch_coordinates_are_centres_in_minus_one_one():
    c = M.patch_coordinates([2, 4])
    assert c[:, 0].tolist() == [-0.5] * 4 + [0.5] * 4 and c[:4, 1].tolist() == [-0.75, -0.25, 0.25, 0.75]
    scale, offset = M.patch_affine([2, 4], normalize_coords="min")
    assert scale.tolist() == [1.0, 1.0] and offset.tolist() == [-0.5, -0.5]


def test_dinov3_frequencies_float64_against_mpmath():
    f = M.dinov3_inv_freq(16, base=100.0)
    assert np.allclose(f, [float(v) for v in M.dinov3_inv_freq_mp(16, base=100, dps=30)], rtol=1e-15)
    g = M.dinov3_inv_freq(16, base=None, min_period=0.5, max_period=8.0)
    assert np.allclose(g, [float(v) for v in M.dinov3_inv_freq_mp(16, min_period=0.5, max_period=8.0, dps=30)])


def test_continuous_declarations_take_real_positions_and_integer_ones_refuse_them():
    coords = M.multiaxis_from_scaling({"rope_type": "dinov3"}, width=8, base=100.0)
    coords.apply(np.ones((1, 8)), [[0.25, -0.5]])
    grid = M.multiaxis_from_scaling({"rope_type": "dinov3", "patch_grid": [2, 2]}, width=8, base=100.0)
    with pytest.raises(ValueError, match="positions must be integers"):
        grid.apply(np.ones((1, 8)), [[0.25, -0.5]])
    with pytest.raises(ValueError, match=r"positions must be \(\.\.\., tokens, 2\)"):
        grid.apply(np.ones((1, 8)), [[0, 1, 2]])


def test_xdrope_text_tokens_are_one_dimensional_rope_and_other_tokens_lose_the_norm():
    x = RNG.standard_normal((3, 16))
    text = np.array([[5] * 4, [9] * 4, [0] * 4])
    one_d = M.rope_multiaxis(x, text[:, :1], axes=[0] * 8, layout="half")
    assert np.allclose(M.rope_xdrope(x, text, mrope_section=[2, 2, 2, 2]), one_d)
    image = np.array([[5, 1, 9, 0], [5, 2, 3, 0], [5, 7, 7, 0]])
    out = M.rope_xdrope(x, image, mrope_section=[2, 2, 2, 2])
    assert not np.allclose(np.linalg.norm(out, axis=-1), np.linalg.norm(x, axis=-1))
    ref = np.array(M.rope_xdrope_mp(x, image, mrope_section=[2, 2, 2, 2], dps=40), dtype=float)
    assert np.max(np.abs(out - ref)) <= MULTIAXIS_MP_ATOL
    assert M.xdrope_channel_axes([2, 2, 2, 2]).tolist() == [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: M.rope_xdrope(np.ones((1, 6)), [[0, 0]], mrope_section=[2, 2]),
            r"vectors must be \(\.\.\., tokens, 8\)",
        ),
        (lambda: M.rope_xdrope(np.ones((1, 8)), [[0, 0, 0]], mrope_section=[2, 2]), "one per section"),
        (lambda: M.rope_multiaxis(np.ones((1, 4)), [[0, 0]], axes=[0, 1], phase=[0.0]), "one angle per rotated pair"),
        (lambda: M.rope_multiaxis(np.ones((1, 4)), [[0, 0]], axes=[0, 1], layout="diag"), "layout must be"),
        (lambda: M.MultiaxisRope(np.ones(2), np.array([0, 2]), 2), r"axes must be in \[0, 1\]"),
        (lambda: M.MultiaxisRope(np.ones(2), np.array([0, 1]), 2, attention_factor=0.0), "attention_factor"),
        (lambda: M.MultiaxisRope(np.array([1.0, np.nan]), np.array([0, 1]), 2), "inv_freq must be finite"),
        (lambda: M.patch_affine([2, 0]), "patch_grid must be a list of positive integers"),
        (lambda: M.axes_dim_axes([4, 0]), "positive even integers"),
    ],
)
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_the_declaration_is_frozen_and_its_arrays_read_only():
    rope = M.multiaxis_from_scaling({"rope_type": "axial"}, width=8, base=100.0)
    with pytest.raises(AttributeError):
        rope.n_axes = 3  # type: ignore[misc]
    with pytest.raises(ValueError):
        rope.inv_freq[0] = 2.0


def _flux_reference(x, ids, axes_dim, theta):
    r"""FLUX's EmbedND + apply_rope as its source describes them, in numpy: per axis a ladder
    theta**(-arange(0, dim, 2)/dim), the 2 x 2 rotations of all axes concatenated along the pairs, each rotation
    applied to the channel pair (2i, 2i + 1)."""
    angles = np.concatenate(
        [ids[:, a : a + 1] * theta ** (-np.arange(0, dim, 2) / dim) for a, dim in enumerate(axes_dim)], axis=-1
    )  # (tokens, d/2)
    c, s = np.cos(angles), np.sin(angles)
    x0, x1 = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x)
    out[:, 0::2], out[:, 1::2] = c * x0 - s * x1, s * x0 + c * x1
    return out


@pytest.mark.parametrize(
    "axes_dim, theta", [([16, 56, 56], 10000.0), (M.wan_axes_dim(width=48), 10000.0), ([4, 6, 6], 256.0)]
)
def test_axes_dim_is_flux_embed_nd(axes_dim, theta):
    d = sum(axes_dim)
    x, ids = RNG.standard_normal((4, d)), RNG.integers(0, 4096, (4, 3))
    rope = M.multiaxis_from_scaling({"rope_type": "axes_dim", "axes_dim": axes_dim, "theta": theta}, width=d, base=1e4)
    assert np.max(np.abs(rope.apply(x, ids) - _flux_reference(x, ids, axes_dim, theta))) <= MULTIAXIS_MP_ATOL


def test_regression_axes_dim_is_not_one_ladder_over_the_head():
    x, ids = RNG.standard_normal((4, 16)), RNG.integers(1, 64, (4, 3))
    one = M.multiaxis_from_scaling(
        {"axes": M.axes_dim_axes([4, 6, 6]).tolist(), "layout": "interleaved"}, width=16, base=1e4
    )
    assert np.max(np.abs(one.apply(x, ids) - _flux_reference(x, ids, [4, 6, 6], 1e4))) > 1e-3


def test_the_diffusion_splits():
    assert M.wan_axes_dim(width=128) == [44, 42, 42] and M.cogvideox_axes_dim(width=64) == [16, 24, 24]
    with pytest.raises(ValueError, match="multiple of 8"):
        M.cogvideox_axes_dim(width=36)
