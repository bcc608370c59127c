r"""``audit_rope``'s keywords for other declarations: a free frequency table (``inv_freq``), an explicit axis map
(``axes``: the multi-axis audit) and ``rope_type: "xpos"`` (the xPos audit), and their argument errors."""

from __future__ import annotations

import numpy as np
import pytest
from posproof.numeric import audit
from posproof.numeric.audit.report import SchemeReport

WIDTH = 16
#: modded-nanogpt's truncated ladder: a quarter of the head's pairs at (1/1024)**linspace(0, 1), the rest still
TABLE = np.concatenate([(1 / 1024) ** np.linspace(0, 1, WIDTH // 4), np.zeros(WIDTH // 4)])


def _half(vectors, positions, theta):
    r"""Rotate-half RoPE written here: pairs (i, i + d/2) turned by ``positions * theta`` (float64)."""
    ang = np.asarray(positions, dtype=np.float64)[:, None] * theta  # (tokens, d/2)
    c, s = np.cos(np.concatenate([ang, ang], 1)), np.sin(np.concatenate([ang, ang], 1))
    h = vectors.shape[1] // 2
    return (vectors * c + np.concatenate([-vectors[:, h:], vectors[:, :h]], 1) * s).astype(vectors.dtype)


def truncated(vectors, positions, base=10000.0):
    return _half(vectors, positions, TABLE)


def untruncated(vectors, positions, base=10000.0):  # bug: the zeros of the table never applied
    return _half(vectors, positions, base ** (-np.arange(0, vectors.shape[1], 2) / vectors.shape[1]))


def test_free_table_conforms_with_its_still_pairs():
    report = audit.audit_rope(truncated, inv_freq=TABLE, width=WIDTH, max_position=65536)
    assert report.ok, audit.format_report(report)
    assert report.matched.rotary_dim == WIDTH and report.matched.frequencies == "the given inv_freq table"
    assert report.expected["inv_freq"] == TABLE.tolist()
    # without the table, the same function fails against the plain ladder
    assert not audit.audit_rope(truncated, width=WIDTH, max_position=65536).ok


def test_free_table_not_applied_is_wrong_scaling():
    report = audit.audit_rope(untruncated, inv_freq=TABLE, width=WIDTH, max_position=65536)
    assert report.ids == ("wrong-scaling",), audit.format_report(report)
    assert "plain ladder of base 10000 instead of the given inv_freq table" in report.findings[0].message
    # independently: its last pair turns at position 1, where the table's does not
    x = np.zeros((1, WIDTH))
    x[0, WIDTH // 2 - 1] = 1.0
    assert not np.allclose(untruncated(x, np.array([1])), x) and np.allclose(truncated(x, np.array([1])), x)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"inv_freq": [[1.0]]}, "inv_freq must be a list of 1 to width/2 = 8 frequencies"),
        ({"inv_freq": [1.0, -0.5]}, "with a negative entry"),
        ({"inv_freq": [1.0, float("nan")]}, "inv_freq must be finite"),
        ({"inv_freq": [1.0] * 9}, "inv_freq must be a list of 1 to width/2 = 8"),
        ({"inv_freq": [1.0, 0.5], "rotary_dim": 8}, "inv_freq must have rotary_dim/2 = 4 entries, got 2"),
        ({"inv_freq": [1.0, 0.5], "scaling": {"partial_rotary_factor": 0.5}}, "one entry per rotated pair"),
        ({"axes": [0, 1], "dtype": "float16"}, "dtype: not read by a multi-axis audit"),
        ({"scaling": {"rope_type": "xpos"}, "inv_freq": [1.0]}, "inv_freq: not read by an xPos audit"),
        ({"scaling": {"rope_type": "xpos"}, "dtype": "bfloat16"}, "dtype: not read by an xPos audit"),
    ],
)
def test_new_arguments_are_checked_before_any_call(kwargs, message):
    with pytest.raises(ValueError, match=message):
        audit.check_rope_arguments(width=WIDTH, **kwargs)
    with pytest.raises(ValueError, match=message):
        audit.audit_rope(truncated, width=WIDTH, **kwargs)


def test_axes_dispatch_to_the_multiaxis_audit():
    from posproof.numeric.multiaxis import rope_multiaxis

    axes = [0, 1] * (WIDTH // 4)  # pairs alternate between two axes

    def two_axes(vectors, positions):
        return rope_multiaxis(vectors, positions, axes=np.array(axes), layout="half")

    report = audit.audit_rope(two_axes, width=WIDTH, axes=axes)
    assert isinstance(report, SchemeReport) and report.ok, audit.format_report(report)
    moved = audit.audit_rope(two_axes, width=WIDTH, axes=[0] * (WIDTH // 4) + [1] * (WIDTH // 4))
    assert not moved.ok


def test_xpos_scaling_dispatches_to_the_xpos_audit():
    from posproof.numeric.xpos import rope_xpos

    def xpos(q, k, positions):
        return rope_xpos(q, k, positions, layout="interleaved")

    report = audit.audit_rope(xpos, width=WIDTH, scaling={"rope_type": "xpos"}, layout="interleaved")
    assert isinstance(report, SchemeReport) and report.ok, audit.format_report(report)
