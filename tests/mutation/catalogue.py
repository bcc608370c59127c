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
    # ---- RoPE kernels: the bug classes of shipped code -------------------------------------------------------------
    Mutant(
        "rope-exponent-i-over-d",
        "numeric/sinusoid.py",
        "    return base ** (-2 * i / width)\n",
        "    return base ** (-i / width)\n",
        "frequencies b^(-i/d) instead of b^(-2i/d)",
        ("tests/numeric/test_sinusoid.py", "tests/numeric/test_rotary.py", *PROOFS),
    ),
    Mutant(
        "rope-position-offset",
        ROTARY,
        "    angles = pos[..., None] * theta  # (..., tokens, r/2): m theta_i, float64\n",
        "    angles = (pos[..., None] + 1) * theta  # (..., tokens, r/2): m theta_i, float64\n",
        "positions off by one (a cache sliced at the wrong offset)",
        ROPE_TESTS,
    ),
    Mutant(
        "rope-cos-sin-swapped",
        ROTARY,
        "    cos, sin = np.cos(angles), np.sin(angles)\n    if af",
        "    sin, cos = np.cos(angles), np.sin(angles)\n    if af",
        "cos and sin swapped",
        ROPE_TESTS,
    ),
    Mutant(
        "rope-rotation-sign",
        ROTARY,
        "    cos, sin = np.cos(angles), np.sin(angles)\n    if af",
        "    cos, sin = np.cos(angles), -np.sin(angles)\n    if af",
        "rotation by -m theta",
        ROPE_TESTS,
    ),
    Mutant(
        "rope-half-sign",
        ROTARY,
        "                sin2 = np.concatenate([self.sin, -self.sin], axis=-1).astype(dtype)\n",
        "                sin2 = np.concatenate([-self.sin, self.sin], axis=-1).astype(dtype)\n",
        "rotate_half with the sign on the wrong half",
        ROPE_TESTS,
    ),
    Mutant(
        "rope-half-first-block-tables",
        ROTARY,
        "            ti = _table_index(block, cos2.shape)\n",
        "            ti = _table_index(tuple(slice(0, b.stop - (b.start or 0)) if isinstance(b, slice) and b.stop "
        "else b for b in block), cos2.shape)\n",
        "half layout reads block 0's table rows for every block (a cache without the offset)",
        ROPE_TESTS,
    ),
    Mutant(
        "rope-inplace-no-copy",
        ROTARY,
        "            np.copyto(src, xb)\n",
        "            src = xb\n",
        "in place: the input overwritten before the swapped half is read",
        ROPE_TESTS,
    ),
    Mutant(
        "rope-attention-factor-ignored",
        ROTARY,
        "    if af != 1.0:\n        cos *= af\n        sin *= af\n",
        "",
        "the attention factor (YaRN, LongRoPE) not applied",
        ROPE_TESTS,
    ),
    Mutant(
        "rope-partial-not-passed-through",
        ROTARY,
        "            np.copyto(ob[..., r:], src[..., r:])  # channels past rotary_dim pass through\n",
        "            ob[..., r:] = 0  # channels past rotary_dim pass through\n",
        "partial rotary: the channels past rotary_dim are not passed through",
        ROPE_TESTS,
    ),
    Mutant(
        "rope-layout-permutation-inverse",
        ROTARY,
        "    return np.concatenate([np.arange(0, width, 2), np.arange(1, width, 2)])\n",
        "    return np.argsort(np.concatenate([np.arange(0, width, 2), np.arange(1, width, 2)]))\n",
        "the checkpoint permutation applied in the wrong direction",
        ROPE_TESTS,
    ),
    Mutant(
        "rope-finite-check-off",
        ROTARY,
        "        if check and not _finite(ob):\n",
        "        if False:\n",
        "NaN and inf pass through silently",
        ROPE_TESTS,
    ),
    # ---- context extension ---------------------------------------------------------------------------------------
    Mutant(
        "scaling-yarn-extended-length",
        "numeric/scaling.py",
        "        c = lambda r: (d * log(L0 / (r * 2 * pi))) / (2 * log(b))\n",
        "        c = lambda r: (d * log(L0 * self.s / (r * 2 * pi))) / (2 * log(b))\n",
        "YaRN's correction range from the extended instead of the original length",
        SCALING_TESTS,
    ),
    Mutant(
        "scaling-yarn-clamp-half",
        "numeric/scaling.py",
        "        low, high = max(low, 0), min(high, d - 1)\n",
        "        low, high = max(low, 0), min(high, d // 2 - 1)\n",
        "YaRN's range clamped to d/2 - 1",
        SCALING_TESTS,
    ),
    Mutant(
        "scaling-llama3-unscaled",
        "numeric/scaling.py",
        "            out = np.where(lam > L0 / low, theta / s, theta)\n",
        "            out = np.where(lam > L0 / low, theta, theta)\n",
        "Llama 3 returns the unscaled frequencies for long wavelengths",
        SCALING_TESTS,
    ),
    Mutant(
        "scaling-ntk-exponent",
        "numeric/scaling.py",
        "            return inverse_frequencies(d, b * s ** (d / (d - 2))), 1.0\n",
        "            return inverse_frequencies(d, b * s ** (d / (d - 1))), 1.0\n",
        "NTK-aware base with d/(d-1)",
        SCALING_TESTS,
    ),
    Mutant(
        "scaling-dynamic-no-reset",
        "numeric/scaling.py",
        "            L = L0 if seq_len is None else max(seq_len, L0)\n            return inverse_frequencies(d, b *",
        "            L = L0 if seq_len is None else seq_len\n            return inverse_frequencies(d, b *",
        "dynamic NTK not reset for inputs shorter than L0",
        SCALING_TESTS,
    ),
    # ---- relative schemes -----------------------------------------------------------------------------------------
    Mutant(
        "t5-missing-cap",
        "numeric/t5.py",
        "    large = np.minimum(large, B - 1)  # the cap: every a >= max_distance shares the last bucket\n",
        "",
        "T5 buckets without the cap",
        ("tests/numeric/test_t5.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "t5-sign-convention",
        "numeric/t5.py",
        "    buckets = t5_relative_bucket(n[None, :] - m[:, None], bidirectional, cfg.num_buckets, max_distance)",
        "    buckets = t5_relative_bucket(m[:, None] - n[None, :], bidirectional, cfg.num_buckets, max_distance)",
        "t5_bias with query - key",
        ("tests/numeric/test_t5.py", "tests/symbolic/test_mutants.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "t5-no-halving",
        "numeric/t5.py",
        "        offset = np.where(r > 0, cfg.side_buckets, 0)  # keys after the query: upper half\n",
        "        offset = np.where(r > 0, 0, 0)  # keys after the query: upper half\n",
        "bidirectional buckets without the upper half for keys after the query",
        ("tests/numeric/test_t5.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "deberta-clip-2k",
        "numeric/deberta.py",
        "    return np.clip(r + k, 0, 2 * k - 1)\n",
        "    return np.clip(r + k, 0, 2 * k)\n",
        "DeBERTa's index clipped at 2k (one row too many)",
        ("tests/numeric/test_deberta.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "deberta-p2c-no-transpose",
        "numeric/deberta.py",
        "    p2c = np.take_along_axis(p2c_all, p2c_pos, axis=-1).T  # [j, i] -> [i, j]\n",
        "    p2c = np.take_along_axis(p2c_all, p2c_pos, axis=-1)  # [j, i] -> [i, j]\n",
        "the p2c gather without its transpose (the known port bug)",
        ("tests/numeric/test_deberta.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "deberta-log-bucket-max-position",
        "numeric/deberta.py",
        "np.log((max_position - 1) / mid)",
        "np.log(max_position / mid)",
        "log buckets scaled by max_position instead of max_position - 1",
        ("tests/numeric/test_deberta.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "alibi-power-of-two-formula",
        "numeric/alibi.py",
        "    extra = [Fraction(-8 * h, 2 * c) for h in range(1, 2 * c + 1, 2)][: n - c]  # odd h of the 2c sequence\n",
        "    first = [Fraction(-8 * h, n) for h in range(1, n + 1)]\n    extra = []\n",
        "ALiBi's power-of-two formula for every head count",
        ("tests/numeric/test_alibi.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "alibi-exponent-off-by-one",
        "numeric/alibi.py",
        "    first = [Fraction(-8 * h, c) for h in range(1, c + 1)]  # 2^(-8h/c)\n",
        "    first = [Fraction(-8 * h, c) for h in range(0, c)]  # 2^(-8h/c)\n",
        "ALiBi slopes 2^(-8(h-1)/n)",
        ("tests/numeric/test_alibi.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "alibi-bias-sign",
        "numeric/alibi.py",
        "    return -m[:, None, None] * (i[:, None] - j[None, :])[None, :, :]\n",
        "    return m[:, None, None] * (i[:, None] - j[None, :])[None, :, :]\n",
        "ALiBi's bias rewards distance",
        ("tests/numeric/test_alibi.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "txl-shift-drops-last-row",
        "numeric/transformer_xl.py",
        "    shifted = padded[..., 1:, :].reshape(lead + (qlen, klen))",
        "    shifted = padded[..., :-1, :].reshape(lead + (qlen, klen))",
        "the relative shift drops the last row instead of the first",
        ("tests/numeric/test_transformer_xl.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "txl-mask-strict",
        "numeric/transformer_xl.py",
        "    return j <= i + mlen\n",
        "    return j < i + mlen\n",
        "the causal mask hides the diagonal",
        ("tests/numeric/test_transformer_xl.py", *RELATIVE_CLAIMS),
    ),
]

FAST = "numeric/_fast.py"
MUTANTS += [
    # ---- the compiled kernel (numba) --------------------------------------------------------------------------------
    Mutant(
        "fast-half-sign",
        FAST,
        "                    out[a, t, i] = u * ci - v * si\n",
        "                    out[a, t, i] = u * ci + v * si\n",
        "compiled rotate_half with the wrong sign",
        ROPE_TESTS,
    ),
    Mutant(
        "fast-interleaved-swap",
        FAST,
        "                    out[a, t, 2 * i + 1] = u * si + v * ci\n",
        "                    out[a, t, 2 * i + 1] = u * ci + v * si\n",
        "compiled kernel with cos and sin swapped",
        ROPE_TESTS,
    ),
    Mutant(
        "fast-shared-table-row",
        FAST,
        "        ta = 0 if shared else a\n",
        "        ta = 0\n",
        "per-row tables read from row 0 (positions of the first sequence for every batch row)",
        ROPE_TESTS,
    ),
    Mutant(
        "fast-finite-mask",
        FAST,
        "                bad |= (bits[a, t, i] & mask) == mask\n",
        "",
        "the compiled finite check never fires",
        ROPE_TESTS,
    ),
    Mutant(
        "fast-partial-tail",
        FAST,
        "            for i in range(2 * h, W):\n                out[a, t, i] = x[a, t, i]\n",
        "",
        "compiled kernel leaves the channels past rotary_dim unwritten",
        ROPE_TESTS,
    ),
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
