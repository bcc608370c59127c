r"""The order problem and the first attempts at a position code ("Positional Encoding 101", first half).

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

from .core import Fact, Identity, Step

SEED = "seed 000 'Positional Encoding 101'"
REF_ORDER = "REFERENCES.md, 'The order problem'"

N = sp.Symbol("N", integer=True, positive=True)  # tokens
d = sp.Symbol("d", integer=True, positive=True)  # width
pos = sp.Symbol("pos", real=True)

WORDS = ("dog", "bites", "man")


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
    return sp.ImmutableMatrix(
        n,
        n,
        lambda j, k: (
            sp.exp(S[j, k]) / sp.Add(*[sp.exp(S[j, l]) for l in range(n) if seen(j, l)])
            if seen(j, k)
            else sp.Integer(0)
        ),
    )


def permutation_matrix(sigma) -> sp.ImmutableMatrix:
    r"""``P`` with ``(P X)_j = X_{σ(j)}``."""
    n = len(sigma)
    return sp.ImmutableMatrix(n, n, lambda j, k: 1 if sigma[j] == k else 0)


def _unevaluated(*factors):
    return sp.MatMul(*factors, evaluate=False)


# ---- identities -------------------------------------------------------------------------------------------------


def scores_permute() -> Identity:
    P = sp.MatrixSymbol("P", N, N)
    X = sp.MatrixSymbol("X", N, d)
    A = sp.MatrixSymbol("A", d, d)
    return Identity(
        "order-scores-permute",
        "Permuting the tokens permutes the rows and columns of the score matrix",
        "order",
        REF_ORDER,
        (Step((P * X) * A * (P * X).T, P * (X * A * X.T) * P.T, "(PX)^T = X^T P^T", ("doit", "expand")),),
        assumptions=("X: N tokens × d, A = W_q W_k^T / √d", "P any N × N matrix (a permutation in use)"),
        sizes={N: (2, 3), d: (2, 3)},
        wrong=P * (X * A * X.T),
    )


def permutation_equivariance() -> Identity:
    S, V = scores(3), values(3)
    P = permutation_matrix((2, 1, 0))  # "dog bites man" -> "man bites dog"
    lhs = _unevaluated(softmax_rows(P * S * P.T), P, V)
    rhs = _unevaluated(P, softmax_rows(S), V)
    return Identity(
        "order-permutation-equivariance",
        "Attention is permutation equivariant: Attn(PX) = P·Attn(X) ('man bites dog' vs 'dog bites man')",
        "order",
        f"{REF_ORDER}; {SEED}, 'Why Need Positional Encoding'",
        (
            Step(
                softmax_rows(P * S * P.T),
                _unevaluated(P, softmax_rows(S), P.T),
                "row-wise softmax commutes with permuting rows and columns together",
                ("doit",),
            ),
            Step(_unevaluated(P.T, P), sp.eye(3), "a permutation matrix is orthogonal", ("doit",)),
        ),
        lhs=lhs,
        rhs=rhs,
        strategy=("doit",),
        assumptions=(
            "three tokens: s_jk = x_j^T A x_k for any width and any A (see order-scores-permute)",
            "P reverses the order; order-equivariance-all-permutations checks every P for 3 and 4 tokens",
        ),
        wrong=_unevaluated(softmax_rows(S), V),
    )


def causal_prefix_invariance() -> Identity:
    S, V = scores(3), values(3)
    P = permutation_matrix((1, 0, 2))  # "dog bites man" -> "bites dog man"
    out = lambda S_, V_: (softmax_rows(S_, causal=True) * V_)[2]  # noqa: E731 - the last token's output
    return Identity(
        "order-causal-mask-no-position",
        "A causal mask is no position code: the last token's output ignores the order of the tokens before it",
        "order",
        f"{REF_ORDER}; seed 003, 'Position information and a causal mask do different jobs'",
        (
            Step(
                out(P * S * P.T, P * V),
                out(S, V),
                "the mask shows 'man' both earlier tokens; their sum is unordered",
                ("expand",),
            ),
        ),
        assumptions=("three tokens, causal mask: token j reads tokens k <= j",),
        notes="The mask breaks equivariance (order-dog-bites-man), yet 'dog bites man' and 'bites dog man' give "
        "'man' the same output.",
        wrong=(softmax_rows(S, causal=True) * V)[1],
    )


def sum_is_tied_concat() -> Identity:
    W = sp.MatrixSymbol("W", d, d)
    x = sp.MatrixSymbol("x", d, 1)
    p = sp.MatrixSymbol("p", d, 1)
    concat = sp.BlockMatrix([[W, W]]) * sp.BlockMatrix([[x], [p]])
    return Identity(
        "order-sum-is-tied-concat",
        "Adding the position equals concatenating it and projecting with tied blocks [W W]",
        "order",
        f"{SEED}, 'Why sum instead of concatenate'",
        (
            Step(concat, W * x + W * p, "block multiplication", ("block_collapse", "expand")),
            Step(W * x + W * p, W * (x + p), "distributivity", ("expand",)),
        ),
        sizes={d: (2, 3)},
        wrong=W * x,
    )


def parameter_count() -> Identity:
    concat = sp.Mul(2 * d, d, evaluate=False)
    added = sp.Mul(d, d, evaluate=False)
    return Identity(
        "order-sum-vs-concat-parameters",
        "The next projection has d·d weights after a sum and 2d·d after a concatenation: d² more",
        "order",
        f"{SEED}, 'Why sum instead of concatenate'",
        (Step(concat - added, d**2, "(2d)·d - d·d", ("expand",)),),
        sizes={},
        wrong=d,
    )


def counting_norm() -> Identity:
    j = sp.Symbol("j", integer=True, nonnegative=True)
    return Identity(
        "counting-unbounded",
        "Counting code p_pos = pos·(1, ..., 1): |p_pos|² = d·pos², unbounded",
        "order",
        f"{SEED}, 'The Simple Counting Method'",
        (Step(sp.Sum(pos**2, (j, 0, d - 1)), d * pos**2, "d equal components", ("doit",)),),
        sizes={d: (1, 4, 7)},
        wrong=d * pos,
    )


# ---- facts ---------------------------------------------------------------------------------------------------------


def all_permutations() -> Fact:
    def compute(dps):
        value, table = {}, []
        for n in (3, 4):
            S, V = scores(n), values(n)
            ok = 0
            perms = list(itertools.permutations(range(n)))
            for sigma in perms:
                P = permutation_matrix(sigma)
                diff = (softmax_rows(P * S * P.T) * (P * V) - P * (softmax_rows(S) * V)).applyfunc(sp.cancel)
                ok += diff.is_zero_matrix is True
            value[str(n)] = f"{ok}/{len(perms)}"
            table.append((f"{n} tokens: permutations with Attn(PX) - P·Attn(X) = 0 (cancel)", value[str(n)]))
        return value, table

    return Fact(
        "order-equivariance-all-permutations",
        "Attn(PX) = P·Attn(X) for every permutation of 3 and of 4 tokens, symbolically",
        "order",
        REF_ORDER,
        "For each permutation the difference Attn(PX) - P·Attn(X), with generic scores s_jk and values v_j, "
        "reduces to the zero matrix by cancel.",
        {"3": "6/6", "4": "24/24"},
        compute,
        wrong={"3": "6/6", "4": "23/24"},
    )


def _attention_rows(order, causal):
    r"""Outputs of one attention head for the words in ``order`` (seeded embeddings, width 4)."""
    rng = random.Random(2017)
    width = 4
    rand = lambda: mpmath.mpf(rng.uniform(-1, 1))  # noqa: E731
    emb = {w: [rand() for _ in range(width)] for w in WORDS}
    Wq, Wk, Wv = ([[rand() for _ in range(width)] for _ in range(width)] for _ in range(3))
    proj = lambda W, x: [mpmath.fsum(W[r][c] * x[c] for c in range(width)) for r in range(width)]  # noqa: E731
    q = [proj(Wq, emb[w]) for w in order]
    k = [proj(Wk, emb[w]) for w in order]
    v = [proj(Wv, emb[w]) for w in order]
    rows = {}
    for j, w in enumerate(order):
        seen = range(j + 1) if causal else range(len(order))
        logits = [mpmath.fsum(a * b for a, b in zip(q[j], k[l], strict=True)) / mpmath.sqrt(width) for l in seen]
        weights = [mpmath.exp(s) for s in logits]
        total = mpmath.fsum(weights)
        rows[w] = [mpmath.fsum(weights[a] * v[l][c] for a, l in enumerate(seen)) / total for c in range(width)]
    return rows


def dog_bites_man() -> Fact:
    def compute(dps):
        tol = mpmath.mpf(10) ** -(dps - 10)
        value, table = {}, []
        for causal in (False, True):
            a = _attention_rows(("dog", "bites", "man"), causal)
            b = _attention_rows(("man", "bites", "dog"), causal)
            gap = max(abs(x - y) for w in WORDS for x, y in zip(a[w], b[w], strict=True))
            key = "causal" if causal else "no mask"
            value[key] = "same output per word" if gap <= tol else "outputs differ"
            table.append((f"{key}: max |out_dog-bites-man(w) - out_man-bites-dog(w)|", gap))
        return value, table

    return Fact(
        "order-dog-bites-man",
        "'Dog bites man' and 'man bites dog' give every word the same attention output, unless a causal mask is used",
        "order",
        f"{SEED}, summary; {REF_ORDER}",
        "One attention head (width 4, seeded random embeddings and weights, no position code) at the given "
        "precision: without a mask each word's output is identical in both sentences; with a causal mask it is not "
        "(the mask breaks equivariance, see order-causal-mask-no-position for what it still cannot see).",
        {"no mask": "same output per word", "causal": "outputs differ"},
        compute,
        wrong={"no mask": "outputs differ", "causal": "outputs differ"},
    )


def counting_examples() -> Fact:
    def compute(dps):
        last = lambda N_: [N_ - 1] * 4  # noqa: E731  positions 0 .. N-1, d = 4
        value = {
            "last of 3 words": last(3),
            "last of 30 words": last(30),
            "|p_29| / |unit embedding|": str(mpmath.sqrt(4) * 29),
        }
        return value, list(value.items())

    return Fact(
        "counting-seed-examples",
        "Counting code, the seed's examples with 0-based positions",
        "order",
        f"{SEED}, 'The Simple Counting Method'",
        "With position 0 = [0,0,0,0] (as the seed sets it), a 3-word sentence ends at [2,2,2,2] and a 30-word one at "
        "[29,29,29,29] (the seed says [3,3,3,3] and [30,...]: off by one). The position vector at 29 is 58 times "
        "longer than a unit-norm word embedding: the position swamps the meaning.",
        {"last of 3 words": [2, 2, 2, 2], "last of 30 words": [29, 29, 29, 29], "|p_29| / |unit embedding|": "58.0"},
        compute,
        wrong={
            "last of 3 words": [3, 3, 3, 3],
            "last of 30 words": [30, 30, 30, 30],
            "|p_29| / |unit embedding|": "58.0",
        },
    )


def normalized_counting() -> Fact:
    def compute(dps):
        value = {}
        for name, denom in (("pos/(N-1)", lambda N_: N_ - 1), ("pos/N", lambda N_: N_)):
            p1 = {N_: Fraction(1, denom(N_)) for N_ in (4, 5)}
            value[name] = {
                "p_1, N=4": str(p1[4]),
                "p_1, N=5": str(p1[5]),
                "last word, N=5": str(Fraction(4, denom(5))),
                "p_1 depends on N": p1[4] != p1[5],
            }
        table = [(f"{name}: {k}", v) for name, row in value.items() for k, v in row.items()]
        return value, table

    return Fact(
        "normalized-counting-length-dependent",
        "Normalized counting: 'position 1' gets a different vector for every sequence length",
        "order",
        f"{SEED}, 'The Normalized Counting Method'",
        "The seed's 0.33 for N = 4 is 1/(N-1) and its 0.20 for N = 5 is 1/N: two different conventions. Under "
        "pos/(N-1) the last word is 1 but p_1 is 1/3 vs 1/4; under pos/N p_1 is 1/4 vs 1/5 and the last word is not 1. "
        "Either way p_1 depends on N: the counterexample stands.",
        {
            "pos/(N-1)": {"p_1, N=4": "1/3", "p_1, N=5": "1/4", "last word, N=5": "1", "p_1 depends on N": True},
            "pos/N": {"p_1, N=4": "1/4", "p_1, N=5": "1/5", "last word, N=5": "4/5", "p_1 depends on N": True},
        },
        compute,
        wrong={
            "pos/(N-1)": {"p_1, N=4": "1/3", "p_1, N=5": "1/5", "last word, N=5": "1", "p_1 depends on N": True},
            "pos/N": {"p_1, N=4": "1/4", "p_1, N=5": "1/5", "last word, N=5": "1", "p_1 depends on N": True},
        },
    )


def binary_flips() -> Fact:
    def compute(dps):
        flips = {n_: bin(n_ ^ (n_ + 1)).count("1") for n_ in range(255)}  # bits that change from n to n+1 (8 bits)
        value = {
            "0->1": flips[0],
            "1->2": flips[1],
            "3->4": flips[3],
            "7->8": flips[7],
            "127->128": flips[127],
            "distinct step sizes": sorted(set(flips.values())),
            "values": "{0, 1}",
        }
        return value, list(value.items())

    return Fact(
        "binary-neighbour-flips",
        "Binary codes: discrete, and neighbours differ by a varying number of bits",
        "order",
        f"{SEED}, 'The Binary Breakthrough'",
        "For 8-bit codes of 0..255 the number of bits flipped from n to n+1 is 1 + (trailing ones of n): 1 for 0->1, "
        "4 for 7->8, 8 for 127->128, so the Euclidean step between neighbours varies from 1 to sqrt(8) "
        "(compare sinusoidal-neighbour-distance: constant for the sinusoidal code).",
        {
            "0->1": 1,
            "1->2": 2,
            "3->4": 3,
            "7->8": 4,
            "127->128": 8,
            "distinct step sizes": [1, 2, 3, 4, 5, 6, 7, 8],
            "values": "{0, 1}",
        },
        compute,
        wrong={
            "0->1": 1,
            "1->2": 1,
            "3->4": 1,
            "7->8": 1,
            "127->128": 1,
            "distinct step sizes": [1],
            "values": "{0, 1}",
        },
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
