r"""T5 relative position buckets (Raffel et al. 2020; Mesh TensorFlow ``_relative_position_bucket``).

Convention: the relative position is **key - query** (``r = n - m``, "memory position minus query position").
T5 adds a learned scalar ``b_h(bucket(n - m))`` per head to the content score ``x_m^T W_q^T W_k x_n`` (no
``1/sqrt(d)`` scaling). The bucket of ``r``:

* bidirectional: the buckets are halved; keys *after* the query (``r > 0``) use the upper half; ``|r|`` is bucketed;
* unidirectional: only ``max(-r, 0)`` is bucketed (keys after the query all land in bucket 0);
* with ``B`` buckets for the bucketed distance ``a``: ``max_exact = B // 2``; ``a < max_exact`` is its own bucket,
  otherwise ``max_exact + trunc(log(a / max_exact) / log(max_distance / max_exact) * (B - max_exact))``, capped at
  ``B - 1``.

The logarithm is only evaluated where ``a >= max_exact`` (the reference evaluates ``log(0)`` and masks it with a
select; here nothing non-finite is ever produced).

>>> t5_relative_bucket([-3, 0, 3, 20, 1000]).tolist()
[3, 0, 19, 26, 31]
>>> t5_relative_bucket([-20, 5], bidirectional=False).tolist()
[17, 0]

Every option is keyword-only (a positional one raises ``TypeError``): ``t5_bias`` once took ``max_distance`` before
``num_buckets`` and the other functions the opposite order, so a positional call could swap them silently.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath
import numpy as np
from posproof.numeric import _validate

__all__ = [
    "T5BucketConfig",
    "t5_relative_bucket",
    "t5_relative_bucket_mp",
    "t5_relative_bucket_uncapped",
    "t5_bucket_boundaries",
    "t5_bucket_table",
    "print_t5_bucket_table",
    "t5_bias",
]


@dataclass(frozen=True, kw_only=True)
class T5BucketConfig:
    r"""A validated bucket configuration: ``num_buckets`` even and ``>= 2`` (``>= 4`` if bidirectional, so each
    half keeps an exact bucket), ``max_distance`` an integer in ``[max_exact + 1, 2**53]`` (the relative positions
    the kernels take; past ``2**53`` float64 no longer holds every distance); fields by keyword only."""

    bidirectional: bool = True
    num_buckets: int = 32
    max_distance: int = 128

    def __post_init__(self):
        if not isinstance(self.bidirectional, (bool, np.bool_)):
            raise ValueError(f"bidirectional must be True or False, got {self.bidirectional!r}")
        minimum = 4 if self.bidirectional else 2
        nb = _validate.even_int(self.num_buckets, "num_buckets", minimum)
        object.__setattr__(self, "num_buckets", nb)
        md = self.max_distance
        if not _validate._is_int(md) or not self.max_exact < md <= _validate.MAX_INTEGER:
            raise ValueError(f"max_distance must be an integer in [{self.max_exact + 1}, 2**53], got {md!r}")
        object.__setattr__(self, "max_distance", int(md))

    @property
    def side_buckets(self) -> int:
        r"""Buckets for one sign of the offset: ``num_buckets // 2`` if bidirectional, else ``num_buckets``."""
        return self.num_buckets // 2 if self.bidirectional else self.num_buckets

    @property
    def max_exact(self) -> int:
        r"""Distances below this get one bucket each."""
        return self.side_buckets // 2


def _bucket_distance(a: np.ndarray, cfg: T5BucketConfig, cap: bool = True) -> np.ndarray:
    # a: (...) non-negative int64 distances
    B, me = cfg.side_buckets, cfg.max_exact
    safe = np.maximum(a, me).astype(np.float64)  # log only of values >= max_exact: never log(0)
    # max_exact + trunc(log(a/max_exact) / log(max_distance/max_exact) * (B - max_exact))
    large = me + np.trunc(np.log(safe / me) / math.log(cfg.max_distance / me) * (B - me)).astype(np.int64)
    if cap:
        large = np.minimum(large, B - 1)  # the cap: every a >= max_distance shares the last bucket
    return np.where(a < me, a, large)


def _buckets(relative_position, cfg: T5BucketConfig, cap: bool) -> np.ndarray:
    r = _validate.integer_array(relative_position, "relative_position")  # (...)
    if cfg.bidirectional:
        offset = np.where(r > 0, cfg.side_buckets, 0)  # keys after the query: upper half
        return offset + _bucket_distance(np.abs(r), cfg, cap)
    return _bucket_distance(np.maximum(-r, 0), cfg, cap)


def _config(bidirectional, num_buckets, max_distance) -> T5BucketConfig:
    return T5BucketConfig(bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)


def t5_relative_bucket(
    relative_position, *, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128
) -> np.ndarray:
    r"""The T5 bucket of each relative position ``r = key - query`` (int64 array, the shape of the input).

    ``relative_position``: integers (or integral floats) in ``[-2**53, 2**53]``; others raise ``ValueError``."""
    return _buckets(relative_position, _config(bidirectional, num_buckets, max_distance), cap=True)


def t5_relative_bucket_uncapped(
    relative_position, *, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128
) -> np.ndarray:
    r"""A bug class, written once: T5's buckets without the cap at the last bucket of a side (a port that drops
    the ``min``), so distances past ``max_distance`` get new buckets. The audit names it ``t5-missing-cap``; the
    claims use it as their wrong computation.

    >>> t5_relative_bucket([-128, -1000]).tolist(), t5_relative_bucket_uncapped([-128, -1000]).tolist()
    ([15, 15], [16, 21])
    """
    return _buckets(relative_position, _config(bidirectional, num_buckets, max_distance), cap=False)


def _bucket_mp(r: int, cfg: T5BucketConfig, dps: int) -> int:
    if cfg.bidirectional:
        offset, a = (cfg.side_buckets if r > 0 else 0), abs(r)
    else:
        offset, a = 0, max(-r, 0)
    B, me = cfg.side_buckets, cfg.max_exact
    if a < me:
        return offset + a
    with mpmath.workdps(dps):
        x = mpmath.log(mpmath.mpf(a) / me) / mpmath.log(mpmath.mpf(cfg.max_distance) / me) * (B - me)
        return offset + min(me + int(mpmath.floor(x)), B - 1)


def t5_relative_bucket_mp(
    relative_position, *, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128, dps: int = 50
):
    r"""The same buckets with the logarithm evaluated by mpmath at ``dps`` digits (the exact definition): an
    ``int`` for a scalar, else nested lists of the input's shape. The same arguments and checks as
    :func:`t5_relative_bucket`. The float kernel agrees except possibly where the scaled logarithm is exactly an
    integer below the cap: there float rounding (the reference's as well) decides the truncation, by at most
    one bucket."""
    cfg = _config(bidirectional, num_buckets, max_distance)
    r = _validate.integer_array(relative_position, "relative_position")
    dps = _validate.dps(dps)
    out = np.array([_bucket_mp(int(v), cfg, dps) for v in r.reshape(-1).tolist()], dtype=np.int64).reshape(r.shape)
    return int(out) if out.ndim == 0 else out.tolist()


def _bucket_starts(cfg: T5BucketConfig) -> np.ndarray:
    r"""``starts[b]``: the smallest distance ``a >= 0`` whose bucket (of one side) is ``>= b``, for ``b = 0 ..
    side_buckets - 1`` (int64). The kernel is non-decreasing in ``a`` and puts ``max_distance`` in the last bucket,
    so a bisection per bucket over ``[0, max_distance]`` finds them: about 53 evaluations of ``side_buckets``
    distances, whatever ``max_distance`` is (enumerating every distance up to it took memory in proportion)."""
    target = np.arange(cfg.side_buckets, dtype=np.int64)  # (B,)
    lo = np.zeros_like(target)  # (B,): bucket(lo - 1) < b
    hi = np.full_like(target, cfg.max_distance)  # (B,): bucket(hi) >= b (max_distance is in the last bucket)
    while np.any(lo < hi):
        mid = (lo + hi) // 2  # (B,)
        ok = _bucket_distance(mid, cfg) >= target
        hi, lo = np.where(ok, mid, hi), np.where(ok, lo, mid + 1)
    return lo


def t5_bucket_boundaries(*, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128) -> list:
    r"""Each bucket with the relative positions it holds: ``[(bucket, lo, hi), ...]`` with ``hi = None`` for an
    unbounded range and ``lo = None`` for one unbounded below (ordered by bucket; a bucket no relative position
    reaches is left out). Computed from the first distance of each bucket (:func:`_bucket_starts`): the cost
    grows with ``num_buckets``, not with ``max_distance``.

    >>> t5_bucket_boundaries(bidirectional=True, num_buckets=8, max_distance=16)[:4]
    [(0, 0, 0), (1, -1, -1), (2, -5, -2), (3, None, -6)]
    """
    cfg = _config(bidirectional, num_buckets, max_distance)
    starts = _bucket_starts(cfg).tolist()
    B = cfg.side_buckets
    # the distances of bucket b of a side: [starts[b], starts[b + 1] - 1], the last one unbounded (None)
    ends: list[int | None] = [s - 1 for s in starts[1:]] + [None]
    rows = []
    for b in range(B):  # keys at or before the query: r = -a
        a_lo, a_hi = starts[b], ends[b]
        if a_hi is not None and a_hi < a_lo:
            continue  # a bucket the logarithm skips
        lo, hi = (None if a_hi is None else -a_hi), -a_lo
        if not cfg.bidirectional and b == 0:
            hi = None  # unidirectional: every key after the query (r > 0) has distance 0
        rows.append((b, lo, hi))
    if cfg.bidirectional:
        for b in range(B):  # keys after the query: r = a >= 1, in bucket B + b
            a_lo, a_hi = max(starts[b], 1), ends[b]
            if a_hi is not None and a_hi < a_lo:
                continue
            rows.append((B + b, a_lo, a_hi))
    return rows


def t5_bucket_table(*, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128) -> str:
    r"""A printable table of the bucket boundaries (relative position = key - query)."""
    cfg = _config(bidirectional, num_buckets, max_distance)
    head = (
        f"T5 buckets: bidirectional={cfg.bidirectional}, num_buckets={cfg.num_buckets}, "
        f"max_distance={cfg.max_distance}, max_exact={cfg.max_exact} (r = key - query)"
    )
    lines = [head, f"{'bucket':>6}  {'r from':>8}  {'r to':>8}  {'size':>6}"]
    bounds = t5_bucket_boundaries(
        bidirectional=cfg.bidirectional, num_buckets=cfg.num_buckets, max_distance=cfg.max_distance
    )
    rows = {b: (lo, hi) for b, lo, hi in bounds}
    for b in range(cfg.num_buckets):
        if b not in rows:  # e.g. bucket num_buckets/2 when bidirectional: r > 0 always has |r| >= 1
            lines.append(f"{b:>6}  {'(unused)':>8}")
            continue
        lo, hi = rows[b]
        size = "inf" if lo is None or hi is None else str(hi - lo + 1)
        lines.append(f"{b:>6}  {'-inf' if lo is None else lo:>8}  {'+inf' if hi is None else hi:>8}  {size:>6}")
    return "\n".join(lines)


def print_t5_bucket_table(*, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128) -> None:
    r"""Print :func:`t5_bucket_table`."""
    print(t5_bucket_table(bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance))


def t5_bias(
    query_positions,
    key_positions,
    table,
    *,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> np.ndarray:
    r"""The T5 position bias ``table[bucket(n - m), h]`` for every head, query ``m`` and key ``n``: float64
    ``(heads, queries, keys)``. ``query_positions`` ``(queries,)`` and ``key_positions`` ``(keys,)`` are 1-D
    integer arrays; ``table`` is ``(num_buckets, heads)`` (how ``nn.Embedding(num_buckets, heads)`` stores it),
    finite."""
    m = _validate.integer_vector(query_positions, "query_positions")  # (queries,)
    n = _validate.integer_vector(key_positions, "key_positions")  # (keys,)
    cfg = _config(bidirectional, num_buckets, max_distance)
    table = _validate.finite_array(table, "table", ndim=2)
    if table.shape[0] != cfg.num_buckets:
        hint = " (a (heads, num_buckets) table: pass table.T)" if table.shape[1] == cfg.num_buckets else ""
        raise ValueError(
            f"table must have shape (num_buckets, heads) = ({cfg.num_buckets}, heads), got {table.shape}{hint}; "
            "for another bucket count pass num_buckets="
        )
    buckets = t5_relative_bucket(  # (q, k)
        n[None, :] - m[:, None], bidirectional=bidirectional, num_buckets=cfg.num_buckets, max_distance=max_distance
    )
    return np.moveaxis(table[buckets], -1, 0)  # (heads, queries, keys)
