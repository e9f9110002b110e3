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


# -- issue 18, case 3: propagation is linear in the note's length --------------------------------


def _profile_events(n_lines: int) -> int:
    """Python-level calls (including generator resumptions) made by one propagate_names run."""
    import sys

    line = "Pt Zebulon Quackenbush seen on 03/12/2019, MRN 99887766. BP 120/80.\n"
    text = line * n_lines
    spans = []
    for k in range(n_lines):
        base = k * len(line)
        spans.append(Span(base + 3, base + 22, "PATIENT"))  # "Zebulon Quackenbush"
        spans.append(Span(base + 31, base + 41, "DATE"))
    doc = Document("d", text)
    count = 0

    def tracer(frame: object, event: str, arg: object) -> None:
        nonlocal count
        count += 1

    propagate_names(doc, spans[:2])  # warm the word-list caches outside the count
    sys.setprofile(tracer)
    try:
        propagate_names(doc, spans[::2] + spans[1::2])
    finally:
        sys.setprofile(None)
    return count


def test_case3_propagation_is_linear() -> None:
    # Operation counts, not wall time: doubling the note (and its spans) at most doubles the work.
    # The old any(...) over all covered spans per hit made this ratio about 4.
    small, large = _profile_events(400), _profile_events(800)
    assert large / small < 2.2


def test_case3_propagation_reports_progress_on_long_notes() -> None:
    text = "Seen by Zebulon Quackenbush. " + "Quackenbush stable. " * 120_000
    doc = Document("d", text)
    calls: list[tuple[str, int, int]] = []
    out = propagate_names(doc, [Span(8, 27, "PATIENT")], progress=lambda *a: calls.append(a))
    assert len(out) == 120_001
    assert calls[-1] == ("propagate", len(text), len(text))
    assert len(calls) >= 2 and all(stage == "propagate" and isinstance(d, int) for stage, d, _ in calls)


# -- issue 18, case 4: case-insensitive propagation and labels that follow the name ----------------


def _spans(text: str, found: list[tuple[str, str]]) -> list[Span]:
    out = []
    for surface, label in found:
        i = text.index(surface)
        out.append(Span(i, i + len(surface), label))
    return out


def _table(text: str, spans: list[Span]) -> list[tuple[str, str]]:
    return [(text[s.start : s.end], s.label) for s in sorted(spans)]


def test_case4_lowercase_surname_is_propagated_with_the_name_label() -> None:
    text = "John SMITH. Mr. Smith seen. Plan discussed with smith."
    out = propagate_names(Document("d", text), _spans(text, [("John SMITH", "PATIENT")]))
    assert _table(text, out) == [("John SMITH", "PATIENT"), ("Smith", "PATIENT"), ("smith", "PATIENT")]


@pytest.mark.parametrize(
    ("text", "name", "word"),
    [
        ("Mr. Walker seen. Ambulates with walker.", "Walker", "walker"),  # clinical term
        ("Dr. Fields saw her. Visual fields full.", "Fields", "fields"),  # plural of a word in use
        ("Ms. Nurse called. Discussed with nurse.", "Nurse", "nurse"),  # a WordNet word in use
        ("Mr. Page seen. Next page.", "Page", "page"),  # ambiguous-names list
    ],
)
def test_case4_lowercase_common_words_are_not_propagated(text: str, name: str, word: str) -> None:
    out = propagate_names(Document("d", text), _spans(text, [(name, "PATIENT")]))
    assert word not in [text[s.start : s.end] for s in out]


@pytest.mark.parametrize("label", ["LOCATION", "ORGANIZATION", "CITY"])
def test_case4_span_of_known_name_tokens_takes_the_name_label(label: str) -> None:
    text = "Patient: John Smith. Plan discussed with smith today."
    found = [("John Smith", "DOCTOR"), ("smith", label)]
    out = propagate_names(Document("d", text), _spans(text, found))
    assert _table(text, out) == [("John Smith", "DOCTOR"), ("smith", "DOCTOR")]


def test_case4_hyphenated_person_name_tagged_organization_is_relabelled_by_name_lists() -> None:
    text = "Anne-Marie Smith-Jones visited. Acme Health Group billed."
    found = [("Anne-Marie Smith-Jones", "ORGANIZATION"), ("Acme Health Group", "ORGANIZATION")]
    out = propagate_names(Document("d", text), _spans(text, found))
    assert _table(text, out) == [("Anne-Marie Smith-Jones", "PATIENT"), ("Acme Health Group", "ORGANIZATION")]


def test_case4_organization_span_across_a_line_break_is_cut_at_the_name() -> None:
    text = "Patient: John Smith.\nPlan discussed with smith.\nAnne-Marie Smith-Jones visited."
    i, j = text.index("smith."), text.index(" visited")
    out = propagate_names(
        Document("d", text),
        [*_spans(text, [("John Smith", "PATIENT")]), Span(i, j, "ORGANIZATION", 0.9, "model")],
    )
    assert _table(text, out) == [
        ("John Smith", "PATIENT"),
        ("smith", "PATIENT"),
        ("Anne-Marie Smith-Jones", "PATIENT"),
    ]
    assert {s.source for s in out if s.label == "PATIENT" and s.start > 20} == {"model+relabel"}


@pytest.mark.parametrize(
    ("surface", "label"),
    [
        ("Virginia Mason Medical Center", "HOSPITAL"),  # a word that is no name
        ("Boston", "CITY"),  # one word, no name token of the note
        ("Mark Twain Elementary", "ORGANIZATION"),
    ],
)
def test_places_and_organizations_that_are_no_person_keep_their_label(surface: str, label: str) -> None:
    text = f"Pt John Smith. Went to {surface} last week."
    out = propagate_names(Document("d", text), _spans(text, [("John Smith", "PATIENT"), (surface, label)]))
    assert (surface, label) in _table(text, out)


def test_case4_hyphenated_word_with_a_known_surname_is_propagated_whole() -> None:
    text = "Patient: John Smith. Anne-Marie Smith-Jones visited."
    out = propagate_names(Document("d", text), _spans(text, [("John Smith", "PATIENT")]))
    assert ("Smith-Jones", "PATIENT") in _table(text, out)
