"""Files that hold PHI in clear: created readable by their owner only (0600, in 0700 folders).

Three outputs hold original strings by design: the output of ``phiscrub reidentify``, and with
``redact --audit-text`` the standoff file ``phi_spans.jsonl`` and the batch parts it is assembled
from while the run goes on. Like the vault, they are *created* private: a file made 0644 and
tightened afterwards can be opened by another user in between, and an open descriptor keeps
reading after a ``chmod``. So the mode is given to ``open(2)`` (or set by the umask for writers
that open files themselves), never fixed up later.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO

__all__ = ["PRIVATE_DIR_MODE", "PRIVATE_FILE_MODE", "make_private_dir", "open_private", "private_umask"]

#: Mode of a file holding PHI in clear.
PRIVATE_FILE_MODE = 0o600
#: Mode of a folder holding such files.
PRIVATE_DIR_MODE = 0o700


def make_private_dir(path: Path) -> Path:
    """Create ``path`` (and missing parents) and make it 0700, also when it already existed.

    An existing folder is tightened because it is about to receive PHI in clear; its parents are
    left as they are (they are the user's).
    """
    path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR_MODE)
    os.chmod(path, PRIVATE_DIR_MODE)
    return path


def open_private(path: Path) -> IO[str]:
    """Open ``path`` for writing UTF-8 text, created (or truncated and tightened) with mode 0600."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE_MODE)
    try:
        os.fchmod(fd, PRIVATE_FILE_MODE)  # a file that already existed keeps its mode otherwise
        return os.fdopen(fd, "w", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise


@contextlib.contextmanager
def private_umask() -> Iterator[None]:
    """Within the block, files and folders are created 0600/0700 whatever their writer asks.

    For writers that open their files themselves (the text, JSONL, CSV and Parquet writers). The
    umask is per process: this is for command-line runs, not for threads of a server.
    """
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)
