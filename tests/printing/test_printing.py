r"""The renderer: statements as math, prose with inline math, natural orders, equations that fit,
notebook representations."""

import re

import pytest
import sympy as sp
from posproof.symbolic import registry

from posproof.printing import blocks, equations, printers, prose
from posproof.printing import text as text_format
from tests.claims import BY_ID, IDS, claim_blocks, rendered


@pytest.mark.parametrize("claim_id", IDS)
def test_every_claim_has_a_formula_printed_by_sympy(claim_id):
    c = BY_ID[claim_id]
    assert c.formula is not None, f"{claim_id} has no formula= statement"
    parts = c.formula if isinstance(c.formula, (tuple, list)) else (c.formula,)
    assert all(isinstance(f, sp.Basic) for f in parts)
    assert equations.formula_tex(c.formula).strip() and equations.formula_text(c.formula).strip()


@pytest.mark.parametrize("claim_id", IDS)
def test_prose_is_balanced_markup_and_the_terminal_gets_no_dollar(claim_id):
    for b in claim_blocks(claim_id):
        for text in [b.text, *b.head] + [cell for row in b.rows for cell in row]:
            prose.segments(text)  # raises on an unbalanced $
    assert "$" not in rendered(claim_id, "text")  # the terminal: text_format.claim_text


def test_segments_split_math_and_code():
    assert prose.segments("rotate $q$ by `rope`") == [
        ("text", "rotate "),
        ("math", "q"),
        ("text", " by "),
        ("code", "rope"),
    ]
    with pytest.raises(ValueError, match="unbalanced"):
        prose.segments("a $b")


def test_prose_in_each_format():
    text = r"angle $\theta_i$ and `numeric.rope`, 50% & more"
    assert prose.prose(text, "latex") == r"angle $\theta_i$ and \texttt{numeric.\allowbreak{}rope}, 50\% \& more"
    assert prose.prose(text, "markdown") == text
    assert prose.prose(text, "text") == "angle θ_i and numeric.rope, 50% & more"
    assert prose.prose(text, "html", lambda tex, display: f"<m>{tex}</m>") == (
        r"angle <m>\theta_i</m> and <code>numeric.rope</code>, 50% &amp; more"
    )


def test_math_text_is_pylatexenc_with_readable_fractions_and_primes():
    assert prose.math_text(r"e^{i (m - n) \theta}") == "e^{i (m - n) θ}"
    assert prose.math_text(r"\frac{1}{d/2} \sum_j |S_j|") == "1/(d/2)∑_j |S_j|"
    assert prose.math_text(r"a''(\xi) \ne 0.1 \ln s") == "a″(ξ) ≠ 0.1 ln s"


def test_natural_orders():
    a, b = sp.symbols("a b", real=True)
    assert printers.latex(b - a) == "b - a" and printers.sstr(b - a) == "b - a"
    n = sp.Symbol("n", positive=True, integer=True)
    assert printers.latex(2 ** (-(2 ** (-(sp.log(n, 2) - 3))))) == r"2^{- 2^{3 - \log_{2} n}}"
    assert printers.sstr(sp.log(n, 2)) == "log2(n)"


def test_regression_rotation_prints_b_minus_a_and_alibi_prints_log2():
    # the issue: R(-a + b) and 2^{-2^{-\frac{\log(n)}{\log(2)}+3}}
    rot = rendered("rope-2d-rotation-product", "latex")
    assert r"R\left(b - a\right)" in rot and "- a + b" not in rot
    alibi = rendered("alibi-slopes-geometric", "latex")
    assert r"\log_{2} n" in alibi and r"\frac{\log" not in alibi


def test_long_steps_are_broken_into_lines_that_fit():
    for b in claim_blocks("rope-block-relative"):
        if b.kind == "step" and r"\sum" in b.tex:  # the sums over the planes (the named ends fit one line)
            assert b.tex.startswith("\\begin{aligned}")
            rows = b.tex.split("\n")[1:-1]
            assert len(rows) >= 2
            assert all(equations.tex_width(r.rstrip(" \\").replace("&", "")) <= equations.LINE_WIDTH + 1 for r in rows)


def test_short_steps_stay_on_one_line():
    assert all("aligned" not in b.tex for b in claim_blocks("sinusoidal-norm"))


def test_statement_in_heading_block_of_every_format():
    statement = r"\left(R_{m} q\right)^{\top} \left(R_{n} k\right) = q^{\top} R_{n-m} k"
    assert statement in rendered("rope-block-relative", "latex")
    assert statement in rendered("rope-block-relative", "markdown")
    assert "R_{n-m}" in rendered("rope-block-relative", "text")


def test_the_rope_chain_runs_from_the_statements_left_side_to_its_right():
    c = registry.get("rope-block-relative")
    steps = [b for b in claim_blocks(c.id) if b.kind == "step"]
    assert steps[0].tex.startswith("\\begin{aligned}\n" + r"\left(R_{m} q\right)^{\top} \left(R_{n} k\right) &= \sum")
    assert steps[-1].tex == r"= q^{\top} R_{n-m} k"
    assert c.chained and c.lhs == c.steps[0].lhs and c.rhs == c.steps[-1].rhs


def test_notebook_representations():
    c = registry.get("sinusoidal-norm")
    assert c._repr_latex_().startswith("$$") and c._repr_latex_().endswith("$$")
    assert c._repr_markdown_().startswith("### Every position has the same norm")
    result = c.verify(dps=30)
    assert "<table" in result._repr_html_() and "verified" in result._repr_html_()
    assert "| sinusoidal-norm | theorem | verified |" in result._repr_markdown_()


# ---- printing that reads as other mathematics ------------------------------------------------------------------------


def test_a_product_written_unevaluated_keeps_its_factors_apart():
    d = sp.Symbol("d", positive=True, integer=True)
    two_d_d = sp.Mul(d, sp.Mul(2, d, evaluate=False), evaluate=False)
    d_d = sp.Mul(-1, d, d, evaluate=False)
    assert printers.latex(sp.Add(two_d_d, d_d, evaluate=False)) == r"d \cdot \left(2 d\right) - d \cdot d"
    assert printers.latex(2 * d) == "2 d"  # an evaluated product is printed as SymPy prints it


def test_a_power_of_ten_and_primed_functions():
    n, i, d = sp.symbols("n i d", positive=True)
    assert (
        printers.latex(sp.Rational(1, 10**10)) == "10^{-10}" and printers.latex(sp.Rational(1, 100)) == r"\frac{1}{100}"
    )
    b = sp.Function("b'")
    assert printers.latex(b(n)) == r"b'{\left(n \right)}"  # not \operatorname{b'}: a prime, not a closing quote
    assert printers.latex(b(n) ** (-2 * i / d)) == r"\left(b'{\left(n \right)}\right)^{- 2 i / d}"


def test_multi_letter_subscripts_are_upright():
    assert printers.latex(sp.Symbol("N_{concat}")) == r"N_{\mathrm{concat}}"
    assert printers.latex(sp.Symbol("d_model")) == r"d_{\mathrm{model}}"
    assert printers.latex(sp.Symbol("x_i")) == "x_{i}"


def test_a_statement_is_never_the_word_true():
    for c in registry.all():
        bs = claim_blocks(c.id)
        assert all(b.tex.strip() not in (r"\text{True}", r"\text{False}") for b in bs if b.kind == "statement"), c.id
        assert "statement:\n    True" not in rendered(c.id, "text"), c.id


def test_given_hypotheses_are_printed_with_the_statement_in_every_format():
    from posproof.printing import html, latex, markdown

    c = registry.get("sinusoidal-wavelengths")
    assert equations.given_tex(c) == ["b > 1"]
    assert "Given $b > 1$" in latex.identity_latex(c)
    assert "Given $b > 1$" in markdown.identity_markdown(c)
    assert "given: b > 1" in text_format.claim_text(c)
    page = html.blocks_html(blocks.blocks(c), lambda tex, display: f"[{tex}]")
    assert "Given [b &gt; 1]" in page or "Given [b > 1]" in page
    kinds = [b.kind for b in claim_blocks(c.id)]
    assert kinds.index("statement") < next(k for k, b in enumerate(claim_blocks(c.id)) if b.text.startswith("Given"))
    for claim in registry.all():
        if getattr(claim, "given", ()):
            assert any(b.text.startswith("Given ") for b in claim_blocks(claim.id)), claim.id


def test_prose_quotes_and_ascii_scripts():
    assert prose.prose("'Attention Is All You Need', BERT's", "latex") == "`Attention Is All You Need', BERT's"
    assert prose.prose("period 2^(j+1) of W_{k,R}", "latex") == "period $2^{j+1}$ of $W_{k,R}$"
    assert prose.prose("`rope_mp` and numeric.rotary.rope_mp", "latex").count("$") == 0
    assert (
        prose.prose("RoPE (d = 128, b = 10^4) at L = 2000.", "latex") == "RoPE ($d = 128$, $b = 10^{4}$) at $L = 2000$."
    )
    assert prose.prose("d = 128", "text") == "d = 128"  # the terminal keeps plain text


def test_a_wide_piecewise_inside_a_sum_is_broken_into_rows():
    c = registry.get("multiaxis-proportional-relative") if "multiaxis-proportional-relative" in IDS else None
    if c is None:
        pytest.skip("no claim with a Piecewise summand")
    tex = equations.display(c.steps[0].lhs, "=", c.steps[0].rhs)
    assert r"\begin{cases} \begin{array}{l}" in tex
    assert max(equations.tex_width(row) for row in tex.split(r"\\")) <= equations.LINE_WIDTH * 1.5


def test_a_module_path_in_prose_is_typeset_as_code():
    tex = prose.prose("computed by numeric.rotary.rope_mp at 50 digits", "latex")
    assert tex == r"computed by \texttt{numeric.\allowbreak{}rotary.\allowbreak{}rope\allowbreak{}\_mp} at 50 digits"
    assert r"\_\allowbreak" not in tex  # a line breaks before an underscore, never leaving one at its end
    assert prose.prose("numeric.rotary.rope_mp", "markdown") == "`numeric.rotary.rope_mp`"


@pytest.mark.parametrize("claim_id", IDS)
def test_regression_no_control_character_in_a_claims_text(claim_id):
    # "\theta" in a string without the r prefix is a tab and "heta": it printed as "R(m <tab>heta)"
    c = BY_ID[claim_id]
    texts = [c.title, getattr(c, "statement", "") or "", c.notes or "", *getattr(c, "assumptions", ())]
    texts += [s.why for s in getattr(c, "steps", ())]
    for text in texts:
        assert not any(ch in text for ch in "\t\b\f\r\v"), (claim_id, text[:80])


def test_named_intermediates_replace_nested_min_max_in_yarn_and_llama3():
    tex = rendered("extension-yarn-inv-freq", "latex")
    assert r"\mathrel{:=} \frac{\gamma_{i} {\theta}_{i}}{s} + \left(1 - \gamma_{i}\right) {\theta}_{i}" in tex
    assert r"\mathrm{low} &= \max\left(0, c{\left(32 \right)}\right)" in tex and r"c{\left(r \right)} &= " in tex
    assert r"\max\left(0, \frac{d \ln" not in tex  # the correction dimension is not inlined in the ramp
    truncated = rendered("extension-yarn-truncated-inv-freq", "latex")
    assert r"\left\lfloor{c{\left(32 \right)}}\right\rfloor" in truncated
    llama3 = rendered("extension-llama3-inv-freq", "markdown")
    assert r"\sigma_{i} &= \frac{\frac{L_{0}}{\lambda_{i}} - f_{\mathrm{low}}}" in llama3
    assert r"\lambda_{i} < \frac{L_{0}}{f_{\mathrm{high}}}" in llama3
    assert "where gamma_i = Min(1, Max(0, (i - low)/(high - low)))" in rendered("extension-yarn-inv-freq", "text")


def test_exponents_and_limits_fold_their_fractions_and_written_forms_print_as_written():
    b, d, i, h, s, L0, f = sp.symbols("b d i h s L_0 f", positive=True)
    assert printers.latex(b ** (-2 * i / d)) == "b^{- 2 i / d}"
    assert printers.latex(sp.Sum(i, (i, 0, d / 2 - 1))) == r"\sum_{i=0}^{d / 2 - 1} i"
    assert printers.latex(sp.Pow(b, 0, evaluate=False)) == "1"
    with sp.core.parameters.evaluate(False):
        over = L0 / (L0 / f)
    assert printers.latex(over) == r"\frac{L_{0}}{\frac{L_{0}}{f}}"
    assert r"\frac{1}{" not in rendered("extension-llama3-blend-continuous", "latex")
    assert "b^{0}" not in rendered("extension-ntk-conditions", "latex")


@pytest.mark.parametrize("claim_id", IDS)
def test_a_step_identical_to_the_statement_is_printed_once_in_every_format(claim_id):
    bs = claim_blocks(claim_id)
    statement = next((b.tex for b in bs if b.kind == "statement"), None)
    assert statement is None or all(b.tex != statement for b in bs if b.kind in ("step", "math"))
    if any(b.kind == "step" and not b.tex for b in bs):
        assert "(the statement above)" in rendered(claim_id, "text")
        assert "the statement above" in rendered(claim_id, "markdown")
        assert rendered(claim_id, "latex").count(statement) == 1


#: ASCII math in plain prose: a caret, a subscript glued to a letter, an ASCII relation, ``conj(``, ``sqrt(``,
#: a function applied in ASCII (``sin(a``), a square written ``²`` after a letter or a bracket, a Greek letter
#: spelled out (``theta_i``, ``zeta``).
ASCII_MATH = re.compile(
    r"\^|(?<=[A-Za-z])_(?=\w)|>=|<=|!=|\bconj\(|\bsqrt\(|\b(?:sin|cos|tan|exp|ln|log)\(|(?<=[\w)])²"
    r"|\b(?:theta|zeta|gamma|lambda|sigma|phi)\b"
)


def _ascii_math(text: str) -> list[str]:
    return [s for kind, s in prose.segments(text) if kind == "text" and ASCII_MATH.search(s)]


@pytest.mark.parametrize("claim_id", IDS)
def test_a_heading_writes_its_mathematics_in_dollars(claim_id):
    assert not _ascii_math(BY_ID[claim_id].title)


@pytest.mark.parametrize("claim_id", IDS)
def test_justifications_assumptions_and_notes_write_their_mathematics_in_dollars(claim_id):
    c = BY_ID[claim_id]
    strings = [st.why for st in c.steps] + list(getattr(c, "assumptions", ())) + [c.notes or ""]
    strings += [d.why for d in getattr(c, "definitions", ())]
    plain = [s for s in strings if _ascii_math(s)]
    assert not plain, plain


def test_an_angle_times_a_difference_prints_in_the_statements_order():
    theta, a, n, m, p, M = sp.symbols("theta a n m p M")
    assert printers.latex(sp.cos(theta * (n - m))) == r"\cos{\left(\left(n - m\right) \theta \right)}"
    assert printers.latex(sp.sin(a * (n - m))) == r"\sin{\left(\left(n - m\right) a \right)}"
    assert printers.latex(p * (n - M)).startswith("p ")  # not an angle: SymPy's order
    assert r"R\left(\left(n - m\right) \theta\right)" in rendered("rope-2d-real-form", "latex")


def test_column_vectors_of_fractions_of_fractions_are_compared_row_by_row():
    tex = rendered("extension-llama3-blend-continuous", "latex")
    assert r"\left(\begin{matrix}\frac{\frac" not in tex  # no fraction of fractions in a matrix's script size
    assert tex.count(r"&= \frac{2 \pi") == 2


def test_the_causal_softmax_is_named_with_one_entry_shown():
    tex = rendered("order-causal-mask-no-position", "latex")
    assert tex.count("e^{s_{2k}}") == 1 and r"\frac{e^{s" not in tex  # one entry, in the assumptions
    assert "A'_{20}" in tex and "A_{20}" in tex
