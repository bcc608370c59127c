r"""p-RoPE (Barbero et al. 2024, "Round and Round We Go! What makes Rotary Positional Encodings useful?",
arXiv 2410.06205): RoPE keeping a fraction ``p`` of its frequencies, the highest; the pairs of the lowest
frequencies do not rotate (their channels carry no position, as in NoPE).

Conventions (named, never assumed; :mod:`numeric.p_rope` computes the same): width ``d``, base ``b``,
``theta_i = b**(-2i/d)``; p-RoPE keeps the pairs ``i < r/2`` with ``r = p d`` (an even number of channels) and sets
``theta_i = 0`` for ``i >= r/2``. Partial rotary (``rotary_dim = r``, ``partial_rotary_factor = p`` in
transformers) rotates the first ``r`` channels with the frequencies of a width-``r`` RoPE, ``b'**(-2i/r)``, and
leaves the others unrotated: with ``b' = b**(r/d)`` it is p-RoPE (interleaved pairs; the half layout pairs channel
``i`` with ``i + r/2`` inside the rotated block instead).

>>> [c.id for c in claims()]
['p-rope-partial-rotary', 'p-rope-kernel-is-partial-rotary']
"""

from __future__ import annotations

import numpy as np
import sympy as sp
from posproof.symbolic import sources
from posproof.symbolic.engine.core import Domain, Fact, Step, Theorem
from posproof.symbolic.symbols import d_even as d

TOPIC = "rope"
P_ROPE = sources.P_ROPE

#: The pair index, the rotated width ``r`` (even, ``r <= d``) and the base ``b``.
i = sp.Symbol("i", integer=True, nonnegative=True)
r = sp.Symbol("r", integer=True, positive=True, even=True)
b = sp.Symbol("b", positive=True)

#: Display-only: the frequencies of p-RoPE and of partial rotary at base ``b'``.
_theta_p = sp.Function(r"\theta^{(p)}")
_theta_partial = sp.Function(r"\theta^{(r, b')}")


def _partial_rotary() -> Theorem:
    # partial rotary's frequency at the base b' = b^{r/d}, as a power is computed: exp(-(2i/r) log b')
    lhs = sp.exp(-2 * i / r * sp.log(b ** (r / d)))
    rhs = b ** (-2 * i / d)
    return Theorem(
        "p-rope-partial-rotary",
        r"p-RoPE with $p = r/d$ is partial rotary of width $r$ at base $b^{r/d}$: every kept pair turns at "
        r"$(b^{r/d})^{-2i/r} = b^{-2i/d}$",
        TOPIC,
        f"{P_ROPE}, section 5",
        steps=(
            Step(
                lhs,
                rhs,
                r"$\log b^{r/d} = (r/d) \log b$ for $b > 0$, so $r$ cancels and $\exp(-(2i/d) \log b) = b^{-2i/d}$",
                ("expand_log", "powdenest"),
            ),
        ),
        assumptions=(
            r"$d$ and $r$ even widths, $r \le d$; $b > 0$ real; pairs $i = 0, \dots, r/2 - 1$ (the pairs "
            r"$i \ge r/2$ do not rotate in either scheme)",
        ),
        sizes={d: (2, 4, 8, 16)},
        domains={"b": Domain("real", 2, 10**7, log=True)},
        formula=sp.Eq(_theta_p(i), _theta_partial(i), evaluate=False),
        notes=(
            r"Partial rotary at the base $b$ itself turns pair $i$ at $b^{-2i/r}$, faster than p-RoPE's "
            r"$b^{-2i/d}$ for every $i > 0$: the two agree only when the base is rescaled."
        ),
        wrong=sp.exp(-2 * i / d * sp.log(b ** (r / d))),
    )


#: The fact's widths, fractions and positions.
WIDTHS, FRACTIONS, POSITIONS = (8, 64, 128), (0.25, 0.5, 0.75), (0, 1, 7, 1000, 65535)


def _kernel_equals_partial(dps: int, rescale: bool = True):
    r"""Whether :func:`numeric.p_rope.p_rope` equals :func:`numeric.rotary.rope` with ``rotary_dim = p d`` at
    base ``b**p`` (``rescale``; else at ``b``), for each width and fraction, in float64."""
    from posproof.numeric.p_rope import p_rope
    from posproof.numeric.rotary import rope

    del dps  # float64 kernels: the working precision does not enter
    rows, value = [], {}
    for width in WIDTHS:
        x = np.random.default_rng(width).uniform(-1, 1, (len(POSITIONS), width))  # (tokens, width)
        for p in FRACTIONS:
            rotated = int(round(p * width))
            base = 10000.0 ** (rotated / width) if rescale else 10000.0
            gap = float(np.max(np.abs(p_rope(x, POSITIONS, fraction=p) - rope(x, POSITIONS, rotary_dim=rotated,
                                                                                base=base))))  # fmt: skip
            rows.append((f"$d = {width}$, $p = {p}$: largest difference", f"{gap:.1e}"))
            value[f"d = {width}, p = {p}"] = gap <= 1e-12 * width
    return value, rows


def _kernel_fact() -> Fact:
    return Fact(
        "p-rope-kernel-is-partial-rotary",
        r"`numeric.p_rope.p_rope` equals `numeric.rotary.rope` with $r = p d$ rotated channels at base $b^{p}$ for "
        r"$d = 8, 64, 128$ and $p = 1/4, 1/2, 3/4$",
        TOPIC,
        f"{P_ROPE}, section 5",
        r"Queries of widths 8, 64 and 128 at positions $0, 1, 7, 1000, 65535$, rotated by p-RoPE (base $10^4$) and "
        r"by partial rotary with the base $10^{4p}$; each is true when the two agree to $10^{-12} d$ in float64.",
        {f"d = {w}, p = {p}": True for w in WIDTHS for p in FRACTIONS},
        _kernel_equals_partial,
        method="NumPy float64 (numeric.p_rope.p_rope and numeric.rotary.rope)",
        wrong=lambda dps: _kernel_equals_partial(dps, rescale=False),
        notes="Partial rotary at the base $10^4$ itself is a different code: its kept pairs turn faster.",
    )


def claims() -> list:
    return [_partial_rotary(), _kernel_fact()]
