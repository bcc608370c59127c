r"""p-RoPE's kernel: the kept pairs are the highest frequencies, the others do not rotate; it is partial rotary
at the rescaled base (claim ``p-rope-partial-rotary``); the mpmath twin agrees; bad input is one ValueError."""

import mpmath
import numpy as np
import pytest
from posproof.numeric.p_rope import kept_pairs, p_rope, p_rope_frequencies, p_rope_frequencies_mp
from posproof.numeric.rotary import rope
from posproof.numeric.tolerances import FLOAT64_RTOL


@pytest.mark.parametrize("width, fraction, kept", [(8, 0.5, 2), (8, 0.75, 3), (128, 0.25, 16), (6, 0.5, 1),
                                                   (8, 0.0, 0), (8, 1.0, 4)])  # fmt: skip
def test_kept_pairs_are_the_highest_frequencies(width, fraction, kept):
    theta = p_rope_frequencies(width, fraction=fraction)
    assert kept_pairs(width, fraction=fraction) == kept
    assert np.all(theta[:kept] > 0) and np.all(theta[kept:] == 0)
    assert np.all(np.diff(theta[:kept]) < 0)  # the lowest frequencies are the ones removed


def test_removed_pairs_carry_no_position():
    x = np.random.default_rng(0).uniform(-1, 1, (3, 8))  # (tokens, width)
    out = p_rope(x, [0, 5, 1000], fraction=0.5)
    np.testing.assert_array_equal(out[:, 4:], x[:, 4:])
    assert not np.allclose(out[:, :4], x[:, :4])


@pytest.mark.parametrize("layout", ["interleaved"])
def test_is_partial_rotary_at_the_rescaled_base(layout):
    x = np.random.default_rng(1).uniform(-1, 1, (4, 16))
    pos = [0, 3, 77, 4096]
    want = rope(x, pos, rotary_dim=8, base=10000.0 ** (8 / 16), layout=layout)
    np.testing.assert_allclose(p_rope(x, pos, fraction=0.5, layout=layout), want, rtol=0, atol=1e-12)
    assert not np.allclose(p_rope(x, pos, fraction=0.5), rope(x, pos, rotary_dim=8, base=10000.0))


def test_the_mpmath_twin_agrees():
    exact = p_rope_frequencies_mp(16, fraction=0.75, dps=50)
    fast = p_rope_frequencies(16, fraction=0.75)
    assert all(abs(float(e) - f) <= FLOAT64_RTOL * max(abs(f), 1e-300) for e, f in zip(exact, fast, strict=True))
    assert exact[6] == mpmath.mpf(0) and exact[5] > 0


@pytest.mark.parametrize("kwargs, says", [({"fraction": 1.5}, "fraction must be"), ({"fraction": "half"}, "fraction"),
                                          ({"fraction": 0.5, "base": -1.0}, "base")])  # fmt: skip
def test_bad_input_is_one_value_error(kwargs, says):
    with pytest.raises(ValueError, match=says):
        p_rope_frequencies(8, **kwargs)
    with pytest.raises(ValueError, match="width"):
        p_rope_frequencies(7, fraction=0.5)


@pytest.mark.parametrize(("width", "fraction", "factor"), [(8, 0.5, 1.0), (16, 0.25, 8.0), (64, 0.75, 2.0)])
def test_proportional_rope_is_p_rope_divided_by_its_factor(width, fraction, factor):
    r"""Claim ``p-rope-proportional`` on the kernels: transformers' proportional rule is p-RoPE's frequencies / s."""
    from posproof.numeric.scaling.rules import proportional_inv_freq

    got = proportional_inv_freq(width, partial_rotary_factor=fraction, factor=factor)
    np.testing.assert_allclose(got, p_rope_frequencies(width, fraction=fraction) / factor, rtol=FLOAT64_RTOL, atol=0)
