r"""Kernels: functions with a symbolic definition (``doit``) and a numeric implementation (the code in
:mod:`posproof.numeric`), so that the numeric line tests the code people run.

Functions such as DeBERTa's clipped index or the RoPE layout permutation are kernels: symbolically they unfold to
their definition (the strategy ``unfold``), numerically they are evaluated by the implementation.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["Kernel"]


class Kernel(sp.Function):
    r"""A function that appears in claims with two faces: ``doit()`` unfolds its definition for the symbolic
    check, and :meth:`numeric` evaluates it with the implementation in :mod:`numeric` for the numeric check,
    so that the numeric line tests the code people run. Subclasses set ``nargs`` and both methods."""

    @classmethod
    def numeric(cls, *args):  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def doit(self, **hints):  # pragma: no cover - every subclass overrides it
        raise NotImplementedError
