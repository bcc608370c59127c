r"""The frequency rules an audited function is matched against: the configured rule first, then named
plausible mistakes (no scaling, another scaling rule, YaRN's correction range from the wrong length, the head
width instead of the rotary width, wrong exponents) as :class:`Candidate`, and the base of geometric frequencies
(:func:`fit_base`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from posproof.numeric.audit.probe import same_frequencies
from posproof.numeric.scaling.rules import ROPE_TYPES, RopeScaling
from posproof.numeric.sinusoid import inverse_frequencies
from posproof.numeric.tolerances import AUDIT_BLOCK_TOL as BLOCK_TOL


@dataclass(frozen=True)
class Candidate:
    key: str  # stable across widths (for minimal examples at smaller widths)
    name: str  # finding id, or "" for the expected
    sentence: str
    theta: np.ndarray  # (r'/2,)
    attention_factor: float
    base: float | None = None


def _yarn_theta(cfg: RopeScaling, L0: float, clamp_high: float | None = None) -> np.ndarray:
    r"""YaRN's ``theta'_i`` with the correction range computed from ``L0`` (and ``high`` clamped to
    ``clamp_high``): the real bug variants, built from the same definitions as :mod:`numeric.scaling`."""
    d, b, s = cfg.d, cfg.base, cfg.s
    c = lambda r: d * math.log(L0 / (2 * math.pi * r)) / (2 * math.log(b))
    low: float = max(math.floor(c(cfg.beta_fast_)), 0)
    high: float = min(math.ceil(c(cfg.beta_slow_)), d - 1 if clamp_high is None else clamp_high)
    if low == high:
        high += 0.001
    i = np.arange(d // 2)
    gamma = np.clip((i - low) / (high - low), 0, 1)  # 1 past high: fully interpolated
    theta = inverse_frequencies(d, base=b)  # (d/2,): b^(-2i/d)
    return gamma * theta / s + (1 - gamma) * theta


def rule_candidates(cfg: RopeScaling, seq_len: int, width: int) -> list[Candidate]:
    r"""The expected frequencies first, then named alternatives (each a plausible mistake)."""
    d, b = cfg.d, cfg.base
    i = np.arange(d // 2, dtype=np.float64)
    theta = inverse_frequencies(d, base=b)  # (d/2,): b^(-2i/d), the plain rule
    th, af = cfg.inv_freq(seq_len)
    out = [Candidate("expected", "", "the configured rule", th, af, b)]
    if cfg.rope_type != "default":
        out.append(
            Candidate(
                "no-scaling",
                "wrong-scaling",
                f"no scaling (plain RoPE, base {b:g}) instead of {cfg.rope_type}",
                theta,
                1.0,
                b,
            )
        )
    params = {
        "factor": cfg.factor if cfg.factor is not None else (cfg.s if cfg.rope_type != "default" else None),
        "original_max_position_embeddings": cfg.L0,
        "max_position_embeddings": cfg.max_position_embeddings,
    }
    for rule in ROPE_TYPES:
        if (
            rule in (cfg.rope_type, "default", "longrope")
            or params["factor"] is None
            or cfg.rope_type == "proportional"
        ):
            continue
        kw: dict = {"factor": params["factor"], "partial_rotary_factor": cfg.partial_rotary_factor}
        if rule in ("dynamic", "yarn", "llama3"):
            if params["original_max_position_embeddings"] is None:
                continue
            kw["original_max_position_embeddings"] = params["original_max_position_embeddings"]
        if rule == "llama3":
            kw.update(low_freq_factor=cfg.low_freq_factor or 1.0, high_freq_factor=cfg.high_freq_factor or 4.0)
        if rule == "dynamic":
            kw.pop("original_max_position_embeddings")
            kw["max_position_embeddings"] = params["original_max_position_embeddings"]
        try:
            alt = RopeScaling(width, base=b, rope_type=rule, **kw)
            t, a = alt.inv_freq(seq_len)
        except (ValueError, ArithmeticError):  # a rule this factor is not valid for, or overflows (factor 1e300)
            continue
        out.append(
            Candidate(
                f"rule:{rule}",
                "wrong-scaling",
                f"the {rule} rule (factor {params['factor']:g}) instead of {cfg.rope_type}",
                t,
                a,
                b,
            )
        )
    if cfg.rope_type == "yarn" and cfg.L0 is not None:
        s = cfg.s
        out.append(
            Candidate(
                "yarn-extended",
                "wrong-scaling",
                f"YaRN with the correction range computed from the extended length {s:g} x L0 instead of L0 = {cfg.L0}",
                _yarn_theta(cfg, s * cfg.L0),
                af,
                b,
            )
        )
        out.append(
            Candidate(
                "yarn-clamped",
                "wrong-scaling",
                "YaRN with the correction range clamped to d/2 - 1 instead of d - 1",
                _yarn_theta(cfg, cfg.L0, d // 2 - 1),
                af,
                b,
            )
        )
        out.append(
            Candidate("yarn-no-attention", "wrong-scaling", "YaRN frequencies without its attention factor", th, 1.0, b)
        )
    if cfg.rope_type == "longrope" and cfg.L0 is not None:
        long = seq_len > cfg.L0
        other, other_af = cfg.inv_freq(cfg.L0 if long else cfg.L0 + 1)
        out.append(
            Candidate(
                "longrope-other-table",
                "wrong-scaling",
                f"LongRoPE's {'short_factor' if long else 'long_factor'} at length {seq_len} "
                f"({'>' if long else '<='} L0 = {cfg.L0}), where {'long_factor' if long else 'short_factor'} applies",
                other,
                other_af,
                b,
            )
        )
    if cfg.rope_type != "default" and af != 1.0:
        out.append(
            Candidate(
                "no-attention",
                "wrong-scaling",
                f"{cfg.rope_type} frequencies without the attention factor {af:.6g}",
                th,
                1.0,
                b,
            )
        )
    # widths and exponents (for the plain rule); the width first: b^(-2i/width) with width = 2d is also b^(-i/d)
    scale = th / theta  # what the rule does to each frequency
    if d < width:
        out.append(
            Candidate(
                "partial-width",
                "partial-rotary-width",
                f"theta_i = b^(-2i/{width}): built over the head width {width} instead of the rotary width {d}",
                inverse_frequencies(width, base=b)[: d // 2] * scale,
                af,
                b,
            )
        )
    out.append(
        Candidate(
            "exp-i/d",
            "frequency-exponent",
            "theta_i = b^(-i/d) (exponent i/d instead of 2i/d)",
            b ** (-i / d) * scale,
            af,
            b,
        )
    )
    out.append(
        Candidate(
            "exp-off-by-one",
            "frequency-exponent",
            "theta_i = b^(-2(i+1)/d) (exponent off by one pair)",
            b ** (-2 * (i + 1) / d) * scale,
            af,
            b,
        )
    )
    if d >= 4:
        out.append(
            Candidate(
                "exp-t2t",
                "frequency-exponent",
                "theta_i = b^(-i/(d/2-1)) (tensor2tensor's timescales)",
                inverse_frequencies(d, base=b, frequencies="tensor2tensor") * scale,
                af,
                b,
            )
        )
    return out


def first_match(cands: list[Candidate], theta: np.ndarray, rho: float, rtol: float | np.ndarray) -> Candidate | None:
    r"""The first candidate whose frequencies are the measured ``theta`` ``(pairs,)`` within ``rtol`` and whose
    attention factor is ``rho`` within :data:`BLOCK_TOL`."""
    for c in cands:
        if same_frequencies(theta, c.theta, rtol):
            if abs(rho - c.attention_factor) <= BLOCK_TOL:
                return c
    return None


def fit_base(omega: np.ndarray, d: int) -> float | None:
    r"""The base ``b'`` with ``omega_i = b'^(-2i/d)`` if the frequencies are geometric from 1, else ``None``."""
    if omega.size < 2 or not np.all(omega > 0) or abs(omega[0] - 1) > 1e-3:
        return None
    i = np.arange(omega.size)
    slope = np.polyfit(i, np.log(omega), 1)[0]
    b = math.exp(-slope * d / 2)
    if not (math.isfinite(b) and b > 1):
        return None
    return b if np.max(np.abs(inverse_frequencies(d, base=b) / omega - 1)) < 1e-3 else None


def table_candidates(cfg: RopeScaling, inv_freq: np.ndarray, seq_len: int) -> list[Candidate]:
    r"""The candidates of a free frequency table ``inv_freq`` ``(r/2,)`` (``audit_rope(inv_freq=...)``): the table
    first, then the plausible mistake of computing the configured rule's own ladder instead (a truncated table whose
    zeros were not applied: modded-nanogpt's)."""
    th, af = cfg.inv_freq(seq_len)
    out = [Candidate("expected", "", "the given inv_freq table", inv_freq, af, None)]
    if th.shape == inv_freq.shape and not np.array_equal(th, inv_freq):
        out.append(
            Candidate(
                "table-ladder",
                "wrong-scaling",
                f"{'the plain' if cfg.rope_type == 'default' else 'the ' + cfg.rope_type} ladder of base {cfg.base:g} "
                "instead of the given inv_freq table",
                th,
                af,
                cfg.base,
            )
        )
    return out
