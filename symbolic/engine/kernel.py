r"""Kernels: functions with a symbolic definition (``doit``) and a numeric implementation (the code in
:mod:`posproof.numeric`), so that the numeric line tests the code people run.

Functions such as DeBERTa's clipped index or the RoPE layout permutation are kernels: symbolically they unfold to
their definition (the strategy ``unfold``), numerically they are evaluated by the implementation.
"""

from __future__ import annotations

import contextlib

import sympy as sp

__all__ = ["Kernel", "definition", "finite_only", "unfolding", "written_out"]

#: The most terms a kernel's definition may write out of one finite sum or product (SymPy writes out fewer than 100
#: terms one by one; beyond that it looks for a closed form).
WRITE_OUT_LIMIT = 100


class Kernel(sp.Function):
    r"""A function that appears in claims with two faces: ``doit()`` unfolds its definition for the symbolic
    check, and :meth:`numeric` evaluates it with the implementation in :mod:`numeric` for the numeric check,
    so that the numeric line tests the code people run. Subclasses set ``nargs`` and both methods."""

    @classmethod
    def numeric(cls, *args):  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def doit(self, **hints):  # pragma: no cover - every subclass overrides it
        raise NotImplementedError


def written_out(s) -> bool:
    r"""Whether SymPy's ``doit`` writes the Sum or Product ``s`` out term by term (the definition of a finite sum or
    product): every limit an integer, fewer than :data:`WRITE_OUT_LIMIT` terms each. Otherwise it looks for a closed
    form, which need not hold under the declarations (``Σ_{i=0}^{n} (-1)^i C(n, i) = 0`` fails at ``n = 0``)."""
    return all(lo.is_Integer and hi.is_Integer and hi - lo < WRITE_OUT_LIMIT for _, lo, hi in s.limits)


#: The modes of the patched ``Sum.doit``/``Product.doit``, innermost last: ``"refuse"`` (a kernel's definition is
#: running) or ``"hold"`` (the strategy ``doit`` is running). Empty: SymPy's own methods are in place.
_MODES: list[str] = []
_SAVED: dict = {}


def _patched(cls, what: str):
    original = vars(cls)["doit"]

    def doit(self, **hints):
        if _MODES and not written_out(self):
            if _MODES[-1] == "refuse":
                raise ValueError(f"a kernel's definition evaluates a {what} with symbolic limits {self.limits}")
            f = self.function.doit(**hints) if hints.get("deep", True) else self.function
            return self.func(f, *self.limits)  # held: only its summand (factor) is done
        if _MODES:  # written out term by term, never closed (Σ_{i=0}^{3} δ(i, x) is not 1 for 0 <= x <= 3)
            return _terms(self, what == "sum").doit(**hints)
        return original(self, **hints)

    return original, doit


def _terms(s, additive: bool):
    r"""The finite Sum (Product) ``s`` as its terms added (multiplied), innermost limit first."""
    body = s.function
    for var, lo, hi in s.limits:  # SymPy lists the innermost limit first
        terms = [body.xreplace({var: sp.Integer(j)}) for j in range(int(lo), int(hi) + 1)]
        body = sp.Add(*terms) if additive else sp.Mul(*terms)
    return body


@contextlib.contextmanager
def _mode(mode: str):
    if not _MODES:
        for cls, what in ((sp.Sum, "sum"), (sp.Product, "product")):
            _SAVED[cls], cls.doit = _patched(cls, what)
    _MODES.append(mode)
    try:
        yield
    finally:
        _MODES.pop()
        if not _MODES:
            for cls, original in _SAVED.items():
                cls.doit = original
            _SAVED.clear()


def unfolding():
    r"""While a kernel's definition runs: ``Sum.doit``, ``Product.doit`` (and ``summation``, ``product``, which call
    them) refuse (``ValueError``) what :func:`written_out` does not write out, so a definition cannot bring SymPy's
    closed forms of sums with symbolic limits into a proof. Reentrant; SymPy's own methods are restored on exit."""
    return _mode("refuse")


def finite_only():
    r"""While the strategy ``doit`` runs: ``Sum.doit`` and ``Product.doit`` write out what :func:`written_out`
    allows and leave every other sum or product as it is (its summand done). Reentrant."""
    return _mode("hold")


def definition(k: Kernel):
    r"""The definition of the kernel application ``k`` (its ``doit()``), run under :func:`unfolding`."""
    with unfolding():
        return k.doit()
