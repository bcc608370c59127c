r"""The four-term attention expansion: what adding absolute positions does to a score, and when a sinusoidal
position->position term depends on m - n only.

'Positional Encoding 101' expands ``q_m^T k_n = (W_q(x_m + p_m))^T W_k (x_n + p_n)`` into four terms and tells how
Transformer-XL, DeBERTa and T5 rewrite them so that only relative positions remain (one module per scheme:
:mod:`symbolic.transformer_xl`, :mod:`symbolic.deberta`, :mod:`symbolic.t5`, :mod:`symbolic.alibi`, all under the
topic ``relative``). This module also holds the symbols and helpers they share.

Conventions (parameters, never assumptions): the query is at ``m`` (or ``i``), the key at ``n`` (or ``j``);
Transformer-XL and ALiBi use the distance ``m - n`` (query - key), DeBERTa ``i - j`` (query - key), T5 ``n - m``
(key - query). Sinusoids here are ``(sin, cos)`` per pair with any frequencies ``θ_i`` (the paper's
``θ_i = b^(-2i/d)`` is a special case); Transformer-XL's ``[sin | cos]`` halves are the same pairs reordered.
"""

from __future__ import annotations

import random

import mpmath
import sympy as sp
from posproof.symbolic import sources, tables
from posproof.symbolic.engine import settings
from posproof.symbolic.engine.core import Fact, Step, Theorem
from posproof.symbolic.symbols import TH
from posproof.symbolic.symbols import d_any as d

RELATIVE = sources.article("Relative Positions")
TUPE = sources.TUPE

TOPIC = "relative"


# ---- symbols, named like the math -----------------------------------------------------------------------------
# d: width of queries and keys (symbolic.symbols.d_any)
h = sp.Symbol("h", integer=True, positive=True)  # number of 2-D pairs, d = 2h
i = sp.Symbol("i", integer=True, nonnegative=True)  # pair index 0 .. h-1 (and DeBERTa's query position)
j = sp.Symbol("j", integer=True)  # DeBERTa's key position
l = sp.Symbol("l", integer=True, nonnegative=True)  # component index 0 .. d-1
m, n, t = sp.symbols("m n t", integer=True)  # query position, key position, shift
k = sp.Symbol("k", integer=True, positive=True)  # DeBERTa's window
phi = sp.Symbol("phi", real=True)  # a rotation angle

THETA = TH  # frequencies θ_i (any positive values)
theta_i = THETA[i]

MAT_SIZES = {d: (2, 3)}
PAIR_SIZES = {h: (1, 2, 3)}


def column_vector(name: str) -> sp.MatrixSymbol:
    return sp.MatrixSymbol(name, d, 1)


def square_matrix(name: str) -> sp.MatrixSymbol:
    return sp.MatrixSymbol(name, d, d)


def pairs(f) -> sp.Sum:
    r"""``Σ_{i=0}^{h-1} f``: a sum over the ``h = d/2`` frequency pairs."""
    return sp.Sum(f, (i, 0, h - 1))


def comps(f) -> sp.Sum:
    r"""``Σ_{l=0}^{d-1} f``: a sum over the ``d`` components."""
    return sp.Sum(f, (l, 0, d - 1))


def shifted(a, s=t):
    r"""``a + s`` kept as written (so the printed derivation shows the shift before it cancels)."""
    return sp.Add(a, s, evaluate=False)


def difference(a, b):
    r"""``a - b`` kept as written."""
    return sp.Add(a, sp.Mul(-1, b, evaluate=False), evaluate=False)


def identity(id_, title, source, steps, **kw):
    return Theorem(id_, title, TOPIC, source, tuple(steps), **kw)


# ---- named symbols for the short statements (formula=) ---------------------------------------------------------
_R_phi = sp.MatrixSymbol("R_phi", 2, 2)  # the rotation by phi
_B2, _C_B = sp.MatrixSymbol("B", 2, 2), sp.MatrixSymbol("C(B)", 2, 2)
_M_pp = sp.MatMul(sp.Transpose(square_matrix("W_q")), square_matrix("W_k"))


# ================================================================================================================
# The four-term expansion
# ================================================================================================================
W_q, W_k = square_matrix("W_q"), square_matrix("W_k")
x_m, x_n, p_m, p_n = column_vector("x_m"), column_vector("x_n"), column_vector("p_m"), column_vector("p_n")


def four_terms(q_word, q_pos_c, q_pos_d, W_word, W_pos, k_word, k_pos) -> list:
    r"""The four terms (word->word, word->position, position->word, position->position) of
    ``(q_word + q_pos)^T W (k_word + k_pos)``, each with its own query-side vector and key matrix so that the
    relative rewrites can replace them term by term."""
    return [
        q_word.T * W_word * k_word,
        q_word.T * W_pos * k_pos,
        q_pos_c.T * W_word * k_word,
        q_pos_d.T * W_pos * k_pos,
    ]


def expansion() -> Theorem:
    q = sp.Transpose(W_q * (x_m + p_m))
    lhs = sp.MatMul(q, W_k, x_n + p_n)
    mid = (x_m + p_m).T * W_q.T * W_k * (x_n + p_n)
    rhs = sp.Add(*four_terms(W_q * x_m, W_q * p_m, W_q * p_m, W_k, W_k, x_n, p_n))
    return identity(
        "attention-four-term-expansion",
        "$q_m^T k_n$ with absolute positions expands into four terms",
        f"{RELATIVE}; {TUPE}",
        [
            Step(lhs, mid, "$(A B)^T = B^T A^T$", ("expand",)),
            Step(mid, rhs, "distribute: word-word + word-position + position-word + position-position", ("expand",)),
        ],
        assumptions=(
            r"$W_q, W_k$ are $d \times d$; $x, p$ are $d \times 1$ (token embedding and absolute position code)",
        ),
        formula=sp.Eq(lhs, rhs, evaluate=False),
        sizes=MAT_SIZES,
        notes=(
            r"Only the last term, $p_m^T W_q^T W_k p_n$, involves both positions; the middle two involve one "
            r"absolute position each, so the score is not a function of $m - n$ alone."
        ),
        wrong=x_m.T * W_q.T * W_k * x_n + p_m.T * W_q.T * W_k * p_n,  # the cross terms forgotten
    )


# ---- the position->position term with sinusoids ----------------------------------------------------------------
pa, pb, pc, pe = sp.symbols("alpha beta gamma epsilon", real=True)  # a 2x2 block


def _rot(a):
    return sp.Matrix([[sp.cos(a), -sp.sin(a)], [sp.sin(a), sp.cos(a)]])


def _commutator(a, b) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix([[b, a], [a, -b]])


def rotation_commutant() -> Theorem:
    B, R = sp.ImmutableMatrix([[pa, pb], [pc, pe]]), sp.ImmutableMatrix(_rot(phi))
    lhs = sp.MatMul(B, R, evaluate=False)
    rhs = sp.MatAdd(sp.MatMul(R, B, evaluate=False), sp.sin(phi) * _commutator(pe - pa, pb + pc), evaluate=False)
    return identity(
        "attention-rotation-commutant",
        r"$B R(\varphi) = R(\varphi) B + \sin\varphi \, C(B)$, where $C(B)$ has entries $\pm(\epsilon - \alpha)$, "
        r"$\beta + \gamma$: $B$ commutes with every rotation exactly when $\epsilon = \alpha$ and $\gamma = -\beta$ "
        r"($B = \alpha I + \gamma J$)",
        RELATIVE,
        [Step(lhs, rhs, r"multiply out the $2 \times 2$ products", ("doit", "expand"))],
        assumptions=(
            r"$B = \begin{pmatrix} \alpha & \beta \\ \gamma & \epsilon \end{pmatrix}$ real, "
            r"$R(\varphi)$ the rotation by $\varphi$",
        ),
        formula=sp.Eq(
            sp.MatMul(_B2, _R_phi),
            sp.MatAdd(sp.MatMul(_R_phi, _B2), sp.MatMul(sp.sin(phi), _C_B), evaluate=False),
            evaluate=False,
        ),
        notes=(
            r"The identity is what is proved; the 'exactly when' reads its entries: for $\sin \varphi \ne 0$ "
            r"the commutator $\sin \varphi \cdot C(B)$ vanishes iff $\varepsilon - \alpha = 0$ and $\beta + "
            r"\gamma = 0$, i.e. $B = \alpha I + \gamma J$ with $J$ the rotation by $\pi/2$: a scaled rotation."
            r" So $W_q^T W_k$ commutes with every pair rotation $R(m \theta_i)$ (distinct $\theta_i$) iff it "
            r"is block diagonal with such blocks; $W_q^T W_k = I$ is $\alpha = 1$, $\gamma = 0$."
        ),
        wrong=sp.MatAdd(
            sp.MatMul(R, B, evaluate=False), sp.sin(phi) * _commutator(pa - pe, pb + pc), evaluate=False
        ),  # the commutator with the wrong sign
    )


A_ = sp.IndexedBase("a", real=True)
C_ = sp.IndexedBase("c", real=True)
AL, BE, GA, EP = (sp.IndexedBase(s, real=True) for s in ("alpha", "beta", "gamma", "epsilon"))


def _pair(p):
    return sp.Matrix([sp.sin(p * theta_i), sp.cos(p * theta_i)])


def _bilinear(B) -> sp.Sum:
    r"""``p_m^T M p_n`` for block-diagonal ``M`` with blocks ``B_i``, pair by pair."""
    return pairs(sp.expand((_pair(m).T * B * _pair(n))[0, 0]))


TRIG = ("expand", "expand_trig", "expand")


def position_term_commuting() -> Theorem:
    lhs = _bilinear(sp.Matrix([[A_[i], -C_[i]], [C_[i], A_[i]]]))
    rhs = pairs(A_[i] * sp.cos((m - n) * theta_i) - C_[i] * sp.sin((m - n) * theta_i))
    return identity(
        "attention-position-term-relative",
        r"Position $\to$ position with sinusoids is relative when $W_q^T W_k$ commutes with the pair rotations",
        f"{RELATIVE}; {sources.VASWANI}",
        [Step(lhs, rhs, "angle-difference formulas pair by pair", TRIG)],
        assumptions=(
            r"$d = 2h$; $p_m$ has pairs $(\sin(m\theta_i), \cos(m\theta_i))$, any $\theta_i > 0$",
            r"$W_q^T W_k = \mathrm{diag}(B_0, \dots, B_{h-1})$ with $B_i = a_i I + c_i J$ "
            r"(commutes with $R(m\theta_i)$)",
        ),
        formula=sp.Eq(sp.MatMul(sp.Transpose(p_m), *_M_pp.args, p_n), rhs, evaluate=False),
        sizes=PAIR_SIZES,
        notes=(
            r"With $W_q^T W_k = I$ ($a_i = 1$, $c_i = 0$) the term is $\sum_i \cos((m - n) \theta_i)$, the "
            r"sinusoidal dot product. The right side depends on $m$ and $n$ only through $m - n$."
        ),
        wrong=pairs(A_[i] * sp.cos((m - n) * theta_i) + C_[i] * sp.sin((m - n) * theta_i)),
    )


def position_term_general() -> Theorem:
    lhs = _bilinear(sp.Matrix([[AL[i], BE[i]], [GA[i], EP[i]]]))
    half = sp.Rational(1, 2)
    rel = (AL[i] + EP[i]) * sp.cos((m - n) * theta_i) + (BE[i] - GA[i]) * sp.sin((m - n) * theta_i)
    absolute = (EP[i] - AL[i]) * sp.cos((m + n) * theta_i) + (BE[i] + GA[i]) * sp.sin((m + n) * theta_i)
    rhs = pairs(half * rel + half * absolute)
    return identity(
        "attention-position-term-absolute-part",
        r"For a general block the position $\to$ position term keeps a part in $m + n$",
        f"{RELATIVE}; {TUPE}",
        [Step(lhs, rhs, "product-to-sum formulas pair by pair", ("expand", "expand_trig", "expand"))],
        assumptions=(
            r"$d = 2h$; $p_m$ has pairs $(\sin(m\theta_i), \cos(m\theta_i))$, any $\theta_i > 0$",
            r"$W_q^T W_k$ block diagonal with general blocks "
            r"$\begin{pmatrix} \alpha_i & \beta_i \\ \gamma_i & \epsilon_i \end{pmatrix}$",
        ),
        formula=sp.Eq(sp.MatMul(sp.Transpose(p_m), *_M_pp.args, p_n), rhs, evaluate=False),
        sizes=PAIR_SIZES,
        notes=(
            r"The $m + n$ part vanishes for every $m$, $n$ iff $\varepsilon_i = \alpha_i$ and $\gamma_i = "
            r"-\beta_i$: exactly the commuting blocks of [[claim:attention-rotation-commutant]]. Off-diagonal blocks "
            r"(pairs $i \ne i'$) add $\sin(m \theta_i) \sin(n \theta_{i'})$ terms, which are not functions of "
            r"$m - n$ either. Adding sinusoids does not make attention relative."
        ),
        wrong=pairs(half * rel),
    )


def _counterexample(dps: int, commuting: bool = False):
    rng = random.Random(3)
    dd = 4
    Wq = mpmath.matrix([[rng.randint(-3, 3) for _ in range(dd)] for _ in range(dd)])
    Wk = mpmath.matrix([[rng.randint(-3, 3) for _ in range(dd)] for _ in range(dd)])
    if commuting:  # W_q = I, W_k = diag(a I + c J, ...): commutes with every pair rotation
        Wq = mpmath.eye(dd)
        Wk = mpmath.matrix([[2, -3, 0, 0], [3, 2, 0, 0], [0, 0, 1, 1], [0, 0, -1, 1]])
    theta = [mpmath.mpf(10000) ** (-mpmath.mpf(2 * p) / dd) for p in range(dd // 2)]

    def pe(pos):  # interleaved (sin, cos) pairs
        return mpmath.matrix([f(pos * th) for th in theta for f in (mpmath.sin, mpmath.cos)])

    def score(M, a, b):
        return (pe(a).T * M * pe(b))[0]

    rows, verdicts = [], []
    for label, M in ((r"$W_q^\top W_k$ (random integers)", Wq.T * Wk), ("identity", mpmath.eye(dd))):
        values = [score(M, a, a + 3) for a in (0, 5, 10)]
        same = all(abs(v - values[0]) <= settings.rel_tol(dps) for v in values)
        verdicts.append(same)
        rows += [(f"{label}: " + r"$\varphi(%d, %d)$" % (a, a + 3), v) for a, v in zip((0, 5, 10), values, strict=True)]
    return verdicts, rows


def position_term_counterexample() -> Fact:
    return Fact(
        "attention-position-term-not-relative",
        r"Counterexample: with a general $W_q^T W_k$ the sinusoidal position $\to$ position term is not relative",
        TOPIC,
        f"{RELATIVE}; {TUPE}",
        r"$\varphi(m, n) = p_m^T W_q^T W_k p_n$ ($d = 4$, $b = 10000$) at (0, 3), (5, 8), (10, 13): the same offset "
        "$m - n = -3$. The result states, in order, whether the term is translation invariant for a random integer "
        "$W_q^T W_k$ and for the identity.",
        claim=[False, True],
        compute=_counterexample,
        method="mpmath at {dps} digits",
        notes=(
            r"$W_q$ and $W_k$ are fixed $4 \times 4$ integer matrices (seeded); values agree to 40 digits for "
            r"the identity and differ in the first digits for the general matrix. A commuting "
            r"matrix (a scaled rotation per pair) in place of the random one gives a relative term."
        ),
        wrong=lambda dps: _counterexample(dps, commuting=True),
        formula=sp.Ne(sp.Function("phi")(0, 3), sp.Function("phi")(5, 8), evaluate=False),
    )


def claims() -> list:
    return [
        expansion(),
        rotation_commutant(),
        position_term_commuting(),
        position_term_general(),
        position_term_counterexample(),
    ]


# ---- the texts: the statements of the article and the RoPE note that this module's claims decide ---------------
# (symbolic.tables; the first number is the statement's place in the texts, the verdicts are V verified, C corrected,
# R holds on a range, X not checkable)


def _annotations() -> tuple[tables.Annotation, ...]:
    a, S = tables.in_article, tables.S
    V, C, R, X = tables.ANNOTATION_VERDICTS
    return (
        # Relative Positions
        a(500, S[13], "relates to \"Position 2 to Position 5.\"", "With absolute codes, positions 1 -> 4 and 2 -> 5 "
          "look different to the network.", V, "attention-position-term-not-relative", ((0,),), (False,),
          "p_m^T W_q^T W_k p_n changes with a shift for a general W_q^T W_k"),
        a(550, S[13], "it expands into four distinct terms", "q_m^T k_n with absolute positions expands into four "
          "terms (word-word, word-position, position-word, position-position).", V, "attention-four-term-expansion"),
        # Summary
        a(880, S[20], "doesn't actually change the relationship", "With absolute codes the network must learn that a "
          "shift changes no relation.", V, "attention-position-term-not-relative", ((0,),), (False,)),
    )  # fmt: skip


ANNOTATIONS = _annotations()
