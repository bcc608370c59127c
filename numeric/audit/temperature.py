r"""The Llama 4 attention-temperature audit: :func:`audit_llama4_temperature` compares a user's query temperature
with :func:`numeric.temperature.llama4_attention_temperature` (transformers' ``Llama4TextAttention.forward``:
``log1p(floor((p + 1) / floor_scale)) * attn_scale + 1`` on the layers that do not rotate, nothing on the others) at
every 0-indexed position ``p = 0 .. max_position - 1``, and names the plausible mistakes with the smallest position
that shows each.

The function is called as ``fn(positions)``, with ``positions`` a 1-D int64 array ``0 .. max_position - 1`` (a
torch tensor when the NumPy call raises and torch is installed), and returns one scale per position (any shape
holding that many values, NumPy or torch, any float dtype). When it takes ``floor_scale`` and ``attn_scale``
keywords they are passed; when it takes ``layer_idx`` it is called once per layer ``0 .. num_layers - 1`` and must
return the scales that layer applies (all 1 on a layer that rotates, as transformers applies none there), the
layers that rotate read as :func:`numeric.temperature.llama4_rope_layers` reads a Llama 4 config.

>>> from posproof.numeric.temperature import llama4_attention_temperature
>>> audit_llama4_temperature(llama4_attention_temperature).ok
True
>>> import numpy as np
>>> off = lambda p: np.log1p(p // 8192) * 0.1 + 1
>>> audit_llama4_temperature(off).findings[0].message
'The floor is taken of p / F instead of (p + 1) / F (the 0-indexed position as the count): first at position 8191'
"""

from __future__ import annotations

import inspect
import math
import numbers

import numpy as np
from posproof.numeric import _validate
from posproof.numeric.audit.call import call_scheme, to_numpy
from posproof.numeric.audit.report import AuditCallError, Finding, SchemeReport, function_name
from posproof.numeric.temperature import llama4_attention_temperature, llama4_rope_layers
from posproof.numeric.tolerances import AUDIT_TEMPERATURE_16BIT_RTOL, AUDIT_TEMPERATURE_RTOL

__all__ = ["TEMPERATURE_FINDINGS", "audit_llama4_temperature"]

#: Finding ids of the temperature audit and what each means (stable: tools and tests match on them).
TEMPERATURE_FINDINGS = {
    "temperature-shape": "the function does not return one real scale per position",
    "temperature-position-offset": "the floor is taken of p / F instead of (p + 1) / F (the 0-indexed position as "
    "the count)",
    "temperature-log-not-log1p": "the log of floor((p + 1) / F) is taken instead of its log1p (-inf or NaN at every "
    "p < F - 1)",
    "temperature-no-floor": "the floor is missing (log1p((p + 1) / F)), so every position is scaled, from p = 0",
    "temperature-floor-scale": "the floor_scale is another value",
    "temperature-attn-scale": "the attn_scale is another value",
    "temperature-reciprocal": "the factor is 1 / tau instead of tau (the query divided by the temperature)",
    "temperature-not-applied": "the scale is 1 at every position of a layer that does not rotate (no temperature, "
    "or a floor_scale above every position probed)",
    "temperature-on-rope-layers": "a scale other than 1 on a layer that rotates, where transformers applies none",
    "temperature-low-precision": "the temperature is computed in a 16-bit float",
    "temperature-mismatch": "the scales differ from Llama 4's in a way none of the above explains",
}

#: The example key naming the value recovered, by finding.
_FOUND = {"temperature-floor-scale": "floor_scale_found", "temperature-attn-scale": "attn_scale_found"}
#: The 16-bit dtypes, tried in this order (bfloat16's values near 1 are also float16 values: the coarser first).
LOW_PRECISION = ("bfloat16", "float16")
#: Significant bits of each 16-bit dtype (the implicit bit included).
_BITS = {"bfloat16": 8, "float16": 11}


def _round16(x: np.ndarray, dtype: str) -> np.ndarray:
    r"""``x`` rounded to ``dtype`` (nearest, ties to even), as float64; float16 overflows to inf as NumPy does."""
    x = np.asarray(x, dtype=np.float64)
    if dtype == "float16":
        with np.errstate(over="ignore"):
            return x.astype(np.float16).astype(np.float64)
    m, e = np.frexp(x)
    with np.errstate(invalid="ignore"):
        return np.where(np.isfinite(x), np.ldexp(np.rint(m * 2.0 ** _BITS[dtype]) / 2.0 ** _BITS[dtype], e), x)


def _in_dtype(p: np.ndarray, F: int, a: float, dtype: str) -> np.ndarray:
    r"""transformers' expression with every tensor in ``dtype``: each operation rounds its result to it."""
    r = lambda v: _round16(v, dtype)  # noqa: E731
    x = np.floor(r(r(r(p.astype(np.float64)) + 1.0) / F))
    return r(r(r(np.log1p(x)) * a) + 1.0)


def _positions_in(p: np.ndarray, F: int, a: float, dtype: str, increment: bool) -> np.ndarray:
    r"""The positions (and, with ``increment``, ``p + 1``) rounded to ``dtype``, the rest exact."""
    x = _round16(p.astype(np.float64), dtype) + 1.0
    x = _round16(x, dtype) if increment else x
    return np.log1p(np.floor(x / F)) * a + 1.0


def _takes(fn, names: tuple[str, ...]) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    kinds = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return all(name in params and params[name].kind in kinds for name in names)


def _scales(raw) -> tuple[np.ndarray, str]:
    r"""The returned scales as a flat float64 array and the name of their dtype; ``([nan], "?")`` for anything else."""
    try:
        got, dtype = to_numpy(raw, "fn(positions)")
    except AuditCallError:
        got = np.asarray(raw) if isinstance(raw, (np.ndarray, list, tuple)) else np.array([np.nan])
        if got.dtype.kind not in "iuf":
            return np.array([np.nan]), "?"
        dtype = got.dtype.name
    return np.asarray(got, dtype=np.float64).reshape(-1), dtype


def _close(got: np.ndarray, want: np.ndarray, rtol: float) -> np.ndarray:
    r"""Elementwise agreement relative to ``max(1, |want|)``; equal infinities and two NaNs agree."""
    with np.errstate(invalid="ignore"):
        near = np.abs(got - want) <= rtol * np.maximum(1.0, np.abs(want))
    return near | (got == want) | (np.isnan(got) & np.isnan(want))


def _attn_scale(value) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"attn_scale must be a finite real number > 0, got {value!r}")
    if value <= 0:
        raise ValueError(f"attn_scale must be a finite real number > 0, got {value!r}")
    return float(value)


def _sixteen_bit(got: np.ndarray, dtype: str) -> str | None:
    r"""The 16-bit dtype the scales are held in: the returned dtype, or the first of :data:`LOW_PRECISION` that
    holds every value exactly when some value is not an integer (a scale of 1 everywhere is exact in any dtype)."""
    if dtype in LOW_PRECISION:
        return dtype
    finite = got[np.isfinite(got)]
    if not finite.size or np.all(finite == np.round(finite)):
        return None
    return next((d for d in LOW_PRECISION if np.array_equal(_round16(finite, d), finite)), None)


class _Layer:
    r"""One layer's classification: the expected scales, the function's, and the named alternatives."""

    def __init__(self, p: np.ndarray, got: np.ndarray, dtype: str, F: int, a: float):
        self.p, self.got, self.F, self.a = p, got, F, a
        self.want = llama4_attention_temperature(p, floor_scale=F, attn_scale=a)
        self.low = _sixteen_bit(got, dtype)
        self.rtol = AUDIT_TEMPERATURE_RTOL if self.low is None else AUDIT_TEMPERATURE_16BIT_RTOL[self.low]

    def first(self) -> int:
        r"""The smallest position where the scale differs from the expected one by more than float32 rounding."""
        return int(np.flatnonzero(~_close(self.got, self.want, AUDIT_TEMPERATURE_RTOL))[0])

    def matches(self, want: np.ndarray, rtol: float | None = None) -> bool:
        return bool(np.all(_close(self.got, want, self.rtol if rtol is None else rtol)))

    def _named(self) -> list[tuple[str, dict]]:
        p, F, a, got = self.p, self.F, self.a, self.got
        candidates = {
            "temperature-position-offset": np.log1p((p // F).astype(np.float64)) * a + 1.0,
            "temperature-no-floor": np.log1p((p + 1.0) / F) * a + 1.0,
            "temperature-reciprocal": 1.0 / self.want,
            "temperature-not-applied": np.ones_like(self.want),
        }
        for id_, value in candidates.items():
            if self.matches(value):
                return [(id_, {})]
        k = (p + 1) // F
        with np.errstate(divide="ignore"):
            logged = np.log(k.astype(np.float64)) * a + 1.0
        below = k == 0
        if np.all(~np.isfinite(got[below])) and np.all(_close(got[~below], logged[~below], self.rtol)):
            return [("temperature-log-not-log1p", {})]
        return []

    def _fitted(self) -> list[tuple[str, dict]]:
        r"""Another floor_scale (read off the first position scaled), another attn_scale (read off the value there),
        or both: each checked at every position."""
        p, F, a, got = self.p, self.F, self.a, self.got
        scaled = np.flatnonzero(np.abs(got - 1.0) > self.rtol)
        if not np.all(np.isfinite(got)) or not scaled.size:
            return []
        F2 = int(scaled[0]) + 1  # the first position scaled is floor_scale - 1
        a2 = float((got[F2 - 1] - 1.0) / math.log(2.0))  # the scale there is 1 + attn_scale log 2
        k, k2 = ((p + 1) // F).astype(np.float64), ((p + 1) // F2).astype(np.float64)
        floor_found: dict = {"floor_scale_found": F2}
        attn_found: dict = {"attn_scale_found": float(f"{a2:.6g}")}
        tries: list[tuple[tuple[str, ...], np.ndarray, dict]]
        if F2 == F:
            tries = [(("temperature-attn-scale",), np.log1p(k) * a2 + 1.0, attn_found)]
        else:
            tries = [
                (("temperature-floor-scale",), np.log1p(k2) * a + 1.0, floor_found),
                (("temperature-floor-scale", "temperature-attn-scale"), np.log1p(k2) * a2 + 1.0,
                 floor_found | attn_found),
            ]  # fmt: skip
        for ids, value, extra in tries:
            if self.matches(value):
                return [(id_, {_FOUND[id_]: extra[_FOUND[id_]]}) for id_ in ids]
        return []

    def _sixteen_bit_variants(self) -> str | None:
        r"""The 16-bit dtype whose rounding explains every scale, or ``None``."""
        p, F, a = self.p, self.F, self.a
        for d in LOW_PRECISION if self.low is None else (self.low,):
            exact = [_positions_in(p, F, a, d, increment) for increment in (False, True)]
            if any(self.matches(v, AUDIT_TEMPERATURE_RTOL) for v in exact):
                return d
            if self.low is not None and any(self.matches(v) for v in (self.want, _in_dtype(p, F, a, d), *exact)):
                return d
        return None

    def causes(self) -> list[tuple[str, dict]]:
        r"""``(finding id, what was recovered)`` for this layer, in order; empty when it conforms."""
        if self.matches(self.want, AUDIT_TEMPERATURE_RTOL):
            return []
        if self.matches(self.want):
            return [("temperature-low-precision", {"dtype": self.low})]
        low = self._sixteen_bit_variants()
        if low is not None:
            return [("temperature-low-precision", {"dtype": low})]
        causes = self._named() or self._fitted() or [("temperature-mismatch", {})]
        if self.low is not None:
            causes.append(("temperature-low-precision", {"dtype": self.low}))
        return causes


def _finding(id_: str, extra: dict, layer: _Layer, where: dict) -> Finding:
    position = layer.first()
    example = {**where, "position": position, "floor_scale": layer.F, "attn_scale": layer.a,
               "expected": float(layer.want[position]), "got": float(layer.got[position]), **extra}  # fmt: skip
    text = TEMPERATURE_FINDINGS[id_]
    named = "; ".join(f"{k.removesuffix('_found')} {v}" for k, v in extra.items())
    at = f"layer {where['layer_idx']}, " if "layer_idx" in where else ""
    message = f"{text[0].upper()}{text[1:]}" + (f" ({named})" if named else "") + f": first at {at}position {position}"
    return Finding(id_, message, example)


def audit_llama4_temperature(
    fn,
    *,
    floor_scale: int = 8192,
    attn_scale: float = 0.1,
    max_position: int | None = None,
    num_layers: int = 4,
    no_rope_layers=None,
    interval: int = 4,
) -> SchemeReport:
    r"""Audit ``fn(positions) -> scales`` against Llama 4's query temperature with ``floor_scale`` and ``attn_scale``
    at every position ``0 .. max_position - 1`` (default ``4 * floor_scale``: four steps of the floor; at least
    ``floor_scale``, the first position scaled being ``floor_scale - 1``). A function taking ``layer_idx`` is called
    for each of ``num_layers`` layers, those that rotate given by ``no_rope_layers`` or ``interval`` as
    :func:`numeric.temperature.llama4_rope_layers` reads them. Scales are compared to
    :data:`AUDIT_TEMPERATURE_RTOL` relative (a float32 computation passes). Each finding names its cause, the value
    recovered where there is one (a floor_scale, an attn_scale, a dtype) and the smallest position that shows it."""
    if not callable(fn):
        raise ValueError(f"fn must be callable, got {type(fn).__name__}")
    F = _validate.positive_int(floor_scale, "floor_scale")
    a = _attn_scale(attn_scale)
    P = 4 * F if max_position is None else _validate.positive_int(max_position, "max_position", F)
    layered = _takes(fn, ("layer_idx",))
    plan = llama4_rope_layers(num_layers, no_rope_layers=no_rope_layers, interval=interval) if layered else [False]
    options = {"floor_scale": F, "attn_scale": a} if _takes(fn, ("floor_scale", "attn_scale")) else {}
    p = np.arange(P, dtype=np.int64)
    name = function_name(fn)
    said = ", ".join(f"{k}={v}" for k, v in options.items())
    findings: list[Finding] = []
    for index, rotates in enumerate(plan):
        where = {"layer_idx": index} if layered else {}
        kwargs = {**options, **where}
        what = "(positions" + "".join(f", {k}={v}" for k, v in kwargs.items()) + ")"
        call = (lambda q, kw=kwargs: fn(q, **kw)) if kwargs else fn
        raw = call_scheme(call, (p,), what)
        got, dtype = _scales(raw)
        if got.size != P:
            sizes = {**where, "positions": P, "values returned": int(got.size)}
            text = TEMPERATURE_FINDINGS["temperature-shape"]
            findings.append(Finding("temperature-shape", f"{text[0].upper()}{text[1:]}", sizes))
            break
        layer = _Layer(p, got, dtype, F, a)
        if rotates:
            layer.want = np.ones(P)
            if not layer.matches(layer.want):
                findings.append(_finding("temperature-on-rope-layers", {}, layer, where))
            continue
        findings.extend(_finding(id_, extra, layer, where) for id_, extra in layer.causes())
    unique: dict[str, Finding] = {}
    for f in findings:
        unique.setdefault(f.id, f)  # each id once, at its smallest layer
    layers = f"; layers 0..{len(plan) - 1}, RoPE on {[i for i, r in enumerate(plan) if r]}" if layered else ""
    checked = (
        f"every position 0 <= p < {P}, floor_scale {F}, attn_scale {a:g}{layers}"
        + (f"; called with {said}" if said else "")
        + f"; relative tolerance {AUDIT_TEMPERATURE_RTOL:g}"
    )
    return SchemeReport("llama4-temperature", tuple(unique.values()), checked, name)
