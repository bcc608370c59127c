r"""Calling a user's function: :class:`RopeCall` (which arguments, which axes), the caches posproof builds for
it, the conversion of torch tensors and other outputs to NumPy, :class:`Caller` (the RoPE calls, NumPy first, then
torch) and :func:`call_scheme` (the ALiBi and T5 calls)."""

from __future__ import annotations

import importlib
import sys
import types
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
    "offset",
)
#: Argument names that are a cache posproof builds.
CACHE_ARGS = ("cos", "sin", "cos_half", "sin_half", "cos_interleaved", "sin_interleaved", "cos_pairs", "sin_pairs",
              "freqs_cis")  # fmt: skip
#: The largest position a call form without positions (rows at positions ``0 .. T-1``) is probed at: every call
#: holds a block of that many rows (2**16 rows of width 128: 64 MiB of float64), and the audit's ``max_position``
#: is capped to it (with a note in the report).
IMPLICIT_MAX_POSITION = 2**16
#: Rows of a call form with an ``offset`` are called one contiguous block per offset: positions at most this far
#: apart share a block (its other rows zeros), and a block holds at most :data:`BLOCK_ROWS` rows.
BLOCK_GAP = 64
BLOCK_ROWS = 4096
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

    Where the positions come from: ``positions`` (an integer array, one per row); a cache (``cos``/``sin``,
    ``freqs_cis``: posproof builds it at each row's position); ``offset`` (an ``int``: the position of row 0, rows
    at ``offset + row index``, as xformers', TransformerEngine's and flash-attn's ``seqlen_offsets`` take it: the
    rows of a probe are called one contiguous block per offset, zeros between them); or none of these (rows at
    positions ``0 .. T-1``, as GPT-NeoX's and ESM's rotaries take a block: each probe row is put at the row of its
    position in a block of ``max(position) + 1`` rows and read back from there; such a form is probed up to
    :data:`IMPLICIT_MAX_POSITION`, and the report notes the cap).

    >>> RopeCall.parse("q,k,freqs_cis@bshd")
    RopeCall(args=('q', 'k', 'freqs_cis'), axes='bshd')
    >>> RopeCall.parse("q,k,offset@bshd").rows, RopeCall.parse("vectors").rows
    ('offset', 'implicit')
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
        if "offset" in args and ("positions" in args or any(a in CACHE_ARGS for a in args)):
            raise ValueError("call arguments: offset (the position of row 0) excludes positions and caches")
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
        r"""posproof builds the cos/sin (or ``freqs_cis``) the function applies."""
        return any(a in CACHE_ARGS for a in self.args)

    @property
    def rows(self) -> str:
        r"""Where the rows' positions come from: ``"positions"``, ``"cache"``, ``"offset"`` (the position of row
        0) or ``"implicit"`` (rows at ``0 .. T-1``)."""
        if "positions" in self.args:
            return "positions"
        if self.cached:
            return "cache"
        return "offset" if "offset" in self.args else "implicit"

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


def _uses_torch(fn) -> bool:
    r"""Whether ``fn`` is code written for torch: a function (or a callable object, or a bound method) whose module
    holds torch, or something of torch's, at its top level. Its calls try torch tensors first: a NumPy try can leave
    a torch module's state half-updated (xformers sets its cached length before building its tables). posproof's
    own adapters decide for themselves."""
    return uses_library(fn, "torch", closures=False)


def _filled(cell) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


def uses_library(fn, library: str, *, closures: bool = True) -> bool:
    r"""Whether ``fn``'s module holds the array library ``library`` (``"torch"``, ``"jax"``), or something of it, at
    its top level, or (``closures``) ``fn`` closes over it (a library nothing has imported: ``False``)."""
    lib = sys.modules.get(library)
    if lib is None:
        return False
    target = getattr(fn, "__func__", fn)
    module_name = getattr(target, "__module__", None) or type(target).__module__
    if not isinstance(module_name, str) or module_name.startswith("posproof."):
        return False
    namespace = getattr(target, "__globals__", None)
    if namespace is None:
        module = sys.modules.get(module_name)
        namespace = vars(module) if module is not None else {}
    cells = [c.cell_contents for c in getattr(target, "__closure__", None) or () if _filled(c)] if closures else []
    for value in [*namespace.values(), *cells]:  # its module's names, and what it closes over
        if value is lib or getattr(value, "__name__", "") == library:
            return True
        if isinstance(value, types.ModuleType) and value.__name__.startswith(library + "."):  # jax.numpy
            return True
        owner = getattr(value, "__module__", None)
        if isinstance(owner, str) and (owner == library or owner.startswith(library + ".")):
            return True
    return False


def jax_float32(value) -> bool:
    r"""``value`` is a JAX array while JAX holds no float64 (``jax_enable_x64`` off): its float64 inputs come back
    float32 by JAX's design, not by the function's."""
    jax = sys.modules.get("jax")
    if jax is None or not type(value).__module__.startswith(("jax", "jaxlib")):
        return False
    try:
        return not bool(jax.config.read("jax_enable_x64"))
    except Exception:  # noqa: BLE001 - an older or newer JAX: read it as a flag
        return not bool(getattr(jax.config, "jax_enable_x64", False))


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
        self.torch_first = _uses_torch(fn)
        self.jax32 = False  # a JAX function without float64 (its float64 inputs come back float32)

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

    def _args(self, x: np.ndarray, pos: np.ndarray, other: np.ndarray | None, torch, offset: int = 0) -> list:
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
            elif a == "offset":
                out.append(int(offset))
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
        default the same as ``x``). Forms without positions are called block by block (:meth:`_blocks`)."""
        if self.call.rows in ("offset", "implicit"):
            return self._blocks(x, np.asarray(pos, dtype=np.int64), other)
        return self._once(x, pos, other)

    def _blocks(self, x: np.ndarray, pos: np.ndarray, other: np.ndarray | None) -> tuple:
        r"""The rows ``x`` ``(tokens, width)`` at ``pos`` through a form whose positions are row indices: rows at
        one position go to different calls (layers); in each, the rows sit at the row of their position in a
        contiguous block of zeros (``offset``: the block's first position, blocks split where positions are more
        than :data:`BLOCK_GAP` apart or a block would pass :data:`BLOCK_ROWS` rows; implicit: one block of
        ``max(pos) + 1`` rows from 0 for every call, so that every call has the same length)."""
        T, D = x.shape
        if T == 0:
            return self._once(x, pos, other)
        order = np.argsort(pos, kind="stable")
        layer = np.zeros(T, dtype=np.int64)  # (tokens,): how many rows at the same position come before
        sp = pos[order]
        start_of_run = np.r_[0, np.flatnonzero(np.diff(sp)) + 1]
        run_id = np.repeat(np.arange(start_of_run.size), np.diff(np.r_[start_of_run, T]))
        layer[order] = np.arange(T) - start_of_run[run_id]
        implicit = self.call.rows == "implicit"
        length = int(pos.max()) + 1
        outs: list | None = None
        names: tuple = ()
        for k in range(int(layer.max()) + 1):
            rows = order[layer[order] == k]  # (rows,) sorted by position
            p = pos[rows]
            if implicit:
                cuts = [(0, rows.size)]
            else:
                cuts, a = [], 0
                for j in range(1, rows.size + 1):
                    if j == rows.size or p[j] - p[j - 1] > BLOCK_GAP or p[j] - p[a] >= BLOCK_ROWS:
                        cuts.append((a, j))
                        a = j
            for a, b in cuts:
                first = 0 if implicit else int(p[a])
                n = length if implicit else int(p[b - 1]) - first + 1
                xb = np.zeros((n, D), x.dtype)
                xb[p[a:b] - first] = x[rows[a:b]]
                ob = None
                if other is not None:
                    ob = np.zeros((n, D), other.dtype)
                    ob[p[a:b] - first] = other[rows[a:b]]
                got, names = self._once(xb, first + np.arange(n), ob, offset=first)
                if any(np.asarray(g).size != n * D for g in got):
                    return got, names  # the shape finding reports it
                if outs is None:
                    outs = [np.empty((T, D), np.asarray(g).dtype) for g in got]
                for w, g in enumerate(got):
                    outs[w][rows[a:b]] = np.asarray(g).reshape(n, D)[p[a:b] - first]
        assert outs is not None
        return tuple(outs), names

    def _once(self, x: np.ndarray, pos: np.ndarray, other: np.ndarray | None = None, offset: int = 0) -> tuple:
        r"""One call of the function: ``(outputs, dtype names)``. NumPy arrays first, then torch tensors; once one
        backend worked it is kept, except that 16-bit inputs a NumPy function refuses are tried on torch too."""
        tries = [self.backend] if self.backend else ["torch", "numpy"] if self.torch_first else ["numpy", "torch"]
        if self.backend == "numpy" and x.dtype.itemsize == 2:
            tries.append("torch")
        errors = []
        for backend in tries:
            torch = _torch() if backend == "torch" else None  # imported only when NumPy arrays did not do
            if backend == "torch" and torch is None:
                continue
            try:
                # the probes go to extreme positions on purpose: the function's own warnings there are noise
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    result = self.fn(*self._args(x, pos, other, torch, offset))
            except Exception as e:  # noqa: BLE001 - the user's code may raise anything
                errors.append((backend, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}".rstrip(": ")))
                continue
            self.backend = self.backend or backend
            outs = tuple(result) if self.call.qk and isinstance(result, (tuple, list)) else (result,)
            if self.call.qk and len(outs) != 2:
                raise AuditCallError(f"{self.describe(x)} must return (q_rotated, k_rotated), got {len(outs)} values")
            self.jax32 = self.jax32 or any(jax_float32(o) for o in outs)
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
