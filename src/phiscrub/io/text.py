"""Plain text: one ``.txt`` file, or a folder of them, one document per file and no spans.

Files are read and written byte-exactly (UTF-8, ``newline=""``: ``\\r\\n`` and a leading BOM are
kept), so offsets computed on the text are offsets into the file's characters. The id of a
document is its path relative to the folder without the extension (the stem for a single file).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from phiscrub.document import Document
from phiscrub.io.base import FolderWriter, PathLike, Reader, doc_path, input_files

__all__ = ["TextReader", "TextWriter", "iter_text_files"]


def iter_text_files(root: Path) -> list[Path]:
    """The ``.txt`` files (any case) under ``root``, recursively, sorted by relative path.

    Hidden files and folders (names starting with ``.``) are skipped.
    """
    return sorted(
        (
            p
            for p in root.rglob("*")
            if p.suffix.lower() == ".txt"
            and p.is_file()
            and not any(part.startswith(".") for part in p.relative_to(root).parts)
        ),
        key=lambda p: p.relative_to(root).as_posix(),
    )


class TextReader(Reader):
    """Read one ``.txt`` file or every ``.txt`` under a folder; a non-UTF-8 file is reported."""

    format_name = "txt"

    def read(self, path: PathLike) -> Iterator[Document]:
        """Yield one span-less document per text file at ``path``.

        Raises:
            InputFormatError: ``path`` does not exist.
        """
        for f, doc_id in input_files(path, iter_text_files):
            doc = self._read_file(f, doc_id)
            if doc is not None:
                yield doc

    def _read_file(self, path: Path, doc_id: str) -> Document | None:
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as err:
            self.report(doc_id, "decode_error", f"{path} is not UTF-8 at byte {err.start}")
            return None
        return Document(doc_id, text)


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
