"""DATE rules: numeric, textual, partial dates, weekdays, holidays, contextual years.

What is *not* a date, on purpose: clock times (``10:15``, ``0600``), ratios and scores (``2/2``,
``MoCA 22/30``, ``2/6 murmur``), blood pressures (``94/58``), doses (``1/2 tab``) and count ranges
(``2-3 times``, ``6-8 weeks``). Numeric patterns validate month 1-12 and day 1-31; month/day
without a year is also checked for fraction shapes and score/vital-sign context.

Numeric patterns are language-neutral; month names, weekdays, holidays and context words are
English (``lang="en"``).
"""

from __future__ import annotations

import re

from phiscrub.detect.rules._common import case_variants, followed_by_unit, text_after, text_before
from phiscrub.detect.rules.base import PatternRule, RuleDetector

__all__ = ["DATE_RULES_EN", "DATE_RULES_NEUTRAL", "date_detector", "date_rules"]

# --- building blocks --------------------------------------------------------------------------
_MONTH_FULL = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
]
_MONTH_ABBR = ["Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec"]
# Lower-case full names except "may" (a modal verb); abbreviations only Title/UPPER ("dec" = decreased).
_MONTH_WORDS = [w for w in case_variants(_MONTH_FULL) if w != "may"] + case_variants(_MONTH_ABBR, lower=False)
_MONTH = "(?:" + "|".join(sorted(_MONTH_WORDS, key=len, reverse=True)) + r")(?:\.(?!\d))?"
_MONTH_FULL_RE = "(?:" + "|".join(sorted(case_variants(_MONTH_FULL, lower=False), key=len, reverse=True)) + ")"

_WEEKDAY_FULL = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_WEEKDAY_ABBR = ["Mon", "Tue", "Tues", "Wed", "Thu", "Thur", "Thurs", "Fri", "Sat", "Sun"]
_WEEKDAY_ANY = (
    "(?:"
    + "|".join(sorted(case_variants(_WEEKDAY_FULL) + case_variants(_WEEKDAY_ABBR, lower=False), key=len, reverse=True))
    + r")\.?"
)
_WEEKDAY_FULL_RE = "(?:" + "|".join(case_variants(_WEEKDAY_FULL)) + ")"

_DAY = r"(?:0?[1-9]|[12]\d|3[01])"
_ORD = r"(?:st|nd|rd|th|ST|ND|RD|TH)"
_YEAR4 = r"(?:19|20)\d{2}"
_YEAR = rf"(?:{_YEAR4}|'\d{{2}})"
_WD_PREFIX = rf"(?:{_WEEKDAY_ANY},?\s+)?"

# Numbers glued to letters, slashes or decimal points are parts of something else.
_NB = r"(?<![\w/.])"
_NA = r"(?![\w/]|[.\-]\d)"


# --- validators ---------------------------------------------------------------------------------
def _not_unit(m: re.Match[str]) -> bool:
    return not followed_by_unit(m.string, m.end())


def _valid_numeric(m: re.Match[str]) -> bool:
    """Day/month order is unknown: accept when either m/d or d/m is a plausible calendar date."""
    a, b = int(m.group("a")), int(m.group("b"))
    ok = (1 <= a <= 12 and 1 <= b <= 31) or (1 <= b <= 12 and 1 <= a <= 31)
    return ok and _not_unit(m)


_SCORE_BEFORE_RE = re.compile(
    r"(?:\b(?:bp|b/p|blood\s+pressure|pressure|score|scale|scored|moca|mmse|slums|gcs|apgar|phq-?\d*|gad-?\d*"
    r"|audit(?:-c)?|strength|motor|power|grade|graded|murmur|pain|cultures?|cx|bottles?|sets?|ratio|reflexes"
    r"|dtrs?|acuity|vision|va|fio2|peep|vent|ventilator|settings?|ps|ie|i:e|tv|rate|hr|rr|sbp|dbp|map"
    r"|nihss|asa|ecog|rass|cam|cpot|bps|nrs|vas|flacc|braden|morse|barthel|fim|ashworth|mrc|out\s+of"
    r"|x|tabs?|tablets?|nodes?|lymph|cores?|positive|sats?)\b|[=~<>])[\s:=]*$",
    re.IGNORECASE,
)
_SCORE_AFTER_RE = re.compile(
    r"\s*(?:tabs?|tablets?|caps?|strength|murmur|holosystolic|systolic|diastolic|pain|bottles?|cultures?"
    r"|sets?|positive|negative|views?|nodes?|cores?|ns|normal\s+saline|ratio|score|on\s+the|scale|power"
    r"|reflexes|motor|in\s+\w+\s+(?:ext|flex)|bilat|bilaterally|b/l|throughout|nipple|dilated|cm|mm|"
    r"effaced|of\s+\d|[-–]\s*\d+\s*(?:/\s*\d+)?\s*(?:ml|mg|units)\b)",
    re.IGNORECASE,
)
_DATE_CUE_BEFORE_RE = re.compile(
    r"\b(?:on|since|from|until|till|thru|through|dated|seen|last|next|by|dos|date|d/c|dc|adm|admit|admitted"
    r"|discharged?|f/u|fu|follow-?up|starting|started|start|due|began|onset|stopped|held|resumed|scheduled"
    r"|visit|appt|appointment|returns?|rtc|before|after|between|and|to|-)[\s:]*$",
    re.IGNORECASE,
)


def _valid_month_day(m: re.Match[str]) -> bool:
    """Month/day without year: reject fractions, scores, vitals, doses; accept calendar-looking cases."""
    month, day = int(m.group("m")), int(m.group("d"))
    text = m.string
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return False
    before = text_before(m, 24)
    after = text_after(m, 24)
    if _SCORE_BEFORE_RE.search(before) or _SCORE_AFTER_RE.match(after):
        return False
    if followed_by_unit(text, m.end()):
        return False
    # "m/d-m/d/yyyy" ranges: the end of the range carries a year, so this is a date.
    if re.match(r"-\d{1,2}/\d{1,2}", after):
        return True
    fraction_like = month == day or (month < day and day in (2, 3, 4, 5, 6, 8, 10, 12, 16, 20))
    if fraction_like:
        return _DATE_CUE_BEFORE_RE.search(before) is not None
    return True


def _year_in_context(m: re.Match[str]) -> bool:
    """A bare year is a date only after a date cue and when no unit follows."""
    if followed_by_unit(m.string, m.end("d")):
        return False
    after = text_after(m, 3, "d")
    # "2019:" times like "by 2000 h" are rejected by the unit check; ":" after a year is a clock time.
    return not re.match(r":\d", after)


def _two_digit_year_ok(m: re.Match[str]) -> bool:
    if followed_by_unit(m.string, m.end("d")):
        return False
    after = text_after(m, 3, "d")
    return not re.match(r"\s*(?:[-–:/.,]\s*\d|%|s\b)", after)


_TIME_CUE_RE = re.compile(r"\b(?:at|between|shift|time|times|hrs|overnight|night|nocte)\b[\s:]*$|@\s*$", re.IGNORECASE)


def _year_range_ok(m: re.Match[str]) -> bool:
    y1, y2 = int(m.group("y1")), int(m.group("y2"))
    if not y1 < y2 or followed_by_unit(m.string, m.end()):
        return False
    # 1900-2030 may be a clock-time range (19:00-20:30) in nursing notes.
    clock_like = all(1900 <= y <= 2059 and y % 100 < 60 for y in (y1, y2))
    return not (clock_like and _TIME_CUE_RE.search(text_before(m, 20)))


def _compact_ok(m: re.Match[str]) -> bool:
    return _not_unit(m)


# --- rules -----------------------------------------------------------------------------------
def _rx(pattern: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)


DATE_RULES_NEUTRAL: tuple[PatternRule, ...] = (
    # 03/12/2019, 3-12-19, 12.03.2019 (either day-month order).
    PatternRule(
        "DATE",
        _rx(rf"{_NB}(?P<a>\d{{1,2}})(?P<s>[/.\-])(?P<b>\d{{1,2}})(?P=s)(?:(?:19|20)?\d{{2}}){_NA}"),
        validator=_valid_numeric,
        score=0.95,
        name="numeric_dmy",
    ),
    # 2019-03-12, 2019/3/12, 2019.03.12 (ISO order).
    PatternRule(
        "DATE",
        _rx(rf"{_NB}{_YEAR4}(?P<s>[/.\-])(?:0?[1-9]|1[0-2])(?P=s){_DAY}(?:T\d{{2}}:\d{{2}}(?::\d{{2}})?)?{_NA}"),
        validator=_not_unit,
        score=0.95,
        name="numeric_iso",
    ),
    # 3/2019, 03-2019.
    PatternRule(
        "DATE",
        _rx(rf"{_NB}(?:0?[1-9]|1[0-2])[/\-]{_YEAR4}{_NA}"),
        validator=_not_unit,
        score=0.85,
        name="numeric_month_year",
    ),
    # 20190312 only right after a date cue: 8-digit strings are usually identifiers.
    PatternRule(
        "DATE",
        _rx(rf"(?<!\d){_YEAR4}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?!\d)"),
        context=("date", "dob", "dt", "dos", "collected", "born", "d.o.b.", "fecha", "datum"),
        window=15,
        validator=_compact_ok,
        score=0.6,
        name="numeric_compact",
    ),
)

_HOLIDAYS = [
    "Christmas Eve", "Christmas Day", "Christmas", "Xmas", "Thanksgiving Day", "Thanksgiving", "Easter Sunday",
    "Easter", "New Year's Eve", "New Year's Day", "New Year's", "New Years", "Halloween",
    "Independence Day", "Fourth of July", "Memorial Day", "Labor Day", "Veterans Day", "Valentine's Day",
    "Mother's Day", "Father's Day", "Hanukkah", "Chanukah", "Passover", "Ramadan", "Eid", "Diwali",
    "Lunar New Year", "Chinese New Year", "Yom Kippur", "Rosh Hashanah", "Good Friday", "Kwanzaa",
    "Martin Luther King Day", "MLK Day", "Presidents' Day", "Presidents Day", "Columbus Day",
    "Juneteenth", "St. Patrick's Day", "Boxing Day",
]
_HOLIDAY_RE = "(?:" + "|".join(re.escape(h) for h in sorted(case_variants(_HOLIDAYS, lower=False), key=len, reverse=True)) + ")"

DATE_RULES_EN: tuple[PatternRule, ...] = (
    # March 12, 2019 / Mar. 12th 2019 / Tuesday, March 12, 2019 / Mar-12-2019.
    PatternRule(
        "DATE",
        _rx(rf"\b{_WD_PREFIX}{_MONTH}[\s\-]*{_DAY}{_ORD}?(?!\d),?[\s\-]+{_YEAR}(?![\w'])"),
        score=0.95,
        name="month_day_year",
    ),
    # 12 Mar 2019 / 12-Mar-2019 / 12MAR2019 / 12th of March, 2019.
    PatternRule(
        "DATE",
        _rx(rf"(?<![\w/.]){_WD_PREFIX}{_DAY}{_ORD}?(?:\s+of)?[\s.\-]*{_MONTH}(?:,?[\s.\-]*{_YEAR})?(?![\w'])"),
        validator=_not_unit,
        score=0.9,
        name="day_month_year",
    ),
    # 2019 Mar 12 / 2019-Mar-12.
    PatternRule(
        "DATE",
        _rx(rf"\b{_YEAR4}[\s\-]+{_MONTH}[\s\-]+{_DAY}(?!\d)"),
        score=0.9,
        name="year_month_day",
    ),
    # March 12 / Mar 12th / Tuesday, March 12 (no year).
    PatternRule(
        "DATE",
        _rx(rf"\b{_WD_PREFIX}{_MONTH}[\s\-]*{_DAY}{_ORD}?(?![\d:.,]\d|\d|\s*[:]\d)"),
        validator=_not_unit,
        score=0.85,
        name="month_day",
    ),
    # March 2019 / Mar '19 / March of 2019 / mid-March 2019.
    PatternRule(
        "DATE",
        _rx(rf"\b{_MONTH},?[\s\-]+(?:of\s+)?{_YEAR}(?![\w'])"),
        score=0.9,
        name="month_year",
    ),
    # in March / since early April / last December (month name alone needs a cue).
    PatternRule(
        "DATE",
        _rx(
            rf"\b(?i:in|since|during|until|till|through|thru|by|early|mid|late|last|next|this|of|before|after"
            rf"|from|to|each|every)"
            rf"[\s\-]+(?:(?:early|mid|late|the\s+end\s+of|the\s+beginning\s+of)[\s\-]+)?(?P<d>{_MONTH_FULL_RE})\b"
            rf"(?![\s\-]*\d)"
        ),
        group="d",
        score=0.75,
        name="month_alone",
    ),
    # Tuesday, Mondays (i2b2 annotates days of the week).
    PatternRule(
        "DATE",
        _rx(rf"\b{_WEEKDAY_FULL_RE}(?:s|S)?\b"),
        score=0.7,
        name="weekday",
    ),
    PatternRule("DATE", _rx(rf"(?<!\w){_HOLIDAY_RE}(?!\w)"), score=0.7, name="holiday"),
    # Spring 2019 / summer of 2018 / late fall 2020.
    PatternRule(
        "DATE",
        _rx(
            rf"\b(?:(?:early|late|mid)[\s\-]+)?(?:spring|summer|fall|autumn|winter)(?:\s+of)?\s+{_YEAR}(?![\w'])",
            re.IGNORECASE,
        ),
        score=0.85,
        name="season_year",
    ),
    # 2015-2019 / 2015 to 2019 (both years).
    PatternRule(
        "DATE",
        _rx(rf"(?<![\w/.\-])(?P<y1>{_YEAR4})\s*(?:[-–]|to|through|until)\s*(?P<y2>{_YEAR4})(?![\w/]|[.\-]\d)"),
        group=("y1", "y2"),
        validator=_year_range_ok,
        score=0.8,
        name="year_range",
    ),
    # in 2019 / since 2015 / quit 2010 / (2019).
    PatternRule(
        "DATE",
        _rx(
            r"(?:\b(?:in|since|during|circa|ca\.|around|about|approximately|approx\.?|quit|year|born"
            r"|diagnosed|dx|married|divorced|widowed|retired|graduated|moved|immigrated|emigrated|class\s+of"
            r"|(?:end|beginning|start|middle|summer|spring|fall|autumn|winter)\s+of|early|late|mid|back\s+in"
            r"|prior\s+to|dated)[\s\-]+(?:(?:early|late|mid)[\s\-]+)?"
            r"|\()(?P<d>(?:19|20)\d{2})(?![\w/]|[.\-]\d)",
            re.IGNORECASE,
        ),
        group="d",
        validator=_year_in_context,
        score=0.8,
        name="year_in_context",
    ),
    # '92 after a cue / in 95 (two-digit years are weak evidence: low score).
    PatternRule(
        "DATE",
        _rx(
            r"\b(?:in|since|quit|of|back\s+in|class\s+of|summer|spring|fall|winter|circa|born)\s+"
            r"(?P<d>'\d{2}|(?:[3-9]\d))(?![\w'])",
            re.IGNORECASE,
        ),
        group="d",
        validator=_two_digit_year_ok,
        exclude_context=("sat", "sats", "spo2", "o2", "hr", "bp", "rr", "saturation", "pulse", "glucose", "score"),
        window=20,
        score=0.5,
        name="two_digit_year",
    ),
    # 7/23, 10/6, 3/1-3/5 (month/day without year, validated against fractions and scores).
    PatternRule(
        "DATE",
        _rx(
            r"(?:(?<![\w/.:\-])(?<!\d\s)|(?<=/\d-)|(?<=/\d\d-))(?P<m>0?[1-9]|1[0-2])/(?P<d>0?[1-9]|[12]\d|3[01])"
            r"(?![\w/%]|[.,:]\d|\s*-\s*\d{1,2}(?![/\d]))"
        ),
        validator=_valid_month_day,
        score=0.8,
        name="month_day_numeric",
    ),
)


def date_rules(lang: str = "en") -> tuple[PatternRule, ...]:
    """The DATE rules for ``lang``: numeric rules always, English words for ``en``."""
    if lang == "en":
        return DATE_RULES_NEUTRAL + DATE_RULES_EN
    return DATE_RULES_NEUTRAL


def date_detector(lang: str = "en") -> RuleDetector:
    """A :class:`RuleDetector` named ``date`` with the DATE rules for ``lang``."""
    return RuleDetector("date", date_rules(lang))
