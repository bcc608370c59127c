r"""``posproof check`` on the catalogue with more than one worker: the workers are forked first and build the
catalogue's modules themselves (:class:`check.Workers`), the parent lists ids and topics only."""

from __future__ import annotations

import json

import pytest
from posproof.derivations import args as cli_args
from posproof.derivations.cli import main
from posproof.derivations.commands import check
from posproof.symbolic import registry


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def two_cores(monkeypatch):
    monkeypatch.setattr(cli_args, "cores", lambda: 2)
    registry.all()  # built here once: the forked workers find it built (the test is about the plumbing)


@pytest.mark.slow  # the whole catalogue is built (once per process)
def test_the_catalogue_checked_by_the_workers_reports_in_the_catalogues_order(capsys, two_cores):
    argv = ("--topic", "lemmas", "--topic", "order", "-k", "lemma-*", "-k", "binary-*", "--jobs", "2", "--json")
    code, out, err = run(capsys, "check", *argv)
    doc = json.loads(out)
    want = [c.id for c in registry.all() if c.id.startswith(("lemma-", "binary-"))]  # order's, then the lemmas
    assert code == 0 and err == "" and [r["id"] for r in doc["results"]] == want
    assert doc["totals"] | {"seconds": 0} == doc["totals"] | {"verified": len(want), "jobs": 2, "seconds": 0}


@pytest.mark.slow  # the whole catalogue is built (once per process)
def test_selecting_nothing_among_the_listed_claims_is_a_usage_error(capsys, two_cores):
    code, out, err = run(capsys, "check", "-k", "no-such-claim", "--jobs", "2")
    assert code == 2 and out == ""
    assert err == "posproof: error: no claim matches -k 'no-such-claim'; run 'posproof list' for the ids and topics\n"


def test_listed_claims_are_the_registrys():
    listed = check.Listed("rope-block-relative", "rope", "theorem", "rope.rotary", 0)
    assert listed.claim() is registry.module("rope.rotary")[0]


def _pool(built: list[set]) -> check.Workers:
    pool = check.Workers.__new__(check.Workers)  # no processes: the choice of task only
    pool.built = built
    return pool


def test_a_worker_takes_a_claim_of_a_module_it_has_built_first():
    pending = [(0, ("a", 0, 50)), (1, ("b", 0, 50)), (2, ("b", 1, 50))]
    assert _pool([{"b"}, {"a"}])._pick(0, pending) == 1
    assert _pool([{"b"}, {"a"}])._pick(1, pending) == 0


def test_a_worker_without_claims_of_its_own_builds_the_module_with_most_claims_pending():
    pending = [(0, ("a", 0, 50)), (1, ("b", 0, 50)), (2, ("b", 1, 50))]
    assert _pool([{"c"}, {"a", "b"}])._pick(0, pending) == 1
    assert _pool([set(), {"a"}])._pick(0, pending) == 1  # a module no worker has built comes before any


def test_a_workers_exception_is_raised_in_the_parent():
    pool = check.Workers(1)
    try:
        with pytest.raises(ValueError, match="module must be one of"):
            list(pool.unordered([("no.such.module", None, 0)]))
    finally:
        pool.close()
