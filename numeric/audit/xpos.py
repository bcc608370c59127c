r"""The audit of an xPos function ``fn(q, k, positions) -> (q_rotated, k_rotated)`` (:func:`audit_xpos_plan`),
against the configuration :func:`xpos_plan` reads from a scaling mapping (``rope_type: "xpos"``).

Scored on ``(q, k)`` together: each output is rightly not norm-preserving (pair ``i`` of the query is scaled by
``zeta_i**((m - o)/s)``, of the key by its reciprocal), and only the scores ``q_m . k_n`` are relative. The origin
``o`` of the scale (flash-attn's and x-transformers' ``seq_len // 2``, torchscale's ``ceil(L/2)``) cancels in the
scores and is not audited: every measurement compares rows of one call, or scores of a query and a key of one call. The
tolerances (:mod:`numeric.tolerances`, ``AUDIT_XPOS_*``) are sized for float32 or float64 outputs: a function
returning float16 or bfloat16 scores errs by more than ``AUDIT_XPOS_SCORE_RTOL`` and is reported as not relative.

How. One call holds a unit vector on every channel at each probed position ``0, 1, 2, 3, 4, 8, ..., 2**K <=
max_position``, as queries and as keys. Which channels each image reaches gives the pair layout; each pair's image
must be ``rho R(phi)``; the angles ``phi_i(m)`` (unwrapped over the doubling positions) give the frequencies, matched
against the base (or a fitted one); the lengths give the slopes ``d log rho_i / dm``, which must be
``log(zeta_i)/s`` for the query and ``-log(zeta_i)/s`` for the key, ``zeta_i = (2i/d + gamma)/(1 + gamma)``; other
slopes are fitted to a scale base and a gamma. Then random queries and keys: their scores must not change when both
positions shift (:data:`XPOS_FINDINGS` ``xpos-not-relative``, with the smallest shift and positions that show it) and
must be xPos' scores ``sum_i zeta_i**((m-n)/s) q_(i)^T R((n - m) theta_i) k_(i)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from posproof.numeric import _validate, formatting
from posproof.numeric.audit import xpos_probe as xp
from posproof.numeric.audit.call import Caller, RopeCall
from posproof.numeric.audit.report import Finding, SchemeReport, function_name
from posproof.numeric.sinusoid import inverse_frequencies
from posproof.numeric.tolerances import AUDIT_XPOS_ANGLE_ATOL as ANGLE_ATOL
from posproof.numeric.tolerances import AUDIT_XPOS_LEAK as LEAK
from posproof.numeric.tolerances import AUDIT_XPOS_ROTATION_RTOL as ROTATION_RTOL
from posproof.numeric.tolerances import AUDIT_XPOS_SCORE_RTOL as SCORE_RTOL
from posproof.numeric.tolerances import AUDIT_XPOS_SLOPE_RTOL as SLOPE_RTOL
from posproof.numeric.xpos import DEFAULT_GAMMA, DEFAULT_SCALE_BASE, rope_xpos, xpos_zeta

#: Finding ids and what each means (stable: tools and tests match on them).
XPOS_FINDINGS = {
    "xpos-shape": "an output is not finite or does not have the input's shape",
    "xpos-qk-cross-wired": "a rotated output depends on the other input (the query's on the key, or the reverse; "
    "e.g. the outputs returned as (k, q))",
    "xpos-layout": "the rotation pairs the channels in the other layout (half (i, i + d/2) against interleaved "
    "(2i, 2i + 1))",
    "xpos-wrong-rotation": "a pair's map is not a scaled rotation rho R(m theta_i) of its two channels (channels of "
    "two pairs mixed, a reflection, an offset angle), in a way no other finding explains",
    "xpos-rotation-sign": "the pairs rotate clockwise: angle -m theta_i",
    "xpos-wrong-base": "the rotation's frequencies are those of another base",
    "xpos-scale-layout": "the scale is laid out over the channels in the other layout than the rotation's pairs "
    "(e.g. cat((scale, scale)) with interleaved pairs): a pair's two channels get different scales and the scores "
    "are not relative",
    "xpos-no-scale": "the outputs are plain RoPE: no xPos scale (each output keeps its length)",
    "xpos-key-scale-direction": "the key is not scaled by the reciprocal of the query's scale (scaled up like the "
    "query, or not at all): the scores are not relative",
    "xpos-scale-inverted": "the query is scaled by zeta_i^(-m/s) and the key by zeta_i^(m/s): the scores grow with "
    "the distance to keys before the query instead of decaying",
    "xpos-wrong-scale-base": "the scale base s is not the declared one (zeta_i^(m/s') with another s')",
    "xpos-wrong-gamma": "the decay bases are not zeta_i = (2i/d + gamma)/(1 + gamma) with the declared gamma",
    "xpos-wrong-scale": "the per-pair scales are not zeta_i^(m/s) for any gamma and s",
    "xpos-not-relative": "scores change when the query and key positions shift together",
    "xpos-disagrees-with-reference": "the scores differ from xPos' in a way none of the other findings explains",
}

#: The keys a scaling mapping of xPos may hold, and what each means.
XPOS_SCALING_KEYS = {
    "rope_type": '"xpos" (required)',
    "scale_base": f"the scale base s > 0 (default {DEFAULT_SCALE_BASE:g})",
    "gamma": f"gamma > 0 of zeta_i = (2i/d + gamma)/(1 + gamma) (default {DEFAULT_GAMMA:g})",
}
#: The layouts the audit accepts (``"auto"``: either passes, the one found is reported).
LAYOUTS = ("interleaved", "half", "auto")
#: The call arguments an xPos function may take (no caches: posproof does not build xPos' scaled tables).
CALL_ARGS = ("q", "k", "positions", "base")
#: The largest probed position by default (and the shifts' reach).
DEFAULT_MAX_POSITION = 2048


@dataclass(frozen=True)
class XposPlan:
    r"""What an xPos function is audited against: the head ``width``, the rotation's ``base`` and ``layout``
    (``"auto"`` for either), ``scale_base`` (``s``), ``gamma``, how to ``call`` it, the largest position probed
    (``max_position``) and the ``seed`` of the random vectors."""

    width: int
    base: float
    layout: str
    scale_base: float
    gamma: float
    call: RopeCall
    max_position: int = DEFAULT_MAX_POSITION
    seed: int = 0

    def as_dict(self) -> dict:
        return {
            "width": self.width,
            "base": self.base,
            "layout": self.layout,
            "scale_base": self.scale_base,
            "gamma": self.gamma,
            "call": str(self.call),
            "max_position": self.max_position,
        }


def _positive(value, name: str) -> float:
    return _validate.positive_real(value, name)


def _call(call) -> RopeCall:
    if call is None:
        return RopeCall(("q", "k", "positions"))
    if not isinstance(call, (RopeCall, str)):
        raise ValueError(f"call must be a RopeCall or a text like 'q,k,positions', got {type(call).__name__}")
    c = call if isinstance(call, RopeCall) else RopeCall.parse(call)
    bad = [a for a in c.args if a not in CALL_ARGS]
    if bad or not c.qk or "positions" not in c.args:
        raise ValueError(
            f"call must take q, k and positions (and optionally base) for xPos, e.g. 'q,k,positions', got {str(c)!r}"
        )
    return c


def xpos_plan(
    scaling: Mapping,
    *,
    width: int,
    base: float,
    layout: str,
    call,
    max_position: int = DEFAULT_MAX_POSITION,
    seed: int = 0,
) -> XposPlan:
    r"""The checked configuration of an xPos audit: ``scaling`` a mapping with ``rope_type: "xpos"`` and optionally
    ``scale_base`` and ``gamma`` (:data:`XPOS_SCALING_KEYS`); ``width`` (even, >= 2), ``base`` (> 1), ``layout``
    (:data:`LAYOUTS` or an alias), ``call`` (``None``: ``q,k,positions``; a :class:`RopeCall` or its text form, taking
    q, k, positions and optionally base), ``max_position`` (>= 16: the probes and shifts stay at or below it).
    ``ValueError`` naming the argument and the accepted range otherwise."""
    if not isinstance(scaling, Mapping):
        raise ValueError(f"scaling must be a mapping with rope_type 'xpos', got {type(scaling).__name__}")
    kind = scaling.get("rope_type", scaling.get("type"))
    if kind != "xpos":
        raise ValueError(f"scaling['rope_type'] must be 'xpos' for the xPos audit, got {kind!r}")
    unknown = [key for key in scaling if key not in XPOS_SCALING_KEYS and key != "type"]
    if unknown:
        raise ValueError(
            f"scaling holds keys xPos does not read: {', '.join(map(repr, unknown))}; accepted: "
            + ", ".join(XPOS_SCALING_KEYS)
        )
    scale_base = _positive(scaling.get("scale_base", DEFAULT_SCALE_BASE), "scaling['scale_base']")
    gamma = _positive(scaling.get("gamma", DEFAULT_GAMMA), "scaling['gamma']")
    width = _validate.even_width(width, "width")
    if not isinstance(layout, str) or (layout != "auto" and layout not in _validate.LAYOUT_ALIASES):
        raise ValueError(f"layout must be one of 'interleaved', 'half', 'auto' (or an alias), got {layout!r}")
    layout = layout if layout == "auto" else _validate.layout(layout)
    max_position = _validate.positive_int(max_position, "max_position", 16)
    if max_position > _validate.MAX_INTEGER:
        raise ValueError(f"max_position must be an integer in [16, 2**53], got {max_position!r}")
    seed = _validate.positive_int(seed, "seed", 0)
    return XposPlan(width, _validate.base(base), layout, scale_base, gamma, _call(call), max_position, seed)


# ---- calling the function -------------------------------------------------------------------------------------


def _never(*_):  # pragma: no cover - xPos calls take no caches (the plan refuses them)
    raise AssertionError("xPos calls take no caches")


# ---- findings from the probe ------------------------------------------------------------------------------------


def _found(fid: str, sentence: str, example: Mapping[str, Any], output: str | None = None) -> Finding:
    return Finding(fid, f"{XPOS_FINDINGS[fid]}: {sentence}" if sentence else XPOS_FINDINGS[fid], example, output)


def _layout(probe: xp.Probe, declared: str) -> tuple[str | None, Finding | None]:
    r"""The layout the function pairs channels in, and a finding when it is not the declared one (``None`` for the
    layout when neither pairs the channels)."""
    leaks = {lay: xp.leak(probe.images, lay) for lay in ("interleaved", "half")}
    order = (
        ("interleaved", "half")
        if declared == "auto"
        else (declared, "half" if declared == "interleaved" else "interleaved")
    )
    for lay in order:
        if leaks[lay] <= LEAK:
            if declared in ("auto", lay):
                return lay, None
            first, second = xp.channels(lay, probe.images.shape[-1])
            ex = {
                "width": probe.images.shape[-1],
                "positions": [1],
                "channel": 0,
                "expected partner channel": int(xp.channels(declared, probe.images.shape[-1])[1][0]),
                "got partner channel": int(second[0]),
            }
            return lay, _found("xpos-layout", f"declared {declared}, the function pairs channels {lay}", ex)
    lay = order[0]
    ex = {
        "width": probe.images.shape[-1],
        "positions": [1],
        "largest fraction outside a pair": formatting.number(leaks[lay]),
    }
    return None, _found("xpos-wrong-rotation", f"unit vectors leave their pairs (layout {lay})", ex)


def _channel_scale_finding(pairs: xp.Pairs, probe: xp.Probe, plan: XposPlan, layout: str, o: int) -> Finding:
    r"""A rotation followed by a scale per output channel that differs between a pair's two channels: the scores are
    not relative. ``xpos-scale-layout`` when the channels' log-scale slopes are xPos' laid out in the other layout
    (``cat((scale, scale))`` over interleaved pairs, or each value repeated over half pairs), else
    ``xpos-wrong-scale``."""
    width, pos = plan.width, probe.positions
    logs = np.log(pairs.channel_scale[o])  # (P, width)
    p = pos.astype(np.float64) - pos.mean()
    slope = p @ (logs - logs.mean(axis=0)) / np.sum(p * p)  # (width,)
    want = (1 if o == 0 else -1) * np.log(xpos_zeta(width, gamma=plan.gamma)) / plan.scale_base  # (r/2,)
    c = np.arange(width)
    other = want[c % (width // 2)] if layout == "interleaved" else want[c // 2]
    f, s = xp.channels(layout, width)
    tol = SLOPE_RTOL * float(np.max(np.abs(want)))
    ratio = logs - logs[:1]  # (P, width): log length ratio to position 0
    apart = np.abs(ratio[:, f] - ratio[:, s]) > tol * np.maximum(pos, 1)[:, None] + 1e-6  # (P, r/2)
    js, is_ = np.nonzero(apart)
    j, i = (int(js[0]), int(is_[0])) if js.size else (len(pos) - 1, int(np.argmax(np.abs(slope[f] - slope[s]))))
    name = ("q", "k")[o]
    ex = {
        "width": width,
        "positions": [0, int(pos[j])],
        "pair": i,
        "channels": [int(f[i]), int(s[i])],
        "got length ratios": [formatting.number(float(np.exp(ratio[j, c]))) for c in (f[i], s[i])],
    }
    if np.all(np.abs(slope - other) <= tol):
        laid = "repeated per channel (d r)" if layout == "half" else "concatenated (cat((scale, scale)))"
        sentence = f"the rotation pairs channels {layout}, the scale is {laid}"
        return _found("xpos-scale-layout", sentence, ex, name)
    return _found("xpos-wrong-scale", "a pair's two channels are scaled differently", ex, name)


def _rotation_findings(pairs: xp.Pairs, probe: xp.Probe, plan: XposPlan, layout: str) -> list[Finding]:
    r"""The rotation part of each output: a scaled rotation per pair, at angle ``m theta_i`` (``theta_i =
    base**(-2i/d)``)."""
    width = plan.width
    theta = inverse_frequencies(width, base=plan.base)  # (r/2,)
    out: list[Finding] = []
    for o, name in enumerate(("q", "k")):
        bad = pairs.rotation_error[o] > ROTATION_RTOL  # (P, r/2)
        if bad.any() and not np.any(pairs.per_channel_error[o] > ROTATION_RTOL):
            out.append(_channel_scale_finding(pairs, probe, plan, layout, o))
            continue
        if bad.any():
            j, i = (int(v[0]) for v in np.nonzero(bad))
            ex = {
                "width": width,
                "positions": [int(probe.positions[j])],
                "pair": i,
                "layout": layout,
                "departure from a rotation": formatting.number(float(pairs.rotation_error[o, j, i])),
            }
            out.append(_found("xpos-wrong-rotation", "the pair's map is not rho R(phi)", ex, name))
            continue
        if np.any(np.abs(pairs.angle[o, 0]) > ANGLE_ATOL):
            i = int(np.argmax(np.abs(pairs.angle[o, 0])))
            ex = {
                "width": width,
                "positions": [0],
                "pair": i,
                "expected angle": "0",
                "got angle": formatting.number(float(pairs.angle[o, 0, i])),
            }
            out.append(_found("xpos-wrong-rotation", "the pairs have turned already at position 0", ex, name))
            continue
        freq, top = xp.unwrapped_frequencies(pairs.angle[o], probe.positions)
        if np.all(np.abs(freq - theta) * top <= ANGLE_ATOL):
            continue
        i = int(np.argmax(np.abs(freq - theta)))
        ex = {
            "width": width,
            "positions": [1],
            "pair": i,
            "expected angle": formatting.number(float(theta[i])),
            "got angle": formatting.number(float(pairs.angle[o, 1, i])),
        }
        if np.all(np.abs(freq + theta) * top <= ANGLE_ATOL):
            out.append(_found("xpos-rotation-sign", "", ex, name))
            continue
        fitted = xp.fit_base(freq, width)
        if fitted is not None and np.all(np.abs(freq - inverse_frequencies(width, base=fitted)) * top <= ANGLE_ATOL):
            sentence = f"base {formatting.number(fitted)}, not {formatting.number(plan.base)}"
            out.append(_found("xpos-wrong-base", sentence, ex | {"fitted base": formatting.number(fitted)}, name))
            continue
        out.append(_found("xpos-wrong-rotation", "the angles are not m theta_i for any base", ex, name))
    return out


def _first_ratio(pairs: xp.Pairs, positions: np.ndarray, o: int, want: np.ndarray, scale: float) -> tuple[int, int]:
    r"""The first probed position (after 0) and pair where output ``o``'s length ratio to position 0 departs from
    ``exp(want_i m)`` by more than the slope tolerance allows: ``(position index, pair)``."""
    ratio = np.log(pairs.radius[o] / pairs.radius[o, :1])  # (P, r/2)
    dev = np.abs(ratio - np.outer(positions, want)) > SLOPE_RTOL * scale * np.maximum(positions, 1)[:, None] + 1e-6
    js, is_ = np.nonzero(dev)
    if js.size == 0:
        return len(positions) - 1, int(np.argmax(np.abs(pairs.radius[o, -1] - 1)))
    return int(js[0]), int(is_[0])


def _scale_findings(pairs: xp.Pairs, probe: xp.Probe, plan: XposPlan) -> list[Finding]:
    r"""The scales: the lengths must be exponential in ``m`` (one call: one origin), the query's slopes
    ``log(zeta_i)/s`` and the key's their negatives."""
    width, pos = plan.width, probe.positions
    want = np.log(xpos_zeta(width, gamma=plan.gamma)) / plan.scale_base  # (r/2,): the query's slopes
    scale = float(np.max(np.abs(want)))
    tol = SLOPE_RTOL * scale
    slopes, curved = xp.slopes(pairs, pos)
    sq, sk = slopes

    def close(a, b) -> bool:
        return bool(np.all(np.abs(a - b) <= tol))

    def example(o: int, expected: np.ndarray) -> dict:
        j, i = _first_ratio(pairs, pos, o, expected, scale)
        m = int(pos[j])
        got = float(pairs.radius[o, j, i] / pairs.radius[o, 0, i])
        return {
            "width": width,
            "positions": [0, m],
            "pair": i,
            "expected length ratio": formatting.number(float(np.exp(expected[i] * m))),
            "got length ratio": formatting.number(got),
        }

    for o, name in enumerate(("q", "k")):
        if curved[o] > tol * float(pos.max()):
            sentence = "the lengths are not exponential in the position (log length not linear in m)"
            return [_found("xpos-wrong-scale", sentence, example(o, want if o == 0 else -want), name)]
    if close(sq, 0) and close(sk, 0):
        return [_found("xpos-no-scale", "", example(0, want), "q")]
    out: list[Finding] = []
    if not close(sq + sk, 0):
        how = "scaled like the query" if close(sk, sq) else "not scaled" if close(sk, 0) else "scaled otherwise"
        out.append(_found("xpos-key-scale-direction", f"the key is {how}", example(1, -sq), "k"))
    if close(sq, want):
        return out
    if close(sq, -want):
        return [*out, _found("xpos-scale-inverted", "", example(0, want), "q")]
    L = np.log(xpos_zeta(width, gamma=plan.gamma))
    a = float(np.dot(sq, L) / np.dot(L, L))  # the query's slopes as a multiple of log(zeta_i): 1/s'
    gamma_fit = None
    if a != 0 and close(sq, a * L):
        s_fit = 1 / a
    else:
        g, s_fit, res = xp.fit_gamma(sq, width)
        if not (res <= SLOPE_RTOL and np.isfinite(s_fit)):
            return [*out, _found("xpos-wrong-scale", "", example(0, want), "q")]
        gamma_fit = g
    fitted = {"fitted scale base": formatting.number(abs(s_fit))}
    if gamma_fit is not None:
        fitted = {"fitted gamma": formatting.number(gamma_fit)} | fitted
    other_s = abs(abs(s_fit) - plan.scale_base) > SLOPE_RTOL * plan.scale_base
    parts = [f"gamma {formatting.number(gamma_fit)}, not {formatting.number(plan.gamma)}"] if gamma_fit else []
    if other_s:
        parts.append(f"scale base {formatting.number(abs(s_fit))}, not {formatting.number(plan.scale_base)}")
    if s_fit < 0:
        return [*out, _found("xpos-scale-inverted", "; ".join(parts), example(0, want) | fitted, "q")]
    fid = "xpos-wrong-gamma" if gamma_fit is not None else "xpos-wrong-scale-base"
    return [*out, _found(fid, "; ".join(parts), example(0, want) | fitted, "q")]


# ---- scores of random vectors -----------------------------------------------------------------------------------


def _reference(plan: XposPlan, layout: str, qv, kv, m, n) -> tuple[np.ndarray, np.ndarray]:
    r"""xPos' scores and their scale ``sum_i zeta_i^((m-n)/s) |q_(i)| |k_(i)|`` (origin 0: it cancels)."""
    pos = np.concatenate([m, n])
    J = m.size
    rq, rk = rope_xpos(
        np.concatenate([qv, qv]),
        np.concatenate([kv, kv]),
        pos,
        base=plan.base,
        layout=layout,
        scale_base=plan.scale_base,
        gamma=plan.gamma,
    )
    first, second = xp.channels(layout, plan.width)
    zeta = xpos_zeta(plan.width, gamma=plan.gamma)
    decay = zeta[None, :] ** ((m - n)[:, None] / plan.scale_base)  # (J, r/2)
    size = np.sum(decay * np.hypot(qv[:, first], qv[:, second]) * np.hypot(kv[:, first], kv[:, second]), axis=1)
    return np.einsum("jc,jc->j", rq[:J], rk[J:]), size


def _smallest_shift(caller: Caller, plan: XposPlan, layout: str, rng) -> dict | None:
    r"""The smallest shift ``t`` (doubling), then the smallest distance ``m - n`` (0, 1, 3, 16, 128, 1024, either
    sign) at which the score of one random query and key changes when both positions move by ``t``: the example
    of ``xpos-not-relative``."""
    qv = rng.standard_normal((1, plan.width))
    kv = rng.standard_normal((1, plan.width))
    top = plan.max_position // 2
    distances = [r for a in (0, 1, 3, 16, 128, 1024) if a <= top for r in ((a, -a) if a else (0,))]
    t = 1
    while t <= top:
        for r in distances:
            m, n = np.array([max(r, 0)]), np.array([max(-r, 0)])
            before = xp.scores(caller, qv, kv, m, n)
            after = xp.scores(caller, qv, kv, m + t, n + t)
            _, size = _reference(plan, layout, qv, kv, m, n)
            if abs(after[0] - before[0]) > SCORE_RTOL * size[0]:
                return {
                    "width": plan.width,
                    "positions": [int(m[0]), int(n[0])],
                    "shift": t,
                    "score": formatting.number(float(before[0])),
                    "score shifted": formatting.number(float(after[0])),
                }
        t *= 2
    return None


def _score_findings(caller: Caller, plan: XposPlan, layout: str, explained: bool) -> list[Finding]:
    rng = np.random.default_rng(plan.seed)
    J = 64
    top = plan.max_position
    qv, kv = rng.standard_normal((J, plan.width)), rng.standard_normal((J, plan.width))
    m = rng.integers(0, top // 2 + 1, J)
    n = np.clip(m - rng.integers(-64, top // 4 + 1, J), 0, top // 2)
    out: list[Finding] = []
    got = xp.scores(caller, qv, kv, m, n)
    ref, size = _reference(plan, layout, qv, kv, m, n)
    for shift in dict.fromkeys((1, min(37, top // 4), top // 2)):  # m + shift <= max_position
        moved = xp.scores(caller, qv, kv, m + shift, n + shift)
        if np.any(np.abs(moved - got) > SCORE_RTOL * size):
            ex = _smallest_shift(caller, plan, layout, rng)
            if ex is None:
                j = int(np.argmax(np.abs(moved - got) / size))
                ex = {
                    "width": plan.width,
                    "positions": [int(m[j]), int(n[j])],
                    "shift": shift,
                    "score": formatting.number(float(got[j])),
                    "score shifted": formatting.number(float(moved[j])),
                }
            out.append(_found("xpos-not-relative", "", ex))
            break
    err = np.abs(got - ref) / size
    if not explained and not out and np.any(err > SCORE_RTOL):
        j = int(np.argmax(err))
        ex = {
            "width": plan.width,
            "positions": [int(m[j]), int(n[j])],
            "expected score": formatting.number(float(ref[j])),
            "got score": formatting.number(float(got[j])),
        }
        out.append(_found("xpos-disagrees-with-reference", "", ex))
    return out


# ---- the audit ----------------------------------------------------------------------------------------------------


def audit_xpos_plan(
    plan: XposPlan, fn: Callable, name: str | None = None, progress: Callable[[str], None] | None = None
) -> SchemeReport:
    r"""Audit ``fn`` (called as ``plan.call`` says, NumPy arrays first, then torch tensors) against ``plan``: a
    :class:`SchemeReport` (``scheme`` ``"xpos"``) whose findings are :data:`XPOS_FINDINGS`. Raises
    :class:`~posproof.numeric.audit.report.AuditCallError` if the function raises on a plain call."""
    caller = Caller(fn, plan.call, plan.base, _never)
    caller.name = name
    say = progress or (lambda _text: None)
    try:
        findings = _audit(plan, caller, say)
    except xp.ShapeFailure as e:
        findings = [_found("xpos-shape", "", e.example)]
    checked = (
        f"each output's pairs (a rotation by m theta_i scaled by zeta_i^(+-m/s)) and the scores q_m . k_n against "
        f"xPos (width {plan.width}, base {plan.base:g}, layout {plan.layout}, scale_base {plan.scale_base:g}, gamma "
        f"{plan.gamma:g}, call {plan.call}, positions up to {plan.max_position})"
    )
    return SchemeReport("xpos", tuple(findings), checked, name if name is not None else function_name(fn))


def _audit(plan: XposPlan, caller: Caller, say: Callable[[str], None]) -> list[Finding]:
    say("xPos: unit vectors")
    probe = xp.probe(caller, plan.width, plan.max_position)
    for o, name in enumerate(("q", "k")):
        if probe.cross[o] > ROTATION_RTOL:
            other = "key" if o == 0 else "query"
            sentence = f"the {name} output changes by {formatting.number(probe.cross[o])} when the {other} is 0"
            ex = {"width": plan.width, "positions": [0], "output": name}
            return [_found("xpos-qk-cross-wired", sentence, ex, name)]
    layout, layout_finding = _layout(probe, plan.layout)
    findings = [] if layout_finding is None else [layout_finding]
    if layout is None:
        return findings
    pairs = xp.pairs(probe, layout)
    say("xPos: rotation and scales")
    findings += _rotation_findings(pairs, probe, plan, layout)
    if not any(f.id in ("xpos-wrong-rotation", "xpos-scale-layout", "xpos-wrong-scale") for f in findings):
        findings += _scale_findings(pairs, probe, plan)
    say("xPos: scores")
    findings += _score_findings(caller, plan, layout, explained=bool(findings))
    return findings


__all__ = ["XPOS_FINDINGS", "XPOS_SCALING_KEYS", "XposPlan", "audit_xpos_plan", "xpos_plan"]
