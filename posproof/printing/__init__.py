r"""Printing: LaTeX, Markdown, plain text, HTML and JSON of claims and results, from SymPy's printers.

One package every output format shares, by concern: :mod:`.printers` (SymPy's printers as posproof prints,
:func:`latex`, :func:`sstr`, :func:`pretty`), :mod:`.prose` (text with ``$math$`` and ``code``), :mod:`.equations`
(displays that fit the page), :mod:`.blocks` (a claim as headings, paragraphs, math, steps, tables), then one
module per format (:mod:`.latex`, :mod:`.markdown`, :mod:`.text`, :mod:`.json`), :mod:`.jupyter` for notebooks and
:mod:`.formats` (the format names, :func:`render` of one claim). It sits above the engine (:mod:`posproof.symbolic`)
and below the commands and exports (:mod:`posproof.derivations`). The engine's claims and results display in a
notebook through :data:`.jupyter.PRINTER`, which ``import posproof`` registers with
:mod:`posproof.symbolic.engine.display` (and imports on the first display).
"""
