"""``phiscrub redact`` on JSONL, CSV and Parquet inputs that are malformed (issue 18).

Each case once wrote PHI in clear with a clean exit, or crashed and lost the good records too. Every
test runs the real command on real files and checks that no synthetic PHI string reaches the output
folder or the messages: a record that cannot be trusted is written empty and listed in
``errors.jsonl`` (exit 1), a problem that concerns the whole input stops the run before anything is
written (exit 2), and every value besides the text and the id is redacted unless kept.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result

from phiscrub.cli.app import cli

# Synthetic PHI only.
PHI_STRINGS = ("Zebulon", "Quackenbush", "99887766", "03/12/2019")
NOTE = "Patient Zebulon Quackenbush seen 03/12/2019, MRN 99887766."


def _redact(src: Path, out: Path, *options: str) -> Result:
    return CliRunner().invoke(cli, ["redact", str(src), "-o", str(out), "--rules-only", *options])


def _assert_no_phi(*texts: str | bytes) -> None:
    for t in texts:
        s = t.decode("utf-8", "replace") if isinstance(t, bytes) else t
        for phi in PHI_STRINGS:
            assert phi not in s, phi


def _all_output(out: Path) -> list[bytes]:
    return [p.read_bytes() for p in out.rglob("*") if p.is_file()]


def _errors(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "errors.jsonl").read_text(encoding="utf-8").splitlines()]


def _csv_rows(path: Path, encoding: str = "utf-8") -> list[list[str]]:
    with path.open(encoding=encoding, newline="") as fh:
        return list(csv.reader(fh))


# -- case 1: a malformed CSV --------------------------------------------------------------------------


def test_malformed_csv_with_an_unclosed_quote_writes_nothing_in_clear_and_exits_1(tmp_path: Path) -> None:
    """The issue's command, as a shell runs it: three rows were read as two, exit 0, "errors: 0",
    and the MRN of the swallowed row was copied in clear into an extra column."""
    src = tmp_path / "u.csv"
    src.write_text(
        f'id,text\n1,"{NOTE}"\n2,"Zebulon Quackenbush never closed quote 99887766\n3,"{NOTE}"\n',
        encoding="utf-8",
    )
    out = tmp_path / "o1"
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "phiscrub.cli",
            "redact",
            str(src),
            "--id-field",
            "id",
            "-o",
            str(out),
            "--rules-only",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert r.returncode == 1, r.stderr
    assert "errors: 2 (unreadable: 2" in r.stderr
    assert _csv_rows(out / "u.csv") == [
        ["id", "text"],
        ["1", "Patient [NAME] seen [DATE], MRN [ID]."],
        ["", ""],
        ["", ""],
    ]
    assert [(e["id"], e["stage"], e["error"]) for e in _errors(out)] == [
        ("u-1", "read", "malformed_csv"),
        ("u-2", "read", "malformed_csv"),
    ]
    _assert_no_phi(r.stdout, r.stderr, *_all_output(out))


@pytest.mark.parametrize(
    "bad_row",
    [
        '2,"Zebulon Quackenbush",99887766',  # an extra cell
        "2,Zebulon Quackenbush,99887766,03/12/2019",  # an unquoted comma in the text
        "Zebulon Quackenbush 99887766",  # a missing cell
    ],
)
def test_csv_row_with_extra_or_missing_cells_is_written_empty_and_exits_1(
    tmp_path: Path, bad_row: str
) -> None:
    src = tmp_path / "r.csv"
    src.write_text(f'id,text\n1,"{NOTE}"\n{bad_row}\n3,"{NOTE}"\n', encoding="utf-8")
    out = tmp_path / "out"
    r = _redact(src, out, "--id-field", "id")
    assert r.exit_code == 1
    rows = _csv_rows(out / "r.csv")
    assert rows[2] == ["", ""] and rows[1][0] == "1" and rows[3][0] == "3" and len(rows) == 4
    assert _errors(out) == [{"id": "r-1", "position": 1, "stage": "read", "error": "ragged_row"}]
    _assert_no_phi(r.output, *_all_output(out))


def test_csv_second_text_header_is_a_startup_error(tmp_path: Path) -> None:
    src = tmp_path / "d.csv"
    src.write_text(f'id,text,text\n1,"{NOTE}","{NOTE}"\n', encoding="utf-8")
    r = _redact(src, tmp_path / "out")
    assert r.exit_code == 2
    assert "repeated column names ('text' at columns 2/3)" in r.output
    assert not (tmp_path / "out").exists()
    _assert_no_phi(r.output)


@pytest.mark.parametrize("shape", ["csv", "jsonl", "parquet"])
def test_columns_besides_text_and_id_are_redacted_unless_kept(tmp_path: Path, shape: str) -> None:
    # --rules-only needs context for a name ("Dr."); a bare name in a cell is left to the model.
    rows = [
        {
            "id": "n1",
            "text": "Seen today.",
            "name": "Dr. Zebulon Quackenbush",
            "seen": "03/12/2019",
            "unit": "ICU",
        },
        {"id": "n2", "text": NOTE, "name": "", "seen": "MRN 99887766", "unit": "ward"},
    ]
    src = tmp_path / f"n.{shape}"
    if shape == "csv":
        with src.open("w", encoding="utf-8", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    elif shape == "jsonl":
        src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    else:
        pq.write_table(pa.Table.from_pylist(rows), src)
    out = tmp_path / "out"
    r = _redact(src, out, "--id-field", "id", "--keep-columns", "unit")
    assert r.exit_code == 0, r.output
    if shape == "csv":
        header, *body = _csv_rows(out / src.name)
        got = [dict(zip(header, row)) for row in body]
    elif shape == "jsonl":
        got = [json.loads(line) for line in (out / src.name).read_text(encoding="utf-8").splitlines()]
    else:
        got = pq.read_table(out / src.name).to_pylist()
    assert got == [
        {"id": "n1", "text": "Seen today.", "name": "Dr. [NAME]", "seen": "[DATE]", "unit": "ICU"},
        {
            "id": "n2",
            "text": "Patient [NAME] seen [DATE], MRN [ID].",
            "name": "",
            "seen": "MRN [ID]",
            "unit": "ward",
        },
    ]
    spans = [
        json.loads(line)["doc_id"]
        for line in (out / "phi_spans.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert "n1#/name" in spans and "n2#/seen" in spans  # cells are listed under <id>#/<column>
    _assert_no_phi(r.output, *_all_output(out))


def test_keep_columns_naming_the_text_column_is_a_startup_error(tmp_path: Path) -> None:
    src = tmp_path / "n.csv"
    src.write_text(f'id,text\n1,"{NOTE}"\n', encoding="utf-8")
    r = _redact(src, tmp_path / "out", "--keep-columns", "id,text")
    assert r.exit_code == 2 and "cannot keep the text column 'text'" in r.output
    assert not (tmp_path / "out").exists()


# -- case 2: inputs that crashed the run and lost the good records too --------------------------------


def test_jsonl_lone_surrogate_is_redacted_instead_of_crashing(tmp_path: Path) -> None:
    src = tmp_path / "s.jsonl"
    src.write_text(
        json.dumps({"id": "a", "text": NOTE})
        + "\n"
        + '{"id": "b", "text": "Patient Zebulon Quackenbush \\ud800 MRN 99887766"}\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    r = _redact(src, out, "--id-field", "id")
    assert r.exit_code == 0, r.output
    got = [json.loads(line) for line in (out / "s.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [g["id"] for g in got] == ["a", "b"]
    assert "\ufffd" in got[1]["text"] and "[NAME]" in got[1]["text"]
    _assert_no_phi(r.output, *_all_output(out))


@pytest.mark.parametrize(
    ("values", "type_name"),
    [
        (pa.array([99887766, 2], pa.int64()), "int64"),
        (pa.array([NOTE.encode(), b"x"], pa.binary()), "binary"),
        (pa.array([[NOTE], ["x"]], pa.list_(pa.string())), "list<element: string>"),
    ],
)
def test_parquet_text_column_that_is_not_strings_is_a_startup_error(
    tmp_path: Path, values: Any, type_name: str
) -> None:
    src = tmp_path / "p.parquet"
    pq.write_table(pa.table({"id": ["a", "b"], "note": values}), src)
    r = _redact(src, tmp_path / "out", "--text-column", "note")
    assert r.exit_code == 2, r.output
    assert f"the text column 'note' holds {type_name} values" in r.output
    assert "Traceback" not in r.output and not (tmp_path / "out").exists()
    _assert_no_phi(r.output)


def test_latin1_csv_fails_its_undecodable_rows_and_writes_the_others(tmp_path: Path) -> None:
    src = tmp_path / "l.csv"
    src.write_bytes(f'id,text\n1,"Zoë {NOTE}"\n2,"{NOTE}"\n'.encode("latin-1"))
    out = tmp_path / "out"
    r = _redact(src, out, "--id-field", "id")
    assert r.exit_code == 1, r.output
    assert _csv_rows(out / "l.csv") == [
        ["id", "text"],
        ["", ""],
        ["2", "Patient [NAME] seen [DATE], MRN [ID]."],
    ]
    assert _errors(out) == [{"id": "l-0", "position": 0, "stage": "read", "error": "decode_error"}]
    _assert_no_phi(r.output, *_all_output(out))


def test_misspelt_id_field_on_jsonl_is_a_startup_error(tmp_path: Path) -> None:
    src = tmp_path / "n.jsonl"
    src.write_text(json.dumps({"note_id": "a", "text": NOTE}) + "\n", encoding="utf-8")
    r = _redact(src, tmp_path / "out", "--id-field", "noteid")
    assert r.exit_code == 2
    assert "the first record (line 1) has no field 'noteid' (--id-field)" in r.output
    assert not (tmp_path / "out").exists()
    _assert_no_phi(r.output)


@pytest.mark.parametrize(
    ("bad_line", "code"),
    [
        (json.dumps({"text": NOTE}), "missing_id"),
        ('{"note_id": "b", "text": "Zebulon Quackenbush 99887766', "invalid_json"),
        (json.dumps({"note_id": "b", "text": [NOTE]}), "text_not_string"),
    ],
)
def test_jsonl_record_that_cannot_be_read_fails_alone_and_the_batch_goes_on(
    tmp_path: Path, bad_line: str, code: str
) -> None:
    src = tmp_path / "n.jsonl"
    good = [json.dumps({"note_id": i, "text": NOTE}) for i in ("a", "c")]
    src.write_text("\n".join([good[0], bad_line, good[1]]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    r = _redact(src, out, "--id-field", "note_id")
    assert r.exit_code == 1, r.output
    got = [json.loads(line) for line in (out / "n.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [g["text"] for g in got] == [
        "Patient [NAME] seen [DATE], MRN [ID].",
        "",
        "Patient [NAME] seen [DATE], MRN [ID].",
    ]
    (error,) = _errors(out)
    assert (error["position"], error["stage"], error["error"]) == (1, "read", code)
    _assert_no_phi(r.output, *_all_output(out))


def test_redacted_cells_count_as_part_of_their_record_not_as_documents(tmp_path: Path) -> None:
    src = tmp_path / "notes.csv"
    src.write_text(f"id,text,other,more\n1,{NOTE.replace(',', ';')},Dr. Alan Grant,x\n2,plain,y,z\n")
    result = _redact(src, tmp_path / "out", "--id-field", "id")
    assert result.exit_code == 0, result.output
    assert "redacted 2 documents" in result.output
    _assert_no_phi((tmp_path / "out" / "notes.csv").read_text(), result.output)


def test_latin1_csv_with_encoding_option_is_read_whole(tmp_path: Path) -> None:
    src = tmp_path / "l.csv"
    src.write_bytes(f'id,text\n1,"Zoë {NOTE}"\n2,"{NOTE}"\n'.encode("latin-1"))
    out = tmp_path / "out"
    r = _redact(src, out, "--id-field", "id", "--encoding", "latin-1")
    assert r.exit_code == 0, r.output
    text = (out / "l.csv").read_bytes().decode("latin-1")  # written back in the input's encoding
    assert [line.split(",")[0] for line in text.splitlines()] == ["id", "1", "2"]
    _assert_no_phi(r.output, *_all_output(out))


def test_unknown_encoding_is_a_startup_error(tmp_path: Path) -> None:
    src = tmp_path / "l.csv"
    src.write_text(f'id,text\n1,"{NOTE}"\n')
    r = _redact(src, tmp_path / "out", "--encoding", "no-such-codec")
    assert r.exit_code == 2, r.output
    assert not (tmp_path / "out").exists()
