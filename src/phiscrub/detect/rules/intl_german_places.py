"""German places of letters, lab printouts and care notes (second fresh German set), wired through
:func:`.intl_german.german_place_rules` (German only):

* an **address** whose street has any shape, before a postcode and town (``Krankenhausweg 3, 6335
  Thiersee``, ``Dorf 14`` / ``6341 Ebbs``, ``Innleite 5, 83071 Stephanskirchen``): the street, the town and
  a four-digit (Austrian, Swiss) postcode, which the shared rule takes only before a listed town; a town
  after a postcode with its country letter (``A-6335 Thiersee``);
* the town of a letter's **dateline** on its own line (``Uznach, 12. Februar 2024``, ``Thiersee, am
  07.02.2024``) and a town in brackets after a person's name (``Dr. Obermayr (Stephanskirchen)``);
* a clinic, practice, institute or home **named** by a place or name word (``Klinik am Rabenkopf``,
  ``Chirurgische Klinik Seefeld``, ``Notfallpraxis Wasserburg``, ``LKH Thierseetal``; after ``Reha`` or
  ``Kurzzeitpflege`` only the name: ``Reha Sonnleiten``); a care service or supplier (``Sanitätshaus
  Reiser``, ``Caritas-Sozialstation Prien``, ``Sozialsprengel Kufstein und Umgebung``);
* a hospital **acronym** after a unit or stay word (``Herzinsuffizienzambulanz LKT``, ``Sozialdienst KSK``,
  ``Aufenthalt KIM:``) and, once the note has it there, after a preposition too (``im KIM``);
* a town after a street with its number closing a bracket (``(Lindenweg 4a, Kolbermoor)``), after a
  company's legal form (``X GmbH, Raubling``) or a titled person (``Fr. X, Rosenheim-Westerndorf, Tel.``,
  ``Dr. med. X, Bad Aibling``); an Austrian state closing an address (``6341 Ebbs, Tirol``);
* a town named with its lake or river (``in Prien am Chiemsee``), a hospital named in capitals in a header
  (``LKH THIERSEETAL``), a capitalised surname before a given name in a patient field (``Pat.: BRANDSTÄTTER
  ALOIS``);
* a telephone extension (``Durchwahl -2261``; a pager number reaches a duty role and stays), a care
  service named in brackets (``Pflegedienst (Pflege daheim Inntal)``), a named ski area or park, and a
  patient's initials (``beschriftet K.Z.``, ``bei Pat. A.B.``; not ``O.B.``).
"""

from __future__ import annotations

import re

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule
from phiscrub.detect.rules.intl_german_common import (
    CAPW,
    CLINICAL_ABBR,
    NAME,
    name_word,
    stop_word,
    stopwords,
    town_after_name_ok,
    town_word_ok,
)
from phiscrub.detect.rules.intl_name_scan import name_lexicon

__all__ = ["german_extra_place_rules"]

#: A town word of an address or dateline: "Thiersee", "Bad Aibling", "Prien am Chiemsee", "St. Johann".
_TOWN = rf"(?:(?:Bad|St\.|Sankt)[ ])?{NAME}(?:[ ](?:am|an[ ]der|im|ob[ ]der|bei)[ ]{CAPW})?"

_RX = pattern_data("intl_german_places", globals())

#: A street (any capitalised words, with its number) before a postcode and town, on one line after a comma
#: or on the next line: "Krankenhausweg 3, 6335 Thiersee", "Dorf 14" / "6341 Ebbs", "Innleite 5, 83071 X".
_ADDRESS_RE = re.compile(
    r"(?:(?<=\n)|\A|(?<=,[ ])|(?<=:[ ])|(?<=\|[ ]))[ \t]*"
    rf"(?P<s>(?P<sw>{CAPW}(?:-{CAPW})*)(?:[ ](?:{CAPW}|der|des|am|an[ ]der|im|zum|zur)){{0,2}}[ ]\d{{1,4}}[a-z]?"
    r"(?:[ ]?[-/][ ]?\d{1,4}[a-z]?)?)"
    r"(?:,[ ]|[ \t]*\n[ \t]*)(?P<z>(?:(?:A|CH|D|FL)-)?\d{4,5})[ ](?P<t>"
    + _TOWN
    + r")(?=[ \t]*(?:[,|\n]|\Z|[ ]{2}|[ ][-–][ ]))"
)


def _address_ok(m: re.Match[str]) -> bool:
    # The address shape is the evidence: only a stop word is no town ("Schänis" ends like "Ergebnis").
    return m.group("t").split(" ")[-1].lower() not in stopwords() and m.group("sw").lower() not in stopwords()


def _address_zip4_ok(m: re.Match[str]) -> bool:
    return _address_ok(m) and _RX["ZIP4_RE"].search(m.group("z")) is not None


_WEEKDAYS = frozenset(
    ("montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonnabend", "sonntag", "heute", "datum")
)  # fmt: skip


def _dateline_ok(m: re.Match[str]) -> bool:
    t = m.group("t")
    return (
        t.lower() not in _WEEKDAYS
        and not stop_word(t.split(" ")[-1])
        and t.lower() not in name_lexicon("de").first
    )


#: A clinic, practice, institute or home named by a place or name word, the name closing its part of the
#: sentence: "Klinik am Rabenkopf)", "Chirurgische Klinik Seefeld)", "Uniklinik Innsbruck", "Reha-Klinik
#: Sonnleiten,", "Notfallpraxis Wasserburg,", "Röntgeninstitut Obersee", "LKH Thierseetal", "Reha X".
_FACILITY_NAME_AFTER = (
    rf"[ ](?P<n>(?:(?:[Aa]m|[Aa]n[ ]der|[Ii]m|St\.)[ ])?{NAME})"
    r"(?=[ \t]*(?:[,;:)\n]|\.(?:\s|\Z)|\Z|[ ][-–][ ]|[ ](?:über|in|am|bei|mit|zur|zum|und|ab|seit)[ ]))"
)
_NAMED_FACILITY_RE = re.compile(
    r"(?<![\w\-])(?P<f>(?:[A-ZÄÖÜ][a-zäöüß]+e[ ](?=Klinik[ ]))?(?:[A-ZÄÖÜa-zäöüß][\w]*-)*"
    r"(?:[A-ZÄÖÜ][a-zäöüß]*(?:klinik|klinikum|praxis|institut|spital|krankenhaus|heim)|Klinik|Praxis|LKH|KH))"
    + _FACILITY_NAME_AFTER
)
#: After a kind of care ("z.Zt. Reha Sonnleiten", "Kurzzeitpflege St. Wolfgang ab ...") only the name.
_CARE_PLACE_RE = re.compile(r"(?<![\w\-])(?P<f>Reha|Kurzzeitpflege|Tagespflege)" + _FACILITY_NAME_AFTER)
_GENERIC_FACILITY_NAME = frozenset(
    (
        "innere", "innen", "ambulant", "stationär", "nord", "süd", "ost", "west", "mitte", "neu", "alt", "privat",
        "tagesklinik", "termin", "antrag", "beginn", "ende", "aufenthalt", "aufnahme", "entlassung", "haus",
        "station", "bereich", "leitung", "team", "arzt", "bericht", "befund", "platz", "plätze", "anschluss",
        "behandlung", "kur", "maßnahme", "sport", "abend", "morgen", "mittag", "vormittag", "nachmittag",
        "wochenende", "tag", "tage", "anfang", "rand", "telefon", "empfang", "eingang", "ausgang",
    )
)  # fmt: skip


def _named_facility_ok(m: re.Match[str]) -> bool:
    last = m.group("n").split(" ")[-1]
    if stop_word(last) or last.lower() in _GENERIC_FACILITY_NAME:
        return False
    if m.group("f").lower().endswith("praxis"):
        given = _RX["GIVEN_AFTER_RE"].match(m.string, m.end())
        if last.lower() in name_lexicon("de").last or (given is not None and not stop_word(given.group(1))):
            return False  # "Hausarztpraxis Grabowski, Monika": a doctor's name, for the name rules
    # "Medizinische Klinik Innere": no lead adjective of a department ("Medizinische", "Psychiatrische").
    return not (m.group("f").startswith(("Medizinische ", "Psychiatrische ", "Neurologische ")))


def _service_org_ok(m: re.Match[str]) -> bool:
    return name_word(m.group("n")) and m.group("n").lower() not in _GENERIC_FACILITY_NAME


_KNOWN_ABBR = frozenset(
    (
        *CLINICAL_ABBR, "MRT", "PET", "DSA", "OGD", "ERCP", "EUS", "KHK", "COPD", "HWI", "AVK", "PAVK", "VHF",
        "TEP", "HWS", "BWS", "LWS", "ASS", "NSAR", "PPI", "INR", "BMI", "NRS", "VAS", "MRSA", "VRE", "ESBL",
        "AHB", "DRV", "AOK", "TK", "BKK", "IKK", "DAK", "ÖGK", "SVS", "BVA", "KVNR", "PID", "ICD", "OPS", "DRG",
        "HNO", "ZNS", "PNS", "ADL", "MDK", "MD", "SAPV", "AAPV", "PEG", "ZVD", "PICC", "ARDS", "AKI", "CKD",
        "GFR", "NIV", "CPAP", "BIPAP", "HFNC", "BGA", "FEES", "EEG", "CCT", "CTA", "TTE", "TEE", "OSAS", "DGKP",
        "DGKS", "PDL", "WBL", "SBL", "KTW", "RTW", "NEF", "NAW", "RTH", "ITW", "AZ", "EZ", "KG", "UG", "EG",
        "OG", "DG", "FMH", "HA", "FA", "OA", "OÄ", "CA", "LA", "SM", "ICD", "CRT", "PCI", "CABG", "TAVI",
    )
)  # fmt: skip


def _acronym_ok(m: re.Match[str]) -> bool:
    return m.group("a") not in _KNOWN_ABBR


def _acronym_elsewhere_ok(m: re.Match[str]) -> bool:
    """The acronym also stands after a unit word somewhere in the note ("Neurologie KIM" ... "im KIM")."""
    a = m.group("a")
    if a in _KNOWN_ABBR:
        return False
    return any(u.group("a") == a for u in _RX["ACRONYM_AFTER_UNIT_RE"].finditer(m.string))


def _town_words_ok(m: re.Match[str]) -> bool:
    words = re.split(r"[ \-]", m.group("t"))
    lex = name_lexicon("de")
    return not any(w.lower() in stopwords() for w in words) and m.group("t").lower() not in lex.first


def _service_bracket_ok(m: re.Match[str]) -> bool:
    return not stop_word(m.group("o").split(" ")[-1])


def _area_ok(m: re.Match[str]) -> bool:
    return not stop_word(m.group("n"))


def _initials_ok(m: re.Match[str]) -> bool:
    return m.group("n").replace(" ", "") not in ("O.B.", "V.A.", "Z.N.", "D.H.", "U.A.", "S.O.", "S.U.")


_AT_STATES = (
    "Tirol", "Vorarlberg", "Salzburg", "Kärnten", "Steiermark", "Burgenland", "Niederösterreich",
    "Oberösterreich", "Südtirol",
)  # fmt: skip
#: An Austrian state after the town of an address: "6341 Ebbs, Tirol".
_ADDRESS_STATE_RE = re.compile(
    rf"(?<![\w\-])\d{{4}}[ ]{_TOWN},[ ](?P<s>{'|'.join(_AT_STATES)})(?=[ \t]*(?:\n|\Z|[,;)]))"
)


def _town_am_water_ok(m: re.Match[str]) -> bool:
    return not stop_word(m.group("t").split(" ")[0])


def _caps_hospital_ok(m: re.Match[str]) -> bool:
    n = m.group("n").title()
    return not stop_word(n) and n.lower() not in _GENERIC_FACILITY_NAME


def _caps_patient_ok(m: re.Match[str]) -> bool:
    return m.group("g").lower() in name_lexicon("de").first and m.group("s").lower() not in stopwords()


def german_extra_place_rules(lang: str) -> tuple[PatternRule, ...]:
    """The address, dateline, named-facility and acronym rules of German (none for other languages)."""
    if lang != "de":
        return ()
    return (
        PatternRule("CITY",         _RX["STREET_TOWN_RE"],   group="t", validator=_town_words_ok,       score=0.7,  name="street_town_de"),
        PatternRule("CITY",         _RX["COMPANY_TOWN_RE"],  group="t", validator=_town_words_ok,       score=0.7,  name="company_town_de"),
        PatternRule("CITY",         _RX["PERSON_TOWN_RE"],   group="t", validator=_town_words_ok,       score=0.7,  name="person_town_de"),
        PatternRule("PHONE",        _RX["EXTENSION_RE"],     group="n",                                 score=0.7,  name="extension_de"),
        PatternRule("ORGANIZATION", _RX["SERVICE_BRACKET_RE"], group="o", validator=_service_bracket_ok, score=0.7,  name="service_bracket_de"),
        PatternRule("LOCATION",     _RX["AREA_RE"],          group="n", validator=_area_ok,             score=0.7,  name="named_area_de"),
        PatternRule("PATIENT",      _RX["INITIALS_RE"],      group="n", validator=_initials_ok,         score=0.7,  name="patient_initials_de"),
        PatternRule("CITY",         _RX["TOWN_AM_WATER_RE"], group="t", validator=_town_am_water_ok,    score=0.7,  name="town_am_water_de"),
        PatternRule("HOSPITAL",     _RX["CAPS_HOSPITAL_RE"], group=0,   validator=_caps_hospital_ok,    score=0.7,  name="caps_hospital_de"),
        PatternRule("PATIENT",      _RX["CAPS_PATIENT_RE"],  group=("s", "g"), validator=_caps_patient_ok, score=0.75, name="caps_patient_de"),
        PatternRule("STATE",        _ADDRESS_STATE_RE,       group="s",                                 score=0.7,  name="address_state_de"),
        PatternRule("STREET",       _ADDRESS_RE,             group="s",        validator=_address_ok,         score=0.75, name="address_street_de"),
        PatternRule("ZIP",          _ADDRESS_RE,             group="z",        validator=_address_zip4_ok,    score=0.75, name="address_zip4_de"),
        PatternRule("CITY",         _ADDRESS_RE,             group="t",        validator=_address_ok,         score=0.75, name="address_town_de"),
        PatternRule("CITY",         _RX["COUNTRY_ZIP_TOWN_RE"], group="t",     validator=town_word_ok,       score=0.75, name="country_zip_town_de"),
        PatternRule("CITY",         _RX["DATELINE_RE"],      group="t",        validator=_dateline_ok,        score=0.75, name="dateline_town_de"),
        PatternRule("CITY",         _RX["BRACKET_TOWN_RE"],  group="t",        validator=town_after_name_ok, score=0.7,  name="bracket_town_de"),
        PatternRule("HOSPITAL",     _NAMED_FACILITY_RE, group=0,         validator=_named_facility_ok,  score=0.7,  name="named_facility_de"),
        PatternRule("HOSPITAL",     _CARE_PLACE_RE,          group="n",        validator=_named_facility_ok,  score=0.7,  name="care_place_de"),
        PatternRule("ORGANIZATION", _RX["SERVICE_ORG_RE"],   group=0,          validator=_service_org_ok,     score=0.7,  name="service_org_de"),
        PatternRule("HOSPITAL",     _RX["ACRONYM_AFTER_UNIT_RE"], group="a",   validator=_acronym_ok,         score=0.7,  name="unit_acronym_de"),
        PatternRule("HOSPITAL",     _RX["ACRONYM_PREP_RE"],  group="a",        validator=_acronym_elsewhere_ok, score=0.7, name="acronym_again_de"),
    )  # fmt: skip
