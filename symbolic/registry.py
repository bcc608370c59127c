r"""The registry of verified identities and computed facts, in a stable order.

Each topic module of :mod:`symbolic` defines ``claims()`` returning its identities and facts in the order they
are told; the registry lists the topics in reading order and builds each one on first use.

>>> from symbolic import registry
>>> registry.get("sinusoidal-dot-product").id
'sinusoidal-dot-product'
"""

from __future__ import annotations

import difflib
import importlib
from functools import cache

#: Topics in reading order: the order problem and absolute codes, then relative rewrites, then RoPE.
TOPICS = ("order", "sinusoidal", "relative", "rope")


@cache
def topic(name: str) -> tuple:
    r"""The claims of one topic, built once."""
    if name not in TOPICS:
        raise ValueError(f"topic must be one of {', '.join(TOPICS)}; got {name!r}")
    module = importlib.import_module(f"symbolic.{name}")
    return tuple(module.claims())


def all() -> tuple:  # noqa: A001 - the issue fixes this name
    r"""Every registered identity and fact, in a stable order (topics in reading order)."""
    out: list = []
    for name in TOPICS:
        out.extend(topic(name))
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
