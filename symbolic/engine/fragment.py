r"""The fragment: the mathematics the engine accepts, each construct with the rule that makes it sound.

Default-deny: every node of every expression a claim is built with (and of every expression a strategy produces)
must be an instance of a construct listed in :data:`CONSTRUCTS` and meet its condition; anything else is refused
with a :class:`Refused` (a ``ValueError``) naming the construct. ``docs/soundness.md`` is this list, written out.
"""

from __future__ import annotations

__all__ = ["Refused", "check", "check_produced", "refusal"]


class Refused(ValueError):
    r"""A construct outside the fragment: the message names it, and the claim and step where it was met."""


def refusal(e, *, given: tuple = ()) -> str:
    r"""Why ``e`` is outside the fragment (one line naming the construct), or ``""``."""
    return ""


def check(e, *, given: tuple = (), where: str = "") -> None:
    r"""Raise :class:`Refused` if ``e`` is outside the fragment (``where``: the claim and the part, for the message)."""
    reason = refusal(e, given=given)
    if reason:
        raise Refused(f"{where}: {reason}" if where else reason)


def check_produced(e, strategy: str, given: tuple = ()) -> None:
    r"""Raise :class:`Refused` if the strategy ``strategy`` produced an expression outside the fragment."""
    reason = refusal(e, given=given)
    if reason:
        raise Refused(f"the strategy {strategy!r} produced {reason}")
