"""Parquet tables of notes (pyarrow), one note per row: :class:`ParquetSource` (read and written
back in the same schema by ``redact``), the :class:`ParquetReader` over it, and :class:`ParquetWriter`.

Columns and ids follow :mod:`phiscrub.io.tabular`: a text column holds the note, an optional id
column the document id (else ``<file stem>-<row position>``), an optional patient column goes to
``metadata["patient_id"]``; a null text is an empty document.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from phiscrub.document import Document
from phiscrub.errors import InputFormatError
from phiscrub.io.base import PathLike, Writer
from phiscrub.io.jsonl import pointer_token
from phiscrub.io.source import Aligner, Record, RecordFields, TableReader, TableSource, row_id

__all__ = ["ROW_GROUP_BYTES", "ROW_GROUP_ROWS", "ParquetReader", "ParquetSource", "ParquetWriter"]


class ParquetSource(TableSource):
    """A Parquet file with the note in ``text_column``; schema, rows and order are kept.

    The text column must hold strings. Every other column is redacted, except the id column and
    ``keep_columns`` (copied as read): string columns cell by cell (as cell documents), boolean and
    all-null columns are copied, and columns of any other type (numbers, dates, binary, lists,
    structs) are written as nulls, because their values can be identifiers that no detector reads.

    Args:
        path: the input file.
        text_column: column of the note text.
        fields: the id column (strings, numbers or dates; not binary or nested), the patient column
            (copied to ``metadata["patient_id"]``) and the columns copied as read (:class:`RecordFields`).
        batch_size: rows read per batch.
        cells: read the other string columns as cell documents (False: the notes only, for reading).

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
        fields: RecordFields | None = None,
        *,
        batch_size: int = 1024,
        cells: bool = True,
    ) -> None:
        import pyarrow as pa

        super().__init__(path, text_column, fields)
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
        if self.id_field is not None:
            id_type = schema.field(self.id_field).type
            if (
                pa.types.is_nested(id_type)
                or pa.types.is_binary(id_type)
                or pa.types.is_large_binary(id_type)
            ):
                raise InputFormatError(
                    f"{self.path}: the id column {self.id_field!r} holds {id_type} values; ids must be strings or numbers"
                )
        kept = {text_column, self.id_field, *self.keep_columns}
        #: Columns redacted cell by cell, and columns written as nulls.
        self._redact = [n for n in names if cells and n not in kept and _is_text_type(schema.field(n).type)]
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

    def _batches(self, columns: list[str] | None) -> Iterator[tuple[Any, list[Record]]]:
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
                Record(
                    pos + i,
                    row_id(self.path.stem, pos + i, ids[i]),
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

    def _records(self) -> Iterator[Record]:
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
        align = Aligner(transformed, self.path)
        pf = self._file()
        schema = _structural_schema(pf.schema_arrow)
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


#: Schema metadata keys kept in the output: how pandas rebuilds its frame (index, dtypes). Every
#: other key-value pair of the schema and of each field is free text a writer chose (descriptions,
#: provenance, sometimes a patient's name or MRN) and is dropped (issue 28, item 6).
STRUCTURAL_METADATA = (b"pandas",)


def _structural_schema(schema: Any) -> Any:
    """``schema`` without its non-structural key-value metadata (schema and fields)."""
    kept = {k: v for k, v in (schema.metadata or {}).items() if k in STRUCTURAL_METADATA}
    for i, f in enumerate(schema):
        if f.metadata:
            schema = schema.set(i, f.remove_metadata())
    return schema.remove_metadata().with_metadata(kept) if kept else schema.remove_metadata()


class ParquetReader(TableReader):
    """Read notes from one Parquet file through :class:`ParquetSource`, ``batch_size`` rows at a time.

    A missing column, a text column that is not strings, or a file that is not Parquet is reported
    (``malformed_file``). Options: see :class:`~phiscrub.io.source.TableReader`.
    """

    format_name = "parquet"
    source_class = ParquetSource

    def options(self) -> dict[str, Any]:
        """``batch_size``."""
        return {"batch_size": self.batch_size}


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
