r"""Helpers for a user's own tests of their claims: :func:`assert_proved` and :func:`assert_rejected`.

``assert_proved(claim)`` verifies a claim (both lines) and returns its result; when it does not verify, the
``AssertionError`` says, for each failing step, whether the symbolic line proved it, what the step's strategies left
of the difference (of the gap, for an inequality), and the numeric line's verdict with the first point that
disagrees where the result names one. ``assert_rejected(claim)`` is for the wrong variants: it fails when the claim
verifies, or when the symbolic line proves it.

>>> import sympy as sp
>>> from posproof.symbolic.engine.core import Step, Theorem
>>> x = sp.Symbol("x", real=True)
>>> pythagoras = Theorem("pythagoras", "sin^2 + cos^2 = 1", "mine", "a textbook",
...                      steps=(Step(sp.sin(x)**2 + sp.cos(x)**2, sp.Integer(1), "Pythagoras", ("trigsimp",)),))
>>> assert_proved(pythagoras, dps=30).ok
True
>>> assert_rejected(pythagoras.with_rhs(sp.Integer(2)), dps=30).symbolic
False

A strategy that cannot prove the step leaves a difference, and the message shows it:

>>> assert_proved(Theorem("pythagoras-expand", "sin^2 + cos^2 = 1", "mine", "a textbook",
...     steps=(Step(sp.sin(x)**2 + sp.cos(x)**2, sp.Integer(1), "Pythagoras", ("expand",)),)), dps=30)
Traceback (most recent call last):
  ...
AssertionError: theorem 'pythagoras-expand' is not verified: step 0: the strategy ('expand',) does not reduce ...
  step 0 (Pythagoras): symbolic line NOT proved: ('expand',) leaves sin(x)**2 + cos(x)**2 - 1
    numeric line agree, 24 points, max rel err ...
"""

from __future__ import annotations

import sympy as sp
from posproof.symbolic.engine import settings

__all__ = ["assert_proved", "assert_rejected"]

#: How many characters of an expression a message shows.
SHOWN = 300


def _short(e, limit: int = SHOWN) -> str:
    text = sp.sstr(e) if isinstance(e, (sp.Basic, sp.MatrixBase)) else str(e)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _checks(claim) -> list:
    r"""The steps ``verify`` checks, in the order of its results (the claim itself last when the steps do not
    chain)."""
    steps = list(getattr(claim, "steps", ()))
    if getattr(claim, "kind", "") == "theorem" and not claim.chained:
        steps.append(claim.claim)
    return steps


def leftover(step, given: tuple = ()) -> str:
    r"""What the step's strategies leave: of ``lhs - rhs`` for ``=``, of the gap ``big - small`` for an inequality
    (after its side strategy), or why a citation does not hold; one line, at most :data:`SHOWN` characters.

    >>> from posproof.symbolic.engine.core import Step
    >>> x = sp.Symbol("x", positive=True)
    >>> leftover(Step(x, x + 1, "one more", ("expand",), "<"))
    'the gap 1'
    """
    from posproof.symbolic.engine.step import Citation
    from posproof.symbolic.engine.strategies import SIDE_STRATEGIES, bind, reduce_difference

    try:
        if step.cites is not None:
            if not isinstance(step.cites, Citation):
                return f"it cites a {type(step.cites).__name__}, not a Lemma's citation: that proves nothing"
            problems = step.cites.problems(step, given)
            return "the citation: " + ("; ".join(problems) if problems else "holds")
        lhs, rhs = bind(step.lhs, given), bind(step.rhs, given)
        if step.rel == "=":
            return f"{step.strategy} leaves {_short(reduce_difference(lhs, rhs, step.strategy, given))}"
        problem = getattr(step, "symbolic_problem", None)  # the engine's own reason, where it gives one
        reason = problem(given) if callable(problem) else ""
        if reason and not reason.startswith("the gap "):  # a side not proved real, a side strategy that fails
            return reason
        small, big = (lhs, rhs) if step.rel in ("<=", "<") else (rhs, lhs)
        names, pairs = step.strategy, [(small, big)]
        if names and names[0] in SIDE_STRATEGIES:
            try:
                pairs = SIDE_STRATEGIES[names[0]](small, big, given)
            except ValueError as e:
                return f"the side strategy {names[0]!r} does not apply: {e}"
            names = names[1:]
        gaps = [_short(reduce_difference(b, s, names, given), SHOWN // len(pairs)) for s, b in pairs]
        return "the gap " + "; the gap ".join(gaps)
    except Exception as e:  # a strategy that raises proves nothing: say what it raised
        return f"the strategy raised {type(e).__name__}: {_short(e)}"


def _point(numeric) -> str:
    point = getattr(numeric, "point", None)
    if point is None:
        return ""
    if isinstance(point, dict):
        shown = ", ".join(f"{k} = {_short(v, 60)}" for k, v in point.items())
    else:
        shown = _short(point)
    return f"; first disagreeing point: {_short(shown)}"


def _numeric_line(numeric) -> str:
    err = numeric.max_rel_error
    out = f"numeric line {numeric.status}, {numeric.points} points"
    if err is not None:
        out += f", max rel err {err:.1e}"
    if numeric.reason:
        out += f": {_short(numeric.reason)}"
    return out + _point(numeric)


def explain(claim, result) -> str:
    r"""The message of a failed check: the claim's detail, then each failing step's two lines."""
    head = f"{result.kind} {result.id!r} is not verified" + (f": {result.detail}" if result.detail else "")
    lines = [head]
    checks = _checks(claim)
    given = tuple(getattr(claim, "given", ()))
    for r in result.steps:
        if r.ok:
            continue
        step = checks[r.index] if r.index < len(checks) else None
        why = _short(step.why, 80) if step is not None else "?"
        if r.symbolic is None:
            symbolic = "symbolic line: nothing to prove (a definition)"
        elif r.symbolic:
            symbolic = "symbolic line proved"
        else:
            symbolic = "symbolic line NOT proved"
            if step is not None:
                symbolic += f": {leftover(step, given)}"
            elif r.reason:
                symbolic += f": {r.reason}"
        lines.append(f"  step {r.index} ({why}): {symbolic}")
        lines.append(f"    {_numeric_line(r.numeric)}")
    return "\n".join(lines)


def assert_proved(claim, *, dps: int = settings.DEFAULT_DPS):
    r"""Verify ``claim`` at ``dps`` digits and return its ``VerifyResult``; raise ``AssertionError`` saying what
    failed (see the module's docstring) when it does not verify. A theorem must also be proved by the symbolic line
    (a definition or a fact has nothing to prove symbolically: its checks are its numeric line or computation)."""
    result = claim.verify(dps=dps)
    if not result.ok or result.symbolic is False:
        raise AssertionError(explain(claim, result))
    return result


def assert_rejected(claim, *, dps: int = settings.DEFAULT_DPS):
    r"""Verify ``claim`` (a wrong variant: ``claim.wrong_variant()``, ``claim.with_rhs(...)``) and return its
    result; raise ``AssertionError`` if it verifies, or if the symbolic line proves it (a wrong claim the strategy
    proves is a hole, whatever the numeric line says)."""
    result = claim.verify(dps=dps)
    if result.ok:
        raise AssertionError(f"{result.kind} {result.id!r} verifies, but it should be rejected")
    if result.symbolic:
        raise AssertionError(
            f"{result.kind} {result.id!r} is rejected only by the numeric line: the symbolic line proves it "
            f"({result.detail})"
        )
    return result
