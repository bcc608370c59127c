import pytest
from posproof.derivations import export

from posproof.printing.formats import canonical_format
from tests import exports


@pytest.fixture
def serve_build(monkeypatch):
    r"""``serve_build(fmt, figures)`` makes :func:`posproof.derivations.export.build` answer with the session's
    export (:func:`tests.exports.built`) instead of building it again: for the tests of where and how an export
    writes, which do not inspect what it builds. Only the exports asked for are served; another fails."""
    served: set[tuple[str, bool]] = set()
    real = export.build

    def build(fmt: str, with_figures: bool = True, progress=None, **options):
        key = (canonical_format(fmt), with_figures)
        assert key in served, f"serve_build{key} was not asked for"
        return exports.built(*key)

    def serve(fmt: str, figures: bool = True) -> None:
        with monkeypatch.context() as m:  # made now, by the real build
            m.setattr(export, "build", real)
            exports.tree(fmt, figures)
        served.add((canonical_format(fmt), figures))
        monkeypatch.setattr(export, "build", build)

    return serve
