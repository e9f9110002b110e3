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
    # Styles unlike MEDDOCAN (es2-dev notes: urgencias, enfermería, derivación, Latin American forms).
    ("Pac. López, varón de 76. Trae UVI móvil.", "76", "AGE"),
    ("Hermano de 5 años con cuadro catarral.", "5 años", "AGE"),
    ("Paciente López Betancourt, 74 a., IQ cadera dcha. ayer.", "74 a.", "AGE"),
    ("Paciente Juan Ruiz, DNI 12345678Z, de 48 años, domiciliado en Lugo.", "48 años", "AGE"),
    ("Paciente: Etxeberria Iturbide, Ana", "Etxeberria Iturbide, Ana", "NAME"),
    ("Paciente: Ibarrola Fernández, Abundio   Edad: 45", "Ibarrola Fernández, Abundio", "NAME"),
    ("Vive con su hija Xóchitl Landaverde en Monterrey.", "Xóchitl Landaverde", "NAME"),
    ("Vive con su hija Xóchitl Landaverde en Monterrey.", "Monterrey", "LOCATION"),
    ("M. Ruiz, mujer de 70 años, soltera.", "M. Ruiz", "NAME"),
    ("Psiquiatra de guardia: Ana Echavarría", "Ana Echavarría", "NAME"),
    ("Instrumentista: C. Ramírez", "C. Ramírez", "NAME"),
    ("Tiene dos hijos: José Arzuaga, que vive en Cali.", "José Arzuaga", "NAME"),
    ("Médico: Ibai Echenique, R.M. 513659", "Ibai Echenique", "NAME"),
    ("Médico: Ibai Echenique, R.M. 513659", "513659", "ID"),
    ("Lic. María Irigoyen – Trabajadora Social", "María Irigoyen", "NAME"),
    ("Celular: (011) 4941-7199", "(011) 4941-7199", "CONTACT"),
    ("Avisar a la busca 975 156220 si oliguria.", "975 156220", "CONTACT"),
    ("Nombre: Arzuaga Arriola   C.C. 40.575.467", "40.575.467", "ID"),
    ("NSS: 69 60690448 33   CURP: EGLC658410MUSGTM45", "EGLC658410MUSGTM45", "ID"),
    ("Obra social: 52-33609335-5/51", "52-33609335-5/51", "ID"),
    ("Jubilada, antes auxiliar de enfermería.", "auxiliar de enfermería", "PROFESSION"),
    (
        "Destino: Servicio de Digestivo, Hospital Universitario La Paz",
        "Hospital Universitario La Paz",
        "LOCATION",
    ),
    ("Derivada a la Clínica Santa Elena.", "Clínica Santa Elena", "LOCATION"),
    ("URGENCIAS – HOSPITAL ITALIANO DE BUENOS AIRES", "HOSPITAL ITALIANO DE BUENOS AIRES", "LOCATION"),
    ("CENTRO: HOSPITAL GENERAL DE PUIGCERDÀ   UNIDAD: UCI", "HOSPITAL GENERAL DE PUIGCERDÀ", "LOCATION"),
    ("Hospital General de Zona No. 46 – Urgencias", "Hospital General de Zona No. 46", "LOCATION"),
    ("Domicilio: Av. Rivadavia, 120, Col. Barranquilla, C.P. 60969", "Av. Rivadavia, 120", "LOCATION"),
    ("Domicilio: Av. Rivadavia, 120, Col. Barranquilla, C.P. 60969", "Barranquilla", "LOCATION"),
    ("Domicilio: Av. Rivadavia, 120, Col. Barranquilla, C.P. 60969", "60969", "LOCATION"),
    (
        "Dirección: C/ Mayor, 92, piso 12, depto. B   28011 Madrid",
        "C/ Mayor, 92, piso 12, depto. B",
        "LOCATION",
    ),
    ("Domiciliado en Calle 40 No. 94-92, Rosario.", "Calle 40 No. 94-92", "LOCATION"),
    ("Domiciliado en Calle 40 No. 94-92, Rosario.", "Rosario", "LOCATION"),
    ("02083 Ciudad de México", "Ciudad de México", "LOCATION"),
    ("Zaragoza, a 3 de mayo de 2020", "Zaragoza", "LOCATION"),
    ("Trabajaba como contable en Adeslas hasta 2019.", "Adeslas", "LOCATION"),
    ("Se comunica al Ayuntamiento de Getafe.", "Ayuntamiento de Getafe", "LOCATION"),
    ("Clínica Médica, Sala 3.93", "3.93", "LOCATION"),
    ("Vive con sus padres en Villanueva de la Serena.", "Villanueva de la Serena", "LOCATION"),
    # Names listed after a plural title; a CIP printed in groups.
    ("Intervienen los Dres. Pérez y Gómez.", "Pérez", "NAME"),
    ("Intervienen los Dres. Pérez y Gómez.", "Gómez", "NAME"),
    ("Revisado por las Dras. Ruiz, Soto y Martín Alonso.", "Soto", "NAME"),
    ("Revisado por las Dras. Ruiz, Soto y Martín Alonso.", "Martín Alonso", "NAME"),
    ("Comentado con la Dra. Ruiz y el Dr. Soto.", "Soto", "NAME"),
    ("DNI 13983889G   CIP NHSD 5 215998 52 5", "NHSD 5 215998 52 5", "ID"),
    ("TSI: GAMA 0 123456 78 9", "GAMA 0 123456 78 9", "ID"),
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
    "Lumbalgia, de 3 años de evolución, sin irradiación.",
    "Ingresa en Clínica Médica para estudio.",
    "Traslado a HOSPITAL DE DÍA ONCOLÓGICO.",
    "TRASLADO A HOSPITAL PARA VALORACIÓN.",
    "Control en 6 meses con analítica.",
    "Glucemia 142 mg/dl a las 19 h, se administran 4 ui de insulina rápida.",
    "Vive en una residencia desde hace dos años.",
    "Escala de Glasgow 15, Barthel 90, Braden 14.",
    "Servicio de Cardiología, planta 4ª.",
    "Sala de espera de Urgencias.",
    "Tiene dos hijos: uno de ellos vive cerca.",
    "Se cita en consulta en 3 meses.",
    "Madre Rh negativo, niño IgG positivo.",
    "Hijo de una madre diabética.",
    "Ingresa en la Residencia Geriátrica tras el alta.",
    "Según los Dres. de guardia, sin cambios.",
    "ECOG 1, Karnofsky 80, Charlson 4.",
    "PCR 1 234 mg/l, ferritina 56 ng/ml.",
]


@pytest.mark.parametrize(("text", "surface", "label"), POSITIVE)
def test_spanish_pack_finds(text: str, surface: str, label: str) -> None:
    assert (surface, label) in pack_coarse("es", text)


@pytest.mark.parametrize("text", NEGATIVE)
def test_spanish_pack_leaves_clinical_text_alone(text: str) -> None:
    assert pack_coarse("es", text) == set()


def test_spanish_plural_title_splits_the_names() -> None:
    """After "Dres." the "y" joins two people, not a compound surname (``Pérez y Gómez``)."""
    found = pack_coarse("es", "Intervienen los Dres. Pérez y Gómez.")
    assert ("Pérez y Gómez", "NAME") not in found
    # After a singular title the compound surname stays whole.
    assert ("Ortega y Gasset", "NAME") in pack_coarse("es", "Valorado por el Dr. Ortega y Gasset.")
