r"""Diagnostics of RoPE context extension: for a trained length ``L0``, a scaling rule and a target length ``L``,
which pairs see rotation angles at the target that they never saw in training, and how far out; the critical
dimension (Liu et al. 2023); the base bound (Men et al. 2024).

Definitions (``theta_i`` the trained frequencies ``b**(-2i/d)``, ``theta'_i`` the scaled ones at length ``L``):

* training shows pair ``i`` the angles ``m theta_i``, ``m < L0``: they lie in ``[0, L0 theta_i)``. If
  ``L0 theta_i >= 2 pi`` the pair completed a full period, so every phase on the circle was seen (**periodic**);
* the target shows ``m theta'_i``, ``m < L``, the largest being ``(L-1) theta'_i``. A pair that is not periodic is
  **out of distribution** when ``(L-1) theta'_i >= L0 theta_i`` (some target angle is outside the trained range),
  else **inside** it;
* how far out: the *excess* ``(L-1) theta'_i / (L0 theta_i)`` (``>= 1`` out of distribution), and the *coverage*,
  the fraction of the circle seen, ``min(1, L0 theta_i / 2 pi)`` in training and ``min(1, L theta'_i / 2 pi)`` at
  the target; the *unseen* fraction is ``max(0, min(2 pi, (L-1) theta'_i) - L0 theta_i) / 2 pi`` for pairs that
  are not periodic (0 for periodic ones).

These are facts about angles. A rule that keeps every angle inside the trained range can still degrade a model (e.g.
interpolation crowds nearby positions together), and no angle diagnostic shows long-context quality: a larger
accepted sequence is not by itself evidence of reliable long-context behaviour.

>>> from posproof.numeric.scaling.rules import RopeScaling
>>> report = diagnose(RopeScaling(16, base=10000.0, rope_type="linear", factor=4.0), trained=256, target=1024)
>>> report.coverage.ood_pairs, report.critical_dimension
((), 8)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from posproof.numeric import _validate
from posproof.numeric.scaling.rules import RopeScaling
from posproof.numeric.sinusoid import inverse_frequencies

__all__ = [
    "PhaseCoverage",
    "PairGroup",
    "BaseBound",
    "ExtensionReport",
    "phase_coverage",
    "critical_dimension",
    "cosine_sums",
    "first_negative_cosine_sum",
    "base_bound",
    "base_bound_bases",
    "diagnose",
    "extension_report",
    "WARNING",
]

#: The RoPE note's caution, printed with every report.
WARNING = (
    "a larger accepted sequence is not by itself evidence of reliable long-context behaviour: these diagnostics "
    "describe rotation angles, not what a model does with them"
)

#: Positions per block when the cosine sums are evaluated (memory ~ block * d/2 * 8 bytes = 2 MiB at d = 128).
_BLOCK = 4096

STATUSES = ("periodic", "inside", "out of distribution")

#: The base-bound search's settings by default (see :class:`BaseBound`): the searched range ``[B_MIN, B_MAX]``,
#: coarse bases per decade, fine bases per decade (a 1.2 % step), the bisection's relative width.
B_MIN, B_MAX, PER_DECADE, FINE_PER_DECADE, REL_TOL = 2.0, 1e10, 10, 200, 1e-4


@dataclass(frozen=True)
class PhaseCoverage:
    r"""Per-pair angles in training (``m theta_i``, ``m < L0``) and at the target (``m theta'_i``, ``m < L``); each
    tuple has one entry per pair ``i = 0 .. d/2 - 1``. See the module docstring for the definitions."""

    L0: int
    L: int
    theta: tuple[float, ...]
    theta_scaled: tuple[float, ...]
    trained_coverage: tuple[float, ...]
    target_coverage: tuple[float, ...]
    excess: tuple[float, ...]
    unseen: tuple[float, ...]
    status: tuple[str, ...]

    @property
    def ood_pairs(self) -> tuple[int, ...]:
        r"""The pairs that see angles never seen in training."""
        return tuple(i for i, st in enumerate(self.status) if st == "out of distribution")


def phase_coverage(theta, theta_scaled, L0: int, L: int) -> PhaseCoverage:
    r"""The coverage diagnostics of trained frequencies ``theta`` and scaled ones ``theta_scaled`` ``(d/2,)``.

    >>> cov = phase_coverage([1.0, 0.001], [1.0, 0.0005], L0=100, L=400)
    >>> cov.status, [round(x, 3) for x in cov.excess]
    (('periodic', 'out of distribution'), [3.99, 1.995])
    """
    L0 = _validate.positive_int(L0, "L0", 1)
    L = _validate.positive_int(L, "L", 1)
    th = np.asarray(theta, dtype=np.float64)  # (d/2,)
    th2 = np.asarray(theta_scaled, dtype=np.float64)  # (d/2,)
    if th.ndim != 1 or th.shape != th2.shape or not (np.all(th > 0) and np.all(th2 > 0)):
        raise ValueError("theta and theta_scaled must be 1-D arrays of the same length with positive entries")
    span = L0 * th  # (d/2,): trained angles lie in [0, L0 theta_i)
    reach = (L - 1) * th2  # (d/2,): the largest target angle
    periodic = span >= 2 * math.pi
    ood = ~periodic & (reach >= span)
    unseen = np.where(periodic, 0.0, np.maximum(0.0, np.minimum(2 * math.pi, reach) - span) / (2 * math.pi))
    status = np.where(periodic, "periodic", np.where(ood, "out of distribution", "inside"))
    return PhaseCoverage(
        L0=L0,
        L=L,
        theta=tuple(th.tolist()),
        theta_scaled=tuple(th2.tolist()),
        trained_coverage=tuple(np.minimum(1.0, span / (2 * math.pi)).tolist()),
        target_coverage=tuple(np.minimum(1.0, L * th2 / (2 * math.pi)).tolist()),
        excess=tuple((reach / span).tolist()),
        unseen=tuple(unseen.tolist()),
        status=tuple(str(x) for x in status),
    )


@dataclass(frozen=True)
class PairGroup:
    r"""Consecutive pairs ``first .. last`` with one status, and the ranges of their diagnostics."""

    status: str
    first: int
    last: int
    wavelength: tuple[float, float]  # trained 2 pi / theta_i (min, max)
    scale: tuple[float, float]  # theta'_i / theta_i
    trained_coverage: tuple[float, float]
    target_coverage: tuple[float, float]
    excess: tuple[float, float]
    unseen: tuple[float, float]

    @property
    def count(self) -> int:
        return self.last - self.first + 1


def _groups(cov: PhaseCoverage) -> tuple[PairGroup, ...]:
    out = []
    n = len(cov.status)
    start = 0
    for i in range(1, n + 1):
        if i < n and cov.status[i] == cov.status[start]:
            continue
        sl = slice(start, i)
        span = lambda values, sl=sl: (min(values[sl]), max(values[sl]))
        th, th2 = np.asarray(cov.theta[sl]), np.asarray(cov.theta_scaled[sl])
        out.append(
            PairGroup(
                status=cov.status[start],
                first=start,
                last=i - 1,
                wavelength=(float(2 * math.pi / th.max()), float(2 * math.pi / th.min())),
                scale=(float((th2 / th).min()), float((th2 / th).max())),
                trained_coverage=span(cov.trained_coverage),
                target_coverage=span(cov.target_coverage),
                excess=span(cov.excess),
                unseen=span(cov.unseen),
            )
        )
        start = i
    return tuple(out)


def critical_dimension(d: int, base: float, L0: int) -> int:
    r"""Liu et al. 2023 ("Scaling Laws of RoPE-based Extrapolation"): ``2 ceil((d/2) log_b(L0 / 2 pi))``, clamped
    to ``[0, d]``. Pairs ``i >= d_extra/2`` have wavelengths ``> L0``: they never complete a period in training.

    >>> critical_dimension(128, 10000.0, 4096)
    92
    """
    d = _validate.even_width(d, "d")
    base = _validate.base(base)
    L0 = _validate.positive_int(L0, "L0", 1)
    value = 2 * math.ceil((d / 2) * math.log(L0 / (2 * math.pi)) / math.log(base))
    return min(max(value, 0), d)


def cosine_sums(theta, L: int) -> np.ndarray:
    r"""``B_m = sum_i cos(m theta_i)`` for ``m = 0 .. L``: float64 ``(L + 1,)`` (Men et al. 2024)."""
    th = np.asarray(theta, dtype=np.float64)  # (d/2,)
    L = _validate.positive_int(L, "L", 0)
    out = np.empty(L + 1)
    for a in range(0, L + 1, _BLOCK):
        m = np.arange(a, min(a + _BLOCK, L + 1), dtype=np.float64)  # (block,)
        angles = np.multiply.outer(m, th)  # (block, d/2)
        np.cos(angles, out=angles)
        out[a : a + len(m)] = angles.sum(axis=1)
    return out


def first_negative_cosine_sum(theta, L: int, descending: bool = False) -> int | None:
    r"""The first ``m`` in ``0 .. L`` (or the last, ``descending=True``) with ``sum_i cos(m theta_i) < 0``, else
    ``None``. Evaluated block by block, stopping at the first block with a negative sum.

    >>> first_negative_cosine_sum(inverse_frequencies(4, base=100.0), 10)  # cos(3) + cos(0.3) < 0
    3
    """
    th = np.asarray(theta, dtype=np.float64)  # (d/2,)
    L = _validate.positive_int(L, "L", 0)
    starts = range(0, L + 1, _BLOCK)
    for a in reversed(starts) if descending else starts:
        m = np.arange(a, min(a + _BLOCK, L + 1), dtype=np.float64)  # (block,)
        angles = np.multiply.outer(m, th)  # (block, d/2)
        np.cos(angles, out=angles)
        negative = np.flatnonzero(angles.sum(axis=1) < 0)
        if negative.size:
            return int(m[negative[-1] if descending else negative[0]])
    return None


@dataclass(frozen=True)
class BaseBound:
    r"""The smallest base ``b`` found for which ``sum_i cos(m b**(-2i/d)) >= 0`` for every ``m = 0 .. L`` (Men et
    al. 2024), and what was searched.

    The condition is not monotone in ``b``: above the first base where it holds there are bases where it fails
    again, and below it there can be narrow windows where it holds (for ``d = 128``, ``L = 4096`` one is
    ``b ~ 26952 .. 26973``, 0.08 % wide, next to the value 2.7e4 of Men et al.). The search, each base evaluated
    exactly (every ``m``):

    1. a coarse grid ``b_min * 10**(k/per_decade)`` up to ``b_max``: ``coarse_base`` is the smallest base on it
       where the condition holds; ``failing_above`` counts the coarse bases above it where it fails again (the
       largest is ``largest_failing``: above it every coarse base passes);
    2. a fine grid of ``fine_per_decade`` bases per decade over the decade below ``coarse_base``: ``grid_base``
       is the smallest base on it (or ``coarse_base``) where the condition holds;
    3. bisection in ``log b`` between ``grid_base`` and the fine base below it (which fails), until the bracket is
       narrower than ``rel_tol``: ``base`` is the upper end, a base where the condition holds.

    Windows narrower than the fine step (``10**(1/fine_per_decade) - 1``, 1.2 % by default), or more than a decade
    below ``coarse_base``, are not excluded: ``base`` is the smallest base *found*, an upper bound of the true
    smallest base."""

    d: int
    L: int
    base: float | None
    grid_base: float | None
    coarse_base: float | None
    bracket: tuple[float, float] | None
    b_min: float
    b_max: float
    per_decade: int
    fine_per_decade: int
    bases_evaluated: int
    rel_tol: float
    failing_above: int
    largest_failing: float | None

    @property
    def searched(self) -> str:
        r"""One line saying what was searched."""
        return (
            f"coarse grid b_min*10^(k/{self.per_decade}) over [{self.b_min:g}, {self.b_max:g}], then "
            f"{self.fine_per_decade} bases per decade over the decade below the first coarse base that holds, then "
            f"bisection in log b to {self.rel_tol:g}: {self.bases_evaluated} bases, every m in 0..{self.L} at each; "
            f"narrower windows below may exist"
        )


def _holds(d: int, L: int, b: float) -> bool:
    r"""Whether ``sum_i cos(m b**(-2i/d)) >= 0`` for every ``m = 0 .. L`` (failures are found from the top ``m``
    down: near the bound they sit at large ``m``)."""
    return first_negative_cosine_sum(inverse_frequencies(d, base=b), L, descending=True) is None


def _coarse_steps(b_min: float, b_max: float, per_decade: int) -> int:
    return int(math.floor(per_decade * math.log10(b_max / b_min) + 1e-9))


def base_bound_bases(
    b_min: float = B_MIN,
    b_max: float = B_MAX,
    per_decade: int = PER_DECADE,
    fine_per_decade: int = FINE_PER_DECADE,
    rel_tol: float = REL_TOL,
) -> int:
    r"""The most bases :func:`base_bound` evaluates with these settings: the coarse grid, one decade of the fine
    grid, and the bisection of a fine step down to ``rel_tol``. Each costs at most ``(L + 1) d/2`` cosines.

    >>> base_bound_bases()  # 98 coarse, 200 fine, 8 halvings
    306
    """
    coarse = _coarse_steps(b_min, b_max, per_decade) + 2
    step = math.log(10) / fine_per_decade  # the widest fine step, in log b
    halvings = max(0, math.ceil(math.log2(step / math.log1p(rel_tol)))) + 1  # + 1: rounding
    return coarse + fine_per_decade + halvings


def base_bound(
    d: int,
    L: int,
    *,
    b_min: float = B_MIN,
    b_max: float = B_MAX,
    per_decade: int = PER_DECADE,
    fine_per_decade: int = FINE_PER_DECADE,
    rel_tol: float = REL_TOL,
    progress: Callable[[int, float], None] | None = None,
) -> BaseBound:
    r"""The base bound of Men et al. 2024 for width ``d`` and length ``L``, searched as :class:`BaseBound` says
    (at most :func:`base_bound_bases` bases). ``progress(evaluated, base)``, when given, is called after each base.

    >>> bb = base_bound(128, 1024)
    >>> round(bb.base, -1), bb.coarse_base > bb.base
    (4290.0, True)
    """
    d = _validate.even_width(d, "d")
    L = _validate.positive_int(L, "L", 1)
    b_min = _validate.base(b_min, "b_min")
    b_max = _validate.base(b_max, "b_max")
    if b_max <= b_min:
        raise ValueError(f"b_max must be a real number > b_min = {b_min!r}, got {b_max!r}")
    per_decade = _validate.positive_int(per_decade, "per_decade", 1)
    fine_per_decade = _validate.positive_int(fine_per_decade, "fine_per_decade", 1)
    if isinstance(rel_tol, bool) or not isinstance(rel_tol, (int, float)) or not 0 < rel_tol < 1:
        raise ValueError(f"rel_tol must be a real number in (0, 1), got {rel_tol!r}")
    evaluated = 0

    def holds(b: float) -> bool:
        nonlocal evaluated
        good = _holds(d, L, b)
        evaluated += 1
        if progress is not None:
            progress(evaluated, b)
        return good

    steps = _coarse_steps(b_min, b_max, per_decade)
    coarse = [b_min * 10 ** (k / per_decade) for k in range(steps + 1)]
    if coarse[-1] < b_max:
        coarse.append(b_max)
    ok = [holds(b) for b in coarse]
    settings: dict[str, float] = dict(b_min=b_min, b_max=b_max, rel_tol=rel_tol)
    if not any(ok):
        return BaseBound(
            d, L, None, None, None, None, **settings, per_decade=per_decade, fine_per_decade=fine_per_decade,
            bases_evaluated=evaluated, failing_above=0, largest_failing=coarse[-1],
        )  # fmt: skip
    k = ok.index(True)
    failing = [b for b, good in zip(coarse[k + 1 :], ok[k + 1 :], strict=True) if not good]
    coarse_base = coarse[k]
    lo, hi = None, coarse_base
    if k > 0:  # fine grid over the decade below (not below b_min), upwards: the first base that holds
        fine_lo = max(b_min, coarse_base / 10)
        n = max(1, math.ceil(fine_per_decade * math.log10(coarse_base / fine_lo)))
        fine = [fine_lo * (coarse_base / fine_lo) ** (j / n) for j in range(n)]
        previous = None
        for b in fine:
            if holds(b):
                lo, hi = previous, b
                break
            previous = b
        else:
            lo = fine[-1]
    grid_base = hi
    bracket = None if lo is None else (lo, hi)
    if lo is not None:
        while hi / lo - 1 > rel_tol:
            mid = math.sqrt(lo * hi)
            lo, hi = (lo, mid) if holds(mid) else (mid, hi)
    return BaseBound(
        d, L, hi, grid_base, coarse_base, bracket, **settings, per_decade=per_decade,
        fine_per_decade=fine_per_decade, bases_evaluated=evaluated, failing_above=len(failing),
        largest_failing=failing[-1] if failing else None,
    )  # fmt: skip


@dataclass(frozen=True)
class ExtensionReport:
    r"""Everything ``posproof extend`` prints. ``as_dict()`` gives it as JSON-ready data."""

    scaling: RopeScaling
    L0: int
    L: int
    attention_factor: float
    coverage: PhaseCoverage
    groups: tuple[PairGroup, ...]
    critical_dimension: int
    base_bound: BaseBound | None
    first_negative_trained: int | None  # first m <= L with sum_i cos(m theta_i) < 0 (trained frequencies)
    first_negative_scaled: int | None  # the same for the scaled frequencies theta'_i
    warning: str = WARNING

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "scaling": self.scaling.as_dict(),
            "L0": self.L0,
            "L": self.L,
            "attention_factor": self.attention_factor,
            "pairs": {
                "theta": list(self.coverage.theta),
                "theta_scaled": list(self.coverage.theta_scaled),
                "trained_coverage": list(self.coverage.trained_coverage),
                "target_coverage": list(self.coverage.target_coverage),
                "excess": list(self.coverage.excess),
                "unseen": list(self.coverage.unseen),
                "status": list(self.coverage.status),
            },
            "ood_pairs": list(self.coverage.ood_pairs),
            "groups": [asdict(g) | {"count": g.count} for g in self.groups],
            "critical_dimension": self.critical_dimension,
            "base_bound": None if self.base_bound is None else asdict(self.base_bound),
            "first_negative_cosine_sum": {"trained": self.first_negative_trained, "scaled": self.first_negative_scaled},
            "warning": self.warning,
        }
        if self.base_bound is not None:
            out["base_bound"]["searched"] = self.base_bound.searched
        return out


def diagnose(
    scaling: RopeScaling,
    trained: int | None = None,
    target: int | None = None,
    *,
    with_base_bound: bool = True,
    **bound_options,
) -> ExtensionReport:
    r"""The diagnostics of a validated configuration: ``trained`` is ``L0`` (default: the configuration's),
    ``target`` is ``L`` (the scaled frequencies are those at ``seq_len = L``); ``bound_options`` go to
    :func:`base_bound`, ``progress=`` among them (skipped with ``with_base_bound=False``: it costs up to
    ``base_bound_bases() * (L + 1) * d/2`` cosines, the rest ``2 (L + 1) d/2``)."""
    if not isinstance(scaling, RopeScaling):
        raise ValueError(f"scaling must be a RopeScaling (see numeric.scaling), got {type(scaling).__name__}")
    L0 = scaling.L0 if trained is None else _validate.positive_int(trained, "trained", 2)
    if L0 is None:
        raise ValueError("trained (the trained length L0) is required: this configuration does not name one")
    if target is None:
        raise ValueError("target (the target length L) must be an integer >= 1, got None")
    L = _validate.positive_int(target, "target", 1)
    d = scaling.d
    theta = inverse_frequencies(d, base=scaling.base)  # (d/2,): what training saw
    theta_scaled, attention_factor = scaling.inv_freq(seq_len=L)  # (d/2,)
    n = scaling.turning_pairs  # proportional RoPE: the pairs past it never turn (no angle to cover; cos 0 = 1)
    theta[n:] = 0.0
    cov = phase_coverage(theta[:n], theta_scaled[:n], L0, L)
    return ExtensionReport(
        scaling=scaling,
        L0=L0,
        L=L,
        attention_factor=float(attention_factor),
        coverage=cov,
        groups=_groups(cov),
        critical_dimension=critical_dimension(d, scaling.base, L0),
        base_bound=base_bound(d, L, **bound_options) if with_base_bound else None,
        first_negative_trained=first_negative_cosine_sum(theta, L),
        first_negative_scaled=first_negative_cosine_sum(theta_scaled, L),
    )


def extension_report(
    width: int,
    base: float = 10000.0,
    scaling=None,
    *,
    trained: int,
    target: int,
    max_position_embeddings: int | None = None,
    with_base_bound: bool = True,
    **bound_options,
) -> ExtensionReport:
    r""":func:`diagnose` for a scaling mapping as :func:`numeric.scaling.rope_inv_freq` takes it; ``trained`` is
    also the rule's ``L0`` when the mapping names none (dynamic, YaRN, Llama 3, LongRoPE).

    >>> r = extension_report(128, 10000.0, {"rope_type": "yarn", "factor": 8.0}, trained=4096, target=32768,
    ...                      with_base_bound=False)
    >>> r.coverage.ood_pairs
    ()
    """
    trained = _validate.positive_int(trained, "trained", 2)
    mapping = dict(scaling or {})
    rule = mapping.get("rope_type", mapping.get("type", "default"))
    if (
        rule in ("dynamic", "yarn", "llama3", "longrope", "su")
        and mapping.get("original_max_position_embeddings") is None
    ):
        mapping["original_max_position_embeddings"] = trained
    cfg = RopeScaling.from_mapping(width, base=base, scaling=mapping, max_position_embeddings=max_position_embeddings)
    return diagnose(cfg, trained, target, with_base_bound=with_base_bound, **bound_options)
