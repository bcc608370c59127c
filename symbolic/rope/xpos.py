r"""xPos (Sun et al. 2022, "A Length-Extrapolatable Transformer", arXiv 2212.10554): RoPE with an exponential
scale per pair, queries scaled up and keys down, so that only the scores are relative.

Conventions (named, never assumed; :mod:`numeric.xpos` computes the same): pair ``i`` of the query at position
``m`` is rotated by ``m theta_i`` and multiplied by ``zeta_i**((m - o)/s)``, pair ``i`` of the key at ``n`` rotated
by ``n theta_i`` and multiplied by ``zeta_i**(-(n - o)/s)``; ``s > 0`` is the scale base (512 in every source),
``o`` the origin of the scale (flash-attn and x-transformers ``seq_len // 2``, torchscale ``ceil(L/2)``), and
``zeta_i > 0`` the pair's decay base (``(2i/d + gamma)/(1 + gamma)``, ``gamma = 0.4``, in every source). Planes are
interleaved, channels ``(2i, 2i + 1)``; the half layout is the same sum over another pairing of the channels.

>>> [c.id for c in claims()][:1]
['xpos-score-relative']
"""

from __future__ import annotations

import sympy as sp
from posproof.symbolic import sources
from posproof.symbolic.engine.core import Domain, Step, Theorem
from posproof.symbolic.rope.rotary import rotated_pair
from posproof.symbolic.symbols import TH_real as th
from posproof.symbolic.symbols import d_even as d
from posproof.symbolic.symbols import k, m, n, q

TOPIC = "rope"
XPOS = sources.XPOS

#: The pair index, ``i = 0 .. d/2 - 1``.
i = sp.Symbol("i", integer=True, nonnegative=True)
#: The per-pair decay bases ``zeta_i`` (positive: the scale ``zeta_i**x`` is a real power of a positive number).
zeta = sp.IndexedBase("zeta", positive=True)
#: One decay base (the decay claims).
z = sp.Symbol("zeta", positive=True)
#: The scale base ``s`` (``scale_base``), the origin ``o`` of the scale, and ``gamma`` of ``zeta_i``.
s = sp.Symbol("s", positive=True)
o = sp.Symbol("o", real=True)
gamma = sp.Symbol("gamma", positive=True)
#: ``zeta = 1/(1 + w)``, ``w >= 0``: every ``zeta`` in ``(0, 1]`` and only those.
w = sp.Symbol("w", nonnegative=True)
#: A nonnegative distance: the key ``t`` positions further back.
t = sp.Symbol("t", integer=True, positive=True)

#: Widths tried numerically (1, 2, 3 and 5 planes), as for RoPE.
D_SIZES = {d: (2, 4, 6, 10)}
#: The scale base's draws: xPos's 512 and the magnitudes around it (a tiny ``s`` with positions up to 2**53 would
#: ask for ``zeta**(2**53 / 1e-6)``, a number no working precision holds).
DOMAINS = {"s": Domain("real", 1, 10**5, log=True), "zeta": Domain("real", sp.Rational(1, 100), 1, log=True)}


#: Display-only functions of the short statements (formula=): the score of the query at m and the key at n, RoPE's
#: plane score psi(i, r) = q_(i)^T R(r theta_i) k_(i), and the rotated query's squared length.
_score = sp.Function("s")
_psi = sp.Function("psi")
_length2 = sp.Function("L_q")


def _planes(f):
    return sp.Sum(f, (i, 0, d / 2 - 1))


def _pair(v):
    return v[2 * i], v[2 * i + 1]


def _scaled_score(scale_q, scale_k):
    r"""One plane of the score: ``(scale_q R(m theta_i) q_(i))^T (scale_k R(n theta_i) k_(i))``."""
    (q0, q1), (k0, k1) = _pair(q), _pair(k)
    rq = rotated_pair(scale_q * q0, scale_q * q1, m * th[i])
    rk = rotated_pair(scale_k * k0, scale_k * k1, n * th[i])
    return rq[0] * rk[0] + rq[1] * rk[1]


def _rope_plane(angle):
    r"""RoPE's plane score written with one angle: ``q_(i)^T R(angle) k_(i)``."""
    (q0, q1), (k0, k1) = _pair(q), _pair(k)
    return (q0 * k0 + q1 * k1) * sp.cos(angle) + (q1 * k0 - q0 * k1) * sp.sin(angle)


def _query_scale():
    return zeta[i] ** ((m - o) / s)


def _key_scale():
    return zeta[i] ** (-(n - o) / s)


def _score_relative() -> Theorem:
    lhs = _planes(_scaled_score(_query_scale(), _key_scale()))
    e1 = _planes(_query_scale() * _key_scale() * _rope_plane((n - m) * th[i]))
    rhs = _planes(zeta[i] ** ((m - n) / s) * _rope_plane((n - m) * th[i]))
    return Theorem(
        "xpos-score-relative",
        r"xPos, every even $d$: the score is $\sum_i \zeta_i^{(m-n)/s}\, q_{(i)}^T R((n - m)\theta_i) k_{(i)}$, "
        "a function of $m - n$ (the origin $o$ cancels)",
        TOPIC,
        f"{XPOS}, section 3.2",
        steps=(
            Step(
                lhs,
                e1,
                r"per plane the scales are numbers that factor out, and $R(m\theta_i)^T R(n\theta_i) = "
                r"R((n - m)\theta_i)$ (angle differences)",
                ("expand", "expand_trig", "expand"),
            ),
            Step(
                e1,
                rhs,
                r"$\zeta_i^{(m-o)/s} \zeta_i^{-(n-o)/s} = \zeta_i^{(m-n)/s}$: the exponents add and $o$ cancels",
                ("powsimp", "cancel_exponents", "expand"),
            ),
        ),
        assumptions=(
            r"$d = 2h$ even, planes $i = 0, \dots, d/2 - 1$ on channels $(2i, 2i + 1)$",
            r"$q, k$ real vectors, $\theta_i$ arbitrary reals, $m$ (query) and $n$ (key) integer",
            r"$\zeta_i > 0$, $s > 0$, $o$ real: the query's plane scaled by $\zeta_i^{(m-o)/s}$, the key's by "
            r"$\zeta_i^{-(n-o)/s}$",
        ),
        sizes=D_SIZES,
        domains=DOMAINS,
        formula=sp.Eq(_score(m, n), _planes(zeta[i] ** ((m - n) / s) * _psi(i, n - m)), evaluate=False),
        notes=(
            r"Every $\zeta_i > 0$ does; xPos's $\zeta_i = (2i/d + \gamma)/(1 + \gamma)$ is one choice. Scaling "
            "the key the same way as the query ($\\zeta_i^{(n-o)/s}$) would not do: the scores would carry "
            r"$\zeta_i^{(m+n-2o)/s}$ and change when both positions shift."
        ),
        wrong=_planes(zeta[i] ** ((m + n - 2 * o) / s) * _rope_plane((n - m) * th[i])),
    )


def _query_norm() -> Theorem:
    (q0, q1) = _pair(q)
    scale = _query_scale()
    rq = rotated_pair(scale * q0, scale * q1, m * th[i])
    lhs = _planes(rq[0] ** 2 + rq[1] ** 2)
    rhs = _planes(zeta[i] ** (2 * (m - o) / s) * (q0**2 + q1**2))
    return Theorem(
        "xpos-query-norm",
        r"xPos, every even $d$: the rotated query's squared length is $\sum_i \zeta_i^{2(m-o)/s} "
        r"(q_{2i}^2 + q_{2i+1}^2)$",
        TOPIC,
        f"{XPOS}, section 3.2",
        steps=(
            Step(
                lhs,
                rhs,
                r"$\cos^2 + \sin^2 = 1$ in every plane; the scale enters squared",
                ("expand", "combine_sums", "trigsimp"),
            ),
        ),
        assumptions=(
            r"$d = 2h$ even, planes on channels $(2i, 2i + 1)$, $q$ real, $\theta_i$ real, $m$ integer",
            r"$\zeta_i > 0$, $s > 0$, $o$ real",
        ),
        sizes=D_SIZES,
        domains=DOMAINS,
        formula=sp.Eq(_length2(m), rhs, evaluate=False),
        notes=(
            r"The key's is the same with the exponent $-2(n - o)/s$. The two agree with $|q|^2$ only where "
            r"$\zeta_i^{(m-o)/s} = 1$ for every plane that carries weight: at $m = o$, or for $\zeta_i = 1$. "
            "Elsewhere it differs from RoPE's norm, $|q|^2$."
        ),
        wrong=_planes(q0**2 + q1**2),
    )


def _decay_at_most_one() -> Theorem:
    lhs = (1 / (1 + w)) ** ((m - n) / s)
    return Theorem(
        "xpos-decay-at-most-one",
        r"For keys before the query ($m \ge n$) and every $\zeta \in (0, 1]$, the scale $\zeta^{(m-n)/s}$ is at "
        "most 1",
        TOPIC,
        f"{XPOS}, section 3.2",
        steps=(
            Step(
                lhs,
                sp.Integer(1),
                r"compare logarithms: $\log \zeta^{(m-n)/s} = -((m - n)/s) \log(1 + w) \le 0$",
                ("log_sides", "expand_log"),
                "<=",
            ),
        ),
        rel="<=",
        given=(sp.Q.nonnegative(m - n),),
        formula=sp.Le(z ** ((m - n) / s), 1, evaluate=False),
        assumptions=(
            r"$\zeta = 1/(1 + w)$ with $w \ge 0$: every $\zeta \in (0, 1]$",
            r"$s > 0$; $m \ge n$ integers",
        ),
        notes=(
            r"xPos's $\zeta_i$ lie in $(0, 1)$ (the claim on its decay bases, below). For keys after the query "
            "($m < n$) the factor exceeds 1: the decay is causal. It is no decay of a whole factor "
            r"$\zeta$ from the first position on: $\zeta^{(m-n)/s} \le \zeta$ is false for $m - n < s$."
        ),
        wrong=1 / (1 + w),
    )


def _decay_decreasing() -> Theorem:
    lhs = (1 / (1 + w)) ** ((m - n + t) / s)
    rhs = (1 / (1 + w)) ** ((m - n) / s)
    return Theorem(
        "xpos-decay-decreasing",
        r"For every $\zeta \in (0, 1)$ the scale $\zeta^{(m-n)/s}$ decreases as $m - n$ grows",
        TOPIC,
        f"{XPOS}, section 3.2",
        steps=(
            Step(
                lhs,
                rhs,
                r"compare logarithms: they differ by $-(t/s) \log(1 + w) < 0$",
                ("log_sides", "expand_log", "expand"),
                "<",
            ),
        ),
        rel="<",
        assumptions=(
            r"$\zeta = 1/(1 + w)$ with $w > 0$: every $\zeta \in (0, 1)$",
            r"$s > 0$; $m$, $n$ integers; the key $t \ge 1$ positions further back",
        ),
        given=(sp.Q.positive(w),),
        formula=sp.Lt(z ** ((m - n + t) / s), z ** ((m - n) / s), evaluate=False),
        notes="The scale does not grow with the distance.",
        wrong=(1 / (1 + w)) ** ((m - n + 2 * t) / s),
    )


def _zeta_below_one() -> Theorem:
    zeta_i = (2 * i / d + gamma) / (1 + gamma)
    return Theorem(
        "xpos-zeta-below-one",
        r"xPos's decay bases $\zeta_i = (2i/d + \gamma)/(1 + \gamma)$ are below 1 for every pair $i < d/2$",
        TOPIC,
        f"{XPOS}, section 3.2",
        steps=(
            Step(
                zeta_i,
                sp.Integer(1),
                r"$1 - \zeta_i = (d - 2i)/(d (1 + \gamma)) > 0$",
                ("together", "cancel"),
                "<",
            ),
        ),
        rel="<",
        given=(sp.Q.positive(d - 2 * i),),
        formula=sp.Lt(zeta_i, 1, evaluate=False),
        assumptions=(r"$d$ even, $0 \le i < d/2$", r"$\gamma > 0$ ($0.4$ in every source)"),
        notes=r"They are positive too, as a quotient of positive numbers. They need not be below $1/2$.",
        wrong=sp.Rational(1, 2),
    )


def claims() -> list:
    return [_score_relative(), _query_norm(), _decay_at_most_one(), _decay_decreasing(), _zeta_below_one()]
