r"""x-transformers, ``x_transformers/x_transformers.py`` (``RotaryEmbedding``, ``rotate_half``,
``apply_rotary_pos_emb``; ``Attention`` calls the last with ``xpos_scale`` for q and ``xpos_scale ** -1`` for k).

What matters. ``base *= base_rescale_factor ** (dim / (dim - 2))`` (static NTK-aware), ``inv_freq = 1 /
base**(arange(0, dim, 2).float() / dim)``; ``forward(t)`` takes the **positions** ``t``: ``einsum(t, inv_freq) /
interpolation_factor`` (linear scaling), each angle repeated twice ``(d r)`` (interleaved pairs ``(2i, 2i+1)``);
``use_xpos``: ``scale = (arange(0, dim, 2) + 0.4 dim) / (1.4 dim)``, ``power = (t - max_pos // 2) / scale_base``
(``max_pos = t.max() + 1``), ``scale ** power`` repeated twice. ``apply_rotary_pos_emb(t, freqs, scale)`` rotates the
first ``freqs.shape[-1]`` channels (``rotary_emb_dim``, by default ``max(dim_head // 2, 32)``: partial rotary) and
passes the rest, ``(t * cos * scale) + (rotate_half(t) * sin * scale)``, in float32 (``autocast`` off)."""

import torch

from . import port

_MODULES: dict = {}


class RotaryEmbedding:
    def __init__(self, dim, use_xpos=False, scale_base=512, interpolation_factor=1.0, base=10000,
                 base_rescale_factor=1.0):  # fmt: skip
        base *= base_rescale_factor ** (dim / (dim - 2))
        self.inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        assert interpolation_factor >= 1.0
        self.interpolation_factor = interpolation_factor
        self.scale = (torch.arange(0, dim, 2) + 0.4 * dim) / (1.4 * dim) if use_xpos else None
        self.scale_base = scale_base

    def forward(self, t):
        max_pos = t.max() + 1
        if t.ndim == 1:
            t = t[None]
        freqs = torch.einsum("b i , j -> b i j", t.type_as(self.inv_freq), self.inv_freq) / self.interpolation_factor
        freqs = torch.stack((freqs, freqs), dim=-1).flatten(-2)  # '... d r -> ... (d r)'
        if self.scale is None:
            return freqs, 1.0
        power = (t - (max_pos // 2)) / self.scale_base
        scale = self.scale ** power[..., None]
        scale = torch.stack((scale, scale), dim=-1).flatten(-2)
        return freqs, scale


def rotate_half(x):
    x = x.unflatten(-1, (-1, 2))  # '... (d r) -> ... d r'
    x1, x2 = x.unbind(dim=-1)
    return torch.stack((-x2, x1), dim=-1).flatten(-2)


def apply_rotary_pos_emb(t, freqs, scale=1):
    rot_dim, seq_len, orig_dtype = freqs.shape[-1], t.shape[-2], t.dtype
    freqs = freqs[:, -seq_len:, :]
    scale = scale[:, -seq_len:, :] if isinstance(scale, torch.Tensor) else scale
    t, t_unrotated = t[..., :rot_dim], t[..., rot_dim:]
    t = (t * freqs.cos() * scale) + (rotate_half(t) * freqs.sin() * scale)
    return torch.cat((t, t_unrotated), dim=-1).type(orig_dtype)


def _attention(q, k, positions, rotary_dim=None, **kw):
    dim = rotary_dim or q.shape[-1]
    key = (dim, tuple(sorted(kw.items())))
    if key not in _MODULES:
        _MODULES[key] = RotaryEmbedding(dim, **kw)
    freqs, xpos_scale = _MODULES[key].forward(positions)
    q_scale, k_scale = (xpos_scale, xpos_scale**-1.0) if isinstance(xpos_scale, torch.Tensor) else (1.0, 1.0)
    # (batch, seq, dim) with batch 1: freqs (1, seq, rot_dim)
    return apply_rotary_pos_emb(q[None], freqs, q_scale)[0], apply_rotary_pos_emb(k[None], freqs, k_scale)[0]


def rotary(q, k, positions):
    return _attention(q, k, positions)


def rotary_partial(q, k, positions):
    # rotary_emb_dim = max(dim_head // 2, 32): at dim_head 128, the first 64 channels
    return _attention(q, k, positions, rotary_dim=max(q.shape[-1] // 2, 32))


def rotary_interpolated(q, k, positions):
    return _attention(q, k, positions, interpolation_factor=2.0)


def rotary_ntk(q, k, positions):
    return _attention(q, k, positions, base_rescale_factor=4.0)


def xpos(q, k, positions):
    return _attention(q, k, positions, use_xpos=True)


SRC = "x_transformers/x_transformers.py"
PORTS = [
    port(
        rotary,
        project="x-transformers",
        source=f"{SRC}: RotaryEmbedding.forward + apply_rotary_pos_emb",
        cli="--call q,k,positions --layout interleaved",
        call="q,k,positions",
        layout="interleaved",
    ),
    port(
        rotary_partial,
        project="x-transformers",
        source=f"{SRC}: RotaryEmbedding(rotary_emb_dim = dim_head // 2)",
        cli="--call q,k,positions --layout interleaved --width 128 --rotary-dim 64",
        call="q,k,positions",
        layout="interleaved",
        width=128,
        rotary_dim=64,
    ),
    port(
        rotary_interpolated,
        project="x-transformers",
        source=f"{SRC}: RotaryEmbedding(interpolation_factor=2)",
        cli='--call q,k,positions --layout interleaved --scaling \'{"rope_type": "linear", "factor": 2}\'',
        call="q,k,positions",
        layout="interleaved",
        scaling={"rope_type": "linear", "factor": 2.0},
    ),
    port(
        rotary_ntk,
        project="x-transformers",
        source=f"{SRC}: RotaryEmbedding(base_rescale_factor=4)",
        cli='--call q,k,positions --layout interleaved --scaling \'{"rope_type": "ntk", "factor": 4}\'',
        call="q,k,positions",
        layout="interleaved",
        scaling={"rope_type": "ntk", "factor": 4.0},
    ),
    port(
        xpos,
        project="x-transformers",
        source=f"{SRC}: RotaryEmbedding(use_xpos=True) (xPos)",
        cli='--call q,k,positions --layout interleaved --scaling \'{"rope_type": "xpos", "scale_base": 512}\' '
        "--max-position 2047",
        call="q,k,positions",
        layout="interleaved",
        scaling={"rope_type": "xpos", "scale_base": 512},
        max_position=2047,
    ),
]
