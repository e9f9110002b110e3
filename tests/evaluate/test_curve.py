"""Precision-recall points over the span-score threshold, and their PNG (synthetic PHI only)."""

from __future__ import annotations

from pathlib import Path

import pytest

from phiscrub import Deidentifier
from phiscrub.document import Document, Span
from phiscrub.evaluate.curve import ThresholdPoint, pipeline_points, plot_pr_curve, threshold_points
from phiscrub.evaluate.metrics import evaluate

# "May": a date element that every policy removes (a year alone is kept under safe-harbor).
TEXT = "Ann Lee , 45 , seen May in Ohio by Bob Ray ."


def _at(surface: str, label: str, score: float = 1.0) -> Span:
    start = TEXT.index(surface)
    return Span(start, start + len(surface), label, score)


GOLD = Document(
    "n1",
    TEXT,
    (
        _at("Ann Lee", "PATIENT"),
        _at("45", "AGE"),
        _at("May", "DATE"),
        _at("Ohio", "STATE"),
        _at("Bob Ray", "DOCTOR"),
    ),
)
PRED = GOLD.with_spans(
    [
        _at("Ann Lee", "PATIENT", 0.95),  # 2 tokens, right
        _at("May", "DATE", 0.6),  # 1 token, right
        _at("seen", "DATE", 0.3),  # 1 token, wrong
        _at("Bob Ray", "DOCTOR", 0.2),  # 2 tokens, right
    ]
)


@pytest.mark.parametrize(
    ("threshold", "tp", "fp"),
    [(0.0, 5, 1), (0.2, 5, 1), (0.25, 3, 1), (0.5, 3, 0), (0.9, 2, 0), (0.99, 0, 0)],
)
def test_threshold_points_count_tokens_of_spans_scoring_at_least_the_threshold(
    threshold: float, tp: int, fp: int
) -> None:
    (point,) = threshold_points([GOLD], [PRED], thresholds=[threshold], policy="safe-harbor")
    gold_phi = 5  # safe-harbor: the age 45 and the state are not PHI
    assert (point.tp, point.fp, point.fn) == (tp, fp, gold_phi - tp)
    assert point.recall == pytest.approx(tp / gold_phi)
    assert point.precision == pytest.approx(tp / (tp + fp) if tp + fp else 0.0)


def test_threshold_points_at_zero_agree_with_the_binary_metric() -> None:
    (point,) = threshold_points([GOLD], [PRED], thresholds=[0.0])
    binary = evaluate([GOLD], [PRED]).binary
    assert (point.tp, point.fp, point.fn) == (binary.tp, binary.fp, binary.fn)


def test_recall_never_rises_with_the_threshold() -> None:
    points = threshold_points([GOLD], [PRED])
    recalls = [p.recall for p in points]
    assert recalls == sorted(recalls, reverse=True)


def test_pipeline_points_match_detecting_at_each_threshold() -> None:
    notes = [
        Document(
            "a",
            "Pt John Carter seen by Dr. Ellen Ripley on 03/14/2021.",
            (Span(3, 14, "PATIENT"), Span(27, 39, "DOCTOR"), Span(43, 53, "DATE")),
        ),
        Document(
            "b",
            "Call 617-555-0199 or email jc@example.org; MRN 4455667.",
            (Span(5, 17, "PHONE"), Span(27, 41, "EMAIL"), Span(47, 54, "MEDICALRECORD")),
        ),
    ]
    thresholds = [0.0, 0.7, 0.92, 1.0]
    deid = Deidentifier(model=None)
    points = pipeline_points(deid, notes, thresholds)
    for t, point in zip(thresholds, points):
        at_t = Deidentifier(model=None, threshold=t)
        preds = [d.with_spans(at_t.detect(d)) for d in notes]
        binary = evaluate(notes, preds).binary
        assert point.threshold == t
        assert (point.tp, point.fp, point.fn) == (binary.tp, binary.fp, binary.fn)


def test_plot_pr_curve_writes_a_png(tmp_path: Path) -> None:
    points = threshold_points([GOLD], [PRED])
    out = plot_pr_curve({"dev": points, "test": points[::2]}, tmp_path / "img" / "pr.png", mark=0.5)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert isinstance(points[0], ThresholdPoint) and points[0].to_dict()["threshold"] == 0.0


def test_evaluate_cli_pr_curve_writes_png_and_points(tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner

    from phiscrub.cli.app import cli
    from phiscrub.io import get_writer

    get_writer("jsonl").write([GOLD], tmp_path / "gold.jsonl")
    get_writer("jsonl").write([PRED], tmp_path / "pred.jsonl")
    png = tmp_path / "pr.png"
    args = ["evaluate", "--gold", str(tmp_path / "gold.jsonl"), "--pred", str(tmp_path / "pred.jsonl")]
    result = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "rep"), "--pr-curve", str(png)])
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:4] == b"\x89PNG"
    points = json.loads(png.with_suffix(".json").read_text(encoding="utf-8"))
    by_t = {p["threshold"]: p for p in points}
    assert by_t[0.5]["tp"] == 3 and by_t[0.5]["fp"] == 0
