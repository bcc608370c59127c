r"""The Markdown extension: a claim line replaced by the claim; a real MkDocs build with ``--strict``."""

from __future__ import annotations

import subprocess
import sys

import pytest
from posproof.symbolic import registry

from posproof.mkdocs import claim_markdown

ID = "order-sum-is-tied-concat"


def test_a_line_becomes_the_claim_with_its_anchor():
    markdown = pytest.importorskip("markdown")
    html = markdown.markdown(f"Intro.\n\n{{{{ posproof {ID} }}}}\n\nAfter.", extensions=["posproof.mkdocs"])
    assert f'id="claim-{ID}"' in html
    assert "distributivity" in html
    assert "$$" in html


def test_statement_only_keeps_heading_and_statement():
    text = claim_markdown(ID, statement_only=True)
    assert f"{{#claim-{ID}}}" in text
    assert text.count("$$") == 2
    assert "Checked" not in text


@pytest.mark.slow
def test_mkdocs_strict_build(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("pymdownx")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(
        f"# Claims\n\n!posproof {ID}\n\n{{{{ posproof sinusoidal-definition statement }}}}\n"
    )
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nmarkdown_extensions:\n  - posproof.mkdocs\n  - pymdownx.arithmatex:\n      generic: true\n"
    )
    run = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(tmp_path / "mkdocs.yml")]
    done = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "site" / "index.html").read_text()
    assert f'id="claim-{ID}"' in page and 'id="claim-sinusoidal-definition"' in page
    assert page.count('class="arithmatex"') >= 1 + len(registry.get(ID).steps)
    (docs / "index.md").write_text("# Claims\n\n!posproof no-such-claim\n")
    done = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    assert "no-such-claim" in done.stderr
