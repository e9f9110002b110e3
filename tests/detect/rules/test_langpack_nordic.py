"""Norwegian (bokmål, nynorsk), Danish and Swedish pack tables (issue 27, item 4); texts written for the tests."""

from __future__ import annotations

import pytest

from phiscrub import Deidentifier
from phiscrub.detect.rules import has_rules
from phiscrub.document import Document

from ._langpack import pack_coarse

# (language, text, (surface, coarse label))
FOUND = [
    # names: titles, field labels, kin words, roles, closings
    ("nb", "Pasient: Ola Nordmann\nFødselsnummer: 15108695088", ("Ola Nordmann", "NAME")),
    ("nb", "Fastlege: Kari Bråthen, Tønsberg", ("Kari Bråthen", "NAME")),
    (
        "nb",
        "Samtale med nevrokirurg Håkon Tveitnes ved Haukeland universitetssjukehus.",
        ("Håkon Tveitnes", "NAME"),
    ),
    ("nb", "Sønnen Vestrheim ringte i dag.", ("Vestrheim", "NAME")),
    ("nb", "Med vennlig hilsen\nHegglund, lege i spesialisering", ("Hegglund", "NAME")),
    ("nb", "Pasient Per Myrvold (rom 12) har hatt en rolig kveld.", ("Per Myrvold", "NAME")),
    ("nn", "Ho kan ringje diabetessjukepleiar Synnøve Kvamme ved spørsmål.", ("Synnøve Kvamme", "NAME")),
    ("da", "Egen læge: Hanne Holmgaard, Odense", ("Hanne Holmgaard", "NAME")),
    ("da", "Hustruen, Bodil Kragelund, er underrettet.", ("Bodil Kragelund", "NAME")),
    ("da", "Venlig hilsen\nLykkegaard, praktiserende læge", ("Lykkegaard", "NAME")),
    ("sv", "Patienten Per Grönvall på sal 12 har haft en lugn kväll.", ("Per Grönvall", "NAME")),
    ("sv", "Dottern Maja Hägglund vill prata med läkaren.", ("Maja Hägglund", "NAME")),
    ("sv", "Samtal med neurolog Ulf Öhrvall.", ("Ulf Öhrvall", "NAME")),
    # dates
    ("nb", "Innlagt 25. desember 2017, utskrevet 02.01.2018.", ("25. desember 2017", "DATE")),
    ("nb", "Innlagt 25. desember 2017, utskrevet 02.01.2018.", ("02.01.2018", "DATE")),
    ("nb", "Diabetes type 1 sidan mars 2004.", ("mars 2004", "DATE")),
    ("da", "Vægttab på 5 kg siden 1/10-2014.", ("1/10-2014", "DATE")),
    ("da", "Indlagt den 12. marts 2020.", ("12. marts 2020", "DATE")),
    ("sv", "Inskriven: 2020-03-12, utskriven 2/11 2018.", ("2/11 2018", "DATE")),
    ("sv", "Besvär sedan 3 augusti 2019.", ("3 augusti 2019", "DATE")),
    # ages
    ("nb", "Sykehistorie: 62 år gammel kvinne, tidligere frisk.", ("62", "AGE")),
    ("nn", "Ho er ei 76 år gammal kvinne.", ("76", "AGE")),
    ("nb", "Pas: Solveig Haugen, 96 år, 15108695088", ("96", "AGE")),
    ("da", "67-årig mand med type 2-diabetes.", ("67", "AGE")),
    ("sv", "Pat: Karl Andersson, 45 år, inkommer med ambulans.", ("45", "AGE")),
    # places: hospitals, streets, postcodes, towns
    ("nb", "Avdeling: Medisinsk avdeling, Sørlandet sykehus", ("Sørlandet sykehus", "LOCATION")),
    ("nb", "Kontroll på Rikshospitalet om to uker.", ("Rikshospitalet", "LOCATION")),
    ("nb", "Adresse: Storgata 5, 0450 Oslo", ("Storgata 5", "LOCATION")),
    ("nb", "Adresse: Storgata 5, 0450 Oslo", ("0450", "LOCATION")),
    ("nb", "Kommer med ambulanse fra hjemmet i Lillehammer.", ("Lillehammer", "LOCATION")),
    ("da", "Til: Regionshospitalet Viborg, Kardiologisk afdeling", ("Regionshospitalet Viborg", "LOCATION")),
    ("da", "Adresse: Søndergade 40, 8000 Aarhus", ("Søndergade 40", "LOCATION")),
    ("sv", "Avdelning: Medicinkliniken, Sjukhuset i Norrköping", ("Sjukhuset i Norrköping", "LOCATION")),
    ("sv", "Från: Capio Vårdcentral Lund, Kyrkogatan 11, 222 22 Lund", ("Kyrkogatan 11", "LOCATION")),
    ("sv", "Remitterad från vårdcentralen i Umeå.", ("Umeå", "LOCATION")),
    # phones and identifiers
    ("nb", "Kontakt på tlf. 92 27 86 38.", ("92 27 86 38", "CONTACT")),
    ("da", "Kan træffes på tlf. +45 33 12 34 56.", ("+45 33 12 34 56", "CONTACT")),
    ("sv", "Hustrun är informerad, tel. 070-123 45 67.", ("070-123 45 67", "CONTACT")),
    ("nb", "Fødselsnummer: 151086 95088", ("151086 95088", "ID")),
    ("da", "CPR-nr.: 211062-5629", ("211062-5629", "ID")),
    ("sv", "Personnummer: 19880320-0016", ("19880320-0016", "ID")),
    ("sv", "Journalnummer 6271953", ("6271953", "ID")),
]


@pytest.mark.parametrize(("lang", "text", "expected"), FOUND)
def test_pack_finds(lang: str, text: str, expected: tuple[str, str]) -> None:
    assert expected in pack_coarse(lang, text)


# Clinical negatives: drugs, units, scores, eponyms, durations, common nouns after kin and title words.
NEGATIVES = [
    ("nb", "Startet på Marevan og Paracet 1 g x 4, CRP 214, BT 156/88."),
    ("nb", "Han har røykt i 20 år og hatt hypertensjon i 3 år."),
    ("nb", "Parkinsons sykdom og Bechterews sykdom er utelukket."),
    ("nb", "Pasienten har hatt en rolig kveld og spiste middag."),
    ("nn", "Ho har ikkje hatt alvorlege hypoglykemiar sidan førre kontroll."),
    ("da", "Behandles med metformin 1 g x 2 og Ozempic 1 mg ugentligt, HbA1c 52 mmol/mol."),
    ("da", "Kontrol i ortopædkirurgisk ambulatorium om 10 dage."),
    ("sv", "Fick Alvedon 1 g kl. 20 med effekt, VAS 3, NT-proBNP 4 200."),
    ("sv", "Hon har haft diabetes i 12 år och röker inte."),
    ("sv", "Ekokardiografi visade nedsatt vänsterkammarfunktion, EF 30 %."),
]


@pytest.mark.parametrize(("lang", "text"), NEGATIVES)
def test_pack_leaves(lang: str, text: str) -> None:
    assert pack_coarse(lang, text) == set()


@pytest.mark.parametrize("lang", ["nb", "nn", "da", "sv", "no", "nb-NO"])
def test_nordic_languages_have_packs(lang: str) -> None:
    assert has_rules(lang)


def test_default_setting_finds_a_nordic_note_without_lang() -> None:
    text = (
        "Pasienten Ola Myrvold ble innlagt på Haukeland universitetssjukehus 25. desember 2017 med "
        "brystsmerter. Han har ikke hatt feber. Fastlegen er informert, og kona kan nås på tlf. 92 27 86 38."
    )
    out = Deidentifier(model=None).redact(Document("nb-1", text)).text
    for phi in ("Ola Myrvold", "Haukeland universitetssjukehus", "25. desember 2017", "92 27 86 38"):
        assert phi not in out
    assert "brystsmerter" in out and "feber" in out
