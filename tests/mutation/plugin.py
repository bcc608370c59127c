r"""The mutation runner's pytest plugin (``pytest -p tests.mutation.plugin``): it records which tests failed and
which passed, and can run exactly a given list of tests.

- ``POSPROOF_MUTATE_RECORD=path``: write ``{"failed": [...], "passed": [...]}`` (test ids; a module that failed to
  collect is failed under its own id) to ``path`` when the session ends;
- ``POSPROOF_MUTATE_SELECT=path``: run only the tests whose ids the JSON list in ``path`` names (the runner passes
  their files; selecting by id here spares a command line of parametrized ids).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

RECORD = "POSPROOF_MUTATE_RECORD"
SELECT = "POSPROOF_MUTATE_SELECT"

_failed: set[str] = set()
_passed: set[str] = set()


def pytest_collection_modifyitems(config, items):
    path = os.environ.get(SELECT)
    if not path:
        return
    keep = set(json.loads(Path(path).read_text(encoding="utf-8")))
    config.hook.pytest_deselected(items=[item for item in items if item.nodeid not in keep])
    items[:] = [item for item in items if item.nodeid in keep]


def pytest_collectreport(report):
    if report.failed:
        _failed.add(report.nodeid)


def pytest_runtest_logreport(report):
    if report.failed:
        _failed.add(report.nodeid)
    elif report.passed and report.when == "call":
        _passed.add(report.nodeid)


def pytest_sessionfinish(session):
    path = os.environ.get(RECORD)
    if path:
        record = {"failed": sorted(_failed), "passed": sorted(_passed - _failed)}
        Path(path).write_text(json.dumps(record), encoding="utf-8")
