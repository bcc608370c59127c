r"""p-RoPE (Barbero et al. 2024, "Round and Round We Go! What makes Rotary Positional Encodings useful?",
arXiv 2410.06205): RoPE keeping a fraction ``p`` of its frequencies, the highest; the pairs of the lowest
frequencies do not rotate (their channels carry no position, as in NoPE).

Conventions (named, never assumed; :mod:`numeric.p_rope` computes the same): width ``d``, base ``b``,
``theta_i = b**(-2i/d)``; p-RoPE keeps the pairs ``i < r/2`` with ``r = p d`` (an even number of channels) and sets
``theta_i = 0`` for ``i >= r/2``. Partial rotary (``rotary_dim = r``, ``partial_rotary_factor = p`` in
transformers) rotates the first ``r`` channels with the frequencies of a width-``r`` RoPE, ``b'**(-2i/r)``, and
leaves the others unrotated: with ``b' = b**(r/d)`` it is p-RoPE (interleaved pairs; the half layout pairs channel
``i`` with ``i + r/2`` inside the rotated block instead).

Proportional RoPE (Gemma 4; transformers' ``_compute_proportional_rope_parameters``) rotates the first ``r/2`` pairs
at ``theta_i / s`` and leaves the others unrotated: p-RoPE's frequencies divided by ``s`` (linear scaling of the
kept pairs), p-RoPE itself at ``s = 1``.

>>> [c.id for c in claims()]
['p-rope-partial-rotary', 'p-rope-proportional']

(``tests/numeric/test_p_rope.py`` checks that the kernel is partial rotary at the rescaled base, in float64.)
"""

from __future__ import annotations

import sympy as sp
from posproof.symbolic import sources
from posproof.symbolic.engine.core import Domain, Step, Theorem
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


#: Proportional RoPE's factor (transformers' ``factor``) and display names.
s_factor = sp.Symbol("s", positive=True)
_theta_prop = sp.Function(r"\theta^{(\mathrm{prop}, s)}")
PROPORTIONAL = "Hugging Face transformers, modeling_rope_utils: _compute_proportional_rope_parameters (Gemma 4)"


def _kept(value):
    r"""A pair's frequency under p-RoPE's rule: ``value`` for the kept pairs ``i < r/2``, 0 for the others."""
    return sp.Piecewise((value, i < r / 2), (0, True))


def _proportional() -> Theorem:
    theta = b ** (-2 * i / d)
    return Theorem(
        "p-rope-proportional",
        r"Proportional RoPE is p-RoPE with its kept frequencies divided by the factor $s$ (p-RoPE itself at "
        r"$s = 1$)",
        TOPIC,
        f"{P_ROPE}; {PROPORTIONAL}",
        steps=(
            Step(
                _kept(theta / s_factor),
                _kept(theta) / s_factor,
                r"the factor $1/s$ taken out of both branches ($0/s = 0$)",
                ("piecewise_fold",),
            ),
        ),
        assumptions=(
            r"$d$ and $r$ even widths, $r \le d$: $r/2$ kept pairs (transformers' "
            r"$\lfloor \mathrm{partial\_rotary\_factor} \cdot d/2 \rfloor$); $b > 0$ real; factor $s > 0$",
        ),
        sizes={d: (2, 4, 8, 16)},
        domains={"b": Domain("real", 2, 10**7, log=True)},
        formula=sp.Eq(_theta_prop(i), _theta_p(i) / s_factor, evaluate=False),
        notes=(
            r"So a proportional-RoPE model with factor $s$ is p-RoPE whose kept pairs are linearly scaled "
            r"(position interpolation by $s$ on them); $s = 1$ is p-RoPE. Multiplying by $s$ instead is rejected."
        ),
        wrong=_kept(theta) * s_factor,
    )


def claims() -> list:
    return [_partial_rotary(), _proportional()]
