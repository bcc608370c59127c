r"""The multi-axis audit of any declaration (numeric/audit/multiaxis.py): per-axis frequency ladders (FLUX's
``axes_dim``), axial 2-D with shared or split frequencies (EVA-02, Qwen2.5-VL's vision rotary; Pixtral), real
coordinates with a phase at the origin (DINOv3), an explicit per-pair axis map (Ernie 4.5-VL), cos and sin taken per
channel (HunYuan-VL's recomposition). Each function below is written the way its reference implementation computes
it (NumPy); each correct one conforms, each planted mistake gets its own finding, and the example's numbers are
checked against a computation of our own."""

from __future__ import annotations

import math

import numpy as np
import pytest
from posproof.numeric.audit.multiaxis import (
    MULTIAXIS_FINDINGS,
    audit_multiaxis,
    audit_rope_multiaxis,
    multiaxis_kind,
    multiaxis_plan,
)
from posproof.numeric.multiaxis import MultiaxisRope


def rotate(x, angles, pairs):
    r"""Rotate ``x`` ``(N, d)`` by ``angles`` ``(N, r/2)`` (cos and sin per pair), pairs ``"interleaved"`` or
    ``"half"``; channels past ``r`` pass through."""
    r = 2 * angles.shape[-1]
    xr, rest = x[:, :r], x[:, r:]
    cos, sin = np.cos(angles), np.sin(angles)
    if pairs == "interleaved":  # FLUX's apply_rope: (..., r/2, 2) pairs
        a, b = xr[:, 0::2], xr[:, 1::2]
        out = np.stack([a * cos - b * sin, a * sin + b * cos], axis=-1).reshape(xr.shape)
    else:  # rotate-half with cat(freqs, freqs)
        c2, s2 = np.concatenate([cos, cos], -1), np.concatenate([sin, sin], -1)
        out = xr * c2 + np.concatenate([-xr[:, r // 2 :], xr[:, : r // 2]], -1) * s2
    return np.concatenate([out, rest], axis=-1)


# ---- per-axis frequency ladders: FLUX's EmbedND (axes_dim [16, 56, 56], theta 10000, interleaved pairs) -------------

FLUX_DIM, FLUX_AXES = 128, (16, 56, 56)


def flux_style(axes_dim=FLUX_AXES, theta=10000.0, ladder="per-axis"):
    r"""FLUX's rope: axis ``a`` owns ``axes_dim[a]`` channels, ``omega = 1 / theta**(arange(0, dim, 2) / dim)``
    (the ladder restarts on each axis); ``ladder="whole"``: the mistake, one ladder over the whole width."""

    def fn(x, ids):
        d, parts, start = x.shape[-1], [], 0
        for a, dim in enumerate(axes_dim):
            scale = np.arange(0, dim, 2) / dim if ladder == "per-axis" else (start + np.arange(0, dim, 2)) / d
            parts.append(ids[:, a, None] * (1.0 / theta**scale))
            start += dim
        return rotate(x, np.concatenate(parts, axis=-1), "interleaved")

    return fn


def flux_declaration(axes_dim=FLUX_AXES, theta=10000.0):
    r"""Our own declaration of FLUX's rope: the per-axis ladders, their axes, interleaved pairs."""
    inv = np.concatenate([theta ** (-np.arange(0, dim, 2) / dim) for dim in axes_dim])
    axes = np.repeat(np.arange(len(axes_dim)), [dim // 2 for dim in axes_dim])
    return MultiaxisRope(inv, axes, len(axes_dim), layout="interleaved", name=f"axes_dim {list(axes_dim)}")


def test_flux_axes_dim_rope_conforms_not_wrong_frequencies():
    report = audit_multiaxis(flux_style(), FLUX_DIM, flux_declaration())
    assert report.ok, report.findings
    assert "axes_dim [16, 56, 56], width 128, interleaved layout" in report.checked
    # declared as M-RoPE (one ladder over the whole width), the correct FLUX rope is named for what it is
    sections = [dim // 2 for dim in FLUX_AXES]
    as_mrope = audit_multiaxis(flux_style(), FLUX_DIM, mrope_section=sections, layout="interleaved")
    assert as_mrope.ids == ("multiaxis-ladder-restart",), as_mrope.findings
    assert "a ladder restarting on each axis" in as_mrope.findings[0].message


def test_flux_ladder_over_the_whole_width_is_named():
    report = audit_multiaxis(flux_style(ladder="whole"), FLUX_DIM, flux_declaration())
    assert report.ids == ("multiaxis-ladder-restart",), report.findings
    f = report.findings[0]
    assert f.message.startswith(MULTIAXIS_FINDINGS["multiaxis-ladder-restart"])
    assert "one ladder base**(-2i/128) over the whole rotary width" in f.message
    # the first pair that shows it: pair 1 at e_0, declared 10000**(-2/16) (axis 0's 16 channels), got
    # 10000**(-2/128) (over the 128)
    assert f.example["positions"] == [1, 0, 0] and f.example["pair"] == 1
    assert math.isclose(float(f.example["expected angle"]), 10000.0 ** (-2 / 16), rel_tol=1e-5)
    assert math.isclose(float(f.example["got angle"]), 10000.0 ** (-2 / 128), rel_tol=1e-5)


def test_per_axis_ladders_at_another_base_name_the_base():
    # HunyuanVideo's ladders run at base 256: declared at 10000, the base is named
    report = audit_multiaxis(flux_style((16, 24, 24), theta=256.0), 64, flux_declaration((16, 24, 24)))
    assert report.ids == ("multiaxis-wrong-frequencies",)
    assert "of base 256, not 10000" in report.findings[0].message
    assert audit_multiaxis(flux_style((16, 24, 24), theta=256.0), 64, flux_declaration((16, 24, 24), 256.0)).ok


# ---- axial 2-D: shared frequencies (EVA-02, Qwen2.5-VL's vision rotary) vs split (Pixtral) ---------------------------

AXIAL = 16


def vision_style(width=AXIAL, base=10000.0, frequencies="shared", pairs="half"):
    r"""Axial 2-D RoPE of patch positions ``(row, column)``. ``"shared"``: Qwen2.5-VL's vision rotary (and EVA-02):
    ``inv = 1 / base**(arange(0, d/2, 2) / (d/2))`` for both axes, the row's pairs then the column's; ``"split"``:
    Pixtral's, ``theta = base**(-2i/d)``, the even ones to the row, the odd ones to the column."""

    def fn(x, pos):
        d = x.shape[-1]
        if frequencies == "shared":
            row = col = 1.0 / base ** (np.arange(0, d // 2, 2) / (d // 2))
        else:
            theta = 1.0 / base ** (np.arange(0, d, 2) / d)
            row, col = theta[0::2], theta[1::2]
        angles = np.concatenate([pos[:, :1] * row, pos[:, 1:2] * col], axis=-1)
        return rotate(x, angles, pairs)

    return fn


def test_shared_frequency_axial_declared_split_is_named():
    report = audit_multiaxis(vision_style(), AXIAL, axial=True)  # split (Pixtral's) declared
    assert report.ids == ("axial-shared-vs-split",), report.findings
    f = report.findings[0]
    # pair 4, the first column pair: split declares theta_1 = 10000**(-2/16), the shared rope turns by theta_0 = 1
    assert f.example["positions"] == [0, 1] and f.example["pair"] == AXIAL // 4
    assert math.isclose(float(f.example["expected angle"]), 10000.0 ** (-2 / 16), rel_tol=1e-5)
    assert float(f.example["got angle"]) == 1.0
    # and the reverse: Pixtral's split rope declared shared
    reverse = audit_multiaxis(vision_style(frequencies="split"), AXIAL, axial=True, axial_frequencies="shared")
    assert reverse.ids == ("axial-shared-vs-split",)


@pytest.mark.parametrize("frequencies", ["shared", "split"])
@pytest.mark.parametrize("pairs", ["half", "interleaved"])
def test_axial_conforms_with_its_own_frequencies(frequencies, pairs):
    fn = vision_style(frequencies=frequencies, pairs=pairs)
    assert audit_multiaxis(fn, AXIAL, axial=True, axial_frequencies=frequencies, layout=pairs).ok
    plan = multiaxis_plan("axial", "auto", 10000.0, {"rope_type": "axial", "axial_frequencies": frequencies}, AXIAL,
                          None)  # fmt: skip
    report = audit_rope_multiaxis(plan, fn, "mine")
    assert report.ok and f"{pairs} layout" in report.checked, report.findings


def test_regression_bare_rope_type_axial_accepts_shared_or_split_and_says_which():
    # transformers' "axial" is shared in 31 of its 33 axial rotaries and split in Pixtral's: a bare key was read as
    # split only, so copying a Qwen2.5-VL vision config's "axial" gave a false axial-shared-vs-split
    plan = multiaxis_plan("axial", "auto", 10000.0, {"rope_type": "axial"}, AXIAL, None)
    split = audit_rope_multiaxis(plan, vision_style(frequencies="split"), None)
    shared = audit_rope_multiaxis(plan, vision_style(), None)
    assert split.ok and "split frequencies" in split.checked, split.checked
    assert shared.ok and "shared frequencies" in shared.checked, shared.checked
    # an explicit axial_frequencies declares one of them only
    only = multiaxis_plan("axial", "auto", 10000.0, {"rope_type": "axial", "axial_frequencies": "split"}, AXIAL, None)
    assert audit_rope_multiaxis(only, vision_style(), None).ids == ("axial-shared-vs-split",)


# ---- DINOv3: patch centres in [-1, 1], angle 2 pi c / period, a phase at grid index 0 --------------------------------

DINO, DINO_BASE, GRID = 32, 100.0, (14, 10)


def dino_periods(width=DINO, base=DINO_BASE):
    r"""DINOv3's ``1 / base**arange(0, 1, 4/d)``: ``d/4`` frequencies (cycles per unit coordinate), both axes."""
    return 1.0 / base ** np.arange(0, 1, 4 / width)


def dinov3_style(width=DINO, base=DINO_BASE, two_pi=True):
    r"""DINOv3's rope of real coordinates ``(N, 2)``: ``angles = 2 pi c inv`` per axis, flattened (the row's pairs,
    then the column's), ``tile(2)``, rotate-half."""

    def fn(x, coords):
        inv = dino_periods(width, base)
        angles = (2 * math.pi if two_pi else 1.0) * coords[:, :, None] * inv[None, None, :]
        return rotate(x, angles.reshape(coords.shape[0], -1), "half")

    return fn


def dinov3_grid_style(grid=GRID, centre=0.5):
    r"""DINOv3 of integer patch indices ``(row, column)``: the centres ``((i + 0.5) / H) * 2 - 1`` then the rope
    (``centre=0``: the mistake, the patch corners)."""
    inner = dinov3_style()

    def fn(x, idx):
        coords = (idx + centre) / np.asarray(grid, dtype=np.float64) * 2 - 1
        return inner(x, coords)

    return fn


def dino_continuous():
    inv = 2 * math.pi * dino_periods()
    q = inv.size
    return MultiaxisRope(np.concatenate([inv, inv]), np.repeat([0, 1], q), 2, continuous=True, layout="half")


def dino_grid(with_phase=True):
    r"""Our own declaration of DINOv3 on a grid of integer indices: ``2 pi inv ((2 i + 1) / H - 1)`` per axis, a
    frequency ``4 pi inv / H`` and a phase ``2 pi inv (1/H - 1)``."""
    inv = 2 * math.pi * dino_periods()
    (H, W), q = GRID, inv.size
    freq = np.concatenate([inv * 2 / H, inv * 2 / W])
    phase = np.concatenate([inv * (1 / H - 1), inv * (1 / W - 1)]) if with_phase else None
    return MultiaxisRope(freq, np.repeat([0, 1], q), 2, phase=phase, layout="half")


def test_dinov3_origin_phase_subtracted():
    report = audit_multiaxis(dinov3_grid_style(), DINO, dino_grid())
    assert report.ok, report.findings


def test_dinov3_phase_left_out_of_the_declaration_is_named():
    report = audit_multiaxis(dinov3_grid_style(), DINO, dino_grid(with_phase=False))
    assert report.ids == ("multiaxis-phase",), report.findings
    f = report.findings[0]
    assert f.example["positions"] == [0, 0] and f.example["pair"] == 0 and float(f.example["expected angle"]) == 0
    want = 2 * math.pi * (1 / GRID[0] - 1)  # pair 0: inv 1, the centre of row 0
    assert math.isclose(float(f.example["got angle"]), math.remainder(want, 2 * math.pi), rel_tol=1e-5)


def test_dinov3_patch_corners_instead_of_centres_is_a_phase():
    report = audit_multiaxis(dinov3_grid_style(centre=0.0), DINO, dino_grid())
    assert report.ids == ("multiaxis-phase",), report.findings


def test_dinov3_continuous_coordinates_probed_at_fractions():
    seen = []

    def strict(x, coords):  # DINOv3 takes real coordinates in [-1, 1] and nothing else
        assert coords.dtype.kind == "f" and np.abs(coords).max() <= 1.0
        seen.append(coords)
        return dinov3_style()(x, coords)

    report = audit_multiaxis(strict, DINO, dino_continuous())
    assert report.ok, report.findings
    assert any(not np.array_equal(c, np.round(c)) for c in seen)  # fractions, not integers
    # the 2 pi left out: every frequency is 1/(2 pi) of the declared one
    wrong = audit_multiaxis(dinov3_style(two_pi=False), DINO, dino_continuous())
    assert wrong.ids == ("multiaxis-wrong-frequencies",) and "times 1/(2 pi)" in wrong.findings[0].message


def test_continuous_positions_off_the_probes_are_checked():
    # every row rotated by the first row's coordinates: the probes (one position vector per call) cannot tell
    def first_row(x, coords):
        return dinov3_style()(x, np.repeat(coords[:1], coords.shape[0], axis=0))

    report = audit_multiaxis(first_row, DINO, dino_continuous())
    assert report.ids == ("multiaxis-positions",), report.findings
    assert report.findings[0].example["positions"] == [0.25, 0.25]  # the smallest that shows it (0 is right)


# ---- an explicit per-pair axis map: Ernie 4.5-VL (h and w alternating over the first pairs, then t) -----------------

ERNIE, ERNIE_SECTIONS = 16, (3, 3, 2)  # (h, w, t) pairs


def ernie_axes(sections=ERNIE_SECTIONS):
    r"""Ernie 4.5-VL's axis of each pair (axes t = 0, h = 1, w = 2): pairs ``2k`` take h and ``2k + 1`` take w for
    the first ``s_h + s_w`` pairs, then t."""
    hw = sections[0] + sections[1]
    return np.concatenate([np.where(np.arange(hw) % 2 == 0, 1, 2), np.zeros(sections[2], dtype=np.int64)])


def ernie_style(axes=None, base=10000.0):
    r"""Ernie 4.5-VL's text rotary: ``theta = base**(-2i/d)`` (its pre-rotated table undone), pair ``i`` turning
    with ``axes[i]``, pairs ``(2i, 2i + 1)``."""

    def fn(x, pos):
        d = x.shape[-1]
        theta = 1.0 / base ** (np.arange(0, d, 2) / d)
        return rotate(x, pos[:, ernie_axes() if axes is None else axes] * theta, "interleaved")

    return fn


def test_explicit_axis_map_conforms_and_each_pair_is_compared():
    axes = ernie_axes()
    assert audit_multiaxis(ernie_style(), ERNIE, axes=axes, n_axes=3, layout="interleaved").ok
    # through audit_rope's dispatch: an axis map with no scaling, frequencies base**(-2i/r)
    assert multiaxis_kind(None, axes=axes) == "axes"
    plan = multiaxis_plan("axes", "auto", 10000.0, None, ERNIE, None, axes=axes)
    assert audit_rope_multiaxis(plan, ernie_style(), "ernie").ok
    # h and w exchanged everywhere: the axes' order
    swapped = np.where(axes == 1, 2, np.where(axes == 2, 1, 0))
    report = audit_multiaxis(ernie_style(swapped), ERNIE, axes=axes, n_axes=3, layout="interleaved")
    assert report.ids == ("mrope-axes-order",) and "h -> w, w -> h" in report.findings[0].message
    # one pair on t: the pair is named
    moved = axes.copy()
    moved[3] = 0
    report = audit_multiaxis(ernie_style(moved), ERNIE, axes=axes, n_axes=3, layout="interleaved")
    assert report.ids == ("multiaxis-wrong-axes",)
    assert "pair 3 turns with axis t, declared axis w" in report.findings[0].message
    assert report.findings[0].example["positions"] == [0, 0, 1]


def test_explicit_axis_map_plan_arguments_are_checked():
    with pytest.raises(ValueError, match="axes: scaling declares a multi-axis RoPE already"):
        multiaxis_plan("axes", "auto", 1e4, {"mrope_section": [3, 3, 2]}, ERNIE, None, axes=ernie_axes())
    with pytest.raises(ValueError, match="axes must give one axis per rotated pair"):
        multiaxis_plan("axes", "auto", 1e4, None, ERNIE, None, axes=[0] * 12)
    with pytest.raises(ValueError, match="inv_freq must have one entry per rotated pair"):
        multiaxis_plan("axes", "auto", 1e4, None, ERNIE, None, axes=ernie_axes(), inv_freq=[1.0, 0.5])
    with pytest.raises(ValueError, match="layout: the declaration fixes the interleaved layout"):
        audit_multiaxis(flux_style(), FLUX_DIM, flux_declaration(), layout="half")


# ---- cos and sin per channel (HunYuan-VL's recomposition: cat(freqs, freqs) split over the channels) ---------------

HUNYUAN, HUNYUAN_SECTIONS = 16, [2, 2, 2, 2]


def hunyuan_style(sections=HUNYUAN_SECTIONS, base=10000.0):
    r"""HunYuan-VL's text rotary: angles per axis ``(A, N, d/2)``, ``cat(freqs, freqs)`` to ``(A, N, d)``, split
    into chunks of ``2 s_a`` channels, chunk ``i`` from axis ``i % A``, rotate-half: channel ``c`` and its partner
    ``c + d/2`` may take different axes."""

    def fn(x, pos):
        d = x.shape[-1]
        theta = 1.0 / base ** (np.arange(0, d, 2) / d)
        freqs = pos.T[:, :, None] * theta  # (A, N, d/2)
        full = np.concatenate([freqs, freqs], axis=-1)  # (A, N, d)
        bounds = np.cumsum([0, *[2 * s for s in sections]])
        f = np.concatenate([full[i % len(sections)][:, bounds[i] : bounds[i + 1]] for i in range(len(sections))], -1)
        rot = np.concatenate([-x[:, d // 2 :], x[:, : d // 2]], axis=-1)
        return x * np.cos(f) + rot * np.sin(f)

    return fn


def test_channel_split_cos_sin_across_a_section_boundary_is_named():
    report = audit_multiaxis(hunyuan_style(), HUNYUAN, mrope_section=HUNYUAN_SECTIONS)
    assert report.ids == ("multiaxis-channel-split",), report.findings
    f = report.findings[0]
    # pair 0 = channels (0, 8): channel 0 lies in chunk 0 (axis 0), channel 8 in chunk 2 (axis 2)
    assert "pair 0: channel 0 turns with axis 0, channel 8 with axis 2" in f.message
    assert f.example["positions"] == [0, 0, 1, 0] and f.example["pair"] == 0
    # text positions (every axis equal) hide it: the same function passes there
    from posproof.numeric import multiaxis as M

    x = np.random.default_rng(1).standard_normal((3, HUNYUAN))
    m = np.repeat(np.array([[0], [5], [40]]), 4, axis=1)
    want = M.rope_multiaxis(x, m, axes=M.mrope_axes(HUNYUAN_SECTIONS))
    assert np.allclose(hunyuan_style()(x, m), want, atol=1e-12)


# ---- the attention factor: the length of each pair at the origin -------------------------------------------------


def test_attention_factor_is_read_at_the_origin():
    from posproof.numeric import multiaxis as M

    axes = M.mrope_axes([2, 3, 3])
    scaled = lambda x, p: 1.25 * M.rope_multiaxis(x, p, axes=axes)  # noqa: E731
    report = audit_multiaxis(scaled, 16, mrope_section=[2, 3, 3])
    assert report.ids == ("multiaxis-attention-factor",), report.findings
    ex = report.findings[0].example
    assert ex["positions"] == [0, 0, 0] and ex["expected length"] == "1" and float(ex["got length"]) == 1.25
    assert "cos and sin are scaled by 1.25, not 1" in report.findings[0].message
    assert audit_multiaxis(scaled, 16, mrope_section=[2, 3, 3], attention_factor=1.25).ok


# ---- the same schemes declared with the scaling keys of numeric.multiaxis (what audit_rope dispatches) -----------


def _plan(scaling, width, base=10000.0, layout="auto"):
    return multiaxis_plan(multiaxis_kind(scaling), layout, base, scaling, width, None)


def test_scaling_keys_declare_what_the_functions_compute():
    flux = _plan({"rope_type": "axes_dim", "axes_dim": list(FLUX_AXES)}, FLUX_DIM)
    assert flux.rope.layout == "interleaved" and multiaxis_kind({"axes_dim": [16, 56, 56]}) == "axes_dim"
    assert audit_rope_multiaxis(flux, flux_style(), "flux").ok
    assert audit_rope_multiaxis(flux, flux_style(ladder="whole"), "flux").ids == ("multiaxis-ladder-restart",)
    grid = _plan({"rope_type": "dinov3", "patch_grid": list(GRID)}, DINO, base=DINO_BASE)
    assert audit_rope_multiaxis(grid, dinov3_grid_style(), "dinov3").ok
    assert audit_rope_multiaxis(grid, dinov3_grid_style(centre=0.0), "dinov3").ids == ("multiaxis-phase",)
    coords = _plan({"rope_type": "dinov3"}, DINO, base=DINO_BASE)
    assert coords.rope.continuous and audit_rope_multiaxis(coords, dinov3_style(), "dinov3").ok
    ernie = _plan({"axes": ernie_axes().tolist(), "layout": "interleaved"}, ERNIE)
    assert audit_rope_multiaxis(ernie, ernie_style(), "ernie").ok
    shared = _plan({"rope_type": "axial", "axial_frequencies": "shared"}, AXIAL)
    assert audit_rope_multiaxis(shared, vision_style(), "qwen2.5-vl vision").ok


def blocks_style(width=AXIAL, base=10000.0):
    r"""Gemma 4's vision tower: the head split into one block of channels per axis (row, then column), each block
    rotated rotate-half alone with the shared ladder ``base**(-2j/(d/2))``."""

    def fn(x, pos):
        d = x.shape[-1]
        inv = 1.0 / base ** (np.arange(0, d // 2, 2) / (d // 2))
        blocks = [rotate(x[:, a * d // 2 : (a + 1) * d // 2], pos[:, a : a + 1] * inv, "half") for a in range(2)]
        return np.concatenate(blocks, axis=-1)

    return fn


def test_blocks_layout_conforms_and_is_named_where_half_is_declared():
    scaling = {"rope_type": "axial", "axial_frequencies": "shared", "layout": "blocks"}
    assert audit_rope_multiaxis(_plan(scaling, AXIAL), blocks_style(), "gemma4 vision").ok
    # no layout declared: audit_rope's "auto" finds the blocks
    auto = audit_rope_multiaxis(
        _plan({"rope_type": "axial", "axial_frequencies": "shared"}, AXIAL), blocks_style(), None
    )
    assert auto.ok and "blocks layout" in auto.checked
    half = audit_multiaxis(blocks_style(), AXIAL, axial=True, axial_frequencies="shared", layout="half")
    assert half.ids == ("multiaxis-layout",), half.findings
    assert "rotate-half inside each axis's block of channels, the blocks layout" in half.findings[0].message
    # channel 0 turns with channel 4 (its block's rotate-half partner), not with channel 8
    ex = half.findings[0].example
    assert ex["input"] == "a unit vector on channel 0" and "on channel 4" in ex["got output"]
    assert "on channel 8" in ex["expected output"]


def _mrope(**kw):
    from posproof.numeric import multiaxis as M

    return lambda x, p: M.rope_multiaxis(x, p, axes=M.mrope_axes([2, 3, 3]), **kw)


def test_cos_and_sin_exchanged_is_a_quarter_turn_at_the_origin():
    axes = np.repeat([0, 1, 2], [2, 3, 3])

    def swapped(x, p):  # x sin + rot(x) cos: a quarter turn at the origin, then turning the other way
        theta = 10000.0 ** (-np.arange(0, 16, 2) / 16)
        f = np.concatenate([p[:, axes] * theta] * 2, axis=-1)
        return x * np.sin(f) + np.concatenate([-x[:, 8:], x[:, :8]], axis=-1) * np.cos(f)

    report = audit_multiaxis(swapped, 16, mrope_section=[2, 3, 3])
    assert report.ids == ("multiaxis-phase", "multiaxis-wrong-frequencies"), report.findings
    assert "cos and sin are exchanged" in report.findings[0].message
    assert report.findings[0].example["positions"] == [0, 0, 0] and report.findings[0].example["got angle"] == "1.5708"
    assert "turns the other way" in report.findings[1].message


def test_rotation_the_other_way_is_named():
    theta = 10000.0 ** (-np.arange(0, 16, 2) / 16)
    report = audit_multiaxis(_mrope(inv_freq=-theta), 16, mrope_section=[2, 3, 3])
    assert report.ids == ("multiaxis-wrong-frequencies",) and "turns the other way" in report.findings[0].message


def test_regression_integer_positions_frequencies_past_pi_are_read_modulo_two_pi():
    # DINOv3 on a 2 x 3 patch grid: the row's first pair turns by 2 pi per patch (nothing at integer steps), others
    # by more than pi: at integer indices theta and theta - 2 pi turn alike, so the declaration conforms
    grid = (2, 3)
    inv = 2 * math.pi * dino_periods()
    freq = np.concatenate([inv * 2 / grid[0], inv * 2 / grid[1]])
    phase = np.concatenate([inv * (1 / grid[0] - 1), inv * (1 / grid[1] - 1)])
    assert freq.max() > math.pi
    rope = MultiaxisRope(freq, np.repeat([0, 1], inv.size), 2, phase=phase, layout="half")
    report = audit_multiaxis(dinov3_grid_style(grid), DINO, rope)
    assert report.ok, report.findings


def test_audit_rope_dispatches_axes_inv_freq_and_the_new_keys():
    from posproof.numeric.audit import audit_rope

    assert audit_rope(ernie_style(), width=ERNIE, axes=ernie_axes(), layout="interleaved").ok
    flux = audit_rope(flux_style(), width=FLUX_DIM, scaling={"rope_type": "axes_dim", "axes_dim": list(FLUX_AXES)})
    assert flux.ok and "interleaved layout" in flux.checked, flux.findings
    dino = audit_rope(dinov3_grid_style(), width=DINO, base=DINO_BASE,
                      scaling={"rope_type": "dinov3", "patch_grid": list(GRID)})  # fmt: skip
    assert dino.ok, dino.findings
    # a free frequency table with an axis map: the audit takes the table
    table = np.linspace(1.0, 0.01, ERNIE // 2)
    custom = lambda x, p: rotate(x, p[:, ernie_axes()] * table, "interleaved")  # noqa: E731
    assert audit_rope(custom, width=ERNIE, axes=ernie_axes(), inv_freq=table, layout="interleaved").ok
    assert not audit_rope(custom, width=ERNIE, axes=ernie_axes(), layout="interleaved").ok


def dinov3_table_style(grid=GRID):
    r"""DINOv3 as its ``forward(H, W)`` runs: sin and cos of every patch of the grid, looked up by row ``h W + w``
    (an index past the grid raises, as the table has no such row)."""
    H, W = grid
    h, w = np.meshgrid(np.arange(H), np.arange(W), indexing="ij")
    idx = np.stack([h.ravel(), w.ravel()], axis=-1)  # (H W, 2): the patch of each row of the table
    inner = dinov3_grid_style(grid)

    def fn(x, pos):
        rows = pos[:, 0] * W + pos[:, 1]
        if (pos < 0).any() or (pos[:, 0] >= H).any() or (pos[:, 1] >= W).any():
            raise IndexError(f"index {int(rows.max())} is out of bounds for the {H * W} patches")
        return inner(x, idx[rows])

    return fn


def test_regression_patch_grid_positions_stay_inside_the_grid():
    plan = _plan({"rope_type": "dinov3", "patch_grid": list(GRID)}, DINO, base=DINO_BASE)
    assert plan.max_positions == (GRID[0] - 1, GRID[1] - 1)
    assert audit_rope_multiaxis(plan, dinov3_table_style(), "dinov3").ok
    assert audit_multiaxis(dinov3_table_style(), DINO, dino_grid(), max_positions=(13, 9)).ok
    with pytest.raises(ValueError, match=r"max_positions must be an integer >= 1, or one per axis \(2\)"):
        audit_multiaxis(dinov3_table_style(), DINO, dino_grid(), max_positions=(13, 9, 1))
    with pytest.raises(ValueError, match="max_positions: the declaration's positions are real coordinates"):
        audit_multiaxis(dinov3_style(), DINO, dino_continuous(), max_positions=3)


def test_regression_pixtral_table_of_64_rows_declared_with_max_position():
    # mistral-inference's precompute_freqs_cis_2d builds a 64 x 64 table: the probes went to position 1000 on an axis
    # (IndexError), and the multi-axis audit read no max_position, so such code could not be declared
    from posproof.numeric.audit import audit_rope
    from posproof.numeric.multiaxis import axial_axes, axial_inv_freq, rope_multiaxis

    width, rows = 16, 64
    axes, theta = axial_axes(width), axial_inv_freq(width, frequencies="split")
    grid = np.arange(rows)[:, None] * theta[None, :]  # (rows, pairs): the table the code indexes

    def table_rope(x, pos):
        p = np.asarray(pos).astype(np.int64)
        angles = grid[p[:, axes], np.arange(axes.size)]  # IndexError past row 63, as the table does
        return _rotate_half(x, angles)

    scaling = {"rope_type": "axial", "axial_frequencies": "split"}
    with pytest.raises(Exception, match="IndexError"):
        audit_rope(table_rope, width=width, scaling=scaling)
    report = audit_rope(table_rope, width=width, scaling=scaling, max_position=rows - 1)
    assert report.ok, report.findings
    # the table's rotation is the declared one: the same numbers from the kernel, at the corner of the grid
    x = np.random.default_rng(0).standard_normal((2, width))
    pos = np.array([[63, 0], [5, 63]])
    np.testing.assert_allclose(table_rope(x, pos), rope_multiaxis(x, pos, axes=axes, inv_freq=theta), atol=1e-12)


def _rotate_half(x: np.ndarray, angles: np.ndarray) -> np.ndarray:
    h = angles.shape[1]
    c, s = np.cos(angles), np.sin(angles)
    x1, x2 = x[:, :h], x[:, h : 2 * h]
    return np.concatenate([x1 * c - x2 * s, x1 * s + x2 * c], axis=1)
