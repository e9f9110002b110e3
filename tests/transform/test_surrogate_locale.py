"""Issue 29: surrogates in the note's language and locale, through the Python API and the CLI."""

from __future__ import annotations

import datetime as dt
import itertools
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from phiscrub import Deidentifier
from phiscrub.cli.app import cli
from phiscrub.document import Document
from phiscrub.errors import ConfigError
from phiscrub.transform.surrogate.locale import locale_list, resolve_locale
from phiscrub.transform.surrogate.text import normalize_component

SPANISH_NOTE = (
    "Paciente: María García López, ingresada el 03/04/2019 en el Hospital de Sant Pau.\n"
    "Alta el 15/04/2019; control el 22/04/2019 con la Dra. Fernández.\n"
)
GERMAN_NOTE = "Patient: Klaus Müller, aufgenommen am 03.04.2019. Entlassung am 15.04.2019.\n"


def _day_first(text: str) -> list[dt.date]:
    return [
        dt.date(int(y), int(m), int(d)) for d, m, y in re.findall(r"\b(\d\d)[/.](\d\d)[/.](\d{4})\b", text)
    ]


def _names_of(folder: str) -> set[str]:
    lists = ("first_names_female", "first_names_male", "last_names")
    return {normalize_component(n) for name in lists for n in locale_list(name, folder)}


def _assert_spanish(text: str) -> None:
    dates = _day_first(text)
    assert len(dates) == 3, "each date keeps its day-first format"
    # Read day first, the shifted dates keep the original intervals (12 and 7 days).
    assert [(b - a).days for a, b in itertools.pairwise(dates)] == [12, 7]
    assert dates[0] != dt.date(2019, 4, 3)
    m = re.search(r"Paciente: (\S+) (\S+) (\S+),", text)
    assert m is not None
    spanish = _names_of("es")
    assert all(normalize_component(part) in spanish for part in m.groups()), m.groups()
    assert "María" not in text and "García" not in text and "Fernández" not in text


def test_python_api_lang_es_gives_spanish_names_and_day_first_dates() -> None:
    deid = Deidentifier(mode="surrogate", key="k", lang="es", model=None)
    _assert_spanish(deid.redact(SPANISH_NOTE).text)


def test_note_metadata_lang_wins_over_the_deidentifier_language() -> None:
    deid = Deidentifier(mode="surrogate", key="k", lang="en", model=None, detectors=None)
    doc = Document(id="n1", text=SPANISH_NOTE, metadata={"lang": "es"})
    spans = Deidentifier(mode="placeholder", lang="es", model=None).detect(doc)
    out = deid.transformer.apply(doc, spans)
    _assert_spanish(out.text)


def test_cli_lang_es_gives_spanish_surrogates(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.txt").write_text(SPANISH_NOTE, encoding="utf-8")
    result = CliRunner().invoke(
        cli,
        ["redact", str(notes), "-o", str(tmp_path / "out"), "--rules-only", "--lang", "es"]
        + ["--mode", "surrogate", "--key", "k"],
    )
    assert result.exit_code == 0, result.output
    _assert_spanish((tmp_path / "out" / "a.txt").read_text(encoding="utf-8"))


def test_python_api_lang_de_gives_german_names() -> None:
    out = Deidentifier(mode="surrogate", key="k", lang="de", model=None).redact(GERMAN_NOTE).text
    m = re.search(r"Patient: (\S+) (\S+),", out)
    assert m is not None and m.groups() != ("Klaus", "Müller")
    german = _names_of("de")
    assert all(normalize_component(part) in german for part in m.groups()), m.groups()
    dates = _day_first(out)
    assert len(dates) == 2 and (dates[1] - dates[0]).days == 12


@pytest.mark.parametrize(
    ("locale", "lang", "code"),
    [
        (None, "en", "en_US"),
        (None, None, "en_US"),
        (None, "es", "es_ES"),
        (None, "de", "de_DE"),
        ("fr-FR", "en", "fr_FR"),
        ("nl_nl", None, "nl_NL"),
        (None, "xx", "en_US"),
    ],
)
def test_locale_resolution(locale: str | None, lang: str | None, code: str) -> None:
    assert resolve_locale(locale, lang).code == code


def test_unknown_locale_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown surrogate locale"):
        _ = Deidentifier(mode="surrogate", key="k", model=None, locale="xx_YY").transformer


def test_cli_lang_de_gives_german_surrogates(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.txt").write_text(GERMAN_NOTE, encoding="utf-8")
    result = CliRunner().invoke(
        cli,
        ["redact", str(notes), "-o", str(tmp_path / "out"), "--rules-only", "--lang", "de"]
        + ["--mode", "surrogate", "--key", "k"],
    )
    assert result.exit_code == 0, result.output
    out = (tmp_path / "out" / "a.txt").read_text(encoding="utf-8")
    m = re.search(r"Patient: (\S+) (\S+),", out)
    assert m is not None and m.groups() != ("Klaus", "Müller"), out
    german = _names_of("de")
    assert all(normalize_component(part) in german for part in m.groups()), m.groups()
    dates = _day_first(out)
    assert len(dates) == 2 and (dates[1] - dates[0]).days == 12


US_NOTE = "Pt John Smith of Springfield, IL 62704. Tel 217-555-0147.\n"


def _cli_redact(tmp_path: Path, text: str, *options: str) -> tuple[int, str]:
    notes = tmp_path / "notes"
    notes.mkdir(exist_ok=True)
    (notes / "a.txt").write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli,
        ["redact", str(notes), "-o", str(out), "--rules-only", "--mode", "surrogate", "--key", "k", *options],
    )
    written = (out / "a.txt").read_text(encoding="utf-8") if (out / "a.txt").exists() else ""
    return result.exit_code, written


def test_cli_fictional_contacts(tmp_path: Path) -> None:
    code, out = _cli_redact(tmp_path, US_NOTE, "--fictional-contacts")
    assert code == 0
    m = re.search(r"Tel (\d{3})-(\d{3})-(\d{4})", out)
    assert m is not None and m.group(2) == "555" and m.group(3).startswith("01"), out


def test_cli_locale_sets_the_surrogate_lists(tmp_path: Path) -> None:
    code, out = _cli_redact(tmp_path, US_NOTE, "--locale", "de_DE")
    assert code == 0
    m = re.search(r"Pt (\S+) (\S+) of", out)
    assert m is not None
    assert all(normalize_component(part) in _names_of("de") for part in m.groups()), out


def test_cli_unknown_locale_fails_at_start_up(tmp_path: Path) -> None:
    code, out = _cli_redact(tmp_path, US_NOTE, "--locale", "xx_YY")
    assert code != 0 and out == ""
