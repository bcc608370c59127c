r"""``make mutate``: run the mutation catalogue against the test suite.

Each mutant of :mod:`tests.mutation.catalogue` is one plausible bug (a real bug class of the field, or a way the
engine could stop checking) written as an exact text replacement in one file. The runner copies the project to a
temporary directory, applies one mutant at a time, runs the tests the mutant names (``pytest -x``), and counts the
mutant *killed* when they fail. A mutant whose original text is no longer in the file is *stale*: the catalogue
must follow the code, so that is an error too.

``python -m tests.mutation.run [--jobs N] [--only ID ...] [--list]``; exit 0 when the kill rate is at least
``--goal`` (95 % by default) and nothing is stale.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.mutation.catalogue import MUTANTS, Mutant

ROOT = Path(__file__).resolve().parents[2]
COPY = ("posproof", "symbolic", "numeric", "derivations", "tests", "pyproject.toml")


def _copy_project(dest: Path) -> None:
    for name in COPY:
        src = ROOT / name
        if src.is_dir():
            # symlinks=True: posproof/symbolic etc. stay links to the copy's folders (the mutant is seen through both)
            ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "node_modules")
            shutil.copytree(src, dest / name, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(src, dest / name)


def run_one(m: Mutant, workdir: Path) -> tuple[str, float, str]:
    r"""``("killed" | "survived" | "stale", seconds, last line of pytest)`` for one mutant in its own copy."""
    path = workdir / m.path
    text = path.read_text(encoding="utf-8")
    if text.count(m.old) != 1:
        return "stale", 0.0, f"{m.path}: the original text occurs {text.count(m.old)} times (expected once)"
    path.write_text(text.replace(m.old, m.new), encoding="utf-8")
    t0 = time.perf_counter()
    try:
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "--no-header", *m.tests]
        proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=900, check=False)
    finally:
        path.write_text(text, encoding="utf-8")
    lines = [ln for ln in proc.stdout.strip().splitlines() if ln.strip()]
    last = lines[-1] if lines else proc.stderr.strip()[-200:]
    return ("killed" if proc.returncode != 0 else "survived"), time.perf_counter() - t0, last


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=2, help="mutants run in parallel (default 2)")
    ap.add_argument("--only", nargs="*", default=None, metavar="ID", help="run only these mutants")
    ap.add_argument("--goal", type=float, default=95.0, help="required kill rate in percent (default 95)")
    ap.add_argument("--list", action="store_true", help="list the catalogue and exit")
    args = ap.parse_args(argv)
    mutants = [m for m in MUTANTS if args.only is None or m.id in args.only]
    if args.list:
        for m in MUTANTS:
            print(f"{m.id:<40} {m.path:<28} {m.bug}")
        return 0
    with tempfile.TemporaryDirectory(prefix="posproof-mutate-") as tmp:
        dirs = []
        for k in range(max(1, args.jobs)):
            d = Path(tmp) / f"copy{k}"
            d.mkdir()
            _copy_project(d)
            dirs.append(d)
        slots = list(range(len(dirs)))

        def job(m: Mutant):
            slot = slots.pop()
            try:
                return m, run_one(m, dirs[slot])
            finally:
                slots.append(slot)

        t0 = time.perf_counter()
        with ThreadPoolExecutor(max_workers=len(dirs)) as pool:
            results = list(pool.map(job, mutants))
    width = max(len(m.id) for m in mutants)
    for m, (status, seconds, last) in results:
        print(f"{status:<8}  {m.id:<{width}}  {seconds:6.1f} s  {m.bug}")
        if status != "killed":
            print(f"          {last}")
    killed = sum(r[1][0] == "killed" for r in results)
    stale = [m.id for m, r in results if r[0] == "stale"]
    rate = 100.0 * killed / len(results) if results else 100.0
    print(
        f"{killed}/{len(results)} mutants killed ({rate:.1f} %), {len(stale)} stale, "
        f"in {time.perf_counter() - t0:.0f} s on {len(dirs)} workers"
    )
    return 0 if rate >= args.goal and not stale else 1


if __name__ == "__main__":
    sys.exit(main())
