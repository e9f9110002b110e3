"""The one standoff span schema (``phi_spans.jsonl``) and :func:`write_standoff`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from phiscrub.document import Document, Span
from phiscrub.io.standoff import STANDOFF_KEYS, standoff_line, write_standoff

DOCS = [
    Document("a", "Ode Varnish\u2028seen 03/04/2031", (Span(0, 11, "NAME", score=0.5, source="model"),)),
    Document("b", "", ()),
    Document("c", "Dr. Quenwick", (Span(4, 12, "DOCTOR", source="rule:name"), Span(0, 2, "X"))),
]


@pytest.mark.parametrize("audit_text", [False, True])
def test_write_standoff_writes_spans_and_text_only_on_request(tmp_path: Path, audit_text: bool) -> None:
    path = tmp_path / "audit" / "spans.jsonl"
    n = write_standoff(DOCS, path, audit_text=audit_text)
    lines = path.read_text(encoding="utf-8").split("\n")
    rows = [json.loads(line) for line in lines if line]
    assert n == len(rows) == 3
    assert rows[0] == {
        "doc_id": "a",
        "start": 0,
        "end": 11,
        "label": "NAME",
        "source": "model",
        **({"text": "Ode Varnish"} if audit_text else {}),
    }
    assert [r["doc_id"] for r in rows] == ["a", "c", "c"]
    raw = path.read_text(encoding="utf-8")
    assert ("Quenwick" in raw) is ("Varnish" in raw) is audit_text


def test_replaced_span_line_has_output_offsets_in_schema_order() -> None:
    line = standoff_line("n1#/name", Span(4, 23, "NAME", source="rule:name"), Span(4, 10, "NAME"), "x\u2028y")
    assert line.endswith("\n") and line.count("\n") == 1  # a line separator in the text stays escaped
    row = json.loads(line)
    assert list(row) == list(STANDOFF_KEYS)
    assert row == {
        "doc_id": "n1#/name",
        "start": 4,
        "end": 23,
        "label": "NAME",
        "source": "rule:name",
        "out_start": 4,
        "out_end": 10,
        "text": "x\u2028y",
    }
