r"""Shared machinery of the mpmath references (:func:`numeric.rope_mp`, :func:`numeric.sinusoidal_mp`).

The references work on NumPy object arrays of working numbers, so that the loops over entries run in C:

* with gmpy2 (the ``fast`` extra; mpmath then runs on it too) the working numbers are MPFR ``mpfr`` at the
  working precision: cos/sin correctly rounded, each product and sum rounded once;
* otherwise they are mpmath ``mpf`` with ``mpmath.cos_sin``.

Results are returned as mpmath ``mpf`` either way. :data:`USE_GMPY2` switches the first path off (the tests
check that both agree).
"""

from __future__ import annotations

import gc
import math
from collections.abc import Iterator
from contextlib import contextmanager

import mpmath
import numpy as np
from mpmath import libmp

#: Use gmpy2 (MPFR) when mpmath runs on it; ``False`` forces mpmath's own functions.
USE_GMPY2 = True


def gmpy2_module():
    r"""gmpy2 when mpmath runs on it and :data:`USE_GMPY2`, else ``None``."""
    if not USE_GMPY2 or libmp.BACKEND != "gmpy":
        return None
    try:
        import gmpy2
    except ImportError:  # pragma: no cover
        return None
    return gmpy2


def raw(v, prec: int) -> tuple:
    r"""mpmath's raw ``(sign, man, exp, bc)`` of a Python/NumPy real, an ``mpf`` or a decimal string (exact for
    binary floats and integers; strings rounded to ``prec`` bits). ``ValueError`` for anything else."""
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"expected a finite real number, got {v!r}")
        return libmp.from_float(v)
    if isinstance(v, np.generic) and not isinstance(v, np.bool_):
        if np.issubdtype(type(v), np.integer):
            v = int(v)
        elif np.issubdtype(type(v), np.floating):
            return raw(float(np.float64(v)), prec)
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, str, mpmath.mpf)):
        raise ValueError(f"expected a finite real number (int, float, mpf or a decimal string), got {v!r}")
    try:
        m = mpmath.mpf(v)
    except (TypeError, ValueError):
        raise ValueError(f"expected a finite real number, got {v!r}") from None
    if not mpmath.isfinite(m):
        raise ValueError(f"expected a finite real number, got {v!r}")
    return m._mpf_


def object_array(value, name: str, min_ndim: int, what: str) -> np.ndarray:
    r"""Nested sequences or an array as an object array (the numbers untouched), with ``>= min_ndim`` axes."""
    try:
        arr = np.array(value, dtype=object)
    except ValueError:
        raise ValueError(f"{name} must be a rectangular array of real numbers (nested lists of one length)") from None
    if arr.ndim < min_ndim:
        raise ValueError(f"{name} must have shape {what}, got shape {arr.shape}")
    return arr


class Working:
    r"""The working numbers at ``prec`` bits: conversions in and out, and the cos/sin of an object array.

    Use as a context manager (it sets MPFR's precision and pauses the cyclic garbage collector, which would
    otherwise rescan the millions of new number objects again and again; they hold no cycles)."""

    def __init__(self, prec: int):
        self.prec = prec
        self.g = gmpy2_module()
        self._stack: list = []

    def __enter__(self) -> Working:
        was = gc.isenabled()
        gc.disable()
        self._stack.append(was)
        if self.g is not None:
            self._ctx = self.g.context(precision=self.prec, round=self.g.RoundToNearest)
            self._ctx.__enter__()
        self.one = self.number(libmp.fone)
        return self

    def __exit__(self, *exc) -> None:
        if self.g is not None:
            self._ctx.__exit__(*exc)
        if self._stack.pop():
            gc.enable()

    def number(self, r: tuple):
        r"""A working number from a raw mpmath tuple (exact: its mantissa has at most ``prec`` bits)."""
        if self.g is not None:
            return self.g.mul_2exp(self.g.mpfr(-r[1] if r[0] else r[1]), r[2])
        return mpmath.mp.make_mpf(r)

    def numbers(self, arr: np.ndarray, name: str) -> np.ndarray:
        r"""Each entry of an object array as a working number. Python floats and integers (exact in binary)
        are multiplied by the working one (exact, and much faster than a constructor per entry); other reals
        (strings, ``mpf``, NumPy scalars) go through mpmath at ``prec`` bits."""
        if not arr.size:
            return arr
        if {type(v) for v in arr.flat} <= {float, int}:
            try:
                finite = bool(np.isfinite(arr.astype(np.float64)).all())
            except OverflowError:  # an integer beyond float64 is still exact below
                finite = True
            if not finite:
                bad = next(v for v in arr.flat if isinstance(v, float) and not math.isfinite(v))
                raise ValueError(f"{name} must be finite, got {bad!r}")
            return arr * self.one

        def one(v):
            try:
                return self.number(raw(v, self.prec))
            except ValueError as e:
                raise ValueError(f"{name}: {e}") from None

        return np.frompyfunc(one, 1, 1)(arr)

    def cos_sin(self, angles: np.ndarray) -> tuple:
        r"""``(cos, sin)`` of an object array of working numbers."""
        if self.g is not None:
            sin, cos = np.frompyfunc(self.g.sin_cos, 1, 2)(angles)
        else:
            cos, sin = np.frompyfunc(mpmath.cos_sin, 1, 2)(angles)
        return cos, sin

    def to_mpf(self, arr: np.ndarray) -> np.ndarray:
        r"""The working numbers as mpmath ``mpf`` (an object array of the same shape)."""
        if self.g is None or not arr.size:
            return arr
        make, zero = mpmath.mp.make_mpf, libmp.fzero
        return np.frompyfunc(lambda v: make(v._mpf_ if v else zero), 1, 1)(arr)  # gmpy2 spells 0 differently


@contextmanager
def working(dps: int) -> Iterator[Working]:
    r"""``mpmath.workdps(dps)`` and the :class:`Working` numbers of that precision."""
    with mpmath.workdps(dps):
        with Working(mpmath.mp.prec) as w:
            yield w
