r"""NoPE claims: the kernel unfolds to the numeric code; the theorems hold at the points the statements quote; the
computed fact's values. (Each claim verified, proved where it is a theorem, and its wrong variant rejected:
test_catalogue.py.)"""

import mpmath
import sympy as sp
from posproof.numeric.nope import bos_values, nope_first_layer_mp
from posproof.symbolic import nope as M

CLAIMS = {c.id: c for c in M.claims()}


def test_ids_and_topic():
    assert all(cid.startswith("nope-") for cid in CLAIMS)
    assert {c.topic for c in CLAIMS.values()} == {"temperature"}
    assert set(CLAIMS) == {
        "nope-definition",
        "nope-uniform-weights",
        "nope-position-output",
        "nope-position-injective",
        "nope-position-inverse",
        "nope-recovers-positions",
    }
    assert all(c.formula is not None for c in CLAIMS.values())


def test_the_chained_intermediate_is_checked():
    claim = CLAIMS["nope-position-output"]
    assert not claim.perturbed(0).verify(dps=30).ok


def test_kernel_unfolds_to_the_numeric_code():
    s = sp.Rational(3, 7)
    with mpmath.workdps(30):
        for q in (0, 1, 2, 5, 9):
            sym = sp.N(M.NopeOutput(q, s).doit().doit(), 30)
            num = nope_first_layer_mp(bos_values(q + 1), score="0.42857142857142857142857142857", dps=30)[q][0]
            assert mpmath.almosteq(mpmath.mpf(str(sym)), num, 1e-25)
            assert mpmath.almosteq(num, mpmath.mpf(1) / (q + 1), 1e-25)


def test_forward_fact_values_and_its_non_causal_variant():
    value, table = CLAIMS["nope-recovers-positions"].compute(50)
    assert all(value.values())
    assert table[-1][1][0] == 0  # T = 1: 1/y - 1 = 0 exactly
    wrong, _ = CLAIMS["nope-recovers-positions"].wrong_variant().compute(50)
    assert wrong[r"positions $0, \dots, T - 1$ recovered"] is False and wrong["outputs distinct"] is False
