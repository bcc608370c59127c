r"""``posproof plot NAME --out FILE``: the figures, drawn with matplotlib from the code in :mod:`numeric`.

Every figure is computed by the same functions the claims check (the sinusoidal code, the RoFormer decay curve,
T5 buckets, the precision profile, the scaling rules). Files are deterministic: no dates, a fixed SVG hash salt,
fixed PDF metadata, so re-running an export gives the same bytes. matplotlib is the ``plots`` extra
(``pip install 'posproof[plots]'``).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

INSTALL = "matplotlib is not installed: pip install 'posproof[plots]'"

#: Figures of two panels, drawn wide and set at the full text width (their legends stay readable in print).
WIDE = ("rope-decay",)

#: matplotlib's settings for every figure: text in Computer Modern like the paper's (cmr10, with mathtext's
#: ``cm`` set; tick labels go through mathtext, whose minus is TeX's; cmr10 has no Unicode minus sign, so plain
#: text keeps the ASCII hyphen), and the settings that make the files repeatable (SVG hash salt, text as paths in
#: SVG, TrueType in PDF).
RC: dict[str, Any] = {
    "font.family": "serif",
    "font.serif": ["cmr10", "Computer Modern Roman", "DejaVu Serif"],
    "mathtext.fontset": "cm",
    "axes.formatter.use_mathtext": True,
    "axes.unicode_minus": False,
    "font.size": 10,
    "legend.frameon": True,
    "svg.hashsalt": "posproof",
    "svg.fonttype": "path",
    "pdf.fonttype": 42,
}

#: File types ``plot`` writes, by suffix.
SUFFIXES = ("png", "svg", "pdf")


@dataclass(frozen=True)
class Plot:
    r"""A figure: its title, the topic it illustrates, a caption (prose with ``$...$`` math), how to draw it, and
    the claim it illustrates (the export places and references it there; ``""``: at the end of its topic)."""

    title: str
    topic: str
    caption: str
    draw: Callable
    claim: str = ""


def available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


# ---- the figures ------------------------------------------------------------------------------------------------


def _heatmap(fig):
    from posproof.numeric import sinusoidal

    pe = sinusoidal(np.arange(100), width=128)  # (100, 128)
    ax = fig.subplots()
    im = ax.imshow(pe, aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest")
    ax.set_xlabel(r"component $c$ (pairs $2i$, $2i+1$)")
    ax.set_ylabel(r"position $\mathrm{pos}$")
    fig.colorbar(im, ax=ax, shrink=0.8)


def _waves(fig, positions, marks):
    from posproof.numeric import sinusoidal

    ax = fig.subplots()
    fine = np.linspace(positions[0], positions[-1], 2000)
    # pair 0 is the fastest wave (theta_0 = 1); pair 48 of d = 128 a slow one (theta = 10000^(-96/128))
    for pair, label, color in ((0, "fast wave, $i = 0$", "C0"), (48, "slow wave, $i = 48$", "C1")):
        theta = 10000.0 ** (-2 * pair / 128)
        ax.plot(fine, np.sin(fine * theta), color=color, lw=1.2, label=label + rf", $\theta_i = {theta:.3g}$")
        pe = sinusoidal(np.asarray(marks), width=128)[:, 2 * pair]  # the code's own values at the marked positions
        ax.plot(marks, pe, "o", color=color, ms=5)
        for p, v in zip(marks, pe, strict=True):
            ax.annotate(f"{p}", (p, v), textcoords="offset points", xytext=(3, 6), fontsize=8, color=color)
    ax.set_xlabel(r"position $\mathrm{pos}$")
    ax.set_ylabel(r"$\sin(\mathrm{pos}\,\theta_i)$")
    ax.legend(loc="best", fontsize=9, framealpha=0.9)
    ax.grid(alpha=0.3)


def _adjacent(fig):
    _waves(fig, (0, 12), [3, 4])


def _aliasing(fig):
    _waves(fig, (0, 50), [0, 6, 19, 25, 44])


def _proximity(fig):
    from posproof.numeric import sinusoidal
    from posproof.symbolic.sinusoidal import MONOTONE

    ax = fig.subplots()
    for width, color in ((128, "C0"), (512, "C1")):
        pe = sinusoidal(np.arange(0, 201), width=width)
        phi = pe @ pe[0]
        K = MONOTONE[width]  # verified by sinusoidal-monotone-range
        ax.plot(np.arange(201), phi, color=color, lw=1.2, label=rf"$d = {width}$")
        ax.axvspan(0, K, color=color, alpha=0.12)
        ax.axvline(K, color=color, ls="--", lw=0.8)
        ax.annotate(rf"decreasing up to $k = {K}$", (K, phi[K]), xytext=(8, 10), textcoords="offset points", fontsize=8)
    ax.set_xlabel("distance $k$")
    ax.set_ylabel(r"$\varphi(k) = \mathrm{PE}(0)\cdot\mathrm{PE}(k)$")
    ax.legend(loc="best", fontsize=9, framealpha=0.9)
    ax.grid(alpha=0.3)


def _decay(fig):
    from posproof.numeric.rotary import rope_decay_curve
    from posproof.numeric.sinusoid import inverse_frequencies

    width = 128
    r = np.arange(0, 1001)
    ax1, ax2 = fig.subplots(1, 2)
    ax1.plot(r, rope_decay_curve(r, width=width), lw=1)
    ax1.set_xlabel("relative distance $m - n$")
    ax1.set_ylabel(r"$\frac{1}{d/2}\sum_j |S_j|$")
    ax1.grid(alpha=0.3)
    theta = inverse_frequencies(width, base=10000.0)
    rng = np.random.default_rng(0)
    h = np.concatenate([rng.uniform(-1, 1, width // 2) + 1j * rng.uniform(-1, 1, width // 2), [0]])
    rot = np.exp(1j * np.outer(r, theta))  # (distances, d/2)
    S = np.cumsum(rot, axis=1)  # S_1 .. S_{d/2}
    score = np.abs(rot @ h[:-1])
    bound = np.max(np.abs(np.diff(h))) * np.abs(S).sum(axis=1)
    ax2.plot(r, bound, lw=1, color="C3", label=r"bound $\max_i |h_{i+1} - h_i| \sum_j |S_j|$")
    ax2.plot(r, score, lw=0.8, color="C0", label=r"$|\sum_i h_i e^{i(m-n)\theta_i}|$, one draw")
    ax2.set_xlabel("relative distance $m - n$")
    ax2.legend(loc="best", fontsize=9, framealpha=0.9)
    ax2.grid(alpha=0.3)


def _t5(fig):
    from posproof.numeric import t5_relative_bucket

    r = np.arange(-200, 201)
    ax = fig.subplots()
    ax.step(r, t5_relative_bucket(r), where="mid", lw=1.2)
    ax.axvspan(-8, 8, color="C2", alpha=0.12, label="exact buckets, $|r| < 8$")
    ax.axvline(-91, color="C3", ls="--", lw=0.8)
    ax.axvline(91, color="C3", ls="--", lw=0.8, label=r"last bucket from $|r| = 91$")
    ax.set_xlabel(r"relative position $r = n - m$ (key $-$ query)")
    ax.set_ylabel(r"bucket of $r$")
    ax.legend(loc="best", fontsize=8, framealpha=0.9)
    ax.grid(alpha=0.3)


def _precision(fig):
    from posproof.numeric import precision_profile as pp

    positions = np.unique(np.round(2.0 ** np.linspace(0, 17, 120)).astype(np.int64))
    ax = fig.subplots()
    for k, dtype in enumerate(pp.DTYPES):
        try:
            probe = pp.make_probe(128, dtype=dtype)
        except (ImportError, TypeError, ValueError):  # bfloat16 needs ml_dtypes (the precision extra)
            continue
        for style, ls in (("float64-angles", "-"), ("float32-angles", "--")):
            if dtype == "float64" and style == "float32-angles":
                continue
            rotate = pp.simulated_rotation(dtype, style, 128, exact=True)  # the same bits on every CPU
            err = pp.score_errors(rotate, probe, positions, exact=True)
            ax.loglog(positions, np.maximum(err, 1e-18), ls, color=f"C{k}", lw=1, label=f"{dtype}, {style}")
    ax.set_xlabel("query position $m$")
    ax.set_ylabel(r"$\max_r\, |s(m, m+r) - s_{\mathrm{ref}}(r)|\,/\,(|q|\,|k|)$")
    ax.legend(loc="best", fontsize=8, ncol=2, framealpha=0.9)
    ax.grid(alpha=0.3, which="both")


#: The context-extension rules drawn, with their settings (a Llama-like head: d = 128, b = 500000, L0 = 8192).
RULE_SETTINGS = {
    "default": None,
    "linear": {"rope_type": "linear", "factor": 4.0},
    "ntk": {"rope_type": "ntk", "factor": 4.0},
    "dynamic (L = 32768)": {"rope_type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 8192},
    "yarn": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 8192},
    "llama3": {
        "rope_type": "llama3",
        "factor": 8.0,
        "original_max_position_embeddings": 8192,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
    },
}


def _extension(fig):
    from posproof.numeric.scaling.rules import rope_inv_freq

    ax = fig.subplots()
    for k, (name, scaling) in enumerate(RULE_SETTINGS.items()):
        seq_len = 32768 if name.startswith("dynamic") else None
        inv_freq, _ = rope_inv_freq(128, base=500000.0, scaling=scaling, seq_len=seq_len)
        ax.semilogy(np.arange(inv_freq.size), inv_freq, color=f"C{k}", lw=1.2, label=name)
    ax.set_xlabel("pair index $i$")
    ax.set_ylabel(r"frequency $\theta'_i$")
    ax.legend(loc="best", fontsize=9, framealpha=0.9)
    ax.grid(alpha=0.3, which="both")


PLOTS: dict[str, Plot] = {
    "sinusoidal-heatmap": Plot(
        "Sinusoidal heatmap",
        "sinusoidal",
        r"The sinusoidal code of positions 0 to 99 at $d = 128$: fast pairs on the left, slow ones on the right.",
        _heatmap,
        "sinusoidal-definition",
    ),
    "sinusoidal-adjacent": Plot(
        "Adjacent positions on a fast and a slow wave",
        "sinusoidal",
        r"Positions 3 and 4 on the fastest wave ($\theta_0 = 1$) and on a slow one: the fast pair tells "
        r"neighbours apart, the slow pair barely moves (`sinusoidal-pair-separation`).",
        _adjacent,
        "sinusoidal-pair-separation",
    ),
    "sinusoidal-aliasing": Plot(
        "Distant positions aliasing on the fast wave",
        "sinusoidal",
        r"The fast wave ($\theta_0 = 1$) comes back near its value at position 0 at positions 6, 19, 25 and 44, "
        r"never onto it (the pair's distance $2|\sin(k/2)|$ stays above 0; "
        r"`sinusoidal-fast-wave-near-repeats`); the slow wave ($i = 48$) separates them.",
        _aliasing,
        "sinusoidal-fast-wave-near-repeats",
    ),
    "sinusoidal-proximity": Plot(
        "Proximity against distance",
        "sinusoidal",
        r"$\varphi(k) = \mathrm{PE}(0)\cdot \mathrm{PE}(k)$ decreases only over the shaded range "
        r"($k \le 11$ at $d = 128$, $k \le 43$ at $d = 512$; `sinusoidal-monotone-range`); at the next distance "
        r"it rises, and beyond it falls overall while oscillating.",
        _proximity,
        "sinusoidal-monotone-range",
    ),
    "rope-decay": Plot(
        "RoPE long-term decay and its bound",
        "rope",
        r"Left: RoFormer's curve $\frac{1}{d/2}\sum_j |S_j|$. Right: the score of one seeded draw stays "
        r"under its bound (`rope-decay-bound`); the score itself is not monotone.",
        _decay,
        "rope-decay-bound",
    ),
    "t5-buckets": Plot(
        "T5 bucket staircase",
        "relative",
        r"T5's bucket of the relative position $r$: exact up to $|r| < 8$ on each side, logarithmic up to the "
        r"last bucket (`t5-bucket-boundaries`).",
        _t5,
        "t5-bucket-boundaries",
    ),
    "rope-precision": Plot(
        "RoPE error against position, per dtype",
        "rope",
        r"The score error of RoPE stored in each dtype, with angles in float64 (solid) or float32 (dashed), "
        r"against the query position (`numeric.precision_profile`).",
        _precision,
    ),
    "extension-frequencies": Plot(
        "Context extension: frequencies against the pair index",
        "extension",
        r"$\theta'_i$ of each scaling rule (`numeric.scaling.rope_inv_freq`): linear divides every frequency, "
        r"NTK and dynamic NTK change the base, YaRN and Llama 3 keep the fast pairs and divide the slow ones.",
        _extension,
        "extension-float64-agrees",
    ),
}


# ---- drawing to bytes ------------------------------------------------------------------------------------------


def plot_bytes(name: str, suffix: str) -> bytes:
    r"""Figure ``name`` as ``png``, ``svg`` or ``pdf`` bytes, the same on every run."""
    if name not in PLOTS:
        raise ValueError(f"plot must be one of {', '.join(PLOTS)}, got {name!r}")
    if suffix not in SUFFIXES:
        raise ValueError(f"the file type must be one of {', '.join(SUFFIXES)}, got {suffix!r}")
    import matplotlib

    matplotlib.use("Agg", force=True)
    from matplotlib.figure import Figure

    quiet = logging.getLogger("fontTools")  # it warns about the fixed (zero) font timestamps that make PDFs repeatable
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    with matplotlib.rc_context(cast(Any, RC)):  # its keys are typed as literals
        wide = name in WIDE
        fig = Figure(figsize=(8.5, 3.6) if wide else (7, 4.2), layout="constrained")
        PLOTS[name].draw(fig)
        buf = io.BytesIO()
        metadata = {
            "png": {"Software": None},
            "svg": {"Date": None, "Creator": None},
            "pdf": {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None},
        }[suffix]
        fig.savefig(buf, format=suffix, dpi=110, metadata=metadata)
    quiet.setLevel(level)
    return buf.getvalue()
