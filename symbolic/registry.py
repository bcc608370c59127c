r"""The registry of claims (theorems, definitions, facts), in a stable order.

Each scheme module of :mod:`symbolic` defines ``claims()`` returning its theorems, definitions and facts in the
order they are told; every claim carries a ``topic`` tag (one of :data:`TOPICS`, the article's chapters). The
registry lists the modules in reading order and builds each one on first use.

>>> from posproof.symbolic import registry
>>> registry.get("sinusoidal-dot-product").id
'sinusoidal-dot-product'
"""

from __future__ import annotations

import difflib
import importlib
from functools import cache

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
    "article.claims",
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
