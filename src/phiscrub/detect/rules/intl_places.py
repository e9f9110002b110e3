"""LOCATION rules of the language packs: German, French, Dutch, Spanish and Catalan.

* **ZIP + city**: ``10115 Berlin``, ``D-80331 München``, ``A-1010 Wien``, ``8001 Zürich`` (4 digits only
  before a listed town or in an address line), ``75013 Paris``, ``69003 LYON CEDEX``, ``1012 AB
  Amsterdam``, ``28036 Madrid``; the code is ZIP, the town CITY.
* **streets**: ``Hauptstraße 5``, ``Bahnhofstr. 12a``, ``Friedrich-Ebert-Straße 3``, ``Am Stadtpark 7``
  (prepositional names only in an address line); ``12 rue de la Paix``, ``3, avenue Jean Jaurès``,
  ``rue Pasteur``; ``Kerkstraat 3``, ``Laan van Meerdervoort 45``; ``C/ Mayor 5``, ``Calle del Pez, 28``,
  ``Avda. de América 3``, ``Carrer de Balmes 12``, ``Passeig de Gràcia 5``.
* **hospitals and care homes**: a facility word and the name after it (``Klinikum Nürnberg``,
  ``Universitätsklinikum Heidelberg``, ``Kreiskrankenhaus Lüneburg``, ``Helios Klinikum Berlin``,
  ``St. Marien-Krankenhaus``; ``CHU de Rennes``, ``Hôpital Saint-Louis``, ``Clinique du Parc``,
  ``Centre hospitalier de Dax``; ``Ziekenhuis Gelderse Vallei``, ``UMC Utrecht``, ``Sint Antonius
  Ziekenhuis``; ``Hospital Universitario de Getafe``, ``Hospital Universitari de Bellvitge``,
  ``Centro de Salud Los Alpes``). A facility word alone (``in der Klinik``, ``Klinik für Innere Medizin``,
  ``Hôpital de jour``) is not a name.
* **towns after a cue**: a town of the bundled lists after ``in``/``aus``/``wohnhaft in``, ``à``/
  ``originaire de``, ``te``/``uit``, ``en``/``natural de``, after a field label (``Wohnort:``,
  ``Localidad:``), or opening a dateline (``Köln, den 3. Mai 2019``, ``Paris, le ...``).
* **rooms** after ``Zi.``/``Zimmer``, ``ch.``/``chambre``, ``kamer``, ``habitación``;
  **organizations** after ``Krankenkasse:``, ``Kostenträger:``, ``Arbeitgeber:``, ``Firma``,
  ``Employeur :``, ``Organisme :``, ``zorgverzekeraar:``, ``Aseguradora:``;
  **countries** of the Spanish list in Spanish address fields (``País: España``, ``28036 Madrid, España``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules._common import pack_rules
from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.intl_german import german_place_rules
from phiscrub.detect.rules.intl_nordic import NORDIC_LANGUAGES, nordic_place_rules
from phiscrub.detect.rules.intl_nordic_places import common_word
from phiscrub.detect.rules.intl_places_data import (
    CAP,
    COMPANY_LEAD,
    GENERIC_FACILITY,
    NAME_END_WORDS,
    NOT_NAMES,
    NOT_TOWNS,
    TOWN_WORDS,
    WORDS,
    PlaceWords,
)

_RX = pattern_data("intl_places", globals())


__all__ = ["PLACE_LANGUAGES", "listed_town", "pack_location_rules"]

PLACE_LANGUAGES: tuple[str, ...] = ("de", "fr", "nl", "es", "ca")


def _read(folder: str, stem: str) -> tuple[str, ...]:
    path = resources.files("phiscrub.resources").joinpath("lexicons", folder, f"{stem}.txt")
    if not path.is_file():
        return ()
    return tuple(line for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


#: Languages whose own town list joins the shared one only for their notes (issue 27: Faker's
#: 568 Danish town names hold words of other languages).
_OWN_TOWNS: dict[str, str] = {"nb": "nb", "nn": "nb", "da": "da", "sv": "sv"}


@cache
def _towns(lang: str = "") -> frozenset[str]:
    towns: set[str] = set()
    for folder in ("de", "fr", "nl"):
        towns.update(_read(folder, "cities"))
    if lang in _OWN_TOWNS:
        towns.update(_read(_OWN_TOWNS[lang], "cities"))
    towns.update(_read("es", "cities"))
    towns.update(_read("es", "cities_ca"))
    if lang in ("es", "ca"):  # towns of 15,000 and more (scripts/build_es_towns.py): Spanish notes only
        towns.update(_read("es", "cities_more"))
    if lang == "es":  # Latin American towns, states and departments (scripts/build_latam_towns.py)
        towns.update(_read("es", "cities_latam"))
    return frozenset(t for t in towns if len(t) > 2 and t not in TOWN_WORDS)


def listed_town(name: str, lang: str = "") -> bool:
    """True when ``name`` is a town of the bundled German, French, Dutch, Spanish or Catalan lists (with
    ``lang``, also of that language's own lists: the larger Spanish and Latin American towns for ``es``)."""
    towns = _towns(lang)
    return name in towns or name.title() in towns


@cache
def _countries() -> frozenset[str]:
    return frozenset(c for c in _read("es", "countries") if len(c) > 3)


def _name_after(text: str, pos: int, connectors: tuple[str, ...], max_tokens: int = 5) -> int:
    """End of a run of capitalised words (with connectors between them) starting at ``pos``, or ``pos``."""
    cap = _RX["CAP_TOKEN_RE"]
    end = pos
    count = 0
    i = pos
    while count < max_tokens:
        m = cap.match(text, i)
        if m is None or m.group().rstrip(".") in NAME_END_WORDS:
            break
        end = m.end()
        count += 1
        i = end
        if not text.startswith(" ", i) or text.startswith("  ", i):
            break
        nxt = i + 1
        moved = False
        for c in sorted(connectors, key=len, reverse=True):
            if text.startswith(c + " ", nxt) and cap.match(text, nxt + len(c) + 1):
                i = nxt + len(c) + 1
                moved = True
                break
            if c.endswith("'") and text.startswith(c, nxt) and cap.match(text, nxt + len(c)):
                i = nxt + len(c)
                moved = True
                break
        if not moved:
            if cap.match(text, nxt):
                i = nxt
            else:
                break
    return end


def _town_prefix(text: str, start: int, end: int, towns: frozenset[str]) -> int:
    """End of the longest listed town at the start of ``text[start:end]``, or -1."""
    best = -1
    for m in re.finditer(r"(?=[ ,]|\Z)", text[start : end + 1]):
        cut = start + m.start()
        if cut > start and cut <= end and text[start:cut] in towns:
            best = cut
    return best


@dataclass(frozen=True)
class PackPlaceRule(PatternRule):
    """Address, facility, town, room and organization triggers of one language (see module doc)."""

    lang: str = "de"

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        """Yield ``(start, end, label)`` of every place next to a trigger."""
        words = WORDS[self.lang]
        for m in self.pattern.finditer(text):
            kind = m.lastgroup
            if kind is None:
                continue
            if kind in _VALUE_GROUPS:
                group, label = _VALUE_GROUPS[kind]
                yield m.start(group), m.end(group), label
            elif kind in _NAME_AFTER:
                end = _name_after(text, m.end(), words.connectors, 4)
                if end > m.end():
                    yield m.end(), end, _NAME_AFTER[kind]
            elif kind in _PLACE_HANDLERS:
                yield from _PLACE_HANDLERS[kind](self, text, m, words)

    def _zip_town(self, text: str, m: re.Match[str], words: PlaceWords) -> Iterator[tuple[int, int, str]]:
        """A postcode and the town after it."""
        yield from self._zip(text, m, words, _towns(self.lang))

    def _town_cue(self, text: str, m: re.Match[str], words: PlaceWords) -> Iterator[tuple[int, int, str]]:
        """A town after a cue."""
        yield from self._town(text, m, words, _towns(self.lang))

    def _facility_hit(self, text: str, m: re.Match[str], words: PlaceWords) -> Iterator[tuple[int, int, str]]:
        """A facility word and the name after it: HOSPITAL for hospitals, else ORGANIZATION."""
        span = self._facility(text, m, words)
        if span is not None:
            label = "HOSPITAL" if _is_hospital(text[span[0] : span[1]]) else "ORGANIZATION"
            yield span[0], span[1], label

    def _facility_after(
        self, text: str, m: re.Match[str], words: PlaceWords
    ) -> Iterator[tuple[int, int, str]]:
        """ "Kinderklinik Asklepios Klinik Regensburg": a facility word inside the run starts the name
        proper, which goes on after the run."""
        if _RX["PARTICIPLE_RE"].match(m.group("fac_after")):
            return  # "Zuweisendes Krankenhaus", "Weiterbehandelnde Klinik": a role, not a name
        if self.lang in NORDIC_LANGUAGES and common_word(m.group("fac_after").split(" ", 1)[0]):
            # "Kontakt legevakt", "Medisinsk klinikk": a sentence word or a specialty, not a name;
            # "Legevisitt Nordtun sykehjem": the name after the sentence words
            rest = m.group("fac_after").split(" ")
            start = m.start("fac_after")
            while rest and common_word(rest[0]):
                start += len(rest.pop(0)) + 1
            if len(rest) >= 2 and rest[0][:1].isupper():
                yield start, m.end("fac_after"), "HOSPITAL"
            return
        inner = _facility_word(self.lang).search(text, m.start("fac_after") + 1, m.end("fac_after"))
        span = self._facility(text, inner, words) if inner is not None else None
        if span is not None and span[1] > m.end("fac_after"):
            yield span[0], span[1], "HOSPITAL"
        elif self.lang != "de" or not _RX["DEPARTMENT_ADJECTIVE_RE"].match(m.group("fac_after")):
            yield m.start("fac_after"), m.end("fac_after"), "HOSPITAL"

    def _company(self, text: str, m: re.Match[str], words: PlaceWords) -> Iterator[tuple[int, int, str]]:
        """A company name, without the lead words before it."""
        start = m.start()
        for word in re.finditer(r"\S+", m.group()):
            if word.group().lower() not in COMPANY_LEAD:
                break
            start = m.start() + word.end() + 1
        if start < m.end():
            yield start, m.end(), "ORGANIZATION"

    def _zip(
        self, text: str, m: re.Match[str], words: PlaceWords, towns: frozenset[str]
    ) -> Iterator[tuple[int, int, str]]:
        code_start, code_end = m.span("zipv")
        city_start = m.end()
        city_end = _name_after(text, city_start, words.connectors, 4)
        if city_end <= city_start:
            if self.lang == "nl":
                yield code_start, code_end, "ZIP"  # "1012 AB" is a postcode by its shape alone
            return
        city = text[city_start:city_end]
        listed = city in towns or city.title() in towns
        if not listed:
            # "Pamplona Tfno", "Madrid Servicio": the listed town at the start is the town.
            cut = _town_prefix(text, city_start, city_end, towns)
            if cut > 0:
                city_end, listed = cut, True
        digits = sum(c.isdigit() for c in m.group("zipv"))
        line_start = text.rfind("\n", 0, code_start) + 1
        before = text[line_start:code_start]
        address_line = (
            before.strip() == ""
            or re.search(r"(?:,|·|\||–|-|\d[a-z]?)[ \t]*\Z", before) is not None
            or re.search(r"(?i)(?:CP|C\.P\.|PLZ|code postal|postcode)[: .]*\Z", before) is not None
        )
        if self.lang == "nl":
            listed = True  # "1012 AB" is a postcode by its shape alone
        if digits == 4 and self.lang != "nl" and not (listed and address_line):
            return
        if not (listed or address_line):
            return
        if not listed and city.lower() in NOT_TOWNS:
            return
        yield code_start, code_end, "ZIP"
        yield city_start, city_end, "CITY"

    def _facility(self, text: str, m: re.Match[str], words: PlaceWords) -> tuple[int, int] | None:
        start = m.start("facw")
        # A service word ("Pflegedienst", "Laboratoire", "Huisartsenpraktijk") is no part of the name.
        generic = GENERIC_FACILITY.fullmatch(m.group("facw")) is not None
        pos = m.end("facw")
        after = text[pos : pos + 20]
        after = after.lower()
        named = _RX["NAMED_AFTER_RE"].match(text, pos) is not None  # "Rehaklinik am Kurpark"
        for stop in words.facility_stop:
            if not named and (after.startswith((" " + stop + " ", " " + stop + "\n")) or after == " " + stop):
                return None
        # Connecting word between the facility word and the name ("CHU de Rennes", "Hospital del Mar").
        conn = re.match(
            r"[ ](?:(?:de[ ]la|de[ ]l['’]|de[ ]los|de[ ]les|du|des|de|del|d['’]|van[ ]de|van|am|an[ ]der|im|in|"
            r"rechts[ ]der|links[ ]der|St\.|Sankt|Saint-|Sainte-|Santa|Sant|San|la|le|les|el|Maria|Marien)"
            r"(?:(?<=[-.'’])|(?![^\W\d_])))?[ ]?",  # a whole word ("Santa Elena", not "Sant" + "a Elena")
            text[pos:],
        )
        name_pos = pos + (conn.end() if conn else 0)
        if conn is not None and conn.group().strip().endswith("-"):
            name_pos = pos + conn.end()
        if conn is not None and conn.group().strip() == "" and not text.startswith(" ", pos):
            return None
        first = text[name_pos : name_pos + 40].split(" ")[0].strip(".,;:()")
        article = self.lang in ("es", "ca") and _RX["ES_ARTICLE_NAME_RE"].match(text, name_pos) is not None
        if first.lower() in words.facility_stop or (first.lower() in NOT_NAMES and not article):
            return None
        end = _name_after(text, name_pos, words.connectors, 4)
        if end <= name_pos:
            return None
        if conn is not None and conn.group().strip():
            # "Complejo Hospitalario de Navarra", "CHU de Rennes": the town ends the name.
            cut = _town_prefix(text, name_pos, end, _towns(self.lang))
            if cut > 0:
                end = cut
        if article:
            end = _article_name_end(text, name_pos, end)
        name = text[name_pos:end]
        if name.lower() in NOT_NAMES:
            return None
        # "Gemeinschaftspraxis am Markt": a German name that is a place keeps the facility word.
        placed = (
            self.lang == "de" and conn is not None and conn.group().strip() in ("am", "an der", "im", "in")
        )
        return (name_pos if generic and not placed else start), end

    def _town(
        self, text: str, m: re.Match[str], words: PlaceWords, towns: frozenset[str]
    ) -> Iterator[tuple[int, int, str]]:
        start, end = m.span("townv")
        if text[start:end] in towns or text[start:end].title() in towns:
            yield start, end, "CITY"


#: Trigger groups whose value group is the span: group -> (value group, label).
_VALUE_GROUPS: dict[str, tuple[str, str]] = {
    "zipf": ("zipfv", "ZIP"),
    "room": ("roomv", "ROOM"),
    "country": ("ctry", "COUNTRY"),
}
#: Trigger groups followed by a capitalised name: group -> label.
_NAME_AFTER: dict[str, str] = {"townf": "CITY", "org": "ORGANIZATION"}
_PlaceHandler = Callable[[PackPlaceRule, str, re.Match[str], PlaceWords], Iterator[tuple[int, int, str]]]
#: The other trigger groups -> the method of :class:`PackPlaceRule` that reads the place.
_PLACE_HANDLERS: dict[str, _PlaceHandler] = {
    "zip": PackPlaceRule._zip_town,
    "fac": PackPlaceRule._facility_hit,
    "fac_after": PackPlaceRule._facility_after,
    "town": PackPlaceRule._town_cue,
    "company": PackPlaceRule._company,
}


def _article_name_end(text: str, start: int, end: int) -> int:
    """End of "La Paz" in "La Paz Madrid": the article and at most two words, none a listed town."""
    words = list(re.finditer(r"\S+", text[start:end]))
    stop = 1
    for k, w in enumerate(words[1:3], start=1):
        if listed_town(w.group()):
            break
        stop = k
    return start + words[stop].end()


def _is_hospital(name: str) -> bool:
    return _RX["HOSPITAL_WORDS"].search(name) is not None


#: Spanish/Catalan address lines: a listed town or province in brackets ("Aranjuez (Madrid)", "(Madrid,
#: España)") or after a sentence period and closing its part of the line ("Hospital Carlos Haya. Málaga.
#: España", "s/n. Badajoz."), after a comma and before a semicolon ("de Juchitán, Oaxaca; radica"), or a
#: town's capital-letter short name after "en la"/"de la" ("radica en la CDMX").
_ES_TOWN_CUES = (
    r"|\((?=(?:{towns})(?:\)|,[ ][A-ZÁÉÍÓÚ]))|(?<=[\w)])\.[ ](?=(?:{towns})(?:[ \t]*(?:\n|\Z|\.(?:\s|\Z)|\()))"
    r"|(?<=\w),[ ](?=(?:{towns});)|(?<![\w\-])(?:en|de|desde)[ ]la[ ](?=[A-Z]{{3,}}(?![\w\-]))"
)
#: A country closing an address line, after the town, its postcode or "(Province)":
#: "28008 Madrid España E-mail: ...", "Jaén. España.", "Bogotá Colombia." (``{countries}``: the names).
_COUNTRY_LINE_END = r"(?<=[\w).])[ ]+(?=(?:{countries})(?:[ \t]*[.)\n]|[ \t]*\Z|[ ]+(?i:e-?mail|correo)))"


def _trigger_re(code: str, w: PlaceWords) -> re.Pattern[str]:
    towns = sorted(_towns(code), key=len, reverse=True)
    town_alt = trie_pattern(towns, ignore_case=False)
    cue_alt = trie_pattern(w.town_cues, ignore_case=False)
    field_alt = trie_pattern(w.town_fields, ignore_case=True)
    room_alt = trie_pattern(w.room_cues, ignore_case=False)
    org_alt = trie_pattern(w.org_fields, ignore_case=False)
    zip_sep = r",?[ ]" if code != "nl" else r"(?![\w])[ ]?"
    zip_follow = r"(?=,?[ ]?[A-ZÀ-ÖØ-Þ'])" if code != "nl" else r"(?:(?=[A-ZÀ-ÖØ-Þ'])|(?=[\n,.;)]|\Z))"
    parts = [
        rf"(?P<zip>(?<![\w.,/+\-])(?P<zipv>{w.zip_re})(?![\w.,/\-]\d){zip_sep}{zip_follow}[ ]?)",
        (
            rf"(?P<zipf>(?<![\w])(?:CP|C\.P\.|C\.P|Código[ ]postal|Codi[ ]postal|Code[ ]postal|PLZ|Postleitzahl|"
            rf"Postcode)[ \t]*[:.]?[ \t]*(?P<zipfv>{w.zip_re})(?![\w\-]))"
        ),
        rf"(?P<fac>(?<![\w\-])(?P<facw>{w.facility_re})(?![\w\-]))",
        (
            rf"(?P<town>(?:(?<![\w\-]){cue_alt}[ ]+|(?:^|(?<=\n))[ \t]*(?={town_alt},[ ]?(?:den[ ]|am[ ]|le[ ]|el[ ]|a[ ]|\d))|"
            rf"(?<=\w),[ ](?={town_alt}(?:[ \t]*(?:\n|\Z|,[ ]|\(|·|\||\.(?:\s|\Z))|[ ]-[ ]))|[ ]-[ ](?={town_alt})"
            rf"{_ES_TOWN_CUES.format(towns=town_alt) if code in ('es', 'ca') else ''})"
            rf"(?P<townv>{town_alt})(?![\w\-]))"
        ),
        rf"(?P<townf>(?:^|(?<=\n)|(?<=[ ]{{2}}))[ \t]*{field_alt}[ \t]*:[ \t]*(?=[A-ZÀ-ÖØ-Þ]))",
        rf"(?P<room>(?<![\w\-]){room_alt}[ \t:]*(?:Nr\.?[ ]?|n[º°o]\.?[ ]?)?(?P<roomv>(?:[A-Z]-?)?\d{{1,4}}(?:[.\-/]\d{{1,3}})?(?:-?[A-Z]\b|[a-z]\b)?)(?![\w.,]\d|[\w]))",
        (
            rf"(?P<company>(?<![\w\-.]){CAP}(?:[ ](?:{CAP}|y|i|e|et|und|en|&|asociados|associats|hijos|fills)){{0,5}}"
            r",?[ ](?:S\.L\.U\.|S\.L\.L\.|S\.L\.|S\.A\.U\.|S\.A\.|S\.Coop\.|S\.C\.|SLU|SL|SA|GmbH(?:[ ]&[ ]Co\.[ ]KG)?|"
            r"AG|e\.V\.|gGmbH|SARL|SAS|EURL|B\.V\.|N\.V\.|BV|NV|VOF|Ltd\.?)(?![\w]))"
        ),
        rf"(?P<org>(?<![\w\-]){org_alt}[ \t]*:?[ \t]+(?=[A-ZÀ-ÖØ-Þ]))",
    ]
    if code in ("es", "ca"):
        countries = trie_pattern(sorted(_countries(), key=len, reverse=True), ignore_case=False)
        parts.append(
            rf"(?P<country>(?:(?i:Pa[ií]s)(?:[ ]de[ ](?:nacimiento|origen|residencia|naixement|procedència|procedencia))?[ \t]*:[ \t]*|(?<=\w),[ ]|\((?=(?:{countries})\))|{_COUNTRY_LINE_END.format(countries=countries)}|(?<![\w\-])(?:a|en|de|desde|nacionalidad|resideix[ ]a|reside[ ]en|natural[ ]de|procedent[ ]de|procedente[ ]de|originari[ ]de|originario[ ]de|originaria[ ]de)[ ])(?P<ctry>{countries})(?![\w\-]))"
        )
    if w.facility_after != r"(?:)":
        parts.append(
            rf"(?P<fac_after>(?<![\w\-])(?:(?:St\.|Sint|Sankt|Sankt-)[ ]?)?{CAP}(?:[ ]{CAP}){{0,2}}{w.facility_after})(?![\w\-])"
        )
    return re.compile("|".join(parts), re.MULTILINE)


@cache
def _facility_word(code: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w\-])(?P<facw>{WORDS[code].facility_re})(?![\w\-])")


@dataclass(frozen=True)
class PackStreetRule(PatternRule):
    """Streets of one language; the whole street with its number is one STREET span."""

    lang: str = "de"

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        for m, _label in self.matches(text):
            if "prep" in m.re.groupindex and m.group("prep") is not None:
                yield m.start("prep"), m.end("pn"), "STREET"
                continue
            span = self._street(text, m)
            if span is not None:
                yield span[0], span[1], "STREET"

    def _street(self, text: str, m: re.Match[str]) -> tuple[int, int] | None:
        """The street of a match, or None when a street without number lacks its cue."""
        start, end = m.span("st")
        if self.lang in ("es", "ca") and re.match(r"C\.[A-Z]\b", text[start : start + 4]):
            return None  # "C.C. 40.575.467" (cédula), "C.P. 28001" (postcode)
        num = m.group("n") if "n" in m.re.groupindex else None
        if num is None:
            return None if self._bare_rejected(text, start, end) else (start, end)
        if self.lang in ("de", "nl", *NORDIC_LANGUAGES):
            end = m.end("n")
        elif self.lang in ("es", "ca"):
            tail = _RX["ES_ADDRESS_TAIL_RE"].match(text, end)
            end = tail.end() if tail is not None else end
        return start, end

    def _bare_rejected(self, text: str, start: int, end: int) -> bool:
        """A street without number that is no street here (no cue, or a field label after it)."""
        if _RX["FIELD_LABEL_RE"].match(text, end):
            return True  # "Avda NºCol: 13 13 5201": a surname before a field label, no street
        if self.lang in ("de", "nl", *NORDIC_LANGUAGES):
            return not _street_cue(text, start)
        if self.lang in ("es", "ca") and text[start].islower() and text[start:end].split()[-1].islower():
            return True  # "plaza de respiro", "camino de casa": all lower case and no number, no street
        return self.lang == "fr" and not text[start].islower() and not _street_cue(text, start)


def _street_cue(text: str, start: int) -> bool:
    return _RX["STREET_CUE_RE"].search(text, max(0, start - 20), start) is not None or start == 0


@cache
def pack_location_rules(lang: str) -> tuple[PatternRule, ...]:
    """The LOCATION rules of ``lang`` (``de``, ``fr``, ``nl``, ``es``, ``ca``; empty for others)."""
    return pack_rules(WORDS, _location_rules, lang)


def _location_rules(code: str, words: PlaceWords) -> tuple[PatternRule, ...]:
    return (
        PackStreetRule("STREET", re.compile(rf"(?<![\w\-]){words.street_re}"), name=f"street_{code}", score=0.8, not_after=r"[\w\-]", lang=code),
        PackPlaceRule("CITY",   _trigger_re(code, words),                     name=f"places_{code}", score=0.8, extra_labels=("ZIP", "HOSPITAL", "ORGANIZATION", "ROOM", "COUNTRY"), lang=code),
    ) + ((_ADDRESS_FIELD_RULE, _POSTCODE_FIELD_RULE) if code in ("es", "ca") else ()) + ((_PAYER_RULE_DE, _EMPLOYER_RULE_DE) if code == "de" else ()) + nordic_place_rules(code) + german_place_rules(code)  # fmt: skip


#: The employer after a German job phrase: "arbeitet als Busfahrer bei den Stadtwerken Ulm", "arbeitet seit
#: 22 Jahren als Bäcker bei Backhaus Meyer" (a work word first, then a run of capitalised words; "bei der
#: Firma" is an org field). "als Folge bei Diabetes" has no work word.
_EMPLOYER_RULE_DE = PatternRule(
    "ORGANIZATION",
    re.compile(
        r"\b(?:arbeitet|arbeitete|tätig|beschäftigt|angestellt|zuletzt|gearbeitet)\b[^\n;]{0,30}?\bals[ \t]+[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜa-zäöüß][a-zäöüß]+)*[ \t]+bei[ \t]+(?:der[ \t]+|dem[ \t]+|den[ \t]+)?"
        r"(?!(?:Firma|Dr|Prof|Herrn?|Frau|uns|Bedarf)\b)(?P<o>[A-ZÄÖÜ][\w\-]*(?:[ ](?:[A-ZÄÖÜ][\w\-]*|&)){0,3})"
        r"(?![\w\-])"
    ),
    group="o",
    name="employer_de",
    score=0.75,
)


#: German, Austrian and Swiss health, pension and accident insurers by name, anywhere ("die
#: Kostenzusage der Barmer", "Auftraggeber: IKK classic", "Berufsgenossenschaft Bau"): a closed list
#: of public bodies, written without a cue in reports to and from them.
_PAYER_RULE_DE = PatternRule(
    "ORGANIZATION",
    re.compile(
        r"(?<![\w\-])(?:AOK(?:[ ](?:Bayern|Baden-Württemberg|Niedersachsen|Nordost|Nordwest|PLUS|Plus|Hessen|"
        r"Rheinland/Hamburg|Rheinland-Pfalz/Saarland|Sachsen-Anhalt|Bremen/Bremerhaven))?|Barmer(?:[ ]GEK)?|"
        r"Techniker[ ]Krankenkasse|DAK-Gesundheit|IKK[ ](?:classic|gesund[ ]plus|Südwest|Brandenburg[ ]und[ ]Berlin)|"
        r"Kaufmännische[ ]Krankenkasse|Hanseatische[ ]Krankenkasse|Knappschaft(?:-Bahn-See)?|"
        r"Deutsche[ ]Rentenversicherung(?:[ ](?:Bund|Knappschaft-Bahn-See|Nord|Mitteldeutschland|Westfalen|"
        r"Rheinland(?:-Pfalz)?|Baden-Württemberg|Bayern[ ]Süd|Nordbayern|Hessen|Schwaben|Oldenburg-Bremen|"
        r"Braunschweig-Hannover|Berlin-Brandenburg|Saarland))?|Berufsgenossenschaft[ ](?:[A-ZÄÖÜ][\w\-]*"
        r"(?:[ ](?:und|für)[ ][A-ZÄÖÜ][\w\-]*)?)|BG[ ](?:Bau|ETEM|RCI|BAU|Verkehr|Holz[ ]und[ ]Metall)|"
        r"Unfallkasse[ ][A-ZÄÖÜ][\w\-]*|Österreichische[ ]Gesundheitskasse|ÖGK|AUVA|Suva|SUVA)(?![\w\-])"
    ),
    name="payers_de",
    score=0.85,
)


#: A Spanish/Catalan address field holds the whole street line, lower-case words and floor included
#: ("Domicilio: Av. duque de pastrana 96, 2D."): one STREET span up to the line's end (with a number
#: or "s/n"; the closing period and spaces left out).
_ADDRESS_FIELD_RULE = PatternRule(
    "STREET",
    re.compile(
        r"(?im)^[ \t]*(?:domicilio|dirección|direccion|domicili|adreça)[ \t]*:[ \t]*"
        r"(?P<v>[^\n:@]{0,60}?(?:\d|s/n)[^\n:@]{0,30}?)(?:[ \t.]*$|(?=,[ ]+(?:Col\.|C\.P\.|CP[ ]|barrio[ ]|\d{5}[ ])|[ ]{3}|\t))"
    ),
    group="v",
    name="address_field_es",
    score=0.8,
)
#: The value of a "CP:" header line, whatever its form ("CP: 80 100", "CP: 110151."): a postcode.
_POSTCODE_FIELD_RULE = PatternRule(
    "ZIP",
    re.compile(
        r"(?m)^[ \t]*(?:CP|C\.P\.|Código[ ]postal|Codi[ ]postal)[ \t]*:[ \t]*(?P<v>[^\n:@]{1,20}?)[ \t.]*$"
    ),
    group="v",
    name="postcode_field_es",
    score=0.8,
)
