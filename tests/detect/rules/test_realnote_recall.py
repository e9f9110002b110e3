"""Recall rules for what real notes do: running-text dates, history years, facilities, cued names."""

from __future__ import annotations

import pytest

from phiscrub.detect.rules.base import RuleDetector
from phiscrub.detect.rules.dates import date_detector
from phiscrub.detect.rules.locations import location_detector
from phiscrub.detect.rules.names import name_detector

from ._support import run_detector

DATES = date_detector("en")
NAMES = name_detector("en")
PLACES = location_detector("en")


def _found(detector: RuleDetector, text: str) -> list[tuple[str, str]]:
    return [(text[s.start : s.end], s.label) for s in run_detector(detector, text)]


# --- dates -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "surface"),
    [
        # month/day in clinical context
        ("blood cx from 3/14 grew GPC", "3/14"),
        ("no BM since 12/2.", "12/2"),
        ("started on 4/7 per ID", "4/7"),
        ("COMPARISON: CXR 5/6.", "5/6"),
        ("EGD 4/7 showed grade 2 varices", "4/7"),
        ("TTE 2/9: EF 35%", "2/9"),
        # month / two-digit year
        ("MI 3/98 s/p stent", "3/98"),
        ("dx breast ca 06/87, s/p lumpectomy", "06/87"),
        ("last colonoscopy 12/98 nl", "12/98"),
        # bare years in history lists
        ("PMH: HTN, CABG 2004, DM2", "2004"),
        ("PSH: TKA 2010, chole 1995", "1995"),
        ("PSH: TKA 2010, chole 1995", "2010"),
        ("- CABG x3 2004", "2004"),
        ("s/p appy (1998)", "1998"),
    ],
)
def test_date_rules_find_running_text_dates(text: str, surface: str) -> None:
    assert (surface, "DATE") in _found(DATES, text)


@pytest.mark.parametrize(
    "text",
    [
        "BP 3/4 strength",
        "motor 5/5 strength throughout",
        "1/2 tab po qhs",
        "2/6 murmur at RUSB",
        "ratio 3/1",
        "GCS 3/15 on arrival",
        "ANA 1/80 titer",
        "vision 6/60 OD",
        "hr 80s, bp 3/98",
        "PEEP 5/40",
        "lasix 40 iv given 2000",
        "heparin 2000 units bolus",
        "BNP 2004 today",
        "HTN, given 1900",
        "vanc 1250 q12",
        "cath at 1945, sbp 90s",
        "levophed @ 1930",
        "oxycodone 5/325 1 tab q4h",
    ],
)
def test_date_rules_leave_scores_doses_and_times(text: str) -> None:
    assert _found(DATES, text) == []


# --- names -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "surface", "label"),
    [
        ("per J. SMITH (cards)", "J. SMITH", "DOCTOR"),
        ("as per K JONES, ok to restart heparin", "K JONES", "DOCTOR"),
        ("as per DR K JONES", "K JONES", "DOCTOR"),
        ("d/w Tejedor re: am K 5.8", "Tejedor", "DOCTOR"),
        ("paged Okafor x2, no callback", "Okafor", "DOCTOR"),
        ("spoke with Hinton, charge RN", "Hinton", "DOCTOR"),
        ("signed out to Reyes at 1900", "Reyes", "DOCTOR"),
        ("daughter mary called", "mary", "RELATIVE"),
        ("HUSBAND ALF AT BEDSIDE", "ALF", "RELATIVE"),
        ("wife Mary at bedside", "Mary", "RELATIVE"),
    ],
)
def test_name_rules_find_cued_names(text: str, surface: str, label: str) -> None:
    assert (surface, label) in _found(NAMES, text)


@pytest.mark.parametrize(
    "text",
    [
        "per protocol",
        "per ORTHO",
        "paged ortho",
        "d/w pt and sister",
        "spoke with daughter",
        "per PT, ok to ambulate",
        "per RN report",
        "per G. tube",
        "per MD",
        "per team",
        "son will call",
        "PER ICU TEAM",
        "per ID",
        "per Pharmacy",
        "notified MD",
        "paged cardiology fellow",
        "spoke with Mercy",
        "per report",
        "PT ADHERENT W/ MEDS PER PILLBOX.",
        "NGT D/C'D THIS AM PER SURG.",
        "lorazepam per CIWA-Ar",
        "wean PEEP per ARDSNet table",
    ],
)
def test_name_rules_leave_services_and_words(text: str) -> None:
    assert _found(NAMES, text) == []


# --- facilities and wards ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "surface", "label"),
    [
        ("was at St. Mary's Hospital last week", "St. Mary's Hospital", "HOSPITAL"),
        ("transferred from St. Mary's for cath", "St. Mary's", "HOSPITAL"),
        ("d/c to Spaulding Rehab", "Spaulding Rehab", "HOSPITAL"),
        ("seen at University of Vermont Medical Center", "University of Vermont Medical Center", "HOSPITAL"),
        ("PT TRANSFERRED TO MERCY HOSPITAL FOR CATH", "MERCY HOSPITAL", "HOSPITAL"),
        ("records from Borno Behavioral Health Center", "Borno Behavioral Health", "HOSPITAL"),
        ("PCP is Dr. Kinney at Buck Healthcare.", "Buck Healthcare", "HOSPITAL"),
        ("lives at Brookdale Assisted Living", "Brookdale Assisted Living", "HOSPITAL"),
        ("seen at Good Samaritan Medical Center", "Good Samaritan Medical Center", "HOSPITAL"),
        ("transferred from BIDMC for higher level of care", "BIDMC", "HOSPITAL"),
        ("f/u at UVM in 2 wks", "UVM", "HOSPITAL"),
        (
            "MALE ADMITED FROM KAISER VETERANS AFFAIRS MEDICAL CENTER ER",
            "KAISER VETERANS AFFAIRS MEDICAL CENTER",
            "HOSPITAL",
        ),
        (
            "PCP: C. Vandewalle, MD  Samanthatown Children's Hospital",
            "Samanthatown Children's Hospital",
            "HOSPITAL",
        ),
        ("TRANSPORTED TO LAKEVIEW ED W/O INCIDENT", "LAKEVIEW ED", "HOSPITAL"),
        ("transferred to Ellison 11", "Ellison 11", "DEPARTMENT"),
        ("moved to 4 West overnight", "4 West", "DEPARTMENT"),
    ],
)
def test_location_rules_find_facilities_and_wards(text: str, surface: str, label: str) -> None:
    assert (surface, label) in _found(PLACES, text)


@pytest.mark.parametrize(
    "text",
    [
        "referred to Cardiac Rehab",
        "f/u in Memory Clinic",
        "f/u in Heart Failure Clinic",
        "Acute Rehab eval pending",
        "the Cancer Center called",
        "transferred to MICU",
        "seen in ED",
        "transferred to CT",
        "sent to PACU",
        "seen at VA",
        "transferred from OSH",
        "transferred to Day 3 of protocol",
        "went to Urgent Care Clinic",
        "TRANSFERRED TO FLOOR",
        "Refer to Heart Valve Clinic",
        "per Employee Health policy",
        "f/u Survivorship Clinic",
        "COMPREHENSIVE DRIVER REHABILITATION EVALUATION",
        "Admit to OTP: 02/10/2015",
        "PT WAS DISCHARGED FROM ED",
        "CT HEAD DONE IN ED",
        "Pt presented to the ED",
    ],
)
def test_location_rules_leave_services_and_units(text: str) -> None:
    assert [f for f in _found(PLACES, text) if f[1] in ("HOSPITAL", "DEPARTMENT")] == []
