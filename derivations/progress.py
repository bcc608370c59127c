r"""A progress bar for long commands, on stderr, only when stderr is a terminal and ``--quiet`` is not given.

``with Progress(total, "checking", quiet=args.quiet) as bar: ... bar.advance(note=claim_id)``. Redrawn at most
ten times a second, erased when the work ends (the results on stdout stay clean: a pipe or a file never sees it).
Known totals draw ``label [#####     ] 12/131 note``; an unknown total (``None``) draws the count alone.
"""

from __future__ import annotations

import shutil
import sys
import time
from typing import TextIO

#: Seconds between redraws.
REDRAW = 0.1


class Progress:
    r"""A progress bar on ``stream`` (stderr), drawn only when the stream is a terminal and not ``quiet``."""

    def __init__(self, total: int | None, label: str, *, quiet: bool = False, stream: TextIO | None = None):
        self.total, self.label, self.done = total, label, 0
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = not quiet and callable(isatty) and bool(isatty())
        self._drawn = 0.0
        self._width = 0

    def __enter__(self) -> Progress:
        self._draw("", force=True)
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def advance(self, n: int = 1, note: str = "") -> None:
        r"""``n`` more items done; ``note`` (the item just finished) is shown after the count."""
        self.done += n
        self._draw(note, force=self.total is not None and self.done >= self.total)

    def note(self, note: str) -> None:
        r"""Show ``note`` (the item being worked on) without counting one done."""
        self._draw(note, force=True)

    def write(self, line: str) -> None:
        r"""Print ``line`` on stderr above the bar (a message while the bar is drawn)."""
        self._erase()
        print(line, file=self.stream)
        self._draw("", force=True)

    def close(self) -> None:
        self._erase()

    def _line(self, note: str) -> str:
        columns = shutil.get_terminal_size((80, 24)).columns
        if self.total:
            slots = 24
            filled = min(slots, slots * self.done // self.total)
            head = f"{self.label} [{'#' * filled}{' ' * (slots - filled)}] {self.done}/{self.total}"
        else:
            head = f"{self.label} {self.done}"
        line = f"{head} {note}".rstrip()
        return line[: max(0, columns - 1)]

    def _draw(self, note: str, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._drawn < REDRAW:
            return
        self._drawn = now
        line = self._line(note)
        self.stream.write("\r" + line.ljust(self._width))
        self.stream.flush()
        self._width = len(line)

    def _erase(self) -> None:
        if self.enabled and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0
