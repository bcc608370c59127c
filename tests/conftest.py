import pytest
from hypothesis import settings

# No deadlines: speed is measured in bench/, never in tests (a slow CI machine must not fail a proof).
settings.register_profile("posproof", deadline=None, print_blob=True)
settings.load_profile("posproof")


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/*.tex from the current derivations",
    )


@pytest.fixture
def update_golden(request):
    return request.config.getoption("--update-golden")
