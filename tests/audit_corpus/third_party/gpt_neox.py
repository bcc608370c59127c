r"""GPT-NeoX, ``megatron/model/positional_embeddings.py`` (``RotaryEmbedding``, ``rotate_half``,
``apply_rotary_pos_emb``).

What matters. ``inv_freq = 1 / base**(arange(0, dim, 2).float() / dim)``; ``_prepare_cache(seq_len, precision,
base)``: float32 positions ``arange(seq_len)``, ``emb = cat(freqs, freqs)``, ``cos`` and ``sin`` computed in float32
then stored ``.to(precision)``: with the default ``precision=torch.half`` a **float16 cos/sin table** ``(seq, 1, 1,
dim)`` (the angles are float32; only the table is rounded). ``forward(x, seq_dim=0, seq_len)`` returns the first
``seq_len`` rows; ``apply_rotary_pos_emb(q, k, cos, sin, offset=0)`` slices ``cos[offset : q.shape[0] + offset]``
(the row index plus the offset is the position), ``q * cos + rotate_half(q) * sin`` (half layout)."""

import torch

from . import port

_CACHES: dict = {}


class RotaryEmbedding:
    def __init__(self, dim, max_seq_len, base=10000, precision=torch.half):
        self.dim, self.max_seq_len, self.base, self.precision = dim, max_seq_len, base, precision
        self.cos_cached, self.sin_cached, self.inv_freq = self._prepare_cache(max_seq_len, precision, base)

    def _prepare_cache(self, seq_len, precision, base):
        inv_freq = 1.0 / (base ** (torch.arange(0, self.dim, 2).float() / self.dim))
        t = torch.arange(seq_len).type_as(inv_freq)
        freqs = torch.einsum("i,j->ij", t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos_cached = emb.cos()[:, None, None, :]
        sin_cached = emb.sin()[:, None, None, :]
        return cos_cached.to(precision), sin_cached.to(precision), inv_freq.to(precision)

    def forward(self, x, seq_dim=0, seq_len=None):
        if seq_len is None:
            seq_len = x.shape[seq_dim]
        assert seq_len <= self.max_seq_len
        return self.cos_cached[:seq_len, ...], self.sin_cached[:seq_len, ...]


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=x1.ndim - 1)


def apply_rotary_pos_emb_torch(q, k, cos, sin, offset: int = 0):
    cos, sin = cos[offset : q.shape[0] + offset, ...], sin[offset : q.shape[0] + offset, ...]
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)


def _cache(dim, precision):
    key = (dim, precision)
    if key not in _CACHES:
        _CACHES[key] = RotaryEmbedding(dim, 8192, precision=precision)
    return _CACHES[key]


def _apply(q, k, positions, precision):
    # the table's rows of the positions (the adapter), then the apply function, in (seq, batch, heads, dim)
    rope = _cache(q.shape[-1], precision)
    cos, sin = rope.forward(q, seq_len=rope.max_seq_len)
    cos, sin = cos[positions], sin[positions]
    qo, ko = apply_rotary_pos_emb_torch(q[:, None, None, :], k[:, None, None, :], cos, sin)
    return qo[:, 0, 0, :], ko[:, 0, 0, :]


def float16_table_offset(q, k, offset):
    # apply_rotary_pos_emb(q, k, cos, sin, offset): rows offset .. offset + seq - 1 of the float16 table
    rope = _cache(q.shape[-1], torch.half)
    cos, sin = rope.forward(q, seq_len=rope.max_seq_len)
    qo, ko = apply_rotary_pos_emb_torch(q[:, None, None, :], k[:, None, None, :], cos, sin, offset)
    return qo[:, 0, 0, :], ko[:, 0, 0, :]


def float16_table(q, k, positions):
    return _apply(q, k, positions, torch.half)


def bfloat16_table(q, k, positions):
    return _apply(q, k, positions, torch.bfloat16)


SRC = "megatron/model/positional_embeddings.py: RotaryEmbedding._prepare_cache + apply_rotary_pos_emb"
PORTS = [
    port(
        float16_table_offset,
        project="GPT-NeoX",
        source=f"{SRC} (the offset argument; a float16 cos/sin table)",
        cli="--call q,k,offset --layout half --max-position 8191 --dtype float16",
        call="q,k,offset",
        layout="half",
        max_position=8191,
        dtype="float16",
    ),
    port(
        float16_table,
        project="GPT-NeoX",
        source=f"{SRC} (precision=torch.half: a float16 cos/sin table)",
        cli="--call q,k,positions --layout half --max-position 8191 --dtype float16",
        call="q,k,positions",
        layout="half",
        max_position=8191,
        dtype="float16",
    ),
    port(
        bfloat16_table,
        project="GPT-NeoX",
        source=f"{SRC} (precision=torch.bfloat16)",
        cli="--call q,k,positions --layout half --max-position 8191 --dtype bfloat16",
        call="q,k,positions",
        layout="half",
        max_position=8191,
        dtype="bfloat16",
    ),
]
