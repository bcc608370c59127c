r"""symbolic.bias_kernels: the computed facts say so, KERPLE's CPD is of the bias (not its negation), the length
function. (Each claim verified and its wrong variant rejected: tests/symbolic/test_catalogue.py.)"""

import pytest
from posproof.symbolic import bias_kernels

CLAIMS = {c.id: c for c in bias_kernels.claims()}


def test_ids_and_topic():
    assert all(i.startswith("kernels-") for i in CLAIMS)
    assert {c.topic for c in CLAIMS.values()} == {"kernels"}


def test_computed_claims_say_so():
    facts = [c for c in CLAIMS.values() if c.kind == "fact"]
    assert {c.id for c in facts} == {
        "kernels-fire-not-relative-beyond",
        "kernels-kerple-cpd-computed",
        "kernels-lengths",
    }
    assert "computed" in CLAIMS["kernels-kerple-cpd-computed"].title


def test_cpd_is_of_the_bias_not_its_negation():
    fact = CLAIMS["kernels-kerple-cpd-computed"]
    value, _ = fact.compute(30)
    assert all(value.values())
    negated, _ = fact.wrong(30)
    assert not any(negated.values())


def test_lengths_claim_is_the_function_at_the_articles_lengths():
    assert CLAIMS["kernels-lengths"].claim == bias_kernels.kernels_lengths(1000, 2000)
    assert bias_kernels.LENGTHS == {"kernels-lengths": bias_kernels.kernels_lengths}


@pytest.mark.parametrize(("L0", "L"), [(2, 3), (10, 40), (50, 51)])
def test_lengths_fire_against_every_pair(L0, L):
    import numpy as np
    from posproof.numeric.bias_kernels import fire_normalized_distance

    i, j = np.tril_indices(L)
    F = fire_normalized_distance(i, j, c=1.0, threshold=float(L0))
    outside = {int(q) for q in i[(F < 0) | (F > 1)]}
    v = bias_kernels.kernels_lengths(L0, L)
    assert v["FIRE: queries with a normalized distance outside $[0, 1]$"] == len(outside) == 0


def test_lengths_bad_input():
    with pytest.raises(ValueError, match="lengths"):
        bias_kernels.kernels_lengths(5, 5)
