r"""``posproof check [ID ...] [--topic T] [-k PATTERN] [-x] [--dps N] [--jobs N] [--format text|json] [--junit FILE]
[-q] [--claims MODULE]``: verify claims (in parallel where the platform forks) and report the results.

The claims are the catalogue's, or with ``--claims MODULE`` a user's module's (its ``claims()``); the ids (all when
none), ``--topic`` (repeatable: any of them) and ``-k`` (repeatable: any of them; a case-insensitive substring of
the id, or a shell glob when the pattern has ``*``, ``?`` or ``[``) select among them, all three together. ``-x``
stops at the first failed claim.

The text report streams: each claim's line is printed as soon as it is known, in the catalogue's order, then one
summary line; on a terminal a progress bar runs on stderr meanwhile (not with ``-q``). ``--format json`` (or
``--json``) prints one document (``posproof.check/1``, :mod:`posproof.derivations.machine`) at the end;
``--junit FILE`` writes one JUnit test case per claim as well. Ctrl-C stops the workers and reports the claims
done (``interrupted after k of N claims``; ``"interrupted": true`` in the JSON totals), then exits 130.
"""

from __future__ import annotations

import contextlib
import fnmatch
import importlib
import json
import signal
import sys
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass

from posproof.derivations import args as cli_args
from posproof.derivations.args import UsageError, add_claims_option, select, user_claims
from posproof.symbolic.engine import settings

_CLAIMS: list = []  # the claims being checked, inherited by forked workers (claims hold closures: no pickling)


def _verify_one(job):
    index, dps = job
    return _CLAIMS[index].verify(dps=dps)


def _ignore_sigint() -> None:
    r"""A worker's initializer: Ctrl-C is the parent's to handle (it terminates the pool), never a worker's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def workers(claims, jobs: int) -> int:
    r"""The worker processes that verifying ``claims`` with ``jobs`` uses: 1 (this process) when serial."""
    import multiprocessing as mp

    if jobs > 1 and len(claims) > 1 and "fork" in mp.get_all_start_methods():
        return min(jobs, len(claims))
    return 1


def verify_each(claims, dps: int, jobs: int, *, pool: Workers | None = None) -> Generator:
    r"""The results of verifying ``claims``, in order, each as soon as it and those before it are known; on
    :func:`workers` forked processes when more than one. ``claims`` may be :class:`Listed` catalogue claims (built
    by the worker that verifies them: ``pool``, started before the catalogue was listed, or new workers). Closing
    the iterator (or an exception, Ctrl-C included) terminates the workers: no further claim is started."""
    import multiprocessing as mp

    claims = list(claims)
    listed = bool(claims) and all(isinstance(c, Listed) for c in claims)
    n = workers(claims, jobs)
    if listed and (n > 1 or pool is not None):
        own = pool is None
        pool = Workers(n) if pool is None else pool
        try:
            yield from pool.in_order([(c.module, c.index, dps) for c in claims])
        finally:
            if own:
                pool.close()
        return
    if listed:
        claims = [c.claim() for c in claims]
    _CLAIMS[:] = claims
    work = [(k, dps) for k in range(len(claims))]
    if n == 1:
        for w in work:
            yield _verify_one(w)
        return
    mp_pool = mp.get_context("fork").Pool(n, initializer=_ignore_sigint)
    try:
        yield from mp_pool.imap(_verify_one, work, chunksize=1)
    finally:
        mp_pool.terminate()
        mp_pool.join()


# ---- the catalogue built in the workers ---------------------------------------------------------------------


@dataclass(frozen=True)
class Listed:
    r"""A catalogue claim as the parent knows it while the workers build and verify it: its ``id``, ``topic`` and
    ``kind``, and where it is built (``module`` of the registry, ``index`` in that module's claims)."""

    id: str
    topic: str
    kind: str
    module: str
    index: int

    def claim(self):
        r"""The claim itself, built in this process."""
        from posproof.symbolic import registry

        return registry.module(self.module)[self.index]


def _serve(conn) -> None:
    r"""A worker's loop: each task ``(module, index, dps)`` builds the registry ``module`` (once per worker) and
    answers ``(True, value)``: the module's claims as :class:`Listed` when ``index`` is ``None``, else the result
    of verifying claim ``index``; ``(False, exception)`` when that raises. ``None`` ends the loop."""
    from posproof.symbolic import registry

    _ignore_sigint()
    while True:
        try:
            task = conn.recv()
        except EOFError:  # the parent is gone
            return
        if task is None:
            return
        module, index, dps = task
        try:
            claims = registry.module(module)
            if index is None:
                value = [Listed(c.id, c.topic, c.kind, module, k) for k, c in enumerate(claims)]
            else:
                value = claims[index].verify(dps=dps)
            conn.send((True, value))
        except Exception as e:  # the parent raises it (as the pool's workers' exceptions are raised)
            try:
                conn.send((False, e))
            except Exception:  # an exception that does not pickle: its text
                import traceback

                conn.send((False, RuntimeError("".join(traceback.format_exception(e)))))


class Workers:
    r"""``n`` forked worker processes, started before the catalogue is built: each builds the registry modules of
    the claims it is given (once each) and verifies them, so that the catalogue is built in parallel and no claim
    is pickled. A worker is given a task of a module it has built when there is one, so that a module is built by
    as few workers as the load allows."""

    def __init__(self, n: int):
        import multiprocessing as mp

        ctx = mp.get_context("fork")
        from posproof.symbolic import registry

        for name in registry.MODULES:  # imported once, here, rather than by every worker (their claims are not built)
            importlib.import_module(f"posproof.symbolic.{name}")
        self.conns: list = []
        self.procs: list = []
        self.built: list[set] = []
        try:
            for _ in range(n):
                here, there = ctx.Pipe()
                proc = ctx.Process(target=_serve, args=(there,), daemon=True)
                proc.start()
                there.close()
                self.conns.append(here)
                self.procs.append(proc)
                self.built.append(set())
        except BaseException:
            self.close()
            raise

    def __len__(self) -> int:
        return len(self.procs)

    def close(self) -> None:
        r"""Stop every worker now (a task in progress is abandoned)."""
        for proc in self.procs:
            if proc.is_alive():
                proc.terminate()
        for proc in self.procs:
            proc.join()
        for conn in self.conns:
            conn.close()
        self.procs, self.conns = [], []

    def _pick(self, w: int, pending: list) -> int:
        r"""The position in ``pending`` of the task for worker ``w``: the first of a module it has built, else the
        first of a module no worker has built, else the first of the module with the most tasks pending (the one
        module this worker builds again then gives it the most work of its own)."""
        mine = self.built[w]
        others = set().union(*(b for k, b in enumerate(self.built) if k != w))
        for want in (lambda m: m in mine, lambda m: m not in others):
            for k, (_, (module, _, _)) in enumerate(pending):
                if want(module):
                    return k
        count: dict = {}
        for _, (module, _, _) in pending:
            count[module] = count.get(module, 0) + 1
        most = max(count, key=lambda m: count[m])  # the first such module, in the pending order
        return next(k for k, (_, (module, _, _)) in enumerate(pending) if module == most)

    def unordered(self, tasks: list) -> Iterator[tuple[int, object]]:
        r"""``(position, value)`` for each task ``(module, index, dps)`` (:func:`_serve`), as the workers finish
        them; a task's exception is raised here."""
        from multiprocessing.connection import wait

        pending = list(enumerate(tasks))
        busy: dict = {}  # worker -> position of its task
        while pending or busy:
            for w in range(len(self.conns)):
                if w not in busy and pending:
                    position, task = pending.pop(self._pick(w, pending))
                    self.built[w].add(task[0])
                    self.conns[w].send(task)
                    busy[w] = position
            ready = wait([self.conns[w] for w in busy])
            for w in [w for w in busy if self.conns[w] in ready]:
                ok, value = self.conns[w].recv()
                position = busy.pop(w)
                if not ok:
                    raise value
                yield position, value

    def in_order(self, tasks: list) -> Iterator:
        r"""The tasks' values in order, each as soon as it and those before it are known."""
        done: dict = {}
        nxt = 0
        for position, value in self.unordered(tasks):
            done[position] = value
            while nxt in done:
                yield done.pop(nxt)
                nxt += 1

    def listing(self) -> list[Listed]:
        r"""The catalogue's claims as :class:`Listed`, in registry order, its modules built by the workers."""
        from posproof.symbolic import registry

        return [c for claims in self.in_order([(m, None, 0) for m in registry.MODULES]) for c in claims]


def verify_all(claims, dps: int, jobs: int) -> list:
    r"""Verify ``claims`` in order, on ``jobs`` forked processes where the platform can fork."""
    return list(verify_each(claims, dps, jobs))


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


def totals(
    results, dps: int, jobs: int, seconds: float, *, selected: int | None = None, interrupted: bool = False
) -> dict:
    r"""Counts per kind (theorems, definitions and facts apart) and overall; ``selected`` the claims selected
    (``claims`` counts those done: fewer when ``interrupted`` or stopped at the first failure); ``jobs`` the
    worker processes used."""
    out: dict = {"claims": len(results), "verified": sum(r.ok for r in results)}
    out["failed"] = out["claims"] - out["verified"]
    for kind in KINDS:
        mine = [r for r in results if r.kind == kind]
        out[kind + "s"] = {"verified": sum(r.ok for r in mine), "failed": sum(not r.ok for r in mine)}
    out["points"] = sum(s.numeric.points for r in results for s in r.steps)
    out["identical_steps"] = sum(s.numeric.status == "identical" for r in results for s in r.steps)
    out |= {"dps": dps, "jobs": jobs, "seconds": round(seconds, 3)}
    out |= {"selected": len(results) if selected is None else selected, "interrupted": interrupted}
    return out


def summary(t: dict) -> str:
    r"""The one-line summary: the same counts as the JSON totals, and why it stopped early if it did."""
    parts = [
        f"{t['theorems']['verified']} theorems proved",
        f"{t['definitions']['verified']} definitions checked against their code",
        f"{t['facts']['verified']} facts computed",
    ]
    failed = f"{t['failed']} failed" if t["failed"] else "none failed"
    line = f"{', '.join(parts)}; {failed} ({t['points']} numeric points at {t['dps']} digits, {t['seconds']:.2f} s)"
    selected = t.get("selected", t["claims"])
    if t.get("interrupted"):
        line += f"; interrupted after {t['claims']} of {selected} claims"
    elif t["claims"] < selected:
        line += f"; stopped at the first failure after {t['claims']} of {selected} claims"
    return line


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


def junit_cases(claims, results) -> list:
    r"""One JUnit case per claim done (``classname`` ``posproof.check.<topic>``); a failed claim is a failure
    whose message is the first line of its detail."""
    from posproof.derivations.machine import Case

    out = []
    for c, r in zip(claims[: len(results)], results, strict=True):  # the claims done are the first ones
        detail = _text(r.detail) if r.detail else ""
        failure = None if r.ok else (detail.splitlines()[0] if detail else f"{r.kind} {r.id} failed")
        out.append(Case(r.id, f"posproof.check.{c.topic}", r.seconds, failure=failure, detail=detail))
    return out


class _HeldCtrlC:
    r"""Ctrl-C (SIGINT) raises ``KeyboardInterrupt`` as usual, except inside :meth:`held`, which it leaves first."""

    def __init__(self) -> None:
        self.holding = self.pending = False

    def _handler(self, signum, frame) -> None:
        if self.holding:
            self.pending = True
        else:
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def installed(self):
        r"""This handler while the block runs, in the main thread, in place of Python's default one (a handler
        of the caller's own is left as it is)."""
        import threading

        if threading.current_thread() is not threading.main_thread():
            yield
            return
        old = signal.getsignal(signal.SIGINT)
        if old is not signal.default_int_handler:
            yield
            return
        signal.signal(signal.SIGINT, self._handler)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, old)

    @contextlib.contextmanager
    def held(self):
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
            if self.pending:
                self.pending = False
                raise KeyboardInterrupt


def report(
    claims,
    dps: int,
    jobs: int,
    as_json: bool = False,
    *,
    quiet: bool = False,
    exitfirst: bool = False,
    junit=None,
    pool: Workers | None = None,
) -> int:
    r"""Verify ``claims`` and print the report (text lines as each claim is known, or one JSON document); write
    JUnit XML to ``junit`` (a path checked by ``args.output_file``) when given. 0 if every claim verified, 1 if one
    failed (with ``exitfirst``, the first failure ends the run), :data:`~posproof.derivations.args.INTERRUPTED`
    on Ctrl-C, after reporting the claims done. ``pool``: the workers that listed ``claims`` (:class:`Listed`),
    to verify them; closed here."""
    from posproof.derivations.progress import Progress

    claims = list(claims)
    t0 = time.perf_counter()
    width = max((len(c.id) for c in claims), default=0)
    results: list = []
    interrupted = False
    ctrl_c = _HeldCtrlC()
    try:
        with (
            ctrl_c.installed(),
            Progress(len(claims), "checking", quiet=quiet) as bar,
            contextlib.closing(verify_each(claims, dps, jobs, pool=pool)) as each,
        ):
            for r in each:
                with ctrl_c.held():  # a result's line printed and the result counted, or neither
                    if not as_json:
                        bar.close()  # the bar off the line, for the result line on a shared terminal
                        print("\n".join(_line(r, width)), flush=True)
                    results.append(r)
                bar.advance()
                bar.note(r.id)
                if exitfirst and not r.ok:
                    break
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if pool is not None:
            pool.close()
    t = totals(
        results, dps, workers(claims, jobs), time.perf_counter() - t0, selected=len(claims), interrupted=interrupted
    )
    if as_json:
        from posproof.derivations.machine import document

        print(json.dumps(document("check", {"results": [r.as_dict() for r in results], "totals": t}), indent=2))
    else:
        print(summary(t))
    if junit is not None:
        from posproof.derivations.machine import write_junit

        write_junit(junit, "check", junit_cases(claims, results))
    if interrupted:
        print("posproof: interrupted", file=sys.stderr)
        return cli_args.INTERRUPTED
    return 0 if t["failed"] == 0 else 1


def add_parser(subparsers):
    from posproof.symbolic.registry import TOPICS

    s = subparsers.add_parser("check", help="verify claims symbolically and numerically")
    s.add_argument("ids", nargs="*", metavar="ID", help="claim ids to check (all when none; repeats count once)")
    s.add_argument(
        "--topic",
        action="append",
        metavar="T",
        help=f"only the claims of topic T ({', '.join(TOPICS)}, or a --claims module's own); repeat for any of several",
    )
    s.add_argument(
        "-k",
        action="append",
        dest="patterns",
        metavar="PATTERN",
        help="only the claims whose id contains PATTERN (any case), or matches it as a shell glob when it has "
        "*, ? or [; repeat for any of several",
    )
    s.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failed claim (exit 1)")
    s.add_argument(
        "--dps",
        metavar="N",
        default=str(settings.DEFAULT_DPS),
        help=f"significant digits of the numeric check, {settings.MIN_DPS} to {settings.MAX_DPS}",
    )
    s.add_argument(
        "--jobs",
        metavar="N",
        default="auto",
        help="worker processes: 'auto' (one per core) or a number, at most the cores",
    )
    cli_args.add_format_option(s)
    s.add_argument("--junit", metavar="FILE", default=None, help="also write the results as JUnit XML to FILE (.xml)")
    cli_args.add_quiet_option(s)
    add_claims_option(s)
    s.set_defaults(func=run)
    return s


def _topics(given: list[str] | None, known: tuple) -> list[str]:
    r"""The topics ``--topic`` names, each one of ``known``; a usage error with the closest otherwise."""
    import difflib

    for t in given or ():
        if t not in known:
            close = difflib.get_close_matches(t, known, n=3, cutoff=0.5)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise UsageError(f"--topic must be one of {', '.join(known)}; got {t!r}{hint}")
    return list(given or ())


def _patterns(given: list[str] | None) -> list[str]:
    for p in given or ():
        if not p.strip():
            raise UsageError(f"-k must be a non-empty pattern, got {p!r}")
    return list(given or ())


def matches(claim_id: str, pattern: str) -> bool:
    r"""Whether ``-k pattern`` selects ``claim_id``: a case-insensitive substring, or a shell glob of the whole id
    when the pattern has ``*``, ``?`` or ``[``.

    >>> matches("rope-block-relative", "BLOCK"), matches("rope-block-relative", "rope-*"), matches("rope-x", "x*")
    (True, True, False)
    """
    if any(ch in pattern for ch in "*?["):
        return fnmatch.fnmatchcase(claim_id.lower(), pattern.lower())
    return pattern.lower() in claim_id.lower()


def choose(ids: list[str], topics: list[str], patterns: list[str], claims: tuple | None = None) -> list:
    r"""The claims selected by ``ids`` (all when none), then ``--topic`` (any of ``topics``) and ``-k`` (any of
    ``patterns``); selecting none is a usage error naming the options."""
    chosen = select(ids, claims)
    if topics:
        chosen = [c for c in chosen if c.topic in topics]
    if patterns:
        chosen = [c for c in chosen if any(matches(c.id, p) for p in patterns)]
    if not chosen:
        parts = (["the ids given"] if ids else []) + [" or ".join(f"--topic {t}" for t in topics)] * bool(topics)
        parts += [" or ".join(f"-k {p!r}" for p in patterns)] * bool(patterns)
        raise UsageError(f"no claim matches {' and '.join(parts)}; run 'posproof list' for the ids and topics")
    return chosen


def _planned_workers(jobs: str) -> int:
    r"""The workers ``--jobs`` asks for (at most the cores), without the note :func:`cli_args.jobs_arg` prints."""
    import multiprocessing as mp

    if "fork" not in mp.get_all_start_methods():
        return 1
    n = cli_args.cores()
    return n if jobs == "auto" else min(n, int(jobs))


def run(args) -> int:
    from posproof.symbolic.registry import TOPICS

    fmt = cli_args.output_format(args.format, cli_args.REPORT_FORMATS)
    dps = cli_args.int_arg(args.dps, "--dps", settings.MIN_DPS, settings.MAX_DPS)
    if args.jobs != "auto":
        cli_args.int_arg(args.jobs, "--jobs", 1, cli_args.MAX_JOBS)
    junit = None if args.junit is None else cli_args.output_file(args.junit, "--junit", suffixes=(".xml",))
    patterns = _patterns(args.patterns)
    if args.claims is not None and not args.claims.strip():
        raise UsageError(f"--claims must name a module or a .py file, got {args.claims!r}")
    pool = None
    if args.claims is None:
        topics, claims = _topics(args.topic, TOPICS), None
    else:
        claims = user_claims(args.claims)
        assert claims is not None  # --claims was given
        topics = _topics(args.topic, tuple(dict.fromkeys((*TOPICS, *(c.topic for c in claims)))))
    if claims is None and not args.ids and _planned_workers(args.jobs) > 1:
        # the whole catalogue (or its topics, -k): the workers first, then the catalogue built in them (in
        # parallel), each claim verified where it was built; ids given are looked up in this process
        pool = Workers(_planned_workers(args.jobs))
        try:
            chosen = choose([], topics, patterns, tuple(pool.listing()))  # no ids: a topic, -k or all
        except BaseException:
            pool.close()
            raise
    else:
        chosen = choose(args.ids, topics, patterns, claims)
    jobs = cli_args.jobs_arg(args.jobs)  # last: its note on stderr only for a command line that runs
    return report(chosen, dps, jobs, fmt == "json", quiet=args.quiet, exitfirst=args.exitfirst, junit=junit, pool=pool)
