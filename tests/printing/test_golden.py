r"""The printed LaTeX of every derivation is pinned: a change to a formula shows up as a diff here.

After an intended change run ``make golden`` and review the diff of ``tests/golden/``."""

import functools
from pathlib import Path

import pytest

from posproof.printing.formats import render
from tests.claims import BY_ID, IDS

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@functools.cache
def latex(claim_id: str) -> str:
    r"""The claim's LaTeX, printed once for both tests."""
    return render(BY_ID[claim_id], "latex")


@pytest.mark.parametrize("claim_id", IDS)
def test_latex_matches_golden(claim_id, update_golden):
    text = latex(claim_id)
    path = GOLDEN / f"{claim_id}.tex"
    if update_golden or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if not update_golden:
            pytest.fail(f"{path.name} did not exist; written now, review and commit it")
    assert text == path.read_text(encoding="utf-8")


def test_no_orphan_golden_files():
    orphans = {p.stem for p in GOLDEN.glob("*.tex")} - set(IDS)
    assert not orphans, f"golden files for unknown ids: {sorted(orphans)}"


@pytest.mark.parametrize("claim_id", IDS)
def test_latex_is_ascii_so_any_tex_engine_compiles_it(claim_id):
    text = latex(claim_id)
    assert text.isascii(), sorted({ch for ch in text if not ch.isascii()})
