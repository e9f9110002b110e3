"""Rules of the German pack that the shared pack engine has no data slot for (fresh German notes).

The German pack is mostly data (``resources/langpacks/{packs,names,places}.json``, section ``de``)
read by the shared engine (:mod:`.intl`, :mod:`.intl_names`, :mod:`.intl_places`). This module adds
the forms of German ward and nursing notes that need more than a word list, wired in the way
:mod:`.intl_nordic` is (``german_place_rules``/``german_name_rules`` return nothing for other
languages):

* **places**: a hospital building (``Haus C``, ``Zentral-OP Haus A``, ``Angio-Suite Hebelbau UG``), a
  named ward (``Station Rosenthal``; ``Station 4B`` is a number, not a name), the ward of a lower-case
  nursing header (``pflege spätdienst rosenthal zi. 12``), a hospital abbreviation after a unit word
  (``Kreißsaal KTM –``), a town after a rescue service (``RD Waldkirch``), after a doctor's or a
  facility's name and a comma (``Dr. Baumgärtner, Kirchzarten,``, ``Seniorenzentrum Lindenhof,
  Denzlingen.``), an unlisted town whose ending marks it as one after ``in``/``bei``/``aus``/``nach``
  (``Motorradunfall bei Gutach``, ``Sectio in Hochried``), the employer after a former job
  (``ehem. Schlosser bei Hoffmann Fördertechnik``) and a country closing an address block
  (``79540 Lörrach`` / ``Deutschland``);
* **names**: a given name in brackets after a titled name (``Tochter Fr. Maurer (Ingrid)``), a staff
  member named after a care role (``Dr. Ostertag / Hebamme Lene``, ``Sr. Birgit``), the signature of a
  ward note (``Wendt, Stat. 4B`` on the last line), a nickname (``Pat. ("Heiner", möchte so
  angesprochen werden)``) and names in notes written all in lower case (``fr. vogl``, ``tochter
  renate``, ``sr. birgit``).

The forms of the second fresh German set live beside it: :mod:`.intl_german_places` (addresses with a
four-digit postcode or a street of any shape, datelines, named clinics and care services, hospital
acronyms) and :mod:`.intl_german_dates` (bare day-months with their closing period), both carried by
:func:`german_place_rules`; :mod:`.intl_german_common` holds the word tests they share. The forms of
practice cards, nursing, rescue, lab and assessment notes (sixth fresh set) live in
:mod:`.intl_german_cards`, carried by both functions.
"""

from __future__ import annotations

import re

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.intl_common import lower_case_note
from phiscrub.detect.rules.intl_german_cards import german_card_name_rules, german_card_place_rules
from phiscrub.detect.rules.intl_german_common import CAPW as _CAPW  # noqa: F401 (a piece of its patterns file)
from phiscrub.detect.rules.intl_german_common import CLINICAL_ABBR as _CLINICAL_ABBR
from phiscrub.detect.rules.intl_german_common import NAME as _NAME
from phiscrub.detect.rules.intl_german_common import name_word as _name_word
from phiscrub.detect.rules.intl_german_common import stop_word as _stop
from phiscrub.detect.rules.intl_german_common import stopwords as _stopwords
from phiscrub.detect.rules.intl_german_common import town_after_name_ok as _town_after_name_ok
from phiscrub.detect.rules.intl_german_common import town_word_ok as _town_word_ok
from phiscrub.detect.rules.intl_german_dates import german_date_rules
from phiscrub.detect.rules.intl_german_people import german_people_rules
from phiscrub.detect.rules.intl_german_places import german_extra_place_rules
from phiscrub.detect.rules.intl_german_sites import german_site_rules
from phiscrub.detect.rules.intl_name_scan import name_lexicon
from phiscrub.detect.rules.intl_names_data import NAME_WORDS
from phiscrub.detect.rules.intl_places_data import WORDS

_RX = pattern_data("intl_german", globals())


__all__ = ["german_name_rules", "german_place_rules"]

_GENERIC_WARD = frozenset(
    (
        "nord", "süd", "ost", "west", "mitte", "intensiv", "normal", "privat", "wahlleistung", "komfort",
        "palliativ", "allgemein", "innere", "chirurgie", "kinder", "frauen", "männer", "eltern", "mutter",
        "wöchnerinnen", "neugeborene", "säuglinge", "jugend", "aufnahme", "übergabe", "visite", "eins", "zwei",
        "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "links", "rechts", "oben", "unten",
        "alt", "neu",
    )
)  # fmt: skip


def _building_ok(m: re.Match[str]) -> bool:
    return m.group("b") is None or _RX["GENERIC_BUILDING_RE"].match(m.group("b")) is None


def _ward_ok(m: re.Match[str]) -> bool:
    w = m.group("w")
    low = w.lower()
    return (
        len(w) > 3
        and low not in _GENERIC_WARD
        and low not in _stopwords()
        and not _RX["WARD_NOUN_END_RE"].search(low)
    )


def _caps_ward_ok(m: re.Match[str]) -> bool:
    """ "STATION TÖDI" in a note written in capitals; not "STATION NORD" or "STATION INTENSIV"."""
    w = m.group("w").lower()
    return w not in _GENERIC_WARD and w not in _stopwords() and not _RX["WARD_NOUN_END_RE"].search(w)


def _shift_ward_ok(m: re.Match[str]) -> bool:
    n = m.group("n")
    return (
        not _stop(n)
        and n.lower() not in _GENERIC_WARD
        and not re.fullmatch(r"(?i)(?:früh|spät|nacht|tag)dienst", n)
    )


def _unit_abbr_ok(m: re.Match[str]) -> bool:
    return m.group("a") not in _CLINICAL_ABBR


#: A town after a doctor's or a facility's name and a comma, closing its part of the sentence:
#: "Fr. Dr. Baumgärtner, Kirchzarten, wg.", "im Seniorenzentrum Lindenhof, Denzlingen."
_TOWN_AFTER_NAME = (
    r"(?:(?<![\w\-])(?:Dr\.(?:in)?|Prof\.|Dres\.)(?:[ ](?:med\.|Dr\.|dent\.))*[ ](?:[A-ZÄÖÜ]\.[ ])?{name}(?:[ ]{name})?"
    r"|(?<![\w\-])(?:{facility})[ ](?:(?:am|an[ ]der|im|in[ ]der)[ ])?{name}(?:[ ]{name}){{0,2}})"
    r",[ ](?P<t>(?:(?:Bad|St\.|Sankt)[ ])?{name})(?=[ \t]*(?:[,;)\n]|\.(?:\s|\Z)|\Z|[ ][–\-][ ]))"
)


def _toponym_ok(m: re.Match[str]) -> bool:
    t = m.group("t")
    return not _stop(t) and _RX["NOT_TOPONYM_RE"].search(t) is None


_COUNTRIES = (
    "Deutschland", "Österreich", "Schweiz", "Frankreich", "Italien", "Niederlande", "Belgien", "Luxemburg",
    "Liechtenstein", "Polen", "Tschechien", "Dänemark", "Spanien", "Türkei", "Ungarn", "Kroatien", "Slowenien",
)  # fmt: skip
#: A country closing an address block, on its own line under "ZIP Town" or after it and a comma.
_COUNTRY_LINE_RE = re.compile(
    r"(?m)^[ \t]*(?:[A-Z]{1,2}-)?\d{4,5}[ ][^\n,]{2,40}(?:\n[ \t]*|,[ ])"
    rf"(?P<c>{trie_pattern(_COUNTRIES, ignore_case=False)})[ \t]*$"
)


def german_place_rules(lang: str) -> tuple[PatternRule, ...]:
    """The extra LOCATION rules of German (none for other languages)."""
    if lang != "de":
        return ()
    town_after = re.compile(_TOWN_AFTER_NAME.format(name=_NAME, facility=WORDS["de"].facility_re))
    return (
        PatternRule("HOSPITAL",     _RX["BUILDING_RE"],    group=("h", "b"), validator=_building_ok,        score=0.8,  name="building_de"),
        PatternRule("DEPARTMENT",   _RX["WARD_RE"],                          validator=_ward_ok,            score=0.75, name="named_ward_de"),
        PatternRule("DEPARTMENT",   _RX["WARD_FIELD_RE"],  group="w",        validator=_ward_ok,            score=0.75, name="ward_field_de"),
        PatternRule("DEPARTMENT",   _RX["SHIFT_WARD_RE"],  group="w",        validator=_shift_ward_ok,      score=0.7,  name="shift_ward_de"),
        PatternRule("HOSPITAL",     _RX["UNIT_ABBR_RE"],   group="a",        validator=_unit_abbr_ok,       score=0.7,  name="unit_abbreviation_de"),
        PatternRule("CITY",         _RX["RESCUE_TOWN_RE"], group="t",        validator=_town_word_ok,       score=0.75, name="rescue_town_de"),
        PatternRule("CITY",         town_after,            group="t",        validator=_town_after_name_ok, score=0.75, name="town_after_name_de"),
        PatternRule("CITY",         _RX["TOPONYM_RE"],     group="t",        validator=_toponym_ok,         score=0.7,  name="toponym_de"),
        PatternRule("ORGANIZATION", _RX["EMPLOYER_RE"],    group="o",                                       score=0.75, name="former_employer_de"),
        PatternRule("COUNTRY",      _COUNTRY_LINE_RE,      group="c",                                       score=0.8,  name="country_line_de"),
        PatternRule("DEPARTMENT",   _RX["CAPS_WARD_RE"],   group=0,          validator=_caps_ward_ok,       score=0.7,  name="caps_ward_de"),
        *german_extra_place_rules(lang),
        *german_site_rules(lang),
        *german_date_rules(lang),  # the shared date rules have no German slot
        *german_card_place_rules(lang),
    )  # fmt: skip


_KIN_BEFORE_RE = re.compile(
    rf"(?i)(?<![\w\-])(?:{trie_pattern(NAME_WORDS['de'].kin, ignore_case=True)})[ \t]*[,:]?[ \t]*\Z"
)


def _bracket_given_ok(m: re.Match[str]) -> bool:
    return m.group("g").lower() in name_lexicon("de").first


def _bracket_given_label(m: re.Match[str]) -> str:
    kin = _KIN_BEFORE_RE.search(m.string, max(0, m.start() - 30), m.start()) is not None
    return "RELATIVE" if kin else "PATIENT"


_CARE_ROLES = (
    "Hebamme", "Entbindungspfleger", "Pfleger", "Pflegerin", "Krankenpfleger", "Krankenschwester",
    "Pflegefachkraft", "Physiotherapeutin", "Physiotherapeut", "Ergotherapeutin", "Ergotherapeut", "Logopädin",
    "Logopäde", "Sozialarbeiterin", "Sozialarbeiter", "Stationsleitung", "MFA", "PJlerin", "PJler", "Famulantin",
    "Famulant", "Praktikantin", "Praktikant", "Sr.", "Pfl.", "DGKP", "DGKS", "Instrumentierung:", "Springer:",
    "Sozialdienst", "Sozialdienst:", "Case Management", "Entlassmanagement",
)  # fmt: skip
#: A staff member named after a care role, ending the line or a cell: "Dr. Ostertag / Hebamme Lene",
#: "Übergabe an Sr. Birgit"; "Schwester" (also a sister) only opening a line or after a slash.
_CARE_ROLE_RE = re.compile(
    rf"(?:(?<![\w\-.])(?:{trie_pattern(_CARE_ROLES, ignore_case=False)})|(?:^|(?<=/[ ])|(?<=/))Schwester)"
    rf"[ ]\(?(?P<n>(?:[A-ZÄÖÜ]\.[ ]?)?{_NAME})(?=[ \t]*(?:\n|\Z|[,;)/]|[ ]{{2}}|\.(?:\s|\Z)|[ ]\((?!\d{{1,2}}\.)))",
    re.MULTILINE,
)


def _care_role_ok(m: re.Match[str]) -> bool:
    return _name_word(m.group("n").split(" ")[-1].split(".")[-1])


def _last_line_name_ok(m: re.Match[str]) -> bool:
    return m.group("n").lower() in name_lexicon("de").last and m.group("n").lower() not in _stopwords()


def _ward_signature_ok(m: re.Match[str]) -> bool:
    return _name_word(m.group("n").split(" ")[-1].split(".")[-1])


def _nickname_ok(m: re.Match[str]) -> bool:
    return _name_word(m.group("n"))


def _name_nickname_label(m: re.Match[str]) -> str:
    kin = _KIN_BEFORE_RE.search(m.string, max(0, m.start() - 30), m.start()) is not None
    return "RELATIVE" if kin else "PATIENT"


#: Time words after "fr." (Freitag) in a lower-case note: "fr. früh".
_LOWER_TIME_WORDS = frozenset(
    (
        "früh", "spät", "abend", "abends", "nacht", "nachts", "mittag", "mittags", "morgens", "vormittag",
        "vormittags", "nachmittag", "nachmittags",
    )
)  # fmt: skip


def _lower_name_ok(m: re.Match[str]) -> bool:
    n = m.group("n")
    if not lower_case_note(m.string) or not _name_word(n) or n in _LOWER_TIME_WORDS:
        return False
    lex = name_lexicon("de")
    if m.group("t") is not None or m.group("o") is not None:
        # "fr. vogl", "dr. winter", "visite oä huber": after an abbreviated title any word that is not a
        # common one ("dr. med.", "oa visite")
        return n not in _LOWER_TITLE_NOT_NAMES
    if m.group("k") not in ("frau", "herr", "herrn") and _RX["LOWER_VERB_AFTER_RE"].match(m.string, m.end()):
        return True  # "ehefrau liesl ruft an": a kin word, a word and the verb of a call or visit
    return n in lex.first or (m.group("k") in ("frau", "herr", "herrn") and n in lex.last)


#: Words after "dr."/"oä" in lower-case notes that are no name.
_LOWER_TITLE_NOT_NAMES = frozenset(
    ("med", "dent", "phil", "rer", "nat", "visite", "info", "informiert", "ist")
)


def _lower_name_label(m: re.Match[str]) -> str:
    if (
        m.group("t") in ("sr", "dr", "pfl")
        or m.group("o") is not None
        or (m.group("k") == "schwester" and _line_start(m))
    ):
        return "DOCTOR"  # ward staff
    return "RELATIVE" if m.group("k") not in (None, "frau", "herr", "herrn") else "PATIENT"


def _hand_sign_ok(m: re.Match[str]) -> bool:
    return lower_case_note(m.string) and m.group("n") not in _LOWER_TIME_WORDS


def _lower_quoted_nick_ok(m: re.Match[str]) -> bool:
    n = m.group("n")
    # a given name or a Bavarian/Austrian short form ("gustl", "rudi", "resi", "liesl")
    short = n.endswith(("i", "l", "erl")) and n not in (
        "mittl",
        "viel",
        "teil",
        "stuhl",
        "spiel",
        "ziel",
        "heil",
    )
    return lower_case_note(m.string) and (n in name_lexicon("de").first or short)


def _line_start(m: re.Match[str]) -> bool:
    return m.string[: m.start()].rstrip(" \t").endswith("\n") or not m.string[: m.start()].strip()


def german_name_rules(lang: str) -> tuple[PatternRule, ...]:
    """The extra NAME rules of German (none for other languages)."""
    if lang != "de":
        return ()
    return (
        PatternRule("PATIENT", _RX["BRACKET_GIVEN_RE"],  group="g", validator=_bracket_given_ok,  labeler=_bracket_given_label, extra_labels=("RELATIVE",),           score=0.8,  name="bracket_given_de"),
        PatternRule("DOCTOR",  _CARE_ROLE_RE,            group="n", validator=_care_role_ok,                                                                         score=0.75, name="care_role_name_de"),
        PatternRule("DOCTOR",  _RX["WARD_SIGNATURE_RE"], group="n", validator=_ward_signature_ok,                                                                    score=0.75, name="ward_signature_de"),
        PatternRule("PATIENT", _RX["NICKNAME_RE"],       group="n", validator=_nickname_ok,                                                                          score=0.75, name="nickname_de"),
        PatternRule("PATIENT", _RX["NAME_NICKNAME_RE"],  group="n", validator=_nickname_ok,       labeler=_name_nickname_label, extra_labels=("RELATIVE",),           score=0.75, name="name_nickname_de"),
        PatternRule("DOCTOR",  _RX["LAST_LINE_NAME_RE"], group="n", validator=_last_line_name_ok,                                                                    score=0.7,  name="last_line_name_de"),
        PatternRule("DOCTOR",  _RX["HAND_SIGN_RE"],      group="n", validator=_hand_sign_ok,                                                                         score=0.7,  name="hand_sign_de"),
        PatternRule("PATIENT", _RX["LOWER_QUOTED_NICK_RE"], group="n", validator=_lower_quoted_nick_ok,                                                              score=0.7,  name="lower_quoted_nickname_de"),
        PatternRule("PATIENT", _RX["LOWER_NAME_RE"],     group="n", validator=_lower_name_ok,     labeler=_lower_name_label,    extra_labels=("RELATIVE", "DOCTOR"), score=0.7,  name="lower_case_names_de"),
        *german_people_rules(lang),
        *german_card_name_rules(lang),
    )  # fmt: skip
