r"""Symbols that several modules of :mod:`symbolic` share, declared once, each with its assumptions and why.

SymPy treats two symbols of the same name as the same only when their assumptions agree too, so a name declared
twice with other assumptions is a second symbol that prints alike. Where the math needs different assumptions
the two symbols get different Python names here (the printed name stays). A module that needs a symbol of its own
(``symbolic.sinusoidal``'s real positions, which interpolation allows) declares it and says why.
"""

from __future__ import annotations

import sympy as sp

# ---- positions and vectors: the same assumptions wherever they appear --------------------------------------------
#: Query and key positions: integers of any sign (the relative identities hold for every pair of positions).
m, n = sp.symbols("m n", integer=True)
#: A query and a key, real vectors indexed by component (the scores are real dot products).
q, k = sp.IndexedBase("q", real=True), sp.IndexedBase("k", real=True)
#: The attention factor multiplying cos and sin: positive (YaRN and LongRoPE set it, the other rules leave it 1).
A = sp.Symbol("A", positive=True)

# ---- widths: two symbols printed d -----------------------------------------------------------------------------
#: An even width: RoPE rotates the pairs (2i, 2i + 1), i = 0 .. d/2 - 1, and sinusoidal codes pair sin and cos.
d_even = sp.Symbol("d", integer=True, positive=True, even=True)
#: Any positive integer width: queries and keys, absolute codes (counting codes are checked at d = 1 and 3). Not
#: d_even: an even d would prove less than the claims say.
d_any = sp.Symbol("d", integer=True, positive=True)

# ---- frequencies: positive per-pair frequencies, and a real one -------------------------------------------------
#: One pair's trained frequency b^(-2i/d): positive (the bounds on angles divide by it and keep the order).
theta_i = sp.Symbol("theta_i", positive=True)
#: The per-pair frequencies theta_i, as an indexed family: positive, like theta_i.
TH = sp.IndexedBase("theta", positive=True)
#: Per-pair frequencies of any real value: the RoPE identities need no sign (symbolic.rope proves them so).
TH_real = sp.IndexedBase("theta", real=True)
#: One frequency of a 2-D rotation: positive (symbolic.rope's planes).
theta = sp.Symbol("theta", positive=True)
#: A plane's frequency in xPos's relative identity: any real (the identity needs no sign). Not symbolic.rope's
#: positive theta, though it prints alike.
theta_real = sp.Symbol("theta", real=True)
