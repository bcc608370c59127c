r"""Length-dependent temperature claims: the kernels' definitions agree with the numeric code; the computed facts
hold the values the statements quote. (Each claim verified and its wrong variant rejected: test_catalogue.py.)"""

import mpmath
import pytest
import sympy as sp
from posproof.numeric.temperature import llama4_attention_temperature_mp, logn_attention_scale_mp
from posproof.symbolic import temperature as M

CLAIMS = {c.id: c for c in M.claims()}


def test_ids_and_topic():
    assert all(cid.startswith("temperature-") for cid in CLAIMS)
    assert {c.topic for c in CLAIMS.values()} == {"temperature"}
    assert len(CLAIMS) == len(M.claims())


def test_kernels_unfold_to_the_numeric_code():
    a = sp.Rational(1, 10)
    with mpmath.workdps(30):
        for F in (1, 3, 8192):
            for q in (0, 1, F - 2, F - 1, F, 3 * F - 1, 10**6):
                if q < 0:
                    continue
                sym = sp.N(M.Llama4Temperature(q, F, a).doit(), 30)
                num = llama4_attention_temperature_mp(q, floor_scale=F, attn_scale="0.1", dps=30)
                assert mpmath.almosteq(mpmath.mpf(str(sym)), num, 1e-25)
        for L in (2, 2048):
            for q in (0, L - 1, L, 4 * L):
                sym = sp.N(M.LognScale(q, L).doit(), 30)
                assert mpmath.almosteq(mpmath.mpf(str(sym)), logn_attention_scale_mp(q, trained_length=L, dps=30),
                                       1e-25)  # fmt: skip


def test_nope_counterexample_values():
    value = CLAIMS["temperature-llama4-nope-not-translation-invariant"].compute(50)[0]
    assert value["smallest counterexample (query, shift)"] == [8190, 1]
    assert value["score ratio"] == mpmath.nstr(1 + mpmath.mpf("0.1") * mpmath.log(2), 12)


def test_lengths_claim_is_the_function_at_the_articles_lengths():
    value = CLAIMS["temperature-llama4-lengths"].compute(50)[0]
    assert value == M.llama4_lengths(1000, 2000)
    assert M.llama4_lengths(1000, 10000)["positions scaled"] == 10000 - 8191
    with pytest.raises(ValueError, match="L0"):
        M.llama4_lengths(2000, 1000)


def test_proposed_rules_row_names_registered_claims():
    (row,) = M.RULES_ROWS
    for cell in row.cells:
        value = CLAIMS[cell.claim].compute(50)[0]
        assert cell.read(value) is False  # every rule fails for this layer
    assert row.length.claim in CLAIMS
