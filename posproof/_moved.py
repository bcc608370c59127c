r"""Module paths that moved, kept importing for one release with a :class:`DeprecationWarning`.

An old path imports as the module it moved to (the same module object, never a second copy), so
``import posproof.symbolic.core`` still works and warns once per process. :data:`MOVED` is the one table of them;
:func:`install` puts the finder that serves them on :data:`sys.meta_path` (``import posproof`` does it).
:func:`forward` serves the attributes of an old module that became a package (``posproof.symbolic.rope``, whose
claims are now :mod:`posproof.symbolic.rope.rotary`).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from types import FrameType, ModuleType

_S, _N, _D = "posproof.symbolic", "posproof.numeric", "posproof.derivations"

#: Old module path -> the module it is now.
MOVED: dict[str, str] = {
    **{
        f"{_S}.{m}": f"{_S}.engine.{m}"
        for m in ("core", "numeric_line", "strategies", "domains", "permutation", "maximum", "results", "settings")
    },
    f"{_S}.display": f"{_S}.engine.display",
    f"{_S}.multiaxis": f"{_S}.rope.multiaxis",
    **{
        f"{_S}.scaling_{m}": f"{_S}.scaling.{m}"
        for m in ("float64", "linear", "llama3", "ntk", "pi_theorem", "relative", "yarn")
    },
    **{f"{_S}.properties_{m}": f"{_S}.properties.{m}" for m in ("absolute", "causal", "lengths", "relative", "rope")},
    f"{_N}.extension": f"{_N}.scaling.extension",
    **{f"{_D}.{m}": f"{_D}.commands.{m}" for m in ("annotate", "audit", "check", "extend", "properties", "vectors")},
}


def _caller_level() -> int:
    r"""The ``stacklevel`` that names the first frame outside the import machinery and this module."""
    frame: FrameType | None = sys._getframe(1)
    level = 1
    while frame is not None and (
        frame.f_code.co_filename.startswith("<frozen") or frame.f_code.co_filename == __file__
    ):
        frame, level = frame.f_back, level + 1
    return level


def warn_moved(old: str, new: str) -> None:
    warnings.warn(f"{old} moved to {new}; import {new}", DeprecationWarning, stacklevel=_caller_level())


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    r"""Finds an old path of :data:`MOVED` and loads it as the module it moved to."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec) -> ModuleType:
        new = MOVED[spec.name]
        warn_moved(spec.name, new)
        return importlib.import_module(new)

    def exec_module(self, module) -> None:  # the module it moved to is already executed
        return None

    def get_code(self, fullname: str):
        r"""The code of the module it moved to (``python -m OLD`` runs the new module as ``__main__``)."""
        new = MOVED[fullname]
        warn_moved(fullname, new)
        spec = importlib.util.find_spec(new)
        assert spec is not None and spec.loader is not None
        return spec.loader.get_code(new)  # type: ignore[attr-defined]


def install() -> None:
    r"""Put the finder of old paths on :data:`sys.meta_path` (once)."""
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.append(_Alias())


def forward(package: str, module: str, name: str):
    r"""``package.name`` for an old module that became ``package``: the attribute of ``module``, with a warning;
    :class:`AttributeError` for a name ``module`` does not define."""
    target = importlib.import_module(module)
    if name.startswith("__") or not hasattr(target, name):
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    warnings.warn(
        f"{package}.{name} moved to {module}.{name}; import it from {module}",
        DeprecationWarning,
        stacklevel=3,
    )
    return getattr(target, name)
