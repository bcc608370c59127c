r"""The audit of an xPos function ``fn(q, k, positions) -> (q_rotated, k_rotated)`` (:func:`audit_xpos_plan`),
against the configuration :func:`xpos_plan` reads from a scaling mapping (``rope_type: "xpos"``).

Scored on ``(q, k)`` together: each output is rightly not norm-preserving (the query grows by
``zeta_i**(m/s)``, the key shrinks by the same factor), only the scores ``q_m . k_n`` are relative. The origin of
the scale (flash-attn's and x-transformers' ``seq_len // 2``, torchscale's ``ceil(L/2)``) cancels in the scores and
is not audited.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
from posproof.numeric import _validate
from posproof.numeric.audit.call import AuditCallError, Caller, RopeCall, ShapeError
from posproof.numeric.audit.report import Finding, SchemeReport, function_name
from posproof.numeric.xpos import DEFAULT_GAMMA, DEFAULT_SCALE_BASE, rope_xpos

#: Finding ids and what each means (stable: tools and tests match on them).
XPOS_FINDINGS = {
    "xpos-shape": "an output is not finite or does not have the input's shape",
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


@dataclass(frozen=True)
class XposPlan:
    r"""What an xPos function is audited against: the head ``width``, the rotation's ``base`` and ``layout``
    (``"auto"`` for either), ``scale_base`` (``s``), ``gamma`` and how to ``call`` it."""

    width: int
    base: float
    layout: str
    scale_base: float
    gamma: float
    call: RopeCall

    def as_dict(self) -> dict:
        return {
            "width": self.width,
            "base": self.base,
            "layout": self.layout,
            "scale_base": self.scale_base,
            "gamma": self.gamma,
            "call": str(self.call),
        }


def _positive(value, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not np.isfinite(float(value)):
        raise ValueError(f"{name} must be a finite real number > 0, got {value!r}")
    if value <= 0:
        raise ValueError(f"{name} must be a finite real number > 0, got {value!r}")
    return float(value)


def _call(call) -> RopeCall:
    if call is None:
        return RopeCall(("q", "k", "positions"))
    c = call if isinstance(call, RopeCall) else RopeCall.parse(call)
    bad = [a for a in c.args if a not in CALL_ARGS]
    if bad or not c.qk or "positions" not in c.args:
        raise ValueError(
            f"call must take q, k and positions (and optionally base) for xPos, e.g. 'q,k,positions', got {str(c)!r}"
        )
    return c


def xpos_plan(scaling: Mapping, *, width: int, base: float, layout: str, call) -> XposPlan:
    r"""The checked configuration of an xPos audit: ``scaling`` a mapping with ``rope_type: "xpos"`` and optionally
    ``scale_base`` and ``gamma`` (:data:`XPOS_SCALING_KEYS`); ``width`` (even, >= 2), ``base`` (> 1), ``layout``
    (:data:`LAYOUTS` or an alias), ``call`` (``None``: ``q,k,positions``; a :class:`RopeCall` or its text form).
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
    return XposPlan(width, _validate.base(base), layout, scale_base, gamma, _call(call))


def _never(*_):  # pragma: no cover - xPos calls take no caches (the plan refuses them)
    raise AssertionError("xPos calls take no caches")


def audit_xpos_plan(
    plan: XposPlan, fn: Callable, name: str | None = None, progress: Callable[[str], None] | None = None
) -> SchemeReport:
    r"""Audit ``fn`` (called as ``plan.call`` says, NumPy arrays first, then torch tensors) against ``plan``: a
    :class:`SchemeReport` (``scheme`` ``"xpos"``) whose findings are :data:`XPOS_FINDINGS`."""
    caller = Caller(fn, plan.call, plan.base, _never)
    caller.name = name
    report_name = name if name is not None else function_name(fn)
    findings = _audit(plan, caller, progress or (lambda _text: None))
    checked = (
        f"scores q_m . k_n against xPos (width {plan.width}, base {plan.base:g}, layout {plan.layout}, "
        f"scale_base {plan.scale_base:g}, gamma {plan.gamma:g}, call {plan.call})"
    )
    return SchemeReport("xpos", tuple(findings), checked, report_name)


def _outputs(caller: Caller, q: np.ndarray, k: np.ndarray, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    try:
        qo = caller(q, pos, 0, k)
        ko = caller(q, pos, 1, k)
    except ShapeError:
        return None
    if not (np.isfinite(qo).all() and np.isfinite(ko).all()):
        return None
    return qo, ko


def _audit(plan: XposPlan, caller: Caller, progress) -> list[Finding]:
    progress("xPos scores")
    rng = np.random.default_rng(0)
    pos = np.array([0, 1, 2, 3, 5, 8, 13, 64, 300, 1000], dtype=np.int64)
    q = rng.standard_normal((pos.size, plan.width))
    k = rng.standard_normal((pos.size, plan.width))
    try:
        got = _outputs(caller, q, k, pos)
    except AuditCallError:
        raise
    if got is None:
        return [Finding("xpos-shape", XPOS_FINDINGS["xpos-shape"], {"width": plan.width, "positions": pos.tolist()})]
    scores = got[0] @ got[1].T  # (tokens, tokens)
    layouts = ("interleaved", "half") if plan.layout == "auto" else (plan.layout,)
    best = None
    for layout in layouts:
        rq, rk = rope_xpos(q, k, pos, base=plan.base, layout=layout, scale_base=plan.scale_base, gamma=plan.gamma)
        ref = rq @ rk.T
        err = float(np.max(np.abs(scores - ref) / (np.linalg.norm(rq, axis=1)[:, None] * np.linalg.norm(rk, axis=1))))
        best = err if best is None else min(best, err)
    if best is not None and best > 1e-4:
        return [
            Finding(
                "xpos-disagrees-with-reference",
                XPOS_FINDINGS["xpos-disagrees-with-reference"],
                {"width": plan.width, "positions": pos.tolist(), "score error": best},
            )
        ]
    return []
