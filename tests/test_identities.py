r"""The proofs: every registered claim is verified (one test per id), and its registered mistake is rejected.

``pytest -k sinusoidal`` proves the sinusoidal identities."""

import pytest

from numeric import tolerances
from symbolic.core import Fact, Identity
from tests.claims import BY_ID, CLAIMS, IDS


@pytest.mark.parametrize("claim_id", IDS)
def test_claim_is_verified(claim_id):
    result = BY_ID[claim_id].verify(dps=tolerances.DEFAULT_DPS)
    assert result.ok, result.as_dict()


@pytest.mark.parametrize("claim_id", IDS)
def test_wrong_variant_is_rejected(claim_id):
    claim = BY_ID[claim_id]
    assert claim.wrong is not None, f"{claim_id} registers no wrong variant"
    result = claim.wrong_variant().verify(dps=tolerances.DEFAULT_DPS)
    assert not result.ok
    if isinstance(claim, Identity):
        # Both checks must be able to fail on their own: the last step is rejected symbolically and numerically.
        last = result.steps[-1]
        assert not last.numeric_ok, result.as_dict()
        if claim.rel == "=":
            assert not last.symbolic, result.as_dict()


def test_ids_are_unique_and_kebab_case():
    assert len(IDS) == len(set(IDS))
    for i in IDS:
        assert i == i.lower() and " " not in i and "_" not in i, i


def test_every_claim_names_its_source_and_topic():
    for c in CLAIMS:
        assert c.source.strip() and c.title.strip(), c.id
        assert isinstance(c, (Identity, Fact))


def test_registry_order_is_stable():
    from symbolic import registry

    assert [c.id for c in registry.all()] == IDS
