r"""``posproof precision``: the table, its bounded options (checked before any work), the progress bar, one help
style."""

import io
import sys

import pytest
from posproof.derivations.cli import main
from posproof.derivations.commands import precision
from posproof.numeric import precision_profile as pp


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_precision_prints_one_row_per_dtype_and_angle_style(capsys):
    code, out, err = run(capsys, "precision", "--max-position", "4096", "--width", "32")
    assert code == 0 and err == ""
    assert out.startswith(pp.header(32))
    for dtype in pp.DTYPES:
        assert dtype in out
    assert "storage-angles" in out and "1k" in out and "4k" in out
    assert len(out.splitlines()) == 2 + len(pp.table_rows())


def _no_work(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the profile was computed")

    monkeypatch.setattr(pp, "profile_table", refuse)


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["--max-position", "10" * 9],
            "--max-position must be an integer in [1024, 4503599627370496], got " + "10" * 9,
        ),
        (["--max-position", "1e15"], "--max-position must be an integer in [1024, 4503599627370496], got '1e15'"),
        (["--width", "100000"], "--width must be an integer in [2, 2048], got 100000"),
        (["--width", "7"], "--width must be an even integer in [2, 2048] (pairs of channels rotate), got 7"),
        (["--tolerance", "2"], "--tolerance must be a number in (0, 1), got 2"),
        (["--tolerance", "nan"], "--tolerance must be a number in (0, 1), got nan"),
    ],
)
def test_regression_precision_huge_options_are_refused_before_work(capsys, monkeypatch, argv, message):
    # --max-position 1e15 tried to allocate 198 TiB and --width 100000 printed nothing for minutes: both bounded
    _no_work(monkeypatch)
    code, out, err = run(capsys, "precision", *argv)
    assert code == 2 and out == "" and err == f"posproof: error: {message}\n"


def test_precision_accepts_its_bounds(capsys, monkeypatch):
    seen = {}
    monkeypatch.setattr(pp, "profile_table", lambda **kw: seen.update(kw) or [])
    code, _, _ = run(capsys, "precision", "--max-position", str(precision.MAX_POSITION), "--width", "2048")
    assert code == 0 and seen["max_position"] == 2**52 and seen["width"] == precision.MAX_WIDTH


class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("quiet, drawn", [([], True), (["-q"], False), (["--quiet"], False)])
def test_the_progress_bar_is_drawn_on_a_terminal_unless_quiet(capsys, monkeypatch, quiet, drawn):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code = main(["precision", "--max-position", "1024", "--width", "8", *quiet])
    out = capsys.readouterr().out
    assert code == 0 and ("precision [" in terminal.getvalue()) is drawn
    assert "\r" not in out and out.startswith(pp.header(8))


def test_no_progress_bar_when_stderr_is_piped(capsys):
    code, _, err = run(capsys, "precision", "--max-position", "1024", "--width", "8")
    assert code == 0 and err == ""


def test_precision_help_shows_each_default_from_the_parser(capsys):
    with pytest.raises(SystemExit):
        main(["precision", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for key, value in precision.DEFAULTS.items():
        assert f"(default: {value})" in text, key
    assert "--quiet" in text
