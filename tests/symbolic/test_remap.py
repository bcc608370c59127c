r"""Position remapping claims: the kernels' definitions agree with the numeric code on a grid; the facts' values
and the length function. (Each claim verified and its wrong variant rejected: tests/symbolic/test_catalogue.py.)"""

import mpmath
import pytest
import sympy as sp
from posproof.numeric.remap import leaky_rerope_relative_mp, rerope_relative_mp, self_extend_relative_mp
from posproof.symbolic import remap as R

CLAIMS = {c.id: c for c in R.claims()}


def test_ids_and_topic():
    assert all(cid.startswith("remap-") for cid in CLAIMS)
    assert {c.topic for c in CLAIMS.values()} == {"remapping"}
    assert len(CLAIMS) == len(R.claims())


def test_kernels_unfold_to_the_numeric_code():
    for W in (1, 3, 4, 8):
        for G in (1, 2, 3, 4):
            for a in range(0, 30):
                for b in range(0, a + 1):
                    sym = R.SelfExtend(a, b, W, G).doit()
                    assert int(sym) == self_extend_relative_mp(a, b, window=W, group=G)
    for w in (1, 4):
        for a in range(0, 12):
            for b in range(0, a + 1):
                assert int(R.ReRoPE(a, b, w).doit()) == rerope_relative_mp(a, b, window=w)
                leaky = R.LeakyReRoPE(a, b, w, sp.Rational(5, 2)).doit()
                with mpmath.workdps(30):
                    assert mpmath.almosteq(
                        mpmath.mpf(sp.Rational(leaky).p) / sp.Rational(leaky).q,
                        leaky_rerope_relative_mp(a, b, window=w, k=mpmath.mpf(5) / 2, dps=30),
                        1e-25,
                    )


def test_self_extend_facts_values():
    bound = CLAIMS["remap-self-extend-bound"].compute(50)[0]
    assert all(bound.values())
    example = CLAIMS["remap-self-extend-not-relative"].compute(50)[0]
    assert list(example.values())[1] == [[5, 0, 4], [6, 1, 5]]


def test_kernel_numeric_rejects_non_integers():
    with pytest.raises(ValueError, match="i must be an integer"):
        R.SelfExtend.numeric(mpmath.mpf("1.5"), 0, 2, 2)


def test_lengths_claim_is_the_function_at_the_articles_lengths():
    assert CLAIMS["remap-lengths"].claim == R.remap_lengths(1000, 2000)
    assert R.LENGTHS == {"remap-lengths": R.remap_lengths}


@pytest.mark.parametrize(("L0", "L"), [(10, 300), (200, 700), (1, 2)])
def test_lengths_last_query_holds_the_largest_distance(L0, L):
    import numpy as np
    from posproof.numeric.remap import self_extend_relative

    i, j = np.tril_indices(L)
    every = self_extend_relative(i, j, window=256, group=4)
    v = R.remap_lengths(L0, L)
    assert v[r"Self-Extend ($W = 256$, $G = 4$): largest distance"] == int(every.max())
    assert v[r"ReRoPE ($w = 256$): largest distance"] == min(L - 1, 256)


def test_lengths_bad_arguments():
    with pytest.raises(ValueError, match="L0 and L"):
        R.remap_lengths(10, 10)
