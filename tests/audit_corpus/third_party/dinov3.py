r"""DINOv3, ``dinov3/layers/rope_position_encoding.py`` (``RopePositionEmbedding``: ``_init_weights``, ``forward``)
and ``dinov3/layers/attention.py`` (``rope_rotate_half``, ``rope_apply``).

What matters. ``periods = base**(2 * arange(D_head // 4) / (D_head // 2))`` (``base = 100``); ``forward(H, W)``
with ``normalize_coords="separate"``: patch centres ``arange(0.5, H) / H`` and ``arange(0.5, W) / W``, shifted to
``[-1, 1]`` (``2 c - 1``), **real coordinates**; ``angles = 2 pi * coords[:, :, None] / periods`` ``(HW, 2, D/4)``
flattened (row angles, then column angles: the same frequencies on both axes) and ``tile(2)``; ``rope_apply(x, sin,
cos) = x * cos + rope_rotate_half(x) * sin`` (half layout). At patch ``(h, w)`` of an ``H x W`` grid the row
angle is ``(2 pi / period) (2 (h + 0.5) / H - 1)``: linear in the patch index with a phase at the origin."""

import math

import torch

from . import port


class RopePositionEmbedding:
    def __init__(self, embed_dim, *, num_heads, base=100.0):
        self.D_head = embed_dim // num_heads
        self.base = base
        self.periods = base ** (2 * torch.arange(self.D_head // 4, dtype=torch.float32) / (self.D_head // 2))

    def angles_at(self, coords):
        r"""``forward``'s angles at given coordinates ``(N, 2)`` in ``[-1, 1]`` (its ``2 c - 1`` grid rows)."""
        angles = 2 * math.pi * coords[:, :, None] / self.periods[None, None, :]  # (N, 2, D//4)
        return angles.flatten(1, 2).tile(2)  # (N, D)

    def forward(self, *, H, W):
        coords_h = torch.arange(0.5, H, dtype=torch.float32) / H
        coords_w = torch.arange(0.5, W, dtype=torch.float32) / W
        coords = torch.stack(torch.meshgrid(coords_h, coords_w, indexing="ij"), dim=-1).flatten(0, 1)
        angles = self.angles_at(2.0 * coords - 1.0)
        return torch.sin(angles), torch.cos(angles)


def rope_rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([-x2, x1], dim=-1)


def rope_apply(x, sin, cos):
    return (x * cos) + (rope_rotate_half(x) * sin)


def patches(vectors, positions):
    r"""Patch ``(h, w)`` of a 16 x 16 grid (``forward(H=16, W=16)``'s row ``16 h + w``)."""
    rope = RopePositionEmbedding(vectors.shape[-1], num_heads=1)
    sin, cos = rope.forward(H=16, W=16)
    p = torch.as_tensor(positions)
    row = p[:, 0] * 16 + p[:, 1]
    return rope_apply(vectors, sin[row], cos[row]).to(vectors.dtype)


def coordinates(vectors, positions):
    r"""At real coordinates ``(N, 2)`` in ``[-1, 1]``, as ``forward`` computes them from its grid."""
    rope = RopePositionEmbedding(vectors.shape[-1], num_heads=1)
    angles = rope.angles_at(torch.as_tensor(positions, dtype=torch.float32))
    return rope_apply(vectors, torch.sin(angles), torch.cos(angles)).to(vectors.dtype)


PORTS = [
    port(
        patches,
        project="DINOv3",
        source="dinov3/layers/rope_position_encoding.py: RopePositionEmbedding.forward("
        "H=16, W=16) + dinov3/layers/attention.py: rope_apply",
        cli='--scaling \'{"rope_type": "dinov3", '
        '"patch_grid": [16, 16], "normalize_coords": "separate"}\' --layout half --base 100 --width 64',
        scaling={"rope_type": "dinov3", "patch_grid": [16, 16], "normalize_coords": "separate"},
        layout="half",
        base=100.0,
        width=64,
    ),
    port(
        coordinates,
        project="DINOv3",
        source="dinov3/layers/rope_position_encoding.py: RopePositionEmbedding "
        "(angles at real coordinates) + rope_apply",
        cli='--scaling \'{"rope_type": "dinov3"}\' --layout half --base 100 --width 64',
        scaling={"rope_type": "dinov3"},
        layout="half",
        base=100.0,
        width=64,
    ),
]
