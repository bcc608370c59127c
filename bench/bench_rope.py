r"""RoPE kernel speed, as ratios to a memcpy of the same array in one run (never a timed test).

On one float32 array of 32768 tokens x 128 channels: memcpy, the cached apply (interleaved, half, each with and
without its finite check, and in place), ``rope()`` (table built per call), the NumPy ``rope`` of "Positional
encoding: give tokens a sense of order" (the RoPE note), and the block-diagonal matrix product on a slice at two
widths (its cost grows as d^2, the element-wise kernel's as d).

Two ways to time, both printed:

* warm: the fastest of many back-to-back calls. A 16 MiB memcpy then runs largely from the 32 MiB L3 cache,
  while the kernels (which also read a 16-32 MiB table) cannot, so warm ratios are the pessimistic ones;
* cold: the median of calls each made after writing a 96 MiB buffer (every operand comes from memory, as in a
  model whose other tensors pushed them out of the cache).

Targets: cached interleaved apply with its finite check <= 2x memcpy; half layout <= 2.5x.

Run: ``.venv/bin/python bench/bench_rope.py``
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _timing import best  # noqa: E402
from posproof.numeric.rotary import rope, rope_table  # noqa: E402

from tests.note_functions import note_rope as note_rope  # noqa: E402  (the RoPE note's function, verbatim)

_EVICT = np.ones(24 * 2**20, dtype=np.float32)  # 96 MiB: three times the L3 cache


def cold(f, repeat: int = 15) -> float:
    r"""The median time of ``f()`` with every cache line evicted before each call (after one warm-up)."""
    f()
    times = []
    for _ in range(repeat):
        np.add(_EVICT, 1.0, out=_EVICT)
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


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
    scratch = x.copy()

    t_inter = rope_table(positions, width=width, layout="interleaved")
    t_half = rope_table(positions, width=width, layout="half")
    # Same answers first (float32 rounding), then timings.
    ref = note_rope(x, positions)
    assert np.allclose(t_inter.apply(x), ref, rtol=0, atol=1e-5)
    assert np.allclose(rope(x, positions), ref, rtol=0, atol=1e-5)
    assert np.allclose(t_half.apply(x), rope(x.astype(np.float64), positions, layout="half"), rtol=0, atol=1e-5)

    kernels = {
        "memcpy (np.copyto)": lambda: np.copyto(out, x),
        "cached apply, interleaved": lambda: t_inter.apply(x, out=out),
        "cached apply, interleaved, no finite check": lambda: t_inter.apply(x, out=out, check_finite=False),
        "cached apply, interleaved, in place": lambda: t_inter.apply(scratch, out=scratch),
        "cached apply, half": lambda: t_half.apply(x, out=out),
        "cached apply, half, no finite check": lambda: t_half.apply(x, out=out, check_finite=False),
        "cached apply, half, in place": lambda: t_half.apply(scratch, out=scratch),
    }
    warm = {name: best(f, 25) for name, f in kernels.items()}
    chilled = {name: cold(f) for name, f in kernels.items()}
    others = {
        "rope() (table built per call)": best(lambda: rope(x, positions), 3),
        "the RoPE note's rope": best(lambda: note_rope(x, positions), 3),
    }
    # Block-diagonal product, on a slice of rows (one matrix per row), at two widths.
    rows = 256
    block = {}
    for w in (64, 128):
        xs = x[:rows, :w]
        mats = np.stack([block_diagonal(w, m) for m in range(rows)])  # (rows, w, w)
        block[w] = best(lambda mats=mats, xs=xs: np.einsum("tij,tj->ti", mats, xs), 3) / rows * tokens
        elem = rope_table(positions[:rows], width=w)
        others[f"cached apply, width {w}, per token x {tokens}"] = (
            best(lambda elem=elem, xs=xs: elem.apply(xs), 7) / rows * tokens
        )
    others["block-diagonal product, width 64 (scaled to all tokens)"] = block[64]
    others["block-diagonal product, width 128 (scaled to all tokens)"] = block[128]

    base_w, base_c = warm["memcpy (np.copyto)"], chilled["memcpy (np.copyto)"]
    print(f"float32 array {tokens} x {width} ({x.nbytes / 2**20:.0f} MiB); ratios to memcpy in the same mode")
    print(f"  {'':<46} {'warm ms':>9} {'x memcpy':>9}   {'cold ms':>9} {'x memcpy':>9}")
    for name in kernels:
        w, c = warm[name], chilled[name]
        print(f"  {name:<46} {w * 1e3:9.2f} {w / base_w:9.2f}   {c * 1e3:9.2f} {c / base_c:9.2f}")
    for name, t in others.items():
        print(f"  {name:<46} {t * 1e3:9.2f} {t / base_w:9.2f}")
    inter, half = "cached apply, interleaved", "cached apply, half"
    print(
        f"cached interleaved apply / memcpy = {warm[inter] / base_w:.2f} warm, {chilled[inter] / base_c:.2f} cold"
        "   (target <= 2)"
    )
    print(
        f"cached half apply / memcpy        = {warm[half] / base_w:.2f} warm, {chilled[half] / base_c:.2f} cold"
        "   (target <= 2.5)"
    )
    note = others["the RoPE note's rope"]
    print(f"the RoPE note's rope / cached interleaved = {note / warm[inter]:.1f}   (target >= 30)")
    print(f"the RoPE note's rope / cached half        = {note / warm[half]:.1f}")
    print(
        f"block-diagonal growth 64 -> 128 channels = {block[128] / block[64]:.2f}x   (d^2 predicts 4x, d predicts 2x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
