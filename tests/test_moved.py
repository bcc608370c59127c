r"""One import identity: every module has one name, and every old module path still imports, with a
:class:`DeprecationWarning`, as the very module it moved to (never a second copy)."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from posproof import _moved

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("old", sorted(_moved.MOVED))
def test_an_old_module_path_warns_and_is_the_moved_module(old):
    new = importlib.import_module(_moved.MOVED[old])
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} moved to {_moved.MOVED[old]}"):
        module = importlib.import_module(old)
    assert module is new
    sys.modules.pop(old, None)  # the next test imports it afresh


def test_from_import_of_an_old_path_gives_the_same_objects():
    from posproof.symbolic.engine.core import Theorem

    sys.modules.pop("posproof.symbolic.core", None)
    with pytest.warns(DeprecationWarning):
        from posproof.symbolic.core import Theorem as old
    assert old is Theorem


@pytest.mark.parametrize(
    "package, module, name",
    [
        ("posproof.symbolic.rope", "posproof.symbolic.rope.rotary", "rotated_pair"),
        ("posproof.symbolic.article", "posproof.symbolic.article.statements", "claims"),
    ],
)
def test_an_old_module_that_became_a_package_forwards_its_names(package, module, name):
    pkg = importlib.import_module(package)
    with pytest.warns(DeprecationWarning, match=f"{package}.{name} moved to {module}.{name}"):
        value = getattr(pkg, name)
    assert value is getattr(importlib.import_module(module), name)
    with pytest.raises(AttributeError):
        pkg.no_such_name  # noqa: B018


def test_the_moved_table_names_only_modules_that_exist():
    for old, new in _moved.MOVED.items():
        assert importlib.util.find_spec(new) is not None, new
        assert not (ROOT / "/".join(old.split(".")[1:])).with_suffix(".py").exists(), f"{old} is still a file"


def test_the_new_paths_import_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for new in sorted(set(_moved.MOVED.values())):
            importlib.import_module(new)


@pytest.mark.parametrize("folder", ["symbolic", "numeric", "derivations"])
def test_a_layer_folder_refuses_its_own_name(folder):
    proc = subprocess.run(
        [sys.executable, "-c", f"import {folder}"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode != 0
    last = proc.stderr.strip().splitlines()[-1]
    assert last == f"ImportError: import posproof.{folder}, not {folder} (the folder installs as posproof.{folder})"


def test_the_repository_root_imports_one_engine():
    code = "import posproof.symbolic.engine.core as c, posproof.symbolic.registry as r; print(c.__file__)"
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert Path(proc.stdout.strip()) == ROOT / "symbolic" / "engine" / "core.py"
    assert not [m for m in sys.modules if m.split(".")[0] in ("symbolic", "numeric", "derivations")]
