r"""docs/soundness.md holds the fragment as the code has it (posproof.symbolic.engine.soundness)."""

from __future__ import annotations

import pathlib

from posproof.symbolic.engine import fragment, soundness

DOC = pathlib.Path(__file__).parents[3] / "docs" / "soundness.md"


def test_docs_soundness_holds_the_fragment_as_the_code_has_it():
    text = DOC.read_text(encoding="utf-8")
    assert soundness.markdown() in text, "docs/soundness.md is stale: python -m posproof.symbolic.engine.soundness"


def test_every_construct_and_strategy_is_in_the_tables():
    table = soundness.markdown()
    assert all(f"| {c.name} |" in table for c in fragment.CONSTRUCTS)
    assert "| `exp_sides` |" in table and "| `sum_product` |" in table
