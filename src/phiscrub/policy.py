"""PHI policies: which detected (or gold) spans count as PHI.

A policy decides, per span, whether it is PHI, from its label and, for ages, places and dates,
its surface. Three policies (full table per fine label in ``docs/policy.md``):

``safe-harbor``
    HIPAA Safe Harbor, 45 CFR 164.514(b)(2): the 18 identifiers. Ages of 89 and under, states and
    countries, years alone ("2021", "in 1998") and professions are kept; every other element of a
    date is removed. Facility, ward, room and organisation names count as geographic subdivisions
    smaller than a state. The default for English.
``i2b2``
    Everything the i2b2 2014 de-identification guidelines annotate (Stubbs and Uzuner 2015): every
    fine label, all ages, states, countries and professions (jobs of people who are not medical
    staff). The default for every other language (MEDDOCAN annotates the same categories).
``strict``
    ``i2b2`` plus the quasi-identifiers that corpora annotate as ``OTHER`` (MEDDOCAN's sex, family
    members and other facts about the patient). No bundled detector emits ``OTHER`` and the
    transformers leave ``OTHER`` spans in place, so today ``strict`` redacts what ``i2b2`` redacts;
    it is the stable name for "everything any annotation scheme calls identifying".

Ages: under ``safe-harbor`` an AGE span is PHI when its value is over 89 years, when it is open
upwards from 89 ("89+", "over 89"), or when no value can be read from it (unreadable ages are kept
out of the output, privacy first).
:func:`age_in_years` reads digits, number words, decades ("80s", "nineties"), ranges (the upper
end counts) and units (months, weeks, days, hours are converted to years).

States and countries are recognised by their text, not by the label alone: a STATE, COUNTRY or
LOCATION span is kept under ``safe-harbor`` only when its whole surface is a state or a country of
the bundled gazetteers (full name, postal code, traditional abbreviation, any case, dots optional:
"Michigan", "MICHIGAN", "MI", "Mich.", "the U.S.A."); anything else ("Houston" labelled STATE,
"New York City", "Kumasi" labelled COUNTRY) is a place smaller than a state and PHI under every
policy. A name that is also a first or last name ("Jordan", "Georgia", "Washington") counts as a
region only under the STATE and COUNTRY labels, never under the generic LOCATION (see
:func:`region_label`).

Dates: under ``safe-harbor`` a DATE span that is a four-digit year alone, 1800 to 2099, is kept
(:func:`is_bare_year`); two-digit years ("'62") and any date with a day, month or season are PHI.

Policies are pure functions of ``(text, span)``: the same policy can be applied to predicted and
gold spans (``phiscrub evaluate --policy``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Literal, get_args

from phiscrub.document import Span
from phiscrub.errors import ConfigError, LabelError
from phiscrub.labels import COARSE_LABELS, FINE_TO_COARSE, to_fine

__all__ = [
    "AGE_LIMIT",
    "POLICIES",
    "POLICY_KEEPS",
    "Policy",
    "age_in_years",
    "apply_policy",
    "check_policy",
    "default_policy",
    "is_bare_year",
    "is_phi",
    "policy_table",
    "region_label",
]

Policy = Literal["safe-harbor", "i2b2", "strict"]

#: Policy names, from the narrowest to the broadest.
POLICIES: tuple[str, ...] = get_args(Policy)

#: Safe Harbor: ages *over* this many years are PHI.
AGE_LIMIT = 89

#: Fine labels each policy keeps (not PHI) whatever the surface. Under safe-harbor, ``AGE`` (by
#: value), ``DATE`` (a year alone) and ``STATE``, ``COUNTRY`` and ``LOCATION`` (a state or country
#: name) are decided by their text (see :func:`is_phi`), so they are not listed here.
POLICY_KEEPS: dict[str, frozenset[str]] = {
    "safe-harbor": frozenset({"PROFESSION", "OTHER"}),
    "i2b2": frozenset({"OTHER"}),
    "strict": frozenset(),
}

#: Rule languages whose default policy is safe-harbor (US HIPAA); every other language gets i2b2.
_SAFE_HARBOR_LANGS = frozenset({"en"})


def check_policy(policy: str) -> Policy:
    """Return ``policy`` if it is a known policy name.

    Raises:
        ConfigError: unknown policy.
    """
    if policy not in POLICIES:
        raise ConfigError(f"unknown PHI policy {policy!r}; use one of {', '.join(POLICIES)}")
    return policy  # type: ignore[return-value]


def default_policy(lang: str | None) -> Policy:
    """The default policy of a language: ``safe-harbor`` for English, ``i2b2`` for the others.

    English notes are mostly US notes, where HIPAA Safe Harbor is the legal standard and what
    independent evaluations score; other corpora (MEDDOCAN, ...) annotate ages, countries and
    professions as PHI, and GDPR-style rules have no age or state exemption. ``None`` (unknown
    language) gets ``i2b2``, the broader one.
    """
    if lang is not None and lang.lower().split("-")[0].split("_")[0] in _SAFE_HARBOR_LANGS:
        return "safe-harbor"
    return "i2b2"


# --- ages ------------------------------------------------------------------------------------------

# A unit right after a number: months, weeks, days and hours per year (anything else is years).
# Single letters are not units: "90M" or "90 F" is more often an age and a sex than 90 months, and
# reading them as years can only make an age PHI, never keep one.
_UNIT_AFTER: tuple[tuple[re.Pattern[str], float], ...] = (
    (
        re.compile(
            r"[\s-]*(?:months?|mos?|mths?|mon|meses|mes|mois|monate?n?|maanden|maand)\b", re.IGNORECASE
        ),
        12.0,
    ),
    (re.compile(r"[\s-]*(?:weeks?|wks?|semanas?|semaines?|wochen|woche|weken)\b", re.IGNORECASE), 52.18),
    (re.compile(r"[\s-]*(?:days?|dys?|d[ií]as?|jours?|tage?n?|dagen|dag)\b", re.IGNORECASE), 365.25),
    (re.compile(r"[\s-]*(?:hours?|hrs?|horas?|heures?|stunden|uren)\b", re.IGNORECASE), 8766.0),
)
#: Words that make an age open upwards: "89+", "over 89", "> 89", "older than 89".
_OPEN_ABOVE = re.compile(
    r"\+|>|≥|\b(?:over|above|older\s+than|more\s+than|greater\s+than|at\s+least|past)\b", re.IGNORECASE
)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_ONES = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
_DECADE_WORDS = {
    "sexagenarian": 60, "septuagenarian": 70, "octogenarian": 80, "nonagenarian": 90,
    "centenarian": 100, "supercentenarian": 110, "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60, "seventies": 70,
    "eighties": 80, "nineties": 90,
}  # fmt: skip
_WORD = re.compile(r"[a-z]+", re.IGNORECASE)


def _word_numbers(text: str) -> list[tuple[float, int]]:
    """Numbers written in English words ("eighty-nine", "nineties", "one hundred"), with their end offsets."""
    words = [(m.group().lower(), m.end()) for m in _WORD.finditer(text)]
    out: list[tuple[float, int]] = []
    i = 0
    while i < len(words):
        w, end = words[i]
        if w in _DECADE_WORDS:
            out.append((float(_DECADE_WORDS[w]), end))
        elif w in _TENS:
            value = _TENS[w]
            if i + 1 < len(words) and words[i + 1][0] in _ONES and _ONES[words[i + 1][0]] < 10:
                value += _ONES[words[i + 1][0]]
                end = words[i + 1][1]
                i += 1
            out.append((float(value), end))
        elif w in _ONES:
            value = _ONES[w]
            if i + 1 < len(words) and words[i + 1][0] == "hundred":
                value *= 100
                end = words[i + 1][1]
                i += 1
            out.append((float(value), end))
        elif w == "hundred":
            out.append((100.0, end))
        i += 1
    return out


def age_in_years(surface: str) -> float | None:
    """The age an AGE span states, in years, or None when no number can be read.

    Each number is in years unless a month, week, day or hour unit follows it ("18 mo", "3 weeks").
    Several numbers (a range "89-91", "92 years 3 months") give the largest, so an age range
    reaching 90 counts as over 89.

    Example:
        >>> age_in_years("92-year-old"), age_in_years("6 mo"), age_in_years("late eighties")
        (92.0, 0.5, 80.0)
    """
    found = [(float(m.group().replace(",", ".")), m.end()) for m in _NUMBER.finditer(surface)]
    found += _word_numbers(surface)
    if not found:
        return None
    years: list[float] = []
    for value, end in found:
        for pattern, per_year in _UNIT_AFTER:
            if pattern.match(surface, end):
                value /= per_year
                break
        years.append(value)
    return max(years)


# --- states and countries -------------------------------------------------------------------------

#: Fine labels whose span is a place: kept under safe-harbor only when the surface is a state or a
#: country (:func:`region_label`), otherwise a place smaller than a state (PHI).
_PLACE_LABELS = frozenset({"STATE", "COUNTRY", "LOCATION"})
#: Not states: the District of Columbia is one city (Washington), so its names stay PHI.
_NOT_REGIONS = frozenset({"dc", "district of columbia"})
_EDGE_CHARS = " \t\r\n,;:!?()[]{}<>\"'`*/\\-_|~"
_PARENTHESIS = re.compile(r"\s*\([^)]*\)")


def _region_key(surface: str) -> str:
    """The lookup key of a place name: accents, dots, case, edge punctuation and a leading "the" go.

    ``"U.S.A."``, ``"usa"`` and ``"the USA,"`` all give ``"usa"``; ``"N. Y."`` gives ``"ny"``.
    """
    text = unicodedata.normalize("NFKD", surface)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace(".", " ").lower()
    words = text.strip(_EDGE_CHARS).split()
    if words and words[0] == "the":
        words = words[1:]
    if words and words[-1].endswith("'s"):
        words[-1] = words[-1][:-2]
    if len(words) > 1 and all(len(w) == 1 for w in words):
        words = ["".join(words)]  # "N. Y." -> "ny", "U. S. A." -> "usa"
    return " ".join(words).strip(_EDGE_CHARS)


@lru_cache(maxsize=1)
def _gazetteer() -> dict[str, tuple[str, bool, bool]]:
    """Region key -> (``STATE``/``COUNTRY``, is a full name, is also a person's first or last name).

    From the bundled ``states``, ``states_abbr``, ``countries`` and ``region_aliases`` lists.
    """
    from phiscrub.resources import load_lexicon

    names: set[str] = set()
    for lexicon in ("first_names_female", "first_names_male", "last_names"):
        names |= {_region_key(n) for n in load_lexicon(lexicon)}
    entries: list[tuple[str, str, bool]] = [(s, "STATE", True) for s in load_lexicon("states")]
    entries += [(a, "STATE", False) for a in load_lexicon("states_abbr")]
    for country in load_lexicon("countries"):
        entries.append((country, "COUNTRY", True))
        if "(" in country:  # "Slovakia (Slovak Republic)" -> "Slovakia" too
            entries.append((_PARENTHESIS.sub("", country), "COUNTRY", True))
    for line in load_lexicon("region_aliases"):
        if not line.startswith("#"):
            label, alias = line.split("\t")
            # An alias with a dot or of two letters is an abbreviation ("Mich.", "N.Y."); else a name.
            entries.append((alias, label, "." not in alias and len(alias) > 2))
    gazetteer: dict[str, tuple[str, bool, bool]] = {}
    for surface, label, full in entries:
        key = _region_key(surface)
        if not key or key in _NOT_REGIONS:
            continue
        old = gazetteer.get(key)
        if old is not None:  # "Georgia" is a state and a country; a full name wins over an abbreviation
            label, full = old[0], old[1] or full
        gazetteer[key] = (label, full, key in names)
    return gazetteer


# "Washington state", "the State of Ohio": a state named as a state. "Ohio State" (capital S) is not
# taken: it names universities (Ohio State, Penn State, Michigan State) as often as the state.
_STATE_WORDS = re.compile(
    r"^(?:(?:the\s+)?state\s+of\s+(?P<after>.+)|(?P<before>.+?)\s+state)$", re.IGNORECASE
)


def _state_named_as_state(surface: str) -> bool:
    """Whether ``surface`` is "<state> state" (lower-case "state") or "State of <state>"."""
    match = _STATE_WORDS.match(surface.strip(_EDGE_CHARS + "."))
    if match is None:
        return False
    if match.group("before") is not None and not surface.strip(_EDGE_CHARS + ".").endswith(" state"):
        return False
    name = match.group("after") or match.group("before")
    entry = _gazetteer().get(_region_key(name))
    return entry is not None and entry[0] == "STATE" and entry[1]


def region_label(surface: str, label: str = "LOCATION") -> str | None:
    """``STATE`` or ``COUNTRY`` when ``surface`` is exactly one (bundled lists), else None.

    Any case, with or without dots, edge punctuation and a leading "the" ("MICHIGAN", "mich",
    "Mich.", "MI", "the U.S.A."). A name that is also a person's first or last name ("Georgia",
    "Jordan", "Washington") counts only for a span labelled ``STATE`` or ``COUNTRY`` (the detector
    read it as a region), never for the generic ``LOCATION``; such an abbreviation ("Del", "Cal")
    counts only written in capitals or with a dot ("DEL", "Cal."). A full state name followed by a
    lower-case "state" ("Washington state") or after "State of" is the state; "Ohio State" is not
    (a university as often). The District of Columbia and "New York City" are cities, so None;
    "New York" alone is the state.

    Args:
        surface: the span's text.
        label: the span's fine label (``STATE``, ``COUNTRY`` or ``LOCATION``).
    """
    entry = _gazetteer().get(_region_key(surface))
    if entry is None:
        if _state_named_as_state(surface):
            return "STATE"
        return _region_list(surface, label)
    region, full, person = entry
    if person:
        if full and label not in ("STATE", "COUNTRY"):
            return None
        stripped = surface.strip(_EDGE_CHARS)
        if not full and not ("." in stripped or stripped.isupper()):
            return None
    return region


_LIST_SPLIT = re.compile(r"\s*(?:,|;|/|&|\band\b|\bor\b)\s*", re.IGNORECASE)


def _region_list(surface: str, label: str) -> str | None:
    """``"Texas and Virginia"``, ``"Ohio, Indiana"``: a list of regions is a region (the first's kind)."""
    parts = [p for p in _LIST_SPLIT.split(surface.strip(_EDGE_CHARS)) if p]
    if len(parts) < 2:
        return None
    kinds = [region_label(p, label) for p in parts]
    return kinds[0] if all(kinds) else None


#: State names that are as often the name of one of the largest cities: recall first, a city unless
#: the text names the state ("New York state", "State of Washington").
_CITY_STATES = frozenset({"new york", "washington"})
# A state name that begins the name of a city ("Kansas City", "Virginia Beach", "Iowa City").
_CITY_AFTER_STATE = re.compile(
    r"[ \t]+(?:City|CITY|Beach|BEACH|Falls|FALLS|Springs|SPRINGS|Heights|HEIGHTS|Rapids|RAPIDS)\b"
)
_STATE_CUE_AFTER = re.compile(r"[ \t]+state\b", re.IGNORECASE)
_STATE_CUE_BEFORE = re.compile(r"\bstate[ \t]+of[ \t]+\Z", re.IGNORECASE)


def _city_read(text: str, span: Span) -> Span | None:
    """A span whose text is a state's name (:func:`region_label`) that names a city here: the span
    to remove (widened over the city's name), or None when it is the state."""
    surface = text[span.start : span.end]
    tail = _CITY_AFTER_STATE.match(text, span.end)
    if tail is not None:
        return Span(span.start, tail.end(), "CITY", span.score, span.source)
    if _region_key(surface) in _CITY_STATES and not (
        _STATE_CUE_AFTER.match(text, span.end)
        or _STATE_CUE_BEFORE.search(text[max(0, span.start - 12) : span.start])
    ):
        return Span(span.start, span.end, "CITY", span.score, span.source)
    return None


# --- years -----------------------------------------------------------------------------------------

_BARE_YEAR = re.compile(r"(?:in\s+)?(?:18|19|20)\d\d", re.IGNORECASE)
_YEAR_EDGE = " \t\r\n.,;:!?()[]{}\"'\u2018\u2019"


_DECADE = re.compile(r"(?:in\s+)?(?:the\s+)?(?:18|19|20)\d0['’]?s", re.IGNORECASE)


def is_bare_year(surface: str) -> bool:
    """Whether a DATE surface is a year alone, 1800 to 2099 (``"2021"``, ``"1998."``, ``"in 2021"``),
    or a decade of four digits (``"the 1980s"``: coarser than a year).

    Two-digit years (``"'62"``) and decades (``"the 90s"``: an age as often), ranges and years with a
    month, day or season are not.
    """
    bare = surface.strip(_YEAR_EDGE)
    return _BARE_YEAR.fullmatch(bare) is not None or _DECADE.fullmatch(bare) is not None


# --- the decision --------------------------------------------------------------------------------


def _effective_label(label: str, surface: str | None) -> str:
    try:
        fine = to_fine(label)
    except LabelError:
        # A label no table knows (a BRAT corpus's own type, --labels native): PHI under every
        # policy, privacy first. No policy keeps a label it cannot name.
        return "\x00unknown"
    if fine in _PLACE_LABELS:
        # A state or country by its surface; anything else is a place smaller than a state.
        region = None if surface is None else region_label(surface, fine)
        return region or "LOCATION"
    return fine


def is_phi(label: str, policy: str, surface: str | None = None) -> bool:
    """Whether a span with ``label`` (and text ``surface``) is PHI under ``policy``.

    Args:
        label: a fine, coarse or corpus-native label (coarse NAME, ID and CONTACT are PHI under
            every policy).
        policy: ``safe-harbor``, ``i2b2`` or ``strict``.
        surface: the span's text; needed for ages (value), places (states and countries are
            recognised by their text, whatever the label) and dates (a year alone). Without it,
            an AGE, a STATE, a COUNTRY, a LOCATION and a DATE are PHI. A label no table knows (a
            corpus's own type under ``--labels native``) is PHI.

    Raises:
        ConfigError: unknown policy.
    """
    keeps = POLICY_KEEPS[check_policy(policy)]
    fine = _effective_label(label, surface)
    if fine in keeps:
        return False
    if policy != "safe-harbor" or surface is None:
        return True
    if fine in ("STATE", "COUNTRY"):  # its text is a state or a country (_effective_label)
        return False
    if fine == "AGE":
        years = age_in_years(surface)
        if years is None or years > AGE_LIMIT:
            return True
        # "89+", "over 89": open upwards from the limit, so possibly over it.
        return years >= AGE_LIMIT and _OPEN_ABOVE.search(surface) is not None
    if fine == "DATE":
        return not is_bare_year(surface)
    return True


def apply_policy(text: str, spans: Iterable[Span], policy: str) -> list[Span]:
    """The spans of ``text`` that are PHI under ``policy`` (order kept, spans unchanged).

    Under safe-harbor a state name that names a city here is PHI: one that begins a city's name
    ("Kansas City", "Virginia Beach": widened over it, labelled CITY) and "New York" or
    "Washington" unless the text names the state ("New York state", "State of Washington").

    Raises:
        ConfigError: unknown policy.
        LabelError: unknown label.
    """
    check_policy(policy)
    out = []
    for s in spans:
        surface = text[s.start : s.end]
        if is_phi(s.label, policy, surface):
            out.append(s)
        elif policy == "safe-harbor" and _effective_label(s.label, surface) == "STATE":
            city = _city_read(text, s)
            if city is not None:
                out.append(city)
    return out


def policy_table() -> dict[str, dict[str, str]]:
    """Per label, per policy: ``removed``, ``kept`` or a short rule (``> 89 removed``).

    Rows are the fine labels (plus OTHER), in :data:`phiscrub.labels.FINE_TO_COARSE` order; the
    table in ``docs/policy.md`` is generated from it.
    """
    table: dict[str, dict[str, str]] = {}
    for fine in FINE_TO_COARSE:
        row: dict[str, str] = {}
        for policy in POLICIES:
            if fine in POLICY_KEEPS[policy]:
                row[policy] = "kept"
            elif fine == "OTHER":
                row[policy] = "PHI, not replaced yet (no detector or operator for it)"
            elif fine == "AGE" and policy == "safe-harbor":
                row[policy] = f"over {AGE_LIMIT} or unreadable removed, {AGE_LIMIT} and under kept"
            elif fine in ("STATE", "COUNTRY") and policy == "safe-harbor":
                row[policy] = "kept when the text is a state or country name, else removed"
            elif fine == "LOCATION" and policy == "safe-harbor":
                row[policy] = "removed, but a state or country name (not also a person's name) is kept"
            elif fine == "DATE" and policy == "safe-harbor":
                row[policy] = "removed, but a year alone (1800-2099) is kept"
            else:
                row[policy] = "removed"
        table[fine] = row
    assert all(c in COARSE_LABELS for c in {v for v in FINE_TO_COARSE.values() if v})
    return table
