"""Hospital, ward and address forms of Nordic notes beyond :mod:`.intl_nordic_places` (``nb``, ``nn``, ``da``, ``sv``).

* **hospitals named in one compound**: a capitalised word ending in ``-sykehuset``/``-sjukehuset``/
  ``-sjukhuset``/``-sygehuset`` and the town after it (``Nordkystsykehuset Bodø``, ``Lofotsykehuset``),
  or a name before ``sykehus``/``sjukhus``/``Sygehus`` (``Malmfältens sjukhus``, ``Skagerrak Sygehus``);
  generic compounds (``Universitetssykehuset``, ``Lokalsykehuset``) are left -> HOSPITAL;
* **hospital acronyms** after a department or unit word in any case (``AKUTTMOTTAKET NKB``,
  ``Hjertesviktpoliklinikken NKB``, ``nevrologisk seksjon NKB``, ``gastrokirurgi NKB``) or opening a
  line before a department (``NKS - Gastrokirurgisk avdeling``); every other stand-alone use of an
  acronym so found in the same note follows (``Innlegges NKB, med. avd.``); also after ``avd.`` or
  ``team`` (``Med. avd. NSH``, ``Palliativt team SSH``), defined after a facility (``X
  rehabiliteringssenter (KRS)``), and, with a hospital's shape, after a year (``TURP 2016 (NSH)``) or
  a preposition before a clause (``ved SSH sist i 2019``) -> HOSPITAL;
* **buildings** by letter (``Blokk C, 3. etg``, ``operasjonsavdelingen Blokk A``) -> HOSPITAL, or named in one
  compound with its number (``Sjøbygget 5``) -> DEPARTMENT;
* **nursing homes and centres** after a stay (``korttidsopphald på Solvang``, ``fast plass på X``) -> HOSPITAL;
* **named wards** after a lower-case ward word (``døgnpost Fjellblikk``, ``barneposten Solgløtt``,
  ``geriatrisk post Nordlys``) or before an adjective and a unit word (``Havgløtt palliativ enhet``)
  -> DEPARTMENT;
* **post-office boxes** (``Postboks 1480``, ``Box 123``) -> STREET;
* **towns**: a postcode line after a street line (``Sjøgata 63\n8200 Fauske``), a capitalised word after
  ``i``/``fra``/``til`` inside a sentence (``i Løding``, ``fra Ørnes kai``, ``hjem til Gdańsk``; ``til``
  after a journey word only, ``fra`` before a clause end or a harbour word; no genitive before its noun,
  no listed given name), two listed towns of a route (``Bodø-Svolvær``) -> ZIP, CITY, COUNTRY.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from phiscrub.calendar import MONTH_NAMES
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule
from phiscrub.detect.rules.intl_name_scan import NameLexicon, name_lexicon
from phiscrub.detect.rules.intl_names_data import NAME_WORDS
from phiscrub.detect.rules.intl_nordic_places import acronym_ok, common_word, nordic_towns

_RX = pattern_data("intl_nordic_sites")


__all__ = ["nordic_site_rules"]


#: Generic first parts of a hospital compound: "Universitetssykehuset" names no hospital.
_GENERIC_PREFIXES = (
    "universitets", "lokal", "region", "regions", "sentral", "barne", "privat", "dag", "hoved", "nabo",
    "distrikts", "lands", "fylkes", "nærmeste", "psykiatrisk", "somatisk", "akutt", "sams", "det",
)  # fmt: skip
#: Adjective endings: "Lindrende enhet", "Palliativ enhet", "Lokalt sykehus" are kinds, not names.
_ADJ_ENDINGS = ("ende", "iv", "ive", "al", "ale", "alt", "isk", "iske", "ell", "elle", "ig", "ige", "lig")


def _listed_towns(lang: str) -> frozenset[str]:
    return nordic_towns(lang) | nordic_towns("nb")


#: Capitalised words after "i"/"fra" that name no place (products, records, scales, shorthand).
_NOT_TOWNS = frozenset(
    (
        "dips",
        "metavision",
        "helsenorge",
        "kjernejournal",
        "pasientjournalen",
        "epj",
        "journal",
        "journalen",
        "excel",
        "word",
        "teams",
        "covid",
        "corona",
        # the Norwegian months
        *(w for month in MONTH_NAMES["nb"] for w in month),
        "helse",
        "nav",
        "akuttmottaket",
    )
)


def _place_label(surface: str) -> str:
    from phiscrub.policy import region_label

    return "COUNTRY" if region_label(surface, "COUNTRY") == "COUNTRY" else "CITY"


def _name_word(word: str, lang: str) -> bool:
    low = word.lower()
    stop = {w.lower() for w in NAME_WORDS[lang].stopwords}
    return not (common_word(word) or low in stop or low.endswith(_ADJ_ENDINGS))


def _hospitals(rule: NordicSiteRule, text: str) -> Iterator[tuple[int, int, str]]:
    for m in _RX["HOSP_COMPOUND_RE"].finditer(text):
        word = m.group("h").lower()
        if word.startswith(_GENERIC_PREFIXES):
            continue
        end = m.end("h")
        if m.group("t") is not None and _name_word(m.group("t"), rule.lang):
            end = m.end("t")
        yield m.start("h"), end, "HOSPITAL"
    for m in _RX["HOSP_NAMED_RE"].finditer(text):
        name = m.group("n")
        if _name_word(name.rstrip("s"), rule.lang) and _name_word(name, rule.lang):
            yield m.start(), m.end(), "HOSPITAL"


def _acronyms(rule: NordicSiteRule, text: str) -> Iterator[tuple[int, int, str]]:
    found: set[str] = set()
    for m in _RX["ACR_CUE_RE"].finditer(text):
        group = str(m.lastgroup)
        word = m.group(group)
        cue = "weak" if group in ("e", "f") else "unit"  # "(NSH)", "ved SSH sist": a hospital's shape only
        if acronym_ok(word, cue) and word.lower() not in {"hf", "as"}:
            found.add(word)
    for word in found:
        for m in re.finditer(rf"(?<![\w\-/.]){word}(?![\w\-/])", text):
            yield m.start(), m.end(), "HOSPITAL"


def _wards(rule: NordicSiteRule, text: str) -> Iterator[tuple[int, int, str]]:
    for m in _RX["BUILDING_RE"].finditer(text):
        yield m.start("bl"), m.end("bl"), "HOSPITAL"
    lex = name_lexicon(NAME_WORDS[rule.lang].lexicon)
    for pattern in (_RX["WARD_LOW_RE"], _RX["WARD_BEFORE_RE"]):
        for m in pattern.finditer(text):
            word = m.group("w")
            if _name_word(word, rule.lang) and word.lower() not in lex.first:
                yield m.start("w"), m.end("w"), "DEPARTMENT"
    for m in _RX["BUILDING_NAMED_RE"].finditer(text):
        if not m.group("w").lower().startswith((*_GENERIC_PREFIXES, "ny", "gaml", "hoved")):
            yield m.start("w"), m.end(), "DEPARTMENT"
    for m in _RX["STAY_RE"].finditer(text):
        word = m.group("w")
        if (
            _name_word(word, rule.lang)
            and word.lower() not in lex.first
            and word not in _listed_towns(rule.lang)
        ):
            yield m.start("w"), m.end("w"), "HOSPITAL"
    for m in _RX["POSTBOX_RE"].finditer(text):
        yield m.start("pb"), m.end("pb"), "STREET"
    yield from _towns(rule, text, lex)


def _towns(rule: NordicSiteRule, text: str, lex: NameLexicon) -> Iterator[tuple[int, int, str]]:
    for m in _RX["ZIP_LINE_RE"].finditer(text):
        line_end = m.start() - 1
        prev = text[text.rfind("\n", 0, line_end) + 1 : line_end]
        if _RX["STREET_LINE_RE"].search(prev) and _name_word(m.group("t").split()[0], rule.lang):
            yield m.start("z"), m.end("z"), "ZIP"
            yield m.start("t"), m.end("t"), "CITY"
    towns = _listed_towns(rule.lang)
    for m in _RX["ROUTE_RE"].finditer(text):  # "Ambulansefly Bodø-Svolvær": two listed towns
        if m.group("a") in towns and m.group("b") in towns:
            yield m.start("a"), m.end("a"), "CITY"
            yield m.start("b"), m.end("b"), "CITY"
    for m in _RX["IN_TOWN_RE"].finditer(text):
        word = m.group("t")
        if m.group("fra") is not None and not _RX["FROM_END_RE"].match(text, m.end("t")):
            continue
        if m.group("til") is not None and not _RX["JOURNEY_BEFORE_RE"].search(
            text, max(0, m.start() - 30), m.start()
        ):
            continue
        if word.endswith("s") and _RX["GENITIVE_NOUN_RE"].match(text, m.end("t")):
            continue  # "i Bauhins klaff": a genitive before its noun
        if _name_word(word, rule.lang) and word.lower() not in lex.first and word.lower() not in _NOT_TOWNS:
            yield m.start("t"), m.end("t"), _place_label(word)


_HANDLERS = {"hospital": _hospitals, "acronym": _acronyms, "ward": _wards}


@dataclass(frozen=True)
class NordicSiteRule(PatternRule):
    """One group of the site forms above; ``kind`` names its handler."""

    lang: str = "nb"
    kind: str = "hospital"

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        """Yield ``(start, end, label)`` of every site of this rule's kind."""
        yield from _HANDLERS[self.kind](self, text)


def nordic_site_rules(lang: str) -> tuple[PatternRule, ...]:
    """The site rules of this module for a Nordic language (``nb``, ``nn``, ``da``, ``sv``)."""
    code = "nb" if lang == "nn" else lang
    return (
        NordicSiteRule("HOSPITAL", _RX["HOSP_COMPOUND_RE"], name=f"nordic_hospital_{lang}", score=0.8, lang=code,
                       kind="hospital"),
        NordicSiteRule("HOSPITAL", _RX["ACR_CUE_RE"], name=f"nordic_hacr2_{lang}", score=0.8, lang=code, kind="acronym"),
        NordicSiteRule("DEPARTMENT", _RX["WARD_LOW_RE"], name=f"nordic_ward2_{lang}", score=0.8, lang=code, kind="ward",
                       extra_labels=("HOSPITAL", "STREET", "ZIP", "CITY", "COUNTRY")),
    )  # fmt: skip
