"""A model folder's fusion policy (``fusion.json``) applied to the detectors: label filters.

:func:`phiscrub.crosslingual.fusion.compare_on_dev` decides, per coarse label, whether the rules
alone, the model alone or both are trusted, and writes ``fusion.json`` next to the model.
:func:`fuse_detectors` (used by :class:`~phiscrub.Deidentifier`) and :func:`apply_fusion` read it
and put a :class:`PreferRulesDetector` (a label filter) around the model or around each rule
detector, so the other side's spans of those labels are left out. Labels only: no text is read
or written here.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from phiscrub.detect.base import Detector, detect_batch
from phiscrub.document import Document, Span
from phiscrub.labels import fold

__all__ = [
    "FUSION_FILE",
    "PreferRulesDetector",
    "apply_fusion",
    "fuse_detectors",
    "has_rules",
    "read_fusion",
]

log = logging.getLogger(__name__)

#: File name of the fusion policy in a model folder.
FUSION_FILE = "fusion.json"


def read_fusion(model_dir: str | Path) -> dict[str, str]:
    """The per-label preference of a model folder (empty when it has no ``fusion.json``)."""
    path = Path(model_dir) / FUSION_FILE
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    prefer = data.get("prefer", {})
    return {str(k): str(v) for k, v in prefer.items()} if isinstance(prefer, dict) else {}


class PreferRulesDetector:
    """A detector whose spans of some coarse labels are dropped (another detector finds those alone).

    Put around the model it leaves labels to the rules; put around a rule detector, to the model.

    Args:
        inner: the wrapped detector.
        rules_labels: coarse labels (``NAME``, ``LOCATION`` ...) whose spans are dropped.
    """

    def __init__(self, inner: Detector, rules_labels: Sequence[str]) -> None:
        self.inner = inner
        self.rules_labels = frozenset(rules_labels)
        self.name = getattr(inner, "name", "model")

    def __repr__(self) -> str:
        return f"PreferRulesDetector({self.inner!r}, rules_labels={sorted(self.rules_labels)})"

    def __getattr__(self, attr: str) -> Any:
        # Everything else (labels, model_dir, calibration ...) is the inner detector's.
        return getattr(self.inner, attr)

    def _keep(self, spans: Sequence[Span]) -> list[Span]:
        return [s for s in spans if fold(s.label, "coarse") not in self.rules_labels]

    def detect(self, doc: Document) -> list[Span]:
        """The inner detector's spans, without those of the rules' labels."""
        return self._keep(self.inner.detect(doc))

    def detect_many(self, docs: list[Document]) -> list[list[Span]]:
        """Batched :meth:`detect` (uses the inner detector's batching when it has one)."""
        return [self._keep(spans) for spans in detect_batch(self.inner, docs)]


def has_rules(detectors: Sequence[Detector]) -> bool:
    """True when ``detectors`` hold rule detectors (a fusion policy only applies beside the rules)."""
    from phiscrub.detect.rules import AutoLanguageRules, RuleDetector

    return any(isinstance(d, (RuleDetector, AutoLanguageRules)) for d in detectors)


def fuse_detectors(
    rules: Sequence[Detector], model: Detector, model_dir: str | Path | None
) -> list[Detector]:
    """The rule detectors and the model with a folder's fusion policy applied (``rules`` then model).

    Labels preferred to the rules leave the model; labels preferred to the model leave the rules.
    Without a policy (or without rule detectors) the detectors are returned as they are.
    """
    prefer = read_fusion(model_dir) if model_dir is not None and has_rules(rules) else {}
    to_rules = sorted(lab for lab, p in prefer.items() if p == "rules")
    to_model = sorted(lab for lab, p in prefer.items() if p == "model")
    if to_rules or to_model:
        log.info("model fusion policy: rules alone for %s; model alone for %s", to_rules, to_model)
    out: list[Detector] = [PreferRulesDetector(d, to_model) if to_model else d for d in rules]
    out.append(PreferRulesDetector(model, to_rules) if to_rules else model)
    return out


def apply_fusion(detector: Detector, model_dir: str | Path | None) -> Detector:
    """Wrap ``detector`` in :class:`PreferRulesDetector` when ``model_dir`` holds a fusion policy."""
    if model_dir is None:
        return detector
    rules_labels = [lab for lab, p in read_fusion(model_dir).items() if p == "rules"]
    if not rules_labels:
        return detector
    log.info("model fusion policy: the rules alone are preferred for %s", ", ".join(sorted(rules_labels)))
    return PreferRulesDetector(detector, rules_labels)
