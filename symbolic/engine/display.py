r"""How the engine's objects show themselves in a notebook, without the engine importing a printer.

:class:`Printable` gives claims and results Jupyter's ``_repr_markdown_``, ``_repr_latex_`` and ``_repr_html_``
(like SymPy's ``Printable``); each asks the printer registered here with :func:`set_printer`. ``import posproof``
registers the printing layer's (:mod:`posproof.printing`, imported on the first display), so the engine never
names the layers above it. A printer method returns ``None`` for a format it does not give an object
(Jupyter then uses another).
"""

from __future__ import annotations

from typing import Any, Protocol


class Printer(Protocol):
    def markdown(self, obj: Any) -> str | None: ...
    def latex(self, obj: Any) -> str | None: ...
    def html(self, obj: Any) -> str | None: ...


_printer: Printer | None = None


def set_printer(p: Printer) -> None:
    r"""Register the printer the engine's objects display with."""
    global _printer
    _printer = p


def printer() -> Printer:
    r"""The registered printer (``import posproof`` registers one)."""
    if _printer is None:
        raise LookupError("no printer registered (import posproof registers one)")
    return _printer


class Printable:
    r"""Mixin: Jupyter's rich displays, from the registered :func:`printer`."""

    def _repr_markdown_(self) -> str | None:
        return printer().markdown(self)

    def _repr_latex_(self) -> str | None:
        return printer().latex(self)

    def _repr_html_(self) -> str | None:
        return printer().html(self)
