r"""The registry of claims (theorems, definitions, facts), in a stable order, and of what the modules declare
besides.

Each scheme module of :mod:`symbolic` defines ``claims()`` returning its theorems, definitions and facts in the
order they are told; every claim carries a ``topic`` tag (one of :data:`TOPICS`, the article's chapters). The
registry lists the modules in reading order and builds each one on first use. A module may also declare, as data
(:mod:`symbolic.tables`), its rows of the rules table (``RULES_ROWS``), its annotations of the texts
(``ANNOTATIONS``), the named parts its formulas print with (``SYMBOLS``) and the functions its length claims verify
(``LENGTHS``): :func:`rules_rows`, :func:`statements`, :func:`symbols` and :func:`lengths` gather them, module by
module in registry order. Adding a scheme is its module and one line of :data:`MODULES`. A user's own module of
claims, outside the catalogue, is loaded by :func:`user_claims` (``posproof check --claims MODULE``).

>>> from posproof.symbolic import registry
>>> registry.get("sinusoidal-dot-product").id
'sinusoidal-dot-product'
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
from functools import cache
from typing import Any

#: Topics in reading order: the order problem and absolute codes, then relative rewrites, then RoPE.
TOPICS = (
    "order",
    "sinusoidal",
    "relative",
    "kernels",
    "rope",
    "extension",
    "remapping",
    "temperature",
    "multiaxis",
    "properties",
    "article",
    "lemmas",
)


#: One module per scheme, in reading order (each module's claims share one topic), as paths below
#: :mod:`posproof.symbolic`.
MODULES = (
    "order",
    "sinusoidal",
    "attention",
    "transformer_xl",
    "deberta",
    "t5",
    "alibi",
    "bias_kernels",
    "cope",
    "rope.rotary",
    "rope.xpos",
    "rope.p_rope",
    "scaling.relative",
    "scaling.linear",
    "scaling.ntk",
    "scaling.yarn",
    "scaling.llama3",
    "scaling.float64",
    "scaling.pi_theorem",
    "remap",
    "dual_chunk",
    "rope.cache_shift",
    "temperature",
    "nope",
    "rope.multiaxis",
    "rope.axes",
    "properties.absolute",
    "properties.relative",
    "properties.rope",
    "properties.causal",
    "properties.lengths",
    "article.statements",
    "lemmas",
)


@cache
def module(name: str) -> tuple:
    r"""The claims of one scheme module, built once."""
    if name not in MODULES:
        raise ValueError(f"module must be one of {', '.join(MODULES)}; got {name!r}")
    return tuple(importlib.import_module(f"posproof.symbolic.{name}").claims())


def topic(name: str) -> tuple:
    r"""The claims tagged with one topic, in reading order."""
    if name not in TOPICS:
        raise ValueError(f"topic must be one of {', '.join(TOPICS)}; got {name!r}")
    return tuple(c for c in all() if c.topic == name)


def all() -> tuple:  # noqa: A001 - the issue fixes this name
    r"""Every registered claim (theorems, definitions, facts), in a stable order (modules in reading order)."""
    out: list = []
    for name in MODULES:
        out.extend(module(name))
    return tuple(out)


def _declared(attribute: str) -> list[tuple[str, Any]]:
    r"""``(module, item)`` for every item of ``attribute`` that a module declares, modules in registry order."""
    out = []
    for name in MODULES:
        for item in getattr(importlib.import_module(f"posproof.symbolic.{name}"), attribute, ()):
            out.append((name, item))
    return out


def _in_order(attribute: str) -> tuple:
    r"""The items of ``attribute`` sorted by their ``order`` key; two items with one key are refused."""
    items = _declared(attribute)
    seen: dict[int, str] = {}
    for name, item in items:
        if item.order in seen:
            raise ValueError(f"{attribute}: order {item.order} is declared by {seen[item.order]} and {name}")
        seen[item.order] = name
    return tuple(item for _, item in sorted(items, key=lambda pair: pair[1].order))


@cache
def rules_rows() -> tuple:
    r"""The rows of the rules table (:class:`symbolic.tables.Row`), in the table's order (their ``order`` keys)."""
    return _in_order("RULES_ROWS")


@cache
def statements() -> tuple:
    r"""The annotated statements of the texts (:class:`symbolic.tables.Annotation`), in the texts' order (their
    ``order`` keys)."""
    return _in_order("ANNOTATIONS")


@cache
def symbols() -> tuple:
    r"""The named parts of formulas (:class:`symbolic.tables.Name`), in registry order, each once (a part that
    several modules print with is declared by each)."""
    return tuple(dict.fromkeys(item for _, item in _declared("SYMBOLS")))


@cache
def lengths() -> dict:
    r"""Length claim id -> the function of ``(L0, L)`` it verifies at the article's lengths (modules' ``LENGTHS``)."""
    out: dict = {}
    for name in MODULES:
        declared = getattr(importlib.import_module(f"posproof.symbolic.{name}"), "LENGTHS", {})
        for claim_id, function in declared.items():
            if claim_id in out:
                raise ValueError(f"LENGTHS: {claim_id!r} is declared twice (the second time by {name})")
            out[claim_id] = function
    return out


def ids() -> list[str]:
    return [c.id for c in all()]


def get(claim_id: str):
    r"""The claim with this id; ``ValueError`` naming close matches if there is none."""
    for c in all():
        if c.id == claim_id:
            return c
    close = difflib.get_close_matches(claim_id, ids(), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else "; run 'posproof list' for the ids"
    raise ValueError(f"unknown claim id {claim_id!r}{hint}")


# ---- a user's own claims module ---------------------------------------------------------------------------------


def user_claims(target: str) -> tuple:
    r"""The claims of a user's module (``posproof check --claims MODULE``): ``target`` is a dotted module name
    importable from the current directory or ``sys.path``, or a path to a ``.py`` file; it defines ``claims()``
    returning its theorems, definitions and facts, like a catalogue module. The module is imported (never read as
    a string and evaluated); a module that cannot be imported, has no ``claims()``, or whose ``claims()`` raises or
    returns anything but claims with distinct ids, is a ``ValueError`` in one line.

    >>> user_claims("posproof.symbolic.alibi")[0].id
    'alibi-translation-invariant'
    """
    from posproof.symbolic.engine.core import Definition, Fact, Theorem

    module = target
    loaded = _import_user(module)
    make = getattr(loaded, "claims", None)
    if not callable(make):
        raise ValueError(f"module {module} defines no claims() function (it returns the module's claims)")
    try:
        out = tuple(make())
    except Exception as e:  # noqa: BLE001 - the user's claims may raise anything, a refused construct included
        raise ValueError(f"claims() of {module} raised {type(e).__name__}: {_first_line(e)}") from None
    seen: set[str] = set()
    for k, c in enumerate(out):
        if not isinstance(c, (Theorem, Definition, Fact)):
            raise ValueError(
                f"claims() of {module} must return Theorems, Definitions and Facts; "
                f"item {k} is of type {type(c).__name__}"
            )
        if c.id in seen:
            raise ValueError(f"claims() of {module} returns the id {c.id!r} twice")
        seen.add(c.id)
    if not out:
        raise ValueError(f"claims() of {module} returns no claims")
    return out


def _first_line(e: BaseException) -> str:
    text = str(e)
    return text.splitlines()[0] if text else ""


def _import_user(module: str):
    r"""The module ``module`` names (a dotted name, or a path to a ``.py`` file), imported with importlib."""
    import sys
    from pathlib import Path

    try:
        if module.endswith(".py") or "/" in module or "\\" in module:
            path = Path(module)
            if not path.is_file():
                raise ValueError(f"cannot import {module}: no such file")
            name = path.stem
            if name in sys.modules and getattr(sys.modules[name], "__file__", None) != str(path.resolve()):
                name = f"_posproof_claims_{name}"  # never shadow a module already imported under that name
            spec = importlib.util.spec_from_file_location(name, path.resolve())
            if spec is None or spec.loader is None:
                raise ValueError(f"cannot import {module}: not a Python file")
            loaded = importlib.util.module_from_spec(spec)
            sys.modules[name] = loaded  # dataclasses and pickling look classes up by their module
            try:
                spec.loader.exec_module(loaded)
            except BaseException:
                del sys.modules[name]
                raise
            return loaded
        if "" not in sys.path and str(Path.cwd()) not in sys.path:
            sys.path.insert(0, str(Path.cwd()))  # as `python -m` does: modules in the current directory
        return importlib.import_module(module)
    except ValueError as e:
        if str(e).startswith(f"cannot import {module}:"):
            raise
        raise ValueError(f"importing {module} raised {type(e).__name__}: {_first_line(e)}") from None
    except ModuleNotFoundError as e:
        raise ValueError(f"cannot import {module}: {e}") from None
    except SyntaxError as e:
        raise ValueError(f"cannot import {module}: syntax error at {e.filename}:{e.lineno}: {e.msg}") from None
    except Exception as e:  # noqa: BLE001 - the user's module may raise anything at import
        raise ValueError(f"importing {module} raised {type(e).__name__}: {_first_line(e)}") from None
