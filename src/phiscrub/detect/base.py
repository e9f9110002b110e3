"""The Detector role: anything that proposes PHI spans for a document."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from phiscrub.document import Document, Span

__all__ = ["Detector", "detect_all", "detect_batch"]


@runtime_checkable
class Detector(Protocol):
    """Proposes spans; never mutates the document.

    Implementations set ``name`` (used as the span ``source`` prefix) and return spans whose
    offsets index ``doc.text``. Spans may overlap: the resolve step picks one set.
    """

    name: str

    def detect(self, doc: Document) -> list[Span]:
        """Return proposed PHI spans for ``doc``."""
        ...


def detect_batch(detector: Detector, docs: Sequence[Document]) -> list[list[Span]]:
    """``detector``'s spans for each of ``docs``: its ``detect_many`` when it batches (models), else
    :meth:`Detector.detect` per document."""
    many = getattr(detector, "detect_many", None)
    return many(list(docs)) if many is not None else [detector.detect(d) for d in docs]


def detect_all(detectors: Sequence[Detector], docs: Sequence[Document]) -> list[list[list[Span]]]:
    """Every detector's spans for each of ``docs`` (``[detector][doc]``), the batching detectors
    (models) run in a thread of their own beside the others.

    A model's forward pass runs in native code that releases the GIL, so the rule detectors use the
    core it leaves idle: on two cores the batch takes about the longer of the two, not their sum.
    The results are those of running the detectors one after another, in the same order.
    """
    batching = [k for k, det in enumerate(detectors) if getattr(det, "detect_many", None) is not None]
    if not batching or len(batching) == len(detectors) or not docs:
        return [detect_batch(det, docs) for det in detectors]
    import contextvars
    import threading

    out: list[list[list[Span]] | None] = [None] * len(detectors)
    failure: list[BaseException] = []
    context = contextvars.copy_context()  # progress callbacks reach the model's reports too

    def models() -> None:
        try:
            for k in batching:
                out[k] = detect_batch(detectors[k], docs)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            failure.append(exc)

    worker = threading.Thread(target=context.run, args=(models,), name="phiscrub-model", daemon=True)
    worker.start()
    try:
        for k, det in enumerate(detectors):
            if k not in batching:
                out[k] = detect_batch(det, docs)
    finally:
        worker.join()
    if failure:
        raise failure[0]
    return [spans if spans is not None else [] for spans in out]
