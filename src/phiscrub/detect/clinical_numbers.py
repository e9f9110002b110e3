"""The clinical-context guard's decisions on spans holding digits.

:func:`number_reason` reads a proposed span that holds digits in its line and returns the clinical
reason to drop it (``measurement``, ``clock-time``, ``ratio`` ...; :data:`phiscrub.detect.clinical.
GUARD_REASONS`) or None to keep it. It runs in stages, each of which may settle the span:

1. digit patterns and cues of PHI win outright (a full date with a year, five digits in a row, a
   phone-length number, an e-mail or URL, a month name; ``MRN``, ``DOB``, ``room``, an age form);
2. shapes that are never PHI: obstetric codes, coded scores (``PHQ9``), shift spans, clock times,
   vital-sign decades; letters inside the number make it an identifier shape (kept);
3. units, durations, ratios and ranges;
4. the words before: a measurement word, a drug name; decimals.

DATE spans of month/day, count and ratio shape (``10/1``, ``2/2``, ``x2``, ``1:1``) are decided by
:func:`phiscrub.detect.clinical_dates.date_verdict` right after stage 1: a date unless there is
evidence of a score.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from phiscrub.detect.clinical_cues import (
    AGE_AFTER_RE,
    AGE_BEFORE_RE,
    AGO_AFTER_RE,
    CLOCK4_RE,
    CLOCK_AFTER_RE,
    CLOCK_RE,
    CLOCK_SUFFIX_RE,
    CONTACT_CUE_RE,
    DATE_CUE_RE,
    DECADE_RE,
    DECIMAL_RE,
    DURATION_BEFORE_RE,
    EVENT_BEFORE_RE,
    FULL_DATE_RE,
    GLUED_UNIT_RE,
    ID_CUE_RE,
    LINE_START_TIME_RE,
    OBSTETRIC_RE,
    RANGE_RE,
    RATIO_RE,
    ROOM_CUE_RE,
    SCORE_AFTER_RE,
    SHIFT_RE,
    SPECIMEN_CULTURE_BEFORE_RE,
    STRONG_DATE_CUE_RE,
    TIME_CUE_RE,
    TIME_CUE_STRONG_RE,
    UNIT_AFTER_RE,
    chunk_bounds,
    drug_before,
    measurement_before,
    text_after,
    text_before,
)
from phiscrub.detect.clinical_dates import (
    KEEP,
    MD_TEST_CUE_RE,
    ORGANISM_AFTER_RE,
    RATIO_NEAR_AFTER_RE,
    RATIO_NEAR_BEFORE_RE,
    SCORE_CLAUSE_RE,
    SIGNED_BEFORE_RE,
    date_verdict,
    score_like,
)
from phiscrub.detect.clinical_vocab import MONTHS, is_clinical_word
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.document import Span

_RX = pattern_data("clinical_numbers")


__all__ = ["number_reason"]

#: A stage's verdict that settles the span as kept (None lets the next stage look).
_KEEP = KEEP

# Aliases of the patterns shared with the DATE decisions (:mod:`~phiscrub.detect.clinical_dates`).
_MD_TEST_CUE_RE = MD_TEST_CUE_RE
_SIGNED_BEFORE_RE = SIGNED_BEFORE_RE
_SCORE_CLAUSE_RE = SCORE_CLAUSE_RE
_RATIO_NEAR_BEFORE_RE = RATIO_NEAR_BEFORE_RE
_RATIO_NEAR_AFTER_RE = RATIO_NEAR_AFTER_RE
_ORGANISM_AFTER_RE = ORGANISM_AFTER_RE


@dataclass(frozen=True)
class _Number:
    """A span holding digits, in its note: the whitespace chunk around it and the text on either side."""

    text: str
    span: Span
    coarse: str
    cs: int
    ce: int
    chunk: str
    surface: str
    before: str
    after: str

    @classmethod
    def of(cls, text: str, span: Span, coarse: str) -> _Number:
        cs, ce = chunk_bounds(text, span.start, span.end)
        return cls(
            text, span, coarse, cs, ce, text[cs:ce], text[span.start : span.end], text_before(text, cs),
            text_after(text, ce),
        )  # fmt: skip


def _phi_digits(n: _Number) -> bool:
    """Digit patterns of PHI: full dates with a year, long identifiers, phone numbers, e-mail
    addresses, URLs, a year written "'13", a month name."""
    digits = sum(c.isdigit() for c in n.chunk)
    if FULL_DATE_RE.search(n.chunk) or re.search(r"\d{5}", n.chunk) or digits >= 10:
        return True
    if re.fullmatch(r"['’]\d\d", n.chunk):
        return True
    if "@" in n.chunk.strip("@") or re.search(r"(?i)www\.|https?:|\.(?:com|org|edu|net|gov)\b", n.chunk):
        return True
    return any(w in MONTHS for w in re.findall(r"[A-Za-z]+", n.surface.lower()))


def _phi_cue(n: _Number) -> bool:
    """A cue before (or an age form after) the number that makes the PHI reading explicit."""
    if n.coarse == "ID":
        return ID_CUE_RE.search(n.before) is not None
    if n.coarse == "CONTACT":
        return CONTACT_CUE_RE.search(n.before) is not None
    if n.coarse == "LOCATION":
        return ROOM_CUE_RE.search(n.before) is not None
    if n.coarse != "AGE":
        return False
    if (
        AGE_AFTER_RE.match(n.text, n.ce)
        or AGE_AFTER_RE.match(n.text, n.span.end)
        or AGE_BEFORE_RE.search(n.before)
    ):
        return True
    # "DOB 6/14/1970 (45 yrs)"
    return re.search(r"\([ \t]*\Z", n.before) is not None and (
        re.match(r"[ \t]*(?:y|yo|yrs?|years?)[ \t]*\)", n.after, re.IGNORECASE) is not None
    )


def _four_digit_time(n: _Number) -> str | None:
    """0300, 1945: a clock time unless it is a cued year."""
    value = int(n.chunk)
    year_like = 1920 <= value <= 2059
    if n.coarse == "DATE" and year_like:
        if DATE_CUE_RE.search(n.before) and not re.search(r"(?:@|\bat)[ \t]*\Z", n.before, re.IGNORECASE):
            return _KEEP
        if TIME_CUE_STRONG_RE.search(n.before) or (
            LINE_START_TIME_RE.search(n.before) and re.match(r"[ \t]*[-:]", n.after)
        ):
            return "clock-time"
        return _KEEP
    if not year_like or TIME_CUE_RE.search(n.before) or LINE_START_TIME_RE.search(n.before):
        return "clock-time"
    return None


def _shape_stage(n: _Number) -> str | None:
    """Shapes that are never PHI (obstetric codes, coded scores, shifts, clock times, decades), and
    identifier shapes (letters between or before digits), which are."""
    if OBSTETRIC_RE.match(n.chunk):
        return "obstetric"
    coded = re.fullmatch(r"([A-Za-z]{2,})-?(\d{1,2})", n.chunk)
    if coded and (is_clinical_word(coded.group(1)) or is_clinical_word(n.chunk)):
        return "clinical-term"  # PGY1, DM2, PHQ9
    if SHIFT_RE.match(n.chunk):
        return "shift-span"
    if re.fullmatch(r"\d{4}", n.chunk) and CLOCK4_RE.fullmatch(n.chunk):
        verdict = _four_digit_time(n)
        if verdict is not None:
            return verdict
    if CLOCK_RE.match(n.chunk) or CLOCK_SUFFIX_RE.match(n.chunk):
        return "clock-time"
    if DECADE_RE.match(n.chunk):
        return "decade"
    # Letters between or before digits ("M-12", "75NI1986", "I967-3396"): an identifier shape.
    core = re.sub(r"(?i)(?:['’]?s|[a-z/%°]+)\Z", "", n.chunk)
    if re.search(r"[A-Za-z]", core) and not GLUED_UNIT_RE.search(n.chunk):
        return _KEEP
    if n.coarse == "DATE" and DATE_CUE_RE.search(n.before) and not measurement_before(n.text, n.cs):
        return None if _ratio_trend_or_bottles(n) else _KEEP
    return None


def _unit_stage(n: _Number) -> str | None:
    """A unit glued to or right after the number; an age that is a duration ("x 30 yrs", "10 yrs ago")."""
    glued = GLUED_UNIT_RE.search(n.chunk) is not None and (
        n.coarse != "LOCATION" or measurement_before(n.text, n.cs)
    )
    ago = AGO_AFTER_RE.match(n.text, n.ce) is not None
    if glued or UNIT_AFTER_RE.match(n.text, n.ce):
        if n.coarse == "AGE" and (DURATION_BEFORE_RE.search(n.before) or ago):
            return "duration"
        return "unit"
    return "duration" if n.coarse == "AGE" and ago else None


def _ratio_trend_or_bottles(n: _Number) -> bool:
    """A ratio in a trend of scores ("4/5 -> 5/5") or a count of culture bottles ("2/2 MSSA"): a date
    cue before does not make it a date."""
    ratio = RATIO_RE.match(n.chunk)
    if ratio is None or SPECIMEN_CULTURE_BEFORE_RE.search(n.before):
        return False  # "drain cx 3/3 E. coli": one specimen's culture, dated
    if _RX["TREND_AFTER_RE"].match(n.after) or _RX["TREND_BEFORE_RE"].search(n.before):
        return True
    return (
        score_like(int(ratio.group("a")), int(ratio.group("b")))
        and _ORGANISM_AFTER_RE.match(n.after) is not None
    )


def _ratio_near(n: _Number) -> bool:
    """Another score-shaped ratio next to this one in the clause ("4/5 -> 5/5", "hip 4-/5, knee 4/5")."""
    for m in (_RATIO_NEAR_BEFORE_RE.search(n.before), _RATIO_NEAR_AFTER_RE.match(n.after)):
        if m is not None and (m.group("g") or score_like(int(m.group("a")), int(m.group("b")))):
            return True
    return False


def _calendar_ratio(n: _Number, a: int, b: int) -> str | None:
    """A calendar-plausible a/b (3/14, 4/5): a date with a cue, a score with score evidence."""
    if STRONG_DATE_CUE_RE.search(n.before) or CLOCK_AFTER_RE.match(n.text, n.ce):
        return _KEEP
    if _ratio_trend_or_bottles(n):
        return "ratio"
    if n.coarse == "DATE" and (
        DATE_CUE_RE.search(n.before)
        or re.match(r"[ \t]*\)?[ \t]*:", n.after)
        or EVENT_BEFORE_RE.search(n.before)
    ):
        return _KEEP  # "WBC 9.1 on 2/06", "HbA1c (7/11): 7.9%", "cycle 4 day 1, 7/30"
    if measurement_before(n.text, n.cs):
        return "ratio"
    if _MD_TEST_CUE_RE.search(n.before):
        return _KEEP  # "CXR 3/8", "BCx 2/4"
    line_end = not n.after.strip(" \t.,;")
    if line_end and _SIGNED_BEFORE_RE.search(n.before):
        return _KEEP  # a dated signature: "Jane Kim, MD 5/6"
    if _RX["FRACTION_AFTER_RE"].match(n.after) or score_like(a, b):
        return "ratio"
    if _SCORE_CLAUSE_RE.search(n.before) or _ratio_near(n):
        return "ratio"
    return None


def _ratio_stage(n: _Number) -> str | None:
    """Scores and fractions (6/15, day 3/7, 5/5 strength) against month/day and month/year dates."""
    ratio = RATIO_RE.match(n.chunk)
    if ratio is None:
        return None
    a, b = int(ratio.group("a")), int(ratio.group("b"))
    calendar = (1 <= a <= 12 and 1 <= b <= 31) or (1 <= b <= 12 and 1 <= a <= 31)
    calendar = calendar or (1 <= a <= 12 and 32 <= b <= 99)  # 12/98: month and two-digit year
    if not calendar or SCORE_AFTER_RE.match(n.after):
        return "ratio"
    return _calendar_ratio(n, a, b)


def _range_stage(n: _Number) -> str | None:
    """Ascending ranges (15-20, 300-450) unless a month-day with a strong date cue ("Date: 8-20")."""
    rng = RANGE_RE.match(n.chunk)
    if rng is None:
        return None
    month_day = re.fullmatch(r"(?:0?[1-9]|1[0-2])-(?:0?[1-9]|[12]\d|3[01])", n.chunk)
    if month_day and (STRONG_DATE_CUE_RE.search(n.before) or CLOCK_AFTER_RE.match(n.text, n.ce)):
        return _KEEP  # "Date of service: 8-20", "12-30 15:25"
    if month_day and n.coarse == "DATE" and not _range_evidence(n):
        return _KEEP  # recall first: "CTA PREOP 11-26" is a date unless something says range
    lo_v, hi_v = float(rng.group("a")), float(rng.group("b"))
    round_pair = lo_v % 10 == 0 and hi_v % 10 == 0
    if hi_v > lo_v and (n.coarse != "CONTACT" or round_pair or measurement_before(n.text, n.cs)):
        return "range"
    return None


# Words that make "a-b" a range of amounts: a goal, a frequency, an approximation, a count after.
_RANGE_BEFORE_RE = re.compile(
    r"\b(?:goal|target|between|range|ranging|approx|approximately|about|around|q|every|x|from|of|for|up\s+to"
    r"|hr|bp|rr|sbp|dbp|map|sats?|spo2|temp|wt|gcs|pain|score|level|trough|peak|dose|drip)\W*\Z|[~≈]\s*\Z",
    re.IGNORECASE,
)


def _range_evidence(n: _Number) -> bool:
    """A word before or after that makes a month-day shape ("8-12") a range of amounts."""
    if measurement_before(n.text, n.cs) or drug_before(n.text, n.cs):
        return True
    return (
        _RANGE_BEFORE_RE.search(n.before) is not None
        or _RX["UNIT_OR_COUNT_AFTER_RE"].match(n.text, n.ce) is not None
    )


def _context_stage(n: _Number) -> str | None:
    """The words before (a measurement word, a drug), decimals and impossible ages."""
    if measurement_before(n.text, n.cs):
        return "measurement"
    if drug_before(n.text, n.cs):
        return "dose"
    if DECIMAL_RE.match(n.chunk) and n.coarse in ("DATE", "AGE", "ID", "LOCATION"):
        return "decimal"
    if n.coarse == "AGE" and (int(re.sub(r"\D", "", n.surface) or 0) > 125):
        return "measurement"
    return None


_STAGES: tuple[Callable[[_Number], str | None], ...] = (
    _shape_stage,
    _unit_stage,
    _ratio_stage,
    _range_stage,
    _context_stage,
)


def number_reason(text: str, span: Span, coarse: str) -> str | None:
    """The clinical reason to drop ``span`` (which holds digits) of ``text``, or None to keep it.

    Args:
        text: the note.
        span: the proposed span.
        coarse: the span's coarse label (``AGE``, ``DATE``, ``ID`` ...).
    """
    n = _Number.of(text, span, coarse)
    if _phi_digits(n) or _phi_cue(n):
        return None
    if coarse == "DATE":
        # month/day, counts and ratios: a date unless there is evidence of a score (clinical_dates)
        verdict = date_verdict(text, span)
        if verdict is not None:
            return None if verdict == _KEEP else verdict
    for stage in _STAGES:
        verdict = stage(n)
        if verdict is not None:
            return None if verdict == _KEEP else verdict
    return None
