r"""Where the numeric line's values come from: a :class:`Domain` per symbol (edge values first, then draws spread over
many magnitudes, and draws far beyond them), defaulting from the symbol's SymPy assumptions.

A default domain honours every assumption it is built from (:func:`holds` is the rule a value is judged by): a
symbol declared negative is drawn negative, a nonzero one never 0, an even one even, an imaginary one on the
imaginary axis, a prime one prime. An assumption no drawn value can satisfy exactly (``irrational``,
``transcendental``: every working-precision number is a rational) is refused with a ``ValueError``.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Mapping
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
    r"""Where a symbol's values come from. ``kind`` is ``"real"``, ``"integer"``, ``"imaginary"`` (``i`` times a
    real in ``[lo, hi]``) or ``"complex"``; ``lo`` and ``hi`` bound it (numbers, or SymPy expressions in the size
    symbols such as ``d/2 - 1``); ``log`` spreads the draws log-uniformly over the magnitudes in range (both signs
    when ``lo < 0 < hi``), else uniformly; ``edges`` are values tried first, deterministically (``0``, ``±1`` where
    allowed). ``parity`` 0/1 keeps integers even/odd; ``nonzero`` never gives 0; ``facts`` are ``(assumption,
    value)`` pairs every value is checked against by :func:`holds` (a draw that fails is drawn again)."""

    kind: str = "real"
    lo: Any = -3.0
    hi: Any = 3.0
    log: bool = False
    edges: tuple = ()
    parity: int | None = None
    #: Magnitudes far beyond ``hi`` that ``FAR_POINTS`` points draw from (``None``: a bounded domain, none).
    far: Any = None
    nonzero: bool = False
    facts: tuple = ()

    def __post_init__(self):
        if self.kind not in ("real", "integer", "imaginary", "complex"):
            raise ValueError(f"kind must be 'real', 'integer', 'imaginary' or 'complex', got {self.kind!r}")
        for name, _ in self.facts:
            if name not in _TRUTH:
                raise ValueError(f"facts: unknown assumption {name!r}; accepted: {sorted(_TRUTH)}")

    def bounds(self, env: Mapping) -> tuple:
        def value(v):
            if isinstance(v, sp.Basic):
                v = v.subs(env)
                if not v.is_number:
                    raise ValueError(f"domain bound {v} depends on symbols that are not sizes")
                return int(v) if self.kind == "integer" else mpmath.mpf(sp.N(v, 30))
            return v

        return value(self.lo), value(self.hi)

    def admits(self, v) -> bool:
        r"""Whether a drawn value keeps the domain's ``nonzero`` and ``facts`` (bounds and parity are kept by the
        draw itself; far draws leave the bounds on purpose)."""
        return not (self.nonzero and v == 0) and all(holds(name, v) == want for name, want in self.facts)

    def draw(self, rng: random.Random, bits: int, env: Mapping = {}):  # noqa: B006 - read only
        if not (self.nonzero or self.facts):
            return self._draw(rng, bits, env)
        return self._until_admitted(lambda: self._draw(rng, bits, env))

    def draw_far(self, rng: random.Random, bits: int, env: Mapping = {}):  # noqa: B006 - read only
        r"""A draw with magnitude log-uniform between the domain's bound and ``far`` (its sign kept in the domain,
        parity kept), for the points that look far beyond the usual magnitudes; a plain draw if there is no
        ``far``."""
        if not (self.nonzero or self.facts):
            return self._draw_far(rng, bits, env)
        return self._until_admitted(lambda: self._draw_far(rng, bits, env))

    def _until_admitted(self, draw: Callable):
        for _ in range(_ADMIT_TRIES):
            v = draw()
            if self.admits(v):
                return v
        raise ValueError(f"no value drawn from {self} in {_ADMIT_TRIES} tries satisfies its facts")

    def _draw(self, rng: random.Random, bits: int, env: Mapping):
        lo, hi = self.bounds(env)
        if self.kind == "complex":
            r = _log_uniform(rng, bits, mpmath.mpf(lo), mpmath.mpf(hi))
            return r * mpmath.expjpi(2 * uniform_draw(rng, bits) - 1)
        if self.kind == "imaginary":
            return mpmath.mpc(0, _real_draw(rng, bits, mpmath.mpf(lo), mpmath.mpf(hi), self.log))
        if self.kind == "integer":
            lo, hi = int(lo), int(hi)
            if lo > hi:
                raise ValueError(f"empty integer domain [{lo}, {hi}]")
            if self.log:
                v = _log_spread_int(rng, lo, hi)
            else:
                v = rng.randint(lo, hi)
            if self.parity is not None and v % 2 != self.parity:
                v = v + 1 if v + 1 <= hi and not (self.nonzero and v + 1 == 0) else v - 1
            return mpmath.mpf(v)
        return _real_draw(rng, bits, mpmath.mpf(lo), mpmath.mpf(hi), self.log)

    def _draw_far(self, rng: random.Random, bits: int, env: Mapping):
        if self.far is None or self.kind in ("complex", "imaginary"):
            return self._draw(rng, bits, env)
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
        if self.kind in ("complex", "imaginary"):
            return tuple(v for v in self.edges if self.admits(v))
        out = []
        for v in self.edges:
            if lo <= v <= hi and (self.parity is None or int(v) % 2 == self.parity) and self.admits(v):
                out.append(mpmath.mpf(v))
        return tuple(out)

    @staticmethod
    def of(atom) -> Domain:
        r"""The default domain from SymPy assumptions (of a symbol, an IndexedBase or Indexed, a MatrixSymbol):

        * integers: ``[-2^24, 2^24]`` log-spread, cut to the declared sign (``[1, 2^24]`` positive, ``[0, 2^24]``
          nonnegative, ``[-2^24, -1]`` negative, ``[-2^24, 0]`` nonpositive, without 0 if nonzero), edges among
          0, ±1, ±2 within that, parity kept for even/odd symbols, primes or composites if declared so;
        * reals (and extended reals: drawn finite): magnitudes ``1e-6 .. 1e6`` log-spread, with both signs unless
          a sign is declared, edges among 0, ±1 within it (±1/2 for a symbol declared noninteger);
        * imaginary: ``i`` times a nonzero real of either sign, edges ``±i``;
        * matrix entries: reals;
        * anything else: complex, moduli ``1e-3 .. 1e3`` and every argument, with edges on and beside the
          negative real axis (the branch cut of ``log`` and ``sqrt``), less those the assumptions exclude.

        Every value drawn satisfies every assumption of the atom (the rule: :func:`holds`)."""
        base = atom
        if isinstance(atom, sp.Indexed):
            base = atom.base.label
        elif isinstance(atom, sp.IndexedBase):
            base = atom.label
        elif isinstance(atom, MatrixElement):
            base = atom.parent
        if isinstance(base, sp.MatrixSymbol):
            return _MATRIX_ENTRY
        return _default_domain(tuple(sorted(getattr(base, "assumptions0", {}).items())), str(base))


#: Draws tried for a value that keeps a domain's ``nonzero`` and ``facts`` (primes near 2^53 are 1 in 37).
_ADMIT_TRIES = 1000

_MATRIX_ENTRY = Domain("real", -REAL_HUGE, REAL_HUGE, log=True, edges=(0, 1, -1))


def _parts(v) -> tuple:
    z = mpmath.mpmathify(v)
    if isinstance(z, mpmath.mpc):
        return z.real, z.imag
    return z, mpmath.mpf(0)


def _real(v) -> bool:
    re, im = _parts(v)
    return im == 0 and mpmath.isfinite(re)


def _int(v) -> bool:
    re, im = _parts(v)
    return im == 0 and mpmath.isfinite(re) and mpmath.isint(re)


def _sign(v, test: Callable) -> bool:
    re, im = _parts(v)
    return im == 0 and mpmath.isfinite(re) and test(re)


def _prime(v) -> bool:
    return _int(v) and sp.isprime(int(_parts(v)[0]))


#: What each SymPy assumption says of a finite working-precision value. Exactness is literal: ``real`` means an
#: imaginary part exactly 0, ``integer`` an exactly integral real. Every such value is a rational number, so
#: ``rational`` and ``algebraic`` hold of every real (``algebraic`` of every value) and ``irrational`` and
#: ``transcendental`` of none.
_TRUTH: dict[str, Callable] = {
    "commutative": lambda v: True,
    "complex": lambda v: all(mpmath.isfinite(x) for x in _parts(v)),
    "finite": lambda v: all(mpmath.isfinite(x) for x in _parts(v)),
    "infinite": lambda v: not all(mpmath.isfinite(x) for x in _parts(v)),
    "real": _real,
    "extended_real": lambda v: _parts(v)[1] == 0,
    "hermitian": lambda v: _parts(v)[1] == 0,
    "antihermitian": lambda v: _parts(v)[0] == 0,
    "imaginary": lambda v: _parts(v)[0] == 0 and _parts(v)[1] != 0,
    "zero": lambda v: _parts(v) == (0, 0),
    "positive": lambda v: _sign(v, lambda x: x > 0),
    "negative": lambda v: _sign(v, lambda x: x < 0),
    "nonnegative": lambda v: _sign(v, lambda x: x >= 0),
    "nonpositive": lambda v: _sign(v, lambda x: x <= 0),
    "nonzero": lambda v: _sign(v, lambda x: x != 0),
    "extended_positive": lambda v: _sign(v, lambda x: x > 0),
    "extended_negative": lambda v: _sign(v, lambda x: x < 0),
    "extended_nonnegative": lambda v: _sign(v, lambda x: x >= 0),
    "extended_nonpositive": lambda v: _sign(v, lambda x: x <= 0),
    "extended_nonzero": lambda v: _sign(v, lambda x: x != 0),
    "integer": _int,
    "noninteger": lambda v: _real(v) and not _int(v),
    "even": lambda v: _int(v) and int(_parts(v)[0]) % 2 == 0,
    "odd": lambda v: _int(v) and int(_parts(v)[0]) % 2 == 1,
    "prime": _prime,
    "composite": lambda v: _int(v) and int(_parts(v)[0]) > 1 and not _prime(v),
    "rational": _real,
    "irrational": lambda v: False,
    "algebraic": lambda v: _TRUTH["complex"](v),
    "transcendental": lambda v: False,
}


def holds(assumption: str, v) -> bool:
    r"""Whether the SymPy ``assumption`` (``"positive"``, ``"integer"``, ...) is true of the value ``v`` (an mpmath
    or Python number), read literally at the working precision (see ``_TRUTH``)."""
    if assumption not in _TRUTH:
        raise ValueError(f"assumption must be one of {sorted(_TRUTH)}, got {assumption!r}")
    return bool(_TRUTH[assumption](v))


#: Assumptions a default domain keeps by its construction, per kind (the others are checked on every draw).
_KEPT = {
    "integer": {
        "commutative", "complex", "finite", "infinite", "real", "extended_real", "hermitian", "integer",
        "noninteger", "rational", "irrational", "algebraic", "transcendental", "imaginary", "zero", "positive",
        "negative", "nonnegative", "nonpositive", "nonzero", "extended_positive", "extended_negative",
        "extended_nonnegative", "extended_nonpositive", "extended_nonzero", "even", "odd", "antihermitian",
    },
    "real": {
        "commutative", "complex", "finite", "infinite", "real", "extended_real", "hermitian", "rational",
        "algebraic", "transcendental", "imaginary", "zero", "positive", "negative", "nonnegative", "nonpositive",
        "nonzero", "extended_positive", "extended_negative", "extended_nonnegative", "extended_nonpositive",
        "extended_nonzero", "antihermitian",
    },
    "complex": {"commutative", "complex", "finite", "infinite", "algebraic", "transcendental"},
}  # fmt: skip
#: An imaginary symbol's other assumptions are all false of every nonzero value on the imaginary axis (or SymPy
#: would have found them inconsistent), except antihermitian, which holds of them.
_KEPT["imaginary"] = set(_TRUTH)


_SIGNS = ("positive", "negative", "nonnegative", "nonpositive", "nonzero")


@functools.lru_cache(maxsize=4096)
def _default_domain(facts: tuple, name: str) -> Domain:
    f = dict(facts)
    for impossible in ("irrational", "transcendental", "infinite"):
        if f.get(impossible) is True:
            raise ValueError(
                f"symbol {name} is declared {impossible}: the numeric line draws finite working-precision numbers"
                f" (rationals) and cannot honour it; declare it real (or complex) instead"
            )

    for s in ("real", *_SIGNS):
        if f.get(f"extended_{s}") is True and f.get(s) is False:  # then it is infinite: SymPy does not say so
            raise ValueError(
                f"symbol {name} is declared extended_{s} but not {s}, so infinite: the numeric line draws finite"
                f" numbers and cannot honour it; declare it {s} instead"
            )

    def yes(*names) -> bool:
        return any(f.get(n) is True for n in names)

    def no(*names) -> bool:
        return any(f.get(n) is False for n in names)

    realish = yes("integer", "even", "odd", "prime", "composite", "real", "extended_real", "rational", "hermitian")
    realish = realish or yes("noninteger", *(p + s for p in ("", "extended_") for s in _SIGNS))
    # of a finite real, "not positive" says nonpositive, and so on (of a complex value it says less: checked)
    pos = yes("positive", "extended_positive") or realish and no("nonpositive", "extended_nonpositive")
    neg = yes("negative", "extended_negative") or realish and no("nonnegative", "extended_nonnegative")
    nonneg = yes("nonnegative", "extended_nonnegative") or pos or realish and no("negative", "extended_negative")
    nonpos = yes("nonpositive", "extended_nonpositive") or neg or realish and no("positive", "extended_positive")
    nonzero = f.get("zero") is False or yes("nonzero", "extended_nonzero") or pos or neg
    pos, neg = pos or nonneg and nonzero and realish, neg or nonpos and nonzero and realish
    if realish and no("nonzero", "extended_nonzero") or nonneg and nonpos:
        f["zero"] = True
    zero = yes("zero") or (realish or nonneg or nonpos) and yes("antihermitian")  # conj(s) = -s = s: s = 0
    dom: dict[str, Any]
    extra: dict[str, Any]
    if zero or yes("integer", "even", "odd", "prime", "composite"):
        kind = "integer"
        parity = 0 if yes("even") or zero else (1 if yes("odd") else None)
        if zero:
            dom = dict(lo=0, hi=0, edges=(0,))
        elif yes("prime") and yes("even"):
            dom = dict(lo=2, hi=2, edges=(2,))
        elif pos:
            dom = dict(lo=1, hi=INT_MAX, edges=(1, 2))
        elif neg:
            dom = dict(lo=-INT_MAX, hi=-1, edges=(-1, -2))
        elif nonneg:
            dom = dict(lo=0, hi=INT_MAX, edges=(0, 1, 2))
        elif nonpos:
            dom = dict(lo=-INT_MAX, hi=0, edges=(0, -1, -2))
        elif nonzero:
            dom = dict(lo=-INT_MAX, hi=INT_MAX, edges=(1, -1, 2, -2))
        else:
            dom = dict(lo=-INT_MAX, hi=INT_MAX, edges=(0, 1, -1, 2))
        single = dom["lo"] == dom["hi"]
        extra = dict(log=not single, parity=parity, far=None if single else INT_FAR)
    elif yes("real", "extended_real", "noninteger", "rational", "hermitian"):
        kind = "real"
        half = mpmath.mpf(1) / 2
        if pos:
            dom = dict(lo=REAL_TINY, hi=REAL_HUGE, edges=(1,))
        elif neg:
            dom = dict(lo=-REAL_HUGE, hi=-REAL_TINY, edges=(-1,))
        elif nonneg:
            dom = dict(lo=0, hi=REAL_HUGE, edges=(0, 1))
        elif nonpos:
            dom = dict(lo=-REAL_HUGE, hi=0, edges=(0, -1))
        elif nonzero:
            dom = dict(lo=-REAL_HUGE, hi=REAL_HUGE, edges=(1, -1))
        else:
            dom = dict(lo=-REAL_HUGE, hi=REAL_HUGE, edges=(0, 1, -1))
        if f.get("integer") is False:  # integral edges would contradict it
            dom["edges"] = tuple(half * (1 if e > 0 else -1) for e in dom["edges"] if e != 0) or (half, -half)
        extra = dict(log=True, far=REAL_FAR)
    elif yes("imaginary", "antihermitian"):
        kind = "imaginary"
        dom = dict(lo=-REAL_HUGE, hi=REAL_HUGE, edges=(mpmath.mpc(0, 1), mpmath.mpc(0, -1)))
        extra = dict(log=True)
    else:
        kind = "complex"
        cut = mpmath.mpf(10) ** -20
        edges = (mpmath.mpc(1), mpmath.mpc(-1), mpmath.mpc(0, 1), mpmath.mpc(-1, cut), mpmath.mpc(-1, -cut))
        dom = dict(lo=1e-3, hi=1e3, edges=edges)
        extra = dict(log=True)
    residual = tuple((n, v) for n, v in facts if n not in _KEPT[kind])
    nz = nonzero and kind in ("integer", "real") and dom["lo"] < 0 < dom["hi"]
    out = Domain(kind, **dom, **extra, nonzero=nz, facts=residual)
    # a self-check, once per set of assumptions: edges and a few draws of every sort keep every one of them
    rng = random.Random(0)
    try:
        with mpmath.workdps(30):
            sample = [*out.edge_values(), *(out.draw(rng, 128) for _ in range(4)), out.draw_far(rng, 128)]
    except ValueError:  # no draw kept the residual facts
        sample = None
    if not sample or any(holds(a, v) != want for v in sample for a, want in facts):
        raise ValueError(
            f"symbol {name}: the numeric line cannot honour all of its assumptions together ({dict(facts)}): no"
            f" finite value it draws has them"
        )
    return out


def _real_draw(rng: random.Random, bits: int, lo, hi, log: bool):
    r"""A real in ``[lo, hi]``: uniform, or (``log``) log-uniform magnitudes, both signs when the range has them."""
    if not log:
        return lo + (hi - lo) * uniform_draw(rng, bits)
    if lo > 0:
        return _log_uniform(rng, bits, lo, hi)
    if hi < 0:
        return -_log_uniform(rng, bits, -hi, -lo)
    # both signs: pick a side in proportion to its log-width, magnitudes log-uniform in [REAL_TINY, |bound|]
    tiny = mpmath.mpf(REAL_TINY)
    up, down = _log_widths(lo, hi, mpmath.mp.prec)
    if up + down == 0:
        return lo + (hi - lo) * uniform_draw(rng, bits)
    if uniform_draw(rng, 32) * (up + down) < up:
        return _log_uniform(rng, bits, tiny, hi)
    return -_log_uniform(rng, bits, tiny, -lo)


@functools.lru_cache(maxsize=1024)
def _log_widths(lo, hi, prec: int) -> tuple:
    r"""The log-widths ``log(hi / REAL_TINY)`` and ``log(-lo / REAL_TINY)`` of a range's two signs (``0`` for a side
    narrower than ``REAL_TINY``), at ``prec`` bits: computed once per range and precision (every draw asks)."""
    with mpmath.workprec(prec):
        tiny = mpmath.mpf(REAL_TINY)
        up = mpmath.log(hi / tiny) if hi > tiny else mpmath.mpf(0)
        down = mpmath.log(-lo / tiny) if -lo > tiny else mpmath.mpf(0)
        return up, down


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
