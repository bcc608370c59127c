r"""The KV-cache shift audit: a correct shift conforms (float64 and float32); each plausible mistake is named,
with the smallest input that shows it; bad arguments are one ValueError naming the argument."""

import numpy as np
import pytest
from posproof.numeric.audit import CACHE_SHIFT_FINDINGS, audit_cache_shift
from posproof.numeric.rotary import rope


def shift(keys, delta):
    return rope(keys, [delta] * len(keys))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_correct_shift_conforms(dtype):
    report = audit_cache_shift(lambda k, d: shift(k.astype(dtype), d))
    assert report.ok and not report.findings and report.scheme == "cache-shift"


@pytest.mark.parametrize(
    "fn, finding, width",
    [
        (lambda k, d: shift(k, -d), "cache-shift-sign", 2),  # the smallest width shows a sign
        (lambda k, d: rope(k, [d] * len(k), layout="half"), "cache-shift-layout", 4),  # 2 channels: one layout
        (lambda k, d: rope(k, [d] * len(k), base=500000.0), "cache-shift-wrong-base", 4),  # theta_0 = 1 any base
        (lambda k, d: shift(k, d + 1), "cache-shift-mismatch", 2),
        (lambda k, d: k[:, :1], "cache-shift-shape", 2),
    ],
)
def test_each_mistake_is_named_with_the_smallest_input(fn, finding, width):
    (f,) = audit_cache_shift(fn).findings
    assert f.id == finding and f.id in CACHE_SHIFT_FINDINGS and f.example["width"] == width
    assert (f.example["n"], f.example["delta"]) == (1, 1)


def test_the_base_found_is_named():
    (f,) = audit_cache_shift(lambda k, d: rope(k, [d] * len(k), base=1e6), base=500000.0).findings
    assert f.id == "cache-shift-wrong-base" and "(base 1e+06)" in f.message


@pytest.mark.parametrize(
    "kwargs, says",
    [({"width": 3}, "width must be even"), ({"layout": "diagonal"}, "layout must be one of"),
     ({"base": 1.0}, "base must be a finite number > 1"), ({"width": 0}, "width")],
)  # fmt: skip
def test_bad_arguments_are_one_value_error(kwargs, says):
    with pytest.raises(ValueError, match=says):
        audit_cache_shift(shift, **kwargs)
    with pytest.raises(ValueError, match="shift_fn must be callable"):
        audit_cache_shift(None)
