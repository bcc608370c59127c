r"""The Self-Extend audit: the kernel itself and a torch-free reimplementation conform; each plausible mistake is
named with the smallest pair (i, j) that shows it; bad arguments are one ValueError naming the argument."""

import numpy as np
import pytest
from posproof.numeric.audit.remap import SELF_EXTEND_FINDINGS, audit_self_extend
from posproof.numeric.remap import self_extend_relative


def reference_style(i, j, window, group):
    r"""The reference's two position sets: neighbour (i - j) where i - j < W, grouped beyond."""
    q = i // group + window - window // group
    return np.where(i - j < window, i - j, q - j // group)


@pytest.mark.parametrize(("window", "group"), [(4, 2), (6, 4), (1, 1), (16, 3)])
def test_correct_functions_conform(window, group):
    assert audit_self_extend(self_extend_relative, window=window, group=group).ok
    report = audit_self_extend(reference_style, window=window, group=group)
    assert report.ok and report.scheme == "self-extend" and "window" in report.checked


def _grouped(i, j):
    return i // 4 - j // 4


@pytest.mark.parametrize(
    ("fn", "finding", "pair"),
    [
        # W = 6, G = 4: grouped from i - j = 6; the first grouped pair is (6, 0)
        (lambda i, j: np.where(i - j < 6, i - j, _grouped(i, j)), "self-extend-no-shift", (6, 0)),
        (lambda i, j: np.where(i - j < 6, i - j, _grouped(i, j) + 6), "self-extend-shift-window", (6, 0)),
        (lambda i, j: np.where(i - j < 6, i - j, _grouped(i, j) + 6 - 1.5), "self-extend-shift-true-division", (6, 0)),
        (lambda i, j: np.where(i - j <= 6, i - j, _grouped(i, j) + 5), "self-extend-window-inclusive", (8, 2)),
        (lambda i, j: np.where(i - j < 6, i - j, (i - j) // 4 + 5), "self-extend-grouped-distance", (8, 1)),
        (lambda i, j: i - j, "self-extend-mismatch", (7, 0)),
        (lambda i, j: (i - j)[:3], "self-extend-shape", None),
    ],
)
def test_each_mistake_is_named_with_the_smallest_pair(fn, finding, pair):
    (f,) = audit_self_extend(fn, window=6, group=4).findings
    assert f.id == finding and f.id in SELF_EXTEND_FINDINGS
    if pair is not None:
        assert (f.example["i"], f.example["j"]) == pair
        assert f"i = {pair[0]}, j = {pair[1]}" in f.message
        want = int(self_extend_relative([pair[0]], [pair[1]], window=6, group=4)[0])
        assert f.example["expected"] == want != f.example["got"]


def test_grouped_distance_first_differs_where_the_pair_straddles_a_group():
    # W = 4, G = 2: (5, 0) and (6, 1) share i - j = 5; grouping the distance gives both 4, Self-Extend gives (6, 1) 5
    (f,) = audit_self_extend(lambda i, j: np.where(i - j < 4, i - j, (i - j) // 2 + 2), window=4, group=2).findings
    assert f.id == "self-extend-grouped-distance" and (f.example["i"], f.example["j"]) == (6, 1)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"window": 0, "group": 2}, "window"), ({"window": 2, "group": 0}, "group"),
     ({"window": 2, "group": 2, "max_position": 1}, "max_position")],
)  # fmt: skip
def test_bad_arguments(kwargs, name):
    with pytest.raises(ValueError, match=name):
        audit_self_extend(self_extend_relative, **kwargs)
    with pytest.raises(ValueError, match="fn"):
        audit_self_extend(3, window=2, group=2)
