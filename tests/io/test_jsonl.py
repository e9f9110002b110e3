"""Standoff JSONL reading/writing and the spans-only standoff audit file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from phiscrub.document import Document, Span
from phiscrub.io.jsonl import JsonlReader, JsonlWriter

DOCS = [
    Document(
        "n1",
        "Zoë Quenwick\r\nDOB:\t03/04/2031\u2028line sep, Ñandú",
        (
            Span(0, 12, "PATIENT", score=0.875, source="model"),
            Span(19, 29, "DATE", source="rule:date"),
            Span(40, 45, "CITY"),
        ),
        {"ward": "7B", "tags": ["a", "b"], "n": 3},
    ),
    Document("n2", "", (), {}),
    Document(
        "n3", "Ode Varnish", (Span(0, 11, "NAME", score=0.5, source="lexicon"),), {"nested": {"x": None}}
    ),
]


def test_round_trip_is_exact(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "docs.jsonl"
    JsonlWriter().write(DOCS, path)
    reader = JsonlReader()
    back = list(reader.read(path))
    assert not reader.problems
    assert [(d.id, d.text, d.metadata) for d in back] == [(d.id, d.text, d.metadata) for d in DOCS]
    assert [[(s.start, s.end, s.label, s.score, s.source) for s in d.spans] for d in back] == [
        [(s.start, s.end, s.label, s.score, s.source) for s in d.spans] for d in DOCS
    ]
    for doc in back:
        for span in doc.spans:
            assert doc.text[span.start : span.end] == doc.surface(span)
    # Writing what was read gives the same bytes.
    JsonlWriter().write(back, tmp_path / "again.jsonl")
    assert (tmp_path / "again.jsonl").read_bytes() == path.read_bytes()
    assert len(path.read_text(encoding="utf-8").splitlines()) == len(DOCS)


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ('{"id": "x", "text": "Ode", ', "malformed_record"),
        ('["not", "an", "object"]', "malformed_record"),
        ('{"id": "x", "spans": []}', "malformed_record"),
        ('{"id": "x", "text": 5}', "malformed_record"),
        ('{"id": "x", "text": "Ode", "spans": {"start": 0}}', "malformed_record"),
        ('{"id": "x", "text": "Ode", "metadata": [1]}', "malformed_record"),
    ],
)
def test_malformed_line_is_reported_and_skipped(tmp_path: Path, line: str, kind: str) -> None:
    good = json.dumps(
        {"id": "ok", "text": "Ilsa Marrow", "spans": [{"start": 0, "end": 11, "label": "DOCTOR"}]}
    )
    path = tmp_path / "batch.jsonl"
    path.write_text(f"{good}\n{line}\n\n{good}\n", encoding="utf-8")
    reader = JsonlReader()
    docs = list(reader.read(path))
    assert [d.id for d in docs] == ["ok", "ok"]
    (problem,) = reader.problems
    assert problem.kind == kind
    assert "batch" in problem.doc_id or problem.doc_id == "x"
    assert "Ode" not in str(problem)


@pytest.mark.parametrize(
    ("span", "kind"),
    [
        ({"start": 0, "end": 99, "label": "DOCTOR"}, "span_offset"),
        ({"start": 5, "end": 5, "label": "DOCTOR"}, "span_offset"),
        ({"start": "0", "end": 4, "label": "DOCTOR"}, "span_offset"),
        ({"end": 4, "label": "DOCTOR"}, "span_offset"),
        ({"start": 0, "end": 4, "label": "DOCTOR", "text": "Ilsb"}, "surface_mismatch"),
        ({"start": 0, "end": 4, "label": "MYSTERY"}, "unknown_label"),
        ({"start": 0, "end": 4}, "malformed_span"),
        ({"start": 0, "end": 4, "label": "DOCTOR", "score": "high"}, "malformed_span"),
        ("not a span", "malformed_span"),
    ],
)
def test_bad_span_is_reported_with_doc_and_span_index(tmp_path: Path, span: object, kind: str) -> None:
    good = {"start": 5, "end": 11, "label": "DOCTOR", "text": "Marrow"}
    path = tmp_path / "d.jsonl"
    path.write_text(
        json.dumps({"id": "d7", "text": "Ilsa Marrow", "spans": [good, span]}) + "\n", encoding="utf-8"
    )
    reader = JsonlReader()
    (doc,) = reader.read(path)
    assert [(s.start, s.end) for s in doc.spans] == [(5, 11)]
    (problem,) = reader.problems
    assert (problem.doc_id, problem.kind, problem.span_id) == ("d7", kind, "1")


def test_missing_id_defaults_to_file_stem_and_line(tmp_path: Path) -> None:
    path = tmp_path / "notes.ndjson"
    path.write_text('\n{"text": "Ode"}\n', encoding="utf-8")
    (doc,) = JsonlReader().read(path)
    assert doc.id == "notes-2" and doc.spans == () and doc.metadata == {}


def test_corpus_mapping_applies_to_jsonl_labels(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    record = {
        "id": "m",
        "text": "Varón de 53 años",
        "spans": [{"start": 0, "end": 5, "label": "SEXO_SUJETO_ASISTENCIA"}],
    }
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    (doc,) = JsonlReader(corpus="meddocan").read(path)
    assert [s.label for s in doc.spans] == ["OTHER"]
