"""Rules or model, label by label: fusion of a few-shot target model with the language-pack rules.

A target model trained on 50 sentences can be worse than the rules of its language (issue 16: German
rules 0.60 entity F1, the few-shot model with the same rules 0.53). :func:`compare_on_dev` scores, on the
target dev set, the rules alone, the model alone and their union (the default ensemble of
:class:`~phiscrub.Deidentifier`) per coarse label, and picks per label what to trust:

* ``rules``: the rules alone score better than the union (the model's spans of that label only add
  errors), so the model's spans of that label are dropped;
* ``model``: the model alone scores better than both the union and the rules (the rules' spans of
  that label only add errors, or follow another span convention), so the rules' spans are dropped;
* ``both``: the union is at least as good, the default ensemble is kept.

:class:`FusionReport` says whether the model is below the rules overall (``model_below_rules``), holds
the per-label scores and the choice. The recipes write it as ``fusion.json`` next to the model
(:func:`write_fusion`), and :mod:`phiscrub.detect.fusion_policy` applies it when such a folder is
loaded, so that the ensemble prefers the rules (or the model) for those labels. Scores and labels
only: no text is written.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from phiscrub.detect.base import Detector
from phiscrub.detect.fusion_policy import FUSION_FILE
from phiscrub.document import Document
from phiscrub.evaluate.metrics import EvaluationResult, evaluate

__all__ = ["FusionReport", "compare_on_dev", "write_fusion"]

log = logging.getLogger(__name__)

_SETUPS = ("rules", "model", "union")


@dataclass(frozen=True)
class FusionReport:
    """Per-label comparison of rules, model and their union on a target dev set.

    Args:
        overall: setup -> micro entity F1 (``rules``, ``model``, ``union``).
        per_label: coarse label -> setup -> ``{"f1", "precision", "recall", "gold"}`` (entity level).
        prefer: coarse label -> ``rules`` (drop the model's spans of that label), ``model`` (drop the
            rules' spans of that label) or ``both``.
        n_docs: dev documents scored.
    """

    overall: dict[str, float]
    per_label: dict[str, dict[str, dict[str, float]]]
    prefer: dict[str, str]
    n_docs: int
    notes: list[str] = field(default_factory=list)

    @property
    def model_below_rules(self) -> bool:
        """True when the model alone scores below the rules alone (entity F1, all labels)."""
        return self.overall["model"] < self.overall["rules"]

    @property
    def rules_labels(self) -> tuple[str, ...]:
        """Labels for which the rules are preferred."""
        return tuple(sorted(lab for lab, p in self.prefer.items() if p == "rules"))

    @property
    def model_labels(self) -> tuple[str, ...]:
        """Labels for which the model alone is preferred."""
        return tuple(sorted(lab for lab, p in self.prefer.items() if p == "model"))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (scores and labels only)."""
        return {
            "overall_entity_f1": self.overall,
            "model_below_rules": self.model_below_rules,
            "prefer": self.prefer,
            "per_label": self.per_label,
            "n_docs": self.n_docs,
            "notes": self.notes,
        }

    def summary(self) -> str:
        """One line for logs: the verdict and the labels given to the rules (no text)."""
        o = self.overall
        head = f"target dev entity F1: rules {o['rules']:.3f}, model {o['model']:.3f}, rules+model {o['union']:.3f}"
        if self.model_below_rules:
            head += " - the target model is worse than the rules alone"
        labels = ", ".join(self.rules_labels)
        head += f"; predict prefers the rules for {labels}" if labels else ""
        model = ", ".join(self.model_labels)
        return head + (f"; the model alone for {model}" if model else "")


def _run(
    detectors: Sequence[Detector], docs: Sequence[Document], lang: str, propagate: bool
) -> list[Document]:
    from phiscrub.deid import Deidentifier

    deid = Deidentifier(model=None, detectors=list(detectors), lang=lang, labels="fine", propagate=propagate)
    return [Document(d.id, d.text, tuple(spans)) for d, spans in zip(docs, deid.detect_many(list(docs)))]


def compare_on_dev(
    dev_docs: Sequence[Document], model: Detector, lang: str = "auto", margin: float = 0.0
) -> FusionReport:
    """Score rules alone, the model alone and both on ``dev_docs`` (coarse labels), per label.

    Args:
        dev_docs: gold target dev documents.
        model: the target model's detector (:func:`phiscrub.detect.tagger.load_model_detector`).
        lang: rule language (``auto``: per document, from ``metadata["lang"]`` or the text).
        margin: the rules are preferred for a label only when they beat the union by more than this.

    Returns:
        A :class:`FusionReport`.
    """
    from phiscrub.detect.rules import default_detectors

    rules = default_detectors(lang)
    preds = {
        "rules": _run(rules, dev_docs, lang, propagate=True),
        "model": _run([model], dev_docs, lang, propagate=False),
        "union": _run([*rules, model], dev_docs, lang, propagate=True),
    }
    results: dict[str, EvaluationResult] = {k: evaluate(dev_docs, v, "coarse") for k, v in preds.items()}
    labels = sorted({lab for r in results.values() for lab in r.per_label})
    per_label: dict[str, dict[str, dict[str, float]]] = {}
    prefer: dict[str, str] = {}
    for lab in labels:
        row: dict[str, dict[str, float]] = {}
        for setup in _SETUPS:
            s = results[setup].per_label.get(lab)
            if s is None:
                row[setup] = {"f1": 0.0, "precision": 0.0, "recall": 0.0, "gold": 0.0}
            else:
                e = s.entity
                row[setup] = {
                    "f1": e.f1,
                    "precision": e.precision,
                    "recall": e.recall,
                    "gold": s.gold_entities,
                }
        per_label[lab] = row
        best_other = max(row["union"]["f1"], row["rules"]["f1"])
        if row["rules"]["f1"] > row["union"]["f1"] + margin:
            prefer[lab] = "rules"
        elif row["model"]["f1"] > best_other + margin:
            prefer[lab] = "model"
        else:
            prefer[lab] = "both"
    overall = {k: results[k].entity.f1 for k in _SETUPS}
    return FusionReport(overall=overall, per_label=per_label, prefer=prefer, n_docs=len(dev_docs))


def write_fusion(report: FusionReport, model_dir: str | Path) -> Path:
    """Write ``fusion.json`` into ``model_dir``; returns its path."""
    path = Path(model_dir) / FUSION_FILE
    path.write_text(json.dumps(report.to_dict(), indent=2) + "\n", encoding="utf-8")
    return path
