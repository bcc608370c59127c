"""The paper voice: paper blocks read as mathematics (no ids, no strategy brackets, no test-suite language), the
record keeps the detail, reference tokens resolve in every format, names with underscores are code."""

from __future__ import annotations

import re

import pytest
from posproof.symbolic import registry

from posproof.printing import voice
from posproof.printing.blocks import blocks, record_blocks
from posproof.printing.prose import prose
from posproof.printing.refs import Numbering, Target, cite
from posproof.printing.text import claim_text

THEOREM, DEFINITION, FACT, LEMMA = (
    "rope-decay-abel",
    "deberta-delta",
    "deberta-log-bucket-values",
    "lemma-abel-summation",
)
WITH_MISTAKE_NOTE = "order-permutation-equivariance"


def _prose_of(bs) -> str:
    return "\n".join([b.text for b in bs] + [cell for b in bs for row in b.rows for cell in row])


@pytest.mark.parametrize("cid", [THEOREM, DEFINITION, FACT, LEMMA, WITH_MISTAKE_NOTE, "sinusoidal-monotone-range"])
def test_paper_blocks_read_as_mathematics(cid):
    bs = blocks(registry.get(cid), audience="paper")
    text = _prose_of(bs)
    assert cid not in re.sub(r"\[\[claim:[\w.-]+\]\]", "", text)  # the id only as a label, never as a word
    assert not re.search(r"\[[a-z_]+(?:, [a-z_]+)*\]", re.sub(r"\[\[[^\]]*\]\]", "", text))  # no [strategy]
    for phrase in ("registered mistake", "wrong computation", "Hence [", ".py", "(cites "):
        assert phrase not in text
    assert [b.kind for b in bs].count("checked") == 1
    assert [b.kind for b in bs][:2] == ["heading", "source"]


@pytest.mark.parametrize(
    ("cid", "word"), [(THEOREM, "Theorem"), (DEFINITION, "Definition"), (FACT, "Computation"), (LEMMA, "Lemma")]
)
def test_the_heading_carries_the_environment_word(cid, word):
    heading = blocks(registry.get(cid), audience="paper")[0]
    assert (heading.kind, heading.code, heading.label) == ("heading", word, cid)


def test_a_theorem_step_keeps_its_strategies_in_code_only():
    c = registry.get(THEOREM)
    steps = [b for b in blocks(c, audience="paper") if b.kind == "step"]
    assert [b.code for b in steps] == [", ".join(st.strategy) for st in c.steps]
    assert "by [[claim:lemma-abel-summation]]" in steps[0].text


def test_the_record_keeps_what_the_paper_leaves_out():
    c = registry.get(WITH_MISTAKE_NOTE)
    record = _prose_of(record_blocks(c))
    assert "symbolic/lemmas.py" in record and "deliberately wrong" in record
    assert "symbolic/lemmas.py" not in _prose_of(blocks(c, audience="paper"))
    assert [b.code for b in record_blocks(c) if b.kind == "step"] == [", ".join(st.strategy) for st in c.steps]


def test_the_reference_audience_is_the_default_and_cached_apart():
    c = registry.get(THEOREM)
    reference = blocks(c)
    assert reference == blocks(c, audience="reference") != blocks(c, audience="paper")
    assert reference[1].text.startswith(f"`{c.id}` · theorem · Source:")
    assert any(b.kind == "step" and b.code for b in reference)
    with pytest.raises(ValueError, match="audience"):
        blocks(c, audience="journal")


NUMBERING = Numbering(
    {
        "claim:rope-x": Target("Theorem", "4.6", "claim-rope-x", "rope.md"),
        "eq:rope-x": Target("", "12", "eq-rope-x", "rope.md"),
    }
)


@pytest.mark.parametrize(
    ("fmt", "numbered", "alone"),
    [
        ("latex", r"by Theorem~\ref{claim:rope-x} and \eqref{eq:rope-x}", r"by \texttt{rope-x} and \texttt{rope-x}"),
        (
            "markdown",
            "by [Theorem 4.6](rope.md#claim-rope-x) and [(12)](rope.md#eq-rope-x)",
            "by `rope-x` and `rope-x`",
        ),
        (
            "html",
            'by <a href="rope.md#claim-rope-x">Theorem 4.6</a> and <a href="rope.md#eq-rope-x">(12)</a>',
            "by <code>rope-x</code> and <code>rope-x</code>",
        ),
        ("text", "by Theorem 4.6 and (12)", "by rope-x and rope-x"),
    ],
)
def test_tokens_resolve_in_each_format(fmt, numbered, alone):
    text = "by [[claim:rope-x]] and [[eq:rope-x]]"
    assert prose(text, fmt, refs=NUMBERING) == numbered
    assert prose(text, fmt) == alone


def test_a_token_missing_from_the_numbering_prints_its_id():
    assert cite("fig", "decay", "latex", NUMBERING) == r"\texttt{decay}"


def test_claim_ids_become_tokens():
    ids = frozenset({"rope-x", "lemma-y"})
    assert voice.claim_tokens("as rope-x shows (lemma-y), `rope-x` (cites lemma-y)", ids) == (
        "as [[claim:rope-x]] shows ([[claim:lemma-y]]), [[claim:rope-x]] by [[claim:lemma-y]]"
    )
    assert voice.claim_tokens("$rope-x$ and rope-xy", ids) == "$rope-x$ and rope-xy"


@pytest.mark.parametrize("name", ["max_position", "rope_theta", "partial_rotary_factor", "_rel_shift"])
def test_names_with_underscores_are_code(name):
    assert prose(f"the {name} of the config", "markdown") == f"the `{name}` of the config"
    assert r"\texttt{" in prose(f"the {name}", "latex")


def test_one_letter_with_a_subscript_stays_math():
    assert prose("d_model and W_q", "markdown") == r"$d_{\mathrm{model}}$ and $W_{q}$"


@pytest.mark.parametrize(
    ("ascii", "tex"),
    [
        ("for m - n alone", "for $m - n$ alone"),
        ("rows 0 .. 255", r"rows $0, \dots, 255$"),
        ("an 8 x 16 grid", r"an $8 \times 16$ grid"),
        ("below 1e-12 here", "below $10^{-12}$ here"),
        ("masked to -inf.", r"masked to $-\infty$."),
    ],
)
def test_ascii_math_in_the_paper_voice(ascii, tex):
    assert voice.ascii_paper(ascii) == tex


@pytest.mark.parametrize(
    "kept",
    ["half-width", "`a - b`", "https://x.org/a-b_c", "2021-04-20", "[[claim:rope-x]]", "$m - n$", "RoPE-style"],
)
def test_ascii_math_leaves_words_code_urls_and_tokens(kept):
    assert voice.ascii_paper(f"see {kept} here") == f"see {kept} here"


def test_notes_split_into_paper_and_record():
    paper, record = voice.split_notes("The sum is finite. The registered mistake drops a row. It checks `f`.")
    assert (paper, record) == ("The sum is finite.", "The registered mistake drops a row. It checks `f`.")


def test_terminal_text_in_the_paper_voice():
    out = claim_text(registry.get(THEOREM), "paper")
    assert out.startswith("Theorem. ") and "[expand" not in out and THEOREM not in out


def test_a_reference_token_inside_code_is_the_codes_text_not_a_citation():
    # regression: a token inside backticks split the code span, and the prose printer recursed without end
    from posproof.printing.prose import prose

    assert prose("`[[claim:a-b]]:PE` and [[claim:a-b]].", "latex") == r"\texttt{[[claim:a-b]]:PE} and \texttt{a-b}."


def test_the_checked_line_sends_a_lone_claim_to_its_record_and_an_export_to_the_appendix():
    from posproof.printing.blocks import checked_text
    from posproof.printing.prose import prose
    from posproof.printing.refs import Numbering, Target

    c = registry.get("rope-block-relative")
    assert prose(checked_text(c), "text").endswith("(see its verification record).")
    appendix = Numbering({"section:record": Target("Appendix", "A", "appendix-record")})
    assert prose(checked_text(c), "latex", refs=appendix).endswith(r"(see Appendix~\ref{section:record}).")
    assert "wrong variant" not in checked_text(c)


def test_regression_no_definition_id_is_a_reference_token():
    # regression: turning claim ids in prose into tokens also turned the ids of facts' definitions into them
    from posproof.symbolic.engine.core import Fact

    for c in (registry.get(i) for i in registry.ids()):
        for dfn in c.definitions if isinstance(c, Fact) else ():
            assert "[[" not in dfn.id, (c.id, dfn.id)


def test_regression_double_backticks_are_code_as_in_a_docstring():
    # regression: ``max_len`` in catalogue text came out as a stray backtick and code running into the prose
    from posproof.printing.prose import prose

    assert prose("a ``max_len`` b", "markdown") == "a `max_len` b"
