r"""Axis maps of multi-axis RoPE: pair ``i`` turns by ``theta_i * p[axes[i]] + phase_i`` for a position vector ``p``
(``phase_i = 0`` unless a scheme puts its origin elsewhere: DINOv3's coordinates, an affine patch grid).

The validation of ``axes`` and of position vectors ``(..., tokens, A)``, and the angles, shared by
:func:`numeric.rotary.rope` and :func:`numeric.rotary.rope_mp` (``axes=``) and :mod:`numeric.multiaxis` (which
imports rotary, so the one-axis kernel takes them from here, not from there).

>>> angles([[3, 5]], [1.0, 0.5], [0, 1]).tolist()
[[3.0, 2.5]]
>>> angles([[3, 5]], [1.0, 0.5], [0, 1], phase=[0.25, -0.5]).tolist()
[[3.25, 2.0]]
"""

from __future__ import annotations

import numpy as np
from posproof.numeric import _validate


def axis_map(axes, pairs: int | None, n_axes: int) -> np.ndarray:
    r"""``axes`` as int64 ``(pairs,)``: one axis in ``[0, n_axes - 1]`` per rotated pair; ``ValueError`` otherwise."""
    arr = np.asarray(axes)
    if arr.ndim != 1 or arr.size == 0 or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"axes must be a 1-D list of integer axis indices, one per pair, got {axes!r}")
    if pairs is not None and arr.size != pairs:
        raise ValueError(f"axes must give one axis per pair ({pairs} entries, one per rotated pair), got {arr.size}")
    if arr.min() < 0 or arr.max() >= n_axes:
        raise ValueError(f"axes must be in [0, {n_axes - 1}] (the positions' last axis has {n_axes}), got {axes!r}")
    return arr.astype(np.int64)


def vector_shape(shape: tuple) -> None:
    r"""``ValueError`` unless ``shape`` is that of position vectors ``(..., tokens, A)`` (at least two axes,
    ``A >= 1``): shared by the float64 kernel and the mpmath references."""
    if len(shape) < 2 or shape[-1] == 0:
        raise ValueError(
            f"positions must have a trailing axis of length A (one position vector per token: (..., tokens, A)), "
            f"got shape {shape}"
        )


def position_vectors(positions) -> np.ndarray:
    r"""Position vectors as float64 ``(..., tokens, A)`` (finite, within ``[-2**53, 2**53]``)."""
    pos = np.asarray(positions)
    vector_shape(pos.shape)
    flat = _validate.positions(pos.reshape(-1), one_d=False)
    return flat.reshape(pos.shape)


def phases(phase, pairs: int) -> np.ndarray | None:
    r"""``phase`` as finite float64 ``(pairs,)`` (the angle of each pair at ``p = 0``), or ``None`` for none."""
    if phase is None:
        return None
    arr = _validate.finite_array(phase, "phase")
    if arr.shape != (pairs,):
        raise ValueError(f"phase must give one angle per rotated pair ({pairs} entries), got shape {arr.shape}")
    return arr


def angles(positions, inv_freq, axes, phase=None) -> np.ndarray:
    r"""``theta_i * p[axes[i]] + phase_i`` for every token and pair: float64 ``(..., tokens, r/2)`` from position
    vectors ``(..., tokens, A)``, ``inv_freq`` ``(r/2,)`` and ``phase`` ``(r/2,)`` (default none)."""
    pos = position_vectors(positions)
    theta = np.asarray(inv_freq, dtype=np.float64).reshape(-1)
    ax = axis_map(axes, theta.size, pos.shape[-1])
    shift = phases(phase, theta.size)
    if shift is not None:
        return pos[..., ax] * theta + shift  # (..., tokens, r/2)
    return pos[..., ax] * theta  # (..., tokens, r/2)
