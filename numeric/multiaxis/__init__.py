r"""Multi-axis RoPE: positions are vectors ``p = (p_0, ..., p_{A-1})`` (time, height, width) and pair ``i`` turns by
``theta_i * p[axes[i]] + phase_i`` (an axis map; REFERENCES.md, "Multi-axis RoPE"). A declaration
(:class:`MultiaxisRope`, :func:`multiaxis_from_scaling`) fixes ``theta``, ``axes`` and ``phase``; one kernel
(:func:`rope_multiaxis`, :func:`rope_multiaxis_mp`) rotates them all.

The modules: :mod:`.kernel` (the rotation, float64 and mpmath), :mod:`.mrope` (M-RoPE's axis maps),
:mod:`.axial` (axial 2-D, shared and split frequencies), :mod:`.ladders` (per-axis frequency ladders: FLUX's
``axes_dim``), :mod:`.coordinates` (real coordinates, an affine patch grid, DINOv3), :mod:`.layouts` (the pairs'
channels), :mod:`.xdrope` (HunYuan-VL's channel-split XD-RoPE), :mod:`.declaration` (:class:`MultiaxisRope`),
:mod:`.scaling` (the scaling keys that declare one), :mod:`.config` (transformers configurations).

The axis maps of the layouts transformers ships (pair ``i`` = channels ``(i, i + d/2)``, rotate-half):

* **M-RoPE, chunked** (Qwen2-VL, Qwen2.5-VL; ``mrope_section`` e.g. ``[16, 24, 24]`` for ``d = 128``): consecutive
  blocks of pairs take axis t, then h, then w;
* **M-RoPE, interleaved** (Qwen3-VL; ``mrope_interleaved``): pair ``i`` takes h when ``i = 1 (mod 3)`` and
  ``i < 3 s_h``, w when ``i = 2 (mod 3)`` and ``i < 3 s_w``, else t, so every axis spans the whole frequency range;
* **axial 2-D**: the first ``d/4`` pairs turn with the row, the rest with the column; Pixtral's vision tower
  splits the frequencies (``theta_0, theta_2, ...`` for the row, ``theta_1, theta_3, ...`` for the column), most
  others share them (``theta_0, theta_2, ...`` for both: :mod:`.axial`).

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

from posproof.numeric.multiaxis.axial import AXIAL_FREQUENCIES, axial_axes, axial_inv_freq, axial_inv_freq_mp
from posproof.numeric.multiaxis.config import MultiaxisFrequencies, multiaxis_from_config, rope_axes_from_config
from posproof.numeric.multiaxis.coordinates import (
    affine_frequencies,
    affine_frequencies_mp,
    dinov3_inv_freq,
    dinov3_inv_freq_mp,
    dinov3_periods,
    patch_affine,
    patch_coordinates,
)
from posproof.numeric.multiaxis.declaration import MultiaxisRope
from posproof.numeric.multiaxis.kernel import (
    multiaxis_angles,
    multiaxis_table,
    positions_from_hf,
    rope_multiaxis,
    rope_multiaxis_mp,
    rotary_width,
)
from posproof.numeric.multiaxis.ladders import (
    axes_dim_axes,
    cogvideox_axes_dim,
    per_axis_inv_freq,
    per_axis_inv_freq_mp,
    wan_axes_dim,
)
from posproof.numeric.multiaxis.layouts import MULTIAXIS_LAYOUTS, channel_pairs
from posproof.numeric.multiaxis.mrope import INTERLEAVED_MODEL_TYPES, mrope_axes
from posproof.numeric.multiaxis.scaling import is_multiaxis_scaling, multiaxis_from_scaling
from posproof.numeric.multiaxis.xdrope import rope_xdrope, rope_xdrope_mp, xdrope_channel_axes
from posproof.numeric.scaling.rules import (
    proportional_inv_freq,  # one definition, with the other rules and the config reader
)

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
    "multiaxis_from_config",
    "MultiaxisFrequencies",
    "proportional_inv_freq",
    "positions_from_hf",
    "MultiaxisRope",
    "multiaxis_from_scaling",
    "is_multiaxis_scaling",
    "axes_dim_axes",
    "wan_axes_dim",
    "cogvideox_axes_dim",
    "per_axis_inv_freq",
    "per_axis_inv_freq_mp",
    "channel_pairs",
    "dinov3_periods",
    "dinov3_inv_freq",
    "dinov3_inv_freq_mp",
    "patch_affine",
    "patch_coordinates",
    "affine_frequencies",
    "affine_frequencies_mp",
    "rope_xdrope",
    "rope_xdrope_mp",
    "xdrope_channel_axes",
]

# also importable from here: rotary_width, INTERLEAVED_MODEL_TYPES (as before the package), the names of the choices
_KEPT = (rotary_width, INTERLEAVED_MODEL_TYPES, AXIAL_FREQUENCIES, MULTIAXIS_LAYOUTS)
