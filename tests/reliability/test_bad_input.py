"""Bad input gets a clear error and the batch goes on (issue 14, part 1).

One table, :data:`CASES`: each row builds a real input holding one kind of bad input next to good
notes, runs the real ``phiscrub redact`` (or ``phiscrub convert`` for BRAT and i2b2), and checks

- the exit status (0 all good, 1 some documents failed, 2 usage / start-up error, nothing written);
- the failed documents, by id and code, in ``errors.jsonl``; the caveats in ``warnings.jsonl``;
- that nothing is lost: the summary's input count equals redacted + failed, and every id of the
  input is either redacted in the output or listed in ``errors.jsonl``;
- that no synthetic PHI string reaches the output, the messages or the log records.

Unreadable files: tests run as root, where ``chmod 000`` does not stop reading, so there the
unreadable note is a link to ``/proc/self/mem`` (reading it fails with EIO); as another user it is a
``chmod 000`` file.
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result

from phiscrub.cli.app import cli

# Synthetic PHI only; the rules find each of them.
NOTE = "Seen by Dr. Zoltan Quenwick on 03/12/2019, MRN 0048-2231, call 617-555-0134.\n"
PHI_STRINGS = ("Quenwick", "03/12/2019", "0048-2231", "617-555-0134")


@dataclass
class Case:
    """One kind of bad input and what ``redact`` must make of it."""

    src: Path
    options: list[str] = field(default_factory=list)
    exit: int = 0
    inputs: int = 0  # documents in the input (0 for a start-up error)
    errors: dict[str, str] = field(default_factory=dict)  # id -> read-error code
    warnings: dict[str, str] = field(default_factory=dict)  # id -> warning code
    message: str = ""  # a start-up error's words
    exact_offsets: bool = False  # phi_spans offsets index the decoded original (checked with --audit-text)


def _folder(tmp: Path, entries: dict[str, bytes]) -> Path:
    src = tmp / "notes"
    src.mkdir()
    (src / "good.txt").write_text(NOTE, encoding="utf-8")
    for name, data in entries.items():
        (src / name).write_bytes(data)
    return src


def _jsonl(tmp: Path, lines: list[str | bytes], name: str = "notes.jsonl", end: bytes = b"\n") -> Path:
    src = tmp / name
    raw = [ln if isinstance(ln, bytes) else ln.encode("utf-8") for ln in lines]
    src.write_bytes(b"\n".join(raw) + end)
    return src


def _rec(i: str, text: object = NOTE, **more: object) -> str:
    return json.dumps({"id": i, "text": text, **more})


def _csv(tmp: Path, text: str | bytes) -> Path:
    src = tmp / "notes.csv"
    src.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return src


def _quoted(s: str) -> str:
    return '"' + s.replace('"', '""') + '"'


# -- the table ----------------------------------------------------------------------------------------


def empty_file(tmp: Path) -> Case:
    return Case(_folder(tmp, {"empty.txt": b""}), inputs=2)


def binary_file(tmp: Path) -> Case:
    data = bytes(random.Random(7).randrange(256) for _ in range(4096)) + b"\xff\xfe"
    return Case(_folder(tmp, {"blob.txt": data}), exit=1, inputs=2, errors={"blob": "decode_error"})


def nul_bytes(tmp: Path) -> Case:
    return Case(
        _folder(tmp, {"nul.txt": NOTE.replace(" on ", " \x00on\x00 ").encode()}), inputs=2, exact_offsets=True
    )


def _latin1_note() -> bytes:
    return ("Café note: " + NOTE).encode("latin-1")


def non_utf8_fail(tmp: Path) -> Case:
    return Case(_folder(tmp, {"lat.txt": _latin1_note()}), exit=1, inputs=2, errors={"lat": "decode_error"})


def non_utf8_replace(tmp: Path) -> Case:
    src = _folder(tmp, {"lat.txt": _latin1_note()})
    return Case(
        src, ["--encoding-errors", "replace"], 0, 2, warnings={"lat": "decode_replaced"}, exact_offsets=True
    )


def non_utf8_latin1(tmp: Path) -> Case:
    src = _folder(tmp, {"lat.txt": _latin1_note()})
    return Case(
        src, ["--encoding-errors", "latin-1"], 0, 2, warnings={"lat": "decoded_latin1"}, exact_offsets=True
    )


def utf8_bom(tmp: Path) -> Case:
    return Case(_folder(tmp, {"bom.txt": b"\xef\xbb\xbf" + NOTE.encode()}), inputs=2, exact_offsets=True)


def crlf_line_ends(tmp: Path) -> Case:
    text = ("Line one.\r\n" + NOTE.replace(", call", ",\r\ncall")).replace("\n", "\r\n").replace("\r\r", "\r")
    return Case(_folder(tmp, {"crlf.txt": text.encode()}), inputs=2, exact_offsets=True)


def unreadable_file(tmp: Path) -> Case:
    src = _folder(tmp, {})
    if os.geteuid() == 0:  # root reads a chmod 000 file: use a file whose read() fails (EIO)
        (src / "locked.txt").symlink_to("/proc/self/mem")
    else:
        (src / "locked.txt").write_text(NOTE, encoding="utf-8")
        (src / "locked.txt").chmod(0)
    return Case(src, exit=1, inputs=2, errors={"locked": "unreadable"})


def symlink_loop(tmp: Path) -> Case:
    src = _folder(tmp, {})
    (src / "a.txt").symlink_to("b.txt")
    (src / "b.txt").symlink_to("a.txt")
    (src / "up").symlink_to("..", target_is_directory=True)  # a folder loop: not followed
    return Case(src, exit=1, inputs=3, errors={"a": "symlink_loop", "b": "symlink_loop"})


def dangling_symlink(tmp: Path) -> Case:
    src = _folder(tmp, {})
    (src / "gone.txt").symlink_to(tmp / "nowhere.txt")
    return Case(src, exit=1, inputs=2, errors={"gone": "dangling_symlink"})


def fifo_named_txt(tmp: Path) -> Case:
    src = _folder(tmp, {})
    os.mkfifo(src / "pipe.txt")
    return Case(src, exit=1, inputs=2, errors={"pipe": "not_regular_file"})


def five_mb_line_without_newline(tmp: Path) -> Case:
    filler = "the patient is stable and was given fluids overnight. " * (5_000_000 // 55)
    src = _jsonl(tmp, [_rec("n1"), _rec("big", NOTE + filler + NOTE)], end=b"")
    return Case(src, ["--id-field", "id"], 0, 2)


def malformed_jsonl_line(tmp: Path) -> Case:
    src = _jsonl(tmp, [_rec("n1"), '{"id": "n2", "text": "Dr. Zoltan Quenwick', _rec("n3")])
    return Case(src, [], 1, 3, errors={"notes-1": "invalid_json"})


def missing_text_field(tmp: Path) -> Case:
    src = _jsonl(tmp, [_rec("n1"), json.dumps({"id": "n2", "body": NOTE}), _rec("n3")])
    return Case(src, ["--id-field", "id"], 1, 3, errors={"n2": "missing_text"})


def null_text_field(tmp: Path) -> Case:
    return Case(_jsonl(tmp, [_rec("n1"), _rec("n2", None)]), ["--id-field", "id"], 0, 2)


def non_string_text_field(tmp: Path) -> Case:
    src = _jsonl(tmp, [_rec("n1"), _rec("n2", ["Dr. Zoltan Quenwick"]), _rec("n3", 99887766)])
    return Case(src, ["--id-field", "id"], 1, 3, errors={"n2": "text_not_string", "n3": "text_not_string"})


def duplicate_ids(tmp: Path) -> Case:
    src = _jsonl(tmp, [_rec("n1"), _rec("n2"), _rec("n1")])
    return Case(src, ["--id-field", "id"], 0, 3, warnings={"n1": "duplicate_id"})


def jsonl_lone_surrogate(tmp: Path) -> Case:
    src = _jsonl(tmp, [_rec("n1"), '{"id": "n2", "text": "Dr. Zoltan Quenwick \\ud800 on 03/12/2019"}'])
    return Case(src, ["--id-field", "id"], 0, 2)


def jsonl_bom(tmp: Path) -> Case:
    return Case(_jsonl(tmp, [b"\xef\xbb\xbf" + _rec("n1").encode(), _rec("n2")]), ["--id-field", "id"], 0, 2)


def jsonl_non_utf8_replace(tmp: Path) -> Case:
    src = _jsonl(tmp, [_rec("n1"), _rec("n2").encode().replace(b"Seen", b"S\xe9en")])
    return Case(
        src, ["--id-field", "id", "--encoding-errors", "replace"], 0, 2, warnings={"n2": "decode_replaced"}
    )


def jsonl_too_deep(tmp: Path) -> Case:
    deep = '{"id": "n2", "text": "x", "m": ' + "[" * 5000 + "]" * 5000 + "}"
    return Case(_jsonl(tmp, [_rec("n1"), deep]), ["--id-field", "id"], 1, 2, errors={"notes-1": "too_deep"})


def csv_ragged_row(tmp: Path) -> Case:
    text = f"id,text\nn1,{_quoted(NOTE)}\nn2,Dr. Zoltan Quenwick, MRN 0048-2231\nn3,{_quoted(NOTE)}\n"
    return Case(_csv(tmp, text), ["--id-field", "id"], 1, 3, errors={"notes-1": "ragged_row"})


def csv_embedded_newlines_and_quotes(tmp: Path) -> Case:
    note = 'He said "call me".\r\n' + NOTE + '\n"Quoted" line, with a comma.'
    text = f"id,text\r\nn1,{_quoted(note)}\r\nn2,{_quoted(NOTE)}\r\n"
    return Case(_csv(tmp, text), ["--id-field", "id"], 0, 2, exact_offsets=True)


def csv_unclosed_quote(tmp: Path) -> Case:
    text = f'id,text\nn1,{_quoted(NOTE)}\nn2,"Dr. Zoltan Quenwick never closed\nn3,{_quoted(NOTE)}\n'
    # The broken row swallows the rest of the file: one failed record per physical line (3 lines).
    bad = {f"notes-{i}": "malformed_csv" for i in (1, 2, 3)}
    return Case(_csv(tmp, text), ["--id-field", "id"], 1, 4, errors=bad)


def csv_missing_text_column(tmp: Path) -> Case:
    return Case(
        _csv(tmp, f"id,note\nn1,{_quoted(NOTE)}\n"), ["--id-field", "id"], 2, message="no column 'text'"
    )


def csv_latin1_bytes(tmp: Path) -> Case:
    data = (
        f"id,text\nn1,{_quoted(NOTE)}\n".encode()
        + b"n2,"
        + _quoted(NOTE).encode("utf-8").replace(b"Seen", b"S\xe9en")
        + b"\n"
    )
    src = _csv(tmp, data)
    return Case(
        src, ["--id-field", "id", "--encoding-errors", "latin-1"], 0, 2, warnings={"n2": "decoded_latin1"}
    )


def csv_latin1_bytes_fail(tmp: Path) -> Case:
    data = (
        f"id,text\nn1,{_quoted(NOTE)}\n".encode()
        + b"n2,"
        + _quoted(NOTE).encode().replace(b"Seen", b"S\xe9en")
        + b"\n"
    )
    return Case(_csv(tmp, data), ["--id-field", "id"], 1, 2, errors={"notes-1": "decode_error"})


def parquet_null_note(tmp: Path) -> Case:
    src = tmp / "notes.parquet"
    pq.write_table(pa.table({"id": ["n1", "n2"], "text": [NOTE, None]}), src)
    return Case(src, ["--id-field", "id"], 0, 2)


def parquet_int_text_column(tmp: Path) -> Case:
    src = tmp / "notes.parquet"
    pq.write_table(pa.table({"id": ["n1"], "text": [99887766]}), src)
    return Case(src, ["--id-field", "id"], 2, message="holds int64 values, not strings")


def not_a_parquet_file(tmp: Path) -> Case:
    src = tmp / "notes.parquet"
    src.write_bytes(NOTE.encode())
    return Case(src, [], 2, message="is not a readable Parquet file")


CASES: list[Callable[[Path], Case]] = [
    empty_file,
    binary_file,
    nul_bytes,
    non_utf8_fail,
    non_utf8_replace,
    non_utf8_latin1,
    utf8_bom,
    crlf_line_ends,
    unreadable_file,
    symlink_loop,
    dangling_symlink,
    fifo_named_txt,
    five_mb_line_without_newline,
    malformed_jsonl_line,
    missing_text_field,
    null_text_field,
    non_string_text_field,
    duplicate_ids,
    jsonl_lone_surrogate,
    jsonl_bom,
    jsonl_non_utf8_replace,
    jsonl_too_deep,
    csv_ragged_row,
    csv_embedded_newlines_and_quotes,
    csv_unclosed_quote,
    csv_missing_text_column,
    csv_latin1_bytes,
    csv_latin1_bytes_fail,
    parquet_null_note,
    parquet_int_text_column,
    not_a_parquet_file,
]


def _run(case: Case, out: Path, *more: str) -> Result:
    args = ["redact", str(case.src), "-o", str(out), "--rules-only", *case.options, *more]
    return CliRunner().invoke(cli, args)


def _lines(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _assert_no_phi(*texts: str | bytes) -> None:
    for t in texts:
        s = t.decode("utf-8", "replace") if isinstance(t, bytes) else t
        for phi in PHI_STRINGS:
            assert phi not in s, phi


def _output_files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("make", CASES, ids=[c.__name__ for c in CASES])
def test_bad_input_gets_a_clear_error_and_the_batch_goes_on(
    tmp_path: Path, make: Callable[[Path], Case], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    case = make(tmp_path)
    out = tmp_path / "out"
    result = _run(case, out)
    assert result.exit_code == case.exit, result.output
    assert "Traceback" not in result.output
    _assert_no_phi(result.output, caplog.text)
    if case.exit == 2:
        assert case.message in result.output
        assert not out.exists()  # nothing written
        return
    errors = _lines(out / "errors.jsonl")
    warnings = _lines(out / "warnings.jsonl")
    assert {str(e["id"]): e["error"] for e in errors} == case.errors
    assert {str(w["id"]): w["warning"] for w in warnings} == case.warnings
    assert all(set(e) <= {"id", "position", "stage", "error"} for e in errors)  # never text
    # Nothing lost: the input count is redacted + failed, and the summary says so.
    failed = len(case.errors)
    assert (
        f"input documents: {case.inputs} = {case.inputs - failed} redacted + {failed} failed" in result.output
    )
    files = _output_files(out)
    _assert_no_phi(*files.values())
    assert any(b"[NAME]" in v for v in files.values())  # the good notes were redacted
    for doc_id in case.errors:
        assert f"document {doc_id} cannot be read" in caplog.text  # the log names the document
    if case.exact_offsets:
        _check_offsets(case, tmp_path)


def _originals(case: Case) -> dict[str, str]:
    """The input documents as decoded (what phi_spans offsets index)."""
    from phiscrub.io.shapes import open_source

    policy = (
        case.options[case.options.index("--encoding-errors") + 1]
        if "--encoding-errors" in case.options
        else "fail"
    )
    id_field = "id" if "--id-field" in case.options else None
    source = open_source(case.src, id_field=id_field, encoding_errors=policy)
    return {d.id: d.text for d in source.documents() if not d.metadata.get("read_error")}


def _check_offsets(case: Case, tmp_path: Path) -> None:
    out = tmp_path / "audit"
    result = _run(case, out, "--audit-text")
    assert result.exit_code == case.exit
    originals = _originals(case)
    rows = _lines(out / "phi_spans.jsonl")
    assert rows
    for row in rows:
        text = originals[str(row["doc_id"])]
        assert text[int(row["start"]) : int(row["end"])] == row["text"]  # type: ignore[call-overload]
    assert {r["text"] for r in rows} >= {"Zoltan Quenwick", "03/12/2019", "0048-2231"}


def test_the_table_tries_at_least_20_kinds_of_bad_input() -> None:
    kinds = [c.__name__ for c in CASES] + [c.__name__ for c in CONVERT_CASES]
    assert len(set(kinds)) == len(kinds) >= 20
    print(f"\nbad-input kinds tried: {len(kinds)} (redact {len(CASES)}, convert {len(CONVERT_CASES)})")


@pytest.mark.slow
def test_fifty_mb_single_note(tmp_path: Path) -> None:
    """A 50 MB note (PHI at both ends of a long clinical filler) is redacted whole (about 40 CPU s)."""
    src = tmp_path / "notes"
    src.mkdir()
    sentence = "the patient is stable and was given fluids overnight. "
    (src / "huge.txt").write_text(
        NOTE + sentence * (50_000_000 // len(sentence) + 1) + NOTE, encoding="utf-8"
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["redact", str(src), "-o", str(out), "--rules-only"])
    assert result.exit_code == 0, result.output
    assert "input documents: 1 = 1 redacted + 0 failed" in result.output
    data = (out / "huge.txt").read_bytes()
    assert len(data) > 50_000_000
    assert data.count(b"[NAME]") == 2 and data.count(b"[DATE]") == 2
    _assert_no_phi(data[:4096], data[-4096:], result.output)


# -- convert: malformed BRAT and i2b2 -----------------------------------------------------------------


@dataclass
class ConvertCase:
    src: Path
    fmt: str
    problems: list[str]  # regexes each reported problem line must match, in order
    converted: int


def _brat(tmp: Path, ann: str) -> Path:
    src = tmp / "brat"
    src.mkdir()
    (src / "good.txt").write_text(NOTE, encoding="utf-8")
    (src / "good.ann").write_text("T1\tNAME 12 27\tZoltan Quenwick\n", encoding="utf-8")
    (src / "bad.txt").write_text(NOTE, encoding="utf-8")
    (src / "bad.ann").write_text(ann, encoding="utf-8")
    return src


def brat_offsets_outside_text(tmp: Path) -> ConvertCase:
    src = _brat(tmp, "T1\tNAME 12 900\tZoltan Quenwick\nT2\tDATE 31 41\t03/12/2019\n")
    return ConvertCase(src, "brat", [r"\[doc bad\] span_offset span T1 \[12:900\]"], 2)


def brat_surface_mismatch(tmp: Path) -> ConvertCase:
    src = _brat(tmp, "T1\tNAME 12 27\tZoltan Quenwicx\n")
    return ConvertCase(src, "brat", [r"\[doc bad\] surface_mismatch span T1 \[12:27\]"], 2)


def brat_malformed_line(tmp: Path) -> ConvertCase:
    src = _brat(tmp, "T1 NAME Zoltan Quenwick no tabs\n")
    return ConvertCase(src, "brat", [r"\[doc bad\] malformed_line: \.ann line 1"], 2)


_I2B2 = '<?xml version="1.0" encoding="UTF-8" ?>\n<deIdi2b2><TEXT><![CDATA[{text}]]></TEXT><TAGS>{tags}</TAGS></deIdi2b2>\n'


def _i2b2(tmp: Path, bad: str) -> Path:
    src = tmp / "xml"
    src.mkdir()
    tag = '<NAME id="P0" start="12" end="27" text="Zoltan Quenwick" TYPE="PATIENT" comment="" />'
    (src / "good.xml").write_text(_I2B2.format(text=NOTE, tags=tag), encoding="utf-8")
    (src / "bad.xml").write_text(bad, encoding="utf-8")
    return src


def i2b2_malformed_xml(tmp: Path) -> ConvertCase:
    src = _i2b2(tmp, '<?xml version="1.0"?><deIdi2b2><TEXT><![CDATA[Dr. Zoltan Quenwick never closed')
    return ConvertCase(src, "i2b2", [r"malformed_file: malformed XML in .*bad\.xml: .*line 1"], 1)


def i2b2_offsets_outside_text(tmp: Path) -> ConvertCase:
    tag = '<DATE id="P1" start="31" end="999" text="03/12/2019" TYPE="DATE" comment="" />'
    src = _i2b2(tmp, _I2B2.format(text=NOTE, tags=tag))
    return ConvertCase(src, "i2b2", [r"\[doc bad\] span_offset span P1 \[31:999\]"], 2)


CONVERT_CASES: list[Callable[[Path], ConvertCase]] = [
    brat_offsets_outside_text,
    brat_surface_mismatch,
    brat_malformed_line,
    i2b2_malformed_xml,
    i2b2_offsets_outside_text,
]


@pytest.mark.parametrize("make", CONVERT_CASES, ids=[c.__name__ for c in CONVERT_CASES])
def test_convert_reports_malformed_annotations_by_file_line_and_doc(
    tmp_path: Path, make: Callable[[Path], ConvertCase], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    case = make(tmp_path)
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(
        cli, ["convert", str(case.src), str(out), "--from", case.fmt, "--to", "jsonl"]
    )
    assert result.exit_code == 0, result.output
    problems = [ln for ln in result.output.splitlines() if ln.startswith("problem:")]
    assert len(problems) == len(case.problems)
    for line, pattern in zip(problems, case.problems):
        assert re.search(pattern, line), line
    # The batch goes on: the good documents (and the bad one, less its bad spans) are converted.
    assert f"converted {case.converted} documents" in result.output
    docs = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert "good" in {d["id"] for d in docs}
    _assert_no_phi(result.output, caplog.text)
