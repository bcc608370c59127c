r"""The T5 audit: :func:`audit_t5` compares ``bucket(relative_position, bidirectional, num_buckets,
max_distance)`` with T5's buckets over several configurations and names the plausible mistakes (no cap, the other
sign, no halving, linear buckets, log(0) at distance 0)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from posproof.numeric.audit.call import call_scheme, to_numpy
from posproof.numeric.audit.report import T5_FINDINGS, AuditCallError, Finding, SchemeReport, function_name
from posproof.numeric.t5 import t5_relative_bucket, t5_relative_bucket_uncapped

#: Configurations audited (bidirectional, num_buckets, max_distance): T5's defaults for encoder and decoder, and
#: others with different max_exact and ranges.
T5_SETTINGS = ((True, 32, 128), (False, 32, 128), (True, 64, 256), (False, 16, 64), (True, 8, 20))


def _t5_variant(name: str, r: np.ndarray, bidirectional: bool, nb: int, md: int) -> np.ndarray | None:
    r"""The bucket with one named mistake, from :func:`numeric.t5.t5_relative_bucket` where the mistake is another
    configuration of it (``None`` where that configuration does not exist)."""
    if name == "t5-sign-convention":
        return t5_relative_bucket(-r, bidirectional=bidirectional, num_buckets=nb, max_distance=md)
    if name == "t5-bidirectional-halving":
        if not bidirectional:
            return t5_relative_bucket(r, bidirectional=bidirectional, num_buckets=nb, max_distance=md)
        if md <= nb // 2:  # every bucket on each side needs max_distance > max_exact = num_buckets / 2
            return None
        # not halved: each side is bucketed as a one-sided T5 with every bucket, keys after the query offset by nb/2
        return np.where(r > 0, nb // 2, 0) + t5_relative_bucket(
            -np.abs(r), bidirectional=False, num_buckets=nb, max_distance=md
        )
    if name == "t5-missing-cap":
        return t5_relative_bucket_uncapped(r, bidirectional=bidirectional, num_buckets=nb, max_distance=md)
    if name == "t5-linear-buckets":
        B = nb // 2 if bidirectional else nb
        a = np.abs(r) if bidirectional else np.maximum(-r, 0)
        upper: Any = np.where(r > 0, B, 0) if bidirectional else 0
        return upper + _t5_linear(a, B, B // 2, md)
    raise ValueError(name)


def _t5_linear(a: np.ndarray, B: int, me: int, md: int) -> np.ndarray:
    r"""The bucket of distances ``a`` past ``max_exact = me`` spaced linearly (a bug class), capped at ``B - 1``."""
    safe = np.maximum(a, me).astype(np.float64)
    large = np.minimum(me + ((safe - me) * (B - me) // (md - me)).astype(np.int64), B - 1)
    return np.where(a < me, a, large)


def audit_t5(
    bucket_fn, settings: Sequence[tuple] = T5_SETTINGS, progress: Callable[[str], None] | None = None
) -> SchemeReport:
    r"""Audit ``bucket_fn(relative_position, bidirectional, num_buckets, max_distance)`` (``relative_position`` an
    int64 array of **key - query**) against T5's buckets for each of ``settings``. ``progress`` (optional): called
    with a short text as each stage begins."""
    if not callable(bucket_fn):
        raise ValueError(f"bucket_fn must be callable, got {type(bucket_fn).__name__}")
    findings: list[Finding] = []
    mismatches = []
    for bidirectional, nb, md in settings:
        if progress is not None:
            progress(f"buckets for bidirectional={bidirectional}, num_buckets={nb}, max_distance={md}")
        r = np.arange(-4 * md, 4 * md + 1, dtype=np.int64)
        r = np.concatenate([r, [-100000, 100000]])
        args = (r, bidirectional, nb, md)
        raw = call_scheme(bucket_fn, args, f"(relative_position, {bidirectional}, {nb}, {md})")
        try:
            got, _ = to_numpy(raw, "the buckets")
        except AuditCallError:
            got = np.asarray(raw)
        got = np.asarray(got)
        if got.shape != r.shape:
            findings.append(
                Finding(
                    "t5-shape",
                    f"returns shape {got.shape} for {r.shape[0]} relative positions",
                    {"bidirectional": bidirectional, "num_buckets": nb, "max_distance": md},
                )
            )
            break
        with np.errstate(invalid="ignore"):
            gotf = got.astype(np.float64)
        want = t5_relative_bucket(r, bidirectional=bidirectional, num_buckets=nb, max_distance=md)
        diff = ~(gotf == want)
        if diff.any():
            mismatches.append((bidirectional, nb, md, r, gotf, want, diff))
    if mismatches and not findings:
        names = []
        for bidirectional, nb, md, r, gotf, _want, diff in mismatches:
            zero = r == 0 if bidirectional else r >= 0  # the bucketed distance is 0 (log(0) in the reference)
            if diff[zero].all() and not diff[~zero].any():
                names.append("t5-nan-at-zero")
                continue
            hit = None
            for name in ("t5-missing-cap", "t5-sign-convention", "t5-bidirectional-halving", "t5-linear-buckets"):
                alt = _t5_variant(name, r, bidirectional, nb, md)
                if alt is not None and np.array_equal(alt, gotf):
                    hit = name
                    break
            names.append(hit or "t5-wrong-buckets")
        for id_ in dict.fromkeys(names):
            k = names.index(id_)
            bidirectional, nb, md, r, gotf, want, diff = mismatches[k]
            j = int(np.argmin(np.where(diff, np.abs(r), np.iinfo(np.int64).max)))
            g = gotf[j]
            msg = T5_FINDINGS[id_][0].upper() + T5_FINDINGS[id_][1:]
            findings.append(
                Finding(
                    id_,
                    f"{msg} (bidirectional={bidirectional}, num_buckets={nb}, max_distance={md})",
                    {
                        "relative_position": int(r[j]),
                        "bidirectional": bidirectional,
                        "num_buckets": nb,
                        "max_distance": md,
                        "expected": int(want[j]),
                        "got": None if not np.isfinite(g) else g.item(),
                    },
                )
            )
    checked = "buckets of r = key - query in [-4 max_distance, 4 max_distance] and +-100000 for " + "; ".join(
        f"(bidirectional={b}, num_buckets={n}, max_distance={m})" for b, n, m in settings
    )
    return SchemeReport("t5", tuple(findings), checked, function_name(bucket_fn))
