"""The ``threshold`` knob: dropping low-score proposals never adds redacted text (synthetic PHI only)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from phiscrub import Deidentifier
from phiscrub.cli.app import cli
from phiscrub.deid import DEFAULT_THRESHOLD
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError

NOTES = [
    "Pt John Carter, 92 yo M, seen by Dr. Ellen Ripley at Mercy Hospital on 03/14/2021. Call 617-555-0199.",
    "HR 80s, SBP 90-100s overnight. Carter's daughter Amy visited 3/15. MRN 4455667. Carter stable.",
    "Discharged to Springfield Rehab on March 20, 2021; f/u with Dr. Ripley in 2 weeks. Email jc@example.org.",
    "ICU NSG NOTE 7a-7p: pt on levophed 0.05, UOP 40 cc/hr. Spoke with wife Mary Carter, 555-201-3344.",
    "Seen 04/02/2021 by D. Hooper, NP. Lives at 12 Elm Street, Boston, MA 02115. Age 45.",
]
THRESHOLDS = [0.0, 0.1, 0.3, 0.5, 0.7, 0.85, 0.9, 0.95, 0.99, 1.0]


def _covered(spans: list[Span]) -> set[int]:
    return {i for s in spans for i in range(s.start, s.end)}


def _check_monotone(deid: Deidentifier, docs: list[Document], thresholds: list[float]) -> int:
    """Assert: at each higher threshold, every span lies inside a span of the lower one. Returns #spans."""
    total = 0
    for doc, proposals in zip(docs, deid.propose_many(docs)):
        previous: list[Span] | None = None
        for t in sorted(thresholds):
            spans = deid.select(doc, proposals, threshold=t)
            total += len(spans)
            if previous is not None:
                assert _covered(spans) <= _covered(previous), (doc.id, t)
                for s in spans:
                    assert any(p.start <= s.start and s.end <= p.end for p in previous), (doc.id, t, s)
            previous = spans
    return total


@pytest.mark.parametrize("policy", ["safe-harbor", "i2b2"])
def test_higher_threshold_never_adds_spans_rules(policy: str) -> None:
    deid = Deidentifier(model=None, lexicon=True, policy=policy)
    docs = [Document(f"n{i}", t) for i, t in enumerate(NOTES)]
    assert _check_monotone(deid, docs, THRESHOLDS) > 0


@pytest.mark.slow
@pytest.mark.usefixtures("one_torch_thread")
def test_higher_threshold_never_adds_spans_bundled_model() -> None:
    from phiscrub.detect.tagger import bundled_model_path

    if bundled_model_path() is None:
        pytest.fail("no bundled model")
    deid = Deidentifier(model="default", policy="safe-harbor")
    docs = [Document(f"n{i}", t) for i, t in enumerate(NOTES)]
    assert _check_monotone(deid, docs, THRESHOLDS) > 0


class ScoredDetector:
    """Proposes the given spans (with their scores) in every document."""

    name = "scored"

    def __init__(self, spans: list[Span]) -> None:
        self.spans = spans

    def detect(self, doc: Document) -> list[Span]:
        return [s for s in self.spans if s.end <= len(doc.text)]


TEXT = "Ann Lee met Bob Ray and Cy Dee on 03/14/2021 in Springfield near Oak Street; Lee and Ray left."
LABELS = ["PATIENT", "DOCTOR", "DATE", "CITY", "STREET", "RELATIVE"]


@settings(max_examples=60, deadline=None)
@given(
    raw=st.lists(
        st.tuples(
            st.integers(0, len(TEXT) - 2),
            st.integers(1, 20),
            st.sampled_from(LABELS),
            st.floats(0.0, 1.0),
        ),
        max_size=8,
    ),
    t1=st.floats(0.0, 1.0),
    t2=st.floats(0.0, 1.0),
    resolve=st.sampled_from(["merge", "longest", "score"]),
    propagate=st.booleans(),
)
def test_higher_threshold_never_adds_redacted_characters(
    raw: list[tuple[int, int, str, float]], t1: float, t2: float, resolve: str, propagate: bool
) -> None:
    spans = [Span(a, min(a + n, len(TEXT)), lab, sc, "x") for a, n, lab, sc in raw]
    # Without the clinical guard: its name-edge trimming ("its Herzog" -> "Herzog") runs on resolved
    # spans, so a merged span can lose an edge function word that a lone higher-scored proposal of
    # that word keeps (found by hypothesis; docs/model.md). Threshold, policy, propagation and resolve
    # are what this property pins.
    deid = Deidentifier(
        model=None, detectors=[ScoredDetector(spans)], resolve=resolve, propagate=propagate, guard=False
    )
    doc = Document("d", TEXT)
    lo, hi = sorted((t1, t2))
    proposals = deid.propose_many([doc])[0]
    low = deid.select(doc, proposals, threshold=lo)
    high = deid.select(doc, proposals, threshold=hi)
    if resolve == "merge":
        # The default strategy: the redacted characters at the higher threshold are a subset.
        assert _covered(high) <= _covered(low)
    # Whatever the strategy, every span left comes from a proposal scoring at least the threshold
    # (or is a propagated occurrence of one).
    assert all(
        "propagate" in s.source or any(p.score >= hi and p.overlaps(s) for p in proposals) for s in high
    )


@pytest.mark.parametrize(
    ("threshold", "kept"),
    [
        (0.0, {"Ann Lee", "Bob Ray", "Cy Dee"}),
        (0.5, {"Ann Lee", "Bob Ray"}),
        (0.8, {"Ann Lee"}),
        (1.0, set()),
    ],
)
def test_threshold_drops_spans_scoring_below_it(threshold: float, kept: set[str]) -> None:
    spans = [Span(0, 7, "PATIENT", 0.9), Span(12, 19, "PATIENT", 0.5), Span(24, 30, "PATIENT", 0.2)]
    deid = Deidentifier(model=None, detectors=[ScoredDetector(spans)], threshold=threshold, propagate=False)
    found = {TEXT[s.start : s.end] for s in deid.detect(TEXT)}
    assert found == kept


@pytest.mark.parametrize("bad", [-0.1, 1.5, True])
def test_threshold_outside_0_1_is_a_config_error(bad: float) -> None:
    with pytest.raises(ConfigError, match="threshold"):
        Deidentifier(model=None, threshold=bad)


def test_default_threshold_is_recall_first() -> None:
    assert Deidentifier(model=None).threshold == DEFAULT_THRESHOLD <= 0.3


@pytest.mark.parametrize(("threshold", "redacted"), [("0", True), ("0.9", True), ("1.0", False)])
def test_redact_and_predict_cli_threshold_option(tmp_path: Path, threshold: str, redacted: bool) -> None:
    note = "Call 617-555-0199 on 03/14/2021."  # rule scores 0.9 (phone) and 0.95 (date)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "n1.txt").write_text(note, encoding="utf-8")
    runner = CliRunner()
    args = [
        "redact",
        str(tmp_path / "in"),
        "-o",
        str(tmp_path / "out"),
        "--rules-only",
        "--threshold",
        threshold,
    ]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    out = (tmp_path / "out" / "n1.txt").read_text(encoding="utf-8")
    assert ("617-555-0199" not in out and "03/14/2021" not in out) is redacted
    assert (out == note) is not redacted
    pred = tmp_path / "pred.jsonl"
    args = [
        "predict",
        str(tmp_path / "in" / "n1.txt"),
        "-o",
        str(pred),
        "--model",
        "none",
        "--threshold",
        threshold,
    ]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    spans = json.loads(pred.read_text(encoding="utf-8").splitlines()[0])["spans"]
    assert bool(spans) is redacted
    assert all(s["score"] >= float(threshold) for s in spans)


def test_threshold_option_rejects_values_outside_0_1(tmp_path: Path) -> None:
    (tmp_path / "n1.txt").write_text("x", encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["redact", str(tmp_path / "n1.txt"), "-o", str(tmp_path / "o"), "--threshold", "1.5"]
    )
    assert result.exit_code == 2
