r"""symbolic.rope.axes: its kernels compute what the vision and diffusion models ship, and what its claims conclude
holds of numeric.multiaxis's float64 kernel, checked without the claims' own code. (Every claim's verification and
its rejected wrong variant: tests/symbolic/test_catalogue.py.)"""

import mpmath
import numpy as np
import pytest
from posproof.numeric import multiaxis as M
from posproof.numeric.rotary import rope
from posproof.symbolic import registry
from posproof.symbolic.rope import axes


def test_every_claim_is_registered_under_multiaxis():
    ids = [c.id for c in axes.claims()]
    assert set(ids) <= {c.id for c in registry.topic("multiaxis")}
    assert all(c.topic == "multiaxis" and c.id.startswith("multiaxis-") for c in axes.claims())


@pytest.mark.parametrize(
    "axes_dim, base",
    [([16, 56, 56], 10000), ([16, 56, 56], 256), ([16, 24, 24], 10000), ([44, 42, 42], 10000)],
    ids=["flux", "hunyuanvideo", "cogvideox-64", "wan-128"],
)
def test_ladder_kernel_restarts_on_every_axis(axes_dim, base):
    # diffusers' get_1d_rotary_pos_embed per axis: 1 / base**(arange(0, d_a, 2) / d_a), the axes concatenated
    want = np.concatenate([1.0 / base ** (np.arange(0, w, 2, dtype=np.float64) / w) for w in axes_dim])
    with mpmath.workdps(30):
        got = [float(axes.LadderFrequency.numeric(i, *axes_dim, base)) for i in range(sum(axes_dim) // 2)]
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=0)
    starts = np.cumsum([0] + [w // 2 for w in axes_dim[:-1]])
    assert [got[s] for s in starts] == [1.0, 1.0, 1.0]  # not one head ladder cut into bands


def test_ladder_kernel_is_numeric_multiaxis_float64_ladders_at_flux():
    with mpmath.workdps(50):
        got = [float(axes.LadderFrequency.numeric(i, 16, 56, 56, 10000)) for i in range(64)]
    want = M.per_axis_inv_freq(M.axes_dim_axes([16, 56, 56]), base=10000.0)
    np.testing.assert_allclose(got, want, rtol=1e-15, atol=0)


def _split_order(width: int) -> np.ndarray:
    r"""Split axial's pair ``i`` is 1-D RoPE's pair ``order[i]``: row pair ``j`` -> ``2j``, column pair ``j`` ->
    ``2j + 1``."""
    j = np.arange(width // 4)
    return np.concatenate([2 * j, 2 * j + 1])


@pytest.mark.parametrize("width", [4, 16, 64])
def test_split_axial_on_text_tokens_is_1d_rope_with_its_pairs_reordered(width):
    rng = np.random.default_rng(width)
    x = rng.standard_normal((3, width))  # (tokens, width), interleaved pairs (2i, 2i + 1)
    m = np.array([0, 37, 4095])
    split = M.axial_inv_freq(width, frequencies="split")
    got = M.rope_multiaxis(x, np.stack([m, m], -1), axes=M.axial_axes(width), inv_freq=split, layout="interleaved")
    order = _split_order(width)
    y = np.empty_like(x)  # 1-D RoPE's pair order[i] holds split pair i
    y[:, 2 * order], y[:, 2 * order + 1] = x[:, 0::2], x[:, 1::2]
    turned = rope(y, m, base=10000.0, layout="interleaved")
    np.testing.assert_allclose(got[:, 0::2], turned[:, 2 * order], rtol=0, atol=1e-12)
    np.testing.assert_allclose(got[:, 1::2], turned[:, 2 * order + 1], rtol=0, atol=1e-12)


@pytest.mark.parametrize("width", [4, 16, 64])
def test_shared_axial_on_text_tokens_turns_no_pair_at_an_odd_frequency(width):
    ladder = 10000.0 ** (-np.arange(0, width, 2, dtype=np.float64) / width)  # (d/2,)
    shared = M.axial_inv_freq(width, frequencies="shared")
    angles = M.multiaxis_angles([[1, 1]], inv_freq=shared, axes=M.axial_axes(width))[0]  # (d/2,) at m = 1
    np.testing.assert_allclose(np.sort(angles)[::2], np.sort(ladder[0::2]), rtol=1e-15)  # every even one twice
    assert not np.isclose(angles[:, None], ladder[1::2][None, :], rtol=1e-9).any()  # no odd one
    split = M.axial_inv_freq(width, frequencies="split")
    np.testing.assert_allclose(np.sort(split), np.sort(ladder), rtol=1e-15)


def test_axial_kernels_give_the_column_the_claimed_frequencies():
    width, base = 64, 10000
    with mpmath.workdps(50):
        for j in range(width // 4):
            col = width // 4 + j
            split = axes.SplitAxialFrequency.numeric(col, width, base)
            shared = axes.SharedAxialFrequency.numeric(col, width, base)
            assert abs(split - mpmath.mpf(base) ** (-mpmath.mpf(2) / width) * shared) <= mpmath.mpf(10) ** -48
            assert split < shared
