"""Dutch language pack: what the rules must find, and clinical text they must leave alone (issue 16)."""

from __future__ import annotations

import pytest

from phiscrub.detect.rules.checksums import bsn_ok

from ._langpack import pack_coarse, pack_found

POSITIVE = [
    ("Betreft: dhr. Jansen, geb. 12-03-1950", "Jansen", "NAME"),
    ("Opgenomen: mevr. van den Berg.", "van den Berg", "NAME"),
    ("Gezien door dr. Oosterhuis, cardioloog.", "Oosterhuis", "NAME"),
    ("Arts-assistent de Boer gebeld.", "de Boer", "NAME"),
    ("Contactpersoon: dochter Sanne Wijnbergen, tel. 06-12345678", "Sanne Wijnbergen", "NAME"),
    ("Met vriendelijke groet,\n\ndr. Hoekstra-Bouma, dermatoloog", "Hoekstra-Bouma", "NAME"),
    ("Op 3 mei 2019 opgenomen.", "3 mei 2019", "DATE"),
    ("Bekend met COPD sinds 2015.", "2015", "DATE"),
    ("Kerkstraat 3, 1012 AB Amsterdam", "Kerkstraat 3", "LOCATION"),
    ("Kerkstraat 3, 1012 AB Amsterdam", "1012 AB", "LOCATION"),
    ("Kerkstraat 3, 1012 AB Amsterdam", "Amsterdam", "LOCATION"),
    ("Laan van Meerdervoort 45, 2517 AB Den Haag", "Laan van Meerdervoort 45", "LOCATION"),
    ("wonend Schoolstraat 59b te Utrecht", "Utrecht", "LOCATION"),
    ("opgenomen in het Sint Antonius Ziekenhuis", "Sint Antonius Ziekenhuis", "LOCATION"),
    (
        "verwezen naar het Universitair Medisch Centrum Groningen",
        "Universitair Medisch Centrum Groningen",
        "LOCATION",
    ),
    ("mevr. X, kamer 12", "12", "LOCATION"),
    ("Tel. 020-1234567", "020-1234567", "CONTACT"),
    ("Patiëntnummer: 1234567", "1234567", "ID"),
    ("Een 67-jarige man met pijn op de borst.", "67", "AGE"),
    ("Dhr. Visser, 54 jaar, bekend met diabetes", "54", "AGE"),
    ("werkzaam als timmerman bij een bouwbedrijf", "timmerman", "PROFESSION"),
]

NEGATIVE = [
    "acetylsalicylzuur 80 mg 1dd1, metoprolol 50 mg 1dd1",
    "FEV1 38 % van voorspeld, FEV1/FVC 0,42.",
    "Controle over 6 weken op de polikliniek.",
    "sinds 3 jaar klachten van hoofdpijn",
    "De dienstdoende arts werd gebeld.",
    "CRP 148 mg/l, saturatie 91 %.",
    "Opname op de afdeling Cardiologie.",
    "Teken van Babinski negatief.",
]


@pytest.mark.parametrize(("text", "surface", "label"), POSITIVE)
def test_dutch_pack_finds(text: str, surface: str, label: str) -> None:
    assert (surface, label) in pack_coarse("nl", text)


@pytest.mark.parametrize("text", NEGATIVE)
def test_dutch_pack_leaves_clinical_text_alone(text: str) -> None:
    assert pack_coarse("nl", text) == set()


@pytest.mark.parametrize(("bsn", "valid"), [("111222333", True), ("123456782", True), ("123456789", False)])
def test_dutch_bsn_needs_the_eleven_test(bsn: str, valid: bool) -> None:
    assert bsn_ok(bsn) is valid
    assert (("BSN: " + bsn)[5:], "SSN") in pack_found("nl", "BSN: " + bsn) or not valid
    assert ((bsn, "SSN") in pack_found("nl", f"nummer {bsn} genoteerd")) is valid
