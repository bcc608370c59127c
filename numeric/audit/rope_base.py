r"""The state of a RoPE audit and what every check needs: the configured model at any width, calls of the
function with an anchor row at the largest probed position, the widths tried for minimal examples, and the
minimal examples themselves (the smallest width and position where the function and the reference differ, and
where the mistake a finding names differs too)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import mpmath
import numpy as np
from posproof.numeric import _validate
from posproof.numeric import precision_profile as pp
from posproof.numeric.audit.call import IMPLICIT_MAX_POSITION, Caller, RopeCall
from posproof.numeric.audit.model import RopeModel, reference_rows, rope_exact_float
from posproof.numeric.audit.probe import probe_positions
from posproof.numeric.audit.report import Finding, exact_text
from posproof.numeric.audit.rules import Candidate, rule_candidates, table_candidates
from posproof.numeric.scaling.rules import RopeScaling
from posproof.numeric.tolerances import AUDIT_EXAMPLE_ATOL as EXAMPLE_ATOL
from posproof.numeric.tolerances import AUDIT_FREQ_RTOL
from posproof.numeric.tolerances import AUDIT_NORM_RTOL as NORM_RTOL
from posproof.numeric.tolerances import AUDIT_REFERENCE_DPS as REFERENCE_DPS


def _factor_of(rotary_dim: int, width: int) -> float:
    r"""The smallest float ``f`` with ``int(width * f) == rotary_dim`` (transformers' rotary width): ``rotary_dim /
    width`` itself can round below (``int(44 * (30 / 44)) == 29``)."""
    f = rotary_dim / width
    while int(width * f) < rotary_dim:
        f = math.nextafter(f, 2.0)
    return f


class RopeAuditBase:
    r"""The configuration audited against, the function's caller, the probed positions and the random state."""

    def __init__(
        self, fn, layout, base, scaling, width, rotary_dim, call, tolerance, max_position, seq_len, seed, inv_freq=None
    ):
        self.fn = fn
        self.layout = "auto" if layout == "auto" else _validate.layout(layout)
        self.base = _validate.base(base)
        self.width = _validate.even_width(width, "width")
        mapping = dict(scaling) if scaling else {"rope_type": "default"}
        # the configuration's max_position_embeddings, where a rule needs it (L0 or factor by default)
        self.mpe = mapping.pop("max_position_embeddings", None)
        if rotary_dim is not None:
            rd = _validate.even_width(rotary_dim, "rotary_dim")
            if rd > self.width:
                raise ValueError(f"rotary_dim must be an even integer in [2, {self.width}], got {rotary_dim!r}")
            if "partial_rotary_factor" in mapping:
                raise ValueError("give either rotary_dim or partial_rotary_factor in scaling")
            mapping["partial_rotary_factor"] = _factor_of(rd, self.width)
        table = None if inv_freq is None else self._table(inv_freq, rotary_dim, mapping)
        self.scaling_mapping = mapping
        self.cfg = RopeScaling.from_mapping(
            self.width, base=self.base, scaling=mapping, max_position_embeddings=self.mpe
        )
        if table is not None and 2 * table.size != self.cfg.d:
            raise ValueError(
                f"inv_freq must have one entry per rotated pair ({self.cfg.d // 2} for the rotary width {self.cfg.d}), "
                f"got {table.size}"
            )
        self.inv_freq: np.ndarray | None = table  # (r/2,) a free frequency table replacing the rule's
        self.call = call if isinstance(call, RopeCall) else RopeCall() if call is None else RopeCall.parse(call)
        self.tolerance = pp._tolerance(tolerance)
        self.max_position = _validate.positive_int(max_position, "max_position", 4)
        capped = self.call.rows == "implicit" and self.max_position > IMPLICIT_MAX_POSITION
        if capped:  # every call holds a block of max_position + 1 rows: bounded
            requested, self.max_position = self.max_position, IMPLICIT_MAX_POSITION
        self.seq_len = seq_len
        self.rng = np.random.default_rng(seed)
        self.caller = Caller(fn, self.call, self.base, self._expected_model)
        self.P = probe_positions(self.max_position)
        self.top = self.P[-1]
        self._widths_cache: list[int] | None = None
        self.found_layout: str | None = None  # the layout the probes found (set by the audit)
        self.permutations: dict[int, np.ndarray] = {}  # output -> the channel permutation undone
        self.offsets: dict[int, int] = {}  # output -> the rotary offset undone
        self.notes: list[str] = []
        if capped:
            self.notes.append(
                f"called with rows at positions 0 .. T-1 (no positions argument): probed up to position "
                f"{IMPLICIT_MAX_POSITION}, not max_position = {requested}"
            )
        self.name: str | None = None
        self._low_precision = False  # the angles of the output being audited are 16-bit
        self._rtol = np.asarray(AUDIT_FREQ_RTOL)  # (pairs,) or (): the measured frequencies' relative uncertainty
        self._table_roundoff = 0.0  # the unit roundoff of the cos/sin table of the output being audited
        self.dtype: str | None = None  # 16-bit inputs checked too (audit_rope's dtype=)
        self.progress: Callable[[str], None] | None = None  # told each stage of the audit (audit_rope's progress=)

    def _table(self, inv_freq, rotary_dim, mapping: dict) -> np.ndarray:
        r"""``inv_freq`` checked: 1 to ``width/2`` finite frequencies >= 0 (``rotary_dim/2`` when given); a table
        shorter than the head gives the rotary width (``partial_rotary_factor`` added to ``mapping``)."""
        table = _validate.finite_array(inv_freq, "inv_freq")
        half = self.width // 2
        if table.ndim != 1 or not 1 <= table.size <= half or (table < 0).any():
            raise ValueError(
                f"inv_freq must be a list of 1 to width/2 = {half} frequencies >= 0 (one per rotated pair), "
                f"got shape {table.shape}" + (" with a negative entry" if table.size and (table < 0).any() else "")
            )
        if rotary_dim is not None and 2 * table.size != rotary_dim:
            raise ValueError(f"inv_freq must have rotary_dim/2 = {rotary_dim // 2} entries, got {table.size}")
        if rotary_dim is None and "partial_rotary_factor" not in mapping and 2 * table.size < self.width:
            mapping["partial_rotary_factor"] = _factor_of(2 * table.size, self.width)
        return table

    def _candidates(self, cfg: RopeScaling, seq_len: int, width: int) -> list[Candidate]:
        r"""The frequency rules matched: the free table's (:func:`table_candidates`) or the rule's."""
        if self.inv_freq is not None:
            return table_candidates(cfg, self.inv_freq, seq_len)
        return rule_candidates(cfg, seq_len, width)

    def _stage(self, text: str, label: str | None = None) -> None:
        r"""Tell ``progress`` (when given) the stage the audit begins: ``text``, for output ``label``."""
        if self.progress is not None:
            self.progress(f"{label}: {text}" if label else text)

    # -- the expected model at a width (the rotary factor is kept) and current length
    def _cfg_at(self, width: int) -> RopeScaling:
        if width == self.width:
            return self.cfg
        return RopeScaling.from_mapping(
            width, base=self.base, scaling=self.scaling_mapping, max_position_embeddings=self.mpe
        )

    def _expected_model(self, width: int, seq_len: int) -> RopeModel:
        cfg = self._cfg_at(width)
        L = self.seq_len if self.seq_len is not None else seq_len
        th, af = cfg.inv_freq(L)
        th_mp, _ = cfg.inv_freq_mp(L, dps=REFERENCE_DPS)
        if self.inv_freq is not None:  # a free table: its frequencies (at the audit's width), the rule's factor
            th, th_mp = self.inv_freq, [mpmath.mpf(float(t)) for t in self.inv_freq]
        # under "auto", examples are built in the layout the probes found (interleaved until then)
        layout = (self.found_layout or "interleaved") if self.layout == "auto" else self.layout
        return RopeModel(layout, th, tuple(th_mp), af, cfg.d, width)

    def expected_dict(self) -> dict:
        return {
            "layout": self.layout,
            "base": self.base,
            "scaling": self.scaling_mapping
            if self.mpe is None
            else dict(self.scaling_mapping, max_position_embeddings=self.mpe),
            "width": self.width,
            "rotary_dim": self.cfg.d,
            "call": str(self.call),
            "max_position": self.max_position,
            "tolerance": self.tolerance,
            **({} if self.inv_freq is None else {"inv_freq": self.inv_freq.tolist()}),
        }

    # -- calls with an anchor row at the largest probed position (same current length in every call)
    def run(self, x: np.ndarray, pos: np.ndarray, which: int = 0, other=None, anchor: int | None = None) -> np.ndarray:
        xa, pa = self._anchored(x, pos, anchor)
        oa = None if other is None else self._anchored(other, pos, anchor)[0]
        return self.caller(xa, pa, which, oa)[:-1]

    def _anchored(self, x: np.ndarray, pos, anchor: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        r"""Rows ``x`` ``(tokens, width)`` and their positions with a zero row at ``anchor`` (default: the largest
        probed position) appended."""
        xa = np.concatenate([x, np.zeros((1, x.shape[1]), x.dtype)])  # (tokens + 1, width)
        pa = np.concatenate([np.asarray(pos, dtype=np.int64), [self.top if anchor is None else anchor]])
        return xa, pa

    def _qk(self, own: np.ndarray, other: np.ndarray, pos: np.ndarray, which: int, anchor=None) -> np.ndarray:
        r"""Output ``which`` of the (q, k) function when its own input is ``own`` and the other input ``other``."""
        if which == 0:
            return self.run(own, pos, 0, other, anchor)
        return self.run(other, pos, 1, own, anchor)

    def _cross_example(self, which: int) -> dict:
        mine, other = ("q", "k") if which == 0 else ("k", "q")
        for w in self._widths():
            e = np.zeros((1, w))
            e[0, 0] = 1.0
            z = np.zeros((1, w))
            pos = np.array([1])
            try:
                a, b = self._qk(e, z, pos, which), self._qk(e, e, pos, which)
            except Exception:  # noqa: BLE001 - a width the function does not support
                continue
            if np.max(np.abs(a - b)) > EXAMPLE_ATOL:
                return {
                    "width": w,
                    "positions": [1],
                    mine: e[0].tolist(),
                    f"{other} (first call)": z[0].tolist(),
                    f"{other} (second call)": e[0].tolist(),
                    f"{mine} rotated (first call)": a[0].tolist(),
                    f"{mine} rotated (second call)": b[0].tolist(),
                }
        return {"width": self.width}

    def _widths(self) -> list[int]:
        r"""Widths for minimal examples, smallest first, keeping the rotary fraction: those the configured rule
        accepts (dynamic NTK needs a rotary width >= 4, LongRoPE's factor tables fit one width only)."""
        if self._widths_cache is None and self.inv_freq is not None:  # a free table has one width
            self._widths_cache = [self.width]
        if self._widths_cache is None:
            out = []
            for w in list(range(2, 17, 2)) + [32, 64, 128, 256]:
                if w < self.width:
                    try:
                        self._cfg_at(w)
                    except ValueError:
                        continue
                    out.append(w)
            self._widths_cache = out + [self.width]
        return self._widths_cache

    # ---- one output
    def _out(self, which: int):
        r"""A rotation ``x, pos -> y`` of output ``which`` (the other input fixed to zeros)."""
        if not self.call.qk:
            return lambda x, pos, anchor=None: self.run(x, pos, 0, None, anchor)
        return lambda x, pos, anchor=None: self._qk(x, np.zeros_like(x), pos, which, anchor)

    # ---- minimal examples against the expected model
    def _example_finding(self, id_: str, message: str, f, label, bug=None) -> Finding:
        return Finding(id_, message, self._example(f, bug), label)

    def _example(self, f, bug=None) -> dict:
        r"""The smallest width, then the smallest position, where some unit vector's rotation differs from the
        50-digit reference of the configured model by more than :data:`EXAMPLE_ATOL`, and where ``bug`` (the
        configured model with only this finding's mistake, ``bug(X, positions, model, width)``) differs too, so
        that the example shows this finding."""
        for w in self._widths():
            model = self._expected_model(w, self.top + 1)
            for m in (0, 1, 2, 3, 5, 10, 100, 1000, 10000, 100000):
                if m > self.max_position:
                    break
                X = np.eye(w)
                pos = np.full(w, m)
                approx = rope_exact_float(X, pos, model)
                if bug is not None:
                    alone = bug(X, pos, model, w)
                    if alone is None or np.max(np.abs(alone - approx)) <= EXAMPLE_ATOL:
                        continue
                try:
                    with np.errstate(all="ignore"):
                        got = f(X, pos, anchor=self.top)
                except Exception:  # noqa: BLE001 - a width the function does not support
                    break
                diff = np.max(np.abs(got - approx), axis=1)
                if bug is not None:
                    diff = diff * (np.max(np.abs(alone - approx), axis=1) > EXAMPLE_ATOL)
                if np.max(diff) > EXAMPLE_ATOL:
                    j = int(np.argmax(diff))
                    ref = reference_rows(X[j : j + 1], pos[j : j + 1], model)
                    return {
                        "width": w,
                        "positions": [m],
                        "vectors": X[j : j + 1].tolist(),
                        "expected": [exact_text(v) for v in ref[0]],
                        "got": got[j].tolist(),
                    }
        return {"width": self.width}

    def _bug_width(self, X, pos, mw: RopeModel, w: int, factor: float):
        r"""The configured rule at rotary fraction ``factor`` instead of the configured one."""
        r = int(w * factor)
        if r < 2 or r % 2:
            return None
        mapping = dict(self.scaling_mapping, partial_rotary_factor=factor)
        if self.cfg.rope_type == "proportional":  # the mistake: partial rotary, its exponent over the r channels
            s = self.cfg.s
            mapping = {"partial_rotary_factor": factor, **({"rope_type": "linear", "factor": s} if s > 1 else {})}
        try:
            th, af = RopeScaling.from_mapping(
                w, base=self.base, scaling=mapping, max_position_embeddings=self.mpe
            ).inv_freq(self.top + 1)
        except ValueError:
            return None
        if 2 * th.size != r:
            return None
        return rope_exact_float(X, pos, replace(mw, theta=th, attention_factor=af, rotary_dim=r))

    def _bug_rule(self, X, pos, mw: RopeModel, w: int, key: str):
        r"""The named alternative ``key`` of :func:`rule_candidates` at width ``w``."""
        L = self.top + 1 if self.seq_len is None else self.seq_len
        alt = [c for c in self._candidates(self._cfg_at(w), L, w) if c.key == key]
        if not alt or alt[0].theta.size != mw.rotary_dim // 2:
            return None
        return rope_exact_float(X, pos, replace(mw, theta=alt[0].theta, attention_factor=alt[0].attention_factor))

    def _norm_example(self, f) -> dict:
        for w in self._widths():
            for m in (1, 2, 3, 10, 100):
                X = np.zeros((1, w))
                X[0, :] = 1.0
                try:
                    y = f(X, np.array([m]), anchor=self.top)
                except Exception:  # noqa: BLE001
                    break
                af = self._expected_model(w, self.top + 1).attention_factor
                r = self._cfg_at(w).d
                want = math.sqrt(r * af**2 + (w - r))
                if abs(np.linalg.norm(y) / want - 1) > NORM_RTOL:
                    return {
                        "width": w,
                        "positions": [m],
                        "vectors": X.tolist(),
                        "got": y[0].tolist(),
                        "norm_in": math.sqrt(w),
                        "norm_out": float(np.linalg.norm(y)),
                    }
        return {"width": self.width}

    def _relative_example(self, f) -> dict:
        for w in self._widths():
            for m, n, t in ((0, 1, 1), (1, 2, 1), (0, 1, 100), (0, 1, 1000), (0, 1, self.top - 2)):
                if max(m, n) + t > self.top:
                    continue
                q = np.ones((1, w))
                k = np.ones((1, w))
                try:
                    s1 = float(f(q, np.array([m]))[0] @ f(k, np.array([n]))[0])
                    s2 = float(f(q, np.array([m + t]))[0] @ f(k, np.array([n + t]))[0])
                except Exception:  # noqa: BLE001
                    break
                if abs(s1 - s2) > EXAMPLE_ATOL * w:
                    return {
                        "width": w,
                        "q": q[0].tolist(),
                        "k": k[0].tolist(),
                        "positions": [[m, n], [m + t, n + t]],
                        "scores": [s1, s2],
                    }
        return {"width": self.width}
