r"""The RoPE precision study: float64 angles keep the relative-position property; angles built in low precision
lose it within the first few hundred positions (regression for "frequencies rounded to bf16/fp16")."""

import numpy as np
import pytest

from derivations.cli import main
from numeric import precision, tolerances

pytest.importorskip("ml_dtypes")


def test_position_zero_is_within_tolerance_for_every_dtype_and_style():
    for dtype in precision.DTYPES:
        for style in precision.STYLES:
            err = precision.score_errors(dtype, style, np.arange(4))
            assert err.max() < tolerances.rope_break_tolerance(dtype), (dtype, style, err)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_float64_angles_keep_the_property(dtype):
    assert precision.first_break(dtype, "float64-angles", max_position=2048) is None


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_regression_low_precision_angles_break_early(dtype):
    # Bug class: frequencies/positions rounded to the storage dtype before m * theta_i.
    m = precision.first_break(dtype, "low-precision-angles", max_position=2048)
    assert m is not None and m < 1024


def test_bf16_breaks_only_after_integers_stop_being_exact():
    # Integers are exact in bfloat16 up to 256: the rounded positions are right until then.
    m = precision.first_break("bfloat16", "low-precision-angles", max_position=2048)
    assert m > 256


def test_rotate_in_precision_float64_angles_matches_rope():
    from numeric import rope

    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (4, 16))
    pos = np.array([0.0, 5.0, 300.0, 70000.0])
    np.testing.assert_allclose(
        precision.rotate_in_precision(x, pos, "float64", "float64-angles"), rope(x, pos), atol=tolerances.FLOAT64_ATOL
    )


def test_bad_arguments():
    with pytest.raises(ValueError, match="dtype"):
        precision.dtype_of("int8")
    with pytest.raises(ValueError, match="style"):
        precision.rotate_in_precision(np.ones((1, 2)), [0], "float32", "fast")
    with pytest.raises(ValueError, match="dtype"):
        tolerances.rope_break_tolerance("float8")
    with pytest.raises(ValueError, match="max_position"):
        precision.first_break("float32", "float64-angles", max_position=0)


def test_cli_precision_prints_the_table(capsys):
    assert main(["precision", "--max-position", "600", "--width", "32"]) == 0
    out = capsys.readouterr().out
    for dtype in precision.DTYPES:
        assert dtype in out
    assert "low-precision-angles" in out and "none below 600" in out


def test_cli_precision_rejects_bad_width(capsys):
    assert main(["precision", "--width", "7"]) == 2
    assert "width" in capsys.readouterr().err


def test_regression_score_errors_reference_ignored_base():
    # Bug: the mpmath reference was always built with base 10000, so any other base (e.g. Llama 3's 500000)
    # reported a large error at position 0 and first_break returned 0 even for float64 angles.
    for base in (500000.0, 1000.0):
        err = precision.score_errors("float64", "float64-angles", np.arange(4), width=32, base=base)
        assert err.max() < tolerances.rope_break_tolerance("float64"), (base, err)
        assert precision.first_break("float32", "float64-angles", max_position=600, width=32, base=base) is None
