r"""Contextual position encoding, CoPE (Golovneva et al. 2024, 'Contextual Position Encoding: Learning to Count
What's Important', arXiv 2405.18719; the paper's appendix code and facebookresearch/RAM, ``projects/cope``,
``ContextPosSelfAttn.forward``).

Convention (the official code's): queries ``q`` and keys ``k`` are ``(L, d)`` arrays, one row per 0-indexed
position, and the layer is causal (key ``j`` visible to query ``i`` iff ``j <= i``).

- gates ``g_ij = sigmoid(q_i . k_j / sqrt(d))`` for ``j <= i``, 0 for ``j > i`` (the appendix takes the sigmoid of
  the scaled logits after the mask's ``log`` is added, the RAM code multiplies the gates by the mask: both 0);
- positions ``p_ij = sum_{t=j}^{i} g_it``, both ends included (``gates.flip(-1).cumsum(-1).flip(-1)``): the key
  itself counts, so ``p_ii = g_ii`` lies in ``(0, 1)``, and every gate 1 gives ``p_ij = i - j + 1``; then clamped,
  ``min(p_ij, npos_max - 1)`` (``pos.clamp(max=npos_max - 1)``); above the diagonal the positions are 0;
- the embedding at a fractional position is interpolated between its two integer neighbours,
  ``e[p] = (p - floor p) e[ceil p] + (1 - p + floor p) e[floor p]``; the code gathers the logits
  ``q_i . e[floor p]`` and ``q_i . e[ceil p]`` from ``q e^T`` (the same number, rounded differently) with the
  table of ``npos_max`` rows;
- the score: the paper's appendix adds ``z_ij = q_i . e[p_ij]`` after the division, ``q_i . k_j / sqrt(d) + z_ij``;
  the RAM code's default (``--cope-nodiv`` off) divides both, ``(q_i . k_j + z_ij) / sqrt(d)``
  (``divide_positions=True``); masked entries are ``-inf``.

>>> q = np.array([[0.0], [0.0], [0.0]]); k = np.array([[1.0], [2.0], [3.0]])
>>> cope_positions(q, k).tolist()
[[0.5, 0.0, 0.0], [1.0, 0.5, 0.0], [1.5, 1.0, 0.5]]
>>> cope_interpolate([0.25, 1.5], [[0.0], [4.0], [8.0]]).tolist()
[[1.0], [6.0]]
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
from posproof.numeric import _mp, _validate

__all__ = [
    "cope_gates",
    "cope_gates_mp",
    "cope_positions",
    "cope_positions_mp",
    "cope_interpolate",
    "cope_interpolate_mp",
    "cope_scores",
    "cope_scores_mp",
    "golden_vectors_cope",
]


# ---- validation -------------------------------------------------------------------------------------------------


def _pair(q, k) -> tuple[np.ndarray, np.ndarray]:
    qq = _validate.finite_array(q, "q", ndim=2)
    kk = _validate.finite_array(k, "k", ndim=2)
    if qq.shape[0] < 1 or qq.shape[1] < 1:
        raise ValueError(f"q must be an (L, d) array with L >= 1 and d >= 1, got shape {qq.shape}")
    if kk.shape != qq.shape:
        raise ValueError(f"k must have the shape of q, {qq.shape} (one key per position), got {kk.shape}")
    return qq, kk


def _table(table, width: int | None) -> np.ndarray:
    t = _validate.finite_array(table, "table", ndim=2)
    if t.shape[0] < 1 or t.shape[1] < 1:
        raise ValueError(f"table must be an (npos_max, d) array with npos_max >= 1 and d >= 1, got shape {t.shape}")
    if width is not None and t.shape[1] != width:
        raise ValueError(f"table must have d = {width} columns (the width of q), got shape {t.shape}")
    return t


def _npos_max(value) -> int | None:
    return None if value is None else _validate.positive_int(value, "npos_max")


def _flag(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _in_table(positions, npos: int) -> np.ndarray:
    p = _validate.positions(positions, one_d=False)
    if p.size and (float(p.min()) < 0 or float(p.max()) > npos - 1):
        raise ValueError(f"positions must lie in [0, {npos - 1}] (the table's rows), got values in "
                         f"[{float(p.min())!r}, {float(p.max())!r}]")  # fmt: skip
    return p


def _mp_rows(value, name: str, width: int | None = None) -> list[list]:
    r"""A rectangular 2-D array of finite reals as rows of ``mpf`` (at the working precision); strings are read
    as decimals (:func:`numeric._mp.raw`)."""
    arr = _mp.object_array(value, name, 2, "(rows, columns)")
    if arr.ndim != 2 or 0 in arr.shape:
        raise ValueError(f"{name} must be a nonempty rectangular 2-D array, got shape {arr.shape}")
    if width is not None and arr.shape[1] != width:
        raise ValueError(f"{name} must have d = {width} columns, got {arr.shape[1]}")
    out = []
    for r in arr:
        row = []
        for x in r:
            try:
                row.append(mpmath.mpf(_mp.raw(x, mpmath.mp.prec)))
            except (TypeError, ValueError):
                raise ValueError(f"{name} must hold finite real numbers, got {x!r}") from None
        out.append(row)
    return out


def _mp_pair(q, k) -> tuple[list[list], list[list]]:
    qq = _mp_rows(q, "q")
    kk = _mp_rows(k, "k", width=len(qq[0]))
    if len(kk) != len(qq):
        raise ValueError(f"k must have the shape of q, ({len(qq)}, {len(qq[0])}), got {len(kk)} rows")
    return qq, kk


# ---- float64 kernels --------------------------------------------------------------------------------------------


def _sigmoid(x: np.ndarray) -> np.ndarray:
    e = np.exp(-np.abs(x))  # never overflows
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _gates(qq: np.ndarray, kk: np.ndarray) -> np.ndarray:
    a = (qq @ kk.T) / math.sqrt(qq.shape[1])
    return np.tril(_sigmoid(a))


def _positions(g: np.ndarray, npos_max: int | None) -> np.ndarray:
    p = np.flip(np.cumsum(np.flip(g, -1), -1), -1)
    return p if npos_max is None else np.minimum(p, npos_max - 1)


def cope_gates(q, k) -> np.ndarray:
    r"""CoPE's gates, float64 ``(L, L)``: ``sigmoid(q_i . k_j / sqrt(d))`` for keys ``j <= i``, 0 after the query."""
    qq, kk = _pair(q, k)
    return _gates(qq, kk)


def cope_positions(q, k, *, npos_max: int | None = None) -> np.ndarray:
    r"""CoPE's positions, float64 ``(L, L)``: ``p_ij = sum_{t=j}^{i} g_it`` (0 for ``j > i``), clamped at
    ``npos_max - 1`` when ``npos_max`` (an integer >= 1) is given."""
    qq, kk = _pair(q, k)
    return _positions(_gates(qq, kk), _npos_max(npos_max))


def cope_interpolate(positions, table) -> np.ndarray:
    r"""The embedding at each fractional position, float64, of shape ``positions.shape + (d,)``:
    ``(p - floor p) table[ceil p] + (1 - p + floor p) table[floor p]``; ``table`` is ``(npos_max, d)`` and every
    position must lie in ``[0, npos_max - 1]``."""
    t = _table(table, None)
    p = _in_table(positions, t.shape[0])
    lo = np.floor(p)
    w = (p - lo)[..., None]
    return t[np.ceil(p).astype(np.int64)] * w + t[lo.astype(np.int64)] * (1.0 - w)


def cope_scores(q, k, table, *, divide_positions: bool = False) -> np.ndarray:
    r"""CoPE's attention logits, float64 ``(L, L)``, with the position table ``table`` (``(npos_max, d)``; the
    positions are clamped at ``npos_max - 1``): ``q_i . k_j / sqrt(d) + z_ij`` (the paper's appendix), or
    ``(q_i . k_j + z_ij) / sqrt(d)`` with ``divide_positions=True`` (the RAM code's default); ``z_ij`` interpolates
    the gathered logits ``q_i . table[floor p_ij]`` and ``q_i . table[ceil p_ij]``. ``-inf`` for keys after the
    query."""
    qq, kk = _pair(q, k)
    t = _table(table, qq.shape[1])
    div = _flag(divide_positions, "divide_positions")
    p = _positions(_gates(qq, kk), t.shape[0])
    fixed = qq @ t.T  # (L, npos_max): q_i . table[n] at every integer position n
    lo = np.floor(p)
    w = p - lo
    z = np.take_along_axis(fixed, np.ceil(p).astype(np.int64), -1) * w
    z = z + np.take_along_axis(fixed, lo.astype(np.int64), -1) * (1.0 - w)
    dots = qq @ kk.T
    root = math.sqrt(qq.shape[1])
    s = (dots + z) / root if div else dots / root + z
    return np.where(np.tril(np.ones(s.shape, dtype=bool)), s, -np.inf)


# ---- mpmath twins -----------------------------------------------------------------------------------------------


def _gates_mp(qq: list[list], kk: list[list]) -> list[list]:
    root = mpmath.sqrt(len(qq[0]))
    L = len(qq)
    return [
        [1 / (1 + mpmath.exp(-mpmath.fsum(a * b for a, b in zip(qq[i], kk[j], strict=True)) / root)) if j <= i
         else mpmath.mpf(0) for j in range(L)]
        for i in range(L)
    ]  # fmt: skip


def _positions_mp(g: list[list], npos_max: int | None) -> list[list]:
    out = []
    for row in g:
        acc, rev = mpmath.mpf(0), []
        for x in reversed(row):
            acc += x
            rev.append(acc if npos_max is None else min(acc, mpmath.mpf(npos_max - 1)))
        out.append(rev[::-1])
    return out


def _interp_mp(p, rows: list[list]) -> list:
    lo = int(mpmath.floor(p))
    hi = int(mpmath.ceil(p))
    w = p - lo
    return [rows[hi][c] * w + rows[lo][c] * (1 - w) for c in range(len(rows[0]))]


def cope_gates_mp(q, k, *, dps: int = 50) -> list[list]:
    r"""The mpmath twin of :func:`cope_gates` at ``dps`` digits: rows of ``mpf`` (entries may be decimal strings)."""
    with mpmath.workdps(_validate.dps(dps)):
        qq, kk = _mp_pair(q, k)
        return _gates_mp(qq, kk)


def cope_positions_mp(q, k, *, npos_max: int | None = None, dps: int = 50) -> list[list]:
    r"""The mpmath twin of :func:`cope_positions` at ``dps`` digits: rows of ``mpf``."""
    n = _npos_max(npos_max)
    with mpmath.workdps(_validate.dps(dps)):
        qq, kk = _mp_pair(q, k)
        return _positions_mp(_gates_mp(qq, kk), n)


def cope_interpolate_mp(positions, table, *, dps: int = 50) -> list[list]:
    r"""The mpmath twin of :func:`cope_interpolate` for a 1-D sequence of positions at ``dps`` digits: one row of
    ``d`` ``mpf`` per position."""
    with mpmath.workdps(_validate.dps(dps)):
        rows = _mp_rows(table, "table")
        (ps,) = _mp_rows([positions], "positions")
        top = len(rows) - 1
        bad = [p for p in ps if p < 0 or p > top]
        if bad:
            raise ValueError(f"positions must lie in [0, {top}] (the table's rows), got {mpmath.nstr(bad[0], 8)}")
        return [_interp_mp(p, rows) for p in ps]


def cope_scores_mp(q, k, table, *, divide_positions: bool = False, dps: int = 50) -> list[list]:
    r"""The mpmath twin of :func:`cope_scores` at ``dps`` digits: rows of ``mpf`` (``-inf`` after the query); the
    position term is ``q_i . e[p_ij]`` with ``e[p]`` interpolated (:func:`cope_interpolate_mp`)."""
    div = _flag(divide_positions, "divide_positions")
    with mpmath.workdps(_validate.dps(dps)):
        qq, kk = _mp_pair(q, k)
        rows = _mp_rows(table, "table", width=len(qq[0]))
        p = _positions_mp(_gates_mp(qq, kk), len(rows))
        root = mpmath.sqrt(len(qq[0]))
        L = len(qq)
        out = []
        for i in range(L):
            row = []
            for j in range(L):
                if j > i:
                    row.append(mpmath.ninf)
                    continue
                dot = mpmath.fsum(a * b for a, b in zip(qq[i], kk[j], strict=True))
                z = mpmath.fsum(a * b for a, b in zip(qq[i], _interp_mp(p[i][j], rows), strict=True))
                row.append((dot + z) / root if div else dot / root + z)
            out.append(row)
        return out


# ---- golden vectors ---------------------------------------------------------------------------------------------

#: Golden-vector cases: (q, k, table) as decimal strings, d = 2, L = 4, npos_max = 3 (the last rows clamp).
GOLDEN_CASES = (
    (
        (("0.5", "-1"), ("1", "0.25"), ("-0.75", "2"), ("3", "1")),
        (("1", "0.5"), ("-2", "1"), ("0.25", "0.25"), ("4", "-3")),
        (("0", "0"), ("1", "-1"), ("0.5", "2")),
    ),
    (
        (("0", "0"), ("0", "0"), ("0", "0"), ("0", "0")),
        (("1", "2"), ("3", "4"), ("5", "6"), ("7", "8")),
        (("1", "0"), ("0", "1"), ("2", "2")),
    ),
)


def golden_vectors_cope(dps: int = 50, digits: int = 17) -> dict:
    r"""The CoPE document in the shape of :mod:`posproof.numeric.vectors`: gates, positions (clamped at
    ``npos_max - 1``) and both scores, computed with mpmath at ``dps`` digits, written as decimal strings of
    ``digits`` significant digits (``"-inf"`` after the query)."""

    def dec(x) -> str:
        if mpmath.isinf(x):
            return "-inf"
        with mpmath.workdps(dps):
            return mpmath.nstr(mpmath.mpf(x), digits, strip_zeros=False)

    def grid(rows) -> list[list[str]]:
        return [[dec(x) for x in r] for r in rows]

    cases = []
    for q, k, table in GOLDEN_CASES:
        npos = len(table)
        cases.append({
            "parameters": {"npos_max": npos, "width": len(q[0]), "length": len(q)},
            "q": [list(r) for r in q],
            "k": [list(r) for r in k],
            "table": [list(r) for r in table],
            "gates": grid(cope_gates_mp(q, k, dps=dps)),
            "positions": grid(cope_positions_mp(q, k, npos_max=npos, dps=dps)),
            "scores": grid(cope_scores_mp(q, k, table, dps=dps)),
            "scores_divided": grid(cope_scores_mp(q, k, table, divide_positions=True, dps=dps)),
        })  # fmt: skip
    return {
        "scheme": "cope",
        "version": 1,
        "precision": {
            "dps": dps,
            "digits": digits,
            "note": "mpmath at dps digits, rounded to digits significant digits as decimal strings; the inputs are "
            "the decimals written",
        },
        "conventions": (
            "q, k: (L, d), one row per 0-indexed position, causal (key j <= query i). gates g_ij = sigmoid(q_i . k_j "
            "/ sqrt(d)), 0 for j > i; positions p_ij = min(sum_{t=j}^{i} g_it, npos_max - 1) (both ends included); "
            "e[p] = (p - floor p) e[ceil p] + (1 - p + floor p) e[floor p] with e = table (npos_max rows); scores "
            "q_i . k_j / sqrt(d) + q_i . e[p_ij] (the paper's appendix), scores_divided (q_i . k_j + q_i . e[p_ij]) "
            "/ sqrt(d) (facebookresearch/RAM ContextPosSelfAttn default); -inf for j > i"
        ),
        "cases": cases,
    }
