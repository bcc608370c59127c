r"""xPos (Sun et al. 2022, "A Length-Extrapolatable Transformer", arXiv 2212.10554): RoPE with an exponential
scale per pair, the query scaled up and the key down, so that each output alone is not norm-preserving and only
the scores are relative.

Pair ``i`` (``i = 0 .. r/2 - 1``, ``r`` the rotary width) of a row at position ``m`` is rotated by ``m theta_i``
(``theta_i = base**(-2i/r)``, :func:`~posproof.numeric.rotary.rope`) and multiplied by ``zeta_i**((m - origin)/s)``
for a query, ``zeta_i**(-(m - origin)/s)`` for a key, with

* ``zeta_i = (2i/r + gamma)/(1 + gamma)`` (``gamma = 0.4`` in every source: flash-attn's, x-transformers' and
  torchscale's ``(arange(0, r, 2) + 0.4 r)/(1.4 r)``), in ``(0, 1)`` for ``gamma > 0``;
* ``s`` the ``scale_base`` (512 in every source);
* ``origin`` the position whose scale is 1: flash-attn's ``RotaryEmbedding(scale_base=...)`` and x-transformers'
  ``use_xpos`` use ``seq_len // 2`` (the cache's, or the sequence's length), torchscale's ``XPOS`` ``ceil(L/2)``
  (``L`` its length plus offset), the rotation angles staying ``m theta_i`` in all three.

The score ``q_m . k_n`` is ``sum_i zeta_i**((m - n)/s)`` times RoPE's pair score at ``m - n``: the origin cancels,
and for ``m >= n`` the factor is at most 1 and decreasing in ``m - n`` (proved in :mod:`symbolic.rope.xpos`).

>>> import numpy as np
>>> q, k = rope_xpos([[1.0, 0.0]], [[1.0, 0.0]], [512], gamma=1.0)  # zeta_0 = 1/2: q halves, k doubles
>>> round(float(np.hypot(*q[0])), 12), round(float(np.hypot(*k[0])), 12)
(0.5, 2.0)
"""

from __future__ import annotations

import numbers

import mpmath
import numpy as np
from posproof.numeric import _validate
from posproof.numeric.rotary import DEFAULT_BASE, rope, rope_mp

__all__ = ["DEFAULT_GAMMA", "DEFAULT_SCALE_BASE", "rope_xpos", "rope_xpos_mp", "xpos_scale", "xpos_zeta"]

#: ``gamma`` of ``zeta_i = (2i/r + gamma)/(1 + gamma)`` in every source (the paper's 0.4).
DEFAULT_GAMMA = 0.4
#: The scale base ``s`` of every source (flash-attn's example, x-transformers' ``xpos_scale_base``, torchscale).
DEFAULT_SCALE_BASE = 512.0


def _positive(value, name: str) -> float:
    return _validate.positive_real(value, name)


def _origin(value) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not np.isfinite(float(value)):
        raise ValueError(f"origin must be a finite real number, got {value!r}")
    return float(value)


def xpos_zeta(width: int, *, gamma: float = DEFAULT_GAMMA) -> np.ndarray:
    r"""``zeta_i = (2i/r + gamma)/(1 + gamma)``, ``i = 0 .. r/2 - 1``, over the rotated width ``r = width``: ``(r/2,)``
    float64.

    >>> xpos_zeta(4).round(4).tolist()
    [0.2857, 0.6429]
    """
    r = _validate.even_width(width, "width")
    g = _positive(gamma, "gamma")
    return (2.0 * np.arange(r // 2) / r + g) / (1.0 + g)


def xpos_scale(
    positions,
    *,
    rotary_dim: int,
    scale_base: float = DEFAULT_SCALE_BASE,
    gamma: float = DEFAULT_GAMMA,
    origin: float = 0.0,
) -> np.ndarray:
    r"""The query's scale ``zeta_i**((m - origin)/s)`` at each position: ``(tokens, r/2)`` float64 (the key's is its
    reciprocal)."""
    pos = _validate.positions(positions).astype(np.float64)  # (tokens,)
    s = _positive(scale_base, "scale_base")
    power = (pos - _origin(origin)) / s  # (tokens,)
    return xpos_zeta(rotary_dim, gamma=gamma)[None, :] ** power[:, None]


def _pair_channels(layout: str, r: int) -> tuple[np.ndarray, np.ndarray]:
    i = np.arange(r // 2)
    return (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + r // 2)


def _rotary_dim(width: int, rotary_dim) -> int:
    if rotary_dim is None:
        return width
    r = _validate.even_width(rotary_dim, "rotary_dim")
    if r > width:
        raise ValueError(f"rotary_dim must be an even integer in [2, width = {width}], got {rotary_dim!r}")
    return r


def _check_pair(q: np.ndarray, k: np.ndarray, n_pos: int) -> int:
    if q.shape != k.shape or q.ndim != 2:
        raise ValueError(f"q and k must both be (tokens, width) arrays of one shape, got {q.shape} and {k.shape}")
    if q.shape[0] != n_pos:
        raise ValueError(f"positions must hold one position per row of q and k ({q.shape[0]}), got {n_pos}")
    width = q.shape[1]
    if width == 0 or width % 2:
        raise ValueError(f"q and k must have an even width (last axis) >= 2, got shape {q.shape}")
    return width


def rope_xpos(
    q,
    k,
    positions,
    *,
    base: float = DEFAULT_BASE,
    layout: str = "interleaved",
    scale_base: float = DEFAULT_SCALE_BASE,
    gamma: float = DEFAULT_GAMMA,
    origin: float = 0.0,
    rotary_dim: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""xPos in float64: ``(q_rotated, k_rotated)``, each ``(tokens, width)``, for ``q``, ``k`` ``(tokens, width)``
    and integer ``positions`` ``(tokens,)`` (row ``t`` of both at ``positions[t]``).

    Pair ``i`` of the query turns by ``m theta_i`` and is scaled by ``zeta_i**((m - origin)/scale_base)``, of the
    key by the reciprocal (see the module docstring). ``layout``: ``"interleaved"`` pairs ``(2i, 2i+1)``
    (x-transformers, torchscale, flash-attn ``interleaved=True``), ``"half"`` pairs ``(i, i + r/2)`` (flash-attn's
    default); ``rotary_dim``: the first ``rotary_dim`` channels rotate and scale (``zeta`` built over them), the
    others pass through (flash-attn's ``dim`` below the head width).
    """
    qa = np.asarray(q, dtype=np.float64)
    ka = np.asarray(k, dtype=np.float64)
    pos = _validate.positions(positions)
    width = _check_pair(qa, ka, pos.shape[0])
    r = _rotary_dim(width, rotary_dim)
    layout = _validate.layout(layout)
    scale = xpos_scale(pos, rotary_dim=r, scale_base=scale_base, gamma=gamma, origin=origin)  # (tokens, r/2)
    first, second = _pair_channels(layout, r)
    outs = []
    for x, sc in ((qa, scale), (ka, 1.0 / scale)):
        y = rope(x, pos, base=base, layout=layout, rotary_dim=r)  # (tokens, width)
        y[:, first] *= sc
        y[:, second] *= sc
        outs.append(y)
    return outs[0], outs[1]


def rope_xpos_mp(
    q,
    k,
    positions,
    *,
    base=DEFAULT_BASE,
    layout: str = "interleaved",
    scale_base=DEFAULT_SCALE_BASE,
    gamma="0.4",
    origin=0,
    rotary_dim: int | None = None,
    dps: int = 50,
) -> tuple[list, list]:
    r"""xPos at ``dps`` digits (mpmath): ``(q_rotated, k_rotated)`` as nested lists of ``mpf``, the same arguments
    and rules as :func:`rope_xpos` (``scale_base``, ``gamma``, ``origin``: floats and integers taken exactly, decimal
    strings read at the working precision; the default ``gamma`` is the decimal ``"0.4"``, not the float 0.4)."""
    dps = _validate.dps(dps)
    layout = _validate.layout(layout)
    qa, ka = np.asarray(q, dtype=object), np.asarray(k, dtype=object)
    pos = _validate.positions(positions)
    width = _check_pair(qa, ka, pos.shape[0])
    r = _rotary_dim(width, rotary_dim)
    first, second = _pair_channels(layout, r)
    with mpmath.workdps(dps + 10):
        s, g, o = (mpmath.mpf(v) for v in (scale_base, gamma, origin))
        if not (mpmath.isfinite(s) and s > 0):
            raise ValueError(f"scale_base must be a finite real number > 0, got {scale_base!r}")
        if not (mpmath.isfinite(g) and g > 0):
            raise ValueError(f"gamma must be a finite real number > 0, got {gamma!r}")
        if not mpmath.isfinite(o):
            raise ValueError(f"origin must be a finite real number, got {origin!r}")
        zeta = [(mpmath.mpf(2 * i) / r + g) / (1 + g) for i in range(r // 2)]
        scale = [[z ** ((mpmath.mpf(float(m)) - o) / s) for z in zeta] for m in pos]  # (tokens, r/2)
    outs = []
    for x, sign in ((qa, 1), (ka, -1)):
        y = rope_mp(x, pos, base=base, layout=layout, rotary_dim=r, dps=dps + 10)  # (tokens, width) nested lists
        with mpmath.workdps(dps):
            for t, row in enumerate(y):
                for i in range(r // 2):
                    sc = scale[t][i] if sign > 0 else 1 / scale[t][i]
                    row[first[i]] = +(row[first[i]] * sc)
                    row[second[i]] = +(row[second[i]] * sc)
                for c in range(r, width):
                    row[c] = +row[c]
        outs.append(y)
    return outs[0], outs[1]
