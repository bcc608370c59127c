r"""The NoPE first-layer kernel: against its mpmath twin, the BOS coordinate 1/(n + 1) and the positions read back,
the non-causal layer, a torch port of the same layer (when torch is installed), the golden document, and bad
arguments."""

import mpmath
import numpy as np
import pytest
from posproof.numeric.nope import (
    bos_values,
    golden_vectors_nope,
    nope_first_layer,
    nope_first_layer_mp,
    recover_positions,
)
from posproof.numeric.tolerances import FLOAT64_RTOL


@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("score", [0.0, 1.5, -3.0])
def test_agrees_with_mpmath(causal, score):
    values = np.random.default_rng(7).normal(size=(9, 4))
    got = nope_first_layer(values, score=score, causal=causal)
    want = np.array([[float(x) for x in row] for row in nope_first_layer_mp(values, score=score, causal=causal)])
    np.testing.assert_allclose(got, want, rtol=FLOAT64_RTOL, atol=FLOAT64_RTOL)


def test_causal_output_is_the_running_mean():
    values = np.random.default_rng(1).normal(size=(6, 3))
    got = nope_first_layer(values)
    want = np.cumsum(values, axis=0) / np.arange(1, 7)[:, None]
    np.testing.assert_allclose(got, want, rtol=FLOAT64_RTOL, atol=FLOAT64_RTOL)


def test_bos_coordinate_and_positions_read_back():
    for T in (1, 2, 3, 100, 1000):
        out = nope_first_layer(bos_values(T))
        assert np.array_equal(out[:, 0], 1.0 / np.arange(1, T + 1))  # the float64 1/(n + 1), exactly
        assert np.array_equal(recover_positions(out), np.arange(T))
        assert np.all(np.diff(out[:, 0]) < 0)  # strictly decreasing: injective
    with mpmath.workdps(40):
        y = nope_first_layer_mp(bos_values(7), dps=40)
        assert all(mpmath.almosteq(row[0], mpmath.mpf(1) / (q + 1), 1e-35) for q, row in enumerate(y))


def test_non_causal_layer_loses_the_position():
    out = nope_first_layer(bos_values(5), causal=False)
    assert np.all(out[:, 0] == 0.2)
    assert recover_positions(out).tolist() == [4] * 5


def test_content_coordinates_do_not_move_the_position():
    values = bos_values(8, width=5)
    values[1:, 1:] *= 100.0
    assert np.array_equal(nope_first_layer(values)[:, 0], nope_first_layer(bos_values(8))[:, 0])


def test_matches_a_torch_port_of_the_layer():
    torch = pytest.importorskip("torch", reason="torch is not installed: the torch port cannot run")
    values = bos_values(12, width=3)
    T = values.shape[0]
    v = torch.tensor(values, dtype=torch.float64)
    q = torch.zeros(T, 3, dtype=torch.float64)  # W_Q = 0
    k = v.clone()
    scores = (q @ k.T) / 3**0.5
    scores = scores.masked_fill(~torch.ones(T, T, dtype=torch.bool).tril(), float("-inf"))
    ref = torch.softmax(scores, dim=-1) @ v
    np.testing.assert_allclose(nope_first_layer(values), ref.numpy(), rtol=FLOAT64_RTOL, atol=FLOAT64_RTOL)
    sdpa = torch.nn.functional.scaled_dot_product_attention(q[None], k[None], v[None], is_causal=True)[0]
    np.testing.assert_allclose(nope_first_layer(values), sdpa.numpy(), rtol=FLOAT64_RTOL, atol=FLOAT64_RTOL)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: nope_first_layer([1.0, 2.0]), "values"),
        (lambda: nope_first_layer(np.zeros((0, 2))), "values"),
        (lambda: nope_first_layer([[np.nan]]), "values"),
        (lambda: nope_first_layer([[1.0]], score=np.inf), "score"),
        (lambda: nope_first_layer([[1.0]], score=True), "score"),
        (lambda: nope_first_layer([[1.0]], causal=1), "causal"),
        (lambda: nope_first_layer_mp([[1.0]], score="x"), "score"),
        (lambda: nope_first_layer_mp([[1.0]], dps=3), "dps"),
        (lambda: bos_values(0), "tokens"),
        (lambda: bos_values(3, width=0), "width"),
        (lambda: recover_positions([[0.5]], coordinate=1), "coordinate"),
        (lambda: recover_positions([[0.0]]), "outputs"),
        (lambda: recover_positions([[1.5]]), "outputs"),
    ],
)
def test_bad_arguments_name_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_golden_document_shape():
    doc = golden_vectors_nope()
    assert doc["scheme"] == "nope" and len(doc["cases"]) == 8
    causal = next(c for c in doc["cases"] if c["parameters"] == {"tokens": 5, "width": 3, "causal": True})
    assert [row[0] for row in causal["outputs"]] == [
        "1.0000000000000000", "0.50000000000000000", "0.33333333333333333", "0.25000000000000000",
        "0.20000000000000000"]  # fmt: skip
    encoder = next(c for c in doc["cases"] if c["parameters"] == {"tokens": 5, "width": 3, "causal": False})
    assert {row[0] for row in encoder["outputs"]} == {"0.20000000000000000"}
    assert float(causal["values"][3][1]) == bos_values(5)[3, 1]
