r"""A corpus of RoPE, ALiBi and T5 implementations in the styles people write them, each with the finding ids the
audit must report (an empty set: a correct implementation that must pass with no finding).

Written for posproof from the conventions in ../shared/REFERENCES.md (no code copied). Each module lists its
cases in ``CASES``; :func:`all_cases` collects them (torch cases only where torch is installed)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

MODULES = (
    "numpy_loops",
    "vectorised",
    "rotate_half",
    "complex_numbers",
    "cached",
    "fused_qk",
    "real_code",
    "torch_impls",
    "alibi_impls",
    "t5_impls",
)


@dataclass(frozen=True)
class Case:
    r"""``fn`` audited with ``scheme`` (``rope``, ``alibi``, ``t5``) and ``kwargs``; ``expected``: the finding ids."""

    name: str
    fn: Any
    expected: frozenset
    scheme: str = "rope"
    kwargs: dict = field(default_factory=dict)
    style: str = ""

    @property
    def correct(self) -> bool:
        return not self.expected


def case(fn, expected=(), scheme="rope", style="", **kwargs) -> Case:
    return Case(f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}", fn, frozenset(expected), scheme, kwargs, style)


def all_cases() -> list[Case]:
    out = []
    for name in MODULES:
        try:
            mod = importlib.import_module(f"{__name__}.{name}")
        except ImportError as e:  # torch_impls without torch
            if "torch" in str(e):
                continue
            raise
        out.extend(mod.CASES)
    return out
