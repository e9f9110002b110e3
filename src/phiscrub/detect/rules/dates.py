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

_DAY = r"(?:0?[1-9]|[12]\d|3[01])"
_ORD = r"(?:st|nd|rd|th|ST|ND|RD|TH)"
_YEAR4 = r"(?:19|20)\d{2}"
_YEAR = rf"(?:{_YEAR4}|'\d{{2}})(?![\w'])"
_WDP = rf"(?:{_WEEKDAY},?[ \t]+)?"
# Between date parts: spaces, a hyphen, or a period followed by space ("Mar. 12").
_SEP = r"(?:[ \t]*-[ \t]*|[ \t]+)"
_OF = r"(?:[ \t]+(?:of|OF))?"

# Numbers glued to letters, slashes or decimal points are parts of something else.
# ... but "08/21/2024-10/30/2024" is a range of two dates.
_NA = r"(?![\w/]|\.\d|-\d(?!\d{0,3}/))"

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


# A number right after an identifier word ("MRN 01-17-65") is an identifier, whatever its shape.
_ID_BEFORE_RE = re.compile(
    r"(?:\b(?:mrn|mr|acct|account|ssn|id|no|number|serial|lot|accession|acc|case|order|job)\b\.?|#)[ \t:#.]*\Z",
    re.IGNORECASE,
)


def _numeric_ok(m: re.Match[str]) -> bool:
    if _ID_BEFORE_RE.search(m.string, max(0, m.start() - 16), m.start()):
        return False
    if m.group("dmy") is not None:
        return _calendar(int(m.group("a")), int(m.group("b")))
    # 20190312 is taken as a valid calendar date (not after "MRN", "Acct" ...; the ID rules leave it).
    return True


# Score, scale, vital-sign and ventilator words: a nearby x/y is a ratio, not a date.
_SCORE_NEAR_RE = re.compile(
    r"\b(?:bp|b/p|blood\s+pressure|pressure|score|scores|scale|scored|screen|moca|mmse|slums|bims|gcs|apgar"
    r"|phq-?\d*|gad-?\d*|audit(?:-c)?|strength|motor|power|grade|graded|nottingham|gleason|murmur|pain"
    r"|cravings?|cultures?|cx|bottles?|ratio|reflexes|dtrs?|acuity|vision|fio2|peep|psv|ps|cpap|bipap|ipap"
    r"|epap|vent|ventilator|settings?|i:e|tv|sbp|dbp|map|nihss|asa|ecog|rass|cpot|nrs|vas|flacc|braden"
    r"|morse|barthel|fim|ashworth|mrc|out\s+of|inattentive|hyperactive|impulsive|vanderbilt|items?|criteria"
    r"|points?|tabs?|tablets?|nodes?|lymph|cores?|positive|sats?|dilat\w*|effaced|station|hr|rr|g\d+|painad"
    r"|cpot|faces|wong-baker|numeric)\b"
    r"[^\n.;]{0,30}\Z",
    re.IGNORECASE,
)
# A score word right before ("PSV 10/8", "BIMS: 10/15") wins over any date cue.
_SCORE_ADJACENT_RE = re.compile(
    r"\b(?:bp|score|scale|moca|mmse|slums|bims|gcs|apgar|strength|grade|murmur|pain|fio2|peep|psv|ps|cpap"
    r"|bipap|ipap|epap|vent|nihss|rass|cravings?|ratio|painad|cpot|nrs|vas)\b[ \t:=]*\Z"
    r"|\d[ \t]*=[ \t]*\Z",  # the sum of a score: "(2+2+1 = 5/9)"
    re.IGNORECASE,
)
_SCORE_AFTER_RE = re.compile(
    r"[ \t]*(?:\w+[ \t]+)?(?:tabs?|tablets?|caps?|strength|murmur|holosystolic|systolic|diastolic|pain|bottles?"
    r"|cultures?|sets?|positive|negative|views?|nodes?|cores?|ns\b|normal\s+saline|ratio|score|scale|power"
    r"|reflexes|motor|bilat|b/l|throughout|dilated|effaced|criteria|items?|points?|correct|words?|recall"
    r"|lobes?|vessels?|segments?|quadrants?|fingers?|digits?|precautions|goals?|attempts?|trials?|questions?"
    r"|objects?|steps?|exercises?|sessions?|doses?|joints?)\b",
    re.IGNORECASE,
)
_FRACTION_AFTER_RE = re.compile(
    r"[ \t]*(?:of\s+\d|[-–][ \t]*\d+[ \t]*(?:/[ \t]*\d+)?[ \t]*(?:ml|mg|units)\b)", re.IGNORECASE
)
# Words right before an m/d that make it a date even when it looks like a fraction.
_MD_CUE_RE = re.compile(
    r"(?:\b(?:on|since|from|until|till|thru|through|dated|seen|last|next|by|dos|date|d/c|dc|adm|admit|admitted"
    r"|discharged?|admission|discharge|f/u|fu|follow-?up|starting|started|start|due|began|onset|stopped|held|resumed|scheduled"
    r"|visit|appt|appointment|returns?|rtc|before|after|between|around|about|approx|week\s+of|dob|born"
    r"|death|died|expired|signed|received|drawn|collected|note|seen|called|and|to|&|birth|placed|done"
    r"|performed|removed|inserted|implanted|changed|given|obtained|completed|resolved|diagnosed|treated"
    r"|transferred|surgery|procedure|repaired|replaced|drawn|sent|faxed|mailed|reviewed|updated"
    # tests and procedures dated in running text: "CXR 5/6", "EGD 4/7 showed", "comparison: 3/2"
    r"|cxr|ct|cta|mri|mra|echo|tte|tee|egd|colonoscopy|ekg|ecg|eeg|emg|us|u/s|xr|pet|scan|biopsy|bx|cath"
    r"|lhc|rhc|pci|cabg|labs?|comparison|compared|prior|dated|s/p|study|exam|admitted|adm|hd|pod)\b"
    r"(?:[ \t/]+\w+)?[ \t]*:?[ \t]*"
    r"|\d{1,2}:\d{2}[ \t]+|[-–][ \t]*)\Z",
    re.IGNORECASE,
)


_TIME_AFTER_RE = re.compile(
    r"[ \t]*,?[ \t]*(?:@[ \t]*)?\d{1,2}:\d{2}|[ \t]*,?[ \t]*\d{4}\b(?![/.])|-\d{1,2}/\d{1,2}"
)
# Weak cues ("from 8/10", "to 5/10", "3/1 and 3/5") are not enough for x/10, the pain-scale shape.
_WEAK_CUE_RE = re.compile(r"(?:\b(?:from|to|and|down|up)\b[ \t:]*|[-–&][ \t]*)\Z", re.IGNORECASE)
_DATE_NEAR_RE = re.compile(rf"(?:\b(?:19|20)\d\d\b|{_MONTH})[^\n.;]{{0,30}}\Z")


# Positive evidence that an x/y right after it is a count or score, not a date: orientation
# ("A&O 3/3"), a course ("day 8/10", "cycle 2/6", "dose 2/3"), a culture count ("BCx 2/2").
_COUNT_ADJACENT_RE = re.compile(
    r"(?:\b(?:a\s*&\s*o|aao|aox|oriented|orientation|alert|day|days|cycle|cycles|dose|doses|session"
    r"|sessions|fraction|fractions|fx|round|set|sets|item|no|number|x|tender|swollen|joints?|verbalizes?"
    r"|verbalized|recalls?|recalled|names|named|naming|repeats|repeated|precautions|bpp|tof|cincinnati|lams"
    r"|race|fast|side|sides)|#)[ \t:=#]*\Z",
    re.IGNORECASE,
)
_TIMES_AFTER_RE = re.compile(r"[ \t]?[x×][ \t]?\d")
_CULTURE_NEAR_RE = re.compile(r"\b(?:cultures?|cx|bcx|ucx|bottles?|sets?)\b[^\n.;]{0,20}\Z", re.IGNORECASE)
# The pain-scale shape x/10 is a score only with a symptom or rating word near it.
_PAIN_NEAR_RE = re.compile(
    r"\b(?:pain|painful|ache|aches|aching|c/o|complains?|rates?|rated|rating|ha|headache|discomfort"
    r"|nausea|anxiety|sore|soreness|cramp\w*|severity|intensity|level|hurts?|score|scale|relief|relieved"
    r"|fatigue|tired|dyspnea|sob|itch\w*|pruritus|mood|energy|stress|cravings?|tenderness|lbp|cp|chronic)\b[^\n.;]{0,25}\Z",
    re.IGNORECASE,
)
_PAIN_AFTER_RE = re.compile(
    r"[ \t,]*(?:\w+[ \t]+)?(?:pain|ache|ha\b|headache|discomfort|rating|intensity|radiat\w*|sharp|dull|constant"
    r"|intermittent|unchanged|worse|better|improved)",
    re.IGNORECASE,
)
# Portions and doses written as fractions ("ate 1/2 tray", "1/2 of meals", "1/2 a tab").
_PORTION_AFTER_RE = re.compile(
    r"[ \t]*(?:of\b|a[ \t]+(?:tab|tablet|cap|pill|dose)|tray|meal|meals|breakfast|lunch|dinner|glass|cup|cups"
    r"|can|cans|pack|packs|ppd|ppy|bag|bags|dose|doses|amp|amps|vial|vials|block|blocks|mile|miles|flight"
    r"|flights|portion|portions|serving|servings|liter|liters|l\b|lb|lbs|up\b|way\b|full\b|groups|sessions"
    r"|classes|meetings|visits|appointments|appts|shifts|tasks)",
    re.IGNORECASE,
)
_PORTION_BEFORE_RE = re.compile(
    r"\b(?:ate|eaten|eating|consumed|finished|take|took|taking|give|gave|given|drank|drinks|smokes|smoked"
    r"|about|approx|approximately|only|half|x)[ \t~]*\Z|~[ \t]*\Z",
    re.IGNORECASE,
)


_LIMB = (
    r"(?:[lr]ue|[lr]le|bue|ble|ue|le|ues|les|uext|lext|arms?|legs?|hips?|knees?|ankles?|wrists?|elbows?"
    r"|shoulders?|grip|grasp|flex\w*|ext\w*|abd\w*|add\w*|deltoids?|biceps|triceps|quads?|hamstrings?"
    r"|prox\w*|distal|df|pf|hf|ke|ehl|iliopsoas|intrinsics|strength|motor|mmt|mae)"
)
_STRENGTH_NEAR_RE = re.compile(rf"\b{_LIMB}\b[^\n.;]{{0,20}}\Z", re.IGNORECASE)
_STRENGTH_AFTER_RE = re.compile(rf"[ \t,]*{_LIMB}\b", re.IGNORECASE)


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
    unit = followed_by_unit(text, m.end()) and _TIMES_AFTER_RE.match(after) is None
    # A score or count noun after only when the x/y can be one (x <= y: "2/1 last dose" is a date).
    if unit or (month <= day and _SCORE_AFTER_RE.match(after)) or _FRACTION_AFTER_RE.match(after):
        return False
    if _SCORE_ADJACENT_RE.search(before):
        return False
    # A date cue right before, or another date (a year or month name) earlier in the phrase; a
    # clock time right after ("4/10 11:40"), the end of a range ("3/1-3/5/2019").
    cue = (
        _MD_CUE_RE.search(before) is not None
        or _DATE_NEAR_RE.search(before) is not None
        or _TIME_AFTER_RE.match(after) is not None
    )
    return not _count_evidence(month, day, before, after, cue)


def _count_evidence(month: int, day: int, before: str, after: str, cue: bool) -> bool:
    """Positive evidence that the x/y with ``before``/``after`` around it is a score or count."""
    if day == 5 and month <= 5 and (_STRENGTH_NEAR_RE.search(before) or _STRENGTH_AFTER_RE.match(after)):
        return True  # muscle strength: "LUE 2/5 prox", "grip 1/5"
    if not cue and month == day == 2 and re.match(r"[ \t]+[A-Za-z]", after):
        return True  # "sepsis 2/2 E. coli": 2/2 is "secondary to"
    if not cue and _COUNT_ADJACENT_RE.search(before):
        return True
    culture = _CULTURE_NEAR_RE.search(before) is not None
    if culture and day <= 4 and month <= day:
        return True  # "BCx 2/2", "cultures 1/4 bottles"
    if not cue and not culture and _SCORE_NEAR_RE.search(before):
        return True
    run = re.search(r"(?<![\d/])(?P<a>\d{1,3})/(?P<b>\d{1,3})(?![\d/])[^\n/.;]{0,12}\Z", before)
    if not cue and run is not None and score_like(int(run.group("a")), int(run.group("b"))):
        return True  # a run of ratios: "3/10 (from 7/10)"; not after a date ("2/13, BCx 2/9")
    pain = _PAIN_NEAR_RE.search(before) is not None or _PAIN_AFTER_RE.match(after) is not None
    if day == 10 and pain and (not cue or _WEAK_CUE_RE.search(before)):
        return True  # x/10 with a symptom word: the pain-scale shape
    fraction_like = month == day or (month < day and day in (2, 3, 4, 5, 6, 8, 10))
    portion_after = _PORTION_AFTER_RE.match(after) is not None
    return fraction_like and (portion_after or (not cue and _PORTION_BEFORE_RE.search(before) is not None))


_TWO_DIGIT_EXCLUDE_RE = re.compile(
    r"\b(?:sat|sats|spo2|o2|hr|bp|rr|saturation|pulse|glucose|score|rate|temp|bpm)\b[^\n]{0,15}\Z",
    re.IGNORECASE,
)
_TIME_CUE_RE = re.compile(
    r"\b(?:at|between|shift|time|times|hrs|overnight|night|nocte)\b[\s:]*\Z|@\s*\Z", re.IGNORECASE
)

_CUE_YEAR = trie_pattern(YEAR_CUES)
_CUE_MONTH = trie_pattern(MONTH_CUES)
_CUE_TWO_DIGIT = trie_pattern(TWO_DIGIT_YEAR_CUES)
_SEASON = trie_pattern(["spring", "summer", "fall", "autumn", "winter"])
# Cues are checked by searching the text just before a candidate (cheaper than leading the regex).
_YEAR_CUE_BEFORE_RE = re.compile(rf"(?:\b{_CUE_YEAR}[ \t\-]+(?:(?i:early|late|mid)[ \t\-]+)?|\()\Z")
_MONTH_CUE_BEFORE_RE = re.compile(
    rf"\b{_CUE_MONTH}[ \t\-]+(?:(?i:early|mid|late|the\s+end\s+of|the\s+beginning\s+of)[ \t\-]+)?\Z"
)
_TWO_DIGIT_CUE_BEFORE_RE = re.compile(rf"\b{_CUE_TWO_DIGIT}[ \t]+\Z")


def _cue_before(cue_re: re.Pattern[str], text: str, start: int, n: int = 40) -> re.Match[str] | None:
    return cue_re.search(text, max(0, start - n), start)


def _clock_range(text: str, start: int, y1: int, y2: int) -> bool:
    """1900-2030 may be a clock-time range (19:00-20:30) in nursing notes."""
    clock_like = all(1900 <= y <= 2059 and y % 100 < 60 for y in (y1, y2))
    return clock_like and _TIME_CUE_RE.search(text, max(0, start - 20), start) is not None


def _year_ok(m: re.Match[str]) -> bool:
    """A bare year needs a cue (``in 2019``, ``(2019)``) or a second year (``2015-2019``)."""
    text = m.string
    if followed_by_unit(text, m.end()) or text[m.end() : m.end() + 2][:1] == ":":
        return False
    y1 = int(m.group("y1"))
    if m.group("y2") is not None:
        y2 = int(m.group("y2"))
        return y1 < y2 and not _clock_range(text, m.start(), y1, y2)
    return _cue_before(_YEAR_CUE_BEFORE_RE, text, m.start()) is not None


def _two_digit_ok(m: re.Match[str]) -> bool:
    text = m.string
    start = m.start()
    if m.group().startswith("'"):
        # '92 is a year on its own (unless it closes a quotation: "the '80s").
        return not text_after(m, 1).startswith("s")
    if _cue_before(_TWO_DIGIT_CUE_BEFORE_RE, text, start, 20) is None:
        return False
    if followed_by_unit(text, m.end()) or _TWO_DIGIT_EXCLUDE_RE.search(text, max(0, start - 25), start):
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
        return _cue_before(_MONTH_CUE_BEFORE_RE, m.string, m.start()) is not None
    return True


def _month_date_ok(m: re.Match[str]) -> bool:
    if m.group("md") is not None or m.group("dm") is not None:
        return not followed_by_unit(m.string, m.end())
    return True


# --- rules -----------------------------------------------------------------------------------
# Every pattern starts with a character class or literal (no leading look-behind), so that ``re``
# can skip ahead quickly; what came before the match is checked by ``not_after`` and validators.
_NUMERIC_RE = re.compile(
    # 2019-03-12, 2019/3/12, 2019.03.12 (ISO order), optionally with a time.
    rf"(?P<iso>{_YEAR4}(?P<s1>[/.\-])(?:0?[1-9]|1[0-2])(?P=s1){_DAY}(?:T\d{{2}}:\d{{2}}(?::\d{{2}})?)?){_NA}"
    # 03/12/2019, 3-12-19, 12.03.2019 (either day-month order).
    rf"|(?P<dmy>(?P<a>\d{{1,2}})(?P<s2>[/.\-])(?P<b>\d{{1,2}})(?P=s2)(?:(?:19|20)?\d{{2}})){_NA}"
    # 3/2019, 03-2019.
    rf"|(?P<my>(?:0?[1-9]|1[0-2])[/\-]{_YEAR4}){_NA}"
    # 20190312 (validated by the pattern itself; identifiers after "MRN" are excluded above).
    rf"|(?P<cmp>{_YEAR4}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))(?!\d)",
    re.ASCII,  # language-neutral: in "于2019-03-12入院" the CJK letters are not ASCII word characters
)

# 7/23, 10/6, 3/1-3/5 (US month/day without year); also the start of "3/1-3/5/2019".
_MONTH_DAY_RE = re.compile(
    r"(?P<m>0?[1-9]|1[0-2])/(?P<d>0?[1-9]|[12]\d|3[01])(?![\w/%]|[.,:]\d|[ \t]*-[ \t]*\d{1,2}(?![/\d]))"
)
# Glued to a word, a slash, a decimal point or a colon; or a mixed number ("1 1/2").
_MD_BEFORE_BAD_RE = re.compile(r"[\w/.:\-]\Z|(?<![\w.])\d+[ \t]\Z")
_MD_BEFORE_OK_RE = re.compile(r"(?::\d\d[ \t]|/\d\d?-)\Z")


# A number of three or more digits right before: a lab value or a clock time, not the whole part of a
# mixed number ("lipase 980 7/23", "LKW 1415 10/7", "~0500 8/14"; "1 1/2" stays a fraction).
_MD_AFTER_VALUE_RE = re.compile(r"(?<![\w.])\d{3,5}[ \t]\Z")


def _month_day_boundary_ok(m: re.Match[str]) -> bool:
    text, start = m.string, m.start()
    if start and _MD_BEFORE_BAD_RE.search(text, max(0, start - 6), start):
        # allowed after a clock time ("20:22 1/24"), a lab value or 24-hour time ("980 7/23") or as
        # the end of a range ("3/1-3/5")
        ok_before = _MD_BEFORE_OK_RE.search(text, max(0, start - 4), start) is not None
        ok_before = ok_before or _MD_AFTER_VALUE_RE.search(text, max(0, start - 7), start) is not None
        return ok_before and _month_day_ok(m)
    return _month_day_ok(m)


# Dates built around a month name. The anchor is the month name; a match reaches at most ~40
# characters before it ("Wednesday, 22nd of") and ~25 after (" 22nd, 2019").
_MONTH_DATE_RE = re.compile(
    # Tuesday, March 12, 2019 / March 12th, 2019 / Mar-12-2019 / Mar. 12 2019.
    rf"{_WDP}{_MONTH}{_SEP}{_DAY}{_ORD}?(?!\d),?{_SEP}{_YEAR}"
    # 12 Mar 2019 / 12-Mar-2019 / 12MAR2019 / 12th of March, 2019.
    rf"|{_WDP}{_DAY}{_ORD}?{_OF}(?:{_SEP}|(?=[A-Za-z])){_MONTH}(?:,?{_SEP}|(?=\d)){_YEAR}"
    # 2019 Mar 12 / 2019-Mar-12.
    rf"|{_YEAR4}{_SEP}{_MONTH}{_SEP}{_DAY}(?![\d:]|{_ORD}|,?[ \t]*(?:19|20)\d\d)"
    # March 2019 / Mar '19 / March of 2019.
    rf"|{_MONTH},?{_SEP}(?:(?:of|OF)[ \t]+)?{_YEAR}"
    # March 12 / Mar 12th / Tuesday, March 12 (no year).
    rf"|(?P<md>{_WDP}{_MONTH}{_SEP}{_DAY}{_ORD}?(?!\d|[.,:]\d))"
    # 12 Mar / 12th of March (no year).
    # (a following day number or year belongs to another date; a clock time may follow)
    rf"|(?P<dm>{_WDP}{_DAY}{_ORD}?{_OF}(?:{_SEP}|(?=[A-Za-z])){_MONTH}"
    r"(?!,?[ \t]?[.\-]?[ \t]?(?:\d{1,2}(?![\d:])|(?:19|20)\d\d\b|'\d)))"
)
# (the look-behind first: it rejects positions inside words before the word list is tried)
_MONTH_ANCHOR_RE = re.compile(rf"(?<![A-Za-z]){_MONTH}")

# Words that are dates on their own (weekdays, holidays), with a cue (month names), or with a
# year (seasons).
_DATE_WORDS_RE = re.compile(
    rf"(?<![\w])(?:(?P<wd>{_WEEKDAY_FULL}(?:s|S)?)(?![\w])"
    rf"|(?P<hol>{_HOLIDAY})"
    rf"|(?P<mo>{_MONTH_FULL})(?![ \t\-]*\d)"
    rf"|(?P<season>(?i:(?:early|late|mid)[ \t\-]+)?{_SEASON}(?:[ \t]+(?i:of))?)[ \t]+{_YEAR})"
)

# Years: 2015-2019 / 2015 to 2019 anywhere; a single year after a cue ("in 2019", "(2019)").
_YEAR_RE = re.compile(
    rf"(?P<y1>{_YEAR4})(?:[ \t]*(?:[-–]|to|through|until)[ \t]*(?P<y2>{_YEAR4}))?(?![\w/]|[.\-]\d)"
)
# '92 / in 95 after a cue (weak).
_TWO_DIGIT_RE = re.compile(r"(?:'\d{2}|[3-9]\d)(?![\w'])")

# Every numeric date holds a digit, a separator and a digit, or eight digits in a row.
_NUMERIC_ANCHOR = any_of(joined_runs("/.-"), long_runs(8))

# 3-9 / 6-8 as a month-day only right after a strong date cue ("Date: 3-9", "completed 6-8"):
# elsewhere "6-8 weeks" and "2-3 times" are ranges.
_MONTH_DAY_HYPHEN_RE = re.compile(r"(?P<m>0?[1-9]|1[0-2])-(?P<d>0?[1-9]|[12]\d|3[01])(?![\w/%\-]|[.,:]\d)")
_STRONG_CUE_RE = re.compile(
    r"\b(?:date|dated|dos|dob|d/c|since|completed|started|stopped|discontinued|due|until|admitted|discharged"
    r"|performed|done|placed|on)\b(?:[ \t/]+\w+)?[ \t]*:?[ \t]*\Z",
    re.IGNORECASE,
)
_COUNT_AFTER_RE = re.compile(
    r"[ \t]*(?:\w+[ \t]+)?(?:times|occasions|episodes|drinks|beers|cigarettes|hrs?|h\b)", re.IGNORECASE
)


def _month_day_hyphen_ok(m: re.Match[str]) -> bool:
    text, start = m.string, m.start()
    if _STRONG_CUE_RE.search(text, max(0, start - 30), start) is None:
        return False
    return not (followed_by_unit(text, m.end()) or _COUNT_AFTER_RE.match(text, m.end()))


# 3/98, 06/87: month/two-digit year. Only years 32-99 (a day cannot be over 31, so "3/14" stays a
# month/day); titers, dilutions, vision and scores are not dates.
_MONTH_YEAR2_RE = re.compile(r"(?P<m>0?[1-9]|1[0-2])/(?P<y>3[2-9]|[4-9]\d)(?![\w/%]|[.,:]\d|[ \t]*-[ \t]*\d)")
_NOT_MONTH_YEAR_BEFORE_RE = re.compile(
    r"\b(?:titer|titre|ana|rpr|vdrl|dilution|dil|vision|acuity|va|visual|od|os|ou|ratio|score|scale"
    r"|strength|grade|murmur|bp|pressure|sbp|dbp|map|peep|fio2|ps|psv|cpap|bipap|vent|tv|i:e|hr|rr|sats?"
    r"|out\s+of|pain|moca|mmse|gcs|rass|nihss)\b[^\n.;]{0,12}\Z",
    re.IGNORECASE,
)


def _month_year2_ok(m: re.Match[str]) -> bool:
    text, start = m.string, m.start()
    if start and _MD_BEFORE_BAD_RE.search(text, max(0, start - 6), start):
        return False  # glued to a word, a slash, a decimal point; or a mixed number
    if followed_by_unit(text, m.end()) or _SCORE_AFTER_RE.match(text_after(m, 30)):
        return False
    from phiscrub.detect.clinical import measurement_before

    scored = _NOT_MONTH_YEAR_BEFORE_RE.search(text, max(0, start - 30), start) is not None
    return not scored and not measurement_before(text, start)


# CABG 2004, MI 2010, appy 1998: a bare year right after a diagnosis or procedure in a history list.
_HISTORY_YEAR_RE = re.compile(r"(?P<y>19[2-9]\d|20[0-3]\d)(?![\w/]|[.\-:]\d|[ \t]*(?:-|–|to)[ \t]*\d)")
_HISTORY_TERM_BEFORE_RE = re.compile(
    r"(?P<term>[A-Za-z][A-Za-z0-9/&'\-]*)(?:[ \t]+(?:x\d|[LRB]|left|right|bilat(?:eral)?|in|on|of|at))?"
    r"[ \t]*[,:(\-–]?[ \t]*\Z"
)
_HISTORY_LINE_RE = re.compile(
    r"(?:\b(?:pmh|psh|pshx|pmhx|hx|h/o|history|past|surgical|medical|s/p|status\s+post|problem|problems"
    r"|dx|diagnosed|prior)\b|[,;]|^\s*(?:[-*•]|\d+[.)]))",
    re.IGNORECASE | re.MULTILINE,
)


def _history_year_ok(m: re.Match[str]) -> bool:
    from phiscrub.detect.clinical import clinical_vocabulary, is_clinical_word, measurement_before

    text, start = m.string, m.start()
    if followed_by_unit(text, m.end()) or text[m.end() : m.end() + 1] == ":":
        return False
    line_start = text.rfind("\n", max(0, start - 40), start) + 1  # bounded: linear on one-line notes
    before = text[max(line_start, start - 40) : start]
    cue = _HISTORY_TERM_BEFORE_RE.search(before)
    if cue is None:
        return False
    term = cue.group("term").rstrip("'")
    vocab = clinical_vocabulary()
    if not is_clinical_word(term) or term.lower() in vocab.drugs or term.lower() in vocab.care_units:
        return False
    if measurement_before(text, start) or _TIME_CUE_RE.search(text, max(0, start - 20), start):
        return False
    # a history context on the line: "PMH:", "s/p", a list ("HTN, CABG 2004")
    return _HISTORY_LINE_RE.search(text, line_start, start) is not None


# "on the 22nd", "fly in the 2nd.": an ordinal day of the month after "the", when no noun follows it
# ("the 2nd floor", "the 3rd time" are not dates).
_ORDINAL_DAY_RE = re.compile(rf"\b(?:the|THE)[ \t]+(?P<d>{_DAY}{_ORD})(?![\w'])")
_ORDINAL_NEXT_OK_RE = re.compile(
    r"(?:[ \t]*(?:[.,;:()!?\n\"”'’]|\Z)|[ \t]+(?:and|or|at|@|when|to|through|thru|until|till|in|for|per|as|if|so|but"
    r"|then|-|–|\d))",
    re.IGNORECASE,
)


def _ordinal_day_ok(m: re.Match[str]) -> bool:
    return _ORDINAL_NEXT_OK_RE.match(m.string, m.end()) is not None


# "mid-Jan", "early March", "late Sept": part of a month.
# In lower case the abbreviations too ("late sept", "mid-oct"); "may" only after a hyphen ("early may
# help" is the verb).
_LOWER_ABBRS = "|".join(a.lower() for a in _MONTH_ABBRS)
_PART_MONTH_RE = re.compile(
    rf"(?<![\w-])(?P<pm>(?i:early|mid|late)(?:-|[ \t]+|(?=[A-Z])){_MONTH}"
    rf"|(?:early|mid|late)(?:-|[ \t]+)(?:{_LOWER_ABBRS})(?![\w])|(?:early|mid|late)-may)(?![\w])"
)


DATE_RULES_NEUTRAL: tuple[PatternRule, ...] = (
    PatternRule("DATE", _NUMERIC_RE, name="numeric", score=0.95, validator=_numeric_ok, not_after=r"[A-Za-z0-9_/.]", anchor=_NUMERIC_ANCHOR, reach=(12, 16)),
)  # fmt: skip

DATE_RULES_EN: tuple[PatternRule, ...] = (
    PatternRule("DATE", _MONTH_DATE_RE,       name="month_date",        score=0.9,  validator=_month_date_ok, not_after=r"[\w/.]", anchor=_MONTH_ANCHOR_RE, reach=(45, 30)),
    PatternRule("DATE", _DATE_WORDS_RE,       name="date_words",        score=0.75, validator=_words_ok),
    PatternRule("DATE", _YEAR_RE,             name="year",              score=0.8,  group=("y1", "y2"), validator=_year_ok, not_after=r"[\w/.]"),
    PatternRule("DATE", _TWO_DIGIT_RE,        name="two_digit",         score=0.5,  validator=_two_digit_ok, not_after=r"[\w.,/:\-]"),
    PatternRule("DATE", _MONTH_DAY_RE,        name="month_day_numeric", score=0.8,  validator=_month_day_boundary_ok, anchor=joined_runs("/"), reach=(3, 4)),
    PatternRule("DATE", _ORDINAL_DAY_RE,      name="ordinal_day",       score=0.6,  group="d", validator=_ordinal_day_ok),
    PatternRule("DATE", _PART_MONTH_RE,       name="part_of_month",     score=0.7,  group="pm"),
    PatternRule("DATE", _MONTH_DAY_HYPHEN_RE, name="month_day_hyphen",  score=0.6,  validator=_month_day_hyphen_ok, not_after=r"[\w/.:\-]", anchor=joined_runs("-"), reach=(3, 4)),
    PatternRule("DATE", _MONTH_YEAR2_RE,      name="month_year2",       score=0.7,  validator=_month_year2_ok, anchor=joined_runs("/", right_min=2), reach=(3, 4)),
    PatternRule("DATE", _HISTORY_YEAR_RE,     name="history_year",      score=0.7,  validator=_history_year_ok, not_after=r"[\w/.#:\-]", anchor=long_runs(4), reach=(0, 0)),
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
