r"""FLUX (black-forest-labs/flux), ``src/flux/math.py`` (``rope``, ``apply_rope``) and ``src/flux/modules/layers.py``
(``EmbedND``).

What matters. ``rope(pos, dim, theta)``: ``omega = 1 / theta**(arange(0, dim, 2, float64) / dim)`` (a ladder over
the axis's own ``dim``), float64 angles ``pos * omega``, stored as 2x2 rotation matrices ``[[cos, -sin], [sin,
cos]]`` then ``.float()``. ``EmbedND(dim, theta, axes_dim)``: one ladder per axis of the position ids ``(batch, tokens,
3)``, concatenated along the pairs: FLUX.1 has ``theta = 10000``, ``axes_dim = [16, 56, 56]`` (8, 28 and 28 pairs;
head width 128). ``apply_rope(xq, xk, freqs_cis)``: ``xq.float()`` viewed as pairs ``(2i, 2i+1)`` (interleaved), each
multiplied by its matrix, ``type_as(xq)``."""

import torch

from . import port


def rope(pos, dim, theta):
    assert dim % 2 == 0
    scale = torch.arange(0, dim, 2, dtype=torch.float64, device=pos.device) / dim
    omega = 1.0 / (theta**scale)
    out = torch.einsum("...n,d->...nd", pos, omega)
    out = torch.stack([torch.cos(out), -torch.sin(out), torch.sin(out), torch.cos(out)], dim=-1)
    out = out.unflatten(-1, (2, 2))  # "b n d (i j) -> b n d i j"
    return out.float()


class EmbedND:
    def __init__(self, dim, theta, axes_dim):
        self.dim, self.theta, self.axes_dim = dim, theta, axes_dim

    def __call__(self, ids):
        n_axes = ids.shape[-1]
        emb = torch.cat([rope(ids[..., i], self.axes_dim[i], self.theta) for i in range(n_axes)], dim=-3)
        return emb.unsqueeze(1)


def apply_rope(xq, xk, freqs_cis):
    xq_ = xq.float().reshape(*xq.shape[:-1], -1, 1, 2)
    xk_ = xk.float().reshape(*xk.shape[:-1], -1, 1, 2)
    xq_out = freqs_cis[..., 0] * xq_[..., 0] + freqs_cis[..., 1] * xq_[..., 1]
    xk_out = freqs_cis[..., 0] * xk_[..., 0] + freqs_cis[..., 1] * xk_[..., 1]
    return xq_out.reshape(*xq.shape).type_as(xq), xk_out.reshape(*xk.shape).type_as(xk)


AXES_DIM = [16, 56, 56]


def embed_nd(vectors, positions):
    # the ids FLUX builds are float (img_ids = zeros, then + arange): the audit's integer positions as floats
    pe = EmbedND(128, 10000, AXES_DIM)(torch.as_tensor(positions)[None].double())  # (1, 1, tokens, 64, 2, 2)
    q = vectors[None, None]  # (batch, heads, tokens, dim)
    out, _ = apply_rope(q, q, pe)
    return out[0, 0]


PORTS = [
    port(
        embed_nd,
        project="FLUX",
        source="src/flux/modules/layers.py: EmbedND(dim=128, theta=10000, "
        "axes_dim=[16, 56, 56]) + src/flux/math.py: rope, apply_rope",
        cli='--scaling \'{"rope_type": "axes_dim", "axes_dim": [16, 56, 56]}\' --layout interleaved --width 128',
        scaling={"rope_type": "axes_dim", "axes_dim": AXES_DIM},
        layout="interleaved",
        width=128,
    ),
]
