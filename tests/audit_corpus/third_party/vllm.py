r"""vLLM, ``vllm/model_executor/layers/rotary_embedding`` (``base.py``: ``RotaryEmbedding``, ``common.py``:
``apply_rotary_emb_torch``).

What matters. ``_compute_inv_freq``: ``1 / base**(arange(0, rotary_dim, 2) / rotary_dim)`` in float32;
``_compute_cos_sin_cache``: float32 positions ``arange(max_position_embeddings)`` times it, ``cos`` and ``sin``
concatenated into one ``cos_sin_cache`` ``(max_position, rotary_dim)``, then cast to the model's dtype at
construction (bfloat16 or float16 in serving) and to the query's dtype in ``forward_native``.
``forward_native(positions, query, key)``: ``query`` ``(tokens, heads * head_size)``, the cache rows picked by
``positions`` (``index_select``), the first ``rotary_dim`` channels rotated: ``is_neox_style=True`` splits them in
halves (pairs ``(i, i + r/2)``), ``False`` takes even and odd channels (GPT-J, pairs ``(2i, 2i+1)``) and
re-interleaves the result; returns ``(query, key)``. ``Llama3RotaryEmbedding._compute_inv_freq``: Llama 3.1's
wavelength rule."""

import math

import torch

from . import port

_CACHES: dict = {}


class RotaryEmbedding:
    def __init__(self, head_size, rotary_dim, max_position, base, is_neox_style, dtype, scaling=None):
        self.head_size, self.rotary_dim, self.is_neox_style = head_size, rotary_dim, is_neox_style
        self.scaling = scaling
        inv_freq = self._compute_inv_freq(base)
        t = torch.arange(max_position, dtype=torch.float)
        freqs = torch.einsum("i,j -> ij", t, inv_freq)
        cache = torch.cat((freqs.cos(), freqs.sin()), dim=-1)
        self.cos_sin_cache = cache.to(dtype)  # the model's dtype, once

    def _compute_inv_freq(self, base):
        inv_freq = 1.0 / (base ** (torch.arange(0, self.rotary_dim, 2, dtype=torch.float) / self.rotary_dim))
        if self.scaling is None:
            return inv_freq
        # Llama3RotaryEmbedding: factor, low/high frequency factors, the original context length
        factor, low, high, L0 = self.scaling
        low_wavelen, high_wavelen = L0 / low, L0 / high
        wave_len = 2 * math.pi / inv_freq
        smooth = (L0 / wave_len - low) / (high - low) if low != high else 0
        return torch.where(
            wave_len < high_wavelen,
            inv_freq,
            torch.where(
                wave_len > low_wavelen, inv_freq / factor, (1 - smooth) * inv_freq / factor + smooth * inv_freq
            ),
        )

    def forward_native(self, positions, query, key):
        positions = positions.flatten()
        num_tokens = positions.shape[0]
        self.cos_sin_cache = self.cos_sin_cache.to(query.device, dtype=query.dtype)  # _match_cos_sin_cache_dtype
        cos_sin = self.cos_sin_cache.index_select(0, positions)
        cos, sin = cos_sin.chunk(2, dim=-1)
        out = []
        for x in (query, key):
            shape = x.shape
            x = x.view(num_tokens, -1, self.head_size)
            rot, pas = x[..., : self.rotary_dim], x[..., self.rotary_dim :]
            rot = apply_rotary_emb_torch(rot, cos, sin, self.is_neox_style)
            out.append(torch.cat((rot, pas), dim=-1).reshape(shape))
        return out[0], out[1]


def apply_rotary_emb_torch(x, cos, sin, is_neox_style):
    cos = cos.unsqueeze(-2).to(x.dtype)
    sin = sin.unsqueeze(-2).to(x.dtype)
    if is_neox_style:
        x1, x2 = torch.chunk(x, 2, dim=-1)
    else:
        x1, x2 = x[..., ::2], x[..., 1::2]
    o1 = x1 * cos - x2 * sin
    o2 = x2 * cos + x1 * sin
    if is_neox_style:
        return torch.cat((o1, o2), dim=-1)
    return torch.stack((o1, o2), dim=-1).flatten(-2)


def _rope(width, neox, dtype=torch.float32, rotary_dim=None, base=10000.0, max_position=8192, scaling=None):
    key = (width, neox, dtype, rotary_dim, base, max_position, scaling)
    if key not in _CACHES:
        _CACHES[key] = RotaryEmbedding(width, rotary_dim or width, max_position, base, neox, dtype, scaling)
    return _CACHES[key]


def neox_style(positions, query, key):
    return _rope(query.shape[-1], True).forward_native(positions, query, key)


def gptj_style(positions, query, key):
    return _rope(query.shape[-1], False).forward_native(positions, query, key)


def partial_rotary(positions, query, key):
    # partial_rotary_factor 0.25 (e.g. StableLM, Phi): rotary_dim = head_size / 4
    return _rope(query.shape[-1], True, rotary_dim=query.shape[-1] // 4).forward_native(positions, query, key)


def llama3_scaled(positions, query, key):
    rope = _rope(query.shape[-1], True, base=500000.0, max_position=131072, scaling=(8.0, 1.0, 4.0, 8192))
    return rope.forward_native(positions, query, key)


def float16_model(positions, query, key):
    # a model served in float16: the cos_sin_cache is rounded to float16 once, at construction
    return _rope(query.shape[-1], True, dtype=torch.float16).forward_native(positions, query, key)


def bfloat16_model(positions, query, key):
    return _rope(query.shape[-1], True, dtype=torch.bfloat16).forward_native(positions, query, key)


LLAMA3 = {
    "rope_type": "llama3",
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
}
SRC = "vllm/model_executor/layers/rotary_embedding/base.py"
PORTS = [
    port(
        neox_style,
        project="vLLM",
        source=f"{SRC}: RotaryEmbedding.forward_native (is_neox_style=True)",
        cli="--call positions,q,k --layout half --max-position 8191",
        call="positions,q,k",
        layout="half",
        max_position=8191,
    ),
    port(
        gptj_style,
        project="vLLM",
        source=f"{SRC}: RotaryEmbedding.forward_native (is_neox_style=False)",
        cli="--call positions,q,k --layout interleaved --max-position 8191",
        call="positions,q,k",
        layout="interleaved",
        max_position=8191,
    ),
    port(
        partial_rotary,
        project="vLLM",
        source=f"{SRC}: RotaryEmbedding (rotary_dim = head_size / 4)",
        cli="--call positions,q,k --layout half --rotary-dim 16 --max-position 8191",
        call="positions,q,k",
        layout="half",
        rotary_dim=16,
        max_position=8191,
    ),
    port(
        llama3_scaled,
        project="vLLM",
        source="vllm/model_executor/layers/rotary_embedding/llama3_rope.py: Llama3RotaryEmbedding._compute_inv_freq",
        cli="--call positions,q,k --layout half --base 500000 --scaling @llama3.json --max-position 131071",
        call="positions,q,k",
        layout="half",
        base=500000.0,
        scaling=LLAMA3,
        max_position=131071,
    ),
    port(
        float16_model,
        project="vLLM",
        source=f"{SRC}: RotaryEmbedding (dtype=torch.float16: a float16 cos/sin table)",
        cli="--call positions,q,k --layout half --max-position 8191 --dtype float16",
        call="positions,q,k",
        layout="half",
        max_position=8191,
        dtype="float16",
    ),
    port(
        bfloat16_model,
        project="vLLM",
        source=f"{SRC}: RotaryEmbedding (dtype=torch.bfloat16: a bfloat16 cos/sin table)",
        cli="--call positions,q,k --layout half --max-position 8191 --dtype bfloat16",
        call="positions,q,k",
        layout="half",
        max_position=8191,
        dtype="bfloat16",
    ),
]
