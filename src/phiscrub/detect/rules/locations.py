"""LOCATION rules: ZIP codes (with context) and STREET addresses (US-style, English).

A five-digit number is a ZIP code only after a US state (``Boston, MA 02114``) or a ``zip``
word. A street address is a house number, up to three capitalised name words and a street
suffix (``1428 Elm Street``, ``450 N. Main Ave``), or a PO box. Apartment and suite numbers stay
outside the STREET span (as in the zero-shot notes: ``[STREET], Apt 3B``).
"""

from __future__ import annotations

import re

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules._common import case_variants, followed_by_unit, long_runs
from phiscrub.detect.rules.base import PatternRule, RuleDetector, TrimmedRule, trie_pattern
from phiscrub.detect.rules.facility_data import (
    FACILITY_NAME_WORDS,
    FACILITY_SUFFIXES,
    GENERIC_FACILITY_WORDS,
    NAME_STOPWORDS_LOCATION,
)
from phiscrub.detect.rules.intl_places import pack_location_rules
from phiscrub.detect.rules.intl_places_es import spanish_place_rules
from phiscrub.detect.rules.locations_data import (
    STATE_ABBREVIATIONS,
    STATE_NAMES,
    STREET_STOPWORDS,
    STREET_SUFFIXES,
)
from phiscrub.detect.rules.places_en import PLACE_RULES_EN
from phiscrub.detect.rules.places_en_cities import STATE_NAMES_LOWER

__all__ = [
    "LOCATION_RULES_EN",
    "STATE_ABBREVIATIONS",
    "STREET_SUFFIXES",
    "location_detector",
    "location_rules",
]

_STATE = (
    "(?:"
    + "|".join(
        [
            re.escape(s).replace(r"\ ", r"\s+")
            for s in sorted(case_variants(STATE_NAMES, lower=False), key=len, reverse=True)
        ]
        + [rf"{a}\.?" for a in STATE_ABBREVIATIONS]
        + [rf"{a[0]}\.{a[1]}\." for a in STATE_ABBREVIATIONS]
    )
    + ")"
)

# Abbreviated suffixes may take a period ("St."); a full word's period ends the sentence.
_SUFFIX_ABBR = tuple(x for x in STREET_SUFFIXES if len(x) <= 4 and x not in ("Way", "Loop", "Pike", "Row"))
_SUFFIX = (
    "(?:"
    + trie_pattern([w for x in _SUFFIX_ABBR for w in (x, x.upper())], ignore_case=False)
    + r"\.?"
    + "|"
    + trie_pattern(
        [w for x in STREET_SUFFIXES if x not in _SUFFIX_ABBR for w in (x, x.upper())], ignore_case=False
    )
    + r")(?![A-Za-z])"
)


def _zip_ok(m: re.Match[str]) -> bool:
    return not followed_by_unit(m.string, m.end())


def _street_ok(m: re.Match[str]) -> bool:
    if m.group("street") is None:
        return True
    if followed_by_unit(m.string, m.end("num")):
        return False
    words = re.findall(r"[A-Za-z]+", m.group("name"))
    return bool(words) and not any(w.lower() in STREET_STOPWORDS for w in words)


def _town_ok(m: re.Match[str]) -> bool:
    """An address line: a state before the ZIP, or a street or suite word earlier on the line."""
    town = m.group("town")
    if followed_by_unit(m.string, m.end()) or town.lower() in _NOT_TOWN or town.lower() in _STATES_LOWER:
        return False  # "Getafe, New Mexico 23971": the state is the policy's business
    text = m.string
    line = text[text.rfind("\n", max(0, m.start() - 200), m.start()) + 1 : m.start()]
    return (
        m.group("st") is not None
        or _STREET_ANCHOR_RE.search(line) is not None
        or re.search(r"(?i)\b(?:suite|ste|apt)\b", line) is not None
    )


_STATES_LOWER = STATE_NAMES_LOWER | frozenset(a.lower() for a in STATE_ABBREVIATIONS)
#: Words of an address line that are no town ("Suite 210, Box 49840").
_NOT_TOWN = frozenset({"suite", "ste", "apt", "unit", "box", "floor", "room", "bldg", "building"})


def _road_ok(m: re.Match[str]) -> bool:
    return not followed_by_unit(m.string, m.end())


# Every ZIP match holds five digits; every street match holds a suffix word or "Box".
_ZIP_ANCHOR = long_runs(5)
_STREET_ANCHOR_RE = re.compile(
    r"(?<![A-Za-z])(?:"
    + trie_pattern([w for x in (*STREET_SUFFIXES, "Box", "box") for w in (x, x.upper())], ignore_case=False)
    + r")(?![a-z])"
)

_UNIT_SUFFIXES = frozenset({"ED", "ER", "Emergency Department", "Emergency Room"})
_FAC_SUFFIX = (
    "(?:"
    + trie_pattern([w for x in FACILITY_SUFFIXES for w in (x, x.upper())], ignore_case=False)
    + r")(?![\w'’])"
)
# Head words that may follow a first one ("Memorial Hospital"); not a care unit ("Mercy Hospital ED").
_FAC_MORE = (
    "(?:"
    + trie_pattern(
        [w for x in FACILITY_SUFFIXES if x not in _UNIT_SUFFIXES for w in (x, x.upper())], ignore_case=False
    )
    + r")(?![\w'’])"
)

_RX = pattern_data("locations", globals())

_FACILITY_ANCHOR_RE = re.compile(
    r"(?<![A-Za-z])(?:"
    + trie_pattern(
        [w for x in (*FACILITY_SUFFIXES, "St", "Saint") for w in (x, x.upper())], ignore_case=False
    )
    + r")(?![a-z])"
)


def _distinctive(word: str) -> bool:
    """A word that can make a facility name: a listed name or place, a hospital word, or not English."""
    from phiscrub.detect.clinical import clinical_vocabulary, is_clinical_word

    low = word.lower().removesuffix("'s").removesuffix("’s")
    vocab = clinical_vocabulary()
    if low in GENERIC_FACILITY_WORDS or low in NAME_STOPWORDS_LOCATION:
        return False
    if is_clinical_word(word) or is_clinical_word(low) or low in vocab.care_units:
        return False
    if low in FACILITY_NAME_WORDS or low in vocab.names or low in vocab.places:
        return True
    if re.search(r"(?:ology|ogy|ics|iatry|ectomy|itis|osis|pathy|therapy|genetics)\Z", low):
        return False  # specialties ("Neurogenetics")
    # inflected English words ("AFFIRMING", "MEASUREMENTS") are English words
    forms = {
        low,
        low.removesuffix("s"),
        low.removesuffix("es"),
        low.removesuffix("ing"),
        low.removesuffix("ed"),
    }
    forms |= {low.removesuffix("ing") + "e", low.removesuffix("ed") + "e", low.removesuffix("d")}
    parts = [p for p in low.split("-") if len(p) > 3]
    return not (forms & vocab.wordnet) and not any(p in vocab.wordnet for p in parts)


def _facility_ok(m: re.Match[str]) -> bool:
    if m.group("saint") is not None:
        return re.match(r"[ \t]+wort\b", m.string[m.end() :], re.IGNORECASE) is None  # St John's wort
    fac = m.string[_trim_facility(m.string, m.start("fac"), m.end("fac")) : m.end("fac")]
    if _facility_name_ok(fac):
        return True
    from phiscrub.detect.rules.places_en import named_with_common_words

    # Recall first: "Kestrel Point Community Hospital", "Saddle Creek Care Center", "Lakeside
    # Hospital" are named with English words; services ("Sleep Clinic", "Cardiac Rehab") are not.
    return named_with_common_words(m.string, m.start("fac"), m.end("fac"), fac)


def _facility_name_ok(fac: str) -> bool:
    """A facility candidate (cue words cut) holds a distinctive name word."""
    words = re.findall(r"[A-Za-z][A-Za-z'’\-]*", fac)
    suffix_words = {w.lower() for x in FACILITY_SUFFIXES for w in x.split()}
    names = [
        w
        for w in words
        if w.lower() not in suffix_words and w.lower() not in ("of", "and", "the", "st", "mt")
    ]
    return any(_distinctive(w) for w in names)


def _trim_facility(text: str, start: int, end: int) -> int:
    """Move ``start`` past leading words that are not part of the name ("TO", "ADMITTED")."""
    words = list(re.finditer(r"\S+", text[start:end]))
    cut = start
    # after the last cue word ("ADMITED FROM KAISER ..."); "of", "and", "the" join name parts
    for w in words[:-1]:
        if w.group().lower().strip(",.") in NAME_STOPWORDS_LOCATION - {"of", "and", "the"}:
            cut = start + w.end()
            while cut < end and text[cut] in " \t":
                cut += 1
    return cut


def _ordinary_word(word: str) -> bool:
    """Clinical vocabulary, a care unit or a common English word: no hospital or ward name."""
    from phiscrub.detect.clinical import clinical_vocabulary, is_clinical_word

    vocab = clinical_vocabulary()
    low = word.lower()
    return is_clinical_word(word) or low in vocab.care_units or low in vocab.common


def _hosp_abbr_ok(m: re.Match[str]) -> bool:
    from phiscrub.detect.clinical import clinical_vocabulary

    abbr = m.group("abbr")
    if not abbr.isupper() or abbr in STATE_ABBREVIATIONS:
        return False
    if _ordinary_word(abbr) or abbr.lower() in clinical_vocabulary().clinical:
        return False
    # In an ALL-CAPS line every word looks like an abbreviation: only listed-looking shapes pass.
    # The line up to 2000 characters back (bounded, so one-line notes stay linear in their length).
    reach = max(0, m.start() - 2000)
    line_start = m.string.rfind("\n", reach, m.start()) + 1 or reach
    line = m.string[line_start : m.end() + 40]
    letters = [c for c in line if c.isalpha()]
    upper_line = bool(letters) and sum(c.isupper() for c in letters) / len(letters) > 0.85
    return not upper_line or len(abbr) <= 4


def _ward_ok(m: re.Match[str]) -> bool:
    ward = m.group("ward")
    return ward[0].isdigit() or not _ordinary_word(ward.split()[0])


LOCATION_RULES_EN: tuple[PatternRule, ...] = (
    PatternRule("ZIP",        _RX["ZIP_RE"],       name="zip",           score=0.9,  group=("z1", "z2"), validator=_zip_ok, anchor=_ZIP_ANCHOR, reach=(40, 12)),
    PatternRule("STREET",     _RX["STREET_RE"],    name="street",        score=0.85, group=("street", "box", "bare"), validator=_street_ok, anchor=_STREET_ANCHOR_RE, reach=(80, 12)),
    PatternRule("CITY",       _RX["TOWN_BEFORE_ZIP_RE"], name="town_before_zip", score=0.8, group="town", validator=_town_ok, anchor=_ZIP_ANCHOR, reach=(60, 12)),
    PatternRule("STREET",     _RX["ROAD_RE"],      name="road",          score=0.7,  group="road", validator=_road_ok),
    TrimmedRule(
        "HOSPITAL",
        _RX["FACILITY_RE"],
        trim=_trim_facility,
        group=("fac", "saint"),
        validator=_facility_ok,
        anchor=_FACILITY_ANCHOR_RE,
        reach=(70, 40),
        score=0.75,
        name="facility",
    ),
    PatternRule("HOSPITAL",   _RX["HOSP_ABBR_RE"], name="hospital_abbr", score=0.6,  group="abbr", validator=_hosp_abbr_ok),
    PatternRule("DEPARTMENT", _RX["WARD_RE"],      name="ward",          score=0.6,  group="ward", validator=_ward_ok),
    *PLACE_RULES_EN,
)  # fmt: skip


def location_rules(lang: str = "en") -> tuple[PatternRule, ...]:
    """The LOCATION rules for ``lang``: English/US, or the pack rules of ``de``, ``fr``, ``nl``, ``es`` and
    ``ca`` (:mod:`.intl_places`); other languages get none."""
    if lang == "en":
        return LOCATION_RULES_EN
    return pack_location_rules(lang) + spanish_place_rules(lang)


def location_detector(lang: str = "en") -> RuleDetector:
    """A :class:`RuleDetector` named ``location`` with the ZIP/STREET rules for ``lang``."""
    return RuleDetector("location", location_rules(lang))
