from __future__ import annotations

import pytest

from phiscrub.detect.lexicon import LexiconDetector
from phiscrub.document import Document


def _found(text: str) -> list[tuple[str, str]]:
    doc = Document("t", text)
    spans = LexiconDetector().detect(doc)
    for s in spans:
        assert doc.text[s.start : s.end] == doc.surface(s)
    return [(text[s.start : s.end], s.label) for s in spans]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("He lives with his daughter Ellen nearby.", ("Ellen", "PATIENT")),
        ("Discussed the plan with Pennington today.", ("Pennington", "PATIENT")),
        ("Seen with Harold Pennington on the ward.", ("Harold Pennington", "PATIENT")),
        ("Signed: J. Pennington", ("J. Pennington", "PATIENT")),
        # an ambiguous word becomes a name next to an unambiguous one
        ("Spoke to Hope Pennington about meds.", ("Hope Pennington", "PATIENT")),
        # after a family cue even an ambiguous name is taken
        ("Lives with her husband Bill and two dogs.", ("Bill", "PATIENT")),
        # an all-caps note: a pair of names is enough
        ("PT SEEN WITH DAUGHTER ELLEN PENNINGTON. GCS 15.", ("ELLEN PENNINGTON", "PATIENT")),
    ],
)
def test_lexicon_finds_names(text: str, expected: tuple[str, str]) -> None:
    assert expected in _found(text)


@pytest.mark.parametrize(
    "text",
    [
        "Will continue current plan. Mark as resolved. Hope for discharge in May.",
        "History of Parkinson's disease. Foley catheter in place. Glasgow Coma Scale 15.",
        "Bill Brown was discussed",  # two ambiguous words, no cue
        "Patient denies chest pain. Plan: continue lisinopril 10 mg daily.",
        "will continue to monitor. may need rehab.",
        "CONTINUE CURRENT MANAGEMENT. REASSESS IN AM.",
    ],
)
def test_lexicon_leaves_common_words_and_eponyms(text: str) -> None:
    assert [f for f in _found(text) if f[1] == "PATIENT"] == []
