r"""Shifting a KV cache (llama.cpp's context shift; StreamingLLM's attention sinks, Xiao et al. 2023, arXiv
2309.17453): keys cached already rotated at position ``n`` are moved to position ``n + delta`` by rotating them by
``delta`` once more, instead of recomputing them.

Conventions (named, never assumed): a cached key of pair ``i`` is ``R(n theta_i) k_(i)``; the shift rotates it by
``R(delta theta_i)``, ``delta`` an integer (negative when the cache moves back, as in a context shift that drops
the oldest tokens). The frequencies ``theta_i`` are arbitrary reals: every frequency-scaling rule whose
frequencies do not depend on the sequence length (linear, NTK-aware, YaRN and Llama 3 at a fixed factor) is
covered; dynamic NTK, whose frequencies change with the length, is not. Planes are interleaved, channels
``(2i, 2i + 1)``; the half layout is the same sum over another pairing of the channels.

>>> [c.id for c in claims()]
['cache-shift-rerotation', 'cache-shift-drift']
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp
from posproof.symbolic import sources
from posproof.symbolic.engine.core import Fact, Step, Theorem
from posproof.symbolic.rope.rotary import rotated_pair
from posproof.symbolic.symbols import TH_real as th
from posproof.symbolic.symbols import d_even as d
from posproof.symbolic.symbols import k, n

TOPIC = "remapping"
#: The works this module cites (the bibliography's records: :data:`posproof.symbolic.sources.RECORDS`).
STREAMING = sources.STREAMING_LLM
ROFORMER = sources.ROFORMER

#: The pair index, ``i = 0 .. d/2 - 1``; the shift ``delta``; a probe vector ``u`` (any vector: an identity of
#: ``u^T x = u^T y`` for every ``u`` is the identity ``x = y``).
i = sp.Symbol("i", integer=True, nonnegative=True)
delta = sp.Symbol("delta", integer=True)
u = sp.IndexedBase("u", real=True)

#: Widths tried numerically (1, 2, 3 and 5 planes), as for RoPE.
D_SIZES = {d: (2, 4, 6, 10)}

#: Display-only: the key cached at ``n`` and shifted by ``delta``, and the key computed at a position.
_shifted = sp.Function(r"\tilde{k}")
_key = sp.Function("k")


def _planes(f):
    return sp.Sum(f, (i, 0, d / 2 - 1))


def _probe(first, second):
    r"""``u_(i)^T (first, second)``: one plane of ``u^T x``."""
    return u[2 * i] * first + u[2 * i + 1] * second


def _rerotation() -> Theorem:
    cached = rotated_pair(k[2 * i], k[2 * i + 1], n * th[i])
    lhs = _planes(_probe(*rotated_pair(cached[0], cached[1], delta * th[i])))
    rhs = _planes(_probe(*rotated_pair(k[2 * i], k[2 * i + 1], (n + delta) * th[i])))
    wrong = _planes(_probe(*rotated_pair(k[2 * i], k[2 * i + 1], (n - delta) * th[i])))
    return Theorem(
        "cache-shift-rerotation",
        r"For every even $d$ and any frequencies: rotating a key cached at position $n$ by $\delta$ gives the key "
        r"computed at $n + \delta$",
        TOPIC,
        f"{STREAMING}, section 3.2; {ROFORMER}, eq. 13",
        steps=(
            Step(
                lhs,
                rhs,
                r"per plane $R(\delta\theta_i) R(n\theta_i) = R((n + \delta)\theta_i)$: the angles add (the "
                r"addition formulas of $\cos$ and $\sin$)",
                ("expand", "expand_trig", "expand"),
            ),
        ),
        assumptions=(
            r"$d = 2h$ even, planes $i = 0, \dots, d/2 - 1$ on channels $(2i, 2i + 1)$",
            r"$k$ and $u$ real vectors, $\theta_i$ arbitrary reals, $n$ and $\delta$ integers",
            r"the identity holds for every $u$, so the shifted key equals the recomputed one",
        ),
        sizes=D_SIZES,
        formula=sp.Eq(_shifted(n, delta), _key(n + delta), evaluate=False),
        notes=(
            r"Frequencies that change with the sequence length (dynamic NTK) are not covered: the cached key "
            r"was rotated with other frequencies than the recomputed one would be. Rotating by $-\delta$ instead "
            r"moves the key to $n - \delta$."
        ),
        wrong=wrong,
    )


# ---- the drift of successive shifts in 16-bit and 32-bit arithmetic --------------------------------------------

#: The drift fact's key: width 64, base 10000, a seeded draw uniform in [-1, 1]; the shift counts it reports.
WIDTH, BASE, SHIFTS = 64, 10000, (1, 10, 100, 1000)


def _exact_key(key, theta, position: int) -> list:
    r"""The key rotated at ``position`` at the working precision: ``R(position theta_i) k_(i)`` per plane."""
    out = []
    for t_i, a, b in zip(theta, key[0::2], key[1::2], strict=True):
        c, s = mpmath.cos(position * t_i), mpmath.sin(position * t_i)
        out += [a * c - b * s, a * s + b * c]
    return out


def _table(theta, position: int, dtype) -> tuple[np.ndarray, np.ndarray]:
    r"""The cosines and sines of ``position theta_i``, each rounded once to ``dtype`` (a stored table)."""
    c = np.array([float(mpmath.cos(position * t)) for t in theta]).astype(dtype)
    s = np.array([float(mpmath.sin(position * t)) for t in theta]).astype(dtype)
    return c, s


def _rotate_in(dtype, x, c, s):
    r"""One rotation of the interleaved pairs of ``x`` by the table ``(c, s)``, every operation rounded to
    ``dtype`` (as a kernel computing in that precision does)."""
    a, b = x[0::2], x[1::2]
    out = np.empty_like(x)
    out[0::2] = (a * c).astype(dtype) - (b * s).astype(dtype)
    out[1::2] = (a * s).astype(dtype) + (b * c).astype(dtype)
    return out


def _drift(dps: int, sign: int = 1):
    r"""The error, relative to ``|k|``, of a key shifted ``N`` times by one position (tables and arithmetic in
    the dtype) against the key computed exactly at ``N``, and of one recomputation at ``N`` in the dtype."""
    with mpmath.workdps(dps):
        key = np.random.default_rng(0).uniform(-1, 1, WIDTH)
        theta = [mpmath.mpf(BASE) ** (-mpmath.mpf(2 * j) / WIDTH) for j in range(WIDTH // 2)]
        norm = mpmath.sqrt(mpmath.fsum(mpmath.mpf(float(v)) ** 2 for v in key))
        rows, value = [], {}
        for dtype in (np.float16, np.float32):
            name = np.dtype(dtype).name
            x = key.astype(dtype)
            start = [mpmath.mpf(float(v)) for v in x]
            c, s = _table(theta, sign, dtype)
            for count in range(1, SHIFTS[-1] + 1):
                x = _rotate_in(dtype, x, c, s)
                if count in SHIFTS:
                    exact = _exact_key(start, theta, count)
                    err = max(abs(mpmath.mpf(float(v)) - e) for v, e in zip(x, exact, strict=True)) / norm
                    rows.append((f"{name}, {count} shifts", mpmath.nstr(err, 2)))
                    value[f"{name}, {count} shifts"] = mpmath.nstr(err, 2, min_fixed=1, max_fixed=0)
            once = _rotate_in(dtype, key.astype(dtype), *_table(theta, SHIFTS[-1], dtype))
            exact = _exact_key(start, theta, SHIFTS[-1])
            err = max(abs(mpmath.mpf(float(v)) - e) for v, e in zip(once, exact, strict=True)) / norm
            value[f"{name}, recomputed at {SHIFTS[-1]}"] = mpmath.nstr(err, 2, min_fixed=1, max_fixed=0)
            rows.append((f"{name}, recomputed at {SHIFTS[-1]}", mpmath.nstr(err, 2)))
        return value, rows


def _drift_fact() -> Fact:
    return Fact(
        "cache-shift-drift",
        r"Shifting a cached key $N$ times by one position drifts from the key computed at $N$: in float16 by "
        r"$8.0 \cdot 10^{-2}$ of its length after 1000 shifts, against $1.2 \cdot 10^{-4}$ recomputed once",
        TOPIC,
        f"{STREAMING}, section 3.2",
        r"A key of width 64 (base $10^4$, entries uniform in $[-1, 1]$, seeded) rotated $N$ times by one position "
        r"with the cosine and sine table and every product and sum rounded to float16 or float32, against the key "
        r"rotated exactly to position $N$; and the key rotated once to position 1000 in the same precision. The "
        r"error is the largest entry's, relative to $|k|$; it grows about linearly with the number of shifts.",
        {
            "float16, 1 shifts": "1.4e-4",
            "float16, 10 shifts": "1.2e-3",
            "float16, 100 shifts": "1.3e-2",
            "float16, 1000 shifts": "8.0e-2",
            "float16, recomputed at 1000": "1.2e-4",
            "float32, 1 shifts": "1.1e-8",
            "float32, 10 shifts": "9.1e-8",
            "float32, 100 shifts": "9.2e-7",
            "float32, 1000 shifts": "9.6e-6",
            "float32, recomputed at 1000": "1.9e-8",
        },
        _drift,
        method="NumPy float16 and float32 arithmetic (each operation correctly rounded), the exact keys with "
        "mpmath at {dps} digits",
        wrong=lambda dps: _drift(dps, sign=-1),
        formula=sp.Gt(
            sp.Function(r"\epsilon_{16}")(1000), 100 * sp.Function(r"\tilde{\epsilon}_{16}")(1000), evaluate=False
        ),
        notes=(
            "A cache shifted often is better recomputed, or shifted in float32: in float16 the drift after 100 "
            "shifts is a hundred times the error of recomputing."
        ),
    )


def claims() -> list:
    return [_rerotation(), _drift_fact()]
