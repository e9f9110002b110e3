"""Recall-first rules for the forms real notes write (issue 25): month/day dates beside lab values and
events, ordinal days, parts of months, organisations, practices, named units, facility
abbreviations and towns after a where-cue. Made-up names and places only.

Each table row is (text, expected surface or None). Positive rows must be found with their label;
negative rows are look-alikes that must not be tagged by these rules.
"""

from __future__ import annotations

import pytest

from phiscrub.detect.rules.dates import date_detector
from phiscrub.detect.rules.locations import location_detector
from phiscrub.document import Document, Span

DATES_FOUND = [
    ("family visit over thanksgiving was hard", "thanksgiving"),
    ("no BM since xmas eve", "xmas eve"),
    ("WBC 13.1 (down from 16.0 10/1). On zosyn", "10/1"),
    ("BCx 2/2 from 9/29 GPC in clusters", "9/29"),
    ("R IJ TLC placed 9/29, dressing changed", "9/29"),
    ("10/3 to OR for CABG", "10/3"),
    ("cultures from 10/2 NGTD", "10/2"),
    ("10/4 @ 1900 pt became hypotensive", "10/4"),
    ("amp/sulbactam 4/10 - planned through 4/16.", "4/10"),
    ("Sputum cx 4/10 - planned. Sputum cx 4/12 oral flora", "4/12"),
    ("9 days postpartum (SVD 2/3). Reports HA", "2/3"),
    ("Lines: R IJ CVC 1/4; L radial art line 1/6; L subclavian", "1/6"),
    ("Micro: sputum 1/4 MSSA; UCx 1/12 neg", "1/4"),
    ("Prone sessions 1/5-1/8, none since.", "1/5"),
    ("Foley since 1/4.", "1/4"),
    ("willing to fly in the 22nd. Pt states", "22nd"),
    ("ran out of her furosemide on the 2nd. No CP", "2nd"),
    ("LMP ~mid-Jan. bhCG 2840", "mid-Jan"),
    ("symptoms since early March", "early March"),
    ("pt was well until late sept. Then SOB", "late sept"),
    ("CT in mid-oct showed mass", "mid-oct"),
    ("seen mid-may by pcp", "mid-may"),
    ("MI in '98, CABG '04.", "'98"),
    ("abx: vanc -> cefazolin 2/13, BCx 2/9 ngtd final.", "2/9"),  # a date before is no ratio run
    ("bnp 2140 (4/29) -> 1380 5/2.", "5/2"),
    ("labs: lipase 980 7/23, wbc 16.2", "7/23"),  # after a lab value
    ("93 y/o M, LKW 1415 10/7, R MCA syndrome", "10/7"),  # after a 24-hour time
    ("Amox to complete 7 days (2/1 last dose).", "2/1"),
    ('ran out of insulin ("couldnt afford it till the 1st").', "1st"),
]

DATES_NOT_FOUND = [
    "GCS 14/15 (V4)",
    "strength 4/5 BUE, 3/5 BLE",
    "Denies pain, 0/10 when asked",
    "pain 7/10 sharp",
    "BCx 2/2 positive",
    "BP 96/60 - 118/72",
    "I/O 1450/2100",
    "ESRD on HD in 65 and older",
    "screening in 50+ adults",
    "on zosyn day 8/10",
    "LUE shoulder flex 2/5, grip 1/5",
    "LUE 2/5 prox, 1/5 distal",
    "Dx: Sepsis 2/2 E. coli pyelonephritis",
    "Tender 2/28, swollen 1/28",
    "able to verbalize 2/3 precautions",
    "ate 1/2 tray",
    "Attended 3/4 groups. Some irritability",
    "NOTTINGHAM GRADE 2 (2+2+1 = 5/9)",
    "PERRL 3mm brisk. MAE 5/5. No drift.",
    "take 1 1/2 tabs",
    "1/2 of meals",
    "fatigue 5/10, cold-induced paresthesias",
    "w/ relief to 2/10.",
    "A&O 3/3",
    "walking early may help recovery",
    "naming 3/6, repetition impaired",
    "crackles bilat bases 1/3 up",
    "tof 4/4 no fade",
    "the 2nd floor",
    "for the 3rd time",
]


def _found(detector_text: str, kind: str) -> list[tuple[str, str]]:
    det = date_detector() if kind == "date" else location_detector()
    doc = Document("t", detector_text)
    return [(detector_text[s.start : s.end].rstrip("."), s.label) for s in det.detect(doc)]


@pytest.mark.parametrize(("text", "surface"), DATES_FOUND)
def test_month_day_and_ordinal_dates_are_found(text: str, surface: str) -> None:
    assert (surface, "DATE") in _found(text, "date")


@pytest.mark.parametrize("text", DATES_NOT_FOUND)
def test_scores_counts_and_fractions_are_not_dates(text: str) -> None:
    assert _found(text, "date") == []


PLACES_FOUND = [
    (
        "Pt attends First Lutheran of Brennock; church has offered meals",
        "First Lutheran of Brennock",
        "ORGANIZATION",
    ),
    ("brought by Ostrander Fire EMS. GCS 15", "Ostrander Fire", "ORGANIZATION"),
    (
        "Pharmacy on file (Quellford Family Pharmacy) - no new meds",
        "Quellford Family Pharmacy",
        "ORGANIZATION",
    ),
    ("42M BIBP (Brennock PD) after found yelling", "Brennock PD", "ORGANIZATION"),
    ("pt staying at Harbor Street Men's Shelter per EMS.", "Harbor Street Men's Shelter", "ORGANIZATION"),
    (
        "referred to Wickham County Area Agency on Aging for support",
        "Wickham County Area Agency on Aging",
        "ORGANIZATION",
    ),
    ("Seen at Lowry Flats Urgent Care today", "Lowry Flats Urgent Care", "HOSPITAL"),
    (
        "Dr. Helen Strand\nColdwater Junction Family Practice\n52 Mill St",
        "Coldwater Junction Family Practice",
        "HOSPITAL",
    ),
    ("transferred from Lakeside Hosp yesterday", "Lakeside Hosp", "HOSPITAL"),
    ("Called AMH ED charge RN", "AMH", "HOSPITAL"),
    ("sent to NMC for cath", "NMC", "HOSPITAL"),
    ("Records faxed from RVMC.", "RVMC", "HOSPITAL"),
    ("PER RVMC RECORDS PT HAD CABG", "RVMC", "HOSPITAL"),
    ("poss d/c to heritage home health tomorrow", "heritage home health", "HOSPITAL"),
    ("admitted from pine springs dialysis w sob", "pine springs dialysis", "HOSPITAL"),
    ("discharged to sunrise assisted living", "sunrise assisted living", "HOSPITAL"),
    ("outside CT received from BRMC today", "BRMC", "HOSPITAL"),
    ("discharged to HRC for rehab", "HRC", "HOSPITAL"),
    ("ICU TRANSFER NOTE (Corrigan ICU -> floor)", "Corrigan ICU", "DEPARTMENT"),
    ("Unit Tallis 6\nAttending", "Tallis 6", "DEPARTMENT"),
    ("Pt's brother Kieran from Boston is HCP", "Boston", "CITY"),
    ("s/p PCI to LAD (DES) in Cleveland in 2019", "Cleveland", "CITY"),
    ("dtr Jessica (visiting from Seattle) present", "Seattle", "CITY"),
    ("daughter lives in Quellford, drives down weekly", "Quellford", "CITY"),
    ("lives in Ann Arbor with wife", "Ann Arbor", "CITY"),
    ("in the Old Quarry neighborhood. Bedroom", "Old Quarry", "LOCATION"),
    ("our Indianapolis clinic BPH cohort", "Indianapolis", "CITY"),
    ("f/u at the Las Cruces office", "Las Cruces", "CITY"),
    ("seen at the Atlanta VA in May", "Atlanta", "CITY"),
    ("Sato ulcerative colitis Mercy General readmit", "Mercy General", "HOSPITAL"),
    ("transferred from Lakeside Memorial for cath", "Lakeside Memorial", "HOSPITAL"),
    ("outside records from St. Agnes Regional", "St. Agnes Regional", "HOSPITAL"),
    ("Good Samaritan residents with cirrhosis", "Good Samaritan", "HOSPITAL"),
    # a run of capitalised words with one no dictionary has, no cue or head word needed
    ("Pt stays with friends at Corvallen Pines most weekends", "Corvallen Pines", "LOCATION"),
    ("Meals through Ostrow Lake Cooperative twice a week", "Ostrow Lake Cooperative", "LOCATION"),
    ("Son drives her to Tamsworth Grange dinners", "Tamsworth Grange", "LOCATION"),
]

PLACES_NOT_FOUND = [
    "transferred to the ICU from the OR",
    "Pt is from Mexico",
    "admitted from home",
    "seen in PT today",
    "f/u with PCP in 2 wks",
    "PT TO FOLLOW UP WITH PHARMACY",
    "lives in a Homeless Shelter",
    "routed to HF clinic re: fluid status",
    "Extinction to DSS.",
    "Family from Ghana; mother visiting",
    "GOT LOST DRIVING TO DAUGHTER'S HOUSE",
    "STOPPED INSULIN 4 DAYS AGO BECAUSE OF AN INSURANCE ISSUE",
    "Pediatric Urgent Care\nPt: seen",
    "Virtual Urgent Care (video visit)",
    "started in Kawasaki disease",
    "pain in LLQ",
    "sent from ED after fall",
    "transferred from ICU to floor",
    "discharged to SNF on abx",
    "received from OR intubated",
    "admitted to MICU overnight",
    "per ICU records and CT chart",
    "d/c to home with home health",
    "plan d/c to acute rehab when bed",
    "transfer to sub acute rehab",
    "d/c to the nursing home",
    "pt went to urgent care yesterday",
    "back to outpatient dialysis tues",
]


@pytest.mark.parametrize(("text", "surface", "label"), PLACES_FOUND)
def test_places_real_notes_write_are_found(text: str, surface: str, label: str) -> None:
    assert (surface, label) in _found(text, "location")


@pytest.mark.parametrize("text", PLACES_NOT_FOUND)
def test_place_look_alikes_are_not_tagged(text: str) -> None:
    assert _found(text, "location") == []


KIN_SHORTHAND = [
    ("asking for her dtr renata repeatedly", "renata"),
    ("bro Kieran from Boston is HCP", "Kieran"),
    ("sis Marguerite called", "Marguerite"),
]


@pytest.mark.parametrize(("text", "surface"), KIN_SHORTHAND)
def test_kin_shorthand_names_are_relatives(text: str, surface: str) -> None:
    from phiscrub.detect.rules.names import name_detector

    found = [(text[s.start : s.end], s.label) for s in name_detector().detect(Document("t", text))]
    assert (surface, "RELATIVE") in found


@pytest.mark.parametrize("text", ["dtr at bedside", "dtr to buy groceries", "sis will call back"])
def test_kin_shorthand_without_a_name_tags_nothing(text: str) -> None:
    from phiscrub.detect.rules.names import name_detector

    assert name_detector().detect(Document("t", text)) == []


@pytest.mark.parametrize(
    ("text", "surface", "label"),
    [
        (
            "transferred to Kestrel Point Community Hospital for cath",
            "Kestrel Point Community Hospital",
            "HOSPITAL",
        ),
        ("d/c to Saddle Creek Care Center", "Saddle Creek Care Center", "HOSPITAL"),
        ("f/u with Halvorsen Cardiology next wk", "Halvorsen Cardiology", "ORGANIZATION"),
        ("goes to Quellford Senior Center on Tuesdays", "Quellford Senior Center", "ORGANIZATION"),
        ("TX TO TALLIS 6 AT 1400", "TALLIS 6", "DEPARTMENT"),
        ("plan transfer to whitcombe 3 today", "whitcombe 3", "DEPARTMENT"),
        ("dtr lives in boston", "boston", "CITY"),
    ],
)
def test_named_facilities_units_and_towns_in_any_form(text: str, surface: str, label: str) -> None:
    assert (surface, label) in _found(text, "location")


@pytest.mark.parametrize(
    "text",
    [
        "seen in Sleep Clinic",
        "Wound Care Center f/u",
        "General Hospital policy",
        "Discharge Against Medical Advice",
        "Follow up with Cardiology Associates",
        "on fent 50 mcg",
        "to day 3 of abx",
        "pt to room 4",
    ],
)
def test_services_and_drug_shorthand_are_not_places(text: str) -> None:
    assert _found(text, "location") == []


@pytest.mark.parametrize(
    ("text", "surface", "label"),
    [
        ("Asked to see Mr. Day for junctional bradycardia.", "Day", "PATIENT"),
        ("Spoke with Ms. Church re: plan.", "Church", "PATIENT"),
        ("Mrs. Young is a 93 yo woman.", "Young", "PATIENT"),
        ("Their son May lives in Phoenix.", "May", "RELATIVE"),
        ("son Rich March (HCP) at bedside", "Rich March", "RELATIVE"),
        ("dtr-in-law Little, grandson Price by phone", "Little", "RELATIVE"),
        ("SH: Married to Banks, 2 children.", "Banks", "RELATIVE"),
        ("Pt: Autumn May (pt spells his name)", "Autumn May", "PATIENT"),
        ("Pt T. denies pain.", "T.", "PATIENT"),
        ("Patient R. is a 45 yo male.", "R.", "PATIENT"),
    ],
)
def test_stop_words_that_are_names_after_a_title_or_kin_word(text: str, surface: str, label: str) -> None:
    from phiscrub.detect.rules.names import name_detector

    found = [(text[s.start : s.end], s.label) for s in name_detector().detect(Document("t", text))]
    assert (surface, label) in found


@pytest.mark.parametrize(
    "text",
    [
        "Seen on Day 3 of abx.",  # no title before the word
        "married to the idea of surgery",  # no capitalised name
        "son will call back tomorrow",  # lower case after a kinship word
        "Pt A&O x3.",  # no initial and full stop
        "PT T. to follow.",  # physical therapy in capitals
    ],
)
def test_stop_words_without_a_title_stay_words(text: str) -> None:
    from phiscrub.detect.rules.names import name_detector

    assert name_detector().detect(Document("t", text)) == []


@pytest.mark.parametrize(
    ("text", "name"),
    [("Will Swan, MD\nPager 4411", "Will Swan"), ("(Dr. Will Miller, neurology)", "Will Miller")],
)
def test_a_name_after_a_title_or_before_a_credential_keeps_its_first_word(text: str, name: str) -> None:
    from phiscrub.detect.clinical import guard

    start = text.index(name)
    kept = guard(Document("t", text), [Span(start, start + len(name), "DOCTOR", 0.9, "model")])
    assert [(text[s.start : s.end]) for s in kept] == [name]
