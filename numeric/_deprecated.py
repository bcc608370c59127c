r"""The kernels' old spellings, accepted for one release with a :class:`DeprecationWarning`.

Every kernel takes its data positionally and everything else by keyword, with one name per quantity: ``width``
(was also ``d``, ``d_model``, ``head_dim``) and ``base`` (was also ``rope_theta``). :func:`old_arguments` keeps
the older calls working: options passed in the old positional order, and the old keyword names. The T5 kernels
are not wrapped: two of them took ``num_buckets`` and ``max_distance`` in opposite orders, so a positional option
there is refused (``TypeError``) rather than guessed.

>>> import warnings
>>> @old_arguments(positional=("positions", "width", "base"), renamed={"d": "width"})
... def kernel(positions, *, width, base=10000.0):
...     return width, base
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     kernel([0], 4, 100.0), kernel([0], d=4)
((4, 100.0), (4, 10000.0))
>>> [str(w.message) for w in caught]  # doctest: +NORMALIZE_WHITESPACE
['kernel(): pass width, base by keyword (width=..., base=...); options passed by position are deprecated',
 'kernel(): the keyword d= is deprecated, use width=']
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable, Mapping
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def old_arguments(
    *, positional: tuple[str, ...] = (), renamed: Mapping[str, str] | None = None
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    r"""Accept a kernel's old calls, with a :class:`DeprecationWarning` naming the new spelling.

    ``positional``: the names, in order, of every parameter the old signature took by position (``self`` or
    ``cls`` first for a method). A call with more positional arguments than the new signature takes is read in
    that order: the parameters that are still positional keep their place, the others become keywords.
    ``renamed``: old keyword name -> new one. Giving both spellings of one parameter raises ``ValueError``; an
    old keyword given as ``None`` counts as not given. The wrapped function keeps its signature and docstring."""
    renames = dict(renamed or {})

    def wrap(func: Callable[P, R]) -> Callable[P, R]:
        params = inspect.signature(func).parameters.values()
        now = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        name = func.__qualname__.removesuffix(".__init__")  # RopeScaling(), RopeScaling.inv_freq_mp(), rope()
        if positional and positional[: len(now)] != tuple(now) and set(now) - set(positional):
            raise ValueError(f"{name}: the old positional order {positional} must hold the new one {now}")

        @functools.wraps(func)
        def call(*args: Any, **kwargs: Any) -> Any:
            if positional and len(now) < len(args) <= len(positional):
                given = dict(zip(positional, args, strict=False))
                moved = [k for k in given if k not in now]
                for k in given:
                    if k in kwargs:
                        raise TypeError(f"{name}() got multiple values for argument {k!r}")
                warnings.warn(
                    f"{name}(): pass {', '.join(moved)} by keyword ({', '.join(k + '=...' for k in moved)}); "
                    "options passed by position are deprecated",
                    DeprecationWarning,
                    stacklevel=2,
                )
                args = tuple(given[k] for k in now if k in given)
                kwargs.update({k: given[k] for k in moved})
            for old, new in renames.items():
                if old not in kwargs:
                    continue
                value = kwargs.pop(old)
                warnings.warn(
                    f"{name}(): the keyword {old}= is deprecated, use {new}=", DeprecationWarning, stacklevel=2
                )
                if value is None:
                    continue
                if kwargs.get(new) is not None:
                    raise ValueError(f"give only one of {new}, {old} (the same parameter; {old} is its old name)")
                kwargs[new] = value
            return func(*args, **kwargs)

        call.old_positional = positional  # type: ignore[attr-defined]  # read by the tests and the call-site checks
        call.old_keywords = dict(renames)  # type: ignore[attr-defined]
        return call

    return wrap
