r"""The scaling keys that declare a multi-axis RoPE (numeric/multiaxis/scaling.py) and the declaration each gives."""

from __future__ import annotations

import numpy as np
import pytest
from posproof.numeric import multiaxis as M
from posproof.numeric.sinusoid import inverse_frequencies


def test_mrope_keys_give_the_sections_and_the_rule_frequencies():
    rope = M.multiaxis_from_scaling(
        {"rope_type": "linear", "factor": 2.0, "mrope_section": [2, 1, 1]}, width=8, base=100.0
    )
    assert rope.axes.tolist() == [0, 0, 1, 2] and rope.n_axes == 3 and rope.layout is None
    assert np.allclose(rope.inv_freq, inverse_frequencies(8, base=100.0) / 2)
    inter = M.multiaxis_from_scaling({"mrope_section": [2, 1, 1], "mrope_interleaved": True}, width=8, base=100.0)
    assert inter.axes.tolist() == [0, 1, 2, 0]


def test_mrope_partial_rotary_splits_the_rotated_pairs():
    rope = M.multiaxis_from_scaling({"mrope_section": [2, 1, 1], "partial_rotary_factor": 0.5}, width=16, base=1e4)
    assert rope.rotary_dim == 8 and np.allclose(rope.inv_freq, inverse_frequencies(8, base=1e4))


def test_bare_axial_shares_the_frequencies_and_split_is_pixtral():
    theta = inverse_frequencies(16, base=1e4)  # (8,)
    shared = M.multiaxis_from_scaling({"rope_type": "axial"}, width=16, base=1e4)
    split = M.multiaxis_from_scaling({"rope_type": "axial", "axial_frequencies": "split"}, width=16, base=1e4)
    assert shared.axes.tolist() == [0] * 4 + [1] * 4 == split.axes.tolist()
    assert np.array_equal(shared.inv_freq, np.concatenate([theta[0::2], theta[0::2]]))
    assert np.array_equal(split.inv_freq, np.concatenate([theta[0::2], theta[1::2]]))
    assert np.allclose(shared.inv_freq[:4], inverse_frequencies(8, base=1e4))  # the ladder of a d/2-wide head


def test_axial_order_puts_the_column_first():
    rope = M.multiaxis_from_scaling({"rope_type": "axial", "axial_order": "wh"}, width=8, base=1e4)
    assert rope.axes.tolist() == [1, 1, 0, 0]


def test_axes_dim_restarts_the_ladder_on_each_axis_and_fixes_interleaved_pairs():
    rope = M.multiaxis_from_scaling({"rope_type": "axes_dim", "axes_dim": [16, 56, 56]}, width=128, base=1e4)
    assert rope.layout == "interleaved" and rope.n_axes == 3 and rope.rotary_dim == 128
    assert np.array_equal(rope.axes, np.repeat([0, 1, 2], [8, 28, 28]))
    for a, (start, w) in enumerate([(0, 16), (8, 56), (36, 56)]):
        assert np.allclose(rope.inv_freq[start : start + w // 2], inverse_frequencies(w, base=1e4)), a
    half = M.multiaxis_from_scaling({"axes_dim": [8, 8], "layout": "half", "theta": 256}, width=24, base=1e4)
    assert half.layout == "half" and half.rotary_dim == 16 and np.isclose(half.inv_freq[1], 256 ** (-2 / 8))


def test_explicit_axes_with_global_and_per_axis_ladders():
    glob = M.multiaxis_from_scaling({"axes": [1, 2, 1, 2, 0, 0]}, width=12, base=100.0)
    assert glob.n_axes == 3 and np.allclose(glob.inv_freq, inverse_frequencies(12, base=100.0))
    per = M.multiaxis_from_scaling({"axes": [1, 0, 1, 0], "ladder": "per_axis", "n_axes": 2}, width=8, base=100.0)
    assert np.allclose(per.inv_freq, [1.0, 1.0, 0.1, 0.1])


def test_coordinate_keys_scale_the_frequencies_and_give_the_phase():
    rope = M.multiaxis_from_scaling(
        {"rope_type": "axial", "coordinate_scale": [0.5, 2.0], "coordinate_offset": [1.0, -1.0]}, width=8, base=16.0
    )
    theta = np.array([1.0, 0.25, 1.0, 0.25])
    assert np.allclose(rope.inv_freq, theta * [0.5, 0.5, 2.0, 2.0])
    assert np.allclose(rope.phase, theta * [1.0, 1.0, -1.0, -1.0])
    # index n stands for the coordinate 0.5 n + 1 (row), 2 n - 1 (column)
    base = M.multiaxis_from_scaling({"rope_type": "axial", "continuous": True}, width=8, base=16.0)
    n = np.array([[3, 5], [0, 2]])
    assert np.allclose(rope.angles(n), base.angles(n * [0.5, 2.0] + [1.0, -1.0]))


def test_dinov3_declares_continuous_coordinates_or_a_patch_grid_with_a_phase():
    coords = M.multiaxis_from_scaling({"rope_type": "dinov3"}, width=16, base=100.0)
    assert coords.continuous and coords.layout == "half" and coords.phase is None
    assert np.allclose(coords.inv_freq[:4], 2 * np.pi * 100.0 ** (-np.arange(4) / 4))
    grid = M.multiaxis_from_scaling({"rope_type": "dinov3", "patch_grid": [4, 2]}, width=16, base=100.0)
    assert not grid.continuous
    index = np.array([[0, 0], [3, 1], [2, 0]])
    assert np.allclose(grid.angles(index), coords.angles(2 * (index + 0.5) / [4, 2] - 1))
    mx = M.multiaxis_from_scaling(
        {"rope_type": "dinov3", "patch_grid": [4, 2], "normalize_coords": "max"}, width=16, base=100.0
    )
    assert np.allclose(mx.angles(index), coords.angles(2 * (index + 0.5) / 4 - 1))


def test_dinov3_min_and_max_period():
    rope = M.multiaxis_from_scaling({"rope_type": "dinov3", "min_period": 0.5, "max_period": 8.0}, width=16, base=100.0)
    periods = 2 * np.pi / rope.inv_freq[:4]  # geometric from min_period to max_period
    assert np.allclose(periods, 0.5 * 16.0 ** (np.arange(4) / 3)) and np.isclose(periods[-1], 8.0)


def test_xdrope_is_chunked_mrope_over_its_sections():
    rope = M.multiaxis_from_scaling({"xdrope_section": [1, 1, 1, 1]}, width=8, base=1e4)
    assert rope.axes.tolist() == [0, 1, 2, 3] and rope.n_axes == 4 and rope.layout == "half"
    assert np.allclose(rope.inv_freq, inverse_frequencies(8, base=1e4))


def test_the_mapping_base_wins():
    rope = M.multiaxis_from_scaling({"rope_type": "axial", "rope_theta": 16.0}, width=8, base=1e4)
    assert rope.inv_freq.tolist() == [1.0, 0.25, 1.0, 0.25]


@pytest.mark.parametrize(
    "scaling",
    [{"rope_type": "yarn", "factor": 2.0}, {}, None, [1, 2], {"rope_type": "default"}],
)
def test_not_multiaxis(scaling):
    assert not M.is_multiaxis_scaling(scaling)


@pytest.mark.parametrize(
    "scaling",
    [{"mrope_section": [1]}, {"rope_type": "axial"}, {"axes_dim": [2]}, {"axes": [0]}, {"rope_type": "dinov3"},
     {"xdrope_section": [1, 1]}, {"rope_type": "mrope"}],
)  # fmt: skip
def test_multiaxis(scaling):
    assert M.is_multiaxis_scaling(scaling)


@pytest.mark.parametrize(
    "scaling, kwargs, message",
    [
        ({"rope_type": "yarn", "factor": 2.0}, {}, "declares no multi-axis RoPE"),
        ({"rope_type": "axial", "mrope_section": [1]}, {}, "reads only"),
        ({"rope_type": "axial", "axial_frequencies": "odd"}, {}, "axial_frequencies must be"),
        ({"rope_type": "axial", "axial_order": "th"}, {}, "axial_order must be"),
        ({"rope_type": "axial"}, {"width": 6}, "multiple of 4"),
        ({"rope_type": "axes_dim"}, {}, "needs axes_dim"),
        ({"axes_dim": [4, 3]}, {}, "positive even integers"),
        ({"axes_dim": [8, 8]}, {}, "more than the width"),
        ({"axes_dim": [4, 4]}, {"rotary_dim": 4}, "rotary_dim must be 8"),
        ({"axes": [0, 1], "ladder": "local"}, {}, "ladder must be"),
        ({"axes": [0, "1"]}, {}, "axes must be a non-empty list"),
        ({"axes": [0, 3], "n_axes": 2}, {}, r"axes must be in \[0, 1\]"),
        ({"rope_type": "axial", "coordinate_scale": [1.0]}, {}, "one real number per axis"),
        ({"rope_type": "axial", "continuous": "yes"}, {}, "continuous must be true or false"),
        ({"rope_type": "axial", "layout": "diagonal"}, {}, "layout must be"),
        ({"rope_type": "dinov3", "normalize_coords": "mean"}, {}, "normalize_coords must be"),
        ({"rope_type": "dinov3", "patch_grid": [4]}, {}, "patch_grid must be"),
        ({"rope_type": "dinov3", "min_period": 1.0}, {}, "both min_period and max_period"),
        ({"rope_type": "dinov3", "coordinate_scale": [1, 1]}, {}, "maps patch indices itself"),
        ({"xdrope_section": [2, 1]}, {}, "add up to the rotated pairs"),
        ({"xdrope_section": [2, 2], "mrope_section": [1, 3]}, {}, "disagree"),
        ({"xdrope_section": [2, 2], "mrope_interleaved": True}, {}, "chunked"),
        ({"mrope_section": [2, 3]}, {}, "add up to the rotated pairs"),
        ({"mrope_section": [2, 2], "mrope_interleaved": 1}, {}, "mrope_interleaved must be"),
        ({"rope_type": "axial", "rope_theta": 10.0, "theta": 20.0}, {}, "disagree"),
        ({"rope_type": "axial", "theta": 1.0}, {}, "theta must be a finite real number > 1"),
    ],
)
def test_bad_mappings_name_the_key(scaling, kwargs, message):
    with pytest.raises(ValueError, match=message):
        M.multiaxis_from_scaling(scaling, **{"width": 8, "base": 1e4, **kwargs})
