r"""The audit of a multi-axis RoPE function ``fn(vectors, positions)``: vectors ``(N, d)``, position vectors
``(N, A)`` (t, h, w for M-RoPE; row, column for axial 2-D; real coordinates for DINOv3), against any declaration
:class:`~posproof.numeric.multiaxis.MultiaxisRope` (pair ``i`` turns by ``inv_freq[i] * p[axes[i]] + phase[i]``):
:func:`audit_multiaxis`, and :func:`audit_rope_multiaxis` for :func:`~posproof.numeric.audit.audit_rope`.

The function is called with NumPy arrays, then torch tensors, then JAX arrays (the first that works is kept;
:class:`~posproof.numeric.audit.multiaxis_probe.MultiaxisCaller`); positions are int64, or float64 for a
declaration with real coordinates (``continuous``).

First, a unit vector on each channel at ``step * e_a`` (then at ``step * (1, ..., 1)``) says which channels the
function changes: with partial rotary (``rotary_dim < width``, GLM-4V) the channels past ``rotary_dim`` must come out
as they went in, a function must not leave a tail of the declared rotary channels alone, and each channel must turn
with the partner the declared pair layout gives it. Then the probes of
:mod:`~posproof.numeric.audit.multiaxis_probe`: the angle and length of each channel at the zero position vector
(the declared phase and attention factor), and at ``step * e_a`` for each axis, less the angle at the origin: which
axis drives each channel and at what frequency. Last, position vectors off the probes (text positions
``(m, ..., m)``, then several axes at once) must give the declared rotation. A mismatch is named when it is one of the
bug classes of :data:`MULTIAXIS_FINDINGS` (:mod:`~posproof.numeric.audit.multiaxis_names`), with the smallest
position vector that shows it. What an audit is given, its arguments checked (the keywords' declaration, a
``scaling`` mapping's :class:`MultiaxisPlan`): :mod:`~posproof.numeric.audit.multiaxis_declared`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from posproof.numeric import _validate, formatting
from posproof.numeric.audit.multiaxis_declared import (
    MAX_AXES,
    MULTIAXIS_KEYS,
    MultiaxisPlan,
    keyword_declaration,
    multiaxis_kind,
    multiaxis_plan,
    position_limits,
)
from posproof.numeric.audit.multiaxis_names import axes_named, frequencies_named
from posproof.numeric.audit.multiaxis_probe import (
    Measurement,
    MultiaxisCaller,
    drivers,
    measure,
    probe_step,
    wrap,
)
from posproof.numeric.audit.report import AuditCallError, Finding, SchemeReport, function_name
from posproof.numeric.multiaxis import (
    MULTIAXIS_LAYOUTS,
    MultiaxisRope,
    channel_pairs,
    rotary_width,
)
from posproof.numeric.multiaxis.layouts import multiaxis_layout
from posproof.numeric.tolerances import AUDIT_MULTIAXIS_AXIS_ON as AXIS_ON
from posproof.numeric.tolerances import AUDIT_MULTIAXIS_FACTOR_RTOL as FACTOR_RTOL
from posproof.numeric.tolerances import AUDIT_MULTIAXIS_FREQ_RTOL as FREQ_RTOL
from posproof.numeric.tolerances import AUDIT_MULTIAXIS_PASS_ATOL as PASS_ATOL
from posproof.numeric.tolerances import AUDIT_MULTIAXIS_PHASE_ATOL as PHASE_ATOL
from posproof.numeric.tolerances import AUDIT_MULTIAXIS_TEXT_RTOL as TEXT_RTOL

__all__ = [
    "MULTIAXIS_FINDINGS",
    "MAX_AXES",
    "MULTIAXIS_KEYS",
    "MultiaxisPlan",
    "audit_multiaxis",
    "audit_rope_multiaxis",
    "multiaxis_kind",
    "multiaxis_plan",
]

#: Finding ids and what each means (stable: tools and tests match on them).
MULTIAXIS_FINDINGS = {
    "multiaxis-shape": "the output is not finite or does not have the input's shape",
    "multiaxis-layout": "the channels are paired in another layout than declared: (2i, 2i + 1) interleaved, "
    "(i, i + r/2) half, or rotate-half inside each axis's block of channels",
    "multiaxis-attention-factor": "cos and sin are scaled by another factor than the declared attention factor (the "
    "length of a pair at the zero position vector)",
    "multiaxis-phase": "the angle at the zero position vector is not the declared phase (a phase where none is "
    "declared, none where one is, or another one)",
    "multiaxis-channel-split": "the two channels of a pair turn with different axes (cos and sin taken per channel "
    "across a section boundary), not as one rotation",
    "mrope-chunked-vs-interleaved": "the sections are laid out chunked where interleaved is declared, or the reverse",
    "mrope-axes-order": "the axes are taken in another order (e.g. h before t)",
    "mrope-wrong-sections": "the pairs are split between the axes in other sections than declared",
    "multiaxis-wrong-axes": "the pairs follow other axes than declared, in a way none of the above explains",
    "axial-shared-vs-split": "axial 2-D: both axes take the same frequencies (shared: EVA-02, Qwen2.5-VL's vision "
    "rotary) where split ones are declared (Pixtral: the even frequencies to the row, the odd ones to the column), "
    "or the reverse",
    "multiaxis-ladder-restart": "the frequency ladder restarts on each axis (per-axis ladders: FLUX's axes_dim, "
    "CogVideoX, HunyuanVideo, Wan) where one ladder over the whole rotary width is declared, or the reverse",
    "multiaxis-wrong-frequencies": "the axes are right but the frequencies are not the declared ones",
    "mrope-text-not-1d": "text positions (t = h = w = m) do not give 1-D RoPE at m",
    "multiaxis-positions": "each axis alone turns as declared, but position vectors off the probes (several axes at "
    "once, larger or fractional coordinates) do not give the declared rotation",
    "multiaxis-rotary-width": "the rotary width, or the width the frequencies are built over, is not the declared "
    "rotary_dim (the first rotary_dim channels rotate, the others pass through)",
}


def _output_text(row: np.ndarray) -> str:
    r"""The nonzero entries of one output row, e.g. ``"0.5403 on channel 8, 0.8415 on channel 9"``."""
    return ", ".join(f"{formatting.number(float(row[j]))} on channel {j}" for j in np.flatnonzero(row)) or "0"


def _position_list(pos_vec: np.ndarray, continuous: bool) -> list:
    return [float(v) for v in pos_vec] if continuous else [int(v) for v in pos_vec]


def _channel_outputs(caller: MultiaxisCaller, width: int, n_axes: int, step: float) -> list | None:
    r"""``[(position vector, output (width, width))]``: a unit vector on each channel at ``step * e_0, ...`` then
    ``step * (1, ..., 1)``; ``None`` when an output is not finite or of another shape."""
    x = np.eye(width)  # (width, width): row c, a unit vector on channel c
    out = []
    for pos_vec in [*np.eye(n_axes), np.ones(n_axes)]:
        y = caller(x, np.repeat(step * pos_vec[None, :], width, axis=0))
        if y is None:
            return None
        out.append((step * pos_vec, y))
    return out


def _channel_finding(
    outputs: list, width: int, r: int, declared: Callable[[np.ndarray, np.ndarray], np.ndarray], continuous: bool
) -> Finding | None:
    r"""Which channels the function changes, from :func:`_channel_outputs`, against the ``declared`` rotation. The
    channels ``r .. width - 1`` must come out as they went in; and the function must not leave alone, at every probe,
    a tail of channels the declared rotation turns (a rotary width below the declared one). ``None`` when neither
    shows, else the finding, with the first position vector (in that order) and channel that shows it."""
    x = np.eye(width)
    wanted = []
    for pos_vec, y in outputs:
        want = declared(x, np.repeat(pos_vec[None, :], width, axis=0))
        wanted.append((pos_vec, y, want))
        moved = np.max(np.abs(y - x), axis=1) > PASS_ATOL  # (width,)
        if moved[r:].any():
            c = r + int(np.flatnonzero(moved[r:])[0])
            sentence = (
                f"channel {c} is changed, though only the first rotary_dim = {r} of {width} channels rotate "
                f"({int(moved[r:].sum())} of the {width - r} pass-through channels change)"
            )
            ex = {
                "positions": _position_list(pos_vec, continuous),
                "input": f"a unit vector on channel {c}",
                "expected output": f"1 on channel {c} (it passes through)",
                "got output": _output_text(y[c]),
            }
            return Finding("multiaxis-rotary-width", f"{MULTIAXIS_FINDINGS['multiaxis-rotary-width']}: {sentence}", ex)
    still = np.ones(width, dtype=bool)  # channels no probe changes, in the function's output and in the declared one
    still_want = np.ones(width, dtype=bool)
    for _, y, want in wanted:
        still &= np.max(np.abs(y - x), axis=1) <= PASS_ATOL
        still_want &= np.max(np.abs(want - x), axis=1) <= PASS_ATOL
    tail = int(np.flatnonzero(~still)[-1]) + 1 if (~still).any() else 0  # the function changes channels < tail only
    if tail < 2 or tail >= r or still_want[tail:r].all():
        return None
    c = tail + int(np.flatnonzero(~still_want[tail:r])[0])  # the first channel left alone that should turn
    for pos_vec, y, want in wanted:
        if np.max(np.abs(want[c] - x[c])) > PASS_ATOL:
            sentence = f"only the first {tail} of {width} channels rotate, not the first rotary_dim = {r}"
            ex = _channel_example(pos_vec, c, want[c], y[c], continuous)
            return Finding("multiaxis-rotary-width", f"{MULTIAXIS_FINDINGS['multiaxis-rotary-width']}: {sentence}", ex)
    return None  # unreachable: channel c changes at some probe of the declared rotation


def _channel_example(pos_vec, c: int, want: np.ndarray, got: np.ndarray, continuous: bool) -> dict[str, Any]:
    r"""The example of a finding read on a unit vector on channel ``c`` at position vector ``pos_vec``: the declared
    output row ``want`` and the function's ``got``."""
    return {
        "positions": _position_list(pos_vec, continuous),
        "input": f"a unit vector on channel {c}",
        "expected output": _output_text(want),
        "got output": _output_text(got),
    }


#: How sentences name the channels of pair ``i`` in each layout.
_LAYOUT_PAIRS = {
    "interleaved": "(2i, 2i + 1)",
    "half": "(i, i + r/2)",
    "blocks": "rotate-half inside each axis's block of channels",
}


def _partners(axes: np.ndarray, layout: str) -> np.ndarray:
    r"""``(r,)``: the channel each rotary channel is paired with under ``layout``."""
    first, second = channel_pairs(axes, layout=layout)
    partner = np.empty(2 * first.size, dtype=np.int64)
    partner[first], partner[second] = second, first
    return partner


def _layout_finding(outputs: list, axes: np.ndarray, layout: str, declared, continuous: bool) -> Finding | None:
    r"""The channel each rotary channel's input moves into (its partner), from :func:`_channel_outputs`: when every
    channel that moves at all is paired as another layout pairs it, and some not as the declared one, the finding
    (the first such channel, at the first probe that moves it)."""
    r = 2 * axes.size
    mine = _partners(axes, layout)
    leak = np.zeros((r, r))
    for _, y in outputs:
        block = np.abs(y[:r, :r])
        leak = np.maximum(leak, block - np.diag(np.diag(block)))
    moving = leak.max(axis=1) > PASS_ATOL
    partner = leak.argmax(axis=1)
    wrong = np.flatnonzero(moving & (partner != mine))
    if wrong.size == 0:
        return None
    for other in MULTIAXIS_LAYOUTS:
        theirs = _partners(axes, other)
        if other == layout or not np.array_equal(partner[moving], theirs[moving]):
            continue
        c = int(wrong[0])
        for pos_vec, y in outputs:
            if np.abs(y[c, int(theirs[c])]) > PASS_ATOL:
                x = np.eye(y.shape[1])
                want = declared(x, np.repeat(pos_vec[None, :], x.shape[0], axis=0))
                sentence = f"the pairs are {_LAYOUT_PAIRS[other]}, the {other} layout, not the declared {layout} layout"
                ex = _channel_example(pos_vec, c, want[c], y[c], continuous)
                return Finding("multiaxis-layout", f"{MULTIAXIS_FINDINGS['multiaxis-layout']}: {sentence}", ex)
    return None


def _found(fid: str, sentence: str, example: dict[str, Any]) -> Finding:
    return Finding(fid, f"{MULTIAXIS_FINDINGS[fid]}: {sentence}" if sentence else MULTIAXIS_FINDINGS[fid], example)


def _angle_example(pos_vec, continuous: bool, pair: int, expected: float, got: float, **extra) -> dict[str, Any]:
    return {
        "positions": _position_list(np.asarray(pos_vec), continuous),
        "pair": pair,
        **extra,
        "expected angle": formatting.number(float(expected)),
        "got angle": formatting.number(float(got)),
    }


def _origin_findings(rope: MultiaxisRope, m: Measurement, continuous: bool) -> list[Finding]:
    r"""At the zero position vector: the length of each channel (the attention factor) and its angle (the phase)."""
    found = []
    zero = np.zeros(rope.n_axes)
    factor = rope.attention_factor
    off = np.abs(m.origin.radius / factor - 1) > FACTOR_RTOL  # (2, r/2)
    if off.any():
        ch, i = (int(v[0]) for v in np.nonzero(off))
        radius = m.origin.radius
        same = np.ptp(radius) <= FACTOR_RTOL * factor
        sentence = (
            f"cos and sin are scaled by {formatting.number(float(radius.mean()))}, not {formatting.number(factor)}"
            if same
            else f"the pairs' lengths run from {formatting.number(float(radius.min()))} to "
            f"{formatting.number(float(radius.max()))}, not {formatting.number(factor)}"
        )
        ex = {
            "positions": _position_list(zero, continuous),
            "pair": i,
            "channel": ("first", "second")[ch],
            "expected length": formatting.number(factor),
            "got length": formatting.number(float(radius[ch, i])),
        }
        found.append(_found("multiaxis-attention-factor", sentence, ex))
    declared = np.zeros(rope.inv_freq.size) if rope.phase is None else rope.phase
    diff = np.abs(wrap(m.origin.angle - declared))  # (2, r/2)
    if (diff > PHASE_ATOL).any():
        ch, i = (int(v[0]) for v in np.nonzero(diff > PHASE_ATOL))
        got = m.origin.angle
        quarter = np.abs(np.abs(wrap(got - declared)) - np.pi / 2) <= PHASE_ATOL
        if quarter.all():
            sentence = "every pair has turned by a quarter turn at the origin: cos and sin are exchanged"
        elif rope.phase is None:
            sentence = (
                f"the pairs have turned already at the origin (pair {i} by {formatting.number(float(got[ch, i]))}), "
                "a phase the declaration does not have (coordinates not centred on the origin?)"
            )
        elif np.all(np.abs(got) <= PHASE_ATOL):
            sentence = "no pair has turned at the origin: the declared phase is missing"
        else:
            sentence = (
                f"pair {i} has turned by {formatting.number(float(got[ch, i]))} at the origin, not by "
                f"{formatting.number(float(declared[i]))}"
            )
        found.append(_found("multiaxis-phase", sentence, _angle_example(zero, continuous, i, declared[i], got[ch, i])))
    return found


def _axis_findings(rope: MultiaxisRope, m: Measurement, width: int, layout: str, continuous: bool) -> list[Finding]:
    r"""Which axis drives each channel, and at what frequency, against the declaration."""
    theta, axes, A = rope.inv_freq, rope.axes, rope.n_axes
    r = rope.rotary_dim
    phase = np.zeros(theta.size) if rope.phase is None else rope.phase
    moving = np.abs(wrap(theta * m.step)) > PASS_ATOL  # a pair that does not turn at the probe follows no axis
    expected = np.where(moving, axes, -1)
    channel = drivers(m.rate, AXIS_ON, PASS_ATOL / m.step)  # (2, r/2)
    split = (channel[0] != channel[1]) & (channel >= 0).all(axis=0)
    if split.any() and not split[expected < 0].any():
        i = int(np.flatnonzero(split)[0])
        a, b = int(channel[0, i]), int(channel[1, i])
        pair = [int(c[i]) for c in channel_pairs(axes, layout=layout)]
        sentence = f"pair {i}: channel {pair[0]} turns with axis {a}, channel {pair[1]} with axis {b}"
        ch = 1 if b != axes[i] else 0  # the channel that leaves the declared axis, shown at its own axis
        pos = np.zeros(A)
        pos[int(channel[ch, i])] = m.step
        got = m.origin.angle[ch, i] + m.rate[int(channel[ch, i]), ch, i] * m.step
        ex = _angle_example(pos, continuous, i, theta[i] * pos[axes[i]] + phase[i], got, channel=pair[ch])
        return [_found("multiaxis-channel-split", sentence, ex)]
    measured = np.where(channel[0] == channel[1], channel[0], -1)
    if not np.array_equal(measured, expected):
        fid, sentence = axes_named(measured, expected, A)
        i = int(np.flatnonzero(measured != expected)[0])
        a = int(axes[i])
        pos = np.zeros(A)
        pos[a] = m.step
        got = m.origin.angle[0, i] + m.rate[a, 0, i] * m.step
        return [_found(fid, sentence, _angle_example(pos, continuous, i, theta[i] * m.step + phase[i], got))]
    rate = m.rate[axes, :, np.arange(axes.size)].T  # (2, r/2): each channel's rate on its declared axis
    if not continuous:  # at integer positions theta and theta + 2 pi k turn alike: the alias nearest theta
        rate = theta + wrap((rate - theta) * m.step) / m.step
    bad = np.abs(rate - theta) > FREQ_RTOL * np.abs(np.where(moving, theta, 1.0))
    if not bad.any():
        return []
    ch, i = (int(v[0]) for v in np.nonzero(bad))
    turning = moving & (np.abs(rate[0]) > 0)
    fid, sentence = "multiaxis-wrong-frequencies", ""
    if turning.all():
        fid, sentence = frequencies_named(rate[0], theta, axes, A, r, width, FREQ_RTOL)
    pos = np.zeros(A)
    pos[axes[i]] = m.step
    got = m.origin.angle[ch, i] + rate[ch, i] * m.step
    return [_found(fid, sentence, _angle_example(pos, continuous, i, theta[i] * m.step + phase[i], got))]


def _off_probe_positions(rope: MultiaxisRope, limits: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    r"""``(text (T, A), mixed (M, A))`` position vectors off the probes, each in increasing size: text positions
    ``(m, ..., m)``, then several axes at once (real coordinates in ``[-1, 1]``, multiples of 1/64, when
    ``continuous``); integer positions at most ``limits`` ``(A,)`` on each axis when given (a patch grid)."""
    A = rope.n_axes
    rng = np.random.default_rng(0)
    if rope.continuous:
        text = np.repeat(np.array([0.0, 0.25, -0.5, 1.0])[:, None], A, axis=1)
        mixed = rng.integers(-64, 65, size=(6, A)) / 64.0
    else:
        top = np.full(A, 1000, dtype=np.int64) if limits is None else limits
        m = sorted({v for v in (0, 1, 7, 1000) if v <= top.min()} | {int(top.min())})
        text = np.repeat(np.array(m)[:, None], A, axis=1)
        far = np.zeros((1, A), dtype=np.int64)
        far[0, 0] = top[0]
        mixed = np.concatenate([rng.integers(0, np.minimum(top, 63) + 1, size=(6, A)), far])
    mixed = mixed[np.argsort(np.abs(mixed).max(axis=1), kind="stable")]
    return text, mixed


def _positions_finding(
    caller: MultiaxisCaller, rope: MultiaxisRope, width: int, layout: str, limits: np.ndarray | None
) -> Finding | None:
    r"""The declared rotation at position vectors off the probes (:func:`_off_probe_positions`): the first (smallest)
    one where the function differs names it; text positions first (``mrope-text-not-1d`` for integer positions)."""
    rng = np.random.default_rng(0)
    groups = _off_probe_positions(rope, limits)
    for group, fid in zip(groups, ("mrope-text-not-1d", "multiaxis-positions"), strict=True):
        if rope.continuous:
            fid = "multiaxis-positions"
        x = rng.standard_normal((group.shape[0], width))
        want = rope.apply(x, group, layout=layout)
        got = caller(x, group)
        err = np.full(group.shape[0], np.inf) if got is None else np.max(np.abs(got - want), axis=1)
        off = np.flatnonzero(err > TEXT_RTOL * np.max(np.abs(want)))
        if off.size:
            row = int(off[0])
            gap = "non-finite" if got is None else formatting.number(float(err[row]))
            ex = {"positions": _position_list(group[row], rope.continuous), "max |got - expected|": gap}
            return Finding(fid, MULTIAXIS_FINDINGS[fid], ex)
    return None


def _audit(
    rope: MultiaxisRope, caller: MultiaxisCaller, width: int, layout: str, what: str, progress=None, limits=None
) -> SchemeReport:
    r"""The audit of ``caller``'s function against ``rope`` in ``layout`` (module docstring); ``limits``: the
    largest integer position of each axis, ``(A,)``, or ``None``."""
    r, A, continuous = rope.rotary_dim, rope.n_axes, rope.continuous
    fname = caller.name or function_name(caller.fn)
    stage = progress if progress is not None else (lambda text: None)
    declared = lambda x, pos: rope.apply(x, pos, layout=layout)  # noqa: E731
    step = probe_step(rope.inv_freq, continuous)
    stage("channels moved")
    outputs = _channel_outputs(caller, width, A, step)
    shape = Finding("multiaxis-shape", MULTIAXIS_FINDINGS["multiaxis-shape"], {"width": width})
    if outputs is None:
        return SchemeReport("multiaxis", (shape,), what, fname)
    for check in (_channel_finding(outputs, width, r, declared, continuous),
                  _layout_finding(outputs, rope.axes, layout, declared, continuous)):  # fmt: skip
        if check is not None:
            return SchemeReport("multiaxis", (check,), what, fname)
    stage("axis and frequency of each pair")
    probed = measure(caller, width, rope.axes, A, layout, step)
    if probed is None:
        return SchemeReport("multiaxis", (shape,), what, fname)
    findings = _origin_findings(rope, probed, continuous) + _axis_findings(rope, probed, width, layout, continuous)
    if not findings:
        stage("text positions" if not continuous else "coordinates off the probes")
        extra = _positions_finding(caller, rope, width, layout, limits)
        findings = [] if extra is None else [extra]
    return SchemeReport("multiaxis", tuple(findings), what, fname)


def audit_multiaxis(
    fn: Callable,
    width: int,
    rope: MultiaxisRope | None = None,
    *,
    mrope_section: Sequence[int] | None = None,
    mrope_interleaved: bool = False,
    axial: bool = False,
    axial_frequencies: str = "split",
    base: float = 10000.0,
    inv_freq=None,
    axes=None,
    n_axes: int | None = None,
    phase=None,
    continuous: bool = False,
    layout: str | None = None,
    attention_factor: float = 1.0,
    rotary_dim: int | None = None,
    max_positions=None,
    progress: Callable[[str], None] | None = None,
    name: str | None = None,
) -> SchemeReport:
    r"""Audit ``fn(vectors (N, d), positions (N, A)) -> (N, d)`` (NumPy, torch or JAX arrays) against a declaration:
    ``rope`` (a :class:`~posproof.numeric.multiaxis.MultiaxisRope`: any frequencies, axis map, phase, real
    coordinates), or one the keywords give: M-RoPE with ``mrope_section`` (chunked, or interleaved with
    ``mrope_interleaved``), axial 2-D RoPE (``axial=True``; ``axial_frequencies`` ``"split"``, Pixtral's, or
    ``"shared"``), or an explicit axis map ``axes`` (one axis per rotated pair, ``n_axes`` default ``max(axes) + 1``:
    Ernie 4.5-VL's), with frequencies ``base**(-2i/r)`` (or ``inv_freq``), ``phase`` (the angle of each pair at the
    zero position vector), ``continuous`` (positions are real coordinates) and cos and sin times
    ``attention_factor`` (a scaling rule's, e.g. YaRN's). ``layout``: ``"half"`` (transformers'; the default unless
    the declaration fixes one) or ``"interleaved"``. ``rotary_dim`` (``r``, default ``width``): partial rotary, as
    GLM-4V's ``partial_rotary_factor``; the sections split the ``r/2`` pairs of the first ``r`` channels and the other
    channels pass through. :func:`~posproof.numeric.audit.audit_rope` with a multi-axis ``scaling`` or ``axes`` calls
    this. ``max_positions`` (integer positions only): the largest position of each axis the function must handle (a
    patch grid's last index; one integer >= 1 per axis, or one for all); the probes stay within them.
    ``progress`` (optional): called with a short text as each stage begins; ``name``: how the report names the
    function."""
    if not callable(fn):
        raise ValueError(f"fn must be callable, got {type(fn).__name__}")
    width = _validate.even_width(width)
    if rope is not None:
        if not isinstance(rope, MultiaxisRope):
            raise ValueError(f"rope must be a MultiaxisRope, got {type(rope).__name__}")
        keywords = {
            "mrope_section": mrope_section,
            "mrope_interleaved": mrope_interleaved or None,
            "axial": axial or None,
            "inv_freq": inv_freq,
            "axes": axes,
            "n_axes": n_axes,
            "phase": phase,
            "continuous": continuous or None,
            "attention_factor": None if attention_factor == 1.0 else attention_factor,
        }
        given = [k for k, v in keywords.items() if v is not None]
        if given:
            raise ValueError(f"{', '.join(given)}: the declaration rope gives them (leave them out)")
        if rope.rotary_dim > width:
            raise ValueError(f"rope rotates {rope.rotary_dim} channels, more than width = {width}")
        if rotary_dim is not None and rotary_width(width, rotary_dim) != rope.rotary_dim:
            raise ValueError(f"rotary_dim must be the declaration's rotary width {rope.rotary_dim}, got {rotary_dim!r}")
        what = rope.name or f"multi-axis RoPE over {rope.n_axes} axes"
        what += f", width {width}"
    else:
        r = rotary_width(width, rotary_dim)
        rope, what = keyword_declaration(
            width, r, mrope_section, mrope_interleaved, axial, axial_frequencies, base, inv_freq, axes, n_axes, phase,
            continuous, attention_factor,
        )  # fmt: skip
    if layout is None:
        layout = rope.layout or "half"
    layout = multiaxis_layout(layout)
    if rope.layout is not None and layout != rope.layout:
        raise ValueError(f"layout: the declaration fixes the {rope.layout} layout ({what}), got {layout!r}")
    what += f", rotary width {rope.rotary_dim}" if rope.rotary_dim < width else ""
    what += f", {layout} layout"
    limits = position_limits(max_positions, rope)
    caller = MultiaxisCaller(fn, continuous=rope.continuous, name=name)
    return _audit(rope, caller, width, layout, what, progress, limits)


# ---- audit_rope of a multi-axis scaling or axis map (numeric/audit/rope.py dispatches here) --------------------------


def audit_rope_multiaxis(plan: MultiaxisPlan, fn, name, progress=None) -> SchemeReport:
    r""":func:`posproof.numeric.audit.rope.audit_rope` for a multi-axis declaration: the audit of
    ``fn(vectors (N, d), positions (N, A))`` as ``plan`` says; ``layout="auto"`` accepts either pair layout (``"half"``,
    transformers', is reported when neither conforms) unless the declaration fixes one."""
    width, A = plan.width, plan.rope.n_axes
    caller = MultiaxisCaller(fn, continuous=plan.rope.continuous, name=name)
    if progress is not None:
        progress("shape")
    x0, p0 = np.ones((3, width)), np.zeros((3, A))
    try:
        caller.raw(x0, p0)
    except AuditCallError as e:
        raise AuditCallError(
            f"{e} (a multi-axis audit calls fn(vectors, positions) with one position vector per token)"
        ) from None
    if plan.rope.layout:
        layouts: tuple[str, ...] = (plan.rope.layout,)
    else:  # "blocks" only where it pairs other channels than "half" (more than one run of pairs on an axis)
        half = _partners(plan.rope.axes, "half")
        layouts = tuple(
            each for each in ("half", "interleaved", "blocks")
            if each != "blocks" or not np.array_equal(_partners(plan.rope.axes, each), half)
        )  # fmt: skip
    report = None
    limits = None if plan.max_positions is None else np.asarray(plan.max_positions, dtype=np.int64)
    tries = [(rope, what, each) for rope, what in ((plan.rope, plan.what), *plan.alternatives)
             for each in (layouts if plan.layout == "auto" else (plan.layout,))]  # fmt: skip
    for rope, what, each in tries:

        def told(text: str, each: str = each) -> None:
            if progress is not None:
                progress(f"{each} layout: {text}")

        got = _audit(rope, caller, width, each, f"{what}, {each} layout", told, limits)
        report = report or got  # the first declaration's findings when none conforms
        if got.ok:
            report = got
            break
    assert report is not None
    return report if name is None else replace(report, function=name)
