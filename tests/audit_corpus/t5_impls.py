r"""T5 relative-position buckets (relative position = key - query), NumPy, and the mistakes ports made."""

import math

import numpy as np

from . import case


def t5_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    r = np.asarray(relative_position)
    out = np.zeros_like(r)
    if bidirectional:
        num_buckets //= 2
        out += (r > 0).astype(r.dtype) * num_buckets
        n = np.abs(r)
    else:
        n = np.maximum(-r, 0)
    max_exact = num_buckets // 2
    is_small = n < max_exact
    with np.errstate(divide="ignore"):
        large = max_exact + (
            np.log(n.astype(np.float64) / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
        ).astype(np.int64)
    large = np.minimum(large, num_buckets - 1)
    return out + np.where(is_small, n, large)


def t5_bucket_no_cap(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    # Bug: the min(..., num_buckets - 1) dropped.
    r = np.asarray(relative_position)
    out = np.zeros_like(r)
    if bidirectional:
        num_buckets //= 2
        out += (r > 0).astype(r.dtype) * num_buckets
        n = np.abs(r)
    else:
        n = np.maximum(-r, 0)
    max_exact = num_buckets // 2
    with np.errstate(divide="ignore"):
        large = max_exact + (
            np.log(n.astype(np.float64) / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
        ).astype(np.int64)
    return out + np.where(n < max_exact, n, large)


def t5_bucket_blend(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    # Bug: the select written as an arithmetic blend: 0 * log(0) = NaN leaks at r = 0.
    r = np.asarray(relative_position)
    out = np.zeros(r.shape)
    if bidirectional:
        num_buckets //= 2
        out += (r > 0) * num_buckets
        n = np.abs(r).astype(np.float64)
    else:
        n = np.maximum(-r, 0).astype(np.float64)
    max_exact = num_buckets // 2
    small = (n < max_exact).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        large = max_exact + np.trunc(
            np.log(n / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
        )
        large = np.minimum(large, num_buckets - 1)
        return out + small * n + (1 - small) * large


def t5_bucket_query_minus_key(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    # Bug: called with query - key (DeBERTa's convention) inside.
    return t5_bucket(-np.asarray(relative_position), bidirectional, num_buckets, max_distance)


def t5_bucket_not_halved(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    # Bug: bidirectional buckets use the full count on each side.
    r = np.asarray(relative_position)
    if not bidirectional:
        return t5_bucket(r, False, num_buckets, max_distance)
    out = (r > 0).astype(r.dtype) * (num_buckets // 2)
    n = np.abs(r)
    max_exact = num_buckets // 2
    with np.errstate(divide="ignore"):
        large = max_exact + (
            np.log(n.astype(np.float64) / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
        ).astype(np.int64)
    large = np.minimum(large, num_buckets - 1)
    return out + np.where(n < max_exact, n, large)


def t5_bucket_linear(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    # Bug: linear buckets between max_exact and max_distance.
    r = np.asarray(relative_position)
    out = np.zeros_like(r)
    if bidirectional:
        num_buckets //= 2
        out += (r > 0).astype(r.dtype) * num_buckets
        n = np.abs(r)
    else:
        n = np.maximum(-r, 0)
    max_exact = num_buckets // 2
    large = max_exact + (np.maximum(n, max_exact) - max_exact) * (num_buckets - max_exact) // (max_distance - max_exact)
    return out + np.where(n < max_exact, n, np.minimum(large, num_buckets - 1))


CASES = [
    case(t5_bucket, (), scheme="t5", style="NumPy, as the Mesh TensorFlow reference"),
    case(t5_bucket_no_cap, {"t5-missing-cap"}, scheme="t5", style="NumPy"),
    case(t5_bucket_blend, {"t5-nan-at-zero"}, scheme="t5", style="NumPy, arithmetic select"),
    case(t5_bucket_query_minus_key, {"t5-sign-convention"}, scheme="t5", style="NumPy"),
    case(t5_bucket_not_halved, {"t5-bidirectional-halving"}, scheme="t5", style="NumPy"),
    case(t5_bucket_linear, {"t5-linear-buckets"}, scheme="t5", style="NumPy"),
]
