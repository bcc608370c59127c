r"""The mutation catalogue follows the code: every mutant's original text occurs exactly once in its file, so
``make mutate`` never reports a stale entry (it counts them as failures)."""

from pathlib import Path

import pytest

from tests.mutation.catalogue import MUTANTS

ROOT = Path(__file__).resolve().parents[1]


def test_mutant_ids_are_unique():
    ids = [m.id for m in MUTANTS]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.id for m in MUTANTS])
def test_mutant_applies_to_the_current_code(mutant):
    text = (ROOT / mutant.path).read_text(encoding="utf-8")
    assert text.count(mutant.old) == 1, f"{mutant.id}: update tests/mutation/catalogue.py for {mutant.path}"
    assert mutant.new != mutant.old
    for test in mutant.tests:
        assert (ROOT / test).exists(), test
