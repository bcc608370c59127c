r"""Sinusoidal encoding: NumPy against the mpmath reference, properties at random positions, bad input."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from posproof.numeric import inverse_frequencies, sinusoidal, sinusoidal_mp, tolerances

from tests import strategies as S


@given(S.positions, S.even_widths, S.bases, S.sinusoidal_layouts)
def test_shape_dtype_and_bounds(pos, d_model, base, layout):
    pe = sinusoidal(pos, width=d_model, base=base, layout=layout)  # (tokens, d_model)
    assert pe.shape == (len(pos), d_model) and pe.dtype == np.float64
    assert np.all(np.abs(pe) <= 1.0)


@given(S.positions, S.even_widths, S.bases)
def test_norm_is_sqrt_half_width(pos, d_model, base):
    pe = sinusoidal(pos, width=d_model, base=base)
    np.testing.assert_allclose(np.einsum("td,td->t", pe, pe), d_model / 2, rtol=1e-12)


@given(st.lists(st.integers(-2048, 2048), min_size=2, max_size=8), S.shift, S.even_widths)
def test_dot_product_depends_only_on_offset(pos, t, d_model):
    pos = np.array(pos, dtype=np.float64)
    a, b = sinusoidal(pos, width=d_model), sinusoidal(pos + t, width=d_model)
    # PE(m+t)·PE(n+t) = PE(m)·PE(n) = Σ cos((m-n)θ_i); angles up to ~4e3 rad lose ~1e-12 to argument reduction
    np.testing.assert_allclose(b @ b.T, a @ a.T, atol=d_model * 1e-11)
    theta = inverse_frequencies(d_model)
    expected = np.cos((pos[:, None, None] - pos[None, :, None]) * theta).sum(-1)
    np.testing.assert_allclose(a @ a.T, expected, atol=d_model * 1e-11)


@settings(max_examples=25)
@given(
    st.lists(st.integers(-500, 500) | st.floats(-500, 500), min_size=1, max_size=4),
    st.sampled_from([2, 4, 10, 64]),
    S.sinusoidal_layouts,
)
def test_numpy_agrees_with_mpmath(pos, d_model, layout):
    ref = np.array([[float(x) for x in row] for row in sinusoidal_mp(pos, width=d_model, layout=layout, dps=30)])
    np.testing.assert_allclose(sinusoidal(pos, width=d_model, layout=layout), ref, rtol=0, atol=tolerances.FLOAT64_RTOL)


def test_half_layout_is_a_channel_permutation_of_interleaved():
    pos = np.arange(7.0)
    inter, half = sinusoidal(pos, width=8), sinusoidal(pos, width=8, layout="half")
    perm = np.r_[0:8:2, 1:8:2]  # sin channels first, then cos channels
    np.testing.assert_array_equal(half, inter[:, perm])


def test_dry_run_values_of_positional_encoding_101():
    pe = sinusoidal([0, 1, 2], width=4)
    assert pe[1, 0] == pytest.approx(math.sin(1)) and pe[2, 1] == pytest.approx(math.cos(2))
    assert pe[1, 2] == pytest.approx(math.sin(0.01)) and pe[2, 3] == pytest.approx(math.cos(0.02))


def test_mp_reference_takes_exact_string_positions():
    (row,) = sinusoidal_mp(["0.1"], width=2, dps=40)
    with mpmath.workdps(40):
        assert row[0] == mpmath.sin(mpmath.mpf("0.1"))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(width=3), "width must be a positive even integer"),
        (dict(width=0), "width must be a positive even integer"),
        (dict(width=-4), "width must be a positive even integer"),
        (dict(width=4.0), "width must be a positive even integer"),
        (dict(width=True), "width must be a positive even integer"),
        (dict(width=4, base=1.0), "base must be a finite real number > 1"),
        (dict(width=4, base=float("inf")), "base must be a finite real number > 1"),
        (dict(width=4, layout="rotate"), "layout must be one of"),
    ],
)
def test_bad_arguments_raise_value_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        sinusoidal([0, 1], **kwargs)


@pytest.mark.parametrize("positions", [[0, float("nan")], [float("inf")], [[0, 1], [2, 3]], ["a"]])
def test_bad_positions_raise_value_error(positions):
    with pytest.raises(ValueError, match="positions"):
        sinusoidal(positions, width=4)


def test_mp_reference_rejects_bad_input():
    with pytest.raises(ValueError, match="positions must be finite"):
        sinusoidal_mp([float("nan")], width=4)
    with pytest.raises(ValueError, match="base"):
        sinusoidal_mp([0], width=4, base=1)


# ---- bad input and integer ranges ------------------------------------------------------------------------------------


def test_regression_sinusoidal_mp_accepts_numpy_integers():
    # sinusoidal_mp(np.arange(3), 4) failed inside mpmath: the reference takes what its NumPy twin takes
    ref = np.array([[float(v) for v in row] for row in sinusoidal_mp(np.arange(3), width=4, dps=30)])
    np.testing.assert_allclose(ref, sinusoidal(np.arange(3), width=4), rtol=0, atol=1e-15)
    ref32 = np.array(
        [[float(v) for v in row] for row in sinusoidal_mp(np.arange(3, dtype=np.float32), width=4, dps=30)]
    )
    np.testing.assert_allclose(ref32, ref, rtol=0, atol=0)


@pytest.mark.parametrize("positions", [["0", "1"], [True, False], [1j], [None]])
def test_regression_string_and_boolean_positions_rejected(positions):
    with pytest.raises(ValueError, match="positions must be"):
        sinusoidal(positions, width=4)


def test_mp_reference_rejects_what_numpy_rejects():
    with pytest.raises(ValueError, match="positions"):
        sinusoidal_mp([[0, 1]], width=4)
    with pytest.raises(ValueError, match="positions"):
        sinusoidal_mp([True], width=4)
    with pytest.raises(ValueError, match="width must be a positive even integer"):
        sinusoidal_mp([0], width=3)


def _tensor2tensor_timing_signal(positions, channels, min_timescale=1.0, max_timescale=1.0e4):
    # get_timing_signal_1d's formula, written independently: geometric timescales from min to max, [sin | cos]
    num_timescales = channels // 2
    increment = np.log(max_timescale / min_timescale) / max(num_timescales - 1, 1)
    inv_timescales = min_timescale * np.exp(np.arange(num_timescales) * -increment)
    scaled = np.asarray(positions, dtype=np.float64)[:, None] * inv_timescales[None, :]
    return np.concatenate([np.sin(scaled), np.cos(scaled)], axis=1)


@pytest.mark.parametrize("d", [2, 4, 8, 64, 512])
def test_regression_tensor2tensor_variant_is_offered_by_name(d):
    # the README cited tensor2tensor for [sin | cos], but layout="half" alone differs from it (by 0.157 at d = 8)
    pos = np.arange(50)
    t2t = _tensor2tensor_timing_signal(pos, d)
    got = sinusoidal(pos, width=d, layout="half", frequencies="tensor2tensor")
    np.testing.assert_allclose(got, t2t, rtol=0, atol=1e-12)
    if d == 8:
        assert np.abs(sinusoidal(pos, width=d, layout="half") - t2t).max() > 0.15
    ref = np.array(
        [[float(v) for v in r] for r in sinusoidal_mp(pos, width=d, layout="half", frequencies="tensor2tensor")]
    )
    np.testing.assert_allclose(got, ref, rtol=0, atol=tolerances.FLOAT64_RTOL)


def test_old_width_names_warn_and_frequencies_argument():
    with pytest.warns(DeprecationWarning, match="d_model= is deprecated, use width="):
        np.testing.assert_array_equal(sinusoidal([0, 1], d_model=8), sinusoidal([0, 1], width=8))
    with pytest.warns(DeprecationWarning, match="d= is deprecated, use width="):
        np.testing.assert_array_equal(inverse_frequencies(d=8), inverse_frequencies(8))
    with pytest.raises(ValueError, match="give only one of width, d_model"), pytest.warns(DeprecationWarning):
        sinusoidal([0], width=8, d_model=8)
    with pytest.raises(ValueError, match="frequencies must be one of 'paper', 'tensor2tensor'"):
        sinusoidal([0], width=8, frequencies="t2t")
    with pytest.raises(ValueError, match="layout must be one of"):
        sinusoidal([0], width=8, layout="rotate")


def test_mp_without_gmpy2_agrees(monkeypatch):
    from posproof.numeric import _mp

    fast = sinusoidal_mp(["0.1", 7, 12345.5], width=16, dps=40)
    monkeypatch.setattr(_mp, "USE_GMPY2", False)
    slow = sinusoidal_mp(["0.1", 7, 12345.5], width=16, dps=40)
    for a, b in zip(np.ravel(fast), np.ravel(slow), strict=True):
        assert abs(a - b) <= mpmath.mpf(10) ** -38
