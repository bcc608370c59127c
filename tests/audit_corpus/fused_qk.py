r"""Fused query/key application with a cos/sin cache supplied by the caller (Hugging Face's
``apply_rotary_pos_emb(q, k, cos, sin)``): vectors ``(batch, heads, tokens, width)``, cache
``(batch, tokens, width)``."""

import numpy as np

from . import case


def _rotate_half(x):
    h = x.shape[-1] // 2
    return np.concatenate([-x[..., h:], x[..., :h]], axis=-1)


def apply_qk(q, k, cos, sin):
    cos, sin = cos[:, None], sin[:, None]  # broadcast over heads
    return q * cos + _rotate_half(q) * sin, k * cos + _rotate_half(k) * sin


def apply_qk_cross_wired(q, k, cos, sin):
    # Bug: the key's rotate_half term reads the query (a fused kernel's pointer mix-up).
    cos, sin = cos[:, None], sin[:, None]
    return q * cos + _rotate_half(q) * sin, k * cos + _rotate_half(q) * sin


def apply_qk_gptj(q, k, cos, sin):
    # Interleaved application with a cache whose values repeat per channel (cos_interleaved).
    def rot(x):
        y = np.empty_like(x)
        y[..., 0::2], y[..., 1::2] = -x[..., 1::2], x[..., 0::2]
        return y

    cos, sin = cos[:, None], sin[:, None]
    return q * cos + rot(q) * sin, k * cos + rot(k) * sin


CASES = [
    case(apply_qk, (), style="fused (q, k) with an HF cache", layout="half", call="q,k,cos,sin@bhsd"),
    case(
        apply_qk_cross_wired,
        {"qk-cross-wired"},
        style="fused (q, k) with an HF cache",
        layout="half",
        call="q,k,cos,sin@bhsd",
    ),
    case(
        apply_qk_gptj,
        (),
        style="fused (q, k), GPT-J cache",
        layout="interleaved",
        call="q,k,cos_interleaved,sin_interleaved@bhsd",
    ),
]
