r"""posproof installs as one package, ``posproof``, beside anything: in particular beside PyPI's ``symbolic``.

A non-editable ``pip install .`` into a fresh venv that already holds Sentry's ``symbolic`` must leave that package
working, add no top-level ``symbolic``/``numeric``/``derivations``, run ``posproof check`` and ``posproof derive``
from outside the repository, and uninstall without touching the other package. It needs the package index (for
``symbolic`` and the build backend): skipped with the reason when that is not reachable. About a minute.
"""

from __future__ import annotations

import shutil
import subprocess
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*cmd, cwd, check=True) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=900, check=False)
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, cmd))} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    return proc


def test_installs_beside_pypi_symbolic(tmp_path):
    venv.create(tmp_path / "venv", with_pip=True)
    py = tmp_path / "venv" / "bin" / "python"
    site = Path(
        _run(py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path).stdout.strip()
    )
    pip = (py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check")
    if _run(*pip, "symbolic>=13", cwd=tmp_path, check=False).returncode != 0:
        pytest.skip("PyPI's symbolic could not be installed (no package index here)")
    sentry = "import symbolic; assert hasattr(symbolic, 'ProguardMapper'), symbolic.__file__"
    _run(py, "-c", sentry, cwd=tmp_path)

    # non-editable: a wheel built from a copy of the tree (a build in place would leave build/ in the repository)
    source = tmp_path / "source"
    skip = shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "node_modules", "__pycache__", ".*cache")
    shutil.copytree(ROOT, source, symlinks=True, ignore=skip)
    _run(*pip, str(source), cwd=tmp_path)
    (record,) = site.glob("posproof-*.dist-info/RECORD")
    top = {line.split(",")[0].split("/")[0] for line in record.read_text(encoding="utf-8").splitlines()}
    top = {name for name in top if not name.endswith(".dist-info") and name != ".."}  # .. : the console script
    assert top == {"posproof"}, f"posproof installed these top-level names: {sorted(top)}"
    assert not {"numeric", "derivations"} & {p.name for p in site.iterdir()}
    _run(py, "-c", sentry, cwd=tmp_path)
    _run(
        py,
        "-c",
        "import posproof.symbolic.engine.core, posproof.numeric.rotary, posproof.derivations.cli",
        cwd=tmp_path,
    )

    cli = tmp_path / "venv" / "bin" / "posproof"
    out = _run(cli, "check", "rope-complex-relative", "sinusoidal-dot-product", cwd=tmp_path).stdout
    assert "none failed" in out
    assert r"\subsection" in _run(cli, "derive", "rope-complex-relative", "--format", "latex", cwd=tmp_path).stdout

    _run(py, "-m", "pip", "uninstall", "--yes", "--quiet", "posproof", cwd=tmp_path)
    assert not (site / "posproof").exists()
    _run(py, "-c", sentry, cwd=tmp_path)


def test_every_installed_package_is_under_posproof():
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert all(p == "posproof" or p.startswith("posproof.") for p in config["packages"])
    mapped = config["package-dir"]
    assert all(p in mapped or p.rpartition(".")[0] in mapped for p in config["packages"])
    for package, folder in mapped.items():
        assert (ROOT / folder / "__init__.py").is_file(), package
        # the source tree imports the same names: posproof/<layer> is a link to the top-level folder
        if package != "posproof":
            assert (ROOT / "posproof" / package.split(".")[1]).resolve() == (ROOT / folder).resolve()
