"""German sites of Swiss, Austrian and German notes (third fresh German set), wired through
:func:`.intl_german.german_place_rules` (German only):

* a hospital, home or care centre **named after its kind** where the shared facility words stop short:
  a compound head (``Kinderspital Sankt Gallus``, ``Unfallkrankenhaus Inntal``, ``Landesklinikum Rheintal
  Nord``, ``Alterszentrum Eichhalde``), a shortened first part (``Alters- und Pflegeheim Rosengarten``), a
  lead adjective (``Psychiatrische Klinik Schlossberg``), a compass name after a hospital acronym (``LKH
  Nord``), and the same in a note written in lower case (``reha-zentrum feldbergblick in todtnau``);
* a **school, club, parish or business** named after its kind (``Primarschule Hegi``, ``Bäckerei Sutter``,
  ``Spedition Kaltenbach``, ``Pfarre St. Martin``, ``LAV Wehratal``) or before it (``Hochrhein-Gymnasium
  Wehr``), and the town after one (``Bäckerei Sutter in Töss``, ``Spedition Kaltenbach (Tiengen)``);
* a **four-digit postcode and its town** closing a part of a line (``(Marktstraße 41, 6845 Hohenems)``,
  ``Rosengarten, 8472 Seuzach |``), a town in brackets after a titled or role name and what the person is
  (``Dr. med. K. Hafner (Psychiater, Winterthur)``, ``Hebamme R. Amrein (freipraktizierend, Wil)``) and a
  town with its quarter (``in Dornbirn-Haselstauden``).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule
from phiscrub.detect.rules.intl_common import lower_case_note
from phiscrub.detect.rules.intl_german_common import CAPW, NAME, name_word, stop_word, stopwords
from phiscrub.detect.rules.intl_name_scan import name_lexicon

__all__ = ["german_site_rules", "listed_town"]

_RX = pattern_data("intl_german_sites", {"CAPW": CAPW, "NAME": NAME})


@cache
def _towns() -> frozenset[str]:
    path = resources.files("phiscrub.resources").joinpath("lexicons", "de", "cities.txt")
    return frozenset(w.strip().lower() for w in path.read_text(encoding="utf-8").splitlines() if w.strip())


def listed_town(name: str) -> bool:
    """A town of the bundled German list ("Winterthur", "Dornbirn")."""
    return name.lower() in _towns()


#: Words after a site's kind that name no site ("Klinik Innere", "Pflegeheim Aufnahme", "Schule Montag").
_GENERIC_NAME = frozenset(
    (
        "innere", "innen", "ambulant", "stationär", "neu", "alt", "privat", "termin", "antrag", "beginn", "ende",
        "aufenthalt", "aufnahme", "entlassung", "haus", "station", "bereich", "leitung", "team", "arzt", "bericht",
        "befund", "platz", "plätze", "anschluss", "behandlung", "kur", "sport", "abend", "morgen", "mittag",
        "vormittag", "nachmittag", "wochenende", "tag", "tage", "anfang", "rand", "telefon", "empfang", "eingang",
        "ausgang", "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag", "januar",
        "februar", "märz", "april", "mai", "juni", "juli", "august", "september", "oktober", "november",
        "dezember", "jänner", "pat", "patient", "patientin", "kinder", "erwachsene", "jugendliche", "eltern",
        "besuch", "kontakt", "gespräch", "zimmer", "bett", "jahr", "jahre", "monate", "wochen", "klasse",
        "unterricht", "pause", "schluss", "alltag", "essen", "arbeit", "zuhause", "wohnung", "mama", "papa",
    )
)  # fmt: skip
#: Club acronyms: their name must read as a place ("LAV Wehratal", "FC Thun"), "SV"/"TV" are also words.
_CLUB_ACRONYMS = frozenset(
    ("FC", "SC", "SV", "TSV", "TV", "VfB", "VfL", "LAV", "LG", "TuS", "SpVgg", "ESV", "FV", "EHC", "HC", "TSG", "DJK")
)  # fmt: skip
#: Endings of place names (German, Swiss, Austrian): a town or valley word has one.
_PLACE_ENDS = (
    "ach", "bach", "ingen", "heim", "hausen", "dorf", "burg", "berg", "furt", "hofen", "kirch", "kirchen",
    "weiler", "ried", "brück", "bruck", "münster", "stedt", "stadt", "zell", "hagen", "wangen", "beuren",
    "stetten", "wil", "wilen", "ikon", "kon", "au", "tal", "stein", "ing", "ems", "thur", "egg", "see", "feld",
    "felden", "lingen", "nau", "itz", "ow", "markt", "grund", "zach",
)  # fmt: skip
_MONTHS = frozenset(("januar", "jänner", "februar", "feber", "märz", "april", "mai", "juni", "juli", "august",
                     "september", "oktober", "november", "dezember"))  # fmt: skip
_STREET_BEFORE_RE = re.compile(
    r"(?:straße|strasse|str\.|weg|gasse|platz|allee|ring|damm|ufer|steig|pfad|graben|markt|dorf|hof)[ ]"
    r"\d{1,4}[a-z]?(?:[ ]?[-/][ ]?\d{1,4}[a-z]?)?,[ ]\Z",
    re.IGNORECASE,
)


def _site_name_ok(m: re.Match[str]) -> bool:
    words = m.group("n").replace("St.", "Sankt").split(" ")
    return not any(w.lower() in _GENERIC_NAME or (stop_word(w) and w != "Sankt") for w in words)


def _org_ok(m: re.Match[str]) -> bool:
    if not _site_name_ok(m):
        return False
    name = m.group("n").split(" ")[-1]
    if m.group("f") in _CLUB_ACRONYMS:
        return listed_town(name) or name.lower().endswith(_PLACE_ENDS)
    return name_word(name)


def _school_name_ok(m: re.Match[str]) -> bool:
    parts = m.group("n").split("-")
    town = m.group("t")
    return not any(stop_word(p) for p in parts) and (town is None or not stop_word(town))


def _town_ok(m: re.Match[str]) -> bool:
    t = m.group("t") or m.group("b")
    return (
        not stop_word(t)
        and not t.endswith(("verband", "verein", "wache", "einsatz", "kliniken", "team"))
        and t.lower() not in name_lexicon("de").first
        and t.lower() not in _MONTHS
    )


def _lower_site_ok(m: re.Match[str]) -> bool:
    if not lower_case_note(m.string):
        return False
    n = m.group("n")
    return (
        not stop_word(n) and n not in _GENERIC_NAME and (m.group("t") is None or not stop_word(m.group("t")))
    )


def _zip_town_ok(m: re.Match[str]) -> bool:
    t = m.group("t")
    words = re.split(r"[ \-]", t)
    if any(w.lower() in stopwords() or w.lower() in _MONTHS for w in words) or stop_word(words[-1]):
        return False
    text, start = m.string, m.start("z")
    street = _STREET_BEFORE_RE.search(text[max(0, start - 60) : start]) is not None
    placed = listed_town(t) or listed_town(words[0]) or words[-1].lower().endswith(_PLACE_ENDS)
    year = 1900 <= int(m.group("z")) <= 2099
    return (street or placed) and (not year or street or listed_town(t))


def _bracket_role_town_ok(m: re.Match[str]) -> bool:
    t = m.group("t").lower()
    lex = name_lexicon("de")
    described = _RX["ROLE_DESCRIPTION_RE"].search(m.group("d")) is not None
    return described and t not in lex.first and t not in lex.last and t not in stopwords()


def _quarter_town_ok(m: re.Match[str]) -> bool:
    return listed_town(m.group("r"))


def _hyphen_town_ok(m: re.Match[str]) -> bool:
    parts = m.group("t").split("-")
    return any(listed_town(p) for p in parts) and not any(stop_word(p) for p in parts)


def german_site_rules(lang: str) -> tuple[PatternRule, ...]:
    """The named-site, school and business, postcode and bracket-town rules of German (none for others)."""
    if lang != "de":
        return ()
    return (
        PatternRule("HOSPITAL",     _RX["NAMED_SITE_RE"],        group=0,   validator=_site_name_ok,         score=0.7, name="named_site_de"),
        PatternRule("ORGANIZATION", _RX["ORG_RE"],               group=0,   validator=_org_ok,               score=0.7, name="named_org_de"),
        PatternRule("ORGANIZATION", _RX["SCHOOL_NAME_RE"],       group=0,   validator=_school_name_ok,       score=0.7, name="school_name_de"),
        PatternRule("CITY",         _RX["SITE_TOWN_RE"],         group=("t", "b"), validator=_town_ok,       score=0.7, name="site_town_de"),
        PatternRule("HOSPITAL",     _RX["LOWER_SITE_RE"],        group="s", validator=_lower_site_ok,        score=0.7, name="lower_site_de"),
        PatternRule("CITY",         _RX["LOWER_SITE_RE"],        group="t", validator=_lower_site_ok,        score=0.7, name="lower_site_town_de"),
        PatternRule("ZIP",          _RX["ZIP_TOWN_RE"],          group="z", validator=_zip_town_ok,          score=0.7, name="zip4_town_de"),
        PatternRule("CITY",         _RX["ZIP_TOWN_RE"],          group="t", validator=_zip_town_ok,          score=0.7, name="zip4_town_town_de"),
        PatternRule("CITY",         _RX["BRACKET_ROLE_TOWN_RE"], group="t", validator=_bracket_role_town_ok, score=0.7, name="bracket_role_town_de"),
        PatternRule("CITY",         _RX["QUARTER_TOWN_RE"],      group="t", validator=_quarter_town_ok,      score=0.7, name="quarter_town_de"),
        PatternRule("CITY",         _RX["HYPHEN_TOWN_RE"],       group="t", validator=_hyphen_town_ok,       score=0.7, name="hyphen_town_de"),
    )  # fmt: skip
