"""Spanish rules on Latin American and regional Spanish notes (the ``es2`` fresh-note forms): identity
numbers and registrations, ten-digit phones, numbered and abbreviated facilities, schools, insurers,
names after patient fields, staff roles and kinship words, nicknames, and dates with Roman, Catalan or
Galician months. The names, places and numbers here are made up for the tests.
"""

from __future__ import annotations

import pytest

from phiscrub import Deidentifier
from phiscrub.labels import fold


def resolved(text: str) -> list[tuple[str, str]]:
    """``(surface, coarse label)`` of the resolved spans of the Spanish rules (no model), in order."""
    spans = Deidentifier(model=None, lang="es", labels="fine").detect(text)
    return [(text[s.start : s.end], fold(s.label, "coarse") or s.label) for s in spans]


def surfaces(text: str) -> str:
    """Every resolved span of ``text``, joined (to test that a word is covered)."""
    return " | ".join(s for s, _ in resolved(text))


# (text, a span that must come out exactly)
EXACT = [
    # Identity numbers, registrations and health card codes after their keyword.
    ("Paciente: Gómez Arce, Teo   CC 7.305.118   Edad: 50 años", ("7.305.118", "ID")),
    ("Dr. Ulises Parra Nieto — RM 7-4412 | Firma", ("7-4412", "ID")),
    ("Dra. Olga Ferrán — Mat. 31.907 | consultorio", ("31.907", "ID")),
    ("Dr. Lino Sastre, jefe de sala, M.P. 204.561", ("204.561", "ID")),
    ("Ingreso: 01:10 | HC 337.902   Edad: 60", ("337.902", "ID")),
    ("Pacient: Pere Vall   CIP: VAPE 550312 07   Tel.", ("VAPE 550312 07", "ID")),
    ("Titular: Ana Bru   RUT 14.208.335-K   Ficha 0123", ("14.208.335-K", "ID")),
    ("Obra social: OSZETA  nº afil. 210-773401/02 | Domicilio", ("210-773401/02", "ID")),
    # Ten-digit phones in groups.
    ("recados con la vecina al 55 4821 0937. Sin más", ("55 4821 0937", "CONTACT")),
    ("Contactos: fijo (605) 331 2290; correo", ("(605) 331 2290", "CONTACT")),
    # Numbered and abbreviated facilities, schools, insurers, acronyms.
    ("HOSPITAL GENERAL DE ZONA No. 27\nADMISIÓN", ("HOSPITAL GENERAL DE ZONA No. 27", "LOCATION")),
    ("médico de cabecera en la Unidad Sanitaria Nº 41 de su barrio", ("Unidad Sanitaria Nº 41", "LOCATION")),
    ("retirada de puntos en su C.S. Valle Verde a los 10 días", ("C.S. Valle Verde", "LOCATION")),
    ("seguimiento en CSM Arbolaga hasta el alta", ("CSM Arbolaga", "LOCATION")),
    ("Remitido por su MAP (Centro de Saúde de Portomar) por tos", ("Centro de Saúde de Portomar", "LOCATION")),
    ("maestro en el Liceo Bicentenario Las Palmeras desde 2001", ("Liceo Bicentenario Las Palmeras", "LOCATION")),
    ("profesora en la ikastola Iturrigain de su pueblo", ("ikastola Iturrigain", "LOCATION")),
    ("Edad: 56 años   EPS Salud Serrana   Acompañante: hija", ("Salud Serrana", "LOCATION")),
    ("Previsión: Isapre Montemar | Fono", ("Montemar", "LOCATION")),
    ("CONSULTA EXTERNA — CSVA sede Robledal\nFecha", ("Robledal", "LOCATION")),
    ("Destino al alta: Residencia Virgen del Olmo, plaza temporal", ("Residencia Virgen del Olmo", "LOCATION")),
    # Names after patient fields, surnames first.
    ("Paciente: ARCEDIANO, Benigno Tomás   DNI 6.102.443", ("ARCEDIANO, Benigno Tomás", "NAME")),
    ("Pcte: RUFINO ALDAMA SOTO VELA   CC 3.110.224", ("RUFINO ALDAMA SOTO VELA", "NAME")),
    ("Derechohabiente: Maricela Ruvalcaba Pinto, NSS 1234-56-7890-1", ("Maricela Ruvalcaba Pinto", "NAME")),
    ("Fecha: 02/05/24\nMaría Orduña-Vela Soto, 33 años. NHC 5501234.", ("María Orduña-Vela Soto", "NAME")),
    # Staff after a role word, before a role in brackets, after a role and a comma.
    ("Dra. Ruiz (adjunta) / MIR Lucía", ("Lucía", "NAME")),
    ("Se acude a solicitud de enf. Rocío, ya que refiere dolor.", ("Rocío", "NAME")),
    ("Valorada por Trabajo Social (T.S. Arbeloa): sin cambios", ("Arbeloa", "NAME")),
    ("Enfermería: Pilar (circulante), Nuria (instrumentista).", ("Nuria", "NAME")),
    ("en contacto con su psicóloga de referencia, Irene.", ("Irene", "NAME")),
    # Relatives after kinship words and as the subject of a living verb; nicknames.
    ("Concurre con la mamá (Rosalba).", ("Rosalba", "NAME")),
    ("Su señora Clementina lo nota irritable.", ("Clementina", "NAME")),
    ("Tiene 3 hijos. Yurany vive con el paciente.", ("Yurany", "NAME")),
    ("varón de 58 años (\"Pepe\"), conductor", ("Pepe", "NAME")),
    ("\"Nando\" (como pide que le digan) refiere", ("Nando", "NAME")),
    # Dates with a Roman, Catalan or Galician month, a dash after a cue, in brackets after a unit.
    ("Fecha: 7/IV/2024 | Paciente", ("7/IV/2024", "DATE")),
    ("Girona, 3 de juny de 2024", ("3 de juny de 2024", "DATE")),
    ("biopsia previa en outubro 2022: benigna", ("outubro 2022", "DATE")),
    ("Revisión en consultas externas el 23-11 con Rx.", ("23-11", "DATE")),
    ("LDL 91 mg/dl (18/03), HbA1c 6%", ("18/03", "DATE")),
]  # fmt: skip


# Latin American towns, states and departments after a place cue (es/cities_latam.txt).
LATAM_PLACES = [
    ("Jubilado, natural de Jardín, Antioquia, vive con su hija.", ("Antioquia", "LOCATION")),
    ("originaria de Juchitán, Oaxaca; radica en la CDMX desde 2019.", ("Oaxaca", "LOCATION")),
    ("originaria de Juchitán, Oaxaca; radica en la CDMX desde 2019.", ("CDMX", "LOCATION")),
    ("Ingresa trasladado desde Iztapalapa por la tarde.", ("Iztapalapa", "LOCATION")),
    ("Profesor en un liceo de Quilpué desde hace años.", ("Quilpué", "LOCATION")),
    ("Vive en Envigado con su esposa.", ("Envigado", "LOCATION")),
    ("Vive con la abuela en la vereda, Soacha\nMotivo: fiebre", ("Soacha", "LOCATION")),
]  # fmt: skip


@pytest.mark.parametrize(("text", "span"), LATAM_PLACES)
def test_latam_place(text: str, span: tuple[str, str]) -> None:
    assert span in resolved(text)


@pytest.mark.parametrize(
    "text",
    [
        "Refiere mejoría en la Libertad de movimientos.",
        "Paciente con Esperanza de vida reducida.",
        "Signo de Murphy negativo, resto sin Progreso.",
    ],
)
def test_latam_common_words_not_places(text: str) -> None:
    assert not [s for s, label in resolved(text) if label == "LOCATION"]


@pytest.mark.parametrize(("text", "span"), EXACT)
def test_latam_regional_span(text: str, span: tuple[str, str]) -> None:
    assert span in resolved(text)


# (text, a string no resolved span may contain)
NOT_INSIDE = [
    ("Solicitud de plaza de respiro/convalecencia en su centro.", "respiro"),  # lower case, no street
    ("EVOLUCIÓN - CLÍNICA MÉDICA (pase a sala)", "CLÍNICA MÉDICA"),  # a service in capitals
    ("RM 3 cortes axiales sin contraste", "3"),  # "RM" is the MRI without the dash form
    ("Nadie vive con ella. Actualmente vive sola.", "Nadie"),
    ("Se administran 10 cc 3.412.876", "3.412.876"),  # "cc" in lower case is a volume
    ("en el 2-3 % de los casos; el 1-2 días", "2-3"),
    ("profesora en la ikastola Iturrigain de Elgoibar, bilingüe", "de Elgoibar"),  # the town is apart
    ("llama la mamá de Tiago Leal desde el móvil", "de Tiago"),  # the preposition is no name
]


@pytest.mark.parametrize(("text", "bad"), NOT_INSIDE)
def test_latam_regional_not_inside(text: str, bad: str) -> None:
    assert all(bad not in s for s, _ in resolved(text))
