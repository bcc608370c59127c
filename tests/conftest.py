import pytest


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/golden/*.tex from the current derivations")


@pytest.fixture
def update_golden(request):
    return request.config.getoption("--update-golden")
