"""ID rules: identifiers after context words, SSNs, and weak ID-shaped fallbacks."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from phiscrub.detect.rules.base import RuleDetector
from phiscrub.detect.rules.ids import ID_KEYWORDS, ID_RULES_EN, id_detector, id_rules

Found = Callable[[RuleDetector, str], list[tuple[str, str]]]

EN = id_detector("en")


@pytest.mark.parametrize(
    ("text", "surface", "label"),
    [
        ("SSN: 123-45-6789", "123-45-6789", "SSN"),
        ("face sheet lists 078-05-1120 as SSN", "078-05-1120", "SSN"),
        ("SSN on file (854 11 8956) verified", "854 11 8956", "SSN"),
        ("Patient: J. Doe   MRN: 0048-2231   Age: 54", "0048-2231", "MEDICALRECORD"),
        ("Medical Record #: 00123456", "00123456", "MEDICALRECORD"),
        ("MRN (our system): 9988776", "9988776", "MEDICALRECORD"),
        ("Hospital number: 108-50-33", "108-50-33", "MEDICALRECORD"),
        ("MRN 01-17-65  ACCT 15-5493537", "01-17-65", "MEDICALRECORD"),
        ("MRN: 20190312", "20190312", "MEDICALRECORD"),
        ("Acct # A7731902", "A7731902", "ACCOUNT"),
        ("Billing account: 4471-22098", "4471-22098", "ACCOUNT"),
        ("Claim number: 710491215", "710491215", "ACCOUNT"),
        ("Insurance: Acme Health, member ID XKQ-44718", "XKQ-44718", "HEALTHPLAN"),
        ("Insurance: Acme Health, ID W1234567", "W1234567", "HEALTHPLAN"),
        ("Medicare beneficiary ID: 1EG4-TE5-MK72", "1EG4-TE5-MK72", "HEALTHPLAN"),
        ("policy no. PLC-88213", "PLC-88213", "HEALTHPLAN"),
        ("Prescriber DEA BS1234563", "BS1234563", "LICENSE"),
        ("NPI 1234567893", "1234567893", "LICENSE"),
        ("state lic # 44812", "44812", "LICENSE"),
        ("driver's license, no. 684786", "684786", "LICENSE"),
        ("Left cochlear implant (serial 4471-22-K)", "4471-22-K", "DEVICE"),
        ("CPAP (home unit serial 03MT08655, 11 cm H2O)", "03MT08655", "DEVICE"),
        ("stent lot 77123A deployed", "77123A", "DEVICE"),
        ("his car (plate 7ABC123) in lot", "7ABC123", "VEHICLE"),
        ("tail number WMY 3363, departed", "WMY 3363", "VEHICLE"),
        ("via EMS, Medic unit M-214", "M-214", "VEHICLE"),
        ("ground ambulance (unit 86) with RN", "86", "VEHICLE"),
        ("MOTORCYCLE (VIN 1HGCM82633A004352)", "1HGCM82633A004352", "VEHICLE"),
        ("PALM SCAN ID: PV-88213-K", "PV-88213-K", "BIOID"),
        ("Newborn footprint record: FP2231907", "FP2231907", "BIOID"),
        ("Blood cultures (accession S24-18832) positive", "S24-18832", "IDNUM"),
        ("Dictated by: X   Job #: 88213", "88213", "IDNUM"),
        ("sputum cx (specimen SP-24-0042)", "SP-24-0042", "IDNUM"),
        ("Linked cases: 2024-0012, 2024-0013", "2024-0013", "IDNUM"),
        ("accession numbers: W25-1906 (EBUS), 099574 (TBBx)", "099574", "IDNUM"),
        ("Pharmacy, store #4471", "4471", "IDNUM"),
        ("Path: pending (S25-339306)", "S25-339306", "IDNUM"),
        ("buccal swab backup (4475-2259)", "4475-2259", "IDNUM"),
    ],
)
def test_id_rules_find_identifiers_after_context_words(
    found: Found, text: str, surface: str, label: str
) -> None:
    assert (surface, label) in found(EN, text)


@pytest.mark.parametrize(
    "text",
    [
        "WBC 18.6 K/uL, Creatinine 2.1 mg/dL.",
        "Ceftriaxone 2 g IV q24h; 500 mg IV daily; 40 mg/0.4 ml.",
        "BP 94/58, HR 118, SpO2 86%.",
        "MoCA 22/30, CURB-65 score 4, GCS 15.",
        "order 500 mg; Lot 50 mg; case 2 of 3; spec grav 1.020.",
        "serial troponins 0.01, 0.02; serial exams.",
        "ID consult; ID recs appreciated.",
        "Repeat in 6-8 weeks; 2-3 times daily; x 3 days.",
        "Reason for referral: 83-year-old man",
        "MRN 42630547; 74-year-old man",
        "Report dated 03/12/2019 reviewed.",
        "Visit #6; Room # 412B; cycle #3.",
        "Treatment #: 148",
        "Bed: SICU-3-214",
        "SR 90S-100S, MAP 66-80.",
        "unit 412B on the west wing",
        "invalid 987-65-4321 and 000-12-3456 are not SSNs",
    ],
)
def test_id_rules_skip_doses_labs_ages_and_short_counts(found: Found, text: str) -> None:
    got = found(EN, text)
    # "MRN 42630547" is an identifier; nothing else in these lines is.
    assert [pair for pair in got if pair != ("42630547", "MEDICALRECORD")] == []


def test_id_rules_split_lists_into_items(found: Found) -> None:
    got = found(EN, "Linked cases: 2024-0012, 2024-0013 and 2024-0014.")
    assert got == [("2024-0012", "IDNUM"), ("2024-0013", "IDNUM"), ("2024-0014", "IDNUM")]


def test_id_rules_label_a_generic_id_by_its_neighbours(found: Found) -> None:
    assert found(EN, "Employee ID 55-21934") == [("55-21934", "IDNUM")]
    assert found(EN, "Payer: Acme Health, ID 55-21934") == [("55-21934", "HEALTHPLAN")]


def test_id_keywords_cover_every_id_label() -> None:
    assert set(ID_KEYWORDS) == {
        "MEDICALRECORD",
        "ACCOUNT",
        "HEALTHPLAN",
        "LICENSE",
        "DEVICE",
        "VEHICLE",
        "BIOID",
        "IDNUM",
    }


def test_id_rules_for_other_languages_keep_shapes_and_use_their_own_keywords(found: Found) -> None:
    es = id_detector("es")
    # No English context-word rule runs on Spanish; the pack brings its own keywords and shapes.
    assert not {r.name for r in ID_RULES_EN} & {r.name for r in id_rules("es")}
    got = found(es, "NHC 0048-2231; SSN 123-45-6789; muestra S24-18832")
    assert ("123-45-6789", "SSN") in got
    assert ("S24-18832", "IDNUM") in got
    # "NHC" is a Spanish keyword (tests/test_langpacks.py); English keywords stay English-only.
    assert ("0048-2231", "MEDICALRECORD") in got
    assert ("XKQ-44718", "HEALTHPLAN") not in found(es, "member ID XKQ-44718")


def test_id_rules_find_digit_runs_inside_cjk_text(found: Found) -> None:
    assert ("3853795", "MEDICALRECORD") in found(id_detector("zh"), "床号2，住院号3853795")
    assert ("38537951", "IDNUM") in found(id_detector("zh"), "备注38537951")
