r"""Argument validators shared by the numeric schemes: each raises ``ValueError`` naming the argument and the
accepted range, and returns the cleaned value."""

from __future__ import annotations

import math
import numbers

import numpy as np

#: The two pair layouts, by their canonical names.
LAYOUTS = ("interleaved", "half")

#: Names other projects use for the layouts: ``rotate_half`` (Hugging Face) and ``neox`` (GPT-NeoX) pair
#: ``(i, i + d/2)``; ``gptj`` (GPT-J, Meta's complex code) pairs ``(2i, 2i + 1)``.
LAYOUT_ALIASES = {
    "interleaved": "interleaved",
    "gptj": "interleaved",
    "half": "half",
    "rotate_half": "half",
    "neox": "half",
}

#: The largest magnitude accepted for an integer position or relative position: ``2**53``, the range in which
#: every integer is exact in float64 (the angles, logarithms and biases are computed in float64) and the
#: difference of two of them cannot overflow int64.
MAX_INTEGER = 2**53


def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def even_width(value, name: str = "width") -> int:
    r"""A positive even integer (a width split into 2-D pairs)."""
    if not _is_int(value) or value <= 0 or value % 2:
        raise ValueError(f"{name} must be a positive even integer, got {value!r}")
    return int(value)


def positive_int(value, name: str, minimum: int = 1) -> int:
    r"""An integer ``>= minimum``."""
    if not _is_int(value) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def base(value, name: str = "base") -> float:
    r"""A finite real frequency base ``> 1``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a finite real number > 1, got {value!r}")
    if not math.isfinite(float(value)) or value <= 1:
        raise ValueError(f"{name} must be a finite real number > 1, got {value!r}")
    return float(value)


def _real_dtype(arr: np.ndarray) -> bool:
    r"""Integer or real floating (including ml_dtypes' bfloat16 and friends); not bool, complex, str, object."""
    if arr.dtype == bool:
        return False
    if np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating):
        return True
    return arr.dtype.kind == "V" and arr.dtype.names is None and arr.dtype.itemsize <= 2 and _ml_float(arr.dtype)


def _ml_float(dtype: np.dtype) -> bool:
    try:
        import ml_dtypes
    except ImportError:  # pragma: no cover - the precision extra is optional
        return False
    try:
        ml_dtypes.finfo(dtype)
    except (TypeError, ValueError):
        return False
    return True


def positions(value, name: str = "positions", one_d: bool = True) -> np.ndarray:
    r"""Finite real positions as float64: a 1-D sequence, or (``one_d=False``) an array of any non-scalar shape.

    Integers and real floats are accepted; booleans, strings, complex and objects are not. Positions, integer or
    float, must lie in ``[-2**53, 2**53]`` (where float64 holds every integer exactly)."""
    what = "a 1-D array" if one_d else "an array"
    arr = np.asarray(value) if not isinstance(value, np.ndarray) else value
    if not _real_dtype(arr):
        kind = "booleans" if arr.dtype == bool else f"dtype {arr.dtype}"
        raise ValueError(f"{name} must be {what} of finite real numbers (integers or floats), got {kind}")
    if (one_d and arr.ndim != 1) or arr.ndim == 0:
        raise ValueError(f"{name} must be {what} of finite real numbers, got shape {arr.shape}")
    if np.issubdtype(arr.dtype, np.integer) and arr.size:
        lo, hi = int(arr.min()), int(arr.max())
        if lo < -MAX_INTEGER or hi > MAX_INTEGER:
            raise ValueError(
                f"{name} must lie in [-2**53, 2**53] (exact in float64), got {hi if hi > MAX_INTEGER else lo}"
            )
    out = arr.astype(np.float64)  # a copy: later changes to the caller's array do not reach us
    if not np.all(np.isfinite(out)):
        where = np.flatnonzero(~np.isfinite(out))[:5].tolist()
        raise ValueError(f"{name} must be finite; got non-finite values at flat indices {where}")
    if out.size and not np.issubdtype(arr.dtype, np.integer):
        # float positions: the same range as integers (past 2**53 the angles m theta_i no longer hold m)
        flo, fhi = float(out.min()), float(out.max())
        if flo < -MAX_INTEGER or fhi > MAX_INTEGER:
            raise ValueError(
                f"{name} must lie in [-2**53, 2**53] (exact in float64), got {fhi if fhi > MAX_INTEGER else flo!r}"
            )
    return out


def integer_array(value, name: str, bound: int = MAX_INTEGER) -> np.ndarray:
    r"""An array of integers (integer dtype, or floats with integral values) in ``[-bound, bound]``, as int64.

    Values beyond the bound (``1e30``, ``uint64(2**64 - 1)``) raise instead of wrapping around."""
    arr = np.asarray(value)
    accepted = f"integers in [-2**{bound.bit_length() - 1}, 2**{bound.bit_length() - 1}]"
    if arr.dtype == bool:
        raise ValueError(f"{name} must hold integers, got booleans")
    if np.issubdtype(arr.dtype, np.integer):
        if arr.size and (int(arr.max()) > bound or int(arr.min()) < -bound):
            raise ValueError(f"{name} must hold {accepted}, got values beyond them")
        return arr.astype(np.int64)
    if np.issubdtype(arr.dtype, np.floating):
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            raise ValueError(f"{name} must hold integers; got non-integer or non-finite values")
        if arr.size and np.max(np.abs(arr)) > bound:
            raise ValueError(f"{name} must hold {accepted}, got values beyond them")
        return arr.astype(np.int64)
    raise ValueError(f"{name} must hold integers, got dtype {arr.dtype}")


def integer_vector(value, name: str) -> np.ndarray:
    r"""A 1-D array of integers (see :func:`integer_array`): positions of queries or keys."""
    arr = integer_array(value, name)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of integer positions, got shape {arr.shape}")
    return arr


def finite_array(value, name: str, ndim: int | None = None) -> np.ndarray:
    r"""A finite real float64 array (of ``ndim`` axes if given)."""
    arr = np.asarray(value)
    if not _real_dtype(arr):
        raise ValueError(f"{name} must be a real array, got dtype {arr.dtype}")
    arr = arr.astype(np.float64)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} axes, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        where = tuple(int(i) for i in np.argwhere(~np.isfinite(arr))[0])
        raise ValueError(f"{name} must be finite; got a non-finite value at index {where}")
    return arr


def layout(value, name: str = "layout") -> str:
    r"""A pair layout, canonical name: ``"interleaved"`` pairs ``(2i, 2i+1)`` (alias ``"gptj"``) or ``"half"``
    pairs ``(i, i + d/2)`` (aliases ``"rotate_half"``, ``"neox"``)."""
    if not isinstance(value, str) or value not in LAYOUT_ALIASES:
        raise ValueError(
            f"{name} must be one of {', '.join(map(repr, LAYOUT_ALIASES))} "
            f"('gptj' = 'interleaved'; 'rotate_half', 'neox' = 'half'), got {value!r}"
        )
    return LAYOUT_ALIASES[value]


def dps(value, name: str = "dps") -> int:
    from posproof.numeric.tolerances import MAX_DPS, MIN_DPS

    if not _is_int(value) or not MIN_DPS <= int(value) <= MAX_DPS:
        raise ValueError(f"{name} must be an integer in [{MIN_DPS}, {MAX_DPS}], got {value!r}")
    return int(value)


def even_int(value, name: str, minimum: int = 2) -> int:
    r"""An even integer ``>= minimum`` (a count split into two halves, e.g. T5's ``num_buckets``)."""
    if not _is_int(value) or value < minimum or value % 2:
        raise ValueError(f"{name} must be an even integer >= {minimum}, got {value!r}")
    return int(value)


def positive_real(value, name: str) -> float:
    r"""``value`` as a float: a finite real number > 0 (not a bool); ``ValueError`` naming ``name`` otherwise."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not np.isfinite(float(value)):
        raise ValueError(f"{name} must be a finite real number > 0, got {value!r}")
    if value <= 0:
        raise ValueError(f"{name} must be a finite real number > 0, got {value!r}")
    return float(value)


def causal_positions(query_positions, key_positions) -> tuple[np.ndarray, np.ndarray]:
    r"""Integer query and key positions broadcast together, keys at or before their queries (``0 <= j <= i``)."""
    i = integer_array(query_positions, "query_positions")
    j = integer_array(key_positions, "key_positions")
    try:
        i, j = np.broadcast_arrays(i, j)
    except ValueError:
        raise ValueError(
            f"key_positions must broadcast against query_positions, got shapes {j.shape} and {i.shape}"
        ) from None
    if np.any(j < 0):
        raise ValueError("key_positions must be >= 0")
    if np.any(j > i):
        raise ValueError("key_positions must not exceed query_positions (causal: j <= i)")
    return i, j


def causal_pair(query_position, key_position) -> tuple[int, int]:
    r"""One query and key position as Python integers, the key at or before the query (``0 <= j <= i``)."""
    for value, name in ((query_position, "query_position"), (key_position, "key_position")):
        if isinstance(value, (bool, np.bool_)) or int(value) != value:
            raise ValueError(f"{name} must be an integer, got {value!r}")
    i, j = int(query_position), int(key_position)
    if j < 0:
        raise ValueError(f"key_position must be >= 0, got {j}")
    if j > i:
        raise ValueError(f"key_position must not exceed query_position (causal: j <= i), got i={i}, j={j}")
    return i, j
