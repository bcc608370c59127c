r"""The three rules of a position code, scheme by scheme, and what a position past the trained length produces.

'Positional Encoding 101' asks a position code to keep three rules for a proximity ``φ(m, n)`` of a query at ``m``
and a key at ``n`` (after Wang et al. 2021): **monotonicity** (``φ`` falls as ``|m - n|`` grows), **translation
invariance** (``φ(m + t, n + t) = φ(m, n)``) and **symmetry** (``φ(m, n) = φ(n, m)``). For an absolute code ``φ`` is
the dot product ``p_m·p_n``; for a relative scheme it is the positional part of the score. The claims here decide
the cells that the scheme modules do not already decide; ``derivations.commands.properties`` assembles the table and
cites
a claim in every cell.

The length claims say which quantities positions ``L0 .. L - 1`` produce that training on positions ``0 .. L0 - 1``
(distances ``|m - n| <= L0 - 1``) never showed. They are computed at the article's 1000 trained and 2000 target
words; the functions ``*_lengths(L0, L)`` compute the same for any lengths.

The claims live one seam per module, in reading order (the registry lists them):
:mod:`symbolic.properties.absolute` (absolute codes), :mod:`symbolic.properties.relative` (Transformer-XL,
DeBERTa, ALiBi), :mod:`symbolic.properties.rope` (RoPE, its extension rules, xPos),
:mod:`symbolic.properties.causal` (a causal mask alone) and :mod:`symbolic.properties.lengths` (the length
facts and the ``*_lengths`` functions); :mod:`symbolic.properties.common` holds their symbols and helpers. This
module re-exports their names and lists their claims in that order.

>>> [c.id for c in claims()][:2]
['properties-absolute-symmetric', 'properties-counting-proximity-grows']
"""

from __future__ import annotations

from posproof.symbolic.properties import absolute as properties_absolute
from posproof.symbolic.properties import causal as properties_causal
from posproof.symbolic.properties import lengths as properties_lengths
from posproof.symbolic.properties import relative as properties_relative
from posproof.symbolic.properties import rope as properties_rope
from posproof.symbolic.properties.absolute import (
    absolute_symmetric,
    binary_rules,
    counting_grows,
    counting_shift,
    learned_rules,
)
from posproof.symbolic.properties.causal import causal_rules
from posproof.symbolic.properties.common import (
    RELATIVE,
    RULES_SOURCE,
    TARGET,
    TOPIC,
    TRAINED,
    P,
    c,
    counting,
    l,
    m_h,
    proximity,
    s,
    t,
    u,
    varphi,
)
from posproof.symbolic.properties.lengths import (
    absolute_lengths,
    alibi_lengths,
    capped_lengths,
    length_absolute,
    length_alibi,
    length_capped,
    length_rope,
    length_sinusoidal,
    rope_lengths,
    sinusoidal_lengths,
)
from posproof.symbolic.properties.relative import alibi_antisymmetric, deberta_rules, txl_rules
from posproof.symbolic.properties.rope import (
    ROPE_BASE,
    ROPE_FACTOR,
    ROPE_L0,
    ROPE_TYPES,
    ROPE_WIDTH,
    XPOS_GAMMA,
    a,
    longrope_ramp,
    monotone_range,
    plane_score,
    rope_odd_part,
    rope_rules,
    rule_scaling,
    xpos_decay_bases,
    xpos_relative,
    xpos_rules,
)
from posproof.symbolic.symbols import A, d_any, k, m, n, q, theta_real

#: The modules in reading order (the order of the registry).
MODULES = (properties_absolute, properties_relative, properties_rope, properties_causal, properties_lengths)

__all__ = [
    "A", "MODULES", "P", "RELATIVE", "ROPE_BASE", "ROPE_FACTOR", "ROPE_L0", "ROPE_TYPES", "ROPE_WIDTH", "RULES_SOURCE",
    "TARGET", "TOPIC", "TRAINED", "XPOS_GAMMA", "a", "absolute_lengths", "absolute_symmetric", "alibi_antisymmetric",
    "alibi_lengths", "binary_rules", "c", "capped_lengths", "causal_rules", "claims", "counting", "counting_grows",
    "counting_shift", "d_any", "deberta_rules", "k", "l", "learned_rules", "length_absolute", "length_alibi",
    "length_capped", "length_rope", "length_sinusoidal", "longrope_ramp", "m", "m_h", "monotone_range", "n",
    "plane_score", "proximity", "q", "rope_lengths", "rope_odd_part", "rope_rules", "rule_scaling", "s",
    "sinusoidal_lengths", "t", "theta_real", "txl_rules", "u", "varphi", "xpos_decay_bases", "xpos_relative",
    "xpos_rules",
]  # fmt: skip


def claims() -> list:
    r"""Every rules-and-lengths claim, the modules' claims in reading order."""
    return [c for module in MODULES for c in module.claims()]
