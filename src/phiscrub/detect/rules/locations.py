"""LOCATION rules: ZIP codes (with context) and STREET addresses (US-style, English).

A five-digit number is a ZIP code only after a US state (``Boston, MA 02114``) or a ``zip``
word. A street address is a house number, up to three capitalised name words and a street
suffix (``1428 Elm Street``, ``450 N. Main Ave``), or a PO box. Apartment and suite numbers stay
outside the STREET span (as in the zero-shot notes: ``[STREET], Apt 3B``).
"""

from __future__ import annotations

import re

from phiscrub.detect.rules._common import case_variants, followed_by_unit, long_runs
from phiscrub.detect.rules.base import PatternRule, RuleDetector, trie_pattern

__all__ = [
    "LOCATION_RULES_EN",
    "STATE_ABBREVIATIONS",
    "STREET_SUFFIXES",
    "location_detector",
    "location_rules",
]

STATE_ABBREVIATIONS: tuple[str, ...] = (
    "AL",
    "AK",
    "AZ",
    "AR",
    "CA",
    "CO",
    "CT",
    "DE",
    "FL",
    "GA",
    "HI",
    "ID",
    "IL",
    "IN",
    "IA",
    "KS",
    "KY",
    "LA",
    "ME",
    "MD",
    "MA",
    "MI",
    "MN",
    "MS",
    "MO",
    "MT",
    "NE",
    "NV",
    "NH",
    "NJ",
    "NM",
    "NY",
    "NC",
    "ND",
    "OH",
    "OK",
    "OR",
    "PA",
    "RI",
    "SC",
    "SD",
    "TN",
    "TX",
    "UT",
    "VT",
    "VA",
    "WA",
    "WV",
    "WI",
    "WY",
    "DC",
    "PR",
    "GU",
    "VI",
    "AS",
    "MP",
)
_STATE_NAMES = (
    "Alabama",
    "Alaska",
    "Arizona",
    "Arkansas",
    "California",
    "Colorado",
    "Connecticut",
    "Delaware",
    "Florida",
    "Georgia",
    "Hawaii",
    "Idaho",
    "Illinois",
    "Indiana",
    "Iowa",
    "Kansas",
    "Kentucky",
    "Louisiana",
    "Maine",
    "Maryland",
    "Massachusetts",
    "Michigan",
    "Minnesota",
    "Mississippi",
    "Missouri",
    "Montana",
    "Nebraska",
    "Nevada",
    "New Hampshire",
    "New Jersey",
    "New Mexico",
    "New York",
    "North Carolina",
    "North Dakota",
    "Ohio",
    "Oklahoma",
    "Oregon",
    "Pennsylvania",
    "Rhode Island",
    "South Carolina",
    "South Dakota",
    "Tennessee",
    "Texas",
    "Utah",
    "Vermont",
    "Virginia",
    "Washington",
    "West Virginia",
    "Wisconsin",
    "Wyoming",
    "District of Columbia",
    "Puerto Rico",
)
_STATE = (
    "(?:"
    + "|".join(
        [
            re.escape(s).replace(r"\ ", r"\s+")
            for s in sorted(case_variants(_STATE_NAMES, lower=False), key=len, reverse=True)
        ]
        + [rf"{a}\.?" for a in STATE_ABBREVIATIONS]
        + [rf"{a[0]}\.{a[1]}\." for a in STATE_ABBREVIATIONS]
    )
    + ")"
)

STREET_SUFFIXES: tuple[str, ...] = (
    "Street",
    "St",
    "Avenue",
    "Ave",
    "Av",
    "Road",
    "Rd",
    "Boulevard",
    "Blvd",
    "Drive",
    "Dr",
    "Lane",
    "Ln",
    "Way",
    "Court",
    "Ct",
    "Place",
    "Pl",
    "Terrace",
    "Ter",
    "Terr",
    "Circle",
    "Cir",
    "Parkway",
    "Pkwy",
    "Highway",
    "Hwy",
    "Square",
    "Sq",
    "Trail",
    "Trl",
    "Plaza",
    "Plz",
    "Alley",
    "Loop",
    "Pike",
    "Turnpike",
    "Tpke",
    "Crescent",
    "Cres",
    "Close",
    "Crossing",
    "Xing",
    "Ridge",
    "Row",
    "Expressway",
    "Expy",
    "Freeway",
    "Fwy",
    "Landing",
    "Commons",
    "Heights",
    "Hts",
    "Grove",
    "Gardens",
    "Route",
    "Rte",
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
_FULL_SUFFIX = "(?:Street|Avenue|Road|Boulevard|Lane|Drive|Court|Place|Terrace|Parkway|Highway|Way)"
_DIRECTION = r"(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West|NORTH|SOUTH|EAST|WEST)\.?"
_NAME_WORD = r"(?:[A-Z][a-z'’\-]+|[A-Z]{2,}|[A-Z]\.|(?:\d+(?:st|nd|rd|th|ST|ND|RD|TH)))"

# Words that, inside a candidate, show it is a sentence ("2 TABS PER DR", "3 Days Ago St...").
_STOP = {
    "per",
    "with",
    "and",
    "to",
    "of",
    "the",
    "for",
    "at",
    "in",
    "on",
    "by",
    "x",
    "q",
    "po",
    "prn",
    "daily",
    "tabs",
    "tab",
    "days",
    "day",
    "weeks",
    "week",
    "times",
    "hours",
    "mg",
    "ml",
    "units",
    "dr",
    "md",
    "see",
    "seen",
    "saw",
    "call",
    "called",
    "from",
    "or",
    "am",
    "pm",
    "bid",
    "tid",
    "qid",
    "qhs",
    "iv",
    "pts",
    "pt",
    "patient",
    "mins",
    "years",
    "yrs",
    "months",
    "is",
    "was",
    "no",
    "not",
    "yes",
    "left",
    "right",
    "room",
    "bed",
    "floor",
    "unit",
    "level",
    "grade",
    "stage",
    "type",
    "step",
    "point",
    "bp",
    "hr",
    "rr",
    "min",
    "max",
    "avg",
    "total",
    "dose",
    "doses",
    "liters",
    "l",
    "cm",
    "mm",
    "kg",
    "lbs",
}


_ZIP_RE = re.compile(
    # Boston, MA 02114 / Texas 75001-1234.
    rf"(?<![\w])(?:{_STATE}),?[ \t]+(?P<z1>\d{{5}}(?:-\d{{4}})?)(?![\w\-])"
    r"|\b(?i:zip|zip\s+code|zipcode|postal\s+code)\b[ \t:#]*(?P<z2>\d{5}(?:-\d{4})?)(?![\w\-])"
)
_STREET_RE = re.compile(
    # 1428 Elm Street / 450 N. Main Ave / 22 BAKER ST.
    rf"(?<![\w/.\-])(?P<street>(?P<num>\d{{1,6}}[A-Za-z]?(?:-\d{{1,4}})?)[ \t]+(?P<name>(?:{_DIRECTION}[ \t]+)?"
    rf"(?:{_NAME_WORD}[ \t]+){{0,3}}?{_NAME_WORD}[ \t]+{_SUFFIX}(?:[ \t]+{_DIRECTION}(?![\w]))?))(?![\w])"
    # PO Box 123.
    r"|(?<![\w])(?P<box>(?i:P\.?\s?O\.?\s*Box)\s+\d{1,6})(?![\w])"
    # "lives on Elm Street" (street names without a number need a full suffix and a cue).
    rf"|\b(?:on|at|off|near)[ \t]+(?P<bare>(?:[A-Z][a-z'\-]+[ \t]+){{1,3}}{_FULL_SUFFIX})\b"
)


def _zip_ok(m: re.Match[str]) -> bool:
    return not followed_by_unit(m.string, m.end())


def _street_ok(m: re.Match[str]) -> bool:
    if m.group("street") is None:
        return True
    if followed_by_unit(m.string, m.end("num")):
        return False
    words = re.findall(r"[A-Za-z]+", m.group("name"))
    return bool(words) and not any(w.lower() in _STOP for w in words)


# Every ZIP match holds five digits; every street match holds a suffix word or "Box".
_ZIP_ANCHOR = long_runs(5)
_STREET_ANCHOR_RE = re.compile(
    r"(?<![A-Za-z])(?:"
    + trie_pattern([w for x in (*STREET_SUFFIXES, "Box", "box") for w in (x, x.upper())], ignore_case=False)
    + r")(?![a-z])"
)

LOCATION_RULES_EN: tuple[PatternRule, ...] = (
    PatternRule(
        "ZIP",
        _ZIP_RE,
        group=("z1", "z2"),
        validator=_zip_ok,
        anchor=_ZIP_ANCHOR,
        reach=(40, 12),
        score=0.9,
        name="zip",
    ),
    PatternRule(
        "STREET",
        _STREET_RE,
        group=("street", "box", "bare"),
        validator=_street_ok,
        anchor=_STREET_ANCHOR_RE,
        reach=(80, 12),
        score=0.85,
        name="street",
    ),
)


def location_rules(lang: str = "en") -> tuple[PatternRule, ...]:
    """The ZIP/STREET rules for ``lang`` (English/US only for now; other languages get none)."""
    return LOCATION_RULES_EN if lang == "en" else ()


def location_detector(lang: str = "en") -> RuleDetector:
    """A :class:`RuleDetector` named ``location`` with the ZIP/STREET rules for ``lang``."""
    return RuleDetector("location", location_rules(lang))
