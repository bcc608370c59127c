r"""``posproof export``: every derivation, as a LaTeX document, Markdown, one HTML page, text or JSON.

The files are built in memory, then written atomically (a temporary file renamed over the target), byte for byte
the same on every run (no dates; figures with fixed metadata). A marker file, :data:`MARKER`, lists what an
export wrote: the next export into that directory replaces those files and removes the ones it no longer writes,
and an export refuses a non-empty directory without the marker unless ``force`` is given.

* ``latex``: ``posproof.tex`` (title, contents, one section per topic, the figures, the rules table when
  :mod:`derivations.commands.properties` provides it, the references) ``\input``\ s one file per topic; ``pdflatex``
  compiles it with no overfull box.
* ``markdown``: ``index.md`` and one file per topic, with ``$...$``/``$$...$$`` math (GitHub, Jupyter, MkDocs)
  and SVG figures in ``figures/``.
* ``html``: one self-contained page, ``posproof.html``: the math set by KaTeX when exporting (KaTeX's stylesheet
  and fonts inlined) where Node.js and the katex package are installed, else as MathML (pure Python), the figures
  inlined as SVG; nothing is fetched when it is viewed.
* ``text`` and ``json``: one file per topic (a JSON topic file is a ``posproof.export/1`` document whose
  ``claims`` are ``posproof.claim/1`` documents, the ones ``posproof derive ID --format json`` prints).

:func:`build` and :func:`write` take optional callbacks for a progress bar (:data:`Progress`: after each claim
rendered and each figure drawn; after each file written); the command draws the bar.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path

from posproof.derivations import machine
from posproof.derivations.export.common import (
    ABSTRACT,
    MARKER,
    MATH,
    RULES_TABLE,
    TITLE,
    TOPIC_TITLES,
    ExportError,
    Progress,
    draw_all,
    each_claim,
    figure_numbers,
    figures_in,
    lower_first,
    markdown_table_html,
    placement,
    references,
    rules_table,
    ticker,
    topic_title,
    topics_all,
)
from posproof.derivations.export.latex import PREAMBLE, bibliography, latex_document, latex_files, topic_file
from posproof.derivations.export.web import PAGE_CSS, html_page, markdown_files
from posproof.numeric import _io

from posproof.printing import text as text_format
from posproof.printing.json import as_json

#: The file an export leaves in its directory: what it wrote (so that it may replace it next time).

# ==============================================================================================================
# Writing: deterministic, atomic, never over a directory someone else wrote
# ==============================================================================================================

__all__ = [
    "ABSTRACT",
    "ExportError",
    "MARKER",
    "MATH",
    "PAGE_CSS",
    "PREAMBLE",
    "Progress",
    "RULES_TABLE",
    "TITLE",
    "TOPIC_TITLES",
    "draw_all",
    "each_claim",
    "figure_numbers",
    "figures_in",
    "html_page",
    "latex_document",
    "latex_files",
    "lower_first",
    "markdown_files",
    "markdown_table_html",
    "placement",
    "references",
    "rules_table",
    "ticker",
    "topic_file",
    "topic_title",
    "topics_all",
]

SUFFIX = {"latex": "tex", "markdown": "md", "text": "txt", "json": "json", "html": "html", "bib": "bib"}


def claim_document(c) -> dict:
    r"""One claim as the JSON document ``posproof derive ID --format json`` prints: ``schema`` is
    ``posproof.claim/1`` (``derivations/schemas/claim.schema.json``), the rest
    :func:`posproof.printing.json.as_json`."""
    return machine.document("claim", as_json(c))


def topic_json(topic: str, claims, tick: Callable[[str], None] | None = None) -> bytes:
    r"""One topic's JSON file: a ``posproof.export/1`` document, the topic's tag and title and its claims'
    documents (:func:`claim_document`), in order; ``tick(claim id)`` after each claim."""
    body = {
        "topic": topic,
        "title": topic_title(topic),
        "claims": [claim_document(c) for c in each_claim(claims, tick)],
    }
    return (json.dumps(machine.document("export", body), indent=2) + "\n").encode()


def topic_text(claims, tick: Callable[[str], None] | None = None) -> bytes:
    r"""One topic's text file; ``tick(claim id)`` after each claim."""
    return "\n".join(text_format.claim_text(c) for c in each_claim(claims, tick)).encode()


def items(fmt: str, topics, with_figures: bool) -> int:
    r"""How many items :func:`build` ticks for (its progress bar's total): every claim, every figure it draws, and
    for HTML the setting of the math."""
    from posproof.derivations import plots

    drawn = with_figures and fmt in ("latex", "markdown", "html") and plots.available()
    claims = 0 if fmt == "bib" else sum(len(cs) for _, cs in topics)
    return claims + (len(plots.PLOTS) if drawn else 0) + (fmt == "html")


#: The audiences of an export: a paper (claims in their environments, the record in the appendix), or the
#: reference voice for auditing the proofs (every step with its strategies).
AUDIENCES = ("paper", "reference")


def build(
    fmt: str,
    with_figures: bool = True,
    progress: Progress | None = None,
    *,
    topics: list[tuple[str, tuple]] | None = None,
    rules: bool = True,
    audience: str = "paper",
    textwidth: str | None = None,
) -> tuple[dict[str, bytes], list[str]]:
    r"""The files of an export as ``{relative path: bytes}``, and notes for the user (missing figures);
    ``progress(name, total)`` after each claim rendered and each figure drawn (:func:`items` of them).
    ``topics`` (default: the catalogue's) are ``(tag, claims)`` pairs; ``rules`` includes the rules table;
    ``audience`` is ``paper`` or ``reference``; ``textwidth`` (LaTeX: ``twocolumn`` or a length) fits the
    displays to the line. ``bib`` is the bibliography of the works cited, as BibTeX."""
    if audience not in AUDIENCES:
        raise ValueError(f"audience must be one of {', '.join(AUDIENCES)}, got {audience!r}")
    topics = topics_all() if topics is None else topics
    tick = ticker(progress, items(fmt, topics, with_figures))
    notes: list[str] = []
    note = ""
    if fmt == "latex":
        files, note = latex_files(topics, with_figures, tick, audience=audience, textwidth=textwidth, rules=rules)
    elif fmt == "markdown":
        files, note = markdown_files(topics, with_figures, tick, audience=audience, rules=rules)
    elif fmt == "html":
        page, errors, note = html_page(topics, with_figures, tick=tick, audience=audience, rules=rules)
        if errors:
            raise ExportError(f"KaTeX could not set {len(errors)} formulas, first: {errors[0]}")
        files = {"posproof.html": page.encode()}
    elif fmt == "json":
        files = {f"{t}.json": topic_json(t, cs, tick) for t, cs in topics}
    elif fmt == "text":
        files = {f"{t}.txt": topic_text(cs, tick) for t, cs in topics}
    elif fmt == "bib":
        files = {"posproof.bib": bibliography(topics)[0].encode()}
    else:
        raise ValueError(f"format must be one of {', '.join(SUFFIX)}, got {fmt!r}")
    if note:
        notes.append(f"figures left out: {note}")
    return files, notes


def write_atomic(path: Path, data: bytes) -> None:
    r"""Write ``data`` to ``path`` atomically (:func:`posproof.numeric._io.write_atomic`: a temporary file beside
    it, renamed over it; a reader never sees half a file)."""
    _io.write_atomic(path, data)


def _previous(out: Path) -> list[str] | None:
    marker = out / MARKER
    if not marker.exists():
        return None
    try:
        return list(json.loads(marker.read_text(encoding="utf-8"))["files"])
    except (ValueError, KeyError, TypeError):
        return None


def check_target(out: Path, force: bool = False) -> None:
    r"""Refuse ``out`` before any work (:class:`ExportError`): a file, or a non-empty directory that no export
    wrote (no :data:`MARKER`) unless ``force``."""
    if out.exists() and not out.is_dir():
        raise ExportError(f"--out must be a directory, got the file {str(out)!r}")
    if out.is_dir() and not force and _previous(out) is None and any(out.iterdir()):
        raise ExportError(
            f"--out {str(out)!r} is not empty and was not written by posproof export; "
            "choose an empty directory or pass --force"
        )


@contextlib.contextmanager
def output_directory(out: Path, flag: str = "--out") -> Iterator[Path]:
    r"""Make ``out`` (and its missing parents) before the work, so that the system says now whether it can be
    made (:class:`ExportError` naming ``flag`` if not); if the work inside fails or is interrupted, the directories
    made here that are still empty are removed again."""
    made = [p for p in (out, *out.parents) if not p.exists()]
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ExportError(f"{flag}: cannot create {out}: {e.strerror or e}") from None
    try:
        yield out
    except BaseException:
        for directory in made:  # deepest first
            try:
                directory.rmdir()
            except OSError:  # not empty (or gone): what was written stays
                break
        raise


def write(out: Path, files: dict[str, bytes], force: bool = False, progress: Progress | None = None) -> list[Path]:
    r"""Write ``files`` under ``out`` atomically, record them in :data:`MARKER`, and remove the files the
    previous export there wrote and this one does not. A non-empty ``out`` without the marker is refused
    (:class:`ExportError`) unless ``force``. ``progress(relative path, len(files))`` after each file is written.
    Stopped part way (Ctrl-C; a system error, reported as :class:`ExportError`), each file written is whole and
    the marker names them, with the previous export's, so that the next export replaces them."""
    check_target(out, force)
    previous = (_previous(out) or []) if out.exists() else []
    written: list[Path] = []
    tick = ticker(progress, len(files))
    path = out
    try:
        out.mkdir(parents=True, exist_ok=True)
        for rel, data in sorted(files.items()):
            path = out / rel
            write_atomic(path, data)
            written.append(path)
            tick(rel)
        for rel in sorted(set(previous) - set(files)):
            path = out / rel
            if path.is_file() and out.resolve() in path.resolve().parents:
                path.unlink()
        path = out / MARKER
        write_atomic(path, (json.dumps({"files": sorted(files)}, indent=1) + "\n").encode())
    except BaseException as e:
        if written:
            done = sorted({*previous, *(p.relative_to(out).as_posix() for p in written)})
            with contextlib.suppress(OSError):
                write_atomic(out / MARKER, (json.dumps({"files": done}, indent=1) + "\n").encode())
        if isinstance(e, OSError):
            raise ExportError(f"--out: cannot write {path}: {e.strerror or e}") from None
        raise
    return written


def export(
    fmt: str,
    out: Path,
    force: bool = False,
    with_figures: bool = True,
    progress: Progress | None = None,
    on_write: Progress | None = None,
    **options,
) -> tuple[list[Path], list[str]]:
    r"""Build and write one export; returns the paths written and notes for the user. ``out`` is refused before
    any work (:func:`check_target`); ``progress`` is told of the build (:func:`build`, which takes ``options``),
    ``on_write`` of each file written (:func:`write`)."""
    check_target(out, force)
    files, notes = build(fmt, with_figures, progress, **options)
    return write(out, files, force, on_write), notes
