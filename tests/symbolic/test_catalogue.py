r"""The proofs: every registered claim verifies (one test per id), and every check can fail: its registered
mistake is rejected, and so is every perturbed intermediate expression of a derivation.

``pytest -k sinusoidal`` proves the sinusoidal claims."""

import re

import pytest
from posproof.symbolic.engine import settings
from posproof.symbolic.engine.core import Definition, Fact, Theorem

from tests.claims import BY_ID, CLAIMS, IDS, verified

#: Every registered claim is verified here once per process (tests.claims.verified); the rules table and the
#: annotations verify the same claims: one xdist group, one worker, one verification each.
pytestmark = pytest.mark.xdist_group("claims")

CHAINED = [(c.id, j) for c in CLAIMS if isinstance(c, Theorem) and c.chained for j in range(len(c.steps) - 1)]

#: Theorems whose every step is structurally identical on both sides once the sizes are substituted (so the
#: numeric line has nothing to evaluate), with the reason that is acceptable. Keep it empty if you can.
VACUOUS_NUMERIC: dict[str, str] = {}


@pytest.mark.parametrize("claim_id", IDS)
def test_claim_is_verified(claim_id):
    result = verified(claim_id)  # the registered claim at settings.DEFAULT_DPS, verified once per process
    assert result.ok, result.as_dict()
    assert result.kind == BY_ID[claim_id].kind and result.dps == settings.DEFAULT_DPS


@pytest.mark.parametrize("claim_id", IDS)
def test_wrong_variant_is_rejected(claim_id):
    claim = BY_ID[claim_id]
    assert claim.wrong is not None, f"{claim_id} registers no wrong variant"
    if isinstance(claim, Fact):
        assert callable(claim.wrong), f"{claim_id}: a fact's wrong variant is a wrong computation"
        wrong = claim.wrong_variant()
        assert wrong.claim == claim.claim  # the expected literal stays; the computation changes
    result = claim.wrong_variant().verify(dps=settings.DEFAULT_DPS)
    assert not result.ok
    if isinstance(claim, Theorem):
        # Both checks must be able to fail on their own: the last step is rejected symbolically and numerically.
        last = result.steps[-1]
        assert not last.numeric_ok, result.as_dict()
        if claim.rel == "=":
            assert not last.symbolic, result.as_dict()
    if isinstance(claim, Definition):
        assert result.steps[0].numeric.status == "disagree", result.as_dict()


@pytest.mark.slow  # a fresh verification of every chained claim for each intermediate expression
@pytest.mark.parametrize("claim_id, j", CHAINED, ids=[f"{c}-{j}" for c, j in CHAINED])
def test_perturbed_intermediate_expression_is_rejected(claim_id, j):
    claim = BY_ID[claim_id]
    result = claim.perturbed(j).verify(dps=settings.DEFAULT_DPS)
    assert not result.ok
    # An equality step that shares the perturbed expression fails on both lines. An inequality step may only have
    # been loosened (a <= e + 1/7 still holds, and is still proved): of the two steps, one fails on each line.
    for k in (j, j + 1):
        step = result.steps[k]
        if claim.steps[k].rel == "=":
            assert not step.numeric_ok and not step.symbolic, (k, result.as_dict())
    pair = (result.steps[j], result.steps[j + 1])
    assert not all(st.symbolic for st in pair) and not all(st.numeric_ok for st in pair), result.as_dict()


@pytest.mark.parametrize("claim_id", [c.id for c in CLAIMS if isinstance(c, Theorem)])
def test_every_theorem_has_numeric_evidence(claim_id):
    result = verified(claim_id)
    if claim_id in VACUOUS_NUMERIC:
        pytest.skip(VACUOUS_NUMERIC[claim_id])
    assert result.numeric == "agree", result.as_dict()
    assert all(s.numeric.points >= settings.NUMERIC_POINTS for s in result.steps if s.numeric.status == "agree")


def test_fact_definitions_are_checked_definitions():
    for c in CLAIMS:
        if isinstance(c, Fact):
            assert all(isinstance(d, Definition) for d in c.definitions), c.id
            assert c.method.strip(), c.id


def test_ids_are_unique_and_kebab_case():
    assert len(IDS) == len(set(IDS))
    for i in IDS:
        assert i == i.lower() and " " not in i and "_" not in i, i


def test_every_claim_names_its_source_and_topic():
    from posproof.symbolic.registry import TOPICS

    for c in CLAIMS:
        assert c.source.strip() and c.title.strip(), c.id
        assert isinstance(c, (Theorem, Fact, Definition))
        assert c.topic in TOPICS, c.id


def test_sources_are_cited_by_title_not_by_workshop_names():
    for c in CLAIMS:
        text = " ".join([c.id, c.title, c.source, str(getattr(c, "statement", "")), c.notes])
        assert not re.search(r"\bseed\b|REFERENCES\.md|\bissue \d", text, re.IGNORECASE), c.id


def test_registry_order_is_stable():
    from posproof.symbolic import registry

    assert [c.id for c in registry.all()] == IDS
