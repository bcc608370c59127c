r"""What the audit reports: the finding ids and their meaning, :class:`Finding`, :class:`RopeMatch`, the reports
(:class:`RopeReport`, :class:`SchemeReport`, and :class:`ProcessReport` for an audit the audited code stopped) and
the two errors, and the reports as text (:func:`format_report`, and the short forms of examples, channel pairs and
head-count ranges the messages quote)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import mpmath
from posproof.numeric import precision_profile as pp

#: Finding ids and what each means (stable: tools and tests match on them).
ROPE_FINDINGS = {
    "shape-or-dtype": "the output does not have the input's shape or dtype",
    "ignores-positions": "the rotation does not follow the given positions (it uses the row index, or nothing)",
    "non-finite": "the output holds NaN or inf for a finite input at a small position",
    "qk-cross-wired": "a rotated output depends on the other input (the query on the key, or the reverse)",
    "not-norm-preserving": "the map does not keep the length of each pair (not a rotation)",
    "not-relative": "scores change when query and key positions shift together",
    "layout-half-vs-interleaved": "the function pairs channels in the other layout",
    "partial-rotary-width": "the rotary width, or the width the frequencies are built over, is not the configured one",
    "rotation-sign": "the pairs rotate clockwise: angle -m theta_i",
    "cos-sin-swapped": "cos and sin are exchanged: the map at position 0 is a quarter turn, not the identity",
    "position-offset": "the angles are (m + c) theta_i for a constant c != 0",
    "wrong-base": "the frequencies are those of another base",
    "frequency-exponent": "the frequencies use the wrong exponent (e.g. i/d instead of 2i/d)",
    "wrong-scaling": "the frequencies or the attention factor are those of another scaling rule, or of none",
    "low-precision-angles": "positions, frequencies or angles are rounded to bfloat16/float16",
    "low-precision-table": "the cos/sin table is rounded to bfloat16/float16 (over float32 or float64 angles) and "
    "the score error exceeds the precision profile's tolerance at positions where the angles cannot cause it",
    "disagrees-with-reference": "the output differs from the 50-digit reference in a way none of the above explains",
}
ALIBI_FINDINGS = {
    "alibi-shape": "the function does not return one finite slope per head",
    "alibi-power-of-two-formula": "for head counts that are not powers of two it uses 2^(-8h/n) directly",
    "alibi-slope-exponent": "the exponents are off (e.g. 2^(-8(h-1)/n) or 2^(-h/n))",
    "alibi-wrong-slopes": "the slopes differ from Press et al.'s in a way none of the above explains",
}
T5_FINDINGS = {
    "t5-shape": "the function does not return one integer bucket per relative position",
    "t5-nan-at-zero": "relative position 0 gives NaN or garbage (log(0) not masked)",
    "t5-missing-cap": "large distances run past the last bucket (no min(.., buckets - 1))",
    "t5-sign-convention": "buckets follow query - key instead of key - query",
    "t5-bidirectional-halving": "bidirectional buckets are not halved with the upper half for keys after the query",
    "t5-linear-buckets": "distances beyond max_exact are bucketed linearly instead of logarithmically",
    "t5-wrong-buckets": "the buckets differ from T5's in a way none of the above explains",
}
#: What the audited code did to the process auditing it (:mod:`numeric.audit.isolate`): the audit did not finish.
PROCESS_FINDINGS = {
    "process-exit": "the audited code ended the process (os._exit, or an exit in C code) before the audit finished",
    "process-raised": "the audited code raised SystemExit, KeyboardInterrupt or another BaseException that is not an "
    "Exception",
    "process-crashed": "the process auditing the code was killed by a signal (a segfault, an abort)",
    "process-timeout": "the audit did not finish within the time allowed (--timeout)",
}


@dataclass(frozen=True)
class Finding:
    r"""One failure: ``id`` (stable), ``message`` (one sentence), ``example`` (the minimal input that shows it, with
    what the reference gives and what the function gives), ``output`` (``"q"``/``"k"`` for two-output functions)."""

    id: str
    message: str
    example: Mapping[str, Any] = field(default_factory=dict)
    output: str | None = None

    def as_dict(self) -> dict:
        d = {"id": self.id, "message": self.message, "example": dict(self.example)}
        if self.output is not None:
            d["output"] = self.output
        return d


@dataclass(frozen=True)
class RopeMatch:
    r"""What the function computes, as far as the probes tell: ``layout``, ``rotary_dim``, the frequency rule it
    matched (``frequencies``: a sentence, ``None`` if none), ``base`` (fitted or matched, ``None`` if unknown),
    ``attention_factor`` (``rho``), ``angle_precision`` (``float64``, ``float32``, ``float16``, ``bfloat16``,
    ``"float32 or float64"`` where a 16-bit cos/sin table hides which, ``"supplied cache"`` when posproof built the
    cache, or ``None``), ``angle_error`` (median relative angle error), ``backend`` (``numpy``/``torch``),
    ``table_precision`` (the dtype the cos/sin values it applies are held in: ``bfloat16``/``float16`` for a 16-bit
    table, whose error is bounded, where 16-bit angles err more as ``m`` grows; ``None`` when not measured) and
    ``table_error`` (the largest angle error of those values at positions up to 16, in rad)."""

    layout: str | None
    rotary_dim: int | None
    frequencies: str | None
    base: float | None
    attention_factor: float | None
    angle_precision: str | None
    angle_error: float | None
    backend: str
    table_precision: str | None = None
    table_error: float | None = None

    def as_dict(self) -> dict:
        return dict(self.__dict__)


class _Findings:
    r"""What every report says: ``ok`` when there is no finding, and the finding ids in order (each once)."""

    findings: tuple[Finding, ...]

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.id for f in self.findings))


def _scheme_dict(report: _Findings, scheme: str, function: str) -> dict:
    r"""The fields a scheme's report and a process report share in JSON, in their order."""
    return {"scheme": scheme, "function": function, "ok": report.ok, "findings": [f.as_dict() for f in report.findings]}


@dataclass(frozen=True)
class RopeReport(_Findings):
    r"""The audit of a RoPE function: ``ok`` when there is no finding; ``expected`` the configuration audited
    against; ``matched`` what the function computes; ``profile`` the precision profile (``None`` when the
    mathematics differs so much that no model of it was found)."""

    findings: tuple[Finding, ...]
    expected: Mapping[str, Any]
    matched: RopeMatch
    profile: pp.Profile | None
    function: str
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        return {
            "scheme": "rope",
            "function": self.function,
            "ok": self.ok,
            "findings": [f.as_dict() for f in self.findings],
            "notes": list(self.notes),
            "expected": dict(self.expected),
            "matched": self.matched.as_dict(),
            "profile": None if self.profile is None else self.profile.as_dict(),
        }


@dataclass(frozen=True)
class SchemeReport(_Findings):
    r"""The audit of an ALiBi or T5 function: ``ok``, ``findings``, ``checked`` (what was compared)."""

    scheme: str
    findings: tuple[Finding, ...]
    checked: str
    function: str

    def as_dict(self) -> dict:
        return _scheme_dict(self, self.scheme, self.function) | {"checked": self.checked}


@dataclass(frozen=True)
class ProcessReport(_Findings):
    r"""An audit that did not finish because the audited code stopped the process running it: one finding of
    :data:`PROCESS_FINDINGS`; ``process`` says how (``event``: ``exit``, ``raised``, ``signal`` or ``timeout``;
    ``exit_status``, ``signal``, ``exception``, ``timeout`` where they apply, ``None`` elsewhere; ``stage``: what
    the audit was doing, ``None`` if it had not begun)."""

    scheme: str
    function: str
    findings: tuple[Finding, ...]
    process: Mapping[str, Any]

    def as_dict(self) -> dict:
        return _scheme_dict(self, self.scheme, self.function) | {"process": dict(self.process)}


class AuditCallError(ValueError):
    r"""The function could not be audited: it raised on a plain call, or returned something that is not an array.
    The message is one line and names the call."""


class RopeConformanceError(AssertionError):
    r"""Raised by :func:`assert_rope_conforms`: the message lists the findings."""


def function_name(fn) -> str:
    return f"{getattr(fn, '__module__', '?')}:{getattr(fn, '__qualname__', repr(fn))}"


def exact_text(v) -> str:
    return mpmath.nstr(v, 17, strip_zeros=False) if isinstance(v, mpmath.mpf) else repr(float(v))


def pairs_text(pairs: list) -> str:
    shown = ", ".join(f"({a}, {b})" for a, b in pairs[:3])
    return shown + (", ..." if len(pairs) > 3 else "")


def example_text(example: Mapping) -> str:
    keys = [k for k in ("width", "positions", "n_heads", "relative_position") if k in example]
    return ", ".join(f"{k}={example[k]}" for k in keys) or "-"


def ranges_text(ns: Sequence[int]) -> str:
    out, start, prev = [], None, None
    for n in list(ns) + [None]:
        if start is None:
            start = prev = n
        elif n is not None and prev is not None and n == prev + 1:
            prev = n
        else:
            out.append(str(start) if start == prev else f"{start}-{prev}")
            start = prev = n
    return ", ".join(out)


def format_report(report: RopeReport | SchemeReport | ProcessReport) -> str:
    r"""The report as text: the verdict, each finding with its example, what matched and the precision profile;
    a :class:`ProcessReport` is one line (what the audited code did)."""
    if isinstance(report, ProcessReport):
        return "".join(f"{report.function}: FAIL {f.id}: {f.message}\n" for f in report.findings)
    lines = [f"{report.function}: {'conforms' if report.ok else 'does NOT conform'}"]
    if isinstance(report, RopeReport):
        e = report.expected
        scaling = e["scaling"].get("rope_type", "default")
        rule = f"base {e['base']:g}, scaling {scaling}"
        if "inv_freq" in e:  # a free table replaces the rule's frequencies
            rule = f"the given inv_freq table ({len(e['inv_freq'])} frequencies)"
        lines.append(
            f"  expected: layout {e['layout']}, {rule}, width {e['width']}, "
            f"rotary width {e['rotary_dim']}, call {e['call']}"
        )
        m = report.matched
        if m.layout is not None:
            eps = "" if m.angle_error is None else f" (median relative angle error {m.angle_error:.2g})"
            lines.append(
                f"  matched: layout {m.layout}, rotary width {m.rotary_dim}, frequencies: "
                f"{m.frequencies or 'no known rule'}, attention factor "
                f"{'?' if m.attention_factor is None else format(m.attention_factor, '.6g')}, angles "
                f"{m.angle_precision or 'undetermined'}{eps}"
                + (f", cos/sin table {m.table_precision}" if m.table_precision in ("float16", "bfloat16") else "")
                + f"; {m.backend}"
            )
        lines.extend(f"  note: {n}" for n in report.notes)
    else:
        lines.append(f"  checked: {report.checked}")
    for f in report.findings:
        who = f" [{f.output}]" if f.output else ""
        lines.append(f"  FAIL {f.id}{who}: {f.message}")
        if f.example:
            lines.append(f"       example: {_example_text(f.example)}")
    if isinstance(report, RopeReport) and report.profile is not None:
        p = report.profile
        lines.append(
            f"  precision profile (reported, not a failure; {p.input_dtype} inputs): score error "
            "max_r |s(m, m+r) - s_ref| / (|q||k|)"
        )
        lines.append("    " + "  ".join(f"m={m}: {err:.1e}" for m, err in p.errors))
        first = p.first_exceeding
        lines.append(
            f"    first m with error > {p.tolerance:g}: "
            f"{first if first is not None else f'none up to {p.max_position}'}"
        )
    return "\n".join(lines) + "\n"


def _example_text(ex: Mapping) -> str:
    def short(v):
        if isinstance(v, list) and len(v) > 8:
            return "[" + ", ".join(short(x) for x in v[:8]) + ", ...]"
        if isinstance(v, list):
            return "[" + ", ".join(short(x) for x in v) + "]"
        if isinstance(v, float):
            return f"{v:.6g}"
        if isinstance(v, str):
            try:
                return f"{float(v):.6g}"
            except ValueError:
                return v
        return str(v)

    return "; ".join(f"{k} {short(v)}" for k, v in ex.items())
