r"""The one way posproof writes a file: atomically, readable by everyone.

Exports, figures and golden vectors are documents to share: each file is written to a temporary file beside it,
flushed to disk, given the permissions a plain ``open`` would give (``0o666`` less the umask: ``0o644`` usually;
``mkstemp`` alone would leave ``0o600``) and renamed over the target, so a reader never sees half a file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: Path, data: bytes) -> None:
    r"""Write ``data`` to ``path`` (its folder created if missing) atomically, mode ``0o666`` less the umask."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
