"""Note-level figures: leaking notes and false positives per 1,000 non-PHI tokens."""

from __future__ import annotations

import pytest

from phiscrub.document import Document
from phiscrub.errors import InputFormatError
from phiscrub.evaluate.notelevel import NoteLevelScores, binary_recall_by_gold_label, note_level_scores

from ._builders import make_doc

TEXT_A = "Seen by Dr. Alan Grant on 03/12/2019 at Isla Nublar Hospital."
TEXT_B = "Pt resting comfortably, HR 80s, no events overnight."
TEXT_C = "Daughter Lex called at 0300."


def _gold() -> list[Document]:
    return [
        make_doc(
            "a",
            TEXT_A,
            ("Alan Grant", "DOCTOR"),
            ("03/12/2019", "DATE"),
            ("Isla Nublar Hospital", "HOSPITAL"),
        ),
        make_doc("b", TEXT_B),
        make_doc("c", TEXT_C, ("Lex", "RELATIVE")),
    ]


def test_perfect_predictions_leak_nothing_and_raise_no_alarm() -> None:
    scores = note_level_scores(_gold(), _gold())
    assert scores.n_notes == 3 and scores.notes_with_phi == 2
    assert scores.notes_with_miss == 0 and scores.missed_note_share == 0.0
    assert scores.false_positive_tokens == 0 and scores.fp_per_1000 == 0.0


@pytest.mark.parametrize(
    ("pred", "missed_notes", "fp_notes", "fp_tokens", "missed_tokens"),
    [
        # One token of the hospital missed in note a: a leaks; no false alarm.
        (
            [
                make_doc("a", TEXT_A, ("Alan Grant", "DOCTOR"), ("03/12/2019", "DATE"), ("Nublar Hospital", "HOSPITAL")),
                make_doc("b", TEXT_B),
                make_doc("c", TEXT_C, ("Lex", "RELATIVE")),
            ],
            1, 0, 0, 1,
        ),
        # "80s" and "0300" tagged: two false-positive tokens in two notes; "Lex" missed: c leaks.
        (
            [
                make_doc("a", TEXT_A, ("Alan Grant", "PATIENT"), ("03/12/2019", "DATE"), ("Isla Nublar Hospital", "CITY")),
                make_doc("b", TEXT_B, ("80s", "AGE")),
                make_doc("c", TEXT_C, ("0300", "DATE")),
            ],
            1, 2, 2, 1,
        ),
    ],
)  # fmt: skip
def test_leaks_and_false_alarms_are_counted_per_note_and_per_token(
    pred: list[Document], missed_notes: int, fp_notes: int, fp_tokens: int, missed_tokens: int
) -> None:
    scores = note_level_scores(_gold(), pred)
    assert scores.notes_with_miss == missed_notes
    assert scores.notes_with_false_positive == fp_notes
    assert scores.false_positive_tokens == fp_tokens
    assert scores.missed_tokens == missed_tokens
    assert scores.missed_note_share == pytest.approx(missed_notes / 3)
    assert scores.missed_phi_note_share == pytest.approx(missed_notes / 2)
    assert scores.fp_per_1000 == pytest.approx(1000 * fp_tokens / scores.non_phi_tokens)


def test_a_missing_prediction_predicts_nothing() -> None:
    scores = note_level_scores(_gold(), _gold()[1:])
    assert scores.notes_with_miss == 1 and scores.missed_tokens == scores.phi_tokens - 1


@pytest.mark.parametrize(
    "pred",
    [
        [make_doc("zzz", TEXT_B)],
        [make_doc("b", TEXT_B), make_doc("b", TEXT_B)],
        [make_doc("b", TEXT_B + " changed")],
    ],
)
def test_unpaired_duplicate_or_changed_predictions_are_input_errors(pred: list[Document]) -> None:
    with pytest.raises(InputFormatError) as info:
        note_level_scores(_gold(), pred)
    assert "resting" not in str(info.value)


def test_empty_corpus_and_to_dict() -> None:
    empty = note_level_scores([], [])
    assert empty == NoteLevelScores(0, 0, 0, 0, 0, 0, 0, 0)
    assert empty.missed_note_share == empty.missed_phi_note_share == empty.fp_per_1000 == 0.0
    d = note_level_scores(_gold(), _gold()).to_dict()
    assert {"fp_per_1000_non_phi", "missed_note_share", "missed_phi_note_share", "n_notes"} <= set(d)


def test_binary_recall_by_gold_label_counts_any_phi_label_as_found() -> None:
    pred = [
        make_doc("a", TEXT_A, ("Alan Grant", "PATIENT"), ("Nublar Hospital", "CITY")),
        make_doc("c", TEXT_C),
    ]
    by_label = binary_recall_by_gold_label(_gold(), pred)
    assert by_label == {"DATE": (0, 5), "DOCTOR": (2, 2), "HOSPITAL": (2, 3), "RELATIVE": (0, 1)}
    assert binary_recall_by_gold_label(_gold(), pred, "coarse") == {
        "DATE": (0, 5),
        "LOCATION": (2, 3),
        "NAME": (2, 3),
    }
