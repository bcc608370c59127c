r"""Context extension, the algebra: every scaling rule (per-pair factors ``f_i`` and an attention factor ``A``)
keeps RoPE's relative-position identity, ``(A R'_m q)^T (A R'_n k) = A^2 q^T R'_{n-m} k``."""

from __future__ import annotations

import sympy as sp
from posproof.symbolic import sources
from posproof.symbolic.engine.core import Step, Theorem
from posproof.symbolic.rope.rotary import rotated_pair
from posproof.symbolic.scaling.common import CHEN, i, identity
from posproof.symbolic.symbols import TH, A, d_even, k, m, n, q

# ==============================================================================================================
# Every rule keeps RoPE's relative-position identity.
# ==============================================================================================================

F = sp.IndexedBase("f", positive=True)  # per-pair factors of a rule: theta'_i = f_i theta_i

# ---- named symbols for the short statements (formula=) ----
_Rp = {x: sp.MatrixSymbol(f"Rprime_{x}", d_even, d_even) for x in ("m", "n", "n-m")}
_qv, _kv = sp.MatrixSymbol("q", d_even, 1), sp.MatrixSymbol("k", d_even, 1)


def scaled_relative() -> Theorem:
    q0, q1, k0, k1 = q[2 * i], q[2 * i + 1], k[2 * i], k[2 * i + 1]
    freq = F[i] * TH[i]
    rq, rk = rotated_pair(A * q0, A * q1, m * freq), rotated_pair(A * k0, A * k1, n * freq)
    lhs = sp.Sum(rq[0] * rk[0] + rq[1] * rk[1], (i, 0, d_even / 2 - 1))

    def relative(angle):
        c, sn = sp.cos(angle), sp.sin(angle)
        return A**2 * (q0 * (k0 * c - k1 * sn) + q1 * (k0 * sn + k1 * c))

    rhs = sp.Sum(relative((n - m) * freq), (i, 0, d_even / 2 - 1))
    return identity(
        "extension-scaled-rope-relative",
        "For every even $d$, per-pair factors $f_i > 0$ and attention factor $A > 0$: "
        r"$(A R'_m q)^T (A R'_n k) = A^2 q^T R'_{n-m} k$, where $R'$ rotates pair $i$ by $f_i \theta_i$",
        f"{sources.ROFORMER}, eq. 16; {CHEN}; {sources.NTK_AWARE}; {sources.YARN}; {sources.LLAMA3}; "
        f"{sources.LONGROPE}",
        [
            Step(
                lhs,
                rhs,
                r"per plane, $R(m f_i \theta_i)^T R(n f_i \theta_i) = R((n - m) f_i \theta_i)$, and $A$ scales both "
                "vectors",
                ("expand", "expand_trig", "expand"),
            )
        ],
        assumptions=(
            r"$d$ even, interleaved planes $(2i, 2i + 1)$, $i = 0, \dots, d/2 - 1$",
            r"$q, k$ real vectors; $m, n$ integer positions; $\theta_i > 0$ the trained frequencies",
            r"$f_i > 0$ arbitrary: linear $1/s$, NTK-aware $s^{-2i/(d-2)}$, dynamic likewise, YaRN "
            r"$\gamma_i/s + 1 - \gamma_i$, Llama 3 its bands, LongRoPE $1/\mathrm{ext}_i$",
            r"$A > 0$ the attention factor on $\cos$ and $\sin$ (YaRN, LongRoPE; 1 for the others)",
        ),
        formula=sp.Eq(
            sp.MatMul(sp.Transpose(sp.MatMul(A, _Rp["m"], _qv)), sp.MatMul(A, _Rp["n"], _kv)),
            sp.MatMul(A**2, sp.Transpose(_qv), _Rp["n-m"], _kv),
            evaluate=False,
        ),
        sizes={d_even: (2, 6)},
        notes=(
            r"Scaling changes the frequencies, not the algebra: the score still depends on $n - m$ only, "
            r"through the scaled angles $(n - m) f_i \theta_i$, and the attention factor scales every logit by"
            r" $A^2$. With $f_i = 1/s$ this is RoPE at the interpolated positions $m/s$, $n/s$."
        ),
        wrong=sp.Sum(relative((n - m) * TH[i]), (i, 0, d_even / 2 - 1)),
    )


def claims() -> list:
    return [
        scaled_relative(),
    ]
