r"""diffusers, ``src/diffusers/models/embeddings.py`` (``get_1d_rotary_pos_embed``, ``apply_rotary_emb``,
``get_3d_rotary_pos_embed``: CogVideoX) and ``src/diffusers/models/transformers/transformer_flux.py``
(``FluxPosEmbed``).

What matters. ``get_1d_rotary_pos_embed(dim, pos, theta, use_real, linear_factor, ntk_factor,
repeat_interleave_real, freqs_dtype=float32)``: ``theta * ntk_factor``, ``1 / theta**(arange(0, dim, 2)[: dim // 2]
/ dim) / linear_factor`` in ``freqs_dtype``, ``outer(pos, freqs)``; ``use_real`` with ``repeat_interleave_real``:
cos and sin each repeated twice (interleaved pairs), without: ``cat([cos, cos])`` (half layout); returned
``.float()``. ``apply_rotary_emb(x, (cos, sin), use_real_unbind_dim=-1)``: ``x`` ``(batch, heads, seq, dim)``, pairs
``(2i, 2i+1)`` (``-1``, Flux, CogVideoX) or halves (``-2``: Stable Audio, CogView4), ``x.float() * cos +
x_rotated.float() * sin``. ``FluxPosEmbed(theta, axes_dim)``: ``ids.float()`` (float32 positions) then one
``get_1d_rotary_pos_embed`` per axis with ``freqs_dtype=float64`` (off MPS), concatenated: per-axis ladders
``axes_dim = [16, 56, 56]``. ``get_3d_rotary_pos_embed(embed_dim, ...)``: axes t, h, w with ``embed_dim // 4``,
``embed_dim // 8 * 3``, ``embed_dim // 8 * 3`` channels (CogVideoX: head 64, ``[16, 24, 24]``), float32, interleaved;
``grid_type="slice"`` (CogVideoX 1.5) takes integer grids ``arange``."""

import torch

from . import port


def get_1d_rotary_pos_embed(dim, pos, theta=10000.0, use_real=False, linear_factor=1.0, ntk_factor=1.0,
                            repeat_interleave_real=True, freqs_dtype=torch.float32):  # fmt: skip
    assert dim % 2 == 0
    if isinstance(pos, int):
        pos = torch.arange(pos)
    theta = theta * ntk_factor
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2, dtype=freqs_dtype, device=pos.device)[: (dim // 2)] / dim))
    freqs = freqs / linear_factor
    freqs = torch.outer(pos, freqs)
    if use_real and repeat_interleave_real:
        return freqs.cos().repeat_interleave(2, dim=1).float(), freqs.sin().repeat_interleave(2, dim=1).float()
    if use_real:
        return torch.cat([freqs.cos(), freqs.cos()], dim=-1).float(), torch.cat(
            [freqs.sin(), freqs.sin()], dim=-1
        ).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def apply_rotary_emb(x, freqs_cis, use_real=True, use_real_unbind_dim=-1):
    cos, sin = freqs_cis
    cos, sin = cos[None, None], sin[None, None]
    if use_real_unbind_dim == -1:
        x_real, x_imag = x.reshape(*x.shape[:-1], -1, 2).unbind(-1)
        x_rotated = torch.stack([-x_imag, x_real], dim=-1).flatten(3)
    elif use_real_unbind_dim == -2:
        x_real, x_imag = x.reshape(*x.shape[:-1], 2, -1).unbind(-2)
        x_rotated = torch.cat([-x_imag, x_real], dim=-1)
    else:
        raise ValueError(f"`use_real_unbind_dim={use_real_unbind_dim}` but should be -1 or -2.")
    return (x.float() * cos + x_rotated.float() * sin).to(x.dtype)


class FluxPosEmbed:
    def __init__(self, theta, axes_dim):
        self.theta, self.axes_dim = theta, axes_dim

    def __call__(self, ids):
        n_axes = ids.shape[-1]
        cos_out, sin_out = [], []
        pos = ids.float()
        freqs_dtype = torch.float64  # not MPS, not NPU
        for i in range(n_axes):
            cos, sin = get_1d_rotary_pos_embed(
                self.axes_dim[i], pos[:, i], theta=self.theta, repeat_interleave_real=True, use_real=True,
                freqs_dtype=freqs_dtype,
            )  # fmt: skip
            cos_out.append(cos)
            sin_out.append(sin)
        return torch.cat(cos_out, dim=-1), torch.cat(sin_out, dim=-1)


def flux_pos_embed(vectors, positions):
    cos, sin = FluxPosEmbed(10000, [16, 56, 56])(torch.as_tensor(positions))
    return apply_rotary_emb(vectors[None, None], (cos, sin))[0, 0]


def cogvideox_3d(vectors, positions):
    r"""``get_3d_rotary_pos_embed(embed_dim=64, grid_type="slice")``'s per-axis tables, the rows of the positions
    ``(t, h, w)`` picked as ``combine_time_height_width`` lays them out, then ``apply_rotary_emb``."""
    d = vectors.shape[-1]
    dim_t, dim_h, dim_w = d // 4, d // 8 * 3, d // 8 * 3
    p = torch.as_tensor(positions)
    grids = [torch.arange(int(p[:, a].max()) + 1, dtype=torch.float32) for a in range(3)]
    tables = [
        get_1d_rotary_pos_embed(n, g, theta=10000, use_real=True)
        for n, g in zip((dim_t, dim_h, dim_w), grids, strict=True)
    ]
    cos = torch.cat([tables[a][0][p[:, a]] for a in range(3)], dim=-1)
    sin = torch.cat([tables[a][1][p[:, a]] for a in range(3)], dim=-1)
    return apply_rotary_emb(vectors[None, None], (cos, sin))[0, 0]


def stable_audio_1d(vectors, positions):
    # get_1d_rotary_pos_embed(use_real=True, repeat_interleave_real=False) + apply_rotary_emb(use_real_unbind_dim=-2)
    table = get_1d_rotary_pos_embed(vectors.shape[-1], positions.float(), use_real=True, repeat_interleave_real=False)
    return apply_rotary_emb(vectors[None, None], table, use_real_unbind_dim=-2)[0, 0]


def flux_1d_interleaved(vectors, positions):
    table = get_1d_rotary_pos_embed(vectors.shape[-1], positions.float(), use_real=True)
    return apply_rotary_emb(vectors[None, None], table)[0, 0]


SRC = "src/diffusers/models/embeddings.py"
PORTS = [
    port(
        flux_pos_embed,
        project="diffusers",
        source="src/diffusers/models/transformers/transformer_flux.py: "
        "FluxPosEmbed(theta=10000, axes_dim=[16, 56, 56]) + embeddings.py: apply_rotary_emb",
        cli='--scaling \'{"rope_type": "axes_dim", "axes_dim": [16, 56, 56]}\' --layout interleaved --width 128',
        scaling={"rope_type": "axes_dim", "axes_dim": [16, 56, 56]},
        layout="interleaved",
        width=128,
    ),
    port(
        cogvideox_3d,
        project="diffusers",
        source=f"{SRC}: get_3d_rotary_pos_embed(embed_dim=64, grid_type='slice') + apply_rotary_emb",
        cli='--scaling \'{"rope_type": "axes_dim", "axes_dim": [16, 24, 24]}\' --layout interleaved --width 64',
        scaling={"rope_type": "axes_dim", "axes_dim": [16, 24, 24]},
        layout="interleaved",
        width=64,
    ),
    port(
        stable_audio_1d,
        project="diffusers",
        source=f"{SRC}: get_1d_rotary_pos_embed(use_real=True, "
        "repeat_interleave_real=False) + apply_rotary_emb(use_real_unbind_dim=-2)",
        cli="--call vectors,positions --layout half",
        call="vectors,positions",
        layout="half",
    ),
    port(
        flux_1d_interleaved,
        project="diffusers",
        source=f"{SRC}: get_1d_rotary_pos_embed(use_real=True) + apply_rotary_emb",
        cli="--call vectors,positions --layout interleaved",
        call="vectors,positions",
        layout="interleaved",
    ),
]
