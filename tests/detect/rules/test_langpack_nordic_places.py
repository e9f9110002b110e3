"""Nordic wards, hospitals, towns, organisations, countries and the names around roles, kin words and
signatures (intl_nordic_places, intl_nordic_names, Nordic data of the packs); texts written for the tests."""

from __future__ import annotations

import pytest

from phiscrub.policy import is_phi, region_label

from ._langpack import pack_found

# (language, text, (surface, fine label)): one row per form.
FOUND = [
    # wards and units
    ("nb", "Innlagt: 14.03.2024    Post: Post 3B", ("Post 3B", "DEPARTMENT")),
    ("nb", "Tiltak:\n- Innlegges Post 4A, telemetri", ("Post 4A", "DEPARTMENT")),
    ("nb", "Tilsyn ved: overlege Lars Dahl, Post Fjellsyn, 3. etg", ("Post Fjellsyn", "DEPARTMENT")),
    ("nn", "Overflytta til post 5C i går.", ("post 5C", "DEPARTMENT")),
    ("nb", "Til: Granheim sykehjem, avd. Blåklokka (korttid)", ("Blåklokka", "DEPARTMENT")),
    ("nb", "Sykepleienotat - Havblikk, lindrende enhet", ("Havblikk", "DEPARTMENT")),
    ("nb", "Ved uro i natt: ring Havblikk direkte, tlf 70 11 22 33.", ("Havblikk", "DEPARTMENT")),
    ("da", "Overflyttet til afsnit R2 i dag.", ("R2", "DEPARTMENT")),
    ("sv", "Flyttad till avd. Solrosen på morgonen.", ("Solrosen", "DEPARTMENT")),
    ("sv", "Inlagd på avdelning 54 sedan i går.", ("54", "DEPARTMENT")),
    # hospitals: acronyms, buildings, facilities with an adjective or a care-home word
    ("nb", "EPIKRISE\nHelse Nordvik HF - SNV, Medisinsk klinikk", ("SNV", "HOSPITAL")),
    ("nb", "SNV akuttmottak, traumeteam aktivert kl 10.52", ("SNV", "HOSPITAL")),
    ("nb", "Kontroll hjertesviktpoliklinikken SNV om 6 uker.", ("SNV", "HOSPITAL")),
    ("nb", "Fra: Post 2C, SNV\nTil: Granheim sykehjem", ("SNV", "HOSPITAL")),
    ("nb", "Koronar angiografi ved KUS 18/3: restenose.", ("KUS", "HOSPITAL")),
    ("nb", "Avtalt med kardiolog Trond Vik, KUS).", ("KUS", "HOSPITAL")),
    ("nb", "Poliklinikken, Sykehuset Nordvik, Sjøbygget 2. etg", ("Sjøbygget", "HOSPITAL")),
    ("nb", "Henvist fra: Nordvik interkommunale legevakt", ("Nordvik interkommunale legevakt", "HOSPITAL")),
    ("nb", "Bor i omsorgsbolig tilknyttet Lindely omsorgssenter i Sørvik.", ("Lindely omsorgssenter", "HOSPITAL")),
    ("da", "Flyttet til Egebo plejehjem i foråret.", ("Egebo plejehjem", "HOSPITAL")),
    ("sv", "Bor på Björkgårdens äldreboende sedan 2019.", ("Björkgårdens äldreboende", "HOSPITAL")),
    # postcodes and towns without a listed name
    ("nb", "Bor alene i enebolig, Bakkeveien 7, 6812 Sørvik. Pensjonert.", ("6812", "ZIP")),
    ("nb", "Bor alene i enebolig, Bakkeveien 7, 6812 Sørvik. Pensjonert.", ("Sørvik", "CITY")),
    ("nb", "Fall fra stillas på byggeplass i Strandveien 40, Nordvik. Jobber i byen.", ("Nordvik", "CITY")),
    ("nb", "Kontakt med tildelingskontoret i Sørvik kommune.", ("Sørvik", "CITY")),
    ("nb", "Kopi: Hjemmetjenesten i Sørvik, pasienten", ("Sørvik", "CITY")),
    ("nb", "Datter Hanne Berg Lunde i Nordvik er nærmeste pårørende.", ("Nordvik", "CITY")),
    ("nb", "HENVIST: LEGEVAKTEN I VIKHAMN", ("VIKHAMN", "CITY")),
    ("nb", "SOSIALT: BOR MED KONA BJØRG I VIKHAMN. PENSJONERT FISKER.", ("VIKHAMN", "CITY")),
    ("nb", "Fra: Sykehjemslege Hege Lien, Granheim sykehjem, Sørvik\nHPR-nr: 8834017", ("Sørvik", "CITY")),
    ("nb", "Pasienten bor i Sørvik sammen med kona.", ("Sørvik", "CITY")),
    ("nn", "Heimetenesta i Vikøy er informert.", ("Vikøy", "CITY")),
    ("da", "Hjemmeplejen i Skovlunde er orienteret.", ("Skovlunde", "CITY")),
    ("sv", "Ärendet gäller Björkviks kommun.", ("Björkviks", "CITY")),
    ("sv", "Dottern Maja i Björkvik är informerad.", ("Björkvik", "CITY")),
    # organisations
    ("nb", "Pensjonert maskinist, jobbet mange år på Nordvik Mekaniske Verksted.", ("Nordvik Mekaniske Verksted", "ORGANIZATION")),
    ("nb", "Jobber som bussjåfør i Nordvik Buss AS, skiftarbeid.", ("Nordvik Buss AS", "ORGANIZATION")),
    ("nb", "Eier av Havbruk Nordvik ASA siden 2001.", ("Havbruk Nordvik ASA", "ORGANIZATION")),
    ("nb", "Jobber 50 % som lærer på Bakkely skole.", ("Bakkely skole", "ORGANIZATION")),
    ("nb", "Ønsker besøk av presten i Sørvik kirke.", ("Sørvik kirke", "ORGANIZATION")),
    ("da", "Arbejder som tømrer hos Hansen Byg A/S.", ("Hansen Byg A/S", "ORGANIZATION")),
    ("sv", "Arbetar som snickare på Björkbygg AB.", ("Björkbygg AB", "ORGANIZATION")),
    # countries
    ("nb", "45 år gml mann, kom til Norge fra Somalia i 2009.", ("Norge", "COUNTRY")),
    ("nb", "Kona Marta i Polen informert via kollega.", ("Polen", "COUNTRY")),
    ("da", "Kom til Danmark fra Tyrkiet i 1990.", ("Tyrkiet", "COUNTRY")),
    ("sv", "Kom till Sverige från Irak 2015.", ("Sverige", "COUNTRY")),
    # names: compound roles, role labels, kin words, nicknames, lower case, signatures
    ("nb", "- Diabetessykepleier Kari-Anne Moen gir opplæring i dag", ("Kari-Anne Moen", "DOCTOR")),
    ("nb", "Fra: Sykehjemslege Hege Lien, Granheim sykehjem", ("Hege Lien", "DOCTOR")),
    ("da", "Diabetessygeplejerske Lone Madsen giver undervisning.", ("Lone Madsen", "DOCTOR")),
    ("sv", "Diabetessjuksköterska Eva Berg ger information.", ("Eva Berg", "DOCTOR")),
    ("nb", "Teamleder: Magnus Vik (kir. bakvakt). Anestesi: Fredrik Lien. Ortoped: Tiril.", ("Magnus Vik", "DOCTOR")),
    ("nb", "Teamleder: Magnus Vik (kir. bakvakt). Anestesi: Fredrik Lien. Ortoped: Tiril.", ("Fredrik Lien", "DOCTOR")),
    ("nb", "Teamleder: Magnus Vik (kir. bakvakt). Anestesi: Fredrik Lien. Ortoped: Tiril.", ("Tiril", "DOCTOR")),
    ("nb", "Godkjent 14.03.2024 I. Solberg, overlege", ("I. Solberg", "DOCTOR")),
    ("nb", "Kontaktperson: spl. Emil Haugen.\n\nHilsen Emil, sykepleier", ("Emil", "DOCTOR")),
    ("nb", "Følges opp i morgen.\nO. Rypdal\n", ("O. Rypdal", "DOCTOR")),
    ("nb", "RØYKER FORTSATT.\nJ. AASEN LIS1 / I. SOLBERG", ("J. AASEN", "DOCTOR")),
    ("nb", "RØYKER FORTSATT.\nJ. AASEN LIS1 / I. SOLBERG", ("I. SOLBERG", "DOCTOR")),
    ("nb", "Nytt tlf.nr registrert.\nKAM diabetessykepleier", ("KAM", "DOCTOR")),
    ("nb", "PAS: MOE, KJELL-ARNE  FNR 01125539917  ØNSKER Å BLI KALT KJELL", ("MOE, KJELL-ARNE", "PATIENT")),
    ("nb", "PAS: MOE, KJELL-ARNE  FNR 01125539917  ØNSKER Å BLI KALT KJELL", ("KJELL", "PATIENT")),
    ("da", "Ønsker at blive kaldt Bent.", ("Bent", "PATIENT")),
    ("sv", "Vill bli kallad Lasse.", ("Lasse", "PATIENT")),
    ("nb", "Pasient: Nowak, Piotr   D-nr 500983 41207", ("Nowak, Piotr", "PATIENT")),
    ("nb", "Til: Granheim sykehjem\n\nPasient: ingeborg lie\nInnlagt 11.03.", ("ingeborg lie", "PATIENT")),
    ("sv", "Patient: sven olsson", ("sven olsson", "PATIENT")),
    ("nb", "Sykepleienotat\nTone innlagt for symptomlindring, døgn 2.", ("Tone", "PATIENT")),
    ("sv", "Omvårdnad. Sven har ont i magen.", ("Sven", "PATIENT")),
    ("nb", "Snakker lite norsk. Kollega Tomasz fulgte med i ambulansen.", ("Tomasz", "RELATIVE")),
    ("nb", "Aktuelt: Kommer sammen med ektemannen Rune.", ("Rune", "RELATIVE")),
    ("nb", "SOSIALT: BOR MED KONA BJØRG I VIKHAMN.", ("BJØRG", "RELATIVE")),
    ("nb", "Pårørende: Sønn Terje Bakke, tlf 913 02 775", ("Terje Bakke", "RELATIVE")),
    ("nb", "Pårørende: Datter Liv informert om utskrivelse.", ("Liv", "RELATIVE")),
    # identifiers
    ("nb", "Pasient: Nowak, Piotr   D-nr 500983 41207", ("500983 41207", "SSN")),
    ("nb", "Pasient: Tone Fjeld   DIPS-ID: 660 4471", ("660 4471", "MEDICALRECORD")),
]  # fmt: skip


@pytest.mark.parametrize(("lang", "text", "expected"), FOUND)
def test_nordic_pack_finds(lang: str, text: str, expected: tuple[str, str]) -> None:
    assert expected in pack_found(lang, text)


# (language, text, surface no span may cover): near misses of the forms above.
NOT_FOUND = [
    ("nb", "Post operativt forløp uten komplikasjoner.", "Post"),
    ("nb", "Post Mortem undersøkelse er ikke aktuelt.", "Mortem"),
    ("nb", "Innlagt på avd. for hjertesykdommer.", "for"),
    ("nb", "Han var dårlig i går og i dag.", "går"),
    ("nb", "Fikk Oxynorm i ambulansen.", "ambulansen"),
    ("nb", "Kjent AS, moderat. Ekko viser AS grad 2.", "AS"),
    ("nb", "Moderat AS ved ekko i fjor.", "Moderat"),
    ("nb", "Diabetessykepleier gir opplæring i dag.", "gir"),
    ("nb", "Henvist til kardiolog for vurdering.", "vurdering"),
    ("nb", "Små hyppige måltider. Kontakt legevakt ved vedvarende oppkast.", "Kontakt"),
    ("nb", "Helse Nordvik HF - SNV, Medisinsk klinikk, Post 3B", "Medisinsk"),
    ("nb", "Behandlet ved PCI, deretter på KOLS-poliklinikken.", "PCI"),
    ("nb", "Barnet går på SFO.", "SFO"),
    ("nb", "Kontroll på HIV poliklinikk om 3 mnd.", "HIV"),
    ("nb", "Ring legevakten direkte ved behov.", "legevakten"),
    ("nb", "Dag 2 etter operasjon. Stein i venstre nyre er påvist.", "Stein"),
    ("nb", "Per døgn gis 2 liter.", "Per"),
    ("nb", "Anestesi: Spinal.", "Spinal"),
    ("nb", "Kirurg: Ikke aktuelt.", "Ikke"),
    ("nb", "Fysioterapeut: Mobilisering.", "Mobilisering"),
    ("nb", "Kalt inn til kontroll.", "inn"),
    ("nb", "Pasient: ikke møtt", "ikke"),
    ("nb", "Hvilken kommune tilhører hun?", "Hvilken"),
    ("nb", "Pasientens kommune er varslet.", "Pasientens"),
    ("nb", "Leilighet 2. etg uten heis.", "Leilighet"),
    ("nb", "Status: Godkjent", "Godkjent"),
    ("nb", "Sønn kontaktes i morgen.", "Sønn"),
    ("nb", "E. coli i blodkultur.", "coli"),
    ("nb", "Tom blære etter kateter.", "Tom"),
    ("nb", "Vurdert av fysioterapeut.\nfysioterapeut", "fysioterapeut"),
    ("da", "Lejlighed 2. sal med elevator.", "Lejlighed"),
    ("sv", "Ingen kommun har ansvaret.", "Ingen"),
]


@pytest.mark.parametrize(("lang", "text", "surface"), NOT_FOUND)
def test_nordic_pack_leaves_near_misses(lang: str, text: str, surface: str) -> None:
    start = text.index(surface)
    end = start + len(surface)
    hits = [(s, lab) for s, lab in pack_found(lang, text) if _overlaps(text, s, start, end)]
    assert hits == []


def _overlaps(text: str, found: str, start: int, end: int) -> bool:
    pos = text.find(found)
    while pos >= 0:
        if pos < end and start < pos + len(found):
            return True
        pos = text.find(found, pos + 1)
    return False


@pytest.mark.parametrize(
    "name",
    [
        "Norge",
        "Noreg",
        "Polen",
        "Tyskland",
        "Sverige",
        "Danmark",
        "Tyrkiet",
        "Ryssland",
        "Deutschland",
        "Weißrussland",
    ],
)
def test_nordic_and_german_country_names_are_countries(name: str) -> None:
    assert region_label(name, "COUNTRY") == "COUNTRY"
    assert not is_phi("COUNTRY", "safe-harbor", name)
    assert is_phi("CITY", "safe-harbor", "Nordvik")
