r"""Position remapping kernels: NumPy against the exact and mpmath twins, the conventions' edges, bad arguments."""

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from posproof.numeric import remap
from posproof.numeric.remap import (
    golden_vectors_remap,
    leaky_rerope_relative,
    leaky_rerope_relative_mp,
    rerope_relative,
    rerope_relative_mp,
    self_extend_relative,
    self_extend_relative_mp,
)

pairs = st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)).map(lambda p: (max(p), min(p)))


@given(pairs, st.integers(1, 2048), st.integers(1, 64))
def test_self_extend_matches_exact_twin(p, window, group):
    i, j = p
    assert int(self_extend_relative([i], [j], window=window, group=group)[0]) == self_extend_relative_mp(
        i, j, window=window, group=group
    )


@given(pairs, st.integers(1, 2048))
def test_rerope_matches_exact_twin(p, window):
    i, j = p
    assert int(rerope_relative([i], [j], window=window)[0]) == rerope_relative_mp(i, j, window=window) <= window


@given(pairs, st.integers(1, 2048), st.sampled_from([1, 2, 2.5, 16, 100]))
def test_leaky_matches_mp_twin(p, window, k):
    i, j = p
    got = float(leaky_rerope_relative([i], [j], window=window, k=k)[0])
    want = leaky_rerope_relative_mp(i, j, window=window, k=k)
    assert abs(got - float(want)) <= 1e-15 * max(1.0, abs(got))  # division by k rounds once: half an ulp
    assert got <= i - j + 1e-9


def test_self_extend_reference_values():
    # W = 4, G = 2: the shift W - W // G = 2; neighbour up to r = 3, grouped from r = 4
    i = np.array([3, 4, 5, 6, 9])
    j = np.array([0, 0, 0, 1, 0])
    assert self_extend_relative(i, j, window=4, group=2).tolist() == [3, 4, 4, 5, 6]
    assert self_extend_relative(np.arange(10), 0, window=100, group=8).tolist() == list(range(10))  # all inside
    assert self_extend_relative(np.arange(10), 0, window=1, group=1).tolist() == list(range(10))  # G = 1: plain


def test_leaky_k_one_is_plain_distance_and_large_k_nears_rerope():
    i = np.arange(0, 50)
    np.testing.assert_array_equal(leaky_rerope_relative(i, 0, window=8, k=1), i.astype(float))
    assert np.max(np.abs(leaky_rerope_relative(i, 0, window=8, k=1e12) - rerope_relative(i, 0, window=8))) < 1e-9


def test_broadcast_matrix():
    i, j = np.arange(6)[:, None], np.arange(1)[None, :]
    assert self_extend_relative(i, j, window=2, group=2).shape == (6, 1)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: self_extend_relative([1], [2], window=2, group=2), "key_positions"),
        (lambda: self_extend_relative([1], [-1], window=2, group=2), "key_positions"),
        (lambda: self_extend_relative([1], [0], window=0, group=2), "window"),
        (lambda: self_extend_relative([1], [0], window=2, group=0), "group"),
        (lambda: self_extend_relative([1.5], [0], window=2, group=2), "query_positions"),
        (lambda: self_extend_relative([1, 2], [0, 0, 0], window=2, group=2), "key_positions"),
        (lambda: self_extend_relative_mp(1, 2, window=2, group=2), "key_position"),
        (lambda: self_extend_relative_mp(1.5, 0, window=2, group=2), "query_position"),
        (lambda: rerope_relative([3], [0], window=True), "window"),
        (lambda: rerope_relative_mp(0, 1, window=3), "key_position"),
        (lambda: leaky_rerope_relative([3], [0], window=2, k=0.5), "k"),
        (lambda: leaky_rerope_relative([3], [0], window=2, k=float("nan")), "k"),
        (lambda: leaky_rerope_relative_mp(3, 0, window=2, k="0.5"), "k"),
    ],
)
def test_bad_arguments_name_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_golden_vectors_document():
    doc = golden_vectors_remap()
    assert doc["scheme"] == "remap" and doc["cases"]
    for case in doc["cases"]:
        assert len(case["pairs"]) == len(case["relative"])
        assert all(isinstance(x, str) for x in case["relative"])
    first = doc["cases"][0]
    assert first["parameters"] == {"scheme": "self-extend", "window": 4, "group": 2}
    assert first["relative"][first["pairs"].index([6, 1])] == "5"
    assert golden_vectors_remap() == doc  # deterministic
    leaky = [c for c in doc["cases"] if c["parameters"]["scheme"] == "leaky-rerope"][0]
    with mpmath.workdps(50):
        assert mpmath.mpf(leaky["relative"][leaky["pairs"].index([131071, 0])]) == 4 + mpmath.mpf(131071 - 4) / 4


def test_all_exports_exist():
    assert all(hasattr(remap, name) for name in remap.__all__)
