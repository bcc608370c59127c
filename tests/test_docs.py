r"""Every command and snippet of ``README.md`` and ``docs/*.md`` runs here, as written, so that none goes stale.

What each fenced block is, and what is done with it:

- ```` ```python ````: executed, the blocks of one file in order and in one namespace, in that file's own working
  directory (a fresh temporary one). A block of ``>>>`` examples runs as a doctest in the same namespace (the
  guides that ``tests/test_doctests.py`` already runs are left to it). A block whose first line is ``# NAME.py``
  is a file: written into the working directory (compiled, not run), where the commands and the later blocks
  import it.
- ```` ```console ```` (or ``text``) with ``$ `` lines: a transcript. Each ``$ posproof ...`` is split with
  :mod:`shlex` and run in this process through :func:`posproof.derivations.cli.main` (``python -m posproof ...``
  and ``python -m posproof.<module>`` in a subprocess), and the lines after it are its output (stdout, then
  stderr), compared with the real output after :func:`masked` (timings in seconds, the JSON's ``seconds`` and
  ``jobs``, the working directory). A last output line ``(exit N)`` is its exit code; otherwise 0.
- ```` ```sh ```` / ```` ```bash ```` without ``$``: each line is a command, run the same way; its output is not
  compared, its exit code is (0, or the block's ``<!-- exit N -->``).

HTML comments on the lines right above a fence say more (several may stack, one per line):

- ``<!-- not run: WHY -->``: deliberately not runnable (it needs your model, it runs the whole suite): reported as
  a skip with the reason (``pytest -ra`` counts them);
- ``<!-- synopsis -->``: a usage summary (placeholders, ``[optional]`` parts): not run, but every subcommand and
  option it names must exist, and a command that needs an extra must name it (``posproof[precision]``);
- ``<!-- exit N -->``: the exit code of every command of the block that shows no ``(exit N)`` of its own;
- ``<!-- output abridged -->``: the shown output is a selection: each shown line (``...`` lines skipped) must
  appear in the real output, after masking, in order;
- ``<!-- needs: NAME, ... -->``: an optional part (a module, a program such as ``pdflatex``, or ``katex``); the
  block is skipped, with the reason, where it is missing. Imports of torch, transformers, matplotlib and ml_dtypes,
  and the commands that need them (``plot``, ``precision``, ``audit --transformers``), need no marker;
- ``<!-- file: NAME -->``: the block (``json``, ``python``, ...) is the file NAME, written into the working
  directory;
- ``<!-- excerpt: PATH -->``: the block is quoted from PATH (trailing ``  # comments`` aside) and must still be there.

Files a command needs that no block writes come from :data:`FIXTURES`, by name. Inline code spans in the prose
that are commands (`` `posproof derive ID --format text` ``) are checked like synopses. Slow commands (a whole
``check``, the exports, the precision profile, the base-bound search, a fresh interpreter printing a topic)
are marked ``slow`` by :func:`slow_reason`; the exports are served from the session's own (:mod:`tests.exports`),
never built twice in one process. Blocks of documents another engineer keeps that are known to fail are expected
failures, each with its fix (:data:`PENDING`).

To regenerate every shown output after an intended change: ``POSPROOF_UPDATE_DOCS=1 .venv/bin/python -m pytest
tests/test_docs.py`` (add ``-k`` to pick; ``-m "not slow"`` leaves the slow ones alone): each transcript whose
output differs is rewritten in place with the output as it came out (masked parts included) and its exit code.
Abridged outputs and the codes of blocks without output are edited by hand. Review the diff before committing it.
"""

from __future__ import annotations

import ast
import atexit
import contextlib
import dataclasses
import difflib
import doctest
import importlib.util
import inspect
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType

import pytest

from tests.audit_corpus import t5_impls

ROOT = Path(__file__).resolve().parents[1]
#: The documents whose blocks run, relative to the repository root.
DOCS = ("README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")))
#: ``POSPROOF_UPDATE_DOCS=1``: rewrite the shown outputs that differ instead of failing.
UPDATE = os.environ.get("POSPROOF_UPDATE_DOCS") == "1"
#: The terminal width the commands see (argparse wraps its help to it).
COLUMNS = "80"


# ==============================================================================================================
# Reading the Markdown
# ==============================================================================================================

#: The markers an HTML comment above a fence may hold: name -> whether it takes an argument (after ``:`` or a space).
MARKERS = {
    "not run": True,
    "synopsis": False,
    "exit": True,
    "output abridged": False,
    "needs": True,
    "file": True,
    "excerpt": True,
}
_FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w+-]*)\s*$")
_COMMENT = re.compile(r"^\s*<!--\s*(?P<body>.*?)\s*-->\s*$")
_MARK = re.compile(r"^(?P<name>not run|synopsis|exit|output abridged|needs|file|excerpt)\b\s*:?\s*(?P<arg>.*)$")
#: A first line naming the file a block is: ``# my_rope.py``.
_FILE_LINE = re.compile(r"^#\s*(?P<name>[\w.-]+\.(?:py|json|toml|txt|cfg))\s*$")
_EXIT_LINE = re.compile(r"^\(exit (?P<code>\d+)\)$")
#: Languages of shell blocks and transcripts.
SHELL = {"console", "sh", "bash", "shell", "shell-session", "text"}


@dataclasses.dataclass(frozen=True)
class Block:
    r"""One fenced block: where it is (1-based line numbers of its fences), its language, its lines (without the
    fence's indentation) and the markers above it."""

    path: str
    start: int
    end: int
    lang: str
    indent: str
    lines: tuple[str, ...]
    marks: Mapping[str, str]
    errors: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return "".join(f"{line}\n" for line in self.lines)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.start}"


def parse_marks(comments: Sequence[str]) -> tuple[dict[str, str], list[str]]:
    r"""The markers of the HTML comments above a fence, and what in them is not a marker."""
    marks: dict[str, str] = {}
    errors = []
    for body in comments:
        m = _MARK.match(body)
        if m is None:
            errors.append(f"unknown marker <!-- {body} --> (known: {', '.join(MARKERS)})")
            continue
        name, arg = m["name"], m["arg"].strip()
        if MARKERS[name] and not arg:
            errors.append(f"<!-- {name} --> needs its argument (<!-- {name}: ... -->)")
        elif not MARKERS[name] and arg:
            errors.append(f"<!-- {name} --> takes no argument, got {arg!r}")
        elif name == "exit" and not arg.isdigit():
            errors.append(f"<!-- exit N --> needs an integer, got {arg!r}")
        marks[name] = arg
    return marks, errors


def parse_blocks(path: str, text: str) -> list[Block]:
    r"""The fenced blocks of a Markdown document, with the markers on the lines right above each."""
    lines = text.splitlines()
    found = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        indent, lang = m["indent"], m["lang"]
        close = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), None)
        if close is None:
            raise ValueError(f"{path}:{i + 1}: a fence that is never closed")
        body = tuple(line[len(indent) :] if line.startswith(indent) else line.lstrip() for line in lines[i + 1 : close])
        comments: list[str] = []
        j = i - 1
        while j >= 0 and (c := _COMMENT.match(lines[j])) is not None:
            comments.insert(0, c["body"])
            j -= 1
        marks, errors = parse_marks(comments)
        found.append(Block(path, i + 1, close + 1, lang, indent, body, MappingProxyType(marks), tuple(errors)))
        i = close + 1
    return found


def stray_markers(path: str, text: str) -> list[str]:
    r"""Marker comments that are not right above a fence (they would be silently ignored)."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        c = _COMMENT.match(line)
        if c is None or _MARK.match(c["body"]) is None:
            continue
        j = i + 1
        while j < len(lines) and _COMMENT.match(lines[j]):
            j += 1
        if j >= len(lines) or not _FENCE.match(lines[j]):
            out.append(f"{path}:{i + 1}: <!-- {c['body']} --> is not on the lines right above a fence")
    return out


@dataclasses.dataclass(frozen=True)
class Command:
    r"""One command of a shell block: its words, the output shown after it (``None`` in a block without ``$``
    prompts, which shows none), its expected exit code, and where it is in the block (``index``, the line of the
    command; ``stop``, the line after its output and ``(exit N)``)."""

    block: Block
    index: int
    stop: int
    words: tuple[str, ...]
    shown: tuple[str, ...] | None
    exit: int

    @property
    def line(self) -> int:
        return self.block.start + 1 + self.index

    @property
    def text(self) -> str:
        return shlex.join(self.words)


def is_transcript(block: Block) -> bool:
    r"""A shell block with ``$`` prompts (a command, then what it printed)."""
    return block.lang in SHELL and any(line.startswith("$ ") for line in block.lines)


def commands(block: Block) -> list[Command]:
    r"""The commands of a shell block, in order: after each ``$`` in a transcript, else one a line (``\`` joins
    lines; ``#`` starts a comment)."""
    default = int(block.marks.get("exit", "0"))
    lines = block.lines
    out = []
    if is_transcript(block):
        starts = [i for i, line in enumerate(lines) if line.startswith("$ ")]
        for n, i in enumerate(starts):
            stop = starts[n + 1] if n + 1 < len(starts) else len(lines)
            j, source = i, lines[i][2:]
            while source.endswith("\\") and j + 1 < stop:
                j += 1
                source = source[:-1] + " " + lines[j].strip()
            shown = list(lines[j + 1 : stop])
            while shown and not shown[-1].strip():
                shown.pop()
            code = default
            if shown and (m := _EXIT_LINE.match(shown[-1].strip())):
                code = int(m["code"])
                shown.pop()
            out.append(Command(block, i, stop, tuple(shlex.split(source, comments=True)), tuple(shown), code))
        return out
    i = 0
    while i < len(lines):
        j, source = i, lines[i]
        while source.rstrip().endswith("\\") and j + 1 < len(lines):
            j += 1
            source = source.rstrip()[:-1] + " " + lines[j].strip()
        words = tuple(shlex.split(source, comments=True))
        if words:
            out.append(Command(block, i, j + 1, words, None, default))
        i = j + 1
    return out


def file_name(block: Block) -> str | None:
    r"""The file a block is (``<!-- file: NAME -->``, or a first line ``# NAME.py``), or ``None``."""
    name = block.marks.get("file")
    if name is None and block.lang in ("python", "py") and block.lines:
        m = _FILE_LINE.match(block.lines[0])
        name = m["name"] if m else None
    return name


def is_doctest(block: Block) -> bool:
    return block.lang in ("python", "py", "pycon") and block.text.lstrip().startswith(">>>")


# ==============================================================================================================
# Masking what depends on the machine
# ==============================================================================================================

#: What :func:`masked` replaces: (pattern, replacement). Each is something that differs between two runs or two
#: machines while the output is right: wall-clock timings, the JSON's ``seconds`` and ``jobs`` (the cores).
MASKS = (
    (re.compile(r"[ \t]*\b\d+\.\d+ ?s\b"), " <seconds> s"),
    (re.compile(r"[ \t]*\b\d+(?:\.\d+)? ?ms\b"), " <ms> ms"),
    (re.compile(r'("(?:seconds|jobs)"\s*:\s*)[-+\d.eE]+'), r"\1<masked>"),
)


def masked(text: str, workdir: Path | None = None) -> str:
    r"""``text`` with what depends on the machine masked (:data:`MASKS`; the working directory written
    ``<workdir>``), trailing spaces and trailing blank lines dropped."""
    if workdir is not None:
        for spelling in {str(workdir), str(workdir.resolve())}:
            text = text.replace(spelling, "<workdir>")
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return "\n".join(line.rstrip() for line in text.rstrip().splitlines())


def abridged_missing(shown: Sequence[str], actual: Sequence[str]) -> list[str]:
    r"""The shown lines (``...`` skipped) that do not appear in ``actual`` in order: empty when every one does."""
    it = iter(actual)
    missing = []
    for line in shown:
        if line.strip() in ("...", "…"):
            continue
        if not any(a == line for a in it):
            missing.append(line)
            it = iter(actual)
    return missing


# ==============================================================================================================
# What a command or block needs, and what is slow
# ==============================================================================================================

#: How to get each optional part, for the skip reasons.
HOW = {
    "torch": "pip install 'posproof[transformers]' beside your torch",
    "transformers": "pip install 'posproof[transformers]'",
    "matplotlib": "pip install 'posproof[plots]'",
    "ml_dtypes": "pip install 'posproof[precision]'",
    "distributed": "pip install 'posproof[sweep]'",
    "nbclient": "pip install 'posproof[notebook]'",
    "nbformat": "pip install 'posproof[notebook]'",
    "katex": "npm ci --prefix tests/katex",
    "node": "apt-get install nodejs",
    "pdflatex": "apt-get install texlive-latex-base",
    "chromium": "apt-get install chromium",
}
#: Optional parts that are programs, found on ``PATH``.
PROGRAMS = {"node", "pdflatex", "chromium", "npm"}
#: Imports that need an optional part: module (or its prefix) -> the part.
IMPORT_NEEDS = {
    "torch": "torch",
    "transformers": "transformers",
    "matplotlib": "matplotlib",
    "ml_dtypes": "ml_dtypes",
    "nbclient": "nbclient",
    "nbformat": "nbformat",
    "posproof.derivations.plots": "matplotlib",
}
#: The extra of ``pyproject.toml`` each optional module comes with (what the README must name).
EXTRA_OF = {
    "ml_dtypes": "precision",
    "matplotlib": "plots",
    "torch": "transformers",
    "transformers": "transformers",
    "distributed": "sweep",
}


def subcommand(words: Sequence[str]) -> str | None:
    r"""The subcommand of ``posproof ...`` words (``None`` for ``posproof --version``)."""
    return next((w for w in posproof_args(words) if not w.startswith("-")), None)


def posproof_args(words: Sequence[str]) -> list[str]:
    r"""The arguments after ``posproof`` or ``python -m posproof``."""
    words = list(words)
    if words[:1] == ["posproof"]:
        return words[1:]
    if words[:3] == ["python", "-m", "posproof"]:
        return words[3:]
    return []


def command_needs(words: Sequence[str]) -> tuple[str, ...]:
    r"""The optional parts a ``posproof`` command needs to run (its extra's modules)."""
    sub = subcommand(words)
    if sub == "plot":
        return ("matplotlib",)
    if sub == "precision":
        return ("ml_dtypes",)
    if sub == "audit" and "--transformers" in words:
        return ("torch", "transformers")
    if sub == "sweep" and "--scheduler" in words:
        return ("distributed",)
    return ()


def python_needs(source: str) -> tuple[str, ...]:
    r"""The optional parts a Python block imports (:data:`IMPORT_NEEDS`)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ()
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
    needs = []
    for name in names:
        for module, part in IMPORT_NEEDS.items():
            if (name == module or name.startswith(module + ".")) and part not in needs:
                needs.append(part)
    return tuple(needs)


def missing_reason(needs: Sequence[str]) -> str | None:
    r"""Why a block cannot run here (the first optional part missing, and how to get it), or ``None``."""
    for name in needs:
        if name == "katex":
            from posproof.printing.html import katex_available

            there = katex_available()
        elif name in PROGRAMS:
            there = shutil.which(name) is not None
        else:
            there = importlib.util.find_spec(name) is not None
        if not there:
            return f"needs {name} ({HOW.get(name, 'not installed')})"
    return None


def slow_reason(words: Sequence[str]) -> str | None:
    r"""Why a command is slow (``@pytest.mark.slow``: ``make test-fast`` leaves it out), or ``None``."""
    words = list(words)
    sub = subcommand(words)
    args = posproof_args(words)
    if words[:2] == ["python", "-m"] and words[2:3] != ["posproof"] and is_posproof_module(words[2:3]):
        return "a module's derivations printed by a fresh interpreter"
    if sub == "check" and "--claims" not in args and not [a for a in args[args.index("check") + 1 :] if a[:1] != "-"]:
        return "the whole check"
    if sub == "export" and "--claims" not in args:
        return "a whole export"
    if sub == "precision":
        return "the whole precision profile"
    if sub == "extend" and "--no-base-bound" not in args:
        return "the base-bound search"
    return None


def _port(fn, name: str, doc: str) -> str:
    r"""A port file for the documents: the audit corpus's ``fn`` (NumPy and math), renamed ``name``."""
    source = inspect.getsource(fn).replace(f"def {fn.__name__}(", f"def {name}(", 1)
    return f'r"""{doc}"""\n\nimport math\n\nimport numpy as np\n\n\n{source}'


#: Files the documents' commands name that no block of theirs writes (the ports of docs/audit.md), by name.
FIXTURES = {
    "alibi_port.py": '''\
r"""An ALiBi port: Press et al.'s power-of-two rule 2^(-8h/n) used for every head count."""


def slopes(n_heads):
    return [2 ** (-8 * h / n_heads) for h in range(1, n_heads + 1)]
''',
    "t5_port.py": _port(
        t5_impls.t5_bucket_no_cap, "bucket", "A T5 port whose buckets forgot the min(..., num_buckets - 1)."
    ),
    "myrope.py": '''\
r"""The RoPE note's function, and one that reads a cos/sin table built for 4096 positions."""

import numpy as np


def rope(vectors, positions, base=10000.0):
    d = vectors.shape[1]
    angles = np.asarray(positions)[:, None] * base ** (-np.arange(0, d, 2) / d)
    return _rotate(vectors, np.cos(angles), np.sin(angles))


_ANGLES = np.arange(4096)[:, None] * 10000.0 ** (-np.arange(0, 64, 2) / 64)


def cache_4k(vectors, positions, base=10000.0):
    return _rotate(vectors, np.cos(_ANGLES)[positions], np.sin(_ANGLES)[positions])


def _rotate(vectors, cos, sin):
    x, y = vectors[:, 0::2], vectors[:, 1::2]
    out = np.empty_like(vectors)
    out[:, 0::2], out[:, 1::2] = x * cos - y * sin, x * sin + y * cos
    return out
''',
}

#: Blocks of documents this harness's owner does not keep, known to fail until their owner fixes them:
#: (document, the block's first line) -> what is wrong and the fix. They are expected failures (not strict: once
#: fixed they pass, and the entry goes).
PENDING: dict[tuple[str, str], str] = {}


# ==============================================================================================================
# Running: one working directory and one namespace per document
# ==============================================================================================================


@dataclasses.dataclass
class DocState:
    r"""What the blocks of one document share in this process: its working directory, the namespace of its Python
    blocks, and which of them ran (``None``: passed; else why not)."""

    path: str
    workdir: Path
    namespace: dict
    ran: dict[int, str | None] = dataclasses.field(default_factory=dict)


_STATES: dict[str, DocState] = {}


@atexit.register
def _remove_workdirs() -> None:
    for state in _STATES.values():
        shutil.rmtree(state.workdir, ignore_errors=True)


def state(path: str) -> DocState:
    r"""The document's state, made on first use: a fresh working directory holding :data:`FIXTURES`."""
    if path not in _STATES:
        workdir = Path(tempfile.mkdtemp(prefix=f"posproof-docs-{Path(path).stem}-")).resolve()
        for name, text in FIXTURES.items():
            (workdir / name).write_text(text, encoding="utf-8")
        _STATES[path] = DocState(path, workdir, {"__name__": f"posproof_docs_{Path(path).stem.replace('-', '_')}"})
    return _STATES[path]


def write_files(path: str, before: int) -> None:
    r"""Write every file block of the document above line ``before`` into its working directory."""
    st = state(path)
    for block in BLOCKS[path]:
        name = file_name(block)
        if block.start < before and name is not None and "not run" not in block.marks:
            if Path(name).name != name or name.startswith("."):
                raise AssertionError(f"{block.where}: a file block names {name!r}: give a plain file name")
            (st.workdir / name).write_text(block.text, encoding="utf-8")


@contextlib.contextmanager
def isolated(workdir: Path) -> Iterator[None]:
    r"""Run in ``workdir`` with it first on ``sys.path``; afterwards ``sys.path`` and the working directory are
    restored and the modules imported from ``workdir`` forgotten (another document may have a file of that name)."""
    cwd, path = os.getcwd(), list(sys.path)
    os.chdir(workdir)
    sys.path.insert(0, str(workdir))
    try:
        yield
    finally:
        os.chdir(cwd)
        sys.path[:] = path
        inside = str(workdir) + os.sep
        for name, module in list(sys.modules.items()):
            file = getattr(module, "__file__", None)
            if isinstance(file, str) and file.startswith(inside):
                del sys.modules[name]
        importlib.invalidate_caches()


def run_python(block: Block) -> None:
    r"""Execute a Python block (or run its doctest) in its document's namespace, with the document's line numbers
    in any traceback."""
    st = state(block.path)
    write_files(block.path, block.start)
    with isolated(st.workdir):
        if is_doctest(block):
            test = doctest.DocTestParser().get_doctest(block.text, st.namespace, block.where, block.path, block.start)
            report: list[str] = []
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
            runner.run(test, out=report.append, clear_globs=False)
            if runner.failures:
                raise AssertionError(f"{block.where}: {runner.failures} doctest examples failed\n" + "".join(report))
        else:
            code = compile("\n" * block.start + block.text, block.path, "exec")
            exec(code, st.namespace)


def run_earlier(block: Block) -> str | None:
    r"""Run the document's Python blocks above ``block`` that have not run (they define what it uses); why one of
    them could not run, or ``None``."""
    st = state(block.path)
    why = None
    for other in BLOCKS[block.path]:
        if other.start >= block.start:
            break
        if kind(other) not in ("python", "doctest"):
            continue
        if other.start not in st.ran:
            reason = missing_reason(needs_of(other))
            if reason is None:
                try:
                    run_python(other)
                except BaseException as e:  # noqa: BLE001 - the block's own test reports it
                    reason = f"failed: {type(e).__name__}: {e}"
            st.ran[other.start] = reason
        if st.ran[other.start] is not None:
            why = f"{other.where} did not run ({st.ran[other.start]})"
    return why


def bound_names(source: str) -> set[str]:
    r"""The names a Python block binds at its top level (assignments, definitions, imports)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        else:
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    names.add(sub.id)
    return names


def defined_above(block: Block) -> set[str]:
    r"""The names the document's Python blocks above ``block`` bind."""
    names: set[str] = set()
    for other in BLOCKS[block.path]:
        if other.start < block.start and kind(other) == "python":
            names |= bound_names(other.text)
    return names


def needs_of(block: Block) -> tuple[str, ...]:
    marked = tuple(n.strip() for n in block.marks.get("needs", "").split(",") if n.strip())
    return marked + python_needs(block.text)


def run_command(words: Sequence[str], workdir: Path, capsys) -> tuple[int, str]:
    r"""A command of a document run in ``workdir``: its exit code and its output (stdout, then stderr)."""
    words = list(words)
    env_columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = COLUMNS
    try:
        if words[0] == "posproof":
            return _in_process(words[1:], workdir, capsys)
        if words[:2] == ["python", "-c"] or (words[:2] == ["python", "-m"] and is_posproof_module(words[2:3])):
            proc = subprocess.run(
                [sys.executable, *words[1:]],
                cwd=workdir,
                capture_output=True,
                text=True,
                timeout=600,
                env=dict(os.environ, COLUMNS=COLUMNS),
            )
            return proc.returncode, proc.stdout + proc.stderr
    finally:
        if env_columns is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = env_columns
    raise AssertionError(
        f"{shlex.join(words)!r} is not a command this harness runs (posproof ..., python -m posproof..., "
        "python -c ...): mark its block <!-- not run: WHY --> or <!-- synopsis -->"
    )


def is_posproof_module(names: Sequence[str]) -> bool:
    r"""Whether ``python -m NAME`` runs posproof (``posproof``, ``posproof.derivations.sinusoidal``, ...)."""
    return bool(names) and (names[0] == "posproof" or names[0].startswith("posproof."))


def _in_process(argv: list[str], workdir: Path, capsys) -> tuple[int, str]:
    from posproof.derivations import export
    from posproof.derivations.cli import main

    capsys.readouterr()
    real_build = export.build
    if subcommand(["posproof", *argv]) == "export" and "--claims" not in argv:
        from tests import exports

        def build(fmt, with_figures=True, progress=None, **options):  # the session's export, made once
            export.build = real_build
            try:
                return exports.built(fmt, with_figures)
            finally:
                export.build = build

        export.build = build
    try:
        with isolated(workdir):
            try:
                code = main(argv)
            except SystemExit as e:  # argparse's --help and --version
                code = e.code if isinstance(e.code, int) else 0
    finally:
        export.build = real_build
    out, err = capsys.readouterr()
    return code, out + err


# ==============================================================================================================
# The items: one test per block (Python, doctest, file, excerpt, synopsis, not run) or command
# ==============================================================================================================

BLOCKS = {path: parse_blocks(path, (ROOT / path).read_text(encoding="utf-8")) for path in DOCS}


def guides_doctested() -> tuple[str, ...]:
    r"""The guides whose examples ``tests/test_doctests.py`` runs (not run twice)."""
    from tests.test_doctests import _GUIDES

    return _GUIDES


def kind(block: Block) -> str | None:
    r"""What the harness does with a block: ``not run``, ``synopsis``, ``excerpt``, ``file``, ``doctested``
    (elsewhere), ``doctest``, ``python``, ``shell``; ``None`` for a block it leaves alone (shown output, a
    language it does not run)."""
    if "not run" in block.marks:
        return "not run"
    if "synopsis" in block.marks:
        return "synopsis"
    if "excerpt" in block.marks:
        return "excerpt"
    if file_name(block) is not None:
        return "file"
    if is_doctest(block):
        return "doctested" if block.path in guides_doctested() else "doctest"
    if block.lang in ("python", "py"):
        return "python"
    if block.lang in SHELL and (block.lang != "text" or is_transcript(block)):
        return "shell"
    return None


def _short(text: str, n: int = 60) -> str:
    text = re.sub(r"[\[\]]", "", text)
    return text if len(text) <= n else text[: n - 3] + "..."


def _pending(path: str, first: str) -> str | None:
    return PENDING.get((path, first.strip()))


def doc_params() -> list:
    r"""Every block and every command of the documents, in document order (a document's items run in that order,
    in one process: ``tests/conftest.py`` keeps a file's tests together)."""
    params = []
    for path in DOCS:
        for block in BLOCKS[path]:
            k = kind(block)
            if k is None:
                continue
            if k != "shell":
                marks = []
                if (why := _pending(path, block.lines[0] if block.lines else "")) is not None:
                    marks.append(pytest.mark.xfail(reason=why, strict=False))
                params.append(pytest.param(block, id=f"{block.where}:{k}", marks=marks))
                continue
            for cmd in commands(block):
                marks = []
                if slow_reason(cmd.words) is not None:
                    marks.append(pytest.mark.slow)
                if subcommand(cmd.words) == "export":
                    marks.append(pytest.mark.xdist_group("exports"))
                if (why := _pending(path, block.lines[0])) is not None:
                    marks.append(pytest.mark.xfail(reason=why, strict=False))
                params.append(pytest.param(cmd, id=f"{path}:{cmd.line}:$ {_short(' '.join(cmd.words))}", marks=marks))
    return params


#: Updates of shown outputs (``POSPROOF_UPDATE_DOCS=1``): document -> {(block start, command index): (lines, code)}.
_UPDATES: dict[str, dict[tuple[int, int], tuple[list[str], int]]] = {}


@pytest.fixture(scope="module", autouse=True)
def _write_updates():
    yield
    for path, updates in _UPDATES.items():
        file = ROOT / path
        file.write_text(rewrite(path, file.read_text(encoding="utf-8"), updates), encoding="utf-8")
    _UPDATES.clear()


@pytest.mark.parametrize("item", doc_params())
def test_doc(item: Block | Command, capsys):
    if isinstance(item, Command):
        check_command(item, capsys)
    else:
        check_block(item)


def check_block(block: Block) -> None:
    r"""One block: run (Python, doctest), checked (synopsis, excerpt, file) or skipped with its reason."""
    k = kind(block)
    if k == "not run":
        pytest.skip(f"not run ({block.where}): {block.marks['not run']}")
    if k == "doctested":
        pytest.skip(f"{block.path} is doctested by tests/test_doctests.py")
    if k == "synopsis":
        problems = synopsis_problems(block.path, block.lines, block.start + 1)
        assert not problems, "\n".join(problems)
        return
    if k == "excerpt":
        source = ROOT / block.marks["excerpt"]
        assert source.is_file(), f"{block.where}: <!-- excerpt: {block.marks['excerpt']} --> names no file"
        assert _without_comments(block.text) in _without_comments(source.read_text(encoding="utf-8")), (
            f"{block.where} is no longer an excerpt of {block.marks['excerpt']}: copy it again"
        )
        return
    if k == "file":
        name = file_name(block)
        assert name is not None
        if name.endswith(".py"):
            compile(block.text, f"{block.where} ({name})", "exec")
        elif name.endswith(".json"):
            json.loads(block.text)
        return
    reason = missing_reason(needs_of(block))
    if reason is not None:
        state(block.path).ran[block.start] = reason
        pytest.skip(f"{block.where}: {reason}")
    earlier = run_earlier(block)
    st = state(block.path)
    try:
        run_python(block)
    except NameError as e:
        st.ran[block.start] = f"failed: {e}"
        if earlier is not None and e.name in defined_above(block):
            pytest.skip(f"{block.where} uses {e.name}, which an earlier block defines, and {earlier}")
        raise
    except BaseException as e:
        st.ran[block.start] = f"failed: {type(e).__name__}: {e}"
        raise
    st.ran[block.start] = None


def check_command(cmd: Command, capsys) -> None:
    r"""One command: run in its document's working directory, its exit code and shown output compared (or, with
    ``POSPROOF_UPDATE_DOCS=1``, recorded for :func:`rewrite`)."""
    marked = tuple(n.strip() for n in cmd.block.marks.get("needs", "").split(",") if n.strip())
    reason = missing_reason(marked + command_needs(cmd.words))  # the block's marks too (code a file imports)
    if reason is not None:
        pytest.skip(f"{cmd.block.path}:{cmd.line}: {reason}")
    st = state(cmd.block.path)
    write_files(cmd.block.path, cmd.block.start)
    code, output = run_command(cmd.words, st.workdir, capsys)
    where = f"{cmd.block.path}:{cmd.line}: $ {cmd.text}"
    abridged = "output abridged" in cmd.block.marks
    problems = []
    if cmd.shown is not None:
        expected, actual = masked("\n".join(cmd.shown)), masked(output, st.workdir)
        if abridged:
            missing = abridged_missing(expected.splitlines(), actual.splitlines())
            if missing:
                problems.append(
                    f"{where}: shown lines not in the output (in order): {missing}\n--- the output:\n{actual}"
                )
        elif expected != actual:
            diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(), "shown", "real", lineterm="")
            problems.append(f"{where}: the output differs (masked):\n" + "\n".join(diff))
    if code != cmd.exit:
        tail = "" if cmd.shown is not None else f"\n--- the output:\n{output[-3000:]}"
        problems.append(f"{where}: exit code {code}, the document says {cmd.exit}{tail}")
    if problems and UPDATE and cmd.shown is not None and not abridged:
        lines = [line.rstrip() for line in output.rstrip().splitlines()]
        unsafe = [line for line in lines if line.startswith("$ ") or _EXIT_LINE.match(line.strip())]
        if not unsafe:
            _UPDATES.setdefault(cmd.block.path, {})[(cmd.block.start, cmd.index)] = (lines, code)
            return
        problems.append(f"{where}: not rewritten: its output has lines a transcript would misread: {unsafe[:3]}")
    hint = "\n(after an intended change: POSPROOF_UPDATE_DOCS=1 .venv/bin/python -m pytest tests/test_docs.py -k ...)"
    assert not problems, "\n".join(problems) + hint


def rewrite(path: str, text: str, updates: Mapping[tuple[int, int], tuple[list[str], int]]) -> str:
    r"""``text`` (the document now) with the shown output and exit line of each updated command replaced: the
    updates are keyed by (the block's first line, the command's line in the block), the blocks as
    :data:`BLOCKS` read them; a block edited since they were read is an error (nothing is written)."""
    lines = text.split("\n")
    by_block: dict[int, dict[int, tuple[list[str], int]]] = {}
    for (start, index), value in updates.items():
        by_block.setdefault(start, {})[index] = value
    now = {b.start: b for b in parse_blocks(path, text)}
    for start in sorted(by_block, reverse=True):
        block = now.get(start)
        read = next((b for b in BLOCKS.get(path, ()) if b.start == start), block)
        if block is None or read is None or block.lines != read.lines:
            raise AssertionError(f"{path}:{start}: the block changed while the tests ran: run the update again")
        body = list(block.lines)
        default = int(block.marks.get("exit", "0"))
        for cmd in sorted(commands(block), key=lambda c: c.index, reverse=True):
            if cmd.index not in by_block[start]:
                continue
            output, code = by_block[start][cmd.index]
            end = cmd.stop
            while end > cmd.index + 1 and not body[end - 1].strip():
                end -= 1  # keep the blank lines between commands
            body[cmd.index + 1 : end] = output + ([f"(exit {code})"] if code != default else [])
        lines[block.start : block.end - 1] = [block.indent + line if line else line for line in body]
    return "\n".join(lines)


def _without_comments(text: str) -> str:
    return "\n".join(re.sub(r"  # .*$", "", line).rstrip() for line in text.splitlines())


# ==============================================================================================================
# Synopses and inline commands: every subcommand and option they name exists
# ==============================================================================================================


def _parser_options() -> dict[str | None, set[str]]:
    r"""Option strings of ``posproof`` (key ``None``) and of each subcommand."""
    import argparse

    from posproof.derivations.cli import build_parser

    parser = build_parser()
    options: dict[str | None, set[str]] = {None: set(parser._option_string_actions)}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                options[name] = set(sub._option_string_actions)
    return options


_OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])")


def entry_problems(where: str, code: str, options: Mapping[str | None, set[str]]) -> list[str]:
    r"""What in one command of a synopsis or an inline span (``code``, comments removed) does not exist."""
    words = code.split()
    if words[:3] == ["python", "-m", "posproof"]:
        words = ["posproof", *words[3:]]
        code = " ".join(words)
    elif words[:2] == ["python", "-m"] and len(words) > 2:
        module = words[2]
        ok = module.startswith("posproof.") and importlib.util.find_spec(module) is not None
        return [] if ok else [f"{where}: no module {module}"]
    if words[:1] != ["posproof"]:
        return []
    rest = words[1:]
    sub = next((w for w in rest if w[:1] not in ("-", "[")), None)
    if sub in ("...", "…"):
        return []
    if sub is not None and sub not in options:
        return [f"{where}: posproof has no subcommand {sub!r} ({code.strip()})"]
    known = options[None] | options.get(sub, set())
    return [
        f"{where}: posproof {sub or ''} has no option {opt} ({code.strip()})".replace("  ", " ")
        for opt in _OPTION.findall(code)
        if opt not in known
    ]


def synopsis_entries(lines: Sequence[str]) -> list[tuple[int, str, str]]:
    r"""The commands of a synopsis: (index of its first line, the command, its comments), a line that starts with
    spaces continuing the one above."""
    entries: list[list] = []
    for i, raw in enumerate(lines):
        line = raw.removeprefix("$ ")
        code, _, comment = line.partition(" #") if not line.startswith("#") else ("", "", line[1:])
        if line[:1] not in (" ", "") and not line.startswith("#"):
            entries.append([i, code, comment])
        elif entries:
            entries[-1][1] += " " + code
            entries[-1][2] += " " + comment
    return [(i, code, comment) for i, code, comment in entries]


def synopsis_problems(path: str, lines: Sequence[str], first_line: int) -> list[str]:
    r"""What a synopsis names that does not exist, and the extras its commands need but do not name."""
    options = _parser_options()
    problems = []
    for i, code, comment in synopsis_entries(lines):
        where = f"{path}:{first_line + i}"
        problems += entry_problems(where, code, options)
        words = code.split()
        for part in command_needs(words):
            extra = EXTRA_OF[part]
            if f"posproof[{extra}]" not in code + comment:
                problems.append(f"{where}: {code.strip()!r} needs {part}: name its extra, posproof[{extra}]")
    return problems


_INLINE = re.compile(r"`((?:\$ )?(?:posproof|python -m posproof)(?: [^`]*|\.[\w.]+(?: [^`]*)?)?)`")


def inline_problems(path: str, text: str) -> list[str]:
    r"""What the prose's inline commands (`` `posproof ...` ``) name that does not exist."""
    options = _parser_options()
    problems = []
    inside = False
    for n, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line) or line.strip() == "```":
            inside = not inside
            continue
        if inside:
            continue
        for m in _INLINE.finditer(line):
            span = m[1].removeprefix("$ ")
            if span.startswith("posproof ") or span.startswith("python -m posproof"):
                problems += entry_problems(f"{path}:{n}", span, options)
    return problems


@pytest.mark.parametrize("path", DOCS)
def test_inline_commands_name_real_options(path):
    problems = inline_problems(path, (ROOT / path).read_text(encoding="utf-8"))
    if problems and (why := _pending(path, "inline")) is not None:
        pytest.xfail(why)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", DOCS)
def test_markers_are_known_and_above_a_fence(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    problems = [f"{b.where}: {e}" for b in BLOCKS[path] for e in b.errors] + stray_markers(path, text)
    assert not problems, "\n".join(problems)


def test_every_extra_named_is_one_of_pyproject():
    tomllib = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")  # tomli: mypy's
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    for module, extra in EXTRA_OF.items():
        assert any(re.match(rf"{module.replace('_', '[-_]')}\b", req) for req in extras[extra]), (module, extra)


def test_readme_quick_start_is_two_commands():
    block = next(b for b in BLOCKS["README.md"] if b.start > _heading_line("README.md", "## Quick start"))
    assert [c.words[:2] for c in commands(block)] == [("make", "demo"), ("make", "test")]


def _heading_line(path: str, heading: str) -> int:
    lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
    return lines.index(heading) + 1


# ==============================================================================================================
# The harness's own behaviour, on small documents
# ==============================================================================================================

_SAMPLE = textwrap.dedent(
    """\
    # A document

    <!-- exit 1 -->
    <!-- output abridged -->
    ```console
    $ posproof audit port:rope --scheme rope
    port:rope: does NOT conform
    $ posproof list --json
    [
    (exit 0)
    ```

    <!-- not run: needs your model -->
    ```python
    audit_rope(my_model)
    ```

      ```sh
      posproof t5-buckets  # the defaults
      posproof extend \\
          --width 64
      ```
    <!-- synopsis -->
    """
)


def test_harness_reads_blocks_markers_and_commands():
    transcript, not_run, sh = parse_blocks("x.md", _SAMPLE)
    assert transcript.marks == {"exit": "1", "output abridged": ""} and not_run.marks == {"not run": "needs your model"}
    audit, listing = commands(transcript)
    assert audit.words == ("posproof", "audit", "port:rope", "--scheme", "rope") and audit.exit == 1
    assert audit.shown == ("port:rope: does NOT conform",) and (listing.shown, listing.exit) == (("[",), 0)
    assert sh.indent == "  " and [c.words for c in commands(sh)] == [
        ("posproof", "t5-buckets"),
        ("posproof", "extend", "--width", "64"),
    ]
    assert kind(not_run) == "not run" and kind(sh) == "shell"
    assert stray_markers("x.md", _SAMPLE) == ["x.md:23: <!-- synopsis --> is not on the lines right above a fence"]
    assert parse_marks(["exit"])[1] and parse_marks(["not rn: typo"])[1]


def test_harness_masks_timings_and_the_jobs_but_not_the_numbers():
    real = 'proved    x   10.53 s  numeric agree, max rel err 1.1e-60\n{"seconds": 0.07, "jobs": 2, "points": 120}\n'
    shown = 'proved    x    1.82 s  numeric agree, max rel err 1.1e-60\n{"seconds": 1.5, "jobs": 16, "points": 120}'
    assert masked(real) == masked(shown)
    assert masked(real) != masked(shown.replace("1.1e-60", "1.4e-66"))
    assert masked("wrote /tmp/w/a.json", Path("/tmp/w")) == "wrote <workdir>/a.json"
    assert abridged_missing(["b", "...", "d"], ["a", "b", "c", "d"]) == []
    assert abridged_missing(["d", "b"], ["a", "b", "c", "d"]) == ["b"]


def test_harness_rewrites_a_transcript_in_place():
    text = "x\n\n```console\n$ posproof one\nold\n(exit 1)\n\n$ posproof two\nkept\n```\n"
    block = parse_blocks("x.md", text)[0]
    first = commands(block)[0]
    assert rewrite("x.md", text, {(block.start, first.index): (["new", "lines"], 0)}) == (
        "x\n\n```console\n$ posproof one\nnew\nlines\n\n$ posproof two\nkept\n```\n"
    )
    assert rewrite("x.md", text, {(block.start, first.index): (["e"], 2)}).count("(exit 2)") == 1


def test_harness_skips_what_needs_a_missing_part(monkeypatch):
    assert python_needs("import torch\nfrom posproof.derivations.plots import draw\n") == ("torch", "matplotlib")
    assert command_needs(["posproof", "precision"]) == ("ml_dtypes",)
    assert command_needs(["posproof", "audit", "--transformers", "llama"]) == ("torch", "transformers")
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ml_dtypes" else real(name, *a))
    assert missing_reason(("numpy", "ml_dtypes")) == "needs ml_dtypes (pip install 'posproof[precision]')"
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert missing_reason(("pdflatex",)) == "needs pdflatex (apt-get install texlive-latex-base)"


def test_harness_checks_synopses_against_the_parser():
    lines = [
        "posproof check [ID ...] [--dps N] [--jobs N]   # verify",
        "posproof precision [--width D]   # the profile",
        "posproof audit M:F --scheme rope [--widht D]",
        "               [--call SPEC]   # continued",
        "posproof frobnicate",
        "python -m posproof.derivations.sinusoidal",
    ]
    problems = synopsis_problems("x.md", lines, 1)
    assert any("x.md:2" in p and "posproof[precision]" in p for p in problems)
    assert any("x.md:3" in p and "--widht" in p for p in problems)
    assert any("x.md:5" in p and "frobnicate" in p for p in problems)
    assert len(problems) == 3, problems


def test_harness_runs_a_documents_blocks_in_one_namespace_and_its_doctests(monkeypatch, tmp_path):
    doc = "```python\n# helper.py\nVALUE = 41\n```\n\n```python\nfrom helper import VALUE\nx = VALUE + 1\n```\n\n"
    doc += "```python\n>>> x\n42\n\n```\n\n```python\n>>> x + 1\n42\n\n```\n"
    monkeypatch.setitem(BLOCKS, "x.md", parse_blocks("x.md", doc))
    monkeypatch.setitem(_STATES, "x.md", DocState("x.md", tmp_path, {"__name__": "x"}))
    file, code, good, bad = BLOCKS["x.md"]
    assert [kind(b) for b in BLOCKS["x.md"]] == ["file", "python", "doctest", "doctest"]
    write_files("x.md", good.start)
    run_python(code)
    run_python(good)
    with pytest.raises(AssertionError, match="1 doctest examples failed"):
        run_python(bad)
    assert "helper" not in sys.modules  # forgotten: another document may have a helper.py of its own
