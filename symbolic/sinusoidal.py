r"""Sinusoidal position encoding (Vaswani et al. 2017, §3.5) and the claims 'Positional Encoding 101' makes of it.

``PE(pos, 2i) = sin(pos·θ_i)``, ``PE(pos, 2i+1) = cos(pos·θ_i)``, ``θ_i = b^{-2i/d}``. Identities that hold for
every width are stated with a symbolic even ``d`` and Sums over the ``d/2`` pairs, for any positive frequencies
``θ_i`` (so in particular the paper's); the article's worked examples are facts recomputed with mpmath.
"""

# Long module: the sinusoidal code is one scheme, in one place: its claims, its row of the rules table and the
# article's statements that its claims decide (about 80 lines of data at the end).

from __future__ import annotations

import mpmath
import sympy as sp
from posproof.numeric import sinusoid
from posproof.symbolic import sources, tables
from posproof.symbolic.engine.core import Definition, Domain, Fact, Kernel, Step, Theorem
from posproof.symbolic.symbols import TH
from posproof.symbolic.symbols import d_even as d

MATHS = sources.article("Maths behind Positional Encoding")
VASWANI = sources.VASWANI

# ---- symbols, named like the math -----------------------------------------------------------------------------
# d: encoded width d_model (symbolic.symbols.d_even)

i = sp.Symbol("i", integer=True, nonnegative=True)  # pair index 0 .. d/2 - 1
pos, m, n, t, k = sp.symbols("pos m n t k", real=True)  # positions and shifts (real: interpolation allowed)
b = sp.Symbol("b", positive=True)  # frequency base (10000 in the paper); claims that need b > 1 say so
theta = sp.Symbol("theta_i", positive=True)  # one pair's frequency, for per-pair lemmas
#: The frequencies θ_i. The identities below hold for ANY positive frequencies, so they are proved for free
#: components θ_i (Indexed) and hence in particular for the paper's θ_i = b^{-2i/d} (sinusoidal-definition).

THETA = TH
theta_i = THETA[i]
theta_paper = b ** (-2 * i / d)  # θ_i = b^{-2i/d}

SIZES = {d: (2, 4, 6, 16)}


# ---- named symbols for the short statements (formula=) ---------------------------------------------------------
def _pe(p, width=d) -> sp.MatrixSymbol:
    r"""``PE(p)``, the code of position ``p`` as a named column vector (statements only)."""
    return sp.MatrixSymbol(f"PE({p})", width, 1)


def _dot_pe(p, q_) -> sp.MatMul:
    return sp.MatMul(sp.Transpose(_pe(p)), _pe(q_))


LAMBDA = sp.IndexedBase("lambda", positive=True)  # wavelengths
#: A frequency base: b > 1 (the kernels refuse b <= 1), spread over six orders of magnitude.
BASE = Domain("real", 1.001, 1e6, log=True)
#: A pair index of a width d: 0 .. d/2 - 1.
PAIR = Domain("integer", 0, d / 2 - 1)
ASSUME = (
    "$d$ even and positive",
    r"$i = 0, \dots, d/2 - 1$ indexes the pairs",
    r"$\theta_i > 0$ any frequencies (the paper's are $b^{-2i/d}$)",
    "positions real",
)


def pairs(f) -> sp.Sum:
    r"""``Σ_{i=0}^{d/2-1} f``: a sum over the ``d/2`` frequency pairs."""
    return sp.Sum(f, (i, 0, d / 2 - 1))


def pe_pair(p, th=theta_i) -> sp.Matrix:
    r"""The pair ``(PE(p, 2i), PE(p, 2i+1)) = (sin pθ_i, cos pθ_i)``."""
    return sp.Matrix([sp.sin(p * th), sp.cos(p * th)])


def dot(p, q) -> sp.Sum:
    r"""``PE(p)·PE(q)`` written pair by pair."""
    return pairs(sp.sin(p * theta_i) * sp.sin(q * theta_i) + sp.cos(p * theta_i) * sp.cos(q * theta_i))


def phi(delta) -> sp.Sum:
    r"""``Σ_i cos(δ θ_i)``: the dot product as a function of the offset ``δ``."""
    return pairs(sp.cos(delta * theta_i))


# Strategy proving the pairwise dot product: expand the angle difference, then the products.
DOT = ("combine_sums", "expand", "expand_trig", "expand")
# Strategy through complex exponentials (Euler): products of exponentials combine exponents, angles cancel.
EULER = ("combine_sums", "trig_to_exp", "expand", "powsimp")


def _identity(id_, title, steps, **kw):
    kw.setdefault("assumptions", ASSUME)
    mentioned = set().union(*[_free_symbols(side) for st in steps for side in (st.lhs, st.rhs)])
    kw.setdefault("sizes", {sym: v for sym, v in SIZES.items() if sym in mentioned})  # sizes of what the claim has
    return Theorem(id_, title, "sinusoidal", kw.pop("source", VASWANI), tuple(steps), **kw)


def _free_symbols(e) -> set:
    if isinstance(e, sp.MatrixBase):
        return set().union(*[_free_symbols(x) for x in e])
    return set(e.free_symbols) if isinstance(e, sp.Basic) else set()


# ---- kernels: the encoding as numeric.sinusoid computes it ------------------------------------------------------


def _int(x) -> int:
    if not mpmath.isint(x):
        raise ValueError(f"expected an integer, got {x}")
    return int(x)


class PE(Kernel):
    r"""``PE(pos, c)``: component ``c`` of the sinusoidal code of width ``d`` and base ``b`` (args ``pos, c, d,
    b``), computed by :func:`numeric.sinusoid.sinusoidal_mp`; no symbolic unfolding (it is what is defined)."""

    nargs = 4

    @classmethod
    def numeric(cls, p, c, width, base):
        row = sinusoid.sinusoidal_mp([p], width=_int(width), base=base, dps=mpmath.mp.dps)[0]
        return row[_int(c)]

    def doit(self, **hints):
        return self

    def _latex(self, printer, exp=None):
        p, c, _, _ = self.args
        out = r"\operatorname{PE}\left(%s, %s\right)" % (printer._print(p), printer._print(c))
        return out if exp is None else r"%s^{%s}" % (out, exp)


class PairStep(Kernel):
    r"""``|PE_i(q) - PE_i(p)|``: how far pair ``i`` moves from position ``p`` to ``q`` (args ``p, q, i, d, b``),
    from :func:`numeric.sinusoid.sinusoidal_mp`."""

    nargs = 5

    @classmethod
    def numeric(cls, p, q, pair, width, base):
        rows = sinusoid.sinusoidal_mp([p, q], width=_int(width), base=base, dps=mpmath.mp.dps)
        c = 2 * _int(pair)
        return mpmath.sqrt((rows[1][c] - rows[0][c]) ** 2 + (rows[1][c + 1] - rows[0][c + 1]) ** 2)

    def doit(self, **hints):
        return self

    def _latex(self, printer, exp=None):
        p, q, pair, _, _ = self.args
        out = r"\left|\operatorname{PE}_{%s}\left(%s\right) - \operatorname{PE}_{%s}\left(%s\right)\right|" % (
            printer._print(pair), printer._print(q), printer._print(pair), printer._print(p),
        )  # fmt: skip
        return out if exp is None else r"%s^{%s}" % (out, exp)


class Proximity(Kernel):
    r"""``φ(k) = PE(0)·PE(k)`` of width ``d`` and base ``b`` (args ``k, d, b``), from
    :func:`numeric.sinusoid.sinusoidal_mp`."""

    nargs = 3

    @classmethod
    def numeric(cls, k_, width, base):
        rows = sinusoid.sinusoidal_mp([0, k_], width=_int(width), base=base, dps=mpmath.mp.dps)
        return mpmath.fsum(a * c for a, c in zip(rows[0], rows[1], strict=True))

    def doit(self, **hints):
        return self

    def _latex(self, printer, exp=None):
        out = r"\varphi\left(%s\right)" % printer._print(self.args[0])
        return out if exp is None else r"%s^{%s}" % (out, exp)


def definition() -> Definition:
    denom = sp.Pow(b, 2 * i / d, evaluate=False)
    lhs = sp.Matrix([PE(pos, 2 * i, d, b), PE(pos, 2 * i + 1, d, b)])
    return Definition(
        "sinusoidal-definition",
        r"The sinusoidal code: $\mathrm{PE}(\mathrm{pos}, 2i) = \sin(\mathrm{pos}/b^{2i/d})$, "
        r"$\mathrm{PE}(\mathrm{pos}, 2i+1) = \cos(\mathrm{pos}/b^{2i/d})$",
        "sinusoidal",
        f"{VASWANI}; {MATHS}",
        lhs,
        sp.Matrix([sp.sin(pos / denom), sp.cos(pos / denom)]),
        r"the paper's definition, interleaved; $1/b^{2i/d} = b^{-2i/d} =: \theta_i$",
        "numeric.sinusoid.sinusoidal_mp",
        assumptions=("$d$ even", r"$i = 0, \dots, d/2 - 1$", "$b > 1$ the base", "positions real"),
        sizes=SIZES,
        domains={"i": PAIR, "b": BASE},
        wrong=sp.Matrix([sp.sin(pos * b ** (-i / d)), sp.cos(pos * b ** (-i / d))]),
        notes=r"Every sinusoidal theorem below holds for arbitrary positive frequencies $\theta_i$, so for these.",
        formula=sp.Eq(lhs, sp.Matrix([sp.sin(pos * theta_paper), sp.cos(pos * theta_paper)]), evaluate=False),
    )


def denominators_512() -> Theorem:
    idx = (0, 128, 255)
    lhs = sp.Matrix([sp.Pow(10000, sp.Rational(2 * j, 512), evaluate=False) for j in idx])
    rhs = sp.Matrix([1, 100, 10 ** sp.Rational(255, 64)])
    return _identity(
        "sinusoidal-denominators-512",
        r"Worked example, $d_{\mathrm{model}} = 512$: denominators $10000^{2i/512}$ at $i = 0, 128, 255$",
        [Step(lhs, rhs, "exact powers of 10: $10000^{510/512} = 10^{255/64}$, not 10000", ("powsimp",))],
        source=sources.article(r"More on '$i$' and '$d_{\mathrm{model}}$'") + ", Examples A-C",
        assumptions=(r"$d_{\mathrm{model}} = 512$", "$b = 10000$"),
        sizes={},
        notes=(
            r"The article rounds 510/512 to 1 and writes 10000; the exact denominator is $10^{255/64} \approx "
            r"9646.6$."
        ),
        wrong=sp.Matrix([1, 100, 10000]),
        formula=sp.Eq(
            sp.Pow(10000, sp.Mul(510, sp.Pow(512, -1, evaluate=False), evaluate=False), evaluate=False),
            sp.Pow(10, sp.Rational(255, 64), evaluate=False),
            evaluate=False,
        ),
    )


def norm() -> Theorem:
    lhs = pairs(sp.sin(pos * theta_i) ** 2 + sp.cos(pos * theta_i) ** 2)
    return _identity(
        "sinusoidal-norm",
        r"Every position has the same norm: $|\mathrm{PE}(\mathrm{pos})|^2 = d/2$",
        [
            Step(lhs, pairs(sp.Integer(1)), r"$\sin^2 + \cos^2 = 1$ in every pair", ("combine_sums", "trigsimp")),
            Step(pairs(sp.Integer(1)), d / 2, "$d/2$ pairs", ("doit",)),
        ],
        wrong=d,
        formula=sp.Eq(_dot_pe(pos, pos), d / 2, evaluate=False),
    )


def shift_is_linear() -> Theorem:
    M_k = sp.Matrix([[sp.cos(k * theta_i), sp.sin(k * theta_i)], [-sp.sin(k * theta_i), sp.cos(k * theta_i)]])
    return _identity(
        "sinusoidal-shift-linear",
        r"$\mathrm{PE}(\mathrm{pos} + k) = M_k \mathrm{PE}(\mathrm{pos})$, with $M_k$ a rotation per pair that "
        "does not depend on pos",
        [
            Step(
                pe_pair(pos + k),
                M_k * pe_pair(pos),
                "angle-addition formulas, pair by pair",
                ("expand", "expand_trig", "expand"),
            )
        ],
        notes=(
            r"$M_k$ contains no $\mathrm{pos}$: the full $M_k$ is block diagonal with this $2 \times 2$ block "
            r"for each pair $i$, for any $d$."
        ),
        wrong=M_k.T * pe_pair(pos),
        formula=sp.Eq(_pe(pos + k), sp.MatMul(sp.MatrixSymbol("M_k", d, d), _pe(pos)), evaluate=False),
    )


def dot_product() -> Theorem:
    return _identity(
        "sinusoidal-dot-product",
        r"$\mathrm{PE}(m) \cdot \mathrm{PE}(n) = \sum_i \cos((m - n)\theta_i)$",
        [Step(dot(m, n), phi(m - n), r"$\cos(a - b) = \cos a \cos b + \sin a \sin b$ in every pair", DOT)],
        wrong=phi(m + n),
        formula=sp.Eq(_dot_pe(m, n), phi(m - n), evaluate=False),
    )


def translation_invariance() -> Theorem:
    return _identity(
        "sinusoidal-translation-invariance",
        r"Translation invariance: $\mathrm{PE}(m + t) \cdot \mathrm{PE}(n + t) = \mathrm{PE}(m) \cdot \mathrm{PE}(n)$",
        [
            Step(dot(m + t, n + t), phi(m - n), "dot-product identity; $(m + t) - (n + t) = m - n$", EULER),
            Step(phi(m - n), dot(m, n), "dot-product identity, read backwards", DOT),
        ],
        wrong=dot(m + 2 * t, n + t),
        formula=sp.Eq(_dot_pe(m + t, n + t), _dot_pe(m, n), evaluate=False),
    )


def symmetry() -> Theorem:
    return _identity(
        "sinusoidal-symmetry",
        r"Symmetry: $\mathrm{PE}(m) \cdot \mathrm{PE}(n) = \mathrm{PE}(n) \cdot \mathrm{PE}(m)$",
        [
            Step(dot(m, n), phi(m - n), "dot-product identity", DOT),
            Step(phi(m - n), phi(n - m), r"$\cos$ is even", ("combine_sums", "expand")),
            Step(phi(n - m), dot(n, m), "dot-product identity, read backwards", DOT),
        ],
        wrong=pairs(sp.sin((n - m) * theta_i)),
        formula=sp.Eq(_dot_pe(m, n), _dot_pe(n, m), evaluate=False),
    )


def neighbour_distance() -> Theorem:
    step = pairs(
        (sp.sin((pos + 1) * theta_i) - sp.sin(pos * theta_i)) ** 2
        + (sp.cos((pos + 1) * theta_i) - sp.cos(pos * theta_i)) ** 2
    )
    return _identity(
        "sinusoidal-neighbour-distance",
        r"Neighbours are equally far apart everywhere: $|\mathrm{PE}(\mathrm{pos}+1) - \mathrm{PE}(\mathrm{pos})|^2 "
        r"= \sum_i 4 \sin^2(\theta_i/2)$",
        [
            Step(
                step,
                pairs(2 - 2 * sp.cos(theta_i)),
                r"expand the squares; $\sin^2 + \cos^2 = 1$; angle addition",
                EULER,
            ),
            Step(
                pairs(2 - 2 * sp.cos(theta_i)),
                pairs(4 * sp.sin(theta_i / 2) ** 2),
                "half-angle formula",
                ("combine_sums", "trig_to_exp", "expand"),
            ),
        ],
        notes="Unlike binary codes, the step from one position to the next has the same size at every position; "
        r"pair $i$ contributes $2|\sin(\theta_i/2)|$ to it.",
        wrong=pairs(4 * sp.sin(theta_i) ** 2),
        formula=sp.Eq(
            sp.MatMul(sp.Transpose(_pe(pos + 1) - _pe(pos)), _pe(pos + 1) - _pe(pos)),
            pairs(4 * sp.sin(theta_i / 2) ** 2),
            evaluate=False,
        ),
    )


def wavelengths() -> Theorem:
    lam = 2 * sp.pi / theta_paper  # λ_i = 2π/θ_i
    lam_next = lam.subs(i, i + 1)
    last = lam.subs(i, d / 2 - 1)
    longest = 2 * sp.pi * b / b ** (2 / d)
    return _identity(
        "sinusoidal-wavelengths",
        r"Wavelengths $2\pi/\theta_i$ form a geometric progression with ratio $b^{2/d}$; the longest is "
        r"$2\pi b^{1 - 2/d} < 2\pi b$",
        [
            Step(
                lam_next / lam,
                b ** (2 / d),
                "consecutive wavelengths: ratio $b^{2/d}$, independent of $i$",
                ("powsimp",),
            ),
            Step(last, longest, "the longest, at $i = d/2 - 1$", ("expand", "powsimp")),
            Step(
                longest,
                2 * sp.pi * b,
                r"$b^{2/d} > 1$ for $b > 1$: compare logarithms, "
                r"$\log(2\pi b) - \log(2\pi b^{1-2/d}) = (2/d) \log b > 0$",
                ("log_sides", "expand_log", "expand"),
                rel="<",
            ),
        ],
        lhs=last,
        rhs=2 * sp.pi * b,
        rel="<",
        strategy=("log_sides", "expand_log", "expand"),
        given=(sp.Q.gt(b, 1),),
        assumptions=(*ASSUME, "$b > 1$"),
        domains={"b": BASE},
        notes=(
            r"The paper's 'from $2\pi$ to $10000 \cdot 2\pi$' is the limit $d \to \infty$; for $d = 512$ the "
            r"longest wavelength is $2\pi \cdot 10^{255/64} \approx 60611$, not 62832."
        ),
        wrong=2 * sp.pi * b / b ** (4 / d),
        formula=(
            sp.Eq(LAMBDA[i + 1] / LAMBDA[i], b ** (2 / d), evaluate=False),
            sp.Lt(LAMBDA[d / 2 - 1], 2 * sp.pi * b, evaluate=False),
        ),
    )


def pair_separation() -> Theorem:
    return _identity(
        "sinusoidal-pair-separation",
        r"One pair moves $2|\sin(\theta_i/2)|$ per position step: fast pairs separate neighbours, slow pairs barely "
        "move",
        [
            Step(
                sp.expand(
                    (pe_pair(pos + 1, theta) - pe_pair(pos, theta)).T * (pe_pair(pos + 1, theta) - pe_pair(pos, theta))
                )[0],
                2 - 2 * sp.cos(theta),
                r"expand; $\sin^2 + \cos^2 = 1$; angle addition",
                ("expand", "expand_trig", "expand", "trigsimp"),
            ),
            Step(2 - 2 * sp.cos(theta), 4 * sp.sin(theta / 2) ** 2, "half-angle formula", ("trig_to_exp", "expand")),
        ],
        sizes={},
        wrong=4 * sp.sin(theta) ** 2,
        formula=sp.Eq(PairStep(pos, pos + 1, i, d, b), 2 * sp.Abs(sp.sin(theta / 2)), evaluate=False),
    )


# ---- facts (computed with mpmath) -----------------------------------------------------------------------------

EXAMPLES = sources.article(r"More on '$i$' and '$d_{\mathrm{model}}$'") + ", Examples A-C"
K = sp.Symbol("k", integer=True)  # an integer distance


def _fmt(v, digits: int) -> str:
    return mpmath.nstr(v, digits, strip_zeros=False)


def _worked_examples(dps, exponent=lambda j: mpmath.mpf(2 * j) / 512):
    idx = (0, 128, 255)
    den = [mpmath.mpf(10000) ** exponent(j) for j in idx]
    val = [mpmath.sin(1 / x) for x in den]
    value = {"denominator": [_fmt(x, 8) for x in den], r"$\sin(1/\mathrm{denominator})$": [_fmt(x, 6) for x in val]}
    table = [(f"$i = {j}$: $10000^{{{2 * j}/512}}$", x) for j, x in zip(idx, den, strict=True)]
    table += [(f"$i = {j}$: " + r"$\sin(1/10000^{%d/512})$" % (2 * j), x) for j, x in zip(idx, val, strict=True)]
    return value, table


def worked_examples_512() -> Fact:
    return Fact(
        "sinusoidal-worked-examples-512",
        r"Worked examples A-C for $d_{\mathrm{model}} = 512$ at $\mathrm{pos} = 1$, recomputed",
        "sinusoidal",
        EXAMPLES,
        r"At $i = 255$ the denominator is $10^{255/64} \approx 9646.6$ (the article rounds the exponent 510/512 to 1 "
        r"and writes 10000), so the value is $\sin(1.0366 \cdot 10^{-4})$, not $\sin(0.0001)$.",
        {
            "denominator": ["1.0000000", "100.00000", "9646.6162"],
            r"$\sin(1/\mathrm{denominator})$": ["0.841471", "0.00999983", "0.000103663"],
        },
        _worked_examples,
        method="mpmath at {dps} digits",
        wrong=lambda dps: _worked_examples(dps, exponent=lambda j: mpmath.mpf(round(2 * j / 512, 2))),
        definitions=(
            Definition(
                "sinusoidal-worked-examples-512:PE",
                r"$\mathrm{PE}(1, 2i)$ for $d_{\mathrm{model}} = 512$",
                "sinusoidal",
                EXAMPLES,
                PE(1, 2 * i, 512, 10000),
                sp.sin(1 / sp.Pow(10000, 2 * i / 512, evaluate=False)),
                r"the definition at $\mathrm{pos} = 1$, $d_{\mathrm{model}} = 512$, $b = 10000$",
                "numeric.sinusoid.sinusoidal_mp",
                domains={"i": Domain("integer", 0, 255)},
            ),
        ),
        notes=r"Rounding the exponent $2i/512$ to two decimals, as the article does, gives other values.",
        formula=sp.Eq(
            PE(1, 510, 512, 10000), sp.sin(sp.Pow(10, sp.Rational(-255, 64), evaluate=False)), evaluate=False
        ),
    )


#: The article's table for "The cat sat" (d_model = 4), as printed there.
ARTICLE_DRY_RUN = [
    ["0.00", "1.00", "0.00", "1.00"],
    ["0.84", "0.54", "0.01", "0.99"],
    ["0.91", "-0.42", "0.02", "0.99"],
]


def _two_decimals(x) -> str:
    r"""Round half away from zero to two decimals, exactly (mpmath at the working precision)."""
    q = int(mpmath.sign(x) * mpmath.floor(abs(x) * 100 + mpmath.mpf(1) / 2))
    return f"{'-' if q < 0 else ''}{abs(q) // 100}.{abs(q) % 100:02d}"


def _truncate_two_decimals(x) -> str:
    q = int(mpmath.sign(x) * mpmath.floor(abs(x) * 100))
    return f"{'-' if q < 0 else ''}{abs(q) // 100}.{abs(q) % 100:02d}"


def _dry_run(dps, rounding=_two_decimals):
    rows = sinusoid.sinusoidal_mp([0, 1, 2], width=4, base=10000, dps=dps)
    value = [[rounding(x) for x in row] for row in rows]
    table = [
        (f"PE({p}) for '{w}'", [mpmath.nstr(x, 6) for x in row])
        for p, w, row in zip((0, 1, 2), ("The", "cat", "sat"), rows, strict=True)
    ]
    return value, table


def dry_run_d4() -> Fact:
    return Fact(
        "sinusoidal-dry-run-d4",
        r"Dry run $d_{\mathrm{model}} = 4$ for 'The cat sat', rounded to two decimals",
        "sinusoidal",
        sources.article("Simple Dry-Run :"),
        r"Reproduces the article's table except dimension 3 at $\mathrm{pos} = 1$ and 2: $\cos(0.01) = 0.99995$ and "
        r"$\cos(0.02) = 0.99980$ round to 1.00; the article prints 0.99 (truncation, not rounding).",
        [["0.00", "1.00", "0.00", "1.00"], ["0.84", "0.54", "0.01", "1.00"], ["0.91", "-0.42", "0.02", "1.00"]],
        _dry_run,
        method="mpmath at {dps} digits (numeric.sinusoid.sinusoidal_mp), rounded half away from zero",
        wrong=lambda dps: _dry_run(dps, rounding=_truncate_two_decimals),
        definitions=(
            Definition(
                "sinusoidal-dry-run-d4:PE",
                r"$\mathrm{PE}(\mathrm{pos})$ for $d_{\mathrm{model}} = 4$",
                "sinusoidal",
                sources.article("Simple Dry-Run :"),
                sp.Matrix([PE(pos, c, 4, 10000) for c in range(4)]),
                sp.Matrix([sp.sin(pos), sp.cos(pos), sp.sin(pos / 100), sp.cos(pos / 100)]),
                r"$d_{\mathrm{model}} = 4$, $b = 10000$: denominators 1 and 100",
                "numeric.sinusoid.sinusoidal_mp",
            ),
        ),
        notes="Truncating to two decimals, as the article's table does, gives other values.",
        formula=sp.Eq(
            sp.Transpose(_pe(1, 4)),
            sp.ImmutableMatrix([[sp.sin(1), sp.cos(1), sp.sin(sp.Rational(1, 100)), sp.cos(sp.Rational(1, 100))]]),
            evaluate=False,
        ),
    )


MONOTONE = {4: 3, 64: 5, 128: 11, 512: 43}


def _monotone(dps, exponent=lambda j, width: mpmath.mpf(2 * j) / width):
    value, table = {}, []
    for width in MONOTONE:
        th = [mpmath.mpf(10000) ** (-exponent(j, width)) for j in range(width // 2)]
        phi_k = lambda kk, th=th: mpmath.fsum(mpmath.cos(kk * x) for x in th)  # φ(k) = Σ_i cos(kθ_i)
        prev, kk = phi_k(0), 0
        while True:
            cur = phi_k(kk + 1)
            if cur >= prev:
                break
            prev, kk = cur, kk + 1
        value[width] = kk
        label = rf"$d = {width}$: $\varphi({kk})$, $\varphi({kk + 1})$"
        table.append((label, [mpmath.nstr(prev, 10), mpmath.nstr(cur, 10)]))
    return value, table


def monotone_range() -> Fact:
    return Fact(
        "sinusoidal-monotone-range",
        r"Monotonicity holds only at short range: $\varphi(k) = \mathrm{PE}(0) \cdot \mathrm{PE}(k)$ strictly "
        r"decreases for $k = 0, \dots, K$, then rises",
        "sinusoidal",
        f"{sources.article('Rules any Positional Encoding Method must follow')}; {sources.WANG}",
        r"For integer distances $k$, $\varphi(0) > \varphi(1) > \dots > \varphi(K)$ and $\varphi(K+1) > \varphi(K)$, "
        r"with $K = 3, 5, 11, 43$ for $d_{\mathrm{model}} = 4, 64, 128, 512$ ($b = 10000$).",
        {str(w): K_ for w, K_ in MONOTONE.items()},
        _monotone,
        method="mpmath at {dps} digits",
        wrong=lambda dps: _monotone(dps, exponent=lambda j, width: mpmath.mpf(j) / width),
        definitions=(
            Definition(
                "sinusoidal-monotone-range:phi",
                r"$\varphi(k) = \mathrm{PE}(0) \cdot \mathrm{PE}(k)$",
                "sinusoidal",
                sources.WANG,
                Proximity(K, d, 10000),
                pairs(sp.cos(K * sp.Integer(10000) ** (-2 * i / d))),
                r"the proximity of the sinusoidal code: pair $i$ contributes "
                r"$\sin 0 \sin k\theta_i + \cos 0 \cos k\theta_i$",
                "numeric.sinusoid.sinusoidal_mp",
                sizes={d: (4, 64, 128, 512)},
            ),
        ),
        notes="The frequencies $10000^{-i/d}$ (the '$i/d$ instead of $2i/d$' slip) give other values.",
        formula=(
            sp.Lt(Proximity(K + 1, 512, 10000), Proximity(K, 512, 10000), evaluate=False),
            sp.Contains(K, sp.Range(0, 43), evaluate=False),
            sp.Gt(Proximity(44, 512, 10000), Proximity(43, 512, 10000), evaluate=False),
        ),
    )


def _near_repeats(dps, gap_of=lambda kk: 2 * abs(mpmath.sin(mpmath.mpf(kk) / 2))):
    best, records = mpmath.inf, []
    for kk in range(1, 1001):
        gap = gap_of(kk)  # |PE_pair0(k) - PE_pair0(0)| = 2|sin(k/2)|
        if gap < best:
            best = gap
            records.append((kk, gap))
    value = [kk for kk, _ in records]
    table = [(f"$k = {kk}$: " + r"$2 |\sin(k/2)|$", g) for kk, g in records]
    table.append((r"$\sin 0$, $\sin 6$", [mpmath.sin(0), mpmath.nstr(mpmath.sin(6), 6)]))
    return value, table


def fast_wave_repeats() -> Fact:
    return Fact(
        "sinusoidal-fast-wave-near-repeats",
        r"The fastest pair ($\theta_0 = 1$) never repeats exactly; its closest returns up to $k = 1000$",
        "sinusoidal",
        sources.article("The Right Graph: The Problem with Distant Words"),
        r"Distance of pair 0 between positions 0 and $k$ is $2|\sin(k/2)|$; record minima for $k \le 1000$ occur at "
        r"$k = 1, 6, 19, 25, 44, 333, 710$ (approximations of multiples of $2\pi$). At $k = 6$ the gap is 0.282: "
        r"$\sin 6 = -0.279$, not the same height as $\sin 0 = 0$, as the article's figure suggests.",
        [1, 6, 19, 25, 44, 333, 710],
        _near_repeats,
        method="mpmath at {dps} digits",
        wrong=lambda dps: _near_repeats(dps, gap_of=lambda kk: abs(mpmath.sin(mpmath.mpf(kk)))),
        definitions=(
            Definition(
                "sinusoidal-fast-wave-near-repeats:gap",
                "the distance of pair 0 between positions 0 and k",
                "sinusoidal",
                VASWANI,
                PairStep(0, K, 0, 4, 10000),
                2 * sp.Abs(sp.sin(K / 2)),
                r"$|(\sin k, \cos k) - (0, 1)|^2 = 2 - 2 \cos k = 4 \sin^2(k/2)$",
                "numeric.sinusoid.sinusoidal_mp",
            ),
        ),
        notes=r"$\lvert \sin k \rvert$ (one coordinate) is not the pair's distance.",
        formula=(
            sp.Eq(PairStep(0, K, 0, 4, 10000), 2 * sp.Abs(sp.sin(K / 2)), evaluate=False),
            sp.Ne(sp.sin(6), sp.sin(0), evaluate=False),
        ),
    )


def _fast_slow(dps, exponent=lambda j: mpmath.mpf(2 * j) / 512):
    idx = (0, 128, 255)
    th = [mpmath.mpf(10000) ** (-exponent(j)) for j in idx]
    sep = [2 * mpmath.sin(x / 2) for x in th]  # 2 sin(θ_i/2): the pair's move per position step
    value = [_fmt(x, 4) for x in sep]
    return value, [(f"$i = {j}$: " + r"$2 \sin(\theta_i/2)$", x) for j, x in zip(idx, sep, strict=True)]


def fast_slow_separation() -> Fact:
    return Fact(
        "sinusoidal-fast-slow-separation",
        r"Fast pairs tell neighbours apart, slow pairs barely move: per-pair step for $d_{\mathrm{model}} = 512$",
        "sinusoidal",
        sources.article("Differentiating between Nearby and Distant Words"),
        r"By `sinusoidal-pair-separation`, pair $i$ moves $2 \sin(\theta_i/2)$ per position step: 0.9589 for the "
        r"fastest pair ($i = 0$), 0.01000 at $i = 128$ and $1.037 \cdot 10^{-4}$ for the slowest ($i = 255$), a ratio "
        "of about 9250.",
        ["0.9589", "0.01000", "0.0001037"],
        _fast_slow,
        method="mpmath at {dps} digits",
        wrong=lambda dps: _fast_slow(dps, exponent=lambda j: mpmath.mpf(2 * j + 2) / 512),
        definitions=(
            Definition(
                "sinusoidal-fast-slow-separation:step",
                r"the move of pair $i$ from one position to the next, $d_{\mathrm{model}} = 512$",
                "sinusoidal",
                VASWANI,
                PairStep(0, 1, i, 512, 10000),
                2 * sp.sin(sp.Integer(10000) ** (-2 * i / 512) / 2),
                "`sinusoidal-pair-separation` at $d = 512$, $b = 10000$",
                "numeric.sinusoid.sinusoidal_mp",
                domains={"i": Domain("integer", 0, 255)},
            ),
        ),
        notes=(
            r"Indexing the frequencies from 1 ($\theta_i = 10000^{-2(i+1)/512}$), an "
            r"off-by-one, gives other values."
        ),
        formula=sp.Eq(
            PairStep(0, 1, i, 512, 10000), 2 * sp.sin(sp.Integer(10000) ** (-2 * i / 512) / 2), evaluate=False
        ),
    )


def claims() -> list:
    return [
        definition(),
        denominators_512(),
        worked_examples_512(),
        dry_run_d4(),
        norm(),
        shift_is_linear(),
        dot_product(),
        translation_invariance(),
        symmetry(),
        neighbour_distance(),
        pair_separation(),
        fast_slow_separation(),
        wavelengths(),
        monotone_range(),
        fast_wave_repeats(),
    ]


# ---- the rules table: the sinusoidal row (symbolic.tables) -----------------------------------------------------


def _new_angles(v, L0: int, L: int) -> str:
    first = "" if v["first such pair"] is None else f" (pairs {v['first such pair']}..255)"
    return f"{v['pairs with angles beyond the trained range']} of 256 pairs see new angles{first} at d = 512"


#: The pairs that see angles training never showed (Transformer-XL's R_r has the same).
LENGTH = tables.Length("properties-length-sinusoidal", _new_angles)

RULES_ROWS = (
    tables.Row(
        40,
        "sinusoidal",
        tables.phi(tables.pairs(sp.cos((tables.m - tables.n) * tables.theta_i))),
        (
            tables.Cell("sinusoidal-monotone-range", read=tables.key("512"), note="$d = 512$, $b = 10^4$"),
            tables.Cell("sinusoidal-translation-invariance", "holds"),
            tables.Cell("sinusoidal-symmetry", "holds"),
        ),
        LENGTH,
    ),
)


# ---- the texts: the statements of the article and the RoPE note that this module's claims decide ---------------
# (symbolic.tables; the first number is the statement's place in the texts, the verdicts are V verified, C corrected,
# R holds on a range, X not checkable)


def _annotations() -> tuple[tables.Annotation, ...]:
    a, n, S, T = tables.in_article, tables.in_note, tables.S, tables.T
    V, C, R, X = tables.ANNOTATION_VERDICTS
    return (
        # Maths behind Positional Encoding
        a(120, S[5], "Even dimensions ($2i$): Use the sin function", "Even dims use sin, odd dims cos.", V,
          "sinusoidal-definition"),
        a(140, S[5], "gets exponentially larger", "The denominator 10000^(2i/d) grows exponentially with i: early dims "
          "are fast, late dims slow.", V, "sinusoidal-wavelengths"),
        # More on '$i$' and '$d_{model}$'
        a(170, S[6], "$10000^0 = 1$", "Example A: i = 0 gives denominator 1 and sin(1) at pos 1.", V,
          "sinusoidal-worked-examples-512", (("denominator", 0), (r"$\sin(1/\mathrm{denominator})$", 0))),
        a(180, S[6], "the output changes drastically", "At i = 0 the value changes drastically from one position to "
          "the next.", V, "sinusoidal-fast-slow-separation", ((0,),), note="pair 0 moves this far per position step"),
        a(190, S[6], "(which is the square root of 10000) = 100", "Example B: i = 128 gives exponent 0.5, denominator "
          "100, sin(0.01).", V, "sinusoidal-worked-examples-512",
          (("denominator", 1), (r"$\sin(1/\mathrm{denominator})$", 1))),
        a(220, S[6], "$10000^1 = 10000$", "Example C: i = 255 gives exponent ≈ 1, denominator 10000, sin(0.0001).", C,
          "sinusoidal-worked-examples-512", (("denominator", 2), (r"$\sin(1/\mathrm{denominator})$", 2)),
          ("10000", "0.0001"), "the exponent is 510/512, the denominator 10^(255/64)"),
        a(230, S[6], "almost like a constant, gentle slope", "The last pair barely changes over a sentence.", V,
          "sinusoidal-fast-slow-separation", ((2,),), note="pair 255 moves this far per position step"),
        # Simple Dry-Run :
        a(240, S[7], "$10000^{2(1)/4} = 10000^{0.5} = \\mathbf{100}$", "At d_model = 4 the denominators are 1 and 100.",
          V, "sinusoidal-dry-run-d4", note="the fact's definition checks PE(pos) = (sin pos, cos pos, sin(pos/100), "
          "cos(pos/100))"),
        a(250, S[7], "[0.00, 1.00, 0.00, 1.00]", "'The' (pos 0) gets [0.00, 1.00, 0.00, 1.00].", V,
          "sinusoidal-dry-run-d4", ((0,),), (["0.00", "1.00", "0.00", "1.00"],)),
        a(260, S[7], "[0.84, 0.54, 0.01, 0.99]", "'cat' (pos 1) gets [0.84, 0.54, 0.01, 0.99].", C,
          "sinusoidal-dry-run-d4", ((1, 3),), ("0.99",), "cos(0.01) = 0.99995 rounds to 1.00"),
        a(270, S[7], "[0.91, -0.42, 0.02, 0.99]", "'sat' (pos 2) gets [0.91, -0.42, 0.02, 0.99].", C,
          "sinusoidal-dry-run-d4", ((2, 3),), ("0.99",), "cos(0.02) = 0.99980 rounds to 1.00"),
        a(280, S[7], "jumped wildly from 0.00 to 0.84 to 0.91", "The fast dims go 0.00, 0.84, 0.91 (sin) and 1.00, "
          "0.54, -0.42 (cos).", V, "sinusoidal-dry-run-d4", ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)),
          ("0.00", "0.84", "0.91", "1.00", "0.54", "-0.42")),
        a(290, S[7], "barely crept up from 0.00 to 0.01 to 0.02", "The slow sine dim goes 0.00, 0.01, 0.02.", V,
          "sinusoidal-dry-run-d4", ((0, 2), (1, 2), (2, 2)), ("0.00", "0.01", "0.02")),
        # The Left Graph: The Problem with Nearby Words
        a(380, S[9], "They are at almost the exact same height", "Positions 0 and 1 are at nearly the same height on "
          "the slow wave and far apart on the fast one.", V, "sinusoidal-fast-slow-separation", ((0,), (2,)),
          note="per-step moves of the fastest and the slowest pair at d = 512"),
        # The Right Graph: The Problem with Distant Words
        a(420, S[10], "This is the actual math for that first dimension wave", "On the first dimension sin(0) = 0.00 "
          "and sin(1) = 0.84.", V, "sinusoidal-dry-run-d4", ((0, 0), (1, 0)), ("0.00", "0.84")),
        # Postional Encoding vs Word Embedding
        a(440, S[11], "Word 1 gets ticket #0.84", "High-frequency wave: word 0 gets 0.00, word 1 gets 0.84.", V,
          "sinusoidal-dry-run-d4", ((0, 0), (1, 0)), ("0.00", "0.84")),
        # Rules any Positional Encoding Method must follow
        a(470, S[12], "Monotonicity: If two words are pushed further apart", "Monotonicity: the proximity falls as two "
          "words move apart (the sinusoidal code presented).", R, "sinusoidal-monotone-range", ("512", "128"),
          note="PE(m)·PE(n) falls only up to these distances at d = 512, 128; 'posproof properties' judges every "
          "scheme"),
        a(480, S[12], "Translation Invariance: The relative relationship", "Translation invariance: shifting the "
          "sentence ('Yesterday, the dog ...') keeps the relation of 'dog' and 'pig'.", V,
          "sinusoidal-translation-invariance", note="for PE(m)·PE(n); the full score with general W_q, W_k is not "
          "([[claim:attention-position-term-not-relative]])"),
        a(490, S[12], "Symmetry: The distance from Word A to Word B", "Symmetry: the proximity of A to B equals that "
          "of B to A.", V, "sinusoidal-symmetry"),
        # Maths behind RoPE
        a(750, S[18], "slightly slower angle ($\\theta_1$)", "Dims 0, 1 turn fastest (θ_0), dims 2, 3 slightly slower "
          "(θ_1), and so on.", V, "sinusoidal-wavelengths", note="consecutive frequencies differ by b^(-2/d): 0.87 at "
          "d = 128, 0.01 at d = 4"),
        # Summary
        a(860, S[20], "This creates a \"sheer cliff\" between adjacent words", "Fast dims make a sheer cliff between "
          "neighbours.", V, "sinusoidal-fast-slow-separation", ((0,),), note="0.959 per step on pair 0; that the model "
          "then never blurs order is not checkable"),
        # the RoPE note: Positional encoding: give tokens a sense of order
        n(990, T[0], "added position-dependent sine and cosine vectors", "The original Transformer adds sine and "
          "cosine vectors.", V, "sinusoidal-definition"),
        # the RoPE note: Rotate pairs, preserve their length
        n(1050, T[1], "several positional scales", "Pairs rotate at different rates: several positional scales.", V,
          "sinusoidal-wavelengths", note="the wavelengths form a geometric progression"),
    )  # fmt: skip


ANNOTATIONS = _annotations()
