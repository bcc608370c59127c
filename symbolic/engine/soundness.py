r"""The fragment written out: the Markdown tables of ``docs/soundness.md`` (:func:`markdown`), printed from
:data:`~.fragment.CONSTRUCTS` and the strategies' docstrings, and :func:`rewrite` that puts them in the file.

``python -m posproof.symbolic.engine.soundness docs/soundness.md`` rewrites them; a test fails when they are stale.
"""

from __future__ import annotations

from posproof.symbolic.engine.fragment import CONSTRUCTS
from posproof.symbolic.engine.strategies import SIDE_STRATEGIES, STRATEGIES

__all__ = ["markdown", "rewrite"]


def markdown() -> str:
    r"""The fragment as the Markdown tables of ``docs/soundness.md``: each construct with its SymPy classes, its
    condition and its rule; then each named strategy with its soundness argument (its docstring)."""

    def cell(text: str) -> str:
        return " ".join(text.split()).replace("|", "\\|")

    rows = ["| construct | SymPy classes | accepted when | why it is sound |", "| --- | --- | --- | --- |"]
    for c in CONSTRUCTS:
        names = ", ".join(f"`{k.__name__}`" for k in c.classes) or "registered classes"
        rows.append(f"| {c.name} | {names} | {cell(c.condition)} | {cell(c.rule)} |")
    rows += ["", "| strategy | why it is an equivalence |", "| --- | --- |"]
    for name, f in sorted({**STRATEGIES, **SIDE_STRATEGIES}.items()):
        rows.append(f"| `{name}` | {cell(f.__doc__ or '')} |")
    return "\n".join(rows) + "\n"


BEGIN, END = "<!-- the fragment, as soundness.markdown() prints it -->", "<!-- end of the fragment -->"


def rewrite(path: str) -> None:
    r"""Put :func:`markdown` between the markers of the Markdown file ``path`` (``docs/soundness.md``)."""
    import pathlib

    doc = pathlib.Path(path)
    text = doc.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    doc.write_text(f"{head}{BEGIN}\n{markdown()}{END}{tail}", encoding="utf-8")


if __name__ == "__main__":  # python -m posproof.symbolic.engine.soundness docs/soundness.md
    import sys

    rewrite(sys.argv[1])
