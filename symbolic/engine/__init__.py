r"""The proof engine, apart from the catalogue: it imports no claim.

:mod:`.kernel` (functions that unfold symbolically and run the code numerically), :mod:`.core` (steps and the
claim kinds :class:`~.core.Theorem`, :class:`~.core.Definition`, :class:`~.core.Fact`), :mod:`.strategies` (the
named equivalences), :mod:`.numeric_line` with :mod:`.domains` (the mpmath line), :mod:`.lemma` (results proved
once and cited), :mod:`.maximum` and :mod:`.permutation` (the primitives lemma instances need), :mod:`.results`,
:mod:`.settings` (digits, points, seed) and :mod:`.display` (how claims show in a notebook).
"""
