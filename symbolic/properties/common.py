r"""Shared by the rules-and-lengths modules (:mod:`symbolic.properties` lists them): the topic and sources, the symbols
named like the math, the article's lengths, and the proximity of an absolute code."""

import sympy as sp
from posproof.symbolic import sources, tables
from posproof.symbolic.engine.core import Theorem
from posproof.symbolic.symbols import d_any

TOPIC = "properties"
RULES_SOURCE = f"{sources.article('Rules any Positional Encoding Method must follow')}; {sources.WANG}"
RELATIVE = sources.article("Relative Positions")

# ---- symbols, named like the math (the code width d_any, m, n: symbolic.symbols) ------------------------------
l = sp.Symbol("l", integer=True, nonnegative=True)  # component index 0 .. d - 1
t = sp.Symbol("t", integer=True, positive=True)  # a shift
s = sp.Symbol("s", integer=True, positive=True)  # extra distance
u = sp.Symbol("u", integer=True, nonnegative=True)  # a distance
c = sp.Symbol("c", positive=True)  # counting scale: 1, or 1/N, 1/(N - 1) for normalized counting
P = sp.IndexedBase("p", real=True)  # any absolute code: p[pos, l]
varphi = sp.Function("varphi")  # the proximity, in headings
m_h = sp.Symbol("m_h", positive=True)  # an ALiBi head's slope

#: The article's lengths: trained on 1000-word documents, asked about a 2000-word one (the rules table's).
TRAINED, TARGET = tables.TRAINED, tables.TARGET


def identity(id_: str, title: str, source: str, steps, **kw) -> Theorem:
    return Theorem(id_, title, TOPIC, source, tuple(steps), **kw)


def proximity(a, b, code=lambda pos, comp: P[pos, comp]) -> sp.Sum:
    r"""``φ(a, b) = p_a·p_b = Σ_l p[a, l] p[b, l]``: the proximity of an absolute code."""
    return sp.Sum(code(a, l) * code(b, l), (l, 0, d_any - 1))


def counting(pos, comp=l):
    r"""Component ``comp`` of the counting code ``c·pos·(1, ..., 1)`` (``c = 1``; ``1/N`` or ``1/(N-1)`` normalized)."""
    return c * pos
