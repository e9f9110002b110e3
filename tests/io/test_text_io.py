"""Plain-text reading and writing (one document per .txt file)."""

from __future__ import annotations

from pathlib import Path

from phiscrub.document import Document
from phiscrub.io.text import TextReader, TextWriter


def test_folder_ids_are_relative_paths_and_text_is_byte_exact(tmp_path: Path) -> None:
    (tmp_path / "ward" / "b").mkdir(parents=True)
    (tmp_path / "a.txt").write_bytes("Zoë Quenwick\r\nDOB:\t03/04/2031\r\n".encode())
    (tmp_path / "ward" / "b" / "c.txt").write_bytes("\ufeffÑandú\n".encode())
    (tmp_path / "ward" / "skip.md").write_text("not a note", encoding="utf-8")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.txt").write_text("hidden", encoding="utf-8")
    reader = TextReader()
    docs = list(reader.read(tmp_path))
    assert not reader.problems
    assert [(d.id, d.text, d.spans) for d in docs] == [
        ("a", "Zoë Quenwick\r\nDOB:\t03/04/2031\r\n", ()),
        ("ward/b/c", "\ufeffÑandú\n", ()),
    ]


def test_single_file_id_is_its_stem(tmp_path: Path) -> None:
    (tmp_path / "note 1.txt").write_text("Ode", encoding="utf-8")
    (doc,) = TextReader().read(tmp_path / "note 1.txt")
    assert doc.id == "note 1"


def test_non_utf8_file_is_reported_and_others_read(tmp_path: Path) -> None:
    (tmp_path / "bad.txt").write_bytes(b"Zo\xeb Quenwick")
    (tmp_path / "good.txt").write_text("Ode", encoding="utf-8")
    reader = TextReader()
    docs = list(reader.read(tmp_path))
    assert [d.id for d in docs] == ["good"]
    assert [(p.doc_id, p.kind) for p in reader.problems] == [("bad", "decode_error")]


def test_write_then_read_round_trips(tmp_path: Path) -> None:
    docs = [Document("x/y", "Zoë\r\n\tÑ", ()), Document("z", "", ())]
    written = TextWriter().write(docs, tmp_path / "out")
    assert written == [tmp_path / "out" / "x" / "y.txt", tmp_path / "out" / "z.txt"]
    back = list(TextReader().read(tmp_path / "out"))
    assert [(d.id, d.text) for d in back] == [("x/y", "Zoë\r\n\tÑ"), ("z", "")]


def test_single_non_utf8_file_is_reported_by_its_id(tmp_path: Path) -> None:
    (tmp_path / "bad.txt").write_bytes(b"Zo\xeb Quenwick")
    reader = TextReader()
    assert list(reader.read(tmp_path / "bad.txt")) == []
    assert [(p.doc_id, p.kind) for p in reader.problems] == [("bad", "decode_error")]
    assert "Quenwick" not in str(reader.problems[0])
