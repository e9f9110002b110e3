"""Site rules of the Spanish and Catalan packs for Latin American and regional Spanish notes.

Written on the ``es2`` fresh notes (Argentina, Colombia, Chile, Mexico; Galicia, Catalonia, the Basque
Country, Andalusia) and the ``es3`` ones (Peru, Uruguay, Venezuela, Cuba; Galicia, the Canaries, Valencia,
Madrid, Castile and León). Each rule needs a cue word before the name; :func:`spanish_site_rules` joins the
place rules of the pack (:mod:`.intl_places_es`; the ID rules of these notes are in :mod:`.intl_spanish_ids`):

* **numbered facilities** in any case (``HOSPITAL GENERAL DE ZONA No. 12``, ``Unidad Sanitaria Nº 18``,
  ``HGZ 12``);
* **health centres by abbreviation** and their name (``C.S. San Vicente``, ``CSM Errekalde``, ``CESFAM Los
  Aromos``, ``Centro de Saúde de Sarria``), **care homes** with their head word (``Residencia Virgen de
  la Estrella``), **named parks** (``Parc de la Ciutadella``);
* **schools and nurseries** and their name (``ikastola Zubigain``, ``Liceo Bicentenario Los Castaños``,
  ``Jardín Arco Iris``);
* **the insurer after its kind** (``EPS Salud Andina``, ``Isapre Vidamar``, ``Obra social: OSCOBA``);
* **hospital acronyms**: before ``sede`` and the site after it (``CSLN sede Usaquén``), opening a header
  before a dash and a service (``ABC — Unidad de Salud Mental``), and after a dash in a capitals header
  before a comma or another dash (``— HUVN, Pabellón``, ``OBSTETRICIA HUVN - 20/07``; with an ``H``), closing
  a header line after a dash or a service and a comma, or after a service or a place of care
  (``urgencias HXXX``, ``consultas de Neumología CHXX``);
* **a hospital by its abbreviation** ``H.`` and its kind (``H. U. Infanta Sofía``, ``H. Comarcal Valle Alto``),
  **named wards** with their floor (``(Cíes 4, cama 412)``, ``Ingreso en Tormes 2``);
* **associations, academies and companies** by their kind or legal form (``Asociación Vecinal El Olivar``,
  ``Frutas del Sur S.C.A.``), the **town of an emergency unit** (``UME ASTORGA``, a listed town) and a
  **state's official name** on a letterhead (``REPÚBLICA BOLIVARIANA DE VENEZUELA``).
"""

from __future__ import annotations

import re

from phiscrub.detect.pattern_data import pattern_data
from phiscrub.detect.rules.base import PatternRule
from phiscrub.detect.rules.intl_places import listed_town
from phiscrub.detect.rules.intl_places_data import CAP
from phiscrub.detect.rules.intl_spanish import generic_word

__all__ = ["spanish_site_rules"]

#: A capitalised word (the pattern pieces build names from it).
_CAP = CAP

_RX = pattern_data("intl_spanish_latam", globals())

#: Words after a school, park or centre word that describe it rather than name it.
_NOT_NAMES = frozenset(
    (
        "Infantil", "Primaria", "Secundaria", "Público", "Pública", "Privado", "Privada", "Municipal",
        "Nacional", "Provincial", "Técnico", "Técnica", "Médica", "Médico", "Superior", "Nocturno",
        "Especial", "Urgencias", "Salud", "Mental", "Atención", "Primaria", "Hospital", "Servicio",
        "Unidad", "Centro", "Planta", "Tel", "Teléfono", "Fax", "Derecha", "Derecho", "Izquierda", "Izquierdo",
        "Proximal", "Distal", "Bilateral", "Americana", "Española", "Europea", "Internacional", "Mundial",
        "Contra",
    )
)  # fmt: skip
#: Acronyms of clinical words and services, never a hospital or an insurer here.
_NOT_ACRONYMS = frozenset(
    (
        "HTA", "HDA", "HBP", "HIV", "HPV", "HDL", "HC", "HCE", "HD", "HB", "HR", "HS", "URG", "UCI", "UVI",
        "REA", "SVA", "SVB", "ECG", "TAC", "TC", "RM", "MIR", "FEA", "MAP", "CS", "CAP", "IQ", "AP", "IC",
        "EPS", "ARS", "ARL", "SOAT", "SIS", "DNI", "CIP", "NHC", "NSS", "NUSS", "RUT", "CC", "ORL", "COT", "HGZ", "HGR",
        "UMF", "CP", "IMC", "TA", "FC", "FR", "EF", "EA", "MC", "GCS", "EVA", "AS", "RX", "SS",
    )
)  # fmt: skip


#: Capitalised words after an insurer's kind that name no insurer ("EPS: Tel. ...").
_NOT_INSURERS = frozenset(("Tel", "Teléfono", "Fax", "Nº", "No", "Número", "Afiliado", "Afiliada", "Titular"))


def _school_ok(m: re.Match[str]) -> bool:
    """A school's name: some word of it no describing word (``Liceo Bicentenario Los Castaños``)."""
    words = [w for w in m.group("n").split(" ") if w not in ("Los", "Las", "La", "El", "Els", "Les")]
    return bool(words) and not all(w in _NOT_NAMES or generic_word(w) for w in words)


def _centre_ok(m: re.Match[str]) -> bool:
    name = m.group("n")
    return name.split(" ")[0] not in _NOT_NAMES and not generic_word(name.split(" ")[0])


def _insurer_ok(m: re.Match[str]) -> bool:
    org = m.group("o")
    return org not in _NOT_ACRONYMS and org.split(" ")[0] not in _NOT_INSURERS and not listed_town(org)


def _acronym_ok(m: re.Match[str]) -> bool:
    return m.group("a") not in _NOT_ACRONYMS


def _h_acronym_ok(m: re.Match[str]) -> bool:
    acr = m.group("a") or m.groupdict().get("b") or ""
    return "H" in acr and len(acr) >= 3 and acr not in _NOT_ACRONYMS and acr not in _NOT_H_ACRONYMS


#: Clinical acronyms with an H that name no hospital.
_NOT_H_ACRONYMS = frozenset(
    (
        "HTA", "HTP", "HBPM", "HSA", "HVI", "HDA", "HDB", "HCG", "HBA", "HBV", "HCV", "HLA", "HPF", "HHS", "HIC",
        "HII", "HAD", "HAV", "HSV", "HBSAG", "HBE", "HELLP", "HEPA", "HFNC", "HFO", "HGB", "HIE", "HMG", "HNF",
        "HOMA", "HPB", "HPN", "HRB", "HSC", "HTIC", "HUS", "HTC", "HCT", "UHD", "CHC", "CHA", "CHOP",
    )
)  # fmt: skip

#: Words before a floor number that name no ward ("Planta 4, hab. 12", "Fase 2").
_NOT_WARDS = frozenset(
    (
        "Planta", "Cama", "Box", "Consulta", "Semana", "Tipo", "Fase", "Nivel", "Estadio", "Ciclo", "Dosis",
        "Sala", "Quirófano", "Módulo", "Bloque", "Pabellón", "Torre", "Control", "Grado", "Paso", "Día", "Piso",
        "Puerta", "Escalera", "Edificio", "Zona", "Área", "Hab", "Habitación", "Unidad", "Servicio", "Sección",
        "Urgencias", "Observación", "Reanimación", "Hospitalización", "Medicina", "Cirugía", "Pediatría",
    )
)  # fmt: skip


def _unit_town_ok(m: re.Match[str]) -> bool:
    return listed_town(m.group("t"), "es")


def _company_ok(m: re.Match[str]) -> bool:
    words = m.group("n").split(" ")
    return not all(generic_word(w) or w in _NOT_NAMES for w in words) and not listed_town(m.group("n"))


def _ward_ok(m: re.Match[str]) -> bool:
    word = m.group("w") or m.group("w2") or ""
    return word not in _NOT_WARDS and not generic_word(word) and not listed_town(word)


def spanish_site_rules(lang: str) -> tuple[PatternRule, ...]:
    """The Latin American and regional site rules of Spanish and Catalan (none for other languages)."""
    if lang not in ("es", "ca"):
        return ()
    return (
        PatternRule("HOSPITAL",     _RX["NUMBERED_FACILITY_RE"],                                                  score=0.85, name=f"numbered_facility_any_{lang}"),
        PatternRule("HOSPITAL",     _RX["HEALTH_CENTRE_RE"],                          validator=_centre_ok,       score=0.8,  name=f"health_centre_abbr_{lang}"),
        PatternRule("HOSPITAL",     _RX["RESIDENCE_RE"],                              validator=_centre_ok,       score=0.8,  name=f"care_home_{lang}"),
        PatternRule("ORGANIZATION", _RX["SCHOOL_RE"],                                 validator=_school_ok,       score=0.75, name=f"school_{lang}"),
        PatternRule("LOCATION",     _RX["PARK_RE"],                                   validator=_centre_ok,       score=0.7,  name=f"park_{lang}"),
        PatternRule("ORGANIZATION", _RX["INSURER_RE"],           group="o",           validator=_insurer_ok,      score=0.8,  name=f"insurer_after_kind_{lang}"),
        PatternRule("HOSPITAL",     _RX["SEDE_RE"],              group=("a", "s"),    validator=_acronym_ok,      score=0.8,  name=f"acronym_site_{lang}"),
        PatternRule("HOSPITAL",     _RX["DASH_HEADER_ACRONYM_RE"], group="a",         validator=_acronym_ok,      score=0.75, name=f"dash_header_acronym_{lang}"),
        PatternRule("HOSPITAL",     _RX["HEADER_DASH_ACRONYM_RE"], group=("a", "b"),  validator=_h_acronym_ok,    score=0.75, name=f"header_dash_acronym_{lang}"),
        PatternRule("HOSPITAL",     _RX["HOSPITAL_ABBR_RE"],                          validator=_centre_ok,       score=0.8,  name=f"hospital_abbr_{lang}"),
        PatternRule("HOSPITAL",     _RX["SERVICE_H_ACRONYM_RE"],   group="a",         validator=_h_acronym_ok,    score=0.75, name=f"service_h_acronym_{lang}"),
        PatternRule("ORGANIZATION", _RX["ASSOCIATION_RE"],                            validator=_centre_ok,       score=0.75, name=f"association_{lang}"),
        PatternRule("ORGANIZATION", _RX["COMPANY_SUFFIX_RE"],                         validator=_company_ok,      score=0.75, name=f"company_suffix_{lang}"),
        PatternRule("CITY",         _RX["EMERGENCY_UNIT_TOWN_RE"], group="t",         validator=_unit_town_ok,    score=0.75, name=f"emergency_unit_town_{lang}"),
        PatternRule("COUNTRY",      _RX["REPUBLIC_RE"],                                                           score=0.75, name=f"republic_{lang}"),
        PatternRule("ROOM",         _RX["NAMED_WARD_RE"],          group=("v", "v2"), validator=_ward_ok,         score=0.7,  name=f"named_ward_{lang}"),
    )  # fmt: skip
