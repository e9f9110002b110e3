"""DATE rules: numeric, textual, partial dates, weekdays, holidays, contextual years.

What is *not* a date, on purpose: clock times (``10:15``, ``0600``), ratios and scores (``2/2``,
``MoCA 22/30``, ``2/6 murmur``), blood pressures (``94/58``), doses (``1/2 tab``) and count ranges
(``2-3 times``, ``6-8 weeks``). Numeric patterns validate month 1-12 and day 1-31; month/day
without a year is also checked for fraction shapes and score/vital-sign context.

Each rule is one regex with several alternatives (one pass over the text per rule). Numeric
dates with a year are language-neutral; month names, weekdays, holidays, cue words and month/day
without a year are English (``lang="en"``); other languages take theirs from their language pack
(:mod:`phiscrub.detect.rules.intl`).
"""

from __future__ import annotations

import re

from phiscrub.calendar import MONTH_ABBRS, MONTH_NAMES, WEEKDAY_ABBRS, WEEKDAY_NAMES
from phiscrub.detect.clinical_cues import SPECIMEN_CULTURE_BEFORE_RE
from phiscrub.detect.clinical_dates import score_like
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules._common import (
    any_of,
    followed_by_unit,
    joined_runs,
    long_runs,
    text_after,
    text_before,
)
from phiscrub.detect.rules.base import PatternRule, RuleDetector, trie_pattern
from phiscrub.detect.rules.dates_data import HOLIDAYS, MONTH_CUES, TWO_DIGIT_YEAR_CUES, YEAR_CUES

__all__ = ["DATE_RULES_EN", "DATE_RULES_NEUTRAL", "date_detector", "date_rules"]

# --- building blocks --------------------------------------------------------------------------
# Month names: Title or UPPER, abbreviated (optionally with a period) or full; lower-case only for
# full names other than "may" (abbreviations like "dec" and "mar" are ordinary words in notes).
_MONTH_NAMES = tuple(names[0] for names in MONTH_NAMES["en"])
# "May" is no abbreviation (its full name is one word).
_MONTH_ABBRS = tuple(a for abbrs in MONTH_ABBRS["en"] for a in abbrs if a != "May")
_MONTH_WORDS = [w for m in _MONTH_NAMES for w in (m, m.upper(), m.lower()) if w != "may"] + [
    w for a in _MONTH_ABBRS for w in (a, a.upper(), a + ".", a.upper() + ".")
]
# "May." only before a day number ("May. 20, 2017"); elsewhere the period ends a sentence.
_MONTH = rf"(?:{trie_pattern(_MONTH_WORDS, ignore_case=False)}|(?:May|MAY)\.(?=[ \t]*\d))(?![A-Za-z])"
_MONTH_FULL = (
    trie_pattern([w for m in _MONTH_NAMES for w in (m, m.upper())], ignore_case=False) + r"(?![A-Za-z])"
)
_WEEKDAYS = tuple(names[0] for names in WEEKDAY_NAMES["en"])
_WEEKDAY_ABBRS = tuple(a for abbrs in WEEKDAY_ABBRS["en"] for a in abbrs)
_WEEKDAY = (
    trie_pattern(
        [w for d in (*_WEEKDAYS, *_WEEKDAY_ABBRS) for w in (d, d.upper(), d + ".", d.upper() + ".")],
        ignore_case=False,
    )
    + r"(?![A-Za-z])"
)
_WEEKDAY_FULL = trie_pattern([w for d in _WEEKDAYS for w in (d, d.upper(), d.lower())], ignore_case=False)


# Holidays that no clinical word spells are dates in lower case too ("over thanksgiving", "xmas eve").
_LOWER_HOLIDAYS = tuple(
    h.lower()
    for h in HOLIDAYS
    if h.split()[0] in ("Christmas", "Xmas", "Thanksgiving", "Easter", "Halloween", "Hanukkah", "Chanukah",
                        "Passover", "Ramadan", "Diwali", "Kwanzaa", "Valentine's")
) + ("xmas eve", "new year's eve", "new years eve", "new year's day")  # fmt: skip
_HOLIDAY = (
    trie_pattern([w for h in HOLIDAYS for w in (h, h.upper())] + list(_LOWER_HOLIDAYS), ignore_case=False)
    + r"(?![\w']|[ \t]+(?:Island|Isl\.))"
)


# --- validators ---------------------------------------------------------------------------------
def _calendar(a: int, b: int) -> bool:
    """Either a/b or b/a is a month/day pair."""
    return (1 <= a <= 12 and 1 <= b <= 31) or (1 <= b <= 12 and 1 <= a <= 31)


def _numeric_ok(m: re.Match[str]) -> bool:
    if _RX["ID_BEFORE_RE"].search(m.string, max(0, m.start() - 16), m.start()):
        return False
    if m.group("dmy") is not None and re.search(
        r"apgar\w*[ \t:=]*\Z", m.string[max(0, m.start() - 16) : m.start()], re.IGNORECASE
    ):
        return False  # Apgar scores at 1, 5 and 10 minutes: "Apgar 9/10/10"
    if m.group("dmy") is not None:
        return _calendar(int(m.group("a")), int(m.group("b")))
    # 20190312 is taken as a valid calendar date (not after "MRN", "Acct" ...; the ID rules leave it).
    return True


def _month_day_ok(m: re.Match[str]) -> bool:
    """Month/day without year: a date unless there is positive evidence of a score, count, ratio,
    fraction, vital or dose (recall first: a missed date is a leak, a date-shaped score kept as a
    date is a nuisance). A date cue right before outweighs a score word that is not adjacent."""
    month, day = int(m.group("m")), int(m.group("d"))
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return False
    text = m.string
    before = text_before(m, 40)
    after = text_after(m, 30)
    if SPECIMEN_CULTURE_BEFORE_RE.search(before):
        return True  # a dated culture of one specimen: "drain cx 3/3 E. coli", "UCx 1/12 neg"
    # A count after ("BCx 1/12 x2": drawn twice on 1/12) is no unit of the x/y.
    unit = followed_by_unit(text, m.end()) and _RX["TIMES_AFTER_RE"].match(after) is None
    # A score or count noun after only when the x/y can be one (x <= y: "2/1 last dose" is a date).
    if unit or (month <= day and _RX["SCORE_AFTER_RE"].match(after)) or _RX["FRACTION_AFTER_RE"].match(after):
        return False
    if _RX["SCORE_ADJACENT_RE"].search(before):
        return False
    # A date cue right before, or another date (a year or month name) earlier in the phrase; a
    # clock time right after ("4/10 11:40"), the end of a range ("3/1-3/5/2019").
    cue = (
        _RX["MD_CUE_RE"].search(before) is not None
        or _RX["DATE_NEAR_RE"].search(before) is not None
        or _RX["TIME_AFTER_RE"].match(after) is not None
    )
    return not _count_evidence(month, day, before, after, cue)


def _count_evidence(month: int, day: int, before: str, after: str, cue: bool) -> bool:
    """Positive evidence that the x/y with ``before``/``after`` around it is a score or count."""
    if (
        day == 5
        and month <= 5
        and (_RX["STRENGTH_NEAR_RE"].search(before) or _RX["STRENGTH_AFTER_RE"].match(after))
    ):
        return True  # muscle strength: "LUE 2/5 prox", "grip 1/5"
    if not cue and month == day == 2 and re.match(r"[ \t]+[A-Za-z]", after):
        return True  # "sepsis 2/2 E. coli": 2/2 is "secondary to"
    if not cue and _RX["COUNT_ADJACENT_RE"].search(before):
        return True
    culture = _RX["CULTURE_NEAR_RE"].search(before) is not None
    if culture and day <= 4 and month <= day:
        return True  # "BCx 2/2", "cultures 1/4 bottles"
    if not cue and not culture and _RX["SCORE_NEAR_RE"].search(before):
        return True
    run = re.search(r"(?<![\d/])(?P<a>\d{1,3})/(?P<b>\d{1,3})(?![\d/])[^\n/.;]{0,12}\Z", before)
    if not cue and run is not None and score_like(int(run.group("a")), int(run.group("b"))):
        return True  # a run of ratios: "3/10 (from 7/10)"; not after a date ("2/13, BCx 2/9")
    pain = _RX["PAIN_NEAR_RE"].search(before) is not None or _RX["PAIN_AFTER_RE"].match(after) is not None
    if day == 10 and pain and (not cue or _RX["WEAK_CUE_RE"].search(before)):
        return True  # x/10 with a symptom word: the pain-scale shape
    fraction_like = month == day or (month < day and day in (2, 3, 4, 5, 6, 8, 10))
    portion_after = _RX["PORTION_AFTER_RE"].match(after) is not None
    return fraction_like and (
        portion_after or (not cue and _RX["PORTION_BEFORE_RE"].search(before) is not None)
    )


_CUE_YEAR = trie_pattern(YEAR_CUES)
_CUE_MONTH = trie_pattern(MONTH_CUES)
_CUE_TWO_DIGIT = trie_pattern(TWO_DIGIT_YEAR_CUES)
_SEASON = trie_pattern(["spring", "summer", "fall", "autumn", "winter"])


def _cue_before(cue_re: re.Pattern[str], text: str, start: int, n: int = 40) -> re.Match[str] | None:
    return cue_re.search(text, max(0, start - n), start)


def _clock_range(text: str, start: int, y1: int, y2: int) -> bool:
    """1900-2030 may be a clock-time range (19:00-20:30) in nursing notes."""
    clock_like = all(1900 <= y <= 2059 and y % 100 < 60 for y in (y1, y2))
    return clock_like and _RX["TIME_CUE_RE"].search(text, max(0, start - 20), start) is not None


def _year_ok(m: re.Match[str]) -> bool:
    """A bare year needs a cue (``in 2019``, ``(2019)``) or a second year (``2015-2019``)."""
    text = m.string
    if followed_by_unit(text, m.end()) or text[m.end() : m.end() + 2][:1] == ":":
        return False
    y1 = int(m.group("y1"))
    if m.group("y2") is not None:
        y2 = int(m.group("y2"))
        return y1 < y2 and not _clock_range(text, m.start(), y1, y2)
    return _cue_before(_RX["YEAR_CUE_BEFORE_RE"], text, m.start()) is not None


def _two_digit_ok(m: re.Match[str]) -> bool:
    text = m.string
    start = m.start()
    if m.group().startswith("'"):
        # '92 is a year on its own (unless it closes a quotation: "the '80s").
        return not text_after(m, 1).startswith("s")
    if _cue_before(_RX["TWO_DIGIT_CUE_BEFORE_RE"], text, start, 20) is None:
        return False
    if followed_by_unit(text, m.end()) or _RX["TWO_DIGIT_EXCLUDE_RE"].search(text, max(0, start - 25), start):
        return False
    after = text_after(m, 12)
    if re.match(
        r"[ \t]*(?:[-–:/.,][ \t]*\d|%|s\b|\+|(?:and|or)[ \t]+(?:older|over|up|above|younger|under))", after
    ):
        return False  # "in 65 and older", "in 65+": an age
    # "in 35 fractions": a noun after the number makes it a count.
    word = re.match(r"[ \t]+([A-Za-z]+)", after)
    return word is None or word.group(1).lower() in (
        "and",
        "or",
        "when",
        "after",
        "before",
        "at",
        "with",
        "until",
        "while",
    )


def _words_ok(m: re.Match[str]) -> bool:
    """Weekdays and holidays stand alone; a month name alone needs a cue; a season needs a year."""
    if m.group("mo") is not None:
        return _cue_before(_RX["MONTH_CUE_BEFORE_RE"], m.string, m.start()) is not None
    return True


def _month_date_ok(m: re.Match[str]) -> bool:
    if m.group("md") is not None or m.group("dm") is not None:
        return not followed_by_unit(m.string, m.end())
    return True


def _month_day_boundary_ok(m: re.Match[str]) -> bool:
    text, start = m.string, m.start()
    if start and _RX["MD_BEFORE_BAD_RE"].search(text, max(0, start - 6), start):
        # allowed after a clock time ("20:22 1/24"), a lab value or 24-hour time ("980 7/23") or as
        # the end of a range ("3/1-3/5")
        ok_before = _RX["MD_BEFORE_OK_RE"].search(text, max(0, start - 4), start) is not None
        ok_before = ok_before or _RX["MD_AFTER_VALUE_RE"].search(text, max(0, start - 7), start) is not None
        return ok_before and _month_day_ok(m)
    return _month_day_ok(m)


# Every numeric date holds a digit, a separator and a digit, or eight digits in a row.
# The Korean order "2024. 8. 2.": a year, a dot and a space, then the month.
_NUMERIC_ANCHOR = any_of(joined_runs("/.-"), long_runs(8), joined_runs(".", left_min=4, then=" \t"))


def _month_day_hyphen_ok(m: re.Match[str]) -> bool:
    text, start = m.string, m.start()
    if _RX["STRONG_CUE_RE"].search(text, max(0, start - 30), start) is None:
        return False
    if re.search(
        r"\b(?:days?|weeks?|wks?|months?|mos?|years?|yrs?|hours?|hrs?|cycles?|steps?)[ \t]+\Z",
        text[max(0, start - 12) : start],
        re.IGNORECASE,
    ):
        return False  # a range of a count: "on days 1-3", "weeks 2-4", "cycles 1-6"
    return not (followed_by_unit(text, m.end()) or _RX["COUNT_AFTER_RE"].match(text, m.end()))


def _month_year2_ok(m: re.Match[str]) -> bool:
    text, start = m.string, m.start()
    if start and _RX["MD_BEFORE_BAD_RE"].search(text, max(0, start - 6), start):
        return False  # glued to a word, a slash, a decimal point; or a mixed number
    if followed_by_unit(text, m.end()) or _RX["SCORE_AFTER_RE"].match(text_after(m, 30)):
        return False
    from phiscrub.detect.clinical import measurement_before

    scored = _RX["NOT_MONTH_YEAR_BEFORE_RE"].search(text, max(0, start - 30), start) is not None
    return not scored and not measurement_before(text, start)


def _history_year_ok(m: re.Match[str]) -> bool:
    from phiscrub.detect.clinical import clinical_vocabulary, is_clinical_word, measurement_before

    text, start = m.string, m.start()
    if followed_by_unit(text, m.end()) or text[m.end() : m.end() + 1] == ":":
        return False
    line_start = text.rfind("\n", max(0, start - 40), start) + 1  # bounded: linear on one-line notes
    before = text[max(line_start, start - 40) : start]
    cue = _RX["HISTORY_TERM_BEFORE_RE"].search(before)
    if cue is None:
        return False
    term = cue.group("term").rstrip("'")
    vocab = clinical_vocabulary()
    if not is_clinical_word(term) or term.lower() in vocab.drugs or term.lower() in vocab.care_units:
        return False
    if measurement_before(text, start) or _RX["TIME_CUE_RE"].search(text, max(0, start - 20), start):
        return False
    # a history context on the line: "PMH:", "s/p", a list ("HTN, CABG 2004")
    return _RX["HISTORY_LINE_RE"].search(text, line_start, start) is not None


def _ordinal_day_ok(m: re.Match[str]) -> bool:
    return _RX["ORDINAL_NEXT_OK_RE"].match(m.string, m.end()) is not None


# "mid-Jan", "early March", "late Sept": part of a month.
# In lower case the abbreviations too ("late sept", "mid-oct"); "may" only after a hyphen ("early may
# help" is the verb).
_LOWER_ABBRS = "|".join(a.lower() for a in _MONTH_ABBRS)

_RX = pattern_data("dates", globals())


DATE_RULES_NEUTRAL: tuple[PatternRule, ...] = (
    PatternRule("DATE", _RX["NUMERIC_RE"], name="numeric", score=0.95, validator=_numeric_ok, not_after=r"[A-Za-z0-9_/.]", anchor=_NUMERIC_ANCHOR, reach=(12, 16)),
)  # fmt: skip

DATE_RULES_EN: tuple[PatternRule, ...] = (
    PatternRule("DATE", _RX["MONTH_DATE_RE"],       name="month_date",        score=0.9,  validator=_month_date_ok, not_after=r"[\w/.]", anchor=_RX["MONTH_ANCHOR_RE"], reach=(45, 30)),
    PatternRule("DATE", _RX["DATE_WORDS_RE"],       name="date_words",        score=0.75, validator=_words_ok),
    PatternRule("DATE", _RX["YEAR_RE"],             name="year",              score=0.8,  group=("y1", "y2"), validator=_year_ok, not_after=r"[\w/.]"),
    PatternRule("DATE", _RX["TWO_DIGIT_RE"],        name="two_digit",         score=0.5,  validator=_two_digit_ok, not_after=r"[\w.,/:\-]"),
    PatternRule("DATE", _RX["MONTH_DAY_RE"],        name="month_day_numeric", score=0.8,  validator=_month_day_boundary_ok, anchor=joined_runs("/"), reach=(3, 4)),
    PatternRule("DATE", _RX["ORDINAL_DAY_RE"],      name="ordinal_day",       score=0.6,  group="d", validator=_ordinal_day_ok),
    PatternRule("DATE", _RX["PART_MONTH_RE"],       name="part_of_month",     score=0.7,  group="pm"),
    PatternRule("DATE", _RX["MONTH_DAY_HYPHEN_RE"], name="month_day_hyphen",  score=0.6,  validator=_month_day_hyphen_ok, not_after=r"[\w/.:\-]", anchor=joined_runs("-"), reach=(3, 4)),
    PatternRule("DATE", _RX["MONTH_YEAR2_RE"],      name="month_year2",       score=0.7,  validator=_month_year2_ok, anchor=joined_runs("/", right_min=2), reach=(3, 4)),
    PatternRule("DATE", _RX["HISTORY_YEAR_RE"],     name="history_year",      score=0.7,  validator=_history_year_ok, not_after=r"[\w/.#:\-]", anchor=long_runs(4), reach=(0, 0)),
)  # fmt: skip


def date_rules(lang: str = "en") -> tuple[PatternRule, ...]:
    """The DATE rules for ``lang``: numeric dates with a year always, English words for ``en``, the
    language pack's month names, cue words and Chinese dates for ``es``, ``ca``, ``de``, ``fr``,
    ``nl`` and ``zh`` (see :mod:`phiscrub.detect.rules.intl`)."""
    if lang == "en":
        return DATE_RULES_NEUTRAL + DATE_RULES_EN
    from phiscrub.detect.rules.intl import pack_date_rules  # intl builds on this module

    return DATE_RULES_NEUTRAL + pack_date_rules(lang)


def date_detector(lang: str = "en") -> RuleDetector:
    """A :class:`RuleDetector` named ``date`` with the DATE rules for ``lang``."""
    return RuleDetector("date", date_rules(lang))
