r"""``posproof extend``: what a RoPE context-extension rule does to the rotation angles (diagnostics).

``posproof extend --width 128 --base 10000 --trained 4096 --target 32768 --rule yarn --factor 8 [--json]``, or
``posproof extend --config config.json [--target N]`` for a model configuration file. Prints, per group of pairs,
whether the pairs completed a period in training, stay inside the trained angle range or leave it (and how far);
the critical dimension (Liu et al. 2023); the base bound (Men et al. 2024) with what was searched; and the RoPE
note's warning. Definitions: ``numeric/scaling/extension.py`` and ``docs/context-extension.md``.

``add_parser(subparsers)`` adds the subcommand to the ``posproof`` parser; ``run(args)`` runs it (usage errors
raise ``derivations.args.UsageError``); ``main(argv)`` runs it on its own (``python -m
posproof.derivations.commands.extend``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from posproof.derivations.args import UsageError, float_arg, int_arg
from posproof.numeric.scaling import extension
from posproof.numeric.scaling.rules import ROPE_TYPES, RopeScaling, rope_scaling_from_config

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


def add_parser(subparsers) -> argparse.ArgumentParser:
    r"""Add ``extend`` to the ``posproof`` subcommands (the subparsers' own parser class is used)."""
    s = subparsers.add_parser("extend", help="RoPE context extension: out-of-distribution angles, critical dimension")
    s.add_argument("--width", help="head width (default 128)")
    s.add_argument("--base", help="RoPE base b (default 10000)")
    s.add_argument("--trained", help="trained context length L0")
    s.add_argument("--target", help="target context length L")
    s.add_argument("--rule", help=f"scaling rule: {', '.join(ROPE_TYPES)} (default: default)")
    s.add_argument("--factor", help="scaling factor s")
    s.add_argument("--beta-fast", help="YaRN beta_fast (default 32)")
    s.add_argument("--beta-slow", help="YaRN beta_slow (default 1)")
    s.add_argument("--low-freq-factor", help="Llama 3 low_freq_factor (default 1)")
    s.add_argument("--high-freq-factor", help="Llama 3 high_freq_factor (default 4)")
    s.add_argument("--partial-rotary-factor", help="fraction of the head width that rotates (default 1)")
    s.add_argument("--config", help="a model configuration file (config.json) instead of the rule options")
    s.add_argument("--layer-type", help="with --config: the layer type when rope_parameters is given per layer type")
    s.add_argument("--layer", help="with --config: a layer index (per-layer head widths, per_layer_config)")
    s.add_argument("--bound-resolution", default="200", help="base bound: fine-grid bases per decade (default 200)")
    s.add_argument("--no-base-bound", action="store_true", help="skip the base-bound search (the slow part)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=run)
    return s


def _read_config(path: str) -> dict:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise UsageError(f"--config: cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise UsageError(f"--config: {path} is not UTF-8 text") from None
    try:
        config = json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"--config: {path} is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    if not isinstance(config, dict):
        kind = type(config).__name__
        raise UsageError(f"--config: {path} must hold a JSON object (a model configuration), got {kind}")
    return config


def _from_options(args) -> tuple[RopeScaling, int, int, dict]:
    width = int_arg(args.width or "128", "--width", 1)
    base = float_arg(args.base or "10000", "--base", "a real number > 1", lambda x: x > 1)
    if args.trained is None or args.target is None:
        raise UsageError("--trained and --target are required (or --config FILE)")
    L0 = int_arg(args.trained, "--trained", 2)
    L = int_arg(args.target, "--target", 1)
    rule = args.rule or "default"
    if rule not in ROPE_TYPES:
        raise UsageError(f"--rule must be one of {', '.join(ROPE_TYPES)}, got {rule!r}")
    mapping: dict = {"rope_type": rule}
    reals = {
        "factor": ("a real number >= 1", lambda x: x >= 1),
        "beta_fast": ("a real number > 0", lambda x: x > 0),
        "beta_slow": ("a real number > 0", lambda x: x > 0),
        "low_freq_factor": ("a real number > 0", lambda x: x > 0),
        "high_freq_factor": ("a real number > 0", lambda x: x > 0),
        "partial_rotary_factor": ("a real number in (0, 1]", lambda x: 0 < x <= 1),
    }
    for key, (accepted, ok) in reals.items():
        text = getattr(args, key)
        if text is not None:
            mapping[key] = float_arg(text, "--" + key.replace("_", "-"), accepted, ok)
    if rule == "llama3":
        for key, value in LLAMA3_DEFAULTS.items():
            mapping.setdefault(key, value)
    if rule in ("dynamic", "yarn", "llama3", "longrope"):
        mapping["original_max_position_embeddings"] = L0
    if rule == "longrope":
        raise UsageError("--rule longrope needs its per-pair factor tables: use --config FILE")
    try:
        cfg = RopeScaling.from_mapping(width, base=base, scaling=mapping)
    except ValueError as e:
        raise UsageError(str(e)) from None
    return cfg, L0, L, {"trained": "--trained", "target": "--target"}


def _from_config(args) -> tuple[RopeScaling, int, int, dict]:
    given = [f"--{k.replace('_', '-')}" for k in _RULE_OPTIONS if getattr(args, k) is not None]
    if given:
        raise UsageError(f"--config reads the rule from the file: drop {', '.join(given)}")
    config = _read_config(args.config)
    try:
        layer = None if args.layer is None else int_arg(args.layer, "--layer", 0)
        cfg = rope_scaling_from_config(config, layer_type=args.layer_type, layer=layer)
    except ValueError as e:
        raise UsageError(f"--config {args.config}: {e}") from None
    source = {}
    if args.trained is not None:
        L0, source["trained"] = int_arg(args.trained, "--trained", 2), "--trained"
    elif cfg.L0 is not None:
        L0 = cfg.L0
        source["trained"] = (
            "original_max_position_embeddings"
            if cfg.original_max_position_embeddings is not None
            else "max_position_embeddings; pass --trained if the model was trained on shorter sequences"
        )
    else:
        raise UsageError(f"--config {args.config}: no trained length in the file: pass --trained")
    mpe = config.get("max_position_embeddings")
    if args.target is not None:
        L, source["target"] = int_arg(args.target, "--target", 1), "--target"
    elif isinstance(mpe, int) and not isinstance(mpe, bool) and mpe > L0:
        L, source["target"] = mpe, "max_position_embeddings"
    else:
        L, source["target"] = max(1, round(cfg.s * L0)), "factor x trained"
    return cfg, L0, L, source


def run(args) -> int:
    r"""Run ``posproof extend``: print the report (text or ``--json``); 0 on success."""
    resolution = int_arg(args.bound_resolution, "--bound-resolution", 1)
    if not args.config and (args.layer is not None or args.layer_type is not None):
        raise UsageError("--layer and --layer-type only apply with --config")
    cfg, L0, L, source = _from_config(args) if args.config else _from_options(args)
    report = extension.diagnose(cfg, L0, L, with_base_bound=not args.no_base_bound, fine_per_decade=resolution)
    if args.json:
        out = report.as_dict()
        out["source"] = source
        print(json.dumps(out, indent=2))
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
