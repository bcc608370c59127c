r"""The RoPE audit proper: :func:`audit_rope` probes the function, reads the structure, matches the
frequencies and turns what differs into findings, root causes first; :func:`assert_rope_conforms` is the helper
for users' test suites."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import mpmath
import numpy as np
from posproof.numeric import _validate
from posproof.numeric import precision_profile as pp
from posproof.numeric.audit.call import RopeCall, ShapeError
from posproof.numeric.audit.model import RopeModel, rope_exact_float
from posproof.numeric.audit.multiaxis import MultiaxisPlan, audit_rope_multiaxis, multiaxis_kind, multiaxis_plan
from posproof.numeric.audit.probe import (
    TABLE_ROUNDOFF,
    Angles,
    Structure,
    furthest_pair,
    probe_matrices,
    read_angles,
    read_structure,
    same_frequencies,
)
from posproof.numeric.audit.report import (
    AuditCallError,
    Finding,
    RopeConformanceError,
    RopeMatch,
    RopeReport,
    SchemeReport,
    example_text,
    function_name,
    pairs_text,
)
from posproof.numeric.audit.rope_checks import RopeChecks
from posproof.numeric.audit.rules import Candidate, first_match, fit_base
from posproof.numeric.sinusoid import inverse_frequencies
from posproof.numeric.tolerances import AUDIT_BLOCK_TOL as BLOCK_TOL
from posproof.numeric.tolerances import AUDIT_FREQ_RTOL as FREQ_RTOL
from posproof.numeric.tolerances import AUDIT_FREQ_RTOL_LOW as FREQ_RTOL_LOW


@dataclass(frozen=True)
class _Frequencies:
    r"""The frequency rule an output matches: the ``candidate`` of :func:`rule_candidates` (``None`` if none), else the
    ``fitted`` base of geometric frequencies (``None`` if not geometric), the ``model`` of what the output computes
    (``None`` if neither), and the candidates tried (the expected first)."""

    candidate: Candidate | None
    fitted: float | None
    model: RopeModel | None
    candidates: list[Candidate]


class _RopeAudit(RopeChecks):
    r"""One audit of one function: :meth:`audit` gives the report."""

    # ---- the audit
    def audit(self) -> RopeReport:
        x0 = self.rng.uniform(-1, 1, (3, self.width))  # (tokens, width)
        pos0 = np.array([0, 1, 2])
        self._stage("shape and dtype")
        findings = self._shape_findings(x0, pos0)
        if findings:
            return self._report(findings, None, None)
        findings += self._dtype_findings(x0, pos0)
        matches = []
        profile = None
        for which in (0, 1) if self.call.qk else (0,):
            label = self._label(which)
            if self.call.qk:
                cross = self._cross_wired(which)
                if cross is not None:
                    findings.append(cross)
                    continue
            f, match, prof = self._audit_output(which, label)
            findings.extend(f)
            matches.append(match)
            profile = profile or prof
        match = matches[0] if matches else None
        if self.call.qk and len(matches) == 2:
            p0, p1 = (self.permutations.get(w) for w in (0, 1))
            same = (p0 is None and p1 is None) or (p0 is not None and p1 is not None and np.array_equal(p0, p1))
            if not same or self.offsets.get(0) != self.offsets.get(1):
                findings.append(
                    Finding(
                        "not-relative",
                        "q and k come out with their channels in different orders: scores are not RoPE's",
                        {"width": self.width},
                        None,
                    )
                )
        return self._report(findings, match, profile)

    def _label(self, which: int) -> str | None:
        return ("q", "k")[which] if self.call.qk else None

    def _shape_findings(self, x0: np.ndarray, pos0: np.ndarray) -> list[Finding]:
        outs, _ = self.caller.raw(x0, pos0)  # AuditCallError if it raises
        findings = []
        for w, y in enumerate(outs):
            if y.size != x0.size or (y.shape != x0.shape and self.call.axes == "td"):
                findings.append(
                    Finding(
                        "shape-or-dtype",
                        f"returns shape {y.shape} for input {x0.shape}",
                        {
                            "width": self.width,
                            "positions": [0, 1, 2],
                            "input_shape": list(x0.shape),
                            "output_shape": list(y.shape),
                        },
                        self._label(w),
                    )
                )
        return findings

    def _dtype_findings(self, x0: np.ndarray, pos0: np.ndarray) -> list[Finding]:
        findings = []
        for dtype in (np.float64, np.float32):
            outs, dtypes = self.caller.raw(x0.astype(dtype), pos0)
            for w, dt in enumerate(dtypes):
                if dtype == np.float64 and dt == "float32" and self.caller.jax32:  # JAX without float64
                    note = "JAX without jax_enable_x64 computes in float32: float64 inputs come back float32 (accepted)"
                    if note not in self.notes:
                        self.notes.append(note)
                    continue
                if dt != np.dtype(dtype).name:
                    findings.append(
                        Finding(
                            "shape-or-dtype",
                            f"returns {dt} for {np.dtype(dtype).name} input",
                            {
                                "width": self.width,
                                "positions": [0, 1, 2],
                                "input_dtype": np.dtype(dtype).name,
                                "output_dtype": dt,
                            },
                            self._label(w),
                        )
                    )
        return findings

    def _report(self, findings, match, profile) -> RopeReport:
        if match is None:
            match = RopeMatch(None, None, None, None, None, None, None, self.caller.backend or "numpy")
        # one finding per id and output
        seen, unique = set(), []
        for f in findings:
            if (f.id, f.output) not in seen:
                seen.add((f.id, f.output))
                unique.append(f)
        name = self.name if self.name is not None else function_name(self.fn)
        return RopeReport(tuple(unique), self.expected_dict(), match, profile, name, tuple(self.notes))

    # ---- one output
    def _audit_output(self, which: int, label):
        r"""``(findings, match, profile)`` of output ``which``: does it follow the positions; the structure of
        ``A_m``; what the angles say; the frequency rule; then, if nothing explains a failure yet, the behaviour."""
        f = self._out(which)
        model = self._expected_model(self.width, self.top + 1)
        self._stage(f"probes at {len(self.P)} positions up to {self.top}", label)
        A = probe_matrices(f, self.P, self.width)  # (positions, out, in)
        bad = self._non_finite(A, label)
        if bad is not None:
            return [bad], None, None
        A, f = self._normalise_channels(A, f, which, label)
        ignored = self._ignores_positions(f, label)
        if ignored is not None:
            return [ignored], None, None
        still = self.cfg.rope_type == "proportional" or (self.inv_freq is not None and bool((self.inv_freq == 0).any()))
        st = read_structure(A, self.P, self.width, still)
        if st.kind != "rotation" or st.layout is None:
            return self._generic(f, model, st, label)
        self._stage("angles and frequencies", label)
        ang = read_angles(st, self.P, model.layout)
        if self.layout == "auto":
            self.found_layout = ang.layout
            model = self._expected_model(self.width, self.top + 1)
        prec = self._precision(f, A, st, ang, model)
        eps, precision = prec.eps, prec.name
        if prec.stage == "jump" and eps is not None:  # eps: the first position where angles leave m theta_i
            ang, eps = replace(ang, jumps=sorted(set(ang.jumps) | {int(eps)})), None
        self._low_precision = prec.sixteen_bit
        self._table_roundoff = TABLE_ROUNDOFF[prec.table]
        if prec.sixteen_bit or ang.jumps:  # frequencies known to the angles' rounding only
            self._rtol = np.asarray(FREQ_RTOL_LOW if prec.sixteen_bit else FREQ_RTOL)
        else:  # exact-enough angles: the frequencies refined over every probed position, to their uncertainty
            ang = replace(ang, omega=prec.omega, theta=np.abs(prec.omega))
            self._rtol = prec.rtol
        freq = self._frequencies(ang, model)
        rounded = None
        if freq.candidate is None and not ang.jumps and not prec.sixteen_bit and not self.call.cached:
            rounded = self._rounded_to(ang.theta, model)  # frequencies rounded to 16 bits: 16-bit angles
            if rounded is not None:  # the angles err by the frequencies' relative rounding, at every position
                precision, self._low_precision = rounded, True
                eps = float(np.median(np.abs(ang.theta - model.theta) / np.where(model.theta == 0, 1.0, model.theta)))
                self._rtol = np.asarray(FREQ_RTOL_LOW)
                freq = self._frequencies(ang, model)
        # findings, root causes first
        findings = self._angle_findings(f, label, st, ang)
        findings += self._frequency_findings(f, label, ang, freq, model)
        if precision in ("float16", "bfloat16") and not ang.jumps:
            if rounded is not None:
                findings.append(self._rounded_frequencies_finding(f, rounded, ang.theta, model, label))
            else:
                findings.append(self._precision_finding(f, precision, eps, label))
        # behavioural checks (confirm, and catch what the structure did not explain)
        if all(x.id == "low-precision-angles" for x in findings):  # nothing explains a failure yet
            self._stage("behaviour on random vectors", label)
            findings.extend(self._behaviour(f, freq.model, eps, st, label))
        if self.dtype is not None and ang.exact and which not in self.permutations and which not in self.offsets:
            self._stage(f"{self.dtype} inputs", label)
            low = self._input_dtype_finding(which, label, st, ang.theta)
            if low is not None:
                findings.append(low)
        expected = freq.candidate is not None and freq.candidate.name == ""
        profile = None
        if freq.model is not None and ang.exact:
            self._stage("precision profile", label)
            profile = self._profile(f, freq.model, expected)
            if not findings and not prec.sixteen_bit and prec.table in ("float16", "bfloat16"):
                table = self._table_finding(f, prec, profile, label)
                if table is not None:
                    findings.append(table)
        return findings, self._matched(ang, freq, precision, eps, prec), profile

    def _non_finite(self, A: np.ndarray, label) -> Finding | None:
        r"""``non-finite`` if a unit vector at a position below 2**15 (where even float16 angles are finite) comes out
        NaN or inf (``A``: the probed matrices): the first such position, input and channel."""
        d = self.width
        small = np.array([p < 2**15 for p in self.P])
        bad = ~np.isfinite(A) & small[:, None, None]  # (positions, out, in)
        if not bad.any():
            return None
        k, channel, j = (int(v) for v in np.argwhere(bad.transpose(0, 2, 1))[0][[0, 2, 1]])
        m = self.P[k]
        vec = np.zeros(d)
        vec[j] = 1.0
        got = A[k, :, j]
        ex = {"width": d, "positions": [m], "vectors": [vec.tolist()], "got": [got.tolist()]}
        msg = f"returns {got[channel]} at position {m}, channel {channel} for the unit vector e_{j} (finite input)"
        return Finding("non-finite", msg, ex, label)

    def _normalise_channels(self, A: np.ndarray, f, which: int, label):
        r"""Undo what keeps scores RoPE's but moves channels, in the probed matrices ``A`` and in ``f``: an output
        permutation (DeepSeek's interleave-in, half-out ``apply_rotary_pos_emb_interleave``; the same for q and k,
        so every score is unchanged) and a rotary slice at the end of the head instead of its start (DeepSeek-V4).
        Each is noted in the report."""
        d = self.width
        A0 = A[0]  # (out, in): the map at position 0
        big = np.abs(A0) > 0.5
        if np.isfinite(A0).all() and (big.sum(0) == 1).all() and (big.sum(1) == 1).all():
            perm = np.argmax(big, axis=0)  # input channel j comes out at channel perm[j]
            if (perm != np.arange(d)).any() and (A0[perm, np.arange(d)] > 0).all():
                self.permutations[which] = perm
                moves = ", ".join(f"{j}->{int(perm[j])}" for j in range(min(d, 4)))
                self.notes.append(
                    f"{'output ' + label + ' ' if label else 'the output '}is permuted (input channels {moves}, ...): "
                    "audited with the permutation undone"
                    + ("; q and k must share it" if label else "; scores are unchanged when q and k share it")
                )
                g = f
                f = lambda x, pos, anchor=None: g(x, pos, anchor)[:, perm]  # noqa: E731
                A = A[:, perm, :]
        diag = np.einsum("kii->ki", A)[:, :, None] * np.eye(d)  # (positions, d, d)
        off = (np.abs(np.nan_to_num(A - diag)) > 1e-6).any(axis=0)  # coupled at some position
        coupled = np.flatnonzero(off.any(axis=0) | off.any(axis=1))
        if coupled.size and coupled[0] > 0 and coupled.size == d - coupled[0] and coupled.size % 2 == 0:
            o = int(coupled[0])  # rotary on the trailing channels [o, d): move them to the front
            self.offsets[which] = o
            self.notes.append(f"rotates the trailing {d - o} of {d} channels (rotary offset {o}): audited as leading")
            h = f
            f = lambda x, pos, anchor=None: np.roll(h(np.roll(x, o, axis=1), pos, anchor), -o, axis=1)  # noqa: E731
            A = np.roll(np.roll(A, -o, axis=1), -o, axis=2)
        return A, f

    def _frequencies(self, ang: Angles, model: RopeModel) -> _Frequencies:
        r"""The measured frequencies against the expected rule, else named alternatives, else a fitted base, each
        to the measurement's uncertainty (``self._rtol``: per pair for exact-enough angles, the 16-bit rounding
        for 16-bit angles): a ladder that matches no rule is named, however close it is."""
        n, d = ang.theta.size, self.width
        rtol = self._rtol
        cands = self._candidates(self.cfg, self.top + 1 if self.seq_len is None else self.seq_len, d)
        c = first_match(cands, ang.theta, ang.rho, rtol)
        fitted = None if c is not None else fit_base(ang.theta, 2 * n)
        matched = None
        if c is not None:
            mp_theta = model.theta_mp if c.name == "" else tuple(mpmath.mpf(float(t)) for t in c.theta)
            matched = RopeModel(ang.layout, c.theta, mp_theta, c.attention_factor, 2 * n, d)
        elif fitted is not None:
            th = inverse_frequencies(2 * n, base=fitted)  # (pairs,)
            matched = RopeModel(ang.layout, th, tuple(mpmath.mpf(float(t)) for t in th), ang.rho, 2 * n, d)
        return _Frequencies(c, fitted, matched, cands)

    def _angle_findings(self, f, label, st: Structure, ang: Angles) -> list[Finding]:
        r"""Layout, rotary width, cos/sin swap, direction, offset, and angles that leave ``m theta_i``."""
        d, n, layout, quarter = self.width, len(st.pairs), ang.layout, ang.quarter
        findings = []
        if self.layout != "auto" and layout != self.layout and n > 1:
            findings.append(
                self._example_finding(
                    "layout-half-vs-interleaved",
                    f"pairs channels in the {layout} layout ({pairs_text(st.pairs)}), not {self.layout}",
                    f,
                    label,
                    lambda X, p, mw, w: rope_exact_float(X, p, replace(mw, layout=layout)),
                )
            )
        if 2 * n != self.cfg.d:
            findings.append(
                self._example_finding(
                    "partial-rotary-width",
                    f"rotates {2 * n} of {d} channels; the configured rotary width is {self.cfg.d}",
                    f,
                    label,
                    lambda X, p, mw, w: self._bug_width(X, p, mw, w, 2 * n / d),
                )
            )
        if ang.swapped:
            findings.append(
                self._example_finding(
                    "cos-sin-swapped",
                    "exchanges cos and sin: at position 0 every pair is turned by a quarter turn instead of left alone",
                    f,
                    label,
                    lambda X, p, mw, w: rope_exact_float(X, p, mw, quarter - p[:, None] * np.sign(quarter) * mw.theta),
                )
            )
        if ang.sigma_eff < 0:
            findings.append(
                self._example_finding(
                    "rotation-sign",
                    "rotates each pair clockwise (angle -m theta_i); "
                    "RoPE rotates counter-clockwise, (x, y) -> (x cos - y sin, x sin + y cos)",
                    f,
                    label,
                    lambda X, p, mw, w: rope_exact_float(X, -p, mw),
                )
            )
        if ang.offset != 0.0:
            offset = ang.offset
            shift = round(offset) if abs(offset - round(offset)) < 1e-3 else offset
            findings.append(
                self._example_finding(
                    "position-offset",
                    f"rotates by (m {'+' if shift > 0 else '-'} {abs(shift):g}) theta_i instead of m theta_i",
                    f,
                    label,
                    lambda X, p, mw, w: rope_exact_float(X, p + shift, mw),
                )
            )
        if ang.jumps:
            first = min(ang.jumps)
            findings.append(
                Finding(
                    "not-relative",
                    f"its angles stop growing in proportion to the position (first "
                    f"seen at m = {first}): scores there do not depend on n - m only",
                    self._relative_example(f),
                    label,
                )
            )
        return findings

    def _frequency_findings(self, f, label, ang: Angles, freq: _Frequencies, model: RopeModel) -> list[Finding]:
        r"""The frequency rule or base or attention factor the output computes instead of the configured one."""
        if ang.jumps:  # no single frequency describes such angles: the frequency findings would be noise
            return []
        n, c, fitted, rho, theta = ang.theta.size, freq.candidate, freq.fitted, ang.rho, ang.theta
        full = 2 * n == self.cfg.d  # the configured rotary width (else partial-rotary-width said it)
        if full and c is not None and c.name:
            key = c.key
            return [
                self._example_finding(
                    c.name,
                    f"computes {c.sentence}",
                    f,
                    label,
                    lambda X, p, mw, w: self._bug_rule(X, p, mw, w, key),
                )
            ]
        table = self.inv_freq is not None  # a free table: a fitted base is no mistake of its rule
        if full and c is None and fitted is not None and abs(fitted / self.base - 1) > 1e-6 and not table:
            b = fitted
            return [
                self._example_finding(
                    "wrong-base",
                    f"uses base {b:.6g} instead of {self.base:g}",
                    f,
                    label,
                    lambda X, p, mw, w: rope_exact_float(
                        X, p, replace(mw, theta=inverse_frequencies(mw.rotary_dim, base=b))
                    ),
                )
            ]
        if full and c is None:  # the frequencies of a known rule with another attention factor
            same = [k for k in freq.candidates if k.theta.size == n and same_frequencies(theta, k.theta, self._rtol)]
            if same:
                k, af = same[0], model.attention_factor
                what = "the configured rule's" if not k.name else k.sentence + "'s"
                why = ""
                if abs(rho - af * af) <= BLOCK_TOL and af != 1.0:
                    why = " (the factor applied twice)"
                elif self.cfg.L0 is not None and self.cfg.s > 1:
                    lr = float(np.sqrt(1 + np.log(self.cfg.s) / np.log(self.cfg.L0)))
                    why = " (LongRoPE's sqrt(1 + ln s / ln L0))" if abs(rho - lr) <= BLOCK_TOL else ""
                return [
                    self._example_finding(
                        "wrong-scaling",
                        f"computes {what} frequencies but scales cos and sin by {rho:.6g}{why} instead of the "
                        f"attention factor {af:.6g} of {self.cfg.rope_type}",
                        f,
                        label,
                        lambda X, p, mw, w: rope_exact_float(X, p, replace(mw, attention_factor=rho)),
                    )
                ]
        if full and c is None and (fitted is None or table):
            expected = freq.candidates[0].theta  # (pairs,) when the width is the configured one
            worst = furthest_pair(theta, expected) if expected.size == n else 0
            return [
                self._example_finding(
                    "disagrees-with-reference",
                    f"its frequencies match no known rule "
                    f"(pair {worst}: {theta[worst]:.6g} per position, expected "
                    f"{expected[worst]:.6g})",
                    f,
                    label,
                )
            ]
        if c is None and fitted is not None and abs(rho - model.attention_factor) > BLOCK_TOL and not table:
            return [
                self._example_finding(
                    "wrong-scaling",
                    f"scales cos and sin by {rho:.6g} instead of {model.attention_factor:.6g}",
                    f,
                    label,
                    lambda X, p, mw, w: rope_exact_float(X, p, replace(mw, attention_factor=rho)),
                )
            ]
        return []

    def _matched(self, ang: Angles, freq: _Frequencies, precision, eps, prec=None) -> RopeMatch:
        r"""What the output computes, as far as the probes tell."""
        c, fitted = freq.candidate, freq.fitted
        base_matched = c.base if c is not None and c.name in ("", "wrong-scaling") else fitted
        if c is not None and c.name == "frequency-exponent":
            base_matched = None
        rule = (
            (c.sentence if c.name or self.inv_freq is not None else f"{self.cfg.rope_type} (as configured)")
            if c
            else (f"plain RoPE, base {fitted:.6g}" if fitted else None)
        )
        return RopeMatch(
            ang.layout,
            2 * ang.theta.size,
            rule,
            base_matched,
            ang.rho,
            "supplied cache" if self.call.cached else precision,
            eps,
            self.caller.backend or "numpy",
            None if prec is None or self.call.cached else prec.table,
            None if prec is None or self.call.cached else prec.table_error,
        )


#: The defaults of :func:`audit_rope` (the command line's too): the head width probed, the base, the layout, and
#: the largest position (1M plus the longest distance of the precision profile).
DEFAULT_WIDTH = 64
DEFAULT_BASE = 10000.0
DEFAULT_LAYOUT = "auto"
DEFAULT_MAX_POSITION = pp.PROFILE_POSITIONS[-1] + max(pp.DISTANCES)


def _never_called(*args):  # pragma: no cover - check_rope_arguments' function: the checks never call it
    raise AssertionError("check_rope_arguments never calls the function")


def _is_xpos(scaling) -> bool:
    return isinstance(scaling, Mapping) and scaling.get("rope_type", scaling.get("type")) == "xpos"


def _plan(fn, layout, base, scaling, width, rotary_dim, call, tolerance, max_position, seq_len, seed, name, dtype,
          inv_freq=None, axes=None):  # fmt: skip
    r"""The arguments of :func:`audit_rope` checked: an xPos plan (``scaling`` with ``rope_type: "xpos"``), a
    :class:`MultiaxisPlan` (``axes``, or a multi-axis ``scaling``), or the :class:`_RopeAudit` to run."""
    if layout != "auto":
        layout = _validate.layout(layout)
    seq = None if seq_len is None else _validate.positive_int(seq_len, "seq_len")
    if _is_xpos(scaling):
        from posproof.numeric.audit import xpos  # the xPos audit, scored on (q, k)

        given = [k for k, v in (("inv_freq", inv_freq), ("axes", axes), ("dtype", dtype), ("rotary_dim", rotary_dim),
                                ("seq_len", seq_len)) if v is not None]  # fmt: skip
        if given:
            raise ValueError(f"{', '.join(given)}: not read by an xPos audit (rope_type 'xpos'): leave them out")
        kw = {} if max_position == DEFAULT_MAX_POSITION else {"max_position": max_position}
        return xpos.xpos_plan(scaling, width=width, base=base, layout=layout, call=call, seed=seed, **kw)
    kind = multiaxis_kind(scaling, axes)
    if kind is not None:
        given = [k for k, v in (("call", call), ("dtype", dtype)) if v is not None]
        if given:
            raise ValueError(
                f"{', '.join(given)}: not read by a multi-axis audit (fn(vectors, positions (N, A))): leave them out"
            )
        plan = multiaxis_plan(kind, layout, base, scaling, width, seq, rotary_dim, inv_freq=inv_freq, axes=axes)
        if max_position == DEFAULT_MAX_POSITION or plan.rope.continuous:
            return plan
        # integer positions up to max_position on every axis (a table of that many rows, Pixtral's 2-D one)
        top = _validate.positive_int(max_position, "max_position", 1)
        grid = plan.max_positions or (top,) * plan.rope.n_axes
        return replace(plan, max_positions=tuple(min(top, int(g)) for g in grid))
    auditor = _RopeAudit(fn, layout, base, scaling, width, rotary_dim, call, tolerance, max_position, seq, seed,
                         inv_freq)  # fmt: skip
    auditor.name = auditor.caller.name = name
    if dtype is not None:
        if dtype not in ("bfloat16", "float16"):
            raise ValueError(f"dtype must be bfloat16 or float16 (the inputs' dtype), got {dtype!r}")
        pp.dtype_of(dtype)  # bfloat16 needs ml_dtypes
    auditor.dtype = dtype
    auditor._expected_model(auditor.width, auditor.top + 1)  # the configured rule computes at this width
    return auditor


def check_rope_arguments(
    *,
    layout: str = DEFAULT_LAYOUT,
    base: float = DEFAULT_BASE,
    scaling: Mapping | None = None,
    width: int = DEFAULT_WIDTH,
    rotary_dim: int | None = None,
    call: RopeCall | str | None = None,
    tolerance: float = pp.DEFAULT_TOLERANCE,
    max_position: int = DEFAULT_MAX_POSITION,
    seq_len: int | None = None,
    dtype: str | None = None,
    inv_freq=None,
    axes=None,
) -> None:
    r"""Raise the ``ValueError`` :func:`audit_rope` would raise for these arguments, without calling any function
    (the command line checks its options before any work, and before the audited code runs).

    >>> check_rope_arguments(width=7)
    Traceback (most recent call last):
    ...
    ValueError: width must be a positive even integer, got 7
    """
    _plan(_never_called, layout, base, scaling, width, rotary_dim, call, tolerance, max_position, seq_len, 0, None,
          dtype, inv_freq, axes)  # fmt: skip


def audit_rope(
    fn,
    *,
    layout: str = DEFAULT_LAYOUT,
    base: float = DEFAULT_BASE,
    scaling: Mapping | None = None,
    width: int = DEFAULT_WIDTH,
    rotary_dim: int | None = None,
    call: RopeCall | str | None = None,
    tolerance: float = pp.DEFAULT_TOLERANCE,
    max_position: int = DEFAULT_MAX_POSITION,
    seq_len: int | None = None,
    seed: int = 0,
    name: str | None = None,
    dtype: str | None = None,
    inv_freq=None,
    axes=None,
    progress: Callable[[str], None] | None = None,
) -> RopeReport | SchemeReport:
    r"""Audit a RoPE function against the configured model; see the module docstring.

    ``fn``: called as ``fn(vectors, positions, base)`` (``(tokens, width)`` float arrays, integer positions) unless
    ``call`` says otherwise (:class:`RopeCall` or its text form). ``layout``: ``"interleaved"``, ``"half"`` or
    ``"auto"`` (either passes; the one found is reported). ``base``; ``scaling``: a ``rope_scaling`` mapping as
    in :mod:`numeric.scaling` (``partial_rotary_factor`` included) or ``rotary_dim``; ``width``: the head width
    probed; ``max_position``: the largest position the function must handle (probes and shifts stay at or below
    it; the profile's positions above it are left out); ``seq_len``: the current length for dynamic NTK and LongRoPE
    (default: the largest probed position + 1, as Hugging Face computes it from the positions); ``tolerance``: the
    precision profile's score-error tolerance; ``name``: how the report names the function (default
    ``module:qualname``; the command line gives the ``MODULE:FUNCTION`` typed). Raises :class:`AuditCallError` if the
    function raises on a plain call. ``dtype``: ``"bfloat16"`` or ``"float16"`` also feeds unit vectors in that dtype
    and checks that nearby positions keep their own angles (positions built in the input dtype).

    Multi-axis RoPE: a ``scaling`` with ``mrope_section`` (and ``mrope_interleaved``; M-RoPE) or ``rope_type:
    "axial"`` (axial 2-D) audits ``fn(vectors (N, d), positions (N, A))`` with
    :func:`~posproof.numeric.audit.audit_multiaxis` (the same findings, a :class:`SchemeReport`); the mapping's other
    keys give the frequencies (``partial_rotary_factor`` or ``rotary_dim``: GLM-4V's partial M-RoPE, the sections
    split the rotated pairs); every declaration :func:`~posproof.numeric.multiaxis.multiaxis_from_scaling` reads
    (per-axis ladders ``axes_dim``, shared or split axial, DINOv3's coordinates, ...) the same way; ``call`` and
    ``dtype`` do not apply, and a ``max_position`` given bounds the integer position of every axis (a 2-D table of
    that many rows).

    ``inv_freq`` (optional, ``(r/2,)`` floats >= 0): a free frequency table that replaces the configured rule's
    frequencies (modded-nanogpt's truncated ladder, some frequencies 0; pairs of frequency 0 are read as pairs that
    do not turn); its length gives the rotary width, ``scaling`` still gives the attention factor. Minimal examples
    are then at the audit's width (a table has one). ``axes`` (optional, one integer per rotated pair: the position
    axis that turns it) audits a multi-axis RoPE with that explicit axis map, as a multi-axis ``scaling`` does.
    ``scaling`` with ``rope_type: "xpos"`` audits xPos (:mod:`numeric.audit.xpos`, scored on ``(q, k)``).

    ``progress`` (optional): called with a short text as each stage of the audit begins (a progress display).

    >>> import numpy as np
    >>> def note_rope(vectors, positions, base=10_000.0):
    ...     width = vectors.shape[1]
    ...     frequencies = base ** (-np.arange(0, width, 2) / width)
    ...     angles = np.asarray(positions)[:, None] * frequencies
    ...     cosine, sine = np.cos(angles), np.sin(angles)
    ...     even, odd = vectors[:, 0::2], vectors[:, 1::2]
    ...     rotated = np.empty_like(vectors)
    ...     rotated[:, 0::2] = even * cosine - odd * sine
    ...     rotated[:, 1::2] = even * sine + odd * cosine
    ...     return rotated
    >>> report = audit_rope(note_rope, layout="interleaved", width=16, max_position=4096)
    >>> report.ok, report.matched.layout, report.matched.angle_precision
    (True, 'interleaved', 'float64')
    """
    if not callable(fn):
        raise ValueError(f"fn must be callable, got {type(fn).__name__}")
    plan = _plan(fn, layout, base, scaling, width, rotary_dim, call, tolerance, max_position, seq_len, seed, name,
                 dtype, inv_freq, axes)  # fmt: skip
    if isinstance(plan, MultiaxisPlan):
        return audit_rope_multiaxis(plan, fn, name, progress)
    if not isinstance(plan, _RopeAudit):  # xPos
        from posproof.numeric.audit import xpos

        return xpos.audit_xpos_plan(plan, fn, name, progress)
    auditor = plan
    auditor.progress = progress
    try:
        report = auditor.audit()
        L0 = auditor.cfg.L0
        seq = auditor.seq_len
        if auditor.cfg.rope_type == "longrope" and seq is None and L0 is not None and 4 <= L0 - 1 < auditor.top:
            # the probes' length is past L0 (long factors): audit the short regime too, at lengths <= L0
            short = _RopeAudit(fn, layout, base, scaling, width, rotary_dim, call, tolerance, L0 - 1, seq, seed,
                               inv_freq)  # fmt: skip
            short.name = short.caller.name = name
            if progress is not None:
                short.progress = lambda text: progress(f"lengths <= L0 = {L0}: {text}")
            seen = {(f.id, f.output) for f in report.findings}
            extra = tuple(
                replace(f, message=f"at lengths <= L0 = {L0} (short_factor): {f.message}")
                for f in short.audit().findings
                if (f.id, f.output) not in seen
            )
            if extra:
                report = replace(report, findings=report.findings + extra)
        return report
    except ShapeError as e:
        raise AuditCallError(
            f"{name or function_name(fn)} returned shape {e.args[0]} for some inputs and the input's shape for others"
        ) from None


def assert_rope_conforms(
    fn, layout: str = DEFAULT_LAYOUT, base: float = DEFAULT_BASE, **kwargs
) -> RopeReport | SchemeReport:
    r"""For users' test suites: :func:`audit_rope` and raise :class:`RopeConformanceError` (an ``AssertionError``)
    listing the findings if there are any; returns the report otherwise."""
    report = audit_rope(fn, layout=layout, base=base, **kwargs)
    if not report.ok:
        lines = [f"{function_name(fn)} does not conform to RoPE ({layout}, base {base:g}):"]
        lines += [f"  [{f.id}] {f.message} (example: {example_text(f.example)})" for f in report.findings]
        raise RopeConformanceError("\n".join(lines))
    return report
