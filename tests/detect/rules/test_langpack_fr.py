"""French language pack: what the rules must find, and clinical text they must leave alone (issue 16)."""

from __future__ import annotations

import pytest

from ._langpack import pack_coarse, pack_found

POSITIVE = [
    # Titled and role names.
    ("Patient : M. Dupont, né le 12/03/1950", "Dupont", "NAME"),
    ("Vue ce jour Mme Le Goff pour son suivi.", "Le Goff", "NAME"),
    ("Avis orthopédique (Dr Ferrandon).", "Ferrandon", "NAME"),
    ("Opérateur : Pr Chaussegros    Aide : Dr Tardivel", "Chaussegros", "NAME"),
    ("Opérateur : Pr Chaussegros    Aide : Dr Tardivel", "Tardivel", "NAME"),
    ("Mlle Jeanne Hennequin, 23 ans", "Jeanne Hennequin", "NAME"),
    ("Personne à prévenir : sa fille, Mme Odile Labrousse", "Odile Labrousse", "NAME"),
    ("appel de son époux, M. Kerbrat, ce matin", "Kerbrat", "NAME"),
    ("Nom : Quéméner, Yvette", "Quéméner, Yvette", "NAME"),
    ("Bien amicalement,\nPr Jacquemart", "Jacquemart", "NAME"),
    ("Constantes stables.\nLucie Esnault, IDE", "Lucie Esnault", "NAME"),
    ("Je soussigné, Dr Penhoat, certifie avoir examiné", "Penhoat", "NAME"),
    # Dates.
    ("Hospitalisé le 3 mai 2019 pour dyspnée.", "3 mai 2019", "DATE"),
    ("Sortie le 1er janvier 2020.", "1er janvier 2020", "DATE"),
    ("Revu le 03/05 en consultation.", "03/05", "DATE"),
    ("Tabagisme sevré en 2015.", "2015", "DATE"),
    ("Diabète connu depuis mars 2012.", "mars 2012", "DATE"),
    # Addresses and places.
    ("12 rue de la Paix, 75002 Paris", "12 rue de la Paix", "LOCATION"),
    ("12 rue de la Paix, 75002 Paris", "75002", "LOCATION"),
    ("12 rue de la Paix, 75002 Paris", "Paris", "LOCATION"),
    ("3, avenue Jean Jaurès\n69007 Lyon", "3, avenue Jean Jaurès", "LOCATION"),
    ("demeurant rue Pasteur à Rennes", "rue Pasteur", "LOCATION"),
    ("demeurant rue Pasteur à Rennes", "Rennes", "LOCATION"),
    ("Fait à Quimper, le 3 mai 2019", "Quimper", "LOCATION"),
    ("thrombolyse au CHU de Rennes", "CHU de Rennes", "LOCATION"),
    ("transfert à l'Hôpital Saint-Louis", "Hôpital Saint-Louis", "LOCATION"),
    ("Clinique du Parc, service d'orthopédie", "Clinique du Parc", "LOCATION"),
    ("Centre hospitalier de Dax", "Centre hospitalier de Dax", "LOCATION"),
    ("Retour à l'EHPAD Les Glycines", "Les Glycines", "LOCATION"),
    ("Mme X, ch. 12, agitée", "12", "LOCATION"),
    # Contact, identifiers, ages, professions.
    ("Tél. 01 23 45 67 89", "01 23 45 67 89", "CONTACT"),
    ("Portable : 06.12.34.56.78", "06.12.34.56.78", "CONTACT"),
    ("IPP : 8001234567", "8001234567", "ID"),
    ("N° de dossier : 45872103", "45872103", "ID"),
    ("NIR 1 85 05 78 006 084 91", "1 85 05 78 006 084 91", "ID"),
    ("Patiente de 78 ans, autonome.", "78", "AGE"),
    ("M. Dupont, 67 ans, retraité", "67", "AGE"),
    ("Il travaille comme boulanger à temps plein.", "boulanger", "PROFESSION"),
]

NEGATIVE = [
    "Kardégic 75 mg 1/j, Bisoprolol 2,5 mg 1/j",
    "Troponine Us 245 ng/L puis 890 ng/L.",
    "PA 152/84 mmHg, FC 88/min, SpO2 96 % AA",
    "fracture du col fémoral (S72.0), Garden IV",
    "Hôpital de jour d'oncologie",
    "hospitalisation en médecine interne depuis 3 jours",
    "Le Dr de garde a été appelé.",
    "Consultation dans 3 mois.",
    "depuis 10 ans, sans récidive",
    "Signe de Babinski absent, manœuvre de Lasègue négative.",
    "Mme la Directrice des soins",
    "HbA1c 7,6 % (cible < 7 %).",
    "Morbus Parkinson, maladie d'Alzheimer",
    "ancien fumeur (30 PA)",
    "Réévaluation à 48 h, puis à J7.",
]


@pytest.mark.parametrize(("text", "surface", "label"), POSITIVE)
def test_french_pack_finds(text: str, surface: str, label: str) -> None:
    assert (surface, label) in pack_coarse("fr", text)


@pytest.mark.parametrize("text", NEGATIVE)
def test_french_pack_leaves_clinical_text_alone(text: str) -> None:
    assert pack_coarse("fr", text) == set()


IDS = [
    ("IPP : 8001234567", "8001234567", "MEDICALRECORD"),
    ("N° de dossier : 45872103", "45872103", "MEDICALRECORD"),
    ("numéro de séjour 190045678", "190045678", "ACCOUNT"),
    ("NDA 190045678", "190045678", "ACCOUNT"),
    ("N° RPPS : 10101234567", "10101234567", "LICENSE"),
    ("NIR 1 85 05 78 006 084 91", "1 85 05 78 006 084 91", "SSN"),
]


@pytest.mark.parametrize(("text", "surface", "label"), IDS)
def test_french_identifiers_get_their_kind(text: str, surface: str, label: str) -> None:
    assert (surface, label) in pack_found("fr", text)
