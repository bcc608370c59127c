r"""nanochat, ``nanochat/gpt.py`` (``GPT._precompute_rotary_embeddings``, ``apply_rotary_emb``).

What matters. ``inv_freq = 1 / base**(arange(0, head_dim, 2, float32) / head_dim)``; float32 positions
``arange(seq_len)`` (``sequence_len * 10`` rows); ``cos``, ``sin`` computed in float32 and stored in **bfloat16**
(``cos.bfloat16()``), ``(1, seq, 1, head_dim/2)``; the model slices the rows ``T0 : T0 + T``.
``apply_rotary_emb(x, cos, sin)``: ``x`` ``(batch, seq, heads, head_dim)``, halves ``x1, x2`` (half layout), ``y1 =
x1 cos + x2 sin``, ``y2 = -x1 sin + x2 cos``: the pairs turn by ``-m theta_i`` (clockwise; the same for q and k, so
scores stay relative: a deliberate convention, and ``rotation-sign`` against RoPE's, as transformers' NanoChat port
is in the sweep)."""

import torch

from . import port

_TABLES: dict = {}


def _precompute_rotary_embeddings(seq_len, head_dim, base=10000):
    channel_range = torch.arange(0, head_dim, 2, dtype=torch.float32)
    inv_freq = 1.0 / (base ** (channel_range / head_dim))
    t = torch.arange(seq_len, dtype=torch.float32)
    freqs = torch.outer(t, inv_freq)
    cos, sin = freqs.cos(), freqs.sin()
    cos, sin = cos.bfloat16(), sin.bfloat16()
    return cos[None, :, None, :], sin[None, :, None, :]


def apply_rotary_emb(x, cos, sin):
    assert x.ndim == 4
    d = x.shape[3] // 2
    x1, x2 = x[..., :d], x[..., d:]
    y1 = x1 * cos + x2 * sin
    y2 = x1 * (-sin) + x2 * cos
    return torch.cat([y1, y2], 3).to(x.dtype)


def rope(vectors, positions):
    d = vectors.shape[-1]
    if d not in _TABLES:
        _TABLES[d] = _precompute_rotary_embeddings(20480, d)  # sequence_len 2048 * 10
    cos, sin = _TABLES[d]
    return apply_rotary_emb(vectors[None, :, None, :], cos[:, positions], sin[:, positions])[0, :, 0, :]


def confirm_clockwise():
    r"""Independent NumPy: RoPE turns e_0 at position 1 (width 2) to (cos 1, sin 1); nanochat's formula gives
    (cos 1, -sin 1)."""
    import numpy as np

    x1, x2 = 1.0, 0.0
    c, s = np.cos(1.0), np.sin(1.0)
    ours = np.array([x1 * c + x2 * s, -x1 * s + x2 * c])
    assert np.allclose(ours, [c, -s])
    got = rope(torch.tensor([[1.0, 0.0]], dtype=torch.float64), torch.tensor([1])).numpy()[0]
    assert np.allclose(got, [c, -s], atol=1e-2) and got[1] < -0.8  # bfloat16 table: 2 to 3 digits


PORTS = [
    port(
        rope,
        {"rotation-sign"},
        project="nanochat",
        source="nanochat/gpt.py: _precompute_rotary_embeddings + apply_rotary_emb (bfloat16 cos/sin table, clockwise)",
        cli="--call vectors,positions --layout half --max-position 20479",
        call="vectors,positions",
        layout="half",
        max_position=20479,
        confirm=confirm_clockwise,
    ),
]
