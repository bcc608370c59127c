r"""Position remapping at inference time (context extension without retraining): Self-Extend's grouped positions
(Jin et al. 2024, arXiv 2401.01325) and ReRoPE's clamped relative position (Su 2023).

Convention: query ``i``, key ``j``, ``0 <= j <= i`` (causal), ``r = i - j``; the remapped distance is what RoPE
then rotates by. Self-Extend follows the reference ``self_extend_patch`` (datamllab/LongLM): ``group_size_1`` is the
group size ``G``, ``group_size_2`` the neighbour window ``W``; grouped queries sit at ``i // G + W - W // G`` and
grouped keys at ``j // G``, and neighbour attention is used where ``r < W``. The shift ``W - W // G`` is the one of
the reference's Llama decoding path; its prefill paths write ``W - W / G`` (true division), the same number exactly
when ``G`` divides ``W`` (``remap-self-extend-true-division``).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp
from posproof.numeric import remap
from posproof.symbolic import tables
from posproof.symbolic.engine.core import Definition, Domain, Fact, Step, Theorem
from posproof.symbolic.engine.kernel import Kernel
from posproof.symbolic.rope import rotary

TOPIC = "remapping"
SELF_EXTEND = "Jin et al. 2024, 'LLM Maybe LongLM: Self-Extend LLM Context Window Without Tuning'"
SELF_EXTEND_CODE = SELF_EXTEND + " and its reference self_extend_patch"
REROPE = "Su 2023, 'ReRoPE for Infinite Extrapolation?' and its reference code"

i, j = sp.symbols("i j", integer=True, nonnegative=True)  # query and key positions
W = sp.Symbol("W", integer=True, positive=True)  # Self-Extend's neighbour window (group_size_2)
G = sp.Symbol("G", integer=True, positive=True)  # Self-Extend's group size (group_size_1)
w = sp.Symbol("w", integer=True, positive=True)  # ReRoPE's window
k = sp.Symbol("k", positive=True)  # leaky ReRoPE's stretch (slope 1/k beyond the window)
u = sp.Symbol("u", integer=True, nonnegative=True)  # distance from the window edge
v = sp.Symbol("v", integer=True, positive=True)  # distance past the window edge
t = sp.Symbol("t", integer=True, nonnegative=True)  # a shift of both positions
c = sp.Symbol("c", nonnegative=True)  # k - 1 for leaky ReRoPE
CAUSAL = (sp.Q.ge(i, j),)
_SE_DOMAINS = {"W": Domain("integer", 1, 4096, log=True), "G": Domain("integer", 1, 64, log=True)}
_K_DOMAIN = {"k": Domain("real", 1, 64, log=True)}


def _int(x, name: str) -> int:
    if not mpmath.isint(x):
        raise ValueError(f"{name} must be an integer, got {x}")
    return int(x)


class SelfExtend(Kernel):
    r"""Self-Extend's relative position of query ``i`` and key ``j`` (args ``i, j, W, G``): ``i - j`` inside the
    window, ``⌊i/G⌋ - ⌊j/G⌋ + W - ⌊W/G⌋`` beyond it; numerically :func:`numeric.remap.self_extend_relative`."""

    nargs = 4

    @classmethod
    def numeric(cls, a, b, ww, gg):
        ints = [_int(x, n) for x, n in ((a, "i"), (b, "j"), (ww, "W"), (gg, "G"))]
        return int(remap.self_extend_relative([ints[0]], [ints[1]], window=ints[2], group=ints[3])[0])

    def doit(self, **hints):
        a, b, ww, gg = (x.doit(**hints) if isinstance(x, sp.Basic) else x for x in self.args)
        return self_extend_piecewise(a, b, ww, gg)

    def _latex(self, printer, exp=None):
        a, b = self.args[:2]
        out = r"d_{\mathrm{SE}}\left(%s, %s\right)" % (printer._print(a), printer._print(b))
        return out if exp is None else r"%s^{%s}" % (out, exp)


def self_extend_piecewise(a, b, ww=W, gg=G, shift=None):
    shift = ww - sp.floor(ww / gg) if shift is None else shift
    return sp.Piecewise((a - b, a - b < ww), (sp.floor(a / gg) - sp.floor(b / gg) + shift, True))


class ReRoPE(Kernel):
    r"""ReRoPE's relative position ``min(i - j, w)`` (args ``i, j, w``); numerically
    :func:`numeric.remap.rerope_relative`."""

    nargs = 3

    @classmethod
    def numeric(cls, a, b, ww):
        ints = [_int(x, n) for x, n in ((a, "i"), (b, "j"), (ww, "w"))]
        return int(remap.rerope_relative([ints[0]], [ints[1]], window=ints[2])[0])

    def doit(self, **hints):
        a, b, ww = (x.doit(**hints) if isinstance(x, sp.Basic) else x for x in self.args)
        return sp.Min(a - b, ww)

    def _latex(self, printer, exp=None):
        a, b = self.args[:2]
        out = r"d_{\mathrm{Re}}\left(%s, %s\right)" % (printer._print(a), printer._print(b))
        return out if exp is None else r"%s^{%s}" % (out, exp)


class LeakyReRoPE(Kernel):
    r"""Leaky ReRoPE's relative position (args ``i, j, w, k``): ``i - j`` up to ``w``, ``w + (i - j - w)/k``
    beyond; numerically :func:`numeric.remap.leaky_rerope_relative_mp` at the working precision."""

    nargs = 4

    @classmethod
    def numeric(cls, a, b, ww, kk):
        ints = [_int(x, n) for x, n in ((a, "i"), (b, "j"), (ww, "w"))]
        return remap.leaky_rerope_relative_mp(ints[0], ints[1], window=ints[2], k=kk, dps=mpmath.mp.dps)

    def doit(self, **hints):
        a, b, ww, kk = (x.doit(**hints) if isinstance(x, sp.Basic) else x for x in self.args)
        return leaky_piecewise(a, b, ww, kk)

    def _latex(self, printer, exp=None):
        a, b = self.args[:2]
        out = r"d_{\mathrm{leaky}}\left(%s, %s\right)" % (printer._print(a), printer._print(b))
        return out if exp is None else r"%s^{%s}" % (out, exp)


def leaky_piecewise(a, b, ww=w, kk=k):
    return sp.Piecewise((a - b, a - b <= ww), (ww + (a - b - ww) / kk, True))


# ---- Self-Extend ------------------------------------------------------------------------------------------------


def self_extend_definition() -> Definition:
    return Definition(
        "remap-self-extend-definition",
        "Self-Extend's relative position: the distance inside the window, grouped positions beyond it",
        TOPIC,
        SELF_EXTEND_CODE,
        SelfExtend(i, j, W, G),
        self_extend_piecewise(i, j),
        r"neighbour attention where $i - j < W$; grouped attention puts the query at "
        r"$\lfloor i/G \rfloor + W - \lfloor W/G \rfloor$ and the key at $\lfloor j/G \rfloor$",
        "numeric.remap.self_extend_relative (NumPy int64)",
        assumptions=(r"$W \ge 1$ the neighbour window, $G \ge 1$ the group size; $0 \le j \le i$",),
        domains=_SE_DOMAINS,
        given=CAUSAL,
        notes=r"The reference's `group_size_1` is $G$ and `group_size_2` is $W$. Without the shift "
        r"$W - \lfloor W/G \rfloor$ the grouped distances would restart near 0 at the window's edge.",
        wrong=self_extend_piecewise(i, j, shift=sp.Integer(0)),
    )


def self_extend_neighbour() -> Theorem:
    lhs = SelfExtend(j + W - v, j, W, G)
    return Theorem(
        "remap-self-extend-neighbour",
        "Inside the window Self-Extend keeps the distance $i - j$",
        TOPIC,
        SELF_EXTEND_CODE,
        (Step(lhs, W - v, r"unfold: $i - j = W - v < W$ takes the neighbour branch", ("unfold",)),),
        assumptions=(r"$i = j + W - v$ with $1 \le v \le W$: the distance $W - v$ is below the window",),
        given=(sp.Q.le(v, W),),
        domains=_SE_DOMAINS,
        formula=sp.Eq(SelfExtend(i, j, W, G), i - j, evaluate=False),
        wrong=W - v + 1,
    )


def _largest(wd: int, g: int, length: int, fn=remap.self_extend_relative) -> np.ndarray:
    r"""``M(L)`` for ``L = 1 .. length``: the largest remapped distance over ``0 <= j <= i < L``."""
    ii, jj = np.meshgrid(np.arange(length), np.arange(length), indexing="ij")
    ii, jj = ii[ii >= jj], jj[ii >= jj]
    d = np.zeros((length, length), dtype=np.int64)
    d[ii, jj] = fn(ii, jj, window=wd, group=g)
    return np.maximum.accumulate(d.max(axis=1))


def _bound_formula(wd: int, g: int, n: int) -> int:
    return n - 1 if n <= wd else (n - 1) // g + wd - wd // g


def _longest(wd: int, g: int, L0: int) -> int:
    return g * (L0 - wd + wd // g)


def _quoted_longest(wd: int, g: int, L0: int) -> int:
    return (L0 - wd) * g + wd


def _self_extend_bound(dps: int, longest=_longest):
    grid_ok, longest_ok, overshoot_ok = True, True, True
    for wd in range(1, 11):
        for g in range(1, 6):
            big = 4 * g * (wd + 4)
            m = _largest(wd, g, big)
            grid_ok &= all(int(m[n - 1]) == _bound_formula(wd, g, n) for n in range(1, big + 1))
            for L0 in range(wd + 1, wd + 4):
                fits = [n for n in range(1, big + 1) if m[n - 1] <= L0 - 1]
                longest_ok &= max(fits) == longest(wd, g, L0) and max(fits) < big
                overshoot_ok &= _quoted_longest(wd, g, L0) - max(fits) == wd % g
    value = {
        r"largest distance for $L > W$ tokens is $\lfloor (L-1)/G \rfloor + W - \lfloor W/G \rfloor$": grid_ok,
        r"longest length within $L_0$ is $G (L_0 - W + \lfloor W/G \rfloor)$": longest_ok,
        r"$(L_0 - W) G + W$ overshoots it by $W \bmod G$": overshoot_ok,
    }
    samples = [(f"$W = {a}$, $G = {b}$, $L_0 = {c}$: longest length", longest(a, b, c))
               for a, b, c in ((4, 2, 16), (6, 4, 16), (512, 8, 4096), (1000, 16, 4096))]  # fmt: skip
    return value, [*value.items(), *samples]


def self_extend_bound() -> Fact:
    return Fact(
        "remap-self-extend-bound",
        "Self-Extend's largest distance and the longest input it keeps within the trained length "
        "(computed over a grid)",
        TOPIC,
        SELF_EXTEND,
        r"For every window $W = 1, \dots, 10$ and group size $G = 1, \dots, 5$, and every length $L$ up to "
        r"$4G(W + 4)$: the largest remapped distance over $0 \le j \le i < L$ is $L - 1$ for $L \le W$ and "
        r"$\lfloor (L-1)/G \rfloor + W - \lfloor W/G \rfloor$ beyond; for a trained length $L_0 = W + 1, \dots, "
        r"W + 3$ the longest $L$ whose distances all stay below $L_0$ is $G (L_0 - W + \lfloor W/G \rfloor)$.",
        {
            r"largest distance for $L > W$ tokens is $\lfloor (L-1)/G \rfloor + W - \lfloor W/G \rfloor$": True,
            r"longest length within $L_0$ is $G (L_0 - W + \lfloor W/G \rfloor)$": True,
            r"$(L_0 - W) G + W$ overshoots it by $W \bmod G$": True,
        },
        _self_extend_bound,
        method="exact integer arithmetic (numeric.remap.self_extend_relative, NumPy int64)",
        wrong=lambda dps: _self_extend_bound(dps, longest=_quoted_longest),
        definitions=(self_extend_definition(),),
        formula=sp.Eq(
            sp.Function("L_max")(W, G),
            G * (sp.Symbol("L_0", integer=True, positive=True) - W + sp.floor(W / G)),
            evaluate=False,
        ),
        notes=r"The general argument: beyond the window the distance is largest at $j = 0$, $i = L - 1$ (floors are "
        r"non-decreasing), and $\lfloor (L-1)/G \rfloor \le K$ exactly when $L \le G (K + 1)$. The grid checks the "
        r"integer floor steps, which are not proved here for every $W$ and $G$. When $G$ divides $W$ the longest "
        r"length is $(L_0 - W) G + W$.",
    )


def _grouped_distance(ii, jj, *, window, group):
    r"""The plausible slip: grouping the distance instead of the positions (a function of ``i - j``)."""
    r = np.asarray(ii) - np.asarray(jj)
    return np.where(r < window, r, r // group + window - window // group)


def _causal_matrix(n: int, wd: int, g: int, fn) -> np.ndarray:
    r"""``D[a, b]``: the remapped distance of query ``a`` and key ``b`` for ``0 <= b <= a < n``; -1 above."""
    ii, jj = np.tril_indices(n)
    d = np.full((n, n), -1, dtype=np.int64)
    d[ii, jj] = fn(ii, jj, window=wd, group=g)
    return d


def _not_relative(dps: int, fn=remap.self_extend_relative):
    inside = True
    ii, jj = np.meshgrid(np.arange(40), np.arange(40), indexing="ij")
    keep = (ii >= jj) & (ii - jj < 8)
    for wd in range(1, 9):
        for g in range(1, 5):
            d = _causal_matrix(40, wd, g, fn)
            near = keep & (ii - jj < wd)
            inside &= bool(np.all(d[near] == (ii - jj)[near]))
    d = _causal_matrix(64, 4, 2, fn)
    first = None
    for a in range(64):  # the smallest pair (i, j) whose distance differs from that of (i - j, 0)
        row = d[a, 1 : a + 1] != d[a - np.arange(1, a + 1), 0]
        if row.any():
            b = int(np.argmax(row)) + 1
            first = [[a - b, 0, int(d[a - b, 0])], [a, b, int(d[a, b])]]
            break
    value = {r"inside the window it is $i - j$": inside, r"$W = 4$, $G = 2$: $(i, j, d)$ with equal $i - j$": first}
    return value, list(value.items())


def self_extend_not_relative() -> Fact:
    return Fact(
        "remap-self-extend-not-relative",
        "Self-Extend's distance depends on $i - j$ alone inside the window, but not beyond it",
        TOPIC,
        SELF_EXTEND,
        r"For $W = 1, \dots, 8$, $G = 1, \dots, 4$ and positions below 40: every pair with $i - j < W$ gets "
        r"$i - j$. With $W = 4$, $G = 2$, the first pair $(i, j)$ whose distance differs from that of $(i - j, 0)$.",
        {
            r"inside the window it is $i - j$": True,
            r"$W = 4$, $G = 2$: $(i, j, d)$ with equal $i - j$": [[5, 0, 4], [6, 1, 5]],
        },  # fmt: skip
        _not_relative,
        method="exact integer arithmetic (numeric.remap.self_extend_relative, NumPy int64)",
        wrong=lambda dps: _not_relative(dps, fn=_grouped_distance),
        notes=r"Grouping the distance, $\lfloor (i - j)/G \rfloor$, would be a function of $i - j$; grouping the "
        r"positions is not: $\lfloor i/G \rfloor - \lfloor j/G \rfloor$ depends on where the pair sits in its "
        r"groups. Beyond the window a RoPE score under Self-Extend is therefore not translation invariant.",
    )


def _monotone(dps: int, fn=remap.self_extend_relative):
    in_r, in_i, jump, at_most = True, True, True, True
    n = 48
    ii, jj = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    lower = ii >= jj
    for wd in range(1, 11):
        for g in range(1, 7):
            d = _causal_matrix(n, wd, g, fn)
            # for each query a the key moves back: d[a, b - 1] >= d[a, b] for 1 <= b <= a
            in_r &= bool(np.all((d[:, :-1] >= d[:, 1:])[lower[:, 1:]]))
            # for each key b the query moves on: d[a + 1, b] >= d[a, b] for a >= b
            in_i &= bool(np.all((d[1:, :] >= d[:-1, :])[lower[:-1, :]]))
            edge = np.arange(wd, n)
            jump &= bool(np.all(d[edge, edge - wd] >= wd))
            exceeds = bool(np.any((d > ii - jj) & lower))
            at_most &= exceeds == (wd % g != 0)
    value = {
        r"non-decreasing in $i - j$ for each query": in_r,
        r"non-decreasing in $i$ for each key": in_i,
        r"at $i - j = W$ it is at least $W$": jump,
        r"at most $i - j$ everywhere exactly when $G$ divides $W$": at_most,
    }
    return value, [*value.items(), (r"$W = 2$, $G = 4$: distance of $(4, 2)$", int(fn([4], [2], window=2, group=4)[0]))]


def _unshifted(ii, jj, *, window, group):
    r = np.asarray(ii) - np.asarray(jj)
    return np.where(r < window, r, np.asarray(ii) // group - np.asarray(jj) // group)


def self_extend_monotone() -> Fact:
    return Fact(
        "remap-self-extend-monotone",
        "Self-Extend's distance is non-decreasing in $i - j$ for each query (computed over a grid)",
        TOPIC,
        SELF_EXTEND,
        r"For $W = 1, \dots, 10$, $G = 1, \dots, 6$ and positions below 48: for each query the distance does not "
        r"decrease as the key moves back, for each key it does not decrease as the query moves on, at the window's "
        r"edge it jumps from $W - 1$ to at least $W$, and it exceeds $i - j$ somewhere exactly when $G$ does not "
        r"divide $W$.",
        {
            r"non-decreasing in $i - j$ for each query": True,
            r"non-decreasing in $i$ for each key": True,
            r"at $i - j = W$ it is at least $W$": True,
            r"at most $i - j$ everywhere exactly when $G$ divides $W$": True,
        },
        _monotone,
        method="exact integer arithmetic (numeric.remap.self_extend_relative, NumPy int64)",
        wrong=lambda dps: _monotone(dps, fn=_unshifted),
        notes=r"The general argument: $\lfloor j/G \rfloor$ does not increase as $j$ moves back, and "
        r"$\lfloor i/G \rfloor - \lfloor (i - W)/G \rfloor \ge \lfloor W/G \rfloor$, so the grouped distance at "
        r"$i - j = W$ is at least $W$; without the shift $W - \lfloor W/G \rfloor$ it would fall at the edge. "
        r"With $W = 2$, $G = 4$ the pair $(4, 2)$ gets 3.",
    )


def _true_division(dps: int, scaled_shift=lambda wd, g: wd):
    r"""The reference's prefill shift ``W - W / G`` against the kernel's ``W - W // G``, exactly: ``G`` times the
    kernel's distance minus ``G`` times the prefill one (integers), on every causal pair past the window below
    ``W + 2G + 2``. ``scaled_shift(W, G)`` is ``G`` times the subtracted ``W / G``."""
    agree_iff, constant = True, True
    for wd in range(1, 41):
        for g in range(1, 13):
            n = wd + 2 * g + 2
            ii, jj = np.tril_indices(n)
            far = ii - jj >= wd
            ii, jj = ii[far], jj[far]
            kernel = remap.self_extend_relative(ii, jj, window=wd, group=g)
            prefill_g = g * (ii // g - jj // g + wd) - scaled_shift(wd, g)  # G times the prefill distance
            gaps = set((g * kernel - prefill_g).tolist())  # G times the gap
            agree_iff &= (gaps == {0}) == (wd % g == 0)
            constant &= gaps == {wd % g}
    prefill = Fraction(4 * (6 // 4 + 6) - scaled_shift(6, 4), 4)
    value = {
        r"the prefill distance equals the kernel's exactly when $G$ divides $W$": agree_iff,
        r"beyond the window it is lower by $(W \bmod G)/G$ at every pair": constant,
        r"$W = 6$, $G = 4$, pair $(6, 0)$: prefill distance": str(prefill),
    }
    return value, [*value.items(), (r"$W = 6$, $G = 4$, pair $(6, 0)$: the kernel's distance", 6)]


def self_extend_true_division() -> Fact:
    return Fact(
        "remap-self-extend-true-division",
        "The reference's prefill shift $W - W/G$ matches $W - \\lfloor W/G \\rfloor$ only when $G$ divides $W$ "
        "(computed over a grid)",
        TOPIC,
        SELF_EXTEND_CODE,
        r"For $W = 1, \dots, 40$ and $G = 1, \dots, 12$, on every causal pair with $W \le i - j$ and "
        r"$i < W + 2G + 2$, in exact rationals: the grouped distance with the reference's prefill shift "
        r"$W - W/G$ against the kernel's, with $W - \lfloor W/G \rfloor$.",
        {
            r"the prefill distance equals the kernel's exactly when $G$ divides $W$": True,
            r"beyond the window it is lower by $(W \bmod G)/G$ at every pair": True,
            r"$W = 6$, $G = 4$, pair $(6, 0)$: prefill distance": "11/2",
        },
        _true_division,
        method="exact integer arithmetic, distances times $G$ (numeric.remap.self_extend_relative, NumPy int64)",
        wrong=lambda dps: _true_division(dps, scaled_shift=lambda wd, g: g * (wd // g)),
        notes=r"The reference's defaults ($W = 1024$, $G = 8$) have $G \mid W$, where the two shifts agree. With "
        r"$G \nmid W$ the prefill positions are not integers and differ from the decoding path's by "
        r"$(W \bmod G)/G$ for every key beyond the window; the audit names this shift "
        r"(`self-extend-shift-true-division`).",
    )


# ---- ReRoPE -----------------------------------------------------------------------------------------------------


def rerope_definition() -> Definition:
    return Definition(
        "remap-rerope-definition",
        "ReRoPE's relative position: the distance, clamped at the window",
        TOPIC,
        REROPE,
        ReRoPE(i, j, w),
        sp.Min(i - j, w),
        r"positions $0, 1, \dots, w - 1$ inside the window, then $w$ for every key further back",
        "numeric.remap.rerope_relative (NumPy int64)",
        assumptions=(r"$w \ge 1$ the window; $0 \le j \le i$",),
        domains={"w": Domain("integer", 1, 4096, log=True)},
        given=CAUSAL,
        wrong=sp.Min(i - j, w - 1),
    )


def rerope_inside() -> Theorem:
    return Theorem(
        "remap-rerope-inside-window",
        "Up to the window ReRoPE keeps the distance $i - j$",
        TOPIC,
        REROPE,
        (Step(ReRoPE(j + w - u, j, w), w - u, r"unfold: $\min(w - u, w) = w - u$ for $u \ge 0$", ("unfold",)),),
        assumptions=(r"$i - j = w - u$ with $0 \le u \le w$",),
        given=(sp.Q.le(u, w),),
        formula=sp.Eq(ReRoPE(i, j, w), i - j, evaluate=False),
        wrong=w - u - 1,
    )


def rerope_beyond() -> Theorem:
    return Theorem(
        "remap-rerope-beyond-window",
        "Past the window ReRoPE's distance stays at $w$",
        TOPIC,
        REROPE,
        (Step(ReRoPE(j + w + u, j, w), w, r"unfold: $\min(w + u, w) = w$ for $u \ge 0$", ("unfold",)),),
        assumptions=(r"$i - j = w + u$ with $u \ge 0$",),
        formula=sp.Eq(ReRoPE(i, j, w), w, evaluate=False),
        notes=r"With [[claim:remap-rerope-inside-window]]: the distance lies in $[0, w]$ and does not decrease "
        r"with $i - j$, for every window $w$ and every input length.",
        wrong=w + u,
    )


def rerope_translation() -> Theorem:
    return Theorem(
        "remap-rerope-translation-invariant",
        "ReRoPE's distance is unchanged when both positions move by $t$",
        TOPIC,
        REROPE,
        (Step(ReRoPE(i + t, j + t, w), ReRoPE(i, j, w), "unfold; the shift cancels", ("unfold", "expand")),),
        assumptions=(r"$0 \le j \le i$, $t \ge 0$",),
        given=CAUSAL,
        wrong=ReRoPE(i + t, j, w),
    )


def leaky_definition() -> Definition:
    return Definition(
        "remap-leaky-rerope-definition",
        "Leaky ReRoPE's relative position: the distance up to the window, slope $1/k$ beyond it",
        TOPIC,
        REROPE,
        LeakyReRoPE(i, j, w, k),
        leaky_piecewise(i, j),
        r"the distance up to $w$, then $w + (i - j - w)/k$",
        "numeric.remap.leaky_rerope_relative_mp (mpmath at the working precision)",
        assumptions=(r"$w \ge 1$ the window, $k \ge 1$; $0 \le j \le i$",),
        domains={"w": Domain("integer", 1, 4096, log=True), **_K_DOMAIN},
        given=CAUSAL,
        wrong=sp.Piecewise((i - j, i - j <= w), ((i - j) / k, True)),
    )


def leaky_inside() -> Theorem:
    return Theorem(
        "remap-leaky-rerope-inside-window",
        "Up to the window leaky ReRoPE keeps the distance $i - j$",
        TOPIC,
        REROPE,
        (Step(LeakyReRoPE(j + w - u, j, w, k), w - u, r"unfold: $w - u \le w$ takes the first branch", ("unfold",)),),
        assumptions=(r"$i - j = w - u$ with $0 \le u \le w$; $k \ge 1$",),
        given=(sp.Q.le(u, w),),
        domains=_K_DOMAIN,
        formula=sp.Eq(LeakyReRoPE(i, j, w, k), i - j, evaluate=False),
        wrong=w - u + 1 / k,
    )


def leaky_beyond() -> Theorem:
    return Theorem(
        "remap-leaky-rerope-beyond-window",
        "Past the window leaky ReRoPE's distance is $w + v/k$",
        TOPIC,
        REROPE,
        (
            Step(
                LeakyReRoPE(j + w + v, j, w, k), w + v / k, r"unfold: $w + v > w$ takes the second branch", ("unfold",)
            ),
        ),  # fmt: skip
        assumptions=(r"$i - j = w + v$ with $v \ge 1$; $k \ge 1$",),
        given=(sp.Q.ge(k, 1),),
        domains=_K_DOMAIN,
        formula=sp.Eq(LeakyReRoPE(i, j, w, k), w + (i - j - w) / k, evaluate=False),
        wrong=w + v * k,
    )


def leaky_slope() -> Theorem:
    step = LeakyReRoPE(j + w + v + 1, j, w, k) - LeakyReRoPE(j + w + v, j, w, k)
    return Theorem(
        "remap-leaky-rerope-slope",
        "Past the window each further token adds $1/k$ to leaky ReRoPE's distance",
        TOPIC,
        REROPE,
        (Step(step, 1 / k, "unfold both: the second branch twice, the window cancels", ("unfold", "expand")),),
        assumptions=(r"$i - j = w + v$ with $v \ge 1$; $k \ge 1$",),
        given=(sp.Q.ge(k, 1),),
        domains=_K_DOMAIN,
        notes=r"So a length $L$ reaches distance $w + (L - 1 - w)/k$: it stays below a trained length $L_0$ for "
        r"$L \le w + 1 + k (L_0 - 1 - w)$. $k = 1$ is plain RoPE, $k \to \infty$ ReRoPE.",
        wrong=1 / k**2,
    )


def leaky_at_most_distance() -> Theorem:
    lhs = LeakyReRoPE(j + w + v, j, w, 1 + c)
    return Theorem(
        "remap-leaky-rerope-at-most-distance",
        "Past the window leaky ReRoPE's distance is at most $i - j$",
        TOPIC,
        REROPE,
        (
            Step(lhs, w + v / (1 + c), "unfold: the second branch", ("unfold",)),
            Step(w + v / (1 + c), w + v, r"the gap $v c / (1 + c)$ is $\ge 0$", ("together",), "<="),
        ),
        rel="<=",
        assumptions=(r"$i - j = w + v$ with $v \ge 1$; $k = 1 + c$ with $c \ge 0$",),
        domains={"c": Domain("real", 0, 63)},
        formula=sp.Le(LeakyReRoPE(i, j, w, k), i - j, evaluate=False),
        wrong=w + v / 2 - 1,
    )


# ---- past the trained length: the largest distance each remapping hands to RoPE ----------------------------------

#: The settings the length claim uses (window and group of Self-Extend, ReRoPE's window, leaky ReRoPE's k).
LENGTH_SETTINGS = {"W": 256, "G": 4, "w": 256, "k": 16}


def remap_lengths(L0: int, L: int, se=remap.self_extend_relative) -> dict:
    r"""The largest remapped distance of a length-``L`` input (the last query against every key) under Self-Extend
    (``W = 256``, ``G = 4``), ReRoPE (``w = 256``) and leaky ReRoPE (``w = 256``, ``k = 16``), and how many of the
    last query's distances reach ``L0`` or more (distances training never showed RoPE)."""
    if not (isinstance(L0, int) and isinstance(L, int) and 1 <= L0 < L):
        raise ValueError(f"L0 and L must be integers with 1 <= L0 < L, got L0={L0!r}, L={L!r}")
    W, G, wr, kk = (LENGTH_SETTINGS[x] for x in ("W", "G", "w", "k"))
    keys = np.arange(L)
    se_d = se(np.full(L, L - 1), keys, window=W, group=G)
    re_d = remap.rerope_relative(np.full(L, L - 1), keys, window=wr)
    with mpmath.workdps(50):
        leaky = remap.leaky_rerope_relative_mp(L - 1, 0, window=wr, k=kk)
    man, exp = leaky.man_exp  # a binary fraction: exact as a rational
    leaky_text = str(Fraction(int(man)) * Fraction(2) ** int(exp))
    return {
        f"Self-Extend ($W = {W}$, $G = {G}$): largest distance": int(se_d.max()),
        f"Self-Extend ($W = {W}$, $G = {G}$): distances $\\ge L_0$": int(np.sum(se_d >= L0)),
        f"ReRoPE ($w = {wr}$): largest distance": int(re_d.max()),
        f"ReRoPE ($w = {wr}$): distances $\\ge L_0$": int(np.sum(re_d >= L0)),
        f"leaky ReRoPE ($w = {wr}$, $k = {kk}$): largest distance": leaky_text,
    }


def _no_grouping(ii, jj, *, window, group):
    return np.asarray(ii) - np.asarray(jj)


def _lengths(dps: int, se=remap.self_extend_relative):
    value = remap_lengths(1000, 2000, se=se)
    return value, list(value.items())


def remap_length() -> Fact:
    return Fact(
        "remap-lengths",
        "Trained on 1000 positions, a 2000-token input: every remapped distance stays below 1000",
        TOPIC,
        f"{SELF_EXTEND}; {REROPE}",
        r"The last query of a 2000-token input against every key: its largest remapped distance (the largest of "
        r"all pairs, [[claim:remap-self-extend-monotone]], [[claim:remap-rerope-beyond-window]]) and how many of its "
        r"distances reach $L_0 = 1000$, under Self-Extend ($W = 256$, $G = 4$), ReRoPE ($w = 256$) and leaky "
        r"ReRoPE ($w = 256$, $k = 16$).",
        {
            r"Self-Extend ($W = 256$, $G = 4$): largest distance": 691,
            r"Self-Extend ($W = 256$, $G = 4$): distances $\ge L_0$": 0,
            r"ReRoPE ($w = 256$): largest distance": 256,
            r"ReRoPE ($w = 256$): distances $\ge L_0$": 0,
            r"leaky ReRoPE ($w = 256$, $k = 16$): largest distance": "5839/16",
        },
        _lengths,
        method="exact integer arithmetic (numeric.remap); leaky ReRoPE with mpmath at 50 digits (a binary fraction, "
        "exact as a rational)",
        wrong=lambda dps: _lengths(dps, se=_no_grouping),
        notes=r"Without the grouping the last query would see distances up to 1999, 1000 of them never trained. "
        r"Self-Extend's largest distance is $\lfloor 1999/4 \rfloor + 256 - 64 = 691$ "
        r"([[claim:remap-self-extend-bound]]).",
    )


LENGTHS = {"remap-lengths": remap_lengths}


#: The statements of the computed facts (display only; a definition's or theorem's is its own sides).
_delta = sp.Function(r"\delta")
_ii, _jj = sp.symbols("i j", integer=True)
STATEMENTS = {
    "remap-self-extend-not-relative": sp.Ne(_delta(5, 0), _delta(6, 1), evaluate=False),
    "remap-self-extend-monotone": sp.Le(_delta(_ii, _jj), _delta(_ii, _jj - 1), evaluate=False),
    "remap-self-extend-true-division": sp.Le(
        sp.Function(r"\delta_{/}")(_ii, _jj), sp.Function(r"\delta_{//}")(_ii, _jj), evaluate=False
    ),
    "remap-lengths": sp.Lt(_delta(1999, _jj), 1000, evaluate=False),
}


def claims() -> list:
    made: list = [
        self_extend_definition(),
        self_extend_neighbour(),
        self_extend_bound(),
        self_extend_not_relative(),
        self_extend_monotone(),
        self_extend_true_division(),
        rerope_definition(),
        rerope_inside(),
        rerope_beyond(),
        rerope_translation(),
        leaky_definition(),
        leaky_inside(),
        leaky_beyond(),
        leaky_slope(),
        leaky_at_most_distance(),
        remap_length(),
    ]
    return [tables.stated(c, STATEMENTS.get(c.id)) for c in made]


# ---- the rules table: Self-Extend's and ReRoPE's rows (symbolic.tables) ----------------------------------------


def _remap_phi(name: str):
    r"""RoPE's proximity at a remapped distance: ``φ(m, n) = q^T R_{δ(m, n)} k``."""
    R = sp.MatrixSymbol(rf"R_{{\delta_{{\mathrm{{{name}}}}}(m, n)}}", tables.d, tables.d)
    return tables.phi(sp.MatMul(tables.vec("q").T, R, tables.vec("k")))


def _reach(scheme: str):
    def text(v, L0: int, L: int) -> str:
        key = next(k for k in v if k.startswith(scheme) and k.endswith("largest distance"))
        return f"largest distance {v[key]}, none $\\ge L_0$"

    return text


RULES_ROWS = (
    tables.Row(
        175,
        "RoPE + Self-Extend",
        _remap_phi("SE"),
        (
            tables.Cell(
                "properties-rope-monotone-range", read=tables.key("default"), note="as RoPE's: distance $i - j < W$"
            ),
            tables.Cell(
                "remap-self-extend-not-relative",
                read=lambda v: v[r"$W = 4$, $G = 2$: $(i, j, d)$ with equal $i - j$"] is None,
                note="grouped positions beyond the window",
            ),
            rotary.SYMMETRY,
        ),
        tables.Length("remap-lengths", _reach("Self-Extend")),
    ),
    tables.Row(
        176,
        "RoPE + ReRoPE",
        _remap_phi("Re"),
        (
            tables.Cell(
                "properties-rope-monotone-range", read=tables.key("default"), note="as RoPE's, constant past $w$"
            ),
            tables.Cell("remap-rerope-translation-invariant", "holds"),
            rotary.SYMMETRY,
        ),
        tables.Length("remap-lengths", _reach("ReRoPE")),
    ),
)
