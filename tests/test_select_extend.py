"""The selection's ``extend`` step: a facility or organisation span grows over the rest of its
name, never shrinks, and leaves other labels and non-name words alone. Made-up names only."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phiscrub.document import Span
from phiscrub.select import step_names
from phiscrub.select.extend import extend_names


def _grow(text: str, found: str, label: str = "HOSPITAL") -> str:
    start = text.index(found)
    (span,) = extend_names(text, [Span(start, start + len(found), label, 0.9, "model")])
    return text[span.start : span.end]


@pytest.mark.parametrize(
    ("text", "found", "whole"),
    [
        ("Followed by Red Oak Pulmonary Specialists.", "Red Oak", "Red Oak Pulmonary Specialists"),
        ("Rehab at Harbor View Skilled Nursing since May", "Harbor View", "Harbor View Skilled Nursing"),
        ("Prior care at Valley Ortho PC for knee.", "Valley Ortho", "Valley Ortho PC"),
        ("OB care at Blue Sky Women's Health.", "Blue Sky", "Blue Sky Women's Health"),
        ("Wound care at Cedar Grove Wound Clinic, weekly", "Cedar Grove", "Cedar Grove Wound Clinic"),
        ("DME from Apex Medical Supply Inc. today", "Apex Medical Supply", "Apex Medical Supply Inc."),
        ("FROM: HARMONY EMERGENCY DEPT", "HARMONY", "HARMONY"),  # a department, no name word
        ("AT RED OAK PULMONARY SPECIALISTS FOR PFTS", "RED OAK", "RED OAK PULMONARY SPECIALISTS"),
        ("poss d/c to cedar bend family practice tomorrow", "cedar bend", "cedar bend family practice"),
        (
            "closer to Evergreen Creek Health Partners.",
            "Evergreen Creek Health",
            "Evergreen Creek Health Partners",
        ),
        ("transport via Birch Summit Counseling dial-a-ride", "Birch Summit", "Birch Summit Counseling"),
    ],
)
def test_a_name_grows_over_its_head_words(text: str, found: str, whole: str) -> None:
    assert _grow(text, found) == whole


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Seen at Red Oak Pulmonary clinic today", "Red Oak"),  # lower-case "clinic": a service
        ("Seen at Red Oak. Pulmonary Specialists agree", "Red Oak"),  # another sentence
        ("Seen at Red Oak Pulmonary for PFTs", "Red Oak"),  # no head word ends the run
        ("Seen at Red Oak Family Practice", "Red"),  # "Oak" is no head or service word
        ("seen at red oak Family Practice", "red oak"),  # another case
        ("pt will f/u at scott and sons clinic. bus tokens", "scott and sons"),  # lower case: describes
        ("at Red Oak\nClinic notes reviewed", "Red Oak"),  # another line
        ("Red Oak Pulmonary Specialists", "Red Oak Pulmonary Specialists"),  # already whole
        ("Stout Medical Center Emergency Department", "Stout Medical Center"),  # ends on its head
        ("Valley Rehabilitation Institute Primary Care", "Valley Rehabilitation Institute"),
    ],
)
def test_no_growth_without_a_head_word_on_the_same_line(text: str, found: str) -> None:
    assert _grow(text, found) == found


def test_other_labels_are_left_alone() -> None:
    text = "Dr. Oak Pulmonary Specialists"
    assert _grow(text, "Oak", "DOCTOR") == "Oak"


def test_a_span_never_runs_into_the_next_span() -> None:
    text = "at Red Oak Health Partners"
    spans = [Span(3, 10, "HOSPITAL"), Span(11, 17, "CITY")]
    assert extend_names(text, spans) == spans


def test_the_step_runs_after_the_guard_and_before_site_lists() -> None:
    names = step_names()
    assert names.index("guard") < names.index("extend") < names.index("site")


@given(st.text(alphabet="AaPp Os.,&\n", max_size=40), st.integers(0, 39), st.integers(1, 10))
def test_spans_only_grow(text: str, start: int, length: int) -> None:
    if start + length > len(text):
        return
    span = Span(start, start + length, "ORGANIZATION")
    (out,) = extend_names(text, [span])
    assert out.start == span.start and out.end >= span.end and out.label == span.label
