r"""What unit-vector probes show about a RoPE function: the probed positions, the matrices ``A_m`` read as
channel pairs, a layout, a rotary width and ``2 x 2`` blocks ``rho R(phi)`` (:func:`_structure`), and the angle
advance per position of each pair, unwrapped over doubling positions (:func:`_unwrap_frequencies`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .tolerances import AUDIT_BLOCK_TOL as BLOCK_TOL
from .tolerances import AUDIT_COUPLING_TOL as COUPLING_TOL
from .tolerances import AUDIT_UNWRAP_JUMP as UNWRAP_JUMP


def _wrap(a):
    return (np.asarray(a) + np.pi) % (2 * np.pi) - np.pi


def _probe_positions(max_position: int) -> list[int]:
    out = [0, 1, 2, 3]
    p = 4
    while p <= max_position and p <= 2**24:
        out.append(p)
        p *= 2
    return out


@dataclass
class _Structure:
    r"""What the unit-vector probes show (one output of the function)."""

    pairs: list  # [(a, b)] channel pairs, a < b
    layout: str | None  # interleaved, half, or None (unrecognised)
    rotary_dim: int
    kind: str  # "rotation", "reflection", "not-orthogonal", "none"
    rho: np.ndarray | None  # (pairs,) scale of each block
    phi: np.ndarray | None  # (positions, pairs) angle of each block
    worst_pair: int = 0


def _structure(A: np.ndarray, P: list, width: int) -> _Structure:
    r"""``A``: ``(positions, width, width)`` the matrices ``A_m`` (NaN where the function gave non-finite values)."""
    finite = np.isfinite(A).all(axis=(1, 2))  # (positions,)
    Af = A[finite]
    off = np.abs(Af - np.eye(width) * np.diagonal(Af, axis1=1, axis2=2)[:, :, None]).max(axis=0) > COUPLING_TOL
    off = off | off.T
    partners = [np.flatnonzero(off[c]) for c in range(width)]
    if any(p.size > 1 for p in partners):
        return _Structure([], None, 0, "none", None, None)
    pairs = sorted({(min(c, int(p[0])), max(c, int(p[0]))) for c, p in enumerate(partners) if p.size})
    n = len(pairs)
    layout = None
    if n and pairs == [(2 * i, 2 * i + 1) for i in range(n)]:
        layout = "interleaved"
    if n and pairs == [(i, i + n) for i in range(n)]:
        layout = "half" if layout is None else "either"
    if not n:
        return _Structure([], None, 0, "none", None, None)
    a, b = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
    c11, c12, c21, c22 = A[:, a, a], A[:, a, b], A[:, b, a], A[:, b, b]  # (positions, pairs)
    with np.errstate(invalid="ignore"):
        rot = np.nanmax(np.maximum(np.abs(c11 - c22), np.abs(c12 + c21)), axis=0)  # (pairs,)
        ref = np.nanmax(np.maximum(np.abs(c11 + c22), np.abs(c12 - c21)), axis=0)
    if np.all(rot <= BLOCK_TOL):
        rho_all = np.hypot(c11, c21)  # (positions, pairs)
        rho = np.nanmedian(rho_all, axis=0)
        kind = "rotation"
        if np.nanmax(np.abs(rho_all - rho)) > BLOCK_TOL:
            kind = "not-orthogonal"
        return _Structure(pairs, layout, 2 * n, kind, rho, np.arctan2(c21, c11), int(np.argmax(rot)))
    kind = "reflection" if np.all(np.minimum(rot, ref) <= BLOCK_TOL) else "not-orthogonal"
    return _Structure(pairs, layout, 2 * n, kind, None, None, int(np.argmax(rot)))


def _unwrap_frequencies(phi: np.ndarray, P: list) -> tuple[np.ndarray, list]:
    r"""Per pair, the angle advance per position ``omega_i`` from ``phi`` ``(positions, pairs)`` at ``P``: start at
    ``m = 1`` and refine over ``m = 2, 4, 8, ...`` while ``|m omega| <= 16`` (no ambiguity of the wrap). Also the
    positions where an angle jumps away from ``m omega`` (by more than :data:`UNWRAP_JUMP`)."""
    omega = _wrap(phi[1] - phi[0])  # (pairs,)
    jumps = []
    for j, m in enumerate(P):
        if m < 2:
            continue
        pred = m * omega
        ok = np.isfinite(phi[j]) & (np.abs(pred) <= 16)
        resid = _wrap(phi[j] - phi[0] - pred)
        bad = ok & (np.abs(resid) > UNWRAP_JUMP)
        if bad.any():  # angles from here on are not m omega: refine no further
            jumps.append(int(m))
            break
        omega = np.where(ok, (pred + resid) / m, omega)
    return omega, jumps
