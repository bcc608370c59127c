r"""Audit transformers' own multi-axis vision rotaries (``compute_axial_rope_parameters``: ``forward(x, position_ids)``
with one position vector per token) with :class:`posproof.numeric.audit.hf.TransformersVisionRope`, each family's
default vision configuration at a small head width against the declaration posproof reads from that configuration
(:func:`posproof.numeric.multiaxis.config.multiaxis_from_config`, ``part="vision"``), by
:func:`posproof.numeric.audit.audit_multiaxis`. Needs torch and transformers:

    python bench/sweep_transformers_vision.py [--families qwen2_vl,pixtral,...] [--own-width] [--json OUT]

``--own-width`` builds each rotary at its configuration's own head width (the default: the first of
``PROBE_WIDTHS``, 24, 48, 96, its class accepts).

Prints one line per rotary and the counts: conform, findings (each to confirm by an independent NumPy computation
before it is called real: a finding on correct code is a bug of posproof's), unsupported (the adapter cannot call
the family's code, reason listed), skipped (no default configuration or no axial vision rotary).

Measured with transformers 5.24.0 (33 rotaries of 33 families), at the probed width and at each configuration's
own head width alike: conform 33, findings 0, unsupported 0, skipped 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

import numpy as np


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


def sweep(families: list[str], *, own_width: bool = False, echo=print) -> tuple[dict, list[dict]]:
    r"""The audit of every axial vision rotary of ``families`` (``own_width``: at its configuration's head width):
    the counts (conform, findings, unsupported, skipped) and one row per rotary; ``echo`` gets one line per rotary."""
    from posproof.numeric.audit import AuditCallError, audit_multiaxis
    from posproof.numeric.audit.hf import TransformersVisionRope, vision_rotaries

    counts = {"conform": 0, "findings": 0, "unsupported": 0, "skipped": 0}
    rows = []
    for model_type in families:
        try:
            names = vision_rotaries(model_type)
        except Exception as e:  # noqa: BLE001 - no modeling module for this name
            counts["skipped"] += 1
            rows.append({"target": model_type, "result": f"skip: {type(e).__name__}: {e}"})
            echo(f"skip  {model_type}: {e}")
            continue
        for name in names:
            label = f"{model_type} {name}"
            try:
                target = TransformersVisionRope(model_type, name)
                if own_width:
                    target = TransformersVisionRope(model_type, name, width=target.own_width)
                with np.errstate(all="ignore"):
                    report = audit_multiaxis(target, name=target.describe, **target.expected)
            except (AuditCallError, ValueError, TypeError, KeyError, AttributeError, RuntimeError) as e:
                counts["unsupported"] += 1
                rows.append({"target": label, "result": "unsupported", "error": f"{type(e).__name__}: {e}"})
                echo(f"unsup {label}: {type(e).__name__}: {str(e)[:300]}")
                continue
            row = {"target": label, "declared": report.checked}
            if report.ok:
                counts["conform"] += 1
                rows.append({**row, "result": "conforms"})
                echo(f"ok    {label}: {report.checked}")
            else:
                counts["findings"] += 1
                rows.append({**row, "result": "finding", "findings": [f.as_dict() for f in report.findings]})
                echo(f"FIND  {label}: {', '.join(report.ids)}: {report.findings[0].message[:200]}")
    return counts, rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", help="comma-separated model types (default: every one with an axial rotary)")
    parser.add_argument("--own-width", action="store_true", help="build each rotary at its config's head width")
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    import transformers

    families = args.families.split(",") if args.families else axial_families()
    counts, rows = sweep(families, own_width=args.own_width, echo=lambda line: print(line, flush=True))
    print(f"transformers {transformers.__version__}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"version": transformers.__version__, "counts": counts, "rows": rows}, fh, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
