r"""Relative bias kernels: FIRE, Sandwich and KERPLE, in NumPy float64 and with mpmath twins (``_mp``).

- FIRE (Li et al. 2023, arXiv 2310.04418): the bias of query ``i`` and key ``j`` is ``f(psi(i - j) / psi(max(L,
  i)))`` with ``psi(x) = log(c x + 1)``, a learnable threshold ``L > 0`` and an MLP ``f``;
  :func:`fire_normalized_distance` is the argument of ``f`` (the MLP is learned, not part of the kernel).
- Sandwich (Chi et al. 2023, arXiv 2212.10356): the bias is the sinusoidal dot product ``p_m . p_n = sum_{i <
  d/2} cos((m - n) theta_i)``, ``theta_i = base^(-2i/d)``, times a ``scale``.
- KERPLE (Chi et al. 2022, arXiv 2205.09921): logarithmic ``-r1 log(1 + r2 |m - n|)`` and power ``-r1 |m -
  n|^r2`` (``r1 > 0``, ``0 < r2 <= 2``).

>>> float(fire_normalized_distance(4, 0, c=1.0, threshold=4.0))
1.0
>>> float(kerple_log_bias(3, 1, r1=1.0, r2=1.0)) == -float(np.log(3.0))
True
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np
from posproof.numeric import _validate

__all__ = [
    "fire_normalized_distance",
    "fire_normalized_distance_mp",
    "sandwich_bias",
    "sandwich_bias_mp",
    "kerple_log_bias",
    "kerple_log_bias_mp",
    "kerple_power_bias",
    "kerple_power_bias_mp",
    "golden_vectors_bias_kernels",
]


def _positions(value, name: str) -> np.ndarray:
    arr = np.asarray(value)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number) or np.iscomplexobj(arr):
        raise ValueError(f"{name} must be real positions, got {value!r}")
    out = arr.astype(np.float64)
    if not np.all(np.isfinite(out)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return out


def _mp_real(value, name: str):
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    try:
        x = mpmath.mpf(value)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{name} must be a real number, got {value!r}") from e
    if not mpmath.isfinite(x):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return x


def _mp_positive(value, name: str):
    x = _mp_real(value, name)
    if x <= 0:
        raise ValueError(f"{name} must be a finite real number > 0, got {value!r}")
    return x


def _r2(value) -> float:
    r2 = _validate.positive_real(value, "r2")
    if r2 > 2:
        raise ValueError(f"r2 must be in (0, 2], got {value!r}")
    return r2


# ---- FIRE -------------------------------------------------------------------------------------------------------


def fire_normalized_distance(query_positions, key_positions, *, c: float, threshold: float) -> np.ndarray:
    r"""``psi(i - j) / psi(max(L, i))`` with ``psi(x) = log(c x + 1)``, float64, broadcast over ``i`` and ``j``.

    Positions are real (FIRE's are integers) with ``i - j >= 0`` (keys at or before the query: ``psi`` is the
    logarithm of ``c (i - j) + 1``); ``c > 0`` and ``threshold`` ``L > 0``."""
    i = _positions(query_positions, "query_positions")
    j = _positions(key_positions, "key_positions")
    cc = _validate.positive_real(c, "c")
    L = _validate.positive_real(threshold, "threshold")
    r = i - j
    if np.any(r < 0):
        raise ValueError("key_positions must be at most query_positions (FIRE is causal: i - j >= 0)")
    return np.log1p(cc * r) / np.log1p(cc * np.maximum(L, i))


def fire_normalized_distance_mp(query_position, key_position, *, c, threshold, dps: int = 50):
    r"""The mpmath twin of :func:`fire_normalized_distance` for one query and one key, at ``dps`` digits."""
    with mpmath.workdps(_validate.dps(dps)):
        i = _mp_real(query_position, "query_position")
        j = _mp_real(key_position, "key_position")
        cc, L = _mp_positive(c, "c"), _mp_positive(threshold, "threshold")
        if i - j < 0:
            raise ValueError("key_position must be at most query_position (FIRE is causal: i - j >= 0)")
        return mpmath.log(cc * (i - j) + 1) / mpmath.log(cc * max(L, i) + 1)


# ---- Sandwich ---------------------------------------------------------------------------------------------------


def sandwich_bias(query_positions, key_positions, *, width: int, base: float = 10000.0, scale: float = 1.0):
    r"""``scale * sum_{i < width/2} cos((m - n) theta_i)``, ``theta_i = base^(-2i/width)``, float64, broadcast over
    ``m`` and ``n``: the dot product of the sinusoidal codes of ``m`` and ``n``."""
    m = _positions(query_positions, "query_positions")
    n = _positions(key_positions, "key_positions")
    d = _validate.even_width(width, "width")
    b = _validate.base(base, "base")
    s = _validate.positive_real(scale, "scale")
    theta = b ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    delta = np.asarray(m - n)[..., None]
    return s * np.cos(delta * theta).sum(axis=-1)


def sandwich_bias_mp(query_position, key_position, *, width: int, base=10000, scale=1, dps: int = 50):
    r"""The mpmath twin of :func:`sandwich_bias` for one query and one key, at ``dps`` digits."""
    d = _validate.even_width(width, "width")
    with mpmath.workdps(_validate.dps(dps)):
        delta = _mp_real(query_position, "query_position") - _mp_real(key_position, "key_position")
        b, s = _mp_positive(base, "base"), _mp_positive(scale, "scale")
        if b <= 1:
            raise ValueError(f"base must be > 1, got {base!r}")
        return s * mpmath.fsum(mpmath.cos(delta * b ** (-mpmath.mpf(2 * k) / d)) for k in range(d // 2))


# ---- KERPLE -----------------------------------------------------------------------------------------------------


def kerple_log_bias(query_positions, key_positions, *, r1: float, r2: float) -> np.ndarray:
    r"""KERPLE's logarithmic bias ``-r1 log(1 + r2 |m - n|)``, float64, broadcast over ``m`` and ``n``
    (``r1, r2 > 0``)."""
    m = _positions(query_positions, "query_positions")
    n = _positions(key_positions, "key_positions")
    a, b = _validate.positive_real(r1, "r1"), _validate.positive_real(r2, "r2")
    return -a * np.log1p(b * np.abs(m - n))


def kerple_log_bias_mp(query_position, key_position, *, r1, r2, dps: int = 50):
    r"""The mpmath twin of :func:`kerple_log_bias` for one query and one key, at ``dps`` digits."""
    with mpmath.workdps(_validate.dps(dps)):
        delta = _mp_real(query_position, "query_position") - _mp_real(key_position, "key_position")
        a, b = _mp_positive(r1, "r1"), _mp_positive(r2, "r2")
        return -a * mpmath.log(1 + b * abs(delta))


def kerple_power_bias(query_positions, key_positions, *, r1: float, r2: float) -> np.ndarray:
    r"""KERPLE's power bias ``-r1 |m - n|^r2``, float64, broadcast over ``m`` and ``n`` (``r1 > 0``, ``0 < r2 <=
    2``: the range where it is conditionally positive definite)."""
    m = _positions(query_positions, "query_positions")
    n = _positions(key_positions, "key_positions")
    a, b = _validate.positive_real(r1, "r1"), _r2(r2)
    return -a * np.abs(m - n) ** b


def kerple_power_bias_mp(query_position, key_position, *, r1, r2, dps: int = 50):
    r"""The mpmath twin of :func:`kerple_power_bias` for one query and one key, at ``dps`` digits."""
    with mpmath.workdps(_validate.dps(dps)):
        delta = _mp_real(query_position, "query_position") - _mp_real(key_position, "key_position")
        a, b = _mp_positive(r1, "r1"), _mp_positive(r2, "r2")
        if b > 2:
            raise ValueError(f"r2 must be in (0, 2], got {r2!r}")
        return -a * abs(delta) ** b


# ---- golden vectors (the shape of numeric.vectors' documents) ----------------------------------------------------

#: Query and key pairs of the golden vectors: keys at or before the query (FIRE is causal), near and far.
GOLDEN_PAIRS = ((0, 0), (1, 0), (5, 2), (7, 7), (100, 3), (512, 0), (4096, 4000), (32768, 1))


def golden_vectors_bias_kernels(dps: int = 50, digits: int = 17) -> dict[str, dict[str, Any]]:
    r"""Language-neutral test vectors of the three kernels, computed with mpmath at ``dps`` digits and written as
    decimal strings of ``digits`` significant digits: ``{"fire.json": ..., "sandwich.json": ..., "kerple.json":
    ...}``, each with ``scheme``, ``dps``, ``digits``, ``conventions`` and ``cases`` (parameters, inputs,
    outputs)."""

    def dec(x) -> str:
        with mpmath.workdps(dps):
            return mpmath.nstr(mpmath.mpf(x), digits, strip_zeros=False)

    pairs = [list(p) for p in GOLDEN_PAIRS]

    def doc(scheme: str, conventions: str, cases: list) -> dict:
        return {"scheme": scheme, "dps": dps, "digits": digits, "conventions": conventions, "cases": cases}

    fire = [
        {
            "parameters": {"c": c, "threshold": L},
            "inputs": {"query_key": pairs},
            "outputs": [dec(fire_normalized_distance_mp(i, j, c=c, threshold=L, dps=dps)) for i, j in GOLDEN_PAIRS],
        }
        for c, L in (("1", "512"), ("0.5", "2048"), ("2", "1"))
    ]
    sandwich = [
        {
            "parameters": {"width": d, "base": "10000", "scale": "1"},
            "inputs": {"query_key": pairs},
            "outputs": [dec(sandwich_bias_mp(i, j, width=d, dps=dps)) for i, j in GOLDEN_PAIRS],
        }
        for d in (2, 8, 64)
    ]
    kerple = [
        {
            "parameters": {"variant": variant, "r1": r1, "r2": r2},
            "inputs": {"query_key": pairs},
            "outputs": [dec(fn(i, j, r1=r1, r2=r2, dps=dps)) for i, j in GOLDEN_PAIRS],
        }
        for variant, fn, r1, r2 in (
            ("log", kerple_log_bias_mp, "1", "1"),
            ("log", kerple_log_bias_mp, "0.5", "4"),
            ("power", kerple_power_bias_mp, "1", "0.5"),
            ("power", kerple_power_bias_mp, "2", "2"),
        )
    ]
    return {
        "fire.json": doc(
            "fire",
            "psi(i - j) / psi(max(threshold, i)), psi(x) = log(c x + 1); query i, key j <= i (Li et al. 2023)",
            fire,
        ),
        "sandwich.json": doc(
            "sandwich",
            "scale * sum_{k < width/2} cos((m - n) base^(-2k/width)); query m, key n (Chi et al. 2023)",
            sandwich,
        ),
        "kerple.json": doc(
            "kerple",
            "log: -r1 log(1 + r2 |m - n|); power: -r1 |m - n|^r2, 0 < r2 <= 2 (Chi et al. 2022)",
            kerple,
        ),
    }
