r"""The display layer: one notation (``\varphi``, ``^{\top}``, ``\mathrm{i}``, ``\lvert x \rvert``), term order
as written (query before key, powers of one letter combined) and fractions out of scripts."""

import sympy as sp

from posproof.printing.notation import inline_fractions, normalize
from posproof.printing.printers import latex

b, d, i, k, q, x, phi = sp.symbols("b d i k q x phi")


def test_one_spelling_per_letter_and_the_transpose():
    assert latex(sp.cos(phi)) == r"\cos{\left(\varphi \right)}"
    assert latex(sp.Symbol("epsilon")) == r"\varepsilon"
    assert normalize(r"q^{T} k") == r"q^{\top} k"


def test_imaginary_unit_apart_from_an_index():
    assert latex(sp.exp(sp.I * i)) == r"e^{\mathrm{i} i}"


def test_abs_as_lvert_rvert():
    assert latex(sp.Abs(x)) == r"\left\lvert x \right\rvert"
    assert latex(sp.Abs(x) ** 2) == r"\left\lvert x \right\rvert^{2}"


def test_query_before_key_and_coefficient_first():
    assert latex(2 * k * q) == "2 q k"
    assert latex(sp.Symbol("k_n") * sp.Symbol("q_m")) == "q_{m} k_{n}"
    assert latex(2 * sp.cos(x)) == r"2 \cos{\left(x \right)}"


def test_powers_of_one_letter_combined():
    assert latex(2 * sp.pi * b * b ** (-2 / d)) == r"2 \pi b^{1 - 2 / d}"


def test_fractions_in_scripts_inline():
    assert inline_fractions(r"b^{- \frac{2 i}{d}}") == r"b^{- 2 i / d}"
    assert inline_fractions(r"x^{\frac{d}{d - 2}}") == r"x^{d / \left(d - 2\right)}"
    assert inline_fractions(r"h_{\frac{d}{2} + i}") == r"h_{d / 2 + i}"
    assert inline_fractions(r"x^{\frac{a}{2 c}}") == r"x^{a / \left(2 c\right)}"
    assert inline_fractions(r"\frac{a}{b}") == r"\frac{a}{b}"  # not in a script
    assert "/" not in latex(sp.Max(x, 1) / 2)


def test_difference_positive_first():
    m, n = sp.symbols("m n")
    assert latex(-n + m) == "m - n"


def test_normalize_is_idempotent_and_unifies_function_names():
    tex = r"\mathrm{PE}(\mathrm{pos}) + \mathrm{pos} \left(a + b\right) + \phi^{T} \left|{x}\right| b^{\frac{1}{d}}"
    once = normalize(tex)
    assert once == (
        r"\operatorname{PE}(\mathrm{pos}) + \mathrm{pos} \left(a + b\right) + \varphi^{\top} "
        r"\left\lvert{x}\right\rvert b^{1 / d}"
    )
    assert normalize(once) == once


def test_angle_after_the_difference_and_one_logarithm():
    m, n, theta = sp.symbols("m n theta")
    assert latex(sp.exp(sp.I * theta * (m - n))) == r"e^{\mathrm{i} \left(m - n\right) \theta}"
    assert latex(-2 * theta * (m - n)) == r"- 2 \left(m - n\right) \theta"
    assert normalize(r"\log(1 + w) - \log_2 n") == r"\ln(1 + w) - \log_2 n"


def test_words_in_names_print_upright():
    s, j = sp.symbols("s j")
    assert latex(sp.Function("a_linear")(s)) == r"a_{\mathrm{linear}}{\left(s \right)}"
    assert latex(sp.Function("r_{first}")(j)) == r"r_{\mathrm{first}}{\left(j \right)}"
    assert latex(sp.Symbol("theta'_i")) == r"\theta'_{i}"
    assert latex(sp.MatrixSymbol("PE(k + pos)", d, 1)) == r"\operatorname{PE}(k + \mathrm{pos})"
    assert latex(sp.MatrixSymbol("Attn(PX)", d, d)) == r"\operatorname{Attn}(PX)"  # P X: a product of letters


def test_powers_of_an_integer_as_one_power():
    assert latex(sp.Integer(10000) ** sp.Rational(255, 256)) == r"10^{255 / 64}"  # not 1000 \cdot 10^{63/64}
    assert latex(sp.sin(sp.Pow(10, sp.Rational(-255, 64), evaluate=False))) == r"\sin{\left(10^{- 255 / 64} \right)}"
    assert latex(sp.Pow(10, -10, evaluate=False)) == "10^{-10}"
    assert latex(3 * sp.sqrt(2)) == r"3 \sqrt{2}"


def test_a_multi_letter_name_with_a_subscript_is_upright():
    assert latex(sp.Symbol("PE_m")) == r"\mathrm{PE}_{m}"
    assert latex(sp.Symbol("mu_all")) == r"\mu_{\mathrm{all}}"
    assert latex(sp.Symbol("theta_i")) == r"\theta_{i}"
