r"""mistral-inference, ``src/mistral_inference/rope.py`` (``precompute_freqs_cis``, ``apply_rotary_emb``,
``precompute_freqs_cis_2d``: Pixtral's vision encoder).

What matters. ``freqs = 1 / theta**(arange(0, dim, 2)[: dim // 2].float() / dim)``; positions ``arange(end)``;
``polar(ones, outer(t, freqs).float())`` complex64. ``apply_rotary_emb(xq, xk, freqs_cis)``: ``xq`` ``(tokens,
heads, head_dim)`` (the sequences of a batch concatenated), complex pairs ``(2i, 2i+1)`` (interleaved), ``freqs_cis[:,
None, :]``, ``type_as(xq)``; the transformer picks ``freqs_cis[positions]``. ``precompute_freqs_cis_2d(dim, height,
width, theta)``: ``freqs_h = outer(arange(height), freqs[::2])``, ``freqs_w = outer(arange(width), freqs[1::2])``,
concatenated per patch: the first ``dim/4`` pairs turn with the row at ``theta_0, theta_2, ...``, the others with the
column at ``theta_1, theta_3, ...`` (split-frequency axial 2-D, interleaved pairs)."""

import torch

from . import port

_TABLES: dict = {}


def precompute_freqs_cis(dim, end, theta):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = freqs_cis[:, None, :]
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(-2)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(-2)
    return xq_out.type_as(xq), xk_out.type_as(xk)


def precompute_freqs_cis_2d(dim, height, width, theta):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2).float() / dim))
    h = torch.arange(height, device=freqs.device)
    w = torch.arange(width, device=freqs.device)
    freqs_h = torch.outer(h, freqs[::2]).float()
    freqs_w = torch.outer(w, freqs[1::2]).float()
    freqs_2d = torch.cat([freqs_h[:, None, :].repeat(1, width, 1), freqs_w[None, :, :].repeat(height, 1, 1)], dim=-1)
    return torch.polar(torch.ones_like(freqs_2d), freqs_2d)


def _table(dim, end, theta):
    key = (dim, end, theta)
    if key not in _TABLES:
        _TABLES[key] = precompute_freqs_cis(dim, end, theta)
    return _TABLES[key]


def mistral_7b(q, k, positions):
    # Mistral 7B v0.3: rope_theta 1e6; the transformer's freqs_cis[positions], heads axis of one
    qo, ko = apply_rotary_emb(q[:, None, :], k[:, None, :], _table(q.shape[-1], 131072, 1e6)[positions])
    return qo[:, 0], ko[:, 0]


def pixtral_vision(vectors, positions):
    # the vision encoder's patches: positions (patches, 2) = (row, column) in a 64 x 64 grid of patches
    d = vectors.shape[-1]
    key = ("2d", d)
    if key not in _TABLES:
        _TABLES[key] = precompute_freqs_cis_2d(d, 64, 64, 10000.0)
    freqs_cis = _TABLES[key][positions[:, 0], positions[:, 1]]
    out, _ = apply_rotary_emb(vectors[:, None, :], vectors[:, None, :], freqs_cis)
    return out[:, 0]


PORTS = [
    port(
        mistral_7b,
        project="mistral-inference",
        source="src/mistral_inference/rope.py: precompute_freqs_cis + apply_rotary_emb",
        cli="--call q,k,positions --layout interleaved --base 1e6 --max-position 131071",
        call="q,k,positions",
        layout="interleaved",
        base=1e6,
        max_position=131071,
    ),
    port(
        pixtral_vision,
        project="mistral-inference",
        source="src/mistral_inference/rope.py: precompute_freqs_cis_2d + apply_rotary_emb",
        cli='--scaling \'{"rope_type": "axial", "axial_frequencies": "split"}\' --layout interleaved --width 64 '
        "--max-position 63",
        scaling={"rope_type": "axial", "axial_frequencies": "split"},
        layout="interleaved",
        width=64,
        max_position=63,  # the table holds 64 x 64 patches
    ),
]
