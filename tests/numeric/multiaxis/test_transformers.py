r"""Each multi-axis family's declaration (numeric.multiaxis.multiaxis_from_config) rotates as transformers' own
rotary module does, in float64 (tests/numeric/multiaxis/hf_families.py runs the module's layout code); and the
nearest wrong declaration does not."""

from __future__ import annotations

import numpy as np
import pytest
from posproof.numeric import multiaxis as M
from posproof.numeric.tolerances import MULTIAXIS_HF_ATOL

from tests.numeric.multiaxis import hf_families as H

pytestmark = [
    pytest.mark.filterwarnings("ignore::UserWarning"),
]


def _needs_transformers():
    pytest.importorskip("torch", reason="the cross-check runs transformers' rotary modules, which need torch")
    pytest.importorskip("transformers", reason="the cross-check runs transformers' own rotary modules")


def _part(name: str) -> str:
    return "vision" if name in H.VISION else "text"


@pytest.mark.parametrize("name", sorted(H.VISION) + sorted(H.TEXT))
def test_declaration_rotates_as_transformers(name):
    _needs_transformers()
    x, pos = H.inputs(name)
    want = H.transformers_rotation(name, x, pos)
    rope = M.multiaxis_from_config(H.config_dict(name), part=_part(name))
    assert np.max(np.abs(rope.apply(x, pos) - want)) <= MULTIAXIS_HF_ATOL


#: family -> the scaling mapping of the nearest wrong reading (the bug the cross-check must see)
WRONG = {
    "qwen2_vl": {"rope_type": "axial", "axial_frequencies": "split"},  # Pixtral's split where Qwen2-VL shares
    "pixtral": {"rope_type": "axial", "axial_frequencies": "shared"},
    "inkling2": {"rope_type": "axial", "layout": "interleaved"},  # row first where Inkling2 puts the column first
    "step3p7": {"rope_type": "axial"},
    "gemma4": {"rope_type": "axial", "layout": "half"},  # rotate-half over the head, not inside each block
    "sam3": {"rope_type": "axial", "layout": "half"},
    "kimi_k25": {"rope_type": "axial", "layout": "half"},  # blocks where Kimi alternates the axes pair by pair
    "minimax_m3_vl": {"rope_type": "axes_dim", "axes_dim": [8, 8, 8], "layout": "interleaved"},
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_regression_the_nearest_wrong_declaration_is_seen(name):
    _needs_transformers()
    x, pos = H.inputs(name)
    want = H.transformers_rotation(name, x, pos)
    wrong = M.multiaxis_from_scaling(WRONG[name], width=H.WIDTH, base=H.THETA)
    assert np.max(np.abs(wrong.apply(x, pos) - want)) > 1e-3


def test_ernie_text_is_not_chunked_mrope():
    _needs_transformers()
    x, pos = H.inputs("ernie4_5_vl_moe_text")
    want = H.transformers_rotation("ernie4_5_vl_moe_text", x, pos)
    chunked = M.multiaxis_from_scaling({"mrope_section": [4, 4, 4], "layout": "interleaved"}, width=24, base=H.THETA)
    assert np.max(np.abs(chunked.apply(x, pos) - want)) > 1e-3


@pytest.mark.parametrize("grid", [(2, 3), (4, 4)])
def test_dinov3_coordinates_and_patch_grid_rotate_as_transformers(grid):
    _needs_transformers()
    x = np.random.default_rng(1).standard_normal((grid[0] * grid[1], H.WIDTH))
    want = H.dinov3_rotation(grid, x)
    coords = M.multiaxis_from_config(
        {"model_type": "dinov3_vit", "hidden_size": 2 * H.WIDTH, "num_attention_heads": 2, "rope_theta": 100.0},
        part="vision",
    )
    assert coords.continuous
    assert np.max(np.abs(coords.apply(x, M.patch_coordinates(grid)) - want)) <= MULTIAXIS_HF_ATOL
    indexed = M.multiaxis_from_scaling({"rope_type": "dinov3", "patch_grid": list(grid)}, width=H.WIDTH, base=100.0)
    index = np.stack(np.meshgrid(np.arange(grid[0]), np.arange(grid[1]), indexing="ij"), axis=-1).reshape(-1, 2)
    assert np.max(np.abs(indexed.apply(x, index) - want)) <= MULTIAXIS_HF_ATOL


def test_regression_dinov3_without_the_half_patch_offset_is_seen():
    _needs_transformers()
    x = np.random.default_rng(1).standard_normal((6, H.WIDTH))
    want = H.dinov3_rotation((2, 3), x)
    rope = M.multiaxis_from_scaling({"rope_type": "dinov3"}, width=H.WIDTH, base=100.0)
    corners = M.patch_coordinates((2, 3)) - np.array([1 / 2, 1 / 3])  # 2 n / N - 1: the corner, not the centre
    assert np.max(np.abs(rope.apply(x, corners) - want)) > 1e-3


def _tencent_xdrope(x, pos, sections, base=H.THETA):
    r"""Tencent's apply_rotary_pos_emb_xdrope as its source reads, in numpy: the doubled cos/sin table
    (cat(freqs, freqs)) cut into the chunks ``sections * 2`` (the list repeated), chunk i on axis i mod A."""
    d = 2 * sum(sections)
    theta = base ** (-np.arange(0, d, 2) / d)
    axes = np.concatenate([np.full(s, i % len(sections)) for i, s in enumerate(list(sections) * 2)])  # (d,)
    alpha = pos[:, axes] * np.concatenate([theta, theta])
    rot = np.concatenate([-x[:, d // 2 :], x[:, : d // 2]], axis=-1)
    return x * np.cos(alpha) + rot * np.sin(alpha)


def test_xdrope_declaration_is_tencents_layout():
    rng = np.random.default_rng(2)
    x, pos = rng.standard_normal((6, 24)), rng.integers(0, 50, (6, 4))
    rope = M.multiaxis_from_scaling({"xdrope_section": [3, 3, 3, 3]}, width=24, base=H.THETA)
    assert np.max(np.abs(rope.apply(x, pos) - _tencent_xdrope(x, pos, [3, 3, 3, 3]))) <= MULTIAXIS_HF_ATOL


def test_finding_transformers_hunyuan_vl_doubles_each_section_instead_of_repeating_the_list():
    # transformers 5.24 cuts the doubled table into [2 s_a] where Tencent cuts it into the list repeated: the
    # channels (j, j + d/2) of a pair then turn with different axes (not a rotation off the text tokens)
    _needs_transformers()
    rng = np.random.default_rng(2)
    x, pos = rng.standard_normal((6, 24)), rng.integers(0, 50, (6, 4))
    theirs = H.xdrope_rotation([3, 3, 3, 3], x, pos)
    assert np.max(np.abs(M.rope_xdrope(x, pos, mrope_section=[3, 3, 3, 3]) - theirs)) <= MULTIAXIS_HF_ATOL
    declared = M.multiaxis_from_scaling({"xdrope_section": [3, 3, 3, 3]}, width=24, base=H.THETA)
    assert np.max(np.abs(declared.apply(x, pos) - theirs)) > 1e-3
    assert not np.allclose(np.linalg.norm(theirs, axis=-1), np.linalg.norm(x, axis=-1))
    text = np.repeat(pos[:, :1], 4, axis=1)  # text tokens: every axis at one position, the two agree
    assert np.allclose(H.xdrope_rotation([3, 3, 3, 3], x, text), declared.apply(x, text))
