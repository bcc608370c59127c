r"""SAM 2, ``sam2/modeling/position_encoding.py`` (``init_t_xy``, ``compute_axial_cis``, ``reshape_for_broadcast``,
``apply_rotary_enc``).

What matters. ``compute_axial_cis(dim, end_x, end_y, theta=10000)``: ``freqs = 1 / theta**(arange(0, dim,
4)[: dim // 4].float() / dim)`` for **both** axes (shared frequencies ``theta**(-4j/dim)``), ``t_x = t % end_x``
(column), ``t_y = t // end_x`` (row), ``polar`` of ``outer(t_x, freqs)`` and ``outer(t_y, freqs)``, concatenated:
the first ``dim/4`` pairs turn with **x** (the column), the rest with y. ``apply_rotary_enc(xq, xk, freqs_cis)``:
complex pairs ``(2i, 2i+1)`` (interleaved), float32, ``type_as``. The port takes positions ``(x, y)`` in that order:
axis 0 is x."""

import torch

from . import port


def compute_axial_cis_at(dim, t_x, t_y, theta=10000.0):
    r"""``compute_axial_cis`` at given coordinates (its ``init_t_xy`` grid rows)."""
    freqs_x = 1.0 / (theta ** (torch.arange(0, dim, 4)[: (dim // 4)].float() / dim))
    freqs_y = 1.0 / (theta ** (torch.arange(0, dim, 4)[: (dim // 4)].float() / dim))
    freqs_x = torch.outer(t_x.float(), freqs_x)
    freqs_y = torch.outer(t_y.float(), freqs_y)
    freqs_cis_x = torch.polar(torch.ones_like(freqs_x), freqs_x)
    freqs_cis_y = torch.polar(torch.ones_like(freqs_y), freqs_y)
    return torch.cat([freqs_cis_x, freqs_cis_y], dim=-1)


def apply_rotary_enc(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = freqs_cis.view(*([1] * (xq_.ndim - 2)), *freqs_cis.shape)  # reshape_for_broadcast
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


def axial_rope(vectors, positions):
    p = torch.as_tensor(positions)
    cis = compute_axial_cis_at(vectors.shape[-1], p[:, 0], p[:, 1])
    out, _ = apply_rotary_enc(vectors[None, None], vectors[None, None], cis)
    return out[0, 0]


PORTS = [
    port(
        axial_rope,
        project="SAM 2",
        source="sam2/modeling/position_encoding.py: compute_axial_cis + apply_rotary_enc",
        cli="--axial --layout interleaved --width 64",
        scaling={"rope_type": "axial", "axial_frequencies": "shared"},
        layout="interleaved",
        width=64,
    ),
]
