"""The bundled (English) model runs only on English notes; an explicit model folder always runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from phiscrub import Deidentifier
from phiscrub.detect.language_gate import BUNDLED_DEFAULT_LANGUAGES, LanguageGate, model_languages
from phiscrub.detect.tagger import bundled_model_path
from phiscrub.document import Document

BUNDLED = bundled_model_path()
needs_model = pytest.mark.skipif(BUNDLED is None, reason="no bundled model in this installation")

EN = Document("en-1", "Seen by Dr. Alan Grant at Mercy Hospital on 03/12/2019.", metadata={"lang": "en"})
DE = Document("de-1", "Frau Uhlenbrock wurde am 03.12.2019 in Nürnberg aufgenommen.", metadata={"lang": "de"})
ES = Document("es-1", "Paciente de 45 años ingresó en el Hospital La Paz de Madrid.", metadata={"lang": "es"})


def _names(deid: Deidentifier) -> list[str]:
    return [d.name for d in deid.active_detectors]


def test_model_languages_from_meta(tmp_path: Path) -> None:
    assert model_languages("default", tmp_path) == BUNDLED_DEFAULT_LANGUAGES  # no meta.json: English
    (tmp_path / "meta.json").write_text(json.dumps({"languages": ["en", "de-DE"]}), encoding="utf-8")
    assert model_languages("default", tmp_path) == frozenset({"en", "de"})
    assert model_languages(str(tmp_path), tmp_path) is None  # an explicit folder: any language
    assert model_languages("default", None) is None


@needs_model
@pytest.mark.parametrize("lang", ["es", "de", "fr", "es-ES"])
def test_bundled_model_left_out_for_other_languages(lang: str) -> None:
    assert "model" not in _names(Deidentifier(model="default", lang=lang))
    assert "model" in _names(Deidentifier(model="default", lang="en"))


@needs_model
@pytest.mark.parametrize("model", [str(BUNDLED), "bundled"])
def test_explicit_folder_or_bundled_by_name_always_runs(model: str) -> None:
    deid = Deidentifier(model=model, lang="de")
    assert "model" in _names(deid)
    assert not any(
        isinstance(d, LanguageGate) for d in Deidentifier(model=model, lang="auto").active_detectors
    )
    # The model adds its own proposals to the German rules' (it is not gated off).
    assert len(deid.propose_many([DE])[0]) > len(Deidentifier(model=None, lang="de").propose_many([DE])[0])


@needs_model
def test_non_english_default_equals_rules_alone() -> None:
    for doc, lang in ((DE, "de"), (ES, "es")):
        default = Deidentifier(model="default", lang=lang).detect(doc)
        assert default == Deidentifier(model=None, lang=lang).detect(doc)
        assert default  # the rules find something in these notes


@needs_model
def test_auto_gates_the_model_per_document() -> None:
    deid = Deidentifier(model="default", lang="auto")
    gates = [d for d in deid.active_detectors if isinstance(d, LanguageGate)]
    assert len(gates) == 1 and gates[0].name == "model"
    gate = gates[0]
    docs = [DE, EN, ES, EN]
    found = gate.detect_many(docs)
    inner = gate.inner.detect(EN)
    assert inner  # the model finds the English name and date
    assert found == [[], inner, [], inner]
    assert [gate.detect(d) for d in docs] == found
    # The German note under auto gets what the German rules alone give.
    assert deid.detect(DE) == Deidentifier(model=None, lang="de").detect(DE)
