r"""A red-team corpus of claims written through the public API, the way a user writes them (``Theorem``, ``Step``,
``Definition``, ``Fact``, ``Kernel``, ``Domain``, lemma citations, ``Maximum``, ``PermutationMap``).

:mod:`.false_claims` holds false claims, each an :class:`Entry` (its class, what is wrong, a zero-argument builder,
and ``names``: what the refusal or the failure must name); :mod:`.true_claims` holds true claims about positional
encodings that must verify. Both are read by ``tests/symbolic/engine/test_user_corpus.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import mpmath
import sympy as sp
from posproof.symbolic import Definition, Fact, Kernel, Step, Theorem

__all__ = ["Entry", "theorem", "definition", "fact", "kernel", "integer"]

TOPIC = "user corpus"
SOURCE = "a user's claim"


class Entry(NamedTuple):
    r"""One claim of the corpus: ``build()`` returns it (or raises ``ValueError``: a refusal); ``names`` is a
    substring (or a tuple of alternatives) the refusal or the failure detail must contain, case-insensitively."""

    cls: str
    description: str
    build: Callable[[], Any]
    names: str | tuple[str, ...] = ()


def theorem(id_: str, lhs, rhs, strategy=("expand",), rel: str = "=", **kw) -> Theorem:
    r"""A one-step theorem ``lhs rel rhs`` proved by ``strategy``."""
    step = Step(lhs, rhs, "the user's reason", tuple(strategy), rel)
    return Theorem(id_, id_, TOPIC, SOURCE, (step,), rel=rel, **kw)


def chain(id_: str, steps, rel: str = "=", **kw) -> Theorem:
    r"""A theorem whose steps chain ``lhs`` to ``rhs``."""
    return Theorem(id_, id_, TOPIC, SOURCE, tuple(steps), rel=rel, **kw)


def definition(id_: str, lhs, rhs, **kw) -> Definition:
    r"""A definition ``lhs := rhs`` whose implementation is the user's code."""
    return Definition(id_, id_, TOPIC, SOURCE, lhs, rhs, "the user's definition", "the user's code", **kw)


def fact(id_: str, claim, compute, method: str = "exact integer arithmetic", **kw) -> Fact:
    r"""A fact: ``compute()`` (no argument, for brevity) gives the value; ``wrong()`` a wrong computation."""
    wrong = kw.pop("wrong", None)
    return Fact(
        id_, id_, TOPIC, SOURCE, "a computed value", claim,
        lambda dps: (compute(), [("value", compute())]), method,
        wrong=None if wrong is None else (lambda dps: (wrong(), [("value", wrong())])), **kw,
    )  # fmt: skip


def kernel(name: str, definition_, code, nargs: int = 1, base: type = Kernel, **attrs) -> type:
    r"""A user's Kernel subclass ``name``: ``doit`` gives ``definition_(*args)``, ``numeric`` runs ``code(*args)``;
    ``attrs`` are class attributes (``is_nonnegative = True``...)."""

    def doit(self, **hints):
        return definition_(*self.args)

    def numeric(cls, *args):
        return code(*args)

    body = {"nargs": nargs, "doit": doit, "numeric": classmethod(numeric), **attrs}
    return type(name, (base,), body)


def integer(v) -> int:
    r"""A numeric-line value known to be an integer, as a Python int."""
    return int(mpmath.nint(v))


def rot(angle, v0, v1) -> tuple:
    r"""The pair ``(v0, v1)`` rotated by ``angle``."""
    return v0 * sp.cos(angle) - v1 * sp.sin(angle), v0 * sp.sin(angle) + v1 * sp.cos(angle)


def dot(u, v):
    return sum((a * b for a, b in zip(u, v, strict=True)), sp.Integer(0))
