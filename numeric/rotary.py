r"""Rotary position embedding (RoPE; Su et al., RoFormer, arXiv 2104.09864), vectorised, cached, and as mpmath
references.

Pair ``i`` (``i = 0 .. r/2 - 1``, ``r`` the rotary width) of a row at position ``m`` is rotated by the angle
``m theta_i`` with ``theta_i = base**(-2i/r)`` (counter-clockwise: ``(x, y) -> (x cos - y sin, x sin + y cos)``),
or with explicit per-pair inverse frequencies ``inv_freq`` (context-extension rules), and both results are
multiplied by ``attention_factor`` (1 unless given). Two layouts say which channels form pair ``i``:

* ``"interleaved"`` (alias ``"gptj"``): channels ``(2i, 2i + 1)`` (RoFormer, Meta's complex code, GPT-J, and the
  NumPy ``rope`` of "Positional encoding: give tokens a sense of order");
* ``"half"`` (aliases ``"rotate_half"``, ``"neox"``): channels ``(i, i + r/2)`` (GPT-NeoX, Hugging Face
  ``rotate_half``).

Partial rotary (``rotary_dim < width``): the first ``rotary_dim`` channels rotate, the others pass through
unchanged; the pairs are formed inside the rotated part (Hugging Face convention).

They agree when q and k are both permuted by :func:`layout_permutation` (proved in ``rope-layout-permutation``).

Shapes: vectors ``(..., tokens, width)``; positions either ``(tokens,)`` (shared by every leading axis) or one
axis per leading axis of the vectors, each equal or 1 (NumPy broadcasting, e.g. ``(batch, 1, tokens)`` for
vectors ``(batch, heads, tokens, width)``). Positions with more than one but fewer axes than that, such as
Hugging Face ``position_ids`` ``(batch, tokens)`` against ``(batch, heads, tokens, width)``, are refused as
ambiguous, with the fix in the message.

Multi-axis RoPE (M-RoPE, axial 2-D; :mod:`numeric.multiaxis`): with ``axes=``, positions carry a trailing axis of
length ``A`` (``(..., tokens, A)``, one position vector per token) and pair ``i`` turns by ``theta_i p[axes[i]]``.

>>> import numpy as np
>>> rope(np.array([[1.0, 0.0]]), [np.pi / 2]).round(12).tolist()
[[0.0, 1.0]]
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import mpmath
import numpy as np
from mpmath import libmp
from posproof.numeric import _axis_map, _fast, _mp, _validate
from posproof.numeric._deprecated import old_arguments
from posproof.numeric.sinusoid import inverse_frequencies, inverse_frequencies_mp

__all__ = [
    "rope",
    "rope_table",
    "RopeTable",
    "rope_mp",
    "rope_decay_curve",
    "rope_decay_curve_mp",
    "layout_permutation",
    "interleaved_to_half_rows",
]

#: The default frequency base (Vaswani et al.; RoFormer).
DEFAULT_BASE = 10000.0


# ---- validation ------------------------------------------------------------------------------------------------


@functools.cache
def _low_precision_dtypes() -> tuple:
    r"""float16 and, where ``ml_dtypes`` is installed, bfloat16: asked on the first array that is neither float32
    nor float64 (importing ``ml_dtypes`` costs about a second, which every command paid at import before)."""
    out = [np.dtype(np.float16)]
    try:
        import ml_dtypes

        out.append(np.dtype(ml_dtypes.bfloat16))
    except ImportError:  # pragma: no cover - the precision extra is optional
        pass
    return tuple(out)


_NATIVE = (np.dtype(np.float32), np.dtype(np.float64))


def _vectors(value, name: str = "vectors") -> np.ndarray:
    r"""A real floating array ``(..., tokens, width)`` in native byte order; integers become float64."""
    arr = np.asarray(value)
    native = arr.dtype.newbyteorder("=") if arr.dtype.byteorder not in ("=", "|") else arr.dtype
    if native in _NATIVE or native in _low_precision_dtypes():
        if native != arr.dtype:  # e.g. big-endian float64: same numbers, native order
            arr = arr.astype(native)
    elif arr.dtype != bool and np.issubdtype(arr.dtype, np.integer):
        arr = arr.astype(np.float64)
    else:
        raise ValueError(
            f"{name} must be a real array (float16, bfloat16, float32, float64, or integers), got dtype {arr.dtype}"
        )
    if arr.ndim < 2:
        raise ValueError(f"{name} must have shape (..., tokens, width), got shape {arr.shape}")
    return arr


def _positions_fit(pos_shape: tuple, shape: tuple, name: str = "positions") -> None:
    r"""Check that positions of ``pos_shape`` give one position per row of vectors of ``shape``.

    Accepted: ``(tokens,)`` exactly, or one axis per leading axis of the vectors, each equal or 1."""
    lead = shape[:-1]
    if len(pos_shape) == 1:
        ok = pos_shape[0] == lead[-1]
    else:
        ok = len(pos_shape) == len(lead) and all(p in (1, s) for p, s in zip(pos_shape, lead, strict=True))
    if ok:
        return
    msg = f"{name} of shape {pos_shape} do not fit vectors of shape {shape}: "
    if 1 < len(pos_shape) < len(lead):
        msg += (
            f"a {len(pos_shape)}-axis array against {len(lead)} row axes is ambiguous. Give (tokens,) or "
            f"{len(lead)} axes, each equal to the vectors' or 1: e.g. Hugging Face position_ids (batch, tokens) "
            "with vectors (batch, heads, tokens, width) -> position_ids[:, None, :]; with vectors "
            "(batch, tokens, heads, width) -> position_ids[:, :, None]"
        )
    elif len(lead) == 1:
        msg += f"give one position per token: shape ({lead[-1]},)"
    else:
        msg += f"give (tokens,) = ({lead[-1]},), or {len(lead)} axes broadcastable to {lead}"
    raise ValueError(msg)


def _rotary(width: int | None, rotary_dim, inv_freq, base, what: str = "width"):
    r"""``(width, rotary_dim, inv_freq float64 (rotary_dim/2,), base or None)`` from the arguments."""
    if inv_freq is not None:
        if base is not None:
            raise ValueError("give either inv_freq or base: inv_freq overrides the base")
        freq = _validate.finite_array(inv_freq, "inv_freq", ndim=1)
        if freq.size == 0:
            raise ValueError("inv_freq must hold at least one inverse frequency (one per rotary pair)")
        if rotary_dim is not None and rotary_dim != 2 * freq.size:
            raise ValueError(
                f"rotary_dim must be 2 * len(inv_freq) = {2 * freq.size} when both are given, got {rotary_dim!r}"
            )
        if rotary_dim is None and width is not None and 2 * freq.size != width:
            # a short inv_freq must not silently become a partial rotary (nor a long one an error about rotary_dim)
            raise ValueError(
                f"inv_freq must hold {what}/2 = {width // 2} inverse frequencies (one per pair), got {freq.size}; "
                "for a partial rotary give rotary_dim = 2 * len(inv_freq) as well"
            )
        rotary_dim = 2 * freq.size
    if width is None:
        if rotary_dim is None:
            raise ValueError(f"{what} is required (the vectors' last axis), or give inv_freq")
        width = rotary_dim
    width = _validate.even_width(width, what)
    if rotary_dim is None:
        rotary_dim = width
    if not isinstance(rotary_dim, (int, np.integer)) or isinstance(rotary_dim, (bool, np.bool_)):
        raise ValueError(f"rotary_dim must be an even integer in [2, {width}], got {rotary_dim!r}")
    if rotary_dim < 2 or rotary_dim > width or rotary_dim % 2:
        raise ValueError(f"rotary_dim must be an even integer in [2, {width}] (the {what}), got {rotary_dim!r}")
    rotary_dim = int(rotary_dim)
    if inv_freq is None:
        base = DEFAULT_BASE if base is None else _validate.base(base)
        freq = inverse_frequencies(rotary_dim, base=base)
    return width, rotary_dim, freq, (None if base is None else float(base))


def _attention_factor(value) -> float:
    if value is None:
        return 1.0
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"attention_factor must be a finite real number > 0, got {value!r}")
    if not (math.isfinite(float(value)) and value > 0):
        raise ValueError(f"attention_factor must be a finite real number > 0, got {value!r}")
    return float(value)


# ---- pure kernels ------------------------------------------------------------------------------------------------

#: Bytes of one block of x in the kernels (1024 tokens of 128 float32): the block, its tables and the result
#: stay cached between the passes over them and the finite check (measured on 32768 x 128 float32: 256 KiB to
#: 2 MiB are within noise of each other; 128 KiB pays for the per-block overhead, 8 MiB for the cache misses).
_BLOCK_BYTES = 1 << 19


def _blocks(shape: tuple, rows: int):
    r"""Index tuples (of slices) that cover an array of leading ``shape`` in C order, ``<= rows`` rows each
    (at least one), each block C-contiguous in a C-contiguous array."""
    if not shape:
        yield ()
        return
    inner = math.prod(shape[1:])
    if inner <= rows:
        step = max(1, rows // max(inner, 1))
        rest = (slice(None),) * (len(shape) - 1)
        for a in range(0, shape[0], step):
            yield (slice(a, min(shape[0], a + step)),) + rest
    else:
        for a in range(shape[0]):
            for rest_ in _blocks(shape[1:], rows):
                yield (slice(a, a + 1),) + rest_


def _table_index(block: tuple, table_shape: tuple) -> tuple:
    r"""The slices of a (broadcast) table for one block: axes of length 1 are taken whole."""
    return tuple(slice(None) if n == 1 else b for b, n in zip(block, table_shape[:-1], strict=True))


def _first_bad(arr: np.ndarray) -> tuple | None:
    bad = ~np.isfinite(arr)
    return tuple(int(i) for i in np.argwhere(bad)[0]) if bad.any() else None


def _finite(block: np.ndarray) -> bool:
    r"""True if every entry of the (C-contiguous, cached) block is finite: one BLAS dot; inf/NaN propagate into
    it. Only if the dot is not finite (huge finite values overflow it too) are the entries inspected. Call
    under ``np.errstate(over="ignore", invalid="ignore")``."""
    flat = block.reshape(-1)
    return bool(np.isfinite(np.dot(flat, flat))) or bool(np.isfinite(flat).all())


def _raise_not_finite(source: np.ndarray, result: np.ndarray, block: tuple, dtype) -> None:
    where = _first_bad(source)
    offset = tuple(0 if b.start is None else b.start for b in block)
    if where is not None:
        at = tuple(o + w for o, w in zip(offset + (0,), where, strict=True))
        raise ValueError(f"vectors must be finite; got a non-finite value at index {at}")
    where = _first_bad(result)
    assert where is not None
    at = tuple(o + w for o, w in zip(offset + (0,), where, strict=True))
    raise ValueError(
        f"vectors too large for {np.dtype(dtype).name}: the rotated pair at index {at} overflows "
        "(a rotation keeps each pair's length; that length must be representable)"
    )


def _rotate(x: np.ndarray, out: np.ndarray, tables: tuple, layout: str, rotary_dim: int, check: bool) -> None:
    r"""``out = RoPE(x)`` block by block. ``x`` and ``out`` ``(..., tokens, width)`` C-contiguous, float32 or
    float64, either the same array (in place) or not overlapping. ``tables``: for ``"interleaved"`` the complex
    rotor ``(..., tokens, r/2)``; for ``"half"`` ``[cos, cos]`` and ``[sin, -sin]`` ``(..., tokens, r)``; their
    leading axes have the vectors' number of axes, each equal or 1.

    Each block of x is read into the cache once; in place, it is first copied to a small buffer, so every
    output is computed from the input. The finite check looks at each result block while it is cached (NaN
    and inf in the input reach the output); if it fails, the input block says which it was."""
    lead, width = x.shape[:-1], x.shape[-1]
    r, h = rotary_dim, rotary_dim // 2
    inplace = x is out or (x.__array_interface__["data"][0] == out.__array_interface__["data"][0])
    rows = max(1, _BLOCK_BYTES // (width * x.itemsize))
    block_rows = min(rows, math.prod(lead))
    buf = np.empty(block_rows * width if inplace else 0, dtype=x.dtype)  # the input block, when in place
    tmp = np.empty(block_rows * r if layout == "half" else 0, dtype=x.dtype)  # the half layout's products
    complex_dtype = np.complex128 if x.dtype == np.float64 else np.complex64
    tables = tuple(t.reshape((1,) * (len(lead) + 1 - t.ndim) + t.shape) for t in tables)  # one axis per lead axis
    fused = len(tables) == (3 if layout == "interleaved" else 4)  # the compiled kernel's (cos, sin) come last
    for block in _blocks(lead, rows):
        xb, ob = x[block], out[block]
        if inplace:
            src = buf[: xb.size].reshape(xb.shape)
            np.copyto(src, xb)
        else:
            src = xb
        finite = None
        if fused:  # one compiled pass that also checks the outputs (numeric/_fast.py); None if it declines
            c, s = (t[_table_index(block, t.shape)] for t in tables[-2:])
            finite = _fast.rotate_block(src, c, s, ob, layout == "half")
        if finite is not None:
            if check and not finite:
                if inplace:
                    np.copyto(xb, src)  # leave the offending block as it was
                _raise_not_finite(src, ob, block, x.dtype)
            continue
        if layout == "interleaved":
            rotor = tables[0]
            tb = rotor[_table_index(block, rotor.shape)]
            np.multiply(src[..., :r].view(complex_dtype), tb, out=ob[..., :r].view(complex_dtype))
        else:
            cos2, sin2 = tables[:2]
            ti = _table_index(block, cos2.shape)
            ob_r, src_r = ob[..., :r], src[..., :r]
            t = tmp[: src_r.size].reshape(src_r.shape)
            np.multiply(src_r, cos2[ti], out=ob_r)  # [x1 cos, x2 cos]
            np.multiply(src_r, sin2[ti], out=t)  # [x1 sin, -x2 sin]
            split = ob_r.shape[:-1] + (2, h)
            o3 = ob_r.reshape(split)
            np.add(o3, t.reshape(split)[..., ::-1, :], out=o3)  # + [-x2 sin, x1 sin]
        if r < width and not inplace:
            np.copyto(ob[..., r:], src[..., r:])  # channels past rotary_dim pass through
        if check and not _finite(ob):
            if inplace:
                np.copyto(xb, src)  # leave the offending block as it was
            _raise_not_finite(src, ob, block, x.dtype)


# ---- the cached table ------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class RopeTable:
    r"""cos/sin of ``m theta_i`` for fixed positions, computed once in float64 (times ``attention_factor``).

    :meth:`apply` rotates any array ``(..., tokens, width)`` whose rows sit at these positions; float32 and
    float64 inputs are rotated in their own precision, float16/bfloat16 in float32 and rounded once at the end.
    ``base`` is ``None`` when explicit ``inv_freq`` were given."""

    positions: np.ndarray  # (..., tokens) float64
    width: int
    base: float | None
    layout: str
    cos: np.ndarray  # (..., tokens, r/2) float64: attention_factor * cos(m theta_i)
    sin: np.ndarray  # (..., tokens, r/2) float64: attention_factor * sin(m theta_i)
    rotary_dim: int = 0  # r: channels rotated (0 = width)
    inv_freq: np.ndarray | None = None  # (r/2,) float64 theta_i
    attention_factor: float = 1.0
    _cast: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        if not self.rotary_dim:
            object.__setattr__(self, "rotary_dim", self.width)

    def _tables(self, dtype: np.dtype) -> tuple:
        r"""The tables in the working dtype, built once per dtype (then cached)."""
        if dtype not in self._cast:
            if self.layout == "interleaved":
                rotor = np.empty(self.cos.shape, dtype=np.complex128 if dtype == np.float64 else np.complex64)
                rotor.real, rotor.imag = self.cos, self.sin  # e^{i m theta_i}
                self._cast[dtype] = (rotor, *self._fused(dtype))
            else:
                cos2 = np.concatenate([self.cos, self.cos], axis=-1).astype(dtype)  # (..., tokens, r)
                sin2 = np.concatenate([self.sin, -self.sin], axis=-1).astype(dtype)
                self._cast[dtype] = (cos2, sin2, *self._fused(dtype))
        return self._cast[dtype]

    def _fused(self, dtype: np.dtype) -> tuple:
        r"""The compiled kernel's tables, cos and sin ``(..., tokens, r/2)`` in ``dtype``, when numba is there."""
        if not _fast.ENABLED:
            return ()
        return (np.ascontiguousarray(self.cos, dtype=dtype), np.ascontiguousarray(self.sin, dtype=dtype))

    @old_arguments(positional=("self", "vectors", "out", "check_finite"))
    def apply(self, vectors, *, out=None, check_finite: bool = True) -> np.ndarray:
        r"""Rotate ``vectors`` ``(..., tokens, width)``: the same result as :func:`rope`.

        The result has the input's dtype (float16, bfloat16, float32, float64; integers give float64). ``out``:
        a writable array of the result's shape and dtype; it may be ``vectors`` itself (rotation in place) or
        overlap it (the input is then copied first). With ``check_finite`` (default) NaN or inf in the input,
        or a pair too long for the dtype, raise ``ValueError``; ``out`` may then be partly written."""
        x = _vectors(vectors)
        if x.shape[-1] != self.width:
            raise ValueError(f"vectors must have width {self.width} (the table's), got shape {x.shape}")
        _positions_fit(self.positions.shape, x.shape)
        result_dtype = x.dtype
        if out is None:
            out = np.empty(x.shape, dtype=result_dtype)
        elif not isinstance(out, np.ndarray):
            raise ValueError(f"out must be a NumPy array of shape {x.shape} and dtype {result_dtype}, got {type(out)}")
        elif out.shape != x.shape or out.dtype.newbyteorder("=") != result_dtype.newbyteorder("="):
            raise ValueError(
                f"out must have the result's shape {x.shape} and dtype {result_dtype}, got {out.shape} {out.dtype}"
            )
        elif not out.flags.writeable:
            raise ValueError("out must be writable")
        if x.size == 0:
            return out
        work = np.dtype(np.float64 if x.dtype == np.float64 else np.float32)
        direct = out.dtype == work and out.dtype.isnative and out.flags.c_contiguous  # write straight into out
        private = False  # x is our own copy (free to overwrite)
        if x.dtype != work or not x.flags.c_contiguous:
            x, private = np.ascontiguousarray(x, dtype=work), True
        elif direct and np.may_share_memory(x, out):
            same = x.__array_interface__["data"][0] == out.__array_interface__["data"][0] and x.strides == out.strides
            if not same:  # partial overlap: read the whole input before anything is written
                x, private = x.copy(), True
        target = out if direct else (x if private else np.empty(x.shape, dtype=work))
        with np.errstate(invalid="ignore", over="ignore"):  # non-finite results are reported by the check
            _rotate(x, target, self._tables(work), self.layout, self.rotary_dim, check_finite)
        if target is not out:
            out[...] = target
        return out


@old_arguments(positional=("positions", "width", "base", "layout"), renamed={"head_dim": "width", "rope_theta": "base"})
def rope_table(
    positions,
    *,
    width: int | None = None,
    base: float | None = None,
    layout: str = "interleaved",
    inv_freq=None,
    attention_factor: float | None = None,
    rotary_dim: int | None = None,
    axes=None,
) -> RopeTable:
    r"""Build the cos/sin table of ``positions`` (``(tokens,)`` or ``(..., tokens)``) once, from float64 angles
    ``m theta_i``; with ``axes`` (one axis per rotated pair), of position vectors ``(..., tokens, A)``, angles
    ``theta_i p[axes[i]]`` (the table's ``positions`` are then the token indices).

    ``width`` (``head_dim`` in model configurations): the vectors' last axis; ``base`` (``rope_theta``, default
    10000) or
    ``inv_freq`` (float64 ``(rotary_dim/2,)``, overriding the base); ``attention_factor`` multiplies cos and sin;
    ``rotary_dim`` (default ``width``): the leading channels that rotate; ``inv_freq`` of another length than
    ``width/2`` raises unless ``rotary_dim = 2 * len(inv_freq)`` is given too (no silent partial rotary).

    >>> import numpy as np
    >>> t = rope_table([0, 1, 2], width=4)
    >>> x = np.ones((3, 4), dtype=np.float32)
    >>> bool(np.allclose(t.apply(x), rope(x, [0, 1, 2]), atol=1e-6))
    True
    """
    pos = _validate.positions(positions, one_d=False) if axes is None else _axis_map.position_vectors(positions)
    width, rotary_dim, theta, base = _rotary(width, rotary_dim, inv_freq, base)
    layout = _validate.layout(layout)
    af = _attention_factor(attention_factor)
    if axes is not None:
        return _axis_table(pos, width, base, layout, af, rotary_dim, theta, axes)
    angles = pos[..., None] * theta  # (..., tokens, r/2): m theta_i, float64
    cos, sin = np.cos(angles), np.sin(angles)
    if af != 1.0:
        cos *= af
        sin *= af
    return RopeTable(pos, width, base, layout, cos, sin, rotary_dim, theta, af)


def _axis_table(vec: np.ndarray, width: int, base, layout: str, af: float, rotary_dim: int, theta, axes) -> RopeTable:
    r"""The table of position vectors ``vec`` ``(..., tokens, A)``: pair ``i`` at ``theta_i vec[..., axes[i]]``."""
    angles = _axis_map.angles(vec, theta, axes)  # (..., tokens, r/2)
    index = np.broadcast_to(np.arange(angles.shape[-2], dtype=np.float64), angles.shape[:-1])  # (..., tokens)
    return RopeTable(index, width, base, layout, af * np.cos(angles), af * np.sin(angles), rotary_dim, theta, af)


@old_arguments(positional=("vectors", "positions", "base", "layout"), renamed={"rope_theta": "base"})
def rope(
    vectors,
    positions,
    *,
    base: float | None = None,
    layout: str = "interleaved",
    inv_freq=None,
    attention_factor: float | None = None,
    rotary_dim: int | None = None,
    axes=None,
) -> np.ndarray:
    r"""Rotate ``vectors`` ``(..., tokens, width)`` by their ``positions`` (``(tokens,)`` shared by the leading
    axes, or one axis per leading axis, each equal or 1: see the module docstring).

    Multi-axis (M-RoPE, axial 2-D): ``axes`` gives the axis that turns each rotated pair (``rotary_dim/2`` integers
    in ``[0, A - 1]``, e.g. :func:`~posproof.numeric.multiaxis.mrope_axes`) and ``positions`` carry a trailing axis
    of length ``A``: ``(..., tokens, A)``, one position vector per token; pair ``i`` turns by ``theta_i p[axes[i]]``
    (the kernel of :func:`~posproof.numeric.multiaxis.rope_multiaxis`).

    Same meaning as the ``rope(vectors, positions, base)`` of "Positional encoding: give tokens a sense of
    order" for ``layout="interleaved"``; ``"half"`` pairs channel ``i`` with ``i + r/2``. ``base``
    (``rope_theta`` in model configurations, default 10000) or ``inv_freq``, ``attention_factor`` and
    ``rotary_dim`` as in :func:`rope_table`. Angles are float64; floating inputs keep their dtype
    (float16/bfloat16 are rotated in float32 and rounded once), integer inputs give float64.

    >>> rope([[1.0, 0.0, 1.0, 0.0]], [1], layout="interleaved").round(4).tolist()
    [[0.5403, 0.8415, 1.0, 0.01]]
    >>> rope([[1.0, 1.0, 0.0, 0.0]], [1], layout="half").round(4).tolist()
    [[0.5403, 1.0, 0.8415, 0.01]]
    >>> rope([[1.0, 1.0, 0.0, 0.0]], [[1, 2]], layout="half", axes=[0, 1]).round(4).tolist()  # p = (1, 2)
    [[0.5403, 0.9998, 0.8415, 0.02]]
    """
    x = _vectors(vectors)
    width = x.shape[-1]
    if width == 0 or width % 2:
        raise ValueError(f"vectors must have an even width (last axis) >= 2, got shape {x.shape}")
    layout = _validate.layout(layout)
    if axes is None:
        pos = _validate.positions(positions, one_d=False)
        _positions_fit(pos.shape, x.shape)
    else:  # position vectors (..., tokens, A): the leading shape must fit the vectors' rows
        pos = _axis_map.position_vectors(positions)
        _positions_fit(pos.shape[:-1], x.shape, "positions without their trailing axis (of length A)")
    table = rope_table(
        pos,
        width=width,
        base=base,
        layout=layout,
        inv_freq=inv_freq,
        attention_factor=attention_factor,
        rotary_dim=rotary_dim,
        axes=axes,
    )
    return table.apply(x)


# ---- layouts -------------------------------------------------------------------------------------------------------


def layout_permutation(width: int) -> np.ndarray:
    r"""Channel permutation ``P`` from interleaved to half layout: ``x_half = x_interleaved[..., P]``.

    ``(P x)_i = x_{2i}``, ``(P x)_{i + d/2} = x_{2i+1}``; then ``rope(x[..., P], layout="half") ==
    rope(x, layout="interleaved")[..., P]``, so scores are equal when q and k are both permuted.

    >>> layout_permutation(6).tolist()
    [0, 2, 4, 1, 3, 5]
    """
    width = _validate.even_width(width, "width")
    return np.concatenate([np.arange(0, width, 2), np.arange(1, width, 2)])


@old_arguments(positional=("weight",), renamed={"head_dim": "width"})
def interleaved_to_half_rows(weight, *, width: int, axis: int = 0) -> np.ndarray:
    r"""Permute a q or k projection head by head so that a half-layout kernel computes the interleaved model's
    scores.

    ``width``: the per-head width (``head_dim`` in model configurations). ``axis``: the output-feature axis,
    ``0`` for PyTorch ``nn.Linear.weight`` ``(heads * width, in)`` (the default) and for biases, ``-1`` for
    ``(in, heads * width)`` kernels (JAX/Flax, ``x @ W``). Its length must be a multiple of ``width``;
    under grouped-query attention the key projection has ``kv_heads * width`` features, and the same
    ``width`` gives the right permutation.

    >>> interleaved_to_half_rows(np.arange(8), width=4).tolist()
    [0, 2, 1, 3, 4, 6, 5, 7]
    """
    w = np.asarray(weight)
    width = _validate.even_width(width)
    if w.ndim == 0:
        raise ValueError(f"weight must have at least one axis, got shape {w.shape}")
    if isinstance(axis, (bool, np.bool_)) or not isinstance(axis, (int, np.integer)) or not -w.ndim <= axis < w.ndim:
        raise ValueError(f"axis must be an integer in [{-w.ndim}, {w.ndim - 1}] for weight of shape {w.shape}")
    n = w.shape[axis]
    if n % width:
        raise ValueError(
            f"weight axis {axis} (length {n}) must be a multiple of width={width} (the head width): "
            "is axis the output-feature axis (0 for nn.Linear weights, -1 for (in, out) kernels)?"
        )
    perm = layout_permutation(width)
    index = (np.arange(n // width)[:, None] * width + perm[None, :]).reshape(-1)
    return np.take(w, index, axis=axis)


# ---- mpmath references -----------------------------------------------------------------------------------------


def _cos_sin_mp(w: _mp.Working, positions: np.ndarray, theta: list, factor) -> tuple:
    r"""``factor * cos(m theta_i)`` and ``factor * sin(m theta_i)`` for each position (object arrays
    ``positions.shape + (r/2,)``), computed once per distinct position."""
    rows = positions.reshape(-1).tolist()
    index = {p: k for k, p in enumerate(dict.fromkeys(rows))}
    unique = np.empty(len(index), dtype=object)
    unique[:] = list(index)
    keys = np.fromiter((index[p] for p in rows), dtype=np.int64, count=len(rows))
    th = np.empty(len(theta), dtype=object)
    th[:] = theta
    cos, sin = w.cos_sin(unique[:, None] * th[None, :])  # (distinct positions, r/2): of m theta_i, rounded once
    if factor is not None:
        cos, sin = cos * factor, sin * factor
    shape = positions.shape + (len(theta),)
    return cos[keys].reshape(shape), sin[keys].reshape(shape)


def _cos_sin_axes_mp(w: _mp.Working, vectors: np.ndarray, theta: list, factor, axes: np.ndarray) -> tuple:
    r"""``factor * cos(theta_i p[axes[i]])`` and ``factor * sin(...)`` for position vectors ``vectors``
    ``(rows, A)`` (object arrays ``(rows, r/2)``), computed once per distinct position vector."""
    rows = [tuple(v) for v in vectors.tolist()]
    index = {p: k for k, p in enumerate(dict.fromkeys(rows))}
    unique = np.empty((len(index), vectors.shape[-1]), dtype=object)  # (distinct vectors, A)
    for k, p in enumerate(index):
        unique[k, :] = p
    keys = np.fromiter((index[p] for p in rows), dtype=np.int64, count=len(rows))
    th = np.empty(len(theta), dtype=object)
    th[:] = theta
    cos, sin = w.cos_sin(unique[:, axes] * th[None, :])  # (distinct vectors, r/2): theta_i p[a(i)], rounded once
    if factor is not None:
        cos, sin = cos * factor, sin * factor
    return cos[keys], sin[keys]


@old_arguments(positional=("vectors", "positions", "base", "layout", "dps"), renamed={"rope_theta": "base"})
def rope_mp(
    vectors,
    positions,
    *,
    base=None,
    layout: str = "interleaved",
    dps: int = 50,
    inv_freq=None,
    attention_factor=None,
    rotary_dim: int | None = None,
    axes=None,
) -> list:
    r"""The rotation at ``dps`` digits (mpmath), either layout: nested lists of ``mpf`` of the vectors' shape.

    The same arguments, shapes and rules as :func:`rope`: ``vectors`` ``(..., tokens, width)`` (nested sequences
    or an array; strings are read by mpmath at ``dps`` digits), ``positions`` ``(tokens,)`` or one axis per
    leading axis; ``base`` (default 10000, taken exactly) or ``inv_freq``;
    ``attention_factor``; ``rotary_dim``; ``axes`` (multi-axis: positions ``(..., tokens, A)``, pair ``i`` turns by
    ``theta_i p[axes[i]]``). Each product and sum is rounded to the working precision.

    >>> [[round(float(v), 4) for v in row] for row in rope_mp([[1, 1, 0, 0]], [[1, 2]], layout="half", axes=[0, 1])]
    [[0.5403, 0.9998, 0.8415, 0.02]]
    """
    layout = _validate.layout(layout)
    dps = _validate.dps(dps)
    x = _mp.object_array(vectors, "vectors", 2, "(..., tokens, width)")
    if axes is None:
        pos = _mp.object_array(positions, "positions", 1, "(tokens,) or (..., tokens)")
        _positions_fit(pos.shape, x.shape)
    else:  # position vectors (..., tokens, A): the leading shape must fit the vectors' rows
        pos = _mp.object_array(positions, "positions", 0, "(..., tokens, A)")
        _axis_map.vector_shape(pos.shape)
        _positions_fit(pos.shape[:-1], x.shape, "positions without their trailing axis (of length A)")
    width = x.shape[-1]
    if width == 0 or width % 2:
        raise ValueError(f"vectors must have an even width (last axis) >= 2, got shape {x.shape}")
    if inv_freq is not None and base is not None:
        raise ValueError("give either inv_freq or base: inv_freq overrides the base")
    freq = None if inv_freq is None else _mp.object_array(inv_freq, "inv_freq", 1, "(rotary_dim/2,)")
    if freq is not None and (freq.ndim != 1 or freq.size == 0):
        raise ValueError(f"inv_freq must be 1-D with one entry per rotary pair, got shape {freq.shape}")
    _, r, _, _ = _rotary(width, rotary_dim, None if freq is None else np.ones(freq.size), None)
    ax = None if axes is None else _axis_map.axis_map(axes, r // 2, pos.shape[-1])  # (r/2,)
    theta_mp = (
        [] if freq is not None else inverse_frequencies_mp(r, base=DEFAULT_BASE if base is None else base, dps=dps)
    )
    with _mp.working(dps) as w:
        if freq is not None:
            theta = list(w.numbers(freq, "inv_freq"))
        else:
            theta = [w.number(t._mpf_) for t in theta_mp]
        factor = None
        if attention_factor is not None:
            raw = _mp.raw(attention_factor, w.prec)
            if raw[0] or raw == libmp.fzero:
                raise ValueError(f"attention_factor must be a finite real number > 0, got {attention_factor!r}")
            factor = w.number(raw)
        lead = x.shape[:-1]
        X = w.numbers(x.reshape(-1, width), "vectors")  # (rows, width)
        if ax is None:
            pos_full = np.broadcast_to(pos.reshape((1,) * (len(lead) - pos.ndim) + pos.shape), lead)
            P = w.numbers(np.asarray(pos_full).reshape(-1), "positions")  # (rows,)
            cos, sin = _cos_sin_mp(w, P, theta, factor)  # (rows, r/2)
        else:
            A = pos.shape[-1]
            pos_full = np.broadcast_to(pos.reshape((1,) * (len(lead) + 1 - pos.ndim) + pos.shape), lead + (A,))
            P = w.numbers(np.asarray(pos_full).reshape(-1, A), "positions")  # (rows, A)
            cos, sin = _cos_sin_axes_mp(w, P, theta, factor, ax)  # (rows, r/2)
        h = r // 2
        out = X.copy()
        if layout == "interleaved":  # views of the pairs (2i, 2i + 1)
            Xa, Xb, Oa, Ob = X[:, 0:r:2], X[:, 1:r:2], out[:, 0:r:2], out[:, 1:r:2]
        else:  # (i, i + r/2)
            Xa, Xb, Oa, Ob = X[:, :h], X[:, h:r], out[:, :h], out[:, h:r]
        Oa[...] = Xa * cos - Xb * sin  # object arrays: each product and sum rounded to the working precision
        Ob[...] = Xa * sin + Xb * cos
        return w.to_mpf(out).reshape(x.shape).tolist()


# ---- long-term decay -------------------------------------------------------------------------------------------


@old_arguments(positional=("width", "distances", "base"), renamed={"d": "width"})
def rope_decay_curve(distances, *, width: int, base: float = 10000.0) -> np.ndarray:
    r"""RoFormer's decay curve ``(1/(d/2)) sum_{j=1}^{d/2} |S_j|``, ``S_j = sum_{l<j} e^{i r theta_l}``, at each
    relative distance ``r`` (float64, shape of ``distances``; ``d`` the rotary ``width``). It is the curve RoFormer
    plots for its long-term decay; ``rope-decay-curve-not-a-bound`` shows that it is not itself a bound of the score
    (hence "curve"; formerly ``rope_decay_bound``).

    >>> rope_decay_curve([0], width=128).tolist()
    [32.5]
    """
    d = _validate.even_width(width)
    arr = np.asarray(distances)
    r = _validate.positions(np.atleast_1d(arr), "distances", one_d=False)
    theta = inverse_frequencies(d, base=base)  # (d/2,)
    flat = r.reshape(-1)
    out = np.empty(flat.shape, dtype=np.float64)
    chunk = max(1, 2**20 // max(1, d))
    for s in range(0, flat.size, chunk):
        angles = flat[s : s + chunk, None] * theta  # (chunk, d/2): r theta_l
        partial = np.cumsum(np.exp(1j * angles), axis=1)  # S_1 .. S_{d/2}
        out[s : s + chunk] = np.abs(partial).mean(axis=1)
    return out.reshape(arr.shape)  # a scalar distance gives a 0-d array


@old_arguments(positional=("width", "distances", "base", "dps"), renamed={"d": "width"})
def rope_decay_curve_mp(distances, *, width: int, base=10000, dps: int = 30):
    r"""The same curve with mpmath at ``dps`` digits: an ``mpf`` for a scalar distance, else nested lists of the
    shape of ``distances``."""
    d = _validate.even_width(width)
    dps = _validate.dps(dps)
    arr = np.array(distances, dtype=object)
    theta = inverse_frequencies_mp(d, base=base, dps=dps)
    out = np.empty(arr.shape, dtype=object)
    with mpmath.workdps(dps):
        prec = mpmath.mp.prec
        for idx in np.ndindex(arr.shape):
            r = mpmath.mp.make_mpf(_mp.raw(arr[idx], prec))
            acc, total = mpmath.mpc(0), mpmath.mpf(0)
            for t in theta:
                acc += mpmath.expj(r * t)
                total += abs(acc)
            out[idx] = total / (d // 2)
    return out[()] if arr.ndim == 0 else out.tolist()
