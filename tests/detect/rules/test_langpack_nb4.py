"""Norwegian pack, forms of primary-care, municipal and DPS notes from Northern Norway and Oslo (sixth
fresh set): meeting minutes with a list of participants, signatures by initials, weekday dates with their
closing period, seasons of a year, place names by their ending, home-care services with their town, notes
in lower case, and message identifiers. Names made up."""

from __future__ import annotations

import pytest

from ._langpack import pack_coarse

_LOWER_NOTE = (
    "tilsyn sykehjem\nkari nordmann, tilbake fra sykehus etter brudd i hofta. nå feber og hoste, mulig "
    "pneumoni. snakket med sønnen på telefon i dag, enig i plan. datteren i tromsø får beskjed av ham. "
    "hun kommer kanskje, reiser fra harstad i morgen. spl. ordner rom til pårørende\n"
)

POSITIVE = [
    # Meeting minutes: the participants, each before a role, a kin word or "(bruker)"; the minute-taker.
    ("Til stede:\n- Åse Marie Vik (bruker)\n- Ola Vik, bror\n", "Åse Marie Vik", "NAME"),
    ("Til stede:\n- Åse Marie Vik (bruker)\n- Ola Vik, bror\n", "Ola Vik", "NAME"),
    ("- Brita Aaslund, ergoterapeut, kommunen\n", "Brita Aaslund", "NAME"),
    ("- Eskil Nyberg, vernepleier, bo-oppfølging\n", "Eskil Nyberg", "NAME"),
    ("Oppfølging avtalt.\n\nSigrun Tveit, helsesykepleier (vikar)\n", "Sigrun Tveit", "NAME"),
    ("Fra: Halvard Moe, fastlege, Fjordtun legesenter\n", "Halvard Moe", "NAME"),
    ("Referent: K. Aasen\n", "K. Aasen", "NAME"),
    ("Mvh H. Moe, direkte tlf 22 00 00 00\n", "H. Moe", "NAME"),
    # Signatures by initials or a user name alone on the line; a nurse without the abbreviation's period.
    ("Sover godt.\nsign. ELH\n", "ELH", "NAME"),
    ("Sover godt.\nsign. ab / kl\n", "ab", "NAME"),
    ("Registrert av: hansv\n", "hansv", "NAME"),
    ("kl 08.05 - spl Marte L.: Lå i senga", "Marte L.", "NAME"),
    # The patient before an age after a verb, and a patient field with the birth number in brackets.
    ("Bakgrunn: Yonas er 16 år. Kom til Norge", "Yonas", "NAME"),
    ("Pas.: Oddbjørn Hage (010203 12345)\nInnkomst", "Oddbjørn Hage", "NAME"),
    # Dates: a weekday (also abbreviated) with the closing period, a part of the day, a season of a year.
    ("- Kontroll fredag 15.3.\n- Kona informert", "fredag 15.3.", "DATE"),
    ("Ons 17.4 kl 08.05 besøk", "Ons 17.4", "DATE"),
    ("sign. ELH\n\n14.3 kveld\n19:20 Sover", "14.3", "DATE"),
    ("Flyttet til Norge høsten 2021, bor med mor.", "høsten 2021", "DATE"),
    # Places: a name by the ending of a place name; a home-care service and its town; a named zone.
    ("Reiser på sommerbeite på Sørøya i mai.", "Sørøya", "LOCATION"),
    ("De bor hjemme på Furuås.\n", "Furuås", "LOCATION"),
    ("Hytta ved Čoalmmijávri, uten veg.", "Čoalmmijávri", "LOCATION"),
    ("Til: Hjemmetjenesten Hammerfest, sone nord\n", "Hammerfest", "LOCATION"),
    ("Hjemmetjenesten Alta - sone Bossekop\n", "Bossekop", "LOCATION"),
    ("Legevisitt Nordtun sykehjem tirsdag", "Nordtun sykehjem", "LOCATION"),
    ("Legevakta i Kautokeino, natt til søndag", "Kautokeino", "LOCATION"),
    (_LOWER_NOTE, "tromsø", "LOCATION"),
    (_LOWER_NOTE, "harstad", "LOCATION"),
    ("Fly fra Båtsfjord i morgen.", "Båtsfjord", "LOCATION"),
    ("Innkomst 02:47   Avdeling: Nordlys 3\n", "Nordlys 3", "LOCATION"),
    ("Sykehuset Nord, med. sengepost Fjellbu 2\n", "Fjellbu 2", "LOCATION"),
    ("BUP Solhaug, Ungdomsenheten Måken\nDato:", "BUP Solhaug", "LOCATION"),
    ("BUP Solhaug, Ungdomsenheten Måken\nDato:", "Ungdomsenheten Måken", "LOCATION"),
    ("Sted: møterom 3.12, Fjellheim omsorgssenter\n", "3.12", "LOCATION"),
    ("Kontor: Østre Strandvegen 4, 9000 Tromsø\n", "Østre Strandvegen 4", "LOCATION"),
    ("- Nils Eira, psykolog, VDPS (Teams)\n", "VDPS", "LOCATION"),
    ("Hun reiser til Polen (Gdańsk) i tre uker.", "Gdańsk", "LOCATION"),
    ("Kontroll om 1 uke ved Fjordlys spesialistsenter i Alta.", "Fjordlys spesialistsenter", "LOCATION"),
    ("Resept sendt Havblikk apotek i dag.", "Havblikk apotek", "LOCATION"),
    ("Begravelsesbyrå: Nordkapp Gravferd, kontaktes av sønnen.", "Nordkapp Gravferd", "LOCATION"),
    # More names: the staff of a shift, a relative by a kin label, a row of a name and its initials,
    # a name opening a line of a lower-case note, the writer's initials on the last line.
    ("Huden hel.\n\nnatt: Sunniva / Trygve\n", "Sunniva", "NAME"),
    ("Huden hel.\n\nnatt: Sunniva / Trygve\n", "Trygve", "NAME"),
    ("Barn: født 05.11.23\nMor: Sárá, far: Ovllá. Reindrift.", "Sárá", "NAME"),
    ("Plate fjernes ikke.\nK-A Sørensen / KAS\n", "KAS", "NAME"),
    ("Eli Moe (datter), tlf 900 00 000. Per Moe (sønn, Alta)\n", "Per Moe", "NAME"),
    (_LOWER_NOTE, "kari nordmann", "NAME"),
    ("Obs svangerskapsforgiftning, BT 160/100.\nKB\n", "KB", "NAME"),
    ("Helsestasjon\nBarn: Sigrid Eira   f. 05.11.23\n", "Sigrid Eira", "NAME"),
    ("heimesjukepleia v/ Sárá Eira, fastlege Per Berg.", "Sárá Eira", "NAME"),
    ("helsesykepleier når mulig - Marit tar neste kontroll.", "Marit", "NAME"),
    ("Råd: dra til fødeavd. NKS nå.", "NKS", "LOCATION"),
    # More dates: a day and an abbreviated month, with or without a weekday; a holiday.
    ("innføringsklasse til jul, så ordinær klasse", "jul", "DATE"),
    ("Besøk kl 10.30 fre. 16. feb\nHjemme igjen", "fre. 16. feb", "DATE"),
    ("Ny kontroll 3. okt, fastlege.", "3. okt", "DATE"),
    # A message identifier written as a UUID.
    ("Meldings-ID: 0f8e2a10-1b2c-4d5e-8f90-a1b2c3d4e5f6\n", "0f8e2a10-1b2c-4d5e-8f90-a1b2c3d4e5f6", "ID"),
]

NEGATIVE = [
    "Smerte 5/10 -> 2/10 kl 02.30.",
    "Smerte 6/10 kl 23 -> Oxynorm 5 mg po, 3/10 kl 23.45.",
    "PHQ-9 17, GAD-7 16, PC-PTSD-5: 4/5.",
    "Reiser med fly (avgang 07.05).",
    "Fått ASA 300 mg og ticagrelor 180 mg.",
    "Samtaler i Rask psykisk helsehjelp.",
    "2. Behandling DPS\n",
    "Barn: Gutt, 3820 g.",
    "sign. ok\n",
    "Legevakta i dag, natt til søndag.",
    "Går på ski i helgen.",
    "Mor: Diabetes, far: Hjerteinfarkt.",
    "Bruker Metformin (Glucophage) daglig.",
    "natt: Rolig\n",
    "Hb i svangerskapet 11.4-12.0. Hb ved utreise 8.6.\n",
    "Lab: LPK 14.8, nøytro 12.9.",
    "Obs.\nEKG\n",
    "Ringte apotek i dag.",
    "Sendt v/ Posten.",
    "Pasient i fødeavd. KAD i dag.",
    "Mor: Brystkreft, far: Frisk.\n",
]


@pytest.mark.parametrize(("text", "surface", "label"), POSITIVE)
def test_norwegian_sixth_set_forms_are_found(text: str, surface: str, label: str) -> None:
    assert (surface, label) in pack_coarse("nb", text)


@pytest.mark.parametrize("text", NEGATIVE)
def test_norwegian_sixth_set_near_misses_stay_clean(text: str) -> None:
    assert pack_coarse("nb", text) == set()
