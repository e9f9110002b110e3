"""rewrite(): replacements applied at the right offsets, new spans on the replacements."""

from __future__ import annotations

import pytest

from phiscrub.document import Document, Span
from phiscrub.errors import SpanOffsetError
from phiscrub.transform.rewrite import rewrite

TEXT = "Pt Ode Varnum seen 03/12/2019 by Dr Quist."
NAME = Span(3, 13, "PATIENT")
DATE = Span(19, 29, "DATE")
DOCTOR = Span(36, 41, "DOCTOR")


@pytest.mark.parametrize(
    ("replacements", "expected_text", "expected_surfaces"),
    [
        ([(NAME, "[NAME]")], "Pt [NAME] seen 03/12/2019 by Dr Quist.", ["[NAME]"]),
        (
            [(NAME, "X"), (DATE, "[DATE]"), (DOCTOR, "Longer Name Here")],
            "Pt X seen [DATE] by Dr Longer Name Here.",
            ["X", "[DATE]", "Longer Name Here"],
        ),
        # order of the input does not matter
        ([(DOCTOR, "B"), (NAME, "A")], "Pt A seen 03/12/2019 by Dr B.", ["A", "B"]),
        ([], TEXT, []),
        # touching spans are fine
        (
            [(Span(0, 2, "X"), "a"), (Span(2, 3, "Y"), "b")],
            "abOde Varnum seen 03/12/2019 by Dr Quist.",
            ["a", "b"],
        ),
        # whole text
        ([(Span(0, len(TEXT), "X"), "gone")], "gone", ["gone"]),
    ],
)
def test_rewrite_replaces_and_points_spans_at_replacements(
    replacements: list[tuple[Span, str]], expected_text: str, expected_surfaces: list[str]
) -> None:
    doc = Document("d1", TEXT, (NAME,), {"source": "x"})
    new = rewrite(doc, replacements)
    assert new.text == expected_text
    assert [new.text[s.start : s.end] for s in new.spans] == expected_surfaces
    new.validate()


def test_rewrite_keeps_id_copies_metadata_and_leaves_the_source_alone() -> None:
    doc = Document("d1", TEXT, (NAME,), {"source": "x"})
    new = rewrite(doc, [(NAME, "Y")])
    assert new.id == "d1" and dict(new.metadata) == {"source": "x"}
    assert new.metadata is not doc.metadata
    assert doc.text == TEXT and doc.spans == (NAME,)


def test_rewrite_keeps_score_and_source_and_maps_labels() -> None:
    span = Span(3, 13, "PATIENT", score=0.7, source="model")
    new = rewrite(
        Document("d", TEXT),
        [(span, "Z"), (DATE, "D")],
        label_map=lambda lab: "NAME" if lab == "PATIENT" else None,
    )
    assert len(new.spans) == 1
    (out,) = new.spans
    assert (out.label, out.score, out.source) == ("NAME", 0.7, "model")
    assert new.text == "Pt Z seen D by Dr Quist."


def test_rewrite_records_source_offsets_when_asked() -> None:
    new = rewrite(Document("d", TEXT), [(NAME, "AB"), (DOCTOR, "C")], record_offsets=True)
    assert new.metadata["source_offsets"] == [[3, 5, 3, 13], [28, 29, 36, 41]]
    assert "source_offsets" not in rewrite(Document("d", TEXT), [(NAME, "AB")]).metadata


def test_rewrite_empty_replacement_deletes_text_without_a_span() -> None:
    new = rewrite(Document("d", TEXT), [(Span(2, 13, "PATIENT"), "")])
    assert new.text == "Pt seen 03/12/2019 by Dr Quist."
    assert new.spans == ()


@pytest.mark.parametrize(
    ("a", "b"),
    [(Span(3, 13, "PATIENT"), Span(10, 20, "DATE")), (Span(3, 13, "PATIENT"), Span(3, 13, "DOCTOR"))],
)
def test_rewrite_rejects_overlaps_naming_offsets_only(a: Span, b: Span) -> None:
    with pytest.raises(ValueError) as info:
        rewrite(Document("d7", TEXT), [(a, "x"), (b, "y")])
    message = str(info.value)
    assert f"[{a.start}:{a.end}]" in message and f"[{b.start}:{b.end}]" in message and "d7" in message
    assert "Varnum" not in message


def test_rewrite_rejects_spans_past_the_end() -> None:
    with pytest.raises(SpanOffsetError):
        rewrite(Document("d", "short"), [(Span(2, 9, "X"), "y")])
