r"""The layers and the size of modules, as docs/architecture.md states them.

Every ``import`` in the package is read with :mod:`ast` (at the top of a module or inside a function alike):

- ``numeric`` imports nothing of posproof's above it; ``symbolic`` imports only ``numeric``; ``printing`` never
  imports ``derivations``;
- the graph of modules has no cycle (imports under ``if TYPE_CHECKING:`` are annotations, not arrows);
- no module is longer than :data:`MAX_LINES` unless the top of the file says why (a comment ``# Long module:``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The folders of the layers, bottom to top, and the package name each installs as.
LAYERS = {
    "numeric": ("numeric", "posproof.numeric"),
    "symbolic": ("symbolic", "posproof.symbolic"),
    "printing": ("posproof/printing", "posproof.printing"),
    "derivations": ("derivations", "posproof.derivations"),
    "api": ("posproof", "posproof"),
}
#: What each layer may import (besides itself).
ALLOWED = {
    "numeric": set(),
    "symbolic": {"numeric"},
    "printing": {"numeric", "symbolic"},
    "derivations": {"numeric", "symbolic", "printing"},
    "api": {"numeric", "symbolic", "printing", "derivations"},
}
MAX_LINES = 700
REASON = "# Long module:"


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for folder, package in LAYERS.values():
        base = ROOT / folder
        if not base.is_dir():
            continue
        for path in sorted(base.glob("*.py")) + sorted(base.glob("*/*.py")):
            if path.parent != base and path.parent.is_symlink():
                continue
            rel = path.relative_to(base).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            if folder == "posproof" and parts and parts[0] in ("symbolic", "numeric", "derivations", "printing"):
                continue  # the links to the layers' folders, and printing: read as their own layers
            out[".".join([package, *parts])] = path
    return out


MODULES = _modules()


def _layer(module: str) -> str:
    best = max((p for _, p in LAYERS.values() if module == p or module.startswith(p + ".")), key=len)
    return next(name for name, (_, p) in LAYERS.items() if p == best)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(module: str, path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    typing_only = {  # `if TYPE_CHECKING:` blocks: names for annotations, no import at run time
        id(n) for block in ast.walk(tree) if isinstance(block, ast.If) and _is_type_checking(block.test)
        for stmt in block.body for n in ast.walk(stmt)
    }  # fmt: skip
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            names = [f"{stem}.{a.name}" if f"{stem}.{a.name}" in MODULES else stem for a in node.names]
        else:
            continue
        for name in names:
            while name and name not in MODULES:  # a name inside a module: the module
                name = name.rpartition(".")[0]
            if name.startswith("posproof") and name != module:
                found.add(name)
    return found


GRAPH = {m: _imports(m, p) for m, p in MODULES.items()}


def test_the_package_is_read():
    assert "posproof.symbolic.registry" in MODULES and "posproof.numeric.rotary" in MODULES
    assert "posproof.derivations.cli" in MODULES


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_arrow_up_the_layers(module):
    mine = _layer(module)
    wrong = sorted(t for t in GRAPH[module] if _layer(t) != mine and _layer(t) not in ALLOWED[mine])
    assert not wrong, f"{module} ({mine}) imports {wrong}"


def test_no_cycle():
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(GRAPH.get(v, ())):
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

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    assert not cycles, f"import cycles: {cycles}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_long_modules_say_why(module):
    lines = MODULES[module].read_text(encoding="utf-8").splitlines()
    if len(lines) > MAX_LINES:
        assert any(line.startswith(REASON) for line in lines[:30]), (
            f"{module} has {len(lines)} lines: split it, or say why at its top ({REASON} ...)"
        )


def test_numeric_reexports_only_names_its_scheme_modules_export():
    # numeric/__init__ lists the kernels it re-exports (a chosen subset of each module's __all__): no drift
    import importlib

    from posproof import numeric

    for module, names in numeric.KERNELS.items():
        exported = importlib.import_module(f"posproof.numeric.{module}").__all__
        assert set(names) <= set(exported), (module, set(names) - set(exported))
