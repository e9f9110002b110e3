"""Rules of the Spanish and Catalan packs for Spanish hospital notes (``es``, ``ca``): places and employers.

The Spanish pack is mostly data (``resources/langpacks/{packs,names,places}.json``, sections ``es`` and
``ca``) read by the shared engine (:mod:`.intl`, :mod:`.intl_names`, :mod:`.intl_places`), with the forms
of Latin American and MEDDOCAN-unlike notes in :mod:`.intl_places_es`. This module adds the forms of the
ward, nursing and discharge notes of a Spanish hospital that need more than a word list, wired in the way
:mod:`.intl_german` is (:func:`spanish_extra_place_rules` returns nothing for other languages; the
Spanish place hook :func:`.intl_places_es.spanish_place_rules` adds them); the dates are in
:mod:`.intl_spanish_dates`, the names in :mod:`.intl_spanish_names`:

* **hospital buildings**: ``Pabellón B``, ``Pabellón A 3ª`` (the floor left out), ``Edificio Cervera``,
  ``Torre C``; not ``Edificio Principal`` or ``Pabellón Quirúrgico`` (:func:`generic_word`);
* **named units**: ``Unidad Los Almendros``, ``Unidad Alameda``; not ``Unidad Coronaria``, ``Unidad de
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
from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.intl_places import listed_town
from phiscrub.detect.rules.intl_places_data import CAP, WORDS

__all__ = ["generic_word", "spanish_extra_place_rules"]

_UP = "A-ZÁÉÍÓÚÑÜÀÈÒÏÇ"
_LOW = "a-záéíóúñüàèòïç"
#: A Title-case word ("Alameda", "Almendros", "Materno-Infantil").
_TITLE = rf"[{_UP}][{_LOW}]+(?:-[{_UP}{_LOW}][{_LOW}]+)*"
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
#: Endings of Spanish and Catalan adjectives and abstract nouns, never of a ward or building name here.
_GENERIC_END_RE = re.compile(
    r"(?:aria|ario|arios|arias|al|ales|ar|ares|ica|ico|icas|icos|iva|ivo|ivas|ivos|osa|oso|ente|entes|ante|"
    r"antes|ble|bles|ción|ciones|sión|siones|dad|dades|logía|ía|ías|ada|ado|ados|adas|ida|ido|idos|idas|ista|"
    r"istas|ismo|itis|osis|ció|ions|itat)\Z"
)


def generic_word(word: str) -> bool:
    """A word that names a kind of unit or building (``Coronaria``, ``Principal``), not a proper name."""
    low = word.lower()
    return low in _GENERIC or _GENERIC_END_RE.search(low) is not None


def _named(words: str) -> bool:
    """Every word of a name after an article is a proper name, not a kind of unit."""
    parts = [w for w in words.split() if not re.fullmatch(_ARTICLE, w)]
    return bool(parts) and not any(generic_word(w) for w in parts)


# ------------------------------------------------------------------------------------------------
# Buildings and units
#: "Pabellón B", "Torre C", "Edificio Cervera", "Pabellón A 3ª" (the building only); not "Edificio Ciencias
#: de la Salud" (a name that goes on with "de" describes the building) or "Edificio No.7".
_BUILDING_RE = re.compile(
    rf"(?<![\w\-])(?P<b>(?:Pabellón|Pabellon|PABELLÓN|Pavelló|Edificio|EDIFICIO|Edifici|Torre|TORRE|Módulo|Bloque)"
    rf"[ ](?:[A-Z]\d?(?![\w\-])|(?P<n>{_TITLE}(?:[ ]{_TITLE})?)(?![\w\-]|\.\d|[ ](?:de|del|d['’])[ ])))"
)


def _building_ok(m: re.Match[str]) -> bool:
    """A building letter after any building word; a name only after ``Pabellón``/``Edificio``."""
    name = m.group("n")
    if name is None:
        return True
    return m.group("b").startswith(("Pab", "PAB", "Pav", "Edif", "EDIF")) and len(name) > 3 and _named(name)


#: "Unidad Los Almendros", "Unidad Alameda, planta 5ª", "Unitat Les Moreres": a ward named by a name (not
#: one that goes on with "de": "Unidad Clínica de Gestión").
_UNIT_RE = re.compile(
    rf"(?<![\w\-])(?:Unidad|Unitat)[ ](?P<u>(?:{_ARTICLE}[ ]?)?{_TITLE}(?:[ ]{_TITLE})?)"
    r"(?![\w\-]|[ ](?:de|del|d['’])[ ])"
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
_ACR = r"[A-Z]{2,6}"
#: Service and unit words after a header's acronym and dash: "HUV - SERVICIO DE URGENCIAS".
_SERVICE_AFTER = (
    r"(?i:servicio|servei|unidad|unitat|bloque|área|àrea|urgencias|urgències|planta|hospital|consultas|"
    r"consultes|pabellón|pavelló|edificio|edifici|quirófano|quiròfan|centro|centre|medicina|cirugía|cirurgia)"
)
_UNIT_BEFORE = (
    r"(?:URGENCIAS|Urgencias|URGÈNCIES|Urgències|UCI|REA|UVI|QUIRÓFANO|Quirófano|CONSULTAS|Consultas|"
    r"PLANTA|Planta)"
)
_HEADER_ACRONYM_RE = re.compile(
    rf"(?m)(?:^[ \t]*(?P<a>{_ACR})(?=[ \t]+[-–][ \t]+{_SERVICE_AFTER})"
    rf"|(?<![\w\-]){_UNIT_BEFORE}[ ](?P<b>{_ACR})(?=[ \t]+[-–][ \t]|[ \t]*$|[.,;)](?:\s|\Z)))"
)
_FACILITY_NAME = (
    rf"(?:{WORDS['es'].facility_re})(?:[ ](?:de[ ]la|de[ ]los|del|de|la|el|y|i|d['’]))?(?:[ ]{CAP}){{1,4}}"
)
#: "Hospital Universitario de Valdemora (CHV)": an acronym in brackets after a hospital's name.
_NAME_ACRONYM_RE = re.compile(rf"{_FACILITY_NAME}[ ]\((?P<a>{_ACR})\)")
#: "(Alameda, HUV)": a ward and the hospital's acronym in brackets.
_WARD_ACRONYM_RE = re.compile(rf"\((?P<w>{_TITLE}(?:[ ]{_TITLE})?),[ ](?P<a>{_ACR})\)")


def _hospital_acronym(acr: str) -> bool:
    return "H" in acr and acr not in _NOT_ACRONYMS


def _header_acronym_ok(m: re.Match[str]) -> bool:
    return _hospital_acronym(m.group("a") or m.group("b"))


def _name_acronym_ok(m: re.Match[str]) -> bool:
    return m.group("a") not in _NOT_ACRONYMS


def _ward_acronym_ok(m: re.Match[str]) -> bool:
    return _hospital_acronym(m.group("a")) and _named(m.group("w"))


_FACILITY_IN_NOTE_RE = re.compile(
    rf"(?i:hospital|complejo[ ]hospitalario|complexo[ ]hospitalario|consorci|corporació|clínica|clinica)"
    rf"(?:[ ](?:(?i:de[ ]la|de[ ]los|del|de|la|el|y|i|d['’]))?(?:{CAP})){{1,5}}"
)
_PARTICLES = frozenset(("de", "la", "los", "las", "del", "el", "y", "i", "d'", "d’"))


@lru_cache(maxsize=8)
def _note_acronyms(text: str) -> frozenset[str]:
    """The initials of the hospitals named in a note (``Complejo Hospitalario Valdemora`` -> ``CHV``)."""
    found: set[str] = set()
    for m in _FACILITY_IN_NOTE_RE.finditer(text):
        words = [w for w in re.split(r"[ ]", m.group()) if w.lower() not in _PARTICLES]
        if len(words) >= 2:
            found.add("".join(w[0].upper() for w in words))
    return frozenset(a for a in found if len(a) >= 3 and a not in _NOT_ACRONYMS)


_ANY_ACRONYM_RE = re.compile(rf"(?<![\w\-/]){_ACR}(?![\w\-/])")


def _note_acronym_ok(m: re.Match[str]) -> bool:
    return m.group() in _note_acronyms(m.string)


# ------------------------------------------------------------------------------------------------
# Towns
#: A place's name: capitalised words, not running into a field word ("Benito Juárez Código Postal").
_PLACE_WORD = (
    rf"(?!(?:Código|Codi|Postal|Teléfono|Telèfon|Tel|Tfno|Correo|Email|E-mail|España|México)\b){CAP}"
)
_PLACE_NAME = (
    rf"{CAP}(?:[ ](?:de[ ]la|de[ ]los|de[ ]las|del|de|la|el)[ ]{_PLACE_WORD}|[ ]{_PLACE_WORD}){{0,2}}"
)
#: "a la altura de Titulcia", "en el término municipal de X", "cerca de Chinchón", "alcaldía Cuauhtémoc".
_PLACE_PHRASE_RE = re.compile(
    r"(?<![\w])(?:a[ ]la[ ]altura[ ]de|(?:en[ ]el[ ])?término[ ]municipal[ ]de|(?:en[ ]la[ ])?localidad[ ]de|"
    r"(?:en[ ]el[ ])?municipio[ ]de|(?:en[ ]el[ ])?pueblo[ ]de|en[ ]las[ ]afueras[ ]de|(?i:alcaldía|alcaldia)|"
    r"(?i:delegación|delegacion)|(?i:municipio)|terme[ ]municipal[ ]de|al[ ]poble[ ]de|cerca[ ]de|"
    r"próxim[oa][ ]a|a[ ]las[ ]afueras[ ]de|a[ ]prop[ ]de)"
    rf"[ ](?P<t>{_PLACE_NAME})(?![\w\-])"
)
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
#: "Valdemora, 15 de marzo de 2024" opening a line or a cell (after a wide gap): the dateline's town.
_DATELINE_RE = re.compile(
    rf"(?:^|(?<=\n)|(?<=[ ]{{3}})|(?<=\t))[ \t]*(?P<t>{_PLACE_NAME}),[ ](?:a[ ])?(?=\d{{1,2}}[ ](?:de[ ]|d['’])"
    rf"(?i:{_MONTHS_ES})[ ](?:de[ ]|del[ ])?\d{{4}})",
    re.MULTILINE,
)
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


# ------------------------------------------------------------------------------------------------
# Employers
_ORG_WORD = rf"(?:Hnos\.|Hno\.|Hmnos\.|Cía\.|{CAP}(?!\.\w)|&)"
_ORG_RUN = (
    rf"{CAP}(?:[ ](?:(?:de[ ]la|de[ ]los|de[ ]las|del|de|y|i|d['’])[ ])?{_ORG_WORD}){{0,4}}"
    r"(?:[ ](?:S\.L\.U\.|S\.Coop\.|S\.L\.|S\.A\.|S\.C\.))?"
)
#: "trabajando en la Cooperativa Hortícola del Tajo", "antes albañil en Construcciones Hnos. Sagra" (a
#: work verb and up to three words, or a former job in one word, then "en"/"para" and the employer).
_EMPLOYER_RE = re.compile(
    r"(?<![\w])(?:(?i:trabaja|trabajaba|trabajando|trabajó|trabajado|treballa|treballava|empleado|empleada|"
    rf"contratado|contratada)(?:[ ](?:como|de|d['’]|com))?(?:[ ][{_LOW}]+){{0,3}}?"
    r"|(?:antes|ex|antiguo|antigua|jubilado|jubilada|prejubilado|prejubilada)"
    rf"[ ](?![{_LOW}]*(?:ado|ido|aba|ía|ó)[ ])[{_LOW}]{{3,}}(?:[ ]de[ ][{_LOW}]{{3,}})?)"
    r"[ ](?:en|para|a|per)[ ](?:(?:la[ ]empresa|l['’]empresa|la|el|los|las|una|un)[ ])?"
    r"(?P<o>(?!(?:Unidad|Servicio|Hospital|Planta|Residencia)\b)"
    rf"{_ORG_RUN})(?![\w\-])"
)
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
        PatternRule("HOSPITAL",     _BUILDING_RE,        group="b",        validator=_building_ok,        score=0.8,  name=f"building_es_{lang}"),
        PatternRule("DEPARTMENT",   _UNIT_RE,                              validator=_unit_ok,            score=0.75, name=f"named_unit_es_{lang}"),
        PatternRule("HOSPITAL",     _HEADER_ACRONYM_RE,  group=("a", "b"), validator=_header_acronym_ok,  score=0.75, name=f"header_acronym_es_{lang}"),
        PatternRule("HOSPITAL",     _NAME_ACRONYM_RE,    group="a",        validator=_name_acronym_ok,    score=0.8,  name=f"name_acronym_es_{lang}"),
        PatternRule("HOSPITAL",     _WARD_ACRONYM_RE,    group="a",        validator=_ward_acronym_ok,    score=0.75, name=f"ward_acronym_es_{lang}"),
        PatternRule("DEPARTMENT",   _WARD_ACRONYM_RE,    group="w",        validator=_ward_acronym_ok,    score=0.75, name=f"ward_before_acronym_es_{lang}"),
        PatternRule("HOSPITAL",     _ANY_ACRONYM_RE,                       validator=_note_acronym_ok,    score=0.75, name=f"note_acronym_es_{lang}"),
        PatternRule("CITY",         _PLACE_PHRASE_RE,    group="t",        validator=_place_phrase_ok,    score=0.75, name=f"place_phrase_es_{lang}"),
        PatternRule("CITY",         _DATELINE_RE,        group="t",        validator=_dateline_ok,        score=0.75, name=f"dateline_town_es_{lang}"),
        PatternRule("ORGANIZATION", _EMPLOYER_RE,        group="o",        validator=_employer_ok,        score=0.75, name=f"employer_es_{lang}"),
    )  # fmt: skip
