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
STRATEGIES = "symbolic/strategies.py"
NUMERIC_LINE = "symbolic/numeric_line.py"
DOMAINS = "symbolic/domains.py"
ENGINE_TESTS = ("tests/symbolic/test_engine.py", "tests/symbolic/test_false_claims.py")
PROOFS = ("tests/symbolic/test_catalogue.py",)
SOUNDNESS = ("tests/symbolic/test_soundness_classes.py",)

MUTANTS: list[Mutant] = [
    # ---- the engine: symbolic line ------------------------------------------------------------------------------
    Mutant(
        "core-powsimp-force",
        STRATEGIES,
        "    return sp.powsimp(e)\n",
        "    return sp.powsimp(e, force=True)\n",
        "powsimp with force=True: x^u y^u = (xy)^u for any reals",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-powdenest-force",
        STRATEGIES,
        "    return sp.powdenest(e)\n",
        "    return sp.powdenest(e, force=True)\n",
        "powdenest with force=True: sqrt(x^2) = x",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-expand-force",
        STRATEGIES,
        "    return sp.expand(e)\n",
        "    return sp.expand(e, force=True)\n",
        "expand with force=True: splits powers and logs of any sign",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-expand-log-force",
        STRATEGIES,
        "    return sp.expand_log(e)\n",
        "    return sp.expand_log(e, force=True)\n",
        "expand_log with force=True: log(xy) = log x + log y for any x, y",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-sum-variable-assumptions",
        STRATEGIES,
        "        _BOUND[key] = sp.Dummy(var.name, **kw)\n",
        "        _BOUND[key] = var\n",
        "a summation variable keeps its declared assumptions whatever the range",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-combine-sums-ignores-limits",
        STRATEGIES,
        "            by_limits.setdefault(body.limits, []).append(coeff * body.function)\n",
        "            key = next((k for k in by_limits if k[0][:2] == body.limits[0][:2]), body.limits)\n"
        "            by_limits.setdefault(key, []).append(coeff * body.function)\n",
        "sums with different ranges merged (one pair too many goes unseen)",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-refine-one-end",
        STRATEGIES,
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
        STRATEGIES,
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
        NUMERIC_LINE,
        "    return e.replace(lambda x: isinstance(x, Kernel), sub_kernel)\n",
        "    return e\n",
        "kernels evaluated through their own definition instead of the code in numeric/",
        ENGINE_TESTS + PROOFS,
    ),
    # ---- the engine: numeric line --------------------------------------------------------------------------------
    Mutant(
        "core-float64-draws",
        DOMAINS,
        "    return mpmath.mpf(rng.getrandbits(bits)) / mpmath.mpf(2) ** bits\n",
        "    return mpmath.mpf(rng.random())\n",
        "random values drawn at 53 bits",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-small-integers",
        DOMAINS,
        "INT_MAX = 2**24\n",
        "INT_MAX = 40\n",
        "integers only from [-40, 40] while positions reach 10^6",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-one-size",
        NUMERIC_LINE,
        " = [(p, sizes_list[p % len(sizes_list)], None) for p in range(n_points)]\n",
        " = [(p, sizes_list[0], None) for p in range(n_points)]\n",
        "only the first declared size tried",
        ENGINE_TESTS + PROOFS,
    ),
    Mutant(
        "core-no-edge-points",
        NUMERIC_LINE,
        "            edge = p if 0 <= p < settings.EDGE_POINTS else None\n",
        "            edge = None\n",
        "edge values (0, +-1, branch cuts) never tried",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-absolute-error-below-one",
        NUMERIC_LINE,
        "                    err = mpmath.mpf(0) if gap == 0 else (gap / scale if scale else mpmath.inf)\n",
        "                    err = gap / max(scale, 1)\n",
        "the relative error divided by max(|l|, |r|, 1)",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-strict-as-non-strict",
        NUMERIC_LINE,
        "                        err = mpmath.mpf(0) if slack > tol else mpmath.inf if slack <= 0 else tol * 2\n",
        "                        err = max(mpmath.mpf(0), -slack)\n",
        "numerically '<' checked as '<='",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-identical-as-agree",
        NUMERIC_LINE,
        '        return NumericResult("identical", 0, None)\n',
        '        return NumericResult("agree", 0, 0.0)\n',
        "identical sides reported as an error of 0",
        ENGINE_TESTS + PROOFS,
    ),
    Mutant(
        "core-tolerance-loosened",
        "symbolic/settings.py",
        "GUARD_DIGITS = 10\n",
        "GUARD_DIGITS = 30\n",
        "the tolerance loosened by 10^20: right to 25 digits passes '50 digits'",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-identical-ignores-order",
        NUMERIC_LINE,
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
        "        ok = same and not bad_defs\n",
        "        ok = not bad_defs\n",
        "a fact passes whatever it computes",
        ENGINE_TESTS + PROOFS,
    ),
]

ROTARY = "numeric/rotary.py"
ROPE_TESTS = (
    "tests/numeric/test_rotary.py",
    "tests/symbolic/test_mutants.py",
    "tests/numeric/test_fast.py",
    "tests/symbolic/test_catalogue.py",
)
RELATIVE_CLAIMS = ("tests/symbolic/test_catalogue.py", "tests/symbolic/test_relative_schemes.py")
SCALING_TESTS = ("tests/numeric/test_scaling.py", "tests/symbolic/test_catalogue.py")

MUTANTS += [
    # ---- the engine on users' claims (issue 16) ------------------------------------------------------------------
    Mutant(
        "core-reversed-range-assumed-forward",
        STRATEGIES,
        "            if not forward(lo, hi, given):\n",
        "            if False:\n",
        "a range not proved forward is summed as if it were (class 1)",
        SOUNDNESS,
    ),
    Mutant(
        "core-karr-range-as-forward",
        STRATEGIES,
        "    return span.is_integer is True and _is(sp.Q.nonnegative(span + 1), (span + 1).is_nonnegative, given)\n",
        "    return span.is_integer is not False\n",
        "any integer-length range counts as forward (class 1)",
        SOUNDNESS,
    ),
    Mutant(
        "core-bound-declaration-kept",
        STRATEGIES,
        '        if holds and getattr(dummy, f"is_{fact}", None) is not True:\n',
        "        if False:\n",
        "a bound variable's declaration its range does not imply goes unnoticed (class 2)",
        SOUNDNESS,
    ),
    Mutant(
        "core-reduce-without-bind",
        STRATEGIES,
        "    e = bind(lhs, given) - bind(rhs, given)\n",
        "    e = lhs - rhs\n",
        "reduce_difference sees the declared bound variables (class 2)",
        ENGINE_TESTS,
    ),
    Mutant(
        "core-kernels-by-name",
        NUMERIC_LINE,
        '        name = f"_K{len(_KERNELS)}_{cls.__name__}"\n',
        '        name = f"_K_{cls.__name__}"\n',
        "two kernel classes of one name share the last one's code (class 3)",
        SOUNDNESS,
    ),
    Mutant(
        "core-doit-integrates",
        STRATEGIES,
        "        e = e.replace(_not_for_doit, hold)\n",
        "        pass\n",
        "doit runs integrate, limit and infinite sums (class 4)",
        SOUNDNESS,
    ),
    Mutant(
        "core-expand-complex-at-cuts",
        STRATEGIES,
        "            if not (p.exp.is_integer or p.base.is_extended_nonnegative):\n",
        "            if False:\n",
        "expand_complex on powers with a branch cut (class 4)",
        SOUNDNESS,
    ),
    Mutant(
        "core-floats-accepted",
        CORE,
        "        if bad:\n",
        "        if False:\n",
        "Float atoms in theorems absorbed at 15 digits (class 4)",
        SOUNDNESS,
    ),
    Mutant(
        "core-formula-unchecked",
        CORE,
        " or self.formula_problem() or self._formula_mismatch(dps, sizes_list, rng)\n",
        "\n",
        "the printed formula is never compared with the proved relation (class 5)",
        SOUNDNESS,
    ),
    Mutant(
        "core-fact-bool-is-int",
        CORE,
        "    if isinstance(v, (bool, sp.logic.boolalg.BooleanAtom)):\n",
        "    if False:\n",
        "True == 1 in a fact (class 6)",
        SOUNDNESS,
    ),
    Mutant(
        "core-fact-at-15-digits",
        CORE,
        "        return mpmath.mpf(value) == mpmath.mpf(claim)  # mpf(...) rounds to the working precision\n",
        "        return mpmath.nstr(value, 15) == mpmath.nstr(claim, 15)\n",
        "facts compared at mpmath's default 15 digits (class 6)",
        SOUNDNESS,
    ),
    Mutant(
        "core-sizes-unchecked",
        CORE,
        "                if holds is not None and has is not None and has != holds:\n",
        "                if False:\n",
        "a size outside its symbol's assumptions accepted (class 7)",
        SOUNDNESS,
    ),
    Mutant(
        "core-reversed-range-summed-empty",
        NUMERIC_LINE,
        "    if hi < lo - 1:\n",
        "    if False:\n",
        "the numeric line sums a reversed range as empty (class 1, both lines one meaning)",
        SOUNDNESS,
    ),
    Mutant(
        "core-empty-sum-is-evidence",
        NUMERIC_LINE,
        "            evidence = not (_Sums.total and not _Sums.nonempty)\n",
        "            evidence = True\n",
        "a point where every sum is empty counts as agreement (class 7)",
        SOUNDNESS,
    ),
    Mutant(
        "core-diagonal-edges-only",
        NUMERIC_LINE,
        "                    elif edges and (p + j) % 2 == 0:\n",
        "                    elif False:\n",
        "x = 0, y != 0 never tried (class 7)",
        SOUNDNESS,
    ),
    Mutant(
        "core-no-far-draws",
        NUMERIC_LINE,
        "                    elif (attempt == 0 and far0 <= p < far0 + settings.FAR_POINTS) or attempt % 2:\n",
        "                    elif attempt % 2:\n",
        "nothing drawn beyond 2^24 / 1e6 (class 7)",
        SOUNDNESS,
    ),
    Mutant(
        "core-no-breakpoints",
        NUMERIC_LINE,
        "                if c.n_entries and step.has_kernels:\n",
        "                if False:\n",
        "kernels never tried at their breakpoints (class 7)",
        SOUNDNESS,
    ),
    Mutant(
        "core-given-ignored-numerically",
        NUMERIC_LINE,
        "                if values is not None and (c.given is None or c.given(*values)):\n",
        "                if values is not None:\n",
        "points drawn outside the given facts (class 7)",
        SOUNDNESS,
    ),
    Mutant(
        "core-nested-limits-not-renamed",
        NUMERIC_LINE,
        "        limits = [(names[v], lo.xreplace(names), hi.xreplace(names)) for v, lo, hi in s.limits]\n",
        "        limits = [(names[v], lo, hi) for v, lo, hi in s.limits]\n",
        "an inner limit keeps the outer variable's old name: NameError (class 8)",
        SOUNDNESS,
    ),
]
