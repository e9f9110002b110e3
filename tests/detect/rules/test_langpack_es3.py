"""Spanish pack, forms of notes from Spain (Andalusia, Galicia, the Canaries, Valencia, Madrid, Castile and
León), Peru, Uruguay, Venezuela and Cuba (third Spanish fresh set): professional registrations and
identity numbers of those countries, episode codes and extensions, bare days and month abbreviations,
hospitals by abbreviation and acronym, named wards, polyclinics, schools, associations and companies,
residents and team roles, names in brackets after a person noun, surnames before a comma. Names made up."""

from __future__ import annotations

import pytest

from ._langpack import pack_coarse

_LOWER_NOTE = (
    "informe asistencial svb – aviso por caída en domicilio\n"
    "pte: marta, mujer de 80 años, encontrada en el suelo de la cocina por su vecina, consciente y orientada.\n"
    "refiere dolor en cadera derecha, acortamiento y rotación externa del miembro inferior. sin otras lesiones.\n"
    "se inmoviliza, se canaliza vía periférica y se administra analgesia. traslado sin incidencias.\n"
    "médico lópez · enf. ruiz · téc. garcía\n"
)

POSITIVE = [
    # Registrations of doctors (Peru, Venezuela, Uruguay, Cuba, Galicia) and national identity numbers.
    ("Médico Asistente – CMP 031122  RNE 014455", "031122", "ID"),
    ("Médico Asistente – CMP 031122  RNE 014455", "014455", "ID"),
    ("Dra. Ana Pérez – Pediatra   MPPS 71.204   C.M. 12.930", "71.204", "ID"),
    ("Dra. Ana Pérez – Pediatra   MPPS 71.204   C.M. 12.930", "12.930", "ID"),
    ("Pediatra | MPPS 71204   CMDM 12930 | Telf.", "12930", "ID"),
    ("Médico Internista – Reg. MSP 33.871", "33.871", "ID"),
    ("Especialista en MGI – Reg. prof. 40118", "40118", "ID"),
    ("explicou o Dr. Souto (nº colexiado 15/04471) os riscos", "15/04471", "ID"),
    ("Madre: Ana Pérez, C.I. V-14.552.901, teléfono", "V-14.552.901", "ID"),
    ("Documentos: cédula de ciudadanía colombiana 1.023.456.789; pasaporte", "1.023.456.789", "ID"),
    ("Seguro: EsSalud – autogenerado 6803114PRGMZ007 | Procedencia", "6803114PRGMZ007", "ID"),
    ("NHC 0123456   CIPAC 1234567890 | Ingreso", "1234567890", "ID"),
    ("Nº episodio: HOS/23/004512   F. ingreso", "HOS/23/004512", "ID"),
    ("informe svb – incidente 38-240115-0042 | fecha", "38-240115-0042", "ID"),
    ("Trabajadora Social – Ext. 5123 – correo", "5123", "CONTACT"),
    ("Telf. del servicio: (0241) 832.19.04", "(0241) 832.19.04", "CONTACT"),
    # Bare days and month abbreviations with a cue, a bullet or a colon.
    ("Procedimientos:\n- 09/03: desbridamiento quirúrgico\n", "09/03", "DATE"),
    ("Evolución:\n- 14 mar.: retirada de drenaje\n- 18 abr: alta\n", "18 abr", "DATE"),
    ("peso 71 kg (73,2 en oct), IMC 26", "oct", "DATE"),
    ("Estancia en UCI 72 h, en planta desde el 12.", "12", "DATE"),
    ("ingresada desde el 3 hasta el 9 de mayo de 2024", "3", "DATE"),
    ("Ingreso: día 4   Alta: 12 de mayo de 2024", "día 4", "DATE"),
    ("con empeoramiento el día 6: fiebre de 38,9", "día 6", "DATE"),
    ("Salida de fin de semana (21-22/9) sin incidencias.", "21-22/9", "DATE"),
    ("en Maracay, a los catorce días del mes de marzo de 2024.", "catorce días del mes de", "DATE"),
    # Hospitals by abbreviation and acronym, named wards and units.
    ("Traslado: H. U. Virgen del Monte (box 2). Se avisa", "H. U. Virgen del Monte", "LOCATION"),
    ("URGENCIAS — H. C. Los Almendros\n", "H. C. Los Almendros", "LOCATION"),
    ("Trabajo Social – H. Comarcal Valle Alto\nFecha", "H. Comarcal Valle Alto", "LOCATION"),
    ("Revisión en consultas de Cardiología CHUXQ en 3 meses.", "CHUXQ", "LOCATION"),
    ("se decide derivación a urgencias HUPQ.", "HUPQ", "LOCATION"),
    ("Servicio de Urología, HUXR\n\nPaciente", "HUXR", "LOCATION"),
    ("VALORACIÓN SOCIAL – HUZB\nMotivo", "HUZB", "LOCATION"),
    ("De: Cirugía General (Ons 3, cama 305-A) — Dr. Ruiz", "Ons 3", "LOCATION"),
    ("PLAN: Ingreso en Tambre 2. Dieta absoluta", "Tambre 2", "LOCATION"),
    ("Servicio de Medicina Interna · Unidad Tormes 3\nINFORME", "Unidad Tormes 3", "LOCATION"),
    ("Resid. Los Almendros – nota de evolución", "Resid. Los Almendros", "LOCATION"),
    ("POLICLÍNICO DOCENTE PLAYA\nConsulta de Medicina General", "POLICLÍNICO DOCENTE PLAYA", "LOCATION"),
    ("Policlínico Docente Playa – La Habana\n", "Policlínico Docente Playa", "LOCATION"),
    (
        "COMPLEXO HOSPITALARIO UNIVERSITARIO DO MIÑO\nServizo",
        "COMPLEXO HOSPITALARIO UNIVERSITARIO DO MIÑO",
        "LOCATION",
    ),
    ("Centre de Salut Les Moreres – Consulta\n", "Centre de Salut Les Moreres", "LOCATION"),
    ("cita en USM Los Pinos el lunes", "USM Los Pinos", "LOCATION"),
    ("Derivación a Servicios Sociales (CSS Los Cármenes) para ayuda", "CSS Los Cármenes", "LOCATION"),
    ("Vai á escola infantil (EI O Souto), varios nenos", "EI O Souto", "LOCATION"),
    ("actividad física en la U.E. Las Acacias con premedicación", "U.E. Las Acacias", "LOCATION"),
    ("Derivación a Asociación Brisa Nueva (mediadora)", "Asociación Brisa Nueva", "LOCATION"),
    ("retomar las clases en la Academia de Baile Luna Nueva).", "Academia de Baile Luna Nueva", "LOCATION"),
    ("envasadora (Frutas Valleverde S.C.A.) desde 2019", "Frutas Valleverde S.C.A.", "LOCATION"),
    ("REPÚBLICA BOLIVARIANA DE VENEZUELA\nHOSPITAL", "REPÚBLICA BOLIVARIANA DE VENEZUELA", "LOCATION"),
    # Addresses and towns.
    ("LOCALIZACIÓN: TRAV. DE LA HERRERÍA, 4 – PUEBLO\n", "TRAV. DE LA HERRERÍA, 4", "LOCATION"),
    ("LOCALIZACIÓN: TRAV. DE LA HERRERÍA, 4, BAJO – PUEBLO\n", "TRAV. DE LA HERRERÍA, 4, BAJO", "LOCATION"),
    ("su lugar de destino (Sevilla, España), para lo cual", "Sevilla", "LOCATION"),
    ("Procedencia: domicilio (Valdeolmos), en ambulancia", "Valdeolmos", "LOCATION"),
    ("vive en una chabola (término municipal de Moguer)", "Moguer", "LOCATION"),
    ("Natural de Azpeitia (Gipuzkoa), jubilado", "Gipuzkoa", "LOCATION"),
    (
        "Residencia El Pinar, Ctra. de la Sierra, km 4, 09400 Aranda de Duero",
        "Ctra. de la Sierra, km 4",
        "LOCATION",
    ),
    ("vive en Calle 17 No. 204 e/ 4 y 6, Rpto. Sueño, con su hija", "Calle 17 No. 204 e/ 4 y 6", "LOCATION"),
    ("vive en Calle 17 No. 204 e/ 4 y 6, Rpto. Sueño, con su hija", "Sueño", "LOCATION"),
    ("piso compartido, C/ Mayor, 3, 2º 1, 28019 (Carabanchel). La madre", "28019", "LOCATION"),
    ("piso compartido, C/ Mayor, 3, 2º 1, 28019 (Carabanchel). La madre", "Carabanchel", "LOCATION"),
    (
        "Sexo: F\nProcedencia: San Martín de Porres     Natural de: Juliaca\n",
        "San Martín de Porres",
        "LOCATION",
    ),
    ("barrio La Pastora, Caracas, estado Miranda\n\nMOTIVO", "Miranda", "LOCATION"),
    ("Policlínico Docente Playa – Santiago de Cuba\n", "Santiago de Cuba", "LOCATION"),
    ("UNIDAD: UME BENAVENTE        FECHA: 03-11-24", "BENAVENTE", "LOCATION"),
    ("del paciente).\n\nEn Ourense, a 12 de mayo de 2024", "Ourense", "LOCATION"),
    ("natural de Iași (Rumanía). Llegó hace 3 años", "Rumanía", "LOCATION"),
    ("dirección: c/ Mayor 3, 2º B, Tafira, Telde – llama su hijo", "Telde", "LOCATION"),
    ("vive en el paraje Los Llanos del Río (a 3 km)", "Los Llanos del Río", "LOCATION"),
    ("CONSULTA CS O VAL — Dra. Rey\n", "CS O VAL", "LOCATION"),
    # Residents, team roles, names in brackets after a person noun, surnames before a comma.
    ("Dr. P. Souto / R2 Brais Otero\n", "Brais Otero", "NAME"),
    ("bloqueo femoral (R1 Quintana). Paracetamol 1 g", "Quintana", "NAME"),
    ("Apellidos y nombres: HUAMANÍ CCORI, ELMER\nDNI: 41233908", "HUAMANÍ CCORI, ELMER", "NAME"),
    ("DUE: Arroyo     TES: Rubén / Dani\n", "Arroyo", "NAME"),
    ("DUE: Arroyo     TES: Rubén / Dani\n", "Dani", "NAME"),
    ("Médico residente: T. Quispe (R2)\n", "T. Quispe", "NAME"),
    ("MÉDICO: L. PRIETO   ENF.: A.M. CASTRO   TES: PACO\n", "A.M. CASTRO", "NAME"),
    (_LOWER_NOTE, "lópez", "NAME"),
    (_LOWER_NOTE, "marta", "NAME"),
    ("D./Dna. Antón Lema Pardiñas, con DNI 12345678Z", "Antón Lema Pardiñas", "NAME"),
    ("Que o/a Dr./Dra. Brais Outeiro Lema me explicou", "Brais Outeiro Lema", "NAME"),
    ("Representante: Mariela Alejandra Duarte (madre), C.I.", "Mariela Alejandra Duarte", "NAME"),
    ("que el niño Andrés Felipe Rojas R., de 7 años", "Andrés Felipe Rojas R.", "NAME"),
    ("Avisan auxiliares (Loli) porque no come", "Loli", "NAME"),
    ("con ayuda de un compañero de trabajo (Dorin). Sin AP", "Dorin", "NAME"),
    ("Viene con su cuñada que traduce (Wenjing). Se ofrece", "Wenjing", "NAME"),
    ("ESPOSA (MERCEDES) QUEDA EN DOMICILIO", "MERCEDES", "NAME"),
    ("Pac. WANG, Lihua, 41a, nueva en el cupo", "WANG, Lihua", "NAME"),
    ("Paciente: Ríos Cárdenas, Jhonatan Steven – NHC 5102764", "Ríos Cárdenas, Jhonatan Steven", "NAME"),
    ("Dra. Osuna, CS Las Palmeras — pac. L.M.R.\n", "L.M.R.", "NAME"),
]

NEGATIVE = [
    "Códigos SNOMED: T-28000 M-80103 / T-56000 M-81403",
    "Policlínica de Ginecología – consulta",
    "Unidad de Gestión Clínica de Medicina Interna – planta 3",
    "Consulta — Policlínico de Cardiología",
    "HOJA DE ENFERMERÍA – TURNO NOCHE",
    "Ingreso en Planta 4. Ingresa en Cardiología 3 días.",
    "Planta 4, control de HTA",
    "Infección por H. pylori confirmada.",
    "amiga (Tramadol) y enfermera (Noche)",
    "Pac. HTA, Dislipemia, 70a",
    "EVA 5-7/10 en reposo.",
    "antibiótico hasta el día 7. Tolera.",
    "sin incidentes. Incidente 2 veces. ext. 2 dedos",
    "según la Asociación Americana de Diabetes",
    "El UE Derecho. EI Derecha. CSS Normal.",
    "Total, 12000 (Aprox)",
    "Procedencia: UVI móvil   Triaje",
    "parto a término de 40 semanas, traslado a domicilio (SVB)",
    "Procedencia: Urgencias Hospital General",
    "Cobertura SOAT vigente.",
    "visto por (R1 MI) de guardia",
    "Elaboró el R2 GyO de guardia",
]


@pytest.mark.parametrize(("text", "surface", "label"), POSITIVE)
def test_spanish_third_set_forms_are_found(text: str, surface: str, label: str) -> None:
    assert (surface, label) in pack_coarse("es", text)


@pytest.mark.parametrize("text", NEGATIVE)
def test_spanish_third_set_near_misses_stay_clean(text: str) -> None:
    assert pack_coarse("es", text) == set()


def test_carbon_copy_is_no_street() -> None:
    """``c.c.`` (a copy to) before a doctor is no street abbreviation ``c.``."""
    assert ("c. Dra", "LOCATION") not in pack_coarse("es", "c.c. Dra. Osuna, CS Las Palmeras")
