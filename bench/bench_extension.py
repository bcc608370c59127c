r"""Context extension: what ``posproof extend`` costs (never a timed test).

The base-bound search of Men et al. is the slow part: each base is checked at every ``m <= L`` (``L * d/2``
cosines, blocks of 4096 positions, stopping at the first block with a negative sum), a few hundred bases per
search. The frequencies and the per-pair diagnostics cost microseconds to milliseconds.

Run: ``.venv/bin/python bench/bench_extension.py``
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _timing import best  # noqa: E402
from posproof.numeric.scaling.extension import base_bound, extension_report  # noqa: E402
from posproof.numeric.scaling.rules import rope_inv_freq  # noqa: E402


def main() -> None:
    yarn = {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096}
    t = best(lambda: rope_inv_freq(128, base=10000.0, scaling=yarn), repeat=20)
    print(f"rope_inv_freq yarn, d = 128:                         {t * 1e6:8.1f} us")
    t = best(lambda: extension_report(128, 10000.0, yarn, trained=4096, target=32768, with_base_bound=False))
    print(f"diagnostics without base bound, L = 32768:            {t * 1e3:8.1f} ms")
    for L in (4096, 32768, 131072):
        holder: dict = {}
        t = best(lambda L=L, holder=holder: holder.update(bb=base_bound(128, L)), repeat=1)
        bb = holder["bb"]
        print(f"base bound d = 128, L = {L:6d}: {t:6.2f} s, {bb.bases_evaluated} bases, base {bb.base:.4g}")


if __name__ == "__main__":
    main()
