r"""A warm ``posproof audit``: one long-lived process that runs audit command lines one after another, so that a sweep
imports Python, posproof, torch and transformers once per worker, not once per target.

``python -m posproof.derivations.sweep_server`` reads requests on its stdin, one JSON line each, ``{"argv": [...],
"cwd": DIR}``. For each it runs ``posproof audit ARGV`` in ``DIR``, in this process
(:func:`posproof.derivations.commands.audit.main`: the same checks, the same reports, the audited code imported
and run in the audit's isolation child process, never here), and writes one JSON line on its stdout, ``{"code":
EXIT_STATUS, "out": STDOUT, "err": STDERR}``: what the command printed. It ends at the end of its stdin. What the
audited code writes to the file descriptors it inherits goes to stderr, never into a reply.
"""

from __future__ import annotations

import io
import json
import os
import sys
import traceback
from contextlib import redirect_stderr, redirect_stdout
from typing import TextIO


def serve(requests: TextIO, replies: TextIO) -> None:
    r"""Answer each request line of ``requests`` with a reply line on ``replies`` (see the module docstring)."""
    from posproof.derivations.commands import audit

    for line in requests:
        if not line.strip():
            continue
        out, err = io.StringIO(), io.StringIO()
        try:
            request = json.loads(line)
            argv, cwd = [str(a) for a in request["argv"]], str(request["cwd"])
        except (ValueError, KeyError, TypeError) as e:
            code, err = 2, io.StringIO(f"posproof: error: a sweep request that is not one: {e}\n")
        else:
            with redirect_stdout(out), redirect_stderr(err):
                try:
                    os.chdir(cwd)
                    code = audit.main(argv)
                except SystemExit as e:  # as the process would exit
                    code = e.code if isinstance(e.code, int) else 1
                except Exception:  # noqa: BLE001 - posproof's own error: exit 1 with its traceback, as a fresh process
                    traceback.print_exc()
                    code = 1
        replies.write(json.dumps({"code": code, "out": out.getvalue(), "err": err.getvalue()}) + "\n")
        replies.flush()


def main() -> int:
    r"""Serve on stdin and stdout (the replies on a copy of stdout; file descriptor 1 itself then goes to stderr)."""
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.stdin, replies)
    return 0


if __name__ == "__main__":
    sys.exit(main())
