"""CONTACT rules: phone and fax numbers, e-mail, URLs and IP addresses."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from phiscrub.detect.rules.base import RuleDetector
from phiscrub.detect.rules.contact import contact_detector

Found = Callable[[RuleDetector, str], list[tuple[str, str]]]

EN = contact_detector("en")


@pytest.mark.parametrize(
    ("text", "surface", "label"),
    [
        ("Clinic phone (617) 555-0134.", "(617) 555-0134", "PHONE"),
        ("Call 617-555-0134 with questions", "617-555-0134", "PHONE"),
        ("Tel 617.555.0134", "617.555.0134", "PHONE"),
        ("Daughter at +1 617 555 0134.", "+1 617 555 0134", "PHONE"),
        ("Hotline 1-800-555-0199 x123 daily", "1-800-555-0199 x123", "PHONE"),
        ("cell 555-0134, leave a message", "555-0134", "PHONE"),
        ("reachable at 555-0187 after 5", "555-0187", "PHONE"),
        ("triage line: 203 673 5263.", "203 673 5263", "PHONE"),
        ("after-hours line 8013968103 reviewed", "8013968103", "PHONE"),
        ("Case manager ext. 4521", "4521", "PHONE"),
        ("Stroke service (pager 61234)", "61234", "PHONE"),
        ("Madrid office +34 912 345 678", "+34 912 345 678", "PHONE"),
        ("London: +44 20 7946 0958", "+44 20 7946 0958", "PHONE"),
        ("Berlin +49 30 1234567.", "+49 30 1234567", "PHONE"),
        ("Tel: 617-555-0100   Fax: 617-555-0199", "617-555-0199", "FAX"),
        ("Tel: 617-555-0100   Fax: 617-555-0199", "617-555-0100", "PHONE"),
        ("Records faxed to the office at 617-555-0188.", "617-555-0188", "FAX"),
        ("T (710) 874-1821 | F (710) 874-1822", "(710) 874-1822", "FAX"),
        ("Email jane.doe@example-health.org today", "jane.doe@example-health.org", "EMAIL"),
        ("write to j_smith+clinic@mail.example.com.", "j_smith+clinic@mail.example.com", "EMAIL"),
        ("Portal https://portal.example.org/login?x=1.", "https://portal.example.org/login?x=1", "URL"),
        ("See www.example-health.org for forms", "www.example-health.org", "URL"),
        ("via portal.example-health.org.", "portal.example-health.org", "URL"),
        ("upload at http://files.example.net/up/", "http://files.example.net/up/", "URL"),
        ("hub IP 192.168.10.254 logged", "192.168.10.254", "IPADDRESS"),
        ("session from 10.0.0.7.", "10.0.0.7", "IPADDRESS"),
        ("node 2001:db8::8a2e:370:7334 online", "2001:db8::8a2e:370:7334", "IPADDRESS"),
        ("link-local fe80::1 seen", "fe80::1", "IPADDRESS"),
    ],
)
def test_contact_rules_find_numbers_and_addresses(found: Found, text: str, surface: str, label: str) -> None:
    assert (surface, label) in found(EN, text)


@pytest.mark.parametrize(
    "text",
    [
        "WBC 18.6 K/uL, Creatinine 2.1 mg/dL.",
        "Ceftriaxone 2 g IV q24h, azithromycin 500 mg IV daily.",
        "Enoxaparin 40 mg/0.4 ml subcut.",
        "BP 94/58, HR 118, SpO2 86%.",
        "MoCA 22/30; CURB-65 score 4.",
        "Follow-up at 10:15 and 16:42; times 10:15:30.",
        "Repeat in 6-8 weeks, 2-3 times daily, x 3 days.",
        "Seen 12.03.2019 and 2019-03-12.",
        "Version 1.2.3 and 300.1.1.1 are not addresses.",
        "e.g. i.e. bed.It was quiet.",
        "call 911 if worse",
        "telephone call on 17.08.1981 with the family",
        "Medical record number: 450-6431",
        "EBL 200-3000 mL.",
        "MRx OD -2.75 +0.75 x 090",
    ],
)
def test_contact_rules_skip_labs_doses_dates_and_versions(found: Found, text: str) -> None:
    assert found(EN, text) == []


def test_contact_rules_for_other_languages_keep_neutral_shapes(found: Found) -> None:
    es = contact_detector("es")
    text = "Correo ana@example.org, web www.example.es, tel. +34 912 345 678, local 617-555-0134"
    got = found(es, text)
    assert ("ana@example.org", "EMAIL") in got
    assert ("www.example.es", "URL") in got
    assert ("+34 912 345 678", "PHONE") in got
    assert all(surface != "617-555-0134" for surface, _ in got)


def test_contact_rules_take_the_email_not_its_domain(found: Found) -> None:
    assert found(EN, "mail jane@portal.example.org") == [("jane@portal.example.org", "EMAIL")]


@pytest.mark.parametrize(
    ("lang", "text", "surface", "label"),
    [
        ("es", "esposa, tel. 624 042 723.", "624 042 723", "PHONE"),
        ("ca", "Secretaria de la unitat: 628 365 171", "628 365 171", "PHONE"),
        ("es", "FAX 90 601 11 95, centro de salud", "90 601 11 95", "FAX"),
        ("zh", "咨询电话15280875375，工作日", "15280875375", "PHONE"),
        ("zh", "传真010-12345678", "010-12345678", "FAX"),
        ("zh", "请通过http://portal.example.com.cn预约", "http://portal.example.com.cn", "URL"),
        ("zh", "邮箱ward3@example.cn联系", "ward3@example.cn", "EMAIL"),
    ],
)
def test_contact_rules_know_local_phone_shapes_and_cjk_boundaries(
    found: Found, lang: str, text: str, surface: str, label: str
) -> None:
    assert (surface, label) in found(contact_detector(lang), text)


def test_contact_rules_local_shapes_need_separators(found: Found) -> None:
    # A bare 9-digit number is an identifier in Spanish notes, not a phone number.
    assert found(contact_detector("es"), "NHC 624042723") == []
