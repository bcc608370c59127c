r"""The multi-axis audit (numeric/audit/multiaxis.py): correct implementations conform (ours, and one written the
way transformers writes Qwen2-VL's and Qwen3-VL's: cos/sin per axis, then recomposed), and each planted mistake is
named with its id and a minimal example."""

from __future__ import annotations

import numpy as np
import pytest
from posproof.numeric import multiaxis as M
from posproof.numeric.audit.multiaxis import MULTIAXIS_FINDINGS, audit_multiaxis

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
    ours = lambda x, p: M.rope_multiaxis(x, p, axes=M.mrope_axes(SECTIONS, interleaved=interleaved))
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


# ---- through audit_rope: a multi-axis scaling dispatches to audit_multiaxis ------------------------------------------


def _ids(report):
    return tuple(f.id for f in report.findings)


@pytest.mark.parametrize("interleaved", [False, True])
def test_audit_rope_with_mrope_section_conforms_for_a_correct_implementation(interleaved):
    from posproof.numeric.audit import SchemeReport, audit_rope

    scaling = {"rope_type": "default", "mrope_section": SECTIONS, "mrope_interleaved": interleaved}
    report = audit_rope(hf_style(SECTIONS, interleaved), width=WIDTH, scaling=scaling, name="mine")
    assert isinstance(report, SchemeReport) and report.ok, report.findings
    assert report.function == "mine" and "half layout" in report.checked
    assert ("interleaved" if interleaved else "chunked") in report.checked


@pytest.mark.parametrize(
    ("fn", "declared"),
    [
        (hf_style(SECTIONS, interleaved=False), {"mrope_interleaved": True}),
        (hf_style(SECTIONS, interleaved=True), {}),
        (hf_style(SECTIONS, order=(1, 0, 2)), {}),
        (hf_style([4, 2, 2]), {}),
        (hf_style(SECTIONS, base=500000.0), {}),
    ],
    ids=["chunked-declared-interleaved", "interleaved-declared-chunked", "h-and-t-swapped", "sections-4-2-2",
         "wrong-base"],
)  # fmt: skip
def test_audit_rope_names_the_same_findings_as_audit_multiaxis(fn, declared):
    from posproof.numeric.audit import audit_rope

    report = audit_rope(fn, width=WIDTH, scaling={"type": "mrope", "mrope_section": SECTIONS, **declared})
    direct = audit_multiaxis(fn, WIDTH, mrope_section=SECTIONS, **declared)
    assert not report.ok and _ids(report) == _ids(direct) and report.findings == direct.findings


def test_audit_rope_axial_conforms_and_names_a_planted_mistake():
    from posproof.numeric.audit import audit_rope

    right = lambda x, p: M.rope_multiaxis(x, p, axes=M.axial_axes(WIDTH), inv_freq=M.axial_inv_freq(WIDTH))
    assert audit_rope(right, width=WIDTH, scaling={"rope_type": "axial"}).ok
    # the mistake: plain RoPE frequencies theta_0, theta_1, ... instead of the even ones then the odd ones
    plain = lambda x, p: M.rope_multiaxis(x, p, axes=M.axial_axes(WIDTH))
    report = audit_rope(plain, width=WIDTH, scaling={"rope_type": "axial"})
    assert _ids(report) == ("multiaxis-wrong-frequencies",), report.findings
    assert _ids(report) == _ids(audit_multiaxis(plain, WIDTH, axial=True))


def test_audit_rope_multiaxis_layout_auto_finds_either_layout():
    from posproof.numeric.audit import audit_rope

    fn = lambda x, p: M.rope_multiaxis(x, p, axes=M.mrope_axes(SECTIONS), layout="interleaved")
    report = audit_rope(fn, width=WIDTH, scaling={"mrope_section": SECTIONS})
    assert report.ok and "interleaved layout" in report.checked
    declared_half = audit_rope(fn, width=WIDTH, scaling={"mrope_section": SECTIONS}, layout="half")
    assert not declared_half.ok


def test_audit_rope_multiaxis_reads_the_frequency_rule_of_the_mapping():
    from posproof.numeric.audit import audit_rope
    from posproof.numeric.scaling.rules import rope_inv_freq

    rule = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 256}
    inv, factor = rope_inv_freq(WIDTH, base=1e4, scaling=rule)
    assert factor != 1.0
    fn = lambda x, p: M.rope_multiaxis(x, p, axes=M.mrope_axes(SECTIONS), inv_freq=inv, attention_factor=factor)
    assert audit_rope(fn, width=WIDTH, scaling={**rule, "mrope_section": SECTIONS}).ok
    plain = lambda x, p: M.rope_multiaxis(x, p, axes=M.mrope_axes(SECTIONS))
    assert not audit_rope(plain, width=WIDTH, scaling={**rule, "mrope_section": SECTIONS}).ok


def test_assert_rope_conforms_lists_the_multiaxis_finding():
    from posproof.numeric.audit import RopeConformanceError, assert_rope_conforms

    with pytest.raises(RopeConformanceError, match="mrope-axes-order"):
        assert_rope_conforms(hf_style(SECTIONS, order=(1, 0, 2)), width=WIDTH, scaling={"mrope_section": SECTIONS})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"call": "vectors,positions,base"}, "call: not read by a multi-axis audit"),
        ({"rotary_dim": 8, "scaling": {"rope_type": "axial"}}, "rotary_dim: axial 2-D RoPE rotates every pair"),
        ({"rotary_dim": 8, "scaling": {"mrope_section": [2, 1, 1], "partial_rotary_factor": 0.5}}, "either rotary_dim"),
        ({"rotary_dim": 7}, "rotary_dim must be a positive even integer"),
        ({"rotary_dim": 32}, r"rotary_dim must be an even integer in \[2, 16\]"),
        ({"scaling": {"rope_type": "axial", "mrope_section": SECTIONS}}, r"rope_type 'axial' \(2-D RoPE\) reads only"),
        ({"scaling": {"mrope_section": SECTIONS, "mrope_interleaved": "yes"}}, "mrope_interleaved must be true or"),
        ({"scaling": {"mrope_interleaved": True}}, "mrope_section is required"),
        (
            {"scaling": {"mrope_section": SECTIONS, "partial_rotary_factor": 0.5}},
            r"mrope_section must add up to rotary_dim/2 \(the rotated pairs\) = 4",
        ),
        ({"scaling": {"mrope_section": [2, 3, 2]}}, "mrope_section must add up to width/2 = 8"),
        ({"scaling": {"mrope_section": [2, 3, 3], "factor": 2.0}}, "key 'factor' is not used by rope_type 'default'"),
    ],
)
def test_audit_rope_multiaxis_bad_arguments_name_them(kwargs, message):
    from posproof.numeric.audit import audit_rope

    kwargs = {"scaling": {"mrope_section": SECTIONS}, **kwargs}
    with pytest.raises(ValueError, match=message):
        audit_rope(hf_style(SECTIONS), width=WIDTH, **kwargs)


def test_audit_rope_multiaxis_a_one_axis_function_is_a_call_error():
    from posproof.numeric.audit import AuditCallError, audit_rope
    from posproof.numeric.rotary import rope

    with pytest.raises(AuditCallError, match=r"positions \(3, 3\)\) raised ValueError.*one position vector per token"):
        audit_rope(lambda x, p: rope(x, p), width=WIDTH, scaling={"mrope_section": SECTIONS})


# ---- partial rotary M-RoPE (GLM-4V, GLM-4.1V: partial_rotary_factor 0.5 with mrope_section) --------------------------

PARTIAL, PARTIAL_SECTIONS = 8, [2, 1, 1]  # the first 8 of 16 channels rotate: 4 pairs, split t, t, h, w


def glm_style(sections=PARTIAL_SECTIONS, rotary=PARTIAL, pairs="interleaved", exponent_width=None, tail_axis=None):
    r"""Partial M-RoPE as transformers' GLM-4V computes it: frequencies over the rotary width, angles per axis
    recomposed by sections, pairs (2i, 2i + 1) (GLM-4V-MoE: rotate-half) inside the first ``rotary`` channels, the
    others passed through. ``exponent_width``: the width the exponent runs over (a planted mistake when not
    ``rotary``); ``tail_axis``: also rotate the pass-through channels with that axis (a planted mistake)."""

    def fn(x, pos):
        r = rotary
        ew = exponent_width or r
        inv = 1e4 ** (-np.arange(0, ew, 2)[: r // 2] / ew)  # (r/2,)
        freqs = pos.T[:, :, None] * inv  # (A, N, r/2)
        bounds = np.cumsum([0, *sections])
        f = np.concatenate([freqs[a][:, bounds[a] : bounds[a + 1]] for a in range(len(sections))], axis=-1)
        xr, rest = x[:, :r], x[:, r:]
        if pairs == "interleaved":  # GLM-4V: cos/sin repeat_interleave(2), rotate_half_llm
            cos, sin = np.repeat(np.cos(f), 2, -1), np.repeat(np.sin(f), 2, -1)
            rot = np.stack([-xr[:, 1::2], xr[:, 0::2]], axis=-1).reshape(xr.shape)
        else:  # GLM-4V-MoE: cat([f, f]), rotate_half
            cos, sin = np.cos(np.concatenate([f, f], -1)), np.sin(np.concatenate([f, f], -1))
            rot = np.concatenate([-xr[:, r // 2 :], xr[:, : r // 2]], axis=-1)
        if tail_axis is not None:
            rest = M.rope_multiaxis(rest, pos, axes=[tail_axis] * (rest.shape[-1] // 2), layout=pairs)
        return np.concatenate([xr * cos + rot * sin, rest], axis=-1)

    return fn


@pytest.mark.parametrize("pairs", ["interleaved", "half"])
def test_partial_mrope_conforms(pairs):
    from posproof.numeric.audit import audit_rope

    fn = glm_style(pairs=pairs)
    report = audit_multiaxis(fn, WIDTH, mrope_section=PARTIAL_SECTIONS, rotary_dim=PARTIAL, layout=pairs)
    assert report.ok and f"rotary width {PARTIAL}, {pairs} layout" in report.checked, report.findings
    # through audit_rope: the config's partial_rotary_factor, or rotary_dim; layout "auto" finds GLM-4V's pairs
    for extra, kwargs in (({"partial_rotary_factor": 0.5}, {}), ({}, {"rotary_dim": PARTIAL})):
        scaling = {"rope_type": "default", "mrope_section": PARTIAL_SECTIONS, **extra}
        got = audit_rope(fn, width=WIDTH, scaling=scaling, **kwargs)
        assert got.ok and f"{pairs} layout" in got.checked and "rotary width 8" in got.checked, got.findings
    # ours: rope(..., axes=, rotary_dim=) is such a function
    ours = lambda x, p: M.rope_multiaxis(x, p, axes=M.mrope_axes(PARTIAL_SECTIONS), layout=pairs, rotary_dim=PARTIAL)
    assert audit_multiaxis(ours, WIDTH, mrope_section=PARTIAL_SECTIONS, rotary_dim=PARTIAL, layout=pairs).ok


@pytest.mark.parametrize(
    ("fn", "finding", "shows"),
    [
        # the sections (scaled up) over the whole head: every channel rotates
        (glm_style(sections=[4, 2, 2], rotary=WIDTH), "multiaxis-rotary-width", "channel 8 is changed"),
        # the slice right, but the pass-through channels rotated too (with t)
        (glm_style(tail_axis=0), "multiaxis-rotary-width", "channel 8 is changed"),
        # the slice right, but its frequencies built over the head width: base**(-2i/16)
        (glm_style(exponent_width=WIDTH), "multiaxis-rotary-width", "built over the head width"),
        # the head's sections cut to the slice: pairs 0-3 all take t
        (glm_style(sections=[4, 0, 0]), "mrope-wrong-sections", "the sections are [4, 0, 0]"),
        # GLM-4V's interleaved pairs where rotate-half is declared: the pairs are other channels
        (glm_style(pairs="interleaved"), "multiaxis-layout", "the pairs are (2i, 2i + 1), the interleaved layout"),
    ],
    ids=["sections-over-full-head", "pass-through-rotated", "exponent-over-head", "head-sections-on-slice",
         "pairs-interleaved-declared-half"],
)  # fmt: skip
def test_partial_mrope_planted_mistakes_are_named(fn, finding, shows):
    layout = "half" if finding == "multiaxis-layout" else "interleaved"
    report = audit_multiaxis(fn, WIDTH, mrope_section=PARTIAL_SECTIONS, rotary_dim=PARTIAL, layout=layout)
    f = report.findings[0]
    assert report.ids == (finding,) and f.message.startswith(MULTIAXIS_FINDINGS[finding]) and shows in f.message
    assert sum(f.example["positions"]) == 1  # the smallest position vector: one axis at 1
    if finding == "multiaxis-layout":  # channel 0 turns with channel 1, not with channel 4
        assert f.example["input"] == "a unit vector on channel 0" and "on channel 1" in f.example["got output"]
        assert "on channel 4" in f.example["expected output"]
    elif "channel" in shows:  # a unit vector on the first pass-through channel, at the first axis that moves it
        assert f.example["input"] == "a unit vector on channel 8"
        assert f.example["expected output"] == "1 on channel 8 (it passes through)"
        assert "channel 9" in f.example["got output"]
    else:
        assert f.example["expected angle"] != f.example["got angle"]


def test_partial_mrope_example_is_the_first_axis_that_moves_a_pass_through_channel():
    # the tail turns with w only: e_t and e_h leave it alone, e_w shows it
    report = audit_multiaxis(glm_style(tail_axis=2), WIDTH, mrope_section=PARTIAL_SECTIONS, rotary_dim=PARTIAL,
                             layout="interleaved")  # fmt: skip
    assert report.ids == ("multiaxis-rotary-width",) and report.findings[0].example["positions"] == [0, 0, 1]


@pytest.mark.parametrize("pairs", ["interleaved", "half"])
def test_partial_mrope_declared_full_width_names_the_rotary_width(pairs):
    # the function rotates half the head; the audit declared every pair rotated: channels 8-15 never move
    report = audit_multiaxis(glm_style(pairs=pairs), WIDTH, mrope_section=[4, 2, 2], layout=pairs)
    assert report.ids == ("multiaxis-rotary-width",), report.findings
    f = report.findings[0]
    assert "only the first 8 of 16 channels rotate, not the first rotary_dim = 16" in f.message
    assert f.example["input"] == "a unit vector on channel 8" and f.example["got output"] == "1 on channel 8"
    assert sum(f.example["positions"]) == 1  # e_h: channel 8 is pair 4 (h) interleaved, pair 0's partner (t) half
    # a function that ignores the positions is not a narrower rotary width: every pair follows no axis
    assert audit_multiaxis(lambda x, p: x, WIDTH, mrope_section=SECTIONS).ids == ("multiaxis-wrong-axes",)


# ---- transformers' own multi-axis rotaries conform (live: needs torch and transformers) ------------------------------

_HF_DECLARED = {  # what each of transformers' modules declares (tests/numeric/hf_multiaxis.py builds them)
    "qwen2_vl": (1e6, {"mrope_section": [2, 3, 3]}),
    "qwen3_vl": (5e6, {"mrope_section": [3, 3, 2], "mrope_interleaved": True}),
    "pixtral": (1e4, {"rope_type": "axial"}),
    "glm4v": (1e4, {"partial_rotary_factor": 0.5, "mrope_section": [2, 1, 1]}),
    "glm4v_moe": (1e4, {"partial_rotary_factor": 0.5, "mrope_section": [2, 1, 1]}),
}


@pytest.mark.parametrize("name", sorted(_HF_DECLARED))
def test_transformers_rotaries_conform_through_audit_rope(name):
    pytest.importorskip("torch", reason="the live audit of transformers' rotaries needs torch")
    pytest.importorskip("transformers", reason="the live audit of transformers' rotaries needs transformers")
    from posproof.numeric.audit import audit_rope

    from tests.numeric import hf_multiaxis as H

    fn = lambda x, p: H.transformers_rotation(name, x, p)[1]
    base, scaling = _HF_DECLARED[name]
    report = audit_rope(fn, width=H.WIDTH, base=base, scaling=scaling)
    layout, rotary = H.ROTATION.get(name, ("half", H.WIDTH))
    assert report.ok and f"{layout} layout" in report.checked, report.findings
    assert (f"rotary width {rotary}," in report.checked) == (rotary < H.WIDTH)
    if name.startswith("glm"):  # declared over the whole head: the sections do not add up (transformers' split fails)
        with pytest.raises(ValueError, match="mrope_section must add up to width/2 = 8"):
            audit_rope(fn, width=H.WIDTH, base=base, scaling={"mrope_section": [2, 1, 1]})
    if name == "qwen3_vl":  # Qwen3-VL declared chunked: the layout mistake is named
        wrong = audit_rope(fn, width=H.WIDTH, base=base, scaling={"mrope_section": [3, 3, 2]})
        assert wrong.ids == ("mrope-chunked-vs-interleaved",)


def test_regression_audit_rope_rotary_dim_is_taken_exactly():
    # rotary_dim 30 of width 44: 30 / 44 * 44 = 29.999..., which a partial_rotary_factor would truncate to 29
    fn = lambda x, p: M.rope_multiaxis(x, p, axes=M.mrope_axes([5, 5, 5]), rotary_dim=30)
    from posproof.numeric.audit import audit_rope

    report = audit_rope(fn, width=44, scaling={"mrope_section": [5, 5, 5]}, rotary_dim=30)
    assert report.ok and "rotary width 30" in report.checked, report.findings
