r"""``make test`` (after pytest): the outputs that are compared byte for byte must not depend on the CPU.

NumPy picks SIMD kernels at run time (AVX-512 on one machine, AVX2 or SSE on another), and their float64 results
differ in the last bits. This reruns the golden and determinism tests with every SIMD path NumPy dispatches to on
this CPU switched off (``NPY_DISABLE_CPU_FEATURES``; on an AVX-512 machine that is what an older CPU computes),
and writes every deterministic output (the exports, golden vectors, the rules table, the annotations, each
derivation, the figures) once with and once without them: any difference fails.

``python -m tests.simd_rerun`` from the repository root; exit 0 when nothing differs.
"""

from __future__ import annotations

import filecmp
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


def simd_features() -> list[str]:
    r"""The SIMD features NumPy dispatches to on this CPU (beyond its compiled-in baseline)."""
    code = (
        "from numpy._core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f;"
        "print(' '.join(x for x in d if f.get(x)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return out.split()


def _run(args: list[str], env: dict, out: Path) -> bytes:
    cmd = [sys.executable, "-m", "posproof.derivations.cli", *[a.format(out=out) for a in args]]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, timeout=900, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"simd-rerun: {' '.join(args)} failed:\n{proc.stderr.decode()}")
    return proc.stdout


def _tree_differences(a: Path, b: Path) -> list[str]:
    cmp = filecmp.dircmp(a, b)
    out = [f"only in one run: {name}" for name in cmp.left_only + cmp.right_only]
    _, mismatch, errors = filecmp.cmpfiles(a, b, cmp.common_files, shallow=False)
    out += [f"differs: {name}" for name in mismatch + errors]
    for sub in cmp.common_dirs:
        out += _tree_differences(a / sub, b / sub)
    return out


def main() -> int:
    features = simd_features()
    if not features:
        print("simd-rerun: NumPy dispatches to no SIMD path on this CPU; nothing to switch off")
        return 0
    plain = dict(os.environ)
    narrow = plain | {"NPY_DISABLE_CPU_FEATURES": " ".join(features)}
    print(f"simd-rerun: NPY_DISABLE_CPU_FEATURES={' '.join(features)}")
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS], cwd=ROOT, env=narrow
    )
    problems = [] if tests.returncode == 0 else ["the golden and determinism tests fail without those SIMD paths"]
    with tempfile.TemporaryDirectory(prefix="posproof-simd-") as tmp:
        for name, args in COMMANDS:
            out = Path(tmp) / name / "out"  # one path for both runs: commands print where they wrote
            a, b = Path(tmp) / name / "wide", Path(tmp) / name / "narrow"
            out_a = _run(args, plain, out)
            if out.exists():
                out.rename(a)
            out_b = _run(args, narrow, out)
            if out.exists():
                out.rename(b)
            if out_a != out_b:
                problems.append(f"{name}: the printed output differs")
            if a.exists() or b.exists():
                problems += [f"{name}: {d}" for d in _tree_differences(a, b)]
    for p in problems:
        print(f"simd-rerun: {p}")
    print(f"simd-rerun: {len(COMMANDS)} outputs compared, {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
