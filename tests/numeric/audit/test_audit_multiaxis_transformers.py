r"""The multi-axis audit of transformers' own multi-axis rotaries (live: needs torch and transformers): each family's
rotation (tests/numeric/multiaxis/hf_families.py, its own layout code in float64) conforms to the declaration
posproof reads from its config, the nearest wrong declaration gets the finding that names the difference, and
HunYuan-VL's text rotary, declared as its config declares it (``mrope_section``), is named channel-split."""

from __future__ import annotations

import math

import pytest
from posproof.numeric.audit.multiaxis import MULTIAXIS_FINDINGS, audit_multiaxis

pytest.importorskip("torch", reason="transformers' rotaries run on torch")
pytest.importorskip("transformers", reason="the live audit of transformers' multi-axis rotaries needs transformers")

from tests.numeric.multiaxis import hf_families as H  # noqa: E402 - after the skips: it imports transformers' modules


def _declared(name):
    from posproof.numeric.multiaxis.config import multiaxis_from_config

    return multiaxis_from_config(H.config_dict(name), part="vision" if name in H.VISION else "text")


def _rotation(name):
    return lambda x, p: H.transformers_rotation(name, x, p)


@pytest.mark.parametrize("name", [*H.VISION, *H.TEXT])
def test_transformers_multiaxis_rotaries_conform(name):
    rope = _declared(name)
    report = audit_multiaxis(_rotation(name), H.WIDTH, rope)
    assert report.ok, (rope.name, report.findings)


@pytest.mark.parametrize(("name", "declared"), [("qwen2_5_vl", "split"), ("pixtral", "shared")])
def test_transformers_axial_rotary_declared_with_the_other_frequencies_is_named(name, declared):
    report = audit_multiaxis(_rotation(name), H.WIDTH, axial=True, axial_frequencies=declared)
    assert report.ids == ("axial-shared-vs-split",), report.findings


def test_transformers_hunyuan_vl_text_rotary_is_channel_split():
    sections = [2, 2, 2, 2]  # 4 axes, d = 16: chunks of 4 channels, chunk i from axis i % 4
    report = audit_multiaxis(lambda x, p: H.xdrope_rotation(sections, x, p), 16, mrope_section=sections)
    assert report.ids == ("multiaxis-channel-split",), report.findings
    f = report.findings[0]
    assert f.message.startswith(MULTIAXIS_FINDINGS["multiaxis-channel-split"])
    assert "pair 0: channel 0 turns with axis 0, channel 8 with axis 2" in f.message
    # at e_2 channel 8 (the partner of channel 0, chunk 2) turns by theta_0 = 1; the declared pair 0 (axis 0) not
    assert f.example["positions"] == [0, 0, 1, 0] and f.example["channel"] == 8
    assert float(f.example["expected angle"]) == 0.0
    assert math.isclose(float(f.example["got angle"]), 1.0, rel_tol=1e-9)
