from __future__ import annotations

import pytest

from phiscrub.detect.propagate import propagate_names
from phiscrub.document import Document, Span


def _run(text: str, surface: str, label: str = "PATIENT") -> list[tuple[str, str, str]]:
    i = text.index(surface)
    doc = Document("d", text)
    out = propagate_names(doc, [Span(i, i + len(surface), label)])
    return [(text[s.start : s.end], s.label, s.source) for s in out]


@pytest.mark.parametrize(
    ("text", "surface", "added"),
    [
        ("Mr. John Smith seen today; Smith to return.", "John Smith", ["Smith"]),
        ("Dr. Okafor saw her. Okafor's plan: rest.", "Okafor", ["Okafor"]),
        (
            "Daughter Ellen Pennington. PENNINGTON called; Ellen too.",
            "Ellen Pennington",
            ["PENNINGTON", "Ellen"],
        ),
    ],
)
def test_other_occurrences_of_a_detected_name_are_tagged(text: str, surface: str, added: list[str]) -> None:
    got = [s for s, _, src in _run(text, surface) if src == "propagate"]
    assert got == added


@pytest.mark.parametrize(
    ("text", "surface"),
    [
        ("Will Pennington seen. Will call back.", "Will Pennington"),  # ambiguous first name
        ("Mark Okafor seen. Mark the site.", "Mark Okafor"),
        ("Al Okafor seen. Al dente.", "Al Okafor"),  # too short
        ("Seen by Smithson. Smith is not Smithson.", "Smithson"),  # whole words only
    ],
)
def test_common_words_short_tokens_and_substrings_are_not_propagated(text: str, surface: str) -> None:
    rows = _run(text, surface)
    for s, _, src in rows:
        if src == "propagate":
            assert s not in {"Will", "Mark", "Al", "Smith"}


def test_propagated_spans_keep_the_label_and_valid_offsets() -> None:
    text = "Attending Dr. Lucia Ferraro. Ferraro signed."
    i = text.index("Lucia Ferraro")
    doc = Document("d", text)
    out = propagate_names(doc, [Span(i, i + 13, "DOCTOR")])
    extra = [s for s in out if s.source == "propagate"]
    assert [(text[s.start : s.end], s.label) for s in extra] == [("Ferraro", "DOCTOR")]
