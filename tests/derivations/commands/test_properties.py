r"""The rules table (``posproof properties``): complete, every cell backed by a claim that verifies and says what
the cell says, the length column computed by the functions its claims verify, every row declared by its scheme's
module, and the command through its own parser."""

import json
import math
import re
from fractions import Fraction
from importlib import import_module

import jsonschema
import numpy as np
import pytest
import sympy as sp
from posproof.derivations import machine
from posproof.derivations.args import Parser, UsageError
from posproof.derivations.commands import properties as P
from posproof.numeric import deberta, t5
from posproof.numeric.scaling.extension import phase_coverage
from posproof.numeric.sinusoid import inverse_frequencies
from posproof.symbolic import properties as S
from posproof.symbolic import registry
from posproof.symbolic.engine.core import Fact, Theorem

from tests.claims import verified

SCHEMES = (
    "counting", "normalized counting", "binary", "sinusoidal", "Sandwich", "learned absolute (random init)",
    "Transformer-XL", "DeBERTa (clipped)", "DeBERTa (log buckets)", "T5", "ALiBi", "KERPLE (log)", "CoPE", "RoPE",
    "RoPE + linear (PI)", "RoPE + NTK-aware", "RoPE + dynamic NTK", "RoPE + YaRN", "RoPE + Llama 3", "RoPE + LongRoPE",
    "RoPE + Self-Extend", "RoPE + ReRoPE", "RoPE + dual chunk attention", "M-RoPE, axial 2-D", "xPos",
    "no position code", "no position code, causal mask", "Llama 4 NoPE layer, temperature",
)  # fmt: skip


#: The claims this file verifies are the catalogue's: verified once per process (tests.claims), on the worker that
#: verifies the catalogue (the xdist group "claims").
pytestmark = pytest.mark.xdist_group("claims")


def cells():
    return [(sc.name, rule, cell) for sc in P.schemes() for rule, cell in zip(P.RULES, sc.cells, strict=True)]


# ---- the table is complete and every cell is backed ---------------------------------------------------------------


def test_every_scheme_of_the_issue_has_a_row_and_three_cells():
    assert tuple(sc.name for sc in P.schemes()) == SCHEMES
    rows = P.table()
    for row in rows:
        assert set(row["cells"]) == set(P.RULES)
        for c in row["cells"].values():
            assert c["verdict"] in P.VERDICTS or c["verdict"].startswith("holds for distances <= "), row
            assert c["claim"] in registry.ids()
        assert row["phi"].startswith("phi(m, n) = ") and row["phi_latex"]


def test_rows_are_declared_by_the_scheme_modules_in_the_tables_order():
    declared = [
        row for m in registry.MODULES for row in getattr(import_module(f"posproof.symbolic.{m}"), "RULES_ROWS", ())
    ]
    keys = [row.order for row in P.schemes()]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert sorted(declared, key=lambda row: row.order) == list(P.schemes())


def test_every_length_claim_is_the_function_it_names_at_the_articles_lengths():
    functions = registry.lengths()
    for sc in P.schemes():
        claim = sc.length.claim
        if claim in functions:
            assert registry.get(claim).claim == functions[claim](S.TRAINED, S.TARGET), claim
        else:  # no positional quantity: the row says so without a function
            assert P.length_text(sc.length, S.TRAINED, S.TARGET) == "no positional quantity", sc.name


@pytest.mark.parametrize("name, rule, cell", cells(), ids=[f"{n}:{r}" for n, r, _ in cells()])
def test_every_cell_claim_verifies_and_supports_the_verdict(name, rule, cell):
    claim = registry.get(cell.claim)
    result = verified(cell.claim)
    assert result.ok, result.as_dict()
    if cell.read is not None:  # a fact: the verdict is read from its value; the computation gives the same
        assert isinstance(claim, Fact)
        assert cell.read(result.computed) == cell.read(json.loads(json.dumps(claim.claim, default=str)))
    else:  # a theorem states the verdict
        assert isinstance(claim, Theorem) and cell.verdict in P.VERDICTS
        if cell.verdict == "fails":
            _assert_proves_failure(claim)


def _assert_proves_failure(claim):
    if claim.rel in ("<", ">"):  # a strict inequality between the two sides of the rule
        return
    if claim.id == "properties-rope-odd-part":  # φ(m, n) - φ(n, m) = rhs, and rhs is not zero at some point
        q, k, a, A, m, n = S.q, S.k, S.a, S.A, S.m, S.n
        at = {q[0]: 1, q[1]: 0, k[0]: 0, k[1]: 1, a: 1, A: 1, m: 0, n: 1}
        assert claim.rhs.subs(at) == -2 * sp.sin(1)
        return
    # without a position code the scores move with the tokens: φ does not depend on m, n, so it never falls
    assert claim.id == "order-scores-permute", claim.id


def test_the_verdicts_of_the_issue_examples():
    rows = {r["scheme"]: r["cells"] for r in P.table()}
    assert rows["sinusoidal"]["monotonicity"] == {
        "verdict": "holds for distances <= 43", "note": "d = 512, b = 10^4", "note_prose": "$d = 512$, $b = 10^4$",
        "claim": "sinusoidal-monotone-range",
    }  # fmt: skip
    assert rows["ALiBi"]["monotonicity"]["verdict"] == "holds"
    assert rows["RoPE + linear (PI)"]["monotonicity"]["verdict"] == "holds for distances <= 23"
    absolute = ("counting", "normalized counting", "binary", "sinusoidal", "learned absolute (random init)")
    # grouped positions; gate-counted positions; chunked indices; tau(m)
    not_relative = ("RoPE + Self-Extend", "CoPE", "RoPE + dual chunk attention", "Llama 4 NoPE layer, temperature")
    relative = [s for s in SCHEMES if s not in absolute + not_relative]
    assert all(rows[s]["translation invariance"]["verdict"] == "holds" for s in relative)
    assert all(rows[s]["translation invariance"]["verdict"] == "fails" for s in not_relative)
    assert [rows[s]["symmetry"]["verdict"] for s in absolute] == ["holds"] * 5
    assert rows["no position code"]["symmetry"]["verdict"] == "holds"
    assert rows["no position code, causal mask"]["symmetry"]["verdict"] == "fails"


def test_the_multiaxis_row_reads_its_claims():
    row = next(r for r in P.table() if r["scheme"] == "M-RoPE, axial 2-D")
    rope = next(r for r in P.table() if r["scheme"] == "RoPE")
    assert "p_n - p_m" in row["phi"]
    ti = row["cells"]["translation invariance"]
    assert (
        ti["claim"] == "multiaxis-score-relative" and ti["verdict"] == "holds" and "per axis and jointly" in ti["note"]
    )
    # text tokens (t = h = w) are 1-D RoPE (the claim computes it): monotonicity and symmetry are RoPE's cells
    assert registry.get("multiaxis-text-tokens-reduce").claim == dict.fromkeys(
        registry.get("multiaxis-text-tokens-reduce").claim, "equals 1-D RoPE"
    )
    assert row["cells"]["monotonicity"]["verdict"] == rope["cells"]["monotonicity"]["verdict"]
    assert row["cells"]["symmetry"] == rope["cells"]["symmetry"]


@pytest.mark.parametrize("kind", ["chunked", "interleaved", "axial"])
def test_multiaxis_scores_are_invariant_per_axis_and_jointly(kind):
    # what the translation-invariance cell says, on the kernel: shift one axis, or all at once
    from posproof.numeric import multiaxis
    from posproof.numeric.rotary import rope

    axes = {
        "chunked": multiaxis.mrope_axes([16, 24, 24]),
        "interleaved": multiaxis.mrope_axes([24, 20, 20], interleaved=True),
        "axial": multiaxis.axial_axes(128),
    }[kind]
    A = int(axes.max()) + 1
    rng = np.random.default_rng(7)
    q, k = rng.standard_normal((2, 6, 128))
    p = rng.integers(0, 2000, (6, A))

    def scores(shift):
        rq, rk = (rope(v, p + shift, base=1e6, layout="half", axes=axes) for v in (q, k))
        return rq @ rk.T  # (6, 6): every query against every key

    base = scores(np.zeros(A, dtype=np.int64))
    shifts = [np.eye(A, dtype=np.int64)[a] * 977 for a in range(A)] + [rng.integers(-5000, 5000, A)]
    for t in shifts:
        assert np.allclose(scores(t), base, rtol=0, atol=1e-9), t


def test_range_cells_come_from_the_claims_not_from_the_table():
    # the registered value changes: the cell changes with it
    cell = next(c for _, rule, c in cells() if c.claim == "sinusoidal-monotone-range")
    assert P.verdict(cell) == f"holds for distances <= {registry.get('sinusoidal-monotone-range').claim['512']}"


# ---- the length column --------------------------------------------------------------------------------------------


def test_length_claims_are_the_functions_at_the_articles_lengths():
    assert registry.get("properties-length-absolute").claim == S.absolute_lengths(1000, 2000)
    assert registry.get("properties-length-sinusoidal").claim == S.sinusoidal_lengths(1000, 2000)
    assert registry.get("properties-length-capped").claim == S.capped_lengths(1000, 2000)
    assert registry.get("properties-length-alibi").claim == S.alibi_lengths(1000, 2000)
    assert registry.get("properties-length-rope").claim == S.rope_lengths(1000, 2000)


@pytest.mark.parametrize("L0, L", [(2, 3), (4, 31), (10, 30), (16, 100), (60, 61)])
def test_absolute_lengths_against_brute_force(L0, L):
    v = S.absolute_lengths(L0, L)
    seen = {Fraction(p, N - 1) for N in range(2, L0 + 1) for p in range(N)}
    key = r"normalized $\mathrm{pos}/(N - 1)$: positions of an $L$-word text with a value no shorter text had"
    assert v[key] == sum(Fraction(p, L - 1) not in seen for p in range(L))
    used = 0
    for p in range(L0):
        used |= p
    assert v["binary: positions setting a bit never set in training"] == sum(p & ~used != 0 for p in range(L0, L))
    assert v["counting: new component values"] == L - L0 == v["learned table: positions with an untrained row"]


@pytest.mark.parametrize("L0, L", [(5, 7), (64, 4096), (100, 129), (1000, 2000), (600, 700)])
def test_capped_lengths_against_every_distance(L0, L):
    def new(index):
        old = set(index(np.arange(-(L0 - 1), L0)).tolist())
        return len(set(index(np.arange(-(L - 1), L)).tolist()) - old)

    v = S.capped_lengths(L0, L)
    assert v["T5 (32 buckets, max distance 128): new buckets"] == new(t5.t5_relative_bucket)
    assert v["DeBERTa clipped (k = 512): new rows"] == new(lambda r: deberta.deberta_relative_index(r, k=512))
    assert v["DeBERTa log buckets (256, 512, k = 256): new rows"] == new(
        lambda r: deberta.deberta_relative_index(r, k=256, bucket_size=256, max_position=512)
    )


def test_sinusoidal_and_rope_lengths_are_phase_coverage():
    th = inverse_frequencies(512, base=10000.0)
    assert S.sinusoidal_lengths(1000, 2000)["pairs with angles beyond the trained range"] == sum(
        1000 * x < 2 * math.pi for x in th
    )
    assert S.rope_lengths(64, 4096)["linear"] == 0  # interpolation to s L0 never leaves the trained range
    plain = inverse_frequencies(128, base=10000.0)
    assert S.rope_lengths(64, 4096)["default"] == len(phase_coverage(plain, plain, 64, 4096).ood_pairs)


def test_alibi_lengths_are_exact():
    v = S.alibi_lengths(10, 20)
    assert v["head 1: trained biases reach"] == "-9/2" and v["head 1: target biases reach"] == "-19/2"


@pytest.mark.parametrize("bad", [(1, 5), (5, 5), (7, 3)])
def test_lengths_refuse_a_target_not_past_training(bad):
    with pytest.raises(ValueError, match="2 <= L0 < L"):
        S.absolute_lengths(*bad)


def test_length_column_cites_the_length_claims():
    rows = P.table(1000, 2000)
    assert all(r["length"]["claim"] in registry.ids() for r in rows)
    by = {r["scheme"]: r["length"]["text"] for r in rows}
    assert by["sinusoidal"].startswith("115 of 256 pairs")
    assert by["RoPE + linear (PI)"].startswith("0 of 64") and by["RoPE"].startswith("28 of 64")
    t5_short = next(r for r in P.table(64, 4096) if r["scheme"] == "T5")["length"]["text"]
    assert by["T5"].startswith("0 new buckets") and t5_short.startswith("4 new")


# ---- formats and the command --------------------------------------------------------------------------------------


def parse(*argv):
    parser = Parser(prog="posproof")
    P.add_parser(parser.add_subparsers(dest="command", required=True, parser_class=Parser))
    return parser.parse_args(["properties", *argv])


def run(capsys, *argv):
    code = P.run(parse(*argv))
    return code, capsys.readouterr().out


def test_text_names_a_claim_in_every_cell(capsys):
    code, out = run(capsys)
    assert code == 0
    for sc in P.schemes():
        assert f"{sc.name}: phi(m, n) = " in out
        for cell in sc.cells:
            assert cell.claim in out


def test_json_rows(capsys):
    code, out = run(capsys, "--format", "json", "--trained", "1000", "--target", "2000")
    doc = json.loads(out)
    machine.validate(doc, "properties")
    assert code == 0 and doc["schema"] == "posproof.properties/1"
    assert doc["rules"] == list(P.RULES) and len(doc["rows"]) == len(SCHEMES)
    assert doc["rows"][0]["length"] == {
        "text": "1000 new component values, up to 1999",
        "claim": "properties-length-absolute",
    }


def test_json_is_an_alias_of_format_json(capsys):
    assert run(capsys, "--json") == run(capsys, "--format", "json")


def test_the_json_schema_refuses_a_cell_without_its_claim():
    doc = P.document()
    machine.validate(doc, "properties")
    del doc["rows"][0]["cells"]["symmetry"]["claim"]
    with pytest.raises(jsonschema.ValidationError, match="'claim' is a required property"):
        machine.validate(doc, "properties")


def test_regression_a_huge_target_is_a_usage_error_not_an_overflow():
    # --target 99999999999999999999 reached numpy and ended in OverflowError's traceback
    with pytest.raises(UsageError, match=r"--target must be an integer in \[2, 9007199254740992\], got 9{20}"):
        P.run(parse("--trained", "10", "--target", "9" * 20))
    with pytest.raises(ValueError, match=r"must be in \[2, 2\*\*53\]"):
        P.table(10, 2**53 + 1)


def test_markdown_and_latex_tables_are_generated_from_the_rows():
    md = P.table_markdown()
    lines = md.splitlines()
    assert len(lines) == 2 + len(SCHEMES) and all(line.count(" | ") >= 4 for line in lines[2:])
    assert "`sinusoidal-monotone-range`" in md and r"holds for distances $\le$ 43 ($d = 512$, $b = 10^4$)" in md
    tex = P.table_latex(1000, 2000)
    body = tex[tex.index(r"\endlastfoot") :]
    assert body.count("\\\\\n") == len(SCHEMES) and tex.count(r"\begin{longtable}") == 1 and tex.isascii()
    assert tex.count(r"\toprule") == 2 and r"\endhead" in tex  # the head, repeated on each page
    assert r"\texttt{properties-\allowbreak{}length-\allowbreak{}rope}" in tex
    assert r"\^{}" not in tex and r"\label{table:rules}" in tex and r"$\le$ 43 ($d = 512$, $b = 10^4$)" in tex


def test_html_table_is_a_real_table():
    page = P.table_html()
    rows = re.findall(r"<tr>(.*?)</tr>", page)
    assert len(rows) == 1 + len(SCHEMES)
    assert all(row.count("<td>") == 4 for row in rows[1:])  # φ and the three rules: no cell split by a |
    assert "<br>" not in page and "&lt;br" not in page and "<caption>" in page


def test_formats(capsys):
    for fmt, marker in (("md", "| scheme |"), ("latex", r"\begin{longtable}"), ("text", "counting: phi")):
        code, out = run(capsys, "--format", fmt)
        assert code == 0 and marker in out


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--trained", "100"], "--trained and --target go together"),
        (["--target", "100"], "--trained and --target go together"),
        (["--trained", "100", "--target", "100"], "--target must exceed --trained"),
        (["--trained", "x", "--target", "100"], "--trained must be an integer in [2, 9007199254740992], got 'x'"),
        (["--trained", "1", "--target", "100"], "--trained must be an integer in [2, 9007199254740992], got 1"),
        (["--format", "pdf"], "--format must be one of"),
    ],
)
def test_usage_errors_are_one_line(argv, fragment):
    with pytest.raises(UsageError, match=re.escape(fragment)) as e:
        P.run(parse(*argv))
    assert "\n" not in str(e.value)


def test_module_entry_point_exits_2_on_a_usage_error(capsys):
    assert P.main(["--trained", "5"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
