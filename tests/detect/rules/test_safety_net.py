"""The language-agnostic safety net (issue 27, item 3): what it takes in any language, and what not."""

from __future__ import annotations

import pytest

from phiscrub import Deidentifier
from phiscrub.detect.rules import default_detectors
from phiscrub.detect.rules.safety_net import SafetyNet
from phiscrub.document import Document
from phiscrub.labels import fold


def _net(lang: str, text: str) -> set[tuple[str, str]]:
    return {
        (text[s.start : s.end], fold(s.label, "coarse") or s.label)
        for s in SafetyNet(lang).detect(Document("t", text))
    }


# (language, text written for the test, (surface, coarse label) expected)
FOUND = [
    ("fi", "Potilas, henkilötunnus 131052-308T, tuli päivystykseen.", ("131052-308T", "ID")),
    ("it", "Paziente RCCMNL83S18D969H ricoverato il 12 marzo 2020.", ("RCCMNL83S18D969H", "ID")),
    ("it", "Paziente RCCMNL83S18D969H ricoverato il 12 marzo 2020.", ("12 marzo 2020", "DATE")),
    ("pl", "Pacjent przyjęty 3 lutego 2021, tel. +48 612 345 678.", ("3 lutego 2021", "DATE")),
    ("pl", "Pacjent przyjęty 3 lutego 2021, tel. +48 612 345 678.", ("+48 612 345 678", "CONTACT")),
    ("pt", "Doente seguido pelo Dr. Joaquim Ferreira desde maio 2019.", ("Joaquim Ferreira", "NAME")),
    ("pt", "Doente seguido pelo Dr. Joaquim Ferreira desde maio 2019.", ("maio 2019", "DATE")),
    ("is", "Kennitala sjúklings: 120174-3399. Sími 551 2345.", ("120174-3399", "ID")),
    ("cs", "Pacient, bankovní účet CZ65 0800 0000 1920 0014 5399.", ("CZ65 0800 0000 1920 0014 5399", "ID")),
    ("hu", "Beteg címe: Fő utca 5,\n1052 Budapest\n", ("1052", "LOCATION")),
    ("hu", "Beteg címe: Fő utca 5,\n1052 Budapest\n", ("Budapest", "LOCATION")),
    ("it", "Il paziente Giuseppe Rossi è stato ricoverato in reparto.", ("Giuseppe Rossi", "NAME")),
    ("fi", "Potilas Matti Virtanen saapui päivystykseen.", ("Matti Virtanen", "NAME")),
    ("en", "NHS number: 943 476 5919. Seen in clinic.", ("943 476 5919", "ID")),
    ("en", "Transfer to account GB82 WEST 1234 5698 7654 32 refused.", ("GB82 WEST 1234 5698 7654 32", "ID")),
]


@pytest.mark.parametrize(("lang", "text", "expected"), FOUND)
def test_net_finds(lang: str, text: str, expected: tuple[str, str]) -> None:
    assert expected in _net(lang, text)


NOT_FOUND = [
    ("fi", "Potilas sai 131052 yksikköä, laboratorio 12345678901."),  # no check digit, no cue
    ("pl", "Dawka 500 mg 2 razy dziennie, RR 120/80, tętno 72."),
    ("pt", "Dr. Ferreira"[:3] + " e enfermagem"),  # a title without a name
    (
        "en",
        "Seen on 3 May 2019 by Dr. Alan Grant, phone 617-555-0134, MRN 15108695088.",
    ),  # English: its own rules
    ("en", "Order 880320-0016 and lot 211062-5629 shipped."),  # bare Nordic shapes are not taken in English
    ("it", "Codice RCCMNL83S18D969X non valido."),  # check letter wrong
    ("it", "La Medicina Interna e la Chirurgia Generale."),  # capitalised words, no listed name pair
]


@pytest.mark.parametrize(("lang", "text"), NOT_FOUND)
def test_net_leaves(lang: str, text: str) -> None:
    assert _net(lang, text) == set()


def test_every_language_gets_the_net() -> None:
    for lang in ("en", "de", "es", "fi", "xx"):
        assert any(isinstance(d, SafetyNet) for d in default_detectors(lang))


def test_pack_languages_keep_their_own_dates_names_and_phones() -> None:
    text = "Sehr geehrter Herr Kollege, Herr Schwarzs Ehefrau, Tel. +49 30 1234567, am 3. Mai 2019."
    assert _net("de", text) == set()


def test_unpacked_language_end_to_end() -> None:
    text = (
        "Potilas Matti Virtanen, henkilötunnus 131052-308T, saapui päivystykseen 12. maaliskuuta 2020 "
        "rintakivun vuoksi. Puhelin +358 40 123 4567. Hoitava lääkäri Dr. Liisa Korhonen."
    )
    out = Deidentifier(model=None).redact(Document("fi-1", text)).text
    for phi in ("131052-308T", "+358 40 123 4567", "Liisa Korhonen"):
        assert phi not in out
