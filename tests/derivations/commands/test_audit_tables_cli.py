r"""``posproof audit --inv-freq FILE``, ``--axes FILE``, the call forms without positions and ``--dtype`` through
the command line: the audit gets them, its JSON validates against the shipped schema."""

from __future__ import annotations

import json

import numpy as np
import pytest
from posproof.derivations import machine
from posproof.derivations.cli import main

USER = """
import numpy as np
from posproof.numeric.rotary import rope as kernel

TABLE = np.concatenate([(1 / 1024) ** np.linspace(0, 1, 2), np.zeros(2)])

def truncated(vectors, positions, base=10000.0):
    return kernel(vectors, positions, layout="half", inv_freq=TABLE)

def plain(vectors, positions, base=10000.0):
    return kernel(vectors, positions, layout="half", base=base)

def offset_rope(vectors, offset):
    return kernel(vectors, offset + np.arange(len(vectors)), layout="half")

def block_rope(vectors):
    return kernel(vectors, np.arange(len(vectors)), layout="half")

def two_axes(vectors, positions):
    from posproof.numeric.multiaxis import rope_multiaxis
    return rope_multiaxis(vectors, positions, axes=np.array([0, 1, 0, 1]), layout="half")

def flux(vectors, positions):  # per-axis ladders axes_dim [4, 6, 6], interleaved
    from posproof.numeric.multiaxis import multiaxis_from_scaling, rope_multiaxis
    r = multiaxis_from_scaling({"rope_type": "axes_dim", "axes_dim": [4, 6, 6]}, width=16, base=10000.0)
    return rope_multiaxis(vectors, positions, axes=r.axes, inv_freq=r.inv_freq, layout="interleaved")

def f16_table(vectors, positions, base=10000.0):
    d = vectors.shape[1]
    ang = np.asarray(positions, dtype=np.float32)[:, None] * (base ** (-np.arange(0, d, 2) / d)).astype(np.float32)
    c, s = np.cos(ang).astype(np.float16).astype(vectors.dtype), np.sin(ang).astype(np.float16).astype(vectors.dtype)
    out = np.empty_like(vectors)
    out[:, 0::2] = vectors[:, 0::2] * c - vectors[:, 1::2] * s
    out[:, 1::2] = vectors[:, 0::2] * s + vectors[:, 1::2] * c
    return out
"""

FAST = ["--scheme", "rope", "--width", "8", "--max-position", "4096", "--format", "json", "-q"]


@pytest.fixture
def user(tmp_path, monkeypatch):
    (tmp_path / "tables_fns.py").write_text(USER)
    (tmp_path / "table.json").write_text(json.dumps([1.0, (1 / 1024), 0.0, 0.0]))
    np.save(tmp_path / "table.npy", np.array([1.0, 1 / 1024, 0.0, 0.0]))
    (tmp_path / "axes.json").write_text("[0, 1, 0, 1]")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def _reports(argv, capsys) -> tuple[int, list]:
    code = main(["audit", *argv])
    out, _ = capsys.readouterr()
    doc = json.loads(out)
    machine.validate(doc, "audit")
    return code, doc["reports"]


@pytest.mark.parametrize("table", ["table.json", "table.npy"])
def test_inv_freq_file_reaches_the_audit(user, capsys, table):
    code, (report,) = _reports(["tables_fns:truncated", *FAST, "--inv-freq", table], capsys)
    assert code == 0 and report["ok"] and report["matched"]["frequencies"] == "the given inv_freq table"
    code, (report,) = _reports(["tables_fns:plain", *FAST, "--inv-freq", table], capsys)
    assert code == 1 and [f["id"] for f in report["findings"]] == ["wrong-scaling"]


def test_axes_file_reaches_the_multiaxis_audit(user, capsys):
    code, (report,) = _reports(["tables_fns:two_axes", *FAST, "--axes", "axes.json"], capsys)
    assert code == 0 and report["scheme"] == "multiaxis" and report["ok"]


def test_any_multiaxis_scaling_reaches_the_multiaxis_audit(user, capsys):
    scaling = '{"rope_type": "axes_dim", "axes_dim": [4, 6, 6]}'
    argv = ["tables_fns:flux", "--scheme", "rope", "--width", "16", "--scaling", scaling, "--format", "json", "-q"]
    code, (report,) = _reports(argv, capsys)
    assert code == 0 and report["scheme"] == "multiaxis" and report["ok"], report
    code = main(["audit", *argv, "--call", "vectors,positions"])
    assert code == 2 and "--call: not read by a multi-axis audit" in capsys.readouterr().err


@pytest.mark.parametrize("fn, call", [("offset_rope", "vectors,offset"), ("block_rope", "vectors")])
def test_call_forms_without_positions(user, capsys, fn, call):
    code, (report,) = _reports([f"tables_fns:{fn}", *FAST, "--call", call], capsys)
    assert code == 0 and report["ok"] and report["expected"]["call"] == call


def test_table_precision_in_the_json(user, capsys):
    code, (report,) = _reports(["tables_fns:f16_table", *FAST], capsys)
    assert code == 0 and report["matched"]["table_precision"] == "float16"
    # at width 8 up to 4096 float32's rounding of the angles stays below float16's steps: the probes cannot tell
    assert report["matched"]["angle_precision"] == "float32 or float64"
