r"""What the multi-axis audit (:mod:`posproof.numeric.audit.multiaxis`) says about a measured axis map or frequency
table that is not the declared one: the bug class it is, from the declared arrays alone (any declaration, not only
``mrope_section`` or ``axial``).

Axis maps: the declared map laid out the other way (chunked sections interleaved, or the reverse), the axes taken in
another order, the pairs split in other sections (:func:`axes_named`).

Frequencies: the ladders a declaration's axis map admits, each ``theta_i = base**(-e_i)`` with exponents
(:func:`ladders`):

* ``"whole"``: one ladder over the whole rotary width, ``e_i = 2i/r`` (M-RoPE, transformers' rotaries);
* ``"per-axis"``: a ladder that restarts on each axis, the ``k``-th pair of axis ``a`` at ``e = 2k/w_a`` over the
  axis's ``w_a`` channels (FLUX's ``axes_dim``, diffusers, CogVideoX, HunyuanVideo, Wan; axial 2-D with shared
  frequencies: EVA-02, Qwen2.5-VL's vision rotary);
* ``"split"`` (axes of equal size): one ladder over the rotary width dealt out, the ``k``-th pair of axis ``a`` at
  ``e = 2(kA + a)/r`` (Pixtral's axial 2-D: the even frequencies to the row, the odd ones to the column);
* ``"head"`` (partial rotary): one ladder over the head width, ``e_i = 2i/d``, cut to the rotary pairs.

A measured table is fitted to each ladder as ``k * b**(-e)``, a base ``b`` and a factor ``k`` (:func:`fit`); the
declared table likewise, and the two fits name the difference (:func:`frequencies_named`).

>>> import numpy as np
>>> sorted(ladders(np.array([0, 0, 1, 1]), 2, 8, 8))
['per-axis', 'split', 'whole']
>>> ladders(np.array([0, 0, 1, 1]), 2, 8, 8)["per-axis"].tolist()
[0.0, 0.5, 0.0, 0.5]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import permutations

import numpy as np
from posproof.numeric import formatting
from posproof.numeric.multiaxis import mrope_axes

#: The most axes whose orders are all tried (8! = 40320 maps; 5! = 120).
MAX_ORDER_AXES = 5


def axis_names(n_axes: int) -> str:
    r"""How sentences name the axes: ``t, h, w`` for three, else their indices."""
    return "thw" if n_axes == 3 else "".join(str(a) for a in range(n_axes)) if n_axes <= 10 else ""


def _name(a: int, n_axes: int) -> str:
    names = axis_names(n_axes)
    return names[a] if a < len(names) else str(a)


def sections_of(axes: np.ndarray, n_axes: int) -> tuple[list[int], bool] | None:
    r"""``(sections, interleaved)`` when ``axes`` is an M-RoPE map (chunked, or Qwen3-VL's interleaving) of
    ``n_axes`` axes, else ``None``."""
    if axes.size == 0 or (axes < 0).any():
        return None
    counts = np.bincount(axes, minlength=n_axes).tolist()
    for interleaved in (False, True):
        if np.array_equal(axes, mrope_axes(counts, interleaved=interleaved)):
            return counts, interleaved
    return None


def _pair_text(measured: np.ndarray, expected: np.ndarray, n_axes: int) -> str:
    diff = np.flatnonzero(measured != expected)
    i = int(diff[0])

    def axis(a: int) -> str:
        return "no single axis" if a < 0 else f"axis {_name(a, n_axes)}"

    more = f" ({diff.size} of {expected.size} pairs differ)" if diff.size > 1 else ""
    return f"pair {i} turns with {axis(int(measured[i]))}, declared {axis(int(expected[i]))}{more}"


def axes_named(measured: np.ndarray, expected: np.ndarray, n_axes: int) -> tuple[str, str]:
    r"""The finding id and a sentence for a measured axis map (``-1``: a pair no single axis turns) that is not the
    declared one, ``(r/2,)`` each."""
    declared = sections_of(expected, n_axes)
    if declared is not None:
        sections, interleaved = declared
        if not interleaved and np.array_equal(measured, mrope_axes(sections, interleaved=True)):
            return "mrope-chunked-vs-interleaved", f"the sections {sections} are laid out interleaved"
        have = sections_of(measured, n_axes)
        if interleaved and have is not None and not have[1]:
            if np.array_equal(mrope_axes(have[0], interleaved=True), expected):
                return "mrope-chunked-vs-interleaved", f"the sections {have[0]} are laid out chunked"
    if (expected >= 0).all() and n_axes <= MAX_ORDER_AXES:
        for order in permutations(range(n_axes)):
            if order != tuple(range(n_axes)) and np.array_equal(measured, np.asarray(order)[expected]):
                said = ", ".join(f"{_name(a, n_axes)} -> {_name(order[a], n_axes)}" for a in range(n_axes)
                                 if order[a] != a)  # fmt: skip
                return "mrope-axes-order", f"the axes are exchanged: {said}"
    if declared is not None and (measured >= 0).all():
        sections, interleaved = declared
        counts = np.bincount(measured, minlength=n_axes).tolist()
        for layout in (interleaved, not interleaved):
            if counts != sections and np.array_equal(measured, mrope_axes(counts, interleaved=layout)):
                how = "interleaved" if layout else "chunked"
                return "mrope-wrong-sections", f"the sections are {counts} ({how}), not {sections}"
    return (
        "multiaxis-wrong-axes",
        f"the pairs follow other axes than declared: {_pair_text(measured, expected, n_axes)}",
    )


def ladders(axes: np.ndarray, n_axes: int, r: int, width: int) -> dict[str, np.ndarray]:
    r"""The exponents ``e`` ``(r/2,)`` of each ladder the axis map admits (module docstring), by name."""
    half = axes.size
    out = {"whole": 2.0 * np.arange(half) / r}
    per = np.zeros(half)
    split = np.zeros(half)
    counts = np.bincount(axes[axes >= 0], minlength=n_axes)
    for a in range(n_axes):
        idx = np.flatnonzero(axes == a)
        per[idx] = np.arange(idx.size) / max(idx.size, 1)  # 2k / (2 n_a)
        split[idx] = 2.0 * (np.arange(idx.size) * n_axes + a) / r
    if n_axes > 1:
        out["per-axis"] = per
        if (counts == counts[0]).all() and counts[0] > 0:
            out["split"] = split
    if r < width:
        out["head"] = 2.0 * np.arange(half) / width
    return out


@dataclass(frozen=True)
class Fit:
    r"""A frequency table as ``factor * base**(-e)`` for one ladder's exponents ``e``."""

    ladder: str
    base: float
    factor: float


def fit(theta: np.ndarray, exponents: dict[str, np.ndarray], rtol: float) -> list[Fit]:
    r"""The ladders ``theta`` (``(r/2,)``, all ``> 0``) follows within ``rtol`` per pair, each with its fitted base
    and factor (least squares on the logarithms), in the order of ``exponents``."""
    if theta.size < 2 or not (theta > 0).all():
        return []
    out = []
    log = np.log(theta)
    for name, e in exponents.items():
        if np.ptp(e) == 0:
            continue
        slope, intercept = np.polyfit(e, log, 1)
        if slope >= 0:
            continue
        base, factor = math.exp(-slope), math.exp(intercept)
        if np.all(np.abs(factor * base ** (-e) / theta - 1) <= rtol):
            out.append(Fit(name, base, factor))
    return out


_LADDER_TEXT = {
    "whole": "one ladder base**(-2i/{r}) over the whole rotary width",
    "per-axis": "a ladder restarting on each axis (base**(-2k/w) over each axis's w channels: w = {widths})",
    "split": "one ladder over the rotary width dealt out to the axes in turn (the k-th pair of axis a takes "
    "frequency kA + a: Pixtral's split)",
    "head": "one ladder base**(-2i/{width}) over the head width, cut to the rotary pairs",
}


def ladder_text(name: str, axes: np.ndarray, n_axes: int, r: int, width: int) -> str:
    r"""A ladder named in words, with its widths."""
    widths = [2 * int((axes == a).sum()) for a in range(n_axes)]
    return _LADDER_TEXT[name].format(r=r, width=width, widths=widths)


def _same(a: float, b: float, rtol: float) -> bool:
    return abs(a / b - 1) <= rtol


def _base_text(b: float) -> str:
    r"""A fitted base, whole when it is one to 6 digits."""
    return str(round(b)) if _same(b, round(b), 1e-6) else formatting.number(b)


def _factor_text(k: float) -> str:
    for value, said in ((2 * math.pi, "2 pi"), (1 / (2 * math.pi), "1/(2 pi)"), (math.pi, "pi"), (1 / math.pi, "1/pi")):
        if _same(k, value, 1e-6):
            return said
    return formatting.number(k)


def frequencies_named(
    measured: np.ndarray,
    declared: np.ndarray,
    axes: np.ndarray,
    n_axes: int,
    r: int,
    width: int,
    rtol: float,
) -> tuple[str, str]:
    r"""The finding id and a sentence for measured frequencies (``(r/2,)``, first channels, on the declared axes)
    that are not the declared ones."""
    ex = ladders(axes, n_axes, r, width)
    said = fit(declared, ex, rtol)
    got = fit(measured, ex, rtol)
    if said and got:
        want = said[0]
        # the likeliest reading first: another ladder at the declared base, then the declared ladder at another base
        same_base = [g for g in got if _same(g.base, want.base, 1e-6) and _same(g.factor, want.factor, 1e-6)]
        same_ladder = [g for g in got if g.ladder == want.ladder]
        have = (same_base or same_ladder or got)[0]
        if have.ladder == "head" and want.ladder == "whole" and _same(have.base, want.base, 1e-6):
            return "multiaxis-rotary-width", (
                f"the frequencies are base**(-2i/{width}), built over the head width, not base**(-2i/{r}) over the "
                "rotary width"
            )
        parts = []
        if have.ladder != want.ladder:
            parts.append(
                f"the frequencies are {ladder_text(have.ladder, axes, n_axes, r, width)}, not "
                f"{ladder_text(want.ladder, axes, n_axes, r, width)}"
            )
        if not _same(have.base, want.base, 1e-6):
            parts.append(f"of base {_base_text(have.base)}, not {_base_text(want.base)}")
        if not _same(have.factor, want.factor, 1e-6):
            parts.append(f"times {_factor_text(have.factor / want.factor)} (every frequency scaled)")
        sentence = "; ".join(parts) or "the frequencies differ"
        pair = {have.ladder, want.ladder}
        if pair == {"per-axis", "split"} and n_axes == 2:
            return "axial-shared-vs-split", sentence
        if pair == {"per-axis", "whole"}:
            return "multiaxis-ladder-restart", sentence
        return "multiaxis-wrong-frequencies", sentence
    ratio = measured / declared
    good = np.isfinite(ratio)
    if good.any() and np.all(np.abs(ratio[good] / ratio[good][0] - 1) <= rtol):
        if _same(float(ratio[good][0]), -1.0, rtol):
            return "multiaxis-wrong-frequencies", "every pair turns the other way (angle -theta p: sin's sign flipped)"
        return (
            "multiaxis-wrong-frequencies",
            f"every frequency is {_factor_text(float(ratio[good][0]))} times the declared one",
        )
    return "multiaxis-wrong-frequencies", "the frequencies are no scaled copy of the declared ones"
