r"""gemma_pytorch, ``gemma/model.py`` (``precompute_freqs_cis``, ``apply_rotary_emb``).

What matters. ``freqs = 1 / theta**(arange(0, dim, 2)[: dim // 2].float() / dim)``, divided by
``rope_scaling_factor`` (Gemma 3's global layers: theta 1e6, factor 8: linear scaling); positions ``arange(end)``,
``polar(ones, outer(t, freqs).float())`` complex64. ``apply_rotary_emb(x, freqs_cis)``: ``x`` ``(batch, seq, heads,
head_dim)`` transposed to ``(batch, heads, seq, head_dim)``, its two **halves** stacked into complex numbers (pairs
``(i, i + d/2)``: half layout, not Meta's interleaved), times ``freqs_cis``, the real and imaginary parts written
back as the two halves, ``type_as(x)``. The model picks ``freqs_cis.index_select(0, input_positions)``."""

import torch

from . import port

_TABLES: dict = {}


def precompute_freqs_cis(dim, end, theta=10000.0, rope_scaling_factor=1):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    freqs = freqs / rope_scaling_factor
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def apply_rotary_emb(x, freqs_cis):
    x_ = torch.view_as_complex(torch.stack(torch.chunk(x.transpose(1, 2).float(), 2, dim=-1), dim=-1))
    x_out = torch.view_as_real(x_ * freqs_cis).type_as(x)
    x_out = torch.cat(torch.chunk(x_out, 2, dim=-1), dim=-2)
    return x_out.reshape(x_out.shape[0], x_out.shape[1], x_out.shape[2], -1).transpose(1, 2)


def _rope(vectors, positions, theta, factor):
    key = (vectors.shape[-1], theta, factor)
    if key not in _TABLES:
        _TABLES[key] = precompute_freqs_cis(vectors.shape[-1], 131072, theta, factor)
    freqs_cis = _TABLES[key].index_select(0, positions)
    return apply_rotary_emb(vectors[None, :, None, :], freqs_cis)[0, :, 0, :]


def local_layer(vectors, positions):
    return _rope(vectors, positions, 10000.0, 1)


def gemma3_global_layer(vectors, positions):
    return _rope(vectors, positions, 1_000_000.0, 8)


PORTS = [
    port(
        local_layer,
        project="gemma_pytorch",
        source="gemma/model.py: precompute_freqs_cis + apply_rotary_emb",
        cli="--call vectors,positions --layout half --max-position 131071",
        call="vectors,positions",
        layout="half",
        max_position=131071,
    ),
    port(
        gemma3_global_layer,
        project="gemma_pytorch",
        source="gemma/model.py: precompute_freqs_cis(theta=1e6, rope_scaling_factor=8)",
        cli='--call vectors,positions --layout half --base 1e6 --scaling \'{"rope_type": '
        '"linear", "factor": 8}\' --max-position 131071',
        call="vectors,positions",
        layout="half",
        base=1e6,
        scaling={"rope_type": "linear", "factor": 8.0},
        max_position=131071,
    ),
]
