r"""Length generalisation: what positions ``L0 .. L - 1`` produce that training on ``0 .. L0 - 1`` never showed,
scheme by scheme (absolute codes, sinusoidal, the capped T5 and DeBERTa, ALiBi, RoPE and its rules); the
facts at the article's 1000 and 2000 words, the functions ``*_lengths(L0, L)`` for any lengths."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy as sp
from posproof.numeric import alibi, deberta, t5
from posproof.numeric.scaling.extension import phase_coverage
from posproof.numeric.scaling.rules import ROPE_TYPES, rope_inv_freq
from posproof.numeric.sinusoid import inverse_frequencies
from posproof.symbolic import sources, tables
from posproof.symbolic.engine.core import Fact
from posproof.symbolic.properties.common import RELATIVE, TARGET, TOPIC, TRAINED, m_h
from posproof.symbolic.properties.rope import rule_scaling, xpos_decay_bases
from posproof.symbolic.symbols import m, n

# ================================================================================================================
# Length generalisation: what positions L0 .. L - 1 produce that training never showed.
# ================================================================================================================


def _check_lengths(L0: int, L: int) -> None:
    if not (isinstance(L0, int) and isinstance(L, int) and 2 <= L0 < L):
        raise ValueError(f"lengths must be integers with 2 <= L0 < L, got L0 = {L0!r}, L = {L!r}")


#: The row of normalized counting in the table of absolute codes.
_NORMALIZED = r"normalized $\mathrm{pos}/(N - 1)$: positions of an $L$-word text with a value no shorter text had"


def absolute_lengths(L0: int, L: int, first_new: int | None = None) -> dict:
    r"""Counting, normalized counting ``pos/(N - 1)``, binary and a learned table: what positions ``L0 .. L - 1``
    (or a sequence of ``L`` words) show that positions ``0 .. L0 - 1`` (sequences of at most ``L0``) never did.
    ``first_new`` is the first untrained position (``L0``)."""
    _check_lengths(L0, L)
    first = L0 if first_new is None else first_new
    # pos/(L - 1) in lowest terms has denominator (L - 1)/g, g = gcd(pos, L - 1): it occurred in training iff some
    # N - 1 <= first - 1 is a multiple of it, i.e. iff (L - 1)/g <= first - 1. Positions with gcd g: totient((L-1)/g).
    N1 = L - 1
    new_normalized = sum(int(sp.totient(N1 // g)) for g in sp.divisors(N1) if N1 // g > first - 1)
    top_bit = (first - 1).bit_length()  # bits 0 .. top_bit - 1 are used by positions < first
    return {
        "counting: new component values": L - first,
        "counting: largest component": L - 1,
        _NORMALIZED: new_normalized,
        "binary: positions setting a bit never set in training": max(0, L - max(first, 2**top_bit)),
        "learned table: positions with an untrained row": L - first,
    }


def _absolute(dps: int, off_by_one: bool = False):
    value = absolute_lengths(TRAINED, TARGET, first_new=TRAINED + 1 if off_by_one else None)
    return value, list(value.items())


def length_absolute() -> Fact:
    return Fact(
        "properties-length-absolute",
        "Trained on 1000 words, asked about 2000: the values absolute codes produce that training never showed",
        TOPIC,
        f"{RELATIVE}; {sources.article('2. The Normalized Counting Method (Option 2)')}",
        r"Training shows positions $0, \dots, 999$ (sequences of at most 1000 words). Counting reaches components "
        r"$1000, \dots, 1999$; normalized counting $\mathrm{pos}/(N - 1)$ gives 1998 of the 2000 positions of a "
        r"2000-word text a value that no text of at most 1000 words had (1999 is prime); binary sets bit 10 at "
        r"positions $1024, \dots, 1999$; a learned table has 1000 rows that training never updated.",
        {
            "counting: new component values": 1000,
            "counting: largest component": 1999,
            _NORMALIZED: 1998,
            "binary: positions setting a bit never set in training": 976,
            "learned table: positions with an untrained row": 1000,
        },
        _absolute,
        method="exact integer arithmetic (divisors and Euler's totient for the fractions)",
        wrong=lambda dps: _absolute(dps, off_by_one=True),
        notes="Counting position 1000 as trained (an off-by-one) gives other counts.",
        formula=sp.Gt(sp.Symbol("L") - 1, sp.Symbol("L_0") - 1),
    )


def sinusoidal_lengths(L0: int, L: int, width: int = 512, base: float = 10000.0, exponent: float = 2.0) -> dict:
    r"""Sinusoidal codes (absolute ``PE(pos)``, or Transformer-XL's ``R_r`` of distances): the pairs whose angles
    ``pos·θ_i`` at ``pos < L`` leave the trained range ``[0, L0 θ_i)`` without a full period in training."""
    _check_lengths(L0, L)
    th = base ** (-exponent * np.arange(width // 2) / width)
    cov = phase_coverage(th, th, L0, L)
    periodic = sum(st == "periodic" for st in cov.status)
    return {
        "pairs with angles beyond the trained range": len(cov.ood_pairs),
        "first such pair": cov.ood_pairs[0] if cov.ood_pairs else None,
        "pairs that completed a period in training": periodic,
    }


def _sinusoidal(dps: int, exponent: float = 2.0):
    value = sinusoidal_lengths(TRAINED, TARGET, exponent=exponent)
    return value, list(value.items())


def length_sinusoidal() -> Fact:
    return Fact(
        "properties-length-sinusoidal",
        "Sinusoidal codes, $d = 512$, trained on 1000 positions: 115 pairs see angles at positions 1000–1999 "
        "that training never showed",
        TOPIC,
        f"{RELATIVE}; {sources.VASWANI}",
        r"$\theta_i = 10000^{-2i/512}$: pairs $0, \dots, 140$ turn through a full period within 1000 positions "
        r"(every phase seen); pairs $141, \dots, 255$ do not, and positions $1000, \dots, 1999$ take them past the "
        r"largest trained angle. The same holds for Transformer-XL's $R_r$ at distances $r \le 1999$ after "
        r"training on $r \le 999$.",
        {"pairs with angles beyond the trained range": 115, "first such pair": 141,
         "pairs that completed a period in training": 141},
        _sinusoidal,
        method="NumPy float64 (numeric.scaling.extension.phase_coverage)",
        wrong=lambda dps: _sinusoidal(dps, exponent=1.0),
        notes=r"With $\theta_i = 10000^{-i/d}$ (the '$i/d$ for $2i/d$' slip) the pairs differ.",
        formula=sp.Symbol("L_0") * sp.Symbol("theta_i") < 2 * sp.pi,
    )  # fmt: skip


def _side_range(L0: int, L: int, cap: int) -> np.ndarray:
    r"""Distances ``L0 .. L - 1`` that can still change a capped index (those up to ``cap``, and the last)."""
    return np.unique(np.r_[np.arange(L0, min(L, cap + 2)), L - 1])


def capped_lengths(L0: int, L: int, bucket=None) -> dict:
    r"""T5 (32 buckets, max distance 128), DeBERTa clipped (k = 512) and log-bucketed (256, 512, k = 256): the
    indices that distances ``L0 .. L - 1`` (either sign) reach and ``|r| <= L0 - 1`` never did."""
    _check_lengths(L0, L)
    bucket = bucket or t5.t5_relative_bucket

    def new(index, cap):
        seen = _side_range(0, L0, cap)
        later = _side_range(L0, L, cap)
        old = set(index(np.r_[seen, -seen]).tolist())
        return len(set(index(np.r_[later, -later]).tolist()) - old)

    return {
        "T5 (32 buckets, max distance 128): new buckets": new(bucket, 128),
        "DeBERTa clipped (k = 512): new rows": new(lambda r: deberta.deberta_relative_index(r, k=512), 512),
        "DeBERTa log buckets (256, 512, k = 256): new rows": new(
            lambda r: deberta.deberta_relative_index(r, k=256, bucket_size=256, max_position=512), 512
        ),
    }


def _uncapped_t5(r):
    r"""T5's bidirectional buckets without the cap ``min(., 15)`` (a bug class seen in ports)."""
    return t5.t5_relative_bucket_uncapped(r)


def _capped(dps: int, bucket=None):
    value = capped_lengths(TRAINED, TARGET, bucket)
    return value, list(value.items())


def length_capped() -> Fact:
    return Fact(
        "properties-length-capped",
        "T5 and DeBERTa, trained on 1000 positions: distances up to 1999 reach no bucket or row training missed",
        TOPIC,
        f"{sources.T5}; {sources.DEBERTA}; {sources.DEBERTA_CODE}",
        "The buckets (numeric.t5.t5_relative_bucket) and rows (numeric.deberta.deberta_relative_index) of "
        "distances up to ±1999, against those of distances up to ±999: T5's cap (every |r| >= 91 shares the last "
        "bucket of its side) and DeBERTa's clip (|r| >= k) make them the same sets.",
        {
            "T5 (32 buckets, max distance 128): new buckets": 0,
            "DeBERTa clipped (k = 512): new rows": 0,
            "DeBERTa log buckets (256, 512, k = 256): new rows": 0,
        },
        _capped,
        method="exact integer buckets (numeric.t5, numeric.deberta)",
        wrong=lambda dps: _capped(dps, bucket=_uncapped_t5),
        notes="Nothing new is a statement about indices: every distance past the cap shares one learned value, "
        "which is what the scores then use. Without T5's cap the distances would be new.",
        formula=sp.Eq(sp.Function("bucket")(n - m), sp.Function("bucket")(sp.sign(n - m) * 91)),
    )


def alibi_lengths(L0: int, L: int, n_heads: int = 8, form: str = "paper") -> dict:
    r"""ALiBi's biases ``-m_h r`` at distances ``r = L0 .. L - 1``: below every bias of training (exact)."""
    _check_lengths(L0, L)
    slope = Fraction(2) ** alibi.alibi_slope_exponents(n_heads)[0]  # the steepest head, exact
    if form == "bloom":  # m_h j: the key position, not the distance
        trained, target = slope * (L0 - 1), slope * (L - 1)
    else:
        trained, target = -slope * (L0 - 1), -slope * (L - 1)
    return {
        "heads": n_heads,
        "new bias values per head": L - L0,
        "head 1: trained biases reach": str(trained),
        "head 1: target biases reach": str(target),
    }


def _alibi(dps: int, form: str = "paper"):
    value = alibi_lengths(TRAINED, TARGET, form=form)
    return value, list(value.items())


def length_alibi() -> Fact:
    return Fact(
        "properties-length-alibi",
        "ALiBi, trained on 1000 positions: distances 1000–1999 give every head 1000 biases below any in training",
        TOPIC,
        sources.ALIBI,
        "The bias -m_h r falls linearly with the distance r: at 8 heads the steepest head (m_1 = 1/2) reached "
        "-999/2 in training and reaches -1999/2 at the target.",
        {
            "heads": 8,
            "new bias values per head": 1000,
            "head 1: trained biases reach": "-999/2",
            "head 1: target biases reach": "-1999/2",
        },
        _alibi,
        method="exact rationals (numeric.alibi.alibi_slope_exponents)",
        wrong=lambda dps: _alibi(dps, form="bloom"),
        notes=(
            r"Softmax maps those biases to ever smaller weights, which is ALiBi's design; the values "
            r"themselves are new. Bloom's $m_h j$ (the key position) gives other biases."
        ),
        formula=sp.Lt(-m_h * (sp.Symbol("L") - 1), -m_h * (sp.Symbol("L_0") - 1)),
    )


def rope_lengths(L0: int, L: int, width: int = 128, base: float = 10000.0, scaled: bool = True) -> dict:
    r"""RoPE at ``factor = L/L0`` under each rule, and xPos: the pairs whose relative angles at distances up to
    ``L - 1`` leave the trained range without a full period in training; xPos's decay factors past training."""
    _check_lengths(L0, L)
    trained = inverse_frequencies(width, base=base)
    factor = L / L0
    value = {}
    for rule in ROPE_TYPES:
        scaling, kw = rule_scaling(rule, width, L0, factor, L)
        inv, _ = rope_inv_freq(width, base=base, scaling=scaling if scaled else {}, **(kw if scaled else {}))
        value[rule] = len(phase_coverage(trained, inv, L0, L).ood_pairs)
    value["xpos: angles"] = value["default"]
    value["xpos: pairs with decay factors below training"] = sum(z < 1 for z in xpos_decay_bases(width))
    return value


def _rope_length(dps: int, scaled: bool = True):
    value = rope_lengths(TRAINED, TARGET, scaled=scaled)
    return value, list(value.items())


def length_rope() -> Fact:
    return Fact(
        "properties-length-rope",
        "RoPE ($d = 128$, $b = 10^4$) trained on 1000 positions, at 2000: pairs with relative angles training "
        "never showed, per rule at $s = 2$",
        TOPIC,
        f"{sources.ROFORMER}; {sources.HF_ROPE}; {sources.XPOS}",
        "numeric.scaling.extension.phase_coverage of each rule's numeric.scaling.rope_inv_freq at factor "
        r"$s = L/L_0 = 2$ (dynamic at length 2000, YaRN, Llama 3 and LongRoPE with $L_0 = 1000$): plain RoPE leaves "
        r"pairs $36, \dots, 63$ "
        "past the trained angles; Position Interpolation, YaRN and Llama 3 none. xPos has RoPE's angles and, at "
        r"distances past 999, decay factors $\zeta_i^{r/\gamma}$ smaller than any in training in all 64 pairs.",
        {
            "default": 28,
            "linear": 0,
            "ntk": 27,
            "dynamic": 4,
            "yarn": 0,
            "llama3": 0,
            "longrope": 27,
            "xpos: angles": 28,
            "xpos: pairs with decay factors below training": 64,
        },
        _rope_length,
        method="NumPy float64 (numeric.scaling.rope_inv_freq, numeric.scaling.extension.phase_coverage)",
        wrong=lambda dps: _rope_length(dps, scaled=False),
        notes="These are facts about angles, not about what a model does with them: a larger accepted sequence is "
        "not by itself evidence of reliable long-context behaviour (the RoPE note). Without "
        "the scaling the angles are RoPE's.",
        formula=sp.Symbol("L_0") * sp.Symbol("theta_i") < 2 * sp.pi,
    )


def claims() -> list:
    return [
        length_absolute(),
        length_sinusoidal(),
        length_capped(),
        length_alibi(),
        length_rope(),
    ]


#: The function each length claim verifies at the article's lengths (the rules table calls it at others).
LENGTHS = {
    "properties-length-absolute": absolute_lengths,
    "properties-length-sinusoidal": sinusoidal_lengths,
    "properties-length-capped": capped_lengths,
    "properties-length-alibi": alibi_lengths,
    "properties-length-rope": rope_lengths,
}


# ---- the texts: the statements of the article and the RoPE note that this module's claims decide ---------------
# (symbolic.tables; the first number is the statement's place in the texts, the verdicts are V verified, C corrected,
# R holds on a range, X not checkable)


def _annotations() -> tuple[tables.Annotation, ...]:
    a, S = tables.in_article, tables.S
    V, C, R, X = tables.ANNOTATION_VERDICTS
    return (
        # Relative Positions
        a(510, S[13], "only trained on 1000-word documents", "Trained on 1000-word documents, the model struggles with "
          "2000 words: it never saw those relations.", V, "properties-length-sinusoidal",
          ("pairs with angles beyond the trained range",), note="the checkable part: sinusoidal pairs that see angles "
          "training never showed (d = 512); whether the model struggles is empirical (posproof properties --trained "
          "1000 --target 2000)"),
    )  # fmt: skip


ANNOTATIONS = _annotations()
