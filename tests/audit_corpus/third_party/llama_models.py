r"""Meta llama-models, ``models/llama3/model.py`` (``precompute_freqs_cis``, ``reshape_for_broadcast``,
``apply_rotary_emb``) and ``models/llama3/model.py``'s ``apply_scaling`` (Llama 3.1).

What matters. ``freqs = 1 / theta**(arange(0, dim, 2)[: dim // 2].float() / dim)`` (float32), optionally
``apply_scaling`` (factor 8, low 1, high 4, old context 8192); float32 positions ``arange(end)``; ``freqs_cis =
polar(ones, outer(t, freqs))`` complex64 ``(end, dim/2)``. ``apply_rotary_emb(xq, xk, freqs_cis)``: ``xq``
``(batch, seq, heads, head_dim)``, ``xq.float()`` viewed as complex pairs ``(2i, 2i+1)`` (interleaved), times
``freqs_cis`` broadcast over batch and heads, back to real, ``type_as(xq)``. The model slices ``freqs_cis[start_pos :
start_pos + seqlen]``: the port picks the rows of the positions."""

import math

import torch

from . import port

_TABLES: dict = {}


def apply_scaling(freqs, scale_factor=8, low_freq_factor=1, high_freq_factor=4, old_context_len=8192):
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    wavelen = 2 * math.pi / freqs
    new_freqs = torch.where(wavelen > low_freq_wavelen, freqs / scale_factor, freqs)
    smooth = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    return torch.where(
        (wavelen >= high_freq_wavelen) & (wavelen <= low_freq_wavelen),
        (1 - smooth) * new_freqs / scale_factor + smooth * new_freqs,
        new_freqs,
    )


def precompute_freqs_cis(dim, end, theta=10000.0, use_scaled=False):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device, dtype=torch.float32)
    if use_scaled:
        freqs = apply_scaling(freqs)
    freqs = torch.outer(t, freqs)
    return torch.polar(torch.ones_like(freqs), freqs)  # complex64


def reshape_for_broadcast(freqs_cis, x):
    ndim = x.ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1])
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


def _table(dim, end, theta, use_scaled):
    key = (dim, end, theta, use_scaled)
    if key not in _TABLES:
        _TABLES[key] = precompute_freqs_cis(dim, end, theta, use_scaled)
    return _TABLES[key]


def llama3(xq, xk, positions):
    # Llama 3 8B: rope_theta 500000, no scaling; max_seq_len * 2 rows as the model builds them
    return apply_rotary_emb(xq, xk, _table(xq.shape[-1], 16384, 500000.0, False)[positions])


def llama3_1(xq, xk, positions):
    return apply_rotary_emb(xq, xk, _table(xq.shape[-1], 262144, 500000.0, True)[positions])


def apply_only(xq, xk, freqs_cis):
    # the apply function alone, given posproof's table
    return apply_rotary_emb(xq, xk, freqs_cis)


LLAMA31 = {
    "rope_type": "llama3",
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
}
SRC = "models/llama3/model.py"
PORTS = [
    port(
        llama3,
        project="llama-models",
        source=f"{SRC}: precompute_freqs_cis + apply_rotary_emb",
        cli="--call q,k,positions@bshd --layout interleaved --base 500000 --max-position 16383",
        call="q,k,positions@bshd",
        layout="interleaved",
        base=500000.0,
        max_position=16383,
    ),
    port(
        llama3_1,
        project="llama-models",
        source=f"{SRC}: precompute_freqs_cis(use_scaled=True), apply_scaling",
        cli="--call q,k,positions@bshd --layout interleaved --base 500000 --scaling @llama3.json --max-position 262143",
        call="q,k,positions@bshd",
        layout="interleaved",
        base=500000.0,
        scaling=LLAMA31,
        max_position=262143,
    ),
    port(
        apply_only,
        project="llama-models",
        source=f"{SRC}: apply_rotary_emb (posproof's freqs_cis)",
        cli="--call q,k,freqs_cis@bshd --layout interleaved",
        call="q,k,freqs_cis@bshd",
        layout="interleaved",
    ),
]
