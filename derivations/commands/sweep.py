r"""``posproof sweep TARGET...``: ``posproof audit`` over many targets, as JSON lines, resumable, locally or on Dask.

A TARGET is a directory (its ``*.json`` config files), a config file, a ``model_type`` (each audited as ``posproof
audit --transformers`` does), ``MODULE:FUNCTION`` (as ``posproof audit MODULE:FUNCTION --scheme S`` does), or
``@FILE`` listing targets one a line (``#`` comments). Each target is audited in a process of its own within
``--timeout`` seconds (:mod:`posproof.derivations.sweep`: the per-target worker), ``--jobs`` at a time on this
machine, or on the Dask cluster whose scheduler ``--scheduler ADDRESS`` names (``pip install 'posproof[sweep]'``;
the same worker, the same results but for their ``seconds``).

Output: ``--out FILE`` holds one JSON line per target (schema ``posproof.sweep/1``,
``derivations/schemas/sweep.schema.json``), appended as each target finishes and ordered as the targets are named
when the sweep ends; ``--resume`` skips the targets already in it (a last line cut short by an interruption is
dropped and its target run again). Text output is a table, one row per target, and a count per status; ``--format
json`` prints the JSON lines instead; ``--junit FILE`` writes one test case per target. A progress bar on a terminal
(none when stderr is piped, or with ``-q``). The audit options every target of a kind reads pass on to it:
``--layout``, ``--dtype``, ``--max-position``, ``--tolerance`` (RoPE targets), ``--layer-type`` (configs and
model_types), ``--scheme``, ``--width``, ``--base``, ``--rotary-dim``, ``--scaling``, ``--call`` (functions).

Exit codes: 0 every target conforms, 1 any target has findings, an error or timed out, 2 usage errors (checked
before any target runs), 130 interrupted (the results finished so far are kept: ``--resume`` goes on).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from posproof.derivations import args as cli_args
from posproof.derivations import sweep
from posproof.derivations.args import INTERRUPTED, Parser, UsageError
from posproof.derivations.commands import audit

#: The sweep's audit options (``dest``) that every RoPE target reads: functions audited as rope, and configs.
ROPE_OPTIONS = ("layout", "dtype", "max_position", "tolerance")
#: Those only configs and model_types read.
CONFIG_OPTIONS = ("layer_type",)
#: Those only functions audited as rope read (a config gives its own).
FUNCTION_OPTIONS = ("width", "base", "rotary_dim", "scaling", "call")


def add_parser(subparsers) -> argparse.ArgumentParser:
    r"""Add ``sweep`` to the ``posproof`` subcommands."""
    s = subparsers.add_parser(
        "sweep", help="audit many targets (configs, model_types, functions): JSON lines, resumable, local or Dask"
    )
    s.add_argument(
        "targets",
        metavar="TARGET",
        nargs="*",
        help="a directory of *.json configs, a config file, a model_type, MODULE:FUNCTION, or @FILE listing targets",
    )
    run_group = s.add_argument_group("running")
    run_group.add_argument(
        "--jobs",
        metavar="N",
        default="auto",
        help="targets audited at once on this machine: 'auto' (one per core) or N",
    )
    run_group.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on the Dask cluster of this scheduler (e.g. tcp://host:8786; needs posproof[sweep])",
    )
    run_group.add_argument(
        "--timeout",
        metavar="SECONDS",
        default=f"{audit.DEFAULT_TIMEOUT:g}",
        help="seconds each target's audit may take (a target past it is reported as timed out)",
    )
    out = s.add_argument_group("output")
    out.add_argument("--out", metavar="FILE", help="write one JSON line per target to FILE (e.g. results.jsonl)")
    out.add_argument("--resume", action="store_true", help="with --out: skip the targets FILE already holds")
    cli_args.add_format_option(out)
    out.add_argument("--junit", metavar="FILE", help="also write one JUnit test case per target to FILE (.xml)")
    cli_args.add_quiet_option(out)
    passed = s.add_argument_group("audit options, passed on to the targets that read them (see posproof audit)")
    passed.add_argument("--scheme", metavar="rope|alibi|t5", default="rope", help="what the functions implement")
    passed.add_argument("--layout", metavar="auto|interleaved|half", help="pair layout (RoPE targets)")
    passed.add_argument("--dtype", metavar="bfloat16|float16", help="also audit 16-bit inputs (RoPE targets)")
    passed.add_argument("--max-position", metavar="N", help="largest position handled (RoPE targets)")
    passed.add_argument("--tolerance", metavar="T", help="precision profile's tolerance (RoPE targets)")
    passed.add_argument("--layer-type", metavar="T", help="audit this layer type only (configs, model_types)")
    passed.add_argument("--width", metavar="D", help="head width probed (functions)")
    passed.add_argument("--base", metavar="B", help="frequency base (functions)")
    passed.add_argument("--rotary-dim", metavar="R", help="channels that rotate (functions)")
    passed.add_argument("--scaling", metavar="JSON|@FILE", help="a rope_scaling mapping (functions)")
    passed.add_argument("--call", metavar="SPEC", help="how to call the functions (e.g. q,k,cos,sin@bhsd)")
    s.set_defaults(func=run)
    return s


# ---- the options -----------------------------------------------------------------------------------------------------


def _flag(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def _given(args, names) -> list[str]:
    return [n for n in names if getattr(args, n) is not None]


def _checked_options(args, targets) -> dict[str, list[str]]:
    r"""The audit's command line of each kind of target (what follows the target), every value checked here by the
    audit's own option parser, before any target runs."""
    if args.scheme not in audit.SCHEMES:
        raise UsageError(f"--scheme must be one of {', '.join(audit.SCHEMES)}, got {args.scheme!r}")
    kinds = {t.kind for t in targets}
    rope_functions = "function" in kinds and args.scheme == "rope"
    configs = bool(kinds & {"config", "model_type"})
    unread = [
        *(_given(args, ROPE_OPTIONS) if not (rope_functions or configs) else []),
        *(_given(args, CONFIG_OPTIONS) if not configs else []),
        *(_given(args, FUNCTION_OPTIONS) if not rope_functions else []),
    ]
    if unread:
        raise UsageError(
            f"{', '.join(_flag(n) for n in unread)}: no target reads it (RoPE options: RoPE targets; --layer-type: "
            "configs and model_types; --width, --base, --rotary-dim, --scaling, --call: functions with --scheme rope)"
        )

    def options(names) -> list[str]:
        return [f"{_flag(n)}={getattr(args, n)}" for n in _given(args, names)]

    common = [f"--timeout={args.timeout}", "--format=json", "--quiet"]
    rope = options(ROPE_OPTIONS)
    out = {
        "function": [f"--scheme={args.scheme}", *(rope + options(FUNCTION_OPTIONS) if args.scheme == "rope" else [])],
        "config": [*rope, *options(CONFIG_OPTIONS)],
    }
    # the values, read by the audit's parser (its bounds, its messages), on a probe command line of each kind
    typed = _audit_parser().parse_args(["audit", *rope, *options(FUNCTION_OPTIONS), *common, "--", "probe:f"])
    if typed.layout not in audit.LAYOUTS:
        raise UsageError(f"--layout must be auto, interleaved or half, got {typed.layout!r}")
    if typed.dtype is not None and typed.dtype not in audit.DTYPES:
        raise UsageError(f"--dtype must be bfloat16 or float16, got {typed.dtype!r}")
    if args.call is not None:
        from posproof.numeric.audit import RopeCall

        try:
            RopeCall.parse(args.call)
        except ValueError as e:
            raise UsageError(f"--call: {e}") from None
    if args.scaling is not None:
        _check_scaling(args.scaling)
    return {
        kind: [*out["config" if kind == "model_type" else kind], *common]
        for kind in ("function", "config", "model_type")
    }


def _audit_parser() -> argparse.ArgumentParser:
    p = Parser(prog="posproof")
    audit.add_parser(p.add_subparsers(dest="command", required=True, parser_class=Parser))
    return p


def _check_scaling(text: str) -> None:
    r"""``--scaling JSON|@FILE`` holds a JSON object (the audit reads it again, with its own checks)."""
    source = f"--scaling {text}" if text.startswith("@") else "--scaling"
    if text.startswith("@"):
        try:
            raw = Path(text[1:]).read_bytes()[: audit.MAX_SCALING_BYTES + 1]
            text = raw.decode("utf-8")
        except (OSError, ValueError) as e:
            raise UsageError(f"{source}: cannot read {text[1:]!r}: {getattr(e, 'strerror', None) or e}") from None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise UsageError(f"{source} is not valid JSON (a rope_scaling mapping)") from None
    if not isinstance(value, dict):
        raise UsageError(f"{source} must be a JSON object (a rope_scaling mapping), got {type(value).__name__}")


# ---- the command -----------------------------------------------------------------------------------------------------


def run(args) -> int:
    r"""Run ``posproof sweep``: 0 when every target conforms, 1 otherwise, 2 usage errors, 130 interrupted."""
    fmt = cli_args.output_format(args.format, cli_args.REPORT_FORMATS)
    junit = None if args.junit is None else cli_args.output_file(args.junit, "--junit", suffixes=(".xml",))
    out = None if args.out is None else cli_args.output_file(args.out, "--out")
    if args.resume and out is None:
        raise UsageError("--resume needs --out FILE (the results to resume)")
    if args.scheduler is not None:
        if args.jobs != "auto":
            raise UsageError("--jobs runs local processes: with --scheduler the cluster's workers run the targets")
        if not args.scheduler or "\0" in args.scheduler or args.scheduler != args.scheduler.strip():
            raise UsageError(f"--scheduler must be a scheduler address such as tcp://host:8786, got {args.scheduler!r}")
    jobs = cli_args.jobs_arg(args.jobs)
    timeout = cli_args.float_arg(
        args.timeout,
        "--timeout",
        f"a number of seconds in (0, {audit.MAX_TIMEOUT:g}]",
        lambda x: 0 < x <= audit.MAX_TIMEOUT,
    )
    targets = sweep.expand_targets(args.targets)
    argv = _checked_options(args, targets)
    done = {} if not args.resume or out is None else sweep.read_results(out)
    todo = [t for t in targets if t.spec not in done]
    if args.resume and not args.quiet:
        print(
            f"posproof: --resume: {len(targets) - len(todo)} of {len(targets)} targets already in {out}",
            file=sys.stderr,
        )
    calls = [(t, (*argv[t.kind], *_target_argv(t)), timeout + sweep.KILL_GRACE) for t in todo]
    cwd = os.getcwd()
    client = sweep.connect(args.scheduler) if args.scheduler is not None and calls else None
    results = dict(done)
    interrupted = False
    from posproof.derivations.progress import Progress

    writer = sweep.Appender(out, sweep.ordered(done, targets)) if out is not None else None
    try:
        with Progress(len(todo), "sweeping", quiet=args.quiet) as bar:
            if client is not None:
                each = sweep.dask_results(client, calls, cwd)
            else:
                each = sweep.local_results(calls, min(jobs, max(1, len(calls))), cwd)
            try:
                for line in each:
                    results[line["target"]] = line
                    if writer is not None:
                        writer.append(line)
                    bar.advance(note=f"{line['target']}: {line['status']}")
            except KeyboardInterrupt:
                interrupted = True
                sweep.kill_running()
            finally:
                each.close()
    finally:
        if writer is not None:
            writer.close()
    lines = sweep.ordered(results, targets)
    if out is not None:
        sweep.write_results(out, lines)
    if interrupted:
        kept = f": {len(results)} of {len(targets)} targets in {out} (--resume goes on)" if out is not None else ""
        print(f"\nposproof: interrupted{kept}", file=sys.stderr)
        return INTERRUPTED
    current = [results[t.spec] for t in targets]
    if fmt == "json":
        sys.stdout.write("".join(sweep.encode(line) + "\n" for line in current))
    else:
        sys.stdout.write(table(current, out))
    if junit is not None:
        _write_junit(junit, current)
    return 0 if all(line["status"] == "conforms" for line in current) else 1


def _target_argv(target) -> list[str]:
    r"""The audit's command line that names ``target`` (a spec starting with ``-`` is never read as an option)."""
    if target.kind == "function":
        return ["--", target.spec]  # after every option: the audit reads it as MODULE:FUNCTION
    return [f"--transformers={target.spec}"]


def _note(line: dict) -> str:
    if line["status"] in ("findings", "timeout") and line["findings"]:
        return ", ".join(line["findings"])
    return line["error"] or "-"


def table(lines: list[dict], out: Path | None = None) -> str:
    r"""The summary: one row per target (status, finding ids or the error, seconds), then the count per status."""
    wide = min(60, max(len("target"), *(len(line["target"]) for line in lines)))
    rows = [f"{'target':<{wide}}  {'status':<8}  {'time':>8}  findings"]
    for line in lines:
        rows.append(f"{line['target']:<{wide}}  {line['status']:<8}  {line['seconds']:>6.1f} s  {_note(line)}")
    counts = {s: sum(line["status"] == s for line in lines) for s in sweep.STATUSES}
    summary = f"{len(lines)} targets: " + ", ".join(f"{status} {n}" for status, n in counts.items())
    where = f" (results in {out})" if out is not None else ""
    return "\n".join([*rows, "", summary + where]) + "\n"


def _write_junit(path: Path, lines: list[dict]) -> None:
    from posproof.derivations import machine

    cases = []
    for line in lines:
        failure = None if line["status"] == "conforms" else f"{line['status']}: {_note(line)}"
        detail = json.dumps(line["report"], indent=2) if line["report"] is not None else ""
        cases.append(machine.Case(line["target"], f"posproof.sweep.{line['kind']}", line["seconds"], failure, detail))
    machine.write_junit(path, "sweep", cases)


def main(argv: list[str] | None = None) -> int:
    r"""``python -m posproof.derivations.commands.sweep ...``: the same as ``posproof sweep ...``."""
    from posproof.derivations.args import standalone

    return standalone(add_parser, argv)


if __name__ == "__main__":
    sys.exit(main())
