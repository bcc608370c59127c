r"""DeBERTa's disentangled attention (He et al. 2021): the clipped relative index δ, its window, the three terms,
the public code's gather (and its p2c convention), and the v2 log buckets.

Convention: the relative position is **query - key** (``i - j``); ``δ(i, j) = clip(i - j + k, 0, 2k - 1)``. The
paper indexes position->content with ``δ(j, i)``; public code ends up with ``δ(i, j)`` (see
``deberta-p2c-code-vs-paper``).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp
from posproof.numeric import deberta, formatting, tolerances
from posproof.symbolic import sources, tables
from posproof.symbolic.attention import TOPIC, comps, d, identity, l
from posproof.symbolic.engine.core import Definition, Fact, Kernel, Step, Theorem

DEBERTA = sources.DEBERTA
DEBERTA_CODE = sources.DEBERTA_CODE

i = sp.Symbol("i", integer=True)  # query position
j = sp.Symbol("j", integer=True)  # key position
k = sp.Symbol("k", integer=True, positive=True)  # the window
_A = sp.Function("A")  # DeBERTa's score of query i and key j (statements only)
_clip = sp.Function("clip")
_bucket = sp.Function("b")  # the v2 log bucket of a relative position
_r = sp.Symbol("r", integer=True)


class Delta(Kernel):
    r"""DeBERTa's clipped relative index ``δ(a, b) = 0`` if ``a - b <= -k``, ``2k - 1`` if ``a - b >= k``, else
    ``a - b + k`` (args ``a, b, k``): ``doit`` writes the definition as a Piecewise; numerically it is
    :func:`numeric.deberta.deberta_delta`."""

    nargs = 3

    @classmethod
    def numeric(cls, a, b, kk):
        r = a - b
        if not (mpmath.isint(r) and mpmath.isint(kk)):
            raise ValueError(f"δ takes integers, got i - j = {r}, k = {kk}")
        return int(deberta.deberta_delta(np.array([int(r)]), k=int(kk))[0])

    def doit(self, **hints):
        a, b, kk = (x.doit(**hints) if isinstance(x, sp.Basic) else x for x in self.args)
        return delta_piecewise(a, b, kk)

    def _latex(self, printer, exp=None):
        a, b, _ = self.args
        out = r"\delta\left(%s, %s\right)" % (printer._print(a), printer._print(b))
        return out if exp is None else r"%s^{%s}" % (out, exp)


def delta_piecewise(a, b, kk=k):
    r = a - b
    return sp.Piecewise((0, r <= -kk), (2 * kk - 1, r >= kk), (r + kk, True))


def delta_definition() -> Definition:
    return Definition(
        "deberta-delta",
        r"DeBERTa's relative index: $\delta(i, j) = \operatorname{clip}(i - j + k, 0, 2k - 1)$",
        TOPIC,
        DEBERTA,
        Delta(i, j, k),
        delta_piecewise(i, j),
        r"the paper's definition (Eq. 3): $2k$ relative embeddings, distances beyond $\pm k$ share the end rows",
        "numeric.deberta.deberta_delta",
        assumptions=(r"$k \ge 1$ the window; $i$ query, $j$ key positions, any integers",),
        formula=sp.Eq(Delta(i, j, k), _clip(i - j + k, 0, 2 * k - 1), evaluate=False),
        wrong=i - j + k,
    )


a_, b_, c_ = sp.symbols("a b c", integer=True, nonnegative=True)


def deberta_window() -> Theorem:
    # Every pair with |i - j| < k is i - j = a - b, k = a + b + c + 1 for nonnegative integers a, b, c (take
    # c in {0, 1} by the parity of i - j + k - 1): the window written with symbols SymPy can reason about.
    i_w, k_w = j + a_ - b_, a_ + b_ + c_ + 1
    return identity(
        "deberta-delta-exact-in-window",
        "Inside the window $|i - j| < k$ the clipped index is $i - j + k$ exactly",
        DEBERTA,
        [
            Step(
                Delta(i_w, j, k_w),
                (i_w - j) + k_w,
                r"$i - j \le -k$ means $2a + c + 1 \le 0$ and $i - j \ge k$ means $2b + c + 1 \le 0$: both false, so "
                "the Piecewise takes its last branch",
                ("doit", "expand"),
            )
        ],
        assumptions=(
            "the window $|i - j| < k$, written $i - j = a - b$ and $k = a + b + c + 1$ with integers "
            r"$a, b, c \ge 0$ (every window pair has this form)",
            "$j$ any integer key position",
        ),
        formula=sp.Implies(sp.Lt(sp.Abs(i - j), k), sp.Eq(Delta(i, j, k), i - j + k, evaluate=False), evaluate=False),
        notes="So distinct distances inside the window use distinct embeddings; outside, every distance shares "
        r"row $0$ or row $2k - 1$ ([[claim:deberta-delta-saturation]]).",
        wrong=(i_w - j) + k_w - 1,
    )


QC, KC = sp.IndexedBase("q^c", real=True), sp.IndexedBase("k^c", real=True)
KR, QR = sp.IndexedBase("K^r", real=True), sp.IndexedBase("Q^r", real=True)


def deberta_from_four_terms() -> Theorem:
    d_ij, d_ji = Delta(i, j, k), Delta(j, i, k)
    full = comps((QC[l] + QR[d_ji, l]) * (KC[l] + KR[d_ij, l]))
    p2p = comps(QR[d_ji, l] * KR[d_ij, l])
    three = comps(QC[l] * KC[l] + QC[l] * KR[d_ij, l] + KC[l] * QR[d_ji, l])
    return identity(
        "deberta-disentangled-from-four-terms",
        r"DeBERTa's three terms (c2c + c2p + p2c) are the four-term expansion of "
        r"$(Q^c_i + Q^r_{\delta(j,i)}) \cdot (K^c_j + K^r_{\delta(i,j)})$ without its position $\to$ position product",
        DEBERTA,
        [
            Step(
                sp.Add(full, sp.Mul(-1, p2p, evaluate=False), evaluate=False),
                three,
                r"expand the product; the position $\to$ position product "
                r"$Q^r_{\delta(j,i)} \cdot K^r_{\delta(i,j)}$ cancels",
                ("combine_sums", "expand"),
            )
        ],
        assumptions=(
            "$q^c = Q^c_i$, $k^c = K^c_j$: the content projections of the two tokens (no position)",
            r"$K^r, Q^r$: the $2k$ projected relative rows, indexed by $\delta$ (evaluated by `numeric.deberta`); "
            "$d$ components",
        ),
        formula=sp.Eq(sp.Add(full, sp.Mul(-1, p2p, evaluate=False), evaluate=False), three, evaluate=False),
        sizes={d: (1, 2, 3)},
        notes=(
            r"DeBERTa scales the sum by $1/\sqrt{3d}$: three terms, not one. The public code indexes p2c with "
            r"$\delta(i, j)$ instead ([[claim:deberta-p2c-code-vs-paper]]), which gives another sum."
        ),
        wrong=comps(QC[l] * KC[l] + QC[l] * KR[d_ij, l] + KC[l] * QR[d_ij, l]),
    )


def _gather_without_transpose(Qc, Kc, Qr, Kr, kk):
    r"""A port of the public gather that forgets the transpose of the position->content part (a known bug)."""
    L, dd = Qc.shape
    rel = np.arange(L)[:, None] - np.arange(L)[None, :]
    c2p = np.take_along_axis(Qc @ Kr.T, np.clip(rel + kk, 0, 2 * kk - 1), axis=-1)
    p2c = np.take_along_axis(Kc @ Qr.T, np.clip(-rel + kk, 0, 2 * kk - 1), axis=-1)  # [j, i] used as [i, j]
    return (Qc @ Kc.T + c2p + p2c) / math.sqrt(3 * dd)


def _gather(dps: int, gather=deberta.deberta_scores_gather):
    rng = np.random.default_rng(11)
    L, t, dd, kk = 10, 3, 4, 3
    Qc, Kc = rng.standard_normal((L + t, dd)), rng.standard_normal((L + t, dd))
    Qr, Kr = rng.standard_normal((2 * kk, dd)), rng.standard_normal((2 * kk, dd))
    value, rows = [], []
    for conv in ("code", "paper"):
        if gather is deberta.deberta_scores_gather:
            g = gather(Qc, Kc, Qr, Kr, k=kk, p2c_index=conv)
        else:
            g = gather(Qc, Kc, Qr, Kr, kk)
        direct = deberta.deberta_scores_direct(Qc, Kc, Qr, Kr, k=kk, p2c_index=conv)
        err = float(np.max(np.abs(g - direct)))
        value.append(bool(err <= tolerances.FACT_FLOAT64_ATOL))
        rows.append(
            (
                f"{conv}: " + r"$\max |\mathrm{gather} - \mathrm{direct}|$",
                formatting.below(err, tolerances.FACT_FLOAT64_ATOL),
            )
        )
    # translation: the last L tokens alone, at positions 0 .. L-1 instead of t .. t+L-1
    whole = deberta.deberta_scores_gather(Qc, Kc, Qr, Kr, k=kk)
    alone = deberta.deberta_scores_gather(Qc[t:], Kc[t:], Qr, Kr, k=kk)
    err = float(np.max(np.abs(whole[t:, t:] - alone)))
    value.append(bool(err <= tolerances.FACT_FLOAT64_ATOL))
    rows.append((r"$\max |A(i + t, j + t) - A(i, j)|$, $t = 3$", formatting.below(err, tolerances.FACT_FLOAT64_ATOL)))
    return value, rows


def deberta_translation() -> Fact:
    return Fact(
        "deberta-translation-invariant",
        "The public code's gather computes DeBERTa's score entry by entry (both p2c conventions), and shifting "
        "the sequence leaves the scores unchanged",
        TOPIC,
        f"{DEBERTA}; {DEBERTA_CODE}",
        "$L = 13$ seeded random content projections, $d = 4$, $k = 3$: `numeric.deberta.deberta_scores_gather` "
        r"(the public code's gather and transpose) equals `deberta_scores_direct` ($\delta$ evaluated entry by entry) "
        "for `p2c_index` 'code' and 'paper'; and the scores of the last 10 tokens alone equal those rows and "
        "columns of the whole sequence (positions shifted by $t = 3$). The result "
        "states, in order, the agreement for 'code', for 'paper' and for the shifted window.",
        [True, True, True],
        _gather,
        method="NumPy float64 (numeric.deberta), agreement to "
        + tables.power_of_ten(tolerances.FACT_FLOAT64_ATOL, template=True),
        wrong=lambda dps: _gather(dps, gather=_gather_without_transpose),
        formula=sp.Eq(_A(i + 3, j + 3), _A(i, j), evaluate=False),
        notes="The score is a function of $i - j$ by the definition of δ; what is checked is that the code people "
        "run computes that definition. A port that forgets the transpose of p2c breaks it.",
    )


def _saturation(dps: int, delta=deberta.deberta_delta):
    kk = 4
    r = np.arange(-2 * kk, 2 * kk + 1)
    dl = [int(x) for x in delta(r, k=kk)]
    return dl, [("k", kk), ("i - j", r.tolist()), ("δ(i, j)", dl)]


def deberta_saturation() -> Fact:
    return Fact(
        "deberta-delta-saturation",
        "Outside the window the DeBERTa index saturates",
        TOPIC,
        DEBERTA,
        r"$\delta(i, j)$ for $k = 4$ and $i - j = -8, \dots, 8$: exact inside $|i - j| < 4$, then stuck at 0 and "
        "$2k - 1 = 7$.",
        claim=[0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7],
        compute=_saturation,
        method="numeric.deberta.deberta_delta (exact integers)",
        definitions=(delta_definition(),),
        wrong=lambda dps: _saturation(dps, delta=lambda r, k: r + k),
        formula=(
            sp.Implies(sp.Le(i - j, -k), sp.Eq(Delta(i, j, k), 0, evaluate=False), evaluate=False),
            sp.Implies(sp.Ge(i - j, k), sp.Eq(Delta(i, j, k), 2 * k - 1, evaluate=False), evaluate=False),
        ),
        notes="Without the clipping the index leaves the table.",
    )


def _p2c(dps: int, transposed: bool = True):
    kk = 4
    r = np.arange(-6, 7)  # i - j
    # δ(i, j): what the public gather + transpose reads; without the transpose a port reads δ(j, i)
    code = deberta.deberta_delta(r if transposed else -r, k=kk)
    paper = deberta.deberta_delta(-r, k=kk)  # δ(j, i): Eq. 4
    inside = np.abs(r) < kk
    mirror = bool(np.all(paper[inside] == 2 * kk - code[inside]))
    merged = sorted({int(p) for c, p in zip(code, paper, strict=True) if c == 2 * kk - 1})
    rows = [("i - j", r.tolist()), ("code index δ(i,j)", code.tolist()), ("paper index δ(j,i)", paper.tolist())]
    return [mirror, merged], rows


def deberta_p2c() -> Fact:
    return Fact(
        "deberta-p2c-code-vs-paper",
        "The public code's p2c index is the paper's mirrored, except at the edge",
        TOPIC,
        f"{DEBERTA}; {DEBERTA_CODE}",
        r"$k = 4$, $i - j = -6, \dots, 6$. The result states, in order, whether $\delta(j, i) = 2k - \delta(i, j)$ "
        "inside the window, and the paper indices met where the code index is $2k - 1$. The second entry, "
        "$0$ and $1$, shows the code's row "
        r"$2k - 1$ stands for both distance $k - 1$ and every distance $\ge k$, which the paper's p2c tells apart: "
        "no relabelling of the table maps one convention onto the other.",
        claim=[True, [0, 1]],
        compute=_p2c,
        method="numeric.deberta.deberta_delta (exact integers)",
        notes=(
            r"`numeric.deberta` takes the convention as a parameter (`p2c_index` 'code' or 'paper'); the "
            r"gather formulation without the transpose, or with $+r$ instead of $-r$, is the known p2c sign "
            r"bug."
        ),
        wrong=lambda dps: _p2c(dps, transposed=False),
        formula=sp.Implies(
            sp.Lt(sp.Abs(i - j), k), sp.Eq(Delta(j, i, k), 2 * k - Delta(i, j, k), evaluate=False), evaluate=False
        ),
    )


def _log_bucket_mp(r: int, bucket_size: int, max_position: int, top: int) -> int:
    r"""``sign(r)(mid + ceil(log(|r|/mid)/log(top/mid)(mid - 1)))`` beyond ``mid``: ``top = max_position - 1`` is
    the reference's, ``top = max_position`` the plausible slip."""
    mid = bucket_size // 2
    if abs(r) <= mid:
        return r
    x = mpmath.log(mpmath.mpf(abs(r)) / mid) / mpmath.log(mpmath.mpf(top) / mid) * (mid - 1)
    return (1 if r > 0 else -1) * (mid + int(mpmath.ceil(x)))


def _log_buckets(dps: int, top_offset: int = -1):
    r = [0, 1, 127, 128, 129, 130, 200, 300, 511, 512, -129, -511]
    if top_offset == -1:
        b = [deberta.deberta_log_bucket_mp(x, bucket_size=256, max_position=512, dps=dps) for x in r]
    else:
        b = [_log_bucket_mp(x, 256, 512, 512 + top_offset) for x in r]
    return b, [("r = i - j", r), ("bucket (`bucket_size` 256, `max_position` 512)", b)]


def deberta_log_buckets() -> Fact:
    return Fact(
        "deberta-log-bucket-values",
        "DeBERTa v2 log buckets: exact up to 128, then logarithmic up to 255",
        TOPIC,
        DEBERTA_CODE,
        r"`make_log_bucket_position` at its defaults, logarithms at full precision: $|r| \le 128$ is kept, "
        r"$|r| = 511 = \mathrm{max\_position} - 1$ maps to 255, and the buckets are odd in $r$.",
        claim=[0, 1, 127, 128, 129, 130, 169, 207, 255, 256, -129, -255],
        compute=_log_buckets,
        method="mpmath at {dps} digits (numeric.deberta.deberta_log_bucket_mp)",
        notes=(
            r"$r = 512$ gives 256 (the reference does not cap); the score's $\mathrm{clip}(\cdot + k, 0, 2k - "
            r"1)$ saturates it. Dividing by $\log(M/\mathrm{mid})$ instead of $\log((M - "
            r"1)/\mathrm{mid})$, $M$ the `max_position`, gives other buckets."
        ),
        wrong=lambda dps: _log_buckets(dps, top_offset=0),
        formula=(
            sp.Eq(_bucket(128), 128, evaluate=False),
            sp.Eq(_bucket(511), 255, evaluate=False),
            sp.Eq(_bucket(-_r), -_bucket(_r), evaluate=False),
        ),
    )


def claims() -> list:
    return [
        delta_definition(),
        deberta_from_four_terms(),
        deberta_window(),
        deberta_translation(),
        deberta_saturation(),
        deberta_p2c(),
        deberta_log_buckets(),
    ]


# ---- the rules table: DeBERTa's rows, clipped and log-bucketed (symbolic.tables) -------------------------------


def _phi():
    QC, KC, QR, KR = (sp.IndexedBase(name) for name in ("q^c", "k^c", "Q^r", "K^r"))
    m, n, delta_ = tables.m, tables.n, sp.Function("delta")
    return tables.phi(QC[m] * KR[delta_(m, n)] + KC[n] * QR[delta_(n, m)])


RULES_ROWS = (
    tables.Row(
        70,
        "DeBERTa (clipped)",
        _phi(),
        (
            tables.Cell(
                "properties-deberta-rules",
                read=tables.negated(r"clipped: constant for $|i - j| \ge k$"),
                note=r"constant for $|m - n| \ge k$",
            ),
            tables.Cell("deberta-translation-invariant", read=lambda v: v[2]),
            tables.Cell("properties-deberta-rules", read=tables.key("clipped: symmetric")),
        ),
        tables.Length.entry(
            "properties-length-capped", "DeBERTa clipped (k = 512): new rows", "{x} new rows (k = 512)"
        ),
    ),
    tables.Row(
        80,
        "DeBERTa (log buckets)",
        _phi(),
        (
            tables.Cell(
                "properties-deberta-rules",
                read=tables.negated(r"log buckets: $\varphi(i, i - 5) = \varphi(i, i - 6)$"),
                note="equal within a bucket",
            ),
            tables.Cell("properties-deberta-rules", read=tables.key("log buckets: translation invariant")),
            tables.Cell("properties-deberta-rules", read=tables.key("log buckets: symmetric")),
        ),
        tables.Length.entry(
            "properties-length-capped",
            "DeBERTa log buckets (256, 512, k = 256): new rows",
            "{x} new rows (256 buckets, 512, k = 256)",
        ),
    ),
)


# ---- the texts: the statements of the article and the RoPE note that this module's claims decide ---------------
# (symbolic.tables; the first number is the statement's place in the texts, the verdicts are V verified, C corrected,
# R holds on a range, X not checkable)


def _annotations() -> tuple[tables.Annotation, ...]:
    a, S = tables.in_article, tables.S
    V, C, R, X = tables.ANNOTATION_VERDICTS
    return (
        # 2. DeBERTa (Disentangled Attention)
        a(590, S[15], "relative position embeddings ($\\tilde{p}_{m-n}$)", "DeBERTa replaces p_m and p_n by relative "
          "embeddings of m - n.", R, "deberta-delta-saturation", ((),), note="relative only inside the window |m - n| "
          "< k; beyond it every distance shares the end row"),
        # Summary
        a(900, S[20], "based purely on the number of hops", "Transformer-XL, DeBERTa and T5 score purely by the number "
          "of hops.", R, "deberta-delta-saturation", ((),), note="DeBERTa and T5 tell hops apart only inside a window "
          "or bucket by bucket ([[claim:t5-bucket-boundaries]])"),
    )  # fmt: skip


ANNOTATIONS = _annotations()
