r"""The multi-axis rotation: pair ``i`` of a vector at position vector ``p`` turns by
``theta_i * p[axes[i]] + phase_i`` (float64 through :class:`~posproof.numeric.rotary.RopeTable`, and an mpmath
twin). Every declaration of :mod:`posproof.numeric.multiaxis` is one ``(inv_freq, axes, phase)`` for these two.

>>> import numpy as np
>>> x = np.array([[1.0, 0.0, 1.0, 0.0]])
>>> rope_multiaxis(x, [[0.0, 0.0]], axes=[0, 1], inv_freq=[1.0, 1.0], layout="interleaved",
...                phase=[np.pi / 2, 0.0]).round(12).tolist()  # at the origin pair 0 already turned by pi/2
[[0.0, 1.0, 1.0, 0.0]]
"""

from __future__ import annotations

import mpmath
import numpy as np
from posproof.numeric import _axis_map, _validate
from posproof.numeric._deprecated import old_arguments
from posproof.numeric.multiaxis.layouts import channel_pairs, multiaxis_layout
from posproof.numeric.rotary import RopeTable, rope_table
from posproof.numeric.sinusoid import inverse_frequencies, inverse_frequencies_mp


@old_arguments(positional=("positions", "inv_freq", "axes"))
def multiaxis_angles(positions, *, inv_freq, axes, phase=None) -> np.ndarray:
    r"""``theta_i * p[axes[i]] + phase_i`` for every token and pair: float64 ``(..., tokens, d/2)`` from positions
    ``(..., tokens, A)`` (``phase`` ``(d/2,)``, default none)."""
    return _axis_map.angles(positions, inv_freq, axes, phase)


def rotary_width(width: int, rotary_dim) -> int:
    r"""``rotary_dim`` checked: an even integer in ``[2, width]`` (``width`` when ``None``)."""
    if rotary_dim is None:
        return width
    if isinstance(rotary_dim, (bool, np.bool_)) or not isinstance(rotary_dim, (int, np.integer)):
        raise ValueError(f"rotary_dim must be an even integer in [2, {width}] (the head width), got {rotary_dim!r}")
    if rotary_dim < 2 or rotary_dim > width or rotary_dim % 2:
        raise ValueError(f"rotary_dim must be an even integer in [2, {width}] (the head width), got {rotary_dim!r}")
    return int(rotary_dim)


@old_arguments(positional=("positions", "width"))
def multiaxis_table(
    positions,
    *,
    width: int,
    axes,
    inv_freq=None,
    base: float = 10000.0,
    layout: str = "half",
    attention_factor: float | None = None,
    rotary_dim: int | None = None,
    phase=None,
) -> RopeTable:
    r"""The cos/sin table of position vectors ``(..., tokens, A)``, built once: its ``apply`` rotates any vectors
    ``(..., tokens, width)`` at those positions with the same compiled kernel as 1-D RoPE (the table holds the angles
    ``theta_i p[axes[i]] + phase_i``; its ``positions`` field is the token index):
    :func:`~posproof.numeric.rotary.rope_table` with ``axes``. ``rotary_dim`` (default ``width``): the leading
    channels that rotate (``axes``, ``inv_freq`` and ``phase`` then have ``rotary_dim/2`` entries, the default
    frequencies are ``base**(-2i/rotary_dim)``); ``phase``: the angle of each pair at ``p = 0`` (default none)."""
    width = _validate.even_width(width)
    r = rotary_width(width, rotary_dim)
    theta = inverse_frequencies(r, base=base) if inv_freq is None else np.asarray(inv_freq, dtype=np.float64)
    if theta.shape != (r // 2,):
        what = "width/2" if r == width else "rotary_dim/2"
        raise ValueError(f"inv_freq must have {what} = {r // 2} entries, got shape {theta.shape}")
    table = rope_table(
        positions,
        width=width,
        layout=layout,
        inv_freq=theta,
        attention_factor=attention_factor,
        axes=axes,
        rotary_dim=r,
    )
    shift = _axis_map.phases(phase, r // 2)
    if shift is None or not shift.any():
        return table
    angles = _axis_map.angles(positions, theta, axes, shift)  # (..., tokens, r/2)
    af = table.attention_factor
    return RopeTable(
        table.positions, width, table.base, table.layout, af * np.cos(angles), af * np.sin(angles), r, theta, af
    )


def rope_multiaxis(
    vectors,
    positions,
    *,
    axes,
    inv_freq=None,
    base: float = 10000.0,
    layout: str = "half",
    attention_factor: float | None = None,
    rotary_dim: int | None = None,
    phase=None,
) -> np.ndarray:
    r"""Rotate ``vectors`` ``(..., tokens, d)`` by position vectors ``(..., tokens, A)``: pair ``i`` by
    ``theta_i * p[axes[i]] + phase_i``. ``inv_freq`` (default ``base**(-2i/r)``), ``layout`` (default ``"half"``, as
    transformers lays M-RoPE out; ``"blocks"``: :mod:`.layouts`), ``attention_factor`` and ``rotary_dim`` (``r``,
    default ``d``: partial rotary, the other channels pass through) as in :func:`~posproof.numeric.rotary.rope`;
    ``phase`` ``(r/2,)``: the angle of each pair at the origin (default none)."""
    x = np.asarray(vectors)
    if x.ndim < 2 or x.shape[-1] == 0 or x.shape[-1] % 2:
        raise ValueError(f"vectors must be (..., tokens, width) with an even width, got shape {x.shape}")
    if multiaxis_layout(layout) == "blocks":  # the blocks' pairs moved to (i, i + r/2), rotated, moved back
        r = rotary_width(x.shape[-1], rotary_dim)
        first, second = channel_pairs(np.asarray(axes).reshape(-1)[: r // 2], layout="blocks")
        perm = np.concatenate([first, second, np.arange(r, x.shape[-1])])  # (width,)
        moved = rope_multiaxis(
            x[..., perm], positions, axes=axes, inv_freq=inv_freq, base=base, layout="half",
            attention_factor=attention_factor, rotary_dim=rotary_dim, phase=phase,
        )  # fmt: skip
        out = np.empty_like(moved)
        out[..., perm] = moved
        return out
    table = multiaxis_table(
        positions, width=x.shape[-1], axes=axes, inv_freq=inv_freq, base=base, layout=layout,
        attention_factor=attention_factor, rotary_dim=rotary_dim, phase=phase,
    )  # fmt: skip
    return table.apply(x)


def rope_multiaxis_mp(
    vectors,
    positions,
    *,
    axes,
    inv_freq=None,
    base=10000,
    layout: str = "half",
    dps: int = 50,
    rotary_dim=None,
    phase=None,
    attention_factor=None,
):
    r"""The same rotation with mpmath at ``dps`` digits (nested lists of ``mpf``, the vectors' shape); vectors
    ``(tokens, width)``, positions ``(tokens, A)``; ``inv_freq`` and ``phase`` may be mpmath numbers or strings
    (exact decimals), read at ``dps`` digits; ``attention_factor`` multiplies cos and sin."""
    layout = multiaxis_layout(layout)
    x = np.asarray(vectors, dtype=object)
    pos = _axis_map.position_vectors(positions)
    if x.ndim != 2 or pos.ndim != 2 or x.shape[0] != pos.shape[0]:
        raise ValueError(f"vectors (tokens, width) and positions (tokens, A) must agree, got {x.shape}, {pos.shape}")
    width = x.shape[-1]
    if width == 0 or width % 2:
        raise ValueError(f"vectors must be (tokens, width) with an even width, got shape {x.shape}")
    r = rotary_width(width, rotary_dim)
    with mpmath.workdps(_validate.dps(dps)):
        theta = inverse_frequencies_mp(r, base=base, dps=dps) if inv_freq is None else [mpmath.mpf(t) for t in inv_freq]
        if len(theta) != r // 2:
            raise ValueError(f"inv_freq must have rotary_dim/2 = {r // 2} entries, got {len(theta)}")
        if phase is None:
            shift = [mpmath.mpf(0)] * (r // 2)
        else:
            shift = [mpmath.mpf(v) for v in phase]
            if len(shift) != r // 2:
                raise ValueError(f"phase must give one angle per rotated pair ({r // 2} entries), got {len(shift)}")
        factor = mpmath.mpf(1) if attention_factor is None else mpmath.mpf(attention_factor)
        ax = _axis_map.axis_map(axes, len(theta), pos.shape[-1])
        half = r // 2
        first, second = channel_pairs(ax, layout=layout)
        out = []
        for row, p in zip(x.tolist(), pos.tolist(), strict=True):
            row = [mpmath.mpf(v) for v in row]
            new = list(row)
            for i in range(half):
                a, b = int(first[i]), int(second[i])
                angle = theta[i] * mpmath.mpf(p[int(ax[i])]) + shift[i]
                c, s = factor * mpmath.cos(angle), factor * mpmath.sin(angle)
                new[a], new[b] = row[a] * c - row[b] * s, row[a] * s + row[b] * c
            out.append(new)
        return out


def positions_from_hf(position_ids) -> np.ndarray:
    r"""Hugging Face's M-RoPE ``position_ids`` ``(A, batch, tokens)`` as posproof's ``(batch, tokens, A)``."""
    pos = np.asarray(position_ids)
    if pos.ndim != 3:
        raise ValueError(f"position_ids must be (axes, batch, tokens) as transformers passes them, got {pos.shape}")
    return np.moveaxis(pos, 0, -1)
