r"""Every bad command line of the table (``rows_*.py``) exits 2 with one line naming what is wrong."""

from __future__ import annotations

import importlib
import os
import pkgutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from posproof.derivations.cli import main

from tests.derivations import refusals

ROWS: list[tuple[list[str], str]] = []
for info in pkgutil.iter_modules(refusals.__path__):
    if info.name.startswith("rows_"):
        ROWS += importlib.import_module(f"{refusals.__name__}.{info.name}").ROWS


def _ids(row) -> str:
    return " ".join(row[0])[:80] or "(empty)"


def test_the_table_is_large():
    assert len(ROWS) >= 200
    assert len({tuple(argv) for argv, _ in ROWS}) == len(ROWS), "a bad command line is in the table twice"


@pytest.fixture(scope="module", autouse=True)
def catalogue():
    r"""The catalogue, built once before the rows run: a row naming a claim id needs the ids, which only building
    every module's claims gives (seconds, once per process); the bound of each row then measures its refusal."""
    from posproof.symbolic import registry

    registry.all()


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    for name, content in refusals.FILES.items():
        path = tmp_path / name
        if content is None:
            path.mkdir()
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def _tree(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_size for p in root.rglob("*") if "__pycache__" not in p.parts}


def _alarm(signum, frame):
    raise TimeoutError(f"no refusal within {refusals.SECONDS} s")


@pytest.mark.parametrize("row", ROWS, ids=_ids)
def test_a_bad_command_line_is_refused_in_one_line(row, workdir, capsys):
    argv, expected = row
    before = _tree(workdir)
    alarm = hasattr(signal, "SIGALRM")
    if alarm:
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(refusals.SECONDS)
    try:
        code = main(list(argv))
    finally:
        if alarm:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
    out, err = capsys.readouterr()
    assert code == 2, (code, out[-500:], err[-500:])
    assert out == "", out[-500:]
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("posproof: error: "), err
    assert "Traceback" not in err
    assert expected in lines[0], (expected, lines[0])
    assert _tree(workdir) == before, "a refused command wrote a file"


#: A sample run as a user runs them: a fresh process, ``python -m posproof``.
SAMPLE = ROWS[:: max(1, len(ROWS) // 12)]


@pytest.mark.parametrize("row", SAMPLE, ids=_ids)
def test_a_bad_command_line_in_a_fresh_process(row, workdir):
    argv, expected = row
    env = {**os.environ, "PYTHONPATH": str(workdir)}
    p = subprocess.run(
        [sys.executable, "-m", "posproof", *argv], capture_output=True, text=True, timeout=60, env=env, cwd=workdir
    )
    assert p.returncode == 2 and p.stdout == "", (p.returncode, p.stdout[-300:], p.stderr[-300:])
    assert len(p.stderr.splitlines()) == 1 and expected in p.stderr, p.stderr
