r"""``posproof audit`` for multi-axis RoPE (derivations/commands/audit.py): ``--mrope-section``,
``--mrope-interleaved`` and
``--axial`` audit ``fn(vectors, positions (tokens, A))``; exit 0 when it conforms, 1 with the finding named, 2 with
one line for a bad value."""

from __future__ import annotations

import json

import pytest
from posproof.derivations.args import Parser, UsageError
from posproof.derivations.commands import audit as cli_audit

USER = """
from posproof.numeric import multiaxis as M

def chunked(vectors, positions):
    return M.rope_multiaxis(vectors, positions, axes=M.mrope_axes([2, 3, 3]))

def interleaved(vectors, positions):
    return M.rope_multiaxis(vectors, positions, axes=M.mrope_axes([2, 3, 3], interleaved=True))

def h_before_t(vectors, positions):
    return M.rope_multiaxis(vectors, positions[:, [1, 0, 2]], axes=M.mrope_axes([2, 3, 3]))

def axial_plain(vectors, positions):
    return M.rope_multiaxis(vectors, positions, axes=M.axial_axes(vectors.shape[-1]))

def partial(vectors, positions):  # GLM-4V: the first 8 of 16 channels turn, the rest pass through
    return M.rope_multiaxis(vectors, positions, axes=M.mrope_axes([1, 2, 1]), rotary_dim=8)

def partial_whole_head(vectors, positions):  # the mistake: sections over the whole head
    return M.rope_multiaxis(vectors, positions, axes=M.mrope_axes([2, 3, 3]))

def axial(vectors, positions):
    d = vectors.shape[-1]
    return M.rope_multiaxis(vectors, positions, axes=M.axial_axes(d), inv_freq=M.axial_inv_freq(d))
"""


def _run(argv):
    p = Parser(prog="posproof")
    cli_audit.add_parser(p.add_subparsers(dest="command", required=True, parser_class=Parser))
    args = p.parse_args(["audit", *argv])
    return args.func(args)


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    (tmp_path / "user_mrope.py").write_text(USER)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_mrope_conforms_and_a_planted_mistake_is_named(user_module, capsys):
    rope = ["--scheme", "rope", "--width", "16"]
    assert _run(["user_mrope:chunked", *rope, "--mrope-section", "2,3,3"]) == 0
    out = capsys.readouterr().out
    assert "user_mrope:chunked: conforms" in out and "M-RoPE chunked sections [2, 3, 3]" in out
    assert _run(["user_mrope:interleaved", *rope, "--mrope-section", "2,3,3", "--mrope-interleaved"]) == 0
    assert "M-RoPE interleaved" in capsys.readouterr().out
    # chunked where interleaved is declared, and axes in the wrong order
    assert _run(["user_mrope:chunked", *rope, "--mrope-section", "2,3,3", "--mrope-interleaved"]) == 1
    assert "FAIL mrope-chunked-vs-interleaved" in capsys.readouterr().out
    assert _run(["user_mrope:h_before_t", *rope, "--mrope-section", "2,3,3", "--json"]) == 1
    (report,) = json.loads(capsys.readouterr().out)["reports"]
    assert report["scheme"] == "multiaxis" and report["function"] == "user_mrope:h_before_t"
    assert [f["id"] for f in report["findings"]] == ["mrope-axes-order"]


def test_axial_conforms_and_plain_rope_frequencies_do_not(user_module, capsys):
    assert _run(["user_mrope:axial", "--scheme", "rope", "--width", "16", "--axial"]) == 0
    assert "axial 2-D RoPE, width 16" in capsys.readouterr().out
    assert _run(["user_mrope:axial_plain", "--scheme", "rope", "--width", "16", "--axial"]) == 1
    assert "FAIL multiaxis-wrong-frequencies" in capsys.readouterr().out
    # a function that cannot take (tokens, 2) positions: a usage error naming the call
    with pytest.raises(UsageError, match=r"user_mrope:chunked\(vectors \(3, 16\), positions \(3, 2\)\) raised"):
        _run(["user_mrope:chunked", "--scheme", "rope", "--width", "16", "--axial"])


def test_the_flags_merge_into_scaling(user_module, capsys):
    scaling = '{"rope_type": "default"}'
    argv = ["user_mrope:chunked", "--scheme", "rope", "--width", "16", "--scaling", scaling, "--mrope-section", "2,3,3"]
    assert _run(argv) == 0


def test_regression_partial_mrope_from_the_command_line(user_module, capsys):
    rope = ["--scheme", "rope", "--width", "16", "--rotary-dim", "8", "--mrope-section", "1,2,1"]
    assert _run(["user_mrope:partial", *rope]) == 0
    assert "conforms" in capsys.readouterr().out
    assert _run(["user_mrope:partial_whole_head", *rope]) == 1
    assert "multiaxis-rotary-width" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--mrope-section", "2,3"], r"--mrope-section must add up to --width/2 = 8 .*got '2,3' \(sum 5\)"),
        (["--mrope-section", "2;3;3"], "--mrope-section must be 1 to 8 comma-separated integers >= 0"),
        (["--mrope-section", "2,-1,7"], "--mrope-section must be 1 to 8 comma-separated integers >= 0"),
        (["--mrope-section", "2,3,3.0"], "--mrope-section must be 1 to 8 comma-separated integers >= 0"),
        (["--mrope-section", "__import__('os')"], "--mrope-section must be 1 to 8 comma-separated integers >= 0"),
        (["--mrope-interleaved"], "--mrope-interleaved needs --mrope-section"),
        (["--axial", "--mrope-section", "2,3,3"], "--axial and --mrope-section/--mrope-interleaved exclude"),
        (["--axial", "--width", "6"], "--axial needs --width a multiple of 4"),
        (["--mrope-section", "2,3,3", "--rotary-dim", "8"], r"--mrope-section must add up to --rotary-dim/2 = 4"),
        (["--mrope-section", "2,3,3", "--rotary-dim", "32"], "--rotary-dim must be at most --width = 16"),
        (["--mrope-section", "2,3,3", "--call", "vectors,positions"], "--call: not read by a multi-axis audit"),
        (["--mrope-section", "2,3,3", "--scaling", '{"mrope_section": [2, 3, 3]}'], "--scaling already gives"),
    ],
)
def test_bad_values_are_one_line_usage_errors(user_module, argv, message):
    full = ["user_mrope:chunked", "--scheme", "rope", *(["--width", "16"] if "--width" not in argv else []), *argv]
    with pytest.raises(UsageError, match=message) as e:
        _run(full)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["user_mrope:chunked", "--scheme", "alibi", "--mrope-section", "2,3,3"], "--mrope-section only apply to"),
        (["user_mrope:chunked", "--scheme", "t5", "--axial"], "--axial only apply to --scheme rope"),
        (["--transformers", "qwen2_vl", "--mrope-section", "2,3,3"], "--mrope-section: --transformers takes them"),
    ],
)
def test_multiaxis_flags_outside_rope_audits_are_refused(user_module, argv, message):
    with pytest.raises(UsageError, match=message):
        _run(argv)


def test_main_exits_2_with_one_line(user_module, capsys):
    code = cli_audit.main(["user_mrope:chunked", "--scheme", "rope", "--width", "16", "--mrope-section", "x"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("posproof: error: --mrope-section")
