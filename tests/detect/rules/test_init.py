"""The rule package: default detectors per language, registry, speed on a long note."""

from __future__ import annotations

import pytest

from phiscrub.detect.base import Detector
from phiscrub.detect.rules import FULL_LANGUAGES, RULE_DETECTORS, RuleDetector, default_detectors

from ._support import run_detector

# A synthetic ~500-word note (made-up PHI) with the usual clinical look-alikes.
_NOTE = (
    "DISCHARGE SUMMARY\nPatient: Jane Roe            MRN: 0048-2231\nDOB: 03/12/1961   Age: 62\n"
    "Admission Date: 3/1/2019   Discharge Date: March 5, 2019\nAttending: Ann Lee, MD   PCP: Dr. Bob Kent\n"
    "Insurance: Acme Health, member ID XKQ-44718. Address: 1428 Elm Street, Springfield, IL 62704.\n"
    "HPI: Mrs. Roe is a 62-year-old retired teacher who presented on 2/28 with cough. In the ED: T 39.2 C, "
    "HR 118, BP 94/58, RR 26, SpO2 86% on room air. WBC 18.6 K/uL. Lactate 3.4 mmol/L. CURB-65 score 4. "
    "Blood cultures 2/2 grew S. pneumoniae (accession S24-18832). Ceftriaxone 2 g IV q24h and azithromycin "
    "500 mg IV daily. MoCA 22/30. Repeat chest radiograph in 6-8 weeks. Follow-up at 10:15 on 3/12.\n"
    "Daughter Mary Roe, cell (617) 555-0134; fax 617-555-0199; email mary.roe@example.org; portal "
    "https://portal.example.org. Device: pacemaker (serial 4471-22-K). Job #: 88213.\n"
)


def _long_note(words: int = 500) -> str:
    text = _NOTE
    while len(text.split()) < words:
        text += _NOTE
    return text


def test_default_detectors_cover_every_kind_in_english() -> None:
    dets = default_detectors("en")
    assert [d.name for d in dets] == [*RULE_DETECTORS, "net"]  # the safety net last (issue 27)
    assert all(isinstance(d, Detector) for d in dets)
    assert "en" in FULL_LANGUAGES


@pytest.mark.parametrize(
    ("lang", "kinds"),
    [
        ("es", ["date", "contact", "id", "location", "age", "name"]),
        ("ca", ["date", "contact", "id", "location", "age", "name"]),
        ("ES", ["date", "contact", "id", "location", "age", "name"]),
        ("es-ES", ["date", "contact", "id", "location", "age", "name"]),
        ("zh", ["date", "contact", "id"]),
        ("de", ["date", "contact", "id", "location", "age", "name"]),
        ("fr", ["date", "contact", "id", "location", "age", "name"]),
        ("nl", ["date", "contact", "id", "location", "age", "name"]),
        ("it", ["date", "contact", "id"]),
    ],
)
def test_default_detectors_keep_neutral_rules_for_other_languages(lang: str, kinds: list[str]) -> None:
    names = [d.name for d in default_detectors(lang)]
    assert names == [*kinds, "net"]


def test_default_detectors_accept_region_suffixes() -> None:
    assert [d.name for d in default_detectors("en-US")] == [d.name for d in default_detectors("en")]


def test_default_detectors_find_each_kind_in_a_note() -> None:
    labels: set[str] = set()
    for det in default_detectors("en"):
        assert isinstance(det, RuleDetector)
        labels |= {s.label for s in run_detector(det, _NOTE)}
    assert {
        "DATE",
        "PHONE",
        "FAX",
        "EMAIL",
        "URL",
        "MEDICALRECORD",
        "HEALTHPLAN",
        "DEVICE",
        "IDNUM",
    } <= labels
    assert {"STREET", "ZIP", "AGE", "DOCTOR", "PATIENT", "RELATIVE"} <= labels
