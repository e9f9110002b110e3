"""AGE rules: the number of an age expression, never durations, temperatures or sizes."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from phiscrub.detect.rules.ages import age_detector, age_rules
from phiscrub.detect.rules.base import RuleDetector

Found = Callable[[RuleDetector, str], list[tuple[str, str]]]

EN = age_detector("en")


@pytest.mark.parametrize(
    ("text", "surface"),
    [
        ("54 yo woman with cough", "54"),
        ("54yo M", "54"),
        ("a 54 y/o man", "54"),
        ("54 y.o. female", "54"),
        ("a 54-year-old retired teacher", "54"),
        ("a 54 year old man", "54"),
        ("He is 54 years old.", "54"),
        ("aged 54, lives alone", "54"),
        ("diagnosed at age 54.", "54"),
        ("Age: 54   Sex: F", "54"),
        ("Age/Sex: 54 / M", "54"),
        ("Jane Roe | 67F | MRN 1", "67"),
        ("PT J. ROE  54Y M  MRN", "54"),
        ("DOB 1/2/1960 (64 yrs)", "64"),
        ("now 3 months old", "3"),
        ("an 18-month-old boy", "18"),
        ("a woman in her 60s", "60s"),
        ("children aged 4, 7 and 11", "11"),
        ("father died at 69 of MI", "69"),
        ("Her son, 65, is at home", "65"),
    ],
)
def test_age_rules_take_the_number_of_an_age(found: Found, text: str, surface: str) -> None:
    assert (surface, "AGE") in found(EN, text)


@pytest.mark.parametrize(
    "text",
    [
        "Symptoms for 3 years.",
        "Amoxicillin x 2 years ago; x 3 days.",
        "T 101 F orally.",
        "16F Foley placed; 14 Fr catheter; 8 F sheath.",
        "Gestational age 34 weeks.",
        "Repeat in 6-8 weeks, 2-3 times daily.",
        "HR 118, BP 94/58, GCS 15, SpO2 86%.",
        "WBC 18.6 K/uL, Creatinine 2.1 mg/dL.",
        "Protocol extended by 12 hours.",
        "Systolic pressures in the 70s.",
        "Ceftriaxone 2 g IV q24h.",
    ],
)
def test_age_rules_skip_durations_temperatures_and_sizes(found: Found, text: str) -> None:
    assert found(EN, text) == []


def test_age_rules_exist_only_for_english() -> None:
    assert age_rules("es") == ()
