"""English town, city and neighbourhood rules, and the word tests the place rules share.

* CITY: the place after a where-cue (``from Boston``, ``visiting from Seattle``, ``lives in
  Brennock``, ``family in Tanner's Bend``): a town of the bundled list, or, after a strong cue,
  a capitalised word that is neither English nor clinical; a town of the bundled list before a
  facility or office word (``our Indianapolis clinic``, ``the Atlanta VA``).
* LOCATION: ``neighborhood`` names (``the Old Quarry neighborhood``).
* HOSPITAL: a hospital's short name, a name word before ``General``, ``Regional`` or ``Memorial``
  (``Mercy General``, ``Riverside Regional``), and the common saint and charity names of US
  hospitals (``Good Samaritan``, ``Sacred Heart``).

Split from :mod:`~phiscrub.detect.rules.places_en` (the organisation, facility and unit rules),
which imports the shared word tests from here.
"""

from __future__ import annotations

import re
from functools import lru_cache

from phiscrub.calendar import WEEKDAY_NAMES
from phiscrub.detect.clinical_vocab import MONTHS, word_set
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule
from phiscrub.detect.rules.facility_data import NAME_STOPWORDS_LOCATION
from phiscrub.detect.rules.locations_data import STATE_ABBREVIATIONS, STATE_NAMES

__all__ = [
    "CITY_RULES_EN",
    "MONTHS_DAYS",
    "PLACE_STOP",
    "STATE_NAMES_LOWER",
    "clinical_or_calendar",
    "major_cities",
    "plain_word",
    "upper_line",
]

_STRONG_CUE = (
    r"(?i:lives|living|lived|resides|residing|moved|relocated|visiting|visited|flew|flying|driving|drove"
    r"|travel(?:l?ed)?|traveling|born|raised|grew\s+up|stays?|staying|family|daughter|son|sister|brother"
    r"|wife|husband|mother|father|parents|dtr|niece|nephew|cousin|aunt|uncle|friend|works|worked|home"
    r"|house|apartment|condo|trailer|farm)"
)

_RX = pattern_data("places_en_cities", globals())

PLACE_STOP = NAME_STOPWORDS_LOCATION | {
    "the", "a", "an", "his", "her", "their", "our", "my", "this", "that", "employer", "employed",
}  # fmt: skip


@lru_cache(maxsize=1)
def _cities() -> frozenset[str]:
    from phiscrub.resources import load_lexicon

    return frozenset(c.lower() for stem in ("gazetteer_cities", "cities") for c in load_lexicon(stem))


@lru_cache(maxsize=1)
def _countries() -> frozenset[str]:
    from phiscrub.resources import load_lexicon

    return frozenset(c.lower() for c in load_lexicon("countries"))


@lru_cache(maxsize=1)
def major_cities() -> frozenset[str]:
    from phiscrub.resources import load_lexicon

    return frozenset(c.lower() for c in load_lexicon("gazetteer_cities_major"))


def plain_word(word: str) -> bool:
    """Clinical vocabulary, a care unit, a month or weekday, or a common English word."""
    from phiscrub.detect.clinical import clinical_vocabulary, is_clinical_word

    low = word.lower().removesuffix("'s").removesuffix("’s")
    vocab = clinical_vocabulary()
    if is_clinical_word(word) or is_clinical_word(low) or low in vocab.care_units:
        return True
    return low in vocab.common or low in PLACE_STOP or low in MONTHS_DAYS


#: English month names and abbreviations (the guard's list) and weekday names (the calendar's).
MONTHS_DAYS = MONTHS | frozenset(w.lower() for day in WEEKDAY_NAMES["en"] for w in day)


def upper_line(text: str, start: int, end: int) -> bool:
    reach = max(0, start - 2000)
    line_start = text.rfind("\n", reach, start) + 1 or reach
    line_end = text.find("\n", end, end + 200)
    line = text[line_start : line_end if line_end >= 0 else end + 200]
    letters = [c for c in line if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) / len(letters) > 0.85


def _city_lower_ok(m: re.Match[str]) -> bool:
    from phiscrub.detect.english_words import lowercase_ok as _lowercase_ok

    city = m.group("cl")
    if city not in _cities() or city in STATE_NAMES_LOWER or city in _countries():
        return False
    return city in major_cities() or all(_lowercase_ok(w) for w in city.split()) or len(city.split()) > 1


def _city_ok(m: re.Match[str]) -> bool:
    city = m.group("city")
    words = city.split()
    low = city.lower()
    if low in STATE_NAMES_LOWER or city in STATE_ABBREVIATIONS or low in _countries():
        return False  # states are the policy's business
    from phiscrub.detect.clinical_vocab import FACILITY_WORDS

    if words[-1].lower() in FACILITY_WORDS:
        return False  # "works at Larkfield Memorial Hospital": a facility, the facility rule's
    strong = m.group("cue") is not None and re.match(_STRONG_CUE, m.group("cue")) is not None
    if low in major_cities() or (low in _cities() and (strong or len(words) > 1 or not plain_word(city))):
        return not upper_line(m.string, m.start(), m.end()) or low in major_cities()
    if not strong or upper_line(m.string, m.start(), m.end()):
        return False
    if any(w.lower() in PLACE_STOP for w in words):
        return False
    # After a strong cue, a name of two or more capitalised words, even common ones ("pt's house in
    # Old Quarry", "family in Cedar Bend"), unless a word is clinical, a care unit, a month or a day.
    return not plain_word(words[0]) or (len(words) >= 2 and not any(clinical_or_calendar(w) for w in words))


def clinical_or_calendar(word: str) -> bool:
    """A clinical word, a care unit, a month or a weekday: no word of a place's or person's name."""
    from phiscrub.detect.clinical import clinical_vocabulary, is_clinical_word

    low = word.lower()
    return is_clinical_word(word) or low in clinical_vocabulary().care_units or low in MONTHS_DAYS


STATE_NAMES_LOWER = frozenset(s.lower() for s in STATE_NAMES)


def _hood_ok(m: re.Match[str]) -> bool:
    if m.group("hood2") is not None:
        words = m.group("hood2").split()[:-1]
        return not any(clinical_or_calendar(w.removesuffix("'s").removesuffix("’s")) for w in words)
    words = m.group("hood").split()
    return any(not plain_word(w) for w in words) or len(words) >= 2


#: What a bracket after a phone number says when it names no town ("(cell)", "(Mom)", "(after 5)").
_PHONE_TAGS = word_set(
    """
    cell mobile home work office main fax pager landline preferred primary alternate alt voicemail vm
    daytime evening evenings day night nights weekends weekdays text texts only ok best direct desk
    mom mother dad father son daughter wife husband spouse partner sister brother aunt uncle niece
    nephew grandson granddaughter grandma grandpa friend neighbor neighbour caregiver guardian poa
    hcpoa cousin business private personal new old backup emergency
    """
)  # fmt: skip


def _phone_town_ok(m: re.Match[str]) -> bool:
    words = [w.lower().removesuffix("'s").removesuffix("’s") for w in m.group("pt").split()]
    if any(w in _PHONE_TAGS or w in MONTHS_DAYS for w in words):
        return False
    return not any(clinical_or_calendar(w) for w in words) and words[0] not in STATE_NAMES_LOWER


def _city_before_ok(m: re.Match[str]) -> bool:
    city = m.group("cb")
    low = city.lower()
    if low in STATE_NAMES_LOWER or low in _countries() or low not in _cities():
        return False
    if upper_line(m.string, m.start(), m.end()):
        return False
    return low in major_cities() or len(city.split()) > 1 or not plain_word(city)


_NOT_HOSPITAL_NAME = frozenset(
    {
        "surgeon", "attorney", "inspector", "secretary", "consul", "postmaster", "adjutant", "major",
        "brigadier", "lieutenant", "solicitor", "governor", "vicar", "acute", "internal", "post", "pre",
        "the", "a", "an", "our", "his", "her", "their", "at", "to", "from", "in", "and", "or", "veterans",
        "war", "national", "state", "county", "city", "local", "district", "family", "pediatric", "adult",
    }
)  # fmt: skip


def _short_hosp_ok(m: re.Match[str]) -> bool:
    if m.group("fixed"):
        return not upper_line(m.string, m.start(), m.end())
    words = m.group("sh").split()[:-1]
    first = words[0].lower().rstrip(".")
    if first in _NOT_HOSPITAL_NAME or upper_line(m.string, m.start(), m.end()):
        return False
    from phiscrub.detect.clinical import is_clinical_word

    return not any(is_clinical_word(w) or w.lower() in MONTHS_DAYS for w in words)


_RUN_GLUE = frozenset({"of", "the", "&", "and"})


def _proper_run_ok(m: re.Match[str]) -> bool:
    from phiscrub.detect.clinical_vocab import (
        ETHNICITY_WORDS,
        FACILITY_WORDS,
        LANGUAGE_WORDS,
        clinical_vocabulary,
        is_clinical_word,
    )

    text, start, end = m.string, m.start("run"), m.end("run")
    if upper_line(text, start, end):
        return False
    if re.search(r"\d[ \t]?(?:Fr[ \t]+)?\Z", text[max(0, start - 6) : start]) and (
        m.group("run").startswith("Fr ") or text[max(0, start - 3) : start].endswith("Fr ")
    ):
        return False  # after a catheter size in French gauge ("5 Fr Sos Omni"), not a "Fr." title
    words = [w for w in m.group("run").split(" ") if w not in _RUN_GLUE]
    vocab = clinical_vocabulary()
    for word in words:
        low = word.lower().removesuffix("'s").removesuffix("’s")
        if is_clinical_word(word) or low in vocab.care_units or low.removesuffix("s") in MONTHS_DAYS:
            return False
        if low in ETHNICITY_WORDS or low in LANGUAGE_WORDS or low in STATE_NAMES_LOWER:
            return False
        if low in FACILITY_WORDS:
            return False  # a facility's name: the facility and organisation rules decide its extent
    line_start = text.rfind("\n", 0, start) + 1
    lead = text[line_start:start].strip(" \t-*•#>0123456789.)")
    if _RX["HEADER_AFTER_RE"].match(text, end) and all(
        w[:1].isupper() for w in re.findall(r"[A-Za-z][\w'’-]*", lead)
    ):
        return False  # a section header or a title line ("MICU Nursing Day Shift Note - 0700")
    sentence_start = not lead or re.search(r"[.!?:;]\s*\Z", text[line_start:start]) is not None
    # A word no dictionary has at all (WordNet, any sense), not merely an uncommon one.
    names = [w for w in words if not plain_word(w) and _unknown(w, vocab.wordnet)]
    return bool(names) and not (sentence_start and not _unknown(words[0], vocab.wordnet))


def _proper_run_label(m: re.Match[str]) -> str:
    """NAME for a run that reads as a person ("Alan Grant": a given name, then name words),
    LOCATION otherwise: the label decides the surrogate, and a person must not become a place."""
    from phiscrub.detect.clinical_vocab import clinical_vocabulary

    vocab = clinical_vocabulary()
    words = [w.lower().removesuffix("'s").removesuffix("’s") for w in m.group("run").split(" ")]
    person = 2 <= len(words) <= 3 and words[0] in vocab.first_names
    if person and all(w in vocab.names or _unknown(w, vocab.wordnet) for w in words[1:]):
        return "NAME"  # generic: the name rules and the model say which kind of person
    return "LOCATION"


def _unknown(word: str, wordnet: frozenset[str]) -> bool:
    """Not in WordNet under any simple inflection ("Visited", "Ambulating", "Readings")."""
    low = word.lower().removesuffix("'s").removesuffix("’s")
    forms = {
        low,
        low.removesuffix("s"),
        low.removesuffix("es"),
        low.removesuffix("ed"),
        low.removesuffix("d"),
    }
    forms |= {low.removesuffix("ing"), low.removesuffix("ing") + "e", low.removesuffix("ies") + "y"}
    return not forms & wordnet


def _township_ok(m: re.Match[str]) -> bool:
    """Every word before the suffix may name a place: no stop, clinical, month or common word
    first ("the County", "Cancer County"), not a road ("County Rd" is the road rule's)."""
    from phiscrub.detect.clinical import is_clinical_word

    words = m.group("tw").split()[:-1]
    if re.match(r"[ \t]+(?:Rd|Road|Route|Hwy|Highway)\b", m.string[m.end() :]):
        return False
    return not plain_word(words[0]) and not any(is_clinical_word(w) for w in words)


CITY_RULES_EN: tuple[PatternRule, ...] = (
    PatternRule("CITY", _RX["CITY_BEFORE_RE"], name="city_before_facility", score=0.5, group="cb", validator=_city_before_ok),
    PatternRule("HOSPITAL", _RX["SHORT_HOSP_RE"], name="hospital_short_name", score=0.5, group=("sh", "fixed"), validator=_short_hosp_ok),
    PatternRule("CITY", _RX["CITY_LOWER_RE"], name="city_lower", score=0.5, group="cl", validator=_city_lower_ok),
    PatternRule("CITY", _RX["CITY_RE"], name="city_cue", score=0.5, group="city", validator=_city_ok),
    PatternRule("CITY", _RX["TOWNSHIP_RE"], name="township", score=0.5, group="tw", validator=_township_ok),
    PatternRule("LOCATION", _RX["HOOD_RE"], name="neighborhood", score=0.5, group=("hood", "hood2"), validator=_hood_ok),
    PatternRule("CITY", _RX["PHONE_TOWN_RE"], name="town_after_phone", score=0.5, group="pt", validator=_phone_town_ok),
    PatternRule("LOCATION", _RX["PROPER_RUN_RE"], name="proper_run", score=0.4, group="run", validator=_proper_run_ok,
                labeler=_proper_run_label, extra_labels=("NAME",)),
)  # fmt: skip
