r"""Calling a user's function: :class:`RopeCall` (which arguments, which axes), the caches posproof builds for
it, the conversion of torch tensors and other outputs to NumPy, :class:`Caller` (the RoPE calls, NumPy first, then
torch) and :func:`call_scheme` (the ALiBi and T5 calls)."""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from posproof.numeric.audit.model import RopeModel, model_table
from posproof.numeric.audit.report import AuditCallError, function_name

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
#: (Meta's ``apply_rotary_emb``); ``bshd+batch`` the same vectors with per-batch caches ``(1, tokens, w)`` and
#: positions ``(1, tokens)`` (GPT-J's and Llama 4's apply functions).
AXES = ("td", "bhsd", "bshd", "bshd+batch")
#: Axes whose caches and positions carry a batch axis.
_BATCHED = ("bhsd", "bshd+batch")


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


_TORCH: list = []  # [torch or None] once looked up: a failed import costs a path scan on every call


def _torch():
    if not _TORCH:
        try:
            _TORCH.append(importlib.import_module("torch"))
        except ImportError:
            _TORCH.append(None)
    return _TORCH[0]


def _torch_loaded():
    r"""torch if something has imported it already (a tensor can only come from code that did), else ``None``."""
    return sys.modules.get("torch")


def to_numpy(value, what: str) -> tuple[np.ndarray, str]:
    r"""An output as a float64-or-narrower NumPy array and the name of its dtype."""
    torch = _torch_loaded()
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


class Caller:
    r"""Calls the user's function on ``(tokens, width)`` float arrays and integer positions, in the call's form."""

    def __init__(self, fn, call: RopeCall, base: float, expected: Callable[[int, int], RopeModel]):
        self.fn, self.call, self.base, self.expected = fn, call, base, expected
        self.backend: str | None = None
        self.name: str | None = None  # how messages name the function (default module:qualname)

    def describe(self, x: np.ndarray) -> str:
        name = self.name if self.name is not None else function_name(self.fn)
        return f"{name}({', '.join(self.call.args)}) with {x.shape[0]} rows of width {x.shape[1]}"

    def _cache(self, name: str, pos: np.ndarray, width: int, dtype) -> np.ndarray:
        model = self.expected(width, int(pos.max()) + 1 if pos.size else 1)
        table = model_table(pos, model, width)
        c, s = table.cos, table.sin  # (tokens, r/2): attention factor times cos, sin of m theta_i
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
        shape = {"td": (T, D), "bhsd": (1, 1, T, D), "bshd": (1, T, 1, D), "bshd+batch": (1, T, 1, D)}[self.call.axes]

        def conv(a):
            if torch is None:
                return a.copy()
            if a.dtype.itemsize == 2 and a.dtype.kind in "fV":  # float16, bfloat16 (ml_dtypes): torch's own dtype
                name = "float16" if a.dtype == np.float16 else "bfloat16"
                return torch.from_numpy(np.ascontiguousarray(a.astype(np.float32))).to(getattr(torch, name))
            return torch.from_numpy(np.ascontiguousarray(a))

        out = []
        for a in self.call.args:
            if a in ("vectors", "q"):
                out.append(conv(x.reshape(shape)))
            elif a == "k":
                out.append(conv((x if other is None else other).reshape(shape)))
            elif a == "positions":
                p = pos.astype(np.int64)
                out.append(conv(p[None, :] if self.call.axes in _BATCHED else p))
            elif a == "base":
                out.append(self.base)
            else:
                c = self._cache(a, pos, D, x.dtype)
                out.append(conv(c[None] if self.call.axes in _BATCHED else c))
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
        tries = [self.backend] if self.backend else ["numpy", "torch"]
        errors = []
        for backend in tries:
            torch = _torch() if backend == "torch" else None  # imported only when NumPy arrays did not do
            if backend == "torch" and torch is None:
                continue
            try:
                # the probes go to extreme positions on purpose: the function's own warnings there are noise
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    result = self.fn(*self._args(x, pos, other, torch))
            except Exception as e:  # noqa: BLE001 - the user's code may raise anything
                errors.append((backend, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}".rstrip(": ")))
                continue
            self.backend = backend
            outs = tuple(result) if self.call.qk and isinstance(result, (tuple, list)) else (result,)
            if self.call.qk and len(outs) != 2:
                raise AuditCallError(f"{self.describe(x)} must return (q_rotated, k_rotated), got {len(outs)} values")
            conv = [to_numpy(o, f"the output of {self.describe(x)}") for o in outs]
            return tuple(c[0] for c in conv), tuple(c[1] for c in conv)
        with_ = " / ".join(f"{b}: {e}" for b, e in errors)
        raise AuditCallError(f"{self.describe(x)} raised ({with_})")

    def __call__(self, x: np.ndarray, pos: np.ndarray, which: int = 0, other: np.ndarray | None = None) -> np.ndarray:
        r"""Output ``which`` as float64 ``(tokens, width)``; a wrong shape raises :class:`ShapeError`."""
        outs, _ = self.raw(x, pos, other)
        y = outs[which]
        if y.size != x.size:
            raise ShapeError(y.shape)
        return y.reshape(x.shape).astype(np.float64)


class ShapeError(Exception):
    pass


def call_scheme(fn, args: tuple, what: str):
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
        raise AuditCallError(
            f"{function_name(fn)}{what} raised {type(e).__name__}" + (f": {msg}" if msg else "")
        ) from None
