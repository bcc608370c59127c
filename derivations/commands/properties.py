r"""``posproof properties``: every scheme judged by the three rules of a position code, a claim in every cell.

The rules (Wang et al. 2021, as 'Positional Encoding 101' states them) for a proximity ``φ(m, n)`` of a query at
``m`` and a key at ``n``: monotonicity (``φ`` falls as ``|m - n|`` grows), translation invariance and symmetry. A
cell holds, fails, or holds up to a computed distance; what it says is read from the registered claim it names
(a theorem's proof, or the value a fact computes), never typed here. With ``--trained L0 --target L`` a column says
what positions ``L0 .. L - 1`` produce that training never showed (claims at the article's 1000 and 2000; other
lengths by the same functions).

``posproof properties [--format text|md|latex|json] [--trained L0 --target L]`` (``--json``: ``--format json``, a
``posproof.properties/1`` document, ``derivations/schemas/properties.schema.json``). ``add_parser(subparsers)``
adds the subcommand; ``run(args)`` runs it (usage errors raise ``derivations.args.UsageError``). ``table_markdown()``
and ``table_latex()`` give the table for the exports and the README.

The rows live with their schemes: each scheme module of :mod:`posproof.symbolic` declares its rows as data
(``RULES_ROWS``, :class:`posproof.symbolic.tables.Row`) and the registry gathers them; nothing here names a scheme.

>>> row = table()[0]
>>> sorted(row["cells"]) == sorted(RULES) and all(c["claim"] for c in row["cells"].values())
True
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Callable

import sympy as sp
from posproof.numeric._validate import MAX_INTEGER
from posproof.symbolic.tables import RULE_VERDICTS as VERDICTS
from posproof.symbolic.tables import RULES, TARGET, TRAINED, Cell, Length, Row

from posproof.printing.formats import format_names
from posproof.printing.printers import latex
from posproof.printing.prose import prose
from posproof.printing.refs import Numbering, cite


def schemes() -> tuple[Row, ...]:
    r"""Every row of the table, in the table's order: the rows the scheme modules declare (``RULES_ROWS``),
    gathered by the registry."""
    from posproof.symbolic import registry

    return registry.rules_rows()


def _claim(claim_id: str):
    from posproof.symbolic import registry

    return registry.get(claim_id)


def verdict(cell: Cell) -> str:
    r"""What the cell says: from the theorem's stated verdict, or read from the fact's registered value."""
    if cell.read is None:
        if cell.verdict not in VERDICTS:
            raise ValueError(f"a theorem's cell states one of {VERDICTS}, got {cell.verdict!r} ({cell.claim})")
        return cell.verdict
    value = cell.read(_claim(cell.claim).claim)
    if isinstance(value, bool):
        return "holds" if value else "fails"
    return f"holds for distances <= {value}"


def length_text(length: Length, trained: int, target: int) -> str:
    r"""What positions ``trained .. target - 1`` produce, in words: the length claim's function (its module's
    ``LENGTHS``) computed at these lengths, shown by the row."""
    from posproof.symbolic import registry

    function = registry.lengths().get(length.claim)
    return length.show(None if function is None else function(trained, target), trained, target)


#: The longest ``--target`` (and ``--trained``) the length column computes: ``2**53``, the integers a float64
#: holds exactly (the capped schemes' buckets are computed at every relative position up to it).
MAX_LENGTH = MAX_INTEGER


def _check_lengths(trained, target) -> tuple[int, int] | None:
    if trained is None and target is None:
        return None
    if trained is None or target is None:
        raise ValueError("--trained and --target go together")
    if not (2 <= trained <= MAX_LENGTH and 2 <= target <= MAX_LENGTH):
        raise ValueError(f"--trained and --target must be in [2, 2**53], got --trained {trained}, --target {target}")
    if trained >= target:
        raise ValueError(f"--target must exceed --trained, got --trained {trained}, --target {target}")
    return trained, target


def table(trained: int | None = None, target: int | None = None) -> list[dict]:
    r"""The table as dicts: scheme, φ (text and LaTeX), one cell per rule (verdict, note, claim), and with both
    lengths the length column."""
    lengths = _check_lengths(trained, target)
    out = []
    for sc in schemes():
        row: dict = {
            "scheme": sc.name,
            "phi": f"phi(m, n) = {sp.sstr(sc.phi.rhs)}",
            "phi_latex": latex(sc.phi.rhs),
            "cells": {
                rule: {
                    "verdict": verdict(cell),
                    "note": prose(cell.note, "text"),
                    "note_prose": cell.note,
                    "claim": cell.claim,
                }
                for rule, cell in zip(RULES, sc.cells, strict=True)
            },
        }
        if lengths:
            row["length"] = {"text": length_text(sc.length, *lengths), "claim": sc.length.claim}
        out.append(row)
    return out


# ---- formats ---------------------------------------------------------------------------------------------------

HEADER = (
    r"The rules of a position code (Wang et al. 2021, 'Positional Encoding 101'): $\varphi(m, n)$ for a query at "
    r"$m$ and a key at $n$; monotonicity: $\varphi$ falls as $|m - n|$ grows; translation invariance: "
    r"$\varphi(m + t, n + t) = \varphi(m, n)$; symmetry: $\varphi(m, n) = \varphi(n, m)$. Each cell names the "
    r"claim that decides it (`posproof derive ID`)."
)


def _cell_prose(c: dict) -> str:
    r"""A cell's verdict and note as prose (``$...$`` math): ``holds for distances $\le 43$ ($d = 512$, ...)``."""
    head = c["verdict"].replace("<= ", r"$\le$ ")
    note = c.get("note_prose", c["note"])
    return head + (f" ({note})" if note else "")


def _cell_text(c: dict) -> str:
    return prose(_cell_prose(c), "text")


def table_text(trained: int | None = None, target: int | None = None) -> str:
    rows = table(trained, target)
    label = f"beyond L0 = {trained} (L = {target})"
    width = max(len(r) for r in (*RULES, label))
    lines = [*textwrap.wrap(prose(HEADER, "text"), 100), ""]
    for row in rows:
        lines.append(f"{row['scheme']}: {row['phi']}")
        items = [(rule, row["cells"][rule]) for rule in RULES]
        if "length" in row:
            items.append((label, {"verdict": row["length"]["text"], "note": "", "claim": row["length"]["claim"]}))
        body = max(len(_cell_text(c)) for _, c in items)
        for rule, c in items:
            lines.append(f"  {rule:<{width}}  {_cell_text(c):<{body}}  {c['claim']}")
        lines.append("")
    if trained is not None:
        lines.append(
            f"The length claims are verified at L0 = {TRAINED}, L = {TARGET}"
            + ("." if (trained, target) == (TRAINED, TARGET) else "; other lengths are computed by the same functions.")
        )
    return "\n".join(lines).rstrip() + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def table_markdown(trained: int | None = None, target: int | None = None, *, refs: Numbering | None = None) -> str:
    r"""The table in Markdown (GitHub math for φ), one row per scheme: README-ready; with ``refs`` (an export's
    numbering) each cell links the claim that decides it, else names its id."""
    rows = table(trained, target)
    cite_md = lambda claim_id: _cite(claim_id, "markdown", refs)  # noqa: E731
    head = ["scheme", r"$\varphi(m, n)$", *RULES] + ([f"beyond L0 = {trained} (L = {target})"] if trained else [])
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [
            f"{_md(prose(_cell_prose(row['cells'][r]), 'markdown'))}<br>{cite_md(row['cells'][r]['claim'])}"
            for r in RULES
        ]
        if "length" in row:
            cells.append(f"{_md(row['length']['text'])}<br>{cite_md(row['length']['claim'])}")
        out.append("| " + " | ".join([row["scheme"], f"${_md(row['phi_latex'])}$", *cells]) + " |")
    return "\n".join(out) + "\n"


def table_html(math: Callable[[str, bool], str] | None = None, *, refs: Numbering | None = None) -> str:
    r"""The table as an HTML ``<table>`` (a real one: one ``<td>`` per cell, the deciding claim on a line of its
    own: a link with ``refs``, else its id as ``<code>``), prose and formulas through ``math(tex, display)`` (the
    export's KaTeX or MathML)."""
    import html

    def formula(tex: str) -> str:
        return math(tex, False) if math else html.escape(f"${tex}$")

    head = "".join(f"<th>{h}</th>" for h in ("scheme", formula(r"\varphi(m, n)"), *RULES))
    body = []
    for row in table():
        cells = [
            f"<td>{prose(_cell_prose(row['cells'][r]), 'html', math)}"
            f'<div class="claim">{_cite(row["cells"][r]["claim"], "html", refs)}</div></td>'
            for r in RULES
        ]
        scheme = f'<th scope="row">{html.escape(row["scheme"])}</th>'
        body.append(f"<tr>{scheme}<td>{formula(row['phi_latex'])}</td>{''.join(cells)}</tr>")
    return (
        f'<table class="rules"><caption>{prose(HEADER, "html", math)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def _tex(text: str) -> str:
    return prose(text, "latex")


def _cite(claim_id: str, fmt: str, refs: Numbering | None) -> str:
    r"""The claim deciding a cell: cited by number with ``refs`` (an export), else its id as code."""
    if refs is not None and refs.get(f"claim:{claim_id}") is not None:
        return cite("claim", claim_id, fmt, refs)
    if fmt == "latex":
        return r"\texttt{" + claim_id.replace("-", r"-\allowbreak{}") + "}"
    return f"`{claim_id}`" if fmt == "markdown" else f"<code>{claim_id}</code>"


def table_latex(trained: int | None = None, target: int | None = None, *, refs: Numbering | None = None) -> str:
    r"""The table as one full-width ``longtable`` between ``booktabs`` rules (its head repeated on each page it
    runs to), ragged-right columns, captioned and labelled ``table:rules``; each cell cites the claim deciding it
    (by number with ``refs``, an export's numbering; else its id in typewriter). Needs ``posproof.sty``."""
    rows = table(trained, target)
    cols = ["scheme", r"$\varphi(m, n)$", *map(_tex, RULES)]
    widths = ["0.12", "0.25", "0.17", "0.17", "0.17"]
    if trained:
        cols.append(f"beyond $L_0 = {trained}$ ($L = {target}$)")
        widths = ["0.11", "0.21", "0.14", "0.14", "0.14", "0.14"]
    spec = "".join(f">{{\\raggedright\\arraybackslash}}p{{{w}\\linewidth}}" for w in widths)
    head = " & ".join(cols) + r" \\"
    lines = [
        r"{\small\setlength{\tabcolsep}{3pt}\setlength{\LTcapwidth}{\linewidth}",
        r"\begin{longtable}{@{}" + spec + "@{}}",
        r"\caption{" + _tex(HEADER) + r"}\label{table:rules}\\",
        r"\toprule",
        head,
        r"\midrule",
        r"\endfirsthead",
        r"\multicolumn{%d}{@{}l}{\footnotesize Table~\thetable{} (continued)}\\" % len(cols),
        r"\toprule",
        head,
        r"\midrule",
        r"\endhead",
        r"\bottomrule",
        r"\endlastfoot",
    ]
    for row in rows:
        cells = [f"{_tex(_cell_prose(row['cells'][r]))}\\newline {_cite(row['cells'][r]['claim'], 'latex', refs)}"
                 for r in RULES]  # fmt: skip
        if "length" in row:
            cells.append(f"{_tex(row['length']['text'])}\\newline {_cite(row['length']['claim'], 'latex', refs)}")
        lines.append(" & ".join([_tex(row["scheme"]), f"${row['phi_latex']}$", *cells]) + r" \\")
    lines += [r"\end{longtable}", "}"]
    return "\n".join(lines) + "\n"


# ---- the command -----------------------------------------------------------------------------------------------

#: The formats of ``--format``: the table as text, Markdown, LaTeX or a JSON document.
FORMATS = format_names("text", "markdown", "latex", "json")


def add_parser(subparsers) -> argparse.ArgumentParser:
    r"""Add ``properties`` to the ``posproof`` subcommands (the subparsers' own parser class is used)."""
    from posproof.derivations.args import add_format_option

    s = subparsers.add_parser(
        "properties",
        help="every scheme judged by monotonicity, translation invariance and symmetry, a claim in every cell",
        description="Every scheme judged by monotonicity, translation invariance and symmetry, a claim in every cell.",
    )
    add_format_option(s, FORMATS)
    s.add_argument(
        "--trained", metavar="L0", help="trained length: adds the column of what positions L0 .. L-1 produce"
    )
    s.add_argument("--target", metavar="L", help="target length, above L0 (with --trained)")
    s.set_defaults(func=run)
    return s


def _length(text: str | None, flag: str) -> int | None:
    from posproof.derivations.args import int_arg

    return None if text is None else int_arg(text, flag, 2, MAX_LENGTH)


def document(trained: int | None = None, target: int | None = None) -> dict:
    r"""The table as a ``posproof.properties/1`` document: the rules and the rows of :func:`table`."""
    from posproof.derivations import machine

    return machine.document("properties", {"rules": list(RULES), "rows": table(trained, target)})


def run(args) -> int:
    r"""Print the table; 0 on success."""
    from posproof.derivations.args import UsageError, output_format

    fmt = output_format(args.format, FORMATS)
    trained, target = _length(args.trained, "--trained"), _length(args.target, "--target")
    try:
        _check_lengths(trained, target)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if fmt == "json":
        print(json.dumps(document(trained, target), indent=2, ensure_ascii=False))
        return 0
    render = {"text": table_text, "markdown": table_markdown, "latex": table_latex}[fmt]
    sys.stdout.write(render(trained, target))
    return 0


def main(argv: list[str] | None = None) -> int:
    r"""``python -m posproof.derivations.commands.properties ...``: the same as ``posproof properties ...``."""
    from posproof.derivations.args import standalone

    return standalone(add_parser, argv)


if __name__ == "__main__":
    sys.exit(main())
