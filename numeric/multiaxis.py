r"""Multi-axis RoPE: positions are vectors ``p = (p_0, ..., p_{A-1})`` (time, height, width) and pair ``i`` turns by
``theta_i * p[axes[i]]`` (an axis map; REFERENCES.md, "Multi-axis RoPE").

The axis maps of the layouts transformers ships (pair ``i`` = channels ``(i, i + d/2)``, rotate-half):

* **M-RoPE, chunked** (Qwen2-VL, Qwen2.5-VL; ``mrope_section`` e.g. ``[16, 24, 24]`` for ``d = 128``): consecutive
  blocks of pairs take axis t, then h, then w;
* **M-RoPE, interleaved** (Qwen3-VL; ``mrope_interleaved``): pair ``i`` takes h when ``i = 1 (mod 3)`` and
  ``i < 3 s_h``, w when ``i = 2 (mod 3)`` and ``i < 3 s_w``, else t, so every axis spans the whole frequency range;
* **axial 2-D** (Pixtral's vision tower): frequencies ``theta_0, theta_2, ...`` for the row, then
  ``theta_1, theta_3, ...`` for the column; the first ``d/4`` pairs turn with the row, the rest with the column.

Text tokens carry ``t = h = w``: every pair then turns by ``theta_i m``, 1-D RoPE with the same frequencies.

Partial rotary (GLM-4V, GLM-4.1V: ``partial_rotary_factor: 0.5`` with ``mrope_section``): only the first
``rotary_dim = int(head_dim * partial_rotary_factor)`` channels rotate, the sections split their ``rotary_dim/2``
pairs, the frequencies are ``base**(-2i/rotary_dim)`` and the other channels pass through (transformers' GLM-4V
pairs ``(2i, 2i + 1)`` inside the slice, ``layout="interleaved"``; GLM-4V-MoE rotates half of it, ``"half"``).

>>> mrope_axes([2, 1, 1]).tolist(), mrope_axes([2, 1, 1], interleaved=True).tolist()
([0, 0, 1, 2], [0, 1, 2, 0])
>>> import numpy as np
>>> x = np.ones((1, 8))
>>> bool(np.allclose(rope_multiaxis(x, [[5, 5, 5]], axes=mrope_axes([2, 1, 1]), layout="half"),
...                  __import__("posproof.numeric.rotary", fromlist=["rope"]).rope(x, [5], layout="half")))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import mpmath
import numpy as np
from posproof.numeric import _axis_map, _validate
from posproof.numeric._deprecated import old_arguments
from posproof.numeric.rotary import RopeTable, rope_table
from posproof.numeric.scaling.rules import (
    proportional_inv_freq,  # one definition, with the other rules and the config reader
)
from posproof.numeric.sinusoid import inverse_frequencies, inverse_frequencies_mp

__all__ = [
    "mrope_axes",
    "axial_axes",
    "axial_inv_freq",
    "axial_inv_freq_mp",
    "multiaxis_angles",
    "multiaxis_table",
    "rope_multiaxis",
    "rope_multiaxis_mp",
    "rope_axes_from_config",
    "MultiaxisFrequencies",
    "proportional_inv_freq",
    "positions_from_hf",
]

#: Models whose text rotary interleaves the M-RoPE sections whatever the config says (transformers' Qwen3-VL
#: family calls apply_interleaved_mrope unconditionally).
INTERLEAVED_MODEL_TYPES = frozenset({"qwen3_vl", "qwen3_vl_text", "qwen3_vl_moe", "qwen3_vl_moe_text"})


def _sections(mrope_section) -> list[int]:
    if isinstance(mrope_section, (str, bytes)) or not isinstance(mrope_section, Sequence) or not mrope_section:
        raise ValueError(f"mrope_section must be a non-empty list of integers >= 0, got {mrope_section!r}")
    out = []
    for s in mrope_section:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0:
            raise ValueError(f"mrope_section must be a non-empty list of integers >= 0, got {mrope_section!r}")
        out.append(int(s))
    if sum(out) == 0:
        raise ValueError(f"mrope_section must give at least one pair, got {mrope_section!r}")
    return out


@old_arguments(positional=("mrope_section", "interleaved"))
def mrope_axes(mrope_section, *, interleaved: bool = False) -> np.ndarray:
    r"""The axis of each pair (int64 ``(sum(mrope_section),)``) for M-RoPE with these sections (t, h, w, ...).

    Chunked: ``section[a]`` consecutive pairs per axis, in order. Interleaved (Qwen3-VL): pair ``i`` takes axis
    ``a >= 1`` when ``i = a (mod A)`` and ``i < A * section[a]``, else axis 0."""
    sections = _sections(mrope_section)
    A = len(sections)
    if not interleaved:
        return np.repeat(np.arange(A, dtype=np.int64), sections)
    half = sum(sections)
    axes = np.zeros(half, dtype=np.int64)
    for a in range(1, A):
        axes[np.arange(a, min(A * sections[a], half), A)] = a
    return axes


def axial_axes(width: int) -> np.ndarray:
    r"""Axial 2-D RoPE (Pixtral): the first ``d/4`` pairs turn with the row (axis 0), the rest with the column."""
    width = _validate.even_width(width)
    if width % 4:
        raise ValueError(f"width must be a multiple of 4 for axial 2-D RoPE (d/4 pairs per axis), got {width}")
    return np.repeat(np.array([0, 1], dtype=np.int64), width // 4)


@old_arguments(positional=("width", "base"))
def axial_inv_freq(width: int, *, base: float = 10000.0) -> np.ndarray:
    r"""Axial 2-D RoPE's frequencies: ``theta_0, theta_2, ..., theta_{d/2-2}`` (row) then ``theta_1, theta_3, ...``
    (column), ``theta_i = base**(-2i/d)`` over the head width ``d`` (float64 ``(d/2,)``)."""
    axial_axes(width)  # validates the width
    theta = inverse_frequencies(width, base=base)
    return np.concatenate([theta[0::2], theta[1::2]])


@old_arguments(positional=("width", "base", "dps"))
def axial_inv_freq_mp(width: int, *, base=10000, dps: int = 50) -> list:
    r"""The same frequencies as mpmath numbers at ``dps`` digits."""
    axial_axes(width)
    theta = inverse_frequencies_mp(width, base=base, dps=dps)
    return theta[0::2] + theta[1::2]


@old_arguments(positional=("positions", "inv_freq", "axes"))
def multiaxis_angles(positions, *, inv_freq, axes) -> np.ndarray:
    r"""``theta_i * p[axes[i]]`` for every token and pair: float64 ``(..., tokens, d/2)`` from positions
    ``(..., tokens, A)``."""
    return _axis_map.angles(positions, inv_freq, axes)


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
) -> RopeTable:
    r"""The cos/sin table of position vectors ``(..., tokens, A)``, built once: its ``apply`` rotates any vectors
    ``(..., tokens, width)`` at those positions with the same compiled kernel as 1-D RoPE (the table holds the angles
    ``theta_i p[axes[i]]``; its ``positions`` field is the token index): :func:`~posproof.numeric.rotary.rope_table`
    with ``axes``. ``rotary_dim`` (default ``width``): the leading channels that rotate (``axes`` and ``inv_freq``
    then have ``rotary_dim/2`` entries, the default frequencies are ``base**(-2i/rotary_dim)``)."""
    width = _validate.even_width(width)
    r = rotary_width(width, rotary_dim)
    theta = inverse_frequencies(r, base=base) if inv_freq is None else np.asarray(inv_freq, dtype=np.float64)
    if theta.shape != (r // 2,):
        what = "width/2" if r == width else "rotary_dim/2"
        raise ValueError(f"inv_freq must have {what} = {r // 2} entries, got shape {theta.shape}")
    return rope_table(
        positions,
        width=width,
        layout=layout,
        inv_freq=theta,
        attention_factor=attention_factor,
        axes=axes,
        rotary_dim=r,
    )


def rotary_width(width: int, rotary_dim) -> int:
    r"""``rotary_dim`` checked: an even integer in ``[2, width]`` (``width`` when ``None``)."""
    if rotary_dim is None:
        return width
    if isinstance(rotary_dim, (bool, np.bool_)) or not isinstance(rotary_dim, (int, np.integer)):
        raise ValueError(f"rotary_dim must be an even integer in [2, {width}] (the head width), got {rotary_dim!r}")
    if rotary_dim < 2 or rotary_dim > width or rotary_dim % 2:
        raise ValueError(f"rotary_dim must be an even integer in [2, {width}] (the head width), got {rotary_dim!r}")
    return int(rotary_dim)


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
) -> np.ndarray:
    r"""Rotate ``vectors`` ``(..., tokens, d)`` by position vectors ``(..., tokens, A)``: pair ``i`` by
    ``theta_i * p[axes[i]]``. ``inv_freq`` (default ``base**(-2i/r)``), ``layout`` (default ``"half"``, as
    transformers lays M-RoPE out), ``attention_factor`` and ``rotary_dim`` (``r``, default ``d``: partial rotary, the
    other channels pass through) as in :func:`~posproof.numeric.rotary.rope`."""
    x = np.asarray(vectors)
    if x.ndim < 2 or x.shape[-1] == 0 or x.shape[-1] % 2:
        raise ValueError(f"vectors must be (..., tokens, width) with an even width, got shape {x.shape}")
    table = multiaxis_table(
        positions, width=x.shape[-1], axes=axes, inv_freq=inv_freq, base=base, layout=layout,
        attention_factor=attention_factor, rotary_dim=rotary_dim,
    )  # fmt: skip
    return table.apply(x)


def rope_multiaxis_mp(
    vectors, positions, *, axes, inv_freq=None, base=10000, layout: str = "half", dps: int = 50, rotary_dim=None
):
    r"""The same rotation with mpmath at ``dps`` digits (nested lists of ``mpf``, the vectors' shape); vectors
    ``(tokens, width)``, positions ``(tokens, A)``."""
    layout = _validate.layout(layout)
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
        ax = _axis_map.axis_map(axes, len(theta), pos.shape[-1])
        half = r // 2
        out = []
        for row, p in zip(x.tolist(), pos.tolist(), strict=True):
            row = [mpmath.mpf(v) for v in row]
            new = list(row)
            for i in range(half):
                a, b = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + half)
                angle = theta[i] * p[int(ax[i])]
                c, s = mpmath.cos(angle), mpmath.sin(angle)
                new[a], new[b] = row[a] * c - row[b] * s, row[a] * s + row[b] * c
            out.append(new)
        return out


def positions_from_hf(position_ids) -> np.ndarray:
    r"""Hugging Face's M-RoPE ``position_ids`` ``(A, batch, tokens)`` as posproof's ``(batch, tokens, A)``."""
    pos = np.asarray(position_ids)
    if pos.ndim != 3:
        raise ValueError(f"position_ids must be (axes, batch, tokens) as transformers passes them, got {pos.shape}")
    return np.moveaxis(pos, 0, -1)


def _rope_holder(config) -> dict:
    r"""The part of a configuration that holds the rotary settings: the top level, or ``text_config``."""
    if not isinstance(config, dict):
        raise ValueError(f"config must be a mapping (a model's config.json as a dict), got {type(config).__name__}")
    keys = ("rope_parameters", "rope_scaling", "rope_theta", "head_dim", "hidden_size")
    if not any(k in config for k in keys) and isinstance(config.get("text_config"), dict):
        return config["text_config"]
    return config


class MultiaxisFrequencies(NamedTuple):
    r"""What :func:`rope_axes_from_config` gives: ``inv_freq`` float64 ``(rotary_dim/2,)``, ``axes`` int64
    ``(rotary_dim/2,)`` (the axis each rotated pair turns with) and the ``attention_factor`` of cos and sin."""

    inv_freq: np.ndarray
    axes: np.ndarray
    attention_factor: float

    @property
    def rotary_dim(self) -> int:
        r"""The channels that rotate, ``2 * len(inv_freq)``: transformers' ``int(head_dim * partial_rotary_factor)``
        (the head width without a partial factor); the channels after them pass through."""
        return 2 * int(self.inv_freq.size)


@old_arguments(positional=("config", "seq_len"))
def rope_axes_from_config(config, *, seq_len: int | None = None, layer_type: str | None = None) -> MultiaxisFrequencies:
    r"""``(inv_freq, axes, attention_factor)`` of a multi-axis transformers configuration: M-RoPE (``mrope_section``
    in ``rope_parameters`` or ``rope_scaling``, interleaved when ``mrope_interleaved`` is true or the model is a
    Qwen3-VL) or axial 2-D (``rope_type: "axial"``). The frequencies are
    :func:`~posproof.numeric.scaling.rules.rope_inv_freq_from_config`'s (every scaling rule it reads, the partial rotary
    factor included), laid out by the axis map. With ``partial_rotary_factor < 1`` (GLM-4V) the sections split the
    ``rotary_dim/2`` rotated pairs (``.rotary_dim`` of the result); pass ``rotary_dim=`` on to
    :func:`~posproof.numeric.rotary.rope`, the other channels pass through.

    >>> qwen2_vl = {"hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0,
    ...             "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}}
    >>> inv_freq, axes, factor = rope_axes_from_config(qwen2_vl)
    >>> inv_freq.shape, axes[[0, 15, 16, 39, 40, 63]].tolist(), factor
    ((64,), [0, 0, 1, 1, 2, 2], 1.0)
    >>> glm41v = {"hidden_size": 4096, "num_attention_heads": 32, "partial_rotary_factor": 0.5, "rope_theta": 10000.0,
    ...           "rope_scaling": {"type": "default", "mrope_section": [8, 12, 12]}}
    >>> rope_axes_from_config(glm41v).rotary_dim  # of head_dim 128: channels 64 .. 127 pass through
    64
    """
    from posproof.numeric.scaling.rules import rope_inv_freq_from_config, rope_scaling_from_config

    holder = _rope_holder(config)
    params = holder.get("rope_parameters") or holder.get("rope_scaling") or {}
    if not isinstance(params, dict):
        raise ValueError(f"rope_parameters must be a mapping, got {params!r}")
    if params.get("rope_type", params.get("type")) == "axial":
        width = holder.get("head_dim") or (
            holder["hidden_size"] // holder["num_attention_heads"]
            if "hidden_size" in holder and "num_attention_heads" in holder
            else None
        )
        if width is None:
            raise ValueError("config needs head_dim (or hidden_size and num_attention_heads) for axial RoPE")
        base = params.get("rope_theta", holder.get("rope_theta"))
        if base is None:
            raise ValueError("config needs rope_theta (in rope_parameters or at the top) for axial RoPE")
        return MultiaxisFrequencies(axial_inv_freq(int(width), base=float(base)), axial_axes(int(width)), 1.0)
    if "mrope_section" not in params:
        raise ValueError(
            "config has no mrope_section (M-RoPE) and no rope_type 'axial': for 1-D RoPE use rope_inv_freq_from_config"
        )
    inv_freq, factor = rope_inv_freq_from_config(config, seq_len=seq_len, layer_type=layer_type)
    sections = _sections(params["mrope_section"])
    if sum(sections) != inv_freq.size:
        head = rope_scaling_from_config(config, layer_type=layer_type).width
        why = (
            f"rotary_dim/2: int(head_dim * partial_rotary_factor) = {2 * inv_freq.size} of head_dim {head} rotate"
            if 2 * inv_freq.size != head
            else "head_dim/2"
        )
        raise ValueError(
            f"mrope_section must add up to the number of rotated pairs, {inv_freq.size} ({why}), "
            f"got {params['mrope_section']} (sum {sum(sections)})"
        )
    model_type = str(config.get("model_type", holder.get("model_type", "")))
    interleaved = bool(params.get("mrope_interleaved", holder.get("mrope_interleaved", False)))
    interleaved = interleaved or model_type in INTERLEAVED_MODEL_TYPES
    return MultiaxisFrequencies(inv_freq, mrope_axes(sections, interleaved=interleaved), factor)
