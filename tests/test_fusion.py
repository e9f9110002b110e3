"""Rules or model per label (issue 16, part 3): the target-dev comparison, fusion.json and predict."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from corpora import Part, generate_docs, tiny_bilstm_config
from phiscrub.crosslingual.fusion import compare_on_dev
from phiscrub.deid import Deidentifier
from phiscrub.detect.fusion_policy import FUSION_FILE, PreferRulesDetector, apply_fusion, read_fusion
from phiscrub.detect.rules.base import PatternRule, RuleDetector
from phiscrub.document import Document, Span
from phiscrub.train.recipes import run_recipe

pytestmark = pytest.mark.usefixtures("one_torch_thread")

# Made-up names and dates (synthetic PHI). "Rose" is German for erysipelas.
NOTES = [
    (
        "Herr Dr. Quillmann sah die Patientin am 03.05.2019. Rose am linken Unterschenkel.",
        ["Quillmann", "03.05.2019"],
    ),
    (
        "Frau Ranterova kam am 12.06.2020 zur Kontrolle. Keine Rose mehr sichtbar.",
        ["Ranterova", "12.06.2020"],
    ),
    ("Befund von Dr. Sovikamp vom 01.02.2021: Rose rechts, Antibiose begonnen.", ["Sovikamp", "01.02.2021"]),
]


def weak_model() -> RuleDetector:
    """A real detector that reads every sentence-initial word as a name (what a poor model does)."""
    return RuleDetector(
        "model", [PatternRule("PATIENT", re.compile(r"(?<=[.:] )[A-ZÄÖÜ][a-zäöüß]+"), name="weak")]
    )


def _gold(text: str, surfaces: list[str]) -> Document:
    spans = []
    for surface in surfaces:
        start = text.index(surface)
        label = "DATE" if surface[0].isdigit() else "PATIENT"
        spans.append(Span(start, start + len(surface), label))
    return Document(f"n{len(text)}", text, tuple(spans), {"lang": "de"})


def test_rules_are_preferred_for_a_label_the_model_only_spoils() -> None:
    dev = [_gold(text, surfaces) for text, surfaces in NOTES]
    report = compare_on_dev(dev, weak_model(), lang="de")
    assert report.n_docs == 3
    assert report.per_label["NAME"]["rules"]["f1"] == 1.0
    assert report.per_label["NAME"]["union"]["f1"] < 1.0  # "Rose", "Keine" tagged as names
    assert report.prefer["NAME"] == "rules"
    assert report.prefer.get("DATE", "both") == "both"
    assert report.model_below_rules
    assert "worse than the rules" in report.summary() and "NAME" in report.summary()
    assert json.dumps(report.to_dict())  # scores and labels only, JSON-ready


def test_prefer_rules_detector_drops_the_model_spans_of_rule_labels() -> None:
    doc = Document("d", "Befund: Rose am Bein. Kontrolle am 12.03.2019.")
    date_rule = PatternRule("DATE", re.compile(r"\d\d\.\d\d\.\d{4}"), name="date")
    inner = RuleDetector("model", [*weak_model().rules, date_rule])
    wrapped = PreferRulesDetector(inner, ["NAME"])
    assert {s.label for s in inner.detect(doc)} == {"PATIENT", "DATE"}
    kept = wrapped.detect(doc)
    assert [s.label for s in kept] == ["DATE"]
    assert wrapped.detect_many([doc, doc]) == [kept, kept]
    assert wrapped.name == inner.name


def test_a_model_folder_without_policy_is_left_alone(tmp_path: Path) -> None:
    inner = weak_model()
    assert apply_fusion(inner, tmp_path) is inner
    assert apply_fusion(inner, None) is inner
    assert read_fusion(tmp_path) == {}


def _parts(rng: random.Random) -> list[Part]:
    return [
        ("Herr Dr. ", None),
        (rng.choice(("Quillmann", "Ranterova", "Sovikamp", "Tamberg")), "DOCTOR"),
        (" am ", None),
        (f"{rng.randint(10, 28)}.0{rng.randint(1, 9)}.20{rng.randint(10, 24)}", "DATE"),
        (" gesehen.", None),
    ]


def test_recipe_writes_the_policy_and_predict_applies_it_beside_the_rules(tmp_path: Path) -> None:
    target = generate_docs([f"t{i}" for i in range(6)], 1, _parts)
    dev = [Document(d.id, d.text, d.spans, {"lang": "de"}) for d in generate_docs(["d0", "d1"], 2, _parts)]
    out = tmp_path / "model"
    result = run_recipe("finetune", target, dev, tiny_bilstm_config(), out, target_epochs=2, progress=False)
    assert result.fusion is not None
    assert (out / FUSION_FILE).is_file()
    summary = json.loads((out / "recipe.json").read_text())
    assert set(summary["fusion"]["overall_entity_f1"]) == {"rules", "model", "union"}
    # A policy that leaves NAME to the rules: predict with rules wraps the model, without rules it does not.
    policy = json.loads((out / FUSION_FILE).read_text())
    policy["prefer"] = {"NAME": "rules", "DATE": "both"}
    (out / FUSION_FILE).write_text(json.dumps(policy), encoding="utf-8")
    with_rules = Deidentifier(model=out, lang="de")
    assert isinstance(with_rules.active_detectors[-1], PreferRulesDetector)
    proposals = with_rules.propose_many([Document("x", "Herr Dr. Quillmann am 12.03.2019 gesehen.")])[0]
    assert not [s for s in proposals if s.source.startswith("model") and s.label in ("DOCTOR", "PATIENT")]
    model_only = Deidentifier(model=out, lang="de", detectors=[])
    assert not isinstance(model_only.active_detectors[-1], PreferRulesDetector)
    # DATE left to the model: the rule detectors lose their DATE spans, the model keeps its own.
    policy["prefer"] = {"DATE": "model"}
    (out / FUSION_FILE).write_text(json.dumps(policy), encoding="utf-8")
    to_model = Deidentifier(model=out, lang="de")
    assert all(isinstance(d, PreferRulesDetector) for d in to_model.active_detectors[:-1])
    proposals = to_model.propose_many([Document("x", "Herr Dr. Quillmann am 12.03.2019 gesehen.")])[0]
    assert not [s for s in proposals if s.source.startswith("rule") and s.label == "DATE"]
    assert [s for s in proposals if s.source.startswith("rule") and s.label == "DOCTOR"]
