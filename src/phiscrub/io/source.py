"""The :class:`Source` contract: notes read from one input and written back in the same shape.

A source streams both ways: :meth:`Source.documents` yields one document at a time, and
:meth:`Source.write` re-reads the input while consuming the transformed documents, which must come
in the order :meth:`Source.documents` produced them (ids are checked by :class:`Aligner`). Every
document has ``metadata["position"]`` (0-based order of its record in the input) and, when a
patient field is given, ``metadata["patient_id"]``.

The record shapes (JSONL, CSV/TSV, Parquet) share :class:`Record` and :class:`RecordSource`: the note
of each record plus its other string values as *cell documents* (id ``<record id>#<JSON Pointer>``,
``metadata["cell"]`` the pointer). A record that cannot be trusted (:data:`RECORD_PROBLEMS`) is
yielded with empty text, ``metadata["read_error"]`` (a code, never text) and ``metadata["line"]``.

:class:`SourceReader` turns a source into a :class:`~phiscrub.io.base.Reader` (one reader per format:
``txt``, ``csv``, ``parquet`` read through the same code as ``redact``): a failed record becomes a
:class:`~phiscrub.io.base.Problem` (or an error when the reader is strict), cell documents are not read.
"""

from __future__ import annotations

import codecs
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from phiscrub.document import Document
from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.io.base import PathLike, Reader

__all__ = [
    "READ_ERROR_KINDS",
    "RECORD_PROBLEMS",
    "UNDECODABLE",
    "Aligner",
    "Record",
    "RecordFields",
    "RecordSource",
    "Source",
    "SourceReader",
    "TableReader",
    "TableSource",
    "cell_id",
    "check_not_input",
    "codec_name",
    "record_metadata",
    "row_id",
]


def codec_name(encoding: str) -> str:
    """The canonical name of ``encoding`` (``utf-8``, ``iso8859-1``, ...).

    Raises:
        ConfigError: Python knows no such encoding.
    """
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise ConfigError(f"unknown encoding {encoding!r}") from None


class Aligner:
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


def record_metadata(position: int, patient: Any, with_patient: bool) -> dict[str, Any]:
    metadata: dict[str, Any] = {"position": position}
    if with_patient and patient is not None:
        metadata["patient_id"] = str(patient)
    return metadata


def row_id(stem: str, position: int, value: Any) -> str:
    return str(value) if value not in (None, "") else f"{stem}-{position}"


def check_not_input(out: Path, src: Path) -> None:
    """Refuse to write over the input (it is re-read while writing)."""
    if out.resolve() == src.resolve():
        raise ConfigError(f"output {out} would overwrite the input; choose another output folder")


class Source(ABC):
    """Notes read from one input, written back in the same shape.

    Args:
        path: the input file or folder.
    """

    shape: str = ""
    #: The field or column ids are read from (None: ids are positions or paths, never repeated).
    id_field: str | None = None
    #: What a document with undecodable bytes becomes (:mod:`phiscrub.io.decoding`).
    encoding_errors: str = "fail"

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
        """The number of notes (files, records or rows, for progress bars; the cell documents of
        :class:`JsonlSource`, :class:`CsvSource` and :class:`ParquetSource` are not counted), or None
        when unknown."""
        return None

    def output_path(self, out_dir: PathLike) -> Path:
        """Where :meth:`write` puts its output for ``out_dir``."""
        return Path(out_dir) / self.path.name

    def _open_output(self, out_dir: PathLike) -> Path:
        out = self.output_path(out_dir)
        check_not_input(out, self.path)
        out.parent.mkdir(parents=True, exist_ok=True)
        return out


#: Read-error codes of JSONL, CSV and TSV records (``metadata["read_error"]``). Such a record is
#: yielded with empty text and no cell documents, and written back empty (its id kept only where
#: it is certain, see :class:`CsvSource` and :class:`JsonlSource`).
RECORD_PROBLEMS: dict[str, str] = {
    "decode_error": "bytes that are not text in the input's encoding (JSONL: UTF-8)",
    "malformed_csv": "a line of a row that breaks the CSV quoting rules (an unclosed quote, text after a "
    "closing quote); one such record per physical line the broken row spans",
    "ragged_row": "a CSV/TSV row with more or fewer cells than the header",
    "bad_id": "an id that cannot be an id: a CSV cell holding a line break, a JSON object or list",
    "missing_id": "a JSONL record without the --id-field key",
    "invalid_json": "a JSONL line that is not JSON",
    "not_object": "a JSONL line that is JSON but not an object",
    "missing_text": "a JSONL record without the text field",
    "text_not_string": "a JSONL text field that is neither a string nor null",
    "too_deep": "a JSONL record nested deeper than phiscrub.io.jsonl.MAX_DEPTH",
}

#: Characters that surrogateescape decoding puts in place of bytes the codec cannot decode.
UNDECODABLE = re.compile("[\udc80-\udcff]")


@dataclass
class Record:
    """One input record: its note, the other cells to redact, or why it cannot be read.

    ``cells`` are ``(pointer, value)`` pairs: a JSON Pointer into the record (``/column`` for a
    table) and the non-empty string found there; each becomes a document ``<id>#<pointer>``.
    """

    position: int
    doc_id: str
    text: str = ""
    patient: Any = None
    cells: list[tuple[str, str]] = field(default_factory=list)
    error: str | None = None
    line: int | None = None
    #: A failed record's id was read from the record itself (a JSONL key), so it may be written back.
    id_read: bool = False
    #: Set when undecodable bytes were recovered (:data:`phiscrub.io.decoding.DECODE_NOTES`).
    decode: str | None = None

    def documents(self, with_patient: bool) -> Iterator[Document]:
        """The record's note, then one document per cell to redact (none for a failed record)."""
        meta = record_metadata(self.position, self.patient, with_patient)
        if self.error is not None:
            meta["read_error"] = self.error
            if self.line is not None:
                meta["line"] = self.line
            yield Document(self.doc_id, "", (), meta)
            return
        if self.decode is not None:
            meta["decode"] = self.decode
        yield Document(self.doc_id, self.text, (), meta)
        for pointer, value in self.cells:
            yield Document(cell_id(self.doc_id, pointer), value, (), {**meta, "cell": pointer})

    def take(self, align: Aligner) -> tuple[str, dict[str, str]]:
        """The transformed note and cells of this record, taken from ``align`` in order."""
        text = align.take(self.doc_id).text
        cells = {p: align.take(cell_id(self.doc_id, p)).text for p, _ in self.cells}
        return text, cells


def cell_id(doc_id: str, pointer: str) -> str:
    """The id of the document holding the cell at ``pointer`` of record ``doc_id``: ``<id>#<pointer>``."""
    return f"{doc_id}#{pointer}"


@dataclass(frozen=True)
class RecordFields:
    """The keys or columns of a record that options name, besides the text.

    Args:
        id_field: key or column of the document id (copied as read: ids must not hold PHI).
        patient_field: key or column copied to ``metadata["patient_id"]``.
        keep_columns: keys or columns copied as read (every other value is redacted).
    """

    id_field: str | None = None
    patient_field: str | None = None
    keep_columns: Sequence[str] = ()


class RecordSource(Source):
    """A file of records (JSONL lines, table rows): the note of each, plus its other values.

    Every value other than the note and the id is redacted as a cell document unless its top-level
    key is in ``keep_columns``; :attr:`count` counts records, not cell documents.
    """

    def __init__(self, path: Path, fields: RecordFields | None = None) -> None:
        super().__init__(path)
        fields = fields or RecordFields()
        self.id_field = fields.id_field
        self.patient_field = fields.patient_field
        self.keep_columns = tuple(fields.keep_columns)
        self._count: int | None = None

    @abstractmethod
    def _records(self) -> Iterator[Record]:
        """The input's records in order."""

    @property
    def count(self) -> int | None:
        """The number of records (one pass over the file, done once)."""
        if self._count is None:
            self._count = sum(1 for _ in self._records())
        return self._count

    def documents(self) -> Iterator[Document]:
        """Yield each record's note, followed by its cells to redact (ids ``<id>#/<column>``)."""
        for rec in self._records():
            yield from rec.documents(self.patient_field is not None)

    def _named(self, text_key: str, text_option: str, keep: bool) -> list[tuple[str | None, str]]:
        """The keys or columns the options name, each with its option (for error messages)."""
        named = [
            (text_key, text_option),
            (self.id_field, "--id-field"),
            (self.patient_field, "--patient-field"),
        ]
        return named + [(k, "--keep-columns") for k in self.keep_columns] if keep else named

    def _check_keep(self, text_key: str) -> None:
        if text_key in self.keep_columns:
            raise ConfigError(
                f"--keep-columns cannot keep the text column {text_key!r}: it is what is redacted"
            )


class TableSource(RecordSource):
    """Column options shared by the CSV and Parquet sources."""

    def __init__(self, path: Path, text_column: str, fields: RecordFields | None) -> None:
        super().__init__(path, fields)
        self.text_column = text_column
        self._check_keep(text_column)

    def _check_columns(self, names: list[str]) -> None:
        """Refuse repeated column names and named columns that are missing.

        Messages name a column only when the user named it (an option): in a file without a header
        row the "names" are the first note's cells.
        """
        named = {self.text_column, self.id_field, self.patient_field, *self.keep_columns}
        repeated = sorted({n for n in names if names.count(n) > 1}, key=names.index)
        if repeated:
            positions = [[i + 1 for i, n in enumerate(names) if n == r] for r in repeated]
            said = ", ".join(
                (f"{r!r} " if r in named else "") + "at columns " + "/".join(map(str, ps))
                for r, ps in zip(repeated, positions)
            )
            raise InputFormatError(
                f"{self.path}: repeated column names ({said}); every column needs its own name"
            )
        for col, option in self._named(self.text_column, "--text-column", keep=True):
            if col is not None and col not in names:
                raise InputFormatError(
                    f"{self.path}: no column {col!r} in the first row ({len(names)} columns); "
                    f"is the first row a header, and is {option} spelt right?"
                )


#: The problem kind a reader reports for each read-error code of a source (others: ``malformed_record``).
READ_ERROR_KINDS: dict[str, str] = {
    "decode_error": "decode_error",
    "dangling_symlink": "missing_file",
    "symlink_loop": "malformed_file",
    "not_regular_file": "malformed_file",
    "unreadable": "malformed_file",
    "bad_filename": "malformed_file",
}


class SourceReader(Reader):
    """A :class:`~phiscrub.io.base.Reader` over the :class:`Source` that :meth:`open` builds.

    Formats read by ``redact`` (``txt``, ``csv``, ``parquet``) have one parser: their reader is this
    adapter over the source. A document the source could not read (``metadata["read_error"]``) is
    reported as a problem (kind from :data:`READ_ERROR_KINDS`, with its line when known) and left
    out; a source that cannot be opened (a missing column, a file that is not Parquet, a folder
    with clashing ids) is reported as ``malformed_file``. Cell documents are not read, and only the
    metadata keys in :attr:`metadata_keys` are kept.

    Args:
        corpus: label mapping name, see :class:`~phiscrub.io.base.Reader` (sources carry no spans).
        strict: raise on the first problem instead of reporting it.
    """

    #: Metadata of the source's documents that the reader keeps.
    metadata_keys: tuple[str, ...] = ("position", "patient_id")

    @abstractmethod
    def open(self, path: Path) -> Source:
        """The source of the file or folder ``path``.

        Raises:
            InputFormatError: the input cannot be opened (reported, or raised when strict).
        """

    def read(self, path: PathLike) -> Iterator[Document]:
        """Yield the good documents at ``path``, reporting those that cannot be read.

        Raises:
            InputFormatError: ``path`` does not exist (or any problem, when strict).
        """
        src = Path(path)
        if not src.exists():
            raise InputFormatError(f"no such file or folder: {src}")
        try:
            source = self.open(src)
            for doc in source.documents():
                if "cell" in doc.metadata:
                    continue
                if doc.metadata.get("read_error"):
                    self._report_failed(source, doc)
                    continue
                meta = {k: doc.metadata[k] for k in self.metadata_keys if k in doc.metadata}
                yield Document(doc.id, doc.text, (), meta)
        except InputFormatError as err:
            if self.strict:
                raise
            self.report(str(src), "malformed_file", str(err))

    def _report_failed(self, source: Source, doc: Document) -> None:
        code = str(doc.metadata["read_error"])
        line = doc.metadata.get("line")
        where = source.path.name + (f":{line}" if line is not None else "")
        self.report(
            doc.id, READ_ERROR_KINDS.get(code, "malformed_record"), f"{where}: cannot be read ({code})"
        )


class TableReader(SourceReader):
    """The reader of a table of notes (CSV/TSV, Parquet) over its source class :attr:`source_class`.

    Args:
        text_column: column holding the note text.
        id_column: column holding the document id, if any.
        patient_column: column copied to ``metadata["patient_id"]``, if any.
        corpus: accepted for the common reader signature (tables carry no spans).
        strict: raise on the first problem instead of reporting it.
        delimiter: CSV only: force a delimiter (default: from the header).
        batch_size: Parquet only: rows per batch read.
    """

    #: The source class the reader opens (called with the path, the columns and :meth:`options`).
    source_class: ClassVar[Callable[..., Source]]

    def __init__(
        self,
        text_column: str = "text",
        id_column: str | None = None,
        patient_column: str | None = None,
        *,
        delimiter: str | None = None,
        batch_size: int = 1024,
        corpus: str | None = None,
        strict: bool = False,
    ) -> None:
        super().__init__(corpus, strict=strict)
        self.text_column = text_column
        self.id_column = id_column
        self.patient_column = patient_column
        self.delimiter = delimiter
        self.batch_size = batch_size

    def options(self) -> dict[str, Any]:
        """The format's own options passed to :attr:`source_class`."""
        return {}

    def open(self, path: Path) -> Source:
        """The table source of the file ``path`` (its other columns are not read).

        Raises:
            InputFormatError: ``path`` is not a file, or the source refuses it.
        """
        if not path.is_file():
            raise InputFormatError(f"no such file: {path}")
        fields = RecordFields(self.id_column, self.patient_column)
        return self.source_class(path, self.text_column, fields, cells=False, **self.options())
