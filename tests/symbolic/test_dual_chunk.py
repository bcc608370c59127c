r"""Dual chunk attention claims: the kernels unfold to the numeric code on a grid; the facts' values; the length
function and the proposed rules-table row. (Each claim verified and its wrong variant rejected:
tests/symbolic/test_catalogue.py once the module is registered; here too until then.)"""

import pytest
from posproof.numeric.dual_chunk import dual_chunk_relative_mp
from posproof.symbolic import dual_chunk as M

CLAIMS = {c.id: c for c in M.claims()}


def test_ids_and_topic():
    assert all(cid.startswith("dual-chunk-") for cid in CLAIMS)
    assert {c.topic for c in CLAIMS.values()} == {"remapping"}
    assert len(CLAIMS) == len(M.claims()) == 11


@pytest.mark.parametrize("cid", sorted(CLAIMS))
def test_claim_verifies_and_its_wrong_variant_is_rejected(cid):
    claim = CLAIMS[cid]
    assert claim.verify(dps=30).ok
    assert not claim.wrong_variant().verify(dps=30).ok


def test_kernels_unfold_to_the_numeric_code():
    for c in (1, 2, 5):
        for w in (0, 1, 3):
            for a in range(0, 4 * c + w + 2):
                for b in range(0, a + 1):
                    want = dual_chunk_relative_mp(a, b, chunk_size=c + w, local_size=w)
                    assert int(M.DualChunk(a, b, c, w).doit()) == want
                    assert M.DualChunk.numeric(a, b, c, w) == want
                    n, t, u = a // c - b // c, a % c, b % c
                    if n == 0 or b < c:  # the offsets kernel puts the key in chunk 0
                        assert int(M.DualChunkOffsets(n, t, u, c, w).doit()) == want


def test_offsets_kernel_refuses_offsets_outside_the_chunk():
    with pytest.raises(ValueError, match="offsets"):
        M.DualChunkOffsets.numeric(1, 5, 0, 5, 1)


def test_facts_values():
    assert CLAIMS["dual-chunk-not-relative"].compute(50)[0] == {
        r"$S = 8$, $w = 2$: $(i, j, \delta)$ with equal $i - j$": [[8, 0, 8], [9, 1, 7]]
    }
    rng = CLAIMS["dual-chunk-range"].compute(50)[0]
    assert rng[r"Qwen2.5-1M ($S = 262144$, $w = 8192$): largest index"] == 262144


def test_lengths_claim_is_the_function_at_the_articles_lengths():
    assert CLAIMS["dual-chunk-lengths"].claim == M.dual_chunk_lengths(1000, 2000)
    assert M.LENGTHS == {"dual-chunk-lengths": M.dual_chunk_lengths}
    with pytest.raises(ValueError, match="L0 and L"):
        M.dual_chunk_lengths(1000, 1000)


def test_lengths_last_query_holds_the_largest_index():
    import numpy as np
    from posproof.numeric.dual_chunk import dual_chunk_relative

    for L0, L in ((64, 300), (100, 450)):
        v = M.dual_chunk_lengths(L0, L)
        for name, (S, w) in M.length_settings(L0).items():
            i, j = np.tril_indices(L)
            every = dual_chunk_relative(i, j, chunk_size=S, local_size=w)
            assert v[f"{name} ($S = {S}$, $w = {w}$): largest index"] == int(every.max())


def test_proposed_rules_row_names_registered_claims():
    (row,) = M.RULES_ROWS
    assert 176 < row.order < 215
    for cell in row.cells[:2]:
        assert cell.read(CLAIMS[cell.claim].compute(50)[0]) is False
    assert row.length.claim in CLAIMS
    text = row.length.show(M.dual_chunk_lengths(1000, 2000), 1000, 2000)
    assert "1000" in text
