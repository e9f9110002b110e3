"""Rules for PHI forms that the hard-forms dev notes write and the rules missed (issue 25, third
round): dated cultures of one specimen, a person named by one initial after a title, numbered roads,
street names without a number, the town of an address line, a neighbourhood after a home cue, and an
employer after a work cue. Made-up names and places only.

Each table row is (text, expected surface, label); the look-alike rows must not be tagged by the rule
that the positive rows exercise.
"""

from __future__ import annotations

import pytest

from phiscrub.detect.rules.dates import date_detector
from phiscrub.detect.rules.locations import location_detector
from phiscrub.detect.rules.names import name_detector
from phiscrub.document import Document


def _found(detector: object, text: str) -> list[tuple[str, str]]:
    spans = detector.detect(Document("t", text))  # type: ignore[attr-defined]
    return [(text[s.start : s.end], s.label) for s in spans]


FOUND = [
    # dates: a culture of one specimen is dated ("drain cx 3/3"); a count after is no unit ("x2")
    ("date", "IR drain; drain cx 3/3 E. coli + B. fragilis.", "3/3", "DATE"),
    ("date", "Micro: sputum 1/4 MSSA; BCx 1/12 x2 NGTD; UCx 1/12 neg", "1/12", "DATE"),
    ("date", "urine cx 2/2 >100k E. coli", "2/2", "DATE"),
    # a person named by one initial after a title
    ("name", "Mr. B ambulating 3x yesterday, tolerating diet.", "B", "PATIENT"),
    ("name", "Family meeting. Mrs. V clear that she wants surgery.", "V", "PATIENT"),
    ("name", "Spoke with Ms. T, agrees with plan.", "T", "PATIENT"),
    ("name", "Dr. K aware of the K 3.1, will replete.", "K", "DOCTOR"),
    ("name", "Procedure by Love (PGY2), supervised by Dr. Amberg", "Love", "DOCTOR"),
    ("name", "Rheumatology Clinic Follow-up\nBird returns for GCA f/u. Temp normal.", "Bird", "PATIENT"),
    # numbered roads, street names without a number, the town of an address line
    ("location", "motorcyclist vs deer on County Rd 14 approx 2130", "County Rd 14", "STREET"),
    ("location", "MVC on I-94 eastbound, restrained driver", "I-94", "STREET"),
    ("location", "has been staying at Highway 43 on and off", "Highway 43", "STREET"),
    ("location", "worked at the diner on Main St until April.", "Main St", "STREET"),
    ("location", "300 Harbor View Dr, Suite 210, Kestrel Point 49840", "Kestrel Point", "CITY"),
    ("location", "12 Elm St, Saddle Creek, MI 49801", "Saddle Creek", "CITY"),
    # a neighbourhood after a home cue; an employer after a work cue
    ("location", "Dtr will stay at pt's house in Old Quarry through Feb 10.", "Old Quarry", "CITY"),
    (
        "location",
        "Pt worked as a line cook at the Copper Kettle until April.",
        "Copper Kettle",
        "ORGANIZATION",
    ),
    ("location", "employed by Brennock Foods since 2010.", "Brennock Foods", "ORGANIZATION"),
    # a compass word or an English word in Title Case before an organisation or practice head
    (
        "location",
        "HF clinic appt scheduled, and South Credit Union accepted referral.",
        "South Credit Union",
        "ORGANIZATION",
    ),
    ("location", "Outpt f/u at Birch Family Practice in 2 wks.", "Birch Family Practice", "HOSPITAL"),
    # a word no dictionary has after a move cue, in any case: where the patient goes
    ("location", "pt to go to Spaulding when bed available.", "Spaulding", "HOSPITAL"),
    ("location", "plan transfer to spaulding tomorrow.", "spaulding", "HOSPITAL"),
    ("location", "bed at youville on monday.", "youville", "HOSPITAL"),
    # a facility abbreviation in a transfer form's field
    ("location", "INTER-FACILITY TRANSFER FORM\nTO: DFRC (ACUTE REHAB)", "DFRC", "HOSPITAL"),
]

NOT_FOUND = [
    ("date", "BCx 2/2 positive"),  # blood cultures are counted in bottles
    ("date", "BCx 1/2 GPC, repeat pending"),
    ("name", "MS A fib on coumadin"),  # no title: multiple sclerosis
    ("name", "Moderate MR, AR on echo"),
    ("name", "Pain returns for several hours at night."),  # a symptom opening the line
    ("name", "Pt returns for f/u of her INR."),
    ("name", "Team (PGY2) paged about the K."),
    ("location", "d/c to home with vna."),  # English, clinical and care-unit words
    ("location", "go to or for washout."),
    ("location", "sent to radiology for ct."),
    ("location", "transfer to micu when bed avail."),
    ("location", "Forms cannot be sent by email for privacy."),
    ("location", "I-131 uptake scan planned"),  # the isotope, no interstate
    ("location", "the route 2 of administration"),
    ("location", "lab, Result 12345 ok"),  # five digits after a comma, no address line
    ("location", "Getafe, New Mexico 23971"),  # a state is the policy's business
    ("location", "lives in Assisted Living now."),  # a kind of care, no place name
    ("location", "work up for Fever of unknown origin"),
    ("location", "worked with Physical Therapy today"),
    ("location", "To: ICU\nFrom: PACU"),
    ("location", "Referral source: Dr. Whalen, Child Abuse Pediatrics"),  # a kind of practice
    ("location", "seen at Pediatric Urgent Care"),
    ("location", "SOUTH CREDIT UNION"),  # a shouted line: only the listed shapes
]

_DETECTORS = {"date": date_detector, "name": name_detector, "location": location_detector}


@pytest.mark.parametrize(("kind", "text", "surface", "label"), FOUND)
def test_hard_forms_are_found(kind: str, text: str, surface: str, label: str) -> None:
    assert (surface, label) in _found(_DETECTORS[kind](), text)


@pytest.mark.parametrize(("kind", "text"), NOT_FOUND)
def test_hard_form_look_alikes_are_not_tagged(kind: str, text: str) -> None:
    found = _found(_DETECTORS[kind](), text)
    if kind == "location" and "New Mexico" in text:
        assert ("New Mexico", "CITY") not in found
        return
    assert found == []


def test_a_surname_that_is_an_ethnicity_word_after_married_to_is_kept() -> None:
    from phiscrub.deid import Deidentifier

    text = "SH: Married to White, 2 children. Hispanic female, married to a Hispanic man."
    spans = Deidentifier(model=None).detect(Document("t", text))
    found = [text[s.start : s.end] for s in spans]
    assert "White" in found and "Hispanic" not in found
