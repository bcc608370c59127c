r"""RoPE's score error per storage dtype and angle style (numeric/precision_profile.py, the measure the audit
reports): float64 angles hold, 16-bit angles break at once, float32 angles late; the scan for the first exceeding
position does bounded work at any position (the command: tests/derivations/commands/test_precision.py)."""

import numpy as np
import pytest
from posproof.numeric import precision_profile as pp


def test_regression_float64_reads_as_breaking_and_float16_better_than_float32(capsys):
    # The old study counted 16 eps of each dtype: float64 "broke" at position 449 and float16 (676) read as better
    # than float32 (455). One tolerance on one measure for every dtype: float64 angles never exceed it.
    rows = pp.profile_table(width=32, positions=(1024, 4096), dtypes=("float64", "float32", "float16"))
    first = {(r.dtype, r.style): r.profile.first_exceeding for r in rows}
    assert first[("float64", "float64-angles")] is None
    assert first[("float32", "float64-angles")] is None
    assert first[("float16", "storage-angles")] == 0


def test_regression_the_precision_figure_does_not_depend_on_the_cpu():
    # the rope-precision figure differed between CPUs (NumPy's SIMD cos/sin and reductions differ in the last bit):
    # exact=True takes correctly rounded theta, cos, sin and sums, and measures the same errors to rounding
    import numpy as np
    from posproof.numeric import precision_profile as pp

    probe = pp.make_probe(16, dtype="float32")
    positions = np.array([1, 100, 4096, 100000])
    for style in ("float64-angles", "float32-angles"):
        plain = pp.score_errors(pp.simulated_rotation("float32", style, 16), probe, positions)
        exact = pp.score_errors(pp.simulated_rotation("float32", style, 16, exact=True), probe, positions, exact=True)
        assert np.allclose(plain, exact, rtol=0.2, atol=1e-7), style
    c, s = pp._exact_cos_sin(np.array([0.0, 1.0, 1e6]))
    assert c.tolist() == [1.0, 0.5403023058681398, 0.9367521275331447] and s[0] == 0.0


def _broken_from(top: int, counter: list):
    r"""A rotation that is the identity below position ``top`` and doubles every row at or above it, and a probe
    whose exact scores are the identity's (``q . k`` at every distance): ``e(m) > tolerance`` exactly from ``m =
    top - 1000`` on (its key at ``m + 1000`` is broken). ``counter`` collects the query positions measured."""
    q, k = np.linspace(-1, 1, 8), np.linspace(1, -0.5, 8)
    probe = pp.ScoreProbe(q, k, "float64", pp.DISTANCES, np.full(len(pp.DISTANCES), q @ k))

    def rotate(x, positions):
        counter.append(positions.size // (1 + len(pp.DISTANCES)))
        return x * np.where(positions >= top, 2.0, 1.0)[:, None]

    return rotate, probe


@pytest.mark.parametrize("top", [5000, 1_500_000, 3 * 10**14 + 12345, 2**52 - 7])
def test_regression_first_exceeding_at_huge_positions_does_bounded_work(top):
    # precision --max-position 1e15 tried to allocate 198 TiB: every integer of the last bracket (4.4 % of the
    # position) in one array. Now a bracket wider than DENSE is narrowed on SUBGRID-point grids first
    measured: list = []
    rotate, probe = _broken_from(top, measured)
    assert pp.first_exceeding(rotate, probe, 1e-3, 2**52) == top - max(pp.DISTANCES)
    assert sum(measured) <= 16 * 53 + 3 * pp.SUBGRID + pp.DENSE + 3


def test_first_exceeding_is_the_first_position_over_the_tolerance():
    # the bottom-up scan that stops at the first chunk over the tolerance finds what measuring every position finds
    probe = pp.make_probe(8, dtype="bfloat16")
    for style in ("float64-angles", "storage-angles"):
        rot = pp.simulated_rotation("bfloat16", style, 8)
        every = pp.score_errors(rot, probe, np.arange(4097))
        over = np.flatnonzero(every > 2e-3)
        expected = int(over[0]) if over.size else None
        assert pp.first_exceeding(rot, probe, 2e-3, 4096) == expected, style


def test_profile_table_reports_each_row_as_it_is_done():
    seen = []
    rows = pp.profile_table(width=8, positions=(1024,), dtypes=("float32", "float16"), progress=seen.append)
    assert seen == rows and [(r.dtype, r.style) for r in rows] == pp.table_rows(("float32", "float16"))
    assert len(pp.table_rows()) == 10


def test_table_prints_float64_rounding_as_a_floor_not_as_cpu_digits():
    # regression: docs/audit.md showed 1.5e-15 where another CPU's libm gives 6.2e-16
    from posproof.numeric.tolerances import PROFILE_PRINT_FLOOR

    assert pp.error_cell(PROFILE_PRINT_FLOOR / 2) == pp.error_cell(PROFILE_PRINT_FLOOR / 20) == "<1e-14"
    assert pp.error_cell(7.3e-14) == "7.3e-14" and pp.error_cell(float("inf")) == "inf"
