r"""``posproof check``: verify claims (in parallel where the platform forks) and report the results.

The report is the same in both forms: ``as_json`` for ``--json`` and ``as_text`` for the terminal."""

from __future__ import annotations

import json
import time

_CLAIMS: list = []  # the claims being checked, inherited by forked workers (claims hold closures: no pickling)


def _verify_one(job):
    index, dps = job
    return _CLAIMS[index].verify(dps=dps)


def verify_all(claims, dps: int, jobs: int) -> list:
    r"""Verify ``claims`` in order, on ``jobs`` forked processes where the platform can fork."""
    import multiprocessing as mp

    _CLAIMS[:] = claims
    work = [(k, dps) for k in range(len(claims))]
    if jobs > 1 and len(claims) > 1 and "fork" in mp.get_all_start_methods():
        with mp.get_context("fork").Pool(min(jobs, len(claims))) as pool:
            return pool.map(_verify_one, work, chunksize=1)
    return [_verify_one(w) for w in work]


def run(claims, dps: int, jobs: int, as_json: bool) -> int:
    r"""Verify ``claims`` and print the report; 0 if every claim verified, else 1."""
    t0 = time.perf_counter()
    results = verify_all(claims, dps, jobs)
    total = time.perf_counter() - t0
    n_ok = sum(r.ok for r in results)
    if as_json:
        totals = {
            "claims": len(results),
            "verified": n_ok,
            "failed": len(results) - n_ok,
            "dps": dps,
            "jobs": jobs,
            "seconds": round(total, 3),
        }
        print(json.dumps({"results": [r.as_dict() for r in results], "totals": totals}, indent=2))
    else:
        width = max(len(r.id) for r in results)
        for r in results:
            err = "computed" if r.numeric_max_rel_error is None else f"max rel err {r.numeric_max_rel_error:.1e}"
            print(f"{r.status:<8}  {r.id:<{width}}  {r.seconds:6.2f} s  {err}")
            if not r.ok:
                bad = [s.index for s in r.steps if not s.ok]
                print(f"          failing steps: {bad}  {r.detail}".rstrip())
        print(f"{n_ok} verified, {len(results) - n_ok} failed at {dps} digits in {total:.2f} s")
    return 0 if n_ok == len(results) else 1
