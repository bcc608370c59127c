r"""The README's picture of a derivation: one claim's page, set by KaTeX, photographed by headless Chromium
(``make docs``: ``claim_png("rope-block-relative", "docs/images/rope-block-relative.png", 900, 760)``)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from posproof.derivations.export import PAGE_CSS, ExportError

from posproof.printing.html import KATEX_MISSING, claim_html, katex_css, katex_dir

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
)


def claim_page(c) -> str:
    r"""One claim as a self-contained HTML page (KaTeX's stylesheet and fonts inlined)."""
    kdir = katex_dir()
    if kdir is None or shutil.which("node") is None:
        raise ExportError(KATEX_MISSING)
    css = PAGE_CSS + "body { margin: 0.5rem 1rem; } h3 { margin-top: 0; border: 0; }"
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<style>{katex_css(kdir)}</style>\n<style>{css}</style>\n</head>\n<body>\n{claim_html(c)}</body>\n</html>\n"
    )


def claim_png(claim_id: str, out: str, width: int = 900, height: int = 640) -> None:
    r"""A PNG of one claim's derivation (headless Chromium, ``width`` x ``height`` CSS pixels)."""
    from posproof.symbolic import registry

    chromium = shutil.which("chromium")
    if chromium is None:
        raise ExportError("a picture of a derivation needs Chromium: apt-get install chromium")
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "claim.html"
        page.write_text(claim_page(registry.get(claim_id)), encoding="utf-8")
        target = Path(out).resolve()
        subprocess.run(
            [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp}/profile", f"--window-size={width},{height}",
             f"--screenshot={target}", page.as_uri()],
            capture_output=True,
            check=True,
            timeout=300,
        )  # fmt: skip
