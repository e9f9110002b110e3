"""CoNLL BIO reading (lenient about IOB1/BIOES/BILOU) and writing."""

from __future__ import annotations

from pathlib import Path

import pytest

from phiscrub.document import Document, Span
from phiscrub.io.conll import ConllReader, ConllWriter, decode_tags, to_bio


def _surfaces(doc: Document) -> list[tuple[str, str]]:
    return [(s.label, doc.text[s.start : s.end]) for s in doc.spans]


def test_reads_tokens_into_spaced_text_and_sentences_into_lines(tmp_path: Path) -> None:
    path = tmp_path / "notes.conll"
    path.write_text(
        "Zorblat\tB-PATIENT\nQuenwick\tI-PATIENT\nvisitó\tO\nÑandú\tB-CITY\n.\tO\n\n"
        "DOB NN O\n03/04/2031 CD B-DATE\n",
        encoding="utf-8",
    )
    reader = ConllReader()
    (doc,) = reader.read(path)
    assert not reader.problems
    assert doc.id == "notes"
    assert doc.text == "Zorblat Quenwick visitó Ñandú .\nDOB 03/04/2031"
    assert _surfaces(doc) == [("PATIENT", "Zorblat Quenwick"), ("CITY", "Ñandú"), ("DATE", "03/04/2031")]


@pytest.mark.parametrize(
    ("tags", "entities"),
    [
        (["B-A", "I-A", "O", "B-A"], [(0, 1, "A"), (3, 3, "A")]),
        (["I-A", "I-A", "O", "I-A"], [(0, 1, "A"), (3, 3, "A")]),  # IOB1: I- after O starts
        (["B-A", "I-B", "I-B"], [(0, 0, "A"), (1, 2, "B")]),  # type switch starts a new entity
        (["B-A", "B-A"], [(0, 0, "A"), (1, 1, "A")]),
        (["S-A", "B-B", "E-B", "S-A"], [(0, 0, "A"), (1, 2, "B"), (3, 3, "A")]),  # BIOES
        (["U-A", "B-B", "I-B", "L-B", "O"], [(0, 0, "A"), (1, 3, "B")]),  # BILOU
        (["B-A", "E-A", "I-A"], [(0, 1, "A"), (2, 2, "A")]),  # I- after an end starts again
        (["E-A"], [(0, 0, "A")]),
        (["B-A", "weird", "I-A"], [(0, 0, "A"), (2, 2, "A")]),  # a non-tag reads as O
        (["O", "O"], []),
        ([], []),
    ],
)
def test_decode_tags_is_lenient(tags: list[str], entities: list[tuple[int, int, str]]) -> None:
    assert decode_tags(tags) == entities


def test_documents_split_on_docstart_and_doc_id_lines(tmp_path: Path) -> None:
    path = tmp_path / "batch.bio"
    path.write_text(
        "-DOCSTART- -X- O O\n\nOde B-PATIENT\n\n-DOCSTART- -X- O O\n\nIlsa B-DOCTOR\n\n"
        "# doc_id = note-7\n# a comment line\nVarnish B-PATIENT\n# O\n\n# doc_id = empty-note\n",
        encoding="utf-8",
    )
    reader = ConllReader()
    docs = list(reader.read(path))
    assert not reader.problems
    assert [(d.id, d.text) for d in docs] == [
        ("batch-1", "Ode"),
        ("batch-2", "Ilsa"),
        ("note-7", "Varnish #"),
        ("empty-note", ""),
    ]
    assert [_surfaces(d) for d in docs] == [
        [("PATIENT", "Ode")],
        [("DOCTOR", "Ilsa")],
        [("PATIENT", "Varnish")],
        [],
    ]


def test_bad_lines_and_unknown_labels_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "x.conll"
    path.write_text(
        "# doc_id = d1\nOde B-GADGET\nlonely\nVarnish B-PATIENT\nzz Q-PATIENT\n", encoding="utf-8"
    )
    reader = ConllReader()
    (doc,) = reader.read(path)
    assert doc.text == "Ode Varnish zz"
    assert _surfaces(doc) == [("PATIENT", "Varnish")]
    kinds = sorted((p.doc_id, p.kind) for p in reader.problems)
    assert kinds == [("d1", "malformed_line"), ("d1", "malformed_line"), ("d1", "unknown_label")]
    assert all("Ode" not in str(p) and "lonely" not in str(p) for p in reader.problems)


def test_writer_convention_tags_partly_covered_tokens_and_restarts_b_per_span() -> None:
    doc = Document(
        "d",
        "Ms Zoë-Ann Quenwick, Ñandú.\nVisit 2031-04-03 ok",
        (Span(3, 6, "PATIENT"), Span(7, 19, "PATIENT"), Span(21, 24, "CITY"), Span(37, 42, "DATE")),
    )
    assert to_bio(doc) == [
        [
            ("Ms", "O"),
            ("Zoë", "B-PATIENT"),
            ("-", "O"),
            ("Ann", "B-PATIENT"),
            ("Quenwick", "I-PATIENT"),
            (",", "O"),
            ("Ñandú", "B-CITY"),  # only partly covered by the span
            (".", "O"),
        ],
        # The DATE span covers "1-04-": every token it touches is inside.
        [
            ("Visit", "O"),
            ("2031", "B-DATE"),
            ("-", "I-DATE"),
            ("04", "I-DATE"),
            ("-", "I-DATE"),
            ("03", "O"),
            ("ok", "O"),
        ],
    ]


def test_write_then_read_keeps_tokens_and_entities(tmp_path: Path) -> None:
    docs = [
        Document(
            "n1",
            "Pt:\tZorblat  Quenwick\r\nDOB 03/04/2031, Ñandú.",
            (Span(4, 21, "PATIENT"), Span(27, 37, "DATE"), Span(39, 44, "CITY")),
        ),
        Document("n2", "nothing here", ()),
    ]
    ConllWriter().write(docs, tmp_path / "out.conll")
    reader = ConllReader()
    back = list(reader.read(tmp_path / "out.conll"))
    assert not reader.problems
    assert [d.id for d in back] == ["n1", "n2"]
    assert back[0].text == "Pt : Zorblat Quenwick\nDOB 03 / 04 / 2031 , Ñandú ."
    assert _surfaces(back[0]) == [
        ("PATIENT", "Zorblat Quenwick"),
        ("DATE", "03 / 04 / 2031"),
        ("CITY", "Ñandú"),
    ]
    assert back[1].text == "nothing here" and back[1].spans == ()


def test_reads_a_folder_of_conll_files(tmp_path: Path) -> None:
    (tmp_path / "a.conll").write_text("Ode B-PATIENT\n", encoding="utf-8")
    (tmp_path / "b.tsv").write_text("Ilsa\tB-DOCTOR\n", encoding="utf-8")
    (tmp_path / "readme.md").write_text("not data", encoding="utf-8")
    docs = list(ConllReader().read(tmp_path))
    assert [(d.id, d.text) for d in docs] == [("a", "Ode"), ("b", "Ilsa")]
