r"""ALiBi (Press et al. 2022): a per-head linear bias ``-m_h (i - j)`` on causal attention scores.

Slopes: for ``n`` heads, ``n`` a power of two, ``m_h = 2^(-8h/n)``, ``h = 1 .. n`` (a geometric sequence starting
and multiplying by ``2^(-8/n)``). Otherwise, with ``c = 2^floor(log2 n)``: the ``c`` slopes of ``c`` heads, then
every other slope of the ``2c``-head sequence (``2^(-8h/(2c))`` for odd ``h``), the first ``n - c`` of them.

>>> alibi_slopes(8).tolist()
[0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625]
>>> alibi_slope_exponents(6)
[Fraction(-2, 1), Fraction(-4, 1), Fraction(-6, 1), Fraction(-8, 1), Fraction(-1, 1), Fraction(-3, 1)]
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
from posproof.numeric import _validate
from posproof.numeric._deprecated import old_arguments

__all__ = ["alibi_slope_exponents", "alibi_slopes", "alibi_slopes_mp", "alibi_bias", "FORMS"]


def alibi_slope_exponents(n_heads: int) -> list[Fraction]:
    r"""The exact exponents ``e_h`` with ``m_h = 2^(e_h)``, head by head (rational numbers)."""
    n = _validate.positive_int(n_heads, "n_heads")
    c = 1 << (n.bit_length() - 1)  # the largest power of two <= n
    first = [Fraction(-8 * h, c) for h in range(1, c + 1)]  # 2^(-8h/c)
    extra = [Fraction(-8 * h, 2 * c) for h in range(1, 2 * c + 1, 2)][: n - c]  # odd h of the 2c sequence
    return first + extra


def alibi_slopes(n_heads: int) -> np.ndarray:
    r"""The ``n_heads`` slopes, float64 ``(n_heads,)``; any head count ``>= 1``."""
    e = alibi_slope_exponents(n_heads)
    return np.exp2(np.array([float(x) for x in e], dtype=np.float64))


@old_arguments(positional=("n_heads", "dps"))
def alibi_slopes_mp(n_heads: int, *, dps: int = 50) -> list:
    r"""The slopes as mpmath numbers at ``dps`` digits."""
    e = alibi_slope_exponents(n_heads)
    with mpmath.workdps(_validate.dps(dps)):
        return [mpmath.mpf(2) ** (mpmath.mpf(x.numerator) / x.denominator) for x in e]


#: The two forms of the bias: ``"paper"`` ``-m_h (i - j)`` (Press et al.) and ``"bloom"`` ``m_h j`` (Bloom,
#: Falcon: the key position only). They differ by ``m_h i``, a constant along each query row, so softmax gives
#: the same weights; only ``"paper"`` is a function of ``i - j``.
FORMS = ("paper", "bloom")


@old_arguments(positional=("query_positions", "key_positions", "n_heads", "form"))
def alibi_bias(query_positions, key_positions, *, n_heads: int, form: str = "paper") -> np.ndarray:
    r"""The ALiBi bias for every head, query ``i`` and key ``j``: float64 ``(heads, queries, keys)``.

    ``form="paper"``: ``-m_h (i - j)`` (entries with ``j > i`` are positive; a causal model masks them);
    ``form="bloom"``: ``m_h j``, Bloom's softmax-equivalent form. Positions are 1-D integer arrays in
    ``[-2**53, 2**53]``. The older order ``alibi_bias(n_heads, query_positions, key_positions)`` is still
    accepted, with a ``DeprecationWarning`` (a scalar is never 1-D positions, so it cannot be misread).

    >>> alibi_bias([2], [0, 1, 2], n_heads=1).tolist()
    [[[-0.0078125, -0.00390625, -0.0]]]
    """
    if n_heads is not None and np.ndim(query_positions) == 0 and np.ndim(n_heads) == 1:
        query_positions, key_positions, n_heads = key_positions, n_heads, query_positions  # the older order
    if form not in FORMS:
        raise ValueError(f"form must be one of {', '.join(map(repr, FORMS))}, got {form!r}")
    i = _validate.integer_vector(query_positions, "query_positions").astype(np.float64)  # (queries,)
    j = _validate.integer_vector(key_positions, "key_positions").astype(np.float64)  # (keys,)
    m = alibi_slopes(n_heads)  # (heads,)
    if form == "bloom":
        return np.broadcast_to(m[:, None, None] * j[None, None, :], (m.size, i.size, j.size)).copy()
    # |i|, |j| <= 2**53: i - j is exact in float64 up to 2**54 (a power of two) and rounded once beyond
    return -m[:, None, None] * (i[:, None] - j[None, :])[None, :, :]
