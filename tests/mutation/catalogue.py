r"""The mutation catalogue: plausible bugs, each a replacement anchored to a function, with the tests that must
catch it.

Engine mutants are the ways a verifier stops checking (unsound rewrites, strict from non-strict, a weak numeric
line); kernel mutants are the bug classes public implementations shipped (layouts, signs, off-by-ones, missing
caps and clamps, precision).

A mutant names the function it changes, ``target="posproof.symbolic.engine.strategies:_expand"`` (the module as
``import`` spells it, then the qualified name in it: ``Class.method``, ``outer.inner``; a bare module for module
level code outside every function), and a ``pattern`` that occurs exactly once in that function's source;
:mod:`tests.mutation.anchor` finds both, whitespace-insensitively, and re-indents ``new`` (its lines after the
first are written relative to the matched line's indentation). A function moved to another module needs its
target's module renamed, and reformatting needs nothing; a mutant that no longer applies is *stale*
(``python -m tests.mutation.run --list`` names each with its reason, and ``tests/test_mutation_catalogue.py``
fails on it).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    r"""One plausible bug: ``new`` replaces ``pattern`` inside ``target``; ``tests`` (files of the repository's
    ``tests/``) must then fail."""

    id: str
    target: str
    pattern: str
    new: str
    bug: str
    tests: tuple[str, ...]


ENGINE_TESTS = ("tests/symbolic/engine/test_engine.py", "tests/symbolic/engine/test_false_claims.py")
PROOFS = ("tests/symbolic/test_catalogue.py",)
SOUNDNESS = ("tests/symbolic/engine/test_soundness_classes.py",)

MUTANTS: list[Mutant] = [
    # ---- the engine: symbolic line ------------------------------------------------------------------------------
    Mutant(
        "core-powsimp-force",
        target="posproof.symbolic.engine.strategies:_powsimp",
        pattern="return sp.powsimp(e)",
        new="return sp.powsimp(e, force=True)",
        bug="powsimp with force=True: x^u y^u = (xy)^u for any reals",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-powdenest-force",
        target="posproof.symbolic.engine.strategies:_powdenest",
        pattern="return sp.powdenest(e)",
        new="return sp.powdenest(e, force=True)",
        bug="powdenest with force=True: sqrt(x^2) = x",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-expand-force",
        target="posproof.symbolic.engine.strategies:_expand",
        pattern="return sp.expand(e)",
        new="return sp.expand(e, force=True)",
        bug="expand with force=True: splits powers and logs of any sign",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-expand-log-force",
        target="posproof.symbolic.engine.strategies:_expand_log",
        pattern="return sp.expand_log(e)",
        new="return sp.expand_log(e, force=True)",
        bug="expand_log with force=True: log(xy) = log x + log y for any x, y",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-sum-variable-assumptions",
        target="posproof.symbolic.engine.strategies:_bound_dummy",
        pattern="_BOUND[key] = sp.Dummy(var.name, **kw)",
        new="_BOUND[key] = var",
        bug="a summation variable keeps its declared assumptions whatever the range",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-combine-sums-ignores-limits",
        target="posproof.symbolic.engine.strategies:combine_sums",
        pattern="by_limits.setdefault(body.limits, []).append(coeff * body.function)",
        new="key = next((k for k in by_limits if k[0][:2] == body.limits[0][:2]), body.limits)\n"
        "by_limits.setdefault(key, []).append(coeff * body.function)",
        bug="sums with different ranges merged (one pair too many goes unseen)",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-refine-one-end",
        target="posproof.symbolic.engine.strategies:_decide_on_range",
        pattern="for sub in (lo + j, hi - j):\n    if cond.subs(var, sub) is sp.true:",
        new="for sub in (lo, hi):\n    if cond.subs(var, sub) is sp.true:",
        bug="a Piecewise condition decided at the two ends of a range only",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-nonnegative-as-not-negative",
        target="posproof.symbolic.engine.step:Step.symbolic_problem",
        pattern="if not (_ask(sp.Q.positive(gap), gap.is_positive, given) if strict else nonnegative(gap, given)):",
        new="if not (_ask(sp.Q.positive(gap), gap.is_positive, given) if strict else gap.is_negative is not True):",
        bug="'<=' accepted unless the gap is proved negative (unknown counts as proved)",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-log-sides-unchecked",
        target="posproof.symbolic.engine.strategies:_log_sides",
        pattern="if not proves(sp.Q.positive(side), side.is_positive, given):",
        new="if False:",
        bug="logarithms of sides not proved positive",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-strict-from-non-strict",
        target="posproof.symbolic.engine.core:Theorem.relation_problem",
        pattern='if self.rel in ("<", ">") and strict not in rels:',
        new="if False:",
        bug="a strict claim from '=' or '<=' steps",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-kernels-by-definition",
        target="posproof.symbolic.engine.numeric_line:_protect",
        pattern="return e.replace(lambda x: isinstance(x, Kernel), sub_kernel)",
        new="return e",
        bug="kernels evaluated through their own definition instead of the code in numeric/",
        tests=ENGINE_TESTS + PROOFS,
    ),
    # ---- the engine: numeric line --------------------------------------------------------------------------------
    Mutant(
        "core-float64-draws",
        target="posproof.symbolic.engine.domains:uniform_draw",
        pattern="return mpmath.mpf(rng.getrandbits(bits)) / mpmath.mpf(2) ** bits",
        new="return mpmath.mpf(rng.random())",
        bug="random values drawn at 53 bits",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-small-integers",
        target="posproof.symbolic.engine.domains",
        pattern="INT_MAX = 2**24",
        new="INT_MAX = 40",
        bug="integers only from [-40, 40] while positions reach 10^6",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-one-size",
        target="posproof.symbolic.engine.numeric_line:numeric_check",
        pattern="= [(p, sizes_list[p % len(sizes_list)], None) for p in range(n_points)]",
        new="= [(p, sizes_list[0], None) for p in range(n_points)]",
        bug="only the first declared size tried",
        tests=ENGINE_TESTS + PROOFS,
    ),
    Mutant(
        "core-no-edge-points",
        target="posproof.symbolic.engine.numeric_line:numeric_check",
        pattern="edge = p if 0 <= p < settings.EDGE_POINTS else None",
        new="edge = None",
        bug="edge values (0, +-1, branch cuts) never tried",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-absolute-error-below-one",
        target="posproof.symbolic.engine.numeric_line:numeric_check",
        pattern="err = mpmath.mpf(0) if gap == 0 else (gap / scale if scale else mpmath.inf)",
        new="err = gap / max(scale, 1)",
        bug="the relative error divided by max(|l|, |r|, 1)",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-strict-as-non-strict",
        target="posproof.symbolic.engine.numeric_line:numeric_check",
        pattern="err = mpmath.mpf(0) if slack > tol else mpmath.inf if slack <= 0 else tol * 2",
        new="err = max(mpmath.mpf(0), -slack)",
        bug="numerically '<' checked as '<='",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-identical-as-agree",
        target="posproof.symbolic.engine.numeric_line:numeric_check",
        pattern='return NumericResult("identical", 0, None)',
        new='return NumericResult("agree", 0, 0.0)',
        bug="identical sides reported as an error of 0",
        tests=ENGINE_TESTS + PROOFS,
    ),
    Mutant(
        "core-tolerance-loosened",
        target="posproof.symbolic.engine.settings",
        pattern="GUARD_DIGITS = 10",
        new="GUARD_DIGITS = 30",
        bug="the tolerance loosened by 10^20: right to 25 digits passes '50 digits'",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-identical-ignores-order",
        target="posproof.symbolic.engine.numeric_line:_compile",
        pattern="identical = [a == b for a, b in zip(left, right, strict=True)]",
        new="identical = [sp.srepr(a) == sp.srepr(b) for a, b in zip(left, right, strict=True)]",
        bug="sides compared up to the order of terms: sums written in another order skip the numeric check",
        tests=ENGINE_TESTS + PROOFS,
    ),
    # ---- the engine: definitions and facts ---------------------------------------------------------------------
    Mutant(
        "core-definition-identical-ok",
        target="posproof.symbolic.engine.core:Definition.verify",
        pattern='ok = num.status == "agree"',
        new='ok = num.status in ("agree", "identical")',
        bug="a definition whose code is never run passes",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-fact-cannot-fail",
        target="posproof.symbolic.engine.core:Fact.verify",
        pattern="ok = same and not problems",
        new="ok = not problems",
        bug="a fact passes whatever it computes",
        tests=ENGINE_TESTS + PROOFS,
    ),
]

ROPE_TESTS = (
    "tests/numeric/test_rotary.py",
    "tests/symbolic/test_mutants.py",
    "tests/numeric/test_fast.py",
    "tests/symbolic/test_catalogue.py",
)
RELATIVE_CLAIMS = ("tests/symbolic/test_catalogue.py", "tests/symbolic/test_relative_schemes.py")
SCALING_TESTS = ("tests/numeric/scaling/test_rules.py", "tests/symbolic/test_catalogue.py")

MUTANTS += [
    # ---- kernels and configuration reading --------------------------------------------------------------------
    Mutant(
        "rope-short-inv-freq-silently-partial",
        target="posproof.numeric.rotary:_rotary",
        pattern="if rotary_dim is None and width is not None and 2 * freq.size != width:",
        new="if False:",
        bug="inv_freq of the wrong length silently becomes a partial rotary",
        tests=("tests/numeric/test_rotary.py",),
    ),
    Mutant(
        "positions-float-range-unchecked",
        target="posproof.numeric._validate:positions",
        pattern="if flo < -MAX_INTEGER or fhi > MAX_INTEGER:",
        new="if False:",
        bug="float positions past 2**53 (1e300) accepted: their angles are wrong",
        tests=("tests/numeric/test_rotary.py",),
    ),
    Mutant(
        "config-rope-theta-default-10000",
        target="posproof.numeric.scaling.rules:rope_scaling_from_config",
        pattern='if base is None:\n    raise ValueError(\n        "config has no rope_theta',
        new='if base is None:\n    base = 10000.0\nif False:\n    raise ValueError(\n        "config has no rope_theta',
        bug="a config without rope_theta silently gets base 10000 (Cohere's default is 5e5)",
        tests=("tests/numeric/scaling/test_rules.py",),
    ),
    Mutant(
        "config-gemma3-local-base-ignored",
        target="posproof.numeric.scaling.rules:_rope_layers",
        pattern='local["rope_theta"] = local_base',
        new="pass",
        bug="Gemma 3's rope_local_base_freq ignored: the sliding layers get the global base",
        tests=("tests/numeric/scaling/test_rules.py",),
    ),
    Mutant(
        "audit-output-permutation-not-undone",
        target="posproof.numeric.audit.rope:_RopeAudit._normalise_channels",
        pattern="if (perm != np.arange(d)).any() and (A0[perm, np.arange(d)] > 0).all():",
        new="if False:",
        bug="DeepSeek's interleave-in, half-out apply function is a false not-relative alarm",
        tests=("tests/numeric/audit/test_audit_regressions.py",),
    ),
    # ---- RoPE kernels: the bug classes of shipped code -------------------------------------------------------------
    Mutant(
        "rope-exponent-i-over-d",
        target="posproof.numeric.sinusoid:inverse_frequencies",
        pattern="return base ** (-2 * i / width)",
        new="return base ** (-i / width)",
        bug="frequencies b^(-i/d) instead of b^(-2i/d)",
        tests=("tests/numeric/test_sinusoid.py", "tests/numeric/test_rotary.py", *PROOFS),
    ),
    Mutant(
        "rope-position-offset",
        target="posproof.numeric.rotary:rope_table",
        pattern="angles = pos[..., None] * theta  # (..., tokens, r/2): m theta_i, float64",
        new="angles = (pos[..., None] + 1) * theta  # (..., tokens, r/2): m theta_i, float64",
        bug="positions off by one (a cache sliced at the wrong offset)",
        tests=ROPE_TESTS,
    ),
    Mutant(
        "rope-cos-sin-swapped",
        target="posproof.numeric.rotary:rope_table",
        pattern="cos, sin = np.cos(angles), np.sin(angles)\nif af",
        new="sin, cos = np.cos(angles), np.sin(angles)\nif af",
        bug="cos and sin swapped",
        tests=ROPE_TESTS,
    ),
    Mutant(
        "rope-rotation-sign",
        target="posproof.numeric.rotary:rope_table",
        pattern="cos, sin = np.cos(angles), np.sin(angles)\nif af",
        new="cos, sin = np.cos(angles), -np.sin(angles)\nif af",
        bug="rotation by -m theta",
        tests=ROPE_TESTS,
    ),
    Mutant(
        "rope-half-sign",
        target="posproof.numeric.rotary:RopeTable._tables",
        pattern="sin2 = np.concatenate([self.sin, -self.sin], axis=-1).astype(dtype)",
        new="sin2 = np.concatenate([-self.sin, self.sin], axis=-1).astype(dtype)",
        bug="rotate_half with the sign on the wrong half",
        tests=ROPE_TESTS,
    ),
    Mutant(
        "rope-half-first-block-tables",
        target="posproof.numeric.rotary:_rotate",
        pattern="ti = _table_index(block, cos2.shape)",
        new="ti = _table_index(tuple(slice(0, b.stop - (b.start or 0)) if isinstance(b, slice) and b.stop "
        "else b for b in block), cos2.shape)",
        bug="half layout reads block 0's table rows for every block (a cache without the offset)",
        tests=ROPE_TESTS,
    ),
    Mutant(
        "rope-inplace-no-copy",
        target="posproof.numeric.rotary:_rotate",
        pattern="np.copyto(src, xb)",
        new="src = xb",
        bug="in place: the input overwritten before the swapped half is read",
        tests=ROPE_TESTS,
    ),
    Mutant(
        "rope-attention-factor-ignored",
        target="posproof.numeric.rotary:rope_table",
        pattern="if af != 1.0:\n    cos *= af\n    sin *= af",
        new="",
        bug="the attention factor (YaRN, LongRoPE) not applied",
        tests=ROPE_TESTS,
    ),
    Mutant(
        "rope-partial-not-passed-through",
        target="posproof.numeric.rotary:_rotate",
        pattern="np.copyto(ob[..., r:], src[..., r:])  # channels past rotary_dim pass through",
        new="ob[..., r:] = 0  # channels past rotary_dim pass through",
        bug="partial rotary: the channels past rotary_dim are not passed through",
        tests=ROPE_TESTS,
    ),
    Mutant(
        "rope-layout-permutation-inverse",
        target="posproof.numeric.rotary:layout_permutation",
        pattern="return np.concatenate([np.arange(0, width, 2), np.arange(1, width, 2)])",
        new="return np.argsort(np.concatenate([np.arange(0, width, 2), np.arange(1, width, 2)]))",
        bug="the checkpoint permutation applied in the wrong direction",
        tests=ROPE_TESTS,
    ),
    Mutant(
        "rope-finite-check-off",
        target="posproof.numeric.rotary:_rotate",
        pattern="if check and not _finite(ob):",
        new="if False:",
        bug="NaN and inf pass through silently",
        tests=ROPE_TESTS,
    ),
    # ---- context extension ---------------------------------------------------------------------------------------
    Mutant(
        "scaling-yarn-extended-length",
        target="posproof.numeric.scaling.rules:RopeScaling.yarn_correction_range",
        pattern="c = lambda r: (d * log(L0 / (r * 2 * pi))) / (2 * log(b))",
        new="c = lambda r: (d * log(L0 * self.s / (r * 2 * pi))) / (2 * log(b))",
        bug="YaRN's correction range from the extended instead of the original length",
        tests=SCALING_TESTS,
    ),
    Mutant(
        "scaling-yarn-clamp-half",
        target="posproof.numeric.scaling.rules:RopeScaling.yarn_correction_range",
        pattern="low, high = max(low, 0), min(high, d - 1)",
        new="low, high = max(low, 0), min(high, d // 2 - 1)",
        bug="YaRN's range clamped to d/2 - 1",
        tests=SCALING_TESTS,
    ),
    Mutant(
        "scaling-llama3-unscaled",
        target="posproof.numeric.scaling.rules:RopeScaling.inv_freq",
        pattern="out = np.where(lam > L0 / low, theta / s, theta)",
        new="out = np.where(lam > L0 / low, theta, theta)",
        bug="Llama 3 returns the unscaled frequencies for long wavelengths",
        tests=SCALING_TESTS,
    ),
    Mutant(
        "scaling-ntk-exponent",
        target="posproof.numeric.scaling.rules:RopeScaling.inv_freq",
        pattern="return inverse_frequencies(d, base=b * s ** (d / (d - 2))), 1.0",
        new="return inverse_frequencies(d, base=b * s ** (d / (d - 1))), 1.0",
        bug="NTK-aware base with d/(d-1)",
        tests=SCALING_TESTS,
    ),
    Mutant(
        "scaling-dynamic-no-reset",
        target="posproof.numeric.scaling.rules:RopeScaling.inv_freq",
        pattern="L = L0 if seq_len is None else max(seq_len, L0)\nreturn inverse_frequencies(d, base=b *",
        new="L = L0 if seq_len is None else seq_len\nreturn inverse_frequencies(d, base=b *",
        bug="dynamic NTK not reset for inputs shorter than L0",
        tests=SCALING_TESTS,
    ),
    # ---- relative schemes -----------------------------------------------------------------------------------------
    Mutant(
        "t5-missing-cap",
        target="posproof.numeric.t5:_bucket_distance",
        pattern="large = np.minimum(large, B - 1)  # the cap: every a >= max_distance shares the last bucket",
        new="pass",
        bug="T5 buckets without the cap",
        tests=("tests/numeric/test_t5.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "t5-sign-convention",
        target="posproof.numeric.t5:t5_bias",
        pattern="n[None, :] - m[:, None], bidirectional=bidirectional, num_buckets=cfg.num_buckets,",
        new="m[:, None] - n[None, :], bidirectional=bidirectional, num_buckets=cfg.num_buckets,",
        bug="t5_bias with query - key",
        tests=("tests/numeric/test_t5.py", "tests/symbolic/test_mutants.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "t5-no-halving",
        target="posproof.numeric.t5:_buckets",
        pattern="offset = np.where(r > 0, cfg.side_buckets, 0)  # keys after the query: upper half",
        new="offset = np.where(r > 0, 0, 0)  # keys after the query: upper half",
        bug="bidirectional buckets without the upper half for keys after the query",
        tests=("tests/numeric/test_t5.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "deberta-clip-2k",
        target="posproof.numeric.deberta:deberta_delta",
        pattern="return np.clip(r + k, 0, 2 * k - 1)",
        new="return np.clip(r + k, 0, 2 * k)",
        bug="DeBERTa's index clipped at 2k (one row too many)",
        tests=("tests/numeric/test_deberta.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "deberta-p2c-no-transpose",
        target="posproof.numeric.deberta:deberta_scores_gather",
        pattern="p2c = np.take_along_axis(p2c_all, p2c_pos, axis=-1).T  # [j, i] -> [i, j]",
        new="p2c = np.take_along_axis(p2c_all, p2c_pos, axis=-1)  # [j, i] -> [i, j]",
        bug="the p2c gather without its transpose (the known port bug)",
        tests=("tests/numeric/test_deberta.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "deberta-log-bucket-max-position",
        target="posproof.numeric.deberta:deberta_log_bucket",
        pattern="np.log((max_position - 1) / mid)",
        new="np.log(max_position / mid)",
        bug="log buckets scaled by max_position instead of max_position - 1",
        tests=("tests/numeric/test_deberta.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "alibi-power-of-two-formula",
        target="posproof.numeric.alibi:alibi_slope_exponents",
        pattern="extra = [Fraction(-8 * h, 2 * c) for h in range(1, 2 * c + 1, 2)][: n - c]"
        "  # odd h of the 2c sequence",
        new="first = [Fraction(-8 * h, n) for h in range(1, n + 1)]\nextra = []",
        bug="ALiBi's power-of-two formula for every head count",
        tests=("tests/numeric/test_alibi.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "alibi-exponent-off-by-one",
        target="posproof.numeric.alibi:alibi_slope_exponents",
        pattern="first = [Fraction(-8 * h, c) for h in range(1, c + 1)]  # 2^(-8h/c)",
        new="first = [Fraction(-8 * h, c) for h in range(0, c)]  # 2^(-8h/c)",
        bug="ALiBi slopes 2^(-8(h-1)/n)",
        tests=("tests/numeric/test_alibi.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "alibi-bias-sign",
        target="posproof.numeric.alibi:alibi_bias",
        pattern="return -m[:, None, None] * (i[:, None] - j[None, :])[None, :, :]",
        new="return m[:, None, None] * (i[:, None] - j[None, :])[None, :, :]",
        bug="ALiBi's bias rewards distance",
        tests=("tests/numeric/test_alibi.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "txl-shift-drops-last-row",
        target="posproof.numeric.transformer_xl:rel_shift",
        pattern="shifted = padded[..., 1:, :].reshape(lead + (qlen, klen))",
        new="shifted = padded[..., :-1, :].reshape(lead + (qlen, klen))",
        bug="the relative shift drops the last row instead of the first",
        tests=("tests/numeric/test_transformer_xl.py", *RELATIVE_CLAIMS),
    ),
    Mutant(
        "txl-mask-strict",
        target="posproof.numeric.transformer_xl:causal_mask",
        pattern="return j <= i + mlen",
        new="return j < i + mlen",
        bug="the causal mask hides the diagonal",
        tests=("tests/numeric/test_transformer_xl.py", *RELATIVE_CLAIMS),
    ),
]

MUTANTS += [
    # ---- the compiled kernel (numba) --------------------------------------------------------------------------------
    Mutant(
        "fast-half-sign",
        target="posproof.numeric._fast:rotate",
        pattern="out[a, t, i] = u * ci - v * si",
        new="out[a, t, i] = u * ci + v * si",
        bug="compiled rotate_half with the wrong sign",
        tests=ROPE_TESTS,
    ),
    Mutant(
        "fast-interleaved-swap",
        target="posproof.numeric._fast:rotate",
        pattern="out[a, t, 2 * i + 1] = u * si + v * ci",
        new="out[a, t, 2 * i + 1] = u * ci + v * si",
        bug="compiled kernel with cos and sin swapped",
        tests=ROPE_TESTS,
    ),
    Mutant(
        "fast-shared-table-row",
        target="posproof.numeric._fast:rotate",
        pattern="ta = 0 if shared else a",
        new="ta = 0",
        bug="per-row tables read from row 0 (positions of the first sequence for every batch row)",
        tests=ROPE_TESTS,
    ),
    Mutant(
        "fast-finite-mask",
        target="posproof.numeric._fast:rotate",
        pattern="bad |= (bits[a, t, i] & mask) == mask",
        new="pass",
        bug="the compiled finite check never fires",
        tests=ROPE_TESTS,
    ),
    Mutant(
        "fast-partial-tail",
        target="posproof.numeric._fast:rotate",
        pattern="for i in range(2 * h, W):\n    out[a, t, i] = x[a, t, i]",
        new="",
        bug="compiled kernel leaves the channels past rotary_dim unwritten",
        tests=ROPE_TESTS,
    ),
    # ---- the engine on users' claims ---------------------------------------------------------------------------
    Mutant(
        "core-reversed-range-assumed-forward",
        target="posproof.symbolic.engine.strategies:_bind.fresh",
        pattern='if not forward(lo, hi, given):\n    raise ValueError(f"the range {var}',
        new='if False:\n    raise ValueError(f"the range {var}',
        bug="a range not proved forward is summed as if it were (class 1)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-karr-range-as-forward",
        target="posproof.symbolic.engine.strategies:forward",
        pattern="return span.is_integer is True and proves(sp.Q.nonnegative(span + 1), (span + 1).is_nonnegative, "
        "given)",
        new="return span.is_integer is not False",
        bug="any integer-length range counts as forward (class 1)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-bound-declaration-kept",
        target="posproof.symbolic.engine.strategies:_bound_dummy",
        pattern='if holds and getattr(dummy, f"is_{fact}", None) is not True:',
        new="if False:",
        bug="a bound variable's declaration its range does not imply goes unnoticed (class 2)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-reduce-without-bind",
        target="posproof.symbolic.engine.strategies:reduce_difference",
        pattern="e = bind(lhs, given) - bind(rhs, given)",
        new="e = lhs - rhs",
        bug="reduce_difference sees the declared bound variables (class 2)",
        tests=ENGINE_TESTS,
    ),
    Mutant(
        "core-kernels-by-name",
        target="posproof.symbolic.engine.numeric_line:_kernel_name",
        pattern='name = f"_K{len(_KERNELS)}_{cls.__name__}"',
        new='name = f"_K_{cls.__name__}"',
        bug="two kernel classes of one name share the last one's code (class 3)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-doit-integrates",
        target="posproof.symbolic.engine.strategies:_doit",
        pattern="e = e.replace(_not_for_doit, hold)",
        new="pass",
        bug="doit runs integrate, limit and infinite sums (class 4)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-expand-complex-at-cuts",
        target="posproof.symbolic.engine.strategies:_expand_complex",
        pattern="if not (p.exp.is_integer or p.base.is_extended_nonnegative):",
        new="if False:",
        bug="expand_complex on powers with a branch cut (class 4)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-floats-accepted",
        target="posproof.symbolic.engine.core:_check_exact",
        pattern="if bad:",
        new="if False:",
        bug="Float atoms in theorems absorbed at 15 digits (class 4)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-formula-unchecked",
        target="posproof.symbolic.engine.core:Theorem.verify",
        pattern="or self.formula_problem() or self._formula_mismatch(dps, sizes_list, rng)",
        new="",
        bug="the printed formula is never compared with the proved relation (class 5)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-fact-bool-is-int",
        target="posproof.symbolic.engine.core:_kind",
        pattern="if isinstance(v, (bool, sp.logic.boolalg.BooleanAtom)):",
        new="if False:",
        bug="True == 1 in a fact (class 6)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-fact-at-15-digits",
        target="posproof.symbolic.engine.core:_same_value",
        pattern="return mpmath.mpf(value) == mpmath.mpf(claim)  # mpf(...) rounds to the working precision",
        new="return mpmath.nstr(value, 15) == mpmath.nstr(claim, 15)",
        bug="facts compared at mpmath's default 15 digits (class 6)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-sizes-unchecked",
        target="posproof.symbolic.engine.core:_check_sizes",
        pattern="if holds is not None and has is not None and has != holds:",
        new="if False:",
        bug="a size outside its symbol's assumptions accepted (class 7)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-reversed-range-summed-empty",
        target="posproof.symbolic.engine.numeric_line:_range",
        pattern="if hi < lo - 1:",
        new="if False:",
        bug="the numeric line sums a reversed range as empty (class 1, both lines one meaning)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-empty-sum-is-evidence",
        target="posproof.symbolic.engine.numeric_line:numeric_check",
        pattern="evidence = not (_Sums.total and not _Sums.nonempty)",
        new="evidence = True",
        bug="a point where every sum is empty counts as agreement (class 7)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-diagonal-edges-only",
        target="posproof.symbolic.engine.numeric_line:numeric_check",
        pattern="elif edges and (p + j) % 2 == 0:",
        new="elif False:",
        bug="x = 0, y != 0 never tried (class 7)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-no-far-draws",
        target="posproof.symbolic.engine.numeric_line:numeric_check",
        pattern="elif (attempt == 0 and far0 <= p < far0 + settings.FAR_POINTS) or attempt % 2:",
        new="elif attempt % 2:",
        bug="nothing drawn beyond 2^24 / 1e6 (class 7)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-no-breakpoints",
        target="posproof.symbolic.engine.numeric_line:numeric_check",
        pattern="if c.n_entries and step.has_kernels:",
        new="if False:",
        bug="kernels never tried at their breakpoints (class 7)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-given-ignored-numerically",
        target="posproof.symbolic.engine.numeric_line:numeric_check",
        pattern="if values is not None and (c.given is None or c.given(*values)):",
        new="if values is not None:",
        bug="points drawn outside the given facts (class 7)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-nested-limits-not-renamed",
        target="posproof.symbolic.engine.numeric_line:_compile.fresh_sum",
        pattern="limits = [(names[v], lo.xreplace(names), hi.xreplace(names)) for v, lo, hi in s.limits]",
        new="limits = [(names[v], lo, hi) for v, lo, hi in s.limits]",
        bug="an inner limit keeps the outer variable's old name: NameError (class 8)",
        tests=SOUNDNESS,
    ),
    Mutant(
        "core-any-citation-proves",
        target="posproof.symbolic.engine.step:Step.symbolic_problem",
        pattern="if not isinstance(self.cites, Citation) or not isinstance(self.cites.lemma, Lemma):",
        new="if False:",
        bug="any object answering holds() -> True proves a step",
        tests=("tests/symbolic/engine/test_lemmas.py",),
    ),
    Mutant(
        "lemma-unproved-cited",
        target="posproof.symbolic.engine.step:Citation.problems",
        pattern="if not lemma.proved:",
        new="if False:",
        bug="a lemma cited without its theorem verifying",
        tests=("tests/symbolic/engine/test_lemmas.py",),
    ),
    Mutant(
        "lemma-declarations-unchecked",
        target="posproof.symbolic.engine.step:Citation.problems",
        pattern="if not _keeps(value, fact, given):",
        new="if False:",
        bug="a lemma for N >= 0 cited at a negative N",
        tests=("tests/symbolic/engine/test_lemmas.py",),
    ),
    Mutant(
        "lemma-sides-unchecked",
        target="posproof.symbolic.engine.step:Citation.problems",
        pattern="if not _same(written, inst, step.strategy, given):",
        new="if False:",
        bug="a step citing a lemma need not be its instance",
        tests=("tests/symbolic/engine/test_lemmas.py",),
    ),
    Mutant(
        "lemma-relation-unchecked",
        target="posproof.symbolic.engine.step:Citation.problems",
        pattern="if step.rel != lemma.theorem.rel:",
        new="if False:",
        bug="an '=' lemma cited for an inequality",
        tests=("tests/symbolic/engine/test_lemmas.py",),
    ),
    Mutant(
        "core-abs-sides-one-part",
        target="posproof.symbolic.engine.strategies:_abs_sides",
        pattern="return [(a, big), (-a, big)]",
        new="return [(a, big)]",
        bug="|a| <= b from a <= b alone",
        tests=("tests/symbolic/engine/test_lemmas.py",),
    ),
    Mutant(
        "core-nonnegative-any-coefficient",
        target="posproof.symbolic.engine.strategies:_multiple",
        pattern="if rest == a and c.is_Rational and abs(c) <= 1:",
        new="if rest == a and c.is_Rational:",
        bug="|a| + c a taken nonnegative for any c",
        tests=("tests/symbolic/engine/test_lemmas.py",),
    ),
    Mutant(
        "core-nonnegative-sum-any-range",
        target="posproof.symbolic.engine.strategies:nonnegative",
        pattern="if not all(forward(lo, hi, given) for _, lo, hi in e.limits):\n    return False",
        new="if False:\n    return False",
        bug="a sum of nonnegative terms over a reversed range taken nonnegative",
        tests=("tests/symbolic/engine/test_lemmas.py",),
    ),
]

NEW_ENGINE = ("tests/symbolic/engine/test_proofs_for_every_size.py",)
MUTANTS += [
    # ---- the pieces that prove results for every size (Maximum, reindex, squares, citations) -------------------
    Mutant(
        "maximum-empty-range",
        target="posproof.symbolic.engine.strategies:_bind.fresh",
        pattern="if isinstance(holder, Maximum) and not forward(lo, hi - 1, given):",
        new="if False:",
        bug="a maximum over a range that may be empty is accepted",
        tests=NEW_ENGINE,
    ),
    Mutant(
        "maximum-any-index",
        target="posproof.symbolic.engine.strategies:_partner",
        pattern="if x is not None and _within(x, lo, hi, given, ranges):",
        new="if x is not None:",
        bug="a term outside the maximum's range is taken as bounded by it",
        tests=NEW_ENGINE,
    ),
    Mutant(
        "maximum-range-upper-end",
        target="posproof.symbolic.engine.strategies:_within",
        pattern="(sp.expand(low - lo), sp.expand(hi - high))",
        new="(sp.expand(low - lo),)",
        bug="only the lower end of the maximum's range is checked",
        tests=NEW_ENGINE,
    ),
    Mutant(
        "re-rule-any-coefficient",
        target="posproof.symbolic.engine.strategies:_partner",
        pattern="if isinstance(body, sp.re) and c.is_Rational and abs(c) <= 1:  # c Re(a) + |a|",
        new="if isinstance(body, sp.re) and c.is_Rational:  # c Re(a) + |a|",
        bug="|a| - 2 Re(a) taken as nonnegative",
        tests=NEW_ENGINE + PROOFS,
    ),
    Mutant(
        "square-sides-signs",
        target="posproof.symbolic.engine.strategies:_square_sides",
        pattern="if not nonnegative(side, given):\n"
        '    raise ValueError("square_sides needs both sides proved nonnegative")',
        new="pass",
        bug="squaring both sides without both proved nonnegative",
        tests=NEW_ENGINE,
    ),
    Mutant(
        "split-last-any-range",
        target="posproof.symbolic.engine.strategies:_split_last.split",
        pattern="if (hi - lo).is_nonnegative is not True or not (hi - lo).is_integer:\n    return s",
        new="if not (hi - lo).is_integer:\n    return s",
        bug="the last term split off a sum that may be empty",
        tests=NEW_ENGINE,
    ),
    Mutant(
        "reindex-part-of-range",
        target="posproof.symbolic.engine.strategies:_reindex.reindexed",
        pattern="if sp.expand(hi - (p.args[0] - 1)) != 0:\n    return s",
        new="if False:\n    return s",
        bug="re-indexing by a permutation of 0..n-1 a sum over part of that range",
        tests=NEW_ENGINE,
    ),
    Mutant(
        "reindex-variable-outside",
        target="posproof.symbolic.engine.strategies:_reindex.reindexed",
        pattern="if body.has(var):  # k also occurs outside π(k): not of the form f(π(k))\n    return s",
        new="if False:\n    return s",
        bug="re-indexing a sum whose summand also uses k outside pi(k)",
        tests=NEW_ENGINE,
    ),
    Mutant(
        "congruence-any-arguments",
        target="posproof.symbolic.engine.step:Step.symbolic_problem",
        pattern="if inner is not None and is_zero(reduce_difference(*inner, self.strategy, given)):",
        new="if inner is not None:",
        bug="F(a) = F(b) accepted without a = b",
        tests=NEW_ENGINE,
    ),
    Mutant(
        "alpha-shares-free-names",
        target="posproof.symbolic.engine.strategies:alpha.fresh",
        pattern='_ALPHA[key] = sp.Dummy(f"b{depth}", **kw)',
        new='_ALPHA[key] = sp.Symbol("b0", **kw)',
        bug="bound variables of different depths renamed to one name (capture)",
        tests=NEW_ENGINE + PROOFS,
    ),
    Mutant(
        "beside-one-side",
        target="posproof.symbolic.engine.step:Citation.problems",
        pattern="sides = tuple(sp.Add(side, -self.beside) for side in sides)",
        new="sides = (sp.Add(sides[0], -self.beside), sides[1])",
        bug="a term added to one side of a lemma instance only",
        tests=NEW_ENGINE,
    ),
    Mutant(
        "numeric-maximum-as-sum",
        target="posproof.symbolic.engine.numeric_line:_printer.Printer._print_Maximum",
        pattern='return f"(builtins.max({self._print(expr.function)} {loop}))"',
        new='return f"(builtins.min({self._print(expr.function)} {loop}))"',
        bug="the numeric line evaluates a maximum as a minimum",
        tests=NEW_ENGINE,
    ),
    Mutant(
        "numeric-derivative-order",
        target="posproof.symbolic.engine.numeric_line:_printer.Printer._print_Derivative",
        pattern='return f"(_mpdiff(lambda {name}: {self._print(expr.expr)}, {name}, {self._print(order)}))"',
        new='return f"(_mpdiff(lambda {name}: {self._print(expr.expr)}, {name}, 1))"',
        bug="the numeric line takes every derivative as a first derivative",
        tests=NEW_ENGINE + PROOFS,
    ),
    Mutant(
        "numeric-complex-inequality",
        target="posproof.symbolic.engine.numeric_line:numeric_check",
        pattern="if max(abs(mpmath.im(left)), abs(mpmath.im(right))) > tol * scale:",
        new="if False:",
        bug="an inequality between complex values decided on their real parts",
        tests=ENGINE_TESTS + NEW_ENGINE,
    ),
]

MULTIAXIS_TESTS = ("tests/numeric/test_multiaxis.py", "tests/numeric/audit/test_audit_multiaxis.py")
MUTANTS += [
    # ---- multi-axis RoPE: the kernel's axis map, M-RoPE's layouts, the audit's channel probe --------------------
    Mutant(
        "multiaxis-first-axis-only",
        target="posproof.numeric._axis_map:angles",
        pattern="return pos[..., ax] * theta  # (..., tokens, r/2)",
        new="return pos[..., np.zeros_like(ax)] * theta  # (..., tokens, r/2)",
        bug="every pair turns with the first axis (text positions t = h = w hide it)",
        tests=MULTIAXIS_TESTS,
    ),
    Mutant(
        "mrope-interleaved-as-chunked",
        target="posproof.numeric.multiaxis:mrope_axes",
        pattern="axes[np.arange(a, min(A * sections[a], half), A)] = a",
        new="axes[np.arange(a, min(A * sections[a], half), A)] = A - a",
        bug="Qwen3-VL's interleaved layout with the spatial axes swapped",
        tests=MULTIAXIS_TESTS,
    ),
    Mutant(
        "mrope-chunked-order",
        target="posproof.numeric.multiaxis:mrope_axes",
        pattern="return np.repeat(np.arange(A, dtype=np.int64), sections)",
        new="return np.repeat(np.arange(A, dtype=np.int64)[::-1], sections[::-1])",
        bug="chunked sections summed in the wrong order (w, h, t)",
        tests=MULTIAXIS_TESTS,
    ),
    Mutant(
        "multiaxis-audit-pass-through-unchecked",
        target="posproof.numeric.audit.multiaxis:_channel_finding",
        pattern="if moved[r:].any():",
        new="if False:",
        bug="the audit does not notice pass-through channels that rotate (partial M-RoPE over the whole head)",
        tests=MULTIAXIS_TESTS,
    ),
]

MUTANTS += [
    Mutant(
        "unfold-unbound",
        target="posproof.symbolic.engine.strategies:_unfold",
        pattern="lambda k: bind(k.doit())",
        new="lambda k: k.doit()",
        bug="a kernel's definition unfolded with its summation variables unbound (it never meets the sides' sums)",
        tests=PROOFS,
    ),
]

# ---- the fragment: each rule of posproof.symbolic.engine.fragment (docs/soundness.md) ------------------------------
FRAGMENT_TESTS = ("tests/symbolic/engine/test_fragment.py",)
_VISIT = "posproof.symbolic.engine.fragment:_Visitor.node"


def _fragment(id_: str, target: str, pattern: str, new: str, bug: str) -> Mutant:
    return Mutant(f"fragment-{id_}", target=target, pattern=pattern, new=new, bug=bug, tests=FRAGMENT_TESTS)


MUTANTS += [
    _fragment("float", _VISIT, "if t is sp.Float:", "if t is None:", "Float atoms accepted (absorbed at 15 digits)"),
    _fragment(
        "default-allow",
        _VISIT,
        'return f"{_describe(e)}: {t.__name__} is not in the fragment (docs/soundness.md lists what is)"',
        'return ""',
        "a SymPy class that is not listed is accepted (default-allow)",
    ),
    _fragment(
        "undefined-functions",
        _VISIT,
        "if isinstance(e, sp.core.function.AppliedUndef):",
        "if isinstance(e, sp.core.function.AppliedUndef) and False:",
        "undefined functions accepted",
    ),
    _fragment(
        "log-of-complex",
        _VISIT,
        "if len(e.args) != 1 or not _positive(e.args[0], g):",
        "if len(e.args) != 1:",
        "log of an argument not proved positive (its branch cut)",
    ),
    _fragment(
        "complex-power",
        _VISIT,
        "if not x.is_integer and not (_real(x, g) and (_positive(b, g) or _nonnegative(b, g) and _positive(x, g))):",
        "if False:",
        "a non-integer power of a complex base (its branch cut)",
    ),
    _fragment(
        "max-of-complex",
        _VISIT,
        'return f"{t.__name__} {_describe(e)}: its argument {_describe(a)} is not proved real"',
        "pass",
        "Max, Min, floor, ceiling of arguments not proved real",
    ),
    _fragment(
        "piecewise-partial",
        _VISIT,
        "if e.args[-1].cond is not sp.true:",
        "if False:",
        "a Piecewise with no last true branch (undefined where no condition holds)",
    ),
    _fragment(
        "kernel-finite-sums-closed",
        "posproof.symbolic.engine.kernel:_patched.doit",
        "if _MODES:  # written out term by term",
        "if False:  # written out term by term",
        "a kernel's finite sum closed by SymPy (Σ_{i=0}^{3} δ(i, x) = 1 for 0 <= x <= 3, false for non-integer x)",
    ),
    _fragment(
        "quotient-by-zero",
        _VISIT,
        "if x.is_integer and x.is_nonnegative is not True and not self.evaluated and not _nonzero(b, g):",
        "if False:",
        "a quotient by what may be 0 (cancel then proves x/x = 1 at x = 0)",
    ),
    _fragment(
        "derivative-at-kinks",
        _VISIT,
        "if not smooth(e.expr, v, g):",
        "if False:",
        "a derivative of a function with kinks (the two lines are not independent there)",
    ),
    _fragment(
        "infinite-sums",
        "posproof.symbolic.engine.fragment:_Visitor.limits",
        "if not (_finite_bound(lo) and _finite_bound(hi)):",
        "if False:",
        "sums with infinite limits accepted",
    ),
    _fragment(
        "maximum-real-index",
        "posproof.symbolic.engine.fragment:_Visitor.limits",
        "if not _integer(lo, g):",
        "if False:",
        "a Maximum over a non-integer index",
    ),
    _fragment(
        "kernel-assumptions-trusted",
        "posproof.symbolic.engine.fragment:_kernel",
        'if getattr(body, f"is_{fact}") is not True:',
        "if False:",
        "a kernel's class assumptions trusted without proof from its definition",
    ),
    _fragment(
        "kernel-closed-forms",
        "posproof.symbolic.engine.kernel:_patched.doit",
        'if _MODES[-1] == "refuse":',
        "if False:",
        "a kernel's definition may evaluate SymPy's closed form of a symbolic-limit sum",
    ),
    _fragment(
        "permutation-overrides",
        "posproof.symbolic.engine.fragment:_permutation",
        'if name.startswith("__") or name in ("_nargs", "_prop_handler"):',
        "if True:",
        "a PermutationMap subclass that overrides its code is trusted as a permutation",
    ),
    _fragment(
        "real-by-form",
        "posproof.symbolic.engine.fragment:_real_by_form",
        "if e.is_real:",
        "if True:",
        "every expression taken as real",
    ),
    _fragment(
        "definition-without-kernel",
        "posproof.symbolic.engine.core:Definition.__post_init__",
        "if not entries or not all(isinstance(x, Kernel) for x in entries):",
        "if False:",
        "a Definition that defines no code",
    ),
    _fragment(
        "fact-wrong-not-run",
        "posproof.symbolic.engine.core:Fact._wrong_problem",
        'return "the wrong computation reproduces the claim: this check cannot fail" if reproduces else ""',
        'return ""',
        "a fact's wrong computation never run",
    ),
    _fragment(
        "fact-method-unchecked",
        "posproof.symbolic.engine.core:_method_problem",
        "if _float64s(value):",
        "if False:",
        "a float64 value accepted as computed with mpmath",
    ),
    _fragment(
        "size-keys",
        "posproof.symbolic.engine.core:_check_size_keys",
        "if key not in free:",
        "if False:",
        "sizes of a symbol the claim does not have, silently ignored",
    ),
]

MUTANTS += [
    Mutant(
        "inequality-sides-not-real",
        target="posproof.symbolic.engine.step:Step.symbolic_problem",
        pattern='reason = _not_real((("left", lhs), ("right", rhs)), given)',
        new='reason = ""',
        bug="an order relation between sides not proved real (a complex score with its Re forgotten)",
        tests=("tests/symbolic/engine/test_step.py",),
    ),
    _fragment(
        "domain-foreign-name",
        "posproof.symbolic.engine.core:_check_domains",
        "if name not in atoms:",
        "if name not in atoms and False:",
        "a domain under a name the claim does not have, silently ignored",
    ),
    _fragment(
        "given-contradictions",
        "posproof.symbolic.engine.core:_check_given",
        "if verdict is False:",
        "if False:",
        "given facts that contradict the declarations or each other (anything follows)",
    ),
]
