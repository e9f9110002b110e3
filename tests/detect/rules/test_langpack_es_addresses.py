"""Spanish rules on MEDDOCAN-style notes: whole addresses, countries and towns closing an address
line, ages at an event, and names that stop before the next field ("NºCol", "C/"). The error classes
come from the rules alone on MEDDOCAN train (docs/crosslingual.md, "Spanish rule errors on MEDDOCAN
train"); the texts here are written for the tests.
"""

from __future__ import annotations

import pytest

from phiscrub import Deidentifier
from phiscrub.labels import fold


def resolved(text: str) -> list[tuple[str, str]]:
    """``(surface, coarse label)`` of the resolved spans of the Spanish rules (no model), in order."""
    spans = Deidentifier(model=None, lang="es", labels="fine").detect(text)
    return [(text[s.start : s.end], fold(s.label, "coarse") or s.label) for s in spans]


# (text, a span that must come out exactly)
EXACT = [
    # The whole address line after "Domicilio:", floor and door included, lower-case words too.
    ("Domicilio: Calle San Benito, 16, 3, A.\nLocalidad/ Provincia: Toledo.", ("Calle San Benito, 16, 3, A", "LOCATION")),
    ("Domicilio: Av. duque de pastrana 96, 2D.\nLocalidad/ Provincia: Madrid.", ("Av. duque de pastrana 96, 2D", "LOCATION")),
    ("Domicilio: Rúa Xoán Couto, 2 .\nLocalidad/ Provincia: Lugo.", ("Rúa Xoán Couto, 2", "LOCATION")),
    ("Domicilio: Plaza Mayor s/n.\nCP: 28013.", ("Plaza Mayor s/n", "LOCATION")),
    # Floor, door and staircase after the number outside an address field.
    ("Remitido por: Dra. Ana Sol Prado C/ Benjamín de Tudela, 61, 6º B 31008 Pamplona.", ("C/ Benjamín de Tudela, 61, 6º B", "LOCATION")),
    ("Remitido por: Dr. Luis Vega Arce C/. Guzmán el Bueno, 98, 6.º D 28003 Madrid.", ("C/. Guzmán el Bueno, 98, 6.º D", "LOCATION")),
    ("Dirigir correspondencia a Calle Tirso de Molina, 16, Bajo 1.", ("Calle Tirso de Molina, 16, Bajo 1", "LOCATION")),
    # A country closing an address line, without a comma before it.
    ("Avda. Carlos Haya s/n 29010 Málaga España E-mail: autor@correo.es", ("España", "LOCATION")),
    ("C/ Sol 4. 23009 Jaén. España. Correo electrónico: autor@correo.es", ("España", "LOCATION")),
    ("Paciente de 40 años de nacionalidad Argentina, remitida desde su centro.", ("Argentina", "LOCATION")),
    # A listed town in brackets or after a sentence period in an address line; a "CP:" header value.
    ("C/ Infantas, 9, 4.º C 28300 Aranjuez (Madrid) España E-mail: autor@correo.es", ("Madrid", "LOCATION")),
    ("Hospital Universitario Carlos Haya. Málaga. autor@correo.es", ("Málaga", "LOCATION")),
    ("Avenida de Elvas s/n. Badajoz.\n", ("Badajoz", "LOCATION")),
    ("Localidad/ Provincia: Holguin.\nCP: 80 100.\nNHC: 19216856.", ("80 100", "LOCATION")),
    # The age at an event and an age in apposition after a person word.
    ("Menarquia a los 12 años, menopausia a los 50 años, osteoporosis.", ("50 años", "AGE")),
    ("Fumador desde los 20 años (un paquete diario).", ("20 años", "AGE")),
    ("Motivo de ingreso: Paciente mujer, 44 años, derivada desde su centro.", ("44 años", "AGE")),
    # Names stop before the next field or address.
    ("Médico:  Isabel Errasti Viader NºCol: 46 20 58491.", ("Isabel Errasti Viader", "NAME")),
    ("Médico: Isabel Errasti Viader NºCol: 46 20 58491.", ("46 20 58491", "ID")),
    ("Responsable clínico: Dr. José Alberto Reche Sainz C/. Guzmán el Bueno, 98", ("José Alberto Reche Sainz", "NAME")),
    ("Responsable clínico:Dr. Carlos Navarro Cuéllar C/ María Molina 60, 7ºA 28006 Madrid", ("Carlos Navarro Cuéllar", "NAME")),
]  # fmt: skip


@pytest.mark.parametrize(("text", "span"), EXACT)
def test_spanish_rules_span(text: str, span: tuple[str, str]) -> None:
    assert span in resolved(text)


# (text, a string no resolved span may contain)
NOT_INSIDE = [
    ("Médico: Fabio Palau Paseo        NºCol: 08-08-2557.", "NºCol"),  # "Paseo" is a surname here
    ("Médico: Pedro Muñoz Avda NºCol: 13 13 52011.", "NºCol"),
    ("Médico:  Isabel Errasti Viader NºCol: 46 20 58491.", "NºCol"),  # "Via" + "der" is no street
    ("Responsable clínico: Dr. José Alberto Reche Sainz C/. Guzmán el Bueno, 98", "Sainz C"),
    ("Calle Mayor, 5, A Coruña", "5, A"),  # "A Coruña" is a town, not the door
    ("Vive en Calle Mayor 12, 28004 Madrid.", "12, 28004"),  # the postcode stays out of the street
    ("Se pautó Viagra 50 mg a demanda.", "Viagra"),  # "Via" needs a space before the street name
]

# Text where the new cues must find nothing.
NEGATIVE = [
    "Vive en la provincia. Madrid es grande.",  # a town after a period that does not close the line
    "El estudio Colombia mostró mejoría en la cohorte tratada",  # a country without a cue
    "Tratamiento: CPAP nocturna.",
    "Recidiva a los 3 años del diagnóstico.",  # a duration after an event, not an age
    "A los 2 años de seguimiento no hay recidiva.",
    "A los 6 meses, el paciente está asintomático.",  # months after "a los": follow-up
]


@pytest.mark.parametrize(("text", "fragment"), NOT_INSIDE)
def test_spanish_rules_do_not_stretch(text: str, fragment: str) -> None:
    assert all(fragment not in surface for surface, _ in resolved(text))


@pytest.mark.parametrize("text", NEGATIVE)
def test_spanish_address_cues_leave_running_text_alone(text: str) -> None:
    assert resolved(text) == []
