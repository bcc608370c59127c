r"""The KV-cache shift audit: :func:`audit_cache_shift` compares a user's ``shift(cached_keys, delta)`` (keys
cached already rotated at their positions, moved by ``delta``) with RoPE's keys computed at the new positions
(claim ``cache-shift-rerotation``), and names the plausible mistakes with the smallest input that shows each: the
shift the wrong way (``-delta``), the other pair layout, another base.

>>> from posproof.numeric.rotary import rope
>>> audit_cache_shift(lambda keys, delta: rope(keys, [delta] * len(keys))).ok
True
>>> audit_cache_shift(lambda keys, delta: rope(keys, [-delta] * len(keys))).findings[0].id
'cache-shift-sign'
"""

from __future__ import annotations

import numpy as np
from posproof.numeric import _validate
from posproof.numeric.audit.call import call_scheme, to_numpy
from posproof.numeric.audit.report import AuditCallError, Finding, SchemeReport, function_name
from posproof.numeric.rotary import rope
from posproof.numeric.tolerances import AUDIT_CACHE_SHIFT_RTOL

__all__ = ["CACHE_SHIFT_FINDINGS", "audit_cache_shift"]

#: Finding ids of the cache-shift audit and what each means (stable: tools and tests match on them).
CACHE_SHIFT_FINDINGS = {
    "cache-shift-shape": "the function does not return keys of the cached keys' shape",
    "cache-shift-sign": "the keys are rotated by -delta: they move to n - delta, not n + delta",
    "cache-shift-layout": "the shift pairs channels in the other layout than the cache was rotated in",
    "cache-shift-wrong-base": "the shift rotates with the frequencies of another base than the cache's",
    "cache-shift-mismatch": "the shifted keys differ from the keys computed at n + delta in a way none of the "
    "above explains",
}

#: The other bases a shift is tried with (the common ``rope_theta`` values).
OTHER_BASES = (10000.0, 500000.0, 1000000.0)


def _probes(width: int) -> list[tuple[int, int, int]]:
    r"""``(width, n, delta)`` from the smallest: widths 2, 4, …, ``width``; cached positions 1, 5; shifts 1, -1, 3."""
    return [(w, n, delta) for w in range(2, width + 1, 2) for delta in (1, -1, 3) for n in (1, 5)]


def audit_cache_shift(
    shift_fn,
    *,
    width: int = 8,
    base: float = 10000.0,
    layout: str = "interleaved",
    rtol: float = AUDIT_CACHE_SHIFT_RTOL,
) -> SchemeReport:
    r"""Audit ``shift_fn(cached_keys, delta) -> shifted_keys`` (``(tokens, width)`` float64 keys rotated by RoPE
    at positions ``n`` with ``base`` and ``layout``; ``delta`` an int) against the keys computed at ``n + delta``,
    on the smallest inputs first (one token; widths 2, 4, …, ``width``). Each finding names its cause and the first
    input that shows it."""
    if not callable(shift_fn):
        raise ValueError(f"shift_fn must be callable, got {type(shift_fn).__name__}")
    width = _validate.positive_int(width, "width")
    if width % 2:
        raise ValueError(f"width must be even (pairs of channels), got {width}")
    layout = _validate.layout(layout, "layout")
    if not (isinstance(base, (int, float)) and np.isfinite(base) and base > 1):
        raise ValueError(f"base must be a finite number > 1, got {base!r}")
    findings: list[Finding] = []
    other = "half" if layout == "interleaved" else "interleaved"
    for w, n, delta in _probes(width):
        key = np.random.default_rng(w).uniform(-1, 1, (1, w))  # (tokens, width)
        cached = rope(key, [n], base=base, layout=layout)
        example = {"width": w, "n": n, "delta": delta, "cached": cached[0].tolist()}
        raw = call_scheme(shift_fn, (cached.copy(), delta), f"(cached keys of width {w}, {delta})")
        try:
            got, _ = to_numpy(raw, "shift_fn(...)")
        except AuditCallError:
            got = np.full((1, 1), np.nan)
        got = np.asarray(got, dtype=np.float64)
        want = rope(key, [n + delta], base=base, layout=layout)
        if got.shape != want.shape or not np.all(np.isfinite(got)):
            findings.append(Finding("cache-shift-shape", f"returns shape {got.shape} for {want.shape}", example))
            break
        if _close(got, want, rtol):
            continue
        candidates = {
            "cache-shift-sign": rope(cached, [-delta], base=base, layout=layout),
            "cache-shift-layout": rope(cached, [delta], base=base, layout=other),
        }
        candidates |= {
            f"cache-shift-wrong-base {b:g}": rope(cached, [delta], base=b, layout=layout)
            for b in OTHER_BASES
            if b != base
        }
        hit = next((name for name, value in candidates.items() if _close(got, value, rtol)), "cache-shift-mismatch")
        id_ = hit.split(" ")[0]
        detail = f" (base {hit.split(' ')[1]})" if " " in hit else ""
        message = CACHE_SHIFT_FINDINGS[id_][0].upper() + CACHE_SHIFT_FINDINGS[id_][1:] + detail
        findings.append(
            Finding(
                id_, f"{message}: first at width {w}, n = {n}, delta = {delta}", example | {
                    "expected": want[0].tolist(), "got": got.reshape(-1).tolist()}
            )
        )  # fmt: skip
        break
    checked = f"widths 2..{width}, cached positions 1 and 5, shifts 1, -1, 3 (base {base:g}, {layout})"
    return SchemeReport("cache-shift", tuple(findings), checked, function_name(shift_fn))


def _close(got: np.ndarray, want: np.ndarray, rtol: float) -> bool:
    scale = max(1.0, float(np.max(np.abs(want))))
    return bool(np.all(np.abs(got.reshape(want.shape) - want) <= rtol * scale))
