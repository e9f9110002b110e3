"""AGE rules: the number of an age expression, never durations, temperatures or sizes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from phiscrub.detect.rules.ages import age_detector, age_rules
from phiscrub.detect.rules.base import RuleDetector

Found = Callable[[RuleDetector, str], list[tuple[str, str]]]

EN = age_detector("en")


@pytest.mark.parametrize(
    ("text", "surface"),
    [
        ("54 yo woman with cough", "54"),
        ("54yo M", "54"),
        ("a 54 y/o man", "54"),
        ("54 y.o. female", "54"),
        ("a 54-year-old retired teacher", "54"),
        ("a 54 year old man", "54"),
        ("He is 54 years old.", "54"),
        ("aged 54, lives alone", "54"),
        ("diagnosed at age 54.", "54"),
        ("Age: 54   Sex: F", "54"),
        ("Age/Sex: 54 / M", "54"),
        ("Jane Roe | 67F | MRN 1", "67"),
        ("PT J. ROE  54Y M  MRN", "54"),
        ("DOB 1/2/1960 (64 yrs)", "64"),
        ("now 3 months old", "3"),
        ("an 18-month-old boy", "18"),
        ("a woman in her 60s", "60s"),
        ("children aged 4, 7 and 11", "11"),
        ("father died at 69 of MI", "69"),
        ("Her son, 65, is at home", "65"),
    ],
)
def test_age_rules_take_the_number_of_an_age(found: Found, text: str, surface: str) -> None:
    assert (surface, "AGE") in found(EN, text)


@pytest.mark.parametrize(
    "text",
    [
        "Symptoms for 3 years.",
        "Amoxicillin x 2 years ago; x 3 days.",
        "T 101 F orally.",
        "16F Foley placed; 14 Fr catheter; 8 F sheath.",
        "Gestational age 34 weeks.",
        "Repeat in 6-8 weeks, 2-3 times daily.",
        "HR 118, BP 94/58, GCS 15, SpO2 86%.",
        "WBC 18.6 K/uL, Creatinine 2.1 mg/dL.",
        "Protocol extended by 12 hours.",
        "Systolic pressures in the 70s.",
        "Ceftriaxone 2 g IV q24h.",
    ],
)
def test_age_rules_skip_durations_temperatures_and_sizes(found: Found, text: str) -> None:
    assert found(EN, text) == []


@pytest.mark.parametrize(
    ("text", "surface"),
    [
        ("Age: newborn", "newborn"),
        ("AGE: 3 wks  SEX: F", "3"),
        ("Infant 3 weeks old, seen today", "3"),
        ("a 45 day old infant", "45"),
        ("14 month old boy", "14"),
    ],
)
def test_age_rules_take_ages_not_in_years_in_english(found: Found, text: str, surface: str) -> None:
    assert (surface, "AGE") in found(EN, text)


ES = age_detector("es")


@pytest.mark.parametrize(
    ("text", "surface"),
    [
        ("Paciente de 14 meses de edad.", "14 meses"),
        ("Lactante de 45 días con fiebre.", "45 días"),
        ("Edad: recién nacida. Sexo: M.", "recién nacida"),
        ("Niño de 3 semanas de vida.", "3 semanas"),
        ("Mujer de 45 años que acude.", "45 años"),
        ("Edad: 45 años Sexo: H.", "45 años"),
        ("Edad: 34 Sexo: M.", "34"),
        ("Varón de sesenta y tres años.", "sesenta y tres años"),
        ("niña de un año y cinco meses", "un año y cinco meses"),
        ("Actualmente tiene 3 años y medio.", "3 años y medio"),
        ("Varón, de 2,5 años.", "2,5 años"),
        ("Se trata de una recién nacida a término.", "recién nacida"),
        ("Dona de 83 anys.", "83 anys"),
    ],
)
def test_age_rules_take_spanish_and_catalan_ages_with_their_unit(
    found: Found, text: str, surface: str
) -> None:
    assert (surface, "AGE") in found(ES, text)


@pytest.mark.parametrize(
    "text",
    [
        "Hace 3 años presentó un cuadro similar.",
        "A los 3 años del diagnóstico recidivó.",
        "Cuadro de 2 meses de evolución.",
        "Tras 6 meses de seguimiento, sin recidiva.",
        "Tratamiento durante 14 días.",
    ],
)
def test_age_rules_skip_spanish_durations(found: Found, text: str) -> None:
    assert found(ES, text) == []


@pytest.mark.parametrize("lang", ["zh", "xx", "it"])
def test_age_rules_exist_only_for_languages_with_a_pack(lang: str) -> None:
    assert age_rules(lang) == ()


@pytest.mark.parametrize("lang", ["de", "fr", "nl"])
def test_age_rules_of_the_german_french_and_dutch_packs(lang: str) -> None:
    assert age_rules(lang) != ()


# -- ages in words and bare ages of the patient (issue 28, item 10) --------------------------------------


@pytest.mark.parametrize(
    ("text", "surface"),
    [
        ("She is a ninety-five year old woman.", "ninety-five"),
        ("A Ninety five-year-old man.", "Ninety five"),
        ("a ninety-two-year-old retired teacher", "ninety-two"),
        ("now ninety years old", "ninety"),
        ("the patient was one hundred and two years old", "one hundred and two"),
        ("aged ninety-one, lives alone", "ninety-one"),
        ("at the age of ninety-three", "ninety-three"),
        ("Pt is 95.", "95"),
        ("Patient was 91, independent.", "91"),
        ("She is 92 and lives alone.", "92"),
        ("He is now ninety-four.", "ninety-four"),
    ],
)
def test_age_rules_take_ages_in_words_and_bare_ages_of_the_patient(
    found: Found, text: str, surface: str
) -> None:
    assert (surface, "AGE") in found(EN, text)


@pytest.mark.parametrize(
    "text",
    ["Pt is 95% on RA.", "Pt is 3/10 pain.", "Pt is 2.5 kg.", "He is 6'2\" tall.", "aged ninety-two weeks"],
)
def test_age_in_words_rules_skip_what_is_not_an_age(found: Found, text: str) -> None:
    assert not [f for f in found(EN, text) if f[1] == "AGE"]


def test_safe_harbor_replaces_word_ages_over_89_and_keeps_the_others(tmp_path: Path) -> None:
    """The whole rules-only pipeline with the English default policy (safe-harbor)."""
    from click.testing import CliRunner

    from phiscrub.cli.app import cli

    notes = tmp_path / "notes"
    notes.mkdir()
    over = "She is a ninety-five year old woman. Pt is 95."
    under = "She is a forty-five year old woman. Pt is 45."
    (notes / "over.txt").write_text(over, encoding="utf-8")
    (notes / "under.txt").write_text(under, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["redact", str(notes), "-o", str(out), "--rules-only"])
    assert result.exit_code == 0, result.output
    red = (out / "over.txt").read_text(encoding="utf-8")
    assert "ninety-five" not in red and " 95." not in red and red.count("[AGE]") == 2
    assert (out / "under.txt").read_text(encoding="utf-8") == under
