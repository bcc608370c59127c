r"""Liger kernel, ``src/liger_kernel/ops/rope.py`` (``LigerRopeFunction`` and its Triton ``_triton_rope``) and
``src/liger_kernel/transformers/rope.py`` (``liger_rotary_pos_emb``, the drop-in for transformers'
``apply_rotary_pos_emb``).

What matters. ``liger_rotary_pos_emb(q, k, cos, sin, position_ids=None, unsqueeze_dim=1)``: ``q``, ``k`` ``(batch,
heads, seq, head_dim)``, ``cos``/``sin`` transformers' ``(1 or batch, seq, head_dim)`` (``cat(freqs, freqs)``); the
kernel transposes q and k to ``(batch, seq, heads, head_dim)`` and, per row, reads only the **first half** of the
cos/sin row and turns the pairs ``(i, i + head_dim/2)`` (half layout): ``q1 cos - q2 sin``, ``q2 cos + q1 sin``. The
port writes the kernel's arithmetic in torch (the Triton kernel needs a GPU)."""

import torch

from . import port


def _triton_rope(x, cos, sin):
    # x (batch, seq, heads, head_dim); cos, sin (batch or 1, seq, head_dim): the first half of each row
    h = x.shape[-1] // 2
    c, s = cos[..., :h][:, :, None, :], sin[..., :h][:, :, None, :]
    x1, x2 = x[..., :h], x[..., h:]
    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1).to(x.dtype)


def liger_rotary_pos_emb(q, k, cos, sin, position_ids=None, unsqueeze_dim=1):
    qt, kt = q.transpose(1, 2), k.transpose(1, 2)
    return _triton_rope(qt, cos, sin).transpose(1, 2), _triton_rope(kt, cos, sin).transpose(1, 2)


PORTS = [
    port(
        liger_rotary_pos_emb,
        project="Liger kernel",
        source="src/liger_kernel/transformers/rope.py: liger_rotary_pos_emb (LigerRopeFunction's kernel in torch)",
        cli="--call q,k,cos,sin@bhsd --layout half",
        call="q,k,cos,sin@bhsd",
        layout="half",
    ),
]
