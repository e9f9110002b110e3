"""The reader contract of phiscrub.io.base: span checks, problems, label mapping."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from phiscrub.document import Document
from phiscrub.errors import ConfigError, InputFormatError
from phiscrub.io.base import (
    PROBLEM_KINDS,
    FolderWriter,
    PathLike,
    Problem,
    Reader,
    doc_path,
    files_with_suffix,
    input_files,
    surfaces_match,
)
from phiscrub.labels import label_digest

TEXT = "Pt Zorblat Quenwick\r\nseen 03/04/2031\tin Ñandú."


class _ListReader(Reader):
    """A reader over in-memory (start, end, label, surface) tuples, for testing the base helpers."""

    def __init__(self, items: list[tuple[Any, Any, str, str | None]], corpus: str | None = None) -> None:
        super().__init__(corpus)
        self.items = items

    def read(self, path: PathLike) -> Iterator[Document]:
        spans = []
        for i, (s, e, label, surface) in enumerate(self.items):
            span = self.make_span(str(path), TEXT, s, e, label, span_id=f"S{i}", surface=surface)
            if span is not None:
                spans.append(span)
        yield Document(str(path), TEXT, tuple(spans))


@pytest.mark.parametrize(
    ("start", "end", "label", "surface", "kind"),
    [
        (3, 19, "PATIENT", "Zorblat Quenwick", None),
        (3, 19, "PATIENT", None, None),
        (26, 36, "DATE", "03/04/2031", None),
        (40, 45, "CITY", "Ñandú", None),
        (-1, 4, "PATIENT", None, "span_offset"),
        (5, 5, "PATIENT", None, "span_offset"),
        (9, 4, "PATIENT", None, "span_offset"),
        (40, 400, "CITY", None, "span_offset"),
        ("3", 19, "PATIENT", None, "span_offset"),
        (3.0, 19, "PATIENT", None, "span_offset"),
        (3, 19, "PATIENT", "Zorblat Quenwicx", "surface_mismatch"),
        (3, 19, "NOT_A_PHI_TYPE", None, "unknown_label"),
    ],
)
def test_make_span_keeps_good_spans_and_reports_bad_ones(
    start: Any, end: Any, label: str, surface: str | None, kind: str | None
) -> None:
    reader = _ListReader([(start, end, label, surface)])
    (doc,) = reader.read("d1")
    if kind is None:
        assert not reader.problems
        (span,) = doc.spans
        assert (span.start, span.end, span.label) == (start, end, label)
        if surface is not None:
            assert doc.text[span.start : span.end] == surface
    else:
        assert doc.spans == ()
        (problem,) = reader.problems
        assert problem.kind == kind
        assert problem.doc_id == "d1"
        assert problem.span_id == "S0"
        assert kind in PROBLEM_KINDS


def test_problem_message_names_offsets_never_text() -> None:
    reader = _ListReader([(3, 19, "PATIENT", "Someone Else"), (3, 500, "PATIENT", None)])
    list(reader.read("d1"))
    rendered = " ".join(str(p) + repr(p.to_dict()) for p in reader.problems)
    assert "Zorblat" not in rendered and "Quenwick" not in rendered and "Someone" not in rendered
    assert "[3:19]" in str(reader.problems[0]) and "span S0" in str(reader.problems[0])
    assert reader.problems[1].to_dict() == {
        "doc_id": "d1",
        "kind": "span_offset",
        "message": reader.problems[1].message,
        "span_id": "S1",
        "start": 3,
        "end": 500,
    }


def test_surface_with_line_break_matches_spaced_recorded_surface() -> None:
    assert surfaces_match("Quenwick seen", "Quenwick\r\nseen")
    assert surfaces_match("a b", "a\tb")
    assert not surfaces_match("ab", "a b")


@pytest.mark.parametrize(
    ("corpus", "label", "stored"),
    [
        (None, "NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_SUJETO_ASISTENCIA"),
        ("meddocan", "NOMBRE_SUJETO_ASISTENCIA", "PATIENT"),
        ("meddocan", "SEXO_SUJETO_ASISTENCIA", "OTHER"),
        ("i2b2-2006", "ID", "IDNUM"),
        (None, "PATIENT", "PATIENT"),
        (None, "NAME", "NAME"),
    ],
)
def test_labels_are_mapped_to_fine_only_with_a_corpus(corpus: str | None, label: str, stored: str) -> None:
    reader = _ListReader([(3, 19, label, None)], corpus=corpus)
    (doc,) = reader.read("d1")
    assert [s.label for s in doc.spans] == [stored]
    assert not reader.problems


def test_unknown_label_problem_gives_a_digest_not_the_label() -> None:
    # The label comes from the user's file and may hold PHI (issue 18).
    reader = _ListReader([(3, 19, "WIDGET", None)], corpus="meddocan")
    list(reader.read("d1"))
    (problem,) = reader.problems
    assert problem.kind == "unknown_label" and "WIDGET" not in problem.message
    assert label_digest("WIDGET") in problem.message
    assert (problem.start, problem.end) == (3, 19)


def test_unknown_corpus_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        _ListReader([], corpus="nonexistent-corpus")


def test_read_all_returns_only_its_own_problems() -> None:
    reader = _ListReader([(0, 999, "DATE", None)])
    first = reader.read_all("a")
    second = reader.read_all("b")
    assert [p.doc_id for p in first.problems] == ["a"]
    assert [p.doc_id for p in second.problems] == ["b"]
    assert len(reader.problems) == 2
    assert not first.ok and len(second.documents) == 1


def test_problem_str_without_span() -> None:
    assert str(Problem("f.xml", "malformed_file", "bad XML")) == "[doc f.xml] malformed_file: bad XML"


@pytest.mark.parametrize("doc_id", ["../escape", "/abs/path", "", "a/../../b"])
def test_doc_path_refuses_ids_that_escape_the_folder(tmp_path: Path, doc_id: str) -> None:
    with pytest.raises(InputFormatError):
        doc_path(tmp_path, doc_id, ".txt")


def test_doc_path_creates_nested_folders(tmp_path: Path) -> None:
    out = doc_path(tmp_path, "ward/a/n1", ".txt")
    assert out == tmp_path / "ward" / "a" / "n1.txt" and out.parent.is_dir()


def _touch(root: Path, *names: str) -> None:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x", encoding="utf-8")


def test_input_files_gives_folder_files_with_relative_ids(tmp_path: Path) -> None:
    _touch(tmp_path, "b.conll", "a/c.bio", "d.txt")
    got = list(input_files(tmp_path, lambda root: files_with_suffix(root, (".conll", ".bio"))))
    assert got == [(tmp_path / "a" / "c.bio", "a/c"), (tmp_path / "b.conll", "b")]


def test_input_files_gives_a_single_file_with_its_stem(tmp_path: Path) -> None:
    _touch(tmp_path, "note.v2.xml")
    assert list(input_files(tmp_path / "note.v2.xml", lambda root: [])) == [
        (tmp_path / "note.v2.xml", "note.v2")
    ]


def test_input_files_refuses_a_missing_path_on_iteration(tmp_path: Path) -> None:
    files = input_files(tmp_path / "missing", lambda root: [])  # a generator: nothing checked yet
    with pytest.raises(InputFormatError):
        next(files)


class _PairWriter(FolderWriter):
    """Writes ``<id>.a`` and ``<id>.b`` per document, for testing FolderWriter."""

    def write_document(self, doc: Document, root: Path) -> list[Path]:
        paths = [doc_path(root, doc.id, ".a"), doc_path(root, doc.id, ".b")]
        for p in paths:
            p.write_text(doc.text, encoding="utf-8")
        return paths


def test_folder_writer_creates_the_folder_and_lists_files_in_document_order(tmp_path: Path) -> None:
    docs = [Document("n2", "Pt Zorblat"), Document("sub/n1", "seen 03/04/2031")]
    out = tmp_path / "new" / "out"
    written = _PairWriter().write(docs, out)
    assert written == [out / "n2.a", out / "n2.b", out / "sub" / "n1.a", out / "sub" / "n1.b"]
    assert (out / "sub" / "n1.b").read_text(encoding="utf-8") == "seen 03/04/2031"


def test_folder_writer_writes_nothing_for_no_documents(tmp_path: Path) -> None:
    assert _PairWriter().write([], tmp_path / "empty") == []
    assert (tmp_path / "empty").is_dir()


@pytest.mark.parametrize("fmt", ["brat", "i2b2", "conll", "jsonl", "txt", "csv", "parquet"])
def test_every_reader_takes_the_strict_flag(fmt: str) -> None:
    from phiscrub.io import get_reader

    assert get_reader(fmt).strict is False
    assert get_reader(fmt, strict=True).strict is True


def test_strict_reader_raises_the_problem_a_lenient_one_records() -> None:
    lenient = _ListReader([(3, 19, "PATIENT", "Zorblat Quenwicx"), (26, 36, "DATE", None)])
    (doc,) = lenient.read("n1")
    assert len(doc.spans) == 1 and [p.kind for p in lenient.problems] == ["surface_mismatch"]
    strict = _ListReader([(3, 19, "PATIENT", "Zorblat Quenwicx")])
    strict.strict = True
    with pytest.raises(InputFormatError, match=r"\[doc n1\] surface_mismatch span S0 \[3:19\]") as err:
        list(strict.read("n1"))
    assert "Zorblat" not in str(err.value) and not strict.problems
