"""German pack, forms of practice cards, nursing, rescue, lab and assessment notes (sixth fresh set): hand
signs closing card entries, hyphenated initials, rescue crews, people named by title and initial, patients in
capitals, homes and practices named with "am", saint's hospitals, hospital acronyms, sickness funds, courts,
abbreviated months and other dates. Names made up."""

from __future__ import annotations

import pytest

from ._langpack import pack_coarse

_CARD = (
    "12.03.24  Pat. klagt über Husten seit 4 Tagen, kein Fieber. Lunge frei.   -bk\n"
    "14.03.24  Besser. AU bis Freitag verlängert.   GW\n"
    "15.03.24  Labor unauffällig, Befund telefonisch mitgeteilt.   Petra\n"
)

POSITIVE = [
    # Hand signs closing an entry; initials of who passed on a result.
    (_CARD, "bk", "NAME"),
    (_CARD, "GW", "NAME"),
    (_CARD, "Petra", "NAME"),
    ("Kalium 6,8 mmol/l, an Dr. Beispiel um 23:10 mitgeteilt (tw). Kontrolle", "tw", "NAME"),
    # Initials, roles and titles.
    ("Chefarzt Prof. Dr. med. H.-W. Lindner | Am Hang 3", "H.-W. Lindner", "NAME"),
    ("Karteieintrag M.-L. Ostrowski, Jg. 71\n", "M.-L. Ostrowski", "NAME"),
    ("Karteieintrag M.-L. Ostrowski, Jg. 71\n", "71", "DATE"),
    ("Besatzung: NotSan B. Quandt (TF) / RettSan K. Ehlert\n", "B. Quandt", "NAME"),
    ("Besatzung: NotSan B. Quandt (TF) / RettSan K. Ehlert\n", "K. Ehlert", "NAME"),
    ("Dienstarzt: T. Vosskamp, AÄ / Rücksprache mit OA\n", "T. Vosskamp", "NAME"),
    ("Ulm, 03.02.2024     K. Sauterbach\n", "K. Sauterbach", "NAME"),
    ("Herr T. wurde nach Einweisung aufgenommen.", "T.", "NAME"),
    ("Besuch der Tochter, Fr. K. freut sich sehr.", "K.", "NAME"),
    ("Mo, 3.6.24: Tobias K., Knie re nach Sturz", "Tobias K.", "NAME"),
    ("Mo, 3.6.24: Tobias K., Knie re nach Sturz", "Mo, 3.6.24", "DATE"),
    ("Patient: EL AMRANI, SAMIR        *12.04.1987", "EL AMRANI, SAMIR", "NAME"),
    ("KARTEIKARTE  OSMANI, ARBEN  GEB. 01.02.1975  KK: HKK", "OSMANI, ARBEN", "NAME"),
    ("KARTEIKARTE  OSMANI, ARBEN  GEB. 01.02.1975  KK: HKK", "HKK", "LOCATION"),
    ("05.06.2024  Kowalczyk, Marta\nS: Rückenschmerz", "Kowalczyk, Marta", "NAME"),
    ("Name, Vorname: Bondarenko, Olena               Geburtsdatum: 1.1.1980", "Bondarenko, Olena", "NAME"),
    ("Berger-Lindau, OÄ\n", "Berger-Lindau", "NAME"),
    ("Ansprechpartnerin: Sr. Heike Brandlmaier (WBL)", "Heike Brandlmaier", "NAME"),
    ("Dr. med. Ralf Beispiel · Sabine Wolkenstein\n", "Sabine Wolkenstein", "NAME"),
    ("EHEFRAU LEYLA SAGT, ER SCHLAEFT SCHLECHT.", "LEYLA", "NAME"),
    ("Technisch freigegeben: mta.kraushaar   Medizinisch validiert: lorenz.k\n", "mta.kraushaar", "NAME"),
    ("Unser Zeichen: KM/bl\n", "KM", "NAME"),
    # Sites: saint's hospitals, homes and practices named with "am", houses, living areas, acronyms.
    ("St.-Vinzenz-Hospital Bochum – Zentrallabor\n", "St.-Vinzenz-Hospital", "LOCATION"),
    ("St.-Vinzenz-Hospital Bochum – Zentrallabor\n", "Bochum", "LOCATION"),
    ("Seniorenzentrum Am Lindenhof – Wohnbereich Lerche\n", "Seniorenzentrum Am Lindenhof", "LOCATION"),
    ("Seniorenzentrum Am Lindenhof – Wohnbereich Lerche\n", "Wohnbereich Lerche", "LOCATION"),
    ("MRT 2021 (Radiologie am Stadtpark): unauffällig.", "Radiologie am Stadtpark", "LOCATION"),
    ("Kurzzeitpflege: Haus Eichengrund (Plagwitz) ab Montag", "Haus Eichengrund", "LOCATION"),
    ("Physiotherapie Lindenthal-Süd – Befund\n", "Physiotherapie Lindenthal-Süd", "LOCATION"),
    ("KBR – Klinik für Chirurgie\n", "KBR", "LOCATION"),
    ("Akutes Koronarsyndrom, Einweisung KBR Kardiologie.", "KBR", "LOCATION"),
    ("Teilzeit im Ev. Kinderhort Auwiese. Deutschkenntnisse gut", "Ev. Kinderhort Auwiese", "LOCATION"),
    # Organisations and places.
    ("Kasse: AOK BW, VersNr 1234", "AOK BW", "LOCATION"),
    ("Anregung einer Betreuung beim Amtsgericht Gera (Gesundheitssorge)", "Amtsgericht Gera", "LOCATION"),
    ("Medizinischer Dienst Niedersachsen\nGutachten", "Medizinischer Dienst Niedersachsen", "LOCATION"),
    ("Karteikarte MVZ Nord, Standort Pankow – Dr. Beispiel", "Pankow", "LOCATION"),
    ("Allgemeinmedizin · Bad Tölz\n", "Bad Tölz", "LOCATION"),
    ("Wohnort: ul. Długa 5, 00-238 Warszawa, Polen", "ul. Długa 5", "LOCATION"),
    ("Wohnort: ul. Długa 5, 00-238 Warszawa, Polen", "00-238", "LOCATION"),
    ("geflüchtet aus Mariupol/Ukraine. Der Ehemann", "Mariupol", "LOCATION"),
    ("Sturz beim Wandern im Thüringer Wald.", "Thüringer Wald", "LOCATION"),
    (
        "Behandlung beim Psychosozialen Zentrum für Geflüchtete Nordhessen.",
        "Psychosozialen Zentrum für Geflüchtete Nordhessen",
        "LOCATION",
    ),
    ("Beruf: Altenpflegerin (Pflegedienst Sonnenweg), viele Transfers", "Pflegedienst Sonnenweg", "LOCATION"),
    ("Fußball (FC Lindenthal 09, Kreisliga)", "FC Lindenthal 09", "LOCATION"),
    ("Pat. nach OP li Hand (St. Hedwig, 15.11.) – Weiterbehandlung", "St. Hedwig", "LOCATION"),
    ("KBR · Med. Klinik II · Am Hang 3\n", "KBR", "LOCATION"),
    ("Versichertennr. X123456789 (TK)\n", "TK", "LOCATION"),
    ("Verlegung auf Lerche am 06.03., komplikationslos.", "Lerche", "LOCATION"),
    ("UEBERW. PNEUMOLOGIE (DR. KAYA, FUERTH). RAUCHSTOPP", "FUERTH", "LOCATION"),
    ("Kontrolle geplant (Dr. Beispiel, Ulm).", "Ulm", "LOCATION"),
    ("12.2.     N 23:10  Erna ruft nach ihrer Mutter, unruhig.", "Erna", "NAME"),
    # Dates, ages and numbers.
    ("HbA1c 7,8 % (Okt.) – Kontrolle", "Okt.", "DATE"),
    ("Pille wurde Okt. 23 abgesetzt.", "Okt. 23", "DATE"),
    ("Quartal: 3/24     Unfall: nein", "3/24", "DATE"),
    ("seit ca. Weihnachten zunehmend zurückgezogen", "Weihnachten", "DATE"),
    ("Pat.: Beispiel Hilde   *02.11.31   92 J.   w", "92", "AGE"),
    ("Eingangs-Nr.: 2405191847\n", "2405191847", "ID"),
    ("TSS-Code vorhanden: 4HX2-8KLP-3QZ9)", "4HX2-8KLP-3QZ9", "ID"),
]

NEGATIVE = [
    "Befund unauffällig.   OK\n",
    "Pupillen isokor, prompt.   bds\n",
    "Dosis 5 mg.   mg\n",
    "Verlegung ins Pflegeheim am Montag.",
    "Klinik am Abend ruhig.",
    "Kontrolle im MRT geplant.",
    "Mobilisation am 3. Tag nach der Operation.",
    "Kontrolle ergab keine Besserung.   Ende\n",
    "EKG – Sinusrhythmus\n",
    "Termin in der Praxis am Telefon vereinbart.",
    "Wohnbereich informiert.",
    "Jan. kommt morgen.",
    "Verlegung auf Normalstation am Abend.",
    "Termin in der Tagesklinik (TK-Antrag läuft).",
]


@pytest.mark.parametrize(("text", "surface", "label"), POSITIVE)
def test_german_sixth_set_forms_are_found(text: str, surface: str, label: str) -> None:
    assert (surface, label) in pack_coarse("de", text)


@pytest.mark.parametrize("text", NEGATIVE)
def test_german_sixth_set_near_misses_stay_clean(text: str) -> None:
    assert pack_coarse("de", text) == set()


ABSENT = [
    ("Kontrolle bei (Dr. Beispiel, Kardiologie) geplant.", "Kardiologie"),
    ("Befund an Dr. Beispiel übermittelt.   OP\n", "OP"),
    ("Verlegung auf Intensiv am 3.3. wegen Sepsis.", "Intensiv"),
]


@pytest.mark.parametrize(("text", "surface"), ABSENT)
def test_german_sixth_set_look_alikes_are_not_taken(text: str, surface: str) -> None:
    assert surface not in {found for found, _label in pack_coarse("de", text)}
