r"""Every formula of every export parses under KaTeX (Node.js), and the HTML page shows no KaTeX error in
headless Chromium. Skipped, with the reason, where Node.js and KaTeX or Chromium are missing;
``.ci/run`` installs them. The exports are the session's (:mod:`tests.exports`)."""

import re
import shutil
import subprocess

import pytest
from posproof.derivations.picture import CHROMIUM_FLAGS
from posproof.symbolic import registry

from posproof.printing import html as katex
from posproof.printing.blocks import blocks, math_of
from tests import exports

#: On one pytest-xdist worker (``--dist loadgroup``) with the other tests of the exports, which makes each once.
pytestmark = pytest.mark.xdist_group("exports")

needs_katex = pytest.mark.skipif(
    shutil.which("node") is None or katex.katex_dir() is None,
    reason="Node.js and KaTeX needed: npm ci --prefix tests/katex",
)


def _unscaled(tex: str) -> str:
    r"""A display without ``posproof.sty``'s ``\posproofwide{width}{...}`` (LaTeX scales it; the math is inside)."""
    m = re.fullmatch(r"\\posproofwide\{[^{}]*\}\{(.*)\}", tex, re.S)
    return m.group(1) if m else tex


def exported_formulas() -> list[tuple[str, bool]]:
    r"""Every formula of the claims' blocks (the HTML page) and of the Markdown and LaTeX exports, as written."""
    forms = []
    for c in registry.all():
        forms += math_of(blocks(c))
    for fmt in ("markdown", "latex"):
        for text in exports.text_files(fmt).values():
            if fmt == "markdown":
                forms += [(m, True) for m in re.findall(r"^\$\$\n(.*?)\n\$\$$", text, re.S | re.M)]
                forms += [(m, False) for m in re.findall(r"(?<![\\$])\$([^$\n]+?)\$(?!\$)", text)]
            else:
                forms += [(_unscaled(m.strip()), True) for m in re.findall(r"\\\[(.*?)\\\]", text, re.S)]
                forms += [(m, False) for m in re.findall(r"(?<!\\)\$([^$]+?)(?<!\\)\$", text)]
    return forms


@needs_katex
def test_every_exported_formula_parses_under_katex():
    forms = exported_formulas()
    distinct = list(dict.fromkeys(forms))
    assert len(forms) > 1000
    results = katex.katex_render(distinct)
    bad = [(tex, r["error"]) for (tex, _), r in zip(distinct, results, strict=True) if r["error"]]
    assert not bad, f"{len(bad)} of {len(distinct)} formulas fail under KaTeX, first: {bad[0]}"


@needs_katex
def test_katex_reports_a_formula_it_cannot_parse():
    ok, bad = katex.katex_render([(r"\frac{a}{b}", True), (r"\frac{a}{", False)])
    assert ok["error"] is None and 'class="katex' in ok["html"]
    assert bad["error"] and "katex-error" in bad["html"]


@needs_katex
def test_one_node_process_serves_every_call_and_a_stopped_one_is_replaced():
    katex.katex_render([("x", False)])
    worker = katex._worker
    assert katex.katex_render([("y", True)])[0]["error"] is None and katex._worker is worker
    worker.proc.kill()
    worker.proc.wait()
    assert katex.katex_render([("z", False)])[0]["error"] is None and katex._worker is not worker


@needs_katex
def test_a_katex_that_cannot_start_is_reported(monkeypatch, tmp_path):
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "katex.min.css").write_text("")  # a stylesheet, but no katex module
    monkeypatch.setenv("POSPROOF_KATEX", str(tmp_path))
    with pytest.raises(katex.OutputError, match=r"KaTeX \(node\) failed"):
        katex.katex_render([("x", False)])
    monkeypatch.delenv("POSPROOF_KATEX")
    assert katex.katex_render([("x", False)])[0]["error"] is None  # the real one again


@needs_katex
def test_html_page_is_self_contained():
    page = exports.files("html")["posproof.html"].decode()
    assert "<script" not in page and "<link" not in page and "url(fonts/" not in page
    assert "data:font/woff2;base64," in page and page.count('class="katex"') > 500
    assert "katex-error" not in page


@needs_katex
@pytest.mark.skipif(shutil.which("chromium") is None, reason="Chromium needed: apt-get install chromium")
def test_html_page_renders_in_chromium_without_katex_errors(tmp_path):
    page = exports.tree("html") / "posproof.html"
    proc = subprocess.run(
        ["chromium", *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=300,
    )
    dom = proc.stdout
    assert proc.returncode == 0 and "</html>" in dom, proc.stderr[-2000:]
    assert "katex-error" not in dom
    assert dom.count('class="katex"') > 500 and dom.count("<svg") >= 6
