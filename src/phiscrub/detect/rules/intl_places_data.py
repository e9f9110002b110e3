"""Words of the pack LOCATION rules (:mod:`.intl_places`): one :class:`PlaceWords` per language,
read from ``phiscrub/resources/langpacks/places.json`` (their patterns use the pieces below as
``{UPPER}``, ``{LETTER}``, ``{CAP}``, ``{HOUSE_NUMBER}``), and the word sets that end or reject a
place or facility name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from phiscrub.detect.rules.pack_records import load_records

#: Any letter; an upper-case letter; a capitalised name word (hyphenated parts, apostrophes:
#: "Garmisch-Partenkirchen", "L'Hospitalet"); a house number ("12a", "3-5").
LETTER = r"[^\W\d_]"
UPPER = r"[A-ZÀ-ÖØ-Þ]"
CAP = rf"(?:{UPPER}['’])?{UPPER}{LETTER}*(?:['’]{LETTER}+)?(?:-{LETTER}+)*"
HOUSE_NUMBER = r"\d{1,4}(?:[ ]?[a-zA-Z](?![\w]))?(?:[ ]?[-/][ ]?\d{1,4}[a-z]?)?"


#: Capitalised words that are also towns of the lists but mostly ordinary words in notes.
TOWN_WORDS = frozenset(
    [
        "Essen",
        "Halle",
        "Hof",
        "Weil",
        "Bad",
        "Lauf",
        "Wesel",
        "Tours",
        "Sens",
        "Nice",
        "Gap",
        "Lens",
        "Mons",
        "Dole",
        "Sion",
        "Pau",
        "Bar",
        "Ham",
        "Born",
        "Kiel",
        "Mark",
        "Horn",
        "Rain",
        "Zell",
        "Marktl",
        "Wald",
        "Berg",
        "Au",
        "Lage",
        "Laer",
        "Werne",
        "Wehr",
        "Schwalbe",
        "Ede",
        "Best",
        "Beek",
        "Baarn",
        "Hoorn",
        "Weert",
        "Stein",
        "Oss",
        "Putten",
        "Epe",
        "Son",
        "Gemert",
        "Mol",
        "Hamme",
        "Lier",
        "Brecht",
        "Bree",
        "Boom",
        "Lede",
        "Geel",
        "Staden",
        "Deinze",
        "Asse",
        "Wijk",
        "Lot",
        "Vitry",
        "Ronse",
        "Zele",
        "Vise",
        "Ans",
        "Hal",
        "Mandeure",
        "Arles",
        "Bourges",
        "Valence",
    ]
)


@dataclass(frozen=True)
class PlaceWords:
    """Per-language words of the place rules."""

    zip_re: str
    street_re: str
    facility_re: str
    facility_after: str
    town_cues: tuple[str, ...]
    town_fields: tuple[str, ...]
    room_cues: tuple[str, ...]
    org_fields: tuple[str, ...]
    connectors: tuple[str, ...]
    facility_stop: tuple[str, ...]


#: Words by language (``resources/langpacks/places.json``; Catalan shares the Spanish words).
WORDS: dict[str, PlaceWords] = load_records(
    "places",
    PlaceWords,
    templates={"UPPER": UPPER, "LETTER": LETTER, "CAP": CAP, "HOUSE_NUMBER": HOUSE_NUMBER},
)

#: Words that end a place or facility name: the next address part, a contact label, a unit.
NAME_END_WORDS = frozenset(
    [
        "Carrera",  # "Hospital Militar Central Carrera 3 # 49-00": a Colombian street starts
        "Pso",
        "Calle",
        "C",
        "Avda",
        "Avenida",
        "Av",
        "Paseo",
        "Pº",
        "Plaza",
        "Pl",
        "Carrer",
        "Avinguda",
        "Passeig",
        "Plaça",
        "Ctra",
        "Carretera",
        "Camino",
        "Camí",
        "Rambla",
        "Ronda",
        "Rue",
        "Avenue",
        "Boulevard",
        "Bd",
        "Place",
        "Chemin",
        "Allée",
        "Route",
        "Quai",
        "Straße",
        "Strasse",
        "Str",
        "Weg",
        "Platz",
        "Allee",
        "Straat",
        "Laan",
        "Tel",
        "Tfno",
        "Telf",
        "Teléfono",
        "Telefono",
        "Tél",
        "Telefon",
        "Telefoon",
        "Fax",
        "Telefax",
        "Email",
        "E-mail",
        "Mail",
        "Correo",
        "Courriel",
        "Tlf",
        "Móvil",
        "Servicio",
        "Unidad",
        "Sección",
        "Departamento",
        "Dpto",
        "Servei",
        "Unitat",
        "Service",
        "Unité",
        "Abteilung",
        "Station",
        "Afdeling",
        "España",
        "Spain",
        "Espagne",
        "Deutschland",
        "Germany",
        "Frankreich",
        "France",
        "Nederland",
        "Belgique",
        "België",
        "Schweiz",
        "Suisse",
        "Österreich",
        "CEDEX",
        "Cedex",
        "Postfach",
        "BP",
        "CS",
    ]
)

#: Sentence words that may stand before a company name ("Trabajaba en X S.L.").
COMPANY_LEAD = frozenset(
    [
        "trabajaba",
        "trabaja",
        "trabajó",
        "treballava",
        "treballa",
        "arbeitet",
        "arbeitete",
        "travaille",
        "travaillait",
        "werkt",
        "werkte",
        "bei",
        "firma",
        "empresa",
        "en",
        "la",
        "el",
        "los",
        "las",
        "die",
        "der",
        "das",
        "le",
        "les",
        "de",
        "het",
        "chez",
        "für",
        "von",
        "vom",
        "zur",
        "zum",
        "con",
        "per",
        "por",
        "para",
        "mútua",
        "mutua",
        "aseguradora",
        "a",
        "al",
        "à",
        "y",
        "i",
        "und",
        "et",
        "krankenkasse",
        "kasse",
        "firma",
        "arbeitgeber",
        "versicherung",
        "zwischenbericht",
        "bericht",
        "an",
    ]
)

#: Service words that are no part of the name after them ("Pflegedienst Sonnenschein"). German care homes and
#: stations are named with their word ("Seniorenzentrum Lindenhof", "Diakoniestation Elztal"), and so is a
#: practice named by a place ("Gemeinschaftspraxis am Markt", see ``intl_places._facility``).
GENERIC_FACILITY = re.compile(
    r"Gemeinschaftspraxis|"
    r"Radiologische Gemeinschaftspraxis|Pathologie|Labor|Pflegedienst|Dialysezentrum|"
    r"Laboratoire|Cabinet de radiologie|Cabinet d'imagerie|Centre d'imagerie|Centre de radiologie|"
    r"Centre médico-psychologique|Centre de dialyse|EHPAD|Ehpad|Résidence|Association|association|"
    r"Huisartsenpraktijk|Huisartsenpost|Thuiszorg|Kraamzorg|Zorggroep|Verpleeghuis|verpleeghuis|Zorgcentrum|"
    r"Woonzorgcentrum|Residencia|Residència|Mútua|Mutua|Fundación|Fundació"
)

NOT_TOWNS = frozenset(
    [
        "einheiten",
        "zellen",
        "stück",
        "euro",
        "eur",
        "ie",
        "ml",
        "mg",
        "personen",
        "patienten",
        "fälle",
        "jahre",
        "tage",
        "schritte",
        "punkte",
        "unités",
        "patients",
        "euros",
        "cas",
        "jours",
        "eenheden",
        "patiënten",
        "gevallen",
        "unidades",
        "pacientes",
        "casos",
    ]
)

NOT_NAMES = frozenset(
    [
        "médica",  # "Clínica Médica": the internal-medicine ward of an Argentine hospital
        "quirúrgica",
        "geriátrica",  # "la Residencia Geriátrica": a kind of home, not its name
        "geriátrico",
        "für",
        "der",
        "die",
        "das",
        "des",
        "und",
        "mit",
        "am",
        "im",
        "in",
        "zu",
        "von",
        "vom",
        "zum",
        "zur",
        "a",
        "au",
        "aux",
        "à",
        "en",
        "et",
        "de",
        "du",
        "des",
        "la",
        "le",
        "les",
        "pour",
        "voor",
        "van",
        "het",
        "een",
        "en",
        "medizin",
        "innere",
        "station",
        "ambulanz",
        "notaufnahme",
        "verwaltung",
        "jour",
        "semaine",
        "nuit",
        "universitaire",
        "général",
        "générale",
        "del",
        "de",
        "la",
        "el",
        "para",
        "y",
        "servicio",
        "unidad",
        "planta",
        "día",
    ]
)
