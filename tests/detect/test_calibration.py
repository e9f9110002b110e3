"""Span score calibration: isotonic fit, storage in meta.json, application by the tagger detector."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest

from phiscrub.detect.calibration import (
    CALIBRATION_KEY,
    SpanCalibration,
    fit_calibration,
    load_calibration,
    save_calibration,
    span_targets,
)
from phiscrub.detect.tagger import TaggerDetector, calibrate_model
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError
from phiscrub.text import tokenize


def test_fit_is_monotone_and_matches_rates_of_separable_scores() -> None:
    scores = [0.1, 0.2, 0.3, 0.6, 0.7, 0.9, 0.95]
    targets = [0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]
    cal = fit_calibration(scores, targets)
    assert [cal(s) for s in scores] == targets
    grid = [i / 100 for i in range(101)]
    values = [cal(g) for g in grid]
    assert all(b >= a for a, b in itertools.pairwise(values))


def test_fit_pools_violations_into_their_weighted_mean() -> None:
    # 0.8 is mostly wrong, 0.5 mostly right: the two pool to one level (weights 1 and 3).
    cal = fit_calibration([0.5, 0.8], [1.0, 0.0], weights=[1.0, 3.0])
    assert cal(0.5) == pytest.approx(0.25) and cal(0.8) == pytest.approx(0.25)
    assert cal.n_spans == 2 and cal.n_tokens == 4 and cal.phi_rate == pytest.approx(0.25)


def test_equal_raw_scores_get_one_calibrated_score() -> None:
    cal = fit_calibration([0.7, 0.7, 0.7, 0.7], [1.0, 0.0, 1.0, 1.0])
    assert cal(0.7) == pytest.approx(0.75) and cal(0.0) == pytest.approx(0.75)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [(0.0, 0.1), (0.2, 0.1), (0.35, 0.3), (0.5, 0.5), (0.75, 0.9), (1.0, 0.9)],
)
def test_calibration_interpolates_between_knots_and_clamps_outside(raw: float, expected: float) -> None:
    cal = SpanCalibration(x=(0.2, 0.5, 0.75), y=(0.1, 0.5, 0.9))
    assert cal(raw) == pytest.approx(expected)


@pytest.mark.parametrize(
    "data",
    [
        {"x": [0.1], "y": [0.2], "bins": 3},  # unknown key
        {"x": [0.1, 0.2]},  # missing y
        {"x": [0.1, 0.2], "y": [0.5]},  # lengths differ
        {"x": [0.3, 0.2], "y": [0.1, 0.2]},  # x decreasing
        {"x": [0.1, 0.2], "y": [0.6, 0.2]},  # y decreasing
        {"x": [0.1], "y": [1.2]},  # out of range
        {"x": [0.1], "y": [0.2], "method": "platt"},
        {"x": ["a"], "y": [0.2]},
    ],
)
def test_invalid_stored_calibration_is_a_config_error(data: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        SpanCalibration.from_dict(data)


def test_calibration_round_trips_through_meta_json(tmp_path: Path) -> None:
    (tmp_path / "meta.json").write_text(json.dumps({"format_version": 1}), encoding="utf-8")
    assert load_calibration(tmp_path) is None
    cal = fit_calibration([0.2, 0.9], [0.0, 1.0], policy="safe-harbor")
    save_calibration(tmp_path, cal)
    meta = json.loads((tmp_path / "meta.json").read_text(encoding="utf-8"))
    assert meta["format_version"] == 1 and CALIBRATION_KEY in meta
    assert load_calibration(tmp_path) == cal
    save_calibration(tmp_path, None)
    assert load_calibration(tmp_path) is None


def test_span_targets_are_the_share_of_gold_phi_tokens_under_the_policy() -> None:
    text = "Ann Lee is 45 and lives in Ohio now"
    gold = Document("d", text, (Span(0, 7, "PATIENT"), Span(11, 13, "AGE"), Span(27, 31, "STATE")))
    preds = [Span(0, 10, "PATIENT"), Span(11, 13, "AGE"), Span(27, 35, "CITY")]
    assert len(tokenize(text[0:10])) == 3
    got = span_targets(gold, preds, "safe-harbor")
    assert got == [(pytest.approx(2 / 3), 3), (0.0, 1), (0.0, 2)]
    assert span_targets(gold, preds, "i2b2")[1:] == [(1.0, 1), (0.5, 2)]


class _FakeTagger:
    labels = ("PATIENT",)


class _FixedTaggerDetector(TaggerDetector):
    """A TaggerDetector whose word predictions are given, so calibration is tested without a model."""

    def __init__(self, tags: list[str], probs: list[float], calibration: SpanCalibration | None) -> None:
        super().__init__(_FakeTagger(), calibration=calibration)  # type: ignore[arg-type]
        self._tags, self._probs = tags, probs

    def predict(self, docs, batch_size=None):  # type: ignore[no-untyped-def]
        from phiscrub.tagger.inference import WordPrediction

        return [WordPrediction(d.id, tokenize(d.text), self._tags, self._probs) for d in docs]


@pytest.mark.parametrize(
    ("calibration", "score"), [(None, 0.75), (SpanCalibration(x=(0.5, 1.0), y=(0.2, 0.8)), 0.5)]
)
def test_tagger_detector_applies_its_calibration_to_span_scores(
    calibration: SpanCalibration | None, score: float
) -> None:
    det = _FixedTaggerDetector(["B-PATIENT", "I-PATIENT", "O"], [0.7, 0.8, 0.99], calibration)
    (span,) = det.detect(Document("d", "Ann Lee today"))
    assert (span.start, span.end, span.label, span.source) == (0, 7, "PATIENT", "model")
    assert span.score == pytest.approx(score)


@pytest.mark.slow
@pytest.mark.usefixtures("one_torch_thread")
def test_calibrate_model_stores_a_map_that_load_applies(tmp_path: Path) -> None:
    from phiscrub.detect.tagger import bundled_model_path

    bundled = bundled_model_path()
    assert bundled is not None
    folder = tmp_path / "model"
    shutil.copytree(bundled, folder)
    docs = [
        Document(
            "a",
            "Seen by Dr. Ellen Ripley on 03/14/2021 at Mercy Hospital.",
            (Span(12, 24, "DOCTOR"), Span(28, 38, "DATE"), Span(42, 56, "HOSPITAL")),
        ),
        Document(
            "b",
            "Pt John Carter called 617-555-0199 on March 3, 2020.",
            (Span(3, 14, "PATIENT"), Span(22, 34, "PHONE"), Span(38, 51, "DATE")),
        ),
    ]
    for d in docs:
        d.validate()
    cal = calibrate_model(folder, docs, policy="safe-harbor")
    assert cal.n_spans > 0 and load_calibration(folder) == cal
    raw = TaggerDetector.load(folder)
    assert raw.calibration == cal
    raw_scores = [s.score for s in raw.predict(docs)[0].spans()]
    calibrated = [s.score for s in raw.detect(docs[0])]
    assert calibrated == [pytest.approx(cal(r)) for r in raw_scores]
