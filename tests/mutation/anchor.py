r"""Where a mutant applies: a function found by :mod:`ast`, and a pattern found inside it, whitespace-insensitively.

A mutant's ``target`` is ``"posproof.symbolic.engine.strategies:expand_strategy"``: a dotted module and the
qualified name of a function, method (``Class.method``), nested function (``outer.inner``) or class in it; a bare
module (``"posproof.symbolic.engine.settings"``) anchors a pattern at module level, outside every ``def`` and
``class``. The module resolves to its file through ``[tool.setuptools.package-dir]`` of ``pyproject.toml`` (the
repository), or directly (a copy laid out as installed, :data:`INSTALLED`).

The pattern must occur exactly once inside the target's lines. Runs of whitespace in it match any run of whitespace
(none at all next to a bracket); its leading and trailing whitespace is dropped, and a pattern that begins or ends
with a letter, digit or underscore matches only at a word boundary (``if x`` never matches inside ``elif x``). So a
function moved to another module needs only its module renamed in ``target``, and reformatting needs no edit.

The replacement ``new`` takes the place of the matched text: its first line where the match begins, each further
line indented by the indentation of the line the match begins on (write them relative to it). An empty ``new``
whose match spans whole lines deletes those lines.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[2]

#: A copy laid out as installed (``posproof/symbolic/...``): every module resolves below ``posproof/``.
INSTALLED = {"posproof": "posproof"}


class Stale(Exception):
    r"""The mutant no longer applies: its module or function is missing, or its pattern is not there exactly once."""


def package_dirs(root: Path = ROOT) -> dict[str, str]:
    r"""``[tool.setuptools.package-dir]`` of ``root/pyproject.toml``: package -> folder of the repository."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    return dict(config["tool"]["setuptools"]["package-dir"])


def module_file(module: str, root: Path, dirs: dict[str, str]) -> Path:
    r"""The file of dotted ``module`` under ``root``, by the longest package of ``dirs`` it lies in."""
    parts = module.split(".")
    for k in range(len(parts), 0, -1):
        package = ".".join(parts[:k])
        if package in dirs:
            base = root / dirs[package] / Path(*parts[k:]) if parts[k:] else root / dirs[package]
            break
    else:
        raise Stale(f"module {module} is in no package of {sorted(dirs)}")
    for path in (base.with_name(base.name + ".py"), base / "__init__.py"):
        if path.is_file():
            return path
    raise Stale(f"module {module} not found (no {base.relative_to(root)}.py)")


def split_target(target: str) -> tuple[str, str]:
    r"""``("posproof.x.y", "Class.method")``; the qualified name is ``""`` for module level."""
    module, _, qualname = target.partition(":")
    return module, qualname


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _children(node: ast.AST):
    r"""The ``def`` and ``class`` statements directly in ``node`` (inside ``if``/``try``/... but not in a def)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, _DEFS):
            yield child
        elif isinstance(child, ast.stmt):
            yield from _children(child)


def definitions(tree: ast.Module) -> dict[str, list[ast.AST]]:
    r"""Qualified name (``Class.method``, ``outer.inner``) -> its ``def``/``class`` nodes (a property's setter
    shares its getter's name)."""
    out: dict[str, list[ast.AST]] = {}

    def walk(node: ast.AST, prefix: str) -> None:
        for child in _children(node):
            name = prefix + child.name  # type: ignore[attr-defined]
            out.setdefault(name, []).append(child)
            walk(child, name + ".")

    walk(tree, "")
    return out


def _first_line(node: ast.AST) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])  # type: ignore[attr-defined]


def enclosing(tree: ast.Module, first: int, last: int) -> str:
    r"""The qualified name of the innermost ``def``/``class`` holding lines ``first..last`` (``""``: none)."""
    best, depth = "", -1
    for name, nodes in definitions(tree).items():
        for node in nodes:
            if _first_line(node) <= first and last <= node.end_lineno and name.count(".") > depth:  # type: ignore
                best, depth = name, name.count(".")
    return best


@functools.lru_cache(maxsize=64)
def _parse(text: str) -> ast.Module:
    return ast.parse(text)  # the tree is only read: one parse serves every mutant of a file


def _regex(pattern: str) -> re.Pattern[str]:
    core = pattern.strip()
    if not core:
        raise Stale("the pattern is empty")
    pieces = re.split(r"(\s+)", core)
    out = []
    for k, piece in enumerate(pieces):
        if k % 2 == 0:
            out.append(re.escape(piece))
        else:  # a run of whitespace: any run; none at all just inside a bracket (a reformatter joins such lines)
            out.append(r"\s*" if pieces[k - 1][-1] in "([{" or pieces[k + 1][0] in ")]}" else r"\s+")
    rx = "".join(out)
    if re.match(r"\w", core[0]):
        rx = r"(?<!\w)" + rx
    if re.match(r"\w", core[-1]):
        rx += r"(?!\w)"
    return re.compile(rx)


@dataclass(frozen=True)
class Site:
    r"""Where one mutant applies: the file, and the character span of the matched text in it."""

    path: Path
    text: str
    start: int
    end: int

    def mutated(self, new: str) -> str:
        r"""The file's text with the match replaced by ``new`` (re-indented as the module docstring says)."""
        text, start, end = self.text, self.start, self.end
        line_start = text.rfind("\n", 0, start) + 1
        line = text[line_start:start]
        indent = line[: len(line) - len(line.lstrip())]
        if not new.strip():
            line_end = text.find("\n", end)
            line_end = len(text) if line_end < 0 else line_end
            if not line.strip() and not text[end:line_end].strip():  # whole lines: delete them
                return text[:line_start] + text[min(line_end + 1, len(text)) :]
            return text[:start] + text[end:]
        lines = new.split("\n")
        body = lines[0] + "".join("\n" + (indent + ln if ln.strip() else ln) for ln in lines[1:])
        return text[:start] + body + text[end:]


def locate(target: str, pattern: str, root: Path = ROOT, dirs: dict[str, str] | None = None) -> Site:
    r"""The one place ``pattern`` occurs inside ``target`` (files under ``root`` laid out by ``dirs``, the
    repository's package-dir by default); :class:`Stale` with a one-line reason otherwise."""
    module, qualname = split_target(target)
    path = module_file(module, root, package_dirs(root) if dirs is None else dirs)
    text = path.read_text(encoding="utf-8")
    try:
        tree = _parse(text)
    except SyntaxError as exc:
        raise Stale(f"{module} does not parse: {exc}") from None
    offsets = [0]
    for line in text.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    rx = _regex(pattern)
    if qualname:
        nodes = definitions(tree).get(qualname)
        if not nodes:
            raise Stale(f"{module} has no function or class {qualname}")
        spans = [(offsets[_first_line(n) - 1], offsets[n.end_lineno]) for n in nodes]  # type: ignore[attr-defined]
        hits = [m for lo, hi in spans for m in rx.finditer(text, lo, hi)]
    else:
        hits = list(rx.finditer(text))
    where = f"{module}:{qualname}" if qualname else f"{module} (module level)"
    if len(hits) != 1:
        raise Stale(f"the pattern occurs {len(hits)} times in {where} (expected once): {pattern.strip()[:60]!r}")
    hit = hits[0]
    if not qualname:
        line = text.count("\n", 0, hit.start()) + 1
        inside = enclosing(tree, line, text.count("\n", 0, hit.end()) + 1)
        if inside:
            raise Stale(f"the pattern is inside {inside}: name it in the target ({module}:{inside})")
    return Site(path, text, hit.start(), hit.end())
