"""Clinical-context guard: drop PHI proposals that are clinical measurements or clinical vocabulary.

Real notes are dense in numbers and jargon that look like PHI to a tagger: vital signs and their
ranges and decades (``hr 80s``, ``sbp 90-100s``), I/O volumes, drip rates, doses, scores
(``GCS 3/15``), clock times and shift spans (``0300``, ``7a-7p``), lab values; care units and
services (``MICU``, ``the floor``, ``blood bank``); drugs, devices, EHR names and shorthand that a
tagger calls names in ALL-CAPS or all-lower-case notes. :func:`guard` looks at each proposed span
and drops it when the clinical reading outweighs the PHI reading.

It weighs evidence instead of deleting blindly. For each span it scores:

* the clinical reading: a measurement keyword, unit, drug or score word next to a number; a time,
  shift, decade, range or ratio shape; a word from the bundled medical lexicon
  (``resources/medical/``: drugs, abbreviations, terms, units, and ``clinical_context.txt``), the
  :data:`~phiscrub.detect.lexicon.EPONYMS`, or a common English word (WordNet) where the letter
  case of the line carries no information;
* the PHI reading: a title (``Dr. Foley``), a credential after (``Foley, MD``), a kinship or role
  word or a verb cue before (``wife``, ``per``, ``d/w``), a place cue (``seen at Mercy``), a
  facility word inside the span (``MERCY HOSPITAL``), an identifier or date cue before a number
  (``MRN``, ``DOB``), an age form (``95 yo``), and the digit patterns of dates, phone numbers and
  identifiers (a full date with a year, five digits in a row).

A span is dropped only when the clinical score is higher than the PHI score; ties keep the span.
Every decision carries a reason (``measurement``, ``clock-time``, ``care-unit`` ...), counted in a
:class:`collections.Counter` for diagnostics: counts by reason, never text.

This module decides on words and holds the API; :mod:`~phiscrub.detect.clinical_numbers` decides on
spans holding digits, :mod:`~phiscrub.detect.clinical_cues` holds the cue patterns and context
helpers, :mod:`~phiscrub.detect.clinical_vocab` the word sets.

Example:
    >>> from phiscrub.document import Document, Span
    >>> doc = Document("n1", "hr 80s, seen by Dr. Foley; foley in place")
    >>> [doc.surface(s) for s in guard(doc, [Span(3, 6, "AGE"), Span(20, 25, "DOCTOR"), Span(27, 32, "DOCTOR")])]
    ['Foley']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from phiscrub.calendar import MONTH_NAMES
from phiscrub.detect.clinical_cues import (
    CREDENTIAL_AFTER_RE,
    DATE_WORD_CUE_RE,
    DEPT_FIELD_RE,
    FIELD_BEFORE_RE,
    KIN_BEFORE_RE,
    NAME_AGE_AFTER_RE,
    NICKNAME_BEFORE_RE,
    PLACE_BEFORE_RE,
    QUOTED_AFTER_WORD_RE,
    ROLE_BEFORE_RE,
    SIGNOFF_CREDENTIALS,
    TITLE_BEFORE_RE,
    TOKEN_RE,
    WEEKDAY_RE,
    caseless_at,
    line_bounds,
    measurement_before,
    text_before,
    trim_name,
)
from phiscrub.detect.clinical_dates import COUNT_RE
from phiscrub.detect.clinical_numbers import number_reason
from phiscrub.detect.clinical_vocab import (
    CREDENTIALS,
    ETHNICITY_WORDS,
    FACILITY_WORDS,
    LANGUAGE_WORDS,
    MONTHS,
    clinical_vocabulary,
    is_clinical_word,
    is_common_word,
)
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.commonwealth import american_spelling, commonwealth_guard
from phiscrub.detect.unit_names import named_unit_word
from phiscrub.document import Document, Span
from phiscrub.errors import LabelError
from phiscrub.labels import fold

_RX = pattern_data("clinical", {"SIGNOFF_CREDENTIALS": SIGNOFF_CREDENTIALS})


__all__ = [
    "GUARD_REASONS",
    "PROTECTED_LABELS",
    "GuardDecision",
    "clinical_vocabulary",
    "decide",
    "guard",
    "is_clinical_word",
    "is_common_word",
    "measurement_before",
]

#: Labels whose PHI status is the policy's call, not the guard's: professions are common words by
#: nature (:mod:`phiscrub.policy` keeps or drops them). States and countries are only dropped as
#: clinical abbreviations without an address around them ("from MI" yes, "Lansing, MI 48906" no).
PROTECTED_LABELS = frozenset({"PROFESSION"})
_REGION_LABELS = frozenset({"STATE", "COUNTRY"})

#: Every reason a span can be dropped for (the keys of the diagnostic counts).
GUARD_REASONS: tuple[str, ...] = (
    "measurement",  # a measurement keyword (vital, lab, I/O, score) before the number
    "unit",  # a unit or count noun after the number ("450cc", "20 meq", "3 days")
    "dose",  # a drug name right before the number
    "clock-time",  # 0300, 14:30, "@ 1615", "at 1945"
    "shift-span",  # 7a-7p, 0700-1900
    "decade",  # 80s, 120S, 90's (vital-sign decades)
    "range",  # 15-20, 300-450 (ascending numeric ranges)
    "ratio",  # 6/15, 24/30, day 3/7, 5/5 strength, BP 96/60, 1:1 (scores and fractions, not calendar dates)
    "count",  # x2, 1 of 2 tagged DATE
    "duration",  # "x 30 yrs", "10 yrs ago" tagged AGE
    "decimal",  # 22.4, 2.8
    "obstetric",  # G3P2002, 39w2d
    "care-unit",  # MICU, the floor, blood bank, ortho
    "clinical-term",  # drugs, devices, EHR names, abbreviations, eponyms, clinical shorthand
    "common-word",  # an English word where case carries no information ("FOUND", "its", "warehouse")
    "lone-initial",  # a bare "A." (specimen letters, list markers)
    "weekday",  # a weekday name standing alone ("on Monday"): no date of anyone
    "field-label",  # the label of a field, not its value ("MRN" in "MRN 4455667", "DOB:")
    "ethnicity",  # ethnicity, race or nationality words tagged as a name ("Hispanic", "African American")
    "edge-word",  # not a drop: function words cut from the edges of a kept name span
)


#: Field labels a tagger may take for part of the value they introduce ("MRN" of "MRN 4455667"):
#: never PHI themselves, whatever the label (compared without case and trailing ``:#.``).
FIELD_LABEL_WORDS: frozenset[str] = frozenset(
    {"mrn", "mr", "ssn", "dob", "d.o.b", "acct", "account", "fin", "csn", "npi", "dea", "nhc"}
)


@dataclass(frozen=True)
class GuardDecision:
    """What the guard decided about one span.

    Attributes:
        span: the proposed span.
        keep: whether it stays.
        reason: the clinical reason when dropped (one of :data:`GUARD_REASONS`), ``edge-word`` when
            a kept name span was narrowed, else None.
    """

    span: Span
    keep: bool
    reason: str | None = None


# --- decisions on words -------------------------------------------------------------------------------
_TITLE_CASE_ABBREVS = frozenset({"MR", "MS"})


def _word_weight(tok: str, caseless: bool, sentence_start: bool) -> int:
    """How strongly one word reads as clinical/common (0: it may be a name or place)."""
    v = clinical_vocabulary()
    low = tok.lower().strip("'’")
    if low.endswith(("'s", "’s")):
        low = low[:-2]
    if low in v.care_units:
        return 3
    head, _, rest = low.partition("-")
    if rest and head in _PREFIXES:
        return _word_weight(tok[len(head) + 1 :], caseless, sentence_start)  # "Pre-admission", "non-verbal"
    proper = not caseless and tok[:1].isupper() and not tok.isupper() and not sentence_start
    if proper and low in v.common and low not in v.drugs:
        return 0  # "our social worker, Brown": a capitalised common word mid-sentence may be a name
    clinical = low in v.clinical or tok in v.abbreviations or (caseless and tok.upper() in v.abbreviations)
    if clinical:
        return 1 if low in v.ambiguous else 2
    if re.fullmatch(r"pgy-?\d", low):
        return 2
    if low in v.common:
        if not caseless and tok[:1].isupper() and not sentence_start:
            return 0  # a capitalised word mid-sentence in mixed case: possibly a proper name
        if low in v.names:
            return 1 if caseless and low not in v.first_names else (1 if not tok[:1].isupper() else 0)
        return 2 if not caseless and tok[:1].islower() else 1
    return 0


def _alone_on_line(text: str, span: Span) -> bool:
    lo, hi = line_bounds(text, span.start, span.end)
    return not text[lo : span.start].strip() and not text[span.end : hi].strip(" \t.,:;")


def _sentence_start(text: str, start: int) -> bool:
    before = text[max(0, start - 6) : start]
    return start == 0 or re.search(r"(?:[.!?:;]\s+|\n\s*|^\s*|[-•*]\s+)\Z", before) is not None


_PREFIXES = frozenset(
    {"pre", "post", "non", "re", "co", "anti", "peri", "intra", "inter", "trans", "self", "semi"}
)


def _title_weight(before: str, caseless: bool) -> int:
    """3 after a title ("Dr. Foley"), 0 without one or after an ambiguous "MS"/"MR" in mixed case."""
    title = TITLE_BEFORE_RE.search(before)
    if title is None:
        return 0
    t = title.group("t")
    return 0 if t.upper() in _TITLE_CASE_ABBREVS and t.isupper() and not caseless else 3


def _token_kind(tok: str, weight: int) -> str:
    v = clinical_vocabulary()
    low = tok.lower()
    if low in v.care_units:
        return "care-unit"
    if weight and low in v.common and low not in v.clinical and tok not in v.abbreviations:
        return "common"
    return "clinical"


def _token_weights(text: str, span: Span, caseless: bool) -> tuple[list[int], list[str], list[str]]:
    """Per word of the span (initials left out): its clinical weight, its kind and its lower case."""
    surface = text[span.start : span.end]
    toks = [m for m in TOKEN_RE.finditer(surface) if len(m.group().rstrip(".")) > 1]
    words = [american_spelling(m.group()) for m in toks]  # "Haematology", "centre"
    weights = [
        _word_weight(w, caseless, i == 0 and _sentence_start(text, span.start + m.start()))
        for i, (m, w) in enumerate(zip(toks, words))
    ]
    kinds = [_token_kind(w, wt) for w, wt in zip(words, weights)]
    lows = [w.lower().strip("'’") for w in words]
    if lows and " ".join(lows) in clinical_vocabulary().care_units:
        # "Family Medicine", "blood bank", "the floor"
        return [3] * len(weights), ["care-unit"] * len(kinds), lows
    return weights, kinds, lows


def _credential_evidence(text: str, span: Span, caseless: bool) -> int:
    """A credential after the span ("Foley, MD"): strong in mixed case, weak where case says nothing
    ("NOC RN" in an ALL-CAPS note), none when the credential starts a clause ("RN AWARE")."""
    m = CREDENTIAL_AFTER_RE.match(text, span.end)
    if m is None or _RX["CREDENTIAL_VERB_RE"].match(text, m.end()):
        return 0
    return 1 if caseless else 3


def _name_evidence(text: str, span: Span, before: str, caseless: bool, lows: list[str]) -> int:
    """Evidence that a NAME span is a person: an age and sex after, kinship and role words before."""
    evidence = 0
    if NAME_AGE_AFTER_RE.match(text, span.end):
        evidence = 1 if caseless else 3  # "AD, 48 F": initials before an age and sex
    if KIN_BEFORE_RE.search(before) and lows[0] in clinical_vocabulary().first_names:
        return 3  # "HUSBAND ALF", "daughter mary"
    if _RX["SIGNOFF_BEFORE_RE"].search(before) and _RX["SIGNOFF_CREDENTIAL_AFTER_RE"].match(text, span.end):
        return 3  # "-bg rn": initials signing the note, their credential after
    if _RX["LINE_START_BEFORE_RE"].search(before) and _RX["SIGNOFF_INITIAL_NAME_RE"].match(text, span.start):
        return 3  # "t. snow md pulm": a lower-case signature line
    first_names = clinical_vocabulary().first_names
    if NICKNAME_BEFORE_RE.search(before) and (lows[0] in first_names or _quoted(text, span)):
        return 3  # "(goes by frank)", 'prefers "bud"'
    quoted = QUOTED_AFTER_WORD_RE.search(before)
    if (
        quoted
        and _quoted(text, span)
        and (quoted.group("w")[0].isupper() or quoted.group("w").lower() in first_names)
    ):
        return 3  # 'Harold Rice ("Bud")', 'eugene ("gene")', not 'confusion ("sundowning")'
    if KIN_BEFORE_RE.search(before) or ROLE_BEFORE_RE.search(before):
        evidence = max(evidence, 2)
    return evidence


def _quoted(text: str, span: Span) -> bool:
    """The span stands in quotes ('"bud"'): a nickname after a nickname cue."""
    return (
        text[span.start - 1 : span.start] in "\"“'‘"
        and text[span.end : span.end + 1] in "\"”'’"
        and span.start > 0
    )


def _place_evidence(text: str, span: Span, before: str, caseless: bool) -> int:
    """Evidence that a LOCATION span is a place: a place cue before; a care unit after a facility's
    abbreviation ("Called AMH ED"), or a strong place cue before it ("closer to AMH", "seen at NMC")."""
    evidence = 1 if PLACE_BEFORE_RE.search(before) else 0
    if _RX["OSH_BEFORE_RE"].search(before):
        return 3  # "OSH (mercy)", "OSH records (Mercy - Defiance)": the outside hospital and its town
    if _RX["FACILITY_UNIT_AFTER_RE"].match(text, span.end):
        return 2
    abbreviation = not caseless and re.fullmatch(r"[A-Z]{2,6}", text[span.start : span.end]) is not None
    if abbreviation and span.label not in _REGION_LABELS and _RX["STRONG_PLACE_BEFORE_RE"].search(before):
        return 2
    return evidence


def _evidence(text: str, span: Span, coarse: str, before: str, caseless: bool, lows: list[str]) -> int:
    """How strongly the context reads the span as PHI (0-3)."""
    evidence = max(_title_weight(before, caseless), _credential_evidence(text, span, caseless))
    if FIELD_BEFORE_RE.search(before):
        evidence = max(evidence, 2)
    if coarse == "NAME":
        evidence = max(evidence, _name_evidence(text, span, before, caseless, lows))
    if coarse == "LOCATION":
        evidence = max(evidence, _place_evidence(text, span, before, caseless))
    # "in MAR" in a mixed-case line is the medication administration record, not March.
    surface = text[span.start : span.end]
    if coarse == "DATE" and DATE_WORD_CUE_RE.search(before) and (caseless or not surface.isupper()):
        evidence = max(evidence, 2)
    if span.label == "DEPARTMENT" and DEPT_FIELD_RE.search(before):
        evidence = max(evidence, 3)
    if span.label == "DEPARTMENT" and named_unit_word(surface):
        evidence = max(evidence, 3)  # "Lantern Unit": a unit named by a word that says nothing of care
    if _alone_on_line(text, span):
        evidence = max(evidence, 2)  # a letterhead or signature line: "PMC", "GH"
    return evidence


def _region_kept(text: str, span: Span, before: str, kinds: list[str]) -> bool:
    """A state or country in an address ("Lansing, MI 48906") or written as a common word ("Georgia"):
    the policy decides about it, not the guard."""
    address = _RX["ADDRESS_BEFORE_RE"].search(before)
    if (address and not is_clinical_word(address.group("w"))) or _RX["ZIP_AFTER_RE"].match(text, span.end):
        return True
    return all(k == "common" for k in kinds)


def _named_place(text: str, span: Span, lows: list[str], kinds: list[str]) -> bool:
    """ "MERCY HOSPITAL", "St. Mary's Rehab": a facility word beside a non-unit word names a place,
    unless a service noun follows ("REHAB POTENTIAL")."""
    if not any(w in FACILITY_WORDS for w in lows) or all(k == "care-unit" for k in kinds):
        return False
    return _RX["SERVICE_AFTER_RE"].match(text, span.end) is None


def _field_label(text: str, span: Span, coarse: str, lows: list[str]) -> bool:
    """A single common word right before a colon ("Pt Class: I-12") labels a field; it names no one."""
    v = clinical_vocabulary()
    return (
        coarse == "NAME"
        and len(lows) == 1
        and re.match(r"[ \t]*:", text[span.end : span.end + 3]) is not None
        and lows[0] in v.common
        and lows[0] not in v.first_names
    )


def _ethnicity(text: str, span: Span, coarse: str, before: str, caseless: bool, lows: list[str]) -> bool:
    """A span made only of ethnicity, nationality or language words ("Hispanic", "African American",
    "Somali"), perhaps with a population noun ("Pakistani immigrants", "Somali community") or a sex
    letter ("Afro-Caribbean M"), and no title, credential, kinship or role word that would make it a
    surname ("Dr. White", "Black, RN"). A description of the patient, never an identifier, whatever
    the label a tagger gave it (a nationality read as a COUNTRY would otherwise be removed by the
    safe-harbor policy as a place smaller than a state)."""
    words = [w for w in lows if w not in _POPULATION_WORDS]
    if not words or not all(w in ETHNICITY_WORDS or w in LANGUAGE_WORDS for w in words):
        return False
    first_names = clinical_vocabulary().first_names
    if all(w in LANGUAGE_WORDS and w not in first_names for w in words) and _RX["LANGUAGE_FIELD_RE"].search(
        before
    ):
        return True  # "Interpreter: Arabic": the language ("Interpreter: Karen" may be the interpreter)
    if (
        _title_weight(before, caseless)
        or _credential_evidence(text, span, caseless)
        or KIN_BEFORE_RE.search(before)
    ):
        return False  # "Dr. White", "Black, RN", "married to White"
    if coarse != "NAME" or re.search(r"[ \t][MF]\.?\Z", text[span.start : span.end]):
        return True  # "Afro-Caribbean M 30 yo": the sex letter and age describe the patient too
    return _name_evidence(text, span, before, caseless, lows) < 2


#: Nouns for a group of people after a nationality ("Pakistani immigrants", "Somali community").
_POPULATION_WORDS = frozenset(
    {
        "immigrant", "immigrants", "community", "communities", "population", "populations", "patients",
        "patient", "descent", "heritage", "origin", "ancestry", "speaking", "speaker", "speakers",
        "interpreter", "women", "men", "males", "females", "male", "female", "m", "f", "americans",
        "refugee", "refugees", "adults", "children", "kids", "boys", "girls",
    }
)  # fmt: skip
# A disease, sign or procedure word after a name or place ("Takayasu arteritis", "Burkitt lymphoma",
# "Lou Gehrig disease", "St. Louis encephalitis", "Rocky Mountain spotted fever"): an eponym.
_EPONYM_HEADS = (
    r"(?:disease|syndrome|lymphoma|sarcoma|arteritis|palsy|encephalitis"
    r"|fever|virus|anomaly|thyroiditis|phenomenon|reflex|criteria|classification|maneuver|manoeuvre"
    r"|fracture|cyst|hernia|fistula|tumou?r|contracture|dystrophy|ataxia|chorea|myopathy|neuropathy"
    r"|an(?:a)?emia|leuka?emia|carcinoma|disorder|cardiomyopathy|esophagus|diverticulum|ulcer"
    r"|aneurysm|node|nodes|formula|equation|frame|procedure|operation|repair)s?\b"
)
_EPONYM_HEAD_RE = re.compile(r"(?:['’]s)?(?:[ \t]+(?-i:[a-z]+))?[ \t]+" + _EPONYM_HEADS, re.IGNORECASE)
# The same word as the last word of the span ("Takayasu arteritis" tagged whole).
_EPONYM_LAST_RE = re.compile(r"\S[ \t]+" + _EPONYM_HEADS + r"\Z", re.IGNORECASE)


def _eponym(text: str, span: Span, before: str, caseless: bool) -> bool:
    """A name or place right before a disease or procedure word, with no title before it."""
    if _title_weight(before, caseless) or KIN_BEFORE_RE.search(before) or ROLE_BEFORE_RE.search(before):
        return False
    if _EPONYM_LAST_RE.search(text[span.start : span.end]) and not _named_facility(text, span):
        return True
    return _EPONYM_HEAD_RE.match(text, span.end) is not None


def _named_facility(text: str, span: Span) -> bool:
    return any(w.lower() in FACILITY_WORDS for w in re.findall(r"[A-Za-z]+", text[span.start : span.end]))


#: English month names, capitalised or in capitals (the calendar's table).
_MONTH_NAMES = frozenset(f(n) for month in MONTH_NAMES["en"] for n in month for f in (str, str.upper))


def _month_name(text: str, span: Span) -> bool:
    """A capitalised month name alone, not a modal "May" opening a sentence ("May need ...")."""
    words = text[span.start : span.end].split()
    surface = words[0] if words else ""
    if surface not in _MONTH_NAMES or any(w[:1].isupper() for w in words[1:]):
        return False  # "March of", "March to": the month decides; "May Smith" is the name rule's
    if surface.lower() == "may" and _sentence_start(text, span.start):
        return re.match(r"[ \t]+[a-z]", text[span.end : span.end + 3]) is None
    return True


def _holiday(surface: str) -> bool:
    return surface.strip(" .,;:").lower() in _holidays()


@cache
def _holidays() -> frozenset[str]:
    """The date rules' holiday names, lower case (read once)."""
    from phiscrub.detect.rules.dates_data import HOLIDAYS

    return frozenset(h.lower() for h in HOLIDAYS)


def _described(
    text: str, span: Span, coarse: str, before: str, caseless: bool, lows: list[str]
) -> str | None:
    """``ethnicity`` or ``clinical-term`` for words that describe rather than name: ethnicity,
    nationality and language words, eponyms before a disease word, credentials alone."""
    if _ethnicity(text, span, coarse, before, caseless, lows):
        return "ethnicity"
    if (
        coarse in ("NAME", "LOCATION")
        and span.label not in _REGION_LABELS
        and _eponym(text, span, before, caseless)
    ):
        return "clinical-term"
    if coarse == "NAME" and not _title_weight(before, caseless) and all(w in CREDENTIALS for w in lows):
        return "clinical-term"  # "Jane Kim, [[MSW]], LCSW"
    return None


def _word_reason(text: str, span: Span, coarse: str, keep_generic: bool = False) -> str | None:
    """The clinical reason to drop a word span, or None to keep it."""
    if span.label in PROTECTED_LABELS or coarse == "PROFESSION":
        return None
    surface = text[span.start : span.end]
    if coarse == "DATE" and not keep_generic and WEEKDAY_RE.fullmatch(surface.strip()):
        return "weekday"
    if coarse == "DATE" and (_month_name(text, span) or _holiday(surface)):
        return None  # recall first: "since March", "in APRIL", "over thanksgiving" name a date
    before = text_before(text, span.start, 40)
    caseless = caseless_at(text, span.start, span.end)
    title = _title_weight(before, caseless)
    if re.fullmatch(r"[A-Z]\.?", surface.strip()):
        return None if title or re.search(r"\b[Pp](?:t|atient)\.?[ \t]+\Z", before) else "lone-initial"
    weights, kinds, lows = _token_weights(text, span, caseless)
    if not lows:
        return None
    described = _described(text, span, coarse, before, caseless, lows)
    if described is not None:
        return described
    if not title and _field_label(text, span, coarse, lows):
        return "common-word"
    strength = min(weights)
    if strength == 0 or _named_place(text, span, lows, kinds):
        return None
    if span.label in _REGION_LABELS and _region_kept(text, span, before, kinds):
        return None
    if strength <= _evidence(text, span, coarse, before, caseless, lows):
        return None
    if all(k == "care-unit" for k in kinds) or strength == 3:
        return None if keep_generic and span.label == "DEPARTMENT" else "care-unit"
    if all(k == "common" for k in kinds):
        return "common-word"
    return "clinical-term"


# Words that join numbers inside one span ("3/10 from 7/10", "4/5 -> 5/5").
_CONNECTIVE_RE = re.compile(r"(?:from|to|and|or|then|now|->|-|→|,|;)", re.IGNORECASE)


def _reason(text: str, span: Span, coarse: str, keep_generic: bool = False) -> str | None:
    surface = text[span.start : span.end]
    if any(c.isdigit() for c in surface):
        if any(w in MONTHS for w in re.findall(r"[a-z]+", surface.lower())):
            return None  # "March 3", "november 1, 2018"
        parts = list(_RX["WS_TOKEN_RE"].finditer(text, span.start, span.end))
        numeric = [m for m in parts if any(c.isdigit() for c in m.group())]
        words = [m.group() for m in parts if not any(c.isdigit() for c in m.group())]
        if coarse == "DATE" and COUNT_RE.match(surface.strip()):
            return number_reason(text, span, coarse)  # "1 of 2", "x 2": counts
        if coarse == "DATE" and len(numeric) > 1 and all(_CONNECTIVE_RE.fullmatch(w) for w in words):
            # "3/10 from 7/10": one span over several numbers; dropped only when each of them is
            reasons = [
                number_reason(text, Span(m.start(), m.end(), span.label, span.score, span.source), coarse)
                for m in numeric
            ]
            return reasons[0] if all(reasons) else None
        if words and numeric:
            # "RCVD 1412": clinical words beside a number; the number decides.
            caseless = caseless_at(text, span.start, span.end)
            if not all(_word_weight(w.strip(".,:;()"), caseless, False) for w in words if w.strip(".,:;()")):
                return None
            sub = Span(numeric[0].start(), numeric[-1].end(), span.label, span.score, span.source)
            return number_reason(text, sub, coarse)
        return number_reason(text, span, coarse)
    if any(c.isalpha() for c in surface):
        return _word_reason(text, span, coarse, keep_generic)
    return None


def decide(doc: Document, spans: Sequence[Span], *, keep_generic: bool = False) -> list[GuardDecision]:
    """Decide, for each span of ``doc``, whether it stays; the reason is set for dropped spans.

    Args:
        doc: the document the spans index.
        spans: proposed PHI spans (fine or coarse labels).
        keep_generic: keep what i2b2 annotates although it identifies no one: ``DEPARTMENT`` spans
            that are generic service or unit names ("Cardiology", "Coronary Care Unit") and bare
            weekday names ("on Monday"). Without it (Safe Harbor) they are dropped as ``care-unit``
            and ``weekday``.

    A kept name span may come back narrower: function words at its edges are cut
    (``its Herzog`` -> ``Herzog``) and counted under ``edge-word``.
    """
    out: list[GuardDecision] = []
    text = doc.text
    for span in spans:
        if not text[span.start : span.end].strip():
            out.append(GuardDecision(span, False, "blank"))  # only white space: nothing to hide
            continue
        if text[span.start : span.end].strip(" \t:#.").lower() in FIELD_LABEL_WORDS:
            out.append(GuardDecision(span, False, "field-label"))  # the label, not the value
            continue
        span, british = commonwealth_guard(text, span)  # "NHI ZKT4821" -> "ZKT4821"; "Ngā mihi"
        if british is not None:
            out.append(GuardDecision(span, british == "keep", None if british == "keep" else british))
            continue
        try:
            coarse = fold(span.label, "coarse") or span.label
        except LabelError:  # a corpus's own type (--labels native): no guard rule applies
            coarse = span.label
        if coarse == "NAME":
            trimmed = trim_name(text, span)
            if trimmed is not span:
                reason = _reason(text, trimmed, coarse, keep_generic)
                out.append(GuardDecision(trimmed, reason is None, reason or "edge-word"))
                continue
        reason = _reason(text, span, coarse, keep_generic)
        out.append(GuardDecision(span, reason is None, reason))
    return out


def guard(
    doc: Document,
    spans: Sequence[Span],
    counts: Counter[str] | None = None,
    *,
    keep_generic: bool = False,
) -> list[Span]:
    """Return the spans of ``doc`` that survive the clinical-context guard, in their order.

    Args:
        doc: the document the spans index.
        spans: proposed PHI spans (any labels, fine or coarse).
        counts: when given, incremented by one per dropped span under its reason (no text).
        keep_generic: see :func:`decide`.

    Returns:
        The kept spans.
    """
    kept: list[Span] = []
    for d in decide(doc, spans, keep_generic=keep_generic):
        if d.keep:
            kept.append(d.span)
        if counts is not None and d.reason is not None:
            counts[d.reason] += 1
    return kept
