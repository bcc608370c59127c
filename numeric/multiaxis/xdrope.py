r"""HunYuan-VL's XD-RoPE, and the channel-split map transformers 5.24 computes for it.

XD-RoPE (Tencent's HunYuan ``apply_rotary_pos_emb_xdrope``; vLLM's ``XDRotaryEmbedding``): ``xdrope_section``
``[s_0, ..., s_{A-1}]`` (``sum(s) = d/2``, e.g. ``[16, 16, 16, 16]`` for ``d = 128``, axes ``(position, width,
height, image index)``) splits the head's ``d/2`` pairs into consecutive sections, rotate-half: Tencent cuts the
doubled cos/sin table (``cat(freqs, freqs)``) into the chunks ``xdrope_section * 2`` -- the *list* repeated,
``[s_0, ..., s_{A-1}, s_0, ..., s_{A-1}]`` -- chunk ``i`` on axis ``i mod A``, so both channels ``(j, j + d/2)`` of a
pair take one axis; vLLM cuts the ``d/2``-wide table by ``xdrope_section``: the same. It is chunked M-RoPE with
``A`` sections (the scaling key ``xdrope_section`` declares it: :mod:`.scaling`).

transformers 5.24's ``HunYuanVLRotaryEmbedding.recomposition_frequencies`` (``models/hunyuan_vl``) cuts the
doubled table into ``[2 s_0, ..., 2 s_{A-1}]`` -- each section doubled -- chunk ``i`` on axis ``i``: channel ``c``
takes ``theta_{c mod d/2} p[axis(c)]`` and the two channels of a pair fall in different chunks (for
``[16, 16, 16, 16]``: axes 0 and 2 for ``j < 32``, axes 1 and 3 after), so
``(x_j, x_{j+d/2}) -> (x_j cos a - x_{j+d/2} sin a, x_{j+d/2} cos b + x_j sin b)`` is a rotation only where
``a = b``: text tokens (every axis at one position) get 1-D RoPE, image tokens a map that does not keep the norm.
:func:`rope_xdrope` computes that map (to measure it; it is no :class:`MultiaxisRope`, whose pairs turn by one
angle each).

>>> xdrope_channel_axes([1, 1]).tolist()  # d = 4, transformers' chunks: channels 0, 1 on axis 0, 2, 3 on axis 1
[0, 0, 1, 1]
"""

from __future__ import annotations

import mpmath
import numpy as np
from posproof.numeric import _axis_map, _validate
from posproof.numeric.multiaxis.mrope import mrope_sections
from posproof.numeric.sinusoid import inverse_frequencies, inverse_frequencies_mp


def xdrope_channel_axes(mrope_section) -> np.ndarray:
    r"""The axis of each of the ``d = 2 sum(mrope_section)`` channels in transformers 5.24's HunYuan-VL rotary
    (int64 ``(d,)``): consecutive chunks of ``2 s_a``."""
    sections = mrope_sections(mrope_section)
    return np.repeat(np.arange(len(sections), dtype=np.int64), [2 * s for s in sections])


def _checked(vectors, positions, mrope_section):
    x = np.asarray(vectors)
    ch = xdrope_channel_axes(mrope_section)
    if x.ndim < 2 or x.shape[-1] != ch.size:
        raise ValueError(
            f"vectors must be (..., tokens, {ch.size}): mrope_section {list(mrope_section)} covers 2 * {ch.size // 2} "
            f"channels, got shape {x.shape}"
        )
    pos = _axis_map.position_vectors(positions)
    if pos.shape[-1] != int(ch.max()) + 1:
        raise ValueError(f"positions must be (..., tokens, {int(ch.max()) + 1}) (one per section), got {pos.shape}")
    return x, pos, ch


def rope_xdrope(
    vectors, positions, *, mrope_section, inv_freq=None, base: float = 10000.0, attention_factor: float = 1.0
) -> np.ndarray:
    r"""transformers 5.24's HunYuan-VL map in float64: channel ``c`` of ``vectors`` ``(..., tokens, d)`` at position
    vectors ``(..., tokens, A)`` by ``x cos(alpha) + rotate_half(x) sin(alpha)``,
    ``alpha_c = theta_{c mod d/2} p[axis(c)]`` (:func:`xdrope_channel_axes`), ``theta = base**(-2i/d)`` unless
    ``inv_freq`` ``(d/2,)`` is given."""
    x, pos, ch = _checked(vectors, positions, mrope_section)
    d = ch.size
    theta = inverse_frequencies(d, base=base) if inv_freq is None else _validate.finite_array(inv_freq, "inv_freq", 1)
    if theta.shape != (d // 2,):
        raise ValueError(f"inv_freq must have d/2 = {d // 2} entries, got shape {theta.shape}")
    alpha = pos[..., ch] * np.concatenate([theta, theta])  # (..., tokens, d)
    xf = x.astype(np.float64)
    rot = np.concatenate([-xf[..., d // 2 :], xf[..., : d // 2]], axis=-1)
    return attention_factor * (xf * np.cos(alpha) + rot * np.sin(alpha))


def rope_xdrope_mp(vectors, positions, *, mrope_section, inv_freq=None, base=10000, dps: int = 50) -> list:
    r"""The same with mpmath at ``dps`` digits: vectors ``(tokens, d)``, positions ``(tokens, A)``; nested lists."""
    x, pos, ch = _checked(vectors, positions, mrope_section)
    if x.ndim != 2 or pos.ndim != 2 or x.shape[0] != pos.shape[0]:
        raise ValueError(f"vectors (tokens, d) and positions (tokens, A) must agree, got {x.shape}, {pos.shape}")
    d = ch.size
    with mpmath.workdps(_validate.dps(dps)):
        theta = inverse_frequencies_mp(d, base=base, dps=dps) if inv_freq is None else [mpmath.mpf(t) for t in inv_freq]
        if len(theta) != d // 2:
            raise ValueError(f"inv_freq must have d/2 = {d // 2} entries, got {len(theta)}")
        out = []
        for row, p in zip(x.tolist(), pos.tolist(), strict=True):
            v = [mpmath.mpf(t) for t in row]
            new = []
            for c in range(d):
                a = theta[c % (d // 2)] * mpmath.mpf(p[int(ch[c])])
                partner = -v[c + d // 2] if c < d // 2 else v[c - d // 2]
                new.append(v[c] * mpmath.cos(a) + partner * mpmath.sin(a))
            out.append(new)
        return out
