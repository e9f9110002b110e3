"""German forms of practice cards, nursing, rescue, lab and assessment notes (sixth-round German set),
wired through :mod:`.intl_german` (German only):

* **people**: the hand sign closing a card entry after wide spaces (``... Rückruf erbeten.   GN``,
  ``-mh``, ``Jana``), two hyphenated initials and a surname (``Prof. Dr. H.-P. Albers``), an initial and
  a surname after a rescue or duty role (``NotSan: B. Uhl``, ``Dienstarzt: T. Lenz``) or on a report's
  dateline (``Ulm, 03.02.2024     K. Sauter``), a person named by title and initial only (``Herr B.
  wurde``), a given name and initial opening an entry (``Tobias K., Knie``), a patient in capitals after
  a field or card header (``Patient: EL AMRANI, SAMIR``), surname and given name after an entry's date,
  the given name of a ``Name, Vorname:`` field and a login after a release field (``freigegeben:
  mta.krause``);
* **sites**: a saint's hospital written with hyphens (``St.-Vinzenz-Hospital Bochum``), a home or
  practice named with ``am``/``im`` (``Seniorenzentrum Am Lindenhof``, ``Radiologie am Stadtpark``), a
  home named ``Haus`` and a name, a named living area (``Wohnbereich Lerche``), hospital acronyms heading
  a department or after a referral (``KBR – Klinik für``, ``Einweisung KBR``);
* **organisations and places**: sickness funds by acronym (``KK: HKK``, ``AOK BW``), a court and its town
  (``Amtsgericht Gera``), a state's medical service, a branch's town (``Standort Pankow``), a town closing
  a header of middle dots, a Polish address, and a booking code (``4HX2-8KLP-3QZ9``).
"""

from __future__ import annotations

import re

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule
from phiscrub.detect.rules.intl_common import lower_case_note
from phiscrub.detect.rules.intl_german_common import (
    CAPW,
    CLINICAL_ABBR,
    NAME,
    name_word,
    stop_word,
    stopwords,
)
from phiscrub.detect.rules.intl_german_places import _KNOWN_ABBR as KNOWN_ABBR
from phiscrub.detect.rules.intl_german_sites import _PLACE_ENDS, listed_town
from phiscrub.detect.rules.intl_name_scan import name_lexicon

__all__ = ["german_card_name_rules", "german_card_place_rules"]

_RX = pattern_data("intl_german_cards", {"CAPW": CAPW, "NAME": NAME})

#: Short words that end a line of a note and sign nothing: sides, units, results, common abbreviations.
_NOT_SIGNS = frozenset(
    (
        "li", "re", "bds", "ok", "mg", "ml", "kg", "cm", "mm", "min", "std", "uhr", "neg", "pos", "ob", "oB",
        "ja", "nein", "gut", "und", "bzw", "usw", "etc", "ca", "tgl", "med", "dr", "fr", "hr", "sr", "pat",
        "ggf", "evtl", "mmol", "mol", "mmhg", "bpm", "nrs", "vas", "ggt", "crp", "pct", "wbc", "hb", "inr",
        "tsh", "ldl", "hdl", "egfr", "die", "der", "das", "ein", "eine", "mit", "bei", "von", "vom", "zum",
        "zur", "aus", "auf", "an", "am", "im", "in", "ab", "bis", "nur", "noch", "neu", "alt", "wo", "tag",
        "tage", "mal", "wdh", "abs", "rel", "mol", "kcal", "iu", "ie", "µg", "mcg", "nmol", "pmol", "sec",
    )
)  # fmt: skip


_NOT_CAPS_SIGNS = frozenset(
    ("OK", "LI", "RE", "BDS", "NEG", "POS", "OB", "JA", "NRS", "VAS", "CRP", "INR", "HB")
)


def _sign_ok(m: re.Match[str]) -> bool:
    n = m.group("n")
    if len(n) >= 4:
        if n.lower() in name_lexicon("de").first:
            return n.lower() not in stopwords()
        # an unlisted given name signs too where the card has other hand signs ("Jule" among "TS")
        others = sum(
            1 for o in _RX["SIGN_END_RE"].finditer(m.string) if len(o.group("n")) <= 3 and _sign_ok(o)
        )
        return others >= 2 and not stop_word(n)
    if n.isupper():  # "SR", "GN": capitals sign; "OK", "LI" or a clinical abbreviation does not
        return n not in CLINICAL_ABBR and n not in _NOT_CAPS_SIGNS
    return n.lower() not in _NOT_SIGNS and n.lower() not in stopwords()


def _given_surname_ok(m: re.Match[str]) -> bool:
    given, surname = m.group("n").split(" ", 1)
    return given.lower() in name_lexicon("de").first and name_word(surname)


def _caps_kin_ok(m: re.Match[str]) -> bool:
    return not stop_word(m.group("n").title())


def _town_quarter_ok(m: re.Match[str]) -> bool:
    quarter = m.group("q").split(" ")[-1]
    placed = m.group("q").startswith("Bad ") or quarter.lower().endswith(_PLACE_ENDS)
    return placed and listed_town(m.group("c")) and not stop_word(quarter) and quarter not in _NOT_QUARTERS


#: Second parts of a hyphenated name after a town that make no quarter: states, compass words.
_NOT_QUARTERS = frozenset(
    ("Württemberg", "Pfalz", "Holstein", "Anhalt", "Vorpommern", "Brandenburg", "Lippe", "Nord", "Süd", "Ost", "West",
     "Mitte", "Land", "Stadt", "Marathon", "Zentrum")
)  # fmt: skip


def _confession_ok(m: re.Match[str]) -> bool:
    return not stop_word(m.group("n").split(" ")[-1]) and m.group("n").lower() not in _GENERIC_SITE_NAME


def _care_service_ok(m: re.Match[str]) -> bool:
    n = m.group("n")
    return not stop_word(n) and n.lower() not in _GENERIC_SITE_NAME


def _id_label(m: re.Match[str]) -> str:
    return "HEALTHPLAN" if m.group("k") == "Karten" else "IDNUM"


def _surname_ok(m: re.Match[str]) -> bool:
    return name_word(re.split(r"[ .]", m.group("n"))[-1])


def _hyphen_label(m: re.Match[str]) -> str:
    before = _RX["DOCTOR_BEFORE_RE"].search(m.string, max(0, m.start() - 20), m.start())
    return "DOCTOR" if before is not None else "PATIENT"


def _given_listed(m: re.Match[str]) -> bool:
    return m.group("n").split(" ")[0].lower() in name_lexicon("de").first


def _caps_patient_ok(m: re.Match[str]) -> bool:
    if any(w.lower() in stopwords() for w in re.split(r"[ ,\-]+", m.group("p")) if w):
        return False
    born = _RX["BIRTH_AFTER_RE"].match(m.string, m.end()) is not None
    return born or m.group("g").lower() in name_lexicon("de").first


def _date_name_ok(m: re.Match[str]) -> bool:
    return m.group("g").lower() in name_lexicon("de").first and not stop_word(m.group("p").split(",")[0])


def _given_field_ok(m: re.Match[str]) -> bool:
    return m.group("g").lower() not in stopwords()


_GENERIC_SITE_NAME = frozenset(
    (
        "abend", "morgen", "mittag", "vormittag", "nachmittag", "wochenende", "telefon", "haus", "eingang",
        "ausgang", "empfang", "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag",
        "anfang", "ende", "rand", "tag", "ort", "platz", "bett", "zimmer", "rollstuhl", "rollator", "bereich",
        "verlauf", "moment", "ganzen", "allgemeinen", "rahmen", "wesentlichen", "haushalt", "alltag", "notfall",
        "dienst", "hause", "jahr", "quartal", "sommer", "winter", "herbst", "frühjahr", "kopf", "bauch",
    )
)  # fmt: skip


def _site_name_ok(m: re.Match[str]) -> bool:
    words = m.group("n").split(" ")
    return not any(w.lower() in _GENERIC_SITE_NAME or (w != "See" and stop_word(w)) for w in words)


def _lower_body(text: str) -> bool:
    """A note written in lower case under a typed header line ("Karteikarte MVZ Nord – Dr. X")."""
    return lower_case_note(text) or lower_case_note(text.lstrip().partition("\n")[2])


def _lower_site_ok(m: re.Match[str]) -> bool:
    return _lower_body(m.string) and _site_name_ok(m)


def _saint_ok(m: re.Match[str]) -> bool:
    n = m.group("n")
    return not stop_word(n) and n.lower() not in _GENERIC_SITE_NAME


def _lower_church_ok(m: re.Match[str]) -> bool:
    return _lower_body(m.string) and not stop_word(m.group("n"))


#: Kinds of ward or care that follow a transfer and name no ward.
_WARD_KINDS = frozenset(
    ("intensiv", "normal", "privat", "überwachung", "wach", "palliativ", "geriatrie", "kardiologie", "peripherie",
     "allgemein", "chirurgie", "innere", "neurologie", "psychiatrie", "pädiatrie", "akut", "frührehabilitation")
)  # fmt: skip


def _transfer_ward_ok(m: re.Match[str]) -> bool:
    w = m.group("w")
    return (
        len(w) > 3
        and not stop_word(w)
        and w.lower() not in _WARD_KINDS
        and w.lower() not in _GENERIC_SITE_NAME
    )


def _house_ok(m: re.Match[str]) -> bool:
    n = m.group("n")
    return len(n) > 3 and n.lower() not in _GENERIC_SITE_NAME and not stop_word(n)


def _house_town_ok(m: re.Match[str]) -> bool:
    return _house_ok(m) and m.group("t") is not None and not stop_word(m.group("t"))


def _home_unit_ok(m: re.Match[str]) -> bool:
    w = m.group("w")
    return len(w) > 3 and not stop_word(w) and w.lower() not in _GENERIC_SITE_NAME


#: Acronyms that are no hospital: the clinical ones and the departments, funds and services of the notes.
_NOT_HOSPITALS = frozenset(
    (
        *CLINICAL_ABBR, "MRT", "PET", "EKG", "CRP", "LDH", "BGA", "AOK", "DAK", "TK", "HKK", "BKK", "IKK", "KKH",
        "MDK", "DRV", "SAPV", "AHB", "NFZ", "EHIC", "RKI", "DRK", "ASB", "BRK", "THW", "ITW", "MVZ", "BG", "GKV",
        "PKV", "KIS", "ZNA", "INT", "IMC", "ICU", "KJP", "PIA", "HNO", "MKG", "OP", "AU", "eAU", "DMP", "UKE", "AMB",
    )
)  # fmt: skip


def _acronym_ok(m: re.Match[str]) -> bool:
    return m.group("a") not in _NOT_HOSPITALS and m.group("a") not in KNOWN_ABBR


def _town_ok(m: re.Match[str]) -> bool:
    t = m.group("t")
    if t is None:
        return False
    return not stop_word(t.split(" ")[-1]) and t.lower() not in name_lexicon("de").first


def _header_town_ok(m: re.Match[str]) -> bool:
    parts = re.split(r"[ \-]", m.group("t"))
    if parts[0] == "Bad" and len(parts) == 2:
        return not stop_word(parts[1])  # "· Bad Tölz": a spa town
    return any(listed_town(p) for p in parts if p not in ("Bad", "St.", "Sankt")) and not any(
        stop_word(p) for p in parts
    )


_TRANSLITERATED = (("AE", "Ä"), ("OE", "Ö"), ("UE", "Ü"), ("SS", "ß"))


def _bracket_town_ok(m: re.Match[str]) -> bool:
    """A listed town or a word with a town's ending ("FUERTH" is "Fürth" typed without umlauts)."""
    t = m.group("t")
    forms = {t.title()}
    if t.isupper():
        for plain, umlaut in _TRANSLITERATED:
            forms |= {f.upper().replace(plain, umlaut).title() for f in forms}
    last = [f.split(" ")[-1] for f in forms]
    if any(stop_word(w) or w.lower() in name_lexicon("de").last for w in last):
        return False
    return any(listed_town(f) or f.lower().endswith(_PLACE_ENDS) for f in forms)


def german_card_name_rules(lang: str) -> tuple[PatternRule, ...]:
    """The name rules of the sixth German set (none for other languages)."""
    if lang != "de":
        return ()
    return (
        PatternRule("DOCTOR",   _RX["SIGN_END_RE"],        group="n", validator=_sign_ok,          score=0.7,  name="card_hand_sign_de"),
        PatternRule("DOCTOR",   _RX["HYPHEN_INITIALS_RE"], group="n", validator=_surname_ok, labeler=_hyphen_label, extra_labels=("PATIENT",), score=0.75, name="hyphen_initials_de"),
        PatternRule("DOCTOR",   _RX["RESCUE_ROLE_RE"],     group="n", validator=_surname_ok,       score=0.75, name="rescue_role_name_de"),
        PatternRule("DOCTOR",   _RX["DATELINE_SIGN_RE"],   group="n", validator=_surname_ok,       score=0.7,  name="dateline_signature_de"),
        PatternRule("PATIENT",  _RX["TITLE_INITIAL_RE"],   group="n",                              score=0.7,  name="title_initial_de"),
        PatternRule("PATIENT",  _RX["GIVEN_INITIAL_RE"],   group="n", validator=_given_listed,     score=0.7,  name="entry_given_initial_de"),
        PatternRule("PATIENT",  _RX["CAPS_PATIENT_RE"],    group="p", validator=_caps_patient_ok,  score=0.75, name="caps_patient_comma_de"),
        PatternRule("PATIENT",  _RX["DATE_NAME_RE"],       group="p", validator=_date_name_ok,     score=0.7,  name="entry_date_name_de"),
        PatternRule("PATIENT",  _RX["NAME_FIELD_RE"],      group="p", validator=_given_field_ok,   score=0.75, name="name_field_given_de"),
        PatternRule("USERNAME", _RX["LOGIN_FIELD_RE"],     group="n",                              score=0.75, name="release_login_de"),
        PatternRule("DOCTOR",   _RX["CALLBACK_SIGN_RE"],   group="n", validator=_sign_ok,          score=0.7,  name="callback_sign_de"),
        PatternRule("DOCTOR",   _RX["NAME_ROLE_LINE_RE"],  group="n", validator=_surname_ok,       score=0.7,  name="name_role_line_de"),
        PatternRule("DOCTOR",   _RX["NURSE_GIVEN_RE"],     group="n", validator=_given_surname_ok, score=0.75, name="nurse_given_de"),
        PatternRule("DOCTOR",   _RX["DOT_NAME_RE"],        group="n", validator=_given_surname_ok, score=0.7,  name="dot_name_de"),
        PatternRule("RELATIVE", _RX["CAPS_KIN_VERB_RE"],   group="n", validator=_caps_kin_ok,      score=0.7,  name="caps_kin_verb_de"),
        PatternRule("PATIENT",  _RX["TIME_GIVEN_VERB_RE"], group="n", validator=_given_listed,     score=0.7,  name="time_given_verb_de"),
        PatternRule("DOCTOR",   _RX["DICTATION_SIGN_RE"],  group=("a", "b"),                       score=0.7,  name="dictation_sign_de"),
    )  # fmt: skip


def german_card_place_rules(lang: str) -> tuple[PatternRule, ...]:
    """The site, organisation, place and code rules of the sixth German set (none for other languages)."""
    if lang != "de":
        return ()
    return (
        PatternRule("HOSPITAL",     _RX["SAINT_HOSPITAL_RE"],  group="h", score=0.8,                              name="saint_hospital_de"),
        PatternRule("CITY",         _RX["SAINT_HOSPITAL_RE"],  group="t", validator=_town_ok,          score=0.7,  name="saint_hospital_town_de"),
        PatternRule("HOSPITAL",     _RX["SITE_AM_RE"],         group=0,   validator=_site_name_ok,     score=0.7,  name="site_am_de"),
        PatternRule("HOSPITAL",     _RX["SAINT_NAME_RE"],      group=0,   validator=_saint_ok,         score=0.7,  name="saint_name_de"),
        PatternRule("HOSPITAL",     _RX["LOWER_CHURCH_HOSPITAL_RE"], group=0, validator=_lower_church_ok, score=0.7, name="lower_church_hospital_de"),
        PatternRule("HOSPITAL",     _RX["LOWER_SITE_AM_RE"],   group=0,   validator=_lower_site_ok,    score=0.7,  name="lower_site_am_de"),
        PatternRule("HOSPITAL",     _RX["HOUSE_NAME_RE"],      group="h", validator=_house_ok,         score=0.7,  name="house_name_de"),
        PatternRule("CITY",         _RX["HOUSE_NAME_RE"],      group="t", validator=_house_town_ok,    score=0.7,  name="house_name_town_de"),
        PatternRule("DEPARTMENT",   _RX["TRANSFER_WARD_RE"],   group="w", validator=_transfer_ward_ok, score=0.7,  name="transfer_ward_de"),
        PatternRule("DEPARTMENT",   _RX["HOME_UNIT_RE"],       group=0,   validator=_home_unit_ok,     score=0.7,  name="home_unit_de"),
        PatternRule("HOSPITAL",     _RX["ACRONYM_HEAD_RE"],    group="a", validator=_acronym_ok,       score=0.7,  name="acronym_head_de"),
        PatternRule("HOSPITAL",     _RX["ACRONYM_AFTER_RE"],   group="a", validator=_acronym_ok,       score=0.7,  name="acronym_after_de"),
        PatternRule("ORGANIZATION", _RX["PAYER_RE"],           group=("a", "b", "c"), score=0.75,                  name="payer_acronym_de"),
        PatternRule("ORGANIZATION", _RX["COURT_RE"],           group=0,   validator=_town_ok,          score=0.75, name="court_de"),
        PatternRule("ORGANIZATION", _RX["MEDICAL_SERVICE_RE"], group=0,   score=0.75,                              name="medical_service_de"),
        PatternRule("CITY",         _RX["BRANCH_TOWN_RE"],     group="t", validator=_town_ok,          score=0.7,  name="branch_town_de"),
        PatternRule("CITY",         _RX["HEADER_TOWN_RE"],     group="t", validator=_header_town_ok,   score=0.7,  name="header_town_de"),
        PatternRule("STREET",       _RX["PL_ADDRESS_RE"],      group="s", score=0.75,                              name="pl_street_de"),
        PatternRule("ZIP",          _RX["PL_ADDRESS_RE"],      group="z", score=0.75,                              name="pl_zip_de"),
        PatternRule("CITY",         _RX["PL_ADDRESS_RE"],      group="t", score=0.75,                              name="pl_town_de"),
        PatternRule("IDNUM",        _RX["CODE_ID_RE"],         group="c", score=0.7,                               name="booking_code_de"),
        PatternRule("IDNUM",        _RX["ID_FIELD_RE"],        group="n", labeler=_id_label, extra_labels=("HEALTHPLAN",), score=0.75, name="id_field_de"),
        PatternRule("DATE",         _RX["MONTH_ABBR_RE"],      group=0,   score=0.7,                               name="month_abbreviation_de"),
        PatternRule("DATE",         _RX["BIRTH_YEAR_RE"],      group="y", score=0.75,                              name="birth_year_de"),
        PatternRule("DATE",         _RX["QUARTER_RE"],         group="q", score=0.7,                               name="billing_quarter_de"),
        PatternRule("DATE",         _RX["HOLIDAY_RE"],         group="h", score=0.7,                               name="holiday_de"),
        PatternRule("DATE",         _RX["DAY_ALONE_RE"],       group="d", score=0.7,                               name="day_alone_de"),
        PatternRule("DATE",         _RX["WEEKDAY_DATE_RE"],    group=0,   score=0.75,                              name="weekday_full_date_de"),
        PatternRule("AGE",          _RX["HEADER_AGE_RE"],      group="a", score=0.8,                               name="header_age_de"),
        PatternRule("HOSPITAL",     _RX["CONFESSION_SITE_RE"], group=0,   validator=_confession_ok,    score=0.7,  name="confession_site_de"),
        PatternRule("ORGANIZATION", _RX["REFUGEE_CENTRE_RE"],  group=0,   score=0.7,                               name="refugee_centre_de"),
        PatternRule("ORGANIZATION", _RX["CARE_SERVICE_RE"],    group=0,   validator=_care_service_ok,  score=0.7,  name="care_service_de"),
        PatternRule("ORGANIZATION", _RX["CLUB_YEAR_RE"],       group=0,   score=0.7,                               name="club_year_de"),
        PatternRule("HOSPITAL",     _RX["PRACTICE_PLACE_RE"],  group=0,   validator=_site_name_ok,     score=0.7,  name="practice_place_de"),
        PatternRule("CITY",         _RX["TOWN_QUARTER_RE"],    group=("c", "q"), validator=_town_quarter_ok,  score=0.7,  name="town_quarter_de"),
        PatternRule("CITY",         _RX["BRACKET_DOCTOR_TOWN_RE"], group="t", validator=_bracket_town_ok, score=0.7, name="bracket_doctor_town_de"),
        PatternRule("CITY",         _RX["TOWN_COUNTRY_RE"],    group="t", validator=_town_ok,          score=0.7,  name="town_country_de"),
        PatternRule("LOCATION",     _RX["FOREST_RE"],          group="t", score=0.7,                               name="forest_de"),
        PatternRule("ORGANIZATION", _RX["POLISH_FUND_RE"],     group=0,   score=0.75,                              name="polish_fund_de"),
    )  # fmt: skip
