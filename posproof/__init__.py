r"""posproof: machine-checked derivations of transformer positional encodings.

The package has four layers, each a subpackage (the repository keeps three of them as the top-level folders
``symbolic/``, ``numeric/`` and ``derivations/``; ``pyproject.toml`` installs them here, so nothing of posproof
lands at the top level of site-packages, and each refuses to import under its folder name):

- :mod:`posproof.numeric`: NumPy kernels and their mpmath twins (the bottom layer: it imports no other);
- :mod:`posproof.symbolic`: the proof engine and the catalogue of claims (imports ``numeric``);
- :mod:`posproof.printing`: LaTeX, Markdown, text, HTML and JSON of claims and results (imports both);
- :mod:`posproof.derivations`: the ``posproof`` command and the exports (the top).

This module is the public surface: the names a user needs, imported on first use so that ``import posproof`` stays
cheap.

>>> import posproof
>>> claim = posproof.get("rope-complex-relative")
>>> claim.verify(dps=30).ok
True
"""

from __future__ import annotations

import importlib

from posproof import _moved

_moved.install()  # old module paths keep importing, with a DeprecationWarning

from posproof.symbolic.engine import display as _display  # noqa: E402


class _Printer:
    r"""The printer the engine's claims and results display with in a notebook: :mod:`posproof.printing`'s,
    imported on the first display (so that ``import posproof`` does not load the printers)."""

    def _printing(self):
        from posproof.printing.jupyter import PRINTER

        return PRINTER

    def markdown(self, obj):
        return self._printing().markdown(obj)

    def latex(self, obj):
        return self._printing().latex(obj)

    def html(self, obj):
        return self._printing().html(obj)


_display.set_printer(_Printer())

__version__ = "0.1.0"

#: Public name -> the module that defines it (imported on first use).
_PUBLIC = {
    # writing and checking claims
    **dict.fromkeys(
        ("Theorem", "Step", "Definition", "Fact", "Kernel", "Domain", "VerifyResult", "StepResult"),
        "posproof.symbolic.engine.core",
    ),
    **dict.fromkeys(("get", "ids", "topic"), "posproof.symbolic.registry"),
    "check": "posproof.derivations.commands.check",
    # kernels
    **dict.fromkeys(("rope", "rope_table", "rope_mp", "RopeTable", "layout_permutation"), "posproof.numeric.rotary"),
    **dict.fromkeys(
        ("rope_inv_freq", "rope_inv_freq_mp", "rope_inv_freq_from_config", "rope_scaling_from_config", "RopeScaling"),
        "posproof.numeric.scaling.rules",
    ),
    **dict.fromkeys(("sinusoidal", "sinusoidal_mp"), "posproof.numeric.sinusoid"),
    **dict.fromkeys(
        ("rope_multiaxis", "rope_multiaxis_mp", "rope_axes_from_config", "mrope_axes", "proportional_inv_freq"),
        "posproof.numeric.multiaxis",
    ),
    **dict.fromkeys(("alibi_bias", "alibi_slopes"), "posproof.numeric.alibi"),
    **dict.fromkeys(("t5_bias", "t5_relative_bucket", "T5BucketConfig"), "posproof.numeric.t5"),
    # auditing an implementation
    **dict.fromkeys(
        (
            "audit_rope",
            "audit_alibi",
            "audit_t5",
            "audit_multiaxis",
            "assert_rope_conforms",
            "RopeCall",
            "RopeReport",
            "AuditCallError",
        ),
        "posproof.numeric.audit",
    ),
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str):
    if name == "Identity":  # deprecated: Theorem (posproof.symbolic.engine.core warns)
        return getattr(importlib.import_module("posproof.symbolic.engine.core"), name)
    if name in _PUBLIC:
        value = getattr(importlib.import_module(_PUBLIC[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))
