r"""The layers, the rooms and the size of modules, as docs/architecture.md states them.

Every ``import`` in the package is read with :mod:`ast`: at the top of a module, inside a function, and under
``if TYPE_CHECKING:`` alike (an annotation-only import is an arrow too: a cycle through one is a cycle of the design,
even when it never runs):

- ``numeric`` imports nothing of posproof's above it; ``symbolic`` imports only ``numeric``; ``printing`` never
  imports ``derivations``; :mod:`posproof._moved` (the old paths) imports nothing of posproof's and anyone may
  import it;
- the engine (``symbolic/engine/``) imports no module of the catalogue;
- the graph of modules has no cycle;
- no module imports an underscore name from another module (what is internal stays inside its module);
- no module is longer than :data:`MAX_LINES` unless the top of the file says why (a comment ``# Long module:``);
- the tests mirror the packages: every folder of ``tests/`` named like a package is one.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The folders of the layers, bottom to top, and the package name each installs as.
LAYERS = {
    "compat": ("posproof/_moved.py", "posproof._moved"),
    "numeric": ("numeric", "posproof.numeric"),
    "symbolic": ("symbolic", "posproof.symbolic"),
    "printing": ("posproof/printing", "posproof.printing"),
    "derivations": ("derivations", "posproof.derivations"),
    "api": ("posproof/__init__.py", "posproof"),
}
#: What each layer may import (besides itself).
ALLOWED = {
    "compat": set(),
    "numeric": {"compat"},
    "symbolic": {"numeric", "compat"},
    "printing": {"numeric", "symbolic", "compat"},
    "derivations": {"numeric", "symbolic", "printing", "compat"},
    "api": {"numeric", "symbolic", "printing", "derivations", "compat"},
}
ENGINE = "posproof.symbolic.engine"
MAX_LINES = 700
REASON = "# Long module:"


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for where, package in LAYERS.values():
        base = ROOT / where
        if base.is_file():
            out[package] = base
            continue
        for path in sorted(base.rglob("*.py")):
            parts = [p for p in path.relative_to(base).with_suffix("").parts if p != "__init__"]
            out[".".join([package, *parts])] = path
    return out


MODULES = _modules()


def _layer(module: str) -> str:
    best = max((p for _, p in LAYERS.values() if module == p or module.startswith(p + ".")), key=len)
    return next(name for name, (_, p) in LAYERS.items() if p == best)


def _package(module: str) -> str:
    return module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]


def _imports(module: str, path: Path) -> dict[str, set[str]]:
    r"""Module imported -> the names taken from it (``"*"`` for the module itself), every import of ``module``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _package(module)
    found: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            pairs = [(a.name, "*") for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            pairs = [(f"{stem}.{a.name}", "*") if f"{stem}.{a.name}" in MODULES else (stem, a.name) for a in node.names]
        else:
            continue
        for name, taken in pairs:
            while name and name not in MODULES:  # a name inside a module: the module
                name = name.rpartition(".")[0]
            if name.startswith("posproof") and name != module:
                found.setdefault(name, set()).add(taken)
    return found


IMPORTS = {m: _imports(m, p) for m, p in MODULES.items()}
GRAPH = {m: set(found) for m, found in IMPORTS.items()}


def test_the_package_is_read():
    assert "posproof.symbolic.registry" in MODULES and "posproof.numeric.rotary" in MODULES
    assert "posproof.derivations.cli" in MODULES and "posproof.symbolic.engine.core" in MODULES
    assert "posproof.numeric.audit.rope" in MODULES and "posproof.derivations.commands.check" in MODULES


def test_no_link_in_the_repository():
    # a checkout without symlink support (core.symlinks=false) must be the same tree: git records no link
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    out = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    links = [line.split("\t", 1)[1] for line in out.splitlines() if line.startswith("120000 ")]
    assert not links, f"symlinks: {links}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_arrow_up_the_layers(module):
    mine = _layer(module)
    wrong = sorted(t for t in GRAPH[module] if _layer(t) != mine and _layer(t) not in ALLOWED[mine])
    assert not wrong, f"{module} ({mine}) imports {wrong}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith(ENGINE)))
def test_the_engine_imports_no_claim(module):
    catalogue = sorted(t for t in GRAPH[module] if _layer(t) == "symbolic" and not t.startswith(ENGINE))
    assert not catalogue, f"{module} (the engine) imports the catalogue: {catalogue}"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def test_no_cycle():
    assert not _cycles(GRAPH), f"import cycles: {_cycles(GRAPH)}"


def test_a_cycle_through_an_annotation_only_import_is_found(tmp_path):
    a = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from posproof.numeric import b\n"
    (tmp_path / "a.py").write_text(a)
    (tmp_path / "b.py").write_text("from posproof.numeric import a\n")
    MODULES.update({"posproof.numeric.a": tmp_path / "a.py", "posproof.numeric.b": tmp_path / "b.py"})
    try:
        graph = {m: set(_imports(m, MODULES[m])) for m in ("posproof.numeric.a", "posproof.numeric.b")}
    finally:
        del MODULES["posproof.numeric.a"], MODULES["posproof.numeric.b"]
    assert _cycles(graph) == [["posproof.numeric.a", "posproof.numeric.b"]]


def _private(names) -> list[str]:
    return sorted(n for n in names if n.startswith("_") and not n.startswith("__"))


def test_underscore_names_stay_inside_their_module():
    # a name another module imports is public: it has no leading underscore (what is internal stays in its module)
    wrong = [
        f"{module} takes {_private(names)} from {target}"
        for module, found in IMPORTS.items()
        for target, names in found.items()
        if _private(names)
    ]
    assert not wrong, "\n".join(wrong)


def test_an_underscore_import_from_a_sibling_module_is_found(tmp_path):
    (tmp_path / "a.py").write_text("from posproof.numeric.b import _internal, public\n")
    (tmp_path / "b.py").write_text("_internal = public = 1\n")
    MODULES.update({"posproof.numeric.a": tmp_path / "a.py", "posproof.numeric.b": tmp_path / "b.py"})
    try:
        found = _imports("posproof.numeric.a", MODULES["posproof.numeric.a"])
    finally:
        del MODULES["posproof.numeric.a"], MODULES["posproof.numeric.b"]
    assert {t: _private(n) for t, n in found.items()} == {"posproof.numeric.b": ["_internal"]}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_long_modules_say_why(module):
    lines = MODULES[module].read_text(encoding="utf-8").splitlines()
    if len(lines) > MAX_LINES:
        assert any(line.startswith(REASON) for line in lines[:30]), (
            f"{module} has {len(lines)} lines: split it, or say why at its top ({REASON} ...)"
        )


def test_tests_mirror_the_packages():
    packages = {str(p.parent.relative_to(ROOT / folder)) for folder in ("symbolic", "numeric", "derivations")
                for p in (ROOT / folder).rglob("__init__.py")}  # fmt: skip
    for layer in ("symbolic", "numeric", "derivations", "printing"):
        for sub in (ROOT / "tests" / layer).rglob("*"):
            if sub.is_dir() and sub.name != "__pycache__" and any(sub.glob("test_*.py")):
                rel = str(sub.relative_to(ROOT / "tests" / layer))
                assert layer == "printing" or rel in packages, f"tests/{layer}/{rel} mirrors no package"


def test_numeric_reexports_only_names_its_scheme_modules_export():
    # numeric/__init__ lists the kernels it re-exports (a chosen subset of each module's __all__): no drift
    import importlib

    from posproof import numeric

    for module, names in numeric.KERNELS.items():
        exported = importlib.import_module(f"posproof.numeric.{module}").__all__
        assert set(names) <= set(exported), (module, set(names) - set(exported))
