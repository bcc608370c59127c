r"""The audit's own running time and the speed of the 50-digit references (never a timed test).

* ``audit_rope`` on the RoPE note's function, the Hugging Face style rotate-half with a float32 cache (NumPy and
  torch), a fused ``(q, k)`` function, and a broken one (findings and minimal examples cost extra calls);
  ``audit_alibi`` and ``audit_t5``; ``write_vectors``;
* ``rope_mp`` and ``sinusoidal_mp`` of 4096 positions x width 128 at 50 digits (target: <= 2 s for RoPE).

Run: ``.venv/bin/python bench/bench_audit.py [--quick]`` (``--quick``: one run each instead of the best of 3).
"""

from __future__ import annotations

import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _timing import best  # noqa: E402
from posproof.numeric import audit, rope_mp, sinusoidal_mp  # noqa: E402
from posproof.numeric.vectors import write_vectors  # noqa: E402

from tests.audit_corpus import all_cases  # noqa: E402


def once(f) -> float:
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def main() -> int:
    quick = "--quick" in sys.argv
    timer = once if quick else (lambda f: best(f, 3))
    cases = {c.name + ("" if c.correct else " (broken)"): c for c in all_cases()}
    wanted = [
        "note_functions.note_rope",
        "rotate_half.hf_rope",
        "torch_impls.torch_hf_rope",
        "fused_qk.apply_qk",
        "complex_numbers.complex_rope_conjugate (broken)",
        "cached.llama3_rope",
        "alibi_impls.alibi_slopes_pow2_only (broken)",
        "t5_impls.t5_bucket_no_cap (broken)",
    ]
    run = {"rope": audit.audit_rope, "alibi": audit.audit_alibi, "t5": audit.audit_t5}
    print("audit running time (seconds, width 64 unless the case says otherwise, profile to 1M included):")
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for name in wanted:
            if name not in cases:  # torch not installed
                print(f"  {name:<50} (skipped)")
                continue
            c = cases[name]
            t = timer(lambda c=c: run[c.scheme](c.fn, **c.kwargs))
            print(f"  {name:<50} {t:7.3f}")
        hf = cases["rotate_half.hf_rope"]
        t = timer(lambda: audit.audit_rope(hf.fn, layout="half", width=128))
        print(f"  {'rotate_half.hf_rope at width 128':<50} {t:7.3f}")
        total = once(lambda: [run[c.scheme](c.fn, **c.kwargs) for c in cases.values()])
        print(f"  {'the whole corpus (' + str(len(cases)) + ' cases), once':<50} {total:7.3f}")
    with tempfile.TemporaryDirectory() as d:
        print(f"write_vectors: {timer(lambda: write_vectors(d)):.3f} s")

    print("50-digit references, 4096 positions x width 128 (target for rope_mp: <= 2 s):")
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (4096, 128))
    pos = np.arange(4096)
    t_rope = once(lambda: rope_mp(x, pos, dps=50))
    t_half = once(lambda: rope_mp(x, pos, layout="half", dps=50))
    t_sin = once(lambda: sinusoidal_mp(pos, width=128, dps=50))
    print(f"  rope_mp interleaved  {t_rope:7.3f} s")
    print(f"  rope_mp half         {t_half:7.3f} s")
    print(f"  sinusoidal_mp        {t_sin:7.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
