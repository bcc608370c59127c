r"""The exports the tests inspect, each made once per test process (a pytest-xdist worker is a process of its own,
with its own exports and directory): :func:`tree` is ``posproof export`` written into a directory, :func:`files`
its files, :func:`built` what :func:`posproof.derivations.export.build` returned for it, :func:`compiled_latex` the
LaTeX export compiled by pdflatex as the README says.

They are shared by every test that asks: a test that writes into one copies it first (:func:`copy_tree`); a test
of the export itself (the same bytes on a rerun) makes a fresh export and compares it with the shared one.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import io
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from posproof.derivations import export
from posproof.derivations.cli import main

from posproof.printing.formats import canonical_format


def cli(*argv: str) -> tuple[int, str, str]:
    r"""``posproof *argv`` run in this process: its exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@functools.cache
def _root() -> Path:
    root = Path(tempfile.mkdtemp(prefix="posproof-test-exports-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return root


def tree(fmt: str, figures: bool = True) -> Path:
    r"""The directory ``posproof export --format fmt`` (with ``--no-figures`` unless ``figures``) wrote, once per
    process; any spelling of a format (``tex``, ``latex``) is the same export. Read it, never write into it."""
    return _export(canonical_format(fmt), figures)[0]


def stderr(fmt: str, figures: bool = True) -> str:
    r"""What that export said on stderr (its notes: figures left out)."""
    return _export(canonical_format(fmt), figures)[1]


@functools.cache
def _export(fmt: str, figures: bool) -> tuple[Path, str]:
    out = _root() / (fmt if figures else f"{fmt}-no-figures")
    code, _, err = cli("export", "--format", fmt, "--out", str(out), *(() if figures else ("--no-figures",)))
    assert code == 0, err
    return out, err


def files(fmt: str, figures: bool = True) -> Mapping[str, bytes]:
    r"""The files of :func:`tree` (its marker left out): ``{relative path: bytes}``, what ``build`` returned."""
    return _files(canonical_format(fmt), figures)


@functools.cache
def _files(fmt: str, figures: bool) -> Mapping[str, bytes]:
    root = tree(fmt, figures)
    found = {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
    found.pop(export.MARKER)
    return MappingProxyType(found)


def built(fmt: str, with_figures: bool = True) -> tuple[dict[str, bytes], list[str]]:
    r"""What ``export.build(fmt, with_figures)`` returns, from :func:`tree`: the files and the notes (printed on
    stderr as ``posproof: NOTE``). A fresh dict each time."""
    lines = stderr(fmt, with_figures).splitlines()
    notes = [line.removeprefix("posproof: ") for line in lines if line.startswith("posproof: ")]
    return dict(files(fmt, with_figures)), notes


def text_files(fmt: str, figures: bool = True) -> dict[str, str]:
    r"""The files of :func:`tree` in the format's own suffix (``posproof.tex`` and the topics, not the figures), as
    text."""
    suffix = "." + export.SUFFIX[canonical_format(fmt)]
    return {name: data.decode() for name, data in files(fmt, figures).items() if name.endswith(suffix)}


def copy_tree(fmt: str, target: Path, figures: bool = True) -> Path:
    r"""A copy of :func:`tree` (its marker too) at ``target``, to write into."""
    return Path(shutil.copytree(tree(fmt, figures), target))


def pdflatex(directory: Path, passes: int = 2) -> str:
    r"""The README's command, ``pdflatex posproof.tex`` ``passes`` times in ``directory``; the final log."""
    for _ in range(passes):
        proc = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "posproof.tex"],
            cwd=directory,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert proc.returncode == 0, proc.stdout[-3000:]
    return (directory / "posproof.log").read_text(errors="replace")


@functools.cache
def compiled_latex() -> tuple[Path, str]:
    r"""A copy of the LaTeX export compiled by pdflatex twice (contents and references), once per process: the
    directory (with ``posproof.pdf``) and the final log."""
    directory = copy_tree("latex", _root() / "latex-compiled")
    return directory, pdflatex(directory)
