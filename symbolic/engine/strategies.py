r"""The named strategies of the symbolic line: targeted SymPy rewrites of a step's difference ``lhs - rhs``.

Every strategy in :data:`STRATEGIES` is an equivalence under the assumptions the symbols were declared with (no
forced rewrites, no blanket ``simplify``), applied inside Sum summands too; :data:`SIDE_STRATEGIES` map both
sides of an inequality by an increasing function first. :func:`reduce_difference` applies a step's strategies in
turn and merges Sums again; ``is_zero`` and ``proves`` decide what the result proves.
"""

# Long module: the named strategies are one registry, each a few lines beside its soundness argument, with the
# sign and finite-sum rules they share (bind, forward, nonnegative); a split by family is left for later.

from __future__ import annotations

import contextvars
import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Any

import sympy as sp
from posproof.symbolic.engine import fragment
from posproof.symbolic.engine.kernel import Kernel, finite_only, unfolding
from posproof.symbolic.engine.maximum import Maximum
from posproof.symbolic.engine.permutation import PermutationMap, is_engine_permutation
from sympy.core.function import AppliedUndef
from sympy.core.sympify import _sympify  # strict: never parses a string

#: The constructs that bind variables (limits ``(var, lo, hi)``, SymPy lists the innermost first).
_BINDERS = (sp.Sum, sp.Product, Maximum)


def _infinite(x) -> bool:
    r"""Whether a limit is not a finite number (``oo``, ``-oo``, ``zoo`` or an expression containing them)."""
    return isinstance(x, sp.Basic) and (x.has(sp.oo, -sp.oo, sp.zoo, sp.nan) or x.is_finite is False)


def _finite_limits(s) -> bool:
    r"""Whether every limit of the Sum (Product) ``s`` is finite."""
    return not any(_infinite(b) for _, lo, hi in s.limits for b in (lo, hi))


def _substitute(e, mapping: dict):
    r"""``e`` with each free occurrence of a key of ``mapping`` (symbols) replaced by its value, capture-avoiding: a
    Sum, Product or Maximum that binds a key keeps it inside (its limits further in and its summand), where
    ``xreplace`` would rename the bound variable too; a bound variable that occurs in a value is renamed to a fresh
    dummy first, so no value is captured."""
    mapping = {k: v for k, v in mapping.items() if k != v}
    if isinstance(e, sp.MatrixBase) and not isinstance(e, sp.Basic):
        return e.applyfunc(lambda x: _substitute(x, mapping))
    if not mapping or not isinstance(e, sp.Basic) or not e.has(*mapping):
        return e
    if e in mapping:
        return mapping[e]
    if isinstance(e, _BINDERS):
        values = set().union(*(v.free_symbols for v in mapping.values() if isinstance(v, sp.Basic)))
        live = dict(mapping)
        limits = []
        for var, lo, hi in reversed(e.limits):  # outermost first: an inner range may use an outer variable
            lo, hi = _substitute(lo, live), _substitute(hi, live)
            live.pop(var, None)
            if var in values and live:  # a value would be captured here: rename the bound variable first
                new = sp.Dummy(var.name, **{k: v for k, v in var.assumptions0.items() if v is not None})
                live[var] = new
                var = new
            limits.append((var, lo, hi))
        return type(e)(_substitute(e.function, live), *reversed(limits))
    args = [_substitute(a, mapping) for a in e.args]
    return e.func(*args) if args != list(e.args) else e


def _check_produced(e, name: str, given: tuple = ()) -> None:
    r"""Refuse (``fragment.Refused``, a ``ValueError``) what the strategy ``name`` produced outside the fragment: a
    Float from a definition, a closed form with ``KroneckerDelta``... (a Matrix entry by entry)."""
    if isinstance(e, sp.MatrixBase):
        for x in e:
            fragment.check_produced(x, name, given)
    else:
        fragment.check_produced(e, name, given)


# ==============================================================================================================
# Strategies: named, targeted rewrites of the difference lhs - rhs (Sum summands are rewritten too). Each is an
# equivalence under the assumptions the symbols were declared with: no forced rewrites, no blanket simplify.
# ==============================================================================================================

STRATEGIES: dict[str, Callable[[Any], Any]] = {}


def strategy(name: str):
    r"""Register a strategy under ``name``; its docstring says why it is an equivalence."""

    def register(f):
        if not (f.__doc__ or "").strip():
            raise ValueError(f"strategy {name!r} needs a docstring saying why it is sound")
        STRATEGIES[name] = f
        return f

    return register


@strategy("expand")
def _expand(e):
    r"""``sympy.expand`` without ``force``: distributes products; splits ``(xy)^a``, ``x^(a+b)`` and ``log(xy)``
    only where the declared assumptions make the rule valid (e.g. positive bases)."""
    return sp.expand(e)


@strategy("expand_trig")
def _expand_trig(e):
    r"""Angle-addition and multiple-angle formulas: identities of the analytic functions, valid everywhere."""
    return sp.expand_trig(e)


@strategy("trigsimp")
def _trigsimp(e):
    r"""SymPy's trigonometric simplifier (``sin^2 + cos^2 = 1`` and relatives): it rewrites with identities that
    hold for all complex arguments."""
    return sp.trigsimp(e)


@strategy("powsimp")
def _powsimp(e):
    r"""Combine powers ``x^a x^b = x^(a+b)`` (always valid) and ``x^a y^a = (xy)^a`` only when SymPy can show it
    valid from the assumptions (no ``force``: ``sqrt(x) sqrt(y)`` stays apart for real ``x, y``)."""
    return sp.powsimp(e)


@strategy("powdenest")
def _powdenest(e):
    r"""``(x^a)^b = x^(ab)`` only where the assumptions make it valid (no ``force``: ``sqrt(x^2)`` is not ``x``
    for real ``x``)."""
    return sp.powdenest(e)


@strategy("expand_log")
def _expand_log(e):
    r"""``log(xy) = log x + log y`` and ``log(x^a) = a log x`` only for arguments the assumptions make positive
    (no ``force``)."""
    return sp.expand_log(e)


@strategy("expand_complex")
def _expand_complex(e):
    r"""Split into real and imaginary parts using the symbols' realness (``re``/``im`` of real symbols): exact where
    no power has a branch cut. SymPy 1.14 rewrites ``conj(w^a)`` as ``conj(w)^a``, false on the cut (``conj((-2)^(k/2))
    = -(-2)^(k/2)`` for even ``k``), so a power whose exponent is not proved an integer needs a base proved
    nonnegative; otherwise the strategy refuses (raises ``ValueError``) and proves nothing."""
    if isinstance(e, sp.Basic):
        for p in e.atoms(sp.Pow):
            if not (p.exp.is_integer or p.base.is_extended_nonnegative):
                raise ValueError(f"expand_complex refuses {p}: a power with a branch cut")
    return sp.expand_complex(e)


@strategy("expand_power_exp")
def _expand_power_exp(e):
    r"""``x^(a+b) = x^a x^b``: valid for every nonzero base (``x^c = exp(c log x)`` on the principal branch)."""
    return sp.expand_power_exp(e)


@strategy("exp_to_trig")
def _exp_to_trig(e):
    r"""Rewrite exponentials with ``cos``/``sin`` (Euler's formula): an identity of analytic functions."""
    return e.rewrite(sp.cos)


@strategy("trig_to_exp")
def _trig_to_exp(e):
    r"""Rewrite ``sin``/``cos`` with complex exponentials (Euler's formula): an identity of analytic functions."""
    return e.rewrite(sp.exp)


@strategy("cancel")
def _cancel(e):
    r"""Put a rational function in lowest terms: equal wherever both forms are defined (it can only remove a
    removable singularity)."""
    return sp.cancel(e)


@strategy("cancel_exponents")
def _cancel_exponents(e):
    r"""Put every exponent in lowest terms (``x^((1 + 1/h)/(h + 1)) = x^(1/h)``): ``cancel`` on the exponent alone,
    the same number wherever the exponent is defined (its denominators are proved nonzero: the fragment refuses a
    quotient by what may be 0)."""
    if isinstance(e, sp.Basic) and e.has(sp.Pow):
        return e.replace(
            lambda x: isinstance(x, sp.Pow) and not x.exp.is_Number,
            lambda x: sp.Pow(x.base, sp.cancel(x.exp)),
        )
    return e


@strategy("together")
def _together(e):
    r"""Put a sum of fractions over a common denominator: the same function."""
    return sp.together(e)


@strategy("factor_terms")
def _factor_terms(e):
    r"""Pull common factors out of sums without expanding: the same expression regrouped."""
    return sp.factor_terms(e)


def combine_sums(e):
    r"""Merge ``c1*Sum(f1, L) + c2*Sum(f2, L)`` into ``Sum(c1*f1 + c2*f2, L)`` for identical limits ``L``: linearity
    of a finite sum. A coefficient is every factor of a term beside its one Sum (free of the summation variables,
    which are :func:`bind`'s dummies by then). A sum with an infinite limit is left alone: linearity of a series
    needs convergence, which nothing here proves."""
    if not isinstance(e, sp.Add):
        return e
    by_limits: dict[tuple, list] = {}
    rest = []
    for term in e.args:
        factors = sp.Mul.make_args(term)
        sums = [f for f in factors if isinstance(f, sp.Sum)]
        if len(sums) == 1 and _finite_limits(sums[0]):
            body = sums[0]
            coeff = sp.Mul(*[f for f in factors if f is not body])
            if not coeff.has(*[v for v, _, _ in body.limits]):
                by_limits.setdefault(body.limits, []).append(coeff * body.function)
                continue
        rest.append(term)
    merged = [sp.Sum(sp.Add(*fs), *lims) for lims, fs in by_limits.items()]
    return sp.Add(*merged, *rest)


strategy("combine_sums")(combine_sums)


@strategy("split_last")
def _split_last(e):
    r"""Split the last term off every one-limit Sum whose range is proved nonempty (``hi - lo >= 0`` from the
    assumptions): ``Σ_{i=lo}^{hi} f(i) = Σ_{i=lo}^{hi-1} f(i) + f(hi)``, the definition of a finite sum. The shorter
    sum binds the dummy :func:`bind` gives its range, so it meets the same sum written elsewhere. Sums with an
    infinite limit are left alone."""

    def split(s: sp.Sum):
        if len(s.limits) != 1:
            return s
        ((var, lo, hi),) = s.limits
        if _infinite(lo) or _infinite(hi):
            return s
        if (hi - lo).is_nonnegative is not True or not (hi - lo).is_integer:
            return s
        shorter = bind(sp.Sum(s.function, (var, lo, hi - 1)))
        return shorter + _substitute(s.function, {var: hi})

    if isinstance(e, sp.Basic) and e.has(sp.Sum):
        return e.replace(lambda x: isinstance(x, sp.Sum), split)
    return e


@strategy("reindex")
def _reindex(e):
    r"""Re-index a sum by a permutation: ``Σ_{k=0}^{n-1} f(π(k)) = Σ_{k=0}^{n-1} f(k)`` when ``π`` is a
    :class:`~posproof.symbolic.engine.permutation.PermutationMap` of ``{0, ..., n - 1}`` and ``k`` occurs in the
    summand only as ``π(k)`` (the commutative law of finite sums, *Concrete Mathematics* §2.3). Only the engine's
    :class:`PermutationMap` and its subclasses that do nothing but rename it
    (:func:`~posproof.symbolic.engine.permutation.is_engine_permutation`) are permutations here: any other subclass
    could redefine ``numeric``, ``doit`` or the assumptions, and proves nothing."""

    def reindexed(s: sp.Sum):
        if len(s.limits) != 1:
            return s
        ((var, lo, hi),) = s.limits
        f = s.function
        if not all(is_engine_permutation(type(x)) for x in f.atoms(PermutationMap)):
            return s  # a subclass that redefines more than its name: not known to be a permutation
        perms = {x for x in f.atoms(PermutationMap) if x.args[1] == var}
        if len(perms) != 1 or lo != 0:
            return s
        (p,) = perms
        if sp.expand(hi - (p.args[0] - 1)) != 0:
            return s
        u = sp.Dummy("u")
        body = f.xreplace({p: u})
        if body.has(var):  # k also occurs outside π(k): not of the form f(π(k))
            return s
        return sp.Sum(body.xreplace({u: var}), (var, lo, hi))

    if isinstance(e, sp.Basic) and e.has(PermutationMap):
        return e.replace(lambda x: isinstance(x, sp.Sum), reindexed)
    return e


@strategy("split_abs")
def _split_abs(e):
    r"""``|a b| = |a| |b|`` (the modulus is multiplicative), everywhere: SymPy splits a product's modulus only when
    it knows the factors' signs."""
    if isinstance(e, sp.Basic) and e.has(sp.Abs):
        return e.replace(
            lambda x: isinstance(x, sp.Abs) and isinstance(x.args[0], sp.Mul),
            lambda x: sp.Mul(*[sp.Abs(f) for f in x.args[0].args]),
        )
    return e


@strategy("unroll")
def _unroll(e):
    r"""Write out every Sum whose limits are integers term by term (the definition of a finite sum), and nothing else:
    where ``doit`` would also try to evaluate the sums with symbolic limits inside the terms."""

    def out(s: sp.Sum):
        if len(s.limits) != 1:
            return s
        ((var, lo, hi),) = s.limits
        if not (lo.is_Integer and hi.is_Integer) or hi - lo > 64:
            return s
        return sp.Add(*[_substitute(s.function, {var: sp.Integer(k)}) for k in range(int(lo), int(hi) + 1)])

    if isinstance(e, sp.Basic) and e.has(sp.Sum):
        return e.replace(lambda x: isinstance(x, sp.Sum), out)
    return e


#: The second copy of a summation variable in a squared sum, one per variable (a :func:`bind` dummy: one name, range
#: and assumptions), so that both sides of a step agree (``|Σ_i z_i|^2`` and ``(Σ_i |z_i|)^2`` meet as double sums
#: over the same two variables).
_COPIES: dict = {}


def _copy(var):
    if var not in _COPIES:
        _COPIES[var] = sp.Dummy(f"{var.name}'", **{k: v for k, v in var.assumptions0.items() if v is not None})
    return _COPIES[var]


@strategy("square_sums")
def _square_sums(e):
    r"""Multiply out squares of one-limit finite sums into double sums over a second copy ``j`` of the variable:
    ``(Σ_i f_i)^2 = Σ_i Σ_j f_i f_j`` (distributivity) and ``|Σ_i f_i|^2 = Σ_i Σ_j Re(f_i conj(f_j))`` (``|w|^2 = w
    conj(w)``, a real number, so equal to its real part). Capture-avoiding (:func:`_substitute`): ``j`` replaces only
    the free occurrences of ``i``, so a nested squared sum over the same variable keeps its own ``i`` and ``j`` (with
    ``xreplace`` it was renamed into a different sum: a nested value 324 came out 360)."""

    def double(s: sp.Sum, product):
        ((var, lo, hi),) = s.limits
        j = _copy(var)
        f = s.function
        return sp.Sum(product(f, _substitute(f, {var: j})), (j, lo, hi), (var, lo, hi))

    def square(x):
        base = x.base
        if isinstance(base, sp.Abs) and isinstance(base.args[0], sp.Sum) and len(base.args[0].limits) == 1:
            return double(base.args[0], lambda a, b: sp.re(a * sp.conjugate(b)))
        if isinstance(base, sp.Sum) and len(base.limits) == 1:
            return double(base, lambda a, b: a * b)
        return x

    if isinstance(e, sp.Basic) and e.has(sp.Sum):
        return e.replace(lambda x: isinstance(x, sp.Pow) and x.exp == 2, square)
    return e


#: How many times ``doit`` unfolds kernels whose definitions use kernels.
_UNFOLD_ROUNDS = 16


#: What ``doit`` holds back whole: SymPy's ``doit`` would run ``integrate`` and ``limit``, whose results are not
#: equivalences under our assumptions (``∫_0^π atan(tan t) dt`` comes out ``-π²/2``), and each kernel's own ``doit``
#: (kernels are unfolded before, by :func:`_unfold` only). Sums and products that are not written out are held by
#: :func:`~posproof.symbolic.engine.kernel.finite_only`. A strategy for any of them needs its own docstring saying
#: why it is sound.
def _not_for_doit(x) -> bool:
    return isinstance(x, (sp.Integral, sp.Limit, Kernel))


_HELD = itertools.count()


#: The ``given`` facts of the step :func:`reduce_difference` is reducing (a closed form checks its range with them).
_GIVEN: contextvars.ContextVar[tuple] = contextvars.ContextVar("given", default=())


def _one_limit(s):
    r"""``(var, lo, hi)`` of a one-limit Sum over a finite range proved forward (with the step's ``given``), else
    ``None``."""
    if not isinstance(s, sp.Sum) or len(s.limits) != 1 or not _finite_limits(s):
        return None
    ((var, lo, hi),) = s.limits
    return (var, lo, hi) if forward(lo, hi, _GIVEN.get()) else None


def _innermost(rule: Callable) -> Callable:
    r"""``rule`` (a closed form of a one-limit sum) applied to a Sum's innermost limit, again while it applies: a
    multiple sum ``Σ_{i} Σ_{j} f`` is ``Σ_{i} (Σ_{j} f)``, so evaluating the inner sum in place is an equality."""

    def apply(s):
        while isinstance(s, sp.Sum):
            first, rest = s.limits[0], s.limits[1:]
            one = sp.Sum(s.function, first)
            closed = rule(one)
            if closed == one:
                return s
            s = sp.Sum(closed, *rest) if rest else closed
        return s

    def over(e):
        if isinstance(e, sp.Basic) and e.has(sp.Sum):
            return e.replace(lambda x: isinstance(x, sp.Sum), apply)
        return e

    return over


def _counted(s):
    lim = _one_limit(s)
    if lim is None or s.function.has(lim[0]):
        return s
    var, lo, hi = lim
    return (hi - lo + 1) * s.function


@strategy("count_terms")
def _count_terms(e):
    r"""``Σ_{i=lo}^{hi} c = (hi - lo + 1) c`` for ``c`` free of ``i``, over a finite range proved forward
    (:func:`forward`: ``hi - lo`` an integer, ``hi >= lo - 1``): the sum has ``hi - lo + 1`` terms, each ``c`` (0 terms
    for the empty range ``hi = lo - 1``, and then ``0 c = 0``). The innermost limit of a multiple sum first."""
    return _innermost(_counted)(e)


def _antidifference(f, var, g):
    r"""``Σ_{var=lo}^{hi} f = g(hi + 1) - g(lo)`` if ``g(var + 1) - g(var) = f`` (checked by ``expand``), else
    ``None``."""
    if sp.expand(_substitute(g, {var: var + 1}) - g - f) != 0:
        return None
    return g


def _telescoped(s):
    lim = _one_limit(s)
    if lim is None or not isinstance(s.function, sp.Add):
        return s
    var, lo, hi = lim
    f = s.function
    negative = sp.Add(*[t for t in f.args if t.as_coeff_Mul()[0].is_negative])
    for g in (-negative, negative - f):  # f = g(i+1) - g(i) with g the negative terms, or with g minus the others
        if g.has(var) and _antidifference(f, var, g) is not None:
            return _substitute(g, {var: hi + 1}) - _substitute(g, {var: lo})
    return s


@strategy("telescope")
def _telescope(e):
    r"""``Σ_{i=lo}^{hi} (g(i+1) - g(i)) = g(hi + 1) - g(lo)`` over a finite range proved forward (:func:`forward`):
    by induction on the number of terms ``hi - lo + 1 >= 0`` (no terms: ``g(lo) - g(lo) = 0``; one more term adds
    ``g(hi + 2) - g(hi + 1)``). The summand must be ``g(i+1) - g(i)`` exactly (checked by ``expand``); ``g`` is read
    off the summand's negative terms (or its positive ones, negated). *Concrete Mathematics* §2.5."""
    return _innermost(_telescoped)(e)


_POLY = sp.Dummy("t", integer=True)


def _polynomial(s):
    lim = _one_limit(s)
    if lim is None:
        return s
    var, lo, hi = lim
    f = s.function
    if not f.has(var) or not f.is_polynomial(var) or sp.degree(f, var) > 8:
        return s
    # a candidate antidifference from SymPy's Faulhaber sums, trusted only once checked: g(var + 1) - g(var) = f
    g = sp.expand(sp.summation(f, (var, 0, _POLY - 1)).xreplace({_POLY: var}))
    if g.has(sp.Sum, sp.Piecewise) or _antidifference(f, var, g) is None:
        return s
    return sp.expand(_substitute(g, {var: hi + 1}) - _substitute(g, {var: lo}))


@strategy("polynomial_sum")
def _polynomial_sum(e):
    r"""``Σ_{i=lo}^{hi} p(i) = g(hi + 1) - g(lo)`` for a polynomial ``p`` in ``i`` (degree at most 8, coefficients
    free of ``i``) over a finite range proved forward, where ``g(i + 1) - g(i) = p(i)`` is *checked* by ``expand``:
    then it is :func:`_telescope`'s identity. ``g`` comes from SymPy's Faulhaber sums, but only as a candidate: a wrong
    one fails the check and the sum stays as it is (``Σ_{i=0}^{n-1} i = n(n - 1)/2``)."""
    return _innermost(_polynomial)(e)


def _geometric(s):
    lim = _one_limit(s)
    if lim is None:
        return s
    var, lo, hi = lim
    c, p = s.function.as_independent(var, as_Add=False)
    if not isinstance(p, sp.Pow) or p.base.has(var):
        return s
    a, b = p.exp.as_independent(var, as_Add=True)
    slope = sp.expand(b / var)
    if slope.has(var) or not p.base.is_positive:
        return s
    r = p.base**slope
    if not (slope.is_nonzero and (p.base - 1).is_nonzero):
        return s
    return c * p.base**a * (r**lo - r ** (hi + 1)) / (1 - r)


@strategy("geometric_sum")
def _geometric_sum(e):
    r"""``Σ_{i=lo}^{hi} c x^{a + s i} = c x^a (r^lo - r^(hi+1)) / (1 - r)`` with ``r = x^s``, for ``c, a, s`` free of
    ``i``, ``x`` proved positive and ``x != 1``, ``s`` proved nonzero (so ``r > 0`` real, ``r != 1``), over a finite
    range proved forward: ``(1 - r) Σ_{i=lo}^{hi} r^i`` telescopes to ``r^lo - r^(hi+1)`` (:func:`_telescope` with
    ``g(i) = -r^i``), and ``1 - r != 0``."""
    return _innermost(_geometric)(e)


#: The closed forms ``doit`` uses for sums with symbolic limits: each a named strategy with its proof.
_CLOSED_FORMS = (_counted, _telescoped, _polynomial, _geometric)


@strategy("doit")
def _doit(e):
    r"""Evaluate what is written out only in form: explicit matrices, finite sums and products with integer limits
    (fewer than 100 terms: written out term by term, the definition), and :class:`Kernel` functions unfolded into
    their definitions through :func:`_unfold` (bound variables bound by :func:`bind`; a definition that evaluates a
    sum with symbolic limits is refused). A sum with symbolic limits is evaluated only by the named closed forms
    ``count_terms``, ``telescope``, ``polynomial_sum`` and ``geometric_sum`` (each proved for every forward range,
    innermost limit first); otherwise it is held
    back as it is, like infinite sums and products, integrals and limits: SymPy's ``doit`` would use its closed forms
    of sums (``Σ_{i=0}^{n} (-1)^i C(n, i) = 0``, false at ``n = 0``), run ``integrate`` and ``limit``."""
    if isinstance(e, sp.MatrixBase) and not isinstance(e, sp.Basic):
        return e.applyfunc(_doit)
    if not isinstance(e, sp.Basic):
        return e
    for _ in range(_UNFOLD_ROUNDS):
        if not e.has(Kernel):
            break
        unfolded = _unfold(e, "doit")
        if unfolded == e:
            break
        e = unfolded
    # Integrals, limits and kernels are held as undefined functions of their free symbols (not bare symbols), so a
    # sum written out around one still substitutes its variable into it; they are put back by capture-avoiding
    # substitution. Sums and products are written out only where ``written_out`` allows (``finite_only``).
    held: dict = {}

    def hold(x):
        free = sorted((v for v in x.free_symbols if isinstance(v, sp.Symbol)), key=sp.default_sort_key)
        h = sp.Function(f"_held{next(_HELD)}")
        held[h] = (x, free)
        return h(*free)

    def restore(y):
        if not (isinstance(y, sp.Basic) and y.has(*held)):
            return y

        def back(a):
            x, free = held[a.func]
            return restore(_substitute(x, dict(zip(free, a.args, strict=True))))

        return y.replace(lambda a: isinstance(a, AppliedUndef) and a.func in held, back)

    if e.has(sp.Integral, sp.Limit, Kernel):
        e = e.replace(_not_for_doit, hold)
    with finite_only():
        e = restore(e.doit())

    def closed(s):
        for rule in _CLOSED_FORMS:
            t = rule(s)
            if t != s:
                return t
        return s

    return _innermost(closed)(e)


def _checked(name: str, f: Callable) -> Callable:
    r"""``f`` whose every result is checked against the fragment as the strategy ``name`` produced it."""

    def run(x):
        out = f(x)
        _check_produced(out, name, _GIVEN.get())
        return out

    return run


@strategy("unfold")
def _unfold(e, name: str = "unfold"):
    r"""Replace each :class:`Kernel` by its definition (its ``doit``), and nothing else: a sum with a symbolic range
    is left as it is, where ``doit`` would try to evaluate it. A definition's sums are bound like the sides'
    (:func:`bind`), so that they meet the sums they are compared with, and no user declaration about a bound variable
    enters. The definitions run under :func:`~posproof.symbolic.engine.kernel.unfolding`: one that evaluates a sum
    or product with symbolic limits raises ``ValueError`` (SymPy's closed forms are not equivalences); each is checked
    against the fragment on its own, before it meets the rest (a Float ``0.1`` would cancel against ``1/10``)."""
    if isinstance(e, sp.MatrixBase) and not isinstance(e, sp.Basic):
        return e.applyfunc(lambda x: _unfold(x, name))
    if isinstance(e, sp.Basic) and e.has(Kernel):
        with unfolding():
            return e.replace(lambda x: isinstance(x, Kernel), _checked(name, lambda k: bind(k.doit())))
    return e


def _fresh_copy(var, taken: set):
    r"""The first of ``var'``, ``var''``, ... (:func:`_copy`: the same on both sides of a step) not in ``taken``."""
    while var in taken:
        var = _copy(var)
    return var


def _rename_bound(s, mapping: dict):
    r"""The Sum ``s`` with its bound variables renamed by ``mapping`` (to fresh dummies): alpha-renaming."""
    live: dict = {}
    limits = []
    for var, lo, hi in reversed(s.limits):  # outermost first
        lo, hi = _substitute(lo, live), _substitute(hi, live)
        if var in mapping:
            live[var] = mapping[var]
        limits.append((mapping.get(var, var), lo, hi))
    return sp.Sum(_substitute(s.function, live), *reversed(limits))


def _exchanged(s):
    r"""The Sum ``s`` with its limits in one canonical order (by variable name, then range), when no range depends
    on another of its variables; else ``s``."""
    if not isinstance(s, sp.Sum) or len(s.limits) < 2 or not _finite_limits(s):
        return s
    variables = [v for v, _, _ in s.limits]
    if any(b.has(*variables) for _, lo, hi in s.limits for b in (lo, hi)):
        return s
    key = sp.default_sort_key
    order = sorted(s.limits, key=lambda lim: (lim[0].name, key(lim[1]), key(lim[2]), key(lim[0])))
    return s if order == list(s.limits) else sp.Sum(s.function, *order)


@strategy("exchange_sums")
def _exchange_sums(e):
    r"""Exchange the order of a multiple finite sum whose ranges do not depend on each other's variables:
    ``Σ_{i=a}^{b} Σ_{j=c}^{e} f(i, j) = Σ_{j=c}^{e} Σ_{i=a}^{b} f(i, j)`` (both are the sum of ``f`` over the finite
    set ``[a, b] × [c, e]``, and a finite sum does not depend on the order of its terms). The limits are put in one
    canonical order (by variable name, then range), so that the two orders meet. Infinite limits and ranges that
    depend on another variable of the sum are left alone."""
    if isinstance(e, sp.Basic) and e.has(sp.Sum):
        return e.replace(lambda x: isinstance(x, sp.Sum), _exchanged)
    return e


def _merged(m):
    r"""The product ``m`` with its finite Sum factors merged into one Sum over all their variables, or ``m``."""
    if not isinstance(m, sp.Mul) or not m.is_commutative:
        return m
    factors = list(m.args)
    sums = [f for f in factors if isinstance(f, sp.Sum) and _finite_limits(f)]
    if len(sums) < 2:
        return m
    rest = [f for f in factors if not (isinstance(f, sp.Sum) and _finite_limits(f))]
    free = set().union(*(f.free_symbols for f in factors))
    taken = set(free)
    summands, limits = [], []
    for s in sums:
        mapping: dict = {}
        for var, _, _ in s.limits:
            if var in taken:  # bound by an earlier factor, or free in one: a fresh copy, so nothing is captured
                mapping[var] = _fresh_copy(var, taken | set(mapping.values()))
        s = _rename_bound(s, mapping) if mapping else s
        taken |= {v for v, _, _ in s.limits}
        summands.append(s.function)
        limits.extend(s.limits)
    return sp.Mul(*rest) * _exchanged(sp.Sum(sp.Mul(*summands), *limits))


@strategy("sum_product")
def _sum_product(e):
    r"""Distribute a product of finite sums over one multiple sum: ``(Σ_{i∈I} a_i)(Σ_{j∈J} b_j) = Σ_{i∈I} Σ_{j∈J}
    a_i b_j`` (distributivity, term by term, for finite ``I``, ``J``; the empty range gives ``0 = 0``). The sums'
    variables are made independent first: a variable bound by two factors, or free in another factor, is renamed to
    a fresh copy (alpha-renaming), so no variable is captured. The merged sum's limits are put in the canonical order
    of ``exchange_sums`` (as are all multiple sums: ``exchange_sums`` runs after it), so that a double sum written
    out meets it (with the same variable names); read backwards
    it is the factorization ``pull_factors`` does. Commutative products only; sums with an infinite limit are left
    alone."""
    if isinstance(e, sp.Basic) and e.has(sp.Sum):
        return _exchange_sums(e.replace(lambda x: isinstance(x, sp.Mul), _merged))
    return e


def _pulled(s):
    r"""The Sum ``s`` with each factor free of a variable pulled out of that variable's sum (innermost first)."""
    if not isinstance(s, sp.Sum) or not _finite_limits(s):
        return s
    body = s.function
    for var, lo, hi in s.limits:  # innermost first
        factors = sp.Mul.make_args(body)
        out = [f for f in factors if f.is_commutative and not f.has(var)]
        inside = [f for f in factors if not (f.is_commutative and not f.has(var))]
        body = sp.Mul(*out) * sp.Sum(sp.Mul(*inside), (var, lo, hi))
    return body


@strategy("pull_factors")
def _pull_factors(e):
    r"""Pull factors free of a summation variable out of its finite sum: ``Σ_i c f_i = c Σ_i f_i`` for ``c`` free of
    ``i`` (distributivity; ``c 0 = 0`` for the empty range), one variable at a time from the innermost, so that
    ``Σ_i Σ_j a_i b_j`` becomes ``(Σ_i a_i)(Σ_j b_j)`` (the reverse of ``sum_product``). The reverse, pushing a factor
    in, is ``push_factors`` (and ``combine_sums``, run at the end of every step, pushes the coefficients of sums over
    equal ranges in as it merges them, so differences merge). Commutative factors only; sums with an infinite limit
    are left alone."""
    if isinstance(e, sp.Basic) and e.has(sp.Sum):
        return e.replace(lambda x: isinstance(x, sp.Sum), _pulled)
    return e


def _pushed(m):
    r"""The product ``m`` with its factors pushed into its one finite Sum factor, or ``m``."""
    if not isinstance(m, sp.Mul):
        return m
    sums = [f for f in m.args if isinstance(f, sp.Sum) and _finite_limits(f)]
    if len(sums) != 1:
        return m
    (s,) = sums
    c = [f for f in m.args if f is not s]
    if not all(f.is_commutative for f in c):
        return m
    c = sp.Mul(*c)
    taken = c.free_symbols
    mapping: dict = {}
    for var, _, _ in s.limits:
        if var in taken:  # the factor uses a name the sum binds: rename the bound one
            mapping[var] = _fresh_copy(var, taken | set(mapping.values()) | {v for v, _, _ in s.limits})
    s = _rename_bound(s, mapping) if mapping else s
    return sp.Sum(c * s.function, *s.limits)


@strategy("push_factors")
def _push_factors(e):
    r"""Push the other factors of a product into its one finite sum: ``c Σ_i f_i = Σ_i c f_i`` (distributivity;
    ``c 0 = 0`` for the empty range), the reverse of ``pull_factors``; a variable the sum binds that occurs in ``c``
    is renamed to a fresh copy first (alpha-renaming), so ``c`` is not captured. With a sum as the summand
    (``Σ_j c_j Σ_i f_i``) it builds the double sum ``Σ_j Σ_i c_j f_i``. Commutative factors only; sums with an
    infinite limit are left alone."""
    if isinstance(e, sp.Basic) and e.has(sp.Sum):
        return e.replace(lambda x: isinstance(x, sp.Mul), _pushed)
    return e


@strategy("block_collapse")
def _block_collapse(e):
    r"""Block-matrix multiplication and addition: exact matrix algebra."""
    return sp.block_collapse(e)


@strategy("piecewise_fold")
def _piecewise_fold(e):
    r"""Merge a sum of ``Piecewise`` into one ``Piecewise`` branch by branch: the same function on every branch."""
    return sp.piecewise_fold(e)


@strategy("identity")
def _identity(e):
    r"""No rewrite: the difference must already be zero as written."""
    return e


def _decide_on_range(cond, var, lo, hi):
    r"""``True``/``False`` if ``cond`` holds/fails for every integer ``var`` in ``[lo, hi]``, else ``None``.

    Sound: ``var = lo + j`` with ``j >= 0`` covers every value ``>= lo`` (a superset of the range), and
    ``var = hi - j`` every value ``<= hi``; a condition decided on a superset is decided on the range. An infinite
    limit decides nothing (``oo - j`` is no integer)."""
    if _infinite(lo) or _infinite(hi):
        return None
    j = sp.Dummy("j", integer=True, nonnegative=True)
    for sub in (lo + j, hi - j):
        if cond.subs(var, sub) is sp.true:
            return True
        if sp.Not(cond).subs(var, sub) is sp.true:
            return False
    return None


@strategy("refine_limits")
def _refine_limits(e):
    r"""Decide the conditions of a ``Piecewise`` inside a ``Sum`` from the summation range (e.g. ``i < d/2`` for
    ``i = 0 .. d/2 - 1``): a condition that holds on the whole range is replaced by true there. Limits that are not
    finite decide nothing."""

    def refine(s: sp.Sum):
        f = s.function
        for var, lo, hi in s.limits:

            def fix(c, var=var, lo=lo, hi=hi):
                if isinstance(c, (sp.core.relational.Relational,)):
                    v = _decide_on_range(c, var, lo, hi)
                    return c if v is None else (sp.true if v else sp.false)
                return c

            f = f.replace(
                lambda x: isinstance(x, sp.Piecewise),
                lambda pw, fix=fix: sp.Piecewise(*[(ex, fix(c)) for ex, c in pw.args]),
            )
        return sp.Sum(f, *s.limits)

    if isinstance(e, sp.Basic) and e.has(sp.Sum):
        return e.replace(lambda x: isinstance(x, sp.Sum), refine)
    return e


#: Strategies for inequality steps that transform both sides by a strictly increasing function (so ``a < b``
#: iff ``f(a) < f(b)``) before the difference is taken. Each checks the domain where it is increasing.
SIDE_STRATEGIES: dict[str, Callable[[Any, Any, tuple], list]] = {}


def _log_sides(small, big, given: tuple):
    r"""``a < b`` iff ``log a < log b`` for positive ``a, b``: both sides must be proved positive first."""
    for side in (small, big):
        if not proves(sp.Q.positive(side), side.is_positive, given):
            raise ValueError("log_sides needs both sides proved positive")
    return [(sp.log(small), sp.log(big))]


def _exp_sides(small, big, given: tuple):
    r"""``a < b`` iff ``e^a < e^b`` for real ``a, b`` (the exponential is strictly increasing on the reals): both
    sides must be proved real first. ``log u <= log v`` becomes ``u <= v`` for positive ``u, v``."""
    for side in (small, big):
        if not proves(sp.Q.real(side), side.is_real, given):
            raise ValueError("exp_sides needs both sides proved real")
    return [(sp.exp(small), sp.exp(big))]


def _abs_sides(small, big, given: tuple):
    r"""``|a| <= b`` iff ``a <= b`` and ``-a <= b``, for real ``a`` (``|a| = max(a, -a)``; the same with ``<``): the
    small side must be ``Abs`` of an expression proved real, and both parts must be proved."""
    if not (isinstance(small, sp.Abs) and proves(sp.Q.real(small.args[0]), small.args[0].is_real, given)):
        raise ValueError("abs_sides needs the small side |a| with a proved real")
    a = small.args[0]
    return [(a, big), (-a, big)]


def _square_sides(small, big, given: tuple):
    r"""``a <= b`` iff ``a^2 <= b^2`` for ``a, b >= 0`` (squaring is increasing there): both sides must be proved
    nonnegative first."""
    for side in (small, big):
        if not nonnegative(side, given):
            raise ValueError("square_sides needs both sides proved nonnegative")
    return [(small**2, big**2)]


def _side_strategy(name: str, f: Callable) -> Callable:
    r"""``f`` whose output pairs are checked against the fragment (:func:`_check_produced`)."""

    @functools.wraps(f)
    def checked(small, big, given: tuple):
        pairs = f(small, big, given)
        for pair in pairs:
            for side in pair:
                _check_produced(side, name, given)
        return pairs

    return checked


SIDE_STRATEGIES["square_sides"] = _side_strategy("square_sides", _square_sides)
SIDE_STRATEGIES["log_sides"] = _side_strategy("log_sides", _log_sides)
SIDE_STRATEGIES["exp_sides"] = _side_strategy("exp_sides", _exp_sides)
SIDE_STRATEGIES["abs_sides"] = _side_strategy("abs_sides", _abs_sides)
STRATEGY_NAMES = frozenset(STRATEGIES) | frozenset(SIDE_STRATEGIES)


def nonnegative(e, given: tuple = (), ranges: dict | None = None) -> bool:
    r"""Whether ``e >= 0`` is proved: SymPy's assumptions (and ``given``) first, then rules SymPy lacks, each sound on
    its own:

    - a Sum over a range proved forward of a summand proved nonnegative is (every term is, and there is no reversed
      range to flip the sign); the summand is judged knowing the range of each summation variable (``ranges``);
    - a product of factors each proved nonnegative is; so is ``sqrt(w conj(w))``;
    - a sum of terms is, when after removing pairs that are nonnegative together every other term is:
      ``|a| + c a`` for real ``a`` and ``|a| + c Re(a)`` for any ``a`` (a rational ``|c| <= 1``: ``|a| >= |Re a|``;
      ``|a|`` may be written as the product of its factors' moduli), and ``c Maximum(f, (i, lo, hi)) - c f(x)``
      (``c > 0``) for an ``x`` proved an integer and proved in ``lo .. hi`` on every value of the summation variables
      around it, ``lo`` proved an integer and ``f`` proved real (the maximum is over the integers of the range: a
      non-integer ``x`` is no term of it, and complex terms have no order)."""
    ranges = ranges or {}
    if proves(sp.Q.nonnegative(e), getattr(e, "is_nonnegative", None), given):
        return True
    if isinstance(e, sp.Sum):
        if not all(forward(lo, hi, given) for _, lo, hi in e.limits):
            return False
        return nonnegative(e.function, given, {**ranges, **{v: (lo, hi) for v, lo, hi in e.limits}})
    if isinstance(e, sp.Mul):
        return all(nonnegative(f, given, ranges) for f in e.args)
    if isinstance(e, sp.Pow) and e.exp == sp.S.Half and fragment.modulus_squared(e.base):
        return True  # sqrt(w conj(w)) = |w|: SymPy writes |w| so when conj(w) is simple
    if not isinstance(e, sp.Add):
        return False
    rest = list(e.args)
    for t in e.args:
        if t not in rest:
            continue
        partner = _partner(t, rest, given, ranges)
        if partner is not None:
            rest.remove(t)
            rest.remove(partner)
    if len(rest) == len(e.args):
        return False
    return all(nonnegative(t, given, ranges) for t in rest)


def _moduli(a) -> set:
    r"""``|a|`` as SymPy writes it, and as the product of the moduli of ``a``'s factors (the same number)."""
    return {sp.Abs(a), sp.Mul(*[sp.Abs(f) for f in sp.Mul.make_args(a)])}


def _partner(t, rest: list, given: tuple, ranges: dict):
    r"""A term of ``rest`` that makes ``t + partner >= 0`` by the pair rules of :func:`nonnegative`, or ``None``."""
    if isinstance(t, sp.Abs) and t.args[0].is_real:  # |a| + c a
        a = t.args[0]
        return next((u for u in rest if u is not t and _multiple(u, a) is not None), None)
    c, body = t.as_coeff_Mul()
    if isinstance(body, sp.re) and c.is_Rational and abs(c) <= 1:  # c Re(a) + |a|
        moduli = _moduli(body.args[0])
        return next((u for u in rest if u is not t and u in moduli), None)
    if isinstance(body, Maximum) and c.is_positive:  # c max_i f(i) - c f(x), x an integer in the range
        ((var, lo, hi),) = body.limits
        f = body.function
        if not (proves(sp.Q.integer(lo), lo.is_integer, given) and proves(sp.Q.real(f), f.is_real, given)):
            return None
        for u in rest:
            if u is t:
                continue
            x = _argument_of(-u / c, f, var)
            if x is not None and not _integer(x, given, ranges):
                continue  # not an index of the maximum: no term of it
            if x is not None and _within(x, lo, hi, given, ranges):
                return u
    return None


def _argument_of(value, f, var):
    r"""An ``x`` with ``f(x) == value`` exactly (structurally), found by matching, or ``None``."""
    w = sp.Wild("w")
    m = value.match(f.xreplace({var: w}))
    if not m or w not in m:
        return None
    x = m[w]
    return x if f.xreplace({var: x}) == value else None


def _integer(x, given: tuple, ranges: dict) -> bool:
    r"""Whether ``x`` is proved an integer (its summation variables are the dummies of their integer ranges)."""
    return proves(sp.Q.integer(x), x.is_integer, given)


def _within(x, lo, hi, given: tuple, ranges: dict) -> bool:
    r"""Whether ``lo <= x <= hi`` for every value of the summation variables in ``x`` (``x = v + c`` for one of
    them, ``c`` free of it; or ``x`` free of all of them)."""
    inner = [v for v in ranges if x.has(v)]
    if not inner:
        low, high = x, x
    elif len(inner) == 1 and sp.diff(x, inner[0]) == 1 and not (x - inner[0]).has(inner[0]):
        v = inner[0]
        low, high = ranges[v][0] + (x - v), ranges[v][1] + (x - v)
    else:
        return False
    return all(
        proves(sp.Q.nonnegative(g), g.is_nonnegative, given) for g in (sp.expand(low - lo), sp.expand(hi - high))
    )


def _multiple(u, a):
    r"""``c`` if ``u = c a`` with a rational ``|c| <= 1``, else ``None``."""
    c, rest = u.as_coeff_Mul()
    if rest == a and c.is_Rational and abs(c) <= 1:
        return c
    if u == a:
        return sp.Integer(1)
    return None


def proves(query, fast, given: tuple) -> bool:
    r"""Whether SymPy proves ``query``: the old assumptions (``fast``) first, then ``ask`` with the ``given``
    facts. ``None`` (not proved) counts as not proved."""
    if fast is True:
        return True
    if not given:
        return False
    return sp.ask(query, sp.And(*fragment.as_signs(tuple(given)))) is True


#: Bound-variable dummies, one per (name, limits, assumptions): the same sum written twice binds the same dummy,
#: so that ``combine_sums`` still sees equal limits on both sides of a step.
_BOUND: dict[tuple, sp.Dummy] = {}


def forward(lo, hi, given: tuple = ()) -> bool:
    r"""Whether the range ``lo .. hi`` is proved *forward*: ``hi - lo`` an integer and ``hi >= lo - 1`` (``hi = lo -
    1`` is the empty sum, the same under the empty-sum and SymPy's Karr conventions). A reversed range means
    different things under the two conventions, so the engine refuses it (both lines)."""
    span = _sympify(hi - lo)
    if span.has(sp.oo, -sp.oo, sp.zoo):
        return bool(lo.is_integer and hi is sp.oo)
    return span.is_integer is True and proves(sp.Q.nonnegative(span + 1), (span + 1).is_nonnegative, given)


#: The assumptions a message names first (SymPy derives many more: ``algebraic``, ``extended_nonnegative``...).
_NAMED = ("integer", "even", "odd", "positive", "nonnegative", "negative", "nonpositive", "nonzero", "zero", "real")


def _bound_dummy(var, lo, hi):
    r"""A dummy for a summation (product) variable with only what a forward range ``lo .. hi`` implies: an integer if
    ``lo`` is one (a real if ``lo`` is real), nonnegative/positive if ``lo`` is, else nonpositive/negative if ``hi``
    is. Nothing the user declared about ``var`` is kept."""
    kw: dict = {"integer": True} if lo.is_integer else ({"real": True} if lo.is_real else {})
    if lo.is_positive:
        kw["positive"] = True
    elif lo.is_nonnegative:
        kw["nonnegative"] = True
    elif hi.is_negative:
        kw["negative"] = True
    elif hi.is_nonpositive:
        kw["nonpositive"] = True
    key = (var.name, sp.srepr(lo), sp.srepr(hi), tuple(sorted(kw)))
    if key not in _BOUND:
        _BOUND[key] = sp.Dummy(var.name, **kw)
    dummy = _BOUND[key]
    # SymPy has already used the declaration when the claim was built (Abs(i) is i for a nonnegative i), so a
    # declaration the range does not imply cannot be undone here: the claim is refused.
    for fact, holds in sorted(
        var.assumptions0.items(), key=lambda kv: (_NAMED.index(kv[0]) if kv[0] in _NAMED else len(_NAMED), kv[0])
    ):
        if holds and getattr(dummy, f"is_{fact}", None) is not True:
            raise ValueError(
                f"the bound variable {var} is declared {fact}, which its range {lo} .. {hi} does not imply"
            )
    return dummy


def _rebound(e, fresh: Callable, depth: int = 0):
    r"""``e`` with every bound variable of a Sum, Product or :class:`Maximum` replaced by ``fresh(holder, var, lo,
    hi, depth)`` (outer limits first, so an inner range sees the outer variable's new name; ``depth`` counts the
    limits around it). The one traversal :func:`bind` and :func:`alpha` share."""
    if isinstance(e, sp.MatrixBase):
        return e.applyfunc(lambda x: _rebound(x, fresh, depth))
    if not isinstance(e, sp.Basic) or not e.has(sp.Sum, sp.Product, Maximum):
        return e
    if isinstance(e, (sp.Sum, sp.Product, Maximum)):
        sub: dict = {}
        limits = []
        for k, (var, lo, hi) in enumerate(reversed(e.limits)):  # SymPy lists the innermost limit first
            lo, hi = (_rebound(x.xreplace(sub), fresh, depth + k) for x in (lo, hi))
            sub[var] = fresh(e, var, lo, hi, depth + k)
            limits.append((sub[var], lo, hi))
        return type(e)(_rebound(e.function.xreplace(sub), fresh, depth + len(e.limits)), *reversed(limits))
    args = [_rebound(a, fresh, depth) for a in e.args]
    return e.func(*args) if args != list(e.args) else e


def bind(e, given: tuple = ()):
    r""":func:`_bind`, computed once per process for each expression and ``given`` (a claim binds its sides when it is
    built, and each strategy and sign decision binds them again); an unhashable part (a mutable Matrix) is bound
    afresh."""
    try:
        return _bound(e, tuple(given), tuple(sp.assumptions.global_assumptions))
    except TypeError:
        return _bind(e, given)


@functools.lru_cache(maxsize=8192)
def _bound(e, given: tuple, _global: tuple):
    return _bind(e, given)


def _bind(e, given: tuple = ()):
    r"""``e`` with every bound variable of a Sum, Product or :class:`Maximum` replaced by a dummy carrying only what
    its limits imply (outer limits first, so an inner range may use the outer variable's bounds; a shadowed name
    gets its own dummy). Run before any strategy and any sign decision: no rewrite then sees what the user
    *declared* about a bound variable. A range not proved forward raises ``ValueError`` (the engine refuses
    reversed ranges; a maximum also needs a nonempty range)."""

    def fresh(holder, var, lo, hi, depth):
        if isinstance(holder, Maximum) and not forward(lo, hi - 1, given):  # the maximum of nothing is no number
            raise ValueError(f"the range {var} = {lo} .. {hi} of a Maximum is not proved nonempty ({hi} >= {lo})")
        if not forward(lo, hi, given):
            raise ValueError(f"the range {var} = {lo} .. {hi} is not proved forward ({hi} >= {lo} - 1)")
        return _bound_dummy(var, lo, hi)

    return _rebound(e, fresh)


#: The canonical bound variables of :func:`alpha`, one per (depth, assumptions).
_ALPHA: dict = {}


def alpha(e):
    r"""``e`` with each bound variable renamed by its nesting depth (``b0`` outermost): two expressions that differ
    only in the names of their bound variables become identical (alpha-equivalence). They are dummies, never free
    anywhere, so no free variable is captured. Run on :func:`bind`'s output."""

    def fresh(holder, var, lo, hi, depth):
        kw = {a: v for a, v in var.assumptions0.items() if v is not None}
        key = (depth, tuple(sorted(kw.items())))
        if key not in _ALPHA:
            _ALPHA[key] = sp.Dummy(f"b{depth}", **kw)
        return _ALPHA[key]

    return _rebound(e, fresh)


def _in_sums(f: Callable, e):
    r"""Apply ``f`` to every Sum's summand (innermost first), then to the whole expression. The summation variables
    are the dummies of :func:`bind` by then. A nested ``Sum(Sum(..))`` is one multi-limit Sum in SymPy: its summand
    is rewritten once."""
    if isinstance(e, sp.Basic) and e.has(sp.Sum):
        e = e.replace(lambda x: isinstance(x, sp.Sum), lambda s: sp.Sum(f(s.function), *s.limits))
    return f(e)


def is_zero(e) -> bool:
    if isinstance(e, sp.MatrixBase):
        return all(is_zero(x) for x in e)
    if isinstance(e, sp.MatrixExpr):
        if isinstance(e, sp.ZeroMatrix):
            return True
        if all(isinstance(s, (int, sp.Integer)) for s in e.shape):
            return is_zero(e.as_explicit())
        return False
    if isinstance(e, sp.Sum):
        return is_zero(e.function)
    return e == 0


def congruent(lhs, rhs) -> tuple[Any, Any] | None:
    r"""``(a, b)`` if ``lhs = F(a)`` and ``rhs = F(b)`` for one function ``F`` of one argument (then ``a = b`` proves
    ``lhs = rhs``: a function takes equal values at equal arguments), else ``None``."""
    if (
        isinstance(lhs, sp.Basic)
        and isinstance(rhs, sp.Basic)
        and lhs.func == rhs.func
        and len(lhs.args) == len(rhs.args) == 1
        and isinstance(lhs, (sp.Function, sp.Abs, sp.re, sp.im))
    ):
        return lhs.args[0], rhs.args[0]
    return None


def reduce_difference(lhs, rhs, strategy: Sequence[str], given: tuple = ()):
    r"""``lhs - rhs`` after each named strategy in turn (Matrix entries one by one), bound variables replaced by
    :func:`bind` first. What each strategy produces must be in the fragment (:func:`_check_produced`): a strategy
    output outside it raises ``ValueError`` and the step is not proved."""
    e = bind(lhs, given) - bind(rhs, given)
    token = _GIVEN.set(tuple(given))
    try:
        return _reduced(e, strategy, given)
    finally:
        _GIVEN.reset(token)


def _reduced(e, strategy: Sequence[str], given: tuple):
    for name in strategy:
        f = STRATEGIES[name]
        if isinstance(e, sp.MatrixBase):
            e = e.applyfunc(lambda x, f=f: _in_sums(f, x))
        else:
            e = _in_sums(f, e)
        _check_produced(e, name, given)
    # Strategies such as expand split one Sum into several: merge Sums over the same range again (a structural
    # normal form, not a simplification) so that summands which cancel can be seen to cancel.
    if isinstance(e, sp.MatrixBase):
        e = e.applyfunc(lambda x: _in_sums(combine_sums, x))
    elif isinstance(e, sp.Basic) and e.has(sp.Sum):
        e = _in_sums(combine_sums, e)
    else:
        return e
    _check_produced(e, "combine_sums", given)
    return e
