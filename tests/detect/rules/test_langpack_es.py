"""Spanish language pack: what the rules must find, and clinical text they must leave alone (issue 16)."""

from __future__ import annotations

import pytest

from ._langpack import overlaps, pack_coarse

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
    # Spanish hospital notes (ward, nursing, discharge): dates without a cue word.
    ("Control 07/03: Leuc 9.800 PCR 64", "07/03", "DATE"),
    ("Se reintroduce Sintrom con INR 14/03 de 2,6.", "14/03", "DATE"),
    ("nota enfermeria turno noche 08/03\npte tranquila", "08/03", "DATE"),
    ("Enoxaparina 40 mg sc (última dosis 21/03).", "21/03", "DATE"),
    ("belimumab (1ª dosis 14/02, tras valoración)", "14/02", "DATE"),
    ("TC de control 28/3 sin cambios.", "28/3", "DATE"),
    ("3 bolos de metilprednisolona (5, 6 y 7/2).", "5", "DATE"),
    ("3 bolos de metilprednisolona (5, 6 y 7/2).", "6", "DATE"),
    ("3 bolos de metilprednisolona (5, 6 y 7/2).", "7/2", "DATE"),
    ("Sintrom s/ pauta, control INR el lunes 18.", "lunes 18", "DATE"),
    ("Retirada de grapas el día 20 o 21.", "día 20", "DATE"),
    ("Retirada de grapas el día 20 o 21.", "21", "DATE"),
    ("Cita en consulta el día 12 a las 10 h.", "día 12", "DATE"),
    ("1 episodio de colecistitis aguda (nov-23) tratada con ATB.", "nov-23", "DATE"),
    ("LES de larga evolución (dx en México, 2017) que ingresa", "2017", "DATE"),
    ("IQ: colecistectomía (2015), cataratas.", "2015", "DATE"),
    ("Vacunada el 3/3 en su CS.", "3/3", "DATE"),
    # Names: capitals with surnames first, nicknames, names before a role, initials in staff fields.
    ("Paciente: MUÑOZ DELGADO, ENCARNACIÓN          NHC: 0412387", "MUÑOZ DELGADO, ENCARNACIÓN", "NAME"),
    ("Paciente: VIDAL SERRANO, DOLORES     NHC: 0577012", "VIDAL SERRANO, DOLORES", "NAME"),
    ("Episodio 24-0017725.\nREY PALACIOS, MARCOS, 30 años, NHC 745301.", "REY PALACIOS, MARCOS", "NAME"),
    ('Le remitimos a su paciente Dolores Vidal Serrano ("Lola"), DNI 51233980P', "Lola", "NAME"),
    ("Llamo al pte (Paco) al nº que consta en la historia.", "Paco", "NAME"),
    ("Valorada por Fisioterapia (Pablo, fisio de planta) para movilización.", "Pablo", "NAME"),
    ("Instrumentista: Lorena   Circulante: D. Arroyo", "D. Arroyo", "NAME"),
    # Places: buildings, named units, hospital acronyms, unlisted towns, rooms, employers.
    ("Pabellón B, planta 4ª - Unidad Los Almendros", "Pabellón B", "LOCATION"),
    ("Pabellón B, planta 4ª - Unidad Los Almendros", "Unidad Los Almendros", "LOCATION"),
    ("De: Medicina Interna (Unidad Alameda, planta 5ª)   A: Cardiología", "Unidad Alameda", "LOCATION"),
    ("Destino: planta (Cirugía General, Pabellón A 3ª).", "Pabellón A", "LOCATION"),
    ("CHV - BLOQUE QUIRÚRGICO Edificio Cervera - Quirófano", "Edificio Cervera", "LOCATION"),
    ("CHV - BLOQUE QUIRÚRGICO Edificio Cervera - Quirófano", "CHV", "LOCATION"),
    ("HUV - SERVICIO DE URGENCIAS\nINFORME DE URGENCIAS", "HUV", "LOCATION"),
    ("URGENCIAS HUV - BOX VITAL 2 - CÓDIGO POLITRAUMA", "HUV", "LOCATION"),
    ("Hospital Universitario de Valdemora (CHV)\nPaciente: X", "CHV", "LOCATION"),
    ("NOTA DE INGRESO - MEDICINA INTERNA (Alameda, HUV)   05/02/2024", "Alameda", "LOCATION"),
    ("NOTA DE INGRESO - MEDICINA INTERNA (Alameda, HUV)   05/02/2024", "HUV", "LOCATION"),
    ("COMPLEJO HOSPITALARIO VALDEMORA\nIngresa desde Urgencias del CHV.", "CHV", "LOCATION"),
    ("Revisión en consultas de Geriatría del CE Las Eras el 23/04/2024.", "CE Las Eras", "LOCATION"),
    ("Paciente: Herera Cano, José   Hab 517", "517", "LOCATION"),
    ("En el domicilio (Pinto) la UVI realiza ECG.", "Pinto", "LOCATION"),
    ("Avda. de la Constitución 5, 2º dcha, Ciempozuelos, tlf 646-30-71-82", "Ciempozuelos", "LOCATION"),
    (
        "Accidente de tráfico en la carretera a la altura de Titulcia, velocidad 60 km/h.",
        "Titulcia",
        "LOCATION",
    ),
    ("Se avisa a la madre, que viene desde Aranjuez.", "Aranjuez", "LOCATION"),
    (
        "Fdo.: Dr. R. Cifuentes (nº col. 282845117)          Valdemora, 15 de marzo de 2024",
        "Valdemora",
        "LOCATION",
    ),
    ("Hospital General de Zona No. 32 del IMSS (col. Roma Sur, alcaldía Cuauhtémoc)", "Roma Sur", "LOCATION"),
    (
        "Hospital General de Zona No. 32 del IMSS (col. Roma Sur, alcaldía Cuauhtémoc)",
        "Cuauhtémoc",
        "LOCATION",
    ),
    (
        "Varón de 75 años, jubilado, antes albañil en Construcciones Hnos. Sagra. Exfumador.",
        "Construcciones Hnos. Sagra",
        "LOCATION",
    ),
    (
        "Pregunta si puede seguir trabajando en la Cooperativa Hortícola del Tajo (es tractorista).",
        "Cooperativa Hortícola del Tajo",
        "LOCATION",
    ),
    ("Guardia Civil en el lugar, atestado nº AT-2024-0319/TT.", "AT-2024-0319/TT", "ID"),
    ("F. nacimiento: 14/05/1932 (91 años)          Sexo: M", "91 años", "AGE"),
    ("Pte de 92 años, vive sola.", "92 años", "AGE"),
    ("Trasladado a UCI HUV.", "HUV", "LOCATION"),
    ("Accidente de moto cerca de Chinchón.", "Chinchón", "LOCATION"),
    ("Hospital Clínico San Carlos (HCSC)", "HCSC", "LOCATION"),
    ("Paciente: GARCÍA DE LA FUENTE, MARÍA JOSÉ   NHC: 123", "GARCÍA DE LA FUENTE, MARÍA JOSÉ", "NAME"),
    ("Ingresó 2/5 por disnea.", "2/5", "DATE"),
    ("el martes 12 a las 10 h", "martes 12", "DATE"),
]

#: A nursing note written all in lower case (names too).
_LOWER_NOTE = (
    "nota enfermeria turno noche 08/03\npte encarna muy inquieta desde las 02:00h, intenta levantarse sola. "
    "se avisa a guardia (dra. salcedo) q pauta haloperidol 0,5 sc, administrado 02:40h. a las 03:30 mas "
    "tranquila, duerme.\nllamo a su hija marta a las 06:15h para informar, dice que en casa le pasa igual "
    "algunas noches, vendrá a las 9.\nrocio c.\n"
)

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
    # Look-alikes of day-months, rooms and units in Spanish hospital notes.
    "A: NAC LII en buena evolución, día 5/7 de ceftriaxona.",
    "Día 3 bolos MP (3/3). Refiere mejoría.",
    "En el lugar: GCS 14/15 (O3), TA 95/60, FC 118.",
    "Neuro: sin focalidad, fuerza 4/5 global simétrica.",
    "Dolor controlado, EVA 7/10.",
    "Hemocultivos 2/2 negativos.",
    "Metformina 850 1-0-1; paracetamol 1 g iv c/8h.",
    "ECG 14:30 h: RS a 50 lpm.",
    "Barthel al alta 45/100.",
    "Ha comido 1/2 bandeja.",
    "Índice de actividad 11/24, cronicidad 2/12.",
    "GOT/GPT 34/41, balance muscular 2/5 en MSD y 3/5 en MSI.",
    "Ingresa en planta 4ª.",
    "Traslado a la Unidad de Cuidados Intensivos.",
    "Trasladado desde Unidad Coronaria.",
    "Día 3 de ingreso.",
    "Se revisará el lunes.",
    "Completa el tratamiento el día 9.",
    "MI - EVOLUCIÓN",
    "Calcio + vit D. Omeprazol 20.",
    "Dos años antes había ingresado en Unidad de Vigilancia Intensiva.",
    "Trabaja en Urgencias como enfermera.",
    "Edificio Principal, planta baja.",
    "Reflejos 2/4 simétricos, soplo sistólico 2/6.",
    "Invasión hasta 2/3 del espesor.",
    "Cumple los criterios de El Escorial.",
    "Empeoró cerca de Navidad.",
    "Pasa a la Unidad Docente Multiprofesional.",
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


#: (text, surface no span may cover): day-month look-alikes next to a real date, and names in ordinary text.
NOT_FOUND = [
    ("Completa 7 días de antibiótico (día 7/7 el 10/03).", "7/7"),
    ("Mujer de 91 años remitida desde URG.", "URG"),
    ("Valorada por fisioterapia; marta (hija) informada.", "marta"),
    ("Servicio de Cardiología (Unidad Coronaria, HTA)", "HTA"),
]


@pytest.mark.parametrize(("text", "surface"), NOT_FOUND)
def test_spanish_pack_leaves_near_misses(text: str, surface: str) -> None:
    assert overlaps("es", text, surface) == []


@pytest.mark.parametrize(
    ("surface", "label"),
    [("encarna", "NAME"), ("salcedo", "NAME"), ("marta", "NAME"), ("rocio c.", "NAME"), ("08/03", "DATE")],
)
def test_spanish_lower_case_note_names(surface: str, label: str) -> None:
    """A nursing note written in lower case names people in lower case too."""
    assert (surface, label) in pack_coarse("es", _LOWER_NOTE)


def test_spanish_lower_case_names_need_a_lower_case_note() -> None:
    """In an ordinarily written note a lower-case word after a kinship word is no name."""
    note = (
        "Nota de Enfermería. Paciente Tranquila Durante la Noche, Duerme Bien. Constantes Estables, Afebril. "
        "Diuresis Adecuada. Glucemia Normal. Se Cambia Pañal. Barandillas Subidas. Piel Íntegra. "
        "Llamo a su hija marta para informar."
    )
    assert ("marta", "NAME") not in pack_coarse("es", note)


@pytest.mark.parametrize("lang", ["es", "ca"])
def test_spanish_and_catalan_share_the_hospital_forms(lang: str) -> None:
    text = "Ingrés a la Unitat Les Moreres, Pavelló C. Control 07/03: bé."
    found = pack_coarse(lang, text)
    assert ("Unitat Les Moreres", "LOCATION") in found
    assert ("Pavelló C", "LOCATION") in found
    assert ("07/03", "DATE") in found
