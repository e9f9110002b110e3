"""The model starts on the next batch early (``Deidentifier.prefetch``): the same spans, every result
taken, nothing held for a batch that never runs, and ``phiscrub redact`` reading one batch ahead.
Made-up names only."""

from __future__ import annotations

from typing import Any

import pytest

from phiscrub.deid import Deidentifier
from phiscrub.detect.onnx_tagger import OnnxModel
from phiscrub.document import Document
from phiscrub.runs.parallel import map_batches

NAMES = ("Alma Quill", "Boris Sovik", "Celia Tamber", "Dario Wexley")


def _notes(prefix: str, n: int, sentences: int) -> list[Document]:
    return [
        Document(
            f"{prefix}{i}",
            " ".join(
                f"Pt {NAMES[(i + k) % 4]} seen {k % 12 + 1}/{i % 27 + 1} at Harbor Clinic, MRN {700000 + 37 * i + k}."
                for k in range(sentences)
            ),
        )
        for i in range(n)
    ]


def _model(deid: Deidentifier) -> OnnxModel:
    for det in deid.active_detectors:
        inner = getattr(det, "inner", det)
        if isinstance(getattr(inner, "model", None), OnnxModel):
            return inner.model  # type: ignore[no-any-return]
    raise AssertionError("the bundled model is not an ONNX model")


@pytest.fixture(scope="module")
def deid() -> Deidentifier:
    return Deidentifier()


def test_prefetched_batches_give_the_same_spans_and_every_result_is_taken(deid: Deidentifier) -> None:
    docs = _notes("a", 12, 30) + _notes("b", 4, 2)  # several windows per note, and short notes
    expected = Deidentifier().detect_many(docs)
    deid.prefetch(docs)
    model = _model(deid)
    assert model._ahead  # the forward passes were started
    assert deid.detect_many(docs) == expected
    assert not model._ahead and not model._windowed  # each was taken by the batch it was started for


def test_a_batch_that_never_runs_is_dropped_two_prefetches_later(deid: Deidentifier) -> None:
    model = _model(deid)
    model._ahead.clear()
    model._generations.clear()
    first, second, third = _notes("x", 3, 5), _notes("y", 3, 5), _notes("z", 3, 5)
    deid.prefetch(first)
    held_first = set(model._ahead)
    deid.prefetch(second)
    deid.prefetch(third)
    assert held_first and not held_first & set(model._ahead)
    assert len(model._generations) == 2
    deid.detect_many(second)
    deid.detect_many(third)
    assert not model._ahead


class _Recorder:
    """Records the order of prefetch and work calls (map_batches only calls ``prefetch``)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def prefetch(self, docs: list[Document]) -> None:
        self.calls.append("prefetch " + docs[0].id)


def _work(recorder: Any, docs: list[Document]) -> str:
    recorder.calls.append("work " + docs[0].id)
    return docs[0].id


def test_one_process_reads_one_batch_ahead() -> None:
    rec = _Recorder()
    batches = [(k, [Document(f"d{k}", "x")]) for k in range(3)]
    out = list(map_batches(rec, _work, iter(batches), workers=1))  # type: ignore[arg-type]
    assert out == [(0, "d0"), (1, "d1"), (2, "d2")]
    assert rec.calls == [
        "prefetch d0",
        "prefetch d1",
        "work d0",
        "prefetch d2",
        "work d1",
        "work d2",
    ]
