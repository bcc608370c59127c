r"""Dual chunk attention (An et al. 2024, arXiv 2402.17463): the relative positions RoPE sees when the keys are
split into chunks, as the reference code computes them (HKUNLP/ChunkLlama and vLLM's ``DualChunkRotaryEmbedding``,
which Qwen2.5-1M's ``dual_chunk_attention_config`` drives; :mod:`posproof.numeric.dual_chunk` says where the paper
differs).

Convention: query ``i``, key ``j``, ``0 <= j <= i``; the chunk length ``c = S - w`` (``S = chunk_size``,
``w = local_size``); ``n = ⌊i/c⌋ - ⌊j/c⌋`` the chunk gap and ``t = i - c⌊i/c⌋``, ``u = j - c⌊j/c⌋`` the offsets in
the chunks. The index is ``t - u`` for ``n = 0``, ``min(t + c, S) - u`` for ``n = 1``, ``min(2c - 1, S) - u`` beyond.
The theorems are proved on the offsets kernel (``n``, ``t``, ``u`` given, so no floor is taken); the division
``i = c⌊i/c⌋ + t`` that ties them to ``i`` and ``j`` is not in reach of the engine, so the claims about the floors
are computed over grids, and their titles say so.
"""

from __future__ import annotations

import numpy as np
import sympy as sp
from posproof.numeric import dual_chunk as D
from posproof.symbolic import tables
from posproof.symbolic.engine.core import Definition, Domain, Fact, Step, Theorem
from posproof.symbolic.engine.kernel import Kernel
from posproof.symbolic.rope import rotary

TOPIC = "remapping"
DCA = "An et al. 2024, 'Training-Free Long-Context Scaling of Large Language Models'"
DCA_CODE = DCA + "; HKUNLP/ChunkLlama, chunkllama_attn_replace.py; vLLM, DualChunkRotaryEmbedding"

i, j = sp.symbols("i j", integer=True, nonnegative=True)  # query and key positions
c = sp.Symbol("c", integer=True, positive=True)  # the chunk length, chunk_size - local_size
w = sp.Symbol("w", integer=True, nonnegative=True)  # local_size
n, t, u, v = sp.symbols("n t u v", integer=True, nonnegative=True)  # chunk gap, offsets, a distance
CAUSAL = (sp.Q.ge(i, j),)
_SIZES = {"c": Domain("integer", 1, 64), "w": Domain("integer", 0, 64)}
_OFFSETS = {"n": Domain("integer", 0, 4), "t": Domain("integer", 0, 63), "u": Domain("integer", 0, 63)}


def _int(x, name: str) -> int:
    if int(x) != x:
        raise ValueError(f"{name} must be an integer, got {x}")
    return int(x)


def dual_chunk_piecewise(a, b, cc=c, ww=w, clamp=None):
    r"""The index of query ``a`` and key ``b`` with the floors written out; ``clamp`` the successive and inter
    queries' ceiling (the code's ``c + w``, the paper's ``c + w - 1``)."""
    top = cc + ww if clamp is None else clamp
    ta, ub = a - cc * sp.floor(a / cc), b - cc * sp.floor(b / cc)
    gap = sp.floor(a / cc) - sp.floor(b / cc)
    return sp.Piecewise((ta - ub, gap < 1), (sp.Min(ta + cc, top) - ub, gap < 2), (sp.Min(2 * cc - 1, top) - ub, True))


class DualChunk(Kernel):
    r"""DCA's relative position of query ``i`` and key ``j`` (args ``i, j, c, w``: chunk length, local size);
    numerically :func:`numeric.dual_chunk.dual_chunk_relative_mp` with ``chunk_size = c + w``."""

    nargs = 4

    @classmethod
    def numeric(cls, a, b, cc, ww):
        a, b, cc, ww = (_int(x, s) for x, s in ((a, "i"), (b, "j"), (cc, "c"), (ww, "w")))
        return D.dual_chunk_relative_mp(a, b, chunk_size=cc + ww, local_size=ww)

    def doit(self, **hints):
        a, b, cc, ww = (x.doit(**hints) if isinstance(x, sp.Basic) else x for x in self.args)
        return dual_chunk_piecewise(a, b, cc, ww)

    def _latex(self, printer, exp=None):
        a, b = self.args[:2]
        out = r"\delta_{\mathrm{DCA}}\left(%s, %s\right)" % (printer._print(a), printer._print(b))
        return out if exp is None else r"%s^{%s}" % (out, exp)


def offsets_piecewise(nn=n, tt=t, uu=u, cc=c, ww=w):
    return sp.Piecewise(
        (tt - uu, nn < 1), (sp.Min(tt + cc, cc + ww) - uu, nn < 2), (sp.Min(2 * cc - 1, cc + ww) - uu, True)
    )


class DualChunkOffsets(Kernel):
    r"""DCA's relative position from the chunk gap ``n`` and the offsets ``t``, ``u`` (args ``n, t, u, c, w``;
    ``0 <= t, u < c``): numerically :func:`numeric.dual_chunk.dual_chunk_relative_mp` at query ``n c + t``, key
    ``u``."""

    nargs = 5

    @classmethod
    def numeric(cls, nn, tt, uu, cc, ww):
        nn, tt, uu, cc, ww = (_int(x, s) for x, s in ((nn, "n"), (tt, "t"), (uu, "u"), (cc, "c"), (ww, "w")))
        if not (0 <= tt < cc and 0 <= uu < cc):
            raise ValueError(f"the offsets must lie in [0, c - 1], got t={tt}, u={uu}, c={cc}")
        return D.dual_chunk_relative_mp(nn * cc + tt, uu, chunk_size=cc + ww, local_size=ww)

    def doit(self, **hints):
        args = [x.doit(**hints) if isinstance(x, sp.Basic) else x for x in self.args]
        return offsets_piecewise(*args)

    def _latex(self, printer, exp=None):
        out = r"\delta_{\mathrm{DCA}}^{%s}\left(%s, %s\right)" % tuple(printer._print(x) for x in self.args[:3])
        return out if exp is None else r"%s^{%s}" % (out, exp)


# ---- the definitions --------------------------------------------------------------------------------------------


def definition() -> Definition:
    return Definition(
        "dual-chunk-definition",
        "Dual chunk attention's relative position: intra-chunk, successive-chunk and inter-chunk indices",
        TOPIC,
        DCA_CODE,
        DualChunk(i, j, c, w),
        dual_chunk_piecewise(i, j),
        r"keys at $j \bmod c$; queries at $i \bmod c$ for keys in their chunk, at $\min(i \bmod c + c, c + w)$ for "
        r"the chunk before, at $\min(2c - 1, c + w)$ (`qc_t[chunk_len - 1]`) further back",
        "numeric.dual_chunk.dual_chunk_relative (NumPy int64; the exact twin in Python integers)",
        assumptions=(
            r"$c \ge 1$ the chunk length `chunk_size - local_size`, $w \ge 0$ the `local_size`; $0 \le j \le i$",
        ),
        domains={**_SIZES, "i": Domain("integer", 0, 400), "j": Domain("integer", 0, 400)},
        given=CAUSAL,
        notes=r"`chunk_size` is $S = c + w$. The paper's pretraining length plays the role of $S$, and it clamps the "
        r"successive and inter-chunk queries at one less, $c + w - 1$: the code does not compute that clamp.",
        wrong=dual_chunk_piecewise(i, j, clamp=c + w - 1),
    )


def offsets_definition() -> Definition:
    return Definition(
        "dual-chunk-offsets-definition",
        "Dual chunk attention's relative position from the chunk gap and the offsets in the chunks",
        TOPIC,
        DCA_CODE,
        DualChunkOffsets(n, t, u, c, w),
        offsets_piecewise(),
        r"query $i = n c + t$ (chunk gap $n$ over key $j = u$), $0 \le t, u < c$",
        "numeric.dual_chunk.dual_chunk_relative_mp (exact integers), at query n c + t and key u",
        assumptions=(
            r"$0 \le t, u \le c - 1$ the offsets, $n \ge 0$ the chunk gap; checked at $u \le 31 < 32 \le t$ (so "
            r"$n = 0$ is causal) and $c \ge 64$",
        ),
        domains={
            "c": Domain("integer", 64, 96),
            "w": Domain("integer", 0, 96),
            "n": Domain("integer", 0, 4),
            "t": Domain("integer", 32, 63),
            "u": Domain("integer", 0, 31),
        },
        given=(sp.Q.lt(sp.Max(t, u), c),),
        wrong=sp.Piecewise((t - u, n < 1), (t + c - u, n < 2), (sp.Min(2 * c - 1, c + w) - u, True)),
    )


# ---- proved in general, on the offsets ----------------------------------------------------------------------------


def intra_relative() -> Theorem:
    return Theorem(
        "dual-chunk-intra-relative",
        "Within a chunk dual chunk attention keeps the distance $i - j$",
        TOPIC,
        DCA_CODE,
        (Step(DualChunkOffsets(0, u + v, u, c, w), v, r"unfold: $n = 0$ takes the intra-chunk branch", ("unfold",)),),
        assumptions=(r"$i = a c + u + v$, $j = a c + u$ in one chunk: $u + v < c$, so $i - j = v$",),
        given=(sp.Q.lt(u + v, c),),
        domains={**_SIZES, "u": Domain("integer", 0, 30), "v": Domain("integer", 0, 30)},
        formula=sp.Eq(DualChunk(i, j, c, w), i - j, evaluate=False),
        wrong=v + 1,
    )


def successive_local() -> Theorem:
    return Theorem(
        "dual-chunk-successive-local",
        "For a key in the chunk before, the index is $i - j$ while the query's offset is at most $w$",
        TOPIC,
        DCA_CODE,
        (
            Step(
                DualChunkOffsets(1, t, u, c, t + v),
                c + t - u,
                r"unfold: $n = 1$ takes the successive branch; $\min(t + c, c + t + v) = c + t$",
                ("unfold",),
            ),
        ),  # fmt: skip
        assumptions=(r"query offset $t \le w = t + v$, key offset $u$, both below $c$: $i - j = c + t - u$",),
        given=(sp.Q.lt(sp.Max(t, u), c),),
        domains={
            "c": _SIZES["c"],
            "t": Domain("integer", 0, 30),
            "u": Domain("integer", 0, 30),
            "v": Domain("integer", 0, 30),
        },
        formula=sp.Eq(DualChunk(i, j, c, w), i - j, evaluate=False),
        wrong=t - u,
    )


def successive_clamped() -> Theorem:
    return Theorem(
        "dual-chunk-successive-clamped",
        "For a key in the chunk before, past the query offset $w$ the index stays at $c + w - u$",
        TOPIC,
        DCA_CODE,
        (
            Step(
                DualChunkOffsets(1, w + v, u, c, w),
                c + w - u,
                r"unfold: the successive branch; $\min(c + w + v, c + w) = c + w$",
                ("unfold",),
            ),
        ),  # fmt: skip
        assumptions=(r"query offset $t = w + v < c$, key offset $u < c$: $i - j = c + w + v - u$",),
        given=(sp.Q.lt(sp.Max(w + v, u), c),),
        domains={**_SIZES, "u": Domain("integer", 0, 63), "v": Domain("integer", 0, 30)},
        notes=r"So the index falls short of $i - j$ by $v = t - w$. The index $c + w + v - u = i - j$ (rejected) is "
        r"vLLM's unclamped table `qc_no_clamp`, used only to score keys for sparse attention.",
        wrong=c + w + v - u,
    )


def inter_constant() -> Theorem:
    return Theorem(
        "dual-chunk-inter-constant",
        "Two chunks back and further, the index depends on the key's offset alone",
        TOPIC,
        DCA_CODE,
        (
            Step(
                DualChunkOffsets(n + 2, t, u, c, w),
                sp.Min(2 * c - 1, c + w) - u,
                r"unfold: $n + 2 \ge 2$ takes the inter-chunk branch",
                ("unfold",),
            ),
        ),  # fmt: skip
        assumptions=(r"chunk gap $n + 2$ with $n \ge 0$; offsets $t, u < c$",),
        given=(sp.Q.lt(sp.Max(t, u), c),),
        domains={**_SIZES, **_OFFSETS},
        notes=r"Every query, wherever it sits, is placed at $\min(2c - 1, c + w)$ for these keys: the index is not "
        r"a function of $i - j$ ([[claim:dual-chunk-not-relative]]).",
        wrong=sp.Min(t + c, c + w) - u,
    )


# ---- computed over grids -----------------------------------------------------------------------------------------


def _paper_clamp(ii, jj, *, chunk_size, local_size):
    r"""The plausible slip: the paper's clamp at one less than ``chunk_size``."""
    ii, jj = np.asarray(ii), np.asarray(jj)
    S, cc = chunk_size, chunk_size - local_size
    gap, tt, uu = ii // cc - jj // cc, ii % cc, jj % cc
    return np.where(gap == 0, tt - uu, np.where(gap == 1, np.minimum(tt + cc, S - 1) - uu, min(2 * cc - 1, S - 1) - uu))


def _distance(ii, jj, *, chunk_size, local_size):
    return np.asarray(ii) - np.asarray(jj)


def _pairs(N: int):
    return np.tril_indices(N)


GRID = [(cc, ww) for cc in range(1, 9) for ww in range(0, 9)]


def _range(dps: int, fn=D.dual_chunk_relative):
    bounds, top_ok, at_most, regions_ok = True, True, True, True
    for cc, ww in GRID:
        S = cc + ww
        ii, jj = _pairs(3 * cc + ww + 2)
        d = fn(ii, jj, chunk_size=S, local_size=ww)
        region = D.dual_chunk_region(ii, jj, chunk_size=S, local_size=ww)
        top = min(2 * cc - 1, S)
        bounds &= bool(d.min() >= 0 and d.max() <= top)
        top_ok &= int(d.max()) == top
        at_most &= bool(np.all(d <= ii - jj))
        spans = [(int(d[region == r].min()), int(d[region == r].max())) for r in (0, 1, 2)]
        regions_ok &= spans == [(0, cc - 1), (1, top), (min(cc, ww + 1), top)]
    qwen = D.dual_chunk_parameters({"chunk_size": 262144, "local_size": 8192})
    qc = qwen.chunk_len
    q_top = int(fn([qc + 8192, 2 * qc], [0, 0], chunk_size=262144, local_size=8192).max())
    value = {
        r"every index in $[0, \min(2c - 1, S)]$, the top attained": bool(bounds and top_ok),
        r"intra $[0, c - 1]$, successive $[1, \min(2c-1, S)]$, inter $[\min(c, w + 1), \min(2c-1, S)]$": regions_ok,
        r"never more than $i - j$": at_most,
        r"Qwen2.5-1M ($S = 262144$, $w = 8192$): largest index": q_top,
    }
    return value, list(value.items())


def range_fact() -> Fact:
    return Fact(
        "dual-chunk-range",
        "Dual chunk attention's indices lie in $[0, \\min(2c - 1, S)]$ and never exceed $i - j$ (computed over a grid)",
        TOPIC,
        DCA_CODE,
        r"For every chunk length $c = 1, \dots, 8$ and local size $w = 0, \dots, 8$ ($S = c + w$), over every causal "
        r"pair below $3c + w + 2$: the index lies in $[0, \min(2c - 1, S)]$ and reaches the top; each region's "
        r"range; the index never exceeds $i - j$. With Qwen2.5-1M's config the largest index is $S = 262144$, its "
        r"`original_max_position_embeddings`: one past the trained positions $0, \dots, 262143$.",
        {
            r"every index in $[0, \min(2c - 1, S)]$, the top attained": True,
            r"intra $[0, c - 1]$, successive $[1, \min(2c-1, S)]$, inter $[\min(c, w + 1), \min(2c-1, S)]$": True,
            r"never more than $i - j$": True,
            r"Qwen2.5-1M ($S = 262144$, $w = 8192$): largest index": 262144,
        },
        _range,
        method="exact integer arithmetic (numeric.dual_chunk.dual_chunk_relative, NumPy int64)",
        wrong=lambda dps: _range(dps, fn=_paper_clamp),
        formula=sp.Le(DualChunk(i, j, c, w), sp.Min(2 * c - 1, c + w), evaluate=False),
        notes=r"The general argument: $0 \le t, u \le c - 1$; the successive query index is at least $c$ and at most "
        r"$\min(2c - 1, S)$, the inter one is $\min(2c - 1, S)$; the top is reached at $t \ge w$, $u = 0$ (or at "
        r"$t = c - 1$). The index is at most $i - j$: equal within a chunk, $\min(t + c, S) - u \le c + t - u$ for the "
        r"chunk before, and $\min(2c-1, S) - u < 2c - u \le i - j$ beyond. The paper's clamp, one lower, would keep "
        r"the top at $S - 1$.",
    )


def _local(dps: int, fn=D.dual_chunk_relative):
    exact_ok, first_ok = True, True
    for cc, ww in GRID:
        S = cc + ww
        ii, jj = _pairs(3 * cc + ww + 4)
        d = fn(ii, jj, chunk_size=S, local_size=ww)
        r = ii - jj
        K = min(ww + 1, cc)
        exact_ok &= bool(np.all(d[r <= K] == r[r <= K]))
        first_ok &= bool(np.any(d[r == K + 1] != K + 1))
    value = {
        r"equals $i - j$ at every pair with $i - j \le \min(w + 1, c)$": exact_ok,
        r"differs at some pair with $i - j = \min(w + 1, c) + 1$": first_ok,
    }
    samples = [
        (f"$S = {S}$, $w = {ww}$: $\\min(w + 1, c)$", min(ww + 1, S - ww)) for S, ww in ((3072, 512), (262144, 8192))
    ]
    return value, [*value.items(), *samples]


def local_window() -> Fact:
    return Fact(
        "dual-chunk-local-window",
        "Dual chunk attention keeps the distance exactly up to $\\min(w + 1, c)$ (computed over a grid)",
        TOPIC,
        DCA_CODE,
        r"For every $c = 1, \dots, 8$ and $w = 0, \dots, 8$, over every causal pair below $3c + w + 4$: the index "
        r"is $i - j$ whenever $i - j \le \min(w + 1, c)$, and not at every pair one further.",
        {
            r"equals $i - j$ at every pair with $i - j \le \min(w + 1, c)$": True,
            r"differs at some pair with $i - j = \min(w + 1, c) + 1$": True,
        },
        _local,
        method="exact integer arithmetic (numeric.dual_chunk.dual_chunk_relative, NumPy int64)",
        wrong=lambda dps: _local(dps, fn=_paper_clamp),
        formula=sp.Eq(DualChunk(i, j, c, w), i - j, evaluate=False),
        notes=r"The general argument: within a chunk the index is $i - j$ "
        r"([[claim:dual-chunk-intra-relative]]); for the chunk before it is $i - j = c + t - u$ while $t \le w$ "
        r"([[claim:dual-chunk-successive-local]]), and $t \ge w + 1$ needs $i - j \ge w + 2$; two chunks back "
        r"needs $i - j \ge c + 1$, where the index is below $i - j$. The paper's clamp would keep the distance only "
        r"up to $\min(w, c)$.",
    )


def _not_relative(dps: int, fn=D.dual_chunk_relative):
    S, ww = 8, 2
    ii, jj = _pairs(40)
    d = np.full((40, 40), -1, dtype=np.int64)
    d[ii, jj] = fn(ii, jj, chunk_size=S, local_size=ww)
    first = None
    for a in range(40):  # the smallest pair (i, j) whose index differs from that of (i - j, 0)
        row = d[a, 1 : a + 1] != d[a - np.arange(1, a + 1), 0]
        if row.any():
            b = int(np.argmax(row)) + 1
            first = [[a - b, 0, int(d[a - b, 0])], [a, b, int(d[a, b])]]
            break
    value = {r"$S = 8$, $w = 2$: $(i, j, \delta)$ with equal $i - j$": first}
    return value, list(value.items())


def not_relative() -> Fact:
    return Fact(
        "dual-chunk-not-relative",
        "Dual chunk attention's index is not a function of $i - j$ alone",
        TOPIC,
        DCA_CODE,
        r"With $S = 8$, $w = 2$ ($c = 6$): the smallest pair $(i, j)$ (by $i$, then $j$) whose index differs from "
        r"that of $(i - j, 0)$, the same distance.",
        {r"$S = 8$, $w = 2$: $(i, j, \delta)$ with equal $i - j$": [[8, 0, 8], [9, 1, 7]]},
        _not_relative,
        method="exact integer arithmetic (numeric.dual_chunk.dual_chunk_relative, NumPy int64)",
        wrong=lambda dps: _not_relative(dps, fn=_distance),
        notes=r"$(8, 0)$: query offset $t = 2 \le w$, index $8 = i - j$; $(9, 1)$: $t = 3 > w$, clamped to "
        r"$\min(3 + 6, 8) - 1 = 7$ ([[claim:dual-chunk-successive-clamped]]). Beyond the local window a RoPE score "
        r"under dual chunk attention is therefore not translation invariant.",
    )


def _monotone(dps: int, fn=D.dual_chunk_relative):
    in_i, in_region = True, True
    for cc, ww in GRID:
        S, N = cc + ww, 3 * cc + ww + 2
        ii, jj = _pairs(N)
        d = np.full((N, N), -1, dtype=np.int64)
        d[ii, jj] = fn(ii, jj, chunk_size=S, local_size=ww)
        reg = np.full((N, N), -1, dtype=np.int64)
        reg[ii, jj] = D.dual_chunk_region(ii, jj, chunk_size=S, local_size=ww)
        lower = np.tril(np.ones((N, N), dtype=bool))
        in_i &= bool(np.all((d[1:, :] >= d[:-1, :])[lower[:-1, :]]))  # for each key, the query moving on
        keys = np.arange(N)
        one = (keys[:-1] // cc == keys[1:] // cc)[None, :]  # keys b - 1 and b in one chunk
        same = lower[:, 1:] & one & (reg[:, :-1] == reg[:, 1:])
        in_region &= bool(np.all((d[:, :-1] - d[:, 1:])[same] == 1))
    S, ww, N = 8, 2, 40
    ii, jj = _pairs(N)
    d = np.full((N, N), -1, dtype=np.int64)
    d[ii, jj] = fn(ii, jj, chunk_size=S, local_size=ww)
    drops = [(a, b) for a in range(N) for b in range(1, a + 1) if d[a, b - 1] < d[a, b]]
    first = None if not drops else [drops[0][0], drops[0][1], int(d[drops[0]]), int(d[drops[0][0], drops[0][1] - 1])]
    value = {
        "non-decreasing as the query moves on": in_i,
        "within a key chunk, one more per key step back": in_region,
        "non-decreasing as the key moves back": not drops,
        r"$S = 8$, $w = 2$: first drop $(i, j, \delta(i, j), \delta(i, j - 1))$": first,
    }
    return value, list(value.items())


def monotone() -> Fact:
    return Fact(
        "dual-chunk-monotone",
        "Dual chunk attention's index grows as the query moves on, but drops at chunk edges as the key moves back "
        "(computed over a grid)",
        TOPIC,
        DCA_CODE,
        r"For every $c = 1, \dots, 8$, $w = 0, \dots, 8$, over every causal pair below $3c + w + 2$: for each key the "
        r"index never decreases as the query moves on; for each query, between two keys of one chunk (and one "
        r"region) it grows by one per step back. With $S = 8$, $w = 2$ the first pair where moving the key back "
        r"lowers the index.",
        {
            "non-decreasing as the query moves on": True,
            "within a key chunk, one more per key step back": True,
            "non-decreasing as the key moves back": False,
            r"$S = 8$, $w = 2$: first drop $(i, j, \delta(i, j), \delta(i, j - 1))$": [10, 6, 4, 3],
        },
        _monotone,
        method="exact integer arithmetic (numeric.dual_chunk.dual_chunk_relative, NumPy int64)",
        wrong=lambda dps: _monotone(dps, fn=_distance),
        notes=r"The general argument: within a region the key index $u$ falls by one per step back; for a fixed "
        r"key the query offset $t$ grows, the successive index $\min(t + c, S)$ with it, and at the chunk edge the "
        r"index moves from $c - 1 - u$ to $c - u$ and from $\min(2c - 1, S) - u$ to itself. Moving the key from "
        r"the query's chunk into the one before takes the index from $t$ to $\min(t + 1, w + 1)$, a drop once "
        r"$t \ge w + 2$; two keys in different chunks of the inter region jump from offset 0 to $c - 1$.",
    )


#: The rules the length claim uses: ChunkLlama's defaults for a pretraining length L0 (chunk_size 3 L0 // 4,
#: local_window L0 // 8) and Qwen2.5-1M's proportions (chunk_size L0, local_size L0 // 32).
def length_settings(L0: int) -> dict:
    return {"ChunkLlama": (3 * L0 // 4, L0 // 8), "Qwen2.5-1M": (L0, L0 // 32)}


def dual_chunk_lengths(L0: int, L: int, fn=D.dual_chunk_relative) -> dict:
    r"""The largest index of a length-``L`` input (the last query against every key: the largest of all pairs,
    [[claim:dual-chunk-monotone]]) and how many of its indices reach ``L0``, with ChunkLlama's defaults for a
    pretraining length ``L0`` and with Qwen2.5-1M's proportions (``chunk_size = L0``)."""
    if not (isinstance(L0, int) and isinstance(L, int) and 32 <= L0 < L):
        raise ValueError(f"L0 and L must be integers with 32 <= L0 < L, got L0={L0!r}, L={L!r}")
    out = {}
    for name, (S, ww) in length_settings(L0).items():
        d = fn(np.full(L, L - 1), np.arange(L), chunk_size=S, local_size=ww)
        out[f"{name} ($S = {S}$, $w = {ww}$): largest index"] = int(d.max())
        out[f"{name} ($S = {S}$, $w = {ww}$): indices $\\ge L_0$"] = int(np.sum(d >= L0))
    return out


def _lengths(dps: int, fn=D.dual_chunk_relative):
    value = dual_chunk_lengths(tables.TRAINED, tables.TARGET, fn=fn)
    return value, list(value.items())


def lengths() -> Fact:
    return Fact(
        "dual-chunk-lengths",
        "Trained on 1000 positions, a 2000-token input: with the chunk size equal to the trained length two indices "
        "reach 1000",
        TOPIC,
        DCA_CODE,
        r"The last query of a 2000-token input against every key, with ChunkLlama's defaults for $L_0 = 1000$ "
        r"($S = 750$, $w = 125$) and with Qwen2.5-1M's proportions ($S = L_0 = 1000$, $w = 31$): the largest index "
        r"and how many indices reach $L_0$.",
        {
            r"ChunkLlama ($S = 750$, $w = 125$): largest index": 750,
            r"ChunkLlama ($S = 750$, $w = 125$): indices $\ge L_0$": 0,
            r"Qwen2.5-1M ($S = 1000$, $w = 31$): largest index": 1000,
            r"Qwen2.5-1M ($S = 1000$, $w = 31$): indices $\ge L_0$": 2,
        },
        _lengths,
        method="exact integer arithmetic (numeric.dual_chunk.dual_chunk_relative, NumPy int64)",
        wrong=lambda dps: _lengths(dps, fn=_paper_clamp),
        notes=r"With $S = 1000$, $w = 31$ ($c = 969$) the last query sits at offset $t = 61 \ge w$ of its chunk: the "
        r"keys at offset 0 of the chunk before (position 969, successive query $\min(t + c, S) = S$) and two chunks "
        r"back (position 0, inter query $\min(2c - 1, S) = S$) both get index 1000 ([[claim:dual-chunk-range]]); "
        r"the paper's clamp would stop at 999.",
    )


LENGTHS = {"dual-chunk-lengths": dual_chunk_lengths}


#: The statements of the computed facts (display only; a definition's or theorem's is its own sides).
_delta = sp.Function(r"\delta")
_ii, _jj = sp.symbols("i j", integer=True)
STATEMENTS = {
    "dual-chunk-not-relative": sp.Ne(_delta(8, 0), _delta(9, 1), evaluate=False),
    "dual-chunk-monotone": sp.Le(_delta(_ii, _jj), _delta(_ii + 1, _jj), evaluate=False),
    "dual-chunk-lengths": sp.Le(_delta(1999, _jj), 1000, evaluate=False),
}


def claims() -> list:
    made: list = [
        definition(),
        offsets_definition(),
        intra_relative(),
        successive_local(),
        successive_clamped(),
        inter_constant(),
        range_fact(),
        local_window(),
        not_relative(),
        monotone(),
        lengths(),
    ]
    return [tables.stated(cl, STATEMENTS.get(cl.id)) for cl in made]


# ---- the rules table: RoPE with dual chunk attention (symbolic.tables) ------------------------------------------


def _reach(v, L0: int, L: int) -> str:
    key = next(k for k in v if k.startswith("Qwen") and k.endswith("largest index"))
    many = next(k for k in v if k.startswith("Qwen") and "L_0" in k)
    return f"largest index {v[key]} with chunk_size $= L_0$, {v[many]} $\\ge L_0$"


RULES_ROWS = (
    tables.Row(
        177,
        "RoPE + dual chunk attention",
        tables.phi(
            sp.MatMul(
                tables.vec("q").T,
                sp.MatrixSymbol(r"R_{\delta_{\mathrm{DCA}}(m, n)}", tables.d, tables.d),
                tables.vec("k"),
            )
        ),
        (
            tables.Cell(
                "dual-chunk-monotone",
                read=tables.key("non-decreasing as the key moves back"),
                note="the index drops at chunk edges",
            ),
            tables.Cell(
                "dual-chunk-not-relative",
                read=lambda v: v[r"$S = 8$, $w = 2$: $(i, j, \delta)$ with equal $i - j$"] is None,
                note="offsets in the chunks, beyond the local window",
            ),
            rotary.SYMMETRY,
        ),
        tables.Length("dual-chunk-lengths", _reach),
    ),
)
