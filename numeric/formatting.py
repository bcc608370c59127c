r"""The one way a number reaches a reader: significant digits chosen for the reader, never ``repr``.

Everything posproof prints or exports (fact tables, audit reports, documents) formats its numbers here, so that no
output depends on the last digits of a float64 computation, which NumPy's SIMD paths make differ between CPUs:

- :func:`number` shows a value to :data:`DIGITS` significant digits (integers and exact rationals whole);
- :func:`below` shows a float64 error as the bound it proves ("below 1e-15"), not as its last digits;
- :func:`show` shows lists, tuples and mappings of those, without Python's quotes and type names;
- :func:`exact_value` turns NumPy scalars and arrays into the Python and mpmath values they hold exactly, so that a
  computed value can be compared and shown whatever library produced it.

>>> import numpy as np, mpmath
>>> show([np.float64(64.0), np.float64(55.05037561385557), mpmath.mpf("0.1") ** 20, 3, "text", True])
'[64, 55.0504, 1.0e-20, 3, text, True]'
>>> below(3.9e-16, 1e-15), below(2e-12, 1e-15)
('below 1e-15', '2.0e-12')
>>> exact_value(np.array([[np.int8(1), 2]])), exact_value(np.float32(0.5)), exact_value(np.bool_(True))
([[1, 2]], 0.5, True)
>>> show(np.float32(0.1)), show(np.array(2.5)), show(np.complex64(1 - 2j))
('0.1', '2.5', '1 - 2i')
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping

import mpmath
import numpy as np

#: Significant digits of a shown number: enough to tell the values a claim compares apart (they differ in the
#: third digit or earlier) and 10 orders of magnitude above float64 rounding, so rounding to them cannot depend on
#: the CPU except for a value within ~1e-10 relative of a rounding boundary.
DIGITS = 6

#: The bound a float64 error against a 50-digit reference is reported under: 4.5 units in the last place of
#: float64 (2**-53 ~ 1.1e-16), above what a few correctly rounded operations can lose on any CPU.
FLOAT64_ERROR_BOUND = 1e-15


def number(x, digits: int = DIGITS) -> str:
    r"""``x`` to ``digits`` significant digits: ``'55.0504'``, ``'1.0e-20'``; integers whole; ``'inf'``, ``'nan'``."""
    if isinstance(x, (np.bool_, np.number)):  # float32, longdouble, complex64, ...: their exact values
        x = exact_value(x)
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (numbers.Integral, np.integer)):
        return str(int(x))
    if isinstance(x, (complex, np.complexfloating, mpmath.mpc)):
        z = mpmath.mpc(x)
        sign = "-" if z.imag < 0 else "+"
        return f"{number(z.real, digits)} {sign} {number(abs(z.imag), digits)}i"
    if getattr(x, "is_Integer", False):  # sympy.Integer
        return str(int(x))
    if getattr(x, "is_Float", False):  # sympy.Float
        x = mpmath.mpf(x._mpf_)
    v = mpmath.mpf(x) if isinstance(x, (float, np.floating, mpmath.mpf)) else None
    if v is None:
        return str(x)
    if mpmath.isnan(v):
        return "nan"
    if mpmath.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == mpmath.nint(v) and abs(v) < 10**digits:
        return str(int(v))
    return mpmath.nstr(v, digits)


def below(err, bound: float = FLOAT64_ERROR_BOUND) -> str:
    r"""An error as the bound it proves: ``'below 1e-15'`` when ``err < bound``, else the error itself."""
    return f"below {bound:g}" if mpmath.mpf(err) < bound else number(err, 2)


def exact_value(v):
    r"""``v`` with every NumPy value replaced by the Python or mpmath value it holds, exactly: ``np.bool_`` ->
    ``bool``, ``np.integer`` -> ``int``, ``np.floating`` -> ``float`` (an ``mpmath.mpf`` for ``longdouble``, which a
    float would round), ``np.complexfloating`` -> ``complex`` (``mpmath.mpc`` for ``clongdouble``), arrays (0-d
    included) -> their elements (nested lists), lists, tuples and mappings element by element; anything else is
    returned as it is. ``ValueError`` for an array of another dtype (strings, objects, dates)."""
    if isinstance(v, np.ndarray):
        if v.dtype.kind not in "biufc":
            raise ValueError(f"v: an array of booleans or numbers, got dtype {v.dtype}")
        if v.ndim == 0:
            return exact_value(v[()])
        return [exact_value(x) for x in v]
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return _exact_float(v)
    if isinstance(v, np.complexfloating):
        re, im = _exact_float(v.real), _exact_float(v.imag)
        return complex(re, im) if isinstance(re, float) else mpmath.mpc(re, im)
    if isinstance(v, list):
        return [exact_value(x) for x in v]
    if isinstance(v, tuple):
        return tuple(exact_value(x) for x in v)
    if isinstance(v, Mapping):
        return {exact_value(k): exact_value(x) for k, x in v.items()}
    return v


def _exact_float(x: np.floating):
    if np.finfo(x.dtype).nmant <= 52:  # float16, float32, float64: a Python float holds it exactly
        return float(x)
    if not np.isfinite(x):
        return mpmath.mpf(float(x))
    p, q = x.as_integer_ratio()  # q is a power of 2: p / q is exact at p's bits
    with mpmath.workprec(max(p.bit_length(), 1) + 1):
        return mpmath.mpf(p) / q


def show(v) -> str:
    r"""A computed value as a reader sees it: numbers by :func:`number`, containers element by element (NumPy
    scalars and arrays through :func:`exact_value`)."""
    if isinstance(v, str):
        return v
    if isinstance(v, (np.ndarray, np.bool_, np.number)):
        return show(exact_value(v))
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(show(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{show(k)}: {show(x)}" for k, x in v.items()) + "}"
    return number(v)
