r"""A claim in a notebook: its LaTeX (``_repr_latex_``, what Jupyter's MathJax, VS Code's KaTeX and ``nbconvert
--to pdf`` show) carries the whole derivation, the statement and every step with its justification, as one display;
its Markdown is the reference rendering. KaTeX parses it where Node.js and KaTeX are installed (``npm ci --prefix
tests/katex``), and a notebook that shows a claim runs where the ``notebook`` extra is (nbclient, ipykernel)."""

import shutil

import pytest
from posproof.symbolic import registry
from posproof.symbolic.engine.core import RELATIONS

from posproof.printing import html as katex
from posproof.printing.jupyter import derivation_latex, prose_math, relation_rows
from posproof.printing.markdown import identity_markdown
from posproof.printing.printers import latex

#: A chained theorem of several long steps, a definition, a theorem whose steps are not chained, a fact.
CLAIMS = ("rope-block-relative", "sinusoidal-definition", "sinusoidal-wavelengths", "sinusoidal-monotone-range")

needs_katex = pytest.mark.skipif(
    shutil.which("node") is None or katex.katex_dir() is None,
    reason="Node.js and KaTeX needed: npm ci --prefix tests/katex",
)


def test_a_theorems_latex_holds_its_statement_and_every_step_with_its_justification():
    c = registry.get("rope-block-relative")
    tex = c._repr_latex_()
    assert tex.startswith("$$\\begin{gathered}") and tex.endswith("\\end{gathered}$$")
    assert tex.count("\\begin{aligned}") == tex.count("\\end{aligned}")
    assert latex(c.formula.lhs) in tex and latex(c.formula.rhs) in tex
    for k, st in enumerate(c.steps, 1):
        lhs = st.lhs if k == 1 else None
        for row in relation_rows(lhs, RELATIONS[st.rel], st.rhs):  # the right side, broken at its terms
            assert row.split("&", 1)[1] in tex, f"step {k}: {row}"
        assert prose_math(f"({k}) {st.why}")[0] in tex
    assert r"&= q^{\top} R_{n-m} k" in tex  # the last step, on one row


def test_a_short_step_stands_on_one_row_beside_its_justification():
    c = registry.get("sinusoidal-norm")
    tex = c._repr_latex_()
    for st in c.steps[1:]:
        assert f"&{RELATIONS[st.rel]} {latex(st.rhs)}" in tex
    assert "&&\\quad " + prose_math(f"(2) {c.steps[1].why}")[0] in tex


def test_every_claim_has_one_balanced_display():
    for c in registry.all():
        tex = derivation_latex(c)
        assert tex, c.id
        assert tex.count("\\begin{") == tex.count("\\end{"), c.id
        assert "$" not in tex, f"{c.id}: math inside \\text is not read by MathJax"


def test_justifications_are_math_mode_only():
    (row,) = prose_math("rotate $q$ by `f_a` & 5% {x} with θ ≤ 1")
    assert row == (
        r"\text{rotate }{q}\text{ by }\mathtt{f\_a}\text{ }\&\text{ 5}\%\text{ }\{\text{x}\}"
        r"\text{ with }{\theta \le 1}"
    )
    rows = prose_math("word " * 40)
    assert len(rows) > 2 and all(r.startswith(r"\text{") for r in rows)


def test_a_claims_markdown_is_the_reference_rendering():
    c = registry.get("sinusoidal-norm")
    assert c._repr_markdown_() == identity_markdown(c)


@needs_katex
def test_katex_renders_each_claims_notebook_latex():
    forms = [(derivation_latex(registry.get(i)), True) for i in CLAIMS]
    results = katex.katex_render(forms)
    bad = [(i, r["error"]) for i, r in zip(CLAIMS, results, strict=True) if r["error"]]
    assert not bad, bad


@pytest.mark.slow  # a kernel started
def test_a_notebook_shows_the_derivation_as_latex(tmp_path):
    nbformat = pytest.importorskip("nbformat", reason="the notebook extra: pip install 'posproof[notebook]'")
    nbclient = pytest.importorskip("nbclient", reason="the notebook extra: pip install 'posproof[notebook]'")
    pytest.importorskip("ipykernel", reason="the notebook extra: pip install 'posproof[notebook]'")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell('from posproof.symbolic import registry\nregistry.get("sinusoidal-norm")')]
    nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    (out,) = nb.cells[0].outputs
    c = registry.get("sinusoidal-norm")
    assert out["data"]["text/latex"] == c._repr_latex_()
    assert out["data"]["text/markdown"] == c._repr_markdown_()
    for st in c.steps:
        assert latex(st.rhs) in out["data"]["text/latex"]
