"""Site rules of the Spanish and Catalan packs for Latin American and regional Spanish notes.

Written on the ``es2`` fresh notes (Argentina, Colombia, Chile, Mexico; Galicia, Catalonia, the Basque
Country, Andalusia). Each rule needs a cue word before the name; :func:`spanish_site_rules` joins the
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
  before a comma or another dash (``— HUVN, Pabellón``, ``OBSTETRICIA HUVN - 20/07``; with an ``H``).
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
        "Unidad", "Centro", "Planta", "Tel", "Teléfono", "Fax",
    )
)  # fmt: skip
#: Acronyms of clinical words and services, never a hospital or an insurer here.
_NOT_ACRONYMS = frozenset(
    (
        "HTA", "HDA", "HBP", "HIV", "HPV", "HDL", "HC", "HCE", "HD", "HB", "HR", "HS", "URG", "UCI", "UVI",
        "REA", "SVA", "SVB", "ECG", "TAC", "TC", "RM", "MIR", "FEA", "MAP", "CS", "CAP", "IQ", "AP", "IC",
        "EPS", "ARS", "ARL", "DNI", "CIP", "NHC", "NSS", "NUSS", "RUT", "CC", "ORL", "COT", "HGZ", "HGR",
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
    acr = m.group("a")
    return "H" in acr and len(acr) >= 3 and acr not in _NOT_ACRONYMS


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
        PatternRule("HOSPITAL",     _RX["HEADER_DASH_ACRONYM_RE"], group="a",         validator=_h_acronym_ok,    score=0.75, name=f"header_dash_acronym_{lang}"),
    )  # fmt: skip
