"""Catalan language pack: what the rules must find, and clinical text they must leave alone (issue 16)."""

from __future__ import annotations

import pytest

from ._langpack import pack_coarse

POSITIVE = [
    ("Pacient: Sr. Jordi Puig Ferrer        Edat: 67 anys", "Jordi Puig Ferrer", "NAME"),
    ("Metge responsable: Dr. Casals", "Casals", "NAME"),
    ("La seva filla, la Sra. Montserrat Vila, ve cada dia.", "Montserrat Vila", "NAME"),
    ("Signat electrònicament per mfontanet68 el 3 de maig de 2019", "mfontanet68", "NAME"),
    ("Ingrés el 3 de maig de 2019.", "3 de maig de 2019", "DATE"),
    ("HTA en tractament des de 2015.", "2015", "DATE"),
    ("Carrer de Balmes 12, 08006 Barcelona", "Carrer de Balmes 12", "LOCATION"),
    ("Carrer de Balmes 12, 08006 Barcelona", "08006", "LOCATION"),
    ("Carrer de Balmes 12, 08006 Barcelona", "Barcelona", "LOCATION"),
    ("Passeig de Gràcia 5, 2n 1a", "Passeig de Gràcia 5, 2n 1a", "LOCATION"),
    ("Urgències de l'Hospital Universitari de Bellvitge", "Hospital Universitari de Bellvitge", "LOCATION"),
    ("Habitació: K-12", "K-12", "LOCATION"),
    ("el pare resideix a Portugal", "Portugal", "LOCATION"),
    ("telèfon 628 365 171", "628 365 171", "CONTACT"),
    ("Núm. història clínica: 2748903", "2748903", "ID"),
    ("Treballava com a pagès a la finca.", "pagès", "PROFESSION"),
]

NEGATIVE = [
    "Apixaban 5 mg cada 12 h",
    "TA 138/82 mmHg, FC 74 bpm irregular",
    "NIHSS 9 | Barthel 25/100 | FIM 52/126",
    "Hospital de dia de neurorehabilitació",
    "fa 3 anys, sense recidiva",
    "Reavaluació del MECV-V en 10 dies.",
    "Valoració per neuropsicologia durant la primera setmana.",
]


@pytest.mark.parametrize(("text", "surface", "label"), POSITIVE)
def test_catalan_pack_finds(text: str, surface: str, label: str) -> None:
    assert (surface, label) in pack_coarse("ca", text)


@pytest.mark.parametrize("text", NEGATIVE)
def test_catalan_pack_leaves_clinical_text_alone(text: str) -> None:
    assert pack_coarse("ca", text) == set()
