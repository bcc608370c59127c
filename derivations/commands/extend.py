r"""``posproof extend``: what a RoPE context-extension rule does to the rotation angles (diagnostics).

``posproof extend --width 128 --base 10000 --trained 4096 --target 32768 --rule yarn --factor 8 [--format json]``,
or ``posproof extend --config config.json [--target N]`` for a model configuration file. Prints, per group of pairs,
whether the pairs completed a period in training, stay inside the trained angle range or leave it (and how far);
the critical dimension (Liu et al. 2023); the base bound (Men et al. 2024) with what was searched; and the RoPE
note's warning. Definitions: ``numeric/scaling/extension.py`` and ``docs/context-extension.md``. Every option is
bounded (the module's ``MAX_*``), and a report that would cost more than :data:`MAX_COSINES` cosines is refused
before any work; the base-bound search draws a progress bar on a terminal (never when stderr is piped, or with
``-q``). ``--format json`` (or ``--json``) prints one document, ``"schema": "posproof.extend/1"`` first, described
by ``derivations/schemas/extend.schema.json``.

``add_parser(subparsers)`` adds the subcommand to the ``posproof`` parser; ``run(args)`` runs it (usage errors
raise ``derivations.args.UsageError``); ``main(argv)`` runs it on its own (``python -m
posproof.derivations.commands.extend``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from posproof.derivations.args import (
    REPORT_FORMATS,
    UsageError,
    add_format_option,
    add_quiet_option,
    flags,
    float_arg,
    int_arg,
    output_format,
)
from posproof.numeric.scaling import extension
from posproof.numeric.scaling.rules import (
    ROPE_TYPES,
    RULE_KEYS,
    YARN_BETA_FAST,
    YARN_BETA_SLOW,
    RopeScaling,
    config_width,
    flatten_text_config,
    rope_scaling_from_config,
)

# ---- bounds, checked before any work ---------------------------------------------------------------------------------

#: The widest head: 4096 channels, eight times the widest a model rotates (64 .. 512; Gemma's global layers 512).
#: The work grows with d/2 (the cosine budget below bounds it together with the length).
MAX_WIDTH = 4096
#: The longest ``--trained`` and ``--target`` (and a length a configuration gives): 2**24 = 16.8M positions, past the
#: longest context a model claims (10M); the cosine sums cost (L + 1) d/2 cosines each.
MAX_LENGTH = 2**24
#: The largest base: 1e12 (models use 1e4 .. 1e7: Llama 3 5e5, Qwen 1e6 .. 1e7); with the largest factor and width
#: every theta'_i stays a normal float64.
MAX_BASE = 1e12
#: The largest scaling factor: 4096 (models use 4 .. 64: Qwen 4, Llama 3.1 8, DeepSeek-V3 40).
MAX_FACTOR = 4096.0
#: The finest ``--bound-resolution``: 2000 bases per decade (a 0.12 % step, ten times the default's); each base costs
#: up to (L + 1) d/2 cosines, and a step finer than the bisection's 1e-4 (~23000 per decade) would add nothing.
MAX_BOUND_RESOLUTION = 2000
#: The most cosines a report may cost (the cosine sums, plus the base-bound search's bases at most): 3e10, ~3.5
#: minutes at the ~1.4e8 cosines a second measured here in the worst case (the base bound at 1M positions and
#: d = 128, up to 2.1e10, took 46 s: a failing base stops at its first negative sum).
MAX_COSINES = 3e10
#: The largest ``--config`` file: 16 MiB (a config.json is a few kB, LongRoPE's factor tables included).
MAX_CONFIG_BYTES = 16 * 2**20
#: The largest ``--layer``: models have at most a few hundred layers.
MAX_LAYER = 4095

#: Options that describe the rule on the command line; ``--config`` replaces them all.
_RULE_OPTIONS = (
    "width",
    "base",
    "rule",
    "factor",
    "beta_fast",
    "beta_slow",
    "low_freq_factor",
    "high_freq_factor",
    "partial_rotary_factor",
)
#: Meta's Llama 3 values, the command's defaults for ``--rule llama3`` (the library requires them explicitly).
LLAMA3_DEFAULTS = {"low_freq_factor": 1.0, "high_freq_factor": 4.0}
#: The defaults, written once (the help shows them): YaRN's betas are the library's, given to it only when typed.
DEFAULTS = {
    "width": 128,
    "base": 10000.0,
    "rule": "default",
    "beta_fast": YARN_BETA_FAST,
    "beta_slow": YARN_BETA_SLOW,
    **LLAMA3_DEFAULTS,
    "partial_rotary_factor": 1.0,
    "bound_resolution": extension.FINE_PER_DECADE,
}
#: The real options of a rule: the accepted range and its test.
_REALS = {
    "factor": (f"a real number in [1, {MAX_FACTOR:g}]", lambda x: 1 <= x <= MAX_FACTOR),
    "beta_fast": ("a real number > 0", lambda x: x > 0),
    "beta_slow": ("a real number > 0", lambda x: x > 0),
    "low_freq_factor": ("a real number > 0", lambda x: x > 0),
    "high_freq_factor": ("a real number > 0", lambda x: x > 0),
    "partial_rotary_factor": ("a real number in (0, 1]", lambda x: 0 < x <= 1),
}


def _flag(key: str) -> str:
    return "--" + key.replace("_", "-")


def _default(key: str) -> str:
    value = DEFAULTS[key]
    return format(value, "g") if isinstance(value, float) else str(value)


class _Typed(argparse.Action):
    r"""Store the option's text and add the option to ``args.typed``: ``--config`` refuses the rule options even
    when they repeat a default, and a rule refuses the options it does not read."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)
        namespace.typed = (*namespace.typed, self.dest)


def add_parser(subparsers) -> argparse.ArgumentParser:
    r"""Add ``extend`` to the ``posproof`` subcommands (the subparsers' own parser class is used)."""
    s = subparsers.add_parser("extend", help="RoPE context extension: out-of-distribution angles, critical dimension")
    s.add_argument("--width", action=_Typed, default=_default("width"), help=f"head width, at most {MAX_WIDTH}")
    s.add_argument("--base", action=_Typed, default=_default("base"), help=f"RoPE base b, in (1, {MAX_BASE:g}]")
    s.add_argument("--trained", help=f"trained context length L0, at most 2**{MAX_LENGTH.bit_length() - 1}")
    s.add_argument("--target", help=f"target context length L, at most 2**{MAX_LENGTH.bit_length() - 1}")
    s.add_argument("--rule", action=_Typed, default=_default("rule"), help=f"scaling rule: {', '.join(ROPE_TYPES)}")
    s.add_argument("--factor", action=_Typed, help=f"scaling factor s, in [1, {MAX_FACTOR:g}]")
    s.add_argument("--beta-fast", action=_Typed, default=_default("beta_fast"), help="YaRN beta_fast")
    s.add_argument("--beta-slow", action=_Typed, default=_default("beta_slow"), help="YaRN beta_slow")
    s.add_argument(
        "--low-freq-factor", action=_Typed, default=_default("low_freq_factor"), help="Llama 3 low_freq_factor"
    )
    s.add_argument(
        "--high-freq-factor", action=_Typed, default=_default("high_freq_factor"), help="Llama 3 high_freq_factor"
    )
    s.add_argument(
        "--partial-rotary-factor",
        action=_Typed,
        default=_default("partial_rotary_factor"),
        help="fraction of the head width that rotates",
    )
    s.add_argument("--config", help="a model configuration file (config.json) instead of the rule options")
    s.add_argument("--layer-type", help="with --config: the layer type when rope_parameters is given per layer type")
    s.add_argument("--layer", help="with --config: a layer index (per-layer head widths, per_layer_config)")
    s.add_argument(
        "--bound-resolution",
        action=_Typed,
        default=_default("bound_resolution"),
        help=f"base bound: fine-grid bases per decade, at most {MAX_BOUND_RESOLUTION}",
    )
    s.add_argument("--no-base-bound", action="store_true", help="skip the base-bound search (the slow part)")
    add_format_option(s)
    add_quiet_option(s)
    s.set_defaults(func=run, typed=())
    return s


def _read_config(path: str) -> dict:
    if not path or "\0" in path:
        raise UsageError(f"--config must name a file, got {path!r}")
    file = Path(path)
    try:
        if file.is_dir():
            raise UsageError(f"--config must be a file, got the directory {path!r}")
        if file.exists() and not file.is_file():
            raise UsageError(f"--config must be a regular file, got {path!r}")
        size = file.stat().st_size if file.exists() else 0
        if size > MAX_CONFIG_BYTES:
            raise UsageError(f"--config: {path} holds {size} bytes, more than a model configuration's 16 MiB")
        text = file.read_text(encoding="utf-8")
    except OSError as e:
        raise UsageError(f"--config: cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise UsageError(f"--config: {path} is not UTF-8 text") from None
    try:
        config = json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"--config: {path} is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise UsageError(f"--config: {path} nests its JSON too deeply for a model configuration") from None
    except ValueError as e:  # e.g. an integer of more than 4300 digits
        raise UsageError(f"--config: {path} is not a readable JSON document: {e}") from None
    if not isinstance(config, dict):
        kind = type(config).__name__
        raise UsageError(f"--config: {path} must hold a JSON object (a model configuration), got {kind}")
    return config


def _real(args, key: str) -> float:
    accepted, ok = _REALS[key]
    return float_arg(getattr(args, key), _flag(key), accepted, ok)


def _from_options(args) -> tuple[RopeScaling, int, int, dict]:
    width = int_arg(args.width, "--width", 1, MAX_WIDTH)
    base = float_arg(args.base, "--base", f"a real number in (1, {MAX_BASE:g}]", lambda x: 1 < x <= MAX_BASE)
    rule = args.rule
    if rule not in ROPE_TYPES:
        raise UsageError(f"--rule must be one of {', '.join(ROPE_TYPES)}, got {rule!r}")
    if rule == "longrope":
        raise UsageError("--rule longrope needs its per-pair factor tables: use --config FILE")
    for key in _REALS:
        if key in args.typed and key != "partial_rotary_factor" and key not in RULE_KEYS[rule]:
            reads = [_flag(k) for k in _REALS if k in RULE_KEYS[rule]]
            what = f"it reads {', '.join(reads)}" if reads else "it reads no rule option"
            raise UsageError(f"{_flag(key)} does not apply to --rule {rule} ({what})")
    if args.trained is None or args.target is None:
        raise UsageError("--trained and --target are required (or --config FILE)")
    L0 = int_arg(args.trained, "--trained", 2, MAX_LENGTH)
    L = int_arg(args.target, "--target", 1, MAX_LENGTH)
    mapping: dict = {"rope_type": rule, "partial_rotary_factor": _real(args, "partial_rotary_factor")}
    for key in ("factor", "beta_fast", "beta_slow", "low_freq_factor", "high_freq_factor"):
        if key in args.typed or (rule == "llama3" and key in LLAMA3_DEFAULTS):
            mapping[key] = _real(args, key)
    if rule in ("dynamic", "yarn", "llama3"):
        mapping["original_max_position_embeddings"] = L0
    names = {k: _flag(k) for k in _REALS} | {"original_max_position_embeddings": "--trained"}
    try:
        cfg = RopeScaling.from_mapping(width, base=base, scaling=mapping)
    except ValueError as e:
        if str(e).startswith("the rotary width"):  # int(width * partial_rotary_factor): odd or too small
            given = (
                f" and --partial-rotary-factor {args.partial_rotary_factor}"
                if "partial_rotary_factor" in args.typed
                else ""
            )
            raise UsageError(f"--width {args.width}{given}: {e}") from None
        with flags(**names):
            raise
    return cfg, L0, L, {"trained": "--trained", "target": "--target"}


def _from_config(args) -> tuple[RopeScaling, int, int, dict]:
    given = [_flag(k) for k in _RULE_OPTIONS if k in args.typed]
    if given:
        raise UsageError(f"--config reads the rule from the file: drop {', '.join(given)}")
    layer = None if args.layer is None else int_arg(args.layer, "--layer", 0, MAX_LAYER)
    if args.layer_type is not None and not args.layer_type.strip():
        raise UsageError(f"--layer-type must name a layer type of the config, got {args.layer_type!r}")
    config = _read_config(args.config)
    where = f"--config {args.config}"
    try:  # the head width the file states, before the rest is read (which may import transformers: seconds)
        width = config_width(flatten_text_config(config))
    except (ValueError, TypeError):
        width = 0  # the library says what is wrong with it below
    if width > MAX_WIDTH:
        raise UsageError(f"{where}: the head width {width} is above {MAX_WIDTH} (heads rotate 64 .. 512 channels)")
    try:
        cfg = rope_scaling_from_config(config, layer_type=args.layer_type, layer=layer)
    except (ValueError, TypeError) as e:  # TypeError: a value of the wrong type where the library compares
        message = str(e)
        for name in ("layer_type", "layer"):
            if message.startswith(f"{name} must"):
                message = _flag(name) + message[len(name) :]
        raise UsageError(f"{where}: {message}") from None
    if cfg.width > MAX_WIDTH:
        raise UsageError(f"{where}: the head width {cfg.width} is above {MAX_WIDTH} (heads rotate 64 .. 512 channels)")
    if cfg.base > MAX_BASE:
        raise UsageError(f"{where}: the base {cfg.base:g} is above {MAX_BASE:g}")
    if cfg.rope_type != "default" and cfg.s > MAX_FACTOR:
        raise UsageError(f"{where}: the scaling factor {cfg.s:g} is above {MAX_FACTOR:g}")
    source = {}
    if args.trained is not None:
        L0, source["trained"] = int_arg(args.trained, "--trained", 2, MAX_LENGTH), "--trained"
    elif cfg.L0 is not None:
        L0 = cfg.L0
        source["trained"] = (
            "original_max_position_embeddings"
            if cfg.original_max_position_embeddings is not None
            else "max_position_embeddings; pass --trained if the model was trained on shorter sequences"
        )
        if L0 > MAX_LENGTH:
            raise UsageError(f"{where}: the trained length {L0} is above 2**24: pass --trained")
    else:
        raise UsageError(f"{where}: no trained length in the file: pass --trained")
    mpe = config.get("max_position_embeddings")
    if args.target is not None:
        L, source["target"] = int_arg(args.target, "--target", 1, MAX_LENGTH), "--target"
    elif isinstance(mpe, int) and not isinstance(mpe, bool) and mpe > L0:
        L, source["target"] = mpe, "max_position_embeddings"
    else:
        L, source["target"] = max(1, round(cfg.s * L0)), "factor x trained"
    if L > MAX_LENGTH:
        raise UsageError(f"{where}: the target length {L} ({source['target']}) is above 2**24: pass --target")
    return cfg, L0, L, source


def _check_cost(cfg: RopeScaling, L: int, resolution: int, with_base_bound: bool) -> None:
    r"""Refuse a report that would cost more than :data:`MAX_COSINES` cosines, naming the options that set it."""
    pairs = cfg.d // 2
    sums = 2 * (L + 1) * pairs  # the first negative cosine sum, trained and scaled frequencies
    if sums > MAX_COSINES:
        raise UsageError(
            f"--target {L} at rotary width {cfg.d} needs {sums:.2g} cosines for the cosine sums (2 (L + 1) d/2), "
            f"above {MAX_COSINES:g} (minutes): pass a smaller --target"
        )
    if not with_base_bound:
        return
    bases = extension.base_bound_bases(fine_per_decade=resolution)
    total = sums + bases * (L + 1) * pairs
    if total > MAX_COSINES:
        raise UsageError(
            f"the base-bound search for --target {L} at rotary width {cfg.d} with --bound-resolution {resolution} "
            f"would take up to {total:.2g} cosines ({bases} bases x (L + 1) x d/2), above {MAX_COSINES:g} "
            "(minutes): pass --no-base-bound, or a smaller --bound-resolution or --target"
        )


def run(args) -> int:
    r"""Run ``posproof extend``: print the report (text, or JSON with ``--format json``); 0 on success."""
    from posproof.derivations import machine
    from posproof.derivations.progress import Progress

    fmt = output_format(args.format, REPORT_FORMATS)
    resolution = int_arg(args.bound_resolution, "--bound-resolution", 1, MAX_BOUND_RESOLUTION)
    if args.no_base_bound and "bound_resolution" in args.typed:
        raise UsageError("--bound-resolution sets the base-bound search, which --no-base-bound skips: drop one")
    if args.config is None and (args.layer is not None or args.layer_type is not None):
        raise UsageError("--layer and --layer-type only apply with --config")
    cfg, L0, L, source = _from_config(args) if args.config is not None else _from_options(args)
    with_bound = not args.no_base_bound
    _check_cost(cfg, L, resolution, with_bound)
    bases = extension.base_bound_bases(fine_per_decade=resolution) if with_bound else None
    with Progress(bases, "base bound", quiet=args.quiet or not with_bound) as bar:
        report = extension.diagnose(
            cfg,
            L0,
            L,
            with_base_bound=with_bound,
            **(
                {"fine_per_decade": resolution, "progress": lambda n, b: bar.advance(note=f"b = {b:.4g}")}
                if with_bound
                else {}
            ),
        )
    if fmt == "json":
        doc = machine.document("extend", {**report.as_dict(), "source": source})
        print(json.dumps(doc, indent=2, allow_nan=False))
    else:
        sys.stdout.write(format_report(report, source))
    return 0


# ---- text ------------------------------------------------------------------------------------------------------------


def _span(lo: float, hi: float, fmt: str = ".3g") -> str:
    a, b = format(lo, fmt), format(hi, fmt)
    return a if a == b else f"{a} .. {b}"


def _pct(lo: float, hi: float) -> str:
    return _span(100 * lo, 100 * hi, ".0f") + "%"


def format_report(report: extension.ExtensionReport, source: dict | None = None) -> str:
    r"""The report as text: a header, a table per group of pairs, the critical dimension, the base bound and the
    warning."""
    cfg, L0, L = report.scaling, report.L0, report.L
    source = source or {}
    rule = cfg.rope_type + ("" if cfg.rope_type == "default" else f", factor s = {cfg.s:g}")
    width = f"rotary width d = {cfg.d}" + ("" if cfg.d == cfg.width else f" (of head width {cfg.width})")
    lines = [
        f"RoPE context extension: rule {rule}; {width}; base b = {cfg.base:g}",
        f"trained L0 = {L0}" + (f" ({source['trained']})" if "trained" in source else "")
        + f", target L = {L}" + (f" ({source['target']})" if "target" in source else "")
        + f"; attention factor {report.attention_factor:.6g} (multiplies cos and sin)",
        "",
        "angles of pair i: trained m*theta_i (m < L0) lie in [0, L0*theta_i); target m*theta'_i (m < L)",
    ]  # fmt: skip
    header = ("pairs", "status", "wavelength 2pi/theta_i", "theta'_i/theta_i", "circle seen: trained",
              "target", "max target angle / L0*theta_i")  # fmt: skip
    rows = [header]
    for g in report.groups:
        rows.append(
            (
                f"{g.first}-{g.last}" if g.count > 1 else str(g.first),
                f"{g.status} ({g.count})",
                _span(*g.wavelength),
                _span(*g.scale, ".4g"),
                _pct(*g.trained_coverage),
                _pct(*g.target_coverage),
                "-" if g.status == "periodic" else _span(*g.excess, ".5g"),
            )
        )
    widths = [max(len(r[k]) for r in rows) for k in range(len(header))]
    for r in rows:
        lines.append("  " + "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip())
    ood = report.coverage.ood_pairs
    if ood:
        worst = max(report.coverage.excess[i] for i in ood)
        unseen = max(report.coverage.unseen[i] for i in ood)
        lines.append(
            f"out of distribution: {len(ood)} pairs ({_ranges(ood)}) see angles up to {worst:.3g}x their trained "
            f"range; up to {100 * unseen:.0f}% of the circle was never seen in training"
        )
    else:
        lines.append("out of distribution: none (every target angle lies in its pair's trained range or period)")
    dc = report.critical_dimension
    lines.append(
        f"critical dimension (Liu et al. 2023): 2*ceil((d/2)*log_b(L0/2pi)) = {dc}: "
        + (f"pairs i >= {dc // 2} never complete a period in training" if dc < cfg.d else "every pair completes one")
    )
    bb = report.base_bound
    if bb is not None:
        if bb.base is None:
            lines.append(
                f"base bound (Men et al. 2024): sum_i cos(m theta_i) >= 0 for all m <= {L} holds at no searched base"
            )
        else:
            verdict = "at or above" if cfg.base >= bb.base else "below"
            lines.append(
                f"base bound (Men et al. 2024): sum_i cos(m theta_i) >= 0 for all m <= {L} first holds at base "
                f"{bb.base:.4g} (smallest found); base {cfg.base:g} is {verdict} it"
            )
            if bb.failing_above:
                lines.append(
                    f"  not monotone in the base: {bb.failing_above} searched bases above it fail again "
                    f"(the largest {bb.largest_failing:.4g})"
                )
        lines.append(f"  searched: {bb.searched}")
    neg = lambda m: f"first < 0 at m = {m}" if m is not None else f">= 0 for all m <= {L}"
    lines.append(
        f"sum_i cos(m theta_i): trained frequencies {neg(report.first_negative_trained)}; "
        f"scaled frequencies {neg(report.first_negative_scaled)}"
    )
    lines.append(f"warning: {report.warning}")
    return "\n".join(lines) + "\n"


def _ranges(indices) -> str:
    r"""``(3, 4, 5, 9)`` -> ``"3-5, 9"``."""
    out, start = [], None
    for k, i in enumerate(indices):
        if start is None:
            start = i
        if k + 1 == len(indices) or indices[k + 1] != i + 1:
            out.append(str(start) if start == i else f"{start}-{i}")
            start = None
    return ", ".join(out)


def main(argv: list[str] | None = None) -> int:
    r"""``python -m posproof.derivations.commands.extend ...``: the same as ``posproof extend ...``."""
    from posproof.derivations.args import standalone

    return standalone(add_parser, argv)


if __name__ == "__main__":
    sys.exit(main())
