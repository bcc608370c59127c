r"""posproof installs as one package, ``posproof``, beside anything: in particular beside PyPI's ``symbolic``.

The sdist and the wheel are built from a copy of the tree by setuptools' own PEP 517 hooks, with the setuptools of
this environment (no build isolation, no package index): the sdist must hold what the tests need and no symlink,
the wheel only ``posproof/``. The wheel is installed with ``--no-deps`` into a fresh venv that borrows this
environment's dependencies (a ``.pth`` line; never its editable posproof): ``posproof check`` and ``posproof
derive`` run from outside the repository, and it uninstalls cleanly. Only the test beside PyPI's ``symbolic``
needs the package index (skipped with the reason when that is not reachable).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: What a test run needs from the sdist besides the packages: the suite and its data, the docs, the benchmarks.
SDIST_TREES = ("tests", "docs", "bench", ".ci")
SDIST_FILES = ("LICENSE", "README.md", "Makefile", "MANIFEST.in", "pyproject.toml")
#: Build outputs and caches a copy of the working tree leaves out.
SKIP = (".git", ".venv", "build", "dist", "*.egg-info", "node_modules", "__pycache__", ".*cache", ".hypothesis")
#: setuptools' PEP 517 hook named by argv[1], called with the output folder argv[2].
HOOK = "import sys, setuptools.build_meta as backend; getattr(backend, sys.argv[1])(sys.argv[2])"
SENTRY = "import symbolic; assert hasattr(symbolic, 'ProguardMapper'), symbolic.__file__"


def _env() -> dict:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}


def _run(*cmd, cwd, check=True) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, env=_env(), capture_output=True, text=True, timeout=900, check=False
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, cmd))} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    return proc


def _pip(py: Path, command: str, *args, check=True) -> subprocess.CompletedProcess:
    r"""This environment's pip running ``command`` on the venv of ``py`` (a venv made without pip of its own)."""
    quiet = ("--quiet", "--disable-pip-version-check", "--no-input")
    return _run(sys.executable, "-m", "pip", "--python", py, command, *quiet, *args, cwd=py.parents[1], check=check)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict:
    r"""``{"source": the copied tree, "sdist": its sdist, "wheel": the wheel built from the unpacked sdist}``."""
    import setuptools

    if int(setuptools.__version__.split(".")[0]) < 77:  # the SPDX license; a wheel without the `wheel` package
        pytest.fail(f"setuptools {setuptools.__version__} is older than pyproject.toml's 77: pip install -e '.[test]'")
    tmp = tmp_path_factory.mktemp("build")
    source = tmp / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=shutil.ignore_patterns(*SKIP))
    _run(sys.executable, "-c", HOOK, "build_sdist", tmp / "sdist", cwd=source)
    (sdist,) = (tmp / "sdist").glob("posproof-*.tar.gz")
    with tarfile.open(sdist) as tar:
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # Python >= 3.10.12
        tar.extractall(tmp / "unpacked", **safe)
    (unpacked,) = (tmp / "unpacked").iterdir()
    _run(sys.executable, "-c", HOOK, "build_wheel", tmp / "wheel", cwd=unpacked)  # the sdist builds on its own
    (wheel,) = (tmp / "wheel").glob("posproof-*.whl")
    return {"source": source, "sdist": sdist, "wheel": wheel}


def _venv(where: Path) -> tuple[Path, Path]:
    r"""A fresh venv without pip (this environment's pip installs into it): its python and its site-packages."""
    venv.create(where, with_pip=False)
    py = where / "bin" / "python"
    site = Path(_run(py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=where).stdout.strip())
    return py, site


def _borrow_dependencies(site: Path) -> Path:
    r"""A ``.pth`` file putting the site-packages folders this process imports from after the venv's own: sympy,
    numpy and the rest, without installing them again. A path in a ``.pth`` file is not a site folder, so the
    ``.pth`` files there (the editable install of posproof among them) are not run."""
    here = [sysconfig.get_paths()[k] for k in ("purelib", "platlib")]
    here += [p for p in sys.path if Path(p).name in ("site-packages", "dist-packages")]
    paths = dict.fromkeys(p for p in here if Path(p).is_dir())
    pth = site / "zz-test-environment.pth"
    pth.write_text("".join(f"{p}\n" for p in paths), encoding="utf-8")
    return pth


def _installed_top_level(site: Path) -> set[str]:
    (record,) = site.glob("posproof-*.dist-info/RECORD")
    top = {line.split(",")[0].split("/")[0] for line in record.read_text(encoding="utf-8").splitlines()}
    return {name for name in top if not name.endswith(".dist-info") and name != ".."}  # .. : the console script


@pytest.mark.slow
def test_sdist_holds_what_the_tests_need_and_no_symlink(built):
    source = built["source"]
    with tarfile.open(built["sdist"]) as tar:
        members = tar.getmembers()
    links = [m.name for m in members if m.issym() or m.islnk()]
    assert not links, f"the sdist holds links: {links}"
    top = members[0].name.split("/")[0]
    names = {m.name.split("/", 1)[1] for m in members if m.isfile() and "/" in m.name}
    wanted = {str(p.relative_to(source)) for tree in SDIST_TREES for p in (source / tree).rglob("*") if p.is_file()}
    wanted |= set(SDIST_FILES)
    wanted |= {str(p.relative_to(source)) for d in ("posproof", "symbolic", "numeric", "derivations")
               for p in (source / d).rglob("*.py")}  # fmt: skip
    assert {"tests/conftest.py", "tests/claims.py", "docs/notebooks/posproof.ipynb", ".ci/run"} <= wanted
    missing = sorted(wanted - names)
    assert not missing, f"{top} lacks {missing[:20]} ({len(missing)} files)"


@pytest.mark.slow
def test_wheel_holds_only_posproof(built):
    with zipfile.ZipFile(built["wheel"]) as whl:
        names = whl.namelist()
    top = {n.split("/")[0] for n in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"posproof"}, sorted(top)
    assert {
        "posproof/__init__.py",
        "posproof/printing/formats.py",
        "posproof/symbolic/engine/step.py",
        "posproof/numeric/audit/__init__.py",
        "posproof/derivations/commands/check.py",
    } <= set(names)


@pytest.mark.slow
def test_wheel_installs_without_dependencies_and_runs_outside_the_repository(built, tmp_path):
    py, site = _venv(tmp_path / "venv")
    _pip(py, "install", "--no-deps", "--no-index", built["wheel"])
    assert _installed_top_level(site) == {"posproof"}
    assert not {"symbolic", "numeric", "derivations"} & {p.name for p in site.iterdir()}
    pth = _borrow_dependencies(site)
    where = "import posproof, posproof.symbolic.engine.core as c; print(posproof.__file__); print(c.__file__)"
    files = _run(py, "-c", where, cwd=tmp_path).stdout.split()
    assert files and all(Path(f).is_relative_to(site / "posproof") for f in files), files  # not the editable one
    _run(py, "-c", "import posproof.numeric.rotary, posproof.derivations.cli, sympy, numpy, mpmath", cwd=tmp_path)

    cli = py.parent / "posproof"
    out = _run(cli, "check", "rope-complex-relative", "sinusoidal-dot-product", cwd=tmp_path).stdout
    assert "none failed" in out
    assert r"\subsection" in _run(cli, "derive", "rope-complex-relative", "--format", "latex", cwd=tmp_path).stdout

    pth.unlink()  # pip sees this venv alone
    _pip(py, "uninstall", "--yes", "posproof")
    assert not (site / "posproof").exists() and not list(site.glob("posproof-*"))


@pytest.mark.slow
def test_installs_and_uninstalls_beside_pypi_symbolic(built, tmp_path):
    py, site = _venv(tmp_path / "venv")
    fetched = _pip(py, "install", "symbolic>=13", check=False)
    if fetched.returncode != 0:
        pytest.skip(f"PyPI's symbolic could not be installed (no package index here?): {fetched.stderr[-300:]}")
    _run(py, "-c", SENTRY, cwd=tmp_path)
    _pip(py, "install", "--no-deps", "--no-index", built["wheel"])
    assert _installed_top_level(site) == {"posproof"}
    pth = _borrow_dependencies(site)
    both = f"{SENTRY}; import posproof.symbolic.engine.core, posproof.numeric.rotary, posproof.derivations.cli"
    _run(py, "-c", both, cwd=tmp_path)
    pth.unlink()
    _pip(py, "uninstall", "--yes", "posproof")
    assert not (site / "posproof").exists()
    _run(py, "-c", SENTRY, cwd=tmp_path)


@pytest.mark.parametrize("folder", ["symbolic", "numeric", "derivations"])
def test_a_top_level_folder_refuses_its_own_name_from_the_repository_root(folder):
    proc = _run(sys.executable, "-c", f"import {folder}", cwd=ROOT, check=False)
    assert proc.returncode != 0
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith(f"ImportError: import posproof.{folder}, not {folder} "), proc.stderr


def test_every_installed_package_is_under_posproof():
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert all(p == "posproof" or p.startswith("posproof.") for p in config["packages"])
    mapped = config["package-dir"]
    assert all(p in mapped or p.rpartition(".")[0] in mapped for p in config["packages"])
    for package, folder in mapped.items():
        assert (ROOT / folder / "__init__.py").is_file(), package
        # the folders are mapped by package-dir: no posproof/<layer> link or copy in the source tree
        if package != "posproof":
            layer = ROOT / "posproof" / package.split(".")[1]
            assert not layer.is_symlink() and not layer.exists(), layer
