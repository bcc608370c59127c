r"""``posproof properties``: every scheme judged by the three rules of a position code, a claim in every cell.

The rules (Wang et al. 2021, as 'Positional Encoding 101' states them) for a proximity ``φ(m, n)`` of a query at
``m`` and a key at ``n``: monotonicity (``φ`` falls as ``|m - n|`` grows), translation invariance and symmetry. A
cell holds, fails, or holds up to a computed distance; what it says is read from the registered claim it names
(a theorem's proof, or the value a fact computes), never typed here. With ``--trained L0 --target L`` a column says
what positions ``L0 .. L - 1`` produce that training never showed (claims at the article's 1000 and 2000; other
lengths by the same functions).

``posproof properties [--json] [--format text|md|latex] [--trained L0 --target L]``. ``add_parser(subparsers)``
adds the subcommand; ``run(args)`` runs it (usage errors raise ``derivations.args.UsageError``). ``table_markdown()``
and ``table_latex()`` give the table for the exports and the README.

>>> row = next(r for r in table() if r["scheme"] == "sinusoidal")
>>> row["cells"]["monotonicity"]["verdict"], row["cells"]["monotonicity"]["claim"]
('holds for distances <= 43', 'sinusoidal-monotone-range')
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import sympy as sp

from posproof.printing.formats import format_names
from posproof.printing.printers import latex
from posproof.printing.prose import prose

RULES = ("monotonicity", "translation invariance", "symmetry")
VERDICTS = ("holds", "fails")


@dataclass(frozen=True)
class Cell:
    r"""One rule of one scheme. ``read`` turns the fact's registered value into ``True`` (holds), ``False``
    (fails) or an integer ``K`` (holds for distances up to ``K``); a theorem's cell states ``verdict``, what its
    proof shows. ``note`` qualifies it in a few words."""

    claim: str
    verdict: str | None = None
    read: Callable[[Any], bool | int] | None = None
    note: str = ""


@dataclass(frozen=True)
class Length:
    r"""What positions past training produce: ``text(L0, L)`` computed by the functions the claim verifies."""

    claim: str
    text: Callable[[int, int], str]


@dataclass(frozen=True)
class Scheme:
    name: str
    phi: Any  # a SymPy statement φ(m, n) = ...
    cells: tuple[Cell, Cell, Cell]  # in the order of RULES
    length: Length


# ---- the proximities, as SymPy objects (printed, never typed) -------------------------------------------------

m, n = sp.symbols("m n", integer=True)
d, N = sp.symbols("d N", integer=True, positive=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
varphi = sp.Function("varphi")
theta_i = sp.IndexedBase("theta")[i]


def _vec(name: str) -> sp.MatrixSymbol:
    return sp.MatrixSymbol(name, d, 1)


def _dot(u, v) -> sp.MatMul:
    return sp.MatMul(u.T, v)


def _phi(rhs) -> sp.Eq:
    return sp.Eq(varphi(m, n), rhs, evaluate=False)


def _pairs(f) -> sp.Sum:
    return sp.Sum(f, (i, 0, d / 2 - 1))


def _rope_phi(scaled: bool):
    R = sp.MatrixSymbol("R'_{n - m}" if scaled else "R_{n - m}", d, d)
    A = sp.Symbol("A", positive=True)
    body = sp.MatMul(_vec("q").T, R, _vec("k"))
    return _phi(A**2 * body if scaled else body)


def _multiaxis_phi():
    r"""M-RoPE and axial 2-D RoPE: tokens ``m``, ``n`` at position vectors ``p_m``, ``p_n`` (t, h, w or row, column)."""
    R = sp.MatrixSymbol("R_{p_n - p_m}", d, d)
    return _phi(sp.MatMul(_vec("q").T, R, _vec("k")))


def _deberta_phi():
    delta = sp.Function("delta")
    QC, KC, QR, KR = (sp.IndexedBase(s) for s in ("q^c", "k^c", "Q^r", "K^r"))
    return _phi(QC[m] * KR[delta(m, n)] + KC[n] * QR[delta(n, m)])


# ---- reading the registered values ----------------------------------------------------------------------------


def _key(name: str) -> Callable[[Any], Any]:
    return lambda value: value[name]


def _not(name: str) -> Callable[[Any], bool]:
    return lambda value: not value[name]


# ---- the length column: the functions the length claims verify -------------------------------------------------


def _absolute(entry: str, fmt: str) -> Callable[[int, int], str]:
    def text(L0: int, L: int) -> str:
        from posproof.symbolic.properties import absolute_lengths

        return fmt.format(x=absolute_lengths(L0, L)[entry], L0=L0, L=L, top=L - 1)

    return text


def _sinusoidal(L0: int, L: int) -> str:
    from posproof.symbolic.properties import sinusoidal_lengths

    v = sinusoidal_lengths(L0, L)
    first = "" if v["first such pair"] is None else f" (pairs {v['first such pair']}..255)"
    return f"{v['pairs with angles beyond the trained range']} of 256 pairs see new angles{first} at d = 512"


def _capped(entry: str, what: str) -> Callable[[int, int], str]:
    def text(L0: int, L: int) -> str:
        from posproof.symbolic.properties import capped_lengths

        return what.format(x=capped_lengths(L0, L)[entry])

    return text


def _alibi(L0: int, L: int) -> str:
    from posproof.symbolic.properties import alibi_lengths

    v = alibi_lengths(L0, L)
    return (
        f"{v['new bias values per head']} bias values per head below training (head 1: down to "
        f"{v['head 1: target biases reach']}, trained {v['head 1: trained biases reach']})"
    )


def _rope(rule: str) -> Callable[[int, int], str]:
    def text(L0: int, L: int) -> str:
        from posproof.symbolic.properties import rope_lengths

        v = rope_lengths(L0, L)
        if rule == "xpos":
            return (
                f"{v['xpos: angles']} of 64 pairs see new angles; "
                f"{v['xpos: pairs with decay factors below training']} pairs new decay factors (d = 128)"
            )
        return f"{v[rule]} of 64 pairs see new angles (d = 128, s = L/L0)"

    return text


def _multiaxis_text(L0: int, L: int) -> str:
    return "text tokens (t = h = w) as RoPE: " + _rope("default")(L0, L)


def _nothing(L0: int, L: int) -> str:
    return "no positional quantity"


# ---- the table -------------------------------------------------------------------------------------------------

ABS_SYM = Cell("properties-absolute-symmetric", "holds")
COUNT_MONO = Cell("properties-counting-proximity-grows", "fails")
COUNT_TI = Cell("properties-counting-shift-changes", "fails")
ROPE_TI = Cell("extension-scaled-rope-relative", "holds", note="any per-pair factors")
ROPE_SYM = Cell("properties-rope-odd-part", "fails", note=r"$q \ne k$; holds for $q = k$")

RULE_NAMES = {
    "linear": "RoPE + linear (PI)",
    "ntk": "RoPE + NTK-aware",
    "dynamic": "RoPE + dynamic NTK",
    "yarn": "RoPE + YaRN",
    "llama3": "RoPE + Llama 3",
    "longrope": "RoPE + LongRoPE",
}


def _rule_row(rule: str) -> Scheme:
    mono = Cell("properties-rope-monotone-range", read=_key(rule), note="$q = k$, $d = 128$, $s = 4$")
    return Scheme(
        RULE_NAMES[rule], _rope_phi(True), (mono, ROPE_TI, ROPE_SYM), Length("properties-length-rope", _rope(rule))
    )


@cache
def schemes() -> tuple[Scheme, ...]:
    r"""Every scheme of the table, in reading order."""
    x_a, x_b, A = _vec("x_a"), _vec("x_b"), sp.MatrixSymbol("A", d, d)
    m_h = sp.Symbol("m_h", positive=True)
    zeta = sp.IndexedBase("zeta")[i]
    gamma = sp.Symbol("gamma", positive=True)
    psi = sp.Function("psi_i")
    return (
        Scheme(
            "counting",
            _phi(d * m * n),
            (COUNT_MONO, COUNT_TI, ABS_SYM),
            Length(
                "properties-length-absolute",
                _absolute("counting: new component values", "{x} new component values, up to {top}"),
            ),
        ),
        Scheme(
            "normalized counting",
            _phi(d * m * n / (N - 1) ** 2),
            (COUNT_MONO, COUNT_TI, ABS_SYM),
            Length(
                "properties-length-absolute",
                _absolute(
                    "normalized pos/(N - 1): positions of an L-word text with a value no shorter text had",
                    "{x} of {L} positions get a value no text of <= {L0} words had",
                ),
            ),
        ),
        Scheme(
            "binary",
            _phi(sp.Function("popcount")(sp.Function("AND")(m, n))),
            (
                Cell("properties-binary-rules", read=_key("monotone")),
                Cell("properties-binary-rules", read=_key("translation invariant")),
                ABS_SYM,
            ),
            Length(
                "properties-length-absolute",
                _absolute(
                    "binary: positions setting a bit never set in training",
                    "{x} positions set a bit never set in training",
                ),
            ),
        ),
        Scheme(
            "sinusoidal",
            _phi(_pairs(sp.cos((m - n) * theta_i))),
            (
                Cell("sinusoidal-monotone-range", read=_key("512"), note="$d = 512$, $b = 10^4$"),
                Cell("sinusoidal-translation-invariance", "holds"),
                Cell("sinusoidal-symmetry", "holds"),
            ),
            Length("properties-length-sinusoidal", _sinusoidal),
        ),
        Scheme(
            "learned absolute (random init)",
            _phi(_dot(_vec("p_m"), _vec("p_n"))),
            (
                Cell("properties-learned-random-init", read=_key("monotone in $|m - n|$")),
                Cell("properties-learned-random-init", read=_key("translation invariant")),
                ABS_SYM,
            ),
            Length(
                "properties-length-absolute",
                _absolute("learned table: positions with an untrained row", "{x} positions with an untrained row"),
            ),
        ),
        Scheme(
            "Transformer-XL",
            _phi(sp.MatMul(_vec("v").T, sp.MatrixSymbol("W_{k,R}", d, d), _vec("R_{m - n}"))),
            (
                Cell("properties-txl-rules", read=_key("monotone in $|m - n|$"), note=r"learned $v$, $W_{k,R}$"),
                Cell("txl-translation-invariant", read=lambda v: v[0]),
                Cell("properties-txl-rules", read=_key("symmetric")),
            ),
            Length("properties-length-sinusoidal", _sinusoidal),
        ),
        Scheme(
            "DeBERTa (clipped)",
            _deberta_phi(),
            (
                Cell(
                    "properties-deberta-rules",
                    read=_not(r"clipped: constant for $|i - j| \ge k$"),
                    note=r"constant for $|m - n| \ge k$",
                ),
                Cell("deberta-translation-invariant", read=lambda v: v[2]),
                Cell("properties-deberta-rules", read=_key("clipped: symmetric")),
            ),
            Length(
                "properties-length-capped", _capped("DeBERTa clipped (k = 512): new rows", "{x} new rows (k = 512)")
            ),
        ),
        Scheme(
            "DeBERTa (log buckets)",
            _deberta_phi(),
            (
                Cell(
                    "properties-deberta-rules",
                    read=_not(r"log buckets: $\varphi(i, i - 5) = \varphi(i, i - 6)$"),
                    note="equal within a bucket",
                ),
                Cell("properties-deberta-rules", read=_key("log buckets: translation invariant")),
                Cell("properties-deberta-rules", read=_key("log buckets: symmetric")),
            ),
            Length(
                "properties-length-capped",
                _capped(
                    "DeBERTa log buckets (256, 512, k = 256): new rows", "{x} new rows (256 buckets, 512, k = 256)"
                ),
            ),
        ),
        Scheme(
            "T5",
            _phi(sp.Function("b")(sp.Function("bucket")(n - m))),
            (
                Cell(
                    "t5-bucket-cap", read=lambda v: len(set(v[0][:5])) > 1, note=r"one bucket for all $|m - n| \ge 91$"
                ),
                Cell("t5-bias-relative", read=_key("constant along diagonals")),
                Cell(
                    "t5-bias-relative", read=lambda v: v["query 10, key 15 (r = +5)"] == v["query 15, key 10 (r = -5)"]
                ),
            ),
            Length(
                "properties-length-capped",
                _capped("T5 (32 buckets, max distance 128): new buckets", "{x} new buckets (32 buckets, 128)"),
            ),
        ),
        Scheme(
            "ALiBi",
            _phi(-m_h * (m - n)),
            (
                Cell("alibi-monotone-decay", "holds", note="keys before the query, every distance"),
                Cell("alibi-translation-invariant", read=_key("constant along diagonals")),
                Cell("properties-alibi-antisymmetric", "fails", note=r"$\varphi(n, m) = -\varphi(m, n)$"),
            ),
            Length("properties-length-alibi", _alibi),
        ),
        Scheme(
            "RoPE",
            _rope_phi(False),
            (
                Cell("properties-rope-monotone-range", read=_key("default"), note="$q = k$, $d = 128$"),
                Cell("rope-block-relative", "holds"),
                ROPE_SYM,
            ),
            Length("properties-length-rope", _rope("default")),
        ),
        *(_rule_row(rule) for rule in RULE_NAMES),
        Scheme(
            "M-RoPE, axial 2-D",
            _multiaxis_phi(),
            (
                Cell(
                    "properties-rope-monotone-range",
                    read=_key("default"),
                    note="text tokens ($t = h = w$), as RoPE; $q = k$, $d = 128$",
                ),
                Cell(
                    "multiaxis-score-relative",
                    "holds",
                    note="per axis and jointly: any shift vector $t$",
                ),
                ROPE_SYM,
            ),
            Length("properties-length-rope", _multiaxis_text),
        ),
        Scheme(
            "xPos",
            _phi(_pairs(zeta ** ((m - n) / gamma) * psi(n - m))),
            (
                Cell(
                    "properties-xpos-rules", read=_key("monotone up to $m - n$"), note="$q = k$, keys before the query"
                ),
                Cell("properties-xpos-relative", "holds"),
                Cell("properties-xpos-rules", read=_not(r"$\varphi(5, 0) < \varphi(0, 5)$"), note="even for $q = k$"),
            ),
            Length("properties-length-rope", _rope("xpos")),
        ),
        Scheme(
            "no position code",
            _phi(sp.MatMul(x_a.T, A, x_b)),
            (
                Cell("order-scores-permute", "fails", note=r"$\varphi$ does not depend on $m$, $n$"),
                Cell("order-scores-permute", "holds"),
                Cell("order-scores-permute", "holds"),
            ),
            Length("order-scores-permute", _nothing),
        ),
        Scheme(
            "no position code, causal mask",
            _phi(sp.Piecewise((0, n <= m), (-sp.oo, True))),
            (
                Cell("properties-causal-mask-rules", read=_key("monotone in $|m - n|$")),
                Cell("properties-causal-mask-rules", read=_key("translation invariant")),
                Cell("properties-causal-mask-rules", read=_key("symmetric")),
            ),
            Length("properties-causal-mask-rules", _nothing),
        ),
    )


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


def _check_lengths(trained, target) -> tuple[int, int] | None:
    if trained is None and target is None:
        return None
    if trained is None or target is None:
        raise ValueError("--trained and --target go together")
    if not 2 <= trained < target:
        raise ValueError(f"--target must exceed --trained >= 2, got --trained {trained}, --target {target}")
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
            row["length"] = {"text": sc.length.text(*lengths), "claim": sc.length.claim}
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
        from posproof.symbolic.properties import TARGET, TRAINED

        lines.append(
            f"The length claims are verified at L0 = {TRAINED}, L = {TARGET}"
            + ("." if (trained, target) == (TRAINED, TARGET) else "; other lengths are computed by the same functions.")
        )
    return "\n".join(lines).rstrip() + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def table_markdown(trained: int | None = None, target: int | None = None) -> str:
    r"""The table in Markdown (GitHub math for φ), one row per scheme: README-ready."""
    rows = table(trained, target)
    head = ["scheme", "φ(m, n)", *RULES] + ([f"beyond L0 = {trained} (L = {target})"] if trained else [])
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [
            f"{_md(prose(_cell_prose(row['cells'][r]), 'markdown'))}<br>`{row['cells'][r]['claim']}`" for r in RULES
        ]
        if "length" in row:
            cells.append(f"{_md(row['length']['text'])}<br>`{row['length']['claim']}`")
        out.append("| " + " | ".join([row["scheme"], f"${_md(row['phi_latex'])}$", *cells]) + " |")
    return "\n".join(out) + "\n"


def table_html(math: Callable[[str, bool], str] | None = None) -> str:
    r"""The table as an HTML ``<table>`` (a real one: one ``<td>`` per cell, the claim id on a line of its own
    as ``<code>``), prose and formulas through ``math(tex, display)`` (the export's KaTeX or MathML)."""
    import html

    def formula(tex: str) -> str:
        return math(tex, False) if math else html.escape(f"${tex}$")

    head = "".join(f"<th>{h}</th>" for h in ("scheme", formula(r"\varphi(m, n)"), *RULES))
    body = []
    for row in table():
        cells = [
            f"<td>{prose(_cell_prose(row['cells'][r]), 'html', math)}"
            f'<div class="claim"><code>{html.escape(row["cells"][r]["claim"])}</code></div></td>'
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


def _tex_id(claim_id: str) -> str:
    return r"\newline \texttt{" + claim_id.replace("-", r"-\allowbreak{}") + "}"


def table_latex(trained: int | None = None, target: int | None = None) -> str:
    r"""The table as LaTeX ``tabular``\ s of ten schemes each (so that a page may break between them; amsmath and
    array only), ragged-right columns, claim ids in typewriter, numbered and captioned as Table ``tab:rules``: for
    the LaTeX export."""
    rows = table(trained, target)
    cols = ["scheme", r"$\varphi(m, n)$", *map(_tex, RULES)]
    widths = ["2.0cm", "3.6cm", "2.3cm", "2.3cm", "2.3cm"]
    if trained:
        cols.append(f"beyond $L_0 = {trained}$ ($L = {target}$)")
        widths.append("2.6cm")
    spec = "".join(f">{{\\raggedright\\arraybackslash}}p{{{w}}}" for w in widths)
    head = [r"\begin{tabular}{" + spec + "}", " & ".join(cols) + r" \\ \hline"]
    lines = [
        r"\refstepcounter{table}\label{tab:rules}",
        r"\noindent\textbf{Table~\thetable.} " + _tex(HEADER),
        "",
        r"{\scriptsize\setlength{\tabcolsep}{3pt}",
    ]
    for k, row in enumerate(rows):
        if k % 10 == 0:
            lines += ([r"\end{tabular}", ""] if k else []) + head
        cells = [f"{_tex(_cell_prose(row['cells'][r]))} {_tex_id(row['cells'][r]['claim'])}" for r in RULES]
        if "length" in row:
            cells.append(f"{_tex(row['length']['text'])} {_tex_id(row['length']['claim'])}")
        lines.append(" & ".join([_tex(row["scheme"]), f"${row['phi_latex']}$", *cells]) + r" \\")
    lines += [r"\end{tabular}", "}"]
    return "\n".join(lines) + "\n"


# ---- the command -----------------------------------------------------------------------------------------------

FORMATS = format_names("text", "markdown", "latex")


def add_parser(subparsers) -> argparse.ArgumentParser:
    r"""Add ``properties`` to the ``posproof`` subcommands (the subparsers' own parser class is used)."""
    s = subparsers.add_parser(
        "properties",
        help="every scheme judged by monotonicity, translation invariance and symmetry, a claim in every cell",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    s.add_argument("--format", default="text", help=f"output format: {', '.join(FORMATS)}")
    s.add_argument("--json", action="store_true", help="the table as JSON (cells with verdict, note and claim id)")
    s.add_argument("--trained", help="trained length L0: adds the column of what positions L0 .. L-1 produce")
    s.add_argument("--target", help="target length L (with --trained)")
    s.set_defaults(func=run)
    return s


def _length(text: str | None, flag: str) -> int | None:
    from posproof.derivations.args import UsageError

    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"{flag} must be an integer >= 2, got {text!r}") from None
    if value < 2:
        raise UsageError(f"{flag} must be an integer >= 2, got {value}")
    return value


def run(args) -> int:
    r"""Print the table; 0 on success."""
    from posproof.derivations.args import UsageError

    if args.format not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, got {args.format!r}")
    trained, target = _length(args.trained, "--trained"), _length(args.target, "--target")
    try:
        _check_lengths(trained, target)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if args.json:
        print(json.dumps({"rules": list(RULES), "rows": table(trained, target)}, indent=2, ensure_ascii=False))
        return 0
    render = {"text": table_text, "markdown": table_markdown, "latex": table_latex}[FORMATS[args.format]]
    sys.stdout.write(render(trained, target))
    return 0


def main(argv: list[str] | None = None) -> int:
    r"""``python -m posproof.derivations.commands.properties ...``: the same as ``posproof properties ...``."""
    from posproof.derivations.args import standalone

    return standalone(add_parser, argv)


if __name__ == "__main__":
    sys.exit(main())
