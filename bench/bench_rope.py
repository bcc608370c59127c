r"""RoPE speed, as ratios from one run (never a timed test).

On one float32 array of 32768 tokens x 128 channels: memcpy, the cached apply (interleaved, half), the seed's
function, and the block-diagonal matrix product on a slice at two widths (its cost grows as d^2, the
element-wise kernel's as d). Targets (issue 4): cached interleaved apply within 2x of memcpy; >= 30x faster than
the seed's function.

Run: ``.venv/bin/python bench/bench_rope.py``
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _timing import best  # noqa: E402

from numeric.rotary import rope, rope_table  # noqa: E402
from tests.seed_functions import seed_rope  # noqa: E402


def block_diagonal(width: int, position: float, base: float = 10000.0) -> np.ndarray:
    r"""The explicit ``R_m`` (width x width, float32) of one position."""
    theta = base ** (-np.arange(0, width, 2) / width)
    c, s = np.cos(position * theta), np.sin(position * theta)
    R = np.zeros((width, width), dtype=np.float32)
    i = np.arange(0, width, 2)
    R[i, i], R[i, i + 1], R[i + 1, i], R[i + 1, i + 1] = c, -s, s, c
    return R


def main() -> int:
    tokens, width = 32768, 128
    rng = np.random.default_rng(0)
    x = rng.standard_normal((tokens, width)).astype(np.float32)  # (tokens, width)
    positions = np.arange(tokens)
    out = np.empty_like(x)

    t_inter = rope_table(positions, width, layout="interleaved")
    t_half = rope_table(positions, width, layout="half")
    # Same answers first (float32 rounding), then timings.
    ref = seed_rope(x, positions)
    assert np.allclose(t_inter.apply(x), ref, rtol=0, atol=1e-5)
    assert np.allclose(rope(x, positions), ref, rtol=0, atol=1e-5)

    times = {
        "memcpy (np.copyto)": best(lambda: np.copyto(out, x)),
        "cached apply, interleaved": best(lambda: t_inter.apply(x, out=out)),
        "cached apply, interleaved, no finite check": best(lambda: t_inter.apply(x, out=out, check_finite=False)),
        "cached apply, half": best(lambda: t_half.apply(x, out=out)),
        "rope() (table built per call)": best(lambda: rope(x, positions), 3),
        "seed's function": best(lambda: seed_rope(x, positions), 3),
    }
    # Block-diagonal product, on a slice of rows (one matrix per row), at two widths.
    rows = 256
    block = {}
    for w in (64, 128):
        xs = x[:rows, :w]
        mats = np.stack([block_diagonal(w, m) for m in range(rows)])  # (rows, w, w)
        block[w] = (
            best(lambda mats=mats, xs=xs: np.einsum("tij,tj->ti", mats, xs), 3) / rows * tokens
        )  # scaled to all tokens
        elem = rope_table(positions[:rows], w)
        times[f"cached apply, width {w}, per token x {tokens}"] = (
            best(lambda elem=elem, xs=xs: elem.apply(xs), 7) / rows * tokens
        )
    times["block-diagonal product, width 64 (scaled to all tokens)"] = block[64]
    times["block-diagonal product, width 128 (scaled to all tokens)"] = block[128]

    base = times["memcpy (np.copyto)"]
    print(f"float32 array {tokens} x {width} ({x.nbytes / 2**20:.0f} MiB); best of several runs; ratios to memcpy")
    for name, t in times.items():
        print(f"  {name:<58} {t * 1e3:9.2f} ms   {t / base:7.2f} x memcpy")
    inter = times["cached apply, interleaved"]
    seed = times["seed's function"]
    print(f"cached interleaved apply / memcpy        = {inter / base:.2f}   (target <= 2)")
    print(f"seed's function / cached interleaved     = {seed / inter:.1f}   (target >= 30)")
    print(f"seed's function / cached half            = {seed / times['cached apply, half']:.1f}")
    print(
        f"block-diagonal growth 64 -> 128 channels = {block[128] / block[64]:.2f}x   (d^2 predicts 4x, d predicts 2x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
