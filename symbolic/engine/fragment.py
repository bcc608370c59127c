r"""The fragment: the mathematics the engine accepts, each construct with the rule that makes it sound.

Default-deny. Every node of every expression a claim is built with (its sides, its steps' sides, its wrong variant
and its ``given`` facts, bound variables first replaced by :func:`~.strategies.bind`'s dummies) and of every
expression a strategy produces must be an instance of a construct of :data:`CONSTRUCTS` and meet that construct's
condition; anything else is refused with :class:`Refused` (a ``ValueError``) in one line naming the construct. A
SymPy class that is not listed (``tan``, ``KroneckerDelta``, a class a later SymPy adds) is refused, subclasses
included: a class is looked up by its exact type, a :class:`~.kernel.Kernel` by the kernel rule.
``docs/soundness.md`` is this list written out, with each rule's argument; ``tests/symbolic/engine/
test_fragment.py`` holds a test per construct and per refusal.

>>> import sympy as sp
>>> x = sp.Symbol("x", real=True)
>>> refusal(sp.sin(x) + x**2)
''
>>> refusal(sp.tan(x))
'tan(x): tan is not in the fragment (docs/soundness.md lists what is)'
>>> refusal(sp.Float(0.5) * x)
'the Float 0.500000000000000: SymPy absorbs a Float at 15 digits; write exact numbers (sp.Rational)'
"""

# Long module: the whole fragment in one place (the constructs, the visitor that enforces them, the proofs of
# their conditions), so that what the engine accepts is read, documented and mutated in one file.

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp
from posproof.symbolic.engine import kernel
from posproof.symbolic.engine.kernel import Kernel
from posproof.symbolic.engine.maximum import Maximum
from posproof.symbolic.engine.permutation import PermutationMap
from sympy.core import numbers as _numbers
from sympy.matrices.expressions.matexpr import MatrixElement

__all__ = [
    "Refused", "Construct", "CONSTRUCTS", "check", "check_produced", "refusal", "given_refusal", "notation", "smooth",
    "proved_real", "definition", "modulus_squared", "as_signs", "refusals",
]  # fmt: skip


class Refused(ValueError):
    r"""A construct outside the fragment: the message names it, and the claim and step where it was met."""


@dataclass(frozen=True)
class Construct:
    r"""One construct of the fragment: the SymPy classes it covers, the condition under which it is accepted (a
    sentence) and why the engine may reason with it (``rule``: the soundness argument)."""

    name: str
    classes: tuple
    condition: str
    rule: str


# ---- proofs of the conditions (the symbols' assumptions and the claim's given facts) -----------------------------


def _as_signs(given: tuple) -> tuple:
    r"""``given`` with each relation also written as a sign fact of the difference (``Q.gt(d, 2)`` gives
    ``Q.positive(d - 2)``), the form SymPy's ``ask`` reasons with."""
    Q = sp.Q
    signs = {Q.gt: Q.positive, Q.ge: Q.nonnegative, Q.lt: Q.negative, Q.le: Q.nonpositive, Q.ne: Q.nonzero,
             Q.eq: Q.zero}  # fmt: skip
    rels = {sp.StrictGreaterThan: Q.positive, sp.GreaterThan: Q.nonnegative, sp.StrictLessThan: Q.negative,
            sp.LessThan: Q.nonpositive, sp.Unequality: Q.nonzero, sp.Equality: Q.zero}  # fmt: skip
    out = list(given)
    for fact in given:
        if isinstance(fact, sp.AppliedPredicate) and fact.function in signs and len(fact.arguments) == 2:
            a, b = fact.arguments
            fact = signs[fact.function](a - b)
            out.append(fact)
        elif type(fact) in rels:
            fact = rels[type(fact)](fact.lhs - fact.rhs)
            out.append(fact)
        if isinstance(fact, sp.AppliedPredicate) and fact.function in (Q.positive, Q.negative):
            (e,) = fact.arguments
            if getattr(e, "is_integer", None):  # an integer > 0 is >= 1, one < 0 is <= -1
                out.append(Q.nonnegative(e - 1) if fact.function is Q.positive else Q.nonpositive(e + 1))
    return tuple(out)


as_signs = _as_signs


def _proves(query, fast, given: tuple) -> bool:
    if fast is True:
        return True
    if not given:
        return False
    try:
        return sp.ask(query, sp.And(*_as_signs(given))) is True
    except (TypeError, ValueError, NotImplementedError):  # SymPy cannot decide: not proved
        return False


def _reciprocal(p) -> bool:
    return isinstance(p, sp.Pow) and p.exp.is_integer is True and p.exp.is_negative is True


def _defined(e):
    r"""``e`` where it is defined: each reciprocal ``y^-n`` of a base not proved nonzero becomes ``u^-n`` for a
    nonzero dummy ``u`` carrying the sign ``y`` is proved to have (a claim holds where its denominators are
    nonzero, so a fact about ``e`` may assume them nonzero). Then ``d/(d - 2)`` is proved real for an integer
    ``d``."""
    if not (isinstance(e, sp.Basic) and e.has(sp.Pow)):
        return e

    def nonzero(p):
        b = p.base
        if b.is_nonzero:
            return p
        kw: dict = {"nonzero": True}
        if b.is_nonnegative:
            kw = {"positive": True}
        elif b.is_nonpositive:
            kw = {"negative": True}
        elif b.is_real:
            kw["real"] = True
        if b.is_integer:
            kw["integer"] = True
        return sp.Dummy("y", **kw) ** p.exp

    return e.replace(_reciprocal, nonzero)


def _fact(name: str, e, given: tuple) -> bool:
    r"""Whether ``e`` is proved to have the property ``name`` where it is defined (:func:`_decide`), asked once per
    process for each expression and ``given`` (SymPy's ``ask`` is the cost of building a claim)."""
    try:
        return _decided(name, e, given)
    except TypeError:  # a part that cannot be hashed
        return _decide(name, e, given)


@functools.lru_cache(maxsize=65536)
def _decided(name: str, e, given: tuple) -> bool:
    return _decide(name, e, given)


def _decide(name: str, e, given: tuple) -> bool:
    r"""Whether ``e`` is proved to have the property ``name`` (``real``, ``positive``, ...) where it is defined, from
    the symbols' assumptions and ``given``: SymPy's assumptions on ``e`` and on its forms (re-evaluated and expanded;
    where defined, :func:`_defined`; widened, :func:`_widened`) first, then ``ask`` with the ``given`` facts about
    its symbols."""
    if not isinstance(e, sp.Basic):
        return False
    if getattr(e, f"is_{name}", None) is True:  # most facts need no other form
        return True
    try:
        forms = _forms(e)
    except TypeError:  # a part that cannot be hashed
        forms = _forms.__wrapped__(e)
    if any(getattr(x, f"is_{name}", None) is True for x in forms[1:]):
        return True
    free = e.free_symbols
    relevant = tuple(g for g in given if getattr(g, "free_symbols", set()) & free)
    if not relevant:
        return False
    if any(getattr(x, f"is_{name}", None) is True for x in _renamed_by_given(forms, relevant)):
        return True
    query = getattr(sp.Q, name)
    return any(_proves(query(x), None, relevant) for x in forms)


#: The sign of a given fact, as the assumptions of the variable that stands for the expression it is about.
_SIGN_ASSUMPTIONS = {
    "positive": {"positive": True},
    "negative": {"negative": True},
    "nonnegative": {"nonnegative": True},
    "nonpositive": {"nonpositive": True},
    "nonzero": {"nonzero": True, "real": True},  # Q.nonzero is real and not zero
}


def _renamed_by_given(forms: tuple, given: tuple) -> list:
    r"""The forms of an expression with one symbol traded for a given sign fact's expression (a change of
    variables): for ``Q.positive(g)`` with ``g = c s + h`` (``c`` a nonzero rational, ``h`` free of ``s``), ``s`` is
    replaced by ``(w - h)/c`` for a dummy ``w`` with that sign (an integer when ``g`` is). Every admissible point has
    ``w = g > 0`` there, so a fact SymPy's assumptions prove for every such ``w`` (and every value of the other
    symbols) holds at the point: ``s``'s own assumptions are dropped, never added. Cheaper than ``ask``, and it
    decides the common case (``log(p + v)`` nonzero given ``p + v - 1 > 0``)."""
    out: list = []
    for fact in _as_signs(given):
        if not (isinstance(fact, sp.AppliedPredicate) and len(fact.arguments) == 1):
            continue
        kind = next((k for k in _SIGN_ASSUMPTIONS if fact.function is getattr(sp.Q, k)), None)
        (g,) = fact.arguments
        if kind is None or not isinstance(g, sp.Expr):
            continue
        for s in sorted(g.free_symbols, key=sp.default_sort_key):
            c = g.diff(s)
            if not (isinstance(c, sp.Rational) and c != 0) or (g - c * s).has(s):
                continue
            w = sp.Dummy("w", **_SIGN_ASSUMPTIONS[kind], **({"integer": True} if g.is_integer else {}))
            for x in forms:
                if isinstance(x, sp.Basic) and s in x.free_symbols and not _binds(x, s):
                    out.append(x.xreplace({s: (w - (g - c * s)) / c}))
            break
    return out


def _binds(e, s) -> bool:
    r"""Whether ``s`` is a bound variable somewhere in ``e`` (a Sum's, a Derivative's...): not renamed there."""
    return any(
        s in getattr(a, "variables", ()) or s in getattr(a, "bound_symbols", ()) for a in sp.preorder_traversal(e)
    )


@functools.lru_cache(maxsize=16384)
def _forms(e) -> tuple:
    r"""``e`` and the forms a fact about it is also asked of: re-evaluated and expanded (``(f + w) - f`` is ``w``);
    or where defined (:func:`_defined`), widened (:func:`_widened`) and expanded."""
    if not e.has(sp.Pow, sp.Max, sp.Min):
        x = sp.expand(e.doit(deep=False) if isinstance(e, sp.Add) else e)
        return (e, x.func(*x.args) if isinstance(x, sp.Add) else x)
    f = _widened(_defined(e))
    return (e, f, sp.expand(f))


def _widened(e):
    r"""``e`` with each ``Max(a, ...)`` of real arguments replaced by ``a + u`` and each ``Min(a, ...)`` by ``a - u``,
    ``u`` a nonnegative dummy: every value ``e`` takes, the widened expression takes at some ``u >= 0``, so a fact
    proved for every ``u >= 0`` holds for ``e``."""

    def widen(m):
        if not all(a.is_real for a in m.args):
            return m
        u = sp.Dummy("u", nonnegative=True)
        return m.args[0] + u if isinstance(m, sp.Max) else m.args[0] - u

    return e.replace(lambda x: isinstance(x, (sp.Max, sp.Min)), widen)


def _real(e, given: tuple) -> bool:
    return _fact("real", e, given) or _real_by_form(e, given)


def proved_real(e, given: tuple = ()) -> bool:
    r"""Whether ``e`` (an expression of the fragment) is proved real where it is defined: SymPy's assumptions and
    ``given``, then by its form (:func:`_real_by_form`). What an order relation needs of both its sides."""
    if isinstance(e, sp.MatrixBase):
        return all(proved_real(x, given) for x in e)
    return isinstance(e, sp.Basic) and _real(e, tuple(given))


def _real_by_form(e, given: tuple) -> bool:
    r"""Realness by the form of ``e``, sound because every value of the fragment is finite where it is defined (no
    symbol may be infinite, no infinity is written): ``re``, ``im``, ``|.|``, ``Max``, ``Min``, ``floor``, ``ceiling``
    and ``Maximum`` are real; sums, products and finite Sums of real terms are real; an integer power of a real base,
    and a real power of a positive base; ``exp``, ``sin``, ``cos`` of a real argument; ``log`` of a positive one; a
    Piecewise whose branches are real; a kernel whose definition is."""
    if not isinstance(e, sp.Basic):
        return False
    if e.is_real:
        return True
    t = type(e)
    if t in (sp.re, sp.im, sp.Abs, sp.Max, sp.Min, sp.floor, sp.ceiling, Maximum):
        return True
    if t in (sp.Add, sp.Mul):
        return all(_real_by_form(a, given) for a in e.args)
    if t is sp.Pow:
        b, x = e.args
        if x.is_integer:
            return _real_by_form(b, given)
        return _positive(b, given) and _real_by_form(x, given)
    if t in (sp.exp, sp.sin, sp.cos):
        return _real_by_form(e.args[0], given)
    if t is sp.log:
        return _positive(e.args[0], given)
    if t in (sp.Sum, sp.Product):
        return _real_by_form(e.function, given)
    if t is sp.Piecewise:
        return all(_real_by_form(ex, given) for ex, _ in e.args)
    if isinstance(e, Kernel) and not isinstance(e, PermutationMap):
        body = _definition_or_self(e)
        return body != e and _real_by_form(body, given)
    if t is sp.Derivative:
        return all(v.is_real for v, _ in e.variable_count) and _real_by_form(e.expr, given)
    return _proves(sp.Q.real(e), None, given)


def _integer(e, given: tuple) -> bool:
    if _proves(sp.Q.integer(e), e.is_integer, given):
        return True
    return e.has(Kernel) and _unfolded(e).is_integer is True  # a kernel's value, from its definition


def _positive(e, given: tuple) -> bool:
    return _fact("positive", e, given)


def _nonzero(e, given: tuple) -> bool:
    return _fact("nonzero", e, given) or _positive(e, given) or _fact("negative", e, given)


def _nonnegative(e, given: tuple) -> bool:
    return _fact("nonnegative", e, given) or modulus_squared(e)


def modulus_squared(e) -> bool:
    r"""Whether ``e`` is ``w conj(w)`` (two factors, either order): ``|w|^2 >= 0``."""
    factors = sp.Mul.make_args(e)
    return len(factors) == 2 and sp.conjugate(factors[0]) == factors[1]


def _finite_bound(e) -> bool:
    return not (isinstance(e, sp.Basic) and e.has(sp.oo, -sp.oo, sp.zoo, sp.nan))


# ---- kernels: a definition and code, assumptions proved from the definition ------------------------------------

#: What a kernel class may declare about its values: each must follow from its definition.
_VALUE_FACTS = (
    "integer", "real", "positive", "nonnegative", "negative", "nonpositive", "nonzero", "zero", "even", "odd",
    "rational", "finite", "complex", "extended_real", "extended_positive", "extended_nonnegative",
    "extended_negative", "extended_nonpositive", "extended_nonzero", "imaginary",
)  # fmt: skip


def definition(k: Kernel):
    r"""A kernel's definition at its arguments (:func:`~.kernel.definition`: its ``doit``, with SymPy's closed forms
    of sums and products held back: a finite one written out term by term, one with symbolic limits refused)."""
    try:
        return kernel.definition(k)
    except ValueError as e:
        raise Refused(str(e)) from None


def _definition_or_self(k: Kernel):
    r"""The kernel's definition, or the kernel itself when its definition is refused (nothing follows from it; the
    kernel rule says why where the kernel is visited)."""
    try:
        return definition(k)
    except Refused:
        return k


def _unfolded(e):
    r"""``e`` with every kernel written out by its definition (kernels defined by kernels too, a few levels); ``e``
    as it is when a definition is refused (the kernel rule then says why, where the kernel is visited)."""
    try:
        return _unfolding(e)
    except Refused:
        return e


def _unfolding(e):
    for _ in range(4):
        if not (isinstance(e, sp.Basic) and e.has(Kernel)):
            break
        opaque = [k for k in e.atoms(Kernel) if definition(k) == k]
        if len(opaque) == len(e.atoms(Kernel)):
            break
        e = e.replace(lambda x, opaque=opaque: isinstance(x, Kernel) and x not in opaque, definition)
    return e


def _kernel(k: Kernel, given: tuple, visit: Callable) -> str:
    cls = type(k)
    if isinstance(k, PermutationMap):
        return _permutation(k, given, visit)
    if getattr(cls.numeric, "__func__", None) is getattr(Kernel.numeric, "__func__", None) or cls.doit is Kernel.doit:
        return f"the kernel {cls.__name__} needs both faces: doit (its definition) and numeric (its code)"
    evals = sorted(n for c in cls.__mro__ if issubclass(c, Kernel) and c is not Kernel for n in vars(c))
    evals = [n for n in evals if n.startswith("_eval_is_")]
    if evals:
        return f"the kernel {cls.__name__} defines {evals[0]}: what a kernel's values are follows from its definition"
    for arg in k.args:
        reason = visit(arg)
        if reason:
            return reason
    try:
        body = definition(k)
    except Refused as e:
        return f"the kernel {cls.__name__}: {e}"
    declared = [f for f, v in getattr(cls, "_explicit_class_assumptions", {}).items() if v and f in _VALUE_FACTS]
    if body == k:  # an opaque kernel: what it is, is its code; it may declare nothing about its values
        if declared:
            return f"the kernel {cls.__name__} declares {declared[0]} but has no definition to prove it from"
        return ""
    for fact in declared:
        if getattr(body, f"is_{fact}") is not True:
            return f"the kernel {cls.__name__} declares {fact}, which its definition {body} does not prove"
    reason = visit(body)
    return f"the definition of {cls.__name__}: {reason}" if reason else ""


def _permutation(p: PermutationMap, given: tuple, visit: Callable) -> str:
    cls = type(p)
    for c in cls.__mro__[: cls.__mro__.index(PermutationMap)]:
        for name, value in vars(c).items():
            if name.startswith("__") or name in ("_nargs", "_prop_handler"):
                continue
            if name in ("_explicit_class_assumptions", "default_assumptions") and value in (
                {},
                getattr(PermutationMap, name),
            ):
                continue
            if name.startswith("is_") and value == getattr(PermutationMap, name, None):
                continue
            return (
                f"the permutation {cls.__name__} overrides {name}: only the engine's PermutationMap, or a subclass "
                "that only renames it, is a permutation the engine can reason with"
            )
    n, idx = p.args
    if not (_integer(n, given) and _positive(n, given)):
        return f"the permutation {p}: its size {n} must be proved a positive integer"
    if not _integer(idx, given):
        return f"the permutation {p}: its argument {idx} must be proved an integer"
    return visit(n) or visit(idx)


# ---- smoothness, for derivatives ---------------------------------------------------------------------------------

_SMOOTH_FUNCTIONS = (sp.exp, sp.sin, sp.cos)


def smooth(e, v, given: tuple = ()) -> bool:
    r"""Whether ``e`` is proved infinitely differentiable in the real variable ``v`` everywhere the claim holds: it
    is built from ``v`` and expressions free of ``v`` by sums, products, finite Sums, ``exp``, ``sin``, ``cos``,
    ``re``, ``im``, ``conjugate`` (``v`` is real), ``log`` of a positive argument, and powers (an integer exponent,
    where the base is nonzero; any exponent of a base proved positive). ``Abs``, ``Max``, ``Piecewise``, ``floor``
    and the like of ``v`` are not (they have kinks or jumps): a derivative of them is refused."""
    if not isinstance(e, sp.Basic) or not e.has(v):
        return True
    if e == v:
        return True
    if isinstance(e, (sp.Add, sp.Mul)):
        return all(smooth(a, v, given) for a in e.args)
    if isinstance(e, sp.Pow):
        b, x = e.args
        if not (smooth(b, v, given) and smooth(x, v, given)):
            return False
        if not x.has(v) and x.is_integer:  # a polynomial, or a quotient where its denominator is nonzero
            return True
        return _positive(b, given)
    if type(e) in _SMOOTH_FUNCTIONS or type(e) in (sp.re, sp.im, sp.conjugate):  # v is real: re(f)' = re(f')
        return smooth(e.args[0], v, given)
    if type(e) in (sp.Sum, sp.Product):  # a finite sum of smooth terms (the limits free of v)
        return all(not lo.has(v) and not hi.has(v) for _, lo, hi in e.limits) and smooth(e.function, v, given)
    if isinstance(e, sp.log):
        return smooth(e.args[0], v, given) and _positive(e.args[0], given)
    if isinstance(e, Kernel):
        body = _definition_or_self(e)
        return body != e and smooth(body, v, given)
    return False


# ---- notation: display classes whose doit() writes their meaning -------------------------------------------------

_NOTATION: set = set()


def notation(cls: type) -> type:
    r"""Register ``cls`` (a class decorator) as notation: an object that prints its own way and whose ``doit()`` writes
    its meaning with constructs of the fragment (``R(a)`` is the explicit rotation matrix). The engine treats an
    instance as that meaning: the meaning is checked like any other expression."""
    _NOTATION.add(cls)
    return cls


# ---- the constructs ----------------------------------------------------------------------------------------------

_ORDER = (sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan, sp.GreaterThan)
_Q = sp.Q
_GIVEN_PREDICATES = {
    _Q.positive, _Q.negative, _Q.nonnegative, _Q.nonpositive, _Q.nonzero, _Q.zero, _Q.real, _Q.integer, _Q.even,
    _Q.odd, _Q.gt, _Q.ge, _Q.lt, _Q.le, _Q.eq, _Q.ne,
}  # fmt: skip

CONSTRUCTS: tuple[Construct, ...] = (
    Construct(
        "symbol",
        (sp.Symbol, sp.Dummy),
        "commutative, not declared infinite or extended_real without real",
        "a symbol stands for every value its assumptions allow; SymPy's rewrites respect them",
    ),
    Construct(
        "exact number",
        (sp.Integer, sp.Rational, _numbers.Pi, _numbers.Exp1, _numbers.ImaginaryUnit),
        "always",
        "exact arithmetic: no rounding, so 0 means 0",
    ),
    Construct("sum and product", (sp.Add, sp.Mul), "always", "the field operations of the complex numbers"),
    Construct(
        "power",
        (sp.Pow,),
        "an integer exponent (a negative one: the claim holds where the base is nonzero); a non-integer exponent "
        "of a base proved real (or of |w|^2 written w conj(w)), with a real exponent",
        "x^n is a polynomial and x^-n = 1/x^n where x != 0 (a claim holds where its denominators are nonzero; the "
        "numeric line evaluates no point where one is 0); for a real base and a real exponent both lines take the "
        "principal value and no strategy rewrites it without the assumptions that make the rewrite valid; a "
        "complex base with a non-integer exponent is refused (its branch cut is where rewrites go wrong)",
    ),
    Construct("exp, sin, cos", (sp.exp, sp.sin, sp.cos), "always", "entire functions: every rewrite is an identity"),
    Construct("log", (sp.log,), "the argument proved positive", "the real logarithm: log(xy) = log x + log y there"),
    Construct("modulus and parts", (sp.Abs, sp.re, sp.im, sp.conjugate), "always", "defined for every complex number"),
    Construct(
        "floor, ceiling, Max, Min",
        (sp.floor, sp.ceiling, sp.Max, sp.Min),
        "every argument proved real",
        "functions of real numbers; SymPy orders only real arguments",
    ),
    Construct(
        "Piecewise",
        (sp.Piecewise,),
        "conditions are relations (order relations of real sides), true, and their And/Or/Not; the last "
        "condition is true",
        "the first branch whose condition holds; a last true branch makes it total",
    ),
    Construct(
        "finite Sum and Product",
        (sp.Sum, sp.Product),
        "finite limits, an integer span, a range proved forward (hi >= lo - 1)",
        "a finite sum is its terms added (the empty sum 0); reversed and infinite ranges are refused",
    ),
    Construct(
        "Maximum",
        (Maximum,),
        "an integer index, a real summand, a range proved nonempty",
        "the largest of finitely many real numbers",
    ),
    Construct(
        "sequence",
        (sp.Indexed, sp.IndexedBase),
        "indices proved real",
        "a_x stands for every function of its indices its assumptions allow (a sequence, for integer indices); the "
        "numeric line draws a value for each distinct index",
    ),
    Construct(
        "matrix algebra",
        (
            sp.MatrixSymbol,
            sp.MatMul,
            sp.MatAdd,
            sp.Transpose,
            sp.HadamardProduct,
            sp.BlockMatrix,
            sp.BlockDiagMatrix,
            sp.ImmutableDenseMatrix,
            sp.ZeroMatrix,
            sp.Identity,
            MatrixElement,
            sp.MatPow,
        ),
        "shapes that agree; a positive integer matrix power; entry indices proved integers",
        "the ring of matrices: SymPy checks the shapes",
    ),
    Construct(
        "Derivative",
        (sp.Derivative,),
        "of an expression proved smooth in a real variable (see smooth)",
        "where the function is smooth, SymPy's derivative and mpmath's numerical one agree; at a kink they "
        "would not be independent (a central difference averages the two sides)",
    ),
    Construct(
        "Kernel",
        (Kernel,),
        "a definition (doit) and code (numeric); what its class declares about its values proved from the "
        "definition; the definition itself in the fragment, with no closed form of a symbolic-limit sum",
        "symbolically it is its definition, numerically the code: the two lines check each other",
    ),
    Construct(
        "PermutationMap",
        (PermutationMap,),
        "the engine's, or a subclass that only renames it; a size proved a positive integer, an integer argument",
        "a permutation of {0, ..., n - 1}: the commutative law of finite sums (strategy reindex)",
    ),
    Construct(
        "notation",
        (),
        "a class registered with fragment.notation; its doit() in the fragment",
        "an object that prints its own way and means its doit()",
    ),
    Construct(
        "relation",
        (sp.Equality, sp.Unequality, *_ORDER),
        "inside a Piecewise condition or a given fact; the sides of an order relation proved real",
        "a condition on real numbers",
    ),
    Construct(
        "given fact",
        (sp.AppliedPredicate,),
        "Q.positive, negative, nonnegative, nonpositive, nonzero, zero, real, integer, even, odd, gt, ge, lt, "
        "le, eq, ne of expressions of the fragment",
        "a hypothesis both lines honour: the symbolic line by ask, the numeric line by its draws",
    ),
)


def _describe(node) -> str:
    text = sp.sstr(node)
    return text if len(text) <= 80 else text[:77] + "..."


class _Visitor:
    r"""One walk over an expression: the first node outside the fragment, as a reason (``""`` if none)."""

    def __init__(self, given: tuple, *, evaluated: bool = False):
        self.given = given
        #: A formula that is only evaluated (a Definition's): a quotient there needs no proof that its denominator
        #: is nonzero; where it is 0 the numeric line fails the definition.
        self.evaluated = evaluated
        self.seen: set = set()

    def __call__(self, e) -> str:
        if isinstance(e, sp.MatrixBase) and not isinstance(e, sp.ImmutableDenseMatrix):
            for x in e:
                r = self(x)
                if r:
                    return r
            return ""
        if isinstance(e, (bool, int)) and not isinstance(e, bool):
            return ""
        if not isinstance(e, sp.Basic):
            return f"{e!r} ({type(e).__name__}) is not a SymPy expression"
        try:
            if e in self.seen:
                return ""
        except TypeError:
            pass
        reason = self.node(e)
        if not reason:
            with contextlib.suppress(TypeError):
                self.seen.add(e)
        return reason

    def children(self, *args) -> str:
        for a in args:
            r = self(a)
            if r:
                return r
        return ""

    def node(self, e) -> str:  # noqa: C901 - one branch per construct, in the order of CONSTRUCTS
        g = self.given
        t = type(e)
        if t is sp.Float:
            return f"the Float {e}: SymPy absorbs a Float at 15 digits; write exact numbers (sp.Rational)"
        if isinstance(e, (sp.Symbol,)) and t in (sp.Symbol, sp.Dummy):
            if e.is_commutative is not True:
                return f"the noncommutative symbol {e}: the engine reasons with commutative scalars"
            if e.is_infinite or (e.is_extended_real and e.is_real is not True):
                return f"the symbol {e} may be infinite (declared extended_real): declare it real"
            return ""
        if isinstance(e, (sp.Integer, sp.Rational)) or t in (_numbers.Pi, _numbers.Exp1, _numbers.ImaginaryUnit):
            return ""
        if t in (sp.Add, sp.Mul):
            return self.children(*e.args)
        if t is sp.Pow:
            b, x = e.args
            if x.is_integer and x.is_nonnegative is not True and not self.evaluated and not _nonzero(b, g):
                return (
                    f"the power {_describe(e)}: a quotient by {_describe(b)}, which is not proved nonzero (state "
                    "the hypothesis with given=)"
                )
            if not x.is_integer and not (_real(x, g) and (_positive(b, g) or _nonnegative(b, g) and _positive(x, g))):
                return (
                    f"the power {_describe(e)}: a non-integer exponent of a base not proved positive (the branch "
                    "cut of the power)"
                )
            return self.children(b, x)
        if t in (sp.exp, sp.sin, sp.cos, sp.Abs, sp.re, sp.im, sp.conjugate):
            return self.children(*e.args)
        if t is sp.log:
            if len(e.args) != 1 or not _positive(e.args[0], g):
                return f"log {_describe(e)}: its argument is not proved positive (the branch cut of log)"
            return self.children(*e.args)
        if t in (sp.floor, sp.ceiling, sp.Max, sp.Min):
            for a in e.args:
                if not _real(a, g):
                    return f"{t.__name__} {_describe(e)}: its argument {_describe(a)} is not proved real"
            return self.children(*e.args)
        if t is sp.Piecewise:
            if e.args[-1].cond is not sp.true:
                return f"the Piecewise {_describe(e)} has no last branch with condition True: it is not total"
            for ex, c in e.args:
                r = self(ex) or self.condition(c)
                if r:
                    return r
            return ""
        if t in (sp.Sum, sp.Product, Maximum):
            return self.limits(e)
        if t is sp.IndexedBase:
            return "" if isinstance(e.label, sp.Symbol) else f"the IndexedBase {e}: its label must be a symbol"
        if t is sp.Indexed:
            for idx in e.indices:
                if not _real(idx, g):
                    return f"the sequence entry {_describe(e)}: its index {_describe(idx)} is not proved real"
            return self.children(*e.indices)
        if t is MatrixElement:
            for idx in (e.i, e.j):
                if not _integer(idx, g):
                    return f"the matrix entry {_describe(e)}: its index {_describe(idx)} is not proved an integer"
            return self.children(e.parent, e.i, e.j)
        if t is sp.MatrixSymbol:
            return self.children(*e.shape)
        if t is sp.MatPow:
            if not (e.exp.is_Integer and e.exp > 0):
                return f"the matrix power {_describe(e)}: only positive integer powers are in the fragment"
            return self(e.base)
        if t in (sp.MatMul, sp.MatAdd, sp.Transpose, sp.HadamardProduct, sp.BlockDiagMatrix):
            return self.children(*e.args)
        if t is sp.BlockMatrix:
            return self.children(*e.blocks)
        if t is sp.ImmutableDenseMatrix:
            return self.children(*e)
        if t in (sp.ZeroMatrix, sp.Identity):
            return self.children(*e.shape)
        if t is sp.Derivative:
            for v, _ in e.variable_count:
                if not (isinstance(v, sp.Symbol) and _real(v, g)):
                    return f"the derivative {_describe(e)}: it is taken in {v}, which is not a real symbol"
                if not smooth(e.expr, v, g):
                    return (
                        f"the derivative {_describe(e)}: {_describe(e.expr)} is not proved smooth in {v} (a kink or "
                        "jump has no derivative there)"
                    )
            return self(e.expr)
        if isinstance(e, Kernel):
            return _kernel(e, g, self)
        if t in _NOTATION:
            return self(e.doit())
        if isinstance(e, sp.core.function.AppliedUndef):
            return (
                f"the undefined function {_describe(e)}: the engine knows nothing of {t.__name__}; write a Kernel "
                "(its definition and code) or an IndexedBase"
            )
        if t in (_numbers.Infinity, _numbers.NegativeInfinity, _numbers.ComplexInfinity, _numbers.NaN):
            return f"{e}: infinite values are not in the fragment"
        if t in (sp.Equality, sp.Unequality, *_ORDER, sp.AppliedPredicate) or isinstance(e, sp.AppliedPredicate):
            return f"the relation {_describe(e)} stands where an expression is expected"
        return f"{_describe(e)}: {t.__name__} is not in the fragment (docs/soundness.md lists what is)"

    def condition(self, c) -> str:
        r"""A Piecewise condition or a relation inside one."""
        if c in (sp.true, sp.false):
            return ""
        if isinstance(c, (sp.And, sp.Or, sp.Not)):
            for a in c.args:
                r = self.condition(a)
                if r:
                    return r
            return ""
        if isinstance(c, (sp.Equality, sp.Unequality)):
            return self.children(c.lhs, c.rhs)
        if isinstance(c, _ORDER):
            for side in (c.lhs, c.rhs):
                if not _real(side, self.given):
                    return f"the condition {_describe(c)}: its side {_describe(side)} is not proved real"
            return self.children(c.lhs, c.rhs)
        return f"the condition {_describe(c)}: {type(c).__name__} is not in the fragment"

    def limits(self, e) -> str:
        g = self.given
        kind = {sp.Sum: "Sum", sp.Product: "Product", Maximum: "Maximum"}[type(e)]
        for var, lo, hi in e.limits:
            if not isinstance(var, sp.Symbol):
                return f"the {kind} {_describe(e)}: its variable {var} is not a symbol"
            if not (_finite_bound(lo) and _finite_bound(hi)):
                return f"the {kind} {_describe(e)} has an infinite limit: only finite sums are in the fragment"
            span = sp.expand(hi - lo)
            if span.is_integer is not True and not _proves(sp.Q.integer(span), None, g):
                return f"the {kind} {_describe(e)}: its range {lo} .. {hi} does not have an integer span"
            if kind == "Maximum":
                if not _integer(lo, g):
                    return f"the Maximum {_describe(e)}: its index must be an integer ({lo} is not proved one)"
                if not _real(e.function, g):
                    return f"the Maximum {_describe(e)}: its terms {_describe(e.function)} are not proved real"
            r = self.children(lo, hi)
            if r:
                return r
        return self(e.function)

    def given_fact(self, fact) -> str:
        if isinstance(fact, sp.AppliedPredicate):
            if fact.function not in _GIVEN_PREDICATES:
                return f"the given fact {fact}: {fact.function} is not a predicate the numeric line can honour"
            return self.children(*fact.arguments)
        if isinstance(fact, (sp.Equality, sp.Unequality, *_ORDER)):
            return self.condition(fact)
        if isinstance(fact, sp.And):
            return next((r for r in map(self.given_fact, fact.args) if r), "")
        return f"the given fact {_describe(fact)}: {type(fact).__name__} is not a fact the engine can honour"


def refusal(e, *, given: tuple = (), evaluated: bool = False) -> str:
    r"""Why ``e`` is outside the fragment (one line naming the construct), or ``""``. ``evaluated``: ``e`` is a
    formula the engine only evaluates (a Definition's), never rewrites: a quotient there is checked by the numeric
    line, which fails where a denominator is 0."""
    if e is None:
        return ""
    return _Visitor(tuple(given), evaluated=evaluated)(e)


def refusals(named: dict, *, given: tuple = (), evaluated: bool = False) -> tuple[str, str]:
    r"""The first ``(name, reason)`` of ``named`` (part name -> expression) outside the fragment, or ``("", "")``:
    one walk over all the parts, so that what two parts share (a step's right side is the next one's left side) is
    checked once."""
    visit = _Visitor(tuple(given), evaluated=evaluated)
    for name, e in named.items():
        if e is None:
            continue
        reason = visit(e)
        if reason:
            return name, reason
    return "", ""


def given_refusal(facts: tuple) -> str:
    r"""Why a claim's ``given`` facts are outside the fragment (``""`` if they are in it)."""
    v = _Visitor(tuple(facts))
    for fact in facts:
        r = v.given_fact(fact)
        if r:
            return r
    return ""


def check(e, *, given: tuple = (), where: str = "") -> None:
    r"""Raise :class:`Refused` if ``e`` is outside the fragment (``where``: the claim and the part, for the message)."""
    reason = refusal(e, given=given)
    if reason:
        raise Refused(f"{where}: {reason}" if where else reason)


def check_produced(e, strategy: str, given: tuple = ()) -> None:
    r"""Raise :class:`Refused` if the strategy ``strategy`` produced an expression outside the fragment."""
    reason = refusal(e, given=given)
    if reason:
        raise Refused(f"the strategy {strategy!r} produced {reason}")
