r"""The audit of a multi-axis RoPE function ``fn(vectors, positions)``: vectors ``(N, d)``, position vectors
``(N, A)`` (t, h, w for M-RoPE; row, column for axial 2-D), against the axis map and frequencies a configuration
declares (:func:`audit_multiaxis`).

The probes: for each axis ``a``, rows that hold a unit vector on the first channel of one pair, at the position
vector ``e_a`` (1 on axis ``a``, 0 elsewhere); the angle each pair turns by says which axis drives it and at what
frequency. Then text positions ``(m, m, ..., m)`` must give 1-D RoPE. A mismatch is named when it is one of the
bug classes below, with the smallest position vector that shows it.

First, a unit vector on each channel at ``e_a`` (then at ``(1, ..., 1)``) says which channels the function changes:
with partial rotary (``rotary_dim < width``, GLM-4V) the channels past ``rotary_dim`` must come out as they went in,
and a function must not leave a tail of the declared rotary channels alone (a rotary width below the declared one).
The pairs, the sections and the frequencies (``base**(-2i/rotary_dim)``) are those of the slice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import permutations
from typing import Any

import numpy as np
from posproof.numeric import _validate, formatting
from posproof.numeric.audit.report import AuditCallError, Finding, SchemeReport, function_name
from posproof.numeric.multiaxis import axial_axes, axial_inv_freq, mrope_axes, rope_multiaxis, rotary_width
from posproof.numeric.scaling.rules import rope_inv_freq
from posproof.numeric.sinusoid import inverse_frequencies
from posproof.numeric.tolerances import AUDIT_MULTIAXIS_AXIS_ON as AXIS_ON
from posproof.numeric.tolerances import AUDIT_MULTIAXIS_FREQ_RTOL as FREQ_RTOL
from posproof.numeric.tolerances import AUDIT_MULTIAXIS_PASS_ATOL as PASS_ATOL
from posproof.numeric.tolerances import AUDIT_MULTIAXIS_TEXT_RTOL as TEXT_RTOL

#: Finding ids and what each means (stable: tools and tests match on them).
MULTIAXIS_FINDINGS = {
    "multiaxis-shape": "the output is not finite or does not have the input's shape",
    "mrope-chunked-vs-interleaved": "the sections are laid out chunked where interleaved is declared, or the reverse",
    "mrope-axes-order": "the axes are taken in another order (e.g. h before t)",
    "mrope-wrong-sections": "the pairs are split between the axes in other sections than declared",
    "multiaxis-wrong-axes": "the pairs follow other axes than declared, in a way none of the above explains",
    "multiaxis-wrong-frequencies": "the axes are right but the frequencies are not the declared ones",
    "mrope-text-not-1d": "text positions (t = h = w = m) do not give 1-D RoPE at m",
    "multiaxis-rotary-width": "the rotary width, or the width the frequencies are built over, is not the declared "
    "rotary_dim (the first rotary_dim channels rotate, the others pass through)",
}


def _expected(r: int, full: bool, mrope_section, mrope_interleaved: bool, axial: bool, base: float, inv_freq):
    r"""``(axes (r/2,), theta (r/2,), A)`` declared for the rotary width ``r`` (``full``: the head's width)."""
    if axial:
        axes = axial_axes(r)
        theta = axial_inv_freq(r, base=base) if inv_freq is None else np.asarray(inv_freq, dtype=np.float64)
    else:
        if mrope_section is None:
            raise ValueError("mrope_section (M-RoPE) or axial=True is required")
        axes = mrope_axes(mrope_section, interleaved=mrope_interleaved)
        if axes.size != r // 2:
            what = "width/2" if full else "rotary_dim/2 (the rotated pairs)"
            raise ValueError(f"mrope_section must add up to {what} = {r // 2}, got {list(mrope_section)}")
        theta = inverse_frequencies(r, base=base) if inv_freq is None else np.asarray(inv_freq, dtype=np.float64)
    if theta.shape != (r // 2,):
        raise ValueError(f"inv_freq must have one entry per rotated pair ({r // 2}), got shape {theta.shape}")
    return axes, theta, 2 if axial else len(mrope_section)


def _channels(layout: str, width: int) -> tuple[np.ndarray, np.ndarray]:
    i = np.arange(width // 2)
    return (2 * i, 2 * i + 1) if layout == "interleaved" else (i, i + width // 2)


def _call(fn: Callable, x: np.ndarray, pos: np.ndarray) -> np.ndarray | None:
    y = np.asarray(fn(x.copy(), pos.copy()), dtype=np.float64)
    if y.shape != x.shape or not np.isfinite(y).all():
        return None
    return y


def _probe(fn: Callable, width: int, r: int, n_axes: int, layout: str, theta: np.ndarray) -> np.ndarray | None:
    r"""``(A, r/2)``: the angle each pair of the rotary slice (the first ``r`` channels) turns by at position vector
    ``e_a``, in units of its declared frequency."""
    first, second = _channels(layout, r)
    half = r // 2
    x = np.zeros((half, width))
    x[np.arange(half), first] = 1.0  # row i: a unit vector on pair i's first channel
    out = np.empty((n_axes, half))
    for a in range(n_axes):
        pos = np.zeros((half, n_axes), dtype=np.int64)
        pos[:, a] = 1
        y = _call(fn, x, pos)
        if y is None:
            return None
        rows = np.arange(half)
        out[a] = np.arctan2(y[rows, second], y[rows, first]) / theta
    return out


def _output_text(row: np.ndarray) -> str:
    r"""The nonzero entries of one output row, e.g. ``"0.5403 on channel 8, 0.8415 on channel 9"``."""
    return ", ".join(f"{formatting.number(float(row[j]))} on channel {j}" for j in np.flatnonzero(row)) or "0"


def _channel_finding(
    fn: Callable, width: int, r: int, n_axes: int, declared: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> Finding | None | bool:
    r"""Which channels the function changes: a unit vector on each channel at ``e_0, e_1, ...`` then ``(1, ..., 1)``,
    against the ``declared`` rotation. The channels ``r .. width - 1`` must come out as they went in; and the function
    must not leave alone, at every probe, a tail of channels the declared rotation turns (a rotary width below the
    declared one). ``None`` when neither shows, ``False`` when an output is not finite or of another shape, else the
    finding, with the first position vector (in that order) and channel that shows it."""
    x = np.eye(width)  # (width, width): row c, a unit vector on channel c
    probes = [*np.eye(n_axes, dtype=np.int64), np.ones(n_axes, dtype=np.int64)]
    outputs = []
    for pos_vec in probes:
        pos = np.repeat(pos_vec[None, :], width, axis=0)
        y = _call(fn, x, pos)
        if y is None:
            return False
        want = declared(x, pos)
        outputs.append((pos_vec, y, want))
        moved = np.max(np.abs(y - x), axis=1) > PASS_ATOL  # (width,)
        if moved[r:].any():
            c = r + int(np.flatnonzero(moved[r:])[0])
            sentence = (
                f"channel {c} is changed, though only the first rotary_dim = {r} of {width} channels rotate "
                f"({int(moved[r:].sum())} of the {width - r} pass-through channels change)"
            )
            ex = {
                "positions": pos_vec.tolist(),
                "input": f"a unit vector on channel {c}",
                "expected output": f"1 on channel {c} (it passes through)",
                "got output": _output_text(y[c]),
            }
            return Finding("multiaxis-rotary-width", f"{MULTIAXIS_FINDINGS['multiaxis-rotary-width']}: {sentence}", ex)
    still = np.ones(width, dtype=bool)  # channels no probe changes, in the function's output and in the declared one
    still_want = np.ones(width, dtype=bool)
    for _, y, want in outputs:
        still &= np.max(np.abs(y - x), axis=1) <= PASS_ATOL
        still_want &= np.max(np.abs(want - x), axis=1) <= PASS_ATOL
    tail = int(np.flatnonzero(~still)[-1]) + 1 if (~still).any() else 0  # the function changes channels < tail only
    if tail < 2 or tail >= r or still_want[tail:r].all():
        return None
    c = tail + int(np.flatnonzero(~still_want[tail:r])[0])  # the first channel left alone that should turn
    for pos_vec, y, want in outputs:
        if np.max(np.abs(want[c] - x[c])) > PASS_ATOL:
            sentence = f"only the first {tail} of {width} channels rotate, not the first rotary_dim = {r}"
            ex = {
                "positions": pos_vec.tolist(),
                "input": f"a unit vector on channel {c}",
                "expected output": _output_text(want[c]),
                "got output": _output_text(y[c]),
            }
            return Finding("multiaxis-rotary-width", f"{MULTIAXIS_FINDINGS['multiaxis-rotary-width']}: {sentence}", ex)
    return None  # unreachable: channel c changes at some probe of the declared rotation


def _named(measured: np.ndarray, expected: np.ndarray, sections, interleaved: bool, axial: bool) -> tuple[str, str]:
    r"""The finding id and a sentence for a measured axis map that is not the declared one."""
    if not axial and sections is not None:
        if np.array_equal(measured, mrope_axes(sections, interleaved=not interleaved)):
            have = "chunked" if interleaved else "interleaved"
            return "mrope-chunked-vs-interleaved", f"the sections {list(sections)} are laid out {have}"
        for order in permutations(range(len(sections))):
            if order != tuple(range(len(sections))) and np.array_equal(measured, np.asarray(order)[expected]):
                names = "thw" if len(sections) == 3 else "".join(str(a) for a in range(len(sections)))
                said = ", ".join(f"{names[a]} -> {names[order[a]]}" for a in range(len(sections)) if order[a] != a)
                return "mrope-axes-order", f"the axes are exchanged: {said}"
        if (measured >= 0).all():
            counts = [int((measured == a).sum()) for a in range(len(sections))]
            for layout in (interleaved, not interleaved):
                if counts != list(sections) and np.array_equal(measured, mrope_axes(counts, interleaved=layout)):
                    how = "interleaved" if layout else "chunked"
                    return "mrope-wrong-sections", f"the sections are {counts} ({how}), not {list(sections)}"
    return "multiaxis-wrong-axes", "the pairs follow other axes than declared"


def _example(pair: int, n_axes: int, axis: int, expected_angle: float, got_angle: float) -> dict[str, Any]:
    pos = [0] * n_axes
    pos[axis] = 1
    return {
        "positions": pos,
        "pair": pair,
        "expected angle": formatting.number(expected_angle),
        "got angle": formatting.number(got_angle),
    }


def audit_multiaxis(
    fn: Callable,
    width: int,
    *,
    mrope_section: Sequence[int] | None = None,
    mrope_interleaved: bool = False,
    axial: bool = False,
    base: float = 10000.0,
    inv_freq=None,
    layout: str = "half",
    attention_factor: float = 1.0,
    rotary_dim: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> SchemeReport:
    r"""Audit ``fn(vectors (N, d), positions (N, A)) -> (N, d)`` against M-RoPE with ``mrope_section`` (chunked, or
    interleaved with ``mrope_interleaved``) or axial 2-D RoPE (``axial=True``), frequencies ``base**(-2i/r)`` (or
    ``inv_freq``), pairs in ``layout`` (``"half"``, as transformers lays these out, or ``"interleaved"``), cos and
    sin times ``attention_factor`` (a scaling rule's, e.g. YaRN's). ``rotary_dim`` (``r``, default ``width``):
    partial rotary, as GLM-4V's ``partial_rotary_factor``; the sections split the ``r/2`` pairs of the first ``r``
    channels and the other channels pass through. :func:`~posproof.numeric.audit.audit_rope` with a multi-axis
    ``scaling`` calls this. ``progress`` (optional): called with a short text as each stage begins."""
    if not callable(fn):
        raise ValueError(f"fn must be callable, got {type(fn).__name__}")
    layout = _validate.layout(layout)
    width = _validate.even_width(width)
    r = rotary_width(width, rotary_dim)
    axes, theta, n_axes = _expected(r, r == width, mrope_section, mrope_interleaved, axial, base, inv_freq)
    what = f"axial 2-D RoPE, width {width}" if axial else (
        f"M-RoPE {'interleaved' if mrope_interleaved else 'chunked'} sections {list(mrope_section or [])}, "
        f"width {width}")  # fmt: skip
    what += f", rotary width {r}" if r < width else ""
    what += f", {layout} layout"
    findings: list[Finding] = []
    declared = lambda x, pos: rope_multiaxis(
        x, pos, axes=axes, inv_freq=theta, layout=layout, attention_factor=attention_factor, rotary_dim=r
    )  # fmt: skip
    stage = progress if progress is not None else (lambda text: None)
    stage("channels moved")
    channels = _channel_finding(fn, width, r, n_axes, declared)
    if isinstance(channels, Finding):
        return SchemeReport("multiaxis", (channels,), what, function_name(fn))
    stage("axis and frequency of each pair")
    probe = None if channels is False else _probe(fn, width, r, n_axes, layout, theta)
    if probe is None:
        findings.append(Finding("multiaxis-shape", MULTIAXIS_FINDINGS["multiaxis-shape"], {"width": width}))
        return SchemeReport("multiaxis", tuple(findings), what, function_name(fn))
    size = np.abs(probe)  # (A, d/2)
    on = (size > AXIS_ON * size.max(axis=0)) & (size > 0)  # pair i turns with axis a
    measured = np.where(on.sum(axis=0) == 1, on.argmax(axis=0), -1)
    if not np.array_equal(measured, axes):
        fid, sentence = _named(measured, axes, mrope_section, mrope_interleaved, axial)
        i = int(np.flatnonzero(measured != axes)[0])
        a = int(axes[i])
        ex = _example(i, n_axes, a, theta[i], probe[a, i] * theta[i])
        findings.append(Finding(fid, f"{MULTIAXIS_FINDINGS[fid]}: {sentence}", ex))
    else:
        ratio = probe[axes, np.arange(axes.size)]  # measured / declared frequency, per pair
        bad = np.flatnonzero(np.abs(ratio - 1) > FREQ_RTOL)
        if bad.size:
            i = int(bad[0])
            ex = _example(i, n_axes, int(axes[i]), theta[i], ratio[i] * theta[i])
            fid, message = "multiaxis-wrong-frequencies", MULTIAXIS_FINDINGS["multiaxis-wrong-frequencies"]
            if r < width and inv_freq is None and not axial:  # the exponent over the head, not the rotary slice
                head = inverse_frequencies(width, base=base)[: r // 2]
                if np.all(np.abs(ratio * theta / head - 1) <= FREQ_RTOL):
                    fid = "multiaxis-rotary-width"
                    message = (
                        f"{MULTIAXIS_FINDINGS[fid]}: the frequencies are base**(-2i/{width}), built over the head "
                        f"width, not base**(-2i/{r}) over the rotary width"
                    )
            findings.append(Finding(fid, message, ex))
    if not findings:  # text tokens: (m, m, m) must be 1-D RoPE at m (and so the declared rotation)
        stage("text positions")
        rng = np.random.default_rng(0)
        m = np.array([0, 1, 7, 1000])
        x = rng.standard_normal((m.size, width))
        pos = np.repeat(m[:, None], n_axes, axis=1)
        want = declared(x, pos)
        got = _call(fn, x, pos)
        if got is None or np.max(np.abs(got - want)) > TEXT_RTOL * np.max(np.abs(want)):
            row = 0 if got is None else int(np.argmax(np.max(np.abs(got - want), axis=1)))
            ex = {"positions": pos[row].tolist(), "max |got - expected|": "non-finite" if got is None
                  else formatting.number(float(np.max(np.abs(got[row] - want[row]))))}  # fmt: skip
            findings.append(Finding("mrope-text-not-1d", MULTIAXIS_FINDINGS["mrope-text-not-1d"], ex))
    return SchemeReport("multiaxis", tuple(findings), what, function_name(fn))


# ---- audit_rope of a multi-axis scaling (numeric/audit/rope.py dispatches here) --------------------------------------

#: Keys of a ``scaling`` mapping that declare M-RoPE (transformers' ``rope_parameters``); ``rope_type: "axial"``
#: declares axial 2-D RoPE.
MULTIAXIS_KEYS = ("mrope_section", "mrope_interleaved")


def multiaxis_kind(scaling) -> str | None:
    r"""``"mrope"``, ``"axial"`` or ``None`` (one position per token) for a ``scaling`` mapping."""
    if not isinstance(scaling, Mapping):
        return None
    rule = scaling.get("rope_type", scaling.get("type"))
    if rule == "axial":
        return "axial"
    return "mrope" if rule == "mrope" or any(k in scaling for k in MULTIAXIS_KEYS) else None


@dataclass(frozen=True)
class MultiaxisPlan:
    r"""A multi-axis audit, its arguments checked: what :func:`audit_multiaxis` is given."""

    kind: str
    layout: str
    base: float
    width: int
    sections: Sequence[int] | None
    interleaved: bool
    inv_freq: np.ndarray | None
    factor: float
    probe_axes: int


def multiaxis_plan(kind: str, layout: str, base: float, scaling: Mapping, width: int, seq_len, rotary_dim=None):
    r"""Check the arguments of a multi-axis audit (``ValueError`` naming the argument, as :func:`audit_rope`
    raises it) and say what :func:`audit_multiaxis` is given: the frequencies (and attention factor) of the rest of
    the mapping, over the rotary width its ``partial_rotary_factor`` (or ``rotary_dim``) gives."""
    width = _validate.positive_int(width, "width")
    base = _validate.base(base)
    rest = {k: v for k, v in scaling.items() if k not in (*MULTIAXIS_KEYS, "rope_type", "type")}
    rd = None
    if rotary_dim is not None:
        if kind == "axial":
            raise ValueError("rotary_dim: axial 2-D RoPE rotates every pair (leave it out)")
        if "partial_rotary_factor" in rest:
            raise ValueError("give either rotary_dim or partial_rotary_factor in scaling")
        rd = _validate.even_width(rotary_dim, "rotary_dim")
        if rd > width:
            raise ValueError(f"rotary_dim must be an even integer in [2, {width}], got {rotary_dim!r}")
    sections, interleaved = scaling.get("mrope_section"), scaling.get("mrope_interleaved", False)
    if not isinstance(interleaved, (bool, np.bool_)):
        raise ValueError(f"mrope_interleaved must be true or false, got {interleaved!r}")
    if kind == "axial":
        if sections is not None or interleaved or rest:
            extra = sorted(set(scaling) - {"rope_type", "type"})
            raise ValueError(f"scaling: rope_type 'axial' (2-D RoPE) reads no other key, got {extra}")
        inv_freq, factor = None, 1.0
    else:
        if sections is None:
            raise ValueError("scaling: mrope_section is required for M-RoPE (e.g. [16, 24, 24] for width 128)")
        listed = isinstance(sections, (list, tuple, np.ndarray)) and np.ndim(sections) == 1
        if not listed or not all(_validate._is_int(v) and v >= 0 for v in sections):
            raise ValueError(f"mrope_section must be a list of integers >= 0 (pairs per axis), got {sections!r}")
        if not 1 <= len(sections) <= MAX_AXES:
            raise ValueError(f"mrope_section must give 1 to {MAX_AXES} axes, got {len(sections)}")
        rule = scaling.get("rope_type", scaling.get("type", "default"))
        rule_map = {**rest, "rope_type": "default" if rule == "mrope" else rule}
        # (r/2,): r = rotary_dim, else int(width * partial_rotary_factor) as transformers truncates it
        inv_freq, factor = rope_inv_freq(width if rd is None else rd, base=base, scaling=rule_map, seq_len=seq_len)
        r = 2 * inv_freq.size
        _expected(r, r == width, sections, bool(interleaved), False, base, inv_freq)  # the sections add up
    probe_axes = 2 if kind == "axial" or sections is None else len(sections)
    return MultiaxisPlan(kind, layout, base, width, sections, bool(interleaved), inv_freq, factor, probe_axes)


#: The most axes a position vector of multi-axis RoPE may have (M-RoPE has 3: t, h, w).
MAX_AXES = 8


def audit_rope_multiaxis(plan: MultiaxisPlan, fn, name, progress=None):
    r""":func:`posproof.numeric.audit.rope.audit_rope` for a multi-axis ``scaling``: :func:`audit_multiaxis` of
    ``fn(vectors (N, d), positions (N, A))`` as ``plan`` says; ``layout="auto"`` accepts either pair layout
    (``"half"``, transformers', is reported when neither conforms)."""
    width, probe_axes = plan.width, plan.probe_axes
    x0, p0 = np.ones((3, width)), np.zeros((3, probe_axes), dtype=np.int64)
    if progress is not None:
        progress("shape")
    try:
        fn(x0, p0)
    except Exception as e:  # noqa: BLE001 - the user's function may raise anything
        first = (str(e).splitlines() or [""])[0]
        raise AuditCallError(
            f"{name or function_name(fn)}(vectors (3, {width}), positions (3, {probe_axes})) raised "
            f"{type(e).__name__}: "
            f"{first} (a multi-axis audit calls fn(vectors, positions) with one position vector per token)"
        ) from None
    report = None
    for each in ("half", "interleaved") if plan.layout == "auto" else (plan.layout,):

        def told(text: str, each: str = each) -> None:
            if progress is not None:
                progress(f"{each} layout: {text}")

        got = audit_multiaxis(
            fn, width, mrope_section=plan.sections, mrope_interleaved=plan.interleaved, axial=plan.kind == "axial",
            base=plan.base, inv_freq=plan.inv_freq, layout=each, attention_factor=plan.factor,
            rotary_dim=None if plan.inv_freq is None else 2 * plan.inv_freq.size, progress=told,
        )  # fmt: skip
        report = report or got
        if got.ok:
            report = got
            break
    assert report is not None
    return report if name is None else replace(report, function=name)
