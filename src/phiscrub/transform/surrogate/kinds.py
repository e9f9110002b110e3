"""What a PHI surface is, read from the surface itself and not only from its label.

Detectors mislabel: "FROM SPRINGFIELD ON 3/4" tagged HOSPITAL, "Mary called from Cambridge" with
Cambridge as HOSPITAL, "MD Anderson Cancer Center" as a NAME. A surrogate of the label's kind then
turns a town into a hospital or a hospital into a person. Before drawing, the surface is checked
against the gazetteers: a facility word at its head ("... Clinic", "Hospital de ...") makes it a
facility whatever the label; a known town or state makes a place label (or a name label whose words
are no known name) a town or state; a place label whose words are all known names is a person.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from phiscrub.resources import load_lexicon
from phiscrub.transform.surrogate.geo import state_code, town_states, towns_of_country
from phiscrub.transform.surrogate.locale import Locale, locale_list
from phiscrub.transform.surrogate.text import normalize_component
from phiscrub.transform.surrogate.wordlists import NAME_LABELS, US_FEMALE, US_LAST, US_MALE

__all__ = ["FACILITY_HEADS", "Facility", "is_town", "known_names", "read_facility", "surface_kind"]

#: Head nouns that name a facility's kind, longest first (English: after the name).
FACILITY_HEADS: tuple[str, ...] = tuple(
    sorted(
        (
            "VA Medical Center", "Veterans Affairs Medical Center", "VA Hospital", "VA Clinic", "Cancer Center",
            "Cancer Institute", "Heart Institute", "Medical Center", "Health Center", "Health System",
            "Rehabilitation Hospital", "Rehabilitation Center", "Rehab Center", "Rehab Hospital", "Nursing Home",
            "Nursing Facility", "Skilled Nursing Facility", "Nursing and Rehabilitation Center", "Assisted Living",
            "Senior Living", "Hospice", "Surgery Center", "Surgical Center", "Urgent Care", "Clinic", "Hospital",
            "Pharmacy", "Infirmary", "Medical Group", "Medical Associates", "Healthcare", "Health Care",
            "Care Center", "Dialysis Center", "Imaging Center", "Rehab", "Institute", "Medical Clinic",
            "Health Clinic", "Behavioral Health Center", "Children's Hospital", "Memorial Hospital",
            "Community Hospital", "General Hospital", "Regional Medical Center", "Drug Store",
            "Family Practice", "Medical Practice", "Home Health", "Funeral Home", "Police Department",
            "Fire Department", "Church", "Methodist", "Baptist", "Chapel", "Manor", "Physical Therapy", "PD",
        ),
        key=len,
        reverse=True,
    )
)  # fmt: skip
#: Heads written before the name ("Hospital de Sant Pau", "Klinikum Nürnberg", "Hôpital Necker").
LEADING_HEADS: tuple[str, ...] = tuple(
    sorted(
        (
            "Hospital Universitario", "Hospital Universitari", "Hospital General", "Hospital Clínic", "Hospital",
            "Clínica", "Clinica", "Centro de Salud", "Centre de Salut", "Klinikum", "Krankenhaus",
            "Universitätsklinikum", "Centre Hospitalier", "Hôpital", "Clinique", "Ziekenhuis",
            "Universitair Medisch Centrum", "Sanatorio", "Residencia",
        ),
        key=len,
        reverse=True,
    )
)  # fmt: skip
#: Words before a head that say what the facility does, kept as written ("Northgate *Family* Clinic").
SERVICE_WORDS = frozenset(
    {
        "family", "children's", "childrens", "women's", "womens", "community", "memorial", "general", "regional",
        "university", "medical", "health", "county", "pediatric", "primary", "care", "dental", "eye",
        "orthopedic", "orthopaedic", "cardiology", "oncology", "behavioral", "mental", "specialty", "surgical",
        "internal", "medicine", "urgent", "walk-in", "veterans", "va", "heart", "kidney", "cancer", "city",
        "state", "and", "&", "of", "the", "nursing", "rehabilitation", "rehab", "skilled", "senior", "living",
        "assisted", "long-term", "acute", "home",
    }
)  # fmt: skip
_ORG_SUFFIX = re.compile(
    r"(?i)(?<=\s)(Inc\.?|LLC|L\.L\.C\.|Corp\.?|Corporation|Co\.|Company|Group|Associates|Partners|Foundation|"
    r"Bank|Insurance|Services|Systems|Solutions|Industries|Enterprises|Ltd\.?|Sons)\W*$"
)
_END_HEAD = re.compile(
    r"(?is)^(?P<stem>.*?)(?P<sep>[\s\-]+)(?P<head>"
    + "|".join(re.escape(h) for h in FACILITY_HEADS)
    + r")(?P<tail>\W*)$"
)
_BARE_HEAD = re.compile(
    r"(?i)^(?P<head>" + "|".join(re.escape(h) for h in FACILITY_HEADS) + r")(?P<tail>\W*)$"
)
_LEAD_HEAD = re.compile(
    r"(?s)^(?P<head>"
    + "|".join(re.escape(h) for h in LEADING_HEADS)
    + r")(?P<sep>\s+(?:de\s+l[ae]\s+|de\s+|del\s+|d'|"
    r"du\s+|de\s+la\s+|des\s+|van\s+)?)(?P<stem>\S.*?)(?P<tail>\W*)$"
)
_PLACE_LABELS = frozenset({"HOSPITAL", "ORGANIZATION", "LOCATION", "CITY", "STATE", "COUNTRY"})


@dataclass(frozen=True)
class Facility:
    """A facility name read as stem + head: "Northgate Family" + " " + "Clinic".

    Attributes:
        stem: the name part (may hold service words); empty for a bare head.
        sep: the text between stem and head (a space, a hyphen, "de ").
        head: the head noun as written ("Clinic", "Hospital", "VA Medical Center").
        tail: trailing punctuation kept as written.
        leading: the head comes first ("Hospital de Sant Pau").
    """

    stem: str
    sep: str
    head: str
    tail: str
    leading: bool = False


def read_facility(surface: str) -> Facility | None:
    """The stem and head of a facility name, or None when no facility head ends (or starts) it."""
    text = surface.strip()
    m = _END_HEAD.match(text)
    if m is not None and m.group("head").upper() == "PD" and m.group("head") != "PD":
        m = None  # "PD" (police department) only in capitals
    if m is not None and re.search(r"[^\W\d_]", m.group("stem")):
        return Facility(m.group("stem"), m.group("sep"), m.group("head"), m.group("tail"))
    m = _LEAD_HEAD.match(text)
    if m is not None and m.group("head")[0].isupper():
        return Facility(m.group("stem"), m.group("sep"), m.group("head"), m.group("tail"), leading=True)
    m = _BARE_HEAD.match(text)
    if m is not None and len(text) > 6:
        return Facility("", "", m.group("head"), m.group("tail"))
    return None


def is_organization(surface: str) -> bool:
    """A company-like name: a legal or business word at its end ("Acme Corp.", "Lynch Associates")."""
    return bool(_ORG_SUFFIX.search(surface.strip()))


@cache
def known_names(folder: str | None) -> frozenset[str]:
    """Folded given names and surnames of a locale's lists (and, for English, the commonest US ones)."""
    names = {
        normalize_component(n)
        for stem in ("first_names_female", "first_names_male", "last_names")
        for n in locale_list(stem, folder)
    }
    if folder == "en_us":
        names |= {normalize_component(n) for n in (*US_FEMALE, *US_MALE, *US_LAST)}
    return frozenset(names)


@cache
def _towns(country: str, folder: str | None) -> frozenset[str]:
    towns = {normalize_component(t) for t in towns_of_country(country)}
    if folder is not None:
        towns |= {normalize_component(t) for t in locale_list("cities", folder) if folder != "en_us"}
    if country == "US":
        towns |= set(town_states())
        towns |= {normalize_component(t) for t in load_lexicon("gazetteer_cities")}
    return frozenset(towns)


def is_town(surface: str, loc: Locale) -> bool:
    """Whether ``surface`` is a town of the locale's gazetteers (GeoNames, the locale's town list)."""
    return normalize_component(surface.strip().rstrip(".,")) in _towns(loc.country, loc.folder)


def _words(surface: str) -> list[str]:
    return [normalize_component(w) for w in re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", surface)]


def surface_kind(fine: str, surface: str, loc: Locale) -> str | None:
    """The kind a surface is, when it overrides its label: ``facility``, ``organization``,
    ``city``, ``state`` or ``person``; None when the label's own generator fits.

    Args:
        fine: the span's fine label.
        surface: the original text.
        loc: the note's locale (its gazetteers and name lists).
    """
    if fine not in NAME_LABELS and fine not in _PLACE_LABELS:
        return None
    stripped = surface.strip()
    if not stripped or re.search(r"\d", stripped):
        return None
    if read_facility(stripped) is not None:
        return "facility"
    if fine in ("HOSPITAL", "ORGANIZATION") and is_organization(stripped):
        return "organization"
    words = _words(stripped)
    names = known_names(loc.folder)
    us = loc.country == "US"
    if fine in NAME_LABELS:
        if words and not any(w in names for w in words):
            if us and len(stripped) > 2 and state_code(stripped) is not None:
                return "state"
            if is_town(stripped, loc):
                return "city"
        return None
    if us and state_code(stripped) is not None:
        return "state"
    if fine != "COUNTRY" and is_town(stripped, loc):
        return "city"
    if (
        fine != "COUNTRY"
        and 1 <= len(words) <= 3
        and all(w in names for w in words)
        and stripped[0].isupper()
    ):
        return "person"
    return None
