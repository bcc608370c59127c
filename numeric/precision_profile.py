r"""The RoPE precision profile: how the score error grows with position, one measure for every dtype and angle style.

The measure. A query ``q`` at position ``m`` and a key ``k`` at ``m + r`` are rotated by the implementation under
test; their score ``s(m, m + r)`` is compared with the exact score ``s_ref(r)`` (mpmath, 30 digits; RoPE scores
depend only on ``r``), relative to the norms of the inputs:

``e(m) = max_r |s(m, m + r) - s_ref(r)| / (|q| |k|)``,  ``r`` in :data:`DISTANCES`.

It is reported at :data:`PROFILE_POSITIONS` (1k, 4k, 32k, 128k, 1M) together with the first position where it
exceeds a tolerance (:data:`DEFAULT_TOLERANCE` unless given): positions are scanned on a grid of
:data:`PER_OCTAVE` points per octave, then every integer of the bracket before the first grid point that exceeds
is scanned, from the bottom up, stopping at the first that exceeds (an error that exceeds only between two grid
points further down is not seen). A bracket wider than :data:`DENSE` integers (past ~1.5M) is first narrowed on
grids of :data:`SUBGRID` evenly spaced positions, the same way (a narrower window than their spacing can be
missed there too): a scan measures at most ``16 log2(max_position) + 3 SUBGRID + DENSE`` positions, ~80k up to
``2**52``.

The same measure serves the audit of a user's function (:func:`function_profile`) and the table of textbook angle
styles (:func:`profile_table`), where the rotation is simulated in a storage ``dtype`` with angles built in one of
:data:`STYLES`:

* ``"float64-angles"``: ``m theta_i``, cos and sin in float64, cast to the dtype (reference code);
* ``"float32-angles"``: positions, ``theta_i``, their product, cos and sin in float32, cast to the dtype (the
  Hugging Face Llama rotary: a float32 cos/sin cache);
* ``"storage-angles"``: positions, ``theta_i`` and the product rounded to the storage dtype itself (the bug class
  "frequencies or positions in bfloat16/float16").

Interleaved layout, products and sums rounded to the storage dtype as an eager framework does.

>>> rows = profile_table(width=8, positions=(1024,), dtypes=("float64",), styles=("float64-angles",))
>>> rows[0].profile.errors[0][1] < 1e-12, rows[0].profile.first_exceeding
(True, None)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
from posproof.numeric import _validate
from posproof.numeric.rotary import rope_mp
from posproof.numeric.sinusoid import inverse_frequencies, inverse_frequencies_mp
from posproof.numeric.tolerances import PROFILE_PRINT_FLOOR, PROFILE_REFERENCE_DPS, PROFILE_TOLERANCE

__all__ = [
    "DTYPES",
    "STYLES",
    "PROFILE_POSITIONS",
    "DISTANCES",
    "DEFAULT_TOLERANCE",
    "ScoreProbe",
    "make_probe",
    "score_errors",
    "first_exceeding",
    "Profile",
    "function_profile",
    "simulated_rotation",
    "ProfileRow",
    "error_cell",
    "table_rows",
    "profile_table",
    "format_profile_table",
]

DTYPES = ("float64", "float32", "float16", "bfloat16")
STYLES = ("float64-angles", "float32-angles", "storage-angles")
#: Query positions of the profile: 1k, 4k, 32k, 128k and 1M (the context lengths people train and extend to).
PROFILE_POSITIONS = (1024, 4096, 32768, 131072, 1048576)
#: Relative distances ``r`` between query and key: short, medium and long range.
DISTANCES = (1, 10, 100, 1000)
DEFAULT_TOLERANCE = PROFILE_TOLERANCE
#: Grid points per octave of the coarse scan for the first exceeding position (4.4 % apart).
PER_OCTAVE = 16
#: Cells (rows x width) per call of the function under test during the scans: 8192 rows at width 128, fewer for
#: wider heads (memory stays ~ 8 MiB per float64 array, whatever the width).
CHUNK = 8192 * 128
#: The widest bracket scanned integer by integer: 2**16, above the bracket at 1M (2**20 / 16 per octave: ~46k), so
#: the profile's own positions keep the exhaustive scan.
DENSE = 2**16
#: Positions of each grid that narrows a wider bracket (3 of them take the bracket at 2**52, ~2e14 wide, below
#: :data:`DENSE`).
SUBGRID = 4096
REFERENCE_DPS = PROFILE_REFERENCE_DPS

#: A rotation under test: ``rotate(x, positions)`` with ``x`` ``(tokens, width)`` and integer positions
#: ``(tokens,)``; returns ``(tokens, width)`` (any real dtype).
Rotate = Callable[[np.ndarray, np.ndarray], np.ndarray]


def dtype_of(name: str) -> np.dtype:
    r"""The NumPy dtype for one of :data:`DTYPES` (bfloat16 from ``ml_dtypes``)."""
    if name not in DTYPES:
        raise ValueError(f"dtype must be one of {', '.join(DTYPES)}, got {name!r}")
    if name == "bfloat16":
        try:
            import ml_dtypes
        except ImportError:  # pragma: no cover
            raise ValueError("dtype 'bfloat16' needs ml_dtypes (pip install 'posproof[precision]')") from None
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


@dataclass(frozen=True, eq=False)
class ScoreProbe:
    r"""A fixed query/key pair and the exact scores it must give: ``q``, ``k`` float64 ``(width,)`` (exactly
    representable in ``dtype``), ``distances`` ``r``, ``reference`` the exact ``s_ref(r)`` rounded to float64."""

    q: np.ndarray  # (width,)
    k: np.ndarray  # (width,)
    dtype: str
    distances: tuple[int, ...]
    reference: np.ndarray  # (len(distances),)

    @property
    def scale(self) -> float:
        return float(np.linalg.norm(self.q) * np.linalg.norm(self.k))


def make_probe(
    width: int,
    *,
    dtype: str = "float32",
    layout: str = "interleaved",
    base: float = 10000.0,
    inv_freq=None,
    attention_factor: float | None = None,
    rotary_dim: int | None = None,
    distances: Sequence[int] = DISTANCES,
    seed: int = 0,
) -> ScoreProbe:
    r"""A seeded probe for a RoPE model (layout, ``base`` or ``inv_freq``, attention factor, rotary width)."""
    width = _validate.even_width(width)
    dt = dtype_of(dtype)
    rng = np.random.default_rng(seed)
    q = rng.uniform(-1, 1, width).astype(dt).astype(np.float64)  # exactly representable in dtype
    k = rng.uniform(-1, 1, width).astype(dt).astype(np.float64)
    dist = tuple(int(r) for r in distances)
    kw: dict[str, Any] = dict(
        layout=layout, dps=REFERENCE_DPS, attention_factor=attention_factor, rotary_dim=rotary_dim
    )
    kw.update({"inv_freq": inv_freq} if inv_freq is not None else {"base": base})
    qr = rope_mp([q.tolist()], [0], **kw)[0]
    ref = []
    with mpmath.workdps(REFERENCE_DPS):
        for r in dist:
            kr = rope_mp([k.tolist()], [r], **kw)[0]
            ref.append(float(mpmath.fsum(a * b for a, b in zip(qr, kr, strict=True))))
    return ScoreProbe(q, k, dtype, dist, np.array(ref))


def score_errors(rotate: Rotate, probe: ScoreProbe, positions, *, exact: bool = False) -> np.ndarray:
    r"""``e(m)`` at each query position ``m`` (float64 ``(positions,)``): one call per :data:`CHUNK` rows.

    ``exact=True`` sums each score exactly rounded (``math.fsum``, 3x slower): a SIMD reduction's order, hence
    its last bits, depends on the CPU (the figures use it)."""
    m = np.asarray(positions, dtype=np.int64).reshape(-1)  # (P,)
    dt = dtype_of(probe.dtype)
    out = np.empty(m.shape)
    R = len(probe.distances)
    step = max(1, CHUNK // (probe.q.size * (1 + R)))
    for s in range(0, m.size, step):
        mb = m[s : s + step]  # (p,)
        pos = np.concatenate([mb] + [mb + r for r in probe.distances])  # (p (1 + R),)
        x = np.concatenate([np.broadcast_to(probe.q, (mb.size, probe.q.size))] + [
            np.broadcast_to(probe.k, (mb.size, probe.k.size))
        ] * R).astype(dt)  # fmt: skip
        y = np.asarray(rotate(x, pos)).astype(np.float64).reshape(1 + R, mb.size, -1)  # (1 + R, p, width)
        with np.errstate(invalid="ignore", over="ignore"):
            if exact:
                products = (y[0][None, :, :] * y[1:]).tolist()  # (R, p, width): each product rounded once
                scores = np.array([[math.fsum(row) for row in per_r] for per_r in products]).reshape(R, -1)
            else:
                scores = np.einsum("pd,rpd->rp", y[0], y[1:])  # (R, p)
            err = np.abs(scores - probe.reference[:, None]) / probe.scale
        err = np.where(np.isfinite(err), err, np.inf)  # NaN/inf (e.g. float16 angles overflowing) count as broken
        out[s : s + step] = err.max(axis=0)
    return out


def _grid(max_position: int) -> np.ndarray:
    r"""Positions ``0, 1, ...`` then ``PER_OCTAVE`` per octave up to ``max_position`` (inclusive), as int64."""
    top = math.log2(max(max_position, 2))
    g = np.unique(np.round(2.0 ** (np.arange(0, top * PER_OCTAVE + 1) / PER_OCTAVE)).astype(np.int64))
    return np.unique(np.concatenate([[0], g[g <= max_position], [max_position]]))


def _first_over(rotate: Rotate, probe: ScoreProbe, tolerance: float, positions: np.ndarray) -> int | None:
    r"""The index of the first of ``positions`` with ``e(m) > tolerance``, or ``None``: the positions are measured
    a chunk at a time, bottom up, and the scan stops at the first chunk that holds one."""
    step = max(1, CHUNK // probe.q.size)
    for a in range(0, positions.size, step):
        over = np.flatnonzero(score_errors(rotate, probe, positions[a : a + step]) > tolerance)
        if over.size:
            return a + int(over[0])
    return None


def first_exceeding(rotate: Rotate, probe: ScoreProbe, tolerance: float, max_position: int) -> int | None:
    r"""The first query position ``m <= max_position`` with ``e(m) > tolerance`` (coarse grid, then every integer
    of the bracket, narrowed first by :data:`SUBGRID`-point grids when it is wider than :data:`DENSE`), or
    ``None``."""
    grid = _grid(max_position)
    j = _first_over(rotate, probe, tolerance, grid)
    if j is None:
        return None
    if j == 0:
        return int(grid[0])
    lo, hi = int(grid[j - 1]) + 1, int(grid[j])  # e(hi) > tolerance; the first such position is in [lo, hi]
    while hi - lo + 1 > DENSE:
        sub = np.unique(np.linspace(lo, hi, SUBGRID).round().astype(np.int64))  # (SUBGRID,): lo .. hi
        k = _first_over(rotate, probe, tolerance, sub)
        if k is None:  # not again at hi (the last bit of a reduction): keep the bracket's top
            return hi
        if k == 0:
            return int(sub[0])
        lo, hi = int(sub[k - 1]) + 1, int(sub[k])
    dense = np.arange(lo, hi + 1, dtype=np.int64)
    k = _first_over(rotate, probe, tolerance, dense)
    return hi if k is None else int(dense[k])


@dataclass(frozen=True)
class Profile:
    r"""``errors``: ``(position, e(position))`` at each profile position; ``first_exceeding``: the first position
    ``<= max_position`` whose error exceeds ``tolerance`` (``None``: none)."""

    errors: tuple[tuple[int, float], ...]
    tolerance: float
    first_exceeding: int | None
    max_position: int
    input_dtype: str

    def as_dict(self) -> dict:
        return {
            "measure": "max_r |s(m, m+r) - s_ref(r)| / (|q||k|), r in " + ", ".join(map(str, DISTANCES)),
            "input_dtype": self.input_dtype,
            "errors": {str(m): e for m, e in self.errors},
            "tolerance": self.tolerance,
            "first_exceeding": self.first_exceeding,
            "max_position": self.max_position,
        }


def _tolerance(value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (0 < float(value) < math.inf):
        raise ValueError(f"tolerance must be a finite real number > 0, got {value!r}")
    return float(value)


def function_profile(
    rotate: Rotate,
    probe: ScoreProbe,
    *,
    positions: Sequence[int] = PROFILE_POSITIONS,
    tolerance: float = DEFAULT_TOLERANCE,
    max_position: int = PROFILE_POSITIONS[-1],
) -> Profile:
    r"""The profile of ``rotate`` against ``probe``'s exact scores: ``e(m)`` at ``positions`` (those
    ``<= max_position``) and the first position exceeding ``tolerance``."""
    tolerance = _tolerance(tolerance)
    max_position = _validate.positive_int(max_position, "max_position")
    pos = [int(p) for p in positions if int(p) <= max_position]
    err = score_errors(rotate, probe, pos) if pos else np.empty(0)
    first = first_exceeding(rotate, probe, tolerance, max_position)
    return Profile(
        tuple((p, float(e)) for p, e in zip(pos, err, strict=True)), tolerance, first, max_position, probe.dtype
    )


def _style(value) -> str:
    if value not in STYLES:
        raise ValueError(f"style must be one of {', '.join(STYLES)}, got {value!r}")
    return value


#: cos and sin of float64 angles, correctly rounded (see :func:`_exact_cos_sin`), by angle.
_EXACT_TRIG: dict[float, tuple[float, float]] = {}


def _exact_cos_sin(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""cos and sin of float64 angles ``a``, correctly rounded to float64 (mpmath at 30 digits): the same bits on
    every CPU, where NumPy's SIMD kernels differ in the last bit from one CPU to another."""
    flat = np.asarray(a, dtype=np.float64).reshape(-1)
    unique, inverse = np.unique(flat, return_inverse=True)
    cos, sin = np.empty(unique.shape), np.empty(unique.shape)
    with mpmath.workdps(30):
        for j, v in enumerate(unique.tolist()):
            if v not in _EXACT_TRIG:
                x = mpmath.mpf(v)
                _EXACT_TRIG[v] = (float(mpmath.cos(x)), float(mpmath.sin(x))) if math.isfinite(v) else (v, v)
            cos[j], sin[j] = _EXACT_TRIG[v]
    return cos[inverse].reshape(np.shape(a)), sin[inverse].reshape(np.shape(a))


def simulated_rotation(dtype: str, style: str, width: int, base: float = 10000.0, *, exact: bool = False) -> Rotate:
    r"""Interleaved RoPE stored in ``dtype`` with angles built in ``style`` (see the module docstring).

    ``exact=True``: ``theta_i``, cos and sin correctly rounded (mpmath) instead of NumPy's, whose last bits depend
    on the CPU's SIMD paths; the rounding to each dtype is the same. The figures use it: their bytes must not
    depend on the machine."""
    dt = dtype_of(dtype)
    style = _style(style)
    width = _validate.even_width(width)
    if exact:
        theta = np.array([float(t) for t in inverse_frequencies_mp(width, base=base, dps=30)])  # (d/2,)
    else:
        theta = inverse_frequencies(width, base=base)  # (d/2,) float64
    named: dict[str, Any] = {"float64-angles": np.float64, "float32-angles": np.float32}
    angle_dt: Any = np.dtype(named.get(style, dt))

    def rotate(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        # x: (tokens, d) in dt; positions: (tokens,) integers
        with np.errstate(over="ignore", invalid="ignore"):
            m = np.asarray(positions).astype(angle_dt)[:, None]  # positions rounded to the angle dtype
            angles = (m * theta.astype(angle_dt)[None, :]).astype(angle_dt)  # (tokens, d/2), product rounded
            work = np.float64 if angle_dt == np.float64 else np.float32
            a = angles.astype(work)
            if exact:
                c64, s64 = _exact_cos_sin(a.astype(np.float64))
                cos, sin = c64.astype(work).astype(dt), s64.astype(work).astype(dt)
            else:
                cos, sin = np.cos(a).astype(work).astype(dt), np.sin(a).astype(work).astype(dt)
        x = np.asarray(x).astype(dt)
        even, odd = x[:, 0::2], x[:, 1::2]
        out = np.empty_like(x)
        out[:, 0::2] = even * cos - odd * sin  # each product and sum rounded to dt
        out[:, 1::2] = even * sin + odd * cos
        return out

    return rotate


@dataclass(frozen=True)
class ProfileRow:
    r"""One row of :func:`profile_table`: a storage ``dtype``, an angle ``style`` and its :class:`Profile`."""

    dtype: str
    style: str
    profile: Profile


def table_rows(dtypes: Sequence[str] = DTYPES, styles: Sequence[str] = STYLES) -> list[tuple[str, str]]:
    r"""The ``(dtype, style)`` rows of :func:`profile_table`, in its order: a style whose angles are in the storage
    dtype already (``float32-angles`` for float32) is listed once."""
    rows = []
    for dtype in dtypes:
        dtype_of(dtype)
        seen = set()
        for style in styles:
            angle_dtype = {"float64-angles": "float64", "float32-angles": "float32"}.get(_style(style), dtype)
            if angle_dtype not in seen:
                seen.add(angle_dtype)
                rows.append((dtype, style))
    return rows


def profile_table(
    width: int = 128,
    base: float = 10000.0,
    tolerance: float = DEFAULT_TOLERANCE,
    positions: Sequence[int] = PROFILE_POSITIONS,
    max_position: int | None = None,
    dtypes: Sequence[str] = DTYPES,
    styles: Sequence[str] = STYLES,
    progress: Callable[[ProfileRow], None] | None = None,
) -> list[ProfileRow]:
    r"""One row per storage dtype and angle style (:func:`table_rows`): the errors at ``positions`` and the first
    exceeding position (scanned up to ``max_position``, default the largest of ``positions``). What ``posproof
    precision`` prints. ``progress(row)``, when given, is called as each row is done."""
    width = _validate.even_width(width)
    top = max(int(p) for p in positions) if max_position is None else max_position
    probes: dict[str, ScoreProbe] = {}
    rows = []
    for dtype, style in table_rows(dtypes, styles):
        if dtype not in probes:
            probes[dtype] = make_probe(width, dtype=dtype, base=base)
        rot = simulated_rotation(dtype, style, width, base)
        row = ProfileRow(
            dtype,
            style,
            function_profile(rot, probes[dtype], positions=positions, tolerance=tolerance, max_position=top),
        )
        rows.append(row)
        if progress is not None:
            progress(row)
    return rows


def format_profile_table(rows: Sequence[ProfileRow]) -> str:
    r"""The rows as aligned text: one column per profile position, then the first position over the tolerance."""
    if not rows:
        return ""
    positions = [m for m, _ in rows[0].profile.errors]
    label = lambda m: f"{m // 1048576}M" if m % 1048576 == 0 else f"{m // 1024}k" if m % 1024 == 0 else str(m)
    tol = rows[0].profile.tolerance
    head = f"{'dtype':<9}  {'angles':<15}" + "".join(f"  {label(m):>8}" for m in positions)
    head += f"  first m with error > {tol:g}"
    lines = [head]
    for r in rows:
        p = r.profile
        first = str(p.first_exceeding) if p.first_exceeding is not None else f"none <= {p.max_position}"
        cells = "".join(f"  {error_cell(e):>8}" for _, e in p.errors)
        lines.append(f"{r.dtype:<9}  {r.style:<15}{cells}  {first}")
    return "\n".join(lines) + "\n"


def error_cell(e: float) -> str:
    r"""An error as the table prints it: below :data:`PROFILE_PRINT_FLOOR` the digits are the CPU's, not RoPE's."""
    return f"<{PROFILE_PRINT_FLOOR:.0e}" if e < PROFILE_PRINT_FLOOR else f"{e:.1e}"


def header(width: int = 128, base: float = 10000.0) -> str:
    r"""The line ``posproof precision`` prints above the table."""
    return (
        f"RoPE score error max_r |s(m, m+r) - s_ref(r)| / (|q||k|), r in {', '.join(map(str, DISTANCES))}; "
        f"d = {width}, base {base:g}, q and k uniform in [-1, 1], exact scores from mpmath"
    )
