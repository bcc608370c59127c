r"""SymPy models of positional-encoding schemes and the registry of verified identities.

The engine (:mod:`.strategies`, :mod:`.numeric_line`, :mod:`.core`, :mod:`.results`, :mod:`.settings`) and one
module of claims per scheme, listed in reading order by :mod:`.registry`. The claim classes a user writes claims
with are re-exported here, each imported on first use (so that importing a light module such as
:mod:`.settings` does not load SymPy).
"""

from __future__ import annotations

import importlib

#: Public name -> the module that defines it.
_PUBLIC = {
    **dict.fromkeys(("Theorem", "Step", "Definition", "Fact", "Kernel", "Domain"), "core"),
    **dict.fromkeys(("VerifyResult", "StepResult"), "results"),
}

__all__ = ["registry", *_PUBLIC]


def __getattr__(name: str):
    if name in _PUBLIC:
        value = getattr(importlib.import_module(f"{__name__}.{_PUBLIC[name]}"), name)
        globals()[name] = value
        return value
    if name == "Identity":  # deprecated: Theorem (core warns)
        return getattr(importlib.import_module(f"{__name__}.core"), name)
    if name == "registry":
        return importlib.import_module(f"{__name__}.registry")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
