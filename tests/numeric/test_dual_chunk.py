r"""Dual chunk attention kernels: NumPy against the exact twin, values derived by hand from the reference code,
the config reader, bad arguments. Neither reference is importable here (transformers 5.24 has no dual chunk
attention; vLLM is not installed), so the reference values are written out below with the lines they follow."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from posproof.numeric import dual_chunk
from posproof.numeric.dual_chunk import (
    INTER,
    INTRA,
    SUCCESSIVE,
    DualChunkParameters,
    dual_chunk_indices,
    dual_chunk_parameters,
    dual_chunk_region,
    dual_chunk_relative,
    dual_chunk_relative_mp,
    golden_vectors_dual_chunk,
)

pairs = st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)).map(lambda p: (max(p), min(p)))
sizes = st.tuples(st.integers(1, 4096), st.integers(0, 4095)).filter(lambda s: s[1] < s[0])


@given(pairs, sizes)
def test_kernel_matches_exact_twin(p, s):
    (i, j), (S, w) = p, s
    got = int(dual_chunk_relative([i], [j], chunk_size=S, local_size=w)[0])
    assert got == dual_chunk_relative_mp(i, j, chunk_size=S, local_size=w)
    assert 0 <= got <= min(2 * (S - w) - 1, S)
    assert got <= i - j


def _reference(i, j, S, w):
    r"""The tables of HKUNLP/ChunkLlama ``ChunkLlamaRotaryEmbedding._set_cos_sin_cache`` and vLLM
    ``DualChunkRotaryEmbedding._compute_cos_sin_cache``, written out as lists, indexed as their ``forward`` does:
    ``chunk_len = chunk_size - local_size``; ``q_t = arange(chunk_len)``; ``qc_t = (arange(chunk_len) +
    chunk_len).clamp(max=chunk_size)``; ``k_t = arange(...) % chunk_len``; the query tables are indexed by
    ``position % chunk_len``, the inter query by ``qc_t[chunk_len - 1]``; keys in the query's chunk take ``q_t``,
    keys of the chunk before (``k_states_prev`` / ``prev_chunk_end_pos - chunk_len``) ``qc_t``, keys further back
    (``key_states[:, :, :begin - prev_len]`` / ``k[:prev_chunk_end_pos - chunk_len]``) the inter query."""
    c = S - w
    q_t = list(range(c))
    qc_t = [min(x + c, S) for x in range(c)]
    k_t = [p % c for p in range(j + 1)]
    chunk_start = (i // c) * c  # prev_chunk_end_pos
    if j >= chunk_start:
        return q_t[i % c] - k_t[j]
    if j >= chunk_start - c:
        return qc_t[i % c] - k_t[j]
    return qc_t[c - 1] - k_t[j]


@pytest.mark.parametrize("S, w", [(8, 2), (5, 0), (4, 3), (7, 1), (12, 4)])
def test_kernel_matches_the_reference_tables(S, w):
    i, j = np.tril_indices(4 * S)
    want = [_reference(a, b, S, w) for a, b in zip(i.tolist(), j.tolist(), strict=True)]
    assert dual_chunk_relative(i, j, chunk_size=S, local_size=w).tolist() == want


def test_hand_values():
    # chunk_size 8, local_size 2: chunk_len 6, q_t = [0..5], qc_t = [6, 7, 8, 8, 8, 8], inter query qc_t[5] = 8
    i = np.array([5, 6, 7, 8, 9, 9, 12, 13, 17])
    j = np.array([2, 5, 0, 0, 0, 4, 5, 1, 0])
    assert dual_chunk_relative(i, j, chunk_size=8, local_size=2).tolist() == [3, 1, 7, 8, 8, 4, 3, 7, 8]
    assert dual_chunk_region(i, j, chunk_size=8, local_size=2).tolist() == [0, 1, 1, 1, 1, 1, 2, 2, 2]
    # Qwen2.5-1M: the largest index is chunk_size itself, at query offset >= local_size over key offset 0
    qc = 262144 - 8192
    assert dual_chunk_relative_mp(qc + 8192, 0, chunk_size=262144, local_size=8192) == 262144
    assert dual_chunk_relative_mp(qc + 8191, 0, chunk_size=262144, local_size=8192) == 262143
    assert dual_chunk_relative_mp(2 * qc, qc - 1, chunk_size=262144, local_size=8192) == 8193


def test_indices_tables():
    idx = dual_chunk_indices(np.arange(14), chunk_size=8, local_size=2)
    assert idx.key.tolist() == [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1]
    assert idx.intra.tolist() == idx.key.tolist()
    assert idx.successive.tolist()[:6] == [6, 7, 8, 8, 8, 8]
    assert set(idx.inter.tolist()) == {8}
    # the relative position is the query table of the region minus the key table
    i, j = np.tril_indices(14)
    reg = dual_chunk_region(i, j, chunk_size=8, local_size=2)
    q = np.choose(reg, [idx.intra[i], idx.successive[i], idx.inter[i]])
    np.testing.assert_array_equal(q - idx.key[j], dual_chunk_relative(i, j, chunk_size=8, local_size=2))
    assert (INTRA, SUCCESSIVE, INTER) == (0, 1, 2)


def test_local_size_zero_and_chunk_one():
    assert dual_chunk_relative(np.arange(6), 0, chunk_size=1, local_size=0).tolist() == [0, 1, 1, 1, 1, 1]
    assert dual_chunk_relative(np.arange(12), 0, chunk_size=4, local_size=0).tolist() == [
        0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4]  # fmt: skip


def test_config_reader():
    qwen = {
        "max_position_embeddings": 1010000,
        "dual_chunk_attention_config": {
            "chunk_size": 262144,
            "local_size": 8192,
            "original_max_position_embeddings": 262144,
            "sparse_attention_enabled": True,
        },
    }
    p = dual_chunk_parameters(qwen)
    assert p == DualChunkParameters(262144, 8192, 262144, 1010000)
    assert p.chunk_len == 253952 and p.largest_relative == 262144
    assert dual_chunk_parameters({"chunk_size": 8, "local_size": 2}) == DualChunkParameters(8, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.chunk_size = 1


@pytest.mark.parametrize(
    ("config", "words"),
    [
        ({"dual_chunk_attention_config": None}, "null"),
        ({"dual_chunk_attention_config": [1]}, "must be a dict"),
        ({"local_size": 2}, "'chunk_size'] is required"),
        ({"chunk_size": 8}, "'local_size'] is required"),
        ({"chunk_size": 0, "local_size": 0}, r"'chunk_size'\] must be an integer >= 1"),
        ({"chunk_size": 8.0, "local_size": 0}, r"'chunk_size'\] must be an integer >= 1"),
        ({"chunk_size": 8, "local_size": 8}, r"'local_size'\] must be an integer in \[0, chunk_size - 1\] = \[0, 7\]"),
        ({"chunk_size": 8, "local_size": -1}, r"'local_size'\]"),
        ({"chunk_size": 8, "local_size": True}, r"'local_size'\]"),
        ({"chunk_size": 8, "local_size": 2, "original_max_position_embeddings": -1}, "original_max_position"),
        ({"max_position_embeddings": 0, "dual_chunk_attention_config": {"chunk_size": 8, "local_size": 2}}, "max_po"),
        ([1], "config must be a dict"),
    ],
)
def test_config_reader_names_the_key(config, words):
    with pytest.raises(ValueError, match=words):
        dual_chunk_parameters(config)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: dual_chunk_relative([1], [2], chunk_size=8, local_size=2), "key_positions"),
        (lambda: dual_chunk_relative([1], [-1], chunk_size=8, local_size=2), "key_positions"),
        (lambda: dual_chunk_relative([1.5], [0], chunk_size=8, local_size=2), "query_positions"),
        (lambda: dual_chunk_relative([1, 2], [0, 0, 0], chunk_size=8, local_size=2), "key_positions"),
        (lambda: dual_chunk_relative([1], [0], chunk_size=0, local_size=0), "chunk_size"),
        (lambda: dual_chunk_relative([1], [0], chunk_size=8, local_size=8), "local_size"),
        (lambda: dual_chunk_region([1], [0], chunk_size=8, local_size=-1), "local_size"),
        (lambda: dual_chunk_relative_mp(1, 2, chunk_size=8, local_size=2), "key_position"),
        (lambda: dual_chunk_relative_mp(1.5, 0, chunk_size=8, local_size=2), "query_position"),
        (lambda: dual_chunk_indices([-1], chunk_size=8, local_size=2), "positions"),
    ],
)
def test_bad_arguments_name_the_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_golden_vectors_document():
    doc = golden_vectors_dual_chunk()
    assert doc["scheme"] == "dual-chunk" and doc["cases"]
    for case in doc["cases"]:
        assert len(case["pairs"]) == len(case["relative"]) == len(case["region"])
        assert all(isinstance(x, str) for x in case["relative"])
        S, w = case["parameters"]["chunk_size"], case["parameters"]["local_size"]
        small = [(p, r) for p, r in zip(case["pairs"], case["relative"], strict=True) if p[0] < 40]
        assert all(int(r) == _reference(a, b, S, w) for (a, b), r in small)
    qwen = doc["cases"][-1]
    assert qwen["relative"][qwen["pairs"].index([262144, 0])] == "262144"
    assert golden_vectors_dual_chunk() == doc  # deterministic


def test_all_exports_exist():
    assert all(hasattr(dual_chunk, name) for name in dual_chunk.__all__)
