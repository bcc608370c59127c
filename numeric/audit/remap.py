r"""The Self-Extend audit: :func:`audit_self_extend` compares a user's remapped relative position with
:func:`numeric.remap.self_extend_relative` on every causal pair of a grid that crosses the window's edge and
several groups beyond it, and names the plausible mistakes with the smallest pair ``(i, j)`` (by ``i``, then ``j``)
that shows each.

The function is called as ``fn(query_positions, key_positions, window=W, group=G)`` when it takes ``window`` and
``group`` keywords, else ``fn(query_positions, key_positions)``, with 1-D int64 arrays of equal length holding pairs
``0 <= j <= i``; it returns the remapped distance of each pair.
"""

from __future__ import annotations

import inspect

import numpy as np
from posproof.numeric import _validate
from posproof.numeric.audit.call import call_scheme, to_numpy
from posproof.numeric.audit.report import AuditCallError, Finding, SchemeReport, function_name
from posproof.numeric.remap import self_extend_relative

__all__ = ["SELF_EXTEND_FINDINGS", "audit_self_extend"]

#: Finding ids of the Self-Extend audit and what each means (stable: tools and tests match on them).
SELF_EXTEND_FINDINGS = {
    "self-extend-shape": "the function does not return one finite distance per pair",
    "self-extend-no-shift": "the grouped distance has no shift: i // G - j // G, which restarts near 0 at the edge",
    "self-extend-shift-window": "the grouped distance is shifted by W instead of W - W // G",
    "self-extend-shift-true-division": "the shift is W - W / G (true division, as in the reference's prefill "
    "paths) instead of W - W // G; the two agree only when G divides W",
    "self-extend-window-inclusive": "neighbour attention is used for i - j <= W instead of i - j < W",
    "self-extend-grouped-distance": "the distance is grouped, (i - j) // G, instead of the positions",
    "self-extend-mismatch": "the distances differ from Self-Extend's in a way none of the above explains",
}


def _variants(i: np.ndarray, j: np.ndarray, w: int, g: int) -> dict[str, np.ndarray]:
    r = i - j
    grouped = i // g - j // g
    return {
        "self-extend-no-shift": np.where(r < w, r, grouped),
        "self-extend-shift-window": np.where(r < w, r, grouped + w),
        "self-extend-shift-true-division": np.where(r < w, r, grouped + w - w / g),
        "self-extend-window-inclusive": np.where(r <= w, r, grouped + w - w // g),
        "self-extend-grouped-distance": np.where(r < w, r, r // g + w - w // g),
    }


def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Every pair ``0 <= j <= i < n``, ordered by ``i`` then ``j``."""
    i, j = np.tril_indices(n)
    return i.astype(np.int64), j.astype(np.int64)


def _distances(raw) -> np.ndarray:
    r"""The returned distances as a flat float64 array (integers of any width, floats, torch tensors); ``[nan]``
    for anything else."""
    try:
        got, _ = to_numpy(raw, "fn(i, j)")
    except AuditCallError:
        got = np.asarray(raw) if isinstance(raw, (np.ndarray, list, tuple)) else np.array([np.nan])
        if got.dtype.kind not in "iuf":
            return np.array([np.nan])
    return np.asarray(got, dtype=np.float64).reshape(-1)


def _takes_options(fn) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return all(
        name in params
        and params[name].kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        for name in ("window", "group")
    )


def audit_self_extend(fn, *, window: int, group: int, max_position: int | None = None) -> SchemeReport:
    r"""Audit ``fn`` against Self-Extend's remapped distance for neighbour window ``window`` (the reference's
    ``group_size_2``) and group size ``group`` (``group_size_1``), on every causal pair below ``max_position``
    (default ``window + 4 * group + 8``: past the edge and four groups beyond). Distances are compared exactly."""
    if not callable(fn):
        raise ValueError(f"fn must be callable, got {type(fn).__name__}")
    w = _validate.positive_int(window, "window")
    g = _validate.positive_int(group, "group")
    n = w + 4 * g + 8 if max_position is None else _validate.positive_int(max_position, "max_position", 2)
    i, j = _pairs(n)
    if _takes_options(fn):
        raw = call_scheme(lambda a, b: fn(a, b, window=w, group=g), (i, j), f"(i, j, window={w}, group={g})")
    else:
        raw = call_scheme(fn, (i, j), "(i, j)")
    want = self_extend_relative(i, j, window=w, group=g)
    checked = f"every pair 0 <= j <= i < {n}, window {w}, group {g}, exact distances"
    name = function_name(fn)
    got = _distances(raw)
    if got.shape != want.shape or not np.all(np.isfinite(got)):
        sizes = {"pairs": int(want.size), "values returned": int(got.size)}
        finding = Finding("self-extend-shape", SELF_EXTEND_FINDINGS["self-extend-shape"][0].upper()
                          + SELF_EXTEND_FINDINGS["self-extend-shape"][1:], sizes)  # fmt: skip
        return SchemeReport("self-extend", (finding,), checked, name)
    bad = np.flatnonzero(got != want)
    if not bad.size:
        return SchemeReport("self-extend", (), checked, name)
    hit = [k for k, v in _variants(i, j, w, g).items() if np.array_equal(got, v)]
    id_ = hit[0] if hit else "self-extend-mismatch"
    first = int(bad[0])
    example: dict[str, int | float] = {"i": int(i[first]), "j": int(j[first]), "window": w, "group": g,
                                       "expected": int(want[first]), "got": float(got[first])}  # fmt: skip
    text = SELF_EXTEND_FINDINGS[id_]
    message = f"{text[0].upper()}{text[1:]}: first at i = {example['i']}, j = {example['j']}"
    return SchemeReport("self-extend", (Finding(id_, message, example),), checked, name)
