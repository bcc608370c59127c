r"""Ports of the public xPos implementations, written here from reading them (no code copied), as functions
``fn(q, k, positions) -> (q_rotated, k_rotated)`` on torch tensors ``(tokens, width)``: what the kernel tests
compare numeric.xpos with, and what the audit must pass.

- flash-attn ``flash_attn/layers/rotary.py``, ``RotaryEmbedding(dim, base, interleaved, scale_base)``: a cache over
  ``seqlen`` positions, ``scale = ((arange(0, d, 2) + 0.4 d)/(1.4 d)) ** ((arange(seqlen) - seqlen // 2)/scale_base)``,
  ``cos * scale`` and ``sin * scale`` for the query, ``/ scale`` for the key; pairs rotate-half unless
  ``interleaved``. The rows at ``positions`` are read from the cache of ``seqlen = max(positions) + 1``.
- x-transformers ``RotaryEmbedding(dim, use_xpos=True, scale_base)``: ``max_pos = t.max() + 1``, ``power = (t -
  max_pos // 2)/scale_base``, frequencies and scales repeated per pair (``(d r)``: interleaved), the key scaled by
  ``scale ** -1``.
- torchscale ``XPOS(head_dim, scale_base)``: sin/cos of ``arange(L) * 10000**(-j/(d/2))`` and the scale at
  ``arange(-(L // 2 rounded up), ...)`` (``min_pos = -(L + offset) // 2``), interleaved (``duplicate_interleave``,
  ``rotate_every_two``); keys with ``downscale=True`` (the reciprocal).

- lucidrains' rotary-embedding-torch ``RotaryEmbedding(dim, use_xpos=True).rotate_queries_and_keys``: interleaved
  pairs (``rotate_half`` on ``(d r)``), ``power = (t - len(t) // 2)/xpos_scale_base``; the scale laid out with
  ``torch.cat((scale, scale), dim=-1)`` from 0.2.0 (xPos added, December 2022) to 0.7.0, with ``repeat(scale, 'n d ->
  n (d r)', r=2)`` from 0.8.0 (September 2024, "Fix chi scale multiplication"): before, a pair's two channels got
  the scales of two different pairs.

Each computes in float32, as the sources do by default.
"""

from __future__ import annotations


def _torch():
    import torch

    return torch


def _rotate(x, layout: str):
    torch = _torch()
    if layout == "half":
        a, b = x.chunk(2, dim=-1)
        return torch.cat((-b, a), dim=-1)
    a, b = x[..., 0::2], x[..., 1::2]
    return torch.stack((-b, a), dim=-1).flatten(-2)


def _per_channel(t, layout: str):
    r"""A per-pair table ``(tokens, d/2)`` laid out over the channels ``(tokens, d)``."""
    torch = _torch()
    return torch.cat((t, t), dim=-1) if layout == "half" else t.repeat_interleave(2, dim=-1)


def flash_attn(layout: str = "half", base: float = 10000.0, scale_base: float = 512.0):
    r"""flash-attn's ``RotaryEmbedding`` with ``scale_base`` (rotary_dim = head width)."""
    torch = _torch()

    def fn(q, k, positions):
        d = q.shape[-1]
        seqlen = int(positions.max()) + 1
        inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.float32) / d))
        freqs = torch.outer(torch.arange(seqlen, dtype=torch.float32), inv_freq)
        zeta = (torch.arange(0, d, 2, dtype=torch.float32) + 0.4 * d) / (1.4 * d)
        power = (torch.arange(seqlen, dtype=torch.float32) - seqlen // 2) / scale_base
        scale = zeta ** power[:, None]
        cos, sin = torch.cos(freqs), torch.sin(freqs)
        idx = positions.long()
        tables = ((cos * scale)[idx], (sin * scale)[idx]), ((cos / scale)[idx], (sin / scale)[idx])
        out = []
        for x, (c, s) in zip((q, k), tables, strict=True):
            x = x.float()
            out.append(x * _per_channel(c, layout) + _rotate(x, layout) * _per_channel(s, layout))
        return out[0], out[1]

    return fn


def x_transformers(scale_base: float = 512.0, base: float = 10000.0):
    r"""x-transformers' ``RotaryEmbedding(use_xpos=True)`` and ``apply_rotary_pos_emb`` (interleaved pairs)."""
    torch = _torch()

    def fn(q, k, positions):
        d = q.shape[-1]
        t = positions.float()
        max_pos = t.max() + 1
        inv_freq = 1.0 / (base ** (torch.arange(0, d, 2).float() / d))
        freqs = _per_channel(torch.einsum("i,j->ij", t, inv_freq), "interleaved")
        zeta = (torch.arange(0, d, 2) + 0.4 * d) / (1.4 * d)
        power = (t - (max_pos // 2)) / scale_base
        scale = _per_channel(zeta ** power[:, None], "interleaved")

        def apply(x, sc):
            x = x.float()
            return x * freqs.cos() * sc + _rotate(x, "interleaved") * freqs.sin() * sc

        return apply(q, scale), apply(k, scale**-1)

    return fn


def torchscale(scale_base: float = 512.0):
    r"""torchscale's ``XPOS``: queries ``downscale=False``, keys ``downscale=True`` (base 10000, interleaved)."""
    torch = _torch()

    def fn(q, k, positions):
        d = q.shape[-1]
        length = int(positions.max()) + 1
        zeta = (torch.arange(0, d, 2) + 0.4 * d) / (1.4 * d)
        min_pos = -length // 2
        scale = zeta ** torch.arange(min_pos, length + min_pos, 1).to(zeta).div(scale_base)[:, None]
        half = scale.shape[1]
        inv_freq = 1.0 / (10000 ** (torch.arange(0, half) / half))
        angles = torch.einsum("i,j->ij", torch.arange(0, length, dtype=torch.float), inv_freq)
        sin, cos = torch.sin(angles), torch.cos(angles)
        idx = positions.long()

        def apply(x, sc):
            x = x.float()
            s_, c_ = (_per_channel((v * sc)[idx], "interleaved") for v in (sin, cos))
            return x * c_ + _rotate(x, "interleaved") * s_

        return apply(q, scale), apply(k, 1 / scale)

    return fn


def rotary_embedding_torch(version: str = "0.8.0", scale_base: float = 512.0):
    r"""rotary-embedding-torch's ``rotate_queries_and_keys`` (``version`` ``"0.7.0"``: the scale concatenated, the
    bug; ``"0.8.0"``: repeated per pair)."""
    torch = _torch()

    def fn(q, k, positions):
        d = q.shape[-1]
        t = positions.float()
        inv_freq = 1.0 / (10000 ** (torch.arange(0, d, 2)[: d // 2].float() / d))
        freqs = _per_channel(torch.einsum("i,j->ij", t, inv_freq), "interleaved")
        zeta = (torch.arange(0, d, 2) + 0.4 * d) / (1.4 * d)
        power = (t - len(t) // 2) / scale_base
        scale = zeta ** power[:, None]
        scale = torch.cat((scale, scale), dim=-1) if version == "0.7.0" else _per_channel(scale, "interleaved")

        def apply(x, sc):
            x = x.float()
            return x * freqs.cos() * sc + _rotate(x, "interleaved") * freqs.sin() * sc

        return apply(q, scale), apply(k, scale**-1)

    return fn
