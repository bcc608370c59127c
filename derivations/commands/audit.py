r"""``posproof audit MODULE:FUNCTION --scheme rope|alibi|t5``: audit a user's implementation.

``MODULE`` is a dotted module name importable from the current directory or ``sys.path``, or a path to a ``.py``
file. RoPE options: ``--layout auto|interleaved|half``, ``--base B``, ``--scaling JSON`` (a ``rope_scaling``
mapping, or ``@file.json``), ``--width D``, ``--rotary-dim R``, ``--call SPEC`` (e.g. ``q,k,cos,sin@bhsd``; see
:class:`numeric.audit.RopeCall`), ``--max-position N``, ``--tolerance T`` (the precision profile's). Multi-axis
RoPE (the function is called as ``fn(vectors, positions)`` with positions ``(tokens, A)``): ``--mrope-section
16,24,24`` (M-RoPE's sections t, h, w; ``--mrope-interleaved`` for Qwen3-VL's layout) or ``--axial`` (axial 2-D,
Pixtral), merged into the scaling mapping. ``--json`` prints the report as JSON. Exit codes: 0 conforms, 1 does
not, 2 usage errors (an unimportable module, a missing function, a function that raises on a plain call, a bad
option value: one line, never a traceback).

``add_parser(subparsers)`` adds the subcommand to the ``posproof`` parser; ``run(args)`` runs it (usage errors
raise ``derivations.args.UsageError``); ``main(argv)`` runs it on its own (``python -m
posproof.derivations.commands.audit``).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import importlib.util
import json
import math
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from posproof.derivations.args import UsageError, flags, float_arg, int_arg
from posproof.numeric.tolerances import PROFILE_TOLERANCE as DEFAULT_TOLERANCE


def _audit():
    r"""numeric.audit, imported when a command needs it (it is not needed to build the parser)."""
    from posproof.numeric import audit

    return audit


SCHEMES = ("rope", "alibi", "t5")
#: Library keywords and the options that set them: a library message names the option the user typed.
_FLAGS = {"rotary_dim": "--rotary-dim", "max_position": "--max-position", "tolerance": "--tolerance"}
#: Options that only RoPE audits read.
_ROPE_OPTIONS = ("layout", "base", "scaling", "width", "rotary_dim", "call", "max_position", "tolerance", "dtype",
                 *("mrope_section", "mrope_interleaved", "axial"))  # fmt: skip
#: The multi-axis options (None when not given) and what a multi-axis audit does not read.
_MULTIAXIS_OPTIONS = ("mrope_section", "mrope_interleaved", "axial")
_NOT_MULTIAXIS = ("call", "dtype")


def add_parser(subparsers) -> argparse.ArgumentParser:
    r"""Add ``audit`` to the ``posproof`` subcommands (the subparsers' own parser class is used)."""
    s = subparsers.add_parser("audit", help="audit your RoPE, ALiBi or T5 implementation: findings and examples")
    s.add_argument(
        "target", metavar="MODULE:FUNCTION", nargs="?", help="the function to audit (module or path to a .py file)"
    )
    s.add_argument("--scheme", help="rope, alibi or t5 (rope with --transformers)")
    s.add_argument(
        "--transformers",
        metavar="CONFIG|MODEL_TYPE",
        help="audit transformers' own rotary embedding and apply function for a config.json or a model_type "
        "against what the config declares (needs posproof[transformers]: torch and transformers)",
    )
    s.add_argument("--layer-type", help="with --transformers: the layer type to audit (default: every one)")
    s.add_argument("--layout", help="RoPE pair layout: auto (default), interleaved (2i, 2i+1) or half (i, i+d/2)")
    s.add_argument("--base", help="RoPE base (default 10000)")
    s.add_argument("--scaling", help="RoPE scaling as a JSON rope_scaling mapping, or @FILE.json")
    s.add_argument("--width", help="head width probed (default 64)")
    s.add_argument("--rotary-dim", help="channels that rotate (default: the width, or partial_rotary_factor)")
    s.add_argument("--call", help="how to call the function, e.g. vectors,positions,base (default) or q,k,cos,sin@bhsd")
    s.add_argument("--max-position", help="largest position the function must handle (default 1049576)")
    s.add_argument("--dtype", help="also feed the function bfloat16 or float16 inputs and check nearby positions")
    s.add_argument(
        "--tolerance", help=f"precision profile tolerance on the score error (default {DEFAULT_TOLERANCE:g})"
    )
    s.add_argument(
        "--mrope-section",
        metavar="T,H,W",
        help="multi-axis RoPE: M-RoPE's sections (pairs per axis, e.g. 16,24,24 for width 128); the function is "
        "called as fn(vectors, positions) with positions (tokens, axes)",
    )
    s.add_argument(
        "--mrope-interleaved",
        action="store_true",
        default=None,
        help="with --mrope-section: the sections are interleaved (Qwen3-VL), not chunked (Qwen2-VL)",
    )
    s.add_argument(
        "--axial",
        action="store_true",
        default=None,
        help="multi-axis RoPE: axial 2-D (Pixtral; positions (tokens, 2): row, column)",
    )
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=run)
    return s


def load_function(target: str):
    r"""The callable named by ``MODULE:FUNCTION`` (``MODULE`` dotted, or a path to a ``.py`` file); a usage error
    naming what is wrong otherwise."""
    module_name, sep, attr = target.rpartition(":")
    if not sep or not module_name or not attr:
        raise UsageError(
            f"give the function as MODULE:FUNCTION (e.g. mypkg.rotary:rope or path/to/file.py:rope), got {target!r}"
        )
    try:
        if module_name.endswith(".py") or "/" in module_name:
            path = Path(module_name)
            if not path.is_file():
                raise UsageError(f"cannot import {module_name}: no such file")
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
        if type(e).__name__ == "UsageError":
            raise
        raise UsageError(f"importing {module_name} raised {type(e).__name__}: {_first_line(e)}") from None
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


def _first_line(e: BaseException) -> str:
    text = str(e)
    return text.splitlines()[0] if text else ""


def _scaling(text: str | None) -> dict | None:
    if text is None:
        return None
    source = "--scaling"
    if text.startswith("@"):
        path = text[1:]
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise UsageError(f"--scaling: cannot read {path}: {e.strerror or e}") from None
        source = f"--scaling {path}"
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"{source} is not valid JSON: {e.msg} at column {e.colno}") from None
    if not isinstance(value, dict):
        raise UsageError(f"{source} must be a JSON object (a rope_scaling mapping), got {type(value).__name__}")
    return value


def _rope_kwargs(args) -> dict:
    kw: dict = {}
    layout = args.layout or "auto"
    if layout not in ("auto", "interleaved", "half", "rotate_half", "neox", "gptj"):
        raise UsageError(f"--layout must be auto, interleaved or half, got {layout!r}")
    kw["layout"] = layout
    if args.base is not None:
        kw["base"] = float_arg(args.base, "--base", "a real number > 1", lambda x: x > 1)
    kw["scaling"] = _scaling(args.scaling)
    if args.width is not None:
        kw["width"] = int_arg(args.width, "--width", 2)
        if kw["width"] % 2:
            raise UsageError(f"--width must be an even integer >= 2, got {kw['width']}")
    if args.rotary_dim is not None:
        kw["rotary_dim"] = int_arg(args.rotary_dim, "--rotary-dim", 2)
    if args.call is not None:
        try:
            kw["call"] = _audit().RopeCall.parse(args.call)
        except ValueError as e:
            raise UsageError(f"--call: {e}") from None
    if args.max_position is not None:
        kw["max_position"] = int_arg(args.max_position, "--max-position", 4)
    if args.dtype is not None:
        if args.dtype not in ("bfloat16", "float16"):
            raise UsageError(f"--dtype must be bfloat16 or float16, got {args.dtype!r}")
        kw["dtype"] = args.dtype
    if args.tolerance is not None:
        kw["tolerance"] = float_arg(args.tolerance, "--tolerance", "a real number > 0", lambda x: x > 0)
    rotated = kw.get("rotary_dim", kw.get("width", 64))
    if rotated > kw.get("width", 64):
        raise UsageError(f"--rotary-dim must be at most --width = {kw.get('width', 64)}, got {rotated}")
    multiaxis = _multiaxis_scaling(args, rotated, "--rotary-dim" if "rotary_dim" in kw else "--width")
    if multiaxis:
        clash = sorted(set(kw["scaling"] or {}) & {"mrope_section", "mrope_interleaved", *multiaxis})
        if clash:
            raise UsageError(f"--scaling already gives {', '.join(clash)}: give multi-axis settings once")
        given = [f"--{k.replace('_', '-')}" for k in _NOT_MULTIAXIS if getattr(args, k) is not None]
        if given:
            raise UsageError(f"{', '.join(given)}: not read by a multi-axis audit (--mrope-section, --axial)")
        kw["scaling"] = {**(kw["scaling"] or {}), **multiaxis}
    return kw


def _mrope_section(text: str, width: int, flag: str = "--width") -> list[int]:
    r"""``--mrope-section T,H,W``: integers >= 0 (parsed one by one, never evaluated) adding up to ``width / 2``
    (``width`` the rotated channels: ``--rotary-dim`` if given, else ``--width``)."""
    accepted = "comma-separated integers >= 0 (pairs per axis, e.g. 16,24,24)"
    try:
        sections = [int(part) for part in text.split(",")]
    except ValueError:
        raise UsageError(f"--mrope-section must be {accepted}, got {text!r}") from None
    if any(v < 0 for v in sections):
        raise UsageError(f"--mrope-section must be {accepted}, got {text!r}")
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


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def _run_transformers(args) -> int:
    r"""``--transformers CONFIG|MODEL_TYPE``: one report per layer type; 0 when every one conforms."""
    if args.target is not None:
        raise UsageError("give either MODULE:FUNCTION or --transformers, not both")
    if args.scheme not in (None, "rope"):
        raise UsageError(f"--transformers audits RoPE: --scheme must be rope or absent, got {args.scheme!r}")
    given = [
        f"--{k.replace('_', '-')}"
        for k in ("base", "scaling", "width", "rotary_dim", "call", *_MULTIAXIS_OPTIONS)
        if getattr(args, k)
    ]
    if given:
        raise UsageError(f"{', '.join(given)}: --transformers takes them from the config")
    from posproof.numeric.audit import hf as _audit_hf

    audit = _audit()
    try:
        config = _audit_hf.load_config(args.transformers)
        kinds = _audit_hf.layer_types(config) if args.layer_type is None else [args.layer_type]
        targets = [_audit_hf.TransformersRope(config, t) for t in kinds]
    except _audit_hf.TransformersUnavailable as e:
        raise UsageError(str(e)) from None
    except ValueError as e:
        raise UsageError(f"--transformers {args.transformers}: {e}") from None
    kw = {k: v for k, v in _rope_kwargs(args).items() if k in ("layout", "max_position", "tolerance", "dtype")}
    reports = []
    for target in targets:
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                reports.append(audit.audit_rope(target, name=target.describe, **target.expected, **kw))
        except (audit.AuditCallError, ValueError) as e:
            raise UsageError(str(e)) from None
    if args.json:
        print(
            json.dumps(
                _jsonable([r.as_dict() for r in reports] if len(reports) > 1 else reports[0].as_dict()), indent=2
            )
        )
    else:
        sys.stdout.write("".join(audit.format_report(r) for r in reports))
    return 0 if all(r.ok for r in reports) else 1


def run(args) -> int:
    r"""Run ``posproof audit``: print the report (text or ``--json``); 0 conforms, 1 does not."""
    if args.transformers is not None:
        return _run_transformers(args)
    if args.layer_type is not None:
        raise UsageError("--layer-type only applies with --transformers")
    if args.target is None:
        raise UsageError("give the function to audit as MODULE:FUNCTION, or --transformers CONFIG|MODEL_TYPE")
    if args.scheme is None:
        raise UsageError("--scheme is required with MODULE:FUNCTION: rope, alibi or t5")
    if args.scheme not in SCHEMES:
        raise UsageError(f"--scheme must be one of {', '.join(SCHEMES)}, got {args.scheme!r}")
    if args.scheme != "rope":
        given = [f"--{k.replace('_', '-')}" for k in _ROPE_OPTIONS if getattr(args, k) is not None]
        if given:
            raise UsageError(f"{', '.join(given)} only apply to --scheme rope")
    kw = _rope_kwargs(args) if args.scheme == "rope" else {}
    fn = load_function(args.target)
    audit = _audit()
    report: Any
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")  # the audited code's own warnings (overflowing float16, log(0), ...)
            if args.scheme == "rope":
                report = audit.audit_rope(fn, name=args.target, **kw)
            elif args.scheme == "alibi":
                report = audit.audit_alibi(fn)
            else:
                report = audit.audit_t5(fn)
        if args.scheme != "rope":
            report = dataclasses.replace(report, function=args.target)
    except audit.AuditCallError as e:
        raise UsageError(str(e)) from None
    except ValueError as e:  # a configuration the library refuses (bad scaling keys, rotary width, ...)
        message = str(e).replace("pass max_position_embeddings=", "add max_position_embeddings to --scaling")
        with flags(**_FLAGS):
            raise ValueError(message) from None
    if args.json:
        print(json.dumps(_jsonable(report.as_dict()), indent=2))
    else:
        sys.stdout.write(audit.format_report(report))
    return 0 if report.ok else 1


def main(argv: list[str] | None = None) -> int:
    r"""``python -m posproof.derivations.commands.audit ...``: the same as ``posproof audit ...``."""
    from posproof.derivations.args import standalone

    return standalone(add_parser, argv)


if __name__ == "__main__":
    sys.exit(main())
