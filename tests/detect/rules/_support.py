"""Helpers shared by the rule-detector tests."""

from __future__ import annotations

from phiscrub.deid import Deidentifier
from phiscrub.detect.rules.base import RuleDetector
from phiscrub.document import Document, Span


def run_detector(detector: RuleDetector, text: str) -> list[Span]:
    """Detect on a one-off document and check the span invariants every detector must keep."""
    doc = Document("t", text)
    spans = detector.detect(doc)
    seen: set[tuple[int, int]] = set()
    for s in spans:
        assert 0 <= s.start < s.end <= len(text)
        assert doc.surface(s) == text[s.start : s.end]
        assert s.source == f"rule:{detector.name}"
        assert (s.start, s.end) not in seen, "duplicate offsets within one detector"
        seen.add((s.start, s.end))
    assert spans == sorted(spans)
    return spans


def kept_surfaces(deid: Deidentifier, text: str) -> set[str]:
    """The surfaces ``deid`` proposes and then keeps through the whole selection (guard, extend)."""
    doc = Document("t", text)
    spans = deid.select(doc, deid.propose_many([doc])[0])
    return {text[s.start : s.end] for s in spans}
