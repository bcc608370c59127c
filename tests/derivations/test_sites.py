r"""The Markdown export as real documentation sites: MkDocs (Material, arithmatex, attr_list, the exported
``nav.yml``) and Sphinx with MyST (dollarmath, amsmath; warnings are errors), one page of each opened in headless
Chromium."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from posproof.derivations.export import topics_all
from posproof.derivations.export.web import markdown_files

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def _write(out: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)


def _dom(page: Path) -> str:
    if CHROMIUM is None:
        pytest.skip("chromium needed to open the built pages")
    run = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=5000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


def files_of(site: Path) -> set[str]:
    return {p.name for p in site.iterdir()}


@pytest.fixture(scope="module")
def topics():
    return topics_all()


@pytest.fixture(scope="module")
def mkdocs_site(tmp_path_factory, topics) -> Path:
    pytest.importorskip("mkdocs", reason="mkdocs needed to build the site")
    pytest.importorskip("material", reason="mkdocs-material needed to build the site")
    pytest.importorskip("pymdownx", reason="pymdown-extensions needed for the math")
    root = tmp_path_factory.mktemp("mkdocs")
    files, _ = markdown_files(topics, True, lambda name: None, anchors="mkdocs")
    _write(root / "docs", files)
    config = (
        "site_name: posproof\ntheme:\n  name: material\nuse_directory_urls: false\n"
        "markdown_extensions:\n  - attr_list\n  - tables\n  - pymdownx.arithmatex:\n      generic: true\n"
        + files["nav.yml"].decode()
    )
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(root / "mkdocs.yml")],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=root,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr[-4000:]
    return root / "site"


@pytest.fixture(scope="module")
def sphinx_site(tmp_path_factory, topics) -> tuple[Path, str]:
    pytest.importorskip("sphinx", reason="sphinx needed to build the site")
    pytest.importorskip("myst_parser", reason="myst-parser needed to read Markdown")
    root = tmp_path_factory.mktemp("sphinx")
    files, _ = markdown_files(topics, True, lambda name: None, anchors="myst")
    _write(root / "src", files)
    (root / "src" / "conf.py").write_text(
        'project = "posproof"\nextensions = ["myst_parser"]\nmyst_enable_extensions = ["dollarmath", "amsmath"]\n'
        'exclude_patterns = ["nav.yml"]\n',
        encoding="utf-8",
    )
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            str(root / "src"),
            str(root / "html"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    return root / "html", run.stderr if run.returncode else ""


def _check_page(dom: str, topic: str) -> None:
    assert "‖" not in dom  # every bar of the table math is a bar, never the norm
    anchors = re.findall(r'id="(claim-[^"]+)"', dom)
    assert anchors, "no claim anchors"
    numbers = re.findall(r"\((\d+)\) ", re.sub(r"<[^>]+>", "", dom))
    assert len(set(numbers)) > 1, "the steps are not numbered apart"


def test_mkdocs_site_keeps_order_anchors_bars_and_step_numbers(mkdocs_site, topics):
    order = [t for t, _ in topics]
    index = (mkdocs_site / "index.html").read_text(encoding="utf-8")
    links = [m for m in re.findall(r'href="(\w+)\.html"', index) if m in order]
    assert list(dict.fromkeys(links)) == order  # the navigation lists the topics in reading order
    dom = _dom(mkdocs_site / "rope.html")
    _check_page(dom, "rope")
    assert 'id="claim-rope-complex-relative"' in dom
    assert "figures" not in files_of(mkdocs_site) or 'id="fig-' in dom  # a figure is a link target
    rules = _dom(mkdocs_site / "index.html")
    math = re.findall(r'<span class="arithmatex">(.*?)</span>', rules, re.S)
    assert math and not [m for m in math if "\\|" in m]  # TeX's \| is the norm: a bar in table math is \vert
    assert sum("\\vert" in m for m in math) >= 2 and 'id="table-rules"' in rules


def test_sphinx_site_builds_without_warnings(sphinx_site, topics):
    html_dir, warnings = sphinx_site
    assert not warnings, warnings[:4000]
    index = (html_dir / "index.html").read_text(encoding="utf-8")
    order = [t for t, _ in topics]
    toctree = re.findall(r'href="(\w+)\.html"', index[index.find("toctree") :])
    assert [t for t in dict.fromkeys(toctree) if t in order] == order
    dom = _dom(html_dir / "rope.html")
    _check_page(dom, "rope")
    assert 'id="claim-rope-complex-relative"' in dom


def test_html_page_numbers_links_and_contents_every_section(topics):
    from posproof.derivations.export.web import html_page

    from posproof.printing.html import MATHML_NOTE

    page, errors, _ = html_page(topics, with_figures=False, katex=False)
    assert not errors
    ids = set(re.findall(r' id="([^"]+)"', page))
    links = set(re.findall(r' href="#([^"]+)"', page))
    assert links and links <= ids, sorted(links - ids)[:5]  # every cross-reference lands
    sections = [s for s in re.findall(r'<h2 id="([^"]+)"', page) if s != "contents"]  # the list's own heading
    nav = page[page.index("<nav") : page.index("</nav>")]
    assert [a for a in re.findall(r'href="#([^"]+)"', nav)] == sections  # the contents list every section
    assert "rules" in " ".join(sections) and "references" in sections
    s = [t for t, _ in topics].index("rope") + 1  # the section number of the RoPE topic
    assert f'<h2 id="topic-rope"><span class="number">{s}.</span>' in page
    assert re.search(rf'<h3 id="claim-rope-complex-relative"><span class="number">\w+ {s}\.1\.</span>', page)
    assert MATHML_NOTE in page and '"Latin Modern Math"' in page
    assert "<mtable" in page and "<mi>&amp;</mi>" not in page
