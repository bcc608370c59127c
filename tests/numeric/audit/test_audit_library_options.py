r"""What the command line needs of the audit library: stages told to an optional ``progress``, the arguments of
``audit_rope`` checked without calling anything, torch imported only when NumPy arrays do not do, rules whose
alternatives overflow, and transformers' model types and config files refused by name."""

from __future__ import annotations

import json

import numpy as np
import pytest
from posproof.numeric import audit
from posproof.numeric.audit import call, hf
from posproof.numeric.multiaxis import mrope_axes, rope_multiaxis
from posproof.numeric.t5 import t5_relative_bucket

from tests.note_functions import note_rope


def test_progress_is_told_each_stage_of_a_rope_audit():
    stages: list[str] = []
    report = audit.audit_rope(note_rope, width=8, max_position=4096, progress=stages.append)
    assert report.ok
    assert stages[0] == "shape and dtype" and stages[1].startswith("probes at ")
    assert "angles and frequencies" in stages and stages[-1] == "precision profile"


def test_progress_is_told_the_stages_of_the_other_audits():
    stages: list[str] = []
    audit.audit_alibi(lambda n: [2.0 ** (-8 * h / n) for h in range(1, n + 1)], progress=stages.append)
    assert stages == ["slopes for n_heads in 1-64"]
    stages.clear()
    audit.audit_t5(
        lambda r, b, nb, md: t5_relative_bucket(r, bidirectional=b, num_buckets=nb, max_distance=md),
        progress=stages.append,
    )
    assert len(stages) == len(audit.T5_SETTINGS) and stages[0].startswith("buckets for bidirectional=True")
    stages.clear()
    mrope = lambda x, p: rope_multiaxis(x, p, axes=mrope_axes([2, 3, 3]))  # noqa: E731
    assert audit.audit_rope(mrope, width=16, scaling={"mrope_section": [2, 3, 3]}, progress=stages.append).ok
    assert stages[0] == "shape" and "half layout: text positions" in stages


def test_no_progress_is_the_default():
    assert audit.audit_rope(note_rope, width=8, max_position=4096).ok


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"width": 7}, "width must be a positive even integer"),
        ({"base": 1.0}, "base must be a finite real number > 1"),
        ({"scaling": {"rope_type": "magic"}}, "rope_type must be one of"),
        ({"scaling": {"rope_type": "yarn", "factor": 4.0}}, "max_position_embeddings"),
        ({"rotary_dim": 128}, "rotary_dim must be an even integer in [2, 64]"),
        ({"tolerance": 0}, "tolerance must be a finite real number > 0"),
        ({"max_position": 3}, "max_position must be an integer >= 4"),
        ({"dtype": "float8"}, "dtype must be bfloat16 or float16"),
        ({"call": "q,positions"}, "call arguments need either vectors, or both q and k"),
        ({"scaling": {"mrope_section": [1, 1]}}, "mrope_section must add up to width/2 = 32"),
        ({"scaling": {"mrope_section": "2,3,3"}}, "mrope_section must be a list of integers >= 0"),
        ({"scaling": {"mrope_section": [0] * 9 + [32]}}, "mrope_section must give 1 to 8 axes"),
        ({"scaling": {"rope_type": "axial"}, "rotary_dim": 8}, "rotary_dim: axial 2-D RoPE rotates every pair"),
        ({"scaling": {"mrope_section": [32]}, "call": "q,k,positions"}, "call: not read by a multi-axis audit"),
    ],
)
def test_check_rope_arguments_refuses_what_audit_rope_refuses_without_calling_anything(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        audit.check_rope_arguments(**kwargs)
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        audit.audit_rope(note_rope, **kwargs)


def test_check_rope_arguments_accepts_the_defaults():
    audit.check_rope_arguments()
    audit.check_rope_arguments(scaling={"mrope_section": [16, 8, 8]})


def test_regression_a_scaling_factor_whose_alternatives_overflow_is_audited():
    # OverflowError: (34, 'Numerical result out of range') from the ntk alternative of factor 1e300
    def linear(vectors, positions, base=10000.0):
        return note_rope(vectors, np.asarray(positions) / 1e300, base)

    report = audit.audit_rope(linear, width=8, max_position=4096, scaling={"rope_type": "linear", "factor": 1e300})
    assert isinstance(report, audit.RopeReport)


def test_regression_a_numpy_function_is_audited_without_importing_torch(monkeypatch):
    # every audit imported torch (seconds) to decide whether it could try it, though NumPy arrays did
    def no_torch():
        raise AssertionError("torch imported for a function that takes NumPy arrays")

    monkeypatch.setattr(call, "_torch", no_torch)
    assert audit.audit_rope(note_rope, width=8, max_position=4096).ok


@pytest.mark.parametrize(
    "content, message",
    [
        (b"[1, 2]", "must hold a JSON object (a config.json), got list"),
        (b"\xff\xfe{}", "is not UTF-8 text"),
        (b"[" * 5000, "is nested too deeply"),
        (b"{oops", "is not valid JSON"),
    ],
)
def test_load_config_refuses_what_is_not_a_config_by_name(tmp_path, content, message):
    path = tmp_path / "config.json"
    path.write_bytes(content)
    with pytest.raises(ValueError) as e:
        hf.load_config(str(path))
    assert str(e.value).startswith(f"{path} {message}")


def test_load_config_refuses_a_directory_and_a_huge_file(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="is a directory: give its config.json, or a model_type"):
        hf.load_config(str(tmp_path))
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "llama", "pad": "x" * 100}))
    monkeypatch.setattr(hf, "MAX_CONFIG_BYTES", 50)
    with pytest.raises(ValueError, match="bytes: a config.json is at most 50 bytes"):
        hf.load_config(str(path))


def test_a_mistyped_model_type_is_named_with_the_closest_known_ones():
    pytest.importorskip("transformers", reason="the model types are transformers'")
    with pytest.raises(ValueError, match=r"model_type 'lamma' is not one transformers .*; did you mean llama"):
        hf.check_model_type("lamma")
    hf.check_model_type("llama")
