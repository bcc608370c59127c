r"""TransformerEngine, ``transformer_engine/pytorch/attention/rope.py`` (``RotaryPositionEmbedding``,
``_rotate_half``, ``_apply_rotary_pos_emb_base``: the unfused ``apply_rotary_pos_emb``).

What matters. ``inv_freq = 1 / rotary_base**(arange(0, dim, 2, float32) / dim)``; ``forward(max_seq_len,
offset=0)``: float32 positions ``arange(max_seq_len) + offset``, returned as *angles* ``(seq, 1, 1, dim)``
(``cat(freqs, freqs)``, or each repeated twice when ``interleaved``). ``seq_len_interpolation_factor`` divides the
positions only when ``pretrained_max_position_embeddings`` is also given (then by the factor up to ``pretrained *
factor`` tokens, and by ``max_seq_len / pretrained`` beyond): given alone, as its docstring invites ("If not None,
discrete positions will be interpolated by this factor"), it is ignored (a real finding: the module computes plain
RoPE where linear scaling is declared). ``_apply_rotary_pos_emb_base(t, freqs)``: ``cos(freqs)``, ``sin(freqs)``
cast to ``t``'s dtype ("cos/sin first then dtype conversion for better precision"), the first ``freqs.shape[-1]``
channels rotated."""

import torch

from . import port

_MODULES: dict = {}


class RotaryPositionEmbedding:
    def __init__(self, dim, rotary_percent=1.0, seq_len_interpolation_factor=None,
                 pretrained_max_position_embeddings=None, rotary_base=10000.0, interleaved=False):  # fmt: skip
        if rotary_percent < 1.0:
            dim = int(dim * rotary_percent)
        self.seq_len_interpolation_factor = seq_len_interpolation_factor
        self.inv_freq = 1.0 / (rotary_base ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
        self.pretrained_max_position_embeddings = pretrained_max_position_embeddings
        self.interleaved = interleaved

    def forward(self, max_seq_len, offset=0):
        seq = torch.arange(max_seq_len, dtype=self.inv_freq.dtype) + offset
        if self.pretrained_max_position_embeddings is not None and self.seq_len_interpolation_factor is not None:
            if max_seq_len > self.pretrained_max_position_embeddings * self.seq_len_interpolation_factor:
                seq *= 1 / (max_seq_len / self.pretrained_max_position_embeddings)
            else:
                seq *= 1 / self.seq_len_interpolation_factor
        freqs = torch.einsum("i , j -> i j", seq, self.inv_freq)
        if not self.interleaved:
            emb = torch.cat((freqs, freqs), dim=-1)
        else:
            emb = torch.stack((freqs.view(-1, 1), freqs.view(-1, 1)), dim=-1).view(freqs.shape[0], -1)
        return emb.reshape(emb.size(0), 1, 1, emb.size(1))


def _rotate_half(x, interleaved):
    if not interleaved:
        x1, x2 = torch.chunk(x, 2, dim=-1)
        return torch.cat((-x2, x1), dim=-1)
    x1 = x[:, :, :, ::2]
    x2 = x[:, :, :, 1::2]
    x_new = torch.stack((-x2, x1), dim=-1)
    return x_new.view(x_new.shape[0], x_new.shape[1], x_new.shape[2], -1)


def _apply_rotary_pos_emb_base(t, freqs, interleaved=False):
    # tensor_format "sbhd": t (seq, batch, heads, dim), freqs (seq, 1, 1, dim) already sliced to the rows used
    cos_ = torch.cos(freqs).to(t.dtype)
    sin_ = torch.sin(freqs).to(t.dtype)
    rot_dim = freqs.shape[-1]
    t, t_pass = t[..., :rot_dim], t[..., rot_dim:]
    t = (t * cos_) + (_rotate_half(t, interleaved) * sin_)
    return torch.cat((t, t_pass), dim=-1)


def _apply(vectors, positions, **kw):
    key = (vectors.shape[-1], tuple(sorted(kw.items())))
    if key not in _MODULES:
        _MODULES[key] = RotaryPositionEmbedding(vectors.shape[-1], **kw)
    freqs = _MODULES[key].forward(int(positions.max()) + 1)[positions]  # the rows of the positions
    out = _apply_rotary_pos_emb_base(vectors[:, None, None, :], freqs, interleaved=kw.get("interleaved", False))
    return out[:, 0, 0, :]


def rope_offset(vectors, offset):
    # forward(max_seq_len, offset): the rows at offset .. offset + seq - 1, as the module computes them
    key = (vectors.shape[-1], ())
    if key not in _MODULES:
        _MODULES[key] = RotaryPositionEmbedding(vectors.shape[-1])
    freqs = _MODULES[key].forward(vectors.shape[0], offset)
    return _apply_rotary_pos_emb_base(vectors[:, None, None, :], freqs)[:, 0, 0, :]


def rope(vectors, positions):
    return _apply(vectors, positions)


def rope_interleaved(vectors, positions):
    return _apply(vectors, positions, interleaved=True)


def interpolation_factor_alone(vectors, positions):
    return _apply(vectors, positions, seq_len_interpolation_factor=4)


def interpolation_with_pretrained(vectors, positions):
    # both given, at lengths up to pretrained * factor = 16384: fixed linear scaling
    return _apply(vectors, positions, seq_len_interpolation_factor=4, pretrained_max_position_embeddings=4096)


def confirm_factor_ignored():
    r"""Independent NumPy: with linear scaling by 4, pair 0 turns by m / 4 rad; the module turns it by m rad."""
    import numpy as np

    m = 3
    x = np.zeros((1, 64))
    x[0, 0] = 1.0
    declared = np.cos(m / 4.0)  # linear scaling: angle m theta_0 / factor, theta_0 = 1
    plain = np.cos(float(m))
    got = interpolation_factor_alone(torch.tensor(x), torch.tensor([m])).numpy()[0, 0]
    assert abs(got - plain) < 1e-6 and abs(got - declared) > 0.5


SRC = "transformer_engine/pytorch/attention/rope.py"
LINEAR4 = {"rope_type": "linear", "factor": 4.0}
PORTS = [
    port(
        rope_offset,
        project="TransformerEngine",
        source=f"{SRC}: RotaryPositionEmbedding.forward(max_seq_len, offset) + apply_rotary_pos_emb",
        cli="--call vectors,offset --layout half --max-position 65535",
        call="vectors,offset",
        layout="half",
        max_position=65535,
    ),
    port(
        rope,
        project="TransformerEngine",
        source=f"{SRC}: RotaryPositionEmbedding + apply_rotary_pos_emb (unfused, sbhd)",
        cli="--call vectors,positions --layout half --max-position 65535",
        call="vectors,positions",
        layout="half",
        max_position=65535,
    ),
    port(
        rope_interleaved,
        project="TransformerEngine",
        source=f"{SRC}: RotaryPositionEmbedding(interleaved=True)",
        cli="--call vectors,positions --layout interleaved --max-position 65535",
        call="vectors,positions",
        layout="interleaved",
        max_position=65535,
    ),
    port(
        interpolation_factor_alone,
        {"wrong-scaling"},
        project="TransformerEngine",
        source=f"{SRC}: RotaryPositionEmbedding(seq_len_interpolation_factor=4) without "
        "pretrained_max_position_embeddings",
        cli="--call vectors,positions --layout half --scaling "
        '\'{"rope_type": "linear", "factor": 4}\' --max-position 65535',
        call="vectors,positions",
        layout="half",
        scaling=LINEAR4,
        max_position=65535,
        confirm=confirm_factor_ignored,
    ),
    port(
        interpolation_with_pretrained,
        project="TransformerEngine",
        source=f"{SRC}: RotaryPositionEmbedding(seq_len_interpolation_factor=4, pretrained_max_position_embeddings="
        "4096)",
        cli='--call vectors,positions --layout half --scaling \'{"rope_type": "linear", "factor": 4}\' '
        "--max-position 16383",
        call="vectors,positions",
        layout="half",
        scaling=LINEAR4,
        max_position=16383,
    ),
]
