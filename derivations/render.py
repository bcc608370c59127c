r"""Moved to :mod:`posproof.printing` (one package for every output format); this module re-exports its names for
the callers not yet updated, and goes away next."""

from posproof.printing.blocks import Block, blocks, computed, math_of
from posproof.printing.equations import LINE_WIDTH, display, formula_tex, formula_text, lines, tex_width
from posproof.printing.formats import RENDERED as FORMATS
from posproof.printing.formats import render
from posproof.printing.json import as_json, symbol_assumptions
from posproof.printing.jupyter import repr_latex, repr_markdown, result_html, result_markdown
from posproof.printing.latex import blocks_latex, identity_latex, topic_latex
from posproof.printing.markdown import blocks_markdown, identity_markdown
from posproof.printing.printers import LATEX_SETTINGS, LatexPrinter, PrettyPrinter, StrPrinter, latex, pretty, sstr
from posproof.printing.prose import math_text, prose, segments
from posproof.printing.text import claim_text, identity_text

__all__ = [
    "Block", "blocks", "computed", "math_of", "LINE_WIDTH", "display", "formula_text", "formula_tex", "lines",
    "tex_width", "FORMATS", "render", "as_json", "symbol_assumptions", "repr_latex", "repr_markdown", "result_html",
    "result_markdown", "blocks_latex", "identity_latex", "topic_latex", "blocks_markdown", "identity_markdown",
    "LATEX_SETTINGS", "LatexPrinter", "PrettyPrinter", "StrPrinter", "latex", "pretty", "sstr", "math_text", "prose",
    "segments", "claim_text", "identity_text",
]  # fmt: skip
