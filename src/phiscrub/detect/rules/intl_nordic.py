"""Rules of the Nordic packs that the shared pack engine has no data slot for (issue 27, item 4).

The Norwegian (``nb``; nynorsk ``nn`` shares it), Danish (``da``) and Swedish (``sv``) packs are mostly
data: months and weekdays in :mod:`phiscrub.calendar`, cue words, phone shapes and ID keywords in
``resources/langpacks/packs.json``, name triggers in ``names.json``, street, facility and town words in
``places.json``, given names, surnames and towns in ``resources/lexicons/{nb,da,sv}/`` (Faker, MIT).
This module adds:

* **ages**: ``67 år gammel``/``gamal``/``gammal``, ``67-årig``/``67-årige``, ``, 67 år,`` and ``(67 år)``
  in a header, ``Alder: 67``, ``han er 67 år``; a number of years after ``i``/``for``/``siden`` is a
  duration and is left (``for 2 år siden``, ``i 3 år``);
* **dates** in the Danish ``14/8-2020`` and Swedish ``2/11 2018`` forms, and ``YYMMDD`` after a date
  field (``Datum: 490311``);
* **a facility word, "i" and a town** (``Sjukhuset i Norrköping``, ``Sykehuset i Vestfold``);
* **public agencies** by name, with the office after them (``NAV Hjelpemiddelsentral Vestland``,
  ``Arbeidstilsynet``, ``Försäkringskassan``);
* **well-known hospitals named in one word** or without a facility word of their own
  (``Rikshospitalet``, ``Rigshospitalet``, ``Karolinska``, ``Haukeland``, ``Sahlgrenska``);
* the ward, hospital, town, organisation and country rules of :mod:`.intl_nordic_places`
  (``Post 3B``, ``SFV akuttmottak``, ``i Nordbø kommune``, ``Skoleveien 7, 6812 Straumsnes``, ``X Buss AS``)
  and the site rules of :mod:`.intl_nordic_sites` (``Nordkystsykehuset Bodø``, ``Hjertesviktpoliklinikken
  NKB``, ``Blokk C``, ``døgnpost Fjellblikk``, ``Postboks 1480``).
"""

from __future__ import annotations

import re

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.intl_common import line_before
from phiscrub.detect.rules.intl_nordic_dates import nordic_day_month_rules
from phiscrub.detect.rules.intl_nordic_places import nordic_extra_place_rules
from phiscrub.detect.rules.intl_nordic_sites import nordic_site_rules

#: Public agencies a patient deals with (welfare, labour inspection, insurance), by their own names.
_AGENCIES = (
    "NAV", "Arbeidstilsynet", "Helfo", "HELFO", "Husbanken", "Statsforvalteren", "Statsforvaltaren",
    "Fylkesmannen", "Trygdekontoret", "Arbejdstilsynet", "Udbetaling Danmark", "Jobcentret", "Jobcenter",
    "Försäkringskassan", "Arbetsförmedlingen", "Arbetsmiljöverket", "Migrationsverket",
)  # fmt: skip
_AGENCY_WORDS = trie_pattern(_AGENCIES, ignore_case=False)

_RX = pattern_data("intl_nordic", globals())


__all__ = [
    "NORDIC_AGE_RULES",
    "NORDIC_LANGUAGES",
    "nordic_date_rules",
    "nordic_id_rules",
    "nordic_place_rules",
]

#: The Nordic pack languages.
NORDIC_LANGUAGES: tuple[str, ...] = ("nb", "nn", "da", "sv")

_N = r"(?<![\d.,])(?P<{g}>\d{{1,3}})"
_DURATION_AFTER = (
    r"(?![ \t]+(?:siden|sidan|sedan|senere|seinare|senare|tidligere|tidlegare|tidigare|etter|efter|efteråt|"
    r"før|innan|inden|innen|lang|lange|långa)\b)"
)
_AGE_RE = re.compile(
    # "67 år gammel", "67 år gamle", "67 år gammal", "67 år gamal", "67 år gl."
    rf"{_N.format(g='a')}[ \t]+år[ \t]+(?:gam(?:m)?[ae]l\w*|gamle|gl\.|gml\.?(?![\w]))"
    # "67-årig", "67-årige", "67 årig", "67-åring"
    rf"|{_N.format(g='b')}[ \t]?-?[ \t]?åri(?:g|ge|gt|ng|ngen)\b"
    # ", 67 år," "(67 år)" in a header or after a name; months for infants
    rf"|(?:,|\()[ \t]*{_N.format(g='c')}[ \t]*(?:år|mnd\.?|måneder|månader|måneders)(?=[ \t]*[,)\n;]|[ \t]*\Z|\.[ \t]|[ \t]+\((?:f\.|født|fødd|född))"
    # "Alder: 67", "Ålder: 67"
    rf"|(?i:alder|ålder)[ \t]*:?[ \t]*{_N.format(g='d')}(?![\d.,])"
    # "han er 67 år", "hun var 81 år", "hon är 67 år", "pasient på 67 år"
    rf"|\b(?:er|var|är|blir|blev|ble|vart|på)[ \t]+{_N.format(g='e')}[ \t]+år\b{_DURATION_AFTER}"
)
#: AGE rules of every Nordic language (the number only, as in the English rules).
NORDIC_AGE_RULES: tuple[PatternRule, ...] = (
    PatternRule("AGE", _AGE_RE, group=("a", "b", "c", "d", "e"), score=0.85, name="age_nordic"),
)

_HOSPITALS = (
    "Rikshospitalet", "Radiumhospitalet", "Ullevål sykehus", "Ullevål", "Haukeland", "Diakonhjemmet",
    "Lovisenberg", "Aker sykehus", "Rigshospitalet", "Bispebjerg Hospital", "Hvidovre Hospital", "Herlev Hospital",
    "Gentofte Hospital", "Karolinska", "Sahlgrenska", "Karolinska Universitetssjukhuset",
    "Sahlgrenska Universitetssjukhuset", "Södersjukhuset", "Danderyds sjukhus", "Akademiska sjukhuset",
    "Akademiska", "Huddinge sjukhus", "Skånes universitetssjukhus", "Norrlands universitetssjukhus",
)  # fmt: skip
_HOSPITAL_RE = re.compile(rf"(?<![\w\-])(?:{trie_pattern(_HOSPITALS, ignore_case=False)})(?![\w\-])")


def nordic_place_rules(lang: str) -> tuple[PatternRule, ...]:
    """The extra LOCATION rules of a Nordic language (none for other languages)."""
    if lang not in NORDIC_LANGUAGES:
        return ()
    return (
        PatternRule("HOSPITAL", _HOSPITAL_RE, score=0.85, name=f"hospital_names_{lang}"),
        PatternRule("HOSPITAL", _RX["FACILITY_IN_RE"], score=0.85, name=f"facility_in_town_{lang}"),
        PatternRule("ORGANIZATION", _RX["AGENCY_RE"], score=0.8, name=f"agency_{lang}"),
        *nordic_extra_place_rules(lang),
        *nordic_site_rules(lang),
    )


def _day_month_ok(m: re.Match[str]) -> bool:
    return 1 <= int(m.group("d")) <= 31 and 1 <= int(m.group("m")) <= 12


def _fnr_shape_ok(m: re.Match[str]) -> bool:
    """A birth date (a D-number adds 40 to the day) in the first six digits, on a patient line."""
    day, month = int(m.group("d")) % 40, int(m.group("m"))
    if not (1 <= day <= 31 and 1 <= month <= 12):
        return False
    return _RX["PATIENT_LINE_RE"].match(line_before(m.string, m.start(), 120)) is not None


def nordic_id_rules(lang: str) -> tuple[PatternRule, ...]:
    """The SSN, USERNAME and IDNUM rules of a Nordic language (none for other languages): a fødselsnummer
    written 6+5 on a patient line without its keyword (``Pasient: MOEN GUDRUN   091029 40317``), a user
    name after a signature word (``sign. shau07``), a message identifier written as a UUID."""
    if lang not in NORDIC_LANGUAGES:
        return ()
    return (
        PatternRule("SSN", _RX["FNR_SHAPE_RE"], group="v", validator=_fnr_shape_ok, score=0.8, name=f"fnr_shape_{lang}"),
        PatternRule("USERNAME", _RX["SIGN_USER_RE"], group="u", score=0.8, name=f"sign_user_{lang}"),
        PatternRule("IDNUM", _RX["UUID_RE"], score=0.85, name=f"uuid_{lang}"),
    )  # fmt: skip


def nordic_date_rules(lang: str) -> tuple[PatternRule, ...]:
    """The extra DATE rules of a Nordic language (none for other languages).

    With the cue-free day-month and two-digit-year rules of :mod:`.intl_nordic_dates`
    (``Innkomst 02.04.``, ``Ekko 15.3:``, ``søndag 10.3``, ``27/2``, ``okt -23``, ``(utslett -98)``).
    """
    if lang not in NORDIC_LANGUAGES:
        return ()
    return (
        PatternRule(
            "DATE", _RX["SLASH_DATE_RE"], score=0.9, validator=_day_month_ok, name=f"slash_date_{lang}"
        ),
        PatternRule(
            "DATE", _RX["YYMMDD_RE"], group="v", score=0.8, validator=_day_month_ok, name=f"yymmdd_{lang}"
        ),
        *nordic_day_month_rules(lang),
    )
