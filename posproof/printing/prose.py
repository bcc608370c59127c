r"""Prose: titles, assumptions and justifications are plain text with inline math in ``$...$`` and code in
backticks. :func:`segments` cuts them, :func:`prose` typesets them per format (LaTeX escaped, Markdown kept,
HTML escaped with math through a callback, terminal text with Unicode math from ``pylatexenc``).
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable

from posproof.printing.notation import normalize
from posproof.printing.refs import TOKEN, Numbering, cite

# ==============================================================================================================
# Prose: text with $inline math$ and `code`.
# ==============================================================================================================

#: Unicode in prose outside ``$...$``, as LaTeX that any engine (pdflatex included) typesets.
_UNICODE_TEX = {
    "·": r"$\cdot$",
    "Σ": r"$\Sigma$",
    "θ": r"$\theta$",
    "φ": r"$\varphi$",
    "π": r"$\pi$",
    "δ": r"$\delta$",
    "γ": r"$\gamma$",
    "λ": r"$\lambda$",
    "ζ": r"$\zeta$",
    "β": r"$\beta$",
    "σ": r"$\sigma$",
    "²": r"$^2$",
    "≤": r"$\le$",
    "≥": r"$\ge$",
    "≈": r"$\approx$",
    "→": r"$\to$",
    "√": r"$\surd$",
    "×": r"$\times$",
    "∞": r"$\infty$",
    "⊙": r"$\odot$",
    "−": "-",
    "…": r"\dots{}",
    "≠": r"$\ne$",
    "∈": r"$\in$",
    "ℝ": r"$\mathbb{R}$",
    "§": r"$\S$",
    "α": r"$\alpha$",
    "ε": r"$\varepsilon$",
    "μ": r"$\mu$",
    "ρ": r"$\rho$",
    "τ": r"$\tau$",
    "ω": r"$\omega$",
    "Δ": r"$\Delta$",
    "∑": r"$\sum$",
    "⊕": r"$\oplus$",
    "±": r"$\pm$",
    "—": "---",
    "–": "--",
    "’": "'",
    "“": "``",
    "”": "''",
}

_TEX_SPECIALS = {
    "\\": r"$\backslash$",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\allowbreak{}\_",  # a line may break before an underscore (never leaving one at a line's end)
    "{": r"\{",
    "}": r"\}",
    "~": r"$\sim$",
    "^": r"\^{}",
    "<": "$<$",
    ">": "$>$",
    "|": "$|$",
}


def tex_escape(text: str) -> str:
    r"""Plain text as LaTeX text (specials escaped, Unicode symbols as math)."""
    return "".join(_TEX_SPECIALS.get(ch) or _UNICODE_TEX.get(ch, ch) for ch in text)


_SEGMENT = re.compile(r"(\$[^$]+\$|``[^`]+``|`[^`]+`)")


def segments(text: str) -> list[tuple[str, str]]:
    r"""Prose as ``(kind, content)`` pieces: ``"text"``, ``"math"`` (between ``$``) or ``"code"`` (backticks).

    >>> segments("rotate $q$ by `rope` or ``rope_mp``")
    [('text', 'rotate '), ('math', 'q'), ('text', ' by '), ('code', 'rope'), ('text', ' or '), ('code', 'rope_mp')]
    """
    out = []
    for piece in _SEGMENT.split(text):
        if not piece:
            continue
        if piece.startswith("$") and len(piece) > 1:
            out.append(("math", piece[1:-1].strip()))
        elif piece.startswith("``") and len(piece) > 4:  # reStructuredText's literal, as a docstring writes it
            out.append(("code", piece[2:-2]))
        elif piece.startswith("`") and len(piece) > 1:
            out.append(("code", piece[1:-1]))
        else:
            if "$" in piece:
                raise ValueError(f"unbalanced $ in prose: {text!r}")
            out.append(("text", piece))
    return out


def _fraction_text(node, l2tobj) -> str:
    r"""``\frac{a}{b}`` as ``a/b``, with parentheses around a part that is not a single term: ``1/(d/2)``."""
    parts = []
    for arg in node.nodeargd.argnlist[-2:]:
        text = l2tobj.nodelist_to_text([arg]).strip()
        if text.startswith("{") and text.endswith("}"):
            text = text[1:-1]
        parts.append(text if re.fullmatch(r"[\w.]+", text) else f"({text})")
    return "/".join(parts)


@functools.cache
def latex_converter():
    r"""pylatexenc's LaTeX-to-Unicode converter, told about the few macros the claims use that it lacks."""
    from pylatexenc import macrospec
    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, SpecialsTextSpec, get_default_latex_context_db
    from pylatexenc.latexwalker import get_default_latex_context_db as walker_db

    parse = walker_db()
    parse.add_context_category(
        "posproof",
        macros=[
            macrospec.MacroSpec("operatorname", "{"),
            macrospec.MacroSpec("tfrac", "{{"),
            macrospec.MacroSpec("dfrac", "{{"),
            macrospec.MacroSpec("mathsf", "{"),
        ],
        prepend=True,
    )
    text = get_default_latex_context_db()
    text.add_context_category(
        "posproof",
        macros=[
            MacroTextSpec("operatorname", "%(1)s"),
            MacroTextSpec("mathsf", "%(1)s"),
            MacroTextSpec("frac", simplify_repl=_fraction_text),
            MacroTextSpec("tfrac", simplify_repl=_fraction_text),
            MacroTextSpec("dfrac", simplify_repl=_fraction_text),
            MacroTextSpec("ne", " ≠ "),
            MacroTextSpec("neq", " ≠ "),
            MacroTextSpec("top", "ᵀ"),
            MacroTextSpec("lvert", "|"),
            MacroTextSpec("rvert", "|"),
        ],
        specials=[SpecialsTextSpec("''", "″")],  # a second derivative, not a closing quote: this is math
        prepend=True,
    )
    converter = LatexNodes2Text(
        math_mode="verbatim",
        keep_braced_groups=True,
        keep_braced_groups_minlen=2,
        strict_latex_spaces="based-on-source",
        latex_context=text,
    )
    return converter, parse


def math_text(tex: str) -> str:
    r"""Inline LaTeX math as readable Unicode (``\theta_i`` → ``θ_i``), by pylatexenc.

    >>> math_text(r"e^{i (m - n) \theta}")
    'e^{i (m - n) θ}'
    """
    from pylatexenc.latexwalker import LatexWalker

    converter, parse = latex_converter()
    if r"\begin{matrix}" in tex:  # a matrix in a line of text: rows separated by semicolons
        tex = tex.replace(r"\\", ";").replace("&", ",")
    nodes = LatexWalker(tex, latex_context=parse, tolerant_parsing=True).get_latex_nodes()[0]
    return re.sub(r" ([,;])", r"\1", " ".join(converter.nodelist_to_text(nodes).split()))


_OPENING = re.compile(r"(?:(?<=^)|(?<=[\s(\[{/–—-]))(['\"])")


def _tex_quotes(text: str, before: str) -> str:
    r"""Straight quotes as LaTeX's opening and closing quotes: a quote at the start of a word (after a space,
    an opening bracket or a dash, or at the start of prose) opens, any other closes; ``before`` is the prose
    just before ``text`` (a math or code piece: a quote right after it closes).

    >>> _tex_quotes("'Attention', \"yes\"", "")
    "`Attention', ``yes''"
    """
    if "'" not in text and '"' not in text:
        return text
    glued = before[-1:] if before and not before[-1].isspace() else ""
    out = _OPENING.sub(lambda m: "`" if m.group(1) == "'" else "``", glued + text)[len(glued) :]
    return out.replace('"', "''")


def _tex_code(text: str) -> str:
    r"""Code or a URL in ``\texttt``: specials escaped, a line may break after ``.`` (and in a URL after ``/``,
    ``?``, ``=``)."""
    out = tex_escape(text)
    for ch in "/.?=" if "://" in text else ".":
        out = out.replace(ch, ch + r"\allowbreak{}")
    return out


#: ASCII relations and an ellipsis in plain prose, as the symbols they stand for.
_ASCII_SYMBOLS = ((" >= ", " ≥ "), (" <= ", " ≤ "), (" != ", " ≠ "), ("...", "…"))


def _symbols(text: str) -> str:
    for ascii_, symbol in _ASCII_SYMBOLS:
        text = text.replace(ascii_, symbol)
    return text


def _html_quotes(text: str, before: str) -> str:
    r"""Straight quotes as typographic ones (‘…’, “…”), opening and closing as :func:`_tex_quotes` decides."""
    if "'" not in text and '"' not in text:
        return text
    glued = before[-1:] if before and not before[-1].isspace() else ""
    out = _OPENING.sub(lambda m: "‘" if m.group(1) == "'" else "“", glued + text)[len(glued) :]
    return out.replace("'", "’").replace('"', "”")


#: A web address in prose (a sentence's final full stop or a closing parenthesis is not part of it).
_URL = re.compile(r"(https?://[^\s,;()<>]*[^\s,;()<>.])")


def _tex_text(text: str, before: str) -> str:
    r"""Plain prose as LaTeX: quotes typeset (:func:`_tex_quotes`), ``>=``, ``<=``, ``!=`` and ``...`` as their
    symbols, specials escaped; a web address as ``\url`` (it breaks at its slashes, and ``~`` stays ``~``).

    >>> _tex_text("see https://example.org/~k/a_b.htm.", "")
    'see \\url{https://example.org/~k/a_b.htm}.'
    """
    out = []
    for k, piece in enumerate(_URL.split(text)):
        if k % 2:
            out.append(r"\url{%s}" % piece.replace("%", r"\%").replace("#", r"\#"))
        elif piece:
            out.append(tex_escape(_tex_quotes(_symbols(piece), before)))
        before = piece or before
    return "".join(out)


#: Greek letters and symbols of plain prose as LaTeX math (inside a formula :func:`ascii_math` made).
_GREEK_TEX = {ch: tex.strip("$") + " " for ch, tex in _UNICODE_TEX.items() if tex.startswith("$\\")}

_ATOM = r"(?:\d+(?:\.\d+)?|[A-Za-z]|[\u0391-\u03c9]|(?:sum|prod|max|min)(?=_))'?"
_SUB = r"_(?P<sub>\{[^{}]*\}|[A-Za-z0-9]+)"
_SUP = r"\^(?P<sup>-?\((?:[^()]|\([^()]*\))*\)|\{[^{}]*\}|-?\w+)"
_SCRIPTED = re.compile(rf"(?<![\w.])(?P<base>{_ATOM}|(?<=\)))(?=[_^])(?:{_SUB})?(?:{_SUP})?(?![\w])")


_GREEK_NAMES = re.compile(
    r"(?<![A-Za-z\\])(theta|gamma|zeta|delta|lambda|sigma|varphi|phi|psi|alpha|beta|omega)(?![A-Za-z])"
)


def _script_tex(part: str, strip: bool) -> str:
    if part in ("sum", "prod"):
        return "\\" + part
    if part in ("max", "min"):
        return "\\" + part
    if strip and part.startswith(("(", "{")) and part.endswith((")", "}")):
        part = part[1:-1]
    if re.fullmatch(r"[A-Za-z]{2,}", part):
        return r"\mathrm{%s}" % part
    part = _GREEK_NAMES.sub(r"\\\1 ", part)
    return "".join(_GREEK_TEX.get(ch, ch) for ch in part).replace("  ", " ").strip()


#: ``d = 128``, ``θ ≤ 1``: one letter set equal to (or compared with) a number, in plain prose.
_EQUATION = re.compile(
    r"(?<![\w.$\\'])([A-Za-z]|[\u0391-\u03c9]) (=|<|>|≤|≥) (-?\d+(?:\.\d+)?(?:\^(?:\([^()]*\)|-?\w+))?)(?![\w$^]|\.\d)"
)


def _equation(m: re.Match) -> str:
    value = m.group(3)
    if "^" in value:
        base, exp = value.split("^", 1)
        value = "%s^{%s}" % (base, _script_tex(exp, True))
    rel = {"≤": r"\le", "≥": r"\ge"}.get(m.group(2), m.group(2))
    return f"${_script_tex(m.group(1), False)} {rel} {value}$"


#: A name with underscores in plain prose (``max_position``, ``rope_theta``, ``partial_rotary_factor``): a base of
#: two or more characters and a word after an underscore (or two underscores) is an identifier, code; ``d_model``,
#: ``W_q``, ``max_k`` are formulas.
_UNDERSCORE_NAME = re.compile(
    r"(?<![\w.`$\\/:#=-])_*(?:[A-Za-z][A-Za-z0-9]+(?:_[A-Za-z0-9]+)*_[A-Za-z0-9]{2,}|[A-Za-z][A-Za-z0-9]+_[A-Za-z0-9]+_[A-Za-z0-9_]+)(?![\w/])"
)

#: A dotted path into the package (``numeric.rotary.rope_mp``) written in plain prose: it is code.
_IDENTIFIER = re.compile(r"(?<![\w.`])(?:numeric|symbolic|derivations|posproof|np|mpmath)(?:\.[A-Za-z_]\w*)+")


def ascii_math(text: str) -> str:
    r"""Prose whose plain text writes scripts in ASCII (``2^(j+1)``, ``W_{k,R}``, ``e^(i(m-n)θ)``, ``d_model``)
    with those formulas as ``$...$`` math, so that every format typesets them (a multi-letter subscript upright);
    a name with an underscore inside a word (``rope_mp``, ``numeric.t5_bucket``, ``max_position``) is code.

    >>> ascii_math("period 2^(j+1), W_{k,R} and d_model at 10^-3, not rope_mp; `x_1` kept")
    'period $2^{j+1}$, $W_{k,R}$ and $d_{\\mathrm{model}}$ at $10^{-3}$, not `rope_mp`; `x_1` kept'
    """
    out = []
    for kind, s in segments(text):
        if kind == "math":
            out.append(f"${s}$")
        elif kind == "code":
            out.append(f"`{s}`")
        else:

            def formula(m: re.Match) -> str:
                if not (m.group("sub") or m.group("sup")):
                    return m.group(0)
                base = _script_tex(m.group("base"), False)
                tex = base
                if m.group("sub"):
                    tex += "_{%s}" % _script_tex(m.group("sub"), True)
                if m.group("sup"):
                    tex += "^{%s}" % _script_tex(m.group("sup"), True)
                return f"${tex}$"

            s = _IDENTIFIER.sub(lambda m: f"`{m.group(0)}`", s)
            s = _UNDERSCORE_NAME.sub(lambda m: f"`{m.group(0)}`", s)
            if "`" in s and list(segments(s)) != [("text", s)]:  # a name just made code: each part by its kind
                out.append(ascii_math(s))
                continue
            pieces = re.split(r"(\$[^$]*\$)", _EQUATION.sub(_equation, _symbols(s)))
            out.append("".join(p if p.startswith("$") else _SCRIPTED.sub(formula, p) for p in pieces))
    return "".join(out)


def prose(text: str, fmt: str, math: Callable[[str, bool], str] | None = None, *, refs: Numbering | None = None) -> str:
    r"""Prose in one format: ``latex`` (math kept, text escaped), ``markdown`` (``$...$`` kept), ``html`` (text
    escaped, math through ``math(tex, display)``), ``text`` (math as Unicode). Reference tokens (``[[claim:ID]]``
    …, :data:`refs.TOKEN`) cite through ``refs`` (:func:`refs.cite`; without a numbering: the id in code)."""
    if "[[" not in text:
        return _prose(text, fmt, math, "")[0]
    out = []
    before = ""
    at = 0
    code = [m.span() for m in re.finditer(r"`[^`]*`", text)]
    for m in TOKEN.finditer(text):
        if any(a < m.start() < b for a, b in code):  # a token inside code is the code's text
            continue
        piece, before = _prose(text[at : m.start()], fmt, math, before)
        out.append(piece)
        out.append(cite(m.group("kind"), m.group("key"), fmt, refs))
        before = "x"
        at = m.end()
    out.append(_prose(text[at:], fmt, math, before)[0])
    return "".join(out)


def _prose(text: str, fmt: str, math: Callable[[str, bool], str] | None, before: str) -> tuple[str, str]:
    out = []
    if fmt in ("latex", "markdown", "html"):
        text = ascii_math(text)
    for kind, s in segments(text):
        if kind == "math" and fmt != "text":
            s = normalize(s)  # the document's one notation (printing.notation), as in the displays
        if fmt == "latex":
            out.append(
                f"${s}$"
                if kind == "math"
                else (r"\texttt{%s}" % _tex_code(s) if kind == "code" else _tex_text(s, before))
            )
            before = "x" if kind != "text" else s
        elif fmt == "markdown":
            out.append(f"${s}$" if kind == "math" else (f"`{s}`" if kind == "code" else s))
        elif fmt == "html":
            if kind == "math":
                out.append(math(s, False) if math else html.escape(f"${s}$"))
            else:
                out.append(
                    f"<code>{html.escape(s)}</code>"
                    if kind == "code"
                    else html.escape(_html_quotes(_symbols(s), before))
                )
            before = "x" if kind != "text" else s
        else:
            out.append(math_text(s) if kind == "math" else s)
    return "".join(out), before
