r"""torch versions: Hugging Face's rotary module with a float32 cache, Meta's complex code, and their bugs."""

import torch

from . import case


def _rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


def _hf_cos_sin(positions, dim, base, dtype):
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))  # float32
    freqs = positions.float()[:, None] * inv_freq[None, :]  # float32 angles
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos().to(dtype), emb.sin().to(dtype)


def torch_hf_rope(vectors, positions, base=10000.0):
    cos, sin = _hf_cos_sin(positions, vectors.shape[-1], base, vectors.dtype)
    return vectors * cos + _rotate_half(vectors) * sin


def torch_hf_rope_bf16(vectors, positions, base=10000.0):
    # Bug: the module was cast with model.to(torch.bfloat16): inv_freq and the angles in bfloat16.
    dim = vectors.shape[-1]
    inv_freq = (1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))).to(torch.bfloat16)
    freqs = positions.to(torch.bfloat16)[:, None] * inv_freq[None, :]
    emb = torch.cat((freqs, freqs), dim=-1).float()
    return vectors * emb.cos().to(vectors.dtype) + _rotate_half(vectors) * emb.sin().to(vectors.dtype)


def torch_meta_qk(xq, xk, freqs_cis):
    # Meta's apply_rotary_emb: (batch, tokens, heads, width), freqs_cis (tokens, width/2) complex.
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    f = freqs_cis.view(1, xq_.shape[1], 1, xq_.shape[-1])
    xq_out = torch.view_as_real(xq_ * f).flatten(3)
    xk_out = torch.view_as_real(xk_ * f).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


def torch_meta_rope(vectors, positions, base=10000.0):
    dim = vectors.shape[-1]
    freqs = 1.0 / (base ** (torch.arange(0, dim, 2)[: dim // 2].float() / dim))
    angles = torch.outer(positions.float(), freqs)
    freqs_cis = torch.polar(torch.ones_like(angles), angles)
    x = torch.view_as_complex(vectors.float().reshape(vectors.shape[0], -1, 2))
    return torch.view_as_real(x * freqs_cis).flatten(1).type_as(vectors)


def torch_qk_swapped_outputs(q, k, cos, sin):
    # Bug: the fused kernel writes the key result into the query output and the reverse.
    cos, sin = cos[:, None], sin[:, None]
    return k * cos + _rotate_half(k) * sin, q * cos + _rotate_half(q) * sin


CASES = [
    case(torch_hf_rope, (), style="torch, Hugging Face float32 cache", layout="half"),
    case(torch_hf_rope_bf16, {"low-precision-angles"}, style="torch, bfloat16 module", layout="half"),
    case(torch_meta_rope, (), style="torch, Meta's complex code (float32 angles)", layout="interleaved"),
    case(torch_meta_qk, (), style="torch, Meta's apply_rotary_emb", layout="interleaved", call="q,k,freqs_cis@bshd"),
    case(
        torch_qk_swapped_outputs,
        {"qk-cross-wired"},
        style="torch, fused (q, k)",
        layout="half",
        call="q,k,cos,sin@bhsd",
    ),
]
