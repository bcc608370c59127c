r"""Claims behind statements of 'Positional Encoding 101' and the RoPE note that no scheme module decides.

Each claim recomputes what a sentence of the article says with a number (how many words a cycle takes, which pair is
at 1.0 at position 50, the last pair index), or checks what a sentence describes (rotation per head, what RoPE's
decay bounds, which terms DeBERTa keeps). ``derivations.commands.annotate`` lists the article's statements in order with
the claim behind each.

>>> [c.id for c in claims()][:2]
['article-binary-columns', 'article-pair-index-range']
"""

# Long module: one claim per sentence of the article, in the article's order, each beside its recomputation; split,
# the order the annotated article follows would live in two files.
from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp
from posproof.numeric import deberta, t5, tolerances
from posproof.numeric.rotary import rope_decay_curve, rope_mp
from posproof.numeric.sinusoid import inverse_frequencies, inverse_frequencies_mp, sinusoidal
from posproof.symbolic import sources, tables
from posproof.symbolic.engine import settings
from posproof.symbolic.engine.core import Fact, Step, Theorem

TOPIC = "article"
BINARY = sources.article("3. The Binary Breakthrough")
MATHS = sources.article("Maths behind Positional Encoding")
MORE = sources.article(r"More on '$i$' and '$d_{\mathrm{model}}$'")
WAVES = sources.article("Differentiating between Nearby and Distant Words")
ROPE_MATHS = sources.article("Maths behind RoPE")
ROPE_PROPERTIES = sources.article("Properties, Efficiency and Performance of RoPE")

pos = sp.Symbol("pos", real=True)
mid = sp.Symbol("a", real=True)  # the midpoint of two neighbouring positions
varphi = sp.Function("varphi")


def _fmt(v, digits: int) -> str:
    return mpmath.nstr(v, digits, strip_zeros=False)


# ---- the failed codes and the sinusoidal code ------------------------------------------------------------------


def _columns(dps: int, column=lambda p, j: (p >> j) & 1):
    value = {f"bit {j}": [column(p, j) for p in range(8)] for j in range(3)}
    # the period of bit j: the least P > 0 with bit j of p + P equal to bit j of p for every p < 256
    value[r"periods of bits $0, \dots, 7$"] = [
        next(P for P in range(1, 513) if all(column(p + P, j) == column(p, j) for p in range(256))) for j in range(8)
    ]
    return value, list(value.items())


def binary_columns() -> Fact:
    return Fact(
        "article-binary-columns",
        "Binary counting: bit $j$ of 0, 1, 2, … repeats with period $2^{j+1}$",
        TOPIC,
        BINARY,
        "The columns of 000, 001, ..., 111 read from the right: bit 0 alternates 0, 1; bit 1 runs 0, 0, 1, 1; bit 2 "
        r"runs 0, 0, 0, 0, 1, 1, 1, 1; over $0, \dots, 255$ bit $j$ repeats with period $2^{j+1}$, as the article "
        "says.",
        {
            "bit 0": [0, 1, 0, 1, 0, 1, 0, 1],
            "bit 1": [0, 0, 1, 1, 0, 0, 1, 1],
            "bit 2": [0, 0, 0, 0, 1, 1, 1, 1],
            r"periods of bits $0, \dots, 7$": [2, 4, 8, 16, 32, 64, 128, 256],
        },
        _columns,
        method="exact integer arithmetic (shifts and masks)",
        wrong=lambda dps: _columns(dps, column=lambda p, j: (p >> (2 - j)) & 1 if j < 3 else (p >> j) & 1),
        notes="Read from the left, the three columns give other periods.",
        formula=sp.Eq(sp.Function("bit_j")(pos + 2 ** (sp.Symbol("j") + 1)), sp.Function("bit_j")(pos)),
    )


def _pair_index(dps: int, inclusive: bool = False):
    width = 512
    pairs = inverse_frequencies(width, base=10000.0).size  # the frequencies the code computes: one per pair
    last = pairs if inclusive else pairs - 1  # i = 0 .. d/2 - 1, or 0 .. d/2 as the article writes
    columns = sinusoidal([0], width=width).shape[1]
    value = {"pairs": last + 1, "last i": last, "dims of the last pair": [2 * last, 2 * last + 1], "columns": columns}
    return value, list(value.items())


def pair_index_range() -> Fact:
    return Fact(
        "article-pair-index-range",
        r"$d_{\mathrm{model}} = 512$: 256 pairs, $i = 0, \dots, 255 = d/2 - 1$, the last on dims 510 and 511",
        TOPIC,
        f"{MATHS}; {MORE}",
        r"numeric.sinusoid computes one frequency per pair and $d = 512$ columns: the pair index runs "
        r"$0, \dots, d/2 - 1 = 255$ and pair 255 fills dims 510, 511. An index $i = d/2 = 256$ would fill dims 512 "
        "and 513, which do not exist.",
        {"pairs": 256, "last i": 255, "dims of the last pair": [510, 511], "columns": 512},
        _pair_index,
        method="numeric.sinusoid (array shapes)",
        wrong=lambda dps: _pair_index(dps, inclusive=True),
        notes=(
            r"Letting $i$ run up to $d_{\mathrm{model}}/2$, as the article's 'up to "
            r"$d_{\mathrm{model}}/2$' reads, would need one pair more than the code has."
        ),
        formula=sp.Eq(sp.Symbol("i_last"), sp.Symbol("d") / 2 - 1),
    )


def _cycles(dps: int, period=lambda th: 2 * mpmath.pi / th):
    th = inverse_frequencies_mp(512, base=10000, dps=dps)
    lam = [period(x) for x in th]
    hundreds = [i for i, x in enumerate(lam) if 100 <= x < 1000]
    small = inverse_frequencies_mp(4, base=10000, dps=dps)[1]  # the dry run's slow pair
    value = {
        "words per cycle, i = 0": _fmt(lam[0], 4),
        "words per cycle, i = 128": _fmt(lam[128], 4),
        "ratio": _fmt(lam[128] / lam[0], 4),
        "words per cycle, i = 255": _fmt(lam[255], 5),
        r"pairs with cycles of $100, \dots, 999$ words": [hundreds[0], hundreds[-1]],
        r"$d_{\mathrm{model}} = 4$, pair 1: cycles in 500 words": _fmt(500 / period(small), 3),
    }
    return value, list(value.items())


def cycle_lengths() -> Fact:
    return Fact(
        "article-cycle-lengths",
        r"$d_{\mathrm{model}} = 512$: pair 0 completes a cycle in $2\pi \approx 6.283$ words, pair 128 in "
        r"$200\pi \approx 628.3$, the slowest in 60611",
        TOPIC,
        f"{MORE}, Example B; {WAVES}",
        r"The wavelength $2\pi/\theta_i$ of pair $i$: 6.283 words at $i = 0$, 628.3 at $i = 128$ (ratio 100, as the "
        "article says), "
        r"60611 at $i = 255$; cycles of 'hundreds of words' are pairs $77, \dots, 140$. In the "
        r"$d_{\mathrm{model}} = 4$ dry run the slow "
        r"pair ($\theta = 0.01$) turns 0.796 of a cycle over 500 words.",
        {
            "words per cycle, i = 0": "6.283",
            "words per cycle, i = 128": "628.3",
            "ratio": "100.0",
            "words per cycle, i = 255": "60611.",
            r"pairs with cycles of $100, \dots, 999$ words": [77, 140],
            r"$d_{\mathrm{model}} = 4$, pair 1: cycles in 500 words": "0.796",
        },
        _cycles,
        method="mpmath at {dps} digits (numeric.sinusoid.inverse_frequencies_mp)",
        wrong=lambda dps: _cycles(dps, period=lambda th: 1 / th),
        notes=r"The denominator $1/\theta_i$ is not the number of words per cycle, which the article's 'one "
        "word' for the first dimension takes it for.",
        formula=sp.Eq(sp.Symbol("lambda_i"), 2 * sp.pi / sp.Symbol("theta_i")),
    )


def fast_wave_step() -> Theorem:
    half = sp.Rational(1, 2)
    step = (sp.sin(mid + half) - sp.sin(mid - half)) ** 2
    e1 = 4 * sp.sin(half) ** 2 * sp.cos(mid) ** 2
    e2 = 4 * sp.sin(half) ** 2 - 4 * sp.sin(half) ** 2 * sp.sin(mid) ** 2
    return Theorem(
        "article-fast-wave-step",
        r"The fastest wave moves at most $2 \sin(1/2) \approx 0.959$ between neighbours: "
        r"$(\sin(a + 1/2) - \sin(a - 1/2))^2 \le 4 \sin^2(1/2)$",
        TOPIC,
        WAVES,
        (
            Step(
                step, e1, r"$\sin(a + 1/2) - \sin(a - 1/2) = 2 \sin(1/2) \cos a$", ("expand", "expand_trig", "expand")
            ),
            Step(e1, e2, r"$\cos^2 = 1 - \sin^2$", ("factor_terms", "trigsimp")),
            Step(e2, 4 * sp.sin(half) ** 2, r"the gap $4 \sin^2(1/2) \sin^2 a$ is a square", ("expand",), rel="<="),
        ),
        rel="<=",
        assumptions=(
            r"neighbouring positions $a - 1/2$ and $a + 1/2$, $a$ real ($\mathrm{pos} = a - 1/2$)",
            r"the fastest pair of the paper's code has $\theta_0 = 1$: "
            r"$\mathrm{PE}(\mathrm{pos}, 0) = \sin(\mathrm{pos})$",
        ),
        notes=(
            r"So one step moves the wave by at most 0.959, never from a peak (1.0) to a valley (-1.0), a move "
            r"of 2 that would need $\theta = \pi$; from $\mathrm{pos} = 0$ to 1 it moves from 0 to $\sin 1 = "
            r"0.841$. The cosine of the pair obeys the same bound. The first step, "
            r"$\sin^2 1$, is not the largest."
        ),
        wrong=sp.sin(1) ** 2,
        formula=sp.Le(step, 4 * sp.sin(half) ** 2),  # the proved relation (the engine checks it is)
    )


def _heights(dps: int, wave=mpmath.sin):
    th = inverse_frequencies_mp(512, base=10000, dps=dps)

    def nearest_one(p):
        return min(range(len(th)), key=lambda i: abs(1 - wave(p * th[i])))

    i50, i6 = nearest_one(50), nearest_one(6)
    value = {
        "PE(0, 2i), every i": sorted({_fmt(wave(0 * x), 3) for x in th}),
        r"$\theta_{192}$": _fmt(th[192], 3),
        "PE(1, 384), PE(2, 384)": [_fmt(wave(p * th[192]), 4) for p in (1, 2)],
        "pair nearest 1.0 at pos 50": i50,
        "its height at pos 50": _fmt(wave(50 * th[i50]), 5),
        "height at pos 50 of the slowest pair": _fmt(wave(50 * th[255]), 3),
        "pair nearest 1.0 at pos 6": i6,
    }
    return value, list(value.items())


def slow_wave_heights() -> Fact:
    return Fact(
        "article-slow-wave-heights",
        r"$d_{\mathrm{model}} = 512$: every sine is 0 at position 0; 1.0 at position 50 is reached by pair 96, "
        "not by a slow pair",
        TOPIC,
        WAVES,
        r"The sine dims $\sin(\mathrm{pos}\, \theta_i)$: at $\mathrm{pos} = 0$ all are 0; pair 192 "
        r"($\theta = 10^{-3}$) reads 0.001 at $\mathrm{pos} = 1$ and 0.002 at $\mathrm{pos} = 2$; the pair closest "
        r"to 1.0 at $\mathrm{pos} = 50$ is $i = 96$ ($\theta = 10^{-3/2}$, a 199-word cycle), while the slowest "
        r"pair is at 0.00518; the pair closest to 1.0 at $\mathrm{pos} = 6$ is $i = 37$ (a 24-word cycle).",
        {
            "PE(0, 2i), every i": ["0.0"],
            r"$\theta_{192}$": "0.00100",
            "PE(1, 384), PE(2, 384)": ["0.001000", "0.002000"],
            "pair nearest 1.0 at pos 50": 96,
            "its height at pos 50": "0.99995",
            "height at pos 50 of the slowest pair": "0.00518",
            "pair nearest 1.0 at pos 6": 37,
        },
        _heights,
        method="mpmath at {dps} digits (numeric.sinusoid.inverse_frequencies_mp)",
        wrong=lambda dps: _heights(dps, wave=mpmath.cos),
        notes="The cosine dims (the odd ones) read for the sine dims give other values.",
        formula=sp.Eq(sp.sin(0 * sp.Symbol("theta_i")), 0),
    )


def _unique(dps: int, pairs=None):
    th = inverse_frequencies(512, base=10000.0)[pairs]
    gap = np.arange(1, 4096)  # |m - n| for positions 0 .. 4095
    # |PE(m) - PE(n)|² = 2 Σ_i (1 - cos((m - n)θ_i)) depends on m - n only (sinusoidal-dot-product)
    dist2 = 2 * np.sum(1 - np.cos(np.outer(gap, th)), axis=1)
    closest = int(gap[np.argmin(dist2)])
    value = {"closest pair $|m - n|$": closest, "all codes distinct": bool(dist2.min() > 1e-6)}
    return value, [*value.items(), (r"$\min |\mathrm{PE}(m) - \mathrm{PE}(n)|^2$", float(dist2.min()))]


def unique_codes() -> Fact:
    return Fact(
        "article-unique-codes",
        r"$d_{\mathrm{model}} = 512$: positions 0–4095 have distinct codes; the closest are neighbours",
        TOPIC,
        WAVES,
        r"$\lvert \mathrm{PE}(m) - \mathrm{PE}(n) \rvert^2 = 2 \sum_i (1 - \cos((m - n)\theta_i))$ for all 256 "
        "pairs (512 sine and cosine dims), minimised "
        "over $\\lvert m - n \\rvert = 1, \\dots, 4095$: the minimum 13.80 is at $\\lvert m - n \\rvert = 1$, "
        "far from 0.",
        {"closest pair $|m - n|$": 1, "all codes distinct": True},
        _unique,
        method="NumPy float64 (numeric.sinusoid.inverse_frequencies); the minimum is 13.8, far above rounding",
        wrong=lambda dps: _unique(dps, pairs=slice(0, 1)),
        notes="The fastest pair alone does not do: its codes nearly repeat at $\\lvert m - n "
        "\\rvert = 710$ "
        "([[claim:sinusoidal-fast-wave-near-repeats]]).",
        formula=sp.Ne(sp.Symbol("PE_m"), sp.Symbol("PE_n")),
    )


# ---- where positions enter -------------------------------------------------------------------------------------


def _softmax(S):
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def _rotate(x, positions, dps: int = 30) -> np.ndarray:
    r"""RoPE by numeric.rotary.rope_mp (the rotation at ``dps`` digits), rounded once to float64."""
    return np.array(rope_mp(x, positions, dps=dps), dtype=np.float64)


def _two_layers(positions, code: str, rotate_keys: bool = True):
    rng = np.random.default_rng(7)
    width, tokens = 8, 6
    X = rng.standard_normal((tokens, width))
    layers = [[rng.standard_normal((width, width)) / 3 for _ in range(3)] for _ in range(2)]
    if code == "sinusoidal":  # added once, at the input
        X = X + sinusoidal(positions, width=width)
    if code == "rope on the embedding":  # the rotation applied once, to the input
        X = _rotate(X, positions)
    for Wq, Wk, Wv in layers:
        Q, K = X @ Wq, X @ Wk
        if code == "rope":  # inside every layer
            Q = _rotate(Q, positions)
            K = _rotate(K, positions) if rotate_keys else K
        X = X + _softmax(Q @ K.T / math.sqrt(width)) @ (X @ Wv)
    return X


def _every_layer(dps: int, rotate_keys: bool = True):
    p = np.arange(6)
    value = {}
    for code in ("sinusoidal", "rope on the embedding", "rope"):
        gap = float(np.max(np.abs(_two_layers(p, code, rotate_keys) - _two_layers(p + 7, code, rotate_keys))))
        value[f"{code}: outputs unchanged by a shift of 7"] = gap <= tolerances.FACT_FLOAT64_ATOL
    return value, list(value.items())


def positions_every_layer() -> Fact:
    return Fact(
        "article-positions-every-layer",
        "Two attention layers: a sinusoidal code or a rotation applied to the input changes the outputs when the "
        "words shift; RoPE applied to q and k in every layer does not",
        TOPIC,
        f"{sources.article('So how can we fix this ?')}; {sources.ROFORMER}",
        "Six seeded tokens, width 8, two attention layers with residuals (seeded weights), positions 0 .. 5 and "
        "7 .. 12: with the sinusoidal code (numeric.sinusoid) added once at the input, or with the embeddings "
        "rotated once by numeric.rotary.rope_mp, the outputs change; with RoPE rotating q and k inside both layers "
        "they agree to $10^{-12}$.",
        {
            "sinusoidal: outputs unchanged by a shift of 7": False,
            "rope on the embedding: outputs unchanged by a shift of 7": False,
            "rope: outputs unchanged by a shift of 7": True,
        },
        _every_layer,
        method="NumPy float64 (numeric.sinusoid; rotations by numeric.rotary.rope_mp at 30 digits), agreement to "
        + tables.power_of_ten(tolerances.FACT_FLOAT64_ATOL, template=True),
        wrong=lambda dps: _every_layer(dps, rotate_keys=False),
        notes=(
            r"Absolute codes are added once, at the input; Transformer-XL, DeBERTa, T5, ALiBi and RoPE act on "
            r"the scores of every attention layer, which is what keeps the whole stack relative. Rotating the "
            r"embedding before $W_q$ and $W_k$ is relative only if $W_q^T W_k$ commutes with the rotations "
            r"([[claim:attention-rotation-commutant]]). Rotating the queries only breaks it."
        ),
        formula=sp.Eq(sp.Function("f")(pos + sp.Symbol("t")), sp.Function("f")(pos)),
    )


def _with_p2p(Qc, Kc, Qr, Kr, *, k):
    r"""DeBERTa's score as the article describes it: with a position->position term Q^r_δ(j,i)·K^r_δ(i,j)."""
    L = Qc.shape[0]
    rel = np.arange(L)[:, None] - np.arange(L)[None, :]
    d_ij, d_ji = deberta.deberta_delta(rel, k=k), deberta.deberta_delta(-rel, k=k)
    p2p = np.einsum("ijl,ijl->ij", Qr[d_ji], Kr[d_ij])
    return deberta.deberta_scores_gather(Qc, Kc, Qr, Kr, k=k) + p2p / math.sqrt(3 * Qc.shape[1])


def _no_p2p(dps: int, scores=deberta.deberta_scores_gather):
    rng = np.random.default_rng(5)
    L, width, k = 10, 4, 3
    zero = np.zeros((L, width))  # no content: only a position->position term could remain
    Qr, Kr = rng.standard_normal((2 * k, width)), rng.standard_normal((2 * k, width))
    largest = float(np.max(np.abs(scores(zero, zero, Qr, Kr, k=k))))
    value = {"scores with zero content are all 0": largest == 0.0}
    return value, [*value.items(), (r"$\max |A(i, j)|$", largest)]


def deberta_no_p2p() -> Fact:
    return Fact(
        "article-deberta-no-p2p",
        "DeBERTa's score has no position-to-position term: with zero content every score is 0",
        TOPIC,
        f"{sources.article('2. DeBERTa (Disentangled Attention)')}; {sources.DEBERTA}",
        "numeric.deberta.deberta_scores_gather (the public code's c2c + c2p + p2c) with zero content queries and "
        "keys and seeded relative embeddings (L = 10, d = 4, k = 3): every score is exactly 0, so no term pairs "
        "two positions.",
        {"scores with zero content are all 0": True},
        _no_p2p,
        method="NumPy float64 (numeric.deberta.deberta_scores_gather), exact zeros",
        wrong=lambda dps: _no_p2p(dps, scores=_with_p2p),
        notes="DeBERTa keeps content-to-content, content-to-position and position-to-content and drops the "
        "position-to-position product ([[claim:deberta-disentangled-from-four-terms]]). Adding that "
        "product, as the article describes the scheme, changes the scores.",
        formula=sp.Eq(sp.Symbol("A_p2p"), 0),
    )


def _per_head(dps: int, per_head: bool = True):
    width, heads = 4096, 32
    head_dim = width // heads
    unit = np.tile([1.0, 0.0], width // 2)  # every pair (1, 0): its rotated angle is the pair's frequency
    if per_head:
        rotated = _rotate(unit.reshape(heads, 1, head_dim), [1]).reshape(width)  # (heads, tokens, head_dim)
    else:
        rotated = _rotate(unit[None, :], [1])[0]
    angles = np.arctan2(rotated[1::2], rotated[0::2])  # (2048,): the angle each pair turned from position 0 to 1
    value = {"frequencies in a 4096-wide layer": len(np.unique(angles)), "planes per head": head_dim // 2}
    return value, [*value.items(), ("slowest frequency", float(angles.min()))]


def rope_per_head() -> Fact:
    return Fact(
        "article-rope-per-head",
        "RoPE rotates each head: a 4096-wide layer of 32 heads of 128 uses 64 frequencies, not 2048",
        TOPIC,
        f"{ROPE_MATHS}; {sources.LLAMA}",
        "LLaMA-7B's 4096 query channels are 32 heads of width d = 128. numeric.rotary.rope_mp applied per head "
        "((heads, tokens, 128)) turns the 2048 pairs of one token by 64 distinct angles from position 0 to 1 (the "
        "same 64 in every head); one 4096-wide rotation would use 2048.",
        {"frequencies in a 4096-wide layer": 64, "planes per head": 64},
        _per_head,
        method="numeric.rotary.rope_mp at 30 digits, rounded to float64; angles of rotated unit pairs",
        wrong=lambda dps: _per_head(dps, per_head=False),
        notes=(
            r"So $d$ in $\theta_i = b^{-2i/d}$ is the head width, about 128, and the rotation acts on 64 "
            r"planes per head. Rotating the 4096 channels as one vector gives other angles."
        ),
        formula=sp.Eq(sp.Symbol("d"), 128),
    )


def _decay_curve(dps: int, distances=None):
    r = np.arange(0, 1001) if distances is None else np.asarray(distances)
    C = rope_decay_curve(r, width=128)
    rises = np.flatnonzero(np.diff(C) > 0)
    if rises.size and np.min(np.abs(np.diff(C)[: rises[0] + 1])) <= 1e-9:
        raise ValueError("a step of the curve is within float64 error")
    value = {
        "rises between r = 0 and 1000": int(rises.size),
        "first rise after r": int(r[rises[0]]) if rises.size else None,
    }
    return value, [*value.items(), ("C(0), C(1000)", [float(C[0]), float(C[-1])])]


def rope_decay_not_monotone() -> Fact:
    return Fact(
        "article-rope-decay-not-monotone",
        "RoFormer's decay curve ($d = 128$) falls overall but rises 483 times between $r = 0$ and 1000",
        TOPIC,
        f"{ROPE_PROPERTIES}; {sources.ROFORMER}, section 3.4.3",
        r"The curve $(1/(d/2)) \sum_j \lvert S_j \rvert$ of the relative distance $r$ "
        r"(numeric.rotary.rope_decay_curve, $d = 128$, $b = 10^4$) at every integer $r = 0, \dots, 1000$: it falls "
        r"from 32.5 to 4.47, yet rises first from $r = 18$ to 19 and 483 times in all. It is an upper bound of the "
        "score ([[claim:rope-decay-bound]]), not the score.",
        {"rises between r = 0 and 1000": 483, "first rise after r": 18},
        _decay_curve,
        method="NumPy float64 (numeric.rotary.rope_decay_curve); every step before the first rise exceeds $10^{{-9}}$",
        wrong=lambda dps: _decay_curve(dps, distances=[0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]),
        notes="Sampled at the distances of [[claim:rope-decay-curve]] only, the curve looks monotone.",
        formula=sp.Gt(sp.Function("C")(19), sp.Function("C")(18)),
    )


def _far(dps: int, direction: int = 1):
    rng = np.random.default_rng(3)
    width, target, query_pos = 128, 500, 1000
    qv = rng.standard_normal(width)
    kv = _rotate(qv[None, :], [direction * target])[0]  # a key aligned with the query 500 positions back
    theta = inverse_frequencies(width, base=10000.0)
    q0, q1, k0, k1 = qv[0::2], qv[1::2], kv[0::2], kv[1::2]
    keys = np.arange(0, query_pos)  # distances r = query - key = 1000 .. 1
    angle = np.outer(keys - query_pos, theta)  # (n - m) θ_i
    # (R_m q)^T (R_n k) = Σ_i (q_0 k_0 + q_1 k_1) cos((n - m)θ_i) + (q_1 k_0 - q_0 k_1) sin((n - m)θ_i)
    scores = np.cos(angle) @ (q0 * k0 + q1 * k1) + np.sin(angle) @ (q1 * k0 - q0 * k1)
    r = query_pos - keys
    best = int(r[np.argmax(scores)])
    value = {
        "distance with the highest score": best,
        "score at 500 > score at 1": bool(scores[r == 500][0] > scores[r == 1][0]),
    }
    return value, [*value.items(), ("score at 1, 500", [float(scores[r == 1][0]), float(scores[r == 500][0])])]


def rope_far_attention() -> Fact:
    return Fact(
        "article-rope-far-attention",
        "RoPE does not force less attention far away: a key can score highest at distance 500",
        TOPIC,
        f"{ROPE_PROPERTIES}; {sources.ROFORMER}",
        r"A seeded query $q$ ($d = 128$) at position 1000 and the key $k = R_{500} q$ (numeric.rotary.rope_mp) at "
        r"every position $0, \dots, 999$, scored in the relative form of [[claim:rope-block-relative]]: "
        r"$(R_{1000} q)^{\top} (R_n k) = q^{\top} R_{n - 500} q$ is largest at distance 500, where it is "
        r"$\lvert q \rvert^2$, above the score at distance 1.",
        {"distance with the highest score": 500, "score at 500 > score at 1": True},
        _far,
        method="NumPy float64 (the relative form; k by numeric.rotary.rope_mp at 30 digits)",
        wrong=lambda dps: _far(dps, direction=-1),
        notes="What decays with the distance is an upper bound over all q, k ([[claim:rope-decay-bound]], "
        "[[claim:article-rope-decay-not-monotone]]); which keys get attention is decided by q and k. "
        "Rotating "
        r"the key the other way ($k = R_{-500} q$) makes the comparison fail.",
        formula=sp.Gt(varphi(1000, 500), varphi(1000, 999)),
    )


def _distance_sign(dps: int, t5_sign: int = 1):
    dog, cat = 1, 4  # "The dog chased the cat"
    value = {
        "T5 (key - query)": t5_sign * (cat - dog),
        "T5 bucket": int(t5.t5_relative_bucket([t5_sign * (cat - dog)])[0]),
        "DeBERTa, ALiBi, Transformer-XL (query - key)": dog - cat,
        "DeBERTa row, k = 4": int(deberta.deberta_delta([dog - cat], k=4)[0]),
    }
    return value, list(value.items())


def relative_distance_sign() -> Fact:
    return Fact(
        "article-relative-distance-sign",
        "'dog' querying 'cat' in 'The dog chased the cat': T5's key minus query is $+3$; the schemes that count "
        "query minus key say $-3$",
        TOPIC,
        f"{sources.article('Relative Positions')}; {sources.T5}; {sources.DEBERTA}",
        r"dog at position 1 queries cat at 4: T5 reads $r = 4 - 1 = +3$, bucket $16 + 3 = 19$ (keys after the "
        "query use the upper half; numeric.t5); DeBERTa, ALiBi and Transformer-XL use $1 - 4 = -3$ (DeBERTa's row "
        r"$\delta = -3 + k = 1$ at $k = 4$; numeric.deberta).",
        {"T5 (key - query)": 3, "T5 bucket": 19, "DeBERTa, ALiBi, Transformer-XL (query - key)": -3,
         "DeBERTa row, k = 4": 1},
        _distance_sign,
        method="exact integers (numeric.t5.t5_relative_bucket, numeric.deberta.deberta_delta)",
        wrong=lambda dps: _distance_sign(dps, t5_sign=-1),
        notes="With the sign query minus key, T5's value would be $-3$.",
        formula=sp.Eq(sp.Symbol("n") - sp.Symbol("m"), 3),
    )  # fmt: skip


def _conjugate(dps: int, conjugate_key: bool = True):
    qz, kz, m_, n_ = mpmath.mpc(1, 2), mpmath.mpc(3, -1), 5, 2
    with mpmath.workdps(dps):
        rq = rope_mp([[qz.real, qz.imag]], [m_], dps=dps)[0]  # d = 2, θ = 1
        rk = rope_mp([[kz.real, kz.imag]], [n_], dps=dps)[0]
        score = rq[0] * rk[0] + rq[1] * rk[1]
        turn = mpmath.expj(m_ - n_)
        key = mpmath.conj(kz) if conjugate_key else kz
        query = qz if conjugate_key else mpmath.conj(qz)
        tol = settings.rel_tol(dps)
        value = {
            r"$\operatorname{Re}(q \bar{k} e^{i(m-n)\theta})$ = score": bool(
                abs(mpmath.re(query * key * turn) - score) <= tol
            ),
            r"$\operatorname{Re}(q k e^{i(m-n)\theta})$ = score": bool(abs(mpmath.re(qz * kz * turn) - score) <= tol),
            r"$(q k) e^{i(m-n)\theta}$ is real": mpmath.im(qz * kz * turn) == 0,
        }
        rows = [
            ("score (`numeric.rotary.rope_mp`)", score),
            (r"$\operatorname{Re}(q k e^{i(m-n)\theta})$", mpmath.re(qz * kz * turn)),
        ]
    return value, [*value.items(), *rows]


def rope_score_conjugate() -> Fact:
    return Fact(
        "article-rope-score-conjugate",
        r"The RoPE score is $\operatorname{Re}(q \bar{k} e^{i(m-n)\theta})$; the article's "
        r"$(q k) e^{i(m-n)\theta}$ is a different number",
        TOPIC,
        f"{ROPE_MATHS}; {sources.ROFORMER}",
        r"$d = 2$, $\theta = 1$, $q = 1 + 2i$ at $m = 5$, $k = 3 - i$ at $n = 2$: the score of "
        r"`numeric.rotary.rope_mp` equals the real part of $q \bar{k} e^{i(m-n)\theta}$ "
        r"([[claim:rope-complex-relative]], "
        r"[[claim:rope-2d-real-form]]), not the real part of $q k e^{i(m-n)\theta}$, which is not even real itself.",
        {r"$\operatorname{Re}(q \bar{k} e^{i(m-n)\theta})$ = score": True,
         r"$\operatorname{Re}(q k e^{i(m-n)\theta})$ = score": False,
         r"$(q k) e^{i(m-n)\theta}$ is real": False},
        _conjugate,
        method="mpmath at {dps} digits (numeric.rotary.rope_mp)",
        wrong=lambda dps: _conjugate(dps, conjugate_key=False),
        notes="Conjugating the query instead of the key gives another value.",
        formula=sp.Eq(sp.Symbol("s"), sp.re(sp.Symbol("q") * sp.conjugate(sp.Symbol("k")) * sp.exp(sp.I * pos))),
    )  # fmt: skip


def claims() -> list:
    return [
        binary_columns(),
        pair_index_range(),
        cycle_lengths(),
        fast_wave_step(),
        slow_wave_heights(),
        unique_codes(),
        positions_every_layer(),
        deberta_no_p2p(),
        rope_per_head(),
        rope_decay_not_monotone(),
        rope_far_attention(),
        relative_distance_sign(),
        rope_score_conjugate(),
    ]


# ---- the texts: the statements of the article and the RoPE note that this module's claims decide ---------------
# (symbolic.tables; the first number is the statement's place in the texts, the verdicts are V verified, C corrected,
# R holds on a range, X not checkable)


def _annotations() -> tuple[tables.Annotation, ...]:
    a, n, S, T = tables.in_article, tables.in_note, tables.S, tables.T
    V, C, R, X = tables.ANNOTATION_VERDICTS
    return (
        # So how can we fix this ?
        a(40, S[1], "added only at the very beginning", "The position vector is added once, before the first block, "
          "never again.", R, "article-positions-every-layer", ("sinusoidal: outputs unchanged by a shift of 7",
          "rope: outputs unchanged by a shift of 7"), note="true of absolute codes; Transformer-XL, DeBERTa, T5, ALiBi "
          "and RoPE act inside every attention layer"),
        # 3. The Binary Breakthrough
        a(100, S[4], "alternates rapidly: 0, 1, 0, 1", "Binary columns alternate 0,1,0,1; 0,0,1,1; 0,0,0,0,1,1,1,1.", V,
          "article-binary-columns", ("bit 0", "bit 1", "bit 2"), ([0, 1, 0, 1, 0, 1, 0, 1], [0, 0, 1, 1, 0, 0, 1, 1],
          [0, 0, 0, 0, 1, 1, 1, 1])),
        # Maths behind Positional Encoding
        a(130, S[5], "up to $d_{model}/2$", "The pair index i runs 0, 1, 2, ... up to d_model/2.", C,
          "article-pair-index-range", ("last i",), (256,), "the last pair index is d/2 - 1"),
        # More on '$i$' and '$d_{model}$'
        a(150, S[6], "we have 256 pairs", "512 dims make 256 pairs, i = 0 .. 255.", V, "article-pair-index-range",
          ("pairs", "last i"), (256, 255)),
        a(160, S[6], "For pair $i=255$: Dimension 510", "Pair 255 fills dims 510 and 511.", V,
          "article-pair-index-range", ("dims of the last pair",), ([510, 511],)),
        a(200, S[6], "stretches the wave out by a factor of 100", "Dividing by 100 stretches the wave by a factor of "
          "100.", V, "article-cycle-lengths", ("ratio",), ("100.0",)),
        a(210, S[6], "completed in just one word", "Pair 128 takes 100 words for the cycle that pair 0 completes in "
          "one word.", C, "article-cycle-lengths", ("words per cycle, i = 0", "words per cycle, i = 128", "ratio"),
          ("1", "100", None), "a cycle takes 2π words at i = 0 and 200π at i = 128; the ratio 100 is right"),
        # Simple Dry-Run :
        a(300, S[7], "If this sentence were 500 words long", "Over 500 words the slow dims of d_model = 4 curve "
          "smoothly over the whole paragraph.", V, "article-cycle-lengths",
          (r"$d_{\mathrm{model}} = 4$, pair 1: cycles in 500 words",), note="less than one cycle: no position repeats"),
        # Differentiating between Nearby and Distant Words
        a(310, S[8], "at pos=0, the wave might be at its peak (1.0)", "On a fast wave position 0 may be at the peak "
          "(1.0) and position 1 at the valley (-1.0).", C, "article-fast-wave-step", note="one step moves the fastest "
          "wave by at most 2 sin(1/2) = 0.959, not 2; from pos 0 to 1 it goes 0 -> 0.841"),
        a(320, S[8], "By the time you get to pos=6", "By pos 6 the fast wave is back at its peak; positions 0, 2, 4, 6 "
          "look alike.", C, "article-cycle-lengths", ("words per cycle, i = 0",), ("6",), "the fastest wave's cycle is "
          "2π words: it never repeats exactly ([[claim:sinusoidal-fast-wave-near-repeats]]: 6 is a near-return, "
          "$\\sin 6 = -0.279$), "
          "and 2, 4 are not near 0"),
        a(330, S[8], "hundreds of words just to complete a single up-and-down cycle", "Slow waves take hundreds of "
          "words per cycle.", R, "article-cycle-lengths", (r"pairs with cycles of $100, \dots, 999$ words",
          "words per cycle, i = 255"), note="hundreds for pairs 77 .. 140 of 256; the slowest take tens of thousands"),
        a(340, S[8], "Word 0 might be at 0.0, while word 50 might be at 1.0", "On a slow wave word 0 is at 0.0 and "
          "word 50 at 1.0.", R, "article-slow-wave-heights", ("pair nearest 1.0 at pos 50", "its height at pos 50",
          "height at pos 50 of the slowest pair"), note="only pair 96, a 199-word cycle, is at 1.0 at 50; the slowest "
          "pair is at 0.005"),
        a(350, S[8], "at pos=0 might be 0.000, and the height at pos=1 might be 0.001", "On a slow wave pos 0 reads "
          "0.000 and pos 1 reads 0.001.", V, "article-slow-wave-heights",
          (r"$\theta_{192}$", ("PE(1, 384), PE(2, 384)", 0)), note="pair 192 (θ = 10^-3) does exactly this"),
        a(360, S[8], "a completely unique fingerprint", "With 512 waves from fast to slow every position gets a unique "
          "code.", V, "article-unique-codes", ("all codes distinct", "closest pair $|m - n|$"), (True, None),
          "checked for positions 0 .. 4095; the 512 dims are 256 frequencies, a sine and a cosine each"),
        a(370, S[8], "relies heavily on the first few numbers", "The model relies on the fast dims for neighbours and "
          "on the slow dims for the position in a paragraph.", X, note="a statement about what a trained model does"),
        # The Right Graph: The Problem with Distant Words
        a(390, S[10], "land at the exact same vertical height", "On the fast wave positions 0 and 6 land at exactly "
          "the same height.", C, "article-cycle-lengths", ("words per cycle, i = 0",), ("6",), "sin 6 = -0.279, sin 0 "
          "= 0: a near-return, never an exact one ([[claim:sinusoidal-fast-wave-near-repeats]])"),
        a(400, S[10], "One is at the middle baseline, and the other is way up near the peak", "On the slow wave "
          "position 0 is at the baseline and position 6 near the peak.", R, "article-slow-wave-heights",
          ("pair nearest 1.0 at pos 6",), note="only pair 37, a 24-word cycle, peaks near 6: not a slow wave"),
        # Postional Encoding vs Word Embedding
        a(450, S[11], "Word 0 gets ticket #0.001", "Low-frequency wave: word 0 gets 0.001, word 1 gets 0.002.", C,
          "article-slow-wave-heights", ("PE(0, 2i), every i", ("PE(1, 384), PE(2, 384)", 0)), (["0.001"], None),
          "every sine is 0 at position 0; 0.001 and 0.002 are positions 1 and 2 of pair 192"),
        a(460, S[11], "might accidentally read \"Dog bites man\"", "With only slow waves the network reads 'Dog bites "
          "man' as 'Man bites dog'.", X, note="a statement about what a trained network does"),
        # Relative Positions
        a(520, S[13], "the relative distance is $+3$", "If 'dog' queries 'cat', the relative distance is +3.", V,
          "article-relative-distance-sign", ("T5 (key - query)", "DeBERTa, ALiBi, Transformer-XL (query - key)"),
          (3, None), "+3 is key - query (T5); DeBERTa, ALiBi and Transformer-XL count query - key = -3"),
        a(540, S[13], "generalize beautifully to longer texts", "Relative encodings generalise beautifully to longer "
          "texts.", X, note="an empirical claim; 'posproof properties --trained L0 --target L' shows which quantities "
          "are new"),
        # 2. DeBERTa (Disentangled Attention)
        a(600, S[15], "position-to-position (distance) scores", "DeBERTa computes content-to-content and "
          "position-to-position scores separately.", C, "article-deberta-no-p2p",
          ("scores with zero content are all 0",), (False,), note="it keeps content-to-content, content-to-position "
          "and position-to-content; the position-to-position term is dropped "
          "([[claim:deberta-disentangled-from-four-terms]])"),
        # Rotatory Positional Encoding (RoPE)
        a(650, S[17], "multiplies the word embedding by a rotation matrix", "RoPE multiplies the word embedding by a "
          "rotation matrix.", C, "article-positions-every-layer",
          ("rope on the embedding: outputs unchanged by a shift of 7", "rope: outputs unchanged by a shift of 7"),
          (True, None), "RoPE rotates the query and key of every attention layer (R_m W_q x_m); a rotated embedding is "
          "no relative code"),
        # Maths behind RoPE
        a(710, S[18], "$(q \\cdot k) \\times e^{i(m-n)\\theta}$", "The product is (q·k) e^{i(m-n)θ}.", C,
          "article-rope-score-conjugate", (r"$\operatorname{Re}(q k e^{i(m-n)\theta})$ = score",
          r"$\operatorname{Re}(q \bar{k} e^{i(m-n)\theta})$ = score"), (True, None), "the key enters conjugated, q "
          "conj(k) e^{i(m-n)θ}, and the score is its real part ([[claim:rope-complex-relative]], "
          "[[claim:rope-2d-real-form]])"),
        a(730, S[18], "often 4096 dimensions or more", "RoPE must rotate embeddings of 4096 dimensions or more.", C,
          "article-rope-per-head", ("frequencies in a 4096-wide layer", "planes per head"), (2048, None),
          "RoPE rotates each head: d is the head width (128 in LLaMA-7B, whose $4096 = 32 \\times 128$)"),
        # Properties, Efficiency and Performance of RoPE
        a(780, S[19], "their positional dot product (y-axis) naturally decays", "The positional dot product decays as "
          "the distance grows.", C, "article-rope-decay-not-monotone",
          ("rises between r = 0 and 1000", "first rise after r"), (0, None), note="what decays is an upper bound over "
          "all q, k ([[claim:rope-decay-bound]]), and not monotonically"),
        a(790, S[19], "pays less attention to words that are very far away", "So the model pays less attention to "
          "words far away.", C, "article-rope-far-attention", ("distance with the highest score",), (1,),
          note="a key can score highest 500 positions away: q and k decide, the bound does not"),
        a(810, S[19], "Faster Convergence", "RoFormer's training loss falls faster than BERT's.", X,
          note="an empirical training result"),
        a(820, S[19], "Better Accuracy", "RoPE improves BLEU and GLUE scores.", X, note="an empirical result"),
        # Summary
        a(850, S[20], "a unique pattern of continuous waves", "The sinusoidal code gives every position a unique "
          "pattern.", V, "article-unique-codes", ("all codes distinct",), (True,)),
        a(870, S[20], "without repeating", "Slow dims measure long ranges without repeating.", R,
          "article-cycle-lengths", ("words per cycle, i = 255",), note="no repeat within a wavelength: up to 60611 "
          "words at d = 512"),
        a(910, S[20], "used by LLaMA, PaLM, and most modern architectures", "RoPE is used by LLaMA, PaLM and most "
          "modern models.", X, note="a survey of models, not mathematics"),
        a(950, S[20], "distant words naturally receive less attention", "Long-term decay: distant words get less "
          "attention.", C, "article-rope-far-attention", ("distance with the highest score",), (1,),
          note="only an upper bound decays ([[claim:article-rope-decay-not-monotone]])"),
        a(970, S[20], "drastically speeds up model training", "RoPE drastically speeds up training.", X,
          note="an empirical training result"),
        # the RoPE note: Position rules affect context extension
        n(1080, T[2], "not by itself evidence of reliable long-context performance", "A longer accepted sequence is "
          "not by itself evidence of long-context quality.", X, note="about model quality; 'posproof properties "
          "--trained L0 --target L' shows which angles are new"),
    )  # fmt: skip


ANNOTATIONS = _annotations()
