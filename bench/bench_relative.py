r"""Relative schemes: speed as ratios from one run (never a timed test).

Transformer-XL: the relative-shift trick against the direct O(L^2 d) gather of R_{i-j}; DeBERTa: the public
code's gather/transpose against the direct per-pair index. Both pairs compute the same scores (tests prove it);
the point of the tricks is one (L, 2k) or (L, L) matrix product instead of an (L, L, d) gather.

Run: ``.venv/bin/python bench/bench_relative.py``
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _timing import best  # noqa: E402
from posproof.numeric.deberta import deberta_scores_direct, deberta_scores_gather  # noqa: E402
from posproof.numeric.t5 import t5_relative_bucket  # noqa: E402
from posproof.numeric.transformer_xl import txl_scores_direct, txl_scores_shift  # noqa: E402


def main() -> None:
    rng = np.random.default_rng(0)
    qlen, mlen, d, d_model = 256, 128, 64, 128
    q, k = rng.normal(size=(qlen, d)), rng.normal(size=(qlen + mlen, d))
    W, u, v = rng.normal(size=(d, d_model)), rng.normal(size=d), rng.normal(size=d)
    t_direct = best(lambda: txl_scores_direct(q, k, W, u, v))
    t_shift = best(lambda: txl_scores_shift(q, k, W, u, v))
    print(
        f"Transformer-XL qlen={qlen} mlen={mlen} d={d}: direct {t_direct * 1e3:.1f} ms, "
        f"shift {t_shift * 1e3:.2f} ms, direct/shift = {t_direct / t_shift:.0f}x"
    )

    L, dh, span = 512, 64, 256
    Qc, Kc = rng.normal(size=(L, dh)), rng.normal(size=(L, dh))
    Qr, Kr = rng.normal(size=(2 * span, dh)), rng.normal(size=(2 * span, dh))
    t_d = best(lambda: deberta_scores_direct(Qc, Kc, Qr, Kr, k=span))
    t_g = best(lambda: deberta_scores_gather(Qc, Kc, Qr, Kr, k=span))
    print(
        f"DeBERTa L={L} d={dh} k={span}: direct {t_d * 1e3:.1f} ms, gather {t_g * 1e3:.2f} ms, "
        f"direct/gather = {t_d / t_g:.0f}x"
    )

    r = np.arange(-2048, 2048)[None, :] - np.arange(2048)[:, None]
    t_b = best(lambda: t5_relative_bucket(r))
    copy = best(lambda: r.copy())
    print(f"T5 buckets for a 2048 x 4096 offset matrix: {t_b * 1e3:.1f} ms ({t_b / copy:.0f}x a copy of the input)")


if __name__ == "__main__":
    main()
