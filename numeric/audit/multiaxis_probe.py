r"""The probes of the multi-axis audit (:mod:`posproof.numeric.audit.multiaxis`): calling ``fn(vectors (N, d),
positions (N, A))`` with NumPy arrays, then torch tensors, then JAX arrays (:class:`MultiaxisCaller`), and the angle
each channel of each pair turns by (:func:`measure`).

A pair ``(c, c')`` of a rotation turns both its channels by one angle. The probes put a unit vector on each channel
of each pair in turn (row ``i``: channel ``c_i``; row ``r/2 + i``: channel ``c'_i``), so the angle of channel ``c``
(its output row: ``cos`` and ``-sin`` of its own angle) and of ``c'`` are read apart: a function that takes cos and
sin per channel across a section boundary (the two channels of a pair on different axes) shows as two angles.

The angle at the zero position vector is read first and subtracted: a scheme with a phase at the origin (DINOv3's
patch centres in ``[-1, 1]``, an affine grid) turns every pair already at ``p = 0``. Each axis is then probed at
``step * e_a``: ``step = 1`` for integer positions; for real coordinates (``continuous``) the largest power of two
``<= 1`` at which no declared angle exceeds one radian, so that no angle wraps (a frequency up to ``pi`` times the
declared one still reads true).
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from posproof.numeric.audit.call import to_numpy, uses_library
from posproof.numeric.audit.report import AuditCallError, function_name
from posproof.numeric.multiaxis import channel_pairs

#: The array libraries a multi-axis function is called with, in order: the first that does not raise is kept.
BACKENDS = ("numpy", "torch", "jax")


class MultiaxisCaller:
    r"""Calls ``fn(vectors (N, d), positions (N, A))``: NumPy arrays first, then torch tensors, then JAX arrays
    (each library imported only when the ones before raised, and skipped when it is not installed; JAX only for a
    function whose module holds it); the first that
    works is kept for every later call. Vectors are float64 (JAX without x64: float32); positions int64, or float64
    when ``continuous`` (real coordinates). The output comes back as float64 NumPy, or ``None`` when it is not
    finite or not of the input's shape."""

    def __init__(self, fn: Callable, *, continuous: bool = False, name: str | None = None):
        self.fn, self.continuous, self.name = fn, bool(continuous), name
        self.backend: str | None = None

    def _args(self, backend: str, x: np.ndarray, pos: np.ndarray) -> tuple:
        p = pos.astype(np.float64 if self.continuous else np.int64)
        if backend == "numpy":
            return x.copy(), p
        if backend == "torch":
            torch = importlib.import_module("torch")
            return torch.from_numpy(x.copy()), torch.from_numpy(p)
        jnp = importlib.import_module("jax.numpy")
        return jnp.asarray(x), jnp.asarray(p)

    def raw(self, x: np.ndarray, pos: np.ndarray) -> np.ndarray:
        r"""The output as a float64 NumPy array of any shape; :class:`AuditCallError` when every library raised."""
        errors: list[tuple[str, Exception]] = []
        # JAX only for code written for it: a forked child of a process that ran JAX hangs in its first compile
        tries = BACKENDS if uses_library(self.fn, "jax") else tuple(b for b in BACKENDS if b != "jax")
        for backend in (self.backend,) if self.backend else tries:
            try:
                args = self._args(backend, x, pos)
            except ImportError:
                continue
            try:
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    result = self.fn(*args)
            except Exception as e:  # noqa: BLE001 - the user's code may raise anything
                errors.append((backend, e))
                continue
            self.backend = backend
            name = self.name or function_name(self.fn)
            y, _ = to_numpy(result, f"the output of {name}(vectors {x.shape}, positions {pos.shape})")
            return np.asarray(y, dtype=np.float64)
        raise AuditCallError(self._raised(x, pos, errors))

    def _raised(self, x: np.ndarray, pos: np.ndarray, errors: list[tuple[str, Exception]]) -> str:
        def said(e: Exception) -> str:
            first = (str(e).splitlines() or [""])[0]
            return f"{type(e).__name__}: {first}" if first else type(e).__name__

        name = self.name or function_name(self.fn)
        head = f"{name}(vectors ({x.shape[0]}, {x.shape[1]}), positions ({pos.shape[0]}, {pos.shape[1]})) raised"
        if not errors:  # pragma: no cover - NumPy is always there
            return f"{head} nothing: no array library could be imported"
        (first_backend, first), rest = errors[0], errors[1:]
        also = "; ".join(f"{b}: {said(e)}" for b, e in rest)
        return f"{head} {said(first)}" + (f" (with {first_backend} arrays; then {also})" if also else "")

    def __call__(self, x: np.ndarray, pos: np.ndarray) -> np.ndarray | None:
        y = self.raw(x, pos)
        if y.shape != x.shape or not np.isfinite(y).all():
            return None
        return y


def probe_step(inv_freq: np.ndarray, continuous: bool) -> float:
    r"""The coordinate each axis is probed at: 1 for integer positions; for real coordinates the largest power of
    two ``<= 1`` at which every declared angle ``|inv_freq[i]| * step`` is at most one radian."""
    if not continuous:
        return 1.0
    top = float(np.max(np.abs(inv_freq))) if inv_freq.size else 0.0
    step = 1.0
    while top * step > 1.0:
        step /= 2.0
    return step


def wrap(angle: np.ndarray) -> np.ndarray:
    r"""Angles brought into ``(-pi, pi]``."""
    return np.pi - np.mod(np.pi - angle, 2 * np.pi)


@dataclass(frozen=True)
class ChannelAngles:
    r"""At one position vector: the angle and the radius (the attention factor) of each channel of each pair,
    ``(2, r/2)`` (row 0: the pairs' first channels, row 1: their second channels)."""

    angle: np.ndarray  # (2, r/2)
    radius: np.ndarray  # (2, r/2)


def channel_angles(
    caller: MultiaxisCaller, width: int, axes: np.ndarray, layout: str, pos_vec: np.ndarray
) -> ChannelAngles | None:
    r"""The angle of each channel of each pair of the first ``r = 2 len(axes)`` channels at position vector
    ``pos_vec``, the pairs those ``layout`` gives the axis map ``axes`` (``None``: an output not finite or of another
    shape). Channel ``c`` of pair ``(c, c')``: its output row takes
    ``cos`` from the unit vector on ``c`` and ``-sin`` from the unit vector on ``c'``; channel ``c'`` the reverse."""
    first, second = channel_pairs(axes, layout=layout)
    half = first.size
    r = 2 * half
    rows = np.arange(half)
    x = np.zeros((r, width))  # (r, width): rows < r/2 a unit vector on c_i, the rest on c'_i
    x[rows, first] = 1.0
    x[half + rows, second] = 1.0
    y = caller(x, np.repeat(np.asarray(pos_vec)[None, :], r, axis=0))
    if y is None:
        return None
    cos1, sin1 = y[rows, first], -y[half + rows, first]
    cos2, sin2 = y[half + rows, second], y[rows, second]
    angle = np.stack([np.arctan2(sin1, cos1), np.arctan2(sin2, cos2)])
    radius = np.stack([np.hypot(cos1, sin1), np.hypot(cos2, sin2)])
    return ChannelAngles(angle, radius)


@dataclass(frozen=True)
class Measurement:
    r"""What the probes read: ``origin`` (the channels at the zero position vector), ``step``, and ``rate``
    ``(A, 2, r/2)``: the angle each channel turns by per unit of axis ``a`` (its angle at ``step * e_a`` less its
    angle at the origin, wrapped, over ``step``)."""

    origin: ChannelAngles
    step: float
    rate: np.ndarray  # (A, 2, r/2)


def measure(
    caller: MultiaxisCaller, width: int, axes: np.ndarray, n_axes: int, layout: str, step: float
) -> Measurement | None:
    r"""The probes: the zero position vector, then ``step * e_a`` for each axis (``None``: an output not finite or
    of another shape)."""
    origin = channel_angles(caller, width, axes, layout, np.zeros(n_axes))
    if origin is None:
        return None
    rate = np.empty((n_axes, 2, axes.size))
    for a in range(n_axes):
        at = channel_angles(caller, width, axes, layout, step * np.eye(n_axes)[a])
        if at is None:
            return None
        rate[a] = wrap(at.angle - origin.angle) / step
    return Measurement(origin, step, rate)


def drivers(rate: np.ndarray, axis_on: float, floor: float = 0.0) -> np.ndarray:
    r"""``(...)`` int64 from ``rate`` ``(A, ...)``: the one axis that turns each channel, ``-1`` when none or more
    than one does (an axis turns it when its rate is above ``axis_on`` of the channel's largest rate, and above
    ``floor``)."""
    size = np.abs(rate)
    on = (size > axis_on * size.max(axis=0)) & (size > floor)
    return np.where(on.sum(axis=0) == 1, on.argmax(axis=0), -1)
