r"""Qwen2.5-VL's vision encoder, as released in transformers: ``src/transformers/models/qwen2_5_vl/
modeling_qwen2_5_vl.py`` (``Qwen2_5_VisionRotaryEmbedding``, ``Qwen2_5_VisionTransformerPretrainedModel.rot_pos_emb``,
``apply_rotary_pos_emb_vision``).

What matters. ``Qwen2_5_VisionRotaryEmbedding(head_dim // 2)``: ``inv_freq = 1 / theta**(arange(0, dim, 2, float) /
dim)`` over **half** the head (``head_dim / 4`` frequencies ``theta**(-4j/head_dim)``), ``forward(seqlen)`` the
float32 angles of ``arange(seqlen)``; ``rot_pos_emb``: the (h, w) position ids of each patch index that table and
``flatten(1)``: ``head_dim / 4`` angles of the row, then the same frequencies on the column (shared-frequency
axial); the encoder's ``cat((emb, emb))`` and ``rotate_half`` in ``apply_rotary_pos_emb_vision`` (float32): pairs
``(i, i + head_dim/2)`` (half layout)."""

import torch

from . import port


class VisionRotaryEmbedding:
    def __init__(self, dim, theta=10000.0):
        self.inv_freq = 1.0 / (theta ** (torch.arange(0, dim, 2, dtype=torch.float) / dim))

    def __call__(self, seqlen):
        seq = torch.arange(seqlen, dtype=self.inv_freq.dtype)
        return torch.outer(seq, self.inv_freq)


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb_vision(q, k, cos, sin):
    orig_q_dtype, orig_k_dtype = q.dtype, k.dtype
    q, k = q.float(), k.float()
    cos, sin = cos.unsqueeze(-2).float(), sin.unsqueeze(-2).float()
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed.to(orig_q_dtype), k_embed.to(orig_k_dtype)


def vision_rope(vectors, positions):
    pos_ids = torch.as_tensor(positions)  # (patches, 2): h, w
    rotary_pos_emb_full = VisionRotaryEmbedding(vectors.shape[-1] // 2)(int(pos_ids.max()) + 1)
    rotary_pos_emb = rotary_pos_emb_full[pos_ids].flatten(1)
    emb = torch.cat((rotary_pos_emb, rotary_pos_emb), dim=-1)
    q = vectors[:, None, :]  # (seq, heads, head_dim)
    out, _ = apply_rotary_pos_emb_vision(q, q, emb.cos(), emb.sin())
    return out[:, 0, :]


PORTS = [
    port(
        vision_rope,
        project="Qwen2.5-VL",
        source="transformers/models/qwen2_5_vl/modeling_qwen2_5_vl.py: "
        "Qwen2_5_VisionRotaryEmbedding + rot_pos_emb + apply_rotary_pos_emb_vision",
        cli="--axial --layout half --width 80",
        scaling={"rope_type": "axial", "axial_frequencies": "shared"},
        layout="half",
        width=80,
    ),
]
