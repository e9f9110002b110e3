"""Name rules: names next to titles, credentials and field labels; eponyms stay."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from phiscrub.detect.rules.base import RuleDetector
from phiscrub.detect.rules.names import NAME_STOPWORDS, name_detector, name_rules

Found = Callable[[RuleDetector, str], list[tuple[str, str]]]

EN = name_detector("en")


@pytest.mark.parametrize(
    ("text", "surface", "label"),
    [
        ("Seen by Dr. Smith today.", "Smith", "DOCTOR"),
        ("Dr Jane Smith reviewed.", "Jane Smith", "DOCTOR"),
        ("PER DR. SMITH, CONTINUE", "SMITH", "DOCTOR"),
        ("called dr smith re: labs", "smith", "DOCTOR"),
        ("Dr. J. Smith saw her.", "J. Smith", "DOCTOR"),
        ("Dr. Smith's office called.", "Smith", "DOCTOR"),
        ("Follow up with Dr. Kivimäki.", "Kivimäki", "DOCTOR"),
        ("Mr. O'Brien is a 54-year-old man", "O'Brien", "PATIENT"),
        ("Mrs. Smith-Jones reports pain.", "Smith-Jones", "PATIENT"),
        ("Electronically signed by: Jane Smith, MD  01/02/2019", "Jane Smith", "DOCTOR"),
        ("Dictated by: John Q. Public, MD (PGY-2)", "John Q. Public", "DOCTOR"),
        ("Attending: Maria Lopez, MD       PCP: Ann Lee, MD", "Ann Lee", "DOCTOR"),
        ("Ann Lee, MS, CGC\nGenetic counselor", "Ann Lee", "DOCTOR"),
        ("Jane Roe, PA-C; John Doe, PT.", "John Doe", "DOCTOR"),
        ("Zeferino Seničić, MD", "Zeferino Seničić", "DOCTOR"),
        ("Report given to paramedic Lorelei Oestrovsky.", "Lorelei Oestrovsky", "DOCTOR"),
        ("Patient: Jane Smith            MRN: 123", "Jane Smith", "PATIENT"),
        ("Name: Bob Jones", "Bob Jones", "PATIENT"),
        ("PT: ROBERT JONES   MRN 123", "ROBERT JONES", "PATIENT"),
        ("Patient: Kiuru, Varvara | MRN 1", "Kiuru, Varvara", "PATIENT"),
        ("Callum, 76 y/o, MRN I08559", "Callum", "PATIENT"),
        ("Baby Boy Jones, term", "Jones", "PATIENT"),
        ("lives with her son, Mark, in town", "Mark", "RELATIVE"),
        ("wife Mary Jones at bedside", "Mary Jones", "RELATIVE"),
        ("Hospitalist: Dr. Coardi\nDiagnoses", "Coardi", "DOCTOR"),
        ("ATTENDING DR COARDI.", "COARDI", "DOCTOR"),
        ("Electronically signed: Dr. Oiva Badel, 2012-05-30", "Oiva Badel", "DOCTOR"),
        ("CRNA: Irma Grégoire", "Irma Grégoire", "DOCTOR"),
        ("Signed D. Schöpf, PMHNP-BC  2012-02-01", "D. Schöpf", "DOCTOR"),
    ],
)
def test_name_rules_find_names_next_to_triggers(found: Found, text: str, surface: str, label: str) -> None:
    assert (surface, label) in found(EN, text)


@pytest.mark.parametrize(
    "text",
    [
        "Parkinson's disease with Foley catheter in place.",
        "Glasgow Coma Scale 15; Apgar 9 and 9; Babinski negative.",
        "Dr. visit tomorrow; dr office closed.",
        "Bought a Mr. Coffee machine.",
        "Mild MR. No angina.",
        "Boston, MA. Pittsburgh, PA 15213.",
        "BP 94/58, HR 118, SpO2 86%.",
        "WBC 18.6 K/uL, Creatinine 2.1 mg/dL.",
        "CC: BLURRY VISION x 4 months",
        "Next RN visit 3/30; Charge RN aware.",
        "SON CALLED. WIFE AT BEDSIDE.",
        "per Nephrology, MD aware.",
        "Anesthesia: Spinal with block.",
        "Kimberley Zechmeister, MD, Pediatric Sleep Medicine",
        "Lives with grandmother. Mom works nights.",
        "Washington, DC 20001",
    ],
)
def test_name_rules_leave_eponyms_and_clinical_words(found: Found, text: str) -> None:
    got = found(EN, text)
    # The signature line's own name is a name; nothing else in these lines is.
    assert [pair for pair in got if pair != ("Kimberley Zechmeister", "DOCTOR")] == []


def test_name_rules_span_excludes_title_and_credential(found: Found) -> None:
    assert found(EN, "Dr. Jane Smith, MD") == [("Jane Smith", "DOCTOR")]


def test_name_stopwords_are_lower_case() -> None:
    assert all(w == w.lower() for w in NAME_STOPWORDS)


def test_name_rules_exist_only_for_english_and_the_packs() -> None:
    assert name_rules("zh") == ()
    assert name_rules("xx") == ()
    assert name_rules("ca") != ()
