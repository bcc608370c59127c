r"""``posproof annotate``: the statements of 'Positional Encoding 101' and of the RoPE note, in order, each with a
verdict and the claim behind it.

Every statement that carries a number or a checkable claim is paraphrased in one line, located by its section and
a few of its words, and given a verdict: **verified**, **corrected** (the exact value printed from the claim),
**holds on a range** (the range printed from the claim) or **not checkable** (an empirical result or a statement
about what a trained model does; no claim). The paraphrases ship with the package, each with the scheme whose
claim decides it: the scheme modules of :mod:`posproof.symbolic` declare their statements as data
(``ANNOTATIONS``, :class:`posproof.symbolic.tables.Annotation`, with an order key, the statement's place in the
texts) and the registry gathers them (the statements no claim decides live with the article's claims); nothing
here names a scheme. What each finding says is read from the registered claim (a fact's computed entries, a
theorem's statement), never typed here.

``posproof annotate [--format text|md]``. ``add_parser(subparsers)`` adds the subcommand; ``run(args)`` runs it
(usage errors raise ``derivations.args.UsageError``).

>>> sum(a.verdict == "not checkable" for a in statements()) < len(statements())
True
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from functools import cache

import sympy as sp
from posproof.symbolic.tables import ANNOTATION_VERDICTS as VERDICTS
from posproof.symbolic.tables import ARTICLE, NOTE, SECTIONS, Annotation

from posproof.printing.formats import format_names


@cache
def statements() -> tuple[Annotation, ...]:
    r"""Every annotated statement, in the texts' order: the annotations the scheme modules declare
    (``ANNOTATIONS``, each with its order key), gathered by the registry."""
    from posproof.symbolic import registry

    return registry.statements()


def __getattr__(name: str):
    if name == "ANNOTATIONS":  # the tuple this module once held: the same statements, gathered on first use
        return statements()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---- findings: read from the claims ----------------------------------------------------------------------------


def _claim(claim_id: str):
    from posproof.symbolic import registry

    return registry.get(claim_id)


def plain(value):
    r"""A registered or computed value in one comparable form (dict keys as strings, numbers as JSON has them)."""
    return json.loads(json.dumps(value, default=str))


def entry(value, path):
    r"""The entry of ``value`` at ``path`` (a key, or a tuple of keys and indices; ``()`` is the whole value)."""
    keys = path if isinstance(path, tuple) else (path,)
    for key in keys:
        value = value[key if isinstance(value, list) else str(key)]
    return value


def _label(path) -> str:
    if isinstance(path, tuple):
        return "value" if not path else "[" + "][".join(str(k) for k in path) + "]"
    return str(path)


def _shown(claim_id: str, a: Annotation, markdown: bool) -> str:
    r"""The claim's own statement: a fact's entries, else its formula (or a short theorem), else its title."""
    c = _claim(claim_id)
    if c.kind == "fact" and a.read:
        value = plain(c.claim)
        entries = [(_label(p), json.dumps(entry(value, p), ensure_ascii=False)) for p in a.read]
        return "; ".join(f"{_md(k)} = `{v}`" if markdown else f"{k} = {v}" for k, v in entries)
    statement = c.formula
    if statement is None and c.kind == "theorem":
        statement = sp.Rel(c.lhs, c.rhs, c.rel) if c.rel != "=" else sp.Eq(c.lhs, c.rhs, evaluate=False)
        if len(sp.sstr(statement)) > 90:
            statement = None
    if statement is None:
        return c.title
    return f"${sp.latex(statement)}$" if markdown else " ".join(sp.sstr(statement).split())


def finding(a: Annotation, markdown: bool = False) -> str:
    r"""What the claim behind ``a`` says, generated from it, and the annotation's note in words."""
    if a.claim is None:
        return _md(a.note) if markdown else a.note
    note = (_md(a.note) if markdown else a.note) if a.note else ""
    return _shown(a.claim, a, markdown) + (f" ({note})" if note else "")


def counts() -> dict[str, int]:
    return {v: sum(a.verdict == v for a in statements()) for v in VERDICTS}


def _in_order():
    r"""``(text, section, [(number, annotation), ...])`` for every section that has statements, in reading order;
    statements numbered across both texts."""
    number = 0
    for text in (ARTICLE, NOTE):
        for section in SECTIONS[text]:
            mine = [a for a in statements() if a.text == text and a.section == section]
            if mine:
                yield text, section, [(number + k, a) for k, a in enumerate(mine, 1)]
                number += len(mine)


def annotate_text() -> str:
    lines: list[str] = []
    current = None
    for text, section, numbered in _in_order():
        if text != current:
            lines += [f"'{text}'", ""]
            current = text
        lines.append(f"  {section}")
        for number, a in numbered:
            head = f'{number:3d}. [{a.verdict}] {a.statement} ("{a.locator}")'
            lines += textwrap.wrap(head, 110, initial_indent="  ", subsequent_indent=" " * 7)
            claim = f"{a.claim}: " if a.claim else ""
            lines += textwrap.wrap(claim + finding(a), 110, initial_indent=" " * 7, subsequent_indent=" " * 9)
        lines.append("")
    c = counts()
    lines.append(f"{len(statements())} statements: " + ", ".join(f"{c[v]} {v}" for v in VERDICTS))
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    r"""Markdown-escape ``*`` and ``_`` outside ``$...$`` math (the headings quote the article's LaTeX)."""
    parts = text.split("$")
    return "$".join(p if k % 2 else p.replace("*", "\\*").replace("_", "\\_") for k, p in enumerate(parts))


def annotate_markdown() -> str:
    lines: list[str] = []
    current = None
    for text, section, numbered in _in_order():
        if text != current:
            lines += [f"## {text}", ""]
            current = text
        lines += [f"### {_md(section)}", ""]
        for number, a in numbered:
            claim = f"`{a.claim}`: " if a.claim else ""
            lines.append(f"{number}. **{a.verdict}**: {_md(a.statement)} (“{a.locator}”)  ")
            lines.append(f"   {claim}{finding(a, markdown=True)}")
        lines.append("")
    c = counts()
    lines.append(f"{len(statements())} statements: " + ", ".join(f"{c[v]} {v}" for v in VERDICTS) + ".")
    return "\n".join(lines) + "\n"


# ---- the command -----------------------------------------------------------------------------------------------

#: The formats of ``--format``.
FORMATS = format_names("text", "markdown")


def add_parser(subparsers) -> argparse.ArgumentParser:
    r"""Add ``annotate`` to the ``posproof`` subcommands (the subparsers' own parser class is used)."""
    from posproof.derivations.args import add_format_option

    s = subparsers.add_parser(
        "annotate",
        help="the article's and the RoPE note's statements, in order, with verdicts and the claims behind them",
        description="The article's and the RoPE note's statements, in order, with verdicts and the claims behind them.",
    )
    add_format_option(s, FORMATS)
    s.set_defaults(func=run)
    return s


def run(args) -> int:
    r"""Print the annotated statements; 0 on success."""
    from posproof.derivations.args import output_format

    fmt = output_format(args.format, FORMATS)
    sys.stdout.write(annotate_markdown() if fmt == "markdown" else annotate_text())
    return 0


def main(argv: list[str] | None = None) -> int:
    r"""``python -m posproof.derivations.commands.annotate ...``: the same as ``posproof annotate ...``."""
    from posproof.derivations.args import standalone

    return standalone(add_parser, argv)


if __name__ == "__main__":
    sys.exit(main())
