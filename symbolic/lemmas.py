r"""The lemmas: results used by several proofs, each proved once, for every size, as a
:class:`~posproof.symbolic.engine.core.Theorem` in its own variables, and cited by steps with an explicit
instantiation (:meth:`~posproof.symbolic.engine.step.Lemma.cite`; the engine's :mod:`~posproof.symbolic.engine.step`
says what a citation checks).

>>> import sympy as sp
>>> n = sp.Symbol("n", integer=True, positive=True)
>>> a, b = sp.IndexedBase("a"), sp.IndexedBase("b")
>>> i = sp.Symbol("i", integer=True)
>>> step = ABEL.cite({"N": n, "h": sp.Lambda(i, a[i]), "S": sp.Lambda(i, b[i])}, "summation by parts")
>>> step.check_symbolic()
True
"""

from __future__ import annotations

import sympy as sp
from posproof.symbolic import sources
from posproof.symbolic.engine.core import Step, Theorem
from posproof.symbolic.engine.step import Citation, Lemma

__all__ = ["Lemma", "Citation", "ABEL", "TRIANGLE", "TRIANGLE_COMPLEX", "SOFTMAX_PERMUTATION", "LEMMAS"]

# ---- the lemmas ----------------------------------------------------------------------------------------------------

_N = sp.Symbol("N", integer=True, nonnegative=True)
_i = sp.Symbol("i", integer=True, nonnegative=True)
_h, _S = sp.IndexedBase("h"), sp.IndexedBase("S")


def _abel() -> Lemma:
    lhs = sp.Sum(_h[_i] * (_S[_i + 1] - _S[_i]), (_i, 0, _N - 1))
    rhs = _h[_N] * _S[_N] - _h[0] * _S[0] - sp.Sum(_S[_i + 1] * (_h[_i + 1] - _h[_i]), (_i, 0, _N - 1))
    theorem = Theorem(
        "lemma-abel-summation",
        r"Abel summation (summation by parts), for every $N \ge 0$",
        "lemmas",
        f"{sources.CONCRETE}, §2.6 (summation by parts, after N. H. Abel 1826)",
        (
            Step(
                lhs,
                rhs,
                "the products $h_i S_{i+1}$ cancel; what is left telescopes",
                ("expand", "combine_sums", "doit"),
            ),
        ),
        assumptions=("$h_i, S_i$ arbitrary complex sequences", r"$N \ge 0$ an integer"),
        sizes={_N: (1, 2, 3, 5)},
        wrong=_h[_N] * _S[_N] - _h[0] * _S[0] - sp.Sum(_S[_i] * (_h[_i + 1] - _h[_i]), (_i, 0, _N - 1)),
        formula=sp.Eq(lhs, rhs, evaluate=False),
    )
    return Lemma("Abel summation", theorem, (_N, _h, _S))


ABEL = _abel()

_f = sp.IndexedBase("f", real=True)


def _triangle() -> Lemma:
    lhs = sp.Abs(sp.Sum(_f[_i], (_i, 0, _N - 1)))
    rhs = sp.Sum(sp.Abs(_f[_i]), (_i, 0, _N - 1))
    theorem = Theorem(
        "lemma-triangle-finite-sum",
        r"The triangle inequality for finite sums of reals: $|\sum_{i<N} f_i| \le \sum_{i<N} |f_i|$ for every "
        r"$N \ge 0$",
        "lemmas",
        f"{sources.DLMF}, §1.9 (the triangle inequality), summed",
        (
            Step(
                lhs,
                rhs,
                r"$|a| \le b$ iff $a \le b$ and $-a \le b$; $\sum_i (|f_i| \mp f_i)$ has nonnegative terms",
                ("abs_sides", "combine_sums"),
                "<=",
            ),
        ),
        rel="<=",
        assumptions=("$f_i$ real", r"$N \ge 0$ an integer"),
        sizes={_N: (1, 2, 3, 5)},
        wrong=sp.Sum(sp.Abs(_f[_i]), (_i, 0, _N - 2)),
        formula=sp.Le(lhs, rhs, evaluate=False),
    )
    return Lemma("triangle inequality for finite sums", theorem, (_N, _f))


TRIANGLE = _triangle()

_z = sp.IndexedBase("z", complex=True)


def _triangle_complex() -> Lemma:
    lhs = sp.Abs(sp.Sum(_z[_i], (_i, 0, _N - 1)))
    rhs = sp.Sum(sp.Abs(_z[_i]), (_i, 0, _N - 1))
    theorem = Theorem(
        "lemma-triangle-complex-sum",
        r"The triangle inequality for finite sums of complex numbers: $|\sum_{i<N} z_i| \le \sum_{i<N} |z_i|$ for "
        r"every $N \ge 0$",
        "lemmas",
        f"{sources.DLMF}, §1.9 (the triangle inequality), summed",
        (
            Step(
                lhs,
                rhs,
                r"both sides are $\ge 0$, so compare squares: "
                r"$|\sum_i z_i|^2 = \sum_{i,j} \operatorname{Re}(z_i \bar z_j)$ and "
                r"$(\sum_i |z_i|)^2 = \sum_{i,j} |z_i \bar z_j|$, term by term $\operatorname{Re}\, u \le |u|$",
                ("square_sides", "square_sums", "combine_sums"),
                "<=",
            ),
        ),
        rel="<=",
        assumptions=("$z_i$ complex", r"$N \ge 0$ an integer"),
        sizes={_N: (1, 2, 3, 5)},
        wrong=sp.Abs(sp.Sum(sp.re(_z[_i]), (_i, 0, _N - 1))),
        formula=sp.Le(lhs, rhs, evaluate=False),
    )
    return Lemma("triangle inequality for finite complex sums", theorem, (_N, _z))


TRIANGLE_COMPLEX = _triangle_complex()

_n = sp.Symbol("n", integer=True, positive=True)
_r, _c = sp.Symbol("i", integer=True, nonnegative=True), sp.Symbol("j", integer=True, nonnegative=True)
_k = sp.Symbol("k", integer=True, nonnegative=True)
_s = sp.IndexedBase("s", real=True)


def _softmax_permutation() -> Lemma:
    from posproof.symbolic.engine.domains import Domain
    from posproof.symbolic.engine.permutation import PermutationMap as _pi

    row, col = _pi(_n, _r), _pi(_n, _c)
    lhs = sp.exp(_s[row, col]) / sp.Sum(sp.exp(_s[row, _pi(_n, _k)]), (_k, 0, _n - 1))
    rhs = sp.exp(_s[row, col]) / sp.Sum(sp.exp(_s[row, _k]), (_k, 0, _n - 1))
    theorem = Theorem(
        "lemma-softmax-permutation",
        r"Row-wise softmax commutes with permuting rows and columns together, for every $n$ and every permutation "
        r"$\pi$: $\mathrm{softmax}(P S P^T)_{ij} = \mathrm{softmax}(S)_{\pi(i) \pi(j)}$",
        "lemmas",
        f"{sources.CONCRETE}, §2.3 (the commutative law of finite sums)",
        (
            Step(
                lhs,
                rhs,
                r"the denominator sums the same terms in another order: re-index $k \to \pi(k)$",
                ("reindex",),
            ),
        ),
        assumptions=(
            r"$s$: $n \times n$ real scores; $(P S P^T)_{ij} = s_{\pi(i) \pi(j)}$ for the permutation matrix $P$ of "
            r"$\pi$ ($P_{i \pi(i)} = 1$)",
            r"$n \ge 1$; $i, j \in \{0, \dots, n - 1\}$",
        ),
        sizes={_n: (1, 2, 3, 5)},
        domains={"i": Domain("integer", 0, _n - 1), "j": Domain("integer", 0, _n - 1)},
        wrong=sp.exp(_s[row, col]) / sp.Sum(sp.exp(_s[_k, row]), (_k, 0, _n - 1)),
        formula=sp.Eq(lhs, rhs, evaluate=False),
    )
    return Lemma("softmax permutation equivariance", theorem, (_n, _s, _r, _c))


SOFTMAX_PERMUTATION = _softmax_permutation()

#: Every lemma, by name.
LEMMAS: dict[str, Lemma] = {lemma.name: lemma for lemma in (ABEL, TRIANGLE, TRIANGLE_COMPLEX, SOFTMAX_PERMUTATION)}


def get(name: str) -> Lemma:
    r"""The lemma called ``name`` (a ``ValueError`` naming the known ones otherwise)."""
    if name not in LEMMAS:
        raise ValueError(f"name: no lemma {name!r}; the lemmas are {sorted(LEMMAS)}")
    return LEMMAS[name]


def claims() -> list:
    r"""The lemmas' theorems, as catalogue claims (topic ``lemmas``): ``posproof check`` verifies them and the exports
    print their proofs, which every citing step relies on."""
    return [lemma.theorem for lemma in LEMMAS.values()]
