r"""xformers, ``xformers/components/positional_embedding/rotary.py`` (``RotaryEmbedding``, ``rotate_half``,
``apply_rotary_pos_emb``).

What matters. ``inv_freq = 1 / 10000**(arange(0, dim_model, 2).float() / dim_model)`` (base fixed at 10000);
``_update_cos_sin_tables(x, seq_dimension=-2)``: float32 positions ``arange(x.shape[-2])`` (the **row index is the
position**: there is no position argument), ``einsum(t, inv_freq.to(x.dtype))``, ``cat(freqs, freqs)``, ``cos`` and
``sin`` cast to ``x``'s dtype, ``(1, 1, seq, dim)``. ``forward(q, k)`` with ``q``, ``k`` ``(batch, heads, seq,
dim)``: ``q * cos + rotate_half(q) * sin`` (half layout), returns ``(q, k)``."""

import torch

from . import port


class RotaryEmbedding:
    def __init__(self, dim_model):
        self.inv_freq = 1.0 / (10000 ** (torch.arange(0, dim_model, 2).float() / dim_model))
        self._seq_len_cached = None
        self._cos_cached = self._sin_cached = None

    def _update_cos_sin_tables(self, x, seq_dimension=-2):
        seq_len = x.shape[seq_dimension]
        # as xformers: the cached length is set before the tables are built
        if seq_len != self._seq_len_cached or self._cos_cached.device != x.device or self._cos_cached.dtype != x.dtype:
            self._seq_len_cached = seq_len
            t = torch.arange(x.shape[seq_dimension], device=x.device, dtype=torch.float32)
            freqs = torch.einsum("i,j->ij", t, self.inv_freq.to(x.dtype))
            emb = torch.cat((freqs, freqs), dim=-1)
            self._cos_cached = emb.cos()[None, None, :, :].to(x.dtype)
            self._sin_cached = emb.sin()[None, None, :, :].to(x.dtype)
        return self._cos_cached, self._sin_cached

    def forward(self, q, k):
        cos, sin = self._update_cos_sin_tables(k, seq_dimension=-2)
        return apply_rotary_pos_emb(q, cos, sin), apply_rotary_pos_emb(k, cos, sin)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(x, cos, sin):
    cos = cos[:, :, : x.shape[-2], :]
    sin = sin[:, :, : x.shape[-2], :]
    return (x * cos) + (rotate_half(x) * sin)


_MODULES: dict = {}


def rotary(q, k):
    d = q.shape[-1]
    if d not in _MODULES:
        _MODULES[d] = RotaryEmbedding(d)
    return _MODULES[d].forward(q, k)


PORTS = [
    port(
        rotary,
        project="xformers",
        source="xformers/components/positional_embedding/rotary.py: "
        "RotaryEmbedding.forward(q, k) (implicit row positions)",
        cli="--call q,k@bhsd --layout half --max-position 4095",
        call="q,k@bhsd",
        layout="half",
        max_position=4095,  # a 4k context (the module has no limit of its own)
    ),
]
