r"""The renderer (issue 12): statements as math, prose with inline math, natural orders, equations that fit,
notebook representations."""

import pytest
import sympy as sp

from posproof.printing import blocks, equations, formats, printers, prose
from posproof.printing import text as text_format
from posproof.symbolic import registry
from tests.claims import BY_ID, IDS


@pytest.mark.parametrize("claim_id", IDS)
def test_every_claim_has_a_formula_printed_by_sympy(claim_id):
    c = BY_ID[claim_id]
    assert c.formula is not None, f"{claim_id} has no formula= statement"
    parts = c.formula if isinstance(c.formula, (tuple, list)) else (c.formula,)
    assert all(isinstance(f, sp.Basic) for f in parts)
    assert equations.formula_tex(c.formula).strip() and equations.formula_text(c.formula).strip()


@pytest.mark.parametrize("claim_id", IDS)
def test_prose_is_balanced_markup_and_the_terminal_gets_no_dollar(claim_id):
    c = BY_ID[claim_id]
    for b in blocks.blocks(c):
        for text in [b.text] + [label for label, _ in b.rows]:
            prose.segments(text)  # raises on an unbalanced $
    assert "$" not in text_format.claim_text(c)


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
    rot = formats.render(registry.get("rope-2d-rotation-product"), "latex")
    assert r"R\left(b - a\right)" in rot and "- a + b" not in rot
    alibi = formats.render(registry.get("alibi-slopes-geometric"), "latex")
    assert r"\log_{2} n" in alibi and r"\frac{\log" not in alibi


def test_long_steps_are_broken_into_lines_that_fit():
    c = registry.get("rope-block-relative")
    for b in blocks.blocks(c):
        if b.kind == "step":
            assert b.tex.startswith("\\begin{aligned}")
            rows = b.tex.split("\n")[1:-1]
            assert len(rows) >= 2
            assert all(equations.tex_width(r.rstrip(" \\").replace("&", "")) <= equations.LINE_WIDTH + 1 for r in rows)


def test_short_steps_stay_on_one_line():
    c = registry.get("sinusoidal-norm")
    assert all("aligned" not in b.tex for b in blocks.blocks(c))


def test_statement_in_heading_block_of_every_format():
    c = registry.get("rope-block-relative")
    statement = r"\left(R_{m} q\right)^{T} \left(R_{n} k\right) = q^{T} R_{n-m} k"
    assert statement in formats.render(c, "latex") and statement in formats.render(c, "markdown")
    assert "R_{n-m}" in formats.render(c, "text")


def test_notebook_representations():
    c = registry.get("sinusoidal-norm")
    assert c._repr_latex_().startswith("$$") and c._repr_latex_().endswith("$$")
    assert c._repr_markdown_().startswith("### Every position has the same norm")
    result = c.verify(dps=30)
    assert "<table" in result._repr_html_() and "verified" in result._repr_html_()
    assert "| sinusoidal-norm | theorem | verified |" in result._repr_markdown_()
