import pytest
from hypothesis import settings

# No deadlines: speed is measured in bench/, never in tests (a slow CI machine must not fail a proof).
settings.register_profile("posproof", deadline=None, print_blob=True)
settings.load_profile("posproof")

#: The slowest tests of files that do not mark their own (``@pytest.mark.slow``): whole exports, pdflatex, KaTeX and
#: Chromium, every figure drawn, every strategy at the branch cuts. ``make test-fast`` deselects the ``slow`` marker;
#: ``make test`` runs everything. A node id, or the start of one: a file, or a test function with all its parameters.
SLOW = (
    "tests/derivations/test_export.py",
    "tests/derivations/test_cli.py::test_regression_derive_and_export_accept_both_format_spellings",
    "tests/derivations/test_cli.py::test_export_writes_every_topic",
    "tests/derivations/test_cli.py::test_console_script_and_module_entry_points",
    "tests/derivations/test_cli.py::test_export_tex_writes_a_standalone_document",
    "tests/derivations/test_cli.py::test_exported_latex_compiles_with_pdflatex",
    "tests/derivations/test_plots.py::test_every_figure_draws_and_is_deterministic",
    "tests/derivations/test_plots.py::test_without_matplotlib_the_command_says_how_to_install_it",
    "tests/printing/test_katex.py",
    "tests/symbolic/engine/test_engine.py::test_every_strategy_is_an_equivalence_at_branch_cuts",
)


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/*.tex from the current derivations",
    )


def _listed(nodeid: str) -> bool:
    return any(nodeid == s or nodeid.startswith((f"{s}::", f"{s}[")) for s in SLOW)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        if _listed(item.nodeid):
            item.add_marker(pytest.mark.slow)
        # `pytest -n 2 --dist loadgroup` (the Makefile's): a test in no group runs with the rest of its file, on one
        # worker, so the file's module fixtures and the claims' per-process memos (tests/claims.py) are built once;
        # a named group (the exports) may gather tests of several files.
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0].removeprefix("tests/")))


@pytest.fixture
def update_golden(request):
    return request.config.getoption("--update-golden")
