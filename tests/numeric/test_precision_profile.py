r"""``posproof precision``: RoPE's score error per storage dtype and angle style (numeric/precision_profile.py, the
measure the audit reports): float64 angles hold, 16-bit angles break at once, float32 angles late."""

from posproof.derivations.cli import main
from posproof.numeric import precision_profile as pp


def test_cli_precision_prints_one_row_per_dtype_and_angle_style(capsys):
    assert main(["precision", "--max-position", "4096", "--width", "32"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(pp.header(32))
    for dtype in pp.DTYPES:
        assert dtype in out
    assert "storage-angles" in out and "1k" in out and "4k" in out


def test_regression_float64_reads_as_breaking_and_float16_better_than_float32(capsys):
    # The old study counted 16 eps of each dtype: float64 "broke" at position 449 and float16 (676) read as better
    # than float32 (455). One tolerance on one measure for every dtype: float64 angles never exceed it.
    rows = pp.profile_table(width=32, positions=(1024, 4096), dtypes=("float64", "float32", "float16"))
    first = {(r.dtype, r.style): r.profile.first_exceeding for r in rows}
    assert first[("float64", "float64-angles")] is None
    assert first[("float32", "float64-angles")] is None
    assert first[("float16", "storage-angles")] == 0


def test_cli_precision_rejects_bad_options(capsys):
    assert main(["precision", "--width", "7"]) == 2
    assert "--width" in capsys.readouterr().err
    assert main(["precision", "--tolerance", "2"]) == 2
    assert "--tolerance" in capsys.readouterr().err


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
