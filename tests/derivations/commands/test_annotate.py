r"""The article, annotated (``posproof annotate``): every statement has a verdict, every claim behind one exists and
verifies, and the verdicts agree with what the claims compute; the paraphrases ship with the package, each in the
scheme module whose claim decides it, in the texts' order by their order keys."""

import importlib
import json

import pytest
from posproof.derivations.args import Parser, UsageError
from posproof.derivations.commands import annotate as A
from posproof.symbolic import registry
from posproof.symbolic.engine.core import Fact

from tests.claims import verified

CHECKED = [a for a in A.statements() if a.claim is not None]


#: The claims this file verifies are the catalogue's: verified once per process (tests.claims), on the worker that
#: verifies the catalogue (the xdist group "claims").
pytestmark = pytest.mark.xdist_group("claims")


def test_every_annotation_has_a_known_verdict_section_and_one_line():
    for a in A.statements():
        assert a.verdict in A.VERDICTS, a
        assert a.text in A.SECTIONS and a.section in A.SECTIONS[a.text], a
        assert a.locator and a.statement and "\n" not in a.statement + a.locator, a
        assert (a.claim is None) == (a.verdict == "not checkable"), a
        assert len(a.said) in (0, len(a.read)), a


def test_order_keys_are_unique_and_give_the_order():
    keys = [a.order for a in A.statements()]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert A.statements() == registry.statements()


def test_statements_are_in_the_order_of_the_texts():
    for text in A.SECTIONS:
        order = [A.SECTIONS[text].index(a.section) for a in A.statements() if a.text == text]
        assert order == sorted(order), text
    texts = [a.text for a in A.statements()]
    assert texts == sorted(texts, key=[A.ARTICLE, A.NOTE].index)


@pytest.mark.parametrize("a", CHECKED, ids=[f"{k}:{a.claim}" for k, a in enumerate(CHECKED)])
def test_the_claim_behind_each_statement_verifies_and_agrees_with_the_verdict(a):
    result = verified(a.claim)
    assert result.ok, result.as_dict()
    claim = registry.get(a.claim)
    if a.read:
        assert isinstance(claim, Fact), "entries can only be read from a fact's computed value"
        computed = A.plain(result.computed)
        entries = [A.entry(computed, path) for path in a.read]
        assert entries == [A.entry(A.plain(claim.claim), path) for path in a.read]
        said = [(e, s) for e, s in zip(entries, a.said or (None,) * len(entries), strict=True) if s is not None]
        if a.verdict == "verified":
            assert all(e == s for e, s in said), said
        if a.verdict == "corrected":
            assert said and all(e != s for e, s in said), said
    if a.verdict in ("corrected", "holds on a range"):
        # the finding shows the exact value or the range: entries of a fact, or a theorem's statement
        assert a.read or claim.kind == "theorem", a
        assert a.note, "a correction or a range says in words what holds"


def test_the_statements_the_issue_names_have_verdicts():
    by_locator = {a.locator: a for a in A.statements()}
    expected = {
        "completed in just one word": ("corrected", "article-cycle-lengths"),
        "at pos=0, the wave might be at its peak (1.0)": ("corrected", "article-fast-wave-step"),
        "up to $d_{model}/2$": ("corrected", "article-pair-index-range"),
        "$(q \\cdot k) \\times e^{i(m-n)\\theta}$": ("corrected", "article-rope-score-conjugate"),
        "pays less attention to words that are very far away": ("corrected", "article-rope-far-attention"),
        "often 4096 dimensions or more": ("corrected", "article-rope-per-head"),
        "added only at the very beginning": ("holds on a range", "article-positions-every-layer"),
        "position-to-position (distance) scores": ("corrected", "article-deberta-no-p2p"),
        "Word 0 might be at 0.0, while word 50 might be at 1.0": ("holds on a range", "article-slow-wave-heights"),
        "Faster Convergence": ("not checkable", None),
    }
    for locator, (verdict, claim) in expected.items():
        assert (by_locator[locator].verdict, by_locator[locator].claim) == (verdict, claim), locator


def test_findings_are_printed_from_the_claims():
    a = next(a for a in A.statements() if a.claim == "article-pair-index-range" and a.verdict == "corrected")
    assert A.finding(a).startswith("last i = 255")
    fast = next(a for a in A.statements() if a.claim == "article-fast-wave-step")
    assert "sin(1/2)" in A.finding(fast)
    assert A.finding(next(a for a in A.statements() if a.claim is None)) == next(
        a.note for a in A.statements() if a.claim is None
    )


def test_counts_add_up():
    c = A.counts()
    assert sum(c.values()) == len(A.statements()) >= 100
    assert c["corrected"] >= 15 and c["not checkable"] >= 5


def parse(*argv):
    parser = Parser(prog="posproof")
    A.add_parser(parser.add_subparsers(dest="command", required=True, parser_class=Parser))
    return parser.parse_args(["annotate", *argv])


@pytest.mark.parametrize("fmt", ["text", "txt", "md", "markdown"])
def test_command_prints_every_statement_with_its_claim(capsys, fmt):
    assert A.run(parse("--format", fmt)) == 0
    out = capsys.readouterr().out
    assert all(a.claim in out for a in CHECKED)
    assert f"{len(A.statements())} statements:" in out
    numbers = [
        line.split(".")[0].strip() for line in out.splitlines() if "[verified]" in line or "**verified**" in line
    ]
    assert numbers and all(n.isdigit() for n in numbers)


def test_markdown_keeps_sections_in_order(capsys):
    A.run(parse("--format", "md"))
    out = capsys.readouterr().out
    heads = [line for line in out.splitlines() if line.startswith("## ")]
    assert heads == [f"## {A.ARTICLE}", f"## {A.NOTE}"]
    assert out.index("### Maths behind RoPE") < out.index("### Summary")


def test_usage_error_is_one_line():
    with pytest.raises(UsageError, match="--format must be one of") as e:
        A.run(parse("--format", "pdf"))
    assert "\n" not in str(e.value)
    assert A.main(["--format", "pdf"]) == 2


def test_the_data_is_in_the_package():
    # the paraphrases ship as Python data in the scheme modules: nothing is read from outside the package
    assert json.loads(json.dumps([a.statement for a in A.statements()]))
    declared = [a for m in registry.MODULES for a in getattr(importlib.import_module(f"posproof.symbolic.{m}"),
                                                            "ANNOTATIONS", ())]  # fmt: skip
    assert sorted(declared, key=lambda a: a.order) == list(A.statements())


def test_a_statement_lives_with_the_claim_that_decides_it():
    # a scheme is one place: its module declares the statements its claims decide (those no claim decides: the
    # article's module)
    owner = {c.id: m for m in registry.MODULES for c in registry.module(m)}
    for m in registry.MODULES:
        for a in getattr(importlib.import_module(f"posproof.symbolic.{m}"), "ANNOTATIONS", ()):
            assert owner.get(a.claim, "article.statements") == m, (a.order, a.claim, m)


def test_two_statements_with_one_order_key_are_refused(monkeypatch):
    from posproof.symbolic import tables

    first = A.statements()[0]
    twin = tables.in_article(first.order, tables.S[0], "a locator", "A statement.", tables.NOT_CHECKABLE)
    monkeypatch.setattr(importlib.import_module("posproof.symbolic.lemmas"), "ANNOTATIONS", (twin,), raising=False)
    registry.statements.cache_clear()
    try:
        with pytest.raises(ValueError, match=f"order {first.order} is declared by .* and lemmas"):
            registry.statements()
    finally:
        registry.statements.cache_clear()
