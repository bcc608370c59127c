r"""``posproof check [ID ...] [--dps N] [--jobs N] [--json] [--claims MODULE]``: verify claims (in parallel where the
platform forks) and report the results. With ``--claims MODULE`` the claims are a user's module's (its
``claims()``), instead of the catalogue's; the ids then select among them.

The report is the same in both forms: ``as_json`` for ``--json`` and ``as_text`` for the terminal."""

from __future__ import annotations

import json
import os
import time

from posproof.derivations.args import add_claims_option, int_arg, select, user_claims
from posproof.symbolic.engine import settings

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


def check(claims=None, *, dps: int | None = None, jobs: int = 1) -> list:
    r"""Verify claims and return their results (``VerifyResult``), in order.

    ``claims``: claim objects or catalogue ids (default: the whole catalogue); ``dps``: working digits (default
    the engine's); ``jobs``: forked worker processes.

    >>> [r.ok for r in check(["rope-complex-relative"], dps=30)]
    [True]
    """
    from posproof.symbolic import registry
    from posproof.symbolic.engine import settings

    chosen = registry.all() if claims is None else [registry.get(c) if isinstance(c, str) else c for c in claims]
    return verify_all(list(chosen), settings.DEFAULT_DPS if dps is None else dps, jobs)


#: What a verified claim of each kind is called in the terminal: a theorem is proved, a definition's
#: implementation agrees with its formula, a fact is computed. None of them is called what it is not.
VERBS = {"theorem": "proved", "definition": "defined", "fact": "computed"}
KINDS = ("theorem", "definition", "fact")


def totals(results, dps: int, jobs: int, seconds: float) -> dict:
    r"""Counts per kind (theorems, definitions and facts apart) and overall."""
    out: dict = {"claims": len(results), "verified": sum(r.ok for r in results)}
    out["failed"] = out["claims"] - out["verified"]
    for kind in KINDS:
        mine = [r for r in results if r.kind == kind]
        out[kind + "s"] = {"verified": sum(r.ok for r in mine), "failed": sum(not r.ok for r in mine)}
    out["points"] = sum(s.numeric.points for r in results for s in r.steps)
    out["identical_steps"] = sum(s.numeric.status == "identical" for r in results for s in r.steps)
    out |= {"dps": dps, "jobs": jobs, "seconds": round(seconds, 3)}
    return out


def summary(t: dict) -> str:
    r"""The one-line summary: the same counts as the JSON totals."""
    parts = [
        f"{t['theorems']['verified']} theorems proved",
        f"{t['definitions']['verified']} definitions checked against their code",
        f"{t['facts']['verified']} facts computed",
    ]
    failed = f"{t['failed']} failed" if t["failed"] else "none failed"
    return f"{', '.join(parts)}; {failed} ({t['points']} numeric points at {t['dps']} digits, {t['seconds']:.2f} s)"


def _text(prose_: str) -> str:
    r"""Prose for the terminal (a fact's method, a failure's detail with the computed rows' labels): its ``$...$``
    math as Unicode, as ``posproof derive --format text`` prints it; prose with an unpaired ``$`` as it is.

    >>> _text(r"$\varphi(5, 0) < \varphi(0, 5)$ = True")
    'φ(5, 0) < φ(0, 5) = True'
    """
    from posproof.printing.prose import prose

    try:
        return prose(prose_, "text")
    except ValueError:
        return prose_


def _line(r, width: int) -> list[str]:
    status = VERBS[r.kind] if r.ok else "FAILED"
    if r.kind == "fact":
        what = _text(r.method)
    else:
        states = [s.numeric.status for s in r.steps]
        err = "" if r.numeric_max_rel_error is None else f", max rel err {r.numeric_max_rel_error:.1e}"
        what = f"numeric {'/'.join(sorted(set(states)))}{err}"
    out = [f"{status:<8}  {r.id:<{width}}  {r.seconds:6.2f} s  {what}"]
    if not r.ok:
        out.append(f"          {_text(r.detail)}".rstrip())
    return out


def report(claims, dps: int, jobs: int, as_json: bool) -> int:
    r"""Verify ``claims`` and print the report; 0 if every claim verified, else 1."""
    t0 = time.perf_counter()
    results = verify_all(claims, dps, jobs)
    t = totals(results, dps, jobs, time.perf_counter() - t0)
    if as_json:
        print(json.dumps({"results": [r.as_dict() for r in results], "totals": t}, indent=2))
    else:
        width = max(len(r.id) for r in results)
        for r in results:
            print("\n".join(_line(r, width)))
        print(summary(t))
    return 0 if t["failed"] == 0 else 1


def add_parser(subparsers):
    s = subparsers.add_parser("check", help="verify claims symbolically and numerically")
    s.add_argument("ids", nargs="*", metavar="ID", help="claim ids to check (all when none; repeats count once)")
    s.add_argument(
        "--dps",
        default=str(settings.DEFAULT_DPS),
        help=f"significant digits of the numeric check, {settings.MIN_DPS} to {settings.MAX_DPS}",
    )
    s.add_argument("--jobs", default="auto", help="worker processes: 'auto' (one per core) or a number")
    s.add_argument("--json", action="store_true", help="the report as JSON")
    add_claims_option(s)
    s.set_defaults(func=run)
    return s


def run(args) -> int:
    dps = int_arg(args.dps, "--dps", settings.MIN_DPS, settings.MAX_DPS)
    jobs = os.cpu_count() or 1 if args.jobs == "auto" else int_arg(args.jobs, "--jobs", 1)
    return report(select(args.ids, user_claims(args.claims)), dps, jobs, args.json)
