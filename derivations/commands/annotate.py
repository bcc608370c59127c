r"""``posproof annotate``: the statements of 'Positional Encoding 101' and of the RoPE note, in order, each with a
verdict and the claim behind it.

Every statement that carries a number or a checkable claim is paraphrased in one line, located by its section and
a few of its words, and given a verdict: **verified**, **corrected** (the exact value printed from the claim),
**holds on a range** (the range printed from the claim) or **not checkable** (an empirical result or a statement
about what a trained model does; no claim). The paraphrases live here, in the package; what each finding says is
read from the registered claim (a fact's computed entries, a theorem's statement), never typed here.

``posproof annotate [--format text|md]``. ``add_parser(subparsers)`` adds the subcommand; ``run(args)`` runs it
(usage errors raise ``derivations.args.UsageError``).

>>> sum(a.verdict == "not checkable" for a in ANNOTATIONS) < len(ANNOTATIONS)
True
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from dataclasses import dataclass

import sympy as sp

from posproof.printing.formats import format_names

ARTICLE = "Positional Encoding 101"
NOTE = "Positional encoding: give tokens a sense of order"

#: The headings of each text, in order (the article misspells 'Postional').
SECTIONS = {
    ARTICLE: (
        "Why Need Positional Encoding ?",
        "So how can we fix this ?",
        "1. The Simple Counting Method (Option 1)",
        "2. The Normalized Counting Method (Option 2)",
        "3. The Binary Breakthrough",
        "Maths behind Positional Encoding",
        "More on '$i$' and '$d_{model}$'",
        "Simple Dry-Run :",
        "Differentiating between Nearby and Distant Words",
        "The Left Graph: The Problem with Nearby Words",
        "The Right Graph: The Problem with Distant Words",
        "Postional Encoding vs Word Embedding",
        "Rules any Positional Encoding Method must follow",
        "Relative Positions",
        "1. Transformer-XL (The Surgical Hack)",
        "2. DeBERTa (Disentangled Attention)",
        "3. T5 (The Elegant Simplification)",
        "Rotatory Positional Encoding (RoPE)",
        "Maths behind RoPE",
        "Properties, Efficiency and Performance of RoPE",
        "Summary",
    ),
    NOTE: (
        "Positional encoding: give tokens a sense of order",
        "Rotate pairs, preserve their length",
        "Position rules affect context extension",
    ),
}

VERDICTS = ("verified", "corrected", "holds on a range", "not checkable")


@dataclass(frozen=True)
class Annotation:
    r"""One statement. ``read`` lists entries of the claim's computed value (a key, or a tuple of keys and
    indices) that the finding shows; ``said`` gives, entry by entry, what the text says there (``None``: nothing
    to compare): equal to the computed entry when verified, different when corrected. ``note`` says in words what
    the claim shows."""

    text: str
    section: str
    locator: str
    statement: str
    verdict: str
    claim: str | None = None
    read: tuple = ()
    said: tuple = ()
    note: str = ""


def _a(section, locator, statement, verdict, claim=None, read=(), said=(), note=""):
    return Annotation(ARTICLE, section, locator, statement, verdict, claim, read, said, note)


def _n(section, locator, statement, verdict, claim=None, read=(), said=(), note=""):
    return Annotation(NOTE, section, locator, statement, verdict, claim, read, said, note)


V, C, R, X = VERDICTS
S = SECTIONS[ARTICLE]
T = SECTIONS[NOTE]

ANNOTATIONS: tuple[Annotation, ...] = (
    # ---- Why Need Positional Encoding ? -------------------------------------------------------------------------
    _a(S[0], "The dog chased the pig", "Self-attention alone cannot tell 'The dog chased the pig' from 'The pig "
       "chased the dog'.", V, "order-dog-bites-man", ("no mask",), ("same output per word",),
       "without a mask each word gets the same output in both orders"),
    # ---- So how can we fix this ? -------------------------------------------------------------------------------
    _a(S[1], "These two vectors are summed together", "A position vector of the embedding's width is added to "
       "each word embedding.", V, "order-sum-is-tied-concat", note="adding equals concatenating and projecting "
       "with tied blocks [W W]"),
    _a(S[1], "heavily reduces the parameter count", "Summing instead of concatenating keeps the width and saves "
       "parameters in later layers.", V, "order-sum-vs-concat-parameters",
       note="d² fewer weights in each following d-wide projection"),
    _a(S[1], "added only at the very beginning", "The position vector is added once, before the first block, "
       "never again.", R, "article-positions-every-layer",
       ("sinusoidal: outputs unchanged by a shift of 7", "rope: outputs unchanged by a shift of 7"),
       note="true of absolute codes; Transformer-XL, DeBERTa, T5, ALiBi and RoPE act inside every attention layer"),
    # ---- 1. Counting --------------------------------------------------------------------------------------------
    _a(S[2], "numbers grow unbounded", "Counting gives position pos the vector pos·(1, 1, 1, 1); the numbers grow "
       "without bound.", V, "counting-unbounded"),
    _a(S[2], "the final embedding is [3,3,3,3]", "A 3-word sentence ends at [3,3,3,3], a 30-word one at "
       "[30,30,30,30].", C, "counting-article-examples", ("last of 3 words", "last of 30 words"),
       ([3, 3, 3, 3], [30, 30, 30, 30]), "with position 0 = [0,0,0,0], as the article sets it, positions run 0 .. N-1"),
    # ---- 2. Normalized counting ---------------------------------------------------------------------------------
    _a(S[3], "always encoded as [1,1,1,1]", "Dividing by the length puts the last word at [1,1,1,1] for every "
       "length.", R, "normalized-counting-length-dependent",
       ((r"$\mathrm{pos}/(N-1)$", "last word, $N = 5$"), (r"$\mathrm{pos}/N$", "last word, $N = 5$")),
       note="only when dividing by N - 1; dividing by N, as the next example does, the last word is (N-1)/N"),
    _a(S[3], "[0.33, 0.33, 0.33, 0.33]", "Position 1 is 0.33 for N = 4 and 0.20 for N = 5.", C,
       "normalized-counting-length-dependent",
       ((r"$\mathrm{pos}/(N-1)$", "$p_1$, $N = 5$"), (r"$\mathrm{pos}/N$", "$p_1$, $N = 4$")), ("1/5", "1/3"),
       "0.33 is 1/(N-1) and 0.20 is 1/N: one convention gives 1/3 and 1/4, the other 1/4 and 1/5"),
    _a(S[3], "dependent on the sequence length", "So the code of position 1 depends on the sequence length.", V,
       "normalized-counting-length-dependent",
       ((r"$\mathrm{pos}/(N-1)$", "$p_1$ depends on $N$"), (r"$\mathrm{pos}/N$", "$p_1$ depends on $N$")),
       (True, True)),
    # ---- 3. Binary ----------------------------------------------------------------------------------------------
    _a(S[4], "alternates rapidly: 0, 1, 0, 1", "Binary columns alternate 0,1,0,1; 0,0,1,1; 0,0,0,0,1,1,1,1.", V,
       "article-binary-columns", ("bit 0", "bit 1", "bit 2"),
       ([0, 1, 0, 1, 0, 1, 0, 1], [0, 0, 1, 1, 0, 0, 1, 1], [0, 0, 0, 0, 1, 1, 1, 1])),
    _a(S[4], "doesn't work well mathematically", "Rigid binary 0s and 1s do not work well as a position code.", V,
       "binary-neighbour-flips", ("distinct step sizes",), note="what can be checked: neighbours differ by 1 to 8 "
       "bits, and binary codes break monotonicity and translation invariance (properties-binary-rules)"),
    # ---- Maths behind Positional Encoding -----------------------------------------------------------------------
    _a(S[5], "Even dimensions ($2i$): Use the sin function", "Even dims use sin, odd dims cos.", V,
       "sinusoidal-definition"),
    _a(S[5], "up to $d_{model}/2$", "The pair index i runs 0, 1, 2, ... up to d_model/2.", C,
       "article-pair-index-range", ("last i",), (256,), "the last pair index is d/2 - 1"),
    _a(S[5], "gets exponentially larger", "The denominator 10000^(2i/d) grows exponentially with i: early dims "
       "are fast, late dims slow.", V, "sinusoidal-wavelengths"),
    # ---- More on i and d_model ----------------------------------------------------------------------------------
    _a(S[6], "we have 256 pairs", "512 dims make 256 pairs, i = 0 .. 255.", V, "article-pair-index-range",
       ("pairs", "last i"), (256, 255)),
    _a(S[6], "For pair $i=255$: Dimension 510", "Pair 255 fills dims 510 and 511.", V, "article-pair-index-range",
       ("dims of the last pair",), ([510, 511],)),
    _a(S[6], "$10000^0 = 1$", "Example A: i = 0 gives denominator 1 and sin(1) at pos 1.", V,
       "sinusoidal-worked-examples-512", (("denominator", 0), (r"$\sin(1/\mathrm{denominator})$", 0))),
    _a(S[6], "the output changes drastically", "At i = 0 the value changes drastically from one position to the "
       "next.", V, "sinusoidal-fast-slow-separation", ((0,),), note="pair 0 moves this far per position step"),
    _a(S[6], "(which is the square root of 10000) = 100", "Example B: i = 128 gives exponent 0.5, denominator "
       "100, sin(0.01).", V, "sinusoidal-worked-examples-512",
       (("denominator", 1), (r"$\sin(1/\mathrm{denominator})$", 1))),
    _a(S[6], "stretches the wave out by a factor of 100", "Dividing by 100 stretches the wave by a factor of 100.",
       V, "article-cycle-lengths", ("ratio",), ("100.0",)),
    _a(S[6], "completed in just one word", "Pair 128 takes 100 words for the cycle that pair 0 completes in one "
       "word.", C, "article-cycle-lengths", ("words per cycle, i = 0", "words per cycle, i = 128", "ratio"),
       ("1", "100", None), "a cycle takes 2π words at i = 0 and 200π at i = 128; the ratio 100 is right"),
    _a(S[6], "$10000^1 = 10000$", "Example C: i = 255 gives exponent ≈ 1, denominator 10000, sin(0.0001).", C,
       "sinusoidal-worked-examples-512", (("denominator", 2), (r"$\sin(1/\mathrm{denominator})$", 2)),
       ("10000", "0.0001"),
       "the exponent is 510/512, the denominator 10^(255/64)"),
    _a(S[6], "almost like a constant, gentle slope", "The last pair barely changes over a sentence.", V,
       "sinusoidal-fast-slow-separation", ((2,),), note="pair 255 moves this far per position step"),
    # ---- Simple Dry-Run -----------------------------------------------------------------------------------------
    _a(S[7], "$10000^{2(1)/4} = 10000^{0.5} = \\mathbf{100}$", "At d_model = 4 the denominators are 1 and 100.",
       V, "sinusoidal-dry-run-d4", note="the fact's definition checks PE(pos) = (sin pos, cos pos, sin(pos/100), "
       "cos(pos/100))"),
    _a(S[7], "[0.00, 1.00, 0.00, 1.00]", "'The' (pos 0) gets [0.00, 1.00, 0.00, 1.00].", V,
       "sinusoidal-dry-run-d4", ((0,),), (["0.00", "1.00", "0.00", "1.00"],)),
    _a(S[7], "[0.84, 0.54, 0.01, 0.99]", "'cat' (pos 1) gets [0.84, 0.54, 0.01, 0.99].", C,
       "sinusoidal-dry-run-d4", ((1, 3),), ("0.99",), "cos(0.01) = 0.99995 rounds to 1.00"),
    _a(S[7], "[0.91, -0.42, 0.02, 0.99]", "'sat' (pos 2) gets [0.91, -0.42, 0.02, 0.99].", C,
       "sinusoidal-dry-run-d4", ((2, 3),), ("0.99",), "cos(0.02) = 0.99980 rounds to 1.00"),
    _a(S[7], "jumped wildly from 0.00 to 0.84 to 0.91", "The fast dims go 0.00, 0.84, 0.91 (sin) and 1.00, "
       "0.54, -0.42 (cos).", V, "sinusoidal-dry-run-d4", ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)),
       ("0.00", "0.84", "0.91", "1.00", "0.54", "-0.42")),
    _a(S[7], "barely crept up from 0.00 to 0.01 to 0.02", "The slow sine dim goes 0.00, 0.01, 0.02.", V,
       "sinusoidal-dry-run-d4", ((0, 2), (1, 2), (2, 2)), ("0.00", "0.01", "0.02")),
    _a(S[7], "If this sentence were 500 words long", "Over 500 words the slow dims of d_model = 4 curve smoothly "
       "over the whole paragraph.", V, "article-cycle-lengths",
       (r"$d_{\mathrm{model}} = 4$, pair 1: cycles in 500 words",),
       note="less than one cycle: no position repeats"),
    # ---- Differentiating between Nearby and Distant Words -------------------------------------------------------
    _a(S[8], "at pos=0, the wave might be at its peak (1.0)", "On a fast wave position 0 may be at the peak "
       "(1.0) and position 1 at the valley (-1.0).", C, "article-fast-wave-step",
       note="one step moves the fastest wave by at most 2 sin(1/2) = 0.959, not 2; from pos 0 to 1 it goes 0 -> "
       "0.841"),
    _a(S[8], "By the time you get to pos=6", "By pos 6 the fast wave is back at its peak; positions 0, 2, 4, 6 "
       "look alike.", C, "article-cycle-lengths", ("words per cycle, i = 0",), ("6",),
       "the fastest wave's cycle is 2π words: it never repeats exactly (sinusoidal-fast-wave-near-repeats: 6 is "
       "a near-return, sin 6 = -0.279), and 2, 4 are not near 0"),
    _a(S[8], "hundreds of words just to complete a single up-and-down cycle", "Slow waves take hundreds of words "
       "per cycle.", R, "article-cycle-lengths",
       ("pairs with cycles of 100 .. 999 words", "words per cycle, i = 255"),
       note="hundreds for pairs 77 .. 140 of 256; the slowest take tens of thousands"),
    _a(S[8], "Word 0 might be at 0.0, while word 50 might be at 1.0", "On a slow wave word 0 is at 0.0 and word "
       "50 at 1.0.", R, "article-slow-wave-heights",
       ("pair nearest 1.0 at pos 50", "its height at pos 50", "height at pos 50 of the slowest pair"),
       note="only pair 96, a 199-word cycle, is at 1.0 at 50; the slowest pair is at 0.005"),
    _a(S[8], "at pos=0 might be 0.000, and the height at pos=1 might be 0.001", "On a slow wave pos 0 reads "
       "0.000 and pos 1 reads 0.001.", V, "article-slow-wave-heights",
       (r"$\theta_{192}$", ("PE(1, 384), PE(2, 384)", 0)),
       note="pair 192 (θ = 10^-3) does exactly this"),
    _a(S[8], "a completely unique fingerprint", "With 512 waves from fast to slow every position gets a unique "
       "code.", V, "article-unique-codes", ("all codes distinct", "closest pair $|m - n|$"), (True, None),
       "checked for positions 0 .. 4095; the 512 dims are 256 frequencies, a sine and a cosine each"),
    _a(S[8], "relies heavily on the first few numbers", "The model relies on the fast dims for neighbours and on "
       "the slow dims for the position in a paragraph.", X, note="a statement about what a trained model does"),
    # ---- The Left Graph -----------------------------------------------------------------------------------------
    _a(S[9], "They are at almost the exact same height", "Positions 0 and 1 are at nearly the same height on the "
       "slow wave and far apart on the fast one.", V, "sinusoidal-fast-slow-separation", ((0,), (2,)),
       note="per-step moves of the fastest and the slowest pair at d = 512"),
    # ---- The Right Graph ----------------------------------------------------------------------------------------
    _a(S[10], "land at the exact same vertical height", "On the fast wave positions 0 and 6 land at exactly the "
       "same height.", C, "article-cycle-lengths", ("words per cycle, i = 0",), ("6",),
       "sin 6 = -0.279, sin 0 = 0: a near-return, never an exact one (sinusoidal-fast-wave-near-repeats)"),
    _a(S[10], "One is at the middle baseline, and the other is way up near the peak", "On the slow wave position 0 "
       "is at the baseline and position 6 near the peak.", R, "article-slow-wave-heights",
       ("pair nearest 1.0 at pos 6",), note="only pair 37, a 24-word cycle, peaks near 6: not a slow wave"),
    _a(S[10], "the sentence becomes \"Man bites dog\"", "Without positions 'Dog bites man' and 'Man bites dog' "
       "cannot be told apart.", V, "order-dog-bites-man", ("no mask",), ("same output per word",)),
    _a(S[10], "This is the actual math for that first dimension wave", "On the first dimension sin(0) = 0.00 and "
       "sin(1) = 0.84.", V, "sinusoidal-dry-run-d4", ((0, 0), (1, 0)), ("0.00", "0.84")),
    # ---- Positional Encoding vs Word Embedding -------------------------------------------------------------------
    _a(S[11], "Equation used : $e'_w = e_w +", "The combined vector is the word embedding plus the position "
       "vector.", V, "order-sum-is-tied-concat"),
    _a(S[11], "Word 1 gets ticket #0.84", "High-frequency wave: word 0 gets 0.00, word 1 gets 0.84.", V,
       "sinusoidal-dry-run-d4", ((0, 0), (1, 0)), ("0.00", "0.84")),
    _a(S[11], "Word 0 gets ticket #0.001", "Low-frequency wave: word 0 gets 0.001, word 1 gets 0.002.", C,
       "article-slow-wave-heights", ("PE(0, 2i), every i", ("PE(1, 384), PE(2, 384)", 0)), (["0.001"], None),
       "every sine is 0 at position 0; 0.001 and 0.002 are positions 1 and 2 of pair 192"),
    _a(S[11], "might accidentally read \"Dog bites man\"", "With only slow waves the network reads 'Dog bites man' "
       "as 'Man bites dog'.", X, note="a statement about what a trained network does"),
    # ---- Rules --------------------------------------------------------------------------------------------------
    _a(S[12], "Monotonicity: If two words are pushed further apart", "Monotonicity: the proximity falls as two "
       "words move apart (the sinusoidal code presented).", R, "sinusoidal-monotone-range", ("512", "128"),
       note="PE(m)·PE(n) falls only up to these distances at d = 512, 128; 'posproof properties' judges every "
       "scheme"),
    _a(S[12], "Translation Invariance: The relative relationship", "Translation invariance: shifting the sentence "
       "('Yesterday, the dog ...') keeps the relation of 'dog' and 'pig'.", V, "sinusoidal-translation-invariance",
       note="for PE(m)·PE(n); the full score with general W_q, W_k is not (attention-position-term-not-relative)"),
    _a(S[12], "Symmetry: The distance from Word A to Word B", "Symmetry: the proximity of A to B equals that of B "
       "to A.", V, "sinusoidal-symmetry"),
    # ---- Relative Positions -------------------------------------------------------------------------------------
    _a(S[13], "relates to \"Position 2 to Position 5.\"", "With absolute codes, positions 1 -> 4 and 2 -> 5 look "
       "different to the network.", V, "attention-position-term-not-relative", ((0,),), (False,),
       "p_m^T W_q^T W_k p_n changes with a shift for a general W_q^T W_k"),
    _a(S[13], "only trained on 1000-word documents", "Trained on 1000-word documents, the model struggles with "
       "2000 words: it never saw those relations.", V, "properties-length-sinusoidal",
       ("pairs with angles beyond the trained range",),
       note="the checkable part: sinusoidal pairs that see angles training never showed (d = 512); whether the "
       "model struggles is empirical (posproof properties --trained 1000 --target 2000)"),
    _a(S[13], "the relative distance is $+3$", "If 'dog' queries 'cat', the relative distance is +3.", V,
       "article-relative-distance-sign", ("T5 (key - query)", "DeBERTa, ALiBi, Transformer-XL (query - key)"),
       (3, None), "+3 is key - query (T5); DeBERTa, ALiBi and Transformer-XL count query - key = -3"),
    _a(S[13], "This is called Translation Invariance", "The distance is the same anywhere in a book: translation "
       "invariance.", V, "t5-bias-relative", ("positions shifted by $10^6$: unchanged",), (True,)),
    _a(S[13], "generalize beautifully to longer texts", "Relative encodings generalise beautifully to longer "
       "texts.", X, note="an empirical claim; 'posproof properties --trained L0 --target L' shows which "
       "quantities are new"),
    _a(S[13], "it expands into four distinct terms", "q_m^T k_n with absolute positions expands into four terms "
       "(word-word, word-position, position-word, position-position).", V, "attention-four-term-expansion"),
    # ---- Transformer-XL -----------------------------------------------------------------------------------------
    _a(S[14], "replacing it with a relative distance vector", "Transformer-XL replaces p_n in terms 2 and 4 by a "
       "relative vector of m - n.", V, "txl-from-four-terms", note="with its own projection W_{k,R}"),
    _a(S[14], "simple, trainable bias vectors ($u$ and $v$)", "It replaces the query position in terms 3 and 4 "
       "by trainable u and v.", V, "txl-from-four-terms"),
    _a(S[14], "but rather on how far apart they are", "So attention depends on how far apart words are, not "
       "where.", V, "txl-translation-invariant", ((0,),), (True,)),
    # ---- DeBERTa ------------------------------------------------------------------------------------------------
    _a(S[15], "relative position embeddings ($\\tilde{p}_{m-n}$)", "DeBERTa replaces p_m and p_n by relative "
       "embeddings of m - n.", R, "deberta-delta-saturation", ((),),
       note="relative only inside the window |m - n| < k; beyond it every distance shares the end row"),
    _a(S[15], "position-to-position (distance) scores", "DeBERTa computes content-to-content and "
       "position-to-position scores separately.", C, "article-deberta-no-p2p",
       ("scores with zero content are all 0",), (False,), note="it keeps content-to-content, content-to-position and "
       "position-to-content; the position-to-position term is dropped (deberta-disentangled-from-four-terms)"),
    # ---- T5 -----------------------------------------------------------------------------------------------------
    _a(S[16], "removed positional vectors from the input entirely", "T5 adds no position vector; the score is "
       "content plus a bias of the distance.", V, "t5-bias-relative", ("constant along diagonals",), (True,)),
    _a(S[16], "a single learned number (a scalar bias", "T5 adds one learned scalar per distance.", R,
       "t5-bucket-boundaries", ((0,),), note="one scalar per bucket: exact for |r| < 8, shared beyond, one for "
       "every |r| >= 91 of a side"),
    _a(S[16], "the learned bias value for \"+3 steps\"", "At 3 steps the model looks up the bias for '+3'.", V,
       "t5-bucket-boundaries", ((0,),), note="|r| = 3 has a bucket of its own (below 8)"),
    _a(S[16], "and entirely relative", "T5's bias is entirely relative.", V, "t5-bias-relative",
       ("positions shifted by $10^6$: unchanged",), (True,)),
    # ---- RoPE ---------------------------------------------------------------------------------------------------
    _a(S[17], "multiplies the word embedding by a rotation matrix", "RoPE multiplies the word embedding by a "
       "rotation matrix.", C, "article-positions-every-layer",
       ("rope on the embedding: outputs unchanged by a shift of 7", "rope: outputs unchanged by a shift of 7"),
       (True, None), "RoPE rotates the query and key of every attention layer (R_m W_q x_m); a rotated embedding "
       "is no relative code"),
    _a(S[17], "RoPE simply rotates that arrow by a specific angle", "A position rotates the 2-D arrow by an "
       "angle; its length is kept.", V, "rope-2d-norm"),
    _a(S[17], "the relative angle between them remains exactly the same", "dog at 0 and pig at 3, or at 5 and 8: "
       "the relative angle is the same.", V, "rope-2d-rotation-product"),
    _a(S[17], "naturally preserves relative distance", "The attention score sees the relative distance.", V,
       "rope-block-relative"),
    # ---- Maths behind RoPE --------------------------------------------------------------------------------------
    _a(S[18], "Euler's Formula", "Multiplying by e^{imθ} rotates the pair by mθ.", V, "rope-2d-real-form"),
    _a(S[18], "becomes $e^{-in\\theta}$", "The dot product conjugates the key: e^{inθ} becomes e^{-inθ}.", V,
       "rope-complex-relative"),
    _a(S[18], "$(q \\cdot k) \\times e^{i(m-n)\\theta}$", "The product is (q·k) e^{i(m-n)θ}.", C,
       "article-rope-score-conjugate",
       (r"$\operatorname{Re}(q k e^{i(m-n)\theta})$ = score",
        r"$\operatorname{Re}(q \bar{k} e^{i(m-n)\theta})$ = score"),
       (True, None), "the key enters conjugated, q conj(k) e^{i(m-n)θ}, and the score is its real part "
       "(rope-complex-relative, rope-2d-real-form)"),
    _a(S[18], "have completely vanished", "The absolute positions cancel, leaving m - n.", V, "rope-complex-relative"),
    _a(S[18], "often 4096 dimensions or more", "RoPE must rotate embeddings of 4096 dimensions or more.", C,
       "article-rope-per-head", ("frequencies in a 4096-wide layer", "planes per head"), (2048, None),
       "RoPE rotates each head: d is the head width (128 in LLaMA-7B, whose 4096 = 32 x 128)"),
    _a(S[18], "a series of $d/2$ distinct 2D planes", "The d dims split into d/2 planes.", V,
       "rope-block-diagonal-d4"),
    _a(S[18], "slightly slower angle ($\\theta_1$)", "Dims 0, 1 turn fastest (θ_0), dims 2, 3 slightly slower "
       "(θ_1), and so on.", V, "sinusoidal-wavelengths",
       note="consecutive frequencies differ by b^(-2/d): 0.87 at d = 128, 0.01 at d = 4"),
    _a(S[18], "the Block-Diagonal Matrix", "R_m is block diagonal with the 2x2 rotations R(mθ_i).", V,
       "rope-block-diagonal-d4", note="the article numbers θ_1, θ_2, ...; the code counts from θ_0"),
    _a(S[18], "a separate gear in a clock", "Each block rotates its pair independently at its own frequency.", V,
       "rope-block-relative"),
    # ---- Properties of RoPE -------------------------------------------------------------------------------------
    _a(S[19], "their positional dot product (y-axis) naturally decays", "The positional dot product decays as the "
       "distance grows.", C, "article-rope-decay-not-monotone",
       ("rises between r = 0 and 1000", "first rise after r"), (0, None),
       note="what decays is an upper bound over all q, k (rope-decay-bound), and not monotonically"),
    _a(S[19], "pays less attention to words that are very far away", "So the model pays less attention to words "
       "far away.", C, "article-rope-far-attention", ("distance with the highest score",), (1,),
       note="a key can score highest 500 positions away: q and k decide, the bound does not"),
    _a(S[19], "basic element-wise multiplications and additions", "The matrix product reduces to element-wise "
       "multiplications and additions.", V, "rope-elementwise"),
    _a(S[19], "Faster Convergence", "RoFormer's training loss falls faster than BERT's.", X,
       note="an empirical training result"),
    _a(S[19], "Better Accuracy", "RoPE improves BLEU and GLUE scores.", X, note="an empirical result"),
    # ---- Summary ------------------------------------------------------------------------------------------------
    _a(S[20], "naturally blind to sequence order", "Self-attention is blind to order: 'Dog bites man' = 'Man "
       "bites dog'.", V, "order-permutation-equivariance"),
    _a(S[20], "normalizing counts (0.1, 0.2, 0.3)", "Counting and normalized counting fail: unbounded growth or "
       "length-dependent vectors.", V, "normalized-counting-length-dependent",
       ((r"$\mathrm{pos}/(N-1)$", "$p_1$ depends on $N$"),), (True,),
       "and counting grows without bound (counting-unbounded)"),
    _a(S[20], "a unique pattern of continuous waves", "The sinusoidal code gives every position a unique pattern.",
       V, "article-unique-codes", ("all codes distinct",), (True,)),
    _a(S[20], "This creates a \"sheer cliff\" between adjacent words", "Fast dims make a sheer cliff between "
       "neighbours.", V, "sinusoidal-fast-slow-separation", ((0,),),
       note="0.959 per step on pair 0; that the model then never blurs order is not checkable"),
    _a(S[20], "without repeating", "Slow dims measure long ranges without repeating.", R, "article-cycle-lengths",
       ("words per cycle, i = 255",), note="no repeat within a wavelength: up to 60611 words at d = 512"),
    _a(S[20], "doesn't actually change the relationship", "With absolute codes the network must learn that a "
       "shift changes no relation.", V, "attention-position-term-not-relative", ((0,),), (False,)),
    _a(S[20], "relative distances remain perfectly intact", "Relative distances survive a shift.", V,
       "t5-bias-relative", ("positions shifted by $10^6$: unchanged",), (True,)),
    _a(S[20], "based purely on the number of hops", "Transformer-XL, DeBERTa and T5 score purely by the number "
       "of hops.", R, "deberta-delta-saturation", ((),),
       note="DeBERTa and T5 tell hops apart only inside a window or bucket by bucket (t5-bucket-boundaries)"),
    _a(S[20], "used by LLaMA, PaLM, and most modern architectures", "RoPE is used by LLaMA, PaLM and most modern "
       "models.", X, note="a survey of models, not mathematics"),
    _a(S[20], "leaves the magnitude alone", "RoPE keeps the vector's length and only rotates it.", V,
       "rope-block-orthogonal"),
    _a(S[20], "the absolute positions natively subtract themselves", "Through the conjugate the positions "
       "subtract to m - n.", V, "rope-complex-relative"),
    _a(S[20], "only ever \"sees\" the relative angle", "Attention sees only the relative angle.", V,
       "rope-block-relative"),
    _a(S[20], "distant words naturally receive less attention", "Long-term decay: distant words get less "
       "attention.", C, "article-rope-far-attention", ("distance with the highest score",), (1,),
       note="only an upper bound decays (article-rope-decay-not-monotone)"),
    _a(S[20], "It is highly computationally efficient", "RoPE is cheap to compute.", V, "rope-elementwise",
       note="element-wise products, O(d) per vector"),
    _a(S[20], "drastically speeds up model training", "RoPE drastically speeds up training.", X,
       note="an empirical training result"),
    # ---- The RoPE note ------------------------------------------------------------------------------------------
    _n(T[0], "cannot distinguish all the arrangements", "Without order information attention cannot tell "
       "arrangements apart.", V, "order-equivariance-all-permutations", ("3", "4"), ("6/6", "24/24"),
       "every permutation of 3 and 4 tokens only permutes the outputs"),
    _n(T[0], "added position-dependent sine and cosine vectors", "The original Transformer adds sine and cosine "
       "vectors.", V, "sinusoidal-definition"),
    _n(T[0], "rotate query and key components before attention compares them", "RoPE rotates queries and keys "
       "before they are compared.", V, "rope-block-relative"),
    _n(T[1], "rotates adjacent component pairs at different frequencies", "The rope function rotates adjacent "
       "pairs (2i, 2i+1) at frequencies base^(-2i/width).", V, "rope-block-diagonal-d4",
       note="numeric.rotary.rope_mp, interleaved like the note's function, computes R_m"),
    _n(T[1], "their relative rotation stays unchanged", "Shifting both positions by one offset keeps their "
       "relative rotation.", V, "rope-2d-rotation-product"),
    _n(T[1], "carries relative-position information", "The dot product carries relative position.", V,
       "rope-block-relative"),
    _n(T[1], "preserves each vector's length", "The rotation preserves each vector's length.", V,
       "rope-block-orthogonal"),
    _n(T[1], "several positional scales", "Pairs rotate at different rates: several positional scales.", V,
       "sinusoidal-wavelengths", note="the wavelengths form a geometric progression"),
    _n(T[1], "different frequency bases, component layouts or scaling rules", "Models choose other bases, "
       "layouts or scaling rules.", V, "rope-layout-permutation",
       note="layouts score alike after one channel permutation; every scaling rule keeps the relative identity "
       "(extension-scaled-rope-relative)"),
    _n(T[2], "Changing a RoPE scale can permit longer inputs", "Changing the RoPE scale can permit longer "
       "inputs.", V, "extension-pi-angle-in-range", note="Position Interpolation keeps every angle in the "
       "trained range"),
    _n(T[2], "not by itself evidence of reliable long-context performance", "A longer accepted sequence is not "
       "by itself evidence of long-context quality.", X, note="about model quality; 'posproof properties "
       "--trained L0 --target L' shows which angles are new"),
    _n(T[2], "Position information and a causal mask do different jobs", "Position information orders; the mask "
       "only controls which positions are read.", V, "order-causal-mask-no-position"),
)  # fmt: skip


# ---- findings: read from the claims ----------------------------------------------------------------------------


def _claim(claim_id: str):
    from posproof.symbolic import registry

    return registry.get(claim_id)


def plain(value):
    r"""A registered or computed value in one comparable form (dict keys as strings, numbers as JSON has them)."""
    return json.loads(json.dumps(value, default=str))


def entry(value, path):
    r"""The entry of ``value`` at ``path`` (a key, or a tuple of keys and indices; ``()`` is the whole value)."""
    keys = path if isinstance(path, tuple) else (path,)
    for key in keys:
        value = value[key if isinstance(value, list) else str(key)]
    return value


def _label(path) -> str:
    if isinstance(path, tuple):
        return "value" if not path else "[" + "][".join(str(k) for k in path) + "]"
    return str(path)


def _shown(claim_id: str, a: Annotation, markdown: bool) -> str:
    r"""The claim's own statement: a fact's entries, else its formula (or a short theorem), else its title."""
    c = _claim(claim_id)
    if c.kind == "fact" and a.read:
        value = plain(c.claim)
        entries = [(_label(p), json.dumps(entry(value, p), ensure_ascii=False)) for p in a.read]
        return "; ".join(f"{_md(k)} = `{v}`" if markdown else f"{k} = {v}" for k, v in entries)
    statement = c.formula
    if statement is None and c.kind == "theorem":
        statement = sp.Rel(c.lhs, c.rhs, c.rel) if c.rel != "=" else sp.Eq(c.lhs, c.rhs, evaluate=False)
        if len(sp.sstr(statement)) > 90:
            statement = None
    if statement is None:
        return c.title
    return f"${sp.latex(statement)}$" if markdown else " ".join(sp.sstr(statement).split())


def finding(a: Annotation, markdown: bool = False) -> str:
    r"""What the claim behind ``a`` says, generated from it, and the annotation's note in words."""
    if a.claim is None:
        return _md(a.note) if markdown else a.note
    note = (_md(a.note) if markdown else a.note) if a.note else ""
    return _shown(a.claim, a, markdown) + (f" ({note})" if note else "")


def counts() -> dict[str, int]:
    return {v: sum(a.verdict == v for a in ANNOTATIONS) for v in VERDICTS}


def _in_order():
    r"""``(text, section, [(number, annotation), ...])`` for every section that has statements, in reading order;
    statements numbered across both texts."""
    number = 0
    for text in (ARTICLE, NOTE):
        for section in SECTIONS[text]:
            mine = [a for a in ANNOTATIONS if a.text == text and a.section == section]
            if mine:
                yield text, section, [(number + k, a) for k, a in enumerate(mine, 1)]
                number += len(mine)


def annotate_text() -> str:
    lines: list[str] = []
    current = None
    for text, section, numbered in _in_order():
        if text != current:
            lines += [f"'{text}'", ""]
            current = text
        lines.append(f"  {section}")
        for number, a in numbered:
            head = f'{number:3d}. [{a.verdict}] {a.statement} ("{a.locator}")'
            lines += textwrap.wrap(head, 110, initial_indent="  ", subsequent_indent=" " * 7)
            claim = f"{a.claim}: " if a.claim else ""
            lines += textwrap.wrap(claim + finding(a), 110, initial_indent=" " * 7, subsequent_indent=" " * 9)
        lines.append("")
    c = counts()
    lines.append(f"{len(ANNOTATIONS)} statements: " + ", ".join(f"{c[v]} {v}" for v in VERDICTS))
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    r"""Markdown-escape ``*`` and ``_`` outside ``$...$`` math (the headings quote the article's LaTeX)."""
    parts = text.split("$")
    return "$".join(p if k % 2 else p.replace("*", "\\*").replace("_", "\\_") for k, p in enumerate(parts))


def annotate_markdown() -> str:
    lines: list[str] = []
    current = None
    for text, section, numbered in _in_order():
        if text != current:
            lines += [f"## {text}", ""]
            current = text
        lines += [f"### {_md(section)}", ""]
        for number, a in numbered:
            claim = f"`{a.claim}`: " if a.claim else ""
            lines.append(f"{number}. **{a.verdict}**: {_md(a.statement)} (“{a.locator}”)  ")
            lines.append(f"   {claim}{finding(a, markdown=True)}")
        lines.append("")
    c = counts()
    lines.append(f"{len(ANNOTATIONS)} statements: " + ", ".join(f"{c[v]} {v}" for v in VERDICTS) + ".")
    return "\n".join(lines) + "\n"


# ---- the command -----------------------------------------------------------------------------------------------

FORMATS = format_names("text", "markdown")


def add_parser(subparsers) -> argparse.ArgumentParser:
    r"""Add ``annotate`` to the ``posproof`` subcommands (the subparsers' own parser class is used)."""
    s = subparsers.add_parser(
        "annotate",
        help="the article's and the RoPE note's statements, in order, with verdicts and the claims behind them",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    s.add_argument("--format", default="text", help=f"output format: {', '.join(FORMATS)}")
    s.set_defaults(func=run)
    return s


def run(args) -> int:
    r"""Print the annotated statements; 0 on success."""
    from posproof.derivations.args import UsageError

    if args.format not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, got {args.format!r}")
    sys.stdout.write(annotate_markdown() if FORMATS[args.format] == "markdown" else annotate_text())
    return 0


def main(argv: list[str] | None = None) -> int:
    r"""``python -m posproof.derivations.commands.annotate ...``: the same as ``posproof annotate ...``."""
    from posproof.derivations.args import standalone

    return standalone(add_parser, argv)


if __name__ == "__main__":
    sys.exit(main())
