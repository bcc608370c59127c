r"""The mutation catalogue: plausible bugs, each an exact text replacement, with the tests that must catch it.

Engine mutants are the ways a verifier stops checking (unsound rewrites, strict from non-strict, a weak numeric
line); kernel mutants are the bug classes public implementations shipped (layouts, signs, off-by-ones, missing
caps and clamps, precision). Keep ``old`` unique in its file; ``make mutate`` reports a stale entry otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    id: str
    path: str
    old: str
    new: str
    bug: str
    tests: tuple[str, ...]


CORE = "symbolic/core.py"
ENGINE_TESTS = ("tests/test_core.py", "tests/test_false_claims.py")
PROOFS = ("tests/test_identities.py",)

MUTANTS: list[Mutant] = [
    # ---- the engine: symbolic line ------------------------------------------------------------------------------
    Mutant(
        "core-powsimp-force",
        CORE,
        "    return sp.powsimp(e)\n",
        "    return sp.powsimp(e, force=True)\n",
        "powsimp with force=True: x^u y^u = (xy)^u for any reals",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-powdenest-force",
        CORE,
        "    return sp.powdenest(e)\n",
        "    return sp.powdenest(e, force=True)\n",
        "powdenest with force=True: sqrt(x^2) = x",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-expand-force",
        CORE,
        "    return sp.expand(e)\n",
        "    return sp.expand(e, force=True)\n",
        "expand with force=True: splits powers and logs of any sign",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-expand-log-force",
        CORE,
        "    return sp.expand_log(e)\n",
        "    return sp.expand_log(e, force=True)\n",
        "expand_log with force=True: log(xy) = log x + log y for any x, y",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-sum-variable-assumptions",
        CORE,
        "    return sp.Dummy(var.name, **kw)\n",
        "    return var\n",
        "a summation variable keeps its declared assumptions whatever the range",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-combine-sums-ignores-limits",
        CORE,
        "            by_limits.setdefault(body.limits, []).append(coeff * body.function)\n",
        "            key = next((k for k in by_limits if k[0][:2] == body.limits[0][:2]), body.limits)\n"
        "            by_limits.setdefault(key, []).append(coeff * body.function)\n",
        "sums with different ranges merged (one pair too many goes unseen)",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-refine-one-end",
        CORE,
        "    for sub in (lo + j, hi - j):\n        if cond.subs(var, sub) is sp.true:",
        "    for sub in (lo, hi):\n        if cond.subs(var, sub) is sp.true:",
        "a Piecewise condition decided at the two ends of a range only",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-nonnegative-as-not-negative",
        CORE,
        "        return _is(sp.Q.nonnegative(gap), gap.is_nonnegative, given)\n",
        "        return gap.is_negative is not True\n",
        "'<=' accepted unless the gap is proved negative (unknown counts as proved)",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-log-sides-unchecked",
        CORE,
        "        if not _is(sp.Q.positive(side), side.is_positive, given):\n",
        "        if False:\n",
        "logarithms of sides not proved positive",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-strict-from-non-strict",
        CORE,
        '        if self.rel in ("<", ">") and strict not in rels:\n',
        "        if False:\n",
        "a strict claim from '=' or '<=' steps",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-kernels-by-definition",
        CORE,
        "    return e.replace(lambda x: isinstance(x, Kernel), sub_kernel)\n",
        "    return e\n",
        "kernels evaluated through their own definition instead of the code in numeric/",
        ENGINE_TESTS + PROOFS,
    ),
    # ---- the engine: numeric line --------------------------------------------------------------------------------
    Mutant(
        "core-float64-draws",
        CORE,
        "    return mpmath.mpf(rng.getrandbits(bits)) / mpmath.mpf(2) ** bits\n",
        "    return mpmath.mpf(rng.random())\n",
        "random values drawn at 53 bits",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-small-integers",
        CORE,
        "INT_MAX = 2**24\n",
        "INT_MAX = 40\n",
        "integers only from [-40, 40] while positions reach 10^6",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-one-size",
        CORE,
        "            sizes = sizes_list[p % len(sizes_list)]\n",
        "            sizes = sizes_list[0]\n",
        "only the first declared size tried",
        ENGINE_TESTS + PROOFS,
    ),
    Mutant(
        "core-no-edge-points",
        CORE,
        "            edge = p if p < tolerances.EDGE_POINTS else None\n",
        "            edge = None\n",
        "edge values (0, +-1, branch cuts) never tried",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-absolute-error-below-one",
        CORE,
        "                    err = mpmath.mpf(0) if gap == 0 else (gap / scale if scale else mpmath.inf)\n",
        "                    err = gap / max(scale, 1)\n",
        "the relative error divided by max(|l|, |r|, 1)",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-strict-as-non-strict",
        CORE,
        "                        err = mpmath.mpf(0) if slack > tol else mpmath.inf if slack <= 0 else tol * 2\n",
        "                        err = max(mpmath.mpf(0), -slack)\n",
        "numerically '<' checked as '<='",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-identical-as-agree",
        CORE,
        '        return NumericResult("identical", 0, None)\n',
        '        return NumericResult("agree", 0, 0.0)\n',
        "identical sides reported as an error of 0",
        ENGINE_TESTS + PROOFS,
    ),
    Mutant(
        "core-tolerance-loosened",
        "numeric/tolerances.py",
        "GUARD_DIGITS = 10\n",
        "GUARD_DIGITS = 30\n",
        "the tolerance loosened by 10^20: right to 25 digits passes '50 digits'",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-identical-ignores-order",
        CORE,
        "    identical = [a == b for a, b in zip(left, right, strict=True)]",
        "    identical = [sp.srepr(a) == sp.srepr(b) for a, b in zip(left, right, strict=True)]",
        "sides compared up to the order of terms: sums written in another order skip the numeric check",
        ENGINE_TESTS + PROOFS,
    ),
    # ---- the engine: definitions and facts ---------------------------------------------------------------------
    Mutant(
        "core-definition-identical-ok",
        CORE,
        '        ok = num.status == "agree"',
        '        ok = num.status in ("agree", "identical")',
        "a definition whose code is never run passes",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-fact-cannot-fail",
        CORE,
        "        ok = _plain(value) == _plain(self.claim) and not bad_defs\n",
        "        ok = not bad_defs\n",
        "a fact passes whatever it computes",
        ENGINE_TESTS + PROOFS,
    ),
]
