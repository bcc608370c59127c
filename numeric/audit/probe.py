r"""What unit-vector probes show about a RoPE function: the probed positions, the matrices ``A_m`` read as
channel pairs, a layout, a rotary width and ``2 x 2`` blocks ``rho R(phi)`` (:func:`_probe`, :func:`read_structure`),
the angle advance per position of each pair, unwrapped over doubling positions (:func:`_unwrap_frequencies`), and
what the angles say: sign, quarter turn, offset, frequencies (:func:`read_angles`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from posproof.numeric.tolerances import AUDIT_ANGLE_TOL as ANGLE_TOL
from posproof.numeric.tolerances import AUDIT_BLOCK_TOL as BLOCK_TOL
from posproof.numeric.tolerances import AUDIT_COUPLING_TOL as COUPLING_TOL
from posproof.numeric.tolerances import AUDIT_REFINE_ATOL as REFINE_ATOL
from posproof.numeric.tolerances import AUDIT_UNWRAP_JUMP as UNWRAP_JUMP


def wrap_angle(a):
    return (np.asarray(a) + np.pi) % (2 * np.pi) - np.pi


def probe_positions(max_position: int) -> list[int]:
    out = [0, 1, 2, 3]
    p = 4
    while p <= max_position and p <= 2**24:
        out.append(p)
        p *= 2
    return out


@dataclass
class Structure:
    r"""What the unit-vector probes show (one output of the function)."""

    pairs: list  # [(a, b)] channel pairs, a < b
    layout: str | None  # interleaved, half, or None (unrecognised)
    rotary_dim: int
    kind: str  # "rotation", "reflection", "not-orthogonal", "none"
    rho: np.ndarray | None  # (pairs,) scale of each block
    phi: np.ndarray | None  # (positions, pairs) angle of each block
    worst_pair: int = 0


def read_structure(A: np.ndarray, P: list, width: int, still_pairs: bool = False) -> Structure:
    r"""``A``: ``(positions, width, width)`` the matrices ``A_m`` (NaN where the function gave non-finite values).

    ``still_pairs`` (proportional RoPE, whose last pairs turn by 0; a free frequency table holding zeros): channels
    that no position moves are read as pairs turning by 0 in the layout the turning pairs show over the whole head
    (half: ``(i, i + width/2)``; interleaved: ``(2i, 2i + 1)``), so the rotary width is the head's."""
    finite = np.isfinite(A).all(axis=(1, 2))  # (positions,)
    Af = A[finite]
    off = np.abs(Af - np.eye(width) * np.diagonal(Af, axis1=1, axis2=2)[:, :, None]).max(axis=0) > COUPLING_TOL
    off = off | off.T
    partners = [np.flatnonzero(off[c]) for c in range(width)]
    if any(p.size > 1 for p in partners):
        return Structure([], None, 0, "none", None, None)
    pairs = sorted({(min(c, int(p[0])), max(c, int(p[0]))) for c, p in enumerate(partners) if p.size})
    if still_pairs and pairs and width % 2 == 0:
        h, k = width // 2, len(pairs)
        still = np.abs(Af - np.eye(width)).max(axis=(0, 1)) <= COUPLING_TOL  # (width,) channels never moved
        for layout_pairs in ([(i, i + h) for i in range(h)], [(2 * i, 2 * i + 1) for i in range(h)]):
            rest = [p for p in layout_pairs if p not in pairs]
            if len(rest) == h - k and all(still[a] and still[b] for a, b in rest):
                pairs = layout_pairs
                break
    n = len(pairs)
    layout = None
    if n and pairs == [(2 * i, 2 * i + 1) for i in range(n)]:
        layout = "interleaved"
    if n and pairs == [(i, i + n) for i in range(n)]:
        layout = "half" if layout is None else "either"
    if not n:
        return Structure([], None, 0, "none", None, None)
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
        return Structure(pairs, layout, 2 * n, kind, rho, np.arctan2(c21, c11), int(np.argmax(rot)))
    kind = "reflection" if np.all(np.minimum(rot, ref) <= BLOCK_TOL) else "not-orthogonal"
    return Structure(pairs, layout, 2 * n, kind, None, None, int(np.argmax(rot)))


def same_frequencies(theta: np.ndarray, ref: np.ndarray, rtol: float | np.ndarray) -> bool:
    r"""``theta`` is ``ref`` within a relative ``rtol`` pair by pair (same size); a pair that does not turn
    (``ref_i = 0``, proportional RoPE) must measure exactly 0, as a rotation by ``cos 0 = 1, sin 0 = 0`` does."""
    return theta.shape == ref.shape and bool(np.all(np.abs(theta - ref) <= rtol * np.abs(ref)))


def furthest_pair(theta: np.ndarray, ref: np.ndarray) -> int:
    r"""The pair whose frequency is furthest from ``ref`` in relative terms (absolute where ``ref_i = 0``)."""
    scale = np.where(ref == 0, 1.0, np.abs(ref))
    return int(np.argmax(np.abs(theta - ref) / scale))


def _unwrap_frequencies(phi: np.ndarray, P: list) -> tuple[np.ndarray, list]:
    r"""Per pair, the angle advance per position ``omega_i`` from ``phi`` ``(positions, pairs)`` at ``P``: start at
    ``m = 1`` and refine over ``m = 2, 4, 8, ...`` while ``|m omega| <= 16`` (no ambiguity of the wrap). Also the
    positions where an angle jumps away from ``m omega`` (by more than :data:`UNWRAP_JUMP`)."""
    omega = wrap_angle(phi[1] - phi[0])  # (pairs,)
    jumps = []
    for j, m in enumerate(P):
        if m < 2:
            continue
        pred = m * omega
        ok = np.isfinite(phi[j]) & (np.abs(pred) <= 16)
        resid = wrap_angle(phi[j] - phi[0] - pred)
        bad = ok & (np.abs(resid) > UNWRAP_JUMP)
        if bad.any():  # angles from here on are not m omega: refine no further
            jumps.append(int(m))
            break
        omega = np.where(ok, (pred + resid) / m, omega)
    return omega, jumps


def probe_matrices(f: Callable, P: list, width: int) -> np.ndarray:
    r"""Call ``f(x, positions)`` once with the ``width x width`` identity at every position of ``P``: the matrices
    ``A_m`` it applies, ``(positions, out, in)``."""
    X = np.tile(np.eye(width), (len(P), 1))  # (positions * width, width)
    pos = np.repeat(np.array(P, dtype=np.int64), width)
    with np.errstate(all="ignore"):
        Y = f(X, pos)  # (positions * width, width): row j of block m is A_m e_j
    return Y.reshape(len(P), width, width).transpose(0, 2, 1)  # (positions, width, width)


def _probe(f: Callable, P: list, width: int) -> Structure:
    r"""The structure of the matrices :func:`probe_matrices` reads."""
    return read_structure(probe_matrices(f, P, width), P, width)


@dataclass(frozen=True)
class Angles:
    r"""What the block angles ``phi_i(m)`` of a rotation per pair say (one output of the function)."""

    layout: str  # the layout found ("either", for one pair, read as the expected one)
    delta: np.ndarray  # (pairs,) angle at position 0
    omega: np.ndarray  # (pairs,) angle advance per position
    jumps: list  # positions where angles leave m omega
    swapped: bool  # cos and sin exchanged: a quarter turn at m = 0
    quarter: float  # that quarter turn, +-pi/2, or 0
    sigma: float  # +1 counter-clockwise, -1 clockwise
    sigma_eff: float  # the direction once the quarter turn is accounted for
    offset: float  # c of angles (m + c) theta_i, 0 if none
    theta: np.ndarray  # (pairs,) the measured frequencies |omega_i|
    rho: float  # the scale of the blocks (the attention factor)

    @property
    def exact(self) -> bool:
        r"""Angles ``m theta_i`` counter-clockwise from 0 (whatever the frequencies)."""
        return not self.swapped and self.sigma_eff > 0 and self.offset == 0.0 and not self.jumps


def read_angles(st: Structure, P: list, expected_layout: str) -> Angles:
    r"""Sign, quarter turn, offset and frequencies from the blocks of a rotation per pair in a known layout."""
    layout = st.layout if st.layout != "either" else expected_layout
    phi = st.phi  # (positions, pairs)
    assert layout is not None and phi is not None and st.rho is not None
    ok_rows = np.isfinite(phi).all(axis=1)
    phi = np.where(ok_rows[:, None], phi, np.nan)
    delta = wrap_angle(phi[0])  # angle at position 0, (pairs,)
    omega, jumps = _unwrap_frequencies(phi, P)  # (pairs,), positions where angles leave m omega
    # sign, swap, offset
    swapped = bool(np.all(np.abs(np.abs(delta) - np.pi / 2) < ANGLE_TOL))
    quarter = np.sign(np.median(delta)) * np.pi / 2 if swapped else 0.0
    sigma = 1.0 if np.median(omega[np.abs(omega) > 1e-12]) >= 0 else -1.0
    sigma_eff = sigma * (-1.0 if quarter > 0 else 1.0)
    rest = wrap_angle(delta - quarter)
    big = np.abs(omega) >= 0.05
    offset = 0.0
    if np.any(np.abs(rest) > ANGLE_TOL) and big.any():
        offset = float(np.median(rest[big] / omega[big]))
    rho = float(np.median(st.rho))
    return Angles(layout, delta, omega, jumps, swapped, quarter, sigma, sigma_eff, offset, np.abs(omega), rho)


def refine_frequencies(phi: np.ndarray, P: list, omega: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""The frequencies ``omega`` ``(pairs,)`` of :func:`read_angles` refined over every probed position of ``P``
    (``phi``: ``(positions, pairs)``, row 0 at ``m = 0``): at each position a pair's angle is unwrapped against
    ``m omega`` and, while it stays within :data:`REFINE_ATOL` of it, gives ``omega`` to the precision of one angle
    over ``m`` (``2**20`` times finer than at ``m = 1``). A pair stops at the first position that does not fit
    (16-bit angles, a jump). Also the last position each pair was refined at (``1`` if none): the measurement's
    uncertainty is an angle's error over ``m_last theta_i``."""
    omega = np.array(omega, dtype=np.float64)  # (pairs,)
    m_last = np.ones(omega.shape)
    active = np.isfinite(omega) & np.isfinite(phi[0])
    for j, m in enumerate(P):
        if m < 2:
            continue
        pred = m * omega
        with np.errstate(invalid="ignore"):
            resid = wrap_angle(phi[j] - phi[0] - pred)
            active = active & np.isfinite(phi[j]) & (np.abs(resid) <= REFINE_ATOL)
        omega = np.where(active, (pred + resid) / m, omega)
        m_last = np.where(active, float(m), m_last)
    return omega, m_last


#: Unit roundoff of each dtype a table of cos and sin may be stored in, narrowest first.
TABLE_ROUNDOFF = {"bfloat16": 2.0**-8, "float16": 2.0**-11, "float32": 2.0**-24, "float64": 2.0**-53}


def _dtype(name: str):
    if name == "bfloat16":
        import ml_dtypes

        return ml_dtypes.bfloat16
    return np.dtype(name)


def table_dtype(A: np.ndarray, st: Structure) -> str:
    r"""The narrowest dtype of :data:`TABLE_ROUNDOFF` that holds every cos and sin the probes read (the entries of
    the ``2 x 2`` blocks of the probed matrices ``A`` ``(positions, out, in)``, unit vectors in): a table rounded to
    16 bits gives 16-bit values only (a random float32 value is a bfloat16 one with probability ``2**-16``).
    ``"float64"`` when no narrower dtype holds them."""
    a = np.array([p[0] for p in st.pairs])
    b = np.array([p[1] for p in st.pairs])
    values = np.concatenate([A[:, a, a].ravel(), A[:, b, a].ravel(), A[:, a, b].ravel(), A[:, b, b].ravel()])
    values = values[np.isfinite(values)]
    for name in ("bfloat16", "float16", "float32"):
        try:
            dt = _dtype(name)
        except ImportError:  # pragma: no cover - bfloat16 needs ml_dtypes
            continue
        with np.errstate(over="ignore"):
            if values.size and np.array_equal(values.astype(dt).astype(np.float64), values):
                return name
    return "float64"
