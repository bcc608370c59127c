r"""Megatron-core, ``megatron/core/models/common/embeddings/rotary_pos_embedding.py`` (``RotaryEmbedding``) and
``rope_utils.py`` (``_rotate_half``, ``_apply_rotary_pos_emb_bshd``, ``apply_rotary_pos_emb_with_cos_sin``).

What matters. ``inv_freq = 1 / rotary_base**(arange(0, dim, 2, float32) / dim)`` (``dim``: ``kv_channels *
rotary_percent``), ``rope_scaling=True``: Llama 3.1's ``_apply_scaling`` (factor ``rope_scaling_factor``, low 1, high
4, old context 8192). ``get_freqs_non_repeated``: float32 positions ``arange(max_seq_len) + offset``, divided by
``seq_len_interpolation_factor`` if given (linear scaling), times ``inv_freq``; ``get_emb`` returns the *angles*
``(seq, 1, 1, dim)``: ``cat(freqs, freqs)`` (half layout) or each repeated twice (``rotary_interleaved``).
``_apply_rotary_pos_emb_bshd(t, freqs)`` takes those angles, ``cos(freqs) * mscale`` and ``sin(freqs) * mscale``
cast to ``t``'s dtype, ``t * cos + _rotate_half(t) * sin`` on the first ``freqs.shape[-1]`` channels.

``apply_rotary_pos_emb_with_cos_sin(t, cos, sin)``, given cos and sin ``(seq, d_rot / 2)``, without flash-attn
installed: ``freqs = stack([cos, sin], -1).flatten(-2)`` and ``_apply_rotary_pos_emb_bshd(t, freqs)``, which takes
the cosine and sine of *those* values again: every channel is turned by ``cos(theta)`` or ``sin(theta)`` rad, not
``theta`` (a real bug: at position 0, channel 0 comes out as ``cos(1) t_0``; the flash-attn branch is right)."""

import math

import torch

from . import port

_MODULES: dict = {}


class RotaryEmbedding:
    def __init__(self, kv_channels, rotary_percent=1.0, rotary_interleaved=False, seq_len_interpolation_factor=None,
                 rotary_base=10000, rope_scaling=False, rope_scaling_factor=8.0):  # fmt: skip
        dim = kv_channels
        if rotary_percent < 1.0:
            dim = int(dim * rotary_percent)
        self.rotary_interleaved = rotary_interleaved
        self.seq_len_interpolation_factor = seq_len_interpolation_factor
        self.inv_freq = 1.0 / (rotary_base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
        if rope_scaling:
            self.inv_freq = self._apply_scaling(self.inv_freq, factor=rope_scaling_factor)

    def _apply_scaling(self, freqs, factor=8, low_freq_factor=1, high_freq_factor=4,
                       original_max_position_embeddings=8192):  # fmt: skip
        old_context_len = original_max_position_embeddings
        low_freq_wavelen = old_context_len / low_freq_factor
        high_freq_wavelen = old_context_len / high_freq_factor
        wavelen = 2 * math.pi / freqs
        inv_freq_llama = torch.where(wavelen > low_freq_wavelen, freqs / factor, freqs)
        smooth_factor = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
        smoothed = (1 - smooth_factor) * inv_freq_llama / factor + smooth_factor * inv_freq_llama
        is_medium = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
        return torch.where(is_medium, smoothed, inv_freq_llama)

    def get_freqs_non_repeated(self, max_seq_len, offset=0):
        seq = torch.arange(max_seq_len, dtype=self.inv_freq.dtype) + offset
        if self.seq_len_interpolation_factor is not None:
            seq *= 1 / self.seq_len_interpolation_factor
        return torch.outer(seq, self.inv_freq)

    def get_cos_sin(self, max_seq_len, offset=0):
        freqs = self.get_freqs_non_repeated(max_seq_len, offset)
        return torch.cos(freqs), torch.sin(freqs)

    def forward(self, max_seq_len, offset=0):
        freqs = self.get_freqs_non_repeated(max_seq_len, offset)
        if not self.rotary_interleaved:
            emb = torch.cat((freqs, freqs), dim=-1)
        else:
            emb = torch.stack((freqs.view(-1, 1), freqs.view(-1, 1)), dim=-1).view(freqs.shape[0], -1)
        return emb[:, None, None, :]


def _rotate_half(x, rotary_interleaved):
    if not rotary_interleaved:
        x1, x2 = torch.chunk(x, 2, dim=-1)
        return torch.cat((-x2, x1), dim=-1)
    x1 = x[:, :, :, ::2]
    x2 = x[:, :, :, 1::2]
    x_new = torch.stack((-x2, x1), dim=-1)
    return x_new.view(x_new.shape[0], x_new.shape[1], x_new.shape[2], -1)


def _apply_rotary_pos_emb_bshd(t, freqs, rotary_interleaved=False, mscale=1.0):
    if freqs.dim() == t.dim() + 1 and freqs.size(-2) == 1:
        freqs = freqs.squeeze(-2)
    rot_dim = freqs.shape[-1]
    t, t_pass = t[..., :rot_dim], t[..., rot_dim:]
    cos_ = (torch.cos(freqs) * mscale).to(t.dtype)
    sin_ = (torch.sin(freqs) * mscale).to(t.dtype)
    t = (t * cos_) + (_rotate_half(t, rotary_interleaved) * sin_)
    return torch.cat((t, t_pass), dim=-1)


def apply_rotary_pos_emb_with_cos_sin(t, cos, sin, rotary_interleaved=False):
    cos = cos.to(t.dtype)
    sin = sin.to(t.dtype)
    # apply_rotary_emb_flash is None (flash-attn not installed): the fallback
    freqs = torch.stack([cos, sin], dim=-1).flatten(start_dim=-2)
    while freqs.dim() < t.dim():
        freqs = freqs.unsqueeze(1)
    freqs = freqs.expand(t.shape[:-1] + (-1,))
    return _apply_rotary_pos_emb_bshd(t, freqs, rotary_interleaved=rotary_interleaved, mscale=1.0)


def _module(**kw):
    key = tuple(sorted(kw.items()))
    if key not in _MODULES:
        _MODULES[key] = RotaryEmbedding(**kw)
    return _MODULES[key]


def _apply(t, positions, interleaved=False, **kw):
    # GPTModel: rotary_pos_emb = self.rotary_pos_emb(rotary_seq_len); t (seq, batch, heads, dim); the rows of
    # the positions (the port's adapter: the audit's positions are not 0 .. seq - 1)
    rope = _module(kv_channels=t.shape[-1], rotary_interleaved=interleaved, **kw)
    freqs = rope.forward(int(positions.max()) + 1)[positions]  # (tokens, 1, 1, dim)
    return _apply_rotary_pos_emb_bshd(t[:, None, None, :], freqs, rotary_interleaved=interleaved)[:, 0, 0, :]


def rope_half(vectors, positions):
    return _apply(vectors, positions)


def rope_interleaved(vectors, positions):
    return _apply(vectors, positions, interleaved=True)


def rope_llama3(vectors, positions):
    return _apply(vectors, positions, rotary_base=500000, rope_scaling=True, rope_scaling_factor=8.0)


def rope_interpolated(vectors, positions):
    return _apply(vectors, positions, seq_len_interpolation_factor=4.0)


def rope_partial(vectors, positions):
    # rotary_percent 0.5: the first half of the head rotates
    rope = _module(kv_channels=vectors.shape[-1], rotary_percent=0.5)
    freqs = rope.forward(int(positions.max()) + 1)[positions]
    return _apply_rotary_pos_emb_bshd(vectors[:, None, None, :], freqs)[:, 0, 0, :]


def cos_sin_fallback(vectors, cos_pairs, sin_pairs):
    # the caller's cos, sin (seq, d_rot / 2), as the function's docstring asks
    return apply_rotary_pos_emb_with_cos_sin(vectors, cos_pairs, sin_pairs)


def confirm_cos_of_cos():
    r"""Independent NumPy: the fallback's output from the formula the code computes (angles cos(theta) and sin(theta)
    in place of theta): at position 0, e_0 (width 4) gives channel 0 = cos(cos 0) = cos(1), not 1; at position 1 the
    width-2 pair is no rotation (the norm changes)."""
    import numpy as np

    theta = 10000.0 ** (-np.arange(0, 4, 2) / 4)
    cos, sin = np.cos(0 * theta), np.sin(0 * theta)
    freqs = np.stack([cos, sin], -1).reshape(-1)  # [cos t0, sin t0, cos t1, sin t1]
    x = np.array([1.0, 0.0, 0.0, 0.0])
    rot = np.concatenate([-x[2:], x[:2]])
    want = x * np.cos(freqs) + rot * np.sin(freqs)
    assert abs(want[0] - np.cos(1.0)) < 1e-15 and abs(want[0] - 1.0) > 0.4  # RoPE at position 0 is the identity
    t = torch.tensor(x)[None]
    got = cos_sin_fallback(t, torch.tensor(cos)[None], torch.tensor(sin)[None]).numpy()[0]
    assert np.allclose(got, want, atol=1e-12)
    # the audit's example: width 2, position 1, x = (1, 1): the pair turns by cos(1) on one channel and sin(1) on the
    # other, so the norm changes (sqrt(2) in, 1.45309 out)
    a, b = np.cos(1.0), np.sin(1.0)
    y = np.array([np.cos(a) - np.sin(a), np.cos(b) + np.sin(b)])
    assert abs(np.linalg.norm(y) - 1.45309) < 1e-5 and abs(np.linalg.norm(y) - np.sqrt(2)) > 0.03
    got = cos_sin_fallback(torch.ones(1, 2, dtype=torch.float64), torch.tensor([[a]]), torch.tensor([[b]]))
    assert np.allclose(got.numpy()[0], y, atol=1e-12)


SRC = "megatron/core/models/common/embeddings"
LLAMA3 = {
    "rope_type": "llama3",
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
}
PORTS = [
    port(
        rope_half,
        project="Megatron-core",
        call="vectors,positions",
        source=f"{SRC}/rotary_pos_embedding.py: RotaryEmbedding.forward + rope_utils.py: _apply_rotary_pos_emb_bshd",
        cli="--call vectors,positions --layout half --max-position 65535",
        layout="half",
        max_position=65535,
    ),
    port(
        rope_interleaved,
        project="Megatron-core",
        call="vectors,positions",
        source=f"{SRC}/rotary_pos_embedding.py: RotaryEmbedding (rotary_interleaved=True) + _apply_rotary_pos_emb_bshd",
        cli="--call vectors,positions --layout interleaved --max-position 65535",
        layout="interleaved",
        max_position=65535,
    ),
    port(
        rope_llama3,
        project="Megatron-core",
        call="vectors,positions",
        source=f"{SRC}/rotary_pos_embedding.py: RotaryEmbedding._apply_scaling",
        cli="--call vectors,positions --layout half --base 500000 --scaling @llama3.json --max-position 65535",
        layout="half",
        base=500000.0,
        scaling=LLAMA3,
        max_position=65535,
    ),
    port(
        rope_interpolated,
        project="Megatron-core",
        call="vectors,positions",
        source=f"{SRC}/rotary_pos_embedding.py: RotaryEmbedding (seq_len_interpolation_factor=4)",
        cli='--call vectors,positions --layout half --scaling \'{"rope_type": "linear", "factor": 4}\' '
        "--max-position 65535",
        layout="half",
        scaling={"rope_type": "linear", "factor": 4.0},
        max_position=65535,
    ),
    port(
        rope_partial,
        project="Megatron-core",
        call="vectors,positions",
        source=f"{SRC}/rotary_pos_embedding.py: RotaryEmbedding (rotary_percent=0.5)",
        cli="--call vectors,positions --layout half --rotary-dim 32 --max-position 65535",
        layout="half",
        rotary_dim=32,
        max_position=65535,
    ),
    port(
        cos_sin_fallback,
        {"not-norm-preserving"},
        project="Megatron-core",
        source=f"{SRC}/rope_utils.py: apply_rotary_pos_emb_with_cos_sin (no flash-attn)",
        cli="--call vectors,cos_pairs,sin_pairs --layout half",
        call="vectors,cos_pairs,sin_pairs",
        layout="half",
        confirm=confirm_cos_of_cos,
    ),
]
