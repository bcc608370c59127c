r"""The RoPE audit proper: :func:`audit_rope` probes the function, reads the structure, matches the
frequencies and turns what differs into findings, root causes first; :func:`assert_rope_conforms` is the helper
for users' test suites."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import mpmath
import numpy as np

from . import _validate
from . import precision_profile as pp
from ._audit_call import RopeCall, _ShapeError
from ._audit_model import _Model, rope_exact_float
from ._audit_probe import _structure, _unwrap_frequencies, _wrap
from ._audit_report import (
    AuditCallError,
    Finding,
    RopeConformanceError,
    RopeMatch,
    RopeReport,
    _name,
    _pairs_text,
    _short,
)
from ._audit_rope_checks import _RopeChecks
from ._audit_rules import _candidates, _fit_base
from .tolerances import AUDIT_ANGLE_TOL as ANGLE_TOL
from .tolerances import AUDIT_BLOCK_TOL as BLOCK_TOL
from .tolerances import AUDIT_FREQ_RTOL as FREQ_RTOL
from .tolerances import AUDIT_FREQ_RTOL_LOW as FREQ_RTOL_LOW


class _RopeAudit(_RopeChecks):
    r"""One audit of one function: :meth:`audit` gives the report."""

    # ---- the audit
    def audit(self) -> RopeReport:
        d = self.width
        findings: list[Finding] = []
        x0 = self.rng.uniform(-1, 1, (3, d))
        pos0 = np.array([0, 1, 2])
        outs, _ = self.caller.raw(x0, pos0)  # AuditCallError if it raises
        for w, y in enumerate(outs):
            label = ("q", "k")[w] if self.call.qk else None
            if y.size != x0.size or (y.shape != x0.shape and self.call.axes == "td"):
                findings.append(
                    Finding(
                        "shape-or-dtype",
                        f"returns shape {y.shape} for input {x0.shape}",
                        {
                            "width": d,
                            "positions": [0, 1, 2],
                            "input_shape": list(x0.shape),
                            "output_shape": list(y.shape),
                        },
                        label,
                    )
                )
        if findings:
            return self._report(findings, None, None)
        for dtype in (np.float64, np.float32):
            outs, dtypes = self.caller.raw(x0.astype(dtype), pos0)
            for w, dt in enumerate(dtypes):
                if dt != np.dtype(dtype).name:
                    label = ("q", "k")[w] if self.call.qk else None
                    findings.append(
                        Finding(
                            "shape-or-dtype",
                            f"returns {dt} for {np.dtype(dtype).name} input",
                            {
                                "width": d,
                                "positions": [0, 1, 2],
                                "input_dtype": np.dtype(dtype).name,
                                "output_dtype": dt,
                            },
                            label,
                        )
                    )
        outputs = (0, 1) if self.call.qk else (0,)
        matches = []
        profile = None
        for which in outputs:
            label = ("q", "k")[which] if self.call.qk else None
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
        return self._report(findings, match, profile)

    def _report(self, findings, match, profile) -> RopeReport:
        if match is None:
            match = RopeMatch(None, None, None, None, None, None, None, self.caller.backend or "numpy")
        # one finding per id and output
        seen, unique = set(), []
        for f in findings:
            if (f.id, f.output) not in seen:
                seen.add((f.id, f.output))
                unique.append(f)
        return RopeReport(tuple(unique), self.expected_dict(), match, profile, _name(self.fn))

    def _audit_output(self, which: int, label):
        d = self.width
        f = self._out(which)
        findings: list[Finding] = []
        model = self._expected_model(d, self.top + 1)
        # positions: does the output follow them?
        v = self.rng.uniform(-1, 1, (1, d))
        y_a = f(v, np.array([0]))
        y_b = f(v, np.array([7]))
        y_two = f(np.concatenate([v, v]), np.array([7, 7]))
        if np.allclose(y_a, y_b, atol=1e-12) or not np.allclose(y_two[0], y_two[1], atol=1e-9):
            how = (
                "gives the same output at positions 0 and 7"
                if np.allclose(y_a, y_b, atol=1e-12)
                else ("rotates two equal rows at the same position 7 differently (it uses the row index)")
            )
            ex = {"width": d, "positions": [7, 7], "vectors": np.concatenate([v, v]).tolist(), "got": y_two.tolist()}
            findings.append(Finding("ignores-positions", f"the function {how}", ex, label))
            return findings, None, None
        # unit-vector probes: A_m for every probed position
        P = self.P
        eye = np.eye(d)
        X = np.tile(eye, (len(P), 1))  # (positions * d, d)
        pos = np.repeat(np.array(P, dtype=np.int64), d)
        with np.errstate(all="ignore"):
            Y = f(X, pos)  # (positions * d, d): row j of block m is A_m e_j
        A = Y.reshape(len(P), d, d).transpose(0, 2, 1)  # (positions, d, d)
        st = _structure(A, P, d)
        if st.kind != "rotation" or st.layout is None:
            return self._generic(f, model, st, label, findings)
        layout = st.layout if st.layout != "either" else model.layout
        n = len(st.pairs)
        phi = st.phi  # (positions, pairs)
        assert phi is not None and st.rho is not None
        ok_rows = np.isfinite(phi).all(axis=1)
        phi = np.where(ok_rows[:, None], phi, np.nan)
        delta = _wrap(phi[0])  # angle at position 0, (pairs,)
        omega, jumps = _unwrap_frequencies(phi, P)  # (pairs,), positions where angles leave m omega
        # sign, swap, offset
        swapped = bool(np.all(np.abs(np.abs(delta) - np.pi / 2) < ANGLE_TOL))
        quarter = np.sign(np.median(delta)) * np.pi / 2 if swapped else 0.0
        sigma = 1.0 if np.median(omega[np.abs(omega) > 1e-12]) >= 0 else -1.0
        sigma_eff = sigma * (-1.0 if quarter > 0 else 1.0)
        rest = _wrap(delta - quarter)
        big = np.abs(omega) >= 0.05
        offset = 0.0
        if np.any(np.abs(rest) > ANGLE_TOL) and big.any():
            offset = float(np.median(rest[big] / omega[big]))
        theta_meas = np.abs(omega)  # (pairs,)
        rho = float(np.median(st.rho))
        # frequencies: expected, else named alternatives
        eps, eps_stage, precision = self._precision(f, st, layout, delta, omega, sigma, model)
        if eps_stage == "jump":  # eps is then the first position where angles leave m theta_i
            jumps, eps = sorted(set(jumps) | {int(eps)}), None
        low = precision in ("float16", "bfloat16")
        rtol = FREQ_RTOL_LOW if low else FREQ_RTOL
        cands = _candidates(self.cfg, self.top + 1 if self.seq_len is None else self.seq_len, d)
        match_c = None
        for c in cands:
            if c.theta.size == n and np.all(np.abs(theta_meas / c.theta - 1) <= rtol):
                if abs(rho - c.attention_factor) <= BLOCK_TOL:
                    match_c = c
                    break
        fitted = None if match_c is not None else _fit_base(theta_meas, 2 * n)
        matched_model = None
        if match_c is not None:
            mp_theta = model.theta_mp if match_c.name == "" else tuple(mpmath.mpf(float(t)) for t in match_c.theta)
            matched_model = _Model(layout, match_c.theta, mp_theta, match_c.attention_factor, 2 * n, d)
        elif fitted is not None:
            th = fitted ** (-2 * np.arange(n) / (2 * n))
            matched_model = _Model(layout, th, tuple(mpmath.mpf(float(t)) for t in th), rho, 2 * n, d)
        # findings, root causes first
        if self.layout != "auto" and layout != self.layout and n > 1:
            findings.append(
                self._example_finding(
                    "layout-half-vs-interleaved",
                    f"pairs channels in the {layout} layout ({_pairs_text(st.pairs)}), not {self.layout}",
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
        if swapped:
            findings.append(
                self._example_finding(
                    "cos-sin-swapped",
                    "exchanges cos and sin: at position 0 every pair is turned by a quarter turn instead of left alone",
                    f,
                    label,
                    lambda X, p, mw, w: rope_exact_float(X, p, mw, quarter - p[:, None] * np.sign(quarter) * mw.theta),
                )
            )
        if sigma_eff < 0:
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
        if offset != 0.0:
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
        if jumps:
            first = min(jumps)
            findings.append(
                Finding(
                    "not-relative",
                    f"its angles stop growing in proportion to the position (first "
                    f"seen at m = {first}): scores there do not depend on n - m only",
                    self._relative_example(f),
                    label,
                )
            )
        if jumps:  # no single frequency describes such angles: the frequency findings would be noise
            pass
        elif 2 * n == self.cfg.d and match_c is not None and match_c.name:
            key = match_c.key
            findings.append(
                self._example_finding(
                    match_c.name,
                    f"computes {match_c.sentence}",
                    f,
                    label,
                    lambda X, p, mw, w: self._bug_rule(X, p, mw, w, key),
                )
            )
        elif 2 * n == self.cfg.d and match_c is None and fitted is not None and abs(fitted / self.base - 1) > 1e-6:
            findings.append(
                self._example_finding(
                    "wrong-base",
                    f"uses base {fitted:.6g} instead of {self.base:g}",
                    f,
                    label,
                    lambda X, p, mw, w: rope_exact_float(
                        X, p, replace(mw, theta=fitted ** (-2 * np.arange(mw.rotary_dim // 2) / mw.rotary_dim))
                    ),
                )
            )
        elif 2 * n == self.cfg.d and match_c is None and fitted is None:
            worst = int(np.argmax(np.abs(theta_meas / cands[0].theta - 1))) if cands[0].theta.size == n else 0
            findings.append(
                self._example_finding(
                    "disagrees-with-reference",
                    f"its frequencies match no known rule "
                    f"(pair {worst}: {theta_meas[worst]:.6g} per position, expected "
                    f"{cands[0].theta[worst]:.6g})",
                    f,
                    label,
                )
            )
        elif match_c is None and fitted is not None and abs(rho - model.attention_factor) > BLOCK_TOL:
            findings.append(
                self._example_finding(
                    "wrong-scaling",
                    f"scales cos and sin by {rho:.6g} instead of {model.attention_factor:.6g}",
                    f,
                    label,
                    lambda X, p, mw, w: rope_exact_float(X, p, replace(mw, attention_factor=rho)),
                )
            )
        if low and not jumps:
            findings.append(self._precision_finding(f, precision, eps, label))
        # behavioural checks (confirm, and catch what the structure did not explain)
        if all(x.id == "low-precision-angles" for x in findings):  # nothing explains a failure yet
            findings.extend(self._behaviour(f, matched_model, eps, st, label))
        profile = None
        if matched_model is not None and not swapped and sigma_eff > 0 and offset == 0.0 and not jumps:
            profile = self._profile(f, matched_model)
        base_matched = match_c.base if match_c is not None and match_c.name in ("", "wrong-scaling") else fitted
        if match_c is not None and match_c.name == "frequency-exponent":
            base_matched = None
        rule = (
            (match_c.sentence if match_c.name else f"{self.cfg.rope_type} (as configured)")
            if match_c
            else (f"plain RoPE, base {fitted:.6g}" if fitted else None)
        )
        match = RopeMatch(
            layout,
            2 * n,
            rule,
            base_matched,
            rho,
            "supplied cache" if self.call.cached else precision,
            eps,
            self.caller.backend or "numpy",
        )
        return findings, match, profile


def audit_rope(
    fn,
    *,
    layout: str = "auto",
    base: float = 10000.0,
    scaling: Mapping | None = None,
    width: int = 64,
    rotary_dim: int | None = None,
    call: RopeCall | str | None = None,
    tolerance: float = pp.DEFAULT_TOLERANCE,
    max_position: int = pp.PROFILE_POSITIONS[-1] + max(pp.DISTANCES),
    seq_len: int | None = None,
    seed: int = 0,
) -> RopeReport:
    r"""Audit a RoPE function against the configured model; see the module docstring.

    ``fn``: called as ``fn(vectors, positions, base)`` (``(tokens, width)`` float arrays, integer positions) unless
    ``call`` says otherwise (:class:`RopeCall` or its text form). ``layout``: ``"interleaved"``, ``"half"`` or
    ``"auto"`` (either passes; the one found is reported). ``base``; ``scaling``: a ``rope_scaling`` mapping as
    in :mod:`numeric.scaling` (``partial_rotary_factor`` included) or ``rotary_dim``; ``width``: the head width
    probed; ``max_position``: the largest position the function must handle (probes and shifts stay at or below
    it; the profile's positions above it are left out); ``seq_len``: the current length for dynamic NTK and LongRoPE
    (default: the largest probed position + 1, as Hugging Face computes it from the positions); ``tolerance``: the
    precision profile's score-error tolerance. Raises :class:`AuditCallError` if the function raises on a plain call.

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
    if layout != "auto":
        layout = _validate.layout(layout)
    seq = None if seq_len is None else _validate.positive_int(seq_len, "seq_len")
    auditor = _RopeAudit(fn, layout, base, scaling, width, rotary_dim, call, tolerance, max_position, seq, seed)
    try:
        return auditor.audit()
    except _ShapeError as e:
        raise AuditCallError(
            f"{_name(fn)} returned shape {e.args[0]} for some inputs and the input's shape for others"
        ) from None


def assert_rope_conforms(fn, layout: str = "auto", base: float = 10000.0, **kwargs) -> RopeReport:
    r"""For users' test suites: :func:`audit_rope` and raise :class:`RopeConformanceError` (an ``AssertionError``)
    listing the findings if there are any; returns the report otherwise."""
    report = audit_rope(fn, layout=layout, base=base, **kwargs)
    if not report.ok:
        lines = [f"{_name(fn)} does not conform to RoPE ({layout}, base {base:g}):"]
        lines += [f"  [{f.id}] {f.message} (example: {_short(f.example)})" for f in report.findings]
        raise RopeConformanceError("\n".join(lines))
    return report
