"""Plain text: one ``.txt`` file, or a folder of them, one document per file and no spans.

Files are read and written byte-exactly (UTF-8, ``newline=""``: ``\\r\\n`` and a leading BOM are
kept), so offsets computed on the text are offsets into the file's characters. The id of a
document is its path relative to the folder without the extension (the stem for a single file).

A folder is listed by :func:`scan_text_entries`, which never drops a ``.txt`` entry without saying
so: symbolic links to regular files are followed; a dangling link, or an entry that is not a regular
file (a fifo, a socket, a device, a link to a folder), is listed with a :data:`TEXT_ENTRY_PROBLEMS`
code. Folders are walked (hidden ones, named ``.*``, are skipped), symbolic links to folders are
not followed (a loop could never end, and the tree would leave the input folder).
"""

from __future__ import annotations

import errno
import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from phiscrub.document import Document
from phiscrub.errors import InputFormatError
from phiscrub.io.base import FolderWriter, PathLike, Reader, doc_path, input_files

__all__ = [
    "TEXT_ENTRY_PROBLEMS",
    "TextEntry",
    "TextReader",
    "TextWriter",
    "iter_text_files",
    "read_text_file",
    "scan_text_entries",
]

log = logging.getLogger(__name__)

#: Codes of a ``.txt`` entry or file that cannot be read as a note (never the text itself).
TEXT_ENTRY_PROBLEMS: tuple[str, ...] = (
    "dangling_symlink",  # a symbolic link whose target does not exist
    "symlink_loop",  # a symbolic link that leads back to itself (a -> b -> a)
    "not_regular_file",  # a fifo, socket, device, or a link to a folder
    "unreadable",  # opening or reading the file failed (permission, I/O error)
    "decode_error",  # the bytes are not UTF-8
)


@dataclass(frozen=True)
class TextEntry:
    """One ``.txt`` entry of a folder.

    Args:
        path: the entry (``root / rel``; a symbolic link stays a link).
        rel: its path relative to the folder.
        problem: None for a regular file (or a link to one), else a :data:`TEXT_ENTRY_PROBLEMS` code.
    """

    path: Path
    rel: Path
    problem: str | None = None

    @property
    def doc_id(self) -> str:
        """The document id: the relative path without its suffix, ``/``-separated."""
        return self.rel.with_suffix("").as_posix()


def _entry_problem(path: Path) -> str | None:
    """None when ``path`` is (or links to) a regular file, else why it cannot be a note."""
    if path.is_symlink() and not path.exists():
        try:
            os.stat(path)
        except OSError as err:
            if err.errno == errno.ELOOP:
                return "symlink_loop"
        return "dangling_symlink"
    return None if path.is_file() else "not_regular_file"


def scan_text_entries(root: Path) -> list[TextEntry]:
    """Every non-hidden ``.txt`` entry (any case) under ``root``, recursively, sorted by relative path.

    Regular files and links to them come with ``problem=None``; anything else named ``*.txt`` (but a
    real folder, which is walked) comes with its problem code, so a caller can report it.

    Raises:
        InputFormatError: a folder of the tree cannot be listed.
    """

    def fail(err: OSError) -> None:
        raise InputFormatError(f"cannot list folder {err.filename} ({type(err).__name__})")

    entries: list[TextEntry] = []
    for dirpath, dirnames, filenames in os.walk(root, onerror=fail, followlinks=False):
        here = Path(dirpath)
        kept = []
        for name in sorted(dirnames):
            if name.startswith("."):
                continue
            if (here / name).is_symlink():
                # os.walk lists links to folders among the folders; say that they are not followed.
                if Path(name).suffix.lower() == ".txt":
                    filenames.append(name)
                else:
                    log.warning("not following the linked folder %s", here / name)
                continue
            kept.append(name)
        dirnames[:] = kept
        for name in filenames:
            if name.startswith(".") or Path(name).suffix.lower() != ".txt":
                continue
            path = here / name
            entries.append(TextEntry(path, path.relative_to(root), _entry_problem(path)))
    return sorted(entries, key=lambda e: e.rel.as_posix())


def iter_text_files(root: Path) -> list[Path]:
    """The readable ``.txt`` files (any case) under ``root``, recursively, sorted by relative path.

    Hidden files and folders (names starting with ``.``) are skipped, and so are the entries that
    :func:`scan_text_entries` lists with a problem (use that function to report them).
    """
    return [e.path for e in scan_text_entries(root) if e.problem is None]


def read_text_file(path: Path) -> tuple[str | None, str | None]:
    """Read a note file as UTF-8, byte-exactly.

    Returns:
        ``(text, None)``, or ``(None, code)`` with a :data:`TEXT_ENTRY_PROBLEMS` code when the
        entry is not a regular file, cannot be read, or is not UTF-8. Never raises for such a file:
        the caller decides whether that stops a run or fails one document.
    """
    problem = _entry_problem(path)
    if problem is not None:
        return None, problem
    try:
        raw = path.read_bytes()
    except OSError:
        return None, "unreadable"
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError:
        return None, "decode_error"


class TextReader(Reader):
    """Read one ``.txt`` file or every ``.txt`` under a folder; a non-UTF-8 file is reported."""

    format_name = "txt"

    def read(self, path: PathLike) -> Iterator[Document]:
        """Yield one span-less document per text file at ``path``.

        A ``.txt`` entry of a folder that cannot be read (dangling link, fifo, not UTF-8) is
        reported as a problem with its id and path, never skipped silently.

        Raises:
            InputFormatError: ``path`` does not exist.
        """
        root = Path(path)
        if root.is_dir():
            for entry in scan_text_entries(root):
                doc = self._read_file(entry.path, entry.doc_id)
                if doc is not None:
                    yield doc
            return
        for f, doc_id in input_files(path, iter_text_files):
            doc = self._read_file(f, doc_id)
            if doc is not None:
                yield doc

    def _read_file(self, path: Path, doc_id: str) -> Document | None:
        text, problem = read_text_file(path)
        if text is not None:
            return Document(doc_id, text)
        kind, what = _READER_PROBLEMS.get(problem or "", ("malformed_file", "cannot be read"))
        self.report(doc_id, kind, f"{path} {what}")
        return None


#: How :class:`TextReader` reports each :data:`TEXT_ENTRY_PROBLEMS` code (problem kind, wording).
_READER_PROBLEMS: dict[str, tuple[str, str]] = {
    "dangling_symlink": ("missing_file", "is a symbolic link to nothing"),
    "not_regular_file": ("malformed_file", "is not a regular file"),
    "unreadable": ("malformed_file", "cannot be read"),
    "decode_error": ("decode_error", "is not UTF-8"),
}


class TextWriter(FolderWriter):
    """Write each document's text to ``<folder>/<id>.txt`` (spans are not written)."""

    format_name = "txt"

    def write_document(self, doc: Document, root: Path) -> list[Path]:
        """Write ``<id>.txt`` under ``root`` byte-exactly; return its path.

        Raises:
            InputFormatError: the document id cannot be used as a file name.
        """
        out = doc_path(root, doc.id, ".txt")
        out.write_bytes(doc.text.encode("utf-8"))
        return [out]
