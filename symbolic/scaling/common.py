r"""Shared by the context-extension modules (:mod:`symbolic.scaling` lists them): the topic, the symbols named like the
math, the sampling domains, the named symbols of the short statements, and the base of the kernels that evaluate
:func:`numeric.scaling.rope_inv_freq_mp` at the working precision."""

from __future__ import annotations

import mpmath
import sympy as sp
from posproof.numeric.scaling.rules import rope_inv_freq_mp
from posproof.symbolic import sources, tables
from posproof.symbolic.engine.core import Domain, Kernel, Theorem
from posproof.symbolic.rope.rotary import SYMMETRY, new_angles, rope_phi
from posproof.symbolic.symbols import TH, d_even

TOPIC = "extension"
CHEN = sources.CHEN_PI
HF = sources.HF_ROPE

# ---- symbols, named like the math (the rotary width d_even, theta_i, TH, m, n: symbolic.symbols) --------------
i = sp.Symbol("i", integer=True, nonnegative=True)  # pair index
b = sp.Symbol("b", positive=True)  # base
s = sp.Symbol("s", positive=True)  # factor
L0 = sp.Symbol("L_0", integer=True, positive=True)  # trained length

#: A pair index of width d.
PAIR = Domain("integer", 0, d_even / 2 - 1)
#: Configuration values are float64 numbers in the code: integers are drawn so that they are exact there.
BASE_INT = Domain("integer", 2, 10**6, log=True)
FACTOR_INT = Domain("integer", 1, 64, log=True)
#: A real factor s > 1, for claims that need it strictly.
FACTOR_GT1 = Domain("real", 1.000001, 1e3, log=True)


# ---- named symbols for the short statements (formula=) ---------------------------------------------------------
THETA_PRIME = sp.IndexedBase("thetaprime", positive=True)  # the scaled frequencies theta'_i
scaled_frequency = sp.Function("thetaprime")  # a scaled frequency as a function of the ramp or of the wavelength


def identity(id_: str, title: str, source: str, steps, **kw) -> Theorem:
    return Theorem(id_, title, TOPIC, source, tuple(steps), **kw)


# ==============================================================================================================
# Kernels: the frequencies as numeric.scaling computes them (mpmath twin, at the working precision).
# ==============================================================================================================


def exact_int(x) -> int:
    if not mpmath.isint(x):
        raise ValueError(f"expected an integer, got {x}")
    return int(x)


def exact_float(x) -> float:
    r"""A point's value as the float64 a configuration file holds (the domains draw values exact in float64)."""
    f = float(x)
    if mpmath.mpf(f) != x:
        raise ValueError(f"{x} is not exactly a float64 number")
    return f


class RuleInvFreq(Kernel):
    r"""``theta'_i`` of one rule (args ``i, d, b, *rest``), from :func:`numeric.scaling.rope_inv_freq_mp`;
    subclasses name the rule and turn ``rest`` into the scaling mapping. No symbolic unfolding: it is what is
    defined."""

    rule = ""

    @classmethod
    def scaling_of(cls, *rest) -> tuple[dict, dict]:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    @classmethod
    def numeric(cls, pair, width, base, *rest):
        scaling, kw = cls.scaling_of(*rest)
        inv, _ = rope_inv_freq_mp(exact_int(width), base=exact_float(base), scaling=scaling, dps=mpmath.mp.dps, **kw)
        return inv[exact_int(pair)]

    def doit(self, **hints):
        return self

    def _latex(self, printer, exp=None):
        out = r"\theta^{\prime\,\mathrm{%s}}_{%s}" % (self.rule, printer._print(self.args[0]))
        return out if exp is None else r"\left(%s\right)^{%s}" % (out, exp)


# ---- what the rules' rows of the rules table and their printing share (symbolic.tables) ------------------------

#: Every rule keeps RoPE's relative form, whatever its per-pair factors.
SCALED_RELATIVE = tables.Cell("extension-scaled-rope-relative", "holds", note="any per-pair factors")


def rule_row(order: int, name: str, rule: str) -> tables.Row:
    r"""The row of RoPE under the rule ``rule`` (a key of ``properties-rope-monotone-range`` and of the RoPE
    lengths)."""
    mono = tables.Cell("properties-rope-monotone-range", read=tables.key(rule), note="$q = k$, $d = 128$, $s = 4$")
    return tables.Row(order, name, rope_phi(scaled=True), (mono, SCALED_RELATIVE, SYMMETRY), new_angles(rule))


#: The trained frequency ``θ_i = b^{-2i/d}``, named in the rules' formulas.
FREQUENCY = tables.Name(b ** (-2 * i / d_even), TH[i], b ** (-2 * i / d_even))
