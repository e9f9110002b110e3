"""Input shapes for redact: documents out, the same shape back in."""

from __future__ import annotations

import csv
import json
import re
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


def test_jsonl_redacts_the_text_and_every_other_value_unless_kept(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    records: list[dict[str, Any]] = [
        {"mrn": "x1", "body": "Zoë Quenwick", "n": 1.5, "tags": ["Ode", ""], "patient": 42, "ok": True},
        {"body": None, "mrn": "x2", "patient": 42, "site": "north"},
        {"mrn": "x3", "body": "Ñandú\u2028next", "nested": {"k/~": [1, "Ilsa"]}, "patient": 43, "site": None},
    ]
    lines = [json.dumps(r, ensure_ascii=False) for r in records]
    path.write_bytes((lines[0] + "\r\n" + lines[1] + "\n\n" + lines[2]).encode())
    src = open_source(path, text_field="body", id_field="mrn", patient_field="patient", keep_columns=["site"])
    assert src.count == 3
    docs = list(src.documents())
    assert [(d.id, d.text, dict(d.metadata)) for d in docs] == [
        ("x1", "Zoë Quenwick", {"position": 0, "patient_id": "42"}),
        ("x1#/tags/0", "Ode", {"position": 0, "patient_id": "42", "cell": "/tags/0"}),
        ("x2", "", {"position": 1, "patient_id": "42"}),
        ("x3", "Ñandú\u2028next", {"position": 2, "patient_id": "43"}),
        ("x3#/nested/k~1~0/1", "Ilsa", {"position": 2, "patient_id": "43", "cell": "/nested/k~1~0/1"}),
    ]
    (out,) = _roundtrip(src, tmp_path / "out")
    assert out == tmp_path / "out" / "notes.jsonl"
    raw = out.read_bytes()
    assert raw.count(b"\n") == 3 and raw.split(b"\n")[0].endswith(b"\r") and raw.split(b"\n")[2] == b""
    back = [json.loads(line) for line in raw.splitlines() if line.strip()]
    assert back == [
        # numbers are nulled (the patient number too: --keep-columns keeps it), booleans kept
        {
            "mrn": "x1",
            "body": "<ZOË QUENWICK>",
            "n": None,
            "tags": ["<ODE>", ""],
            "patient": None,
            "ok": True,
        },
        {"body": None, "mrn": "x2", "patient": None, "site": "north"},
        {
            "mrn": "x3",
            "body": "<ÑANDÚ\u2028NEXT>",
            "nested": {"k/~": [None, "<ILSA>"]},
            "patient": None,
            "site": None,
        },
    ]
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
    # even when kept: annotation fields are dropped, never copied
    (out,) = _roundtrip(open_source(path, id_field="id", keep_columns=["site", "spans"]), tmp_path / "out")
    raw = out.read_text(encoding="utf-8")
    assert "Alan" not in raw and "Grant" not in raw
    back = json.loads(raw)
    assert set(back) == {"id", "text", "site"} and back["site"] == "north"


@pytest.mark.parametrize(
    ("bad_line", "code", "written"),
    [
        (b'{"id": "b", "text": "Ode Varnish", ', "invalid_json", {"text": ""}),
        (b'{"id": "b", "text": "Ode \xff Varnish"}', "decode_error", {"text": ""}),
        (b'["Ode Varnish"]', "not_object", {"text": ""}),
        (b'{"id": "b", "note": "Ode Varnish"}', "missing_text", {"id": "b", "text": ""}),
        (b'{"id": "b", "text": ["Ode Varnish"]}', "text_not_string", {"id": "b", "text": ""}),
        (b'{"id": 7, "text": {"Ode": "Varnish"}}', "text_not_string", {"id": 7, "text": ""}),
        (b'{"ident": "b", "text": "Ode Varnish"}', "missing_id", {"text": ""}),
        (b'{"id": ["Ode Varnish"], "text": "Ode Varnish"}', "bad_id", {"text": ""}),
        (
            b'{"id": "b", "text": "t", "x": ' + b"[" * 150 + b"]" * 150 + b"}",
            "too_deep",
            {"id": "b", "text": ""},
        ),
        (b'{"id": "b", "text": "t", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}", "too_deep", {"text": ""}),
        (b'{"id": "b", "text": "t", "n": 1' + b"0" * 5000 + b"}", "invalid_json", {"text": ""}),
        (b'{"id": "b", "text": "\\ud800", "x": ' + b"[" * 990 + b"]" * 990 + b"}", "too_deep", {"text": ""}),
    ],
)
def test_jsonl_record_that_cannot_be_read_fails_alone_and_is_written_empty(
    tmp_path: Path, bad_line: bytes, code: str, written: dict[str, Any]
) -> None:
    path = tmp_path / "n.jsonl"
    good = [json.dumps({"id": i, "text": "Ode Varnish"}).encode() for i in ("a", "c")]
    path.write_bytes(b"\n".join([good[0], bad_line, good[1]]) + b"\n")
    src = open_source(path, id_field="id")
    assert src.count == 3
    docs = list(src.documents())
    assert [(d.text, d.metadata.get("read_error")) for d in docs] == [
        ("Ode Varnish", None),
        ("", code),
        ("Ode Varnish", None),
    ]
    assert docs[1].metadata["line"] == 2 and docs[1].metadata["position"] == 1
    assert docs[1].id == (str(written["id"]) if "id" in written else "n-1")
    (out,) = _roundtrip(src, tmp_path / "out")
    back = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert back == [{"id": "a", "text": "<ODE VARNISH>"}, written, {"id": "c", "text": "<ODE VARNISH>"}]
    assert "Ode" not in out.read_text(encoding="utf-8").split("\n")[1]


@pytest.mark.parametrize(
    ("first", "option", "message"),
    [
        ('{"note": "Ode", "id": 1}', {}, "no field 'text' (--text-field)"),
        ('{"text": "Ode", "id": 1}', {"id_field": "ident"}, "no field 'ident' (--id-field)"),
        ('{"text": "Ode", "id": 1}', {"patient_field": "pid"}, "no field 'pid' (--patient-field)"),
    ],
)
def test_jsonl_field_missing_from_the_first_record_is_a_startup_error(
    tmp_path: Path, first: str, option: dict[str, str], message: str
) -> None:
    path = tmp_path / "n.jsonl"
    path.write_text("\n" + "not json\n" + first + "\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match=re.escape(message)) as err:
        open_source(path, **option)
    assert "line 3" in str(err.value) and "Ode" not in str(err.value)


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
    src = open_source(path, text_column="note", id_field="id", patient_field="pid", keep_columns=["score"])
    assert src.count == 3
    assert [(d.id, d.text, d.metadata["patient_id"]) for d in src.documents()] == [
        ("7", rows[1][1], "p1"),
        ("7#/pid", "p1", "p1"),
        ("8", "", "p1"),
        ("8#/pid", "p1", "p1"),
        ("9", "Ode;Varnish", "p2"),
        ("9#/pid", "p2", "p2"),
    ]
    (out,) = _roundtrip(src, tmp_path / "out")
    expected = [row[:] for row in rows]
    expected[1][1] = "<" + rows[1][1].upper() + ">"
    expected[3][1] = "<ODE;VARNISH>"
    for row in expected[1:]:
        row[3] = f"<{row[3].upper()}>"  # the patient column is redacted too unless kept
    buf = tmp_path / "expected.csv"
    with buf.open("w", encoding="utf-8-sig" if bom else "utf-8", newline="") as fh:
        csv.writer(fh, delimiter=delimiter, lineterminator=terminator, quoting=quoting).writerows(expected)
    assert out.read_bytes() == buf.read_bytes()


def test_tsv_is_written_back_tab_delimited(tmp_path: Path) -> None:
    path = tmp_path / "n.tsv"
    path.write_text("text\tk\tj\nOde Varnish\t1\tIlsa\n", encoding="utf-8")
    (out,) = _roundtrip(open_source(path, keep_columns=["k"]), tmp_path / "out")
    assert out.read_text(encoding="utf-8") == "text\tk\tj\n<ODE VARNISH>\t1\t<ILSA>\n"


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
    src = open_source(
        path, text_column="note", id_field="id", patient_field="pid", keep_columns=["pid", "when"]
    )
    assert src.count == n
    docs = list(src.documents())
    assert (
        len(docs) == n and docs[1].id == "1" and docs[0].text == "" and docs[1].metadata["patient_id"] == "p1"
    )
    assert [d.metadata["position"] for d in docs] == list(range(n))
    (out,) = _roundtrip(src, tmp_path / "out")
    back = pq.read_table(out)
    # The schema is kept; its non-structural metadata (free text a writer may have filled with
    # PHI, issue 28 item 6) is dropped.
    assert back.schema.equals(table.schema) and b"origin" not in (back.schema.metadata or {})
    assert back.column("id").to_pylist() == table.column("id").to_pylist()
    assert back.column("when").equals(table.column("when"))
    assert back.column("pid").equals(table.column("pid"))
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


# -- issue 18: nothing of a record that cannot be trusted is copied; every other value is redacted --


def _csv_out(src: Source, out: Path) -> list[list[str]]:
    (path,) = _roundtrip(src, out)
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.reader(fh))


def _read_errors(src: Source) -> list[tuple[str, str | None, int | None]]:
    return [(d.id, d.metadata.get("read_error"), d.metadata.get("line")) for d in src.documents()]


def test_csv_unclosed_quote_fails_every_line_it_swallows(tmp_path: Path) -> None:
    """The issue's case: read non-strictly, three rows became two and the overflow was copied."""
    path = tmp_path / "u.csv"
    path.write_text(
        'id,text\n1,"Patient Zebulon Quackenbush seen 03/12/2019, MRN 99887766."\n'
        '2,"Zebulon Quackenbush never closed quote 99887766\n'
        '3,"Patient Zebulon Quackenbush seen 03/12/2019, MRN 99887766."\n',
        encoding="utf-8",
    )
    src = open_source(path, id_field="id")
    assert src.count == 3
    assert _read_errors(src) == [("1", None, None), ("u-1", "malformed_csv", 3), ("u-2", "malformed_csv", 4)]
    rows = _csv_out(src, tmp_path / "out")
    assert rows == [
        ["id", "text"],
        ["1", "<PATIENT ZEBULON QUACKENBUSH SEEN 03/12/2019, MRN 99887766.>"],
        ["", ""],
        ["", ""],
    ]


def test_csv_quote_unclosed_until_the_end_fails_every_line_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "u.csv"
    path.write_text(
        'id,text\n1,ok\n2,"never closed Quackenbush\n3,Quackenbush\n4,Quackenbush\n', encoding="utf-8"
    )
    src = open_source(path, id_field="id")
    assert [e for _, e, _ in _read_errors(src)] == [None, "malformed_csv", "malformed_csv", "malformed_csv"]
    rows = _csv_out(src, tmp_path / "out")
    assert rows[1] == ["1", "<OK>"] and rows[2:] == [["", ""]] * 3


@pytest.mark.parametrize(
    ("row", "code"),
    [
        ('2,"Zebulon Quackenbush",99887766', "ragged_row"),  # an extra cell
        ('2,"Zebulon, Quackenbush",x,99887766', "ragged_row"),
        ("99887766", "ragged_row"),  # a missing cell
        ('"2\nQuackenbush",seen', "bad_id"),  # an id cell holding a line break is text, not an id
        ('2,"Zebulon" Quackenbush', "malformed_csv"),  # text after a closing quote
        ("2,Zebulon \udcff Quackenbush", "decode_error"),
    ],
)
def test_csv_row_that_cannot_be_trusted_is_written_empty(tmp_path: Path, row: str, code: str) -> None:
    path = tmp_path / "r.csv"
    content = f"id,text\n1,Ode\n{row}\n3,Ilsa\n"
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    src = open_source(path, id_field="id")
    assert src.count == 3
    assert [(i, e) for i, e, _ in _read_errors(src)] == [("1", None), ("r-1", code), ("3", None)]
    rows = _csv_out(src, tmp_path / "out")
    assert rows == [["id", "text"], ["1", "<ODE>"], ["", ""], ["3", "<ILSA>"]]


def test_csv_blank_lines_are_kept_and_are_no_records(tmp_path: Path) -> None:
    path = tmp_path / "b.csv"
    path.write_text("id,text\n1,Ode\n\n2,Ilsa\n", encoding="utf-8")
    src = open_source(path, id_field="id")
    assert src.count == 2
    (out,) = _roundtrip(src, tmp_path / "out")
    assert out.read_text(encoding="utf-8") == "id,text\n1,<ODE>\n\n2,<ILSA>\n"


@pytest.mark.parametrize(
    ("header", "options", "message"),
    [
        ("id,text,text", {}, "repeated column names ('text' at columns 2/3)"),
        ("id,x,y,x", {}, "repeated column names (at columns 2/4)"),  # a name no option gave is not echoed
        (
            "id,text,x,y",
            {"keep_columns": ["z"]},
            "no column 'z' in the first row (4 columns); is the first row a header, and is --keep-columns",
        ),
        (
            "id,text",
            {"id_field": "ident"},
            "no column 'ident' in the first row (2 columns); is the first row a header, and is --id-field",
        ),
    ],
)
def test_csv_header_problem_is_a_startup_error_naming_only_known_names(
    tmp_path: Path, header: str, options: dict[str, Any], message: str
) -> None:
    path = tmp_path / "h.csv"
    path.write_text(f"{header}\n" + ",".join(["Quackenbush"] * header.count(",")) + ",x\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match=re.escape(message)) as err:
        open_source(path, **options)
    assert "Quackenbush" not in str(err.value) and "'x'" not in str(err.value)


def test_keeping_the_text_column_or_keeping_columns_of_text_files_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "n.csv").write_text("id,text\n1,Ode\n", encoding="utf-8")
    (tmp_path / "n.txt").write_text("Ode", encoding="utf-8")
    with pytest.raises(ConfigError, match="cannot keep the text column"):
        open_source(tmp_path / "n.csv", keep_columns=["text"])
    with pytest.raises(ConfigError, match="applies to JSONL"):
        open_source(tmp_path / "n.txt", keep_columns=["x"])
    with pytest.raises(ConfigError, match="unknown encoding"):
        open_source(tmp_path / "n.csv", encoding="no-such-codec")
    with pytest.raises(ConfigError, match="CSV/TSV input only"):
        open_source(tmp_path / "n.txt", encoding="latin-1")


def test_latin1_csv_fails_its_undecodable_rows_or_reads_with_its_encoding(tmp_path: Path) -> None:
    path = tmp_path / "l.csv"
    path.write_bytes("id,text,site\n1,Zoë Quenwick,Málaga\n2,Ode,north\n".encode("latin-1"))
    src = open_source(path, id_field="id")
    assert [(i, e) for i, e, _ in _read_errors(src)] == [
        ("l-0", "decode_error"),
        ("2", None),
        ("2#/site", None),
    ]
    assert _csv_out(src, tmp_path / "o1")[1:] == [["", "", ""], ["2", "<ODE>", "<NORTH>"]]
    src = open_source(path, id_field="id", encoding="latin-1")
    assert [d.text for d in src.documents()] == ["Zoë Quenwick", "Málaga", "Ode", "north"]
    (out,) = _roundtrip(src, tmp_path / "o2")
    assert out.read_bytes() == "id,text,site\n1,<ZOË QUENWICK>,<MÁLAGA>\n2,<ODE>,<NORTH>\n".encode("latin-1")


def test_csv_header_that_does_not_decode_is_a_startup_error(tmp_path: Path) -> None:
    path = tmp_path / "l.csv"
    path.write_bytes("id,text,Quenwické\n1,Ode,x\n".encode("latin-1"))
    with pytest.raises(InputFormatError, match="header row is not utf-8; give the file's encoding") as err:
        open_source(path)
    assert "Quenwick" not in str(err.value)


def test_csv_redacts_every_other_column_unless_kept_and_keeps_the_id(tmp_path: Path) -> None:
    path = tmp_path / "c.csv"
    path.write_text(
        "id,text,name,mrn,unit\n1,Seen,Zebulon Quackenbush,99887766,ICU\n2,Ok,,,ward\n", encoding="utf-8"
    )
    src = open_source(path, id_field="id", keep_columns=["unit"])
    assert [(d.id, d.text, d.metadata.get("cell")) for d in src.documents()] == [
        ("1", "Seen", None),
        ("1#/name", "Zebulon Quackenbush", "/name"),
        ("1#/mrn", "99887766", "/mrn"),
        ("2", "Ok", None),
    ]
    assert _csv_out(src, tmp_path / "out") == [
        ["id", "text", "name", "mrn", "unit"],
        ["1", "<SEEN>", "<ZEBULON QUACKENBUSH>", "<99887766>", "ICU"],
        ["2", "<OK>", "", "", "ward"],
    ]


def test_jsonl_lone_surrogate_is_read_as_the_replacement_character(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text('{"id": "a", "text": "Ode \\ud800 Ilsa", "k\\udfff": "x\\ud800"}\n', encoding="utf-8")
    src = open_source(path, id_field="id")
    assert [d.text for d in src.documents()] == ["Ode \ufffd Ilsa", "x\ufffd"]
    (out,) = _roundtrip(src, tmp_path / "out")
    assert json.loads(out.read_text(encoding="utf-8")) == {
        "id": "a",
        "text": "<ODE \ufffd ILSA>",
        "k\ufffd": "<X\ufffd>",
    }


def _parquet(path: Path, columns: dict[str, Any]) -> Path:
    pq.write_table(pa.table(columns), path)
    return path


@pytest.mark.parametrize(
    ("values", "type_name"),
    [
        (pa.array([1, 2], pa.int64()), "int64"),
        (pa.array([b"Ode", b"Ilsa"], pa.binary()), "binary"),
        (pa.array([["Ode"], ["Ilsa"]], pa.list_(pa.string())), "list<element: string>"),
    ],
)
def test_parquet_text_column_that_is_not_strings_is_a_startup_error(
    tmp_path: Path, values: Any, type_name: str
) -> None:
    path = _parquet(tmp_path / "p.parquet", {"id": ["a", "b"], "text": values})
    with pytest.raises(
        InputFormatError, match=re.escape(f"text column 'text' holds {type_name} values")
    ) as err:
        open_source(path)
    assert "Ode" not in str(err.value)


def test_parquet_id_column_that_is_nested_is_a_startup_error(tmp_path: Path) -> None:
    path = _parquet(tmp_path / "p.parquet", {"id": [["Ode"]], "text": ["x"]})
    with pytest.raises(InputFormatError, match="id column 'id' holds list"):
        open_source(path, id_field="id")


def test_parquet_redacts_strings_nulls_other_types_unless_kept(tmp_path: Path) -> None:
    schema = pa.schema(
        [
            ("id", pa.int32()),
            ("text", pa.string()),
            ("name", pa.dictionary(pa.int8(), pa.string())),
            ("mrn", pa.int64(), False),  # not nullable: the output schema must take the nulls
            ("flag", pa.bool_()),
            ("tags", pa.list_(pa.string())),
            ("kept", pa.int64()),
        ]
    )
    table = pa.table(
        {
            "id": [1, 2],
            "text": ["Seen", None],
            "name": pa.array(["Zebulon", None])
            .dictionary_encode()
            .cast(pa.dictionary(pa.int8(), pa.string())),
            "mrn": [99887766, 99887767],
            "flag": [True, None],
            "tags": [["Zebulon"], []],
            "kept": [5, 6],
        },
        schema=schema,
    )
    path = tmp_path / "p.parquet"
    pq.write_table(table, path)
    src = open_source(path, id_field="id", keep_columns=["kept"])
    assert [(d.id, d.text) for d in src.documents()] == [("1", "Seen"), ("1#/name", "Zebulon"), ("2", "")]
    (out,) = _roundtrip(src, tmp_path / "out")
    back = pq.read_table(out)
    assert back.column_names == table.column_names
    assert back.schema.field("name").type == schema.field("name").type
    assert back.to_pydict() == {
        "id": [1, 2],
        "text": ["<SEEN>", None],
        "name": ["<ZEBULON>", None],
        "mrn": [None, None],
        "flag": [True, None],
        "tags": [None, None],
        "kept": [5, 6],
    }


@pytest.mark.parametrize("shape", ["jsonl", "csv", "parquet"])
def test_count_is_the_number_of_records_not_of_documents(tmp_path: Path, shape: str) -> None:
    """Issue 17: the progress bar of a 1,500-record JSONL counted "1doc"."""
    n = 1500
    rows = [{"id": f"n{i}", "text": f"Ode {i}\nIlsa", "site": "north"} for i in range(n)]
    path = tmp_path / f"n.{shape}"
    if shape == "jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in rows) + "\n", encoding="utf-8")
    elif shape == "csv":
        with path.open("w", encoding="utf-8", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=["id", "text", "site"])
            writer.writeheader()
            writer.writerows(rows)
    else:
        pq.write_table(pa.Table.from_pylist(rows), path, row_group_size=700)
    src = open_source(path, id_field="id")
    assert src.count == n
    assert len([d for d in src.documents() if "cell" not in d.metadata]) == n
