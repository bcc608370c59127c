r"""``make test`` (after pytest): the outputs that are compared byte for byte must not depend on the CPU.

NumPy picks SIMD kernels at run time (AVX-512 on one machine, AVX2 or SSE on another), and their float64 results
differ in the last bits. This reruns the golden and determinism tests with every SIMD path NumPy dispatches to on
this CPU switched off (``NPY_DISABLE_CPU_FEATURES``; on an AVX-512 machine that is what an older CPU computes),
and writes every deterministic output (the exports, golden vectors, the rules table, the annotations, each
derivation, the figures) once with and once without them: any difference fails.

Two interpreters, one per environment: this one writes every output (each command run in-process), then one with
those SIMD paths switched off writes them again and runs the tests (``python -m tests.simd_rerun --emit DIR
--tests``).

``python -m tests.simd_rerun`` from the repository root; exit 0 when nothing differs.
"""

from __future__ import annotations

import argparse
import contextlib
import filecmp
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The tests whose expectations are bytes: golden LaTeX, golden vectors, re-runs that must be identical.
TESTS: tuple[str, ...] = (
    "tests/printing/test_golden.py",
    "tests/numeric/test_vectors.py",
    "tests/derivations/test_export.py::test_export_is_byte_identical_on_rerun",
    "tests/derivations/test_plots.py::test_every_figure_draws_and_is_deterministic",
    "tests/derivations/commands/test_properties.py",
    "tests/test_readme.py",
)

#: Commands whose whole output is compared: (name, arguments); ``{out}`` is a fresh directory.
COMMANDS = (
    ("export-tex", ["export", "--format", "tex", "--out", "{out}"]),
    ("export-md", ["export", "--format", "md", "--out", "{out}"]),
    ("export-text", ["export", "--format", "text", "--out", "{out}", "--no-figures"]),
    ("vectors", ["vectors", "--out", "{out}"]),
    ("properties", ["properties", "--format", "md"]),
    ("annotate", ["annotate", "--format", "md"]),
)

#: What :func:`emit` writes for each command, beside its output directory ``out``: what it printed.
STDOUT = "stdout"
#: The exit status of the tests, written by ``--emit DIR --tests`` into ``DIR``.
TESTS_RC = "tests-rc"


def simd_features() -> list[str]:
    r"""The SIMD features NumPy dispatches to on this CPU (beyond its compiled-in baseline)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    return [x for x in __cpu_dispatch__ if __cpu_features__.get(x)]


def emit(directory: Path) -> None:
    r"""Run every command of :data:`COMMANDS` in this process: ``directory/NAME/out`` is its output directory (the
    same path in both environments: commands print where they wrote), ``directory/NAME/stdout`` what it printed."""
    from posproof.derivations.cli import main

    for name, args in COMMANDS:
        out = directory / name / "out"
        out.parent.mkdir(parents=True)
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            code = main([a.format(out=out) for a in args])
        if code != 0:
            raise SystemExit(f"simd-rerun: {' '.join(args)} failed:\n{stderr.getvalue()}")
        (directory / name / STDOUT).write_bytes(stdout.getvalue().encode())


def _tree_differences(a: Path, b: Path) -> list[str]:
    cmp = filecmp.dircmp(a, b)
    out = [f"only in one run: {name}" for name in cmp.left_only + cmp.right_only]
    _, mismatch, errors = filecmp.cmpfiles(a, b, cmp.common_files, shallow=False)
    out += [f"differs: {name}" for name in mismatch + errors]
    for sub in cmp.common_dirs:
        out += _tree_differences(a / sub, b / sub)
    return out


def compare() -> int:
    features = simd_features()
    if not features:
        print("simd-rerun: NumPy dispatches to no SIMD path on this CPU; nothing to switch off")
        return 0
    narrow = dict(os.environ) | {"NPY_DISABLE_CPU_FEATURES": " ".join(features)}
    print(f"simd-rerun: NPY_DISABLE_CPU_FEATURES={' '.join(features)}", flush=True)
    problems = []
    with tempfile.TemporaryDirectory(prefix="posproof-simd-") as tmp:
        work, wide, narrowed = Path(tmp) / "work", Path(tmp) / "wide", Path(tmp) / "narrow"
        emit(work)  # this process is the plain environment
        work.rename(wide)
        cmd = [sys.executable, "-m", "tests.simd_rerun", "--emit", str(work), "--tests"]
        proc = subprocess.run(cmd, cwd=ROOT, env=narrow, timeout=3600, check=False)
        if proc.returncode != 0:
            raise SystemExit(f"simd-rerun: the run without those SIMD paths failed (exit {proc.returncode})")
        work.rename(narrowed)
        if (narrowed / TESTS_RC).read_text().strip() != "0":
            problems.append("the golden and determinism tests fail without those SIMD paths")
        for name, _ in COMMANDS:
            a, b = wide / name, narrowed / name
            if (a / STDOUT).read_bytes() != (b / STDOUT).read_bytes():
                problems.append(f"{name}: the printed output differs")
            if (a / "out").exists() or (b / "out").exists():
                problems += [f"{name}: {d}" for d in _tree_differences(a / "out", b / "out")]
    for p in problems:
        print(f"simd-rerun: {p}")
    print(f"simd-rerun: {len(COMMANDS)} outputs compared, {len(problems)} differences")
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.simd_rerun", description=__doc__.split("\n\n")[0])
    parser.add_argument("--emit", metavar="DIR", help="only write every output into DIR (in this environment)")
    parser.add_argument("--tests", action="store_true", help="with --emit: then run the tests, their status in DIR")
    args = parser.parse_args(argv)
    if args.emit is None:
        return compare()
    directory = Path(args.emit)
    emit(directory)
    if args.tests:
        import pytest

        os.chdir(ROOT)
        sys.stdout.flush()
        code = pytest.main(["-q", "-p", "no:cacheprovider", *TESTS])
        (directory / TESTS_RC).write_text(f"{int(code)}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
