"""BRAT standoff reading and writing."""

from __future__ import annotations

from pathlib import Path

import pytest

from phiscrub.document import Document, Span
from phiscrub.io.brat import BratReader, BratWriter

TEXT_CRLF = "Paciente: Marisol Ébano Túrrez\r\nFecha:\t12/05/2030\r\nVive en Villaquesa."


def _write_pair(folder: Path, stem: str, text: str, ann: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.txt").write_bytes(text.encode("utf-8"))
    (folder / f"{stem}.ann").write_bytes(ann.encode("utf-8"))


def _surfaces(doc: Document) -> list[tuple[str, str]]:
    return [(s.label, doc.text[s.start : s.end]) for s in doc.spans]


@pytest.mark.parametrize(
    ("text", "ann", "corpus", "expected"),
    [
        pytest.param(
            TEXT_CRLF,
            "T1\tNOMBRE_SUJETO_ASISTENCIA 10 30\tMarisol Ébano Túrrez\n"
            "T2\tFECHAS 39 49\t12/05/2030\n"
            "T3\tTERRITORIO 59 69\tVillaquesa\n",
            "meddocan",
            [("PATIENT", "Marisol Ébano Túrrez"), ("DATE", "12/05/2030"), ("LOCATION", "Villaquesa")],
            id="crlf-text-exact-offsets",
        ),
        pytest.param(
            "Dra. Quenwick y Dra. Rambla Ortiz",
            "T1\tNOMBRE_PERSONAL_SANITARIO 5 13;21 33\tQuenwick Rambla Ortiz\n",
            None,
            [("NOMBRE_PERSONAL_SANITARIO", "Quenwick"), ("NOMBRE_PERSONAL_SANITARIO", "Rambla Ortiz")],
            id="discontinuous-one-span-per-fragment",
        ),
        pytest.param(
            "Zorblat visitó Ñandú.",
            "T1\tNOMBRE_SUJETO_ASISTENCIA 0 7\tZorblat\n"
            "#1\tAnnotatorNotes T1\tnota libre\n"
            "A1\tNegation T1\n"
            "R1\tRel Arg1:T1 Arg2:T2\n"
            "\n"
            "T2\tTERRITORIO 15 20\tÑandú\r\n",
            "meddocan",
            [("PATIENT", "Zorblat"), ("LOCATION", "Ñandú")],
            id="non-text-bound-lines-ignored",
        ),
    ],
)
def test_reads_annotations_with_exact_offsets(
    tmp_path: Path, text: str, ann: str, corpus: str | None, expected: list[tuple[str, str]]
) -> None:
    _write_pair(tmp_path, "n1", text, ann)
    reader = BratReader(corpus=corpus)
    (doc,) = reader.read(tmp_path)
    assert not reader.problems
    assert doc.id == "n1" and doc.text == text
    assert _surfaces(doc) == expected


@pytest.mark.parametrize(
    ("ann_line", "kind", "span_id", "offsets"),
    [
        ("T7\tFECHAS 60 200\t12/05/2030", "span_offset", "T7", (60, 200)),
        ("T7\tFECHAS 39 49\t12/06/2030", "surface_mismatch", "T7", (39, 49)),
        ("T7\tCOSA_RARA 39 49\t12/05/2030", "unknown_label", "T7", (39, 49)),
        ("T7\tFECHAS 39 x\t12/05/2030", "malformed_line", "T7", (None, None)),
        ("T7\tFECHAS 5 9;60 200\tx y", "span_offset", "T7", (60, 200)),
        ("T7\tFECHAS 39 44;45 49\t12/05 2031", "surface_mismatch", "T7", (39, 49)),
    ],
)
def test_bad_span_is_reported_and_dropped_while_the_batch_continues(
    tmp_path: Path, ann_line: str, kind: str, span_id: str, offsets: tuple[int | None, int | None]
) -> None:
    good = "T1\tNOMBRE_SUJETO_ASISTENCIA 10 30\tMarisol Ébano Túrrez\n"
    _write_pair(tmp_path, "a", TEXT_CRLF, good)
    _write_pair(tmp_path, "b", TEXT_CRLF, good + ann_line + "\n")
    _write_pair(tmp_path, "c", TEXT_CRLF, good)
    reader = BratReader(corpus="meddocan")
    docs = list(reader.read(tmp_path))
    assert [d.id for d in docs] == ["a", "b", "c"]
    assert all(_surfaces(d) == [("PATIENT", "Marisol Ébano Túrrez")] for d in docs)
    (problem,) = reader.problems
    assert (problem.doc_id, problem.kind, problem.span_id) == ("b", kind, span_id)
    assert (problem.start, problem.end) == offsets
    assert "Marisol" not in str(problem) and "12/05" not in str(problem)


def test_ann_without_txt_is_reported_and_txt_without_ann_has_no_spans(tmp_path: Path) -> None:
    (tmp_path / "lonely.ann").write_text("T1\tFECHAS 0 4\t2030\n", encoding="utf-8")
    (tmp_path / "bare.txt").write_text("Nada que ver.", encoding="utf-8")
    reader = BratReader()
    docs = list(reader.read(tmp_path))
    assert [(d.id, d.spans) for d in docs] == [("bare", ())]
    assert [(p.doc_id, p.kind) for p in reader.problems] == [("lonely", "missing_file")]


def test_single_file_path_reads_its_pair(tmp_path: Path) -> None:
    _write_pair(tmp_path, "n1", TEXT_CRLF, "T1\tFECHAS 39 49\t12/05/2030\n")
    for path in (tmp_path / "n1.txt", tmp_path / "n1.ann"):
        (doc,) = BratReader().read(path)
        assert doc.id == "n1" and len(doc.spans) == 1


def test_writer_renumbers_ids_and_round_trips_text_and_spans(tmp_path: Path) -> None:
    text = "Zorblat Quenwick\r\nvive en\tCalle Falsa 12,\nÑandú"
    doc = Document(
        "ward/n9",
        text,
        (
            Span(36, 41, "CITY"),
            Span(0, 16, "PATIENT"),
            Span(8, 26, "OTHER"),  # crosses the \r\n
            Span(26, 41, "STREET"),  # contains \t-free text then \n
        ),
    )
    BratWriter().write([doc], tmp_path)
    ann_lines = (tmp_path / "ward" / "n9.ann").read_text(encoding="utf-8").splitlines()
    assert [line.split("\t")[0] for line in ann_lines] == ["T1", "T2", "T3", "T4"]
    assert (tmp_path / "ward" / "n9.txt").read_bytes() == text.encode("utf-8")
    reader = BratReader()
    (back,) = reader.read(tmp_path)
    assert not reader.problems
    assert back.id == "ward/n9" and back.text == text
    assert [(s.start, s.end, s.label) for s in back.spans] == [(s.start, s.end, s.label) for s in doc.spans]


def test_single_file_with_dots_in_its_name_reads_its_own_pair(tmp_path: Path) -> None:
    (tmp_path / "note.v2.txt").write_text("Seen on 03/12/2019.", encoding="utf-8")
    (tmp_path / "note.v2.ann").write_text("T1\tDATE 8 18\t03/12/2019\n", encoding="utf-8")
    reader = BratReader()
    docs = list(reader.read(tmp_path / "note.v2.txt"))
    assert [d.id for d in docs] == ["note.v2"] and not reader.problems
    assert [(s.start, s.end, s.label) for s in docs[0].spans] == [(8, 18, "DATE")]
