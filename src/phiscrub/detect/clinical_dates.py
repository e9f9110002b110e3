"""The clinical-context guard's decision on DATE spans of month/day shape: a date unless proven a score.

Month/day dates without a year sit right next to clinical numbers in real notes ("WBC 13.1 (down
from 16.0 10/1)", "BCx 2/2 from 9/29 GPC", "10/3 to OR") and share their shape with scores, counts
and ratios (``GCS 14/15``, ``strength 4/5``, ``BCx 2/2``, ``BP 96/60``, ``I/O 1450/2100``, ``day 8/10``).
A leaked date is PHI; a redacted score only costs readability. So :func:`date_verdict` drops a
DATE-labelled ``a/b`` only on evidence that it is a score, count or ratio, in three tiers:

1. **impossible as a date** (month over 12 and day over 12, day over 31: ``118/72``, ``1450/2100``) or
   **strong score evidence**, which wins over any date cue: a word that takes a ratio value right
   before (``GCS``, ``BP``, ``I/O``, ``strength``, ``pain``, ``day`` of a course, ``BiPAP``,
   ``tender``), a score or count noun right after (``bottles``, ``BLE`` after ``x/5``, ``sx``,
   ``rate``), a blood-culture bottle count (``BCx 2/2``, ``2/4 bottles``), a grade sign (``4-/5``),
   a trend or neighbour sharing the denominator (``4/5 -> 5/5``, ``3/10 from 7/10``), and a pain,
   strength or GCS clause whose scale the denominator is (``pain radiating to back 8/10``) when no
   date cue comes right before;
2. otherwise a **date cue** keeps the span: the date rule proposed it (``span.source``), a date word
   or a dated test, procedure or event before (``on``, ``from``, ``since``, ``placed``, ``CXR``,
   ``intubated``), a colon, clock time or ``to OR`` after, a dated signature;
3. otherwise **weak score evidence** drops it: a day over 12 written first (``14/6``: a day/month
   date at most), a score word earlier in the clause, another score-shaped ratio nearby, ``of`` or a
   score noun one word after. Without any evidence the span is kept.

Counts written ``x2`` or ``1 of 2`` and colon ratios (``1:1``) labelled DATE are dropped as counts and
ratios. Spans of other labels and other shapes are left to :mod:`~phiscrub.detect.clinical_numbers`.
"""

from __future__ import annotations

import re

from phiscrub.detect.clinical_cues import (
    CLOCK_AFTER_RE,
    CLOCK_RE,
    DATE_CUE_RE,
    EVENT_BEFORE_RE,
    SPECIMEN_CULTURE_BEFORE_RE,
    STRONG_DATE_CUE_RE,
    chunk_bounds,
    text_after,
    text_before,
)
from phiscrub.detect.clinical_vocab import words_pattern
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.document import Span

__all__ = [
    "COUNT_RE",
    "KEEP",
    "MD_TEST_CUE_RE",
    "ORGANISM_AFTER_RE",
    "RATIO_NEAR_AFTER_RE",
    "RATIO_NEAR_BEFORE_RE",
    "SCORE_CLAUSE_RE",
    "SIGNED_BEFORE_RE",
    "TREND_AFTER_RE",
    "TREND_BEFORE_RE",
    "date_verdict",
    "score_like",
]

#: The verdict that settles a span as kept.
KEEP = "keep"

# Tests and procedures dated in running text ("CXR 3/8", "BCx 3/14"): an m/d after one of them
# (one word may sit between: "CT head 3/8") is a date, whatever it looks like.
_MD_TEST_WORDS = words_pattern(
    """
    cxr ct cta mri mra echo tte tee egd colonoscopy ekg ecg eeg emg us u/s xr pet scan biopsy bx cath lhc
    rhc pci cabg lab labs bcx ucx culture cultures study exam surgery procedure on since from until dd dt
    after before dated last next by due seen admitted discharged started stopped placed removed
    """
)
MD_TEST_CUE_RE = re.compile(rf"\b(?:{_MD_TEST_WORDS})\b(?:[ \t/]+[A-Za-z]+)?[ \t:]*\Z", re.IGNORECASE)
# Events and specimens dated in running text ("intubated 1/4", "R IJ CVC 1/4", "sputum 1/4 MSSA").
_EVENT_WORDS = words_pattern(
    """
    intubated extubated trached inserted removed d/c'd dc'd changed drawn collected sent obtained repeat rpt
    done performed resected delivered delivery svd nsvd c/s csection c-section lmp edc edd op surgery ir
    drainage drained tapped paracentesis thoracentesis lp transfused transfusion dose dosed given received
    restarted resumed held cvc tlc picc line port iabp dialysis crrt sputum cdiff c.diff pcr swab neg negative
    cx cxs cultured ua urine stool specimen path pathology mammo mammogram dexa scope ercp mrcp cysto
    ablation stent stented angio angiogram arrived transferred transfer admit admission discharge dc d/c
    visit appt clinic f/u fu followup follow-up called phone telephone note consult consulted
    """
)
# A dated signature: a credential or "signed" earlier on the line and the m/d at its end.
SIGNED_BEFORE_RE = re.compile(r"\b(?:MD|DO|RN|NP|PA-C|PA|signed|cosigned|co-signed)\b[^\n]{0,30}\Z")

# Words that take a ratio value (a score out of a maximum, a pressure pair, intake/output, a day of a
# course): the a/b right after one of them is that value.
_RATIO_WORDS = words_pattern(
    """
    bp b/p bps bp's nbp abp sbp/dbp gcs moca mmse slums sage gds phq phq9 phq-9 gad gad7 gad-7 cage
    audit-c mini-cog minicog mrc strength str motor power pain nrs vas apgar apgars vision acuity bipap
    cpap ipap/epap ps psv peep i:e i/o io ins/outs in/out intake/output tender swollen tjc sjc murmur sem grade graded
    reflexes dtrs dtr score scale ratio recall nodes cores bottles sets suds item items hierarchy
    borg size sizes seg segs segment segments
    """
)
# Score and count nouns right after the number ("2/4 bottles", "2/3 sx", "1/2 rate", "4/5 strength").
_SCORE_NOUNS = words_pattern(
    """
    tab tabs tablet tablets cap caps strength murmur sem holosystolic systolic diastolic pain bottle bottles
    set sets view views node nodes core cores ratio score scale power reflexes motor bilat b/l throughout
    criteria item items point points correct word words recall lobe lobes vessel vessels segment segments
    quadrant quadrants finger fingers digit digits dilated effaced rate sx symptoms signs doses precautions
    questions goals meals steps attempts trials repetitions reps objects groups sessions classes meetings
    visits appointments appts shifts tasks site sites ln lns lymph
    """
)

_RX = pattern_data("clinical_dates", globals())

ORGANISM_AFTER_RE = re.compile(
    r"[ \t]*(?:\(\+\)[ \t]*)?(?:mssa|mrsa|gpc|gpcs|gnr|gnrs|gpr|gnc|e\.?[ \t]?coli|staph\w*|strep\w*|enterococ\w*"
    r"|klebsiella|pseudomonas|candida|cons|vre|bottles?)\b",
    re.IGNORECASE,
)
# Score, scale and strength words earlier in the same clause ("chest pain ... 7/10", "strength ... 4/5").
SCORE_CLAUSE_RE = re.compile(
    r"\b(?:pain|strength|score|scale|motor|power|grade|graded|murmur|reflexes|dtrs?|rated|ratio)\b[^\n.;]{0,60}\Z",
    re.IGNORECASE,
)
# A clause word and the scale it scores on: pain out of 10, strength out of 5, GCS out of 15.
_SCALES: tuple[tuple[re.Pattern[str], int], ...] = tuple(
    (re.compile(rf"\b(?:{words})\b[^\n.;]{{0,60}}\Z", re.IGNORECASE), scale)
    for words, scale in (
        ("pain|nrs|vas|discomfort|ha|headache|cramping|cramps|relief|fatigue|nausea|anxiety|dyspnea|sob", 10),
        ("strength|motor|power|mrc|flexion|extension|abduction|adduction|grip|dorsiflexion|mae", 5),
        ("gcs", 15),
        ("moca|mmse|slums", 30),
    )
)
# A trend of scores: "4/5 -> 5/5" (dates are not written with arrows between them).
TREND_AFTER_RE = re.compile(r"[ \t]*(?:-+>|→)[ \t]*(?P<a>\d{1,2})/(?P<b>\d{1,2})")
TREND_BEFORE_RE = re.compile(r"(?P<a>\d{1,2})/(?P<b>\d{1,2})[ \t]*(?:-+>|→)[ \t]*\Z")
# Another score-shaped ratio next to this one ("4/5 -> 5/5", "knee 4-/5, hip 4/5").
_RATIO_PART = r"(?<![\d/])(?P<a>\d{1,2})(?P<g>[+-])?/(?P<b>\d{1,2})(?![\d/])"
RATIO_NEAR_BEFORE_RE = re.compile(_RATIO_PART + r"[^\n.;/\d]{0,24}\Z")
RATIO_NEAR_AFTER_RE = re.compile(r"[^\n.;/\d]{0,16}?" + _RATIO_PART)

COUNT_RE = re.compile(
    r"(?:[x×][ \t]?\d{1,2}|(?P<a>\d{1,2})[ \t]+(?:of|out[ \t]+of)[ \t]+(?P<b>\d{1,2}))\Z", re.IGNORECASE
)


def score_like(a: int, b: int) -> bool:
    """The fraction shapes of scores and counts: 2/2, 1/3, 4/5, 7/10 (as a date: rarer than as a score)."""
    return a == b or (a < b and b in (2, 3, 4, 5, 6, 8, 10))


def _calendar(a: int, b: int) -> bool:
    """Month/day or month/two-digit year."""
    return 1 <= a <= 12 and (1 <= b <= 31 or 32 <= b <= 99)


def _day_month(a: int, b: int) -> bool:
    """Only a day/month date (14/6): not how US notes write dates."""
    return 13 <= a <= 31 and 1 <= b <= 12


class _Ctx:
    """A DATE span's chunk and the text before and after it."""

    def __init__(self, text: str, span: Span) -> None:
        self.text = text
        self.span = span
        self.cs, self.ce = chunk_bounds(text, span.start, span.end)
        self.chunk = text[self.cs : self.ce]
        self.before = text_before(text, self.cs, 60)
        self.after = text_after(text, self.ce, 40)


def _neighbour_same_scale(c: _Ctx, a: int, b: int) -> bool:
    """A score-shaped neighbour on the same scale: a trend ("4/5 -> 5/5"), or the same denominator in the
    clause ("3/10 from 7/10", "4/5 BUE, 3/5 BLE")."""
    for m in (TREND_AFTER_RE.match(c.after), TREND_BEFORE_RE.search(c.before)):
        if m is not None and int(m.group("b")) == b:
            return True
    for m in (RATIO_NEAR_BEFORE_RE.search(c.before), RATIO_NEAR_AFTER_RE.match(c.after)):
        if m is None:
            continue
        na, nb = int(m.group("a")), int(m.group("b"))
        if m.group("g") or (nb == b and na <= nb and a <= b and (na != a or b <= 10)):
            return True
    return False


def _bottle_count(c: _Ctx, a: int, b: int) -> bool:
    """Blood-culture bottles: "BCx 2/2", "blood cx 1/2 positive", "BCx on admission 2/2 MSSA"."""
    if not 0 <= a <= b <= 4:
        return False
    counted = a == b or _RX["POSITIVE_AFTER_RE"].match(c.after) is not None
    if _RX["BLOOD_CX_BEFORE_RE"].search(c.before):
        return counted
    return _RX["BLOOD_CX_CLAUSE_RE"].search(c.before) is not None and (
        ORGANISM_AFTER_RE.match(c.after) is not None and counted
    )


def _score_noun_after(after: str, b: int) -> bool:
    """A score or count noun right after a/b (a <= b): "2/4 bottles", "2/3 sx", "7/10 pain" (out of 10),
    "4/5 strength" and "3/5 BLE" (out of 5)."""
    m = _RX["SCORE_AFTER_RE"].match(after)
    if m is not None:
        noun = m.group().strip().lower()
        return b == 10 if noun == "pain" else (b == 5 if noun in ("strength", "power", "motor") else True)
    return b == 5 and _RX["LIMB_AFTER_RE"].match(after) is not None


def _strong_score(c: _Ctx, a: int, b: int, grade: bool) -> bool:
    """Evidence that the a/b is a score, count or ratio, which no date cue outweighs."""
    if grade or _RX["RATIO_WORD_BEFORE_RE"].search(c.before):
        return True
    if a <= b and _score_noun_after(c.after, b):
        return True
    if b in (2, 3, 4) and a < b and _RX["DOSE_AFTER_RE"].match(c.after):
        return True
    if _bottle_count(c, a, b) or _neighbour_same_scale(c, a, b):
        return True
    if DATE_CUE_RE.search(c.before) or STRONG_DATE_CUE_RE.search(c.before):
        return False
    return a <= b and any(b == scale and rx.search(c.before) for rx, scale in _SCALES)


def _date_cue(c: _Ctx) -> bool:
    """A cue that the a/b is a date: the date rule's proposal, a date word or dated event before, a colon,
    clock time or the OR after, a dated signature."""
    if "rule:date" in c.span.source.split("+"):
        return True
    before = c.before
    if DATE_CUE_RE.search(before) or STRONG_DATE_CUE_RE.search(before):
        return True
    if MD_TEST_CUE_RE.search(before) or _RX["EVENT_CUE_RE"].search(before) or EVENT_BEFORE_RE.search(before):
        return True
    if _RX["DATE_AFTER_RE"].match(c.after) or CLOCK_AFTER_RE.match(c.text, c.ce):
        return True
    return not c.after.strip(" \t.,;") and SIGNED_BEFORE_RE.search(before) is not None


def _weak_score(c: _Ctx, a: int, b: int) -> bool:
    """Evidence of a score (or of "2/2", secondary to) that a date cue outweighs."""
    if _day_month(a, b) or (a == b == 2 and _RX["SECONDARY_AFTER_RE"].match(c.after)):
        return True
    if _RX["SCORE_AFTER_WEAK_RE"].match(c.after) and not _RX["STOP_BETWEEN_RE"].match(c.after):
        return a <= b
    if score_like(a, b) and SCORE_CLAUSE_RE.search(c.before):
        return True
    if not score_like(a, b):
        return False
    for m in (RATIO_NEAR_BEFORE_RE.search(c.before), RATIO_NEAR_AFTER_RE.match(c.after)):
        if m is not None and score_like(int(m.group("a")), int(m.group("b"))):
            return True
    return False


def date_verdict(text: str, span: Span) -> str | None:
    """The guard's verdict on a DATE span of month/day, count or ratio shape.

    Returns:
        ``ratio`` or ``count`` to drop it, :data:`KEEP` to keep it, or None when the span is not of
        such a shape (the other stages of :mod:`~phiscrub.detect.clinical_numbers` decide).
    """
    from phiscrub.detect.rules.commonwealth import duration_verdict

    c = _Ctx(text, span)
    british = duration_verdict(text, c.cs, c.ce)  # 2/52, 5/7, 28/40; 22/2 in a day-first note
    if british is not None:
        return KEEP if british == "date" else british
    count = COUNT_RE.match(c.chunk)
    if count is not None:
        if count.group("a") is None or int(count.group("a")) <= int(count.group("b")):
            return "count"
        return None
    if _RX["COLON_RATIO_RE"].match(c.chunk) and not CLOCK_RE.match(c.chunk):
        return "ratio"  # 1:1, 1:160
    md = _RX["MD_RE"].match(c.chunk)
    if md is None:
        return None
    a, b = int(md.group("a")), int(md.group("b"))
    if md.group("rest") is not None:
        return KEEP if _calendar(a, b) else None  # a date range: 1/3-1/8, 1/6-
    if not (_calendar(a, b) or _day_month(a, b)):
        return "ratio"  # 118/72, 1450/2100, 0/10: no date
    if _calendar(a, b) and SPECIMEN_CULTURE_BEFORE_RE.search(c.before):
        return KEEP  # one specimen's culture, dated: "drain cx 3/3 E. coli", "UCx 1/12 neg"
    if _strong_score(c, a, b, md.group("g") is not None):
        return "ratio"
    if _date_cue(c):
        return KEEP
    return "ratio" if _weak_score(c, a, b) else KEEP
