r"""Audit transformers' own RoPE for every model family that has one: each family's default configuration, per
layer type, and every scaling rule on a few families. Every such target is correct code, so each finding is a false
alarm of posproof and each exception a crash (both are listed). Needs torch and transformers (not in the default
test run):

    python bench/sweep_transformers.py [--families llama,gemma3,...] [--no-rules] [--json OUT]

Prints one line per target and the counts: targets (audited), conform, false alarms, crashes (an exception inside
the audit), unsupported (the adapter of numeric/audit/hf.py cannot call this family's code in the standard way:
its plain call raised, reason listed) and skipped (no default configuration, no text rotary embedding, a
configuration transformers or posproof refuses).

Measured with transformers 5.24.0 (every model type, the scaling rules on a few): targets 265, conform 264,
intended deviations 1 (NanoChat's sign), false alarms 0, crashes 0, unsupported 0, skipped 615 (508 model types
without a text rotary class; the rest: vision or audio parts, configs posproof's reader refuses, GPT-J's and
CodeGen's rotary without a rope_theta, Phi-3's class refusing the non-longrope rules).
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
#: Families whose RoPE departs from the definition on purpose, with the finding that says so and the reason: the
#: audit is right to report them; they are counted as deviations, not as false alarms.
INTENDED = {
    "nanochat": (
        "rotation-sign",
        "NanoChat's rotate_half flips the sign on purpose ('with flipped signs for NanoChat')",
    ),
}


def _targets(families, rules: bool):
    from posproof.numeric.audit.hf import load_config
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

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
    from posproof.numeric.audit import AuditCallError, audit_rope
    from posproof.numeric.audit.hf import TransformersRope, layer_types

    families = args.families.split(",") if args.families else None
    counts = {"targets": 0, "conform": 0, "intended deviations": 0, "false alarms": 0, "crashes": 0}
    counts.update({"unsupported": 0, "skipped": 0})
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
            t0 = time.perf_counter()
            try:
                report = audit_rope(target, name=target.describe, **target.expected)
            except AuditCallError as e:  # the plain call raised: this family's code is not called this way
                counts["unsupported"] += 1
                rows.append({"target": label, "result": "unsupported", "error": str(e)})
                print(f"unsup {label}: {str(e)[:300]}", flush=True)
                continue
            except Exception as e:  # noqa: BLE001 - a crash of the audit is what the sweep looks for
                counts["targets"] += 1
                counts["crashes"] += 1
                tb = traceback.format_exc().strip().splitlines()[-1]
                rows.append({"target": label, "result": "crash", "error": f"{type(e).__name__}: {e}", "tb": tb})
                print(f"CRASH {label}: {type(e).__name__}: {str(e)[:200]}", flush=True)
                continue
            counts["targets"] += 1
            times.append(time.perf_counter() - t0)
            if report.ok:
                counts["conform"] += 1
                rows.append({"target": label, "result": "conforms", "notes": list(report.notes)})
                print(f"ok    {label}", flush=True)
            elif name in INTENDED and report.ids == (INTENDED[name][0],):
                counts["intended deviations"] += 1
                rows.append({"target": label, "result": "intended deviation", "why": INTENDED[name][1]})
                print(f"devia {label}: {report.ids[0]}: {INTENDED[name][1]}", flush=True)
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
