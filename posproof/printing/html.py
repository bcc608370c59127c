r"""HTML of claims: :func:`blocks_html` writes blocks with a math callback, :class:`PageMath` collects a page's
formulas and fills in their rendering: KaTeX's (:func:`katex_render`: one Node.js process for every page and claim a
Python process renders) when Node.js and the katex package are there, else MathML (:func:`mathml_render`, pure
Python, which browsers set natively), so that a plain ``pip install`` exports HTML. :func:`claim_html` is one claim
as a fragment. :func:`katex_dir` finds the KaTeX package and :func:`katex_css` inlines its stylesheet.
"""

from __future__ import annotations

import atexit
import base64
import functools
import html
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from posproof.printing.blocks import Block, blocks
from posproof.printing.prose import prose


class OutputError(Exception):
    r"""Output that cannot be made or written (a missing tool, a directory an export refuses): one line for the
    user."""


#: The KaTeX worker: reads one request a line on stdin, ``[[tex, display], ...]`` as JSON, and answers each with one
#: line, ``[{"html": ..., "error": ...}, ...]``: KaTeX's rendering of each formula (an error is rendered as KaTeX's
#: error element and reported). It exits when stdin closes; anything else it cannot do ends it with a message on
#: stderr.
KATEX_SCRIPT = r"""
const katex = require(process.env.POSPROOF_KATEX_MODULE);
const render = ([tex, display]) => {
  const opts = { displayMode: display, strict: "error", output: "html", trust: false };
  try {
    return { html: katex.renderToString(tex, { ...opts, throwOnError: true }), error: null };
  } catch (e) {
    const shown = katex.renderToString(tex, { ...opts, throwOnError: false, strict: "ignore" });
    return { html: shown, error: String(e.message) };
  }
};
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  let nl = chunk.indexOf("\n");
  if (nl < 0) {
    pending += chunk;
    return;
  }
  let text = pending + chunk;
  nl += pending.length;
  while (nl >= 0) {
    process.stdout.write(JSON.stringify(JSON.parse(text.slice(0, nl)).map(render)) + "\n");
    text = text.slice(nl + 1);
    nl = text.indexOf("\n");
  }
  pending = text;
});
"""


#: Where a source checkout installs KaTeX for its tests (``npm ci --prefix tests/katex``): a project folder.
CHECKOUT_KATEX = Path(__file__).resolve().parents[2] / "tests" / "katex"


def katex_dir() -> Path | None:
    r"""The KaTeX package (the folder holding ``dist/katex.min.css``): where ``$POSPROOF_KATEX`` points, else the
    one installed for the tests in a source checkout (:data:`CHECKOUT_KATEX`), else npm's global one.
    ``$POSPROOF_KATEX`` may name the package itself, a ``node_modules`` folder holding it or a project folder with
    ``node_modules/katex`` (:func:`katex_package`); one that holds none of them is reported in one line on stderr
    and the other places are looked in. Looked up once per process and value of ``$POSPROOF_KATEX``."""
    return _katex_dir(os.environ.get("POSPROOF_KATEX") or None)


def katex_package(folder: Path) -> Path | None:
    r"""The KaTeX package that ``folder`` names: the ``katex`` package itself, a ``node_modules`` folder holding it,
    or a project folder with ``node_modules/katex``; ``None`` when it is none of them."""
    for candidate in (folder, folder / "katex", folder / "node_modules" / "katex"):
        if (candidate / "dist" / "katex.min.css").is_file():
            return candidate
    return None


@functools.cache
def _katex_dir(env: str | None) -> Path | None:
    if env:
        found = katex_package(Path(env).expanduser().resolve())  # absolute: node requires it by path
        if found is not None:
            return found
    found = katex_package(CHECKOUT_KATEX)
    if found is None:
        root = _npm_global_root()  # asking npm takes a moment: only when the others are not there
        found = katex_package(root) if root is not None else None
    if env:
        instead = f"using {found}" if found is not None else "none elsewhere either: the math falls back to MathML"
        print(
            f"posproof: warning: POSPROOF_KATEX={env} holds no KaTeX package (it must be the katex package, a "
            f"node_modules folder holding it, or a project folder with node_modules/katex); {instead}",
            file=sys.stderr,
        )
    return found


def _npm_global_root() -> Path | None:
    npm = shutil.which("npm")
    if npm is None:
        return None
    try:
        root = subprocess.run([npm, "root", "-g"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(root) if root else None


KATEX_MISSING = (
    "the HTML export sets its math with KaTeX, which needs Node.js and the katex npm package: "
    "`npm ci --prefix tests/katex` in a source checkout, `npm install -g katex`, or POSPROOF_KATEX=DIR "
    "(the katex package, a node_modules folder holding it, or a project folder with node_modules/katex)"
)

#: Seconds KaTeX may take for one request (a page or a claim) before its worker is stopped.
KATEX_TIMEOUT = 600


class _KatexWorker:
    r"""One Node.js process running :data:`KATEX_SCRIPT`, kept for the process that started it: each request is
    one line of JSON in, one line out."""

    def __init__(self, node: str, kdir: Path):
        self.key = (node, kdir)
        self.owner = os.getpid()
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [node, "-e", KATEX_SCRIPT],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            env=dict(os.environ, POSPROOF_KATEX_MODULE=str(kdir)),
        )

    def request(self, formulas: list[tuple[str, bool]]) -> list[dict] | None:
        r"""KaTeX's answer, or ``None`` when the worker failed (it is then of no more use: :meth:`close` it)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        watchdog = threading.Timer(KATEX_TIMEOUT, self.proc.kill)
        watchdog.start()
        try:
            self.proc.stdin.write((json.dumps(formulas) + "\n").encode())
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except OSError:  # the worker has gone (a broken pipe)
            line = b""
        finally:
            watchdog.cancel()
        return json.loads(line) if line.endswith(b"\n") else None

    def close(self) -> str:
        r"""End the worker (its stdin closed, so that it exits; stopped if it does not); the last line it wrote on
        stderr, as a list (empty when there is none)."""
        if self.owner != os.getpid():
            return "[]"  # a forked child's copy: the worker belongs to the parent
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.stderr.seek(0)
        said = self.stderr.read().decode(errors="replace").strip().splitlines()[-1:]
        self.stderr.close()
        return str(said)


_worker: _KatexWorker | None = None
_worker_lock = threading.Lock()
#: Workers inherited through a fork: they belong to the parent, so they are kept (neither used nor collected).
_inherited: list[_KatexWorker] = []


@atexit.register
def _close_worker() -> None:
    global _worker
    with _worker_lock:
        if _worker is not None:
            _worker.close()
            _worker = None


def katex_render(formulas: list[tuple[str, bool]]) -> list[dict]:
    r"""Each ``(tex, display)`` rendered by KaTeX: ``{"html": ..., "error": message or None}``. One Node.js
    process serves every call in a Python process: started on the first, ended at exit."""
    global _worker
    node, kdir = shutil.which("node"), katex_dir()
    if node is None or kdir is None:
        raise OutputError(KATEX_MISSING)
    with _worker_lock:
        if _worker is not None and _worker.owner != os.getpid():
            _inherited.append(_worker)
            _worker = None
        if _worker is not None and (_worker.key != (node, kdir) or _worker.proc.poll() is not None):
            _worker.close()
            _worker = None
        if _worker is None:
            _worker = _KatexWorker(node, kdir)
        rendered = _worker.request(formulas)
        if rendered is None:
            why = _worker.close()
            _worker = None
            raise OutputError(f"KaTeX (node) failed: {why}")
    return rendered


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
        try:
            out.append({"html": convert(mathml_tex(tex), display="block" if display else "inline"), "error": None})
        except Exception as e:  # noqa: BLE001 - any failure of the converter is reported, with the formula
            out.append({"html": f"<code>{html.escape(tex)}</code>", "error": f"{type(e).__name__}: {e}"})
    return out


#: The alignment environments the MathML converter reads as one row with literal ``&``.
ALIGNED = re.compile(r"\\(begin|end)\{(?:aligned|align\*?)\}")


def mathml_tex(tex: str) -> str:
    r"""LaTeX the MathML converter sets as it is meant: an ``aligned`` (``align``, ``align*``) block, nested or not,
    as an ``array`` of right- and left-aligned columns, which becomes an ``mtable`` (one row per line, the ``&``
    columns aligned).

    >>> mathml_tex(r"\begin{aligned}a &= b\\ &= c\end{aligned}")
    '\\begin{array}{rlrl}a &= b\\\\ &= c\\end{array}'
    """
    return ALIGNED.sub(lambda m: r"\begin{array}{rlrl}" if m.group(1) == "begin" else r"\end{array}", tex)


#: The note a page set as MathML shows (browsers set MathML in their own math font, less evenly than KaTeX).
MATHML_NOTE = (
    "The formulas on this page are MathML, set by your browser: the page was exported without Node.js and its "
    "math typesetter, so its math was not typeset in advance and may look uneven."
)


#: The font MathML is set in (a browser's default math font is often a text font).
MATHML_CSS = 'math { font-family: "Latin Modern Math", "STIX Two Math", "Cambria Math", serif; }'


@functools.lru_cache(maxsize=4)
def katex_css(kdir: Path) -> str:
    r"""KaTeX's stylesheet with its WOFF2 fonts inlined as data URIs (the other font formats dropped); read once
    per process."""
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


def text_html(text: str, math: Callable[[str, bool], str], refs=None) -> str:
    r"""Prose in HTML, references resolved through ``refs`` (a Numbering) where the prose printer takes it."""
    if refs is None:
        return prose(text, "html", math)
    if "refs" not in inspect.signature(prose).parameters:  # a printer without the keyword yet
        return prose(text, "html", math)
    loose: Callable[..., Any] = prose
    return loose(text, "html", math, refs=refs)


def blocks_html(
    bs: Iterable[Block], math: Callable[[str, bool], str], *, refs=None, audience: str = "reference"
) -> str:
    r"""Blocks as HTML: a claim's heading ``<h3 id="claim-ID">``, numbered (``Theorem 4.6. Title``) and its
    statement numbered ``(12)`` where ``refs`` knows them; strategies printed in the reference audience only."""
    out = []
    for b in bs:
        p = lambda t: text_html(t, math, refs)  # noqa: E731
        if b.kind == "heading":
            target = refs.get(f"claim:{b.label}") if refs is not None else None
            title = p(b.text)
            if target is not None and target.number:
                word = html.escape(b.code or target.word)
                title = f'<span class="number">{word} {target.number}.</span> {title}'
            out.append(f'<h3 id="claim-{html.escape(b.label)}">{title}</h3>')
        elif b.kind in ("para", "source", "checked"):
            cls = ' class="meta"' if b.text.startswith("`") or b.kind == "checked" else ""
            out.append(f"<p{cls}>{p(b.text)}</p>")
        elif b.kind == "statement":
            target = refs.get(b.label) if refs is not None and b.label else None
            if target is not None and target.number:
                out.append(
                    f'<div class="display statement numbered" id="{html.escape(target.anchor)}">'
                    f'<div class="eq">{math(b.tex, True)}</div><span class="eqno">({target.number})</span></div>'
                )
            else:
                out.append(f'<div class="display statement">{math(b.tex, True)}</div>')
        elif b.kind == "math":
            out.append(f'<div class="display">{math(b.tex, True)}</div>')
        elif b.kind == "step":
            num = f"({b.number}) " if b.number else ""
            shown = f'<div class="display">{math(b.tex, True)}</div>' if b.tex else ""
            same = "" if b.tex else " (the statement above)"
            code = (
                f' <span class="strategy">[{html.escape(b.code)}]</span>' if b.code and audience == "reference" else ""
            )
            out.append(f'<p class="why">{num}{p(b.text)}{code}{same}</p>' + shown)
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
