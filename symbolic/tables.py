r"""What a scheme module declares besides its claims, as data: its rows of the rules table, its annotations of the
article and the RoPE note, and the named parts its formulas print with.

A scheme module (``symbolic/alibi.py``, ``symbolic/scaling/yarn.py``, ...) may define, next to ``claims()``:

- ``RULES_ROWS``: :class:`Row`\ s of ``posproof properties`` (a proximity ``φ(m, n)`` and three :class:`Cell`\ s,
  each naming the claim that decides it, and a :class:`Length`);
- ``ANNOTATIONS``: :class:`Annotation`\ s of ``posproof annotate`` (a statement of the texts, its verdict and the
  claim behind it), built with :func:`in_article` and :func:`in_note`;
- ``SYMBOLS``: :class:`Name`\ s, the parts of its formulas that have names in the paper or the code (printed as
  the name with its definition below the formula);
- ``LENGTHS``: for a length claim it registers, the function of ``(L0, L)`` that the claim verifies at the
  article's lengths (the length column calls it at other lengths).

:mod:`symbolic.registry` gathers them from its modules in registry order (:func:`~symbolic.registry.rules_rows`,
:func:`~symbolic.registry.statements`, :func:`~symbolic.registry.symbols`, :func:`~symbolic.registry.lengths`);
``derivations.commands.properties``, ``derivations.commands.annotate`` and the printer read them there and name no
scheme. The table and the texts have an order of their own, not the registry's: rows and annotations carry an
explicit ``order`` key (numbers with gaps, so that a new entry fits between two).

>>> Length.entry("properties-length-capped", "new rows", "{x} new rows").show({"new rows": 3}, 1000, 2000)
'3 new rows'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp

# ==============================================================================================================
# The rules table: a row per scheme, a claim in every cell.
# ==============================================================================================================

#: The rules of a position code, in the order of a row's cells.
RULES = ("monotonicity", "translation invariance", "symmetry")
#: What a theorem's cell may state (a fact's cell is read from its value).
RULE_VERDICTS = ("holds", "fails")
#: The article's lengths, at which the length claims are verified: trained on 1000-word documents, asked about a
#: 2000-word one.
TRAINED, TARGET = 1000, 2000


@dataclass(frozen=True)
class Cell:
    r"""One rule of one scheme. ``read`` turns the fact's registered value into ``True`` (holds), ``False``
    (fails) or an integer ``K`` (holds for distances up to ``K``); a theorem's cell states ``verdict``, what its
    proof shows. ``note`` qualifies it in a few words (prose, ``$...$`` math)."""

    claim: str
    verdict: str | None = None
    read: Callable[[Any], bool | int] | None = None
    note: str = ""


@dataclass(frozen=True)
class Length:
    r"""What positions past training produce: ``show(values, L0, L)`` in words, ``values`` what the function that
    ``claim`` verifies (its module's ``LENGTHS``) computes at ``(L0, L)``, ``None`` for a claim without one."""

    claim: str
    show: Callable[[Any, int, int], str]

    @classmethod
    def entry(cls, claim: str, key: str, text: str) -> Length:
        r"""The entry ``key`` of the values, as ``text`` with ``{x}`` (the entry), ``{L0}``, ``{L}`` and ``{top}``
        (``L - 1``) filled in."""
        return cls(claim, lambda v, L0, L: text.format(x=v[key], L0=L0, L=L, top=L - 1))

    @classmethod
    def nothing(cls, claim: str) -> Length:
        r"""A scheme without a positional quantity."""
        return cls(claim, lambda v, L0, L: "no positional quantity")


@dataclass(frozen=True)
class Row:
    r"""A row of the rules table: the scheme's name, its proximity ``φ(m, n) = ...`` (a SymPy equation, printed,
    never typed), its cells in the order of :data:`RULES`, its length column, and its place in the table."""

    order: int
    name: str
    phi: Any
    cells: tuple[Cell, Cell, Cell]
    length: Length


# ---- the proximities' symbols, for printing (a module's own symbols prove; these only print) -------------------

m, n = sp.symbols("m n", integer=True)
d, N = sp.symbols("d N", integer=True, positive=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
varphi = sp.Function("varphi")
theta_i = sp.IndexedBase("theta")[i]


def vec(name: str) -> sp.MatrixSymbol:
    r"""A column ``d``-vector named ``name``."""
    return sp.MatrixSymbol(name, d, 1)


def dot(u, v) -> sp.MatMul:
    r"""``u^T v``."""
    return sp.MatMul(u.T, v)


def phi(rhs) -> sp.Eq:
    r"""``φ(m, n) = rhs``, unevaluated."""
    return sp.Eq(varphi(m, n), rhs, evaluate=False)


def pairs(f) -> sp.Sum:
    r"""``Σ_{i=0}^{d/2-1} f``: a sum over the pairs of a width ``d``."""
    return sp.Sum(f, (i, 0, d / 2 - 1))


def key(name: str) -> Callable[[Any], Any]:
    r"""Read the entry ``name`` of a fact's value."""
    return lambda value: value[name]


def negated(name: str) -> Callable[[Any], bool]:
    r"""Read the entry ``name`` of a fact's value, negated."""
    return lambda value: not value[name]


# ==============================================================================================================
# The annotated texts: 'Positional Encoding 101' and the RoPE note, statement by statement.
# ==============================================================================================================

ARTICLE = "Positional Encoding 101"
NOTE = "Positional encoding: give tokens a sense of order"

#: The headings of each text, in order (the article misspells 'Postional').
SECTIONS = {
    ARTICLE: (
        "Why Need Positional Encoding ?",
        "So how can we fix this ?",
        "1. The Simple Counting Method (Option 1)",
        "2. The Normalized Counting Method (Option 2)",
        "3. The Binary Breakthrough",
        "Maths behind Positional Encoding",
        r"More on '$i$' and '$d_{\mathrm{model}}$'",
        "Simple Dry-Run :",
        "Differentiating between Nearby and Distant Words",
        "The Left Graph: The Problem with Nearby Words",
        "The Right Graph: The Problem with Distant Words",
        "Postional Encoding vs Word Embedding",
        "Rules any Positional Encoding Method must follow",
        "Relative Positions",
        "1. Transformer-XL (The Surgical Hack)",
        "2. DeBERTa (Disentangled Attention)",
        "3. T5 (The Elegant Simplification)",
        "Rotatory Positional Encoding (RoPE)",
        "Maths behind RoPE",
        "Properties, Efficiency and Performance of RoPE",
        "Summary",
    ),
    NOTE: (
        "Positional encoding: give tokens a sense of order",
        "Rotate pairs, preserve their length",
        "Position rules affect context extension",
    ),
}
#: The sections of each text, for the annotations' ``section`` (``S[0]``: the article's first heading).
S, T = SECTIONS[ARTICLE], SECTIONS[NOTE]

#: What a statement can be found to be.
ANNOTATION_VERDICTS = ("verified", "corrected", "holds on a range", "not checkable")
VERIFIED, CORRECTED, ON_A_RANGE, NOT_CHECKABLE = ANNOTATION_VERDICTS


@dataclass(frozen=True)
class Annotation:
    r"""One statement. ``order`` is its place in the texts (both texts counted through, the article first);
    ``read`` lists entries of the claim's computed value (a key, or a tuple of keys and indices) that the finding
    shows; ``said`` gives, entry by entry, what the text says there (``None``: nothing to compare): equal to the
    computed entry when verified, different when corrected. ``note`` says in words what the claim shows."""

    order: int
    text: str
    section: str
    locator: str
    statement: str
    verdict: str
    claim: str | None = None
    read: tuple = ()
    said: tuple = ()
    note: str = ""


def in_article(order, section, locator, statement, verdict, claim=None, read=(), said=(), note="") -> Annotation:
    r"""A statement of 'Positional Encoding 101' (``section`` one of ``S``)."""
    return Annotation(order, ARTICLE, section, locator, statement, verdict, claim, read, said, note)


def in_note(order, section, locator, statement, verdict, claim=None, read=(), said=(), note="") -> Annotation:
    r"""A statement of the RoPE note (``section`` one of ``T``)."""
    return Annotation(order, NOTE, section, locator, statement, verdict, claim, read, said, note)


# ==============================================================================================================
# Named parts: a formula printed with the names the paper or the code gives its parts.
# ==============================================================================================================


@dataclass(frozen=True)
class Name:
    r"""A part of a formula that has a name: ``pattern``, the sub-expression as the catalogue builds it; ``name``,
    what stands for it; ``shown``, its definition as displayed (in terms of other names). ``general``, when
    given, is the ``(name, definition)`` printed once for every part of one family (``c(32)`` and ``c(1)`` as
    ``c(r)``). The printer substitutes a part before the parts it contains and lists a name's definition before
    the names it is written with."""

    pattern: Any
    name: Any
    shown: Any
    general: tuple[Any, Any] | None = None


def power_of_ten(x: float, template: bool = False) -> str:
    r"""A tolerance that is a power of ten as the paper writes it: ``$10^{-12}$`` for ``1e-12``; ``template``: with
    its braces doubled, for a claim's ``method`` (a format string that gets ``{dps}``).

    >>> power_of_ten(1e-12), power_of_ten(1e-12, template=True)
    ('$10^{-12}$', '$10^{{-12}}$')
    """
    import math

    k = round(math.log10(x)) if x > 0 else None
    if k is None or not math.isclose(x, 10.0**k, rel_tol=1e-12):
        raise ValueError(f"x must be a positive power of ten, not {x!r}")
    return ("$10^{{%d}}$" if template else "$10^{%d}$") % k


# ---- statements: a claim's formula= from its own sides, where a module gives none --------------------------------

#: The SymPy relation of each claim relation.
_RELATION = {"=": sp.Eq, "<=": sp.Le, ">=": sp.Ge, "<": sp.Lt, ">": sp.Gt}


def stated(claim, formula=None):
    r"""``claim`` with its statement (``formula=``, the display every export opens the claim with): ``formula`` if
    given, else a definition's or a theorem's own sides, ``lhs rel rhs`` (unevaluated). A claim that has one is
    returned as it is."""
    import dataclasses

    if claim.formula is not None:
        return claim
    if formula is None:
        lhs = claim.lhs if claim.lhs is not None else claim.steps[0].lhs
        rhs = claim.rhs if claim.rhs is not None else claim.steps[-1].rhs
        formula = _RELATION[getattr(claim, "rel", "=")](lhs, rhs, evaluate=False)
    return dataclasses.replace(claim, formula=formula)
