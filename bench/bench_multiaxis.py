r"""Multi-axis RoPE kernel speed, as ratios to a memcpy of the same array in one run (never a timed test).

On one float32 array of 32768 tokens x 128 channels with M-RoPE position vectors (t, h, w): the cached apply
(:func:`posproof.numeric.multiaxis.multiaxis_table`, half layout, chunked and interleaved sections) and the 1-D
table of the same shape, warm (fastest of many calls) and cold (every operand from memory; see bench_rope.py).
Target: the cached apply <= 2x a memcpy with operands from memory, like 1-D RoPE.

Run: ``.venv/bin/python bench/bench_multiaxis.py``
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _timing import best  # noqa: E402
from bench_rope import cold  # noqa: E402
from posproof.numeric.multiaxis import mrope_axes, multiaxis_table  # noqa: E402
from posproof.numeric.rotary import rope_table  # noqa: E402


def main() -> int:
    tokens, width = 32768, 128
    rng = np.random.default_rng(0)
    x = rng.standard_normal((tokens, width)).astype(np.float32)
    out = np.empty_like(x)
    pos = rng.integers(0, 4096, (tokens, 3))
    tables = {
        "1-D rope_table (half)": rope_table(pos[:, 0], width=width, base=1e6, layout="half"),
        "M-RoPE chunked [16, 24, 24]": multiaxis_table(pos, width=width, axes=mrope_axes([16, 24, 24]), base=1e6),
        "M-RoPE interleaved [24, 20, 20]": multiaxis_table(
            pos, width=width, axes=mrope_axes([24, 20, 20], interleaved=True), base=1e6
        ),
    }
    copy = (best(lambda: np.copyto(out, x)), cold(lambda: np.copyto(out, x)))
    print(f"{tokens} x {width} float32; memcpy warm {copy[0] * 1e3:.2f} ms, cold {copy[1] * 1e3:.2f} ms")
    for name, table in tables.items():
        warm, c = best(lambda t=table: t.apply(x, out=out)), cold(lambda t=table: t.apply(x, out=out))
        print(f"{name:<34} warm {warm / copy[0]:4.1f}x  cold {c / copy[1]:4.1f}x  memcpy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
