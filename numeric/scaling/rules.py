# Long module: the rules (RopeScaling: validation, float64 and mpmath frequencies per rule) and the reader of model
# configurations share every key's validation and defaults; the reader (rope_scaling_from_config and below, ~170
# lines) is the seam to cut next, once it no longer needs RopeScaling's private checks.

r"""Context extension of RoPE: the inverse frequencies ``theta'_i`` and the attention factor of every scaling rule
that model configuration files name, in float64 and as mpmath references.

Notation (as in ``../shared/REFERENCES.md``, "Context extension"): ``width`` is the head width, ``d`` the rotary
width ``int(width * partial_rotary_factor)``, pairs ``i = 0 .. d/2 - 1``, ``theta_i = b**(-2i/d)`` with base
``b``, ``s`` the factor, ``L0`` the trained (original) context length, ``L`` the current length.

``scaling`` is a mapping in the form configuration files use (``rope_scaling`` or ``rope_parameters``), with the
meaning and defaults of Hugging Face transformers' ``modeling_rope_utils``:

* ``"default"``  ``theta_i`` (plain RoPE);
* ``"linear"``   ``theta_i / s`` (Position Interpolation, Chen et al. 2023);
* ``"ntk"``      ``theta_i`` of the base ``b * s**(d/(d-2))`` (static NTK-aware; configuration files usually write
  the new base instead: this rule is here to name it);
* ``"dynamic"``  ``theta_i`` of the base ``b * (s*L/L0 - (s-1))**(d/(d-2))``, ``L = max(seq_len, L0)``;
* ``"yarn"``     ``gamma_i * theta_i/s + (1 - gamma_i) * theta_i`` with the ramp ``gamma_i`` between the correction
  dimensions of ``beta_fast`` and ``beta_slow`` (Peng et al. 2023), and an attention factor;
* ``"llama3"``   Meta's wavelength bands: ``theta_i`` below ``L0/high_freq_factor``, ``theta_i/s`` above
  ``L0/low_freq_factor``, a blend on the closed range between (none when the factors are equal, as in Llama 4);
* ``"longrope"`` ``theta_i / ext_i`` with ``short_factor`` (``seq_len <= L0`` or absent) or ``long_factor``;
* ``"proportional"`` (Gemma 4) not a context-extension rule but a split of the head: the first
  ``floor(partial_rotary_factor * width / 2)`` pairs turn by ``b**(-2i/width) / s`` (the exponent over the *full*
  head width, ``s`` default 1), the other pairs not at all; ``d`` is the whole head (:data:`OTHER_ROPE_TYPES`).

Where ``L0`` comes from: the key ``original_max_position_embeddings`` when the mapping has it, else the keyword
argument ``max_position_embeddings`` (the configuration's value: transformers fills ``L0`` from it for YaRN,
Llama 3 and LongRoPE, and dynamic NTK always uses it). ``max_position_embeddings`` also gives the default factor
``max_position_embeddings / L0`` of YaRN and LongRoPE when ``factor`` is absent. A key whose value is ``None``
(JSON ``null``) counts as absent, as in transformers; ``"type"`` is the legacy spelling of ``"rope_type"``.

Every value is checked: unknown keys, keys the rule does not use, missing keys, wrong types (``bool`` is not a
number, and strings are never parsed as numbers) and out-of-range values raise ``ValueError`` naming the key and
the accepted range.

>>> inv_freq, attention_factor = rope_inv_freq(8, base=10000.0, scaling={"rope_type": "linear", "factor": 4.0})
>>> (inv_freq * 4).round(6).tolist(), attention_factor
([1.0, 0.1, 0.01, 0.001], 1.0)
>>> inv_freq, attention_factor = rope_inv_freq(128, base=10000.0, scaling={"rope_type": "yarn", "factor": 8.0,
...                                                                         "original_max_position_embeddings": 4096})
>>> round(attention_factor, 6), inv_freq.shape
(1.207944, (64,))
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, fields
from typing import Any

import mpmath
import numpy as np
from posproof.numeric import _validate
from posproof.numeric._deprecated import old_arguments
from posproof.numeric.scaling.defaults import (
    GENERIC_KEYS,
    config_class,
    missing_class_keys,
    refuse_without_transformers,
    with_class_defaults,
)
from posproof.numeric.sinusoid import inverse_frequencies, inverse_frequencies_mp

__all__ = [
    "ROPE_TYPES",
    "OTHER_ROPE_TYPES",
    "RopeScaling",
    "rope_inv_freq",
    "rope_inv_freq_mp",
    "rope_inv_freq_from_config",
    "rope_scaling_from_config",
    "config_layer_types",
    "config_width",
    "config_class_defaults",
    "proportional_inv_freq",
]

#: The rules, by the names configuration files use (plus ``"ntk"``, the static NTK-aware base change).
ROPE_TYPES = ("default", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope")
#: Rope types configuration files name that are not context-extension rules, accepted wherever a rope type is read
#: (not compared as alternatives of the rules above, nor listed in their tables): ``"proportional"`` (Gemma 4) turns
#: the first pairs with the full head's exponent and leaves the rest unturned.
OTHER_ROPE_TYPES = ("proportional",)
_ALL_TYPES = ROPE_TYPES + OTHER_ROPE_TYPES
#: Older names: ``"su"`` is what early Phi-3 configuration files call LongRoPE.
_ALIASES = {"su": "longrope"}

#: The keys of a scaling mapping each rule reads (``rope_type``/``type`` and ``partial_rotary_factor`` always).
RULE_KEYS: dict[str, tuple[str, ...]] = {
    "default": (),
    "linear": ("factor",),
    "ntk": ("factor",),
    "dynamic": ("factor", "original_max_position_embeddings"),
    "yarn": (
        "factor",
        "original_max_position_embeddings",
        "beta_fast",
        "beta_slow",
        "attention_factor",
        "mscale",
        "mscale_all_dim",
        "truncate",
    ),
    "llama3": ("factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"),
    "longrope": ("factor", "original_max_position_embeddings", "short_factor", "long_factor", "attention_factor"),
    "proportional": ("factor",),
}
_COMMON_KEYS = ("rope_type", "type", "partial_rotary_factor")
#: Every key a scaling mapping may hold.
KEYS = _COMMON_KEYS + tuple(dict.fromkeys(k for keys in RULE_KEYS.values() for k in keys))

#: YaRN's defaults (Peng et al. 2023; transformers): the ramp runs from the pair completing ``beta_fast`` rotations
#: over ``L0`` positions (kept) to the pair completing ``beta_slow`` (interpolated).
YARN_BETA_FAST = 32.0
YARN_BETA_SLOW = 1.0
#: transformers widens a degenerate ramp (``low == high``) by this much so that it does not divide by zero.
YARN_RAMP_EPSILON = 0.001

_TWO_PI = 2 * math.pi


# ---- validation of single values --------------------------------------------------------------------------------


def _is_real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _real(value, key: str, accepted: str, ok) -> float:
    r"""A finite real number (not a bool, never parsed from a string) for which ``ok(x)`` holds."""
    if not _is_real(value):
        what = " (a string: numbers are never parsed from strings)" if isinstance(value, str) else ""
        raise ValueError(f"{key} must be {accepted}, got {value!r}{what}")
    x = float(value)
    if not math.isfinite(x) or not ok(x):
        raise ValueError(f"{key} must be {accepted}, got {value!r}")
    return x


def _integer(value, key: str, minimum: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < minimum:
        what = " (a string: numbers are never parsed from strings)" if isinstance(value, str) else ""
        raise ValueError(f"{key} must be an integer >= {minimum}, got {value!r}{what}")
    return int(value)


def _optional_integer(value, key: str, minimum: int) -> int | None:
    return None if value is None else _integer(value, key, minimum)


def _factor_list(value, key: str, n: int) -> tuple[float, ...]:
    accepted = f"a list of {n} finite real numbers > 0 (one per rotary pair)"
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, (Sequence, np.ndarray)):
        raise ValueError(f"{key} must be {accepted}, got {value!r}")
    items = list(value)
    if len(items) != n:
        raise ValueError(f"{key} must be {accepted}, got {len(items)} numbers")
    return tuple(_real(v, f"{key}[{j}]", "a finite real number > 0", lambda x: x > 0) for j, v in enumerate(items))


# ---- the validated configuration ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RopeScaling:
    r"""A validated RoPE scaling configuration: everything ``theta'_i`` and the attention factor depend on, apart
    from the current length ``seq_len``.

    ``factor`` is ``s`` as given (``None`` when absent: YaRN and LongRoPE then use
    ``max_position_embeddings / L0``; ``default`` has no factor). ``original_max_position_embeddings`` is ``L0``
    as given; :attr:`L0` resolves it. Construct it directly (``width`` by position, every other field by keyword)
    or, from the mapping of a configuration file, with :meth:`from_mapping`; invalid values raise ``ValueError``
    either way.

    >>> RopeScaling(128, base=500000.0, rope_type="llama3", factor=8.0, original_max_position_embeddings=8192,
    ...             low_freq_factor=1.0, high_freq_factor=4.0).d
    128
    """

    width: int
    _: KW_ONLY
    base: float = 10000.0
    rope_type: str = "default"
    factor: float | None = None
    original_max_position_embeddings: int | None = None
    max_position_embeddings: int | None = None
    beta_fast: float | None = None
    beta_slow: float | None = None
    low_freq_factor: float | None = None
    high_freq_factor: float | None = None
    short_factor: tuple[float, ...] | None = None
    long_factor: tuple[float, ...] | None = None
    attention_factor: float | None = None
    mscale: float | None = None
    mscale_all_dim: float | None = None
    truncate: bool | None = None
    partial_rotary_factor: float = 1.0

    def __post_init__(self):
        set_ = lambda name, value: object.__setattr__(self, name, value)
        rule = self.rope_type
        if not isinstance(rule, str) or _ALIASES.get(rule, rule) not in _ALL_TYPES:
            raise ValueError(f"rope_type must be one of {', '.join(map(repr, _ALL_TYPES))}, got {rule!r}")
        rule = _ALIASES.get(rule, rule)
        set_("rope_type", rule)
        set_("width", _integer(self.width, "width", 1))
        set_("base", _validate.base(self.base))
        prf = _real(
            self.partial_rotary_factor, "partial_rotary_factor", "a real number in (0, 1]", lambda x: 0 < x <= 1
        )
        set_("partial_rotary_factor", prf)
        d = self.d  # transformers' truncation int(width * prf): the rotary width every rule uses as d
        minimum = 4 if rule in ("ntk", "dynamic") else 2  # the NTK exponent d/(d-2) needs d > 2
        if rule == "proportional" and d % 2:  # the whole head turns (some pairs by 0): d is the width
            raise ValueError(f"width must be an even integer >= 2 for rope_type 'proportional', got {self.width}")
        if d < minimum or d % 2:
            raise ValueError(
                f"the rotary width int(width * partial_rotary_factor) = int({self.width} * {prf!r}) = {d} must be an "
                f"even integer >= {minimum}" + (f" for rope_type {rule!r}" if minimum == 4 else "")
            )
        used = set(RULE_KEYS[rule])
        for f in fields(self):
            if f.name in KEYS and f.name not in used and f.name not in _COMMON_KEYS:
                if getattr(self, f.name) is not None:
                    raise ValueError(_not_used(f.name, rule))
        set_("max_position_embeddings", _optional_integer(self.max_position_embeddings, "max_position_embeddings", 1))
        set_(
            "original_max_position_embeddings",
            _optional_integer(self.original_max_position_embeddings, "original_max_position_embeddings", 2),
        )
        if self.factor is not None and rule == "proportional":  # transformers checks nothing: it divides theta_i
            set_("factor", _real(self.factor, "factor", "a finite real number > 0", _pos))
        elif self.factor is not None:
            set_("factor", _real(self.factor, "factor", "a finite real number >= 1", lambda x: x >= 1))
        elif rule in ("linear", "ntk", "dynamic", "llama3"):
            raise ValueError(f"factor is required for rope_type {rule!r}: a finite real number >= 1")
        if rule in ("default", "proportional"):
            return
        L0 = self.L0
        if rule in ("dynamic", "yarn", "llama3", "longrope") and L0 is None:
            raise ValueError(
                f"original_max_position_embeddings (the trained length L0) is required for rope_type {rule!r}: an "
                "integer >= 2 in the mapping, or pass max_position_embeddings="
            )
        if L0 is not None and L0 < 2:
            raise ValueError(f"max_position_embeddings (used as L0) must be an integer >= 2, got {L0}")
        for key in ("attention_factor",):
            if getattr(self, key) is not None:
                set_(key, _real(getattr(self, key), key, "a finite real number > 0", lambda x: x > 0))
        if rule == "yarn":
            for key in ("beta_fast", "beta_slow"):
                if getattr(self, key) is not None:
                    set_(key, _real(getattr(self, key), key, "a finite real number > 0", lambda x: x > 0))
            if self.beta_fast_ < self.beta_slow_:
                raise ValueError(
                    f"beta_fast must be a real number >= beta_slow = {self.beta_slow_!r} (the ramp runs from the "
                    f"pair with beta_fast rotations over L0 down to the one with beta_slow), got {self.beta_fast_!r}"
                )
            for key in ("mscale", "mscale_all_dim"):
                if getattr(self, key) is not None:
                    set_(key, _real(getattr(self, key), key, "a finite real number >= 0", lambda x: x >= 0))
            if self.truncate is not None and not isinstance(self.truncate, (bool, np.bool_)):
                raise ValueError(f"truncate must be true or false, got {self.truncate!r}")
            set_("truncate", None if self.truncate is None else bool(self.truncate))
        if rule == "llama3":
            for key in ("low_freq_factor", "high_freq_factor"):
                if getattr(self, key) is None:
                    raise ValueError(f"{key} is required for rope_type 'llama3': a finite real number > 0")
            set_("low_freq_factor", _real(self.low_freq_factor, "low_freq_factor", "a finite real number > 0", _pos))
            low = self.low_freq_factor
            set_(
                "high_freq_factor",
                _real(self.high_freq_factor, "high_freq_factor", f"a finite real number >= low_freq_factor = {low!r}",
                      lambda x: x >= low),
            )  # fmt: skip
        if rule == "longrope":
            for key in ("short_factor", "long_factor"):
                if getattr(self, key) is None:
                    raise ValueError(f"{key} is required for rope_type 'longrope': a list of {d // 2} numbers > 0")
                set_(key, _factor_list(getattr(self, key), key, d // 2))
        if rule in ("yarn", "longrope") and self.factor is None:
            needs_factor = rule == "yarn" or self.attention_factor is None
            mpe = self.max_position_embeddings
            if needs_factor and mpe is None:
                raise ValueError(
                    f"factor is required for rope_type {rule!r} (a finite real number >= 1), or pass "
                    "max_position_embeddings= so that it is max_position_embeddings / L0"
                )
            if needs_factor and mpe is not None and L0 is not None and mpe < L0:
                raise ValueError(
                    f"max_position_embeddings must be >= L0 = {L0} when factor is absent (the factor is "
                    f"max_position_embeddings / L0 and must be >= 1), got {self.max_position_embeddings}"
                )

    # ---- resolved values ----

    @property
    def d(self) -> int:
        r"""The rotary width ``int(width * partial_rotary_factor)``: ``d`` in every formula (proportional: the width,
        every pair past :attr:`turning_pairs` turning by 0)."""
        if self.rope_type == "proportional":
            return self.width
        return int(self.width * self.partial_rotary_factor)

    @property
    def turning_pairs(self) -> int:
        r"""The pairs with a non-zero frequency: ``d/2``, or proportional's ``floor(partial_rotary_factor * d / 2)``
        (transformers' ``int(partial_rotary_factor * head_dim // 2)``)."""
        if self.rope_type == "proportional":
            return int(self.partial_rotary_factor * self.width // 2)
        return self.d // 2

    @property
    def L0(self) -> int | None:
        r"""The trained length: ``original_max_position_embeddings``, else ``max_position_embeddings``."""
        if self.original_max_position_embeddings is not None:
            return self.original_max_position_embeddings
        return self.max_position_embeddings

    @property
    def s(self) -> float:
        r"""The factor: as given, else (YaRN, LongRoPE) ``max_position_embeddings / L0``, else 1."""
        if self.factor is not None:
            return self.factor
        if self.rope_type in ("yarn", "longrope") and self.max_position_embeddings is not None:
            return self.max_position_embeddings / self.L0  # type: ignore[operator]
        return 1.0

    @property
    def beta_fast_(self) -> float:
        return YARN_BETA_FAST if self.beta_fast is None else self.beta_fast

    @property
    def beta_slow_(self) -> float:
        return YARN_BETA_SLOW if self.beta_slow is None else self.beta_slow

    # ---- construction from a mapping ----

    @classmethod
    @old_arguments(positional=("cls", "width", "base", "scaling", "max_position_embeddings"))
    def from_mapping(
        cls, width: int, *, base: float = 10000.0, scaling: Mapping | None = None, max_position_embeddings=None
    ) -> RopeScaling:
        r"""Validate ``scaling`` (a configuration file's ``rope_scaling``; ``None`` or ``{}`` is ``"default"``)."""
        if scaling is None:
            scaling = {}
        if not isinstance(scaling, Mapping):
            raise ValueError(f"scaling must be a mapping (a configuration's rope_scaling) or None, got {scaling!r}")
        given = {}
        for key, value in scaling.items():
            if key not in KEYS:
                hint = " (the base is the base argument)" if key == "rope_theta" else ""
                raise ValueError(f"unknown key {key!r} in scaling{hint}; accepted keys: {', '.join(KEYS)}")
            if value is not None:  # JSON null: absent, as in transformers
                given[key] = value
        if "type" in given and "rope_type" in given and given["type"] != given["rope_type"]:
            raise ValueError(
                f"rope_type {given['rope_type']!r} and its legacy spelling type {given['type']!r} disagree"
            )
        rule = given.pop("rope_type", given.pop("type", "default"))
        given.pop("type", None)
        if isinstance(rule, str) and _ALIASES.get(rule, rule) in _ALL_TYPES:
            for key in given:
                if key not in RULE_KEYS[_ALIASES.get(rule, rule)] and key != "partial_rotary_factor":
                    raise ValueError(_not_used(key, _ALIASES.get(rule, rule)))
        return cls(width, base=base, rope_type=rule, max_position_embeddings=max_position_embeddings, **given)

    def as_dict(self) -> dict[str, Any]:
        r"""The configuration as given plus the resolved ``d``, ``L0`` and ``s`` (JSON-ready)."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self) if not f.name.startswith("_")}
        for key in ("short_factor", "long_factor"):
            if out[key] is not None:
                out[key] = list(out[key])
        out.update(d=self.d, L0=self.L0, s=self.s)
        return out

    # ---- the frequencies ----

    def inv_freq(self, seq_len: int | None = None) -> tuple[np.ndarray, float]:
        r"""``(theta', attention_factor)``: float64 ``theta'_i`` ``(d/2,)`` and the factor multiplying cos and sin.

        ``seq_len`` is the current length ``L`` (dynamic NTK: ``L = max(seq_len, L0)``, absent means ``L0``;
        LongRoPE: the long table when ``seq_len > L0``); the other rules ignore it."""
        seq_len = _optional_integer(seq_len, "seq_len", 1)
        d, b, rule = self.d, self.base, self.rope_type
        theta = inverse_frequencies(d, base=b)  # (d/2,): b**(-2i/d)
        if rule == "default":
            return theta, 1.0
        s = self.s
        if rule == "linear":
            return theta / s, 1.0
        if rule == "ntk":
            return inverse_frequencies(d, base=b * s ** (d / (d - 2))), 1.0
        if rule == "proportional":
            theta[self.turning_pairs :] = 0.0  # (d/2,): the pairs past the turning ones keep their channels
            return theta / s, 1.0
        L0 = self.L0
        assert L0 is not None  # checked in __post_init__
        if rule == "dynamic":
            L = L0 if seq_len is None else max(seq_len, L0)
            return inverse_frequencies(d, base=b * ((s * L / L0) - (s - 1)) ** (d / (d - 2))), 1.0
        if rule == "yarn":
            low, high = self.yarn_correction_range()
            i = np.arange(d // 2, dtype=np.float64)  # (d/2,)
            gamma = np.clip((i - low) / (high - low), 0.0, 1.0)  # (d/2,): 0 keeps theta_i, 1 gives theta_i/s
            return (theta / s) * gamma + theta * (1.0 - gamma), self._yarn_attention()
        if rule == "llama3":
            low, high = self.low_freq_factor, self.high_freq_factor
            assert low is not None and high is not None
            lam = _TWO_PI / theta  # (d/2,): wavelengths
            # (d/2,): 0 at lam = L0/low, 1 at lam = L0/high; equal factors (Llama 4) leave no band between: 1
            sigma = (L0 / lam - low) / (high - low) if high > low else np.ones_like(lam)
            blend = (1.0 - sigma) * theta / s + sigma * theta
            out = np.where(lam > L0 / low, theta / s, theta)
            return np.where(~(lam < L0 / high) & ~(lam > L0 / low), blend, out), 1.0
        # longrope
        ext = np.asarray(self._longrope_table(seq_len), dtype=np.float64)  # (d/2,)
        return theta / ext, self._longrope_attention()

    @old_arguments(positional=("self", "seq_len", "dps"))
    def inv_freq_mp(self, seq_len: int | None = None, *, dps: int = 50) -> tuple[list, Any]:
        r"""The same definitions at ``dps`` digits: ``(list of d/2 mpf, mpf attention factor)``.

        Float inputs are taken exactly (binary values); comparisons, floors and ceilings are made at ``dps`` digits,
        so they can differ from :meth:`inv_freq` only where float64 rounding decides (a YaRN correction dimension
        within ~1e-13 of an integer, a wavelength within rounding of a Llama 3 boundary: there the blend is
        continuous and the values agree)."""
        seq_len = _optional_integer(seq_len, "seq_len", 1)
        dps = _validate.dps(dps)
        d, rule = self.d, self.rope_type
        with mpmath.workdps(dps):
            b = mpmath.mpf(self.base)
            one = mpmath.mpf(1)
            theta = inverse_frequencies_mp(d, base=b, dps=dps)
            if rule == "default":
                return theta, one
            s = self._s(mp=True)
            if rule == "linear":
                return [t / s for t in theta], one
            if rule == "ntk":
                return inverse_frequencies_mp(d, base=b * s ** (mpmath.mpf(d) / (d - 2)), dps=dps), one
            if rule == "proportional":
                n = self.turning_pairs
                return [t / s for t in theta[:n]] + [mpmath.mpf(0)] * (d // 2 - n), one
            L0 = self.L0
            assert L0 is not None
            if rule == "dynamic":
                L = L0 if seq_len is None else max(seq_len, L0)
                ratio = s * L / L0 - (s - 1)
                return inverse_frequencies_mp(d, base=b * ratio ** (mpmath.mpf(d) / (d - 2)), dps=dps), one
            if rule == "yarn":
                low, high = self.yarn_correction_range(mp=True)
                out = []
                for i, t in enumerate(theta):
                    gamma = min(max(mpmath.mpf(i - low) / (high - low), 0), 1)  # at dps: low, high may be ints
                    out.append(t / s * gamma + t * (1 - gamma))
                return out, self._yarn_attention(mp=True)
            if rule == "llama3":
                low, high = mpmath.mpf(self.low_freq_factor), mpmath.mpf(self.high_freq_factor)
                out = []
                for t in theta:
                    lam = 2 * mpmath.pi / t
                    if lam < L0 / high:
                        out.append(t)
                    elif lam > L0 / low:
                        out.append(t / s)
                    else:  # (equal factors: only lam = L0/low exactly, where the limit from below is theta)
                        sigma = (L0 / lam - low) / (high - low) if high > low else 1
                        out.append((1 - sigma) * t / s + sigma * t)
                return out, one
            ext = [mpmath.mpf(e) for e in self._longrope_table(seq_len)]
            return [t / e for t, e in zip(theta, ext, strict=True)], self._longrope_attention(mp=True)

    # ---- pieces of the rules ----

    @old_arguments(positional=("self", "mp"))
    def yarn_correction_range(self, *, mp: bool = False) -> tuple[Any, Any]:
        r"""YaRN's ``(low, high)`` pair indices of the ramp: ``c(r) = d ln(L0/(2 pi r)) / (2 ln b)`` at
        ``beta_fast`` and ``beta_slow``, floored/ceiled when ``truncate`` (default true), then ``low`` raised to 0
        and ``high`` lowered to ``d - 1``, and ``high += 0.001`` when they are equal (as transformers does).

        >>> yarn = RopeScaling(128, rope_type="yarn", factor=8.0, original_max_position_embeddings=4096)
        >>> yarn.yarn_correction_range()
        (20, 46)
        """
        if self.rope_type != "yarn":
            raise ValueError(f"yarn_correction_range needs rope_type 'yarn', got {self.rope_type!r}")
        d, L0 = self.d, self.L0
        assert L0 is not None
        if mp:
            log, pi, b = mpmath.log, mpmath.pi, mpmath.mpf(self.base)
            beta_fast, beta_slow = mpmath.mpf(self.beta_fast_), mpmath.mpf(self.beta_slow_)
            floor, ceil = (lambda x: int(mpmath.floor(x))), (lambda x: int(mpmath.ceil(x)))
        else:
            log, pi, b = math.log, math.pi, self.base
            beta_fast, beta_slow = self.beta_fast_, self.beta_slow_
            floor, ceil = math.floor, math.ceil
        c = lambda r: (d * log(L0 / (r * 2 * pi))) / (2 * log(b))
        low, high = c(beta_fast), c(beta_slow)
        if self.truncate is None or self.truncate:
            low, high = floor(low), ceil(high)
        low, high = max(low, 0), min(high, d - 1)
        if low == high:
            high += mpmath.mpf(YARN_RAMP_EPSILON) if mp else YARN_RAMP_EPSILON
        return low, high

    def _s(self, mp: bool):
        r"""``s`` as a float, or exactly as an mpf."""
        if not mp:
            return self.s
        if self.factor is None and self.rope_type in ("yarn", "longrope") and self.max_position_embeddings is not None:
            return mpmath.mpf(self.max_position_embeddings) / self.L0
        return mpmath.mpf(self.s)

    def _yarn_attention(self, mp: bool = False):
        r"""``attention_factor`` if given; else ``m(s, mscale)/m(s, mscale_all_dim)`` when both are given and
        non-zero (transformers tests their truth value); else ``m(s, 1)``; ``m(s, a) = 0.1 a ln s + 1``, 1 if
        ``s <= 1``."""
        num = mpmath.mpf if mp else float
        if self.attention_factor is not None:
            return num(self.attention_factor)
        s, log, tenth = self._s(mp), (mpmath.log if mp else math.log), (mpmath.mpf(1) / 10 if mp else 0.1)
        m = lambda a: num(1) if s <= 1 else tenth * num(a) * log(s) + 1
        if self.mscale and self.mscale_all_dim:
            return m(self.mscale) / m(self.mscale_all_dim)
        return m(1)

    def _longrope_table(self, seq_len: int | None) -> tuple[float, ...]:
        long = seq_len is not None and seq_len > self.L0  # type: ignore[operator]
        table = self.long_factor if long else self.short_factor
        assert table is not None
        return table

    def _longrope_attention(self, mp: bool = False):
        r"""``attention_factor`` if given; else ``sqrt(1 + ln s / ln L0)``, 1 when ``s <= 1``."""
        num = mpmath.mpf if mp else float
        if self.attention_factor is not None:
            return num(self.attention_factor)
        s = self._s(mp)
        if s <= 1:
            return num(1)
        log, sqrt = (mpmath.log, mpmath.sqrt) if mp else (math.log, math.sqrt)
        L0 = self.L0
        assert L0 is not None
        return sqrt(1 + log(s) / log(num(L0)))


# The older call RopeScaling(width, base, rope_type, ...) with the fields by position: accepted for one release, with
# a DeprecationWarning (the dataclass takes every field but the width by keyword).
setattr(  # noqa: B010 - assigning the method directly is what mypy refuses
    RopeScaling,
    "__init__",
    old_arguments(positional=("self", *(f.name for f in fields(RopeScaling) if f.init)))(RopeScaling.__init__),
)


def _pos(x: float) -> bool:
    return x > 0


def _not_used(key: str, rule: str) -> str:
    keys = ", ".join(("partial_rotary_factor",) + RULE_KEYS[rule])
    return f"key {key!r} is not used by rope_type {rule!r} (its keys: {keys})"


# ---- the functions ------------------------------------------------------------------------------------------------


@old_arguments(positional=("width", "base", "scaling", "seq_len"))
def rope_inv_freq(
    width: int,
    *,
    base: float = 10000.0,
    scaling: Mapping | None = None,
    seq_len: int | None = None,
    max_position_embeddings: int | None = None,
) -> tuple[np.ndarray, float]:
    r"""``(inv_freq, attention_factor)``: float64 ``theta'_i`` of shape ``(d/2,)``, ``d`` the rotary width
    ``int(width * partial_rotary_factor)``, and the factor that multiplies cos and sin (logits scale by its square).

    ``scaling``: a configuration file's ``rope_scaling`` mapping (see the module docstring); ``seq_len``: the
    current length, for dynamic NTK and LongRoPE; ``max_position_embeddings``: the configuration's value, used as
    ``L0`` when the mapping has no ``original_max_position_embeddings`` and for the default factor of YaRN and
    LongRoPE.

    >>> rope_inv_freq(4, base=100.0)[0].tolist()
    [1.0, 0.1]
    >>> rope_inv_freq(4, base=100.0, scaling={"rope_type": "dynamic", "factor": 2.0}, seq_len=64,
    ...               max_position_embeddings=32)[0].tolist()  # base 100 * (2*64/32 - 1)**2 = 900
    [1.0, 0.03333333333333333]
    """
    cfg = RopeScaling.from_mapping(width, base=base, scaling=scaling, max_position_embeddings=max_position_embeddings)
    return cfg.inv_freq(seq_len)


@old_arguments(positional=("width", "base", "scaling", "seq_len"))
def rope_inv_freq_mp(
    width: int,
    *,
    base: float = 10000.0,
    scaling: Mapping | None = None,
    seq_len: int | None = None,
    max_position_embeddings: int | None = None,
    dps: int = 50,
) -> tuple[list, Any]:
    r""":func:`rope_inv_freq` at ``dps`` significant digits: ``(list of d/2 mpf, mpf)``; inputs taken exactly.

    >>> inv, af = rope_inv_freq_mp(4, base=100.0, scaling={"rope_type": "linear", "factor": 3.0}, dps=30)
    >>> mpmath.nstr(inv[1], 25), mpmath.nstr(af, 25)
    ('0.03333333333333333333333333', '1.0')
    """
    cfg = RopeScaling.from_mapping(width, base=base, scaling=scaling, max_position_embeddings=max_position_embeddings)
    return cfg.inv_freq_mp(seq_len, dps=dps)


@old_arguments(positional=("width", "base", "partial_rotary_factor", "factor"))
def proportional_inv_freq(
    width: int, *, base: float = 10000.0, partial_rotary_factor: float = 1.0, factor: float = 1.0
) -> np.ndarray:
    r"""Proportional RoPE (transformers' ``rope_type: "proportional"``, the Gemma 4 family): the first
    ``r = floor(partial_rotary_factor * d / 2)`` pairs turn by ``base**(-2i/d) / factor`` with the exponent over the
    *full* head width ``d``, the other ``d/2 - r`` pairs do not turn (frequency 0); float64 ``(d/2,)``, so the
    rotation covers the whole head. Partial rotary instead takes ``base**(-2i/r')`` over the rotary width ``r'``
    and leaves the other channels out.

    >>> proportional_inv_freq(8, partial_rotary_factor=0.5).tolist()
    [1.0, 0.1, 0.0, 0.0]
    """
    width = _validate.even_width(width)
    scaling = {"rope_type": "proportional", "partial_rotary_factor": partial_rotary_factor, "factor": factor}
    return RopeScaling.from_mapping(width, base=base, scaling=scaling).inv_freq()[0]


# ---- whole model configurations -----------------------------------------------------------------------------------

#: Older names transformers still reads (GPT-NeoX/Pythia): translated, as transformers' config classes do.
_LEGACY_KEYS = {"rotary_emb_base": "rope_theta", "rotary_pct": "partial_rotary_factor"}
#: Keys of a rope mapping that do not change the frequencies of text positions: multimodal RoPE's split of the pairs
#: into temporal, height and width sections (Qwen2-VL, Qwen2.5-VL); for one position per token it is plain RoPE.
_MROPE_KEYS = ("mrope_section", "mrope_interleaved")
#: Keys of a rope mapping that transformers' rope functions never read: a repeated max_position_embeddings
#: (Mistral 4), and Llama 4's query temperature ``llama_4_scaling_beta`` (applied to queries by the attention).
_UNREAD_KEYS = ("max_position_embeddings", "llama_4_scaling_beta")
#: Where the rope keys live: the top level, else a multimodal model's ``text_config``.
_ROPE_CONFIG_KEYS = ("rope_theta", "rope_scaling", "rope_parameters", "head_dim", "hidden_size", "qk_rope_head_dim")


def _model_rope_defaults(model_type) -> Mapping | None:
    r"""The ``rope_parameters`` transformers gives a default configuration of ``model_type`` (its per-model
    ``rope_theta`` and ``partial_rotary_factor``), or ``None`` without transformers or for an unknown type."""
    if not isinstance(model_type, str):
        return None
    cls = config_class(model_type, text=True)  # a multimodal type: its language model's class
    if cls is None:
        return None
    import logging

    log = logging.getLogger("transformers")
    level = log.level
    log.setLevel(logging.ERROR)  # its warnings about a default config are not the user's
    try:
        params = getattr(cls(), "rope_parameters", None)
    except Exception:  # noqa: BLE001 - a config class that needs arguments
        return None
    finally:
        log.setLevel(level)
    return params if isinstance(params, Mapping) else None


def flatten_text_config(config: Mapping) -> Mapping:
    text = config.get("text_config")
    if isinstance(text, Mapping) and not any(config.get(k) is not None for k in _ROPE_CONFIG_KEYS):
        return text  # the language model's own configuration (Gemma 3, Llama 4, Qwen2.5-VL, ...)
    return config


@old_arguments(positional=("config", "layer_type"))
def rope_scaling_from_config(
    config: Mapping, *, layer_type: str | None = None, layer: int | None = None
) -> RopeScaling:
    r"""The validated :class:`RopeScaling` of a whole model configuration (a parsed ``config.json``).

    Read as transformers reads them: the language model's settings (a multimodal configuration's ``text_config``
    when the top level has none); ``rope_scaling`` or the newer ``rope_parameters`` (a mapping of mappings per
    layer type needs ``layer_type=``; Gemma 3's legacy ``rope_local_base_freq`` is the base of its
    ``"sliding_attention"`` layers, whose rope is plain, while ``rope_scaling`` applies to ``"full_attention"``);
    the base is ``rope_theta`` in that mapping, else at the top level (``rotary_emb_base`` for GPT-NeoX), else the
    model's default as transformers defines it (Cohere 5e5, gpt-oss 1.5e5, Llama 4 5e5, ...: read from the
    installed transformers by ``model_type``; without transformers, or without ``model_type``, a missing
    ``rope_theta`` raises rather than guess); ``partial_rotary_factor`` likewise (``rotary_pct``, or ``rotary_dim``
    over the head width; default the model's, else 1); the head width is ``qk_rope_head_dim`` (MLA models such as
    DeepSeek-V2/V3, where transformers sets ``head_dim`` to it), else ``head_dim``, else ``attention_head_dim``,
    else ``hidden_size // num_attention_heads``; ``L0`` for YaRN, Llama 3 and LongRoPE is a top-level
    ``original_max_position_embeddings`` (Phi-3 keeps it there, and transformers lets it win), else the mapping's,
    else ``max_position_embeddings``; dynamic NTK uses ``max_position_embeddings`` as ``L0`` (transformers ignores
    an ``original_max_position_embeddings`` for it, and so does this function). Multimodal RoPE's
    ``mrope_section`` is read as plain RoPE (one position per token). As in transformers, YaRN needs the key
    ``factor`` (``null`` means ``max_position_embeddings / L0``).

    Per layer (transformers 5.24): ``per_layer_config`` maps layer indices (JSON writes them as strings, ``"05"``)
    to settings that replace the global ones in those layers (Gemma 4's full-attention layers have
    ``head_dim: 512``); ``layer_types`` gives each layer's type. ``layer_type=`` reads the settings every layer of
    that type shares (transformers refuses a type whose layers differ, and so does this function), ``layer=`` (an
    index) one layer's, with its type's rope parameters. :func:`config_layer_types` lists the layer types whose
    RoPE differs. DeepSeek-V4 keys its rope parameters by its own labels (``"main"``, ``"compress"``), which are
    what ``layer_type=`` takes there; its rotary slice is ``int(head_dim * partial_rotary_factor)`` channels (the
    last ones, which the audit finds), ``qk_rope_head_dim`` being that product.

    >>> llama31 = {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072,
    ...            "rope_theta": 500000.0, "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0,
    ...            "high_freq_factor": 4.0, "original_max_position_embeddings": 8192, "rope_type": "llama3"}}
    >>> cfg = rope_scaling_from_config(llama31)
    >>> cfg.rope_type, cfg.d, cfg.L0, cfg.s
    ('llama3', 128, 8192, 8.0)
    """
    config, params, nested, defaults, model_type = _rope_layers(config)
    merged, layer_type = _layer_overrides(config, layer_type, layer, nested)
    if merged is not config:  # a layer's own settings: its rope mapping and legacy keys are read again
        config, params, nested, _, _ = _rope_layers(dict(merged, model_type=model_type))
    local_base = config.get("rope_local_base_freq")
    default_layers = [k for k, v in (defaults or {}).items() if isinstance(v, Mapping)]
    if nested:
        if layer_type not in nested:
            raise ValueError(
                f"layer_type must be one of {', '.join(map(repr, nested))} (rope_parameters is given per layer "
                f"type), got {layer_type!r}"
            )
        params = params[layer_type]
        layer_defaults = (defaults or {}).get(layer_type) if default_layers else defaults
        if layer_type == "full_attention" and local_base is not None and "rope_theta" not in params:
            params = dict(params, rope_theta=config.get("rope_theta"))
    elif layer_type is not None and layer is None:
        per_type = _per_layer_types(config)
        if layer_type not in per_type:
            raise ValueError(
                "layer_type must be None: rope parameters and head widths are not given per layer type"
                if not per_type
                else f"layer_type must be one of {', '.join(map(repr, per_type))} (per_layer_config gives them "
                "other head widths)" + f", got {layer_type!r}"
            )
        layer_defaults = defaults
    else:
        layer_defaults = defaults
    factor_key = "factor" in params  # transformers refuses a YaRN without the key (null: max_position / L0)
    # mrope's sections, and keys the rope functions of transformers never read (Mistral 4 repeats
    # max_position_embeddings in its rope parameters; transformers warns and uses the top-level one)
    params = {k: v for k, v in params.items() if v is not None and k not in _MROPE_KEYS + _UNREAD_KEYS}
    if params.get("rope_type", params.get("type")) == "mrope":
        params.pop("type", None)
        params["rope_type"] = "default"
    width = config_width(config)
    base = params.pop("rope_theta", config.get("rope_theta"))
    if base is None and isinstance(layer_defaults, Mapping):
        base = layer_defaults.get("rope_theta")
    if base is None:
        raise ValueError(
            "config has no rope_theta: transformers then uses the model's own default base (10000 for Llama, 5e5 "
            "for Cohere and Llama 4, 1.5e5 for gpt-oss, ...)"
            + (
                f"; install transformers (pip install 'posproof[transformers]') to read model_type {model_type!r}'s"
                if isinstance(model_type, str)
                else "; the config has no model_type to look it up by"
            )
            + ", or write rope_theta in the config"
        )
    if "partial_rotary_factor" not in params:
        if config.get("partial_rotary_factor") is not None:
            params["partial_rotary_factor"] = config["partial_rotary_factor"]
        elif config.get("rotary_dim") is not None and defaults is None:  # GPT-J, CodeGen (models that use rope
            # parameters, MiniMax-M3 among them, leave rotary_dim to other code: transformers rotates the full width)
            rd = _integer(config["rotary_dim"], "config rotary_dim", 2)
            params["partial_rotary_factor"] = rd / width
        elif isinstance(layer_defaults, Mapping) and layer_defaults.get("partial_rotary_factor") not in (None, 1.0):
            params["partial_rotary_factor"] = layer_defaults["partial_rotary_factor"]
    max_position_embeddings = config.get("max_position_embeddings")
    rule = params.get("rope_type", params.get("type", "default"))
    rule = _ALIASES.get(rule, rule) if isinstance(rule, str) else rule
    if rule == "yarn" and not factor_key:
        raise ValueError(
            "config: factor is required for rope_type 'yarn' (transformers refuses a YaRN without the key; null "
            "means max_position_embeddings / original_max_position_embeddings)"
        )
    if rule in ("yarn", "llama3", "longrope") and config.get("original_max_position_embeddings") is not None:
        params["original_max_position_embeddings"] = config["original_max_position_embeddings"]
    if rule == "dynamic":
        params.pop("original_max_position_embeddings", None)
    if config.get("qk_rope_head_dim") is not None and config.get("head_dim") is not None:
        prf = params.get("partial_rotary_factor")
        if prf is not None and _is_real(prf) and prf != 1:  # DeepSeek-V4: the factor is of the whole head
            width = _integer(config["head_dim"], "config head_dim", 1)
            rope_width = _integer(config["qk_rope_head_dim"], "config qk_rope_head_dim", 1)
            if int(width * prf) != rope_width:
                raise ValueError(
                    f"config: qk_rope_head_dim must be int(head_dim * partial_rotary_factor) = int({width} * {prf!r}) "
                    f"= {int(width * prf)} (the rotary slice transformers computes), got {rope_width}"
                )
    try:
        return RopeScaling.from_mapping(
            width, base=base, scaling=params, max_position_embeddings=max_position_embeddings
        )
    except ValueError as e:
        raise ValueError(f"config: {e}") from None


#: The keys the reader takes from a model's configuration class when the file leaves them out (:mod:`.defaults`).
CLASS_FILLED_KEYS = ("head_dim", *GENERIC_KEYS, "per_layer_config", "layer_types")


def config_class_defaults(config: Mapping) -> dict:
    r"""What the model's configuration class gives the language model's settings of ``config`` that the reader
    needs and the file leaves out (``head_dim``, ``hidden_size``, ``num_attention_heads``,
    ``max_position_embeddings``, ``per_layer_config`` and ``layer_types``; read from transformers, see
    :mod:`.defaults`): ``{}`` when the file gives them all. ``ValueError`` as :func:`rope_scaling_from_config`."""
    given = flatten_text_config(config)
    filled = _rope_layers(config)[0]
    return {k: filled[k] for k in CLASS_FILLED_KEYS if given.get(k) is None and filled.get(k) is not None}


def _rope_layers(config: Mapping) -> tuple[dict, Mapping, list, Mapping | None, Any]:
    r"""``(config, params, nested, defaults, model_type)``: the language model's settings with legacy keys
    translated, its rope mapping (per layer type when ``nested`` lists the types, Gemma 3's legacy form made
    explicit) and the model's transformers defaults."""
    if not isinstance(config, Mapping):
        raise ValueError(f"config must be a mapping (a parsed config.json), got {type(config).__name__}")
    model_type = config.get("model_type")
    config = flatten_text_config(config)
    model_type = config.get("model_type", model_type)
    settings: dict = dict(config)
    config = settings
    for old, new in _LEGACY_KEYS.items():
        if config.get(old) is not None:
            if config.get(new) is not None and config[new] != config[old]:
                raise ValueError(f"config has both {old} and {new} and they differ: keep one")
            config[new] = config[old]
    scaling_value, parameters = config.get("rope_scaling"), config.get("rope_parameters")
    if scaling_value and parameters and scaling_value != parameters:
        raise ValueError("config has both rope_scaling and rope_parameters and they differ: keep one")
    params = scaling_value or parameters or {}
    if not isinstance(params, Mapping):
        raise ValueError(f"config rope_scaling/rope_parameters must be a mapping or null, got {params!r}")
    # what the file leaves to the model's configuration class, read from transformers only then (import: ~4 s)
    keys, rope_keys = missing_class_keys(config, params, model_type)
    refuse_without_transformers(keys + [k for k in rope_keys if k in ("partial_rotary_factor", "rope_parameters")],
                                model_type)  # fmt: skip
    if keys:
        settings = with_class_defaults(settings, keys, model_type=model_type)
    config = settings
    defaults = _model_rope_defaults(model_type) if rope_keys else None
    nested = [k for k, v in params.items() if isinstance(v, Mapping)]
    local_base = config.get("rope_local_base_freq")
    default_layers = [k for k, v in (defaults or {}).items() if isinstance(v, Mapping)]
    if not nested and (local_base is not None or default_layers):
        # Gemma 3's legacy form: rope_scaling (and rope_theta) for the full-attention layers, rope_local_base_freq
        # (or the model's local default) for the sliding ones, whose rope is plain
        local: dict = {"rope_type": "default"}
        if local_base is not None:
            local["rope_theta"] = local_base
        params = {"full_attention": dict(params), "sliding_attention": local}
        nested = ["full_attention", "sliding_attention"]
    return config, params, nested, defaults, model_type


def _layer_type_list(config: Mapping) -> list[str] | None:
    types = config.get("layer_types")
    if types is None:
        return None
    if isinstance(types, (str, bytes, Mapping)) or not isinstance(types, Sequence):
        raise ValueError(f"config layer_types must be a list of strings (one per layer), got {types!r}")
    for t in types:
        if not isinstance(t, str):
            raise ValueError(f"config layer_types must be a list of strings (one per layer), got {t!r} in it")
    return list(types)


def _per_layer(config: Mapping) -> dict[int, Mapping]:
    r"""``per_layer_config`` as ``{layer index: settings}`` (keys are integers, or decimal strings as JSON has them)."""
    raw = config.get("per_layer_config")
    if raw is None:
        return {}
    accepted = 'a mapping of layer index (an integer, or its decimal string such as "05") to a mapping of settings'
    if not isinstance(raw, Mapping):
        raise ValueError(f"config per_layer_config must be {accepted}, got {raw!r}")
    out: dict[int, Mapping] = {}
    for key, value in raw.items():
        if isinstance(key, str) and key.isdecimal() and key.isascii():
            index = int(key)
        elif isinstance(key, numbers.Integral) and not isinstance(key, (bool, np.bool_)) and int(key) >= 0:
            index = int(key)
        else:
            raise ValueError(f"config per_layer_config must be {accepted}, got the key {key!r}")
        if not isinstance(value, Mapping):
            raise ValueError(f"config per_layer_config must be {accepted}, got {value!r} for layer {key!r}")
        out[index] = value
    return out


#: Settings of a layer that change its RoPE (the rest of per_layer_config, such as num_key_value_heads, does not).
_PER_LAYER_ROPE_KEYS = (
    "head_dim", "qk_rope_head_dim", "attention_head_dim", "hidden_size", "num_attention_heads",
    "partial_rotary_factor", "rotary_pct", "rotary_emb_base", "rope_theta", "rope_parameters", "rope_scaling",
)  # fmt: skip


def _per_layer_types(config: Mapping) -> list[str]:
    r"""The layer types whose layers ``per_layer_config`` gives other RoPE settings (head widths), with the
    types they differ from; ``[]`` when it changes no RoPE setting."""
    per_layer = _per_layer(config)
    if not any(k in v for v in per_layer.values() for k in _PER_LAYER_ROPE_KEYS):
        return []
    types = _layer_type_list(config)
    if types is None:
        raise ValueError(
            "config per_layer_config gives layers other head widths or rope settings, but the config has no "
            "layer_types: pass layer= (a layer index)"
        )
    return list(dict.fromkeys(types))


def _layer_overrides(config: dict, layer_type, layer, nested: list) -> tuple[dict, Any]:
    r"""The settings of ``layer`` (an index) or of every layer of ``layer_type``, with ``per_layer_config`` applied,
    and the layer type whose rope parameters apply."""
    per_layer = _per_layer(config)
    types = _layer_type_list(config)
    if layer is not None:
        n = len(types) if types is not None else config.get("num_hidden_layers")
        if not isinstance(n, int) or isinstance(n, bool):
            raise ValueError("layer= needs the config's layer_types or num_hidden_layers to know the layers")
        if isinstance(layer, (bool, np.bool_)) or not isinstance(layer, numbers.Integral) or not 0 <= int(layer) < n:
            raise ValueError(f"layer must be an integer in 0 .. {n - 1} (a layer index of the config), got {layer!r}")
        layer = int(layer)
        own = types[layer] if types is not None else None
        if layer_type is None:
            layer_type = own if nested or own in _per_layer_types(config) else None
        elif types is not None and layer_type in types and layer_type != own:
            raise ValueError(f"layer_type must be {own!r} (the type of layer {layer}) or None, got {layer_type!r}")
        return {**config, **per_layer.get(layer, {})}, layer_type
    if not per_layer or types is None or layer_type not in types:
        return config, layer_type
    indices = [i for i, t in enumerate(types) if t == layer_type]
    first = per_layer.get(indices[0], {})
    for i in indices[1:]:
        if per_layer.get(i, {}) != first:
            raise ValueError(
                f"layer_type {layer_type!r} has layers with different per_layer_config settings (layers {indices[0]} "
                f"and {i}; transformers refuses it too): pass layer= (a layer index in 0 .. {len(types) - 1}) instead"
            )
    return {**config, **first}, layer_type


def config_layer_types(config: Mapping) -> list[str | None]:
    r"""The layer types whose RoPE may differ, as ``layer_type=`` takes them (``[None]`` when one RoPE serves every
    layer): the keys of rope parameters given per layer type (Gemma 3's legacy ``rope_local_base_freq`` included,
    DeepSeek-V4's labels) that some layer of ``layer_types`` has (a model's rotary builds no RoPE for a type no layer
    has: Laguna's default configuration gives ``sliding_attention`` parameters to no layer), else the types of
    ``layer_types`` when ``per_layer_config`` gives some layers other head widths.

    >>> config_layer_types({"head_dim": 64, "rope_parameters": {"full_attention": {"rope_theta": 1e6},
    ...                                                          "sliding_attention": {"rope_theta": 1e4}}})
    ['full_attention', 'sliding_attention']
    >>> config_layer_types({"head_dim": 64, "rope_theta": 1e4})
    [None]
    """
    config, _, nested, _, _ = _rope_layers(config)
    if nested:
        used = set(_layer_type_list(config) or ())
        return [t for t in nested if t in used] if used & set(nested) else list(nested)
    return list(_per_layer_types(config)) or [None]


def config_width(config: Mapping) -> int:
    r"""The head width a (flattened text) model configuration declares: ``qk_rope_head_dim``, ``head_dim`` or
    ``attention_head_dim``, else ``hidden_size // num_attention_heads``; a ``ValueError`` naming the key otherwise."""
    if isinstance(config.get("head_dim"), (list, tuple)):
        raise ValueError(
            "config head_dim must be an integer >= 1: transformers 5.24 reads per-layer head widths from "
            'per_layer_config (layer index -> {"head_dim": ...}) and layer_types, not from a list, got '
            f"{config['head_dim']!r}"
        )
    for key in ("qk_rope_head_dim", "head_dim", "attention_head_dim"):
        if config.get(key) is not None:
            return _integer(config[key], f"config {key}", 1)
    if config.get("hidden_size") is None or config.get("num_attention_heads") is None:
        raise ValueError("config needs head_dim, or hidden_size and num_attention_heads (integers >= 1)")
    hidden = _integer(config["hidden_size"], "config hidden_size", 1)
    heads = _integer(config["num_attention_heads"], "config num_attention_heads", 1)
    return _integer(hidden // heads, "config hidden_size // num_attention_heads", 1)


@old_arguments(positional=("config", "seq_len"))
def rope_inv_freq_from_config(
    config: Mapping, *, seq_len: int | None = None, layer_type: str | None = None, layer: int | None = None
) -> tuple[np.ndarray, float]:
    r""":func:`rope_inv_freq` for a whole model configuration (see :func:`rope_scaling_from_config`).

    >>> qwen2_yarn = {"hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 32768,
    ...               "rope_theta": 1000000.0, "rope_scaling": {"factor": 4.0, "type": "yarn",
    ...               "original_max_position_embeddings": 32768}}
    >>> inv_freq, attention_factor = rope_inv_freq_from_config(qwen2_yarn)
    >>> inv_freq.shape, round(attention_factor, 6)
    ((64,), 1.138629)
    """
    return rope_scaling_from_config(config, layer_type=layer_type, layer=layer).inv_freq(seq_len)
