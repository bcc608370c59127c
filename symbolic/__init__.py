r"""SymPy models of positional-encoding schemes and the registry of verified identities.

The engine (:mod:`.engine`: kernels, steps, the claim kinds, strategies, the numeric line, lemmas, results,
settings) apart from the catalogue: one module of claims per scheme (families as packages: :mod:`.rope`,
:mod:`.scaling`, :mod:`.properties`, :mod:`.article`), listed in reading order by :mod:`.registry`. The claim
classes a user writes claims with are re-exported here, each imported on first use (so that importing a light
module such as :mod:`.engine.settings` does not load SymPy).
"""

from __future__ import annotations

import importlib

if __name__ != "posproof.symbolic":  # one import identity: never a second copy
    raise ImportError(f"import posproof.symbolic, not {__name__} (the folder installs as posproof.symbolic)")

#: Public name -> the module that defines it.
_PUBLIC = {
    **dict.fromkeys(("Theorem", "Step", "Definition", "Fact", "Kernel", "Domain"), "engine.core"),
    **dict.fromkeys(("VerifyResult", "StepResult"), "engine.results"),
}

__all__ = ["registry", *_PUBLIC]


def __getattr__(name: str):
    if name in _PUBLIC:
        value = getattr(importlib.import_module(f"{__name__}.{_PUBLIC[name]}"), name)
        globals()[name] = value
        return value
    if name == "Identity":  # deprecated: Theorem (core warns)
        return getattr(importlib.import_module(f"{__name__}.engine.core"), name)
    if name == "registry":
        return importlib.import_module(f"{__name__}.registry")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
