r"""``PermutationMap(n, k)``: ``π(k)``, an arbitrary permutation ``π`` of ``{0, ..., n - 1}``, as a function claims can
use for symbolic ``n``.

The engine knows one fact about it, the commutative law of finite sums (Graham, Knuth and Patashnik, *Concrete
Mathematics*, §2.3: ``Σ_{k ∈ K} a_k = Σ_{p(k) ∈ K} a_{p(k)}`` for a permutation ``p`` of a finite ``K``): the
strategy ``reindex`` (:mod:`~posproof.symbolic.engine.strategies`) rewrites ``Σ_{k=0}^{n-1} f(π(k))`` to
``Σ_{k=0}^{n-1} f(k)``. Nothing else about ``π`` is assumed, so a proof that uses it holds for every permutation.
The numeric line evaluates ``π`` as one seeded random permutation per ``n`` and per subclass (a second permutation
``σ`` is a subclass: ``class sigma(PermutationMap): pass``).

>>> import sympy as sp
>>> n = sp.Symbol("n", integer=True, positive=True)
>>> k = sp.Symbol("k", integer=True)
>>> sp.latex(PermutationMap(n, k))
'\\pi\\left(k\\right)'
>>> sorted(PermutationMap.numeric(5, j) for j in range(5))
[0, 1, 2, 3, 4]
"""

from __future__ import annotations

import functools
import random

import mpmath
import sympy as sp
from posproof.symbolic.engine.kernel import Kernel

__all__ = ["PermutationMap", "is_engine_permutation"]


@functools.lru_cache(maxsize=256)
def _table(name: str, n: int) -> tuple[int, ...]:
    order = list(range(n))
    random.Random(f"permutation:{name}:{n}").shuffle(order)
    return tuple(order)


class PermutationMap(Kernel):
    r"""``π(k)`` for a permutation ``π`` of ``{0, ..., n - 1}`` (args ``n, k``; ``n`` a positive integer)."""

    nargs = 2
    is_integer = True
    is_nonnegative = True

    @classmethod
    def numeric(cls, n, k):
        size, index = int(n), int(k)
        if not (mpmath.isint(n) and mpmath.isint(k) and size >= 1 and 0 <= index < size):
            raise ValueError(f"k must be an integer in [0, n - 1] = [0, {size - 1}], got {k}")
        return _table(cls.__name__, size)[index]

    def doit(self, **hints):
        return self

    def _latex(self, printer, exp=None):
        name = r"\pi" if type(self) is PermutationMap else printer._print(sp.Symbol(type(self).__name__))
        out = r"%s\left(%s\right)" % (name, printer._print(self.args[1]))
        return out if exp is None else r"%s^{%s}" % (out, exp)


#: What a subclass may define itself: its name and documentation (Python writes these for every class).
_NAMING = frozenset({"__module__", "__qualname__", "__doc__", "__firstlineno__", "__static_attributes__"})
#: What SymPy's class machinery writes into every subclass (computed from the class assumptions).
_DERIVED = frozenset({"_explicit_class_assumptions", "default_assumptions", "_prop_handler", "_nargs"})


def is_engine_permutation(cls) -> bool:
    r"""Whether ``cls`` is :class:`PermutationMap` or a subclass that only renames it: no other base, no metaclass
    of its own, and nothing defined but its name, its docstring and what SymPy derives from the class assumptions
    (all equal to :class:`PermutationMap`'s). Then ``numeric`` is one permutation (a bijection of ``{0, ..., n -
    1}``), ``doit`` leaves it alone and the assumptions are integer and nonnegative: what ``reindex`` relies on."""
    if not (isinstance(cls, type) and issubclass(cls, PermutationMap)) or type(cls) is not type(PermutationMap):
        return False
    mro = cls.__mro__
    own = mro[: mro.index(PermutationMap)]
    if mro[len(own) :] != PermutationMap.__mro__ or not all(issubclass(c, PermutationMap) for c in own):
        return False
    for c in own:
        for name, value in vars(c).items():
            if name in _NAMING:
                continue
            if not (name in _DERIVED or name.startswith("is_")) or name not in vars(PermutationMap):
                return False
            if value != vars(PermutationMap)[name]:
                return False
    return True
