r"""``numeric.audit.isolate``: work in a child process, and how a child that did not finish ended (an exit, a
BaseException, a signal, a timeout), as an :class:`Ended` and as a process report."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from posproof.numeric.audit import isolate
from posproof.numeric.audit.report import PROCESS_FINDINGS, format_report


@pytest.fixture(autouse=True)
def _forked(monkeypatch):
    # these tests time children in fractions of a second: forked, even in a worker that has run JAX before
    # (where a picklable work is spawned instead, which takes seconds to start)
    monkeypatch.setattr(isolate, "_jax_ran", lambda: False)


# The work functions run in the child: module-level, so that a spawned child (macOS, Windows) can import them.
def _sends(send, n):
    for i in range(n):
        send(("item", i))


def _exits(send, status):
    send(("stage", "before the exit"))
    os._exit(status)


def _raises_system_exit(send):
    raise SystemExit(3)


def _raises_keyboard_interrupt(send):
    raise KeyboardInterrupt


def _kills_itself(send):
    os.kill(os.getpid(), signal.SIGSEGV)


def _sleeps(send):
    send(("stage", "asleep"))
    time.sleep(3600)


def _fails(send):
    raise ZeroDivisionError("posproof's own bug")


def _run(work, *args, timeout=60.0):
    got: list = []
    return isolate.run_isolated(work, args, timeout=timeout, on_message=got.append), got


def test_messages_arrive_in_order_and_a_finished_child_is_none():
    ended, got = _run(_sends, 3)
    assert ended is None and got == [("item", 0), ("item", 1), ("item", 2)]


def test_os_exit_is_an_exit_with_its_status():
    ended, got = _run(_exits, 7)
    assert ended == isolate.Ended("exit", exit_status=7)
    assert got == [("stage", "before the exit")]  # what it sent before is kept
    assert ended.id == "process-exit" and ended.describe().startswith("called os._exit(7)")


def test_system_exit_and_keyboard_interrupt_are_raised():
    assert _run(_raises_system_exit)[0] == isolate.Ended("raised", exception="SystemExit(3)")
    ended, _ = _run(_raises_keyboard_interrupt)
    assert ended == isolate.Ended("raised", exception="KeyboardInterrupt")
    assert ended.describe() == "raised KeyboardInterrupt"


@pytest.mark.skipif(sys.platform == "win32", reason="Windows has no signals")
def test_a_signal_is_named():
    ended, _ = _run(_kills_itself)
    assert ended == isolate.Ended("signal", signal="SIGSEGV") and ended.describe() == "crashed with SIGSEGV"


def test_a_child_past_its_timeout_is_killed():
    ended, got = _run(_sleeps, timeout=0.5)
    assert ended == isolate.Ended("timeout", timeout=0.5) and got == [("stage", "asleep")]
    assert ended.describe() == "did not return within 0.5 s"


def test_posproofs_own_error_in_the_child_is_raised_with_its_traceback():
    with pytest.raises(isolate.IsolatedError, match="ZeroDivisionError: posproof's own bug"):
        _run(_fails)


@pytest.mark.parametrize("timeout", [0, -1, float("inf"), float("nan"), "5"])
def test_a_bad_timeout_is_refused(timeout):
    with pytest.raises(ValueError, match="timeout must be a finite number of seconds > 0"):
        isolate.run_isolated(_sends, (1,), timeout=timeout)


def test_the_process_report_is_one_line_and_not_ok():
    report = isolate.process_report("rope", "m:rope", isolate.Ended("exit", exit_status=0), "precision profile")
    assert not report.ok and report.ids == ("process-exit",) and "process-exit" in PROCESS_FINDINGS
    text = format_report(report)
    assert text.count("\n") == 1
    assert text.startswith("m:rope: FAIL process-exit: m:rope called os._exit(0)")
    assert "while being audited (stage: precision profile)" in text
    d = report.as_dict()
    assert d["ok"] is False and d["process"]["event"] == "exit" and d["process"]["exit_status"] == 0


def test_exception_text_is_short():
    assert isolate.exception_text(SystemExit(3)) == "SystemExit(3)"
    assert isolate.exception_text(KeyboardInterrupt()) == "KeyboardInterrupt"
    assert len(isolate.exception_text(SystemExit("x" * 1000))) == isolate.EXCEPTION_TEXT


def test_start_method_forks_where_it_is_safe():
    expected = "spawn" if sys.platform in ("darwin", "win32") else "fork"
    assert isolate.start_method() == expected


def _torch_cos(send):
    import torch

    send(("sum", float(torch.cos(torch.ones(1 << 20)).sum())))


def test_regression_torch_used_in_the_parent_does_not_hang_the_forked_child():
    torch = pytest.importorskip("torch", reason="torch's thread pool after a fork")
    torch.cos(torch.ones(1 << 20))  # the parent's OpenMP pool is started
    ended, got = _run(_torch_cos, timeout=60)
    assert ended is None and got and got[0][0] == "sum"


@pytest.mark.slow  # a fresh interpreter that imports jax and posproof, then a spawned audit child
def test_regression_audit_child_of_a_process_that_ran_jax_does_not_hang(tmp_path):
    # XLA's threads do not survive a fork: a forked audit child of a process that had run JAX hung in its first
    # compile (a pytest worker after a JAX test); such a parent spawns its child
    pytest.importorskip("jax")
    (tmp_path / "jrope.py").write_text(
        "import jax.numpy as jnp\n\n\n"
        "def rope(vectors, positions, base=10000.0):\n"
        "    d = vectors.shape[1]\n"
        "    ang = jnp.asarray(positions)[:, None] / base ** (jnp.arange(0, d, 2) / d)\n"
        "    c, s = jnp.cos(ang), jnp.sin(ang)\n"
        "    a, b = vectors[:, : d // 2], vectors[:, d // 2 :]\n"
        "    return jnp.concatenate([a * c - b * s, a * s + b * c], axis=1)\n"
    )
    code = (
        "import jax.numpy as jnp; (jnp.ones(2) + 1).block_until_ready()\n"
        "from posproof.derivations import cli\n"
        "raise SystemExit(cli.main(['audit', 'jrope.py:rope', '--scheme', 'rope', '--layout', 'half', "
        "'--max-position', '4096', '-q']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "jrope.py:rope: conforms" in done.stdout
