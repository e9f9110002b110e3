"""Rules of the Spanish and Catalan packs for Spanish hospital notes (``es``, ``ca``): places and employers.

The Spanish pack is mostly data (``resources/langpacks/{packs,names,places}.json``, sections ``es`` and
``ca``) read by the shared engine (:mod:`.intl`, :mod:`.intl_names`, :mod:`.intl_places`), with the forms
of Latin American and MEDDOCAN-unlike notes in :mod:`.intl_places_es`. This module adds the forms of the
ward, nursing and discharge notes of a Spanish hospital that need more than a word list, wired in the way
:mod:`.intl_german` is (:func:`spanish_extra_place_rules` returns nothing for other languages; the
Spanish place hook :func:`.intl_places_es.spanish_place_rules` adds them); the dates are in
:mod:`.intl_spanish_dates`, the names in :mod:`.intl_spanish_names`:

* **hospital buildings**: ``Pabellón B``, ``Pabellón A 3ª`` (the floor left out), ``Edificio Cervera``,
  ``Torre C``, ``Torre Almendro``; not ``Edificio Principal`` or ``Pabellón Quirúrgico`` (:func:`generic_word`);
* **named units and wards**: ``Unidad Los Almendros``, ``Unidad Alameda``, ``Sala San Roque``; not ``Unidad Coronaria``, ``Unidad de
  Cuidados Intensivos`` or ``Unidad Ictus``;
* **hospital acronyms** (``HUV``, ``CHV``): opening a header before a service word (``HUV - SERVICIO DE
  URGENCIAS``, ``CHV - BLOQUE QUIRÚRGICO``), after a unit word (``URGENCIAS HUV - BOX VITAL 2``), in
  brackets after a hospital's name (``Hospital Universitario de Valdemora (CHV)``), after a ward in
  brackets (``(Alameda, HUV)``, the ward taken too), and the initials of a hospital named in the same
  note (``Complejo Hospitalario Valdemora`` makes ``CHV`` a hospital wherever it stands);
* **towns without a list** after a place phrase (``a la altura de Titulcia``, ``término municipal de X``,
  ``cerca de Chinchón``, ``alcaldía Cuauhtémoc``) and before a full date closing a line or a cell (``Valdemora, 15 de marzo de
  2024``);
* **the employer** after a work verb or a former job (``trabajando en la Cooperativa Hortícola del
  Tajo``, ``antes albañil en Construcciones Hnos. Sagra``; not a town, a sector or a hospital unit).
"""

from __future__ import annotations

import re
from functools import lru_cache

from phiscrub.calendar import MONTH_NAMES
from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.intl_places import listed_town
from phiscrub.detect.rules.intl_places_data import CAP, WORDS

__all__ = ["generic_word", "spanish_extra_place_rules"]

_ARTICLE = r"(?:Los|Las|La|El|Els|Les|L['’])"

#: Words after a building or unit word that name a kind of building or unit, not one.
_GENERIC = frozenset(
    (
        "principal", "central", "norte", "sur", "este", "oeste", "nord", "est", "oest", "general", "nuevo",
        "nueva", "antiguo", "antigua", "anexo", "annex", "docente", "técnico", "administrativo", "quirúrgico",
        "quirúrgica", "materno-infantil", "maternal", "infantil", "polivalente", "asistencial", "consultas",
        "urgencias", "hospitalización", "hospitalització", "ictus", "dolor", "mama", "sueño", "memoria",
        "columna", "raquis", "mano", "rodilla", "cadera", "hombro", "pie", "lípidos", "tabaquismo",
        "trastornos", "demencias", "heridas", "crónicos", "agudos", "corta", "media", "larga", "estancia",
        "día", "dia", "trasplante", "ciencias", "investigación", "docencia", "gobierno", "agudas", "medicina",
        "cirugía", "cuidados", "críticos", "intensivos", "coronarios", "paliativos", "ucias", "básica", "mixta",
        "satélite", "móvil", "medicalizada", "vital", "respiratorios", "semicríticos", "hospitalaria",
        "domiciliaria", "psiquiátrica", "obstétrica", "pediátrica", "neonatal", "neonatos", "quemados",
        "grandes", "quemados", "funcional", "metabólica", "geriátrica", "clínica", "médica", "conjunta",
        "especial", "especiales", "integral", "integrada",
    )
)  # fmt: skip


def generic_word(word: str) -> bool:
    """A word that names a kind of unit or building (``Coronaria``, ``Principal``), not a proper name."""
    low = word.lower()
    return low in _GENERIC or _RX["GENERIC_END_RE"].search(low) is not None


def _named(words: str) -> bool:
    """Every word of a name after an article is a proper name, not a kind of unit."""
    parts = [w for w in words.split() if not re.fullmatch(_ARTICLE, w)]
    return bool(parts) and not any(generic_word(w) for w in parts)


def _building_ok(m: re.Match[str]) -> bool:
    """A building letter after any building word; a name only after ``Pabellón``/``Edificio``."""
    name = m.group("n")
    if name is None:
        return True
    return (
        m.group("b").startswith(("Pab", "PAB", "Pav", "Edif", "EDIF", "Torre"))
        and len(name) > 3
        and _named(name)
    )


def _unit_ok(m: re.Match[str]) -> bool:
    return _named(m.group("u"))


# ------------------------------------------------------------------------------------------------
# Hospital acronyms
#: Clinical and service abbreviations with the shape of a hospital's acronym.
_NOT_ACRONYMS = frozenset(
    (
        "HTA", "HDA", "HBP", "HBPM", "HIV", "HPV", "HDL", "HCG", "HLA", "HVI", "HSA", "HIC", "HTP", "HTIC",
        "HH", "HC", "HCE", "HD", "HDM", "HDQ", "HDO", "HDFVVC", "HFNC", "HGT", "HBA", "HB", "HMG", "HSV", "HVS",
        "HUS", "HELLP", "HEMS", "HAD", "HAP", "HPB", "HBV", "HCV", "HNF", "HZ", "HX", "HOMA", "HHS", "HCO",
        "CHOP", "CHC", "CH", "CHF", "HR", "RH", "HS", "SHU", "HAV", "URG", "UCI", "UVI", "REA", "BOX", "SVA",
        "SVB", "ECG", "TAC", "TC", "RM", "CT", "MIR", "FEA", "MAP", "CS", "CAP", "CE", "IQ", "QX", "AP", "IC",
        "MI", "CIR", "ORL", "COT", "URO",
    )
)  # fmt: skip
_FACILITY_NAME = (
    rf"(?:{WORDS['es'].facility_re})(?:[ ](?:de[ ]la|de[ ]los|del|de|la|el|y|i|d['’]))?(?:[ ]{CAP}){{1,4}}"
)


def _hospital_acronym(acr: str) -> bool:
    return "H" in acr and acr not in _NOT_ACRONYMS


def _header_acronym_ok(m: re.Match[str]) -> bool:
    return _hospital_acronym(m.group("a") or m.group("b"))


def _name_acronym_ok(m: re.Match[str]) -> bool:
    return m.group("a") not in _NOT_ACRONYMS


def _ward_acronym_ok(m: re.Match[str]) -> bool:
    return _hospital_acronym(m.group("a")) and _named(m.group("w"))


_PARTICLES = frozenset(("de", "la", "los", "las", "del", "el", "y", "i", "d'", "d’"))


@lru_cache(maxsize=8)
def _note_acronyms(text: str) -> frozenset[str]:
    """The initials of the hospitals named in a note (``Complejo Hospitalario Valdemora`` -> ``CHV``)."""
    found: set[str] = set()
    for m in _RX["FACILITY_IN_NOTE_RE"].finditer(text):
        words = [w for w in re.split(r"[ ]", m.group()) if w.lower() not in _PARTICLES]
        if len(words) >= 2:
            found.add("".join(w[0].upper() for w in words))
    return frozenset(a for a in found if len(a) >= 3 and a not in _NOT_ACRONYMS)


def _note_acronym_ok(m: re.Match[str]) -> bool:
    return m.group() in _note_acronyms(m.string)


#: Capitalised words after a place phrase that are no town ("a la altura de Urgencias").
_NOT_TOWNS = frozenset(
    (
        "Hospital", "Urgencias", "Centro", "Servicio", "Unidad", "Planta", "Residencia", "Gobierno", "Hacienda",
        "Sanidad", "Salud", "Trabajo", "Servicios", "Seguridad", "Social", "Protección", "Policía", "Guardia",
        "Tráfico", "Treitz", "Hunter", "Ranvier", "Vater", "Oddi", "Calot", "Morrison", "Douglas", "Retzius",
        "Louis", "Hartmann", "Meckel", "Killian", "Bichat", "Scarpa", "Valsalva", "Navidad", "Nadal", "Pascua",
        "Semana", "Reyes", "Año", "Nochevieja", "Nochebuena",
    )
)  # fmt: skip


def _place_phrase_ok(m: re.Match[str]) -> bool:
    first = m.group("t").split(" ")[0]
    return (
        first not in _NOT_TOWNS
        and first.title() not in _NOT_DATELINE
        and first.lower() not in _MONTH_WORDS
        and not generic_word(first)
    )


_MONTH_WORDS = frozenset(w for lang in ("es", "ca") for mo in MONTH_NAMES[lang] for w in mo)
_MONTHS_ES = trie_pattern(sorted(_MONTH_WORDS))

_RX = pattern_data("intl_spanish", globals())

_NOT_DATELINE = frozenset(
    (
        "Fecha", "Data", "Hoy", "Avui", "Firmado", "Fdo", "Signat", "Alta", "Ingreso", "Ingrés", "Revisión",
        "Cita", "Actualizado", "Lunes", "Martes", "Miércoles", "Jueves", "Viernes", "Sábado", "Domingo",
        "Dilluns", "Dimarts", "Dimecres", "Dijous", "Divendres", "Dissabte", "Diumenge", "Informe", "Emitido",
        "Visto", "Validado", "Impreso",
    )
)  # fmt: skip


def _dateline_ok(m: re.Match[str]) -> bool:
    first = m.group("t").split(" ")[0]
    return first.title() not in _NOT_DATELINE and first not in _NOT_TOWNS and not generic_word(first)


#: Sectors and places of a hospital after a work phrase, not an employer ("trabaja en Urgencias").
_NOT_EMPLOYERS = frozenset(
    (
        "Urgencias", "Urgències", "UCI", "Planta", "Quirófano", "Consultas", "Hostelería", "Construcción",
        "Educación", "Enseñanza", "Limpieza", "Agricultura", "Sanidad", "Banca", "Comercio", "Transporte",
        "Atención", "Primaria", "Casa", "Domicilio", "España", "Madrid", "Francia",
    )
)  # fmt: skip


def _employer_ok(m: re.Match[str]) -> bool:
    org = m.group("o")
    first = org.split(" ")[0]
    if first in _NOT_EMPLOYERS or listed_town(org) or listed_town(first):
        return False
    return " " in org or not generic_word(first)  # "en Mercadona"; not "en Hostelería"


def spanish_extra_place_rules(lang: str) -> tuple[PatternRule, ...]:
    """The extra LOCATION rules of Spanish and Catalan (none for other languages; see the module doc)."""
    if lang not in ("es", "ca"):
        return ()
    return (
        PatternRule("HOSPITAL",     _RX["BUILDING_RE"],       group="b",        validator=_building_ok,        score=0.8,  name=f"building_es_{lang}"),
        PatternRule("DEPARTMENT",   _RX["UNIT_RE"],                             validator=_unit_ok,            score=0.75, name=f"named_unit_es_{lang}"),
        PatternRule("HOSPITAL",     _RX["HEADER_ACRONYM_RE"], group=("a", "b"), validator=_header_acronym_ok,  score=0.75, name=f"header_acronym_es_{lang}"),
        PatternRule("HOSPITAL",     _RX["NAME_ACRONYM_RE"],   group="a",        validator=_name_acronym_ok,    score=0.8,  name=f"name_acronym_es_{lang}"),
        PatternRule("HOSPITAL",     _RX["WARD_ACRONYM_RE"],   group="a",        validator=_ward_acronym_ok,    score=0.75, name=f"ward_acronym_es_{lang}"),
        PatternRule("DEPARTMENT",   _RX["WARD_ACRONYM_RE"],   group="w",        validator=_ward_acronym_ok,    score=0.75, name=f"ward_before_acronym_es_{lang}"),
        PatternRule("HOSPITAL",     _RX["ANY_ACRONYM_RE"],                      validator=_note_acronym_ok,    score=0.75, name=f"note_acronym_es_{lang}"),
        PatternRule("CITY",         _RX["PLACE_PHRASE_RE"],   group="t",        validator=_place_phrase_ok,    score=0.75, name=f"place_phrase_es_{lang}"),
        PatternRule("CITY",         _RX["DATELINE_RE"],       group="t",        validator=_dateline_ok,        score=0.75, name=f"dateline_town_es_{lang}"),
        PatternRule("ORGANIZATION", _RX["EMPLOYER_RE"],       group="o",        validator=_employer_ok,        score=0.75, name=f"employer_es_{lang}"),
    )  # fmt: skip
