r"""Compiled kernels for RoPE's hot loop, used when numba is installed (``pip install 'posproof[fast]'``).

One compiled pass per block reads each input pair and its cos and sin once, writes the two outputs, and checks
the row it just wrote for inf/NaN on its bit pattern (integer operations, which vectorise) while the row is in
the L1 cache. NumPy needs a complex multiply plus a BLAS pass for the check (interleaved), or three passes, one
strided, for the half layout; fused, both stay within about 2x of a memcpy (bench/bench_rope.py). Without numba
:data:`ENABLED` is False and numeric.rotary uses NumPy.
"""

from __future__ import annotations

import importlib.util

import numpy as np

__all__ = ["ENABLED", "kernel", "rotate_block"]

#: Whether the compiled kernel is used: numba can be imported (found without importing it, which takes ~0.3 s:
#: numba is imported the first time a block is rotated). Tests set it to False to exercise the NumPy path.
ENABLED = importlib.util.find_spec("numba") is not None

#: The exponent bits of float32 and float64: all ones means inf or NaN.
_EXPONENT = {np.dtype(np.float32): (np.int32, 0x7F800000), np.dtype(np.float64): (np.int64, 0x7FF0000000000000)}

_compiled: list = []


def kernel():
    r""":func:`rotate` compiled by numba (compiled, or loaded from numba's cache, on the first call)."""
    if not _compiled:
        import numba

        _compiled.append(numba.njit(cache=True, nogil=True)(rotate))
    return _compiled[0]


def rotate(x, c, s, out, bits, mask, half):  # written for numba: plain loops over arrays
    r"""``out = RoPE(x)`` for ``x``, ``out`` ``(A, tokens, width)`` and ``c``, ``s`` ``(A or 1, tokens, r/2)``.
    ``half``: pairs ``(i, i + r/2)``, else ``(2i, 2i + 1)``; channels past ``r`` are copied. Each pair is read
    before it is written, so ``out`` may be ``x``. ``bits`` is ``out`` viewed as integers of its width;
    returns True if every written value is finite (``mask``: the exponent bits)."""
    A, T, W = x.shape
    h = c.shape[2]
    shared = c.shape[0] == 1
    bad = 0
    for a in range(A):
        ta = 0 if shared else a
        for t in range(T):
            if half:  # two loops, not a branch per pair: each vectorises
                for i in range(h):
                    u, v = x[a, t, i], x[a, t, i + h]
                    ci, si = c[ta, t, i], s[ta, t, i]
                    out[a, t, i] = u * ci - v * si
                    out[a, t, i + h] = u * si + v * ci
            else:
                for i in range(h):
                    u, v = x[a, t, 2 * i], x[a, t, 2 * i + 1]
                    ci, si = c[ta, t, i], s[ta, t, i]
                    out[a, t, 2 * i] = u * ci - v * si
                    out[a, t, 2 * i + 1] = u * si + v * ci
            for i in range(2 * h, W):
                out[a, t, i] = x[a, t, i]
            for i in range(W):
                bad |= (bits[a, t, i] & mask) == mask
    return bad == 0


def rotate_block(src: np.ndarray, c: np.ndarray, s: np.ndarray, out: np.ndarray, half: bool) -> bool | None:
    r"""Rotate one block with :func:`rotate`: ``src``, ``out`` ``(..., tokens, width)`` float32 or float64, tables
    ``(..., tokens, r/2)`` of that dtype broadcastable to the block (axes equal or 1). Returns None (nothing
    written) when the kernel is missing or the dtype is another, else whether every output is finite. Every
    float32/float64 block goes through the kernel, whatever its layout in memory, so results do not depend on
    how positions broadcast or where ``out`` lives."""
    if not ENABLED or src.ndim < 2 or src.dtype not in _EXPONENT or c.dtype != src.dtype:
        return None
    lead, T, W, h = src.shape[:-2], src.shape[-2], src.shape[-1], c.shape[-1]
    A = int(np.prod(lead)) if lead else 1
    if c.shape[-2] == T and all(n == 1 for n in c.shape[:-2]):  # one table shared by every leading row
        c3, s3 = np.ascontiguousarray(c).reshape(1, T, h), np.ascontiguousarray(s).reshape(1, T, h)
    else:  # per-row tables, or broadcast over some leading axes only: one table row per vector row
        c3 = np.ascontiguousarray(np.broadcast_to(c, lead + (T, h))).reshape(A, T, h)
        s3 = np.ascontiguousarray(np.broadcast_to(s, lead + (T, h))).reshape(A, T, h)
    x3 = np.ascontiguousarray(src).reshape(A, T, W)
    direct = out.flags.c_contiguous  # else compute into a contiguous block and copy (a reshape would copy)
    o3 = out.reshape(A, T, W) if direct else np.empty((A, T, W), dtype=out.dtype)
    kind, mask = _EXPONENT[src.dtype]
    ok = bool(kernel()(x3, c3, s3, o3, o3.view(kind), kind(mask), half))
    if not direct:
        out[...] = o3.reshape(out.shape)
    return ok
