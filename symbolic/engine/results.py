r"""What a check returns: the numeric line of a step (:class:`NumericResult`), a checked step
(:class:`StepResult`) and a verified claim (:class:`VerifyResult`), each with a JSON-ready ``as_dict``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from posproof.symbolic.engine.display import Printable


@dataclass(frozen=True)
class NumericResult:
    r"""The numeric line of one step: ``status`` is ``"agree"``, ``"identical"`` (nothing was evaluated: no
    evidence) or ``"disagree"``; ``points`` evaluated; the worst error relative to the size of the terms. A
    disagreement carries the first point that disagrees: ``point`` maps each symbol's name (and each table entry
    drawn, ``a[3]``) to its value as a short string, ``sides`` the two sides' values there."""

    status: str
    points: int
    max_rel_error: float | None
    reason: str = ""
    point: Mapping[str, str] | None = None
    sides: tuple[str, str] | None = None

    @property
    def ok(self) -> bool:
        return self.status in ("agree", "identical")

    def point_dict(self) -> dict | None:
        r"""The first disagreeing point, JSON-ready: ``{"at": {name: value}, "lhs": ..., "rhs": ...}``; ``None``
        if there is none."""
        if self.point is None:
            return None
        out: dict = {"at": dict(self.point)}
        if self.sides is not None:
            out["lhs"], out["rhs"] = self.sides
        return out

    def describe_point(self) -> str:
        r"""The first disagreeing point in one line (``x = 0.5, n = 3: lhs = 1.25, rhs = 1.5``), or ``""``."""
        if self.point is None:
            return ""
        at = ", ".join(f"{k} = {v}" for k, v in self.point.items()) or "(no symbols)"
        return at if self.sides is None else f"{at}: lhs = {self.sides[0]}, rhs = {self.sides[1]}"


@dataclass(frozen=True)
class StepResult:
    r"""One checked step: ``symbolic`` proved or not (``None``: nothing to prove, a definition), the numeric
    line, and the reason of a failure."""

    index: int
    symbolic: bool | None
    numeric: NumericResult
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.symbolic is not False and self.numeric.ok

    @property
    def numeric_ok(self) -> bool:
        return self.numeric.ok

    @property
    def numeric_max_rel_error(self) -> float | None:
        return self.numeric.max_rel_error

    def as_dict(self) -> dict:
        err = self.numeric.max_rel_error
        out: dict[str, Any] = {
            "index": self.index,
            "symbolic": self.symbolic,
            "numeric": self.numeric.status,
            "points": self.numeric.points,
            "max_rel_error": err if err is None or math.isfinite(err) else None,
            "ok": self.ok,
        }
        reason = "; ".join(r for r in (self.reason, self.numeric.reason) if r)
        if reason:
            out["reason"] = reason
        point = self.numeric.point_dict()
        if point is not None:
            out["point"] = point
        return out


@dataclass(frozen=True)
class VerifyResult(Printable):
    r"""The outcome of ``verify()``: ``ok`` says whether every check held; ``kind`` is ``"theorem"``,
    ``"definition"`` or ``"fact"``; ``symbolic`` is a boolean for theorems and ``None`` otherwise."""

    id: str
    kind: str
    ok: bool
    symbolic: bool | None
    numeric_max_rel_error: float | None
    dps: int
    seconds: float
    steps: tuple[StepResult, ...] = ()
    detail: str = ""
    computed: Any = None
    method: str = ""

    @property
    def status(self) -> str:
        return "verified" if self.ok else "failed"

    @property
    def numeric(self) -> str | None:
        r"""``"agree"`` if some step was evaluated and all agree, ``"identical"`` if none could be, ``"disagree"``
        if one disagrees; ``None`` for a fact."""
        if not self.steps:
            return None
        states = {s.numeric.status for s in self.steps}
        if "disagree" in states:
            return "disagree"
        return "agree" if "agree" in states else "identical"

    def as_dict(self) -> dict:
        r"""A JSON-ready dict (a non-finite error, from an evaluation that failed, becomes ``None``)."""
        err = self.numeric_max_rel_error
        out = {
            "id": self.id,
            "kind": self.kind,
            "status": self.status,
            "symbolic": self.symbolic,
            "numeric": self.numeric,
            "numeric_max_rel_error": err if err is None or math.isfinite(err) else None,
            "points": sum(s.numeric.points for s in self.steps),
            "dps": self.dps,
            "seconds": round(self.seconds, 4),
            "steps": [s.as_dict() for s in self.steps],
        }
        if self.method:
            out["method"] = self.method
        if self.detail:
            out["detail"] = self.detail
        if self.computed is not None:
            out["computed"] = self.computed
        return out
