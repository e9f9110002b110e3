"""Input shapes for ``redact``: read notes from a file or folder and write them back in the same shape.

:func:`open_source` picks the shape from the path (``fmt`` overrides it):

=================  ===========================  ============================================
shape              input                        output of :meth:`Source.write`
=================  ===========================  ============================================
``txt``            ``notes.txt``                ``OUT/notes.txt``
``dir``            folder of ``.txt`` (nested)  the same relative tree of ``.txt`` under OUT
``jsonl``          ``.jsonl`` / ``.ndjson``     ``OUT/<name>``: same lines and keys (blank lines
                                                and line ends kept); annotation fields dropped
``csv`` / ``tsv``  ``.csv`` / ``.tsv``          ``OUT/<name>``: same header, delimiter, quoting,
                                                line ends, BOM, encoding, rows and order
``parquet``        ``.parquet``                 ``OUT/<name>``: same schema, rows and order
=================  ===========================  ============================================

In the record shapes (JSONL, CSV/TSV, Parquet) nothing but the id is copied unexamined: the note
and every other value are redacted, except the id field/column (ids must not hold PHI) and the
keys or columns named in ``keep_columns`` (an explicit opt-in). Each other non-empty string becomes
a *cell document* with id ``<record id>#<JSON Pointer>`` (``n1#/name``, ``n1#/meta/tags/0``) and
``metadata["cell"]`` set to the pointer, yielded right after its record's note. Numbers (JSONL) and
Parquet columns that are not strings or booleans are written as nulls unless kept.

Both sides stream: :meth:`Source.documents` yields one document at a time, and :meth:`Source.write`
re-reads the input while consuming the transformed documents, which must come in the order
:meth:`Source.documents` produced them (ids are checked). Every document has
``metadata["position"]`` (0-based order of its record in the input) and, when ``patient_field`` is
given, ``metadata["patient_id"]``.

A record that cannot be trusted (:data:`RECORD_PROBLEMS`: a CSV row with the wrong number of cells
or broken quoting, undecodable bytes, a JSONL line that is not an object with the text field) is
yielded as a document with empty text, ``metadata["read_error"]`` (a code, never text) and
``metadata["line"]`` (its first line in the file), and written back with every value empty: the run
goes on and reports it. Problems that concern the whole input (a missing or repeated column, a
Parquet text column that is not strings, a field missing from the first JSONL record) raise
:class:`~phiscrub.errors.InputFormatError` when the source is opened. No message holds a value
read from the input, only paths, line numbers, positions, ids and the column names given as options.
"""

from __future__ import annotations

import codecs
import csv
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from phiscrub.document import Document
from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.io.base import PathLike
from phiscrub.io.decoding import (
    DECODE_NOTES,
    check_policy,
    decode_bytes,
    read_text_with_policy,
    recover_escaped,
)
from phiscrub.io.jsonl import (
    dumps_line,
    pointer_token,
    replace_leaves,
    replace_lone_surrogates,
    string_leaves,
)
from phiscrub.io.tabular import CsvLayout, allow_large_csv_fields, sniff_csv
from phiscrub.io.text import TextEntry, scan_text_entries

__all__ = [
    "RECORD_PROBLEMS",
    "SHAPES",
    "CsvSource",
    "JsonlSource",
    "ParquetSource",
    "Source",
    "TextFileSource",
    "TextFolderSource",
    "cell_id",
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
    keep_columns: Sequence[str] = (),
    encoding: str = "utf-8",
    encoding_errors: str = "fail",
) -> Source:
    """Open ``path`` as a :class:`Source` of the matching shape.

    Args:
        path: a ``.txt`` file, a folder of ``.txt``, a JSONL, CSV, TSV or Parquet file.
        text_field: JSONL key holding the note text.
        text_column: CSV/TSV/Parquet column holding the note text.
        id_field: JSONL key or table column giving document ids (default: ``<stem>-<position>``).
            It is copied as read, so ids must not hold PHI.
        patient_field: JSONL key or table column copied to ``metadata["patient_id"]``.
        fmt: force a shape (one of :data:`SHAPES`) instead of detecting it.
        keep_columns: JSONL keys or table columns copied as read; every other value besides the
            text and the id is redacted (JSONL, CSV/TSV, Parquet only).
        encoding: text encoding of a CSV/TSV file (JSONL is UTF-8 by definition).
        encoding_errors: what a document with undecodable bytes becomes
            (:data:`phiscrub.io.decoding.ENCODING_ERRORS`): ``fail`` (a ``decode_error`` read
            error), or recovered and flagged in ``metadata["decode"]`` (``replace``, ``latin-1``).

    Raises:
        InputFormatError: unknown shape, missing path, or a table without the named columns.
        ConfigError: ``keep_columns`` or a non-UTF-8 ``encoding`` for a shape that has no use for
            it, or the text column in ``keep_columns``.
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
    if keep_columns and shape in ("txt", "dir"):
        raise ConfigError(f"--keep-columns applies to JSONL, CSV/TSV and Parquet input, not {shape!r}")
    if shape not in ("csv", "tsv") and _codec(encoding) != "utf-8":
        raise ConfigError(f"an encoding other than UTF-8 applies to CSV/TSV input only, not {shape!r}")
    check_policy(encoding_errors)
    if shape == "txt":
        return TextFileSource(p, encoding_errors)
    source: Source
    if shape == "dir":
        source = TextFolderSource(p)
    elif shape == "jsonl":
        source = JsonlSource(
            p,
            text_field=text_field,
            id_field=id_field,
            patient_field=patient_field,
            keep_columns=keep_columns,
        )
    elif shape in ("csv", "tsv"):
        source = CsvSource(
            p,
            text_column=text_column,
            id_field=id_field,
            patient_field=patient_field,
            tsv=shape == "tsv",
            keep_columns=keep_columns,
            encoding=encoding,
        )
    else:
        source = ParquetSource(
            p,
            text_column=text_column,
            id_field=id_field,
            patient_field=patient_field,
            keep_columns=keep_columns,
        )
    source.encoding_errors = encoding_errors
    return source


def _codec(encoding: str) -> str:
    """The canonical name of ``encoding`` (``utf-8``, ``iso8859-1``, ...).

    Raises:
        ConfigError: Python knows no such encoding.
    """
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise ConfigError(f"unknown encoding {encoding!r}") from None


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

    def __init__(self, path: Path, encoding_errors: str = "fail") -> None:
        super().__init__(path)
        self.encoding_errors = encoding_errors
        text, problem, self._note = read_text_with_policy(self.path, encoding_errors)
        if text is None:
            raise InputFormatError(f"{self.path} {_TEXT_PROBLEM_WORDS.get(problem or '', 'cannot be read')}")
        self._text = text

    @property
    def count(self) -> int | None:
        """Always one document."""
        return 1

    def documents(self) -> Iterator[Document]:
        """Yield the file's note."""
        yield Document(
            self.path.stem, self._text, (), {"position": 0, **({"decode": self._note} if self._note else {})}
        )

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

# Characters that surrogateescape decoding puts in place of bytes the codec cannot decode.
_UNDECODABLE = re.compile("[\udc80-\udcff]")
# A JSON escape of a UTF-16 surrogate: only then can json.loads return a lone surrogate.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF]")


@dataclass
class _Record:
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
        meta = _meta(self.position, self.patient, with_patient)
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

    def take(self, align: _Aligner) -> tuple[str, dict[str, str]]:
        """The transformed note and cells of this record, taken from ``align`` in order."""
        text = align.take(self.doc_id).text
        cells = {p: align.take(cell_id(self.doc_id, p)).text for p, _ in self.cells}
        return text, cells


def cell_id(doc_id: str, pointer: str) -> str:
    """The id of the document holding the cell at ``pointer`` of record ``doc_id``: ``<id>#<pointer>``."""
    return f"{doc_id}#{pointer}"


class _RecordSource(Source):
    """A file of records (JSONL lines, table rows): the note of each, plus its other values.

    Every value other than the note and the id is redacted as a cell document unless its top-level
    key is in ``keep_columns``; :attr:`count` counts records, not cell documents.
    """

    def __init__(
        self, path: Path, id_field: str | None, patient_field: str | None, keep_columns: Sequence[str]
    ) -> None:
        super().__init__(path)
        self.id_field = id_field
        self.patient_field = patient_field
        self.keep_columns = tuple(keep_columns)
        self._count: int | None = None

    @abstractmethod
    def _records(self) -> Iterator[_Record]:
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

    def _check_keep(self, text_key: str) -> None:
        if text_key in self.keep_columns:
            raise ConfigError(
                f"--keep-columns cannot keep the text column {text_key!r}: it is what is redacted"
            )


class JsonlSource(_RecordSource):
    """A JSONL file of records holding the note in ``text_field``.

    Every other string in a record (nested ones included) is redacted as a cell document, numbers
    become ``null``, booleans and nulls are kept, unless the top-level key is the id field or in
    ``keep_columns`` (copied as read). Keys are never changed. The annotation fields of
    :data:`ANNOTATION_FIELDS` are dropped. A lone UTF-16 surrogate (``"\\ud800"``, which ``json.loads``
    accepts but UTF-8 cannot hold) is read as U+FFFD.

    A line that cannot be a record (:data:`RECORD_PROBLEMS`) fails alone: it is written as
    ``{id_field: id, text_field: ""}`` when its id could be read, else ``{text_field: ""}``.

    Args:
        path: the input file.
        text_field: key of the note text (a string, or null read as an empty note).
        id_field: key of the document id (a string or number; a record without it fails).
        patient_field: key copied to ``metadata["patient_id"]``.
        keep_columns: top-level keys copied as read.

    Raises:
        InputFormatError: the first record lacks ``text_field``, ``id_field`` or ``patient_field``
            (most likely a misspelt option).
    """

    shape = "jsonl"

    def __init__(
        self,
        path: Path,
        text_field: str = "text",
        id_field: str | None = None,
        patient_field: str | None = None,
        keep_columns: Sequence[str] = (),
    ) -> None:
        super().__init__(path, id_field, patient_field, keep_columns)
        self.text_field = text_field
        self._check_keep(text_field)
        self._check_first_record()

    def _check_first_record(self) -> None:
        with self.path.open("rb") as fh:
            for lineno, raw in enumerate(fh, start=1):
                try:
                    record = json.loads(raw) if raw.strip() else None
                except (ValueError, RecursionError):
                    continue
                if not isinstance(record, dict):
                    continue
                for key, option in (
                    (self.text_field, "--text-field"),
                    (self.id_field, "--id-field"),
                    (self.patient_field, "--patient-field"),
                ):
                    if key is not None and key not in record:
                        raise InputFormatError(
                            f"{self.path}: the first record (line {lineno}) has no field {key!r} ({option}); "
                            "is the name spelt right?"
                        )
                return

    @property
    def count(self) -> int | None:
        """The number of non-blank lines (each a record, readable or not)."""
        if self._count is None:
            with self.path.open("rb") as fh:
                self._count = sum(1 for raw in fh if raw.strip())
        return self._count

    def _items(self) -> Iterator[tuple[bytes, _Record | None, dict[str, Any] | None]]:
        """(raw line, record or None for a blank line, the parsed object if the line is one)."""
        pos = 0
        with self.path.open("rb") as fh:
            for lineno, raw in enumerate(fh, start=1):
                if not raw.strip():
                    yield raw, None, None
                    continue
                rec, obj = self._parse(raw, pos, lineno)
                yield raw, rec, obj
                pos += 1

    def _parse(self, raw: bytes, pos: int, lineno: int) -> tuple[_Record, dict[str, Any] | None]:
        obj: dict[str, Any] | None = None

        def failed(code: str, doc_id: str | None = None) -> tuple[_Record, dict[str, Any] | None]:
            rec = _Record(pos, doc_id or _row_id(self.path.stem, pos, None), error=code, line=lineno)
            rec.id_read = doc_id is not None
            return rec, obj

        note = None
        try:
            value = json.loads(raw)
        except UnicodeDecodeError:
            line, note = decode_bytes(raw, self.encoding_errors)
            if line is None:
                return failed("decode_error")
            try:
                value = json.loads(line)
            except (ValueError, RecursionError):
                return failed("invalid_json")
        except RecursionError:
            return failed("too_deep")
        except ValueError:  # JSONDecodeError, or an integer too long to convert
            return failed("invalid_json")
        if not isinstance(value, dict):
            return failed("not_object")
        try:
            obj = replace_lone_surrogates(value) if _SURROGATE_ESCAPE.search(raw) else value
        except RecursionError:
            return failed("too_deep")
        doc_id = None
        if self.id_field is not None:
            if self.id_field not in obj:
                return failed("missing_id")
            ident = obj[self.id_field]
            if isinstance(ident, (dict, list)):
                return failed("bad_id")
            doc_id = _row_id(self.path.stem, pos, ident)
        if self.text_field not in obj:
            return failed("missing_text", doc_id)
        text = obj[self.text_field]
        if text is not None and not isinstance(text, str):
            return failed("text_not_string", doc_id)
        try:
            cells = [
                leaf
                for key, value in obj.items()
                if self._redacted(key)
                for leaf in string_leaves(value, "/" + pointer_token(key))
            ]
        except ValueError:
            return failed("too_deep", doc_id)
        patient = obj.get(self.patient_field) if self.patient_field else None
        rec = _Record(pos, doc_id or _row_id(self.path.stem, pos, None), text or "", patient, cells)
        rec.decode = note
        return rec, obj

    def _redacted(self, key: str) -> bool:
        """Whether top-level ``key`` goes through redaction (strings) and number nulling."""
        return key not in (self.text_field, self.id_field, *ANNOTATION_FIELDS, *self.keep_columns)

    def _records(self) -> Iterator[_Record]:
        return (rec for _, rec, _ in self._items() if rec is not None)

    def write(self, out_dir: PathLike, transformed: Iterable[Document]) -> list[Path]:
        """Write the same lines: note replaced, other values redacted, failed records emptied."""
        out = self._open_output(out_dir)
        align = _Aligner(transformed, self.path)
        with out.open("wb") as fh:
            for raw, rec, obj in self._items():
                if rec is None:
                    fh.write(raw)
                    continue
                text, cells = rec.take(align)
                new: dict[str, Any] = {}
                if rec.error is not None or obj is None:
                    # A failed record: nothing of it is copied but an id read as the id field.
                    if rec.id_read and self.id_field is not None and obj is not None:
                        new[self.id_field] = obj[self.id_field]
                    new[self.text_field] = ""
                else:
                    for key, value in obj.items():
                        if key == self.text_field:
                            new[key] = None if value is None and text == "" else text
                        elif key in ANNOTATION_FIELDS:
                            continue  # gold annotations point into the original text, may hold PHI
                        elif self._redacted(key):
                            new[key] = replace_leaves(value, cells, "/" + pointer_token(key))
                        else:
                            new[key] = value
                ending = b"\r\n" if raw.endswith(b"\r\n") else b"\n" if raw.endswith(b"\n") else b""
                fh.write(dumps_line(new).encode("utf-8") + ending)
            align.finish()
        return [out]


class _TableSource(_RecordSource):
    """Column options shared by the CSV and Parquet sources."""

    def __init__(
        self,
        path: Path,
        text_column: str,
        id_field: str | None,
        patient_field: str | None,
        keep_columns: Sequence[str],
    ) -> None:
        super().__init__(path, id_field, patient_field, keep_columns)
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
        for col, option in (
            (self.text_column, "--text-column"),
            (self.id_field, "--id-field"),
            (self.patient_field, "--patient-field"),
            *((k, "--keep-columns") for k in self.keep_columns),
        ):
            if col is not None and col not in names:
                raise InputFormatError(
                    f"{self.path}: no column {col!r} in the first row ({len(names)} columns); "
                    f"is the first row a header, and is {option} spelt right?"
                )


class CsvSource(_TableSource):
    """A CSV/TSV file with the note in ``text_column``.

    Every other cell is redacted as a cell document, except the id column and ``keep_columns``,
    which are copied as read. The file is parsed strictly (:mod:`csv` with ``strict=True``), and a
    row that cannot be trusted is never copied: it is written with every cell empty and yielded as
    a failed record (:data:`RECORD_PROBLEMS`): a row with more or fewer cells than the header
    (``ragged_row``), undecodable bytes (``decode_error``), an id cell with a line break
    (``bad_id``), or lines that break the quoting rules (``malformed_csv``: an unclosed quote
    swallows the rows after it, so one failed record is yielded per physical line the broken row
    spans). A failed row's id cell is not trusted either (the cells may be shifted): it gets the
    positional id ``<stem>-<position>`` and an empty id cell. Blank lines are kept and are no record.

    Args:
        path: the input file.
        text_column: column of the note text.
        id_field: column of the document id.
        patient_field: column copied to ``metadata["patient_id"]``.
        tsv: tab-delimited whatever the header looks like.
        keep_columns: columns copied as read.
        encoding: the file's text encoding (output is written in it too); a UTF-8 BOM is kept.

    Raises:
        InputFormatError: no header row, a header that does not parse or decode, repeated column
            names, or a named column missing.
        ConfigError: an unknown encoding, or the text column in ``keep_columns``.
    """

    shape = "csv"

    def __init__(
        self,
        path: Path,
        text_column: str = "text",
        id_field: str | None = None,
        patient_field: str | None = None,
        tsv: bool = False,
        keep_columns: Sequence[str] = (),
        encoding: str = "utf-8",
    ) -> None:
        super().__init__(path, text_column, id_field, patient_field, keep_columns)
        codec = _codec(encoding)
        layout = sniff_csv(self.path)
        self.layout = CsvLayout("\t", layout.lineterminator, layout.bom, layout.quoting) if tsv else layout
        self.encoding = self.layout.encoding if codec == "utf-8" else codec
        header = self._header()
        self._check_columns(header)
        self._width = len(header)
        self._t = header.index(text_column)
        self._id = header.index(id_field) if id_field else None
        self._p = header.index(patient_field) if patient_field else None
        skip = {self._t, self._id, *(header.index(k) for k in self.keep_columns)}
        #: (column index, pointer) of the cells redacted.
        self._redact = [(i, "/" + pointer_token(n)) for i, n in enumerate(header) if i not in skip]

    def _open(self) -> IO[str]:
        # surrogateescape: an undecodable byte fails its row (found in the text), not the whole run.
        return self.path.open("r", encoding=self.encoding, errors="surrogateescape", newline="")

    def _reader(self, fh: IO[str]) -> Any:
        allow_large_csv_fields()
        return csv.reader(fh, delimiter=self.layout.delimiter, strict=True)

    def _header(self) -> list[str]:
        with self._open() as fh:
            try:
                header = next(self._reader(fh), None)
            except csv.Error:
                raise InputFormatError(f"{self.path}: the header row breaks the CSV quoting rules") from None
        if header is None:
            raise InputFormatError(f"{self.path} has no header row")
        if any(_UNDECODABLE.search(name) for name in header):
            raise InputFormatError(
                f"{self.path}: the header row is not {self.encoding}; give the file's encoding "
                "(e.g. latin-1) or convert the file to UTF-8"
            )
        return header

    def _rows(self) -> Iterator[tuple[list[str] | None, _Record | None]]:
        """(cells of a good row or None, record or None for a blank line)."""
        pos = 0
        with self._open() as fh:
            reader = self._reader(fh)
            next(reader)
            while True:
                first_line = reader.line_num + 1
                try:
                    row = next(reader)
                except StopIteration:
                    return
                except csv.Error:
                    # The rows a broken quote swallowed cannot be told apart: one per line.
                    for line in range(first_line, max(first_line, reader.line_num) + 1):
                        yield None, self._failed(pos, line, "malformed_csv")
                        pos += 1
                    continue
                if not row:
                    yield None, None
                    continue
                note = None
                if self.encoding_errors != "fail" and any(_UNDECODABLE.search(c) for c in row):
                    row = [recover_escaped(c, self.encoding_errors, self.encoding) for c in row]
                    note = DECODE_NOTES[self.encoding_errors]
                problem = (
                    "decode_error"
                    if any(_UNDECODABLE.search(c) for c in row)
                    else "ragged_row"
                    if len(row) != self._width
                    else "bad_id"
                    if self._id is not None and ("\n" in row[self._id] or "\r" in row[self._id])
                    else None
                )
                if problem is not None:
                    yield None, self._failed(pos, first_line, problem)
                else:
                    ident = row[self._id] if self._id is not None else None
                    doc_id = _row_id(self.path.stem, pos, ident)
                    patient = row[self._p] if self._p is not None else None
                    cells = [(p, row[i]) for i, p in self._redact if row[i]]
                    yield row, _Record(pos, doc_id, row[self._t], patient, cells, decode=note)
                pos += 1

    def _failed(self, pos: int, line: int, code: str) -> _Record:
        return _Record(pos, _row_id(self.path.stem, pos, None), error=code, line=line)

    def _records(self) -> Iterator[_Record]:
        return (rec for _, rec in self._rows() if rec is not None)

    def write(self, out_dir: PathLike, transformed: Iterable[Document]) -> list[Path]:
        """Write the same header and rows: note and other cells redacted, failed rows emptied."""
        out = self._open_output(out_dir)
        align = _Aligner(transformed, self.path)
        header = self._header()
        errors = "strict" if self.encoding.startswith("utf-8") else "replace"
        with out.open("w", encoding=self.encoding, errors=errors, newline="") as fh:
            writer = csv.writer(
                fh,
                delimiter=self.layout.delimiter,
                lineterminator=self.layout.lineterminator,
                quoting=self.layout.quoting,
            )
            writer.writerow(header)
            for row, rec in self._rows():
                if rec is None:
                    writer.writerow([])
                    continue
                text, cells = rec.take(align)
                if row is None:
                    writer.writerow([""] * self._width)  # never a cell of a row that is not trusted
                    continue
                new = list(row)
                new[self._t] = text
                for i, pointer in self._redact:
                    if new[i]:
                        new[i] = cells[pointer]
                writer.writerow(new)
            align.finish()
        return [out]


class ParquetSource(_TableSource):
    """A Parquet file with the note in ``text_column``; schema, rows and order are kept.

    The text column must hold strings. Every other column is redacted, except the id column and
    ``keep_columns`` (copied as read): string columns cell by cell (as cell documents), boolean and
    all-null columns are copied, and columns of any other type (numbers, dates, binary, lists,
    structs) are written as nulls, because their values can be identifiers that no detector reads.

    Args:
        path: the input file.
        text_column: column of the note text.
        id_field: column of the document id (strings, numbers or dates; not binary or nested).
        patient_field: column copied to ``metadata["patient_id"]``.
        batch_size: rows read per batch.
        keep_columns: columns copied as read.

    Reading and writing stream in bounded memory: the file is read one row group at a time (a
    fresh reader per row group, through a buffered stream, so neither the compressed column
    chunks of row groups already read nor a whole column chunk are held), in batches of
    ``batch_size`` rows; the output is written with a :class:`pyarrow.parquet.ParquetWriter` in
    row groups of at most :data:`ROW_GROUP_ROWS` rows (and about :data:`ROW_GROUP_BYTES` bytes
    of input).

    Raises:
        InputFormatError: the file is not Parquet, lacks a named column, repeats a column name, or
            the text or id column has a type that cannot be one (named with its type).
    """

    shape = "parquet"

    def __init__(
        self,
        path: Path,
        text_column: str = "text",
        id_field: str | None = None,
        patient_field: str | None = None,
        batch_size: int = 1024,
        keep_columns: Sequence[str] = (),
    ) -> None:
        import pyarrow as pa

        super().__init__(path, text_column, id_field, patient_field, keep_columns)
        self.batch_size = batch_size
        schema = self._file().schema_arrow
        names = list(schema.names)
        self._check_columns(names)
        t_type = schema.field(text_column).type
        if not (_is_text_type(t_type) or pa.types.is_null(t_type)):
            raise InputFormatError(
                f"{self.path}: the text column {text_column!r} holds {t_type} values, not strings; "
                "name the column of note text with --text-column"
            )
        if id_field is not None:
            id_type = schema.field(id_field).type
            if (
                pa.types.is_nested(id_type)
                or pa.types.is_binary(id_type)
                or pa.types.is_large_binary(id_type)
            ):
                raise InputFormatError(
                    f"{self.path}: the id column {id_field!r} holds {id_type} values; ids must be strings or numbers"
                )
        kept = {text_column, id_field, *self.keep_columns}
        #: Columns redacted cell by cell, and columns written as nulls.
        self._redact = [n for n in names if n not in kept and _is_text_type(schema.field(n).type)]
        self._nulled = [
            n
            for n in names
            if n not in kept
            and not _is_text_type(schema.field(n).type)
            and not (pa.types.is_boolean(schema.field(n).type) or pa.types.is_null(schema.field(n).type))
        ]

    @property
    def count(self) -> int | None:
        """The row count from the Parquet footer."""
        return int(self._file().metadata.num_rows)

    def _file(self) -> Any:
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            # A buffered stream reads a column chunk page by page, not whole (row groups can be GBs).
            return pq.ParquetFile(self.path, buffer_size=_READ_BUFFER)
        except (OSError, ValueError, pa.ArrowException) as err:
            raise InputFormatError(
                f"{self.path} is not a readable Parquet file ({type(err).__name__})"
            ) from None

    def _batches(self, columns: list[str] | None) -> Iterator[tuple[Any, list[_Record]]]:
        """(record batch, its records in order)."""
        pos = 0
        for batch in self._iter_batches(columns):
            n = batch.num_rows
            none: list[Any] = [None] * n
            ids = batch.column(self.id_field).to_pylist() if self.id_field else none
            texts = batch.column(self.text_column).to_pylist()
            patients = batch.column(self.patient_field).to_pylist() if self.patient_field else none
            other = [("/" + pointer_token(c), batch.column(c).to_pylist()) for c in self._redact]
            records = [
                _Record(
                    pos + i,
                    _row_id(self.path.stem, pos + i, ids[i]),
                    texts[i] or "",
                    patients[i],
                    [(p, values[i]) for p, values in other if values[i]],
                )
                for i in range(n)
            ]
            yield batch, records
            pos += n

    def _iter_batches(self, columns: list[str] | None) -> Iterator[Any]:
        """The file's record batches in order, one row group at a time.

        One ``iter_batches`` over the whole file keeps the compressed column chunks of every row
        group read so far (pyarrow 14-26: memory grows by about the compressed size of the file),
        so each row group gets its own reader, dropped before the next one.
        """
        pf = self._file()
        for group in range(pf.num_row_groups):
            yield from pf.iter_batches(batch_size=self.batch_size, columns=columns, row_groups=[group])

    def _records(self) -> Iterator[_Record]:
        columns = sorted(
            {c for c in (self.text_column, self.id_field, self.patient_field, *self._redact) if c}
        )
        for _, records in self._batches(columns):
            yield from records

    def write(self, out_dir: PathLike, transformed: Iterable[Document]) -> list[Path]:
        """Write the same rows and schema: note and string cells redacted, other types nulled."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        out = self._open_output(out_dir)
        align = _Aligner(transformed, self.path)
        pf = self._file()
        schema = pf.schema_arrow
        for name in self._nulled:  # a non-nullable column must accept the nulls written into it
            i = schema.get_field_index(name)
            schema = schema.set(i, schema.field(i).with_nullable(True))
        t_i = schema.get_field_index(self.text_column)
        redact_at = {schema.get_field_index(c): "/" + pointer_token(c) for c in self._redact}
        nulled_at = {schema.get_field_index(c) for c in self._nulled}
        with pq.ParquetWriter(out, schema, compression=_compression(pf)) as writer:
            pending = _RowGroupBuffer(writer, schema)
            for batch, records in self._batches(None):
                notes = batch.column(t_i).to_pylist()
                cells = {p: batch.column(i).to_pylist() for i, p in redact_at.items()}
                for j, rec in enumerate(records):
                    text, new = rec.take(align)
                    notes[j] = None if notes[j] is None and text == "" else text
                    for p, values in cells.items():
                        if values[j]:  # every non-empty cell was a document: new[p] exists
                            values[j] = new[p]
                arrays = []
                for i in range(batch.num_columns):
                    field_type = schema.field(i).type
                    if i == t_i:
                        arrays.append(_string_array(notes, field_type))
                    elif i in redact_at:
                        arrays.append(_string_array(cells[redact_at[i]], field_type))
                    elif i in nulled_at:
                        arrays.append(pa.nulls(batch.num_rows, type=field_type))
                    else:
                        arrays.append(batch.column(i))
                pending.add(pa.RecordBatch.from_arrays(arrays, schema=schema), batch.nbytes)
            pending.flush()
            align.finish()
        return [out]


#: Rows of an output row group at most (writing each read batch as its own row group would give
#: tiny row groups and a footer that grows with the file).
ROW_GROUP_ROWS = 65_536
#: Bytes of input batches buffered for one output row group at most.
ROW_GROUP_BYTES = 16 * 2**20
#: Read buffer of the Parquet input stream.
_READ_BUFFER = 2**20


class _RowGroupBuffer:
    """Output batches collected into row groups of at most :data:`ROW_GROUP_ROWS` rows / about
    :data:`ROW_GROUP_BYTES` bytes, each written as soon as it is full."""

    def __init__(self, writer: Any, schema: Any) -> None:
        self._writer = writer
        self._schema = schema
        self._batches: list[Any] = []
        self._rows = 0
        self._bytes = 0

    def add(self, batch: Any, nbytes: int) -> None:
        """Buffer ``batch`` (``nbytes``: its input's size), writing a row group when one is full."""
        self._batches.append(batch)
        self._rows += batch.num_rows
        self._bytes += nbytes
        if self._rows >= ROW_GROUP_ROWS or self._bytes >= ROW_GROUP_BYTES:
            self.flush()

    def flush(self) -> None:
        """Write what is buffered as one row group."""
        if not self._batches:
            return
        import pyarrow as pa

        table = pa.Table.from_batches(self._batches, schema=self._schema)
        self._writer.write_table(table, row_group_size=max(1, self._rows))
        self._batches, self._rows, self._bytes = [], 0, 0


def _is_text_type(t: Any) -> bool:
    """Whether an Arrow type holds strings (plain, large, view, or dictionary-encoded)."""
    import pyarrow as pa

    if pa.types.is_dictionary(t):
        t = t.value_type
    is_view = getattr(pa.types, "is_string_view", lambda _: False)
    return bool(pa.types.is_string(t) or pa.types.is_large_string(t) or is_view(t))


def _string_array(values: list[str | None], arrow_type: Any) -> Any:
    """``values`` as an Arrow array of the column's (string-like) type."""
    import pyarrow as pa

    try:
        return pa.array(values, type=arrow_type)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
        return pa.array(values, type=pa.large_string()).cast(arrow_type)


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
