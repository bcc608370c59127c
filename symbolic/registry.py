r"""The registry of claims (theorems, definitions, facts), in a stable order, and of what the modules declare
besides.

Each scheme module of :mod:`symbolic` defines ``claims()`` returning its theorems, definitions and facts in the
order they are told; every claim carries a ``topic`` tag (one of :data:`TOPICS`, the article's chapters). The
registry lists the modules in reading order and builds each one on first use. A module may also declare, as data
(:mod:`symbolic.tables`), its rows of the rules table (``RULES_ROWS``), its annotations of the texts
(``ANNOTATIONS``), the named parts its formulas print with (``SYMBOLS``) and the functions its length claims verify
(``LENGTHS``): :func:`rules_rows`, :func:`statements`, :func:`symbols` and :func:`lengths` gather them, module by
module in registry order. Adding a scheme is its module and one line of :data:`MODULES`.

>>> from posproof.symbolic import registry
>>> registry.get("sinusoidal-dot-product").id
'sinusoidal-dot-product'
"""

from __future__ import annotations

import difflib
import importlib
from functools import cache
from typing import Any

#: Topics in reading order: the order problem and absolute codes, then relative rewrites, then RoPE.
TOPICS = ("order", "sinusoidal", "relative", "rope", "extension", "multiaxis", "properties", "article", "lemmas")


#: One module per scheme, in reading order (each module's claims share one topic), as paths below
#: :mod:`posproof.symbolic`.
MODULES = (
    "order",
    "sinusoidal",
    "attention",
    "transformer_xl",
    "deberta",
    "t5",
    "alibi",
    "rope.rotary",
    "scaling.relative",
    "scaling.linear",
    "scaling.ntk",
    "scaling.yarn",
    "scaling.llama3",
    "scaling.float64",
    "scaling.pi_theorem",
    "rope.multiaxis",
    "properties.absolute",
    "properties.relative",
    "properties.rope",
    "properties.causal",
    "properties.lengths",
    "article.statements",
    "lemmas",
)


@cache
def module(name: str) -> tuple:
    r"""The claims of one scheme module, built once."""
    if name not in MODULES:
        raise ValueError(f"module must be one of {', '.join(MODULES)}; got {name!r}")
    return tuple(importlib.import_module(f"posproof.symbolic.{name}").claims())


def topic(name: str) -> tuple:
    r"""The claims tagged with one topic, in reading order."""
    if name not in TOPICS:
        raise ValueError(f"topic must be one of {', '.join(TOPICS)}; got {name!r}")
    return tuple(c for c in all() if c.topic == name)


def all() -> tuple:  # noqa: A001 - the issue fixes this name
    r"""Every registered claim (theorems, definitions, facts), in a stable order (modules in reading order)."""
    out: list = []
    for name in MODULES:
        out.extend(module(name))
    return tuple(out)


def _declared(attribute: str) -> list[tuple[str, Any]]:
    r"""``(module, item)`` for every item of ``attribute`` that a module declares, modules in registry order."""
    out = []
    for name in MODULES:
        for item in getattr(importlib.import_module(f"posproof.symbolic.{name}"), attribute, ()):
            out.append((name, item))
    return out


def _in_order(attribute: str) -> tuple:
    r"""The items of ``attribute`` sorted by their ``order`` key; two items with one key are refused."""
    items = _declared(attribute)
    seen: dict[int, str] = {}
    for name, item in items:
        if item.order in seen:
            raise ValueError(f"{attribute}: order {item.order} is declared by {seen[item.order]} and {name}")
        seen[item.order] = name
    return tuple(item for _, item in sorted(items, key=lambda pair: pair[1].order))


@cache
def rules_rows() -> tuple:
    r"""The rows of the rules table (:class:`symbolic.tables.Row`), in the table's order (their ``order`` keys)."""
    return _in_order("RULES_ROWS")


@cache
def statements() -> tuple:
    r"""The annotated statements of the texts (:class:`symbolic.tables.Annotation`), in the texts' order (their
    ``order`` keys)."""
    return _in_order("ANNOTATIONS")


@cache
def symbols() -> tuple:
    r"""The named parts of formulas (:class:`symbolic.tables.Name`), in registry order, each once (a part that
    several modules print with is declared by each)."""
    return tuple(dict.fromkeys(item for _, item in _declared("SYMBOLS")))


@cache
def lengths() -> dict:
    r"""Length claim id -> the function of ``(L0, L)`` it verifies at the article's lengths (modules' ``LENGTHS``)."""
    out: dict = {}
    for name in MODULES:
        declared = getattr(importlib.import_module(f"posproof.symbolic.{name}"), "LENGTHS", {})
        for claim_id, function in declared.items():
            if claim_id in out:
                raise ValueError(f"LENGTHS: {claim_id!r} is declared twice (the second time by {name})")
            out[claim_id] = function
    return out


def ids() -> list[str]:
    return [c.id for c in all()]


def get(identity_id: str):
    r"""The claim with this id; ``ValueError`` naming close matches if there is none."""
    for c in all():
        if c.id == identity_id:
            return c
    close = difflib.get_close_matches(identity_id, ids(), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else "; run 'posproof list' for the ids"
    raise ValueError(f"unknown identity id {identity_id!r}{hint}")
