"""Forms of UK, Irish, Australian, New Zealand and Canadian notes (:mod:`phiscrub.detect.rules.commonwealth`):
national health numbers with their check digits, registrations, postcodes, British street and ward
names, day-first dates and British durations. Made-up names and numbers only.

A positive row must survive the whole rules-only pipeline (guard and extend included); a negative
row must leave its look-alike in clear.
"""

from __future__ import annotations

import pytest

from phiscrub.deid import Deidentifier
from phiscrub.detect.rules.checksums import nhs_ok
from phiscrub.detect.rules.commonwealth import (
    american_spelling,
    chi_ok,
    commonwealth_detector,
    commonwealth_guard,
    commonwealth_note,
    duration_verdict,
    ihi_ok,
    medicare_au_ok,
    nhi_ok,
    no_one_named,
    ppsn_ok,
)
from phiscrub.document import Span

from ._support import kept_surfaces, run_detector

UK_HEAD = "Dear Dr Pell,\nRe: clinic 14/03/2024, NHS 943 476 5919\n"


@pytest.mark.parametrize(
    ("check", "good", "bad"),
    [
        (nhs_ok, "943 476 5919", "943 476 5918"),
        (chi_ok, "010101 1237", "321345 1234"),
        (nhi_ok, "ZZZ0016", "ZZZ0017"),
        (nhi_ok, "ALU18KZ", "ALU18KY"),
        (ihi_ok, "8003 6081 6669 0503", "8003 6081 6669 0504"),
        (medicare_au_ok, "2123 45670 1", "2123 45671 1"),
        (ppsn_ok, "1234567T", "1234567A"),
    ],
)
def test_check_digits(check: object, good: str, bad: str) -> None:
    assert callable(check)
    assert check(good)
    assert not check(bad)


FOUND = [
    ("Patient: Ann Roe    NHS No: 943 476 5919", "943 476 5919"),
    ("Patient: Ann Roe    CHI: 010101 1237", "010101 1237"),
    ("Client: Tama Roe     NHI ZZZ0016 |", "ZZZ0016"),
    ("Medicare 2123 45670 1   IHI 8003 6081 6669 0503", "8003 6081 6669 0503"),
    ("DOB 1990-05-18   OHIP: 1234 567 890 AB | Admission", "1234 567 890 AB"),
    ("Dr Ann Pell, Consultant    GMC 7654321", "7654321"),
    ("Dr Ann Pell, RMO   AHPRA MED0001234567   pager 4471", "MED0001234567"),
    ("Signed: Dr A Pell    MCNZ 12345", "12345"),
    ("Pt: ROE, ANN   34 F   Chart 0112-3344   Visit 2", "0112-3344"),
    (UK_HEAD + "Address: 7 Parkwood Terrace, Keighley BD21 4LP", "BD21 4LP"),
    (UK_HEAD + "Halifax HX3 0QP", "HX3 0QP"),
    ("Address: 6 Cluain Ard, Athlone, Co. Westmeath  N37 F6X2", "N37 F6X2"),
    ("45 Queen St, Almonte, ON  K0A 1A0   Cell 613 555 0100", "K0A 1A0"),
    ("108 Wilson St W, Perth ON K7H 2N6 | Fax", "ON"),
    ("Orthopaedic Outpatients | Private Bag 3200, Hamilton 3240", "Private Bag 3200"),
    ("Address: RR 2, 118 Elm Grove Rd, Lanark", "RR 2,"),
    (UK_HEAD + "Dr C Baxter | Millbrook Surgery | 2 Millbrook Fold | Todmorden", "2 Millbrook Fold"),
    (UK_HEAD + "cc Ms C Eze, Flat 3, 88 Crossley Terrace, Halifax", "Flat 3, 88 Crossley Terrace"),
    ("Consumer: Ann Roe, 22F | Address: 3/14 Ironbark Cres, Wellington NSW 2820", "3/14 Ironbark Cres"),
    (UK_HEAD + "- admit to Ackroyd Ward (haem), inform reg", "Ackroyd Ward"),
    (UK_HEAD + "NURSING EVALUATION\nBay 2 bed 4\n", "Bay 2 bed 4"),
    (
        "Wexley Teaching Hospitals NHS Foundation Trust | DISCHARGE SUMMARY",
        "Wexley Teaching Hospitals NHS Foundation Trust",
    ),
    ("To: Kauri Grove Rest Home, 88 Main St, Cambridge", "Kauri Grove Rest Home"),
    (UK_HEAD + "Vehicle: silver estate AB21 CDX - police at scene", "AB21 CDX"),
    ("YSBYTY CWM DERW - MINOR INJURIES UNIT\nGP: Meddygfa Bryn Teg (Dr H Rees)", "Meddygfa Bryn Teg"),
    (UK_HEAD + "Address: 3 Orchard Fold, Kings Heath, Birchley  HX2 0PL", "Kings Heath"),
    ("d/w ortho reg @ KRH 0835 - accept for washout", "KRH"),
    ("Depart scene 1114, arr WKH 1127. Handover to stroke reg", "WKH"),
    (UK_HEAD + "Pain 2/10 L hip. - SN Tolu B\n\nMon 8/4 1415", "Tolu B"),
    (UK_HEAD + "call bell in reach. - HCA Jodie / SN Marisol", "Jodie"),
    (UK_HEAD + "Dr Ann Pell FY1, GMC 7654321    bleep 4417", "4417"),
    (UK_HEAD + "DoLS authorised, ref KLD/DL/2024/0312. LPA in place", "KLD/DL/2024/0312"),
    (UK_HEAD + "Echo 22/2: LVEF 40-45%. Coronary angiogram 16/10 (R radial).", "22/2"),
    (UK_HEAD + "Echo 22/2: LVEF 40-45%. Coronary angiogram 16/10 (R radial).", "16/10"),
]

NOT_FOUND = [
    (UK_HEAD + "SOB on exertion 3/52, worse last 4/7. Furosemide 40mg om 5/7", "3/52"),
    (UK_HEAD + "SOB on exertion 3/52, worse last 4/7. Furosemide 40mg om 5/7", "4/7"),
    (UK_HEAD + "SOB on exertion 3/52, worse last 4/7. Furosemide 40mg om 5/7", "5/7"),
    (UK_HEAD + "- Review 3/12 with HbA1c\n- Hx of OD (last 18/12 ago)", "3/12"),
    (UK_HEAD + "- Review 3/12 with HbA1c\n- Hx of OD (last 18/12 ago)", "18/12"),
    (UK_HEAD + "Booking: 28+3/40 by dating scan", "28+3/40"),
    (UK_HEAD + "OT: Barthel 11/20. Kitchen assessment", "11/20"),
    ("obs 1/2 hrly overnight, then 4 hrly", "1/2"),
    ("Consultant: Dr S Pell MD FRCP      GMC 7654321", "GMC"),
    ("Consultant: Dr S Pell MD FRCP      GMC 7654321", "FRCP"),
    ("Seen 03:20 by ED SHO, d/w Med Reg Dr P Kaur", "Med Reg"),
    ("Transfer by road (St John) - ETA 1330. Ngā mihi nui,", "St John"),
    ("Transferred to NMC for cath.", "Transferred"),  # a hospital's abbreviation stays a place
    ("resp: bipap 14/6 40% most of shift", "14/6"),  # a US ventilator setting
    ("GCS 13 (E3V4M6). Oriented to self", "E3V4M6"),  # no Canadian postal code
    ("HR 128, BP 104/58, RR 22, 95% 2L", "RR 22"),  # a respiratory rate
    ("phaco/IOL OD 1/16 w/ Dr. Price, SN60WF 21.5 D", "SN60WF"),  # a lens model
    (UK_HEAD + "Ward: Ward 6, Tullis Wing (Respiratory)", "Ward 6"),
    ("24/7 hospice line given", "24/7"),
    ("progressed to LVH on echo", "LVH"),  # a clinical abbreviation ending in H
    (UK_HEAD + "SN Stable overnight, obs fine", "Stable"),
]


@pytest.mark.parametrize(("text", "surface"), FOUND)
def test_commonwealth_forms_are_found_and_kept(rules_only: Deidentifier, text: str, surface: str) -> None:
    assert surface in kept_surfaces(rules_only, text)


@pytest.mark.parametrize(("text", "surface"), NOT_FOUND)
def test_commonwealth_look_alikes_stay_in_clear(rules_only: Deidentifier, text: str, surface: str) -> None:
    assert not any(surface in kept or kept in surface for kept in kept_surfaces(rules_only, text))


def test_bare_health_numbers_need_a_commonwealth_note_and_their_check_digit() -> None:
    det = commonwealth_detector("en")
    uk = "Letter typed 14/03/2024 by GP.\nPatient 943 476 5919 and 943 476 5918\n"
    spans = run_detector(det, uk)
    assert [uk[s.start : s.end] for s in spans if s.label == "SSN"] == ["943 476 5919"]
    us = "Admitted 3/14/2024.\nCall 943 476 5919 for results\n"  # a US note: a phone number's shape
    assert not [s for s in run_detector(det, us) if s.label == "SSN"]


def test_a_plate_needs_a_vehicle_word() -> None:
    det = commonwealth_detector("en")
    assert not [s for s in run_detector(det, "Sample AB21 CDX sent to lab") if s.label == "VEHICLE"]
    assert [s.label for s in run_detector(det, "Vehicle: blue hatchback AB21 CDX")] == ["VEHICLE"]


def test_commonwealth_note_reads_the_date_order() -> None:
    assert commonwealth_note("Seen 14/03/2024 in clinic, follow up 3/12")
    assert commonwealth_note("paracetamol 1g qds, BNO 3/7")
    assert not commonwealth_note("Seen 3/14/2024 in clinic; DOB 04/22/1960; BNO")  # month first
    assert not commonwealth_note("INR 2.5, lactate 2.1, follow up 3/12")


def test_duration_verdicts() -> None:
    uk = "Clinic 14/03/2024.\nreview in 2/52, last BO 3/7 ago, on 3/12 seen"
    at = uk.index("2/52")
    assert duration_verdict(uk, at, at + 4) == "duration"
    at = uk.index("3/7")
    assert duration_verdict(uk, at, at + 3) == "duration"
    at = uk.index("3/12")
    assert duration_verdict(uk, at, at + 4) is None  # "on 3/12": a date cue
    us = "Clinic 3/14/2024. follow-up 5/7 with labs"
    at = us.index("5/7")
    assert duration_verdict(us, at, at + 3) is None  # a US note: May 7


def test_spelling_and_words_that_name_no_one() -> None:
    assert american_spelling("Haematology") == "Hematology"
    assert american_spelling("PAEDIATRICS") == "PEDIATRICS"
    assert american_spelling("centre") == "center"
    assert american_spelling("Michael") == "Michael"
    assert no_one_named("Ngā mihi nui")
    assert no_one_named("Year 10")
    assert not no_one_named("Aroha Ruatapu")
    assert not no_one_named("Kestrel Lodge")


@pytest.mark.parametrize(
    ("text", "part", "label", "source", "kept", "verdict"),
    [
        ("Client: Tama Roe     NHI ZZZ0016 |", "NHI ZZZ0016", "CITY", "model", "ZZZ0016", None),
        (
            "Patient: Ann ROE        CHI: 010101 1237",
            "Ann ROE        CHI",
            "PATIENT",
            "model",
            "Ann ROE",
            None,
        ),
        ("For transfer to KRH ED via road", "KRH ED", "HOSPITAL", "model", "KRH", None),
        ("Cobar NSW 2835\nPh 0428 613 907", "2835\nPh", "ZIP", "model", "2835", None),
        ("CHR Lorraine present.", "CHR Lorraine", "DOCTOR", "model", "Lorraine", None),
        (
            "Medicare: 2123 45670 1 / 1 | Ph",
            "2123 45670 1 / 1",
            "SSN",
            "model+rule:commonwealth",
            "2123 45670 1",
            "keep",
        ),
        (
            "Dr A Pell MD FRCPC     CPSO 76503",
            "FRCPC     CPSO 76503",
            "LICENSE",
            "rule:commonwealth+model",
            "76503",
            "keep",
        ),
        ("Consultant      GMC 7654321", "GMC", "LOCATION", "model", "GMC", "field-label"),
        ("Transferred to NMC for cath.", "NMC", "HOSPITAL", "model", "NMC", None),
        ("Admitted to NMC 4 West overnight", "NMC 4 West", "DEPARTMENT", "model", "NMC 4 West", None),
        ("GMC 7654321 on file", "GMC 7654321", "LICENSE", "model", "7654321", None),
        ("Closed w/ karakia. Ngā mihi.", "Ngā mihi", "PATIENT", "model", "Ngā mihi", "common-word"),
        ("pt transferred to Cardiology for tele", "Cardiology", "DEPARTMENT", "model", "Cardiology", None),
    ],
)
def test_commonwealth_guard(
    text: str, part: str, label: str, source: str, kept: str, verdict: str | None
) -> None:
    start = text.index(part)
    span, said = commonwealth_guard(text, Span(start, start + len(part), label, 0.9, source))
    assert text[span.start : span.end] == kept
    assert said == verdict


def test_no_commonwealth_rules_outside_english() -> None:
    assert commonwealth_detector("de").rules == ()
