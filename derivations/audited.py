r"""Running what ``posproof audit`` audits: the user's function loaded from ``MODULE:FUNCTION``, the audit run in a
child process (:mod:`posproof.numeric.audit.isolate`) that sends its reports back, and the reports printed (text,
the ``posproof.audit/1`` JSON document, JUnit). :mod:`posproof.derivations.commands.audit` parses the options."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import json
import math
import re
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from posproof.derivations.args import UsageError, flags

#: Library keywords and the options that set them: a library message names the option the user typed.
FLAGS = {
    "rotary_dim": "--rotary-dim",
    "max_position": "--max-position",
    "tolerance": "--tolerance",
    "layer_type": "--layer-type",
    "scaling": "--scaling",
    "inv_freq": "--inv-freq",
}


# ---- the function to audit -------------------------------------------------------------------------------------------


def split_target(target: str) -> tuple[str, str]:
    r"""``(module, attribute)`` of ``MODULE:FUNCTION``, checked without importing anything."""
    module_name, sep, attr = target.rpartition(":")
    if not sep or not module_name or not attr:
        raise UsageError(
            f"give the function as MODULE:FUNCTION (e.g. mypkg.rotary:rope or path/to/file.py:rope), got {target!r}"
        )
    if "\0" in target:
        raise UsageError(f"MODULE:FUNCTION must not hold a NUL character, got {target!r}")
    if _is_path(module_name):
        path = Path(module_name)
        if path.is_dir():
            raise UsageError(f"cannot import {module_name}: a directory, not a .py file")
        if not path.is_file():
            raise UsageError(f"cannot import {module_name}: no such file")
    elif not all(part.isidentifier() for part in module_name.split(".")):
        raise UsageError(f"cannot import {module_name}: not a dotted module name (nor a path to a .py file)")
    if not all(part.isidentifier() for part in attr.split(".")):
        raise UsageError(f"{target}: {attr!r} is not a Python name")
    return module_name, attr


def _is_path(module_name: str) -> bool:
    return module_name.endswith(".py") or "/" in module_name or "\\" in module_name


def load_function(target: str):
    r"""The callable named by ``MODULE:FUNCTION`` (``MODULE`` dotted, or a path to a ``.py`` file); a usage error
    naming what is wrong otherwise. This imports the user's module: the audit does it in its child process."""
    module_name, attr = split_target(target)
    try:
        if _is_path(module_name):
            path = Path(module_name)
            spec = importlib.util.spec_from_file_location(path.stem, path)
            if spec is None or spec.loader is None:
                raise UsageError(f"cannot import {module_name}: not a Python file")
            module = importlib.util.module_from_spec(spec)
            sys.modules.setdefault(path.stem, module)
            spec.loader.exec_module(module)
        else:
            if "" not in sys.path and str(Path.cwd()) not in sys.path:
                sys.path.insert(0, str(Path.cwd()))  # as `python -m` does: modules in the current directory
            module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        raise UsageError(f"cannot import {module_name}: {e}") from None
    except SyntaxError as e:
        raise UsageError(f"cannot import {module_name}: syntax error at {e.filename}:{e.lineno}: {e.msg}") from None
    except Exception as e:  # noqa: BLE001 - the user's module may raise anything at import
        if isinstance(e, UsageError):
            raise
        raise UsageError(f"importing {module_name} raised {type(e).__name__}: {first_line(e)}") from None
    obj = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            names = [n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n))]
            import difflib

            close = difflib.get_close_matches(part, names, n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise UsageError(f"module {module_name} has no function {attr!r}{hint}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise UsageError(f"{target} is not callable (it is a {type(obj).__name__})")
    return obj


def first_line(e: BaseException) -> str:
    text = str(e)
    return text.splitlines()[0] if text else ""


def library_error(e: ValueError) -> UsageError:
    r"""A library ``ValueError`` about the RoPE options as a usage error naming the option typed: its keywords
    become options; a message naming none is about the --scaling mapping."""
    message = str(e).replace("pass max_position_embeddings=", "add max_position_embeddings to --scaling")
    try:
        with flags(**FLAGS):
            raise ValueError(message)
    except UsageError as named:
        text = str(named)
    if not re.search(r"(?<![\w-])--[a-z]", text):
        text = f"--scaling: {text}"
    return UsageError(text)


def jsonable(value):
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return jsonable(value.item())
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


# ---- the work, in the child process ----------------------------------------------------------------------------------


def _quietly(call):
    r"""``call()`` with the audited code's own warnings (overflowing float16, log(0), ...) silenced."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return call()


def audit_function(send, target: str, scheme: str, kw: dict) -> None:
    r"""In the child: import the function, audit it, send the report (or the usage error) to the parent."""
    from posproof.numeric import audit
    from posproof.numeric.audit.isolate import exception_text

    module_name = target.rpartition(":")[0]
    send(("stage", f"importing {module_name}"))
    try:
        fn = load_function(target)
    except UsageError as e:
        send(("usage", str(e)))
        return
    except BaseException as e:  # noqa: BLE001 - SystemExit, KeyboardInterrupt at the user's import: a usage error
        send(("usage", f"importing {module_name} raised {exception_text(e)}"))
        return
    send(("imported",))
    start = time.perf_counter()

    def progress(text: str) -> None:
        send(("stage", text))

    try:
        if scheme == "rope":
            report: Any = _quietly(lambda: audit.audit_rope(fn, name=target, progress=progress, **kw))
        else:
            run_scheme = audit.audit_alibi if scheme == "alibi" else audit.audit_t5
            report = _quietly(lambda: run_scheme(fn, progress=progress))
            report = dataclasses.replace(report, function=target)
    except audit.AuditCallError as e:
        send(("usage", str(e)))
        return
    except ValueError as e:  # a configuration the library refuses (checked before, so not expected here)
        send(("usage", str(library_error(e))))
        return
    send(("report", report, time.perf_counter() - start))


def audit_transformers(send, config: dict, kinds: list, kw: dict) -> None:
    r"""In the child: audit transformers' RoPE for each layer type, sending each report as it is done."""
    from posproof.numeric import audit
    from posproof.numeric.audit import hf

    send(("imported",))
    for kind in kinds:
        label = f"{config.get('model_type') or 'config'}" + (f" [{kind}]" if kind else "")
        send(("target", label))
        send(("stage", "building transformers' rotary embedding"))
        target = hf.TransformersRope(config, kind)
        start = time.perf_counter()
        try:
            report = _quietly(
                lambda target=target: audit.audit_rope(
                    target,
                    name=target.describe,
                    progress=lambda text: send(("stage", text)),
                    **target.expected,
                    **kw,
                )
            )
        except (audit.AuditCallError, ValueError) as e:
            send(("usage", str(e)))
            return
        send(("report", report, time.perf_counter() - start))


def isolated(work, work_args: tuple, names: list[str], scheme: str, args) -> list[tuple[Any, float]]:
    r"""Run ``work`` in a child process within ``--timeout``, with a progress line on a terminal: the reports and
    their seconds; what the audited code did to the process, when it stopped the audit, as a report of its own."""
    from posproof.derivations.progress import Progress
    from posproof.numeric.audit import isolate

    reports: list[tuple[Any, float]] = []
    state: dict[str, Any] = {"current": names[0], "stage": None, "imported": False, "usage": None, "start": 0.0}
    with Progress(len(names), "auditing", quiet=args.quiet) as bar:

        def on_message(message) -> None:
            kind = message[0]
            if kind == "stage":
                state["stage"] = message[1]
                bar.note(f"{state['current']}: {message[1]}")
            elif kind == "target":  # the next of several: its short label
                state["current"], state["stage"] = message[1], None
                bar.note(message[1])
            elif kind == "imported":
                state["imported"] = True
            elif kind == "report":
                reports.append((message[1], message[2]))
                state["stage"] = None
                bar.advance(note=state["current"])
            elif kind == "usage":
                state["usage"] = message[1]

        start = time.perf_counter()
        ended = isolate.run_isolated(work, work_args, timeout=args.timeout, on_message=on_message)
    if state["usage"] is not None:
        raise UsageError(state["usage"])
    if ended is not None:
        if not state["imported"]:  # the user's module stopped the process at its import: it cannot be imported
            module_name = names[0].rpartition(":")[0]
            raise UsageError(f"importing {module_name} {ended.describe()}")
        seconds = time.perf_counter() - start - sum(s for _, s in reports)
        current = names[min(len(reports), len(names) - 1)]
        report_scheme = "rope" if scheme == "transformers" else scheme
        reports.append((isolate.process_report(report_scheme, current, ended, state["stage"]), seconds))
    return reports


# ---- output ----------------------------------------------------------------------------------------------------------


def junit_cases(reports: list[tuple[Any, float]]) -> list:
    r"""One failing JUnit case per finding, one passing case per report without findings (the reports have no list
    of the checks they passed: a RoPE audit stops at a root cause and skips what depends on it)."""
    from posproof.derivations.machine import Case
    from posproof.numeric.audit.report import format_report

    cases = []
    for report, seconds in reports:
        scheme = report.as_dict()["scheme"]
        classname = f"posproof.audit.{scheme}"
        if report.ok:
            cases.append(Case(report.function, classname, seconds, detail=format_report(report)))
            continue
        share = seconds / len(report.findings)
        for f in report.findings:
            who = f" [{f.output}]" if f.output else ""
            example = "; ".join(f"{k} {v}" for k, v in f.example.items())
            detail = f"{f.message}\n{example}" if example else f.message
            cases.append(Case(f"{report.function}: {f.id}{who}", classname, share, failure=f.message, detail=detail))
    return cases


def print_reports(reports: list[tuple[Any, float]], fmt: str, junit: Path | None) -> int:
    from posproof.derivations import machine
    from posproof.numeric.audit import format_report

    if fmt == "json":
        body = {"reports": [jsonable(r.as_dict()) for r, _ in reports]}
        print(json.dumps(machine.document("audit", body), indent=2))
    else:
        sys.stdout.write("".join(format_report(r) for r, _ in reports))
    if junit is not None:
        machine.write_junit(junit, "audit", junit_cases(reports))
    return 0 if all(r.ok for r, _ in reports) else 1
