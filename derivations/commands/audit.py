r"""``posproof audit MODULE:FUNCTION --scheme rope|alibi|t5``: audit a user's implementation.

``MODULE`` is a dotted module name importable from the current directory or ``sys.path``, or a path to a ``.py``
file. RoPE options: ``--layout auto|interleaved|half``, ``--base B``, ``--scaling JSON`` (a ``rope_scaling``
mapping, or ``@file.json``), ``--width D``, ``--rotary-dim R``, ``--call SPEC`` (e.g. ``q,k,cos,sin@bhsd``; see
:class:`numeric.audit.RopeCall`), ``--max-position N``, ``--tolerance T`` (the precision profile's). Multi-axis
RoPE (the function is called as ``fn(vectors, positions)`` with positions ``(tokens, A)``): ``--mrope-section
16,24,24`` (M-RoPE's sections t, h, w; ``--mrope-interleaved`` for Qwen3-VL's layout) or ``--axial`` (axial 2-D,
Pixtral), merged into the scaling mapping; any multi-axis ``--scaling`` mapping (:mod:`numeric.multiaxis`'s keys);
``--axes FILE`` (the axis of each rotated pair, a JSON list of integers or ``.npy``). ``--inv-freq FILE`` (a JSON
list of numbers or ``.npy``): a free frequency table replacing the rule's. ``--call`` forms without positions:
``vectors,offset`` (an ``int``, the position of row 0) or ``vectors`` alone (rows at ``0 .. T-1``).
``--transformers CONFIG|MODEL_TYPE`` audits transformers' own RoPE.

The audited code runs in a child process (:mod:`posproof.derivations.audited`, :mod:`numeric.audit.isolate`),
within ``--timeout`` seconds for the whole audit: a function that exits, raises ``SystemExit``, crashes or hangs
is reported as a finding of its own (``process-exit``, ``process-raised``, ``process-crashed``,
``process-timeout``), never as a silent exit. Every option is checked in this process before the audited code
runs.

Output: ``--format text|json`` (``--json``); the JSON document is ``{"schema": "posproof.audit/1", "reports":
[...]}``, one report per audited function or layer type (``derivations/schemas/audit.schema.json``);
``--junit FILE`` writes one failing test case per finding and one passing case per report without findings.
A progress line per stage on a terminal (none when stderr is piped, or with ``-q``). Exit codes: 0 conforms, 1
does not (or the audited code stopped the audit), 2 usage errors (an unimportable module, a missing function, a
function that raises on a plain call, a bad option value: one line, never a traceback).

``add_parser(subparsers)`` adds the subcommand to the ``posproof`` parser; ``run(args)`` runs it (usage errors
raise ``derivations.args.UsageError``); ``main(argv)`` runs it on its own (``python -m
posproof.derivations.commands.audit``).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import math
import sys
from pathlib import Path

from posproof.derivations import args as cli_args
from posproof.derivations.args import UsageError, float_arg, int_arg
from posproof.derivations.audited import (
    audit_function,
    audit_transformers,
    first_line,
    isolated,
    library_error,
    print_reports,
    split_target,
)
from posproof.numeric.tolerances import PROFILE_TOLERANCE

SCHEMES = ("rope", "alibi", "t5")
LAYOUTS = ("auto", "interleaved", "half", "rotate_half", "neox", "gptj")
DTYPES = ("bfloat16", "float16")

# The defaults of the options: the values numeric.audit.audit_rope takes by default (rope.DEFAULT_*, pinned equal by
# a test: numeric.audit is not imported to build the parser, which every posproof command builds).
#: The head width probed (--width).
DEFAULT_WIDTH = 64
#: The frequency base (--base).
DEFAULT_BASE = 10000.0
#: The pair layout (--layout).
DEFAULT_LAYOUT = "auto"
#: The largest position the function must handle (--max-position): 1M plus the profile's longest distance, 1000.
DEFAULT_MAX_POSITION = 2**20 + 1000
#: The precision profile's tolerance on the score error (--tolerance).
DEFAULT_TOLERANCE = PROFILE_TOLERANCE
#: The call (--call): the RoPE note's rope(vectors, positions, base).
DEFAULT_CALL = "vectors,positions,base"
#: Seconds the whole audit may take (--timeout): the audited code is stopped after that.
DEFAULT_TIMEOUT = 600.0

# Bounds of the options, checked before any work.
#: The widest head probed (the probes hold 24 width x width matrices: 1024 is 200 MB of float64).
MAX_WIDTH = 1024
#: The largest --max-position (positions beyond 2**40 are past any context and past float32's integers).
MAX_POSITION = 2**40
#: The largest --base (bases in use: 1e4 .. 5e7).
MAX_BASE = 1e12
#: The largest --tolerance (a score error relative to |q||k| is at most 2).
MAX_TOLERANCE = 1.0
#: The longest --timeout: a day.
MAX_TIMEOUT = 86400.0
#: The longest --scaling text or file (a rope_scaling mapping is a few hundred bytes; LongRoPE's tables a few kB).
MAX_SCALING_BYTES = 2**20
#: The most sections of --mrope-section (one per position axis; M-RoPE has 3).
MAX_SECTIONS = 8

#: The largest --inv-freq or --axes file (a table of at most MAX_WIDTH / 2 numbers: a few kB).
MAX_TABLE_BYTES = 2**16

#: Options that only RoPE audits read.
_ROPE_OPTIONS = ("layout", "base", "scaling", "width", "rotary_dim", "call", "max_position", "tolerance", "dtype",
                 "inv_freq", *("mrope_section", "mrope_interleaved", "axial", "axes"))  # fmt: skip
#: The multi-axis options and what a multi-axis audit does not read.
_MULTIAXIS_OPTIONS = ("mrope_section", "mrope_interleaved", "axial", "axes")
_NOT_MULTIAXIS = ("call", "dtype")
#: What --transformers reads of the RoPE options (the rest comes from the configuration).
_TRANSFORMERS_OPTIONS = ("layout", "max_position", "tolerance", "dtype")


class _Typed(argparse.Action):
    r"""Store the value and remember that the option was typed (``args.typed``): an option with a default is
    refused where it does not apply only when it was given."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)
        namespace.typed = {*getattr(namespace, "typed", ()), self.dest}


def _even(flag: str):
    def parse(text: str) -> int:
        accepted = f"an even integer in [2, {MAX_WIDTH}]"
        value = int_arg(text, flag, 2, MAX_WIDTH)
        if value % 2:
            raise UsageError(f"{flag} must be {accepted}, got {value}")
        return value

    return parse


def _max_position(text: str) -> int:
    return int_arg(text, "--max-position", 4, MAX_POSITION)


def _real(flag: str, accepted: str, ok):
    def parse(text: str) -> float:
        return float_arg(text, flag, accepted, ok)

    return parse


_base = _real("--base", f"a real number in (1, {MAX_BASE:g}]", lambda x: 1 < x <= MAX_BASE)
_tolerance = _real("--tolerance", f"a real number in (0, {MAX_TOLERANCE:g}]", lambda x: 0 < x <= MAX_TOLERANCE)
_timeout = _real("--timeout", f"a number of seconds in (0, {MAX_TIMEOUT:g}]", lambda x: 0 < x <= MAX_TIMEOUT)


def add_parser(subparsers) -> argparse.ArgumentParser:
    r"""Add ``audit`` to the ``posproof`` subcommands (the subparsers' own parser class is used)."""
    s = subparsers.add_parser("audit", help="audit your RoPE, ALiBi or T5 implementation: findings and examples")
    s.set_defaults(typed=frozenset())
    s.add_argument(
        "target",
        metavar="MODULE:FUNCTION",
        nargs="?",
        help="the function to audit: a dotted module importable from here, or a path to a .py file, then :FUNCTION",
    )
    s.add_argument(
        "--scheme",
        metavar="rope|alibi|t5",
        help="what the function implements: rope, alibi or t5 (rope with --transformers)",
    )
    s.add_argument(
        "--transformers",
        metavar="CONFIG|MODEL_TYPE",
        help="audit transformers' own rotary embedding and apply function for a config.json or a model_type "
        "against what the config declares (needs posproof[transformers]: torch and transformers)",
    )
    s.add_argument("--layer-type", metavar="T", help="with --transformers: audit this layer type only (all otherwise)")
    rope = s.add_argument_group("RoPE (--scheme rope)")
    rope.add_argument(
        "--layout",
        action=_Typed,
        metavar="auto|interleaved|half",
        default=DEFAULT_LAYOUT,
        help="pair layout: auto (either passes; the one found is reported), interleaved (2i, 2i+1) or half (i, i+d/2)",
    )
    rope.add_argument("--base", action=_Typed, type=_base, default=DEFAULT_BASE, metavar="B", help="frequency base")
    rope.add_argument(
        "--scaling", action=_Typed, metavar="JSON|@FILE", help="a rope_scaling mapping as JSON, or @FILE holding one"
    )
    rope.add_argument(
        "--width", action=_Typed, type=_even("--width"), default=DEFAULT_WIDTH, metavar="D", help="head width probed"
    )
    rope.add_argument(
        "--rotary-dim",
        action=_Typed,
        type=_even("--rotary-dim"),
        metavar="R",
        help="channels that rotate (all of --width unless --scaling gives partial_rotary_factor)",
    )
    rope.add_argument(
        "--call",
        action=_Typed,
        default=DEFAULT_CALL,
        metavar="SPEC",
        help="how to call the function: its arguments, then @axes (e.g. q,k,cos,sin@bhsd; see docs/audit.md)",
    )
    rope.add_argument(
        "--max-position",
        action=_Typed,
        type=_max_position,
        default=DEFAULT_MAX_POSITION,
        metavar="N",
        help="largest position the function must handle",
    )
    rope.add_argument(
        "--dtype",
        action=_Typed,
        metavar="bfloat16|float16",
        help="also feed the function bfloat16 or float16 inputs and check nearby positions",
    )
    rope.add_argument(
        "--inv-freq",
        metavar="FILE",
        help="a free frequency table replacing the rule's: a JSON list of numbers >= 0 (one per rotated pair; 0 for "
        "a pair that does not turn) or a .npy file",
    )
    rope.add_argument(
        "--tolerance",
        action=_Typed,
        type=_tolerance,
        default=DEFAULT_TOLERANCE,
        metavar="T",
        help="precision profile's tolerance on the score error",
    )
    multi = s.add_argument_group("multi-axis RoPE (--scheme rope): fn(vectors, positions (tokens, axes))")
    multi.add_argument(
        "--mrope-section",
        metavar="T,H,W",
        help="M-RoPE's sections: pairs per axis (e.g. 16,24,24 for width 128)",
    )
    multi.add_argument(
        "--mrope-interleaved",
        action="store_true",
        default=None,
        help="with --mrope-section: the sections are interleaved (Qwen3-VL), not chunked (Qwen2-VL)",
    )
    multi.add_argument(
        "--axial",
        action="store_true",
        default=None,
        help="axial 2-D RoPE, shared or split frequencies (Qwen2.5-VL, Pixtral; positions (tokens, 2): row, column)",
    )
    multi.add_argument(
        "--axes",
        metavar="FILE",
        help="the position axis of each rotated pair: a JSON list of integers >= 0 (or a .npy file); multi-axis RoPE "
        "with an explicit per-pair axis map (Ernie 4.5-VL)",
    )
    out = s.add_argument_group("running and output")
    out.add_argument(
        "--timeout",
        type=_timeout,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help="stop the audited code after this long (the whole audit) and report it as a finding",
    )
    cli_args.add_format_option(out)
    out.add_argument("--junit", metavar="FILE", help="also write the findings as JUnit XML to FILE (.xml)")
    cli_args.add_quiet_option(out)
    s.set_defaults(func=run)
    return s


# ---- the options -----------------------------------------------------------------------------------------------------


def _scaling(text: str | None) -> dict | None:
    r"""``--scaling JSON|@FILE``: a JSON object (never evaluated), at most :data:`MAX_SCALING_BYTES`."""
    if text is None:
        return None
    source = "--scaling"
    if text.startswith("@"):
        path = Path(text[1:])
        source = f"--scaling {text}"
        if not text[1:] or "\0" in text:
            raise UsageError(f"--scaling @FILE needs a file name after @, got {text!r}")
        if path.is_dir():
            raise UsageError(f"{source}: a directory, not a JSON file")
        try:
            size = path.stat().st_size
            if size > MAX_SCALING_BYTES:
                raise UsageError(f"{source}: {size} bytes, more than {MAX_SCALING_BYTES} (a rope_scaling mapping)")
            raw = path.read_bytes()
        except OSError as e:
            raise UsageError(f"{source}: cannot read {path}: {e.strerror or e}") from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise UsageError(f"{source}: not UTF-8 text (byte {e.start})") from None
    elif len(text.encode("utf-8", "surrogatepass")) > MAX_SCALING_BYTES:
        raise UsageError(f"--scaling is {len(text)} characters, more than {MAX_SCALING_BYTES} (a rope_scaling mapping)")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"{source} is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise UsageError(f"{source} is nested too deeply (a rope_scaling mapping is flat)") from None
    except ValueError as e:  # an integer of more digits than Python reads (sys.get_int_max_str_digits)
        raise UsageError(f"{source} holds a number too large to read: {first_line(e)}") from None
    if not isinstance(value, dict):
        raise UsageError(f"{source} must be a JSON object (a rope_scaling mapping), got {type(value).__name__}")
    return value


def _table(path_text: str | None, flag: str, integers: bool) -> list | None:
    r"""``--inv-freq FILE`` / ``--axes FILE``: a JSON list of numbers (``integers``: of integers), or a 1-D ``.npy``
    array (read without pickles), of at most ``MAX_WIDTH / 2`` entries, each finite (never evaluated)."""
    if path_text is None:
        return None
    what = "integers >= 0" if integers else "numbers"
    if not path_text or "\0" in path_text:
        raise UsageError(f"{flag} must name a file (a JSON list of {what}, or .npy), got {path_text!r}")
    path = Path(path_text)
    if path.is_dir():
        raise UsageError(f"{flag} {path_text}: a directory, not a JSON or .npy file")
    try:
        size = path.stat().st_size
        if size > MAX_TABLE_BYTES:
            raise UsageError(f"{flag} {path_text}: {size} bytes, more than {MAX_TABLE_BYTES} (a table of numbers)")
        raw = path.read_bytes()
    except OSError as e:
        raise UsageError(f"{flag}: cannot read {path_text}: {e.strerror or e}") from None
    if path.suffix == ".npy":
        import io

        import numpy as np

        try:
            arr = np.load(io.BytesIO(raw), allow_pickle=False)
        except (ValueError, OSError, EOFError) as e:
            raise UsageError(f"{flag} {path_text}: not a .npy array ({first_line(e) or type(e).__name__})") from None
        kind = "iu" if integers else "iuf"
        if not isinstance(arr, np.ndarray) or arr.ndim != 1 or arr.dtype.kind not in kind:
            raise UsageError(f"{flag} {path_text} must hold a 1-D array of {what}, got {getattr(arr, 'dtype', '?')} "
                             f"of shape {getattr(arr, 'shape', '?')}")  # fmt: skip
        values = arr.tolist()
    else:
        try:
            values = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as e:
            raise UsageError(f"{flag} {path_text}: not UTF-8 text (byte {e.start})") from None
        except json.JSONDecodeError as e:
            raise UsageError(
                f"{flag} {path_text} is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}"
            ) from None
        except RecursionError:
            raise UsageError(f"{flag} {path_text} is nested too deeply (a flat list of {what})") from None
        except ValueError as e:  # an integer of more digits than Python reads
            raise UsageError(f"{flag} {path_text} holds a number too large to read: {first_line(e)}") from None
    if not isinstance(values, list) or not values:
        raise UsageError(f"{flag} {path_text} must hold a non-empty list of {what}, got {type(values).__name__}")
    if len(values) > MAX_WIDTH // 2:
        raise UsageError(f"{flag} {path_text}: {len(values)} entries, more than {MAX_WIDTH // 2} (one per pair)")
    for j, v in enumerate(values):
        number = isinstance(v, (int, float)) and not isinstance(v, bool)
        if not number or (integers and (not isinstance(v, int) or v < 0)) or (not integers and not math.isfinite(v)):
            raise UsageError(f"{flag} {path_text} must hold a list of finite {what}: entry {j} is {v!r}")
    return values


def _rope_kwargs(args) -> dict:
    r"""The keyword arguments of ``audit_rope`` the options give, each checked (a usage error naming it)."""
    typed = args.typed
    kw: dict = {}
    if args.layout not in LAYOUTS:
        raise UsageError(f"--layout must be auto, interleaved or half, got {args.layout!r}")
    kw["layout"] = args.layout
    kw["base"] = args.base
    kw["scaling"] = _scaling(args.scaling)
    kw["width"] = args.width
    if args.rotary_dim is not None:
        kw["rotary_dim"] = args.rotary_dim
    if "call" in typed:
        try:
            from posproof.numeric.audit import RopeCall

            kw["call"] = RopeCall.parse(args.call)
        except ValueError as e:
            raise UsageError(f"--call: {e}") from None
    kw["max_position"] = args.max_position
    if args.dtype is not None:
        if args.dtype not in DTYPES:
            raise UsageError(f"--dtype must be bfloat16 or float16, got {args.dtype!r}")
        kw["dtype"] = args.dtype
    kw["tolerance"] = args.tolerance
    inv_freq = _table(args.inv_freq, "--inv-freq", integers=False)
    if inv_freq is not None:
        kw["inv_freq"] = inv_freq
    axes = _table(args.axes, "--axes", integers=True)
    if axes is not None:
        if args.axial or args.mrope_section is not None:
            raise UsageError("--axes and --mrope-section/--axial exclude each other (one multi-axis declaration)")
        given = [f"--{k.replace('_', '-')}" for k in _NOT_MULTIAXIS if _given(args, k)]
        if given:
            raise UsageError(f"{', '.join(given)}: not read by a multi-axis audit (--axes)")
        kw["axes"] = axes
    rotated = kw.get("rotary_dim", kw["width"])
    if rotated > kw["width"]:
        raise UsageError(f"--rotary-dim must be at most --width = {kw['width']}, got {rotated}")
    multiaxis = _multiaxis_scaling(args, rotated, "--rotary-dim" if "rotary_dim" in kw else "--width")
    if multiaxis:
        clash = sorted(set(kw["scaling"] or {}) & {"mrope_section", "mrope_interleaved", *multiaxis})
        if clash:
            raise UsageError(f"--scaling already gives {', '.join(clash)}: give multi-axis settings once")
        given = [f"--{k.replace('_', '-')}" for k in _NOT_MULTIAXIS if _given(args, k)]
        if given:
            raise UsageError(f"{', '.join(given)}: not read by a multi-axis audit (--mrope-section, --axial)")
        kw["scaling"] = {**(kw["scaling"] or {}), **multiaxis}
    return kw


def _mrope_section(text: str, width: int, flag: str = "--width") -> list[int]:
    r"""``--mrope-section T,H,W``: 1 to :data:`MAX_SECTIONS` integers >= 0 (parsed one by one, never evaluated) adding
    up to ``width / 2`` (``width`` the rotated channels: ``--rotary-dim`` if given, else ``--width``)."""
    accepted = f"1 to {MAX_SECTIONS} comma-separated integers >= 0 (pairs per axis, e.g. 16,24,24)"
    parts = text.split(",")
    if len(parts) > MAX_SECTIONS or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        raise UsageError(f"--mrope-section must be {accepted}, got {text[:80]!r}")
    sections = [int(p) for p in parts]
    if sum(sections) != width // 2:
        raise UsageError(
            f"--mrope-section must add up to {flag}/2 = {width // 2} (one axis per rotated pair), got {text!r} "
            f"(sum {sum(sections)})"
        )
    return sections


def _multiaxis_scaling(args, width: int, flag: str = "--width") -> dict:
    r"""The scaling keys the multi-axis options give (empty when none is given); ``width`` the rotated channels."""
    if args.axial:
        if args.mrope_section is not None or args.mrope_interleaved:
            raise UsageError("--axial and --mrope-section/--mrope-interleaved exclude each other (axial 2-D or M-RoPE)")
        if width % 4:
            raise UsageError(f"--axial needs {flag} a multiple of 4 (d/4 pairs per axis), got {width}")
        return {"rope_type": "axial"}
    if args.mrope_interleaved and args.mrope_section is None:
        raise UsageError("--mrope-interleaved needs --mrope-section (the sections to interleave)")
    if args.mrope_section is None:
        return {}
    out: dict = {"mrope_section": _mrope_section(args.mrope_section, width, flag)}
    if args.mrope_interleaved:
        out["mrope_interleaved"] = True
    return out


# ---- the command -----------------------------------------------------------------------------------------------------


def _transformers_targets(args) -> tuple[dict, list, list[str]]:
    r"""The configuration, the layer types and the names of the targets of ``--transformers``, checked here
    (transformers' classes built once, so that a configuration they refuse is a usage error before the audit)."""
    source = args.transformers
    prefix = f"--transformers {source}"
    from posproof.numeric.audit import hf as _audit_hf
    from posproof.numeric.scaling import rope_scaling_from_config

    try:
        config = _audit_hf.load_config(source)
        kinds = _audit_hf.layer_types(config)
        if args.layer_type is not None:
            if args.layer_type not in kinds:
                import difflib

                if kinds == [None]:
                    raise UsageError(
                        f"--layer-type: {source} gives every layer the same RoPE (no layer types): leave it out"
                    )
                names = [k for k in kinds if k is not None]
                close = difflib.get_close_matches(args.layer_type, names, n=1) or [
                    n for n in names if args.layer_type and n.startswith(args.layer_type)
                ]
                hint = f"; did you mean {close[0]}?" if close else ""
                raise UsageError(
                    f"--layer-type must be one of {', '.join(names)} for {source}, got {args.layer_type!r}{hint}"
                )
            kinds = [args.layer_type]
        model_type = config.get("model_type")
        if not isinstance(model_type, str) or not model_type:
            raise UsageError(f"{prefix}: the config has no model_type: transformers' RoPE cannot be chosen")
        known = importlib.util.find_spec("transformers") is not None
        for kind in kinds:
            try:
                width = rope_scaling_from_config(config, layer_type=kind).width
            except ValueError:
                if known:  # a mistyped model_type has no default base: say so, not "install transformers"
                    _audit_hf.check_model_type(model_type)
                raise
            if width > MAX_WIDTH:
                raise UsageError(f"{prefix}: the head width {width} is more than {MAX_WIDTH}, the widest audited")
        if known:
            _audit_hf.check_model_type(model_type)  # the closest known ones ("did you mean")
        names = [_audit_hf.TransformersRope(config, kind).describe for kind in kinds]
    except _audit_hf.TransformersUnavailable as e:
        raise UsageError(f"{prefix}: {e}") from None
    except (ValueError, RecursionError) as e:
        named = str(library_error(ValueError(str(e)))).removeprefix("--scaling: ")
        raise UsageError(f"{prefix}: {named}") from None
    return config, kinds, names


def _run_transformers(args, fmt: str, junit: Path | None) -> int:
    r"""``--transformers CONFIG|MODEL_TYPE``: one report per layer type; 0 when every one conforms."""
    if args.target is not None:
        raise UsageError("give either MODULE:FUNCTION or --transformers, not both")
    if args.scheme not in (None, "rope"):
        raise UsageError(f"--transformers audits RoPE: --scheme must be rope or absent, got {args.scheme!r}")
    given = [f"--{k.replace('_', '-')}" for k in _ROPE_OPTIONS if k not in _TRANSFORMERS_OPTIONS and _given(args, k)]
    if given:
        raise UsageError(f"{', '.join(given)}: --transformers takes them from the config")
    kw = {k: v for k, v in _rope_kwargs(args).items() if k in _TRANSFORMERS_OPTIONS}
    config, kinds, names = _transformers_targets(args)
    reports = isolated(audit_transformers, (config, kinds, kw), names, "transformers", args)
    return print_reports(reports, fmt, junit)


def _given(args, name: str) -> bool:
    r"""Whether option ``name`` was typed (an option with a default) or given at all (one without)."""
    return name in args.typed or (name not in ("layout", "base", "width", "call", "max_position", "tolerance")
                                  and getattr(args, name) is not None)  # fmt: skip


def run(args) -> int:
    r"""Run ``posproof audit``: print the reports (text or JSON; JUnit XML with ``--junit``); 0 conforms, 1 does not
    (or the audited code stopped the audit), 2 usage errors."""
    fmt = cli_args.output_format(args.format, cli_args.REPORT_FORMATS)
    junit = None if args.junit is None else cli_args.output_file(args.junit, "--junit", suffixes=(".xml",))
    if args.transformers is not None:
        return _run_transformers(args, fmt, junit)
    if args.layer_type is not None:
        raise UsageError("--layer-type only applies with --transformers")
    if args.target is None:
        raise UsageError("give the function to audit as MODULE:FUNCTION, or --transformers CONFIG|MODEL_TYPE")
    if args.scheme is None:
        raise UsageError("--scheme is required with MODULE:FUNCTION: rope, alibi or t5")
    if args.scheme not in SCHEMES:
        raise UsageError(f"--scheme must be one of {', '.join(SCHEMES)}, got {args.scheme!r}")
    if args.scheme != "rope":
        given = [f"--{k.replace('_', '-')}" for k in _ROPE_OPTIONS if _given(args, k)]
        if given:
            raise UsageError(f"{', '.join(given)} only apply to --scheme rope")
    kw = _rope_kwargs(args) if args.scheme == "rope" else {}
    scheme = args.scheme
    if kw:
        from posproof.numeric.audit import check_rope_arguments
        from posproof.numeric.audit.multiaxis import multiaxis_kind

        if multiaxis_kind(kw["scaling"], kw.get("axes")) is not None:
            scheme = "multiaxis"
            given = [f"--{k.replace('_', '-')}" for k in _NOT_MULTIAXIS if _given(args, k)]
            if given:  # a multi-axis --scaling (its keys: numeric.multiaxis)
                raise UsageError(f"{', '.join(given)}: not read by a multi-axis audit (--scaling declares one)")
        elif (kw["scaling"] or {}).get("rope_type") == "xpos":
            scheme = "xpos"
            given = [f"--{k.replace('_', '-')}" for k in ("dtype", "rotary_dim", "inv_freq") if _given(args, k)]
            if given:
                raise UsageError(f"{', '.join(given)}: not read by an xPos audit (--scaling rope_type xpos)")
        try:
            check_rope_arguments(**kw)
        except ValueError as e:
            text = str(e)
            if text.startswith("axes"):  # the word is the option's only where the message begins with it
                raise UsageError("--axes" + text[len("axes") :]) from None
            raise library_error(e) from None
    split_target(args.target)
    reports = isolated(audit_function, (args.target, args.scheme, kw), [args.target], scheme, args)
    return print_reports(reports, fmt, junit)


def main(argv: list[str] | None = None) -> int:
    r"""``python -m posproof.derivations.commands.audit ...``: the same as ``posproof audit ...``."""
    from posproof.derivations.args import standalone

    return standalone(add_parser, argv)


if __name__ == "__main__":
    sys.exit(main())
