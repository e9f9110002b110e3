"""Spanish language pack: what the rules must find, and clinical text they must leave alone (issue 16)."""

from __future__ import annotations

import pytest

from ._langpack import pack_coarse

POSITIVE = [
    ("Médico: Dr. Ignacio Navarro Cuéllar NºCol: 28 28 70973.", "Ignacio Navarro Cuéllar", "NAME"),
    (
        "Remitido por: Dra. María Merino Viveros Hospital Universitario de Getafe",
        "María Merino Viveros",
        "NAME",
    ),
    ("Responsable clínico: Francisco Javier Torres Gómez", "Francisco Javier Torres Gómez", "NAME"),
    ("Acude acompañada de la Sra. Dña. Pilar Ruiz.", "Pilar Ruiz", "NAME"),
    ("Nombre: Ernesto.\nApellidos: Rivera Bueno.", "Rivera Bueno", "NAME"),
    ("Enf. M. Fortuny — usuario mfortuny88", "mfortuny88", "NAME"),
    ("Ingreso el 3 de marzo de 2019 por disnea.", "3 de marzo de 2019", "DATE"),
    ("Domicilio: Calle Miguel Benitez 90.", "Calle Miguel Benitez 90", "LOCATION"),
    (
        "Remitido por: X c/ del Abedul 5-7, 2º dcha 28036 Madrid, España",
        "c/ del Abedul 5-7, 2º dcha",
        "LOCATION",
    ),
    ("Remitido por: X c/ del Abedul 5-7, 2º dcha 28036 Madrid, España", "28036", "LOCATION"),
    ("Remitido por: X c/ del Abedul 5-7, 2º dcha 28036 Madrid, España", "Madrid", "LOCATION"),
    ("Remitido por: X c/ del Abedul 5-7, 2º dcha 28036 Madrid, España", "España", "LOCATION"),
    ("Avda. de América 3, 28002 Madrid", "Avda. de América 3", "LOCATION"),
    ("Localidad/ Provincia: Santiago de Compostela.", "Santiago de Compostela", "LOCATION"),
    ("CP: 28016.", "28016", "LOCATION"),
    ("País de nacimiento: Marruecos.", "Marruecos", "LOCATION"),
    (
        "Hospital Universitario de Getafe, Servicio de Urología",
        "Hospital Universitario de Getafe",
        "LOCATION",
    ),
    ("derivado al Centro de Salud Los Alpes", "Centro de Salud Los Alpes", "LOCATION"),
    ("Trabajaba en Construcciones Pérez S.L. hasta 2019.", "Construcciones Pérez S.L.", "LOCATION"),
    ("Hab. 753-T, cama A", "753-T", "LOCATION"),
    ("Tfno: 926232991", "926232991", "CONTACT"),
    ("NHC: 2748903.", "2748903", "ID"),
    ("Paciente de 70 años de edad.", "70 años", "AGE"),
    ("Trabajaba como minero en Asturias.", "minero", "PROFESSION"),
]

NEGATIVE = [
    "Paracetamol 1 g cada 8 h si dolor.",
    "Hb 12,9 g/dL, leucocitos 7.800/mm³, plaquetas 231.000/mm³.",
    "TA 138/82 mmHg, FC 74 lpm.",
    "Servicio de Cirugía Oral y Maxilofacial.",
    "Hospital de Día de Oncología",
    "hace 3 años, sin recidiva",
    "Signo de Babinski negativo.",
    "Se realiza TC craneal sin contraste.",
    "El doctor de guardia valora al paciente.",
]


@pytest.mark.parametrize(("text", "surface", "label"), POSITIVE)
def test_spanish_pack_finds(text: str, surface: str, label: str) -> None:
    assert (surface, label) in pack_coarse("es", text)


@pytest.mark.parametrize("text", NEGATIVE)
def test_spanish_pack_leaves_clinical_text_alone(text: str) -> None:
    assert pack_coarse("es", text) == set()
