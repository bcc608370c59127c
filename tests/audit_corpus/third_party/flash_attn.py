r"""flash-attn, ``flash_attn/layers/rotary.py`` (``RotaryEmbedding``, ``_update_cos_sin_cache``, ``rotate_half``,
``apply_rotary_emb_torch``: the reference of the Triton kernel ``apply_rotary``, same formula).

What matters. ``inv_freq = 1 / base**(arange(0, dim, 2, float32) / dim)``; ``_update_cos_sin_cache(seqlen)``:
positions ``arange(seqlen)`` in float32 when ``pos_idx_in_fp32`` (the default), else in ``inv_freq``'s dtype: a
module cast to bfloat16 (``model.to(torch.bfloat16)``, pure-bf16 training) then has bfloat16 positions and angles
(its docstring: "1995.0 is rounded to 2000.0" -- a real finding when that option is off); ``cos(freqs)``,
``sin(freqs)`` ``(seqlen, dim/2)`` cast to the input's dtype. With ``scale_base`` (xPos): ``scale = (arange(0, dim, 2)
+ 0.4 dim) / (1.4 dim)``, ``power = (arange(seqlen) - seqlen // 2) / scale_base``, the query's table times
``scale**power``, the key's divided by it. ``forward(qkv, seqlen_offset)``: the row index plus ``seqlen_offset`` is
the position. ``apply_rotary_emb_torch(x, cos, sin, interleaved)``: ``x`` ``(batch, seq, heads, dim)``, the first
``2 * cos.shape[-1]`` channels rotated, ``cos`` repeated ``(2 d)`` (half layout) or ``(d 2)`` (interleaved)."""

import torch

from . import port

_MODULES: dict = {}


class RotaryEmbedding:
    def __init__(self, dim, base=10000.0, interleaved=False, scale_base=None, pos_idx_in_fp32=True):
        self.dim, self.base, self.pos_idx_in_fp32 = dim, float(base), pos_idx_in_fp32
        self.inv_freq = self._compute_inv_freq()
        self.interleaved, self.scale_base = interleaved, scale_base
        self.scale = (
            (torch.arange(0, dim, 2, dtype=torch.float32) + 0.4 * dim) / (1.4 * dim) if scale_base is not None else None
        )
        self._seq_len_cached = 0

    def _compute_inv_freq(self):
        return 1.0 / (self.base ** (torch.arange(0, self.dim, 2, dtype=torch.float32) / self.dim))

    def _update_cos_sin_cache(self, seqlen, dtype):
        if seqlen > self._seq_len_cached or self._cos_cached.dtype != dtype:
            self._seq_len_cached = seqlen
            if self.pos_idx_in_fp32:
                t = torch.arange(seqlen, dtype=torch.float32)
                inv_freq = self._compute_inv_freq() if self.inv_freq.dtype != torch.float32 else self.inv_freq
            else:
                t = torch.arange(seqlen, dtype=self.inv_freq.dtype)
                inv_freq = self.inv_freq
            freqs = torch.outer(t, inv_freq)
            if self.scale is None:
                self._cos_cached = torch.cos(freqs).to(dtype)
                self._sin_cached = torch.sin(freqs).to(dtype)
            else:
                power = (torch.arange(seqlen, dtype=self.scale.dtype) - seqlen // 2) / self.scale_base
                scale = self.scale ** power[:, None]
                self._cos_cached = (torch.cos(freqs) * scale).to(dtype)
                self._sin_cached = (torch.sin(freqs) * scale).to(dtype)
                self._cos_k_cached = (torch.cos(freqs) / scale).to(dtype)
                self._sin_k_cached = (torch.sin(freqs) / scale).to(dtype)

    _cos_cached = torch.empty(0)


def rotate_half(x, interleaved=False):
    if not interleaved:
        x1, x2 = x.chunk(2, dim=-1)
        return torch.cat((-x2, x1), dim=-1)
    x1, x2 = x[..., ::2], x[..., 1::2]
    return torch.stack((-x2, x1), dim=-1).flatten(-2)


def apply_rotary_emb_torch(x, cos, sin, interleaved=False):
    ro_dim = cos.shape[-1] * 2
    assert ro_dim <= x.shape[-1]
    if not interleaved:
        cos, sin = torch.cat((cos, cos), dim=-1), torch.cat((sin, sin), dim=-1)  # "... d -> ... 1 (2 d)"
    else:
        cos, sin = cos.repeat_interleave(2, dim=-1), sin.repeat_interleave(2, dim=-1)  # "... d -> ... 1 (d 2)"
    cos, sin = cos[..., None, :], sin[..., None, :]
    return torch.cat([x[..., :ro_dim] * cos + rotate_half(x[..., :ro_dim], interleaved) * sin, x[..., ro_dim:]], -1)


def _module(dim, **kw):
    key = (dim, tuple(sorted(kw.items())))
    if key not in _MODULES:
        _MODULES[key] = RotaryEmbedding(dim, **kw)
    return _MODULES[key]


def rotary_qk(q, k, positions, **kw):
    r"""``forward``'s cache for ``max(positions) + 1`` rows, the rows of the positions (as ``seqlen_offsets`` and the
    row index pick them), q and k in ``(batch, seq, heads, dim)``."""
    rope = _module(q.shape[-1], **kw)
    rope._update_cos_sin_cache(int(positions.max()) + 1, q.dtype)
    cos, sin = rope._cos_cached[positions][None], rope._sin_cached[positions][None]
    cos_k, sin_k = (cos, sin) if rope.scale is None else (rope._cos_k_cached[positions][None],
                                                           rope._sin_k_cached[positions][None])  # fmt: skip
    qo = apply_rotary_emb_torch(q[None, :, None, :], cos, sin, rope.interleaved)
    ko = apply_rotary_emb_torch(k[None, :, None, :], cos_k, sin_k, rope.interleaved)
    return qo[0, :, 0, :], ko[0, :, 0, :]


def rotary_seqlen_offset(q, k, offset):
    r"""``forward(qkv, seqlen_offset=offset)``: the cache grown to ``seqlen + offset`` rows, the rows ``offset ..
    offset + seqlen - 1`` applied (``apply_rotary_emb``'s ``seqlen_offsets``)."""
    rope = _module(q.shape[-1])
    seqlen = q.shape[0]
    rope._update_cos_sin_cache(seqlen + offset, q.dtype)
    cos, sin = rope._cos_cached[offset : offset + seqlen][None], rope._sin_cached[offset : offset + seqlen][None]
    qo = apply_rotary_emb_torch(q[None, :, None, :], cos, sin)
    ko = apply_rotary_emb_torch(k[None, :, None, :], cos, sin)
    return qo[0, :, 0, :], ko[0, :, 0, :]


def rotary(q, k, positions):
    return rotary_qk(q, k, positions)


def rotary_interleaved(q, k, positions):
    return rotary_qk(q, k, positions, interleaved=True)


def xpos(q, k, positions):
    return rotary_qk(q, k, positions, scale_base=512)


def bf16_module_positions_in_bf16(q, k, positions):
    # model.to(torch.bfloat16) with pos_idx_in_fp32=False: inv_freq, positions and angles in bfloat16
    rope = _module(q.shape[-1], pos_idx_in_fp32=False)
    rope.inv_freq = rope._compute_inv_freq().to(torch.bfloat16)
    return rotary_qk(q, k, positions, pos_idx_in_fp32=False)


def confirm_bf16_positions():
    r"""Independent NumPy (ml_dtypes' bfloat16): positions 1001 and 1002 round to the same bfloat16 number, so the
    module turns pair 0 by the same angle at both; float32 positions differ by 1 rad there."""
    import ml_dtypes
    import numpy as np

    bf16 = ml_dtypes.bfloat16
    p = np.array([1001.0, 1002.0]).astype(bf16).astype(np.float64)
    assert p[0] == p[1] == 1000.0
    x = torch.zeros(2, 8, dtype=torch.float64)
    x[:, 0] = 1.0
    out, _ = bf16_module_positions_in_bf16(x, x, torch.tensor([1001, 1002]))
    angle = np.arctan2(out[:, 4].numpy(), out[:, 0].numpy())
    assert abs(angle[0] - angle[1]) < 1e-6  # one angle for two positions
    assert abs(np.angle(np.exp(1j * (1002.0 - 1001.0)))) > 0.9  # float32 positions: 1 rad apart


SRC = "flash_attn/layers/rotary.py"
PORTS = [
    port(
        rotary_seqlen_offset,
        project="flash-attn",
        source=f"{SRC}: RotaryEmbedding.forward(qkv, seqlen_offset=...) (rows at offset + row index)",
        cli="--call q,k,offset --layout half --max-position 65535",
        call="q,k,offset",
        layout="half",
        max_position=65535,
    ),
    port(
        rotary,
        project="flash-attn",
        source=f"{SRC}: RotaryEmbedding + apply_rotary_emb_torch",
        cli="--call q,k,positions --layout half --max-position 65535",
        call="q,k,positions",
        layout="half",
        max_position=65535,
    ),
    port(
        rotary_interleaved,
        project="flash-attn",
        source=f"{SRC}: RotaryEmbedding(interleaved=True)",
        cli="--call q,k,positions --layout interleaved --max-position 65535",
        call="q,k,positions",
        layout="interleaved",
        max_position=65535,
    ),
    port(
        xpos,
        project="flash-attn",
        source=f"{SRC}: RotaryEmbedding(scale_base=512) (xPos)",
        cli='--call q,k,positions --layout half --scaling \'{"rope_type": "xpos", "scale_base": 512}\' '
        "--max-position 2047",
        call="q,k,positions",
        layout="half",
        scaling={"rope_type": "xpos", "scale_base": 512},
        max_position=2047,
    ),
    port(
        bf16_module_positions_in_bf16,
        {"low-precision-angles"},
        project="flash-attn",
        source=f"{SRC}: RotaryEmbedding(pos_idx_in_fp32=False) cast to bfloat16",
        cli="--call q,k,positions --layout half --max-position 65535",
        call="q,k,positions",
        layout="half",
        max_position=65535,
        confirm=confirm_bf16_positions,
    ),
]
