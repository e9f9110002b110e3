"""A language-agnostic safety net: PHI shapes that need no language pack (issue 27, item 3).

A note in a language without a pack used to get the numeric dates, e-mail, URL, IP and ``+``-phone
rules only. The net adds, for every language:

* **national identifiers validated by their check digits** (:mod:`.checksums`, ``python-stdnum``):
  shapes that cannot be mistaken (Finnish henkilötunnus, Italian codice fiscale, IBAN) everywhere;
  bare numbers that validate (Norwegian fødselsnummer, Swedish personnummer, Danish CPR, French NIR,
  Spanish DNI/NIE) in every language but English; and after an identifier word of any language
  (``fødselsnummer``, ``CPR``, ``henkilötunnus``, ``BSN``, ``codice fiscale``, ``NHS number`` ...) any
  value one of the validators accepts, English included;
* **phone numbers** (languages without a pack, whose phone shapes and cues are its own) found by ``phonenumbers`` (Google's libphonenumber) for the note's country,
  taken when written internationally (``+47``, ``0046``), after a phone word of any language, or
  grouped as phones are (``22 11 78 90``);
and, for languages without a pack of their own (a pack has its own, measured dates, names and
places):

* **dates with a month name** in the common European forms (``25. desember 2017``, ``3 januari
  2019``, ``12 marzo 2020``, ``maj 2019``) for the languages of :data:`NET_MONTHS`;
* **titled names**: ``Dr.``, ``Prof.`` and local forms (``lege``, ``overlege``, ``Herr``, ``Fru``,
  ``Sig.``, ``pan`` ...) before one to three capitalised words;
* **a postcode before a town** at the end of an address line (``0450 Oslo``, ``114 28 Stockholm``);
* **a listed given name and a listed surname** (``Giuseppe Rossi``, ``Anna Kowalska``) from the bundled
  multi-locale lists (Faker's European locales, MIT; ``resources/lexicons``), ambiguous names
  (``ambiguous_names.txt``) left out.

English keeps its own, measured rules (the hardforms and golden figures must not move), so for
``en`` the net holds only the identifiers that carry their own evidence (an unmistakable shape, a
check digit after an identifier word) and IBANs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from phiscrub.calendar import MONTH_NAMES
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule, RuleDetector, trie_pattern
from phiscrub.detect.rules.checksums import (
    bsn_ok,
    codice_fiscale_ok,
    cpr_ok,
    dni_ok,
    fodselsnummer_ok,
    hetu_ok,
    iban_ok,
    kvnr_ok,
    nhs_ok,
    nie_ok,
    nir_ok,
    personnummer_ok,
)
from phiscrub.detect.rules.langpacks import PACK_LANGUAGES
from phiscrub.document import Span
from phiscrub.language import normalize_lang

__all__ = ["NET_MONTHS", "PHONE_REGIONS", "SafetyNet", "net_rules"]

_END = r"(?![0-9A-Za-z]|[\-/.][0-9A-Za-z])"

# Bare shapes (group name -> regex, check). Unmistakable ones run in every language.
_SURE: dict[str, tuple[str, Callable[[str], bool]]] = {
    "hetu": (r"\d{6}[-+A]\d{3}[0-9A-Y]", hetu_ok),
    "cf": (r"[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]", codice_fiscale_ok),
}
_BARE: dict[str, tuple[str, Callable[[str], bool]]] = {
    "fnr": (r"\d{6}[ ]?\d{5}", fodselsnummer_ok),
    "pnr": (r"(?:19|20)?\d{6}[-+]\d{4}", lambda v: personnummer_ok(v) or cpr_ok(v)),
    "nir": (r"[1-478][ ]?\d{2}[ ]?\d{2}[ ]?(?:\d{2}|2[AB])[ ]?\d{3}[ ]?\d{3}[ ]?\d{2}", nir_ok),
    "dni": (r"\d{8}[ \-]?[A-Z]", dni_ok),
    "nie": (r"[XYZ][ \-]?\d{7}[ \-]?[A-Z]", nie_ok),
}
_IBAN_RE = re.compile(r"(?<![\w\-])[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?" + _END)
#: Words of many languages before a national or health identifier.
ID_CUES: tuple[str, ...] = (
    "fødselsnummer", "fødselsnr", "fødselsnr.", "f.nr", "fnr", "personnummer", "personnr", "pers.nr",
    "personnr.", "pnr", "samordningsnummer", "d-nummer", "cpr", "cpr-nr", "cpr-nummer", "cpr nr",
    "personnummeret", "henkilötunnus", "hetu", "sotu", "bsn", "burgerservicenummer", "nir",
    "numéro de sécurité sociale", "codice fiscale", "c.f.", "dni", "nie", "nhs number", "nhs no",
    "nhs", "kvnr", "versichertennummer", "krankenversichertennummer", "kennitala", "pesel",
    "personal number", "national id", "national identity number", "id-nummer", "id-nr",
)  # fmt: skip
_CHECKS: tuple[Callable[[str], bool], ...] = (
    fodselsnummer_ok, personnummer_ok, cpr_ok, hetu_ok, codice_fiscale_ok, bsn_ok, nir_ok, dni_ok,
    nie_ok, kvnr_ok, nhs_ok,
)  # fmt: skip
_CUE_VALUE = r"[A-Z0-9](?:[A-Z0-9]|[ \-./+](?=[A-Z0-9])){6,22}"


def _calendar_months(*langs: str) -> dict[str, tuple[str, ...]]:
    """The month names of :data:`phiscrub.calendar.MONTH_NAMES` (first spelling, lower case)."""
    return {lang: tuple(spellings[0].lower() for spellings in MONTH_NAMES[lang]) for lang in langs}


#: Month names (lower case, January first) of languages whose packs, if any, lack them.
NET_MONTHS: dict[str, tuple[str, ...]] = {
    **_calendar_months("nb", "da", "sv"),
    "fi": ("tammikuuta", "helmikuuta", "maaliskuuta", "huhtikuuta", "toukokuuta", "kesäkuuta", "heinäkuuta",
           "elokuuta", "syyskuuta", "lokakuuta", "marraskuuta", "joulukuuta"),
    "it": ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
           "ottobre", "novembre", "dicembre"),
    "pt": ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro",
           "outubro", "novembro", "dezembro"),
    "pl": ("stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września",
           "października", "listopada", "grudnia"),
    **_calendar_months("es", "fr", "de", "nl"),
}  # fmt: skip
_MONTH = trie_pattern({m for ms in NET_MONTHS.values() for m in ms})
_MONTH_SHORT = trie_pattern(
    {m[:3] for ms in NET_MONTHS.values() for m in ms} | {"sept", "des", "dez", "okt", "mrt", "mai", "maj"}
)

#: The country a note's language points to, for national phone numbers.
PHONE_REGIONS: dict[str, str] = {
    "nb": "NO", "nn": "NO", "da": "DK", "sv": "SE", "fi": "FI", "is": "IS", "de": "DE", "fr": "FR",
    "nl": "NL", "es": "ES", "ca": "ES", "it": "IT", "pt": "PT", "pl": "PL", "cs": "CZ", "sk": "SK",
    "hu": "HU", "ro": "RO", "el": "GR", "et": "EE", "lv": "LV", "lt": "LT", "hr": "HR", "sl": "SI",
    "bg": "BG", "tr": "TR",
}  # fmt: skip

_TITLES = (
    "Dr", "Dr.", "dr.", "Prof", "Prof.", "prof.", "lege", "overlege", "LIS", "turnuslege", "fastlege",
    "sykepleier", "sjuksköterska", "läkare", "overlæge", "læge", "Herr", "Hr.", "Hr", "Fru", "Frau", "Fr.",
    "Sig.", "Sig.ra", "Dott.", "Dott.ssa", "pan", "pani", "Sr.", "Sra.", "Mme", "M.",
)  # fmt: skip
_CAP = r"[A-ZÀ-ÖØ-ÞĀ-Ž][a-zß-öø-ÿā-ž'\-]+"

_RX = pattern_data("safety_net", globals())

_TITLE_RE = re.compile(
    rf"(?<![\w.])(?:{'|'.join(re.escape(t) for t in sorted(_TITLES, key=len, reverse=True))})"
    rf"(?:[ \t]+(?:med\.|Dr\.|dr\.|Prof\.))*[ \t]+(?P<name>(?:[A-Z]\.[ ]?)?{_CAP}(?:[ ]{_CAP}){{0,2}})(?![\w])"
)
_NOT_NAME = frozenset(
    [
        "Der",
        "Die",
        "Das",
        "The",
        "Og",
        "Och",
        "En",
        "Et",
        "Ett",
        "Den",
        "Det",
        "Med",
        "Til",
        "Till",
        "For",
        "Fra",
        "Från",
        "Og",
        "Pasienten",
        "Patienten",
        "Sykehus",
        "Sykehuset",
        "Sjukehus",
        "Sjukehuset",
        "Sygehus",
        "Sjukhus",
        "Klinikk",
        "Klinik",
        "Hospital",
        "Avdeling",
        "Afdeling",
        "Kontroll",
    ]
)


def _bare_rule(shapes: dict[str, tuple[str, Callable[[str], bool]]], name: str) -> PatternRule:
    pattern = re.compile("|".join(rf"(?P<{k}>{rx})" for k, (rx, _) in shapes.items()) + _END)

    def ok(m: re.Match[str]) -> bool:
        key = next(k for k in shapes if m.group(k) is not None)
        return shapes[key][1](m.group(key))

    return PatternRule("SSN", pattern, validator=ok, not_after=r"[0-9A-Za-z\-/.+]", score=0.9, name=name)


def _cue_ok(m: re.Match[str]) -> bool:
    value = m.group("v")
    return any(check(value) for check in _CHECKS)


@cache
def net_rules(lang: str) -> tuple[PatternRule, ...]:
    """The regex part of the safety net for ``lang`` (phones are :class:`SafetyNet`'s own)."""
    code = normalize_lang(lang)
    rules = [
        _bare_rule(_SURE, "net_id_sure"),
        PatternRule("ACCOUNT", _IBAN_RE, validator=lambda m: iban_ok(m.group()), score=0.9, name="net_iban"),
        PatternRule(
            "SSN",
            re.compile(
                rf"(?i:(?<![\w])(?:{trie_pattern(ID_CUES)})(?![\w]))[ \t]*(?:\([^()\n]{{0,20}}\)[ \t]*)?"
                rf"(?i:nr\.?|no\.?|nummer|number)?[ \t:#.=\-]*(?P<v>{_CUE_VALUE}){_END}"
            ),
            group="v",
            validator=_cue_ok,
            score=0.9,
            name="net_id_cue",
        ),
    ]
    if code != "en":
        rules.append(_bare_rule(_BARE, "net_id_bare"))
    if code != "en" and code not in PACK_LANGUAGES:
        # A pack has its own dates, names and places, measured on its notes (the net's titled names
        # ran into German capitalised nouns: "Herr Schwarzs Ehefrau").
        rules += [
            PatternRule("DATE", _RX["DATE_RE"], score=0.85, name="net_month_date"),
            PatternRule("DOCTOR", _TITLE_RE, group="name", validator=_name_ok, score=0.8, name="net_titled"),
            PatternRule("ZIP", _RX["POSTCODE_RE"], group="zip", score=0.75, name="net_postcode"),
            PatternRule(
                "PATIENT", _RX["FULL_NAME_RE"], validator=_listed_name, score=0.75, name="net_listed_name"
            ),
            PatternRule("CITY", _RX["POSTCODE_RE"], group="town", score=0.75, name="net_postcode_town"),
        ]
    return tuple(rules)


@cache
def _name_lists() -> tuple[frozenset[str], frozenset[str]]:
    """Given names and surnames of the bundled multi-locale lists, lower case, ambiguous ones left out."""
    from phiscrub.resources import load_lexicon

    ambiguous = {w.lower() for w in load_lexicon("ambiguous_names")}
    first = {w.lower() for stem in ("first_names_female", "first_names_male") for w in load_lexicon(stem)}
    last = {w.lower() for w in load_lexicon("last_names")}
    return frozenset(first - ambiguous), frozenset(last - ambiguous)


def _listed_name(m: re.Match[str]) -> bool:
    first, last = _name_lists()
    return m.group("first").lower() in first and m.group("last").lower() in last


def _name_ok(m: re.Match[str]) -> bool:
    return m.group("name").split()[0] not in _NOT_NAME


class SafetyNet(RuleDetector):
    """The safety net as one rule detector (``source="rule:net"``): :func:`net_rules` plus phones.

    Args:
        lang: the note language the net is built for (its phone region, and English's smaller net).
    """

    def __init__(self, lang: str) -> None:
        self.lang = normalize_lang(lang)
        super().__init__("net", net_rules(self.lang))
        self.region = PHONE_REGIONS.get(self.lang)

    def __repr__(self) -> str:
        return f"SafetyNet(lang={self.lang!r})"

    def find(self, text: str) -> list[Span]:
        """Spans of the net's rules and phones in a plain ``text``."""
        spans = super().find(text)
        if self.lang != "en" and self.lang not in PACK_LANGUAGES:
            spans.extend(self._phones(text))
        return sorted(spans)

    def _phones(self, text: str) -> list[Span]:
        import phonenumbers

        out: list[Span] = []
        for match in phonenumbers.PhoneNumberMatcher(text, self.region, phonenumbers.Leniency.VALID):
            raw = match.raw_string
            start, end = match.start, match.end
            intl = raw.startswith(("+", "00"))
            cue = _RX["PHONE_CUE_RE"].search(text, max(0, start - 40), start) is not None
            grouped = _RX["PHONE_GROUPED_RE"].fullmatch(raw) is not None
            if intl or cue or grouped:
                fax = _RX["FAX_CUE_RE"].search(text, max(0, start - 20), start) is not None
                out.append(Span(start, end, "FAX" if fax else "PHONE", 0.85, "rule:net"))
        return out
