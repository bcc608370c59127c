r"""The measurements of the xPos audit (:mod:`numeric.audit.xpos`): one call of the function on unit vectors on
every channel at each probed position (:func:`probe`), each pair's map as a length and an angle (:func:`pairs`), the
frequencies unwrapped over the doubling positions, the per-pair log-scale slopes, the fits of a base and of a gamma
and scale base, and the scores of random queries and keys of one call (:func:`scores`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from posproof.numeric.audit.call import Caller
from posproof.numeric.xpos import xpos_zeta


class ShapeFailure(Exception):
    r"""An output not finite or not of the input's shape (``xpos-shape``)."""

    def __init__(self, example: dict):
        self.example = example


def run(caller: Caller, qv: np.ndarray, kv: np.ndarray, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""``(q_rotated, k_rotated)`` of one call, float64 ``(tokens, width)``; :class:`ShapeFailure` if they are not."""
    outs, _ = caller.raw(qv, pos, kv)
    got = []
    for which, y in zip(("q", "k"), outs, strict=True):
        example = {"width": qv.shape[1], "positions": short(pos), "output": which}
        if y.size != qv.size:
            raise ShapeFailure(example | {"got shape": list(y.shape)})
        y = y.reshape(qv.shape).astype(np.float64)
        if not np.isfinite(y).all():
            raise ShapeFailure(example | {"got": "NaN or inf"})
        got.append(y)
    return got[0], got[1]


def short(pos: np.ndarray) -> list:
    r"""Positions as an example shows them: all of them up to 8, else the first 8 and ``"..."``."""
    return [int(p) for p in pos] if pos.size <= 8 else [int(p) for p in pos[:8]] + ["..."]


# ---- the probe: unit vectors on every channel at every probed position, in one call -----------------------------


def channels(layout: str, width: int) -> tuple[np.ndarray, np.ndarray]:
    r"""The pairs' channels ``(first (r/2,), second (r/2,))``: ``(2i, 2i + 1)`` interleaved, ``(i, i + r/2)`` half."""
    i = np.arange(width // 2)
    return (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + width // 2)


def probe_positions(max_position: int) -> np.ndarray:
    r"""``0, 1, 2, 3`` and the powers of two from 4 up to ``max_position``."""
    doubling = [1 << j for j in range(2, max_position.bit_length()) if 1 << j <= max_position]
    return np.array([0, 1, 2, 3, *doubling], dtype=np.int64)


@dataclass(frozen=True)
class Probe:
    r"""The images of the unit vectors: ``images[o][p]`` the ``(width, width)`` matrix (row ``c``: the image of
    channel ``c``) of output ``o`` (0 query, 1 key) at ``positions[p]``; ``cross[o]``: how far output ``o`` moves
    when the other input is 0 instead of the same unit vectors (relative to its largest entry; 0 for a function
    whose query output depends on the query alone and key output on the key alone)."""

    positions: np.ndarray  # (P,)
    images: np.ndarray  # (2, P, width, width)
    cross: tuple[float, float]


def probe(caller: Caller, width: int, max_position: int) -> Probe:
    r"""The unit vectors' images (:class:`Probe`): three calls holding every channel at every probed position, as
    queries and keys, then with the key and then the query 0."""
    pos = probe_positions(max_position)
    eye = np.eye(width)
    x = np.tile(eye, (pos.size, 1))  # (P * width, width)
    rows = np.repeat(pos, width)
    qo, ko = run(caller, x, x.copy(), rows)
    q_alone, _ = run(caller, x, np.zeros_like(x), rows)
    _, k_alone = run(caller, np.zeros_like(x), x, rows)
    cross = tuple(
        float(np.max(np.abs(a - b)) / max(float(np.max(np.abs(b))), np.finfo(float).tiny))
        for a, b in ((q_alone, qo), (k_alone, ko))
    )
    images = np.stack([qo.reshape(pos.size, width, width), ko.reshape(pos.size, width, width)])
    return Probe(pos, images, (cross[0], cross[1]))


def leak(images: np.ndarray, layout: str) -> float:
    r"""The largest fraction of a unit vector's image outside its pair's two channels, over outputs and positions."""
    width = images.shape[-1]
    first, second = channels(layout, width)
    inside = np.zeros((width, width), dtype=bool)
    inside[first, first] = inside[first, second] = inside[second, first] = inside[second, second] = True
    norm = np.linalg.norm(images, axis=-1)  # (2, P, width)
    outside = np.linalg.norm(np.where(inside, 0.0, images), axis=-1)
    return float(np.max(outside / np.maximum(norm, np.finfo(float).tiny)))


@dataclass(frozen=True)
class Pairs:
    r"""Each pair's map ``rho R(phi)`` per output, position and pair: ``radius`` and ``angle`` ``(2, P, r/2)``,
    ``rotation_error`` the largest departure of the second channel's image from ``rho (-sin phi, cos phi)``;
    ``channel_scale`` ``(2, P, width)`` the length each output channel gets (``rho`` on both channels of a pair for a
    scaled rotation) and ``per_channel_error`` the departure from a rotation once each output channel is divided by
    its own length (0 for a rotation followed by per-channel scales)."""

    radius: np.ndarray
    angle: np.ndarray
    rotation_error: np.ndarray  # (2, P, r/2), relative to the radius
    channel_scale: np.ndarray  # (2, P, width)
    per_channel_error: np.ndarray  # (2, P, r/2)


def pairs(probe: Probe, layout: str) -> Pairs:
    r"""Each pair's map in ``layout`` (:class:`Pairs`)."""
    f, s = channels(layout, probe.images.shape[-1])
    a, b = probe.images[..., f, f], probe.images[..., f, s]  # (2, P, r/2): the image of the first channel
    c, e = probe.images[..., s, f], probe.images[..., s, s]  # the image of the second channel
    tiny = np.finfo(float).tiny
    radius = np.hypot(a, b)
    angle = np.arctan2(b, a)
    err = np.hypot(c + b, e - a) / np.maximum(radius, tiny)
    s_first, s_second = np.maximum(np.hypot(a, c), tiny), np.maximum(np.hypot(b, e), tiny)  # per output channel
    per_channel = np.hypot(c / s_first + b / s_second, e / s_second - a / s_first)
    channel_scale = np.empty(probe.images.shape[:-1])
    channel_scale[..., f], channel_scale[..., s] = s_first, s_second
    return Pairs(radius, angle, err, channel_scale, per_channel)


# ---- measurements -----------------------------------------------------------------------------------------------


def unwrapped_frequencies(angle: np.ndarray, positions: np.ndarray) -> tuple[np.ndarray, int]:
    r"""Each pair's frequency from its angles at the doubling positions ``1, 2, 4, ...``, unwrapped (``(r/2,)``), and
    the largest doubling position used."""
    doubling = [j for j, p in enumerate(positions) if p >= 1 and (p & (p - 1)) == 0]
    est = angle[doubling[0]] / positions[doubling[0]]  # position 1: |theta| <= pi
    for j in doubling[1:]:
        p = positions[j]
        turns = np.round((p * est - angle[j]) / (2 * np.pi))
        est = (angle[j] + 2 * np.pi * turns) / p
    return est, int(positions[doubling[-1]])


def fit_base(freq: np.ndarray, r: int) -> float | None:
    r"""The base ``b`` with ``freq_i = b**(-2i/r)`` (least squares on the logarithms), ``None`` if the frequencies are
    not all positive."""
    if freq.size < 2 or not np.all(freq > 0):
        return None
    i = np.arange(freq.size)
    slope = np.sum(i * np.log(freq)) / np.sum(i * i)  # log freq_i = -(2i/r) log b, through freq_0 = 1
    return float(np.exp(-slope * r / 2))


def slopes(pairs: Pairs, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""``(2, r/2)``: each pair's ``d log rho / dm`` per output (least squares over the probed positions, one call:
    the origin is the same for every row), and ``(2,)`` the largest departure of ``log rho`` from that line."""
    logs = np.log(np.maximum(pairs.radius, np.finfo(float).tiny))  # (2, P, r/2)
    p = positions.astype(np.float64) - positions.mean()
    centred = logs - logs.mean(axis=1, keepdims=True)
    slope = np.einsum("p,opi->oi", p, centred) / np.sum(p * p)
    curved = np.max(np.abs(centred - p[None, :, None] * slope[:, None, :]), axis=(1, 2))
    return slope, curved


def fit_gamma(slope: np.ndarray, width: int) -> tuple[float, float, float]:
    r"""``(gamma, s, residual)``: the gamma and scale base whose ``log(zeta_i)/s`` fit the slopes best (a log grid
    refined by golden-section search; ``s`` in closed form for each gamma), residual relative to ``max |slope|``."""

    def fit(g: float) -> tuple[float, float]:
        L = np.log(xpos_zeta(width, gamma=g))  # (r/2,)
        a = float(np.dot(slope, L) / np.dot(L, L))
        return float(np.max(np.abs(slope - a * L))), a

    grid = np.exp(np.linspace(np.log(1e-3), np.log(1e3), 121))
    best = int(np.argmin([fit(g)[0] for g in grid]))
    lo, hi = np.log(grid[max(best - 1, 0)]), np.log(grid[min(best + 1, grid.size - 1)])
    ratio = (np.sqrt(5) - 1) / 2
    for _ in range(60):
        x1, x2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if fit(np.exp(x1))[0] < fit(np.exp(x2))[0]:
            hi = x2
        else:
            lo = x1
    g = float(np.exp((lo + hi) / 2))
    res, a = fit(g)
    return g, (1 / a if a else float("inf")), res / max(float(np.max(np.abs(slope))), np.finfo(float).tiny)


def scores(caller: Caller, qv: np.ndarray, kv: np.ndarray, m: np.ndarray, n: np.ndarray) -> np.ndarray:
    r"""``s_j = q'_j . k'_j`` with query ``j`` at ``m_j`` and key ``j`` at ``n_j``, all in one call."""
    J = m.size
    pos = np.concatenate([m, n])
    x = np.concatenate([qv, qv])  # rows J.. are queries at the keys' positions, unused
    y = np.concatenate([kv, kv])
    qo, ko = run(caller, x, y, pos)
    return np.einsum("jc,jc->j", qo[:J], ko[J:])
