r"""timm, ``timm/layers/pos_embed_sincos.py`` (``freq_bands``, ``build_fourier_pos_embed``,
``build_rotary_pos_embed``, ``RotaryEmbeddingCat``, ``rot``, ``apply_rot_embed_cat``), as EVA-02 uses them
(``timm/models/eva.py``: ``RotaryEmbeddingCat(head_dim, in_pixels=False, feat_shape=grid, ref_feat_shape=...)``).

What matters. ``in_pixels=False``: ``num_bands = dim // 4`` bands ``1 / temperature**(arange(num_bands) /
num_bands)`` (temperature 10000), integer grid coordinates (row, column; ``ref_feat_shape`` rescales them: not
here), ``grid * bands`` ``(H, W, 2, num_bands)``, flattened row bands then column bands and **each repeated twice**:
pairs ``(2i, 2i+1)`` (interleaved), the first ``dim/4`` pairs on the row, the rest on the column, **the same
frequencies on both axes** (shared-frequency axial). ``apply_rot_embed_cat(x, emb)``: ``x * cos + rot(x) * sin``,
``rot(x) = stack([-x[..., 1::2], x[..., ::2]], -1)``."""

import torch

from . import port


def freq_bands(num_bands, temperature=10000.0, step=2):
    exp = torch.arange(0, num_bands, step, dtype=torch.int64).to(torch.float32) / num_bands
    return 1.0 / (temperature**exp)


def build_rotary_pos_embed(coords, dim=64, temperature=10000.0):
    r"""``build_rotary_pos_embed(feat_shape, dim, in_pixels=False)`` at the given grid coordinates ``(N, 2)`` (the
    rows of its ``ndgrid``)."""
    bands = freq_bands(dim // 4, temperature=temperature, step=1)
    grid = coords.to(torch.float32).unsqueeze(-1)  # (N, 2, 1)
    pos = grid * bands  # (N, 2, num_bands)
    sin_emb = pos.sin().reshape(coords.shape[0], -1).repeat_interleave(2, -1)
    cos_emb = pos.cos().reshape(coords.shape[0], -1).repeat_interleave(2, -1)
    return sin_emb, cos_emb


def rot(x):
    return torch.stack([-x[..., 1::2], x[..., ::2]], -1).reshape(x.shape)


def apply_rot_embed_cat(x, emb):
    sin_emb, cos_emb = emb.tensor_split(2, -1)
    return x * cos_emb + rot(x) * sin_emb


def eva02_rope(vectors, positions):
    sin_emb, cos_emb = build_rotary_pos_embed(torch.as_tensor(positions), dim=vectors.shape[-1])
    emb = torch.cat([sin_emb, cos_emb], dim=-1)  # RotaryEmbeddingCat.get_embed
    return apply_rot_embed_cat(vectors, emb).to(vectors.dtype)


PORTS = [
    port(
        eva02_rope,
        project="timm",
        source="timm/layers/pos_embed_sincos.py: RotaryEmbeddingCat(in_pixels=False) + apply_rot_embed_cat (EVA-02)",
        cli="--axial --layout interleaved --width 64",
        scaling={"rope_type": "axial", "axial_frequencies": "shared"},
        layout="interleaved",
        width=64,
    ),
]
