r"""Audited code runs in a child process, so that what it does to its process cannot end posproof silently.

A function under audit can call ``os._exit(0)``, raise ``SystemExit(3)`` or ``KeyboardInterrupt``, crash the
interpreter (a segfault) or never return. In posproof's own process each of these would end the audit with no
report, and an exit status CI reads as a verdict. :func:`run_isolated` runs ``work(send, *args)`` in a child
process instead; the child sends what it has (progress, the finished reports) with ``send(message)``, and the
parent hands each message to ``on_message`` as it arrives. When the child ends before ``work`` returns, or does
not finish within ``timeout`` seconds (it is then killed), :func:`run_isolated` returns an :class:`Ended` saying
how, and :func:`process_report` makes that a :class:`~posproof.numeric.audit.report.ProcessReport`: a finding like
any other (exit 1), never a silent exit.

Where the platform has ``fork`` and forking is safe (Linux and the other POSIX systems except macOS), the child is
forked: it starts in milliseconds with what the parent imported. Elsewhere (macOS, whose system libraries are not
safe to use in a forked child, and Windows, which has no ``fork``) it is spawned: a fresh interpreter imports
posproof and ``work``'s module again (about a second more), so ``work`` and ``args`` must be picklable and the
audited function importable by name. A crash there is reported by its exit status (Windows has no signals:
``0xC0000005`` is an access violation).

The child ignores Ctrl-C (the parent, which gets it too, kills the child and reports the interruption), and its
standard output goes to standard error: what the audited code prints never mixes with the report on stdout. A
forked child of a parent that has imported torch runs torch on one thread (torch's OpenMP thread pool does not
survive a fork: a parent that used it leaves a child that hangs at its first parallel operation).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys
import time
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any

from posproof.numeric.audit.report import PROCESS_FINDINGS, Finding, ProcessReport

#: Seconds a child that said it finished may take to exit before it is killed (a thread it left running).
EXIT_GRACE = 2.0
#: The longest text of an exception kept in a report.
EXCEPTION_TEXT = 200
#: Windows exit statuses of crashes, by name.
_WINDOWS_CRASHES = {0xC0000005: "an access violation", 0xC00000FD: "a stack overflow", 0xC0000409: "a fail-fast abort"}

_DONE, _RAISED, _ERROR = "posproof.isolate.done", "posproof.isolate.raised", "posproof.isolate.error"


@dataclass(frozen=True)
class Ended:
    r"""How a child ended that did not finish its work: ``event`` is ``"exit"`` (it exited, with ``exit_status``),
    ``"raised"`` (``exception``, a ``BaseException`` that is not an ``Exception``, e.g. ``"SystemExit(3)"``),
    ``"signal"`` (killed by ``signal``, e.g. ``"SIGSEGV"``) or ``"timeout"`` (still running after ``timeout``
    seconds, then killed)."""

    event: str
    exit_status: int | None = None
    signal: str | None = None
    exception: str | None = None
    timeout: float | None = None

    @property
    def id(self) -> str:
        r"""The finding id of :data:`~posproof.numeric.audit.report.PROCESS_FINDINGS`."""
        return {"exit": "process-exit", "raised": "process-raised", "signal": "process-crashed"}.get(
            self.event, "process-timeout"
        )

    def describe(self) -> str:
        r"""What the code did, as a verb phrase: ``called os._exit(0)``, ``raised SystemExit(3)``, ``crashed with
        SIGSEGV``, ``did not return within 5 s``."""
        if self.event == "exit":
            crash = _WINDOWS_CRASHES.get((self.exit_status or 0) & 0xFFFFFFFF) if sys.platform == "win32" else None
            if crash is not None:
                return f"crashed with {crash} (exit status {self.exit_status:#x})"
            return f"called os._exit({self.exit_status}) (or exited from C code)"
        if self.event == "raised":
            return f"raised {self.exception}"
        if self.event == "signal":
            return f"crashed with {self.signal}"
        return f"did not return within {self.timeout:g} s"

    def as_dict(self) -> dict:
        return {
            "event": self.event,
            "exit_status": self.exit_status,
            "signal": self.signal,
            "exception": self.exception,
            "timeout": self.timeout,
        }


def process_report(scheme: str, function: str, ended: Ended, stage: str | None = None) -> ProcessReport:
    r"""The report of an audit of ``function`` that ``ended`` stopped (``stage``: what the audit was doing)."""
    at = f" (stage: {stage})" if stage else ""
    message = f"{function} {ended.describe()} while being audited{at}: the audit could not finish"
    finding = Finding(ended.id, message)
    assert finding.id in PROCESS_FINDINGS
    return ProcessReport(scheme, function, (finding,), {**ended.as_dict(), "stage": stage})


class IsolatedError(RuntimeError):
    r"""The child's own code (posproof's, not the audited code) raised: the message holds its traceback."""


def start_method() -> str:
    r"""``"fork"`` where the platform has it and it is safe (not macOS), else ``"spawn"``."""
    if sys.platform != "darwin" and "fork" in multiprocessing.get_all_start_methods():
        return "fork"
    return "spawn"


def _jax_ran() -> bool:
    r"""Whether this process has started a JAX backend (its compiler's threads): ``jax._src.xla_bridge`` holds it."""
    bridge = sys.modules.get("jax._src.xla_bridge")
    return bool(getattr(bridge, "_backends", None))


def _picklable(work: Callable, args: tuple) -> bool:
    r"""Whether a spawned child can be given ``work(send, *args)``."""
    try:
        pickle.dumps((work, args))
    except Exception:  # noqa: BLE001 - a lambda, a local function, an open resource
        return False
    return True


def exception_text(e: BaseException) -> str:
    r"""``SystemExit(3)``, ``KeyboardInterrupt``: the exception's type and arguments, at most
    :data:`EXCEPTION_TEXT` characters."""
    text = type(e).__name__ + (f"({', '.join(repr(a) for a in e.args)})" if e.args else "")
    return text if len(text) <= EXCEPTION_TEXT else text[: EXCEPTION_TEXT - 3] + "..."


def _child(conn, work: Callable, args: tuple) -> None:
    r"""The child's entry point: run ``work(send, *args)`` and say how it ended."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    except (ValueError, OSError):  # pragma: no cover - not the main thread
        pass
    try:
        sys.stdout.flush()
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # the audited code's prints go to stderr
    except (OSError, ValueError, AttributeError):  # no real stdout/stderr (an embedding, a test's capture)
        pass
    torch = sys.modules.get("torch")
    if torch is not None and start_method() == "fork":
        # torch's OpenMP pool does not survive a fork: a parent that ran torch ops leaves a child that would wait
        # forever for the pool's threads at its first parallel op. One thread runs them serially (as PyTorch's own
        # DataLoader workers do).
        torch.set_num_threads(1)
    try:
        work(conn.send, *args)
    except Exception:  # noqa: BLE001 - posproof's own error: the parent re-raises it with this traceback
        conn.send((_ERROR, traceback.format_exc()))
    except BaseException as e:  # noqa: BLE001 - SystemExit, KeyboardInterrupt, ... from the audited code
        conn.send((_RAISED, exception_text(e)))
    else:
        conn.send((_DONE,))
    conn.close()


def run_isolated(
    work: Callable, args: tuple = (), *, timeout: float, on_message: Callable[[object], None] = lambda m: None
) -> Ended | None:
    r"""Run ``work(send, *args)`` in a child process (see the module docstring); each ``send(message)`` of the child
    reaches ``on_message(message)`` here. ``None`` when ``work`` returned; an :class:`Ended` when the child exited,
    raised a ``BaseException`` or was killed by a signal first, or was still running after ``timeout`` seconds
    (then it is killed). An ``Exception`` raised by ``work`` itself is re-raised here as :class:`IsolatedError`.
    The child is killed when the parent is interrupted (Ctrl-C) or stops waiting for any other reason."""
    if not (isinstance(timeout, (int, float)) and 0 < timeout < float("inf")):
        raise ValueError(f"timeout must be a finite number of seconds > 0, got {timeout!r}")
    method = start_method()
    if method == "fork" and _jax_ran() and _picklable(work, args):
        method = "spawn"  # XLA's threads do not survive a fork: a forked child of a process that ran JAX hangs
    ctx: Any = multiprocessing.get_context(method)
    receive, send = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_child, args=(send, work, args), name="posproof-audit")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # 3.12+: fork with threads (numpy's BLAS pool)
        process.start()
    send.close()  # the child holds the only sending end: its end is seen as end of file
    deadline = time.monotonic() + timeout
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return Ended("timeout", timeout=float(timeout))
            ready = wait([receive, process.sentinel], timeout=remaining)
            if receive not in ready:
                # the child ended: what it sent (or the end of the pipe) is readable at once, unless a process it
                # started holds the pipe open
                if process.sentinel in ready and not receive.poll(0.1):
                    return _ended(process)
                continue
            if receive in ready:
                try:
                    message = receive.recv()
                except (EOFError, OSError):  # the child is gone, and everything it sent was read
                    return _ended(process)
                if isinstance(message, tuple) and message and message[0] in (_DONE, _RAISED, _ERROR):
                    if message[0] == _ERROR:
                        raise IsolatedError(f"posproof's audit failed in its child process:\n{message[1]}")
                    if message[0] == _RAISED:
                        return Ended("raised", exception=message[1])
                    process.join(EXIT_GRACE)
                    return None
                on_message(message)
    finally:
        receive.close()
        if process.is_alive():
            process.kill()
        process.join()


def _ended(process) -> Ended:
    process.join()
    code = process.exitcode
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return Ended("signal", signal=name)
    return Ended("exit", exit_status=code)
