"""LOCATION rules: ZIP codes with context and US street addresses."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from phiscrub.detect.rules.base import RuleDetector
from phiscrub.detect.rules.locations import location_detector, location_rules

Found = Callable[[RuleDetector, str], list[tuple[str, str]]]

EN = location_detector("en")


@pytest.mark.parametrize(
    ("text", "surface", "label"),
    [
        ("Springfield, IL 62704", "62704", "ZIP"),
        ("Boston, MA 02114-1234", "02114-1234", "ZIP"),
        ("Austin, Texas 75001", "75001", "ZIP"),
        ("BOSTON, MA 02114", "02114", "ZIP"),
        ("Mailing zip code: 90210.", "90210", "ZIP"),
        ("Portland OR 97201", "97201", "ZIP"),
        ("Lives at 1428 Elm Street with her son.", "1428 Elm Street", "STREET"),
        ("Office: 22 Baker St., Suite 3", "22 Baker St.", "STREET"),
        ("Address: 450 N. Main Ave, Apt 3B", "450 N. Main Ave", "STREET"),
        ("Send to PO Box 123, Dover", "PO Box 123", "STREET"),
        ("Send to P.O. Box 55.", "P.O. Box 55", "STREET"),
        ("22 BAKER ST, BOSTON", "22 BAKER ST", "STREET"),
        ("7 Old Mill Road, Unit 2", "7 Old Mill Road", "STREET"),
        ("Clinic at 300 5th Avenue.", "300 5th Avenue", "STREET"),
        ("moved to 88 Martin Luther King Blvd last year", "88 Martin Luther King Blvd", "STREET"),
        ("lives on Maple Avenue near the park", "Maple Avenue", "STREET"),
    ],
)
def test_location_rules_find_zip_codes_and_streets(found: Found, text: str, surface: str, label: str) -> None:
    assert (surface, label) in found(EN, text)


@pytest.mark.parametrize(
    "text",
    [
        "WBC 18600, platelets 250000.",
        "Creatinine 2.1 mg/dL; glucose 104.",
        "X 2 DAYS PER DR SMITH.",
        "3 tabs per Dr. Jones, 2 per day.",
        "Follow up in 2 weeks with Dr Lee.",
        "BP 94/58, HR 118.",
        "Apt 3B and Suite 300 alone are not streets.",
        "Parkinson's disease, Glasgow Coma Scale 15.",
        "Repeat in 6-8 weeks.",
        "Account 12345 reviewed.",
    ],
)
def test_location_rules_skip_numbers_without_address_context(found: Found, text: str) -> None:
    assert found(EN, text) == []


def test_location_rules_exist_only_for_english() -> None:
    assert location_rules("zh") == ()
    assert location_detector("zh").rules == ()
