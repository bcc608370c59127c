r"""Audit transformers' own RoPE for every model family that has one: each family's default configuration, per
layer type, and every scaling rule on a few families. Every such target is correct code, so each finding is a false
alarm of posproof and each exception a crash (both are listed). Needs torch and transformers (not in the default
test run):

    python bench/sweep_transformers.py [--families llama,gemma3,...] [--no-rules] [--json OUT]

Prints one line per target and the counts: targets, conform, false alarms, crashes, skipped (no text rotary
embedding, or a configuration posproof refuses for a stated reason).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
import warnings

#: Scaling rules tried on a few families (the default configuration's head width and base are kept).
RULES = {
    "linear": {"rope_type": "linear", "factor": 4.0},
    "dynamic": {"rope_type": "dynamic", "factor": 4.0},
    "yarn": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096},
    "llama3": {
        "rope_type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    },
}
RULE_FAMILIES = ("llama", "mistral", "qwen2", "gpt_neox", "phi3", "olmo2")


def _targets(families, rules: bool):
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    from posproof.numeric._audit_hf import load_config

    for model_type in families or sorted(CONFIG_MAPPING.keys()):
        try:
            config = load_config(model_type)
        except Exception as e:  # noqa: BLE001 - a family whose default configuration cannot be built
            yield model_type, None, f"skip: no default configuration ({type(e).__name__})"
            continue
        yield model_type, config, None
        if rules and model_type in RULE_FAMILIES:
            for name, scaling in RULES.items():
                c = dict(config)
                c.pop("rope_parameters", None)
                c["rope_scaling"] = dict(scaling)
                c["rope_theta"] = (config.get("rope_parameters") or {}).get("rope_theta", 10000.0)
                c["max_position_embeddings"] = 32768
                yield f"{model_type}+{name}", c, None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", help="comma-separated model types (default: every one transformers knows)")
    parser.add_argument("--no-rules", action="store_true", help="only the default configurations")
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    import transformers

    from posproof.numeric._audit_hf import TransformersRope, layer_types
    from posproof.numeric.audit import audit_rope

    families = args.families.split(",") if args.families else None
    counts = {"targets": 0, "conform": 0, "false alarms": 0, "crashes": 0, "skipped": 0}
    rows, times = [], []
    for name, config, skip in _targets(families, not args.no_rules):
        if config is None:
            counts["skipped"] += 1
            rows.append({"target": name, "result": skip})
            continue
        try:
            kinds = layer_types(config)
        except ValueError as e:
            counts["skipped"] += 1
            rows.append({"target": name, "result": f"skip: posproof refuses the config ({e})"})
            continue
        for lt in kinds:
            label = name + (f" [{lt}]" if lt else "")
            try:
                target = TransformersRope(config, lt)
            except Exception as e:  # noqa: BLE001 - transformers refuses the config, or there is no text RoPE
                counts["skipped"] += 1
                rows.append({"target": label, "result": f"skip: {e}"})
                continue
            counts["targets"] += 1
            t0 = time.perf_counter()
            try:
                report = audit_rope(target, name=target.describe, **target.expected)
            except Exception as e:  # noqa: BLE001 - a crash of the audit is what the sweep looks for
                counts["crashes"] += 1
                tb = traceback.format_exc().strip().splitlines()[-1]
                rows.append({"target": label, "result": "crash", "error": f"{type(e).__name__}: {e}", "tb": tb})
                print(f"CRASH {label}: {type(e).__name__}: {str(e)[:200]}", flush=True)
                continue
            times.append(time.perf_counter() - t0)
            if report.ok:
                counts["conform"] += 1
                rows.append({"target": label, "result": "conforms", "notes": list(report.notes)})
                print(f"ok    {label}", flush=True)
            else:
                counts["false alarms"] += 1
                rows.append(
                    {"target": label, "result": "false alarm", "findings": [f.as_dict() for f in report.findings]}
                )
                print(f"ALARM {label}: {', '.join(report.ids)}: {report.findings[0].message[:160]}", flush=True)
    times.sort()
    median = times[len(times) // 2] if times else float("nan")
    print(f"transformers {transformers.__version__}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"median audit {median:.2f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"version": transformers.__version__, "counts": counts, "rows": rows}, fh, indent=1)
    return 0 if counts["false alarms"] == 0 and counts["crashes"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
