r"""Where the numeric line's values come from: a :class:`Domain` per symbol (edge values first, then draws spread over
many magnitudes, and draws far beyond them), defaulting from the symbol's SymPy assumptions.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixElement

# ==============================================================================================================
# Numeric domains.
# ==============================================================================================================

#: Magnitudes spanned by the default domains (log-uniform): integer positions up to 2^24, reals 1e-6 .. 1e6.
INT_MAX = 2**24
REAL_TINY, REAL_HUGE = 1e-6, 1e6
#: How far the FAR_POINTS reach in the default domains: integers to 2^53 (where float64 stops holding every
#: integer; a float32 or int32 bug beyond 2^24 shows), reals to 1e12. Angles then reach 2^53 * 1e12 ~ 1e28, which
#: costs 28 of the NUMERIC_GUARD_DIGITS + dps working digits and leaves the rounding ~1e-47 absolute, below the
#: tolerance.
INT_FAR, REAL_FAR = 2**53, 1e12


def uniform_draw(rng: random.Random, bits: int) -> mpmath.mpf:
    r"""A uniform draw in [0, 1) with ``bits`` random bits (the working precision: not a float64)."""
    return mpmath.mpf(rng.getrandbits(bits)) / mpmath.mpf(2) ** bits


@dataclass(frozen=True)
class Domain:
    r"""Where a symbol's values come from. ``kind`` is ``"real"``, ``"integer"`` or ``"complex"``; ``lo`` and ``hi``
    bound it (numbers, or SymPy expressions in the size symbols such as ``d/2 - 1``); ``log`` spreads the draws
    log-uniformly over the magnitudes in range (both signs when ``lo < 0 < hi``), else uniformly; ``edges`` are
    values tried first, deterministically (``0``, ``±1`` where allowed). ``parity`` 0/1 keeps integers even/odd."""

    kind: str = "real"
    lo: Any = -3.0
    hi: Any = 3.0
    log: bool = False
    edges: tuple = ()
    parity: int | None = None
    #: Magnitudes far beyond ``hi`` that ``FAR_POINTS`` points draw from (``None``: a bounded domain, none).
    far: Any = None

    def __post_init__(self):
        if self.kind not in ("real", "integer", "complex"):
            raise ValueError(f"kind must be 'real', 'integer' or 'complex', got {self.kind!r}")

    def bounds(self, env: Mapping) -> tuple:
        def value(v):
            if isinstance(v, sp.Basic):
                v = v.subs(env)
                if not v.is_number:
                    raise ValueError(f"domain bound {v} depends on symbols that are not sizes")
                return int(v) if self.kind == "integer" else mpmath.mpf(sp.N(v, 30))
            return v

        return value(self.lo), value(self.hi)

    def draw(self, rng: random.Random, bits: int, env: Mapping = {}):  # noqa: B006 - read only
        lo, hi = self.bounds(env)
        if self.kind == "complex":
            r = _log_uniform(rng, bits, mpmath.mpf(lo), mpmath.mpf(hi))
            return r * mpmath.expjpi(2 * uniform_draw(rng, bits) - 1)
        if self.kind == "integer":
            lo, hi = int(lo), int(hi)
            if lo > hi:
                raise ValueError(f"empty integer domain [{lo}, {hi}]")
            if self.log:
                v = _log_spread_int(rng, lo, hi)
            else:
                v = rng.randint(lo, hi)
            if self.parity is not None and v % 2 != self.parity:
                v = v + 1 if v + 1 <= hi else v - 1
            return mpmath.mpf(v)
        lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
        if not self.log:
            return lo + (hi - lo) * uniform_draw(rng, bits)
        if lo > 0:
            return _log_uniform(rng, bits, lo, hi)
        if hi < 0:
            return -_log_uniform(rng, bits, -hi, -lo)
        # both signs: pick a side in proportion to its log-width, magnitudes log-uniform in [REAL_TINY, |bound|]
        tiny = mpmath.mpf(REAL_TINY)
        up = mpmath.log(hi / tiny) if hi > tiny else mpmath.mpf(0)
        down = mpmath.log(-lo / tiny) if -lo > tiny else mpmath.mpf(0)
        if up + down == 0:
            return lo + (hi - lo) * uniform_draw(rng, bits)
        if uniform_draw(rng, 32) * (up + down) < up:
            return _log_uniform(rng, bits, tiny, hi)
        return -_log_uniform(rng, bits, tiny, -lo)

    def draw_far(self, rng: random.Random, bits: int, env: Mapping = {}):  # noqa: B006 - read only
        r"""A draw with magnitude log-uniform between the domain's bound and ``far`` (its sign kept in the domain,
        parity kept), for the points that look far beyond the usual magnitudes; a plain draw if there is no
        ``far``."""
        if self.far is None or self.kind == "complex":
            return self.draw(rng, bits, env)
        lo, hi = self.bounds(env)
        top = max(abs(lo), abs(hi), 1)
        sign = -1 if hi <= 0 or (lo < 0 and rng.random() < 0.5) else 1
        if self.kind == "integer":
            v = sign * int(_log_uniform(rng, bits, mpmath.mpf(top), mpmath.mpf(self.far)))
            if self.parity is not None and v % 2 != self.parity:
                v += 1
            return mpmath.mpf(v)
        return sign * _log_uniform(rng, bits, mpmath.mpf(top), mpmath.mpf(self.far))

    def edge_values(self, env: Mapping = {}) -> tuple:  # noqa: B006 - read only
        lo, hi = self.bounds(env)
        if self.kind == "complex":
            return self.edges
        out = []
        for v in self.edges:
            if lo <= v <= hi and (self.parity is None or int(v) % 2 == self.parity):
                out.append(mpmath.mpf(v))
        return tuple(out)

    @staticmethod
    def of(atom) -> Domain:
        r"""The default domain from SymPy assumptions (of a symbol, an IndexedBase or a MatrixSymbol):

        * integers: ``[-2^24, 2^24]`` log-spread (``[0, 2^24]`` / ``[1, 2^24]`` if nonnegative / positive), edges
          0, ±1, parity kept for even/odd symbols;
        * reals: magnitudes ``1e-6 .. 1e6`` log-spread with both signs (positive: ``(1e-6, 1e6)``), edges 0, ±1;
        * matrix entries: reals;
        * anything else: complex, moduli ``1e-3 .. 1e3`` and every argument, with edges on and beside the
          negative real axis (the branch cut of ``log`` and ``sqrt``)."""
        base = atom
        if isinstance(atom, sp.Indexed):
            base = atom.base.label
        elif isinstance(atom, sp.IndexedBase):
            base = atom.label
        elif isinstance(atom, MatrixElement):
            base = atom.parent
        if isinstance(base, sp.MatrixSymbol):
            return Domain("real", -REAL_HUGE, REAL_HUGE, log=True, edges=(0, 1, -1))
        if base.is_integer:
            parity = 0 if base.is_even else (1 if base.is_odd else None)
            if base.is_positive:
                return Domain("integer", 1, INT_MAX, log=True, edges=(1, 2), parity=parity, far=INT_FAR)
            if base.is_nonnegative:
                return Domain("integer", 0, INT_MAX, log=True, edges=(0, 1, 2), parity=parity, far=INT_FAR)
            return Domain("integer", -INT_MAX, INT_MAX, log=True, edges=(0, 1, -1, 2), parity=parity, far=INT_FAR)
        if base.is_real:
            if base.is_positive:
                return Domain("real", REAL_TINY, REAL_HUGE, log=True, edges=(1,), far=REAL_FAR)
            if base.is_nonnegative:
                return Domain("real", 0, REAL_HUGE, log=True, edges=(0, 1), far=REAL_FAR)
            return Domain("real", -REAL_HUGE, REAL_HUGE, log=True, edges=(0, 1, -1), far=REAL_FAR)
        cut = mpmath.mpf(10) ** -20
        edges = (mpmath.mpc(1), mpmath.mpc(-1), mpmath.mpc(0, 1), mpmath.mpc(-1, cut), mpmath.mpc(-1, -cut))
        return Domain("complex", 1e-3, 1e3, log=True, edges=edges)


def _log_uniform(rng: random.Random, bits: int, lo, hi):
    r"""Log-uniform in ``[lo, hi]`` (``0 < lo <= hi``), at ``bits`` bits."""
    return lo * (hi / lo) ** uniform_draw(rng, bits)


def _log_spread_int(rng: random.Random, lo: int, hi: int) -> int:
    r"""An integer in ``[lo, hi]`` whose magnitude is log-uniform (both signs if the range has them)."""

    def magnitude(top: int) -> int:
        return min(top, int(math.exp(rng.random() * math.log(top + 1))))

    if lo >= 0:
        return lo + magnitude(hi - lo)
    if hi <= 0:
        return hi - magnitude(hi - lo)
    up, down = math.log1p(hi), math.log1p(-lo)
    return magnitude(hi) if rng.random() * (up + down) < up else -magnitude(-lo)
