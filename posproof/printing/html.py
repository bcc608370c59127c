r"""HTML of claims: :func:`blocks_html` writes blocks with a math callback, :class:`PageMath` collects a page's
formulas and fills in their rendering: KaTeX's (:func:`katex_render`) when Node.js and the katex package are
there, else MathML (:func:`mathml_render`, pure Python, which browsers set natively), so that a plain
``pip install`` exports HTML. :func:`claim_html` is one claim as a fragment. :func:`katex_dir` finds the KaTeX
package and :func:`katex_css` inlines its stylesheet.
"""

from __future__ import annotations

import base64
import html
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path

from posproof.printing.blocks import Block, blocks
from posproof.printing.prose import prose


class OutputError(Exception):
    r"""Output that cannot be made or written (a missing tool, a directory an export refuses): one line for the
    user."""


#: Reads ``[[tex, display], ...]`` as JSON on stdin, writes ``[{"html": ..., "error": ...}, ...]``: KaTeX's
#: rendering of each formula (an error is rendered as KaTeX's error element and reported).
KATEX_SCRIPT = r"""
const katex = require(process.env.POSPROOF_KATEX_MODULE);
let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(([tex, display]) => {
    const opts = { displayMode: display, strict: "error", output: "html", trust: false };
    try {
      return { html: katex.renderToString(tex, { ...opts, throwOnError: true }), error: null };
    } catch (e) {
      const shown = katex.renderToString(tex, { ...opts, throwOnError: false, strict: "ignore" });
      return { html: shown, error: String(e.message) };
    }
  });
  process.stdout.write(JSON.stringify(out));
});
"""


def katex_dir() -> Path | None:
    r"""The KaTeX package (``node_modules/katex``): ``$POSPROOF_KATEX``, the one installed for the tests in a
    source checkout (``tests/katex``), or npm's global one."""
    candidates = []
    if os.environ.get("POSPROOF_KATEX"):
        candidates.append(Path(os.environ["POSPROOF_KATEX"]))
    candidates.append(Path(__file__).resolve().parents[2] / "tests" / "katex" / "node_modules" / "katex")
    npm = shutil.which("npm")
    if npm:
        try:
            root = subprocess.run([npm, "root", "-g"], capture_output=True, text=True, timeout=30).stdout.strip()
            if root:
                candidates.append(Path(root) / "katex")
        except (OSError, subprocess.SubprocessError):
            pass
    return next((c for c in candidates if (c / "dist" / "katex.min.css").exists()), None)


KATEX_MISSING = (
    "the HTML export sets its math with KaTeX, which needs Node.js and the katex npm package: "
    "`npm ci --prefix tests/katex` in a source checkout, `npm install -g katex`, or POSPROOF_KATEX=DIR"
)


def katex_render(formulas: list[tuple[str, bool]]) -> list[dict]:
    r"""Each ``(tex, display)`` rendered by KaTeX: ``{"html": ..., "error": message or None}``."""
    node, kdir = shutil.which("node"), katex_dir()
    if node is None or kdir is None:
        raise OutputError(KATEX_MISSING)
    env = dict(os.environ, POSPROOF_KATEX_MODULE=str(kdir))
    proc = subprocess.run(
        [node, "-e", KATEX_SCRIPT],
        input=json.dumps(formulas),
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    if proc.returncode != 0:
        raise OutputError(f"KaTeX (node) failed: {proc.stderr.strip().splitlines()[-1:]}")
    return json.loads(proc.stdout)


def katex_available() -> bool:
    r"""Whether KaTeX can pre-render the math (Node.js and the katex package found)."""
    return shutil.which("node") is not None and katex_dir() is not None


def mathml_render(formulas: list[tuple[str, bool]]) -> list[dict]:
    r"""Each ``(tex, display)`` as MathML (``latex2mathml``): ``{"html": ..., "error": message or None}``; what
    cannot be converted is shown as its LaTeX source and reported.

    >>> mathml_render([("x^{2}", False)])[0]["html"].startswith('<math xmlns="http://www.w3.org/1998/Math/MathML"')
    True
    """
    from latex2mathml.converter import convert

    out = []
    for tex, display in formulas:
        # the converter reads an ``aligned`` block as one row with literal ``&``: as an array it is a table
        table = tex.replace(r"\begin{aligned}", r"\begin{array}{rl}").replace(r"\end{aligned}", r"\end{array}")
        try:
            out.append({"html": convert(table, display="block" if display else "inline"), "error": None})
        except Exception as e:  # noqa: BLE001 - any failure of the converter is reported, with the formula
            out.append({"html": f"<code>{html.escape(tex)}</code>", "error": f"{type(e).__name__}: {e}"})
    return out


def katex_css(kdir: Path) -> str:
    r"""KaTeX's stylesheet with its WOFF2 fonts inlined as data URIs (the other font formats dropped)."""
    css = (kdir / "dist" / "katex.min.css").read_text(encoding="utf-8")

    def inline(m: re.Match) -> str:
        data = base64.b64encode((kdir / "dist" / "fonts" / m.group(1)).read_bytes()).decode()
        return f'src:url(data:font/woff2;base64,{data}) format("woff2")'

    return re.sub(
        r"src:url\(fonts/([\w-]+\.woff2)\) format\(\"woff2\"\)(?:,url\([^)]*\) format\(\"[a-z]+\"\))*", inline, css
    )


class PageMath:
    r"""Collects the formulas of a page, then substitutes KaTeX's rendering for placeholders."""

    def __init__(self, katex: bool | None = None):
        self.formulas: list[tuple[str, bool]] = []
        self.katex = katex_available() if katex is None else katex

    def __call__(self, tex: str, display: bool) -> str:
        self.formulas.append((tex, display))
        return f"\x00{len(self.formulas) - 1}\x00"

    def fill(self, page: str) -> tuple[str, list[str]]:
        render = katex_render if self.katex else mathml_render
        rendered = render(self.formulas) if self.formulas else []
        errors = [f"{tex!r}: {r['error']}" for (tex, _), r in zip(self.formulas, rendered, strict=True) if r["error"]]
        return re.sub("\x00(\\d+)\x00", lambda m: rendered[int(m.group(1))]["html"], page), errors


def blocks_html(bs: Iterable[Block], math: Callable[[str, bool], str]) -> str:
    out = []
    for b in bs:
        p = lambda t: prose(t, "html", math)  # noqa: E731
        if b.kind == "heading":
            out.append(f'<h3 id="{html.escape(b.label)}">{p(b.text)}</h3>')
        elif b.kind == "para":
            cls = ' class="meta"' if b.text.startswith("`") else ""
            out.append(f"<p{cls}>{p(b.text)}</p>")
        elif b.kind == "statement":
            out.append(f'<div class="display statement">{math(b.tex, True)}</div>')
        elif b.kind == "math":
            out.append(f'<div class="display">{math(b.tex, True)}</div>')
        elif b.kind == "step":
            num = f"({b.number}) " if b.number else ""
            shown = f'<div class="display">{math(b.tex, True)}</div>' if b.tex else ""
            same = "" if b.tex else " (the statement above)"
            out.append(
                f'<p class="why">{num}{p(b.text)} <span class="strategy">[{html.escape(b.code)}]</span>{same}</p>'
                + shown
            )
        elif b.kind == "table":
            out.append(table_html(b, p))
    return "\n".join(out)


def table_html(b: Block, p: Callable[[str], str]) -> str:
    r"""A ``table`` block as an HTML table: heads in ``th`` (scope ``col``), each row's label in ``th`` (scope
    ``row``); ``p`` typesets a cell's prose."""
    head = "".join(f'<th scope="col">{p(h)}</th>' for h in b.head)
    body = "".join(
        f'<tr><th scope="row">{p(row[0])}</th>' + "".join(f"<td>{p(cell)}</td>" for cell in row[1:]) + "</tr>"
        for row in b.rows
    )
    head = f"<thead><tr>{head}</tr></thead>" if head else ""
    caption = f"<caption>{p(b.text)}</caption>" if b.text else ""
    return f'<table class="computed">{caption}{head}<tbody>{body}</tbody></table>'


def claim_html(c) -> str:
    r"""One claim as an HTML fragment with its math set by KaTeX."""
    math = PageMath()
    page, _ = math.fill(blocks_html(blocks(c), math))
    return page + "\n"
