r"""Audit transformers' own 2-D vision rotaries (``rope_type: "axial"``: ``forward(x, position_ids)`` with
``(tokens, 2)`` (row, column) positions) with :class:`posproof.numeric.audit.hf.TransformersVisionRope`, each
family's default vision configuration against axial 2-D RoPE (shared frequencies, transformers' axial default;
Pixtral's split ones). Needs torch and transformers:

    python bench/sweep_transformers_vision.py [--families qwen2_vl,pixtral,...] [--json OUT]

Prints one line per rotary and the counts: conform, findings (each to confirm by an independent NumPy computation
before it is called real: a finding on correct code is a bug of posproof's), unsupported (the adapter cannot call
the family's code, reason listed), skipped (no default configuration or no axial vision rotary).
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

#: Families whose vision rotary declares split axial frequencies (the even ones to the row, the odd to the column).
SPLIT = ("pixtral",)


def axial_families() -> list[str]:
    r"""The model types whose modeling module defines a vision rotary with ``compute_axial_rope_parameters`` (read
    from the installed transformers' sources: importing every modeling module takes minutes)."""
    import transformers

    root = Path(transformers.__file__).parent / "models"
    out = []
    for path in sorted(root.glob("*/modeling_*.py")):
        if "def compute_axial_rope_parameters" in path.read_text(encoding="utf-8"):
            out.append(path.parent.name)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", help="comma-separated model types (default: every one with an axial rotary)")
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    import transformers
    from posproof.numeric.audit import AuditCallError, audit_rope
    from posproof.numeric.audit.hf import TransformersVisionRope, vision_rotaries

    families = args.families.split(",") if args.families else axial_families()
    counts = {"conform": 0, "findings": 0, "unsupported": 0, "skipped": 0}
    rows = []
    for model_type in families:
        try:
            names = vision_rotaries(model_type)
        except Exception as e:  # noqa: BLE001 - no modeling module for this name
            counts["skipped"] += 1
            rows.append({"target": model_type, "result": f"skip: {type(e).__name__}: {e}"})
            print(f"skip  {model_type}: {e}", flush=True)
            continue
        for name in names:
            label = f"{model_type} {name}"
            try:
                target = TransformersVisionRope(model_type, name, "split" if model_type in SPLIT else "shared")
                report = audit_rope(target, name=target.describe, **target.expected)
            except (AuditCallError, ValueError, TypeError, KeyError, AttributeError, RuntimeError) as e:
                counts["unsupported"] += 1
                rows.append({"target": label, "result": "unsupported", "error": f"{type(e).__name__}: {e}"})
                print(f"unsup {label}: {type(e).__name__}: {str(e)[:300]}", flush=True)
                continue
            if report.ok:
                counts["conform"] += 1
                rows.append({"target": label, "result": "conforms"})
                print(f"ok    {label}", flush=True)
            else:
                counts["findings"] += 1
                rows.append({"target": label, "result": "finding", "findings": [f.as_dict() for f in report.findings]})
                print(f"FIND  {label}: {', '.join(report.ids)}: {report.findings[0].message[:200]}", flush=True)
    print(f"transformers {transformers.__version__}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"version": transformers.__version__, "counts": counts, "rows": rows}, fh, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
