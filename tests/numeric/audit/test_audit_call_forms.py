r"""Call forms without positions: an ``offset`` (the position of row 0) and rows at positions ``0 .. T-1``."""

from __future__ import annotations

import numpy as np
import pytest
from posproof.numeric import audit
from posproof.numeric.audit.call import IMPLICIT_MAX_POSITION, RopeCall


def _turn(vectors, positions, base=10000.0):
    r"""Rotate-half RoPE of ``vectors`` (tokens, d) at ``positions``, written here (float64)."""
    d = vectors.shape[-1]
    theta = base ** (-np.arange(0, d, 2) / d)
    ang = np.asarray(positions, dtype=np.float64)[:, None] * theta
    c, s = np.cos(np.concatenate([ang, ang], 1)), np.sin(np.concatenate([ang, ang], 1))
    turned = np.concatenate([-vectors[:, d // 2 :], vectors[:, : d // 2]], 1)
    return (vectors * c + turned * s).astype(vectors.dtype)


def offset_rope(vectors, offset):  # xformers / TransformerEngine style: rows at offset + row index
    return _turn(vectors, offset + np.arange(len(vectors)))


def offset_qk(q, k, offset):  # (batch, tokens, heads, width), one offset per call
    p = offset + np.arange(q.shape[1])
    return _turn(q[0, :, 0], p)[None, :, None], _turn(k[0, :, 0], p)[None, :, None]


def block_rope(vectors):  # GPT-NeoX / ESM style: a block whose rows are positions 0 .. T-1
    return _turn(vectors, np.arange(len(vectors)))


def block_rope_one_based(vectors):  # bug: rows at 1 .. T
    return _turn(vectors, 1 + np.arange(len(vectors)))


def test_call_forms_parse_and_say_where_positions_come_from():
    assert RopeCall.parse("vectors,offset").rows == "offset"
    assert RopeCall.parse("q,k,offset@bshd").rows == "offset"
    assert RopeCall.parse("vectors").rows == "implicit" and RopeCall.parse("q,k@bhsd").rows == "implicit"
    assert RopeCall.parse("q,k,cos,sin@bhsd").rows == "cache" and RopeCall().rows == "positions"
    with pytest.raises(ValueError, match="offset .* excludes positions and caches"):
        RopeCall.parse("vectors,positions,offset")
    with pytest.raises(ValueError, match="offset .* excludes positions and caches"):
        RopeCall.parse("q,k,cos,sin,offset")


@pytest.mark.parametrize("fn, call", [(offset_rope, "vectors,offset"), (offset_qk, "q,k,offset@bshd")])
def test_offset_form_conforms(fn, call):
    report = audit.audit_rope(fn, call=call, layout="half", width=8, max_position=65536)
    assert report.ok, audit.format_report(report)
    assert report.expected["call"] == call


def test_offset_form_finds_an_offset_bug():
    def off_by_one(vectors, offset):
        return _turn(vectors, offset + 1 + np.arange(len(vectors)))

    report = audit.audit_rope(off_by_one, call="vectors,offset", layout="half", width=8, max_position=4096)
    assert report.ids == ("position-offset",), audit.format_report(report)
    # independently: row 0 of a call at offset 0 is turned as position 1
    x = np.eye(8)[:1]
    assert np.allclose(off_by_one(x, 0), _turn(x, [1]))


def test_block_form_conforms_and_notes_its_cap():
    report = audit.audit_rope(block_rope, call="vectors", layout="half", width=8)
    assert report.ok, audit.format_report(report)
    assert report.expected["max_position"] == IMPLICIT_MAX_POSITION
    assert any(f"probed up to position {IMPLICIT_MAX_POSITION}" in n for n in report.notes)


def test_block_form_finds_one_based_rows():
    report = audit.audit_rope(block_rope_one_based, call="vectors", layout="half", width=8, max_position=4096)
    assert report.ids == ("position-offset",), audit.format_report(report)
    assert not report.notes  # below the cap: nothing to note
    x = np.eye(8)[:1]
    assert np.allclose(block_rope_one_based(x), _turn(x, [1]))  # independently: row 0 is position 1
