r"""Language-neutral golden vectors for ports: JSON test vectors computed with mpmath.

One document per scheme (:func:`golden_vectors`): sinusoidal encodings, RoPE in both layouts and with every scaling
rule, T5 and DeBERTa buckets, ALiBi slopes, xPos, multi-axis RoPE, p-RoPE, Self-Extend, ReRoPE and dual chunk
attention, Llama 4's and log-n temperatures, NoPE's first-layer outputs, the FIRE, Sandwich and KERPLE biases,
CoPE's gates, positions and scores. Each document states the precision used
(``dps`` significant digits of working precision, outputs rounded to :data:`DIGITS` significant digits, as decimal
strings), the conventions, every parameter, the inputs and the outputs. Inputs are exact binary fractions written as
decimal strings, so that every language reads the same numbers. :func:`write_vectors` writes the documents and an
``index.json`` with their SHA-256; the same call writes the same bytes, atomically (a temporary file in the
directory, then a rename).

>>> docs = golden_vectors()
>>> sorted(docs)
['alibi.json', 'cope.json', 'deberta.json', 'dual_chunk.json', 'fire.json', 'kerple.json', 'multiaxis.json',
 'nope.json', 'p_rope.json', 'remap.json', 'rope.json', 'sandwich.json', 'sinusoidal.json', 't5.json',
 'temperature.json', 'xpos.json']
>>> docs["alibi.json"]["cases"][1]["slopes"]  # n_heads = 2: 2^-4, 2^-8
['0.062500000000000000', '0.0039062500000000000']
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mpmath
import numpy as np
from posproof.numeric._io import write_atomic
from posproof.numeric.alibi import alibi_slope_exponents, alibi_slopes_mp
from posproof.numeric.bias_kernels import golden_vectors_bias_kernels
from posproof.numeric.cope import golden_vectors_cope
from posproof.numeric.deberta import deberta_log_bucket_mp
from posproof.numeric.dual_chunk import golden_vectors_dual_chunk
from posproof.numeric.nope import golden_vectors_nope
from posproof.numeric.p_rope import p_rope_frequencies_mp
from posproof.numeric.remap import golden_vectors_remap
from posproof.numeric.rotary import rope_mp
from posproof.numeric.scaling.rules import RopeScaling
from posproof.numeric.sinusoid import inverse_frequencies_mp, sinusoidal_mp
from posproof.numeric.t5 import t5_relative_bucket_mp
from posproof.numeric.temperature import golden_vectors_temperature
from posproof.numeric.xpos import rope_xpos_mp

__all__ = ["DIGITS", "DOCUMENTS", "DPS", "INDEX", "golden_vectors", "write_vectors", "decimal"]

#: Working precision of the references (significant decimal digits).
DPS = 50
#: Significant digits of every real output: 17 round-trips any float64 (and leaves float32 ports 8 to spare).
DIGITS = 17
#: The schema version of the documents: bump it when a field changes meaning.
VERSION = 1

#: Positions of the sinusoidal and RoPE vectors: small ones, the edges of exact bfloat16/float16 integers, and
#: long contexts where angles are large.
POSITIONS = (0, 1, 2, 3, 7, 100, 257, 2049, 4095, 32768, 131071, 1000003)


def decimal(value) -> str:
    r"""``value`` (an ``mpf``) as a decimal string with :data:`DIGITS` significant digits (``'0.0'`` for zero)."""
    with mpmath.workdps(DPS):  # no rounding to the default 15 digits on the way
        return mpmath.nstr(mpmath.mpf(value), DIGITS, strip_zeros=False)


def _inputs(rows: int, width: int) -> list[list[str]]:
    r"""Deterministic exact inputs: ``((7 (r w + c) + 3) mod 33 - 16) / 16`` in ``[-1, 1]``, binary fractions."""
    return [[str(((7 * (r * width + c) + 3) % 33 - 16) / 16) for c in range(width)] for r in range(rows)]


def _doc(scheme: str, conventions: str, cases: list) -> dict:
    return {
        "scheme": scheme,
        "version": VERSION,
        "precision": {
            "dps": DPS,
            "digits": DIGITS,
            "note": f"computed with mpmath at {DPS} significant digits; reals rounded to {DIGITS} significant "
            "digits as decimal strings",
        },
        "conventions": conventions,
        "cases": cases,
    }


def _sinusoidal() -> dict:
    cases = []
    for width, layout, freqs in ((8, "interleaved", "paper"), (8, "half", "paper"), (16, "half", "tensor2tensor")):
        out = sinusoidal_mp(list(POSITIONS), width=width, base=10000, layout=layout, dps=DPS, frequencies=freqs)
        cases.append(
            {
                "parameters": {"width": width, "base": "10000", "layout": layout, "frequencies": freqs},
                "inputs": {"positions": list(POSITIONS)},
                "outputs": [[decimal(v) for v in row] for row in out],
            }
        )
    conv = (
        "PE(pos, 2i) = sin(pos theta_i), PE(pos, 2i+1) = cos(pos theta_i) (layout interleaved, Vaswani et al.); "
        "layout half = [sin | cos] halves; frequencies paper theta_i = base^(-2i/d), tensor2tensor "
        "theta_i = base^(-i/(d/2-1)); i = 0 .. d/2-1"
    )
    return _doc("sinusoidal", conv, cases)


#: RoPE scaling cases: (name, head width, base, scaling mapping, seq_len).
ROPE_SCALINGS: tuple[tuple[str, int, str, dict | None, int | None], ...] = (
    ("default", 16, "10000", None, None),
    ("partial rotary 0.5", 16, "10000", {"rope_type": "default", "partial_rotary_factor": 0.5}, None),
    ("linear", 16, "10000", {"rope_type": "linear", "factor": 4.0}, None),
    ("ntk", 16, "10000", {"rope_type": "ntk", "factor": 4.0}, None),
    ("dynamic", 16, "10000", {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 4096}, 8192),
    ("yarn", 16, "10000", {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096}, None),
    (
        "llama3",
        16,
        "500000",
        {
            "rope_type": "llama3",
            "factor": 8.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 8192,
        },
        None,
    ),
    (
        "longrope",
        16,
        "10000",
        {
            "rope_type": "longrope",
            "factor": 4.0,
            "original_max_position_embeddings": 4096,
            "short_factor": [1.0, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0],
            "long_factor": [1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 16.0],
        },
        8192,
    ),
)


def _rope() -> dict:
    cases = []
    rows = len(POSITIONS)
    for name, width, base, scaling, seq_len in ROPE_SCALINGS:
        cfg = RopeScaling.from_mapping(width, base=float(base), scaling=scaling)
        theta, factor = cfg.inv_freq_mp(seq_len, dps=DPS)
        x = _inputs(rows, width)
        for layout in ("interleaved", "half"):
            out = rope_mp(
                x,
                list(POSITIONS),
                layout=layout,
                dps=DPS,
                inv_freq=theta,
                attention_factor=None if factor == 1 else factor,
                rotary_dim=cfg.d,
            )
            cases.append(
                {
                    "name": f"{name}, {layout}",
                    "parameters": {
                        "width": width,
                        "base": base,
                        "layout": layout,
                        "scaling": scaling,
                        "seq_len": seq_len,
                        "rotary_dim": cfg.d,
                    },
                    "inv_freq": [decimal(t) for t in theta],
                    "attention_factor": decimal(factor),
                    "inputs": {"vectors": x, "positions": list(POSITIONS)},
                    "outputs": [[decimal(v) for v in row] for row in out],
                }
            )
    conv = (
        "row at position m: pair i rotated by m theta_i counter-clockwise, (x, y) -> (x cos - y sin, x sin + y cos), "
        "both times attention_factor; layout interleaved pairs channels (2i, 2i+1), half pairs (i, i + r/2); only "
        "the first rotary_dim channels rotate, the rest pass through; theta_i = inv_freq[i] from the scaling rule "
        "as in Hugging Face transformers' modeling_rope_utils (seq_len = current length for dynamic and longrope)"
    )
    return _doc("rope", conv, cases)


#: T5 configurations (bidirectional, num_buckets, max_distance).
T5_SETTINGS = ((True, 32, 128), (False, 32, 128), (True, 64, 256), (False, 16, 64))
RELATIVE = tuple(sorted({*range(-20, 21), -1000000, -4096, -1000, -300, -128, -127, -100, -64, -50, 50, 64, 100,
                         127, 128, 300, 1000, 4096, 1000000}))  # fmt: skip


def _t5() -> dict:
    cases = []
    for bidirectional, nb, md in T5_SETTINGS:
        cases.append(
            {
                "parameters": {"bidirectional": bidirectional, "num_buckets": nb, "max_distance": md},
                "inputs": {"relative_position": list(RELATIVE)},
                "outputs": [
                    t5_relative_bucket_mp(r, bidirectional=bidirectional, num_buckets=nb, max_distance=md, dps=DPS)
                    for r in RELATIVE
                ],
            }
        )
    conv = (
        "relative_position = key - query; bidirectional halves the buckets, keys after the query in the upper "
        "half; max_exact = buckets/2 exact buckets, then max_exact + floor(log(|r|/max_exact) / "
        "log(max_distance/max_exact) * (buckets - max_exact)), capped at buckets - 1 (logarithm at 50 digits)"
    )
    return _doc("t5", conv, cases)


def _deberta() -> dict:
    cases = []
    for bucket_size, max_position in ((256, 512), (64, 128)):
        cases.append(
            {
                "parameters": {"bucket_size": bucket_size, "max_position": max_position},
                "inputs": {"relative_position": list(RELATIVE)},
                "outputs": [
                    deberta_log_bucket_mp(r, bucket_size=bucket_size, max_position=max_position, dps=DPS)
                    for r in RELATIVE
                ],
            }
        )
    conv = (
        "relative_position = query - key; exact for |r| <= bucket_size/2 = mid, else sign(r) * (ceil(log(|r|/mid) "
        "/ log((max_position-1)/mid) * (mid-1)) + mid) (make_log_bucket_position of DeBERTa v2/v3; logarithm at "
        "50 digits; not capped)"
    )
    return _doc("deberta", conv, cases)


def _alibi() -> dict:
    cases = []
    for n in range(1, 65):
        slopes = alibi_slopes_mp(n, dps=DPS)
        cases.append(
            {
                "parameters": {"n_heads": n},
                "exponents": [f"{e.numerator}/{e.denominator}" for e in alibi_slope_exponents(n)],
                "slopes": [decimal(s) for s in slopes],
            }
        )
    conv = (
        "slope of head h = 2^(exponent); n a power of two: exponents -8h/n, h = 1..n; otherwise with c the largest "
        "power of two <= n: the c exponents of c heads, then -8h/(2c) for odd h, the first n - c of them "
        "(Press et al. 2022)"
    )
    return _doc("alibi", conv, cases)


#: Multi-axis cases: (name, head width, base, axis map, frequencies, axes per position).
MULTIAXIS_POSITIONS = ((0, 0, 0), (5, 5, 5), (7, 0, 3), (7, 13, 2), (4095, 4095, 4095), (100, 31, 63), (2, 1000, 1))


def _multiaxis() -> dict:
    from posproof.numeric.multiaxis import axial_axes, axial_inv_freq_mp, mrope_axes, rope_multiaxis_mp

    cases = []
    setups = (
        ("M-RoPE chunked (Qwen2-VL), sections [2, 3, 3]", 16, "1000000", mrope_axes([2, 3, 3]), None, 3),
        ("M-RoPE interleaved (Qwen3-VL), sections [3, 3, 2]", 16, "5000000",
         mrope_axes([3, 3, 2], interleaved=True), None, 3),
        ("axial 2-D (Pixtral)", 16, "10000", axial_axes(16), axial_inv_freq_mp(16, base=10000, dps=DPS), 2),
    )  # fmt: skip
    for name, width, base, axes, theta, n_axes in setups:
        if theta is None:
            theta = inverse_frequencies_mp(width, base=base, dps=DPS)
        pos = [list(p[:n_axes]) for p in MULTIAXIS_POSITIONS]
        x = _inputs(len(pos), width)
        out = rope_multiaxis_mp(x, pos, axes=axes, inv_freq=theta, layout="half", dps=DPS)
        cases.append(
            {
                "name": name,
                "parameters": {"width": width, "base": base, "layout": "half", "axes": axes.tolist()},
                "inv_freq": [decimal(t) for t in theta],
                "inputs": {"vectors": x, "positions": pos},
                "outputs": [[decimal(v) for v in row] for row in out],
            }
        )
    cases += _multiaxis_declarations()
    conv = (
        "a token's position is a vector p (t, h, w for M-RoPE; row, column for axial); pair i turns by "
        "inv_freq[i] * p[axes[i]] counter-clockwise, half layout (channels i and i + d/2), as Hugging Face "
        "transformers lays out Qwen2-VL (chunked sections), Qwen3-VL (interleaved) and Pixtral (axial) rotaries; "
        "text tokens carry t = h = w. Cases with a phase turn pair i by inv_freq[i] * p[axes[i]] + phase[i]; "
        "their parameters name the layout: interleaved (channels 2i, 2i + 1), half, or blocks (each run of n "
        "consecutive pairs on one axis, from pair s, turns channels 2s + k and 2s + k + n). The kernel 'xdrope' "
        "(HunYuan-VL as transformers 5.24 ports it) turns channel c by inv_freq[c mod d/2] * p[a(c)], a(c) the "
        "section of the 2 * mrope_section chunks of the d channels c falls in, rotate-half: "
        "out_c = x_c cos + rotate_half(x)_c sin"
    )
    return _doc("multiaxis", conv, cases)


# ---- the multi-axis declarations (numeric/multiaxis: per-axis ladders, shared axial, DINOv3, blocks; B1) ----------


def _multiaxis_declarations() -> list:
    r"""Cases of the declarations beyond M-RoPE and Pixtral's axial: each frequency and phase from its definition
    in mpmath (no float64 on the way), the inputs exact binary fractions."""
    from posproof.numeric.multiaxis import (
        affine_frequencies_mp,
        axes_dim_axes,
        axial_axes,
        axial_inv_freq_mp,
        dinov3_inv_freq_mp,
        per_axis_inv_freq_mp,
        rope_multiaxis_mp,
    )

    ernie = [1, 2, 1, 2, 1, 2, 0, 0]  # h, w alternating over 6 pairs, t on the last 2 (Ernie 4.5-VL's text map)
    setups: tuple[tuple, ...] = (  # name, width, base, axes, inv_freq, phase, layout, axes per position
        ("per-axis ladders axes_dim [4, 6, 6] (FLUX's EmbedND)", 16, "10000", axes_dim_axes([4, 6, 6]),
         per_axis_inv_freq_mp(axes_dim_axes([4, 6, 6]), base=10000, dps=DPS), None, "interleaved", 3),
        ("axial 2-D, shared frequencies (Qwen2-VL's vision rotary)", 16, "10000", axial_axes(16),
         axial_inv_freq_mp(16, base=10000, dps=DPS, frequencies="shared"), None, "half", 2),
        ("axial 2-D, shared frequencies in blocks (Gemma 4's vision rotary)", 16, "100", axial_axes(16),
         axial_inv_freq_mp(16, base=100, dps=DPS, frequencies="shared"), None, "blocks", 2),
        ("explicit axis map (Ernie 4.5-VL's text rotary)", 16, "500000", np.array(ernie),
         inverse_frequencies_mp(16, base=500000, dps=DPS), None, "interleaved", 3),
    )  # fmt: skip
    with mpmath.workdps(DPS):  # DINOv3 on a 16 x 8 patch grid: c = 2 (n + 1/2) / N - 1 = (2/N) n + (1/N - 1)
        scale, offset = [mpmath.mpf(2) / 16, mpmath.mpf(2) / 8], [mpmath.mpf(1) / 16 - 1, mpmath.mpf(1) / 8 - 1]
        theta, phase = affine_frequencies_mp(
            inv_freq=dinov3_inv_freq_mp(16, base=100, dps=DPS), axes=axial_axes(16), scale=scale, offset=offset, dps=DPS
        )
    setups += (("DINOv3, patch grid [16, 8], normalize_coords 'separate', patch indices", 16, "100", axial_axes(16),
                theta, phase, "half", 2),)  # fmt: skip
    cases = []
    for name, width, base, axes, inv, ph, layout, n_axes in setups:
        pos = [list(p[:n_axes]) for p in MULTIAXIS_POSITIONS]
        x = _inputs(len(pos), width)
        out = rope_multiaxis_mp(x, pos, axes=axes, inv_freq=inv, layout=layout, dps=DPS, phase=ph)
        case = {
            "name": name,
            "parameters": {"width": width, "base": base, "layout": layout, "axes": [int(a) for a in axes]},
            "inv_freq": [decimal(t) for t in inv],
            "inputs": {"vectors": x, "positions": pos},
            "outputs": [[decimal(v) for v in row] for row in out],
        }
        if ph is not None:
            case["phase"] = [decimal(t) for t in ph]
        cases.append(case)
    # transformers 5.24's HunYuan-VL map: cos/sin split by channel (channel c at theta_{c mod d/2} p[axis(c)])
    from posproof.numeric.multiaxis import rope_xdrope_mp

    pos = [[*p, p[0] % 5] for p in MULTIAXIS_POSITIONS]  # 4 axes: position, width, height, image index
    x = _inputs(len(pos), 16)
    out = rope_xdrope_mp(x, pos, mrope_section=[2, 2, 2, 2], base="10000", dps=DPS)
    cases.append(
        {
            "name": "HunYuan-VL as transformers 5.24 computes it, mrope_section [2, 2, 2, 2]: each section doubled, "
            "channel-split (Tencent's XD-RoPE is chunked M-RoPE)",
            "parameters": {
                "width": 16,
                "base": "10000",
                "layout": "half",
                "kernel": "xdrope",
                "mrope_section": [2, 2, 2, 2],
            },  # fmt: skip
            "inv_freq": [decimal(t) for t in inverse_frequencies_mp(16, base="10000", dps=DPS)],
            "inputs": {"vectors": x, "positions": pos},
            "outputs": [[decimal(v) for v in row] for row in out],
        }
    )
    return cases


#: xPos: (width, layout, scale_base, gamma, origin) and positions that keep zeta_0^(+-m/s) within float32's range
#: (m/s <= 8: zeta_0^-8 ~ 2e4).
XPOS_SETTINGS = ((8, "interleaved", 512, "0.4", 0), (8, "half", 512, "0.4", 2048), (16, "half", 256, "0.4", 1000))
XPOS_POSITIONS = (0, 1, 2, 3, 7, 100, 257, 2049, 4095)


def _xpos() -> dict:
    cases = []
    rows = len(XPOS_POSITIONS)
    for width, layout, scale_base, gamma, origin in XPOS_SETTINGS:
        q, k = _inputs(rows, width), _inputs(2 * rows, width)[rows:]
        out_q, out_k = rope_xpos_mp(
            q, k, list(XPOS_POSITIONS), layout=layout, scale_base=scale_base, gamma=gamma, origin=origin, dps=DPS
        )
        parameters = {"width": width, "base": 10000, "layout": layout, "scale_base": scale_base, "gamma": gamma}
        cases.append(
            {
                "name": f"width {width}, {layout}, scale_base {scale_base}, origin {origin}",
                "parameters": parameters | {"origin": origin},
                "inputs": {"q": q, "k": k, "positions": list(XPOS_POSITIONS)},
                "outputs": {
                    "q": [[decimal(v) for v in row] for row in out_q],
                    "k": [[decimal(v) for v in row] for row in out_k],
                },
            }
        )
    conv = (
        "q and k rows at position m: pair i rotated by m theta_i counter-clockwise (theta_i = base^(-2i/width)), "
        "then the query's pair multiplied by zeta_i^((m - origin)/scale_base), the key's by "
        "zeta_i^(-(m - origin)/scale_base), zeta_i = (2i/width + gamma)/(1 + gamma); layout interleaved pairs "
        "(2i, 2i+1), half pairs (i, i + width/2); flash-attn and x-transformers take origin = seq_len // 2, "
        "torchscale ceil(L/2); scores q_m . k_n do not depend on the origin"
    )
    return _doc("xpos", conv, cases)


#: p-RoPE cases: (width, fraction); the positions are RoPE's.
P_ROPE_SETTINGS = ((8, 0.5), (16, 0.25), (16, 0.75))


def _p_rope() -> dict:
    cases = []
    for width, fraction in P_ROPE_SETTINGS:
        x = _inputs(len(POSITIONS), width)
        theta = p_rope_frequencies_mp(width, fraction=fraction, base=10000, dps=DPS)
        out = rope_mp(x, list(POSITIONS), inv_freq=theta, layout="interleaved", dps=DPS)
        cases.append(
            {
                "name": f"width {width}, fraction {fraction}",
                "parameters": {"width": width, "base": 10000, "fraction": fraction, "layout": "interleaved"},
                "inputs": {"vectors": x, "positions": list(POSITIONS)},
                "outputs": [[decimal(v) for v in row] for row in out],
            }
        )
    conv = (
        "p-RoPE (Barbero et al. 2024): theta_i = base^(-2i/width) for the kept pairs i < floor(fraction width/2), "
        "0 for the others (they do not rotate); pair i on channels (2i, 2i+1) rotated by m theta_i "
        "counter-clockwise; equal to partial rotary of width r = 2 floor(fraction width/2) at base base^(r/width)"
    )
    return _doc("p-rope", conv, cases)


def _bias_kernel(name: str) -> Callable[[], dict[str, Any]]:
    r"""One of the bias kernels' documents (FIRE, Sandwich, KERPLE: :mod:`numeric.bias_kernels`) in the shape of
    the others."""

    def compute() -> dict[str, Any]:
        doc = golden_vectors_bias_kernels(dps=DPS, digits=DIGITS)[name]
        return _doc(doc["scheme"], doc["conventions"], doc["cases"])

    return compute


#: Every document's file name and the function computing it, in the order they are written.
DOCUMENTS: dict[str, Callable[[], dict[str, Any]]] = {
    "sinusoidal.json": _sinusoidal,
    "rope.json": _rope,
    "t5.json": _t5,
    "deberta.json": _deberta,
    "alibi.json": _alibi,
    "multiaxis.json": _multiaxis,
    "xpos.json": _xpos,
    "p_rope.json": _p_rope,
    "remap.json": golden_vectors_remap,
    "dual_chunk.json": golden_vectors_dual_chunk,
    "temperature.json": lambda: golden_vectors_temperature(dps=DPS, digits=DIGITS),
    "nope.json": lambda: golden_vectors_nope(dps=DPS, digits=DIGITS),
    "fire.json": _bias_kernel("fire.json"),
    "sandwich.json": _bias_kernel("sandwich.json"),
    "kerple.json": _bias_kernel("kerple.json"),
    "cope.json": lambda: golden_vectors_cope(dps=DPS, digits=DIGITS),
}
#: The file listing the documents with their SHA-256, written last.
INDEX = "index.json"


def golden_vectors() -> dict[str, dict[str, Any]]:
    r"""Every document, by file name."""
    return {name: compute() for name, compute in DOCUMENTS.items()}


def _dumps(doc) -> bytes:
    return (json.dumps(doc, indent=1, ensure_ascii=True, allow_nan=False) + "\n").encode("ascii")


def write_vectors(out_dir, progress: Callable[[str, int], None] | None = None) -> list[Path]:
    r"""Write every document and ``index.json`` (file names with their SHA-256) to ``out_dir`` (created if needed);
    returns the paths written. Deterministic: the same bytes on every run. Each document is computed, then
    written atomically, one after the other; ``progress(file name, number of files)`` after each is written (so a
    stopped run leaves whole files, and ``index.json``, written last, only after all of them)."""
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ValueError(f"out_dir must be a directory, got the file {str(out)!r}")
    out.mkdir(parents=True, exist_ok=True)
    total = len(DOCUMENTS) + 1
    written, index = [], {}
    for name, compute in DOCUMENTS.items():
        doc = compute()
        data = _dumps(doc)
        write_atomic(out / name, data)
        written.append(out / name)
        index[name] = {"sha256": hashlib.sha256(data).hexdigest(), "cases": len(doc["cases"])}
        if progress is not None:
            progress(name, total)
    write_atomic(out / INDEX, _dumps({"version": VERSION, "files": index}))
    written.append(out / INDEX)
    if progress is not None:
        progress(INDEX, total)
    return written
