r"""The paper voice: prose of the catalogue as a paper prints it. Claim ids become reference tokens
(``[[claim:ID]]``, resolved per format by :mod:`printing.refs`), ASCII math becomes ``$...$`` math, and the
sentences that speak of the test suite (the registered mistake, the wrong variant, file paths, what a test
checks) go to the verification record, not the paper.
"""

from __future__ import annotations

import functools
import re

from posproof.printing.prose import segments


@functools.cache
def claim_ids() -> frozenset[str]:
    r"""Every registered claim id (imported lazily: the registry imports the printing layer)."""
    from posproof.symbolic import registry

    return frozenset(registry.ids())


def _id_pattern(ids: frozenset[str]) -> re.Pattern:
    alternatives = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    return re.compile(rf"(?<![\w\-\[:])(?:`({alternatives})`|({alternatives}))(?![\w\-\]])")


@functools.cache
def _ids_re() -> re.Pattern:
    return _id_pattern(claim_ids())


_CITES = re.compile(r"\(cites (\[\[claim:[\w.-]+\]\](?:(?:,| and) \[\[claim:[\w.-]+\]\])*)\)")


def claim_tokens(text: str, ids: frozenset[str] | None = None) -> str:
    r"""Claim ids in prose (bare, in parentheses or in backticks) as ``[[claim:ID]]`` tokens; ``(cites ID)`` as
    ``by [[claim:ID]]``. Math is left alone.

    >>> claim_tokens("see `a-b` (c-d) and (cites a-b)", frozenset({"a-b", "c-d"}))
    'see [[claim:a-b]] ([[claim:c-d]]) and by [[claim:a-b]]'
    """
    pattern = _ids_re() if ids is None else _id_pattern(ids)
    if not (ids if ids is not None else claim_ids()):
        return text
    out = []
    for kind, s in segments(text):
        if kind == "math":
            out.append(f"${s}$")
        elif kind == "code":
            out.append(pattern.sub(lambda m: f"[[claim:{m.group(1) or m.group(2)}]]", f"`{s}`"))
        else:
            out.append(pattern.sub(lambda m: f"[[claim:{m.group(1) or m.group(2)}]]", s))
    return _CITES.sub(lambda m: "by " + m.group(1), "".join(out))


# ---- ASCII math in prose ---------------------------------------------------------------------------------------

_EXPONENT = re.compile(r"(?<![\w.$\\-])(\d+(?:\.\d+)?)e([-+]?)(\d+)(?![\w.])")
_RANGE = re.compile(r"(?<![\w.$])(-?\d+) ?\.\. ?(-?\d+)(?![\w.])")
_TIMES = re.compile(r"(?<![\w.$])(\d+|[A-Za-z]) x (\d+|[A-Za-z])(?![\w.])")
_INF = re.compile(r"(?<![\w$\\-])(-?)inf(?![\w-])")
_DIFFERENCE = re.compile(r"(?<![\w.$\\'-])([A-Za-z]) ([-+]) ([A-Za-z]|\d+)(?![\w$'(-])")


def _exponent(m: re.Match) -> str:
    mantissa = "" if m.group(1) in ("1", "1.0") else m.group(1) + r" \times "
    sign = "-" if m.group(2) == "-" else ""
    return f"${mantissa}10^{{{sign}{int(m.group(3))}}}$"


def ascii_paper(text: str) -> str:
    r"""ASCII math in plain prose as math: ``m - n``, ``0 .. 255``, ``8 x 16``, ``1e-12``, ``-inf``; math, code,
    tokens, URLs and hyphenated words are left alone.

    >>> ascii_paper("for m - n in 0 .. 255, 8 x 16 heads, 1e-12 and -inf; half-width `a - b`")
    'for $m - n$ in $0, \\dots, 255$, $8 \\times 16$ heads, $10^{-12}$ and $-\\infty$; half-width `a - b`'
    """
    out = []
    for kind, s in segments(text):
        if kind == "math":
            out.append(f"${s}$")
        elif kind == "code":
            out.append(f"`{s}`")
        else:
            pieces = re.split(r"(\[\[[^\]]*\]\]|\S+://\S+)", s)
            for k, p in enumerate(pieces):
                if k % 2:
                    out.append(p)
                    continue
                p = _EXPONENT.sub(_exponent, p)
                p = _RANGE.sub(lambda m: f"${m.group(1)}, \\dots, {m.group(2)}$", p)
                p = _TIMES.sub(lambda m: f"${m.group(1)} \\times {m.group(2)}$", p)
                p = _INF.sub(lambda m: f"${m.group(1)}\\infty$", p)
                p = _DIFFERENCE.sub(lambda m: f"${m.group(1)} {m.group(2)} {m.group(3)}$", p)
                out.append(p)
    return "".join(out)


def paper(text: str) -> str:
    r"""One piece of catalogue prose in the paper voice: claim ids as tokens, ASCII math as math."""
    return ascii_paper(claim_tokens(text))


# ---- sentences: the paper's and the record's ---------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`$(\[])")

#: What marks a sentence as test-suite language: it belongs to the verification record.
RECORD = re.compile(
    r"registered mistake|wrong (?:variant|computation|port)|\bmistake\b|\bchecks?\b|\bchecked\b|\.py\b"
    r"|\bcites\b|\btests?\b|\bverif(?:y|ies|ied|ication)\b|symbolic/|numeric/|derivations/",
    re.IGNORECASE,
)


def sentences(text: str) -> list[str]:
    r"""Prose cut into sentences (never inside math or code).

    >>> sentences("One $a. B$ two. Three `x. Y` four. Five.")
    ['One $a. B$ two.', 'Three `x. Y` four.', 'Five.']
    """
    protected = re.sub(r"\$[^$]*\$|`[^`]*`", lambda m: m.group(0).replace(". ", ".\0"), text.strip())
    return [s.replace(".\0", ". ") for s in _SENTENCE_END.split(protected) if s.strip()]


def is_record(sentence: str) -> bool:
    r"""Whether a sentence speaks of the test suite (the registered mistake, a wrong variant, what is checked,
    a file path) rather than of the mathematics."""
    return bool(RECORD.search(sentence))


def split_notes(text: str) -> tuple[str, str]:
    r"""A claim's notes as ``(paper, record)``: the sentences of the mathematics, and those of the test suite.

    >>> split_notes("The sum is finite. The wrong computation drops a row.")
    ('The sum is finite.', 'The wrong computation drops a row.')
    """
    paper_: list[str] = []
    record: list[str] = []
    for s in sentences(text or ""):
        (record if is_record(s) else paper_).append(s)
    return " ".join(paper_), " ".join(record)


def environment(c) -> str:
    r"""The environment word a paper prints a claim in: ``Definition``, ``Computation`` (a fact), ``Lemma``
    (topic ``lemmas``) or ``Theorem``."""
    from posproof.symbolic.engine.core import Definition, Fact

    if isinstance(c, Definition):
        return "Definition"
    if isinstance(c, Fact):
        return "Computation"
    return "Lemma" if getattr(c, "topic", "") == "lemmas" else "Theorem"


#: A title ending in the formula it states: ``..., for every even $d$: $(R_m q)^T (R_n k) = ...$``.
_STATED = re.compile(r"^(?P<words>.*?\S)\s*:\s*\$[^$]+\$(?P<rest>\s*\(.*\)|,\s*where\s.*)?\s*$", re.S)


def paper_title(title: str, displayed: bool) -> str:
    r"""A claim's heading in the paper: without the formula it ends in when that formula is displayed right after
    it as the numbered statement (``displayed``); a title that is only a formula, or has no words before it, is
    kept.

    >>> paper_title("xPos, per plane: $a = b$", True), paper_title("xPos, per plane: $a = b$", False)
    ('xPos, per plane', 'xPos, per plane: $a = b$')
    >>> paper_title("$d = 512$: 256 pairs", True), paper_title("A bound: $x < 1$ (eq. 37 is $h = 0$)", True)
    ('$d = 512$: 256 pairs', 'A bound (eq. 37 is $h = 0$)')
    """
    m = _STATED.match(title)
    if not displayed or m is None or not re.search(r"[A-Za-z]{3,}", re.sub(r"\$[^$]*\$", "", m.group("words"))):
        return title
    return m.group("words").rstrip(",;") + (m.group("rest") or "")
