r"""Audit a user's RoPE, ALiBi or T5 implementation: what is wrong, why, and the smallest input that shows it.

:func:`audit_rope` calls a function like the RoPE note's ``rope(vectors, positions, base)`` (NumPy arrays in and
out; torch tensors when the function needs them and torch is installed; other signatures through a
:class:`RopeCall` or an adapter) and reports a :class:`RopeReport`:

* **findings** (failures of the mathematics), each with a stable id, one sentence and a minimal reproducing example
  (the smallest width and positions that show it);
* what it **matched**: the layout (``"interleaved"`` pairs ``(2i, 2i+1)``, ``"half"`` pairs ``(i, i + r/2)``),
  the frequencies (base, scaling rule), the rotary width, and the precision of its angles;
* a **precision profile** (:mod:`numeric.precision_profile`): reported, never a failure. Angles computed in float32
  (Hugging Face's float32 cos/sin cache) pass; angles, positions or frequencies in bfloat16/float16 fail with
  ``low-precision-angles``.

How. The function is probed with unit vectors: one call with the ``width x width`` identity at each of the
positions ``0, 1, 2, 3, 4, 8, ..., 2**K <= max_position`` gives the matrix ``A_m`` it applies at ``m``. Which
channels ``A_m`` couples gives the layout and the rotary width; each ``2 x 2`` block must be ``rho R(phi)``; the
angles ``phi_i(m)`` (unwrapped over the doubling positions) give the sign, the offset at ``m = 0`` and the
frequencies, which are matched against the configured rule and against named alternatives (other bases, exponents,
scaling rules, the rotary width). Rows of a call do not interact in a correct function; every probing call also
holds a row at the largest probed position, so that rules depending on the current length (dynamic NTK,
LongRoPE) see the same length in every call. Behavioural checks follow on random vectors: norms, scores that
depend on ``n - m`` only (random shifts up to ``max_position``), and agreement with the 50-digit reference.

:func:`audit_alibi` checks ``slopes(n_heads)`` for ``n_heads = 1 .. 64``; :func:`audit_t5` checks
``bucket(relative_position, bidirectional, num_buckets, max_distance)`` (relative position **key - query**) over
several configurations. :func:`assert_rope_conforms` is the helper for users' own test suites.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import mpmath
import numpy as np

from . import _validate
from . import precision_profile as pp
from .alibi import alibi_slope_exponents
from .rotary import rope_mp
from .scaling import RULES, RopeScaling
from .t5 import t5_relative_bucket
from .tolerances import (
    AUDIT_ANGLE_JUMP_RTOL as ANGLE_JUMP_RTOL,
)
from .tolerances import (
    AUDIT_ANGLE_TOL as ANGLE_TOL,
)
from .tolerances import (
    AUDIT_BFLOAT16_EPS as BFLOAT16_EPS,
)
from .tolerances import (
    AUDIT_BLOCK_TOL as BLOCK_TOL,
)
from .tolerances import (
    AUDIT_COUPLING_TOL as COUPLING_TOL,
)
from .tolerances import (
    AUDIT_CROSS_ATOL as CROSS_ATOL,
)
from .tolerances import (
    AUDIT_EXAMPLE_ATOL as EXAMPLE_ATOL,
)
from .tolerances import (
    AUDIT_FLOAT32_EPS as FLOAT32_EPS,
)
from .tolerances import (
    AUDIT_FREQ_RTOL as FREQ_RTOL,
)
from .tolerances import (
    AUDIT_FREQ_RTOL_LOW as FREQ_RTOL_LOW,
)
from .tolerances import (
    AUDIT_LOW_PRECISION_EPS as LOW_PRECISION_EPS,
)
from .tolerances import (
    AUDIT_NORM_RTOL as NORM_RTOL,
)
from .tolerances import (
    AUDIT_REFERENCE_DPS as REFERENCE_DPS,
)
from .tolerances import (
    AUDIT_SHIFT_ATOL as SHIFT_ATOL,
)
from .tolerances import (
    AUDIT_UNWRAP_JUMP as UNWRAP_JUMP,
)

__all__ = [
    "Finding",
    "RopeCall",
    "RopeMatch",
    "RopeReport",
    "SchemeReport",
    "AuditCallError",
    "RopeConformanceError",
    "audit_rope",
    "audit_alibi",
    "audit_t5",
    "assert_rope_conforms",
    "format_report",
    "ROPE_FINDINGS",
    "ALIBI_FINDINGS",
    "T5_FINDINGS",
]

#: Finding ids and what each means (stable: tools and tests match on them).
ROPE_FINDINGS = {
    "shape-or-dtype": "the output does not have the input's shape or dtype",
    "ignores-positions": "the rotation does not follow the given positions (it uses the row index, or nothing)",
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


# ---- reports ------------------------------------------------------------------------------------------------------


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
    ``"supplied cache"`` when posproof built the cache, or ``None``), ``angle_error`` (median relative angle error),
    ``backend`` (``numpy``/``torch``)."""

    layout: str | None
    rotary_dim: int | None
    frequencies: str | None
    base: float | None
    attention_factor: float | None
    angle_precision: str | None
    angle_error: float | None
    backend: str

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

    def as_dict(self) -> dict:
        return {
            "scheme": "rope",
            "function": self.function,
            "ok": self.ok,
            "findings": [f.as_dict() for f in self.findings],
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
        return {
            "scheme": self.scheme,
            "function": self.function,
            "ok": self.ok,
            "findings": [f.as_dict() for f in self.findings],
            "checked": self.checked,
        }


class AuditCallError(ValueError):
    r"""The function could not be audited: it raised on a plain call, or returned something that is not an array.
    The message is one line and names the call."""


class RopeConformanceError(AssertionError):
    r"""Raised by :func:`assert_rope_conforms`: the message lists the findings."""


def _name(fn) -> str:
    return f"{getattr(fn, '__module__', '?')}:{getattr(fn, '__qualname__', repr(fn))}"


# ---- calling the function -----------------------------------------------------------------------------------------

#: Argument names a :class:`RopeCall` may use. Caches are built by posproof from float64 angles of the configured
#: model: ``cos``/``sin`` (alias ``cos_half``/``sin_half``) as Hugging Face's ``cat(freqs, freqs)`` ``(tokens, r)``;
#: ``cos_interleaved``/``sin_interleaved`` each value repeated twice ``(tokens, r)`` (GPT-J); ``cos_pairs``/
#: ``sin_pairs`` one per pair ``(tokens, r/2)``; ``freqs_cis`` complex ``e^{i m theta_i}`` ``(tokens, r/2)`` (Meta).
CALL_ARGS = (
    "vectors",
    "q",
    "k",
    "positions",
    "base",
    "cos",
    "sin",
    "cos_half",
    "sin_half",
    "cos_interleaved",
    "sin_interleaved",
    "cos_pairs",
    "sin_pairs",
    "freqs_cis",
)
#: Axes of the vectors: ``td`` ``(tokens, width)``; ``bhsd`` ``(1, 1, tokens, width)`` with caches ``(1, tokens, w)``
#: and positions ``(1, tokens)`` (Hugging Face); ``bshd`` ``(1, tokens, 1, width)`` with caches ``(tokens, w)``
#: (Meta's ``apply_rotary_emb``).
AXES = ("td", "bhsd", "bshd")


@dataclass(frozen=True)
class RopeCall:
    r"""How to call the function: positional ``args`` from :data:`CALL_ARGS` and the ``axes`` of the vectors.

    The default is the RoPE note's ``rope(vectors, positions, base)``. A function of ``q`` and ``k`` must return
    ``(q_rotated, k_rotated)``; both outputs are audited. Text form (``--call``): ``"q,k,cos,sin@bhsd"``.

    >>> RopeCall.parse("q,k,freqs_cis@bshd")
    RopeCall(args=('q', 'k', 'freqs_cis'), axes='bshd')
    """

    args: tuple[str, ...] = ("vectors", "positions", "base")
    axes: str = "td"

    def __post_init__(self):
        args = tuple(self.args)
        bad = [a for a in args if a not in CALL_ARGS]
        if bad or not args:
            raise ValueError(f"call arguments must be names from {', '.join(CALL_ARGS)}, got {', '.join(bad) or '()'}")
        if len(set(args)) != len(args):
            raise ValueError(f"call arguments must not repeat, got {', '.join(args)}")
        qk = ("q" in args) + ("k" in args)
        if qk == 1 or (qk == 2 and "vectors" in args) or (qk == 0 and "vectors" not in args):
            raise ValueError("call arguments need either vectors, or both q and k")
        if not any(a in args for a in ("positions", "cos", "cos_half", "cos_interleaved", "cos_pairs", "freqs_cis")):
            raise ValueError("call arguments need positions or a cache (cos/sin or freqs_cis)")
        for c in ("cos", "cos_half", "cos_interleaved", "cos_pairs"):
            s = "sin" + c[3:]
            if (c in args) != (s in args):
                raise ValueError(f"call arguments must hold both {c} and {s}")
        if self.axes not in AXES:
            raise ValueError(f"call axes must be one of {', '.join(AXES)}, got {self.axes!r}")
        object.__setattr__(self, "args", args)

    @property
    def qk(self) -> bool:
        return "q" in self.args

    @property
    def cached(self) -> bool:
        return "positions" not in self.args

    @classmethod
    def parse(cls, text: str) -> RopeCall:
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"call must be a text like 'vectors,positions,base' or 'q,k,cos,sin@bhsd', got {text!r}")
        spec, _, axes = text.partition("@")
        return cls(tuple(a.strip() for a in spec.split(",") if a.strip()), axes.strip() or "td")

    def __str__(self) -> str:
        return ",".join(self.args) + ("" if self.axes == "td" else "@" + self.axes)


def _torch():
    try:
        import torch
    except ImportError:
        return None
    return torch


def _to_numpy(value, what: str) -> tuple[np.ndarray, str]:
    r"""An output as a float64-or-narrower NumPy array and the name of its dtype."""
    torch = _torch()
    if torch is not None and isinstance(value, torch.Tensor):
        t = value.detach().cpu()
        name = str(t.dtype).replace("torch.", "")
        if t.is_complex():
            raise AuditCallError(f"{what} is a complex tensor; RoPE of real vectors returns real tensors")
        return (t.double() if name in ("bfloat16", "float16") else t).numpy(), name
    try:
        arr = np.asarray(value)
    except Exception as e:  # noqa: BLE001 - anything the user returned
        raise AuditCallError(f"{what} is not an array: {type(value).__name__} ({e})") from None
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.floating) or arr.dtype.kind == "V"):
        raise AuditCallError(f"{what} is not a real array: {type(value).__name__} of dtype {arr.dtype}")
    return arr, arr.dtype.name


@dataclass(frozen=True)
class _Model:
    r"""A RoPE model: what the reference computes."""

    layout: str
    theta: np.ndarray  # (r/2,) float64
    theta_mp: tuple  # (r/2,) mpf, the exact frequencies
    attention_factor: float
    rotary_dim: int
    width: int


class _Caller:
    r"""Calls the user's function on ``(tokens, width)`` float arrays and integer positions, in the call's form."""

    def __init__(self, fn, call: RopeCall, base: float, expected: Callable[[int, int], _Model]):
        self.fn, self.call, self.base, self.expected = fn, call, base, expected
        self.backend: str | None = None

    def describe(self, x: np.ndarray) -> str:
        return f"{_name(self.fn)}({', '.join(self.call.args)}) with {x.shape[0]} rows of width {x.shape[1]}"

    def _cache(self, name: str, pos: np.ndarray, width: int, dtype) -> np.ndarray:
        model = self.expected(width, int(pos.max()) + 1 if pos.size else 1)
        angles = pos[:, None].astype(np.float64) * model.theta[None, :]  # (tokens, r/2)
        c, s = np.cos(angles) * model.attention_factor, np.sin(angles) * model.attention_factor
        kind = name.split("_")[-1] if "_" in name else ("cis" if name == "freqs_cis" else "half")
        if name == "freqs_cis":
            return (c + 1j * s).astype(np.complex128 if dtype == np.float64 else np.complex64)
        v = c if name.startswith("cos") else s
        if kind == "half":
            v = np.concatenate([v, v], axis=-1)
        elif kind == "interleaved":
            v = np.repeat(v, 2, axis=-1)
        return v.astype(dtype)

    def _args(self, x: np.ndarray, pos: np.ndarray, other: np.ndarray | None, torch) -> list:
        T, D = x.shape
        shape = {"td": (T, D), "bhsd": (1, 1, T, D), "bshd": (1, T, 1, D)}[self.call.axes]
        conv = (lambda a: torch.from_numpy(np.ascontiguousarray(a))) if torch is not None else (lambda a: a.copy())
        out = []
        for a in self.call.args:
            if a in ("vectors", "q"):
                out.append(conv(x.reshape(shape)))
            elif a == "k":
                out.append(conv((x if other is None else other).reshape(shape)))
            elif a == "positions":
                p = pos.astype(np.int64)
                out.append(conv(p[None, :] if self.call.axes == "bhsd" else p))
            elif a == "base":
                out.append(self.base)
            else:
                c = self._cache(a, pos, D, x.dtype)
                out.append(conv(c[None] if self.call.axes == "bhsd" else c))
        return out

    def raw(self, x: np.ndarray, pos: np.ndarray, other: np.ndarray | None = None) -> tuple:
        try:
            return self._raw(x, pos, other)
        except AuditCallError as e:
            top = int(np.max(pos)) if pos.size else 0
            raise AuditCallError(f"{e} (positions up to {top}; see max_position)" if top > 3 else str(e)) from None

    def _raw(self, x: np.ndarray, pos: np.ndarray, other: np.ndarray | None = None) -> tuple:
        r"""``(outputs, dtype names)``: one output, or two for a ``(q, k)`` function (``other`` is the key input;
        default the same as ``x``)."""
        torch = _torch()
        tries = [self.backend] if self.backend else (["numpy", "torch"] if torch is not None else ["numpy"])
        errors = []
        for backend in tries:
            try:
                # the probes go to extreme positions on purpose: the function's own warnings there are noise
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    result = self.fn(*self._args(x, pos, other, torch if backend == "torch" else None))
            except Exception as e:  # noqa: BLE001 - the user's code may raise anything
                errors.append(f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}".rstrip(": "))
                continue
            self.backend = backend
            outs = tuple(result) if self.call.qk and isinstance(result, (tuple, list)) else (result,)
            if self.call.qk and len(outs) != 2:
                raise AuditCallError(f"{self.describe(x)} must return (q_rotated, k_rotated), got {len(outs)} values")
            conv = [_to_numpy(o, f"the output of {self.describe(x)}") for o in outs]
            return tuple(c[0] for c in conv), tuple(c[1] for c in conv)
        with_ = " / ".join(f"{b}: {e}" for b, e in zip(tries, errors, strict=True))
        raise AuditCallError(f"{self.describe(x)} raised ({with_})")

    def __call__(self, x: np.ndarray, pos: np.ndarray, which: int = 0, other: np.ndarray | None = None) -> np.ndarray:
        r"""Output ``which`` as float64 ``(tokens, width)``; a wrong shape raises :class:`_ShapeError`."""
        outs, _ = self.raw(x, pos, other)
        y = outs[which]
        if y.size != x.size:
            raise _ShapeError(y.shape)
        return y.reshape(x.shape).astype(np.float64)


class _ShapeError(Exception):
    pass


# ---- the RoPE audit -----------------------------------------------------------------------------------------------


def _wrap(a):
    return (np.asarray(a) + np.pi) % (2 * np.pi) - np.pi


def _probe_positions(max_position: int) -> list[int]:
    out = [0, 1, 2, 3]
    p = 4
    while p <= max_position and p <= 2**24:
        out.append(p)
        p *= 2
    return out


@dataclass
class _Structure:
    r"""What the unit-vector probes show (one output of the function)."""

    pairs: list  # [(a, b)] channel pairs, a < b
    layout: str | None  # interleaved, half, or None (unrecognised)
    rotary_dim: int
    kind: str  # "rotation", "reflection", "not-orthogonal", "none"
    rho: np.ndarray | None  # (pairs,) scale of each block
    phi: np.ndarray | None  # (positions, pairs) angle of each block
    worst_pair: int = 0


def _structure(A: np.ndarray, P: list, width: int) -> _Structure:
    r"""``A``: ``(positions, width, width)`` the matrices ``A_m`` (NaN where the function gave non-finite values)."""
    finite = np.isfinite(A).all(axis=(1, 2))  # (positions,)
    Af = A[finite]
    off = np.abs(Af - np.eye(width) * np.diagonal(Af, axis1=1, axis2=2)[:, :, None]).max(axis=0) > COUPLING_TOL
    off = off | off.T
    partners = [np.flatnonzero(off[c]) for c in range(width)]
    if any(p.size > 1 for p in partners):
        return _Structure([], None, 0, "none", None, None)
    pairs = sorted({(min(c, int(p[0])), max(c, int(p[0]))) for c, p in enumerate(partners) if p.size})
    n = len(pairs)
    layout = None
    if n and pairs == [(2 * i, 2 * i + 1) for i in range(n)]:
        layout = "interleaved"
    if n and pairs == [(i, i + n) for i in range(n)]:
        layout = "half" if layout is None else "either"
    if not n:
        return _Structure([], None, 0, "none", None, None)
    a, b = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
    c11, c12, c21, c22 = A[:, a, a], A[:, a, b], A[:, b, a], A[:, b, b]  # (positions, pairs)
    with np.errstate(invalid="ignore"):
        rot = np.nanmax(np.maximum(np.abs(c11 - c22), np.abs(c12 + c21)), axis=0)  # (pairs,)
        ref = np.nanmax(np.maximum(np.abs(c11 + c22), np.abs(c12 - c21)), axis=0)
    if np.all(rot <= BLOCK_TOL):
        rho_all = np.hypot(c11, c21)  # (positions, pairs)
        rho = np.nanmedian(rho_all, axis=0)
        kind = "rotation"
        if np.nanmax(np.abs(rho_all - rho)) > BLOCK_TOL:
            kind = "not-orthogonal"
        return _Structure(pairs, layout, 2 * n, kind, rho, np.arctan2(c21, c11), int(np.argmax(rot)))
    kind = "reflection" if np.all(np.minimum(rot, ref) <= BLOCK_TOL) else "not-orthogonal"
    return _Structure(pairs, layout, 2 * n, kind, None, None, int(np.argmax(rot)))


def _unwrap_frequencies(phi: np.ndarray, P: list) -> tuple[np.ndarray, list]:
    r"""Per pair, the angle advance per position ``omega_i`` from ``phi`` ``(positions, pairs)`` at ``P``: start at
    ``m = 1`` and refine over ``m = 2, 4, 8, ...`` while ``|m omega| <= 16`` (no ambiguity of the wrap). Also the
    positions where an angle jumps away from ``m omega`` (by more than :data:`UNWRAP_JUMP`)."""
    omega = _wrap(phi[1] - phi[0])  # (pairs,)
    jumps = []
    for j, m in enumerate(P):
        if m < 2:
            continue
        pred = m * omega
        ok = np.isfinite(phi[j]) & (np.abs(pred) <= 16)
        resid = _wrap(phi[j] - phi[0] - pred)
        bad = ok & (np.abs(resid) > UNWRAP_JUMP)
        if bad.any():  # angles from here on are not m omega: refine no further
            jumps.append(int(m))
            break
        omega = np.where(ok, (pred + resid) / m, omega)
    return omega, jumps


@dataclass(frozen=True)
class _Candidate:
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
    theta = b ** (-2 * i / d)
    return gamma * theta / s + (1 - gamma) * theta


def _candidates(cfg: RopeScaling, seq_len: int, width: int) -> list[_Candidate]:
    r"""The expected frequencies first, then named alternatives (each a plausible mistake)."""
    d, b = cfg.d, cfg.base
    i = np.arange(d // 2, dtype=np.float64)
    th, af = cfg.inv_freq(seq_len)
    out = [_Candidate("expected", "", "the configured rule", th, af, b)]
    if cfg.rope_type != "default":
        out.append(
            _Candidate(
                "no-scaling",
                "wrong-scaling",
                f"no scaling (plain RoPE, base {b:g}) instead of {cfg.rope_type}",
                b ** (-2 * i / d),
                1.0,
                b,
            )
        )
    params = {
        "factor": cfg.factor if cfg.factor is not None else (cfg.s if cfg.rope_type != "default" else None),
        "original_max_position_embeddings": cfg.L0,
        "max_position_embeddings": cfg.max_position_embeddings,
    }
    for rule in RULES:
        if rule in (cfg.rope_type, "default", "longrope") or params["factor"] is None:
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
            alt = RopeScaling(width, b, rule, **kw)
            t, a = alt.inv_freq(seq_len)
        except ValueError:
            continue
        out.append(
            _Candidate(
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
            _Candidate(
                "yarn-extended",
                "wrong-scaling",
                f"YaRN with the correction range computed from the extended length {s:g} x L0 instead of L0 = {cfg.L0}",
                _yarn_theta(cfg, s * cfg.L0),
                af,
                b,
            )
        )
        out.append(
            _Candidate(
                "yarn-clamped",
                "wrong-scaling",
                "YaRN with the correction range clamped to d/2 - 1 instead of d - 1",
                _yarn_theta(cfg, cfg.L0, d // 2 - 1),
                af,
                b,
            )
        )
        out.append(
            _Candidate(
                "yarn-no-attention", "wrong-scaling", "YaRN frequencies without its attention factor", th, 1.0, b
            )
        )
    if cfg.rope_type != "default" and af != 1.0:
        out.append(
            _Candidate(
                "no-attention",
                "wrong-scaling",
                f"{cfg.rope_type} frequencies without the attention factor {af:.6g}",
                th,
                1.0,
                b,
            )
        )
    # widths and exponents (for the plain rule); the width first: b^(-2i/width) with width = 2d is also b^(-i/d)
    base_theta = b ** (-2 * i / d)
    scale = th / base_theta  # what the rule does to each frequency
    if d < width:
        out.append(
            _Candidate(
                "partial-width",
                "partial-rotary-width",
                f"theta_i = b^(-2i/{width}): built over the head width {width} instead of the rotary width {d}",
                b ** (-2 * i / width) * scale,
                af,
                b,
            )
        )
    out.append(
        _Candidate(
            "exp-i/d",
            "frequency-exponent",
            "theta_i = b^(-i/d) (exponent i/d instead of 2i/d)",
            b ** (-i / d) * scale,
            af,
            b,
        )
    )
    out.append(
        _Candidate(
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
            _Candidate(
                "exp-t2t",
                "frequency-exponent",
                "theta_i = b^(-i/(d/2-1)) (tensor2tensor's timescales)",
                b ** (-i / (d / 2 - 1)) * scale,
                af,
                b,
            )
        )
    return out


def _fit_base(omega: np.ndarray, d: int) -> float | None:
    r"""The base ``b'`` with ``omega_i = b'^(-2i/d)`` if the frequencies are geometric from 1, else ``None``."""
    if omega.size < 2 or not np.all(omega > 0) or abs(omega[0] - 1) > 1e-3:
        return None
    i = np.arange(omega.size)
    slope = np.polyfit(i, np.log(omega), 1)[0]
    b = math.exp(-slope * d / 2)
    fit = b ** (-2 * i / d)
    return b if np.max(np.abs(fit / omega - 1)) < 1e-3 and b > 1 else None


def _fmt(v) -> str:
    return mpmath.nstr(v, 17, strip_zeros=False) if isinstance(v, mpmath.mpf) else repr(float(v))


def _allowed(eps: float | None, positions: np.ndarray, theta_max: float) -> np.ndarray:
    r"""Score error under a shift explained by the detected angle precision: 8 ``eps m theta_max`` per position, plus
    :data:`SHIFT_ATOL` (the angle error grows with the position; 8 covers both rotated vectors and the spread)."""
    e = 0.0 if eps is None else eps
    return SHIFT_ATOL + 8 * e * np.abs(positions).astype(np.float64) * theta_max


def _reference_rows(x: np.ndarray, pos: np.ndarray, model: _Model) -> np.ndarray:
    r"""The 50-digit reference of ``model`` on rows ``x`` ``(tokens, width)``, as mpf object array."""
    out = rope_mp(
        x.tolist(),
        pos.tolist(),
        layout=model.layout,
        dps=REFERENCE_DPS,
        inv_freq=list(model.theta_mp),
        attention_factor=model.attention_factor if model.attention_factor != 1.0 else None,
        rotary_dim=model.rotary_dim,
    )
    arr = np.empty((len(out), len(out[0])), dtype=object)
    arr[:] = out
    return arr


class _RopeAudit:
    def __init__(self, fn, layout, base, scaling, width, rotary_dim, call, tolerance, max_position, seq_len, seed):
        self.fn = fn
        self.layout = "auto" if layout == "auto" else _validate.layout(layout)
        self.base = _validate.base(base)
        self.width = _validate.even_width(width, "width")
        mapping = dict(scaling) if scaling else {"rope_type": "default"}
        if rotary_dim is not None:
            rd = _validate.even_width(rotary_dim, "rotary_dim")
            if rd > self.width:
                raise ValueError(f"rotary_dim must be an even integer in [2, {self.width}], got {rotary_dim!r}")
            if "partial_rotary_factor" in mapping:
                raise ValueError("give either rotary_dim or partial_rotary_factor in scaling")
            mapping["partial_rotary_factor"] = rd / self.width
        self.scaling_mapping = mapping
        self.cfg = RopeScaling.from_mapping(self.width, self.base, mapping)
        self.call = call if isinstance(call, RopeCall) else RopeCall() if call is None else RopeCall.parse(call)
        self.tolerance = pp._tolerance(tolerance)
        self.max_position = _validate.positive_int(max_position, "max_position", 4)
        self.seq_len = seq_len
        self.rng = np.random.default_rng(seed)
        self.caller = _Caller(fn, self.call, self.base, self._expected_model)
        self.P = _probe_positions(self.max_position)
        self.top = self.P[-1]

    # -- the expected model at a width (the rotary factor is kept) and current length
    def _cfg_at(self, width: int) -> RopeScaling:
        return self.cfg if width == self.width else RopeScaling.from_mapping(width, self.base, self.scaling_mapping)

    def _expected_model(self, width: int, seq_len: int) -> _Model:
        cfg = self._cfg_at(width)
        L = self.seq_len if self.seq_len is not None else seq_len
        th, af = cfg.inv_freq(L)
        th_mp, _ = cfg.inv_freq_mp(L, dps=REFERENCE_DPS)
        layout = "interleaved" if self.layout == "auto" else self.layout
        return _Model(layout, th, tuple(th_mp), af, cfg.d, width)

    def expected_dict(self) -> dict:
        return {
            "layout": self.layout,
            "base": self.base,
            "scaling": self.scaling_mapping,
            "width": self.width,
            "rotary_dim": self.cfg.d,
            "call": str(self.call),
            "max_position": self.max_position,
            "tolerance": self.tolerance,
        }

    # -- calls with an anchor row at the largest probed position (same current length in every call)
    def run(self, x: np.ndarray, pos: np.ndarray, which: int = 0, other=None, anchor: int | None = None) -> np.ndarray:
        top = self.top if anchor is None else anchor
        xa = np.concatenate([x, np.zeros((1, x.shape[1]), x.dtype)])
        pa = np.concatenate([np.asarray(pos, dtype=np.int64), [top]])
        oa = None if other is None else np.concatenate([other, np.zeros((1, x.shape[1]), other.dtype)])
        return self.caller(xa, pa, which, oa)[:-1]

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
        r"""Widths for minimal examples, smallest first, keeping the rotary fraction (``int(w * f)`` even >= 2)."""
        f = self.cfg.partial_rotary_factor
        out = []
        for w in list(range(2, 17, 2)) + [32, 64, 128, 256]:
            if w <= self.width and int(w * f) >= 2 and int(w * f) % 2 == 0:
                out.append(w)
        if self.width not in out:
            out.append(self.width)
        return out

    # ---- one output
    def _out(self, which: int):
        r"""A rotation ``x, pos -> y`` of output ``which`` (the other input fixed to zeros)."""
        if not self.call.qk:
            return lambda x, pos, anchor=None: self.run(x, pos, 0, None, anchor)
        return lambda x, pos, anchor=None: self._qk(x, np.zeros_like(x), pos, which, anchor)

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

    # ---- precision of the angles
    def _precision(self, f, st: _Structure, layout, delta, omega, sigma, model: _Model):
        r"""``(eps, stage, name)``: the median relative angle error on angles of 16..128 rad (stage 1) and, if that
        is small, on 256..3e5 rad (stage 2), and the dtype it indicates."""
        if self.call.cached:
            return None, None, "supplied cache"
        d = self.width
        n = len(st.pairs)
        a = np.array([p[0] for p in st.pairs])
        b = np.array([p[1] for p in st.pairs])
        theta = np.abs(omega)  # measured frequencies (exact enough for prediction: see below)
        if model.theta.size == n and np.all(np.abs(theta / model.theta - 1) <= FREQ_RTOL_LOW):
            theta = model.theta  # the exact expected frequencies: their rounding is part of what is measured
        ms = np.array([m for m in (1001, 3001, 10007, 30011, 100003, 300007, 1000003) if m <= self.max_position])
        if not ms.size:
            return None, None, None
        v = np.zeros((ms.size, d))
        v[:, a] = 1.0  # the first channel of every pair: the output holds rho (cos phi, sin phi) per pair
        with np.errstate(all="ignore"):
            y = f(v, ms)  # (positions, d)
        phi = np.arctan2(y[:, b], y[:, a])  # (positions, pairs)
        exact = delta[None, :] + sigma * ms[:, None] * theta[None, :]  # (positions, pairs)
        mag = np.abs(ms[:, None] * theta[None, :])
        err = np.abs(_wrap(phi - exact)) / mag  # (positions, pairs)
        if (~np.isfinite(err)).any():  # non-finite angles (float16 overflows at 65504)
            return float("inf"), 1, "float16"
        # angles of 0.25 .. 3 rad cannot wrap by a relative error < 1: there a jump is seen for what it is
        small = (mag >= 0.25) & (mag <= 3)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # positions without such a pair: all-NaN rows
            per_m = np.nanmax(np.where(small, err, np.nan), axis=1) if small.any() else np.zeros(ms.size)
        wild = np.flatnonzero(np.nan_to_num(per_m) > ANGLE_JUMP_RTOL)
        if wild.size:  # not rounding: angles leave m theta_i (a clamped table, a wrapped index)
            return int(ms[wild[0]]), "jump", None
        # a frequency exact in float16 (1, 1/2, ...) is exact in every dtype: its angles show no rounding of theta
        with np.errstate(over="ignore"):
            informative = (theta.astype(np.float16).astype(np.float64) != theta)[None, :]  # (1, pairs)
        s1 = (mag >= 16) & (mag <= 128) & informative
        eps1 = float(np.median(err[s1])) if s1.any() else None
        if eps1 is not None and eps1 > LOW_PRECISION_EPS:
            return eps1, 1, "bfloat16" if eps1 > BFLOAT16_EPS else "float16"
        s2 = (mag >= 256) & (mag <= 3e5) & informative
        if not s2.any():
            return eps1, 1, None
        eps2 = float(np.median(err[s2]))
        return eps2, 2, "float64" if eps2 <= FLOAT32_EPS else "float32"

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
                    ref = _reference_rows(X[j : j + 1], pos[j : j + 1], model)
                    return {
                        "width": w,
                        "positions": [m],
                        "vectors": X[j : j + 1].tolist(),
                        "expected": [_fmt(v) for v in ref[0]],
                        "got": got[j].tolist(),
                    }
        return {"width": self.width}

    def _bug_width(self, X, pos, mw: _Model, w: int, factor: float):
        r"""The configured rule at rotary fraction ``factor`` instead of the configured one."""
        r = int(w * factor)
        if r < 2 or r % 2:
            return None
        mapping = dict(self.scaling_mapping, partial_rotary_factor=factor)
        try:
            th, af = RopeScaling.from_mapping(w, self.base, mapping).inv_freq(self.top + 1)
        except ValueError:
            return None
        return rope_exact_float(X, pos, replace(mw, theta=th, attention_factor=af, rotary_dim=r))

    def _bug_rule(self, X, pos, mw: _Model, w: int, key: str):
        r"""The named alternative ``key`` of :func:`_candidates` at width ``w``."""
        L = self.top + 1 if self.seq_len is None else self.seq_len
        alt = [c for c in _candidates(self._cfg_at(w), L, w) if c.key == key]
        if not alt or alt[0].theta.size != mw.rotary_dim // 2:
            return None
        return rope_exact_float(X, pos, replace(mw, theta=alt[0].theta, attention_factor=alt[0].attention_factor))

    # ---- behavioural checks on random vectors
    def _behaviour(self, f, model: _Model | None, eps, st: _Structure, label) -> list[Finding]:
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
        allowed = _allowed(eps, np.maximum(m, n) + t, theta_max)
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
        ref = _reference_rows(xs, ps, model).astype(float)
        if np.max(np.abs(got - ref)) > max(EXAMPLE_ATOL, 64 * (eps or 0) * 10) and not out:
            out.append(
                Finding(
                    "disagrees-with-reference",
                    "its output differs from the 50-digit reference of the configured model",
                    self._example(f),
                    label,
                )
            )
        return out

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

    def _generic(self, f, model, st: _Structure, label, findings):
        r"""The structure is not a rotation per pair in a known layout: the behavioural checks say what fails."""
        if st.kind == "not-orthogonal":  # the root cause; scores then fail to be relative as a consequence
            out = [
                Finding(
                    "not-norm-preserving",
                    f"its 2x2 blocks are not rotations (pairs {_pairs_text(st.pairs)})",
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
                    f"pairs no channels the way RoPE does ({'no pairs' if not st.pairs else _pairs_text(st.pairs)})",
                    self._example(f),
                    label,
                )
            )
        findings.extend(out)
        match = RopeMatch(
            st.layout, st.rotary_dim or None, None, None, None, None, None, self.caller.backend or "numpy"
        )
        return findings, match, None

    # ---- the precision profile of the function (float32 inputs)
    def _profile(self, f, model: _Model) -> pp.Profile | None:
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
        except (AuditCallError, _ShapeError):
            return None

    def _run32(self, x, pos):
        # x float32 rows; keep the anchor at the top probed position
        xa = np.concatenate([x, np.zeros((1, x.shape[1]), x.dtype)])
        pa = np.concatenate([np.asarray(pos, dtype=np.int64), [self.top]])
        outs, _ = self.caller.raw(xa, pa, np.zeros_like(xa) if self.call.qk else None)
        return np.asarray(outs[0], dtype=np.float64).reshape(xa.shape)[:-1]


def rope_exact_float(x: np.ndarray, pos: np.ndarray, model: _Model, angles: np.ndarray | None = None) -> np.ndarray:
    r"""The model's rotation in float64 (for scanning; examples quote the 50-digit reference); ``angles``
    ``(tokens, r/2)`` replace ``m theta_i`` when given."""
    r, h = model.rotary_dim, model.rotary_dim // 2
    ang = pos[:, None].astype(np.float64) * model.theta[None, :] if angles is None else angles
    with np.errstate(invalid="ignore"):  # simulated 16-bit angles may be inf
        c, s = np.cos(ang) * model.attention_factor, np.sin(ang) * model.attention_factor
    out = x.astype(np.float64).copy()
    if model.layout == "interleaved":
        a, b = x[:, 0:r:2], x[:, 1:r:2]
        out[:, 0:r:2], out[:, 1:r:2] = a * c - b * s, a * s + b * c
    else:
        a, b = x[:, :h], x[:, h:r]
        out[:, :h], out[:, h:r] = a * c - b * s, a * s + b * c
    return out


def _pairs_text(pairs: list) -> str:
    shown = ", ".join(f"({a}, {b})" for a, b in pairs[:3])
    return shown + (", ..." if len(pairs) > 3 else "")


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


def _short(example: Mapping) -> str:
    keys = [k for k in ("width", "positions", "n_heads", "relative_position") if k in example]
    return ", ".join(f"{k}={example[k]}" for k in keys) or "-"


# ---- ALiBi --------------------------------------------------------------------------------------------------------


def _call_scheme(fn, args: tuple, what: str):
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001 - the user's code may raise anything
        torch = _torch()
        if torch is not None:
            try:
                targs = tuple(torch.from_numpy(a) if isinstance(a, np.ndarray) else a for a in args)
                return fn(*targs)
            except Exception:  # noqa: BLE001
                pass
        msg = str(e).splitlines()[0] if str(e) else ""
        raise AuditCallError(f"{_name(fn)}{what} raised {type(e).__name__}" + (f": {msg}" if msg else "")) from None


def _alibi_variants(n: int) -> dict[str, np.ndarray]:
    h = np.arange(1, n + 1, dtype=np.float64)
    return {
        "alibi-power-of-two-formula": 2.0 ** (-8 * h / n),
        "alibi-slope-exponent (h - 1)": 2.0 ** (-8 * (h - 1) / n),
        "alibi-slope-exponent (h + 1)": 2.0 ** (-8 * (h + 1) / n),
        "alibi-slope-exponent (-h/n)": 2.0 ** (-h / n),
    }


def audit_alibi(slopes_fn, n_heads: Sequence[int] = tuple(range(1, 65)), rtol: float = 1e-6) -> SchemeReport:
    r"""Audit ``slopes_fn(n_heads) -> (n_heads,)`` against Press et al.'s slopes for each head count (default
    1 .. 64; ``rtol`` 1e-6 admits float32 slopes, whose rounding is 6e-8)."""
    if not callable(slopes_fn):
        raise ValueError(f"slopes_fn must be callable, got {type(slopes_fn).__name__}")
    counts = [_validate.positive_int(n, "n_heads") for n in n_heads]
    wrong: dict[int, np.ndarray] = {}
    findings: list[Finding] = []
    for n in counts:
        raw = _call_scheme(slopes_fn, (n,), f"({n})")
        try:
            got, _ = _to_numpy(raw, f"slopes_fn({n})")
        except AuditCallError:
            got = np.asarray(raw, dtype=np.float64) if isinstance(raw, (list, tuple)) else np.array([np.nan])
        got = np.asarray(got, dtype=np.float64).reshape(-1)
        want = np.exp2([float(e) for e in alibi_slope_exponents(n)])
        if got.shape != want.shape or not np.all(np.isfinite(got)):
            findings.append(
                Finding(
                    "alibi-shape",
                    f"returns {got.size} values for n_heads = {n}",
                    {"n_heads": n, "expected": want.tolist(), "got": got.tolist()},
                )
            )
            break
        if np.any(np.abs(got / want - 1) > rtol):
            wrong[n] = got
    if wrong and not findings:
        names = {}
        for n, got in wrong.items():
            hit = [k for k, v in _alibi_variants(n).items() if np.all(np.abs(got / v - 1) <= rtol)]
            names[n] = hit[0].split(" ")[0] if hit else "alibi-wrong-slopes"
        for id_ in dict.fromkeys(names.values()):
            ns = [n for n, v in names.items() if v == id_]
            n = ns[0]
            want = np.exp2([float(e) for e in alibi_slope_exponents(n)])
            what = {
                "alibi-power-of-two-formula": "uses 2^(-8h/n) for head counts that are not powers of two",
                "alibi-slope-exponent": "has an off exponent",
                "alibi-wrong-slopes": "returns slopes that differ from Press et al.'s",
            }[id_]
            msg = f"{what} (n_heads = {_ranges_text(ns)}; first at {n})"
            findings.append(
                Finding(
                    id_, msg, {"n_heads": n, "expected": [_fmt(mpmath.mpf(v)) for v in want], "got": wrong[n].tolist()}
                )
            )
    checked = f"slopes for n_heads in {_ranges_text(counts)} against 2^(e_h) of Press et al. (rtol {rtol:g})"
    return SchemeReport("alibi", tuple(findings), checked, _name(slopes_fn))


def _ranges_text(ns: Sequence[int]) -> str:
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


# ---- T5 -----------------------------------------------------------------------------------------------------------

#: Configurations audited (bidirectional, num_buckets, max_distance): T5's defaults for encoder and decoder, and
#: others with different max_exact and ranges.
T5_SETTINGS = ((True, 32, 128), (False, 32, 128), (True, 64, 256), (False, 16, 64), (True, 8, 20))


def _t5_variant(name: str, r: np.ndarray, bidirectional: bool, nb: int, md: int) -> np.ndarray:
    r"""The bucket with one named mistake (same definitions as :func:`numeric.t5.t5_relative_bucket`)."""
    if name == "t5-sign-convention":
        return t5_relative_bucket(-r, bidirectional, nb, md)
    if name == "t5-bidirectional-halving":
        if not bidirectional:
            return t5_relative_bucket(r, bidirectional, nb, md)
        B = nb  # not halved: each side uses every bucket
        return np.where(r > 0, nb // 2, 0) + _t5_distance(np.abs(r), B, B // 2, md, "log")
    if name in ("t5-missing-cap", "t5-linear-buckets"):
        B = nb // 2 if bidirectional else nb
        a = np.abs(r) if bidirectional else np.maximum(-r, 0)
        upper: Any = np.where(r > 0, B, 0) if bidirectional else 0
        kind = "nocap" if name == "t5-missing-cap" else "linear"
        return upper + _t5_distance(a, B, B // 2, md, kind)
    raise ValueError(name)


def _t5_distance(a: np.ndarray, B: int, me: int, md: int, kind: str) -> np.ndarray:
    safe = np.maximum(a, me).astype(np.float64)
    if kind == "linear":
        large = me + ((safe - me) * (B - me) // (md - me)).astype(np.int64)
    else:
        large = me + np.trunc(np.log(safe / me) / math.log(md / me) * (B - me)).astype(np.int64)
    if kind != "nocap":
        large = np.minimum(large, B - 1)
    return np.where(a < me, a, large)


def audit_t5(bucket_fn, settings: Sequence[tuple] = T5_SETTINGS) -> SchemeReport:
    r"""Audit ``bucket_fn(relative_position, bidirectional, num_buckets, max_distance)`` (``relative_position`` an
    int64 array of **key - query**) against T5's buckets for each of ``settings``."""
    if not callable(bucket_fn):
        raise ValueError(f"bucket_fn must be callable, got {type(bucket_fn).__name__}")
    findings: list[Finding] = []
    mismatches = []
    for bidirectional, nb, md in settings:
        r = np.arange(-4 * md, 4 * md + 1, dtype=np.int64)
        r = np.concatenate([r, [-100000, 100000]])
        args = (r, bidirectional, nb, md)
        raw = _call_scheme(bucket_fn, args, f"(relative_position, {bidirectional}, {nb}, {md})")
        try:
            got, _ = _to_numpy(raw, "the buckets")
        except AuditCallError:
            got = np.asarray(raw)
        got = np.asarray(got)
        if got.shape != r.shape:
            findings.append(
                Finding(
                    "t5-shape",
                    f"returns shape {got.shape} for {r.shape[0]} relative positions",
                    {"bidirectional": bidirectional, "num_buckets": nb, "max_distance": md},
                )
            )
            break
        with np.errstate(invalid="ignore"):
            gotf = got.astype(np.float64)
        want = t5_relative_bucket(r, bidirectional, nb, md)
        diff = ~(gotf == want)
        if diff.any():
            mismatches.append((bidirectional, nb, md, r, gotf, want, diff))
    if mismatches and not findings:
        names = []
        for bidirectional, nb, md, r, gotf, _want, diff in mismatches:
            zero = r == 0 if bidirectional else r >= 0  # the bucketed distance is 0 (log(0) in the reference)
            if diff[zero].all() and not diff[~zero].any():
                names.append("t5-nan-at-zero")
                continue
            hit = None
            for name in ("t5-missing-cap", "t5-sign-convention", "t5-bidirectional-halving", "t5-linear-buckets"):
                alt = _t5_variant(name, r, bidirectional, nb, md)
                if np.array_equal(alt, gotf):
                    hit = name
                    break
            names.append(hit or "t5-wrong-buckets")
        for id_ in dict.fromkeys(names):
            k = names.index(id_)
            bidirectional, nb, md, r, gotf, want, diff = mismatches[k]
            j = int(np.argmin(np.where(diff, np.abs(r), np.iinfo(np.int64).max)))
            g = gotf[j]
            msg = T5_FINDINGS[id_][0].upper() + T5_FINDINGS[id_][1:]
            findings.append(
                Finding(
                    id_,
                    f"{msg} (bidirectional={bidirectional}, num_buckets={nb}, max_distance={md})",
                    {
                        "relative_position": int(r[j]),
                        "bidirectional": bidirectional,
                        "num_buckets": nb,
                        "max_distance": md,
                        "expected": int(want[j]),
                        "got": None if not np.isfinite(g) else g.item(),
                    },
                )
            )
    checked = "buckets of r = key - query in [-4 max_distance, 4 max_distance] and +-100000 for " + "; ".join(
        f"(bidirectional={b}, num_buckets={n}, max_distance={m})" for b, n, m in settings
    )
    return SchemeReport("t5", tuple(findings), checked, _name(bucket_fn))


# ---- text --------------------------------------------------------------------------------------------------------


def format_report(report: RopeReport | SchemeReport) -> str:
    r"""The report as text: the verdict, each finding with its example, what matched and the precision profile."""
    lines = [f"{report.function}: {'conforms' if report.ok else 'does NOT conform'}"]
    if isinstance(report, RopeReport):
        e = report.expected
        scaling = e["scaling"].get("rope_type", "default")
        lines.append(
            f"  expected: layout {e['layout']}, base {e['base']:g}, scaling {scaling}, width {e['width']}, "
            f"rotary width {e['rotary_dim']}, call {e['call']}"
        )
        m = report.matched
        if m.layout is not None:
            eps = "" if m.angle_error is None else f" (median relative angle error {m.angle_error:.2g})"
            lines.append(
                f"  matched: layout {m.layout}, rotary width {m.rotary_dim}, frequencies: "
                f"{m.frequencies or 'no known rule'}, attention factor "
                f"{'?' if m.attention_factor is None else format(m.attention_factor, '.6g')}, angles "
                f"{m.angle_precision or 'undetermined'}{eps}; {m.backend}"
            )
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
