"""DATE rules: formats that must be found, and look-alikes (times, scores, ranges) that must not."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from phiscrub.detect.rules.base import RuleDetector
from phiscrub.detect.rules.dates import date_detector, date_rules

Found = Callable[[RuleDetector, str], list[tuple[str, str]]]

EN = date_detector("en")


@pytest.mark.parametrize(
    ("text", "surface"),
    [
        # numeric with a year, both day-month orders, ISO
        ("DOB: 03/12/2019.", "03/12/2019"),
        ("Seen 3-12-19 in clinic.", "3-12-19"),
        ("Fecha 12.03.2019 revisada.", "12.03.2019"),
        ("Echo 2019-03-12 showed EF 55%.", "2019-03-12"),
        ("Served 08/21/2014-10/30/2016 overseas.", "08/21/2014"),
        ("Served 08/21/2014-10/30/2016 overseas.", "10/30/2016"),
        # textual
        ("Admitted 12 Mar 2019 via ED.", "12 Mar 2019"),
        ("on March 12th, 2019 she fell", "March 12th, 2019"),
        ("next visit Mar 12 at 10:15", "Mar 12"),
        ("seen on the 12th of March by PT", "12th of March"),
        ("MRI on Tuesday, March 12: no change", "Tuesday, March 12"),
        ("LAST A1C (03-JUL-2018) 8.1", "03-JUL-2018"),
        ("Target discharge is May. 20, 2017.", "May. 20, 2017"),
        ("Scan 2019 Mar 12 reviewed.", "2019 Mar 12"),
        # partial
        ("Symptoms began in March 2019.", "March 2019"),
        ("Last colonoscopy 3/2019, normal.", "3/2019"),
        ("Wound check 7/23 with Dr. Lee.", "7/23"),
        ("PEG placed on 10/6 without issue.", "10/6"),
        ("quit smoking in '92", "'92"),
        ("quit in 95 and never relapsed", "95"),
        ("Diabetic since 2015.", "2015"),
        ("married in 2019 in Ohio", "2019"),
        ("last seen Spring 2019", "Spring 2019"),
        ("fell in the summer of 2018", "summer of 2018"),
        ("Chemo ended in May; doing well.", "May"),
        ("lived there 2015-2019 with her sister", "2015"),
        # ranges and weekday / holiday
        ("Course 3/1-3/5/2019 completed.", "3/1"),
        ("Course 3/1-3/5/2019 completed.", "3/5/2019"),
        ("plays bridge on Tuesdays", "Tuesdays"),
        ("Worse over Christmas.", "Christmas"),
        ("Family visited at Thanksgiving.", "Thanksgiving"),
        # month/day without a year next to a clock time or a cue
        ("Phone note 4/10 11:40 from L&D", "4/10"),
        ("Date of birth: 3/3\nMRN", "3/3"),
        ("Date: 3-9     ICU day 4", "3-9"),
        ("Note entered 20140415 22:49", "20140415"),
        ("Imaging: CT A/P 20161026 - 9 mm stone", "20161026"),
    ],
)
def test_date_rules_find_date_formats(found: Found, text: str, surface: str) -> None:
    assert (surface, "DATE") in found(EN, text)


@pytest.mark.parametrize(
    "text",
    [
        # clock times
        "Follow-up at 10:15 in clinic.",
        "Electronically signed 16:42.",
        "Lactate cleared by 0600 the next morning.",
        "Meds given at 2 pm.",
        "Night shift 1900-2100 slept well.",
        # ratios, scores, vitals, doses
        "Blood cultures 2/2 grew S. pneumoniae.",
        "MoCA 22/30, consistent with baseline.",
        "BP 94/58, HR 118, SpO2 86% on RA.",
        "BP improved to 120/80.",
        "Take 1/2 tab at bedtime.",
        "Soft 2/6 holosystolic murmur at apex.",
        "Strength 5/5 throughout.",
        "Pain 4/10, down from 8/10.",
        "PSV 10/5, FiO2 40%.",
        "BIMS 10/15 this quarter.",
        "CURB-65 score 4. GCS 15.",
        # labs, doses, durations, counts
        "WBC 18.6 K/uL, Creatinine 2.1 mg/dL.",
        "Ceftriaxone 2 g IV q24h; enoxaparin 40 mg/0.4 ml.",
        "Repeat chest radiograph in 6-8 weeks.",
        "Drinks 2-3 times a week.",
        "Amoxicillin x 3 days.",
        "Glucose ran 200-300 mg/dL.",
        "Received 2000 mL in 2000 mL bags.",
        "70 Gy in 35 fractions.",
        # eponyms and words that contain month names
        "Parkinson's disease with Marked tremor.",
        "MAR reviewed; may decrease dose; dec breath sounds.",
    ],
)
def test_date_rules_skip_times_scores_doses_and_ranges(found: Found, text: str) -> None:
    assert [s for s, lab in found(EN, text) if lab == "DATE"] == []


def test_date_rules_do_not_take_an_identifier_after_mrn(found: Found) -> None:
    assert found(EN, "MRN 01-17-65  ACCT 15-5493537") == []
    assert found(EN, "MRN: 20190312") == []


def test_date_rules_for_other_languages_keep_numeric_dates_only(found: Found) -> None:
    es = date_detector("es")
    assert len(date_rules("es")) < len(date_rules("en"))
    assert found(es, "Ingreso el 12/03/2019 por disnea.") == [("12/03/2019", "DATE")]
    assert found(es, "visto el martes, March 12") == []


def test_date_rules_emit_one_span_for_a_full_date(found: Found) -> None:
    # "March 12" inside "March 12, 2019" is not proposed a second time.
    assert found(EN, "on March 12, 2019 at noon") == [("March 12, 2019", "DATE")]


def test_date_rules_find_numeric_dates_inside_cjk_text(found: Found) -> None:
    assert found(date_detector("zh"), "患者于2019-03-12入院") == [("2019-03-12", "DATE")]
