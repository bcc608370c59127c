r"""RoPE (Su et al., RoFormer, arXiv 2104.09864): complex form, real 2-D form, block-diagonal ``R_m`` for any
even width ``d``, the element-wise kernel, the two pair layouts, and the long-term decay bound.

Conventions (named, never assumed): ``m`` is the query position and ``n`` the key position; a query rotated by
``m theta`` and a key rotated by ``n theta`` score ``q^T R((n - m) theta) k`` (the key's rotation minus the query's;
in complex form ``q conj(k) e^{i (m - n) theta}``). Pairs are indexed ``i = 0 .. d/2 - 1`` with frequencies
``theta_i`` (``b^(-2i/d)`` in practice, but every identity here holds for arbitrary real ``theta_i``); the article
numbers its blocks ``theta_1, theta_2, ...``, we count from 0 like the code. **Interleaved** pairs are channels
``(2i, 2i + 1)``; **half** pairs are channels ``(i, i + d/2)``.

>>> [c.id for c in claims()][:2]
['rope-complex-relative', 'rope-2d-rotation-product']
"""

# Long module: RoPE is one scheme (the design card: one module per scheme, mirrored by numeric/rotary.py); its
# forms (complex, real 2-D, block-diagonal, element-wise, layouts) share the kernels and symbols defined at the top,
# and the decay facts (about 200 lines) are the only seam; context extension already lives in symbolic/scaling*.

from __future__ import annotations

import random
from typing import Any

import mpmath
import sympy as sp
from posproof.symbolic import lemmas, sources, tables
from posproof.symbolic.engine import fragment, settings
from posproof.symbolic.engine.core import Definition, Domain, Fact, Kernel, Step, Theorem
from posproof.symbolic.symbols import TH_real, theta
from posproof.symbolic.symbols import d_even as d
from sympy.core.sympify import _sympify

TOPIC = "rope"
ROFORMER = sources.ROFORMER
ARTICLE = sources.article("Maths behind RoPE")

I = sp.I
#: Query and key positions (integers: token indices).
m, n = sp.symbols("m n", integer=True)
#: One frequency ``theta`` (the 2-D case; symbolic.symbols) and two generic angles.
a, b = sp.symbols("a b", real=True)
#: The encoded width ``d`` (even: symbolic.symbols.d_even); the pair index ``i``; ``d/2`` planes.
i = sp.Symbol("i", integer=True, nonnegative=True)
half = d / 2
#: Per-pair frequencies (any real: symbolic.symbols.TH_real), query/key components (real), and complex query/key
#: pairs.
th = TH_real
qc, kc = sp.symbols("q k")  # complex numbers, one 2-D pair each
q = sp.IndexedBase("q", real=True)
k = sp.IndexedBase("k", real=True)
x = sp.IndexedBase("x", real=True)

#: Widths tried numerically for claims over a symbolic ``d`` (1, 2, 3 and 5 planes).
D_SIZES = {d: (2, 4, 6, 10)}

# ---- named symbols for the short statements (formula=) ---------------------------------------------------------
_Rm, _Rn = sp.MatrixSymbol("R_m", d, d), sp.MatrixSymbol("R_n", d, d)
_Rnm = sp.MatrixSymbol("R_{n-m}", d, d)
_qv, _kv = sp.MatrixSymbol("q", d, 1), sp.MatrixSymbol("k", d, 1)
_P = sp.MatrixSymbol("P", d, d)  # the layout permutation
_S = sp.Function("S")  # RoFormer's partial sums S_j (display only)
_score = sp.Function("s")  # a score as a function of the two positions


# --------------------------------------------------------------------------------------------------------------
# Small printable objects: R(a) as a named 2x2 matrix, a named 2-vector, the scalar u^T v, and (P q)_{i + s d/2}.
# --------------------------------------------------------------------------------------------------------------


@fragment.notation
class Rot(sp.MatrixExpr):
    r"""``R(a) = [[cos a, -sin a], [sin a, cos a]]``: prints as ``R(a)``, ``doit()`` gives the explicit matrix."""

    def __new__(cls, angle):
        return sp.Basic.__new__(cls, _sympify(angle))  # strict: numbers and SymPy objects, never strings

    @property
    def angle(self):
        return self.args[0]

    @property
    def shape(self):
        return (sp.Integer(2), sp.Integer(2))

    def explicit(self) -> sp.ImmutableMatrix:
        c, s = sp.cos(self.angle), sp.sin(self.angle)
        return sp.ImmutableMatrix([[c, -s], [s, c]])

    def _entry(self, r, c, **kwargs):
        return self.explicit()[r, c]

    def doit(self, **hints):
        return self.explicit()

    def _latex(self, printer):
        return r"R\left(%s\right)" % printer._print(self.angle)

    def _sympystr(self, printer):
        return "R(%s)" % printer._print(self.angle)


@fragment.notation
class Vec(sp.MatrixExpr):
    r"""A named real column 2-vector ``(v_0, v_1)^T`` whose entries are the Indexed ``v[0]``, ``v[1]``."""

    def __new__(cls, base: sp.IndexedBase):
        return sp.Basic.__new__(cls, base)

    @property
    def shape(self):
        return (sp.Integer(2), sp.Integer(1))

    def explicit(self) -> sp.ImmutableMatrix:
        return sp.ImmutableMatrix([self.args[0][0], self.args[0][1]])

    def _entry(self, r, c, **kwargs):
        return self.args[0][r]

    def doit(self, **hints):
        return self.explicit()

    def _latex(self, printer):
        return printer._print(self.args[0].label)

    def _sympystr(self, printer):
        return str(self.args[0].label)


@fragment.notation
class Dot(sp.Expr):
    r"""The scalar ``u^T v`` of two column vectors (printed so; ``doit()`` multiplies the explicit matrices)."""

    is_commutative = True

    def __new__(cls, u, v):
        return sp.Expr.__new__(cls, u, v)

    def doit(self, **hints):
        u, v = (sp.ImmutableMatrix(w.doit()) if not isinstance(w, sp.MatrixBase) else w for w in self.args)
        return (u.T * v)[0, 0]

    def written_form(self):
        r"""``u^T v`` as a 1 x 1 matrix product (the numeric check multiplies it out as written)."""
        u, v = self.args
        return sp.MatMul(sp.Transpose(u), v, evaluate=False)

    def _latex(self, printer):
        u, v = self.args
        left = printer._print(u)
        if not isinstance(u, (Vec, sp.MatrixSymbol)):
            left = r"\left(%s\right)" % left
        return r"%s^{T} %s" % (left, printer._print(v))

    def _sympystr(self, printer):
        u, v = self.args
        return "(%s).T*(%s)" % (printer._print(u), printer._print(v))


class Permuted(Kernel):
    r"""``(P v)_c``: channel ``c`` of the permutation taking interleaved pairs ``(2i, 2i+1)`` to half pairs
    ``(i, i + d/2)`` (args ``v, c, d``): ``(P v)_c = v_{2c}`` for ``c < d/2`` and ``v_{2c - d + 1}`` otherwise.
    ``doit()`` writes that definition; numerically the channel is taken from
    :func:`numeric.rotary.layout_permutation`, the permutation the code applies."""

    nargs = 3

    @classmethod
    def numeric(cls, table, c, width):
        from posproof.numeric.rotary import layout_permutation

        return table[int(layout_permutation(int(width))[int(c)])]

    def doit(self, **hints):
        base, c, width = self.args
        return sp.Piecewise((base[2 * c], c < width / 2), (base[2 * c - width + 1], True))

    def _latex(self, printer, exp=None):
        base, c, _ = self.args
        out = r"\left(P %s\right)_{%s}" % (printer._print(base.label), printer._print(c))
        return out if exp is None else r"%s^{%s}" % (out, exp)


class RopeEntry(Kernel):
    r"""``(R_m)_{rc}`` at width ``d`` and base ``b`` (args ``r, c, m, d, b``): column ``c`` of ``R_m`` is the
    rotation of the unit vector ``e_c`` by :func:`numeric.rotary.rope_mp`."""

    nargs = 5

    @classmethod
    def numeric(cls, r, c, pos, width, base):
        from posproof.numeric.rotary import rope_mp

        e_c = [1 if j == int(c) else 0 for j in range(int(width))]
        return rope_mp([e_c], [pos], base=base, dps=mpmath.mp.dps)[0][int(r)]

    def doit(self, **hints):
        return self

    def _latex(self, printer, exp=None):
        r, c, pos, _, _ = self.args
        out = r"\left(R_{%s}\right)_{%s %s}" % tuple(printer._print(a) for a in (pos, r, c))
        return out if exp is None else r"%s^{%s}" % (out, exp)


class _BlockScore(Kernel):
    r"""A score of RoPE's block-diagonal rotation at width ``d`` (args ``q, k, theta, m, n, d``: IndexedBases of the
    query, key and frequencies, the two positions, the width), interleaved planes ``(2i, 2i + 1)``. Numerically
    the rotations are :func:`numeric.rotary.rope_mp`'s (``inv_freq`` the frequencies), the code people run.
    ``doit()`` is the sum over the planes (``unfold`` binds its variable as the engine binds the sides)."""

    nargs = 6

    @staticmethod
    def _rotate(table, freqs, pos, width):
        from posproof.numeric.rotary import rope_mp

        vector = [table[j] for j in range(int(width))]
        inv_freq = [freqs[j] for j in range(int(width) // 2)]
        return rope_mp([vector], [pos], inv_freq=inv_freq, dps=mpmath.mp.dps)[0]

    def _matrices(self):
        r"""``R_m``, ``R_n``, ``R_{n-m}``, ``q`` and ``k`` as named matrices (the statement's symbols)."""
        qb, kb, _, pos_m, pos_n, width = self.args
        rot = lambda name: sp.MatrixSymbol(f"R_{{{name}}}" if len(name) > 1 else f"R_{name}", width, width)  # noqa: E731
        vec = lambda base: sp.MatrixSymbol(str(base.label), width, 1)  # noqa: E731
        both = pos_m.is_Symbol and pos_n.is_Symbol  # the statement's R_{n-m}; else the difference as SymPy writes it
        relative = f"{pos_n}-{pos_m}" if both else sp.latex(pos_n - pos_m)
        return rot(sp.latex(pos_m)), rot(sp.latex(pos_n)), rot(relative), vec(qb), vec(kb)

    def shown(self):  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def _latex(self, printer, exp=None):
        out = printer._print(self.shown())
        return out if exp is None else r"\left(%s\right)^{%s}" % (out, exp)

    def _sympystr(self, printer):
        return printer._print(self.shown())


class RopeScore(_BlockScore):
    r"""``(R_m q)^T (R_n k)``: the query rotated to position ``m`` scored against the key rotated to ``n``;
    ``doit()`` writes it plane by plane, numerically both are rotated by :func:`numeric.rotary.rope_mp`."""

    @classmethod
    def numeric(cls, qt, kt, freqs, pos_m, pos_n, width):
        rq = cls._rotate(qt, freqs, pos_m, width)
        rk = cls._rotate(kt, freqs, pos_n, width)
        return mpmath.fsum(x * y for x, y in zip(rq, rk, strict=True))

    def doit(self, **hints):
        qb, kb, freqs, pos_m, pos_n, width = self.args
        plane = _plane_score(*_interleaved(qb), *_interleaved(kb), i).xreplace({th: freqs, m: pos_m, n: pos_n})
        return sp.Sum(plane, (i, 0, width / 2 - 1))

    def shown(self):
        Rm, Rn, _, qv, kv = self._matrices()
        return sp.MatMul(sp.Transpose(sp.MatMul(Rm, qv)), sp.MatMul(Rn, kv))


class RopeRelative(_BlockScore):
    r"""``q^T R_{n-m} k``: the key alone rotated by the relative position; ``doit()`` writes it plane by plane,
    numerically the key is rotated to ``n - m`` by :func:`numeric.rotary.rope_mp`."""

    @classmethod
    def numeric(cls, qt, kt, freqs, pos_m, pos_n, width):
        rk = cls._rotate(kt, freqs, pos_n - pos_m, width)
        return mpmath.fsum(qt[j] * y for j, y in enumerate(rk))

    def doit(self, **hints):
        qb, kb, freqs, pos_m, pos_n, width = self.args
        plane = _relative_plane(*_interleaved(qb), *_interleaved(kb), i).xreplace({th: freqs, m: pos_m, n: pos_n})
        return sp.Sum(plane, (i, 0, width / 2 - 1))

    def shown(self):
        _, _, Rnm, qv, kv = self._matrices()
        return sp.MatMul(sp.Transpose(qv), Rnm, kv)


class HalfScore(_BlockScore):
    r"""``(H_m P q)^T (H_n P k)``: the half layout's rotations ``H`` (planes ``(i, i + d/2)``) applied to the permuted
    query and key (:class:`Permuted`); ``doit()`` writes it plane by plane, numerically ``q`` and ``k`` are permuted
    by :func:`numeric.rotary.layout_permutation` and rotated by :func:`numeric.rotary.rope_mp` (half layout)."""

    @classmethod
    def numeric(cls, qt, kt, freqs, pos_m, pos_n, width):
        from posproof.numeric.rotary import layout_permutation, rope_mp

        order = [int(c) for c in layout_permutation(int(width))]
        inv_freq = [freqs[j] for j in range(int(width) // 2)]
        rq, rk = (
            rope_mp([[t[c] for c in order]], [pos], inv_freq=inv_freq, layout="half", dps=mpmath.mp.dps)[0]
            for t, pos in ((qt, pos_m), (kt, pos_n))
        )
        return mpmath.fsum(x * y for x, y in zip(rq, rk, strict=True))

    def doit(self, **hints):
        qb, kb, freqs, pos_m, pos_n, width = self.args
        pq = (Permuted(qb, i, width), Permuted(qb, i + width / 2, width))
        pk = (Permuted(kb, i, width), Permuted(kb, i + width / 2, width))
        plane = _plane_score(*pq, *pk, i).xreplace({th: freqs, m: pos_m, n: pos_n})
        return sp.Sum(plane, (i, 0, width / 2 - 1))

    def shown(self):
        _, _, _, pos_m, pos_n, width = self.args
        Hm, Hn = (sp.MatrixSymbol(f"H_{sp.latex(p)}", width, width) for p in (pos_m, pos_n))
        _, _, _, qv, kv = self._matrices()
        P = sp.MatrixSymbol("P", width, width)
        return sp.MatMul(sp.Transpose(sp.MatMul(Hm, P, qv)), Hn, P, kv)


class PlaneDot(Kernel):
    r"""``q^T k`` at width ``d`` (args ``q, k, d``), written as the sum over the interleaved planes ``(2i, 2i + 1)``
    by ``doit()`` (bound as :class:`RopeScore`'s sum); numerically the dot product of the two tables."""

    nargs = 3

    @classmethod
    def numeric(cls, qt, kt, width):
        return mpmath.fsum(qt[j] * kt[j] for j in range(int(width)))

    def doit(self, **hints):
        qb, kb, width = self.args
        return sp.Sum(qb[2 * i] * kb[2 * i] + qb[2 * i + 1] * kb[2 * i + 1], (i, 0, width / 2 - 1))

    def shown(self):
        qb, kb, width = self.args
        return sp.MatMul(
            sp.Transpose(sp.MatrixSymbol(str(qb.label), width, 1)), sp.MatrixSymbol(str(kb.label), width, 1)
        )

    def _latex(self, printer, exp=None):
        out = printer._print(self.shown())
        return out if exp is None else r"\left(%s\right)^{%s}" % (out, exp)

    def _sympystr(self, printer):
        return printer._print(self.shown())


# --------------------------------------------------------------------------------------------------------------
# The rotated components of one plane, in each layout.
# --------------------------------------------------------------------------------------------------------------


def rotated_pair(first, second, angle):
    r"""``R(angle) (first, second)^T`` as two expressions: ``(u c - w s, u s + w c)``."""
    c, s = sp.cos(angle), sp.sin(angle)
    return first * c - second * s, first * s + second * c


def _plane_score(qa, qb, ka, kb, i_):
    r"""``(R(m theta_i) (qa, qb))^T (R(n theta_i) (ka, kb))``: one plane's contribution to the score."""
    q0, q1 = rotated_pair(qa, qb, m * th[i_])
    k0, k1 = rotated_pair(ka, kb, n * th[i_])
    return q0 * k0 + q1 * k1


def _relative_plane(qa, qb, ka, kb, i_):
    r"""``(qa, qb) R((n - m) theta_i) (ka, kb)^T``: the same plane written with the relative angle only."""
    c, s = sp.cos((n - m) * th[i_]), sp.sin((n - m) * th[i_])
    return qa * (ka * c - kb * s) + qb * (ka * s + kb * c)


def _over_planes(f):
    return sp.Sum(f, (i, 0, half - 1))


def _interleaved(v, i_=i) -> tuple[Any, Any]:
    return v[2 * i_], v[2 * i_ + 1]


def _half(v, i_=i) -> tuple[Any, Any]:
    return v[i_], v[i_ + half]


# --------------------------------------------------------------------------------------------------------------
# Claims.
# --------------------------------------------------------------------------------------------------------------


def _complex_form() -> Theorem:
    rot_q = sp.Mul(qc, sp.exp(I * m * theta), evaluate=False)
    rot_k = sp.Mul(kc, sp.exp(I * n * theta), evaluate=False)
    lhs = sp.Mul(rot_q, sp.conjugate(rot_k, evaluate=False), evaluate=False)
    e1 = sp.Mul(
        qc, sp.exp(I * m * theta), sp.conjugate(kc), sp.conjugate(sp.exp(I * n * theta), evaluate=False), evaluate=False
    )
    e2 = sp.Mul(qc, sp.exp(I * m * theta), sp.conjugate(kc), sp.exp(-I * n * theta), evaluate=False)
    rhs = qc * sp.conjugate(kc) * sp.exp(I * (m - n) * theta)
    return Theorem(
        "rope-complex-relative",
        "Complex form: the absolute positions cancel to $m - n$",
        TOPIC,
        f"{ARTICLE}; {ROFORMER}, section 3.2",
        steps=(
            Step(
                lhs,
                e1,
                r"rotate $q$ by $e^{i m \theta}$ and $k$ by $e^{i n \theta}$; the score takes the key's conjugate, "
                "and the conjugate of a product is the product of conjugates",
                ("doit",),
            ),
            Step(e1, e2, r"conjugation flips the sign of the imaginary exponent ($n$, $\theta$ real)", ("doit",)),
            Step(
                e2,
                rhs,
                r"exponents add: $e^{i m \theta} e^{-i n \theta} = e^{i (m - n) \theta}$",
                ("powsimp",),
            ),
        ),
        assumptions=("$q, k$ complex (one 2-D pair each)", "$m, n$ integer positions", r"$\theta > 0$ real"),
        formula=sp.Eq(lhs, rhs, evaluate=False),
        notes=r"The article writes the product as $(q k) e^{i(m-n)\theta}$; the key enters conjugated.",
        wrong=qc * sp.conjugate(kc) * sp.exp(I * (m + n) * theta),
    )


def _rotation_product() -> Theorem:
    lhs = sp.MatMul(Rot(a).T, Rot(b))
    e1 = sp.ImmutableMatrix(
        [
            [sp.cos(a) * sp.cos(b) + sp.sin(a) * sp.sin(b), -sp.cos(a) * sp.sin(b) + sp.sin(a) * sp.cos(b)],
            [-sp.sin(a) * sp.cos(b) + sp.cos(a) * sp.sin(b), sp.sin(a) * sp.sin(b) + sp.cos(a) * sp.cos(b)],
        ]
    )
    return Theorem(
        "rope-2d-rotation-product",
        "Real 2-D form: $R(a)^T R(b) = R(b - a)$",
        TOPIC,
        f"{ROFORMER}, eq. 13-16",
        steps=(
            Step(lhs, e1, r"multiply the explicit $2 \times 2$ matrices", ("doit", "expand")),
            Step(e1, Rot(b - a), r"angle-difference formulas for $\cos$ and $\sin$", ("doit", "expand_trig", "expand")),
        ),
        assumptions=("$a, b$ real angles",),
        formula=sp.Eq(lhs, Rot(b - a), evaluate=False),
        wrong=Rot(a - b),
    )


def _rotation_norm() -> Theorem:
    qv = Vec(q)
    lhs = Dot(sp.MatMul(Rot(a), qv), sp.MatMul(Rot(a), qv))
    e1 = Dot(qv, sp.MatMul(Rot(a).T, Rot(a), qv))
    return Theorem(
        "rope-2d-norm",
        "A rotation keeps the length of a pair: $|R(a) q| = |q|$",
        TOPIC,
        f"{ROFORMER}; {ARTICLE}",
        steps=(
            Step(lhs, e1, "$(A q)^T = q^T A^T$", ("doit", "expand")),
            Step(
                e1,
                Dot(qv, qv),
                r"$R(a)^T R(a) = R(0) = I$ ($\cos^2 + \sin^2 = 1$)",
                ("doit", "expand", "trigsimp"),
            ),
        ),
        assumptions=("$q = (q_0, q_1)$ real", "$a$ real"),
        formula=sp.Eq(lhs, Dot(qv, qv), evaluate=False),
        wrong=Dot(qv, sp.MatMul(Rot(2 * a), qv)),
    )


def _real_part() -> Theorem:
    qv, kv = Vec(q), Vec(k)
    zq, zk = q[0] + I * q[1], k[0] + I * k[1]
    product = sp.Mul(
        zq,
        sp.exp(I * m * theta),
        sp.conjugate(sp.Mul(zk, sp.exp(I * n * theta), evaluate=False), evaluate=False),
        evaluate=False,
    )
    lhs = sp.re(product, evaluate=False)
    e1 = Dot(sp.MatMul(Rot(m * theta), qv), sp.MatMul(Rot(n * theta), kv))
    e2 = Dot(qv, sp.MatMul(Rot(m * theta).T, Rot(n * theta), kv))
    rhs = Dot(qv, sp.MatMul(Rot((n - m) * theta), kv))
    return Theorem(
        "rope-2d-real-form",
        r"The real part of the complex score is $q^T R((n - m) \theta) k$",
        TOPIC,
        f"{ROFORMER}, eq. 12-16",
        steps=(
            Step(
                lhs,
                e1,
                r"$q = q_0 + i q_1$: multiplying by $e^{i m \theta}$ is $R(m \theta)$ acting on $(q_0, q_1)$; "
                r"$\operatorname{Re}(z \bar{w})$ is the real dot product",
                ("doit", "expand_complex", "expand"),
            ),
            Step(e1, e2, "$(A q)^T = q^T A^T$", ("doit", "expand")),
            Step(e2, rhs, "$R(a)^T R(b) = R(b - a)$", ("doit", "expand", "expand_trig", "expand")),
        ),
        assumptions=("$q = (q_0, q_1)$, $k = (k_0, k_1)$ real", "$m, n$ integer", r"$\theta > 0$"),
        formula=sp.Eq(lhs, rhs, evaluate=False),
        notes=(
            r"Sign convention: the relative angle is $(n - m) \theta$, key minus query ($q^T R(-a) k = q^T "
            r"R(a)^T k$)."
        ),
        wrong=Dot(qv, sp.MatMul(Rot((m - n) * theta), kv)),
    )


def _block_diagonal_d4() -> Definition:
    bb = sp.Symbol("b", positive=True)
    th0, th1 = sp.Integer(1), bb ** sp.Rational(-1, 2)  # theta_i = b^(-2i/4)
    R4 = sp.BlockDiagMatrix(Rot(m * th0), Rot(m * th1))
    wrong = sp.BlockDiagMatrix(Rot(m * th0), Rot(-m * th1))
    return Definition(
        "rope-block-diagonal-d4",
        r"$R_m$ at $d = 4$: one rotation $R(m \theta_i)$ per plane on the diagonal; the kernel computes this matrix",
        TOPIC,
        f"{ARTICLE}; {ROFORMER}, eq. 15",
        sp.ImmutableMatrix(4, 4, lambda r_, c_: RopeEntry(r_, c_, m, 4, bb)),
        R4,
        r"RoPE's rotation at $d = 4$, $b$ the base: $\theta_0 = 1$, $\theta_1 = b^{-1/2}$; column $c$ of the "
        "kernel's matrix is the rotation of the unit vector $e_c$",
        "numeric.rotary.rope_mp (layout 'interleaved')",
        assumptions=("$d = 4$ (planes $i = 0, 1$), interleaved layout", "$b > 1$ the base", "$m$ integer position"),
        formula=sp.Eq(sp.MatrixSymbol("R_m", 4, 4), R4, evaluate=False),
        domains={"b": Domain("real", 1.001, 1e6, log=True)},
        notes=(
            r"The article prints the same matrix with $\theta_1$, $\theta_2$; we count planes from 0 as the "
            r"code does. The general-$d$ claims are sums over planes ([[claim:rope-block-relative]])."
        ),
        wrong=wrong,
    )


def _block_relative() -> Theorem:
    score, relative = RopeScore(q, k, th, m, n, d), RopeRelative(q, k, th, m, n, d)
    lhs = _over_planes(_plane_score(*_interleaved(q), *_interleaved(k), i))
    cos_, sin_ = sp.cos((n - m) * th[i]), sp.sin((n - m) * th[i])
    q0, q1 = _interleaved(q)
    k0, k1 = _interleaved(k)
    e1 = _over_planes((q0 * k0 + q1 * k1) * cos_ + (q1 * k0 - q0 * k1) * sin_)
    rhs = _over_planes(_relative_plane(q0, q1, k0, k1, i))
    wrong = RopeRelative(q, k, th, n, m, d)  # q^T R_{m-n} k: the query's rotation minus the key's
    return Theorem(
        "rope-block-relative",
        "For every even $d$: $(R_m q)^T (R_n k) = q^T R_{n-m} k$",
        TOPIC,
        f"{ROFORMER}, eq. 16; {ARTICLE}",
        steps=(
            Step(
                score,
                lhs,
                r"$R_m$ and $R_n$ are block diagonal: the score is a sum over the planes "
                r"$q_{(i)} = (q_{2i}, q_{2i+1})$, $k_{(i)}$ likewise, of "
                r"$(R(m \theta_i) q_{(i)})^T (R(n \theta_i) k_{(i)})$",
                ("unfold",),
            ),
            Step(
                lhs,
                e1,
                r"per plane, $R(m \theta_i)^T R(n \theta_i) = R((n - m) \theta_i)$ (angle differences)",
                ("expand", "expand_trig", "expand"),
            ),
            Step(e1, rhs, r"regroup each plane as $q_{(i)}^T R((n - m) \theta_i) k_{(i)}$", ("expand",)),
            Step(
                rhs,
                relative,
                "$R_{n-m}$ is block diagonal too: the sum over the planes is $q^T R_{n-m} k$",
                ("unfold",),
            ),
        ),
        assumptions=(
            r"$d = 2h$ even, planes $i = 0, \dots, d/2 - 1$ on channels $(2i, 2i + 1)$",
            "$q, k$ real vectors",
            r"$\theta_i$ arbitrary reals",
            "$m, n$ integer",
        ),
        formula=sp.Eq(score.shown(), relative.shown(), evaluate=False),
        sizes=D_SIZES,
        notes="As this holds for every $q$ and $k$, $R_m^T R_n = R_{n-m}$.",
        wrong=wrong,
    )


def _block_orthogonal() -> Theorem:
    q0, q1 = _interleaved(q)
    k0, k1 = _interleaved(k)
    score, plain = RopeScore(q, k, th, m, m, d), PlaneDot(q, k, d)
    lhs = _over_planes(_plane_score(q0, q1, k0, k1, i).subs(n, m))
    rhs = _over_planes(q0 * k0 + q1 * k1)
    return Theorem(
        "rope-block-orthogonal",
        "$R_m$ is orthogonal for every even $d$: $(R_m q)^T (R_m k) = q^T k$",
        TOPIC,
        f"{ROFORMER}, section 3.2",
        steps=(
            Step(score, lhs, "$R_m$ is block diagonal: the score is a sum over the planes", ("unfold",)),
            Step(lhs, rhs, r"$\cos^2 + \sin^2 = 1$ in every plane", ("expand", "combine_sums", "trigsimp")),
            Step(rhs, plain, "the sum over the planes of $q_{2i} k_{2i} + q_{2i+1} k_{2i+1}$ is $q^T k$", ("unfold",)),
        ),
        assumptions=("$d = 2h$ even, interleaved planes $(2i, 2i + 1)$", "$q, k$ real vectors", "$m$ integer"),
        formula=sp.Eq(score.shown(), plain.shown(), evaluate=False),
        sizes=D_SIZES,
        notes="With $k = q$ this is $|R_m q| = |q|$: RoPE keeps every query and key length.",
        wrong=RopeRelative(q, k, th, -m, m, d),  # q^T R_{2m} k: a rotation left in
    )


def _elementwise() -> Theorem:
    xv = sp.ImmutableMatrix([x[2 * i], x[2 * i + 1]])
    rot = sp.ImmutableMatrix([-x[2 * i + 1], x[2 * i]])
    cosv = sp.ImmutableMatrix([sp.cos(m * th[i])] * 2)
    sinv = sp.ImmutableMatrix([sp.sin(m * th[i])] * 2)
    lhs = sp.MatAdd(sp.HadamardProduct(xv, cosv), sp.HadamardProduct(rot, sinv))
    rhs = sp.MatMul(Rot(m * th[i]), xv)
    wrong = sp.MatAdd(sp.HadamardProduct(xv, cosv), sp.HadamardProduct(-rot, sinv))
    return Theorem(
        "rope-elementwise",
        r"Element-wise form, plane by plane: channels $2i, 2i+1$ of $x \odot \cos + \mathrm{rot}(x) \odot \sin$ "
        r"are $R(m \theta_i) (x_{2i}, x_{2i+1})$ for every plane $i$",
        TOPIC,
        f"{ROFORMER}, eq. 34; {sources.article('Properties, Efficiency and Performance of RoPE')}",
        steps=(Step(lhs, rhs, "channels $2i$ and $2i + 1$ of $R_m x$ only involve plane $i$", ("doit", "expand")),),
        assumptions=(
            r"$\mathrm{rot}(x) = (-x_1, x_0, -x_3, x_2, \dots)$; $\cos$ and $\sin$ repeat each $\theta_i$ twice",
            "$i$ is any plane (a free integer symbol): the identity holds plane by plane; $R_m$ is block diagonal, "
            "so its channels $2i, 2i + 1$ are exactly these",
        ),
        formula=sp.Eq(lhs, rhs, evaluate=False),
        wrong=wrong,
    )


def _layout_scores() -> Theorem:
    Pq = (Permuted(q, i, d), Permuted(q, i + half, d))  # the half layout's plane i: channels (i, i + d/2)
    Pk = (Permuted(k, i, d), Permuted(k, i + half, d))
    lhs = _over_planes(_plane_score(*Pq, *Pk, i))
    e1 = _over_planes(_plane_score(*_interleaved(q), *_interleaved(k), i))
    wrong = _over_planes(_plane_score(*_half(q), *_half(k), i))  # the half kernel on unpermuted q and k
    half_score, score = HalfScore(q, k, th, m, n, d), RopeScore(q, k, th, m, n, d)
    return Theorem(
        "rope-layout-permutation",
        "Half layout on permuted $q$, $k$ scores exactly as the interleaved layout",
        TOPIC,
        sources.LAYOUTS,
        steps=(
            Step(
                half_score,
                lhs,
                "$H_m$ and $H_n$ rotate the planes $(i, i + d/2)$: the score is a sum over those planes",
                ("unfold", "unfold"),  # the score, then the permutation inside it
            ),
            Step(
                lhs,
                e1,
                "the half layout rotates channels $(i, i + d/2)$; $P$ puts $q_{2i}, q_{2i+1}$ there ($i < d/2$ on the "
                "summation range decides $P$'s branch)",
                ("unfold", "refine_limits", "expand"),
            ),
            Step(e1, score, "the sum over the interleaved planes is the interleaved score", ("unfold",)),
        ),
        assumptions=(
            r"$P$: $(P v)_i = v_{2i}$, $(P v)_{i + d/2} = v_{2i+1}$ for $i = 0, \dots, d/2 - 1$ (a channel "
            "permutation)",
            "the same $P$ is applied to $q$ and to $k$ (per head; with grouped-query attention the key "
            "projection is permuted per key-value head)",
            r"$d$ even, $\theta_i$ arbitrary reals",
        ),
        formula=sp.Eq(half_score.shown(), score.shown(), evaluate=False),
        sizes=D_SIZES,
        notes="By [[claim:rope-block-relative]] both depend on $n - m$ only. Applied to unpermuted (interleaved) "
        "$q$ and $k$, the half kernel pairs channels $(i, i + d/2)$ instead of $(2i, 2i + 1)$ and gives another "
        "score.",
        wrong=wrong,
    )


def _abel() -> Theorem:
    hh = sp.IndexedBase("h")
    S = sp.IndexedBase("S")
    top = half
    lhs = sp.Sum(hh[i] * (S[i + 1] - S[i]), (i, 0, top - 1))
    rhs = hh[top] * S[top] - hh[0] * S[0] - sp.Sum(S[i + 1] * (hh[i + 1] - hh[i]), (i, 0, top - 1))
    wrong = hh[top] * S[top] - hh[0] * S[0] - sp.Sum(S[i] * (hh[i + 1] - hh[i]), (i, 0, top - 1))
    return Theorem(
        "rope-decay-abel",
        "Abel summation (summation by parts) behind RoPE's long-term decay",
        TOPIC,
        f"{ROFORMER}, section 3.4.3, eq. 35-36",
        steps=(
            # the lemma, proved once for every N >= 0, cited at N = d/2 (an integer >= 0 for even d > 0)
            lemmas.ABEL.cite(
                {"N": top, "h": sp.Lambda(i, hh[i]), "S": sp.Lambda(i, S[i])},
                "the products $h_i S_{i+1}$ cancel; what is left telescopes",
                ("expand", "combine_sums", "doit"),
                lhs=lhs,
                rhs=rhs,
            ),
        ),
        assumptions=(
            "$h_i, S_j$ arbitrary complex sequences, $d$ even",
            r"RoFormer: $h_i = (q_{2i} + \mathrm{i} q_{2i+1}) \overline{(k_{2i} + \mathrm{i} k_{2i+1})}$, "
            r"$S_j = \sum_{l<j} e^{i (m - n) \theta_l}$, so "
            r"$S_{i+1} - S_i = e^{i (m - n) \theta_i}$, $S_0 = 0$, and $h_{d/2} = 0$ by convention",
        ),
        formula=sp.Eq(lhs, rhs, evaluate=False),
        sizes=D_SIZES,
        notes=(
            r"With $S_0 = 0$ and $h_{d/2} = 0$ the boundary terms vanish: $\sum_i h_i e^{i(m-n)\theta_i} = "
            r"-\sum_i S_{i+1} (h_{i+1} - h_i)$, whose modulus is at most $(\max_i |h_{i+1} - h_i|) \sum_j "
            r"|S_j|$ (rope-decay-bound proves this for every even $d$)."
        ),
        wrong=wrong,
    )


def _decay_theorem() -> Theorem:
    from posproof.symbolic.engine.maximum import Maximum

    r_ = sp.Symbol("r", complex=True)  # m - n: real, but the proof does not need it (and |S_j| stays |S_j|)
    hh = sp.IndexedBase("h", complex=True)  # h_i = (q_2i + i q_2i+1) conj(k_2i + i k_2i+1), i = 0 .. d/2 (h_{d/2} any)
    l_ = sp.Symbol("l", integer=True, nonnegative=True)
    jj = sp.Symbol("j", integer=True, nonnegative=True)

    def S(top_):  # S_j = sum_{l<j} e^{i r theta_l} (S_0 = 0, the empty sum)
        return sp.Sum(sp.exp(I * r_ * th[l_]), (l_, 0, top_ - 1))

    N = half
    score = sp.Abs(sp.Sum(hh[i] * sp.exp(I * r_ * th[i]), (i, 0, N - 1)))
    telescoped = sp.Abs(sp.Sum(hh[i] * (S(i + 1) - S(i)), (i, 0, N - 1)))
    diff = hh[i + 1] - hh[i]
    abel = sp.Abs(hh[N] * S(N) - sp.Sum(S(i + 1) * diff, (i, 0, N - 1)))
    tail = sp.Sum(S(i + 1) * diff, (i, 0, N - 1))
    split = sp.Abs(hh[N]) * sp.Abs(S(N)) + sp.Abs(tail)
    triangle = sp.Abs(hh[N]) * sp.Abs(S(N)) + sp.Sum(sp.Abs(S(i + 1)) * sp.Abs(diff), (i, 0, N - 1))
    h_max = Maximum(sp.Abs(hh[jj + 1] - hh[jj]), (jj, 0, N - 1))
    bound = sp.Abs(hh[N]) * sp.Abs(S(N)) + h_max * sp.Sum(sp.Abs(S(i + 1)), (i, 0, N - 1))
    two = sp.Lambda(i, sp.Piecewise((hh[N] * S(N), sp.Eq(i, 0)), (-tail, True)))
    return Theorem(
        "rope-decay-bound",
        r"RoFormer's long-term decay bound, for every even $d$: $|\sum_{i<d/2} h_i e^{i(m-n)\theta_i}| \le "
        r"|h_{d/2}|\,|S_{d/2}| + (\max_i |h_{i+1} - h_i|) \sum_{i<d/2} |S_{i+1}|$ (eq. 37 is the case $h_{d/2} = 0$)",
        TOPIC,
        f"{ROFORMER}, section 3.4.3, eq. 35-37",
        steps=(
            Step(
                score,
                telescoped,
                r"$e^{i(m-n)\theta_i} = S_{i+1} - S_i$: split the last term off $S_{i+1}$",
                ("split_last",),
            ),
            lemmas.ABEL.cite(
                {"N": N, "h": sp.Lambda(i, hh[i]), "S": sp.Lambda(i, S(i))},
                r"Abel summation ([[claim:rope-decay-abel]]); $S_0 = 0$, the empty sum",
                ("doit",),
                lhs=telescoped,
                rhs=abel,
            ),
            lemmas.TRIANGLE_COMPLEX.cite(
                {"N": 2, "z": two},
                "the triangle inequality for two terms",
                ("unroll", "split_abs"),
                lhs=abel,
                rhs=split,
            ),
            lemmas.TRIANGLE_COMPLEX.cite(
                {"N": N, "z": sp.Lambda(i, S(i + 1) * diff)},
                "the triangle inequality for the sum",
                ("split_abs",),
                beside=sp.Abs(hh[N]) * sp.Abs(S(N)),
                lhs=split,
                rhs=triangle,
            ),
            Step(
                triangle,
                bound,
                r"every $|h_{i+1} - h_i| \le \max_j |h_{j+1} - h_j|$ and $|S_{i+1}| \ge 0$",
                ("combine_sums", "factor_terms"),
                rel="<=",
            ),
        ),
        rel="<=",
        assumptions=(
            r"$h_i$ complex ($h_i = (q_{2i} + \mathrm{i} q_{2i+1}) \overline{(k_{2i} + \mathrm{i} k_{2i+1})}$ in "
            r"RoFormer), $\theta_i$ real, $r = m - n$ the relative position, $d$ even",
            r"$S_j = \sum_{l<j} e^{i r \theta_l}$ ($S_0 = 0$); RoFormer sets $h_{d/2} = 0$, which removes the first "
            "term",
        ),
        sizes={d: (2, 4, 8)},
        domains={"r": Domain("real", -4000, 4000)},
        formula=sp.Le(
            sp.Abs(sp.Sum(hh[i] * sp.exp(I * r_ * th[i]), (i, 0, N - 1))),
            sp.Abs(hh[N]) * sp.Abs(_S(N)) + h_max * sp.Sum(sp.Abs(_S(i + 1)), (i, 0, N - 1)),
            evaluate=False,
        ),
        notes="The proof cites three lemmas: Abel summation, the triangle inequality for complex finite sums (both "
        "proved once for every $N$) and, in the last step, that each term of a sum is at most "
        "their maximum. [[claim:rope-decay-curve-not-a-bound]] shows that the plotted curve, the bound divided "
        "by d/2, is not "
        "a bound. Both lemmas are proved in symbolic/lemmas.py. Divided by $d/2$, the bound fails.",
        wrong=bound / N,
    )


# ---- facts: the decay bound and curve, the layout permutation ------------------------------------------------


def _decay_bound_compute(dps: int, normalised: bool = False):
    from posproof.numeric.sinusoid import inverse_frequencies_mp

    rng = random.Random("rope-decay-bound")
    value = {
        "draws": 0,
        "score = Abel form": 0,
        r"score $\le$ bound": 0,
        r"score $\le \mathrm{bound}/(d/2)$, the plotted curve": 0,
    }
    rows = []
    for width in (8, 32, 128):
        thetas = inverse_frequencies_mp(width, base=10000, dps=dps)
        counts = [0, 0, 0]
        for _ in range(12):
            r = rng.randint(-4000, 4000)
            hs = [mpmath.mpc(rng.uniform(-1, 1), rng.uniform(-1, 1)) for _ in range(width // 2)] + [mpmath.mpc(0)]
            rotations = [mpmath.expj(r * t) for t in thetas]  # e^{i (m - n) theta_j}
            S = [mpmath.mpc(0)]  # S_0 = 0, S_{j+1} = S_j + e^{i (m - n) theta_j}
            for z in rotations:
                S.append(S[-1] + z)
            score = abs(mpmath.fsum(hj * z for hj, z in zip(hs, rotations, strict=False)))
            abel = abs(mpmath.fsum(S[j + 1] * (hs[j + 1] - hs[j]) for j in range(width // 2)))
            bound = max(abs(hs[j + 1] - hs[j]) for j in range(width // 2)) * mpmath.fsum(abs(v) for v in S[1:])
            if normalised:  # the wrong computation: the plotted curve (normalised by d/2) taken as the bound
                bound = bound / (width // 2)
            counts[0] += bool(abs(score - abel) <= settings.rel_tol(dps) * (1 + score))
            counts[1] += bool(score <= bound)
            counts[2] += bool(score <= bound / (width // 2))
        value["draws"] += 12
        for key, c in zip(list(value)[1:], counts, strict=True):
            value[key] += c
        rows.append((f"d = {width}", {"draws": 12, "bound holds": counts[1], "curve holds": counts[2]}))
    return value, rows


def _curve_not_a_bound_formula():
    from posproof.symbolic.engine.maximum import Maximum

    r_, hh, jj = sp.Symbol("r"), sp.IndexedBase("h"), sp.Symbol("j", integer=True, nonnegative=True)
    score = sp.Abs(sp.Sum(hh[i] * sp.exp(I * r_ * th[i]), (i, 0, half - 1)))
    curve = Maximum(sp.Abs(hh[jj + 1] - hh[jj]), (jj, 0, half - 1)) * sp.Sum(sp.Abs(_S(i + 1)), (i, 0, half - 1)) / half
    # the number of the 36 draws at which the score exceeds the plotted curve
    return sp.Eq(sp.Function("draws")(sp.Gt(score, curve, evaluate=False)), sp.Integer(9), evaluate=False)


def _decay_bound() -> Fact:
    return Fact(
        "rope-decay-curve-not-a-bound",
        "Divided by $d/2$ (the plotted curve), RoFormer's decay bound is no longer a bound: it fails at 9 of 36 "
        "seeded draws",
        TOPIC,
        f"{ROFORMER}, section 3.4.3, eq. 37 and figure 2",
        statement="At 36 seeded random draws ($d = 8, 32, 128$, $b = 10000$, $h_i$ complex in the unit square, "
        r"$h_{d/2} = 0$, $m - n \in [-4000, 4000]$) the score equals $-\sum_i S_{i+1}(h_{i+1} - h_i)$ and "
        r"$|\sum_i h_i e^{i(m-n)\theta_i}| \le (\max_i |h_{i+1} - h_i|) \sum_{j=1}^{d/2} |S_j|$ every time (as "
        "[[claim:rope-decay-bound]] proves for every $d$); dividing the bound by $d/2$, as the plotted curve "
        "does, fails for 9 "
        "of the 36 draws.",
        claim={
            "draws": 36,
            "score = Abel form": 36,
            r"score $\le$ bound": 36,
            r"score $\le \mathrm{bound}/(d/2)$, the plotted curve": 27,
        },
        compute=_decay_bound_compute,
        method="mpmath at {dps} digits, 36 seeded draws",
        wrong=lambda dps: _decay_bound_compute(dps, normalised=True),
        formula=_curve_not_a_bound_formula(),
        notes="The bound itself is proved for every even d ([[claim:rope-decay-bound]]); these draws show that "
        "the curve "
        "RoFormer plots, the bound's sum divided by d/2, is smaller than the score at some draws. The "
        "plotted, normalised curve is no bound.",
    )


#: Relative distances at which the RoFormer curve is tabulated (d = 128, b = 10000, as in the paper's figure).
CURVE_DISTANCES = (0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)


class DecayCurve(Kernel):
    r"""RoFormer's curve ``(1/(d/2)) Σ_{j=1}^{d/2} |S_j|`` at distance ``r`` (args ``r, d, b``), computed by
    :func:`numeric.rotary.rope_decay_curve_mp`."""

    nargs = 3

    @classmethod
    def numeric(cls, r, width, base):
        from posproof.numeric.rotary import rope_decay_curve_mp

        return rope_decay_curve_mp([r], width=int(width), base=base, dps=mpmath.mp.dps)[0]

    def doit(self, **hints):
        return self

    def _latex(self, printer, exp=None):
        out = r"C\left(%s\right)" % printer._print(self.args[0])
        return out if exp is None else r"%s^{%s}" % (out, exp)


def _curve_compute(dps: int, per_pair: bool = True):
    from posproof.numeric.rotary import rope_decay_curve_mp

    values = rope_decay_curve_mp(CURVE_DISTANCES, width=128, base=10000, dps=dps)
    if not per_pair:  # the wrong computation: normalised by d instead of d/2
        values = [v / 2 for v in values]
    rows = [(f"r = {r}", v) for r, v in zip(CURVE_DISTANCES, values, strict=True)]
    return [mpmath.nstr(v, 4) for v in values], rows


def _curve_definition() -> Definition:
    r_ = sp.Symbol("r", integer=True)
    j_ = sp.Symbol("j", integer=True, positive=True)
    l_ = sp.Symbol("l", integer=True, nonnegative=True)
    theta_l = sp.Integer(10000) ** (-2 * l_ / d)
    S_j = sp.Sum(sp.exp(I * r_ * theta_l), (l_, 0, j_ - 1))
    return Definition(
        "rope-decay-curve:C",
        "RoFormer's decay curve",
        TOPIC,
        f"{ROFORMER}, section 3.4.3",
        DecayCurve(r_, d, 10000),
        sp.Sum(sp.Abs(S_j), (j_, 1, half)) / half,
        r"the mean of $|S_j|$, $S_j = \sum_{l<j} e^{i r \theta_l}$, against the relative distance $r = m - n$",
        "numeric.rotary.rope_decay_curve_mp",
        sizes={d: (2, 8, 32)},
    )


def _decay_curve() -> Fact:
    return Fact(
        "rope-decay-curve",
        r"The RoFormer decay curve $\frac{1}{d/2} \sum_j |S_j|$ at $d = 128$, $b = 10000$",
        TOPIC,
        f"{ROFORMER}, figure 2",
        statement="Tabulated at relative distances " + ", ".join(map(str, CURVE_DISTANCES)) + ": it starts at "
        "$(d/2 + 1)/2 = 32.5$ (every $S_j = j$ at $r = 0$) and falls to 10.23 at $r = 100$ and 4.471 at $r = 1000$ "
        "(between the tabulated points it oscillates: it is not monotone).",
        claim=["32.5", "31.54", "28.96", "20.85", "17.95", "15.24", "12.63", "10.23", "7.245", "6.19", "4.471"],
        compute=_curve_compute,
        method="mpmath at {dps} digits (numeric.rotary.rope_decay_curve_mp)",
        wrong=lambda dps: _curve_compute(dps, per_pair=False),
        definitions=(_curve_definition(),),
        notes="Normalised by $d$ instead of $d/2$, the curve is another.",
        formula=(
            sp.Eq(DecayCurve(0, 128, 10000), sp.Rational(65, 2), evaluate=False),
            sp.Lt(DecayCurve(1000, 128, 10000), DecayCurve(100, 128, 10000), evaluate=False),
        ),
    )


def _layout_fact_compute(dps: int, inverse: bool = False):
    from posproof.numeric.rotary import layout_permutation, rope_mp

    rng = random.Random("rope-layout-scores")
    rows, same, mixed = [], 0, 0
    for width in (2, 4, 8, 16, 64):
        perm = layout_permutation(width).tolist()
        if inverse:  # the wrong computation: the inverse permutation (converting the other way)
            perm = sorted(range(width), key=perm.__getitem__)
        qv = [rng.uniform(-1, 1) for _ in range(width)]
        kv = [rng.uniform(-1, 1) for _ in range(width)]
        pm, pn = rng.randint(0, 5000), rng.randint(0, 5000)
        dot = lambda u, v: mpmath.fsum(x_ * y_ for x_, y_ in zip(u, v, strict=True))  # noqa: E731
        inter = dot(rope_mp([qv], [pm], dps=dps)[0], rope_mp([kv], [pn], dps=dps)[0])
        halfs = dot(
            rope_mp([[qv[p] for p in perm]], [pm], layout="half", dps=dps)[0],
            rope_mp([[kv[p] for p in perm]], [pn], layout="half", dps=dps)[0],
        )
        unperm = dot(rope_mp([qv], [pm], layout="half", dps=dps)[0], rope_mp([kv], [pn], layout="half", dps=dps)[0])
        tol = settings.rel_tol(dps)
        same += bool(abs(inter - halfs) <= tol)
        mixed += bool(abs(inter - unperm) <= tol)
        rows.append((f"d = {width}, perm", perm if width <= 8 else "..."))
    return {"widths": 5, "permuted scores equal": same, "unpermuted scores equal": mixed}, rows


def _layout_fact() -> Fact:
    return Fact(
        "rope-layout-permutation-check",
        "The half-layout kernel equals the interleaved kernel on permuted channels (and the mix-up it prevents)",
        TOPIC,
        sources.LAYOUTS,
        statement="For $d = 2, 4, 8, 16, 64$ at random positions, the scores of `numeric.rotary.rope_mp` in the "
        "interleaved layout equal those of its half layout on $q$, $k$ permuted by "
        r"`numeric.rotary.layout_permutation`, $P = [0, 2, \dots, d-2, 1, 3, \dots, d-1]$; without the permutation "
        "they agree only at $d = 2$ (where the layouts coincide).",
        claim={"widths": 5, "permuted scores equal": 5, "unpermuted scores equal": 1},
        compute=_layout_fact_compute,
        method="mpmath at {dps} digits (numeric.rotary.rope_mp, both layouts)",
        wrong=lambda dps: _layout_fact_compute(dps, inverse=True),
        formula=sp.Eq(
            sp.MatMul(
                sp.Transpose(sp.MatMul(sp.MatrixSymbol("H_m", d, d), _P, _qv)), sp.MatrixSymbol("H_n", d, d), _P, _kv
            ),
            sp.MatMul(sp.Transpose(sp.MatMul(_Rm, _qv)), sp.MatMul(_Rn, _kv)),
            evaluate=False,
        ),
        notes=(
            r"The inverse permutation (converting in the other direction) "
            r"coincides with $P$ only for $d \le 4$."
        ),
    )


def claims() -> list:
    return [
        _complex_form(),
        _rotation_product(),
        _rotation_norm(),
        _real_part(),
        _block_diagonal_d4(),
        _block_relative(),
        _block_orthogonal(),
        _elementwise(),
        _layout_scores(),
        _layout_fact(),
        _abel(),
        _decay_theorem(),
        _decay_bound(),
        _decay_curve(),
    ]


# ---- the rules table: RoPE's row, and what its variants' rows share (symbolic.tables) --------------------------


def rope_phi(scaled: bool = False):
    r"""RoPE's proximity ``φ(m, n) = q^T R_{n-m} k``; ``scaled``: a rule's ``A^2 q^T R'_{n-m} k`` (per-pair
    factors in ``R'``, the attention factor ``A``)."""
    R = sp.MatrixSymbol("R'_{n - m}" if scaled else "R_{n - m}", tables.d, tables.d)
    body = sp.MatMul(tables.vec("q").T, R, tables.vec("k"))
    return tables.phi(sp.Symbol("A", positive=True) ** 2 * body if scaled else body)


#: RoPE's symmetry cell, which its variants share: a plane's score has an odd part unless ``q = k``.
SYMMETRY = tables.Cell("properties-rope-odd-part", "fails", note=r"$q \ne k$; holds for $q = k$")


def new_angles(rule: str) -> tables.Length:
    r"""The length column of RoPE under ``rule`` (``default``: none): the pairs that see angles training never
    showed."""
    return tables.Length(
        "properties-length-rope", lambda v, L0, L: f"{v[rule]} of 64 pairs see new angles (d = 128, s = L/L0)"
    )


RULES_ROWS = (
    tables.Row(
        110,
        "RoPE",
        rope_phi(),
        (
            tables.Cell("properties-rope-monotone-range", read=tables.key("default"), note="$q = k$, $d = 128$"),
            tables.Cell("rope-block-relative", "holds"),
            SYMMETRY,
        ),
        new_angles("default"),
    ),
)


# ---- the texts: the statements of the article and the RoPE note that this module's claims decide ---------------
# (symbolic.tables; the first number is the statement's place in the texts, the verdicts are V verified, C corrected,
# R holds on a range, X not checkable)


def _annotations() -> tuple[tables.Annotation, ...]:
    a, n, S, T = tables.in_article, tables.in_note, tables.S, tables.T
    V, C, R, X = tables.ANNOTATION_VERDICTS
    return (
        # Rotatory Positional Encoding (RoPE)
        a(660, S[17], "RoPE simply rotates that arrow by a specific angle", "A position rotates the 2-D arrow by an "
          "angle; its length is kept.", V, "rope-2d-norm"),
        a(670, S[17], "the relative angle between them remains exactly the same", "dog at 0 and pig at 3, or at 5 and "
          "8: the relative angle is the same.", V, "rope-2d-rotation-product"),
        a(680, S[17], "naturally preserves relative distance", "The attention score sees the relative distance.", V,
          "rope-block-relative"),
        # Maths behind RoPE
        a(690, S[18], "Euler's Formula", "Multiplying by e^{imθ} rotates the pair by mθ.", V, "rope-2d-real-form"),
        a(700, S[18], "becomes $e^{-in\\theta}$", "The dot product conjugates the key: e^{inθ} becomes e^{-inθ}.", V,
          "rope-complex-relative"),
        a(720, S[18], "have completely vanished", "The absolute positions cancel, leaving $m - n$.", V,
          "rope-complex-relative"),
        a(740, S[18], "a series of $d/2$ distinct 2D planes", "The d dims split into d/2 planes.", V,
          "rope-block-diagonal-d4"),
        a(760, S[18], "the Block-Diagonal Matrix", "R_m is block diagonal with the 2x2 rotations R(mθ_i).", V,
          "rope-block-diagonal-d4", note="the article numbers $\\theta_1, \\theta_2, \\dots$; the code counts "
          "from $\\theta_0$"),
        a(770, S[18], "a separate gear in a clock", "Each block rotates its pair independently at its own frequency.",
          V, "rope-block-relative"),
        # Properties, Efficiency and Performance of RoPE
        a(800, S[19], "basic element-wise multiplications and additions", "The matrix product reduces to element-wise "
          "multiplications and additions.", V, "rope-elementwise"),
        # Summary
        a(920, S[20], "leaves the magnitude alone", "RoPE keeps the vector's length and only rotates it.", V,
          "rope-block-orthogonal"),
        a(930, S[20], "the absolute positions natively subtract themselves", "Through the conjugate the positions "
          "subtract to $m - n$.", V, "rope-complex-relative"),
        a(940, S[20], "only ever \"sees\" the relative angle", "Attention sees only the relative angle.", V,
          "rope-block-relative"),
        a(960, S[20], "It is highly computationally efficient", "RoPE is cheap to compute.", V, "rope-elementwise",
          note="element-wise products, O(d) per vector"),
        # the RoPE note: Positional encoding: give tokens a sense of order
        n(1000, T[0], "rotate query and key components before attention compares them", "RoPE rotates queries and keys "
          "before they are compared.", V, "rope-block-relative"),
        # the RoPE note: Rotate pairs, preserve their length
        n(1010, T[1], "rotates adjacent component pairs at different frequencies", "The rope function rotates adjacent "
          "pairs (2i, 2i+1) at frequencies base^(-2i/width).", V, "rope-block-diagonal-d4",
          note="numeric.rotary.rope_mp, interleaved like the note's function, computes R_m"),
        n(1020, T[1], "their relative rotation stays unchanged", "Shifting both positions by one offset keeps their "
          "relative rotation.", V, "rope-2d-rotation-product"),
        n(1030, T[1], "carries relative-position information", "The dot product carries relative position.", V,
          "rope-block-relative"),
        n(1040, T[1], "preserves each vector's length", "The rotation preserves each vector's length.", V,
          "rope-block-orthogonal"),
        n(1060, T[1], "different frequency bases, component layouts or scaling rules", "Models choose other bases, "
          "layouts or scaling rules.", V, "rope-layout-permutation", note="layouts score alike after one channel "
          "permutation; every scaling rule keeps the relative identity ([[claim:extension-scaled-rope-relative]])"),
    )  # fmt: skip


ANNOTATIONS = _annotations()
