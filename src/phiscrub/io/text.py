"""Plain text: one ``.txt`` file, or a folder of them, one document per file and no spans.

Files are read and written byte-exactly (UTF-8, ``newline=""``: ``\\r\\n`` and a leading BOM are
kept), so offsets computed on the text are offsets into the file's characters. The id of a
document is its path relative to the folder without the extension (the stem for a single file).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from phiscrub.document import Document
from phiscrub.errors import InputFormatError
from phiscrub.io.base import PathLike, Reader, Writer, doc_path

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
        root = Path(path)
        if root.is_dir():
            for f in iter_text_files(root):
                doc = self._read_file(f, f.relative_to(root).with_suffix("").as_posix())
                if doc is not None:
                    yield doc
        elif root.is_file():
            doc = self._read_file(root, root.stem)
            if doc is not None:
                yield doc
        else:
            raise InputFormatError(f"no such file or folder: {root}")

    def _read_file(self, path: Path, doc_id: str) -> Document | None:
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as err:
            self.report(doc_id, "decode_error", f"{path} is not UTF-8 at byte {err.start}")
            return None
        return Document(doc_id, text)


class TextWriter(Writer):
    """Write each document's text to ``<folder>/<id>.txt`` (spans are not written)."""

    format_name = "txt"

    def write(self, docs: Iterable[Document], path: PathLike) -> list[Path]:
        """Write ``docs`` under the folder ``path``; return the files written.

        Raises:
            InputFormatError: a document id cannot be used as a file name.
        """
        root = Path(path)
        root.mkdir(parents=True, exist_ok=True)
        written: list[Path] = []
        for doc in docs:
            out = doc_path(root, doc.id, ".txt")
            out.write_bytes(doc.text.encode("utf-8"))
            written.append(out)
        return written
