r"""Length-dependent query temperature: Llama 4's ``attn_temperature_tuning`` on its NoPE layers, and Qwen's
log-n attention scaling (``use_logn_attn``). Both multiply the query at (0-indexed) position ``p`` by a factor
that depends on ``p`` alone, so a layer's scores are no longer a function of the content and ``i - j`` only.

Llama 4 (Hugging Face transformers, ``Llama4TextAttention.forward``): on layers that do not rotate
(``no_rope_layers[layer] == 0``) the query at position ``p`` is scaled by
``log1p(floor((p + 1) / floor_scale)) * attn_scale + 1`` (defaults ``floor_scale = 8192``, ``attn_scale = 0.1``).
Which layers rotate: ``no_rope_layers`` (1 = RoPE, 0 = NoPE) when given and non-empty, else layer ``l`` rotates
unless ``(l + 1) % no_rope_layer_interval == 0`` (``Llama4TextConfig.__post_init__``).

Qwen (v1) ``use_logn_attn`` (``QWenAttention``: ``logn_list = [math.log(i, seq_length) if i > seq_length else 1
for i in range(1, 32768)]``, indexed by the 0-indexed position): the query at position ``p`` is scaled by
``log(p + 1) / log(L)`` when ``p + 1 > L`` (the trained length ``L = seq_length``), else by 1 (Chiang and Cholak
2022 scale by ``log n``).

>>> llama4_attention_temperature([0, 8190, 8191], floor_scale=8192, attn_scale=0.1).round(6).tolist()
[1.0, 1.0, 1.069315]
>>> llama4_rope_layers(8)
[True, True, True, False, True, True, True, False]
>>> logn_attention_scale([0, 2047, 4095], trained_length=2048).tolist()
[1.0, 1.0, 1.0909090909090908]
"""

from __future__ import annotations

import math
import numbers

import mpmath
import numpy as np
from posproof.numeric import _validate

__all__ = [
    "llama4_attention_temperature",
    "llama4_attention_temperature_mp",
    "llama4_rope_layers",
    "llama4_temperature_parameters",
    "logn_attention_scale",
    "logn_attention_scale_mp",
    "logn_parameters",
    "golden_vectors_temperature",
]


def _attn_scale(value) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"attn_scale must be a finite real number >= 0, got {value!r}")
    if value < 0:
        raise ValueError(f"attn_scale must be a finite real number >= 0, got {value!r}")
    return float(value)


def _position(value, name: str = "position") -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < 0:
        if not (isinstance(value, mpmath.mpf) and mpmath.isint(value) and value >= 0):
            raise ValueError(f"{name} must be an integer >= 0, got {value!r}")
    return int(value)


def _positions(positions) -> np.ndarray:
    p = _validate.integer_array(positions, "positions")
    if np.any(p < 0):
        raise ValueError("positions must be >= 0")
    return p


def llama4_attention_temperature(positions, *, floor_scale: int = 8192, attn_scale: float = 0.1) -> np.ndarray:
    r"""Llama 4's query temperature at each 0-indexed position, float64:
    ``log(floor((p + 1) / floor_scale) + 1) * attn_scale + 1`` (the floor in exact integer arithmetic)."""
    F = _validate.positive_int(floor_scale, "floor_scale")
    a = _attn_scale(attn_scale)
    p = _positions(positions)
    return np.log1p(((p + 1) // F).astype(np.float64)) * a + 1.0


def llama4_attention_temperature_mp(position, *, floor_scale: int = 8192, attn_scale="0.1", dps: int = 50):
    r"""The mpmath twin of :func:`llama4_attention_temperature` for one position at ``dps`` digits; ``attn_scale``
    may be a string (``"0.1"``: the decimal, not the nearest double) or an ``mpf``."""
    F = _validate.positive_int(floor_scale, "floor_scale")
    p = _position(position)
    with mpmath.workdps(_validate.dps(dps)):
        try:
            a = mpmath.mpf(attn_scale)
        except (TypeError, ValueError):
            raise ValueError(f"attn_scale must be a finite real number >= 0, got {attn_scale!r}") from None
        if not mpmath.isfinite(a) or a < 0:
            raise ValueError(f"attn_scale must be a finite real number >= 0, got {attn_scale!r}")
        return mpmath.log(mpmath.mpf((p + 1) // F) + 1) * a + 1


def llama4_rope_layers(num_layers: int, *, no_rope_layers=None, interval: int = 4) -> list[bool]:
    r"""Which of the first ``num_layers`` layers rotate (True) or are NoPE layers (False), as transformers reads
    ``Llama4TextConfig``: ``no_rope_layers`` (1 = RoPE, 0 = NoPE, at least ``num_layers`` entries) when given
    and non-empty, else layer ``l`` rotates unless ``(l + 1) % interval == 0``."""
    n = _validate.positive_int(num_layers, "num_layers")
    k = _validate.positive_int(interval, "interval")
    if not no_rope_layers:  # transformers: `self.no_rope_layers if self.no_rope_layers else default`
        return [(layer + 1) % k != 0 for layer in range(n)]
    flags = list(no_rope_layers)
    if len(flags) < n:
        raise ValueError(f"no_rope_layers must have at least num_layers = {n} entries, got {len(flags)}")
    if any(isinstance(f, float) or f not in (0, 1) for f in flags):
        raise ValueError(f"no_rope_layers must hold 0 (NoPE) or 1 (RoPE), got {flags!r}")
    return [bool(f) for f in flags[:n]]


def llama4_temperature_parameters(config: dict) -> dict:
    r"""The kernel's parameters read from a Llama 4 text config dict (a ``text_config`` inside is used when
    present), with transformers' defaults: ``{"enabled", "floor_scale", "attn_scale", "rope_layers"}``."""
    if not isinstance(config, dict):
        raise ValueError(f"config must be a dict, got {type(config).__name__}")
    text = config.get("text_config", config)
    if not isinstance(text, dict):
        raise ValueError("config['text_config'] must be a dict")
    if "num_hidden_layers" not in text:
        raise ValueError("config must name num_hidden_layers")
    return {
        "enabled": bool(text.get("attn_temperature_tuning", True)),
        "floor_scale": _validate.positive_int(text.get("floor_scale", 8192), "floor_scale"),
        "attn_scale": _attn_scale(text.get("attn_scale", 0.1)),
        "rope_layers": llama4_rope_layers(
            text["num_hidden_layers"],
            no_rope_layers=text.get("no_rope_layers"),
            interval=text.get("no_rope_layer_interval", 4),
        ),
    }


def _trained(value) -> int:
    return _validate.positive_int(value, "trained_length", minimum=2)


def logn_attention_scale(positions, *, trained_length: int) -> np.ndarray:
    r"""Qwen's log-n query scale at each 0-indexed position, float64: ``log(p + 1) / log(trained_length)`` when
    ``p + 1 > trained_length``, else 1 (``trained_length >= 2``)."""
    L = _trained(trained_length)
    n = (_positions(positions) + 1).astype(np.float64)
    return np.where(n > L, np.log(n) / math.log(L), 1.0)


def logn_parameters(config: dict) -> dict:
    r"""Qwen's (v1) log-n parameters read from a config dict as ``QWenAttention`` reads them, with ``QWenConfig``'s
    defaults: ``{"enabled": use_logn_attn (True), "trained_length": seq_length (2048)}``.

    >>> logn_parameters({"use_logn_attn": True, "seq_length": 8192})
    {'enabled': True, 'trained_length': 8192}
    """
    if not isinstance(config, dict):
        raise ValueError(f"config must be a dict, got {type(config).__name__}")
    enabled = config.get("use_logn_attn", True)
    if not isinstance(enabled, (bool, np.bool_)):
        raise ValueError(f"config['use_logn_attn'] must be true or false, got {enabled!r}")
    return {"enabled": bool(enabled), "trained_length": _trained(config.get("seq_length", 2048))}


def logn_attention_scale_mp(position, *, trained_length: int, dps: int = 50):
    r"""The mpmath twin of :func:`logn_attention_scale` for one position at ``dps`` digits."""
    L = _trained(trained_length)
    n = _position(position) + 1
    with mpmath.workdps(_validate.dps(dps)):
        return mpmath.log(n) / mpmath.log(L) if n > L else mpmath.mpf(1)


#: Golden-vector cases: (floor_scale, attn_scale) for Llama 4, trained lengths for log-n, and the positions.
LLAMA4_SETTINGS = ((8192, "0.1"), (4, "0.5"), (1, "1"))
LOGN_LENGTHS = (2048, 8192)
POSITIONS = (0, 1, 2, 3, 7, 2046, 2047, 2048, 4095, 8190, 8191, 8192, 16383, 65535, 1048575)


def golden_vectors_temperature(dps: int = 50, digits: int = 17) -> dict:
    r"""The temperature document in the shape of :mod:`posproof.numeric.vectors`: computed with mpmath at ``dps``
    digits, written as decimal strings of ``digits`` significant digits."""

    def dec(x) -> str:
        with mpmath.workdps(dps):
            return mpmath.nstr(mpmath.mpf(x), digits, strip_zeros=False)

    cases = [
        {
            "parameters": {"scheme": "llama4", "floor_scale": F, "attn_scale": a},
            "positions": list(POSITIONS),
            "scale": [dec(llama4_attention_temperature_mp(p, floor_scale=F, attn_scale=a, dps=dps)) for p in POSITIONS],
        }
        for F, a in LLAMA4_SETTINGS
    ]
    cases += [
        {
            "parameters": {"scheme": "logn", "trained_length": L},
            "positions": list(POSITIONS),
            "scale": [dec(logn_attention_scale_mp(p, trained_length=L, dps=dps)) for p in POSITIONS],
        }
        for L in LOGN_LENGTHS
    ]
    return {
        "scheme": "temperature",
        "version": 1,
        "precision": {
            "dps": dps,
            "digits": digits,
            "note": "mpmath at dps digits, rounded to digits significant "
            "digits as decimal strings; attn_scale is the decimal written",
        },  # fmt: skip
        "conventions": (
            "0-indexed query position p; the query is multiplied by the scale. llama4 (transformers "
            "Llama4TextAttention, NoPE layers): log(floor((p + 1) / floor_scale) + 1) * attn_scale + 1. logn (Qwen "
            "use_logn_attn): log(p + 1) / log(trained_length) if p + 1 > trained_length, else 1"
        ),
        "cases": cases,
    }
