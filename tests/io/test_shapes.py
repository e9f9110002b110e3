"""Input shapes for redact: documents out, the same shape back in."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from phiscrub.document import Document
from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.io.shapes import Source, detect_shape, open_source


def _redact(docs: Iterator[Document]) -> Iterator[Document]:
    """A stand-in transform: upper-cases each note, keeping ids (streams like the real one)."""
    for doc in docs:
        yield Document(doc.id, f"<{doc.text.upper()}>" if doc.text else "", (), dict(doc.metadata))


def _roundtrip(src: Source, out: Path) -> list[Path]:
    return src.write(out, _redact(src.documents()))


@pytest.mark.parametrize(
    ("name", "shape"),
    [
        ("a.txt", "txt"),
        ("a.jsonl", "jsonl"),
        ("a.NDJSON", "jsonl"),
        ("a.csv", "csv"),
        ("a.tsv", "tsv"),
        ("a.parquet", "parquet"),
    ],
)
def test_detect_shape_by_extension(tmp_path: Path, name: str, shape: str) -> None:
    (tmp_path / name).write_bytes(b"")
    assert detect_shape(tmp_path / name) == shape
    assert detect_shape(tmp_path) == "dir"


@pytest.mark.parametrize("name", ["a.docx", "a", "a.xml"])
def test_unknown_or_missing_shape_is_an_input_format_error(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_bytes(b"")
    with pytest.raises(InputFormatError):
        open_source(tmp_path / name)
    with pytest.raises(InputFormatError):
        open_source(tmp_path / "missing.txt")
    with pytest.raises(InputFormatError):
        open_source(tmp_path / name, fmt="docx")


def test_forced_shape_must_fit_file_or_folder(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Ode", encoding="utf-8")
    with pytest.raises(InputFormatError):
        open_source(tmp_path, fmt="txt")
    with pytest.raises(InputFormatError):
        open_source(tmp_path / "a.txt", fmt="dir")
    assert open_source(tmp_path / "a.txt", fmt="jsonl").shape == "jsonl"


def test_txt_file_written_under_the_same_name(tmp_path: Path) -> None:
    src_path = tmp_path / "in" / "note.txt"
    src_path.parent.mkdir()
    src_path.write_bytes("Zoë Quenwick\r\n\tÑandú".encode())
    src = open_source(src_path)
    assert src.count == 1
    (doc,) = src.documents()
    assert (doc.id, doc.text, dict(doc.metadata)) == ("note", "Zoë Quenwick\r\n\tÑandú", {"position": 0})
    assert _roundtrip(src, tmp_path / "out") == [tmp_path / "out" / "note.txt"]
    assert (tmp_path / "out" / "note.txt").read_bytes() == "<ZOË QUENWICK\r\n\tÑANDÚ>".encode()


def test_folder_tree_is_mirrored(tmp_path: Path) -> None:
    root = tmp_path / "in"
    (root / "w1" / "deep").mkdir(parents=True)
    (root / "a.txt").write_text("Ode", encoding="utf-8")
    (root / "w1" / "deep" / "b.txt").write_text("Ilsa", encoding="utf-8")
    (root / "w1" / "ignored.csv").write_text("x", encoding="utf-8")
    (root / "w1" / "C.TXT").write_text("Varnish", encoding="utf-8")
    src = open_source(root)
    assert src.count == 3
    assert [(d.id, d.metadata["position"]) for d in src.documents()] == [
        ("a", 0),
        ("w1/C", 1),
        ("w1/deep/b", 2),
    ]
    written = _roundtrip(src, tmp_path / "out")
    assert written == [
        tmp_path / "out" / "a.txt",
        tmp_path / "out" / "w1" / "C.TXT",
        tmp_path / "out" / "w1" / "deep" / "b.txt",
    ]
    assert [p.read_text(encoding="utf-8") for p in written] == ["<ODE>", "<VARNISH>", "<ILSA>"]
    assert not (tmp_path / "out" / "w1" / "ignored.csv").exists()


def test_jsonl_replaces_only_the_text_field(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    records: list[dict[str, Any]] = [
        {"mrn": "x1", "body": "Zoë Quenwick", "n": 1.5, "tags": ["a"], "patient": 42},
        {"body": None, "mrn": "x2", "patient": 42},
        {"mrn": "x3", "body": "Ñandú\u2028next", "nested": {"k": [1, 2]}, "patient": 43},
    ]
    lines = [json.dumps(r, ensure_ascii=False) for r in records]
    path.write_bytes((lines[0] + "\r\n" + lines[1] + "\n\n" + lines[2]).encode())
    src = open_source(path, text_field="body", id_field="mrn", patient_field="patient")
    assert src.count is None  # would need a pass over the file
    docs = list(src.documents())
    assert [(d.id, d.text, dict(d.metadata)) for d in docs] == [
        ("x1", "Zoë Quenwick", {"position": 0, "patient_id": "42"}),
        ("x2", "", {"position": 1, "patient_id": "42"}),
        ("x3", "Ñandú\u2028next", {"position": 2, "patient_id": "43"}),
    ]
    (out,) = _roundtrip(src, tmp_path / "out")
    assert out == tmp_path / "out" / "notes.jsonl"
    raw = out.read_bytes()
    assert raw.count(b"\n") == 3 and raw.split(b"\n")[0].endswith(b"\r") and raw.split(b"\n")[2] == b""
    back = [json.loads(line) for line in raw.splitlines() if line.strip()]
    expected = [dict(r) for r in records]
    expected[0]["body"] = "<ZOË QUENWICK>"
    expected[2]["body"] = "<ÑANDÚ\u2028NEXT>"
    assert back == expected
    assert [list(r) for r in back] == [list(r) for r in records]  # key order kept


def test_jsonl_output_drops_gold_annotations_of_the_original_text(tmp_path: Path) -> None:
    path = tmp_path / "gold.jsonl"
    record = {
        "id": "d1",
        "text": "Seen by Alan Grant.",
        "spans": [{"start": 8, "end": 18, "label": "DOCTOR", "text": "Alan Grant"}],
        "entities": [[8, 18, "DOCTOR"]],
        "site": "north",
    }
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    (out,) = _roundtrip(open_source(path, id_field="id"), tmp_path / "out")
    raw = out.read_text(encoding="utf-8")
    assert "Alan" not in raw and "Grant" not in raw
    back = json.loads(raw)
    assert set(back) == {"id", "text", "site"} and back["site"] == "north"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"text": "Ode"}\n{"text": \n', "line 2"),
        ('{"note": "Ode"}\n', "no field"),
        ('{"text": 3}\n', "not a string"),
        ("[1]\n", "not a JSON object"),
    ],
)
def test_unreadable_jsonl_record_stops_the_run_without_echoing_text(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "n.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputFormatError, match=message) as err:
        list(open_source(path).documents())
    assert "Ode" not in str(err.value)


@pytest.mark.parametrize(
    ("delimiter", "terminator", "quoting", "bom"),
    [(",", "\r\n", csv.QUOTE_MINIMAL, False), (";", "\n", csv.QUOTE_ALL, True)],
)
def test_csv_keeps_header_dialect_rows_and_other_columns(
    tmp_path: Path, delimiter: str, terminator: str, quoting: Literal[0, 1, 2, 3], bom: bool
) -> None:
    path = tmp_path / "notes.csv"
    rows = [
        ["id", "note", "score", "pid"],
        ["7", 'Zoë Quenwick, "Q"\r\nÑandú', "001.50", "p1"],
        ["8", "", "", "p1"],
        ["9", "Ode;Varnish", "x", "p2"],
    ]
    with path.open("w", encoding="utf-8-sig" if bom else "utf-8", newline="") as fh:
        csv.writer(fh, delimiter=delimiter, lineterminator=terminator, quoting=quoting).writerows(rows)
    src = open_source(path, text_column="note", id_field="id", patient_field="pid")
    assert [(d.id, d.text, d.metadata["patient_id"]) for d in src.documents()] == [
        ("7", rows[1][1], "p1"),
        ("8", "", "p1"),
        ("9", "Ode;Varnish", "p2"),
    ]
    (out,) = _roundtrip(src, tmp_path / "out")
    expected = [row[:] for row in rows]
    expected[1][1] = "<" + rows[1][1].upper() + ">"
    expected[3][1] = "<ODE;VARNISH>"
    buf = tmp_path / "expected.csv"
    with buf.open("w", encoding="utf-8-sig" if bom else "utf-8", newline="") as fh:
        csv.writer(fh, delimiter=delimiter, lineterminator=terminator, quoting=quoting).writerows(expected)
    assert out.read_bytes() == buf.read_bytes()


def test_tsv_is_written_back_tab_delimited(tmp_path: Path) -> None:
    path = tmp_path / "n.tsv"
    path.write_text("text\tk\nOde Varnish\t1\n", encoding="utf-8")
    (out,) = _roundtrip(open_source(path), tmp_path / "out")
    assert out.read_text(encoding="utf-8") == "text\tk\n<ODE VARNISH>\t1\n"


def test_csv_without_the_text_column_fails_early(tmp_path: Path) -> None:
    path = tmp_path / "n.csv"
    path.write_text("id,body\n1,Ode\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="no column 'text'"):
        open_source(path)


def test_parquet_keeps_schema_rows_and_other_columns(tmp_path: Path) -> None:
    path = tmp_path / "notes.parquet"
    schema = pa.schema(
        [("id", pa.int64()), ("note", pa.large_string()), ("pid", pa.string()), ("when", pa.date32())],
        metadata={b"origin": b"synthetic"},
    )
    n = 2500
    table = pa.table(
        {
            "id": list(range(n)),
            "note": [None if i % 7 == 0 else f"Zoë Quenwick {i}" for i in range(n)],
            "pid": [f"p{i % 3}" for i in range(n)],
            "when": pa.array([i % 1000 for i in range(n)], pa.int32()).cast(pa.date32()),
        },
        schema=schema,
    )
    pq.write_table(table, path, row_group_size=1000, compression="zstd")
    src = open_source(path, text_column="note", id_field="id", patient_field="pid")
    docs = list(src.documents())
    assert (
        len(docs) == n and docs[1].id == "1" and docs[0].text == "" and docs[1].metadata["patient_id"] == "p1"
    )
    assert [d.metadata["position"] for d in docs] == list(range(n))
    (out,) = _roundtrip(src, tmp_path / "out")
    back = pq.read_table(out)
    assert back.schema.equals(table.schema, check_metadata=True)
    assert back.column("id").to_pylist() == table.column("id").to_pylist()
    assert back.column("when").equals(table.column("when"))
    assert back.column("note").to_pylist() == [
        None if v is None else f"<{v.upper()}>" for v in table.column("note").to_pylist()
    ]
    assert pq.ParquetFile(out).metadata.row_group(0).column(0).compression == "ZSTD"


def test_write_checks_order_and_count_of_transformed_documents(tmp_path: Path) -> None:
    path = tmp_path / "n.jsonl"
    path.write_text('{"text": "a"}\n{"text": "b"}\n', encoding="utf-8")
    src = open_source(path)
    docs = list(src.documents())
    with pytest.raises(InputFormatError, match="order"):
        src.write(tmp_path / "o1", reversed(docs))
    with pytest.raises(InputFormatError, match="only 1"):
        src.write(tmp_path / "o2", docs[:1])
    with pytest.raises(InputFormatError, match="more transformed"):
        src.write(tmp_path / "o3", [*docs, docs[0]])


def test_write_consumes_a_lazy_stream(tmp_path: Path) -> None:
    path = tmp_path / "n.jsonl"
    path.write_text("".join(json.dumps({"text": f"n{i}"}) + "\n" for i in range(50)), encoding="utf-8")
    src = open_source(path)
    pulled: list[int] = []

    def stream() -> Iterator[Document]:
        for doc in src.documents():
            pulled.append(doc.metadata["position"])
            yield doc

    docs = src.documents()
    assert isinstance(docs, Iterator)
    src.write(tmp_path / "out", stream())
    assert pulled == list(range(50))


@pytest.mark.parametrize("kind", ["file", "dir"])
def test_refuses_to_overwrite_the_input(tmp_path: Path, kind: str) -> None:
    (tmp_path / "a.txt").write_text("Ode", encoding="utf-8")
    src = open_source(tmp_path / "a.txt" if kind == "file" else tmp_path)
    with pytest.raises(ConfigError):
        _roundtrip(src, tmp_path if kind == "file" else tmp_path / "inside")
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "Ode"
