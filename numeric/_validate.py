r"""Argument validators shared by the numeric schemes: each raises ``ValueError`` naming the argument and the
accepted range, and returns the cleaned value."""

from __future__ import annotations

import math
import numbers

import numpy as np

LAYOUTS = ("interleaved", "half")


def even_width(value, name: str = "d_model") -> int:
    r"""A positive even integer (a width split into 2-D pairs)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be a positive even integer, got {value!r}")
    if value <= 0 or value % 2:
        raise ValueError(f"{name} must be a positive even integer, got {value!r}")
    return int(value)


def positive_int(value, name: str, minimum: int = 1) -> int:
    r"""An integer ``>= minimum``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def base(value, name: str = "base") -> float:
    r"""A finite real frequency base ``> 1``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a finite real number > 1, got {value!r}")
    if not math.isfinite(float(value)) or value <= 1:
        raise ValueError(f"{name} must be a finite real number > 1, got {value!r}")
    return float(value)


def positions(value, name: str = "positions", one_d: bool = True) -> np.ndarray:
    r"""Finite real positions as float64: a 1-D sequence, or (``one_d=False``) an array of any non-scalar shape."""
    what = "a 1-D sequence" if one_d else "an array"
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be {what} of finite real numbers, got {value!r}") from None
    if (one_d and arr.ndim != 1) or arr.ndim == 0:
        raise ValueError(f"{name} must be {what} of finite real numbers, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(
            f"{name} must be finite; got non-finite values at flat indices "
            f"{np.flatnonzero(~np.isfinite(arr))[:5].tolist()}"
        )
    return arr


def integer_array(value, name: str) -> np.ndarray:
    r"""An array of integers (integer dtype, or floats with integral values), as int64."""
    arr = np.asarray(value)
    if arr.dtype == bool:
        raise ValueError(f"{name} must hold integers, got booleans")
    if np.issubdtype(arr.dtype, np.integer):
        return arr.astype(np.int64)
    if np.issubdtype(arr.dtype, np.floating):
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            raise ValueError(f"{name} must hold integers; got non-integer or non-finite values")
        return arr.astype(np.int64)
    raise ValueError(f"{name} must hold integers, got dtype {arr.dtype}")


def layout(value, name: str = "layout") -> str:
    r"""A pair layout: ``"interleaved"`` pairs ``(2i, 2i+1)`` or ``"half"`` pairs ``(i, i + d/2)``."""
    if value not in LAYOUTS:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, LAYOUTS))}, got {value!r}")
    return value


def dps(value, name: str = "dps") -> int:
    from .tolerances import MAX_DPS, MIN_DPS

    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not MIN_DPS <= int(value) <= MAX_DPS:
        raise ValueError(f"{name} must be an integer in [{MIN_DPS}, {MAX_DPS}], got {value!r}")
    return int(value)


def even_int(value, name: str, minimum: int = 2) -> int:
    r"""An even integer ``>= minimum`` (a count split into two halves, e.g. T5's ``num_buckets``)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < minimum or value % 2:
        raise ValueError(f"{name} must be an even integer >= {minimum}, got {value!r}")
    return int(value)
