r"""A first attention layer without positional encoding (NoPE) under the causal mask: with all query-key scores
equal (``W_Q = 0``) the query at 0-indexed position ``n`` attends uniformly to the ``n + 1`` tokens ``0 .. n`` it
sees, so its output is the mean of their value vectors. When token 0 is a BOS whose value has a 1 in a coordinate
where every other token's value has 0, that coordinate of the output at ``n`` is ``1/(n + 1)``: the absolute
position, recovered as ``1/y - 1`` (Kazemnejad et al. 2023, "The Impact of Positional Encoding on Length
Generalization in Transformers", arXiv 2305.19466, Theorem 1's construction).

Convention: ``values`` is ``(tokens, width)``, row ``j`` the value vector of the token at position ``j``; every
query-key score equals ``score`` (0 by default: the query projection is zero), softmax is taken over the keys
``j <= n`` (``causal=True``) or over all keys (``causal=False``, an encoder), and the output at ``n`` is
``sum_j a_{nj} v_j``. No positional encoding enters anywhere: the position comes from the mask alone.

>>> values = bos_values(4)
>>> nope_first_layer(values)[:, 0].tolist()
[1.0, 0.5, 0.3333333333333333, 0.25]
>>> recover_positions(nope_first_layer(values)).tolist()
[0, 1, 2, 3]
>>> nope_first_layer(values, causal=False)[:, 0].tolist()
[0.25, 0.25, 0.25, 0.25]
"""

from __future__ import annotations

import math
import numbers

import mpmath
import numpy as np
from posproof.numeric import _validate

__all__ = [
    "nope_first_layer",
    "nope_first_layer_mp",
    "bos_values",
    "recover_positions",
    "golden_vectors_nope",
]


def _values(values) -> np.ndarray:
    v = _validate.finite_array(values, "values", ndim=2)
    if v.shape[0] < 1 or v.shape[1] < 1:
        raise ValueError(f"values must be (tokens, width) with tokens >= 1 and width >= 1, got shape {v.shape}")
    return v


def _causal(value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"causal must be True or False, got {value!r}")
    return bool(value)


def _score(value) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"score must be a finite real number, got {value!r}")
    return float(value)


def nope_first_layer(values, *, score: float = 0.0, causal: bool = True) -> np.ndarray:
    r"""The outputs ``(tokens, width)`` of one attention head without positional encoding whose query-key scores
    all equal ``score`` (0 when ``W_Q = 0``), float64: softmax over the keys ``j <= n`` (``causal``) or over all
    keys, times the value vectors."""
    v = _values(values)
    s = _score(score)
    causal = _causal(causal)
    t = v.shape[0]
    scores = np.full((t, t), s)  # q_n^T k_j / sqrt(d) = s for every pair (s = 0: the query projection is zero)
    if causal:
        scores = np.where(np.tri(t, dtype=bool), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v


def nope_first_layer_mp(values, *, score=0, causal: bool = True, dps: int = 50) -> list[list]:
    r"""The mpmath twin of :func:`nope_first_layer` at ``dps`` digits (rows of ``mpf``): the same softmax of equal
    scores, summed term by term; ``score`` may be a string (``"0.1"``: the decimal) or an ``mpf``."""
    v = _values(values)
    causal = _causal(causal)
    t, width = v.shape
    with mpmath.workdps(_validate.dps(dps)):
        try:
            s = mpmath.mpf(score)
        except (TypeError, ValueError):
            raise ValueError(f"score must be a finite real number, got {score!r}") from None
        if not mpmath.isfinite(s) or isinstance(score, bool):
            raise ValueError(f"score must be a finite real number, got {score!r}")
        rows = [[mpmath.mpf(float(x)) for x in row] for row in v]
        out = []
        for n in range(t):
            keys = range(n + 1) if causal else range(t)
            e = [mpmath.exp(s) for _ in keys]
            total = mpmath.fsum(e)
            out.append(
                [mpmath.fsum(w / total * rows[j][c] for w, j in zip(e, keys, strict=True)) for c in range(width)]
            )
        return out


def bos_values(tokens: int, *, width: int = 3) -> np.ndarray:
    r"""Value vectors ``(tokens, width)`` for the construction: coordinate 0 is 1 for the BOS (token 0) and 0 for
    every other token; the other coordinates are a fixed content pattern of exact binary fractions
    (``((3 j + c + 1) mod 8 - 4) / 8`` at token ``j``, coordinate ``c``), which the position coordinate does not
    depend on."""
    t = _validate.positive_int(tokens, "tokens")
    w = _validate.positive_int(width, "width")
    j, c = np.meshgrid(np.arange(t), np.arange(w), indexing="ij")
    v = ((3 * j + c + 1) % 8 - 4) / 8.0
    v[:, 0] = 0.0
    v[0, 0] = 1.0
    return v


def recover_positions(outputs, *, coordinate: int = 0) -> np.ndarray:
    r"""The positions read back from the BOS coordinate of the outputs: ``n = 1/y - 1``, rounded to the nearest
    integer (int64). ``y`` must be in ``(0, 1]``."""
    out = _validate.finite_array(outputs, "outputs", ndim=2)
    c = _validate.positive_int(coordinate, "coordinate", minimum=0)
    if c >= out.shape[1]:
        raise ValueError(f"coordinate must be in [0, {out.shape[1] - 1}], got {coordinate!r}")
    y = out[:, c]
    if np.any((y <= 0) | (y > 1)):
        raise ValueError("outputs[:, coordinate] must lie in (0, 1] (the BOS weight 1/(n + 1))")
    return np.rint(1.0 / y - 1.0).astype(np.int64)


#: Golden-vector cases: token counts, the value width, and both masks.
TOKENS = (1, 2, 5, 8)
WIDTH = 3


def golden_vectors_nope(dps: int = 50, digits: int = 17) -> dict:
    r"""The NoPE document in the shape of :mod:`posproof.numeric.vectors`: computed with mpmath at ``dps`` digits,
    written as decimal strings of ``digits`` significant digits (the values, :func:`bos_values`, are exact binary
    fractions, written exactly)."""

    def dec(x) -> str:
        with mpmath.workdps(dps):
            return mpmath.nstr(mpmath.mpf(x), digits, strip_zeros=False)

    cases = []
    for t in TOKENS:
        values = bos_values(t, width=WIDTH)
        for causal in (True, False):
            out = nope_first_layer_mp(values, causal=causal, dps=dps)
            cases.append(
                {
                    "parameters": {"tokens": t, "width": WIDTH, "causal": causal},
                    "values": [[repr(float(x)) for x in row] for row in values],
                    "outputs": [[dec(x) for x in row] for row in out],
                }
            )
    return {
        "scheme": "nope",
        "version": 1,
        "precision": {
            "dps": dps,
            "digits": digits,
            "note": "mpmath at dps digits, rounded to digits significant digits as decimal strings; the values are "
            "exact binary fractions, written exactly",
        },
        "conventions": (
            "0-indexed positions; scores all 0 (W_Q = 0, no positional encoding); softmax over keys j <= n (causal) "
            "or all keys; output at n = sum_j a_nj v_j. Token 0 is a BOS whose value has 1 in coordinate 0, every "
            "other token 0 there, so the causal output's coordinate 0 is 1/(n + 1)"
        ),
        "cases": cases,
    }
