"""Tables of notes: CSV/TSV (stdlib :mod:`csv`) and Parquet (pyarrow), one note per row.

A text column (``text_column``, default ``"text"``) holds the note; an optional id column gives the
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
from typing import Any, Literal

from phiscrub.document import Document
from phiscrub.errors import InputFormatError
from phiscrub.io.base import PathLike, Reader, Writer

__all__ = [
    "CsvLayout",
    "CsvReader",
    "CsvWriter",
    "ParquetReader",
    "ParquetWriter",
    "allow_large_csv_fields",
    "column_index",
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


def column_index(header: list[str], name: str, path: Path) -> int:
    """Position of column ``name`` in ``header`` (the first one if repeated).

    Raises:
        InputFormatError: there is no such column. The message gives the number of columns, not
            their names: in a file without a header row the "names" are the first note's cells.
    """
    try:
        return header.index(name)
    except ValueError:
        raise InputFormatError(
            f"{path}: no column {name!r} in the first row ({len(header)} columns); is the first row a header?"
        ) from None


def _cell(row: list[str], i: int | None) -> str | None:
    if i is None or i >= len(row):
        return None
    return row[i]


class _TableReader(Reader):
    """Column options and input check shared by the CSV and Parquet readers."""

    def __init__(
        self, text_column: str, id_column: str | None, patient_column: str | None, corpus: str | None
    ) -> None:
        super().__init__(corpus)
        self.text_column = text_column
        self.id_column = id_column
        self.patient_column = patient_column

    @staticmethod
    def _input_file(path: PathLike) -> Path:
        """``path`` as a :class:`Path` (tables are read from one file, never a folder).

        Raises:
            InputFormatError: ``path`` is not a file.
        """
        src = Path(path)
        if not src.is_file():
            raise InputFormatError(f"no such file: {src}")
        return src


class CsvReader(_TableReader):
    """Read notes from one CSV/TSV file (layout from :func:`sniff_csv` unless ``delimiter`` is given).

    A missing column is reported (``malformed_file``) and the file skipped.

    Args:
        text_column: column holding the note text.
        id_column: column holding the document id, if any.
        patient_column: column copied to ``metadata["patient_id"]``, if any.
        delimiter: force a delimiter.
        corpus: accepted for the common reader signature (tables carry no spans).
    """

    format_name = "csv"

    def __init__(
        self,
        text_column: str = "text",
        id_column: str | None = None,
        patient_column: str | None = None,
        delimiter: str | None = None,
        corpus: str | None = None,
    ) -> None:
        super().__init__(text_column, id_column, patient_column, corpus)
        self.delimiter = delimiter

    def read(self, path: PathLike) -> Iterator[Document]:
        """Yield one document per row of the file ``path``.

        Raises:
            InputFormatError: ``path`` is not a file.
        """
        src = self._input_file(path)
        layout = sniff_csv(src)
        delim = self.delimiter or layout.delimiter
        allow_large_csv_fields()
        with src.open("r", encoding=layout.encoding, newline="") as fh:
            reader = csv.reader(fh, delimiter=delim)
            header = next(reader, None)
            if header is None:
                return
            try:
                t_i = column_index(header, self.text_column, src)
                id_i = column_index(header, self.id_column, src) if self.id_column else None
                p_i = column_index(header, self.patient_column, src) if self.patient_column else None
            except InputFormatError as err:
                self.report(str(src), "malformed_file", str(err))
                return
            for pos, row in enumerate(reader):
                yield _row_document(src.stem, pos, _cell(row, t_i), _cell(row, id_i), _cell(row, p_i))


def _row_document(stem: str, pos: int, text: Any, doc_id: Any, patient: Any) -> Document:
    metadata: dict[str, Any] = {"position": pos}
    if patient is not None:
        metadata["patient_id"] = str(patient)
    ident = str(doc_id) if doc_id not in (None, "") else f"{stem}-{pos}"
    return Document(ident, "" if text is None else str(text), (), metadata)


class ParquetReader(_TableReader):
    """Read notes from one Parquet file, batch by batch (only the needed columns are loaded).

    Args:
        text_column: column holding the note text.
        id_column: column holding the document id, if any.
        patient_column: column copied to ``metadata["patient_id"]``, if any.
        batch_size: rows per batch read.
        corpus: accepted for the common reader signature (tables carry no spans).
    """

    format_name = "parquet"

    def __init__(
        self,
        text_column: str = "text",
        id_column: str | None = None,
        patient_column: str | None = None,
        batch_size: int = 1024,
        corpus: str | None = None,
    ) -> None:
        super().__init__(text_column, id_column, patient_column, corpus)
        self.batch_size = batch_size

    def read(self, path: PathLike) -> Iterator[Document]:
        """Yield one document per row of the Parquet file ``path``.

        Raises:
            InputFormatError: ``path`` is not a file.
        """
        import pyarrow as pa
        import pyarrow.parquet as pq

        src = self._input_file(path)
        try:
            pf = pq.ParquetFile(src)
        except (OSError, ValueError, pa.ArrowException) as err:
            self.report(
                str(src), "malformed_file", f"{src} is not a readable Parquet file ({type(err).__name__})"
            )
            return
        names = list(pf.schema_arrow.names)
        wanted = [c for c in (self.text_column, self.id_column, self.patient_column) if c]
        missing = [c for c in wanted if c not in names]
        if missing:
            self.report(str(src), "malformed_file", f"{src}: no column(s) {missing}; columns are {names}")
            return
        pos = 0
        for batch in pf.iter_batches(batch_size=self.batch_size, columns=sorted(set(wanted))):
            cols = {c: batch.column(c).to_pylist() for c in set(wanted)}
            none = [None] * batch.num_rows
            for text, ident, patient in zip(
                cols[self.text_column],
                cols[self.id_column] if self.id_column else none,
                cols[self.patient_column] if self.patient_column else none,
            ):
                yield _row_document(src.stem, pos, text, ident, patient)
                pos += 1


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


class ParquetWriter(Writer):
    """Write documents as Parquet with string columns ``id``, ``text``, ``patient_id``.

    Args:
        batch_size: rows buffered per row group.
    """

    format_name = "parquet"

    def __init__(self, batch_size: int = 1024) -> None:
        self.batch_size = batch_size

    def write(self, docs: Iterable[Document], path: PathLike) -> list[Path]:
        """Write ``docs`` to the file ``path``; return ``[path]``."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        schema = pa.schema([("id", pa.string()), ("text", pa.string()), ("patient_id", pa.string())])
        rows: list[Document] = []

        def flush(writer: Any) -> None:
            patients = [d.metadata.get("patient_id") for d in rows]
            writer.write_table(
                pa.table(
                    {
                        "id": [d.id for d in rows],
                        "text": [d.text for d in rows],
                        "patient_id": [None if p is None else str(p) for p in patients],
                    },
                    schema=schema,
                )
            )
            rows.clear()

        with pq.ParquetWriter(out, schema) as writer:
            for doc in docs:
                rows.append(doc)
                if len(rows) >= self.batch_size:
                    flush(writer)
            if rows:
                flush(writer)
        return [out]
