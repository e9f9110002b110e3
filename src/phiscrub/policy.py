"""PHI policies: which detected (or gold) spans count as PHI.

A policy decides, per span, whether it is PHI, from its label and, for ages, states and
countries, its surface. Three policies (full table per fine label in ``docs/policy.md``):

``safe-harbor``
    HIPAA Safe Harbor, 45 CFR 164.514(b)(2): the 18 identifiers. Ages of 89 and under, states and
    countries, and professions are kept. Dates are removed whole, years included (stricter than the
    rule, which lets the year stand, as PhysioNet deid and most tools do). Facility, ward, room and
    organisation names count as geographic subdivisions smaller than a state. The default for
    English.
``i2b2``
    Everything the i2b2 2014 de-identification guidelines annotate (Stubbs and Uzuner 2015): every
    fine label, all ages, states, countries and professions (jobs of people who are not medical
    staff). The default for every other language (MEDDOCAN annotates the same categories).
``strict``
    ``i2b2`` plus the quasi-identifiers that corpora annotate as ``OTHER`` (MEDDOCAN's sex, family
    members and other facts about the patient). No bundled detector emits ``OTHER`` and the
    transformers leave ``OTHER`` spans in place, so today ``strict`` redacts what ``i2b2`` redacts;
    it is the stable name for "everything any annotation scheme calls identifying".

Ages: under ``safe-harbor`` an AGE span is PHI when its value is over 89 years, or when no value
can be read from it (unreadable ages are kept out of the output, privacy first).
:func:`age_in_years` reads digits, number words, decades ("80s", "nineties"), ranges (the upper
end counts) and units (months, weeks, days, hours are converted to years).

LOCATION spans (the generic fine label, and the coarse LOCATION) whose whole surface is a US
state or a country of the bundled lists are treated as STATE / COUNTRY, so ``safe-harbor`` keeps
them; surfaces that are also first or last names ("Jordan", "Georgia", "Washington") are not
treated so and stay PHI.

Policies are pure functions of ``(text, span)``: the same policy can be applied to predicted and
gold spans (``phiscrub evaluate --policy``).
"""

from __future__ import annotations

import re
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
    "is_phi",
    "policy_table",
]

Policy = Literal["safe-harbor", "i2b2", "strict"]

#: Policy names, from the narrowest to the broadest.
POLICIES: tuple[str, ...] = get_args(Policy)

#: Safe Harbor: ages *over* this many years are PHI.
AGE_LIMIT = 89

#: Fine labels each policy keeps (not PHI) whatever the surface. ``AGE`` under safe-harbor is
#: decided by value (see :func:`is_phi`), so it is not listed here.
POLICY_KEEPS: dict[str, frozenset[str]] = {
    "safe-harbor": frozenset({"STATE", "COUNTRY", "PROFESSION", "OTHER"}),
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
_UNIT_AFTER: tuple[tuple[re.Pattern[str], float], ...] = (
    (
        re.compile(
            r"[\s-]*(?:months?|mos?|mths?|mon|m|meses|mes|mois|monate?n?|maanden|maand)\b", re.IGNORECASE
        ),
        12.0,
    ),
    (re.compile(r"[\s-]*(?:weeks?|wks?|w|semanas?|semaines?|wochen|woche|weken)\b", re.IGNORECASE), 52.18),
    (re.compile(r"[\s-]*(?:days?|dys?|d|d[ií]as?|jours?|tage?n?|dagen|dag)\b", re.IGNORECASE), 365.25),
    (re.compile(r"[\s-]*(?:hours?|hrs?|h|horas?|heures?|stunden|uren)\b", re.IGNORECASE), 8766.0),
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
    "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60, "seventies": 70,
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


# --- states and countries written under the generic LOCATION label ---------------------------------


@lru_cache(maxsize=1)
def _regions() -> tuple[dict[str, str], frozenset[str]]:
    """(lower-cased state or country name -> STATE/COUNTRY, upper-case state abbreviations)."""
    from phiscrub.resources import load_lexicon

    names: set[str] = set()
    for lexicon in ("first_names_female", "first_names_male", "last_names"):
        names |= {n.lower() for n in load_lexicon(lexicon)}
    regions: dict[str, str] = {}
    for country in load_lexicon("countries"):
        if country.lower() not in names:
            regions[country.lower()] = "COUNTRY"
    for state in load_lexicon("states"):
        if state.lower() not in names:
            regions[state.lower()] = "STATE"
    for extra, label in (("usa", "COUNTRY"), ("u.s.", "COUNTRY"), ("u.s.a.", "COUNTRY"), ("us", "COUNTRY")):
        regions.setdefault(extra, label)
    return regions, frozenset(load_lexicon("states_abbr"))


def region_label(surface: str) -> str | None:
    """``STATE`` or ``COUNTRY`` when ``surface`` is exactly one (bundled lists), else None."""
    regions, abbreviations = _regions()
    stripped = surface.strip().strip(",;:()")
    if stripped in abbreviations or stripped.replace(".", "") in abbreviations:
        return "STATE"
    return regions.get(" ".join(stripped.lower().split()))


# --- the decision --------------------------------------------------------------------------------


def _effective_label(label: str, surface: str | None) -> str:
    try:
        fine = to_fine(label)
    except LabelError:
        # A label no table knows (a BRAT corpus's own type, --labels native): PHI under every
        # policy, privacy first. No policy keeps a label it cannot name.
        return "\x00unknown"
    if fine == "LOCATION" and surface is not None:
        return region_label(surface) or fine
    return fine


def is_phi(label: str, policy: str, surface: str | None = None) -> bool:
    """Whether a span with ``label`` (and text ``surface``) is PHI under ``policy``.

    Args:
        label: a fine, coarse or corpus-native label (coarse NAME, ID and CONTACT are PHI under
            every policy).
        policy: ``safe-harbor``, ``i2b2`` or ``strict``.
        surface: the span's text; needed for ages (value) and generic locations (states and
            countries). Without it, an AGE is PHI (its value is unknown) and a LOCATION is PHI.
            A label no table knows (a corpus's own type under ``--labels native``) is PHI.

    Raises:
        ConfigError: unknown policy.
    """
    keeps = POLICY_KEEPS[check_policy(policy)]
    fine = _effective_label(label, surface)
    if fine in keeps:
        return False
    if fine == "AGE" and policy == "safe-harbor":
        years = None if surface is None else age_in_years(surface)
        return years is None or years > AGE_LIMIT
    return True


def apply_policy(text: str, spans: Iterable[Span], policy: str) -> list[Span]:
    """The spans of ``text`` that are PHI under ``policy`` (order kept, spans unchanged).

    Raises:
        ConfigError: unknown policy.
        LabelError: unknown label.
    """
    check_policy(policy)
    return [s for s in spans if is_phi(s.label, policy, text[s.start : s.end])]


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
                row[policy] = f"over {AGE_LIMIT} removed, {AGE_LIMIT} and under kept"
            elif fine == "LOCATION" and policy == "safe-harbor":
                row[policy] = "removed, but a whole state or country name is kept"
            else:
                row[policy] = "removed"
        table[fine] = row
    assert all(c in COARSE_LABELS for c in {v for v in FINE_TO_COARSE.values() if v})
    return table
