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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from phiscrub.document import Document
from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.io.base import FolderWriter, PathLike, doc_path
from phiscrub.io.decoding import decode_bytes
from phiscrub.io.source import Aligner, Source, SourceReader

__all__ = [
    "BAD_FILENAME_ID",
    "TEXT_ENTRY_PROBLEMS",
    "TextEntry",
    "TextFileSource",
    "TextFolderSource",
    "TextReader",
    "TextWriter",
    "iter_text_files",
    "read_text_file",
    "read_text_with_policy",
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
    "bad_filename",  # the entry's path (its name or a folder's) is not UTF-8: never read nor written
)

#: Prefix of the id given to an entry whose path is not UTF-8 (``bad_filename-1``, ``-2``, ... in
#: listing order): its name bytes may be PHI and cannot go into JSON, so they appear nowhere.
BAD_FILENAME_ID = "bad_filename"


@dataclass(frozen=True)
class TextEntry:
    """One ``.txt`` entry of a folder.

    Args:
        path: the entry (``root / rel``; a symbolic link stays a link).
        rel: its path relative to the folder.
        problem: None for a regular file (or a link to one), else a :data:`TEXT_ENTRY_PROBLEMS` code.
        alias: the id of an entry whose path is not UTF-8 (``bad_filename-<k>``).
    """

    path: Path
    rel: Path
    problem: str | None = None
    alias: str | None = None

    @property
    def doc_id(self) -> str:
        """The document id: the relative path without its suffix, ``/``-separated (or the alias)."""
        return self.alias if self.alias is not None else self.rel.with_suffix("").as_posix()


def _utf8_name(rel: Path) -> bool:
    """Whether ``rel`` is text: a name that is not UTF-8 is decoded with lone surrogates
    (``surrogateescape``), which no UTF-8 file, JSON line or terminal can take."""
    try:
        rel.as_posix().encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


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
            rel = path.relative_to(root)
            entries.append(TextEntry(path, rel, _entry_problem(path) if _utf8_name(rel) else "bad_filename"))
    entries.sort(key=lambda e: e.rel.as_posix())
    bad = (i for i, e in enumerate(entries) if e.problem == "bad_filename")
    for k, i in enumerate(bad, 1):
        e = entries[i]
        entries[i] = TextEntry(e.path, e.rel, e.problem, f"{BAD_FILENAME_ID}-{k}")
    return entries


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


def read_text_with_policy(path: Path, policy: str) -> tuple[str | None, str | None, str | None]:
    """Read a note file as :func:`read_text_file` does, recovering undecodable bytes under ``policy``
    (:data:`phiscrub.io.decoding.ENCODING_ERRORS`).

    Returns:
        ``(text, None, note)``: read (``note`` set when recovered), or ``(None, problem, None)``
        with a :data:`TEXT_ENTRY_PROBLEMS` code.
    """
    text, problem = read_text_file(path)
    if problem != "decode_error" or policy == "fail":
        return text, problem, None
    try:
        raw = path.read_bytes()
    except OSError:
        return None, "unreadable", None
    text, note = decode_bytes(raw, policy)
    return (text, None, note) if text is not None else (None, "decode_error", None)


class TextReader(SourceReader):
    """Read one ``.txt`` file or every ``.txt`` under a folder (through :class:`TextFileSource` /
    :class:`TextFolderSource`, as ``redact`` does); an entry that cannot be read is reported.

    Documents carry no spans and no metadata. A folder's entry that cannot be read (dangling link,
    fifo, not UTF-8) is reported with its id, never skipped silently.
    """

    format_name = "txt"
    metadata_keys = ()

    def open(self, path: Path) -> Source:
        """The text source of a file or folder."""
        return TextFolderSource(path) if path.is_dir() else TextFileSource(path, fail_early=False)


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


class TextFileSource(Source):
    """One ``.txt`` file: one document with id ``<stem>``, read and written byte-exactly.

    The file is read when the source is opened, so a file that cannot be a note stops a run before
    anything is written; with ``fail_early=False`` (reading, :class:`TextReader`) it is yielded
    instead as a document with ``metadata["read_error"]``, like a folder's entry.

    Raises:
        InputFormatError: the path is not a regular file, cannot be read, or is not UTF-8.
    """

    shape = "txt"

    def __init__(self, path: Path, encoding_errors: str = "fail", *, fail_early: bool = True) -> None:
        super().__init__(path)
        self.encoding_errors = encoding_errors
        text, self._problem, self._note = read_text_with_policy(self.path, encoding_errors)
        if text is None and fail_early:
            words = _TEXT_PROBLEM_WORDS.get(self._problem or "", "cannot be read")
            raise InputFormatError(f"{self.path} {words}")
        self._text = text or ""

    @property
    def count(self) -> int | None:
        """Always one document."""
        return 1

    def documents(self) -> Iterator[Document]:
        """Yield the file's note (empty, with its ``read_error``, when it could not be read)."""
        meta: dict[str, Any] = {"position": 0}
        if self._problem is not None:
            meta["read_error"] = self._problem
        elif self._note:
            meta["decode"] = self._note
        yield Document(self.path.stem, self._text, (), meta)

    def write(self, out_dir: PathLike, transformed: Iterable[Document]) -> list[Path]:
        """Write the transformed note to ``out_dir/<same name>``."""
        out = self._open_output(out_dir)
        align = Aligner(transformed, self.path)
        doc = align.take(self.path.stem)
        align.finish()
        out.write_bytes(doc.text.encode("utf-8"))
        return [out]


class TextFolderSource(Source):
    """A folder of ``.txt`` files (recursive); ids are relative paths without ``.txt``.

    Every ``.txt`` entry listed by :func:`~phiscrub.io.text.scan_text_entries` is a document:
    symbolic links to files are followed; an entry that cannot be read (dangling link, fifo,
    unreadable, not UTF-8) is yielded with empty text and ``metadata["read_error"]`` set to its
    :data:`~phiscrub.io.text.TEXT_ENTRY_PROBLEMS` code, so the run goes on and reports it.

    Raises:
        InputFormatError: (on listing, i.e. :attr:`count` or the first document) two entries would
            get the same id (``a.txt`` and ``a.TXT``), or a folder cannot be listed.
    """

    shape = "dir"

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self._entries: list[TextEntry] | None = None

    def entries(self) -> list[TextEntry]:
        """The folder's ``.txt`` entries, listed once (files written later never join the input)."""
        if self._entries is None:
            entries = scan_text_entries(self.path)
            seen: dict[str, Path] = {}
            for e in entries:
                if e.doc_id in seen:
                    raise InputFormatError(
                        f"{self.path}: {seen[e.doc_id].as_posix()} and {e.rel.as_posix()} would get the "
                        "same document id; rename one of them"
                    )
                seen[e.doc_id] = e.rel
            self._entries = entries
        return self._entries

    @property
    def count(self) -> int | None:
        """The number of ``.txt`` entries (those that cannot be read included)."""
        return len(self.entries())

    def documents(self) -> Iterator[Document]:
        """Yield one note per ``.txt`` entry, sorted by relative path."""
        for pos, entry in enumerate(self.entries()):
            text, problem, note = (
                (None, entry.problem, None)
                if entry.problem
                else read_text_with_policy(entry.path, self.encoding_errors)
            )
            meta: dict[str, Any] = {"position": pos}
            if text is None:
                meta["read_error"] = problem
            elif note:
                meta["decode"] = note
            yield Document(entry.doc_id, text or "", (), meta)

    def output_path(self, out_dir: PathLike) -> Path:
        """The output folder itself."""
        return Path(out_dir)

    def write(self, out_dir: PathLike, transformed: Iterable[Document]) -> list[Path]:
        """Write each transformed note to ``out_dir/<same relative path>``.

        Raises:
            ConfigError: ``out_dir`` is the input folder or inside it.
        """
        out_root = Path(out_dir)
        src = self.path.resolve()
        dst = out_root.resolve()
        if dst == src or src in dst.parents:
            raise ConfigError(f"output folder {out_root} is inside the input folder; choose another one")
        entries = self.entries()
        align = Aligner(transformed, self.path)
        written: list[Path] = []
        for entry in entries:
            doc = align.take(entry.doc_id)
            if entry.problem == "bad_filename":
                continue  # no name to write it under that is not the (non-UTF-8, maybe PHI) name
            out = out_root / entry.rel
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(doc.text.encode("utf-8"))
            written.append(out)
        align.finish()
        return written


#: How a :data:`~phiscrub.io.text.TEXT_ENTRY_PROBLEMS` code reads in an error message.
_TEXT_PROBLEM_WORDS: dict[str, str] = {
    "dangling_symlink": "is a symbolic link to nothing",
    "not_regular_file": "is not a regular file (a fifo, socket, device or folder)",
    "unreadable": "cannot be read",
    "decode_error": "is not UTF-8",
    "bad_filename": "has a name that is not UTF-8",
}
