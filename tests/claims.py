r"""The claims under test, computed once per session (building a topic's SymPy objects takes a moment), and what the
tests only read of them, computed once per process: a registered claim's verification at the default digits
(:func:`verified`), its blocks (:func:`claim_blocks`) and its rendering in one format (:func:`rendered`).

A claim's wrong variant or a perturbed claim is a new object: a test verifies it itself, afresh."""

from __future__ import annotations

import functools

from posproof.symbolic import registry
from posproof.symbolic.engine import settings
from posproof.symbolic.engine.results import VerifyResult

CLAIMS = registry.all()
IDS = [c.id for c in CLAIMS]
BY_ID = {c.id: c for c in CLAIMS}


@functools.cache
def verified(claim_id: str) -> VerifyResult:
    r"""``BY_ID[claim_id].verify(dps=settings.DEFAULT_DPS)``, computed once per process (the result is frozen)."""
    return BY_ID[claim_id].verify(dps=settings.DEFAULT_DPS)


@functools.cache
def claim_blocks(claim_id: str) -> tuple:
    r"""The claim's :func:`posproof.printing.blocks.blocks`, once per process (a tuple: nobody appends to it)."""
    from posproof.printing import blocks

    return tuple(blocks.blocks(BY_ID[claim_id]))


@functools.cache
def rendered(claim_id: str, fmt: str) -> str:
    r"""``formats.render(BY_ID[claim_id], fmt)``, once per process."""
    from posproof.printing import formats

    return formats.render(BY_ID[claim_id], fmt)
