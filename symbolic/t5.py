r"""T5's relative position bias (Raffel et al. 2020): the bias computed from absolute positions depends on
``n - m`` only, and the bucket boundaries and cap of the reference's ``_relative_position_bucket``.

Convention: the relative position is **key - query** (``r = n - m``); bidirectional buckets put keys after the
query (``r > 0``) in the upper half.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp
from posproof.numeric import t5
from posproof.symbolic import sources, tables
from posproof.symbolic.attention import TOPIC
from posproof.symbolic.engine import settings
from posproof.symbolic.engine.core import Fact

T5 = sources.T5

# ---- named symbols for the short statements (formula=) ---------------------------------------------------------
_m, _n, _t = sp.symbols("m n t", integer=True)
_r = sp.Symbol("r", integer=True)
_bias, _bucket = sp.Function("B"), sp.Function("bucket")
_j = sp.Symbol("j", integer=True, nonnegative=True)


def _t5_bias(dps: int, swapped: bool = False):
    heads, num_buckets = 2, 32
    table = np.repeat(np.arange(num_buckets, dtype=np.float64)[:, None], heads, axis=1)  # bias = bucket index
    bias = (lambda m_, n_: t5.t5_bias(n_, m_, table)) if swapped else (lambda m_, n_: t5.t5_bias(m_, n_, table))
    m, n = np.arange(0, 40), np.arange(0, 40)
    B = bias(m, n)  # (heads, queries, keys)
    toeplitz = bool(np.all(B[:, 1:, 1:] == B[:, :-1, :-1]))
    far = 10**6
    shifted = bool(np.all(bias(m + far, n + far) == B))
    after, before = int(bias([10], [15])[0, 0, 0]), int(bias([15], [10])[0, 0, 0])
    value = {
        "constant along diagonals": toeplitz,
        "positions shifted by $10^6$: unchanged": shifted,
        "query 10, key 15 (r = +5)": after,
        "query 15, key 10 (r = -5)": before,
    }
    return value, list(value.items())


def t5_translation() -> Fact:
    return Fact(
        "t5-bias-relative",
        "T5's bias computed from absolute positions depends on $n - m$ only; keys after the query use the upper "
        "half of the buckets",
        TOPIC,
        f"{T5}; {sources.article('Relative Positions')}",
        "`numeric.t5.t5_bias` with 32 buckets, max distance 128 and a table whose bias is the bucket index, for "
        r"queries and keys at $0, \dots, 39$ and again shifted by $10^6$: the bias matrix is constant along "
        "diagonals and unchanged by the shift; a key 5 after the query reads bucket 16 + 5 = 21, a key 5 before "
        "reads 5.",
        {
            "constant along diagonals": True,
            "positions shifted by $10^6$: unchanged": True,
            "query 10, key 15 (r = +5)": 21,
            "query 15, key 10 (r = -5)": 5,
        },
        _t5_bias,
        method="numeric.t5.t5_bias (NumPy, exact integer buckets)",
        wrong=lambda dps: _t5_bias(dps, swapped=True),
        formula=sp.Eq(_bias(_m + _t, _n + _t), _bias(_m, _n), evaluate=False),
        notes="The score is content plus $b(\\mathrm{bucket}(n - m))$ by T5's definition; what is checked is "
        "that the code "
        "computes it from absolute positions with the sign key minus query. The other sign "
        "convention (query minus key) is still translation invariant but reads the other half of the table.",
    )


def _linear_bucket(r: int, num_buckets: int = 32, max_distance: int = 128) -> int:
    r"""A plausible wrong bucket: linear instead of logarithmic spacing beyond ``max_exact``."""
    side = num_buckets // 2
    me = side // 2
    offset, a = (side if r > 0 else 0), abs(r)
    if a < me:
        return offset + a
    return offset + min(me + (a - me) * (side - me) // (max_distance - me), side - 1)


def _t5_boundaries(dps: int, bucket=None):
    bucket = bucket or (
        lambda r: t5.t5_relative_bucket_mp(r, bidirectional=True, num_buckets=32, max_distance=128, dps=dps)
    )
    B, me, md = 16, 8, 128
    firsts, seen = [], set()
    for a in range(0, 200):  # r = -a <= 0: keys before the query, the lower half
        b = bucket(-a)
        if b not in seen:
            seen.add(b)
            firsts.append(a)
    # The closed form: bucket me + j starts at the least integer a >= me (md/me)^(j/(B - me)).
    closed = list(range(me))
    for jj in range(B - me):
        edge = me * (mpmath.mpf(md) / me) ** (mpmath.mpf(jj) / (B - me))
        closed.append(int(mpmath.ceil(edge - settings.rel_tol(dps))))  # exact powers stay put
    used = {bucket(r) for r in range(-130, 131)}
    unused = [bb for bb in range(32) if bb not in used]
    rows = [(r"first $|r|$ of each bucket ($r \le 0$)", firsts), ("closed form", closed), ("unused buckets", unused)]
    return [firsts, unused, firsts == closed], rows


def t5_boundaries() -> Fact:
    return Fact(
        "t5-bucket-boundaries",
        "T5 bucket boundaries at the defaults (bidirectional, 32 buckets, 128)",
        TOPIC,
        T5,
        r"Scanning the bucket of $r = 0, -1, \dots, -199$: exact buckets for $|r| < 8$, then the boundaries "
        r"$8 \cdot 16^{j/8}$ rounded up; bucket 16 is never used (positive offsets start at $|r| = 1$). The "
        "result lists, in order, the first $|r|$ of each bucket, the unused buckets, and whether the scan agrees "
        "with the closed form.",
        [[0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 23, 32, 46, 64, 91], [16], True],
        _t5_boundaries,
        method="mpmath at {dps} digits (numeric.t5.t5_relative_bucket_mp)",
        wrong=lambda dps: _t5_boundaries(dps, bucket=_linear_bucket),
        formula=sp.Eq(
            sp.Function("r_{first}")(8 + _j), sp.ceiling(8 * sp.Pow(16, _j / 8, evaluate=False)), evaluate=False
        ),
        notes="Linearly spaced buckets (a bug class seen in ports) give other boundaries.",
    )


def _uncapped(r: int) -> int:
    return int(t5.t5_relative_bucket_uncapped(r))  # the bug class: no cap at the last bucket


def _t5_cap(dps: int, bucket=None):
    bucket = bucket or (
        lambda r: t5.t5_relative_bucket_mp(r, bidirectional=True, num_buckets=32, max_distance=128, dps=dps)
    )
    r = [-127, -128, -129, -1000, -(10**6), 128, 10**6]
    b = [bucket(x) for x in r]
    b0 = [
        t5.t5_relative_bucket_mp(0, bidirectional=bi, num_buckets=nb, max_distance=md, dps=dps)
        for bi, nb, md in ((True, 32, 128), (False, 32, 128))
    ]
    return [b, b0], [("r", r), ("bucket", b), ("bucket(0) bidirectional / unidirectional", b0)]


def t5_cap() -> Fact:
    return Fact(
        "t5-bucket-cap",
        "T5 buckets are capped at the last bucket of each half; distance 0 is bucket 0",
        TOPIC,
        T5,
        r"Bidirectional, 32 buckets, max distance 128: every $|r| \ge 91$ of one sign shares a bucket (15 for keys "
        r"before the query, 31 after), however far; $r = 0$ is bucket 0 with no $\log 0$ evaluated.",
        [[15, 15, 15, 15, 15, 31, 31], [0, 0]],
        _t5_cap,
        method="mpmath at {dps} digits (numeric.t5.t5_relative_bucket_mp)",
        wrong=lambda dps: _t5_cap(dps, bucket=_uncapped),
        formula=(
            sp.Implies(sp.Le(_r, -91), sp.Eq(_bucket(_r), 15, evaluate=False), evaluate=False),
            sp.Implies(sp.Ge(_r, 91), sp.Eq(_bucket(_r), 31, evaluate=False), evaluate=False),
            sp.Eq(_bucket(0), 0, evaluate=False),
        ),
        notes=r"Without the cap, $\min(\cdot, \mathrm{buckets} - 1)$, the buckets differ.",
    )


def claims() -> list:
    return [t5_translation(), t5_boundaries(), t5_cap()]


# ---- the rules table: T5's row (symbolic.tables) ---------------------------------------------------------------

RULES_ROWS = (
    tables.Row(
        90,
        "T5",
        tables.phi(sp.Function("b")(sp.Function("bucket")(tables.n - tables.m))),
        (
            tables.Cell(
                "t5-bucket-cap", read=lambda v: len(set(v[0][:5])) > 1, note=r"one bucket for all $|m - n| \ge 91$"
            ),
            tables.Cell("t5-bias-relative", read=tables.key("constant along diagonals")),
            tables.Cell(
                "t5-bias-relative", read=lambda v: v["query 10, key 15 (r = +5)"] == v["query 15, key 10 (r = -5)"]
            ),
        ),
        tables.Length.entry(
            "properties-length-capped",
            "T5 (32 buckets, max distance 128): new buckets",
            "{x} new buckets (32 buckets, 128)",
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
        # Relative Positions
        a(530, S[13], "This is called Translation Invariance", "The distance is the same anywhere in a book: "
          "translation invariance.", V, "t5-bias-relative", ("positions shifted by $10^6$: unchanged",), (True,)),
        # 3. T5 (The Elegant Simplification)
        a(610, S[16], "removed positional vectors from the input entirely", "T5 adds no position vector; the score is "
          "content plus a bias of the distance.", V, "t5-bias-relative", ("constant along diagonals",), (True,)),
        a(620, S[16], "a single learned number (a scalar bias", "T5 adds one learned scalar per distance.", R,
          "t5-bucket-boundaries", ((0,),), note="one scalar per bucket: exact for |r| < 8, shared beyond, one for "
          "every |r| >= 91 of a side"),
        a(630, S[16], "the learned bias value for \"+3 steps\"", "At 3 steps the model looks up the bias for '+3'.", V,
          "t5-bucket-boundaries", ((0,),), note="|r| = 3 has a bucket of its own (below 8)"),
        a(640, S[16], "and entirely relative", "T5's bias is entirely relative.", V, "t5-bias-relative",
          ("positions shifted by $10^6$: unchanged",), (True,)),
        # Summary
        a(890, S[20], "relative distances remain perfectly intact", "Relative distances survive a shift.", V,
          "t5-bias-relative", ("positions shifted by $10^6$: unchanged",), (True,)),
    )  # fmt: skip


ANNOTATIONS = _annotations()
