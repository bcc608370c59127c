r"""``make mutate``: run the mutation catalogue against the test suite.

Each mutant of :mod:`tests.mutation.catalogue` is one plausible bug (a real bug class of the field, or a way the
engine could stop checking), anchored to the function it changes (:mod:`tests.mutation.anchor`). The runner lays
the project out as installed in temporary copies (``copy/posproof/symbolic`` from ``symbolic/``, and so on, by
``[tool.setuptools.package-dir]``; ``tests/`` and ``pyproject.toml`` beside it), checks that every copy imports its
own code (not the editable install's folders), applies one mutant at a time to a copy, runs the tests the mutant
names (``pytest -x``) from the copy, and counts the mutant *killed* when they fail. At the end the tests that
failed run once more, together, on an unmutated copy: a kill counts only when they pass there (*unconfirmed*
otherwise: a test that fails without a mutant says nothing of one). A mutant whose function is missing, or whose
pattern does not occur exactly once in it, is *stale*: the catalogue must follow the code, so that is an error too.

``python -m tests.mutation.run [--jobs N] [--only ID ...] [--list]``; exit 0 when the kill rate is at least
``--goal`` (95 % by default) and nothing is stale, unconfirmed or in error. ``--list`` lists the catalogue and the
stale entries with their reason, and runs nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from tests.mutation import plugin
from tests.mutation.anchor import INSTALLED, ROOT, Stale, locate, module_file, package_dirs, split_target
from tests.mutation.catalogue import MUTANTS, Mutant

IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "node_modules", ".mypy_cache", ".ruff_cache")
#: pytest's exit codes that mean "a test failed" (1) or "a module did not import" (2); 4 and 5 (a usage error, no
#: test collected) mean the catalogue names tests that do not run.
FAILED = (1, 2)
#: What counts as killed: a confirmed failure, no result within the timeout, a crash of the interpreter.
KILLED = ("killed", "timeout", "crashed")


def lay_out(dest: Path, root: Path = ROOT) -> None:
    r"""Copy the project under ``dest`` as it installs: each package of ``[tool.setuptools.package-dir]`` at its
    dotted place (``posproof.symbolic`` -> ``dest/posproof/symbolic``), plus ``tests/`` and ``pyproject.toml``."""
    dirs = package_dirs(root)
    for package in sorted(dirs, key=lambda p: p.count(".")):  # posproof first, its subpackages into it
        target = dest / Path(*package.split("."))
        shutil.copytree(root / dirs[package], target, ignore=IGNORE, dirs_exist_ok=True)
    shutil.copytree(root / "tests", dest / "tests", ignore=IGNORE)
    shutil.copy2(root / "pyproject.toml", dest / "pyproject.toml")


def child_env(copy: Path) -> dict[str, str]:
    r"""The environment of a run in ``copy``: the copy first on the path (subprocesses the tests start import it
    too, from any directory), and no bytecode written (a mutant and its restored original may share an mtime)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(copy), *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def imported_files(copy: Path, modules: list[str]) -> dict[str, Path]:
    r"""Where ``modules`` import from when run in ``copy`` as the mutants' tests are (module -> its file)."""
    code = "import importlib, sys\nfor m in sys.argv[1:]:\n    print(m, importlib.import_module(m).__file__)\n"
    proc = subprocess.run(
        [sys.executable, "-c", code, *modules],
        cwd=copy,
        env=child_env(copy),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return {name: Path(path).resolve() for name, path in (ln.split(" ", 1) for ln in proc.stdout.splitlines())}


def check_imports_own_code(copy: Path, mutants: list[Mutant]) -> None:
    r"""Every module a mutant changes imports, in ``copy``, from the file the mutant is applied to there."""
    modules = sorted({split_target(m.target)[0] for m in mutants} | {"posproof", "posproof.symbolic.engine.core"})
    files = imported_files(copy, modules)
    for module in modules:
        expected = module_file(module, copy, INSTALLED).resolve()
        if files[module] != expected:
            raise SystemExit(f"{copy}: {module} imports {files[module]}, not the copy's {expected}")


def stale_reason(m: Mutant, root: Path = ROOT, dirs: dict[str, str] | None = None) -> str | None:
    r"""Why ``m`` no longer applies to the code under ``root`` (``None``: it applies, and its mutant parses)."""
    try:
        site = locate(m.target, m.pattern, root, dirs)
    except Stale as exc:
        return str(exc)
    try:
        compile(site.mutated(m.new), str(site.path), "exec")
    except SyntaxError as exc:
        return f"the mutant does not parse ({exc.msg}, line {exc.lineno}): it would be killed by any import"
    missing = [t for t in m.tests if not (root / t.split("::")[0]).exists()]
    return f"names tests that do not exist: {', '.join(missing)}" if missing else None


@dataclass(frozen=True)
class Outcome:
    status: str  # killed | timeout | crashed | survived | stale | error
    seconds: float
    last: str
    failed: tuple[str, ...] = ()  # the ids of the tests that failed


def _pytest(
    tests: list[str], copy: Path, timeout: float, select: list[str] | None = None
) -> tuple[int | None, str, dict]:
    r"""Run ``tests`` in ``copy`` (``select``: only these test ids, no ``-x``): exit code (``None``: timed out),
    the last line of the output, and what :mod:`tests.mutation.plugin` recorded."""
    shutil.rmtree(copy / ".hypothesis", ignore_errors=True)  # no example found against another mutant replays
    record = copy / ".mutate-record.json"
    record.unlink(missing_ok=True)
    env = child_env(copy) | {plugin.RECORD: str(record)}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.mutation.plugin", "--no-header"]
    if select is None:
        cmd.append("-x")
    else:
        (copy / ".mutate-select.json").write_text(json.dumps(select), encoding="utf-8")
        env[plugin.SELECT] = str(copy / ".mutate-select.json")
    try:
        proc = subprocess.run(
            [*cmd, *tests], cwd=copy, env=env, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return None, f"no result after {timeout:.0f} s", {}
    lines = [ln for ln in proc.stdout.strip().splitlines() if ln.strip()]
    last = lines[-1] if lines else proc.stderr.strip()[-200:]
    return proc.returncode, last, json.loads(record.read_text(encoding="utf-8")) if record.exists() else {}


def run_one(m: Mutant, copy: Path, timeout: float = 900.0) -> Outcome:
    r"""Apply ``m`` to ``copy`` (laid out by :func:`lay_out`), run its tests there, and restore the file."""
    try:
        site = locate(m.target, m.pattern, copy, INSTALLED)
    except Stale as exc:
        return Outcome("stale", 0.0, str(exc))
    site.path.write_text(site.mutated(m.new), encoding="utf-8")
    t0 = time.perf_counter()
    try:
        rc, last, record = _pytest(list(m.tests), copy, timeout)
    finally:
        site.path.write_text(site.text, encoding="utf-8")
    seconds = time.perf_counter() - t0
    if rc is None:
        return Outcome("timeout", seconds, last)
    if rc < 0:  # killed by a signal: the mutant crashed the interpreter (a compiled kernel writing out of bounds)
        return Outcome("crashed", seconds, f"signal {-rc}")
    if rc in FAILED and record.get("failed"):
        return Outcome("killed", seconds, last, tuple(record["failed"]))
    return Outcome("survived" if rc == 0 else "error", seconds, last)


def confirm(results: list[tuple[Mutant, Outcome]], copy: Path, timeout: float) -> tuple[dict[str, str], str]:
    r"""The tests that killed mutants, run once on the unmutated ``copy``: a kill counts only if the tests that
    failed pass there (a test failing without a mutant says nothing of one). Returns mutant id -> why its kill is
    not confirmed, and a line on the run."""
    ids = sorted({t for _, r in results if r.status == "killed" for t in r.failed})
    if not ids:
        return {}, "no kill to confirm"
    files = sorted({t.split("::")[0] for t in ids})
    t0 = time.perf_counter()
    rc, last, record = _pytest(files, copy, timeout, select=ids)
    failed, passed = set(record.get("failed", ())), set(record.get("passed", ()))
    unconfirmed = {}
    for m, r in results:
        bad = [t for t in r.failed if t in failed or ("::" in t and t not in passed)]
        if r.status == "killed" and rc is None:
            unconfirmed[m.id] = f"the run on the unmutated code gave {last}"
        elif r.status == "killed" and bad:
            unconfirmed[m.id] = f"fails (or does not pass) without the mutant too: {', '.join(bad)}"
    return unconfirmed, f"{len(ids)} tests in {time.perf_counter() - t0:.0f} s ({last})"


def list_catalogue(mutants: list[Mutant]) -> int:
    stale = 0
    for m in mutants:
        reason = stale_reason(m)
        stale += reason is not None
        print(f"{m.id:<40} {m.target:<64} {m.bug}")
        if reason:
            print(f"  STALE: {reason}")
    print(f"{len(mutants)} mutants, {stale} stale")
    return 1 if stale else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=2, help="mutants run in parallel (default 2)")
    ap.add_argument("--only", nargs="*", default=None, metavar="ID", help="run only these mutants")
    ap.add_argument("--goal", type=float, default=95.0, help="required kill rate in percent (default 95)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds one mutant's tests may run (default 900)")
    ap.add_argument("--list", action="store_true", help="list the catalogue and its stale entries, and exit")
    args = ap.parse_args(argv)
    unknown = sorted(set(args.only or ()) - {m.id for m in MUTANTS})
    if unknown:
        ap.error(f"--only: no mutant {', '.join(unknown)}")
    mutants = [m for m in MUTANTS if args.only is None or m.id in args.only]
    if args.list:
        return list_catalogue(mutants)
    if not mutants:
        ap.error("no mutant selected")
    stale = {m.id: reason for m in mutants if (reason := stale_reason(m)) is not None}
    runnable = [m for m in mutants if m.id not in stale]
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="posproof-mutate-") as tmp:
        copies: queue.Queue[Path] = queue.Queue()
        for k in range(max(1, args.jobs)):
            copy = Path(tmp) / f"copy{k}"
            lay_out(copy)
            check_imports_own_code(copy, runnable)
            copies.put(copy)

        def job(m: Mutant) -> Outcome:
            copy = copies.get()
            try:
                return run_one(m, copy, args.timeout)
            finally:
                copies.put(copy)

        ran: dict[str, Outcome] = {}
        with ThreadPoolExecutor(max_workers=copies.qsize()) as pool:
            futures = {pool.submit(job, m): m for m in runnable}
            for future in as_completed(futures):  # progress as each ends; the report below is in catalogue order
                m, r = futures[future], future.result()
                ran[m.id] = r
                print(
                    f"[{len(ran)}/{len(runnable)}] {r.status} {m.id} ({r.seconds:.0f} s)", file=sys.stderr, flush=True
                )
        results = [(m, ran[m.id] if m.id in ran else Outcome("stale", 0.0, stale[m.id])) for m in mutants]
        unconfirmed, confirmation = confirm(results, copies.get(), 4 * args.timeout)
    results = [
        (m, Outcome("unconfirmed", r.seconds, unconfirmed[m.id]) if m.id in unconfirmed else r) for m, r in results
    ]
    width = max(len(m.id) for m in mutants)
    for m, r in results:
        print(f"{r.status:<11}  {m.id:<{width}}  {r.seconds:6.1f} s  {m.bug}")
        if r.status not in KILLED:
            print(f"{'':<13}{r.last}")
    killed = sum(r.status in KILLED for _, r in results)
    bad = {s: [m.id for m, r in results if r.status == s] for s in ("stale", "error", "unconfirmed")}
    rate = 100.0 * killed / len(results) if results else 100.0
    print(f"confirmation: the tests that killed, on the unmutated code: {confirmation}")
    print(
        f"{killed}/{len(results)} mutants killed ({rate:.1f} %), {len(bad['stale'])} stale, {len(bad['error'])} "
        f"errors, {len(bad['unconfirmed'])} unconfirmed, in {time.perf_counter() - t0:.0f} s on {args.jobs} workers"
    )
    return 0 if rate >= args.goal and not any(bad.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
