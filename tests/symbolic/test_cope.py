r"""CoPE claims: the kernels unfold to the numeric code; the computed facts hold the values their statements quote;
the proposed rules-table row reads registered claims. (Each claim verified and its wrong variant rejected:
test_catalogue.py once the module is registered; until then here.)"""

import mpmath
import pytest
import sympy as sp
from posproof.numeric.cope import cope_interpolate_mp, cope_positions_mp
from posproof.symbolic import cope as M
from posproof.symbolic import registry

CLAIMS = {c.id: c for c in M.claims()}
PROVED = ("cope-all-gates-one-relative", "cope-positions-increase-with-distance", "cope-positions-positive",
          "cope-positions-below-count")  # fmt: skip


def test_ids_and_topic():
    assert all(cid.startswith("cope-") for cid in CLAIMS)
    assert {c.topic for c in CLAIMS.values()} == {"kernels"}
    assert len(CLAIMS) == len(M.claims())
    assert all(CLAIMS[cid].kind == "theorem" for cid in PROVED)


@pytest.mark.skipif("cope" in registry.MODULES, reason="registered: test_catalogue.py verifies every claim once")
@pytest.mark.parametrize("cid", sorted(CLAIMS))
def test_claim_verifies_and_its_wrong_variant_is_rejected(cid):
    claim = CLAIMS[cid]
    assert claim.verify(dps=30).ok
    assert not claim.wrong_variant().verify(dps=30).ok


def test_theorems_are_proved_symbolically():
    for cid in PROVED:
        assert CLAIMS[cid].verify(dps=30).symbolic, cid


def test_kernels_unfold_to_the_numeric_code():
    logits = [sp.Rational(1, 2), -2, 3, sp.Rational(-1, 4)]
    keys = [[str(float(x))] for x in reversed(logits)]
    with mpmath.workdps(30):
        rows = cope_positions_mp([[1]] * 4, keys, dps=30)
        for nn in range(4):
            sym = sp.N(M.CopePosition(nn, *logits).doit(), 30)
            assert mpmath.almosteq(mpmath.mpf(str(sym)), rows[3][3 - nn], 1e-25)
        table = [3, -1, 2, 5]
        for p in (0, sp.Rational(1, 3), 1, sp.Rational(5, 2), 3):
            sym = sp.N(M.CopeInterpolate(p, *table).doit(), 30)
            num = cope_interpolate_mp([str(sp.N(p, 40))], [[x] for x in table], dps=30)[0][0]
            assert mpmath.almosteq(mpmath.mpf(str(sym)), num, 1e-25)


def test_counterexample_values():
    value = CLAIMS["cope-not-translation-invariant"].compute(50)[0]
    assert value["smallest length"] == 3 and value["pair (m, n) and shift"] == [1, 0, 1]
    with mpmath.workdps(30):
        assert value["positions"][1] == mpmath.nstr(mpmath.mpf(1) / 2 + 1 / (1 + mpmath.exp(-1)), 12)


def test_lengths_claim_is_the_function_at_the_articles_lengths():
    value = CLAIMS["cope-lengths"].compute(50)[0]
    assert value == M.cope_lengths(1000, 2000)
    assert M.cope_lengths(10, 12)["gates 1: pairs clamped"] == 1 + 2  # distances 10 and 11: 2 pairs and 1
    with pytest.raises(ValueError, match="L0"):
        M.cope_lengths(2000, 1000)


def test_proposed_rules_row_names_registered_claims():
    (row,) = M.RULES_ROWS
    assert row.order == 106 and row.name == "CoPE"
    for cell in row.cells:
        assert cell.read(CLAIMS[cell.claim].compute(50)[0]) is False  # every rule fails in general
    assert row.length.claim in CLAIMS
    assert "500500 pairs clamped" in row.length.show(CLAIMS[row.length.claim].compute(50)[0], 1000, 2000)
