"""Words of the pack name rules (:mod:`.intl_names`): one :class:`NameWords` per language (read from
``phiscrub/resources/langpacks/names.json``), and the word sets the scanner and the PROFESSION
rules consult.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from phiscrub.detect.rules.pack_records import load_records

__all__ = ["NAME_LANGUAGES", "NAME_WORDS", "NameWords"]


@dataclass(frozen=True)
class NameWords:
    """The words the name rules of one language need.

    Args:
        doctor_titles: titles of physicians and academics (``Dr.``, ``Prof.``, ``OA``); case-sensitive.
        person_titles: forms of address (``Herr``, ``Mme``, ``dhr.``); case-sensitive.
        patient_fields: field labels before a patient's name (a colon follows).
        doctor_fields: field labels before a clinician's name.
        relative_fields: field labels before a relative's name.
        kin: kinship and carer words before a relative's name (lower case; any case matches).
        roles: roles written after a name (``, Oberarzt``) or on the line below it.
        closings: closing formulas after which the next line holds a name.
        signed: words right before a signature name (``gez.``, ``signé``).
        particles: lower-case name particles (``von``, ``van``, ``de``).
        stopwords: words that end a name (lower case), on top of the English ones.
        lexicon: folder of the bundled name lists (``de``, ``fr``, ``nl``, ``es``).
        max_tokens: longest name in tokens.
    """

    doctor_titles: tuple[str, ...]
    person_titles: tuple[str, ...]
    patient_fields: tuple[str, ...]
    doctor_fields: tuple[str, ...]
    relative_fields: tuple[str, ...]
    kin: tuple[str, ...]
    roles: tuple[str, ...]
    closings: tuple[str, ...]
    signed: tuple[str, ...]
    particles: tuple[str, ...]
    stopwords: tuple[str, ...]
    lexicon: str
    max_tokens: int = 4


#: Words by language (``resources/langpacks/names.json``; Catalan shares the Spanish words).
NAME_WORDS: dict[str, NameWords] = load_records("names", NameWords)

#: Languages with pack name rules.
NAME_LANGUAGES: tuple[str, ...] = tuple(NAME_WORDS)

#: English month and weekday abbreviations of the English stop words: given names elsewhere ("Jan").
ENGLISH_ABBREVIATIONS = frozenset(
    [
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "mon",
        "tue",
        "tues",
        "wed",
        "thu",
        "thur",
        "thurs",
        "fri",
        "sat",
        "sun",
    ]
)

#: Nouns used as titles ("Ihre Patientin Renate X"): a single unlisted word after them is no name.
NOUN_TITLES = frozenset(
    [
        "pac.",
        "patient",
        "patientin",
        "patienten",
        "versicherte",
        "versicherter",
        "versicherten",
        "klient",
        "klientin",
        "pat.",
        "paciente",
    ]
)

MONTH_WORDS = frozenset(
    [
        "januar",
        "februar",
        "märz",
        "april",
        "mai",
        "juni",
        "juli",
        "august",
        "september",
        "oktober",
        "november",
        "dezember",
        "avril",
        "mai",
        "juin",
        "août",
        "mei",
        "juni",
        "juli",
        "augustus",
    ]
)

CAP_PARTICLES = frozenset(
    {"le", "la", "de", "du", "des", "van", "von", "den", "der", "del", "da", "di", "ten", "ter"}
)

PARTICLES = frozenset({"van", "de", "von", "den", "der", "la", "del", "le", "du", "dos", "da", "y", "i"})

# PROFESSION after a work cue ("Bis zuletzt als Maurer tätig", "travaille comme boulanger", "werkzaam als
# timmerman", "trabajaba como minero"): the cue is required, a bare job word is never taken.
JOB_DE = r"[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜa-zäöüß][a-zäöüß]+)*"

JOB_LOWER = r"[a-zà-öø-ÿ][a-zà-öø-ÿ'’\-]+"

PROFESSION_RES: dict[str, re.Pattern[str]] = {
    "de": re.compile(
        r"(?:\b(?:tätig|arbeitet|arbeitete|beschäftigt|angestellt|gearbeitet|zuletzt|beruflich|ehemaliger?|ehemals|"
        r"pensionierter?|berentete?r?|Ausbildung|arbeitete\s+er|arbeitete\s+sie|war|Versicherte|Versicherter|früher|"
        r"bisher|jahrelang)\b"
        r"[^\n;]{0,30}?\bals"
        r"|\bvon\s+Beruf|\bBeruf\s*:|\bTätigkeit\s*:|\bBerufstätigkeit\s*:"
        # "gelernter Maurer", "pensionierter Lehrer", "Ausbildung zum Elektriker", "ist als Bäcker tätig".
        r"|\b(?:gelernte[rn]?|pensionierte[rn]?|berentete[rn]?)(?=[ \t]+[A-ZÄÖÜ])|\bAusbildung\s+(?:zum|zur)"
        rf"|\bals(?=[ \t]+{JOB_DE}[ \t]+(?:tätig|beschäftigt|angestellt|gearbeitet)\b))[ \t]+"
        rf"(?P<p>{JOB_DE})(?![\w\-])"
    ),
    "fr": re.compile(
        r"(?:\b[Tt]ravaill(?:e|ait|é)\s+(?:comme|en\s+tant\s+que)|\bexer[cç](?:e|ait)\s+(?:la\s+profession|le\s+métier)\s+d[e'’]"
        r"|\bprofession\s*:|\bmétier\s*:|\bde\s+profession|\bancien(?:ne)?|\best\s+(?=\S+\s+retraitée?\b))[ \t]*"
        rf"(?P<p>{JOB_LOWER}(?:[ ](?:de|d'|en|du)[ ]?{JOB_LOWER})?)(?![\w\-])"
    ),
    "nl": re.compile(
        r"(?:\b[Ww]erkzaam\s+als|\b[Ww]erkt\s+als|\b[Ww]erkte\s+als|\bberoep\s*:|\bvan\s+beroep|\bgepensioneerd)[ \t]+"
        rf"(?P<p>{JOB_LOWER})(?![\w\-])"
    ),
    "es": re.compile(
        r"(?:\b[Tt]rabaja(?:ba)?\s+(?:como|de)|\b[Tt]rabajó\s+como|\b[Tt]reballa(?:va)?\s+(?:com\s+a|de)|\bde\s+profesión|\bde\s+professió"
        r"|\bprofesión\s*:|\bprofessió\s*:|\bocupación\s*:|\bocupació\s*:|\bjubilad[oa]\s+de|\bjubilat\s+de"
        r"|\b[Jj]ubilad[oa],?\s+(?:antes|anteriormente|previamente|antiguo|antigua|ex)(?:\s+(?:fue|era|trabajaba\s+como))?)[ \t]+"
        rf"(?P<p>{JOB_LOWER}(?:[ ](?:de|d'|del)[ ]?{JOB_LOWER})?)(?![\w\-])"
    ),
    # Norwegian (bokmål and nynorsk), Danish, Swedish (issue 27): "arbeider som snekker", "yrke: lærer".
    "nb": re.compile(
        r"(?:\b(?:[Aa]rbeider|[Aa]rbeidde|[Aa]rbeidar|[Jj]obber|[Jj]obbet|[Jj]obbar|[Vv]ar|[Tt]idligere|[Pp]ensjonert|"
        r"[Uu]tdannet|[Uu]tdanna)\s+som|\b[Yy]rke\s*:|\bav\s+yrke)[ \t]+"
        rf"(?P<p>{JOB_LOWER})(?![\w\-])"
    ),
    "da": re.compile(
        r"(?:\b(?:[Aa]rbejder|[Aa]rbejdede|[Vv]ar|[Tt]idligere|[Pp]ensioneret|[Uu]ddannet)\s+som|\b[Ss]tilling\s*:"
        r"|\b[Ee]rhverv\s*:|\baf\s+profession)[ \t]+"
        rf"(?P<p>{JOB_LOWER})(?![\w\-])"
    ),
    "sv": re.compile(
        r"(?:\b(?:[Aa]rbetar|[Aa]rbetade|[Jj]obbar|[Jj]obbade|[Vv]ar|[Tt]idigare|[Pp]ensionerad|[Uu]tbildad)\s+som"
        r"|\b[Yy]rke\s*:|\bSysselsättning\s*:)[ \t]+"
        rf"(?P<p>{JOB_LOWER})(?![\w\-])"
    ),
}
PROFESSION_RES["nn"] = PROFESSION_RES["nb"]

#: Words after a work cue that are no profession ("ancien fumeur", "als Folge").
NOT_JOBS = frozenset(
    [
        "folge",
        "beispiel",
        "ursache",
        "grund",
        "erstes",
        "zweites",
        "nächstes",
        "letztes",
        "auch",
        "noch",
        "mit",
        "dem",
        "der",
        "die",
        "das",
        "ein",
        "eine",
        "raucher",
        "raucherin",
        "nichtraucher",
        "alkoholiker",
        "alkoholikerin",
        "fumeur",
        "fumeuse",
        "tabagique",
        "alcoolique",
        "buveur",
        "patient",
        "patiente",
        "le",
        "la",
        "les",
        "un",
        "une",
        "des",
        "du",
        "de",
        "en",
        "au",
        "van",
        "het",
        "een",
        "de",
        "en",
        "a",
        "la",
        "el",
        "los",
        "las",
        "un",
        "una",
        "en",
    ]
)
