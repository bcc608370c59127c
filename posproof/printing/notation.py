r"""One notation for the whole document: each letter spelled one way (``\varphi``, ``\varepsilon``), the
transpose ``^{\top}``, the imaginary unit ``\mathrm{i}`` (apart from an index ``i``), ``\ln``, bars
``\left\lvert … \right\rvert``, and fractions in scripts written inline (``b^{-2i/d}``, not
``b^{-\frac{2i}{d}}``). :func:`normalize` applies the table to printed LaTeX; the printers call it on all they print.
"""

from __future__ import annotations

import re

#: One spelling per letter: the variant the document uses, by the spelling it replaces.
LETTERS = {r"\phi": r"\varphi", r"\epsilon": r"\varepsilon"}

#: The transpose, the imaginary unit and the natural logarithm as the document writes them.
TRANSPOSE = r"^{\top}"
IMAGINARY_UNIT = r"\mathrm{i}"
LOG = r"\ln"

#: Multi-letter function names (``\operatorname``) and symbol names (``\mathrm``) print upright; single letters
#: italic (SymPy's default).
UPRIGHT = r"\operatorname"

_LETTER = re.compile(r"(\\phi|\\epsilon)(?![A-Za-z])")
_FUNCTION = re.compile(r"\\mathrm\{([A-Za-z]{2,})\}(?=\(|\\left\()")
_BAR = re.compile(r"\\(left|right)\| ?(?=([A-Za-z]?))")
_LOG = re.compile(r"\\log(?![_A-Za-z])")
_BARS = {"left": r"\left\lvert", "right": r"\right\rvert"}
_TRANSPOSE = re.compile(r"\^\{T\}|\^T(?![A-Za-z0-9{])")


def _closing(tex: str, start: int) -> int:
    r"""The index of the brace closing the group opened at ``tex[start - 1]``."""
    depth = 1
    j = start
    while j < len(tex):
        if tex[j] == "\\":
            j += 2
            continue
        depth += tex[j] == "{"
        depth -= tex[j] == "}"
        if not depth:
            return j
        j += 1
    return -1


def _top_level_sum(tex: str) -> bool:
    r"""Whether ``tex`` has a ``+`` or ``-`` outside braces and ``\left…\right``, after its first character."""
    depth = 0
    k = 0
    while k < len(tex):
        if tex.startswith(r"\left", k):
            depth += 1
        elif tex.startswith(r"\right", k):
            depth -= 1
        c = tex[k]
        depth += c == "{"
        depth -= c == "}"
        if not depth and c in "+-" and tex[:k].strip():
            return True
        k += 1
    return False


def _short(tex: str) -> bool:
    r"""Whether a fraction's part is short enough to write inline: no fraction, no delimiters, a few symbols."""
    return "\\frac" not in tex and "\\left" not in tex and len(tex) <= 24


def _part(tex: str) -> str:
    tex = tex.strip()
    return r"\left(%s\right)" % tex if _top_level_sum(tex) else tex


def inline_fractions(tex: str) -> str:
    r"""``tex`` with each ``\frac{a}{b}`` inside a superscript or subscript written ``a/b`` (parenthesized where
    a sum would misread: ``d/\left(d - 2\right)``)."""
    out = []
    k = 0
    script = 0  # how many scripts the position is inside
    ends: list[int] = []
    while k < len(tex):
        while ends and k > ends[-1]:
            ends.pop()
            script -= 1
        if tex[k] in "^_" and tex[k + 1 : k + 2] == "{":
            end = _closing(tex, k + 2)
            if end > 0:
                ends.append(end)
                script += 1
            out.append(tex[k : k + 2])
            k += 2
            continue
        if script and tex.startswith(r"\frac{", k):
            a_end = _closing(tex, k + 6)
            if a_end > 0 and tex[a_end + 1 : a_end + 2] == "{":
                b_end = _closing(tex, a_end + 2)
                if b_end > 0 and _short(tex[k + 6 : a_end]) and _short(tex[a_end + 2 : b_end]):
                    a = inline_fractions(tex[k + 6 : a_end])
                    b = inline_fractions(tex[a_end + 2 : b_end])
                    bottom = _part(b)
                    if " " in bottom.strip() and not bottom.startswith(r"\left("):
                        bottom = r"\left(%s\right)" % bottom  # a/(2 c), not a/2 c
                    text = f"{_part(a)} / {bottom}"
                    rest = tex[b_end + 1 :].lstrip()
                    if rest[:1].isalnum() or rest[:1] == "\\" and not rest.startswith((r"\right", r"\le", r"\ge")):
                        text = r"\left(%s\right)" % text  # (a/b) x, not a/b x
                    out.append(text)
                    k = b_end + 1
                    continue
        out.append(tex[k])
        k += 1
    return "".join(out)


def normalize(tex: str) -> str:
    r"""Printed LaTeX in the document's notation: one spelling per letter, ``^{\top}``, ``\ln`` (``\log_2`` keeps
    its base), an applied multi-letter function ``\operatorname{PE}(…)`` (never ``\mathrm{PE}(…)``), bars as
    ``\lvert … \rvert``, inline fractions in scripts. Idempotent; safe on the math of prose (``$…$``) too."""
    tex = _LETTER.sub(lambda m: LETTERS[m.group(1)], tex)
    tex = _TRANSPOSE.sub(lambda m: TRANSPOSE, tex)
    tex = _LOG.sub(lambda m: LOG, tex)  # the natural logarithm one way; \log_2 keeps its base
    tex = _FUNCTION.sub(lambda m: UPRIGHT + "{%s}" % m.group(1), tex)  # a function applied: \operatorname
    tex = _BAR.sub(lambda m: _BARS[m.group(1)] + " " * bool(m.group(2)), tex)
    return inline_fractions(tex)
