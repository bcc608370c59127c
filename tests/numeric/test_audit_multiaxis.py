r"""The multi-axis audit (numeric/_audit_multiaxis.py): correct implementations conform (ours, and one written the
way transformers writes Qwen2-VL's and Qwen3-VL's: cos/sin per axis, then recomposed), and each planted mistake is
named with its id and a minimal example."""

from __future__ import annotations

import numpy as np
import pytest

from posproof.numeric import multiaxis as M
from posproof.numeric._audit_multiaxis import MULTIAXIS_FINDINGS, audit_multiaxis

WIDTH, SECTIONS = 16, [2, 3, 3]


def hf_style(sections, interleaved=False, base=10000.0, order=(0, 1, 2)):
    r"""M-RoPE as transformers computes it: angles per axis (A, N, d/2), recomposed into one (N, d/2), rotate-half."""

    def fn(x, pos):
        d = x.shape[-1]
        inv = base ** (-np.arange(0, d, 2) / d)
        freqs = pos.T[np.asarray(order)][:, :, None] * inv  # (A, N, d/2)
        if interleaved:
            f = freqs[0].copy()
            for a, offset in ((1, 1), (2, 2)):
                idx = slice(offset, sections[a] * 3, 3)
                f[:, idx] = freqs[a][:, idx]
        else:
            bounds = np.cumsum([0, *sections])
            f = np.concatenate([freqs[a][:, bounds[a] : bounds[a + 1]] for a in range(len(sections))], axis=-1)
        cos, sin = np.cos(np.concatenate([f, f], -1)), np.sin(np.concatenate([f, f], -1))
        rot = np.concatenate([-x[:, d // 2 :], x[:, : d // 2]], axis=-1)
        return x * cos + rot * sin

    return fn


@pytest.mark.parametrize("interleaved", [False, True])
def test_correct_implementations_conform(interleaved):
    ours = lambda x, p: M.rope_multiaxis(x, p, axes=M.mrope_axes(SECTIONS, interleaved))
    for fn in (ours, hf_style(SECTIONS, interleaved)):
        report = audit_multiaxis(fn, WIDTH, mrope_section=SECTIONS, mrope_interleaved=interleaved)
        assert report.ok, report.findings


def test_axial_conforms():
    fn = lambda x, p: M.rope_multiaxis(x, p, axes=M.axial_axes(WIDTH), inv_freq=M.axial_inv_freq(WIDTH))
    assert audit_multiaxis(fn, WIDTH, axial=True).ok


@pytest.mark.parametrize(
    ("fn", "declared", "finding"),
    [
        (hf_style(SECTIONS, interleaved=False), {"mrope_interleaved": True}, "mrope-chunked-vs-interleaved"),
        (hf_style(SECTIONS, interleaved=True), {}, "mrope-chunked-vs-interleaved"),
        (hf_style(SECTIONS, order=(1, 0, 2)), {}, "mrope-axes-order"),
        (hf_style([4, 2, 2]), {}, "mrope-wrong-sections"),
        (hf_style(SECTIONS, base=500000.0), {}, "multiaxis-wrong-frequencies"),
        (lambda x, p: M.rope_multiaxis(x, p, axes=[0] * 8), {}, "mrope-wrong-sections"),
        (lambda x, p: x * 2.0 + np.nan, {}, "multiaxis-shape"),
    ],
    ids=["chunked-declared-interleaved", "interleaved-declared-chunked", "h-and-t-swapped", "sections-4-2-2",
         "wrong-base", "only-t", "nan"],
)  # fmt: skip
def test_planted_mistakes_are_named(fn, declared, finding):
    report = audit_multiaxis(fn, WIDTH, mrope_section=SECTIONS, **declared)
    assert not report.ok and report.ids[0] == finding, report.findings
    assert report.findings[0].message.startswith(MULTIAXIS_FINDINGS[finding])
    if finding != "multiaxis-shape":
        ex = report.findings[0].example
        assert sum(ex["positions"]) == 1 and ex["expected angle"] != ex["got angle"]


def test_text_positions_must_be_one_dimensional_rope():
    # right axes and frequencies at the probes, but text tokens moved (a vision offset added to h and w)
    def fn(x, p):
        p = np.array(p)
        p[:, 1:] += np.where((p[:, :1] == p[:, 1:2]) & (p[:, 1:2] == p[:, 2:3]) & (p[:, :1] > 1), 3, 0)
        return M.rope_multiaxis(x, p, axes=M.mrope_axes(SECTIONS))

    report = audit_multiaxis(fn, WIDTH, mrope_section=SECTIONS)
    assert report.ids == ("mrope-text-not-1d",)
