"""ID rules: SSN, MEDICALRECORD, ACCOUNT, HEALTHPLAN, LICENSE, DEVICE, VEHICLE, BIOID, IDNUM.

Apart from SSNs, an identifier is recognised by the words right before it: ``MRN: 0048-2231``,
``Acct # A7731902``, ``member ID XKQ-44718``, ``serial 4471-22-K``. The value is an alphanumeric
token with at least one digit (optionally with ``-`` and ``.`` separators); pure decimals,
fractions, dates and numbers followed by a unit are never taken, so doses and lab values stay.
The label comes from the context word (one pass over the text for every label); vehicle plates
and unit numbers may also start with letters (``plate WMY 3363``, ``Medic 47``). A weak fallback
(score < 0.5) takes ID-shaped tokens without context: runs of 7+ digits, hyphenated numbers with
7+ digits (``4475-2259``, not phone, ZIP+4, year or clock-time shapes) and letter-digit codes such
as ``S24-18832``. The SSN and fallback shapes are language-neutral (ASCII word boundaries).
"""

from __future__ import annotations

import re

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules._common import any_of, followed_by_unit, joined_runs, long_runs
from phiscrub.detect.rules.base import PatternRule, RuleDetector, trie_pattern, words_regex
from phiscrub.detect.rules.id_values import (
    CHUNK,
    ITEM_RE,
    MONTH_PART_RE,
    MORE,
    NOT_ID_RE,
    VALUE,
    VALUE_END,
    checked_label,
    first_item,
    first_value,
    item_ok,
    value_ok,
)
from phiscrub.detect.rules.ids_data import (
    GENERIC_WORDS,
    ID_KEYWORDS,
    PLAN_CONTEXT,
    PLAN_WORDS,
    VEHICLE_CONTEXT,
    VEHICLE_WORDS,
)
from phiscrub.detect.rules.intl_ids import pack_id_rules

__all__ = ["ID_KEYWORDS", "ID_RULES_EN", "ID_RULES_NEUTRAL", "id_detector", "id_rules"]

# --- the value (shared with the language packs: :mod:`.id_values`) ----------------------------
# List separators; a short parenthetical may follow an item ("W25-1906 (EBUS), S11-31816").
_LIST_SEP = r"(?:[ \t]*\([^()\n]{1,20}\))?[ \t]*(?:,|;|&|/|\b(?i:and|through|thru|to)\b)[ \t]*"

# Between the context word and the value: "MRN: ", "Medical Record #: ", "MRN (our system): ",
# "member no. ", "license number is ", "serial/UDI: ", "(serial ".
_CONNECT = (
    r"(?:[ \t]*\([^()\n\d]{1,30}\))?[ \t:#=.\-]*"
    r"(?:,[ \t]*(?=(?i:no|number|#)))?"
    r"(?:(?i:no|nr|num|number|numbers|id|ids|is|was|code|#)\.?[ \t:#=.\-]*){0,2}"
    r"\(?[ \t]*"
)


def _context_value_ok(m: re.Match[str]) -> bool:
    """Short values (2 characters) pass here; the labeler asks 4 for every label but VEHICLE."""
    first = first_item(ITEM_RE, m)
    end = first.end() if first else m.end("v")
    return value_ok(first_value(ITEM_RE, m), 2, dates_ok=True) and not followed_by_unit(m.string, end)


def _word_hash_ok(m: re.Match[str]) -> bool:
    return value_ok(m.group("v")) and not followed_by_unit(m.string, m.end("v"))


_PLAN_CONTEXT_RE = words_regex(PLAN_CONTEXT)
_VEHICLE_CONTEXT_RE = words_regex(VEHICLE_CONTEXT)


def _norm(word: str) -> str:
    return " ".join(word.lower().split())


_KEYWORD_LABEL: dict[str, str] = {}
for _label, _words in ID_KEYWORDS.items():
    for _w in _words:
        _KEYWORD_LABEL.setdefault(_norm(_w), _label)
for _w in GENERIC_WORDS:
    _KEYWORD_LABEL[_norm(_w)] = "?generic"
for _w in VEHICLE_WORDS:
    _KEYWORD_LABEL[_norm(_w)] = "?vehicle"
for _w in PLAN_WORDS:
    _KEYWORD_LABEL[_norm(_w)] = "?plan"


def _id_label(m: re.Match[str]) -> str | None:
    """The label of a context-word match, from the keyword (and the words before it)."""
    return checked_label(_keyword_label(m), first_value(ITEM_RE, m))


def _keyword_label(m: re.Match[str]) -> str | None:
    kw = _norm(m.group("kw"))
    label = _KEYWORD_LABEL.get(kw)
    if label is None:
        return None
    before = m.string[max(0, m.start() - 40) : m.start()]
    if label == "?generic":
        if _PLAN_CONTEXT_RE.search(before):
            return "HEALTHPLAN"
        return "IDNUM" if kw.startswith("id") else None
    if label == "?plan":
        return "IDNUM" if _PLAN_CONTEXT_RE.search(before) else None
    if label == "?vehicle":
        if _VEHICLE_CONTEXT_RE.search(before):
            return "VEHICLE"
        # "registration number 90-496107" and blood "UNIT 4992-3496" are still identifiers; a
        # short "unit 412B" is a hospital unit or room.
        if kw == "registration" or (
            kw.startswith("unit") and sum(c.isalnum() for c in first_value(ITEM_RE, m)) >= 6
        ):
            return "IDNUM"
        return None
    return label


_ALL_KEYWORDS = [
    *(w for ws in ID_KEYWORDS.values() for w in ws),
    *GENERIC_WORDS,
    *VEHICLE_WORDS,
    *PLAN_WORDS,
]
# Later list items take no letter prefix ("DEA BS1234563, NPI 1234567893" is two contexts).
_VALUE_LIST = rf"{VALUE}(?:{_LIST_SEP}{CHUNK}{MORE}{VALUE_END}){{0,8}}"
# <context word> <connector> <value>[, <value> ...] in one pass for every label.
_KEYWORD_RE = re.compile(
    rf"(?<![\w\-/])(?P<kw>{trie_pattern(_ALL_KEYWORDS)})(?![\w]){_CONNECT}(?P<v>{_VALUE_LIST}){VALUE_END}"
)

# --- SSN ---------------------------------------------------------------------------------------
_SSN_WORDS = trie_pattern(
    (
        "SSN",
        "SS#",
        "SS #",
        "SS no",
        "SS no.",
        "social security",
        "social security number",
        "social security no",
        "social security no.",
        "social security #",
    )
)

_RX = pattern_data("ids", globals())


# Every SSN ends with two digits, an optional separator and four digits.
_SSN_ANCHOR = any_of(long_runs(6), joined_runs(" -", left_min=2, right_min=4))


def _ssn_ok(m: re.Match[str]) -> bool:
    """A bare 123-45-6789 needs a valid SSN (area not 000/666/9xx, group not 00, serial not 0000);
    after "SSN:" any 3-2-4 number is taken."""
    if m.start() and re.match(r"[\w\-/.]", m.string[m.start() - 1], re.ASCII):
        return False
    if m.group("bare") is None:
        return True
    return _RX["SSN_INVALID_RE"].match(m.group("bare")) is None


# Every fallback match holds three digits in a row: search only around those.
_FALLBACK_ANCHOR = long_runs(3)


def _fallback_ok(m: re.Match[str]) -> bool:
    # Rooms and beds are locations; "+49 30 1234567" is the end of a phone number.
    if followed_by_unit(m.string, m.end()) or _RX["ROOM_BEFORE_RE"].search(
        m.string, max(0, m.start() - 12), m.start()
    ):
        return False
    if _RX["TERMINOLOGY_BEFORE_RE"].search(m.string, max(0, m.start() - 70), m.start()):
        return False  # "SNOMED: T-67700 M-81403": terminology codes
    if m.group("dh") is not None:
        left, right = m.group("dh").split("-")
        shape = (len(left), len(right))
        years = all(len(p) == 4 and p[:2] in ("19", "20") for p in (left, right))
        # 1900-0700 is a clock-time range; 02114-1234 a ZIP+4; 555-0134 a phone number.
        clock = shape == (4, 4) and all(int(p[:2]) < 24 and int(p[2:]) < 60 for p in (left, right))
        return sum(shape) >= 7 and not years and not clock and shape not in ((3, 4), (5, 4))
    digits = m.group("dg")
    if digits is not None and len(digits) == 10 and digits[0] in "23456789" and digits[3] in "23456789":
        return False  # a North American phone number: the contact rules take it
    if digits is not None and _RX["COMPACT_DATE_RE"].fullmatch(digits):
        return False  # 20190312: the date rules take it
    code = m.group("hy")
    if code is None:
        return True
    if (
        not any(ch.isalpha() for ch in code)
        or sum(ch.isdigit() for ch in code) < 4
        or NOT_ID_RE.fullmatch(code)
    ):
        return False
    parts = code.split("-")
    # 12-Mar-2019 is a date; q24-48h and 10-20mg are frequencies and doses.
    if any(p.isalpha() and MONTH_PART_RE.fullmatch(p) for p in parts):
        return False
    return _RX["DOSE_LIKE_RE"].match(parts[0]) is None and _RX["DOSE_END_RE"].search(code) is None


# Plates and tail numbers may start with a letter block: "plate WMY 3363", "tail number N 412".
_PLATE_RE = re.compile(
    r"(?<![\w\-/])"
    + trie_pattern(
        (
            "license plate",
            "plate",
            "plates",
            "tail number",
            "tail #",
            "registration",
            "tag",
            "vin",
            "unit",
            "ambulance",
            "medic",
            "veh id",
            "vehicle id",
        )
    )
    + r"(?![\w])"
    r"[ \t:#]*(?:(?i:no|number|#)\.?[ \t:#]*)?\(?[ \t]*"
    r"(?P<v>[A-Z]{1,4}[ \-][0-9]{2,5}[A-Z]?"
    r"|(?:Unit|Medic|Rescue|Engine|Squad|Truck|Ambulance|UNIT|MEDIC|RESCUE|ENGINE|SQUAD|TRUCK)[ \t]?\d{1,4}[A-Z]?)"
    r"(?![\w\-]|\.\d)"
)


def _plate_ok(m: re.Match[str]) -> bool:
    """A "unit"/"ambulance" letter-number code is a vehicle only near transport words."""
    word = m.group().split(None, 1)[0].lower()
    if word not in ("unit", "ambulance", "medic"):
        return True
    return _VEHICLE_CONTEXT_RE.search(m.string, max(0, m.start() - 40), m.end()) is not None


#: The labels of the ID keywords besides IDNUM (``_id_label`` may return them).
_ID_EXTRA_LABELS = tuple(lab for lab in ID_KEYWORDS if lab != "IDNUM")

ID_RULES_NEUTRAL: tuple[PatternRule, ...] = (
    PatternRule("SSN",   _RX["SSN_BARE_RE"], name="ssn",      score=0.95, group="bare", validator=_ssn_ok, anchor=_SSN_ANCHOR, reach=(6, 2)),
    PatternRule("IDNUM", _RX["FALLBACK_RE"], name="id_shape", score=0.45, validator=_fallback_ok, not_after=r"[\-/.#,$]", anchor=_FALLBACK_ANCHOR, reach=(30, 30)),
)  # fmt: skip

ID_RULES_EN: tuple[PatternRule, ...] = (
    PatternRule("SSN",     _RX["SSN_RE"],       name="ssn_context", score=0.95, group=("bare", "ctx"), validator=_ssn_ok, anchor=_SSN_ANCHOR, reach=(60, 2)),
    PatternRule("IDNUM",   _KEYWORD_RE,         name="id_context",  score=0.85, group="v", item=ITEM_RE, item_validator=item_ok, validator=_context_value_ok, labeler=_id_label, extra_labels=_ID_EXTRA_LABELS),
    PatternRule("VEHICLE", _PLATE_RE,           name="plate",       score=0.85, group="v", validator=_plate_ok),
    PatternRule("IDNUM",   _RX["WORD_HASH_RE"], name="word_hash",   score=0.7,  group="v", validator=_word_hash_ok, anchor=re.compile("#"), reach=(25, 50)),
)  # fmt: skip


def id_rules(lang: str = "en") -> tuple[PatternRule, ...]:
    """The ID rules for ``lang``: SSN and ID shapes always, context-word rules for ``en``, and for
    the language-pack languages (``es``, ``ca``, ``de``, ``fr``, ``nl``, ``zh``) national identifiers
    with check digits and their identifier keywords (see :mod:`phiscrub.detect.rules.intl_ids`)."""
    if lang == "en":
        # The English SSN rule includes the bare shape, so the neutral SSN rule is not repeated.
        return ID_RULES_NEUTRAL[1:] + ID_RULES_EN
    return ID_RULES_NEUTRAL + pack_id_rules(lang)


def id_detector(lang: str = "en") -> RuleDetector:
    """A :class:`RuleDetector` named ``id`` with the ID rules for ``lang``."""
    return RuleDetector("id", id_rules(lang))
