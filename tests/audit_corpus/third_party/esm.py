r"""ESM (fair-esm), ``esm/rotary_embedding.py`` (``RotaryEmbedding``, ``rotate_half``, ``apply_rotary_pos_emb``).

What matters. ``inv_freq = 1 / 10000**(arange(0, dim, 2).float() / dim)``; ``_update_cos_sin_tables(x,
seq_dimension=-2)``: positions ``arange(x.shape[-2])`` in ``inv_freq``'s dtype (float32): the **row index is the
position**; ``cat(freqs, freqs)``, ``cos``/``sin`` ``(1, seq, dim)``. ``forward(q, k)``, ``q``, ``k`` ``(batch *
heads, seq, dim)``: ``x * cos + rotate_half(x) * sin`` (half layout), returns ``(q, k)``."""

import torch

from . import port


class RotaryEmbedding:
    def __init__(self, dim):
        self.inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
        self._seq_len_cached = None

    def _update_cos_sin_tables(self, x, seq_dimension=1):
        seq_len = x.shape[seq_dimension]
        if seq_len != self._seq_len_cached:
            self._seq_len_cached = seq_len
            t = torch.arange(x.shape[seq_dimension]).type_as(self.inv_freq)
            freqs = torch.einsum("i,j->ij", t, self.inv_freq)
            emb = torch.cat((freqs, freqs), dim=-1)
            self._cos_cached = emb.cos()[None, :, :]
            self._sin_cached = emb.sin()[None, :, :]
        return self._cos_cached, self._sin_cached

    def forward(self, q, k):
        cos, sin = self._update_cos_sin_tables(k, seq_dimension=-2)
        return apply_rotary_pos_emb(q, cos, sin), apply_rotary_pos_emb(k, cos, sin)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(x, cos, sin):
    cos = cos[:, : x.shape[-2], :]
    sin = sin[:, : x.shape[-2], :]
    return (x * cos) + (rotate_half(x) * sin)


_MODULES: dict = {}


def rotary(q, k):
    d = q.shape[-1]
    if d not in _MODULES:
        _MODULES[d] = RotaryEmbedding(d)
    qo, ko = _MODULES[d].forward(q[None], k[None])
    return qo[0], ko[0]


PORTS = [
    port(
        rotary,
        project="ESM",
        source="esm/rotary_embedding.py: RotaryEmbedding.forward(q, k) (implicit row positions)",
        cli="--call q,k --layout half --max-position 1025",
        call="q,k",
        layout="half",
        max_position=1025,  # ESM-2 reads at most 1024 residues plus two special tokens
    ),
]
