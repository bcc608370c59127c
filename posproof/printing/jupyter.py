r"""What the engine's objects show in a notebook: a claim as Markdown (its statement as one formula), a
:class:`~posproof.symbolic.engine.results.VerifyResult` as a small table. :data:`PRINTER` answers the engine's
:class:`~posproof.symbolic.engine.display.Printable` (``posproof.printing`` registers it on import).
"""

from __future__ import annotations

import html

from posproof.printing.equations import formula_tex
from posproof.printing.markdown import identity_markdown
from posproof.printing.prose import prose
from posproof.symbolic.engine.results import VerifyResult

# ==============================================================================================================
# Jupyter: what the claims' and results' _repr_*_ methods return.
# ==============================================================================================================


def repr_markdown(c) -> str:
    r"""A claim in a notebook: the Markdown rendering (Jupyter typesets its ``$...$``)."""
    return identity_markdown(c)


def repr_latex(c) -> str | None:
    r"""A claim's statement as one displayed formula (``None`` when it has none)."""
    if c.formula is None:
        return None
    return "$$" + formula_tex(c.formula) + "$$"


def _detail(text: str) -> str:
    r"""A result's detail (the computed rows' labels are prose) with its math as Unicode."""
    try:
        return prose(text, "text")
    except ValueError:  # an unpaired $ in a value: the detail as it is
        return text


def result_html(r) -> str:
    r"""A :class:`~posproof.symbolic.engine.results.VerifyResult` as a small HTML table: status, symbolic, numeric,
    steps."""
    err = r.numeric_max_rel_error
    cells = [
        ("claim", r.id),
        ("kind", r.kind),
        ("status", r.status),
        ("symbolic", {True: "proved", False: "not proved", None: "-"}[r.symbolic]),
        ("numeric", r.numeric or "-"),
        ("max relative error", "-" if err is None else f"{err:.3g}"),
        ("digits", str(r.dps)),
        ("steps", str(len(r.steps))),
        ("seconds", f"{r.seconds:.3f}"),
    ]
    if r.detail:
        cells.append(("detail", _detail(r.detail)))
    body = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in cells)
    return f'<table class="posproof-result">{body}</table>'


def result_markdown(r) -> str:
    r"""The same table in Markdown."""
    err = r.numeric_max_rel_error
    row = [
        r.id,
        r.kind,
        r.status,
        {True: "proved", False: "not proved", None: "-"}[r.symbolic],
        r.numeric or "-",
        "-" if err is None else f"{err:.3g}",
        str(r.dps),
    ]
    return (
        "| claim | kind | status | symbolic | numeric | max rel. error | digits |\n"
        "| --- | --- | --- | --- | --- | --- | --- |\n| " + " | ".join(row) + " |\n"
    )


class JupyterPrinter:
    r"""The printer behind :class:`~posproof.symbolic.engine.display.Printable`: a claim as Markdown and as its formula,
    a result as Markdown and HTML tables."""

    def markdown(self, obj) -> str | None:
        return result_markdown(obj) if isinstance(obj, VerifyResult) else repr_markdown(obj)

    def latex(self, obj) -> str | None:
        return None if isinstance(obj, VerifyResult) else repr_latex(obj)

    def html(self, obj) -> str | None:
        return result_html(obj) if isinstance(obj, VerifyResult) else None


PRINTER = JupyterPrinter()
