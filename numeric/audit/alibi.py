r"""The ALiBi audit: :func:`audit_alibi` compares ``slopes(n_heads)`` with Press et al.'s slopes for each head
count and names the plausible mistakes (the power-of-two formula for every count, exponents off by one head)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import mpmath
import numpy as np
from posproof.numeric import _validate
from posproof.numeric.alibi import alibi_slopes
from posproof.numeric.audit.call import call_scheme, to_numpy
from posproof.numeric.audit.report import AuditCallError, Finding, SchemeReport, exact_text, function_name, ranges_text


def _alibi_variants(n: int) -> dict[str, np.ndarray]:
    h = np.arange(1, n + 1, dtype=np.float64)
    return {
        "alibi-power-of-two-formula": 2.0 ** (-8 * h / n),
        "alibi-slope-exponent (h - 1)": 2.0 ** (-8 * (h - 1) / n),
        "alibi-slope-exponent (h + 1)": 2.0 ** (-8 * (h + 1) / n),
        "alibi-slope-exponent (-h/n)": 2.0 ** (-h / n),
    }


def audit_alibi(
    slopes_fn,
    n_heads: Sequence[int] = tuple(range(1, 65)),
    rtol: float = 1e-6,
    progress: Callable[[str], None] | None = None,
) -> SchemeReport:
    r"""Audit ``slopes_fn(n_heads) -> (n_heads,)`` against Press et al.'s slopes for each head count (default
    1 .. 64; ``rtol`` 1e-6 admits float32 slopes, whose rounding is 6e-8). ``progress`` (optional): called with a
    short text as each stage begins."""
    if not callable(slopes_fn):
        raise ValueError(f"slopes_fn must be callable, got {type(slopes_fn).__name__}")
    counts = [_validate.positive_int(n, "n_heads") for n in n_heads]
    wrong: dict[int, np.ndarray] = {}
    findings: list[Finding] = []
    if progress is not None:
        progress(f"slopes for n_heads in {ranges_text(counts)}")
    for n in counts:
        raw = call_scheme(slopes_fn, (n,), f"({n})")
        try:
            got, _ = to_numpy(raw, f"slopes_fn({n})")
        except AuditCallError:
            got = np.asarray(raw, dtype=np.float64) if isinstance(raw, (list, tuple)) else np.array([np.nan])
        got = np.asarray(got, dtype=np.float64).reshape(-1)
        want = alibi_slopes(n)  # (n,) Press et al.'s
        if got.shape != want.shape or not np.all(np.isfinite(got)):
            findings.append(
                Finding(
                    "alibi-shape",
                    f"returns {got.size} values for n_heads = {n}",
                    {"n_heads": n, "expected": want.tolist(), "got": got.tolist()},
                )
            )
            break
        if np.any(np.abs(got / want - 1) > rtol):
            wrong[n] = got
    if wrong and not findings:
        names = {}
        for n, got in wrong.items():
            hit = [k for k, v in _alibi_variants(n).items() if np.all(np.abs(got / v - 1) <= rtol)]
            names[n] = hit[0].split(" ")[0] if hit else "alibi-wrong-slopes"
        for id_ in dict.fromkeys(names.values()):
            ns = [n for n, v in names.items() if v == id_]
            n = ns[0]
            want = alibi_slopes(n)  # (n,) Press et al.'s
            what = {
                "alibi-power-of-two-formula": "uses 2^(-8h/n) for head counts that are not powers of two",
                "alibi-slope-exponent": "has an off exponent",
                "alibi-wrong-slopes": "returns slopes that differ from Press et al.'s",
            }[id_]
            msg = f"{what} (n_heads = {ranges_text(ns)}; first at {n})"
            findings.append(
                Finding(
                    id_,
                    msg,
                    {"n_heads": n, "expected": [exact_text(mpmath.mpf(v)) for v in want], "got": wrong[n].tolist()},
                )
            )
    checked = f"slopes for n_heads in {ranges_text(counts)} against 2^(e_h) of Press et al. (rtol {rtol:g})"
    return SchemeReport("alibi", tuple(findings), checked, function_name(slopes_fn))
