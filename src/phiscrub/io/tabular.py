"""CSV/TSV tables of notes (stdlib :mod:`csv`), one note per row; Parquet is in :mod:`phiscrub.io.parquet`.

:class:`CsvSource` is the one CSV parser: ``redact`` reads and writes through it, and
:class:`CsvReader` is the :class:`~phiscrub.io.base.Reader` over it. A text column (``text_column``, default ``"text"``) holds the note; an optional id column gives the
document id (else ``<file stem>-<row position>``), and an optional patient column goes to
``metadata["patient_id"]``. Every document also has ``metadata["position"]``, its 0-based row
position. Rows with an empty or missing text are kept as empty documents, so positions line up
with the rows.
"""

from __future__ import annotations

import csv
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

from phiscrub.document import Document
from phiscrub.errors import InputFormatError
from phiscrub.io.base import PathLike, Writer
from phiscrub.io.decoding import DECODE_NOTES, recover_escaped
from phiscrub.io.jsonl import pointer_token
from phiscrub.io.source import (
    UNDECODABLE,
    Aligner,
    Record,
    RecordFields,
    TableReader,
    TableSource,
    codec_name,
    row_id,
)

__all__ = [
    "CsvLayout",
    "CsvReader",
    "CsvSource",
    "CsvWriter",
    "allow_large_csv_fields",
    "sniff_csv",
]

_DELIMITERS = (",", ";", "\t", "|")
_BOM = b"\xef\xbb\xbf"


def allow_large_csv_fields() -> None:
    """Raise :mod:`csv`'s per-field size limit (128 KiB by default), which long notes exceed."""
    limit = sys.maxsize
    while True:
        try:
            csv.field_size_limit(limit)
            return
        except OverflowError:  # C long is 32 bits on some platforms
            limit //= 10


@dataclass(frozen=True)
class CsvLayout:
    """How a CSV file is written: delimiter, line terminator, BOM, and quoting (csv.QUOTE_*)."""

    delimiter: str = ","
    lineterminator: str = "\r\n"
    bom: bool = False
    quoting: Literal[0, 1, 2, 3] = csv.QUOTE_MINIMAL

    @property
    def encoding(self) -> str:
        """The codec that reads (and writes) the file, BOM included."""
        return "utf-8-sig" if self.bom else "utf-8"


def sniff_csv(path: Path) -> CsvLayout:
    """Guess a CSV file's layout from its header line.

    ``.tsv`` files are tab-delimited; otherwise the most frequent of ``, ; TAB |`` in the header
    wins (``,`` when none occurs). A header whose every name is quoted means ``QUOTE_ALL``. The
    header is used rather than :class:`csv.Sniffer` because note text in later rows is full of
    commas and quotes.
    """
    with path.open("rb") as fh:
        head = fh.readline()
    bom = head.startswith(_BOM)
    header = head[len(_BOM) :] if bom else head
    term = "\r\n" if header.endswith(b"\r\n") else "\n" if header.endswith(b"\n") else "\r\n"
    line = header.decode("utf-8", errors="replace").rstrip("\r\n")
    if path.suffix.lower() == ".tsv":
        delim = "\t"
    else:
        counts = {d: line.count(d) for d in _DELIMITERS}
        delim = max(_DELIMITERS, key=lambda d: counts[d]) if any(counts.values()) else ","
    names = line.split(delim)
    all_quoted = bool(line) and all(len(n) >= 2 and n[0] == n[-1] == '"' for n in names)
    return CsvLayout(delim, term, bom, csv.QUOTE_ALL if all_quoted else csv.QUOTE_MINIMAL)


class CsvSource(TableSource):
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
        fields: the id column, the patient column (copied to ``metadata["patient_id"]``) and the
            columns copied as read (:class:`~phiscrub.io.source.RecordFields`).
        tsv: tab-delimited whatever the header looks like.
        delimiter: this delimiter whatever the header looks like (overrides ``tsv``).
        cells: read the other cells as cell documents (False: the notes only, for reading).
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
        fields: RecordFields | None = None,
        *,
        tsv: bool = False,
        encoding: str = "utf-8",
        delimiter: str | None = None,
        cells: bool = True,
    ) -> None:
        super().__init__(path, text_column, fields)
        codec = codec_name(encoding)
        layout = sniff_csv(self.path)
        delimiter = delimiter or ("\t" if tsv else None)
        if delimiter is not None:
            layout = CsvLayout(delimiter, layout.lineterminator, layout.bom, layout.quoting)
        self.layout = layout
        self.encoding = self.layout.encoding if codec == "utf-8" else codec
        header = self._header()
        self._check_columns(header)
        self._width = len(header)
        self._t = header.index(text_column)
        self._id = header.index(self.id_field) if self.id_field else None
        self._p = header.index(self.patient_field) if self.patient_field else None
        skip = {self._t, self._id, *(header.index(k) for k in self.keep_columns)}
        #: (column index, pointer) of the cells redacted.
        self._redact = [(i, "/" + pointer_token(n)) for i, n in enumerate(header) if cells and i not in skip]

    def _open(self) -> IO[str]:
        # surrogateescape: an undecodable byte fails its row (found in the text), not the whole run.
        return self.path.open("r", encoding=self.encoding, errors="surrogateescape", newline="")

    def _reader(self, fh: IO[str]) -> Any:
        allow_large_csv_fields()
        return csv.reader(fh, delimiter=self.layout.delimiter, strict=True)

    def _header(self) -> list[str]:
        with self._open() as fh:
            try:
                header: list[str] | None = next(self._reader(fh), None)
            except csv.Error:
                raise InputFormatError(f"{self.path}: the header row breaks the CSV quoting rules") from None
        if header is None:
            raise InputFormatError(f"{self.path} has no header row")
        if any(UNDECODABLE.search(name) for name in header):
            raise InputFormatError(
                f"{self.path}: the header row is not {self.encoding}; give the file's encoding "
                "(e.g. latin-1) or convert the file to UTF-8"
            )
        return header

    def _rows(self) -> Iterator[tuple[list[str] | None, Record | None]]:
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
                if self.encoding_errors != "fail" and any(UNDECODABLE.search(c) for c in row):
                    row = [recover_escaped(c, self.encoding_errors, self.encoding) for c in row]
                    note = DECODE_NOTES[self.encoding_errors]
                problem = (
                    "decode_error"
                    if any(UNDECODABLE.search(c) for c in row)
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
                    doc_id = row_id(self.path.stem, pos, ident)
                    patient = row[self._p] if self._p is not None else None
                    cells = [(p, row[i]) for i, p in self._redact if row[i]]
                    yield row, Record(pos, doc_id, row[self._t], patient, cells, decode=note)
                pos += 1

    def _failed(self, pos: int, line: int, code: str) -> Record:
        return Record(pos, row_id(self.path.stem, pos, None), error=code, line=line)

    def _records(self) -> Iterator[Record]:
        return (rec for _, rec in self._rows() if rec is not None)

    def write(self, out_dir: PathLike, transformed: Iterable[Document]) -> list[Path]:
        """Write the same header and rows: note and other cells redacted, failed rows emptied."""
        out = self._open_output(out_dir)
        align = Aligner(transformed, self.path)
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


class CsvReader(TableReader):
    """Read notes from one CSV/TSV file through :class:`CsvSource` (the parser ``redact`` uses).

    A row that cannot be trusted (:data:`~phiscrub.io.source.RECORD_PROBLEMS`: broken quoting, a
    ragged row, undecodable bytes) is reported (``malformed_record`` / ``decode_error``) and left out;
    a missing column is reported (``malformed_file``) and the file skipped. Options: see
    :class:`~phiscrub.io.source.TableReader` (``delimiter`` forces a delimiter).
    """

    format_name = "csv"
    source_class = CsvSource

    def options(self) -> dict[str, Any]:
        """``delimiter``, when forced."""
        return {"delimiter": self.delimiter}


class CsvWriter(Writer):
    """Write documents as a CSV with columns ``id``, ``text`` (and ``patient_id`` when any has one)."""

    format_name = "csv"

    def __init__(self, delimiter: str = ",") -> None:
        self.delimiter = delimiter

    def write(self, docs: Iterable[Document], path: PathLike) -> list[Path]:
        """Write ``docs`` to the file ``path``; return ``[path]``."""
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh, delimiter=self.delimiter)
            writer.writerow(["id", "text", "patient_id"])
            for doc in docs:
                patient = doc.metadata.get("patient_id")
                writer.writerow([doc.id, doc.text, "" if patient is None else str(patient)])
        return [out]
