"""Input shapes for ``redact``: read notes from a file or folder and write them back in the same shape.

:func:`open_source` picks the shape from the path (``fmt`` overrides it):

=================  ===========================  ============================================
shape              input                        output of :meth:`Source.write`
=================  ===========================  ============================================
``txt``            ``notes.txt``                ``OUT/notes.txt``
``dir``            folder of ``.txt`` (nested)  the same relative tree of ``.txt`` under OUT
``jsonl``          ``.jsonl`` / ``.ndjson``     ``OUT/<name>``: same lines, only the text field
                                                replaced (blank lines and line ends kept)
``csv`` / ``tsv``  ``.csv`` / ``.tsv``          ``OUT/<name>``: same header, delimiter, quoting,
                                                line ends, BOM, rows and order; only the text
                                                column replaced; values stay strings
``parquet``        ``.parquet``                 ``OUT/<name>``: same schema, rows and order;
                                                only the text column replaced
=================  ===========================  ============================================

Both sides stream: :meth:`Source.documents` yields one note at a time, and :meth:`Source.write`
re-reads the input while consuming the transformed documents, which must come in the order
:meth:`Source.documents` produced them (ids are checked). Every document has
``metadata["position"]`` (0-based order in the input) and, when ``patient_field`` is given,
``metadata["patient_id"]``.

Unlike the corpus readers, sources are strict: a record that cannot be read, or lacks the text
field, raises :class:`~phiscrub.errors.InputFormatError` rather than being skipped, because skipping
a note in a redaction run would either drop it or copy it through unredacted.
"""

from __future__ import annotations

import csv
import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from phiscrub.document import Document
from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.io.base import PathLike
from phiscrub.io.jsonl import dumps_line
from phiscrub.io.tabular import CsvLayout, allow_large_csv_fields, column_index, sniff_csv
from phiscrub.io.text import TextEntry, read_text_file, scan_text_entries

__all__ = [
    "SHAPES",
    "CsvSource",
    "JsonlSource",
    "ParquetSource",
    "Source",
    "TextFileSource",
    "TextFolderSource",
    "detect_shape",
    "open_source",
]

#: Shape names accepted by ``open_source(fmt=...)``.
SHAPES: tuple[str, ...] = ("txt", "dir", "jsonl", "csv", "tsv", "parquet")

_SUFFIX_SHAPES = {
    ".txt": "txt",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".csv": "csv",
    ".tsv": "tsv",
    ".parquet": "parquet",
}


def detect_shape(path: PathLike) -> str:
    """The shape of ``path``: ``dir`` for a folder, else by extension (see :data:`SHAPES`).

    Raises:
        InputFormatError: the path does not exist or its extension is not a known shape.
    """
    p = Path(path)
    if p.is_dir():
        return "dir"
    if not p.is_file():
        if p.exists():
            raise InputFormatError(f"{p} is not a regular file or folder (a fifo, socket or device)")
        raise InputFormatError(f"no such file or folder: {p}")
    shape = _SUFFIX_SHAPES.get(p.suffix.lower())
    if shape is None:
        raise InputFormatError(
            f"{p}: cannot tell the input shape from {p.suffix!r}; known: {sorted(_SUFFIX_SHAPES)}"
        )
    return shape


def open_source(
    path: PathLike,
    *,
    text_field: str = "text",
    text_column: str = "text",
    id_field: str | None = None,
    patient_field: str | None = None,
    fmt: str | None = None,
) -> Source:
    """Open ``path`` as a :class:`Source` of the matching shape.

    Args:
        path: a ``.txt`` file, a folder of ``.txt``, a JSONL, CSV, TSV or Parquet file.
        text_field: JSONL key holding the note text.
        text_column: CSV/TSV/Parquet column holding the note text.
        id_field: JSONL key or table column giving document ids (default: ``<stem>-<position>``).
        patient_field: JSONL key or table column copied to ``metadata["patient_id"]``.
        fmt: force a shape (one of :data:`SHAPES`) instead of detecting it.

    Raises:
        InputFormatError: unknown shape, missing path, or a table without the named columns.
    """
    p = Path(path)
    if fmt is None:
        shape = detect_shape(p)
    elif fmt in SHAPES:
        shape = fmt
        if not p.exists():
            raise InputFormatError(f"no such file or folder: {p}")
    else:
        raise InputFormatError(f"unknown input shape {fmt!r}; known: {list(SHAPES)}")
    if (shape == "dir") != p.is_dir():
        raise InputFormatError(f"{p}: shape {shape!r} needs {'a folder' if shape == 'dir' else 'a file'}")
    if shape == "txt":
        return TextFileSource(p)
    if shape == "dir":
        return TextFolderSource(p)
    if shape == "jsonl":
        return JsonlSource(p, text_field=text_field, id_field=id_field, patient_field=patient_field)
    if shape in ("csv", "tsv"):
        return CsvSource(
            p, text_column=text_column, id_field=id_field, patient_field=patient_field, tsv=shape == "tsv"
        )
    return ParquetSource(p, text_column=text_column, id_field=id_field, patient_field=patient_field)


class _Aligner:
    """Hands out transformed documents one by one, checking they come in the input's order."""

    def __init__(self, transformed: Iterable[Document], path: Path) -> None:
        self._it = iter(transformed)
        self._path = path
        self._n = 0

    def take(self, expected_id: str) -> Document:
        try:
            doc = next(self._it)
        except StopIteration:
            raise InputFormatError(
                f"{self._path}: only {self._n} transformed documents for a longer input", doc_id=expected_id
            ) from None
        if doc.id != expected_id:
            raise InputFormatError(
                f"{self._path}: transformed document {self._n} has id {doc.id!r}; order must match the input",
                doc_id=expected_id,
            )
        self._n += 1
        return doc

    def finish(self) -> None:
        if next(self._it, None) is not None:
            raise InputFormatError(f"{self._path}: more transformed documents than input records ({self._n})")


def _meta(position: int, patient: Any, with_patient: bool) -> dict[str, Any]:
    metadata: dict[str, Any] = {"position": position}
    if with_patient and patient is not None:
        metadata["patient_id"] = str(patient)
    return metadata


def _row_id(stem: str, position: int, value: Any) -> str:
    return str(value) if value not in (None, "") else f"{stem}-{position}"


def _check_not_input(out: Path, src: Path) -> None:
    """Refuse to write over the input (it is re-read while writing)."""
    if out.resolve() == src.resolve():
        raise ConfigError(f"output {out} would overwrite the input; choose another output folder")


class Source(ABC):
    """Notes read from one input, written back in the same shape.

    Args:
        path: the input file or folder.
    """

    shape: str = ""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    @abstractmethod
    def documents(self) -> Iterator[Document]:
        """Yield the input's notes in order."""

    @abstractmethod
    def write(self, out_dir: PathLike, transformed: Iterable[Document]) -> list[Path]:
        """Write ``transformed`` (same order and ids as :meth:`documents`) under ``out_dir``.

        Returns:
            The files written.

        Raises:
            InputFormatError: the transformed documents do not match the input one to one.
            ConfigError: the output would overwrite the input.
        """

    @property
    def count(self) -> int | None:
        """The number of documents when known without reading the notes (for progress bars), else None."""
        return None

    def output_path(self, out_dir: PathLike) -> Path:
        """Where :meth:`write` puts its output for ``out_dir``."""
        return Path(out_dir) / self.path.name

    def _open_output(self, out_dir: PathLike) -> Path:
        out = self.output_path(out_dir)
        _check_not_input(out, self.path)
        out.parent.mkdir(parents=True, exist_ok=True)
        return out


class TextFileSource(Source):
    """One ``.txt`` file: one document with id ``<stem>``, read and written byte-exactly.

    The file is read when the source is opened, so a file that cannot be a note stops a run before
    anything is written.

    Raises:
        InputFormatError: the path is not a regular file, cannot be read, or is not UTF-8.
    """

    shape = "txt"

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        text, problem = read_text_file(self.path)
        if text is None:
            raise InputFormatError(f"{self.path} {_TEXT_PROBLEM_WORDS.get(problem or '', 'cannot be read')}")
        self._text = text

    @property
    def count(self) -> int | None:
        """Always one document."""
        return 1

    def documents(self) -> Iterator[Document]:
        """Yield the file's note."""
        yield Document(self.path.stem, self._text, (), {"position": 0})

    def write(self, out_dir: PathLike, transformed: Iterable[Document]) -> list[Path]:
        """Write the transformed note to ``out_dir/<same name>``."""
        out = self._open_output(out_dir)
        align = _Aligner(transformed, self.path)
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

    def _list(self) -> list[TextEntry]:
        # Listed once, so files written during write() never join the input.
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
        return len(self._list())

    def documents(self) -> Iterator[Document]:
        """Yield one note per ``.txt`` entry, sorted by relative path."""
        for pos, entry in enumerate(self._list()):
            text, problem = (None, entry.problem) if entry.problem else read_text_file(entry.path)
            meta: dict[str, Any] = {"position": pos}
            if text is None:
                meta["read_error"] = problem
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
        entries = self._list()
        align = _Aligner(transformed, self.path)
        written: list[Path] = []
        for entry in entries:
            doc = align.take(entry.doc_id)
            out = out_root / entry.rel
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(doc.text.encode("utf-8"))
            written.append(out)
        align.finish()
        return written


#: Record fields dropped from redacted JSONL output: annotations of the original text (their offsets
#: no longer match, and they may hold the PHI strings themselves).
ANNOTATION_FIELDS: tuple[str, ...] = ("spans", "entities", "annotations")


class JsonlSource(Source):
    """A JSONL file of records holding the note in ``text_field``; other fields are left alone, except
    the annotation fields of :data:`ANNOTATION_FIELDS`, which are dropped on output.

    Args:
        path: the input file.
        text_field: key of the note text (a string, or null read as an empty note).
        id_field: key of the document id.
        patient_field: key copied to ``metadata["patient_id"]``.
    """

    shape = "jsonl"

    def __init__(
        self,
        path: Path,
        text_field: str = "text",
        id_field: str | None = None,
        patient_field: str | None = None,
    ) -> None:
        super().__init__(path)
        self.text_field = text_field
        self.id_field = id_field
        self.patient_field = patient_field

    def _records(self) -> Iterator[tuple[int, bytes, dict[str, Any] | None, str]]:
        """(position, raw line, record or None for a blank line, expected id)."""
        pos = 0
        with self.path.open("rb") as fh:
            for lineno, raw in enumerate(fh, start=1):
                if not raw.strip():
                    yield pos, raw, None, ""
                    continue
                where = f"{self.path}: line {lineno}"
                try:
                    record = json.loads(raw)
                except json.JSONDecodeError as err:
                    raise InputFormatError(f"{where} is not valid JSON ({err.msg})") from None
                except UnicodeDecodeError:
                    raise InputFormatError(f"{where} is not UTF-8") from None
                if not isinstance(record, dict):
                    raise InputFormatError(f"{where} is not a JSON object")
                if self.text_field not in record:
                    raise InputFormatError(f"{where} has no field {self.text_field!r}")
                value = record[self.text_field]
                if value is not None and not isinstance(value, str):
                    raise InputFormatError(f"{where}: field {self.text_field!r} is not a string")
                ident = record.get(self.id_field) if self.id_field else None
                yield pos, raw, record, _row_id(self.path.stem, pos, ident)
                pos += 1

    def documents(self) -> Iterator[Document]:
        """Yield one note per non-blank line."""
        for pos, _, record, doc_id in self._records():
            if record is None:
                continue
            patient = record.get(self.patient_field) if self.patient_field else None
            text = record[self.text_field] or ""
            yield Document(doc_id, text, (), _meta(pos, patient, self.patient_field is not None))

    def write(self, out_dir: PathLike, transformed: Iterable[Document]) -> list[Path]:
        """Write the same lines with ``text_field`` replaced by each transformed text."""
        out = self._open_output(out_dir)
        align = _Aligner(transformed, self.path)
        with out.open("wb") as fh:
            for _, raw, record, doc_id in self._records():
                if record is None:
                    fh.write(raw)
                    continue
                doc = align.take(doc_id)
                if not (record[self.text_field] is None and doc.text == ""):
                    record[self.text_field] = doc.text
                for key in ANNOTATION_FIELDS:
                    # Gold annotations point into the original text and may carry PHI surfaces.
                    record.pop(key, None)
                ending = b"\r\n" if raw.endswith(b"\r\n") else b"\n" if raw.endswith(b"\n") else b""
                fh.write(dumps_line(record).encode("utf-8") + ending)
            align.finish()
        return [out]


class _TableSource(Source):
    """Column options shared by the CSV and Parquet sources."""

    def __init__(self, path: Path, text_column: str, id_field: str | None, patient_field: str | None) -> None:
        super().__init__(path)
        self.text_column = text_column
        self.id_field = id_field
        self.patient_field = patient_field


class CsvSource(_TableSource):
    """A CSV/TSV file with the note in ``text_column``; everything else is written back as read.

    Args:
        path: the input file.
        text_column: column of the note text.
        id_field: column of the document id.
        patient_field: column copied to ``metadata["patient_id"]``.
        tsv: tab-delimited whatever the header looks like.

    Raises:
        InputFormatError: the file has no header or lacks a named column.
    """

    shape = "csv"

    def __init__(
        self,
        path: Path,
        text_column: str = "text",
        id_field: str | None = None,
        patient_field: str | None = None,
        tsv: bool = False,
    ) -> None:
        super().__init__(path, text_column, id_field, patient_field)
        layout = sniff_csv(self.path)
        self.layout = CsvLayout("\t", layout.lineterminator, layout.bom, layout.quoting) if tsv else layout
        header = self._header()
        self._t = column_index(header, text_column, self.path)
        self._id = column_index(header, id_field, self.path) if id_field else None
        self._p = column_index(header, patient_field, self.path) if patient_field else None

    def _reader(self, fh: Any) -> Iterator[list[str]]:
        allow_large_csv_fields()
        return csv.reader(fh, delimiter=self.layout.delimiter)

    def _header(self) -> list[str]:
        with self.path.open("r", encoding=self.layout.encoding, newline="") as fh:
            header = next(self._reader(fh), None)
        if header is None:
            raise InputFormatError(f"{self.path} has no header row")
        return header

    def _rows(self) -> Iterator[tuple[int, list[str], str]]:
        with self.path.open("r", encoding=self.layout.encoding, newline="") as fh:
            reader = self._reader(fh)
            next(reader)
            for pos, row in enumerate(reader):
                ident = row[self._id] if self._id is not None and self._id < len(row) else None
                yield pos, row, _row_id(self.path.stem, pos, ident)

    def documents(self) -> Iterator[Document]:
        """Yield one note per data row (empty text for an empty or missing cell)."""
        for pos, row, doc_id in self._rows():
            text = row[self._t] if self._t < len(row) else ""
            patient = row[self._p] if self._p is not None and self._p < len(row) else None
            yield Document(doc_id, text, (), _meta(pos, patient, self._p is not None))

    def write(self, out_dir: PathLike, transformed: Iterable[Document]) -> list[Path]:
        """Write the same header and rows with the text column replaced."""
        out = self._open_output(out_dir)
        align = _Aligner(transformed, self.path)
        header = self._header()
        with out.open("w", encoding=self.layout.encoding, newline="") as fh:
            writer = csv.writer(
                fh,
                delimiter=self.layout.delimiter,
                lineterminator=self.layout.lineterminator,
                quoting=self.layout.quoting,
            )
            writer.writerow(header)
            for _, row, doc_id in self._rows():
                doc = align.take(doc_id)
                if self._t < len(row):
                    row[self._t] = doc.text
                elif doc.text:
                    row += [""] * (self._t - len(row)) + [doc.text]
                writer.writerow(row)
            align.finish()
        return [out]


class ParquetSource(_TableSource):
    """A Parquet file with the note in ``text_column``; schema and other columns are kept.

    Args:
        path: the input file.
        text_column: column of the note text.
        id_field: column of the document id.
        patient_field: column copied to ``metadata["patient_id"]``.
        batch_size: rows read per batch.

    Raises:
        InputFormatError: the file is not Parquet or lacks a named column.
    """

    shape = "parquet"

    def __init__(
        self,
        path: Path,
        text_column: str = "text",
        id_field: str | None = None,
        patient_field: str | None = None,
        batch_size: int = 1024,
    ) -> None:
        super().__init__(path, text_column, id_field, patient_field)
        self.batch_size = batch_size
        names = list(self._file().schema_arrow.names)
        for col in (text_column, id_field, patient_field):
            if col is not None and col not in names:
                raise InputFormatError(f"{self.path}: no column {col!r}; columns are {names}")

    @property
    def count(self) -> int | None:
        """The row count from the Parquet footer."""
        return int(self._file().metadata.num_rows)

    def _file(self) -> Any:
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            return pq.ParquetFile(self.path)
        except (OSError, ValueError, pa.ArrowException) as err:
            raise InputFormatError(
                f"{self.path} is not a readable Parquet file ({type(err).__name__})"
            ) from None

    def _batches(self, columns: list[str] | None) -> Iterator[tuple[int, Any, list[str]]]:
        """(position of the first row, record batch, expected ids)."""
        pos = 0
        for batch in self._file().iter_batches(batch_size=self.batch_size, columns=columns):
            raw_ids = batch.column(self.id_field).to_pylist() if self.id_field else [None] * batch.num_rows
            ids = [_row_id(self.path.stem, pos + i, v) for i, v in enumerate(raw_ids)]
            yield pos, batch, ids
            pos += batch.num_rows

    def documents(self) -> Iterator[Document]:
        """Yield one note per row (empty text for null)."""
        columns = sorted({c for c in (self.text_column, self.id_field, self.patient_field) if c})
        for first, batch, ids in self._batches(columns):
            texts = batch.column(self.text_column).to_pylist()
            patients = (
                batch.column(self.patient_field).to_pylist()
                if self.patient_field
                else [None] * batch.num_rows
            )
            for i, (doc_id, text, patient) in enumerate(zip(ids, texts, patients)):
                meta = _meta(first + i, patient, self.patient_field is not None)
                yield Document(doc_id, text or "", (), meta)

    def write(self, out_dir: PathLike, transformed: Iterable[Document]) -> list[Path]:
        """Write the same rows, columns and schema with the text column replaced (nulls kept for empty)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        out = self._open_output(out_dir)
        align = _Aligner(transformed, self.path)
        pf = self._file()
        schema = pf.schema_arrow
        t_i = schema.get_field_index(self.text_column)
        t_type = schema.field(t_i).type
        with pq.ParquetWriter(out, schema, compression=_compression(pf)) as writer:
            for _, batch, ids in self._batches(None):
                old = batch.column(t_i).to_pylist()
                new: list[str | None] = []
                for doc_id, value in zip(ids, old):
                    doc = align.take(doc_id)
                    new.append(None if value is None and doc.text == "" else doc.text)
                try:
                    arr = pa.array(new, type=t_type)
                except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
                    arr = pa.array(new, type=pa.large_string()).cast(t_type)
                arrays = [arr if i == t_i else batch.column(i) for i in range(batch.num_columns)]
                writer.write_batch(pa.RecordBatch.from_arrays(arrays, schema=schema))
            align.finish()
        return [out]


def _compression(pf: Any) -> str:
    """The input's compression codec (of its first column chunk), so the output matches it."""
    try:
        codec = str(pf.metadata.row_group(0).column(0).compression).lower()
    except (IndexError, RuntimeError, ValueError):
        return "snappy"
    if codec == "uncompressed":
        return "none"
    return codec if codec in ("snappy", "gzip", "brotli", "zstd", "lz4", "none") else "snappy"


#: How a :data:`~phiscrub.io.text.TEXT_ENTRY_PROBLEMS` code reads in an error message.
_TEXT_PROBLEM_WORDS: dict[str, str] = {
    "dangling_symlink": "is a symbolic link to nothing",
    "not_regular_file": "is not a regular file (a fifo, socket, device or folder)",
    "unreadable": "cannot be read",
    "decode_error": "is not UTF-8",
}
