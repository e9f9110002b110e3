"""Nordic forms of the fifth round (Western Norway, part nynorsk): dotted day-months in a note without
period decimals, a month and a two-digit year, nynorsk fields, capital patient lines, initials, duty
roles, hospital acronyms, agencies, pharmacies, employers, buildings, stays, a fødselsnummer on the
patient line, a user name after a signature and the names of a note written in lower case; texts
written for the tests, every name made up."""

from __future__ import annotations

import pytest

from ._langpack import pack_coarse, pack_found

# (language, text, (surface, fine label)): one row per form.
FOUND = [
    # nynorsk and capital patient fields, initials in brackets, the fødselsnummer on the patient line
    ("nn", "Tiltaksplan\nBrukar: Solvei Tornes     Adresse: Bakkevegen 3\n", ("Solvei Tornes", "PATIENT")),
    ("nb", "Traumeteam\n\nPas: HOLMEBAKK STRAND, ARVE   fnr 12345\n", ("HOLMEBAKK STRAND, ARVE", "PATIENT")),
    ("nb", "Dato 09.02.24\nPasient: HASSANI Jamal, D-nr 123\n", ("HASSANI Jamal", "PATIENT")),
    ("nn", "Medisinsk klinikk\nPasient: LIEN KARI   120345 54321\nInnlagd", ("LIEN KARI", "PATIENT")),
    ("nn", "Medisinsk klinikk\nPasient: LIEN KARI   120345 54321\nInnlagd", ("120345 54321", "SSN")),
    ("nb", "Samtale.\n\nPas. (TKL) møtte presis, alene.", ("TKL", "PATIENT")),
    ("nb", "Brekkenes legekontor\n\nGjelder: Jonas (J.V.), f. 03.03.2019\n", ("J.V.", "PATIENT")),
    # clinicians after a participle field, a duty word, a one-word role; signature lines
    ("nn", "Heimebesøk.\n\nKartlagt av: Gunn Vigdis Tornes, sjukepleiar\n", ("Gunn Vigdis Tornes", "DOCTOR")),
    ("nb", "LIS Ane Bø / bakvakt Sindre Kvalvik\n", ("Sindre Kvalvik", "DOCTOR")),
    (
        "nn",
        "Utført 27.02.24 av klinisk farmasøyt Odd Arve Bremnes\nKjelder: pasient",
        ("Odd Arve Bremnes", "DOCTOR"),
    ),
    ("nb", "Plan: rehabilitering etter akuttfasen\n\nK-E Bremnes\n", ("K-E Bremnes", "DOCTOR")),
    ("nb", "Datter kommer til helgen.\n\nTKL\n", ("TKL", "DOCTOR")),
    # a kin word before the name after a contact field
    (
        "nb",
        "Kontaktperson: kamerat Jamal Hassani (snakker norsk), tlf 46 81 22 90",
        ("Jamal Hassani", "RELATIVE"),
    ),
    # hospital acronyms
    ("nb", "- Hypertensjon\n- TURP 2016 (VSH)\n- Tremor", ("VSH", "HOSPITAL")),
    ("nb", "Rekvirent: Med. avd. VSH, LIS Ane Bø\n", ("VSH", "HOSPITAL")),
    ("nb", "Telefonnotat - Palliativt team VSH\n4/3-24 kl 0915", ("VSH", "HOSPITAL")),
    ("nb", "Oppfølging:\n- Slagpoliklinikken VSH om 3 mnd\n", ("VSH", "HOSPITAL")),
    ("nb", "kontroll hos diabetessykepleier ved VSH sist i 2019", ("VSH", "HOSPITAL")),
    ("nn", "EPIKRISE\nBrattvik rehabiliteringssenter (BRS), avdeling Sol\n", ("BRS", "HOSPITAL")),
    ("nb", "HFV Psykisk helsevern - DPS Vest\n", ("HFV", "HOSPITAL")),
    # facilities after a name, rooms
    ("nb", "Henvist fra legevakten ved Brattvik LMS pga. tung pust.", ("Brattvik LMS", "HOSPITAL")),
    ("nb", "Forrige fødsel 2021 på Strandviks BB i Göteborg", ("Strandviks BB", "HOSPITAL")),
    ("nb", "Plan: Inn på fødestue 4. Ønsker lystgass.", ("4", "ROOM")),
    # agencies, pharmacies, employers, schools
    (
        "nb",
        "Arbeidsulykke: meldt til Arbeidstilsynet, skjema NAV yrkesskade fylles ut",
        ("Arbeidstilsynet", "ORGANIZATION"),
    ),
    (
        "nn",
        "Søknad sendt NAV Hjelpemiddelsentral Vestland.",
        ("NAV Hjelpemiddelsentral Vestland", "ORGANIZATION"),
    ),
    ("nb", "Resept sendt til Apotek Bryggen\n- Ringer fastlege", ("Apotek Bryggen", "ORGANIZATION")),
    (
        "nb",
        "sykmeldt til 1. mars, arbeidsgiver (Fjordlaks Eiendom) informert",
        ("Fjordlaks Eiendom", "ORGANIZATION"),
    ),
    (
        "nn",
        "Jobba som lektor ved Brattvik vidaregåande skule, 50 % uføretrygd",
        ("Brattvik vidaregåande skule", "ORGANIZATION"),
    ),
    # buildings, stays, a postcode before a wide gap, a user name after a signature
    ("nn", "Storvik sjukehus, Medisinsk klinikk, Havbygget 5\nPasient:", ("Havbygget 5", "DEPARTMENT")),
    ("nn", "Dottera spør om korttidsopphald på Lyngheim, oppmoda om å søkje", ("Lyngheim", "HOSPITAL")),
    ("nb", "Storvik sjukehus, Sjukehusvegen 1, 5412 Storvik   Sentralbord 55 00 00 00", ("5412", "ZIP")),
    ("nb", "Signert: LIS Ane Bø / sign. aboe07\n", ("aboe07", "USERNAME")),
]


@pytest.mark.parametrize(("lang", "text", "expected"), FOUND)
def test_nordic_round5_forms_found(lang: str, text: str, expected: tuple[str, str]) -> None:
    assert expected in pack_found(lang, text)


_LOWER_NOTE = (
    "innkomst med avd 23.01 kl 1740\npas kari berg (kalles Kari) 79 år, kols gold 4, ltot 2 l hjemme. bor m/ "
    "mannen i leil. pensj. lærer. 4 innleggelser siste år for kols. ikke intubasjon. niv ok.\n"
    "- ringt nilsen (bakvakt) kl 1805, enig.\ninnlegges post 3b.\nturnuslege vegard\n"
)

# (language, text, surface, coarse label): dates, and the names of a note written all in lower case
COARSE = [
    ("nb", "Feber opptil 39,1. Var hos fastlegen 12.2, fikk Apocillin.", "12.2", "DATE"),
    ("nn", "vekt ned frå 68,4 til 62,1 kg (4.3). Krea steig.", "4.3", "DATE"),
    ("nb", "Innlagt 9.2.24. Pleuradren 10.2-13.2, totalt 1650 ml.", "13.2", "DATE"),
    ("nb", "Sertralin økt til 100 mg des 23, lite effekt.", "des 23", "DATE"),
    ("nb", "én gang ambulanse (okt 23). Ønsker vurdering.", "okt 23", "DATE"),
    ("nb", _LOWER_NOTE, "kari berg", "NAME"),
    ("nb", _LOWER_NOTE, "nilsen", "NAME"),
    ("nb", _LOWER_NOTE, "vegard", "NAME"),
]


@pytest.mark.parametrize(("lang", "text", "surface", "label"), COARSE)
def test_nordic_round5_coarse_forms(lang: str, text: str, surface: str, label: str) -> None:
    assert (surface, label) in pack_coarse(lang, text)


# (language, text, surface, coarse label that must not be proposed): near misses of the forms above
NOT_FOUND = [
    ("nb", "Temp 39.1 i går. Hb 12.3, verdi 4.3 ved kontroll.", "4.3", "DATE"),  # period decimals
    ("nb", "Fikk 100 mg mai 10 dager, deretter pause.", "mai 10", "DATE"),  # a count after a month
    ("nb", "Pasient: KOLS EKSASERBASJON\n", "KOLS EKSASERBASJON", "NAME"),
    ("nb", "Pasient (KOLS) ok.", "KOLS", "NAME"),
    ("nb", "tekst.\n\nKOLS\n", "KOLS", "NAME"),
    ("nb", "Svar sendt 120345 54321 i dag\n", "120345 54321", "ID"),  # not on a patient line
    ("nb", "Han ble overført til Nybygget 3 i går.", "Nybygget 3", "LOCATION"),
    (
        "nb",
        "Pas ringt nilsen (bakvakt) kl 1805, enig. Kari Berg har det bra.",
        "nilsen",
        "NAME",
    ),  # mixed case
]


@pytest.mark.parametrize(("lang", "text", "surface", "label"), NOT_FOUND)
def test_nordic_round5_near_misses(lang: str, text: str, surface: str, label: str) -> None:
    assert (surface, label) not in pack_coarse(lang, text)
