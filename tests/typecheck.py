r"""``make lint``'s type check: mypy on the package as it installs, ``posproof.*``.

mypy does not follow the import hook of an editable install, and the repository keeps the layers as top-level
folders (``symbolic/``, ``numeric/``, ``derivations/``) that install as ``posproof.symbolic`` and so on. This lays
the package out as it installs, in ``build/typecheck/posproof`` (files copied with their times, so mypy's cache
stays warm), checks it, and prints mypy's report with the repository's own paths.

``python -m tests.typecheck [mypy options]``; exits with mypy's status.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10: mypy's own dependency
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
TREE = ROOT / "build" / "typecheck"


def layout() -> dict[Path, Path]:
    r"""Each folder of ``[tool.setuptools.package-dir]`` -> where it lies in the installed layout."""
    mapped = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-dir"]
    return {ROOT / folder: TREE.joinpath(*package.split(".")) for package, folder in mapped.items()}


def build() -> dict[Path, Path]:
    r"""Lay the package out under :data:`TREE` (stale files removed); installed path -> repository path."""
    back: dict[Path, Path] = {}
    folders = layout()
    nested = set(folders)
    for src, dst in folders.items():
        for path in sorted(src.rglob("*.py")):
            if any(path.is_relative_to(other) and other != src and other.is_relative_to(src) for other in nested):
                continue  # a folder mapped on its own (posproof/ holds printing/, not symbolic/)
            target = dst / path.relative_to(src)
            back[target] = path
    for old in TREE.rglob("*.py") if TREE.exists() else ():
        if old not in back:
            old.unlink()
    for target, path in back.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.stat().st_mtime_ns != path.stat().st_mtime_ns:
            shutil.copy2(path, target)
    return back


def main(argv: list[str]) -> int:
    back = build()
    cmd = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), *argv, "-p", "posproof"]
    proc = subprocess.run(cmd, cwd=TREE, capture_output=True, text=True, check=False)
    names = {str(t.relative_to(TREE)): str(p.relative_to(ROOT)) for t, p in back.items()}
    for line in (proc.stdout + proc.stderr).splitlines():
        head, sep, rest = line.partition(":")
        print(f"{names.get(head, head)}{sep}{rest}")
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
