r"""torchtune, ``torchtune/modules/position_embeddings.py`` (``RotaryPositionalEmbeddings``) and
``torchtune/models/llama3_1/_position_embeddings.py`` (``Llama3ScaledRoPE``).

What matters. ``theta = 1 / base**(arange(0, dim, 2)[: dim // 2].float() / dim)`` (float32); ``build_rope_cache``:
float32 positions ``arange(max_seq_len)`` (default 4096), ``cache = stack([cos, sin], -1)`` ``(max_seq_len, dim/2,
2)``. ``forward(x, input_pos=None)``: ``x`` ``(batch, seq, heads, head_dim)``, the cache rows ``cache[input_pos]``
(or the first ``seq`` rows: the row index is the position), ``x.float()`` viewed as pairs ``(2i, 2i+1)``
(interleaved), rotated, ``type_as(x)``. ``Llama3ScaledRoPE.apply_scaling``: Llama 3.1's wavelength rule (factor 8,
low 1, high 4, old context 8192)."""

import math

import torch

from . import port

_ROPES: dict = {}


class RotaryPositionalEmbeddings:
    def __init__(self, dim, max_seq_len=4096, base=10_000, scaled=False):
        self.dim, self.base, self.max_seq_len = dim, base, max_seq_len
        theta = 1.0 / (self.base ** (torch.arange(0, self.dim, 2)[: (self.dim // 2)].float() / self.dim))
        if scaled:
            theta = apply_scaling(theta)
        seq_idx = torch.arange(max_seq_len, dtype=theta.dtype)
        idx_theta = torch.einsum("i, j -> ij", seq_idx, theta).float()
        self.cache = torch.stack([torch.cos(idx_theta), torch.sin(idx_theta)], dim=-1)

    def __call__(self, x, *, input_pos=None):
        seq_len = x.size(1)
        rope_cache = self.cache[:seq_len] if input_pos is None else self.cache[input_pos]
        xshaped = x.float().reshape(*x.shape[:-1], -1, 2)
        rope_cache = rope_cache.view(-1, xshaped.size(1), 1, xshaped.size(3), 2)
        x_out = torch.stack(
            [
                xshaped[..., 0] * rope_cache[..., 0] - xshaped[..., 1] * rope_cache[..., 1],
                xshaped[..., 1] * rope_cache[..., 0] + xshaped[..., 0] * rope_cache[..., 1],
            ],
            -1,
        )
        return x_out.flatten(3).type_as(x)


def apply_scaling(freqs, scale_factor=8, low_freq_factor=1, high_freq_factor=4, old_context_len=8192):
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    new_freqs = []
    for freq in freqs:
        wavelen = 2 * math.pi / freq
        if wavelen < high_freq_wavelen:
            new_freqs.append(freq)
        elif wavelen > low_freq_wavelen:
            new_freqs.append(freq / scale_factor)
        else:
            smooth = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
            new_freqs.append((1 - smooth) * freq / scale_factor + smooth * freq)
    return torch.tensor(new_freqs, dtype=freqs.dtype, device=freqs.device)


def _rope(dim, **kw):
    key = (dim, tuple(sorted(kw.items())))
    if key not in _ROPES:
        _ROPES[key] = RotaryPositionalEmbeddings(dim, **kw)
    return _ROPES[key]


def rope_input_pos(vectors, positions):
    return _rope(vectors.shape[-1])(vectors, input_pos=positions)


def llama3_scaled_rope(vectors, positions):
    return _rope(vectors.shape[-1], max_seq_len=131072, base=500_000, scaled=True)(vectors, input_pos=positions)


def rope_row_positions(vectors):
    # input_pos=None: the row index is the position
    return _rope(vectors.shape[-1])(vectors)


LLAMA3 = {
    "rope_type": "llama3",
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
}
SRC = "torchtune/modules/position_embeddings.py: RotaryPositionalEmbeddings"
PORTS = [
    port(
        rope_row_positions,
        project="torchtune",
        source=f"{SRC}.forward(x) (input_pos=None: the row index is the position)",
        cli="--call vectors@bshd --layout interleaved --max-position 4095",
        call="vectors@bshd",
        layout="interleaved",
        max_position=4095,
    ),
    port(
        rope_input_pos,
        project="torchtune",
        source=f"{SRC}.forward(x, input_pos=...)",
        cli="--call vectors,positions@bshd+batch --layout interleaved --max-position 4095",
        call="vectors,positions@bshd+batch",
        layout="interleaved",
        max_position=4095,
    ),
    port(
        llama3_scaled_rope,
        project="torchtune",
        source="torchtune/models/llama3_1/_position_embeddings.py: Llama3ScaledRoPE.apply_scaling",
        cli="--call vectors,positions@bshd+batch --layout interleaved --base 500000 --scaling @llama3.json "
        "--max-position 131071",
        call="vectors,positions@bshd+batch",
        layout="interleaved",
        base=500000.0,
        scaling=LLAMA3,
        max_position=131071,
    ),
]
