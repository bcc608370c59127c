r"""The order problem and the first attempts at a position code ('Positional Encoding 101', first half).

Attention without position information is permutation equivariant: permuting the tokens permutes the outputs
and nothing else, so "dog bites man" and "man bites dog" give every word the same output row. A causal mask breaks
the equivariance but is no position code: the last token cannot tell the order of the tokens before it.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import mpmath
import sympy as sp
from posproof.symbolic import sources, tables
from posproof.symbolic.engine import settings
from posproof.symbolic.engine.core import Fact, Kernel, Step, Theorem
from posproof.symbolic.symbols import d_any as d

WHY = sources.article("Why Need Positional Encoding ?")
SUM = sources.article("So how can we fix this ?")

N = sp.Symbol("N", integer=True, positive=True)  # tokens
# d: width (symbolic.symbols.d_any)

pos = sp.Symbol("pos", real=True)

WORDS = ("dog", "bites", "man")

# ---- named symbols for the short statements (formula=) ---------------------------------------------------------
_P, _X = sp.MatrixSymbol("P", N, N), sp.MatrixSymbol("X", N, d)
ATTN_PX, ATTN_X = sp.MatrixSymbol("Attn(PX)", N, d), sp.MatrixSymbol("Attn(X)", N, d)
_out = sp.Function("o_2")  # the last token's output, as a function of the three inputs in order
_x = sp.symbols("x_0:3")
_code = sp.Function("p")  # a position code p(pos) or p(pos, N)
_flips, _trailing = sp.Function("flips"), sp.Function("t_1")  # bits changed from n to n + 1; trailing ones of n
_n = sp.Symbol("n", integer=True, nonnegative=True)


# ---- explicit attention on a few tokens (scores s_jk, values v_j as symbols) -----------------------------------


def scores(n: int) -> sp.ImmutableMatrix:
    r"""A generic ``n × n`` score matrix ``s_{jk} = x_j^T A x_k`` (any width, any ``A = W_q W_k^T/√d``)."""
    return sp.ImmutableMatrix(n, n, lambda j, k: sp.Symbol(f"s_{{{j}{k}}}", real=True))


def values(n: int) -> sp.ImmutableMatrix:
    r"""One column of values ``v_j`` (each column of ``X W_v`` behaves the same way)."""
    return sp.ImmutableMatrix(n, 1, lambda j, _: sp.Symbol(f"v_{j}", real=True))


def softmax_rows(S: sp.MatrixBase, causal: bool = False) -> sp.ImmutableMatrix:
    r"""Row-wise softmax ``exp(s_jk) / Σ_l exp(s_jl)``; with ``causal`` only ``k <= j`` take part."""
    n = S.shape[0]
    seen = lambda j, k: (k <= j) if causal else True  # noqa: E731

    def entry(j, k):
        if not seen(j, k):
            return sp.Integer(0)
        return sp.exp(S[j, k]) / sp.Add(*[sp.exp(S[j, l]) for l in range(n) if seen(j, l)])

    return sp.ImmutableMatrix(n, n, entry)


class Weight(Kernel):
    r"""An entry of a causal softmax matrix, displayed by name (``A_{jk}``, or ``A'_{jk}`` for the scores of the
    tokens in another order) instead of its fraction: args ``primed, j, k`` and row ``j``'s visible scores
    ``s_{j0}, ..., s_{jj}`` as the matrix holds them. ``doit()`` is ``exp(s_{jk}) / Σ_l exp(s_{jl})``; numerically
    the same quotient in mpmath."""

    @classmethod
    def numeric(cls, primed, j, k, *row):
        return mpmath.exp(row[int(k)]) / mpmath.fsum(mpmath.exp(s) for s in row)

    def doit(self, **hints):
        _, _, k, *row = self.args
        return sp.exp(row[int(k)]) / sp.Add(*[sp.exp(s) for s in row])

    def _name(self) -> str:
        primed, j, k = self.args[:3]
        return "A%s_{%s%s}" % ("'" if primed else "", j, k)

    def _latex(self, printer, exp=None):
        return self._name() if exp is None else r"\left(%s\right)^{%s}" % (self._name(), exp)

    def _sympystr(self, printer):
        return self._name().replace("{", "").replace("}", "")


def weights_row(S: sp.MatrixBase, j: int, primed: bool = False) -> list:
    r"""Row ``j`` of ``softmax(S)`` under the causal mask as named :class:`Weight`\ s ``A_{j0}, ..., A_{jj}``."""
    row = [S[j, l] for l in range(j + 1)]
    return [Weight(int(primed), j, k, *row) for k in range(j + 1)]


def permutation_matrix(sigma) -> sp.ImmutableMatrix:
    r"""``P`` with ``(P X)_j = X_{σ(j)}``."""
    n = len(sigma)
    return sp.ImmutableMatrix(n, n, lambda j, k: 1 if sigma[j] == k else 0)


def _unevaluated(*factors):
    return sp.MatMul(*factors, evaluate=False)


# ---- identities -------------------------------------------------------------------------------------------------


def scores_permute() -> Theorem:
    P = sp.MatrixSymbol("P", N, N)
    X = sp.MatrixSymbol("X", N, d)
    A = sp.MatrixSymbol("A", d, d)
    return Theorem(
        "order-scores-permute",
        "Permuting the tokens permutes the rows and columns of the score matrix: $(PX)A(PX)^T = P(X A X^T)P^T$",
        "order",
        sources.SELF_ATTENTION,
        (
            Step(
                _unevaluated(_unevaluated(P, X), A, sp.Transpose(_unevaluated(P, X))),
                _unevaluated(P, _unevaluated(X, A, sp.Transpose(X)), sp.Transpose(P)),
                "$(PX)^T = X^T P^T$",
                ("doit", "expand"),
            ),
        ),
        assumptions=(
            r"$X$: $N$ tokens $\times d$, $A = W_q W_k^T / \sqrt{d}$",
            r"$P$ any $N \times N$ matrix (a permutation in use)",
        ),
        formula=sp.Eq(
            _unevaluated(_unevaluated(P, X), A, sp.Transpose(_unevaluated(P, X))),
            _unevaluated(P, _unevaluated(X, A, sp.Transpose(X)), sp.Transpose(P)),
            evaluate=False,
        ),
        sizes={N: (2, 3), d: (1, 2)},
        wrong=P * (X * A * X.T),
    )


def permutation_equivariance() -> Theorem:
    from posproof.symbolic.engine.domains import Domain
    from posproof.symbolic.engine.permutation import PermutationMap
    from posproof.symbolic.lemmas import SOFTMAX_PERMUTATION

    i, c = sp.Symbol("i", integer=True, nonnegative=True), sp.Symbol("c", integer=True, nonnegative=True)
    j, k = sp.Symbol("j", integer=True, nonnegative=True), sp.Symbol("k", integer=True, nonnegative=True)
    s = sp.IndexedBase("s", real=True)  # scores s_jk = x_j^T A x_k of the tokens in the original order
    v = sp.IndexedBase("v", real=True)  # values, v_{j c} = (X W_v)_{j c}

    def pi(x):
        return PermutationMap(N, x)

    def softmax(row, col, index):  # softmax(S)_{row col}, S's columns read through index(k)
        return sp.exp(s[row, col]) / sp.Sum(sp.exp(s[row, index(k)]), (k, 0, N - 1))

    w = sp.Dummy("w")  # the context's hole: where the lemma's instance goes

    def out(weight):  # sum_j weight(j) v_{., c}: one output entry
        return sp.Sum(weight(j), (j, 0, N - 1))

    permuted = out(lambda j_: softmax(pi(i), pi(j_), pi) * v[pi(j_), c])  # Attn(PX)_{ic}
    reindexed = out(lambda j_: softmax(pi(i), pi(j_), lambda k_: k_) * v[pi(j_), c])
    original = out(lambda j_: softmax(pi(i), j_, lambda k_: k_) * v[j_, c])  # Attn(X)_{pi(i) c} = (P Attn(X))_{ic}
    return Theorem(
        "order-permutation-equivariance",
        r"For any number of tokens $N$ and every permutation: $\mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)$ (without "
        "position information, 'man bites dog' and 'dog bites man' give every word the same output)",
        "order",
        f"{sources.SELF_ATTENTION}; {WHY}",
        (
            SOFTMAX_PERMUTATION.cite(
                {"n": N, "s": sp.Lambda((j, k), s[j, k]), "i": i, "j": j},
                r"row-wise softmax commutes with permuting rows and columns together (lemma, for every $N$)",
                context=sp.Lambda(w, out(lambda j_: w * v[pi(j_), c])),  # the sum over j binds the lemma's j
                lhs=permuted,
                rhs=reindexed,
            ),
            Step(
                reindexed,
                original,
                r"the sum over the tokens $j$ in another order: re-index $j \to \pi(j)$",
                ("reindex",),
            ),
        ),
        assumptions=(
            r"$N \ge 1$ tokens; scores $s_{jk} = x_j^T A x_k$ for any width and any $A = W_q W_k^T / \sqrt{d}$, values "
            r"$v_{jc} = (X W_v)_{jc}$; $P$ the permutation matrix of $\pi$: $(PX)_i = x_{\pi(i)}$, so the permuted "
            r"tokens score $s_{\pi(i) \pi(j)}$ ([[claim:order-scores-permute]])",
            r"output row $i \in \{0, \dots, N - 1\}$, channel $c$",
        ),
        formula=sp.Eq(ATTN_PX, _P * ATTN_X, evaluate=False),
        sizes={N: (1, 2, 3, 5)},
        domains={"i": Domain("integer", 0, N - 1), "c": Domain("integer", 0, 3)},
        notes="[[claim:order-equivariance-all-permutations]] checks every permutation of 3 and 4 tokens on "
        "explicit matrices; "
        "the lemma rests on the commutative law of finite sums, the one fact the engine knows "
        "about a permutation. The lemma is proved once, in symbolic/lemmas.py. "
        "With the output rows left unpermuted the identity fails.",
        wrong=out(lambda j_: softmax(i, j_, lambda k_: k_) * v[j_, c]),
    )


def causal_prefix_invariance() -> Theorem:
    S, V = scores(3), values(3)
    P = permutation_matrix((1, 0, 2))  # "dog bites man" -> "bites dog man"

    def out(S_, V_, row=2, primed=False):  # a token's output: its softmax weights (named) times the values
        A = weights_row(S_, row, primed)
        return sp.Add(*[sp.Mul(A[k], V_[k], evaluate=False) for k in range(row + 1)], evaluate=False)

    return Theorem(
        "order-causal-mask-no-position",
        "With a causal mask, the last of three tokens gets the same output whatever the order of the two before "
        "it (one attention layer, no position code)",
        "order",
        f"{sources.SELF_ATTENTION}; {sources.note('Position rules affect context extension')}",
        (
            Step(
                out(P * S * P.T, P * V, primed=True),
                out(S, V),
                r"the swapped row $(P S P^T)_{2k} = s_{2 \pi(k)}$ holds the same three scores, so $A'_{2k} = "
                r"A_{2 \pi(k)}$: the mask shows 'man' both earlier tokens, and their sum is unordered",
                ("unfold", "expand"),
            ),
        ),
        assumptions=(
            r"three tokens, causal mask: token $j$ reads tokens $k \le j$; one attention layer",
            r"$A = \operatorname{softmax}(S)$ under the mask, $S$ the $3 \times 3$ scores $s_{jk}$; the last row: "
            r"$A_{2k} = e^{s_{2k}} / (e^{s_{20}} + e^{s_{21}} + e^{s_{22}})$",
            r"$A'$ the same for the order 'bites dog man': scores $P S P^T$ and values $P v$, "
            r"$P$ swapping tokens 0 and 1 ($\pi = (1, 0, 2)$)",
        ),
        formula=sp.Eq(_out(_x[1], _x[0], _x[2]), _out(_x[0], _x[1], _x[2]), evaluate=False),
        notes="The mask breaks equivariance ([[claim:order-dog-bites-man]]), yet 'dog bites man' and 'bites dog "
        "man' give "
        "'man' the same output: position information and a causal mask do different jobs (the RoPE note).",
        wrong=out(S, V, row=1),  # the middle token's output: it does see the order
    )


def sum_is_tied_concat() -> Theorem:
    W = sp.MatrixSymbol("W", d, d)
    x = sp.MatrixSymbol("x", d, 1)
    p = sp.MatrixSymbol("p", d, 1)
    concat = sp.BlockMatrix([[W, W]]) * sp.BlockMatrix([[x], [p]])
    return Theorem(
        "order-sum-is-tied-concat",
        "Adding the position equals concatenating it and projecting with tied blocks $[W\\; W]$",
        "order",
        sources.article("So how can we fix this ?"),
        (
            Step(concat, W * x + W * p, "block multiplication", ("block_collapse", "expand")),
            Step(W * x + W * p, W * (x + p), "distributivity", ("expand",)),
        ),
        sizes={d: (2, 3)},
        wrong=W * x,
        formula=sp.Eq(concat, W * (x + p), evaluate=False),
    )


def parameter_count() -> Theorem:
    concat = sp.Mul(2 * d, d, evaluate=False)
    added = sp.Mul(d, d, evaluate=False)
    return Theorem(
        "order-sum-vs-concat-parameters",
        r"The next projection has $d \cdot d$ weights after a sum and $2d \cdot d$ after a concatenation: $d^2$ more",
        "order",
        SUM,
        (Step(concat - added, d**2, r"$(2d) \cdot d - d \cdot d$", ("expand",)),),
        wrong=d,
        formula=sp.Eq(sp.Symbol("N_{concat}") - sp.Symbol("N_{sum}"), d**2, evaluate=False),
    )


def counting_norm() -> Theorem:
    j = sp.Symbol("j", integer=True, nonnegative=True)
    return Theorem(
        "counting-unbounded",
        r"Counting code $p_{\mathrm{pos}} = \mathrm{pos} \cdot (1, \dots, 1)$: "
        r"$|p_{\mathrm{pos}}|^2 = d \cdot \mathrm{pos}^2$, which grows without bound with pos",
        "order",
        sources.article(FAILED_COUNTING),
        (Step(sp.Sum(pos**2, (j, 0, d - 1)), d * pos**2, "$d$ equal components", ("doit",)),),
        sizes={d: (1, 4, 7)},
        wrong=d * pos,
        formula=sp.Eq(sp.Sum(pos**2, (j, 0, d - 1)), d * pos**2, evaluate=False),
    )


# ---- facts ---------------------------------------------------------------------------------------------------------

FAILED_COUNTING = "1. The Simple Counting Method (Option 1)"
FAILED_NORMALIZED = "2. The Normalized Counting Method (Option 2)"
FAILED_BINARY = "3. The Binary Breakthrough"


def _is_zero(entry) -> bool:
    r"""Whether a rational function of the ``exp(s_jk)`` and ``v_j`` is 0: over one common denominator (a product of
    sums of exponentials, never 0) its numerator expands to the zero polynomial. Exact, and cheaper than cancel (no
    gcd is needed to decide 0)."""
    return sp.expand(sp.fraction(sp.together(entry))[0]) == 0


def _equivariant_permutations(dps, scramble_columns: bool = True):
    value, table = {}, []
    for n in (3, 4):
        S, V = scores(n), values(n)
        ok = 0
        perms = list(itertools.permutations(range(n)))
        for sigma in perms:
            P = permutation_matrix(sigma)
            permuted = P * S * P.T if scramble_columns else P * S  # wrong: rows permuted, columns left alone
            diff = softmax_rows(permuted) * (P * V) - P * (softmax_rows(S) * V)
            ok += all(_is_zero(entry) for entry in diff)  # the zero matrix
        value[str(n)] = f"{ok}/{len(perms)}"
        table.append((f"{n} tokens: permutations with Attn(PX) - P·Attn(X) = 0 (exact)", value[str(n)]))
    return value, table


def all_permutations() -> Fact:
    return Fact(
        "order-equivariance-all-permutations",
        r"$\mathrm{Attn}(PX) = P\,\mathrm{Attn}(X)$ for every permutation of 3 and of 4 tokens",
        "order",
        sources.SELF_ATTENTION,
        r"For each permutation $P$ the difference $\mathrm{Attn}(PX) - P\,\mathrm{Attn}(X)$, with generic scores "
        r"$s_{jk}$ and values $v_j$ (the scores of $PX$ are $P S P^T$), is the zero matrix: over a common "
        "denominator every entry's numerator expands to 0 (exact rational-function arithmetic).",
        {"3": "6/6", "4": "24/24"},
        _equivariant_permutations,
        method="SymPy together and expand: each numerator over a common denominator is 0 (exact rational functions of "
        "exp(s_jk) and v_j)",
        wrong=lambda dps: _equivariant_permutations(dps, scramble_columns=False),
        formula=sp.Eq(ATTN_PX, _P * ATTN_X, evaluate=False),
    )


def _attention_rows(order, causal, with_positions: bool = False):
    r"""Outputs of one attention head for the words in ``order`` (seeded embeddings, width 4)."""
    rng = random.Random(2017)
    width = 4
    rand = lambda: mpmath.mpf(rng.uniform(-1, 1))  # noqa: E731
    emb = {w: [rand() for _ in range(width)] for w in WORDS}
    Wq, Wk, Wv = ([[rand() for _ in range(width)] for _ in range(width)] for _ in range(3))
    proj = lambda W, x: [mpmath.fsum(W[r][c] * x[c] for c in range(width)) for r in range(width)]  # noqa: E731
    if with_positions:  # the sinusoidal code added at the input (the wrong computation for this fact)
        th = [mpmath.mpf(10000) ** (-mpmath.mpf(2 * i) / width) for i in range(width // 2)]
        code = lambda p: [f(p * t) for t in th for f in (mpmath.sin, mpmath.cos)]  # noqa: E731
        inputs = [[a + b for a, b in zip(emb[w], code(p), strict=True)] for p, w in enumerate(order)]
    else:
        inputs = [emb[w] for w in order]
    q = [proj(Wq, x) for x in inputs]
    k = [proj(Wk, x) for x in inputs]
    v = [proj(Wv, x) for x in inputs]
    rows = {}
    for j, w in enumerate(order):
        seen = range(j + 1) if causal else range(len(order))
        logits = [mpmath.fsum(a * b for a, b in zip(q[j], k[l], strict=True)) / mpmath.sqrt(width) for l in seen]
        weights = [mpmath.exp(s) for s in logits]
        total = mpmath.fsum(weights)
        rows[w] = [mpmath.fsum(weights[a] * v[l][c] for a, l in enumerate(seen)) / total for c in range(width)]
    return rows


def _dog_bites_man(dps, with_positions: bool = False):
    tol = settings.rel_tol(dps)
    value, table = {}, []
    for causal in (False, True):
        a = _attention_rows(("dog", "bites", "man"), causal, with_positions)
        b = _attention_rows(("man", "bites", "dog"), causal, with_positions)
        gap = max(abs(x - y) for w in WORDS for x, y in zip(a[w], b[w], strict=True))
        key = "causal" if causal else "no mask"
        value[key] = "same output per word" if gap <= tol else "outputs differ"
        table.append((f"{key}: largest gap between the two sentences' outputs, " + r"$\max_w |o(w) - o'(w)|$", gap))
    return value, table


def dog_bites_man() -> Fact:
    return Fact(
        "order-dog-bites-man",
        "'Dog bites man' and 'man bites dog' give every word the same attention output, unless a causal mask is used",
        "order",
        f"{WHY}; {sources.SELF_ATTENTION}",
        "One attention head (width 4, seeded random embeddings and weights, no position code): without a mask each "
        "word's output is identical in both sentences to the working precision; with a causal mask it is not (the "
        "mask breaks equivariance; [[claim:order-causal-mask-no-position]] shows what it still cannot see).",
        {"no mask": "same output per word", "causal": "outputs differ"},
        _dog_bites_man,
        method="mpmath at {dps} digits",
        wrong=lambda dps: _dog_bites_man(dps, with_positions=True),
        formula=sp.Eq(ATTN_PX, _P * ATTN_X, evaluate=False),
        notes="With a sinusoidal position code added at the input the sentences differ.",
    )


def counting_code(n_words: int, d_model: int = 4, first: int = 0) -> list[list[int]]:
    r"""The counting code of a sentence of ``n_words``: ``p_pos = pos·(1, ..., 1)`` for ``pos = first ..``."""
    return [[p] * d_model for p in range(first, first + n_words)]


def _counting_examples(dps, first: int = 0):
    last3, last30 = counting_code(3, first=first)[-1], counting_code(30, first=first)[-1]
    # |p_29| / |unit embedding| = sqrt(4 · 29^2) / 1, exactly
    ratio = mpmath.sqrt(mpmath.fsum(c * c for c in counting_code(30, first=first)[29]))
    value = {
        "last of 3 words": last3,
        "last of 30 words": last30,
        r"$|p_{29}|$ over a unit embedding's norm": mpmath.nstr(ratio, 6),
    }
    return value, list(value.items())


def counting_examples() -> Fact:
    return Fact(
        "counting-article-examples",
        "Counting code, the article's examples with 0-based positions",
        "order",
        sources.article(FAILED_COUNTING),
        "With position 0 = [0,0,0,0] (as the article sets it), a 3-word sentence ends at [2,2,2,2] and a 30-word one "
        "at [29,29,29,29] (the article says [3,3,3,3] and [30,...]: off by one). The position vector at 29 is 58 "
        "times longer than a unit-norm word embedding: the position swamps the meaning.",
        {
            "last of 3 words": [2, 2, 2, 2],
            "last of 30 words": [29, 29, 29, 29],
            r"$|p_{29}|$ over a unit embedding's norm": "58.0",
        },
        _counting_examples,
        method="exact integer arithmetic (the counting code of each sentence), mpmath for the norm",
        wrong=lambda dps: _counting_examples(dps, first=1),
        formula=(
            sp.Eq(_code(2), sp.ImmutableMatrix([[2, 2, 2, 2]]), evaluate=False),
            sp.Eq(_code(29), sp.ImmutableMatrix([[29, 29, 29, 29]]), evaluate=False),
        ),
        notes="Counting from 1, as the article's examples do, gives other values.",
    )


def _normalized(dps, denominators=None):
    denominators = denominators or {r"$\mathrm{pos}/(N-1)$": lambda N_: N_ - 1, r"$\mathrm{pos}/N$": lambda N_: N_}
    value = {}
    for name, denom in denominators.items():
        p1 = {N_: Fraction(1, denom(N_)) for N_ in (4, 5)}
        value[name] = {
            "$p_1$, $N = 4$": str(p1[4]),
            "$p_1$, $N = 5$": str(p1[5]),
            "last word, $N = 5$": str(Fraction(4, denom(5))),
            "$p_1$ depends on $N$": p1[4] != p1[5],
        }
    table = [(f"{name}: {k}", v) for name, row in value.items() for k, v in row.items()]
    return value, table


def normalized_counting() -> Fact:
    return Fact(
        "normalized-counting-length-dependent",
        "Normalized counting: 'position 1' gets a different vector for every sequence length $N$",
        "order",
        sources.article(FAILED_NORMALIZED),
        "The article's 0.33 for $N = 4$ is $1/(N-1)$ and its 0.20 for $N = 5$ is $1/N$: two different conventions. "
        r"Under $\mathrm{pos}/(N-1)$ the last word is 1 but $p_1$ is 1/3 vs 1/4; under $\mathrm{pos}/N$ $p_1$ is 1/4 "
        "vs 1/5 and the last word is not 1. Either way $p_1$ depends on $N$: the counterexample stands.",
        {
            r"$\mathrm{pos}/(N-1)$": {
                "$p_1$, $N = 4$": "1/3",
                "$p_1$, $N = 5$": "1/4",
                "last word, $N = 5$": "1",
                "$p_1$ depends on $N$": True,
            },
            r"$\mathrm{pos}/N$": {
                "$p_1$, $N = 4$": "1/4",
                "$p_1$, $N = 5$": "1/5",
                "last word, $N = 5$": "4/5",
                "$p_1$ depends on $N$": True,
            },
        },
        _normalized,
        method="exact rationals (Python fractions)",
        wrong=lambda dps: _normalized(
            dps, {r"$\mathrm{pos}/(N-1)$": lambda N_: N_ - 1, r"$\mathrm{pos}/N$": lambda N_: N_ - 1}
        ),
        formula=sp.Ne(_code(1, 4), _code(1, 5), evaluate=False),
        notes=r"Using $\mathrm{pos}/(N - 1)$ for both of the article's examples gives other values for "
        r"$\mathrm{pos}/N$.",
    )


def _binary_flips(dps, flips_of=lambda n: bin(n ^ (n + 1)).count("1")):
    flips = {n_: flips_of(n_) for n_ in range(255)}  # bits that change from n to n+1 (8 bits)
    value = {
        "0->1": flips[0],
        "1->2": flips[1],
        "3->4": flips[3],
        "7->8": flips[7],
        "127->128": flips[127],
        "distinct step sizes": sorted(set(flips.values())),
    }
    return value, list(value.items())


def binary_flips() -> Fact:
    return Fact(
        "binary-neighbour-flips",
        "Binary codes: neighbours differ by a varying number of bits",
        "order",
        sources.article(FAILED_BINARY),
        "For 8-bit codes of 0..255 the number of bits flipped from $n$ to $n+1$ is 1 + (trailing ones of $n$): 1 "
        r"for $0 \to 1$, 4 for $7 \to 8$, 8 for $127 \to 128$, so the Euclidean step between neighbours varies from "
        r"1 to $\sqrt{8}$ (compare `sinusoidal-neighbour-distance`: constant for the sinusoidal code).",
        {"0->1": 1, "1->2": 2, "3->4": 3, "7->8": 4, "127->128": 8, "distinct step sizes": [1, 2, 3, 4, 5, 6, 7, 8]},
        _binary_flips,
        method="exact integer arithmetic (popcount of n XOR (n + 1))",
        wrong=lambda dps: _binary_flips(dps, flips_of=lambda n: bin(n).count("1")),
        formula=sp.Eq(_flips(_n), 1 + _trailing(_n), evaluate=False),
        notes="Counting the ones of $n$ instead of the bits that change gives other values.",
    )


def claims() -> list:
    return [
        scores_permute(),
        permutation_equivariance(),
        all_permutations(),
        dog_bites_man(),
        causal_prefix_invariance(),
        sum_is_tied_concat(),
        parameter_count(),
        counting_norm(),
        counting_examples(),
        normalized_counting(),
        binary_flips(),
    ]


# ---- the rules table: no position code (symbolic.tables) -------------------------------------------------------

RULES_ROWS = (
    tables.Row(
        200,
        "no position code",
        tables.phi(sp.MatMul(tables.vec("x_a").T, sp.MatrixSymbol("A", tables.d, tables.d), tables.vec("x_b"))),
        (
            tables.Cell("order-scores-permute", "fails", note=r"$\varphi$ does not depend on $m$, $n$"),
            tables.Cell("order-scores-permute", "holds"),
            tables.Cell("order-scores-permute", "holds"),
        ),
        tables.Length.nothing("order-scores-permute"),
    ),
)


# ---- the texts: the statements of the article and the RoPE note that this module's claims decide ---------------
# (symbolic.tables; the first number is the statement's place in the texts, the verdicts are V verified, C corrected,
# R holds on a range, X not checkable)


def _annotations() -> tuple[tables.Annotation, ...]:
    a, n, S, T = tables.in_article, tables.in_note, tables.S, tables.T
    V, C, R, X = tables.ANNOTATION_VERDICTS
    return (
        # Why Need Positional Encoding ?
        a(10, S[0], "The dog chased the pig", "Self-attention alone cannot tell 'The dog chased the pig' from 'The pig "
          "chased the dog'.", V, "order-dog-bites-man", ("no mask",), ("same output per word",),
          "without a mask each word gets the same output in both orders"),
        # So how can we fix this ?
        a(20, S[1], "These two vectors are summed together", "A position vector of the embedding's width is added to "
          "each word embedding.", V, "order-sum-is-tied-concat", note="adding equals concatenating and projecting with "
          "tied blocks [W W]"),
        a(30, S[1], "heavily reduces the parameter count", "Summing instead of concatenating keeps the width and saves "
          "parameters in later layers.", V, "order-sum-vs-concat-parameters", note="d² fewer weights in each following "
          "d-wide projection"),
        # 1. The Simple Counting Method (Option 1)
        a(50, S[2], "numbers grow unbounded", "Counting gives position pos the vector pos·(1, 1, 1, 1); the numbers "
          "grow without bound.", V, "counting-unbounded"),
        a(60, S[2], "the final embedding is [3,3,3,3]", "A 3-word sentence ends at [3,3,3,3], a 30-word one at "
          "[30,30,30,30].", C, "counting-article-examples", ("last of 3 words", "last of 30 words"),
          ([3, 3, 3, 3], [30, 30, 30, 30]), "with position 0 = [0,0,0,0], as the article sets it, positions run 0 .. "
          "N-1"),
        # 2. The Normalized Counting Method (Option 2)
        a(70, S[3], "always encoded as [1,1,1,1]", "Dividing by the length puts the last word at [1,1,1,1] for every "
          "length.", R, "normalized-counting-length-dependent", ((r"$\mathrm{pos}/(N-1)$", "last word, $N = 5$"),
          (r"$\mathrm{pos}/N$", "last word, $N = 5$")), note="only when dividing by N - 1; dividing by N, as the next "
          "example does, the last word is (N-1)/N"),
        a(80, S[3], "[0.33, 0.33, 0.33, 0.33]", "Position 1 is 0.33 for N = 4 and 0.20 for N = 5.", C,
          "normalized-counting-length-dependent", ((r"$\mathrm{pos}/(N-1)$", "$p_1$, $N = 5$"),
          (r"$\mathrm{pos}/N$", "$p_1$, $N = 4$")), ("1/5", "1/3"), "0.33 is 1/(N-1) and 0.20 is 1/N: one convention "
          "gives 1/3 and 1/4, the other 1/4 and 1/5"),
        a(90, S[3], "dependent on the sequence length", "So the code of position 1 depends on the sequence length.", V,
          "normalized-counting-length-dependent", ((r"$\mathrm{pos}/(N-1)$", "$p_1$ depends on $N$"),
          (r"$\mathrm{pos}/N$", "$p_1$ depends on $N$")), (True, True)),
        # 3. The Binary Breakthrough
        a(110, S[4], "doesn't work well mathematically", "Rigid binary 0s and 1s do not work well as a position code.",
          V, "binary-neighbour-flips", ("distinct step sizes",), note="what can be checked: neighbours differ by 1 to "
          "8 bits, and binary codes break monotonicity and translation invariance ([[claim:properties-binary-rules]])"),
        # The Right Graph: The Problem with Distant Words
        a(410, S[10], "the sentence becomes \"Man bites dog\"", "Without positions 'Dog bites man' and 'Man bites dog' "
          "cannot be told apart.", V, "order-dog-bites-man", ("no mask",), ("same output per word",)),
        # Postional Encoding vs Word Embedding
        a(430, S[11], "Equation used : $e'_w = e_w +", "The combined vector is the word embedding plus the position "
          "vector.", V, "order-sum-is-tied-concat"),
        # Summary
        a(830, S[20], "naturally blind to sequence order", "Self-attention is blind to order: 'Dog bites man' = 'Man "
          "bites dog'.", V, "order-permutation-equivariance"),
        a(840, S[20], "normalizing counts (0.1, 0.2, 0.3)", "Counting and normalized counting fail: unbounded growth "
          "or length-dependent vectors.", V, "normalized-counting-length-dependent",
          ((r"$\mathrm{pos}/(N-1)$", "$p_1$ depends on $N$"),), (True,), "and counting grows without bound "
          "([[claim:counting-unbounded]])"),
        # the RoPE note: Positional encoding: give tokens a sense of order
        n(980, T[0], "cannot distinguish all the arrangements", "Without order information attention cannot tell "
          "arrangements apart.", V, "order-equivariance-all-permutations", ("3", "4"), ("6/6", "24/24"),
          "every permutation of 3 and 4 tokens only permutes the outputs"),
        # the RoPE note: Position rules affect context extension
        n(1090, T[2], "Position information and a causal mask do different jobs", "Position information orders; the "
          "mask only controls which positions are read.", V, "order-causal-mask-no-position"),
    )  # fmt: skip


ANNOTATIONS = _annotations()
