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
    spans = [Span(3, 10, "HOSPITAL"), Span(11, 17, "STREET")]
    assert extend_names(text, spans) == spans
    # A town span read by the model as the first word of a facility names that facility.
    town = [Span(3, 10, "HOSPITAL"), Span(11, 17, "CITY")]
    assert extend_names(text, town)[0] == town[0]


@pytest.mark.parametrize(
    ("text", "town", "whole", "label"),
    [
        ("93 yo f adm from Larkspur House s/p fall", "Larkspur", "Larkspur House", "HOSPITAL"),
        ("has VNA from Riverbend VNA 2x/wk.", "Riverbend", "Riverbend VNA", "HOSPITAL"),
        ("rx at Brazos Drug on Kemp", "Brazos", "Brazos Drug", "ORGANIZATION"),
        (
            "works for Wichita Roofing & Sheet Metal, since 2019",
            "Wichita",
            "Wichita Roofing & Sheet Metal",
            "ORGANIZATION",
        ),
    ],
)
def test_a_town_before_a_facility_head_becomes_that_facility(
    text: str, town: str, whole: str, label: str
) -> None:
    start = text.index(town)
    (span,) = extend_names(text, [Span(start, start + len(town), "CITY", 0.9, "model")])
    assert (text[span.start : span.end], span.label) == (whole, label)


@pytest.mark.parametrize(
    "text", ["lives in Brennock with wife", "from Brennock, MI", "Brennock Tallis 3", "in boston home by 5"]
)
def test_a_town_without_a_facility_head_stays_a_town(text: str) -> None:
    start = text.lower().index("brennock") if "rennock" in text else text.index("boston")
    end = start + (8 if "rennock" in text else 6)
    assert extend_names(text, [Span(start, end, "CITY", 0.9, "model")]) == [
        Span(start, end, "CITY", 0.9, "model")
    ]


@pytest.mark.parametrize(
    ("text", "name", "whole"),
    [
        ("PT NAME: HALL,LEROY D              UNIT#: M00073451", "HALL,LEROY", "HALL,LEROY D"),
        ("ATT: ONEIL,SEAMUS P\n-----", "ONEIL,SEAMUS", "ONEIL,SEAMUS P"),
        ("Pt: Hall, Leroy D.\n", "Hall, Leroy", "Hall, Leroy D."),
        ("seen by Leroy Hall A lot", "Leroy Hall", "Leroy Hall"),  # Title case without a comma: no field
        ("HALL,LEROY D AND WIFE", "HALL,LEROY", "HALL,LEROY"),  # a word follows: no initial
    ],
)
def test_a_middle_initial_joins_a_name_in_a_header_field(text: str, name: str, whole: str) -> None:
    assert _grow(text, name, "PATIENT") == whole


@pytest.mark.parametrize(
    ("text", "date", "whole"),
    [
        ("appt Mon 3/10 0940.", "3/10", "Mon 3/10"),
        ("seen Tuesday, 3/4 by PT", "3/4", "Tuesday, 3/4"),
        ("fri 3/13 repeat lytes", "3/13", "fri 3/13"),
        ("Monitor 3/10", "3/10", "3/10"),  # a word ending in letters of a weekday is none
    ],
)
def test_a_weekday_joins_the_date_after_it(text: str, date: str, whole: str) -> None:
    assert _grow(text, date, "DATE") == whole


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


@pytest.mark.parametrize(
    ("text", "found", "label", "whole"),
    [
        # company forms of practices and groups
        ("referral to Lowry Flats Counseling Collaborative.", "Lowry Flats Counseling", "ORGANIZATION",
         "Lowry Flats Counseling Collaborative"),
        # a person's span that ran into a practice's name grows over the rest of that name
        ("urology (Dr. Hargreave, Wickham Urology Associates) 4-6 wks", "Hargreave, Wickham Urology", "DOCTOR",
         "Hargreave, Wickham Urology Associates"),
        # a floor number after a building or unit
        ("TO: DFRC  FROM: NMC WHITCOMBE 3\nDX: AF", "WHITCOMBE", "HOSPITAL", "WHITCOMBE 3"),
        ("likely to Hadley 2 acute rehab vs SNF", "Hadley", "DEPARTMENT", "Hadley 2"),
    ],
)  # fmt: skip
def test_names_grow_over_company_words_and_floor_numbers(
    text: str, found: str, label: str, whole: str
) -> None:
    assert _grow(text, found, label) == whole


@pytest.mark.parametrize(
    ("text", "found", "label"),
    [
        ("transferred from Mercy 2 days ago", "Mercy", "HOSPITAL"),  # a duration, no floor
        ("seen by Dr. Hargreave, Wickham today", "Hargreave, Wickham", "DOCTOR"),  # no practice word
        ("Dr. Oak Pulmonary Specialists", "Oak", "DOCTOR"),
    ],
)
def test_no_floor_or_practice_growth_without_its_form(text: str, found: str, label: str) -> None:
    assert _grow(text, found, label) == found


@pytest.mark.parametrize(
    ("text", "facility", "place"),
    [
        ("77M, transferred from St. Columba's (Ostrander) 11/6 w/ PNA", "St. Columba's", "Ostrander"),
        ("Mercy Hospital (Grand Rapids, 2.5 h) and Lakeshore (1 h)", "Mercy Hospital", "Grand Rapids"),
    ],
)
def test_a_town_in_brackets_after_a_facility_is_a_place(text: str, facility: str, place: str) -> None:
    start = text.index(facility)
    out = extend_names(text, [Span(start, start + len(facility), "HOSPITAL", 0.9, "model")])
    assert [(text[s.start : s.end], s.label) for s in out] == [(facility, "HOSPITAL"), (place, "LOCATION")]


@pytest.mark.parametrize("text", ["seen at Harbor Clinic (Primary Care) today", "Mercy Hospital (ED) triage"])
def test_a_kind_of_care_in_brackets_is_no_place(text: str) -> None:
    start = text.index("Harbor Clinic" if "Harbor" in text else "Mercy Hospital")
    end = start + (13 if "Harbor" in text else 14)
    assert extend_names(text, [Span(start, end, "HOSPITAL", 0.9, "model")]) == [
        Span(start, end, "HOSPITAL", 0.9, "model")
    ]


@pytest.mark.parametrize(
    ("text", "doctor", "facility"),
    [
        ("PCP: Dr. Zamarripa (IPFC)\n", "Zamarripa", "IPFC"),
        ("f/u Dr. Shah (GI) 2 wks", "Shah", None),  # a service
        ("Dr. Shah (CHF) clinic", "Shah", None),  # a clinical abbreviation
        ("seen by Dr. Lee (PCP)", "Lee", None),
    ],
)
def test_a_facility_in_brackets_after_a_clinician(text: str, doctor: str, facility: str | None) -> None:
    start = text.index(doctor)
    out = extend_names(text, [Span(start, start + len(doctor), "DOCTOR", 0.9, "model")])
    found = [(text[s.start : s.end], s.label) for s in out[1:]]
    assert found == ([(facility, "HOSPITAL")] if facility else [])
