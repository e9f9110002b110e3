"""LOCATION rules of the Spanish and Catalan pack for notes unlike MEDDOCAN's case reports.

Written on the ``es2-dev`` notes of ``scripts/eval_langpacks.py`` (discharge letters, urgencias,
referrals, social work, notes from Mexico, Argentina and Colombia); :mod:`.intl_places` holds the
rules shared with the other packs. Each rule needs a cue or a closed list:

* **Latin American towns** (a closed list of large cities, :data:`LATAM_TOWNS`) after the town cues of
  the pack (``en``, ``vive en``, ``natural de``, ``residente en`` ...), opening a dateline
  (``Bogotá, 3 de mayo``) or after a comma closing an address (``..., Rosario.``); the bundled town
  lists are Spanish only;
* **neighbourhoods** after ``barrio``, ``Col.``/``colonia`` (``col.`` after a bracket or comma:
  ``(col. Roma Sur, ...``): the capitalised name after the cue;
* **Colombian addresses**: ``Calle 45 # 23-10``, ``Cra. 7 No. 32-16``, ``Carrera 7 n.º 32-16``;
* **insurers and public bodies by name** (``Sanitas``, ``Adeslas``, ``MUFACE``, ``IMSS``, ``OSDE``,
  ``EPS Sura`` ...), the employer after a job phrase (``trabajaba como contable en Renfe``) and a
  town council (``Ayuntamiento de Getafe``);
* **numbered and capitalised facilities**: ``Hospital General de Zona No. 46``, ``UMF No. 12``, and
  a facility written in capitals (``HOSPITAL ITALIANO DE BUENOS AIRES``; not ``HOSPITAL DE DÍA``);
* **rooms** after ``Sala``/``Quirófano`` (``Sala 3.93``, ``Quirófano 4``).

The health centres, schools, insurers and hospital acronyms of the ``es2`` fresh notes are in
:mod:`.intl_spanish_latam` (joined by :func:`spanish_place_rules`).
"""

from __future__ import annotations

import re
from functools import cache

from phiscrub.detect.rules.base import PatternRule, trie_pattern
from phiscrub.detect.rules.intl_places import listed_town
from phiscrub.detect.rules.intl_places_data import CAP
from phiscrub.detect.rules.intl_spanish import generic_word, spanish_extra_place_rules
from phiscrub.detect.rules.intl_spanish_latam import spanish_site_rules

__all__ = ["LATAM_TOWNS", "spanish_place_rules"]

#: Large Latin American cities (capitals and the biggest towns of Mexico, Central America, the Caribbean
#: and South America), written by hand: the bundled Spanish town list holds towns of Spain only.
LATAM_TOWNS: tuple[str, ...] = (
    "Ciudad de México", "Guadalajara", "Monterrey", "Puebla", "Tijuana", "León", "Ciudad Juárez", "Zapopan",
    "Mérida", "Querétaro", "Toluca", "Acapulco", "Oaxaca", "Veracruz", "Chihuahua", "Hermosillo", "Culiacán",
    "Morelia", "Aguascalientes", "Saltillo", "Cancún", "Tampico", "Villahermosa", "Tuxtla Gutiérrez",
    "Guatemala", "Tegucigalpa", "San Pedro Sula", "San Salvador", "Managua", "San José", "Panamá",
    "La Habana", "Santo Domingo", "Santiago de los Caballeros", "San Juan", "Caracas", "Maracaibo",
    "Valencia", "Barquisimeto", "Bogotá", "Medellín", "Cali", "Barranquilla", "Cartagena de Indias",
    "Cartagena", "Bucaramanga", "Cúcuta", "Pereira", "Manizales", "Ibagué", "Santa Marta", "Villavicencio",
    "Pasto", "Quito", "Guayaquil", "Cuenca", "Lima", "Arequipa", "Trujillo", "Chiclayo", "Cusco", "La Paz",
    "Santa Cruz de la Sierra", "Cochabamba", "Sucre", "Santiago de Chile", "Valparaíso", "Concepción",
    "Antofagasta", "Asunción", "Ciudad del Este", "Montevideo", "Buenos Aires", "Córdoba", "Rosario",
    "Mendoza", "La Plata", "Mar del Plata", "San Miguel de Tucumán", "Salta", "Santa Fe", "Neuquén",
    "Bahía Blanca", "Quilmes", "Lanús", "Avellaneda", "Morón", "Lomas de Zamora",
)  # fmt: skip

#: Health insurers, mutual funds and public bodies of Spain and Latin America, by name.
_PAYERS = (
    "Sanitas", "Adeslas", "SegurCaixa Adeslas", "Asisa", "Mapfre", "DKV", "MUFACE", "ISFAS", "MUGEJU",
    "IMSS", "ISSSTE", "OSDE", "PAMI", "IOMA", "Swiss Medical", "Galeno", "Medifé", "EPS Sura", "Nueva EPS",
    "Sanitas EPS", "Compensar", "Coomeva", "Famisanar", "Salud Total", "Cáritas Diocesana", "Cáritas",
    "Fraternidad-Muprespa", "Ibermutua", "Asepeyo", "Fremap",
)  # fmt: skip

_CAP_RUN = rf"{CAP}(?:[ ](?:de[ ]la[ ]|de[ ]los[ ]|del[ ]|de[ ]|y[ ])?{CAP}){{0,3}}"
#: A neighbourhood's name, not the city after it ("Col. Obrera México D.F.").
_HOOD_RUN = rf"(?!México\b){CAP}(?:[ ](?:de[ ]la[ ]|de[ ]los[ ]|del[ ]|de[ ]|y[ ])?(?!México\b){CAP}){{0,3}}"
_TOWN_CUE = (
    r"(?:(?<![\w\-])(?:en|natural[ ]de|vecin[oa][ ]de|residente[ ](?:en|de)|reside[ ]en|"
    r"procedente[ ]de|domiciliad[oa][ ]en|nacid[oa][ ]en|vive[ ]en|originari[oa][ ]de)[ ]+"
    r"|(?:^|(?<=\n))[ \t]*(?=(?:{towns}),[ ]?(?:a[ ]|el[ ]|\d))|(?<=\w),[ ](?=(?:{towns})[ \t]*(?:[.\n]|\Z)))"
)
_UPPER = "A-ZÀ-ÖØ-Þ"
_UPPER_WORD = rf"(?!(?:PARA|POR|CON|SIN|EN|TRAS|QUE|DONDE|SE|AL)\b)[{_UPPER}](?:[{_UPPER}\-]|['’][{_UPPER}])+"
_UPPER_FACILITY = (
    r"(?<![\w\-])(?:HOSPITAL|CLÍNICA|CLINICA|SANATORIO|CENTRO[ ]DE[ ]SALUD|COMPLEJO[ ]HOSPITALARIO|POLICLÍNICA|"
    r"COMPLEXO[ ]HOSPITALARIO|POLICLÍNICO|POLICLINICO|CS|C\.S\.)"
    r"(?:[ ](?:UNIVERSITARIO|GENERAL|CLÍNICO|COMARCAL|REGIONAL|INFANTIL|PROVINCIAL|DOCENTE))*"
    r"(?![ ]DE[ ]D[ÍI]A\b)"
    rf"(?:[ ](?:(?:DE[ ]LA|DE[ ]LOS|DE[ ]L['’]|DEL|DE|Y|LA|EL|A|O|OS|AS)[ ]?)?{_UPPER_WORD}){{1,6}}(?![\w\-])"
)


@cache
def _rules() -> tuple[PatternRule, ...]:
    towns = trie_pattern(sorted(LATAM_TOWNS, key=len, reverse=True), ignore_case=False)
    return (
        PatternRule("CITY", re.compile(rf"{_TOWN_CUE.format(towns=towns)}(?P<t>{towns})(?![\w\-])", re.MULTILINE), group="t", name="town_latam_es", score=0.8),
        PatternRule("CITY", re.compile(rf"(?:(?<![\w\-])(?:barrio(?:[ ]de)?|paraje|Colonia|colonia)|(?<=,[ ])Col\.|(?<=[(,][ ])col\.|(?<=\()[Cc]ol\.)[ ]+(?P<t>{_HOOD_RUN})(?![\w\-]|\.\w)"), group="t", name="neighbourhood_es", score=0.75),
        PatternRule("STREET", re.compile(r"(?<![\w\-])(?P<s>(?:Calle|Cl\.|Carrera|Cra\.|Kr\.|Transversal|Tv\.|Diagonal|Dg\.|Avenida|Av\.)[ ]\d{1,3}[A-Z]?(?:[ ]?(?:Bis|bis|Sur|sur))?[ ](?:#|No\.|Nº|N°|n\.º)[ ]?\d{1,3}[A-Z]?[ ]?-[ ]?\d{1,3})(?![\w\-])"), group="s", name="street_co_es", score=0.8),
        PatternRule("ORGANIZATION", re.compile(rf"(?<![\w\-]){trie_pattern(sorted(_PAYERS, key=len, reverse=True), ignore_case=False)}(?![\w\-])"), name="payers_es", score=0.8),
        PatternRule("ORGANIZATION", re.compile(rf"\b(?:[Tt]rabaja(?:ba)?|[Tt]rabajó)[ ]+(?:como|de)[ ]+[a-zá-úñ]+(?:[ ][a-zá-úñ]+){{0,3}}?[ ]+(?:en|para)[ ]+(?:la[ ]empresa[ ]|el[ ]|la[ ])?(?P<o>{_CAP_RUN})(?![\w\-])"), group="o", validator=_not_town, name="employer_es", score=0.75),
        PatternRule("ORGANIZATION", re.compile(rf"(?<![\w\-])(?P<o>Ayuntamiento[ ]de[ ]{_CAP_RUN}|Juzgado[ ]de[ ](?:Primera[ ]Instancia|Guardia|Instrucción)[ ](?:n\.?º[ ]?\d+[ ])?de[ ]{_CAP_RUN})(?![\w\-])"), group="o", name="public_body_es", score=0.75),
        PatternRule("HOSPITAL", re.compile(r"(?<![\w\-])(?:Hospital[ ]General[ ]de[ ]Zona|Hospital[ ]General[ ]Regional|HGZ|HGR|Unidad[ ]de[ ]Medicina[ ]Familiar|UMF)[ ](?:No\.|Nº|N°|n\.º|núm\.|número)[ ]?\d{1,3}(?![\w])"), name="numbered_facility_es", score=0.85),
        PatternRule("HOSPITAL", re.compile(_UPPER_FACILITY), validator=_upper_named, name="upper_facility_es", score=0.8),
        PatternRule("ZIP", re.compile(r"(?<![\w])(?:C\.P\.|CP)[ \t]*:?[ \t]*(?P<z>\d{5})(?![\w\-])"), group="z", name="postcode_any_es", score=0.8),
        PatternRule("CITY", re.compile(rf"(?<![\w\-])(?i:vive|viven|vivía|reside|residía|residente|domiciliad[oa]|natural|originari[oa]|vecin[oa]|nacid[oa])(?:[ ]+[a-záéíóúñ]+){{0,3}}?[ ]+(?:en|de)[ ]+(?P<t>{_CAP_RUN})(?![\w\-])"), group="t", validator=_not_a_noun, name="town_after_living_es", score=0.75),
        PatternRule("CITY", re.compile(rf"(?<![\w])(?:C\.P\.|CP)[ \t]*:?[ \t]*\d{{5}},[ ](?P<t>{_CAP_RUN})(?![\w\-])"), group="t", validator=_a_town, name="town_after_postcode_es", score=0.75),
        PatternRule("CITY", re.compile(rf"(?<![\w.,/+\-])\d{{5}}[ ](?P<t>{'|'.join(t for t in LATAM_TOWNS if ' ' in t)})(?![\w\-])"), group="t", name="zip_town_latam_es", score=0.8),
        PatternRule("STREET", re.compile(r"(?<![\w\-])(?:Calle|calle|Ave\.|Avenida|Carretera)[ ]\d{1,3}[A-Z]?[ ](?:No\.|Nº|N°|#)[ ]?\d{1,4}[A-Z]?(?:[ ](?:e/|entre)[ ](?:\d{1,3}[A-Z]?|[A-ZÁÉÍÓÚ][\w]+)[ ]y[ ](?:\d{1,3}[A-Z]?|[A-ZÁÉÍÓÚ][\w]+))?(?![\w\-])"), name="street_cu_es", score=0.8),
        PatternRule("CITY", re.compile(rf"(?<![\w\-])(?:Rpto\.|Reparto|reparto)[ ](?P<t>{_CAP_RUN})(?![\w\-])"), group="t", name="reparto_es", score=0.75),
        PatternRule("ZIP", re.compile(rf"(?:(?<=\d,[ ])|(?<=\d[ ][A-Z],[ ])|(?<=\d[º°ª][ ][A-Z],[ ]))(?P<z>(?:0[1-9]|[1-4]\d|5[0-2])\d{{3}})(?=[ ]\({CAP}(?:[ ]{CAP})?\))"), group="z", name="postcode_district_es", score=0.75),
        PatternRule("CITY", re.compile(rf"(?:(?<=\d,[ ])|(?<=\d[ ][A-Z],[ ])|(?<=\d[º°ª][ ][A-Z],[ ]))(?:0[1-9]|[1-4]\d|5[0-2])\d{{3}}[ ]\((?P<t>{CAP}(?:[ ]{CAP})?)\)"), group="t", validator=_not_a_noun, name="district_after_postcode_es", score=0.75),
        PatternRule("CITY", re.compile(rf"(?<=\w[ ][–—][ ])(?P<t>{_CAP_RUN})(?=[ \t]*(?:\n|\Z))"), group="t", validator=_es_town, name="town_closing_header_es", score=0.75),
        PatternRule("CITY", re.compile(rf"(?<=\w,[ ])(?P<t>{_CAP_RUN})(?=[ \t]*(?:,[ ]|[ ][–—][ ]|\n|\Z))"), group="t", validator=_es_town, name="town_in_address_es", score=0.75),
        PatternRule("CITY", re.compile(rf"(?<![\w\-])(?:término(?:[ ]municipal)?[ ]de|[Dd]omicilio[ ]?\()[ ]?(?P<t>{_CAP_RUN})(?![\w\-])"), group="t", validator=_municipality_ok, name="municipality_es", score=0.75),
        PatternRule("CITY", re.compile(rf"(?<![\w\-])(?:Procedencia|Lugar[ ]de[ ]procedencia)[ \t]*:[ \t]*(?P<t>{_CAP_RUN})(?![\w\-])"), group="t", validator=_origin_ok, name="origin_field_es", score=0.75),
        PatternRule("ROOM", re.compile(r"(?<![\w\-])(?:Sala|sala|SALA|Quirófano|quirófano|QUIRÓFANO)[ ]+(?:n\.?º[ ]?)?(?P<r>\d{1,3}(?:[.\-]\d{1,3})?[A-Z]?)(?![\w.,]\d|[\w])"), group="r", name="room_es", score=0.75),
    )  # fmt: skip


def _upper_named(m: re.Match[str]) -> bool:
    """A facility in capitals with a name: not ``CLÍNICA MÉDICA`` (a service, every word generic); after
    ``CS`` a name of real words (``CS A PEDREIRA``, not ``CS HTA`` or ``CS CONTROL``)."""
    head, *rest = m.group().split()
    words = [w for w in rest if w not in ("DE", "LA", "LOS", "DEL", "Y", "EL", "A", "O", "OS", "AS")]
    if head in ("CS", "C.S.") and any(len(w) < 4 or w in _NOT_CS_NAMES for w in words):
        return False
    return not all(generic_word(w) for w in words)


#: Words in capitals after ``CS`` that say what to do, not which centre.
_NOT_CS_NAMES = frozenset(("CONTROL", "REVISIÓN", "CITA", "SEGUIMIENTO", "URGENCIAS", "ANALÍTICA", "ALTA"))


def _is_town(name: str) -> bool:
    """A listed Spanish or Latin American town."""
    return listed_town(name) or name in LATAM_TOWNS


def _es_town(m: re.Match[str]) -> bool:
    """A town of the Spanish lists (the larger Spanish and Latin American towns included)."""
    return listed_town(m.group("t"), "es") or m.group("t") in LATAM_TOWNS


def _a_town(m: re.Match[str]) -> bool:
    return _is_town(m.group("t"))


#: Capitalised words after "vive en" / "natural de" that are no place ("vive en Residencia ...").
_NOT_PLACES = frozenset(("Residencia", "Urgencias", "Hospital", "Centro", "Servicio", "Unidad", "Planta"))


def _not_a_noun(m: re.Match[str]) -> bool:
    return m.group("t").split(" ")[0] not in _NOT_PLACES


def _origin_ok(m: re.Match[str]) -> bool:
    """The place after "Procedencia:": a listed town, or a name of several words (``San Juan de Dios``)
    with no service, unit or acronym in it (``Procedencia: UVI móvil``, ``Procedencia: Urgencias``)."""
    name = m.group("t")
    if _is_town(name):
        return True
    words = [w for w in name.split(" ") if w not in ("de", "del", "la", "los", "las", "y")]
    return len(words) >= 2 and not any(
        w.isupper() or generic_word(w) or w in _NOT_PLACES or w in _NOT_ORIGINS for w in words
    )


#: Words after "Procedencia:" that name a way in, not a place.
_NOT_ORIGINS = frozenset(
    ("Domicilio", "Consulta", "Consultas", "Atención", "Primaria", "Traslado", "Otro", "Otra")
)


def _municipality_ok(m: re.Match[str]) -> bool:
    """A municipality after "término de" or "domicilio (": a proper name, no acronym (``domicilio (SVB)``)."""
    first = m.group("t").split(" ")[0]
    return _not_a_noun(m) and not first.isupper() and not generic_word(first)


def _not_town(m: re.Match[str]) -> bool:
    """An employer, not the town of "trabaja como albañil en Madrid"."""
    return not _is_town(m.group("o"))


def spanish_place_rules(lang: str) -> tuple[PatternRule, ...]:
    """The rules of this module and of :mod:`.intl_spanish` (hospital notes) for ``es`` and ``ca``; none for
    other languages."""
    return (
        _rules() + spanish_extra_place_rules(lang) + spanish_site_rules(lang) if lang in ("es", "ca") else ()
    )
