"""German pack, forms of Swiss, Austrian and German notes (third fresh set): named sites, schools and
businesses, four-digit postcodes, staff named by an initial and a role, relatives by their given name,
notes in capitals or lower case, and dates of the current month or a month and year. Names made up."""

from __future__ import annotations

import pytest

from ._langpack import pack_coarse

_CAPS_NOTE = (
    "PFLEGEBERICHT NACHTDIENST 14.3. STATION GRIMSEL\nPAT. SCHLÄFT RUHIG, SCHMERZ NRS 2/10. WUNDE TROCKEN.\n"
    "TOCHTER MARLIES (TEL. 079 123 45 67) HAT ANGERUFEN. ANMELDUNG REHAKLINIK SEEWARTE LÄUFT.\n"
    "PFLEGEFACHFRAU BEATRICE\n"
)
_LOWER_NOTE = (
    "verlauf 12.4. frühdienst\npat. heute ruhiger, gespräch mit bezugspflege (tobias) über den tag.\n"
    "ehefrau (monika) ruft an, fragt nach der reha. wunschklinik: reha-zentrum tannenhalde in gersbach.\n"
    "mobi mit physio bis zum gang.\nk. zellweger\n"
)

POSITIVE = [
    # Hospitals, homes and care centres named after their kind.
    (
        "Eintritt aus dem Alters- und Pflegeheim Birkenhof, Uster.",
        "Alters- und Pflegeheim Birkenhof",
        "LOCATION",
    ),
    ("Vorhospitalisation (Kinderspital Sankt Verena).", "Kinderspital Sankt Verena", "LOCATION"),
    ("Landesklinikum Moorland Süd – Abteilung für Innere Medizin", "Landesklinikum Moorland Süd", "LOCATION"),
    ("LKH West – Zentrale Notaufnahme\n", "LKH West", "LOCATION"),
    ("Verlegung ins Unfallkrankenhaus Seetal nach Rücksprache.", "Unfallkrankenhaus Seetal", "LOCATION"),
    ("Pflegefachfrau im Alterszentrum Lindenmatt. Seither", "Alterszentrum Lindenmatt", "LOCATION"),
    ("Psychiatrische Klinik Eichbühl – Eintritt\n", "Psychiatrische Klinik Eichbühl", "LOCATION"),
    ("Konsil – Haus Tamina, 2. OG\n", "Haus Tamina", "LOCATION"),
    # Schools, clubs, parishes and businesses; the town after one.
    ("Schule: 3. Klasse Primarschule Rosenau. Befund", "Primarschule Rosenau", "LOCATION"),
    ("Schule: 8. Klasse Seeland-Gymnasium Biel, gute Noten", "Seeland-Gymnasium Biel", "LOCATION"),
    ("Sie arbeitet in der Metzgerei Imboden in Sursee, Teilzeit.", "Metzgerei Imboden", "LOCATION"),
    ("Sie arbeitet in der Metzgerei Imboden in Sursee, Teilzeit.", "Sursee", "LOCATION"),
    ("Chauffeur bei der Spedition Gmür (Sargans). Raucher.", "Sargans", "LOCATION"),
    ("aktiv im Kirchenchor der Pfarre St. Florian. Keine", "Pfarre St. Florian", "LOCATION"),
    ("Training im LAV Sensetal). Amenorrhoe", "LAV Sensetal", "LOCATION"),
    # Postcodes and towns; towns in brackets after a described person; quarters of listed towns.
    ("lebt in einer Wohnung (Kirchgasse 4, 6850 Dornbirn), allein", "6850", "LOCATION"),
    ("Pat.: Anna Beispiel, 01.02.1940, Sonnhalde, 8405 Seuzach | PID 1", "8405", "LOCATION"),
    ("ambulant bei Dr. med. T. Gisler (Psychiater, Arbon), zuletzt 2023", "Arbon", "LOCATION"),
    ("Zuweisung durch Hebamme S. Ineichen (freipraktizierend, Sursee) bei", "Sursee", "LOCATION"),
    ("Die Wohnung in Oberwinterthur wurde gekündigt.", "Oberwinterthur", "LOCATION"),
    ("lebt in einem Haus in Dornbirn-Rohrbach. Pflegegeld", "Dornbirn-Rohrbach", "LOCATION"),
    ("Hof in Märwilen, seit 2019 Rente", "Märwilen", "LOCATION"),
    ("Hausärztin Dr.in Ilse Beispiel, Bad Ischl, wg. Fieber", "Bad Ischl", "LOCATION"),
    # Staff named by an initial, a title or a role; relatives by their given name.
    ("Notiert: M. Zwahlen, Hebamme / Station Aare\n", "M. Zwahlen", "NAME"),
    ("Termin vereinbart. | H. Kofler, DSA\n", "H. Kofler", "NAME"),
    ("OA Dr. T. Berger / Dr.in S. Gstrein, Assistenzärztin\n", "S. Gstrein", "NAME"),
    ("oberärztin / med. pract. L. Camenzind, Assistenzärztin\n", "L. Camenzind", "NAME"),
    ("1. Assistenz: dipl. Ärztin R. Tschopp   Anästhesie: Dr. B. Wyss", "R. Tschopp", "NAME"),
    ("Anruf von Hebamme Zgraggen (079 555 11 22): Wöchnerin Tag 5", "Zgraggen", "NAME"),
    ("Die Ehefrau Rösli wünscht ein Gespräch.", "Rösli", "NAME"),
    ("Teilnehmende: Nina, Mutter, Vater, Bezugspflege (Stefan)", "Nina", "NAME"),
    ("Teilnehmende: Nina, Mutter, Vater, Bezugspflege (Stefan)", "Stefan", "NAME"),
    ("Mia K., 15 J. (*03.04.2009), PID 1", "Mia K.", "NAME"),
    ("Unterschrift: OA Dr. med. P. Gerber / tkeller\n", "tkeller", "NAME"),
    (_CAPS_NOTE, "STATION GRIMSEL", "LOCATION"),
    (_CAPS_NOTE, "MARLIES", "NAME"),
    (_CAPS_NOTE, "REHAKLINIK SEEWARTE", "LOCATION"),
    (_CAPS_NOTE, "BEATRICE", "NAME"),
    (_LOWER_NOTE, "tobias", "NAME"),
    (_LOWER_NOTE, "monika", "NAME"),
    (_LOWER_NOTE, "reha-zentrum tannenhalde", "LOCATION"),
    (_LOWER_NOTE, "gersbach", "LOCATION"),
    (_LOWER_NOTE, "k. zellweger", "NAME"),
    # Hospital acronyms after more unit words; dates of the current month, month and year, a Friday.
    ("Eintritt Gebärsaal SKB – 03.04.2024 22:10", "SKB", "LOCATION"),
    ("RADIOLOGIE SKB – CT Thorax\n", "SKB", "LOCATION"),
    ("Seit Jänner 2 Stürze, zuletzt am 5. d.M. (Anlass)", "5. d.M.", "DATE"),
    ("Diabetes mellitus Typ 2 (HbA1c 7,1 % 03/24), Hypertonie", "03/24", "DATE"),
    ("Distorsion OSG links (02/23) ohne Folgen", "02/23", "DATE"),
    ("Bettenzusage für Fr. 16.2. erhalten", "Fr. 16.2.", "DATE"),
]

NEGATIVE = [
    "Verlegung in ein Pflegeheim geplant.",
    "Klinik am Abend ruhig.",
    "Kontrolle in der Primarschule Montag.",
    "Schmerz NRS 03/10, Kraft 04/05 re.",
    "Dosis 10/20 mg täglich.",
    "Verlegung auf Station Nord.",
    "VERLEGUNG AUF STATION NORD.",
    "Gehstrecke (1500 Schritte, Rollator) täglich",
    "Bilanz: 2500 Kalorien, 1800 Trinkmenge",
    "Ehefrau informiert, kommt morgen.",
    "Der SV Beitrag ist bezahlt.",
    "Fr. 12:00 Uhr Visite",
    "Das war ein 08/15 Verfahren.",
    "Hotel Mama, Student.",
]


@pytest.mark.parametrize(("text", "surface", "label"), POSITIVE)
def test_german_third_set_forms_are_found(text: str, surface: str, label: str) -> None:
    assert (surface, label) in pack_coarse("de", text)


@pytest.mark.parametrize("text", NEGATIVE)
def test_german_third_set_near_misses_stay_clean(text: str) -> None:
    assert pack_coarse("de", text) == set()
