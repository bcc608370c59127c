r"""The example notebook is committed with its outputs (what a reader sees without running it) and runs from top
to bottom (the ``notebook`` extra: nbclient, ipykernel)."""

from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "notebooks" / "posproof.ipynb"


@pytest.mark.slow  # a kernel started, every cell run: `make test-fast` leaves it out
def test_example_notebook_executes_and_shows_math_and_tables():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    stored = [cell.get("outputs") for cell in nb.cells if cell.cell_type == "code"]
    assert all(stored), "commit it with its outputs (run it, as tests/printing/test_notebook.py does)"
    nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parents[2])}}
    ).execute()
    kinds = {
        key for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs for key in out.get("data", {})
    }
    assert {"text/markdown", "text/latex", "text/html", "image/svg+xml"} <= kinds
