from __future__ import annotations

import itertools

import pytest

from phiscrub.document import Span
from phiscrub.errors import ConfigError
from phiscrub.resolve import evidence, resolve


def _pairs(spans: list[Span]) -> list[tuple[int, int, str]]:
    return [(s.start, s.end, s.label) for s in spans]


@pytest.mark.parametrize(
    ("strategy", "spans", "expected"),
    [
        # disjoint spans pass through untouched in every strategy
        ("merge", [Span(0, 4, "DATE"), Span(10, 14, "ID")], [(0, 4, "DATE"), (10, 14, "ID")]),
        ("longest", [Span(0, 4, "DATE"), Span(10, 14, "ID")], [(0, 4, "DATE"), (10, 14, "ID")]),
        # merge: union of overlapping spans, label of the longest member
        ("merge", [Span(0, 10, "PATIENT"), Span(5, 12, "DATE")], [(0, 12, "PATIENT")]),
        ("merge", [Span(0, 3, "PATIENT"), Span(2, 12, "DATE")], [(0, 12, "DATE")]),
        # chains of overlaps merge transitively
        ("merge", [Span(0, 3, "ID"), Span(2, 6, "ID"), Span(5, 9, "PHONE")], [(0, 9, "ID")]),
        # touching spans do not overlap
        ("merge", [Span(0, 3, "ID"), Span(3, 6, "DATE")], [(0, 3, "ID"), (3, 6, "DATE")]),
        # longest: the longer wins, the other is dropped
        ("longest", [Span(0, 10, "PATIENT"), Span(5, 12, "DATE")], [(0, 10, "PATIENT")]),
        # score: higher score wins even when shorter
        ("score", [Span(0, 10, "PATIENT", 0.5), Span(5, 8, "DATE", 0.9)], [(5, 8, "DATE")]),
    ],
)
def test_resolve_strategies_give_non_overlapping_sets(
    strategy: str, spans: list[Span], expected: list[tuple[int, int, str]]
) -> None:
    out = resolve(spans, strategy)
    assert _pairs(out) == expected
    for a, b in itertools.pairwise(out):
        assert a.end <= b.start


def test_merge_keeps_all_sources_in_the_merged_span() -> None:
    out = resolve([Span(0, 5, "DATE", source="rule:date"), Span(0, 7, "DATE", source="model")])
    assert out[0].source == "model+rule:date"


def test_resolve_rejects_unknown_strategy() -> None:
    with pytest.raises(ConfigError, match="unknown resolve strategy"):
        resolve([], "vote")


@pytest.mark.parametrize(
    ("rule_label", "rule_score", "model_label", "expected"),
    [
        # "CIPA: nhc-2458712": the rule's IDNUM fallback loses to the model's MEDICALRECORD
        ("IDNUM", 0.45, "MEDICALRECORD", "MEDICALRECORD"),
        ("IDNUM", 0.99, "MEDICALRECORD", "MEDICALRECORD"),  # whatever the scores
        # "NHC: 1234567": a keyword-typed rule beats the model
        ("MEDICALRECORD", 0.85, "IDNUM", "MEDICALRECORD"),
        ("HEALTHPLAN", 0.5, "MEDICALRECORD", "HEALTHPLAN"),
    ],
)
def test_merge_prefers_the_better_evidenced_label_on_an_agreed_span(
    rule_label: str, rule_score: float, model_label: str, expected: str
) -> None:
    rule = Span(6, 17, rule_label, rule_score, "rule:id")
    model = Span(6, 17, model_label, 0.6, "model")
    for order in ([rule, model], [model, rule]):
        (merged,) = resolve(order, "merge")
        assert (merged.start, merged.end, merged.label) == (6, 17, expected)


def test_merge_label_comes_only_from_members_agreeing_on_the_span() -> None:
    # a short keyword-typed rule inside a long model span does not relabel the whole span
    model = Span(0, 40, "HOSPITAL", 0.9, "model")
    rule = Span(30, 36, "CITY", 0.9, "rule:location")
    (merged,) = resolve([model, rule], "merge")
    assert (merged.start, merged.end, merged.label) == (0, 40, "HOSPITAL")


@pytest.mark.parametrize(
    ("span", "tier"),
    [
        (Span(0, 3, "IDNUM", 0.4, "rule:id"), 0),
        (Span(0, 3, "LOCATION", 0.4, "rule:location"), 0),
        (Span(0, 3, "MEDICALRECORD", 0.4, "rule:id"), 2),
        (Span(0, 3, "IDNUM", 0.4, "model"), 1),
        (Span(0, 3, "PATIENT", 0.4, "lexicon"), 0),
        (Span(0, 3, "FECHAS", 0.4, "model"), 3),  # a corpus-native label: no rule speaks it
    ],
)
def test_evidence_tiers(span: Span, tier: int) -> None:
    assert evidence(span) == tier
