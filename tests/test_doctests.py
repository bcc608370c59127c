r"""Every docstring example of the package runs, on the modules as ``import posproof.…`` loads them.

(pytest's ``--doctest-modules`` would import ``symbolic/engine/core.py`` as a second, top-level
``symbolic.engine.core``: a
second registry. Walking the installed package imports each module once, under its real name.)"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import posproof

#: Modules that need an optional part to import, and that part.
_OPTIONAL = {"posproof.derivations.plots": "matplotlib"}


def _modules() -> list[str]:
    r"""Every module of the package, the layers installed from their own folders (``posproof.symbolic`` from
    ``symbolic/``...) included: walking ``posproof.__path__`` alone would miss them."""
    names = ["posproof"]
    packages = [("posproof.", posproof.__path__)]
    for layer in ("symbolic", "numeric", "derivations"):
        module = importlib.import_module(f"posproof.{layer}")
        names.append(module.__name__)
        packages.append((f"{module.__name__}.", module.__path__))
    for prefix, path in packages:
        for info in pkgutil.walk_packages(path, prefix=prefix, onerror=lambda name: None):
            names.append(info.name)
    return sorted(set(names))


@pytest.mark.parametrize("name", _modules())
def test_doctests(name):
    if name in _OPTIONAL:
        pytest.importorskip(_OPTIONAL[name])
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest examples failed in {name}"


#: Guides whose examples are doctests, relative to the repository root.
_GUIDES = ("docs/writing-claims.md",)


@pytest.mark.parametrize("path", _GUIDES)
def test_guide_doctests(path):
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    result = doctest.testfile(
        str(root / path),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        verbose=False,
        report=False,
    )
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest examples failed in {path}"
    assert result.attempted > 0, f"{path} has no doctest examples"
