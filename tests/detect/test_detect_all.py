"""detect_all: batching detectors (models) run in a thread beside the rule detectors, with the same
results, in the same order, as running them one after another; failures and progress reach the
caller."""

from __future__ import annotations

import threading

import pytest

from phiscrub import Deidentifier
from phiscrub.detect.base import detect_all, detect_batch
from phiscrub.document import Document, Span
from phiscrub.progress import report, reporting


class _Rules:
    name = "rules"

    def detect(self, doc: Document) -> list[Span]:
        return [Span(0, 1, "NAME", 1.0, "rules")]


class _Model:
    name = "model"

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.threads: list[str] = []

    def detect(self, doc: Document) -> list[Span]:  # pragma: no cover - detect_many is used
        return self.detect_many([doc])[0]

    def detect_many(self, docs: list[Document]) -> list[list[Span]]:
        self.threads.append(threading.current_thread().name)
        report("model windows", 1, 1)
        if self.fail:
            raise RuntimeError("boom")
        return [[Span(1, 2, "DATE", 0.9, "model")] for _ in docs]


DOCS = [Document(str(i), "ab cd") for i in range(3)]


def test_same_results_and_order_as_one_after_another() -> None:
    model = _Model()
    dets = [_Rules(), model, _Rules()]
    assert detect_all(dets, DOCS) == [detect_batch(d, DOCS) for d in dets]
    assert model.threads[0] == "phiscrub-model"  # the model ran beside the rules


def test_a_model_failure_reaches_the_caller() -> None:
    with pytest.raises(RuntimeError, match="boom"):
        detect_all([_Rules(), _Model(fail=True)], DOCS)


def test_progress_reports_from_the_model_thread_reach_the_callback() -> None:
    seen: list[str] = []
    with reporting(lambda stage, done, total: seen.append(stage), min_chars=0):
        detect_all([_Rules(), _Model()], DOCS)
    assert seen == ["model windows"]


def test_models_alone_or_rules_alone_run_in_the_caller() -> None:
    model = _Model()
    detect_all([model], DOCS)
    assert model.threads == [threading.current_thread().name]
    assert detect_all([_Rules()], DOCS) == [detect_batch(_Rules(), DOCS)]


def test_bundled_model_proposals_are_those_of_the_serial_run() -> None:
    deid = Deidentifier().load()
    docs = [
        Document("a", "Seen by Dr. Zoltan Quenwick at Mercy Hospital on 3/12/2019."),
        Document("b", "No PHI."),
    ]
    dets = deid.active_detectors
    assert len(dets) >= 2
    assert detect_all(dets, docs) == [detect_batch(d, docs) for d in dets]
