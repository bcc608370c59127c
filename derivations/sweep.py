r"""What ``posproof sweep`` runs: its targets, the per-target worker, the JSON lines and where they run.

A target is a transformers configuration (a ``*.json`` file, or every ``*.json`` file of a directory), a
``model_type`` name, or a function ``MODULE:FUNCTION``; ``@FILE`` lists targets, one a line. The per-target worker,
:func:`run_target`, audits one target as ``posproof audit ... --format json`` does, in a process apart from the
sweep's: a warm audit process (:mod:`posproof.derivations.sweep_server`, one per worker thread, which imports
posproof, torch and transformers once and runs each target's audit command line, whose audit runs the audited code in
its isolation child). A target that hangs, crashes or refuses its options ends as a result line, never the sweep; an
audit process past its time is killed, and the next target starts a fresh one. The same worker runs on local processes
(:func:`local_results`: threads, each with its audit process) and on a Dask distributed cluster
(:func:`dask_results`: each worker thread keeps its audit process for the next sweep); ``distributed`` is imported
only when it is asked for (:func:`connect`).

One result per target, a JSON line of schema ``posproof.sweep/1`` (``derivations/schemas/sweep.schema.json``):
``target``, ``kind``, ``status`` (``conforms``, ``findings``, ``error``, ``timeout``), ``findings`` (their ids),
``report`` (the audit's ``posproof.audit/1`` document, ``null`` when the audit printed none), ``error`` (the
one-line message of an ``error`` or a ``timeout`` without a report, else ``null``) and ``seconds`` (wall time: the
only field that differs between two runs of the same targets).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Generator, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from posproof.derivations.args import UsageError
from posproof.derivations.audited import split_target
from posproof.derivations.machine import schema_id

#: What a target is: a function ``MODULE:FUNCTION``, a configuration file, or a ``model_type`` name.
KINDS = ("function", "config", "model_type")
#: The outcome of a target.
STATUSES = ("conforms", "findings", "error", "timeout")
#: Seconds a target's audit process gets beyond ``--timeout`` (which the audit's own clock counts from the moment the
#: audited code is imported) before it is killed: Python, posproof, torch and transformers importing, the
#: configuration read and checked, the report printed.
KILL_GRACE = 30.0
#: The longest ``@FILE`` list read (a line per target: a million short targets).
MAX_LIST_BYTES = 2**24
#: Seconds to wait for a Dask scheduler to answer.
CONNECT_TIMEOUT = 10.0
#: A ``model_type`` as transformers spells them (``llama``, ``qwen2_vl``, ``xlm-roberta``).
_MODEL_TYPE = re.compile(r"[a-z0-9][a-z0-9_-]*")
#: The prefix of ``posproof``'s one-line usage errors.
_ERROR = "posproof: error: "


@dataclass(frozen=True)
class Target:
    r"""One target of a sweep: ``spec`` as written (a directory's files as ``DIR/NAME.json``) and its ``kind``."""

    spec: str
    kind: str


# ---- the targets -----------------------------------------------------------------------------------------------------


def expand_targets(texts: Sequence[str]) -> list[Target]:
    r"""The targets the command line names, in its order (a directory's ``*.json`` files by name; ``@FILE``'s lines
    where it stands), each once. Paths are checked here, before any work: a usage error names what is wrong."""
    out: dict[str, Target] = {}
    for text in texts:
        if text.startswith("@"):
            for line in _listed(text):
                for t in _targets(line, f"{text}: "):
                    out.setdefault(t.spec, t)
        else:
            for t in _targets(text, ""):
                out.setdefault(t.spec, t)
    if not out:
        raise UsageError("no targets: name config files, a directory of them, model_types or MODULE:FUNCTION")
    return list(out.values())


def _listed(text: str) -> list[str]:
    r"""The targets of ``@FILE``: one a line, blank lines and ``#`` comments skipped."""
    path = Path(text[1:])
    if not text[1:] or "\0" in text:
        raise UsageError(f"@FILE needs a file name after @, got {text!r}")
    if path.is_dir():
        raise UsageError(f"{text}: a directory, not a list of targets (name the directory without @)")
    try:
        if path.stat().st_size > MAX_LIST_BYTES:
            raise UsageError(f"{text}: more than {MAX_LIST_BYTES} bytes, not a list of targets")
        raw = path.read_bytes()
    except OSError as e:
        raise UsageError(f"{text}: cannot read {path}: {e.strerror or e}") from None
    try:
        lines = raw.decode("utf-8").splitlines()
    except UnicodeDecodeError as e:
        raise UsageError(f"{text}: not UTF-8 text (byte {e.start})") from None
    out = [s for s in (line.strip() for line in lines) if s and not s.startswith("#")]
    nested = [s for s in out if s.startswith("@")]
    if nested:
        raise UsageError(f"{text}: a list of targets cannot name another list, got {nested[0]!r}")
    return out


def _targets(text: str, where: str) -> list[Target]:
    r"""The targets one argument names; ``where`` prefixes a usage error (the ``@FILE`` it came from)."""
    if not text or "\0" in text:
        raise UsageError(f"{where}a target must not be empty nor hold a NUL character, got {text!r}")
    path = Path(text)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix == ".json" and p.is_file())
        if not files:
            raise UsageError(f"{where}{text}: a directory without *.json config files")
        return [Target(str(path / p.name), "config") for p in files]
    if path.is_file() and path.suffix.lower() == ".json":
        return [Target(text, "config")]
    if ":" in text and not path.is_file():
        try:
            split_target(text)
        except UsageError as e:
            raise UsageError(f"{where}{e}") from None
        return [Target(text, "function")]
    if path.suffix.lower() == ".json":
        raise UsageError(f"{where}{text}: no such config file")
    if path.is_file():
        raise UsageError(f"{where}{text}: neither a *.json config nor MODULE:FUNCTION (a .py file needs :FUNCTION)")
    if _MODEL_TYPE.fullmatch(text):
        return [Target(text, "model_type")]
    raise UsageError(
        f"{where}{text!r} is not a target: a directory, a *.json config, a model_type (e.g. llama) or MODULE:FUNCTION"
    )


# ---- the per-target worker -------------------------------------------------------------------------------------------

#: The warm audit processes this process started (one per worker thread; killed when a local sweep ends or is
#: interrupted: they run in sessions of their own, so that the terminal's Ctrl-C does not reach them and make them
#: report an interruption as a target's result).
_RUNNING: set[subprocess.Popen] = set()
_LOCK = threading.Lock()


def result(target: Target, status: str, *, findings: Sequence[str] = (), report=None, error=None, seconds=0.0) -> dict:
    r"""A result line: the ``posproof.sweep/1`` object of ``target``."""
    return {
        "schema": schema_id("sweep"),
        "target": target.spec,
        "kind": target.kind,
        "status": status,
        "findings": list(findings),
        "report": report,
        "error": error,
        "seconds": round(seconds, 3),
    }


def run_target(target: Target, argv: Sequence[str], *, timeout: float, cwd: str) -> dict:
    r"""Audit one target: ``posproof audit ARGV`` (``argv``: the audit's command line after ``audit``, its
    ``--timeout`` and ``--format json`` included) in ``cwd`` (the sweep's directory: where ``MODULE`` imports from),
    run by this thread's warm audit process (:mod:`posproof.derivations.sweep_server`), which is killed after
    ``timeout`` seconds; its result line. The same on local processes and on a Dask worker."""
    start = time.perf_counter()
    if not os.path.isdir(cwd):
        return result(target, "error", error=f"the sweep's working directory {cwd} does not exist here")
    process = _warm(cwd)
    reply: list[bytes] = []

    def read() -> None:
        try:
            reply.append(process.stdout.readline())  # type: ignore[union-attr]
        except (OSError, ValueError):  # killed and closed meanwhile
            pass

    reader = threading.Thread(target=read, name="posproof-sweep-reply", daemon=True)
    try:
        request = json.dumps({"argv": list(argv), "cwd": cwd}) + "\n"
        process.stdin.write(request.encode("utf-8"))  # type: ignore[union-attr]
        process.stdin.flush()  # type: ignore[union-attr]
    except OSError:  # it ended before reading: reported below by its exit status
        pass
    reader.start()
    reader.join(timeout)
    seconds = time.perf_counter() - start
    if reader.is_alive():
        _forget(process, killed=True)
        reader.join()
        message = f"the audit did not finish within {timeout:g} s (killed)"
        return result(target, "timeout", error=message, seconds=seconds)
    line = reply[0] if reply else b""
    try:
        answer = json.loads(line)
        code, out, err = int(answer["code"]), str(answer["out"]), str(answer["err"])
    except (ValueError, KeyError, TypeError):
        _forget(process, killed=True)
        status = process.wait()
        return result(target, "error", error=f"the audit process ended with status {status}", seconds=seconds)
    return read_audit(target, code, out, err, seconds)


#: Each thread's warm audit process.
_LOCAL = threading.local()


def _warm(cwd: str) -> subprocess.Popen:
    r"""This thread's warm audit process, started now if it has none or its last one ended."""
    process = getattr(_LOCAL, "process", None)
    if process is not None and process.poll() is None:
        return process
    process = subprocess.Popen(
        [sys.executable, "-m", "posproof.derivations.sweep_server"],
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # what the audited code prints (the command's own output comes in the replies)
        start_new_session=os.name == "posix",
    )
    _LOCAL.process = process
    with _LOCK:
        _RUNNING.add(process)
    return process


def _forget(process: subprocess.Popen, *, killed: bool) -> None:
    if killed:
        kill(process)
    with _LOCK:
        _RUNNING.discard(process)
    for stream in (process.stdin, process.stdout):
        try:
            stream.close()  # type: ignore[union-attr]
        except OSError:
            pass
    process.wait()


def read_audit(target: Target, code: int, out: str, err: str, seconds: float) -> dict:
    r"""The result line of an audit that ended with exit status ``code``, printing ``out`` and ``err``."""
    lines = err.splitlines()
    if code == 2:
        said = [line for line in lines if line.startswith(_ERROR)]
        message = said[-1].removeprefix(_ERROR) if said else (lines[-1] if lines else "a usage error")
        return result(target, "error", error=message, seconds=seconds)
    if code not in (0, 1):
        last = lines[-1] if lines else ""
        return result(target, "error", error=f"posproof audit exited with status {code}: {last}", seconds=seconds)
    try:
        report = json.loads(out)
        reports = report["reports"]
    except (ValueError, KeyError, TypeError):
        last = f": {lines[-1]}" if lines else ""
        return result(target, "error", error=f"posproof audit printed no JSON report{last}", seconds=seconds)
    ids = list(dict.fromkeys(f["id"] for r in reports for f in r["findings"]))
    status = "conforms" if code == 0 else "timeout" if "process-timeout" in ids else "findings"
    return result(target, status, findings=ids, report=report, seconds=seconds)


def kill(process: subprocess.Popen) -> None:
    r"""Kill an audit process and what it started (its session: the audit's isolation child)."""
    try:
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
        else:  # pragma: no cover - Windows
            process.kill()
    except (ProcessLookupError, PermissionError):
        pass


def kill_running() -> None:
    r"""Kill every audit process this process started that still runs (a sweep that ended or was interrupted)."""
    with _LOCK:
        running = list(_RUNNING)
    for process in running:
        _forget(process, killed=True)


# ---- where the worker runs -------------------------------------------------------------------------------------------

#: A call of the worker: the target, the audit's command line, the seconds before it is killed.
Call = tuple[Target, tuple[str, ...], float]


def local_results(calls: Sequence[Call], jobs: int, cwd: str) -> Generator[dict, None, None]:
    r"""The results of ``calls`` as they complete, ``jobs`` audit processes at a time on this machine."""
    if not calls:
        return
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="posproof-sweep")
    try:
        pending: set[Future] = {pool.submit(run_target, t, a, timeout=s, cwd=cwd) for t, a, s in calls}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        kill_running()


def connect(address: str):
    r"""A Dask ``distributed.Client`` of the scheduler at ``address``, before any target runs (``distributed`` is
    imported here, and only here); a usage error naming ``--scheduler`` when it is not installed or does not
    answer within :data:`CONNECT_TIMEOUT` seconds."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError(
            "--scheduler needs Dask's distributed (pip install 'posproof[sweep]'), which is not installed"
        ) from None
    import asyncio

    from distributed.comm import connect as open_comm

    async def probe() -> None:  # a scheduler that does not answer: one line (a Client that failed to connect
        comm = await open_comm(address, timeout=CONNECT_TIMEOUT)  # would print a traceback as it is collected)
        await comm.close()

    try:
        asyncio.run(probe())
    except (OSError, ValueError, TypeError) as e:
        raise UsageError(f"--scheduler {address}: cannot connect: {_first(e)}") from None
    return Client(address, timeout=f"{CONNECT_TIMEOUT:g}s", set_as_default=False)


def dask_results(client, calls: Sequence[Call], cwd: str) -> Generator[dict, None, None]:
    r"""The results of ``calls`` as they complete on the Dask cluster of ``client`` (:func:`connect`), which is
    closed at the end."""
    from distributed import as_completed

    run = uuid.uuid4().hex[:12]
    try:
        futures = [
            client.submit(run_target, t, a, timeout=s, cwd=cwd, pure=False, key=f"posproof-sweep-{run}-{i}")
            for i, (t, a, s) in enumerate(calls)
        ]
        for future in as_completed(futures, loop=client.loop):
            yield future.result()
    finally:
        client.close()


def _first(e: BaseException) -> str:
    text = str(e) or type(e).__name__
    return text.splitlines()[0][:200]


# ---- the results file ------------------------------------------------------------------------------------------------


def read_results(path: Path, flag: str = "--out") -> dict[str, dict]:
    r"""The results already in ``path`` (``--resume``), by target: every complete line; a last line cut short (an
    interrupted write) is dropped, so that its target runs again. A missing file holds none. Any other line that
    is not a result is a usage error."""
    if not path.exists():
        return {}
    try:
        text = path.read_bytes().decode("utf-8", "replace")
    except OSError as e:
        raise UsageError(f"{flag} {path}: cannot read: {e.strerror or e}") from None
    lines = text.split("\n")
    done: dict[str, dict] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        last = number == len(lines)  # no newline after it: the write was cut
        try:
            value = json.loads(line)
        except ValueError:
            if last:
                break
            raise UsageError(
                f"{flag} {path}: line {number} is not a JSON result (start again without --resume)"
            ) from None
        if not (isinstance(value, dict) and value.get("schema") == schema_id("sweep") and "target" in value):
            if last:
                break
            raise UsageError(f"{flag} {path}: line {number} is not a {schema_id('sweep')} result")
        done[str(value["target"])] = value
    return done


def encode(line: dict) -> str:
    r"""One result as its line of the file (no newline inside: JSON without indentation)."""
    return json.dumps(line, ensure_ascii=False, separators=(", ", ": "))


def ordered(results: dict[str, dict], targets: Iterable[Target]) -> list[dict]:
    r"""The results in the targets' order, then any the file held for targets not named this time (in its order)."""
    specs = [t.spec for t in targets]
    named = [results[s] for s in specs if s in results]
    others = [line for spec, line in results.items() if spec not in set(specs)]
    return named + others


def write_results(path: Path, lines: Iterable[dict]) -> None:
    r"""Write the results file whole, atomically (the final file: ordered, whatever order the targets finished in)."""
    from posproof.numeric import _io

    _io.write_atomic(path, "".join(encode(line) + "\n" for line in lines).encode("utf-8"))


class Appender:
    r"""The results file while a sweep runs: started with the results ``kept`` (a cut last line dropped), then one
    line appended and flushed per finished target, so that an interruption keeps every result finished before it."""

    def __init__(self, path: Path, kept: Iterable[dict]):
        write_results(path, kept)
        self._handle = path.open("a", encoding="utf-8")

    def __enter__(self) -> Appender:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        r"""Close the file (what was appended stays)."""
        self._handle.close()

    def append(self, line: dict) -> None:
        r"""Append one result and flush it."""
        self._handle.write(encode(line) + "\n")
        self._handle.flush()
