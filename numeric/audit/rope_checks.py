r"""The RoPE audit's checks beyond the structure: cross-wiring of ``(q, k)`` functions, the precision of the
angles, behavioural checks on random vectors (norms, shifts, the reference), the findings when the structure is
not a rotation per pair, and the precision profile."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace

import numpy as np
from posproof.numeric import precision_profile as pp
from posproof.numeric.audit.call import ShapeError
from posproof.numeric.audit.model import RopeModel, model_table, reference_rows, rope_exact_float
from posproof.numeric.audit.probe import (
    TABLE_ROUNDOFF,
    Angles,
    Structure,
    furthest_pair,
    refine_frequencies,
    same_frequencies,
    table_dtype,
    wrap_angle,
)
from posproof.numeric.audit.report import AuditCallError, Finding, RopeMatch, pairs_text
from posproof.numeric.audit.rope_base import RopeAuditBase
from posproof.numeric.formatting import show
from posproof.numeric.tolerances import AUDIT_ANGLE16_ATOL as ANGLE16_ATOL
from posproof.numeric.tolerances import AUDIT_ANGLE_JUMP_RTOL as ANGLE_JUMP_RTOL
from posproof.numeric.tolerances import AUDIT_BFLOAT16_EPS as BFLOAT16_EPS
from posproof.numeric.tolerances import AUDIT_BLOCK_TOL as BLOCK_TOL
from posproof.numeric.tolerances import AUDIT_CROSS_ATOL as CROSS_ATOL
from posproof.numeric.tolerances import AUDIT_EXAMPLE_ATOL as EXAMPLE_ATOL
from posproof.numeric.tolerances import AUDIT_FLOAT32_EPS as FLOAT32_EPS
from posproof.numeric.tolerances import AUDIT_FREQ_RTOL as FREQ_RTOL
from posproof.numeric.tolerances import AUDIT_FREQ_RTOL_LOW as FREQ_RTOL_LOW
from posproof.numeric.tolerances import AUDIT_FREQ_TABLE_ULPS as FREQ_TABLE_ULPS
from posproof.numeric.tolerances import AUDIT_INPUT_DTYPE_ANGLE_TOL as INPUT_DTYPE_ANGLE_TOL
from posproof.numeric.tolerances import AUDIT_LOW_PRECISION_EPS as LOW_PRECISION_EPS
from posproof.numeric.tolerances import AUDIT_NORM_RTOL as NORM_RTOL
from posproof.numeric.tolerances import AUDIT_SHIFT_ATOL as SHIFT_ATOL
from posproof.numeric.tolerances import AUDIT_TABLE_POSITION as TABLE_POSITION

#: Where angles are judged (odd positions, away from the powers of two the frequencies are refined on, where
#: float32's product of a position and a frequency is exact): 1k .. 1M, about 3 per decade.
JUDGED_POSITIONS = (1001, 1999, 3001, 5003, 10007, 20011, 30011, 50021, 100003, 200003, 300007, 500009, 1000003)


@dataclass(frozen=True)
class Precision:
    r"""What :meth:`RopeChecks._precision` measured of one output: ``eps`` the median relative angle error (or the
    first position of a jump when ``stage`` is ``"jump"``), ``stage`` (1: angles of 16 .. 128 rad, 2: of 256 .. 3e5
    rad), ``name`` the angles' precision (``float64``, ``float32``, ``float16``, ``bfloat16``, ``"float32 or
    float64"`` where a 16-bit table hides which, ``"supplied cache"`` or ``None``), ``omega`` the frequencies
    refined over every probed position ``(pairs,)`` (signed), ``rtol`` their relative uncertainty ``(pairs,)``,
    ``table`` the cos/sin table's dtype (:func:`table_dtype`), ``table_error`` its largest angle error on angles of
    positions <= 16 (rad)."""

    eps: float | None
    stage: int | str | None
    name: str | None
    omega: np.ndarray
    rtol: np.ndarray
    table: str
    table_error: float | None

    @property
    def sixteen_bit(self) -> bool:
        return self.name in ("float16", "bfloat16")


def _allowed(eps: float | None, positions: np.ndarray, theta_max: float, table: float = 0.0) -> np.ndarray:
    r"""Score error under a shift explained by the detected angle precision: 8 ``eps m theta_max`` per position, plus
    :data:`SHIFT_ATOL` (the angle error grows with the position; 8 covers both rotated vectors and the spread), plus
    8 times the cos/sin table's unit roundoff ``table`` (a bounded error: both scores, each through two entries)."""
    e = 0.0 if eps is None else eps
    return SHIFT_ATOL + 8 * table + 8 * e * np.abs(positions).astype(np.float64) * theta_max


class RopeChecks(RopeAuditBase):
    r"""The checks that follow the structure (used by :class:`numeric.audit.rope._RopeAudit`)."""

    # ---- positions
    def _ignores_positions(self, f, label) -> Finding | None:
        r"""``ignores-positions`` if the output is the same at positions 0 and 7 (one call each), or differs for two
        equal rows at the same position 7 (one call: the row index is used). Checked on a seeded random vector of the
        audit's width; the example is the smallest width that shows the same, with a seeded vector of quarters
        (exact in every dtype and printed whole) and the outputs the function gave for it."""
        v = self.rng.uniform(-1, 1, (1, self.width))
        how = self._position_failure(f, v)
        if how is None:
            return None
        sentence = {
            "same": "gives the same output at positions 0 and 7",
            "row": "rotates two equal rows at the same position 7 differently (it uses the row index)",
        }[how]
        ex = None
        for w in self._widths():  # smallest first; the audit's width last
            q = self.rng.integers(1, 8, (1, w)) / 4.0  # 0.25 .. 1.75, never 0: every channel carries a value
            if self._position_failure(f, q) == how:
                ex = self._position_example(f, q, how)
                if ex is not None:
                    break
        if ex is None:  # only the random vector shows it
            ex = self._position_example(f, v, how, check_printed=False)
        assert ex is not None  # unchecked printing always gives one
        return Finding("ignores-positions", f"the function {sentence}", ex, label)

    @staticmethod
    def _position_failure(f, v: np.ndarray) -> str | None:
        r"""``"same"`` (no change from position 0 to 7), ``"row"`` (two equal rows at 7 differ) or ``None``."""
        y_a, y_b = f(v, np.array([0])), f(v, np.array([7]))
        if np.allclose(y_a, y_b, atol=1e-12):
            return "same"
        y_two = f(np.concatenate([v, v]), np.array([7, 7]))
        return None if np.allclose(y_two[0], y_two[1], atol=1e-9) else "row"

    @staticmethod
    def _position_example(f, v: np.ndarray, how: str, check_printed: bool = True) -> dict | None:
        r"""The example of :meth:`_ignores_positions` for vector ``v`` ``(1, w)``; ``None`` when its printed outputs
        (6 digits) would not show the difference the sentence states."""
        w = v.shape[1]
        if how == "same":
            got = [f(v, np.array([0]))[0].tolist(), f(v, np.array([7]))[0].tolist()]
            return {"width": w, "vectors": v.tolist(), "positions": [0, 7], "calls": "one per position", "got": got}
        y = f(np.concatenate([v, v]), np.array([7, 7]))
        if check_printed and show(y[0].tolist()) == show(y[1].tolist()):
            return None
        return {"width": w, "vectors": np.concatenate([v, v]).tolist(), "positions": [7, 7], "got": y.tolist()}

    # ---- 16-bit inputs (dtype=)
    def _input_dtype_finding(self, which: int, label, st: Structure, theta: np.ndarray) -> Finding | None:
        r"""With 16-bit inputs (``dtype=``): every pair ``i`` of a unit vector on the first channel of each pair, at
        positions 1001 .. 30011, must turn by ``m theta_i`` to within the dtype's rounding of cos and sin. Positions
        or angles built in the input dtype (rotary-embedding-torch) give 1001, 1002 and 1003 one angle (seen in the
        fast pairs); frequencies rounded to the input dtype are seen in the pairs whose ``theta_i`` it cannot hold
        (``theta_0 = 1`` is exact in every dtype). ``theta`` ``(pairs,)``: the frequencies measured on float64
        probes (what differs from the configured rule is a finding of its own). Each output is probed with its own
        input: for a ``(q, k)`` function, ``k`` gets the unit vectors when ``k`` is audited (``q`` zeros), and the
        reverse. The example is the smallest position and its worst pair."""
        assert self.dtype is not None
        dt = pp.dtype_of(self.dtype)
        d = self.width
        a = np.array([p[0] for p in st.pairs])  # (pairs,)
        b = np.array([p[1] for p in st.pairs])
        theta = np.abs(theta)  # (pairs,)
        ms = np.array([m for m in (1001, 1002, 1003, 3001, 10007, 30011) if m <= self.max_position])
        if not ms.size:
            return None
        x = np.zeros((ms.size, d))
        x[:, a] = 1.0  # every pair at once: each turns its own first channel
        xa, pa = self._anchored(x, ms)
        xa = xa.astype(dt)
        if not self.call.qk:
            outs, _ = self.caller.raw(xa, pa)
        elif which == 0:
            outs, _ = self.caller.raw(xa, pa, np.zeros_like(xa))  # q the unit vectors, k zeros
        else:
            outs, _ = self.caller.raw(np.zeros_like(xa), pa, xa)  # k the unit vectors, q zeros
        y = np.asarray(outs[which], dtype=np.float64).reshape(xa.shape)[:-1]  # (positions, d)
        with np.errstate(invalid="ignore"):
            got = np.arctan2(y[:, b], y[:, a])  # (positions, pairs)
            err = np.abs(wrap_angle(got - ms[:, None] * theta[None, :]))
        err = np.where(np.isfinite(err), err, np.pi)
        bad = err > INPUT_DTYPE_ANGLE_TOL  # (positions, pairs)
        if not bad.any():
            return None
        j = int(np.flatnonzero(bad.any(axis=1))[0])  # the smallest position that shows it
        i = int(np.argmax(err[j]))  # its worst pair
        m, n_bad = int(ms[j]), int(bad[j].sum())
        others = f" ({n_bad} of {len(st.pairs)} pairs there)" if n_bad > 1 else ""
        message = (
            f"with {self.dtype} inputs it turns pair {i} at position {m} by an angle {err[j, i]:.3g} rad off "
            f"m theta_{i}{others} (its positions, frequencies or angles are computed in {self.dtype}: nearby "
            "positions share one angle)"
        )
        vec = np.zeros(d)
        vec[a[i]] = 1.0
        ex = {
            "width": d,
            "dtype": self.dtype,
            "positions": [m],
            "vectors": [vec.tolist()],
            "pair": [int(a[i]), int(b[i])],
            "expected_angle": float(wrap_angle(m * theta[i])),
            "got_angle": float(got[j, i]),
        }
        return Finding("low-precision-angles", message, ex, label)

    def _cross_wired(self, which: int) -> Finding | None:
        d = self.width
        own, o1, o2 = (self.rng.uniform(-1, 1, (4, d)) for _ in range(3))
        pos = np.array([0, 1, 5, 17])
        a, b = self._qk(own, o1, pos, which), self._qk(own, o2, pos, which)  # only the other input changes
        delta = float(np.max(np.abs(a - b)))
        if delta <= CROSS_ATOL:
            return None
        mine, other = ("query", "key") if which == 0 else ("key", "query")
        ex = self._cross_example(which)
        return Finding(
            "qk-cross-wired",
            f"the rotated {mine} changes when only the {other} input changes (by up to {delta:.3g})",
            ex,
            ("q", "k")[which],
        )

    # ---- precision of the angles, and of the cos/sin table
    def _precision(self, f, A: np.ndarray, st: Structure, ang: Angles, model: RopeModel) -> Precision:
        r"""What the angles' errors say, once the frequencies are measured precisely (:func:`refine_frequencies`
        over every probed position: exact-enough float64 probes, never the configured frequencies): angles in 16
        bits err by ever more as ``m`` grows (absolute errors of 256 .. 8192 rad over :data:`ANGLE16_ATOL`), a
        cos/sin table rounded to 16 bits by a bounded amount (:func:`table_dtype`); float32 or float64 angles are
        told apart by the median relative error on angles of 256 .. 3e5 rad (or, through a 16-bit table, by
        whether the table holds the rounding of the exact angles)."""
        assert st.phi is not None  # a rotation per pair: its angles were read
        omega, m_last = refine_frequencies(st.phi, self.P, ang.omega)  # (pairs,) signed
        table = table_dtype(A, st)
        u = TABLE_ROUNDOFF[table]
        theta = np.abs(omega)
        with np.errstate(divide="ignore", invalid="ignore"):
            rtol = np.maximum(FREQ_RTOL, np.where(theta > 0, FREQ_TABLE_ULPS * u / (m_last * theta), 0.0))
        small = np.array([m <= 16 for m in self.P])  # angles small enough for any dtype: the table's error
        with np.errstate(invalid="ignore"):
            dev = np.abs(wrap_angle(st.phi[small] - ang.delta[None, :] - np.array(self.P)[small][:, None] * omega))
        table_error = float(np.nanmax(dev)) if np.isfinite(dev).any() else None
        out = Precision(None, None, None, omega, rtol, table, table_error)
        if self.call.cached:
            return replace(out, name="supplied cache")
        d, n = self.width, len(st.pairs)
        a = np.array([p[0] for p in st.pairs])
        b = np.array([p[1] for p in st.pairs])
        ms = np.array([m for m in JUDGED_POSITIONS if m <= self.max_position])
        if not ms.size:
            return out
        v = np.zeros((ms.size, d))
        v[:, a] = 1.0  # the first channel of every pair: the output holds rho (cos phi, sin phi) per pair
        with np.errstate(all="ignore"):
            y = f(v, ms)  # (positions, d)
            phi = np.arctan2(y[:, b], y[:, a])  # (positions, pairs)
        ref = omega
        if model.theta.size == n and same_frequencies(theta, model.theta, rtol):  # the configured ones, measured:
            ref = np.sign(omega) * model.theta  # exact, so that their rounding (float32's) is part of what is judged
        exact = ang.delta[None, :] + ms[:, None] * ref[None, :]  # (positions, pairs)
        mag = np.abs(ms[:, None] * omega[None, :])
        with np.errstate(invalid="ignore", divide="ignore"):  # pairs that do not turn (proportional): no error
            abs_err = np.where(theta[None, :] == 0, 0.0, np.abs(wrap_angle(phi - exact)))  # (positions, pairs)
            err = np.where(theta[None, :] == 0, 0.0, abs_err / mag)
        if (~np.isfinite(err)).any():  # non-finite angles (float16 overflows at 65504)
            return replace(out, eps=float("inf"), stage=1, name="float16")
        # angles of 0.25 .. 3 rad cannot wrap by a relative error < 1: there a jump is seen for what it is
        low = (mag >= 0.25) & (mag <= 3)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # positions without such a pair: all-NaN rows
            per_m = np.nanmax(np.where(low, err, np.nan), axis=1) if low.any() else np.zeros(ms.size)
        wild = np.flatnonzero(np.nan_to_num(per_m) > ANGLE_JUMP_RTOL)
        if wild.size:  # not rounding: angles leave m theta_i (a clamped table, a wrapped index)
            return replace(out, eps=int(ms[wild[0]]), stage="jump")
        # a frequency exact in float16 (1, 1/2, ...) is exact in every dtype: its angles show no rounding of theta
        # which pairs: those of the configured frequencies when the measured ones are near them (a 16-bit ladder is
        # exact in float16 itself), else the measured ones (a measured 1 - 1e-15 is the exact 1 of a float16)
        near = model.theta.size == n and same_frequencies(np.abs(ang.omega), model.theta, FREQ_RTOL_LOW)
        nominal = model.theta if near else theta
        with np.errstate(over="ignore"):
            informative = (np.abs(nominal.astype(np.float16).astype(np.float64) - nominal) > 1e-9 * nominal)[None, :]
        s1 = (mag >= 16) & (mag <= 128) & informative
        eps1 = float(np.median(err[s1])) if s1.any() else None
        big = (mag >= 256) & (mag <= 8192)
        w = big & informative if (big & informative).any() else big
        if w.any():
            sixteen = float(np.median(abs_err[w])) > ANGLE16_ATOL
        else:  # no angle that large: the relative error of 16 .. 128 rad (a 16-bit table can look like it)
            sixteen = eps1 is not None and eps1 > LOW_PRECISION_EPS
        if sixteen:  # its dtype from the relative error against the frequencies read at m <= 16 / theta_i
            coarse = ang.omega  # (16-bit angles: within their rounding of the configured ones, those exactly)
            if model.theta.size == n and same_frequencies(np.abs(coarse), model.theta, FREQ_RTOL_LOW):
                coarse = np.sign(coarse) * model.theta
            with np.errstate(invalid="ignore", divide="ignore"):
                mag16 = np.abs(ms[:, None] * coarse[None, :])
                err16 = np.abs(wrap_angle(phi - ang.delta[None, :] - ms[:, None] * coarse[None, :])) / mag16
            s16 = (mag16 >= 16) & (mag16 <= 128) & informative
            e = float(np.median(err16[s16])) if s16.any() else float(np.median(err[w]))
            return replace(out, eps=e, stage=1, name="bfloat16" if e > BFLOAT16_EPS else "float16")
        s2 = (mag >= 256) & (mag <= 3e5) & informative
        if not s2.any():
            return replace(out, eps=eps1, stage=1)
        eps2 = float(np.median(err[s2]))
        if table in ("bfloat16", "float16"):  # the table's rounding hides the angles' own: does it round m theta?
            dt = pp.dtype_of(table)
            rho = model.attention_factor if abs(ang.rho - model.attention_factor) <= BLOCK_TOL else ang.rho
            with np.errstate(all="ignore"):
                want_c = (rho * np.cos(exact)).astype(dt).astype(np.float64)
                want_s = (rho * np.sin(exact)).astype(dt).astype(np.float64)
            held = (want_c == y[:, a]) & (want_s == y[:, b])  # (positions, pairs)
            if not held[s2].all():
                return replace(out, eps=eps2, stage=2, name="float32")
            # float32's rounding of m theta (<= mag 2**-25) moves a value past a table step (2 u) with probability
            # ~ its ratio to the step: it would have shown at ~3 of these angles, or the probes cannot tell
            seen = float(np.minimum(1.0, mag[s2] * 2.0**-25 / (2 * u)).sum()) >= 3
            return replace(out, eps=eps2, stage=2, name="float64" if seen else "float32 or float64")
        return replace(out, eps=eps2, stage=2, name="float64" if eps2 <= FLOAT32_EPS else "float32")

    def _precision_finding(self, f, precision, eps, label) -> Finding:
        msg = (
            f"computes its angles in {precision} (median relative angle error {eps:.2g}; float32 angles give "
            f"~3e-08): nearby positions get the same or wrong angles long before the context ends"
        )
        dt = pp.dtype_of(precision)

        def bug(X, p, mw, w):  # positions, frequencies and their product rounded to the 16-bit dtype
            with np.errstate(all="ignore"):
                ang = (p.astype(dt)[:, None] * mw.theta.astype(dt)[None, :]).astype(np.float64)
            return rope_exact_float(X, p, mw, ang)

        return Finding("low-precision-angles", msg, self._example(f, bug), label)

    def _rounded_to(self, theta: np.ndarray, model: RopeModel) -> str | None:
        r"""``"bfloat16"`` or ``"float16"`` when the measured frequencies ``theta`` ``(pairs,)`` are the configured
        ones rounded to that dtype (and not the configured ones): angles of 16-bit frequencies."""
        if theta.shape != model.theta.shape or same_frequencies(theta, model.theta, self._rtol):
            return None
        for name in ("bfloat16", "float16"):
            try:
                dt = pp.dtype_of(name)
            except ValueError:  # pragma: no cover - bfloat16 needs ml_dtypes
                continue
            with np.errstate(over="ignore"):
                rounded = model.theta.astype(dt).astype(np.float64)
            if same_frequencies(theta, rounded, self._rtol):
                return name
        return None

    def _rounded_frequencies_finding(self, f, dtype: str, theta: np.ndarray, model: RopeModel, label) -> Finding:
        worst = furthest_pair(theta, model.theta)
        msg = (
            f"rounds its frequencies theta_i to {dtype} (pair {worst}: {theta[worst]:.9g} per position instead of "
            f"{model.theta[worst]:.9g}): its angles drift from m theta_i as the position grows"
        )
        dt = pp.dtype_of(dtype)

        def bug(X, p, mw, w):  # the frequencies rounded to the 16-bit dtype, the rest exact
            return rope_exact_float(X, p, replace(mw, theta=mw.theta.astype(dt).astype(np.float64)))

        return Finding("low-precision-angles", msg, self._example(f, bug), label)

    def _table_finding(self, f, prec, profile, label) -> Finding | None:
        r"""``low-precision-table``: a cos/sin table rounded to 16 bits over float32 or float64 angles whose score
        error exceeds the profile's tolerance where the angles cannot (at or below :data:`TABLE_POSITION`)."""
        if profile is None or profile.first_exceeding is None or profile.first_exceeding > TABLE_POSITION:
            return None
        first = profile.first_exceeding
        dt = pp.dtype_of(prec.table)

        def bug(X, p, mw, w):  # the exact angles' cos and sin rounded to the 16-bit dtype
            t = model_table(p, mw, w)
            t = replace(t, cos=t.cos.astype(dt).astype(np.float64), sin=t.sin.astype(dt).astype(np.float64))
            return t.apply(X.astype(np.float64), check_finite=False)

        err = "" if prec.table_error is None else f" (angles off by up to {prec.table_error:.2g} rad at every position)"
        msg = (
            f"rounds its cos/sin table to {prec.table}{err}: the score error exceeds the precision profile's "
            f"tolerance {profile.tolerance:g} from position {first} on, where float32 angles err by ~1e-6"
        )
        ex = dict(self._example(f, bug), table_dtype=prec.table, first_exceeding=first)
        return Finding("low-precision-table", msg, ex, label)

    # ---- behavioural checks on random vectors
    def _behaviour(self, f, model: RopeModel | None, eps, st: Structure, label) -> list[Finding]:
        d = self.width
        out = []
        top = self.top
        rng = self.rng
        # norms
        xs = rng.uniform(-1, 1, (8, d))
        ps = np.concatenate([[0, 1, 5, 100], rng.integers(0, top + 1, 4)])
        y = f(xs, ps)
        ref_model = model if model is not None else self._expected_model(d, top + 1)
        af, r = ref_model.attention_factor, ref_model.rotary_dim
        # the rotated channels (the first r in either layout) scale by the attention factor, the others pass
        total_x = np.hypot(np.linalg.norm(xs[:, :r], axis=1) * af, np.linalg.norm(xs[:, r:], axis=1))
        total_y = np.linalg.norm(y, axis=1)
        if np.max(np.abs(total_y / total_x - 1)) > NORM_RTOL:
            j = int(np.argmax(np.abs(total_y / total_x - 1)))
            out.append(
                Finding(
                    "not-norm-preserving",
                    f"changes the length of a rotated vector: |x| = "
                    f"{total_x[j]:.6g}, |f(x)| = {total_y[j]:.6g} at position {int(ps[j])}",
                    self._norm_example(f),
                    label,
                )
            )
        # relative property under shifts
        q, k = rng.uniform(-1, 1, (2, 16, d))
        m = rng.integers(0, top // 2 + 1, 16)
        n = rng.integers(0, top // 2 + 1, 16)
        t = rng.integers(1, top - np.maximum(m, n) + 1)
        s1 = np.einsum("td,td->t", f(q, m), f(k, n))
        s2 = np.einsum("td,td->t", f(q, m + t), f(k, n + t))
        scale = np.linalg.norm(q, axis=1) * np.linalg.norm(k, axis=1)
        theta_max = float(np.max(model.theta)) if model is not None else 1.0
        allowed = _allowed(eps, np.maximum(m, n) + t, theta_max, self._table_roundoff)
        if np.any(np.abs(s1 - s2) / scale > allowed):
            out.append(
                Finding(
                    "not-relative",
                    "scores change when query and key positions shift together",
                    self._relative_example(f),
                    label,
                )
            )
        # agreement with the reference at safe positions
        if model is None:
            model = self._expected_model(d, top + 1)
        xs = rng.uniform(-1, 1, (4, d))
        ps = np.array([0, 1, 3, 10])
        got = f(xs, ps)
        ref = reference_rows(xs, ps, model).astype(float)
        table = 4 * self._table_roundoff * max(ref_model.attention_factor, 1.0)  # |x_a dc| + |x_b ds|, |x| <= 1
        if np.max(np.abs(got - ref)) > max(EXAMPLE_ATOL, 64 * (eps or 0) * 10, table) and not out:
            out.append(
                Finding(
                    "disagrees-with-reference",
                    "its output differs from the 50-digit reference of the configured model",
                    self._example(f),
                    label,
                )
            )
        return out

    def _generic(self, f, model, st: Structure, label):
        r"""The structure is not a rotation per pair in a known layout: the behavioural checks say what fails."""
        if st.kind == "not-orthogonal":  # the root cause; scores then fail to be relative as a consequence
            out = [
                Finding(
                    "not-norm-preserving",
                    f"its 2x2 blocks are not rotations (pairs {pairs_text(st.pairs)})",
                    self._norm_example(f),
                    label,
                )
            ]
        elif st.kind == "reflection":
            out = [
                Finding(
                    "not-relative",
                    "its 2x2 blocks are reflections, not rotations: they keep lengths but "
                    "scores do not depend on n - m only",
                    self._relative_example(f),
                    label,
                )
            ]
        else:
            out = self._behaviour(f, None, None, st, label)
        if not out:
            out.append(
                Finding(
                    "disagrees-with-reference",
                    f"pairs no channels the way RoPE does ({'no pairs' if not st.pairs else pairs_text(st.pairs)})",
                    self._example(f),
                    label,
                )
            )
        match = RopeMatch(
            st.layout, st.rotary_dim or None, None, None, None, None, None, self.caller.backend or "numpy"
        )
        return out, match, None

    # ---- the precision profile of the function (float32 inputs)
    def _profile(self, f, model: RopeModel, expected: bool = False) -> pp.Profile | None:
        if self.max_position - max(pp.DISTANCES) < 1:  # no room for the profile's distances: no profile
            return None
        if self._length_dependent() and expected:
            # every profile call holds a row at max_position: the function sees that length, and so does the model
            at = self._expected_model(self.width, self.max_position + 1)
            model = replace(model, theta=at.theta, theta_mp=at.theta_mp, attention_factor=at.attention_factor)
        probe = pp.make_probe(
            self.width,
            dtype="float32",
            layout=model.layout,
            inv_freq=list(model.theta_mp),
            attention_factor=model.attention_factor if model.attention_factor != 1.0 else None,
            rotary_dim=model.rotary_dim,
        )

        def rotate(x, pos):
            return self._run32(x, pos)

        try:
            return pp.function_profile(
                rotate, probe, tolerance=self.tolerance, max_position=self.max_position - max(pp.DISTANCES)
            )
        except (AuditCallError, ShapeError):
            return None

    def _length_dependent(self) -> bool:
        return self.seq_len is None and self.cfg.rope_type in ("dynamic", "longrope")

    def _run32(self, x, pos):
        # x float32 rows; the anchor at the top probed position, or at max_position for rules of the current length
        xa, pa = self._anchored(x, pos, self.max_position if self._length_dependent() else None)
        o = self.offsets.get(0, 0)
        if o:
            xa = np.roll(xa, o, axis=1)
        outs, _ = self.caller.raw(xa, pa, np.zeros_like(xa) if self.call.qk else None)
        y = np.asarray(outs[0], dtype=np.float64).reshape(xa.shape)
        if 0 in self.permutations:
            y = y[:, self.permutations[0]]
        return (np.roll(y, -o, axis=1) if o else y)[:-1]
