"""Nordic hospital compounds, acronyms, buildings, named wards, post boxes, towns after a street line or
a preposition (intl_nordic_sites), the name forms of intl_nordic_people, capital-line sentences that are
no names, and the Nordic day-month forms added with them; texts written for the tests."""

from __future__ import annotations

import pytest

from ._langpack import pack_coarse, pack_found

# (language, text, (surface, fine label)): one row per form.
FOUND = [
    # hospitals named in one compound, or a name before a hospital word
    (
        "nb",
        "EPIKRISE\nVestfjordsykehuset Harstad - Kirurgisk avdeling",
        ("Vestfjordsykehuset Harstad", "HOSPITAL"),
    ),
    ("nb", "Sammenlignet med CT ved Fjellsykehuset (nyrestein).", ("Fjellsykehuset", "HOSPITAL")),
    ("sv", "Överflyttas till Nordsjukhuset Luleå 22/3 med ambulans.", ("Nordsjukhuset Luleå", "HOSPITAL")),
    ("nb", "overflyttet fra Gällivare sjukhus etter ulykke", ("Gällivare sjukhus", "HOSPITAL")),
    ("nb", "innleggelse i Danmark (Vendsyssel Sygehus) for hjertesvikt", ("Vendsyssel Sygehus", "HOSPITAL")),
    # hospital acronyms after a unit word in any case, then elsewhere in the note
    ("nb", "AKUTTMOTTAKET HFB - kirurgisk innkomstnotat", ("HFB", "HOSPITAL")),
    ("nb", "Hjertesviktpoliklinikken HFB - sykepleier/lege, 06.08.24", ("HFB", "HOSPITAL")),
    ("nb", "Innkomstjournal, nevrologisk seksjon HFB\n03.11.2024", ("HFB", "HOSPITAL")),
    ("nb", "Fra: HFB, hjerteovervåkningen, 4. etg", ("HFB", "HOSPITAL")),
    ("nb", "NKV - Gastrokirurgisk avdeling, operasjonsavdelingen", ("NKV", "HOSPITAL")),
    ("nb", "Henvist barnekirurgisk vakt HFB.\nInnlegges HFB, med. avd.", ("HFB", "HOSPITAL")),
    # buildings, named wards, post boxes
    ("nb", "Operasjonsstue: Blokk D, 2. etg", ("Blokk D", "HOSPITAL")),
    ("nb", "Tilbudt innleggelse på døgnpost Fjordglimt, pasienten vil tenke.", ("Fjordglimt", "DEPARTMENT")),
    ("nb", "deretter barneposten Solstrålen. Mor kjører selv.", ("Solstrålen", "DEPARTMENT")),
    ("nb", "overflyttes til Fjellro palliativ enhet i kveld", ("Fjellro", "DEPARTMENT")),
    ("nb", "Medisinsk avdeling\nPostboks 2210, 9038 Tromsø", ("Postboks 2210", "STREET")),
    # a postcode and town after a street line, towns after a preposition
    ("nb", "Fastlege X\nStrandgata 12\n8450 Stokmarknes\n", ("8450", "ZIP")),
    ("nb", "Fastlege X\nStrandgata 12\n8450 Stokmarknes\n", ("Stokmarknes", "CITY")),
    ("nb", "Bor alene i enebolig i Sandvær. Hjemmesykepleie daglig.", ("Sandvær", "CITY")),
    ("nb", "Mottatt med ambulanse fra Sørvær kai, AMK varslet.", ("Sørvær", "CITY")),
    ("nb", "Jobber som sveiser på Nordstål AS i Sandvær. Skar seg.", ("Sandvær", "CITY")),
    ("nb", "nevnte at pasienten skal hjem til Łódź i ferien.", ("Łódź", "CITY")),
    # one word before AS after a preposition, a compound ending in -fisk
    ("nb", "Innringer: HMS-ansvarlig ved Havfisk AS, tlf 75 77 40 12.", ("Havfisk AS", "ORGANIZATION")),
    # the caller of a telephone note, a cited note's author, a route of two towns, a school, a journal number
    (
        "nb",
        "Telefonnotat\n\nInnringer: Geir T. Solbakk, verneombud ved Havfisk AS.",
        ("Geir T. Solbakk", "RELATIVE"),
    ),
    ("nb", "som sykehjemslegen har dokumentert (Somby, okt. -23).", ("Somby", "DOCTOR")),
    ("nb", "Transport: Ambulansefly Tromsø-Narvik, avreise ca kl 11.30", ("Narvik", "CITY")),
    ("nb", "Student ved Fjordbyen fagskole, 2. år.", ("Fjordbyen fagskole", "ORGANIZATION")),
    ("nb", "Pas: Jan Nowak, D-nr 57048521241   Jnr: 6431 552\n", ("6431 552", "MEDICALRECORD")),
    # a lower-case name after a kin word
    ("nb", "Ringte datter kari anne sara i Kautokeino, tlf 480 12 937.", ("kari anne sara", "RELATIVE")),
    ("nb", "Snakket med sønnen per, han kommer i morgen.", ("per", "RELATIVE")),
    # a signature initial with an accent
    ("nb", "Svar om ca 2 uker.\n\nÁ. Sara\n", ("Á. Sara", "DOCTOR")),
    # names: initials, abbreviations, patient fields, a name before an age or birth data
    ("nb", "Anestesi: spinal, overlege T.E. Strøm     Op.spl.: R. Haug", ("T.E. Strøm", "DOCTOR")),
    ("nb", "Anestesi: spinal, overlege T.E. Strøm     Op.spl.: R. Haug\n", ("R. Haug", "DOCTOR")),
    ("nb", "Ring ved endring.\n\nOverlege K.A. Vik\n", ("K.A. Vik", "DOCTOR")),
    ("nb", "Overlege M. Berg / spl. H. Nyhus\n", ("H. Nyhus", "DOCTOR")),
    ("nb", "Spl. Semhar melder at hun har virket urolig.", ("Semhar", "DOCTOR")),
    ("nb", "og at sosionom Linh Tran tar kontakt ang. søknad", ("Linh Tran", "DOCTOR")),
    ("sv", "Dikterat 2024-03-22, ssk Olle Niva\n", ("Olle Niva", "DOCTOR")),
    ("nb", "Pas.: Sara, N.A.    Dato: 04.09.2024", ("Sara, N.A.", "PATIENT")),
    ("nb", "Pasient: NGUYEN Van Minh     PID 5540193", ("NGUYEN Van Minh", "PATIENT")),
    ("nb", "Pasient: SKUM, NILS ASLAK   PID 3355710", ("SKUM, NILS ASLAK", "PATIENT")),
    (
        "nb",
        "direkte til PCI-lab.\n\nKnut Arne Sørbø, 62 år. Jobber som kokk.",
        ("Knut Arne Sørbø", "PATIENT"),
    ),
    ("nn", "Opplysningar: Valde, 83 år, kjend demens", ("Valde", "PATIENT")),
    (
        "nb",
        "Hjertesviktpoliklinikken - 06.08.24\nBrekke, Oddvar (PID 2764055)",
        ("Brekke, Oddvar", "PATIENT"),
    ),
    ("nb", "EPIKRISE - Ahmed Yusuf Farah, f.nr. 051079 21232", ("Ahmed Yusuf Farah", "PATIENT")),
]


@pytest.mark.parametrize(("lang", "text", "expected"), FOUND)
def test_nordic_sites_and_people_found(lang: str, text: str, expected: tuple[str, str]) -> None:
    assert expected in pack_found(lang, text)


# (language, text, surface no span may cover)
NOT_FOUND = [
    ("nb", "Vurderes av Universitetssykehuset ved behov.", "Universitetssykehuset"),
    ("nb", "Sykepleienotat kirurgisk sengepost, aftenvakt", "Sykepleienotat"),
    ("nb", "Tumor ca 6 cm fra Bauhins klaff, ikke innvekst.", "Bauhins"),
    ("nb", "Ileum delt 10 cm fra Bauhin og colon delt.", "Bauhin"),
    ("sv", "Kirurgkliniken, avdelning 12\nStorgatan 9", "Kirurgkliniken"),
    ("nb", "Kontroll på poliklinikken EKG om 3 mnd.", "EKG"),
    ("nb", "PAS. SOVET MESTEPARTEN AV DAGEN. VÅKNER VED TILTALE.", "SOVET"),
    ("nb", "SPL DAG\nPAS. SOVET MYE.", "DAG"),
    ("nb", "SPRØYTEPUMPE IKKE STARTET, VURDERES AV LEGE I MORGEN.", "MORGEN"),
    ("nb", "Lindrende enhet ved behov.\nFru Bakke, 93 år, operert i går.", "Fru"),
    ("nb", "Oxynorm 5 mg x 4 i tillegg til Paracet.\nBytt til Paracet 1 g x 4.", "Paracet"),
    ("nb", "Pasient med kjent AS, moderat.", "AS"),
    ("nb", "Datter anne kommer i morgen med klær.", "anne"),
    ("nb", "Kona kari er syk selv, kan ikke hente.", "kari"),
    ("nb", "Hb stabil (Medisinsk, 12.03.24).", "Medisinsk"),
    ("nb", "Ambulansefly Pre-Op vurdering i dag.", "Op"),
]


@pytest.mark.parametrize(("lang", "text", "surface"), NOT_FOUND)
def test_nordic_sites_and_people_leave_near_misses(lang: str, text: str, surface: str) -> None:
    assert not any(surface in found for found, _label in pack_found(lang, text))


# (language, text, DATE surface): the day-month forms of this round
DATES = [
    ("nb", "Eliquis siste dose 12.2 kl 20. Operert 14/2.", "12.2"),
    ("nb", "Hb 9,1. Delir, 4AT 6 15.2, 0 ved utreise.", "15.2"),
    ("nb", "Kreatinin 104 14.7 -> 118 i dag, K 4,8.", "14.7"),
    ("nb", "pH 7,08 ved innkomst. Kreatinin normalisert (79 20.4).", "20.4"),
    ("nb", "Agraffer fjernes 28.2 av sykepleier.", "28.2"),
    ("nb", "planlegger utreise ca 15.3 dersom stabil", "15.3"),
    ("nb", "overført til sc insulin 18.4 ettermiddag.", "18.4"),
    ("nb", "ved legevakt kvelden 17.4 med smerter.", "17.4"),
]


@pytest.mark.parametrize(("lang", "text", "surface"), DATES)
def test_nordic_day_months_of_this_round(lang: str, text: str, surface: str) -> None:
    assert (surface, "DATE") in pack_coarse(lang, text)


# (language, text, surface that is no date): grades out of five, a column of clock times
NOT_DATES = [
    ("nb", "Kraft i hø ben 4/5. Går med rullator.", "4/5"),
    ("nb", "Klokketest 2/5. 4AT 3.", "2/5"),
    ("nb", "Ve skulder fleksjon 3/5, albue 4/5, håndgrep 3/5.", "4/5"),
    ("nb", "Ve hofte 4/5, kne 4+/5, ankel 4/5.", "4/5"),
    ("nb", "tid    pH     BE\n08.30  7,33   -6\n12.05  7,37   -3\n14.30  7,39   -1\n", "12.05"),
    ("nb", "Hb 11.2 og INR 1.05 i dag, verdi 9.4 2.1", "2.1"),
    ("nb", "Glukose 0.9 mmol. pH 7,2. Verdi 12 3.4 i serum", "3.4"),
]


@pytest.mark.parametrize(("lang", "text", "surface"), NOT_DATES)
def test_nordic_number_look_alikes_are_no_dates(lang: str, text: str, surface: str) -> None:
    assert (surface, "DATE") not in pack_coarse(lang, text)
