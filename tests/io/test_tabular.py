"""CSV/TSV and Parquet notes tables."""

from __future__ import annotations

import csv
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from phiscrub.document import Document
from phiscrub.io.parquet import ParquetReader, ParquetWriter
from phiscrub.io.tabular import CsvReader, CsvWriter, sniff_csv

LONG = "Zoë Quenwick " * 20000  # 260 000 characters: over csv's default field limit


def test_csv_rows_become_documents_with_ids_patients_and_positions(tmp_path: Path) -> None:
    path = tmp_path / "notes.csv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["note_id", "pid", "body", "other"])
        w.writerow(["a1", "p9", 'Zoë Quenwick,\r\n seen "today"', "x"])
        w.writerow(["", "p9", "", "y"])
        w.writerow(["a3", "", LONG, "z"])
    reader = CsvReader(text_column="body", id_column="note_id", patient_column="pid")
    docs = list(reader.read(path))
    assert not reader.problems
    assert [(d.id, d.text[:30], dict(d.metadata)) for d in docs] == [
        ("a1", 'Zoë Quenwick,\r\n seen "today"', {"position": 0, "patient_id": "p9"}),
        ("notes-1", "", {"position": 1, "patient_id": "p9"}),
        ("a3", LONG[:30], {"position": 2, "patient_id": ""}),
    ]
    assert len(docs[2].text) == len(LONG)


def test_tsv_and_missing_column(tmp_path: Path) -> None:
    path = tmp_path / "n.tsv"
    path.write_text("text\tk\nOde Varnish\t1\n", encoding="utf-8")
    assert [d.text for d in CsvReader().read(path)] == ["Ode Varnish"]
    reader = CsvReader(text_column="note")
    assert list(reader.read(path)) == []
    assert [p.kind for p in reader.problems] == ["malformed_file"]


@pytest.mark.parametrize(
    ("name", "content", "delimiter", "terminator", "bom", "quoting"),
    [
        ("a.csv", b"id,text\r\n1,x\r\n", ",", "\r\n", False, csv.QUOTE_MINIMAL),
        ("a.csv", b"id;text;k\n1;x;2\n", ";", "\n", False, csv.QUOTE_MINIMAL),
        ("a.tsv", b"id,x\ttext\n", "\t", "\n", False, csv.QUOTE_MINIMAL),
        ("a.csv", b'\xef\xbb\xbf"id","text"\n"1","x"\n', ",", "\n", True, csv.QUOTE_ALL),
        ("a.csv", b"text|id\n", "|", "\n", False, csv.QUOTE_MINIMAL),
    ],
)
def test_sniff_csv_reads_layout_from_the_header(
    tmp_path: Path, name: str, content: bytes, delimiter: str, terminator: str, bom: bool, quoting: int
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    layout = sniff_csv(path)
    assert (layout.delimiter, layout.lineterminator, layout.bom, layout.quoting) == (
        delimiter,
        terminator,
        bom,
        quoting,
    )


def test_parquet_rows_with_null_text_are_empty_documents(tmp_path: Path) -> None:
    path = tmp_path / "n.parquet"
    table = pa.table({"id": ["a", None, "c"], "text": ["Ode Varnish", None, "Ñandú"], "pid": [1, 2, 3]})
    pq.write_table(table, path)
    reader = ParquetReader(id_column="id", patient_column="pid", batch_size=2)
    docs = list(reader.read(path))
    assert [(d.id, d.text, dict(d.metadata)) for d in docs] == [
        ("a", "Ode Varnish", {"position": 0, "patient_id": "1"}),
        ("n-1", "", {"position": 1, "patient_id": "2"}),
        ("c", "Ñandú", {"position": 2, "patient_id": "3"}),
    ]


def test_parquet_missing_column_and_corrupt_file_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "n.parquet"
    pq.write_table(pa.table({"body": ["x"]}), path)
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"not parquet at all")
    reader = ParquetReader()
    assert list(reader.read(path)) == [] and list(reader.read(bad)) == []
    assert [p.kind for p in reader.problems] == ["malformed_file", "malformed_file"]


@pytest.mark.parametrize(
    ("writer", "reader"), [(CsvWriter(), CsvReader), (ParquetWriter(batch_size=2), ParquetReader)]
)
def test_table_writers_round_trip(tmp_path: Path, writer: CsvWriter | ParquetWriter, reader: type) -> None:
    docs = [
        Document("a", 'Zoë,\r\n"Q"\t', (), {"patient_id": "p1"}),
        Document("b", "", (), {}),
        Document("c", LONG, (), {"patient_id": 7}),
    ]
    path = tmp_path / ("out.csv" if isinstance(writer, CsvWriter) else "out.parquet")
    writer.write(docs, path)
    back = list(reader(id_column="id", patient_column="patient_id").read(path))
    assert [(d.id, d.text) for d in back] == [(d.id, d.text) for d in docs]
    assert [d.metadata.get("patient_id") for d in back][::2] == ["p1", "7"]


def test_csv_reader_reads_through_the_redact_parser_and_reports_untrusted_rows(tmp_path: Path) -> None:
    from phiscrub.errors import InputFormatError

    path = tmp_path / "n.csv"
    path.write_text('id,text,name\na,Ode Varnish,Zoë\nb,too,many,cells\nc,"Ñandú",\n', encoding="utf-8")
    reader = CsvReader(id_column="id")
    docs = list(reader.read(path))
    # the other column is not read as a document; the ragged row is left out, by id and line
    assert [(d.id, d.text) for d in docs] == [("a", "Ode Varnish"), ("c", "Ñandú")]
    assert [(p.doc_id, p.kind, p.message) for p in reader.problems] == [
        ("n-1", "malformed_record", "n.csv:3: cannot be read (ragged_row)")
    ]
    with pytest.raises(InputFormatError, match="ragged_row"):
        list(CsvReader(id_column="id", strict=True).read(path))
