r"""A claim as :class:`Block`\ s: heading, source, statement, assumptions, then the derivation (steps and
their justifications), the definition, or the computed table. Every output format writes the same blocks, so
every export shows the same derivation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import mpmath
import numpy as np
import sympy as sp

from posproof.numeric.formatting import number as _number
from posproof.numeric.formatting import show as _show
from posproof.printing.equations import display, formula_tex, formula_text, given_tex, named, where_tex
from posproof.printing.printers import latex
from posproof.printing.prose import segments
from posproof.printing.voice import environment, paper, paper_title, split_notes
from posproof.symbolic.engine import settings
from posproof.symbolic.engine.core import RELATIONS, Definition, Fact, Step

# ==============================================================================================================
# Blocks: one claim as headings, paragraphs, displayed math, steps and tables; each format writes them.
# ==============================================================================================================


@dataclass(frozen=True)
class Block:
    r"""One piece of a rendered claim. ``kind``: ``heading`` (``text`` prose, ``label``), ``para`` (prose),
    ``math`` (``tex``, displayed), ``step`` (``number``, ``text`` prose, ``code`` strategies, ``tex``), ``table``
    (``head``: the column heads, ``rows``: tuples of cells, ``text`` what the rows are if the heads do not say,
    all prose: see :func:`fact_tables`), ``statement``
    (``tex`` and ``plain``)."""

    kind: str
    text: str = ""
    tex: str = ""
    label: str = ""
    code: str = ""
    number: int = 0
    plain: str = ""
    rows: tuple = field(default_factory=tuple)
    head: tuple = field(default_factory=tuple)


#: A decimal written out in a computed value (a fact may format its own numbers).
_DECIMAL = re.compile(r"(?<![\w.])-?\d+\.\d+(?:e[-+]?\d+)?(?![\w.])")


def _digits(literal: str) -> int:
    mantissa = literal.lstrip("-").split("e")[0].replace(".", "").lstrip("0")
    return len(mantissa)


def readable(value: str) -> str:
    r"""A computed value with every decimal of more than 8 significant digits shown as the one formatter shows
    a number (:func:`numeric.formatting.number`, 6 digits): a reader never gets a float's 15-17.

    >>> readable("[0.009557537149, 0.3455564858, 2.5]")
    '[0.00955754, 0.345556, 2.5]'
    """
    return _DECIMAL.sub(lambda m: _number(mpmath.mpf(m.group(0))) if _digits(m.group(0)) > 8 else m.group(0), value)


def computed(c: Fact) -> list[tuple[str, str]]:
    r"""The rows a fact computes, as ``(label, value)`` strings (recomputed now, at the default precision)."""
    with mpmath.workdps(settings.DEFAULT_DPS):
        _, table = c.compute(settings.DEFAULT_DPS)
    return [(str(label), readable(_show(value))) for label, value in table]


# ---- a fact's computed values as tables ------------------------------------------------------------------------

#: The column heads of a fact's table of computed values.
VALUE_HEAD = ("Computed", "Value")

_DECIMAL_STRING = re.compile(r"-?(?:\d+\.\d*|\.\d+|\d+)(?:e[-+]?\d+)?")
_RATIONAL_STRING = re.compile(r"-?\d+/\d+")
_RANGE_STRING = re.compile(r"(-?\d+) ?\.\. ?(-?\d+)")
_BOUND_STRING = re.compile(r"below (\d+(?:\.\d+)?e-?\d+)")
#: A short formula in ASCII (``phi(1, 2) = 0 < phi(1, 3) = 1``, ``phi(0, 1) = 0 != phi(2, 3) = 1``).
_ASCII_FORMULA = re.compile(r"[\w(), .+-]+(?: (?:=|<|>|<=|>=|!=) [\w(), .+-]+)+")
_ASCII_RELATIONS = {"!=": r"\ne", "<=": r"\le", ">=": r"\ge"}


def number_tex(shown: str) -> str:
    r"""A number as :func:`numeric.formatting.number` shows it, as LaTeX math: ``1.0e-20`` as ``1 \times
    10^{-20}``, ``inf`` as ``\infty``.

    >>> number_tex("6.28319e+6"), number_tex("-0.5"), number_tex("1.0e-20")
    ('6.28319 \\times 10^{6}', '-0.5', '1 \\times 10^{-20}')
    """
    if shown in ("inf", "-inf"):
        return shown.replace("inf", r"\infty")
    if shown == "nan":
        return r"\mathrm{NaN}"
    m = re.fullmatch(r"(-?[\d.]+)e([-+]?\d+)", shown)
    if not m:
        return shown
    mantissa = m.group(1)[:-2] if m.group(1).endswith(".0") else m.group(1)
    return r"%s \times 10^{%d}" % (mantissa, int(m.group(2)))


def _math(tex: str) -> str:
    return f"${tex}$"


def _ascii_formula(text: str) -> str:
    r"""``phi(0, 1) = 0 != phi(2, 3) = 1`` as math: relations as their symbols, ``phi`` as ``\varphi``."""
    tex = re.sub(r"(?<![A-Za-z\\])phi(?![A-Za-z])", r"\\varphi", text)
    tex = re.sub(r" (!=|<=|>=) ", lambda m: f" {_ASCII_RELATIONS[m.group(1)]} ", tex)
    return _math(tex)


def _string_cell(text: str) -> str:
    r"""A value a fact computed as a string (a number it formatted itself, a ratio, a range, an error bound)
    as prose: numbers as :func:`numeric.formatting.number` shows them, in math."""
    text = text.strip()
    if _DECIMAL_STRING.fullmatch(text):
        return _math(number_tex(_number(mpmath.mpf(text))))
    if _RATIONAL_STRING.fullmatch(text):
        return _math(text)
    m = _RANGE_STRING.fullmatch(text)
    if m:
        return f"{_math(m.group(1))}–{_math(m.group(2))}"
    m = _BOUND_STRING.fullmatch(text)
    if m:
        return "below " + _math(number_tex(_number(mpmath.mpf(m.group(1)), 1)))
    if text in ("...", "…"):
        return "not listed"
    if _ASCII_FORMULA.fullmatch(text) and re.search(r"[a-z]\(", text):
        return _ascii_formula(text)
    return text


def _scalar_cell(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, str):
        return _string_cell(v)
    return _math(number_tex(_number(v)))


def _matrix(v) -> bool:
    return bool(v) and all(isinstance(r, (list, tuple)) and r for r in v) and len({len(r) for r in v}) == 1


def value_cell(v) -> str:
    r"""One computed value as prose: a number in math, a list as its numbers separated by commas (each its own
    math, so that a line may break after a comma), a list of equal lists as a matrix (``sympy.latex``), a
    boolean as yes or no.

    >>> value_cell([np.float64(64.0), mpmath.mpf("42.34432321769492"), "0.0099998"])
    '$64$, $42.3443$, $0.0099998$'
    """
    if isinstance(v, np.ndarray):
        v = v.tolist()
    if isinstance(v, Mapping):
        return ", ".join(f"{_label(str(k))} {value_cell(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        if _matrix(v) and all(isinstance(x, (int, np.integer)) for r in v for x in r):
            return _math(latex(sp.Matrix(v)))
        return ", ".join(value_cell(x) for x in v)
    return _scalar_cell(v)


def _values(c: Fact) -> list[tuple[str, object]]:
    with mpmath.workdps(settings.DEFAULT_DPS):
        _, table = c.compute(settings.DEFAULT_DPS)
    return [(str(label), value) for label, value in table]


def _listed(v) -> list | None:
    if isinstance(v, np.ndarray):
        v = v.tolist()
    if isinstance(v, (list, tuple)) and len(v) >= 2 and not any(isinstance(x, (list, tuple)) for x in v):
        return list(v)
    return None


#: Parallel lists are set side by side, a column per entry, up to this many entries (more would not fit).
WIDEST_ROW = 13


def _groups(rows: list[tuple[str, object]]) -> list[tuple[str, list]]:
    r"""Consecutive rows as tables: ``("columns", rows)`` for rows ``"P: a, b, c"`` whose values are lists of
    as many entries (the heads ``a``, ``b``, ``c``, a row per ``P``); ``("parallel", rows)`` for lists of one
    length side by side; ``("values", rows)`` for the rest (label and value)."""
    out: list[tuple[tuple, list]] = []

    def kind(label: str, value) -> tuple:
        if isinstance(value, Mapping) and value:
            return ("records", tuple(map(str, value)))
        items = _listed(value)
        if items is None:
            return ("values",)
        prefix, sep, suffix = _rpartition(label)
        if sep and prefix and len(_heads(suffix)) == len(items):
            return ("columns", suffix)
        if len(items) <= WIDEST_ROW:
            return ("parallel", len(items))
        return ("values",)

    for label, value in rows:
        k = kind(label, value)
        if out and out[-1][0] == k:
            out[-1][1].append((label, value))
        else:
            out.append((k, [(label, value)]))
    merged: list[tuple[str, list]] = []
    for k, rs in out:  # a lone "columns" or "parallel" row reads better as a value
        name = k[0] if len(rs) > 1 or k[0] == "records" else "values"
        if merged and merged[-1][0] == name == "values":
            merged[-1][1].extend(rs)
        else:
            merged.append((name, rs))
    return merged


def _outside_math(text: str, sep: str) -> list[int]:
    r"""Where ``sep`` occurs in prose outside its ``$...$`` math."""
    spans = [m.span() for m in re.finditer(r"\$[^$]*\$", text)]
    return [m.start() for m in re.finditer(re.escape(sep), text) if not any(a <= m.start() < b for a, b in spans)]


def _rpartition(label: str) -> tuple[str, str, str]:
    r"""A label ``what: heads`` cut at its last ``": "`` outside math (``$\varphi(0, 1)$`` is never cut)."""
    at = _outside_math(label, ": ")
    if not at:
        return "", "", label
    return label[: at[-1]], ": ", label[at[-1] + 2 :]


def _heads(suffix: str) -> list[str]:
    r"""The heads ``a, b, c`` of a label's suffix, cut at the commas outside math.

    >>> _heads(r"$\varphi(0, 1)$, $\varphi(K)$")
    ['$\\varphi(0, 1)$', '$\\varphi(K)$']
    """
    cuts = [-2, *_outside_math(suffix, ", "), len(suffix)]
    return [suffix[a + 2 : b] for a, b in zip(cuts, cuts[1:], strict=False)]


def _head(text: str) -> str:
    r"""A column head as prose: a formula in ASCII (``phi(K + 1)``) as math."""
    if re.fullmatch(r"phi\([^()]*\)", text):
        return _ascii_formula(text)
    return text


def _index_like(values: list) -> bool:
    r"""Whether a list names columns (distinct integers: distances, pair indices), not values of them."""
    ints = all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in values)
    return ints and len(set(values)) == len(values)


_SHORT_FORMULA = re.compile(r"[A-Za-z](?: ?[-+=] ?[A-Za-z])*")


_GREEK_WORD = re.compile(r"(?<![A-Za-z\\])(phi|theta)(?![A-Za-z])")


def _label(text: str) -> str:
    r"""A row label as prose: a label that is a formula of letters (``r``, ``i - j``) as math; ``phi`` and
    ``theta`` as their letters, ``->`` as an arrow.

    >>> _label("i - j"), _label("phi(0, 3)"), _label("0->1")
    ('$i - j$', 'φ(0, 3)', '0 → 1')
    """
    if _SHORT_FORMULA.fullmatch(text):
        return _math(text)
    out = []
    for kind, s in segments(text):  # math and code written at the source are kept as they are
        if kind == "text":
            s = _GREEK_WORD.sub(lambda m: {"phi": "φ", "theta": "θ"}[m.group(1)], s)
            out.append(re.sub(r"(?<=\w)->(?=\w)", " → ", s))
        else:
            out.append(f"${s}$" if kind == "math" else f"`{s}`")
    return "".join(out)


def fact_tables(c: Fact) -> list[Block]:
    r"""A fact's computed values as ``table`` blocks (recomputed now, at the default precision): label and
    value (:data:`VALUE_HEAD`); rows ``P: a, b`` of lists as a table with the heads ``a``, ``b``; lists of one
    length side by side, the first row as the head when its values are distinct integers (or, when every label
    ends in the same ``: what``, that ``what`` as the table's ``text``, said before it). Every number as
    :func:`numeric.formatting.number` shows it."""
    out = []
    for name, rows in _groups(_values(c)):
        caption = ""
        cells = lambda v: tuple(value_cell(x) for x in _listed(v) or ())  # noqa: E731
        if name == "records":  # mappings with the same keys: a column per key
            head = ("", *(_label(str(k)) for k in rows[0][1]))
            body = tuple((_label(label), *(value_cell(x) for x in v.values())) for label, v in rows)
        elif name == "columns":
            suffix = _rpartition(rows[0][0])[2]
            head = ("", *(_head(h) for h in _heads(suffix)))
            body = tuple((_label(_rpartition(label)[0]), *cells(v)) for label, v in rows)
        elif name == "parallel":
            suffixes = {_rpartition(label)[2] for label, _ in rows}
            if len(suffixes) == 1 and all(": " in label for label, _ in rows):
                what = suffixes.pop()
                caption = what[:1].upper() + what[1:] + ":"
                head = ()
                body = tuple((_label(_rpartition(label)[0]), *cells(v)) for label, v in rows)
            elif _index_like(_listed(rows[0][1]) or []):
                head = (_label(rows[0][0]), *cells(rows[0][1]))  # distinct integers: what the columns are
                body = tuple((_label(label), *cells(v)) for label, v in rows[1:])
            else:
                head = ()
                body = tuple((_label(label), *cells(v)) for label, v in rows)
        else:
            head = VALUE_HEAD
            body = tuple((_label(label), value_cell(v)) for label, v in rows)
        out.append(Block("table", caption, head=head, rows=body))
    return out


def method_text(c) -> str:
    return c.describe_method(settings.DEFAULT_DPS)


def why_text(step: Step, proved: bool = True) -> str:
    return f"{step.why} [{', '.join(step.strategy)}]" if proved else step.why


def _assumptions(c) -> list[Block]:
    if not c.assumptions:
        return []
    return [Block("para", "Assumptions: " + "; ".join(c.assumptions) + ".")]


def _given(c) -> list[Block]:
    r"""The hypotheses a theorem (or a definition) assumes beyond its symbols' assumptions (``given``), printed with
    its statement."""
    tex = given_tex(c)
    if not tex:
        return []
    return [Block("para", "Given " + ", ".join(f"${t}$" for t in tex) + " (assumed beyond the symbols' domains).")]


def _definition_math(dfn: Definition) -> list[Block]:
    r"""A definition displayed with its named parts (those the scheme modules declare: :func:`equations.named`),
    their definitions displayed below it."""
    rhs, parts = named(dfn.rhs)
    out = [Block("math", tex=display(dfn.lhs, r"\mathrel{:=}", rhs))]
    if parts:
        out += [Block("para", "where"), Block("math", tex=where_tex(parts))]
    return out


#: The blocks of each claim printed in this process, by the claim object and audience (the object kept alive beside
#: its blocks, so that its ``id`` is not reused): a claim is immutable, and every format of an export prints the same
#: blocks.
_PRINTED: dict[tuple[int, str], tuple[object, tuple[Block, ...]]] = {}

#: The audiences :func:`blocks` writes for: a paper (the mathematics) and the reference (every detail of the check).
AUDIENCES = ("reference", "paper")


def blocks(c, *, audience: str = "reference") -> list[Block]:
    r"""One claim as :class:`Block`\ s: heading, source, statement, assumptions, then the derivation (steps and
    their justifications), the definition, or the computed table; last its ``notes`` (prose), if any. Computed once
    per claim object, audience and process. ``audience="paper"``: the paper voice (:func:`paper_blocks`)."""
    if audience not in AUDIENCES:
        raise ValueError(f"audience must be one of {', '.join(AUDIENCES)}, not {audience!r}")
    key = (id(c), audience)
    seen = _PRINTED.get(key)
    if seen is not None and seen[0] is c:
        return list(seen[1])
    if audience == "paper":
        out = paper_blocks(c)
    else:
        out = _blocks(c)
        notes = (getattr(c, "notes", "") or "").strip()
        if notes:
            out.append(Block("para", f"Note. {notes}"))
    _PRINTED[key] = (c, tuple(out))
    return out


# ---- the paper voice ---------------------------------------------------------------------------------------------


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _hypotheses(c) -> list[Block]:
    r"""The assumptions and hypotheses (``given``) of a claim as one sentence: "Let …, and assume …"."""
    let = "; ".join(paper(a).rstrip(".") for a in getattr(c, "assumptions", ()))
    given = ", ".join(f"${t}$" for t in given_tex(c) if f"${t}$" not in let)  # an assumption may already say it
    if let and given:
        return [Block("para", _sentence(f"Let {let}, and assume {given}"))]
    if let or given:
        return [Block("para", _sentence(f"Let {let}" if let else f"Assume {given}"))]
    return []


#: Where a claim's checked line sends the reader: the appendix in an export, the reference voice for one claim.
RECORD = "[[section:record]]"


def checked_text(c) -> str:
    r"""One compact line saying how the claim was checked (its detail is in the verification record,
    :data:`RECORD`)."""
    dps = settings.DEFAULT_DPS
    wrong = "; a deliberately wrong version fails the same check" if getattr(c, "wrong", None) is not None else ""
    if isinstance(c, Fact):
        return f"Computed at {dps} significant digits{wrong} (see {RECORD})."
    if isinstance(c, Definition):
        return f"The implementation is checked against this formula numerically at {dps} digits{wrong} (see {RECORD})."
    n = len(c.steps)
    steps = "the step" if n == 1 else f"each of the {n} steps"
    return f"Checked symbolically ({steps} by a named rewriting) and numerically at {dps} digits{wrong} (see {RECORD})."


def paper_blocks(c) -> list[Block]:
    r"""One claim in the paper voice: heading (``code`` the environment word), the source, the statement, the
    hypotheses as one sentence, the derivation with the justifications only, the definition or the computation,
    one ``checked`` line, and the notes' sentences about the mathematics (the rest: :func:`record_blocks`)."""
    stated = c.formula is not None and not isinstance(c.formula, sp.logic.boolalg.BooleanAtom)
    out = [
        Block("heading", paper_title(c.title, stated), label=c.id, code=environment(c)),
        Block("source", _sentence(f"Source: {paper(c.source)}")),
    ]
    if stated:
        out.append(Block("statement", tex=formula_tex(c.formula), plain=formula_text(c.formula), label=f"eq:{c.id}"))
    if isinstance(c, Definition):
        out += _hypotheses(c)
        out += [Block("para", "By definition:"), *_definition_math(c)]
    elif isinstance(c, Fact):
        out.append(Block("para", _sentence(paper(c.statement))))
        for dfn in c.definitions:
            out.append(Block("para", "Where, by definition:"))
            out += _definition_math(dfn)
        out.append(Block("para", f"Computed with {paper(_short_method(method_text(c)))}:"))
        out += fact_tables(c)
    else:
        out += _hypotheses(c)
        statement = next((b.tex for b in out if b.kind == "statement"), None)
        numbered = len(c.steps) > 1
        for k, st in enumerate(c.steps, 1):
            lhs = st.lhs if (k == 1 or not c.chained) else None
            tex = display(lhs, RELATIONS[st.rel], st.rhs)
            if tex == statement:
                tex = ""
            why = paper(st.why)
            out.append(Block("step", why, tex=tex, code=", ".join(st.strategy), number=k if numbered else 0))
        if not c.chained:
            out.append(Block("para", "Hence:"))
            out.append(Block("math", tex=display(c.lhs, RELATIONS[c.rel], c.rhs)))
    out.append(Block("checked", checked_text(c)))
    notes, _ = split_notes(getattr(c, "notes", "") or "")
    if notes:
        out.append(Block("para", paper(notes)))
    return out


def _short_method(method: str) -> str:
    r"""A fact's method without its parenthesised list of functions (those go to the record)."""
    short = re.sub(r"\s*\((?:[^()]|\([^()]*\))*\)\s*$", "", method).strip()
    return short or method


def record_blocks(c) -> list[Block]:
    r"""The verification record of one claim, for the appendix: the strategies of each step, the numeric check
    (digits, points), the implementation a definition checks, a fact's method, the wrong variant rejected, and
    the notes' sentences in test-suite language."""
    dps = settings.DEFAULT_DPS
    out = [Block("heading", c.title, label=c.id, code=environment(c)), Block("para", f"`{c.id}` · {c.kind}.")]
    if isinstance(c, Definition):
        out.append(Block("para", f"By definition ({c.why}); `{c.implementation}` computes this formula."))
    elif isinstance(c, Fact):
        out.append(Block("para", f"Computed with {method_text(c)}."))
        for dfn in c.definitions:
            out.append(Block("para", f"Definition `{dfn.id}` ({dfn.why}): `{dfn.implementation}` checked."))
    else:
        for k, st in enumerate(c.steps, 1):
            out.append(Block("step", st.why, code=", ".join(st.strategy), number=k))
        if not c.chained and c.strategy:
            out.append(Block("para", f"Hence by {', '.join(c.strategy)}."))
        out.append(
            Block(
                "para",
                f"Each step numerically at {dps} significant digits at no fewer than {settings.NUMERIC_POINTS} seeded "
                f"points ({settings.POINTS_PER_SIZE} for every combination of declared sizes), the first at the "
                "symbols' edge values.",
            )
        )
    if getattr(c, "wrong", None) is not None:
        what = "computation" if isinstance(c, Fact) else "right-hand side"
        out.append(Block("para", f"Verification rejects a deliberately wrong {what}."))
    _, record = split_notes(getattr(c, "notes", "") or "")
    if record:
        out.append(Block("para", record))
    return out


#: The numeric check every theorem's steps pass, said once for the whole record (:func:`record_text` leaves it
#: out of each claim's paragraph).
NUMERIC_CHECK = (
    f"Each step of a theorem is also checked numerically at {settings.DEFAULT_DPS} significant digits at no fewer "
    f"than {settings.NUMERIC_POINTS} seeded points ({settings.POINTS_PER_SIZE} for every combination of declared "
    "sizes), the first at the symbols' edge values."
)


def record_text(c) -> str:
    r"""The verification record of one claim as one paragraph of catalogue prose (references as tokens, names
    as code): the rewritings of each step, what a definition or a computation is checked with, the wrong version
    the same check refutes; the numeric check all theorems share is :data:`NUMERIC_CHECK`."""
    parts = [f"[[claim:{c.id}]] (`{c.id}`)."]
    steps = []
    for b in record_blocks(c)[2:]:
        if b.kind == "step":
            names = ", ".join(f"`{s}`" for s in b.code.split(", ")) if b.code else "no rewriting"
            steps.append(f"({b.number}) {names}")
        elif b.text.startswith("Each step numerically"):
            continue
        elif b.text.startswith("Verification rejects a deliberately wrong"):
            parts.append("Refuted: a deliberately wrong " + b.text.rsplit("wrong ", 1)[1])
        else:
            parts.append(b.text if b.text.rstrip().endswith((".", ")", ":")) else b.text + ".")
    if steps:
        parts.insert(1, ("Rewritings: " if len(steps) > 1 else "Rewriting: ") + "; ".join(steps) + ".")
    return " ".join(parts)


def _blocks(c) -> list[Block]:
    out = [
        Block("heading", c.title, label=c.id),
        Block("para", f"`{c.id}` · {c.kind} · Source: {c.source}."),
    ]
    if c.formula is not None and not isinstance(c.formula, sp.logic.boolalg.BooleanAtom):  # never the word True
        out.append(Block("statement", tex=formula_tex(c.formula), plain=formula_text(c.formula)))
    if isinstance(c, Definition):
        out += _given(c) + _assumptions(c)
        out += [Block("para", f"By definition ({c.why}):"), *_definition_math(c)]
        out.append(Block("para", f"Checked: `{c.implementation}` computes this formula."))
        return out
    if isinstance(c, Fact):
        out.append(Block("para", c.statement))
        for dfn in c.definitions:
            out.append(Block("para", f"Where, by definition ({dfn.why}; `{dfn.implementation}` checked):"))
            out += _definition_math(dfn)
        out.append(Block("para", f"Computed with {method_text(c)}:"))
        out += fact_tables(c)
        return out
    out += _given(c) + _assumptions(c)
    statement = next((b.tex for b in out if b.kind == "statement"), None)
    numbered = len(c.steps) > 1
    for k, st in enumerate(c.steps, 1):
        lhs = st.lhs if (k == 1 or not c.chained) else None
        rel = RELATIONS[st.rel]
        tex = display(lhs, rel, st.rhs)
        if tex == statement:  # the step is the statement itself: printed once, above
            tex = ""
        out.append(Block("step", st.why, tex=tex, code=", ".join(st.strategy), number=k if numbered else 0))
    if not c.chained:
        out.append(Block("para", f"Hence [{', '.join(c.strategy)}]:"))
        out.append(Block("math", tex=display(c.lhs, RELATIONS[c.rel], c.rhs)))
    return out


def math_of(bs: Iterable[Block]) -> list[tuple[str, bool]]:
    r"""Every formula in some blocks as ``(tex, display)``: displayed ones and the inline math of the prose."""
    out = []
    for b in bs:
        if b.tex:
            out.append((b.tex, True))
        texts = [b.text, *b.head] + [cell for row in b.rows for cell in row]
        for t in texts:
            out += [(s, False) for kind, s in segments(t) if kind == "math"]
    return out
