r"""Named, reusable lemmas: each is proved once, as a :class:`~posproof.symbolic.core.Theorem` in its own variables,
and cited by steps with an explicit instantiation.

A citation (:meth:`Lemma.cite`) is a :class:`~posproof.symbolic.core.Step` whose symbolic check is: the lemma's
theorem verifies (once per process); every variable's value satisfies what the lemma declared about the variable
(an integer ``N >= 0`` stays an integer ``>= 0``; a real sequence stays real), and every extra condition of the lemma
holds for the instance, proved like an inequality step (from the symbols' assumptions and the claim's ``given``);
and the step's named strategy reduces each side of the step minus the instance's side to exactly 0. The numeric
line checks the step like any other.

>>> import sympy as sp
>>> n = sp.Symbol("n", integer=True, positive=True)
>>> a, b = sp.IndexedBase("a"), sp.IndexedBase("b")
>>> i = sp.Symbol("i", integer=True)
>>> step = ABEL.cite({"N": n, "h": sp.Lambda(i, a[i]), "S": sp.Lambda(i, b[i])}, "summation by parts")
>>> step.check_symbolic()
True
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sympy as sp
from sympy.core.sympify import _sympify  # strict: never parses a string

from . import core, sources
from .core import Step, Theorem
from .strategies import _is, _is_zero, alpha, bind, congruent, reduce_difference

__all__ = ["Lemma", "Citation", "ABEL", "TRIANGLE", "TRIANGLE_COMPLEX", "SOFTMAX_PERMUTATION", "LEMMAS"]

#: What a value must keep of its variable's declaration (checked for each instantiated symbol).
_KEPT = ("integer", "positive", "nonnegative", "negative", "nonpositive", "nonzero", "real", "even", "odd")


def _proved(cond, given: tuple) -> bool:
    r"""Whether a relation is proved from the assumptions and ``given`` (``=`` by ``expand`` to 0)."""
    if cond is sp.true:
        return True
    if isinstance(cond, sp.Eq):
        return sp.expand(cond.lhs - cond.rhs) == 0
    if isinstance(cond, (sp.Ge, sp.Gt, sp.Le, sp.Lt)):
        gap = cond.lhs - cond.rhs if isinstance(cond, (sp.Ge, sp.Gt)) else cond.rhs - cond.lhs
        gap = sp.expand(gap)
        if isinstance(cond, (sp.Gt, sp.Lt)):
            return _is(sp.Q.positive(gap), gap.is_positive, given)
        return _is(sp.Q.nonnegative(gap), gap.is_nonnegative, given)
    return False


def _same(written, inst, strategy: tuple, given: tuple) -> bool:
    r"""Whether ``strategy`` reduces ``written - inst`` to 0, or their arguments when both are ``F(.)`` of one
    function ``F`` of one argument."""
    if _is_zero(reduce_difference(written, inst, strategy, given)):
        return True
    # a strategy may move a sum out of another (doit on a two-term sum): compare up to bound names again after it
    left, right = (alpha(reduce_difference(side, sp.Integer(0), strategy, given)) for side in (written, inst))
    if _is_zero(reduce_difference(left, right, ("identity",), given)):
        return True
    inner = congruent(written, inst)
    return inner is not None and _is_zero(reduce_difference(*inner, strategy, given))


@dataclass(frozen=True)
class Lemma:
    r"""A lemma: ``theorem`` (proved once) in the ``variables`` it may be instantiated at, with ``conditions`` (SymPy
    relations in those variables) that every instance must prove."""

    name: str
    theorem: Theorem
    variables: tuple
    conditions: tuple = ()

    @functools.cached_property
    def proved(self) -> bool:
        r"""Whether the lemma's theorem verifies (both lines; computed once per process)."""
        return self.theorem.verify().ok

    def _variable(self, name: str):
        for v in self.variables:
            if str(v) == name or v == name:
                return v
        raise ValueError(
            f"mapping: lemma {self.name!r} has no variable {name!r} (it has {[str(v) for v in self.variables]})"
        )

    def instance(self, mapping: Mapping) -> tuple:
        r"""``(lhs, rhs, conditions)`` of the lemma at ``mapping`` (variable or its name -> value; an IndexedBase
        variable takes a ``Lambda`` of its indices). Bound variables of the lemma are renamed first, so a value
        cannot be captured by them."""
        values = {self._variable(str(k)): v for k, v in mapping.items()}
        missing = [str(v) for v in self.variables if v not in values]
        if missing:
            raise ValueError(f"mapping: lemma {self.name!r} needs values for {missing}")

        def at(e):
            e = bind(e)
            for var, val in values.items():
                if isinstance(var, sp.IndexedBase):
                    if not isinstance(val, sp.Lambda):
                        raise ValueError(f"mapping: {var} is a sequence; give a Lambda of its index, got {val!r}")
                    e = e.replace(
                        lambda x, var=var: isinstance(x, sp.Indexed) and x.base == var,
                        lambda x, val=val: val(*x.indices),
                    )
            return e.xreplace({k: v for k, v in values.items() if not isinstance(k, sp.IndexedBase)})

        t = self.theorem
        return at(t.lhs), at(t.rhs), tuple(at(c) for c in self.conditions)

    def cite(
        self,
        mapping: Mapping,
        why: str = "",
        strategy: tuple[str, ...] = ("identity",),
        beside=None,
        context=None,
        **step,
    ) -> Step:
        r"""A step citing this lemma at ``mapping``: its sides are the instance's (plus ``beside`` on both sides, or
        inside ``context``, a function of one expression, for an equality: ``C(a) = C(b)`` from ``a = b``), unless
        ``lhs``/``rhs`` are given (then ``strategy`` must reduce each to that side)."""
        if context is not None and self.theorem.rel != "=":
            raise ValueError(f"context: lemma {self.name!r} is an inequality; only equalities hold inside a context")
        lhs, rhs, _ = self.instance(mapping)
        citation = Citation(self, tuple(mapping.items()), beside, context)
        if beside is not None:
            lhs, rhs = beside + lhs, beside + rhs
        if context is not None:
            lhs, rhs = context(lhs), context(rhs)
        return Step(
            step.get("lhs", lhs),
            step.get("rhs", rhs),
            f"{why or self.name} (cites {self.theorem.id})",
            strategy,
            self.theorem.rel,
            cites=citation,
        )


@dataclass(frozen=True)
class Citation:
    r"""A lemma cited at an instantiation: what :meth:`Step.check_symbolic` asks when a step cites a lemma."""

    lemma: Lemma
    mapping: tuple
    #: A term added to both sides of the instance (``c + a <= c + b`` from ``a <= b``), or ``None``.
    beside: Any = None
    #: A function both sides of an equality instance are put in (``C(a) = C(b)`` from ``a = b``), or ``None``.
    context: Any = None

    def problems(self, step: Step, given: tuple = ()) -> list[str]:
        r"""Why the citation does not prove ``step`` (empty when it does)."""
        lemma = self.lemma
        if not lemma.proved:
            return [f"lemma {lemma.name!r} is not proved"]
        if step.rel != lemma.theorem.rel:
            return [f"the lemma states '{lemma.theorem.rel}', the step is '{step.rel}'"]
        mapping = dict(self.mapping)
        lhs, rhs, conditions = lemma.instance(mapping)
        out = []
        for name, value in mapping.items():
            var = lemma._variable(str(name))
            if isinstance(var, sp.IndexedBase):
                if var.is_real and not _is(sp.Q.real(value.expr), value.expr.is_real, given):
                    out.append(f"{var} must be real, {value.expr} is not proved real")
                continue
            for fact in _KEPT:
                if getattr(var, f"is_{fact}") and getattr(_sympify(value), f"is_{fact}") is not True:
                    if not (given and sp.ask(getattr(sp.Q, fact)(value), sp.And(*given)) is True):
                        out.append(f"{var} is {fact} in the lemma, {value} is not proved {fact}")
        out += [f"condition {c} is not proved" for c in conditions if not _proved(c, given)]
        sides = (step.lhs, step.rhs)
        inner = congruent(*sides)
        if self.context is not None:  # C(a) = C(b) from a = b (cite refuses a context for an inequality)
            if lemma.theorem.rel != "=":
                return [f"a context needs an equality lemma, {lemma.name!r} states '{lemma.theorem.rel}'"]
            lhs, rhs = self.context(lhs), self.context(rhs)
        elif self.beside is not None:  # c + a rel c + b from a rel b: adding the same c keeps either relation
            sides = tuple(sp.Add(side, -self.beside) for side in sides)
        elif lemma.theorem.rel == "=" and inner is not None and congruent(lhs, rhs) is None:
            sides = inner  # F(a) = F(b) from the instance a = b: a function takes equal values at equal arguments
        for side, (written, inst) in zip(("left", "right"), zip(sides, (lhs, rhs), strict=True), strict=True):
            try:
                # bound variables compared up to their names (the lemma's i is the step's j)
                written, inst = alpha(bind(written, given)), alpha(bind(inst, given))
                if not _same(written, inst, step.strategy, given):
                    out.append(f"the step's {side} side is not the instance's ({step.strategy})")
            except ValueError as e:  # a range not proved forward, a strategy that refuses
                out.append(f"the step's {side} side: {e}")
        return out

    def holds(self, step: Step, given: tuple = ()) -> bool:
        return isinstance(self.lemma, Lemma) and not self.problems(step, given)


core.CITATIONS = (*core.CITATIONS, Citation)


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
                r"both sides are $\ge 0$, so compare squares: $|\sum_i z_i|^2 = \sum_{i,j} \mathrm{Re}(z_i \bar z_j)$ "
                r"and $(\sum_i |z_i|)^2 = \sum_{i,j} |z_i \bar z_j|$, term by term $\mathrm{Re}\, u \le |u|$",
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
    from .domains import Domain
    from .permutation import PermutationMap as _pi

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
