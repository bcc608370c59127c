r"""Dual chunk attention (DCA; An et al. 2024, "Training-Free Long-Context Scaling of Large Language Models", arXiv
2402.17463): the position indices RoPE sees for query ``i`` and key ``j`` (0-indexed, causal ``0 <= j <= i``).

Followed here: the reference code, which both implementations share. The paper's official code (HKUNLP/ChunkLlama,
``chunkllama_attn_replace.py``, ``ChunkLlamaRotaryEmbedding._set_cos_sin_cache`` and ``forward``) and vLLM's
``DualChunkRotaryEmbedding`` (``vllm/model_executor/layers/rotary_embedding/dual_chunk_rope.py``, which Qwen2.5-1M's
``dual_chunk_attention_config`` drives, with the ``DualChunkFlashAttention`` backend choosing the key ranges) build
the same tables. With ``S = chunk_size``, ``w = local_size`` (ChunkLlama: ``local_window``) and the chunk length
``c = S - w`` (both: ``chunk_len = chunk_size - local_size``):

- key index ``j mod c`` (``k_t = arange(...) % chunk_len``);
- intra-chunk query index ``i mod c`` (``q_t``), used for keys in the query's chunk, ``j // c == i // c``;
- successive-chunk query index ``min(i mod c + c, S)`` (``qc_t = (arange(chunk_len) + chunk_len).clamp(max=
  chunk_size)``), used for keys in the chunk before, ``j // c == i // c - 1``;
- inter-chunk query index ``min(2c - 1, S)`` (``qc_t[chunk_len - 1]``, the same for every query), used for every
  key further back, ``j // c <= i // c - 2``.

The relative position (query index minus key index) is then ``i - j`` within a chunk, ``min(i mod c + c, S) -
j mod c`` for the chunk before and ``min(2c - 1, S) - j mod c`` beyond. The largest is ``min(2c - 1, S)``, which is
``S`` whenever ``S >= 2w + 1``.

Where the paper and the code differ: the paper (Section 3) writes its chunk size ``s`` (the code's ``c``), its
pretraining length ``c`` and the local window ``w = c - s``, the successive-chunk query indices ``s, s + 1, ...,
s + w - 1`` and then ``c - 1``, and the inter-chunk query index ``c - 1``: its largest relative position is the last
trained one. The code clamps at ``chunk_size`` itself, one more; so with ``chunk_size`` equal to the trained length
(Qwen2.5-1M: ``chunk_size = original_max_position_embeddings = 262144``) the largest relative position is the
trained length, one past the trained range, while ChunkLlama's defaults (``chunk_size = 3/4`` of the pretraining
length, ``local_window`` one eighth of it) stay well inside. vLLM also builds two further query tables
(``qc_no_clamp``: ``i mod c + c``; ``q_inter``: ``i mod c + S``) that its sparse-attention path uses only to score
which keys to keep, never in the attention itself; they are not modelled here. ChunkLlama's optional ``scaling_factor``
(positions divided by it, default 1) and the scale of the cosines (``mscale``) are not modelled either.

``original_max_position_embeddings`` is no position index: vLLM's backend reads it (default 0: off) for a length
scale ``max(1, 0.1 log(L / original_max_position_embeddings) + 1)`` of the attention logits, ``L`` the sequence's
length. The config reader records it.

>>> dual_chunk_relative([5, 9, 9, 13], [2, 4, 0, 1], chunk_size=8, local_size=2).tolist()
[3, 4, 8, 7]
>>> dual_chunk_region([5, 9, 13], [2, 4, 0], chunk_size=8, local_size=2).tolist()
[0, 1, 2]
>>> dual_chunk_parameters({"dual_chunk_attention_config": {"chunk_size": 262144, "local_size": 8192}}).chunk_len
253952
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from posproof.numeric import _validate

__all__ = [
    "INTRA",
    "SUCCESSIVE",
    "INTER",
    "DualChunkParameters",
    "DualChunkIndices",
    "dual_chunk_parameters",
    "dual_chunk_indices",
    "dual_chunk_region",
    "dual_chunk_relative",
    "dual_chunk_relative_mp",
    "golden_vectors_dual_chunk",
]

#: The regions, as :func:`dual_chunk_region` numbers them: the key in the query's chunk, the chunk before, further.
INTRA, SUCCESSIVE, INTER = 0, 1, 2


def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _sizes(chunk_size, local_size) -> tuple[int, int]:
    S = _validate.positive_int(chunk_size, "chunk_size")
    if not _is_int(local_size) or not 0 <= local_size <= S - 1:
        raise ValueError(f"local_size must be an integer in [0, chunk_size - 1] = [0, {S - 1}], got {local_size!r}")
    return S, int(local_size)


def dual_chunk_region(query_positions, key_positions, *, chunk_size: int, local_size: int) -> np.ndarray:
    r"""Which index applies, int64, broadcast over the positions: :data:`INTRA` (0) when ``j // c == i // c``,
    :data:`SUCCESSIVE` (1) when ``j // c == i // c - 1``, :data:`INTER` (2) beyond (``c = chunk_size - local_size``)."""
    S, w = _sizes(chunk_size, local_size)
    i, j = _validate.causal_positions(query_positions, key_positions)
    return np.minimum(i // (S - w) - j // (S - w), INTER).astype(np.int64)


def dual_chunk_relative(query_positions, key_positions, *, chunk_size: int, local_size: int) -> np.ndarray:
    r"""DCA's relative position, int64, broadcast over the positions, with ``c = chunk_size - local_size``:
    ``i mod c - j mod c`` (``= i - j``) in the query's chunk, ``min(i mod c + c, chunk_size) - j mod c`` in the
    chunk before, ``min(2c - 1, chunk_size) - j mod c`` further back."""
    S, w = _sizes(chunk_size, local_size)
    c = S - w
    i, j = _validate.causal_positions(query_positions, key_positions)
    gap = i // c - j // c
    t, u = i % c, j % c
    return np.where(gap == 0, t - u, np.where(gap == 1, np.minimum(t + c, S) - u, min(2 * c - 1, S) - u)).astype(
        np.int64
    )


def dual_chunk_relative_mp(query_position, key_position, *, chunk_size: int, local_size: int) -> int:
    r"""The exact twin of :func:`dual_chunk_relative` for one pair, in Python integers."""
    S, w = _sizes(chunk_size, local_size)
    c = S - w
    i, j = _validate.causal_pair(query_position, key_position)
    (a, t), (b, u) = divmod(i, c), divmod(j, c)
    if a == b:
        return t - u
    if a == b + 1:
        return min(t + c, S) - u
    return min(2 * c - 1, S) - u


class DualChunkIndices(NamedTuple):
    r"""The per-position tables of :func:`dual_chunk_indices` (int64): the key index and the three query indices."""

    key: np.ndarray
    intra: np.ndarray
    successive: np.ndarray
    inter: np.ndarray


def dual_chunk_indices(positions, *, chunk_size: int, local_size: int) -> DualChunkIndices:
    r"""The position indices each reference rotates by at each 0-indexed position ``p``: key ``p mod c``, intra
    query ``p mod c``, successive query ``min(p mod c + c, chunk_size)``, inter query ``min(2c - 1, chunk_size)``."""
    S, w = _sizes(chunk_size, local_size)
    c = S - w
    p = _validate.integer_array(positions, "positions")
    if np.any(p < 0):
        raise ValueError("positions must be >= 0")
    r = p % c
    return DualChunkIndices(r, r.copy(), np.minimum(r + c, S), np.full_like(r, min(2 * c - 1, S)))


@dataclass(frozen=True)
class DualChunkParameters:
    r"""A model's ``dual_chunk_attention_config``: ``chunk_size``, ``local_size``, ``original_max_position_embeddings``
    (0: no length scale) and the model's ``max_position_embeddings`` (``None`` when the dict read had none)."""

    chunk_size: int
    local_size: int
    original_max_position_embeddings: int = 0
    max_position_embeddings: int | None = None

    @property
    def chunk_len(self) -> int:
        r"""The chunk length ``c = chunk_size - local_size``."""
        return self.chunk_size - self.local_size

    @property
    def largest_relative(self) -> int:
        r"""The largest relative position DCA hands to RoPE (inputs past two chunks): ``min(2c - 1, chunk_size)``."""
        return min(2 * self.chunk_len - 1, self.chunk_size)


KEY = "dual_chunk_attention_config"


def dual_chunk_parameters(config: dict) -> DualChunkParameters:
    r"""The parameters read from a model config dict holding ``dual_chunk_attention_config`` (or from that inner dict
    itself). ``chunk_size`` and ``local_size`` are required (vLLM's ``DualChunkRotaryEmbedding`` takes both),
    ``original_max_position_embeddings`` defaults to 0 as in vLLM's backend; other keys (``sparse_attention_*``)
    are ignored."""
    if not isinstance(config, dict):
        raise ValueError(f"config must be a dict, got {type(config).__name__}")
    outer_max = None
    inner = config
    if KEY in config:
        inner = config[KEY]
        outer_max = config.get("max_position_embeddings")
        if inner is None:
            raise ValueError(f"config[{KEY!r}] is null: the model does not use dual chunk attention")
        if not isinstance(inner, dict):
            raise ValueError(f"config[{KEY!r}] must be a dict, got {type(inner).__name__}")
    for name in ("chunk_size", "local_size"):
        if name not in inner:
            raise ValueError(f"{KEY}[{name!r}] is required (an integer; chunk_size >= 1, 0 <= local_size < chunk_size)")
    S = inner["chunk_size"]
    if not _is_int(S) or S < 1:
        raise ValueError(f"{KEY}['chunk_size'] must be an integer >= 1, got {S!r}")
    w = inner["local_size"]
    if not _is_int(w) or not 0 <= w <= S - 1:
        raise ValueError(f"{KEY}['local_size'] must be an integer in [0, chunk_size - 1] = [0, {S - 1}], got {w!r}")
    orig = inner.get("original_max_position_embeddings", 0)
    if not _is_int(orig) or orig < 0:
        raise ValueError(f"{KEY}['original_max_position_embeddings'] must be an integer >= 0, got {orig!r}")
    if outer_max is not None and (not _is_int(outer_max) or outer_max < 1):
        raise ValueError(f"config['max_position_embeddings'] must be an integer >= 1, got {outer_max!r}")
    return DualChunkParameters(int(S), int(w), int(orig), None if outer_max is None else int(outer_max))


#: Golden-vector cases: (chunk_size, local_size): small ones with every region, ChunkLlama's defaults for 4096
#: (3072, 512) and Qwen2.5-1M's (262144, 8192).
SETTINGS = ((8, 2), (5, 0), (4, 3), (3072, 512), (262144, 8192))
#: Pairs (i, j), causal: each region, both sides of the chunk edges and of the clamp, long contexts.
PAIRS = ((0, 0), (5, 2), (6, 5), (7, 0), (9, 4), (9, 0), (11, 6), (13, 0), (17, 3), (2559, 0), (2560, 2559),
         (3000, 100), (5119, 0), (6000, 10), (253952, 253951), (262144, 0), (262144, 1), (507903, 0),
         (507904, 253951), (1009999, 0))  # fmt: skip


def golden_vectors_dual_chunk() -> dict:
    r"""The dual chunk document in the shape of :mod:`posproof.numeric.vectors` (exact integers as decimal
    strings: the relative position and the region of each pair)."""
    cases = []
    for S, w in SETTINGS:
        cases.append(
            {
                "parameters": {"scheme": "dual-chunk", "chunk_size": S, "local_size": w},
                "pairs": [list(p) for p in PAIRS],
                "relative": [str(dual_chunk_relative_mp(i, j, chunk_size=S, local_size=w)) for i, j in PAIRS],
                "region": [int(dual_chunk_region([i], [j], chunk_size=S, local_size=w)[0]) for i, j in PAIRS],
            }
        )
    return {
        "scheme": "dual-chunk",
        "version": 1,
        "precision": {
            "dps": 50,
            "digits": 17,
            "note": "exact integers (Python integers): no rounding; dps and digits are the collection's",
        },
        "conventions": (
            "query i, key j, 0 <= j <= i; S = chunk_size, w = local_size, c = S - w (chunk_len). region 0 (intra, "
            "j // c == i // c): i mod c - j mod c; region 1 (successive, j // c == i // c - 1): min(i mod c + c, S) "
            "- j mod c; region 2 (inter): min(2c - 1, S) - j mod c (HKUNLP/ChunkLlama chunkllama_attn_replace.py; "
            "vLLM DualChunkRotaryEmbedding)"
        ),
        "cases": cases,
    }
